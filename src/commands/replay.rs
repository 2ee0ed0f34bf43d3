//! `plugctl replay DIR [--format human|json|junit]`: run the calls recorded
//! with `--record DIR` again against today's plugins and report, per case
//! file, whether the plugin still answers as it did. Exit 1 on any
//! difference. See [`plugctl_core::provenance::replay`] for what is compared and
//! what a case file may not decide.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::Ctx;
use crate::cli::{ReplayArgs, ReportFormat};
use crate::output::Style;
use crate::{Error, Result};
use plugctl_core::discovery::{self, EntryKind};
use plugctl_core::families::spawn_failure;
use plugctl_core::provenance::case::{Case, RecordKey, plugin_hash};
use plugctl_core::provenance::replay::{self, Scene, Verdict};
use plugctl_core::trust::CheckedDir;

pub async fn run(ctx: &Ctx, args: ReplayArgs) -> Result<()> {
    let format = super::report_format(&ctx.printer, args.format)?;
    // The case directory through the gate: one another user can write
    // could hold any case, so it is refused whole.
    let dir = CheckedDir::open(ctx.settings.policy(), &args.dir)
        .map_err(|r| Error::refused(format_args!("replay {}", args.dir.display()), &r))?;
    // Sticky or not, a directory others can add files to could hold a
    // case of theirs.
    if !ctx.settings.allow_insecure_paths && dir.meta().mode & 0o022 != 0 {
        return Err(Error::usage(format!(
            "replay {}: refusing a case directory that {} can write (mode {:04o}): anyone \
             there could add a case; fix: chmod go-w {}, or copy the cases somewhere only you \
             can write",
            args.dir.display(),
            plugctl_core::trust::who_writes(dir.meta().mode),
            dir.meta().mode & 0o7777,
            plugctl_core::provenance::shell_path(&args.dir)
        )));
    }
    let key = RecordKey::load(&dir)
        .map_err(|r| Error::refused(format_args!("replay {}", args.dir.display()), &r))?;
    let files = case_files(&dir)?;
    if files.is_empty() {
        return Err(Error::usage(format!(
            "{} holds no case files (*.json): record some with --record {}",
            args.dir.display(),
            plugctl_core::provenance::shell_path(&args.dir)
        )));
    }
    let mut verdicts = Vec::with_capacity(files.len());
    for file in &files {
        verdicts.push(replay_one(ctx, &dir, key.as_ref(), file, &args.env).await);
    }
    let failed = verdicts.iter().filter(|v| !v.ok).count();
    match format {
        ReportFormat::Json => ctx.printer.document(json!({
            "ok": failed == 0,
            "dir": args.dir,
            "cases": verdicts,
        }))?,
        ReportFormat::Junit => ctx.printer.text(&junit(&verdicts)?)?,
        ReportFormat::Human => {
            let mut text = String::new();
            for v in &verdicts {
                let (label, style) = if v.ok {
                    ("PASS", Style::Good)
                } else {
                    ("DIFF", Style::Bad)
                };
                // The file name and the case's type and name are another
                // user's bytes: escaped like every cell.
                text.push_str(&format!(
                    "{}  {}  ({} plugin {}, {})\n",
                    ctx.printer.paint(label, style),
                    crate::output::value(&v.file),
                    crate::output::value(&v.family),
                    crate::output::quote(&v.name),
                    v.operation
                ));
                for d in &v.differences {
                    for line in d.lines() {
                        text.push_str(&format!("      {}\n", crate::output::sanitize_cell(line)));
                    }
                }
                for n in &v.notes {
                    text.push_str(&format!(
                        "      note: {}\n",
                        crate::output::sanitize_cell(n)
                    ));
                }
            }
            text.push_str(&format!(
                "\n{}: {} cases: {} same, {} different\n",
                if failed == 0 { "ok" } else { "FAILED" },
                verdicts.len(),
                verdicts.len() - failed,
                failed
            ));
            ctx.printer.text(&text)?;
        }
    }
    if failed == 0 {
        Ok(())
    } else {
        Err(Error::Failed(format!(
            "replay: {failed} of {} recorded calls answer differently",
            verdicts.len()
        )))
    }
}

fn case_files(dir: &CheckedDir) -> Result<Vec<OsString>> {
    let mut files: Vec<OsString> = dir
        .entries()
        .map_err(|r| Error::usage(format!("cannot read {}: {r}", dir.path().display())))?
        .into_iter()
        .map(|(name, _)| name)
        .filter(|n| Path::new(n).extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    Ok(files)
}

async fn replay_one(
    ctx: &Ctx,
    dir: &CheckedDir,
    key: Option<&RecordKey>,
    name: &OsString,
    env: &[(String, String)],
) -> Verdict {
    let file: PathBuf = dir.join(name);
    let case = match Case::load(dir, name) {
        Ok(c) => c,
        Err(e) => {
            let mut v = Verdict {
                file: name.to_string_lossy().into_owned(),
                family: String::new(),
                name: String::new(),
                operation: String::new(),
                ok: true,
                differences: Vec::new(),
                notes: Vec::new(),
                duration_ms: 0,
                usage: None,
            };
            v.differ(crate::exit::message(&e));
            return v;
        }
    };
    let mut verdict = Verdict::new(&file, &case);
    // The case names a plugin; today's discovery decides which file that is.
    let family_dir = ctx.settings.family_dir(&case.family);
    let entry = match discovery::find(&case.family, &family_dir, &case.name, ctx.settings.nomad) {
        Ok(e) => e,
        Err(e) => {
            verdict.differ(format!("cannot replay: {}", crate::exit::message(&e)));
            return verdict;
        }
    };
    match &entry.kind {
        EntryKind::Plugin => {}
        EntryKind::Builtin(_) => {
            verdict.differ("cannot replay: a built-in plugin runs inside plugctl, so no call was recorded for it");
            return verdict;
        }
        EntryKind::Rejected(why) | EntryKind::Ignored(why) => {
            verdict.differ(format!(
                "cannot replay: {} is not run: {why}",
                entry.path.display()
            ));
            return verdict;
        }
    }
    // argv is the operation, and for a secrets fetch the secret's path:
    // nothing else a case file says reaches the plugin's argv.
    let args_ok = case.args.first().map(String::as_str) == Some(case.operation.name())
        && match case.args.len() {
            1 => true,
            2 => case.carries_secrets(),
            _ => false,
        };
    if !args_ok {
        verdict.differ(format!(
            "cannot replay: the recorded arguments [{}] are not the {} operation's",
            case.args
                .iter()
                .map(|a| plugctl_core::escape::quote(a))
                .collect::<Vec<_>>()
                .join(", "),
            case.operation.name()
        ));
        return verdict;
    }
    if entry.path != case.program {
        verdict.notes.push(format!(
            "recorded from {}, replayed with {}",
            case.program.display(),
            entry.path.display()
        ));
    }
    let now_hash = plugin_hash(&entry.path);
    if case.plugin_sha256.is_some() && now_hash != case.plugin_sha256 {
        verdict.notes.push(format!(
            "the plugin file changed since the recording (sha256 {} then, {} now)",
            short(case.plugin_sha256.as_deref()),
            short(now_hash.as_deref())
        ));
    }
    let scratch = match replay::scratch_dir(ctx.settings.policy()) {
        Ok(s) => s,
        Err(e) => {
            verdict.differ(format!(
                "cannot make a scratch volumes directory under TMPDIR: {}",
                e.explained()
            ));
            return verdict;
        }
    };
    let scene = Scene {
        program: &entry.path,
        plugin_dir: &ctx.settings.host_volume_plugin_dir,
        scratch: scratch.path(),
        profile: ctx.settings.nomad,
        env,
    };
    let inv = match replay::rebuild(&case, &scene) {
        Ok(inv) => inv,
        Err(why) => {
            verdict.differ(format!(
                "cannot replay: {}; nothing was run",
                crate::exit::advised_text(&why)
            ));
            return verdict;
        }
    };
    // The level and policy it ran under then and runs under now, when
    // either is not none.
    let now = ctx.pool.sandbox().confinement(&inv).describe();
    let none = plugctl_core::sandbox::Level::None.name();
    match case.sandbox.as_deref() {
        None if now == none => {}
        Some(then) if then == now => verdict.notes.push(format!("sandbox: {now}")),
        then => verdict.notes.push(format!(
            "recorded under sandbox {}, replayed under {now}",
            then.unwrap_or(none)
        )),
    }
    match ctx.pool.run(&inv).await {
        Ok(out) => {
            verdict.duration_ms = u64::try_from(out.duration.as_millis()).unwrap_or(u64::MAX);
            verdict.usage = out.usage;
            replay::compare(&case, &out, scratch.path(), key, &mut verdict);
        }
        Err(e) => verdict.differ(format!(
            "could not start: {}",
            crate::exit::failure(&spawn_failure(e))
        )),
    }
    verdict
}

fn short(h: Option<&str>) -> String {
    h.map(|h| h.chars().take(12).collect())
        .unwrap_or_else(|| "-".into())
}

fn junit(verdicts: &[Verdict]) -> Result<String> {
    use crate::render::visible;
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut suite = TestSuite::new("plugctl replay");
    for v in verdicts {
        let status = if v.ok {
            TestCaseStatus::success()
        } else {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            s.set_message(visible(
                v.differences
                    .first()
                    .and_then(|d| d.lines().next())
                    .unwrap_or("differs"),
            ));
            s.set_description(visible(&v.differences.join("\n")));
            s
        };
        let mut case = TestCase::new(visible(&v.file), status);
        case.set_classname(visible(&format!("{}/{}", v.family, v.name)));
        case.set_time(std::time::Duration::from_millis(v.duration_ms));
        if !v.notes.is_empty() {
            case.set_system_out(visible(&v.notes.join("\n")));
        }
        suite.add_test_case(case);
    }
    let mut report = Report::new("plugctl");
    report.add_test_suite(suite);
    report.to_string().map(|s| s + "\n").map_err(|e| {
        Error::io(
            "cannot write the JUnit report",
            std::io::Error::other(e.to_string()),
        )
    })
}

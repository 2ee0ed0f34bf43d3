//! `plugctl replay DIR [--format human|json|junit]`: run the calls recorded
//! with `--record DIR` again against today's plugins and report, per case
//! file, whether the plugin still answers as it did. Exit 1 on any
//! difference. See [`crate::provenance::replay`] for what is compared and
//! what a case file may not decide.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::Ctx;
use crate::cli::{ReplayArgs, ReportFormat};
use crate::discovery::{self, EntryKind};
use crate::families::spawn_failure;
use crate::output::Style;
use crate::provenance::case::{Case, plugin_hash};
use crate::provenance::replay::{self, Verdict};
use crate::{Error, Result};

pub async fn run(ctx: &Ctx, args: ReplayArgs) -> Result<()> {
    let format = super::report_format(&ctx.printer, args.format)?;
    let files = case_files(&args.dir)?;
    if files.is_empty() {
        return Err(Error::usage(format!(
            "{} holds no case files (*.json): record some with --record {}",
            args.dir.display(),
            args.dir.display()
        )));
    }
    let mut verdicts = Vec::with_capacity(files.len());
    for file in &files {
        verdicts.push(replay_one(ctx, file).await);
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
                text.push_str(&format!(
                    "{}  {}  ({} plugin {:?}, {})\n",
                    ctx.printer.paint(label, style),
                    v.file,
                    v.family,
                    crate::output::sanitize_cell(&v.name),
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

fn case_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let rd = fs::read_dir(dir)
        .map_err(|e| Error::usage(format!("cannot read {}: {e}", dir.display())))?;
    let mut files: Vec<PathBuf> = rd
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    Ok(files)
}

async fn replay_one(ctx: &Ctx, file: &Path) -> Verdict {
    let case = match Case::load(file) {
        Ok(c) => c,
        Err(e) => {
            let mut v = Verdict {
                file: file.display().to_string(),
                family: String::new(),
                name: String::new(),
                operation: String::new(),
                ok: true,
                differences: Vec::new(),
                notes: Vec::new(),
                duration_ms: 0,
            };
            v.differ(e.to_string());
            return v;
        }
    };
    let mut verdict = Verdict::new(file, &case);
    // The case names a plugin; today's discovery decides which file that is.
    let dir = ctx.settings.family_dir(&case.family);
    let entry = match discovery::find(&case.family, &dir, &case.name) {
        Ok(e) => e,
        Err(e) => {
            verdict.differ(format!("cannot replay: {e}"));
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
            "cannot replay: the recorded arguments {:?} are not the {:?} operation's",
            case.args, case.operation
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
    let scratch = match replay::scratch_dir() {
        Ok(s) => s,
        Err(e) => {
            verdict.differ(format!("cannot make a scratch volumes directory: {e}"));
            return verdict;
        }
    };
    let inv = replay::invocation(&case, &entry.path, scratch.path());
    match ctx.pool.run(&inv).await {
        Ok(out) => {
            verdict.duration_ms = u64::try_from(out.duration.as_millis()).unwrap_or(u64::MAX);
            replay::compare(&case, &out, scratch.path(), &mut verdict);
        }
        Err(e) => verdict.differ(format!("could not start: {}", spawn_failure(e))),
    }
    verdict
}

fn short(h: Option<&str>) -> String {
    h.map(|h| h.chars().take(12).collect())
        .unwrap_or_else(|| "-".into())
}

fn junit(verdicts: &[Verdict]) -> Result<String> {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut suite = TestSuite::new("plugctl replay");
    for v in verdicts {
        let status = if v.ok {
            TestCaseStatus::success()
        } else {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            s.set_message(
                v.differences
                    .first()
                    .and_then(|d| d.lines().next())
                    .unwrap_or("differs"),
            );
            s.set_description(v.differences.join("\n"));
            s
        };
        let mut case = TestCase::new(v.file.clone(), status);
        case.set_classname(format!("{}/{}", v.family, v.name));
        case.set_time(std::time::Duration::from_millis(v.duration_ms));
        if !v.notes.is_empty() {
            case.set_system_out(v.notes.join("\n"));
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

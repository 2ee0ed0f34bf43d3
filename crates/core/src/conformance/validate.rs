//! `validate`: walks a plugin directory and runs every check on every entry.
//!
//! The static checks (layout, Nomad traps, permissions, what the kernel
//! will make of the file) look at the file system only; the dynamic ones
//! run the plugin's fingerprint with the protocol's empty environment, all
//! plugins concurrently (bounded by the pool) through the one fan-out.

use std::ffi::OsString;
use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::matrix::{self, Ran};
use super::subject::{Link, Subject};
use super::{Report, Verdict, fingerprint, layout, permissions, runnable};
use crate::discovery::{self, EntryKind};
use crate::fanout::Lost;
use crate::nomad::Profile;
use crate::runner::{Pool, SpawnError};
use crate::stop::Stop;
use crate::{Error, Result};

/// How `validate` runs.
#[derive(Debug, Clone)]
pub struct Options {
    /// Permission findings become errors.
    pub strict: bool,
    /// Overrides each family's fingerprint deadline from the protocol.
    pub deadline: Option<Duration>,
    pub grace: Duration,
    /// The owner and mode rules plugctl applies before running a plugin
    /// (None with `--allow-insecure-paths`): a plugin they refuse is not
    /// run, and its run-time checks are skipped saying why.
    pub trust: Option<std::sync::Arc<crate::trust::Trust>>,
    /// The release whose deadlines the fingerprints get (the newest of
    /// `releases`, or the one `--nomad-version` picked).
    pub nomad: Profile,
    /// The releases of the matrix (`--nomad-version A,B`): each plugin gets
    /// a `release.<version>` check per release. Empty: no matrix.
    pub releases: Vec<Profile>,
    /// The fingerprinted plugin files the registry knows (family, name →
    /// recorded path): such a plugin that lost its execute bit, or its
    /// file, is unhealthy as `fingerprint` records it, so an error here
    /// too, where an unknown file without an execute bit is only a warning.
    pub known: Arc<Known>,
}

/// The registry's file plugins: (family, name) → the recorded path.
pub type Known = std::collections::BTreeMap<(String, String), PathBuf>;

/// Validates the plugin directories `dirs` names (its `plugin_dir`, and
/// its `host_volume_plugin_dir` for host volumes).
pub async fn validate(
    dirs: &discovery::Dirs,
    pool: Arc<Pool>,
    opts: &Options,
    stop: &Stop,
) -> Result<Report> {
    let root = &dirs.plugin_dir;
    let root_entries = read_dir_sorted(root).map_err(|e| {
        Error::usage(format!(
            "cannot read plugin directory {}: {e}",
            root.display()
        ))
    })?;

    let families = discovery::families(dirs)?;
    // host-volume and secrets at the top are family directories, whatever
    // they are: layout.family-not-directory reports them, not as strays.
    let strays: Vec<OsString> = root_entries
        .into_iter()
        .filter(|n| !families.iter().any(|(_, dir)| *dir == root.join(n)))
        .collect();

    let mut report = Report::new();
    report.record(
        None,
        "layout.stray-file",
        layout::stray_files(root, &strays),
    );
    report.record(
        None,
        "permissions.writable",
        permissions::dir_writable(root, opts.strict),
    );
    report.record(
        None,
        "permissions.owner",
        permissions::dir_owner(root, opts.strict),
    );

    // Only the entries' names are held: each is read (stat, first bytes)
    // when its turn comes, and its fingerprint's output is dropped once its
    // checks are recorded, so memory follows the findings, not the files.
    let mut entries: Vec<Entry> = Vec::new();
    for (family, dir) in families {
        let exists = dir.is_dir();
        let scope = Some(family.as_str());
        report.record(
            scope,
            "layout.unknown-family",
            layout::unknown_family(&family, &dir),
        );
        let set_apart = dir != root.join(&family);
        report.record(
            scope,
            "layout.family-not-directory",
            layout::family_not_directory(&family, &dir, set_apart),
        );
        if !exists {
            continue;
        }
        report.record(
            scope,
            "permissions.writable",
            permissions::dir_writable(&dir, opts.strict),
        );
        report.record(
            scope,
            "permissions.owner",
            permissions::dir_owner(&dir, opts.strict),
        );
        let canonical = fs::canonicalize(&dir).map_err(|e| {
            Error::usage(format!(
                "cannot read plugin directory {}: {e}",
                dir.display()
            ))
        })?;
        let names = read_dir_sorted(&dir).map_err(|e| {
            Error::usage(format!(
                "cannot read plugin directory {}: {e}",
                dir.display()
            ))
        })?;
        // Recorded plugins of this directory that are no longer in it: as
        // `fingerprint` reports them, deleted, on every release.
        for ((f, name), path) in opts.known.iter() {
            if *f != family
                || path.parent() != Some(dir.as_path())
                || names.iter().any(|n| n.to_str() == Some(name.as_str()))
            {
                continue;
            }
            let id = format!("{family}/{name}");
            let reason = crate::verdict::deleted(path);
            let forget = crate::error::Hint::Forget {
                family: family.to_string(),
                name: name.clone(),
            };
            report.record(
                Some(&id),
                "layout.deleted",
                Verdict::error(reason.clone()).hint(forget.clone()),
            );
            for profile in &opts.releases {
                report.record(
                    Some(&id),
                    matrix::check_name(profile.release()),
                    Verdict::error(reason.clone()).hint(forget.clone()),
                );
            }
        }
        let place = Arc::new(Place {
            family,
            dir,
            canonical,
        });
        entries.extend(names.into_iter().map(|name| Entry {
            place: Arc::clone(&place),
            name,
        }));
    }

    if !pool.sandbox().policies().plugins.is_empty() {
        let ids: Vec<String> = entries.iter().map(Entry::id).collect();
        report.record(
            None,
            "sandbox.unused-policy",
            super::sandbox::unused(pool.sandbox().policies(), &ids),
        );
    }

    // One plugin's checks at a time per place in the pool; their reports
    // join the whole in directory order as soon as they and all before
    // them are done (fanout::run_all).
    let ids: Vec<String> = entries.iter().map(Entry::id).collect();
    let opts = Arc::new(opts.clone());
    crate::fanout::run_all(
        entries,
        pool.limit(),
        stop,
        |entry| {
            let (pool, opts) = (Arc::clone(&pool), Arc::clone(&opts));
            async move {
                let subject = Subject::read(
                    &entry.place.family,
                    entry.name,
                    &entry.place.dir,
                    &entry.place.canonical,
                );
                check_subject(&subject, &pool, &opts).await
            }
        },
        |i, part| match part {
            Ok(part) => report.extend(part),
            Err(lost @ Lost::Panicked(_)) => report.record(
                Some(&ids[i]),
                "validate.ran",
                Verdict::error(lost.to_string()),
            ),
            Err(lost @ Lost::Stopped) => report.record(
                Some(&ids[i]),
                "validate.ran",
                Verdict::skip(lost.to_string()),
            ),
        },
    )
    .await;
    Ok(report)
}

/// A family directory whose entries are checked.
struct Place {
    family: String,
    dir: PathBuf,
    canonical: PathBuf,
}

/// One entry to check, not read yet.
struct Entry {
    place: Arc<Place>,
    name: OsString,
}

impl Entry {
    /// The plugin field of its findings, as [`Subject::read`] makes it.
    fn id(&self) -> String {
        format!("{}/{}", self.place.family, self.name.to_string_lossy())
    }
}

/// Every check of one entry, in a fixed order; later checks are skipped
/// (with the reason) when an earlier one shows they cannot run.
async fn check_subject(s: &Subject, pool: &Pool, opts: &Options) -> Report {
    let mut r = Report::new();
    let ran = checks(s, pool, opts, &mut r).await;
    if !opts.releases.is_empty() {
        matrix::record(&mut r, s, &ran, &opts.releases, opts.deadline);
    }
    r
}

/// The checks of [`check_subject`], and how far the entry got.
async fn checks(s: &Subject, pool: &Pool, opts: &Options, r: &mut Report) -> Ran {
    let id = Some(s.id.as_str());

    // What the entry is.
    r.record(id, "layout.bad-name", layout::bad_name(s));
    r.record(id, "layout.broken-symlink", layout::broken_symlink(s));
    r.record(
        id,
        "layout.symlink-escapes",
        layout::symlink_escapes(s, opts.nomad),
    );
    r.record(id, "layout.directory", layout::directory(s));
    let known = opts
        .known
        .get(&(s.family.clone(), s.name.clone()))
        .is_some_and(|p| *p == s.path);
    r.record(id, "layout.special-file", layout::special_file(s));
    r.record(
        id,
        "layout.not-executable",
        layout::not_executable(s, known),
    );
    r.record(id, "nomad.shadows-builtin", layout::shadows_builtin(s));
    r.record(id, "nomad.exe-in-secrets", layout::exe_in_secrets(s));
    r.record(id, "nomad.secrets-symlink", layout::secrets_symlink(s));
    r.record(id, "nomad.os-root", layout::os_root(s, opts.nomad));

    // Files (and symlinks that should have been) only from here on:
    // directories and special files are done.
    let bad_link = matches!(s.link, Some(Link::Broken(_) | Link::Escapes(_)));
    if !bad_link && !s.is_file() {
        // A FIFO, socket or device: `fingerprint` lists it unhealthy.
        return match &s.kind {
            EntryKind::Rejected(why) => Ran::Ignored(why.clone()),
            _ => Ran::NotAPlugin,
        };
    }
    let not_file =
        bad_link.then(|| "not run: the symlink does not resolve inside its directory".to_string());
    let skip_all = |r: &mut Report, checks: &[&'static str], reason: &str| {
        for &c in checks {
            r.record(id, c, Verdict::skip(reason));
        }
    };
    // The gate plugctl applies before every run: the file, every directory
    // up to `/`, the interpreter and what `env` runs. A refusal is an error
    // (a root plugctl will not run it), whatever --strict says.
    let mut untrusted = None;
    if let Some(reason) = &not_file {
        skip_all(r, permissions::CHECKS, reason);
    } else {
        let trusted = match &opts.trust {
            Some(trust) => match trust.check(&s.path, &[]) {
                Ok(()) => Verdict::pass(),
                // One bug, one finding: runnable.interpreter-missing says it.
                Err(crate::trust::program::Untrusted::InterpreterMissing { .. }) => Verdict::pass(),
                Err(why) => {
                    untrusted = Some(why.to_string());
                    Verdict::error(why.to_string())
                }
            },
            None => Verdict::skip("the owner and mode rules are off")
                .hint(crate::error::Hint::InsecurePathsAllowed),
        };
        r.record(id, "permissions.trusted", trusted);
        r.record(
            id,
            "permissions.writable",
            permissions::writable(s, opts.strict),
        );
        r.record(
            id,
            "permissions.setuid",
            permissions::setuid(s, opts.strict),
        );
        r.record(id, "permissions.owner", permissions::owner(s, opts.strict));
        r.record(
            id,
            "sandbox.policy",
            super::sandbox::policy(pool.sandbox(), &s.path),
        );
    }

    // Whether it can run at all, and whether it runs as Nomad runs it.
    let no_exec_bit = s.is_file() && s.mode() & 0o111 == 0;
    let not_run = if let Some(reason) = not_file {
        Some(reason)
    } else if let Some(b) = s.shadowed() {
        Some(format!(
            "never run: Nomad always uses its built-in {} plugin {}",
            b.family,
            crate::escape::quote_os(b.name)
        ))
    } else if !s.is_file() || s.mode() & 0o111 == 0 {
        Some("not run: no execute bit (Nomad ignores it)".into())
    } else if !matches!(s.kind, EntryKind::Plugin) {
        Some(match &s.kind {
            EntryKind::Rejected(why) | EntryKind::Ignored(why) => format!("not run: {why}"),
            _ => "not run".into(),
        })
    } else {
        None
    };
    if let Some(reason) = not_run {
        skip_all(r, runnable::STATIC_CHECKS, &reason);
        skip_all(r, &fingerprint::checks(&s.family), &reason);
        // A file without an execute bit is a plugin that fails on every
        // release only when it is one (the registry knows it); otherwise
        // it is a file Nomad skips, as `fingerprint` does.
        return match (no_exec_bit, known) {
            (true, true) => Ran::Ignored(crate::verdict::no_execute_bit(&s.path)),
            (true, false) => Ran::NotAPlugin,
            _ => Ran::NotRun(reason),
        };
    }

    let exec_format = runnable::exec_format(s);
    let crlf = runnable::crlf_shebang(s);
    let interpreter = if crlf.clean() {
        runnable::interpreter_missing(s)
    } else {
        Verdict::skip("the shebang line ends in CR (see runnable.crlf-shebang)")
    };
    let blocked = [
        ("runnable.exec-format", &exec_format),
        ("runnable.crlf-shebang", &crlf),
        ("runnable.interpreter-missing", &interpreter),
    ]
    .iter()
    .find(|(_, v)| v.has_error())
    .map(|(name, _)| format!("cannot run: see {name}"));
    r.record(id, "runnable.exec-format", exec_format);
    r.record(id, "runnable.crlf-shebang", crlf);
    r.record(id, "runnable.interpreter-missing", interpreter);
    if let Some(reason) = blocked {
        skip_all(r, &fingerprint::checks(&s.family), &reason);
        return Ran::NotRun(reason);
    }
    if let Some(why) = &s.unreadable {
        let reason = format!(
            "not run: plugctl (uid {}) cannot read it ({why}); run validate as root, as Nomad \
             runs plugins",
            nix::unistd::geteuid()
        );
        skip_all(r, &fingerprint::checks(&s.family), &reason);
        return Ran::Refused(reason);
    }

    if let Some(why) = untrusted {
        let reason = format!("{why} (see permissions.trusted)");
        skip_all(r, &fingerprint::checks(&s.family), &reason);
        return Ran::Refused(reason);
    }
    let judged = fingerprint::Judged {
        profile: opts.nomad,
        timeout: opts.deadline,
        grace: opts.grace,
    };
    let run = fingerprint::run(pool, &s.family, &s.path, judged, &[]).await;
    fingerprint::record_checks(r, id, &run);
    let needs_path = fingerprint::needs_path(pool, &run).await;
    r.record(id, "runnable.needs-path", needs_path);
    match &run.result {
        Ok(out) => Ran::Fingerprint { took: out.duration },
        // A pin, the owner and mode rules, plugctl's shortage.
        Err(
            e @ (SpawnError::Other { .. }
            | SpawnError::Refused { .. }
            | SpawnError::Exhausted { .. }),
        ) => Ran::Refused(e.to_string()),
        // The file's own fault: fingerprint.runs failed, and says why.
        Err(e) => Ran::NotRun(e.to_string()),
    }
}

/// Entry names of a directory, sorted bytewise (stable output).
fn read_dir_sorted(dir: &Path) -> io::Result<Vec<OsString>> {
    let mut names = fs::read_dir(dir)?
        .map(|e| e.map(|e| e.file_name()))
        .collect::<io::Result<Vec<_>>>()?;
    names.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    Ok(names)
}

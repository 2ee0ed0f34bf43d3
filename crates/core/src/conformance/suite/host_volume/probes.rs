//! The suite's probes and verdicts: what a create returned judged
//! against the request, the refusals, hostile names, parallel creates,
//! and the scratch tree's snapshots that show what a step left behind.

use super::{ABSURD_CAPACITY, Ctx, PARALLEL, SNAPSHOT_LIMIT, Tracker, UNKNOWN_PARAMETER};
use crate::conformance::{Severity, Verdict};
use crate::error::PluginFailure;
use crate::families::host_volume::{self, Created, Request};
use crate::runner::Outcome;
use crate::stop::Stop;
use plugctl_protocol::json;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// `create.path` (error): a path inside the volumes directory, that
/// exists, and that stays inside it when links are followed (a symlink out
/// of the directory would have Nomad mount whatever it points at).
pub(super) fn path_verdict(cx: &Ctx, created: &Created) -> Verdict {
    let mut problems = host_volume::path_warnings(created, &cx.volumes_dir);
    if problems.is_empty() {
        let path = Path::new(&created.path);
        match (fs::canonicalize(path), fs::canonicalize(&cx.volumes_dir)) {
            (Err(_), _) if fs::symlink_metadata(path).is_ok() => problems.push(format!(
                "create returned {}, a symlink that leads nowhere",
                crate::escape::quote_os(&created.path)
            )),
            (Err(_), _) => problems.push(format!(
                "create returned {}, which does not exist: create must make the volume \
                 before it answers (Nomad mounts that path into tasks)",
                crate::escape::quote_os(&created.path)
            )),
            (Ok(real), Ok(dir)) if real == dir || !real.starts_with(&dir) => {
                problems.push(format!(
                    "create returned {}, which resolves to {}, outside the volumes directory \
                     {} (a symlink out of it: Nomad would mount what it points at)",
                    crate::escape::quote_os(&created.path),
                    real.display(),
                    cx.volumes_dir.display()
                ))
            }
            _ => {}
        }
    }
    if problems.is_empty() {
        Verdict::pass()
    } else {
        Verdict::error(format!(
            "{}: return a path inside DHV_VOLUMES_DIR, built from DHV_VOLUMES_DIR and \
             DHV_VOLUME_ID only (never from DHV_VOLUME_NAME)",
            problems.join("; ")
        ))
    }
}

/// `create.bytes`: the capacity was asked for, so the answer should say
/// what was provided. 0 is what Nomad's own example plugin returns, so it
/// is a warning; a negative size is an error.
pub(super) fn bytes_verdict(req: &Request, created: &Created) -> Verdict {
    let b = created.bytes;
    if b < 0 {
        return Verdict::error(format!(
            "create returned a negative size ({b} bytes); return the volume's size in bytes"
        ));
    }
    if b == 0 {
        return Verdict::warning(format!(
            "a capacity of {}–{} bytes was requested but create returned no \"bytes\" (or 0): \
             Nomad shows the volume with capacity 0; return the size provided",
            req.capacity_min, req.capacity_max
        ));
    }
    let b = b as u64;
    if b < req.capacity_min || (req.capacity_max > 0 && b > req.capacity_max) {
        return Verdict::warning(format!(
            "create returned {b} bytes, outside the requested {}–{} bytes; honour the \
             capacity or refuse the request with {{\"error\"}}",
            req.capacity_min, req.capacity_max
        ));
    }
    Verdict::pass()
}

/// `delete.never-created` (error): delete of a volume nothing was made for
/// (no created path) succeeds.
pub(super) async fn never_created(cx: &Ctx) -> Verdict {
    let req = cx.request(&format!("never-created-{}", cx.token));
    match cx.driver.delete(&req, "").await.result {
        Ok(()) => Verdict::pass(),
        Err(f) => Verdict::error(format!(
            "delete of a volume that was never created (DHV_CREATED_PATH empty) failed: {f}; \
             delete must succeed when there is nothing to delete"
        )),
    }
}

#[derive(Clone, Copy)]
pub(super) enum Refusal {
    UnknownParameter,
    AbsurdCapacity,
}

/// `create.refuses-*`: a request the plugin should refuse. Refused, it
/// must exit non-zero with `{"error"}` and leave nothing in the volumes
/// directory; accepted, the check is skipped (a plugin may ignore
/// parameters and capacities, as Nomad's own example does).
pub(super) async fn refusal(cx: &Ctx, tracker: &mut Tracker, kind: Refusal) -> Verdict {
    let mut req = cx.request(&format!("refuse-me-{}", cx.token));
    let what = match kind {
        Refusal::UnknownParameter => {
            req.parameters.insert(UNKNOWN_PARAMETER.into(), "1".into());
            format!(
                "the unknown parameter {}",
                crate::escape::quote(UNKNOWN_PARAMETER)
            )
        }
        Refusal::AbsurdCapacity => {
            req.capacity_min = ABSURD_CAPACITY;
            req.capacity_max = ABSURD_CAPACITY;
            format!("a capacity of 1 EiB ({ABSURD_CAPACITY} bytes)")
        }
    };
    let before = snapshot(&cx.volumes_dir, None);
    let call = cx.driver.create_as_returned(&req).await;
    let failure = match call.result {
        Ok(created) => {
            tracker.created(&req, &created.path);
            return Verdict::skip(format!(
                "the plugin accepted {what}, so there is no refusal to check (a plugin may \
                 ignore it, as Nomad's example plugin does)"
            ));
        }
        Err(f) => f,
    };
    let mut issues = Vec::new();
    match (&failure, &call.outcome) {
        (PluginFailure::TimedOut { .. }, _) => issues.push(format!(
            "create with {what} {failure}; refuse a bad request at once"
        )),
        (PluginFailure::Exit { .. } | PluginFailure::Signaled { .. }, Some(out)) => {
            if error_field(out).is_none() {
                issues.push(format!(
                    "create refused {what} ({failure}) without a message: print \
                     {{\"error\": \"<why>\"}} on stdout so Nomad can show why"
                ));
            }
        }
        (PluginFailure::Exit { .. } | PluginFailure::Signaled { .. }, None) => {}
        // The built-in's refusals.
        (PluginFailure::Builtin(_) | PluginFailure::Response(_), None) => {}
        (other, _) => issues.push(format!(
            "create with {what} failed, but not by refusing: {other}; exit non-zero with \
             {{\"error\": \"<why>\"}}"
        )),
    }
    let left: Vec<PathBuf> = snapshot(&cx.volumes_dir, None)
        .difference(&before)
        .cloned()
        .collect();
    if !left.is_empty() {
        issues.push(format!(
            "the refused create left {} behind in the volumes directory; a failed create \
             must remove what it made",
            list(&left)
        ));
    }
    if issues.is_empty() {
        Verdict::pass()
    } else {
        Verdict::Issues(issues.into_iter().map(|m| (Severity::Error, m)).collect())
    }
}

/// The plugin's `{"error": "..."}`, when stdout holds one.
fn error_field(out: &Outcome) -> Option<String> {
    json::parse_object(&out.stdout)
        .ok()?
        .string("error")
        .ok()
        .flatten()
        .filter(|m| !m.is_empty())
}

/// `create.hostile-names` (error): names with `..`, `/`, spaces and a
/// newline create nothing outside the volumes directory. Refusing such a
/// name is fine.
pub(super) async fn hostile_names(
    cx: &Ctx,
    tracker: &mut Tracker,
    parent_before: &BTreeSet<PathBuf>,
) -> Verdict {
    let t = &cx.token;
    let names = [
        format!("../escape-{t}"),
        format!("../../escape-{t}"),
        format!("a/b-{t}"),
        format!(" spaces {t} "),
        format!("new\nline-{t}"),
    ];
    let before = snapshot(&cx.scratch, Some(&cx.volumes_dir));
    let mut issues = Vec::new();
    let mut refused = Vec::new();
    for name in &names {
        let req = cx.request(name);
        match cx.driver.create_as_returned(&req).await.result {
            Ok(created) => {
                tracker.created(&req, &created.path);
                let problems = host_volume::path_warnings(&created, &cx.volumes_dir);
                if !problems.is_empty() {
                    issues.push((
                        Severity::Error,
                        format!(
                            "for the name {name_q}: {}",
                            problems.join("; "),
                            name_q = crate::escape::quote(name)
                        ),
                    ));
                }
            }
            Err(_) => refused.push(crate::escape::quote(name).to_string()),
        }
    }
    let escaped: Vec<PathBuf> = snapshot(&cx.scratch, Some(&cx.volumes_dir))
        .difference(&before)
        .cloned()
        .collect();
    if !escaped.is_empty() {
        issues.push((
            Severity::Error,
            format!(
                "creates with hostile names made {} outside the volumes directory {}",
                list(&escaped),
                cx.volumes_dir.display()
            ),
        ));
    }
    // Further out than the scratch root: only names holding our token are
    // ours, and they are removed again.
    let outside: Vec<PathBuf> = token_entries(cx)
        .difference(parent_before)
        .cloned()
        .collect();
    if !outside.is_empty() {
        issues.push((
            Severity::Error,
            format!(
                "creates with hostile names made {} outside the scratch directory (removed \
                 again)",
                list(&outside)
            ),
        ));
        for p in &outside {
            let _ = fs::remove_dir_all(p).or_else(|_| fs::remove_file(p));
        }
    }
    if !issues.is_empty() {
        for (_, m) in &mut issues {
            m.push_str(
                "; the volume name is untrusted input: build paths from DHV_VOLUMES_DIR and \
                 DHV_VOLUME_ID only",
            );
        }
    } else if !refused.is_empty() {
        issues.push((
            Severity::Info,
            format!("the plugin refused the names {}", refused.join(", ")),
        ));
    }
    Verdict::Issues(issues)
}

/// `create.parallel` (error): different volumes created at once all
/// succeed, at different paths.
pub(super) async fn parallel(cx: &Ctx, tracker: &mut Tracker, stop: &Stop) -> Verdict {
    let requests: Vec<Request> = (0..PARALLEL)
        .map(|i| cx.request(&format!("parallel-{i}-{}", cx.token)))
        .collect();
    // All at once through the one fan-out; results in request order.
    let results = crate::fanout::collect_all(requests.iter().cloned(), PARALLEL, stop, |req| {
        let driver = cx.driver.clone();
        async move { driver.create_as_returned(&req).await.result }
    })
    .await;
    let mut issues = Vec::new();
    let mut paths: BTreeMap<String, String> = BTreeMap::new();
    for (req, result) in requests.iter().zip(results) {
        match result {
            Ok(Ok(created)) => {
                tracker.created(req, &created.path);
                if let Some(other) = paths.insert(created.path.clone(), req.name.clone()) {
                    issues.push(format!(
                        "volumes {other_q} and {} were both given the path {}",
                        crate::escape::quote_os(&req.name),
                        crate::escape::quote_os(&created.path),
                        other_q = crate::escape::quote(&other)
                    ));
                }
            }
            Ok(Err(f)) => issues.push(format!(
                "create of {} failed: {f}",
                crate::escape::quote_os(&req.name)
            )),
            Err(lost) => issues.push(format!(
                "create of {}: {lost}",
                crate::escape::quote_os(&req.name)
            )),
        }
    }
    if issues.is_empty() {
        Verdict::pass()
    } else {
        Verdict::error(format!(
            "{PARALLEL} creates of different volumes at once: {}; Nomad creates volumes \
             concurrently, so share nothing between them but the volumes directory",
            issues.join("; ")
        ))
    }
}

/// Every path under `dir` (symlinks not followed), except under `skip`.
fn snapshot(dir: &Path, skip: Option<&Path>) -> BTreeSet<PathBuf> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if Some(p.as_path()) == skip {
                continue;
            }
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(p.clone());
            }
            seen.insert(p);
            if seen.len() >= SNAPSHOT_LIMIT {
                return seen;
            }
        }
    }
    seen
}

/// Entries next to the scratch directory whose names hold this run's token.
pub(super) fn token_entries(cx: &Ctx) -> BTreeSet<PathBuf> {
    let Some(parent) = cx.scratch.parent() else {
        return BTreeSet::new();
    };
    fs::read_dir(parent)
        .map(|rd| {
            rd.flatten()
                .filter(|e| e.file_name().to_string_lossy().contains(&cx.token))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default()
}

fn list(paths: &[PathBuf]) -> String {
    const SHOWN: usize = 5;
    let mut s: Vec<String> = paths
        .iter()
        .take(SHOWN)
        .map(|p| crate::escape::quote_os(p.display().to_string()).to_string())
        .collect();
    if paths.len() > SHOWN {
        s.push(format!("and {} more", paths.len() - SHOWN));
    }
    s.join(", ")
}

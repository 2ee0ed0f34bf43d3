//! The secrets suite: fingerprint, fetch of a path that exists (from
//! `--path`, with `--env` for the store), from 2.0.5 the same fetch a
//! second time (Nomad fetches a task's secrets again when its prestart
//! hooks run again), fetch of one that cannot exist. Nothing of a fetch's
//! stdout or stderr is ever quoted: it may hold values.

use super::Options;
use crate::conformance::{Report, Verdict, fingerprint};
use crate::discovery::Entry;
use crate::error::PluginFailure;
use crate::families;
use crate::families::Dialect;
use crate::families::secrets::{self, FetchRequest, Fetched};
use crate::family::Family;
use crate::nomad::{Change, Profile};
use crate::runner::{Invocation, Outcome, Pool, Termination};

/// The secrets checks after the fingerprint.
const FETCH_CHECKS: &[&str] = &[
    "fetch.result",
    "fetch.stderr",
    "fetch.again",
    "fetch.missing-path",
];

pub(super) async fn suite(pool: &Pool, entry: &Entry, opts: &Options, id: &str, r: &mut Report) {
    let plugin = Some(id);
    let fp_deadline = opts
        .deadline
        .unwrap_or_else(|| opts.nomad.secrets_deadline());
    let judged = fingerprint::Judged {
        profile: opts.nomad,
        timeout: opts.deadline,
        grace: opts.grace,
    };
    let fp = fingerprint::run(pool, Family::Secrets.name(), &entry.path, judged, &[]).await;
    fingerprint::record_checks(r, plugin, &fp);
    r.record(
        plugin,
        "runnable.needs-path",
        fingerprint::needs_path(pool, &fp).await,
    );
    if !fp.healthy() {
        for &c in FETCH_CHECKS {
            r.record(
                plugin,
                c,
                Verdict::skip("the fingerprint failed, so Nomad would never use this plugin"),
            );
        }
        return;
    }

    let fetch = |path: &str| {
        let req = FetchRequest {
            path: path.to_string(),
            env: opts.env.clone(),
            job_id: None,
            namespace: None,
        }
        .as_on(opts.nomad);
        secrets::fetch_invocation(&entry.path, &req, fp_deadline, opts.grace)
    };

    // A path that exists, as the author says.
    match &opts.path {
        None => {
            for c in ["fetch.result", "fetch.stderr", "fetch.again"] {
                r.record(
                    plugin,
                    c,
                    Verdict::skip("no path given").hint(crate::error::Hint::FetchPath),
                );
            }
        }
        Some(path) => {
            let inv = fetch(path);
            let outcome = pool.run(&inv).await;
            let first = outcome
                .as_ref()
                .ok()
                .and_then(|out| secrets::parse_fetch(opts.nomad.dialect(), &inv, out).ok());
            let (result, stderr) = match &outcome {
                Err(e) => (
                    Verdict::error(format!(
                        "fetch could not start: {}",
                        families::spawn_failure(e.clone())
                    )),
                    Verdict::skip("fetch did not start"),
                ),
                Ok(out) => match secrets::parse_fetch(opts.nomad.dialect(), &inv, out) {
                    Ok(_) => (
                        Verdict::pass(),
                        match crate::verdict::stderr_crashes_client(
                            Family::Secrets.name(),
                            crate::family::Operation::Fetch,
                            opts.nomad,
                            out,
                        ) {
                            // Not shown: it may hold values.
                            Some(why) => Verdict::error(format!("the fetch {why}")),
                            None => Verdict::pass(),
                        },
                    ),
                    Err(f) => (
                        Verdict::error(format!(
                            "fetch {path_q} failed: {f}; it must exit 0 and print {{\"result\": \
                             {{\"KEY\": \"value\", ...}}}}",
                            path_q = crate::escape::quote(path)
                        ))
                        .hint(crate::error::Hint::FetchInputs),
                        Verdict::skip("fetch failed (see fetch.result)"),
                    ),
                },
            };
            r.record(plugin, "fetch.result", result);
            r.record(plugin, "fetch.stderr", stderr);
            let again = match first {
                None => Verdict::skip("the first fetch failed (see fetch.result)"),
                Some(_) if !opts.nomad.has(Change::SecretsRefetch) => Verdict::skip(format!(
                    "{} fetches a task's secrets once; from {} a task's restart, or the \
                     client's, fetches them again",
                    opts.nomad,
                    Profile::row(Change::SecretsRefetch).since_text()
                )),
                Some(first) => {
                    let inv = fetch(path);
                    let out = pool.run(&inv).await;
                    again_verdict(opts.nomad, path, &first, &inv, out)
                }
            };
            r.record(plugin, "fetch.again", again);
        }
    }

    // A path that cannot exist.
    let missing = format!(
        "plugctl-conformance/does-not-exist-{}",
        uuid::Uuid::new_v4().simple()
    );
    let inv = fetch(&missing);
    let verdict = match pool.run(&inv).await {
        Err(e) => Verdict::error(format!(
            "fetch could not start: {}",
            families::spawn_failure(e)
        )),
        Ok(out) => missing_path_verdict(opts.nomad.dialect(), &missing, &inv, &out),
    };
    r.record(plugin, "fetch.missing-path", verdict);
}

/// `fetch.again`: the same fetch a second time, as Nomad makes it from
/// 2.0.5 when a task's prestart hooks run again (a task restart, a client
/// restart), must succeed with the same keys: the task interpolates them
/// again. Other values for the same keys are a warning: fine for a
/// provider that issues fresh credentials, a surprise for one that stores
/// them. Key names are said; values never are.
fn again_verdict(
    profile: Profile,
    path: &str,
    first: &Fetched,
    inv: &Invocation,
    out: std::result::Result<Outcome, crate::runner::SpawnError>,
) -> Verdict {
    let why = format!(
        "{profile} fetches a task's secrets again when the task or the client restarts, and \
         the task gets what the second fetch answers"
    );
    let out = match out {
        Ok(out) => out,
        Err(e) => {
            return Verdict::error(format!(
                "the second fetch of {path_q} could not start: {}; {why}",
                families::spawn_failure(e),
                path_q = crate::escape::quote(path)
            ));
        }
    };
    let second = match secrets::parse_fetch(profile.dialect(), inv, &out) {
        Ok(second) => second,
        Err(f) => {
            return Verdict::error(format!(
                "the second fetch of {path_q} failed where the first succeeded: {f}; {why}, so \
                 the task would not start again",
                path_q = crate::escape::quote(path)
            ));
        }
    };
    if let Some(crashes) = crate::verdict::stderr_crashes_client(
        Family::Secrets.name(),
        crate::family::Operation::Fetch,
        profile,
        &out,
    ) {
        // Not shown: it may hold values.
        return Verdict::error(format!(
            "the second fetch of {} {crashes}",
            crate::escape::quote(path)
        ));
    }
    let only = |a: &Fetched, b: &Fetched| -> Vec<String> {
        a.keys()
            .filter(|k| !b.values.contains_key(*k))
            .map(crate::escape::quote)
            .collect()
    };
    let (lost, gained) = (only(first, &second), only(&second, first));
    if !lost.is_empty() || !gained.is_empty() {
        let mut said = Vec::new();
        if !lost.is_empty() {
            said.push(format!("it lacks {}", lost.join(", ")));
        }
        if !gained.is_empty() {
            said.push(format!("it adds {}", gained.join(", ")));
        }
        return Verdict::error(format!(
            "the second fetch of {path_q} answered other keys than the first: {}; {why}, and \
             a key it lacks is missing from the task's environment",
            said.join("; "),
            path_q = crate::escape::quote(path)
        ));
    }
    let changed: Vec<String> = first
        .values
        .iter()
        .filter(|(k, v)| second.values.get(*k) != Some(*v))
        .map(|(k, _)| crate::escape::quote(k))
        .collect();
    if changed.is_empty() {
        Verdict::pass()
    } else {
        Verdict::warning(format!(
            "the second fetch of {path_q} answered other values for {} (not shown); {why}: \
             fine for a provider that issues fresh credentials on every fetch, a surprise \
             for one that stores secrets",
            changed.join(", "),
            path_q = crate::escape::quote(path)
        ))
    }
}

/// `fetch.missing-path`: the protocol's way to fail is exit 0 with a
/// non-empty `{"error"}`; a non-zero exit works but Nomad discards stdout,
/// so the operator never sees the message (warning).
fn missing_path_verdict(dialect: Dialect, path: &str, inv: &Invocation, out: &Outcome) -> Verdict {
    let how = "exit 0 and print {\"error\": \"<what is missing>\"}";
    if out.timed_out {
        return Verdict::error(format!(
            "fetch of the missing path {path_q} timed out after {}; {how}",
            humantime::format_duration(inv.deadline),
            path_q = crate::escape::quote(path)
        ));
    }
    match (out.termination, secrets::parse_fetch(dialect, inv, out)) {
        (Termination::Exited(0), Err(PluginFailure::Response(msg))) => {
            if msg.contains("\"error\": \"\"") {
                Verdict::warning(format!(
                    "fetch of the missing path {path_q} failed with an empty error message; \
                     say what is missing: {how}",
                    path_q = crate::escape::quote(path)
                ))
            } else {
                Verdict::pass()
            }
        }
        // A provider may answer any path (one that derives values, as
        // Nomad's own e2e test plugin does): worth a look, not a failure.
        (Termination::Exited(0), Ok(fetched)) => Verdict::warning(format!(
            "fetch of {path_q}, a path that cannot exist, succeeded with {} keys: fine for a \
             provider that makes values for any path; a provider that stores secrets should \
             {how}",
            fetched.len(),
            path_q = crate::escape::quote(path)
        )),
        (Termination::Exited(0), Err(f)) => Verdict::error(format!(
            "fetch of the missing path {path_q}: {f}; {how}",
            path_q = crate::escape::quote(path)
        )),
        (Termination::Exited(code), _) => Verdict::warning(format!(
            "fetch of the missing path {path_q} exited with status {code}: Nomad discards \
             stdout on a non-zero exit, so the job's operator never sees why; {how}",
            path_q = crate::escape::quote(path)
        )),
        (Termination::Signaled(sig), _) => Verdict::error(format!(
            "fetch of the missing path {path_q} was killed by signal {}; {how}",
            families::signal_name(sig),
            path_q = crate::escape::quote(path)
        )),
    }
}

//! Fingerprinting: one discovered entry, or many at once, to a [`Probe`]:
//! healthy or not and why, its version, how long it took, and the file as
//! it was when it ran. Nothing is recorded or printed here; the front end
//! records probes in the registry and shows them.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use crate::discovery::{Entry, EntryKind};
use crate::families;
use crate::nomad::Profile;
use crate::registry::{Source, model};
use crate::runner::Pool;
use crate::stop::Stop;

/// One plugin's fingerprint result, as printed and recorded.
#[derive(Debug, Clone, Serialize)]
pub struct Probe {
    #[serde(rename = "type")]
    pub family: String,
    pub name: String,
    pub healthy: bool,
    pub version: Option<String>,
    pub error: Option<String>,
    pub duration_ms: u64,
    pub source: Source,
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "escaped_path"
    )]
    pub path: Option<PathBuf>,
    /// The fingerprint's `type` field, for families that have one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Set for built-ins that only a Nomad cluster can run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The file as it was when it was run.
    #[serde(skip)]
    pub stamp: Option<model::FileStamp>,
    /// plugctl ran out of processes or descriptors before the plugin could
    /// start: nothing is known about it, and nothing is recorded.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub not_run: bool,
    /// What would change `error` (a pin refusal: what accepts the file),
    /// for the front end to word into it before it is shown or recorded.
    #[serde(skip)]
    pub hint: Option<crate::error::Hint>,
    /// What the call wrote on stderr (its tail, as captured), for the
    /// front end to show when asked (never recorded).
    #[serde(skip)]
    pub stderr: Vec<u8>,
    /// What the call cost, when one ran (and the pool accounts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<crate::usage::Usage>,
}

/// A path as JSON: as it is when it is UTF-8, else its bytes escaped
/// (`caf\xe9`), as the name is shown: JSON strings cannot carry the raw
/// bytes, and one such file must not fail the whole document.
fn escaped_path<S: serde::Serializer>(
    path: &Option<PathBuf>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    use std::os::unix::ffi::OsStrExt;
    match path.as_deref().map(|p| (p, p.to_str())) {
        None => s.serialize_none(),
        Some((_, Some(text))) => s.serialize_str(text),
        Some((p, None)) => s.collect_str(&p.as_os_str().as_bytes().escape_ascii()),
    }
}

/// Fingerprints one discovered entry. `deadline` (the user's `--timeout`)
/// overrides the family's default from the protocol, and with it the
/// budget a healthy answer must keep ([`crate::verdict::too_slow`]).
pub async fn probe(
    pool: &Pool,
    entry: &Entry,
    profile: Profile,
    deadline: Option<Duration>,
    grace: Duration,
) -> Probe {
    let mut p = Probe {
        family: entry.family.clone(),
        name: entry.name.clone(),
        healthy: false,
        version: None,
        error: None,
        duration_ms: 0,
        source: Source::File,
        path: Some(entry.path.clone()),
        kind: None,
        note: None,
        stamp: None,
        not_run: false,
        hint: None,
        stderr: Vec::new(),
        usage: None,
    };
    match &entry.kind {
        EntryKind::Builtin(b) => {
            p.source = Source::Builtin;
            p.path = None;
            p.healthy = true;
            p.version = Some(b.version.to_string());
            p.note = b.note().map(String::from);
        }
        EntryKind::Rejected(reason) | EntryKind::Ignored(reason) => {
            p.error = Some(format!("not run: {reason}"));
        }
        EntryKind::Plugin => {
            let limit = deadline.unwrap_or_else(|| profile.fingerprint_deadline(&entry.family));
            let inv = families::fingerprint_invocation(&entry.family, &entry.path, limit, grace);
            p.stamp = model::FileStamp::of(&entry.path).ok();
            match pool.run(&inv).await {
                Ok(out) => {
                    p.duration_ms = u64::try_from(out.duration.as_millis()).unwrap_or(u64::MAX);
                    p.usage = out.usage;
                    match families::parse_fingerprint(profile.dialect(), &entry.family, &inv, &out)
                    {
                        Ok(fp) => {
                            // An answer later than the release's budget is
                            // one Nomad never waits for; one that wrote on
                            // stderr crashes a client of a release with
                            // that bug.
                            let unusable = crate::verdict::too_slow(
                                &entry.family,
                                out.duration,
                                profile,
                                deadline,
                            )
                            .or_else(|| {
                                crate::verdict::stderr_crashes_client(
                                    &entry.family,
                                    crate::family::Operation::Fingerprint,
                                    profile,
                                    &out,
                                )
                            });
                            p.healthy = unusable.is_none();
                            p.error = unusable;
                            p.version = Some(fp.version);
                            p.kind = fp.kind;
                        }
                        // Nomad logs a succeeding call's stderr before it
                        // decodes stdout: a client of a release with that
                        // bug panics at agent start whatever stdout held,
                        // so that is the reason, as `validate` and `test`
                        // say it (stdout not JSON, or not a secrets
                        // plugin's answer). What it left running is still
                        // named.
                        Err(f) => match crate::verdict::stderr_crashes_client(
                            &entry.family,
                            crate::family::Operation::Fingerprint,
                            profile,
                            &out,
                        ) {
                            Some(crash)
                                if matches!(
                                    f,
                                    crate::error::PluginFailure::BadOutput(_)
                                        | crate::error::PluginFailure::Response(_)
                                ) =>
                            {
                                p.error = Some(crash);
                            }
                            _ => {
                                p.hint = f.hint().cloned();
                                p.error = Some(f.to_string());
                            }
                        },
                    }
                    p.stderr = out.stderr;
                }
                Err(e) => {
                    p.not_run = e.is_exhausted();
                    let failure = families::spawn_failure(e);
                    p.hint = failure.hint().cloned();
                    p.error = Some(failure.to_string());
                }
            }
        }
    }
    p
}

/// How far [`probe_all`] has come: told when a call ends and every second
/// while some still run, so a front end can show a line such as "10/11
/// done, waiting for host-volume/hang, 3 s".
#[derive(Debug, Clone)]
pub struct Progress<'a> {
    pub done: usize,
    pub total: usize,
    /// The first entry still running, as (family, name).
    pub waiting: Option<(&'a str, &'a str)>,
    pub elapsed: Duration,
}

/// What [`probe_all`] needs besides the entries: where calls run, what
/// stops them, the release whose budgets judge them, and the user's
/// deadline and grace.
#[derive(Debug, Clone, Copy)]
pub struct Plan<'a> {
    pub pool: &'a Arc<Pool>,
    pub stop: &'a Stop,
    pub profile: Profile,
    /// Overrides each family's fingerprint deadline (and with it the
    /// budget a healthy answer must keep).
    pub deadline: Option<Duration>,
    pub grace: Duration,
}

/// Fingerprints many entries at once (bounded by the pool), keeping order.
/// An entry whose probe plugctl itself failed on (a panic: a bug) is
/// reported unhealthy with that reason, never taking the others with it;
/// one a shutdown kept from starting is `not_run`, so nothing is recorded.
pub async fn probe_all(
    plan: Plan<'_>,
    entries: Vec<Entry>,
    progress: impl FnMut(Progress<'_>),
) -> Vec<Probe> {
    let Plan {
        pool,
        stop,
        profile,
        deadline,
        grace,
    } = plan;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let total = entries.len();
    // What a lost probe needs to be reported: the entry itself went into
    // its task.
    let names: Vec<(String, String, PathBuf)> = entries
        .iter()
        .map(|e| (e.family.clone(), e.name.clone(), e.path.clone()))
        .collect();
    let ended: Arc<Vec<AtomicBool>> =
        Arc::new((0..total).map(|_| AtomicBool::new(false)).collect());
    let count = Arc::new(AtomicUsize::new(0));
    let start = std::time::Instant::now();
    let now = || Progress {
        done: count.load(Ordering::Relaxed),
        total,
        waiting: ended
            .iter()
            .position(|e| !e.load(Ordering::Relaxed))
            .map(|i| (names[i].0.as_str(), names[i].1.as_str())),
        elapsed: start.elapsed(),
    };
    let mut probes = Vec::with_capacity(total);
    // Told from the sink (as calls end) and from the ticker below, never
    // both at once: they run in turn on this one task.
    let progress = std::cell::RefCell::new(progress);
    let work = crate::fanout::run_all(
        entries.into_iter().enumerate(),
        pool.limit(),
        stop,
        |(i, entry)| {
            let pool = Arc::clone(pool);
            let (ended, count) = (Arc::clone(&ended), Arc::clone(&count));
            async move {
                let p = probe(&pool, &entry, profile, deadline, grace).await;
                ended[i].store(true, Ordering::Relaxed);
                count.fetch_add(1, Ordering::Relaxed);
                p
            }
        },
        |i, result| {
            probes.push(result.unwrap_or_else(|lost| {
                let (family, name, path) = names[i].clone();
                lost_probe(family, name, path, &lost)
            }));
            (progress.borrow_mut())(now());
        },
    );
    {
        tokio::pin!(work);
        loop {
            tokio::select! {
                () = &mut work => break,
                () = tokio::time::sleep(Duration::from_secs(1)) => (progress.borrow_mut())(now()),
            }
        }
    }
    probes
}

/// The probe of an entry whose work gave no result.
fn lost_probe(family: String, name: String, path: PathBuf, lost: &crate::fanout::Lost) -> Probe {
    Probe {
        family,
        name,
        healthy: false,
        version: None,
        error: Some(lost.to_string()),
        duration_ms: 0,
        source: Source::File,
        path: Some(path),
        kind: None,
        note: None,
        stamp: None,
        not_run: matches!(lost, crate::fanout::Lost::Stopped),
        hint: None,
        stderr: Vec::new(),
        usage: None,
    }
}

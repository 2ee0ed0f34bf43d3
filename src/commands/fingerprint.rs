//! `plugctl fingerprint`: discover, fingerprint concurrently, record, print.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use serde_json::json;

use super::Ctx;
use crate::cli::FingerprintArgs;
use crate::output::{Style, short_duration};
use crate::units::duration_ms;
use crate::{Error, Result};
use plugctl_core::discovery::{self, Entry, EntryKind};
use plugctl_core::families;
use plugctl_core::family::Family;
use plugctl_core::nomad::Profile;
use plugctl_core::registry::{Instance, Source, model};
use plugctl_core::runner::Pool;

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
/// budget a healthy answer must keep ([`plugctl_core::verdict::too_slow`]).
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
    };
    match &entry.kind {
        EntryKind::Builtin(b) => {
            p.source = Source::Builtin;
            p.path = None;
            p.healthy = true;
            p.version = Some(b.version.to_string());
            if !b.runnable {
                p.note = Some("built-in to Nomad; needs a Nomad cluster to run".into());
            }
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
                    p.duration_ms = duration_ms(out.duration);
                    match families::parse_fingerprint(profile.dialect(), &entry.family, &inv, &out)
                    {
                        Ok(fp) => {
                            // An answer later than the release's budget is
                            // one Nomad never waits for.
                            let slow = plugctl_core::verdict::too_slow(
                                &entry.family,
                                out.duration,
                                profile,
                                deadline,
                            );
                            p.healthy = slow.is_none();
                            p.error = slow;
                            p.version = Some(fp.version);
                            p.kind = fp.kind;
                        }
                        Err(f) => p.error = Some(f.to_string()),
                    }
                }
                Err(e) => {
                    p.not_run = e.is_exhausted();
                    p.error = Some(families::spawn_failure(e).to_string());
                }
            }
        }
    }
    p
}

/// Fingerprints many entries at once (bounded by the pool), keeping order.
/// An entry whose probe plugctl itself failed on (a panic: a bug) is
/// reported unhealthy with that reason, never taking the others with it;
/// one a shutdown kept from starting is `not_run`, so nothing is recorded.
/// On a terminal, a progress line counts the calls as they end and names
/// the first still running, every second: "10/11 done, waiting for
/// host-volume/hang, 3 s".
pub async fn probe_all(
    ctx: &Ctx,
    entries: Vec<Entry>,
    deadline: Option<Duration>,
    grace: Duration,
) -> Vec<Probe> {
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
    let line = || {
        let n = count.load(Ordering::Relaxed);
        let waiting = ended
            .iter()
            .position(|e| !e.load(Ordering::Relaxed))
            .map(|i| format!(", waiting for {}/{}", names[i].0, names[i].1))
            .unwrap_or_default();
        format!(
            "fingerprinting: {n}/{total} done{waiting}, {} s",
            start.elapsed().as_secs()
        )
    };
    let mut probes = Vec::with_capacity(total);
    let pool = Arc::clone(&ctx.pool);
    let profile = ctx.settings.nomad;
    let work = plugctl_core::fanout::run_all(
        entries.into_iter().enumerate(),
        pool.limit(),
        &ctx.stop,
        |(i, entry)| {
            let pool = Arc::clone(&pool);
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
            ctx.printer.progress(line());
        },
    );
    {
        tokio::pin!(work);
        loop {
            tokio::select! {
                () = &mut work => break,
                () = tokio::time::sleep(Duration::from_secs(1)) => ctx.printer.progress(line()),
            }
        }
    }
    ctx.printer.progress_done();
    probes
}

/// The probe of an entry whose work gave no result.
fn lost_probe(
    family: String,
    name: String,
    path: PathBuf,
    lost: &plugctl_core::fanout::Lost,
) -> Probe {
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
        not_run: matches!(lost, plugctl_core::fanout::Lost::Stopped),
    }
}

/// What `fingerprint` looks at: the entries to fingerprint, the entries
/// Nomad would skip (a file without an execute bit: recorded plugins
/// among them are unhealthy), and the family directories scanned.
pub struct Selection {
    pub entries: Vec<Entry>,
    pub ignored: Vec<Entry>,
    pub scanned: Vec<(String, PathBuf)>,
}

/// The entries `fingerprint` looks at: every family (or one), every plugin
/// (or the named ones). Entries Nomad would not treat as plugins are set
/// apart. A plugin directory that cannot be read is an error when it was
/// named explicitly, else a warning and no plugins there (see
/// [`discovery::check_layout`]).
pub fn select(ctx: &Ctx, family: Option<&str>, names: &[String]) -> Result<Selection> {
    if let Some(f) = family {
        discovery::require_name("plugin type", f)?;
    }
    if let Some(known) = family.and_then(Family::of) {
        ctx.settings.nomad.require_family(known)?;
    }
    for n in names {
        discovery::require_name("plugin", n)?;
    }
    let check = crate::layout::check_layout(&ctx.settings, family)?;
    for warning in &check.warnings {
        ctx.printer.warn(warning);
    }
    let families: Vec<(String, PathBuf)> = discovery::families(&ctx.settings.dirs())?
        .into_iter()
        .filter(|(f, _)| family.is_none_or(|want| want == f))
        .filter(|(f, _)| Family::of(f).is_none_or(|k| ctx.settings.nomad.runs_family(k)))
        .collect();
    if let Some(f) = family
        && families.is_empty()
    {
        return Err(Error::NotFound {
            what: "plugin type",
            name: format!(
                "{f} (no directory {})",
                ctx.settings.family_dir(f).display()
            ),
        });
    }
    let mut out = Vec::new();
    // Entries Nomad would not see: recorded plugins among them are
    // unhealthy, and a name asked for among them says why it is not found.
    let mut ignored = Vec::new();
    for (f, dir) in &families {
        let entries = if check.skips(dir) {
            discovery::builtin_entries(f)
        } else {
            discovery::scan(f, dir, ctx.settings.nomad)?
        };
        for entry in entries {
            let wanted = names.is_empty() || names.contains(&entry.name);
            if let EntryKind::Ignored(reason) = &entry.kind {
                ctx.printer
                    .note(1, format!("skipping {}: {reason}", entry.path.display()));
                if wanted {
                    ignored.push(entry);
                }
                continue;
            }
            if wanted {
                out.push(entry);
            }
        }
    }
    Ok(Selection {
        entries: out,
        ignored,
        scanned: families,
    })
}

/// A name asked for that is neither a plugin nor a recorded one: why.
fn not_found(ctx: &Ctx, family: Option<&str>, sel: &Selection, n: &str) -> Error {
    if let Some(e) = sel.ignored.iter().find(|e| e.name == n)
        && let EntryKind::Ignored(reason) = &e.kind
    {
        return discovery::not_a_plugin(e, reason, plugctl_core::family::Operation::Fingerprint);
    }
    // A plugin of a family this release does not have: say so, not
    // "not found".
    for known in Family::ALL {
        if !ctx.settings.nomad.runs_family(known)
            && family.is_none_or(|f| known.is(f))
            && discovery::find(
                known.name(),
                &ctx.settings.family_dir(known.name()),
                n,
                ctx.settings.nomad,
            )
            .is_ok_and(|e| !matches!(e.kind, EntryKind::Ignored(_)))
            && let Err(e) = ctx.settings.nomad.require_family(known)
        {
            return e;
        }
    }
    Error::NotFound {
        what: "plugin",
        name: n.to_string(),
    }
}

/// The file plugins on record, in the families scanned (and among the
/// names asked for), that discovery did not find as plugins: each a row,
/// unhealthy with why (deleted, no execute bit, ...), and recorded so;
/// true when the file is still in the directory (Nomad skips it).
fn missing_rows(
    state: &plugctl_core::registry::State<'_>,
    sel: &Selection,
    names: &[String],
) -> Vec<(Probe, bool)> {
    let mut rows = Vec::new();
    for (family, dir) in &sel.scanned {
        let Some(plugins) = state.plugins.get(family) else {
            continue;
        };
        for (name, instances) in plugins {
            if !names.is_empty() && !names.contains(name) {
                continue;
            }
            let Some(inst) = instances.first().filter(|i| i.source == Source::File) else {
                continue;
            };
            if sel
                .entries
                .iter()
                .any(|e| &e.family == family && &e.name == name)
            {
                continue;
            }
            let path = inst.path.clone().unwrap_or_else(|| dir.join(name));
            let ignored = sel
                .ignored
                .iter()
                .find(|e| &e.family == family && &e.name == name);
            let reason = match ignored.map(|e| &e.kind) {
                Some(EntryKind::Ignored(why)) => why.clone(),
                _ => match plugctl_core::verdict::file_problem(family, name, &path) {
                    Some(problem) => problem,
                    // The recorded file is there, but not in the directory
                    // plugctl reads now: the layout changed.
                    None => format!(
                        "not in {}: recorded at {}, which plugctl no longer reads (a changed \
                         plugin directory?); if it moved on purpose, `plugctl plugin forget \
                         {family} {name}` forgets the old record",
                        dir.display(),
                        path.display()
                    ),
                },
            };
            let probe = Probe {
                family: family.clone(),
                name: name.clone(),
                healthy: false,
                version: inst.version.clone(),
                error: Some(reason),
                duration_ms: 0,
                source: Source::File,
                path: Some(ignored.map_or(path, |e| e.path.clone())),
                kind: None,
                note: None,
                stamp: None,
                not_run: false,
            };
            rows.push((probe, ignored.is_some()));
        }
    }
    rows
}

pub async fn run(ctx: &Ctx, args: FingerprintArgs) -> Result<()> {
    let deadline = match args.run.timeout {
        Some(_) => Some(super::deadline(&args.run, Duration::ZERO)?),
        None => None,
    };
    let sel = select(ctx, args.family.as_deref(), &args.names)?;
    // What the registry knows of the plugins looked at: those no longer
    // found as plugins are rows too, unhealthy, with why.
    let mut sel = sel;
    let snap = ctx.registry.read()?;
    // A family of plugctl's own (not host-volume or secrets, which are
    // always looked at) whose whole directory went: its plugins are gone
    // too.
    for (family, plugins) in &snap.state().plugins {
        let fingerprinted = plugins
            .values()
            .any(|list| list.first().is_some_and(|i| i.source == Source::File));
        if Family::of(family).is_none()
            && fingerprinted
            && args.family.as_deref().is_none_or(|f| f == family)
            && !sel.scanned.iter().any(|(f, _)| f == family)
        {
            sel.scanned
                .push((family.clone(), ctx.settings.family_dir(family)));
        }
    }
    let missing = missing_rows(snap.state(), &sel, &args.names);
    // The recording transaction starts from this read when nobody wrote
    // meanwhile: one parse of the registry, as before this look.
    ctx.registry.keep(snap);
    for n in &args.names {
        if !sel.entries.iter().any(|e| &e.name == n) && !missing.iter().any(|(p, _)| &p.name == n) {
            return Err(not_found(ctx, args.family.as_deref(), &sel, n));
        }
    }
    if args.plan.dry_run {
        return super::plan::print(
            ctx,
            &plan(&sel.entries, ctx.settings.nomad, deadline, args.run.grace),
        );
    }
    let recordable: Vec<bool> = sel.entries.iter().map(Entry::recordable).collect();
    let mut probes = probe_all(ctx, sel.entries, deadline, args.run.grace).await;

    // A plugin plugctl could not even start is not unhealthy: its record
    // stays as it was. A file whose name is not UTF-8 is only shown.
    let mut results: Vec<(String, String, Instance)> = probes
        .iter()
        .zip(&recordable)
        .filter(|(p, ok)| !p.not_run && **ok)
        .map(|(p, _)| (p.family.clone(), p.name.clone(), instance_of(p)))
        .collect();
    // Health follows the disk: a recorded plugin that lost its execute bit
    // is recorded with that reason; one that is not there any more is
    // marked so, with a `gone` event.
    let mut gone = Vec::new();
    for (p, still_there) in &missing {
        if *still_there {
            results.push((p.family.clone(), p.name.clone(), instance_of(p)));
        } else {
            gone.push((
                p.family.clone(),
                p.name.clone(),
                p.error.clone().unwrap_or_default(),
            ));
        }
    }
    ctx.registry.record_fingerprints(results, gone).await?;
    probes.extend(missing.into_iter().map(|(p, _)| p));
    probes.sort_by(|a, b| {
        let rank = |f: &str| match Family::of(f) {
            Some(Family::HostVolume) => 0,
            Some(Family::Secrets) => 1,
            None => 2,
        };
        (rank(&a.family), &a.family, &a.name).cmp(&(rank(&b.family), &b.family, &b.name))
    });

    if let Some(dir) = &args.textfile {
        super::metrics::write_textfile(ctx, dir)?;
    }
    print(ctx, &probes)?;
    let not_run = probes.iter().filter(|p| p.not_run).count();
    if not_run > 0 {
        return Err(Error::Failed(format!(
            "{not_run} of {} plugins not run: plugctl ran out of processes or open files (see \
             their reason); nothing was recorded for them",
            probes.len()
        )));
    }
    let unhealthy: Vec<&Probe> = probes.iter().filter(|p| !p.healthy).collect();
    if !unhealthy.is_empty() {
        let names: Vec<String> = unhealthy
            .iter()
            .take(5)
            .map(|p| format!("{}/{}", p.family, p.name))
            .collect();
        let more = match unhealthy.len() {
            n if n > 5 => format!(", and {} more", n - 5),
            _ => String::new(),
        };
        return Err(Error::Failed(format!(
            "{} of {} plugins unhealthy: {}{more}",
            unhealthy.len(),
            probes.len(),
            names.join(", ")
        )));
    }
    Ok(())
}

/// The calls `fingerprint` would make (`--dry-run`).
fn plan(
    entries: &[Entry],
    profile: Profile,
    deadline: Option<Duration>,
    grace: Duration,
) -> Vec<super::plan::Planned> {
    use super::plan::Planned;
    entries
        .iter()
        .map(|e| {
            let call = plugctl_core::provenance::Call::new(
                &e.family,
                &e.name,
                plugctl_core::family::Operation::Fingerprint,
            );
            match &e.kind {
                EntryKind::Plugin => {
                    let deadline =
                        deadline.unwrap_or_else(|| profile.fingerprint_deadline(&e.family));
                    Planned::Exec(
                        call,
                        families::fingerprint_invocation(&e.family, &e.path, deadline, grace),
                    )
                }
                EntryKind::Builtin(b) => Planned::Inline(
                    call,
                    format!("built-in: version {}, nothing runs", b.version),
                ),
                EntryKind::Rejected(why) | EntryKind::Ignored(why) => {
                    Planned::Inline(call, format!("not run: {why}"))
                }
            }
        })
        .collect()
}

fn instance_of(p: &Probe) -> Instance {
    Instance {
        source: p.source,
        path: p.path.clone(),
        alloc_id: None,
        socket: None,
        version: p.version.clone(),
        healthy: p.healthy,
        error: p.error.clone(),
        // Only a call that ran took time (a file never run has none).
        duration_ms: (p.stamp.is_some() || p.duration_ms > 0).then_some(p.duration_ms),
        options: Default::default(),
        updated_at: model::now(),
        file: p.stamp,
    }
}

fn print(ctx: &Ctx, probes: &[Probe]) -> Result<()> {
    let printer = &ctx.printer;
    if printer.json {
        return printer.document(json!({
            "plugin_dir": ctx.settings.plugin_dir,
            "host_volume_plugin_dir": ctx.settings.host_volume_plugin_dir,
            "plugins": probes,
        }));
    }
    let rows: Vec<_> = probes
        .iter()
        .map(|p| {
            let health = match (p.healthy, p.source) {
                _ if p.not_run => ("not run", Style::Warn),
                (true, Source::Builtin) => ("built-in", Style::Good),
                (true, _) => ("healthy", Style::Good),
                (false, _) => ("unhealthy", Style::Bad),
            };
            let reason = p
                .error
                .clone()
                .or_else(|| p.note.clone())
                .unwrap_or_default();
            vec![
                (p.family.clone(), Style::Plain),
                (p.name.clone(), Style::Plain),
                (
                    p.version.clone().unwrap_or_else(|| "-".into()),
                    Style::Plain,
                ),
                (health.0.to_string(), health.1),
                (
                    // Built-ins and files never run (rejected, skipped by
                    // Nomad, gone) took no time.
                    if p.source == Source::Builtin || p.stamp.is_none() && p.duration_ms == 0 {
                        "-".into()
                    } else {
                        short_duration(p.duration_ms)
                    },
                    Style::Dim,
                ),
                (reason, Style::Plain),
            ]
        })
        .collect();
    printer.table(
        &["TYPE", "NAME", "VERSION", "HEALTH", "DURATION", "REASON"],
        &rows,
    )
}

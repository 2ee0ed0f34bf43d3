//! `plugctl fingerprint`: discover, fingerprint concurrently, record, print.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::json;

use super::Ctx;
use crate::cli::FingerprintArgs;
use crate::output::{Style, short_duration, value};
use crate::{Error, Result};
use plugctl_core::discovery::{self, Entry, EntryKind};
use plugctl_core::error::Hint;
use plugctl_core::families;
use plugctl_core::family::Family;
use plugctl_core::fingerprint::{Plan, Probe, Progress, probe_all};
use plugctl_core::nomad::Profile;
use plugctl_core::registry::{Fingerprinted, Instance, Source, model};

/// What `fingerprint` looks at: the entries to fingerprint, the entries
/// Nomad would skip (a file without an execute bit: recorded plugins
/// among them are unhealthy), and the family directories scanned.
pub struct Selection {
    pub entries: Vec<Entry>,
    pub ignored: Vec<Entry>,
    pub scanned: Vec<(String, PathBuf)>,
}

/// `--type F` names a family with no directory: not found, with the
/// closest of `known`.
pub fn no_such_family(ctx: &Ctx, family: &str, known: Vec<String>) -> Error {
    Error::NotFound {
        what: "plugin type",
        name: format!(
            "{family} (no directory {})",
            ctx.settings.family_dir(family).display()
        ),
    }
    .did_you_mean(family, known)
}

/// The entries `fingerprint` looks at: every family (or one), every plugin
/// (or the named ones). Entries Nomad would not treat as plugins are set
/// apart. A plugin directory that cannot be read is an error when it was
/// named explicitly, else a warning and no plugins there (see
/// [`crate::layout::check_layout`]).
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
    let all = discovery::families(&ctx.settings.dirs())?;
    let known: Vec<String> = all.iter().map(|(f, _)| f.clone()).collect();
    let families: Vec<(String, PathBuf)> = all
        .into_iter()
        .filter(|(f, _)| family.is_none_or(|want| want == f))
        .filter(|(f, _)| Family::of(f).is_none_or(|k| ctx.settings.nomad.runs_family(k)))
        .collect();
    if let Some(f) = family
        && families.is_empty()
    {
        return Err(no_such_family(ctx, f, known));
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
    // A typo of a plugin there is, or of one on record.
    let there = sel
        .scanned
        .iter()
        .flat_map(|(f, dir)| discovery::names_in(f, dir));
    let recorded = ctx.registry.read().ok().map(|snap| {
        snap.state()
            .plugins
            .iter()
            .filter(|(f, _)| family.is_none_or(|want| want == f.as_str()))
            .flat_map(|(_, plugins)| plugins.keys().cloned())
            .collect::<Vec<String>>()
    });
    Error::NotFound {
        what: "plugin",
        name: n.to_string(),
    }
    .did_you_mean(n, there.chain(recorded.unwrap_or_default()))
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
                _ => match plugctl_core::verdict::file_problem(&path) {
                    Some(problem) if plugctl_core::verdict::is_deleted(&problem) => {
                        crate::exit::advised(&problem, &plugctl_core::verdict::forget(family, name))
                    }
                    Some(problem) => problem,
                    // The recorded file is there, but not in the directory
                    // plugctl reads now: the layout changed.
                    None => format!(
                        "not in {}: recorded at {}, which plugctl no longer reads (a changed \
                         plugin directory?); if it moved on purpose, `plugctl plugin forget \
                         {} {}` forgets the old record once the file there is gone",
                        dir.display(),
                        path.display(),
                        plugctl_core::provenance::shell_quote(std::ffi::OsStr::new(family)),
                        crate::exit::name_arg(name)
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
                hint: None,
                stderr: Vec::new(),
                usage: None,
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
    let plan = Plan {
        pool: &ctx.pool,
        stop: &ctx.stop,
        profile: ctx.settings.nomad,
        deadline,
        grace: args.run.grace,
    };
    // On a terminal, a line counts the calls as they end and names the
    // first still running, every second.
    let mut probes = probe_all(plan, sel.entries, |p| {
        ctx.printer.progress(progress_line(&p))
    })
    .await;
    ctx.printer.progress_done();
    // What each call wrote on stderr: with -v when it failed, with -vv
    // always (as for volume create), never recorded.
    for p in &mut probes {
        let level = if p.healthy { 2 } else { 1 };
        if ctx.printer.verbose() >= level && !p.stderr.is_empty() {
            let text = String::from_utf8_lossy(&p.stderr);
            ctx.printer.note_lines(
                level,
                format!(
                    "{} plugin {}: fingerprint: stderr:",
                    p.family,
                    plugctl_core::escape::quote_os(&p.name)
                ),
                text.trim_end().lines(),
            );
        }
        p.stderr = Vec::new();
    }
    // The library's hints, in this command line's words, before anything
    // is shown or recorded.
    for p in &mut probes {
        match p.hint.take() {
            // Recorded, and read again by `plugin list` and the rest, where
            // -v shows nothing of it: the command that does.
            Some(Hint::PluginStderr { .. }) => {
                let how = format!(
                    "; `plugctl -v fingerprint --type={} {}` shows them",
                    plugctl_core::provenance::shell_quote(std::ffi::OsStr::new(&p.family)),
                    crate::exit::name_arg(&p.name)
                );
                p.error = p.error.take().map(|e| e + &how);
            }
            Some(hint) => p.error = p.error.take().map(|e| crate::exit::advised(&e, &hint)),
            None => {}
        }
    }

    // A plugin plugctl could not even start is not unhealthy: its record
    // stays as it was. A file whose name is not UTF-8 is only shown.
    let mut results: Vec<Fingerprinted> = probes
        .iter()
        .zip(&recordable)
        .filter(|(p, ok)| !p.not_run && **ok)
        .map(|(p, _)| Fingerprinted {
            family: p.family.clone(),
            name: p.name.clone(),
            instance: instance_of(p),
            usage: p.usage,
        })
        .collect();
    // Health follows the disk: a recorded plugin that lost its execute bit
    // is recorded with that reason; one that is not there any more is
    // marked so, with a `gone` event.
    let mut gone = Vec::new();
    for (p, still_there) in &missing {
        if *still_there {
            results.push(Fingerprinted {
                family: p.family.clone(),
                name: p.name.clone(),
                instance: instance_of(p),
                usage: None,
            });
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
            // As a table shows them: a name with a backslash never reads
            // as one with a control character.
            .map(|p| format!("{}/{}", value(&p.family), shown_name(p)))
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
    if printer.form() == crate::output::Form::Name {
        return printer.names(probes.iter().map(|p| format!("{}/{}", p.family, p.name)));
    }
    // -v: what each call cost, beside how long it took.
    let costs = printer.verbose() >= 1;
    let rows: Vec<_> = probes
        .iter()
        .map(|p| {
            let health = super::plugin::health(p.healthy, p.source, p.not_run);
            let reason = p
                .error
                .clone()
                .or_else(|| p.note.clone())
                .unwrap_or_default();
            let cost = if costs {
                crate::readable::usage_cells(p.usage.as_ref())
                    .into_iter()
                    .map(|c| (c, Style::Dim))
                    .collect()
            } else {
                Vec::new()
            };
            let mut row = vec![
                (value(&p.family).into_owned(), Style::Plain),
                (shown_name(p).into_owned(), Style::Plain),
                (
                    p.version
                        .as_deref()
                        .map_or_else(|| "-".into(), |v| value(v).into_owned()),
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
            ];
            row.extend(cost);
            row.push((reason, Style::Plain));
            row
        })
        .collect();
    use crate::fit::Column;
    let mut headers = vec![
        Column::keep("TYPE"),
        Column::text("NAME"),
        Column::keep("VERSION"),
        Column::keep("HEALTH"),
        Column::keep("DURATION"),
    ];
    if costs {
        headers.extend(crate::readable::USAGE_HEADERS.map(Column::keep));
    }
    headers.push(Column::text("REASON"));
    printer.table(&headers, &rows)
}

/// "fingerprinting: 10/11 done, waiting for host-volume/hang, 3 s"
fn progress_line(p: &Progress<'_>) -> String {
    let waiting = p
        .waiting
        .map(|(family, name)| format!(", waiting for {family}/{name}"))
        .unwrap_or_default();
    format!(
        "fingerprinting: {}/{} done{waiting}, {} s",
        p.done,
        p.total,
        p.elapsed.as_secs()
    )
}

/// A probe's name as every view shows it, escaped once: a file name that
/// is not UTF-8 by its bytes (its probe's name is already an escaped
/// form, which escaping again would double).
fn shown_name(p: &Probe) -> std::borrow::Cow<'_, str> {
    match p.path.as_ref().and_then(|f| f.file_name()) {
        Some(f) if f.to_str().is_none() => plugctl_core::escape::value_os(f),
        _ => value(&p.name),
    }
}

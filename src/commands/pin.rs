//! `plugctl pin [--type T] [NAME...] [--check]`: write down what each plugin
//! file is (sha256, size, interpreter, fingerprinted version) in the lock
//! file, or compare the disk against it. Pinning reads files; it never runs
//! a plugin.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::json;

use super::Ctx;
use crate::cli::PinArgs;
use crate::output::Style;
use crate::{Error, Result};
use plugctl_core::discovery::{self, EntryKind};
use plugctl_core::pin::{LockFile, Pin};
use plugctl_core::registry::Source;

type Key = (String, String);

/// What the disk holds now, for the plugins in scope.
struct Current {
    pins: BTreeMap<Key, Pin>,
    /// Plugins that exist but cannot be pinned (an escaping symlink, an
    /// unreadable file), with the reason.
    unpinnable: BTreeMap<Key, String>,
    /// Every family that has a directory (in scope or not).
    families: Vec<String>,
}

pub fn run(ctx: &Ctx, args: PinArgs) -> Result<()> {
    if let Some(f) = &args.family {
        discovery::require_name("plugin type", f)?;
    }
    for n in &args.names {
        discovery::require_name("plugin", n)?;
    }
    let path = ctx.settings.lockfile.clone();
    let current = scan(ctx, &args)?;
    let scope = |k: &Key| {
        args.family.as_ref().is_none_or(|f| *f == k.0)
            && (args.names.is_empty() || args.names.contains(&k.1))
    };
    let old = LockFile::load(&path, ctx.settings.policy())?;
    // A type that has no directory (nor is one plugctl knows) and nothing
    // in the lock file is a typo, not a type of no plugins: pinning it
    // would write (or check) nothing and say all is well. One whose
    // directory went away while the lock file still pins its plugins goes
    // on, and says what was removed.
    if let Some(f) = &args.family {
        let pinned: Vec<&str> = old
            .iter()
            .flat_map(|l| l.plugins.iter().map(|p| p.family.as_str()))
            .collect();
        if !current.families.contains(f) && !pinned.contains(&f.as_str()) {
            let mut known = current.families.clone();
            known.extend(pinned.into_iter().map(String::from));
            return Err(super::fingerprint::no_such_family(ctx, f, known));
        }
    }
    // A name is known when it is on disk, or pinned (its file removed:
    // the check says so).
    for name in &args.names {
        let on_disk = current
            .pins
            .keys()
            .chain(current.unpinnable.keys())
            .any(|k| k.1 == *name);
        let in_lock = old
            .iter()
            .flat_map(|l| &l.plugins)
            .any(|p| p.name == *name && args.family.as_ref().is_none_or(|f| *f == p.family));
        if !on_disk && !in_lock {
            // The plugins there are, of every name (the scan kept those asked for).
            let names: Vec<String> = discovery::families(&ctx.settings.dirs())?
                .into_iter()
                .filter(|(f, _)| args.family.as_ref().is_none_or(|want| want == f))
                .flat_map(|(f, dir)| discovery::names_in(&f, &dir))
                .collect();
            return Err(Error::NotFound {
                what: "plugin",
                name: name.clone(),
            }
            .did_you_mean(name, names));
        }
    }
    if args.check {
        let Some(old) = old else {
            return Err(Error::usage(format!(
                "no lock file at {}: run `plugctl pin` first (or pass --lockfile)",
                path.display()
            )));
        };
        return check(ctx, &path, &old, &current, &scope);
    }
    for (k, why) in &current.unpinnable {
        ctx.printer.warn(format!(
            "{} plugin {} not pinned: {why}",
            k.0,
            plugctl_core::escape::quote_os(&k.1)
        ));
    }
    // Entries outside the scope are kept as they were; inside it, the disk wins.
    let mut merged: BTreeMap<Key, Pin> = old
        .as_ref()
        .map(|l| {
            l.plugins
                .iter()
                .filter(|p| !scope(&(p.family.clone(), p.name.clone())))
                .map(|p| ((p.family.clone(), p.name.clone()), p.clone()))
                .collect()
        })
        .unwrap_or_default();
    let previous: BTreeMap<Key, Pin> = old
        .map(|l| {
            l.plugins
                .into_iter()
                .map(|p| ((p.family.clone(), p.name.clone()), p))
                .collect()
        })
        .unwrap_or_default();
    let mut changes = Vec::new();
    for (k, pin) in &current.pins {
        let status = match previous.get(k) {
            None => "added",
            Some(p) if !p.same_file(pin) => "changed",
            Some(p) if p.version != pin.version => "version",
            Some(_) => "same",
        };
        changes.push((status, k.clone()));
        merged.insert(k.clone(), pin.clone());
    }
    for k in previous
        .keys()
        .filter(|k| scope(k) && !current.pins.contains_key(*k))
    {
        changes.push(("removed", k.clone()));
    }
    let lock = LockFile::new(merged.into_values().collect());
    lock.save(&path, ctx.settings.policy())?;
    if ctx.printer.json {
        let changes: Vec<_> = changes
            .iter()
            .map(|(s, k)| json!({"type": k.0, "name": k.1, "status": s}))
            .collect();
        return ctx.printer.document(json!({
            "lockfile": path,
            "plugins": lock.plugins,
            "changes": changes,
        }));
    }
    let by_key = lock.by_key();
    let rows: Vec<_> = changes
        .iter()
        .map(|(status, k)| {
            let pin = by_key.get(k);
            vec![
                (status.to_string(), status_style(status)),
                (crate::output::value(&k.0).into_owned(), Style::Plain),
                (crate::output::value(&k.1).into_owned(), Style::Plain),
                (
                    pin.map(|p| short(&p.sha256)).unwrap_or("-".into()),
                    Style::Plain,
                ),
                (
                    pin.map(|p| crate::readable::size(p.size))
                        .unwrap_or("-".into()),
                    Style::Plain,
                ),
                (
                    pin.and_then(|p| p.version.clone()).unwrap_or("-".into()),
                    Style::Plain,
                ),
            ]
        })
        .collect();
    // No plugin: no table, the line below says it.
    if !rows.is_empty() {
        ctx.printer.table(
            &["STATUS", "TYPE", "NAME", "SHA256", "SIZE", "VERSION"],
            &rows,
        )?;
    }
    ctx.printer.info(format!(
        "wrote {} ({} plugins pinned)",
        path.display(),
        lock.plugins.len()
    ));
    Ok(())
}

fn check(
    ctx: &Ctx,
    path: &std::path::Path,
    old: &LockFile,
    current: &Current,
    scope: &dyn Fn(&Key) -> bool,
) -> Result<()> {
    let pinned = old.by_key();
    let keys: BTreeSet<Key> = pinned
        .keys()
        .filter(|k| scope(k))
        .cloned()
        .chain(current.pins.keys().cloned())
        .chain(current.unpinnable.keys().cloned())
        .collect();
    let mut diffs = Vec::new();
    let mut matched = 0;
    for k in keys {
        let was = pinned.get(&k).copied();
        let now = current.pins.get(&k);
        let status = match (was, now, current.unpinnable.get(&k)) {
            (_, None, Some(why)) => Some(format!("unreadable: {why}")),
            (None, Some(_), _) => Some("added".to_string()),
            (Some(_), None, _) => Some("removed".to_string()),
            (Some(w), Some(n), _) if !w.same_file(n) => Some("changed".to_string()),
            _ => None,
        };
        match status {
            None => matched += 1,
            Some(s) => diffs.push((s, k, was, now)),
        }
    }
    if ctx.printer.json {
        let list: Vec<_> = diffs
            .iter()
            .map(|(s, k, was, now)| {
                json!({
                    "type": k.0, "name": k.1, "status": s,
                    "pinned": was, "current": now,
                })
            })
            .collect();
        ctx.printer.document(json!({
            "lockfile": path,
            "ok": diffs.is_empty(),
            "matched": matched,
            "differences": list,
        }))?;
    } else if !diffs.is_empty() {
        let rows: Vec<_> = diffs
            .iter()
            .map(|(s, k, was, now)| {
                vec![
                    (s.clone(), Style::Bad),
                    (crate::output::value(&k.0).into_owned(), Style::Plain),
                    (crate::output::value(&k.1).into_owned(), Style::Plain),
                    (describe(*was), Style::Plain),
                    (describe(*now), Style::Plain),
                ]
            })
            .collect();
        ctx.printer
            .table(&["STATUS", "TYPE", "NAME", "PINNED", "CURRENT"], &rows)?;
    }
    if diffs.is_empty() {
        if !ctx.printer.json {
            ctx.printer
                .text(&format!("ok: {matched} plugins match {}\n", path.display()))?;
        }
        Ok(())
    } else {
        Err(Error::Failed(format!(
            "{} of {} plugins differ from {}",
            diffs.len(),
            diffs.len() + matched,
            path.display()
        )))
    }
}

/// Pins every plugin file in scope, as discovery finds them.
fn scan(ctx: &Ctx, args: &PinArgs) -> Result<Current> {
    let snap = ctx.registry.read()?;
    let state = snap.state();
    let mut pins = BTreeMap::new();
    let mut unpinnable = BTreeMap::new();
    let pinner = plugctl_core::pin::Pinner::default();
    let mut families = Vec::new();
    for (family, dir) in discovery::families(&ctx.settings.dirs())? {
        families.push(family.clone());
        if args.family.as_ref().is_some_and(|f| *f != family) {
            continue;
        }
        for entry in discovery::scan(&family, &dir, ctx.settings.nomad)? {
            if !args.names.is_empty() && !args.names.contains(&entry.name) {
                continue;
            }
            let key = (family.clone(), entry.name.clone());
            match &entry.kind {
                EntryKind::Plugin => {
                    let version = state
                        .instances(&family, &entry.name)
                        .iter()
                        .find(|i| i.source == Source::File && i.healthy)
                        .and_then(|i| i.version.clone());
                    match pinner.pin_file(&family, &entry.name, &entry.path, version) {
                        Ok(pin) => {
                            pins.insert(key, pin);
                        }
                        Err(e) => {
                            unpinnable
                                .insert(key, format!("cannot read {}: {e}", entry.path.display()));
                        }
                    }
                }
                EntryKind::Rejected(why) => {
                    unpinnable.insert(key, why.clone());
                }
                EntryKind::Builtin(_) | EntryKind::Ignored(_) => {}
            }
        }
    }
    Ok(Current {
        pins,
        unpinnable,
        families,
    })
}

fn short(sha: &str) -> String {
    sha.chars().take(12).collect()
}

fn describe(pin: Option<&Pin>) -> String {
    match pin {
        None => "-".into(),
        Some(p) => {
            let mut s = format!("sha256 {} {} bytes", short(&p.sha256), p.size);
            if let Some(i) = &p.interpreter {
                s.push_str(&format!(
                    ", {} {}",
                    i.path,
                    i.sha256
                        .as_deref()
                        .map(short)
                        .unwrap_or_else(|| "missing".into())
                ));
            }
            s
        }
    }
}

fn status_style(status: &str) -> Style {
    match status {
        "same" => Style::Dim,
        "added" | "version" => Style::Good,
        _ => Style::Warn,
    }
}

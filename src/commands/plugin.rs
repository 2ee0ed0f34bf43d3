//! `plugctl plugin list|show|register|deregister|wait`: what the registry
//! knows about plugins, and the dynamic registry of plugins that run as
//! long-lived tasks and announce themselves with a control socket.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::Ctx;
use crate::cli::{PluginCommand, RegisterArgs};
use crate::output::{Style, short_duration, value};
use crate::units::duration_ms;
use crate::{Error, Result};
use plugctl_core::discovery;
use plugctl_core::error::Hint;
use plugctl_core::family::Family;
use plugctl_core::registry::dynamic::{
    self, Deregistered, PROBE_TIMEOUT, Registered, Registration, SocketStatus,
};
use plugctl_core::registry::watch::Watch;
use plugctl_core::registry::{Instance, Source};

pub async fn run(ctx: &Ctx, cmd: PluginCommand) -> Result<()> {
    match cmd {
        PluginCommand::List { family } => list(ctx, family.as_deref()).await,
        PluginCommand::Show {
            family,
            name,
            alloc_id,
        } => show(ctx, &family, &name, alloc_id.as_deref()).await,
        PluginCommand::Register(args) => register(ctx, args).await,
        PluginCommand::Deregister {
            family,
            name,
            alloc_id,
        } => deregister(ctx, &family, &name, &alloc_id).await,
        PluginCommand::Forget { family, names } => forget(ctx, &family, &names).await,
        PluginCommand::Wait {
            family,
            name,
            timeout,
            healthy,
        } => wait(ctx, &family, &name, timeout, healthy).await,
    }
}

/// An instance as scripts see it: the registry record plus its family and name.
pub fn instance_json(family: &str, name: &str, inst: &Instance) -> Value {
    let mut v = serde_json::to_value(inst).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut v {
        m.insert("type".into(), family.into());
        m.insert("name".into(), name.into());
        // As `fingerprint --json` has it.
        if inst.source == Source::Builtin
            && let Some(note) =
                plugctl_core::discovery::builtin(family, name).and_then(|b| b.note())
        {
            m.insert("note".into(), note.into());
        }
    }
    v
}

/// [`instance_json`] with the live health of a dynamic instance's socket:
/// `healthy` and `error` then say whether the socket accepts a connection
/// now (the record's own value only says it was registered), and
/// `socket_healthy` / `socket_status` give the detail.
fn checked_json(family: &str, name: &str, inst: &Instance, status: Option<&SocketStatus>) -> Value {
    let mut v = instance_json(family, name, inst);
    if let Value::Object(m) = &mut v {
        m.entry("duration_ms").or_insert(Value::Null);
        if let Some(st) = status {
            m.insert("healthy".into(), st.accepts.into());
            m.insert("error".into(), st.error.clone().into());
            m.insert("socket_healthy".into(), st.accepts.into());
            m.insert(
                "socket_status".into(),
                serde_json::to_value(st).unwrap_or(Value::Null),
            );
        }
    }
    v
}

/// A plugin's HEALTH word, the same in every table that shows one
/// (`fingerprint`, `plugin list`, `plugin show`): a healthy built-in is
/// `built-in` (nothing ran), a plugin that was not run says so.
pub fn health(healthy: bool, source: Source, not_run: bool) -> (&'static str, Style) {
    match (healthy, source) {
        _ if not_run => ("not run", Style::Warn),
        (true, Source::Builtin) => ("built-in", Style::Good),
        (true, _) => ("healthy", Style::Good),
        (false, _) => ("unhealthy", Style::Bad),
    }
}

/// The REASON beside a plugin: its error, else what is known of a
/// built-in (nomad and vault need a cluster), as `fingerprint` says it.
pub fn reason(family: &str, name: &str, source: Source, error: Option<&str>) -> String {
    let note = || {
        (source == Source::Builtin)
            .then(|| plugctl_core::discovery::builtin(family, name)?.note())
            .flatten()
    };
    error.or_else(note).unwrap_or_default().to_string()
}

fn where_from(inst: &Instance) -> String {
    match inst.source {
        Source::File => inst
            .path
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        Source::Builtin => "built-in".into(),
        Source::Dynamic => format!(
            "alloc {} socket {}",
            inst.alloc_id.as_deref().unwrap_or("?"),
            inst.socket
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default()
        ),
    }
}

fn row(
    family: &str,
    name: &str,
    inst: &Instance,
    status: Option<&SocketStatus>,
    now: std::time::SystemTime,
) -> Vec<(String, Style)> {
    let (healthy, error) = match status {
        Some(st) => (st.accepts, st.error.as_deref()),
        None => (inst.healthy, inst.error.as_deref()),
    };
    let health = health(healthy, inst.source, false);
    let reason = reason(family, name, inst.source, error);
    let socket = match status {
        None => "-",
        Some(st) if st.accepts => "accepting",
        Some(st) if st.exists => "refusing",
        Some(_) => "missing",
    };
    vec![
        (value(family).into_owned(), Style::Plain),
        (value(name).into_owned(), Style::Plain),
        (
            inst.version
                .as_deref()
                .map_or_else(|| "-".into(), |v| value(v).into_owned()),
            Style::Plain,
        ),
        (health.0.into(), health.1),
        (socket.into(), Style::Plain),
        (
            inst.duration_ms
                .map(short_duration)
                .unwrap_or_else(|| "-".into()),
            Style::Dim,
        ),
        // When it was last fingerprinted (or registered): a health that
        // is days old is not today's.
        (crate::readable::age_of(&inst.updated_at, now), Style::Dim),
        (where_from(inst), Style::Plain),
        (reason, Style::Plain),
    ]
}

const HEADERS: [&str; 9] = [
    "TYPE", "NAME", "VERSION", "HEALTH", "SOCKET", "DURATION", "CHECKED", "FROM", "REASON",
];

/// Checks the sockets of the dynamic instances among these, all at once.
async fn probe(instances: &[&Instance]) -> Vec<Option<SocketStatus>> {
    let sockets: Vec<&Path> = instances.iter().filter_map(|i| dynamic_socket(i)).collect();
    let mut statuses = plugctl_core::sockets::check_all(&sockets, PROBE_TIMEOUT)
        .await
        .into_iter();
    instances
        .iter()
        .map(|i| dynamic_socket(i).and_then(|_| statuses.next()))
        .collect()
}

fn dynamic_socket(inst: &Instance) -> Option<&Path> {
    match inst.source {
        Source::Dynamic => inst.socket.as_deref(),
        _ => None,
    }
}

pub async fn list(ctx: &Ctx, family: Option<&str>) -> Result<()> {
    if let Some(f) = family {
        discovery::require_name("plugin type", f)?;
    }
    let mut snap = ctx.registry.read()?;
    snap.check_files(crate::exit::advised);
    let state = snap.state();
    let mut current = Vec::new();
    for (fam, plugins) in &state.plugins {
        if family.is_some_and(|f| f != fam) {
            continue;
        }
        for (name, instances) in plugins {
            if let Some(inst) = instances.first() {
                current.push((fam.as_str(), name.as_str(), inst));
            }
        }
    }
    let statuses = probe(&current.iter().map(|c| c.2).collect::<Vec<_>>()).await;
    if ctx.printer.json {
        let plugins: Vec<Value> = current
            .iter()
            .zip(&statuses)
            .map(|((f, n, i), st)| checked_json(f, n, i, st.as_ref()))
            .collect();
        return ctx.printer.document(json!({ "plugins": plugins }));
    }
    if current.is_empty() {
        ctx.printer.info(match family {
            Some(f) => format!("no plugins of type {f}{}", type_hint(state, f)),
            None => "no plugins".to_string(),
        });
        return Ok(());
    }
    let now = std::time::SystemTime::now();
    let rows: Vec<_> = current
        .iter()
        .zip(&statuses)
        .map(|((f, n, i), st)| row(f, n, i, st.as_ref(), now))
        .collect();
    ctx.printer.table(&HEADERS, &rows)
}

/// "; did you mean host-volume?" when `family` is a typo of a type the
/// registry holds or plugctl knows; else nothing.
fn type_hint(state: &plugctl_core::registry::State<'_>, family: &str) -> String {
    let types = state
        .plugins
        .keys()
        .map(String::as_str)
        .chain(Family::ALL.map(Family::name));
    plugctl_core::suggest::closest(family, types)
        .map(|t| crate::exit::advice(&Hint::DidYouMean(t)))
        .unwrap_or_default()
}

/// Not found in the registry, with "did you mean" a type or a name it
/// holds when one is close.
fn not_recorded(
    state: &plugctl_core::registry::State<'_>,
    family: &str,
    name: &str,
    what: String,
) -> Error {
    let e = Error::NotFound {
        what: "plugin",
        name: what,
    };
    match state.plugins.get(family) {
        Some(plugins) => e.did_you_mean(name, plugins.keys()),
        None => e.did_you_mean(
            family,
            state
                .plugins
                .keys()
                .map(String::as_str)
                .chain(Family::ALL.map(Family::name)),
        ),
    }
}

pub async fn show(ctx: &Ctx, family: &str, name: &str, alloc_id: Option<&str>) -> Result<()> {
    discovery::require_name("plugin type", family)?;
    discovery::require_name("plugin", name)?;
    let mut snap = ctx.registry.read()?;
    snap.check_files(crate::exit::advised);
    let state = snap.state();
    let instances: Vec<&Instance> = state
        .instances(family, name)
        .iter()
        .filter(|i| alloc_id.is_none_or(|a| i.alloc_id.as_deref() == Some(a)))
        .collect();
    if instances.is_empty() {
        let what = match alloc_id {
            Some(a) => format!("{family}/{name} with alloc id {a}"),
            None => format!(
                "{family}/{name} in registry {}",
                ctx.registry.path().display()
            ),
        };
        return Err(not_recorded(state, family, name, what));
    }
    let statuses = probe(&instances).await;
    if ctx.printer.json {
        let list: Vec<Value> = instances
            .iter()
            .zip(&statuses)
            .map(|(i, st)| checked_json(family, name, i, st.as_ref()))
            .collect();
        return ctx.printer.document(json!({
            "type": family,
            "name": name,
            "instances": list,
        }));
    }
    let now = std::time::SystemTime::now();
    let rows: Vec<_> = instances
        .iter()
        .zip(&statuses)
        .map(|(i, st)| row(family, name, i, st.as_ref(), now))
        .collect();
    ctx.printer.table(&HEADERS, &rows)
}

/// Why a plugin may not be forgotten now: it is still in its directory
/// (at its recorded path or under its name), so the next fingerprint would
/// find it again; or the registry does not hold it as a fingerprinted file.
fn forget_refusal(
    state: &plugctl_core::registry::State<'_>,
    family: &str,
    name: &str,
    dir: &Path,
) -> Result<()> {
    let Some(current) = state.instances(family, name).first() else {
        return Err(not_recorded(
            state,
            family,
            name,
            format!("{family}/{name} in the registry"),
        ));
    };
    match current.source {
        Source::File => {}
        Source::Builtin => {
            return Err(Error::usage(format!(
                "{family} plugin {name_q} is built into Nomad and always there: there is \
                 nothing to forget",
                name_q = plugctl_core::escape::quote(name)
            )));
        }
        Source::Dynamic => {
            return Err(Error::usage(format!(
                "{family}/{name} is registered by a task (alloc {}): `plugctl plugin \
                 deregister` removes an instance",
                current.alloc_id.as_deref().unwrap_or("?")
            )));
        }
    }
    let in_dir = dir.join(name);
    let there = [current.path.as_deref(), Some(in_dir.as_path())]
        .into_iter()
        .flatten()
        .find(|p| std::fs::symlink_metadata(p).is_ok());
    if let Some(path) = there {
        return Err(Error::usage(format!(
            "{family} plugin {name_q} is still there ({}): `plugin forget` is for a plugin \
             removed from its directory; remove the file first, or fix it and run `plugctl \
             fingerprint`",
            path.display(),
            name_q = plugctl_core::escape::quote(name)
        )));
    }
    Ok(())
}

/// `plugin forget TYPE NAME...`: removes plugins that are gone from their
/// directory from the registry (a `forgotten` event each), so fingerprint,
/// `plugin list` and the metrics stop reporting them. Every name is
/// checked before anything is written.
pub async fn forget(ctx: &Ctx, family: &str, names: &[String]) -> Result<()> {
    discovery::require_name("plugin type", family)?;
    for n in names {
        discovery::require_name("plugin", n)?;
    }
    let dir = ctx.settings.family_dir(family);
    {
        let snap = ctx.registry.read()?;
        for n in names {
            forget_refusal(snap.state(), family, n, &dir)?;
        }
    }
    let mut done = Vec::new();
    for n in names {
        // Asked again under the lock: a file put back meanwhile stays.
        let seq = ctx
            .registry
            .forget(family, n, |state| forget_refusal(state, family, n, &dir))
            .await?;
        done.push((n, seq));
    }
    if ctx.printer.json {
        let list: Vec<Value> = done
            .iter()
            .map(|(n, seq)| json!({"type": family, "name": n, "seq": seq}))
            .collect();
        return ctx.printer.document(json!({ "forgotten": list }));
    }
    let mut text = String::new();
    for (n, seq) in done {
        text.push_str(&format!(
            "forgot {}/{} (event {})\n",
            value(family),
            value(n),
            seq.map_or("-".to_string(), |s| s.to_string())
        ));
    }
    ctx.printer.text(&text)
}

/// A socket path as given, made absolute against the working directory: the
/// registry outlives this shell, and readers run elsewhere.
fn absolute(p: &Path) -> Result<PathBuf> {
    if p.is_absolute() || p.as_os_str().is_empty() {
        return Ok(p.to_path_buf());
    }
    let cwd =
        std::env::current_dir().map_err(|e| Error::io("cannot resolve a relative --socket", e))?;
    Ok(cwd.join(p))
}

pub async fn register(ctx: &Ctx, args: RegisterArgs) -> Result<()> {
    let reg = Registration {
        family: args.family,
        name: args.name,
        alloc_id: args.alloc_id,
        socket: absolute(&args.socket)?,
        version: args.version,
        options: args.options.into_iter().collect(),
    };
    // Refuse bad input before touching (or creating) the registry file.
    reg.validate()?;
    // A family fingerprinted from the plugin directory is not a dynamic type.
    if ctx.settings.plugin_dir.join(&reg.family).is_dir() {
        return Err(Error::usage(format!(
            "{} is a plugin family directory in {} (fingerprinted there), not a dynamic \
             plugin type; choose another type",
            plugctl_core::escape::quote_os(&reg.family),
            ctx.settings.plugin_dir.display()
        )));
    }
    let outcome = ctx.registry.register(&reg).await?;
    let who = instance_label(&reg.family, &reg.name, &reg.alloc_id);
    let (changed, seq, current, instance) = match &outcome {
        Registered::Added { seq, instance } => (true, Some(*seq), true, instance),
        Registered::Unchanged { existing, current } => {
            if existing.socket.as_deref() != Some(reg.socket.as_path())
                || existing.version != reg.version.clone().filter(|v| !v.is_empty())
                || existing.options != reg.options
            {
                ctx.printer.warn(format!(
                    "{who} is already registered (socket {}); the registration was left \
                     unchanged: deregister it first to change it",
                    existing
                        .socket
                        .as_deref()
                        .unwrap_or(Path::new("?"))
                        .display()
                ));
            }
            (false, None, *current, existing)
        }
    };
    if ctx.printer.json {
        return ctx.printer.document(json!({
            "type": reg.family,
            "name": reg.name,
            "alloc_id": reg.alloc_id,
            "changed": changed,
            "seq": seq,
            "is_current": current,
            "instance": instance_json(&reg.family, &reg.name, instance),
        }));
    }
    let line = match outcome {
        Registered::Added { seq, .. } => {
            format!("registered {who}: now the current instance (event {seq})\n")
        }
        Registered::Unchanged { current, .. } => format!(
            "{who} was already registered{}; nothing changed\n",
            if current {
                " (current)"
            } else {
                " (not current)"
            }
        ),
    };
    ctx.printer.text(&line)
}

/// `family/name alloc ID` for a line on a terminal: a name may hold ESC or
/// a newline, shown escaped as in tables.
fn instance_label(family: &str, name: &str, alloc_id: &str) -> String {
    format!(
        "{}/{} alloc {}",
        value(family),
        value(name),
        value(alloc_id)
    )
}

pub async fn deregister(ctx: &Ctx, family: &str, name: &str, alloc_id: &str) -> Result<()> {
    // The same checks as inside the transaction, before taking the lock.
    dynamic::check_type(family)?;
    let outcome = ctx.registry.deregister(family, name, alloc_id).await?;
    let who = instance_label(family, name, alloc_id);
    if ctx.printer.json {
        let (changed, seq, was_current, current) = match &outcome {
            Deregistered::Removed {
                seq,
                was_current,
                current,
                ..
            } => (
                true,
                Some(*seq),
                *was_current,
                current.as_ref().map(|c| instance_json(family, name, c)),
            ),
            Deregistered::NotRegistered => (false, None, false, None),
        };
        return ctx.printer.document(json!({
            "type": family,
            "name": name,
            "alloc_id": alloc_id,
            "changed": changed,
            "seq": seq,
            "was_current": was_current,
            "current": current,
        }));
    }
    let line = match outcome {
        Deregistered::Removed { seq, current, .. } => match current {
            Some(c) => format!(
                "deregistered {who} (event {seq}); current instance: alloc {}\n",
                value(c.alloc_id.as_deref().unwrap_or("?"))
            ),
            None => format!("deregistered {who} (event {seq}); no instances left\n"),
        },
        Deregistered::NotRegistered => format!("{who} is not registered; nothing to do\n"),
    };
    ctx.printer.text(&line)
}

/// How often `plugin wait --healthy` probes a registered plugin's socket
/// that did not accept yet (the registry file says nothing about that).
const SOCKET_RETRY: Duration = Duration::from_millis(100);

/// Waits until the plugin has a current instance (and, with `healthy`, that
/// instance's socket accepts a connection). Reads the registry again only
/// when the kernel says it was replaced ([`Watch`]).
pub async fn wait(
    ctx: &Ctx,
    family: &str,
    name: &str,
    timeout: Duration,
    healthy: bool,
) -> Result<()> {
    if family.is_empty() {
        return Err(Error::usage(format!(
            "the plugin type must not be empty (known dynamic plugin types: {})",
            dynamic::TYPES.join(", ")
        )));
    }
    discovery::require_name("plugin type", family)?;
    discovery::require_name("plugin", name)?;
    let start = Instant::now();
    // A "forever" timeout must not overflow Instant.
    let deadline = start
        .checked_add(timeout)
        .unwrap_or_else(|| start + Duration::from_secs(100 * 365 * 86_400));
    // Watching starts before the first read: a write landing in between
    // wakes the loop below.
    let mut watch = Watch::new(ctx.registry.path());
    // Where the log stood when the state was read: what comes after is
    // read from the journal, and the registry parsed again only when an
    // event names this plugin.
    let mut head = ctx.registry.head()?;
    let mut cursor = head.journal.unwrap_or_default();
    let mut snap = ctx.registry.read()?;
    snap.check_files(crate::exit::advised);
    if !dynamic::is_dynamic_type(family) && !snap.state().plugins.contains_key(family) {
        ctx.printer.warn(format!(
            "no plugin of type {family_q} is in the registry, and it is not a dynamic plugin \
             type ({}); waiting anyway",
            dynamic::TYPES.join(", "),
            family_q = plugctl_core::escape::quote(family)
        ));
    }
    loop {
        let why_not = match snap.state().current(family, name) {
            None => None,
            Some(inst) => {
                let status = match (healthy, dynamic_socket(inst)) {
                    (true, Some(sock)) => {
                        let left = deadline.saturating_duration_since(Instant::now());
                        Some(
                            plugctl_core::sockets::check(
                                sock,
                                left.clamp(Duration::from_millis(50), PROBE_TIMEOUT),
                            )
                            .await,
                        )
                    }
                    _ => None,
                };
                let ok = match (&status, healthy) {
                    (_, false) => true,
                    (Some(st), true) => st.accepts,
                    // Fingerprinted: its recorded health.
                    (None, true) => inst.healthy,
                };
                if ok {
                    return waited(ctx, family, name, inst, status.as_ref(), start);
                }
                Some(format!(
                    "{family}/{name} is registered{} but not healthy: {}",
                    inst.alloc_id
                        .as_deref()
                        .map(|a| format!(" (alloc {a})"))
                        .unwrap_or_default(),
                    status
                        .and_then(|s| s.error)
                        .or_else(|| inst.error.clone())
                        .unwrap_or_else(|| "recorded unhealthy".into())
                ))
            }
        };
        let now = Instant::now();
        if now >= deadline {
            let waited = humantime::format_duration(timeout);
            return Err(Error::Timeout(match why_not {
                Some(w) => format!("{w}; gave up after {waited}"),
                None => format!(
                    "{family}/{name} is not registered in {}; gave up after {waited}",
                    ctx.registry.path().display()
                ),
            }));
        }
        // With --healthy and an instance present, the socket is probed
        // again every SOCKET_RETRY even when the file did not change: it
        // may have started listening.
        let probing = why_not.is_some();
        let changed = tokio::select! {
            () = watch.changed() => true,
            () = tokio::time::sleep(deadline - now) => false,
            () = tokio::time::sleep(SOCKET_RETRY), if probing => false,
            code = ctx.stop.wait() => {
                return Err(Error::Failed(format!("stopped by a signal (exit {code})")));
            }
        };
        if changed && concerns(ctx, &mut head, &mut cursor, family, name)? {
            snap = ctx.registry.read()?;
            snap.check_files(crate::exit::advised);
        }
    }
}

/// Whether what the registry committed since `head` concerns the plugin
/// waited for: an event that names it (reading only the journal's new
/// bytes), or a change that cannot be followed event by event (the file
/// replaced by an older one, or one of schema 1 with its log inside).
/// Moves `head` and `cursor` past what was read.
fn concerns(
    ctx: &Ctx,
    head: &mut plugctl_core::registry::Head,
    cursor: &mut plugctl_core::registry::journal::Pos,
    family: &str,
    name: &str,
) -> Result<bool> {
    let now = ctx.registry.head()?;
    if now.write_id == head.write_id {
        return Ok(false);
    }
    if now.journal.is_none() || now.seq < head.seq {
        *cursor = now.journal.unwrap_or_default();
        *head = now;
        return Ok(true);
    }
    let mut named = false;
    ctx.registry.each_event(&now, cursor, head.seq, |e| {
        named |= e.family == family && e.name == name;
        true
    })?;
    *head = now;
    Ok(named)
}

fn waited(
    ctx: &Ctx,
    family: &str,
    name: &str,
    inst: &Instance,
    status: Option<&SocketStatus>,
    start: Instant,
) -> Result<()> {
    if ctx.printer.json {
        return ctx.printer.document(json!({
            "type": family,
            "name": name,
            "instance": checked_json(family, name, inst, status),
            "waited_ms": duration_ms(start.elapsed()),
        }));
    }
    let health = match status {
        Some(st) if st.accepts => ", socket accepting",
        _ => "",
    };
    ctx.printer.text(&format!(
        "{}/{}: {}{health}\n",
        value(family),
        value(name),
        where_from(inst)
    ))
}

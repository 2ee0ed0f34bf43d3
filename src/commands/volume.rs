//! `plugctl volume ...`: dynamic host volumes end to end.
//!
//! A create or delete is three steps: a registry transaction (record the
//! volume `pending`, or mark it `deleting`), the plugin, run outside the
//! lock, and a second transaction (see [`crate::registry::volumes`] for the
//! rules). `restore` re-runs create for every recorded volume at once;
//! `repair` settles what an interrupted plugctl left `pending` or `deleting`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use super::Ctx;
use crate::cli::{RunArgs, VolumeCommand, VolumeCreateArgs, VolumeDeleteArgs};
use crate::discovery::{self, EntryKind};
use crate::error::PluginFailure;
use crate::families::driver::{Call, Driver};
use crate::families::host_volume::{self, Created, InvalidRequest, Request};
use crate::families::mkdir;
use crate::family::{Family, Operation};
use crate::output::{Printer, Style};
use crate::registry::model::Owner;
use crate::registry::volumes::{CreateKind, CreateOutcome, describe};
use crate::registry::{Volume, VolumeState};
use crate::runner::Pool;
use crate::units::duration_ms;
use crate::{Error, Result};

pub async fn run(ctx: &Ctx, cmd: VolumeCommand) -> Result<()> {
    match cmd {
        VolumeCommand::Create(args) => create(ctx, args).await,
        VolumeCommand::Delete(args) => delete(ctx, args).await,
        VolumeCommand::List { plugin } => list(ctx, plugin.as_deref()),
        VolumeCommand::Show { volume, namespace } => show(ctx, &volume, &namespace),
        VolumeCommand::Restore { run, plan } if plan.dry_run => plan_restore(ctx, &run),
        VolumeCommand::Restore { run, .. } => restore(ctx, &run).await,
        VolumeCommand::Repair { run } => repair(ctx, &run).await,
        VolumeCommand::Audit { prune_orphans, yes } => super::audit::run(ctx, prune_orphans, yes),
    }
}

/// Deadline and grace of every plugin call of one command.
#[derive(Debug, Clone, Copy)]
struct Timing {
    deadline: Duration,
    grace: Duration,
}

impl Timing {
    fn of(run: &RunArgs) -> Result<Timing> {
        Ok(Timing {
            deadline: super::deadline(run, host_volume::OPERATION_DEADLINE)?,
            grace: run.grace,
        })
    }
}

/// A host-volume plugin that can be run.
#[derive(Debug, Clone)]
enum Plugin {
    Mkdir(mkdir::MkdirBehaviour),
    File(PathBuf),
}

/// Finds `name` in the host-volume plugin directory (the built-in `mkdir`
/// wins). Not there, or not a plugin as Nomad sees it (no execute bit, a
/// directory): exit 3, as in `fingerprint` and `secret fetch`. A plugin
/// plugctl refuses to run (a symlink out of the directory, a broken one):
/// a plugin failure naming why.
fn resolve(ctx: &Ctx, name: &str, op: Operation, subject: &str) -> Result<Plugin> {
    let operation = format!("{op} of {subject}");
    let dir = &ctx.settings.host_volume_plugin_dir;
    let entry = discovery::find(Family::HostVolume.name(), dir, name).map_err(|e| match e {
        Error::NotFound { .. } => Error::NotFound {
            what: "plugin",
            name: format!(
                "{}/{name} (looked in {}; needed for the {operation})",
                Family::HostVolume,
                dir.display()
            ),
        },
        other => other,
    })?;
    match entry.kind {
        EntryKind::Builtin(b) if b.name == mkdir::NAME => {
            Ok(Plugin::Mkdir(ctx.settings.nomad.mkdir()))
        }
        EntryKind::Plugin => Ok(Plugin::File(entry.path)),
        EntryKind::Builtin(_) => Err(Error::plugin(
            Family::HostVolume.name(),
            name,
            op,
            PluginFailure::Rejected("a built-in plugctl cannot run".into()),
        )
        .about(subject)),
        EntryKind::Ignored(ref reason) => {
            Err(discovery::not_a_plugin(&entry, reason, op).about(subject))
        }
        EntryKind::Rejected(reason) => Err(Error::plugin(
            Family::HostVolume.name(),
            name,
            op,
            PluginFailure::Rejected(format!("{}: {reason}", entry.path.display())),
        )
        .about(subject)),
    }
}

/// Whether a failed create may have left something behind: the plugin ran
/// and did not say it failed (timeout, killed, bad output after exit 0).
fn uncertain(f: &PluginFailure) -> bool {
    matches!(
        f,
        PluginFailure::TimedOut { .. }
            | PluginFailure::LeftBehind(_)
            | PluginFailure::Signaled { .. }
            | PluginFailure::BadOutput(_)
            | PluginFailure::Response(_)
    )
}

/// Shows a call's stderr: with -v when it failed, with -vv always.
fn show_stderr(printer: &Printer, what: &str, ok: bool, stderr: &[u8]) {
    let level = if ok { 2 } else { 1 };
    if printer.verbose() >= level && !stderr.is_empty() {
        printer.note(
            level,
            format!(
                "{what}: stderr:\n{}",
                String::from_utf8_lossy(stderr).trim_end()
            ),
        );
    }
}

/// The driver for one call of `plugin` with this deadline and grace.
fn driver(pool: Arc<Pool>, plugin: Plugin, timing: Timing) -> Driver {
    match plugin {
        Plugin::Mkdir(behaviour) => Driver::Mkdir(behaviour),
        Plugin::File(program) => Driver::Plugin {
            pool,
            program,
            deadline: timing.deadline,
            grace: timing.grace,
        },
    }
}

/// Says (with -vv) which plugin runs for which volume.
fn announce(printer: &Printer, driver: &Driver, op: Operation, id: &str) -> String {
    let what = match driver {
        Driver::Plugin { program, .. } => format!("{} {op}", program.display()),
        Driver::Mkdir(_) => format!("built-in mkdir {op}"),
    };
    printer.note(2, format!("running {what} for volume {id}"));
    what
}

/// A call's result, its stderr shown as -v/-vv ask.
fn settle<T>(printer: &Printer, what: &str, call: Call<T>) -> Result<T, PluginFailure> {
    if let Some(out) = &call.outcome {
        show_stderr(printer, what, call.result.is_ok(), &out.stderr);
    }
    call.result
}

async fn call_create(
    pool: Arc<Pool>,
    printer: Printer,
    plugin: Plugin,
    req: Request,
    timing: Timing,
) -> Result<Created, PluginFailure> {
    call_create_timed(pool, printer, plugin, req, timing)
        .await
        .0
}

/// [`call_create`], with how long the plugin itself ran (not the wait for
/// a place in the pool); None for the built-in.
async fn call_create_timed(
    pool: Arc<Pool>,
    printer: Printer,
    plugin: Plugin,
    req: Request,
    timing: Timing,
) -> (Result<Created, PluginFailure>, Option<Duration>) {
    let driver = driver(pool, plugin, timing);
    let what = announce(&printer, &driver, Operation::Create, &req.id);
    let call = driver.create(&req).await;
    let took = call.outcome.as_ref().map(|o| o.duration);
    (settle(&printer, &what, call), took)
}

async fn call_delete(
    pool: Arc<Pool>,
    printer: Printer,
    plugin: Plugin,
    req: Request,
    created_path: String,
    timing: Timing,
) -> Result<(), PluginFailure> {
    let driver = driver(pool, plugin, timing);
    let what = announce(&printer, &driver, Operation::Delete, &req.id);
    settle(&printer, &what, driver.delete(&req, &created_path).await)
}

/// The flag a request field comes from, for usage errors.
fn flag_of(field: &str) -> &'static str {
    match field {
        "namespace" => "--namespace",
        "name" => "--name",
        "id" => "--id",
        "capacity_min" => "--capacity-min",
        "capacity_max" => "--capacity-max",
        "parameters" => "--param",
        "volumes_dir" => "--volumes-dir",
        "plugin_dir" => "--host-volume-plugin-dir",
        "node_id" => "--node-id",
        "node_pool" => "--node-pool",
        _ => "a value",
    }
}

fn invalid_request(req: &Request, e: &InvalidRequest) -> Error {
    Error::usage(format!(
        "cannot create {}: bad {}: {}",
        describe(&req.id, &req.name, &req.namespace),
        flag_of(e.field),
        e.reason
    ))
}

/// Stands in for the node id until the registry provides the stable one.
const NODE_ID_PLACEHOLDER: &str = "node-id-from-registry";

async fn create(ctx: &Ctx, args: VolumeCreateArgs) -> Result<()> {
    let timing = Timing::of(&args.run)?;
    let settings = &ctx.settings;
    let mut req = Request {
        volumes_dir: settings.volumes_dir.clone(),
        plugin_dir: settings.host_volume_plugin_dir.clone(),
        node_pool: settings.node_pool.clone(),
        namespace: args.namespace,
        name: args.name,
        // Nomad's helper.IsUUID takes either case and compares ids
        // lower-cased: stored lower-case, one string everywhere.
        id: args
            .id
            .map(|id| id.to_ascii_lowercase())
            .unwrap_or_else(host_volume::new_volume_id),
        capacity_min: args.capacity_min.unwrap_or(0),
        capacity_max: args.capacity_max.unwrap_or(0),
        node_id: settings
            .node_id
            .clone()
            .unwrap_or_else(|| NODE_ID_PLACEHOLDER.into()),
        // A key given twice: the later value wins.
        parameters: args.params.into_iter().collect::<BTreeMap<_, _>>(),
    };
    req.validate().map_err(|e| invalid_request(&req, &e))?;
    let subject = describe(&req.id, &req.name, &req.namespace);
    let plugin = resolve(ctx, &args.plugin, Operation::Create, &subject)?;
    super::require_fingerprinted(ctx, Family::HostVolume, &args.plugin, Operation::Create)?;
    if args.plan.dry_run {
        if settings.node_id.is_none()
            && let Some(id) = ctx.registry.read()?.node_id
        {
            req.node_id = id;
        }
        let planned = plan_call(&args.plugin, &plugin, Operation::Create, &req, "", timing);
        return super::plan::print(ctx, &[planned]);
    }

    let (proposed, kind) = ctx.registry.update(|state| {
        if settings.node_id.is_none() {
            req.node_id = state.node_id();
        }
        let proposed = Volume::pending(&req, &args.plugin, Owner::current());
        let kind = state.begin_volume_create(&proposed)?;
        Ok((proposed, kind))
    })?;

    let result = call_create(
        Arc::clone(&ctx.pool),
        ctx.printer.clone(),
        plugin,
        req.clone(),
        timing,
    )
    .await;
    let outcome = match &result {
        Ok(c) => CreateOutcome::Created(c.clone()),
        Err(f) => CreateOutcome::Failed {
            error: f.to_string(),
            uncertain: uncertain(f),
        },
    };
    let record = ctx
        .registry
        .update(|state| Ok(state.finish_volume_create(&proposed, kind, outcome)))
        .inspect_err(|_| {
            ctx.printer.warn(format!(
                "{} is left pending in the registry: run `plugctl volume repair`",
                proposed.describe()
            ));
        })?;

    let created = match result {
        Ok(c) => c,
        Err(f) => {
            if let Some(v) = &record
                && v.state == VolumeState::Pending
            {
                ctx.printer.warn(format!(
                    "{} is kept pending: the plugin may have made something before it failed; \
                     `plugctl volume repair` re-runs create and, if that fails, delete",
                    v.describe()
                ));
            }
            return Err(Error::plugin(
                Family::HostVolume.name(),
                &args.plugin,
                Operation::Create,
                f,
            )
            .about(subject));
        }
    };
    let warnings = host_volume::warnings(&created, &req.volumes_dir);
    for w in &warnings {
        ctx.printer.warn(format!("{}: {w}", proposed.describe()));
    }
    let Some(record) = record else {
        return Err(Error::Failed(format!(
            "{}: created, but its record vanished meanwhile",
            proposed.describe()
        )));
    };
    if record.state == VolumeState::Deleting {
        ctx.printer.warn(format!(
            "{}: a delete started while create ran; the record is left to it",
            record.describe()
        ));
    }
    print_volumes(ctx, &[&record], true, Some(warnings))
}

async fn delete(ctx: &Ctx, args: VolumeDeleteArgs) -> Result<()> {
    let timing = Timing::of(&args.run)?;
    let snapshot = ctx.registry.read()?;
    let vol = match (&args.id, &args.name) {
        (Some(id), _) => snapshot.volume(id).ok_or_else(|| {
            let hint = snapshot
                .volume_named(&args.namespace, id)
                .map(|v| {
                    format!(
                        " (a volume is named that: its id is {}; or use --name)",
                        v.id
                    )
                })
                .unwrap_or_default();
            Error::NotFound {
                what: "volume",
                name: format!("{id}{hint}"),
            }
        })?,
        (None, Some(name)) => snapshot
            .volume_named(&args.namespace, name)
            .ok_or_else(|| Error::NotFound {
                what: "volume",
                name: format!("{name:?} in namespace {}", args.namespace),
            })?,
        (None, None) => return Err(Error::usage("volume delete needs an ID or --name")),
    };
    let subject = vol.describe();
    let plugin = resolve(ctx, &vol.plugin, Operation::Delete, &subject).map_err(|e| match e {
        Error::NotFound { what, name } => Error::NotFound {
            what,
            name: format!("{name}; the volume's record is kept"),
        },
        other => other,
    })?;
    if args.plan.dry_run {
        let req = vol.request(
            &ctx.settings.host_volume_plugin_dir,
            &ctx.settings.volumes_dir,
        );
        let planned = plan_call(
            &vol.plugin,
            &plugin,
            Operation::Delete,
            &req,
            &vol.path,
            timing,
        );
        return super::plan::print(ctx, &[planned]);
    }
    confinement(ctx, vol).map_err(|why| Error::Registry {
        path: ctx.settings.registry.clone(),
        message: format!("{subject}: {why}"),
    })?;
    let id = vol.id.clone();
    let before = ctx
        .registry
        .update(|state| state.begin_volume_delete(&id))?;
    let req = before.request(
        &ctx.settings.host_volume_plugin_dir,
        &ctx.settings.volumes_dir,
    );
    let result = call_delete(
        Arc::clone(&ctx.pool),
        ctx.printer.clone(),
        plugin,
        req,
        before.path.clone(),
        timing,
    )
    .await;
    let recorded = result.clone().map_err(|f| f.to_string());
    ctx.registry
        .update(|state| Ok(state.finish_volume_delete(&id, before.state, recorded)))
        .inspect_err(|_| {
            ctx.printer.warn(format!(
                "{} is left deleting in the registry: run `plugctl volume repair`",
                before.describe()
            ));
        })?;
    if let Err(f) = result {
        return Err(Error::plugin(
            Family::HostVolume.name(),
            &before.plugin,
            Operation::Delete,
            f,
        )
        .about(subject));
    }
    if ctx.printer.json {
        let mut v = volume_json(&before, Some(Vec::new()));
        v["state"] = "deleted".into();
        return ctx
            .printer
            .document(json!({ "deleted": true, "volume": v }));
    }
    ctx.printer
        .text(&format!("deleted {}\n", sanitize(&before.describe())))
}

fn list(ctx: &Ctx, plugin: Option<&str>) -> Result<()> {
    let state = ctx.registry.read()?;
    let volumes: Vec<&Volume> = state
        .volumes_sorted()
        .into_iter()
        .filter(|v| plugin.is_none_or(|p| v.plugin == p))
        .collect();
    print_volumes(ctx, &volumes, false, None)
}

fn show(ctx: &Ctx, key: &str, namespace: &str) -> Result<()> {
    let state = ctx.registry.read()?;
    let v = state
        .find_volume(key, namespace)
        .ok_or_else(|| Error::NotFound {
            what: "volume",
            name: format!(
                "{key:?} (no volume with that id, nor with that name in namespace {namespace})"
            ),
        })?;
    let warnings = ready_warnings(ctx, v);
    if ctx.printer.json {
        return ctx
            .printer
            .document(json!({ "volume": volume_json(v, Some(warnings)) }));
    }
    let params = if v.parameters.is_empty() {
        "-".to_string()
    } else {
        host_volume::encode_parameters(&v.parameters)
    };
    let size = |n: u64| {
        if n == 0 {
            "-".to_string()
        } else {
            n.to_string()
        }
    };
    let mut rows = vec![
        ("id", v.id.clone()),
        ("name", v.name.clone()),
        ("namespace", v.namespace.clone()),
        ("plugin", v.plugin.clone()),
        ("state", v.state.as_str().to_string()),
        ("path", v.path.clone()),
        ("bytes", v.bytes.to_string()),
        ("capacity min", size(v.capacity_min)),
        ("capacity max", size(v.capacity_max)),
        ("parameters", params),
        ("node id", v.node_id.clone()),
        ("node pool", v.node_pool.clone()),
        (
            "volumes dir",
            v.volumes_dir
                .as_ref()
                .map(|d| d.display().to_string())
                .unwrap_or_else(|| "-".into()),
        ),
        ("created", v.created_at.clone()),
        ("updated", v.updated_at.clone()),
    ];
    if let Some(note) = note(v) {
        rows.push(("note", note));
    }
    for w in warnings {
        rows.push(("warning", w));
    }
    let rows: Vec<Vec<(String, Style)>> = rows
        .into_iter()
        .map(|(k, val)| vec![(k.to_string(), Style::Dim), (val, Style::Plain)])
        .collect();
    ctx.printer.table(&["FIELD", "VALUE"], &rows)
}

/// Path warnings of a ready volume, against the directory it was created in.
fn ready_warnings(ctx: &Ctx, v: &Volume) -> Vec<String> {
    if v.state != VolumeState::Ready {
        return Vec::new();
    }
    let dir = v
        .volumes_dir
        .as_deref()
        .unwrap_or(&ctx.settings.volumes_dir);
    host_volume::warnings(
        &Created {
            path: v.path.clone(),
            bytes: v.bytes,
        },
        dir,
    )
}

/// A volume as scripts see it: every recorded field, `error` always
/// present, `in_progress` (another live plugctl runs its create or delete)
/// and `warnings` when given.
fn volume_json(v: &Volume, warnings: Option<Vec<String>>) -> Value {
    let mut obj = match serde_json::to_value(v) {
        Ok(Value::Object(o)) => o,
        _ => Map::new(),
    };
    obj.insert("error".into(), v.error.clone().into());
    obj.insert("in_progress".into(), v.in_progress().into());
    if let Some(w) = warnings {
        obj.insert("warnings".into(), w.into());
    }
    Value::Object(obj)
}

/// What a human should know about a volume beyond its state.
fn note(v: &Volume) -> Option<String> {
    if let Some(o) = v.owner.filter(Owner::is_other_live) {
        let what = if v.state == VolumeState::Deleting {
            "delete"
        } else {
            "create"
        };
        return Some(format!("{what} running (plugctl pid {})", o.pid));
    }
    match (v.state, &v.error) {
        (VolumeState::Pending, Some(e)) if e.starts_with("create failed") => {
            Some(format!("{e}; run volume repair"))
        }
        (VolumeState::Pending, Some(e)) => Some(format!("create failed: {e}; run volume repair")),
        (VolumeState::Pending, None) => Some("create interrupted; run volume repair".into()),
        (VolumeState::Deleting, _) => Some("delete interrupted; run volume repair".into()),
        (VolumeState::Ready, Some(e)) => Some(format!("last update or delete failed: {e}")),
        (VolumeState::Ready, None) => None,
    }
}

fn sanitize(s: &str) -> String {
    crate::output::sanitize_cell(s)
}

/// `volume list` (and `create`): a table, or `{"volumes": [...]}`
/// (`{"volume": {...}}` when `single`).
fn print_volumes(
    ctx: &Ctx,
    volumes: &[&Volume],
    single: bool,
    warnings: Option<Vec<String>>,
) -> Result<()> {
    if ctx.printer.json {
        if single && let Some(v) = volumes.first() {
            return ctx
                .printer
                .document(json!({ "volume": volume_json(v, warnings) }));
        }
        let all: Vec<Value> = volumes
            .iter()
            .map(|v| volume_json(v, Some(ready_warnings(ctx, v))))
            .collect();
        return ctx.printer.document(json!({ "volumes": all }));
    }
    let rows: Vec<Vec<(String, Style)>> = volumes
        .iter()
        .map(|v| {
            let style = match v.state {
                VolumeState::Ready if v.error.is_none() => Style::Good,
                VolumeState::Ready => Style::Warn,
                _ => Style::Bad,
            };
            vec![
                (v.id.clone(), Style::Plain),
                (v.name.clone(), Style::Plain),
                (v.namespace.clone(), Style::Plain),
                (v.plugin.clone(), Style::Plain),
                (v.state.as_str().to_string(), style),
                (v.bytes.to_string(), Style::Plain),
                (v.path.clone(), Style::Plain),
                (note(v).unwrap_or_default(), Style::Dim),
            ]
        })
        .collect();
    ctx.printer.table(
        &[
            "ID",
            "NAME",
            "NAMESPACE",
            "PLUGIN",
            "STATE",
            "BYTES",
            "PATH",
            "NOTE",
        ],
        &rows,
    )
}

/// What `restore` or `repair` did to one volume, as its report names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
enum Action {
    #[serde(rename = "created")]
    Created,
    #[serde(rename = "updated")]
    Updated,
    #[serde(rename = "rolled back")]
    RolledBack,
    #[serde(rename = "deleted")]
    Deleted,
    #[serde(rename = "skipped")]
    Skipped,
    #[serde(rename = "failed")]
    Failed,
}

impl Action {
    fn name(self) -> &'static str {
        match self {
            Action::Created => "created",
            Action::Updated => "updated",
            Action::RolledBack => "rolled back",
            Action::Deleted => "deleted",
            Action::Skipped => "skipped",
            Action::Failed => "failed",
        }
    }
}

/// What `restore` or `repair` did to one volume.
#[derive(Debug, Clone, serde::Serialize)]
struct Step {
    id: String,
    name: String,
    namespace: String,
    plugin: String,
    /// The state before.
    was: &'static str,
    action: Action,
    ok: bool,
    /// The state after; `deleted` when the record is gone.
    state: String,
    path: String,
    bytes: i64,
    error: Option<String>,
    warnings: Vec<String>,
    duration_ms: u64,
}

impl Step {
    fn new(v: &Volume) -> Step {
        Step {
            id: v.id.clone(),
            name: v.name.clone(),
            namespace: v.namespace.clone(),
            plugin: v.plugin.clone(),
            was: v.state.as_str(),
            action: Action::Failed,
            ok: false,
            state: v.state.as_str().to_string(),
            path: v.path.clone(),
            bytes: v.bytes,
            error: None,
            warnings: Vec::new(),
            duration_ms: 0,
        }
    }

    fn skipped(v: &Volume, why: String) -> Step {
        let mut s = Step::new(v);
        s.action = Action::Skipped;
        s.ok = true;
        s.error = Some(why);
        s
    }

    fn settle(&mut self, record: Option<&Volume>) {
        match record {
            Some(r) => {
                self.state = r.state.as_str().to_string();
                self.path = r.path.clone();
                self.bytes = r.bytes;
            }
            None => self.state = "deleted".into(),
        }
    }
}

/// Everything one volume's job needs, owned, so jobs run concurrently.
struct Job {
    volume: Volume,
    plugin: Result<Plugin, String>,
    req: Request,
    pool: Arc<Pool>,
    printer: Printer,
    timing: Timing,
    /// How long its plugin call ran (set by `create`).
    took: std::sync::Mutex<Option<Duration>>,
}

impl Job {
    fn new(ctx: &Ctx, command: Operation, volume: Volume, timing: Timing) -> Job {
        let plugin = resolve(ctx, &volume.plugin, command, &volume.describe())
            .map_err(|e| match e {
                Error::Plugin { failure, .. } => failure.to_string(),
                other => other.to_string(),
            })
            .and_then(|p| confinement(ctx, &volume).map(|()| p));
        let req = volume.request(
            &ctx.settings.host_volume_plugin_dir,
            &ctx.settings.volumes_dir,
        );
        Job {
            volume,
            plugin,
            req,
            pool: Arc::clone(&ctx.pool),
            printer: ctx.printer.clone(),
            timing,
            took: std::sync::Mutex::new(None),
        }
    }

    async fn create(&self) -> Result<Created, PluginFailure> {
        let plugin = self.plugin.clone().map_err(PluginFailure::Rejected)?;
        let (result, took) = call_create_timed(
            Arc::clone(&self.pool),
            self.printer.clone(),
            plugin,
            self.req.clone(),
            self.timing,
        )
        .await;
        *self.took.lock().unwrap_or_else(|e| e.into_inner()) = took;
        result
    }

    async fn delete(&self) -> Result<(), PluginFailure> {
        let plugin = self.plugin.clone().map_err(PluginFailure::Rejected)?;
        call_delete(
            Arc::clone(&self.pool),
            self.printer.clone(),
            plugin,
            self.req.clone(),
            self.volume.path.clone(),
            self.timing,
        )
        .await
    }
}

/// Runs `f` for every job at once (the pool bounds the plugins), keeping order.
async fn run_all<T, F, Fut>(jobs: Vec<Job>, f: F) -> Vec<(Job, T, u64)>
where
    T: Send + 'static,
    F: Fn(Arc<Job>) -> Fut,
    Fut: std::future::Future<Output = T> + Send + 'static,
{
    let mut set = tokio::task::JoinSet::new();
    let jobs: Vec<Arc<Job>> = jobs.into_iter().map(Arc::new).collect();
    for (i, job) in jobs.iter().enumerate() {
        let fut = f(Arc::clone(job));
        set.spawn(async move {
            let start = Instant::now();
            let out = fut.await;
            (i, out, start.elapsed())
        });
    }
    let mut results: Vec<Option<(T, u64)>> = (0..jobs.len()).map(|_| None).collect();
    while let Some(joined) = set.join_next().await {
        match joined {
            // The plugin's own time when it ran; the wait for a place in
            // the pool is not part of a volume's duration.
            Ok((i, out, elapsed)) => {
                let took = jobs[i]
                    .took
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .unwrap_or(elapsed);
                results[i] = Some((out, duration_ms(took)));
            }
            Err(e) => std::panic::resume_unwind(e.into_panic()),
        }
    }
    jobs.into_iter()
        .zip(results)
        .filter_map(|(job, r)| {
            let job = Arc::try_unwrap(job).ok()?;
            r.map(|(out, ms)| (job, out, ms))
        })
        .collect()
}

/// Whether a recorded volume may be handed to its plugin: created under
/// the volumes directory in use, its path inside it. The registry is
/// untrusted input (docs/security.md); `--allow-insecure-paths` overrides.
fn confinement(ctx: &Ctx, v: &Volume) -> std::result::Result<(), String> {
    if ctx.settings.allow_insecure_paths {
        return Ok(());
    }
    crate::registry::validate::confined(v, &ctx.settings.volumes_dir)
}

/// One host-volume call as `--dry-run` shows it.
fn plan_call(
    name: &str,
    plugin: &Plugin,
    op: Operation,
    req: &Request,
    created_path: &str,
    timing: Timing,
) -> super::plan::Planned {
    use super::plan::Planned;
    let call = crate::provenance::Call::new(Family::HostVolume.name(), name, op).about(describe(
        &req.id,
        &req.name,
        &req.namespace,
    ));
    match plugin {
        Plugin::File(program) => Planned::Exec(
            call,
            if op == Operation::Create {
                host_volume::create_invocation(program, req, timing.deadline, timing.grace)
            } else {
                host_volume::delete_invocation(
                    program,
                    req,
                    created_path,
                    timing.deadline,
                    timing.grace,
                )
            },
        ),
        Plugin::Mkdir(_) => Planned::Inline(
            call,
            if op == Operation::Create {
                format!(
                    "built-in, inside plugctl: would make the directory {}",
                    req.volumes_dir.join(&req.id).display()
                )
            } else {
                format!("built-in, inside plugctl: would remove {created_path}")
            },
        ),
    }
}

/// `volume restore --dry-run`: the create each recorded volume would get.
fn plan_restore(ctx: &Ctx, run: &RunArgs) -> Result<()> {
    use super::plan::Planned;
    let timing = Timing::of(run)?;
    let state = ctx.registry.read()?;
    let mut plans = Vec::new();
    for v in state.volumes_sorted() {
        let req = v.request(
            &ctx.settings.host_volume_plugin_dir,
            &ctx.settings.volumes_dir,
        );
        if v.state == VolumeState::Deleting {
            let call = crate::provenance::Call::new(
                Family::HostVolume.name(),
                &v.plugin,
                Operation::Create,
            )
            .about(v.describe());
            plans.push(Planned::Inline(
                call,
                "skipped: its delete was interrupted; run volume repair".into(),
            ));
            continue;
        }
        match resolve(ctx, &v.plugin, Operation::Create, &v.describe()) {
            Ok(plugin) => plans.push(plan_call(
                &v.plugin,
                &plugin,
                Operation::Create,
                &req,
                "",
                timing,
            )),
            Err(e) => plans.push(Planned::Inline(
                crate::provenance::Call::new(
                    Family::HostVolume.name(),
                    &v.plugin,
                    Operation::Create,
                )
                .about(v.describe()),
                format!("not run: {e}"),
            )),
        }
    }
    super::plan::print(ctx, &plans)
}

async fn restore(ctx: &Ctx, run: &RunArgs) -> Result<()> {
    let timing = Timing::of(run)?;
    let me = Owner::current();
    // Pick and claim in one transaction: ready volumes re-run as they are,
    // pending ones are taken over unless another plugctl works on them.
    let picked: Vec<(Volume, std::result::Result<CreateKind, String>)> =
        ctx.registry.update(|state| {
            let ids: Vec<String> = state
                .volumes_sorted()
                .iter()
                .map(|v| v.id.clone())
                .collect();
            let mut out = Vec::new();
            for id in ids {
                let Some(v) = state.volumes.get_mut(&id) else {
                    continue;
                };
                let pick = if let Some(o) = v.owner.filter(Owner::is_other_live) {
                    Err(format!("plugctl pid {} is working on it", o.pid))
                } else {
                    match v.state {
                        VolumeState::Ready => Ok(CreateKind::Update),
                        VolumeState::Pending => {
                            v.owner = Some(me);
                            Ok(CreateKind::Resume)
                        }
                        VolumeState::Deleting => {
                            Err("its delete was interrupted; run volume repair".into())
                        }
                    }
                };
                out.push((v.clone(), pick));
            }
            Ok(out)
        })?;

    let mut steps = Vec::new();
    let mut jobs = Vec::new();
    let mut kinds = Vec::new();
    for (v, pick) in picked {
        match pick {
            Err(why) => steps.push(Step::skipped(&v, why)),
            Ok(kind) => {
                kinds.push(kind);
                jobs.push(Job::new(ctx, Operation::Create, v, timing));
            }
        }
    }
    let total = jobs.len();
    ctx.printer.progress(format!("restoring {total} volumes"));
    let done = run_all(jobs, |job| async move { job.create().await }).await;
    ctx.printer.progress_done();

    let finished = ctx.registry.update(|state| {
        let mut out = Vec::new();
        for ((job, result, ms), kind) in done.iter().zip(&kinds) {
            let outcome = match result {
                Ok(c) => CreateOutcome::Created(c.clone()),
                Err(f) => CreateOutcome::Failed {
                    error: f.to_string(),
                    uncertain: uncertain(f),
                },
            };
            let record = state.finish_volume_create(&job.volume, *kind, outcome);
            let mut step = Step::new(&job.volume);
            step.duration_ms = *ms;
            step.settle(record.as_ref());
            match result {
                Ok(c) => {
                    step.ok = true;
                    step.action = if *kind == CreateKind::Resume {
                        Action::Created
                    } else {
                        Action::Updated
                    };
                    step.warnings = host_volume::warnings(c, &job.req.volumes_dir);
                }
                Err(f) => {
                    step.action = Action::Failed;
                    step.error = Some(f.to_string());
                }
            }
            out.push(step);
        }
        Ok(out)
    })?;
    steps.extend(finished);
    steps.sort_by(|a, b| (&a.namespace, &a.name, &a.id).cmp(&(&b.namespace, &b.name, &b.id)));
    report(ctx, "restore", &steps)
}

async fn repair(ctx: &Ctx, run: &RunArgs) -> Result<()> {
    let timing = Timing::of(run)?;
    crate::registry::volumes::sweep_owner_locks();
    let (claimed, busy): (Vec<Volume>, Vec<Volume>) = ctx.registry.update(|state| {
        let ids: Vec<String> = state
            .volumes_sorted()
            .iter()
            .filter(|v| v.state != VolumeState::Ready)
            .map(|v| v.id.clone())
            .collect();
        let mut claimed = Vec::new();
        let mut busy = Vec::new();
        for id in ids {
            match state.claim_interrupted_volume(&id) {
                Some(v) => claimed.push(v),
                None => busy.extend(state.volume(&id).cloned()),
            }
        }
        Ok((claimed, busy))
    })?;
    let mut steps: Vec<Step> = busy
        .iter()
        .map(|v| {
            let pid = v.owner.map(|o| o.pid).unwrap_or_default();
            Step::skipped(v, format!("plugctl pid {pid} is working on it"))
        })
        .collect();

    /// What the plugins said, per volume.
    enum Done {
        Created(Created),
        /// create failed; then delete (the rollback) gave this
        RolledBack(PluginFailure, Result<(), PluginFailure>),
        Deleted(Result<(), PluginFailure>),
    }
    let jobs = claimed
        .into_iter()
        .map(|v| {
            // A `deleting` record is settled by its delete, any other by
            // re-running its create (and a delete when that fails).
            let op = if v.state == VolumeState::Deleting {
                Operation::Delete
            } else {
                Operation::Create
            };
            Job::new(ctx, op, v, timing)
        })
        .collect();
    let done = run_all(jobs, |job| async move {
        if job.volume.state == VolumeState::Deleting {
            return Done::Deleted(job.delete().await);
        }
        match job.create().await {
            Ok(c) => Done::Created(c),
            Err(f) => Done::RolledBack(f, job.delete().await),
        }
    })
    .await;

    let finished = ctx.registry.update(|state| {
        let mut out = Vec::new();
        for (job, result, ms) in &done {
            let v = &job.volume;
            let mut step = Step::new(v);
            step.duration_ms = *ms;
            match result {
                Done::Created(c) => {
                    let outcome = CreateOutcome::Created(c.clone());
                    let record = state.finish_volume_create(v, CreateKind::Resume, outcome);
                    step.settle(record.as_ref());
                    step.ok = true;
                    step.action = Action::Created;
                    step.warnings = host_volume::warnings(c, &job.req.volumes_dir);
                }
                Done::RolledBack(create_err, Ok(())) => {
                    let record = state.drop_rolled_back_volume(&v.id);
                    step.settle(state.volume(&v.id));
                    step.ok = record.is_some();
                    step.action = Action::RolledBack;
                    step.error = Some(format!("create failed: {create_err}; delete succeeded"));
                }
                Done::RolledBack(create_err, Err(delete_err)) => {
                    let error = format!("create failed: {create_err}; delete failed: {delete_err}");
                    let outcome = CreateOutcome::Failed {
                        error: error.clone(),
                        uncertain: true,
                    };
                    let record = state.finish_volume_create(v, CreateKind::Resume, outcome);
                    step.settle(record.as_ref());
                    step.action = Action::Failed;
                    step.error = Some(error);
                }
                Done::Deleted(r) => {
                    let recorded = r.clone().map_err(|f| f.to_string());
                    let record = state.finish_volume_delete(&v.id, VolumeState::Ready, recorded);
                    step.settle(record.as_ref());
                    match r {
                        Ok(()) => {
                            step.ok = true;
                            step.action = Action::Deleted;
                        }
                        Err(f) => {
                            step.action = Action::Failed;
                            step.error = Some(format!("delete failed: {f}"));
                        }
                    }
                }
            }
            out.push(step);
        }
        Ok(out)
    })?;
    steps.extend(finished);
    steps.sort_by(|a, b| (&a.namespace, &a.name, &a.id).cmp(&(&b.namespace, &b.name, &b.id)));
    report(ctx, "repair", &steps)
}

/// The per-volume report of `restore` and `repair`; exit 1 when any failed.
fn report(ctx: &Ctx, command: &str, steps: &[Step]) -> Result<()> {
    for s in steps {
        for w in &s.warnings {
            ctx.printer
                .warn(format!("{}: {w}", describe(&s.id, &s.name, &s.namespace)));
        }
    }
    let failed = steps.iter().filter(|s| !s.ok).count();
    if ctx.printer.json {
        ctx.printer.document(json!({
            "results": steps,
            "failed": failed,
        }))?;
    } else if steps.is_empty() {
        ctx.printer.text(match command {
            "repair" => "nothing to repair: no volume is pending or deleting\n",
            _ => "nothing to restore: the registry has no volumes\n",
        })?;
    } else {
        let rows: Vec<Vec<(String, Style)>> = steps
            .iter()
            .map(|s| {
                let style = match (s.ok, s.action) {
                    (false, _) => Style::Bad,
                    (true, Action::Skipped) => Style::Warn,
                    _ => Style::Good,
                };
                vec![
                    (s.id.clone(), Style::Plain),
                    (s.name.clone(), Style::Plain),
                    (s.namespace.clone(), Style::Plain),
                    (s.plugin.clone(), Style::Plain),
                    (s.was.to_string(), Style::Plain),
                    (s.action.name().to_string(), style),
                    (s.state.clone(), Style::Plain),
                    (crate::output::short_duration(s.duration_ms), Style::Dim),
                    (
                        s.error.clone().unwrap_or_else(|| s.path.clone()),
                        Style::Plain,
                    ),
                ]
            })
            .collect();
        ctx.printer.table(
            &[
                "ID",
                "NAME",
                "NAMESPACE",
                "PLUGIN",
                "WAS",
                "ACTION",
                "STATE",
                "DURATION",
                "DETAIL",
            ],
            &rows,
        )?;
    }
    if failed > 0 {
        return Err(Error::Failed(format!(
            "{command}: {failed} of {} volumes failed",
            steps.len()
        )));
    }
    Ok(())
}

//! `plugctl volume ...`: dynamic host volumes end to end.
//!
//! A create or delete is three steps, each a named registry transaction:
//! record the volume `pending` (or mark it `deleting`) with one journal
//! append, run the plugin outside the lock, record what it came to (see
//! [`plugctl_core::registry::volumes`] for the rules). `batch` re-runs create for
//! every recorded volume at once (`restore`) and settles what an
//! interrupted plugctl left `pending` or `deleting` (`repair`); `view`
//! prints volumes.

mod batch;
mod select;
mod spec;
pub(crate) mod view;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::Ctx;
use crate::cli::{RunArgs, VolumeCommand, VolumeCreateArgs, VolumeDeleteArgs, VolumeSelector};
use crate::output::Printer;
use crate::{Error, Result};
use plugctl_core::discovery::{self, EntryKind};
use plugctl_core::error::PluginFailure;
use plugctl_core::families::driver::{Call, Driver};
use plugctl_core::families::host_volume::{self, Created, InvalidRequest, Request};
use plugctl_core::families::mkdir;
use plugctl_core::family::{Family, Operation};
use plugctl_core::registry::volumes::{CreateKind, CreateOutcome, describe};
use plugctl_core::registry::{Volume, VolumeState};
use plugctl_core::runner::Pool;
use plugctl_core::usage::Usage;

pub async fn run(ctx: &Ctx, cmd: VolumeCommand) -> Result<()> {
    match cmd {
        VolumeCommand::Create(args) => create(ctx, args).await,
        VolumeCommand::Delete(args) => delete(ctx, args).await,
        VolumeCommand::Forget { volume } => forget(ctx, &volume).await,
        VolumeCommand::List(args) => view::list(ctx, &args),
        VolumeCommand::Show { volume, .. } => view::show(ctx, &volume),
        VolumeCommand::Restore { run, plan } if plan.dry_run => plan_restore(ctx, &run),
        VolumeCommand::Restore { run, .. } => batch::restore(ctx, &run).await,
        VolumeCommand::Repair { run } => batch::repair(ctx, &run).await,
        VolumeCommand::Audit { prune_orphans, yes } => {
            super::audit::run(ctx, prune_orphans, yes).await
        }
    }
}

/// Deadline and grace of every plugin call of one command.
#[derive(Debug, Clone, Copy)]
struct Timing {
    deadline: Duration,
    grace: Duration,
    /// Whose words a plugin's bad output is judged in (the release's Go).
    dialect: plugctl_core::families::Dialect,
}

/// The volumes directory a plugin is handed, through the trust gate before
/// any host-volume call runs as root: a plugin makes and removes volumes
/// there, so a directory another user controls (or one above it) would
/// walk a root plugin wherever they point it. A directory not made yet is
/// judged by the part of its path that exists (where the plugin will make
/// it), and that part must be one nobody else may write, sticky or not.
pub(super) fn trusted_volumes_dir(ctx: &Ctx) -> Result<()> {
    let wanted = &ctx.settings.volumes_dir;
    let mut dir = wanted.as_path();
    loop {
        match plugctl_core::trust::CheckedDir::open(ctx.settings.policy(), dir) {
            Ok(d) if dir == wanted => return writable_only_by_root(ctx, &d),
            Ok(d) => return not_made_where_others_write(ctx, wanted, &d),
            Err(r) if r.is_not_found() => match dir.parent() {
                Some(parent) => dir = parent,
                None => return Ok(()),
            },
            Err(r) => {
                return Err(Error::refused(
                    format_args!("the volumes directory {}", wanted.display()),
                    &r,
                ));
            }
        }
    }
}

/// Refuses a volumes directory not made yet whose nearest existing
/// directory `made` (where a plugin's `mkdir -p` would make it) others may
/// write, sticky or not (a `/tmp`): the name is free, so another user
/// makes it first, as a link to any directory of the node, between this
/// check and the plugin's own mkdir, and the plugin, as root, makes and
/// fills its volumes wherever the link leads, which the create's answer,
/// judged through that same link, does not show. `--allow-insecure-paths`
/// lifts it.
fn not_made_where_others_write(
    ctx: &Ctx,
    wanted: &std::path::Path,
    made: &plugctl_core::trust::CheckedDir,
) -> Result<()> {
    let mode = made.meta().mode & 0o7777;
    if ctx.settings.allow_insecure_paths || mode & 0o022 == 0 {
        return Ok(());
    }
    Err(Error::usage(format!(
        "the volumes directory {} is not made yet, and {}, where a plugin would make it, is \
         writable by {} (mode {mode:04o}): anyone there could make it first, as a link to any \
         directory of the node, after this check and before the plugin's mkdir, for the plugin \
         running as root to fill; plugctl creates volumes only where no one else can write \
         (fix: make it as root first: mkdir -p {})",
        wanted.display(),
        made.path().display(),
        plugctl_core::trust::who_writes(mode),
        plugctl_core::provenance::shell_path(wanted)
    ))
    .hint(plugctl_core::error::Hint::AllowInsecurePaths))
}

/// Refuses a volumes directory that anyone but its owner (root, or the
/// user who runs plugctl) may write in, sticky or not, for every command
/// that creates or deletes there. The sticky bit keeps users from removing
/// each other's entries, not from adding their own: in such a directory
/// anyone can put, under the name the next volume takes (`<id>`,
/// `<id>.img`), a directory or a link that a plugin running as root would
/// then fill, chown or delete through. `--allow-insecure-paths` lifts it,
/// as it lifts every owner and mode rule.
pub(crate) fn writable_only_by_root(
    ctx: &Ctx,
    dir: &plugctl_core::trust::CheckedDir,
) -> Result<()> {
    let mode = dir.meta().mode & 0o7777;
    if ctx.settings.allow_insecure_paths || mode & 0o022 == 0 {
        return Ok(());
    }
    let sticky = if mode & 0o1000 != 0 {
        "; the sticky bit keeps users from removing each other's entries, not from adding \
         their own"
    } else {
        ""
    };
    Err(Error::usage(format!(
        "the volumes directory {} is writable by {} (mode {mode:04o}{sticky}): anyone there \
         could put a directory or a link under the name of the next volume, for a plugin \
         running as root to fill or delete through; plugctl creates and deletes volumes only \
         where no one else can write (fix: chmod go-w {})",
        dir.path().display(),
        plugctl_core::trust::who_writes(mode),
        plugctl_core::provenance::shell_path(dir.path())
    ))
    .hint(plugctl_core::error::Hint::AllowInsecurePaths))
}

/// Refuses a new volume whose id names what is already in the volumes
/// directory and is not plugctl's: an entry `<id>` or `<id>.<anything>`
/// that no record of plugctl's claims and its journal never named. The
/// directory is shared with the Nomad agent; its volume would otherwise be
/// taken for a new one (the built-in mkdir reports an existing directory
/// as made, as Nomad's does), recorded as plugctl's, and removed by the
/// next delete.
fn refuse_foreign_id(ctx: &Ctx, state: &plugctl_core::registry::State<'_>, id: &str) -> Result<()> {
    let dir = match plugctl_core::trust::CheckedDir::open(
        ctx.settings.policy(),
        &ctx.settings.volumes_dir,
    ) {
        Ok(d) => d,
        // Not there (yet): nothing in it. A refusal is trusted_volumes_dir's.
        Err(_) => return Ok(()),
    };
    let entries = dir.entries().map_err(|r| {
        Error::refused(
            format_args!("cannot list the volumes directory {}", dir.path().display()),
            &r,
        )
    })?;
    let taken: Vec<String> = entries
        .iter()
        .filter_map(|(name, _)| name.to_str())
        .filter(|n| n.get(..36).is_some_and(|p| p.eq_ignore_ascii_case(id)))
        .map(|n| dir.join(n).display().to_string())
        .collect();
    if taken.is_empty() || ctx.registry.volume_ids_ever(state)?.contains(id) {
        return Ok(());
    }
    Err(Error::usage(format!(
        "cannot create volume {id}: {} {} in the volumes directory and not plugctl's (no record \
         or journal of plugctl's names this id: the Nomad agent's or another tool's volume); \
         plugctl never hands what another made to a plugin as a new volume of its own. Choose \
         another --id",
        taken.join(", "),
        if taken.len() == 1 {
            "is already"
        } else {
            "are already"
        }
    )))
}

impl Timing {
    fn of(run: &RunArgs, ctx: &Ctx) -> Result<Timing> {
        Ok(Timing {
            deadline: super::deadline(run, host_volume::OPERATION_DEADLINE)?,
            grace: run.grace,
            dialect: ctx.settings.nomad.dialect(),
        })
    }
}

/// A host-volume plugin that can be run.
#[derive(Debug, Clone)]
enum Plugin {
    Mkdir(mkdir::MkdirBehaviour, plugctl_core::trust::Policy),
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
    let entry =
        discovery::find(Family::HostVolume.name(), dir, name, ctx.settings.nomad).map_err(|e| {
            e.map_inner(|e| match e {
                Error::NotFound { .. } => Error::NotFound {
                    what: "plugin",
                    name: format!(
                        "{}/{name} (looked in {}; needed for the {operation})",
                        Family::HostVolume,
                        dir.display()
                    ),
                },
                other => other,
            })
        })?;
    match entry.kind {
        EntryKind::Builtin(b) if b.name == mkdir::NAME => Ok(Plugin::Mkdir(
            ctx.settings.nomad.mkdir(),
            ctx.settings.policy(),
        )),
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

/// What a call runs, for a person: the plugin file and operation.
fn runs(plugin: &Plugin, op: &str) -> String {
    match plugin {
        Plugin::File(p) => format!("{} {op}", p.display()),
        Plugin::Mkdir(..) => format!("the built-in mkdir's {op}"),
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
        let text = String::from_utf8_lossy(stderr);
        printer.note_lines(level, format!("{what}: stderr:"), text.trim_end().lines());
    }
}

/// The driver for one call of `plugin` with this deadline and grace.
fn driver(pool: Arc<Pool>, plugin: Plugin, timing: Timing) -> Driver {
    match plugin {
        Plugin::Mkdir(behaviour, policy) => Driver::Mkdir(behaviour, policy),
        Plugin::File(program) => Driver::Plugin {
            pool,
            program,
            deadline: timing.deadline,
            grace: timing.grace,
            dialect: timing.dialect,
        },
    }
}

/// Says (with -vv) which plugin runs for which volume.
fn announce(printer: &Printer, driver: &Driver, op: Operation, id: &str) -> String {
    let what = match driver {
        Driver::Plugin { program, .. } => format!("{} {op}", program.display()),
        Driver::Mkdir(..) => format!("built-in mkdir {op}"),
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

/// A create's result, and what its call cost (None for the built-in, or
/// a plugin that never started).
async fn call_create(
    pool: Arc<Pool>,
    printer: Printer,
    plugin: Plugin,
    req: Request,
    timing: Timing,
) -> (Result<Created, PluginFailure>, Option<Usage>) {
    let (result, _, usage) = call_create_timed(pool, printer, plugin, req, timing).await;
    (result, usage)
}

/// [`call_create`], with how long the plugin itself ran (not the wait for
/// a place in the pool); None for the built-in.
async fn call_create_timed(
    pool: Arc<Pool>,
    printer: Printer,
    plugin: Plugin,
    req: Request,
    timing: Timing,
) -> (
    Result<Created, PluginFailure>,
    Option<Duration>,
    Option<Usage>,
) {
    let driver = driver(pool, plugin, timing);
    let what = announce(&printer, &driver, Operation::Create, &req.id);
    let call = driver.create(&req).await;
    let took = call.outcome.as_ref().map(|o| o.duration);
    let usage = call.outcome.as_ref().and_then(|o| o.usage);
    (settle(&printer, &what, call), took, usage)
}

/// A delete's result, and what its call cost (as for [`call_create`]).
async fn call_delete(
    pool: Arc<Pool>,
    printer: Printer,
    plugin: Plugin,
    req: Request,
    created_path: String,
    timing: Timing,
) -> (Result<(), PluginFailure>, Option<Usage>) {
    let driver = driver(pool, plugin, timing);
    let what = announce(&printer, &driver, Operation::Delete, &req.id);
    let call = driver.delete(&req, &created_path).await;
    let usage = call.outcome.as_ref().and_then(|o| o.usage);
    (settle(&printer, &what, call), usage)
}

/// Says (with -v) what a call cost: `host-volume plugin "dir": create of
/// volume ...: 12ms wall, 3ms CPU, 2.1 MiB peak, 1 process`.
pub(super) fn show_usage(printer: &Printer, what: &str, usage: Option<&Usage>) {
    if let Some(u) = usage {
        printer.note(1, format!("{what}: {}", u.describe()));
    }
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

fn invalid_request(subject: &str, req: &Request, e: &InvalidRequest) -> Error {
    // Nomad's own words, then the fix.
    let fix = if e.field == "capacity_max" && req.capacity_max < req.capacity_min {
        format!(
            "; pass --capacity-max ≥ --capacity-min (at least {} bytes)",
            req.capacity_min
        )
    } else {
        String::new()
    };
    Error::usage(format!(
        "cannot create {subject}: bad {}: {}{fix}",
        flag_of(e.field),
        e.reason
    ))
}

/// A volume for messages before it exists: with the id the user gave,
/// else by name only — an id plugctl just made up (a new one each try)
/// means nothing to anyone until a plugin has been handed it.
fn requested(req: &Request, id_given: bool) -> String {
    if id_given {
        describe(&req.id, &req.name, &req.namespace)
    } else {
        format!(
            "volume {} (namespace {})",
            plugctl_core::escape::quote_os(&req.name),
            req.namespace
        )
    }
}

async fn create(ctx: &Ctx, args: VolumeCreateArgs) -> Result<()> {
    let timing = Timing::of(&args.run, ctx)?;
    trusted_volumes_dir(ctx)?;
    let settings = &ctx.settings;
    let node = crate::node_identity::NodeIdentity::resolve(settings)?;
    // A specification file becomes the flags it stands for, so the plugin
    // gets exactly what they would give it.
    let args = match args.file.clone() {
        Some(file) => spec::into_flags(ctx, &node, args, &file)?,
        None => args,
    };
    // clap requires both unless a file gave them.
    let plugin_name = args.plugin.clone().unwrap_or_default();
    let id_given = args.id.is_some();
    let mut req = Request {
        volumes_dir: settings.volumes_dir.clone(),
        plugin_dir: settings.host_volume_plugin_dir.clone(),
        node_pool: settings.node_pool.clone(),
        namespace: args.namespace,
        name: args.name.unwrap_or_default(),
        // Nomad's helper.IsUUID takes either case and compares ids
        // lower-cased: stored lower-case, one string everywhere.
        id: args
            .id
            .map(|id| id.to_ascii_lowercase())
            .unwrap_or_else(host_volume::new_volume_id),
        capacity_min: args.capacity_min.unwrap_or(0),
        capacity_max: args.capacity_max.unwrap_or(0),
        // plugctl's own id is the registry's, set when the volume is
        // recorded (a dry run asks the registry what it would be); until
        // then, the one a new registry would make.
        node_id: node
            .fixed()
            .map_or_else(plugctl_core::node::first_own_node_id, str::to_string),
        // A key given twice: the later value wins.
        parameters: args.params.into_iter().collect::<BTreeMap<_, _>>(),
    };
    let unseen = requested(&req, id_given);
    req.validate()
        .map_err(|e| invalid_request(&unseen, &req, &e))?;
    let subject = describe(&req.id, &req.name, &req.namespace);
    let plugin = resolve(ctx, &plugin_name, Operation::Create, &unseen)?;
    if args.plan.dry_run {
        // The call is shown either way; a refusal is said beside it.
        let refused =
            super::require_fingerprinted(ctx, Family::HostVolume, &plugin_name, Operation::Create)
                .err();
        if node.fixed().is_none() {
            req.node_id = ctx.registry.read()?.state().node_id_to_be();
        }
        ctx.printer.note(1, node.describe(&req.node_id));
        let planned = plan_call(&plugin_name, &plugin, Operation::Create, &req, "", timing);
        return super::plan::print_refused(ctx, &[planned], refused.as_ref());
    }

    // A ready volume of this id as it was: a create that changes none of
    // it is `unchanged` (Nomad's clients re-run create on every update).
    // Only an id given can name one; the read is handed to the transaction
    // that follows, which then parses nothing again unless someone wrote.
    let before = if id_given {
        let snap = ctx.registry.read()?;
        if snap.state().volume(&req.id).is_none() {
            refuse_foreign_id(ctx, snap.state(), &req.id)?;
        }
        let before = snap
            .state()
            .volume(&req.id)
            .filter(|v| v.state == VolumeState::Ready)
            .map(Outline::of);
        ctx.registry.keep(snap);
        before
    } else {
        None
    };
    let (proposed, kind) = ctx
        .registry
        .begin_create(&mut req, &plugin_name, node.fixed().is_none())
        .await?;
    ctx.printer.note(1, node.describe(&req.node_id));

    let running = format!(
        "volume create: running {} for {subject}",
        runs(&plugin, "create")
    );
    let (result, usage) = super::showing(
        &ctx.printer,
        &running,
        call_create(
            Arc::clone(&ctx.pool),
            ctx.printer.clone(),
            plugin,
            req.clone(),
            timing,
        ),
    )
    .await;
    show_usage(
        &ctx.printer,
        &format!(
            "{} plugin {}: create of {subject}",
            Family::HostVolume,
            plugctl_core::escape::quote(&plugin_name)
        ),
        usage.as_ref(),
    );
    let outcome = match &result {
        Ok(c) => CreateOutcome::Created(c.clone()),
        Err(f) => CreateOutcome::Failed {
            error: f.to_string(),
            uncertain: uncertain(f),
        },
    };
    let record = ctx
        .registry
        .finish_create(&proposed, kind, outcome, usage.as_ref())
        .await
        .inspect_err(|_| {
            ctx.printer.warn(format!(
                "{} is left pending in the registry: run `plugctl volume repair`",
                proposed.describe()
            ));
        })?;

    // The registry judged the path against the other volumes under its
    // lock: a path it did not record is the plugin's failure.
    let result = match (result, &record) {
        (Ok(c), Some(v)) if v.state != VolumeState::Deleting && v.path != c.path => Err(
            PluginFailure::BadOutput(v.error.as_deref().unwrap_or_default().to_string()),
        ),
        (r, _) => r,
    };
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
                &plugin_name,
                Operation::Create,
                f,
            )
            .about(subject)
            .costing(usage));
        }
    };
    let mut warnings = host_volume::warnings(&created, &req.volumes_dir);
    // The name is always the built-in (no file can shadow it).
    if plugin_name == mkdir::NAME {
        warnings.extend(mkdir::parameter_warnings(&req.parameters));
    }
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
    let action = match (kind, before) {
        (CreateKind::Update, Some(was)) if was == Outline::of(&record) => "unchanged",
        (CreateKind::Update, _) => "updated",
        _ => "created",
    };
    if action != "created" {
        ctx.printer.info(format!(
            "{} {action}: it existed{}",
            record.describe(),
            if action == "unchanged" {
                " with these capacities and parameters, and create returned the same path and size"
            } else {
                ", and create ran again with these capacities and parameters"
            }
        ));
    }
    view::print_created(ctx, &record, warnings, action, usage.as_ref())
}

/// What a create may change of a ready volume: the capacities and
/// parameters asked for, the path and size the plugin returned.
#[derive(Debug, PartialEq)]
struct Outline {
    capacity_min: u64,
    capacity_max: u64,
    parameters: BTreeMap<String, String>,
    path: String,
    bytes: i64,
}

impl Outline {
    fn of(v: &Volume<'_>) -> Outline {
        Outline {
            capacity_min: v.capacity_min,
            capacity_max: v.capacity_max,
            parameters: v.parameters.to_map(),
            path: v.path.to_string(),
            bytes: v.bytes,
        }
    }
}

async fn delete(ctx: &Ctx, args: VolumeDeleteArgs) -> Result<()> {
    let timing = Timing::of(&args.run, ctx)?;
    trusted_volumes_dir(ctx)?;
    let snap = ctx.registry.read()?;
    let snapshot = snap.state();
    let vol = select::one(snapshot, &args.volume)?;
    let subject = vol.describe();
    let plugin = resolve(ctx, &vol.plugin, Operation::Delete, &subject).map_err(|e| {
        e.map_inner(|e| match e {
            // Not `volume forget`: a plugin directory named wrong looks
            // the same, and forgetting would drop a live volume's record.
            Error::NotFound { what, name } => Error::NotFound {
                what,
                name: format!("{name}; the volume's record is kept"),
            },
            other => other,
        })
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
    let id = vol.id.to_string();
    // The transaction starts from this read: one parse.
    ctx.registry.keep(snap);
    let before = ctx.registry.begin_delete(&id).await?;
    let req = before.request(
        &ctx.settings.host_volume_plugin_dir,
        &ctx.settings.volumes_dir,
    );
    let running = format!(
        "volume delete: running {} for {subject}",
        runs(&plugin, "delete")
    );
    let (result, usage) = super::showing(
        &ctx.printer,
        &running,
        call_delete(
            Arc::clone(&ctx.pool),
            ctx.printer.clone(),
            plugin,
            req,
            before.path.to_string(),
            timing,
        ),
    )
    .await;
    show_usage(
        &ctx.printer,
        &format!(
            "{} plugin {}: delete of {subject}",
            Family::HostVolume,
            plugctl_core::escape::quote(before.plugin.as_ref())
        ),
        usage.as_ref(),
    );
    let recorded = result.clone().map_err(|f| f.to_string());
    ctx.registry
        .finish_delete(&id, before.state, recorded, usage.as_ref())
        .await
        .inspect_err(|_| {
            ctx.printer.warn(format!(
                "{} is left deleting in the registry: run `plugctl volume repair`",
                before.describe()
            ));
        })?;
    if let Err(f) = result {
        return Err(Error::plugin(
            Family::HostVolume.name(),
            before.plugin.as_ref(),
            Operation::Delete,
            f,
        )
        .about(subject)
        .costing(usage));
    }
    if ctx.printer.json {
        return view::print_gone(ctx, &before, "deleted", usage.as_ref());
    }
    ctx.printer.text(&format!(
        "deleted {}\n",
        crate::output::sanitize_cell(&before.describe())
    ))
}

/// `volume forget`: the record goes, in one transaction, and nothing else
/// happens: no plugin runs, no path is touched (what was there is
/// `volume audit`'s to find, an orphan when it is in the volumes
/// directory).
async fn forget(ctx: &Ctx, selector: &VolumeSelector) -> Result<()> {
    let snap = ctx.registry.read()?;
    let id = select::one(snap.state(), selector)?.id.to_string();
    // The transaction starts from this read: one parse.
    ctx.registry.keep(snap);
    let was = ctx.registry.forget_volume(&id).await?;
    if ctx.printer.json {
        return view::print_gone(ctx, &was, "forgotten", None);
    }
    let left = if was.path.is_empty() {
        // An interrupted create never recorded where it made the volume.
        "no path was recorded, and whatever its create made is left as it is".to_string()
    } else {
        format!("its path {} is left as it is", was.path)
    };
    ctx.printer.text(&format!(
        "forgot {}: no plugin ran; {}\n",
        crate::output::sanitize_cell(&was.describe()),
        crate::output::sanitize_cell(&left),
    ))
}

/// Whether a recorded volume may be handed to its plugin: created under
/// the volumes directory in use, its path inside it. The registry is
/// untrusted input (docs/security.md); `--allow-insecure-paths` overrides.
fn confinement(ctx: &Ctx, v: &Volume<'_>) -> std::result::Result<(), String> {
    if ctx.settings.allow_insecure_paths {
        return Ok(());
    }
    plugctl_core::registry::rules::confined(v, &ctx.settings.volumes_dir)
        .map_err(|u| format!("{u}{}", crate::exit::advice(&u.hint)))?;
    // Where the path leads now, and who could change that before the
    // plugin uses it: the answer was judged when it arrived, but a
    // workload given the directory above it may have swapped it since.
    if v.path.is_empty() {
        return Ok(());
    }
    plugctl_core::families::host_volume::judge_handed_path(
        &v.path,
        &ctx.settings.volumes_dir,
        ctx.settings.policy(),
    )
    .map_err(|why| {
        let hint = plugctl_core::error::Hint::ForgetVolume {
            id: v.id.to_string(),
        };
        format!("{why}{}", crate::exit::advice(&hint))
    })
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
    let call = plugctl_core::provenance::Call::new(Family::HostVolume.name(), name, op)
        .about(describe(&req.id, &req.name, &req.namespace));
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
        Plugin::Mkdir(..) => Planned::Inline(
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
    let timing = Timing::of(run, ctx)?;
    let snap = ctx.registry.read()?;
    let mut plans = Vec::new();
    for v in snap.state().volumes_sorted() {
        let req = v.request(
            &ctx.settings.host_volume_plugin_dir,
            &ctx.settings.volumes_dir,
        );
        if v.state == VolumeState::Deleting {
            let call = plugctl_core::provenance::Call::new(
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
                plugctl_core::provenance::Call::new(
                    Family::HostVolume.name(),
                    &v.plugin,
                    Operation::Create,
                )
                .about(v.describe()),
                format!("not run: {}", crate::exit::message(&e)),
            )),
        }
    }
    super::plan::print(ctx, &plans)
}

//! `volume restore` and `volume repair`: one plugin call (or two) for many
//! volumes at once, as a Nomad client re-runs every create at start.
//!
//! Three steps, as a single create: a transaction picks (and claims) the
//! volumes, their plugins run through the one fan-out, a transaction
//! records what they came to (see [`plugctl_core::registry::volumes`]). Memory
//! stays proportional to what is needed: each volume's request is made from
//! the state read when its plugin gets a place and dropped with its call,
//! the results kept are a failure or a path, and the report is printed
//! from them and the final records, never held as rows.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde::ser::{SerializeSeq, Serializer};

use super::super::Ctx;
use super::{Plugin, Timing, call_create_timed, call_delete, confinement, resolve, uncertain};
use crate::cli::RunArgs;
use crate::exit::failure;
use crate::fit::Column;
use crate::output::{Printer, Style};
use crate::{Error, Result};
use plugctl_core::error::PluginFailure;
use plugctl_core::families::host_volume::{self, Created, Request};
use plugctl_core::family::Operation;
use plugctl_core::fanout::{self, Lost};
use plugctl_core::registry::volumes::{CreateKind, CreateOutcome, Pick, Settle, Todo};
use plugctl_core::registry::{State, Volume};
use plugctl_core::runner::Pool;
use plugctl_core::usage::{Cap, CpuTime, Source, Usage};

pub async fn restore(ctx: &Ctx, run: &RunArgs) -> Result<()> {
    let timing = Timing::of(run, ctx)?;
    super::trusted_volumes_dir(ctx)?;
    let picks = ctx.registry.begin_restore().await?;
    run_batch(ctx, Batch::Restore, picks, timing).await
}

pub async fn repair(ctx: &Ctx, run: &RunArgs) -> Result<()> {
    let timing = Timing::of(run, ctx)?;
    super::trusted_volumes_dir(ctx)?;
    let picks = ctx.registry.begin_repair().await?;
    run_batch(ctx, Batch::Repair, picks, timing).await
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Batch {
    Restore,
    Repair,
}

impl Batch {
    fn name(self) -> &'static str {
        match self {
            Batch::Restore => "restore",
            Batch::Repair => "repair",
        }
    }
}

/// What the plugins said for one volume. A batch holds one for every
/// volume until the end, so a failure, which is rare and large (its
/// output, its hint), is boxed: with its [`Cost`], 56 bytes a volume
/// instead of 216. (A create's answer is boxed too: it lives only until
/// the answer is found to be the path already recorded, as a restore's
/// almost always is.)
#[derive(Debug)]
enum Done {
    Created(Box<Created>),
    /// Created, at the path the record already holds (a restore, as a
    /// rule): kept without a copy of the path, of which 100,000 would pin
    /// memory between the calls' garbage.
    CreatedAsRecorded {
        bytes: i64,
    },
    /// Created at the recorded path with the recorded size: the volume did
    /// not change (what a restore finds, as a rule).
    Unchanged {
        bytes: i64,
    },
    CreateFailed(Failed),
    /// create failed; then delete (the rollback) gave this, and cost that.
    RolledBack(Failed, std::result::Result<(), Failed>, Option<Box<Usage>>),
    Deleted(std::result::Result<(), Failed>),
    /// plugctl itself failed on it (a bug) or was stopped first.
    Lost(Lost),
}

type Failed = Box<PluginFailure>;

/// What a volume's call cost (its create, or its delete; a rollback's
/// delete is kept with it in [`Done::RolledBack`]), packed to milliseconds:
/// a batch holds one for every volume.
#[derive(Debug, Clone, Copy, Default)]
struct Cost {
    /// How long the plugin itself ran (not the wait for a place), or the
    /// built-in took: the report's duration.
    ms: u32,
    user_ms: u32,
    system_ms: u32,
    rss_kib: u32,
    processes: u32,
    /// Where the figures came from; `None`: no usage (the built-in, a
    /// plugin never started, a pool that does not account).
    source: Option<Source>,
    over_cap: Option<Cap>,
}

impl Cost {
    fn of(usage: Option<Usage>, took: Duration) -> Cost {
        let ms = |d: Duration| u32::try_from(d.as_millis()).unwrap_or(u32::MAX);
        let Some(u) = usage else {
            return Cost {
                ms: ms(took),
                ..Cost::default()
            };
        };
        let cpu = u.cpu.unwrap_or_default();
        Cost {
            ms: ms(u.wall),
            user_ms: ms(cpu.user),
            system_ms: ms(cpu.system),
            rss_kib: u32::try_from(u.max_rss_kib.unwrap_or(0)).unwrap_or(u32::MAX),
            processes: u32::try_from(u.processes).unwrap_or(u32::MAX),
            source: Some(u.source),
            over_cap: u.over_cap,
        }
    }

    fn usage(&self) -> Option<Usage> {
        let source = self.source?;
        let ms = |n: u32| Duration::from_millis(u64::from(n));
        let measured = source != Source::Clock;
        Some(Usage {
            wall: ms(self.ms),
            cpu: measured.then(|| CpuTime {
                user: ms(self.user_ms),
                system: ms(self.system_ms),
            }),
            max_rss_kib: measured.then_some(u64::from(self.rss_kib)),
            processes: u64::from(self.processes),
            source,
            over_cap: self.over_cap,
        })
    }
}

/// Everything one volume's call needs, owned: made when its plugin gets a
/// place, dropped when the call ends.
struct Job {
    todo: Todo,
    plugin: std::result::Result<Plugin, String>,
    req: Request,
    created_path: String,
    pool: Arc<Pool>,
    printer: Printer,
    timing: Timing,
}

impl Job {
    /// Runs what `todo` says; what came of it and what its call cost (how
    /// long the plugin itself ran, not the wait for a place in the pool).
    async fn run(self) -> (Done, Cost) {
        let start = Instant::now();
        let mut took = None;
        let mut usage = None;
        let done = match self.todo {
            Todo::Create(_) => match self.create(&mut took, &mut usage).await {
                Ok(c) => Done::Created(Box::new(c)),
                Err(f) => Done::CreateFailed(Box::new(f)),
            },
            Todo::CreateOrRollBack => match self.create(&mut took, &mut usage).await {
                Ok(c) => Done::Created(Box::new(c)),
                Err(f) => {
                    let (deleted, spent) = self.delete().await;
                    Done::RolledBack(Box::new(f), deleted.map_err(Box::new), spent.map(Box::new))
                }
            },
            Todo::Delete => {
                let (deleted, spent) = self.delete().await;
                usage = spent;
                Done::Deleted(deleted.map_err(Box::new))
            }
        };
        (
            done,
            Cost::of(usage, took.unwrap_or_else(|| start.elapsed())),
        )
    }

    async fn create(
        &self,
        took: &mut Option<Duration>,
        usage: &mut Option<Usage>,
    ) -> std::result::Result<Created, PluginFailure> {
        let plugin = self.plugin.clone().map_err(PluginFailure::Rejected)?;
        let (result, t, u) = call_create_timed(
            Arc::clone(&self.pool),
            self.printer.clone(),
            plugin,
            self.req.clone(),
            self.timing,
        )
        .await;
        *took = t;
        *usage = u;
        result
    }

    async fn delete(&self) -> (std::result::Result<(), PluginFailure>, Option<Usage>) {
        let plugin = match self.plugin.clone() {
            Ok(p) => p,
            Err(why) => return (Err(PluginFailure::Rejected(why)), None),
        };
        call_delete(
            Arc::clone(&self.pool),
            self.printer.clone(),
            plugin,
            self.req.clone(),
            self.created_path.clone(),
            self.timing,
        )
        .await
    }
}

async fn run_batch(ctx: &Ctx, batch: Batch, picks: Vec<Pick>, timing: Timing) -> Result<()> {
    // Which picks run a plugin, in order.
    let runs: Vec<usize> = (0..picks.len())
        .filter(|&i| picks[i].todo.is_ok())
        .collect();
    let total = runs.len();
    let mut done: Vec<Option<(Done, Cost)>> = (0..picks.len()).map(|_| None).collect();
    {
        // The state the first step left (no second parse): each request is
        // made from it as its plugin gets a place.
        let snap = ctx.registry.latest()?;
        let state = snap.state();
        // One lookup per plugin, not per volume; a failed one is asked
        // again for each of its volumes, so that its message names that
        // volume (and operation), not the first one's.
        let mut plugins: HashMap<String, Option<Plugin>> = HashMap::new();
        let jobs = runs.iter().map(|&i| {
            let pick = &picks[i];
            let todo = pick.todo.clone().unwrap_or(Todo::Delete);
            let record = state.volume(&pick.id);
            let op = if todo == Todo::Delete {
                Operation::Delete
            } else {
                Operation::Create
            };
            let plugin = match record {
                None => Err("its record vanished meanwhile".to_string()),
                Some(v) => {
                    let found = plugins
                        .entry(v.plugin.to_string())
                        .or_insert_with(|| resolve(ctx, &v.plugin, op, &v.describe()).ok())
                        .clone();
                    match found {
                        Some(p) => confinement(ctx, v).map(|()| p),
                        None => match resolve(ctx, &v.plugin, op, &v.describe()) {
                            // Put back since the first look: as found now.
                            Ok(p) => confinement(ctx, v).map(|()| p),
                            Err(Error::Plugin { failure, .. }) => {
                                Err(crate::exit::failure(&failure))
                            }
                            Err(other) => Err(crate::exit::message(&other)),
                        },
                    }
                }
            };
            Job {
                todo,
                plugin,
                req: record
                    .map(|v| {
                        v.request(
                            &ctx.settings.host_volume_plugin_dir,
                            &ctx.settings.volumes_dir,
                        )
                    })
                    .unwrap_or_else(|| placeholder(&pick.id)),
                created_path: record.map(|v| v.path.to_string()).unwrap_or_default(),
                pool: Arc::clone(&ctx.pool),
                printer: ctx.printer.clone(),
                timing,
            }
        });
        // On a terminal: the calls counted as they end, and the first one
        // still running named, every second (a long create shows what it
        // runs).
        let ended: Arc<Vec<AtomicBool>> =
            Arc::new((0..total).map(|_| AtomicBool::new(false)).collect());
        let count = Arc::new(AtomicUsize::new(0));
        let start = Instant::now();
        let line = || {
            let n = count.load(Ordering::Relaxed);
            let waiting = ended
                .iter()
                .position(|e| !e.load(Ordering::Relaxed))
                .map(|k| {
                    let id = &picks[runs[k]].id;
                    match state.volume(id) {
                        Some(v) => format!(
                            ", waiting for {} (plugin {})",
                            v.describe(),
                            v.plugin.as_ref()
                        ),
                        None => format!(", waiting for volume {id}"),
                    }
                })
                .unwrap_or_default();
            format!(
                "{}: {n}/{total} volumes done{waiting}, {} s",
                batch.name(),
                start.elapsed().as_secs()
            )
        };
        let work = fanout::run_all(
            jobs.enumerate(),
            ctx.pool.limit(),
            &ctx.stop,
            |(k, job)| {
                let (ended, count) = (Arc::clone(&ended), Arc::clone(&count));
                async move {
                    let r = job.run().await;
                    ended[k].store(true, Ordering::Relaxed);
                    count.fetch_add(1, Ordering::Relaxed);
                    r
                }
            },
            |k, result| {
                let i = runs[k];
                let (mut d, cost) =
                    result.unwrap_or_else(|lost| (Done::Lost(lost), Cost::default()));
                if let Done::Created(c) = &d {
                    if let Some(v) = state.volume(&picks[i].id).filter(|v| v.path == c.path) {
                        // Ready, error-free, and given back its path and size:
                        // nothing about the volume changed.
                        let same = v.state == plugctl_core::registry::VolumeState::Ready
                            && v.error.is_none()
                            && v.bytes == c.bytes;
                        d = if same {
                            Done::Unchanged { bytes: c.bytes }
                        } else {
                            Done::CreatedAsRecorded { bytes: c.bytes }
                        };
                    } else if let Some(why) = state.path_taken(&picks[i].id, &c.path) {
                        d = Done::CreateFailed(Box::new(PluginFailure::BadOutput(why)));
                    }
                }
                done[i] = Some((d, cost));
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
        // Back for the last step, which starts from it when nobody wrote
        // meanwhile: one parse for the whole batch.
        ctx.registry.keep(snap);
    }

    // Made one at a time as the transaction records them; a created
    // volume's path moves into the record (the report reads it there).
    let settled = picks.iter().zip(done.iter_mut()).filter_map(|(pick, d)| {
        let (done, cost) = d.as_mut()?;
        Some((pick.id.as_str(), settle(pick, done, *cost)?))
    });
    ctx.registry.finish_batch(settled).await?;
    let snap = ctx.registry.latest()?;
    report(ctx, batch, &picks, &done, snap.state())
}

/// A request for a record that vanished: never sent (its job fails first).
fn placeholder(id: &str) -> Request {
    Request {
        volumes_dir: Default::default(),
        plugin_dir: Default::default(),
        node_pool: String::new(),
        namespace: String::new(),
        name: String::new(),
        id: id.to_string(),
        capacity_min: 0,
        capacity_max: 0,
        node_id: String::new(),
        parameters: Default::default(),
    }
}

/// What one volume's calls mean for its record; None: nothing to record
/// (a call plugctl lost leaves the record as claimed, for `repair`).
fn settle(pick: &Pick, done: &mut Done, cost: Cost) -> Option<Settle> {
    let kind = match pick.todo {
        Ok(Todo::Create(kind)) => kind,
        _ => CreateKind::Resume,
    };
    let usage = cost.usage();
    Some(match done {
        Done::Created(c) => Settle::Create(
            kind,
            CreateOutcome::Created(Created {
                path: std::mem::take(&mut c.path),
                bytes: c.bytes,
                without_path: c.without_path.take(),
            }),
            usage,
        ),
        Done::CreatedAsRecorded { bytes } | Done::Unchanged { bytes } => {
            Settle::Recreated(kind, *bytes, usage)
        }
        Done::CreateFailed(f) => Settle::Create(
            kind,
            CreateOutcome::Failed {
                error: f.to_string(),
                uncertain: uncertain(f),
            },
            usage,
        ),
        Done::RolledBack(_, Ok(()), deleted) => {
            Settle::RolledBack(usage, deleted.as_deref().copied())
        }
        Done::RolledBack(f, Err(d), deleted) => Settle::RollBackFailed(
            kind,
            CreateOutcome::Failed {
                error: format!("create failed: {f}; delete failed: {d}"),
                uncertain: true,
            },
            usage,
            deleted.as_deref().copied(),
        ),
        Done::Deleted(r) => Settle::Delete(r.clone().map_err(|f| f.to_string()), usage),
        Done::Lost(_) => return None,
    })
}

/// What `restore` or `repair` did to one volume, as its report names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
enum Action {
    #[serde(rename = "created")]
    Created,
    #[serde(rename = "updated")]
    Updated,
    /// Created again, and the plugin returned the path and size on record.
    #[serde(rename = "unchanged")]
    Unchanged,
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
            Action::Unchanged => "unchanged",
            Action::RolledBack => "rolled back",
            Action::Deleted => "deleted",
            Action::Skipped => "skipped",
            Action::Failed => "failed",
        }
    }
}

/// One line of the report: made from the pick, what the plugins said and
/// the record as it now is, when it is printed.
#[derive(Debug, Serialize)]
struct Step<'p> {
    id: &'p str,
    name: &'p str,
    namespace: &'p str,
    plugin: &'p str,
    /// The state before.
    was: &'static str,
    action: Action,
    ok: bool,
    /// The state after; `deleted` when the record is gone.
    state: &'static str,
    path: String,
    bytes: i64,
    error: Option<String>,
    warnings: Vec<String>,
    duration_ms: u64,
    /// What its call cost (its create, or its delete), when a plugin ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    usage: Option<Usage>,
}

fn step<'p>(
    pick: &'p Pick,
    done: Option<&(Done, Cost)>,
    record: Option<&'p Volume<'_>>,
    default_dir: &std::path::Path,
) -> Step<'p> {
    // Who it is: kept with the pick where the record may be gone, else read
    // from the record.
    let label = |kept: fn(&plugctl_core::registry::volumes::Label) -> &str,
                 from: fn(&'p Volume<'_>) -> &'p str| {
        pick.label
            .as_deref()
            .map(kept)
            .or_else(|| record.map(from))
            .unwrap_or("-")
    };
    let mut s = Step {
        id: &pick.id,
        name: label(|l| &l.name, |r| &r.name),
        namespace: label(|l| &l.namespace, |r| &r.namespace),
        plugin: label(|l| &l.plugin, |r| &r.plugin),
        was: pick.was.as_str(),
        action: Action::Failed,
        ok: false,
        state: record.map_or("deleted", |r| r.state.as_str()),
        path: record.map(|r| r.path.to_string()).unwrap_or_default(),
        bytes: record.map_or(0, |r| r.bytes),
        error: None,
        warnings: Vec::new(),
        duration_ms: done.map_or(0, |d| u64::from(d.1.ms)),
        usage: done.and_then(|d| d.1.usage()),
    };
    let Some((done, _)) = done else {
        // Skipped before any plugin ran.
        s.action = Action::Skipped;
        s.ok = true;
        s.error = pick.todo.as_ref().err().cloned();
        return s;
    };
    match done {
        Done::Created(_) | Done::CreatedAsRecorded { .. } | Done::Unchanged { .. } => {
            let bytes = match done {
                Done::Created(c) => c.bytes,
                Done::CreatedAsRecorded { bytes } | Done::Unchanged { bytes } => *bytes,
                _ => 0,
            };
            s.ok = true;
            s.action = match (pick.todo.as_ref(), done) {
                (Ok(Todo::Create(CreateKind::Update)), Done::Unchanged { .. }) => Action::Unchanged,
                (Ok(Todo::Create(CreateKind::Update)), _) => Action::Updated,
                _ => Action::Created,
            };
            let dir = record.and_then(Volume::volumes_dir).unwrap_or(default_dir);
            // The path went into the record; one gone meanwhile has none.
            let path = record.map_or("", |r| r.path.as_ref());
            s.warnings = host_volume::warnings_of(path, bytes, dir);
        }
        // As the command line says a failure: with its advice (-v shows
        // its stderr).
        Done::CreateFailed(f) => s.error = Some(failure(f)),
        Done::RolledBack(f, Ok(()), _) => {
            s.action = Action::RolledBack;
            s.ok = record.is_none();
            s.error = Some(format!("create failed: {}; delete succeeded", failure(f)));
        }
        Done::RolledBack(f, Err(d), _) => {
            s.error = Some(format!(
                "create failed: {}; delete failed: {}",
                failure(f),
                failure(d)
            ));
        }
        Done::Deleted(Ok(())) => {
            s.ok = true;
            s.action = Action::Deleted;
        }
        Done::Deleted(Err(f)) => s.error = Some(format!("delete failed: {}", failure(f))),
        Done::Lost(l) => s.error = Some(l.to_string()),
    }
    s
}

/// The per-volume report; exit 1 when any failed. Printed from the picks,
/// the results and the final records, one line at a time.
fn report(
    ctx: &Ctx,
    batch: Batch,
    picks: &[Pick],
    done: &[Option<(Done, Cost)>],
    state: &State<'_>,
) -> Result<()> {
    let default_dir = ctx.settings.volumes_dir.as_path();
    let steps = || {
        picks
            .iter()
            .zip(done)
            .map(move |(p, d)| step(p, d.as_ref(), state.volume(&p.id), default_dir))
    };
    let mut failed = 0;
    for s in steps() {
        for w in &s.warnings {
            ctx.printer.warn(format!(
                "{}: {w}",
                plugctl_core::registry::volumes::describe(s.id, s.name, s.namespace)
            ));
        }
        failed += usize::from(!s.ok);
    }
    if ctx.printer.json {
        struct Results<F>(F);
        impl<'p, F, I> Serialize for Results<F>
        where
            F: Fn() -> I,
            I: Iterator<Item = Step<'p>>,
        {
            fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                let mut seq = s.serialize_seq(None)?;
                for step in (self.0)() {
                    seq.serialize_element(&step)?;
                }
                seq.end()
            }
        }
        #[derive(Serialize)]
        struct Doc<F> {
            results: F,
            failed: usize,
        }
        ctx.printer.document_from(&Doc {
            results: Results(steps),
            failed,
        })?;
    } else if picks.is_empty() {
        // An empty report is no table: said on stderr, as an empty list.
        ctx.printer.info(match batch {
            Batch::Repair => "nothing to repair: no volume is pending or deleting",
            Batch::Restore => "nothing to restore: the registry has no volumes",
        });
    } else {
        let full_ids = ctx.printer.verbose() > 0;
        // -v: what each call cost, beside how long it took.
        let costs = ctx.printer.verbose() >= 1;
        let ids = state.short_ids();
        let mut headers = vec![
            Column::keep("ID"),
            Column::text("NAME"),
            Column::keep("NAMESPACE"),
            Column::keep("PLUGIN"),
            Column::keep("WAS"),
            Column::keep("ACTION"),
            Column::keep("STATE"),
            Column::keep("DURATION"),
        ];
        if costs {
            headers.extend(crate::readable::USAGE_HEADERS.map(Column::keep));
        }
        headers.push(Column::text("DETAIL"));
        ctx.printer.table_from(&headers, || {
            steps().map(|s| {
                let style = match (s.ok, s.action) {
                    (false, _) => Style::Bad,
                    (true, Action::Skipped) => Style::Warn,
                    _ => Style::Good,
                };
                let mut row = vec![
                    (
                        Cow::Borrowed(super::view::table_id(&ids, s.id, full_ids)),
                        Style::Plain,
                    ),
                    (crate::output::value(s.name), Style::Plain),
                    (crate::output::value(s.namespace), Style::Plain),
                    (crate::output::value(s.plugin), Style::Plain),
                    (Cow::Borrowed(s.was), Style::Plain),
                    (Cow::Borrowed(s.action.name()), style),
                    (Cow::Borrowed(s.state), Style::Plain),
                    (
                        Cow::Owned(crate::output::short_duration(s.duration_ms)),
                        Style::Dim,
                    ),
                ];
                if costs {
                    let cells = crate::readable::usage_cells(s.usage.as_ref());
                    row.extend(cells.into_iter().map(|c| (Cow::Owned(c), Style::Dim)));
                }
                row.push((Cow::Owned(s.error.unwrap_or(s.path)), Style::Plain));
                row
            })
        })?;
    }
    if failed > 0 {
        return Err(Error::Failed(format!(
            "{}: {failed} of {} volumes failed",
            batch.name(),
            picks.len()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_volumes_result_stays_small() {
        // One per volume, held for the whole batch: 100,000 of them in a
        // restore's peak memory (benches/run.sh measures it). 48 bytes
        // before each call's cost was kept; 8 more with it.
        assert!(
            std::mem::size_of::<Option<(Done, Cost)>>() <= 56,
            "{} bytes",
            std::mem::size_of::<Option<(Done, Cost)>>()
        );
    }

    #[test]
    fn a_cost_keeps_what_the_report_and_the_events_say() {
        let u = Usage {
            wall: Duration::from_millis(12),
            cpu: Some(CpuTime {
                user: Duration::from_millis(3),
                system: Duration::from_millis(2),
            }),
            max_rss_kib: Some(2100),
            processes: 4,
            source: Source::Rusage,
            over_cap: Some(Cap::Tasks),
        };
        assert_eq!(Cost::of(Some(u), Duration::ZERO).usage(), Some(u));
        let clock = Usage::clock(Duration::from_millis(9));
        assert_eq!(Cost::of(Some(clock), Duration::ZERO).usage(), Some(clock));
        let builtin = Cost::of(None, Duration::from_millis(7));
        assert_eq!((builtin.ms, builtin.usage()), (7, None));
    }
}

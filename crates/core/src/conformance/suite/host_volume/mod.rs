//! The host-volume suite. Runs in a scratch directory (a tempdir, so
//! `TMPDIR` decides where): the volumes directory is two levels below its
//! root, so a plugin that climbs out of the volumes directory with `..`
//! still lands inside the scratch root, where the suite sees it and from
//! where it is removed.
//!
//! Every volume a create reported is tracked; after each step the tracker
//! deletes them through the plugin (whatever failed before), so a plugin
//! that allocates what it is asked never holds more than one step's volumes
//! on disk; at the end the scratch directory goes. `--keep` keeps them all.

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;
use std::sync::Arc;

use super::{Options, Suite};
use crate::conformance::{Report, Verdict, fingerprint};
use crate::discovery::{Entry, EntryKind};
use crate::families::driver::Driver;
use crate::families::host_volume::{self, Request};
use crate::family::Family;
use crate::runner::Pool;
use crate::{Error, Result};

mod probes;
use probes::{
    Refusal, bytes_verdict, hostile_names, never_created, parallel, path_verdict, refusal,
    token_entries,
};

/// The checks after the fingerprint, in order.
const CHECKS: &[&str] = &[
    "create.path",
    "create.bytes",
    "create.idempotent",
    "delete.idempotent",
    "delete.removes",
    "delete.confined",
    "delete.never-created",
    "create.refuses-unknown-parameter",
    "create.refuses-absurd-capacity",
    "create.hostile-names",
    "create.parallel",
    "cleanup",
];

/// The capacity the suite asks for.
const CAPACITY_MIN: u64 = 1 << 20;
const CAPACITY_MAX: u64 = 16 << 20;
/// No node has this much: 1 EiB.
const ABSURD_CAPACITY: u64 = 1 << 60;
/// A parameter no plugin knows.
const UNKNOWN_PARAMETER: &str = "plugctl_conformance_unknown";
/// How many creates run at once in `create.parallel`.
const PARALLEL: usize = 4;
/// The most volumes one step makes (the hostile names), plus one for a
/// plugin that makes a volume it was not asked for: what the scratch file
/// system must hold at --max-bytes each, as every step's volumes are
/// deleted before the next.
const MOST_AT_ONCE: u64 = 6;
/// Every create the suite makes (1 + 2 refusals + 5 hostile names + 4 in
/// parallel): what `--keep` may leave at once.
const MOST_IN_ALL: u64 = 12;
/// Snapshots stop counting here: a plugin that makes more than this has
/// already shown what it does.
const SNAPSHOT_LIMIT: usize = 10_000;

/// Every volume a create reported, until a delete of it succeeded.
#[derive(Default)]
struct Tracker {
    volumes: Vec<(Request, String)>,
}

impl Tracker {
    fn created(&mut self, req: &Request, path: &str) {
        if !self
            .volumes
            .iter()
            .any(|(r, p)| r.id == req.id && p == path)
        {
            self.volumes.push((req.clone(), path.to_string()));
        }
    }

    fn deleted(&mut self, req: &Request, path: &str) {
        self.volumes.retain(|(r, p)| !(r.id == req.id && p == path));
    }

    /// Deletes everything still tracked, newest first; says what failed.
    async fn delete_all(&mut self, driver: &Driver) -> Vec<String> {
        let mut failed = Vec::new();
        while let Some((req, path)) = self.volumes.pop() {
            if let Err(f) = driver.delete(&req, &path).await.result {
                failed.push(format!(
                    "{path_q} (volume {}): {f}",
                    req.id,
                    path_q = crate::escape::quote(&path)
                ));
            }
        }
        failed
    }
}

/// The run's fixed parts.
struct Ctx {
    driver: Driver,
    scratch: PathBuf,
    volumes_dir: PathBuf,
    base: Request,
    token: String,
}

impl Ctx {
    /// What a plugin broke outside its volumes: the volumes directory (or
    /// the scratch directory around it) removed or replaced. Recreated
    /// never: a plugin that removes what it was not asked to remove is
    /// not run further.
    fn damage(&self) -> Option<String> {
        let dir_ok = fs::symlink_metadata(&self.volumes_dir).is_ok_and(|m| m.is_dir());
        if dir_ok {
            return None;
        }
        let what = if fs::symlink_metadata(&self.scratch).is_err() {
            format!("the suite's scratch directory {}", self.scratch.display())
        } else {
            format!("the volumes directory {}", self.volumes_dir.display())
        };
        Some(format!(
            "a delete removed {what} itself (or put something else in its place): delete \
             must remove the volume it is given (DHV_CREATED_PATH) and nothing else; on a \
             node that directory holds every volume"
        ))
    }

    /// A request for a new volume, like the base one.
    fn request(&self, name: &str) -> Request {
        Request {
            name: name.to_string(),
            id: host_volume::new_volume_id(),
            ..self.base.clone()
        }
    }
}

pub(super) async fn suite(
    pool: Arc<Pool>,
    entry: &Entry,
    opts: &Options,
    id: &str,
    mut r: Report,
) -> Result<Suite> {
    let plugin = Some(id);
    let driver = if matches!(entry.kind, EntryKind::Builtin(_)) {
        for c in fingerprint::checks(Family::HostVolume.name()) {
            r.record(
                plugin,
                c,
                Verdict::skip("built in: plugctl runs it in process, as Nomad does"),
            );
        }
        Driver::Mkdir(opts.nomad.mkdir(), opts.policy)
    } else {
        let judged = fingerprint::Judged {
            profile: opts.nomad,
            timeout: opts.deadline,
            grace: opts.grace,
        };
        let fp = fingerprint::run(&pool, Family::HostVolume.name(), &entry.path, judged, &[]).await;
        fingerprint::record_checks(&mut r, plugin, &fp);
        r.record(
            plugin,
            "runnable.needs-path",
            fingerprint::needs_path(&pool, &fp).await,
        );
        if !fp.healthy() {
            // One bug, one failure: what follows would only fail again
            // for it.
            for &c in CHECKS {
                r.record(
                    plugin,
                    c,
                    Verdict::skip(
                        "the fingerprint failed (see fingerprint.*), so Nomad would never use \
                         this plugin",
                    ),
                );
            }
            return Ok(Suite {
                report: r,
                kept: None,
            });
        }
        Driver::Plugin {
            pool: Arc::clone(&pool),
            program: entry.path.clone(),
            deadline: opts.deadline.unwrap_or(host_volume::OPERATION_DEADLINE),
            grace: opts.grace,
            dialect: opts.nomad.dialect(),
        }
    };

    // Removed without ever crossing a mount a create left in it (see
    // `crate::scratch`).
    let scratch = crate::scratch::ScratchDir::new("plugctl-test-", opts.policy).map_err(|r| {
        use crate::trust::Refusal as Gate;
        match r {
            Gate::Io { source, .. } => Error::io("cannot make a scratch directory", source),
            r => Error::refused(
                "the directory TMPDIR names, where the scratch volumes directory would go",
                &r,
            ),
        }
    })?;
    // A stop (Ctrl-C) may not let this function end: the scratch directory
    // is removed by whoever fired the stop (not with --keep).
    let _scratch_guard = (!opts.keep).then(|| opts.stop.remove_on_interrupt(scratch.path()));
    // A real plugin allocates what it is asked (mkfs, dd): the suite asks
    // for at most --max-bytes, and only starts when the scratch file
    // system can hold every volume it may have at once at that size.
    let at_once = if opts.keep { MOST_IN_ALL } else { MOST_AT_ONCE };
    if let Ok(st) = nix::sys::statvfs::statvfs(scratch.path()) {
        let free = st.blocks_available() * st.fragment_size();
        let need = opts.max_bytes.saturating_mul(at_once);
        if free < need {
            return Err(Error::usage(format!(
                "the scratch directory {} has {free} bytes free, less than the {need} bytes \
                 {at_once} volumes of {} bytes could take; free space there (TMPDIR)",
                scratch.path().display(),
                opts.max_bytes
            ))
            .hint(crate::error::Hint::MaxBytes));
        }
    }
    let volumes_dir = scratch.path().join("data/host_volumes");
    fs::create_dir_all(&volumes_dir).map_err(|e| {
        Error::io(
            format!(
                "cannot make the volumes directory {}",
                volumes_dir.display()
            ),
            e,
        )
    })?;
    let token = uuid::Uuid::new_v4().simple().to_string()[..8].to_string();
    let cx = Ctx {
        base: Request {
            volumes_dir: volumes_dir.clone(),
            plugin_dir: opts.plugin_dir.clone(),
            node_pool: opts.node_pool.clone(),
            namespace: "default".into(),
            name: format!("conformance-{token}"),
            id: host_volume::new_volume_id(),
            capacity_min: CAPACITY_MIN.min(opts.max_bytes),
            capacity_max: CAPACITY_MAX.min(opts.max_bytes),
            node_id: opts
                .node_id
                .clone()
                .unwrap_or_else(|| "plugctl-conformance-node".into()),
            parameters: BTreeMap::new(),
        },
        driver,
        scratch: scratch.path().to_path_buf(),
        volumes_dir,
        token,
    };
    let mut tracker = Tracker::default();
    // Deletes that failed between steps, for the cleanup check.
    let mut failed = Vec::new();
    // What a step made goes before the next step starts (not with --keep).
    let settle = async |tracker: &mut Tracker, failed: &mut Vec<String>| {
        if !opts.keep {
            failed.extend(tracker.delete_all(&cx.driver).await);
        }
    };

    // No `?` from here to the cleanup: every step records its verdict and
    // goes on, so the tracker always gets to delete what was made — unless
    // a delete took the volumes directory itself away (delete.confined):
    // the steps left are then skipped, saying so, as each would only fail
    // for that one bug.
    let parent_before = token_entries(&cx);
    let no_path = lifecycle(&cx, &mut tracker, &mut r, plugin).await;
    // An answer with no `path` fails create.path, saying what it had
    // instead; every check that needs the path is skipped with that
    // reason rather than failed again for it.
    let no_path_skip = || {
        no_path
            .as_ref()
            .map(|why| Verdict::skip(format!("{why} (see create.path)")))
    };
    settle(&mut tracker, &mut failed).await;
    let confined = cx.damage();
    let gone = |confined: &Option<String>| {
        confined.as_ref().map(|_| {
            Verdict::skip(
                "the volumes directory is gone (see delete.confined): nothing more to create \
                 in",
            )
        })
    };
    let v = match gone(&confined) {
        Some(v) => v,
        None => never_created(&cx).await,
    };
    r.record(plugin, "delete.never-created", v);
    let v = match gone(&confined) {
        Some(v) => v,
        None => refusal(&cx, &mut tracker, Refusal::UnknownParameter).await,
    };
    r.record(plugin, "create.refuses-unknown-parameter", v);
    settle(&mut tracker, &mut failed).await;
    let v = match gone(&confined) {
        Some(v) => v,
        None if opts.check_absurd_capacity => {
            refusal(&cx, &mut tracker, Refusal::AbsurdCapacity).await
        }
        None => Verdict::skip(
            "not asked for: a plugin that allocates what it is asked would try to fill the disk",
        )
        .hint(crate::error::Hint::CheckAbsurdCapacity),
    };
    r.record(plugin, "create.refuses-absurd-capacity", v);
    settle(&mut tracker, &mut failed).await;
    // A plugin whose plain create already answers with a path that is no
    // volume in the volumes directory fails create.path for it; hostile
    // names would only find the same paths again.
    let path_failed = r
        .checks_run
        .iter()
        .any(|c| c.check == "create.path" && c.outcome == crate::conformance::Outcome::Failed);
    let v = match gone(&confined).or_else(no_path_skip) {
        Some(v) => v,
        None if path_failed => Verdict::skip(
            "create already returns a path that is not a volume inside the volumes directory \
             (see create.path)",
        ),
        None => hostile_names(&cx, &mut tracker, &parent_before).await,
    };
    r.record(plugin, "create.hostile-names", v);
    settle(&mut tracker, &mut failed).await;
    let v = match gone(&confined).or_else(no_path_skip) {
        Some(v) => v,
        None => parallel(&cx, &mut tracker, &opts.stop).await,
    };
    r.record(plugin, "create.parallel", v);
    // Judged last, in one place of the report whatever step did it.
    let damage = match confined {
        Some(why) => Some(why),
        None => {
            settle(&mut tracker, &mut failed).await;
            cx.damage()
        }
    };
    r.record(
        plugin,
        "delete.confined",
        damage.map_or_else(Verdict::pass, Verdict::error),
    );

    let kept = if opts.keep {
        r.record(
            plugin,
            "cleanup",
            Verdict::skip(format!(
                "{} volumes left in {}",
                tracker.volumes.len(),
                cx.scratch.display()
            ))
            .hint(crate::error::Hint::Kept),
        );
        Some(scratch.keep())
    } else {
        failed.extend(tracker.delete_all(&cx.driver).await);
        // Whatever is left in the scratch directory goes with it, but
        // never through a mount a create left there: removing that would
        // empty what is mounted (a directory of the node's, a share).
        let scratch_path = cx.scratch.clone();
        let removed = scratch.remove();
        let mut problems = Vec::new();
        if !failed.is_empty() {
            problems.push(format!(
                "the suite could not delete {} of the volumes it created: {}",
                failed.len(),
                failed.join("; ")
            ));
        }
        if let Err(why) = &removed {
            problems.push(format!(
                "the scratch directory {} is left as it is: {why}; nothing under it was \
                 removed",
                scratch_path.display()
            ));
        } else if !problems.is_empty() {
            problems.push("(the scratch directory is removed anyway)".into());
        }
        r.record(
            plugin,
            "cleanup",
            if problems.is_empty() {
                Verdict::pass()
            } else {
                Verdict::error(problems.join("; "))
            },
        );
        None
    };
    Ok(Suite { report: r, kept })
}

/// create, create again, delete, delete again, of one volume.
/// Create, create again, delete, delete again. Returns why the path is
/// missing when create's answer had no `path` at all (the checks that
/// need one are skipped for it, here and after).
async fn lifecycle(
    cx: &Ctx,
    tracker: &mut Tracker,
    r: &mut Report,
    plugin: Option<&str>,
) -> Option<String> {
    let req = cx.base.clone();
    let first = cx.driver.create_as_returned(&req).await;
    let created = match first.result {
        Ok(c) => {
            tracker.created(&req, &c.path);
            c
        }
        Err(f) => {
            r.record(
                plugin,
                "create.path",
                Verdict::error(format!(
                    "create failed: {f}; a plain request (name {}, capacity {}–{} bytes, no \
                     parameters) must succeed",
                    crate::escape::quote_os(&req.name),
                    req.capacity_min,
                    req.capacity_max
                )),
            );
            for c in [
                "create.bytes",
                "create.idempotent",
                "delete.idempotent",
                "delete.removes",
            ] {
                r.record(plugin, c, Verdict::skip("create failed (see create.path)"));
            }
            return None;
        }
    };
    let path = path_verdict(cx, &created);
    let no_path = host_volume::no_path(&created).filter(|_| created.path.is_empty());
    // A path that is not a volume in the volumes directory: what delete
    // would remove is not the plugin's volume, so whether it does is no
    // second finding.
    let made_nothing = path.has_error();
    r.record(plugin, "create.path", path);
    let bytes = match cx.driver {
        Driver::Mkdir(..) => {
            Verdict::skip("the built-in mkdir never reports a size (protocol 4.4)")
        }
        Driver::Plugin { .. } => bytes_verdict(&req, &created),
    };
    r.record(plugin, "create.bytes", bytes);
    if let Some(why) = &no_path {
        for c in ["create.idempotent", "delete.idempotent", "delete.removes"] {
            r.record(plugin, c, Verdict::skip(format!("{why} (see create.path)")));
        }
        return no_path;
    }

    let second = cx.driver.create_as_returned(&req).await;
    let v = match second.result {
        Err(f) => Verdict::error(format!(
            "the same create, repeated, failed: {f}; Nomad repeats create on every client \
             restart and update, so it must succeed again with the same answer"
        )),
        Ok(again) => {
            tracker.created(&req, &again.path);
            let mut issues = Vec::new();
            if again.path != created.path {
                issues.push(format!(
                    "the same create, repeated, returned path {}, the first returned {}",
                    crate::escape::quote_os(&again.path),
                    crate::escape::quote_os(&created.path)
                ));
            }
            if again.bytes != created.bytes {
                issues.push(format!(
                    "the same create, repeated, returned {} bytes, the first {}",
                    again.bytes, created.bytes
                ));
            }
            if issues.is_empty() {
                Verdict::pass()
            } else {
                Verdict::error(format!(
                    "{}: Nomad repeats create on every client restart and update; find the \
                     existing volume (e.g. by DHV_VOLUME_ID) and return it unchanged",
                    issues.join("; ")
                ))
            }
        }
    };
    r.record(plugin, "create.idempotent", v);

    let first = cx.driver.delete(&req, &created.path).await;
    let (v, removed) = match first.result {
        Err(f) => (
            Verdict::error(format!(
                "delete failed: {f}; delete must remove the volume create made (DHV_CREATED_PATH)"
            )),
            Verdict::skip("delete failed (see delete.idempotent)"),
        ),
        Ok(()) => {
            tracker.deleted(&req, &created.path);
            let removed = if made_nothing {
                Verdict::skip(
                    "create returned no volume in the volumes directory (see create.path)",
                )
            } else if !created.path.is_empty() && fs::symlink_metadata(&created.path).is_ok() {
                // Nomad forgets the volume when delete succeeds: what is
                // left is never removed, and fills the node.
                Verdict::error(format!(
                    "{} still exists after delete succeeded: Nomad forgets the volume then, \
                     so it stays on the node for good; remove what create made",
                    crate::escape::quote_os(&created.path)
                ))
            } else {
                Verdict::pass()
            };
            let again = cx.driver.delete(&req, &created.path).await;
            let v = match again.result {
                Ok(()) => Verdict::pass(),
                Err(f) => Verdict::error(format!(
                    "a second delete of the same volume failed: {f}; delete must succeed \
                     when the volume is already gone (Nomad retries deletes)"
                )),
            };
            (v, removed)
        }
    };
    r.record(plugin, "delete.idempotent", v);
    r.record(plugin, "delete.removes", removed);
    None
}

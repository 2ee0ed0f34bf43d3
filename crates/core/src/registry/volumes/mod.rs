//! Volume records: the pending → ready → deleting life cycle, under the registry lock.
//!
//! Every `State` method here runs inside one transaction
//! (`Registry::update`, or for a first step an intent, `Registry::intend`:
//! see `transaction.rs`) and never runs a plugin. Those that record
//! this process as an owner, or ask whether a recorded owner still runs,
//! are handed the registry's [`Owners`]. A create is three steps
//! ([`State::begin_volume_create`], the plugin, [`State::finish_volume_create`]),
//! a delete likewise, so a crash between the steps leaves a visible
//! `pending` or `deleting` record that `volume repair` settles.
//!
//! The rules:
//! - a name is unique on the node, whatever the namespace (a Nomad client
//!   locks names node-wide: `client/hostvolumemanager/host_volumes.go`);
//! - a new volume is recorded `pending` before its plugin runs; success makes
//!   it `ready`; a definite failure (the plugin exited non-zero, or could not
//!   be started) removes it; an uncertain one (timeout, killed, bad output
//!   after exit 0: the plugin may have made something) keeps it `pending`
//!   with the error, for `volume repair`;
//! - re-running create on a `ready` volume (an update, or restore) leaves the
//!   record as it is while the plugin runs; success records the new request
//!   and result, failure keeps the old record and sets its `error`;
//! - a delete marks the record `deleting`; success removes it, failure puts
//!   it back (`ready`, or `pending` if it never became ready) with `error`;
//! - a record whose owner process is alive is never taken over.

use std::borrow::Cow;
use std::path::Path;

use serde_json::{Map, Value};

use super::ledger::Charge;
use super::model::{Owner, Params, State, Text, Volume, VolumeState, kind, now};
use super::owner::Owners;
use crate::usage::Usage;

mod batch;

use crate::error::Hint;
use crate::families::host_volume::{Created, Request};
use crate::family::{Family, Operation};
use crate::{Error, Result};
pub use batch::{Label, Pick, Settle, Todo};

/// How a create relates to what the registry held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CreateKind {
    /// No record with this id: one was made, `pending`.
    New,
    /// The record is `ready`: the create re-runs (update, restore).
    Update,
    /// The record was `pending` from an interrupted or uncertain create.
    Resume,
}

/// What the plugin's create came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CreateOutcome {
    Created(Created),
    Failed {
        error: String,
        /// The plugin may have made something (timeout, killed, bad output
        /// after exit 0): a new record stays `pending` instead of going.
        uncertain: bool,
    },
}

/// Does nothing, and goes once the command line's exit path no longer
/// calls it: the owners directory and this process's liveness lock belong
/// to each [`Registry`](super::Registry) now, released by
/// [`Registry::release_owner`](super::Registry::release_owner) or when its
/// last clone is dropped; there is no process-wide one left to release.
#[doc(hidden)]
pub fn release_owner() {}

impl super::Registry {
    /// A create or delete records this process as the volume's owner, and
    /// others know it is still at work by its liveness lock: without one
    /// (the gate refused the owners directory), its record could be taken
    /// over while it runs, so nothing starts.
    fn require_liveness(&self) -> Result<()> {
        match self.owners().refused() {
            None => Ok(()),
            Some((why, hint)) => {
                let e = Error::Registry {
                    path: self.path().to_path_buf(),
                    message: format!(
                        "its owners directory (liveness locks) cannot be used: {why}; no \
                         create, delete, restore or repair starts without it"
                    ),
                };
                Err(match hint {
                    Some(hint) => e.hint(hint.clone()),
                    None => e,
                })
            }
        }
    }
}

/// The named transactions of a volume's life cycle. The first step of a
/// create or delete is an intent (one fsynced journal append, the file is
/// not rewritten); the last is a transaction that writes the file.
impl super::Registry {
    /// Step one of a create: the plugin must be available (its last
    /// fingerprint did not fail), the request must fit the registry (see
    /// [`State::begin_volume_create`]), and the volume is recorded
    /// `pending`, owned by this process. `assign_node_id`: the request
    /// takes the registry's node id (made on first use).
    pub async fn begin_create(
        &self,
        req: &mut Request,
        plugin: &str,
        assign_node_id: bool,
    ) -> Result<(Volume<'static>, CreateKind)> {
        self.require_liveness()?;
        let owners = self.owners();
        self.intend(|state| {
            state.require_available(Family::HostVolume, plugin, Operation::Create)?;
            if assign_node_id {
                req.node_id = state.node_id();
            }
            let proposed = Volume::pending(req, plugin, owners.me());
            let kind = state.begin_volume_create(&proposed, owners)?;
            let id = proposed.id.to_string();
            Ok(((proposed, kind), vec![id]))
        })
        .await
    }

    /// Step three of a create (see [`State::finish_volume_create`]).
    pub async fn finish_create(
        &self,
        proposed: &Volume<'_>,
        kind: CreateKind,
        outcome: CreateOutcome,
        usage: Option<&Usage>,
    ) -> Result<Option<Volume<'static>>> {
        let owners = self.owners();
        self.update(|state| Ok(state.finish_volume_create(proposed, kind, outcome, owners, usage)))
            .await
    }

    /// Step one of a delete: the volume is marked `deleting`, owned by this
    /// process; returns it as it was (see [`State::begin_volume_delete`]).
    pub async fn begin_delete(&self, id: &str) -> Result<Volume<'static>> {
        self.require_liveness()?;
        self.intend(|state| {
            let before = state.begin_volume_delete(id, self.owners())?;
            Ok((before, vec![id.to_string()]))
        })
        .await
    }

    /// Drops a volume's record without running its plugin (see
    /// [`State::forget_volume`]); returns the record as it was.
    pub async fn forget_volume(&self, id: &str) -> Result<Volume<'static>> {
        let owners = self.owners();
        self.update(|state| state.forget_volume(id, owners)).await
    }

    /// Step three of a delete (see [`State::finish_volume_delete`]).
    pub async fn finish_delete(
        &self,
        id: &str,
        was: VolumeState,
        result: std::result::Result<(), String>,
        usage: Option<&Usage>,
    ) -> Result<Option<Volume<'static>>> {
        self.update(|state| Ok(state.finish_volume_delete(id, was, result, usage)))
            .await
    }
}

impl Volume<'_> {
    /// A volume another live plugctl is creating or deleting is its to
    /// settle: asked to `verb` it, this process is refused (exit 2).
    fn refuse_if_busy(&self, verb: &str, owners: &Owners) -> Result<()> {
        match self.owner.filter(|o| owners.is_other_live(o)) {
            Some(owner) => Err(Error::usage(format!(
                "cannot {verb} {}: plugctl (pid {}) is running its {} right now",
                self.describe(),
                owner.pid,
                if self.state == VolumeState::Deleting {
                    "delete"
                } else {
                    "create"
                }
            ))),
            None => Ok(()),
        }
    }

    /// A new `pending` record for this request, owned by `owner`.
    pub fn pending(req: &Request, plugin: &str, owner: Owner) -> Volume<'static> {
        let t = now();
        let own = |s: &str| Cow::Owned(s.to_string());
        Volume {
            id: own(&req.id),
            name: own(&req.name),
            namespace: own(&req.namespace),
            plugin: own(plugin),
            node_id: own(&req.node_id),
            node_pool: own(&req.node_pool),
            capacity_min: req.capacity_min,
            capacity_max: req.capacity_max,
            parameters: Params::from(&req.parameters),
            path: Cow::Borrowed(""),
            bytes: 0,
            state: VolumeState::Pending,
            created_at: Cow::Owned(t.clone()),
            updated_at: Cow::Owned(t),
            error: None,
            volumes_dir: Some(Cow::Owned(req.volumes_dir.to_string_lossy().into_owned())),
            owner: Some(owner),
        }
    }

    /// The stored request, to re-run create or run delete with: the recorded
    /// volumes directory (else `default_volumes_dir`), node and parameters,
    /// and the plugin directory the plugin is found in now.
    pub fn request(&self, plugin_dir: &Path, default_volumes_dir: &Path) -> Request {
        Request {
            volumes_dir: self
                .volumes_dir()
                .unwrap_or(default_volumes_dir)
                .to_path_buf(),
            plugin_dir: plugin_dir.to_path_buf(),
            node_pool: self.node_pool.to_string(),
            namespace: self.namespace.to_string(),
            name: self.name.to_string(),
            id: self.id.to_string(),
            capacity_min: self.capacity_min,
            capacity_max: self.capacity_max,
            node_id: self.node_id.to_string(),
            parameters: self.parameters.to_map(),
        }
    }

    /// `volume <id> ("name", namespace ns)`, for messages.
    pub fn describe(&self) -> String {
        describe(&self.id, &self.name, &self.namespace)
    }

    /// The owner is another live process (as `owners`, its registry's,
    /// tell): a create or delete is running.
    pub fn in_progress(&self, owners: &Owners) -> bool {
        self.owner.is_some_and(|o| owners.is_other_live(&o))
    }
}

/// Replaces a record's string only when it differs (an unchanged one keeps
/// borrowing from the file).
fn set_text(field: &mut Text<'_>, new: &str) {
    if field.as_ref() != new {
        *field = Cow::Owned(new.to_string());
    }
}

/// `volume <id> ("name", namespace ns)`, for messages.
pub fn describe(id: &str, name: &str, namespace: &str) -> String {
    format!(
        "volume {id} ({name_q}, namespace {namespace})",
        name_q = crate::escape::quote(name)
    )
}

fn event_details(v: &Volume<'_>) -> Map<String, Value> {
    let mut d = Map::new();
    d.insert("volume_id".into(), v.id.as_ref().into());
    d.insert("volume_name".into(), v.name.as_ref().into());
    d.insert("namespace".into(), v.namespace.as_ref().into());
    d.insert("state".into(), v.state.as_str().into());
    d.insert("path".into(), v.path.as_ref().into());
    d.insert("bytes".into(), v.bytes.into());
    d.insert("error".into(), v.error.as_deref().into());
    d
}

impl<'a> State<'a> {
    /// The volume with this id.
    /// By id; Nomad compares UUIDs case-insensitively (ids are stored
    /// lower-case).
    pub fn volume(&self, id: &str) -> Option<&Volume<'a>> {
        self.volumes
            .get(id)
            .or_else(|| self.volumes.get(&id.to_ascii_lowercase()))
    }

    /// The volume with this name in this namespace.
    pub fn volume_named(&self, namespace: &str, name: &str) -> Option<&Volume<'a>> {
        self.volumes
            .values()
            .find(|v| v.namespace == namespace && v.name == name)
    }

    /// By id (in any namespace), else by name in `namespace`.
    pub fn find_volume(&self, id_or_name: &str, namespace: &str) -> Option<&Volume<'a>> {
        self.volume(id_or_name)
            .or_else(|| self.volume_named(namespace, id_or_name))
    }

    /// Why a create of volume `id` may not take `path`: another volume's
    /// recorded path is the same directory, lies inside it, or holds it.
    /// Two volumes on one directory share their data, and deleting one
    /// removes the other's: a plugin that answers so has failed, whatever
    /// it made. Paths are compared as written (both were judged inside the
    /// volumes directory, without `..`), part by part.
    pub fn path_taken(&self, id: &str, path: &str) -> Option<String> {
        let p = Path::new(path);
        let other = self.volumes.values().find(|v| {
            v.id != id && !v.path.is_empty() && {
                let q = Path::new(v.path.as_ref());
                p.starts_with(q) || q.starts_with(p)
            }
        })?;
        let how = if Path::new(other.path.as_ref()) == p {
            "is the path of another volume"
        } else if p.starts_with(other.path.as_ref()) {
            "lies inside another volume's path"
        } else {
            "holds another volume's path"
        };
        Some(format!(
            "the returned path {} {how}, {} at {}: two volumes would share one directory, and \
             deleting one would remove the other's data",
            crate::escape::quote(path),
            other.describe(),
            crate::escape::quote(&other.path)
        ))
    }

    /// Every volume, by namespace, then name, then id.
    pub fn volumes_sorted(&self) -> Vec<&Volume<'a>> {
        // The keys beside each record, so that comparing does not go back
        // to the record (100,000 records are 100,000 cache misses a pass).
        let mut all: Vec<(&str, &str, &str, &Volume<'a>)> = self
            .volumes
            .values()
            .map(|v| (v.namespace.as_ref(), v.name.as_ref(), v.id.as_ref(), v))
            .collect();
        // Ids are unique, so the order is total and need not be stable.
        all.sort_unstable_by(|a, b| (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)));
        all.into_iter().map(|k| k.3).collect()
    }

    /// Step one of a create: checks `proposed` against the registry and
    /// records it `pending` when it is new. Refused (a usage error, exit 2):
    /// the name is taken on this node (in any namespace) by another id; the
    /// id exists with another name, namespace, plugin or volumes directory;
    /// the volume is being deleted; another live plugctl is creating it.
    pub fn begin_volume_create(
        &mut self,
        proposed: &Volume<'_>,
        owners: &Owners,
    ) -> Result<CreateKind> {
        // A Nomad client holds each volume name for one id on the node
        // (its volLocker), so a second namespace does not make a second
        // name: Nomad refuses it with ErrVolumeNameExists.
        if let Some(other) = self
            .volumes
            .values()
            .find(|v| v.id != proposed.id && v.name == proposed.name)
        {
            let namespace =
                (other.namespace != proposed.namespace).then(|| other.namespace.to_string());
            // The proposed id is named nowhere: it may be one plugctl just
            // made up, which the user never saw.
            return Err(Error::usage(format!(
                "cannot create volume {} (namespace {}): volume name already exists on this \
                 node: {} has it (plugin {}, state {}); a Nomad client keeps volume names \
                 unique per node, whatever the namespace.",
                crate::escape::quote_os(proposed.name.as_ref()),
                proposed.namespace.as_ref(),
                other.describe(),
                other.plugin,
                other.state.as_str(),
            ))
            .hint(Hint::CreateWithId {
                id: other.id.to_string(),
                namespace,
            }));
        }
        let Some(existing) = self.volumes.get_mut(&proposed.id) else {
            self.volumes.insert(proposed.to_owned_record());
            return Ok(CreateKind::New);
        };
        let mut differs = Vec::new();
        for (what, recorded, requested) in [
            ("name", &existing.name, &proposed.name),
            ("namespace", &existing.namespace, &proposed.namespace),
            ("plugin", &existing.plugin, &proposed.plugin),
        ] {
            if recorded != requested {
                differs.push(format!(
                    "{what} (recorded {recorded_q}, requested {requested_q})",
                    recorded_q = crate::escape::quote(recorded),
                    requested_q = crate::escape::quote(requested)
                ));
            }
        }
        if let (Some(recorded), Some(requested)) = (&existing.volumes_dir, &proposed.volumes_dir)
            && recorded != requested
        {
            differs.push(format!(
                "volumes directory (recorded {recorded}, requested {requested})"
            ));
        }
        if !differs.is_empty() {
            return Err(Error::usage(format!(
                "cannot re-run create for volume {}: it exists with a different {}; \
                 create may only update capacities and parameters",
                existing.id,
                differs.join(", ")
            )));
        }
        existing.refuse_if_busy("create", owners)?;
        match existing.state {
            // Owned while the update runs, so that a delete (or another
            // create) of it waits its turn instead of being undone by ours.
            VolumeState::Ready => {
                existing.owner = proposed.owner;
                Ok(CreateKind::Update)
            }
            VolumeState::Pending => {
                existing.owner = proposed.owner;
                Ok(CreateKind::Resume)
            }
            VolumeState::Deleting => Err(Error::usage(format!(
                "cannot create {}: its delete was interrupted (state deleting)",
                existing.describe(),
            ))
            .hint(Hint::DeleteOrRepair {
                id: existing.id.to_string(),
            })),
        }
    }

    /// Step three of a create: records what the plugin's create came to
    /// (see the module rules) and emits `volume_create` (first time ready)
    /// or `volume_update` (a ready volume re-created, or its update failed).
    /// Returns the record as it now is, `None` when it was removed. The
    /// call's usage, when it ran, is tallied and put in that event (see
    /// [`State::charge`]).
    ///
    /// A record that went `deleting` meanwhile is left to its delete.
    pub fn finish_volume_create(
        &mut self,
        proposed: &Volume<'_>,
        create_kind: CreateKind,
        outcome: CreateOutcome,
        owners: &Owners,
        usage: Option<&Usage>,
    ) -> Option<Volume<'static>> {
        self.settle_create(proposed, create_kind, outcome, owners, usage)
            .map(Volume::to_owned_record)
    }

    /// [`State::finish_volume_create`], changing the record in place: what
    /// did not change keeps borrowing from the file (a restore of 100,000
    /// volumes must not turn every record into owned strings).
    fn settle_create(
        &mut self,
        proposed: &Volume<'_>,
        create_kind: CreateKind,
        outcome: CreateOutcome,
        owners: &Owners,
        usage: Option<&Usage>,
    ) -> Option<&Volume<'a>> {
        // A path another volume holds (or one inside or around it) is the
        // plugin's failure, judged here, under the registry's lock, so that
        // two creates running at once cannot both take one directory.
        let outcome = match outcome {
            CreateOutcome::Created(c)
                if self
                    .volumes
                    .get(&proposed.id)
                    .is_some_and(|existing| existing.path != c.path) =>
            {
                match self.path_taken(&proposed.id, &c.path) {
                    Some(error) => CreateOutcome::Failed {
                        error,
                        uncertain: true,
                    },
                    None => CreateOutcome::Created(c),
                }
            }
            other => other,
        };
        // Every call that ran is tallied, whatever becomes of the record.
        let mut charged = Map::new();
        let ok = matches!(outcome, CreateOutcome::Created(_));
        self.charge(
            usage.map(|usage| Charge {
                family: Family::HostVolume.name(),
                name: &proposed.plugin,
                operation: Operation::Create,
                ok,
                usage,
            }),
            &mut charged,
        );
        // Gone meanwhile (deleted, or rolled back by repair): a finished
        // create must not bring it back.
        let existing = self.volumes.get(&proposed.id)?;
        // A record that went `deleting` is its delete's; one another live
        // plugctl took over meanwhile is that one's: its result counts.
        if existing.state == VolumeState::Deleting
            || existing.owner.is_some_and(|o| owners.is_other_live(&o))
        {
            return self.volumes.get(&proposed.id);
        }
        let event = match outcome {
            CreateOutcome::Created(c) => {
                let v = self.volumes.get_mut(&proposed.id)?;
                let was_ready = v.state == VolumeState::Ready;
                // A ready volume created again exactly as it was (a restore
                // at start, an update that changes nothing) is a no-op: no
                // event, and the record is left as it is.
                let same = was_ready
                    && v.error.is_none()
                    && v.path == c.path
                    && v.bytes == c.bytes
                    && v.capacity_min == proposed.capacity_min
                    && v.capacity_max == proposed.capacity_max
                    && v.parameters == proposed.parameters
                    && (v.volumes_dir == proposed.volumes_dir || proposed.volumes_dir.is_none())
                    && v.name == proposed.name
                    && v.namespace == proposed.namespace
                    && v.plugin == proposed.plugin
                    && v.node_id == proposed.node_id
                    && v.node_pool == proposed.node_pool;
                if same {
                    v.owner = None;
                    return self.volumes.get(&proposed.id);
                }
                // The request as proposed (an update may change capacities
                // and parameters), the plugin's answer, and the state.
                for (field, new) in [
                    (&mut v.name, &proposed.name),
                    (&mut v.namespace, &proposed.namespace),
                    (&mut v.plugin, &proposed.plugin),
                    (&mut v.node_id, &proposed.node_id),
                    (&mut v.node_pool, &proposed.node_pool),
                ] {
                    set_text(field, new);
                }
                set_text(&mut v.path, &c.path);
                if v.parameters != proposed.parameters {
                    v.parameters = proposed.parameters.clone().into_owned();
                }
                if v.volumes_dir != proposed.volumes_dir {
                    v.volumes_dir = proposed
                        .volumes_dir
                        .clone()
                        .map(|d| Cow::Owned(d.into_owned()));
                }
                v.capacity_min = proposed.capacity_min;
                v.capacity_max = proposed.capacity_max;
                v.state = VolumeState::Ready;
                v.bytes = c.bytes;
                v.error = None;
                v.owner = None;
                v.updated_at = Cow::Owned(now());
                if was_ready {
                    kind::VOLUME_UPDATE
                } else {
                    kind::VOLUME_CREATE
                }
            }
            CreateOutcome::Failed { error, uncertain } => {
                let v = self.volumes.get_mut(&proposed.id)?;
                if create_kind == CreateKind::New && v.state == VolumeState::Pending && !uncertain {
                    self.volumes.remove(&proposed.id);
                    return None;
                }
                v.error = Some(Cow::Owned(super::model::kept_message(error)));
                v.owner = None;
                v.updated_at = Cow::Owned(now());
                if v.state != VolumeState::Ready {
                    return self.volumes.get(&proposed.id);
                }
                kind::VOLUME_UPDATE
            }
        };
        let mut details = event_details(self.volumes.get(&proposed.id)?);
        details.extend(charged);
        let plugin = self.volumes.get(&proposed.id)?.plugin.to_string();
        self.emit(event, Family::HostVolume.name(), &plugin, details);
        self.volumes.get(&proposed.id)
    }

    /// Step one of a delete: marks the volume `deleting`, owned by this
    /// process, and returns it as it was before. Not found: exit 3. A volume
    /// another live plugctl is creating or deleting is refused (exit 2).
    pub fn begin_volume_delete(&mut self, id: &str, owners: &Owners) -> Result<Volume<'static>> {
        let Some(v) = self.volumes.get_mut(id) else {
            return Err(Error::NotFound {
                what: "volume",
                name: id.to_string(),
            });
        };
        v.refuse_if_busy("delete", owners)?;
        let before = v.to_owned_record();
        v.state = VolumeState::Deleting;
        v.owner = Some(owners.me());
        v.updated_at = Cow::Owned(now());
        Ok(before)
    }

    /// Step three of a delete. Success removes the record and emits
    /// `volume_delete`; failure puts it back to `was` (`ready`, or `pending`
    /// for a volume that never became ready; `deleting` counts as `ready`)
    /// with `error`. Returns the record as it now is, `None` when removed.
    /// The call's usage, when it ran, is tallied and put in the event.
    pub fn finish_volume_delete(
        &mut self,
        id: &str,
        was: VolumeState,
        result: std::result::Result<(), String>,
        usage: Option<&Usage>,
    ) -> Option<Volume<'static>> {
        let mut charged = Map::new();
        let plugin = self.volumes.get(id)?.plugin.to_string();
        self.charge(
            usage.map(|usage| Charge {
                family: Family::HostVolume.name(),
                name: &plugin,
                operation: Operation::Delete,
                ok: result.is_ok(),
                usage,
            }),
            &mut charged,
        );
        let v = self.volumes.get_mut(id)?;
        if v.state != VolumeState::Deleting {
            return Some(v.to_owned_record());
        }
        match result {
            Ok(()) => {
                let v = self.volumes.remove(id)?;
                let mut details = event_details(&v);
                details.insert("state".into(), "deleted".into());
                details.insert("was".into(), was.as_str().into());
                details.extend(charged);
                self.emit(
                    kind::VOLUME_DELETE,
                    Family::HostVolume.name(),
                    &v.plugin,
                    details,
                );
                None
            }
            Err(error) => {
                v.state = match was {
                    VolumeState::Pending => VolumeState::Pending,
                    VolumeState::Ready | VolumeState::Deleting => VolumeState::Ready,
                };
                v.error = Some(Cow::Owned(super::model::kept_message(error)));
                v.owner = None;
                v.updated_at = Cow::Owned(now());
                let v = v.to_owned_record();
                if v.state == VolumeState::Ready {
                    let mut details = event_details(&v);
                    details.extend(charged);
                    self.emit(
                        kind::VOLUME_UPDATE,
                        Family::HostVolume.name(),
                        &v.plugin,
                        details,
                    );
                }
                Some(v)
            }
        }
    }

    /// Drops a volume's record without its plugin (`volume forget`) and
    /// returns it, emitting `volume_forget`: what the plugin made is left
    /// as it is. For a record no delete can settle (a path plugctl will not
    /// hand to its plugin, a plugin gone for good). Not found: exit 3. A
    /// volume another live plugctl is creating or deleting is refused
    /// (exit 2): its record is that process's to settle.
    pub fn forget_volume(&mut self, id: &str, owners: &Owners) -> Result<Volume<'static>> {
        let not_found = || Error::NotFound {
            what: "volume",
            name: id.to_string(),
        };
        let v = self.volumes.get(id).ok_or_else(not_found)?;
        v.refuse_if_busy("forget", owners)?;
        let v = self
            .volumes
            .remove(id)
            .ok_or_else(not_found)?
            .to_owned_record();
        let mut details = event_details(&v);
        details.insert("state".into(), "forgotten".into());
        details.insert("was".into(), v.state.as_str().into());
        self.emit(
            kind::VOLUME_FORGET,
            Family::HostVolume.name(),
            &v.plugin,
            details,
        );
        Ok(v)
    }

    /// Takes over a `pending` or `deleting` record whose owner is gone (for
    /// `volume repair`) and returns it; `None` when it is not such a record.
    pub fn claim_interrupted_volume(
        &mut self,
        id: &str,
        owners: &Owners,
    ) -> Option<Volume<'static>> {
        let v = self.volumes.get_mut(id)?;
        if v.state == VolumeState::Ready || v.in_progress(owners) {
            return None;
        }
        v.owner = Some(owners.me());
        Some(v.to_owned_record())
    }

    /// Removes a `pending` record after its rollback (the plugin's delete)
    /// succeeded, emitting `volume_delete` (with the delete's usage, which
    /// is tallied).
    pub fn drop_rolled_back_volume(
        &mut self,
        id: &str,
        usage: Option<&Usage>,
    ) -> Option<Volume<'static>> {
        if self.volumes.get(id)?.state != VolumeState::Pending {
            return None;
        }
        let v = self.volumes.remove(id)?;
        let mut details = event_details(&v);
        details.insert("state".into(), "deleted".into());
        details.insert("was".into(), "pending".into());
        details.insert("rolled_back".into(), true.into());
        self.charge(
            usage.map(|usage| Charge {
                family: Family::HostVolume.name(),
                name: &v.plugin,
                operation: Operation::Delete,
                ok: true,
                usage,
            }),
            &mut details,
        );
        self.emit(
            kind::VOLUME_DELETE,
            Family::HostVolume.name(),
            &v.plugin,
            details,
        );
        Some(v.into_owned())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::registry::owner::tests::scratch;
    use std::collections::BTreeMap;

    /// A pending record for these, as a create makes it (owned by this
    /// process, without a liveness lock).
    pub(crate) fn volume(id: &str, name: &str) -> Volume<'static> {
        let me = Owner {
            pid: std::process::id(),
            started: 0,
            lock: None,
        };
        Volume::pending(&req(id, name), "dir", me)
    }

    const ID: &str = "11111111-2222-4333-8444-555555555555";
    const ID2: &str = "66666666-7777-4888-9999-aaaaaaaaaaaa";

    fn req(id: &str, name: &str) -> Request {
        Request {
            volumes_dir: "/vols".into(),
            plugin_dir: "/plugins".into(),
            node_pool: "default".into(),
            namespace: "default".into(),
            name: name.into(),
            id: id.into(),
            capacity_min: 0,
            capacity_max: 0,
            node_id: "node".into(),
            parameters: BTreeMap::new(),
        }
    }

    /// A pending record for these, owned by `owners`' process.
    fn proposed(owners: &Owners, id: &str, name: &str) -> Volume<'static> {
        Volume::pending(&req(id, name), "dir", owners.me())
    }

    fn created(path: &str) -> CreateOutcome {
        CreateOutcome::Created(Created {
            path: path.into(),
            bytes: 7,
            without_path: None,
        })
    }

    fn failed(uncertain: bool) -> CreateOutcome {
        CreateOutcome::Failed {
            error: "boom".into(),
            uncertain,
        }
    }

    fn kinds(s: &State) -> Vec<String> {
        s.events.iter().map(|e| e.kind.clone()).collect()
    }

    #[test]
    fn new_volume_goes_pending_then_ready() {
        let o = scratch();
        let mut s = State::default();
        let p = proposed(&o, ID, "data");
        assert_eq!(s.begin_volume_create(&p, &o).unwrap(), CreateKind::New);
        assert_eq!(s.volume(ID).unwrap().state, VolumeState::Pending);
        assert!(s.events.is_empty());
        let v = s
            .finish_volume_create(&p, CreateKind::New, created("/vols/x"), &o, None)
            .unwrap();
        assert_eq!(v.state, VolumeState::Ready);
        assert_eq!((v.path.as_ref(), v.bytes), ("/vols/x", 7));
        assert_eq!(v.owner, None);
        assert_eq!(kinds(&s), ["volume_create"]);
        assert_eq!(s.events[0].name, "dir");
        assert_eq!(s.events[0].details["volume_id"], ID);
    }

    #[test]
    fn definite_failure_removes_uncertain_keeps_pending() {
        let o = scratch();
        let mut s = State::default();
        let p = proposed(&o, ID, "data");
        s.begin_volume_create(&p, &o).unwrap();
        assert_eq!(
            s.finish_volume_create(&p, CreateKind::New, failed(false), &o, None),
            None
        );
        assert!(s.volumes.is_empty());

        s.begin_volume_create(&p, &o).unwrap();
        let v = s
            .finish_volume_create(&p, CreateKind::New, failed(true), &o, None)
            .unwrap();
        assert_eq!(v.state, VolumeState::Pending);
        assert_eq!(v.error.as_deref(), Some("boom"));
        assert_eq!(v.owner, None);
        // a later create resumes it
        assert_eq!(s.begin_volume_create(&p, &o).unwrap(), CreateKind::Resume);
        // ... and a definite failure of a resume keeps it pending for repair
        let v = s
            .finish_volume_create(&p, CreateKind::Resume, failed(false), &o, None)
            .unwrap();
        assert_eq!(v.state, VolumeState::Pending);
        assert!(s.events.is_empty());
    }

    #[test]
    fn names_are_unique_per_node_and_ids_keep_their_identity() {
        let o = scratch();
        let mut s = State::default();
        let p = proposed(&o, ID, "data");
        s.begin_volume_create(&p, &o).unwrap();
        s.finish_volume_create(&p, CreateKind::New, created("/vols/x"), &o, None);

        let e = s
            .begin_volume_create(&proposed(&o, ID2, "data"), &o)
            .unwrap_err();
        assert!(matches!(e.inner(), Error::Usage(_)), "{e}");
        assert!(
            matches!(&e, Error::Hinted { hint: Hint::CreateWithId { id, namespace: None }, .. }
                if id == ID),
            "{e:?}"
        );

        assert!(
            e.to_string()
                .contains("volume name already exists on this node"),
            "{e}"
        );

        // Another namespace is the same name on the node, as in Nomad.
        let mut other_ns = proposed(&o, ID2, "data");
        other_ns.namespace = "prod".into();
        let e = s.begin_volume_create(&other_ns, &o).unwrap_err();
        assert!(
            e.to_string()
                .contains("volume name already exists on this node"),
            "{e}"
        );
        assert!(
            matches!(&e, Error::Hinted { hint: Hint::CreateWithId { id, namespace: Some(ns) }, .. }
                if id == ID && ns == "default"),
            "{e:?}"
        );
        assert!(s.volume(ID2).is_none(), "nothing recorded");

        let mut renamed = proposed(&o, ID, "other");
        renamed.plugin = "mkdir".into();
        let e = s.begin_volume_create(&renamed, &o).unwrap_err().to_string();
        assert!(
            e.contains("name (recorded \"data\", requested \"other\")"),
            "{e}"
        );
        assert!(
            e.contains("plugin (recorded \"dir\", requested \"mkdir\")"),
            "{e}"
        );
    }

    #[test]
    fn update_success_and_failure() {
        let o = scratch();
        let mut s = State::default();
        let p = proposed(&o, ID, "data");
        s.begin_volume_create(&p, &o).unwrap();
        let first = s
            .finish_volume_create(&p, CreateKind::New, created("/vols/x"), &o, None)
            .unwrap();
        let mut bigger = proposed(&o, ID, "data");
        bigger.capacity_max = 100;
        assert_eq!(
            s.begin_volume_create(&bigger, &o).unwrap(),
            CreateKind::Update
        );
        // while the plugin runs, the record is unchanged but owned by us
        let during = s.volume(ID).unwrap();
        assert_eq!(during.owner, Some(o.me()));
        assert_eq!(
            Volume {
                owner: None,
                ..during.clone()
            },
            first
        );
        let v = s
            .finish_volume_create(&bigger, CreateKind::Update, failed(false), &o, None)
            .unwrap();
        assert_eq!(v.state, VolumeState::Ready);
        assert_eq!(v.capacity_max, 0);
        assert_eq!(v.error.as_deref(), Some("boom"));
        let v = s
            .finish_volume_create(&bigger, CreateKind::Update, created("/vols/x"), &o, None)
            .unwrap();
        assert_eq!((v.capacity_max, v.error.clone()), (100, None));
        assert_eq!(v.created_at, first.created_at);
        assert_eq!(
            kinds(&s),
            ["volume_create", "volume_update", "volume_update"]
        );
    }

    #[test]
    fn delete_life_cycle() {
        let o = scratch();
        let mut s = State::default();
        let p = proposed(&o, ID, "data");
        s.begin_volume_create(&p, &o).unwrap();
        s.finish_volume_create(&p, CreateKind::New, created("/vols/x"), &o, None);

        let before = s.begin_volume_delete(ID, &o).unwrap();
        assert_eq!(before.state, VolumeState::Ready);
        assert_eq!(s.volume(ID).unwrap().state, VolumeState::Deleting);
        // no create while deleting
        let e = s.begin_volume_create(&p, &o).unwrap_err().to_string();
        assert!(e.contains("deleting"), "{e}");
        let v = s
            .finish_volume_delete(ID, before.state, Err("busy".into()), None)
            .unwrap();
        assert_eq!(
            (v.state, v.error.as_deref()),
            (VolumeState::Ready, Some("busy"))
        );

        let before = s.begin_volume_delete(ID, &o).unwrap();
        assert_eq!(s.finish_volume_delete(ID, before.state, Ok(()), None), None);
        assert!(s.volumes.is_empty());
        assert_eq!(
            kinds(&s),
            ["volume_create", "volume_update", "volume_delete"]
        );
        assert!(matches!(
            s.begin_volume_delete(ID, &o).unwrap_err(),
            Error::NotFound { .. }
        ));
    }

    #[test]
    fn live_owners_are_respected_dead_ones_taken_over() {
        let o = scratch();
        let mut s = State::default();
        let mut p = proposed(&o, ID, "data");
        // pid 1 is alive and not us
        p.owner = Some(Owner {
            pid: 1,
            started: 0,
            lock: None,
        });
        s.volumes.insert(p.clone());
        assert!(s.volume(ID).unwrap().in_progress(&o));
        assert!(s.claim_interrupted_volume(ID, &o).is_none());
        assert!(s.begin_volume_delete(ID, &o).is_err());
        assert!(
            s.begin_volume_create(&proposed(&o, ID, "data"), &o)
                .is_err()
        );

        // a dead owner (a pid that cannot exist)
        s.volumes.get_mut(ID).unwrap().owner = Some(Owner {
            pid: u32::MAX,
            started: 0,
            lock: None,
        });
        let v = s.claim_interrupted_volume(ID, &o).unwrap();
        assert_eq!(v.owner, Some(o.me()));
        assert!(s.drop_rolled_back_volume(ID, None).is_some());
        assert_eq!(kinds(&s), ["volume_delete"]);
    }
}

//! `volume restore` and `volume repair` as batches: one transaction picks
//! every volume to work on and takes it over for this process, the plugin
//! calls run (outside the lock), and one transaction records what each
//! came to — as the single-volume steps would.

use super::{CreateKind, CreateOutcome};
use crate::Result;
use crate::families::host_volume::Created;
use crate::family::{Family, Operation};
use crate::registry::Registry;
use crate::registry::ledger::Charge;
use crate::registry::model::{State, Volume, VolumeState};
use crate::usage::Usage;

/// What a batch (`volume restore`, `volume repair`) decided for one volume
/// before any plugin ran: who it is, what it was, and what to do.
#[derive(Debug, Clone)]
pub struct Pick {
    pub id: String,
    /// Name, namespace and plugin, kept only where the record may be gone
    /// when the batch reports (a repair deletes or rolls back): elsewhere
    /// the report reads them from the record, so that a restore of 100,000
    /// volumes does not copy them all.
    pub label: Option<Box<Label>>,
    pub was: VolumeState,
    /// What to do, or why it is skipped.
    pub todo: std::result::Result<Todo, String>,
}

/// Who a volume is, for a report that outlives its record.
#[derive(Debug, Clone)]
pub struct Label {
    pub name: String,
    pub namespace: String,
    pub plugin: String,
}

/// The plugin calls a picked volume gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Todo {
    /// restore: re-run create (an update of a ready volume, or the resume
    /// of a pending one).
    Create(CreateKind),
    /// repair of a `pending` volume: create again, and delete when that
    /// fails (a rollback).
    CreateOrRollBack,
    /// repair of a `deleting` volume: delete again.
    Delete,
}

/// How one picked volume's plugin calls ended, to be recorded, each with
/// what its call cost when it ran (tallied, and put in its event).
#[derive(Debug, Clone)]
pub enum Settle {
    Create(CreateKind, CreateOutcome, Option<Usage>),
    /// The create succeeded at the path the record holds, with this size.
    Recreated(CreateKind, i64, Option<Usage>),
    /// A rollback's delete succeeded: the `pending` record goes. The
    /// failed create's usage, then the delete's.
    RolledBack(Option<Usage>, Option<Usage>),
    /// The create failed (as [`Settle::Create`] records it), and so did
    /// the delete that would have rolled it back: its usage.
    RollBackFailed(CreateKind, CreateOutcome, Option<Usage>, Option<Usage>),
    Delete(std::result::Result<(), String>, Option<Usage>),
}

impl Pick {
    fn of(v: &Volume<'_>, todo: std::result::Result<Todo, String>) -> Pick {
        let keep_label = matches!(todo, Ok(Todo::Delete | Todo::CreateOrRollBack));
        Pick {
            id: v.id.to_string(),
            label: keep_label.then(|| {
                Box::new(Label {
                    name: v.name.to_string(),
                    namespace: v.namespace.to_string(),
                    plugin: v.plugin.to_string(),
                })
            }),
            was: v.state,
            todo,
        }
    }
}

/// The batches' named transactions.
impl Registry {
    /// `volume restore`'s first step, one transaction: every volume in
    /// (namespace, name, id) order; a ready one re-runs create as it is and
    /// a pending one is taken over — both owned by this process until their
    /// create is settled — unless another live plugctl works on it; a
    /// deleting one is left to `repair`.
    pub async fn begin_restore(&self) -> Result<Vec<Pick>> {
        self.require_liveness()?;
        let owners = self.owners();
        let me = owners.me();
        self.update(|state| {
            let ids: Vec<String> = state
                .volumes_sorted()
                .iter()
                .map(|v| v.id.to_string())
                .collect();
            let mut out = Vec::with_capacity(ids.len());
            for id in ids {
                let Some(v) = state.volumes.get_mut(&id) else {
                    continue;
                };
                let todo = if let Some(o) = v.owner.filter(|o| owners.is_other_live(o)) {
                    Err(format!("plugctl pid {} is working on it", o.pid))
                } else {
                    match v.state {
                        // Owned while its create re-runs: a `volume delete`
                        // meanwhile is refused, rather than the restore
                        // making again what the delete just removed.
                        VolumeState::Ready => {
                            v.owner = Some(me);
                            Ok(Todo::Create(CreateKind::Update))
                        }
                        VolumeState::Pending => {
                            v.owner = Some(me);
                            Ok(Todo::Create(CreateKind::Resume))
                        }
                        VolumeState::Deleting => {
                            Err("its delete was interrupted; run volume repair".into())
                        }
                    }
                };
                out.push(Pick::of(v, todo));
            }
            Ok(out)
        })
        .await
    }

    /// `volume repair`'s first step, one transaction: every `pending` or
    /// `deleting` volume whose owner is gone is taken over; one another
    /// live plugctl works on is skipped, saying which.
    pub async fn begin_repair(&self) -> Result<Vec<Pick>> {
        self.require_liveness()?;
        let owners = self.owners();
        owners.sweep();
        self.update(|state| {
            let ids: Vec<String> = state
                .volumes_sorted()
                .iter()
                .filter(|v| v.state != VolumeState::Ready)
                .map(|v| v.id.to_string())
                .collect();
            let mut out = Vec::with_capacity(ids.len());
            for id in ids {
                let pick = match state.claim_interrupted_volume(&id, owners) {
                    Some(v) => {
                        let todo = if v.state == VolumeState::Deleting {
                            Todo::Delete
                        } else {
                            Todo::CreateOrRollBack
                        };
                        Pick::of(&v, Ok(todo))
                    }
                    None => {
                        let Some(v) = state.volume(&id) else { continue };
                        let pid = v.owner.map(|o| o.pid).unwrap_or_default();
                        Pick::of(v, Err(format!("plugctl pid {pid} is working on it")))
                    }
                };
                out.push(pick);
            }
            Ok(out)
        })
        .await
    }

    /// A batch's last step, one transaction: what each volume's plugin
    /// calls came to, recorded as the single-volume steps would (see
    /// [`State::finish_volume_create`](crate::registry::State::finish_volume_create), [`State::finish_volume_delete`](crate::registry::State::finish_volume_delete)).
    pub async fn finish_batch<'i>(
        &self,
        settled: impl Iterator<Item = (&'i str, Settle)>,
    ) -> Result<()> {
        let owners = self.owners();
        self.update(|state| {
            for (id, settle) in settled {
                match settle {
                    Settle::Create(kind, outcome, usage) => {
                        // The record as it is: a restore re-runs what it holds.
                        let Some(current) = state.volume(id).map(Volume::to_owned_record) else {
                            continue;
                        };
                        state.settle_create(&current, kind, outcome, owners, usage.as_ref());
                    }
                    Settle::Recreated(kind, bytes, usage) => {
                        let Some(current) = state.volume(id).map(Volume::to_owned_record) else {
                            continue;
                        };
                        let outcome = CreateOutcome::Created(Created {
                            path: current.path.to_string(),
                            bytes,
                            without_path: None,
                        });
                        state.settle_create(&current, kind, outcome, owners, usage.as_ref());
                    }
                    Settle::RolledBack(create, delete) => {
                        // The failed create has no event of its own: only
                        // its tally.
                        charge_alone(state, id, Operation::Create, create.as_ref());
                        state.drop_rolled_back_volume(id, delete.as_ref());
                    }
                    Settle::RollBackFailed(kind, outcome, create, delete) => {
                        charge_alone(state, id, Operation::Delete, delete.as_ref());
                        let Some(current) = state.volume(id).map(Volume::to_owned_record) else {
                            continue;
                        };
                        state.settle_create(&current, kind, outcome, owners, create.as_ref());
                    }
                    Settle::Delete(result, usage) => {
                        state.finish_volume_delete(id, VolumeState::Ready, result, usage.as_ref());
                    }
                }
            }
            Ok(())
        })
        .await
    }
}

/// Tallies a failed call of volume `id`'s plugin that no event reports
/// (a repair's create that was rolled back, a rollback that failed).
fn charge_alone(state: &mut State<'_>, id: &str, operation: Operation, usage: Option<&Usage>) {
    let (Some(usage), Some(v)) = (usage, state.volume(id)) else {
        return;
    };
    let plugin = v.plugin.to_string();
    let call = Charge {
        family: Family::HostVolume.name(),
        name: &plugin,
        operation,
        ok: false,
        usage,
    };
    state.charge(Some(call), &mut serde_json::Map::new());
}

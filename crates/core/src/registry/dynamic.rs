//! The dynamic plugin registry: register and deregister, with Nomad's semantics.
//!
//! Plugins that run as long-lived tasks (CSI controller and node plugins in a
//! Nomad allocation) announce themselves with a control socket. As in Nomad's
//! `client/dynamicplugins` registry:
//!
//! - plugins are keyed by type and name, each with a list of instances, one
//!   per allocation id, **most recent registration first**; the first one is
//!   the current instance;
//! - registering an allocation that is already present changes nothing (it
//!   does not even move to the front: a client restoring its allocations in
//!   any order must not change which one is current);
//! - deregistering an unknown name, or an allocation that is not (or no
//!   longer) present, is a success that changes nothing;
//! - when the current instance leaves, the next one becomes current.
//!
//! Unlike Nomad, an event is emitted only for a change that happened: Nomad's
//! deregister announced the last instance it looked at when the allocation
//! was not there; here a no-op emits nothing, so every event in the log is a
//! real change.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use serde_json::{Map, Value};

use super::model::{self, Instance, Source, State, kind};
use crate::discovery;
use crate::{Error, Result};

/// Nomad's dynamic plugin types (`dynamicplugins.PluginTypeCSIController`, ...).
pub const CSI_CONTROLLER: &str = "csi-controller";
pub const CSI_NODE: &str = "csi-node";

/// The types `plugin register` and `plugin deregister` accept. A CSI
/// "monolith" plugin registers once as each.
pub const TYPES: &[&str] = &[CSI_CONTROLLER, CSI_NODE];

/// Whether a type can be a dynamic plugin's: Nomad's registry takes any
/// non-empty type (`csi-controller` and `csi-node` are the ones Nomad itself
/// uses, [`TYPES`]); the families plugctl fingerprints are not, so the two
/// never share a listing.
pub fn is_dynamic_type(family: &str) -> bool {
    crate::family::Family::of(family).is_none() && crate::discovery::check_name(family).is_ok()
}

/// A usage error unless `family` can be a dynamic plugin type.
pub fn check_type(family: &str) -> Result<()> {
    if family.is_empty() {
        return Err(Error::usage(format!(
            "the plugin type must not be empty (Nomad itself uses {})",
            TYPES.join(", ")
        )));
    }
    if crate::family::Family::of(family).is_some() {
        return Err(Error::usage(format!(
            "{family_q} is a family plugctl fingerprints from the plugin directory, not a dynamic \
             plugin type; register a long-lived plugin under its own type (Nomad uses {})",
            TYPES.join(", "),
            family_q = crate::escape::quote(family)
        )));
    }
    crate::discovery::require_name("plugin type", family)
}

fn check_name(name: &str) -> Result<()> {
    if name.is_empty() {
        return Err(Error::usage("the plugin name must not be empty"));
    }
    discovery::require_name("plugin", name)
}

/// The longest allocation id taken. Nomad's are UUIDs (36 characters);
/// anything much longer is not an id, and would be copied into every event
/// and every read of the registry.
pub const ALLOC_ID_MAX: usize = 128;

fn check_alloc_id(alloc_id: &str) -> Result<()> {
    if alloc_id.trim().is_empty() {
        return Err(Error::usage("the allocation id must not be empty"));
    }
    if alloc_id.len() > ALLOC_ID_MAX {
        return Err(Error::usage(format!(
            "the allocation id is {} bytes long; an allocation id (a UUID in Nomad) is at most \
             {ALLOC_ID_MAX}",
            alloc_id.len()
        )));
    }
    if alloc_id.chars().any(char::is_control) {
        return Err(Error::usage(format!(
            "the allocation id {alloc_id_q} contains a control character",
            alloc_id_q = crate::escape::quote(alloc_id)
        )));
    }
    Ok(())
}

/// What `plugin register` records.
#[derive(Debug, Clone, PartialEq)]
pub struct Registration {
    pub family: String,
    pub name: String,
    pub alloc_id: String,
    /// The plugin's control socket (Nomad's `ConnectionInfo.SocketPath`).
    pub socket: PathBuf,
    pub version: Option<String>,
    pub options: BTreeMap<String, String>,
}

impl Registration {
    /// Every missing piece is a usage error that says which.
    pub fn validate(&self) -> Result<()> {
        check_type(&self.family)?;
        check_name(&self.name)?;
        check_alloc_id(&self.alloc_id)?;
        if let Some(version) = &self.version {
            crate::families::recordable_version(version)
                .map_err(|why| Error::usage(format!("the plugin's version: {why}")))?;
        }
        if self.socket.as_os_str().is_empty() {
            return Err(Error::usage(
                "the socket path (connection info) must not be empty",
            ));
        }
        Ok(())
    }

    fn instance(&self) -> Instance {
        Instance {
            source: Source::Dynamic,
            path: None,
            alloc_id: Some(self.alloc_id.clone()),
            socket: Some(self.socket.clone()),
            version: self.version.clone().filter(|v| !v.is_empty()),
            // Registered means running, as far as the task knows; readers
            // probe the socket for the live answer.
            healthy: true,
            error: None,
            duration_ms: None,
            options: self.options.clone(),
            updated_at: model::now(),
            file: None,
        }
    }
}

/// What a register did.
#[derive(Debug, Clone, PartialEq)]
pub enum Registered {
    /// A new instance, now the current one; the event's sequence number.
    Added { seq: u64, instance: Instance },
    /// The allocation was already registered; nothing changed (this is the
    /// instance as it stays, which may differ from what was asked).
    Unchanged { existing: Instance, current: bool },
}

/// What a deregister did.
// Made once per command and matched at once: boxing would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Deregistered {
    /// The instance was removed; `current` is the instance that is current
    /// now (the handover), if any is left.
    Removed {
        seq: u64,
        removed: Instance,
        was_current: bool,
        current: Option<Instance>,
    },
    /// No such plugin, or no such allocation: nothing changed.
    NotRegistered,
}

/// The dynamic registry's named transactions.
impl super::Registry {
    /// `plugin register` (see [`State::register`]).
    pub async fn register(&self, reg: &Registration) -> Result<Registered> {
        self.update(|state| state.register(reg)).await
    }

    /// `plugin deregister` (see [`State::deregister`]).
    pub async fn deregister(
        &self,
        family: &str,
        name: &str,
        alloc_id: &str,
    ) -> Result<Deregistered> {
        self.update(|state| state.deregister(family, name, alloc_id))
            .await
    }
}

fn is_alloc(inst: &Instance, alloc_id: &str) -> bool {
    inst.source == Source::Dynamic && inst.alloc_id.as_deref() == Some(alloc_id)
}

impl State<'_> {
    /// Registers an instance as the most recent one of its plugin. An
    /// allocation that is already registered is left as it is, where it is,
    /// and no event is emitted.
    pub fn register(&mut self, reg: &Registration) -> Result<Registered> {
        reg.validate()?;
        let list = self
            .plugins
            .entry(reg.family.clone())
            .or_default()
            .entry(reg.name.clone())
            .or_default();
        if let Some(at) = list.iter().position(|i| is_alloc(i, &reg.alloc_id)) {
            return Ok(Registered::Unchanged {
                existing: list[at].clone(),
                current: at == 0,
            });
        }
        let inst = reg.instance();
        let mut details = Map::new();
        details.insert("alloc_id".into(), reg.alloc_id.clone().into());
        details.insert("socket".into(), path_value(&reg.socket));
        details.insert("version".into(), inst.version.clone().into());
        if !inst.options.is_empty() {
            details.insert(
                "options".into(),
                serde_json::to_value(&inst.options).unwrap_or(Value::Null),
            );
        }
        // The instance it displaces as current, if any.
        if let Some(prev) = list.first() {
            details.insert("previous_alloc_id".into(), prev.alloc_id.clone().into());
        }
        list.insert(0, inst.clone());
        let seq = self.emit(kind::REGISTER, &reg.family, &reg.name, details);
        Ok(Registered::Added {
            seq,
            instance: inst,
        })
    }

    /// Removes the instance of this allocation. An unknown name or an
    /// allocation that is not registered is a success that changes nothing;
    /// an unknown type is an error. When the current instance leaves, the
    /// next most recent one becomes current.
    pub fn deregister(&mut self, family: &str, name: &str, alloc_id: &str) -> Result<Deregistered> {
        check_type(family)?;
        check_name(name)?;
        check_alloc_id(alloc_id)?;
        let Some(plugins) = self.plugins.get_mut(family) else {
            return Ok(Deregistered::NotRegistered);
        };
        let Some(list) = plugins.get_mut(name) else {
            return Ok(Deregistered::NotRegistered);
        };
        let Some(at) = list.iter().position(|i| is_alloc(i, alloc_id)) else {
            return Ok(Deregistered::NotRegistered);
        };
        let removed = list.remove(at);
        let current = list.first().cloned();
        if list.is_empty() {
            plugins.remove(name);
            if plugins.is_empty() {
                self.plugins.remove(family);
            }
        }
        let mut details = Map::new();
        details.insert("alloc_id".into(), alloc_id.into());
        if let Some(s) = &removed.socket {
            details.insert("socket".into(), path_value(s));
        }
        details.insert("version".into(), removed.version.clone().into());
        details.insert("was_current".into(), (at == 0).into());
        details.insert(
            "current_alloc_id".into(),
            current.as_ref().and_then(|c| c.alloc_id.clone()).into(),
        );
        let seq = self.emit(kind::DEREGISTER, family, name, details);
        Ok(Deregistered::Removed {
            seq,
            removed,
            was_current: at == 0,
            current,
        })
    }

    /// The current (most recent) instance of a plugin.
    pub fn current(&self, family: &str, name: &str) -> Option<&Instance> {
        self.instances(family, name).first()
    }

    /// The instance of one allocation (Nomad's `PluginForAlloc`).
    pub fn instance_for_alloc(
        &self,
        family: &str,
        name: &str,
        alloc_id: &str,
    ) -> Option<&Instance> {
        self.instances(family, name)
            .iter()
            .find(|i| is_alloc(i, alloc_id))
    }
}

fn path_value(p: &Path) -> Value {
    p.to_string_lossy().into_owned().into()
}

// ---------------------------------------------------------------------------
// Socket health

/// Whether a plugin's socket exists and accepts a connection, right now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SocketStatus {
    /// The path exists (whatever it is).
    pub exists: bool,
    /// A connection was accepted.
    pub accepts: bool,
    /// Why not, when it does not.
    pub error: Option<String>,
}

impl SocketStatus {
    pub fn healthy(&self) -> bool {
        self.accepts
    }
}

/// How long a connection attempt may take before the socket counts as not
/// accepting (a listener whose backlog is full makes `connect` block).
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(1);

#[cfg(test)]
mod tests {
    use super::*;

    fn reg(family: &str, name: &str, alloc: &str) -> Registration {
        Registration {
            family: family.into(),
            name: name.into(),
            alloc_id: alloc.into(),
            socket: format!("/run/{alloc}/csi.sock").into(),
            version: Some("1.2.3".into()),
            options: BTreeMap::new(),
        }
    }

    fn allocs(s: &State, family: &str, name: &str) -> Vec<String> {
        s.instances(family, name)
            .iter()
            .map(|i| i.alloc_id.clone().unwrap())
            .collect()
    }

    #[test]
    fn most_recent_registration_is_current() {
        let mut s = State::default();
        assert!(matches!(
            s.register(&reg(CSI_NODE, "p", "a1")).unwrap(),
            Registered::Added { seq: 1, .. }
        ));
        assert!(matches!(
            s.register(&reg(CSI_NODE, "p", "a2")).unwrap(),
            Registered::Added { seq: 2, .. }
        ));
        assert_eq!(allocs(&s, CSI_NODE, "p"), ["a2", "a1"]);
        assert_eq!(
            s.current(CSI_NODE, "p").unwrap().alloc_id.as_deref(),
            Some("a2")
        );
        let inst = s.instance_for_alloc(CSI_NODE, "p", "a1").unwrap();
        assert_eq!(inst.socket.as_deref(), Some(Path::new("/run/a1/csi.sock")));
        assert_eq!(inst.source, Source::Dynamic);
        let ev = s.events.last().unwrap();
        assert_eq!(ev.kind, kind::REGISTER);
        assert_eq!(ev.details["alloc_id"], "a2");
        assert_eq!(ev.details["previous_alloc_id"], "a1");
    }

    #[test]
    fn re_register_changes_nothing_and_keeps_position() {
        // Nomad: a client restoring allocations in the opposite order must
        // not make the older one current.
        let mut s = State::default();
        s.register(&reg(CSI_NODE, "p", "a0")).unwrap();
        s.register(&reg(CSI_NODE, "p", "a1")).unwrap();
        let mut again = reg(CSI_NODE, "p", "a0");
        again.socket = "/elsewhere.sock".into();
        match s.register(&again).unwrap() {
            Registered::Unchanged { existing, current } => {
                assert!(!current);
                assert_eq!(
                    existing.socket.as_deref(),
                    Some(Path::new("/run/a0/csi.sock"))
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(allocs(&s, CSI_NODE, "p"), ["a1", "a0"]);
        assert_eq!(s.seq, 2);
        assert_eq!(s.events.len(), 2);
    }

    #[test]
    fn types_are_isolated() {
        let mut s = State::default();
        s.register(&reg(CSI_CONTROLLER, "p", "a")).unwrap();
        s.register(&reg(CSI_NODE, "p", "a")).unwrap();
        s.deregister(CSI_CONTROLLER, "p", "a").unwrap();
        assert!(s.current(CSI_CONTROLLER, "p").is_none());
        assert!(s.current(CSI_NODE, "p").is_some());
    }

    #[test]
    fn deregister_is_tolerant_and_silent_when_nothing_changes() {
        let mut s = State::default();
        assert_eq!(
            s.deregister(CSI_NODE, "never", "a").unwrap(),
            Deregistered::NotRegistered
        );
        s.register(&reg(CSI_NODE, "p", "a1")).unwrap();
        s.register(&reg(CSI_NODE, "p", "a2")).unwrap();
        // An allocation that never registered (crashed first) — Nomad
        // announced the wrong instance here; nothing must happen.
        assert_eq!(
            s.deregister(CSI_NODE, "p", "crashed").unwrap(),
            Deregistered::NotRegistered
        );
        assert_eq!(s.seq, 2);
        assert_eq!(allocs(&s, CSI_NODE, "p"), ["a2", "a1"]);
        // Twice: the second is a no-op.
        assert!(matches!(
            s.deregister(CSI_NODE, "p", "a1").unwrap(),
            Deregistered::Removed {
                seq: 3,
                was_current: false,
                ..
            }
        ));
        assert_eq!(
            s.deregister(CSI_NODE, "p", "a1").unwrap(),
            Deregistered::NotRegistered
        );
        assert_eq!(s.seq, 3);
    }

    #[test]
    fn current_leaving_hands_over_to_the_previous() {
        let mut s = State::default();
        for a in ["a1", "a2", "a3"] {
            s.register(&reg(CSI_NODE, "p", a)).unwrap();
        }
        match s.deregister(CSI_NODE, "p", "a3").unwrap() {
            Deregistered::Removed {
                was_current,
                current,
                removed,
                ..
            } => {
                assert!(was_current);
                assert_eq!(removed.alloc_id.as_deref(), Some("a3"));
                assert_eq!(current.unwrap().alloc_id.as_deref(), Some("a2"));
            }
            other => panic!("{other:?}"),
        }
        let ev = s.events.last().unwrap();
        assert_eq!(ev.kind, kind::DEREGISTER);
        assert_eq!(ev.details["current_alloc_id"], "a2");
        assert_eq!(ev.details["was_current"], true);
        s.deregister(CSI_NODE, "p", "a2").unwrap();
        s.deregister(CSI_NODE, "p", "a1").unwrap();
        // The last one gone: the plugin and its empty type are gone too.
        assert!(s.plugins.is_empty());
        assert_eq!(
            s.events.last().unwrap().details["current_alloc_id"],
            Value::Null
        );
    }

    #[test]
    fn validation_names_what_is_missing() {
        let mut s = State::default();
        let cases: [(Registration, &str); 7] = [
            (reg("", "p", "a"), "type must not be empty"),
            (
                reg(crate::family::Family::HostVolume.name(), "p", "a"),
                "not a dynamic plugin type",
            ),
            (reg("a\nb", "p", "a"), "control character"),
            (reg(CSI_NODE, "", "a"), "name must not be empty"),
            (reg(CSI_NODE, "a/b", "a"), "contains '/'"),
            (reg(CSI_NODE, "p", " "), "allocation id must not be empty"),
            (
                Registration {
                    socket: PathBuf::new(),
                    ..reg(CSI_NODE, "p", "a")
                },
                "socket path",
            ),
        ];
        for (r, want) in cases {
            let e = s.register(&r).unwrap_err();
            assert!(matches!(e, crate::Error::Usage(_)), "{e}");
            assert!(e.to_string().contains(want), "{e} / {want}");
        }
        let e = s
            .deregister(crate::family::Family::Secrets.name(), "p", "a")
            .unwrap_err();
        assert!(e.to_string().contains("\"secrets\""), "{e}");
        assert!(e.to_string().contains("csi-controller, csi-node"), "{e}");
        assert!(s.deregister(CSI_NODE, "p", "").is_err());
        assert_eq!(s.seq, 0);
        assert!(s.plugins.is_empty(), "a refused register leaves no trace");
        // Any other non-empty type is Nomad's registry's business.
        assert!(s.register(&reg("device", "p", "a")).is_ok());
    }

    #[test]
    fn fingerprinted_instances_are_not_allocations() {
        let mut s = State::default();
        s.plugins
            .entry(CSI_NODE.into())
            .or_default()
            .entry("p".into())
            .or_default()
            .push(Instance {
                source: Source::File,
                path: Some("/p".into()),
                alloc_id: None,
                socket: None,
                version: None,
                healthy: true,
                error: None,
                duration_ms: Some(1),
                options: BTreeMap::new(),
                updated_at: model::now(),
                file: None,
            });
        assert_eq!(
            s.deregister(CSI_NODE, "p", "a").unwrap(),
            Deregistered::NotRegistered
        );
        s.register(&reg(CSI_NODE, "p", "a")).unwrap();
        assert_eq!(s.instances(CSI_NODE, "p").len(), 2);
    }
}

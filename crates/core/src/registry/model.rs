//! What the registry file holds. Field names are the file format. A new
//! optional field is readable by older plugctls, but an older plugctl that
//! rewrites the file drops what it does not know (keeping unknown fields
//! would cost a buffered parse of every volume). So: a field whose loss is
//! harmless may be added freely; data that must survive an older writer
//! needs a `schema_version` bump, which older plugctls refuse to overwrite.
//! Renaming a field needs a bump and a migration.

use crate::error::Hint;
use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::ledger::{Charge, Ledger};
use crate::usage::Usage;

pub use super::records::{Owner, Params, Text, Volume, VolumeState, Volumes};

/// The format this plugctl writes. A file with a larger number is refused.
/// 2: the event log lives in the journal beside the file (a file of
/// schema 1 kept it in `events`; it moves at the first write, and an older
/// plugctl refuses to overwrite what it would lose).
pub const SCHEMA_VERSION: u32 = 2;

/// Where the committed journal ends, as the registry records it (a segment
/// number and a byte offset in it; see [`super::journal`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize)]
pub struct Pos {
    pub segment: u64,
    pub offset: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct State<'a> {
    pub schema_version: u32,
    /// A fresh token on every write, kept near the top of the file: a
    /// process that sees its own token there knows nobody wrote since, and
    /// can reuse the state it holds instead of parsing the file again.
    #[serde(default)]
    pub write_id: String,
    /// Stable node id passed to plugins, made on first use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_id: Option<String>,
    /// The last sequence number handed out to an event.
    #[serde(default)]
    pub seq: u64,
    /// Where the committed journal ends (see [`super::journal`]); absent
    /// before the first write of schema 2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub journal: Option<Pos>,
    /// family → name → instances, most recent first.
    #[serde(default)]
    pub plugins: BTreeMap<String, BTreeMap<String, Vec<Instance>>>,
    /// id → volume.
    #[serde(default, borrow)]
    pub volumes: Volumes<'a>,
    /// Events emitted by the transaction under way: the journal gets them
    /// when it commits, the file never does. (A schema 1 file kept its log
    /// here: read, it is moved to the journal at the first write.)
    #[serde(default, skip_serializing)]
    pub events: Vec<Event>,
    /// Every event ever emitted, counted by family → kind → result ("ok" or
    /// "error"): monotonic, unlike the capped log, so it can back a
    /// Prometheus counter (`plugctl metrics`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub operations: BTreeMap<String, BTreeMap<String, BTreeMap<String, u64>>>,
    /// What the plugins' calls cost, tallied by plugin, operation and
    /// result (see [`super::ledger`]): monotonic too, for the metrics'
    /// histograms.
    #[serde(default, skip_serializing_if = "Ledger::is_empty")]
    pub usage: Ledger,
    /// The current journal segment's length when this state was read, if
    /// nothing uncommitted followed its end: a read a transaction may
    /// start from (see `Registry::keep`). Never in the file.
    #[serde(skip)]
    pub(crate) clean_journal_len: Option<u64>,
}

/// Whether an event records a success: its `healthy` or `success` flag, else
/// the absence of an `error`.
pub fn result_of(details: &Map<String, Value>) -> &'static str {
    let ok = match (details.get("healthy"), details.get("success")) {
        (Some(Value::Bool(b)), _) | (_, Some(Value::Bool(b))) => *b,
        _ => details.get("error").is_none_or(Value::is_null),
    };
    if ok { "ok" } else { "error" }
}

impl Default for State<'_> {
    fn default() -> Self {
        State {
            schema_version: SCHEMA_VERSION,
            write_id: String::new(),
            node_id: None,
            seq: 0,
            journal: None,
            plugins: BTreeMap::new(),
            volumes: Volumes::default(),
            events: Vec::new(),
            operations: BTreeMap::new(),
            usage: Ledger::default(),
            clean_journal_len: None,
        }
    }
}

/// Where an instance came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// An executable found in a plugin directory and fingerprinted.
    File,
    /// Implemented by Nomad itself (mkdir, nomad, vault).
    Builtin,
    /// Registered by a long-lived task through `plugin register`.
    Dynamic,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Instance {
    pub source: Source,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<PathBuf>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alloc_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub socket: Option<PathBuf>,
    pub version: Option<String>,
    pub healthy: bool,
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, String>,
    /// When this instance was last fingerprinted or registered (RFC 3339).
    pub updated_at: String,
    /// The plugin file as it was when fingerprinted: a cheap stat that says
    /// whether the file that answered is still the one on disk.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<FileStamp>,
}

/// Size, modification time and inode of a plugin file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileStamp {
    pub size: u64,
    pub mtime_ns: i128,
    pub inode: u64,
}

impl FileStamp {
    /// The file `path` names now (symlinks followed, as exec does).
    pub fn of(path: &std::path::Path) -> std::io::Result<FileStamp> {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(path)?;
        Ok(FileStamp {
            size: m.size(),
            mtime_ns: i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()),
            inode: m.ino(),
        })
    }
}

impl State<'_> {
    /// Health as the disk has it now: a fingerprinted plugin file that is
    /// gone, no longer a regular file, without its execute bit, or changed
    /// since it answered, is not healthy whatever the record says (in
    /// memory only; `fingerprint` records the truth). The words are
    /// [`crate::verdict`]'s, as `fingerprint` says them, with what would
    /// change them worded by `words` (the front end's: message and hint to
    /// text).
    pub fn check_files(&mut self, words: &dyn Fn(&str, &Hint) -> String) {
        for (family, plugins) in self.plugins.iter_mut() {
            for (name, instances) in plugins.iter_mut() {
                for inst in instances.iter_mut() {
                    if inst.source != Source::File {
                        continue;
                    }
                    let Some(path) = &inst.path else { continue };
                    let why = match crate::verdict::file_problem(path) {
                        // Recorded with its cause already (`not run: not a
                        // regular file: ...`): as recorded.
                        Some(problem)
                            if inst.error.as_deref().is_some_and(|e| e.contains(&problem)) =>
                        {
                            None
                        }
                        Some(problem) if crate::verdict::is_deleted(&problem) => {
                            Some(words(&problem, &crate::verdict::forget(family, name)))
                        }
                        Some(problem) => Some(problem),
                        None if !inst.healthy => None,
                        None => match (FileStamp::of(path), &inst.file) {
                            (Ok(now), Some(then)) if now != *then => Some(words(
                                &format!(
                                    "changed on disk since its fingerprint ({})",
                                    path.display()
                                ),
                                &Hint::FingerprintAgain,
                            )),
                            _ => None,
                        },
                    };
                    if let Some(why) = why {
                        inst.healthy = false;
                        inst.error = Some(why);
                    }
                }
            }
        }
    }

    /// Marks plugins that `fingerprint` no longer found in their directory
    /// (family, name, the reason): their current file instance unhealthy
    /// with that reason, and a `gone` event, once per reason.
    pub fn mark_missing(&mut self, missing: &[(String, String, String)]) {
        for (family, name, reason) in missing {
            let Some(inst) = self
                .plugins
                .get_mut(family)
                .and_then(|p| p.get_mut(name))
                .and_then(|list| list.first_mut())
            else {
                continue;
            };
            if inst.source != Source::File
                || (!inst.healthy && inst.error.as_deref() == Some(reason.as_str()))
            {
                continue;
            }
            inst.healthy = false;
            inst.error = Some(reason.clone());
            inst.updated_at = now();
            let mut details = Map::new();
            details.insert("healthy".into(), false.into());
            details.insert("error".into(), reason.clone().into());
            self.emit(kind::GONE, family, name, details);
        }
    }

    /// Forgets a plugin (every instance) and says so with a `forgotten`
    /// event; false when the registry does not know it.
    pub fn forget(&mut self, family: &str, name: &str) -> bool {
        let Some(plugins) = self.plugins.get_mut(family) else {
            return false;
        };
        if plugins.remove(name).is_none() {
            return false;
        }
        if plugins.is_empty() {
            self.plugins.remove(family);
        }
        self.usage.forget(family, name);
        self.emit(kind::FORGOTTEN, family, name, Map::new());
        true
    }
}

impl Instance {
    /// Two records describe the same instance: the same file, the same
    /// allocation, or the same built-in.
    pub fn same_as(&self, other: &Instance) -> bool {
        self.source == other.source
            && match self.source {
                Source::File => self.path == other.path,
                Source::Dynamic => self.alloc_id == other.alloc_id,
                Source::Builtin => true,
            }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub seq: u64,
    pub kind: String,
    #[serde(rename = "type")]
    pub family: String,
    pub name: String,
    pub time: String,
    #[serde(flatten)]
    pub details: Map<String, Value>,
}

/// Event kinds, as they appear in `plugctl events`.
pub mod kind {
    pub const FINGERPRINT: &str = "fingerprint";
    /// A fingerprinted plugin's file disappeared from its directory.
    pub const GONE: &str = "gone";
    /// `plugin forget` removed a plugin no longer in its directory.
    pub const FORGOTTEN: &str = "forgotten";
    pub const REGISTER: &str = "register";
    pub const DEREGISTER: &str = "deregister";
    pub const VOLUME_CREATE: &str = "volume_create";
    pub const VOLUME_UPDATE: &str = "volume_update";
    pub const VOLUME_DELETE: &str = "volume_delete";
    /// `volume forget` dropped a volume's record; its plugin never ran.
    pub const VOLUME_FORGET: &str = "volume_forget";
    pub const SECRET_FETCH: &str = "secret_fetch";
}

/// A usage as an event holds it.
pub fn usage_json(usage: &Usage) -> Value {
    serde_json::to_value(usage).unwrap_or(Value::Null)
}

pub fn now() -> String {
    humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string()
}

impl State<'_> {
    /// Appends an event with the next sequence number. Only call inside a
    /// registry transaction: the number is only unique under the lock.
    pub fn emit(
        &mut self,
        kind: &str,
        family: &str,
        name: &str,
        details: Map<String, Value>,
    ) -> u64 {
        self.seq += 1;
        *self
            .operations
            .entry(family.to_string())
            .or_default()
            .entry(kind.to_string())
            .or_default()
            .entry(result_of(&details).to_string())
            .or_default() += 1;
        self.events.push(Event {
            seq: self.seq,
            kind: kind.to_string(),
            family: family.to_string(),
            name: name.to_string(),
            time: now(),
            details,
        });
        self.seq
    }

    /// Tallies one call in the ledger (see [`super::ledger`]), as ending
    /// now, and puts its usage in `details`, the event that reports it (if
    /// one is emitted). Nothing without a usage (a built-in, a call never
    /// started, a pool that does not account).
    pub fn charge(&mut self, call: Option<Charge<'_>>, details: &mut Map<String, Value>) {
        let Some(call) = call else {
            return;
        };
        self.usage.charge(call, &now());
        details.insert("usage".into(), usage_json(call.usage));
    }

    /// plugctl's own node id, made (and so kept) on first use
    /// ([`crate::node::first_own_node_id`]).
    pub fn node_id(&mut self) -> String {
        self.node_id
            .get_or_insert_with(crate::node::first_own_node_id)
            .clone()
    }

    /// The id [`State::node_id`] gives, without keeping it: what a dry run
    /// shows.
    pub fn node_id_to_be(&self) -> String {
        self.node_id
            .clone()
            .unwrap_or_else(crate::node::first_own_node_id)
    }

    /// Nomad never places a volume, or registers a secrets provider, on a
    /// node whose last fingerprint of that plugin failed (scheduler/feasible):
    /// a plugin whose latest fingerprint here is unhealthy is unavailable
    /// (a usage error, before it runs), saying why. One never fingerprinted
    /// is available (plugctl is also used before a first fingerprint, as in
    /// a plugin's own tests).
    pub fn require_available(
        &self,
        family: crate::family::Family,
        name: &str,
        operation: crate::family::Operation,
    ) -> crate::Result<()> {
        let Some(inst) = self
            .instances(family.name(), name)
            .iter()
            .find(|i| i.source == Source::File)
        else {
            return Ok(());
        };
        if inst.healthy {
            return Ok(());
        }
        Err(crate::Error::usage(format!(
            "{family} plugin {name_q} is unavailable for {operation}: its last fingerprint failed \
             ({}); a Nomad cluster would not use it on this node",
            inst.error.as_deref().unwrap_or("unhealthy"),
            name_q = crate::escape::quote(name)
        ))
        .hint(crate::error::Hint::Fingerprint {
            name: name.to_string(),
        }))
    }

    pub fn instances(&self, family: &str, name: &str) -> &[Instance] {
        self.plugins
            .get(family)
            .and_then(|m| m.get(name))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Records a fingerprint result as the most recent instance, and emits an
    /// event when it is new or its health or version changed; the call's
    /// usage, when it ran, is tallied (see [`State::charge`]).
    pub fn record_fingerprint(
        &mut self,
        family: &str,
        name: &str,
        mut inst: Instance,
        usage: Option<&Usage>,
    ) {
        inst.error = inst.error.map(kept_message);
        let list = self
            .plugins
            .entry(family.to_string())
            .or_default()
            .entry(name.to_string())
            .or_default();
        let previous = list
            .iter()
            .position(|i| i.same_as(&inst))
            .map(|at| list.remove(at));
        let changed = match &previous {
            None => true,
            Some(p) => p.healthy != inst.healthy || p.version != inst.version,
        };
        let mut details = Map::new();
        details.insert("healthy".into(), inst.healthy.into());
        details.insert("version".into(), inst.version.clone().into());
        details.insert("error".into(), inst.error.clone().into());
        if let Some(p) = &previous {
            details.insert("was_healthy".into(), p.healthy.into());
        }
        let ok = inst.healthy;
        list.insert(0, inst);
        self.charge(
            usage.map(|usage| Charge {
                family,
                name,
                operation: crate::family::Operation::Fingerprint,
                ok,
                usage,
            }),
            &mut details,
        );
        if changed {
            self.emit(kind::FINGERPRINT, family, name, details);
        }
    }
}

/// The most of an error message a record keeps, in bytes. A message may
/// quote what a plugin printed (its `{"error"}`, a version or type it
/// gave), of any length up to what plugctl reads of its output; kept
/// whole, a few hundred of them would take the registry past the size it
/// loads (`--registry-max-size`) and lock every command out.
pub const MESSAGE_MAX: usize = 4096;

/// `message` as a record keeps it: whole up to [`MESSAGE_MAX`] bytes, else
/// its beginning, saying how long it was.
pub fn kept_message(message: String) -> String {
    if message.len() <= MESSAGE_MAX {
        return message;
    }
    let mut cut = MESSAGE_MAX;
    while !message.is_char_boundary(cut) {
        cut -= 1;
    }
    format!(
        "{}… ({} bytes in all, shortened for the registry)",
        &message[..cut],
        message.len()
    )
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    const SECRETS: &str = crate::family::Family::Secrets.name();

    #[test]
    fn fingerprint_moves_instance_to_front_and_emits_on_change() {
        let mut s = State::default();
        let inst = |path: &str, healthy| Instance {
            source: Source::File,
            path: Some(path.into()),
            alloc_id: None,
            socket: None,
            version: Some("1.0.0".into()),
            healthy,
            error: None,
            duration_ms: Some(1),
            options: Default::default(),
            updated_at: now(),
            file: None,
        };
        s.record_fingerprint(SECRETS, "a", inst("/p/a", true), None);
        s.record_fingerprint(SECRETS, "a", inst("/p/a", true), None);
        assert_eq!(s.seq, 1, "no event when nothing changed");
        s.record_fingerprint(SECRETS, "a", inst("/q/a", true), None);
        s.record_fingerprint(SECRETS, "a", inst("/p/a", false), None);
        assert_eq!(s.seq, 3);
        let list = s.instances(SECRETS, "a");
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].path.as_deref(), Some(Path::new("/p/a")));
        assert!(!list[0].healthy);
    }
}

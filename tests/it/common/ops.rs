//! The plugctl operations many tests start from or read back — a
//! registration, a volume, the event log, the volume records — each
//! written once, with the expectation builder.

use serde_json::Value;

use super::Rig;
use super::expect::{Exit, Finish, Ran, Run, plugctl};

/// The words of `plugin register` for one allocation's socket, to run
/// another way (under a lock, in a shell) or to check a refusal of.
pub const fn register_args<'a>(
    ty: &'a str,
    name: &'a str,
    alloc: &'a str,
    socket: &'a str,
) -> [&'a str; 10] {
    [
        "plugin",
        "register",
        "--type",
        ty,
        "--name",
        name,
        "--alloc-id",
        alloc,
        "--socket",
        socket,
    ]
}

/// Registers a dynamic plugin's allocation (`plugin register`), which
/// must succeed.
#[track_caller]
pub fn register(s: &Rig, ty: &str, name: &str, alloc: &str, socket: &str) -> Ran {
    plugctl(s)
        .args(register_args(ty, name, alloc, socket))
        .succeeds()
}

/// `volume create` with `--json` and these arguments (`--plugin`, `--name`
/// and the rest), which must succeed; the `volume` object it printed.
#[track_caller]
pub fn create_volume(s: &Rig, args: &[&str]) -> Value {
    plugctl(s)
        .args(["--json", "volume", "create"])
        .args_from(args)
        .succeeds()
        .json()["volume"]
        .clone()
}

/// An entry of plugctl's own in the volumes directory that no record
/// claims any more: a volume the built-in mkdir made, then forgotten
/// (`volume forget` leaves its directory). What `volume audit` calls an
/// orphan and a prune removes; its path.
#[track_caller]
pub fn leftover(s: &Rig) -> std::path::PathBuf {
    let name = format!("left-{}", uuid::Uuid::new_v4());
    let v = create_volume(s, &["--plugin", "mkdir", "--name", &name]);
    let id = id_of(&v);
    plugctl(s).args(["volume", "forget", &id]).succeeds();
    std::path::PathBuf::from(v["path"].as_str().expect("a path"))
}

/// The volumes `volume list --json` shows, which must succeed.
#[track_caller]
pub fn list_volumes(s: &Rig) -> Vec<Value> {
    plugctl(s)
        .args(["--json", "volume", "list"])
        .succeeds()
        .json()["volumes"]
        .as_array()
        .expect("volumes array")
        .clone()
}

/// A volume's (or any record's) `id`.
pub fn id_of(v: &Value) -> String {
    v["id"]
        .as_str()
        .unwrap_or_else(|| panic!("no id in {v}"))
        .to_string()
}

/// A `--json` run asked for another report `--format` as well: refused as a
/// usage error, whose document names both flags, as stderr does.
#[track_caller]
pub fn assert_format_refused_with_json(run: Run) {
    let out = run.fails_with(Exit::Usage);
    let error = out.error();
    assert_eq!(error["kind"], "usage", "{error:#}");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("--json") && message.contains("--format"),
        "{message}"
    );
    out.stderr_has("--format");
}

/// The `seq` of each event, in the order given.
pub fn seqs(events: &[Value]) -> Vec<u64> {
    events
        .iter()
        .map(|e| e["seq"].as_u64().expect("event seq"))
        .collect()
}

/// A `validate` or `test` report that is `ok`, with no finding worse than
/// info; `what` names it in the failure.
#[track_caller]
pub fn assert_clean_report(what: &str, doc: &Value) {
    assert_eq!(doc["ok"], true, "{what}: {doc:#}");
    let bad: Vec<&Value> = doc["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["severity"] != "info")
        .collect();
    assert!(bad.is_empty(), "{what}: {bad:#?}");
}

impl Rig {
    /// Every committed event in the registry (its journal read back), in
    /// order; none before there is a registry.
    pub fn events(&self) -> Vec<Value> {
        if !self.registry.exists() {
            return Vec::new();
        }
        self.registry_json()["events"]
            .as_array()
            .expect("events array")
            .clone()
    }

    /// The `kind` of every committed event, in order.
    pub fn event_kinds(&self) -> Vec<String> {
        self.events()
            .iter()
            .map(|e| e["kind"].as_str().expect("event kind").to_string())
            .collect()
    }

    /// The volume records in the registry, by id order; none before there
    /// is a registry.
    pub fn volume_records(&self) -> Vec<Value> {
        if !self.registry.exists() {
            return Vec::new();
        }
        self.registry_json()["volumes"]
            .as_object()
            .map(|m| m.values().cloned().collect())
            .unwrap_or_default()
    }
}

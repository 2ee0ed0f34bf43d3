//! The Nomad agent's own configuration, read as `nomad agent -config PATH`
//! reads it, for the settings that say where a node keeps its plugins,
//! volumes and identity: `data_dir`, and in `client`, `state_dir`,
//! `common_plugin_dir`, `host_volume_plugin_dir`, `host_volumes_dir` and
//! `node_pool`.
//!
//! How Nomad reads it (hashicorp/nomad `command/agent/config.go`,
//! `LoadConfig` and `LoadConfigDir`, and `config_parse.go`'s
//! `ParseConfigFile`, at aa026cc99cfb): each `-config` path is a file or a
//! directory; a directory contributes its `*.hcl` and `*.json` files (not
//! subdirectories, not editor temporaries: `name~`, `.#name`, `#name#`) in
//! byte order; each file is read by HCL 1's `hcl.Decode` (JSON when its
//! first character that is not a space is `{`, whatever its name) into
//! the agent's structs, and merged over the ones before it, a value that
//! is set (not empty) winning. plugctl reads each file with its own HCL 1
//! reader, `plugctl-hcl1`, held to HCL 1's Go library by a differential
//! test: what the agent accepts, plugctl accepts, with the same values;
//! what it refuses, plugctl refuses, naming file, line and column and
//! HCL 1's cause, never the file's text (it may hold a Vault or Consul
//! token). `command/agent/command.go` then refuses a relative `data_dir`,
//! `state_dir`, `host_volume_plugin_dir` or `host_volumes_dir` and a node
//! pool that is not a valid name; plugctl refuses a relative
//! `common_plugin_dir` too, as it cannot know the agent's working
//! directory. `command/agent/agent.go` (`convertClientConfig`) derives the
//! directories a file leaves unset from `data_dir` ([`derived`]).
//!
//! Only these settings are decoded: the rest of a file must parse, as the
//! agent's must, but a block about another subsystem is never looked at.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use plugctl_core::trust::{CheckedDir, Policy, Refusal};
use plugctl_hcl1::{ErrorKind, Field};

use crate::agent_account::AgentAccount;
use crate::{Error, Result};

/// The packaged agent's configuration directory: read by default as root
/// when it exists.
pub const DEFAULT_DIR: &str = "/etc/nomad.d";

/// The `--nomad-config` value that reads no agent configuration at all
/// (as `ssh -F none`): a file of that name is `./none`.
pub const NONE: &str = "none";

/// One of the settings plugctl takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    DataDir,
    StateDir,
    CommonPluginDir,
    HostVolumePluginDir,
    HostVolumesDir,
    NodePool,
}

impl Key {
    pub const ALL: [Key; 6] = [
        Key::DataDir,
        Key::StateDir,
        Key::CommonPluginDir,
        Key::HostVolumePluginDir,
        Key::HostVolumesDir,
        Key::NodePool,
    ];

    /// The name with its block, as people look for it (and as the reader's
    /// decoded paths are named): `client.host_volumes_dir`.
    pub fn path(self) -> &'static str {
        match self {
            Key::DataDir => "data_dir",
            Key::StateDir => "client.state_dir",
            Key::CommonPluginDir => "client.common_plugin_dir",
            Key::HostVolumePluginDir => "client.host_volume_plugin_dir",
            Key::HostVolumesDir => "client.host_volumes_dir",
            Key::NodePool => "client.node_pool",
        }
    }

    /// Whether the setting is a directory (all but the node pool).
    pub fn is_dir(self) -> bool {
        self != Key::NodePool
    }
}

/// The agent's fields plugctl decodes, with the agent's names, in the
/// order of its structs (which decides which of two errors HCL 1 reports).
const FIELDS: [Field; 2] = [
    Field::string("data_dir"),
    Field::block(
        "client",
        &[
            Field::string("state_dir"),
            Field::string("host_volumes_dir"),
            Field::string("host_volume_plugin_dir"),
            Field::string("common_plugin_dir"),
            Field::string("node_pool"),
        ],
    ),
];

/// Where a value was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub file: PathBuf,
    /// The line (HCL and JSON alike).
    pub line: Option<usize>,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}", self.file.display()),
            None => write!(f, "{}", self.file.display()),
        }
    }
}

/// A value read, and where. A directory is a path; the node pool is a
/// name (valid UTF-8, checked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    pub value: PathBuf,
    pub place: Place,
}

impl Setting {
    /// The value as text (the node pool, which is checked to be a name).
    pub fn text(&self) -> String {
        self.value.to_string_lossy().into_owned()
    }
}

/// What the agent configuration says, merged.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgentConfig {
    /// Every file read, in the order merged.
    pub files: Vec<PathBuf>,
    settings: [Option<Setting>; 6],
    /// What a person should know (a directory with no config file in it,
    /// as Nomad warns too).
    pub warnings: Vec<String>,
}

impl AgentConfig {
    pub fn get(&self, key: Key) -> Option<&Setting> {
        self.settings[key as usize].as_ref()
    }

    /// Sets a value read later than what is there: a set value wins, an
    /// empty one changes nothing (Nomad's `Merge`).
    fn merge(&mut self, key: Key, setting: Setting) {
        if !setting.value.as_os_str().is_empty() {
            self.settings[key as usize] = Some(setting);
        }
    }
}

/// The sub-directory of `data_dir` Nomad puts each directory in when the
/// configuration does not name it (`convertClientConfig`).
pub fn derived(key: Key) -> Option<&'static str> {
    match key {
        Key::DataDir | Key::NodePool => None,
        Key::StateDir => Some("client"),
        Key::CommonPluginDir => Some("common_plugins"),
        Key::HostVolumePluginDir => Some("host_volume_plugins"),
        Key::HostVolumesDir => Some("host_volumes"),
    }
}

/// The largest configuration file plugctl reads.
pub const CONFIG_FILE_MAX: u64 = 16 << 20;

/// The longest cause an error quotes from the reader (its causes are made
/// of HCL 1's token names and plugctl's setting names, never the file's
/// text; this bounds them anyway).
const CAUSE_MAX: usize = 240;

/// Reads the configuration at these paths (files or directories), in
/// order, as one agent with these `-config` flags would. Every file and
/// directory goes through the trust gate (`policy`): the configuration
/// decides where a root plugctl runs plugins and what its prune deletes,
/// so one another user owns or can write is refused, and a FIFO or a
/// device is never read. `account` (the agent's account, trusted by
/// `policy` or not) words a refusal of an owner.
pub fn load(paths: &[PathBuf], policy: Policy, account: &AgentAccount) -> Result<AgentConfig> {
    let mut config = AgentConfig::default();
    let gate = Gate { policy, account };
    for path in paths {
        let dir = match CheckedDir::open(policy, path) {
            Ok(dir) => dir,
            // Not a directory: a file (its symlinks followed by the gate).
            Err(Refusal::Kind { .. }) => {
                read_file(path, &gate, &mut config)?;
                continue;
            }
            Err(r) => return Err(gate.refused(path, r)),
        };
        let files = config_files(&dir).map_err(|r| gate.refused(path, r))?;
        if files.is_empty() {
            config.warnings.push(format!(
                "no Nomad agent configuration in {} (no *.hcl or *.json file): Nomad's \
                 defaults apply",
                path.display()
            ));
        }
        for file in files {
            read_file(&file, &gate, &mut config)?;
        }
    }
    Ok(config)
}

/// The gate's rules for the configuration, and the account that words its
/// refusals.
struct Gate<'a> {
    policy: Policy,
    account: &'a AgentAccount,
}

impl Gate<'_> {
    fn refused(&self, path: &Path, r: Refusal) -> Error {
        let what = format!(
            "cannot read the Nomad agent configuration {}",
            path.display()
        );
        match r {
            Refusal::NotFound(missing) => Error::usage(format!(
                "{what}: No such file or directory ({})",
                missing.display()
            )),
            Refusal::Io { path: at, source } if at == path => {
                Error::usage(format!("{what}: {source}"))
            }
            r => self.account.refused(what, &r),
        }
    }
}

/// The files of a configuration directory that Nomad reads, in its order.
fn config_files(dir: &CheckedDir) -> std::result::Result<Vec<PathBuf>, Refusal> {
    let mut files = Vec::new();
    for (name, kind) in dir.entries()? {
        // Nomad looks at the entry itself (no symlink followed) to skip
        // directories.
        let is_dir = match kind {
            rustix::fs::FileType::Unknown => dir.stat(&name)?.is_some_and(|m| m.is_dir()),
            k => k == rustix::fs::FileType::Directory,
        };
        if is_dir {
            continue;
        }
        if is_config_name(&name) {
            files.push(dir.join(&name));
        }
    }
    // Go's sort.Strings: byte order.
    files.sort_by(|a, b| a.as_os_str().as_bytes().cmp(b.as_os_str().as_bytes()));
    Ok(files)
}

/// `*.hcl` or `*.json`, and not an editor's temporary file.
fn is_config_name(name: &OsStr) -> bool {
    let b = name.as_bytes();
    let wanted = b.ends_with(b".hcl") || b.ends_with(b".json");
    let temporary =
        b.ends_with(b"~") || b.starts_with(b".#") || (b.starts_with(b"#") && b.ends_with(b"#"));
    wanted && !temporary
}

fn read_file(path: &Path, gate: &Gate<'_>, config: &mut AgentConfig) -> Result<()> {
    let bytes = plugctl_core::trust::dir::resolve_file(gate.policy, path)
        .and_then(|(dir, name, _)| dir.read(&name, CONFIG_FILE_MAX))
        .map_err(|r| gate.refused(path, r))?;
    for (key, setting) in parse(path, &bytes)? {
        config.merge(key, setting);
    }
    config.files.push(path.to_path_buf());
    Ok(())
}

/// Where an error is, as `file:line:column` (or the file alone).
fn at(path: &Path, pos: Option<plugctl_hcl1::Pos>) -> String {
    match pos {
        Some(p) => format!("{}:{}:{}", path.display(), p.line, p.column),
        None => path.display().to_string(),
    }
}

/// The reader's cause, bounded.
fn bounded(cause: String) -> String {
    if cause.chars().count() <= CAUSE_MAX {
        return cause;
    }
    let cut: String = cause.chars().take(CAUSE_MAX).collect();
    format!("{cut}...")
}

/// One file's settings, in the order written (a later one wins), or why
/// the agent would not take the file: its parse or decode error, said by
/// position and HCL 1's cause alone.
fn parse(path: &Path, bytes: &[u8]) -> Result<Vec<(Key, Setting)>> {
    let decoded = plugctl_hcl1::parse(bytes)
        .and_then(|file| plugctl_hcl1::decode(&file.root, &FIELDS))
        .map_err(|e| {
            let cause = bounded(e.cause());
            let what = match e.kind() {
                ErrorKind::Scan(_) | ErrorKind::Syntax(_) => {
                    format!("the file does not parse as HCL 1, as the agent reads it: {cause}")
                }
                ErrorKind::Type { .. } => format!("{cause}, as the agent decodes it"),
                ErrorKind::Value(_) | ErrorKind::Crash(_) => {
                    format!("{cause}; the agent would stop on this file")
                }
            };
            Error::usage(format!(
                "Nomad agent configuration {}: {what}",
                at(path, e.pos())
            ))
        })?;
    let mut out = Vec::new();
    for key in Key::ALL {
        let Some(v) = decoded.string(key.path()) else {
            continue;
        };
        let place = Place {
            file: path.to_path_buf(),
            line: v.pos.is_valid().then_some(v.pos.line),
        };
        let where_ = at(path, v.pos.is_valid().then_some(v.pos));
        let value = check(key, &v.bytes)
            .map_err(|why| Error::usage(format!("Nomad agent configuration {where_}: {why}")))?;
        out.push((key, Setting { value, place }));
    }
    Ok(out)
}

/// A value as written, or why it cannot be used. The value itself is never
/// quoted: configuration text stays out of messages.
fn check(key: Key, value: &[u8]) -> std::result::Result<PathBuf, String> {
    if value.is_empty() {
        return Ok(PathBuf::new());
    }
    if value.contains(&0) {
        return Err(format!("{} contains a NUL byte", key.path()));
    }
    if !key.is_dir() {
        return match std::str::from_utf8(value) {
            Ok(pool) => plugctl_core::nomad::check_node_pool(pool)
                .map(|()| PathBuf::from(pool))
                .map_err(|why| format!("{} {why}, as Nomad requires", key.path())),
            Err(_) => Err(format!(
                "{} is not valid UTF-8: a node pool is a name of letters, digits, - and _",
                key.path()
            )),
        };
    }
    let path = PathBuf::from(OsString::from_vec(value.to_vec()));
    if !path.is_absolute() {
        return Err(format!(
            "{} must be an absolute path, as Nomad requires: it is relative",
            key.path()
        ));
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        fs::write(&p, text).unwrap();
        p
    }

    fn value(c: &AgentConfig, key: Key) -> Option<&Path> {
        c.get(key).map(|s| s.value.as_path())
    }

    #[test]
    fn a_directory_is_read_in_byte_order_and_the_later_file_wins() {
        let d = tempfile::tempdir().unwrap();
        write(
            d.path(),
            "10-base.hcl",
            "# the packaged file\ndata_dir = \"/srv/nomad\"\n\nclient {\n  enabled = true\n  host_volumes_dir = \"/srv/vols\"\n}\n",
        );
        write(
            d.path(),
            "20-client.json",
            r#"{"client": {"host_volume_plugin_dir": "/srv/hv", "host_volumes_dir": ""}}"#,
        );
        write(d.path(), "30-late.hcl~", "data_dir = \"relative\"\n");
        write(d.path(), "notes.txt", "data_dir = 1\n");
        fs::create_dir(d.path().join("sub.hcl")).unwrap();
        let c = load(
            &[d.path().to_path_buf()],
            Policy::strict(),
            &AgentAccount::default(),
        )
        .unwrap();
        assert_eq!(c.files.len(), 2, "{c:?}");
        let data = c.get(Key::DataDir).unwrap();
        assert_eq!(data.value, Path::new("/srv/nomad"));
        assert_eq!(data.place.line, Some(2));
        // An empty value does not unset what an earlier file set.
        assert_eq!(value(&c, Key::HostVolumesDir), Some(Path::new("/srv/vols")));
        let hv = c.get(Key::HostVolumePluginDir).unwrap();
        assert_eq!(hv.value, Path::new("/srv/hv"));
        assert!(hv.place.file.ends_with("20-client.json"));
        // JSON values have their line too.
        assert_eq!(hv.place.line, Some(1));
        assert!(c.get(Key::CommonPluginDir).is_none());
    }

    #[test]
    fn keys_match_whatever_their_case_and_nothing_is_interpolated() {
        // HCL 1 folds keys (`ObjectList.Filter`) and reads `${x}` as text.
        let d = tempfile::tempdir().unwrap();
        let f = write(
            d.path(),
            "a.hcl",
            "DATA_DIR = \"/srv/${x}/d\"\nClient {\n  Host_Volumes_Dir = \"/srv/hv\"\n  \"node_pool\" = \"gpu\"\n}\n",
        );
        let c = load(&[f], Policy::strict(), &AgentAccount::default()).unwrap();
        assert_eq!(value(&c, Key::DataDir), Some(Path::new("/srv/${x}/d")));
        assert_eq!(value(&c, Key::HostVolumesDir), Some(Path::new("/srv/hv")));
        assert_eq!(c.get(Key::NodePool).unwrap().text(), "gpu");
        let f = write(
            d.path(),
            "b.json",
            r#"{"Data_Dir": "/srv/j", "CLIENT": {"host_volumes_DIR": "/srv/jv", "state_dir": "/srv/s"}}"#,
        );
        let c = load(&[f], Policy::strict(), &AgentAccount::default()).unwrap();
        assert_eq!(value(&c, Key::DataDir), Some(Path::new("/srv/j")));
        assert_eq!(value(&c, Key::HostVolumesDir), Some(Path::new("/srv/jv")));
        assert_eq!(value(&c, Key::StateDir), Some(Path::new("/srv/s")));
    }

    #[test]
    fn bad_values_name_file_line_and_column_but_never_the_text() {
        let d = tempfile::tempdir().unwrap();
        let f = write(
            d.path(),
            "a.hcl",
            "data_dir = \"/x\"\nclient {\n  host_volume_plugin_dir = \"plugins\"\n}\n",
        );
        let e = load(&[f], Policy::strict(), &AgentAccount::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("a.hcl:3:28:"), "{e}");
        assert!(e.contains("must be an absolute path"), "{e}");
        assert!(!e.contains("plugins"), "{e}");
        let f = write(d.path(), "b.hcl", "data_dir = \n}\n");
        let e = load(&[f], Policy::strict(), &AgentAccount::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("b.hcl:2:1:"), "{e}");
        assert!(e.contains("does not parse"), "{e}");
        let f = write(
            d.path(),
            "c.json",
            "{\n  \"client\": {\n    \"common_plugin_dir\": \"rel\"\n  }\n}\n",
        );
        let e = load(&[f], Policy::strict(), &AgentAccount::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("c.json:3:26:"), "{e}");
        let f = write(d.path(), "d.json", "{\"data_dir\": [\"/x\"]}");
        let e = load(&[f], Policy::strict(), &AgentAccount::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("data_dir: expected a string, found a list"),
            "{e}"
        );
        // HCL 1 takes `${...}` as text: here a relative path.
        let f = write(d.path(), "e.hcl", "data_dir = \"${var.x}\"\n");
        let e = load(&[f], Policy::strict(), &AgentAccount::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("absolute path") && !e.contains("var.x"), "{e}");
        // A node pool Nomad refuses.
        let f = write(d.path(), "f.hcl", "client { node_pool = \"all\" }\n");
        let e = load(&[f], Policy::strict(), &AgentAccount::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("f.hcl:1:22: client.node_pool is all"), "{e}");
        // Where HCL 1 itself panics, the agent would stop.
        let f = write(d.path(), "g.hcl", "data_dir = \"\\777\"\n");
        let e = load(&[f], Policy::strict(), &AgentAccount::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("g.hcl:1:12:") && e.contains("the agent would stop"),
            "{e}"
        );
        let e = load(
            &[d.path().join("missing")],
            Policy::strict(),
            &AgentAccount::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("cannot read"), "{e}");
    }

    #[test]
    fn json_client_may_be_a_list_and_hcl_client_an_object() {
        let d = tempfile::tempdir().unwrap();
        let f = write(
            d.path(),
            "a.json",
            r#"{"client": [{"common_plugin_dir": "/a", "node_pool": "p"}, {"common_plugin_dir": "/b"}]}"#,
        );
        let c = load(&[f], Policy::strict(), &AgentAccount::default()).unwrap();
        assert_eq!(value(&c, Key::CommonPluginDir), Some(Path::new("/b")));
        // The second block is decoded into the first: what it leaves unset
        // survives.
        assert_eq!(c.get(Key::NodePool).unwrap().text(), "p");
        let f = write(
            d.path(),
            "b.hcl",
            "client = {\n  host_volumes_dir = \"/v\"\n}\n",
        );
        let c = load(&[f], Policy::strict(), &AgentAccount::default()).unwrap();
        let v = c.get(Key::HostVolumesDir).unwrap();
        assert_eq!(v.value, Path::new("/v"));
        assert_eq!(v.place.line, Some(2));
        // A JSON document in a file named .hcl is JSON, as HCL 1 reads it.
        let f = write(d.path(), "c.hcl", "  {\"data_dir\": \"/j\"}");
        let c = load(&[f], Policy::strict(), &AgentAccount::default()).unwrap();
        assert_eq!(value(&c, Key::DataDir), Some(Path::new("/j")));
        let empty = tempfile::tempdir().unwrap();
        let c = load(
            &[empty.path().to_path_buf()],
            Policy::strict(),
            &AgentAccount::default(),
        )
        .unwrap();
        assert_eq!(c.warnings.len(), 1);
    }
}

//! A plugin's sandbox policy, and the policy file that holds every
//! plugin's: `plugctl.policy.json` beside the plugins (the directory
//! `plugctl.lock` is in), read through the trust gate as the lock file is,
//! because whoever writes it decides what a plugin may do as root.
//!
//! ```json
//! {
//!   "schema_version": 1,
//!   "plugins": {
//!     "host-volume/dir": {},
//!     "secrets/env-file": { "read": ["${SECRETS_DIR}"] },
//!     "host-volume/mkfs-image": {
//!       "level": "strict",
//!       "memory_max": "256MiB",
//!       "capabilities": ["CAP_SYS_ADMIN"],
//!       "syscalls": ["mount"]
//!     }
//!   }
//! }
//! ```
//!
//! A plugin's entry can raise its own level (`level`: it never runs below
//! it, whatever the command line says), set caps (the tighter of the
//! policy's and the command line's applies), and grant what `strict`
//! otherwise refuses: the network, capabilities, groups of system calls,
//! and paths to read or write. Nothing in it can lower a level or loosen a
//! cap the command line set. Unknown keys are refused (a misspelt grant
//! must not read as a policy that grants nothing).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Caps, Level};
use crate::trust::{CheckedDir, Policy as TrustPolicy};
use crate::{Error, Result};

/// The policy file's own format version; a newer one is refused.
pub const POLICY_SCHEMA_VERSION: u32 = 1;

/// The policy file's name, beside `plugctl.lock` at the top of the plugin
/// directory.
pub const POLICY_FILE_NAME: &str = "plugctl.policy.json";

/// The largest policy file plugctl reads: one small entry per plugin.
pub const POLICY_FILE_MAX: u64 = 16 << 20;

/// The groups of system calls `strict` refuses, each of which a policy may
/// grant by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Syscalls {
    /// `ptrace`, `process_vm_readv`/`writev`, `pidfd_getfd`: reading or
    /// steering another process.
    Ptrace,
    /// `bpf`: loading programs into the kernel.
    Bpf,
    /// `init_module`, `finit_module`, `delete_module`.
    Modules,
    /// `kexec_load`, `kexec_file_load`: booting another kernel.
    Kexec,
    /// `add_key`, `request_key`, `keyctl`: the kernel's keyrings, where
    /// other services keep secrets.
    Keyrings,
    /// `perf_event_open`.
    Perf,
    /// `mount`, `umount2` and the new mount API: what a plugin that mounts
    /// its volume needs (with `CAP_SYS_ADMIN`).
    Mount,
    /// `unshare`, `setns` and `clone` with a namespace flag.
    Namespaces,
}

impl Syscalls {
    pub const ALL: [Syscalls; 8] = [
        Syscalls::Ptrace,
        Syscalls::Bpf,
        Syscalls::Modules,
        Syscalls::Kexec,
        Syscalls::Keyrings,
        Syscalls::Perf,
        Syscalls::Mount,
        Syscalls::Namespaces,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Syscalls::Ptrace => "ptrace",
            Syscalls::Bpf => "bpf",
            Syscalls::Modules => "modules",
            Syscalls::Kexec => "kexec",
            Syscalls::Keyrings => "keyrings",
            Syscalls::Perf => "perf",
            Syscalls::Mount => "mount",
            Syscalls::Namespaces => "namespaces",
        }
    }

    pub fn of(name: &str) -> Option<Syscalls> {
        Syscalls::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for Syscalls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A Linux capability, by its kernel name (`CAP_SYS_ADMIN`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Capability(pub caps::Capability);

impl PartialOrd for Capability {
    fn partial_cmp(&self, other: &Capability) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// By number, as the kernel orders them.
impl Ord for Capability {
    fn cmp(&self, other: &Capability) -> std::cmp::Ordering {
        self.index().cmp(&other.index())
    }
}

impl Capability {
    /// Its number (the bit in the capability sets).
    pub fn index(self) -> u8 {
        self.0.index()
    }
}

impl FromStr for Capability {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Capability, String> {
        caps::Capability::from_str(s).map(Capability).map_err(|_| {
            format!("{s_q} is not a Linux capability (they are written as the kernel names them: CAP_SYS_ADMIN, CAP_CHOWN, ...)", s_q = crate::escape::quote(s))
        })
    }
}

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A path a policy lets a plugin read or write: absolute, or
/// `${VAR}` (optionally followed by `/more`), the directory the call's own
/// variable `VAR` names (a secrets plugin's store, which its caller
/// chooses).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Grant {
    Path(PathBuf),
    FromEnv { var: String, rest: PathBuf },
}

impl Grant {
    /// The path for one call, from its environment; None when the
    /// variable is not set (or not absolute, or `/` itself: a grant of
    /// everything is never read into a caller's variable).
    pub fn resolve(&self, env: &[(std::ffi::OsString, std::ffi::OsString)]) -> Option<PathBuf> {
        match self {
            Grant::Path(p) => Some(p.clone()),
            Grant::FromEnv { var, rest } => {
                let value = env.iter().rev().find(|(k, _)| k == var.as_str())?.1.clone();
                let base = PathBuf::from(value);
                let path = if rest.as_os_str().is_empty() {
                    base
                } else {
                    base.join(rest)
                };
                (plain_absolute(&path) && path != Path::new("/")).then_some(path)
            }
        }
    }
}

/// Absolute, with no `.` or `..` component.
fn plain_absolute(p: &Path) -> bool {
    p.is_absolute()
        && p.components()
            .all(|c| matches!(c, Component::RootDir | Component::Normal(_)))
}

impl FromStr for Grant {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Grant, String> {
        if let Some(rest) = s.strip_prefix("${") {
            let (var, tail) = rest.split_once('}').ok_or_else(|| {
                format!(
                    "{s_q}: a ${{VAR}} without its closing brace",
                    s_q = crate::escape::quote(s)
                )
            })?;
            let name_ok = !var.is_empty()
                && !var.starts_with(|c: char| c.is_ascii_digit())
                && var.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !name_ok {
                return Err(format!(
                    "{s_q}: {var_q} is not a variable name",
                    s_q = crate::escape::quote(s),
                    var_q = crate::escape::quote(var)
                ));
            }
            let rest = match tail {
                "" => PathBuf::new(),
                t if t.starts_with('/') && plain_absolute(Path::new(t)) => {
                    PathBuf::from(t.trim_start_matches('/'))
                }
                _ => {
                    return Err(format!(
                        "{s_q}: after ${{{var}}} only /a/path may follow, without . or ..",
                        s_q = crate::escape::quote(s)
                    ));
                }
            };
            return Ok(Grant::FromEnv {
                var: var.to_string(),
                rest,
            });
        }
        let p = Path::new(s);
        if !plain_absolute(p) {
            return Err(format!(
                "{s_q} is not an absolute path without . or .. (or ${{VAR}}, a directory the \
                 call's variable names)",
                s_q = crate::escape::quote(s)
            ));
        }
        if p == Path::new("/") {
            return Err(format!(
                "{s_q} grants the whole file system; under strict name what the plugin needs, \
                 or run it under trim",
                s_q = crate::escape::quote(s)
            ));
        }
        Ok(Grant::Path(p.to_path_buf()))
    }
}

impl fmt::Display for Grant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Grant::Path(p) => write!(f, "{}", p.display()),
            Grant::FromEnv { var, rest } if rest.as_os_str().is_empty() => write!(f, "${{{var}}}"),
            Grant::FromEnv { var, rest } => write!(f, "${{{var}}}/{}", rest.display()),
        }
    }
}

/// What a plugin's policy grants beyond `strict`, each item a layer of
/// `strict` relaxed by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Grants {
    /// The node's network (fetch, create and delete; a fingerprint never
    /// has it, whatever the policy says).
    pub network: bool,
    /// Capabilities kept (strict keeps none).
    pub capabilities: BTreeSet<Capability>,
    /// Groups of system calls let through.
    pub syscalls: BTreeSet<Syscalls>,
    /// Paths readable (and executable) beyond the system's programs and
    /// libraries.
    pub read: BTreeSet<Grant>,
    /// Paths writable beyond what the operation needs.
    pub write: BTreeSet<Grant>,
}

impl Grants {
    pub fn is_empty(&self) -> bool {
        *self == Grants::default()
    }

    /// Whether the plugin mounts: the kernel refuses every mount to a
    /// process under Landlock, and a mount made in a mount namespace of
    /// the call's own never reaches the node, so a plugin granted `mount`
    /// runs without either.
    pub fn mounts(&self) -> bool {
        self.syscalls.contains(&Syscalls::Mount)
    }
}

/// One plugin's policy: the least level it runs under, its caps, and what
/// it is granted beyond `strict`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    /// It never runs below this level (None: the command line's level).
    pub level: Option<Level>,
    pub caps: Caps,
    pub grants: Grants,
}

impl Policy {
    /// The words `validate` and `-v` show for what this policy grants
    /// beyond `strict`, one item each; empty when it grants nothing.
    pub fn exposure(&self) -> Vec<String> {
        let g = &self.grants;
        let mut out = Vec::new();
        if g.network {
            out.push("the node's network (fetch, create, delete)".to_string());
        }
        if !g.capabilities.is_empty() {
            let names: Vec<String> = g.capabilities.iter().map(ToString::to_string).collect();
            out.push(format!("capabilities {}", names.join(", ")));
        }
        for s in &g.syscalls {
            out.push(format!("{s} system calls"));
        }
        if g.mounts() {
            out.push(
                "no Landlock and the node's own /tmp and mounts (a mount must reach the node, \
                 and the kernel refuses mounts under Landlock)"
                    .to_string(),
            );
        }
        let what = |g: &Grant| match g {
            Grant::Path(p) => p.display().to_string(),
            Grant::FromEnv { .. } => format!("what {g} names (the call's own variable)"),
        };
        for r in &g.read {
            out.push(format!("reads and runs {}", what(r)));
        }
        for w in &g.write {
            out.push(format!("reads and writes {}", what(w)));
        }
        out
    }
}

/// Every plugin's policy, by `type/name`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PolicyFile {
    pub plugins: BTreeMap<String, Policy>,
}

impl PolicyFile {
    /// The policy of `family/name`, if the file has one.
    pub fn get(&self, family: &str, name: &str) -> Option<&Policy> {
        self.plugins.get(&format!("{family}/{name}"))
    }

    /// Reads a policy file through the trust gate; Ok(None) when there is
    /// none. One another user owns or can write (or below such a
    /// directory) is refused unless `trust` lifts the rule: it decides
    /// what plugins may do as root.
    pub fn load(path: &Path, trust: TrustPolicy) -> Result<Option<PolicyFile>> {
        let bad = |msg: String| Error::usage(format!("policy file {}: {msg}", path.display()));
        let refused = |r: crate::trust::Refusal| match r {
            crate::trust::Refusal::Symlink(_) => bad(
                "is a symbolic link, which plugctl does not follow: replace it with the file"
                    .into(),
            ),
            r => Error::refused(format_args!("policy file {}", path.display()), &r),
        };
        let name = path.file_name().unwrap_or_default();
        let dir = match CheckedDir::open(trust, crate::registry::parent_dir(path)) {
            Ok(d) => d,
            Err(r) if r.is_not_found() => return Ok(None),
            Err(r) => return Err(refused(r)),
        };
        let bytes = match dir.read(name, POLICY_FILE_MAX) {
            Ok(b) => b,
            Err(r) if r.is_not_found() => return Ok(None),
            Err(r) => return Err(refused(r)),
        };
        PolicyFile::parse(&bytes).map(Some).map_err(bad)
    }

    /// Reads the file's JSON; the error names the entry and what is wrong.
    pub fn parse(bytes: &[u8]) -> std::result::Result<PolicyFile, String> {
        let raw: RawFile =
            serde_json::from_slice(bytes).map_err(|e| format!("not a plugctl policy file: {e}"))?;
        if raw.schema_version > POLICY_SCHEMA_VERSION {
            return Err(format!(
                "written by a newer plugctl (schema_version {}; this one reads \
                 {POLICY_SCHEMA_VERSION})",
                raw.schema_version
            ));
        }
        let mut plugins = BTreeMap::new();
        for (key, entry) in raw.plugins {
            let ok_key = key.split_once('/').is_some_and(|(f, n)| {
                crate::discovery::check_name(f).is_ok() && crate::discovery::check_name(n).is_ok()
            });
            if !ok_key {
                return Err(format!(
                    "{key_q} is not a plugin as TYPE/NAME (host-volume/dir, secrets/env-file)",
                    key_q = crate::escape::quote(&key)
                ));
            }
            let policy = entry
                .policy()
                .map_err(|e| format!("{}: {e}", crate::escape::quote(&key)))?;
            plugins.insert(key, policy);
        }
        Ok(PolicyFile { plugins })
    }

    /// The file's JSON, stable (keys sorted), for `init` and
    /// `--propose-policy` to write and a person to review.
    pub fn to_json(&self) -> String {
        let raw = RawFile {
            schema_version: POLICY_SCHEMA_VERSION,
            plugins: self
                .plugins
                .iter()
                .map(|(k, p)| (k.clone(), RawPolicy::of(p)))
                .collect(),
        };
        let mut text = serde_json::to_string_pretty(&raw).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Writes the file with the gate's atomic replace, into a directory the
    /// gate trusts; 0644, like the lock file it sits beside.
    pub fn save(&self, path: &Path, trust: TrustPolicy) -> Result<()> {
        let name = path.file_name().unwrap_or_default();
        let dir = CheckedDir::open(trust, crate::registry::parent_dir(path))
            .map_err(|r| Error::refused(format_args!("policy file {}", path.display()), &r))?;
        dir.replace(name, self.to_json().as_bytes(), 0o644, None)
            .map_err(|(_, r)| match r {
                crate::trust::Refusal::Io { source, .. } => Error::io(
                    format!("cannot write policy file {}", path.display()),
                    source,
                ),
                r => Error::usage(format!("policy file {}: {r}", path.display())),
            })
    }
}

/// The digest `pin` records of one plugin's policy: its canonical JSON
/// (keys sorted, grants sorted), so reordering the file changes nothing
/// and any change of what it grants is a drift.
pub fn digest(policy: &Policy) -> String {
    use sha2::{Digest, Sha256};
    let text = serde_json::to_string(&RawPolicy::of(policy)).unwrap_or_default();
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The default path: beside the lock file, at the top of the plugin
/// directory.
pub fn default_path(plugin_dir: &Path) -> PathBuf {
    plugin_dir.join(POLICY_FILE_NAME)
}

// The file as JSON. Strings in, typed values out: a bad value is an error
// naming its entry, not serde's position in the file alone.

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    schema_version: u32,
    #[serde(default)]
    plugins: BTreeMap<String, RawPolicy>,
}

#[derive(Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPolicy {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    level: Option<Level>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    memory_max: Option<SizeOrBytes>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cpu_max: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    files_max: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tasks_max: Option<u64>,
    #[serde(default, skip_serializing_if = "is_false")]
    network: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    capabilities: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    syscalls: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    read: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    write: Vec<String>,
}

fn is_false(b: &bool) -> bool {
    !b
}

/// `"128MiB"` or a number of bytes.
#[derive(Clone)]
enum SizeOrBytes {
    Text(String),
    Bytes(u64),
}

impl Serialize for SizeOrBytes {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            SizeOrBytes::Text(t) => s.serialize_str(t),
            SizeOrBytes::Bytes(b) => s.serialize_u64(*b),
        }
    }
}

impl<'de> Deserialize<'de> for SizeOrBytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either {
            Bytes(u64),
            Text(String),
        }
        Ok(match Either::deserialize(d)? {
            Either::Bytes(b) => SizeOrBytes::Bytes(b),
            Either::Text(t) => SizeOrBytes::Text(t),
        })
    }
}

impl RawPolicy {
    fn policy(self) -> std::result::Result<Policy, String> {
        let memory_max = match self.memory_max {
            None => None,
            Some(SizeOrBytes::Bytes(b)) => Some(b),
            Some(SizeOrBytes::Text(t)) => Some(parse_size(&t)?),
        };
        let cpu_max = match self.cpu_max {
            None => None,
            Some(t) => Some(humantime::parse_duration(t.trim()).map_err(|e| {
                format!(
                    "cpu_max {t_q}: {e} (examples: 500ms, 10s, 2m)",
                    t_q = crate::escape::quote(&t)
                )
            })?),
        };
        let caps = Caps {
            memory_max,
            cpu_max,
            files_max: self.files_max,
            tasks_max: self.tasks_max,
        };
        caps.check().map_err(|e| e.to_string())?;
        let mut grants = Grants {
            network: self.network,
            ..Grants::default()
        };
        for c in &self.capabilities {
            grants.capabilities.insert(c.parse()?);
        }
        for s in &self.syscalls {
            let group = Syscalls::of(s).ok_or_else(|| {
                let all: Vec<&str> = Syscalls::ALL.iter().map(|s| s.name()).collect();
                format!(
                    "{s_q} is not a group of system calls a policy can grant (one of {})",
                    all.join(", "),
                    s_q = crate::escape::quote(s)
                )
            })?;
            grants.syscalls.insert(group);
        }
        for r in &self.read {
            grants.read.insert(r.parse()?);
        }
        for w in &self.write {
            grants.write.insert(w.parse()?);
        }
        Ok(Policy {
            level: self.level,
            caps,
            grants,
        })
    }

    fn of(p: &Policy) -> RawPolicy {
        RawPolicy {
            level: p.level,
            memory_max: p.caps.memory_max.map(|b| SizeOrBytes::Text(size_text(b))),
            cpu_max: p
                .caps
                .cpu_max
                .map(|d| humantime::format_duration(d).to_string()),
            files_max: p.caps.files_max,
            tasks_max: p.caps.tasks_max,
            network: p.grants.network,
            capabilities: p
                .grants
                .capabilities
                .iter()
                .map(ToString::to_string)
                .collect(),
            syscalls: p
                .grants
                .syscalls
                .iter()
                .map(|s| s.name().to_string())
                .collect(),
            read: p.grants.read.iter().map(ToString::to_string).collect(),
            write: p.grants.write.iter().map(ToString::to_string).collect(),
        }
    }
}

/// `50MB` (10^6), `50MiB` (2^20), or bytes; a whole number of bytes.
fn parse_size(t: &str) -> std::result::Result<u64, String> {
    let bytes = parse_size::parse_size(t.trim()).map_err(|e| {
        format!(
            "memory_max {t_q}: {e} (examples: 128MiB, 1GiB)",
            t_q = crate::escape::quote(t)
        )
    })?;
    if bytes == 0 {
        return Err(format!(
            "memory_max {t_q}: a cap of nothing lets nothing run",
            t_q = crate::escape::quote(t)
        ));
    }
    Ok(bytes)
}

/// A size as written back: exact, in the largest binary unit that divides
/// it.
fn size_text(bytes: u64) -> String {
    for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{}{unit}", bytes >> shift);
        }
    }
    bytes.to_string()
}

/// Durations in a policy, as a person writes them.
pub fn duration_text(d: Duration) -> String {
    humantime::format_duration(d).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_policy_file_reads_every_grant_and_writes_it_back_the_same() {
        let text = br#"{"schema_version": 1, "plugins": {
            "host-volume/mkfs-image": {"level": "strict", "memory_max": "256MiB",
              "cpu_max": "30s", "files_max": 64, "tasks_max": 32, "network": true,
              "capabilities": ["CAP_SYS_ADMIN"], "syscalls": ["mount"],
              "read": ["/etc/mke2fs.conf", "${SECRETS_DIR}/x"], "write": ["/dev/loop-control"]},
            "secrets/env-file": {}}}"#;
        let file = PolicyFile::parse(text).unwrap();
        let p = file.get("host-volume", "mkfs-image").unwrap();
        assert_eq!(p.level, Some(Level::Strict));
        assert_eq!(p.caps.memory_max, Some(256 << 20));
        assert_eq!(p.caps.cpu_max, Some(Duration::from_secs(30)));
        assert!(p.grants.network && p.grants.mounts());
        assert_eq!(p.grants.capabilities.len(), 1);
        assert!(p.grants.read.contains(&Grant::FromEnv {
            var: "SECRETS_DIR".into(),
            rest: "x".into()
        }));
        assert!(file.get("secrets", "env-file").unwrap().grants.is_empty());
        let again = PolicyFile::parse(file.to_json().as_bytes()).unwrap();
        assert_eq!(again, file);
        assert_eq!(
            digest(p),
            digest(again.get("host-volume", "mkfs-image").unwrap())
        );
        assert_ne!(digest(p), digest(&Policy::default()));
    }

    #[test]
    fn a_bad_entry_is_named_and_nothing_unknown_is_taken_for_nothing() {
        let bad = |entry: &str| {
            PolicyFile::parse(
                format!(r#"{{"schema_version": 1, "plugins": {{"host-volume/x": {entry}}}}}"#)
                    .as_bytes(),
            )
            .unwrap_err()
        };
        assert!(bad(r#"{"netwrok": true}"#).contains("netwrok"));
        assert!(bad(r#"{"capabilities": ["SYS_ADMIN"]}"#).contains("not a Linux capability"));
        assert!(bad(r#"{"syscalls": ["reboot"]}"#).contains("reboot"));
        assert!(bad(r#"{"read": ["etc"]}"#).contains("absolute"));
        assert!(bad(r#"{"read": ["/etc/../root"]}"#).contains("absolute"));
        assert!(bad(r#"{"write": ["/"]}"#).contains("whole file system"));
        assert!(bad(r#"{"memory_max": "lots"}"#).contains("memory_max"));
        assert!(bad(r#"{"tasks_max": 0}"#).contains("tasks"));
        assert!(bad(r#"{"level": "paranoid"}"#).contains("paranoid"));
        let key = PolicyFile::parse(br#"{"schema_version": 1, "plugins": {"../x": {}}}"#);
        assert!(key.unwrap_err().contains("TYPE/NAME"));
        let newer = PolicyFile::parse(br#"{"schema_version": 9, "plugins": {}}"#);
        assert!(newer.unwrap_err().contains("newer"));
    }

    #[test]
    fn a_grant_from_the_environment_is_never_the_whole_disk_nor_relative() {
        let g: Grant = "${STORE}".parse().unwrap();
        let env = |v: &str| vec![("STORE".into(), v.into())];
        assert_eq!(g.resolve(&env("/srv/s")), Some(PathBuf::from("/srv/s")));
        assert_eq!(g.resolve(&env("/")), None);
        assert_eq!(g.resolve(&env("s")), None);
        assert_eq!(g.resolve(&env("/srv/../etc")), None);
        assert_eq!(g.resolve(&[]), None);
        assert!("${1X}".parse::<Grant>().is_err());
        assert!("${X}/../y".parse::<Grant>().is_err());
    }
}

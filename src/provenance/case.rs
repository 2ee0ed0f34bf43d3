//! `--record DIR`: every plugin call saved as one case file — argv, the exact
//! environment, stdout, stderr, exit status, duration and the plugin's
//! sha256 — that `plugctl replay` can run again.
//!
//! A secrets fetch is never recorded in clear: its result is kept as the
//! keys with a sha256 of each value (enough to tell a changed answer from the
//! same one), and its stderr, which may echo values, only as a hash.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::Call;
use crate::family::{Family, Operation};
use crate::runner::{Invocation, Outcome, Termination};
use crate::{Error, Result};

pub const CASE_SCHEMA_VERSION: u32 = 1;

/// One recorded call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Case {
    pub schema_version: u32,
    #[serde(rename = "type")]
    pub family: String,
    pub name: String,
    /// An operation plugctl knows: a case file naming another is refused
    /// when it is read.
    pub operation: Operation,
    #[serde(default)]
    pub subject: Option<String>,
    pub program: PathBuf,
    pub args: Vec<String>,
    /// The environment, `KEY=VALUE` each, in the order plugctl formed it.
    pub env: Vec<String>,
    pub timeout_ms: u64,
    pub grace_ms: u64,
    /// sha256 of the plugin file when the call was made (None for a built-in
    /// or an unreadable file).
    pub plugin_sha256: Option<String>,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub timed_out: bool,
    pub duration_ms: u64,
    /// Stdout as text (lossy for invalid UTF-8), unless redacted.
    #[serde(default)]
    pub stdout: Option<String>,
    #[serde(default)]
    pub stderr: Option<String>,
    /// For a secrets fetch: each result key with `sha256:<hex>` of its
    /// value; stdout and stderr are then None and only hashed here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redacted: Option<Redacted>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Redacted {
    /// None when stdout was not a `{"result": {...}}` of strings.
    pub result: Option<BTreeMap<String, String>>,
    pub stdout_sha256: String,
    pub stderr_sha256: String,
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A secrets result as keys and value hashes; None when stdout is not one.
pub fn hash_result(stdout: &[u8]) -> Option<BTreeMap<String, String>> {
    let v: serde_json::Value = serde_json::from_slice(stdout).ok()?;
    let obj = v.get("result")?.as_object()?;
    obj.iter()
        .map(|(k, v)| {
            v.as_str()
                .map(|s| (k.clone(), format!("sha256:{}", sha256_hex(s.as_bytes()))))
        })
        .collect()
}

impl Case {
    /// A secrets fetch: its stdout carried secret values, and its argv
    /// carries the secret's path after the operation.
    pub fn carries_secrets(&self) -> bool {
        Family::Secrets.is(&self.family) && self.operation == Operation::Fetch
    }

    /// The environment as pairs (split at the first `=`).
    pub fn env_pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.env
            .iter()
            .map(|kv| kv.split_once('=').unwrap_or((kv.as_str(), "")))
    }

    pub fn new(
        call: &Call,
        inv: &Invocation,
        out: &Outcome,
        plugin_sha256: Option<String>,
    ) -> Case {
        let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        let (exit_code, signal) = match out.termination {
            Termination::Exited(c) => (Some(c), None),
            Termination::Signaled(s) => (None, Some(s)),
        };
        let (stdout, stderr, redacted) = if call.carries_secrets() {
            (
                None,
                None,
                Some(Redacted {
                    result: hash_result(&out.stdout),
                    stdout_sha256: sha256_hex(&out.stdout),
                    stderr_sha256: sha256_hex(&out.stderr),
                }),
            )
        } else {
            (Some(lossy(&out.stdout)), Some(lossy(&out.stderr)), None)
        };
        Case {
            schema_version: CASE_SCHEMA_VERSION,
            family: call.family.clone(),
            name: call.name.clone(),
            operation: call.operation,
            subject: call.subject.clone(),
            program: inv.program.clone(),
            args: inv
                .args
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            env: inv
                .env
                .iter()
                .map(|(k, v)| format!("{}={}", k.to_string_lossy(), v.to_string_lossy()))
                .collect(),
            timeout_ms: u64::try_from(inv.deadline.as_millis()).unwrap_or(u64::MAX),
            grace_ms: u64::try_from(inv.grace.as_millis()).unwrap_or(u64::MAX),
            plugin_sha256,
            exit_code,
            signal,
            timed_out: out.timed_out,
            duration_ms: u64::try_from(out.duration.as_millis()).unwrap_or(u64::MAX),
            stdout,
            stderr,
            redacted,
        }
    }

    /// Reads one case file (plugctl's own format; a newer one is refused).
    pub fn load(path: &Path) -> Result<Case> {
        let bad = |m: String| Error::usage(format!("case file {}: {m}", path.display()));
        let file = OpenOptions::new()
            .read(true)
            .custom_flags(
                nix::fcntl::OFlag::O_NOFOLLOW.bits() | nix::fcntl::OFlag::O_NONBLOCK.bits(),
            )
            .open(path)
            .map_err(|e| bad(e.to_string()))?;
        if !file.metadata().map_err(|e| bad(e.to_string()))?.is_file() {
            return Err(bad("not a regular file".into()));
        }
        let mut text = String::new();
        file.take(64 << 20)
            .read_to_string(&mut text)
            .map_err(|e| bad(e.to_string()))?;
        let case: Case = serde_json::from_str(&text)
            .map_err(|e| bad(format!("not a plugctl case file: {e}")))?;
        if case.schema_version > CASE_SCHEMA_VERSION {
            return Err(bad(format!(
                "written by a newer plugctl (schema_version {})",
                case.schema_version
            )));
        }
        Ok(case)
    }
}

/// Writes case files into one directory, numbered in the order calls end.
#[derive(Debug)]
pub struct Recorder {
    dir: PathBuf,
    next: AtomicU64,
    printer: crate::output::Printer,
}

impl Recorder {
    /// Creates the directory (0700: env and output may be sensitive) if it
    /// does not exist; an existing one must be a real directory.
    pub fn open(dir: &Path, printer: crate::output::Printer) -> Result<Recorder> {
        let err = |e: io::Error| Error::usage(format!("--record {}: {e}", dir.display()));
        match fs::symlink_metadata(dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(err(io::Error::other(
                    "not a directory (symlinks are not followed)",
                )));
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                fs::DirBuilder::new()
                    .recursive(true)
                    .mode(0o700)
                    .create(dir)
                    .map_err(err)?;
            }
            Err(e) => return Err(err(e)),
        }
        // Continue numbering after what is there, so two runs into one
        // directory keep both.
        let existing = fs::read_dir(dir)
            .map_err(err)?
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                e.file_name()
                    .to_str()
                    .and_then(|n| n.split('-').next().and_then(|s| s.parse::<u64>().ok()))
            })
            .max()
            .unwrap_or(0);
        Ok(Recorder {
            dir: dir.to_path_buf(),
            next: AtomicU64::new(existing + 1),
            printer,
        })
    }
}

impl crate::runner::Witness for Recorder {
    /// Records one call that ran. A failure to record is a warning: the
    /// call itself happened and its result stands.
    fn record(&self, inv: &Invocation, out: &Outcome) {
        let Some(call) = Call::infer(inv) else {
            self.printer.warn(format!(
                "not recorded: {} was not called with an operation plugctl knows",
                inv.program.display()
            ));
            return;
        };
        let case = Case::new(&call, inv, out, plugin_hash(&inv.program));
        if let Err(e) = self.save(&case) {
            self.printer.warn(e.to_string());
        }
    }
}

impl Recorder {
    /// Saves one call; the file name is `<n>-<type>-<name>-<operation>.json`
    /// (names are plugin names, already free of `/`).
    pub fn save(&self, case: &Case) -> Result<PathBuf> {
        let n = self.next.fetch_add(1, Ordering::SeqCst);
        let path = self.dir.join(format!(
            "{n:04}-{}-{}-{}.json",
            case.family, case.name, case.operation
        ));
        let io_err =
            |e: io::Error| Error::io(format!("cannot record a call to {}", path.display()), e);
        let mut text = serde_json::to_string_pretty(case).map_err(|e| io_err(e.into()))?;
        text.push('\n');
        let mut f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(nix::fcntl::OFlag::O_NOFOLLOW.bits())
            .open(&path)
            .map_err(io_err)?;
        f.write_all(text.as_bytes())
            .and_then(|()| f.sync_all())
            .map_err(io_err)?;
        Ok(path)
    }
}

/// The sha256 of a plugin file, for a case (None when it cannot be read).
pub fn plugin_hash(program: &Path) -> Option<String> {
    let f = File::open(program).ok()?;
    crate::pin::hash_reader(f).ok().map(|(h, _)| h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_result_is_kept_as_keys_and_hashes() {
        let h = hash_result(br#"{"result": {"pw": "hunter2", "user": "app"}}"#).unwrap();
        assert_eq!(h.len(), 2);
        assert_eq!(h["pw"], format!("sha256:{}", sha256_hex(b"hunter2")));
        assert!(!h.values().any(|v| v.contains("hunter2")));
        assert_eq!(hash_result(b"not json"), None);
        assert_eq!(hash_result(br#"{"result": {"n": 1}}"#), None);
    }
}

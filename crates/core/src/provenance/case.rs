//! `--record DIR`: every plugin call saved as one case file — argv, the
//! environment, stdout, stderr, exit status, duration and the plugin's
//! sha256 — that `plugctl replay` can run again.
//!
//! What may be secret is never recorded in clear:
//! - a secrets fetch's result is kept as its keys with an HMAC-SHA256 of
//!   each value, and its stdout and stderr (which may echo values) only as
//!   HMACs. The HMAC key is random, one per case directory, kept beside the
//!   cases ([`KEY_FILE`], 0600): equal values compare equal within the
//!   directory, but a value cannot be guessed from its digest (an unsalted
//!   sha256 of `hunter2` is a well-known string);
//! - the values of a fetch's own variables (`--env`, `--env-file`) are left
//!   out — only their names are kept — unless `--record-env` asks for them.
//!
//! The directory and every case file go through the trust gate: written
//! by plugctl (0700 directory, 0600 files, created exclusively), and read
//! back only when root or the invoking user owns them and nobody else can
//! write them.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::Call;
use crate::family::{Family, Operation};
use crate::runner::{Invocation, Outcome, Termination};
use crate::trust::{CheckedDir, Policy, Refusal};
use crate::{Error, Result};

/// 2: `env_redacted`, HMACs instead of sha256 for secrets.
pub const CASE_SCHEMA_VERSION: u32 = 2;

/// The largest case file replay reads (a call's output is bounded at a
/// few MiB).
pub const CASE_MAX: u64 = 64 << 20;

/// Case numbers plugctl continues from; a larger one in a file name is
/// not one it wrote.
const CASE_NUMBER_MAX: u64 = 1_000_000_000;

/// The HMAC key of a case directory: 32 random bytes, hex, 0600.
pub const KEY_FILE: &str = ".plugctl-record-key";

/// The variables of a fetch that plugctl sets itself (every other one is
/// the caller's, and may configure a secret).
pub const FETCH_OWN_KEYS: [&str; 3] = ["CPI_OPERATION", "NOMAD_JOB_ID", "NOMAD_NAMESPACE"];

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
    /// The environment, `KEY=VALUE` each, in the order plugctl formed it,
    /// without the variables of [`Case::env_redacted`].
    pub env: Vec<String>,
    /// Variables the call had whose values were not kept (a fetch's own
    /// `--env` values, without `--record-env`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env_redacted: Vec<String>,
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
    /// For a secrets fetch: each result key with a digest of its value;
    /// stdout and stderr are then None and kept only as digests here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redacted: Option<Redacted>,
    /// The sandbox level and policy the call ran under, in words (absent:
    /// none, as a Nomad client runs it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Redacted {
    /// Each key with `hmac-sha256:<hex>` of its value (`sha256:<hex>` in
    /// schema 1); None when stdout was not a `{"result": {...}}` of strings.
    pub result: Option<BTreeMap<String, String>>,
    /// Schema 1: sha256 of stdout and stderr.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdout_sha256: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr_sha256: Option<String>,
    /// `hmac-sha256:<hex>` of stdout and stderr.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdout_hmac: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr_hmac: Option<String>,
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The HMAC key of one case directory. Wiped when dropped.
pub struct RecordKey(zeroize::Zeroizing<[u8; 32]>);

impl std::fmt::Debug for RecordKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RecordKey(..)")
    }
}

impl RecordKey {
    /// `hmac-sha256:<hex>` of `bytes`.
    pub fn digest(&self, bytes: &[u8]) -> String {
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.0[..])
            .expect("HMAC takes a key of any length");
        mac.update(bytes);
        let tag: String = mac
            .finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        format!("hmac-sha256:{tag}")
    }

    fn parse(bytes: &[u8]) -> Option<RecordKey> {
        let text = std::str::from_utf8(bytes).ok()?.trim();
        if text.len() != 64 {
            return None;
        }
        let mut key = zeroize::Zeroizing::new([0u8; 32]);
        for (i, pair) in text.as_bytes().chunks(2).enumerate() {
            let hex = std::str::from_utf8(pair).ok()?;
            key[i] = u8::from_str_radix(hex, 16).ok()?;
        }
        Some(RecordKey(key))
    }

    /// The key of a case directory; `Ok(None)` when it has none.
    pub fn load(dir: &CheckedDir) -> std::result::Result<Option<RecordKey>, Refusal> {
        match dir.read(KEY_FILE, 128) {
            Ok(bytes) => RecordKey::parse(&bytes).map(Some).ok_or_else(|| {
                Refusal::io(
                    dir.join(KEY_FILE),
                    io::Error::other("not a plugctl record key (64 hex digits)"),
                )
            }),
            Err(r) if r.is_not_found() => Ok(None),
            Err(r) => Err(r),
        }
    }

    /// The key of a case directory, made (random, 0600, exclusively) when
    /// it has none yet.
    pub fn load_or_make(dir: &CheckedDir) -> std::result::Result<RecordKey, Refusal> {
        if let Some(key) = RecordKey::load(dir)? {
            return Ok(key);
        }
        let mut key = zeroize::Zeroizing::new([0u8; 32]);
        rustix::rand::getrandom(&mut key[..], rustix::rand::GetRandomFlags::empty()).map_err(
            |e| {
                Refusal::io(
                    dir.join(KEY_FILE),
                    io::Error::from_raw_os_error(e.raw_os_error()),
                )
            },
        )?;
        let hex = zeroize::Zeroizing::new(
            key.iter().map(|b| format!("{b:02x}")).collect::<String>() + "\n",
        );
        match dir.create_new(KEY_FILE, 0o600) {
            Ok(mut f) => {
                f.write_all(hex.as_bytes())
                    .and_then(|()| f.sync_all())
                    .map_err(|e| Refusal::io(dir.join(KEY_FILE), e))?;
                Ok(RecordKey(key))
            }
            // Another recorder made it meanwhile: theirs is the key.
            Err(r)
                if r.io_error()
                    .is_some_and(|e| e.kind() == io::ErrorKind::AlreadyExists) =>
            {
                RecordKey::load(dir)?.ok_or(r)
            }
            Err(r) => Err(r),
        }
    }
}

/// A secrets result as keys and value digests (`digest` of each value);
/// None when stdout is not one.
pub fn digest_result(
    stdout: &[u8],
    digest: impl Fn(&[u8]) -> String,
) -> Option<BTreeMap<String, String>> {
    let v: serde_json::Value = serde_json::from_slice(stdout).ok()?;
    let obj = v.get("result")?.as_object()?;
    obj.iter()
        .map(|(k, v)| v.as_str().map(|s| (k.clone(), digest(s.as_bytes()))))
        .collect()
}

/// Schema 1's digest of a value: an unsalted sha256.
pub fn sha256_digest(bytes: &[u8]) -> String {
    format!("sha256:{}", sha256_hex(bytes))
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

    /// The case of one call. `key` digests what may be secret; `keep_env`
    /// (`--record-env`) keeps the values of a fetch's own variables.
    pub fn new(
        call: &Call,
        inv: &Invocation,
        out: &Outcome,
        plugin_sha256: Option<String>,
        key: &RecordKey,
        keep_env: bool,
    ) -> Case {
        let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        let (exit_code, signal) = match out.termination {
            Termination::Exited(c) => (Some(c), None),
            Termination::Signaled(s) => (None, Some(s)),
        };
        let secrets = call.carries_secrets();
        let (stdout, stderr, redacted) = if secrets {
            (
                None,
                None,
                Some(Redacted {
                    result: digest_result(&out.stdout, |v| key.digest(v)),
                    stdout_sha256: None,
                    stderr_sha256: None,
                    stdout_hmac: Some(key.digest(&out.stdout)),
                    stderr_hmac: Some(key.digest(&out.stderr)),
                }),
            )
        } else {
            (Some(lossy(&out.stdout)), Some(lossy(&out.stderr)), None)
        };
        let mut env = Vec::with_capacity(inv.env.len());
        let mut env_redacted = Vec::new();
        for (k, v) in &inv.env {
            let k = k.to_string_lossy();
            if secrets && !keep_env && !FETCH_OWN_KEYS.contains(&k.as_ref()) {
                env_redacted.push(k.into_owned());
            } else {
                env.push(format!("{k}={}", v.to_string_lossy()));
            }
        }
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
            env,
            env_redacted,
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
            sandbox: inv
                .confine
                .as_ref()
                .map(|p| p.confinement.describe())
                .filter(|d| d != crate::sandbox::Level::None.name()),
        }
    }

    /// Reads one case file through the gate (plugctl's own format; a newer
    /// one is refused; its type and name held to the name rules, since
    /// they choose which plugin file replay runs).
    pub fn load(dir: &CheckedDir, name: &OsStr) -> Result<Case> {
        let path = dir.join(name);
        let bad = |m: String| Error::usage(format!("case file {}: {m}", path.display()));
        let bytes = dir.read(name, CASE_MAX).map_err(|r| match r {
            Refusal::Symlink(_) => bad("is a symbolic link, which replay never follows (a case \
                                        file is data another user may have planted); copy the \
                                        file itself into the directory"
                .into()),
            r => Error::refused(format_args!("case file {}", path.display()), &r),
        })?;
        let case: Case = serde_json::from_slice(&bytes)
            .map_err(|e| bad(format!("not a plugctl case file: {e}")))?;
        if case.schema_version > CASE_SCHEMA_VERSION {
            return Err(bad(format!(
                "written by a newer plugctl (schema_version {})",
                case.schema_version
            )));
        }
        crate::discovery::check_name(&case.family)
            .map_err(|why| bad(format!("its type breaks the name rules: {why}")))?;
        crate::discovery::check_name(&case.name)
            .map_err(|why| bad(format!("its name breaks the name rules: {why}")))?;
        Ok(case)
    }
}

/// Writes case files into one directory, numbered in the order calls end.
#[derive(Debug)]
pub struct Recorder {
    dir: CheckedDir,
    key: RecordKey,
    keep_env: bool,
    next: AtomicU64,
}

impl Recorder {
    /// Creates the directory (0700: env and output may be sensitive) if it
    /// does not exist, through the gate; an existing one must be one the
    /// gate trusts. Its HMAC key is made on first use.
    pub fn open(dir: &Path, policy: Policy, keep_env: bool) -> Result<Recorder> {
        let err = |r: Refusal| match r {
            Refusal::Symlink(_) => Error::usage(format!(
                "case directory {}: a part of it is a symbolic link, which plugctl does not \
                 follow for its own files",
                dir.display()
            )),
            r => Error::refused(format_args!("case directory {}", dir.display()), &r),
        };
        let checked = CheckedDir::create_all(policy, dir, 0o700).map_err(err)?;
        let key = RecordKey::load_or_make(&checked).map_err(err)?;
        // Continue numbering after what is there, so two runs into one
        // directory keep both.
        let existing = checked
            .entries()
            .map_err(err)?
            .into_iter()
            .filter_map(|(name, _)| {
                name.to_str()
                    .and_then(|n| n.split('-').next().and_then(|s| s.parse::<u64>().ok()))
            })
            // A name someone planted with a huge number does not get to
            // decide ours (or overflow it).
            .filter(|n| *n < CASE_NUMBER_MAX)
            .max()
            .unwrap_or(0);
        Ok(Recorder {
            dir: checked,
            key,
            keep_env,
            next: AtomicU64::new(existing + 1),
        })
    }
}

impl crate::runner::Witness for Recorder {
    /// Records one call that ran. A failure to record is a warning
    /// (`tracing`): the call itself happened and its result stands.
    fn record(&self, inv: &Invocation, out: &Outcome) {
        let Some(call) = Call::infer(inv) else {
            tracing::warn!(
                "not recorded: {} was not called with an operation plugctl knows",
                inv.program.display()
            );
            return;
        };
        let case = Case::new(
            &call,
            inv,
            out,
            plugin_hash(&inv.program),
            &self.key,
            self.keep_env,
        );
        if let Err(e) = self.save(&case) {
            tracing::warn!("{e}");
        }
    }
}

impl Recorder {
    /// Saves one call; the file name is `<n>-<type>-<name>-<operation>.json`
    /// (names are plugin names, already free of `/`), created exclusively.
    pub fn save(&self, case: &Case) -> Result<PathBuf> {
        let n = self.next.fetch_add(1, Ordering::SeqCst);
        let name = format!(
            "{n:04}-{}-{}-{}.json",
            case.family, case.name, case.operation
        );
        let path = self.dir.join(&name);
        let io_err =
            |e: io::Error| Error::io(format!("cannot record a call to {}", path.display()), e);
        let mut text = serde_json::to_string_pretty(case).map_err(|e| io_err(e.into()))?;
        text.push('\n');
        let mut f = self
            .dir
            .create_new(&name, 0o600)
            .map_err(|r| Error::usage(format!("cannot record a call: {r}")))?;
        f.write_all(text.as_bytes())
            .and_then(|()| f.sync_all())
            .map_err(io_err)?;
        Ok(path)
    }
}

/// The sha256 of a plugin file, for a case (None when it cannot be read),
/// read through the gate's walk.
pub fn plugin_hash(program: &Path) -> Option<String> {
    let (dir, name, _) = crate::trust::dir::resolve_file(Policy::insecure(), program).ok()?;
    let (f, _) = dir.open_read(&name, crate::pin::PROGRAM_MAX).ok()?;
    crate::pin::hash_reader(f).ok().map(|(h, _)| h)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> RecordKey {
        RecordKey::parse(&[b'7'; 64]).unwrap()
    }

    #[test]
    fn a_secret_result_is_kept_as_keys_and_keyed_digests() {
        let k = key();
        let h = digest_result(br#"{"result": {"pw": "hunter2", "user": "app"}}"#, |v| {
            k.digest(v)
        })
        .unwrap();
        assert_eq!(h.len(), 2);
        assert_eq!(h["pw"], k.digest(b"hunter2"));
        assert!(h["pw"].starts_with("hmac-sha256:"));
        // Not the well-known unsalted hash, and not the value.
        assert!(!h["pw"].contains(&sha256_hex(b"hunter2")));
        assert!(!h.values().any(|v| v.contains("hunter2")));
        assert_ne!(
            h["pw"],
            RecordKey::parse(&[b'8'; 64]).unwrap().digest(b"hunter2")
        );
        assert_eq!(digest_result(b"not json", sha256_digest), None);
        assert_eq!(
            digest_result(br#"{"result": {"n": 1}}"#, sha256_digest),
            None
        );
    }

    #[test]
    fn a_key_is_64_hex_digits() {
        assert!(RecordKey::parse(b"00").is_none());
        assert!(RecordKey::parse(&[b'g'; 64]).is_none());
        assert!(RecordKey::parse(format!("{}\n", "ab".repeat(32)).as_bytes()).is_some());
    }
}

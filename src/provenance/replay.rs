//! `plugctl replay DIR`: run recorded calls again against today's plugins
//! and compare. JSON stdout is compared as data, after normalising what
//! legitimately changes between runs: generated UUIDs, the volumes
//! directory (a replay never touches the real one: host-volume calls run
//! against a scratch directory), and durations.
//!
//! A case file is data, not a command: replay runs only the plugin that
//! discovery finds today under the recorded family and name, with the
//! recorded operation as its only argument — never the program path or
//! arguments a case file claims.

use std::ffi::OsString;
use std::path::Path;
use std::sync::LazyLock;
use std::time::Duration;

use regex::Regex;
use serde::Serialize;
use serde_json::Value;

use super::case::{Case, hash_result, sha256_hex};
use crate::runner::{Invocation, Outcome, Termination};

/// What one replayed case found.
#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    pub file: String,
    #[serde(rename = "type")]
    pub family: String,
    pub name: String,
    pub operation: String,
    pub ok: bool,
    /// Each difference, with a unified diff where there is one.
    pub differences: Vec<String>,
    /// What changed without failing the case (the plugin file's hash).
    pub notes: Vec<String>,
    pub duration_ms: u64,
}

impl Verdict {
    pub fn new(file: &Path, case: &Case) -> Verdict {
        Verdict {
            file: file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            family: case.family.clone(),
            name: case.name.clone(),
            operation: case.operation.name().to_string(),
            ok: true,
            differences: Vec::new(),
            notes: Vec::new(),
            duration_ms: 0,
        }
    }

    pub fn differ(&mut self, what: impl Into<String>) {
        self.ok = false;
        self.differences.push(what.into());
    }
}

/// The invocation that replays `case` with the plugin at `program`, the
/// volumes directory moved to `scratch`.
pub fn invocation(case: &Case, program: &Path, scratch: &Path) -> Invocation {
    let recorded_dir = recorded_volumes_dir(case);
    let mut inv = Invocation::new(
        program,
        Duration::from_millis(case.timeout_ms),
        Duration::from_millis(case.grace_ms),
    );
    for a in &case.args {
        inv = inv.arg(OsString::from(a));
    }
    for (k, v) in case.env_pairs() {
        let v = match &recorded_dir {
            Some(dir) => move_prefix(v, dir, &scratch.to_string_lossy()),
            None => v.to_string(),
        };
        inv = inv.env(OsString::from(k), OsString::from(v));
    }
    inv
}

fn recorded_volumes_dir(case: &Case) -> Option<String> {
    case.env_pairs()
        .find(|(k, _)| *k == "DHV_VOLUMES_DIR")
        .map(|(_, v)| v.to_string())
        .filter(|v| v.len() > 1)
}

/// `value` with a leading `from` (a whole path prefix) replaced by `to`.
fn move_prefix(value: &str, from: &str, to: &str) -> String {
    match value.strip_prefix(from) {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => format!("{to}{rest}"),
        _ => value.to_string(),
    }
}

/// Compares today's outcome with the case.
pub fn compare(case: &Case, out: &Outcome, scratch: &Path, verdict: &mut Verdict) {
    let (code, signal) = match out.termination {
        Termination::Exited(c) => (Some(c), None),
        Termination::Signaled(s) => (None, Some(s)),
    };
    if out.timed_out != case.timed_out {
        verdict.differ(format!(
            "timed out: recorded {}, now {}",
            case.timed_out, out.timed_out
        ));
    }
    if (code, signal) != (case.exit_code, case.signal) {
        verdict.differ(format!(
            "exit status: recorded {}, now {}",
            status(case.exit_code, case.signal),
            status(code, signal)
        ));
    }
    if let Some(red) = &case.redacted {
        // Only hashes were recorded: compare the result's keys and value
        // hashes, or the whole stdout's hash when it was not a result.
        match (&red.result, hash_result(&out.stdout)) {
            (Some(was), Some(now)) if *was != now => {
                let mut keys: Vec<&String> = was.keys().chain(now.keys()).collect();
                keys.sort();
                keys.dedup();
                let changed: Vec<String> = keys
                    .into_iter()
                    .filter(|k| was.get(*k) != now.get(*k))
                    .map(|k| k.to_string())
                    .collect();
                verdict.differ(format!(
                    "secret result differs in keys {} (values compared by sha256 only)",
                    changed.join(", ")
                ));
            }
            (Some(_), Some(_)) => {}
            _ if red.stdout_sha256 != sha256_hex(&out.stdout) => {
                verdict.differ("stdout differs (compared by sha256 only: it may hold secrets)");
            }
            _ => {}
        }
        return;
    }
    let recorded = case.stdout.clone().unwrap_or_default();
    let now = String::from_utf8_lossy(&out.stdout).into_owned();
    let dir = recorded_volumes_dir(case);
    let scratch = scratch.to_string_lossy();
    let (a, b) = (
        normalise_text(&recorded, dir.as_deref()),
        normalise_text(&now, Some(&scratch)),
    );
    if a != b {
        verdict.differ(format!("stdout differs:\n{}", unified(&a, &b)));
    }
}

fn status(code: Option<i32>, signal: Option<i32>) -> String {
    match (code, signal) {
        (Some(c), _) => format!("exit {c}"),
        (_, Some(s)) => format!("signal {s}"),
        _ => "unknown".into(),
    }
}

static UUID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
        .expect("static regex")
});

/// Stdout as comparable text: JSON re-printed with sorted keys and the
/// changing parts replaced; anything else as it is, with the same
/// replacements.
pub fn normalise_text(stdout: &str, volumes_dir: Option<&str>) -> String {
    match serde_json::from_str::<Value>(stdout) {
        Ok(v) => {
            let v = normalise(v, volumes_dir, None);
            serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
        }
        Err(_) => replace_text(stdout, volumes_dir),
    }
}

fn replace_text(s: &str, volumes_dir: Option<&str>) -> String {
    let s = match volumes_dir {
        Some(d) if !d.is_empty() => s.replace(d, "$DHV_VOLUMES_DIR"),
        _ => s.to_string(),
    };
    UUID.replace_all(&s, "<uuid>").into_owned()
}

fn normalise(v: Value, volumes_dir: Option<&str>, key: Option<&str>) -> Value {
    match v {
        Value::String(s) => Value::String(replace_text(&s, volumes_dir)),
        Value::Number(_) if key.is_some_and(is_duration_key) => Value::String("<duration>".into()),
        Value::Array(a) => Value::Array(
            a.into_iter()
                .map(|x| normalise(x, volumes_dir, None))
                .collect(),
        ),
        Value::Object(m) => Value::Object(
            m.into_iter()
                .map(|(k, x)| {
                    let x = normalise(x, volumes_dir, Some(&k));
                    (k, x)
                })
                .collect(),
        ),
        other => other,
    }
}

fn is_duration_key(k: &str) -> bool {
    let k = k.to_ascii_lowercase();
    k.contains("duration") || k.contains("elapsed") || k.ends_with("_ms") || k.ends_with("_seconds")
}

/// A unified diff of two texts, `-` recorded, `+` now.
pub fn unified(a: &str, b: &str) -> String {
    similar::TextDiff::from_lines(a, b)
        .unified_diff()
        .header("recorded", "now")
        .to_string()
}

/// The scratch volumes directory a replay uses, removed when dropped.
pub fn scratch_dir() -> std::io::Result<tempfile::TempDir> {
    tempfile::Builder::new().prefix("plugctl-replay-").tempdir()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_compared_as_data_with_ids_dirs_and_durations_normalised() {
        let a = r#"{"path": "/real/vols/0b9e4f5c-1c0e-4c43-9d4e-2a1f0b7c6d11", "bytes": 5, "duration_ms": 12}"#;
        let b =
            r#"{"bytes":5,"duration_ms":99,"path":"/tmp/s/6f1c0d2e-aaaa-4bbb-8ccc-123456789abc"}"#;
        assert_eq!(
            normalise_text(a, Some("/real/vols")),
            normalise_text(b, Some("/tmp/s"))
        );
        let c = r#"{"path": "/tmp/s/x", "bytes": 6}"#;
        assert_ne!(
            normalise_text(a, Some("/real/vols")),
            normalise_text(c, Some("/tmp/s"))
        );
    }

    #[test]
    fn only_whole_path_prefixes_move() {
        assert_eq!(move_prefix("/v/a", "/v", "/s"), "/s/a");
        assert_eq!(move_prefix("/v", "/v", "/s"), "/s");
        assert_eq!(move_prefix("/vx/a", "/v", "/s"), "/vx/a");
    }
}

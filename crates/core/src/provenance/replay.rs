//! `plugctl replay DIR`: run recorded calls again against today's plugins
//! and compare. JSON stdout is compared as data, after normalising what
//! legitimately changes between runs: generated UUIDs, the volumes
//! directory (a replay never touches the real one: host-volume calls run
//! against a scratch directory), and durations.
//!
//! A case file is data, not a command — another user may have written it.
//! Replay runs only the plugin that discovery finds today under the
//! recorded family and name (both held to the name rules), with the
//! recorded operation as its argument, and builds the environment itself
//! ([`rebuild`]): from the operation and the protocol's own variables,
//! each at most once and held to the protocol's rules, through the same
//! functions a real call's environment comes from, with its own scratch
//! volumes directory. A variable the protocol does not name (`LD_PRELOAD`,
//! `BASH_ENV`, `PATH`...) is refused, never passed; a fetch's own
//! variables come from replay's `--env`, never from the case; a deadline
//! beyond what the release allows is refused. Nothing runs then.

use crate::error::{Advised, Hint};
use std::collections::BTreeMap;
use std::path::{Component, Path};
use std::sync::LazyLock;
use std::time::Duration;

use regex::Regex;
use serde::Serialize;
use serde_json::Value;

use super::case::{Case, FETCH_OWN_KEYS, RecordKey, digest_result, sha256_digest, sha256_hex};
use crate::families::host_volume::{self, Request};
use crate::families::secrets::{self, FetchRequest};
use crate::family::{Family, Operation};
use crate::nomad::Profile;
use crate::runner::{Invocation, Outcome, Termination};

/// The longest grace (SIGTERM to SIGKILL) a case may ask for.
pub const GRACE_MAX: Duration = Duration::from_secs(30);

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
    /// What the replayed call cost, when it ran (see [`crate::usage`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<crate::usage::Usage>,
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
            usage: None,
        }
    }

    pub fn differ(&mut self, what: impl Into<String>) {
        self.ok = false;
        self.differences.push(what.into());
    }
}

/// Where a replay runs and what it may use.
#[derive(Debug, Clone)]
pub struct Scene<'a> {
    /// Today's plugin file for the case.
    pub program: &'a Path,
    /// Today's host-volume plugin directory (`DHV_PLUGIN_DIR`).
    pub plugin_dir: &'a Path,
    /// The scratch volumes directory (`DHV_VOLUMES_DIR`).
    pub scratch: &'a Path,
    /// The release whose limits hold.
    pub profile: Profile,
    /// `replay --env`: the values of a fetch's own variables.
    pub env: &'a [(String, String)],
}

/// The recorded value of each variable, each at most once.
fn recorded_env(case: &Case) -> Result<BTreeMap<&str, &str>, String> {
    let mut env = BTreeMap::new();
    for (k, v) in case.env_pairs() {
        if env.insert(k, v).is_some() {
            return Err(format!(
                "the case sets {k} twice; plugctl never records a variable twice"
            ));
        }
    }
    Ok(env)
}

/// The variables of each call, as the protocol names them.
fn protocol_keys(family: Option<Family>, op: Operation) -> &'static [&'static str] {
    match (family, op) {
        (Some(Family::HostVolume), Operation::Fingerprint) => &["DHV_OPERATION"],
        (Some(Family::HostVolume), Operation::Create) => &[
            "DHV_OPERATION",
            "DHV_VOLUMES_DIR",
            "DHV_PLUGIN_DIR",
            "DHV_NODE_POOL",
            "DHV_NAMESPACE",
            "DHV_VOLUME_NAME",
            "DHV_VOLUME_ID",
            "DHV_CAPACITY_MIN_BYTES",
            "DHV_CAPACITY_MAX_BYTES",
            "DHV_NODE_ID",
            "DHV_PARAMETERS",
        ],
        (Some(Family::HostVolume), Operation::Delete) => &[
            "DHV_OPERATION",
            "DHV_VOLUMES_DIR",
            "DHV_PLUGIN_DIR",
            "DHV_NODE_POOL",
            "DHV_CREATED_PATH",
            "DHV_NAMESPACE",
            "DHV_VOLUME_NAME",
            "DHV_VOLUME_ID",
            "DHV_NODE_ID",
            "DHV_PARAMETERS",
        ],
        (Some(Family::Secrets), Operation::Fetch) => &FETCH_OWN_KEYS,
        (_, Operation::Fingerprint) => &["CPI_OPERATION"],
        _ => &[],
    }
}

/// The longest deadline a call of this kind gets on `profile`'s release.
fn deadline_limit(family: Option<Family>, op: Operation, profile: Profile) -> Duration {
    match (family, op) {
        (Some(Family::HostVolume), Operation::Fingerprint) => {
            profile.fingerprint_deadline(Family::HostVolume.name())
        }
        (Some(Family::HostVolume), _) => host_volume::OPERATION_DEADLINE,
        _ => profile.secrets_deadline(),
    }
}

/// The invocation that replays `case`, built by replay itself (see the
/// module): `Err` says why the case cannot be replayed, and nothing runs.
pub fn rebuild(case: &Case, scene: &Scene<'_>) -> Result<Invocation, Advised> {
    // A fetch's output is compared by digest only and never shown: a case
    // that kept it (or lost its digests) is not one plugctl recorded, and
    // replaying it would print today's secret in a diff.
    if case.carries_secrets()
        && (case.redacted.is_none() || case.stdout.is_some() || case.stderr.is_some())
    {
        return Err(
            "a fetch case keeps its output only as digests, and this one does not: \
                    it is not as plugctl records a fetch"
                .into(),
        );
    }
    let family = Family::of(&case.family);
    let op = case.operation;
    let allowed = protocol_keys(family, op);
    if allowed.is_empty() {
        return Err(format!(
            "a {} plugin has no {op} operation plugctl runs",
            case.family
        )
        .into());
    }
    let env = recorded_env(case)?;
    let caller_keys: Vec<&str> = env
        .keys()
        .copied()
        .chain(case.env_redacted.iter().map(String::as_str))
        .filter(|k| !allowed.contains(k))
        .collect();
    let fetch = family == Some(Family::Secrets) && op == Operation::Fetch;
    if !fetch && let Some(k) = caller_keys.first() {
        return Err(format!(
            "the case sets {k}, which the protocol does not give a {} {op}; replay builds the \
             environment itself and never passes a variable a case file names",
            case.family
        )
        .into());
    }
    let limit = deadline_limit(family, op, scene.profile);
    let deadline = Duration::from_millis(case.timeout_ms);
    if deadline.is_zero() || deadline > limit {
        return Err(format!(
            "the case asks for a deadline of {}, and {} gives this call at most {}",
            humantime::format_duration(deadline),
            scene.profile,
            humantime::format_duration(limit)
        )
        .into());
    }
    let grace = Duration::from_millis(case.grace_ms);
    if grace > GRACE_MAX {
        return Err(format!(
            "the case asks for a grace of {}; replay allows at most {}",
            humantime::format_duration(grace),
            humantime::format_duration(GRACE_MAX)
        )
        .into());
    }
    let get = |k: &str| {
        env.get(k)
            .copied()
            .ok_or_else(|| format!("the case lacks {k}, which every {} {op} has", case.family))
    };
    let program = scene.program;
    match (family, op) {
        (Some(Family::HostVolume), Operation::Fingerprint) => {
            expect_operation(get("DHV_OPERATION")?, op)?;
            Ok(crate::families::fingerprint_invocation(
                &case.family,
                program,
                deadline,
                grace,
            ))
        }
        (Some(Family::HostVolume), Operation::Create | Operation::Delete) => {
            expect_operation(get("DHV_OPERATION")?, op)?;
            let number = |k: &str| -> Result<u64, String> {
                get(k)?
                    .parse()
                    .map_err(|_| format!("the case's {k} is not a decimal number"))
            };
            let (capacity_min, capacity_max) = if op == Operation::Create {
                (
                    number("DHV_CAPACITY_MIN_BYTES")?,
                    number("DHV_CAPACITY_MAX_BYTES")?,
                )
            } else {
                (0, 0)
            };
            let req = Request {
                volumes_dir: scene.scratch.to_path_buf(),
                plugin_dir: scene.plugin_dir.to_path_buf(),
                node_pool: get("DHV_NODE_POOL")?.to_string(),
                namespace: get("DHV_NAMESPACE")?.to_string(),
                name: get("DHV_VOLUME_NAME")?.to_string(),
                id: get("DHV_VOLUME_ID")?.to_string(),
                capacity_min,
                capacity_max,
                node_id: get("DHV_NODE_ID")?.to_string(),
                parameters: parameters(get("DHV_PARAMETERS")?)?,
            };
            req.validate()
                .map_err(|e| format!("the case's request breaks the protocol's rules: {e}"))?;
            if op == Operation::Create {
                return Ok(host_volume::create_invocation(
                    program, &req, deadline, grace,
                ));
            }
            let created = moved_path(get("DHV_CREATED_PATH")?, get("DHV_VOLUMES_DIR")?, scene)?;
            Ok(host_volume::delete_invocation(
                program, &req, &created, deadline, grace,
            ))
        }
        (Some(Family::Secrets), Operation::Fetch) => {
            expect_operation(get("CPI_OPERATION")?, op)?;
            let path = match case.args.get(1) {
                Some(p) => p.clone(),
                None => return Err("the case's fetch has no secret path".into()),
            };
            let job_id = env.get("NOMAD_JOB_ID").copied();
            let namespace = env.get("NOMAD_NAMESPACE").copied();
            // The caller's own variables: named by the case, valued by the
            // operator. Every one the case names must be given, and only
            // those.
            let mut pairs = Vec::new();
            for k in &caller_keys {
                match scene.env.iter().rev().find(|(key, _)| key == k) {
                    Some(pair) => pairs.push(pair.clone()),
                    None => {
                        return Err(Advised::new(
                            format!("the fetch was given {k}"),
                            Hint::ReplayEnv {
                                name: k.to_string(),
                            },
                        ));
                    }
                }
            }
            if let Some((k, _)) = scene
                .env
                .iter()
                .find(|(k, _)| !caller_keys.contains(&k.as_str()))
            {
                return Err(Advised::new(
                    "the recorded fetch had no such variable; replay gives a fetch what it was \
                     given then",
                    Hint::ExtraReplayEnv {
                        name: k.to_string(),
                    },
                ));
            }
            let req = FetchRequest {
                path,
                env: pairs,
                job_id: None,
                namespace: None,
            }
            .with_job(scene.profile, job_id, namespace)
            .map_err(|e| match e.hint {
                Some(Hint::JobInput(input)) => {
                    format!("the case's {}: {}", input.variable(), e.message)
                }
                _ => format!("the case's NOMAD_* variables: {}", e.message),
            })?;
            Ok(secrets::fetch_invocation(program, &req, deadline, grace))
        }
        (_, Operation::Fingerprint) => {
            expect_operation(get("CPI_OPERATION")?, op)?;
            Ok(crate::families::fingerprint_invocation(
                &case.family,
                program,
                deadline,
                grace,
            ))
        }
        _ => Err(format!("a {} {op} is not a call plugctl makes", case.family).into()),
    }
}

fn expect_operation(value: &str, op: Operation) -> Result<(), String> {
    if value == op.name() {
        Ok(())
    } else {
        Err(format!(
            "the case's operation variable says {value_q}, its operation {op}",
            value_q = crate::escape::quote(value)
        ))
    }
}

/// `DHV_PARAMETERS` as recorded: `null` or an object of strings.
fn parameters(text: &str) -> Result<BTreeMap<String, String>, String> {
    if text == "null" {
        return Ok(BTreeMap::new());
    }
    serde_json::from_str(text)
        .map_err(|_| "the case's DHV_PARAMETERS is not an object of strings".to_string())
}

/// A recorded `DHV_CREATED_PATH` moved from the recorded volumes directory
/// into the scratch one: only a path strictly inside the recorded directory
/// (absolute, not `/`, no `..`) is replayed, so a replayed delete can only
/// ever remove what the replay itself made.
fn moved_path(created: &str, recorded_dir: &str, scene: &Scene<'_>) -> Result<String, String> {
    let dir = Path::new(recorded_dir);
    let plain = |p: &Path| {
        p.is_absolute()
            && p.components()
                .all(|c| matches!(c, Component::RootDir | Component::Normal(_)))
    };
    if !plain(dir) || dir.parent().is_none() {
        return Err(format!(
            "the case's DHV_VOLUMES_DIR {recorded_dir_q} is not a plain absolute directory \
             below /",
            recorded_dir_q = crate::escape::quote(recorded_dir)
        ));
    }
    let path = Path::new(created);
    match path.strip_prefix(dir) {
        Ok(rest) if plain(path) && rest.components().next().is_some() => {
            Ok(scene.scratch.join(rest).to_string_lossy().into_owned())
        }
        _ => Err(format!(
            "the case's DHV_CREATED_PATH {created_q} is not inside its volumes directory \
             {recorded_dir_q}; replay only deletes inside its own scratch directory",
            created_q = crate::escape::quote(created),
            recorded_dir_q = crate::escape::quote(recorded_dir)
        )),
    }
}

fn recorded_volumes_dir(case: &Case) -> Option<String> {
    case.env_pairs()
        .find(|(k, _)| *k == "DHV_VOLUMES_DIR")
        .map(|(_, v)| v.to_string())
        .filter(|v| v.len() > 1)
}

/// Compares today's outcome with the case.
pub fn compare(
    case: &Case,
    out: &Outcome,
    scratch: &Path,
    key: Option<&RecordKey>,
    verdict: &mut Verdict,
) {
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
        // Only digests were recorded: compare the result's keys and value
        // digests, or the whole stdout's digest when it was not a result.
        let now_result = match red.result.as_ref().and_then(|r| r.values().next()) {
            Some(sample) if sample.starts_with("hmac-sha256:") => {
                key.and_then(|k| digest_result(&out.stdout, |v| k.digest(v)))
            }
            Some(_) => digest_result(&out.stdout, sha256_digest),
            None => key
                .map(|k| digest_result(&out.stdout, |v| k.digest(v)))
                .unwrap_or_else(|| digest_result(&out.stdout, sha256_digest)),
        };
        let stdout_same = match (&red.stdout_hmac, &red.stdout_sha256, key) {
            (Some(mac), _, Some(k)) => *mac == k.digest(&out.stdout),
            (Some(_), _, None) => false,
            (None, Some(sha), _) => *sha == sha256_hex(&out.stdout),
            (None, None, _) => true,
        };
        match (&red.result, now_result) {
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
                    "secret result differs in keys {} (values compared by digest only)",
                    changed.join(", ")
                ));
            }
            (Some(_), Some(_)) => {}
            _ if !stdout_same => {
                verdict.differ("stdout differs (compared by digest only: it may hold secrets)");
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

/// The scratch volumes directory a replay uses, removed when dropped
/// (never through a mount a replayed create left in it), under a
/// `$TMPDIR` `policy` trusts.
pub fn scratch_dir(
    policy: crate::trust::Policy,
) -> Result<crate::scratch::ScratchDir, crate::trust::Refusal> {
    crate::scratch::ScratchDir::new("plugctl-replay-", policy)
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
    fn only_paths_strictly_inside_the_recorded_directory_move() {
        let scene = Scene {
            program: Path::new("/p/x"),
            plugin_dir: Path::new("/p"),
            scratch: Path::new("/s"),
            profile: Profile::default(),
            env: &[],
        };
        assert_eq!(moved_path("/v/a", "/v", &scene).unwrap(), "/s/a");
        assert_eq!(moved_path("/v/a/b", "/v", &scene).unwrap(), "/s/a/b");
        for (path, dir) in [
            ("/v", "/v"),
            ("/vx/a", "/v"),
            ("/v/../etc", "/v"),
            ("/etc/passwd", "/"),
            ("/a", "/"),
            ("v/a", "v"),
        ] {
            assert!(moved_path(path, dir, &scene).is_err(), "{path} in {dir}");
        }
    }
}

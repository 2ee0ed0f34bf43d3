//! One module per plugin family: each turns requests into invocations (the
//! family's environment variables live there and only there) and plugin
//! output into typed responses. What all families share — judging how a
//! call ended — lives here.

pub mod driver;
pub mod generic;
pub mod host_volume;
pub mod mkdir;
pub mod secrets;

use std::path::Path;
use std::time::Duration;

pub use plugctl_protocol::json::Dialect;

use crate::error::{Hint, PluginFailure};
use crate::family::Family;
pub use crate::runner::human_bytes;
use crate::runner::{Invocation, Outcome, SpawnError, Termination};
use plugctl_protocol::json;
use plugctl_protocol::responses;

/// What a healthy fingerprint says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprint {
    /// As the family reports it: normalised for host volumes, as written otherwise.
    pub version: String,
    /// The `type` field, when the family has one.
    pub kind: Option<String>,
}

/// The fingerprint call of a plugin of `family`: `fingerprint` as its
/// argument and in the variable that names the operation, `DHV_OPERATION`
/// for a host-volume plugin and `CPI_OPERATION` for every other family.
pub fn fingerprint_invocation(
    family: &str,
    program: &Path,
    deadline: Duration,
    grace: Duration,
) -> Invocation {
    let variable = if Family::HostVolume.is(family) {
        "DHV_OPERATION"
    } else {
        "CPI_OPERATION"
    };
    let op = crate::family::Operation::Fingerprint.name();
    Invocation::new(program, deadline, grace)
        .arg(op)
        .env(variable, op)
}

/// The longest version plugctl records. go-version takes any length (a
/// pre-release or build tag of any size), and so does Nomad; a version is
/// copied into the registry, every event about the plugin and every read,
/// so a longer one is the plugin's failure when it arrives, never a record
/// the registry's load rules would refuse.
pub const VERSION_MAX: usize = 1024;

/// Judges a fingerprint of `family` in the words of `dialect` (the
/// release's Go and go-version), and its version against what plugctl
/// records ([`VERSION_MAX`]).
pub fn parse_fingerprint(
    dialect: Dialect,
    family: &str,
    inv: &Invocation,
    outcome: &Outcome,
) -> Result<Fingerprint, PluginFailure> {
    let fp = match Family::of(family) {
        Some(Family::HostVolume) => host_volume::parse_fingerprint(dialect, inv, outcome),
        Some(Family::Secrets) => secrets::parse_fingerprint(dialect, inv, outcome),
        None => generic::parse_fingerprint(dialect, inv, outcome),
    }?;
    recordable_version(&fp.version)
        .map_err(|why| PluginFailure::Response(format!("{why} (Nomad would take it)")))?;
    Ok(fp)
}

/// Whether a version may be recorded: at most [`VERSION_MAX`] bytes, no
/// control character (go-version takes none, but the registry's rules are
/// the last word). Why not, when it may not.
pub fn recordable_version(version: &str) -> Result<(), String> {
    if version.len() > VERSION_MAX {
        return Err(format!(
            "the version is {} bytes long; plugctl records at most {VERSION_MAX}",
            version.len()
        ));
    }
    if version.chars().any(char::is_control) {
        return Err(format!(
            "the version {} holds a control character",
            crate::escape::quote(version)
        ));
    }
    Ok(())
}

/// Whether stdout and stderr may be quoted in messages. Secrets output may
/// hold values, so it never is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quote {
    Allowed,
    Never,
}

/// Judges how a call ended, before its stdout is looked at. A failed call's
/// `{"error": ...}` is read from stdout when it parses, because plugctl
/// shows what Nomad would have thrown away.
pub fn judge(inv: &Invocation, out: &Outcome, quote: Quote) -> Result<(), PluginFailure> {
    if out.timed_out {
        return Err(PluginFailure::TimedOut {
            deadline: inv.deadline,
            killed: out.killed,
            no_grace: inv.grace.is_zero(),
        });
    }
    match out.termination {
        Termination::Exited(0) => {}
        Termination::Exited(code) => {
            let (message, hint) = error_message(out, quote);
            return Err(PluginFailure::Exit {
                code,
                message,
                hint,
            });
        }
        Termination::Signaled(sig) => {
            let (message, hint) = error_message(out, quote);
            return Err(PluginFailure::Signaled {
                signal: signal_name(sig),
                message,
                hint,
            });
        }
    }
    if !out.leftovers.is_empty() {
        return Err(PluginFailure::LeftBehind(left_behind(&out.leftovers)));
    }
    Ok(())
}

/// "left 1 background process (pid 42, `sleep`); killed".
pub fn left_behind(leftovers: &[crate::runner::Leftover]) -> String {
    let list: Vec<String> = leftovers
        .iter()
        .take(5)
        .map(|l| format!("pid {}, `{}`", l.pid, l.command))
        .collect();
    let more = leftovers.len().saturating_sub(5);
    format!(
        "left {} background process{} ({}{}); killed: a plugin must not leave anything \
         running when it exits",
        leftovers.len(),
        if leftovers.len() == 1 { "" } else { "es" },
        list.join("; "),
        if more > 0 {
            format!("; {more} more")
        } else {
            String::new()
        }
    )
}

/// The message a failing plugin left: its `{"error"}`, else (when quoting
/// is allowed) the last line of its stderr; either way, when stderr holds
/// more than what is quoted, how many bytes, and a hint that a verbose run
/// prints them (secret values masked), so the cause is one step away.
fn error_message(out: &Outcome, quote: Quote) -> (Option<String>, Option<Hint>) {
    let written = out.stderr.len() as u64 + out.stderr_dropped;
    let bytes = if written == 1 {
        "1 byte".to_string()
    } else {
        format!("{written} bytes")
    };
    let more = |all| {
        Some(Hint::PluginStderr {
            all,
            masked: quote == Quote::Never,
        })
    };
    if let Ok(obj) = json::parse_object(&out.stdout)
        && let Ok(Some(msg)) = obj.string("error")
        && !msg.is_empty()
    {
        if written == 0 {
            return (Some(msg), None);
        }
        return (
            Some(format!("{msg} (it also wrote {bytes} on stderr)")),
            more(false),
        );
    }
    if quote == Quote::Never {
        return match written {
            0 => (None, None),
            _ => (Some(format!("it wrote {bytes} on stderr")), more(false)),
        };
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let Some(last) = stderr.lines().rev().find(|l| !l.trim().is_empty()) else {
        return (None, None);
    };
    let quoted = format!("stderr: {}", excerpt(last.trim().as_bytes(), 200));
    // The line quoted is all there was: nothing more to point at.
    if stderr.trim() == last.trim() && out.stderr_dropped == 0 {
        return (Some(quoted), None);
    }
    (
        Some(format!("{quoted} (the last line of {bytes} on stderr)")),
        more(true),
    )
}

/// Parses stdout as the family's one JSON document, naming `go_type` (the
/// struct Nomad decodes into) in a top-level type error.
pub fn parse_stdout(
    inv: &Invocation,
    out: &Outcome,
    quote: Quote,
    go_type: &str,
) -> Result<json::Object, PluginFailure> {
    decode_stdout(inv, out, quote, |b| json::parse_object_as(b, go_type))
}

/// Runs one of the decodes of [`plugctl_protocol::responses`] on stdout,
/// after the capture-limit check; a decode error becomes bad output in
/// Go's words, with an excerpt of stdout when quoting is allowed.
pub fn decode_stdout<T>(
    inv: &Invocation,
    out: &Outcome,
    quote: Quote,
    decode: impl FnOnce(&[u8]) -> Result<T, json::JsonError>,
) -> Result<T, PluginFailure> {
    if out.stdout_dropped > 0 {
        return Err(PluginFailure::BadOutput(format!(
            "stdout exceeded the {} capture limit ({} more bytes dropped)",
            human_bytes(inv.stdout_limit as u64),
            out.stdout_dropped
        )));
    }
    decode(&out.stdout).map_err(|e| {
        let mut msg = e.to_string();
        let syntax = matches!(
            e,
            json::JsonError::Syntax { .. } | json::JsonError::UnexpectedEnd { .. }
        );
        if quote == Quote::Allowed && syntax {
            if out.stdout.is_empty() {
                msg.push_str("; stdout was empty");
            } else {
                msg.push_str(&format!("; stdout began {}", excerpt(&out.stdout, 80)));
            }
        }
        PluginFailure::BadOutput(msg)
    })
}

/// The Go type Nomad decodes a fingerprint of `family` into (a family
/// Nomad does not know is fingerprinted as every common plugin is).
pub fn fingerprint_go_type(family: &str) -> &'static str {
    match Family::of(family) {
        Some(Family::HostVolume) => responses::HOST_VOLUME_FINGERPRINT.go_type,
        Some(Family::Secrets) | None => responses::COMMON_FINGERPRINT.go_type,
    }
}

/// A quoted, escaped, bounded excerpt of plugin output for messages.
pub fn excerpt(bytes: &[u8], max_chars: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut s: String = text.chars().take(max_chars).collect();
    if text.chars().count() > max_chars {
        s.push('…');
    }
    crate::escape::quote(&s).to_string()
}

pub fn signal_name(sig: i32) -> String {
    match nix::sys::signal::Signal::try_from(sig) {
        Ok(s) => format!("{} ({sig})", s.as_str()),
        Err(_) => sig.to_string(),
    }
}

/// A plugin that could not be started, as a failure.
pub fn spawn_failure(e: SpawnError) -> PluginFailure {
    match e {
        SpawnError::NotFound(p) => PluginFailure::Missing(p),
        SpawnError::PermissionDenied(p) => PluginFailure::NotExecutable(p),
        SpawnError::InterpreterMissing {
            program,
            interpreter,
        } => PluginFailure::InterpreterMissing {
            path: program,
            interpreter,
        },
        SpawnError::ExecFormat(p) => PluginFailure::ExecFormat(p),
        SpawnError::Other { program, message } => PluginFailure::Spawn {
            path: program,
            message,
        },
        SpawnError::Refused {
            program,
            message,
            hint,
        } => PluginFailure::Refused {
            path: program,
            message,
            hint,
        },
        e @ SpawnError::Exhausted { .. } => PluginFailure::NotRun(e.to_string()),
    }
}

/// The message of a go-version error that ended a fingerprint's decode.
fn version_refused(e: &json::JsonError) -> Option<PluginFailure> {
    match e {
        json::JsonError::Field { value, message, .. } => Some(PluginFailure::Response(format!(
            "invalid version {value_q}: {message}",
            value_q = crate::escape::quote(value)
        ))),
        _ => None,
    }
}

/// [`decode_stdout`] for a fingerprint: a refused version text is a
/// response failure naming it, not bad output.
pub fn decode_fingerprint<T>(
    inv: &Invocation,
    out: &Outcome,
    decode: impl FnOnce(&[u8]) -> Result<T, json::JsonError>,
) -> Result<T, PluginFailure> {
    let mut refused = None;
    let result = decode_stdout(inv, out, Quote::Allowed, |b| {
        decode(b).inspect_err(|e| refused = version_refused(e))
    });
    result.map_err(|f| refused.unwrap_or(f))
}

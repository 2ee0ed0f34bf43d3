//! `--dry-run`: each call plugctl would make, printed instead of run — the
//! program, argv, working directory, the exact environment in the order the
//! plugin would get it, the deadline and grace, and an `env -i` line to
//! reproduce it by hand.

use std::path::Path;

use serde_json::{Value, json};

use super::{Call, reproduce_line};
use crate::escape::{quote, sanitize_cell, value};
use crate::runner::Invocation;

/// The call as data (one element of the `--dry-run --json` document's `calls`).
pub fn to_json(call: &Call, inv: &Invocation, cwd: &Path) -> Value {
    let mut argv = vec![inv.program.to_string_lossy().into_owned()];
    argv.extend(inv.args.iter().map(|a| a.to_string_lossy().into_owned()));
    let env: Vec<String> = inv
        .env
        .iter()
        .map(|(k, v)| format!("{}={}", k.to_string_lossy(), v.to_string_lossy()))
        .collect();
    json!({
        "type": call.family,
        "name": call.name,
        "operation": call.operation,
        "subject": call.subject,
        "program": inv.program,
        "argv": argv,
        "cwd": cwd,
        "env": env,
        "timeout_ms": u64::try_from(inv.deadline.as_millis()).unwrap_or(u64::MAX),
        "grace_ms": u64::try_from(inv.grace.as_millis()).unwrap_or(u64::MAX),
        "reproduce": reproduce_line(inv),
    })
}

/// The call for people. Every value is escaped for the terminal: a volume
/// name or parameter is user text and a plugin path is a file name. The
/// `reproduce` line is a shell's (its own quoting), escaped as a line.
pub fn to_text(call: &Call, inv: &Invocation, cwd: &Path) -> String {
    let esc = |s: &str| value(s).into_owned();
    let mut out = format!(
        "# would run {} plugin {}, operation {}{}\n",
        esc(&call.family),
        quote(&call.name),
        call.operation,
        call.subject
            .as_ref()
            .map(|s| format!(" ({})", sanitize_cell(s)))
            .unwrap_or_default()
    );
    let mut argv = vec![inv.program.to_string_lossy().into_owned()];
    argv.extend(inv.args.iter().map(|a| a.to_string_lossy().into_owned()));
    out.push_str(&format!(
        "program:   {}\n",
        esc(&inv.program.to_string_lossy())
    ));
    out.push_str(&format!("argv:      {}\n", esc(&argv.join(" "))));
    out.push_str(&format!("cwd:       {}\n", esc(&cwd.to_string_lossy())));
    out.push_str(&format!(
        "deadline:  {} then SIGTERM to the process group, SIGKILL after {}\n",
        humantime::format_duration(inv.deadline),
        humantime::format_duration(inv.grace)
    ));
    out.push_str(&format!(
        "env:       {} variables, nothing inherited\n",
        inv.env.len()
    ));
    for (k, v) in &inv.env {
        out.push_str(&format!(
            "  {}={}\n",
            esc(&k.to_string_lossy()),
            esc(&v.to_string_lossy())
        ));
    }
    out.push_str("reproduce:\n  ");
    out.push_str(&sanitize_cell(&reproduce_line(inv)));
    out.push('\n');
    out
}

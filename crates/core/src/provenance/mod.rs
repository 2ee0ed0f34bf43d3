//! Provenance: what plugctl is about to run, what it ran, and whether a
//! plugin still answers as it did. Three pieces share one description of a
//! call ([`Call`]): `--dry-run` prints it instead of running it, `--record
//! DIR` saves it with its outcome as a case file, and `plugctl replay DIR`
//! runs the case again and compares.

pub mod case;
pub mod dry_run;
pub mod locked;
pub mod replay;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

use crate::family::{Family, Operation};
use crate::runner::Invocation;

/// Which plugin call an invocation is, for people and for case files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    pub family: String,
    pub name: String,
    pub operation: Operation,
    /// What the call is about: a volume, a secret path.
    pub subject: Option<String>,
}

impl Call {
    pub fn new(family: &str, name: &str, operation: Operation) -> Call {
        Call {
            family: family.to_string(),
            name: name.to_string(),
            operation,
            subject: None,
        }
    }

    pub fn about(mut self, subject: impl Into<String>) -> Call {
        self.subject = Some(subject.into());
        self
    }

    /// Which call an invocation is, from what the families put in it: the
    /// operation is argv\[1\], the name the file's name, the family
    /// host-volume when `DHV_OPERATION` is set, else the name of the
    /// plugin's directory (`secrets/`, or another family's). None when
    /// argv\[1\] is no operation (the families never build such a call).
    pub fn infer(inv: &Invocation) -> Option<Call> {
        let operation = Operation::of(inv.args.first()?.to_str()?)?;
        let name = inv
            .program
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let env = |key: &str| {
            inv.env
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.to_string_lossy().into_owned())
        };
        let family = if env("DHV_OPERATION").is_some() {
            Family::HostVolume.name().to_string()
        } else {
            inv.program
                .parent()
                .and_then(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        let subject = env("DHV_VOLUME_ID")
            .or_else(|| inv.args.get(1).map(|a| a.to_string_lossy().into_owned()));
        Some(Call {
            family,
            name,
            operation,
            subject,
        })
    }

    /// A secrets fetch: its stdout carries secret values.
    pub fn carries_secrets(&self) -> bool {
        Family::Secrets.is(&self.family) && self.operation == Operation::Fetch
    }
}

/// POSIX shell single-quoting: safe for any bytes but NUL, which no argv or
/// environment entry can hold. Plain words stay unquoted for readability.
pub fn shell_quote(s: &OsStr) -> String {
    let bytes = s.as_bytes();
    let plain = !bytes.is_empty()
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./:=,+@%".contains(b));
    let text = String::from_utf8_lossy(bytes);
    if plain {
        text.into_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// A path as one word of a command a message suggests (`chmod go-w PATH`,
/// `chown 0 PATH`): [`shell_quote`]d, and after `./` when it starts with a
/// dash, so that pasting it acts on that path and runs nothing its name
/// holds (a file named `x;sh` in a plugin directory another user filled).
pub fn shell_path(path: &std::path::Path) -> String {
    let word = shell_quote(path.as_os_str());
    if word.starts_with('-') {
        format!("./{word}")
    } else {
        word
    }
}

/// One line that reproduces the call by hand: `env -i K=V ... program args`.
/// Run from any directory: plugctl does not change the working directory.
pub fn reproduce_line(inv: &Invocation) -> String {
    let mut words = vec!["env".to_string(), "-i".to_string()];
    for (k, v) in &inv.env {
        let mut kv = k.clone();
        kv.push("=");
        kv.push(v);
        words.push(shell_quote(&kv));
    }
    words.push(shell_quote(inv.program.as_os_str()));
    words.extend(inv.args.iter().map(|a| shell_quote(a)));
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn quoting_survives_a_shell() {
        for s in [
            "plain",
            "",
            "it's",
            "a b",
            "$HOME",
            "`id`",
            "new\nline",
            "\\",
            "{\"a\":\"1\"}",
        ] {
            let q = shell_quote(OsStr::new(s));
            let out = std::process::Command::new("/bin/sh")
                .arg("-c")
                .arg(format!("printf %s {q}"))
                .output()
                .unwrap();
            assert_eq!(String::from_utf8_lossy(&out.stdout), s, "{q}");
        }
    }

    #[test]
    fn reproduce_line_is_env_i_then_program() {
        let inv = Invocation::new("/p/host-volume/x y", Duration::from_secs(1), Duration::ZERO)
            .arg("create")
            .env("DHV_OPERATION", "create")
            .env("DHV_PARAMETERS", "{\"a\":\"1\"}");
        assert_eq!(
            reproduce_line(&inv),
            "env -i DHV_OPERATION=create 'DHV_PARAMETERS={\"a\":\"1\"}' '/p/host-volume/x y' create"
        );
    }
}

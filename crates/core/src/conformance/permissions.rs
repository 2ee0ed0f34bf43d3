//! Permission checks: a Nomad client runs plugins as root, so whoever can
//! write a plugin or its directory can run code as root on the node.
//! Findings are warnings, errors with `--strict`.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

use super::subject::Subject;
use super::{Severity, Verdict};

/// The per-plugin checks, in order.
pub const CHECKS: &[&str] = &[
    "permissions.writable",
    "permissions.setuid",
    "permissions.owner",
    "permissions.trusted",
];

fn severity(strict: bool) -> Severity {
    if strict {
        Severity::Error
    } else {
        Severity::Warning
    }
}

/// "group" / "others" / "group and others" for mode bits 0o020 / 0o002.
fn who_can_write(mode: u32) -> Option<&'static str> {
    match (mode & 0o020 != 0, mode & 0o002 != 0) {
        (true, true) => Some("group and others"),
        (true, false) => Some("its group"),
        (false, true) => Some("others"),
        (false, false) => None,
    }
}

/// `permissions.writable` for a plugin file (symlinks followed).
pub fn writable(s: &Subject, strict: bool) -> Verdict {
    match who_can_write(s.mode()) {
        Some(who) => Verdict::one(
            severity(strict),
            format!(
                "{} is writable by {who} (mode {:04o}): anyone who can write it runs code as \
                 root on a Nomad node; run `chmod go-w {}`",
                s.path.display(),
                s.mode() & 0o7777,
                crate::provenance::shell_path(&s.path)
            ),
        ),
        None => Verdict::pass(),
    }
}

/// `permissions.setuid`: setuid/setgid bits on a plugin.
pub fn setuid(s: &Subject, strict: bool) -> Verdict {
    let mode = s.mode();
    let bits = match (mode & 0o4000 != 0, mode & 0o2000 != 0) {
        (true, true) => "setuid and setgid bits",
        (true, false) => "the setuid bit",
        (false, true) => "the setgid bit",
        (false, false) => return Verdict::pass(),
    };
    Verdict::one(
        severity(strict),
        format!(
            "{} has {bits} (mode {:04o}): a plugin never needs them, and they let anyone \
             who can run it act as its owner; run `chmod ug-s {}`",
            s.path.display(),
            mode & 0o7777,
            crate::provenance::shell_path(&s.path)
        ),
    )
}

/// `permissions.owner`: owned by neither the running user nor root.
pub fn owner(s: &Subject, strict: bool) -> Verdict {
    match &s.meta {
        Some(m) => owner_of(&s.path, m.uid(), severity(strict)),
        None => Verdict::pass(),
    }
}

fn owner_of(path: &Path, uid: u32, severity: Severity) -> Verdict {
    let me = nix::unistd::geteuid().as_raw();
    if uid == me || uid == 0 {
        return Verdict::pass();
    }
    Verdict::one(
        severity,
        format!(
            "{} is owned by uid {uid}, neither root nor the user running plugctl (uid {me}): \
             that user can change what Nomad runs as root; run `chown root {}`",
            path.display(),
            crate::provenance::shell_path(path)
        ),
    )
}

/// `permissions.writable` for the plugin directory or a family directory:
/// whoever can write it can add or replace plugins.
pub fn dir_writable(dir: &Path, strict: bool) -> Verdict {
    let Ok(meta) = fs::metadata(dir) else {
        return Verdict::NotApplicable;
    };
    let mode = meta.permissions().mode();
    match who_can_write(mode) {
        Some(who) => Verdict::one(
            severity(strict),
            format!(
                "directory {} is writable by {who} (mode {:04o}): anyone who can write it \
                 can add or replace plugins that Nomad runs as root; run `chmod go-w {}`",
                dir.display(),
                mode & 0o7777,
                crate::provenance::shell_path(dir)
            ),
        ),
        None => Verdict::pass(),
    }
}

/// `permissions.owner` for the plugin directory or a family directory.
pub fn dir_owner(dir: &Path, strict: bool) -> Verdict {
    match fs::metadata(dir) {
        Ok(m) => owner_of(dir, m.uid(), severity(strict)),
        Err(_) => Verdict::NotApplicable,
    }
}

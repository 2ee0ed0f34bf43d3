//! A fourth fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after review34.rs, review34b.rs and
//! review34c.rs: each test here is an attack that found a way through.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use crate::common::*;

/// The command `text` suggests after `before` (`fix: `, a backquote)
/// that starts with `command` (`chown 0 `), up to `end`, the text that
/// follows it there.
fn fix(text: &str, before: &str, command: &str, end: &str) -> String {
    let from = text
        .find(&format!("{before}{command}"))
        .unwrap_or_else(|| panic!("no {command:?} suggested in: {text}"))
        + before.len();
    let rest = &text[from..];
    let to = rest
        .find(end)
        .unwrap_or_else(|| panic!("no {end:?} after {command:?} in: {text}"));
    rest[..to].to_string()
}

/// Runs `command` as an operator pasting plugctl's advice would, in `sh`
/// as root, from the rig's scratch directory: it must act on the file it
/// names and run nothing that file's name holds.
fn paste(s: &Rig, command: &str) {
    expect::Run::new(s.command("/bin/sh"), "sh")
        .args(["-c", command])
        .current_dir(&s.out)
        .succeeds();
    assert!(
        !s.out.join("pwned").exists(),
        "pasting `{command}`, which plugctl suggested, ran what a file's name holds"
    );
}

/// The fix a refusal or a finding gives for a file (`chown 0 PATH`,
/// `chmod go-w PATH`, `chmod 0755 PATH`) named its path as it was. A user
/// who can put a file in a plugin directory (a checkout `validate` is run
/// on, a tarball of theirs unpacked as root with its owners kept) names it
/// `x;touch pwned`, and the operator who pasted the fix ran `touch pwned`
/// as root. The path is one shell word there, quoted for sh when it
/// needs it, as every command plugctl suggests.
#[test]
fn a_fix_plugctl_suggests_runs_nothing_a_file_name_holds() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let owned = "o;touch pwned";
    intruder.own(&s.hv_ok(owned, "1.0.0"));
    let shown = plugctl(&s)
        .args(["fingerprint"])
        .fails_with(Exit::Failure)
        .stdout();
    paste(&s, &fix(&shown, "fix: ", "chown 0 ", ", or remove it"));
    plugctl(&s).args(["fingerprint"]).succeeds();

    let writable = "w;touch pwned";
    let path = s.hv_ok(writable, "1.0.0");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o775)).unwrap();
    let shown = plugctl(&s)
        .args(["fingerprint"])
        .fails_with(Exit::Failure)
        .stdout();
    paste(&s, &fix(&shown, "fix: ", "chmod go-w ", ")"));
    plugctl(&s).args(["fingerprint"]).succeeds();

    // validate's findings, on a directory handed over for review.
    let plain = "p;touch pwned";
    let path = s.hv_ok(plain, "1.0.0");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
    let out = plugctl(&s).args(["validate"]).output();
    let shown = String::from_utf8_lossy(&out.stdout);
    paste(&s, &fix(&shown, "`", "chmod 0755 ", "`"));
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o755,
        "the pasted fix did not act on {}",
        path.display()
    );
    fs::set_permissions(&path, fs::Permissions::from_mode(0o664)).unwrap();
    let out = plugctl(&s).args(["validate"]).output();
    let shown = String::from_utf8_lossy(&out.stdout);
    paste(&s, &fix(&shown, "`", "chmod go-w ", "`"));
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o644,
        "the pasted fix did not act on {}",
        path.display()
    );
}

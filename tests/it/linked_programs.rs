//! A program with more names than one, in a directory others may add
//! entries to (a sticky one, as `/tmp` is). Another user cannot plant a
//! file of root's there, but where the kernel lets anyone link a file they
//! do not own (`fs.protected_hardlinks=0`) they can give any program of
//! root's a name there: `bash` named as a plugin runs, as root, a script
//! called `fingerprint` from plugctl's working directory. The link is made
//! here by root, as such a user could make it on such a kernel.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use crate::common::*;

#[test]
fn a_program_linked_into_a_sticky_plugin_directory_is_not_run() {
    let s = Rig::new();
    let family = s.plugins.join("host-volume");
    make_dir(&family);
    fs::set_permissions(&family, fs::Permissions::from_mode(0o1777)).unwrap();
    // One of root's own programs elsewhere, and a second name of it in the
    // sticky directory.
    let elsewhere = s.root().join("roots-program");
    fs::write(
        &elsewhere,
        format!(
            "#!/bin/sh\n/usr/bin/touch '{}'\necho '{{\"version\": \"1.0.0\"}}'\n",
            s.out_file("ran").display()
        ),
    )
    .unwrap();
    fs::set_permissions(&elsewhere, fs::Permissions::from_mode(0o755)).unwrap();
    fs::hard_link(&elsewhere, family.join("linked")).unwrap();
    // A plugin of one name beside it runs.
    s.hv_ok("single", "1.0.0");
    let out = plugctl(&s)
        .args(["--json", "fingerprint"])
        .fails_with(Exit::Failure);
    let doc = out.json();
    assert_eq!(row(&doc, "host-volume", "single")["healthy"], true, "{doc}");
    let why = row(&doc, "host-volume", "linked")["error"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(why.contains("has 2 names (hard links)"), "{why}");
    assert!(!s.out_file("ran").exists(), "the linked program ran");

    // In a directory only root writes, a second name is root's doing: it
    // runs.
    fs::set_permissions(&family, fs::Permissions::from_mode(0o755)).unwrap();
    plugctl(&s).args(["fingerprint", "linked"]).succeeds();
    assert!(s.out_file("ran").exists());
}

/// The same for an interpreter a plugin names: a second name of one of
/// root's programs in a sticky directory is not run as one.
#[test]
fn an_interpreter_linked_into_a_sticky_directory_is_not_run() {
    let s = Rig::new();
    let sticky = s.root().join("sticky");
    make_dir(&sticky);
    fs::set_permissions(&sticky, fs::Permissions::from_mode(0o1777)).unwrap();
    // The shell itself (not /bin/sh, a symbolic link, whose link would be
    // one more link).
    let shell = fs::canonicalize("/bin/sh").unwrap();
    fs::hard_link(&shell, sticky.join("sh")).unwrap_or_else(|_| {
        // On another file system than the rig: a copy of root's, linked
        // beside it.
        let copy = s.root().join("sh-copy");
        fs::copy(&shell, &copy).unwrap();
        fs::hard_link(&copy, sticky.join("sh")).unwrap();
    });
    s.file(
        "host-volume",
        "interp",
        &format!(
            "#!{}\necho '{{\"version\": \"1.0.0\"}}'\n",
            sticky.join("sh").display()
        ),
        0o755,
    );
    let out = plugctl(&s)
        .args(["--json", "fingerprint", "interp"])
        .fails_with(Exit::Failure);
    let doc = out.json();
    let why = row(&doc, "host-volume", "interp")["error"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(why.contains("names (hard links)"), "{why}");
}

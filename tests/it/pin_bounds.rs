//! What a drift check reads: never past the size a file had when it was
//! pinned, whatever another user puts where a pinned file's `#!` line
//! points; and what `pin` reads: never a file larger than any program.

use crate::common::*;

/// Long enough for `metrics` on a slow machine; a hang is what it catches.
const HANG: std::time::Duration = std::time::Duration::from_secs(60);

/// A plugin root approved names its interpreter by a path another user can
/// write (the plugin is refused at every run for that, yet it is pinned as
/// it is). The ninth review bounded the plugin file's own read by its
/// pinned size, but the interpreter was still hashed to its end: a sparse
/// file of a terabyte put there held `metrics` and the timer's
/// `fingerprint --textfile` hashing zeros for hours. An interpreter's size
/// is pinned with it, and one of another size is a drift told without a
/// read; a lock file written before sizes were pinned still matches.
#[test]
fn a_sparse_file_where_a_pinned_plugins_interpreter_was_never_holds_metrics() {
    use std::fs;
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let den = s.root().join("den");
    make_dir(&den);
    intruder.own(&den);
    let interp = den.join("interp");
    intruder.sh(&s, &format!("printf '#!/bin/sh\\n' >{}", interp.display()));
    s.file(
        "host-volume",
        "odd",
        &format!("#!{}\necho hi\n", interp.display()),
        0o755,
    );
    s.hv_ok("kept", "1.0.0");
    plugctl(&s).args(["pin"]).succeeds();
    let lock = fs::read_to_string(s.plugins.join("plugctl.lock")).unwrap();
    let pinned: serde_json::Value = serde_json::from_str(&lock).unwrap();
    let odd = pinned["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "odd")
        .unwrap()
        .clone();
    assert_eq!(odd["interpreter"]["size"], 10, "{lock}");
    let drifted = r#"plugctl_plugin_drifted{family="host-volume",name="odd"} 1"#;
    let same = r#"plugctl_plugin_drifted{family="host-volume",name="odd"} 0"#;
    plugctl(&s).args(["metrics"]).succeeds().stdout_has(same);
    // A lock file from before interpreters' sizes were pinned: no drift.
    let old = lock
        .replace("\"size\": 10,", "")
        .replace(",\n        \"size\": 10", "");
    assert_ne!(old, lock, "the interpreter's size is in the lock file");
    fs::write(s.plugins.join("plugctl.lock"), &old).unwrap();
    plugctl(&s).args(["metrics"]).succeeds().stdout_has(same);
    plugctl(&s).args(["pin", "--check"]).succeeds();
    plugctl(&s).args(["pin"]).succeeds();
    if !intruder.sparse_terabyte(&s, &interp) {
        return;
    }
    plugctl(&s)
        .args(["metrics"])
        .deadline(HANG)
        .succeeds()
        .stdout_has(drifted)
        .stdout_has(r#"plugctl_plugin_drifted{family="host-volume",name="kept"} 0"#);
    // Nor does `pin` itself hash it (found by the twelfth review): no
    // program is larger than 1 GiB, and a file that is is refused by its
    // size before a byte is read, here and as a plugin file.
    plugctl(&s).args(["pin"]).deadline(HANG).succeeds();
    let lock = fs::read_to_string(s.plugins.join("plugctl.lock")).unwrap();
    let pinned: serde_json::Value = serde_json::from_str(&lock).unwrap();
    let odd = pinned["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "odd")
        .unwrap()
        .clone();
    assert!(odd["interpreter"]["sha256"].is_null(), "{lock}");
    let family = s.plugins.join("host-volume");
    std::fs::set_permissions(
        &family,
        std::os::unix::fs::PermissionsExt::from_mode(0o1777),
    )
    .unwrap();
    if !intruder.sparse_terabyte(&s, &family.join("huge")) {
        return;
    }
    intruder.sh(&s, &format!("chmod 755 {}", family.join("huge").display()));
    plugctl(&s)
        .args(["pin"])
        .deadline(HANG)
        .succeeds()
        .stderr_has("\"huge\" not pinned")
        .stderr_has("is 1099511627776 bytes, more than the 1073741824 bytes plugctl reads of it");
}

//! Round 16 of the fresh-eyes attack on issue #34 ("safe to consume, safe
//! to run"), through the real binary, after review34.rs to review34t.rs,
//! aimed at what plugctl keeps and walks (the registry and its journal,
//! the volumes directory, the audit's walk, the textfile): each test here
//! is an attack that found a way through.

use std::os::unix::ffi::OsStrExt;

use crate::common::*;

/// The volumes directory is shared with the Nomad agent and other tools,
/// and `volume audit` lists what they keep there as foreign entries. One
/// whose name is not UTF-8 (a tool's `caf\xe9` image) made `--json volume
/// audit` stop half-way through its document ("cannot encode JSON"), exit
/// 1: a monitor got a cut document with `"ok": true` at its top and an
/// error after it, and no audit. Such a name is written with its bytes
/// escaped, as `fingerprint` writes a plugin file's, and the audit goes on.
#[test]
fn a_foreign_entry_not_in_utf8_never_cuts_the_audits_json() {
    let s = Rig::new();
    s.hv_script(
        "dir",
        r#"mkdir -p "$v"; printf '{"path": "%s"}' "$v""#,
        "exit 0",
    );
    create_volume(&s, &["--plugin", "dir", "--name", "a"]);
    let odd = s.volumes.join(std::ffi::OsStr::from_bytes(b"caf\xe9.img"));
    std::fs::write(&odd, b"an image of another tool's").unwrap();
    let out = plugctl(&s).args(["--json", "volume", "audit"]).succeeds();
    let doc = out.json();
    assert_eq!(doc["ok"], true, "{doc}");
    let shown = format!("{}/caf\\xe9.img", s.volumes.display());
    assert_eq!(doc["foreign"][0]["path"], shown.as_str(), "{doc}");
    assert_eq!(doc["foreign"][0]["kind"], "file", "{doc}");
    assert!(odd.exists(), "the foreign entry is left as it was");
}

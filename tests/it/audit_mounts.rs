//! `volume audit` counts what a volume holds without leaving it: a bind
//! mount of a node directory inside a volume (which a plugin running as
//! root can make) is on the same file system, so a walk that compared
//! `st_dev` counted all of it as the volume's and walked the node's files
//! as root. Every directory is now opened relative to its parent, never
//! crossing a mount nor following a symlink, and a mount inside a volume
//! (a bind-mounted file too) is left out.

use std::fs;

use crate::common::*;
use serde_json::Value;

#[test]
fn a_mount_inside_a_volume_or_an_orphan_is_never_walked_nor_counted() {
    let s = Rig::new();
    s.hv_script(
        "dir",
        r#"mkdir -p "$v"; printf '{"path": "%s"}' "$v""#,
        "exit 0",
    );
    let v = create_volume(&s, &["--plugin", "dir", "--name", "a"]);
    let path = v["path"].as_str().unwrap().to_string();
    // The node's own directory, 8 MiB, on the volumes' file system.
    let node = s.out_file("node");
    fs::create_dir_all(&node).unwrap();
    fs::write(node.join("big"), vec![7u8; 8 << 20]).unwrap();
    let orphan = s.volumes.join("leftover");
    fs::create_dir_all(orphan.join("in")).unwrap();
    fs::write(format!("{path}/file"), b"x").unwrap();
    let Some(run) = in_mount_namespace(
        &s,
        "mkdir \"$1/bound\" && mount --bind \"$0\" \"$1/bound\" && \
         mount --bind \"$0/big\" \"$1/file\" && mount --bind \"$0\" \"$2/in\" && \
         \"$PLUGCTL\" --json volume audit",
    ) else {
        return;
    };
    let out = run.arg(&node).arg(&path).arg(&orphan).any_exit();
    let doc: Value = serde_json::from_str(&out.stdout())
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", out.stdout(), out.stderr()));
    let bytes = &doc["volumes"][0]["bytes_on_disk"];
    assert!(
        bytes.as_u64().is_some_and(|b| b < 1 << 20),
        "the bind mounts inside the volume are not its bytes: {doc}"
    );
    // Not named for a volume of plugctl's: a foreign entry, counted alike.
    let orphan_bytes = doc["foreign"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["path"] == orphan.display().to_string()))
        .map(|o| o["bytes_on_disk"].clone());
    assert!(
        orphan_bytes
            .as_ref()
            .and_then(Value::as_u64)
            .is_some_and(|b| b < 1 << 20),
        "nor the one inside an orphan: {doc}"
    );
    // Without the mounts, the same files count: the walk sees them.
    fs::write(format!("{path}/file"), vec![7u8; 4 << 20]).unwrap();
    let doc = plugctl(&s)
        .args(["--json", "volume", "audit"])
        .any_exit()
        .json();
    assert!(
        doc["volumes"][0]["bytes_on_disk"]
            .as_u64()
            .is_some_and(|b| b >= 4 << 20),
        "{doc}"
    );
}

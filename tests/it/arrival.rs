//! A plugin's answer is judged when it arrives: a create's path that
//! would point plugctl outside its volumes directory is the plugin's
//! failure (the volume kept `pending`, never `ready`), in create, restore
//! and repair alike; no command walks outside the volumes directory; and
//! no value a plugin can make plugctl record locks the node out of its
//! registry.

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};

use crate::common::*;
use serde_json::Value;

/// The record of the volume named `name`.
fn volume_named(s: &Rig, name: &str) -> Value {
    list_volumes(s)
        .into_iter()
        .find(|v| v["name"] == name)
        .unwrap_or_else(|| panic!("no volume {name}"))
}

#[test]
fn a_path_through_a_link_out_of_the_volumes_directory_is_the_plugins_failure() {
    let s = Rig::new();
    let outside = s.root().join("outside");
    make_dir(&outside);
    let outside = outside.display();
    // A link on the way out, a link as the volume itself, and a link that
    // stays inside (a second spelling of a directory: refused too, see
    // linked_volumes.rs).
    s.hv_script(
        "via",
        &format!(
            r#"mkdir -p "$DHV_VOLUMES_DIR"; ln -sfn '{outside}' "$DHV_VOLUMES_DIR/out"
               printf '{{"path": "%s"}}' "$DHV_VOLUMES_DIR/out/$DHV_VOLUME_ID""#
        ),
        "exit 0",
    );
    s.hv_script(
        "is",
        &format!(
            r#"mkdir -p "$DHV_VOLUMES_DIR"; ln -sfn '{outside}' "$v"
               printf '{{"path": "%s"}}' "$v""#
        ),
        "exit 0",
    );
    s.hv_script(
        "inside",
        r#"mkdir -p "$DHV_VOLUMES_DIR/real/$DHV_VOLUME_ID"; ln -sfn real "$DHV_VOLUMES_DIR/alias"
           printf '{"path": "%s"}' "$DHV_VOLUMES_DIR/alias/$DHV_VOLUME_ID""#,
        "exit 0",
    );
    for name in ["via", "is"] {
        let out = plugctl(&s)
            .args(["volume", "create", "--plugin", name, "--name", name])
            .fails_with(Exit::Failure);
        let err = stderr(&out);
        assert!(
            err.contains("leads through a symbolic link to") && err.contains(&*outside.to_string()),
            "{err}"
        );
        let v = volume_named(&s, name);
        assert_eq!(v["state"], "pending", "{v}");
        assert_eq!(v["path"], "", "{v}");
    }
    let err = stderr(
        &plugctl(&s)
            .args(["volume", "create", "--plugin", "inside", "--name", "inside"])
            .fails_with(Exit::Failure),
    );
    assert!(
        err.contains("leads through a symbolic link to") && err.contains("/real/"),
        "{err}"
    );
    assert_eq!(volume_named(&s, "inside")["state"], "pending");
}

#[test]
fn restore_and_repair_judge_the_path_they_get_back() {
    let s = Rig::new();
    let answer = s.out_file("answer");
    // The path create answers is whatever the file says, else the volume's.
    s.hv_script(
        "fickle",
        &format!(
            r#"p="$v"; [ -s '{a}' ] && p=$(cat '{a}')
               mkdir -p "$v"; printf '{{"path": "%s"}}' "$p""#,
            a = answer.display()
        ),
        "exit 0",
    );
    let good = create_volume(&s, &["--plugin", "fickle", "--name", "good"]);
    fs::write(&answer, "/etc").unwrap();
    // Restore: the ready volume keeps its path, with the reason.
    let doc = plugctl(&s)
        .args(["--json", "volume", "restore"])
        .fails_with(Exit::Failure)
        .json();
    let r = &doc["results"][0];
    assert_eq!(r["ok"], false, "{doc}");
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("not inside the volumes directory"),
        "{doc}"
    );
    let v = volume_named(&s, "good");
    assert_eq!(v["state"], "ready");
    assert_eq!(v["path"], good["path"], "the recorded path stays: {v}");
    assert!(v["error"].as_str().unwrap().contains("\"/etc\""), "{v}");
    // A new volume: pending, no path; repair's create fails the same way
    // and its delete rolls it back.
    plugctl(&s)
        .args(["volume", "create", "--plugin", "fickle", "--name", "bad"])
        .fails_with(Exit::Failure);
    let v = volume_named(&s, "bad");
    assert_eq!((&v["state"], &v["path"]), (&"pending".into(), &"".into()));
    let doc = plugctl(&s)
        .args(["--json", "volume", "repair"])
        .succeeds()
        .json();
    let r = &doc["results"][0];
    assert_eq!(
        (&r["name"], &r["action"]),
        (&"bad".into(), &"rolled back".into()),
        "{doc}"
    );
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("not inside the volumes directory"),
        "{doc}"
    );
    assert_eq!(list_volumes(&s).len(), 1);
}

/// A registry written before paths were judged on arrival (or edited by
/// hand) may name `/usr`, or a path through a link to it: an audit reports
/// such a volume, and walks nothing of it.
#[test]
fn audit_never_walks_outside_the_volumes_directory() {
    let s = Rig::new();
    s.hv_script(
        "dir",
        r#"mkdir -p "$v"; printf '{"path": "%s"}' "$v""#,
        "exit 0",
    );
    let a = create_volume(&s, &["--plugin", "dir", "--name", "a"]);
    let b = create_volume(&s, &["--plugin", "dir", "--name", "b"]);
    let c = create_volume(&s, &["--plugin", "dir", "--name", "c"]);
    symlink("/usr", s.volumes.join("link")).unwrap();
    let through = s.volumes.join("link/share").display().to_string();
    let mut doc = s.registry_file();
    doc["volumes"][id_of(&a)]["path"] = "/usr".into();
    doc["volumes"][id_of(&b)]["path"] = through.clone().into();
    s.write_registry(serde_json::to_vec_pretty(&doc).unwrap());
    let out = plugctl(&s)
        .args(["--json", "volume", "audit"])
        .fails_with(Exit::Failure);
    let doc = out.json();
    let report = |id: &str| {
        doc["volumes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["id"] == id)
            .unwrap_or_else(|| panic!("{id} not in {doc}"))
            .clone()
    };
    for (v, path) in [(&a, "/usr".to_string()), (&b, through)] {
        let r = report(&id_of(v));
        assert_eq!(r["bytes_on_disk"], Value::Null, "walked: {r}");
        let findings = r["findings"].to_string();
        assert!(findings.contains("not walked"), "{r}");
        assert!(findings.contains(&path), "{r}");
    }
    // The volume inside is walked as ever.
    let r = report(&id_of(&c));
    assert!(r["bytes_on_disk"].is_u64(), "{r}");
    assert_eq!(r["findings"], serde_json::json!([]), "{r}");
}

/// `1.0.0-aaaa...` of exactly `len` bytes: a version go-version takes.
fn version_of(len: usize) -> String {
    format!("1.0.0-{}", "a".repeat(len - 6))
}

/// A path inside `dir` exactly `len` bytes long, of components no longer
/// than a name may be.
fn path_of(dir: &str, len: usize) -> String {
    let mut p = dir.to_string();
    while p.len() < len {
        let room = len - p.len() - 1;
        // A last component of at least one byte: never leave one short.
        let take = if room > 200 { 200.min(room - 1) } else { room };
        p.push('/');
        p.push_str(&"d".repeat(take.max(1)));
    }
    assert_eq!(p.len(), len);
    p
}

/// Every value a plugin can make plugctl record, at its limit (and one
/// past it, where there is one): afterwards every command still reads the
/// registry. A limit plugctl needs is the plugin's failure when the answer
/// arrives, never a record the registry then refuses on load.
#[test]
fn no_plugin_answer_locks_the_node_out_of_its_registry() {
    let s = Rig::new();
    let vols = s.volumes.display().to_string();
    // Versions: go-version (and Nomad) take any length; plugctl records
    // up to 1024 bytes.
    let at_limit = version_of(1024);
    s.hv_ok("v1024", &at_limit);
    s.hv_ok("v1025", &version_of(1025));
    s.plugin(
        "secrets",
        "s1024",
        &format!(
            r#"[ "$1" = fingerprint ] && echo '{{"type": "secrets", "version": "{at_limit}"}}'"#
        ),
    );
    // The longest type and name a file system gives, in a family of its own.
    let long_type = "t".repeat(255);
    let long_name = "n".repeat(255);
    let family_dir = s.plugins.join(&long_type);
    make_dir(&family_dir);
    let tmp = s.root().join("long.tmp");
    fs::write(
        &tmp,
        format!("#!/bin/sh\necho '{{\"version\": \"{at_limit}\"}}'\n"),
    )
    .unwrap();
    fs::set_permissions(&tmp, fs::Permissions::from_mode(0o755)).unwrap();
    fs::rename(&tmp, family_dir.join(&long_name)).unwrap();
    // A failure whose message is long and full of control characters.
    s.plugin(
        "host-volume",
        "noisy",
        r#"printf '{"error": "'; head -c 300000 /dev/zero | tr '\0' 'x'; printf '\\u001b[31m\\r\\n\\u0007"}'; exit 1"#,
    );
    // Creates: the longest path, the largest and smallest sizes, and a
    // path one byte too long.
    for (name, path, bytes) in [
        ("longest", path_of(&vols, 4095), i64::MAX),
        ("smallest", format!("{vols}/small"), i64::MIN),
        ("too-long", path_of(&vols, 4096), 0),
    ] {
        s.hv_script(
            name,
            &format!(r#"printf '{{"path": "{path}", "bytes": {bytes}}}'"#),
            "exit 0",
        );
    }
    let doc = plugctl(&s)
        .args(["--json", "fingerprint"])
        .fails_with(Exit::Failure)
        .json();
    assert_eq!(
        row(&doc, "host-volume", "v1024")["version"],
        at_limit.as_str()
    );
    assert_eq!(row(&doc, "secrets", "s1024")["version"], at_limit.as_str());
    assert_eq!(
        row(&doc, &long_type, &long_name)["version"],
        at_limit.as_str()
    );
    let refused = row(&doc, "host-volume", "v1025");
    assert_eq!(refused["healthy"], false);
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("records at most 1024"),
        "{refused}"
    );
    assert_eq!(row(&doc, "host-volume", "noisy")["healthy"], false);
    // What a record keeps of a message is bounded: a few hundred plugins
    // saying this much would otherwise take the registry past the size it
    // loads.
    let shown = plugctl(&s)
        .args(["--json", "plugin", "show", "host-volume", "noisy"])
        .succeeds()
        .json();
    let kept = shown.to_string();
    assert!(kept.len() < 16 << 10, "{} bytes", kept.len());
    assert!(kept.contains("shortened for the registry"), "{kept:.300}");
    let longest = create_volume(&s, &["--plugin", "longest", "--name", "longest"]);
    assert_eq!(longest["bytes"], i64::MAX);
    let smallest = create_volume(&s, &["--plugin", "smallest", "--name", "smallest"]);
    assert_eq!(smallest["bytes"], i64::MIN);
    plugctl(&s)
        .args([
            "volume", "create", "--plugin", "too-long", "--name", "too-long",
        ])
        .fails_with(Exit::Failure)
        .stderr_has("longer than any path Linux takes");
    // Registrations: held to the same bound, refused before anything is
    // recorded when past it.
    plugctl(&s)
        .args(register_args("csi-node", "ebs", "a1", "/run/a1.sock"))
        .args(["--version", &at_limit])
        .succeeds();
    for bad in [version_of(1025), "1.0\u{7}".to_string()] {
        plugctl(&s)
            .args([
                "plugin",
                "register",
                "--type",
                "csi-node",
                "--name",
                "ebs",
                "--alloc-id",
                "a2",
                "--socket",
                "/run/a2.sock",
                "--version",
                &bad,
            ])
            .fails_with(Exit::Usage)
            .stderr_has("the plugin's version");
    }

    // Every command that reads the registry, and those that write it.
    let id = id_of(&longest);
    let commands: Vec<Vec<&str>> = vec![
        vec!["plugin", "list"],
        vec!["--json", "plugin", "list"],
        vec!["plugin", "show", "host-volume", "v1024"],
        vec!["plugin", "show", &long_type, &long_name],
        vec!["--json", "plugin", "show", "secrets", "s1024"],
        vec!["plugin", "show", "csi-node", "ebs"],
        vec!["volume", "list"],
        vec!["--json", "volume", "list"],
        vec!["volume", "show", &id],
        vec!["events"],
        vec!["--json", "events"],
        vec!["metrics"],
        vec!["volume", "audit"],
        vec!["volume", "repair"],
        vec!["volume", "restore"],
        vec!["fingerprint"],
        vec!["plugin", "wait", "host-volume", "v1024", "--timeout", "1s"],
        vec!["volume", "delete", &id],
        vec!["volume", "forget", "smallest"],
        vec!["plugin", "list"],
    ];
    for args in commands {
        let out = plugctl(&s).args_from(&args).any_exit();
        assert_ne!(out.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert_ne!(out.code(), None, "{args:?}: {}", stderr(&out));
        assert!(
            !stderr(&out).contains("refusing the registry")
                && !stderr(&out).contains("registry.json:"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

/// A volumes directory named with `..` (the registry records it, and loads
/// none such) is refused before anything is recorded: the registry stays
/// readable by every command.
#[test]
fn a_volumes_directory_with_dot_dot_is_refused_before_it_is_recorded() {
    let s = Rig::new();
    s.hv_script(
        "dir",
        r#"mkdir -p "$v"; printf '{"path": "%s"}' "$v""#,
        "exit 0",
    );
    let dotted = s.root().join("out/../volumes");
    for plugin in ["dir", "mkdir"] {
        plugctl(&s)
            .env("PLUGCTL_VOLUMES_DIR", &dotted)
            .args(["volume", "create", "--plugin", plugin, "--name", plugin])
            .fails_with(Exit::Usage)
            .stderr_has("holds '..'");
    }
    assert!(list_volumes(&s).is_empty());
}

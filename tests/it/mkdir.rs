//! The built-in `mkdir` host-volume plugin (protocol 4.4) through the real
//! binary: mode past the umask, uid/gid, parameter errors, existing targets,
//! and delete.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::common::*;
use serde_json::Value;

/// `--json volume create` of the built-in mkdir under this umask, with
/// these arguments after `--plugin mkdir`; the volume it made.
fn created(s: &Rig, umask: &str, args: &[&str]) -> Value {
    plugctl_with_umask(s, umask)
        .args(["--json", "volume", "create", "--plugin", "mkdir"])
        .args_from(args)
        .succeeds()
        .json()["volume"]
        .clone()
}

fn entries(dir: &Path) -> Vec<String> {
    match fs::read_dir(dir) {
        Ok(rd) => rd
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect(),
        Err(_) => Vec::new(),
    }
}

fn record_count(s: &Rig) -> usize {
    if !s.registry.exists() {
        return 0;
    }
    s.registry_json()["volumes"].as_object().unwrap().len()
}

#[test]
fn mode_is_set_exactly_whatever_the_umask() {
    let s = Rig::new();
    for (param, want) in [
        (Some("mode=0775"), 0o775),
        (Some("mode=755"), 0o755),
        (Some("mode=0777"), 0o777),
        (None, 0o700),
    ] {
        let name = format!("v{want:o}");
        let mut args = vec!["--name", &name];
        if let Some(p) = param {
            args.extend(["--param", p]);
        }
        let v = created(&s, "077", &args);
        let path = PathBuf::from(v["path"].as_str().unwrap());
        assert_eq!(path, s.volumes.join(v["id"].as_str().unwrap()));
        assert_eq!(mode(&path), want, "{param:?}");
        assert_eq!(v["bytes"], 0);
        assert_eq!(v["plugin"], "mkdir");
        assert_eq!(v["state"], "ready");
    }
    // the default under a permissive umask is still 0700
    let v = created(&s, "000", &["--name", "open"]);
    assert_eq!(mode(Path::new(v["path"].as_str().unwrap())), 0o700);
}

#[test]
fn uid_and_gid_are_applied() {
    if !nix::unistd::geteuid().is_root() {
        eprintln!("SKIPPED: chown to another user needs root");
        return;
    }
    let s = Rig::new();
    let vol = create_volume(
        &s,
        &[
            "--plugin",
            "mkdir",
            "--name",
            "owned",
            "--param",
            "uid=12345",
            "--param",
            "gid=23456",
            "--param",
            "mode=0750",
        ],
    );
    let meta = fs::metadata(vol["path"].as_str().unwrap()).unwrap();
    assert_eq!((meta.uid(), meta.gid()), (12345, 23456));
    assert_eq!(meta.permissions().mode() & 0o777, 0o750);
    // only one of them: the other is left as created
    let vol = create_volume(
        &s,
        &[
            "--plugin",
            "mkdir",
            "--name",
            "gid-only",
            "--param",
            "gid=12345",
        ],
    );
    let meta = fs::metadata(vol["path"].as_str().unwrap()).unwrap();
    assert_eq!((meta.uid(), meta.gid()), (0, 12345));
}

#[test]
fn bad_parameters_are_named_and_leave_nothing() {
    let s = Rig::new();
    // Nomad's words (decodeMkdirParams): `invalid value for "<key>": ...`.
    for (param, needles) in [
        (
            "size=10G",
            &[r#"invalid value for "size": unknown mkdir parameter: "size""#][..],
        ),
        (
            "uid=alice",
            &[r#"invalid value for "uid": strconv.Atoi: parsing "alice": invalid syntax"#],
        ),
        (
            "uid=99999999999999999999",
            &[
                r#"invalid value for "uid": strconv.Atoi: parsing "99999999999999999999": value out of range"#,
            ],
        ),
        (
            "gid=4294967296",
            &[r#"invalid value for "gid": 4294967296 is not a group id: Nomad would accept it"#],
        ),
        (
            "mode=rwx",
            &[r#"invalid value for "mode": strconv.ParseUint: parsing "rwx": invalid syntax"#],
        ),
        (
            "mode=0800",
            &[r#"invalid value for "mode": strconv.ParseUint: parsing "0800": invalid syntax"#],
        ),
    ] {
        let out = plugctl(&s)
            .args([
                "volume", "create", "--plugin", "mkdir", "--name", "bad", "--param", param,
            ])
            .fails_with(Exit::Failure);
        let err = stderr(&out);
        for n in needles.iter().chain(&["\"mkdir\"", "create", "\"bad\""]) {
            assert!(err.contains(n), "{param}: {n} missing in {err}");
        }
        assert!(
            entries(&s.volumes).is_empty(),
            "{param}: {:?}",
            entries(&s.volumes)
        );
        assert_eq!(record_count(&s), 0, "{param}");
    }
}

/// What Nomad's parameter decoding accepts, plugctl does: a signed uid
/// (`-1` leaves the owner, `+0` is root) and a mode with a sticky bit,
/// which Go's `FileMode` drops (a warning says so).
#[test]
fn signed_ids_and_a_sticky_mode_are_accepted_as_nomad_does() {
    let s = Rig::new();
    let out = plugctl(&s)
        .args([
            "--json",
            "volume",
            "create",
            "--plugin",
            "mkdir",
            "--name",
            "sticky",
            "--param",
            "mode=01777",
            "--param",
            "uid=-1",
            "--param",
            "gid=-1",
        ])
        .succeeds()
        .stderr_has("the sticky bit is dropped, as Nomad does")
        .stderr_has("mode 0777");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let path = Path::new(v["volume"]["path"].as_str().unwrap());
    assert_eq!(mode(path), 0o777);
    let me = nix::unistd::geteuid().as_raw();
    assert_eq!(fs::metadata(path).unwrap().uid(), me, "-1 leaves the owner");
    if nix::unistd::geteuid().is_root() {
        let out = plugctl(&s)
            .args([
                "--json", "volume", "create", "--plugin", "mkdir", "--name", "root", "--param",
                "uid=+0",
            ])
            .succeeds();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            fs::metadata(v["volume"]["path"].as_str().unwrap())
                .unwrap()
                .uid(),
            0
        );
    }
}

#[test]
fn an_existing_target_is_success_and_nothing_is_reapplied() {
    let s = Rig::new();
    let id = "5f4e3d2c-1b0a-4998-8776-655443322110";
    let target = s.volumes.join(id);
    // plugctl's own, from an earlier life: made, then forgotten (what
    // another made there is refused before mkdir runs: volume::).
    create_volume(&s, &["--plugin", "mkdir", "--name", "old", "--id", id]);
    plugctl(&s).args(["volume", "forget", id]).succeeds();
    fs::set_permissions(&target, fs::Permissions::from_mode(0o711)).unwrap();
    fs::write(target.join("data"), "keep").unwrap();
    let vol = create_volume(
        &s,
        &[
            "--plugin",
            "mkdir",
            "--name",
            "pre",
            "--id",
            id,
            "--param",
            "mode=0755",
        ],
    );
    assert_eq!(vol["path"], target.to_str().unwrap());
    assert_eq!(mode(&target), 0o711);
    assert_eq!(fs::read_to_string(target.join("data")).unwrap(), "keep");
    // re-running create (an update) is the same: success, nothing touched
    plugctl(&s)
        .args([
            "--json",
            "volume",
            "create",
            "--plugin",
            "mkdir",
            "--name",
            "pre",
            "--id",
            id,
            "--param",
            "mode=0700",
        ])
        .succeeds()
        .json();
    assert_eq!(mode(&target), 0o711);
}

#[test]
fn delete_is_recursive_and_idempotent() {
    let s = Rig::new();
    let vol = create_volume(&s, &["--plugin", "mkdir", "--name", "d"]);
    let id = id_of(&vol);
    let path = PathBuf::from(vol["path"].as_str().unwrap());
    make_dir(path.join("a/b"));
    fs::write(path.join("a/b/file"), "x").unwrap();
    plugctl(&s).args(["volume", "delete", &id]).succeeds();
    assert!(!path.exists());
    assert_eq!(record_count(&s), 0);
    // plugctl forgot it: a second delete is "not found"
    plugctl(&s)
        .args(["volume", "delete", &id])
        .fails_with(Exit::NotFound);

    // a volume whose directory vanished behind plugctl's back deletes fine
    let doc = plugctl(&s)
        .args([
            "--json", "volume", "create", "--plugin", "mkdir", "--name", "e",
        ])
        .any_exit()
        .json();
    let path = PathBuf::from(doc["volume"]["path"].as_str().unwrap());
    fs::remove_dir(&path).unwrap();
    plugctl(&s)
        .args(["volume", "delete", "--name", "e"])
        .succeeds();

    // at the plugin level: delete twice succeeds twice
    let req = plugctl_core::families::host_volume::Request {
        volumes_dir: s.volumes.clone(),
        plugin_dir: s.plugins.join("host-volume"),
        node_pool: "default".into(),
        namespace: "default".into(),
        name: "direct".into(),
        id: "0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d".into(),
        capacity_min: 0,
        capacity_max: 0,
        node_id: "n".into(),
        parameters: Default::default(),
    };
    let made = plugctl_core::families::mkdir::create(&req).unwrap();
    assert!(Path::new(&made.path).is_dir());
    plugctl_core::families::mkdir::delete(&req, plugctl_core::trust::Policy::strict()).unwrap();
    plugctl_core::families::mkdir::delete(&req, plugctl_core::trust::Policy::strict()).unwrap();
    assert!(!Path::new(&made.path).exists());
}

#[test]
fn mkdir_cannot_be_shadowed_by_a_file() {
    let s = Rig::new();
    s.plugin("host-volume", "mkdir", "echo '{\"path\": \"/evil\"}'");
    let vol = create_volume(&s, &["--plugin", "mkdir", "--name", "x"]);
    assert_ne!(vol["path"], "/evil");
    assert!(Path::new(vol["path"].as_str().unwrap()).is_dir());
}

//! The trust boundary through the real binary: plugctl runs as root over
//! files other people can reach. Each test plants what a hostile user would
//! (a symlink, a FIFO, a huge file, a writable directory, an edited
//! registry) and checks that plugctl fails closed, at once, with the path
//! and the spec's exit code, and harms nothing.

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::Value;

#[test]
fn a_symlink_planted_as_the_lock_file_is_never_followed() {
    let s = Rig::new();
    make_dir(s.registry.parent().unwrap());
    let victim = s.root().join("victim");
    fs::write(&victim, "precious\n").unwrap();
    symlink(&victim, s.registry.with_file_name("registry.json.lock")).unwrap();
    plugctl(&s)
        .args(register_args("csi-node", "x", "a", "/x"))
        .fails_with(Exit::Usage)
        .stderr_has("registry.json.lock")
        .stderr_has("symbolic link");
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
    assert!(!s.registry.exists());
}

/// A waiter holds a descriptor of the lock file it opened. If that file
/// loses its name meanwhile (removed, or replaced by rename) and another
/// plugctl locks the file that has the name now, the lock the waiter gets
/// at last excludes nobody: it must take the lock on the file the name
/// holds instead, never run its transaction beside the other one.
#[test]
fn a_waiter_whose_lock_file_was_replaced_locks_the_new_one() {
    let s = Rig::new();
    let register = |name: &str| {
        plugctl(&s)
            .args(["--lock-timeout", "30s"])
            .args(register_args("csi-node", name, "a", "/x"))
    };
    register("first").succeeds();
    let lock = s.registry.with_file_name("registry.json.lock");
    let old = fs::OpenOptions::new().write(true).open(&lock).unwrap();
    old.lock().unwrap();
    let mut waiter = register("waiter").start();
    std::thread::sleep(Duration::from_millis(800));
    assert!(waiter.running(), "it waits");
    // The name now holds a new file, which another process locks.
    fs::remove_file(&lock).unwrap();
    let new = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&lock)
        .unwrap();
    new.lock().unwrap();
    drop(old);
    std::thread::sleep(Duration::from_millis(1500));
    let early = !waiter.running();
    drop(new);
    assert!(
        !early,
        "the waiter ran while another process held the lock file's lock"
    );
    waiter.succeeds();
}

#[test]
fn a_fifo_a_directory_a_device_or_a_symlink_as_the_registry_fails_at_once() {
    let s = Rig::new();
    let fifo = s.root().join("fifo.json");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
    let dir = s.root().join("dir.json");
    fs::create_dir(&dir).unwrap();
    let real = s.root().join("real.json");
    fs::write(&real, r#"{"schema_version": 1}"#).unwrap();
    let link = s.root().join("link.json");
    symlink(&real, &link).unwrap();
    for (registry, what) in [
        (fifo.as_path(), "a FIFO"),
        (dir.as_path(), "a directory"),
        (std::path::Path::new("/dev/zero"), "a device"),
        (link.as_path(), "symbolic link"),
    ] {
        for args in [
            &["volume", "list"][..],
            &["events"][..],
            &["plugin", "list"][..],
        ] {
            let took = plugctl(&s)
                .env("PLUGCTL_REGISTRY", registry)
                .args_from(args)
                .deadline(Duration::from_secs(10))
                .fails_with(Exit::Usage)
                .stderr_has(what)
                .stderr_has(&registry.display().to_string())
                .took();
            assert!(took < Duration::from_secs(5), "{registry:?} took {took:?}");
        }
    }
    assert_eq!(
        fs::read_to_string(&real).unwrap(),
        r#"{"schema_version": 1}"#
    );
}

#[test]
fn a_registry_over_the_size_limit_is_refused_unread() {
    let s = Rig::new();
    make_dir(s.registry.parent().unwrap());
    let mut doc = String::from(r#"{"schema_version": 1, "padding": ""#);
    doc.push_str(&"x".repeat(4096));
    doc.push_str("\"}");
    s.write_registry(&doc);
    let out = plugctl(&s)
        .args(["--registry-max-size", "1KiB", "volume", "list"])
        .fails_with(Exit::Usage);
    let err = stderr(&out);
    assert!(err.contains("more than the limit of 1024 bytes"), "{err}");
    assert!(err.contains("--registry-max-size"), "{err}");
    plugctl(&s)
        .env("PLUGCTL_REGISTRY_MAX_SIZE", "1MiB")
        .args(["volume", "list"])
        .succeeds();
}

#[test]
fn a_registry_others_can_write_is_refused_unless_overridden() {
    let s = Rig::new();
    plugctl(&s).args(["fingerprint"]).succeeds();
    let before = fs::read(&s.registry).unwrap();
    let state = s.registry.parent().unwrap().to_path_buf();
    for (path, mode, needle) in [
        (&s.registry, 0o620, "group"),
        (&s.registry, 0o602, "others"),
    ] {
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
        let out = plugctl(&s).args(["volume", "list"]).fails_with(Exit::Usage);
        let err = stderr(&out);
        assert!(err.contains(needle) && err.contains("chmod go-w"), "{err}");
        assert!(err.contains("--allow-insecure-paths"), "{err}");
        plugctl(&s)
            .args(["--allow-insecure-paths", "volume", "list"])
            .succeeds();
        plugctl(&s)
            .env("PLUGCTL_ALLOW_INSECURE_PATHS", "1")
            .args(["volume", "list"])
            .succeeds();
    }
    fs::set_permissions(&s.registry, fs::Permissions::from_mode(0o600)).unwrap();
    fs::set_permissions(&state, fs::Permissions::from_mode(0o777)).unwrap();
    plugctl(&s)
        .args(["fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has("its directory");
    assert_eq!(
        fs::read(&s.registry).unwrap(),
        before,
        "refused means untouched"
    );
    // A sticky world-writable directory (like /tmp) is fine.
    fs::set_permissions(&state, fs::Permissions::from_mode(0o1777)).unwrap();
    plugctl(&s).args(["volume", "list"]).succeeds();
}

#[test]
fn a_registry_owned_by_another_user_is_refused_and_root_keeps_a_users_ownership() {
    if !is_root() {
        eprintln!("SKIPPED: needs root (chown to another user)");
        return;
    }
    let s = Rig::new();
    plugctl(&s).args(["fingerprint"]).succeeds();
    // Owned by nobody, inside root's directory: not trusted.
    nix::unistd::chown(&s.registry, Some(65534.into()), Some(65534.into())).unwrap();
    plugctl(&s)
        .args(["fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has("belongs to uid 65534");

    // A user's own registry in the user's own directory: root may write it
    // (root is trusted), and the file stays the user's, with its mode.
    let home = s.root().join("userstate");
    make_dir(&home);
    let reg = home.join("registry.json");
    fs::copy(&s.registry, &reg).unwrap();
    fs::set_permissions(&reg, fs::Permissions::from_mode(0o640)).unwrap();
    for p in [&home, &reg] {
        nix::unistd::chown(p, Some(65534.into()), Some(65534.into())).unwrap();
    }
    // Root trusts files owned by root only; the override says this one is fine.
    plugctl(&s)
        .env("PLUGCTL_REGISTRY", &reg)
        .args(["--allow-insecure-paths", "fingerprint"])
        .succeeds();
    use std::os::unix::fs::MetadataExt;
    let meta = fs::metadata(&reg).unwrap();
    assert_eq!(
        (meta.uid(), meta.gid()),
        (65534, 65534),
        "root took the file"
    );
    assert_eq!(meta.permissions().mode() & 0o777, 0o640);
    // And the user can still use it.
    plugctl_as_nobody(&s)
        .env("PLUGCTL_REGISTRY", &reg)
        .args(["volume", "list"])
        .succeeds();
}

#[test]
fn the_lock_wait_names_the_process_that_holds_the_lock_not_a_stale_pid() {
    let s = Rig::new();
    plugctl(&s).args(["fingerprint"]).succeeds();
    let lock = s.registry.with_file_name("registry.json.lock");
    // A stale pid from an earlier holder, and a holder that writes none.
    fs::write(&lock, "999999").unwrap();
    let holder = tool("flock").arg(&lock).args(["sleep", "30"]).start();
    let holder_pid = holder.id();
    // Wait until flock holds it.
    let until = Instant::now() + Duration::from_secs(5);
    while !fs::read_to_string("/proc/locks")
        .unwrap()
        .contains(&format!(" {holder_pid} "))
    {
        assert!(Instant::now() < until, "flock never took the lock");
        std::thread::sleep(Duration::from_millis(10));
    }
    let error = plugctl(&s)
        .args(["--json", "--lock-timeout", "300ms"])
        .args(register_args("csi-node", "x", "a", "/x"))
        .fails_with(Exit::Timeout)
        .error();
    drop(holder);
    let message = error["message"].as_str().unwrap();
    // flock(1) takes the lock and execs sleep: one process, flock's pid.
    assert!(
        message.contains(&format!("(pid {holder_pid})")),
        "{message}"
    );
    assert!(!message.contains("999999"), "{message}");
}

/// The registry as JSON, to edit behind plugctl's back.
fn edit(s: &Rig, f: impl FnOnce(&mut Value)) {
    let mut v = s.registry_file();
    f(&mut v);
    fs::write(&s.registry, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
}

/// A host-volume plugin that removes what it is told to, as a real one does,
/// and logs each call.
fn remover(s: &Rig) {
    s.plugin(
        "host-volume",
        "rm",
        &format!(
            r#"echo "$1 $DHV_VOLUME_ID $DHV_CREATED_PATH" >> '{out}/calls'
case $1 in
fingerprint) echo '{{"version": "1.0.0"}}' ;;
create) mkdir -p "$DHV_VOLUMES_DIR/$DHV_VOLUME_ID"; printf '{{"path": "%s/%s", "bytes": 0}}\n' "$DHV_VOLUMES_DIR" "$DHV_VOLUME_ID" ;;
delete) rm -rf "$DHV_VOLUMES_DIR/$DHV_VOLUME_ID" "$DHV_CREATED_PATH" ;;
esac"#,
            out = s.out.display()
        ),
    );
}

#[test]
fn an_edited_volume_id_never_reaches_a_plugin() {
    let s = Rig::new();
    remover(&s);
    let doc = plugctl(&s)
        .args([
            "--json", "volume", "create", "--plugin", "rm", "--name", "v",
        ])
        .succeeds()
        .json();
    let id = id_of(&doc["volume"]);
    // A directory beside the volumes dir that `../outside` would reach.
    let outside = s.root().join("outside");
    make_dir(&outside);
    fs::write(outside.join("keep"), "x").unwrap();
    edit(&s, |v| {
        let mut vol = v["volumes"][&id].take();
        vol["id"] = "../outside".into();
        v["volumes"].as_object_mut().unwrap().remove(&id);
        v["volumes"]["../outside"] = vol;
    });
    let tampered = fs::read(&s.registry).unwrap();
    for args in [
        &["volume", "delete", "../outside"][..],
        &["volume", "restore"],
        &["volume", "list"],
    ] {
        let out = plugctl(&s).args_from(args).fails_with(Exit::Usage);
        let err = stderr(&out);
        assert!(err.contains(r#"volumes["../outside"].id"#), "{err}");
        assert!(err.contains("not a UUID"), "{err}");
    }
    assert!(outside.join("keep").exists());
    assert_eq!(
        s.read_out("calls").lines().count(),
        1,
        "only the create ran"
    );
    assert_eq!(
        fs::read(&s.registry).unwrap(),
        tampered,
        "never overwritten"
    );
}

#[test]
fn an_edited_path_or_volumes_dir_is_not_handed_to_a_plugin() {
    let s = Rig::new();
    remover(&s);
    let vol = create_volume(&s, &["--plugin", "rm", "--name", "v"]);
    let id = id_of(&vol);
    let victim = s.root().join("victim");
    make_dir(&victim);
    for (field, value) in [
        ("path", victim.to_str().unwrap().to_string()),
        ("path", format!("{}/../victim", s.volumes.display())),
        ("volumes_dir", "/".to_string()),
    ] {
        let fresh = s.registry_file();
        edit(&s, |v| v["volumes"][&id][field] = value.clone().into());
        plugctl(&s)
            .args(["volume", "delete", &id])
            .fails_with(Exit::Usage)
            .stderr_has(&id);
        plugctl(&s).args(["volume", "restore"]).fails();
        assert!(victim.exists(), "{field}={value}: the plugin removed it");
        fs::write(&s.registry, serde_json::to_vec_pretty(&fresh).unwrap()).unwrap();
    }
    assert_eq!(
        s.read_out("calls").lines().count(),
        1,
        "only the create ran"
    );
    // The override is explicit and named.
    edit(&s, |v| {
        v["volumes"][&id]["path"] = victim.to_str().unwrap().into()
    });
    plugctl(&s)
        .args(["--allow-insecure-paths", "volume", "delete", &id])
        .succeeds();
}

#[test]
fn a_volume_no_delete_may_settle_is_forgotten_without_its_plugin() {
    let s = Rig::new();
    remover(&s);
    let vol = create_volume(&s, &["--plugin", "rm", "--name", "v"]);
    let id = id_of(&vol);
    let victim = s.root().join("victim");
    make_dir(&victim);
    edit(&s, |v| {
        v["volumes"][&id]["path"] = victim.to_str().unwrap().into()
    });
    // The refusal says the way out.
    plugctl(&s)
        .args(["volume", "delete", &id])
        .fails_with(Exit::Usage)
        .stderr_has(&format!("`plugctl volume forget {id}` drops its record"));
    let doc = plugctl(&s)
        .args(["--json", "volume", "forget", &id])
        .succeeds()
        .json();
    assert_eq!(doc["forgotten"], true, "{doc}");
    assert_eq!(doc["volume"]["state"], "forgotten", "{doc}");
    assert_eq!(doc["volume"]["id"], id.as_str(), "{doc}");
    assert!(victim.exists(), "forget touched the path");
    assert_eq!(
        s.read_out("calls").lines().count(),
        1,
        "only the create ran"
    );
    assert!(list_volumes(&s).is_empty());
    let events = plugctl(&s).args(["--json", "events"]).succeeds().stdout();
    let last: Value = serde_json::from_str(events.lines().last().unwrap()).unwrap();
    assert_eq!(last["kind"], "volume_forget", "{last}");
    assert_eq!(last["volume_id"], id.as_str(), "{last}");
    assert_eq!(last["was"], "ready", "{last}");
    // Gone: a second forget finds nothing.
    plugctl(&s)
        .args(["volume", "forget", &id])
        .fails_with(Exit::NotFound);
    // A volume whose plugin is not found: delete keeps the record and does
    // not offer forget (a plugin directory named wrong looks the same, and
    // forgetting would drop a live volume's record); forget, asked, works.
    create_volume(&s, &["--plugin", "rm", "--name", "gone"]);
    fs::remove_file(s.plugins.join("host-volume/rm")).unwrap();
    plugctl(&s)
        .args(["volume", "delete", "gone"])
        .fails_with(Exit::NotFound)
        .stderr_has("the volume's record is kept")
        .stderr_lacks("forget");
    plugctl(&s).args(["volume", "forget", "gone"]).succeeds();
    remover(&s);
    // An interrupted create's record (pending, no path): forgotten, and
    // said so.
    let pending = id_of(&create_volume(&s, &["--plugin", "rm", "--name", "half"]));
    edit(&s, |v| {
        v["volumes"][&pending]["state"] = "pending".into();
        v["volumes"][&pending]["path"] = "".into();
    });
    plugctl(&s)
        .args(["volume", "forget", "half"])
        .succeeds()
        .stdout_has("no plugin ran; no path was recorded, and whatever its create made is left");
    // The human line names the volume and what was left.
    let other = id_of(&create_volume(&s, &["--plugin", "rm", "--name", "w"]));
    plugctl(&s)
        .args(["volume", "forget", "w"])
        .succeeds()
        .stdout_has(&format!(
            "forgot volume {other} (\"w\", namespace default): no plugin ran"
        ));
}

#[test]
fn an_id_edited_to_upper_case_is_shown_and_named_as_itself() {
    let s = Rig::new();
    remover(&s);
    let keep = "0b5e2c1a-2111-4222-8333-444455556666";
    let victim = "0b5e2c1b-3111-4222-8333-444455556666";
    create_volume(&s, &["--plugin", "rm", "--name", "keepme", "--id", keep]);
    create_volume(&s, &["--plugin", "rm", "--name", "victim", "--id", victim]);
    // Hand-edited: the victim's id in upper case, and one character moved
    // so that it shares its first 8 with keepme's in any case.
    let upper = "0B5E2C1A-3111-4222-8333-444455556666";
    edit(&s, |v| {
        let mut rec = v["volumes"][victim].take();
        rec["id"] = upper.into();
        let vols = v["volumes"].as_object_mut().unwrap();
        vols.remove(victim);
        vols.insert(upper.to_string(), rec);
    });
    let list = plugctl(&s).args(["volume", "list"]).succeeds().stdout();
    let shown = |name: &str| -> String {
        let line = list
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .unwrap_or_else(|| panic!("{name}: {list}"));
        line.split_whitespace().next().unwrap().to_string()
    };
    assert_eq!(shown("keepme"), "0b5e2c1a-2", "{list}");
    assert_eq!(shown("victim"), "0B5E2C1A-3", "{list}");
    // What the table shows forgets that volume and no other.
    plugctl(&s)
        .args(["volume", "forget", &shown("victim")])
        .succeeds()
        .stdout_has("\"victim\"");
    let left: Vec<String> = list_volumes(&s).iter().map(id_of).collect();
    assert_eq!(left, [keep]);
}

#[test]
fn events_out_of_order_are_refused_on_load() {
    let s = Rig::new();
    for n in ["a", "b"] {
        register(&s, "csi-node", n, "x", "/x");
    }
    // The journal edited: the second event says it is the first again.
    let (_, segment) = s.journal_segments().pop().unwrap();
    let text = fs::read_to_string(&segment).unwrap();
    fs::write(&segment, text.replace("{\"seq\":2,", "{\"seq\":1,")).unwrap();
    plugctl(&s)
        .args(["events"])
        .fails_with(Exit::Usage)
        .stderr_has("event seq 1 does not follow 1");
    // And a log put back into a schema 2 file is refused, not shown twice.
    edit(&s, |v| {
        v["events"] = serde_json::json!([{"seq": 1, "kind": "register", "type": "csi-node",
            "name": "a", "time": "t"}])
    });
    plugctl(&s)
        .args(["events"])
        .fails_with(Exit::Usage)
        .stderr_has("keeps its events in its journal");
}

/// Bytes that drive a terminal: ESC, BEL, CSI (C1, as UTF-8), and a CR not
/// followed by LF.
fn has_terminal_controls(bytes: &[u8]) -> bool {
    bytes.iter().any(|&b| b == 0x1b || b == 0x07 || b == 0x7f)
        || bytes.windows(2).any(|w| w == [0xc2, 0x9b])
        || bytes.windows(2).any(|w| w[0] == b'\r' && w[1] != b'\n')
        || bytes.last() == Some(&b'\r')
}

#[test]
fn plugin_text_never_drives_the_terminal() {
    let s = Rig::new();
    // An error that would clear the screen, set the window title, ring the
    // bell and overwrite its own line with a forged "healthy".
    let evil = r#"\u001b]0;pwned\u0007\u001b[2J\u009b31m\rhost-volume  good  1.0.0  healthy"#;
    s.plugin(
        "host-volume",
        "evil",
        &format!(
            r#"printf '\033[2Jstderr says \033]0;title\007 hi\r\n' >&2
printf '%s\n' '{{"error": "{evil}"}}'
exit 1"#
        ),
    );
    let runs: Vec<Vec<&str>> = vec![
        vec!["fingerprint"],
        vec!["-v", "fingerprint", "evil"],
        vec!["-v", "volume", "create", "--plugin", "evil", "--name", "x"],
        vec!["plugin", "list"],
        vec!["plugin", "show", "host-volume", "evil"],
        vec!["validate"],
    ];
    for args in runs {
        let out = plugctl(&s).args_from(&args).any_exit();
        assert!(
            !has_terminal_controls(&out.stdout),
            "{args:?} stdout: {:?}",
            stdout(&out)
        );
        assert!(
            !has_terminal_controls(&out.stderr),
            "{args:?} stderr: {:?}",
            stderr(&out)
        );
    }
    // Shown, escaped, so an operator can see what the plugin tried.
    plugctl(&s)
        .args(["fingerprint", "evil"])
        .any_exit()
        .stdout_has(r"\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m\rhost-volume");
    // --json keeps the exact string.
    let doc = plugctl(&s)
        .args(["--json", "fingerprint", "evil"])
        .any_exit()
        .json();
    let err = row(&doc, "host-volume", "evil")["error"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(err.contains("\u{1b}]0;pwned\u{7}"), "{err:?}");
}

#[test]
fn a_user_default_plugin_dir_is_never_the_current_directory() {
    let s = Rig::new();
    // A plugins/ directory where the command happens to start.
    let cwd = s.root().join("somewhere");
    make_dir(cwd.join("plugins/host-volume"));
    let marker = s.out_file("ran");
    let plugin = cwd.join("plugins/host-volume/planted");
    fs::write(
        &plugin,
        format!(
            "#!/bin/sh\ntouch '{}'\necho '{{\"version\": \"1.0.0\"}}'\n",
            marker.display()
        ),
    )
    .unwrap();
    fs::set_permissions(&plugin, fs::Permissions::from_mode(0o755)).unwrap();
    let home = s.root().join("home");
    make_dir(&home);
    // The user's own home (the trust gate refuses a registry below a
    // directory others can write), and a place the plugin could mark.
    if is_root() {
        nix::unistd::chown(&home, Some(65534.into()), Some(65534.into())).unwrap();
    }
    fs::set_permissions(&s.out, fs::Permissions::from_mode(0o777)).unwrap();
    if !is_root() {
        eprintln!("SKIPPED: needs root to run as another user");
        return;
    }
    let doc = plugctl_as_nobody(&s)
        .args(["--json", "fingerprint"])
        .env_remove("PLUGCTL_PLUGIN_DIR")
        .env_remove("PLUGCTL_REGISTRY")
        .env_remove("PLUGCTL_VOLUMES_DIR")
        .env("HOME", &home)
        .current_dir(&cwd)
        .succeeds()
        .json();
    assert_eq!(
        doc["plugin_dir"],
        home.join(".config/plugctl/plugins").to_str().unwrap(),
        "the absolute plugin dir is shown"
    );
    assert!(!marker.exists(), "a plugin in ./plugins ran");
}

#[test]
fn a_create_running_in_another_pid_namespace_is_seen_as_live() {
    if !is_root() {
        eprintln!("SKIPPED: needs root for a PID namespace (unshare --pid)");
        return;
    }
    let probe = Command::new("unshare")
        .args(["--pid", "--fork", "--mount-proc", "true"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        if std::env::var_os("CI").is_some() {
            panic!("unshare --pid does not work here, and CI must run this test");
        }
        eprintln!("SKIPPED: this machine cannot make a PID namespace");
        return;
    }
    let s = Rig::new();
    s.plugin(
        "host-volume",
        "hangs",
        &format!(
            r#"echo "$1" >> '{out}/calls'
case $1 in
create) [ -e '{out}/fast' ] || sleep 60; printf '{{"path": "%s/%s", "bytes": 0}}\n' "$DHV_VOLUMES_DIR" "$DHV_VOLUME_ID" ;;
esac"#,
            out = s.out.display()
        ),
    );
    let mut creator = plugctl(&s)
        .args(["volume", "create", "--plugin", "hangs", "--name", "v"])
        .start();
    let until = Instant::now() + Duration::from_secs(10);
    while s.read_out("calls").lines().count() < 1 {
        assert!(Instant::now() < until, "create never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    fs::write(s.out_file("fast"), "").unwrap();
    // From a PID namespace where the creator's pid means nothing.
    let repair = || {
        expect::Run::new(s.command("unshare"), "unshare").args([
            "--pid",
            "--fork",
            "--mount-proc",
            PLUGCTL,
            "volume",
            "repair",
        ])
    };
    let out = repair().any_exit();
    assert_eq!(
        s.read_out("calls").lines().count(),
        1,
        "repair re-ran a live create: {}",
        stdout(&out)
    );
    assert!(
        stdout(&out).contains("working on it") || stderr(&out).contains("working on it"),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    // Once the creator is gone (kill -9), repair settles it.
    creator.kill();
    creator.any_exit();
    repair().succeeds();
    let reg = s.registry_json();
    assert_eq!(
        reg["volumes"].as_object().unwrap().values().next().unwrap()["state"],
        "ready"
    );
}

#[test]
fn health_follows_the_disk() {
    let s = Rig::new();
    let a = s.hv_ok("a", "1.0.0");
    let b = s.hv_ok("b", "1.0.0");
    plugctl(&s).args(["fingerprint"]).succeeds();
    let healthy = |doc: &Value, n: &str| {
        doc["plugins"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == n)
            .unwrap()["healthy"]
            .clone()
    };
    let doc = plugctl(&s)
        .args(["--json", "plugin", "list", "--type", "host-volume"])
        .any_exit()
        .json();
    assert_eq!(healthy(&doc, "a"), true);

    // Changed behind plugctl's back, or deleted: not healthy any more,
    // before any new fingerprint, and `plugin wait --healthy` says so.
    s.file(
        "host-volume",
        "a",
        "#!/bin/sh\necho '{\"version\": \"6.6.6\"}'\n",
        0o755,
    );
    fs::remove_file(&b).unwrap();
    let doc = plugctl(&s)
        .args(["--json", "plugin", "list", "--type", "host-volume"])
        .any_exit()
        .json();
    assert_eq!(healthy(&doc, "a"), false, "{doc}");
    assert_eq!(healthy(&doc, "b"), false, "{doc}");
    let text = plugctl(&s)
        .args(["plugin", "list", "--type", "host-volume"])
        .any_exit()
        .stdout();
    assert!(
        text.contains("changed on disk since its fingerprint"),
        "{text}"
    );
    assert!(text.contains("deleted: "), "{text}");
    let doc = plugctl(&s)
        .args(["--json", "plugin", "show", "host-volume", "b"])
        .any_exit()
        .json();
    assert_eq!(doc["instances"][0]["healthy"], false, "{doc}");
    plugctl(&s)
        .args([
            "plugin",
            "wait",
            "host-volume",
            "b",
            "--healthy",
            "--timeout",
            "300ms",
        ])
        .fails_with(Exit::Timeout);

    // A fingerprint records what is gone, with an event, and says so:
    // the deleted plugin is a row, and fails the run.
    plugctl(&s)
        .args(["fingerprint"])
        .fails_with(Exit::Failure)
        .stdout_has("deleted: ")
        .stderr_has("1 of 5 plugins unhealthy: host-volume/b");
    let doc = plugctl(&s)
        .args(["--json", "plugin", "show", "host-volume", "b"])
        .any_exit()
        .json();
    assert_eq!(doc["instances"][0]["healthy"], false);
    assert!(
        doc["instances"][0]["error"]
            .as_str()
            .unwrap()
            .starts_with("deleted: "),
        "{doc}"
    );
    let events = plugctl(&s).args(["--json", "events"]).any_exit().stdout();
    let gone: Vec<&str> = events
        .lines()
        .filter(|l| l.contains("\"kind\":\"gone\""))
        .collect();
    assert_eq!(gone.len(), 1, "{events}");
    assert!(gone[0].contains("\"name\":\"b\""), "{events}");
    // Again: no second event for the same disappearance.
    plugctl(&s).args(["fingerprint"]).fails_with(Exit::Failure);
    let events = plugctl(&s).args(["--json", "events"]).any_exit().stdout();
    assert_eq!(
        events
            .lines()
            .filter(|l| l.contains("\"kind\":\"gone\""))
            .count(),
        1
    );
    // a, refingerprinted, is healthy with its new version.
    let doc = plugctl(&s)
        .args(["--json", "plugin", "list", "--type", "host-volume"])
        .any_exit()
        .json();
    assert_eq!(healthy(&doc, "a"), true);
    let _ = a;
}

#[test]
fn small_defects_of_the_trust_boundary_list() {
    let s = Rig::new();
    s.hv_ok("a", "1.0.0");
    // An environment variable's bad value names the variable.
    plugctl(&s)
        .env("PLUGCTL_CONCURRENCY", "abc")
        .arg("fingerprint")
        .fails_with(Exit::Usage)
        .stderr_has("PLUGCTL_CONCURRENCY (--concurrency)");
    plugctl(&s)
        .args(["--concurrency", "abc", "fingerprint"])
        .any_exit()
        .stderr_has("'--concurrency <N>'");
    // Sizes are never rounded silently.
    for size in ["1e-3", "1.5", "0.4B"] {
        plugctl(&s)
            .args([
                "volume",
                "create",
                "--plugin",
                "mkdir",
                "--name",
                "v",
                "--capacity-max",
                size,
            ])
            .fails_with(Exit::Usage);
    }
    assert!(!s.registry.exists() || s.registry_json()["volumes"].as_object().unwrap().is_empty());
    // init refuses Nomad's .exe trap in secrets/.
    plugctl(&s)
        .args(["init", "secrets", "x.exe"])
        .fails_with(Exit::Usage)
        .stderr_has(".exe");
    assert!(!s.plugins.join("secrets/x.exe").exists());
    // --env keys must be variable names.
    s.secrets_ok("sp");
    plugctl(&s)
        .args(["secret", "fetch", "sp", "p", "--env", "A B=x"])
        .fails_with(Exit::Usage)
        .stderr_has("not an environment variable name");
    // --grace 0s: the message says what happened.
    s.plugin("host-volume", "hang", "sleep 30");
    let doc = plugctl(&s)
        .args([
            "--json",
            "fingerprint",
            "hang",
            "--timeout",
            "300ms",
            "--grace",
            "0s",
        ])
        .any_exit()
        .json();
    let err = row(&doc, "host-volume", "hang")["error"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        err.contains("grace 0s: process group killed with SIGKILL at once, no SIGTERM"),
        "{err}"
    );
    assert!(!err.contains("ignored SIGTERM"), "{err}");
}

#[test]
fn restore_duration_is_the_plugins_time_not_the_queue() {
    let s = Rig::new();
    s.plugin(
        "host-volume",
        "nap",
        r#"case $1 in create) sleep 0.4; printf '{"path": "%s/%s", "bytes": 0}\n' "$DHV_VOLUMES_DIR" "$DHV_VOLUME_ID" ;; esac"#,
    );
    for n in ["a", "b", "c"] {
        plugctl(&s)
            .args(["volume", "create", "--plugin", "nap", "--name", n])
            .succeeds();
    }
    // One at a time: the last waits 0.8 s for its turn, runs 0.4 s.
    let doc = plugctl(&s)
        .args(["--json", "--concurrency", "1", "volume", "restore"])
        .succeeds()
        .json();
    let steps = doc["results"].as_array().unwrap_or_else(|| panic!("{doc}"));
    assert_eq!(steps.len(), 3);
    for st in steps {
        let ms = st["duration_ms"].as_u64().unwrap_or_else(|| panic!("{st}"));
        assert!((300..750).contains(&ms), "queueing counted: {st}");
    }
}

//! plugctl attacked as a local user who can write some directory root's
//! plugctl reads (issue: every input is untrusted). Each test is one class
//! of attack, through the real binary; where the attack needs another user,
//! it is [`intruder`], made by the test (CI runs as root).
//!
//! docs/security.md lists each guarantee with the test here that holds it.

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::*;

/// A host-volume plugin that leaves `out/<name>.ran` behind whenever it
/// runs, and makes a directory per volume.
fn marked_plugin(s: &Rig, name: &str) -> PathBuf {
    let marker = s.out_file(&format!("{name}.ran"));
    s.plugin(
        "host-volume",
        name,
        &format!(
            r#"touch '{marker}'
case $1 in
fingerprint) echo '{{"version": "1.0.0"}}' ;;
create) mkdir -p "$DHV_VOLUMES_DIR/$DHV_VOLUME_ID" && printf '{{"path": "%s/%s", "bytes": 0}}\n' "$DHV_VOLUMES_DIR" "$DHV_VOLUME_ID" ;;
delete) rm -rf "$DHV_CREATED_PATH" ;;
esac"#,
            marker = marker.display()
        ),
    );
    marker
}

/// A fingerprint of `hv` recorded into `<root>/cases`: that directory, and
/// the one case file in it.
fn recorded_fingerprint(s: &Rig) -> (PathBuf, PathBuf) {
    let cases = s.root().join("cases");
    let c = cases.to_str().unwrap();
    plugctl(s)
        .args(["--record", c, "fingerprint", "--type", "host-volume", "hv"])
        .succeeds();
    let case = case_files(&cases).remove(0);
    (cases, case)
}

fn case_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    v.sort();
    v
}

fn read_case(p: &Path) -> Value {
    serde_json::from_slice(&fs::read(p).unwrap()).unwrap()
}

/// Rewrites a case file as another user (or a hand) might have.
fn edit_case(p: &Path, f: impl FnOnce(&mut Value)) {
    let mut v = read_case(p);
    f(&mut v);
    fs::write(p, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    fs::set_permissions(p, fs::Permissions::from_mode(0o600)).unwrap();
}

fn push_env(v: &mut Value, kv: &str) {
    v["env"].as_array_mut().unwrap().push(Value::from(kv));
}

fn set_env(v: &mut Value, key: &str, value: &str) {
    for e in v["env"].as_array_mut().unwrap() {
        if e.as_str().unwrap().starts_with(&format!("{key}=")) {
            *e = Value::from(format!("{key}={value}"));
        }
    }
}

#[test]
fn a_case_file_chooses_no_environment_no_deadline_and_nothing_runs() {
    let s = Rig::new();
    let marker = marked_plugin(&s, "hv");
    let (cases, case) = recorded_fingerprint(&s);
    let c = cases.to_str().unwrap();
    let pristine = fs::read(&case).unwrap();
    type Edit = fn(&mut Value);
    let attacks: [(&str, Edit, &str); 5] = [
        (
            "LD_PRELOAD and BASH_ENV",
            |v| {
                push_env(v, "LD_PRELOAD=/tmp/evil.so");
                push_env(v, "BASH_ENV=/tmp/evil.sh");
            },
            "the case sets BASH_ENV, which the protocol does not give",
        ),
        (
            "PATH",
            |v| push_env(v, "PATH=/tmp/evil"),
            "the case sets PATH",
        ),
        (
            "a variable twice",
            |v| push_env(v, "DHV_OPERATION=fingerprint"),
            "sets DHV_OPERATION twice",
        ),
        (
            "an endless deadline",
            |v| v["timeout_ms"] = Value::from(1_000_000_000_000u64),
            "gives this call at most 5s",
        ),
        (
            "an endless grace",
            |v| v["grace_ms"] = Value::from(1_000_000_000u64),
            "replay allows at most 30s",
        ),
    ];
    for (what, edit, needle) in attacks {
        fs::write(&case, &pristine).unwrap();
        edit_case(&case, edit);
        let _ = fs::remove_file(&marker);
        let out = plugctl(&s)
            .args(["replay", c])
            .fails_with(Exit::Failure)
            .stdout_has(needle)
            .stdout_has("nothing was run");
        assert!(!marker.exists(), "{what}: the plugin ran\n{}", out.stdout());
    }
    // The case as recorded replays clean: the refusals are the edits'.
    fs::write(&case, &pristine).unwrap();
    plugctl(&s).args(["replay", c]).succeeds();
    assert!(marker.exists());
}

#[test]
fn a_replayed_delete_only_ever_touches_its_own_scratch_directory() {
    let s = Rig::new();
    marked_plugin(&s, "hv");
    let cases = s.root().join("cases");
    let c = cases.to_str().unwrap();
    plugctl(&s)
        .args([
            "--record", c, "volume", "create", "--plugin", "hv", "--name", "gone",
        ])
        .succeeds();
    plugctl(&s)
        .args(["--record", c, "volume", "delete", "--name", "gone"])
        .succeeds();
    let keep = create_volume(&s, &["--plugin", "hv", "--name", "keep"])["path"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(Path::new(&keep).is_dir());
    let delete = case_files(&cases)
        .into_iter()
        .find(|p| p.to_string_lossy().ends_with("-delete.json"))
        .unwrap();
    let pristine = fs::read(&delete).unwrap();
    let volumes = s.volumes.to_str().unwrap().to_string();
    // The volumes directory claimed to be `/`: the path is not moved.
    edit_case(&delete, |v| {
        set_env(v, "DHV_VOLUMES_DIR", "/");
        set_env(v, "DHV_CREATED_PATH", &keep);
    });
    plugctl(&s)
        .args(["replay", c])
        .fails_with(Exit::Failure)
        .stdout_has("is not a plain absolute directory below /");
    // A second DHV_VOLUMES_DIR that would win over the scratch one.
    fs::write(&delete, &pristine).unwrap();
    edit_case(&delete, |v| {
        push_env(v, &format!("DHV_VOLUMES_DIR={volumes}"));
        set_env(v, "DHV_CREATED_PATH", &keep);
    });
    plugctl(&s)
        .args(["replay", c])
        .fails_with(Exit::Failure)
        .stdout_has("sets DHV_VOLUMES_DIR twice");
    // A created path outside the recorded directory.
    fs::write(&delete, &pristine).unwrap();
    edit_case(&delete, |v| set_env(v, "DHV_CREATED_PATH", "/etc"));
    plugctl(&s)
        .args(["replay", c])
        .fails_with(Exit::Failure)
        .stdout_has("is not inside its volumes directory");
    // The real volume's own path, inside the recorded directory: moved to
    // the scratch one, where the delete finds nothing of ours.
    fs::write(&delete, &pristine).unwrap();
    edit_case(&delete, |v| set_env(v, "DHV_CREATED_PATH", &keep));
    plugctl(&s).args(["replay", c]).any_exit();
    assert!(Path::new(&keep).is_dir(), "a replay deleted a real volume");
}

#[test]
fn a_case_type_or_name_out_of_the_name_rules_is_refused_and_shown_escaped() {
    let s = Rig::new();
    marked_plugin(&s, "hv");
    let (cases, case) = recorded_fingerprint(&s);
    let c = cases.to_str().unwrap();
    edit_case(&case, |v| {
        v["type"] = Value::from("../../../../usr/bin");
        v["name"] = Value::from("env");
    });
    // A file name with an escape sequence and a bell.
    let hostile = cases.join("0002-\u{1b}[31mred\u{7}.json");
    fs::rename(&case, &hostile).unwrap();
    let out = plugctl(&s)
        .args(["replay", c])
        .fails_with(Exit::Failure)
        .stdout_has("its type breaks the name rules")
        .stdout_has("\\u{1b}[31mred\\u{7}");
    assert!(
        !out.stdout.iter().any(|b| *b == 0x1b || *b == 0x07),
        "a raw control byte reached the terminal"
    );
}

#[test]
fn a_case_directory_or_file_another_user_controls_is_refused() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let marker = marked_plugin(&s, "hv");
    let (cases, case) = recorded_fingerprint(&s);
    let c = cases.to_str().unwrap();
    fs::remove_file(&marker).unwrap();
    // Their directory: any case in it could be theirs.
    intruder.own(&cases);
    plugctl(&s)
        .args(["replay", c])
        .fails_with(Exit::Usage)
        .stderr_has(&format!("belongs to uid {}", intruder.uid));
    nix::unistd::chown(&cases, Some(0.into()), Some(0.into())).unwrap();
    // Their file in our directory.
    intruder.own(&case);
    plugctl(&s)
        .args(["replay", c])
        .fails_with(Exit::Failure)
        .stdout_has(&format!("belongs to uid {}", intruder.uid));
    // A symlink to a case: named for what it is, not "os error 40".
    nix::unistd::chown(&case, Some(0.into()), Some(0.into())).unwrap();
    let elsewhere = s.root().join("elsewhere.json");
    fs::rename(&case, &elsewhere).unwrap();
    symlink(&elsewhere, &case).unwrap();
    plugctl(&s)
        .args(["replay", c])
        .fails_with(Exit::Failure)
        .stdout_has("is a symbolic link, which replay never follows")
        .stdout_lacks("os error 40");
    assert!(!marker.exists(), "a refused case ran its plugin");
}

#[test]
fn an_owners_directory_planted_by_another_user_is_never_used() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    marked_plugin(&s, "hv");
    let shared = sticky_dir(&s, "shared");
    let registry = shared.join("registry.json");
    // What a symlinked owners directory would have root delete.
    let victim = s.root().join("victim");
    make_dir(&victim);
    fs::write(victim.join("precious"), "keep").unwrap();
    let owners = shared.join("registry.json.owners");
    intruder.sh(
        &s,
        &format!("ln -s '{}' '{}'", victim.display(), owners.display()),
    );
    for args in [
        &["volume", "repair"][..],
        &["volume", "create", "--plugin", "hv", "--name", "v"][..],
    ] {
        plugctl(&s)
            .env("PLUGCTL_REGISTRY", &registry)
            .args_from(args)
            .fails_with(Exit::Usage)
            .stderr_has("owners directory");
    }
    assert_eq!(fs::read_to_string(victim.join("precious")).unwrap(), "keep");
    // Their own directory in its place: its locks are theirs to delete.
    fs::remove_file(&owners).unwrap();
    intruder.sh(&s, &format!("mkdir -m 700 '{}'", owners.display()));
    plugctl(&s)
        .env("PLUGCTL_REGISTRY", &registry)
        .args(["volume", "create", "--plugin", "hv", "--name", "v"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!("belongs to uid {}", intruder.uid));
    plugctl(&s)
        .env("PLUGCTL_REGISTRY", &registry)
        .args(["--json", "volume", "list"])
        .succeeds()
        .stdout_lacks("\"v\"");
}

#[test]
fn a_lock_file_planted_by_another_user_is_refused_naming_them() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let shared = sticky_dir(&s, "shared");
    let registry = shared.join("registry.json");
    let lock = shared.join("registry.json.lock");
    intruder.sh(
        &s,
        &format!(
            "touch '{}' && chmod 600 '{}'",
            lock.display(),
            lock.display()
        ),
    );
    plugctl(&s)
        .env("PLUGCTL_REGISTRY", &registry)
        .args(["fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has("lock file is not plugctl's")
        .stderr_has(&format!("belongs to uid {}", intruder.uid))
        .stderr_lacks("another plugctl");
    assert!(!registry.exists(), "nothing is written past a refused lock");
}

/// plugctl with these arguments (shell words), in a mount namespace of its
/// own where `dir` is bind-mounted at `at`.
fn with_bind_mount(s: &Rig, dir: &Path, at: &Path, args: &str) -> Option<expect::Run> {
    let script = format!(
        "mount --bind '{}' '{}' && \"$PLUGCTL\" {args}",
        dir.display(),
        at.display()
    );
    in_mount_namespace(s, &script)
}

#[test]
fn pruning_never_crosses_a_bind_mount_of_the_same_file_system() {
    if !nix::unistd::geteuid().is_root() {
        skip_unless_ci("needs root to bind-mount");
        return;
    }
    let s = Rig::new();
    let outside = s.root().join("outside");
    make_dir(&outside);
    fs::write(outside.join("precious"), "keep").unwrap();
    let orphan = leftover(&s);
    make_dir(orphan.join("mnt"));
    fs::write(orphan.join("junk"), "x").unwrap();
    let Some(audit) = with_bind_mount(
        &s,
        &outside,
        &orphan.join("mnt"),
        "--json volume audit --prune-orphans --yes",
    ) else {
        return;
    };
    let doc = audit.fails_with(Exit::Failure).json();
    let o = &doc["orphans"][0];
    assert_eq!(o["pruned"], false, "{doc}");
    assert!(
        o["not_pruned"].as_str().unwrap().contains("mount point"),
        "{doc}"
    );
    assert_eq!(
        fs::read_to_string(outside.join("precious")).unwrap(),
        "keep"
    );
    // Checked whole before the first unlink: nothing of the orphan went.
    assert!(orphan.join("junk").exists());
}

#[test]
fn pruning_keeps_what_a_volume_owns_however_the_directory_is_spelled() {
    let s = Rig::new();
    marked_plugin(&s, "hv");
    let live = create_volume(&s, &["--plugin", "hv", "--name", "live"]);
    let id = live["id"].as_str().unwrap();
    // Nomad's example-plugin-mkfs keeps an image beside the mount point.
    let image = s.volumes.join(format!("{id}.ext4"));
    fs::write(&image, "fs").unwrap();
    let orphan = leftover(&s);
    // The volumes directory through a symlink, and through `..`.
    let link = s.root().join("vols-link");
    symlink(&s.volumes, &link).unwrap();
    let dotted = s.root().join("out/../volumes");
    for spelling in [&link, &dotted] {
        plugctl(&s)
            .env("PLUGCTL_VOLUMES_DIR", spelling)
            .args(["volume", "audit", "--prune-orphans", "--yes"])
            .succeeds();
        assert!(
            Path::new(live["path"].as_str().unwrap()).is_dir(),
            "{spelling:?}"
        );
        assert!(image.exists(), "{spelling:?}: <id>.ext4 was pruned");
    }
    assert!(!orphan.exists(), "the real orphan went");
}

#[test]
fn pruning_refuses_a_volumes_directory_another_user_controls() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let theirs = s.root().join("theirs");
    make_dir(&theirs);
    intruder.own(&theirs);
    let volumes = theirs.join("volumes");
    make_dir(&volumes);
    // What they would point the volumes directory at.
    let target = s.root().join("etc-like");
    make_dir(&target);
    fs::write(target.join("passwd"), "root:x:0:0").unwrap();
    fs::remove_dir(&volumes).unwrap();
    intruder.sh(
        &s,
        &format!("ln -s '{}' '{}'", target.display(), volumes.display()),
    );
    plugctl(&s)
        .env("PLUGCTL_VOLUMES_DIR", &volumes)
        .args(["volume", "audit", "--prune-orphans", "--yes"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!("belongs to uid {}", intruder.uid));
    assert!(target.join("passwd").exists());
}

#[test]
fn records_made_under_another_volumes_directory_refuse_the_prune() {
    let s = Rig::new();
    marked_plugin(&s, "hv");
    plugctl(&s)
        .args(["volume", "create", "--plugin", "hv", "--name", "a"])
        .succeeds();
    let other = s.root().join("other-volumes");
    make_dir(other.join("stray"));
    plugctl(&s)
        .env("PLUGCTL_VOLUMES_DIR", &other)
        .args(["volume", "audit", "--prune-orphans", "--yes"])
        .fails_with(Exit::Usage)
        .stderr_has("were created under");
    assert!(other.join("stray").exists());
}

#[test]
fn an_interpreter_another_user_owns_never_runs() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let bin = s.root().join("bin");
    make_dir(&bin);
    let theirs = bin.join("their-sh");
    fs::copy("/bin/sh", &theirs).unwrap();
    intruder.own(&theirs);
    let marker = s.out_file("ran");
    let body = format!(
        "touch '{}'\necho '{{\"version\": \"1.0.0\"}}'\n",
        marker.display()
    );
    s.file(
        "host-volume",
        "direct",
        &format!("#!{}\n{body}", theirs.display()),
        0o755,
    );
    s.file(
        "host-volume",
        "via-env",
        &format!("#!/usr/bin/env {}\n{body}", theirs.display()),
        0o755,
    );
    let doc = plugctl(&s)
        .args(["--json", "fingerprint", "--type", "host-volume"])
        .fails_with(Exit::Failure)
        .json();
    for name in ["direct", "via-env"] {
        let r = row(&doc, "host-volume", name);
        assert_eq!(r["healthy"], false);
        let e = r["error"].as_str().unwrap();
        assert!(
            e.contains("interpreter") && e.contains(&format!("belongs to uid {}", intruder.uid)),
            "{e}"
        );
    }
    assert!(!marker.exists(), "an untrusted interpreter ran as root");
    let v = plugctl(&s)
        .args(["--json", "validate"])
        .fails_with(Exit::Failure)
        .json();
    let trusted: Vec<&Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["check"] == "permissions.trusted")
        .collect();
    assert_eq!(trusted.len(), 2, "{v}");
    assert!(trusted.iter().all(|f| f["severity"] == "error"));
}

#[test]
fn under_locked_the_pinned_interpreter_is_what_runs_whatever_is_swapped_in() {
    for sh in ["/bin/dash", "/bin/bash"] {
        if !Path::new(sh).exists() {
            skip_unless_ci(&format!("needs {sh}"));
            return;
        }
    }
    let s = Rig::new();
    let bin = s.root().join("bin");
    make_dir(&bin);
    let interp = bin.join("interp");
    let (dash, bash) = (bin.join("dash"), bin.join("bash"));
    fs::copy("/bin/dash", &dash).unwrap();
    fs::copy("/bin/bash", &bash).unwrap();
    fs::copy(&dash, &interp).unwrap();
    let marker = s.out_file("bash-ran");
    s.file(
        "host-volume",
        "p",
        &format!(
            "#!{}\n[ -n \"$BASH_VERSION\" ] && touch '{}'\necho '{{\"version\": \"1.0.0\"}}'\n",
            interp.display(),
            marker.display()
        ),
        0o755,
    );
    plugctl(&s).args(["pin"]).succeeds();
    let lock: Value =
        serde_json::from_slice(&fs::read(s.plugins.join("plugctl.lock")).unwrap()).unwrap();
    let pinned = &lock["plugins"][0]["interpreter"];
    assert_eq!(pinned["path"], interp.to_str().unwrap());
    assert!(
        pinned["sha256"].is_string() && pinned["resolved"].is_string(),
        "{lock}"
    );
    // Swap bash in and dash back, by rename, as fast as it goes, while
    // --locked runs the plugin again and again.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let swapper = {
        let stop = stop.clone();
        let (interp, dash, bash, bin) = (interp.clone(), dash.clone(), bash.clone(), bin.clone());
        std::thread::spawn(move || {
            let mut n = 0u64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let from = if n.is_multiple_of(2) { &bash } else { &dash };
                let tmp = bin.join(format!("tmp{n}"));
                fs::copy(from, &tmp).unwrap();
                fs::rename(&tmp, &interp).unwrap();
                n += 1;
            }
        })
    };
    let until = Instant::now() + Duration::from_secs(6);
    let mut runs = 0;
    while Instant::now() < until && runs < 40 {
        plugctl(&s)
            .args(["--locked", "fingerprint", "p"])
            .any_exit();
        runs += 1;
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    swapper.join().unwrap();
    assert!(
        !marker.exists(),
        "bash ran under --locked though dash was pinned"
    );
}

#[test]
fn a_lock_file_another_user_owns_or_can_write_approves_nothing() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    s.hv_ok("p", "1.0.0");
    plugctl(&s).args(["pin"]).succeeds();
    let lock = s.plugins.join("plugctl.lock");
    intruder.own(&lock);
    plugctl(&s)
        .args(["--locked", "fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!("belongs to uid {}", intruder.uid));
    nix::unistd::chown(&lock, Some(0.into()), Some(0.into())).unwrap();
    fs::set_permissions(&lock, fs::Permissions::from_mode(0o666)).unwrap();
    plugctl(&s)
        .args(["--locked", "fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has("writable by");
    fs::set_permissions(&lock, fs::Permissions::from_mode(0o644)).unwrap();
    plugctl(&s).args(["--locked", "fingerprint"]).succeeds();
}

fn fetch_plugin(s: &Rig, value: &str) {
    s.plugin(
        "secrets",
        "kv",
        &format!(
            r#"case $1 in
fingerprint) echo '{{"type": "secrets", "version": "1.0.0"}}' ;;
fetch) printf '{{"result": {{"pw": "{value}"}}}}\n' ;;
esac"#
        ),
    );
}

#[test]
fn env_files_are_bounded_regular_and_trusted() {
    let s = Rig::new();
    fetch_plugin(&s, "x");
    let fifo = s.root().join("fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let big = s.root().join("big.env");
    fs::write(&big, "A=".to_string() + &"x".repeat(2 << 20)).unwrap();
    fs::set_permissions(&big, fs::Permissions::from_mode(0o600)).unwrap();
    for (file, needle) in [
        (Path::new("/dev/zero"), "a device"),
        (Path::new("/dev/urandom"), "a device"),
        (fifo.as_path(), "a FIFO"),
        (big.as_path(), "more than the 1048576 bytes"),
    ] {
        let start = Instant::now();
        plugctl(&s)
            .args(["secret", "fetch", "kv", "p", "--env-file"])
            .arg(file)
            .fails_with(Exit::Usage)
            .stderr_has(needle);
        assert!(start.elapsed() < Duration::from_secs(10), "{file:?}");
    }
    if let Some(intruder) = intruder() {
        let theirs = s.root().join("theirs.env");
        fs::write(&theirs, "A=1\n").unwrap();
        intruder.own(&theirs);
        plugctl(&s)
            .args(["secret", "fetch", "kv", "p", "--env-file"])
            .arg(&theirs)
            .fails_with(Exit::Usage)
            .stderr_has(&format!("belongs to uid {}", intruder.uid));
    }
}

#[test]
fn a_plugin_error_with_line_breaks_stays_one_line_on_stderr() {
    let s = Rig::new();
    s.plugin(
        "host-volume",
        "liar",
        r#"case $1 in
fingerprint) echo '{"version": "1.0.0"}' ;;
create) printf '{"error": "boom\\r\\nplugctl: error: forged line"}\n'; exit 1 ;;
esac"#,
    );
    let out = plugctl(&s)
        .args(["volume", "create", "--plugin", "liar", "--name", "v"])
        .fails_with(Exit::Failure)
        .stderr_has("boom\\r\\nplugctl: error: forged line");
    let err = out.stderr();
    assert!(!err.contains('\r'), "{err:?}");
    assert!(
        !err.lines().any(|l| l.starts_with("plugctl: error: forged")),
        "a plugin forged a line: {err:?}"
    );
}

#[test]
fn secret_values_are_exact_on_a_pipe_and_escaped_on_a_terminal() {
    let s = Rig::new();
    fetch_plugin(&s, "a\\u001b[31mb\\u0007c\\\\r\\\\nFORGED=1");
    // A line break can never make a KEY=VALUE line of its own: refused.
    plugctl(&s)
        .args(["secret", "fetch", "kv", "db"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_lacks("FORGED");
    let piped = plugctl(&s)
        .args(["secret", "fetch", "kv", "db", "--format", "env"])
        .succeeds();
    assert_eq!(piped.stdout, b"export pw='a\x1b[31mb\x07c\r\nFORGED=1'\n");
    let Some(on_a_terminal) = plugctl_on_a_terminal(&s, "secret fetch kv db --format env") else {
        return;
    };
    let tty = on_a_terminal.any_exit();
    let text = String::from_utf8_lossy(&tty.stdout);
    assert!(
        text.contains("\\u{1b}[31mb\\u{7}c\\r\\nFORGED=1"),
        "{text:?}"
    );
    assert!(
        !text.lines().any(|l| l.trim_start().starts_with("FORGED")),
        "a value forged a line: {text:?}"
    );
    assert!(!tty.stdout.contains(&0x1b), "raw ESC on a terminal");
    // A plain value with control characters: kv prints it as it is on a
    // pipe, escaped on a terminal.
    fetch_plugin(&s, "a\\u001b[31mb\\u0007c");
    let piped = plugctl(&s).args(["secret", "fetch", "kv", "db"]).succeeds();
    assert_eq!(piped.stdout, b"pw=a\x1b[31mb\x07c\n");
    let tty = plugctl_on_a_terminal(&s, "secret fetch kv db")
        .unwrap()
        .any_exit();
    let text = String::from_utf8_lossy(&tty.stdout);
    assert!(text.contains("pw=a\\u{1b}[31mb\\u{7}c"), "{text:?}");
    assert!(!tty.stdout.contains(&0x1b), "raw ESC on a terminal");
}

#[test]
fn recorded_fetches_keep_no_env_value_and_no_guessable_digest() {
    let s = Rig::new();
    fetch_plugin(&s, "hunter2");
    let cases = s.root().join("cases");
    let c = cases.to_str().unwrap();
    plugctl(&s)
        .args([
            "--record",
            c,
            "secret",
            "fetch",
            "kv",
            "db",
            "--env",
            "TOKEN=s3cr3t",
        ])
        .succeeds();
    let case = case_files(&cases).remove(0);
    let text = fs::read_to_string(&case).unwrap();
    // sha256("hunter2"), which any search engine turns back into hunter2.
    let well_known = "f52fbd32b2b3b86ff88ef6c490628285f482af15ddcb29541f94bcf526a3f6c7";
    assert!(
        !text.contains("s3cr3t") && !text.contains("hunter2"),
        "{text}"
    );
    assert!(!text.contains(well_known), "{text}");
    let v = read_case(&case);
    assert_eq!(v["env_redacted"], serde_json::json!(["TOKEN"]));
    assert!(
        v["redacted"]["result"]["pw"]
            .as_str()
            .unwrap()
            .starts_with("hmac-sha256:")
    );
    let key = fs::metadata(cases.join(".plugctl-record-key")).unwrap();
    assert_eq!(key.permissions().mode() & 0o777, 0o600);
    // Replay asks the operator for the value, never the case.
    plugctl(&s)
        .args(["replay", c])
        .fails_with(Exit::Failure)
        .stdout_has("replay --env TOKEN=");
    plugctl(&s)
        .args(["replay", c, "--env", "TOKEN=s3cr3t"])
        .succeeds();
    // A changed value is seen through its keyed digest.
    fetch_plugin(&s, "hunter3");
    plugctl(&s)
        .args(["replay", c, "--env", "TOKEN=s3cr3t"])
        .fails_with(Exit::Failure)
        .stdout_has("secret result differs in keys pw");
    // --record-env keeps the values, by choice.
    let kept = s.root().join("kept");
    plugctl(&s)
        .args([
            "--record",
            kept.to_str().unwrap(),
            "--record-env",
            "secret",
            "fetch",
            "kv",
            "db",
        ])
        .args(["--env", "TOKEN=s3cr3t"])
        .succeeds();
    let v = read_case(&case_files(&kept)[0]);
    assert!(v["env"].to_string().contains("TOKEN=s3cr3t"), "{v}");
}

#[test]
fn a_restore_owns_its_volumes_so_a_delete_meanwhile_is_refused() {
    let s = Rig::new();
    let started = s.out_file("started");
    let slow = s.out_file("slow");
    s.plugin(
        "host-volume",
        "slowish",
        &format!(
            r#"case $1 in
fingerprint) echo '{{"version": "1.0.0"}}' ;;
create) mkdir -p "$DHV_VOLUMES_DIR/$DHV_VOLUME_ID"
  if [ -e '{slow}' ]; then touch '{started}'; sleep 2; fi
  printf '{{"path": "%s/%s", "bytes": 0}}\n' "$DHV_VOLUMES_DIR" "$DHV_VOLUME_ID" ;;
delete) rm -rf "$DHV_CREATED_PATH" ;;
esac"#,
            slow = slow.display(),
            started = started.display()
        ),
    );
    let path = create_volume(&s, &["--plugin", "slowish", "--name", "v"])["path"]
        .as_str()
        .unwrap()
        .to_string();
    fs::write(&slow, "").unwrap();
    let restore = plugctl(&s).args(["volume", "restore"]).start();
    let until = Instant::now() + Duration::from_secs(10);
    while !started.exists() {
        assert!(Instant::now() < until, "the restore's create never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    plugctl(&s)
        .args(["volume", "delete", "--name", "v"])
        .fails_with(Exit::Usage)
        .stderr_has("is running its create right now");
    // Nor may its record be forgotten under it.
    plugctl(&s)
        .args(["volume", "forget", "--name", "v"])
        .fails_with(Exit::Usage)
        .stderr_has("cannot forget")
        .stderr_has("is running its create right now");
    restore.succeeds();
    fs::remove_file(&slow).unwrap();
    plugctl(&s)
        .args(["volume", "delete", "--name", "v"])
        .succeeds();
    assert!(!Path::new(&path).exists(), "left behind as an orphan");
}

#[test]
fn a_follower_survives_a_registry_and_journal_restored_from_a_copy() {
    let s = Rig::new();
    let reg = |name: &str, registry: &Path| {
        plugctl(&s)
            .env("PLUGCTL_REGISTRY", registry)
            .args(["plugin", "register", "--type", "csi-node", "--name", name])
            .args(["--alloc-id", "a1", "--socket", "/run/x.sock"])
            .succeeds();
    };
    reg("first", &s.registry);
    // A copy with a longer history, made elsewhere.
    let other = s.root().join("other/registry.json");
    for i in 0..5 {
        reg(&format!("copy{i}"), &other);
    }
    let mut follower = plugctl(&s).args(["--json", "events", "--follow"]).start();
    std::thread::sleep(Duration::from_millis(500));
    // Restored as a backup tool would: each file written anew and renamed.
    let state = s.registry.parent().unwrap();
    let journal = "registry.json.journal.00000001";
    for (from, to) in [
        (other.with_file_name(journal), state.join(journal)),
        (other.clone(), s.registry.clone()),
    ] {
        let tmp = to.with_extension("restoring");
        fs::copy(&from, &tmp).unwrap();
        fs::set_permissions(&tmp, fs::Permissions::from_mode(0o600)).unwrap();
        fs::rename(&tmp, &to).unwrap();
    }
    std::thread::sleep(Duration::from_millis(1500));
    let alive = follower.running();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(follower.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    // Stopped by the test: how it exits is not the point.
    let out = follower.any_exit();
    let err = out.stderr();
    assert!(alive, "the follower died: {err}");
    let names: Vec<String> = out
        .json_lines()
        .iter()
        .map(|e| e["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        names,
        ["first", "copy1", "copy2", "copy3", "copy4"],
        "{err}"
    );
    assert!(err.contains("journal was replaced"), "{err}");
}

#[test]
fn an_allocation_id_is_at_most_128_bytes() {
    let s = Rig::new();
    let long = "a".repeat(100_000);
    plugctl(&s)
        .args(["plugin", "register", "--type", "csi-node", "--name", "n"])
        .args(["--alloc-id", &long, "--socket", "/run/x.sock"])
        .fails_with(Exit::Usage)
        .stderr_has("is at most 128");
}

// What mutation testing showed nobody checked.

#[test]
fn an_audit_of_a_volumes_directory_that_cannot_be_read_is_no_clean_audit() {
    let s = Rig::new();
    let file = s.root().join("not-a-dir");
    fs::write(&file, "x").unwrap();
    plugctl(&s)
        .env("PLUGCTL_VOLUMES_DIR", &file)
        .args(["volume", "audit"])
        .fails_with(Exit::Usage)
        .stderr_has("cannot audit the volumes directory");
}

#[test]
fn the_audit_table_shows_what_each_volume_takes_on_disk() {
    let s = Rig::new();
    marked_plugin(&s, "hv");
    let v = create_volume(&s, &["--plugin", "hv", "--name", "v"]);
    let data = Path::new(v["path"].as_str().unwrap()).join("data");
    fs::write(&data, vec![7u8; 3 << 20]).unwrap();
    let doc = plugctl(&s)
        .args(["--json", "volume", "audit"])
        .succeeds()
        .json();
    let on_disk = doc["volumes"][0]["bytes_on_disk"].as_u64().unwrap();
    assert!(on_disk >= 3 << 20, "{doc}");
    // In binary units in the table (exact bytes in JSON), as `du -h`.
    let shown = plugctl::readable::size(on_disk);
    let table = plugctl(&s).args(["volume", "audit"]).succeeds().stdout();
    let row = table
        .lines()
        .find(|l| l.contains(&v["id"].as_str().unwrap()[..8]))
        .unwrap();
    assert!(shown.ends_with(" MiB"), "{shown}");
    assert!(
        row.contains(&format!("  {shown}  ")),
        "ON DISK is not {shown}: {table}"
    );
}

#[test]
fn a_recording_keeps_the_plugins_sha256_and_replay_notes_a_change() {
    let s = Rig::new();
    let plugin = s.hv_ok("p", "1.0.0");
    let cases = s.root().join("cases");
    let c = cases.to_str().unwrap();
    plugctl(&s)
        .args(["--record", c, "fingerprint", "--type", "host-volume", "p"])
        .succeeds();
    let v = read_case(&case_files(&cases)[0]);
    let (want, _) = plugctl_core::pin::hash_reader(fs::File::open(&plugin).unwrap()).unwrap();
    assert_eq!(v["plugin_sha256"], want.as_str());
    s.plugin(
        "host-volume",
        "p",
        r#"# changed
[ "$1" = fingerprint ] && echo '{"version": "1.0.0"}'"#,
    );
    plugctl(&s)
        .args(["replay", c])
        .succeeds()
        .stdout_has("the plugin file changed since the recording");
}

#[test]
fn replay_normalises_bare_duration_and_elapsed_keys() {
    let s = Rig::new();
    s.plugin(
        "host-volume",
        "timed",
        r#"[ "$1" = fingerprint ] && echo "{\"version\": \"1.0.0\", \"duration\": $$, \"elapsed\": $$}""#,
    );
    let cases = s.root().join("cases");
    let c = cases.to_str().unwrap();
    plugctl(&s)
        .args([
            "--record",
            c,
            "fingerprint",
            "--type",
            "host-volume",
            "timed",
        ])
        .succeeds();
    // Another pid, other numbers: still the same answer.
    plugctl(&s).args(["replay", c]).succeeds();
}

#[test]
fn a_registry_path_through_a_symlink_loop_is_named_as_a_loop() {
    let s = Rig::new();
    let looped = s.root().join("loop");
    symlink(&looped, &looped).unwrap();
    plugctl(&s)
        .env("PLUGCTL_REGISTRY", looped.join("registry.json"))
        .args(["volume", "list"])
        .fails_with(Exit::Usage)
        .stderr_has("a loop of symbolic links")
        .stderr_lacks("is a symbolic link,");
}

#[test]
fn the_built_in_mkdir_stays_inside_a_trusted_volumes_directory() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    // Its delete never crosses into a mount inside the volume.
    let outside = s.root().join("outside");
    make_dir(&outside);
    fs::write(outside.join("precious"), "keep").unwrap();
    let v = create_volume(&s, &["--plugin", "mkdir", "--name", "m"]);
    let path = PathBuf::from(v["path"].as_str().unwrap());
    make_dir(path.join("mnt"));
    let Some(delete) = with_bind_mount(&s, &outside, &path.join("mnt"), "volume delete --name m")
    else {
        return;
    };
    delete.fails_with(Exit::Failure).stderr_has("mount point");
    assert_eq!(
        fs::read_to_string(outside.join("precious")).unwrap(),
        "keep"
    );
    // Its create refuses a volumes directory below another user's.
    let theirs = s.root().join("theirs");
    make_dir(&theirs);
    intruder.own(&theirs);
    plugctl(&s)
        .env("PLUGCTL_VOLUMES_DIR", theirs.join("volumes"))
        .args(["volume", "create", "--plugin", "mkdir", "--name", "n"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!("belongs to uid {}", intruder.uid));
    assert!(!theirs.join("volumes").exists());
}

#[test]
fn an_agent_configuration_another_user_controls_is_refused() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    // What their configuration would have a prune empty.
    let victim = s.root().join("victim");
    make_dir(victim.join("sub"));
    fs::write(victim.join("important"), "precious").unwrap();
    let conf = s.root().join("conf");
    make_dir(&conf);
    intruder.own(&conf);
    intruder.sh(
        &s,
        &format!(
            "printf 'data_dir = \"{}/data\"\\nclient {{\\n  host_volumes_dir = \"{}\"\\n}}\\n' > '{}/evil.hcl'",
            s.root().display(),
            victim.display(),
            conf.display()
        ),
    );
    plugctl(&s)
        .env("PLUGCTL_NOMAD_CONFIG", &conf)
        .env_remove("PLUGCTL_VOLUMES_DIR")
        .args(["volume", "audit", "--prune-orphans", "--yes"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!("belongs to uid {}", intruder.uid));
    assert!(victim.join("important").exists() && victim.join("sub").exists());
    // A FIFO where a configuration file goes is refused at once, not read.
    let ours = s.root().join("ours");
    make_dir(&ours);
    nix::unistd::mkfifo(&ours.join("a.hcl"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    let start = Instant::now();
    plugctl(&s)
        .env("PLUGCTL_NOMAD_CONFIG", &ours)
        .args(["plugin", "list"])
        .fails_with(Exit::Usage)
        .stderr_has("a FIFO");
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn what_a_script_really_runs_is_judged_through_env_s_nested_lines_and_cr() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let marker = s.out_file("pwned");
    fs::set_permissions(&s.out, fs::Permissions::from_mode(0o777)).unwrap();
    // The intruder's payload, in a directory of theirs.
    let mal = s.root().join("mal");
    make_dir(&mal);
    intruder.own(&mal);
    let payload = mal.join("payload");
    let body = format!(
        "#!/bin/sh\ntouch '{}'\necho '{{\"version\": \"1.0.0\"}}'\n",
        marker.display()
    );
    intruder.sh(
        &s,
        &format!(
            "printf '%s' '{body}' > '{p}' && chmod 755 '{p}'",
            p = payload.display()
        ),
    );
    // A root-owned wrapper script whose own #! names the payload.
    let tools = s.root().join("tools");
    make_dir(&tools);
    let wrapper = tools.join("wrapper");
    fs::write(&wrapper, format!("#!{}\n", payload.display())).unwrap();
    fs::set_permissions(&wrapper, fs::Permissions::from_mode(0o755)).unwrap();
    // A sticky directory where the intruder plants `interp\r`.
    let sticky = sticky_dir(&s, "sticky");
    let cr = sticky.join("interp\r");
    intruder.sh(
        &s,
        &format!(
            "cp '{}' \"$(printf '{}\\r')\"",
            payload.display(),
            sticky.join("interp").display()
        ),
    );
    assert!(cr.exists());
    let script = |first: String| format!("{first}\necho '{{\"version\": \"1.0.0\"}}'\n");
    s.file(
        "host-volume",
        "env-s",
        &script(format!("#!/usr/bin/env -S {}", payload.display())),
        0o755,
    );
    s.file(
        "host-volume",
        "nested",
        &script(format!("#!{}", wrapper.display())),
        0o755,
    );
    s.file(
        "host-volume",
        "crlf",
        &format!(
            "#!{}\r\necho '{{\"version\": \"1.0.0\"}}'\n",
            sticky.join("interp").display()
        ),
        0o755,
    );
    let doc = plugctl(&s)
        .args(["--json", "fingerprint", "--type", "host-volume"])
        .fails_with(Exit::Failure)
        .json();
    for name in ["env-s", "nested", "crlf"] {
        let r = row(&doc, "host-volume", name);
        assert_eq!(r["healthy"], false, "{name}: {r}");
    }
    assert!(!marker.exists(), "the intruder's payload ran as root");
    plugctl(&s)
        .args(["--json", "validate"])
        .fails_with(Exit::Failure)
        .stdout_has("permissions.trusted");
    // --locked pins what env -S runs, not only env.
    plugctl(&s)
        .args(["--allow-insecure-paths", "pin"])
        .succeeds();
    let lock = fs::read_to_string(s.plugins.join("plugctl.lock")).unwrap();
    assert!(
        lock.contains(&format!("\"path\": \"{}\"", payload.display())),
        "{lock}"
    );
}

#[test]
fn an_interpreter_missing_at_the_check_never_runs_when_it_appears() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let marker = s.out_file("pwned");
    fs::set_permissions(&s.out, fs::Permissions::from_mode(0o777)).unwrap();
    let sticky = sticky_dir(&s, "sticky");
    let later = sticky.join("later");
    let body = |_: &str| {
        format!(
            "#!{}/interp\necho '{{\"version\": \"1.0.0\"}}'\n",
            later.display()
        )
    };
    s.file("host-volume", "a-missing", &body("a"), 0o755);
    s.plugin(
        "host-volume",
        "b-slow",
        r#"sleep 1; echo '{"version": "1.0.0"}'"#,
    );
    s.file("host-volume", "c-missing", &body("c"), 0o755);
    // Half a second in, the intruder makes the interpreter appear.
    let plant = intruder
        .command(&s, "/bin/sh")
        .args([
            "-c",
            &format!(
                "sleep 0.5; mkdir '{l}' && printf '#!/bin/sh\\ntouch {m}\\necho {{}}\\n' > '{l}/interp' && chmod 755 '{l}/interp'",
                l = later.display(),
                m = marker.display()
            ),
        ])
        .spawn()
        .unwrap();
    let doc = plugctl(&s)
        .args([
            "--json",
            "--concurrency",
            "1",
            "fingerprint",
            "--type",
            "host-volume",
        ])
        .fails_with(Exit::Failure)
        .json();
    let mut plant = plant;
    plant.wait().unwrap();
    for name in ["a-missing", "c-missing"] {
        assert_eq!(row(&doc, "host-volume", name)["healthy"], false, "{name}");
    }
    assert!(
        !marker.exists(),
        "an interpreter that appeared later ran as root"
    );
    // A later run finds it there, and another user's.
    plugctl(&s)
        .args(["fingerprint", "a-missing"])
        .fails_with(Exit::Failure)
        .stdout_has(&format!("belongs to uid {}", intruder.uid));
    assert!(!marker.exists());
}

#[test]
fn a_fetch_case_never_shows_a_secret_and_a_shared_case_dir_is_refused() {
    let s = Rig::new();
    s.plugin(
        "secrets",
        "vaultish",
        r#"case $1 in
fingerprint) echo '{"type": "secrets", "version": "1.0.0"}' ;;
fetch) if [ "$2" = prod/db ]; then echo '{"result": {"PASSWORD": "TopSecret-prod-db"}}'; else echo '{"result": {}}'; fi ;;
esac"#,
    );
    let cases = s.root().join("cases");
    let c = cases.to_str().unwrap();
    plugctl(&s)
        .args(["--record", c, "secret", "fetch", "vaultish", "public/x"])
        .succeeds();
    // Hand-edited: another path, stdout in clear, no digests.
    let case = case_files(&cases).remove(0);
    edit_case(&case, |v| {
        v["args"] = serde_json::json!(["fetch", "prod/db"]);
        v["stdout"] = Value::from("{}");
        v.as_object_mut().unwrap().remove("redacted");
    });
    for format in ["human", "json", "junit"] {
        plugctl(&s)
            .args(["replay", c, "--format", format])
            .fails_with(Exit::Failure)
            .stdout_lacks("TopSecret")
            .stdout_has("not as plugctl records a fetch");
    }
    // A case directory others may add files to, sticky or not.
    fs::set_permissions(&cases, fs::Permissions::from_mode(0o1777)).unwrap();
    plugctl(&s)
        .args(["replay", c])
        .fails_with(Exit::Usage)
        .stderr_has("refusing a case directory that group and others can write");
    // A planted file name with a huge number does not break recording.
    fs::set_permissions(&cases, fs::Permissions::from_mode(0o700)).unwrap();
    fs::write(cases.join("18446744073709551615-x.json"), "{}").unwrap();
    plugctl(&s)
        .args(["--record", c, "fingerprint", "--type", "secrets"])
        .succeeds();
}

#[test]
fn audit_counts_a_symlinked_orphan_as_the_link_not_what_it_points_to() {
    let s = Rig::new();
    // A leftover of plugctl's whose name is now a link, and a foreign one.
    let orphan = leftover(&s);
    fs::remove_dir(&orphan).unwrap();
    symlink("/usr", &orphan).unwrap();
    symlink("/usr", s.volumes.join("stray")).unwrap();
    let start = Instant::now();
    let doc = plugctl(&s)
        .args(["--json", "volume", "audit"])
        .fails_with(Exit::Failure)
        .json();
    for found in [&doc["orphans"][0], &doc["foreign"][0]] {
        assert_eq!(found["kind"], "symlink", "{doc}");
        assert!(found["bytes_on_disk"].as_u64().unwrap() < 1 << 20, "{doc}");
    }
    assert!(start.elapsed() < Duration::from_secs(5), "it walked /usr");
}

#[test]
fn init_never_writes_through_a_family_directory_planted_as_a_symlink() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let shared = sticky_dir(&s, "shared");
    let target = s.root().join("target");
    make_dir(&target);
    intruder.sh(
        &s,
        &format!(
            "ln -s '{}' '{}'",
            target.display(),
            shared.join("secrets").display()
        ),
    );
    plugctl(&s)
        .current_dir(&shared)
        .args(["init", "secrets", "mytool"])
        .fails_with(Exit::Usage)
        .stderr_has("cannot use the directory");
    assert!(
        !target.join("mytool").exists(),
        "root wrote through the link"
    );
}

#[test]
fn a_volumes_directory_another_user_controls_gets_no_plugin_call() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let marker = marked_plugin(&s, "hv");
    let theirs = s.root().join("theirs");
    make_dir(&theirs);
    intruder.own(&theirs);
    for vols in [theirs.clone(), theirs.join("not-yet")] {
        plugctl(&s)
            .env("PLUGCTL_VOLUMES_DIR", &vols)
            .args(["volume", "create", "--plugin", "hv", "--name", "v"])
            .fails_with(Exit::Usage)
            .stderr_has(&format!("belongs to uid {}", intruder.uid));
    }
    assert!(!marker.exists(), "a plugin ran into their directory");
}

#[test]
fn what_stops_a_nomad_client_is_unhealthy_in_fingerprint_and_metrics_too() {
    let s = Rig::new();
    s.secrets_ok("good");
    s.secrets_ok("tool.exe");
    make_dir(s.plugins.join("adir"));
    symlink(s.plugins.join("adir"), s.plugins.join("secrets/dirlink")).unwrap();
    let doc = plugctl(&s)
        .args(["--json", "fingerprint", "--type", "secrets"])
        .fails_with(Exit::Failure)
        .json();
    assert_eq!(row(&doc, "secrets", "good")["healthy"], true);
    for (name, why) in [
        ("tool.exe", "ends in .exe"),
        ("dirlink", "refuses to start"),
    ] {
        let r = row(&doc, "secrets", name);
        assert_eq!(r["healthy"], false, "{r}");
        assert!(r["error"].as_str().unwrap().contains(why), "{r}");
    }
    plugctl(&s)
        .args(["metrics"])
        .succeeds()
        .stdout_has("plugctl_plugin_healthy{family=\"secrets\",name=\"tool.exe\",version=\"\"} 0");
}

/// A file whose name holds a line break or an escape sequence, planted in
/// a plugin directory: never run, never recorded (the registry would refuse
/// such a name on load and lock every later command out), shown escaped.
#[test]
fn a_plugin_name_with_control_characters_is_shown_escaped_and_never_recorded() {
    let s = Rig::new();
    s.hv_ok("good", "1.0.0");
    let ran = s.root().join("ran");
    for name in ["a\nb", "clear\x1b[2J"] {
        s.plugin(
            "host-volume",
            name,
            &format!(
                "touch '{}'; echo '{{\"version\": \"1.0.0\"}}'",
                ran.display()
            ),
        );
    }
    let out = plugctl(&s)
        .arg("fingerprint")
        .fails_with(Exit::Failure)
        .stdout_has("a\\nb")
        .stdout_has("clear\\u{1b}[2J")
        .stdout_has("contains a control character");
    assert!(!out.stdout().contains('\x1b'), "{}", out.stdout());
    assert!(
        !ran.exists(),
        "a plugin with a control character in its name ran"
    );
    // The registry stays readable: the next command works and knows only
    // the good plugin.
    plugctl(&s)
        .args(["plugin", "list"])
        .succeeds()
        .stdout_has("good")
        .stdout_lacks("a\\nb");
}

/// A plugin directory another user owns, holding their `plugctl.lock`:
/// without `--locked` the lock file only ever added warnings, so it is
/// not read (a warning says so) and each plugin there is refused as it is
/// run — the command is not stopped by a file it did not need. With
/// `--locked` the lock file is required, and refused naming it.
#[test]
fn a_lock_file_in_another_users_plugin_directory_stops_nothing_without_locked() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    s.plugin("host-volume", "theirs", r#"echo '{"version": "1.0.0"}'"#);
    fs::write(s.plugins.join("plugctl.lock"), "{}").unwrap();
    for path in [
        s.plugins.clone(),
        s.plugins.join("host-volume"),
        s.plugins.join("plugctl.lock"),
    ] {
        intruder.own(&path);
    }
    plugctl(&s)
        .args(["fingerprint"])
        .fails_with(Exit::Failure)
        .stderr_has("plugctl.lock: refusing to trust it")
        .stderr_has("its pins are not checked")
        .stdout_has("refused to run");
    plugctl(&s)
        .args(["--locked", "fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has("lock file ");
}

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

/// A plugin may lay a volume out as `<id>/data` and give `<id>` to the
/// workload (its uid), which then owns the directory the volume's path is
/// an entry of. The path was judged when the create answered, but the
/// workload swapped `data` for a symbolic link to a directory of the node
/// afterwards, and `volume delete` handed the path to the plugin, which
/// listed and removed what the link named, as root — while `volume audit`
/// already refused to walk it. A delete (restore, repair) now judges the
/// path again before any plugin runs: where it leads, and that no one but
/// root can change that between the check and the plugin's use (every
/// directory above the path's entry is root's and nobody else's to
/// write); otherwise nothing runs and `volume forget` is named.
#[test]
fn a_path_a_workload_swapped_for_a_link_never_reaches_a_delete() {
    let Some(user) = intruder() else {
        return;
    };
    let s = Rig::new();
    let marker = s.out.join("delete-ran");
    s.hv_script(
        "nest",
        &format!(
            r#"mkdir -p "$v/data"; chown {uid}:{gid} "$v" "$v/data"; printf '{{"path": "%s/data"}}' "$v""#,
            uid = user.uid,
            gid = user.gid
        ),
        &format!(
            r#"echo "$DHV_CREATED_PATH" > {m}; rm -rf "$DHV_CREATED_PATH"/*"#,
            m = marker.display()
        ),
    );
    let v = create_volume(&s, &["--plugin", "nest", "--name", "w"]);
    let path = std::path::PathBuf::from(v["path"].as_str().unwrap());
    let top = path.parent().unwrap().to_path_buf();
    assert!(path.ends_with("data"), "{v}");
    let victim = s.root().join("node-data");
    make_dir(&victim);
    std::fs::write(victim.join("precious"), b"the node's").unwrap();
    // The workload: its volume's `data` becomes a link to the node's data.
    user.sh(
        &s,
        &format!(
            "rmdir '{p}' && ln -s '{t}' '{p}'",
            p = path.display(),
            t = victim.display()
        ),
    );
    plugctl(&s)
        .args(["volume", "delete", "w"])
        .fails_with(Exit::Usage)
        .stderr_has("leads through a symbolic link")
        .stderr_has("volume forget");
    // Put back as a directory, it can still be swapped again between a
    // check and the plugin's use: the directory above is the workload's.
    user.sh(&s, &format!("rm '{p}' && mkdir '{p}'", p = path.display()));
    plugctl(&s)
        .args(["volume", "delete", "w"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!("belongs to uid {}", user.uid));
    assert!(!marker.exists(), "no delete ran");
    assert!(victim.join("precious").exists(), "the node's data is there");
    assert_eq!(s.registry_json()["volumes"].as_object().unwrap().len(), 1);
    // Given back to root, the volume is deleted as usual.
    nix::unistd::chown(&top, Some(0.into()), Some(0.into())).unwrap();
    plugctl(&s).args(["volume", "delete", "w"]).succeeds();
    assert!(marker.exists(), "the delete ran");
    assert!(victim.join("precious").exists(), "the node's data is there");
}

/// A registry may live in a directory others may add entries to (sticky,
/// as `/tmp`). Another user who made a directory under the name of a
/// journal segment past the committed end (the next number is easy to
/// guess) stopped every write with "cannot repair its journal: Is a
/// directory", and a tip to make `--registry` a regular file, which it
/// was: nothing said where the directory was or whose. It is named, with
/// its owner, for a person to remove; nothing runs meanwhile.
#[test]
fn a_directory_planted_as_a_journal_segment_is_named_with_its_owner() {
    let Some(user) = intruder() else {
        return;
    };
    let s = Rig::new();
    s.hv_script(
        "dir",
        r#"mkdir -p "$v"; printf '{"path": "%s"}' "$v""#,
        "exit 0",
    );
    let shared = s.root().join("shared");
    make_dir(&shared);
    std::fs::set_permissions(
        &shared,
        std::os::unix::fs::PermissionsExt::from_mode(0o1777),
    )
    .unwrap();
    let registry = shared.join("registry.json");
    let reg = registry.display().to_string();
    plugctl(&s)
        .env("PLUGCTL_REGISTRY", &reg)
        .args(["volume", "create", "--plugin", "dir", "--name", "a"])
        .succeeds();
    let planted = shared.join("registry.json.journal.00000002");
    user.sh(
        &s,
        &format!("mkdir '{p}' && touch '{p}/x'", p = planted.display()),
    );
    let made = || std::fs::read_dir(&s.volumes).unwrap().count();
    let before = made();
    plugctl(&s)
        .env("PLUGCTL_REGISTRY", &reg)
        .args(["volume", "create", "--plugin", "dir", "--name", "b"])
        .fails_with(Exit::Usage)
        .stderr_has(&planted.display().to_string())
        .stderr_has(&format!("a directory of uid {}'s", user.uid))
        .stderr_has("remove it")
        .stderr_lacks("must name a regular file");
    assert_eq!(made(), before, "no plugin ran");
    assert!(
        planted.join("x").exists(),
        "another user's directory is left"
    );
    std::fs::remove_dir_all(&planted).unwrap();
    plugctl(&s)
        .env("PLUGCTL_REGISTRY", &reg)
        .args(["volume", "create", "--plugin", "dir", "--name", "b"])
        .succeeds();
}

/// `events --follow` (and `plugin wait`) sleep until the kernel says the
/// registry was replaced, watching its directory. When the kernel's queue
/// of such news overflows, it drops what comes next and says only that
/// it dropped some; the follower took that for news of another file and
/// slept on, so a write it should have shown was shown only with the
/// next one, hours later on a quiet node. Another user who may add files
/// beside a registry in a sticky directory overflows it at will while the
/// follower is slow (stopped here, to make "slow" certain). An overflow
/// now wakes the follower to look.
#[test]
fn a_follower_whose_watch_overflowed_still_shows_the_next_write() {
    let Some(user) = intruder() else {
        return;
    };
    let s = Rig::new();
    s.hv_script(
        "dir",
        r#"mkdir -p "$v"; printf '{"path": "%s"}' "$v""#,
        "exit 0",
    );
    let shared = s.root().join("shared");
    make_dir(&shared);
    std::fs::set_permissions(
        &shared,
        std::os::unix::fs::PermissionsExt::from_mode(0o1777),
    )
    .unwrap();
    let reg = shared.join("registry.json").display().to_string();
    let create = |name: &str| {
        plugctl(&s)
            .env("PLUGCTL_REGISTRY", &reg)
            .args(["volume", "create", "--plugin", "dir", "--name", name])
            .succeeds();
    };
    create("before");
    let mut child = s
        .command(PLUGCTL)
        .env("PLUGCTL_REGISTRY", &reg)
        .args(["--json", "events", "--follow"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let wait_for = |needle: &str| {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while let Some(left) = until.checked_duration_since(std::time::Instant::now()) {
            match rx.recv_timeout(left) {
                Ok(line) if line.contains(needle) => return true,
                Ok(_) => {}
                Err(_) => return false,
            }
        }
        false
    };
    // Following: what was there is shown, the watch is set.
    assert!(wait_for("\"before\""), "the first event is shown");
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGSTOP).unwrap();
    // More news than the kernel queues (16384 by default) of files beside
    // the registry (each made and removed is two at least), then a write
    // of the registry, dropped.
    let queued: u64 = std::fs::read_to_string("/proc/sys/fs/inotify/max_queued_events")
        .ok()
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(16384);
    user.sh(
        &s,
        &format!(
            "cd '{}' && i=0; while [ $i -lt {} ]; do : > f$i; i=$((i+1)); done; rm -f f*",
            shared.display(),
            queued / 2 + 1000
        ),
    );
    create("after");
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGCONT).unwrap();
    let shown = wait_for("\"after\"");
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        shown,
        "the write after the overflow is shown without another"
    );
}

//! Round 17 of the fresh-eyes attack on issue #34 ("safe to consume, safe
//! to run"), through the real binary, after review34.rs to review34w.rs,
//! aimed at what plugctl keeps and walks (the volumes directory, the
//! registry and its journal, scratch directories): each test here is an
//! attack that found a way through.

use std::fs;

use crate::common::*;

/// `test host-volume` (and `replay`) make their scratch volumes directory
/// under `$TMPDIR` and hand paths below it to the plugin, which makes,
/// writes and removes what they name, as root. A root shell can carry a
/// user's `TMPDIR` (`su` keeps it; libpam-tmpdir gives each user one of
/// their own), and nothing judged it: its owner renamed the new scratch
/// directory away and put one of theirs under its name, with the volumes
/// directory a link to a directory of the node's, and root's plugin made
/// and wrote its volumes there (and removed them again). `$TMPDIR` now
/// goes through the trust gate before any scratch directory is made; a
/// sticky one, as `/tmp`, still serves.
#[test]
fn a_scratch_directory_under_another_users_tmpdir_is_refused() {
    let Some(user) = intruder() else {
        return;
    };
    let s = Rig::new();
    let theirs = s.root().join("theirs");
    make_dir(&theirs);
    user.own(&theirs);
    let victim = s.root().join("node-dir");
    make_dir(&victim);
    let log = s.out.join("created-at");
    // A plugin as a node has them; its create waits until the swap is made
    // (a real one runs mkfs or dd meanwhile), so the race is won every time.
    s.hv_script(
        "slow",
        &format!(
            r#"while [ ! -e '{go}' ]; do sleep 0.05; done; mkdir -p "$v"; readlink -f "$v" >> '{log}'; echo root > "$v.img"; printf '{{"path": "%s", "bytes": 1048576}}' "$v""#,
            go = theirs.join("go").display(),
            log = log.display()
        ),
        r#"rm -rf "$DHV_CREATED_PATH" "$DHV_CREATED_PATH.img""#,
    );
    // Their part: wait for the scratch directory, swap it, say so.
    let mut swapper = user
        .command(&s, "/bin/sh")
        .args([
            "-c",
            r#"to=$1; cd "$0" || exit 1
            while :; do set -- plugctl-test-*; [ -e "$1" ] && break; sleep 0.02; done
            mv "$1" moved && mkdir -p "$1/data" && ln -s "$to" "$1/data/host_volumes" && touch go"#,
        ])
        .arg(&theirs)
        .arg(&victim)
        .spawn()
        .expect("the swapper starts");
    let ran = plugctl(&s)
        .env("TMPDIR", &theirs)
        .args(["--sandbox", "none", "test", "host-volume", "slow"])
        .output();
    let _ = swapper.kill();
    let _ = swapper.wait();
    let made: Vec<_> = fs::read_dir(&victim).unwrap().flatten().collect();
    let created = fs::read_to_string(&log).unwrap_or_default();
    assert!(
        made.is_empty() && !created.contains(&*victim.to_string_lossy()),
        "root's plugin made its volumes in the node's directory another user chose: {created}"
    );
    let err = stderr(&ran);
    assert_eq!(ran.status.code(), Some(Exit::Usage.code()), "{err}");
    assert!(err.contains("TMPDIR"), "{err}");
    assert!(err.contains(&format!("uid {}", user.uid)), "{err}");
    assert!(!log.exists(), "no plugin create ran");

    // A sticky directory (as /tmp) serves: others may add entries there,
    // but not move or replace the scratch directory.
    let sticky = sticky_dir(&s, "sticky");
    fs::write(theirs.join("go"), "").unwrap();
    plugctl(&s)
        .env("TMPDIR", &sticky)
        .args(["--sandbox", "none", "test", "host-volume", "slow"])
        .succeeds();
}

/// A volumes directory not made yet was judged by the part of its path
/// that exists, where the plugin makes it, and a sticky directory (as
/// `/tmp`) passed there: the name was free, so another user made it
/// between the check and the plugin's own `mkdir -p`, as a link to a
/// directory of the node's, and root's plugin made and filled the volume
/// there; the answer, judged through that same link, was recorded
/// `ready`. A missing volumes directory must now be made where nobody
/// else may write, sticky or not; nothing runs otherwise.
#[test]
fn a_volumes_directory_not_made_yet_in_a_sticky_directory_is_refused() {
    let Some(user) = intruder() else {
        return;
    };
    let s = Rig::new();
    let shared = sticky_dir(&s, "shared");
    let vols = shared.join("vols");
    let go = shared.join("go");
    let victim = s.root().join("node-dir");
    make_dir(&victim);
    s.hv_script(
        "slow",
        &format!(
            r#"while [ ! -e '{go}' ]; do sleep 0.05; done; mkdir -p "$v"; echo root > "$v/file"; printf '{{"path": "%s", "bytes": 0}}' "$v""#,
            go = go.display()
        ),
        r#"rm -rf "$DHV_CREATED_PATH""#,
    );
    // Their part: once the plugin runs (as anyone can see in ps), the
    // free name becomes a link to the node's directory.
    let mut racer = user
        .command(&s, "/bin/sh")
        .args([
            "-c",
            r#"while ! pgrep -f '[h]ost-volume/slow create' >/dev/null; do sleep 0.02; done
            ln -s "$1" "$0" && touch "$2""#,
        ])
        .arg(&vols)
        .arg(&victim)
        .arg(&go)
        .spawn()
        .expect("the racer starts");
    let ran = plugctl(&s)
        .env("PLUGCTL_VOLUMES_DIR", &vols)
        .args(["volume", "create", "--plugin", "slow", "--name", "w"])
        .output();
    let _ = racer.kill();
    let _ = racer.wait();
    let made: Vec<_> = fs::read_dir(&victim).unwrap().flatten().collect();
    assert!(
        made.is_empty(),
        "root's plugin made a volume in the node's directory another user linked in: {made:?}"
    );
    let err = stderr(&ran);
    assert_eq!(ran.status.code(), Some(Exit::Usage.code()), "{err}");
    assert!(
        err.contains("not made yet") && err.contains("mode 1777"),
        "{err}"
    );
    assert!(!s.registry.exists(), "nothing was recorded");

    // Made by root first, it serves.
    make_dir(&vols);
    fs::write(&go, "").unwrap();
    plugctl(&s)
        .env("PLUGCTL_VOLUMES_DIR", &vols)
        .args(["volume", "create", "--plugin", "slow", "--name", "w"])
        .succeeds();
}

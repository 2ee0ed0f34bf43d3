//! An eighth fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after the first seven rounds
//! (review34.rs to review34g.rs): each test here is an attack that found a
//! way through.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

use crate::common::*;

/// Long enough for any of these commands on a slow machine; a hang is
/// what it catches (the run is killed, and the test fails).
const HANG: Duration = Duration::from_secs(60);

/// `metrics` and `fingerprint --textfile` (the shipped timer's command)
/// say whether each plugin `plugctl.lock` pins still is the file pinned.
/// They opened that file by its path, following links, through no trust
/// gate and without `O_NONBLOCK`: a FIFO another user put under a pinned
/// name (in a sticky plugin directory, which the gate passes, once the
/// pinned plugin was retired; or in a directory the gate refuses to run
/// plugins from) held the command in `open` forever, deaf to SIGTERM, and
/// the timer's oneshot service with it. The file is read through the
/// gate's walk, as every other: a FIFO, a device or a socket there is a
/// drift, never waited on.
#[test]
fn a_fifo_under_a_pinned_name_never_holds_metrics_or_the_timers_fingerprint() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    s.hv_ok("kept", "1.0.0");
    s.hv_ok("retired", "1.0.0");
    plugctl(&s).args(["fingerprint"]).succeeds();
    plugctl(&s).args(["pin"]).succeeds();
    // A family directory others may add entries to, as /tmp: the gate
    // passes it (no one but root can replace root's plugins there).
    let family = s.plugins.join("host-volume");
    fs::set_permissions(&family, fs::Permissions::from_mode(0o1777)).unwrap();
    // The operator retires a plugin and has not pinned again yet.
    fs::remove_file(family.join("retired")).unwrap();
    intruder.sh(&s, &format!("mkfifo {}", family.join("retired").display()));
    let textfile = s.root().join("textfile");
    make_dir(&textfile);
    let shown = plugctl(&s)
        .args(["metrics"])
        .deadline(HANG)
        .succeeds()
        .stdout();
    assert!(
        shown.contains(r#"plugctl_plugin_drifted{family="host-volume",name="retired"} 1"#),
        "a FIFO is not the file pinned: {shown}"
    );
    assert!(
        shown.contains(r#"plugctl_plugin_drifted{family="host-volume",name="kept"} 0"#),
        "{shown}"
    );
    plugctl(&s)
        .args(["fingerprint", "--textfile"])
        .arg(&textfile)
        .deadline(HANG)
        .fails_with(Exit::Failure);
    let prom = fs::read_to_string(textfile.join("plugctl.prom")).unwrap();
    assert!(
        prom.contains(r#"plugctl_plugin_drifted{family="host-volume",name="retired"} 1"#),
        "{prom}"
    );
    // A link to one, or to a device, is the same.
    fs::remove_file(family.join("retired")).unwrap();
    for target in ["/dev/zero", "/dev/null"] {
        std::os::unix::fs::symlink(target, family.join("retired")).unwrap();
        plugctl(&s)
            .args(["metrics"])
            .deadline(HANG)
            .succeeds()
            .stdout_has(r#"plugctl_plugin_drifted{family="host-volume",name="retired"} 1"#);
        fs::remove_file(family.join("retired")).unwrap();
    }
}

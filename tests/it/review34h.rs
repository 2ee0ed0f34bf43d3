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

/// A create's answer naming an entry of the volumes directory that is
/// named for another volume's id (`<id>`, `<id>.ext4`, as Nomad's example
/// plugins lay a volume out) was recorded as this volume, `ready`: the
/// Nomad agent's own volume in the directory they share (which `volume
/// create --id` of its id refuses to take), or another volume's image
/// beside its directory, which no recorded path claims. The next `volume
/// delete` handed it to the plugin to remove. Such a path is the plugin's
/// failure: the volume stays `pending` with no path, and `volume repair`
/// rolls it back without handing the other's entry to delete.
#[test]
fn a_create_that_answers_an_entry_named_for_another_volume_is_the_plugins_failure() {
    let s = Rig::new();
    let answer = s.out_file("answer");
    // Answers the path the file names (`@ID` its own id); delete removes
    // whatever path it is given.
    s.hv_script(
        "fickle",
        &format!(
            r#"p=$(sed "s/@ID/$DHV_VOLUME_ID/" '{a}'); mkdir -p "$p"; printf '{{"path": "%s", "bytes": 1}}' "$p""#,
            a = answer.display()
        ),
        r#"[ -n "$DHV_CREATED_PATH" ] && rm -rf "$DHV_CREATED_PATH"; exit 0"#,
    );
    make_dir(&s.volumes);
    // The agent's volume, made by the agent (plugctl never named its id).
    let agents = "0d6f1a7e-3c2b-4d5e-8f90-a1b2c3d4e5f6";
    make_dir(s.volumes.join(agents));
    fs::write(s.volumes.join(agents).join("data"), "the agent's").unwrap();
    // A volume of plugctl's own, and its image beside it.
    fs::write(&answer, s.volumes.join("@ID").display().to_string()).unwrap();
    let mine = id_of(&create_volume(
        &s,
        &["--plugin", "fickle", "--name", "mine"],
    ));
    make_dir(s.volumes.join(format!("{mine}.ext4")));
    fs::write(s.volumes.join(format!("{mine}.ext4/blocks")), "mine's").unwrap();
    for (name, path) in [
        ("agents", s.volumes.join(agents)),
        ("agents-image", s.volumes.join(format!("{agents}.ext4"))),
        ("inside-agents", s.volumes.join(agents).join("sub")),
        ("mines-image", s.volumes.join(format!("{mine}.ext4"))),
    ] {
        fs::write(&answer, path.display().to_string()).unwrap();
        plugctl(&s)
            .args(["volume", "create", "--plugin", "fickle", "--name", name])
            .fails_with(Exit::Failure)
            .stderr_has("named for another volume's id");
        let v = list_volumes(&s)
            .into_iter()
            .find(|v| v["name"] == name)
            .unwrap();
        assert_eq!(v["state"], "pending", "{name}: {v}");
        assert_eq!(v["path"], "", "{name}: {v}");
        // repair's create gets the same answer and judges it the same way,
        // and rolls the volume back: its delete never gets the other's
        // entry.
        plugctl(&s)
            .args(["volume", "repair"])
            .succeeds()
            .stdout_has("named for another volume's id")
            .stdout_has("rolled back");
        assert!(
            list_volumes(&s).iter().all(|v| v["name"] != name),
            "{name}: still recorded"
        );
        assert_eq!(
            fs::read_to_string(s.volumes.join(agents).join("data")).unwrap(),
            "the agent's",
            "{name}"
        );
        assert_eq!(
            fs::read_to_string(s.volumes.join(format!("{mine}.ext4/blocks"))).unwrap(),
            "mine's",
            "{name}"
        );
    }
    // Its own entries, whatever follows its id, are its own.
    for (name, path) in [("img", "@ID.img"), ("nested", "@ID/data")] {
        fs::write(&answer, s.volumes.join(path).display().to_string()).unwrap();
        create_volume(&s, &["--plugin", "fickle", "--name", name]);
    }
    // The agent's volume is as it was.
    plugctl(&s).args(["volume", "delete", "mine"]).succeeds();
    assert_eq!(
        fs::read_to_string(s.volumes.join(agents).join("data")).unwrap(),
        "the agent's"
    );
}

//! A ninth fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after the first eight rounds
//! (review34.rs to review34h.rs): each test here is an attack that found a
//! way through.

use crate::common::*;

/// A plugin that says on stderr whether it leads its process group, and
/// what it got when its deadline came: SIGTERM runs its trap; without one,
/// only the SIGKILL after `--grace` ends it.
fn term_trapping(s: &Rig, name: &str) {
    s.plugin(
        "host-volume",
        name,
        r#"PATH=/usr/bin:/bin
trap 'echo "GOT-TERM" >&2; exit 3' TERM
if [ "$(cut -d' ' -f5 /proc/$$/stat)" = "$$" ]; then echo "LEADS-ITS-GROUP" >&2; else echo "IN-ANOTHER-GROUP" >&2; fi
sleep 30 &
wait"#,
    );
}

/// strict's calls started from the sandbox's threads
/// (`clone(CLONE_VM | CLONE_VFORK)`) never got a process group of their
/// own, which std gives every other call (`process_group(0)`): the plugin
/// stayed in plugctl's group — the terminal's foreground group, whose
/// Ctrl-C and Ctrl-Z reached it directly — and every signal plugctl sends a
/// call's group (SIGTERM at the deadline and at a shutdown, SIGSTOP and
/// SIGCONT for job control) found no group of that id. Such a plugin got
/// no SIGTERM and no grace: only the kill that ends the call, after the
/// grace had run out. It leads its group, as under every other start.
#[test]
fn a_strict_call_started_from_the_sandboxs_thread_leads_its_group_and_gets_sigterm() {
    let s = Rig::outside_tmp();
    if !strict_runs(&s) {
        return;
    }
    term_trapping(&s, "trap");
    for sandbox in ["none", "strict"] {
        let out = plugctl(&s)
            .args(["-v", "--sandbox", sandbox, "fingerprint", "trap"])
            .args(["--timeout", "1s", "--grace", "20s"])
            .fails_with(Exit::Failure);
        let err = out.stderr();
        assert!(err.contains("LEADS-ITS-GROUP"), "{sandbox}: {err}");
        assert!(
            err.contains("GOT-TERM"),
            "{sandbox}: SIGTERM reaches the plugin at its deadline: {err}"
        );
    }
}

/// Long enough for any of these commands on a slow machine; a hang is
/// what it catches (the run is killed, and the test fails).
const HANG: std::time::Duration = std::time::Duration::from_secs(60);

/// `metrics` and `fingerprint --textfile` (the shipped timer's command)
/// say whether each pinned plugin still is the file pinned, and since the
/// eighth round read it through the gate's walk, so that a FIFO under a
/// pinned name is a drift, never waited on. But they hashed whatever file
/// was there to its end, and its `#!` interpreter to its end too: a sparse
/// file of a terabyte, which costs its owner nothing, put by another user
/// under a pinned name (in a sticky plugin directory once the pinned
/// plugin was retired), or named by the `#!` line of a small file put
/// there, held the command hashing zeros for hours at a full CPU — the
/// timer's oneshot, deaf to SIGTERM meanwhile, never wrote its textfile.
/// A file of another size than the pinned one is a drift told without a
/// read, one is never read past the pinned size, and an interpreter is
/// looked at only for the pinned content.
#[test]
fn a_sparse_file_under_a_pinned_name_never_holds_metrics_or_the_timers_fingerprint() {
    use std::fs;
    use std::os::unix::fs::PermissionsExt;
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    s.hv_ok("kept", "1.0.0");
    s.hv_ok("retired", "1.0.0");
    plugctl(&s).args(["fingerprint"]).succeeds();
    plugctl(&s).args(["pin"]).succeeds();
    let family = s.plugins.join("host-volume");
    fs::set_permissions(&family, fs::Permissions::from_mode(0o1777)).unwrap();
    fs::remove_file(family.join("retired")).unwrap();
    let den = s.root().join("den");
    make_dir(&den);
    intruder.own(&den);
    let huge = den.join("huge");
    if !intruder.sparse_terabyte(&s, &huge) {
        return;
    }
    let drifted = r#"plugctl_plugin_drifted{family="host-volume",name="retired"} 1"#;
    // The file itself, linked under the pinned name.
    intruder.sh(
        &s,
        &format!(
            "ln -s {} {}",
            huge.display(),
            family.join("retired").display()
        ),
    );
    plugctl(&s)
        .args(["metrics"])
        .deadline(HANG)
        .succeeds()
        .stdout_has(drifted)
        .stdout_has(r#"plugctl_plugin_drifted{family="host-volume",name="kept"} 0"#);
    // A small script whose `#!` line names it.
    fs::remove_file(family.join("retired")).unwrap();
    intruder.sh(
        &s,
        &format!(
            "printf '#!{}\\n' >{}",
            huge.display(),
            family.join("retired").display()
        ),
    );
    let textfile = s.root().join("textfile");
    make_dir(&textfile);
    plugctl(&s)
        .args(["fingerprint", "--textfile"])
        .arg(&textfile)
        .deadline(HANG)
        .fails_with(Exit::Failure);
    let prom = fs::read_to_string(textfile.join("plugctl.prom")).unwrap();
    assert!(prom.contains(drifted), "{prom}");
}

/// A descriptor plugctl inherited open without close-on-exec (a script's
/// `exec 7>>/var/log/x` before it runs plugctl, a CI runner's) reached
/// every plugin it started, strict's too: a plugin wrote through it where
/// Landlock lets it write nothing, though docs/protocol.md promises a
/// plugin no descriptor but its three. plugctl keeps what it inherited to
/// itself.
#[test]
fn a_descriptor_plugctl_inherited_never_reaches_a_plugin() {
    let s = Rig::outside_tmp();
    if !strict_runs(&s) {
        return;
    }
    let kept = s.root().join("kept-by-the-caller");
    std::fs::write(&kept, "").unwrap();
    s.plugin(
        "host-volume",
        "writer",
        r#"echo pwned >&7
exec /bin/ls /proc/self/fd >&2"#,
    );
    for sandbox in ["none", "strict"] {
        let out = expect::Run::new(s.command("/bin/sh"), "sh")
            .arg("-c")
            .arg(format!("exec 7>>'{}'; exec \"$0\" \"$@\"", kept.display()))
            .arg(PLUGCTL)
            .args(["-v", "--sandbox", sandbox, "fingerprint", "writer"])
            .fails_with(Exit::Failure);
        let err = out.stderr();
        assert_eq!(
            std::fs::read_to_string(&kept).unwrap(),
            "",
            "{sandbox}: the plugin wrote through plugctl's descriptor: {err}"
        );
        assert!(!err.contains("| 7\n"), "{sandbox}: {err}");
    }
}

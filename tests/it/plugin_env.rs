//! The program that runs is the program that was checked, whatever
//! environment a plugin is given: `#!/usr/bin/env X` finds `X` on the
//! `PATH` the plugin really gets (`--env PATH=...` of a fetch, `test`,
//! `replay`, or the `#!` line's own `-S PATH=...`), and that file passes
//! the trust gate; a directory on that `PATH`, or any path a variable that
//! changes what the plugin loads names (`LD_PRELOAD`, `PYTHONPATH`...),
//! passes the gate too, or the plugin does not run. `validate`, `test`,
//! `--dry-run` and the real call say the same. The attacker is a second
//! local user who owns a directory or a file on that path.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::*;

/// A fake `sh` that would prove it ran by creating `marker`.
fn fake_sh(dir: &Path, marker: &Path) -> PathBuf {
    let p = dir.join("sh");
    fs::write(
        &p,
        format!(
            "#!/bin/sh\n/usr/bin/touch '{}'\necho '{{\"type\": \"secrets\", \"version\": \"6.6.6\", \"result\": {{}}}}'\n",
            marker.display()
        ),
    )
    .unwrap();
    fs::set_permissions(&p, fs::Permissions::from_mode(0o755)).unwrap();
    p
}

/// A secrets plugin run through `#!/usr/bin/env sh`.
fn env_sh_plugin(s: &Rig, name: &str) {
    s.file(
        "secrets",
        name,
        "#!/usr/bin/env sh\n\
         [ \"$1\" = fingerprint ] && echo '{\"type\": \"secrets\", \"version\": \"1.0.0\"}' && exit 0\n\
         echo '{\"result\": {\"K\": \"v\"}}'\n",
        0o755,
    );
}

#[test]
fn env_finds_its_program_on_the_path_the_plugin_gets_and_that_file_is_judged() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let marker = s.out_file("their-sh-ran");
    env_sh_plugin(&s, "py");
    plugctl(&s)
        .args(["fingerprint", "--type", "secrets"])
        .succeeds();

    // A directory another user owns, first on the plugin's PATH.
    let theirs = s.root().join("theirs");
    make_dir(&theirs);
    fake_sh(&theirs, &marker);
    intruder.own(&theirs);
    let path = format!("PATH={}:/usr/bin:/bin", theirs.display());
    let owner = format!("belongs to uid {}", intruder.uid);
    let out = plugctl(&s)
        .args(["secret", "fetch", "py", "x", "--env", &path])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has(&format!(
            "its environment's PATH names {:?}",
            theirs.display().to_string()
        ))
        .stderr_has(&owner);
    // The dry run says the real call would be refused, in the same words.
    let dry = plugctl(&s)
        .args(["secret", "fetch", "py", "x", "--env", &path, "--dry-run"])
        .succeeds()
        .stderr_has("the real call would be refused")
        .stderr_has(&owner);
    let reason = |text: &str| {
        text.lines()
            .find(|l| l.contains(&owner))
            .and_then(|l| l.split_once("not run: "))
            .map(|(_, r)| r.to_string())
            .unwrap_or_default()
    };
    assert_eq!(reason(&dry.stderr()), reason(&out.stderr()));
    // test agrees: its fetch is refused.
    let doc = plugctl(&s)
        .args([
            "--json", "test", "secrets", "py", "--path", "x", "--env", &path,
        ])
        .fails_with(Exit::Failure)
        .json();
    let result = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["check"] == "fetch.result")
        .unwrap_or_else(|| panic!("{doc:#}"));
    assert!(
        result["message"].as_str().unwrap().contains(&owner),
        "{result}"
    );

    // A directory of root's on that PATH holding another user's sh:
    // the file env would run is judged, not /usr/bin/sh.
    let mine = s.root().join("mine");
    make_dir(&mine);
    let sh = fake_sh(&mine, &marker);
    intruder.own(&sh);
    let path = format!("PATH={}:/usr/bin:/bin", mine.display());
    plugctl(&s)
        .args(["secret", "fetch", "py", "x", "--env", &path])
        .fails_with(Exit::Failure)
        .stderr_has(&format!("its interpreter {}", sh.display()))
        .stderr_has(&owner);
    plugctl(&s)
        .args(["secret", "fetch", "py", "x", "--env", &path, "--dry-run"])
        .succeeds()
        .stderr_has(&format!("its interpreter {}", sh.display()));
    assert!(!marker.exists(), "another user's sh ran as root");

    // Root's own sh there runs, and is what ran.
    nix::unistd::chown(&sh, Some(0.into()), Some(0.into())).unwrap();
    plugctl(&s)
        .args(["secret", "fetch", "py", "x", "--env", &path])
        .succeeds();
    assert!(marker.exists(), "the sh on the plugin's PATH is what runs");
    // Under --locked, the pin names the sh env finds with PATH unset:
    // another one on the plugin's PATH is a drift, refused before it runs.
    fs::remove_file(&marker).unwrap();
    plugctl(&s).args(["pin"]).succeeds();
    plugctl(&s)
        .args(["--locked", "secret", "fetch", "py", "x", "--env", &path])
        .fails()
        .stderr_has("drifted: interpreter");
    assert!(!marker.exists(), "--locked ran a sh it did not pin");
    plugctl(&s)
        .args(["--locked", "secret", "fetch", "py", "x"])
        .succeeds()
        .stdout_has("K=v");
    // A PATH relative to the working directory is refused.
    plugctl(&s)
        .args(["secret", "fetch", "py", "x", "--env", "PATH=bin:/usr/bin"])
        .fails_with(Exit::Failure)
        .stderr_has("\"bin\", a path relative to the plugin's working directory");
}

#[test]
fn a_shebang_that_sets_path_for_env_is_judged_on_that_path_everywhere() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let marker = s.out_file("their-sh-ran");
    let theirs = s.root().join("theirs");
    make_dir(&theirs);
    fake_sh(&theirs, &marker);
    intruder.own(&theirs.join("sh"));
    s.file(
        "secrets",
        "sets-path",
        &format!(
            "#!/usr/bin/env -S PATH={}:/usr/bin sh\necho '{{}}'\n",
            theirs.display()
        ),
        0o755,
    );
    let doc = plugctl(&s)
        .args(["--json", "fingerprint", "--type", "secrets"])
        .fails_with(Exit::Failure)
        .json();
    let r = row(&doc, "secrets", "sets-path");
    assert_eq!(r["healthy"], false, "{r}");
    let e = r["error"].as_str().unwrap();
    assert!(
        e.contains(&theirs.join("sh").display().to_string())
            && e.contains(&format!("belongs to uid {}", intruder.uid)),
        "{e}"
    );
    let v = plugctl(&s)
        .args(["--json", "validate"])
        .fails_with(Exit::Failure)
        .json();
    let trusted = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["check"] == "permissions.trusted" && f["plugin"] == "secrets/sets-path")
        .unwrap_or_else(|| panic!("{v:#}"));
    assert_eq!(trusted["severity"], "error");
    assert!(!marker.exists(), "another user's sh ran as root");
}

#[test]
fn a_variable_that_changes_what_the_plugin_loads_passes_the_gate_or_is_refused() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let ran = s.out_file("ran");
    s.plugin(
        "secrets",
        "p",
        &format!(
            "[ \"$1\" = fingerprint ] && echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' && exit 0\n\
             /usr/bin/touch '{}'\necho '{{\"result\": {{}}}}'",
            ran.display()
        ),
    );
    let theirs = s.root().join("theirs");
    make_dir(&theirs);
    fs::write(theirs.join("evil.so"), "").unwrap();
    intruder.own(&theirs);
    intruder.own(&theirs.join("evil.so"));
    let mine = s.root().join("lib");
    make_dir(&mine);
    let owner = format!("belongs to uid {}", intruder.uid);
    let t = theirs.display().to_string();
    for (env, why) in [
        (format!("LD_PRELOAD={t}/evil.so"), owner.clone()),
        (format!("LD_LIBRARY_PATH=/usr/lib:{t}"), owner.clone()),
        (format!("PYTHONPATH={t}"), owner.clone()),
        (format!("BASH_ENV={t}/evil.so"), owner.clone()),
        // A lower-case name is the same variable to zsh.
        (format!("path={t}"), owner.clone()),
        (format!("HOME={t}"), owner.clone()),
        // A sticky directory like /tmp: anyone may put a program there.
        (
            format!("PATH={}:/usr/bin", sticky_dir(&s, "shared").display()),
            "a sticky directory others may add files to".to_string(),
        ),
        // Not there yet, in a directory anyone may create it in.
        (
            "LD_LIBRARY_PATH=/tmp/plugctl-nothing-here/lib".to_string(),
            "anyone may create it in the sticky /tmp".to_string(),
        ),
        (
            "NODE_OPTIONS=--require /x.js".to_string(),
            "holds NODE_OPTIONS, which would change what Node.js or npm loads or runs (NODE_*): \
             not a path plugctl can judge"
                .to_string(),
        ),
        (
            "PERL5OPT=-Mstrict".to_string(),
            "holds PERL5OPT".to_string(),
        ),
        (
            "GIT_SSH_COMMAND=ssh -i key".to_string(),
            "holds GIT_SSH_COMMAND".to_string(),
        ),
    ] {
        plugctl(&s)
            .args(["secret", "fetch", "p", "x", "--env", &env])
            .fails_with(Exit::Failure)
            .stderr_has(&why);
        let dry: Value = plugctl(&s)
            .args([
                "--json",
                "secret",
                "fetch",
                "p",
                "x",
                "--env",
                &env,
                "--dry-run",
            ])
            .succeeds()
            .json();
        assert!(
            dry["calls"][0]["refused"]
                .as_str()
                .unwrap_or_default()
                .contains(&why),
            "{env}: {dry:#}"
        );
    }
    assert!(
        !ran.exists(),
        "a plugin ran with an environment that was refused"
    );
    // Paths of root's pass.
    let l = mine.display().to_string();
    for env in [
        format!("LD_LIBRARY_PATH={l}:/usr/lib"),
        format!("PYTHONPATH={l}"),
        "LD_PRELOAD=libc.so.6".to_string(),
        "PATH=/usr/local/bin:/usr/bin:/bin".to_string(),
        "HOME=/root".to_string(),
        format!("TMPDIR={l}/not-yet"),
    ] {
        plugctl(&s)
            .args(["secret", "fetch", "p", "x", "--env", &env])
            .succeeds();
    }
    assert!(ran.exists());
}

/// `validate`'s second try of a fingerprint with an inherited PATH is a
/// plugin environment like any other: on a node whose /usr/local/bin a
/// group can write (as some Debian installs make it), that try is refused
/// by the gate, and the check says so rather than "fails with PATH too".
#[test]
fn validates_try_with_an_inherited_path_says_when_the_gate_refuses_that_path() {
    let s = Rig::new();
    // Works only when it is given a PATH.
    s.plugin(
        "host-volume",
        "needs-path",
        r#"/usr/bin/env | /usr/bin/grep -q ^PATH= || exit 1
[ "$1" = fingerprint ] && echo '{"version": "1.0.0"}'"#,
    );
    let Some(run) = in_mount_namespace(
        &s,
        r#"set -e
mount -t tmpfs -o size=4k,mode=0775 tmpfs /usr/local/bin
"$PLUGCTL" --json validate > "$OUT/stdout" 2> "$OUT/stderr" || echo $? > "$OUT/code""#,
    ) else {
        return;
    };
    run.succeeds();
    let doc: serde_json::Value = serde_json::from_str(&s.read_out("stdout")).unwrap();
    let check = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["plugin"] == "host-volume/needs-path" && c["check"] == "runnable.needs-path")
        .unwrap_or_else(|| panic!("{doc:#}"));
    assert_eq!(check["outcome"], "skipped", "{check}");
    let reason = check["reason"].as_str().unwrap();
    assert!(
        reason.contains("not tried with PATH=/usr/local/bin:/usr/bin:/bin")
            && reason.contains("/usr/local/bin"),
        "{reason}"
    );
}

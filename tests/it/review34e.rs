//! A fifth fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after the first four rounds
//! (review34.rs to review34d.rs): each test here is an attack that found a
//! way through.

use std::fs;

use serde_json::Value;

use crate::common::*;

/// `LD_LIBRARY_PATH` in a plugin's environment passes only when every
/// directory in it passes the trust gate. The gate split it at `:` alone,
/// but the loader splits it at `;` too (ld.so(8)): `/usr/lib;/their/dir`
/// was judged as one path under `/usr` that is not there, and passed,
/// while the loader searched their directory and ran their library's
/// constructor as root in the plugin and every program it starts.
#[test]
fn a_semicolon_in_ld_library_path_never_slips_another_users_directory_past_the_gate() {
    let Some(intruder) = intruder() else { return };
    if !tool_available("cc", "a library and a program linked to it") {
        return;
    }
    let s = Rig::new();
    let pwned = s.out_file("pwned");
    let ran = s.out_file("ran");
    // A library of root's, a program linked to it (no run path: the loader
    // finds it only on LD_LIBRARY_PATH), and the intruder's library of the
    // same name, whose constructor leaves a mark.
    let mine = s.root().join("mine");
    let theirs = s.root().join("theirs");
    make_dir(&mine);
    make_dir(&theirs);
    let src = s.out_file("lib.c");
    fs::write(&src, "int r34e(void) { return 0; }\n").unwrap();
    tool("cc")
        .args(["-shared", "-fPIC", "-o"])
        .arg(mine.join("libr34e.so"))
        .arg(&src)
        .succeeds();
    let evil = s.out_file("evil.c");
    fs::write(
        &evil,
        format!(
            "#include <stdio.h>\n\
             __attribute__((constructor)) static void mark(void) {{\n\
             FILE *f = fopen(\"{}\", \"w\"); if (f) fclose(f); }}\n\
             int r34e(void) {{ return 0; }}\n",
            pwned.display()
        ),
    )
    .unwrap();
    tool("cc")
        .args(["-shared", "-fPIC", "-o"])
        .arg(theirs.join("libr34e.so"))
        .arg(&evil)
        .succeeds();
    intruder.own(&theirs);
    intruder.own(&theirs.join("libr34e.so"));
    let main = s.out_file("main.c");
    fs::write(
        &main,
        "int r34e(void);\nint main(void) { return r34e(); }\n",
    )
    .unwrap();
    let helper = s.out_file("helper");
    tool("cc")
        .arg("-o")
        .arg(&helper)
        .arg(&main)
        .arg(format!("-L{}", mine.display()))
        .arg("-lr34e")
        .succeeds();
    s.plugin(
        "secrets",
        "p",
        &format!(
            "[ \"$1\" = fingerprint ] && echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' && exit 0\n\
             '{}' || exit 1\n/usr/bin/touch '{}'\necho '{{\"result\": {{}}}}'",
            helper.display(),
            ran.display()
        ),
    );
    let owner = format!("belongs to uid {}", intruder.uid);
    for list in [
        format!("/usr/lib;{}", theirs.display()),
        format!("{};/usr/lib", theirs.display()),
        format!("/usr/lib:/lib;{}", theirs.display()),
    ] {
        let env = format!("LD_LIBRARY_PATH={list}");
        plugctl(&s)
            .args(["secret", "fetch", "p", "x", "--env", "PATH=/usr/bin:/bin"])
            .args(["--env", &env])
            .fails_with(Exit::Failure)
            .stderr_has(&format!(
                "LD_LIBRARY_PATH names {:?}",
                theirs.display().to_string()
            ))
            .stderr_has(&owner);
        let dry: Value = plugctl(&s)
            .args(["--json", "secret", "fetch", "p", "x", "--dry-run"])
            .args(["--env", &env])
            .succeeds()
            .json();
        assert!(
            dry["calls"][0]["refused"]
                .as_str()
                .unwrap_or_default()
                .contains(&owner),
            "{env}: {dry:#}"
        );
        assert!(
            !pwned.exists(),
            "{env}: another user's library ran as root in the plugin"
        );
        assert!(!ran.exists(), "{env}: the plugin ran");
    }
    // Root's directories, however the list is separated, pass: the
    // program finds its library after the `;`.
    plugctl(&s)
        .args(["secret", "fetch", "p", "x", "--env", "PATH=/usr/bin:/bin"])
        .args([
            "--env",
            &format!("LD_LIBRARY_PATH=/usr/lib;{}", mine.display()),
        ])
        .succeeds();
    assert!(ran.exists(), "the plugin ran with root's libraries");
    assert!(!pwned.exists());
}

/// A fingerprint that fails is told how to see it fail by hand: `env -i
/// CPI_OPERATION=fingerprint PROGRAM fingerprint`, in `validate`'s and
/// `test`'s reports. The program's path went in as it was, so that a
/// plugin file named `x;touch pwned` in a directory handed to `validate`
/// (a checkout, a tarball unpacked as root) made the operator who pasted
/// it run `touch pwned` as root. The path is one shell word there, and
/// the pasted command runs the plugin itself.
#[test]
fn the_command_that_shows_a_failing_fingerprint_runs_nothing_a_file_name_holds() {
    let s = Rig::new();
    let ran = s.out_file("ran");
    let name = "x;touch pwned";
    s.plugin(
        "secrets",
        name,
        &format!("/usr/bin/touch '{}'\nexit 3", ran.display()),
    );
    for args in [
        vec!["validate"],
        vec!["test", "secrets", name],
        vec!["--json", "validate"],
    ] {
        let out = args.iter().fold(plugctl(&s), |run, a| run.arg(a)).output();
        let shown = String::from_utf8_lossy(&out.stdout);
        let command = suggested(&shown, "env -i ");
        let _ = fs::remove_file(&ran);
        // The command fails as the fingerprint does (exit 3).
        let status = s
            .command("/bin/sh")
            .args(["-c", &format!("{command}; [ $? -eq 3 ]")])
            .current_dir(&s.out)
            .status()
            .unwrap();
        assert!(
            !s.out.join("pwned").exists(),
            "{args:?}: pasting `{command}` ran what the plugin's file name holds"
        );
        assert!(
            status.success() && ran.exists(),
            "{args:?}: pasting `{command}` did not run the plugin"
        );
    }
}

/// A plugin recorded under a plugin directory plugctl no longer reads is
/// unhealthy with a reason that says how to forget it, `plugctl plugin
/// forget FAMILY NAME`, kept in the registry and shown by `plugin list`.
/// The name went in as it was, so that a plugin file named
/// `x;touch pwned` (a tarball unpacked as root) made the operator who
/// pasted it run `touch pwned` as root. The family and the name are shell
/// words there, as in every other command plugctl suggests; and the
/// advice says what forget needs first (it refuses a plugin whose file is
/// still there), where it read as if forget would do it then.
#[test]
fn the_forget_advice_for_a_plugin_of_another_directory_runs_nothing_its_name_holds() {
    let s = Rig::new();
    let name = "x;touch pwned";
    s.hv_ok(name, "1.0.0");
    plugctl(&s).args(["fingerprint"]).succeeds();
    let other = s.root().join("other-plugins");
    make_dir(&other);
    let shown = plugctl(&s)
        .args(["--host-volume-plugin-dir"])
        .arg(&other)
        .arg("fingerprint")
        .fails_with(Exit::Failure)
        .stdout();
    assert!(shown.contains("which plugctl no longer reads"), "{shown}");
    // forget refuses a plugin whose file is still there: the advice works
    // once it is gone, as it says.
    assert!(shown.contains("once the file there is gone"), "{shown}");
    fs::remove_file(s.plugins.join("host-volume").join(name)).unwrap();
    paste_with(
        &s,
        &suggested(&shown, "plugctl plugin forget"),
        &[("PLUGCTL_HOST_VOLUME_PLUGIN_DIR", other.as_os_str())],
    );
    plugctl(&s)
        .args(["plugin", "list"])
        .succeeds()
        .stdout_lacks(name);
}

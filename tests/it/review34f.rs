//! A sixth fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after the first five rounds
//! (review34.rs to review34e.rs): each test here is an attack that found a
//! way through.

use std::fs;

use crate::common::*;

/// bash reads `BASH_ENV` after parameter expansion, command substitution
/// and arithmetic expansion (bash(1), INVOCATION). The gate refused a `$`
/// in a path, but a command substitution in backquotes needs none:
/// `/`cmd`` is an absolute path whose first component is not there, in
/// `/`, which only root can add to, so it passed, and bash ran `cmd` as
/// root before the plugin's first line; and a backslash before a line
/// break, which the expansion removes, hid a `..` that took bash to
/// another user's file. `ENV` is expanded the same way.
#[test]
fn bash_env_never_runs_what_its_expansion_names() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let pwned = s.out_file("pwned");
    let ran = s.out_file("ran");
    s.file(
        "secrets",
        "p",
        &format!(
            "#!/bin/bash\n\
             [ \"$1\" = fingerprint ] && echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' && exit 0\n\
             /usr/bin/touch '{}'\necho '{{\"result\": {{}}}}'\n",
            ran.display()
        ),
        0o755,
    );
    // Their start-up file, reached through a backslash and a line break
    // bash removes: the gate read `/usr\<newline>` as a name not there
    // in `/`, bash reads `/usr/../their/rc`.
    let theirs = s.root().join("theirs");
    make_dir(&theirs);
    let their_rc = theirs.join("rc");
    fs::write(&their_rc, format!("/usr/bin/touch '{}'\n", pwned.display())).unwrap();
    intruder.own(&theirs);
    intruder.own(&their_rc);
    let through = format!("/usr\\\n/..{}", their_rc.display());
    for (key, value) in [
        ("BASH_ENV", through.clone()),
        ("BASH_ENV", format!("/`/usr/bin/touch {}`", pwned.display())),
        ("ENV", format!("/`/usr/bin/touch {}`", pwned.display())),
        ("ENV", through),
    ] {
        let env = format!("{key}={value}");
        plugctl(&s)
            .args(["secret", "fetch", "p", "x", "--env", "PATH=/usr/bin:/bin"])
            .args(["--env", &env])
            .fails_with(Exit::Failure)
            .stderr_has(&format!(
                "its environment's {key} holds a `$`, a backquote or a backslash, which the \
                 shell expands"
            ));
        assert!(
            !pwned.exists(),
            "{env:?}: code of another user's ran as root"
        );
        assert!(!ran.exists(), "{env:?}: the plugin ran");
    }
    // A plain path of root's still passes.
    let rc = s.out_file("rc");
    fs::write(&rc, ": nothing\n").unwrap();
    plugctl(&s)
        .args(["secret", "fetch", "p", "x", "--env", "PATH=/usr/bin:/bin"])
        .args(["--env", &format!("BASH_ENV={}", rc.display())])
        .succeeds();
    assert!(ran.exists(), "the plugin ran with root's BASH_ENV");
}

/// A path in a plugin's environment with a `..` is refused. The gate
/// follows links before a `..` as the kernel does, and judges a path
/// whose first name is not there by the directory it would be made in;
/// Python takes `..` away as text when it builds its module path, so that
/// `PYTHONPATH=/nothing/../their/dir` passed as a name not there in `/`,
/// and Python imported their module as root.
#[test]
fn a_dot_dot_python_takes_away_as_text_never_reaches_another_users_modules() {
    let Some(intruder) = intruder() else { return };
    let python = std::path::Path::new("/usr/bin/python3");
    if !python.exists() {
        skip_unless_ci("needs /usr/bin/python3 to import a module");
        return;
    }
    let s = Rig::new();
    let pwned = s.out_file("pwned");
    let ran = s.out_file("ran");
    let theirs = s.root().join("theirs");
    make_dir(&theirs);
    let module = theirs.join("r34fmod.py");
    fs::write(
        &module,
        format!("open({:?}, 'w').close()\n", pwned.display().to_string()),
    )
    .unwrap();
    intruder.own(&theirs);
    intruder.own(&module);
    s.plugin(
        "secrets",
        "p",
        &format!(
            "[ \"$1\" = fingerprint ] && echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' && exit 0\n\
             {} -c 'import r34fmod' 2>/dev/null\n/usr/bin/touch '{}'\necho '{{\"result\": {{}}}}'",
            python.display(),
            ran.display()
        ),
    );
    for list in [
        format!("/plugctl-nothing-here/..{}", theirs.display()),
        format!("/usr/lib:/plugctl-nothing-here/../..{}", theirs.display()),
    ] {
        let env = format!("PYTHONPATH={list}");
        plugctl(&s)
            .args(["secret", "fetch", "p", "x", "--env", "PATH=/usr/bin:/bin"])
            .args(["--env", &env])
            .fails_with(Exit::Failure)
            .stderr_has("its environment's PYTHONPATH names \"/plugctl-nothing-here/..")
            .stderr_has("with a `..`, which a reader such as Python");
        assert!(!pwned.exists(), "{env}: another user's module ran as root");
        assert!(!ran.exists(), "{env}: the plugin ran");
    }
    // Root's own directory, named plainly, passes.
    plugctl(&s)
        .args(["secret", "fetch", "p", "x", "--env", "PATH=/usr/bin:/bin"])
        .args(["--env", "PYTHONPATH=/usr/lib"])
        .succeeds();
    assert!(ran.exists(), "the plugin ran with root's PYTHONPATH");
    assert!(!pwned.exists());
}

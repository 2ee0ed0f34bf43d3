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

/// A path through a "magic" link of `/proc` is refused. The gate followed
/// `/proc/PID/root` by its text, `/`, and so judged the node's own
/// directories, while the kernel follows it into that process's mount
/// namespace: for a root process of a container (here, a root shell in a
/// mount namespace of its own with a file system over `/usr/local/bin`),
/// `PATH=/proc/PID/root/usr/local/bin` passed as root's `/usr/local/bin`
/// and the plugin ran the program another user put in the container's.
#[test]
fn a_magic_link_of_proc_never_passes_for_the_directory_its_text_names() {
    let Some(intruder) = intruder() else { return };
    if !tool_available("unshare", "a mount namespace of its own") {
        return;
    }
    let s = Rig::new();
    let pwned = s.out_file("pwned");
    let ran = s.out_file("ran");
    struct Killed(std::process::Child);
    impl Drop for Killed {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut boxed = std::process::Command::new("unshare")
        .args(["-m", "--propagation", "private", "sh", "-c"])
        .arg(format!(
            "mount -t tmpfs r34f /usr/local/bin || exit 1\n\
             printf '#!/bin/sh\\n/usr/bin/touch {pwned}\\n' > /usr/local/bin/r34ftool\n\
             chmod 755 /usr/local/bin/r34ftool\n\
             chown {uid} /usr/local/bin /usr/local/bin/r34ftool\n\
             echo ready\nexec sleep 120",
            pwned = pwned.display(),
            uid = intruder.uid
        ))
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = boxed.stdout.take().unwrap();
    let boxed = Killed(boxed);
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line).unwrap();
    if line.trim() != "ready" {
        skip_unless_ci("cannot mount a file system in a mount namespace of its own");
        return;
    }
    s.plugin(
        "secrets",
        "p",
        &format!(
            "[ \"$1\" = fingerprint ] && echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' && exit 0\n\
             r34ftool\n/usr/bin/touch '{}'\necho '{{\"result\": {{}}}}'",
            ran.display()
        ),
    );
    let root = format!("/proc/{}/root", boxed.0.id());
    let env = format!("PATH={root}/usr/local/bin:/usr/bin:/bin");
    plugctl(&s)
        .args(["secret", "fetch", "p", "x", "--env", &env])
        .fails_with(Exit::Failure)
        .stderr_has(&format!(
            "{root}: a link of /proc, which the kernel follows"
        ));
    drop(boxed);
    assert!(
        !pwned.exists(),
        "a program in another mount namespace's /usr/local/bin ran as root"
    );
    assert!(!ran.exists(), "the plugin ran");
    // The plain links of /proc (`self`, a relative name) are followed as
    // any other: plugctl's own task directory is root's.
    plugctl(&s)
        .args(["secret", "fetch", "p", "x"])
        .args(["--env", "PATH=/proc/self/task:/usr/bin:/bin"])
        .succeeds();
    assert!(ran.exists(), "the plugin ran");
    assert!(!pwned.exists());
}

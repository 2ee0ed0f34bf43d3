//! Round 17 of the fresh-eyes attack on issue #34 ("safe to consume, safe
//! to run"), through the real binary, after review34.rs to review34w.rs,
//! aimed at what plugctl runs: each test here is an attack that found a
//! way through.

use std::fs;

use crate::common::*;

/// A secrets plugin in sh: its fingerprint, and `{"A": "b"}`.
const SH_BODY: &str = "[ \"$1\" = fingerprint ] && \
                       echo '{\"type\": \"secrets\", \"version\": \"1.0.0\"}' && exit 0\n\
                       echo '{\"result\": {\"A\": \"b\"}}'\n";

/// Round 16 judged every word a `#!` line hands its program that names a
/// program by `PATH` (`#!/usr/bin/env -S nice python3`), on the plugin's
/// `PATH`. A word that is `env` itself with a `NAME=VALUE` after it, or
/// the option `-SNAME=VALUE`, changes that `PATH` for the words after it,
/// and an option such as `--chdir=DIR` or unshare's `--root=DIR` changes
/// where they are found: `#!/usr/bin/env -S env -SPATH=/tmp/x sh` had the
/// nested env run another user's `sh` from a sticky directory as root,
/// while plugctl judged `/bin/sh`; `--chdir=/tmp/x PATH=. sh` the same
/// through the working directory. A nested env's settings are judged as
/// the plugin's environment is, and a directory an option names as one
/// the plugin searches; a line whose settings pass still runs.
#[test]
fn what_a_nested_env_or_an_option_makes_a_lines_program_run_is_judged() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let build = sticky_dir(&s, "build");
    let pwned = s.out_file("pwned");
    let theirs = s.out_file("sh");
    fs::write(
        &theirs,
        format!(
            "#!/bin/sh\necho ran > '{}'\nexec /bin/sh \"$@\"\n",
            pwned.display()
        ),
    )
    .unwrap();
    intruder.sh(
        &s,
        &format!(
            "cp '{}' '{dir}/sh' && chmod 755 '{dir}/sh'",
            theirs.display(),
            dir = build.display()
        ),
    );
    let b = build.display();
    let lines = [
        (
            "glued",
            format!("#!/usr/bin/env -S env -SPATH={b} sh"),
            "PATH",
        ),
        (
            "nested",
            format!("#!/usr/bin/env -S nice env PATH={b} sh"),
            "PATH",
        ),
        (
            "chdir",
            format!("#!/usr/bin/env -S env --chdir={b} PATH=. sh"),
            "--chdir",
        ),
        (
            "empty",
            format!("#!/usr/bin/env -S nice env --chdir={b} PATH= sh"),
            "--chdir",
        ),
    ];
    for (name, line, _) in &lines {
        s.file("secrets", name, &format!("{line}\n{SH_BODY}"), 0o755);
    }
    for (name, _, named) in &lines {
        let fetched = plugctl(&s).args(["secret", "fetch", name, "x"]).output();
        assert!(!pwned.exists(), "another user's sh ran as root ({name})");
        assert_eq!(
            fetched.status.code(),
            Some(Exit::Failure.code()),
            "{name}: {fetched:?}"
        );
        let refused = String::from_utf8_lossy(&fetched.stderr);
        assert!(
            refused.contains("hands its program")
                && refused.contains(named)
                && refused.contains(&build.display().to_string())
                && refused.contains("a sticky directory others may add files to"),
            "{name}: {refused}"
        );
    }
    plugctl(&s)
        .args(["validate"])
        .fails_with(Exit::Failure)
        .stdout_has("hands its program");
    assert!(!pwned.exists(), "another user's sh ran as root");
    // Settings that pass: the nested env's PATH is searched, and runs.
    for (name, line) in [
        ("fine", "#!/usr/bin/env -S nice env PATH=/usr/bin:/bin sh"),
        (
            "fine-glued",
            "#!/usr/bin/env -S env -SPATH=/usr/bin:/bin sh",
        ),
        (
            "fine-option",
            "#!/usr/bin/env -S timeout --kill-after=5 10 sh",
        ),
    ] {
        s.file("secrets", name, &format!("{line}\n{SH_BODY}"), 0o755);
        plugctl(&s)
            .args(["secret", "fetch", name, "x"])
            .succeeds()
            .stdout_has("A=b");
    }
}

/// The `PATH` a nested env sets is where the words after it are found for
/// every check of what runs, not only for the gate's: Python's search
/// from where it is (a prefix above it, `pyvenv.cfg` beside it) was
/// checked on the `python3` of the plugin's own `PATH`, so `#!/usr/bin/env
/// -S nice env PATH=<root's directory below /tmp> python3`, once that
/// `PATH` was judged, would have had root's copy of Python there import
/// another user's `encodings` from the sticky directory above it.
#[test]
fn a_nested_envs_path_is_where_pythons_own_search_is_checked() {
    let Some(intruder) = intruder() else { return };
    let Ok(real) = fs::canonicalize("/usr/bin/python3") else {
        skip_unless_ci("no /usr/bin/python3 to copy");
        return;
    };
    let version = real.file_name().unwrap().to_string_lossy().into_owned();
    let s = Rig::new();
    let shared = sticky_dir(&s, "shared");
    let home = shared.join("x");
    make_dir(&home);
    fs::copy(&real, home.join("python3")).unwrap();
    let pwned = s.out_file("pwned");
    intruder.sh(
        &s,
        &format!(
            "mkdir -p '{lib}/encodings' && touch '{lib}/os.py' && \
             printf '%s\\n' \"open('{pwned}', 'w').write('ran')\" > '{lib}/encodings/__init__.py'",
            lib = shared.join("lib").join(&version).display(),
            pwned = pwned.display(),
        ),
    );
    let body = "import json\nprint(json.dumps({'version': '1.0.0'}))\n";
    s.file(
        "host-volume",
        "nested",
        &format!(
            "#!/usr/bin/env -S nice env PATH={} python3\n{body}",
            home.display()
        ),
        0o755,
    );
    let fingerprint = plugctl(&s).args(["fingerprint", "nested"]).output();
    assert!(!pwned.exists(), "another user's encodings ran as root");
    let shown = String::from_utf8_lossy(&fingerprint.stdout);
    assert!(
        fingerprint.status.code() == Some(Exit::Failure.code())
            && shown.contains("unhealthy")
            && shown.contains(&format!(
                "{} above it is a sticky directory others may add files to",
                shared.display()
            )),
        "{fingerprint:?}"
    );
    // The same line naming the system's directory runs.
    s.file(
        "host-volume",
        "nested",
        &format!("#!/usr/bin/env -S nice env PATH=/usr/bin python3\n{body}"),
        0o755,
    );
    plugctl(&s)
        .args(["fingerprint", "nested"])
        .succeeds()
        .stdout_has("healthy");
}

/// Linux reads a `#!` line from a buffer of 256 bytes; with no newline
/// there it writes its NUL on the buffer's last byte, so a line of 256
/// bytes or more is 255 to the kernel. plugctl read 256: the line
/// `#!/usr/bin/nice <spaces><sticky>/shX`, its `X` the 256th byte, had
/// plugctl judge root's `shX` there while nice ran another user's `sh`
/// beside it as root. The line is read as the kernel cuts it.
#[test]
fn a_shebang_line_past_the_kernels_buffer_is_cut_where_the_kernel_cuts_it() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let shared = sticky_dir(&s, "shared");
    let pwned = s.out_file("pwned");
    let roots = shared.join("shX");
    fs::write(&roots, "#!/bin/sh\nexec /bin/sh \"$@\"\n").unwrap();
    fs::set_permissions(&roots, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    intruder.sh(
        &s,
        &format!(
            "printf '#!/bin/sh\\necho ran > %s\\nexec /bin/sh \"$@\"\\n' '{}' > '{dir}/sh' && \
             chmod 755 '{dir}/sh'",
            pwned.display(),
            dir = shared.display()
        ),
    );
    let head = "#!/usr/bin/nice";
    let word = shared.join("sh").display().to_string();
    assert!(
        head.len() + word.len() < 255,
        "the rig's path is short enough"
    );
    let line = format!("{head}{}{word}X", " ".repeat(255 - head.len() - word.len()));
    // The X is the 256th byte (the rig's random path may hold an X of its own).
    assert_eq!(line.len(), 256, "{line}");
    s.file("secrets", "long", &format!("{line}\n{SH_BODY}"), 0o755);
    let fetched = plugctl(&s).args(["secret", "fetch", "long", "x"]).output();
    assert!(!pwned.exists(), "another user's sh ran as root");
    assert_eq!(
        fetched.status.code(),
        Some(Exit::Failure.code()),
        "{fetched:?}"
    );
    let refused = String::from_utf8_lossy(&fetched.stderr);
    assert!(
        refused.contains(&word) && refused.contains("belongs to uid"),
        "the refusal names the program the kernel runs: {refused}"
    );
    // Root's own sh there: the line runs.
    fs::remove_file(shared.join("sh")).unwrap();
    fs::copy(&roots, shared.join("sh")).unwrap();
    plugctl(&s)
        .args(["secret", "fetch", "long", "x"])
        .succeeds()
        .stdout_has("A=b");
}

/// The kernel takes a `#!` line's argument as a C string: it trims blanks
/// only before the line's end, so in `#!/usr/bin/nice /x/sh \0` the
/// argument is `/x/sh ` with its space. plugctl ended the line at the NUL
/// and trimmed it: it judged root's `sh` in a sticky directory while nice
/// ran another user's `sh ` beside it as root. The line is read as the
/// kernel reads it, and the file of that name is judged.
#[test]
fn a_blank_before_a_nul_in_a_shebang_line_is_the_kernels_argument() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let shared = sticky_dir(&s, "shared");
    let pwned = s.out_file("pwned");
    fs::copy("/bin/sh", shared.join("sh")).unwrap();
    intruder.sh(
        &s,
        &format!(
            "printf '#!/bin/sh\\necho ran > %s\\nexec /bin/sh \"$@\"\\n' '{}' > '{dir}/sh ' && \
             chmod 755 '{dir}/sh '",
            pwned.display(),
            dir = shared.display()
        ),
    );
    let word = shared.join("sh").display().to_string();
    s.file(
        "secrets",
        "nul",
        &format!("#!/usr/bin/nice {word} \0\n{SH_BODY}"),
        0o755,
    );
    let fetched = plugctl(&s).args(["secret", "fetch", "nul", "x"]).output();
    assert!(!pwned.exists(), "another user's `sh ` ran as root");
    assert_eq!(
        fetched.status.code(),
        Some(Exit::Failure.code()),
        "{fetched:?}"
    );
    let refused = String::from_utf8_lossy(&fetched.stderr);
    assert!(
        refused.contains(&format!("{word} ")) && refused.contains("belongs to uid"),
        "the refusal names the program the kernel runs: {refused}"
    );
    // Without the blank, root's sh runs.
    s.file(
        "secrets",
        "nul",
        &format!("#!/usr/bin/nice {word}\0\n{SH_BODY}"),
        0o755,
    );
    plugctl(&s)
        .args(["secret", "fetch", "nul", "x"])
        .succeeds()
        .stdout_has("A=b");
}

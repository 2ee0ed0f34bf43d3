//! An interpreter that finds its own library from where it is, installed
//! below a directory others may add files to.

use std::fs;

use crate::common::*;

/// The tenth review refused a Python or Node.js plugin whose own directory
/// (for Node.js, any above it) is sticky and others may write, where
/// anyone could add a module it imports. The interpreter itself searches
/// from where it is too: Python takes as its prefix the first directory
/// above it that holds `lib/python3.X/os.py` (or a `pyvenv.cfg` beside it
/// or one level up) and imports its `encodings` from there before any
/// script runs; Node.js loads global modules from `<prefix>/lib/node`. A
/// root-owned interpreter of root's, copied below a sticky directory such
/// as `/tmp` (which the gate lets pass on the way to a file), ran another
/// user's `encodings` as root. Such an interpreter is refused, naming the
/// directory; the same Python in `/usr/bin` runs.
#[test]
fn an_interpreter_below_a_sticky_directory_never_loads_another_users_library() {
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
        "copied",
        &format!("#!{}\n{body}", home.join("python3").display()),
        0o755,
    );
    s.file(
        "host-volume",
        "system",
        &format!("#!/usr/bin/python3\n{body}"),
        0o755,
    );
    let why = format!(
        "{} above it is a sticky directory others may add files to (mode 1777)",
        shared.display()
    );
    plugctl(&s)
        .args(["fingerprint", "copied"])
        .fails_with(Exit::Failure)
        .stdout_has("unhealthy")
        .stdout_has(&why);
    plugctl(&s)
        .args(["validate"])
        .fails_with(Exit::Failure)
        .stdout_has(&why);
    assert!(!pwned.exists(), "another user's encodings ran as root");
    plugctl(&s)
        .args(["fingerprint", "system"])
        .succeeds()
        .stdout_has("healthy");
}

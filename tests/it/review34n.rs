//! A twelfth fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after the first eleven rounds
//! (review34.rs to review34m.rs, pin_bounds.rs, interpreter_home.rs,
//! working_dir.rs, orphaned_stop.rs), aimed at what rounds 10 and 11 added:
//! each test here is an attack that found a way through.

use std::fs;
use std::os::unix::fs::symlink;

use crate::common::*;

/// Round 11 refused a Python interpreter copied below a sticky directory,
/// judging the directories above the file it really is, its links
/// resolved. Python resolves its links to find its standard library, but
/// not to find a virtual environment: it reads `pyvenv.cfg` beside the
/// path it was started by, or one level up, and takes that file's
/// directory as its prefix, whose `site-packages` `.pth` files it runs.
/// A link of root's to `/usr/bin/python3`, in a directory of root's just
/// below a sticky one (`/tmp/bin/python3`), passed; another user's
/// `/tmp/pyvenv.cfg` and a `.pth` beside it then ran as root for
/// fingerprint and validate. Such a path is refused as the copy is, naming
/// the sticky directory; the link itself, outside any, still runs.
#[test]
fn a_link_to_python_below_a_sticky_directory_never_reads_another_users_venv() {
    let Some(intruder) = intruder() else { return };
    let Ok(real) = fs::canonicalize("/usr/bin/python3") else {
        skip_unless_ci("no /usr/bin/python3 to link to");
        return;
    };
    let version = real.file_name().unwrap().to_string_lossy().into_owned();
    let s = Rig::new();
    let shared = sticky_dir(&s, "shared");
    let bin = shared.join("bin");
    make_dir(&bin);
    symlink("/usr/bin/python3", bin.join("python3")).unwrap();
    let safe = s.root().join("safe");
    make_dir(&safe);
    symlink("/usr/bin/python3", safe.join("python3")).unwrap();
    let pwned = s.out_file("pwned");
    intruder.sh(
        &s,
        &format!(
            "printf 'home = /usr/bin\\ninclude-system-site-packages = true\\n' > '{cfg}' && \
             mkdir -p '{site}' && \
             printf '%s\\n' \"import os; open('{pwned}', 'w').write('ran')\" > '{site}/x.pth'",
            cfg = shared.join("pyvenv.cfg").display(),
            site = shared
                .join("lib")
                .join(&version)
                .join("site-packages")
                .display(),
            pwned = pwned.display(),
        ),
    );
    let body = "import json\nprint(json.dumps({'version': '1.0.0'}))\n";
    s.file(
        "host-volume",
        "linked",
        &format!("#!{}\n{body}", bin.join("python3").display()),
        0o755,
    );
    s.file(
        "host-volume",
        "safe",
        &format!("#!{}\n{body}", safe.join("python3").display()),
        0o755,
    );
    let why = format!(
        "{} above it is a sticky directory others may add files to (mode 1777)",
        shared.display()
    );
    plugctl(&s)
        .args(["fingerprint", "linked"])
        .fails_with(Exit::Failure)
        .stdout_has("unhealthy")
        .stdout_has(&why);
    plugctl(&s)
        .args(["validate"])
        .fails_with(Exit::Failure)
        .stdout_has(&why);
    assert!(
        !pwned.exists(),
        "another user's pyvenv.cfg and .pth ran as root"
    );
    plugctl(&s)
        .args(["fingerprint", "safe"])
        .succeeds()
        .stdout_has("healthy");
}

/// Round 11 judged the `NAME=VALUE` pairs of a `#!/usr/bin/env -S` line,
/// splitting it at spaces, tabs, CR, LF and form feeds. GNU env splits a
/// `-S` string at a vertical tab too: to plugctl,
/// `PATH=/usr/bin:/bin<VT>PATH=<their dir> bash` was one `PATH` whose last
/// element, `/bin<VT>PATH=<their dir>`, did not exist, and `bash` was
/// found in `/usr/bin` and judged; env set the second `PATH` and ran the
/// other user's `bash` from their directory, as root. The line is split as
/// env splits it: the `bash` env finds on the second `PATH` is judged and
/// refused.
#[test]
fn an_env_line_split_at_a_vertical_tab_is_judged_as_env_splits_it() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let canary = s.out_file("canary");
    let theirs = s.root().join("theirs");
    make_dir(&theirs);
    intruder.own(&theirs);
    intruder.sh(
        &s,
        &format!(
            "printf '#!/bin/sh\\n: > {c}\\n' > {d}/bash && chmod 755 {d}/bash",
            c = canary.display(),
            d = theirs.display()
        ),
    );
    let body = "[ \"$1\" = fingerprint ] && echo '{\"type\": \"secrets\", \"version\": \"1.0.0\"}' && exit 0\n\
         echo '{\"result\": {\"A\": \"b\"}}'\n";
    s.file(
        "secrets",
        "vtab",
        &format!(
            "#!/usr/bin/env -S PATH=/usr/bin:/bin\x0bPATH={} bash\n{body}",
            theirs.display()
        ),
        0o755,
    );
    plugctl(&s)
        .args(["secret", "fetch", "vtab", "x"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has(&format!("its interpreter {}/bash", theirs.display()))
        .stderr_has("is not trusted");
    assert!(
        !canary.exists(),
        "their bash ran as root through the #! line's second PATH"
    );
    plugctl(&s)
        .args(["fingerprint", "--type", "secrets", "vtab"])
        .fails_with(Exit::Failure)
        .stdout_has(&format!("its interpreter {}/bash", theirs.display()));
    assert!(!canary.exists(), "their bash ran as root");
}

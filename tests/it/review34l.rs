//! An eleventh fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after the first ten rounds
//! (review34.rs to review34k.rs, pin_bounds.rs): each test here is an
//! attack that found a way through.

use std::fs;
use std::path::Path;

use crate::common::*;

/// Whether debconf's `debconf-communicate` is here (Debian's `debconf`,
/// of priority required: on every Debian node).
fn debconf_available() -> bool {
    let ok = Path::new("/usr/bin/debconf-communicate").exists()
        && Path::new("/var/cache/debconf").is_dir();
    if !ok {
        skip_unless_ci(
            "debconf-communicate is not installed; what debconf runs after an eval is not checked",
        );
    }
    ok
}

/// Debian's package tools read their environment, and the hooks table
/// named none of them, though every Debian node has them and a root
/// script that evals `--format env` output is the kind that installs a
/// package next. `DEBIAN_FRONTEND` is pasted by debconf into Perl it
/// evaluates (`use Debconf::FrontEnd::$type`), so a store holding
/// `DEBIAN_FRONTEND='noninteractive (); system(...); #'` ran its command
/// as root at the next `apt-get install` of a package that asks a
/// question, `dpkg-reconfigure` or `debconf-communicate`; `APT_CONFIG`
/// names a configuration whose `APT::Update::Pre-Invoke` and
/// `DPkg::Pre-Invoke` commands apt runs; `DPKG_ADMINDIR` points dpkg at a
/// database whose maintainer scripts `dpkg --configure -a` runs; and
/// `DEBCONF_*` chooses debconf's configuration and the answers it gives.
/// They are refused in env and kv alike, and in a plugin's environment; a
/// `--allow-key DEBIAN_FRONTEND` shows the same script does run it.
#[test]
fn env_output_never_makes_debians_package_tools_run_what_the_store_names() {
    let s = Rig::new();
    let pwned = s.out_file("pwned");
    let frontend = format!(
        "noninteractive (); system(q{{id -u > {}}}); #",
        pwned.display()
    );
    let conf = s.out_file("apt.conf");
    fs::write(
        &conf,
        format!(
            "APT::Update::Pre-Invoke {{ \"id -u > {}\"; }};\n",
            pwned.display()
        ),
    )
    .unwrap();
    let keys = [
        "DEBIAN_FRONTEND",
        "APT_CONFIG",
        "DPKG_ADMINDIR",
        "DPKG_PAGER",
        "debconf_systemrc",
        "DEBCONF_DB_OVERRIDE",
    ];
    store_answering(
        &s,
        "store",
        &[
            ("DEBIAN_FRONTEND", frontend.clone()),
            ("APT_CONFIG", conf.display().to_string()),
            ("DPKG_ADMINDIR", s.root().display().to_string()),
            ("DPKG_PAGER", "sh -c id".into()),
            ("debconf_systemrc", conf.display().to_string()),
            ("DEBCONF_DB_OVERRIDE", "File{/srv/answers}".into()),
            ("TOKEN", "t0k3n".into()),
        ],
    );
    for format in ["env", "kv"] {
        let err = plugctl(&s)
            .args(["secret", "fetch", "store", "app", "--format", format])
            .fails_with(Exit::Failure)
            .stdout_empty()
            .stderr();
        for key in keys {
            assert!(
                err.contains(&format!("{key:?} would change")),
                "{format}, {key}: {err}"
            );
        }
        assert!(
            !err.contains("TOKEN"),
            "{format}: a plain key is no reason: {err}"
        );
    }
    // Nor does a plugin's own environment take them: a plugin that
    // installs or queries a package would run what they name.
    plugctl(&s)
        .args(["secret", "fetch", "store", "app"])
        .args(["--env", &format!("DEBIAN_FRONTEND={frontend}")])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has("DEBIAN_FRONTEND");
    plugctl(&s)
        .args(["secret", "fetch", "store", "app"])
        .args([
            "--env",
            &format!("APT_CONFIG={}", s.out_file("theirs").display()),
        ])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has("APT_CONFIG");

    if !debconf_available() {
        return;
    }
    store_answering(
        &s,
        "one",
        &[("DEBIAN_FRONTEND", frontend), ("TOKEN", "t0k3n".into())],
    );
    // debconf keeps its database in /var/cache/debconf: the script runs
    // in a mount namespace of its own, over a scratch one, so the node's
    // is never touched.
    let script = |allow: &str| {
        format!(
            "mount -t tmpfs debconf /var/cache/debconf || exit 9\n\
             vars=$(\"$0\" secret fetch one app --format env {allow}) || exit 7\n\
             eval \"$vars\"\n\
             echo 'GET debconf/priority' | debconf-communicate >/dev/null 2>&1\n\
             exit 0"
        )
    };
    let run = |allow: &str| {
        s.command("/usr/bin/unshare")
            .args(["-m", "/bin/bash", "-c"])
            .arg(script(allow))
            .arg(PLUGCTL)
            .output()
            .unwrap()
    };
    let refused = run("");
    assert_eq!(refused.status.code(), Some(7), "{}", stderr(&refused));
    assert!(
        !pwned.exists(),
        "debconf ran the store's DEBIAN_FRONTEND as root after an eval of env output"
    );
    // The same script with the key allowed: debconf does run it, so the
    // refusal above is what kept it from running.
    let allowed = run("--allow-key DEBIAN_FRONTEND");
    assert_eq!(allowed.status.code(), Some(0), "{}", stderr(&allowed));
    assert_eq!(
        fs::read_to_string(&pwned).unwrap_or_default().trim(),
        "0",
        "debconf never evaluated DEBIAN_FRONTEND here: the check above proves nothing"
    );
}

/// `#!/usr/bin/env -S NAME=VALUE ... X` hands `X` an environment of its
/// line's making, and plugctl judged only the caller's. A root-owned
/// plugin whose line reads `-S PATH=/usr/bin:/bin:<their dir> bash` had
/// its `bash` found in `/usr/bin` and judged fine, and every command it
/// then ran by name that `/usr/bin` lacks (`vault`) came from the other
/// user's directory, as root. The line's pairs are now judged as the
/// caller's are: the call, `validate` and `fingerprint` refuse it, and
/// root's own directories still run. (`-S -i bash`, which drops the
/// caller's `PATH`, leaves a bash that searches the working directory,
/// which is judged for every call.)
#[test]
fn an_env_line_that_sets_path_or_empties_the_environment_is_judged_as_the_callers() {
    let Some(intruder) = intruder() else {
        return;
    };
    let s = Rig::new();
    let canary = s.out_file("canary");
    let helper = "plugctl-review34l-helper";
    let theirs = s.root().join("theirs");
    make_dir(&theirs);
    intruder.own(&theirs);
    intruder.sh(
        &s,
        &format!(
            "printf '#!/bin/sh\\n: > {c}\\n' > {d}/{helper} && chmod 755 {d}/{helper}",
            c = canary.display(),
            d = theirs.display()
        ),
    );
    let body = format!(
        "[ \"$1\" = fingerprint ] && echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' && exit 0\n\
         if command -v {helper} >/dev/null; then {helper}; fi\n\
         echo '{{\"result\": {{\"A\": \"b\"}}}}'\n"
    );
    let plugin = |name: &str, line: &str| {
        s.file("secrets", name, &format!("{line}\n{body}"), 0o755);
    };
    plugin(
        "setpath",
        &format!(
            "#!/usr/bin/env -S PATH=/usr/bin:/bin:{} bash",
            theirs.display()
        ),
    );
    plugin("cleared", "#!/usr/bin/env -S -i bash");
    plugin("rootpath", "#!/usr/bin/env -S PATH=/usr/bin:/bin bash");

    // PATH set by the line: refused wherever plugctl runs from.
    plugctl(&s)
        .args(["secret", "fetch", "setpath", "x"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has("#! line")
        .stderr_has(&theirs.display().to_string());
    assert!(
        !canary.exists(),
        "their program ran as root through the #! line's PATH"
    );
    // `-i` drops the caller's PATH: from their directory, refused.
    plugctl(&s)
        .current_dir(&theirs)
        .args(["secret", "fetch", "cleared", "x"])
        .args(["--env", "PATH=/usr/bin:/bin"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has("working directory");
    assert!(
        !canary.exists(),
        "their program in the working directory ran as root"
    );
    // validate and fingerprint say the same of the line's PATH.
    plugctl(&s)
        .args(["validate"])
        .fails_with(Exit::Failure)
        .stdout_has("permissions.trusted")
        .stdout_has(&theirs.display().to_string());
    plugctl(&s)
        .args(["fingerprint", "--type", "secrets", "setpath"])
        .fails_with(Exit::Failure)
        .stdout_has("#! line");
    assert!(!canary.exists(), "their program ran as root");

    // Root's own: the line's PATH of root's directories runs, and `-i`
    // from a directory of root's runs.
    plugctl(&s)
        .args(["secret", "fetch", "rootpath", "x", "--format", "json"])
        .succeeds()
        .stdout_has("\"A\"");
    plugctl(&s)
        .args(["secret", "fetch", "cleared", "x", "--format", "json"])
        .args(["--env", "PATH=/usr/bin:/bin"])
        .succeeds()
        .stdout_has("\"A\"");
}

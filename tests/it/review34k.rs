//! A tenth fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after the first nine rounds
//! (review34.rs to review34i.rs): each test here is an attack that found a
//! way through.

use std::fs;
use std::path::Path;

use crate::common::*;

/// A secrets plugin for Node.js that uses a helper module when one is
/// installed, as a plugin may for an optional dependency.
fn node_plugin(dir: &Path, name: &str, shebang: &str) {
    make_dir(dir);
    let tmp = dir.join(format!(".{name}.tmp"));
    fs::write(
        &tmp,
        format!(
            "{shebang}\n\
             let helper = () => 'plain';\n\
             try {{ helper = require('tinyhelper'); }} catch (e) {{}}\n\
             if (process.argv[2] === 'fingerprint') {{\n\
             \x20 console.log(JSON.stringify({{type: 'secrets', version: '1.0.0'}}));\n\
             }} else {{\n\
             \x20 console.log(JSON.stringify({{result: {{A: helper()}}}}));\n\
             }}\n"
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&tmp, fs::Permissions::from_mode(0o755)).unwrap();
    fs::rename(&tmp, dir.join(name)).unwrap();
}

/// Node.js looks for what a script requires in `node_modules` of every
/// directory from the script's own up to `/`. The gate judged each of
/// those directories, and lets a sticky one (`/tmp`) pass, since others
/// can add entries there but not replace the plugin's: so a Node.js
/// plugin kept below `/tmp` (as the docs' own examples keep theirs) loaded
/// `/tmp/node_modules/<module>`, which any user can create, and ran its
/// code as root — for `secret fetch`, `fingerprint` and `validate` alike,
/// while `validate` reported nothing. A Node.js plugin with a sticky,
/// world-writable directory on its way up to `/` is now refused before it
/// starts, naming the directory; one without runs.
#[test]
fn a_node_plugin_below_a_sticky_directory_never_loads_another_users_module() {
    if !tool_available("node", "a Node.js plugin's module search") {
        return;
    }
    let Some(intruder) = intruder() else { return };
    // Outside /tmp, so that only the sticky directory made here is above
    // the attacked plugins, and nothing sticky is above the rig's own.
    let s = Rig::outside_tmp();
    let pwned = s.out_file("pwned");
    let shared = sticky_dir(&s, "shared");
    let theirs = shared.join("plugins");
    node_plugin(&theirs.join("secrets"), "direct", "#!/usr/bin/node");
    node_plugin(&theirs.join("secrets"), "via-env", "#!/usr/bin/env node");
    node_plugin(&s.plugins.join("secrets"), "mine", "#!/usr/bin/env node");

    // The other user's module, where Node.js looks for it.
    intruder.sh(
        &s,
        &format!(
            "mkdir -p '{dir}/node_modules/tinyhelper' && \
             printf '%s\\n' \"require('fs').writeFileSync('{pwned}', 'ran as ' + process.getuid());\" \
             \"module.exports = () => 'theirs';\" > '{dir}/node_modules/tinyhelper/index.js'",
            dir = shared.display(),
            pwned = pwned.display()
        ),
    );

    // A Node.js plugin with nothing sticky above it runs, and is what runs.
    plugctl(&s)
        .args(["secret", "fetch", "mine", "app/db"])
        .succeeds()
        .stdout_has("A=plain");

    let why = format!(
        "runs under Node.js, which loads the modules a script requires from node_modules in \
         every directory up to /, and {} is a sticky directory others may add files to \
         (mode 1777)",
        shared.display()
    );
    for name in ["direct", "via-env"] {
        plugctl(&s)
            .env("PLUGCTL_PLUGIN_DIR", &theirs)
            .args(["secret", "fetch", name, "app/db"])
            .fails_with(Exit::Failure)
            .stdout_empty()
            .stderr_has(&why);
        plugctl(&s)
            .env("PLUGCTL_PLUGIN_DIR", &theirs)
            .args([
                "secret",
                "fetch",
                name,
                "app/db",
                "--env",
                "PATH=/usr/bin:/bin",
            ])
            .fails_with(Exit::Failure)
            .stderr_has(&why);
    }
    plugctl(&s)
        .env("PLUGCTL_PLUGIN_DIR", &theirs)
        .args(["fingerprint"])
        .fails_with(Exit::Failure)
        .stdout_has(&why);
    plugctl(&s)
        .env("PLUGCTL_PLUGIN_DIR", &theirs)
        .args(["validate"])
        .fails_with(Exit::Failure)
        .stdout_has("permissions.trusted")
        .stdout_has(&why);
    assert!(
        !pwned.exists(),
        "another user's node_modules ran as root: {}",
        fs::read_to_string(&pwned).unwrap_or_default()
    );
}

/// Python puts the script's own directory first in `sys.path`, before
/// its standard library. The gate let a plugin directory that is sticky
/// and world-writable pass (others could add entries, not replace the
/// plugin, and a plugin must be root's), so another user's `json.py`
/// beside a Python plugin was what its `import json` ran, as root. A
/// Python plugin in such a directory is now refused before it starts,
/// naming the directory; the same plugin in a directory of root's runs.
#[test]
fn a_python_plugin_in_a_sticky_directory_never_imports_another_users_module() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let pwned = s.out_file("pwned");
    let body = "import sys, json\n\
                if sys.argv[1] == 'fingerprint':\n\
                \x20   print(json.dumps({'type': 'secrets', 'version': '1.0.0'}))\n\
                else:\n\
                \x20   print(json.dumps({'result': {'A': 'b'}}))\n";
    for shebang in ["#!/usr/bin/python3", "#!/usr/bin/env python3"] {
        let name = if shebang.contains("env") {
            "via-env"
        } else {
            "direct"
        };
        s.file("secrets", name, &format!("{shebang}\n{body}"), 0o755);
    }
    s.file(
        "host-volume",
        "mine",
        &format!(
            "#!/usr/bin/python3\n{}",
            body.replace("secrets", "host-volume")
        ),
        0o755,
    );
    let shared = s.plugins.join("secrets");
    fs::set_permissions(
        &shared,
        std::os::unix::fs::PermissionsExt::from_mode(0o1777),
    )
    .unwrap();
    intruder.sh(
        &s,
        &format!(
            "printf '%s\\n' \"open('{pwned}', 'w').write('ran')\" > '{dir}/json.py'",
            pwned = pwned.display(),
            dir = shared.display()
        ),
    );
    let why = format!(
        "runs under Python, which imports the modules a script names from the script's own \
         directory before its standard library, and {} is a sticky directory others may add \
         files to (mode 1777)",
        shared.display()
    );
    for name in ["direct", "via-env"] {
        plugctl(&s)
            .args(["secret", "fetch", name, "app/db"])
            .fails_with(Exit::Failure)
            .stdout_empty()
            .stderr_has(&why);
    }
    plugctl(&s)
        .args(["validate"])
        .fails_with(Exit::Failure)
        .stdout_has(&why);
    assert!(!pwned.exists(), "another user's json.py ran as root");
    // A Python plugin in a directory of root's runs.
    plugctl(&s)
        .args(["fingerprint", "mine"])
        .succeeds()
        .stdout_has("healthy");
}

/// Whether `python3 -m pip` runs here (Debian's python3-pip).
fn pip_available() -> bool {
    let ok = std::process::Command::new("/usr/bin/python3")
        .args(["-m", "pip", "--version"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|st| st.success());
    if !ok {
        skip_unless_ci("python3 -m pip does not run; what pip builds after an eval is not checked");
    }
    ok
}

/// pip takes every option of every command from `PIP_<OPTION>`, and the
/// table named only four of them (`PIP_CONFIG_FILE`, `PIP_INDEX_URL`,
/// `PIP_EXTRA_INDEX_URL`, `PIP_FIND_LINKS`). A store holding
/// `PIP_REQUIREMENT` (or `PIP_CONSTRAINT`, `PIP_EDITABLE`) was printed by
/// `--format env`, and the next `pip` the script ran as root — any
/// `pip install` or `pip download`, of anything — read that requirements
/// file too, and built the package it names: its `setup.py` ran as root.
/// The whole `PIP_*` family is now refused, in env and kv alike; a
/// `--allow-key PIP_REQUIREMENT` shows the same script does run it.
#[test]
fn env_output_never_makes_the_next_pip_build_what_the_store_names() {
    let s = Rig::new();
    let pwned = s.out_file("pwned");
    let pkg = s.root().join("their-pkg");
    make_dir(&pkg);
    fs::write(
        pkg.join("setup.py"),
        format!(
            "import os\nopen('{}', 'w').write('ran as %d\\n' % os.getuid())\n\
             from setuptools import setup\nsetup(name='theirs', version='1.0')\n",
            pwned.display()
        ),
    )
    .unwrap();
    let requirements = s.out_file("requirements.txt");
    fs::write(&requirements, format!("{}\n", pkg.display())).unwrap();
    let req = requirements.display().to_string();
    let keys = [
        "PIP_REQUIREMENT",
        "PIP_CONSTRAINT",
        "PIP_EDITABLE",
        "pip_src",
    ];
    store_answering(
        &s,
        "store",
        &[
            ("PIP_REQUIREMENT", req.clone()),
            ("PIP_CONSTRAINT", req.clone()),
            ("PIP_EDITABLE", pkg.display().to_string()),
            ("pip_src", "/srv".into()),
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
    // Nor does a plugin's own environment take one: a pip it runs
    // would build what the variable names.
    plugctl(&s)
        .args(["secret", "fetch", "store", "app"])
        .args(["--env", &format!("PIP_REQUIREMENT={req}")])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has("PIP_REQUIREMENT");

    if !pip_available() {
        return;
    }
    store_answering(
        &s,
        "one",
        &[("PIP_REQUIREMENT", req), ("TOKEN", "t0k3n".into())],
    );
    let script = |allow: &str| {
        format!(
            "vars=$(\"$0\" secret fetch one app --format env {allow}) || exit 7\n\
             eval \"$vars\"\n\
             /usr/bin/python3 -m pip download --no-index --no-deps --no-build-isolation \
             -d '{dl}' pip >/dev/null 2>&1\n\
             exit 0",
            dl = s.out_file("dl").display()
        )
    };
    let run = |allow: &str| {
        s.command("/bin/bash")
            .arg("-c")
            .arg(script(allow))
            .arg(PLUGCTL)
            .output()
            .unwrap()
    };
    let refused = run("");
    assert_eq!(refused.status.code(), Some(7), "{}", stderr(&refused));
    assert!(
        !pwned.exists(),
        "the store's package was built as root after an eval of env output"
    );
    // The same script with the key allowed: pip does build it, so the
    // refusal above is what kept it from running.
    let allowed = run("--allow-key PIP_REQUIREMENT");
    assert_eq!(allowed.status.code(), Some(0), "{}", stderr(&allowed));
    assert!(
        pwned.exists(),
        "pip never read PIP_REQUIREMENT here: the check above proves nothing"
    );
}

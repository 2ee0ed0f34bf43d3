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
         every directory up to /, and {} on that way is a sticky directory others may add \
         files to (mode 1777)",
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

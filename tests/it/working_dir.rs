//! The working directory a plugin inherits from plugctl, whatever its
//! `PATH`.

use crate::common::*;

/// A secrets plugin given a `PATH` of trusted directories had plugctl's
/// working directory left unjudged: bash no longer searches it for
/// commands, but what a plugin reads by a relative name still comes from
/// there. A `#!/bin/bash` plugin that sources an optional settings file
/// (`source plugin.env`, a name bash looks for on `PATH` and then in the
/// working directory), run by `secret fetch --env PATH=...` from `/tmp` or
/// another user's directory, ran that user's file as root (PHP's include
/// path, which starts with `.`, is the same). The working directory is
/// judged for every call that does not start in `/`, as it was for a
/// plugin without `PATH`; from a directory of root's the plugin runs.
#[test]
fn a_plugin_with_a_path_never_sources_the_working_directorys_files() {
    let Some(intruder) = intruder() else {
        return;
    };
    let s = Rig::new();
    let canary = s.out_file("canary");
    s.file(
        "secrets",
        "sourcing",
        "#!/bin/bash\n\
         [ \"$1\" = fingerprint ] && echo '{\"type\": \"secrets\", \"version\": \"1.0.0\"}' && exit 0\n\
         source plugin.env 2>/dev/null || true\n\
         echo '{\"result\": {\"A\": \"b\"}}'\n",
        0o755,
    );
    let sticky = sticky_dir(&s, "sticky");
    intruder.sh(
        &s,
        &format!(
            "printf ': > {c}\\n' > {d}/plugin.env",
            c = canary.display(),
            d = sticky.display()
        ),
    );
    let fetch = [
        "secret",
        "fetch",
        "sourcing",
        "x",
        "--env",
        "PATH=/usr/bin:/bin",
    ];
    plugctl(&s)
        .current_dir(&sticky)
        .args(fetch)
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has("PHP's include path starts with `.`")
        .stderr_has(&sticky.display().to_string());
    assert!(!canary.exists(), "their plugin.env ran as root");
    // Under strict the plugin starts in `/`: nothing of there is read.
    // From a directory of root's it runs as before.
    plugctl(&s).args(fetch).succeeds().stdout_has("A=b");
    assert!(!canary.exists());
}

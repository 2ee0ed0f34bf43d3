//! A thirteenth fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after review34.rs to review34o.rs,
//! aimed at what plugctl prints and what it runs: each test here is an
//! attack that found a way through.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use crate::common::*;

/// A path of a plugin's environment that does not exist yet passed when
/// the directory it would be made in was sticky but only its group, not
/// everyone, could write it (mode `1775`, which the gate passes on the way
/// to a file as it passes `/tmp`): `--env PATH=<that dir>/bin:/usr/bin`
/// was judged fine, and any member of the group who made `bin` after the
/// check, while the plugin started, had their `hostname` run as root in
/// its place. Such a path is refused as one in `/tmp` is, naming the
/// directory; made by the member before the call, it is refused for its
/// owner, as before.
#[test]
fn a_path_not_made_yet_in_a_sticky_directory_its_group_writes_is_refused() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let shared = s.root().join("shared");
    make_dir(&shared);
    nix::unistd::chown(&shared, Some(0.into()), Some(intruder.gid.into())).unwrap();
    fs::set_permissions(&shared, fs::Permissions::from_mode(0o1775)).unwrap();
    let theirs = shared.join("bin");
    s.file(
        "secrets",
        "host",
        "#!/bin/sh\n\
         [ \"$1\" = fingerprint ] && echo '{\"type\": \"secrets\", \"version\": \"1.0.0\"}' && exit 0\n\
         echo \"{\\\"result\\\": {\\\"HOST\\\": \\\"$(hostname)\\\"}}\"\n",
        0o755,
    );
    let path = format!("PATH={}:/usr/bin:/bin", theirs.display());
    plugctl(&s)
        .args(["secret", "fetch", "--env", &path, "host", "x"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has(&format!(
            "which does not exist, and any member of its group may create it in the sticky {} \
             (mode 1775)",
            shared.display()
        ));
    plugctl(&s)
        .args(["secret", "fetch", "--dry-run", "--env", &path, "host", "x"])
        .succeeds()
        .stderr_has("the real call would be refused")
        .stderr_has("any member of its group may create it");
    // What the member could do at any moment: make it theirs, with their
    // program in it.
    let canary = s.out_file("canary");
    intruder.sh(
        &s,
        &format!(
            "mkdir {d} && printf '#!/bin/sh\\n: > {c}\\necho theirs\\n' > {d}/hostname && \
             chmod 755 {d}/hostname",
            c = canary.display(),
            d = theirs.display()
        ),
    );
    plugctl(&s)
        .args(["secret", "fetch", "--env", &path, "host", "x"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has("its environment's PATH names");
    assert!(!canary.exists(), "their hostname ran as root");
    // A sticky directory only root may write gives no one else the name.
    fs::remove_dir_all(&theirs).unwrap();
    fs::set_permissions(&shared, fs::Permissions::from_mode(0o1755)).unwrap();
    plugctl(&s)
        .args(["secret", "fetch", "--env", &path, "host", "x"])
        .succeeds()
        .stdout_has("HOST=");
}

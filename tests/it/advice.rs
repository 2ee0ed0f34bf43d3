//! The advice a message gives names exactly what it is about: the plugin
//! `pin` should pin (its family with its name), a close name quoted as the
//! shell word it would be, the `chown` that fixes a link rather than what
//! the link points at.

use crate::common::*;

/// `--locked` refuses a plugin the lock file lacks and says to pin it. The
/// advice said `plugctl pin NAME`, which pins every family's plugin of
/// that name: a secrets plugin nobody reviewed, named as the host-volume
/// plugin the operator meant, was pinned with it. The advice names the
/// family.
#[test]
fn the_pin_plugctl_suggests_pins_only_the_plugin_it_refused() {
    let s = Rig::new();
    s.hv_ok("good", "1.0.0");
    plugctl(&s).args(["pin"]).succeeds();
    s.hv_ok("twin", "1.0.0");
    s.plugin(
        "secrets",
        "twin",
        "echo '{\"type\": \"secrets\", \"version\": \"1.0.0\"}'",
    );
    let shown = plugctl(&s)
        .args(["fingerprint", "--type", "host-volume", "--locked"])
        .fails_with(Exit::Failure)
        .stdout();
    let command = suggested(&shown, "plugctl pin");
    assert_eq!(command, "plugctl pin --type host-volume twin", "{shown}");
    paste(&s, &command);
    plugctl(&s)
        .args(["fingerprint", "--type", "host-volume", "--locked"])
        .succeeds();
    // The secrets plugin of the same name is still unpinned.
    plugctl(&s)
        .args(["fingerprint", "--type", "secrets", "--locked"])
        .fails_with(Exit::Failure)
        .stdout_has("`plugctl pin --type secrets twin`");
}

/// "did you mean NAME?" names a recorded plugin: as a shell word, quoted
/// when it needs it, as every command plugctl suggests does, so a name
/// with a space or a `;` reads as one name.
#[test]
fn did_you_mean_quotes_a_name_that_needs_it() {
    let s = Rig::new();
    s.hv_ok("my disk;x", "1.0.0");
    plugctl(&s).args(["fingerprint"]).succeeds();
    plugctl(&s)
        .args(["plugin", "show", "my disk;"])
        .fails_with(Exit::NotFound)
        .stderr_has("did you mean 'my disk;x'?");
    // A plain name stays as it is.
    s.hv_ok("plain", "1.0.0");
    plugctl(&s).args(["fingerprint"]).succeeds();
    plugctl(&s)
        .args(["plugin", "show", "plan"])
        .fails_with(Exit::NotFound)
        .stderr_has("did you mean plain?");
}

/// A plugin directory's entry that is a symbolic link owned by another
/// user is refused, and the fix names `chown -h`: plain `chown` follows
/// the link and changes the file it points at, which may be anything.
#[test]
fn the_fix_for_a_link_another_user_owns_changes_the_link() {
    let s = Rig::new();
    let Some(user) = intruder() else { return };
    s.hv_ok("real", "1.0.0");
    let link = s.plugins.join("host-volume").join("linked");
    std::os::unix::fs::symlink("real", &link).unwrap();
    std::os::unix::fs::lchown(&link, Some(user.uid), Some(user.gid)).unwrap();
    plugctl(&s)
        .args(["fingerprint", "linked"])
        .fails()
        .stdout_has(&format!("(fix: chown -h 0 {},", link.display()));
}

/// A plugin environment's directory plugctl will not trust is named in a
/// sentence that reads: "…, which plugctl does not trust: the directory
/// … belongs to uid …" (it read "which refusing to trust it").
#[test]
fn a_refused_environment_path_reads_as_a_sentence() {
    let s = Rig::new();
    let Some(user) = intruder() else { return };
    let theirs = s.root().join("theirs");
    make_dir(&theirs);
    std::os::unix::fs::chown(&theirs, Some(user.uid), Some(user.gid)).unwrap();
    s.plugin("secrets", "s", "echo '{\"result\": {}}'");
    plugctl(&s)
        .args(["secret", "fetch", "s", "x", "--env"])
        .arg(format!("PATH={}", theirs.display()))
        .fails()
        .stderr_has(&format!(
            "which plugctl does not trust: the directory {} belongs to uid {}",
            theirs.display(),
            user.uid
        ))
        .stderr_lacks("which refusing");
}

//! A tenth fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after the first nine rounds
//! (review34.rs to review34i.rs): each test here is an attack that found a
//! way through.

use std::fs;
use std::path::Path;

use crate::common::*;

/// A host-volume plugin that makes each volume a bind mount of `shared`
/// (as a plugin mounting an NFS share or a directory of the node's does),
/// and whose delete fails. With `mounted`, its create touches that file
/// once the mount is made, then waits (for a signal to come meanwhile).
fn binding(s: &Rig, name: &str, shared: &Path, mounted: Option<&Path>) {
    let wait = match mounted {
        Some(m) => format!(" && touch '{}' && sleep 30", m.display()),
        None => " && printf '{\"path\":\"%s\",\"bytes\":0}\\n' \"$V\"".to_string(),
    };
    s.plugin(
        "host-volume",
        name,
        &format!(
            r#"PATH=/usr/sbin:/usr/bin:/sbin:/bin
V="$DHV_VOLUMES_DIR/$DHV_VOLUME_ID"
case "$DHV_OPERATION" in
fingerprint) echo '{{"version":"1.0.0"}}' ;;
create) mkdir -p "$V" && mount --bind '{}' "$V"{wait} ;;
delete) echo '{{"error":"busy"}}'; exit 1 ;;
esac"#,
            shared.display()
        ),
    );
}

/// `test` runs a host-volume plugin's creates in a scratch directory under
/// `$TMPDIR` and removes it when done, whatever its deletes did; a stop
/// (Ctrl-C, SIGHUP) removes it too. Both removed it recursively through
/// whatever was mounted in it: a plugin whose volume is a bind mount of a
/// directory of the node's (or an NFS share, a loop image), and whose
/// delete failed — or a `test` interrupted between a create and its
/// delete — made root empty that directory. The scratch directory is
/// removed without ever leaving its own mount: one with a mount in it is
/// left whole, and the report (or, on a stop, stderr) says where and why.
#[test]
fn a_test_never_removes_its_scratch_directory_through_a_plugins_mount() {
    if !is_root() {
        skip_unless_ci("needs root to bind-mount");
        return;
    }
    let s = Rig::outside_tmp();
    let shared = s.root().join("shared");
    make_dir(&shared);
    fs::write(shared.join("precious"), "keep").unwrap();
    let tmp = s.root().join("tmp");
    make_dir(&tmp);

    // A delete that fails: the suite's own cleanup.
    binding(&s, "bind", &shared, None);
    let Some(run) = in_mount_namespace(
        &s,
        "TMPDIR=\"$0\" \"$PLUGCTL\" --sandbox none test host-volume bind 2>&1; echo \"exit=$?\"",
    ) else {
        return;
    };
    let out = run.arg(&tmp).succeeds();
    let text = out.stdout();
    assert!(
        shared.join("precious").exists(),
        "the node's directory mounted in a volume is never emptied: {text}"
    );
    assert!(text.contains("exit=1"), "{text}");
    assert!(
        text.contains("is left as it is") && text.contains("mount point of another file system"),
        "the cleanup check says the scratch directory is left, and why: {text}"
    );

    // A stop between a create and its delete.
    let mounted = s.out.join("mounted");
    binding(&s, "bindwait", &shared, Some(&mounted));
    let script = format!(
        "TMPDIR=\"$0\" \"$PLUGCTL\" --sandbox none test host-volume bindwait & pid=$!
         while [ ! -e '{}' ]; do sleep 0.05; done
         kill -HUP $pid; wait $pid; echo \"exit=$?\"",
        mounted.display()
    );
    let Some(run) = in_mount_namespace(&s, &script) else {
        return;
    };
    let out = run.arg(&tmp).succeeds();
    assert!(
        shared.join("precious").exists(),
        "a stop never empties the node's directory mounted in a volume: {}",
        out.stderr()
    );
    assert!(out.stdout().contains("exit=129"), "{}", out.stdout());
    out.stderr_has("scratch directory left as it is")
        .stderr_has("mount point of another file system");
}

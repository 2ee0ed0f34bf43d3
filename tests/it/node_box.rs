//! plugctl on a node in a box ([`NodeBox`]): a packaged Nomad client and
//! Debian's node_exporter, in a private mount namespace, where plugctl runs
//! as root with no flag and no `PLUGCTL_*` variable. What the agent made
//! (its configuration, its data directory, the volumes in the shared
//! volumes directory) comes out of every command as it went in.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use crate::common::node_box::*;
use crate::common::*;

/// What the machine's own /etc/nomad.d, /opt, /var/lib and /tmp hold at
/// the top level (and /etc/nomad.d and /var/lib/plugctl entirely, which
/// plugctl as root would read or write).
fn machine() -> BTreeMap<String, Vec<String>> {
    let ls = |dir: &str| -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .map(|rd| {
                rd.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_else(|e| vec![format!("({e})")]);
        names.sort();
        names
    };
    ["/etc/nomad.d", "/opt", "/var/lib", "/var/lib/plugctl"]
        .into_iter()
        .map(|d| (d.to_string(), ls(d)))
        .collect()
}

#[test]
fn the_box_is_a_packaged_client_and_the_machine_is_untouched() {
    let before = machine();
    let Some(b) = NodeBox::new() else { return };
    // The package's configuration, the agent's identity and volumes, and
    // Debian's textfile directory below a directory prometheus owns.
    assert_eq!(b.read("/etc/nomad.d/nomad.hcl"), PACKAGE_NOMAD_HCL);
    assert_eq!(b.read("/opt/nomad/data/client/client-id"), CLIENT_ID);
    let mode = |p: &str| fs::symlink_metadata(b.path(p)).unwrap().mode() & 0o7777;
    let owner = |p: &str| fs::symlink_metadata(b.path(p)).unwrap().uid();
    assert_eq!(mode("/opt/nomad/data/client"), 0o700);
    assert_eq!(mode("/opt/nomad/data/client/client-id"), 0o600);
    assert_eq!(mode(VOLUMES_DIR), 0o700);
    assert_eq!(b.ls(VOLUMES_DIR), AGENT_VOLUMES);
    assert_eq!(owner("/var/lib/prometheus"), b.prometheus.uid);
    assert_ne!(b.prometheus.uid, 0);
    assert_eq!((owner(TEXTFILE_DIR), mode(TEXTFILE_DIR)), (0, 0o755));
    // The box's users exist for its programs too.
    b.sh_as(b.prometheus, "id -un")
        .succeeds()
        .stdout_has("prometheus");

    // plugctl as root with no flag reads the package's configuration and
    // derives every directory from its data_dir.
    let out = b.plugctl().args(["-v", "plugin", "list"]).succeeds();
    out.stderr_has("Nomad agent configuration: /etc/nomad.d (/etc/nomad.d, the packaged agent's")
        .stderr_has("volumes: /opt/nomad/data/host_volumes (<data_dir>/host_volumes")
        .stderr_has("host-volume plugins: /opt/nomad/data/host_volume_plugins");
    b.plugctl()
        .args(["fingerprint"])
        .succeeds()
        .stdout_has("sparse-image")
        .stdout_has("env-file");
    assert!(b.exists(REGISTRY), "the registry is root's default");
    drop(b);
    // Nothing reached the machine: what plugctl as root reads and writes
    // by default was never there, and the box's mounts went with it.
    assert_eq!(machine(), before);
    assert!(!Path::new(REGISTRY).exists());
}

#[test]
fn with_the_packages_own_owners_plugctl_names_the_owner_of_the_configuration() {
    // HashiCorp's postinst gives /etc/nomad.d and data_dir to the nomad
    // user. plugctl takes its directories from root's configuration only
    // (docs/fleet.md): it stops, naming the directory and its owner,
    // before it runs anything.
    let Some(b) = NodeBox::with(Layout {
        package_owners: true,
    }) else {
        return;
    };
    assert_eq!(
        fs::metadata(b.path(NOMAD_D)).unwrap().uid(),
        b.nomad.uid,
        "the package's owner"
    );
    b.plugctl()
        .args(["fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has("/etc/nomad.d")
        .stderr_has(&format!("belongs to uid {}", b.nomad.uid));
    assert!(!b.exists(REGISTRY), "nothing was recorded");
}

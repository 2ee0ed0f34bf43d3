//! The Nomad agent's account, through the real binary, on a node in a box
//! laid out as HashiCorp's package leaves it (`/etc/nomad.d` and
//! `/opt/nomad/data` the `nomad` account's, the unit running the agent as
//! root): plugctl runs as root with no flag and no variable, trusting that
//! account as root is and no one else; the account is not trusted when
//! root could not have given it the configuration directory, when the
//! configuration is not read, or when the agent's unit runs the agent as
//! that account.

use std::fs;

use crate::common::node_box::*;
use crate::common::*;
use crate::node_box::{
    every_command_leaves_the_agents_volumes, exec_start_under_the_units_hardening, operator_tour,
};

const PACKAGE: Layout = Layout {
    package_owners: true,
};

fn packaged() -> Option<NodeBox> {
    NodeBox::with(PACKAGE)
}

const ROOT: User = User { uid: 0, gid: 0 };

#[test]
fn the_readmes_operator_tour_runs_on_the_packages_owners() {
    operator_tour(PACKAGE);
}

#[test]
fn audit_prune_repair_and_restore_keep_the_agents_tree_on_the_packages_owners() {
    every_command_leaves_the_agents_volumes(PACKAGE);
}

#[test]
fn the_units_exec_start_runs_on_the_packages_owners() {
    exec_start_under_the_units_hardening(PACKAGE);
}

#[test]
fn v_says_which_account_is_trusted_and_why() {
    let Some(b) = packaged() else { return };
    let nomad = format!("nomad (uid {})", b.nomad.uid);
    b.plugctl()
        .args(["-v", "plugin", "list"])
        .succeeds()
        .stderr_has(&format!(
            "plugctl: trusted owner: the agent's account, {nomad}, owns /etc/nomad.d: only root \
             could give it that directory (/etc is root's alone), and the agent runs as root \
             (/usr/lib/systemd/system/nomad.service names no other user), so that account \
             already decides what the agent runs"
        ));
    // A box whose operator gave the files to root: no account more, and -v
    // says nothing of one.
    let Some(r) = NodeBox::new() else { return };
    r.plugctl()
        .args(["-v", "plugin", "list"])
        .succeeds()
        .stderr_lacks("trusted owner");
}

#[test]
fn another_user_on_the_way_is_still_refused() {
    let Some(b) = packaged() else { return };
    // prometheus: a second unprivileged account, not the agent's.
    let other = b.prometheus;
    let tree = b.agent_tree();
    let nomad = b.nomad;

    // A configuration file of theirs in the agent's directory: named,
    // with the agent's account, and fixed by a chown, never a removal.
    b.write("/etc/nomad.d/zz-theirs.hcl", "client {}\n", 0o644, other);
    let ran = b
        .plugctl()
        .args(["fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!(
            "cannot read the Nomad agent configuration /etc/nomad.d/zz-theirs.hcl: refusing to \
             trust it: the file /etc/nomad.d/zz-theirs.hcl belongs to uid {} (prometheus), and \
             only root or the agent's account, nomad (uid {}), which owns /etc/nomad.d, may own \
             the agent's configuration (fix: chown root /etc/nomad.d/zz-theirs.hcl, or chown \
             nomad /etc/nomad.d/zz-theirs.hcl)",
            other.uid, nomad.uid
        ))
        .stderr_lacks("remove it");
    assert!(!ran.stderr().contains("not yours"), "{}", ran.stderr());
    assert!(!b.exists(REGISTRY), "nothing ran, nothing was recorded");
    // The agent's account's own file is read; one it lets its group or
    // others write is refused whoever owns it.
    b.own("/etc/nomad.d/zz-theirs.hcl", 0o644, nomad);
    b.plugctl().args(["plugin", "list"]).succeeds();
    for mode in [0o664, 0o646] {
        b.own("/etc/nomad.d/zz-theirs.hcl", mode, nomad);
        b.plugctl()
            .args(["plugin", "list"])
            .fails_with(Exit::Usage)
            .stderr_has("/etc/nomad.d/zz-theirs.hcl is writable by")
            .stderr_has("chmod go-w");
    }
    fs::remove_file(b.path("/etc/nomad.d/zz-theirs.hcl")).unwrap();

    // A plugin directory below data_dir that is theirs: its plugins are
    // never run; the agent's account's own are.
    let secrets = format!("{COMMON_PLUGINS}/secrets");
    b.own(&secrets, 0o755, other);
    b.plugctl()
        .args(["fingerprint", "--type", "secrets"])
        .fails_with(Exit::Failure)
        .stdout_has("unhealthy")
        .stdout_has(&format!("belongs to uid {}", other.uid));
    b.own(&secrets, 0o755, nomad);
    b.own(&format!("{secrets}/env-file"), 0o755, nomad);
    b.plugctl()
        .args(["fingerprint", "--type", "secrets"])
        .succeeds()
        .stdout_has("env-file");
    b.own(&format!("{secrets}/env-file"), 0o755, other);
    b.plugctl()
        .args(["fingerprint", "--type", "secrets"])
        .fails_with(Exit::Failure)
        .stdout_has(&format!("belongs to uid {}", other.uid));
    b.own(&format!("{secrets}/env-file"), 0o755, ROOT);
    b.own(&secrets, 0o755, ROOT);

    // The agent's node id, theirs: refused.
    let id = format!("{DATA_DIR}/client/client-id");
    b.own(&id, 0o600, other);
    b.plugctl()
        .args([
            "volume",
            "create",
            "--plugin",
            "dir",
            "--name",
            "x",
            "--dry-run",
        ])
        .fails_with(Exit::Usage)
        .stderr_has("cannot read the Nomad agent's node id")
        .stderr_has(&format!("belongs to uid {}", other.uid));
    b.own(&id, 0o600, ROOT);

    // The volumes directory, theirs: no plugin call; the agent's account's
    // own (only it can write there) is used.
    b.own(VOLUMES_DIR, 0o700, other);
    b.plugctl()
        .args(["volume", "create", "--plugin", "mkdir", "--name", "x"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!("belongs to uid {}", other.uid));
    b.own(VOLUMES_DIR, 0o700, nomad);
    b.plugctl()
        .args(["volume", "create", "--plugin", "mkdir", "--name", "x"])
        .succeeds();
    b.plugctl().args(["volume", "delete", "x"]).succeeds();
    // Writable by its group: refused, as for root's (node-box's rule).
    b.own(VOLUMES_DIR, 0o770, nomad);
    b.plugctl()
        .args(["volume", "create", "--plugin", "mkdir", "--name", "y"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!("{VOLUMES_DIR} is writable by its group"));
    b.own(VOLUMES_DIR, 0o700, ROOT);
    assert_same_tree("the agent's tree", &tree, &b.agent_tree());
}

#[test]
fn the_account_is_not_trusted_where_root_could_not_have_given_it_the_directory() {
    let Some(b) = packaged() else { return };
    let nomad = b.nomad;
    let config = |dir: &str| {
        b.plugctl()
            .env("PLUGCTL_NOMAD_CONFIG", dir)
            .args(["-v", "plugin", "list"])
    };
    // Below a directory of another user's (a home): the walk refuses that
    // directory, and says why nomad's is no agent account there.
    b.mkdir("/opt/home", 0o755, b.prometheus);
    b.mkdir("/opt/home/nomad.d", 0o755, nomad);
    b.write("/opt/home/nomad.d/nomad.hcl", "client {}\n", 0o644, nomad);
    config("/opt/home/nomad.d")
        .fails_with(Exit::Usage)
        .stderr_has(&format!(
            "the directory /opt/home belongs to uid {} (prometheus), and only root may own the \
             agent's configuration here: nomad (uid {}) owns /opt/home/nomad.d but is not \
             trusted as the agent's account, as a directory above it is not root's alone, so \
             its owner may have made it: /opt/home belongs to uid {}",
            b.prometheus.uid, nomad.uid, b.prometheus.uid
        ))
        .stderr_lacks("not yours");
    // Below a directory anyone may add to, sticky (/tmp): anyone could
    // have made it, so its owner is not the agent's account.
    b.mkdir("/tmp/nomad.d", 0o755, nomad);
    b.write("/tmp/nomad.d/nomad.hcl", "client {}\n", 0o644, nomad);
    config("/tmp/nomad.d")
        .fails_with(Exit::Usage)
        .stderr_has(&format!(
            "the directory /tmp/nomad.d belongs to uid {} (nomad), and only root may own the \
             agent's configuration here",
            nomad.uid
        ))
        .stderr_has(
            "a directory above it is not root's alone, so its owner may have made it: \
             /tmp is writable by group and others (mode 1777) (fix: chown root \
             /tmp/nomad.d, or keep the configuration in a directory only root could give the \
             agent's account, as /etc/nomad.d)",
        );
    // A directory root made and gave it, named by the variable, is the
    // agent's account's: its configuration is read.
    b.mkdir("/opt/cfg", 0o755, ROOT);
    b.mkdir("/opt/cfg/nomad.d", 0o755, nomad);
    b.write(
        "/opt/cfg/nomad.d/nomad.hcl",
        "data_dir = \"/opt/nomad/data\"\n",
        0o644,
        nomad,
    );
    config("/opt/cfg/nomad.d").succeeds().stderr_has(&format!(
        "the agent's account, nomad (uid {}), owns /opt/cfg/nomad.d",
        nomad.uid
    ));
}

#[test]
fn the_account_is_not_trusted_when_the_configuration_is_not_read() {
    let Some(b) = packaged() else { return };
    // Without the configuration nothing says whose data_dir it is: the
    // plugins below nomad's data_dir are not run.
    let ran = b
        .plugctl()
        .env("PLUGCTL_NOMAD_CONFIG", "none")
        .args(["-v", "fingerprint", "--type", "secrets"])
        .fails_with(Exit::Failure)
        .stdout_has(&format!(
            "the directory /opt/nomad/data belongs to uid {}",
            b.nomad.uid
        ))
        .stderr_lacks("trusted owner");
    assert!(!ran.stdout().contains(" healthy"), "{}", ran.stdout());
}

#[test]
fn the_account_is_not_trusted_when_the_agents_unit_runs_the_agent_as_it() {
    let Some(b) = packaged() else { return };
    // An operator's drop-in running the agent as nomad (a server-only
    // node): that account is then not root's equal.
    b.mkdir("/etc/systemd/system/nomad.service.d", 0o755, ROOT);
    b.write(
        "/etc/systemd/system/nomad.service.d/user.conf",
        "[Service]\nUser=nomad\nGroup=nomad\n",
        0o644,
        ROOT,
    );
    b.plugctl()
        .args(["fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!(
            "the directory /etc/nomad.d belongs to uid {} (nomad), and only root may own the \
             agent's configuration here: nomad (uid {}) owns /etc/nomad.d but is not trusted \
             as the agent's account, as /etc/systemd/system/nomad.service.d/user.conf runs the \
             agent as nomad (User=), so that account is not root's equal",
            b.nomad.uid, b.nomad.uid
        ));
    assert!(!b.exists(REGISTRY));
    // A later drop-in that gives the agent back to root, as systemd reads
    // them: trusted again.
    b.write(
        "/etc/systemd/system/nomad.service.d/zz-root.conf",
        "[Service]\nUser=\n",
        0o644,
        ROOT,
    );
    b.plugctl().args(["plugin", "list"]).succeeds();
    // DynamicUser= is no root either.
    b.write(
        "/etc/systemd/system/nomad.service.d/zz-root.conf",
        "[Service]\nDynamicUser=yes\n",
        0o644,
        ROOT,
    );
    b.plugctl()
        .args(["plugin", "list"])
        .fails_with(Exit::Usage)
        .stderr_has("runs the agent as a user of its own (DynamicUser=)");
    // A drop-in plugctl cannot trust (nomad's own, which systemd would
    // apply) decides nothing in nomad's favour.
    b.write(
        "/etc/systemd/system/nomad.service.d/zz-root.conf",
        "[Service]\nUser=\n",
        0o644,
        b.nomad,
    );
    b.plugctl()
        .args(["plugin", "list"])
        .fails_with(Exit::Usage)
        .stderr_has("cannot say how the agent runs");
}

#[test]
fn an_account_that_could_have_made_its_directory_itself_is_never_trusted() {
    let Some(b) = packaged() else { return };
    let nomad = b.nomad;
    // prometheus: an unprivileged user, the attacker. As themselves they
    // make an agent configuration where anyone may (/tmp) and in their own
    // home (a directory root gave them, as useradd does), each pointing
    // data_dir at plugins of theirs that would leave a mark if run.
    let attacker = b.prometheus;
    b.mkdir("/opt/home", 0o755, ROOT);
    b.mkdir("/opt/home/prometheus", 0o755, attacker);
    for base in ["/tmp/mine", "/opt/home/prometheus"] {
        b.sh_as(
            attacker,
            &format!(
                "set -e; mkdir -p {base}/nomad.d {base}/data/common_plugins/secrets
                 printf 'data_dir = \"{base}/data\"\\n' >{base}/nomad.d/nomad.hcl
                 printf '#!/bin/sh\\ntouch {base}/ran\\n' >{base}/data/common_plugins/secrets/evil
                 chmod 755 {base}/data/common_plugins/secrets/evil"
            ),
        )
        .succeeds();
    }
    let owner_is_not_trusted = |dir: &str| {
        format!(
            "prometheus (uid {}) owns {dir} but is not trusted as the agent's account, as a \
             directory above it is not root's alone, so its owner may have made it",
            attacker.uid
        )
    };
    let never_ran = |b: &NodeBox| {
        for base in ["/tmp/mine", "/opt/home/prometheus"] {
            assert!(!b.exists(&format!("{base}/ran")), "{base}'s plugin ran");
        }
        assert!(!b.exists(REGISTRY), "nothing ran, nothing was recorded");
    };

    // Named by the variable: refused, saying why.
    b.plugctl()
        .env("PLUGCTL_NOMAD_CONFIG", "/tmp/mine/nomad.d")
        .args(["-v", "fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has(&owner_is_not_trusted("/tmp/mine/nomad.d"))
        .stderr_has("/tmp is writable by group and others (mode 1777)");
    b.plugctl()
        .env("PLUGCTL_NOMAD_CONFIG", "/opt/home/prometheus/nomad.d")
        .args(["-v", "fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has(&owner_is_not_trusted("/opt/home/prometheus/nomad.d"))
        .stderr_has(&format!(
            "/opt/home/prometheus belongs to uid {}",
            attacker.uid
        ));
    never_ran(&b);

    // /etc/nomad.d a symlink (root's, in root's /etc) to either: the
    // account is judged where the link leads, not where it is, and plugctl
    // with no flag refuses.
    fs::rename(b.path(NOMAD_D), b.path("/etc/nomad.d.package")).unwrap();
    let link_to = |target: &str| {
        let _ = fs::remove_file(b.path(NOMAD_D));
        std::os::unix::fs::symlink(target, b.path(NOMAD_D)).unwrap();
    };
    for base in ["/tmp/mine", "/opt/home/prometheus"] {
        link_to(&format!("{base}/nomad.d"));
        b.plugctl()
            .args(["-v", "fingerprint"])
            .fails_with(Exit::Usage)
            .stderr_has(&owner_is_not_trusted(&format!("{base}/nomad.d")));
        never_ran(&b);
    }

    // A parent root owns but others may write in, sticky or not: anyone
    // could have made the directory there.
    b.mkdir("/opt/shared", 0o755, ROOT);
    b.mkdir("/opt/shared/nomad.d", 0o755, nomad);
    b.write(
        "/opt/shared/nomad.d/nomad.hcl",
        "data_dir = \"/opt/nomad/data\"\n",
        0o644,
        nomad,
    );
    link_to("/opt/shared/nomad.d");
    for (mode, who) in [
        (0o775, "its group"),
        (0o757, "others"),
        (0o1777, "group and others"),
    ] {
        b.own("/opt/shared", mode, ROOT);
        b.plugctl()
            .args(["-v", "fingerprint"])
            .fails_with(Exit::Usage)
            .stderr_has(&format!(
                "/opt/shared is writable by {who} (mode {mode:04o})"
            ))
            .stderr_lacks("trusted owner: the agent's account");
        never_ran(&b);
    }
    // The same directory once its parent is root's alone: trusted, and -v
    // names the directory the link leads to.
    b.own("/opt/shared", 0o755, ROOT);
    b.plugctl()
        .args(["-v", "plugin", "list"])
        .succeeds()
        .stderr_has(&format!(
            "trusted owner: the agent's account, nomad (uid {}), owns /opt/shared/nomad.d: \
             only root could give it that directory (/opt/shared is root's alone)",
            nomad.uid
        ));
    // ...but not through a link of the attacker's on the way, which they
    // could point elsewhere at any moment.
    b.sh_as(attacker, "ln -s /opt/shared/nomad.d /tmp/hop")
        .succeeds();
    link_to("/tmp/hop");
    b.plugctl()
        .args(["fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!(
            "the symbolic link /tmp/hop belongs to uid {} (prometheus), and only root or the \
             agent's account, nomad (uid {}), which owns /opt/shared/nomad.d, may own the \
             agent's configuration (fix: chown -h root /tmp/hop, or chown -h nomad /tmp/hop)",
            attacker.uid, nomad.uid
        ));
    never_ran(&b);

    // A configuration named as a file, not a directory: no account, so
    // the package's directory (nomad's) is refused, naming its owner and
    // saying to name the directory.
    fs::remove_file(b.path(NOMAD_D)).unwrap();
    fs::rename(b.path("/etc/nomad.d.package"), b.path(NOMAD_D)).unwrap();
    b.plugctl()
        .env("PLUGCTL_NOMAD_CONFIG", "/etc/nomad.d/nomad.hcl")
        .args(["-v", "fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!(
            "the directory /etc/nomad.d belongs to uid {} (nomad), and only root may own the \
             agent's configuration, or the account that owns its directory when only root \
             could have given it that directory (fix: chown root /etc/nomad.d, or name the \
             directory /etc/nomad.d rather than a file in it: only a directory's owner is taken \
             as the agent's account)",
            nomad.uid
        ))
        .stderr_lacks("trusted owner");
    never_ran(&b);
    // And the package's layout, as it was, works with no flag.
    b.plugctl().args(["plugin", "list"]).succeeds();
}

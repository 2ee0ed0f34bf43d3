//! plugctl on a node in a box ([`NodeBox`]): a packaged Nomad client and
//! Debian's node_exporter, in a private mount namespace, where plugctl runs
//! as root with no flag and no `PLUGCTL_*` variable. What the agent made
//! (its configuration, its data directory, the volumes in the shared
//! volumes directory) comes out of every command as it went in.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use crate::common::expect::Ran;
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
fn with_the_packages_own_owners_plugctl_trusts_the_agents_account() {
    // HashiCorp's postinst gives /etc/nomad.d and data_dir to the nomad
    // user, and its unit runs the agent as root: that account is the
    // agent's, trusted as root is (docs/fleet.md): plugctl runs with no
    // flag, and -v says why. (Where the refusal still holds:
    // the next test, and tests/it/agent_account.rs.)
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
    assert_eq!(fs::metadata(b.path(DATA_DIR)).unwrap().uid(), b.nomad.uid);
    let tree = b.agent_tree();
    b.plugctl()
        .args(["fingerprint"])
        .succeeds()
        .stdout_has("sparse-image")
        .stdout_has("env-file");
    assert!(b.exists(REGISTRY));
    b.plugctl()
        .args(["-v", "plugin", "list"])
        .succeeds()
        .stderr_has(&format!(
            "plugctl: trusted owner: the agent's account, nomad (uid {}), owns /etc/nomad.d: \
             only root could give it that directory (/etc is root's alone)",
            b.nomad.uid
        ));
    assert_same_tree("the agent's tree", &tree, &b.agent_tree());
}

#[test]
fn with_the_packages_own_owners_and_the_agent_run_as_nomad_plugctl_names_the_owner() {
    // The same layout, but an operator's drop-in runs the agent as nomad:
    // that account is then no more root's equal, and plugctl stops before
    // it runs anything, naming the owner, why, and the fix.
    let Some(b) = NodeBox::with(Layout {
        package_owners: true,
    }) else {
        return;
    };
    let root = User { uid: 0, gid: 0 };
    b.mkdir("/etc/systemd/system/nomad.service.d", 0o755, root);
    b.write(
        "/etc/systemd/system/nomad.service.d/10-user.conf",
        "[Service]\nUser=nomad\n",
        0o644,
        root,
    );
    b.plugctl()
        .args(["fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!(
            "cannot read the Nomad agent configuration /etc/nomad.d: refusing to trust it: the \
             directory /etc/nomad.d belongs to uid {} (nomad), and only root may own the \
             agent's configuration here: nomad (uid {}) owns /etc/nomad.d but is not trusted \
             as the agent's account, as /etc/systemd/system/nomad.service.d/10-user.conf runs \
             the agent as nomad (User=), so that account is not root's equal (fix: chown root \
             /etc/nomad.d); or pass --allow-insecure-paths",
            b.nomad.uid, b.nomad.uid
        ));
    assert!(!b.exists(REGISTRY), "nothing was recorded");
}

/// Runs plugctl in the box with these arguments, expecting `exit`, and
/// checks the agent's volumes came out of it byte for byte.
#[track_caller]
fn keeps_the_agents_volumes(b: &NodeBox, args: &[&str], exit: Exit) -> Ran {
    let before = b.agent_volumes();
    assert_eq!(before.len(), 11, "the box's agent volumes: {before:#?}");
    let out = b.plugctl().args_from(args).exits(exit);
    assert_same_tree(
        &format!("the agent's volumes after plugctl {}", args.join(" ")),
        &before,
        &b.agent_volumes(),
    );
    out
}

#[test]
fn every_command_leaves_the_agents_volumes_as_they_were() {
    every_command_leaves_the_agents_volumes(Layout::default());
}

/// Every command that lists, audits, prunes, repairs or restores in the
/// shared volumes directory, on a box laid out so: the agent's volumes and
/// its whole tree come out as they went in.
pub(crate) fn every_command_leaves_the_agents_volumes(layout: Layout) {
    let Some(b) = NodeBox::with(layout) else {
        return;
    };
    let tree = b.agent_tree();
    let k = |args: &[&str], exit| keeps_the_agents_volumes(&b, args, exit);
    k(&["fingerprint"], Exit::Success);
    let made: Vec<String> = [
        vec!["--plugin", "mkdir", "--name", "scratch"],
        vec!["--plugin", "dir", "--name", "web"],
        vec![
            "--plugin",
            "sparse-image",
            "--name",
            "img",
            "--capacity-max",
            "1MiB",
        ],
    ]
    .iter()
    .map(|a| {
        let mut args = vec!["--json", "volume", "create"];
        args.extend(a);
        id_of(&k(&args, Exit::Success).json()["volume"])
    })
    .collect();
    k(&["volume", "list"], Exit::Success);

    // The audit shows the agent's volumes as foreign, apart, and is clean.
    let table = k(&["volume", "audit"], Exit::Success)
        .stderr_has("4 foreign entries in /opt/nomad/data/host_volumes: not plugctl's")
        .stdout_lacks("orphan");
    for v in AGENT_VOLUMES {
        assert!(
            table
                .stdout()
                .lines()
                .any(|l| l.starts_with("foreign ") && l.ends_with(v)),
            "{v} not shown as foreign:\n{}",
            table.stdout()
        );
    }
    let doc = k(&["--json", "volume", "audit"], Exit::Success).json();
    assert_eq!(doc["orphans"], serde_json::json!([]), "{doc:#}");
    assert_eq!(doc["foreign"].as_array().unwrap().len(), 4, "{doc:#}");
    assert_eq!(doc["volumes"].as_array().unwrap().len(), 3, "{doc:#}");

    // A leftover of plugctl's own (a volume forgotten: its directory stays)
    // is an orphan, and the prune takes it and nothing of the agent's.
    k(&["volume", "forget", "scratch"], Exit::Success);
    let left = format!("{VOLUMES_DIR}/{}", made[0]);
    assert!(b.exists(&left));
    k(&["volume", "audit"], Exit::Failure).stdout_has("orphan dir");
    k(&["volume", "audit", "--prune-orphans"], Exit::Usage)
        .stderr_has("removes 1 orphan(s)")
        .stderr_has("4 foreign entries, not plugctl's, are never removed");
    k(
        &["volume", "audit", "--prune-orphans", "--yes"],
        Exit::Success,
    );
    assert!(!b.exists(&left), "plugctl's own leftover was pruned");

    k(&["volume", "restore"], Exit::Success);
    k(&["volume", "repair"], Exit::Success);
    // The agent's volumes are no record of plugctl's: by id, none is found,
    // and a create with the id of one is refused before anything runs.
    let agents = AGENT_VOLUMES[0];
    k(&["volume", "delete", agents], Exit::NotFound);
    k(&["volume", "forget", agents], Exit::NotFound);
    for plugin in ["mkdir", "dir"] {
        k(
            &[
                "volume", "create", "--plugin", plugin, "--name", "mine", "--id", agents,
            ],
            Exit::Usage,
        )
        .stderr_has(&format!(
            "{VOLUMES_DIR}/{agents} is already in the volumes directory and not plugctl's"
        ));
    }
    let image = AGENT_VOLUMES[3].trim_end_matches(".img");
    k(
        &[
            "volume",
            "create",
            "--plugin",
            "sparse-image",
            "--name",
            "i2",
            "--capacity-max",
            "1MiB",
            "--id",
            image,
        ],
        Exit::Usage,
    );

    for id in &made[1..] {
        k(&["volume", "delete", id], Exit::Success);
    }
    k(&["volume", "audit"], Exit::Success);
    // The agent's whole tree: its configuration, data_dir and volumes.
    assert_same_tree("the agent's tree", &tree, &b.agent_tree());
}

#[test]
fn a_volumes_directory_others_can_write_is_refused_sticky_or_not() {
    let Some(b) = NodeBox::new() else { return };
    let root = User { uid: 0, gid: 0 };
    let ready = b
        .plugctl()
        .args([
            "--json", "volume", "create", "--plugin", "mkdir", "--name", "a",
        ])
        .succeeds()
        .json();
    let id = id_of(&ready["volume"]);
    // Sticky (the trust gate lets a sticky directory through: the rule is
    // the volumes directory's own), or not.
    for mode in [0o1777, 0o1730, 0o0770] {
        b.own(VOLUMES_DIR, mode, root);
        let k = |args: &[&str]| {
            keeps_the_agents_volumes(&b, args, Exit::Usage)
                .stderr_has(&format!("{VOLUMES_DIR} is writable by"))
                .stderr_has(&format!("mode {mode:04o}"))
                .stderr_has("chmod go-w")
        };
        let create = k(&["volume", "create", "--plugin", "mkdir", "--name", "b"]);
        if mode & 0o1000 != 0 {
            create.stderr_has("the sticky bit keeps users from removing each other's entries");
        }
        k(&["volume", "delete", &id]);
        k(&["volume", "restore"]);
        k(&["volume", "repair"]);
        k(&["volume", "audit", "--prune-orphans", "--yes"]);
        if mode & 0o1000 != 0 {
            // Reading it is no danger: the audit itself still looks.
            keeps_the_agents_volumes(&b, &["volume", "audit"], Exit::Success);
        }
        assert!(b.exists(&format!("{VOLUMES_DIR}/{id}")));
    }
    b.own(VOLUMES_DIR, 0o700, root);
    b.plugctl().args(["volume", "delete", &id]).succeeds();
    assert!(!b.exists(&format!("{VOLUMES_DIR}/{id}")));
}

#[test]
fn a_new_volume_never_takes_the_id_of_what_another_made() {
    // Outside the box too: any volumes directory may be shared.
    let s = Rig::new();
    let theirs = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
    make_dir(s.volumes.join(theirs));
    std::fs::write(s.volumes.join(theirs).join("data"), "theirs").unwrap();
    std::fs::write(s.volumes.join(format!("{theirs}.IMG")), "image").unwrap();
    let out = plugctl(&s)
        .args([
            "volume", "create", "--plugin", "mkdir", "--name", "x", "--id",
        ])
        .arg(theirs.to_uppercase())
        .fails_with(Exit::Usage)
        .stderr_has("are already in the volumes directory and not plugctl's")
        .stderr_has("Choose another --id");
    assert!(
        out.stderr().contains(&format!("{theirs}.IMG")),
        "{}",
        out.stderr()
    );
    assert!(s.volume_records().is_empty(), "nothing recorded");
    assert_eq!(
        std::fs::read_to_string(s.volumes.join(theirs).join("data")).unwrap(),
        "theirs"
    );
    // plugctl's own leftover of that name is plugctl's to take again.
    let mine = leftover(&s);
    let id = mine.file_name().unwrap().to_str().unwrap();
    plugctl(&s)
        .args([
            "volume", "create", "--plugin", "mkdir", "--name", "again", "--id", id,
        ])
        .succeeds();
}

#[test]
fn the_textfile_goes_into_debians_node_exporter_directory_as_the_package_leaves_it() {
    let Some(b) = NodeBox::new() else { return };
    let prometheus = b.checksum("/var/lib/prometheus");
    b.plugctl()
        .args(["--quiet", "fingerprint", "--textfile", TEXTFILE_DIR])
        .succeeds()
        .stdout_empty();
    let prom = format!("{TEXTFILE_DIR}/plugctl.prom");
    let meta = fs::symlink_metadata(b.path(&prom)).unwrap();
    assert!(meta.is_file());
    assert_eq!((meta.uid(), meta.mode() & 0o7777), (0, 0o644));
    assert!(
        b.read(&prom).contains(
            r#"plugctl_plugin_healthy{family="host-volume",name="sparse-image",version="1.0.0"} 1"#
        ),
        "{}",
        b.read(&prom)
    );
    b.plugctl()
        .args(["metrics", "--textfile", TEXTFILE_DIR])
        .succeeds();
    // Its own file and nothing else (no temporary one left), and no chown:
    // the package's owners are as they were.
    assert_eq!(b.ls(TEXTFILE_DIR), ["plugctl.prom"]);
    let mut now = b.checksum("/var/lib/prometheus");
    now.remove(&prom);
    assert_same_tree("/var/lib/prometheus", &prometheus, &now);
}

#[test]
fn the_prometheus_user_never_makes_root_write_through_a_link_or_into_another_file() {
    let Some(b) = NodeBox::new() else { return };
    let p = b.prometheus;
    let root = User { uid: 0, gid: 0 };
    // What they would have root's plugctl write: root's files elsewhere.
    b.mkdir("/var/lib/victim", 0o755, root);
    b.write("/var/lib/victim/keep", "root's own\n", 0o644, root);
    let victim = b.checksum("/var/lib/victim");
    let metrics = || b.plugctl().args(["metrics", "--textfile", TEXTFILE_DIR]);
    let untouched = |how: &str| {
        assert_same_tree(
            &format!("root's files ({how})"),
            &victim,
            &b.checksum("/var/lib/victim"),
        );
    };

    // The textfile directory swapped for a link: refused, naming it.
    b.sh_as(
        p,
        "cd /var/lib/prometheus && mv node-exporter ne.real && ln -s /var/lib/victim node-exporter",
    )
    .succeeds();
    metrics()
        .fails_with(Exit::Usage)
        .stderr_has(&format!("{TEXTFILE_DIR} is a symbolic link"))
        .stderr_has("through no symbolic link, at any step");
    untouched("a link in place of the directory");

    // A directory of theirs in its place, its plugctl.prom a link to a file
    // of root's: the file lands in their directory, the link is replaced.
    b.sh_as(
        p,
        "cd /var/lib/prometheus && rm node-exporter && mkdir node-exporter && \
         ln -s /var/lib/victim/keep node-exporter/plugctl.prom",
    )
    .succeeds();
    metrics().succeeds();
    let prom = format!("{TEXTFILE_DIR}/plugctl.prom");
    let meta = fs::symlink_metadata(b.path(&prom)).unwrap();
    assert!(meta.is_file() && meta.uid() == 0, "{meta:?}");
    untouched("a link where the file goes");
    // A hard link to root's file there (where the kernel lets them make
    // one: fs.protected_hardlinks=0) is replaced, never written into.
    let linked = b
        .sh_as(
            p,
            "ln -f /var/lib/victim/keep /var/lib/prometheus/node-exporter/plugctl.prom",
        )
        .output();
    if linked.status.success() {
        metrics().succeeds();
        assert_eq!(
            fs::metadata(b.path("/var/lib/victim/keep"))
                .unwrap()
                .nlink(),
            1
        );
    }
    untouched("a hard link where the file goes");

    // Swapped back and forth while root writes: each write lands in the
    // real directory or is refused, never in root's elsewhere.
    b.sh_as(
        p,
        "cd /var/lib/prometheus && rm -r node-exporter && mv ne.real node-exporter",
    )
    .succeeds();
    let swapping = b
        .sh_as(
            p,
            "cd /var/lib/prometheus && while [ ! -e /tmp/stop ]; do \
             mv node-exporter hold && ln -s /var/lib/victim node-exporter && \
             rm node-exporter && mv hold node-exporter || exit 1; done",
        )
        .start();
    for _ in 0..40 {
        let out = metrics().output();
        let code = out.status.code();
        assert!(
            code == Some(0) || code == Some(2),
            "{code:?}: {}",
            stderr(&out)
        );
    }
    fs::write(b.path("/tmp/stop"), "").unwrap();
    swapping.succeeds();
    untouched("a swap race");
    assert_eq!(b.ls(TEXTFILE_DIR), ["plugctl.prom"]);
}

/// The shipped service's settings: `(key, value)` in order, a key given
/// twice twice.
fn service_settings() -> Vec<(String, String)> {
    let text =
        fs::read_to_string(repo().join("deploy/systemd/plugctl-fingerprint.service")).unwrap();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('#') && !l.starts_with('['))
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Every system call a `SystemCallFilter=` group holds, its nested groups
/// expanded (`systemd-analyze syscall-filter`).
fn syscall_group(name: &str) -> std::collections::BTreeSet<String> {
    let out = tool("systemd-analyze")
        .args(["syscall-filter", name])
        .succeeds()
        .stdout();
    let mut all = std::collections::BTreeSet::new();
    for entry in out.lines().skip(1).map(str::trim) {
        if entry.is_empty() || entry.starts_with('#') {
            continue;
        }
        if entry.starts_with('@') {
            all.extend(syscall_group(entry));
        } else {
            all.insert(entry.to_string());
        }
    }
    all
}

#[test]
fn the_shipped_units_exec_start_fingerprints_a_stock_node_under_its_hardening() {
    exec_start_under_the_units_hardening(Layout::default());
}

/// The shipped unit's `ExecStart` on a box laid out so, under what can be
/// reproduced of its hardening: every family healthy, every system call in
/// its filter.
pub(crate) fn exec_start_under_the_units_hardening(layout: Layout) {
    let have = tool_available("systemd-analyze", "the unit's system call filter")
        && tool_available("strace", "what the unit's fingerprint calls");
    if !have {
        return;
    }
    let Some(b) = NodeBox::with(layout) else {
        return;
    };
    let unit = service_settings();
    let get = |key: &str| -> Vec<&str> {
        unit.iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .collect()
    };
    // What this test reproduces of the unit, which must be what it says.
    assert_eq!(get("ProtectSystem"), ["strict"]);
    assert_eq!(get("NoNewPrivileges"), ["yes"]);
    assert_eq!(get("CapabilityBoundingSet"), [""]);
    assert_eq!(get("PrivateTmp"), ["yes"]);
    // ExecStart with the unit's Environment= (no /etc/default/plugctl on a
    // stock node), the binary under test for /usr/bin/plugctl.
    let mut exec = get("ExecStart")[0].to_string();
    let mut env = vec![(
        "PATH".to_string(),
        "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin".to_string(),
    )];
    for e in get("Environment") {
        let (k, v) = e.split_once('=').unwrap();
        exec = exec.replace(&format!("${{{k}}}"), v);
        env.push((k.to_string(), v.to_string()));
    }
    assert!(exec.starts_with("/usr/bin/plugctl "), "{exec}");
    let exec = exec.replacen("/usr/bin/plugctl", PLUGCTL, 1);
    let state = get("StateDirectory")
        .iter()
        .map(|d| format!("/var/lib/{d}"))
        .collect::<Vec<_>>();
    let writable: Vec<String> = get("ReadWritePaths")
        .iter()
        .flat_map(|v| v.split_whitespace())
        .map(|p| p.trim_start_matches('-').to_string())
        .chain(state.iter().cloned())
        .collect();
    // In a mount namespace of its own inside the box: the writable
    // directories bound on themselves, every other mount read-only
    // (ProtectSystem=strict, ProtectHome=read-only), /tmp private, no
    // capability and no new privileges; strace records what is called.
    let script = format!(
        r#"set -e
for d in {state}; do mkdir -p -m 0700 "$d"; done
exec 3>/tmp/trace
exec unshare --mount --propagation private /bin/sh -c '
set -e
for d in {writable}; do [ -d "$d" ] && mount --bind "$d" "$d"; done
awk "{{print \$5}}" /proc/self/mountinfo | sort -u | while read -r m; do
  case " {writable} " in *" $m "*) continue ;; esac
  case "$m" in /proc|/proc/*|/dev|/dev/*) continue ;; esac
  mount -o remount,bind,ro "$m" 2>/dev/null || true
done
exec 4<{bin}
mount -t tmpfs -o mode=1777 tmpfs /tmp
if [ "$(stat -L -c %d:%i {bin} 2>/dev/null)" != "$(stat -L -c %d:%i /proc/self/fd/4)" ]; then
  mkdir -p "$(dirname {bin})" && : >{bin} && mount --no-canonicalize --bind /proc/self/fd/4 {bin}
fi
exec 4<&-
touch /etc/plugctl-rw-check 2>/dev/null && exit 97
exec strace -f -qq -o /dev/fd/3 env -i {env} setpriv --no-new-privs --bounding-set=-all --inh-caps=-all --ambient-caps=-all -- {exec}
'"#,
        state = state.join(" "),
        writable = writable.join(" "),
        // The binary under test, bound back onto its own path where the
        // private /tmp covers it (a clone under /tmp), as the box does.
        bin = PLUGCTL,
        env = env
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" "),
    );
    let out = b.sh(&script).output();
    let code = out.status.code();
    assert!(
        code == Some(0)
            || get("SuccessExitStatus").contains(&code.unwrap_or(-1).to_string().as_str()),
        "{code:?}: {}{}",
        stdout(&out),
        stderr(&out)
    );
    // Every family's plugins ran and are healthy; the metrics are out.
    let prom = b.read(&format!("{TEXTFILE_DIR}/plugctl.prom"));
    for (family, name) in [
        ("host-volume", "dir"),
        ("host-volume", "sparse-image"),
        ("secrets", "env-file"),
        ("example-family", "hello-py"),
    ] {
        assert!(
            prom.contains(&format!(
                "plugctl_plugin_healthy{{family=\"{family}\",name=\"{name}\","
            )) && !prom.contains(&format!(
                "plugctl_plugin_healthy{{family=\"{family}\",name=\"{name}\",version=\"1.0.0\"}} 0"
            )),
            "{family}/{name}: {prom}"
        );
    }
    assert!(b.exists(REGISTRY));

    // What plugctl and the plugins called (from plugctl's exec on) is in
    // the unit's system call filter, and every socket is one of its
    // address families.
    let trace = b.read("/tmp/trace");
    let from = trace
        .find(&format!("execve(\"{PLUGCTL}\""))
        .expect("plugctl ran under strace");
    let mut allowed = std::collections::BTreeSet::new();
    let mut denied = std::collections::BTreeSet::new();
    for filter in get("SystemCallFilter") {
        let (set, list) = match filter.strip_prefix('~') {
            Some(rest) => (&mut denied, rest),
            None => (&mut allowed, filter),
        };
        for item in list.split_whitespace() {
            if item.starts_with('@') {
                set.extend(syscall_group(item));
            } else {
                set.insert(item.to_string());
            }
        }
    }
    let families: Vec<&str> = get("RestrictAddressFamilies")
        .iter()
        .flat_map(|v| v.split_whitespace())
        .collect();
    let mut called = std::collections::BTreeSet::new();
    for line in trace[from..].lines() {
        let rest = line
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start();
        let Some((name, args)) = rest.split_once('(') else {
            continue;
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        if name == "socket" || name == "socketpair" {
            let family = args.split(',').next().unwrap_or("");
            assert!(families.contains(&family), "{line}: not in {families:?}");
        }
        called.insert(name.to_string());
    }
    assert!(
        called.contains("execve") && called.contains("openat"),
        "{called:?}"
    );
    let outside: Vec<&String> = called
        .iter()
        .filter(|c| !allowed.contains(*c) || denied.contains(*c))
        .collect();
    assert!(
        outside.is_empty(),
        "called outside the unit's SystemCallFilter: {outside:?}"
    );
}

#[test]
fn the_readmes_set_up_on_a_node_says_where_the_agent_keeps_the_host_volume_plugins() {
    let Some(b) = NodeBox::new() else { return };
    // A clone, as the README's set-up runs from one: plugins-examples, and
    // the registry under target/.
    b.mkdir("/tmp/clone", 0o755, User { uid: 0, gid: 0 });
    copy_tree(&examples(), &b.path("/tmp/clone/plugins-examples"));
    let readme = fs::read_to_string(repo().join("README.md")).unwrap();
    let line = readme
        .lines()
        .find(|l| l.contains("cargo run --release -- --plugin-dir plugins-examples fingerprint"))
        .expect("the README's set-up command");
    let command = line.replace("cargo run --release --", PLUGCTL);
    let out = b
        .sh(&format!("cd /tmp/clone && {command}"))
        .succeeds()
        .stderr_has(
            "plugctl: warning: host-volume plugins are read from \
             /opt/nomad/data/host_volume_plugins (<data_dir>/host_volume_plugins, as Nomad \
             derives it; data_dir in /etc/nomad.d/nomad.hcl:6), where the Nomad agent's \
             configuration puts them, not from /tmp/clone/plugins-examples/host-volume",
        );
    // In one line; the bundled common plugins are fingerprinted.
    assert_eq!(out.stderr().lines().count(), 1, "{}", out.stderr());
    out.stdout_has("env-file").stdout_has("hello-py");
    let doc = b
        .sh(&format!("cd /tmp/clone && {command} --json"))
        .succeeds()
        .json();
    assert_eq!(doc["plugin_dir"], "/tmp/clone/plugins-examples", "{doc:#}");
    // Without an agent configuration in use, no such line.
    b.sh(&format!(
        "cd /tmp/clone && {}",
        command.replace("--plugin-dir", "--nomad-config none --plugin-dir")
    ))
    .succeeds()
    .stderr_empty();
}

#[test]
fn the_readmes_operator_tour_runs_as_root_with_no_flag_and_leaves_the_agent_as_it_was() {
    operator_tour(Layout::default());
}

/// The README's tour on a box laid out so, as root with no flag and no
/// variable; the agent's tree is as it was afterwards.
pub(crate) fn operator_tour(layout: Layout) {
    let Some(b) = NodeBox::with(layout) else {
        return;
    };
    let tree = b.agent_tree();
    let root = User { uid: 0, gid: 0 };
    // The README's tour, on a node: no PLUGCTL_* variable, no directory
    // flag; the agent's configuration says where everything is.
    b.plugctl()
        .args(["fingerprint"])
        .succeeds()
        .stdout_has("sparse-image")
        .stdout_has("built-in to Nomad; needs a Nomad cluster to run");
    b.plugctl()
        .args(["-v", "fingerprint"])
        .succeeds()
        .stderr_has("plugctl: volumes: /opt/nomad/data/host_volumes");
    b.plugctl().args(["plugin", "list"]).succeeds();
    let created = b
        .plugctl()
        .args([
            "volume",
            "create",
            "--plugin",
            "sparse-image",
            "--name",
            "web-data",
            "--capacity-max",
            "10MiB",
        ])
        .succeeds()
        .stdout_has("/opt/nomad/data/host_volumes/");
    assert!(created.stdout().contains(".img"), "{}", created.stdout());
    b.plugctl().args(["volume", "show", "web-data"]).succeeds();
    b.plugctl()
        .args(["volume", "delete", "web-data"])
        .succeeds()
        .stdout_has("deleted volume");
    b.mkdir("/tmp/store", 0o700, root);
    b.mkdir("/tmp/store/app", 0o700, root);
    b.write(
        "/tmp/store/app/db.env",
        "DB_USER=app\nDB_PASS=s3cret\n",
        0o600,
        root,
    );
    b.plugctl()
        .args([
            "secret",
            "fetch",
            "env-file",
            "app/db",
            "--env",
            "SECRETS_DIR=/tmp/store",
        ])
        .succeeds()
        .stdout_has("DB_USER=app");
    b.plugctl()
        .args(["fingerprint", "--quiet", "--textfile", TEXTFILE_DIR])
        .succeeds();
    assert!(
        b.read(&format!("{TEXTFILE_DIR}/plugctl.prom")).contains(
            r#"plugctl_plugin_healthy{family="host-volume",name="dir",version="1.0.0"} 1"#
        )
    );
    b.plugctl()
        .args(["events"])
        .succeeds()
        .stdout_has("volume_delete");
    b.plugctl()
        .args([
            "volume",
            "create",
            "--plugin",
            "dir",
            "--name",
            "web",
            "--dry-run",
        ])
        .succeeds()
        .stdout_has("DHV_VOLUMES_DIR=/opt/nomad/data/host_volumes")
        .stderr_has("nothing was run and the registry was not changed");
    b.plugctl().args(["volume", "audit"]).succeeds();
    // The agent's configuration, data_dir and volumes, as they were; what
    // plugctl keeps is its own (/var/lib/plugctl).
    assert_same_tree("the agent's tree", &tree, &b.agent_tree());
    assert!(b.exists(REGISTRY));
}

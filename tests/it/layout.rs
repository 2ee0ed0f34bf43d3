//! Where plugctl looks on a node: the Nomad agent's own configuration
//! (`--nomad-config`, `PLUGCTL_NOMAD_CONFIG`), real HCL and JSON files in a
//! scratch tree, read as `nomad agent -config` reads them; flags and
//! variables over it; `-v` naming where each directory came from; and the
//! configuration errors that stop plugctl (exit 2, file and line named).

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::*;

/// A scratch node: an agent configuration directory and a data_dir, with
/// plugctl's own layout variables removed so only the agent config
/// speaks.
struct Node {
    s: Rig,
    config: PathBuf,
    data: PathBuf,
}

impl Node {
    fn new() -> Node {
        let s = Rig::new();
        let config = s.root().join("etc/nomad.d");
        let data = s.root().join("opt/nomad/data");
        make_dir(&config);
        make_dir(&data);
        Node { s, config, data }
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.config.join(name);
        fs::write(&p, text).unwrap();
        p
    }

    /// A plugin script in any directory.
    fn plugin(&self, dir: &Path, name: &str, body: &str) -> PathBuf {
        make_dir(dir);
        let tmp = self.s.root().join(format!(".tmp-{name}"));
        fs::write(&tmp, format!("#!/bin/sh\n{body}\n")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&tmp, fs::Permissions::from_mode(0o755)).unwrap();
        let path = dir.join(name);
        fs::rename(&tmp, &path).unwrap();
        path
    }

    fn hv(&self, dir: &Path, name: &str) -> PathBuf {
        self.plugin(
            dir,
            name,
            r#"[ "$1" = fingerprint ] && echo '{"version": "1.0.0"}' && exit 0; exit 1"#,
        )
    }

    /// plugctl reading this node's agent configuration (and nothing of
    /// the rig's layout variables).
    fn plugctl(&self) -> expect::Run {
        plugctl(&self.s)
            .env("PLUGCTL_NOMAD_CONFIG", &self.config)
            .env_remove("PLUGCTL_PLUGIN_DIR")
            .env_remove("PLUGCTL_VOLUMES_DIR")
    }
}

use crate::common::expect;

#[test]
fn a_config_directory_of_hcl_and_json_gives_the_layout_and_the_later_file_wins() {
    let n = Node::new();
    let data = n.data.display().to_string();
    n.write(
        "10-nomad.hcl",
        &format!(
            "# as the package ships it\ndata_dir  = \"{data}\"\nbind_addr = \"0.0.0.0\"\n\n\
             client {{\n  enabled = true\n  host_volume_plugin_dir = \"/nowhere/hv\"\n}}\n"
        ),
    );
    let hv_dir = n.s.root().join("srv/hv-plugins");
    n.write(
        "20-client.json",
        &format!(
            "{{\n  \"client\": {{\n    \"host_volume_plugin_dir\": \"{}\"\n  }}\n}}\n",
            hv_dir.display()
        ),
    );
    // Neither read: not *.hcl/*.json, an editor's backup, a subdirectory.
    n.write("README", "data_dir = \"relative\"\n");
    n.write("10-nomad.hcl~", "data_dir = \"relative\"\n");
    make_dir(n.config.join("old.hcl"));

    n.hv(&hv_dir, "from-json");
    n.hv(&n.data.join("host_volume_plugins"), "not-this-one");
    n.plugin(
        &n.data.join("common_plugins/secrets"),
        "sec",
        r#"echo '{"type": "secrets", "version": "1.0.0"}'"#,
    );
    let doc = n
        .plugctl()
        .args(["--json", "fingerprint"])
        .succeeds()
        .json();
    assert_eq!(row(&doc, "host-volume", "from-json")["healthy"], true);
    assert_eq!(row(&doc, "secrets", "sec")["healthy"], true);
    assert!(
        !doc.to_string().contains("not-this-one"),
        "the earlier file's host_volume_plugin_dir lost to the later one: {doc}"
    );
    assert_eq!(doc["host_volume_plugin_dir"], hv_dir.display().to_string());
    assert_eq!(
        doc["plugin_dir"],
        n.data.join("common_plugins").display().to_string()
    );

    // -v says which directory came from where.
    let ran = n.plugctl().args(["-v", "plugin", "list"]).succeeds();
    let err = ran.stderr();
    assert!(
        err.contains(&format!(
            "host-volume plugins: {} (client.host_volume_plugin_dir in {}:3)",
            hv_dir.display(),
            n.config.join("20-client.json").display()
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "plugin directory: {}/common_plugins (<data_dir>/common_plugins, as Nomad \
             derives it; data_dir in {}:2)",
            data,
            n.config.join("10-nomad.hcl").display()
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "volumes: {data}/host_volumes (<data_dir>/host_volumes"
        )),
        "{err}"
    );
    assert!(
        err.contains("Nomad agent configuration: ") && err.contains("from PLUGCTL_NOMAD_CONFIG"),
        "{err}"
    );
}

#[test]
fn volumes_go_where_the_agent_config_says() {
    let n = Node::new();
    let vols = n.s.root().join("srv/volumes");
    make_dir(&vols);
    let f = n.write(
        "agent.hcl",
        &format!(
            "data_dir = \"{}\"\nclient {{\n  host_volumes_dir = \"{}\"\n}}\n",
            n.data.display(),
            vols.display()
        ),
    );
    let ran = plugctl(&n.s)
        .args(["--json", "--nomad-config"])
        .arg(&f)
        .env_remove("PLUGCTL_VOLUMES_DIR")
        .args(["volume", "create", "--plugin", "mkdir", "--name", "web"])
        .succeeds();
    let path = ran.json()["volume"]["path"].as_str().unwrap().to_string();
    assert!(path.starts_with(&vols.display().to_string()), "{path}");
    assert!(Path::new(&path).is_dir());
}

#[test]
fn flags_and_variables_override_the_agent_config_and_say_so() {
    let n = Node::new();
    n.write("a.hcl", &format!("data_dir = \"{}\"\n", n.data.display()));
    let mine = n.s.root().join("mine");
    n.hv(&mine, "flagged");
    n.hv(&n.data.join("host_volume_plugins"), "configured");
    let ran = n
        .plugctl()
        .args(["-v", "--json", "fingerprint", "--type", "host-volume"])
        .arg("--host-volume-plugin-dir")
        .arg(&mine)
        .succeeds();
    let doc = ran.json();
    assert_eq!(row(&doc, "host-volume", "flagged")["healthy"], true);
    assert!(!doc.to_string().contains("configured"), "{doc}");
    assert!(
        ran.stderr().contains(&format!(
            "host-volume plugins: {} (from --host-volume-plugin-dir)",
            mine.display()
        )),
        "{}",
        ran.stderr()
    );
    let ran = n
        .plugctl()
        .env("PLUGCTL_HOST_VOLUME_PLUGIN_DIR", &mine)
        .args(["-v", "fingerprint", "--type", "host-volume"])
        .succeeds();
    assert!(
        ran.stderr()
            .contains("(from PLUGCTL_HOST_VOLUME_PLUGIN_DIR)"),
        "{}",
        ran.stderr()
    );
    // --nomad-config beats its variable; `none` reads nothing.
    let ran = n
        .plugctl()
        .args(["-v", "--nomad-config", "none", "--plugin-dir"])
        .arg(n.s.plugins.as_os_str())
        .args(["plugin", "list"])
        .succeeds();
    assert!(
        ran.stderr()
            .contains("Nomad agent configuration: none read"),
        "{}",
        ran.stderr()
    );
    assert!(
        ran.stderr().contains(&format!(
            "host-volume plugins: {}/host-volume (<plugin-dir>/host-volume)",
            n.s.plugins.display()
        )),
        "{}",
        ran.stderr()
    );
}

#[test]
fn plugin_dir_alone_is_the_development_layout() {
    // The examples, as README's first command runs them.
    let s = Rig::new();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("plugins-examples");
    let doc = plugctl(&s)
        .env_remove("PLUGCTL_PLUGIN_DIR")
        .arg("--plugin-dir")
        .arg(&examples)
        .args(["--json", "fingerprint", "--type", "host-volume", "dir"])
        .succeeds()
        .json();
    assert_eq!(
        doc["host_volume_plugin_dir"],
        examples.join("host-volume").display().to_string()
    );
    assert_eq!(row(&doc, "host-volume", "dir")["healthy"], true);
}

#[test]
fn a_config_that_does_not_parse_names_file_and_line() {
    let n = Node::new();
    n.write("10-ok.hcl", "data_dir = \"/opt/nomad/data\"\n");
    // HCL 1 forgives the list's error at the block's `}`, then finds no
    // `}` for the block: the end of the file, line 5.
    let bad = n.write(
        "20-bad.hcl",
        "client {\n  enabled = true\n  servers = [\"a\"\n}\n",
    );
    n.plugctl()
        .args(["fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!(
            "{}:5:1: the file does not parse as HCL 1, as the agent reads it: object expected \
             closing RBRACE got: EOF",
            bad.display()
        ));
    // The same as the JSON error document.
    let ran = n
        .plugctl()
        .args(["--json", "plugin", "list"])
        .fails_with(Exit::Usage)
        .error_has("20-bad.hcl:5:1:");
    assert_eq!(ran.error()["kind"], "usage");
    let bad = n.write("20-bad.hcl", "{\"data_dir\": \"/x\",\n \"client\": {]}\n");
    n.plugctl()
        .args(["fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!("{}:2:13: ", bad.display()));
}

#[test]
fn a_relative_directory_is_refused_with_file_and_line() {
    let n = Node::new();
    let f = n.write(
        "client.hcl",
        "data_dir = \"/opt/nomad/data\"\n\nclient {\n  enabled = true\n  host_volume_plugin_dir = \"plugins\"\n}\n",
    );
    n.plugctl()
        .args(["fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!(
            "{}:5:28: client.host_volume_plugin_dir must be an absolute path, as Nomad \
             requires: it is relative",
            f.display()
        ));
    fs::remove_file(&f).unwrap();
    let f = n.write(
        "client.json",
        "{\n  \"data_dir\": \"/opt/nomad/data\",\n  \"client\": {\n    \"enabled\": true,\n    \"host_volumes_dir\": \"vols\"\n  }\n}\n",
    );
    n.plugctl()
        .args(["volume", "list"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!(
            "{}:5:25: client.host_volumes_dir must be an absolute path",
            f.display()
        ));
    fs::write(&f, "{\"data_dir\": [\"/a\"]}").unwrap();
    n.plugctl()
        .args(["volume", "list"])
        .fails_with(Exit::Usage)
        .stderr_has("data_dir: expected a string, found a list, as the agent decodes it");
}

#[test]
fn an_unreadable_config_is_a_configuration_error() {
    let n = Node::new();
    let missing = n.s.root().join("no/such/nomad.hcl");
    plugctl(&n.s)
        .arg("--nomad-config")
        .arg(&missing)
        .args(["fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!(
            "cannot read the Nomad agent configuration {}: No such file",
            missing.display()
        ));
    let f = n.write("latin1.hcl", "");
    fs::write(&f, b"data_dir = \"/opt/d\xe9j\xe0\"\n").unwrap();
    n.plugctl()
        .args(["fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!(
            "{}:1:21: the file does not parse as HCL 1, as the agent reads it: illegal UTF-8 \
             encoding",
            f.display()
        ));
    plugctl(&n.s)
        .args([
            "--nomad-config",
            "none",
            "--nomad-config",
            "x",
            "fingerprint",
        ])
        .fails_with(Exit::Usage)
        .stderr_has("for a file named none, write ./none");
    // One the user running plugctl may not read: as nobody, when this
    // runs as root (CI does).
    if !nix::unistd::geteuid().is_root() {
        eprintln!("SKIPPED: an unreadable config needs root to switch users");
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    fs::write(&f, "data_dir = \"/opt/nomad/data\"\n").unwrap();
    fs::set_permissions(&f, fs::Permissions::from_mode(0o600)).unwrap();
    let home = n.s.root().join("nobody");
    make_dir(&home);
    nix::unistd::chown(&home, Some(65534.into()), Some(65534.into())).unwrap();
    plugctl_as_nobody(&n.s)
        .env("PLUGCTL_NOMAD_CONFIG", &n.config)
        .env("HOME", &home)
        .env_remove("PLUGCTL_PLUGIN_DIR")
        .env_remove("PLUGCTL_REGISTRY")
        .env_remove("PLUGCTL_VOLUMES_DIR")
        .args(["plugin", "list"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!(
            "cannot read the Nomad agent configuration {}: Permission denied",
            f.display()
        ));
}

/// As root with no flag: `/etc/nomad.d` when it exists, else Nomad's
/// defaults with data_dir /opt/nomad/data. Run in a mount namespace of its
/// own over an empty /etc, so the machine's own /etc/nomad.d is neither
/// read nor touched.
#[test]
fn as_root_etc_nomad_d_is_read_when_it_exists_else_nomads_defaults() {
    if !nix::unistd::geteuid().is_root() {
        skip_unless_ci("needs root for a mount namespace");
        return;
    }
    let n = Node::new();
    n.write(
        "nomad.hcl",
        &format!("data_dir = \"{}\"\n", n.data.display()),
    );
    n.hv(&n.data.join("host_volume_plugins"), "from-etc");
    let script = r#"
        mount -t tmpfs tmpfs /etc || exit 99
        "$PLUGCTL" -v --json fingerprint --type host-volume > "$OUT/none.json" 2> "$OUT/none.err"
        mkdir /etc/nomad.d && cp "$CONF"/* /etc/nomad.d/ || exit 98
        "$PLUGCTL" -v --json fingerprint --type host-volume > "$OUT/etc.json" 2> "$OUT/etc.err"
        exit 0
    "#;
    let Some(run) = in_mount_namespace(&n.s, script) else {
        return;
    };
    run.env_remove("PLUGCTL_NOMAD_CONFIG")
        .env_remove("PLUGCTL_PLUGIN_DIR")
        .env_remove("PLUGCTL_VOLUMES_DIR")
        .env("CONF", &n.config)
        .succeeds();
    // No /etc/nomad.d: Nomad's defaults, said so.
    let err = n.s.read_out("none.err");
    assert!(
        err.contains("Nomad agent configuration: none read"),
        "{err}"
    );
    assert!(
        err.contains(
            "host-volume plugins: /opt/nomad/data/host_volume_plugins (<data_dir>/host_volume_plugins, \
             as Nomad derives it; data_dir /opt/nomad/data, the packaged agent's data_dir (as root))"
        ),
        "{err}"
    );
    // /etc/nomad.d: read, and its data_dir used.
    let err = n.s.read_out("etc.err");
    assert!(
        err.contains("Nomad agent configuration: /etc/nomad.d (/etc/nomad.d, the packaged agent's"),
        "{err}"
    );
    let doc: serde_json::Value = serde_json::from_str(&n.s.read_out("etc.json")).unwrap();
    assert_eq!(
        row(&doc, "host-volume", "from-etc")["healthy"],
        true,
        "{doc}"
    );
}

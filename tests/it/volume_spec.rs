//! `volume create -f FILE` (issue 33 §5): the specification `nomad volume
//! create` takes, in HCL or JSON, gives a plugin exactly what the
//! equivalent flags give it; what a create on this node cannot honour is
//! said or refused, never dropped.

use std::fs;

use crate::common::*;

const ID: &str = "0b5e2c1a-1111-4222-8333-444455556666";

/// A plugin that writes its whole environment (sorted), its arguments and
/// its stdin to `dump`, then makes the volume.
fn dumping(s: &Rig) -> std::path::PathBuf {
    let dump = s.root().join("dump");
    s.hv_script(
        "quota-dir",
        &format!(
            r#"{{ echo "argv: $*"; env | LC_ALL=C sort; echo "stdin:"; cat; }} > '{}' && mkdir -p "$v" && printf '{{"path": "%s", "bytes": 0}}' "$v""#,
            dump.display()
        ),
        r#"rm -rf "$v""#,
    );
    plugctl(s).args(["fingerprint"]).succeeds();
    dump
}

fn spec(s: &Rig, name: &str, text: &str) -> String {
    let path = s.root().join(name);
    fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// What the plugin got in its last call, and the dump removed.
fn taken(dump: &std::path::Path) -> String {
    let got = fs::read_to_string(dump).unwrap();
    fs::remove_file(dump).unwrap();
    got
}

#[test]
fn a_specification_gives_the_plugin_exactly_what_the_flags_give() {
    let s = Rig::new();
    let dump = dumping(&s);
    plugctl(&s)
        .args([
            "volume",
            "create",
            "--plugin",
            "quota-dir",
            "--name",
            "web-data",
        ])
        .args(["--id", ID, "--namespace", "prod", "--capacity-min", "500MB"])
        .args(["--capacity-max", "1GiB", "--param", "mode=0750"])
        .args(["--param", "owner=nomad"])
        .succeeds();
    let by_flags = taken(&dump);
    for want in [
        "DHV_CAPACITY_MIN_BYTES=500000000\n",
        "DHV_CAPACITY_MAX_BYTES=1073741824\n",
        "DHV_NAMESPACE=prod\n",
        "DHV_VOLUME_NAME=web-data\n",
        "DHV_PARAMETERS={\"mode\":\"0750\",\"owner\":\"nomad\"}\n",
    ] {
        assert!(by_flags.contains(want), "{want} in\n{by_flags}");
    }
    let delete = || {
        plugctl(&s)
            .args(["volume", "delete", "--id", ID])
            .succeeds();
        assert!(!dump.exists(), "delete wrote no dump");
    };
    delete();
    let hcl = spec(
        &s,
        "web.volume.hcl",
        &format!(
            r#"# as nomad volume create takes it
type      = "host"
id        = "{ID}"
name      = "web-data"
namespace = "prod"
plugin_id = "quota-dir"
node_pool = "default"

capacity_min = "500MB"
capacity_max = "1GiB"

parameters {{
  mode  = "0750"
  owner = "nomad"
}}
"#
        ),
    );
    plugctl(&s)
        .args(["volume", "create", "-f", &hcl])
        .succeeds()
        .stderr_lacks("warning");
    assert_eq!(taken(&dump), by_flags);
    delete();
    let json = spec(
        &s,
        "web.volume.json",
        &format!(
            r#"{{"type": "host", "id": "{ID}", "name": "web-data", "namespace": "prod",
  "plugin_id": "quota-dir", "capacity_min": 500000000, "capacity_max": "1GiB",
  "parameters": {{"owner": "nomad", "mode": "0750"}}}}"#
        ),
    );
    plugctl(&s)
        .args(["volume", "create", "--file", &json])
        .succeeds();
    assert_eq!(taken(&dump), by_flags);
    // The record is the same as the flags'.
    plugctl(&s)
        .args(["volume", "show", ID, "--json"])
        .succeeds()
        .stdout_has("\"plugin\": \"quota-dir\"")
        .stdout_has("\"namespace\": \"prod\"");
}

#[test]
fn what_only_a_server_honours_is_said_with_its_line() {
    let s = Rig::new();
    let dump = dumping(&s);
    let file = spec(
        &s,
        "v.hcl",
        r#"type = "host"
name = "w"
plugin_id = "quota-dir"
constraint {
  attribute = "${attr.kernel.name}"
  value     = "linux"
}
capability {
  access_mode     = "single-node-writer"
  attachment_mode = "file-system"
}
capacity = "1GiB"
plugn = "typo"
"#,
    );
    plugctl(&s)
        .args(["volume", "create", "-f", &file])
        .succeeds()
        .stderr_has(&format!(
            "plugctl: warning: -f {file}, line 4: a constraint block is not checked"
        ))
        .stderr_has(&format!(
            "-f {file}, line 8: a capability block is not checked"
        ))
        .stderr_has(&format!("-f {file}, line 12: capacity is not passed"))
        .stderr_has(&format!(
            "-f {file}, line 13: \"plugn\" is no key of a host volume's specification"
        ));
    assert!(taken(&dump).contains("DHV_VOLUME_NAME=w\n"));
}

#[test]
fn another_node_another_pool_or_type_is_refused_before_any_plugin_runs() {
    let s = Rig::new();
    let dump = dumping(&s);
    let base = "name = \"w\"\nplugin_id = \"quota-dir\"\n";
    for (text, says) in [
        (
            "type = \"host\"\nnode_id = \"8d1a0000-0000-4000-8000-000000000000\"\n",
            "line 2: node_id = \"8d1a0000-0000-4000-8000-000000000000\" is another node",
        ),
        (
            "type = \"host\"\nnode_pool = \"gpu\"\n",
            "line 2: node_pool = \"gpu\", but this node is in pool \"default\"",
        ),
        (
            "type = \"csi\"\n",
            "line 1: type = \"csi\": plugctl creates host volumes only",
        ),
        ("", "no type: a volume specification says type = \"host\""),
        (
            "type = \"host\"\ncapacity_max = \"1 fish\"\n",
            "line 2: capacity_max: \"1 fish\"",
        ),
        (
            "type = \"host\"\nparameters { fast = true }\n",
            "2:21: parameters.fast: expected a string, found a bool",
        ),
        ("type = \"host\"\nname = \n", "3:1: "),
    ] {
        let file = spec(&s, "bad.hcl", &format!("{text}{base}"));
        plugctl(&s)
            .args(["volume", "create", "-f", &file])
            .fails_with(Exit::Usage)
            .stderr_has(&format!("-f {file}"))
            .stderr_has(says);
        assert!(!dump.exists(), "{text}: the plugin ran");
    }
    // A spec without the plugin or the name says which.
    let file = spec(&s, "bare.hcl", "type = \"host\"\nname = \"w\"\n");
    plugctl(&s)
        .args(["volume", "create", "-f", &file])
        .fails_with(Exit::Usage)
        .stderr_has("no plugin_id");
    // This node's own id is taken.
    let file = spec(
        &s,
        "mine.hcl",
        &format!("type = \"host\"\nnode_id = \"ABCDEF00-0000-4000-8000-000000000000\"\n{base}"),
    );
    plugctl(&s)
        .args(["--node-id", "abcdef00-0000-4000-8000-000000000000"])
        .args(["volume", "create", "-f", &file])
        .succeeds();
    assert!(taken(&dump).contains("DHV_NODE_ID=abcdef00-0000-4000-8000-000000000000\n"));
    // A flag beside the file would be two answers to one question.
    plugctl(&s)
        .args(["volume", "create", "-f", &file, "--name", "x"])
        .fails_with(Exit::Usage)
        .stderr_has("cannot be used with");
}

#[test]
fn the_file_is_read_through_the_trust_gate() {
    let s = Rig::new();
    dumping(&s);
    let real = spec(
        &s,
        "real.hcl",
        "type = \"host\"\nname = \"w\"\nplugin_id = \"quota-dir\"\n",
    );
    let link = s.root().join("link.hcl");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    plugctl(&s)
        .args(["volume", "create", "-f", link.to_str().unwrap()])
        .fails_with(Exit::Usage)
        .stderr_has("is a symbolic link");
    let missing = s.root().join("nosuch.hcl");
    plugctl(&s)
        .args(["volume", "create", "-f", missing.to_str().unwrap()])
        .fails()
        .stderr_has(&format!("cannot read -f {}", missing.display()));
}

/// A capacity no size can be is refused naming its line, with the start of
/// what it holds and how long it is: a 100,000-digit value is not echoed
/// back whole onto the operator's terminal.
#[test]
fn a_huge_capacity_is_refused_without_echoing_it_whole() {
    let s = Rig::new();
    dumping(&s);
    let digits = "9".repeat(100_000);
    for value in [digits.clone(), format!("\"{digits}\"")] {
        let file = spec(
            &s,
            "huge.hcl",
            &format!(
                "type = \"host\"\nname = \"w\"\nplugin_id = \"quota-dir\"\ncapacity_min = {value}\n"
            ),
        );
        let err = plugctl(&s)
            .args(["volume", "create", "-f", &file])
            .fails_with(Exit::Usage)
            .stderr_has(
                "line 4: capacity_min: \"99999999999999999999999999999999\"… (100000 characters)",
            )
            .stderr();
        assert!(err.len() < 1000, "{} bytes of error", err.len());
    }
}

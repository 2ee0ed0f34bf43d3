//! A plugin's sandbox policy (docs/sandbox.md#a-plugins-policy): the
//! policy file beside the plugins, read through the trust gate, pinned
//! with each plugin, checked and shown by `validate`, written by `init`;
//! and the shipped examples, which pass `plugctl test` under strict with
//! the policies shipped beside them.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use serde_json::Value;

use crate::common::*;

const POLICY: &str = "plugctl.policy.json";

/// A rig whose plugin directory is a copy of the gallery, policy file
/// included.
fn gallery() -> Rig {
    let s = Rig::new();
    copy_tree(&examples(), &s.plugins);
    s
}

fn write_policy(s: &Rig, json: &str) {
    let p = s.plugins.join(POLICY);
    fs::write(&p, json).unwrap();
    fs::set_permissions(&p, fs::Permissions::from_mode(0o644)).unwrap();
}

fn ok_report(what: &str, doc: &Value) {
    assert_eq!(doc["ok"], true, "{what}: {doc:#}");
    let errors: Vec<&Value> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "error")
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
}

#[test]
fn the_examples_pass_their_suites_under_strict_with_the_policies_beside_them() {
    let s = gallery();
    if !strict_runs(&s) {
        return;
    }
    for name in ["dir", "mkfs-image", "quota-dir", "sparse-image"] {
        let doc = plugctl(&s)
            .args(["--json", "--sandbox", "strict", "test", "host-volume", name])
            .succeeds()
            .json();
        ok_report(&format!("strict test host-volume {name}"), &doc);
    }
    let store = s.root().join("store");
    make_dir(store.join("app"));
    fs::write(store.join("app/db.env"), "USER=admin\n").unwrap();
    let file = s.root().join("store.json");
    fs::write(&file, r#"{"app/db": {"USER": "admin"}}"#).unwrap();
    for (name, env) in [
        ("env-file", format!("SECRETS_DIR={}", store.display())),
        ("json-file", format!("SECRETS_FILE={}", file.display())),
    ] {
        let doc = plugctl(&s)
            .args(["--json", "--sandbox", "strict", "test", "secrets", name])
            .args(["--path", "app/db", "--env", &env])
            .succeeds()
            .json();
        ok_report(&format!("strict test secrets {name}"), &doc);
        let fetched = doc["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["check"] == "fetch.result")
            .unwrap();
        assert_eq!(fetched["outcome"], "passed", "{name}: {doc:#}");
    }
    // The other family has no suite: its fingerprints are healthy.
    let doc = plugctl(&s)
        .args([
            "--json",
            "--sandbox",
            "strict",
            "fingerprint",
            "--type",
            "example-family",
        ])
        .succeeds()
        .json();
    for name in ["hello", "hello-py"] {
        assert_eq!(
            row(&doc, "example-family", name)["healthy"],
            true,
            "{doc:#}"
        );
    }
}

#[test]
fn a_secrets_store_is_readable_under_strict_only_through_its_policys_grant() {
    let s = gallery();
    if !strict_runs(&s) {
        return;
    }
    let store = s.root().join("store");
    make_dir(store.join("app"));
    fs::write(store.join("app/db.env"), "USER=admin\n").unwrap();
    let env = format!("SECRETS_DIR={}", store.display());
    plugctl(&s)
        .args([
            "--sandbox",
            "strict",
            "secret",
            "fetch",
            "env-file",
            "app/db",
        ])
        .args(["--env", &env])
        .succeeds()
        .stdout_has("USER=admin");
    // Without the grant the store is out of reach.
    let policy = fs::read_to_string(s.plugins.join(POLICY)).unwrap();
    let mut doc: Value = serde_json::from_str(&policy).unwrap();
    doc["plugins"]["secrets/env-file"] = serde_json::json!({});
    write_policy(&s, &doc.to_string());
    plugctl(&s)
        .args([
            "--sandbox",
            "strict",
            "secret",
            "fetch",
            "env-file",
            "app/db",
        ])
        .args(["--env", &env])
        .fails()
        .stdout_lacks("USER=admin");
}

#[test]
fn mkfs_image_mounts_its_loop_device_under_strict_with_its_policy_and_not_without() {
    let s = gallery();
    if !strict_runs(&s) || !tool_available("mkfs.ext4", "an ext4 image") {
        return;
    }
    // Mounts happen in the test's own mount namespace only.
    let script = r#"set -e
"$PLUGCTL" --sandbox strict volume create --plugin mkfs-image --name m \
  --capacity-max 8MiB --param filesystem=ext4 --param mount=true >"$OUT/create"
awk '$5 ~ /volumes/ && / - ext4 / { print "mounted" }' /proc/self/mountinfo >"$OUT/mounted"
"$PLUGCTL" --sandbox strict volume delete m >"$OUT/delete"
awk '$5 ~ /volumes/ && / - ext4 / { print "still" }' /proc/self/mountinfo >"$OUT/after"
"#;
    let Some(ns) = in_mount_namespace(&s, script) else {
        return;
    };
    ns.succeeds();
    assert_eq!(s.read_out("mounted").trim(), "mounted");
    assert_eq!(s.read_out("after").trim(), "");
    // Without the grant, strict refuses the mount.
    let policy = fs::read_to_string(s.plugins.join(POLICY)).unwrap();
    let mut doc: Value = serde_json::from_str(&policy).unwrap();
    doc["plugins"]["host-volume/mkfs-image"] = serde_json::json!({});
    write_policy(&s, &doc.to_string());
    let Some(ns) = in_mount_namespace(
        &s,
        r#""$PLUGCTL" --sandbox strict volume create --plugin mkfs-image --name n \
  --capacity-max 8MiB --param filesystem=ext4 --param mount=true 2>"$OUT/refused"; exit 0"#,
    ) else {
        return;
    };
    ns.succeeds();
    let refused = s.read_out("refused");
    assert!(refused.contains("cannot mount"), "{refused}");
}

#[test]
fn a_policy_file_another_user_controls_is_not_read_its_plugins_are_refused_and_a_bad_one_is_named()
{
    let s = Rig::new();
    s.plugin(
        "host-volume",
        "ok",
        &format!(
            r#"echo "$1" >>'{}'; echo '{{"version": "1.0.0"}}'"#,
            s.out_file("ran").display()
        ),
    );
    write_policy(
        &s,
        r#"{"schema_version": 1, "plugins": {"host-volume/ok": {"netwrk": true}}}"#,
    );
    plugctl(&s)
        .args(["fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has("plugctl.policy.json")
        .stderr_has("netwrk");
    write_policy(&s, r#"{"schema_version": 1, "plugins": {}}"#);
    // One plugctl cannot trust is not read, as the lock file: the command
    // goes on, and every plugin it may hold a policy for is refused as it
    // runs, never run without it.
    fs::set_permissions(s.plugins.join(POLICY), fs::Permissions::from_mode(0o666)).unwrap();
    plugctl(&s)
        .args(["fingerprint"])
        .fails_with(Exit::Failure)
        .stderr_has("policy file")
        .stderr_has("writable by")
        .stderr_has("refused as they run")
        .stdout_has("its sandbox policy cannot be read");
    fs::set_permissions(s.plugins.join(POLICY), fs::Permissions::from_mode(0o644)).unwrap();
    let Some(user) = intruder() else {
        return;
    };
    user.own(&s.plugins.join(POLICY));
    plugctl(&s)
        .args(["fingerprint"])
        .fails_with(Exit::Failure)
        .stderr_has("policy file")
        .stderr_has(&format!("belongs to uid {}", user.uid))
        .stdout_has("its sandbox policy cannot be read");
    // A plugin of the directories is refused even where the gate lets it
    // run, with the reason; a policy file elsewhere (--lockfile) whose
    // directory is another user's, holding nothing, is judged alike.
    let elsewhere = s.dir.path().join("theirs");
    fs::create_dir(&elsewhere).unwrap();
    user.own(&elsewhere);
    plugctl(&s)
        .args(["--lockfile"])
        .arg(elsewhere.join("plugctl.lock"))
        .args(["fingerprint"])
        .fails_with(Exit::Failure)
        .stdout_has("its sandbox policy cannot be read")
        .stdout_has(&format!("belongs to uid {}", user.uid));
    assert_eq!(s.read_out("ran"), "", "a plugin ran without its policy");
}

#[test]
fn a_policy_raises_its_plugins_level_and_tightens_caps_never_loosens_them() {
    let s = Rig::new();
    if !strict_runs(&s) {
        return;
    }
    s.plugin(
        "host-volume",
        "raised",
        "PATH=/usr/bin:/bin\necho \"REPORT seccomp=$(awk '/^Seccomp:/ {print $2}' /proc/self/status) files=$(ulimit -n)\" >&2; exit 1",
    );
    write_policy(
        &s,
        r#"{"schema_version": 1, "plugins": {"host-volume/raised": {"level": "strict", "files_max": 64}}}"#,
    );
    let reason = |args: &[&str]| -> String {
        let doc = plugctl(&s)
            .arg("--json")
            .args_from(args.iter().copied())
            .args(["fingerprint", "raised"])
            .any_exit()
            .json();
        row(&doc, "host-volume", "raised")["error"]
            .as_str()
            .unwrap()
            .to_string()
    };
    // Under none (the default) it still runs strict, with its own cap.
    let r = reason(&[]);
    assert!(r.contains("seccomp=2 files=64"), "{r}");
    // A lower cap on the command line wins; a higher one does not.
    let r = reason(&["--sandbox", "trim", "--files-max", "32"]);
    assert!(r.contains("seccomp=2 files=32"), "{r}");
    let r = reason(&["--sandbox", "trim", "--files-max", "1000"]);
    assert!(r.contains("files=64"), "{r}");
}

#[test]
fn pin_pins_each_plugins_policy_and_locked_refuses_a_changed_one() {
    let s = Rig::new();
    s.hv_ok("ok", "1.0.0");
    write_policy(
        &s,
        r#"{"schema_version": 1, "plugins": {"host-volume/ok": {}}}"#,
    );
    plugctl(&s).args(["pin"]).succeeds();
    let lock: Value =
        serde_json::from_slice(&fs::read(s.plugins.join("plugctl.lock")).unwrap()).unwrap();
    let pinned = &lock["plugins"][0];
    assert_eq!(pinned["name"], "ok");
    assert_eq!(
        pinned["policy"].as_str().map(str::len),
        Some(64),
        "{lock:#}"
    );
    plugctl(&s).args(["pin", "--check"]).succeeds();
    plugctl(&s)
        .args(["--locked", "fingerprint", "ok"])
        .succeeds();
    // A grant added behind the pin's back: the check says so, and
    // --locked runs nothing under a policy no one approved.
    write_policy(
        &s,
        r#"{"schema_version": 1, "plugins": {"host-volume/ok": {"network": true}}}"#,
    );
    plugctl(&s)
        .args(["pin", "--check"])
        .fails_with(Exit::Failure)
        .stdout_has("sandbox policy changed");
    let doc = plugctl(&s)
        .args(["--json", "--locked", "fingerprint", "ok"])
        .fails_with(Exit::Failure)
        .json();
    let r = row(&doc, "host-volume", "ok");
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("its sandbox policy changed since it was pinned"),
        "{r}"
    );
    // Pinning again accepts it; reordering the file changes nothing.
    plugctl(&s).args(["pin"]).succeeds().stdout_has("policy");
    write_policy(
        &s,
        "{\"plugins\": {\"host-volume/ok\": {\"network\": true}},\n \"schema_version\": 1}",
    );
    plugctl(&s)
        .args(["--locked", "fingerprint", "ok"])
        .succeeds();
}

#[test]
fn validate_shows_each_plugins_exposure_and_a_policy_that_names_no_plugin() {
    let s = gallery();
    let dir = s.plugins.display().to_string();
    let doc = plugctl(&s)
        .args([
            "--json",
            "--sandbox",
            "strict",
            "--sandbox-best-effort",
            "validate",
            &dir,
        ])
        .any_exit()
        .json();
    let finding = |id: &str| -> String {
        doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["plugin"] == id && f["check"] == "sandbox.policy")
            .unwrap_or_else(|| panic!("no sandbox.policy for {id}: {doc:#}"))["message"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let mkfs = finding("host-volume/mkfs-image");
    assert!(mkfs.contains("runs under strict"), "{mkfs}");
    assert!(mkfs.contains("capabilities CAP_SYS_ADMIN"), "{mkfs}");
    assert!(mkfs.contains("mount system calls"), "{mkfs}");
    assert!(mkfs.contains("no Landlock"), "{mkfs}");
    let dir_plugin = finding("host-volume/dir");
    assert!(
        dir_plugin.contains("grants nothing beyond strict"),
        "{dir_plugin}"
    );
    let env = finding("secrets/env-file");
    assert!(env.contains("SECRETS_DIR"), "{env}");
    // A policy for a plugin that is not there is a warning.
    let mut policy: Value =
        serde_json::from_str(&fs::read_to_string(s.plugins.join(POLICY)).unwrap()).unwrap();
    policy["plugins"]["host-volume/renamed"] = serde_json::json!({"network": true});
    write_policy(&s, &policy.to_string());
    plugctl(&s)
        .args(["validate", "--strict", &dir])
        .fails_with(Exit::Failure)
        .stdout_has("sandbox.unused-policy")
        .stdout_has("host-volume/renamed");
}

#[test]
fn init_gives_a_new_plugin_its_policy_and_it_passes_its_suite_under_strict() {
    let s = Rig::new();
    let work = s.root().join("author");
    make_dir(&work);
    plugctl(&s)
        .args(["init", "host-volume", "fresh"])
        .current_dir(&work)
        .succeeds()
        .stderr_has(POLICY);
    let policy: Value = serde_json::from_slice(&fs::read(work.join(POLICY)).unwrap()).unwrap();
    assert_eq!(
        policy["plugins"]["host-volume/fresh"],
        serde_json::json!({})
    );
    // A second plugin adds its entry and keeps the first.
    plugctl(&s)
        .args(["init", "secrets", "other", "--lang", "python"])
        .current_dir(&work)
        .succeeds();
    let policy: Value = serde_json::from_slice(&fs::read(work.join(POLICY)).unwrap()).unwrap();
    assert!(policy["plugins"]["host-volume/fresh"].is_object());
    assert!(policy["plugins"]["secrets/other"].is_object());
    if !strict_runs(&s) {
        return;
    }
    plugctl(&s)
        .env("PLUGCTL_PLUGIN_DIR", &work)
        .args(["--sandbox", "strict", "test", "host-volume", "fresh"])
        .succeeds();
}

#[test]
fn a_dry_run_shows_the_level_and_policy_a_call_would_run_under() {
    let s = gallery();
    plugctl(&s)
        .args(["--sandbox", "strict", "--sandbox-best-effort", "--memory-max", "64MiB"])
        .args(["volume", "create", "--plugin", "mkfs-image", "--name", "x", "--dry-run"])
        .succeeds()
        .stdout_has("sandbox:   strict, policy of host-volume/mkfs-image (grants capabilities CAP_SYS_ADMIN")
        .stdout_has("memory cap of 64 MiB");
    let doc = plugctl(&s)
        .args(["--json", "fingerprint", "dir", "--dry-run"])
        .succeeds()
        .json();
    assert_eq!(doc["calls"][0]["sandbox"]["level"], "none", "{doc:#}");
}

#[test]
fn propose_policy_finds_the_read_grant_a_secrets_store_needs() {
    let s = gallery();
    if !strict_runs(&s) {
        return;
    }
    write_policy(&s, r#"{"schema_version": 1, "plugins": {}}"#);
    let store = s.root().join("store");
    make_dir(store.join("app"));
    fs::write(store.join("app/db.env"), "USER=admin\n").unwrap();
    let env = format!("SECRETS_DIR={}", store.display());
    plugctl(&s)
        .args(["test", "secrets", "env-file", "--propose-policy"])
        .fails_with(Exit::Usage)
        .stderr_has("pass --sandbox strict");
    let ran = plugctl(&s)
        .args([
            "--sandbox",
            "strict",
            "test",
            "secrets",
            "env-file",
            "--propose-policy",
        ])
        .args(["--path", "app/db", "--env", &env])
        .succeeds();
    // stdout is a policy file of one entry, ready to merge.
    let proposed: Value = serde_json::from_str(&ran.stdout()).unwrap();
    assert_eq!(
        proposed["plugins"]["secrets/env-file"],
        serde_json::json!({"read": ["${SECRETS_DIR}"]}),
        "{proposed:#}"
    );
    let err = ran.stderr();
    assert!(err.contains("fetch.result: stopped by"), "{err}");
    assert!(
        err.contains("the suite passes under strict with this policy"),
        "{err}"
    );
    // As JSON, with the evidence.
    let doc = plugctl(&s)
        .args([
            "--json",
            "--sandbox",
            "strict",
            "test",
            "secrets",
            "env-file",
        ])
        .args(["--propose-policy", "--path", "app/db", "--env", &env])
        .succeeds()
        .json();
    assert_eq!(doc["verified"], true, "{doc:#}");
    assert!(
        doc["stopped"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["check"] == "fetch.result"),
        "{doc:#}"
    );
    // What hides the store: Landlock, or the private /tmp it lies in.
    assert!(
        doc["lifted_together"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l == "landlock" || l == "private-tmp"),
        "{doc:#}"
    );
}

#[test]
fn propose_policy_grants_a_fetch_the_network_and_a_mounting_create_its_capability_and_calls() {
    let s = Rig::new();
    if !strict_runs(&s) || !tool_available("python3", "a plugin that connects") {
        return;
    }
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for c in listener.incoming() {
            drop(c);
        }
    });
    s.file(
        "secrets",
        "remote",
        &format!(
            "#!/usr/bin/python3 -I
import json, socket, sys
if sys.argv[1] == 'fingerprint':
    print(json.dumps({{'type': 'secrets', 'version': '1.0.0'}}))
    sys.exit(0)
try:
    socket.create_connection(('127.0.0.1', {port}), timeout=5).close()
except OSError as e:
    print(json.dumps({{'error': str(e)}}))
    sys.exit(0)
if 'does-not-exist' in sys.argv[2]:
    print(json.dumps({{'error': 'no such secret'}}))
else:
    print(json.dumps({{'result': {{'K': 'v'}}}}))
"
        ),
        0o755,
    );
    let ran = plugctl(&s)
        .args([
            "--sandbox",
            "strict",
            "test",
            "secrets",
            "remote",
            "--propose-policy",
        ])
        .args(["--path", "app/db"])
        .succeeds();
    let proposed: Value = serde_json::from_str(&ran.stdout()).unwrap();
    assert_eq!(
        proposed["plugins"]["secrets/remote"],
        serde_json::json!({"network": true}),
        "{proposed:#} {}",
        ran.stderr()
    );
    // A create that mounts a tmpfs on its volume: in the test's own mount
    // namespace, whatever the level.
    s.hv_script(
        "mounter",
        r#"mkdir -p "$v" && { awk -v d="$v" '$5 == d {f=1} END {exit !f}' /proc/self/mountinfo || mount -t tmpfs -o size=1m tmpfs "$v" || exit 1; } && echo "{\"path\": \"$v\", \"bytes\": 0}""#,
        r#"umount "$v" 2>/dev/null; rm -rf "$v""#,
    );
    let Some(ns) = in_mount_namespace(
        &s,
        r#""$PLUGCTL" --sandbox strict test host-volume mounter --propose-policy >"$OUT/proposed" 2>"$OUT/how"; echo $? >"$OUT/code""#,
    ) else {
        return;
    };
    ns.succeeds();
    assert_eq!(s.read_out("code").trim(), "0", "{}", s.read_out("how"));
    let proposed: Value = serde_json::from_str(&s.read_out("proposed")).unwrap();
    assert_eq!(
        proposed["plugins"]["host-volume/mounter"],
        serde_json::json!({"capabilities": ["CAP_SYS_ADMIN"], "syscalls": ["mount"]}),
        "{proposed:#} {}",
        s.read_out("how")
    );
}

#[test]
fn record_replay_and_test_say_the_level_and_policy_a_call_ran_under() {
    let s = gallery();
    if !strict_runs(&s) {
        return;
    }
    let cases = s.root().join("cases");
    plugctl(&s)
        .arg("--record")
        .arg(&cases)
        .args(["--sandbox", "strict", "fingerprint", "dir"])
        .succeeds();
    let case = fs::read_dir(&cases)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .expect("a case file");
    let doc: Value = serde_json::from_slice(&fs::read(&case).unwrap()).unwrap();
    assert_eq!(
        doc["sandbox"], "strict, policy of host-volume/dir (grants nothing)",
        "{doc:#}"
    );
    plugctl(&s)
        .arg("replay")
        .arg(&cases)
        .succeeds()
        .stdout_has("recorded under sandbox strict, policy of host-volume/dir (grants nothing), replayed under none");
    plugctl(&s)
        .args(["--sandbox", "strict", "replay"])
        .arg(&cases)
        .succeeds()
        .stdout_has("note: sandbox: strict, policy of host-volume/dir");
    let report = plugctl(&s)
        .args([
            "--json",
            "--sandbox",
            "strict",
            "test",
            "host-volume",
            "dir",
        ])
        .succeeds()
        .json();
    assert_eq!(report["sandbox"]["level"], "strict", "{report:#}");
    assert_eq!(report["sandbox"]["plugin"], "host-volume/dir", "{report:#}");
    plugctl(&s)
        .args(["--sandbox", "strict", "test", "host-volume", "dir"])
        .succeeds()
        .stderr_has("sandbox: strict, policy of host-volume/dir (grants nothing)");
}

#[test]
fn the_shipped_timer_fingerprints_every_example_under_strict() {
    let s = gallery();
    if !strict_runs(&s) {
        return;
    }
    let unit =
        fs::read_to_string(repo().join("deploy/systemd/plugctl-fingerprint.service")).unwrap();
    let exec = unit
        .lines()
        .find_map(|l| l.strip_prefix("ExecStart="))
        .expect("an ExecStart line");
    assert!(exec.contains("--sandbox strict"), "{exec}");
    let textfile = s.root().join("textfile");
    make_dir(&textfile);
    let line = exec
        .replace("/usr/bin/plugctl", PLUGCTL)
        .replace("${PLUGCTL_TEXTFILE_DIR}", &textfile.display().to_string());
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut c = s.command(words[0]);
    c.args(&words[1..]);
    let out = c.output().unwrap();
    assert!(out.status.success(), "{line}: {}", stderr(&out));
    let prom = fs::read_to_string(textfile.join("plugctl.prom")).unwrap();
    for name in [
        "dir",
        "mkfs-image",
        "quota-dir",
        "sparse-image",
        "env-file",
        "json-file",
    ] {
        assert!(
            prom.lines()
                .any(|l| l.starts_with("plugctl_plugin_healthy{")
                    && l.contains(&format!("name=\"{name}\""))
                    && l.ends_with(" 1")),
            "{name} is not healthy under strict: {prom}"
        );
    }
}

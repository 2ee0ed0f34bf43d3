//! `plugctl volume ...` through the real binary, with real plugin scripts:
//! the exact DHV environment, the registry life cycle (pending → ready →
//! deleting), crashes, concurrency, restore, repair, hostile names, the
//! bundled example plugins and bad input.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::Value;

/// A host-volume plugin that records every call: its exact environment in
/// `out/<op>-<id>.env` (NUL-separated, straight from /proc), one line per
/// call in `out/calls-<id>`. create answers `{"path": <volumes>/<id>,
/// "bytes": DHV_CAPACITY_MAX_BYTES}`; delete copies the registry to
/// `out/during-delete.json` (what `plugctl volume show` says meanwhile) and
/// prints junk (ignored on success).
/// `out/fail-create-<id>` / `out/fail-delete-<id>` make that call fail with
/// an `{"error"}`.
fn recorder(s: &Rig, name: &str) -> PathBuf {
    s.plugin(
        "host-volume",
        name,
        &format!(
            r#"out='{out}'
cat /proc/$$/environ > "$out/$1-$DHV_VOLUME_ID.env"
echo "$1" >> "$out/calls-$DHV_VOLUME_ID"
case $1 in
fingerprint) echo '{{"version": "1.0.0"}}' ;;
create)
  if [ -e "$out/fail-create-$DHV_VOLUME_ID" ]; then echo '{{"error": "create refused by test"}}'; exit 1; fi
  printf '{{"path": "%s/%s", "bytes": %s}}\n' "$DHV_VOLUMES_DIR" "$DHV_VOLUME_ID" "$DHV_CAPACITY_MAX_BYTES" ;;
delete)
  '{plugctl}' --registry '{registry}' --plugin-dir '{plugins}' --json volume show "$DHV_VOLUME_ID" > "$out/during-delete.json"
  if [ -e "$out/fail-delete-$DHV_VOLUME_ID" ]; then echo '{{"error": "delete refused by test"}}'; exit 1; fi
  echo 'this is not JSON and is ignored' ;;
esac"#,
            out = s.out.display(),
            registry = s.registry.display(),
            plugins = s.plugins.display(),
            plugctl = PLUGCTL,
        ),
    )
}

/// The environment a recorded call was exec'd with.
fn env_of(s: &Rig, op: &str, id: &str) -> BTreeMap<String, String> {
    let raw = fs::read(s.out_file(&format!("{op}-{id}.env")))
        .unwrap_or_else(|e| panic!("no {op} env for {id}: {e}"));
    raw.split(|&b| b == 0)
        .filter(|kv| !kv.is_empty())
        .map(|kv| {
            let kv = String::from_utf8(kv.to_vec()).unwrap();
            let (k, v) = kv.split_once('=').unwrap();
            (k.to_string(), v.to_string())
        })
        .collect()
}

fn calls(s: &Rig, id: &str) -> Vec<String> {
    s.read_out(&format!("calls-{id}"))
        .lines()
        .map(str::to_string)
        .collect()
}

fn wait_until(limit: Duration, mut f: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    f()
}

fn examples_dir() -> PathBuf {
    examples().join("host-volume")
}

#[test]
fn create_gets_exactly_the_eleven_variables() {
    let s = Rig::new();
    recorder(&s, "rec");
    let v = create_volume(
        &s,
        &[
            "--plugin",
            "rec",
            "--name",
            "data",
            "--namespace",
            "prod-2",
            "--capacity-min",
            "50MB",
            "--capacity-max",
            "50MiB",
            "--param",
            "b=2",
            "--param",
            "a=<&>",
            "--node-pool",
            "gpu",
        ],
    );
    let id = id_of(&v);
    let node_id = s.registry_json()["node_id"].as_str().unwrap().to_string();
    let env = env_of(&s, "create", &id);
    let want: BTreeMap<String, String> = [
        ("DHV_OPERATION", "create".to_string()),
        ("DHV_VOLUMES_DIR", s.volumes.display().to_string()),
        (
            "DHV_PLUGIN_DIR",
            s.plugins.join("host-volume").display().to_string(),
        ),
        ("DHV_NODE_POOL", "gpu".into()),
        ("DHV_NAMESPACE", "prod-2".into()),
        ("DHV_VOLUME_NAME", "data".into()),
        ("DHV_VOLUME_ID", id.clone()),
        ("DHV_CAPACITY_MIN_BYTES", "50000000".into()),
        ("DHV_CAPACITY_MAX_BYTES", "52428800".into()),
        ("DHV_NODE_ID", node_id.clone()),
        (
            "DHV_PARAMETERS",
            r#"{"a":"\u003c\u0026\u003e","b":"2"}"#.into(),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(env, want);
    assert_eq!(env.len(), 11);
    assert_eq!(calls(&s, &id), ["create"]);

    // the generated id is a lowercase UUID; the JSON carries the fields docs/cli.md names
    assert_eq!(id.len(), 36);
    assert_eq!(id, id.to_lowercase());
    assert_eq!(v["name"], "data");
    assert_eq!(v["namespace"], "prod-2");
    assert_eq!(v["plugin"], "rec");
    assert_eq!(v["state"], "ready");
    assert_eq!(v["bytes"], 52_428_800);
    assert_eq!(v["path"], format!("{}/{id}", s.volumes.display()));
    assert_eq!(v["parameters"]["a"], "<&>");
    assert_eq!(v["node_id"], node_id.as_str());
    assert_eq!(v["warnings"], serde_json::json!([]));

    // the node id is stable; --node-id and defaults fill the rest
    let v = create_volume(
        &s,
        &["--plugin", "rec", "--name", "two", "--node-id", "n-42"],
    );
    let env = env_of(&s, "create", &id_of(&v));
    assert_eq!(env["DHV_NODE_ID"], "n-42");
    assert_eq!(env["DHV_NODE_POOL"], "default");
    assert_eq!(env["DHV_NAMESPACE"], "default");
    assert_eq!(env["DHV_CAPACITY_MIN_BYTES"], "0");
    assert_eq!(env["DHV_CAPACITY_MAX_BYTES"], "0");
    assert_eq!(env["DHV_PARAMETERS"], "null");
    let v = create_volume(&s, &["--plugin", "rec", "--name", "three"]);
    assert_eq!(env_of(&s, "create", &id_of(&v))["DHV_NODE_ID"], node_id);
}

#[test]
fn delete_gets_exactly_the_ten_variables_and_runs_while_deleting() {
    let s = Rig::new();
    recorder(&s, "rec");
    let v = create_volume(
        &s,
        &[
            "--plugin",
            "rec",
            "--name",
            "data",
            "--capacity-max",
            "1MB",
            "--param",
            "k=v",
        ],
    );
    let id = id_of(&v);
    let doc = plugctl(&s)
        .args(["--json", "volume", "delete", &id])
        .succeeds()
        .json();
    assert_eq!(doc["deleted"], true);
    assert_eq!(doc["volume"]["id"], id.as_str());
    assert_eq!(doc["volume"]["state"], "deleted");

    let env = env_of(&s, "delete", &id);
    let node_id = s.registry_json()["node_id"].as_str().unwrap().to_string();
    let want: BTreeMap<String, String> = [
        ("DHV_OPERATION", "delete".to_string()),
        ("DHV_VOLUMES_DIR", s.volumes.display().to_string()),
        (
            "DHV_PLUGIN_DIR",
            s.plugins.join("host-volume").display().to_string(),
        ),
        ("DHV_NODE_POOL", "default".into()),
        ("DHV_CREATED_PATH", v["path"].as_str().unwrap().to_string()),
        ("DHV_NAMESPACE", "default".into()),
        ("DHV_VOLUME_NAME", "data".into()),
        ("DHV_VOLUME_ID", id.clone()),
        ("DHV_NODE_ID", node_id),
        ("DHV_PARAMETERS", r#"{"k":"v"}"#.into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(env, want);
    assert_eq!(env.len(), 10);

    // the record said "deleting" while the plugin ran, and is gone now
    let during: Value = serde_json::from_str(&s.read_out("during-delete.json")).unwrap();
    assert_eq!(during["volume"]["state"], "deleting");
    assert!(list_volumes(&s).is_empty());
    assert_eq!(s.event_kinds(), ["volume_create", "volume_delete"]);
    let last = s.registry_json()["events"][1].clone();
    assert_eq!(last["type"], "host-volume");
    assert_eq!(last["name"], "rec");
    assert_eq!(last["volume_id"], id.as_str());
    assert_eq!(last["volume_name"], "data");

    // a second delete of the same id: not found
    plugctl(&s)
        .args(["volume", "delete", &id])
        .fails_with(Exit::NotFound);
}

#[test]
fn parameters_are_encoded_as_go_does() {
    let s = Rig::new();
    recorder(&s, "rec");
    let v = create_volume(
        &s,
        &[
            "--plugin",
            "rec",
            "--name",
            "p",
            "--param",
            "html=<b>&amp;</b>",
            "--param",
            "quote=say \"hi\"",
            "--param",
            "bs=a\\b",
            "--param",
            "ctl=\u{8}\u{c}\n\r\t\u{1}\u{1f}",
            "--param",
            "seps=\u{2028}\u{2029}",
            "--param",
            "utf=été ☃",
            "--param",
            "eq=a=b",
            "--param",
            "B=upper first",
            "--param",
            "empty=",
            "--param",
            "dup=first",
            "--param",
            "dup=last",
        ],
    );
    let env = env_of(&s, "create", &id_of(&v));
    assert_eq!(
        env["DHV_PARAMETERS"],
        concat!(
            r#"{"B":"upper first","bs":"a\\b","ctl":"\b\f\n\r\t\u0001\u001f","#,
            r#""dup":"last","empty":"","eq":"a=b","#,
            r#""html":"\u003cb\u003e\u0026amp;\u003c/b\u003e","quote":"say \"hi\"","#,
            r#""seps":"\u2028\u2029","utf":"été ☃"}"#
        )
    );
    // no parameters at all: the literal null
    let v = create_volume(&s, &["--plugin", "rec", "--name", "none"]);
    assert_eq!(env_of(&s, "create", &id_of(&v))["DHV_PARAMETERS"], "null");
}

#[test]
fn a_failing_plugin_leaves_no_volume_and_shows_its_error() {
    let s = Rig::new();
    s.plugin(
        "host-volume",
        "full",
        r#"echo 'full: writing to stderr' >&2; echo '{"error": "disk full on /dev/sdz"}'; exit 1"#,
    );
    let out = plugctl(&s)
        .args(["volume", "create", "--plugin", "full", "--name", "data"])
        .fails_with(Exit::Failure);
    let err = stderr(&out);
    for needle in [
        "disk full on /dev/sdz",
        "\"full\"",
        "create",
        "\"data\"",
        "exited with status 1",
    ] {
        assert!(err.contains(needle), "{needle} missing: {err}");
    }
    assert!(list_volumes(&s).is_empty());
    assert!(
        s.registry_json()["events"].as_array().unwrap().is_empty(),
        "no event for a volume that never was"
    );

    // --json: the error document names the plugin and the operation
    let error = plugctl(&s)
        .args([
            "--json", "volume", "create", "--plugin", "full", "--name", "data",
        ])
        .fails_with(Exit::Failure)
        .error_has("disk full")
        .error();
    assert_eq!(error["kind"], "plugin");
    assert_eq!(error["plugin"], "host-volume/full");
    assert_eq!(error["operation"], "create");
    assert!(error["subject"].as_str().unwrap().starts_with("volume "));
    assert!(list_volumes(&s).is_empty());

    // -v shows the plugin's stderr
    plugctl(&s)
        .args(["-v", "volume", "create", "--plugin", "full", "--name", "d"])
        .any_exit()
        .stderr_has("full: writing to stderr");
}

#[test]
fn bad_output_after_exit_0_keeps_a_pending_record_that_repair_rolls_back() {
    let s = Rig::new();
    s.plugin(
        "host-volume",
        "liar",
        &format!(
            r#"echo "$1" >> '{}'; [ "$1" = create ] && echo '{{"path": "/x", "bytes": "5"}}'; exit 0"#,
            s.out_file("liar-calls").display()
        ),
    );
    let out = plugctl(&s)
        .args(["volume", "create", "--plugin", "liar", "--name", "data"])
        .fails_with(Exit::Failure);
    let err = stderr(&out);
    assert!(err.contains("cannot unmarshal string"), "{err}");
    assert!(err.contains("kept pending"), "{err}");
    let list = list_volumes(&s);
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["state"], "pending");
    assert!(list[0]["error"].as_str().unwrap().contains("bad output"));

    let doc = plugctl(&s)
        .args(["--json", "volume", "repair"])
        .succeeds()
        .json();
    let r = &doc["results"][0];
    assert_eq!(r["action"], "rolled back");
    assert_eq!(r["state"], "deleted");
    assert!(list_volumes(&s).is_empty());
    assert_eq!(s.read_out("liar-calls"), "create\ncreate\ndelete\n");
}

#[test]
fn kill_9_while_the_plugin_runs_leaves_a_pending_record_that_repair_settles() {
    let s = Rig::new();
    let marker = s.out_file("first-call-done");
    let pgid_file = s.out_file("pgid");
    s.plugin(
        "host-volume",
        "slow",
        &format!(
            r#"case $1 in
create)
  echo $$ > '{pgid}.tmp' && mv '{pgid}.tmp' '{pgid}'
  if [ ! -e '{marker}' ]; then : > '{marker}'; sleep 60; fi
  printf '{{"path": "%s/%s"}}\n' "$DHV_VOLUMES_DIR" "$DHV_VOLUME_ID" ;;
delete) exit 0 ;;
esac"#,
            pgid = pgid_file.display(),
            marker = marker.display()
        ),
    );
    let mut child = plugctl(&s)
        .args(["volume", "create", "--plugin", "slow", "--name", "crash"])
        .start();
    let pending = wait_until(Duration::from_secs(30), || {
        pgid_file.exists()
            && fs::read(&s.registry)
                .ok()
                .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
                .is_some_and(|r| {
                    r["volumes"]
                        .as_object()
                        .is_some_and(|m| m.values().any(|v| v["state"] == "pending"))
                })
    });
    assert!(pending, "the pending record never appeared");
    // while plugctl lives, the record is in progress
    let list = list_volumes(&s);
    assert_eq!(list[0]["in_progress"], true, "{list:?}");
    plugctl(&s)
        .args(["volume", "repair"])
        .succeeds()
        .stdout_has("skipped");

    child.kill(); // SIGKILL
    child.any_exit();
    let pgid: i32 = fs::read_to_string(&pgid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let _ = nix::sys::signal::killpg(
        nix::unistd::Pid::from_raw(pgid),
        nix::sys::signal::Signal::SIGKILL,
    );

    let list = list_volumes(&s);
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["name"], "crash");
    assert_eq!(list[0]["state"], "pending");
    assert_eq!(list[0]["in_progress"], false);
    let table = plugctl(&s).args(["volume", "list"]).any_exit().stdout();
    assert!(
        table.contains("pending") && table.contains("volume repair"),
        "{table}"
    );

    let doc = plugctl(&s)
        .args(["--json", "volume", "repair"])
        .succeeds()
        .json();
    let r = &doc["results"][0];
    assert_eq!(r["was"], "pending");
    assert_eq!(r["action"], "created");
    assert_eq!(r["state"], "ready");
    let list = list_volumes(&s);
    assert_eq!(list[0]["state"], "ready");
    assert_eq!(list[0]["error"], Value::Null);
    assert!(list[0].get("owner").is_none(), "{:?}", list[0]);
    assert_eq!(s.event_kinds(), ["volume_create"]);
    // nothing left to do
    plugctl(&s)
        .args(["volume", "repair"])
        .succeeds()
        .stderr_has("nothing to repair");
}

#[test]
fn concurrent_creates_lose_no_record() {
    let s = Rig::new();
    recorder(&s, "rec");
    const N: usize = 24;
    let creates: Vec<_> = (0..N)
        .map(|i| {
            plugctl(&s)
                .env("PLUGCTL_LOCK_TIMEOUT", "60s")
                .args(["volume", "create", "--plugin", "rec", "--name"])
                .arg(format!("v{i}"))
                .start()
        })
        .collect();
    for c in creates {
        c.succeeds();
    }
    let list = list_volumes(&s);
    assert_eq!(list.len(), N);
    let mut names: Vec<String> = list
        .iter()
        .map(|v| {
            assert_eq!(v["state"], "ready");
            v["name"].as_str().unwrap().to_string()
        })
        .collect();
    names.sort();
    let mut want: Vec<String> = (0..N).map(|i| format!("v{i}")).collect();
    want.sort();
    assert_eq!(names, want);
    let reg = s.registry_json();
    let seqs = seqs(reg["events"].as_array().unwrap());
    assert_eq!(seqs.len(), N, "one volume_create per volume");
    assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1), "{seqs:?}");
}

#[test]
fn restore_reruns_every_create_and_keeps_going_past_failures() {
    let s = Rig::new();
    recorder(&s, "rec");
    let ids: Vec<String> = ["a", "b", "c"]
        .iter()
        .map(|n| {
            id_of(&create_volume(
                &s,
                &["--plugin", "rec", "--name", n, "--capacity-max", "1kB"],
            ))
        })
        .collect();
    // b will fail; c is made pending as an interrupted create would leave it
    fs::write(s.out_file(&format!("fail-create-{}", ids[1])), "").unwrap();
    let mut reg = s.registry_file();
    reg["volumes"][&ids[2]]["state"] = "pending".into();
    reg["volumes"][&ids[2]]["path"] = "".into();
    fs::write(&s.registry, serde_json::to_vec_pretty(&reg).unwrap()).unwrap();
    let before_b = list_volumes(&s)
        .into_iter()
        .find(|v| v["name"] == "b")
        .unwrap();

    let doc = plugctl(&s)
        .args(["--json", "volume", "restore"])
        .fails_with(Exit::Failure)
        .json();
    for id in &ids {
        assert_eq!(calls(&s, id), ["create", "create"], "{id}");
    }
    let results = doc["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    let by_name = |n: &str| results.iter().find(|r| r["name"] == n).unwrap();
    assert_eq!(by_name("a")["action"], "updated");
    assert_eq!(by_name("a")["ok"], true);
    assert_eq!(by_name("b")["action"], "failed");
    assert_eq!(by_name("b")["ok"], false);
    assert!(
        by_name("b")["error"]
            .as_str()
            .unwrap()
            .contains("create refused by test")
    );
    assert_eq!(by_name("c")["was"], "pending");
    assert_eq!(by_name("c")["action"], "created");
    assert_eq!(by_name("c")["state"], "ready");
    assert_eq!(doc["failed"], 1);

    // the failed one keeps its record, with the error
    let after = list_volumes(&s);
    let b = after.iter().find(|v| v["name"] == "b").unwrap();
    assert_eq!(b["state"], "ready");
    assert_eq!(b["path"], before_b["path"]);
    assert!(b["error"].as_str().unwrap().contains("create refused"));
    let c = after.iter().find(|v| v["name"] == "c").unwrap();
    assert_eq!(c["state"], "ready");
    assert_eq!(c["path"], format!("{}/{}", s.volumes.display(), ids[2]));

    // human report: one row per volume
    fs::remove_file(s.out_file(&format!("fail-create-{}", ids[1]))).unwrap();
    let out = plugctl(&s).args(["volume", "restore"]).succeeds();
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 4, "{text}");
    assert!(text.lines().next().unwrap().contains("ACTION"));
    let b = list_volumes(&s)
        .into_iter()
        .find(|v| v["name"] == "b")
        .unwrap();
    assert_eq!(b["error"], Value::Null, "a later success clears the error");
}

#[test]
fn hostile_names_pass_verbatim_and_never_become_paths() {
    let s = Rig::new();
    recorder(&s, "rec");
    let names = [
        "../../etc/passwd",
        "a/b",
        "with space",
        "new\nline",
        "..",
        "-rf",
        "$(touch pwned)",
        "tab\there",
    ];
    for name in names {
        // `--name=...`: a name may start with '-'
        let v = create_volume(&s, &["--plugin", "rec", &format!("--name={name}")]);
        assert_eq!(v["name"], name);
        assert_eq!(env_of(&s, "create", &id_of(&v))["DHV_VOLUME_NAME"], name);
        // the built-in mkdir builds its path from the id only
        let m = create_volume(&s, &["--plugin", "mkdir", "--name", &format!("m{name}")]);
        assert_eq!(m["path"], format!("{}/{}", s.volumes.display(), id_of(&m)));
    }
    let entries: Vec<String> = fs::read_dir(&s.volumes)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(entries.len(), names.len());
    assert!(entries.iter().all(|e| e.len() == 36), "{entries:?}");
    assert!(!s.root().join("pwned").exists());

    // the table keeps one line per volume
    let out = plugctl(&s).args(["volume", "list"]).succeeds();
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1 + 2 * names.len(), "{text}");
    assert!(
        text.contains("new\\nline") && text.contains("tab\\there"),
        "{text}"
    );

    // show and delete by such a name
    let doc = plugctl(&s)
        .args(["--json", "volume", "show", "new\nline"])
        .succeeds()
        .json();
    assert_eq!(doc["volume"]["name"], "new\nline");
    plugctl(&s)
        .args(["volume", "delete", "--name", "../../etc/passwd"])
        .succeeds()
        .stdout_has("\"../../etc/passwd\"");
    plugctl(&s)
        .args(["volume", "show", "--json", "../../etc/passwd"])
        .fails_with(Exit::NotFound);
}

#[test]
fn rerunning_create_with_an_id_updates_and_refuses_changes_of_identity() {
    let s = Rig::new();
    recorder(&s, "rec");
    recorder(&s, "other");
    let v = create_volume(
        &s,
        &["--plugin", "rec", "--name", "data", "--capacity-max", "1MB"],
    );
    let id = id_of(&v);
    let v2 = create_volume(
        &s,
        &[
            "--plugin",
            "rec",
            "--name",
            "data",
            "--id",
            &id,
            "--capacity-max",
            "2MB",
            "--param",
            "k=v",
        ],
    );
    assert_eq!(calls(&s, &id), ["create", "create"]);
    assert_eq!(
        env_of(&s, "create", &id)["DHV_CAPACITY_MAX_BYTES"],
        "2000000"
    );
    assert_eq!(v2["capacity_max"], 2_000_000);
    assert_eq!(v2["bytes"], 2_000_000);
    assert_eq!(v2["parameters"]["k"], "v");
    assert_eq!(v2["created_at"], v["created_at"]);
    assert_eq!(s.event_kinds(), ["volume_create", "volume_update"]);

    // the same name with another id, in the same namespace: refused (exit 2)
    plugctl(&s)
        .args(["volume", "create", "--plugin", "rec", "--name", "data"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!("--id {id}"));
    // ... and in another namespace too: a Nomad client locks a volume
    // name node-wide (client/hostvolumemanager/host_volumes.go)
    plugctl(&s)
        .args([
            "volume",
            "create",
            "--plugin",
            "rec",
            "--name",
            "data",
            "--namespace",
            "other-ns",
        ])
        .fails_with(Exit::Usage)
        .stderr_has("volume name already exists on this node")
        .stderr_has(&format!("--id {id} --namespace default"));

    // the same id with another name or plugin: refused, saying what differs
    let out = plugctl(&s)
        .args([
            "volume", "create", "--plugin", "other", "--name", "renamed", "--id", &id,
        ])
        .fails_with(Exit::Usage);
    let err = stderr(&out);
    assert!(
        err.contains("name (recorded \"data\", requested \"renamed\")"),
        "{err}"
    );
    assert!(
        err.contains("plugin (recorded \"rec\", requested \"other\")"),
        "{err}"
    );

    // ... or another volumes directory
    plugctl(&s)
        .env("PLUGCTL_VOLUMES_DIR", s.root().join("elsewhere"))
        .args([
            "volume", "create", "--plugin", "rec", "--name", "data", "--id", &id,
        ])
        .fails_with(Exit::Usage)
        .stderr_has("volumes directory (recorded");
    assert_eq!(calls(&s, &id).len(), 2, "refused before the plugin ran");

    // a failed update keeps the old record and records the error
    fs::write(s.out_file(&format!("fail-create-{id}")), "").unwrap();
    plugctl(&s)
        .args([
            "volume",
            "create",
            "--plugin",
            "rec",
            "--name",
            "data",
            "--id",
            &id,
            "--capacity-max",
            "3MB",
        ])
        .fails_with(Exit::Failure);
    let doc = plugctl(&s)
        .args(["--json", "volume", "show", &id])
        .any_exit()
        .json();
    let v3 = &doc["volume"];
    assert_eq!(v3["state"], "ready");
    assert_eq!(v3["capacity_max"], 2_000_000);
    assert!(v3["error"].as_str().unwrap().contains("create refused"));
}

#[test]
fn delete_failures_keep_the_record() {
    let s = Rig::new();
    let rec = recorder(&s, "rec");
    let id = id_of(&create_volume(&s, &["--plugin", "rec", "--name", "data"]));

    // the plugin fails: back to ready, with the error
    fs::write(s.out_file(&format!("fail-delete-{id}")), "").unwrap();
    plugctl(&s)
        .args(["volume", "delete", &id])
        .fails_with(Exit::Failure)
        .stderr_has("delete refused by test");
    let doc = plugctl(&s)
        .args(["--json", "volume", "show", &id])
        .any_exit()
        .json();
    assert_eq!(doc["volume"]["state"], "ready");
    assert!(
        doc["volume"]["error"]
            .as_str()
            .unwrap()
            .contains("delete refused")
    );

    // the plugin is gone: not found, record kept
    fs::remove_file(&rec).unwrap();
    let out = plugctl(&s)
        .args(["volume", "delete", &id])
        .fails_with(Exit::NotFound);
    let err = stderr(&out);
    assert!(
        err.contains("host-volume/rec") && err.contains("kept"),
        "{err}"
    );
    assert_eq!(list_volumes(&s).len(), 1);

    // back again: delete by name works and forgets the volume
    recorder(&s, "rec");
    fs::remove_file(s.out_file(&format!("fail-delete-{id}"))).unwrap();
    plugctl(&s)
        .args(["volume", "delete", "--name", "data"])
        .succeeds();
    assert!(list_volumes(&s).is_empty());

    // unknown id, unknown name: exit 3
    for args in [
        &["volume", "delete", "0b6d3c1e-2f4a-4b5c-8d9e-0f1a2b3c4d5e"][..],
        &["volume", "delete", "--name", "nope"],
        &["volume", "show", "nope"],
    ] {
        plugctl(&s).args_from(args).fails_with(Exit::NotFound);
    }
}

#[test]
fn list_filters_by_plugin_and_show_finds_by_id_or_name() {
    let s = Rig::new();
    recorder(&s, "rec");
    let a = create_volume(&s, &["--plugin", "rec", "--name", "a"]);
    create_volume(&s, &["--plugin", "mkdir", "--name", "b"]);
    create_volume(
        &s,
        &["--plugin", "mkdir", "--name", "c", "--namespace", "ns2"],
    );
    let doc = plugctl(&s)
        .args(["--json", "volume", "list", "--plugin", "mkdir"])
        .succeeds()
        .json();
    let names: Vec<&str> = doc["volumes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["b", "c"], "sorted by namespace, then name");
    for v in doc["volumes"].as_array().unwrap() {
        for key in [
            "id",
            "name",
            "namespace",
            "plugin",
            "path",
            "bytes",
            "parameters",
            "state",
            "error",
        ] {
            assert!(v.get(key).is_some(), "{key} missing in {v}");
        }
    }
    let doc = plugctl(&s)
        .args(["--json", "volume", "show", "a"])
        .any_exit()
        .json();
    assert_eq!(doc["volume"]["id"], a["id"]);
    let doc = plugctl(&s)
        .args(["--json", "volume", "show", "c", "--namespace", "ns2"])
        .any_exit()
        .json();
    assert_eq!(doc["volume"]["plugin"], "mkdir");
    // A name is looked up in its namespace only.
    plugctl(&s)
        .args(["volume", "show", "c"])
        .fails_with(Exit::NotFound);
    let doc = plugctl(&s)
        .args(["--json", "volume", "show", a["id"].as_str().unwrap()])
        .any_exit()
        .json();
    assert_eq!(doc["volume"]["name"], "a");
    plugctl(&s)
        .args(["volume", "show", "a"])
        .succeeds()
        .stdout_has("namespace");
    let out = plugctl(&s).args(["volume", "list"]).any_exit();
    let header = stdout(&out).lines().next().unwrap().to_string();
    for col in ["ID", "NAME", "NAMESPACE", "PLUGIN", "STATE", "SIZE", "PATH"] {
        assert!(header.contains(col), "{header}");
    }
}

#[test]
fn odd_paths_are_the_plugins_failure_and_the_volume_is_kept_pending() {
    let s = Rig::new();
    let vols = s.volumes.display().to_string();
    for (name, path, needle) in [
        ("rel", "relative/dir".to_string(), "is relative"),
        (
            "out",
            "/somewhere/else".into(),
            "not inside the volumes directory",
        ),
        ("empty", String::new(), "is empty"),
        ("itself", vols.clone(), "not inside the volumes directory"),
        ("dotdot", format!("{vols}/../x"), "holds '..'"),
    ] {
        s.hv_script(
            name,
            &format!(r#"echo '{{"path": "{path}"}}'"#),
            &format!(
                r#"echo "[$DHV_CREATED_PATH]" > "{}/deleted.$DHV_VOLUME_NAME""#,
                s.out.display()
            ),
        );
        let out = plugctl(&s)
            .args(["volume", "create", "--plugin", name, "--name", name])
            .fails_with(Exit::Failure);
        let err = stderr(&out);
        assert!(err.contains("bad output") && err.contains(needle), "{err}");
        assert!(err.contains("kept pending"), "{err}");
        let v = list_volumes(&s)
            .into_iter()
            .find(|v| v["name"] == name)
            .unwrap_or_else(|| panic!("{name} not recorded"));
        assert_eq!(v["state"], "pending", "{v}");
        assert_eq!(v["path"], "", "a refused path is never recorded: {v}");
        assert!(v["error"].as_str().unwrap().contains(needle), "{v}");
    }
    // Repair re-runs create, which fails again, then delete to roll back:
    // each record goes.
    let out = plugctl(&s).args(["--json", "volume", "repair"]).succeeds();
    let doc = out.json();
    for r in doc["results"].as_array().unwrap() {
        assert_eq!(r["action"], "rolled back", "{r}");
        assert_eq!(r["state"], "deleted", "{r}");
        // The refused path never reaches a plugin.
        let name = r["name"].as_str().unwrap();
        assert_eq!(s.read_out(&format!("deleted.{name}")), "[]\n", "{r}");
    }
    assert_eq!(doc["results"].as_array().unwrap().len(), 5, "{doc}");
    assert!(list_volumes(&s).is_empty());
}

#[test]
fn bundled_examples_create_and_delete() {
    let s = Rig::new();
    let run = |args: &[&str]| {
        plugctl(&s)
            .env("PLUGCTL_HOST_VOLUME_PLUGIN_DIR", examples_dir())
            .arg("--json")
            .args_from(args)
    };

    // dir: a directory, mode 0750
    let v = run(&["volume", "create", "--plugin", "dir", "--name", "../d ir"])
        .succeeds()
        .json()["volume"]
        .clone();
    let path = PathBuf::from(v["path"].as_str().unwrap());
    assert_eq!(path, s.volumes.join(id_of(&v)));
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o750
    );
    // idempotent: create again with the same id
    run(&[
        "volume",
        "create",
        "--plugin",
        "dir",
        "--name",
        "../d ir",
        "--id",
        &id_of(&v),
    ])
    .succeeds();
    run(&["volume", "delete", &id_of(&v)]).succeeds();
    assert!(!path.exists());

    // sparse-image: a file of the requested size; no capacity is refused
    let v = run(&[
        "volume",
        "create",
        "--plugin",
        "sparse-image",
        "--name",
        "img",
        "--capacity-max",
        "10MiB",
    ])
    .succeeds()
    .json()["volume"]
        .clone();
    assert_eq!(v["bytes"], 10 << 20);
    let path = PathBuf::from(v["path"].as_str().unwrap());
    assert_eq!(fs::metadata(&path).unwrap().len(), 10 << 20);
    run(&[
        "volume",
        "create",
        "--plugin",
        "sparse-image",
        "--name",
        "none",
    ])
    .fails_with(Exit::Failure)
    .stderr_has("needs a capacity");
    run(&["volume", "delete", "--name", "img"]).succeeds();
    assert!(!path.exists());

    // quota-dir (Python): parameters honoured, unknown ones refused
    let v = run(&[
        "volume",
        "create",
        "--plugin",
        "quota-dir",
        "--name",
        "q",
        "--capacity-max",
        "1MB",
        "--param",
        "mode=0700",
        "--param",
        "owner_note=team <a&b>",
    ])
    .succeeds()
    .json()["volume"]
        .clone();
    assert_eq!(v["bytes"], 1_000_000);
    let path = PathBuf::from(v["path"].as_str().unwrap());
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o700
    );
    let info: Value =
        serde_json::from_str(&fs::read_to_string(path.join(".volume-info.json")).unwrap()).unwrap();
    assert_eq!(info["owner_note"], "team <a&b>");
    assert_eq!(info["volume_name"], "q");
    run(&[
        "volume",
        "create",
        "--plugin",
        "quota-dir",
        "--name",
        "bad",
        "--param",
        "colour=red",
    ])
    .fails_with(Exit::Failure)
    .stderr_has("unknown parameter 'colour'");
    run(&["volume", "delete", &id_of(&v)]).succeeds();
    assert!(!path.exists());
    assert!(list_volumes(&s).is_empty());
}

/// Delete is idempotent at the plugin level: the example plugins, called
/// directly (as Nomad would) twice with the same request, exit 0 both times.
#[test]
fn example_deletes_are_idempotent_at_the_plugin_level() {
    let s = Rig::new();
    let id = "3e2d1c0b-5a49-4837-a625-141312111009";
    for (plugin, created) in [
        ("dir", s.volumes.join(id)),
        ("sparse-image", s.volumes.join(format!("{id}.img"))),
        ("quota-dir", s.volumes.join(id)),
    ] {
        let call = |op: &str| {
            let mut c = Command::new(examples_dir().join(plugin));
            c.env_clear()
                .env("DHV_OPERATION", op)
                .env("DHV_VOLUMES_DIR", &s.volumes)
                .env("DHV_PLUGIN_DIR", examples_dir())
                .env("DHV_NODE_POOL", "default")
                .env("DHV_NAMESPACE", "default")
                .env("DHV_VOLUME_NAME", "x")
                .env("DHV_VOLUME_ID", id)
                .env("DHV_NODE_ID", "n")
                .env("DHV_PARAMETERS", "null");
            if op == "create" {
                c.env("DHV_CAPACITY_MIN_BYTES", "0")
                    .env("DHV_CAPACITY_MAX_BYTES", "4096");
            } else {
                c.env("DHV_CREATED_PATH", &created);
            }
            expect::Run::new(c, plugin).arg(op)
        };
        call("create").succeeds();
        assert!(created.exists(), "{plugin}");
        call("delete").succeeds();
        assert!(!created.exists(), "{plugin}");
        call("delete").succeeds();
    }
}

#[test]
fn bad_input_exit_codes_and_a_consistent_registry() {
    let s = Rig::new();
    recorder(&s, "rec");
    let base = ["volume", "create", "--plugin", "rec", "--name", "x"];
    for (extra, want, needle) in [
        (
            &["--capacity-max", "lots"][..],
            Exit::Usage,
            "--capacity-max",
        ),
        (&["--capacity-min=-5MB"], Exit::Usage, "--capacity-min"),
        (
            &["--capacity-min", "2MB", "--capacity-max", "1MB"],
            Exit::Usage,
            "capacity_max (1000000) must be larger than capacity_min (2000000)",
        ),
        // Nomad's server refuses a minimum without a maximum, in its words.
        (
            &["--capacity-min", "1MiB"],
            Exit::Usage,
            "capacity_max (0) must be larger than capacity_min (1048576)",
        ),
        (&["--capacity-max", "9EiB"], Exit::Usage, "Nomad's limit"),
        (&["--id", "not-a-uuid"], Exit::Usage, "not a UUID"),
        (
            &["--namespace", "no_underscores"],
            Exit::Usage,
            "--namespace",
        ),
        (&["--namespace", ""], Exit::Usage, "--namespace"),
        (
            &["--param", "novalue"],
            Exit::Usage,
            "--param expects KEY=VALUE",
        ),
        (&["--param", "=v"], Exit::Usage, "key before '=' is empty"),
        (&["--timeout", "0s"], Exit::Usage, "--timeout"),
    ] {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        plugctl(&s).args_from(&args).exits(want).stderr_has(needle);
    }
    plugctl(&s)
        .args(["volume", "create", "--plugin", "rec", "--name", ""])
        .fails_with(Exit::Usage);
    plugctl(&s)
        .args(["volume", "create", "--plugin", "nope", "--name", "x"])
        .fails_with(Exit::NotFound)
        .stderr_has("host-volume/nope");
    plugctl(&s)
        .args(["volume", "create", "--plugin", "../rec", "--name", "x"])
        .fails_with(Exit::Usage);
    // nothing ran, nothing was recorded
    assert!(fs::read_dir(&s.out).unwrap().next().is_none());
    assert!(list_volumes(&s).is_empty());

    // not executable (not a plugin as Nomad sees it: not found, as in
    // fingerprint and secret fetch), escaping symlink: a clear failure,
    // nothing recorded
    s.file("host-volume", "noexec", "#!/bin/sh\necho '{}'\n", 0o644);
    plugctl(&s)
        .args(["volume", "create", "--plugin", "noexec", "--name", "x"])
        .fails_with(Exit::NotFound)
        .stderr_has("no execute bit");
    let outside = s.root().join("outside.sh");
    fs::write(&outside, "#!/bin/sh\necho '{}'\n").unwrap();
    fs::set_permissions(&outside, fs::Permissions::from_mode(0o755)).unwrap();
    symlink(&outside, s.plugins.join("host-volume/escape")).unwrap();
    plugctl(&s)
        .args(["volume", "create", "--plugin", "escape", "--name", "x"])
        .fails_with(Exit::Failure)
        .stderr_has("outside its directory");
    s.file("host-volume", "nointerp", "#!/no/such/interpreter\n", 0o755);
    plugctl(&s)
        .args(["volume", "create", "--plugin", "nointerp", "--name", "x"])
        .fails_with(Exit::Failure)
        .stderr_has("/no/such/interpreter");
    assert!(list_volumes(&s).is_empty());
}

#[test]
fn a_timed_out_create_exits_4_and_repair_settles_it() {
    let s = Rig::new();
    s.plugin(
        "host-volume",
        "hang",
        &format!(
            r#"echo "$1" >> '{}'; [ "$1" = create ] && exec sleep 30; exit 0"#,
            s.out_file("hang-calls").display()
        ),
    );
    let start = Instant::now();
    let out = plugctl(&s)
        .args([
            "volume",
            "create",
            "--plugin",
            "hang",
            "--name",
            "h",
            "--timeout",
            "1s",
            "--grace",
            "1s",
        ])
        .fails_with(Exit::Timeout);
    assert!(start.elapsed() < Duration::from_secs(20));
    let err = stderr(&out);
    assert!(
        err.contains("timed out after 1s") && err.contains("\"h\""),
        "{err}"
    );
    // the plugin may have made something: the record stays, pending
    let list = list_volumes(&s);
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["state"], "pending");

    let doc = plugctl(&s)
        .args([
            "--json",
            "volume",
            "repair",
            "--timeout",
            "1s",
            "--grace",
            "1s",
        ])
        .succeeds()
        .json();
    assert_eq!(doc["results"][0]["action"], "rolled back");
    assert!(list_volumes(&s).is_empty());
    assert_eq!(s.read_out("hang-calls"), "create\ncreate\ndelete\n");
}

#[test]
fn a_deleting_volume_is_finished_by_repair() {
    let s = Rig::new();
    recorder(&s, "rec");
    let id = id_of(&create_volume(&s, &["--plugin", "rec", "--name", "data"]));
    // as a plugctl killed during delete leaves it
    let mut reg = s.registry_file();
    reg["volumes"][&id]["state"] = "deleting".into();
    reg["volumes"][&id]["owner"] = serde_json::json!({"pid": 999_999_999u32, "started": 1});
    fs::write(&s.registry, serde_json::to_vec_pretty(&reg).unwrap()).unwrap();
    // restore leaves it alone
    let doc = plugctl(&s)
        .args(["--json", "volume", "restore"])
        .succeeds()
        .json();
    assert_eq!(doc["results"][0]["action"], "skipped");
    // create refuses it
    plugctl(&s)
        .args([
            "volume", "create", "--plugin", "rec", "--name", "data", "--id", &id,
        ])
        .fails_with(Exit::Usage)
        .stderr_has("deleting");

    let doc = plugctl(&s)
        .args(["--json", "volume", "repair"])
        .succeeds()
        .json();
    let r = &doc["results"][0];
    assert_eq!(r["was"], "deleting");
    assert_eq!(r["action"], "deleted");
    assert!(list_volumes(&s).is_empty());
    assert_eq!(calls(&s, &id), ["create", "delete"]);
}

/// An update in flight owns its volume: a delete meanwhile is refused, and
/// a finished update never brings back a deleted volume.
#[test]
fn a_delete_waits_for_a_running_update_and_stays_final() {
    let s = Rig::new();
    let gate = s.out_file("slow");
    s.plugin(
        "host-volume",
        "slowc",
        &format!(
            r#"case "$1" in
fingerprint) echo '{{"version": "1.0.0"}}' ;;
create)
  [ -e '{gate}' ] && sleep 2
  mkdir -p "$DHV_VOLUMES_DIR/$DHV_VOLUME_ID"
  echo "{{\"path\": \"$DHV_VOLUMES_DIR/$DHV_VOLUME_ID\", \"bytes\": 0}}" ;;
delete) rm -rf "$DHV_CREATED_PATH" ;;
esac"#,
            gate = gate.display()
        ),
    );
    let id = "dddddddd-0000-4000-8000-000000000001";
    let create = [
        "volume", "create", "--plugin", "slowc", "--name", "sc", "--id", id,
    ];
    plugctl(&s).args(create).succeeds();
    std::fs::write(&gate, "").unwrap();
    let update = plugctl(&s)
        .args(create)
        .args(["--capacity-max", "2MB"])
        .start();
    // Wait until the update holds the record.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let doc = plugctl(&s)
            .args(["--json", "volume", "show", id])
            .any_exit()
            .json();
        if doc["volume"]["in_progress"] == true {
            break;
        }
        assert!(
            std::time::Instant::now() < until,
            "the update never owned the volume"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    plugctl(&s)
        .args(["volume", "delete", id])
        .fails_with(Exit::Usage)
        .stderr_has("right now");
    update.succeeds();

    let doc = plugctl(&s)
        .args(["--json", "volume", "show", id])
        .any_exit()
        .json();
    assert_eq!(doc["volume"]["capacity_max"], 2_000_000);
    assert_eq!(doc["volume"]["in_progress"], false);
    plugctl(&s).args(["volume", "delete", id]).succeeds();
    assert!(list_volumes(&s).is_empty());
}

/// A path no file system can hold is bad output, not a ready volume that
/// could never be deleted; repair rolls it back.
#[test]
fn a_created_path_with_a_nul_byte_is_bad_output() {
    let s = Rig::new();
    s.plugin(
        "host-volume",
        "nul",
        r#"case "$1" in
fingerprint) echo '{"version": "1.0.0"}' ;;
create) echo '{"path": "/tmp/a\u0000b"}' ;;
delete) exit 0 ;;
esac"#,
    );
    plugctl(&s)
        .args(["volume", "create", "--plugin", "nul", "--name", "n"])
        .fails_with(Exit::Failure)
        .stderr_has("NUL");
    let v = list_volumes(&s);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["state"], "pending");
    let doc = plugctl(&s)
        .args(["--json", "volume", "repair"])
        .succeeds()
        .json();
    assert_eq!(doc["results"][0]["action"], "rolled back");
    assert!(list_volumes(&s).is_empty());
}

/// Nomad's helper.IsUUID is case-insensitive: an upper-case id is accepted,
/// stored lower-case, and found in either case.
#[test]
fn upper_case_volume_ids_are_the_same_id() {
    let s = Rig::new();
    let upper = "0B6D3C1E-2F4A-4B5C-8D9E-0F1A2B3C4D5E";
    let vol = create_volume(&s, &["--plugin", "mkdir", "--name", "u", "--id", upper]);
    assert_eq!(vol["id"], upper.to_ascii_lowercase());
    let doc = plugctl(&s)
        .args(["--json", "volume", "show", upper])
        .succeeds()
        .json();
    assert_eq!(doc["volume"]["name"], "u");
    // The same volume again, in the other case: an update, not a second one.
    plugctl(&s)
        .args([
            "volume",
            "create",
            "--plugin",
            "mkdir",
            "--name",
            "u",
            "--id",
            &upper.to_ascii_lowercase(),
        ])
        .succeeds();
    assert_eq!(s.registry_json()["volumes"].as_object().unwrap().len(), 1);
    plugctl(&s).args(["volume", "delete", upper]).succeeds();
}

/// A plugin that answers create with a negative size (Go's int64 takes
/// one): the volume is recorded with a warning, as it was returned, and
/// every command after it still reads the registry — one bad answer never
/// locks the node out of its own registry.
#[test]
fn a_negative_size_from_a_plugin_is_recorded_and_the_registry_stays_readable() {
    let s = Rig::new();
    s.plugin(
        "host-volume",
        "neg",
        r#"case $1 in
fingerprint) echo '{"version": "1.0.0"}' ;;
create) mkdir -p "$DHV_VOLUMES_DIR/$DHV_VOLUME_ID"; printf '{"path": "%s/%s", "bytes": -5}\n' "$DHV_VOLUMES_DIR" "$DHV_VOLUME_ID" ;;
delete) rm -rf "$DHV_VOLUMES_DIR/$DHV_VOLUME_ID" ;;
esac"#,
    );
    plugctl(&s)
        .args(["volume", "create", "--plugin", "neg", "--name", "v"])
        .succeeds()
        .stderr_has("negative size (-5 bytes)");
    plugctl(&s)
        .args(["volume", "list"])
        .succeeds()
        .stdout_has("-5 B");
    for args in [&["metrics"][..], &["plugin", "list"], &["fingerprint"]] {
        plugctl(&s).args_from(args).succeeds();
    }
    plugctl(&s).args(["volume", "delete", "v"]).succeeds();
}

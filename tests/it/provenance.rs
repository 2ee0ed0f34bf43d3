//! Provenance through the real binary: `pin` and `pin --check` against real
//! plugin files, and `volume audit` against a real volumes directory.

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};

use crate::common::*;
use serde_json::Value;

fn lock(s: &Rig) -> Value {
    let text = fs::read_to_string(s.plugins.join("plugctl.lock")).expect("lock file written");
    serde_json::from_str(&text).expect("lock file is JSON")
}

#[test]
fn pin_writes_a_stable_lock_file_with_hashes_sizes_versions_and_interpreters() {
    let s = Rig::new();
    let a = s.hv_ok("a", "1.2.3");
    s.secrets_ok("b");
    // Fingerprinted first: the lock file carries the reported version.
    plugctl(&s).args(["fingerprint"]).succeeds();
    plugctl(&s).args(["pin"]).succeeds();
    let l = lock(&s);
    assert_eq!(l["schema_version"], 1);
    let plugins = l["plugins"].as_array().unwrap();
    let keys: Vec<(String, String)> = plugins
        .iter()
        .map(|p| {
            (
                p["type"].as_str().unwrap().into(),
                p["name"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        keys,
        [
            ("host-volume".into(), "a".into()),
            ("secrets".into(), "b".into())
        ],
        "sorted by type then name, built-ins left out"
    );
    let bytes = fs::read(&a).unwrap();
    let pa = &plugins[0];
    assert_eq!(pa["size"], bytes.len());
    assert_eq!(pa["sha256"], sha256_by_tool(&a));
    assert_eq!(pa["version"], "1.2.3");
    assert_eq!(pa["interpreter"]["path"], "/bin/sh");
    assert_eq!(
        pa["interpreter"]["sha256"],
        sha256_by_tool(&fs::canonicalize("/bin/sh").unwrap())
    );
    // Pinning again changes nothing: the file diffs well in git.
    let first = fs::read(s.plugins.join("plugctl.lock")).unwrap();
    plugctl(&s).args(["pin"]).succeeds();
    assert_eq!(first, fs::read(s.plugins.join("plugctl.lock")).unwrap());
}

/// sha256sum, an independent implementation.
fn sha256_by_tool(path: &std::path::Path) -> String {
    let out = std::process::Command::new("sha256sum")
        .arg(path)
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()[..64].to_string()
}

#[test]
fn pin_check_names_a_plugin_changed_by_one_byte_and_added_and_removed_ones() {
    let s = Rig::new();
    let a = s.hv_ok("a", "1.0.0");
    s.hv_ok("gone", "1.0.0");
    plugctl(&s).args(["pin"]).succeeds();
    let ok = plugctl(&s).args(["pin", "--check"]).succeeds();
    assert!(
        stdout(&ok).contains("ok: 2 plugins match"),
        "{}",
        stdout(&ok)
    );

    // One byte: `1.0.0` becomes `1.0.1`, same size.
    let text = fs::read_to_string(&a).unwrap().replace("1.0.0", "1.0.1");
    s.file("host-volume", "a", &text, 0o755);
    fs::remove_file(s.plugins.join("host-volume/gone")).unwrap();
    s.hv_ok("new", "1.0.0");
    let out = plugctl(&s)
        .args(["pin", "--check"])
        .fails_with(Exit::Failure);
    let table = stdout(&out);
    for want in [
        "changed  host-volume  a",
        "removed  host-volume  gone",
        "added    host-volume  new",
    ] {
        assert!(table.contains(want), "{want:?} missing from:\n{table}");
    }
    assert!(
        stderr(&out).contains("3 of 3 plugins differ"),
        "{}",
        stderr(&out)
    );
    // The lock file is untouched by --check.
    let doc = plugctl(&s)
        .args(["--json", "pin", "--check"])
        .fails_with(Exit::Failure)
        .json();
    assert_eq!(doc["ok"], false);
    let changed = doc["differences"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "a")
        .unwrap();
    assert_eq!(changed["status"], "changed");
    assert_ne!(changed["pinned"]["sha256"], changed["current"]["sha256"]);
    assert_eq!(changed["pinned"]["size"], changed["current"]["size"]);
}

#[test]
fn pin_of_one_name_keeps_the_other_entries() {
    let s = Rig::new();
    s.hv_ok("a", "1.0.0");
    let b = s.hv_ok("b", "1.0.0");
    plugctl(&s).args(["pin"]).succeeds();
    let before = lock(&s);
    s.file(
        "host-volume",
        "b",
        &format!("{}# edited\n", fs::read_to_string(&b).unwrap()),
        0o755,
    );
    s.file("host-volume", "a", "#!/bin/sh\n# also edited\n", 0o755);
    plugctl(&s).args(["pin", "b"]).succeeds();
    let after = lock(&s);
    assert_eq!(
        after["plugins"][0], before["plugins"][0],
        "a is out of scope"
    );
    assert_ne!(
        after["plugins"][1]["sha256"],
        before["plugins"][1]["sha256"]
    );
    plugctl(&s).args(["pin", "--check", "b"]).succeeds();
    // a still differs
    plugctl(&s)
        .args(["pin", "--check"])
        .fails_with(Exit::Failure);
    plugctl(&s)
        .args(["pin", "nosuch"])
        .fails_with(Exit::NotFound);
}

#[test]
fn pin_refuses_a_symlinked_or_hostile_lock_file_and_check_without_one() {
    let s = Rig::new();
    s.hv_ok("a", "1.0.0");
    plugctl(&s)
        .args(["pin", "--check"])
        .fails_with(Exit::Usage)
        .stderr_has("run `plugctl pin` first");
    // A lock file that is a symlink is not followed when read.
    let victim = s.root().join("victim");
    fs::write(&victim, "{}").unwrap();
    symlink(&victim, s.plugins.join("plugctl.lock")).unwrap();
    plugctl(&s)
        .args(["pin", "--check"])
        .fails_with(Exit::Usage)
        .stderr_has("plugctl.lock")
        .stderr_has("symbolic link");
    // Nor written through.
    plugctl(&s).args(["pin"]).fails_with(Exit::Usage);
    assert_eq!(fs::read_to_string(&victim).unwrap(), "{}");
    // --lockfile moves it.
    let moved = s.root().join("elsewhere.lock");
    plugctl(&s)
        .args(["--lockfile", moved.to_str().unwrap(), "pin"])
        .succeeds();
    assert!(moved.exists());
}

/// A host-volume plugin that makes a directory per volume.
fn dir_plugin(s: &Rig) {
    s.plugin(
        "host-volume",
        "d",
        r#"case $1 in
fingerprint) echo '{"version": "1.0.0"}' ;;
create) mkdir -p "$DHV_VOLUMES_DIR/$DHV_VOLUME_ID" && head -c 100000 /dev/urandom > "$DHV_VOLUMES_DIR/$DHV_VOLUME_ID/data" && printf '{"path": "%s/%s", "bytes": 0}\n' "$DHV_VOLUMES_DIR" "$DHV_VOLUME_ID" ;;
delete) rm -rf "$DHV_VOLUMES_DIR/$DHV_VOLUME_ID" ;;
esac"#,
    );
}

fn create(s: &Rig, name: &str) -> Value {
    create_volume(
        s,
        &["--plugin", "d", "--name", name, "--capacity-max", "1MiB"],
    )
}

#[test]
fn audit_is_clean_then_finds_an_orphan_a_missing_path_and_a_pending_operation() {
    let s = Rig::new();
    dir_plugin(&s);
    let a = create(&s, "a");
    let b = create(&s, "b");
    let doc = plugctl(&s)
        .args(["--json", "volume", "audit"])
        .succeeds()
        .json();
    assert_eq!(doc["ok"], true);
    let va = doc["volumes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["id"] == a["id"])
        .unwrap();
    let on_disk = va["bytes_on_disk"].as_u64().unwrap();
    assert!(on_disk >= 100_000, "the 100 kB file is counted: {va}");

    // An orphan directory (a volume of plugctl's, forgotten), what
    // another tool keeps there, a vanished volume, a pending record.
    let orphan = leftover(&s);
    make_dir(orphan.join("sub"));
    fs::write(orphan.join("sub/f"), "x").unwrap();
    make_dir(s.volumes.join("not-ours"));
    fs::remove_dir_all(b["path"].as_str().unwrap()).unwrap();
    let mut reg = s.registry_file();
    reg["volumes"][a["id"].as_str().unwrap()]["state"] = "pending".into();
    fs::write(&s.registry, serde_json::to_vec_pretty(&reg).unwrap()).unwrap();

    let out = plugctl(&s)
        .args(["volume", "audit"])
        .fails_with(Exit::Failure);
    let table = stdout(&out);
    assert!(table.contains("orphan dir"), "{table}");
    assert!(table.contains(&format!("{}", orphan.display())), "{table}");
    assert!(table.contains("path is gone"), "{table}");
    assert!(table.contains("create interrupted"), "{table}");
    assert!(table.contains("foreign dir"), "{table}");
    // The foreign entry is no finding: orphan, gone path, pending.
    out.stderr_has("3 finding(s)")
        .stderr_has("1 foreign entry in");
    let doc = plugctl(&s)
        .args(["--json", "volume", "audit"])
        .any_exit()
        .json();
    assert_eq!(doc["ok"], false);
    assert_eq!(doc["orphans"].as_array().unwrap().len(), 1, "{doc}");
    assert_eq!(doc["orphans"][0]["kind"], "dir");
    assert_eq!(
        doc["foreign"][0]["path"],
        s.volumes.join("not-ours").display().to_string()
    );
}

#[test]
fn prune_needs_yes_removes_only_orphans_and_never_follows_symlinks() {
    let s = Rig::new();
    dir_plugin(&s);
    let a = create(&s, "a");
    let outside = s.root().join("outside");
    make_dir(&outside);
    fs::write(outside.join("precious"), "keep").unwrap();
    let orphan = leftover(&s);
    // An orphan symlink to a directory outside (a leftover's name), and a
    // link inside an orphan.
    let link_out = leftover(&s);
    fs::remove_dir(&link_out).unwrap();
    symlink(&outside, &link_out).unwrap();
    symlink(&outside, orphan.join("inner-link")).unwrap();
    // What another tool keeps there.
    make_dir(s.volumes.join("theirs"));

    plugctl(&s)
        .args(["volume", "audit", "--prune-orphans"])
        .fails_with(Exit::Usage)
        .stderr_has("add --yes")
        .stderr_has("1 foreign entry, not plugctl's, is never removed");
    assert!(orphan.exists(), "nothing removed without --yes");

    // Every orphan found was pruned; the foreign entry stays.
    plugctl(&s)
        .args(["volume", "audit", "--prune-orphans", "--yes"])
        .succeeds();
    assert!(!orphan.exists());
    assert!(fs::symlink_metadata(&link_out).is_err());
    assert!(s.volumes.join("theirs").is_dir());
    assert_eq!(
        fs::read_to_string(outside.join("precious")).unwrap(),
        "keep"
    );
    assert!(
        fs::metadata(a["path"].as_str().unwrap()).is_ok(),
        "the recorded volume stays"
    );
    plugctl(&s)
        .args(["--json", "volume", "audit"])
        .succeeds()
        .json();
}

#[test]
fn audit_counts_allocated_blocks_like_du_and_stays_off_symlinks() {
    let s = Rig::new();
    dir_plugin(&s);
    let a = create(&s, "a");
    let path = a["path"].as_str().unwrap();
    // A symlink to a big tree outside must not be counted; a sparse file
    // counts what it allocates.
    symlink("/usr", format!("{path}/usr")).unwrap();
    let f = fs::File::create(format!("{path}/sparse")).unwrap();
    f.set_len(1 << 30).unwrap();
    let doc = plugctl(&s)
        .args(["--json", "volume", "audit"])
        .any_exit()
        .json();
    let ours = doc["volumes"][0]["bytes_on_disk"].as_u64().unwrap();
    let du = std::process::Command::new("du")
        .args(["-s", "--block-size=1", path])
        .output()
        .unwrap();
    let du: u64 = String::from_utf8(du.stdout)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(ours, du, "du -s agrees");
    assert!(ours < 1 << 20);
}

/// A host-volume plugin whose answers come from a file the test can change.
fn scripted(s: &Rig) {
    s.plugin(
        "host-volume",
        "scripted",
        &format!(
            r#"case $1 in
fingerprint) echo "{{\"version\": \"$(cat '{out}/version' 2>/dev/null || echo 1.0.0)\"}}" ;;
create) mkdir -p "$DHV_VOLUMES_DIR/$DHV_VOLUME_ID"; printf '{{"path": "%s/%s", "bytes": %s}}\n' "$DHV_VOLUMES_DIR" "$DHV_VOLUME_ID" "$(cat '{out}/bytes' 2>/dev/null || echo 0)" ;;
delete) rm -rf "$DHV_VOLUMES_DIR/$DHV_VOLUME_ID" ;;
esac"#,
            out = s.out.display()
        ),
    );
}

#[test]
fn a_recorded_session_replays_clean_then_with_a_diff_after_the_plugin_changes() {
    let s = Rig::new();
    scripted(&s);
    let cases = s.root().join("cases");
    let c = cases.to_str().unwrap();
    plugctl(&s)
        .args(["--record", c, "fingerprint", "--type", "host-volume"])
        .succeeds();
    plugctl(&s)
        .args([
            "--record", c, "volume", "create", "--plugin", "scripted", "--name", "v",
        ])
        .succeeds();
    let files: Vec<String> = fs::read_dir(&cases)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".json"))
        .collect();
    assert_eq!(files.len(), 2, "{files:?}");
    // Beside the cases: the directory's HMAC key, the recorder's alone.
    let key = fs::metadata(cases.join(".plugctl-record-key")).unwrap();
    assert_eq!(key.permissions().mode() & 0o777, 0o600);
    assert!(
        files
            .iter()
            .any(|f| f == "0001-host-volume-scripted-fingerprint.json"),
        "{files:?}"
    );
    assert!(
        files
            .iter()
            .any(|f| f == "0002-host-volume-scripted-create.json"),
        "{files:?}"
    );

    // Clean: a new volume id and path on replay are normalised away.
    plugctl(&s)
        .args(["replay", c])
        .succeeds()
        .stdout_has("ok: 2 cases: 2 same, 0 different");

    // The plugin now answers differently to create.
    fs::write(s.out_file("bytes"), "42").unwrap();
    let out = plugctl(&s).args(["replay", c]).fails_with(Exit::Failure);
    let text = stdout(&out);
    assert!(
        text.contains("DIFF  0002-host-volume-scripted-create.json"),
        "{text}"
    );
    assert!(
        text.contains("-  \"bytes\": 0") && text.contains("+  \"bytes\": 42"),
        "{text}"
    );
    assert!(
        text.contains("PASS  0001-host-volume-scripted-fingerprint.json"),
        "{text}"
    );

    // JUnit for CI: one testcase per case file, the failing one with a failure.
    let out = plugctl(&s)
        .args(["replay", c, "--format", "junit"])
        .fails_with(Exit::Failure);
    let xml = stdout(&out);
    let doc = roxmltree::Document::parse(&xml).expect("JUnit is XML");
    let cases: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), 2);
    let failing: Vec<_> = cases
        .iter()
        .filter(|c| c.children().any(|n| n.has_tag_name("failure")))
        .map(|c| c.attribute("name").unwrap())
        .collect();
    assert_eq!(failing, ["0002-host-volume-scripted-create.json"]);
}

#[test]
fn replay_never_touches_the_real_volumes_dir_and_never_runs_what_a_case_file_claims() {
    let s = Rig::new();
    scripted(&s);
    let cases = s.root().join("cases");
    let c = cases.to_str().unwrap();
    let vol = create_volume(&s, &["--plugin", "scripted", "--name", "keep"]);
    let path = vol["path"].as_str().unwrap().to_string();
    plugctl(&s)
        .args(["--record", c, "volume", "delete", "--name", "keep"])
        .succeeds();
    // Put the volume back, then replay the delete: it runs in a scratch dir.
    make_dir(&path);
    plugctl(&s).args(["replay", c]).succeeds();
    assert!(
        fs::metadata(&path).is_ok(),
        "replaying a delete removed the real volume"
    );

    // A tampered case file: another program, extra arguments.
    let file = fs::read_dir(&cases)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let mut case: Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    let marker = s.out_file("pwned");
    case["program"] = "/usr/bin/touch".into();
    fs::write(&file, serde_json::to_string(&case).unwrap()).unwrap();
    // The plugin discovery finds is run instead.
    plugctl(&s)
        .args(["replay", c])
        .succeeds()
        .stdout_has("replayed with");
    case["args"] = serde_json::json!(["delete", marker.to_str().unwrap()]);
    fs::write(&file, serde_json::to_string(&case).unwrap()).unwrap();
    plugctl(&s)
        .args(["replay", c])
        .fails_with(Exit::Failure)
        .stdout_has("cannot replay: the recorded arguments");
    assert!(!marker.exists());
}

#[test]
fn a_secret_value_never_reaches_a_record_dir() {
    let s = Rig::new();
    s.plugin(
        "secrets",
        "leaky",
        r#"case $1 in
fingerprint) echo '{"type": "secrets", "version": "1.0.0"}' ;;
fetch) echo "debug: value is s3cr3t-VALUE" >&2; echo '{"result": {"password": "s3cr3t-VALUE"}}' ;;
esac"#,
    );
    let cases = s.root().join("cases");
    let c = cases.to_str().unwrap();
    plugctl(&s)
        .args(["--record", c, "secret", "fetch", "leaky", "app/db"])
        .succeeds()
        // the caller still gets it
        .stdout_has("s3cr3t-VALUE");
    let mut seen = 0;
    for e in fs::read_dir(&cases).unwrap() {
        let text = fs::read_to_string(e.unwrap().path()).unwrap();
        assert!(!text.contains("s3cr3t"), "a value in a case file:\n{text}");
        if text.contains("\"password\"") {
            seen += 1;
        }
    }
    assert_eq!(seen, 1, "the key is recorded, with a hash");
    // Same answer: clean; another value: a difference naming the key only.
    plugctl(&s).args(["replay", c]).succeeds();
    s.plugin(
        "secrets",
        "leaky",
        r#"echo '{"result": {"password": "other"}}'"#,
    );
    plugctl(&s)
        .args(["replay", c])
        .fails_with(Exit::Failure)
        .stdout_has("differs in keys password")
        .stdout_lacks("other");
}

/// A host-volume plugin that leaves a marker for every call it serves.
fn marking(s: &Rig, name: &str, tag: &str) {
    s.plugin(
        "host-volume",
        name,
        &format!(
            r#"echo "$1" >> '{out}/ran-{name}-{tag}'
case $1 in
fingerprint) echo '{{"version": "1.0.0"}}' ;;
create) printf '{{"path": "%s/%s", "bytes": 0}}\n' "$DHV_VOLUMES_DIR" "$DHV_VOLUME_ID" ;;
esac"#,
            out = s.out.display()
        ),
    );
}

#[test]
fn locked_refuses_a_drifted_or_unpinned_plugin_without_running_it() {
    let s = Rig::new();
    marking(&s, "a", "v1");
    plugctl(&s).args(["pin"]).succeeds();
    plugctl(&s)
        .args(["--locked", "fingerprint", "--type", "host-volume"])
        .succeeds();
    assert!(s.out_file("ran-a-v1").exists());

    // One byte changes (v1 → v2 in the marker name).
    marking(&s, "a", "v2");
    marking(&s, "new", "v1");
    let doc = plugctl(&s)
        .args(["--json", "--locked", "fingerprint", "--type", "host-volume"])
        .fails_with(Exit::Failure)
        .json();
    let a = row(&doc, "host-volume", "a");
    assert_eq!(a["healthy"], false);
    let err = a["error"].as_str().unwrap();
    assert!(err.contains("drifted: sha256"), "{err}");
    assert!(err.contains("≠ pinned"), "{err}");
    let new = row(&doc, "host-volume", "new");
    assert!(
        new["error"].as_str().unwrap().contains("not pinned"),
        "{new}"
    );
    // (A registry of its own: in this one, a's failed fingerprint would
    // refuse the create before --locked is even asked.)
    let fresh = s.root().join("fresh.json");
    plugctl(&s)
        .args([
            "--locked",
            "--registry",
            fresh.to_str().unwrap(),
            "volume",
            "create",
            "--plugin",
            "a",
            "--name",
            "v",
        ])
        .fails_with(Exit::Failure)
        .stderr_has("drifted");
    assert!(!s.out_file("ran-a-v2").exists(), "the drifted plugin ran");
    assert!(
        !s.out_file("ran-new-v1").exists(),
        "the unpinned plugin ran"
    );

    // Without --locked it runs, with a warning naming the drift.
    let out = plugctl(&s).args(["fingerprint", "a"]).succeeds();
    assert!(
        stderr(&out).contains("drifted") && stderr(&out).contains("--locked"),
        "{}",
        stderr(&out)
    );
    assert!(s.out_file("ran-a-v2").exists());

    // --locked needs a lock file.
    fs::remove_file(s.plugins.join("plugctl.lock")).unwrap();
    plugctl(&s)
        .args(["--locked", "fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has("no lock file");
}

#[test]
fn locked_never_runs_a_file_swapped_between_hash_and_exec() {
    let s = Rig::new();
    // Two real executables: the pinned one (`true`) and a twin that leaves
    // a trace (`touch`, which creates a file named after its argument,
    // `fingerprint`, in plugctl's working directory).
    let good = fs::read("/bin/true").unwrap();
    let evil = fs::read("/usr/bin/touch").unwrap();
    s.file("host-volume", "a", "", 0o755);
    fs::write(s.plugins.join("host-volume/a"), &good).unwrap();
    plugctl(&s).args(["pin"]).succeeds();
    let trace = s.root().join("fingerprint");
    let dir = s.plugins.join("host-volume");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let racer = {
        let (dir, stop) = (dir.clone(), stop.clone());
        std::thread::spawn(move || {
            use std::os::unix::fs::PermissionsExt;
            let mut flip = false;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let tmp = dir.join(".swap");
                fs::write(&tmp, if flip { &evil } else { &good }).unwrap();
                fs::set_permissions(&tmp, fs::Permissions::from_mode(0o755)).unwrap();
                fs::rename(&tmp, dir.join("a")).unwrap();
                flip = !flip;
                // A pause between swaps leaves windows in which the file
                // stays put from hash to exec: without it, on a busy
                // machine every call can land mid-swap and be refused.
                std::thread::sleep(std::time::Duration::from_millis(3));
            }
        })
    };
    let (mut ran, mut refused) = (0, 0);
    // A hundred calls, and more (up to four hundred) while the race has not
    // yet shown both ends: on a loaded machine it can take longer.
    for i in 0..400 {
        if i >= 100 && ran > 0 && refused > 0 {
            break;
        }
        let doc = plugctl(&s)
            .args(["--json", "--locked", "fingerprint", "a"])
            .any_exit()
            .json();
        let err = row(&doc, "host-volume", "a")["error"]
            .as_str()
            .unwrap_or("")
            .to_string();
        if err.contains("drifted") {
            refused += 1;
        } else {
            // `true` prints nothing: it ran, and the output is judged bad.
            ran += 1;
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    racer.join().unwrap();
    assert!(!trace.exists(), "the swapped-in file was executed");
    // The race was real: some calls ran the pinned file, some were refused.
    assert!(ran > 0 && refused > 0, "ran {ran}, refused {refused}");
}

#[test]
fn validate_locked_fails_on_drift_with_the_lock_file_of_its_dir() {
    let s = Rig::new();
    marking(&s, "a", "v1");
    let dir = s.plugins.to_str().unwrap();
    // Run from elsewhere: DIR's own plugctl.lock is the one checked.
    let other = s.root().join("other");
    make_dir(&other);
    plugctl(&s).args(["pin"]).succeeds();
    plugctl(&s)
        .args([
            "--plugin-dir",
            other.to_str().unwrap(),
            "validate",
            dir,
            "--locked",
        ])
        .succeeds();
    marking(&s, "a", "v2");
    let out = plugctl(&s)
        .args([
            "--plugin-dir",
            other.to_str().unwrap(),
            "validate",
            dir,
            "--locked",
        ])
        .fails_with(Exit::Failure)
        .stdout_has("drifted: sha256");
    // The file is not broken: no advice about its shebang.
    assert!(!stdout(&out).contains("shebang"), "{}", stdout(&out));
    assert!(!s.out_file("ran-a-v2").exists());
}

/// The `reproduce:` line of a human dry run.
fn reproduce_line(text: &str) -> String {
    let mut lines = text.lines().skip_while(|l| *l != "reproduce:");
    lines.next().expect("a reproduce: section");
    lines.next().expect("the env -i line").trim().to_string()
}

#[test]
fn dry_run_runs_nothing_changes_nothing_and_its_env_line_reproduces_the_call() {
    let s = Rig::new();
    s.plugin(
        "host-volume",
        "touchy",
        &format!(
            r#"echo "$1" >> '{out}/ran'
case $1 in
fingerprint) echo '{{"version": "2.0.0"}}' ;;
create) printf '{{"path": "%s/%s", "bytes": %s}}\n' "$DHV_VOLUMES_DIR" "$DHV_VOLUME_NAME" "$DHV_CAPACITY_MAX_BYTES" ;;
esac"#,
            out = s.out.display()
        ),
    );
    let out = plugctl(&s)
        .args(["fingerprint", "--dry-run", "touchy"])
        .succeeds();
    let text = stdout(&out);
    assert!(
        text.contains("# would run host-volume plugin \"touchy\", operation fingerprint"),
        "{text}"
    );
    assert!(text.contains("DHV_OPERATION=fingerprint"), "{text}");
    assert!(!s.out_file("ran").exists(), "dry run ran the plugin");
    assert!(!s.registry.exists(), "dry run wrote the registry");

    // The line, pasted into sh, makes the same call.
    let line = reproduce_line(&text);
    assert!(line.starts_with("env -i "), "{line}");
    let by_hand = expect::Run::new(s.command("/bin/sh"), "sh")
        .arg("-c")
        .arg(&line)
        .any_exit();
    assert_eq!(stdout(&by_hand), "{\"version\": \"2.0.0\"}\n");
    assert_eq!(s.read_out("ran"), "fingerprint\n");

    let out = plugctl(&s)
        .args([
            "volume",
            "create",
            "--dry-run",
            "--plugin",
            "touchy",
            "--name",
            "it's mine",
            "--capacity-max",
            "1MiB",
            "--param",
            "mode=0755",
        ])
        .succeeds();
    assert_eq!(s.read_out("ran"), "fingerprint\n", "create ran");
    assert!(!s.registry.exists(), "dry run wrote the registry");
    let line = reproduce_line(&stdout(&out));
    let by_hand = expect::Run::new(s.command("/bin/sh"), "sh")
        .arg("-c")
        .arg(&line)
        .any_exit();
    assert_eq!(
        stdout(&by_hand),
        format!(
            "{{\"path\": \"{}/it's mine\", \"bytes\": 1048576}}\n",
            s.volumes.display()
        )
    );

    // As data: argv, the exact environment in order, the deadline.
    let doc = plugctl(&s)
        .args([
            "--json",
            "volume",
            "create",
            "--dry-run",
            "--plugin",
            "touchy",
            "--name",
            "v",
        ])
        .succeeds()
        .json();
    assert_eq!(doc["dry_run"], true);
    let call = &doc["calls"][0];
    assert_eq!(call["operation"], "create");
    assert_eq!(call["argv"][1], "create");
    let env: Vec<&str> = call["env"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(env.len(), 11, "{env:?}");
    assert_eq!(env[0], "DHV_OPERATION=create");
    assert_eq!(call["timeout_ms"], 60000, "{call}");
    assert!(!s.registry.exists());
}

#[test]
fn dry_run_of_delete_restore_and_fetch_changes_nothing() {
    let s = Rig::new();
    scripted(&s);
    let vol = create_volume(&s, &["--plugin", "scripted", "--name", "v"]);
    let id = id_of(&vol);
    let path = vol["path"].as_str().unwrap().to_string();
    let before = fs::read(&s.registry).unwrap();

    let doc = plugctl(&s)
        .args(["--json", "volume", "delete", &id, "--dry-run"])
        .succeeds()
        .json();
    let env = doc["calls"][0]["env"].as_array().unwrap();
    assert!(
        env.iter()
            .any(|e| e == &Value::from(format!("DHV_CREATED_PATH={path}"))),
        "{env:?}"
    );
    assert!(fs::metadata(&path).is_ok(), "dry run deleted the volume");

    let doc = plugctl(&s)
        .args(["--json", "volume", "restore", "--dry-run"])
        .succeeds()
        .json();
    assert_eq!(doc["calls"].as_array().unwrap().len(), 1);
    assert!(doc["calls"][0]["subject"].as_str().unwrap().contains(&id));
    assert_eq!(
        fs::read(&s.registry).unwrap(),
        before,
        "the registry changed"
    );

    s.plugin(
        "secrets",
        "sp",
        &format!("echo ran >> '{}/ran-sp'; echo '{{}}'", s.out.display()),
    );
    let doc = plugctl(&s)
        .args([
            "--json",
            "secret",
            "fetch",
            "sp",
            "app/db",
            "--env",
            "TOKEN=abc",
            "--dry-run",
        ])
        .succeeds()
        .json();
    let call = &doc["calls"][0];
    assert_eq!(call["argv"][1], "fetch");
    assert_eq!(call["argv"][2], "app/db");
    assert!(
        call["env"]
            .as_array()
            .unwrap()
            .contains(&Value::from("TOKEN=abc"))
    );
    assert!(!s.out_file("ran-sp").exists());
    assert_eq!(
        fs::read(&s.registry).unwrap(),
        before,
        "the registry changed"
    );
}

#[test]
fn prune_never_empties_a_file_system_mounted_in_an_orphan() {
    if !nix::unistd::geteuid().is_root() {
        eprintln!("SKIPPED: needs root to mount a tmpfs");
        return;
    }
    let s = Rig::new();
    dir_plugin(&s);
    create(&s, "a");
    let mnt = leftover(&s).join("mnt");
    make_dir(&mnt);
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "tmpfs"])
        .arg(&mnt)
        .status();
    if !mounted.is_ok_and(|st| st.success()) {
        if std::env::var_os("CI").is_some() {
            panic!("cannot mount a tmpfs, and CI must run this test");
        }
        eprintln!("SKIPPED: cannot mount a tmpfs here");
        return;
    }
    // Unmounted however the test ends.
    struct Unmount<'a>(&'a std::path::Path);
    impl Drop for Unmount<'_> {
        fn drop(&mut self) {
            let _ = std::process::Command::new("umount").arg(self.0).status();
        }
    }
    let _unmount = Unmount(&mnt);
    fs::write(mnt.join("data"), "keep").unwrap();
    plugctl(&s)
        .args(["volume", "audit", "--prune-orphans", "--yes"])
        .fails_with(Exit::Failure)
        .stderr_has("mount point");
    assert_eq!(
        fs::read_to_string(mnt.join("data")).ok().as_deref(),
        Some("keep"),
        "pruning emptied a mounted file system"
    );
}

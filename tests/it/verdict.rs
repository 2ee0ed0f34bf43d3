//! One verdict for one fact (issue 23): plugins broken in different ways
//! are unhealthy, for the same reason, in `fingerprint`, `plugin list`,
//! `metrics`, `validate`, its release matrix and `test`; `plugin forget`
//! clears a plugin removed on purpose; a file plugctl cannot use is one
//! row and stops nothing; the conformance suite fails what Nomad would not
//! accept, one failure per bug.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::os::unix::fs::PermissionsExt;

use serde_json::Value;

use crate::common::*;

/// The rig's plugins, broken after a first fingerprint recorded them:
/// plugin name → the words every view must give as (part of) its reason.
fn broken_node(s: &Rig) -> BTreeMap<&'static str, &'static str> {
    // A plugin that passes everything (but a style warning of `test`).
    let dir = fs::read_to_string(examples().join("host-volume/dir")).unwrap();
    s.file("host-volume", "good", &dir, 0o755);
    for name in ["noexec", "gone", "fifo"] {
        s.file("host-volume", name, &dir, 0o755);
    }
    s.plugin(
        "host-volume",
        "slow",
        r#"/bin/sleep 1.3; echo '{"version": "1.0.0"}'"#,
    );
    s.plugin("host-volume", "junk", "echo hello");
    plugctl(s).args(["fingerprint"]).fails_with(Exit::Failure);

    let hv = s.plugins.join("host-volume");
    fs::set_permissions(hv.join("noexec"), fs::Permissions::from_mode(0o644)).unwrap();
    fs::remove_file(hv.join("gone")).unwrap();
    fs::remove_file(hv.join("fifo")).unwrap();
    nix::unistd::mkfifo(
        &hv.join("fifo"),
        nix::sys::stat::Mode::from_bits_truncate(0o755),
    )
    .unwrap();
    BTreeMap::from([
        ("slow", "too slow for Nomad: 1."),
        (
            "junk",
            "bad output: invalid character 'h' looking for beginning",
        ),
        ("noexec", "no execute bit: Nomad ignores it (chmod 0755 "),
        ("gone", "deleted: "),
        ("fifo", "not a regular file: a FIFO"),
    ])
}

/// Every plugin of `family` in a `plugins` array that is unhealthy, with
/// its error.
fn unhealthy(doc: &Value) -> BTreeMap<String, String> {
    doc["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["type"] == "host-volume" && p["healthy"] == false)
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["error"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[track_caller]
fn agree(view: &str, got: &BTreeMap<String, String>, want: &BTreeMap<&str, &str>) {
    let names: BTreeSet<&str> = got.keys().map(String::as_str).collect();
    let wanted: BTreeSet<&str> = want.keys().copied().collect();
    assert_eq!(names, wanted, "{view}: {got:#?}");
    for (name, words) in want {
        let reason = &got[*name];
        assert!(
            reason.contains(words),
            "{view}: {name}: {reason:?} does not say {words:?}"
        );
    }
}

#[test]
fn six_views_agree_on_which_plugins_are_unhealthy_and_why() {
    let s = Rig::new();
    let want = broken_node(&s);

    // 1. fingerprint: the table, JSON, summary line and exit status.
    let ran = plugctl(&s)
        .args(["--json", "fingerprint"])
        .fails_with(Exit::Failure)
        .stderr_has("5 of 9 plugins unhealthy: host-volume/fifo, host-volume/gone, host-volume/junk, host-volume/noexec, host-volume/slow");
    let fingerprint = unhealthy(&ran.json());
    agree("fingerprint --json", &fingerprint, &want);
    let table = plugctl(&s)
        .args(["fingerprint"])
        .fails_with(Exit::Failure)
        .stdout();
    for (name, words) in &want {
        let line = table
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .unwrap_or_else(|| panic!("no row for {name}:\n{table}"));
        assert!(line.contains("unhealthy") && line.contains(words), "{line}");
    }

    // 2. plugin list: what was recorded, and what the disk says now.
    let list = plugctl(&s)
        .args(["--json", "plugin", "list"])
        .succeeds()
        .json();
    let list = unhealthy(&list);
    agree("plugin list", &list, &want);
    for (name, reason) in &list {
        if *name != "slow" {
            assert_eq!(reason, &fingerprint[name], "{name}: the very same words");
        }
    }

    // 3. metrics: 0 for exactly those.
    let text = plugctl(&s).args(["metrics"]).succeeds().stdout();
    let zero: BTreeMap<String, String> = text
        .lines()
        .filter(|l| l.starts_with("plugctl_plugin_healthy{family=\"host-volume\""))
        .filter(|l| l.ends_with(" 0"))
        .map(|l| {
            let name = l
                .split("name=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            (
                name.to_string(),
                want.get(name).copied().unwrap_or("").to_string(),
            )
        })
        .collect();
    agree("metrics", &zero, &want);
    assert!(
        text.contains(
            r#"plugctl_plugin_healthy{family="host-volume",name="good",version="1.0.0"} 1"#
        ),
        "{text}"
    );

    // 4. validate: an error for exactly those, saying the same.
    let doc = plugctl(&s)
        .args(["--json", "validate"])
        .fails_with(Exit::Failure)
        .json();
    let mut errors: BTreeMap<String, String> = BTreeMap::new();
    for f in doc["findings"].as_array().unwrap() {
        let Some(plugin) = f["plugin"]
            .as_str()
            .and_then(|p| p.strip_prefix("host-volume/"))
        else {
            continue;
        };
        if f["severity"] == "error" {
            errors
                .entry(plugin.to_string())
                .or_default()
                .push_str(f["message"].as_str().unwrap());
        }
    }
    agree("validate", &errors, &want);

    // 5. the matrix: fails on every release for exactly those, with the
    // same reason; the others "fingerprint ok", as it checked no more.
    let doc = plugctl(&s)
        .args(["--json", "validate", "--nomad-version", "1.10,2.0.1"])
        .fails_with(Exit::Failure)
        .json();
    assert_eq!(doc["matrix"]["checked"], "fingerprint");
    let mut fails: BTreeMap<String, String> = BTreeMap::new();
    for row in doc["matrix"]["plugins"].as_array().unwrap() {
        let Some(plugin) = row["plugin"].as_str().unwrap().strip_prefix("host-volume/") else {
            continue;
        };
        for cell in row["releases"].as_array().unwrap() {
            if cell["status"] == "fails" {
                fails.insert(
                    plugin.to_string(),
                    cell["reason"].as_str().unwrap().to_string(),
                );
            } else {
                assert_eq!(cell["status"], "works", "{plugin}: {cell}");
            }
        }
    }
    agree("matrix", &fails, &want);
    let human = plugctl(&s)
        .args(["validate", "--nomad-version", "1.10,2.0.1"])
        .fails_with(Exit::Failure)
        .stdout();
    let good = human
        .lines()
        .find(|l| l.starts_with("host-volume/good "))
        .unwrap();
    assert_eq!(
        good.split_whitespace().collect::<Vec<_>>(),
        ["host-volume/good", "fingerprint", "ok", "fingerprint", "ok"],
        "{human}"
    );

    // 6. test: fails for exactly those, saying the same; passes the good one.
    let tmp = s.root().join("tmp");
    make_dir(&tmp);
    let mut failing: BTreeMap<String, String> = BTreeMap::new();
    for name in ["good", "slow", "junk", "noexec", "gone", "fifo"] {
        // The good one passes; every other fails, with its reasons.
        let verdict = if name == "good" {
            Exit::Success
        } else {
            Exit::Failure
        };
        let doc = plugctl(&s)
            .env("TMPDIR", &tmp)
            .args(["--json", "test", "host-volume", name])
            .exits(verdict)
            .json();
        if verdict == Exit::Failure {
            let messages: Vec<&str> = doc["findings"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|f| f["severity"] == "error")
                .map(|f| f["message"].as_str().unwrap())
                .collect();
            failing.insert(name.to_string(), messages.join("\n"));
        }
    }
    agree("test", &failing, &want);
}

#[test]
fn forget_clears_a_plugin_removed_on_purpose() {
    let s = Rig::new();
    s.hv_ok("keep", "1.0.0");
    let old = s.hv_ok("old", "1.0.0");
    plugctl(&s).args(["fingerprint"]).succeeds();

    // Still there: refused, nothing changes.
    plugctl(&s)
        .args(["plugin", "forget", "host-volume", "old"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!("is still there ({})", old.display()));
    fs::remove_file(&old).unwrap();
    let ran = plugctl(&s).args(["fingerprint"]).fails_with(Exit::Failure);
    assert!(
        ran.stdout()
            .contains("`plugctl plugin forget host-volume old`")
    );
    let metrics = plugctl(&s).args(["metrics"]).succeeds().stdout();
    assert!(
        metrics.contains(r#"name="old",version="1.0.0"} 0"#),
        "{metrics}"
    );

    // Unknown, built in, or a plugin name that is not one: refused.
    plugctl(&s)
        .args(["plugin", "forget", "host-volume", "never"])
        .fails_with(Exit::NotFound)
        .stderr_has("host-volume/never");
    plugctl(&s)
        .args(["plugin", "forget", "host-volume", "mkdir"])
        .fails_with(Exit::Usage)
        .stderr_has("built into Nomad");
    plugctl(&s)
        .args(["plugin", "forget", "host-volume", "../x"])
        .fails_with(Exit::Usage);
    // All or nothing: one refused name forgets none.
    plugctl(&s)
        .args(["plugin", "forget", "host-volume", "old", "keep"])
        .fails_with(Exit::Usage)
        .stderr_has("\"keep\" is still there");

    let doc = plugctl(&s)
        .args(["--json", "plugin", "forget", "host-volume", "old"])
        .succeeds()
        .json();
    assert_eq!(doc["forgotten"][0]["name"], "old");
    let seq = doc["forgotten"][0]["seq"].as_u64().unwrap();
    let events = plugctl(&s).args(["--json", "events"]).succeeds().stdout();
    let last: Value = serde_json::from_str(events.lines().last().unwrap()).unwrap();
    assert_eq!(last["kind"], "forgotten");
    assert_eq!(last["name"], "old");
    assert_eq!(last["seq"], seq);

    // Both alerts clear: healthy again, and no series for it any more.
    plugctl(&s).args(["fingerprint"]).succeeds();
    let metrics = plugctl(&s).args(["metrics"]).succeeds().stdout();
    assert!(!metrics.contains("name=\"old\""), "{metrics}");
    let list = plugctl(&s).args(["plugin", "list"]).succeeds().stdout();
    assert!(!list.contains(" old "), "{list}");
}

#[test]
fn a_file_plugctl_cannot_use_is_one_row_and_stops_nothing() {
    use std::os::unix::ffi::OsStrExt;
    let s = Rig::new();
    s.hv_ok("fine", "1.0.0");
    let dir = s.plugins.join("host-volume");
    let raw = dir.join(std::ffi::OsStr::from_bytes(b"caf\xe9"));
    fs::copy(dir.join("fine"), &raw).unwrap();
    nix::unistd::mkfifo(
        &dir.join("pipe"),
        nix::sys::stat::Mode::from_bits_truncate(0o644),
    )
    .unwrap();
    let ran = plugctl(&s)
        .args(["--json", "fingerprint"])
        .fails_with(Exit::Failure);
    let doc = ran.json();
    assert_eq!(row(&doc, "host-volume", "fine")["healthy"], true);
    let bad = row(&doc, "host-volume", r"caf\xe9");
    assert_eq!(bad["healthy"], false);
    assert!(
        bad["error"].as_str().unwrap().contains("not valid UTF-8"),
        "{bad}"
    );
    let pipe = row(&doc, "host-volume", "pipe");
    assert!(
        pipe["error"]
            .as_str()
            .unwrap()
            .contains("not a regular file: a FIFO"),
        "{pipe}"
    );
    // The table shows the name by its bytes, as `{:?}` does; the others were recorded.
    let ran = plugctl(&s).args(["fingerprint"]).fails_with(Exit::Failure);
    let table = ran.stdout();
    assert!(table.contains(r"caf\xE9"), "{table}");
    // And the message that names the unhealthy ones says it alike, escaped
    // once (it was `caf\\xe9`, the escaped name escaped again).
    let err = ran.stderr();
    assert!(
        err.contains(r"host-volume/caf\xE9") && !err.contains(r"caf\\"),
        "{err}"
    );
    assert!(!table.contains('\u{fffd}'), "{table}");
    let list = plugctl(&s)
        .args(["--json", "plugin", "list"])
        .succeeds()
        .json();
    let names: Vec<&str> = list["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"fine") && names.contains(&"pipe"),
        "{names:?}"
    );
    assert!(!names.iter().any(|n| n.starts_with("caf")), "{names:?}");
    // The JSON row carries the path escaped too, not a U+FFFD.
    let bad = row(&doc, "host-volume", r"caf\xe9");
    assert!(
        bad["path"].as_str().unwrap().ends_with(r"/caf\xe9"),
        "{bad}"
    );
}

/// The HEALTH and REASON cells of each row of a plugin table, by name
/// (columns found by their headings; REASON is the last).
fn health_and_reason(table: &str) -> BTreeMap<String, (String, String)> {
    let mut lines = table.lines();
    let head = lines.next().unwrap();
    let at = |h: &str| head.find(h).unwrap_or_else(|| panic!("no {h}: {head}"));
    let (name, health, reason) = (at("NAME"), at("HEALTH"), at("REASON"));
    let cell = |l: &str, from: usize| {
        l.get(from..)
            .unwrap_or("")
            .split("  ")
            .next()
            .unwrap()
            .trim()
            .to_string()
    };
    lines
        .map(|l| {
            let why = l.get(reason..).unwrap_or("").trim().to_string();
            (cell(l, name), (cell(l, health), why))
        })
        .collect()
}

#[test]
fn built_ins_read_the_same_in_every_table() {
    let s = Rig::new();
    s.secrets_ok("env-file");
    let fingerprint = health_and_reason(&plugctl(&s).args(["fingerprint"]).succeeds().stdout());
    let list = health_and_reason(&plugctl(&s).args(["plugin", "list"]).succeeds().stdout());
    for name in ["mkdir", "nomad", "vault", "env-file"] {
        assert_eq!(fingerprint[name], list[name], "{name}");
    }
    assert_eq!(fingerprint["mkdir"], ("built-in".into(), String::new()));
    assert_eq!(
        fingerprint["vault"],
        (
            "built-in".into(),
            "built-in to Nomad; needs a Nomad cluster to run".into()
        )
    );
    assert_eq!(fingerprint["env-file"].0, "healthy");
    let show = health_and_reason(
        &plugctl(&s)
            .args(["plugin", "show", "secrets", "nomad"])
            .succeeds()
            .stdout(),
    );
    assert_eq!(show["nomad"], fingerprint["nomad"]);
    // In JSON too: `plugin show` carries the note `fingerprint` has.
    let doc = plugctl(&s)
        .args(["--json", "plugin", "show", "secrets", "vault"])
        .succeeds()
        .json();
    let fp = plugctl(&s)
        .args(["--json", "fingerprint"])
        .succeeds()
        .json();
    assert_eq!(
        doc["instances"][0]["note"],
        row(&fp, "secrets", "vault")["note"]
    );
    assert!(doc["instances"][0]["note"].is_string(), "{doc}");
}

// ---------------------------------------------------------------------------
// The conformance suite fails what Nomad would not accept.
// ---------------------------------------------------------------------------

const MAKE: &str = r#"mkdir -p "$v" && printf '{"path": "%s", "bytes": 1048576}\n' "$v""#;
const REMOVE: &str = r#"rm -rf "$DHV_CREATED_PATH""#;

/// `test --json` and `--format junit` of one plugin: exit 1, and exactly
/// one failed check, the one named, whose message says `words`.
#[track_caller]
fn one_failure(s: &Rig, name: &str, check: &str, words: &str) -> Value {
    let tmp = s.root().join("tmp");
    make_dir(&tmp);
    let doc = plugctl(s)
        .env("TMPDIR", &tmp)
        .args(["--json", "test", "host-volume", name])
        .fails_with(Exit::Failure)
        .json();
    let failed: Vec<&str> = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["outcome"] == "failed")
        .map(|c| c["check"].as_str().unwrap())
        .collect();
    assert_eq!(failed, [check], "{name}: one bug, one failure: {doc:#}");
    let message = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["check"] == check)
        .unwrap()["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(message.contains(words), "{name}: {message}");
    let xml = plugctl(s)
        .env("TMPDIR", &tmp)
        .args(["test", "host-volume", name, "--format", "junit"])
        .fails_with(Exit::Failure)
        .stdout();
    let junit = roxmltree::Document::parse(&xml).unwrap();
    let failures: Vec<&str> = junit
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .filter_map(|n| n.parent())
        .filter_map(|n| n.attribute("name"))
        .collect();
    assert_eq!(failures, [check], "{xml}");
    // Nothing left in TMPDIR, whatever the plugin did.
    assert_eq!(fs::read_dir(&tmp).unwrap().count(), 0, "{name}");
    doc
}

#[test]
fn a_volume_left_behind_by_delete_fails() {
    let s = Rig::new();
    s.hv_script("sticky", MAKE, "true");
    one_failure(
        &s,
        "sticky",
        "delete.removes",
        "still exists after delete succeeded",
    );
}

#[test]
fn a_create_that_makes_nothing_fails_once() {
    let s = Rig::new();
    s.hv_script(
        "liar",
        r#"printf '{"path": "%s", "bytes": 1048576}\n' "$v""#,
        REMOVE,
    );
    let doc = one_failure(&s, "liar", "create.path", "which does not exist");
    let skipped = |check: &str| {
        doc["checks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["check"] == check && c["outcome"] == "skipped")
    };
    assert!(skipped("delete.removes"), "{doc:#}");
    assert!(skipped("create.hostile-names"), "{doc:#}");
}

#[test]
fn a_path_outside_the_volumes_dir_fails() {
    let s = Rig::new();
    s.hv_script(
        "outside",
        r#"o="$DHV_VOLUMES_DIR/../elsewhere-$DHV_VOLUME_ID"; mkdir -p "$o" && printf '{"path": "%s", "bytes": 1048576}\n' "$o""#,
        REMOVE,
    );
    one_failure(
        &s,
        "outside",
        "create.path",
        "outside the volumes directory",
    );
}

#[test]
fn a_volume_that_is_a_symlink_out_of_the_volumes_dir_fails() {
    let s = Rig::new();
    s.hv_script(
        "linker",
        r#"t="$DHV_VOLUMES_DIR/../../target-$DHV_VOLUME_ID"; mkdir -p "$t" && ln -sfn "$t" "$v" && printf '{"path": "%s", "bytes": 1048576}\n' "$v""#,
        REMOVE,
    );
    one_failure(&s, "linker", "create.path", "a symlink out of it");
}

#[test]
fn a_delete_that_removes_the_scratch_dir_fails_and_stops_the_suite() {
    let s = Rig::new();
    // (rm refuses a path that ends in "..": the directory by its name.)
    s.hv_script(
        "wrecker",
        MAKE,
        r#"rm -rf "$(dirname "$(dirname "$DHV_VOLUMES_DIR")")""#,
    );
    let doc = one_failure(&s, "wrecker", "delete.confined", "scratch directory");
    for check in [
        "create.parallel",
        "create.hostile-names",
        "delete.never-created",
    ] {
        let c = doc["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["check"] == check)
            .unwrap();
        assert_eq!(c["outcome"], "skipped", "{c}");
    }
    s.hv_script("wiper", MAKE, r#"rm -rf "$DHV_VOLUMES_DIR""#);
    one_failure(&s, "wiper", "delete.confined", "the volumes directory");
}

#[test]
fn a_fingerprint_over_the_budget_fails_and_the_rest_is_skipped() {
    let s = Rig::new();
    s.plugin(
        "host-volume",
        "sluggish",
        r#"[ "$1" = fingerprint ] && /bin/sleep 1.2; echo '{"version": "1.0.0"}'"#,
    );
    let doc = one_failure(&s, "sluggish", "fingerprint.slow", "too slow for Nomad: 1.");
    let create = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "create.path")
        .unwrap();
    assert_eq!(create["outcome"], "skipped", "{create}");
    // The user's --timeout is the budget: then it passes that check.
    let tmp = s.root().join("tmp");
    let doc = plugctl(&s)
        .env("TMPDIR", &tmp)
        .args([
            "--json",
            "test",
            "host-volume",
            "sluggish",
            "--timeout",
            "5s",
        ])
        .any_exit()
        .json();
    let slow = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "fingerprint.slow")
        .unwrap();
    assert_eq!(slow["outcome"], "passed", "{doc:#}");
}

#[test]
fn strict_turns_style_warnings_into_failures() {
    let s = Rig::new();
    // The bundled dir plugin reports no size: a warning (create.bytes).
    let dir = fs::read_to_string(examples().join("host-volume/dir")).unwrap();
    s.file("host-volume", "dir", &dir, 0o755);
    let tmp = s.root().join("tmp");
    make_dir(&tmp);
    let doc = plugctl(&s)
        .env("TMPDIR", &tmp)
        .args(["--json", "test", "host-volume", "dir"])
        .succeeds()
        .json();
    assert_eq!(doc["ok"], true);
    let doc = plugctl(&s)
        .env("TMPDIR", &tmp)
        .args(["--json", "test", "host-volume", "dir", "--strict"])
        .fails_with(Exit::Failure)
        .stderr_has("--strict: warnings fail too")
        .json();
    assert_eq!(doc["ok"], false);
    let xml = plugctl(&s)
        .env("TMPDIR", &tmp)
        .args([
            "test",
            "host-volume",
            "dir",
            "--strict",
            "--format",
            "junit",
        ])
        .fails_with(Exit::Failure)
        .stdout();
    assert!(xml.contains("<failure"), "{xml}");
}

/// A family directory of plugctl's own (not one Nomad knows) removed whole:
/// its plugins are deleted too, not silently dropped from the table.
#[test]
fn a_family_directory_removed_whole_leaves_its_plugins_deleted() {
    let s = Rig::new();
    s.plugin(
        "example-family",
        "hello",
        r#"echo '{"type": "example-family", "version": "0.1.0"}'"#,
    );
    plugctl(&s).args(["fingerprint"]).succeeds();
    fs::remove_dir_all(s.plugins.join("example-family")).unwrap();
    let doc = plugctl(&s)
        .args(["--json", "fingerprint"])
        .fails_with(Exit::Failure)
        .stderr_has("1 of 4 plugins unhealthy: example-family/hello")
        .json();
    let hello = row(&doc, "example-family", "hello");
    assert!(
        hello["error"].as_str().unwrap().starts_with("deleted: "),
        "{hello}"
    );
}

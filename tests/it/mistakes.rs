//! Messages that find the real mistake (issue 33 §6), through the real
//! binary: a secrets answer with `results` for `result`, a create answer
//! with no `path`, a plugin made by `init` here while plugctl looked
//! elsewhere, a restore that changed nothing, and the events counter
//! named for what it counts.

use crate::common::*;

/// A secrets plugin whose fetch prints `answer`.
fn fetching(s: &Rig, name: &str, answer: &str) {
    s.plugin(
        "secrets",
        name,
        &format!(
            "case \"$1\" in\nfingerprint) echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' ;;\n\
             fetch) echo '{answer}' ;;\nesac"
        ),
    );
}

#[test]
fn a_fetch_answered_with_results_says_it_gave_no_key_and_why() {
    let s = Rig::new();
    fetching(&s, "plural", r#"{"results": {"DB_PASS": "s3cret"}}"#);
    // fetch: nothing on stdout (0 keys), why on stderr, exit 0 as Nomad.
    let out = plugctl(&s)
        .args(["secret", "fetch", "plural", "app/db"])
        .succeeds()
        .stdout_empty()
        .stderr_has(
            "plugctl: warning: secrets plugin \"plural\", path \"app/db\": fetch returned 0 keys: \
             its answer has no \"result\", and Nomad ignores its key \"results\"",
        );
    // The value never shows, not even masked in a key list.
    out.stderr_lacks("s3cret");
    // test: fetch.result fails, naming the key.
    plugctl(&s)
        .args(["test", "secrets", "plural", "--path", "app/db"])
        .fails_with(Exit::Failure)
        .stdout_has("FAIL  fetch.result")
        .stdout_has("its answer has no \"result\", and Nomad ignores its key \"results\"")
        .stdout_lacks("s3cret");
    // Go matches keys in any case: "Result" is the result.
    fetching(&s, "capital", r#"{"Result": {"K": "v"}}"#);
    plugctl(&s)
        .args(["secret", "fetch", "capital", "x"])
        .succeeds()
        .stdout_has("K=v")
        .stderr_empty();
    // Keys Nomad ignores beside a result: a warning, and the check warns.
    fetching(&s, "extra", r#"{"result": {"K": "v"}, "ttl": 30}"#);
    plugctl(&s)
        .args(["secret", "fetch", "extra", "x"])
        .succeeds()
        .stdout_has("K=v")
        .stderr_has("Nomad ignores its key \"ttl\" of the answer");
    plugctl(&s)
        .args(["test", "secrets", "extra", "--path", "x"])
        .succeeds()
        .stdout_has("WARN  fetch.result");
    // An empty result is said too, and is no failure.
    fetching(&s, "empty", r#"{"result": {}}"#);
    plugctl(&s)
        .args(["secret", "fetch", "empty", "x"])
        .succeeds()
        .stderr_has("fetch returned 0 keys: its answer's \"result\" is empty");
    // A key that is a value is masked where it is named.
    fetching(&s, "sly", r#"{"s3cret": 1, "x": "s3cret"}"#);
    plugctl(&s)
        .args(["secret", "fetch", "sly", "x"])
        .succeeds()
        .stderr_lacks("s3cret")
        .stderr_has("fetch returned 0 keys");
}

#[test]
fn a_create_answer_without_path_names_the_keys_it_had_and_its_dependents_are_skipped() {
    let s = Rig::new();
    s.hv_script(
        "vp",
        r#"mkdir -p "$v" && printf '{"volume_path": "%s", "bytes": 5}' "$v""#,
        r#"rm -rf "$v""#,
    );
    plugctl(&s)
        .args(["volume", "create", "--plugin", "vp", "--name", "x"])
        .fails_with(Exit::Failure)
        .stderr_has("bad output: no `path` in create's answer; it had `volume_path`, `bytes`")
        .stderr_lacks("path is empty");
    let out = plugctl(&s)
        .args(["test", "host-volume", "vp"])
        .fails_with(Exit::Failure);
    let report = out.stdout();
    let line = |check: &str| -> String {
        report
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(check))
            .unwrap_or_else(|| panic!("no {check}: {report}"))
            .to_string()
    };
    assert!(line("create.path").starts_with("FAIL"), "{report}");
    assert!(
        report.contains("error: no `path` in create's answer; it had `volume_path`, `bytes`: Nomad reads only `path`"),
        "{report}"
    );
    // Everything that needs the path is skipped with that reason, once.
    for check in [
        "create.idempotent",
        "delete.idempotent",
        "delete.removes",
        "create.hostile-names",
        "create.parallel",
    ] {
        let l = line(check);
        assert!(l.starts_with("SKIP"), "{l}");
        assert!(
            l.ends_with(
                "no `path` in create's answer; it had `volume_path`, `bytes` (see create.path)"
            ),
            "{l}"
        );
    }
    assert_eq!(
        report.lines().filter(|l| l.starts_with("FAIL ")).count(),
        1,
        "one failure, not one a dependent check: {report}"
    );
}

#[test]
fn validate_and_test_point_at_a_plugin_init_made_here() {
    let s = Rig::new();
    let here = s.root().join("work");
    make_dir(&here);
    // No plugin directory named: the user's default, which is empty.
    let run = || {
        plugctl(&s)
            .env_remove("PLUGCTL_PLUGIN_DIR")
            .env("XDG_CONFIG_HOME", s.root().join("config"))
            .current_dir(&here)
    };
    run().args(["init", "host-volume", "my-plugin"]).succeeds();
    run()
        .args(["validate"])
        .fails_with(Exit::Usage)
        .stderr_has("; ./host-volume/my-plugin exists here: pass --plugin-dir .");
    run()
        .args(["test", "host-volume", "my-plugin"])
        .fails_with(Exit::NotFound)
        .stderr_has("plugin not found: host-volume/my-plugin")
        .stderr_has("; ./host-volume/my-plugin exists here: pass --plugin-dir .");
    // A node's plugin directory, from the agent's configuration, that is
    // empty: validate finds nothing, and says where the plugin is.
    let empty = s.root().join("node-plugins");
    make_dir(&empty);
    let agent = s.root().join("agent.hcl");
    std::fs::write(
        &agent,
        format!(
            "client {{\n  common_plugin_dir = \"{}\"\n}}\n",
            empty.display()
        ),
    )
    .unwrap();
    run()
        .env("PLUGCTL_NOMAD_CONFIG", &agent)
        .args(["validate"])
        .succeeds()
        .stderr_has("plugctl: warning: no plugin in ")
        .stderr_has("; ./host-volume/my-plugin exists here: pass --plugin-dir .");
    // Followed, it works; named, the plugin directory is never second-guessed.
    run()
        .args(["--plugin-dir", ".", "validate"])
        .succeeds()
        .stderr_lacks("exists here");
    plugctl(&s)
        .current_dir(&here)
        .args(["test", "host-volume", "my-plugin"])
        .fails_with(Exit::NotFound)
        .stderr_lacks("exists here");
}

#[test]
fn a_restore_that_changed_nothing_says_unchanged() {
    let s = Rig::new();
    // bytes from a file the test changes: the same, then another size.
    let size = s.out_file("size");
    std::fs::write(&size, "4096").unwrap();
    s.hv_script(
        "sized",
        &format!(
            r#"mkdir -p "$v" && printf '{{"path": "%s", "bytes": %s}}' "$v" "$(cat '{}')""#,
            size.display()
        ),
        r#"rm -rf "$v""#,
    );
    create_volume(&s, &["--plugin", "sized", "--name", "a"]);
    let action = |s: &Rig| -> String {
        plugctl(s)
            .args(["--json", "volume", "restore"])
            .succeeds()
            .json()["results"][0]["action"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(action(&s), "unchanged");
    plugctl(&s)
        .args(["volume", "restore"])
        .succeeds()
        .stdout_has("  unchanged  ");
    std::fs::write(&size, "8192").unwrap();
    assert_eq!(action(&s), "updated");
    assert_eq!(action(&s), "unchanged");
}

#[test]
fn the_events_counter_is_named_for_what_it_counts() {
    let s = Rig::new();
    s.hv_ok("dir", "1.0.0");
    // Two fingerprints, one event: a fingerprint is an event only when a
    // plugin's health or version changes.
    plugctl(&s).args(["fingerprint"]).succeeds();
    plugctl(&s).args(["fingerprint"]).succeeds();
    let text = plugctl(&s).args(["metrics"]).succeeds().stdout();
    assert!(!text.contains("plugctl_operations"), "{text}");
    assert!(
        text.contains("# TYPE plugctl_recorded_events_total counter\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "plugctl_recorded_events_total{family=\"host-volume\",kind=\"fingerprint\",result=\"ok\"} 2\n"
        ),
        "dir and mkdir, once each: {text}"
    );
}

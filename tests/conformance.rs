//! `plugctl test` through the real binary: well-behaved plugins pass (the
//! bundled examples among them), broken ones fail on the right check, and
//! nothing is left behind in the temporary directory either way.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("plugins-examples")
}

/// A sandbox with its own TMPDIR for plugctl, to see what the suite leaves.
struct Env {
    s: Sandbox,
    tmp: PathBuf,
}

impl Env {
    fn new() -> Env {
        let s = Sandbox::new();
        let tmp = s.root().join("tmp");
        fs::create_dir(&tmp).unwrap();
        Env { s, tmp }
    }

    fn cmd(&self) -> assert_cmd::Command {
        let mut c = self.s.cmd();
        c.env("TMPDIR", &self.tmp);
        c
    }

    /// `plugctl --json test ...`, parsed.
    fn test(&self, args: &[&str]) -> (std::process::Output, Value) {
        self.test_in(None, args)
    }

    fn test_in(&self, plugin_dir: Option<&Path>, args: &[&str]) -> (std::process::Output, Value) {
        let mut c = self.cmd();
        if let Some(d) = plugin_dir {
            c.env("PLUGCTL_PLUGIN_DIR", d);
        }
        let out = c.arg("--json").arg("test").args(args).output().unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not one JSON document ({e}):\n{}\nstderr:\n{}",
                stdout(&out),
                stderr(&out)
            )
        });
        assert_eq!(v["schema_version"], 1);
        (out, v)
    }

    /// What plugctl left in its TMPDIR.
    fn leftovers(&self) -> Vec<String> {
        fs::read_dir(&self.tmp)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    }
}

/// The outcome of one check (each check runs once per `test`).
#[track_caller]
fn outcome(doc: &Value, check: &str) -> String {
    doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == check)
        .unwrap_or_else(|| panic!("{check} not run: {doc:#}"))["outcome"]
        .as_str()
        .unwrap()
        .to_string()
}

#[track_caller]
fn message(doc: &Value, check: &str) -> String {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["check"] == check)
        .map(|f| f["message"].as_str().unwrap().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[track_caller]
fn all_pass_but(doc: &Value, allowed: &[(&str, &str)]) {
    for c in doc["checks"].as_array().unwrap() {
        let check = c["check"].as_str().unwrap();
        let got = c["outcome"].as_str().unwrap();
        let want = allowed
            .iter()
            .find(|(n, _)| *n == check)
            .map_or("passed", |(_, o)| *o);
        assert_eq!(got, want, "{check}: {c}\n{doc:#}");
    }
}

// ---------------------------------------------------------------------------
// secrets
// ---------------------------------------------------------------------------

fn store(e: &Env) -> PathBuf {
    let store = e.s.root().join("store");
    fs::create_dir_all(store.join("app")).unwrap();
    fs::write(store.join("app/db.env"), "USER=admin\nPASSWORD=s3cr\"et\n").unwrap();
    store
}

#[test]
fn secrets_example_env_file_passes() {
    let e = Env::new();
    let store = store(&e);
    let env = format!("SECRETS_DIR={}", store.display());
    let (out, doc) = e.test_in(
        Some(&examples()),
        &["secrets", "env-file", "--path", "app/db", "--env", &env],
    );
    assert_eq!(code(&out), 0, "{doc:#}\n{}", stderr(&out));
    assert_eq!(doc["ok"], true);
    all_pass_but(&doc, &[]);
    for check in [
        "fetch.result",
        "fetch.stderr",
        "fetch.missing-path",
        "fingerprint.type",
    ] {
        assert_eq!(outcome(&doc, check), "passed", "{check}");
    }
    assert_eq!(doc["type"], "secrets");
    assert_eq!(doc["name"], "env-file");
    // values never reach the report
    let text = doc.to_string();
    assert!(!text.contains("s3cr"), "{text}");
    assert!(e.leftovers().is_empty(), "{:?}", e.leftovers());

    // without --path the fetch of a real secret is skipped, with the reason
    let (out, doc) = e.test_in(Some(&examples()), &["secrets", "env-file", "--env", &env]);
    assert_eq!(code(&out), 0, "{doc:#}");
    assert_eq!(outcome(&doc, "fetch.result"), "skipped");
    let reason = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "fetch.result")
        .unwrap()["reason"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(reason.contains("--path"), "{reason}");
}

#[test]
fn secrets_plugins_that_break_the_protocol_fail() {
    let e = Env::new();
    // stderr on a successful fetch, and a result for a path that cannot exist
    e.s.plugin(
        "secrets",
        "chatty",
        r#"case "$1" in
fingerprint) echo '{"type": "secrets", "version": "1.0.0"}' ;;
fetch) echo "fetching $2" >&2; echo '{"result": {"K": "v"}}' ;;
esac"#,
    );
    let (out, doc) = e.test(&["secrets", "chatty", "--path", "any"]);
    assert_eq!(code(&out), 1, "{doc:#}");
    assert_eq!(doc["ok"], false);
    assert_eq!(outcome(&doc, "fetch.result"), "passed");
    assert_eq!(outcome(&doc, "fetch.stderr"), "failed");
    assert_eq!(outcome(&doc, "fetch.missing-path"), "failed");
    assert!(message(&doc, "fetch.missing-path").contains("cannot exist"));
    assert!(
        stderr(&out).contains("conformance checks failed"),
        "{}",
        stderr(&out)
    );

    // a missing path reported by a non-zero exit: works, but Nomad loses the
    // message (a warning, the suite still passes)
    e.s.plugin(
        "secrets",
        "exits",
        r#"case "$1" in
fingerprint) echo '{"type": "secrets", "version": "1.0.0"}' ;;
fetch) [ "$2" = good ] && echo '{"result": {}}' && exit 0
       echo '{"error": "no such secret"}'; exit 1 ;;
esac"#,
    );
    let (out, doc) = e.test(&["secrets", "exits", "--path", "good"]);
    assert_eq!(code(&out), 0, "{doc:#}");
    assert_eq!(outcome(&doc, "fetch.missing-path"), "warned");
    assert!(message(&doc, "fetch.missing-path").contains("discards stdout"));

    // a fingerprint with the wrong type: nothing else is run
    e.s.plugin(
        "secrets",
        "wrong-type",
        r#"echo '{"type": "secret", "version": "1.0.0"}'"#,
    );
    let (out, doc) = e.test(&["secrets", "wrong-type", "--path", "x"]);
    assert_eq!(code(&out), 1);
    assert_eq!(outcome(&doc, "fingerprint.type"), "failed");
    assert_eq!(outcome(&doc, "fetch.result"), "skipped");
    assert!(e.leftovers().is_empty());
}

#[test]
fn unknown_plugins_and_families() {
    let e = Env::new();
    let out = e.cmd().args(["test", "secrets", "nope"]).output().unwrap();
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    let out = e
        .cmd()
        .args(["test", "host-volume", "nope"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    let out = e.cmd().args(["test", "other", "x"]).output().unwrap();
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("no conformance suite"));

    // a file Nomad would not run fails the suite with the reason
    e.s.file("secrets", "noexec", "#!/bin/sh\n", 0o644);
    let (out, doc) = e.test(&["secrets", "noexec"]);
    assert_eq!(code(&out), 1);
    assert!(
        message(&doc, "suite.runnable").contains("execute bit"),
        "{doc:#}"
    );
}

//! Where this round's measurements found plugctl and a Nomad node apart,
//! through the real binary: from 2.0.5 Nomad fetches a task's secrets a
//! second time, so `test` checks that a second fetch answers as the first;
//! a `secrets` path that is a file leaves the built-in providers listed,
//! with a warning, as Nomad's fingerprint does.

use std::fs;

use crate::common::*;
use serde_json::Value;

#[track_caller]
fn check<'d>(doc: &'d Value, name: &str) -> &'d Value {
    doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == name)
        .unwrap_or_else(|| panic!("{name} not run: {doc:#}"))
}

#[track_caller]
fn finding(doc: &Value, name: &str) -> String {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["check"] == name)
        .map(|f| f["message"].as_str().unwrap().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A secrets plugin that counts its fetches of `app/db` in `$STATE/n` and
/// answers the second one as `second` says.
fn counting(s: &Rig, name: &str, second: &str) {
    s.plugin(
        "secrets",
        name,
        &format!(
            r#"case "$1" in
fingerprint) echo '{{"type": "secrets", "version": "1.0.0"}}' ;;
fetch) [ "$2" = app/db ] || {{ echo '{{"error": "no such secret"}}'; exit 0; }}
       n=$(cat "$STATE/n" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "$STATE/n"
       if [ $n -eq 1 ]; then echo '{{"result": {{"USER": "admin", "PASSWORD": "first-s3cret"}}}}'
       else {second}
       fi ;;
esac"#
        ),
    );
}

fn run_test(s: &Rig, name: &str, release: Option<&str>) -> (Value, String) {
    let state = s
        .root()
        .join(format!("state-{name}-{}", release.unwrap_or("default")));
    make_dir(&state);
    let mut args = vec!["--json".to_string()];
    if let Some(r) = release {
        args.extend(["--nomad-version".into(), r.into()]);
    }
    args.extend(
        [
            "test",
            "secrets",
            name,
            "--path",
            "app/db",
            "--env",
            &format!("STATE={}", state.display()),
        ]
        .map(String::from),
    );
    let ran = plugctl(s).args_from(&args).any_exit();
    let doc = ran.json();
    let n = fs::read_to_string(state.join("n")).unwrap_or_default();
    (doc, n.trim().to_string())
}

#[test]
fn from_2_0_5_test_fetches_a_secret_twice_and_the_answers_must_agree() {
    let s = Rig::new();
    // The same answer twice: passes, and the plugin was asked twice.
    counting(
        &s,
        "same",
        r#"echo '{"result": {"USER": "admin", "PASSWORD": "first-s3cret"}}'"#,
    );
    let (doc, calls) = run_test(&s, "same", None);
    assert_eq!(check(&doc, "fetch.again")["outcome"], "passed", "{doc:#}");
    assert_eq!(calls, "2", "2.0.5 fetches twice");
    assert_eq!(doc["ok"], true);

    // Before 2.0.5 Nomad fetches once: skipped, saying so, and one call.
    let (doc, calls) = run_test(&s, "same", Some("2.0.4"));
    let c = check(&doc, "fetch.again");
    assert_eq!(c["outcome"], "skipped", "{doc:#}");
    assert!(
        c["reason"]
            .as_str()
            .unwrap()
            .contains("Nomad 2.0.4 fetches a task's secrets once; from 2.0.5"),
        "{c}"
    );
    assert_eq!(calls, "1");

    // A second fetch that fails: the task would not start again.
    counting(&s, "once", r#"echo '{"error": "token already used"}'"#);
    let (doc, _) = run_test(&s, "once", None);
    assert_eq!(check(&doc, "fetch.result")["outcome"], "passed");
    assert_eq!(check(&doc, "fetch.again")["outcome"], "failed", "{doc:#}");
    let said = finding(&doc, "fetch.again");
    assert!(
        said.contains("failed where the first succeeded") && said.contains("would not start"),
        "{said}"
    );
    assert_eq!(doc["ok"], false);

    // Other keys: a failure naming them.
    counting(&s, "keys", r#"echo '{"result": {"USER": "admin"}}'"#);
    let (doc, _) = run_test(&s, "keys", None);
    assert_eq!(check(&doc, "fetch.again")["outcome"], "failed");
    assert!(
        finding(&doc, "fetch.again").contains(r#"it lacks "PASSWORD""#),
        "{doc:#}"
    );

    // Other values for the same keys: a warning that names the key, never
    // a value of either answer.
    counting(
        &s,
        "rotates",
        r#"echo '{"result": {"USER": "admin", "PASSWORD": "second-s3cret"}}'"#,
    );
    let (doc, _) = run_test(&s, "rotates", None);
    assert_eq!(check(&doc, "fetch.again")["outcome"], "warned", "{doc:#}");
    let said = finding(&doc, "fetch.again");
    assert!(said.contains(r#""PASSWORD""#), "{said}");
    let text = doc.to_string();
    assert!(
        !text.contains("s3cret"),
        "a value reached the report: {text}"
    );
    assert_eq!(doc["ok"], true, "a warning does not fail the suite");
}

/// Nomad's secrets fingerprint reads `<common_plugin_dir>/secrets`; when
/// that is a file it logs a warning and still reports its built-in
/// providers (`nomad`, `vault`). plugctl did the same for a missing
/// directory but stopped every command with exit 2 for a file.
#[test]
fn a_secrets_path_that_is_a_file_leaves_the_built_ins_listed_with_a_warning() {
    let s = Rig::new();
    s.hv_ok("dir", "1.0.0");
    fs::write(s.plugins.join("secrets"), "not a directory\n").unwrap();
    let ran = plugctl(&s).args(["--json", "fingerprint"]).succeeds();
    let doc = ran.json();
    for name in ["nomad", "vault"] {
        assert_eq!(row(&doc, "secrets", name)["healthy"], true, "{doc}");
    }
    assert_eq!(row(&doc, "host-volume", "dir")["healthy"], true);
    ran.stderr_has(&format!(
        "warning: secrets plugin directory {} is not a directory: a Nomad client warns and \
         finds no secrets plugins there; only the built-ins are listed",
        s.plugins.join("secrets").display()
    ));
    // Every view agrees: the table lists the built-ins, and a plugin asked
    // for by name is not found there (exit 3), not a broken layout (2).
    plugctl(&s)
        .args(["plugin", "list", "--type", "secrets"])
        .succeeds()
        .stdout_has("vault");
    plugctl(&s)
        .args(["secret", "fetch", "env-file", "app/db"])
        .fails_with(Exit::NotFound);
    // validate still says what is wrong with the layout.
    let doc = plugctl(&s)
        .args(["--json", "validate"])
        .fails_with(Exit::Failure)
        .json();
    assert!(
        doc.to_string()
            .contains("a Nomad client warns and finds no secrets plugins there"),
        "{doc}"
    );
}

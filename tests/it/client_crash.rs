//! One verdict about a secrets plugin that would stop a Nomad client, in
//! every view: a plugin that writes on stderr while a call succeeds (every
//! release with secrets plugins panics logging it) and a symlink to
//! nothing in `secrets/` (the client refuses to start) are unhealthy in
//! `fingerprint`, `plugin list`, `plugin show` and `metrics`, fail `test`
//! and `validate`, each with the same reason; and what `secret fetch` says
//! of a plugin's stderr counts its bytes exactly.

use std::fs;
use std::os::unix::fs::symlink;

use serde_json::Value;

use crate::common::*;

/// A secrets plugin: its fingerprint, then `extra` (sh) before its fetch
/// answers `{"result": {"K": "v"}}`.
fn secrets(s: &Rig, name: &str, fingerprint_extra: &str, fetch_extra: &str) {
    s.plugin(
        "secrets",
        name,
        &format!(
            "case \"$1\" in\n\
             fingerprint) {fingerprint_extra}\necho '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' ;;\n\
             fetch) {fetch_extra}\necho '{{\"result\": {{\"K\": \"v\"}}}}' ;;\n\
             esac"
        ),
    );
}

/// The record `plugin list --json` shows of one plugin.
fn listed(s: &Rig, name: &str) -> Value {
    let doc = plugctl(s)
        .args(["--json", "plugin", "list"])
        .any_exit()
        .json();
    row(&doc, "secrets", name).clone()
}

/// The `plugctl_plugin_healthy` sample of one plugin.
fn healthy_metric(s: &Rig, name: &str) -> String {
    let text = plugctl(s).arg("metrics").succeeds().stdout();
    let prefix = format!("plugctl_plugin_healthy{{family=\"secrets\",name=\"{name}\",");
    text.lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no healthy sample of {name}:\n{text}"))
        .rsplit(' ')
        .next()
        .unwrap()
        .to_string()
}

/// A `validate`/`test` document's record of one check.
fn check<'a>(doc: &'a Value, plugin: &str, name: &str) -> &'a Value {
    doc["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["plugin"] == plugin && c["check"] == name)
        .unwrap_or_else(|| panic!("no {name} for {plugin} in {doc:#}"))
}

/// The message of a check's finding of this severity.
fn finding(doc: &Value, plugin: &str, name: &str, severity: &str) -> String {
    doc["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["plugin"] == plugin && f["check"] == name && f["severity"] == severity)
        .unwrap_or_else(|| panic!("no {severity} {name} for {plugin} in {doc:#}"))["message"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_secrets_plugin_writing_on_stderr_while_it_succeeds_is_unhealthy_in_every_view() {
    let s = Rig::new();
    secrets(&s, "chatty", "echo 'log line' >&2", "");
    secrets(&s, "quiet", "", "");
    // A failed call's stderr is never logged: Nomad returns first.
    s.plugin("secrets", "fails", "echo 'why it failed' >&2; exit 1");
    let reason = "wrote 9 bytes on stderr while succeeding: a Nomad 2.0.5 client panics \
                  logging it (the secrets plugin's logger is never set, on every release from \
                  1.11.0), at agent start";

    let doc = plugctl(&s)
        .args(["--json", "fingerprint", "--type", "secrets"])
        .fails_with(Exit::Failure)
        .json();
    let chatty = row(&doc, "secrets", "chatty");
    assert_eq!(chatty["healthy"], false, "{chatty}");
    assert!(
        chatty["error"].as_str().unwrap().starts_with(reason),
        "{chatty}"
    );
    assert_eq!(row(&doc, "secrets", "quiet")["healthy"], true);
    let fails = row(&doc, "secrets", "fails");
    assert!(
        !fails["error"].as_str().unwrap().contains("panics"),
        "{fails}"
    );

    // The tables and metrics say what the fingerprint recorded.
    let listed_chatty = listed(&s, "chatty");
    assert_eq!(listed_chatty["healthy"], false);
    assert!(
        listed_chatty["error"].as_str().unwrap().starts_with(reason),
        "{listed_chatty}"
    );
    plugctl(&s)
        .args(["plugin", "show", "secrets", "chatty"])
        .any_exit()
        .stdout_has("unhealthy")
        .stdout_has("client panics logging it");
    assert_eq!(healthy_metric(&s, "chatty"), "0");
    assert_eq!(healthy_metric(&s, "quiet"), "1");
    // A node would not use it: neither does secret fetch.
    plugctl(&s)
        .args(["secret", "fetch", "chatty", "x"])
        .fails_with(Exit::Usage)
        .stdout_empty()
        .stderr_has("is unavailable for fetch: its last fingerprint failed (wrote 9 bytes");

    // validate: an error, in the same words.
    let doc = plugctl(&s)
        .args(["--json", "validate"])
        .fails_with(Exit::Failure)
        .json();
    let m = finding(&doc, "secrets/chatty", "fingerprint.stderr", "error");
    assert!(m.contains(reason), "{m}");
    assert_eq!(
        check(&doc, "secrets/quiet", "fingerprint.stderr")["outcome"],
        "passed"
    );

    // test: a failure.
    let doc = plugctl(&s)
        .args(["--json", "test", "secrets", "chatty", "--path", "x"])
        .fails_with(Exit::Failure)
        .json();
    assert_eq!(
        check(&doc, "secrets/chatty", "fingerprint.stderr")["outcome"],
        "failed"
    );
    let m = finding(&doc, "secrets/chatty", "fingerprint.stderr", "error");
    assert!(m.contains(reason), "{m}");

    // The oldest release with secrets plugins has the bug too.
    let doc = plugctl(&s)
        .args([
            "--json",
            "--nomad-version",
            "1.11.0",
            "fingerprint",
            "--type",
            "secrets",
        ])
        .fails_with(Exit::Failure)
        .json();
    let chatty = row(&doc, "secrets", "chatty");
    assert!(
        chatty["error"]
            .as_str()
            .unwrap()
            .contains("a Nomad 1.11.0 client panics"),
        "{chatty}"
    );
}

#[test]
fn a_fetch_writing_on_stderr_while_it_succeeds_fails_test_and_secret_fetch_says_why() {
    let s = Rig::new();
    secrets(&s, "noisy", "", "echo 'fetched' >&2");
    plugctl(&s)
        .args(["fingerprint", "--type", "secrets"])
        .succeeds();
    let doc = plugctl(&s)
        .args(["--json", "test", "secrets", "noisy", "--path", "x"])
        .fails_with(Exit::Failure)
        .json();
    assert_eq!(
        check(&doc, "secrets/noisy", "fetch.stderr")["outcome"],
        "failed"
    );
    let m = finding(&doc, "secrets/noisy", "fetch.stderr", "error");
    assert!(
        m.contains("wrote 8 bytes on stderr while succeeding: a Nomad 2.0.5 client panics")
            && m.contains("when a task fetches a secret"),
        "{m}"
    );
    assert!(!m.contains("fetched"), "stderr is never quoted: {m}");
    // secret fetch still prints what it fetched, and says why in the same
    // words.
    plugctl(&s)
        .args(["secret", "fetch", "noisy", "x"])
        .succeeds()
        .stdout_has("K=v\n")
        .stderr_has(
            "the plugin wrote 8 bytes on stderr while succeeding: a Nomad 2.0.5 client panics",
        );
}

#[test]
fn a_dangling_symlink_in_secrets_keeps_its_reason_in_every_view() {
    let s = Rig::new();
    secrets(&s, "good", "", "");
    let link = s.plugins.join("secrets/broken");
    symlink(s.root().join("nowhere"), &link).unwrap();
    let reason = format!(
        "{} is a symlink to {}, which does not exist: a Nomad 1.11+ client refuses to start",
        link.display(),
        s.root().join("nowhere").display()
    );
    for round in ["first", "second"] {
        let doc = plugctl(&s)
            .args(["--json", "fingerprint"])
            .fails_with(Exit::Failure)
            .json();
        let r = row(&doc, "secrets", "broken");
        assert_eq!(r["healthy"], false, "{round}: {r}");
        assert!(
            r["error"].as_str().unwrap().contains(&reason),
            "{round}: {r}"
        );
        let l = listed(&s, "broken");
        assert_eq!(l["healthy"], false, "{round}: {l}");
        let error = l["error"].as_str().unwrap();
        assert!(error.contains(&reason), "{round}: {l}");
        assert!(!error.contains("deleted"), "{round}: {l}");
        plugctl(&s)
            .args(["plugin", "show", "secrets", "broken"])
            .any_exit()
            .stdout_has("refuses to start")
            .stdout_lacks("deleted");
        assert_eq!(healthy_metric(&s, "broken"), "0");
    }
    // No `gone` event: the link never went.
    assert!(
        !s.event_kinds().iter().any(|k| k == "gone"),
        "{:?}",
        s.event_kinds()
    );
    // Once it is removed, it is deleted.
    fs::remove_file(&link).unwrap();
    let l = listed(&s, "broken");
    assert!(l["error"].as_str().unwrap().starts_with("deleted:"), "{l}");
}

#[test]
fn secret_fetch_counts_every_byte_of_stderr_and_says_when_it_shows_only_the_last() {
    let s = Rig::new();
    // 10 bytes: all of it shown with -v, and no "last N shown".
    secrets(&s, "small", "", "printf '123456789\\n' >&2");
    let out = plugctl(&s)
        .args(["secret", "fetch", "small", "x", "-v"])
        .succeeds()
        .stderr_has("plugin stderr (10 bytes; secret values masked):")
        .stderr_has("123456789")
        .stderr_lacks("shown");
    assert!(
        out.stderr().contains("wrote 10 bytes on stderr"),
        "{}",
        out.stderr()
    );
    plugctl(&s)
        .args(["secret", "fetch", "small", "x"])
        .succeeds()
        .stderr_has("the plugin wrote 10 bytes on stderr while succeeding")
        .stderr_has("-v shows them, values masked");
    // 70,000 bytes: the count is all of them, and only the last 64 KiB are
    // shown, which it says.
    let cap = 64 * 1024;
    secrets(
        &s,
        "big",
        "",
        "/usr/bin/head -c 69999 /dev/zero | /usr/bin/tr '\\0' a >&2; echo >&2",
    );
    plugctl(&s)
        .args(["secret", "fetch", "big", "x", "-v"])
        .succeeds()
        .stderr_has(&format!(
            "plugin stderr (70000 bytes, the last {cap} shown; secret values masked):"
        ))
        .stderr_has("wrote 70000 bytes on stderr");
    // A failed fetch too: its count, and nothing cut from a small one.
    s.plugin(
        "secrets",
        "broken",
        "[ \"$1\" = fingerprint ] && echo '{\"type\": \"secrets\", \"version\": \"1.0.0\"}' && exit 0\n\
         printf 'abcde' >&2; echo '{\"error\": \"no\"}'; exit 3",
    );
    plugctl(&s)
        .args(["secret", "fetch", "broken", "x"])
        .fails_with(Exit::Failure)
        .stderr_has("the plugin wrote 5 bytes on stderr; -v shows them");
    plugctl(&s)
        .args(["secret", "fetch", "broken", "x", "-v"])
        .fails_with(Exit::Failure)
        .stderr_has("plugin stderr (5 bytes; secret values masked):")
        .stderr_lacks("shown;");
}

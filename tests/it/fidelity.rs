//! Nomad fidelity: what plugctl says about a plugin matches what a Nomad
//! node would do with it, per family and per output shape
//! (../shared/spec/nomad-versions.md).

use crate::common::*;

#[test]
fn bad_fingerprints_say_what_nomad_does_per_family() {
    let s = Sandbox::new();
    for (name, output) in [
        ("bare-null", "null"),
        ("empty", "{}"),
        ("no-version", r#"{"type": "secrets"}"#),
    ] {
        s.plugin("secrets", name, &format!("echo '{output}'"));
        s.plugin("host-volume", name, &format!("echo '{output}'"));
    }
    let (_, doc) = s.json(&["fingerprint"]);
    let reason = |family: &str, name: &str| {
        row(&doc, family, name)["error"]
            .as_str()
            .unwrap()
            .to_string()
    };
    // Host volumes: an unset version crashes the client, whatever the shape.
    for name in ["bare-null", "empty", "no-version"] {
        assert!(
            reason("host-volume", name).contains("crashes the client"),
            "{name}: {}",
            reason("host-volume", name)
        );
    }
    // Secrets: a bare null crashes it; a missing type or version is skipped.
    assert!(
        reason("secrets", "bare-null")
            .contains("bare null (on a Nomad node this crashes the client)")
    );
    assert!(
        reason("secrets", "empty").contains("silently ignores"),
        "{}",
        reason("secrets", "empty")
    );
    let nv = reason("secrets", "no-version");
    assert!(
        nv.contains("silently skips") && !nv.contains("crash"),
        "{nv}"
    );
}

/// Nomad never places a volume on a node whose fingerprint did not report
/// its plugin, nor registers a secrets provider whose fingerprint failed:
/// refused before the plugin runs, nothing recorded.
#[test]
fn a_plugin_whose_last_fingerprint_failed_is_unavailable() {
    let s = Sandbox::new();
    let ran = s.out_file("ran");
    let broken = |family: &str| {
        s.plugin(
            family,
            "flaky",
            &format!(
                r#"[ "$1" = fingerprint ] && exit 1; echo "$1" >> '{}'; echo '{{}}'"#,
                ran.display()
            ),
        );
    };
    broken("host-volume");
    broken("secrets");
    plugctl(&s).args(["fingerprint"]).fails_with(Exit::Failure);
    let before = std::fs::read(&s.registry).unwrap();
    plugctl(&s)
        .args(["volume", "create", "--plugin", "flaky", "--name", "v"])
        .fails_with(Exit::Usage)
        .stderr_has("unavailable for create: its last fingerprint failed");
    plugctl(&s)
        .args(["secret", "fetch", "flaky", "app/db"])
        .fails_with(Exit::Usage)
        .stderr_has("unavailable for fetch");
    assert!(!ran.exists(), "an unavailable plugin ran");
    assert_eq!(
        std::fs::read(&s.registry).unwrap(),
        before,
        "something was recorded"
    );
    // Healthy again after a fingerprint: used.
    s.hv_ok("flaky", "1.0.0");
    plugctl(&s)
        .args(["fingerprint", "--type", "host-volume"])
        .succeeds();
    plugctl(&s)
        .args(["volume", "create", "--plugin", "mkdir", "--name", "m"])
        .succeeds();
}

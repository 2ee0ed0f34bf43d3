//! Nomad fidelity: what plugctl says about a plugin matches what a Nomad
//! node would do with it, per family and per output shape
//! (../shared/spec/nomad-versions.md).

mod common;

use common::*;

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

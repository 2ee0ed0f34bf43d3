//! How a Nomad client finds a plugin behind a symlink, release by release,
//! as Nomad's own tests pin it down: from 2.0.1 a host-volume lookup goes
//! through Go's `os.Root` (an absolute link, or one that climbs above the
//! directory on the way, is refused even when it ends inside); secrets
//! lookups are never confined, and a symlink in `secrets/` to something
//! that is not an executable file stops a 1.11+ client from starting.

use std::fs;
use std::os::unix::fs::symlink;

use serde_json::Value;

use crate::common::*;

/// A host-volume plugin `real`, and links to it that stay inside the
/// directory: one relative and direct, one absolute, one that leaves the
/// directory by `..` and comes back.
fn links(s: &Rig) {
    s.hv_ok("real", "1.0.0");
    let dir = s.plugins.join("host-volume");
    symlink("real", dir.join("plain")).unwrap();
    symlink(dir.join("real"), dir.join("absolute")).unwrap();
    symlink("../host-volume/real", dir.join("climbs")).unwrap();
}

fn health(doc: &Value, name: &str) -> (bool, String) {
    let r = row(doc, "host-volume", name);
    (
        r["healthy"] == true,
        r["error"].as_str().unwrap_or_default().to_string(),
    )
}

#[test]
fn from_2_0_1_os_root_refuses_absolute_and_climbing_links() {
    let s = Rig::new();
    links(&s);
    for release in ["2.0.1", "2.0.5"] {
        let doc = plugctl(&s)
            .args(["--json", "--nomad-version", release, "fingerprint"])
            .fails_with(Exit::Failure)
            .json();
        assert!(health(&doc, "plain").0, "{release}");
        let (ok, why) = health(&doc, "absolute");
        assert!(!ok, "{release}");
        assert!(
            why.contains(&format!("Nomad {release} refuses it"))
                && why.contains("os.Root")
                && why.contains("absolute path"),
            "{why}"
        );
        let (ok, why) = health(&doc, "climbs");
        assert!(
            !ok && why.contains("climbs above the plugin directory"),
            "{why}"
        );
    }
    // Before 2.0.1 Nomad follows them, and so does plugctl.
    for release in ["1.10.0", "2.0.0"] {
        let doc = plugctl(&s)
            .args(["--json", "--nomad-version", release, "fingerprint"])
            .succeeds()
            .json();
        for name in ["plain", "absolute", "climbs"] {
            assert!(health(&doc, name).0, "{release} {name}: {doc}");
        }
    }
    // A command that runs one plugin refuses it the same way.
    plugctl(&s)
        .args(["volume", "create", "--plugin", "climbs", "--name", "v"])
        .fails_with(Exit::Failure)
        .stderr_has("host-volume plugin \"climbs\"")
        .stderr_has("os.Root");
}

#[test]
fn validate_judges_os_root_links_per_release() {
    let s = Rig::new();
    links(&s);
    let doc = plugctl(&s)
        .args(["--json", "validate", "--nomad-version", "2.0.0,2.0.1"])
        .fails_with(Exit::Failure)
        .json();
    let finding = |plugin: &str| -> Vec<Value> {
        doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["plugin"] == plugin && f["check"] == "nomad.os-root")
            .cloned()
            .collect()
    };
    for name in ["absolute", "climbs"] {
        let id = format!("host-volume/{name}");
        let f = finding(&id);
        assert_eq!(f.len(), 1, "{doc:#}");
        assert_eq!(f[0]["severity"], "error", "{f:?}");
        assert!(
            f[0]["message"].as_str().unwrap().contains("Nomad 2.0.1"),
            "{f:?}"
        );
        let cells = &doc["matrix"]["plugins"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["plugin"] == id.as_str())
            .unwrap()["releases"];
        let status = |r: &str| {
            cells
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["release"] == r)
                .unwrap()["status"]
                .clone()
        };
        assert_eq!(status("2.0.0"), "works", "{cells}");
        assert_eq!(status("2.0.1"), "fails", "{cells}");
    }
    assert!(finding("host-volume/plain").is_empty());
    // On a release before 2.0.1 it is a warning: it breaks on upgrade.
    let doc = plugctl(&s)
        .args(["--json", "--nomad-version", "2.0.0", "validate"])
        .succeeds()
        .json();
    let f: Vec<&Value> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["check"] == "nomad.os-root")
        .collect();
    assert_eq!(f.len(), 2, "{doc:#}");
    assert!(f.iter().all(|f| f["severity"] == "warning"), "{f:?}");
}

/// An escaping link is refused by plugctl on every release, and the
/// message says so as plugctl's rule; what it says of Nomad depends on
/// the family and the release.
#[test]
fn an_escaping_link_is_plugctls_refusal_and_nomads_is_said_per_family() {
    let s = Rig::new();
    let outside = s.root().join("elsewhere");
    fs::create_dir_all(&outside).unwrap();
    let plugin = outside.join("p");
    fs::write(
        &plugin,
        "#!/bin/sh\necho '{\"type\": \"secrets\", \"version\": \"1.0.0\"}'\n",
    )
    .unwrap();
    fs::set_permissions(&plugin, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    for family in ["host-volume", "secrets"] {
        make_dir(s.plugins.join(family));
        symlink(&plugin, s.plugins.join(family).join("out")).unwrap();
    }
    let message = |release: &str, plugin: &str| -> String {
        let doc = plugctl(&s)
            .args(["--json", "--nomad-version", release, "validate"])
            .fails_with(Exit::Failure)
            .json();
        doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["plugin"] == plugin && f["check"] == "layout.symlink-escapes")
            .unwrap_or_else(|| panic!("{doc:#}"))["message"]
            .as_str()
            .unwrap()
            .to_string()
    };
    for release in ["2.0.0", "2.0.5"] {
        let secrets = message(release, "secrets/out");
        assert!(
            secrets.contains("plugctl refuses it on every release (its own rule)")
                && secrets.contains(&format!("Nomad {release} runs it"))
                && !secrets.contains("refuses it too"),
            "{secrets}"
        );
    }
    let hv = message("2.0.5", "host-volume/out");
    assert!(
        hv.contains("its own rule") && hv.contains("Nomad 2.0.5 refuses it too"),
        "{hv}"
    );
    let hv = message("2.0.0", "host-volume/out");
    assert!(hv.contains("Nomad 2.0.0 runs it"), "{hv}");
    // Running it: the refusal names plugctl's rule and Nomad's behaviour.
    plugctl(&s)
        .args(["secret", "fetch", "out", "app/db"])
        .fails_with(Exit::Failure)
        .stderr_has("its own rule")
        .stderr_has("runs it: only its host-volume lookup is confined");
}

/// Nomad's secrets fingerprinter stats every entry of `secrets/`; a link
/// to a file without an execute bit, to a directory or to nothing makes it
/// fail, and the client does not start.
#[test]
fn a_secrets_link_to_a_non_plugin_stops_the_client() {
    let s = Rig::new();
    s.secrets_ok("good");
    let dir = s.plugins.join("secrets");
    fs::write(dir.join("data.txt"), "not a plugin").unwrap();
    fs::create_dir(dir.join("sub")).unwrap();
    symlink("data.txt", dir.join("to-file")).unwrap();
    symlink("sub", dir.join("to-dir")).unwrap();
    symlink("nowhere", dir.join("to-nothing")).unwrap();
    symlink("good", dir.join("to-plugin")).unwrap();
    let doc = plugctl(&s)
        .args(["--json", "validate"])
        .fails_with(Exit::Failure)
        .json();
    let of = |plugin: &str, check: &str| -> Vec<Value> {
        doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["plugin"] == plugin && f["check"] == check)
            .cloned()
            .collect()
    };
    for name in ["to-file", "to-dir", "to-nothing"] {
        let id = format!("secrets/{name}");
        let f = of(&id, "nomad.secrets-symlink");
        assert_eq!(f.len(), 1, "{id}: {doc:#}");
        assert_eq!(f[0]["severity"], "error");
        let msg = f[0]["message"].as_str().unwrap();
        assert!(
            msg.contains("a Nomad 1.11+ client refuses to start"),
            "{msg}"
        );
        // Nothing calls it harmless.
        for check in ["layout.not-executable", "layout.directory"] {
            assert!(of(&id, check).is_empty(), "{id} {check}: {doc:#}");
        }
    }
    assert!(of("secrets/to-plugin", "nomad.secrets-symlink").is_empty());
    // A plain file without an execute bit is still what Nomad ignores.
    let f = of("secrets/data.txt", "layout.not-executable");
    assert_eq!(f.len(), 1, "{doc:#}");
    assert!(
        f[0]["message"]
            .as_str()
            .unwrap()
            .contains("silently ignores")
    );
}

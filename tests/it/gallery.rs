//! The examples gallery: every plugin under `plugins-examples/` passes
//! `plugctl validate --strict` and its family's conformance suite
//! (`plugctl test`), and each family has an example in POSIX sh and one in
//! Python. Run on a copy of the directory (git keeps only the execute bit,
//! so a checkout's group-write bits depend on the umask: the copies get
//! 0755), in a sandbox.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::common::{Sandbox, code, make_dir, plugctl, stderr};
use serde_json::Value;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("plugins-examples")
}

/// Copies `from` into `to`: directories 0755, plugins (any execute bit) 0755,
/// other files 0644.
fn copy_tree(from: &Path, to: &Path) {
    make_dir(to);
    fs::set_permissions(to, fs::Permissions::from_mode(0o755)).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        let meta = fs::symlink_metadata(&src).unwrap();
        if meta.is_dir() {
            copy_tree(&src, &dst);
        } else {
            fs::copy(&src, &dst).unwrap();
            let mode = if meta.permissions().mode() & 0o111 != 0 {
                0o755
            } else {
                0o644
            };
            fs::set_permissions(&dst, fs::Permissions::from_mode(mode)).unwrap();
        }
    }
}

/// The gallery's plugins, family → names, as a Nomad client would find
/// them (executable files one level down).
fn plugins(root: &Path) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for family in fs::read_dir(root).unwrap() {
        let family = family.unwrap();
        if !family.file_type().unwrap().is_dir() {
            continue;
        }
        for plugin in fs::read_dir(family.path()).unwrap() {
            let plugin = plugin.unwrap();
            let meta = plugin.metadata().unwrap();
            if meta.is_file() && meta.permissions().mode() & 0o111 != 0 {
                out.entry(family.file_name().into_string().unwrap())
                    .or_default()
                    .push(plugin.file_name().into_string().unwrap());
            }
        }
    }
    for names in out.values_mut() {
        names.sort();
    }
    out
}

/// A sandbox whose plugin directory is a copy of the gallery.
fn gallery() -> Sandbox {
    let s = Sandbox::new();
    copy_tree(&examples(), &s.plugins);
    s
}

/// `ok`, and no finding worse than info.
fn assert_clean(what: &str, doc: &Value) {
    assert_eq!(doc["ok"], true, "{what}: {doc:#}");
    let bad: Vec<&Value> = doc["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["severity"] != "info")
        .collect();
    assert!(bad.is_empty(), "{what}: {bad:#?}");
}

#[test]
fn every_family_has_a_sh_and_a_python_example() {
    let root = examples();
    for (family, names) in plugins(&root) {
        let mut langs = Vec::new();
        for name in &names {
            let text = fs::read(root.join(&family).join(name)).unwrap();
            let shebang = text.split(|&b| b == b'\n').next().unwrap();
            let shebang = String::from_utf8_lossy(shebang);
            if shebang == "#!/bin/sh" {
                langs.push("sh");
            } else if shebang.contains("python3") {
                langs.push("python");
            } else {
                panic!("{family}/{name}: unexpected interpreter line {shebang:?}");
            }
        }
        for lang in ["sh", "python"] {
            assert!(
                langs.contains(&lang),
                "{family} has no {lang} example among {names:?}"
            );
        }
    }
}

#[test]
fn the_gallery_passes_validate_strict() {
    let s = gallery();
    let found = plugins(&s.plugins);
    let expected = ["example-family", "host-volume", "secrets"];
    assert_eq!(found.keys().collect::<Vec<_>>(), expected, "{found:?}");

    let dir = s.plugins.display().to_string();
    let doc = plugctl(&s)
        .args(["--json", "validate", "--strict", &dir])
        .succeeds()
        .json();
    assert_clean("validate --strict plugins-examples", &doc);
    // Every plugin was looked at: each has at least one check, and none failed.
    let checks = doc["checks"].as_array().expect("checks");
    for (family, names) in &found {
        for name in names {
            let id = format!("{family}/{name}");
            assert!(
                checks.iter().any(|c| c["plugin"] == id.as_str()),
                "validate did not check {id}: {doc:#}"
            );
        }
    }
}

#[test]
fn host_volume_examples_pass_the_conformance_suite() {
    let s = gallery();
    let names = &plugins(&s.plugins)["host-volume"];
    assert_eq!(names, &["dir", "quota-dir", "sparse-image"]);
    for name in names {
        let (out, doc) = s.json(&["test", "host-volume", name]);
        let what = format!("test host-volume {name}");
        assert_eq!(code(&out), 0, "{what}: {}", stderr(&out));
        assert_eq!(doc["ok"], true, "{what}: {doc:#}");
        let errors: Vec<&Value> = doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["severity"] == "error")
            .collect();
        assert!(errors.is_empty(), "{what}: {errors:#?}");
    }
}

#[test]
fn secrets_examples_pass_the_conformance_suite_with_a_real_secret() {
    let s = gallery();
    let names = &plugins(&s.plugins)["secrets"];
    assert_eq!(names, &["env-file", "json-file"]);

    let dir = s.root().join("store");
    make_dir(dir.join("app"));
    fs::write(dir.join("app/db.env"), "USER=admin\nPASSWORD=s3\"cr\\et\n").unwrap();
    let file = s.root().join("store.json");
    fs::write(
        &file,
        r#"{"app/db": {"USER": "admin", "PASSWORD": "s3\"cr\\et"}}"#,
    )
    .unwrap();
    let env = |plugin: &str| match plugin {
        "env-file" => format!("SECRETS_DIR={}", dir.display()),
        _ => format!("SECRETS_FILE={}", file.display()),
    };

    for name in names {
        let env = env(name);
        // The store is right: fetch returns the secret.
        let doc = plugctl(&s)
            .args(["--json", "secret", "fetch", name, "app/db", "--env", &env])
            .succeeds()
            .json();
        assert_eq!(
            doc["result"],
            serde_json::json!({"USER": "admin", "PASSWORD": "s3\"cr\\et"}),
            "{name}"
        );

        let (out, doc) = s.json(&["test", "secrets", name, "--path", "app/db", "--env", &env]);
        let what = format!("test secrets {name}");
        assert_eq!(code(&out), 0, "{what}: {}", stderr(&out));
        assert_clean(&what, &doc);
        let fetched = doc["checks"]
            .as_array()
            .expect("checks")
            .iter()
            .find(|c| c["check"] == "fetch.result")
            .unwrap_or_else(|| panic!("{what}: no fetch.result check: {doc:#}"));
        assert_eq!(fetched["outcome"], "passed", "{what}: {doc:#}");
    }
}

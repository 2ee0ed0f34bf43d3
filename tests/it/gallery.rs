//! The examples gallery: every plugin under `plugins-examples/` passes
//! `plugctl validate --strict` and its family's conformance suite
//! (`plugctl test`), and each family has an example in POSIX sh and one in
//! Python. Run on a copy of the directory (git keeps only the execute bit,
//! so a checkout's group-write bits depend on the umask: the copies get
//! 0755), in a rig.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::common::*;
use serde_json::Value;

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

/// A rig whose plugin directory is a copy of the gallery.
fn gallery() -> Rig {
    let s = Rig::new();
    copy_tree(&examples(), &s.plugins);
    s
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
    assert_clean_report("validate --strict plugins-examples", &doc);
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
    assert_eq!(names, &["dir", "mkfs-image", "quota-dir", "sparse-image"]);
    for name in names {
        let doc = plugctl(&s)
            .args(["--json", "test", "host-volume", name])
            .succeeds()
            .json();
        let what = format!("test host-volume {name}");
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

        let doc = plugctl(&s)
            .args([
                "--json", "test", "secrets", name, "--path", "app/db", "--env", &env,
            ])
            .succeeds()
            .json();
        let what = format!("test secrets {name}");
        assert_clean_report(&what, &doc);
        let fetched = doc["checks"]
            .as_array()
            .expect("checks")
            .iter()
            .find(|c| c["check"] == "fetch.result")
            .unwrap_or_else(|| panic!("{what}: no fetch.result check: {doc:#}"));
        assert_eq!(fetched["outcome"], "passed", "{what}: {doc:#}");
    }
}

/// `env-file` never reads through a symbolic link under its store: one a
/// user who can write a part of the store planted would read, as root, a
/// file they cannot (the store itself is the caller's choice).
#[test]
fn env_file_refuses_a_symlink_planted_in_its_store() {
    let s = gallery();
    let store = s.root().join("store");
    make_dir(store.join("app"));
    let outside = s.root().join("root-only.env");
    fs::write(&outside, "ROOT_TOKEN=topsecret\n").unwrap();
    std::os::unix::fs::symlink(&outside, store.join("app/steal.env")).unwrap();
    std::os::unix::fs::symlink(s.root(), store.join("up")).unwrap();
    let env = format!("SECRETS_DIR={}", store.display());
    for path in ["app/steal", "up/root-only"] {
        plugctl(&s)
            .args(["secret", "fetch", "env-file", path, "--env", &env])
            .fails_with(Exit::Failure)
            .stderr_has("goes through a symbolic link in the store")
            .stdout_lacks("topsecret");
    }
}

/// `mkfs-image` really writes what it is asked for. The whole suite run
/// against it with `--max-bytes` never has more on disk than the suite
/// promises: no volume above the cap, and no more than six at once (each
/// step's volumes are deleted before the next). Measured two ways: a
/// wrapper around the plugin records `du` after every call it answers, and
/// a thread polls `du` of the scratch directory while the suite runs.
#[test]
fn mkfs_image_passes_the_suite_within_the_disk_cap() {
    const CAP_KIB: u64 = 512;
    // A volume's own file-system metadata (an extent block) may come on top
    // of the bytes the plugin wrote.
    const SLACK_KIB: u64 = 8;
    let s = gallery();
    let tmp = s.root().join("tmp");
    make_dir(&tmp);
    // The plugin under test moves aside; a wrapper takes its name.
    let real = s.root().join("real-mkfs-image");
    fs::rename(s.plugins.join("host-volume/mkfs-image"), &real).unwrap();
    let log = s.root().join("du.log");
    // One printf per line: parallel calls append to the same log.
    let wrapper = format!(
        "#!/bin/sh\n\
         '{real}' \"$@\"\n\
         status=$?\n\
         if [ -d \"${{DHV_VOLUMES_DIR:-}}\" ]; then\n\
         \tt=$(/usr/bin/du -sk \"$DHV_VOLUMES_DIR\" 2>/dev/null) && printf 'total %s\\n' \"$t\" >>'{log}'\n\
         \tfor f in \"$DHV_VOLUMES_DIR\"/*; do\n\
         \t\t[ -f \"$f\" ] && u=$(/usr/bin/du -k \"$f\" 2>/dev/null) && printf 'file %s\\n' \"$u\" >>'{log}'\n\
         \tdone\n\
         fi\n\
         exit $status\n",
        real = real.display(),
        log = log.display()
    );
    s.file("host-volume", "mkfs-image", &wrapper, 0o755);

    let mut suite = plugctl(&s)
        .env("TMPDIR", &tmp)
        .args([
            "--json",
            "test",
            "host-volume",
            "mkfs-image",
            "--max-bytes",
            &format!("{CAP_KIB}KiB"),
            "--check-absurd-capacity",
        ])
        .start();
    // What the scratch directory holds, polled while the suite runs.
    let mut polled = 0;
    while suite.running() {
        if let Some(kib) = du_kib(&tmp) {
            polled = polled.max(kib);
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let doc = suite.succeeds().json();
    assert_eq!(doc["ok"], true, "{doc:#}");
    let outcomes: Vec<(&str, &str)> = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["check"].as_str().unwrap(), c["outcome"].as_str().unwrap()))
        .collect();
    // Every check ran and passed: the refusals too (an unknown parameter,
    // 1 EiB refused before a byte is written).
    assert!(outcomes.iter().all(|(_, o)| *o == "passed"), "{outcomes:?}");
    assert_eq!(outcomes.len(), 17, "{outcomes:?}");

    let log = fs::read_to_string(&log).unwrap();
    let mut files = 0;
    let mut peak_total = 0;
    for line in log.lines() {
        let mut words = line.split_whitespace();
        let (Some(kind), Some(kib)) = (words.next(), words.next()) else {
            continue;
        };
        let kib: u64 = kib.parse().unwrap();
        match kind {
            "file" => {
                files += 1;
                assert!(kib <= CAP_KIB + SLACK_KIB, "a volume of {kib} KiB: {line}");
            }
            _ => peak_total = peak_total.max(kib),
        }
    }
    // The volumes were really allocated: a full cap each.
    assert!(files >= 10, "{log}");
    assert!(
        log.lines()
            .any(|l| l.starts_with("file ")
                && l.split_whitespace().nth(1) == Some(&CAP_KIB.to_string())),
        "{log}"
    );
    let bound = 6 * (CAP_KIB + SLACK_KIB) + 64;
    assert!(
        peak_total <= bound,
        "{peak_total} KiB at once (wrapper):\n{log}"
    );
    assert!(polled <= bound, "{polled} KiB at once (polled)");
    // Nothing is left.
    assert_eq!(fs::read_dir(&tmp).unwrap().count(), 0);
}

/// Disk usage of a tree in KiB, as `du -sk` says (None while it changes
/// under du's feet).
fn du_kib(dir: &Path) -> Option<u64> {
    let out = std::process::Command::new("du")
        .arg("-sk")
        .arg(dir)
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

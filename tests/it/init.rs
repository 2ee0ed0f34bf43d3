//! `plugctl init`: what it writes and where, what it refuses, and that each
//! template (host-volume and secrets, sh and python) is a working plugin:
//! it runs under plugctl as Nomad would run it, and passes
//! `validate --strict` and `test`.

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;

use crate::common::*;

const FAMILIES: [&str; 2] = ["host-volume", "secrets"];
const LANGS: [&str; 2] = ["sh", "python"];

/// plugctl run in the rig's plugin directory, where `init` (without
/// --dir) writes `<TYPE>/<NAME>`.
fn in_plugins(s: &Rig, args: &[&str]) -> expect::Run {
    plugctl(s).current_dir(&s.plugins).args_from(args)
}

/// `plugctl init FAMILY NAME --lang LANG`; returns the path it printed.
fn init(s: &Rig, family: &str, name: &str, lang: &str) -> String {
    let path = in_plugins(s, &["init", family, name, "--lang", lang])
        .succeeds()
        .stdout();
    assert_eq!(
        path,
        format!("{}\n", s.plugins.join(family).join(name).display()),
        "stdout is the path and nothing else"
    );
    path.trim_end().to_string()
}

/// A secrets store for the templates: `<root>/store/app/db.env`.
fn store(s: &Rig) -> String {
    let dir = s.root().join("store");
    make_dir(dir.join("app"));
    fs::write(
        dir.join("app/db.env"),
        "# a comment\nUSER=admin\nPASSWORD=s3\"cr\\et=x\n",
    )
    .unwrap();
    dir.display().to_string()
}

#[test]
fn writes_each_template_mode_0755_with_its_name_in_the_header() {
    let s = Rig::new();
    for family in FAMILIES {
        for lang in LANGS {
            let name = format!("my-{family}-{lang}");
            let path = init(&s, family, &name, lang);
            assert_eq!(mode(Path::new(&path)), 0o755, "{path}");
            let text = fs::read_to_string(&path).unwrap();
            let shebang = text.lines().next().unwrap();
            match (family, lang) {
                (_, "sh") => assert_eq!(shebang, "#!/bin/sh"),
                ("host-volume", _) => assert_eq!(shebang, "#!/usr/bin/env python3"),
                _ => assert_eq!(shebang, "#!/usr/bin/python3 -I"),
            }
            assert!(text.contains(&format!("# Plugin: {name}\n")), "{text}");
            assert!(!text.contains("{{"), "a placeholder is left in {path}");
        }
    }
    let err = in_plugins(&s, &["init", "secrets", "chatty"])
        .any_exit()
        .stderr();
    assert!(
        err.contains("created secrets plugin \"chatty\" (POSIX sh)"),
        "{err}"
    );
    assert!(err.contains("plugctl validate --strict"), "{err}");
    assert!(err.contains("test secrets chatty --path app/db"), "{err}");
    let quiet = plugctl(&s)
        .current_dir(&s.plugins)
        .args(["-q", "init", "secrets", "quiet"])
        .succeeds();
    assert_eq!(stderr(&quiet), "", "-q silences the next steps");
}

#[test]
fn json_names_what_was_made() {
    let s = Rig::new();
    let doc = plugctl(&s)
        .current_dir(&s.plugins)
        .args(["--json", "init", "host-volume", "vol", "--lang", "python"])
        .succeeds()
        .json();
    let path = s.plugins.join("host-volume/vol");
    assert_eq!(doc["path"], path.display().to_string());
    assert_eq!(doc["type"], "host-volume");
    assert_eq!(doc["name"], "vol");
    assert_eq!(doc["lang"], "python");
    // Its sandbox policy went beside the plugins.
    assert_eq!(
        doc["policy_file"],
        s.plugins.join("plugctl.policy.json").display().to_string()
    );
    assert_eq!(doc.as_object().unwrap().len(), 6, "{doc}");
}

#[test]
fn dir_option_creates_missing_directories_relative_to_the_cwd() {
    let s = Rig::new();
    let out = plugctl(&s)
        .args(["init", "secrets", "x", "--dir", "some/where"])
        .succeeds();
    let path = s.root().join("some/where/x");
    assert_eq!(stdout(&out), format!("{}\n", path.display()));
    assert_eq!(mode(&path), 0o755);
    // New directories: 0755 less the umask, never writable by group or others.
    assert_eq!(mode(s.root().join("some/where")) & 0o022, 0);
    // Not a secrets directory: the next steps say where the plugin must go.
    assert!(
        stderr(&out).contains("move it to <plugin-dir>/secrets/"),
        "{}",
        stderr(&out)
    );

    // A host-volume plugin outside a host-volume directory: tested where
    // it is.
    let out = plugctl(&s)
        .args(["init", "host-volume", "y", "--dir", "vols"])
        .succeeds();
    assert!(s.root().join("vols/y").is_file());
    assert!(
        stderr(&out).contains(&format!(
            "--host-volume-plugin-dir {} test host-volume y",
            s.root().join("vols").display()
        )),
        "{}",
        stderr(&out)
    );
}

/// Without --dir, init writes into the current directory (as `cargo
/// init`), never into the plugin directory a node or the environment names;
/// the next steps work as printed, on the file where it is.
#[test]
fn without_dir_init_writes_into_the_current_directory() {
    let s = Rig::new();
    let work = s.root().join("work");
    make_dir(&work);
    let hv = s.root().join("node-hv");
    make_dir(&hv);
    let out = plugctl(&s)
        .current_dir(&work)
        .env("PLUGCTL_HOST_VOLUME_PLUGIN_DIR", &hv)
        .args(["init", "host-volume", "mine"])
        .succeeds();
    let path = work.join("host-volume/mine");
    assert_eq!(stdout(&out), format!("{}\n", path.display()));
    assert_eq!(
        fs::read_dir(&hv).unwrap().count(),
        0,
        "the node's directory is untouched"
    );
    assert!(!s.plugins.join("host-volume/mine").exists());
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "created host-volume plugin \"mine\" (POSIX sh) at {}",
            path.display()
        )),
        "{err}"
    );
    let validate = format!("plugctl validate --strict {}", work.display());
    let test = format!(
        "plugctl --plugin-dir {} test host-volume mine",
        work.display()
    );
    assert!(err.contains(&validate), "{err}");
    assert!(err.contains(&test), "{err}");
    // They work as printed (the node's variable aside).
    let tmp = s.root().join("tmp");
    make_dir(&tmp);
    plugctl(&s)
        .env("TMPDIR", &tmp)
        .args(["validate", "--strict"])
        .arg(&work)
        .succeeds();
    plugctl(&s)
        .env("TMPDIR", &tmp)
        .arg("--plugin-dir")
        .arg(&work)
        .args(["test", "host-volume", "mine"])
        .succeeds();
    // In a directory that is a family's already: the file goes right there.
    let fam = s.root().join("secrets");
    make_dir(&fam);
    let out = plugctl(&s)
        .current_dir(&fam)
        .args(["init", "secrets", "here"])
        .succeeds();
    assert_eq!(stdout(&out), format!("{}\n", fam.join("here").display()));
}

#[test]
fn mode_is_0755_whatever_the_umask() {
    let s = Rig::new();
    plugctl_with_umask(&s, "077")
        .args(["init", "host-volume", "u"])
        .current_dir(&s.plugins)
        .succeeds();
    assert_eq!(mode(s.plugins.join("host-volume/u")), 0o755);
}

#[test]
fn refuses_to_overwrite_anything() {
    let s = Rig::new();
    let existing = s.file("secrets", "taken", "#!/bin/sh\n# mine\n", 0o700);
    let out = plugctl(&s)
        .current_dir(&s.plugins)
        .args(["init", "secrets", "taken"])
        .fails_with(Exit::Usage)
        .stderr_has(&existing.display().to_string())
        .stderr_has("already exists");
    assert_eq!(
        fs::read_to_string(&existing).unwrap(),
        "#!/bin/sh\n# mine\n"
    );
    assert_eq!(mode(&existing), 0o700);
    assert_eq!(stdout(&out), "");

    // Not even a dangling symlink is followed or replaced.
    let target = s.root().join("target");
    symlink(&target, s.plugins.join("secrets/link")).unwrap();
    plugctl(&s)
        .current_dir(&s.plugins)
        .args(["init", "secrets", "link", "--lang", "python"])
        .fails_with(Exit::Usage);
    assert!(!target.exists(), "init wrote through a symlink");

    // Nor a directory.
    fs::create_dir(s.plugins.join("secrets/adir")).unwrap();
    plugctl(&s)
        .current_dir(&s.plugins)
        .args(["init", "secrets", "adir"])
        .fails_with(Exit::Usage);

    plugctl(&s)
        .current_dir(&s.plugins)
        .args(["--json", "init", "secrets", "taken"])
        .fails_with(Exit::Usage)
        .error_kind("usage");
}

#[test]
fn refuses_bad_names_and_unknown_types() {
    let s = Rig::new();
    for name in ["..", ".", "a/b", "../escape", ""] {
        plugctl(&s)
            .current_dir(&s.plugins)
            .args(["init", "host-volume", name])
            .fails_with(Exit::Usage)
            .stderr_has("bad plugin name");
    }
    for family in ["csi", "device", "Secrets", "../secrets"] {
        let out = plugctl(&s)
            .current_dir(&s.plugins)
            .args(["init", family, "p"])
            .fails_with(Exit::Usage);
        let err = stderr(&out);
        assert!(err.contains("unknown plugin type"), "{err}");
        assert!(
            err.contains("host-volume") && err.contains("secrets"),
            "{err}"
        );
    }
    plugctl(&s)
        .current_dir(&s.plugins)
        .args(["init", "secrets", "p", "--lang", "ruby"])
        .fails_with(Exit::Usage);
    assert_eq!(
        fs::read_dir(&s.plugins).unwrap().count(),
        0,
        "nothing was created"
    );
    assert!(!s.root().join("escape").exists());
}

#[test]
fn refuses_the_names_of_nomad_built_ins() {
    let s = Rig::new();
    for (family, name) in [
        ("host-volume", "mkdir"),
        ("secrets", "nomad"),
        ("secrets", "vault"),
    ] {
        let err = in_plugins(&s, &["init", family, name])
            .fails_with(Exit::Usage)
            .stderr();
        assert!(
            err.contains("warning:") && err.contains("built-in"),
            "{err}"
        );
        assert!(err.contains("error: refusing"), "{err}");
        assert!(!s.plugins.join(family).join(name).exists());
    }
    // Built-ins are per family: a secrets plugin may be called mkdir.
    init(&s, "secrets", "mkdir", "sh");
}

#[test]
fn a_hostile_name_stays_in_its_comment() {
    let s = Rig::new();
    // Control characters are refused outright (a name is shown in tables
    // and becomes a file name)...
    for bad in ["x\n$(touch pwned)", "x\ry", "x\u{1b}[2J"] {
        plugctl(&s)
            .current_dir(&s.plugins)
            .args(["init", "host-volume", bad])
            .fails_with(Exit::Usage)
            .stderr_has("control character");
    }
    // ...and what is left that could break a comment line or a quote stays
    // inside the comment.
    let name = "x$(touch pwned)\u{2028}'\"\\";
    for lang in LANGS {
        let dir = s.root().join(lang);
        plugctl(&s)
            .args(["init", "host-volume", name, "--lang", lang, "--dir"])
            .arg(&dir)
            .succeeds();
        let path = dir.join(name);
        let text = fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("# Plugin: x$(touch pwned)\\u{2028}'\"\\\n"),
            "{text}"
        );
        let mut plugin = s.command(&path);
        plugin.env_clear().env("DHV_OPERATION", "fingerprint");
        let run = expect::Run::new(plugin, "plugin")
            .arg("fingerprint")
            .succeeds();
        assert_eq!(stdout(&run), "{\"version\": \"0.1.0\"}\n");
    }
    assert!(!s.root().join("pwned").exists());
}

/// The templates work as plugins today, through the commands that run them.
#[test]
fn templates_create_delete_and_fetch() {
    let s = Rig::new();
    for lang in LANGS {
        let name = format!("hv-{lang}");
        init(&s, "host-volume", &name, lang);
        let v = &create_volume(
            &s,
            &[
                "--plugin",
                &name,
                "--name",
                "../not a path",
                "--capacity-max",
                "1MiB",
            ],
        );
        let id = v["id"].as_str().unwrap();
        assert_eq!(v["path"], s.volumes.join(id).display().to_string());
        assert_eq!(v["bytes"], 1 << 20);
        assert!(s.volumes.join(id).is_dir());
        assert_eq!(mode(s.volumes.join(id)), 0o750);
        // Repeated (what Nomad does on every restart): the same answer.
        let again = plugctl(&s)
            .args([
                "--json",
                "volume",
                "create",
                "--plugin",
                &name,
                "--name",
                "../not a path",
                "--id",
                id,
                "--capacity-max",
                "1MiB",
            ])
            .succeeds()
            .json();
        assert_eq!(again["volume"]["path"], v["path"]);
        plugctl(&s).args(["volume", "delete", id]).succeeds();
        assert!(!s.volumes.join(id).exists());
    }
    // Python: a mode parameter, and unknown parameters refused.
    let vol = create_volume(
        &s,
        &[
            "--plugin",
            "hv-python",
            "--name",
            "m",
            "--param",
            "mode=0700",
        ],
    );
    let id = vol["id"].as_str().unwrap();
    assert_eq!(mode(s.volumes.join(id)), 0o700);
    plugctl(&s)
        .args([
            "volume",
            "create",
            "--plugin",
            "hv-python",
            "--name",
            "n",
            "--param",
            "size=1",
        ])
        .fails_with(Exit::Failure)
        .stderr_has("unknown parameter 'size'");
    assert_eq!(
        fs::read_dir(&s.volumes).unwrap().count(),
        1,
        "only volume m is left"
    );

    let store = store(&s);
    let env = format!("SECRETS_DIR={store}");
    for lang in LANGS {
        let name = format!("sec-{lang}");
        init(&s, "secrets", &name, lang);
        let doc = plugctl(&s)
            .args(["--json", "secret", "fetch", &name, "app/db", "--env", &env])
            .succeeds()
            .json();
        assert_eq!(
            doc["result"],
            serde_json::json!({"USER": "admin", "PASSWORD": "s3\"cr\\et=x"})
        );
        plugctl(&s)
            .args(["secret", "fetch", &name, "app/nope", "--env", &env])
            .fails_with(Exit::Failure)
            .stderr_has("secret \"app/nope\" not found");
        plugctl(&s)
            .args(["secret", "fetch", &name, "../store/app/db", "--env", &env])
            .fails_with(Exit::Failure)
            .stderr_has("invalid secret path");
    }
}

#[test]
fn every_template_passes_validate_strict_and_test() {
    let s = Rig::new();
    for family in FAMILIES {
        for lang in LANGS {
            init(&s, family, &format!("t-{lang}"), lang);
        }
    }
    // The rig made the plugin directory with the umask of whoever runs
    // the tests; init made the family directories 0755 itself.
    fs::set_permissions(&s.plugins, fs::Permissions::from_mode(0o755)).unwrap();
    let plugins = s.plugins.display().to_string();
    let doc = plugctl(&s)
        .args(["--json", "validate", "--strict", &plugins])
        .succeeds()
        .json();
    assert_clean_report("validate --strict", &doc);

    let store = store(&s);
    let env = format!("SECRETS_DIR={store}");
    for family in FAMILIES {
        for lang in LANGS {
            let name = format!("t-{lang}");
            let mut args = vec!["test", family, &name];
            if family == "secrets" {
                args.extend(["--path", "app/db", "--env", &env]);
            }
            let doc = plugctl(&s).arg("--json").args_from(&args).succeeds().json();
            let what = format!("test {family} {name}");
            assert_clean_report(&what, &doc);
            let outcome = |check: &str| {
                doc["checks"]
                    .as_array()
                    .expect("checks")
                    .iter()
                    .find(|c| c["check"] == check)
                    .map(|c| c["outcome"].clone())
                    .unwrap_or_else(|| panic!("{what}: no check {check} in {doc:#}"))
            };
            if family == "secrets" {
                // --path was given, so the fetch checks ran rather than being skipped.
                assert_eq!(outcome("fetch.result"), "passed", "{what}");
                assert_eq!(outcome("fetch.missing-path"), "passed", "{what}");
            } else if lang == "python" {
                // The python template refuses unknown parameters, so the
                // refusal check runs.
                assert_eq!(
                    outcome("create.refuses-unknown-parameter"),
                    "passed",
                    "{what}"
                );
            }
        }
    }
}

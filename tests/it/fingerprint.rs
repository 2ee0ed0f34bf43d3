//! `plugctl fingerprint`, `plugin list` and `plugin show` through the real
//! binary, with real plugin scripts.

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::time::Duration;

use crate::common::*;

#[test]
fn healthy_plugins_of_every_family_and_the_builtins() {
    let s = Rig::new();
    s.hv_ok("disk", "v1.2");
    s.secrets_ok("vaultish");
    s.plugin(
        "other-family",
        "thing",
        r#"echo '{"type": "other-family", "version": "0.3.0-beta.1"}'"#,
    );
    let doc = plugctl(&s)
        .args(["--json", "fingerprint"])
        .succeeds()
        .json();
    // host-volume versions are normalised, others are as written
    assert_eq!(row(&doc, "host-volume", "disk")["version"], "1.2.0");
    assert_eq!(row(&doc, "secrets", "vaultish")["version"], "1.0.0");
    assert_eq!(
        row(&doc, "other-family", "thing")["version"],
        "0.3.0-beta.1"
    );
    for (f, n, v) in [
        ("host-volume", "mkdir", "0.0.1"),
        ("secrets", "nomad", "1.0.0"),
        ("secrets", "vault", "1.0.0"),
    ] {
        let r = row(&doc, f, n);
        assert_eq!(r["healthy"], true);
        assert_eq!(r["version"], v);
        assert_eq!(r["source"], "builtin");
    }
    for r in doc["plugins"].as_array().unwrap() {
        for key in ["type", "name", "healthy", "version", "error", "duration_ms"] {
            assert!(r.get(key).is_some(), "{key} missing in {r}");
        }
    }
}

#[test]
fn human_table_lists_plugins_and_reasons() {
    let s = Rig::new();
    s.hv_ok("disk", "1.0.0");
    s.plugin("host-volume", "broken", "echo not json");
    let out = plugctl(&s).args(["fingerprint"]).fails_with(Exit::Failure);
    let text = stdout(&out);
    let header = text.lines().next().unwrap();
    for col in ["TYPE", "NAME", "VERSION", "HEALTH", "DURATION", "REASON"] {
        assert!(header.contains(col), "{header}");
    }
    let disk = text.lines().find(|l| l.contains("disk")).unwrap();
    assert!(disk.contains("1.0.0") && disk.contains("healthy"), "{disk}");
    let broken = text.lines().find(|l| l.contains("broken")).unwrap();
    assert!(
        broken.contains("unhealthy") && broken.contains("invalid character"),
        "{broken}"
    );
    assert!(stderr(&out).contains("1 of"), "{}", stderr(&out));
    assert!(!text.contains('\x1b'), "no colour when not a terminal");
}

/// Every bad fingerprint output from docs/protocol.md section 6: unhealthy, with a
/// reason that says what was wrong, never a panic.
#[test]
fn bad_outputs_are_unhealthy_with_a_reason() {
    let s = Rig::new();
    let cases: &[(&str, &str, &str)] = &[
        ("empty", "exit 0", "unexpected end of JSON input"),
        ("not-json", "echo hello", "invalid character"),
        (
            "log-first",
            r#"echo starting; echo '{"version":"1.0.0"}'"#,
            "invalid character",
        ),
        (
            "two-docs",
            r#"echo '{"version":"1.0.0"}{"version":"1.0.0"}'"#,
            "after top-level value",
        ),
        (
            "bom",
            r#"printf '\357\273\277{"version":"1.0.0"}'"#,
            "invalid character",
        ),
        // Go decodes the bad byte as U+FFFD; go-version then refuses it.
        (
            "bad-utf8",
            r#"printf '{"version":"1.0.0\377"}'"#,
            "malformed version: 1.0.0\u{fffd}",
        ),
        ("bare-null", "echo null", "no \"version\""),
        ("empty-object", "echo '{}'", "no \"version\""),
        (
            "version-null",
            r#"echo '{"version": null}'"#,
            "no \"version\"",
        ),
        (
            "version-number",
            r#"echo '{"version": 1.2}'"#,
            "cannot unmarshal number",
        ),
        (
            "version-space",
            r#"echo '{"version": " 1.0"}'"#,
            "invalid version",
        ),
        (
            "version-newline",
            r#"printf '%s' '{"version": "1.0\n"}'"#,
            "invalid version",
        ),
        (
            "version-empty",
            r#"echo '{"version": ""}'"#,
            "invalid version",
        ),
        ("array", "echo '[1]'", "cannot unmarshal array"),
        (
            "exit-3",
            r#"echo '{"error": "disk on fire"}'; exit 3"#,
            "exited with status 3: disk on fire",
        ),
        (
            "exit-stderr",
            "echo 'no such pool' >&2; exit 2",
            r#"stderr: "no such pool""#,
        ),
        ("signal", "kill -9 $$", "killed by signal SIGKILL"),
    ];
    for (name, body, _) in cases {
        s.plugin("host-volume", name, body);
    }
    let doc = plugctl(&s)
        .args(["--json", "fingerprint", "--type", "host-volume"])
        .fails_with(Exit::Failure)
        .json();
    for (name, _, want) in cases {
        let r = row(&doc, "host-volume", name);
        assert_eq!(r["healthy"], false, "{name}: {r}");
        let err = r["error"].as_str().unwrap_or_default();
        assert!(err.contains(want), "{name}: want {want:?} in {err:?}");
    }
    assert_eq!(row(&doc, "host-volume", "mkdir")["healthy"], true);
}

#[test]
fn keys_match_case_insensitively_and_secrets_type_is_exact() {
    let s = Rig::new();
    s.plugin("host-volume", "upper", r#"echo '{"VERSION": "v2"}'"#);
    s.plugin(
        "host-volume",
        "dupes",
        r#"echo '{"version": "1.0.0", "Version": "3.0.0", "extra": [1,2]}'"#,
    );
    s.plugin(
        "secrets",
        "mixed",
        r#"echo '{"Type": "secrets", "VERSION": "v1.5"}'"#,
    );
    s.plugin("secrets", "no-type", r#"echo '{"version": "1.0.0"}'"#);
    s.plugin(
        "secrets",
        "wrong-type",
        r#"echo '{"type": "Secrets", "version": "1.0.0"}'"#,
    );
    let doc = plugctl(&s)
        .args(["--json", "fingerprint"])
        .any_exit()
        .json();
    assert_eq!(row(&doc, "host-volume", "upper")["version"], "2.0.0");
    assert_eq!(row(&doc, "host-volume", "dupes")["version"], "3.0.0");
    assert_eq!(row(&doc, "secrets", "mixed")["version"], "v1.5");
    let no_type = row(&doc, "secrets", "no-type");
    assert_eq!(no_type["healthy"], false);
    assert!(no_type["error"].as_str().unwrap().contains("no \"type\""));
    let wrong = row(&doc, "secrets", "wrong-type");
    assert_eq!(wrong["healthy"], false);
    assert!(wrong["error"].as_str().unwrap().contains("\"Secrets\""));
}

#[test]
fn plugins_get_only_the_protocol_environment() {
    let s = Rig::new();
    // /proc/$$/environ is what the plugin was exec'd with, before the shell adds PWD.
    for (family, file) in [
        ("host-volume", "hv.env"),
        ("secrets", "cpi.env"),
        ("misc", "misc.env"),
    ] {
        let dump = s.out_file(file);
        s.plugin(
            family,
            "envdump",
            &format!(
                "tr '\\0' '\\n' < /proc/$$/environ > '{}'\n\
                 echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}'",
                dump.display()
            ),
        );
    }
    plugctl(&s).args(["fingerprint", "envdump"]).succeeds();
    assert_eq!(s.read_out("hv.env"), "DHV_OPERATION=fingerprint\n");
    assert_eq!(s.read_out("cpi.env"), "CPI_OPERATION=fingerprint\n");
    assert_eq!(s.read_out("misc.env"), "CPI_OPERATION=fingerprint\n");
}

#[test]
fn argv_is_the_operation_and_stdin_is_empty() {
    let s = Rig::new();
    let seen = s.out_file("argv");
    s.plugin(
        "host-volume",
        "args",
        &format!(
            "printf '%s|' \"$0\" \"$@\" > '{0}'; cat >> '{0}'; echo '{{\"version\":\"1.0.0\"}}'",
            seen.display()
        ),
    );
    plugctl(&s).args(["fingerprint", "args"]).succeeds();
    let path = s.plugins.join("host-volume/args");
    assert_eq!(
        s.read_out("argv"),
        format!("{}|fingerprint|", path.display())
    );
}

#[test]
fn term_ignoring_plugin_with_a_pipe_holding_child_is_a_timeout_within_bounds() {
    let s = Rig::new();
    let pidfile = s.out_file("child.pid");
    s.plugin(
        "host-volume",
        "stubborn",
        &format!(
            "trap '' TERM\nsleep 60 &\necho $! > '{}'\nwait\nwait",
            pidfile.display()
        ),
    );
    s.hv_ok("fine", "1.0.0");
    let out = plugctl(&s)
        .args(["--json", "fingerprint", "--timeout", "1s", "--grace", "1s"])
        .fails_with(Exit::Failure);
    let doc = out.json();
    let took = out.took();
    let r = row(&doc, "host-volume", "stubborn");
    assert_eq!(r["healthy"], false);
    let err = r["error"].as_str().unwrap();
    assert!(
        err.contains("timed out after 1s") && err.contains("SIGKILL"),
        "{err}"
    );
    assert_eq!(row(&doc, "host-volume", "fine")["healthy"], true);
    // deadline 1 s + grace 1 s + a generous margin for a loaded machine
    assert!(took < Duration::from_millis(4500), "took {took:?}");
    assert!(took >= Duration::from_secs(2), "took {took:?}");
    let pid: i32 = s.read_out("child.pid").trim().parse().unwrap();
    assert!(
        !survives(pid),
        "the plugin's child {pid} survived the group kill"
    );
}

#[test]
fn non_plugins_and_escaping_symlinks_are_never_run() {
    let s = Rig::new();
    let marker = s.out_file("ran");
    let body = format!(
        "touch '{}'; echo '{{\"version\":\"1.0.0\"}}'",
        marker.display()
    );
    s.file(
        "host-volume",
        "not-exec",
        &format!("#!/bin/sh\n{body}\n"),
        0o644,
    );
    make_dir(s.plugins.join("host-volume/a-dir"));
    let outside = s.root().join("outside");
    fs::write(&outside, format!("#!/bin/sh\n{body}\n")).unwrap();
    fs::set_permissions(&outside, fs::Permissions::from_mode(0o755)).unwrap();
    symlink(&outside, s.plugins.join("host-volume/escape")).unwrap();
    symlink("missing-target", s.plugins.join("host-volume/dangling")).unwrap();

    let doc = plugctl(&s)
        .args(["--json", "fingerprint", "--type", "host-volume"])
        .fails_with(Exit::Failure)
        .json();
    assert!(!marker.exists(), "a non-plugin was run");
    let names: Vec<&str> = doc["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(
        !names.contains(&"not-exec") && !names.contains(&"a-dir"),
        "{names:?}"
    );
    let esc = row(&doc, "host-volume", "escape");
    assert_eq!(esc["healthy"], false);
    assert!(
        esc["error"]
            .as_str()
            .unwrap()
            .contains("outside its directory")
    );
    let dangling = row(&doc, "host-volume", "dangling");
    assert!(
        dangling["error"]
            .as_str()
            .unwrap()
            .contains("broken symlink")
    );
}

#[test]
fn a_file_named_like_a_builtin_is_shadowed_and_not_run() {
    let s = Rig::new();
    let marker = s.out_file("ran");
    s.plugin(
        "host-volume",
        "mkdir",
        &format!(
            "touch '{}'; echo '{{\"version\":\"9.9.9\"}}'",
            marker.display()
        ),
    );
    let doc = plugctl(&s)
        .args(["--json", "fingerprint", "mkdir"])
        .succeeds()
        .json();
    assert_eq!(row(&doc, "host-volume", "mkdir")["version"], "0.0.1");
    assert!(!marker.exists());
}

#[test]
fn a_plugin_dir_named_explicitly_must_be_there() {
    let s = Rig::new();
    fs::remove_dir_all(&s.plugins).unwrap();
    // PLUGCTL_PLUGIN_DIR (the rig's) names it: an error, never "all
    // healthy" about a directory that is not there.
    plugctl(&s)
        .args(["--json", "fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!(
            "plugin directory {} (from PLUGCTL_PLUGIN_DIR) does not exist",
            s.plugins.display()
        ))
        .error_kind("usage");
    let file = s.root().join("a-file");
    fs::write(&file, "").unwrap();
    plugctl(&s)
        .arg("--plugin-dir")
        .arg(&file)
        .args(["fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has("(from --plugin-dir) is not a directory");
    make_dir(&s.plugins);
    let hv = s.root().join("hv");
    plugctl(&s)
        .arg("--host-volume-plugin-dir")
        .arg(&hv)
        .args(["test", "host-volume", "x"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!(
            "host-volume plugin directory {} (from --host-volume-plugin-dir) does not exist",
            hv.display()
        ));
    // One nobody named (the development layout's host-volume/): no
    // plugins of that family, quietly, as secrets/ missing is.
    let doc = plugctl(&s)
        .args(["--json", "fingerprint"])
        .succeeds()
        .stderr_empty()
        .json();
    assert_eq!(doc["plugins"].as_array().unwrap().len(), 3);
}

/// Directories the agent configuration (or Nomad's defaults) gives: a
/// missing one holds no plugins, as Nomad takes it, with a warning naming
/// it; the built-ins are listed, and plugins recorded there are deleted.
#[test]
fn a_configured_plugin_dir_that_is_missing_warns_and_lists_the_builtins() {
    let s = Rig::new();
    let data = s.root().join("data");
    make_dir(data.join("host_volume_plugins"));
    let config = s.root().join("agent.hcl");
    fs::write(&config, format!("data_dir = \"{}\"\n", data.display())).unwrap();
    let run = || {
        plugctl(&s)
            .env("PLUGCTL_NOMAD_CONFIG", &config)
            .env_remove("PLUGCTL_PLUGIN_DIR")
    };
    let plugin = data.join("host_volume_plugins/disk");
    fs::rename(s.hv_ok("disk", "1.0.0"), &plugin).unwrap();
    run()
        .args(["fingerprint", "--type", "host-volume"])
        .succeeds();
    fs::remove_dir_all(data.join("host_volume_plugins")).unwrap();
    let ran = run()
        .args(["--json", "fingerprint"])
        .fails_with(Exit::Failure)
        .stderr_has(&format!(
            "plugctl: warning: host-volume plugin directory {}/host_volume_plugins \
             (<data_dir>/host_volume_plugins, as Nomad derives it; data_dir in {}:1) does not \
             exist: no host-volume plugins there",
            data.display(),
            config.display()
        ))
        .stderr_has(&format!(
            "plugctl: warning: plugin directory {}/common_plugins",
            data.display()
        ))
        .stderr_has("1 of 4 plugins unhealthy: host-volume/disk");
    let doc = ran.json();
    for (f, n) in [
        ("host-volume", "mkdir"),
        ("secrets", "nomad"),
        ("secrets", "vault"),
    ] {
        assert_eq!(row(&doc, f, n)["healthy"], true);
    }
    let disk = row(&doc, "host-volume", "disk");
    assert_eq!(disk["healthy"], false);
    assert!(
        disk["error"]
            .as_str()
            .unwrap()
            .starts_with(&format!("deleted: {}", plugin.display())),
        "{disk}"
    );
}

#[test]
fn unknown_names_exit_3() {
    let s = Rig::new();
    plugctl(&s)
        .args(["fingerprint", "nope"])
        .fails_with(Exit::NotFound)
        .stderr_has("nope");
    plugctl(&s)
        .args(["--json", "fingerprint", "nope"])
        .fails_with(Exit::NotFound)
        .error_kind("not_found");

    plugctl(&s)
        .args(["fingerprint", "../etc"])
        .fails_with(Exit::Usage);
    plugctl(&s)
        .args(["fingerprint", "--timeout", "soon"])
        .fails_with(Exit::Usage);
}

#[test]
fn results_are_recorded_and_listed_with_history() {
    let s = Rig::new();
    let p = s.hv_ok("disk", "1.0.0");
    plugctl(&s).args(["fingerprint"]).succeeds();
    let mode = fs::metadata(&s.registry).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    let reg = s.registry_json();
    assert_eq!(reg["schema_version"], 2);
    assert_eq!(reg["plugins"]["host-volume"]["disk"][0]["version"], "1.0.0");

    // The plugin breaks: list shows the current (unhealthy) instance.
    fs::write(&p, "#!/bin/sh\necho oops\n").unwrap();
    plugctl(&s)
        .args(["fingerprint", "disk"])
        .fails_with(Exit::Failure);
    let doc = plugctl(&s)
        .args(["--json", "plugin", "list", "--type", "host-volume"])
        .succeeds()
        .json();
    let disk = row(&doc, "host-volume", "disk");
    assert_eq!(disk["healthy"], false);
    assert!(
        disk["error"]
            .as_str()
            .unwrap()
            .contains("invalid character")
    );

    let doc = plugctl(&s)
        .args(["--json", "plugin", "show", "host-volume", "disk"])
        .succeeds()
        .json();
    assert_eq!(doc["type"], "host-volume");
    assert_eq!(doc["instances"].as_array().unwrap().len(), 1);

    // health changed twice (new, then unhealthy): two fingerprint events
    let reg = s.registry_json();
    let kinds: Vec<_> = reg["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["name"] == "disk")
        .map(|e| e["healthy"].clone())
        .collect();
    assert_eq!(
        kinds,
        vec![serde_json::json!(true), serde_json::json!(false)]
    );

    plugctl(&s)
        .args(["plugin", "show", "host-volume", "nope"])
        .fails_with(Exit::NotFound);
}

#[test]
fn corrupt_or_newer_registry_is_refused_and_left_untouched() {
    let s = Rig::new();
    s.hv_ok("disk", "1.0.0");
    make_dir(s.registry.parent().unwrap());
    for content in [
        "{\"schema_version\": 1, \"plugins\": {",
        "{\"schema_version\": 7}",
    ] {
        s.write_registry(content);
        plugctl(&s)
            .args(["fingerprint"])
            .fails_with(Exit::Usage)
            .stderr_has(&s.registry.display().to_string());
        assert_eq!(fs::read_to_string(&s.registry).unwrap(), content);
        plugctl(&s).args(["plugin", "list"]).fails_with(Exit::Usage);
    }
}

#[test]
fn concurrent_fingerprints_lose_nothing() {
    let s = Rig::new();
    const N: usize = 12;
    for i in 0..N {
        s.hv_ok(&format!("p{i}"), "1.0.0");
    }
    let fingerprints: Vec<_> = (0..N)
        .map(|i| {
            plugctl(&s)
                .env("PLUGCTL_LOCK_TIMEOUT", "60s")
                .args(["fingerprint", &format!("p{i}")])
                .start()
        })
        .collect();
    for f in fingerprints {
        f.succeeds();
    }
    let reg = s.registry_json();
    for i in 0..N {
        let inst = &reg["plugins"]["host-volume"][format!("p{i}")][0];
        assert_eq!(inst["healthy"], true, "p{i} lost: {reg}");
    }
    let seqs = seqs(reg["events"].as_array().unwrap());
    assert_eq!(seqs.len(), N, "one event per new plugin");
    assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1), "{seqs:?}");
}

/// Nesting is judged as Go's scanner judges it: 10,000 open levels at
/// most (the object is one), each empty container giving its level back,
/// whatever Nomad ignores the value for.
#[test]
fn nesting_is_fine_up_to_gos_limit_and_refused_past_it() {
    let s = Rig::new();
    let fingerprint = |name: &str, x: &str| {
        let file = s.out.join(name);
        std::fs::write(&file, format!(r#"{{"version": "1.0.0", "x": {x}}}"#)).unwrap();
        s.plugin(
            "host-volume",
            name,
            &format!(
                "[ \"$1\" = fingerprint ] && exec /bin/cat '{}'; exit 0",
                file.display()
            ),
        );
    };
    fingerprint("wide", &format!("[{}]", vec!["[]"; 20_000].join(",")));
    fingerprint(
        "wide-objects",
        &format!("[{}]", vec!["{}"; 20_000].join(",")),
    );
    fingerprint(
        "deep",
        &format!("{}{}", "[".repeat(9_999), "]".repeat(9_999)),
    );
    fingerprint(
        "too-deep",
        &format!("{}{}", "[".repeat(10_000), "]".repeat(10_000)),
    );
    let doc = plugctl(&s)
        .args(["--json", "fingerprint"])
        .fails_with(Exit::Failure)
        .json();
    for name in ["wide", "wide-objects", "deep"] {
        let r = row(&doc, "host-volume", name);
        assert_eq!(r["healthy"], true, "{r}");
        assert_eq!(r["version"], "1.0.0", "{r}");
    }
    let deep = row(&doc, "host-volume", "too-deep");
    assert_eq!(deep["healthy"], false, "{deep}");
    let reason = deep["error"].as_str().unwrap();
    assert!(
        reason.contains("invalid character '[' exceeded max depth at byte 10025"),
        "{reason}"
    );
}

/// Files exec refuses with ENOEXEC are "exec format error", as Nomad (Go)
/// reports them: an ELF cut short (the kernel refuses it), and a script
/// without `#!` (refused before exec: a shell fallback would have run it,
/// which Nomad never does).
#[test]
fn files_exec_cannot_run_are_exec_format_errors() {
    let s = Rig::new();
    s.file("host-volume", "cut-elf", "\x7fELF\x02\x01\x01\0\0\0", 0o755);
    let ran = s.out_file("bare-ran");
    s.file(
        "host-volume",
        "bare",
        &format!(
            "touch '{}'\necho '{{\"version\": \"1.0.0\"}}'\n",
            ran.display()
        ),
        0o755,
    );
    let doc = plugctl(&s)
        .args(["--json", "fingerprint"])
        .fails_with(Exit::Failure)
        .json();
    for name in ["cut-elf", "bare"] {
        let r = row(&doc, "host-volume", name);
        assert_eq!(r["healthy"], false, "{r}");
        let reason = r["error"].as_str().unwrap();
        assert!(reason.contains("exec format error"), "{name}: {reason}");
        assert!(reason.contains(name), "{name}: {reason}");
    }
    assert!(!ran.exists(), "a shell ran the script without #!");
}

/// A JSON file without `schema_version` was not written by plugctl: it is
/// named for what it is (not "corrupt", which would invite moving it aside
/// as a damaged registry), exit 2, and left exactly as it was.
#[test]
fn a_json_file_without_schema_version_is_not_a_plugctl_registry() {
    let s = Rig::new();
    s.hv_ok("disk", "1.0.0");
    let dir = s.registry.parent().unwrap();
    make_dir(dir);
    for content in [
        r#"{"plugins": {}}"#,
        "{}",
        r#"{"schema_version": null, "volumes": {}}"#,
    ] {
        s.write_registry(content);
        for args in [
            &["fingerprint"][..],
            &["plugin", "list"],
            &["volume", "list"],
        ] {
            plugctl(&s)
                .args_from(args)
                .fails_with(Exit::Usage)
                .stderr_has("not a plugctl registry")
                .stderr_has(&s.registry.display().to_string())
                .stderr_lacks("corrupt");
            assert_eq!(fs::read_to_string(&s.registry).unwrap(), content);
        }
        let error = plugctl(&s)
            .args(["--json", "volume", "list"])
            .fails_with(Exit::Usage)
            .error_has("not a plugctl registry")
            .error_has("left untouched")
            .error();
        assert_eq!(error["kind"], "registry", "{error}");
        assert_eq!(fs::read_to_string(&s.registry).unwrap(), content);
        let leftovers: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n != "registry.json" && n != "registry.json.lock")
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }
}

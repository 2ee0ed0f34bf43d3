//! `plugctl secret fetch` through the real binary, with real plugin scripts.
//! Plugins run with an empty environment (no PATH), so they name their
//! tools by absolute path.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common::*;
use serde_json::{Value, json};

/// Planted by failing and succeeding plugins alike; must never appear
/// anywhere but the stdout of a successful fetch.
const SECRET: &str = "s3cr3t-VALUE-42";

fn assert_clean(out: &std::process::Output, what: &str) {
    let (o, e) = (stdout(out), stderr(out));
    assert!(!o.contains(SECRET), "{what}: value on stdout:\n{o}");
    assert!(!e.contains(SECRET), "{what}: value on stderr:\n{e}");
    assert!(
        !e.contains("s3cr3t"),
        "{what}: part of the value on stderr:\n{e}"
    );
}

/// Every file under `dir`, recursively, read as bytes.
fn files_under(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let Ok(rd) = fs::read_dir(dir) else {
        return out;
    };
    for entry in rd {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push((path.display().to_string(), fs::read(&path).unwrap()));
        }
    }
    out
}

fn assert_not_in_registry(s: &Rig) {
    let dir = s.registry.parent().unwrap();
    let files = files_under(dir);
    assert!(!files.is_empty(), "the registry was written");
    for (name, bytes) in files {
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(SECRET), "value found in {name}:\n{text}");
        assert!(!text.contains("s3cr3t"), "part of the value in {name}");
    }
}

fn events(s: &Rig) -> Vec<Value> {
    let mut events = s.events();
    events.retain(|e| e["kind"] == "secret_fetch");
    events
}

/// A plugin that answers fetch with this exact stdout (written to a file,
/// so any bytes survive) and exit status.
fn answering(s: &Rig, name: &str, stdout: &str, status: i32) {
    let file = s.out_file(&format!("{name}.stdout"));
    fs::write(&file, stdout).unwrap();
    s.plugin(
        "secrets",
        name,
        &format!(
            "[ \"$1\" = fingerprint ] && echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' && exit 0\n\
             /usr/bin/cat '{}'\nexit {status}",
            file.display()
        ),
    );
}

#[test]
fn environment_and_argv_are_exactly_the_protocols() {
    let s = Rig::new();
    let env = s.out_file("env");
    let argv = s.out_file("argv");
    s.plugin(
        "secrets",
        "rec",
        &format!(
            "/usr/bin/tr '\\0' '\\n' < /proc/$$/environ > '{}'\n\
             printf '%s|' \"$@\" > '{}'\n\
             echo '{{\"result\": {{}}}}'",
            env.display(),
            argv.display()
        ),
    );
    let sorted = |text: String| {
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        lines.sort();
        lines
    };

    // Nomad 1.11.1+ (the default is the newest release) sets the job's id
    // and namespace on every fetch: plugctl's defaults without the flags.
    plugctl(&s)
        .args(["secret", "fetch", "rec", "app/db"])
        .succeeds();
    assert_eq!(
        sorted(s.read_out("env")),
        [
            "CPI_OPERATION=fetch",
            "NOMAD_JOB_ID=plugctl",
            "NOMAD_NAMESPACE=default"
        ]
    );
    assert_eq!(s.read_out("argv"), "fetch|app/db|");
    // Before 1.11.1: CPI_OPERATION only.
    plugctl(&s)
        .args([
            "--nomad-version",
            "1.11.0",
            "secret",
            "fetch",
            "rec",
            "app/db",
        ])
        .succeeds();
    assert_eq!(s.read_out("env"), "CPI_OPERATION=fetch\n");

    // env-file first, then --env in order: a later key wins; --job-id and
    // --namespace set NOMAD_JOB_ID and NOMAD_NAMESPACE.
    let env_file = s.root().join("vars.env");
    fs::write(
        &env_file,
        "# comment\nFROM_FILE=f\nB=from-file\n\nSPACED=a b 'c' \"d\"\n",
    )
    .unwrap();
    plugctl(&s)
        .args([
            "secret",
            "fetch",
            "rec",
            "some path with spaces",
            "--env-file",
            env_file.to_str().unwrap(),
            "--env",
            "A=1",
            "--env",
            "B=2",
            "--env",
            "A=3=x",
            "--env",
            "EMPTY=",
            "--job-id",
            "web",
            "--namespace",
            "prod",
        ])
        .succeeds();
    assert_eq!(
        sorted(s.read_out("env")),
        vec![
            "A=3=x",
            "B=2",
            "CPI_OPERATION=fetch",
            "EMPTY=",
            "FROM_FILE=f",
            "NOMAD_JOB_ID=web",
            "NOMAD_NAMESPACE=prod",
            "SPACED=a b 'c' \"d\"",
        ]
    );
    assert_eq!(s.read_out("argv"), "fetch|some path with spaces|");
    let env = s.read_out("env");
    for leaked in ["PATH=", "HOME=", SENTINEL, "PLUGCTL_"] {
        assert!(!env.contains(leaked), "{leaked} reached the plugin:\n{env}");
    }

    // --job-id wins over an --env of the same name.
    plugctl(&s)
        .args([
            "secret",
            "fetch",
            "rec",
            "p",
            "--env",
            "NOMAD_JOB_ID=from-env",
            "--job-id",
            "from-flag",
        ])
        .succeeds();
    assert_eq!(
        sorted(s.read_out("env")),
        vec![
            "CPI_OPERATION=fetch",
            "NOMAD_JOB_ID=from-flag",
            "NOMAD_NAMESPACE=default"
        ]
    );
}

#[test]
fn a_path_starting_with_a_dash_is_passed_verbatim() {
    let s = Rig::new();
    let argv = s.out_file("argv");
    s.plugin(
        "secrets",
        "rec",
        &format!(
            "printf '%s|' \"$@\" > '{}'\necho '{{\"result\": {{\"K\": \"v\"}}}}'",
            argv.display()
        ),
    );
    // Without `--`: works for a path that is not one of plugctl's flags.
    let out = plugctl(&s)
        .args(["secret", "fetch", "rec", "-x"])
        .succeeds();
    assert_eq!(s.read_out("argv"), "fetch|-x|");
    assert_eq!(stdout(&out), "K=v\n");
    // With `--` (options before it): always works, even for `-v` or `--json`.
    for path in ["-x", "-v", "--json", "--", "-"] {
        plugctl(&s)
            .args(["secret", "fetch", "--timeout", "10s", "rec", "--", path])
            .succeeds();
        assert_eq!(s.read_out("argv"), format!("fetch|{path}|"));
    }
}

#[test]
fn output_formats() {
    let s = Rig::new();
    answering(
        &s,
        "p",
        r#"{"result": {"b": "2", "A": "1", "EMPTY": "", "_x": "y=z"}}"#,
        0,
    );
    let out = plugctl(&s).args(["secret", "fetch", "p", "x"]).succeeds();
    assert_eq!(stdout(&out), "A=1\nEMPTY=\n_x=y=z\nb=2\n");
    assert_eq!(stderr(&out), "");

    let out = plugctl(&s)
        .args(["secret", "fetch", "p", "x", "--format", "env"])
        .succeeds();
    assert_eq!(
        stdout(&out),
        "export A='1'\nexport EMPTY=''\nexport _x='y=z'\nexport b='2'\n"
    );

    for args in [
        &["--json", "secret", "fetch", "p", "x"][..],
        &["secret", "fetch", "p", "x", "--format", "json"],
        &["--json", "secret", "fetch", "p", "x", "--format", "json"],
    ] {
        let out = plugctl(&s).args_from(args).succeeds();
        let mut doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        // What the call cost (tests/it/accounting.rs holds its figures).
        let usage = doc.as_object_mut().unwrap().remove("usage");
        assert!(usage.is_some_and(|u| u["wall_ms"].is_u64()), "{doc}");
        assert_eq!(
            doc,
            json!({
                "schema_version": 1,
                "provider": "p",
                "path": "x",
                "result": {"A": "1", "EMPTY": "", "_x": "y=z", "b": "2"}
            })
        );
    }

    plugctl(&s)
        .args(["--json", "secret", "fetch", "p", "x", "--format", "env"])
        .fails_with(Exit::Usage);

    // No keys: nothing on stdout, success.
    answering(&s, "none", r#"{"result": null}"#, 0);
    let out = plugctl(&s)
        .args(["secret", "fetch", "none", "x"])
        .succeeds();
    assert_eq!(stdout(&out), "");
}

#[test]
fn format_env_round_trips_hostile_values_through_eval() {
    let s = Rig::new();
    let pwned = s.out_file("pwned");
    let values: Vec<(&str, String)> = vec![
        ("SINGLE", "it's 'quoted'".into()),
        ("DOUBLE", r#"say "hi""#.into()),
        ("NEWLINES", "line1\nline2\n\nline4\n".into()),
        ("SUBST", format!("$(touch {})", pwned.display())),
        ("BACKTICK", format!("`touch {}`", pwned.display())),
        ("BACKSLASH", r"a\b\\c\n\'\".into()),
        ("SPACES", "  lead and trail  ".into()),
        ("DOLLAR", "$HOME ${PATH} $1 $$ $".into()),
        ("MIXED", "'\"`$\\\n\t;|&<>(){}*?[]~#!%".into()),
        ("UNICODE", "pässwörd ✓ 🔑".into()),
        ("DASH", "-n".into()),
        ("EMPTY", String::new()),
        ("CR", "a\r\nb\r".into()),
    ];
    let result: serde_json::Map<String, Value> = values
        .iter()
        .map(|(k, v)| (k.to_string(), Value::String(v.clone())))
        .collect();
    answering(
        &s,
        "hostile",
        &serde_json::to_string(&json!({ "result": result })).unwrap(),
        0,
    );
    for (key, want) in &values {
        let mut sh = Command::new("/bin/sh");
        sh.env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("PLUGCTL_PLUGIN_DIR", &s.plugins)
            .env("PLUGCTL_REGISTRY", &s.registry)
            .env("PLUGCTL_VOLUMES_DIR", &s.volumes)
            .env("PLUGCTL_NOMAD_CONFIG", "none");
        let out = expect::Run::new(sh, "sh")
            .arg("-c")
            .arg(format!(
                r#"eval "$("$@" secret fetch hostile any --format env)"; printf %s "${key}""#
            ))
            .arg("sh")
            .arg(PLUGCTL)
            .succeeds();
        assert_eq!(&stdout(&out), want, "{key} did not survive eval");
    }
    assert!(!pwned.exists(), "eval ran a command substitution");
}

#[test]
fn a_key_that_is_no_shell_name_is_refused_by_format_env_and_kv() {
    let s = Rig::new();
    answering(
        &s,
        "p",
        &format!(r#"{{"result": {{"GOOD": "{SECRET}", "bad-key": "{SECRET}"}}}}"#),
        0,
    );
    let out = plugctl(&s)
        .args(["secret", "fetch", "p", "x", "--format", "env"])
        .fails_with(Exit::Failure);
    assert_clean(&out, "bad key");
    assert_eq!(stdout(&out), "", "nothing printed when one key is refused");
    assert!(stderr(&out).contains("\"bad-key\""), "{}", stderr(&out));
    // kv refuses it too (no shell sets it, systemd drops it); json prints it.
    let out = plugctl(&s)
        .args(["secret", "fetch", "p", "x"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has("\"bad-key\" is not a shell variable name");
    assert_clean(&out, "bad key in kv");
    plugctl(&s)
        .args(["secret", "fetch", "p", "x", "--format", "json"])
        .succeeds()
        .stdout_has(&format!("\"bad-key\": \"{SECRET}\""));
}

#[test]
fn the_value_is_only_on_stdout_after_success() {
    let s = Rig::new();
    s.plugin(
        "secrets",
        "chatty",
        &format!(
            "echo 'fetching {SECRET} for you' >&2\n\
             echo \"password is {SECRET}, token is t0k3n-Z\" >&2\n\
             echo '{{\"result\": {{\"PASSWORD\": \"{SECRET}\", \"TOKEN\": \"t0k3n-Z\"}}}}'"
        ),
    );
    for verbosity in [None, Some("-v"), Some("-vv")] {
        let mut args = vec!["secret", "fetch", "chatty", "db/main"];
        args.extend(verbosity);
        let out = plugctl(&s).args_from(&args).succeeds();
        assert_eq!(stdout(&out), format!("PASSWORD={SECRET}\nTOKEN=t0k3n-Z\n"));
        let err = stderr(&out);
        assert!(!err.contains(SECRET), "{verbosity:?}: {err}");
        assert!(!err.contains("t0k3n-Z"), "{verbosity:?}: {err}");
        assert!(err.contains("client panics"), "warns about stderr: {err}");
        if verbosity.is_some() {
            assert!(
                err.contains("fetching **** for you")
                    && err.contains("password is ****, token is ****"),
                "{verbosity:?}: stderr shown masked: {err}"
            );
        }
    }
    // JSON output too, and quiet
    let out = plugctl(&s)
        .args(["--json", "secret", "fetch", "chatty", "db/main", "-vv"])
        .any_exit();
    let doc = out.json();
    assert_eq!(doc["result"]["PASSWORD"], SECRET);
    assert!(!stderr(&out).contains(SECRET));

    assert_not_in_registry(&s);
    let ev = events(&s);
    assert_eq!(ev.len(), 4);
    let last = ev.last().unwrap();
    assert_eq!(last["name"], "chatty");
    assert_eq!(last["type"], "secrets");
    assert_eq!(last["path"], "db/main");
    assert_eq!(last["keys"], 2);
    assert_eq!(last["success"], true);
    assert!(last["duration_ms"].is_u64());
    assert!(last["time"].is_string());

    // `plugctl events` must not show anything else either (when it exists).
    let out = plugctl(&s).args(["--json", "events"]).any_exit();
    assert!(!stdout(&out).contains(SECRET) && !stderr(&out).contains(SECRET));
}

#[test]
fn bad_answers_are_clear_errors_without_the_value() {
    let s = Rig::new();
    let cases: Vec<(&str, String, i32, &str)> = vec![
        (
            "string-result",
            format!(r#"{{"result": "{SECRET}"}}"#),
            0,
            "cannot unmarshal string into Go struct field SecretResponse.result of type map[string]string",
        ),
        (
            "number-value",
            format!(r#"{{"result": {{"A": "{SECRET}", "N": 5}}}}"#),
            0,
            "map key \"N\"",
        ),
        (
            "object-value",
            format!(r#"{{"result": {{"A": "{SECRET}", "O": {{"x": "{SECRET}"}}}}}}"#),
            0,
            "map key \"O\"",
        ),
        (
            "bad-json",
            format!(r#"{{"result": {{"A": "{SECRET}" "B": "x"}}}}"#),
            0,
            "not valid JSON",
        ),
        ("bare-value", format!("{SECRET}\n"), 0, "not valid JSON"),
        (
            "log-line-first",
            format!("token {SECRET}\n{{\"result\": {{}}}}"),
            0,
            "not valid JSON",
        ),
        (
            "two-documents",
            format!(r#"{{"result": {{"A": "{SECRET}"}}}} {{"result": {{}}}}"#),
            0,
            "not valid JSON",
        ),
        ("empty", String::new(), 0, "stdout was empty"),
        ("null", "null".into(), 0, "crashes"),
        (
            "empty-error",
            format!(r#"{{"result": {{"A": "{SECRET}"}}, "error": ""}}"#),
            0,
            r#""error": """#,
        ),
        (
            "error-and-result",
            format!(r#"{{"result": {{"A": "{SECRET}"}}, "error": "denied for {SECRET}"}}"#),
            0,
            "the plugin reported an error: denied for ****",
        ),
        (
            "error-not-string",
            format!(r#"{{"result": {{"A": "{SECRET}"}}, "error": 42}}"#),
            0,
            "SecretResponse.error of type string",
        ),
        (
            "nonzero-with-error",
            format!(r#"{{"result": {{"A": "{SECRET}"}}, "error": "backend unreachable"}}"#),
            3,
            "exited with status 3: backend unreachable",
        ),
        (
            "nonzero-with-result",
            format!(r#"{{"result": {{"A": "{SECRET}"}}}}"#),
            1,
            "exited with status 1",
        ),
    ];
    for (name, stdout_text, status, _) in &cases {
        answering(&s, name, stdout_text, *status);
        // The same value on stderr too.
        let path = s.plugins.join("secrets").join(name);
        let body = fs::read_to_string(&path).unwrap();
        let body = body.replacen(
            "/usr/bin/cat",
            &format!("echo 'stderr says {SECRET}' >&2\n/usr/bin/cat"),
            1,
        );
        s.file("secrets", name, &body, 0o755);
    }
    for (name, _, _, expect) in &cases {
        let out = plugctl(&s)
            .args(["secret", "fetch", name, "app/db"])
            .fails_with(Exit::Failure);
        assert_clean(&out, name);
        let err = stderr(&out);
        assert!(
            err.contains(expect),
            "{name}: expected {expect:?} in:\n{err}"
        );
        for part in [
            format!("secrets plugin \"{name}\""),
            "operation fetch".into(),
            "path \"app/db\"".into(),
        ] {
            assert!(err.contains(&part), "{name}: {part} missing in:\n{err}");
        }
        assert!(err.contains("bytes on stderr"), "{name}: {err}");
        // --json: the error document, clean too.
        let out = plugctl(&s)
            .args(["--json", "secret", "fetch", name, "app/db"])
            .fails_with(Exit::Failure);
        let doc = out.json();
        assert_clean(&out, name);
        assert_eq!(doc["error"]["kind"], "plugin", "{doc}");
        assert_eq!(doc["error"]["plugin"], format!("secrets/{name}"));
        assert_eq!(doc["error"]["operation"], "fetch");
        // --format json alone gives the error document as well.
        let out = plugctl(&s)
            .args(["secret", "fetch", name, "app/db", "--format", "json"])
            .any_exit();
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["error"]["kind"], "plugin", "{doc}");
    }
    assert_not_in_registry(&s);
    let ev = events(&s);
    assert!(ev.iter().all(|e| e["success"] == false && e["keys"] == 0));
    assert!(ev.iter().any(|e| e["failure"] == "bad_output"));
    assert!(ev.iter().any(|e| e["failure"] == "plugin_error"));
    assert!(ev.iter().any(|e| e["failure"] == "exit_status"));
}

#[test]
fn a_plugin_killed_by_a_signal_is_a_clear_error() {
    let s = Rig::new();
    s.plugin(
        "secrets",
        "dies",
        &format!(
            "echo '{{\"result\": {{\"A\": \"{SECRET}\"' \necho 'dying with {SECRET}' >&2\nkill -9 $$"
        ),
    );
    let out = plugctl(&s)
        .args(["secret", "fetch", "dies", "x"])
        .fails_with(Exit::Failure);
    assert_clean(&out, "signal");
    assert!(
        stderr(&out).contains("killed by signal SIGKILL"),
        "{}",
        stderr(&out)
    );
    // Even -v does not show what it cannot mask: stdout was cut short.
    let out = plugctl(&s)
        .args(["secret", "fetch", "dies", "x", "-vv"])
        .fails_with(Exit::Failure);
    assert_clean(&out, "signal -vv");
    assert!(stderr(&out).contains("not shown"), "{}", stderr(&out));
    assert_not_in_registry(&s);
    assert_eq!(events(&s)[0]["failure"], "signal");
}

#[test]
fn a_timeout_exits_4() {
    let s = Rig::new();
    s.plugin(
        "secrets",
        "slow",
        &format!(
            "echo '{{\"result\": {{\"A\": \"{SECRET}\"}}}}'\necho 'waiting {SECRET}' >&2\n/usr/bin/sleep 30"
        ),
    );
    let started = std::time::Instant::now();
    let out = plugctl(&s)
        .args([
            "secret",
            "fetch",
            "slow",
            "x",
            "--timeout",
            "1s",
            "--grace",
            "200ms",
        ])
        .fails_with(Exit::Timeout);
    assert!(started.elapsed() < std::time::Duration::from_secs(15));
    assert_clean(&out, "timeout");
    let err = stderr(&out);
    assert!(
        err.contains("secrets plugin \"slow\", operation fetch (path \"x\"): timed out after 1s"),
        "{err}"
    );
    let out = plugctl(&s)
        .args(["--json", "secret", "fetch", "slow", "x", "--timeout", "1s"])
        .fails_with(Exit::Timeout);
    let doc = out.json();
    assert_eq!(doc["error"]["kind"], "timeout");
    assert_clean(&out, "timeout --json");
    assert_not_in_registry(&s);
    assert_eq!(events(&s)[0]["failure"], "timeout");
}

#[test]
fn missing_builtin_and_bad_usage() {
    let s = Rig::new();
    s.secrets_ok("good");
    plugctl(&s)
        .args(["secret", "fetch", "nosuch", "x"])
        .fails_with(Exit::NotFound)
        .stderr_has("nosuch");

    for builtin in ["nomad", "vault"] {
        let out = plugctl(&s)
            .args(["secret", "fetch", builtin, "x"])
            .fails_with(Exit::Usage);
        assert!(
            stderr(&out).contains("built into Nomad") && stderr(&out).contains("Nomad cluster"),
            "{}",
            stderr(&out)
        );
    }

    s.file("secrets", "noexec", "#!/bin/sh\necho '{}'\n", 0o644);
    plugctl(&s)
        .args(["secret", "fetch", "noexec", "x"])
        .fails_with(Exit::NotFound)
        .stderr_has("no execute bit");

    let outside = s.root().join("outside");
    fs::write(&outside, "#!/bin/sh\necho '{}'\n").unwrap();
    fs::set_permissions(
        &outside,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    std::os::unix::fs::symlink(&outside, s.plugins.join("secrets/escape")).unwrap();
    plugctl(&s)
        .args(["secret", "fetch", "escape", "x"])
        .fails_with(Exit::Failure)
        .stderr_has("outside its directory");

    plugctl(&s)
        .args(["secret", "fetch", "good", "x", "--env", "NOEQUALS"])
        .fails_with(Exit::Usage);
    plugctl(&s)
        .args(["secret", "fetch", "../good", "x"])
        .fails_with(Exit::Usage);
    plugctl(&s)
        .args(["secret", "fetch", "good", "x", "--timeout", "0s"])
        .fails_with(Exit::Usage);

    let bad = s.root().join("bad.env");
    fs::write(&bad, format!("A=1\n# ok\n{SECRET}\n")).unwrap();
    let out = plugctl(&s)
        .args([
            "secret",
            "fetch",
            "good",
            "x",
            "--env-file",
            bad.to_str().unwrap(),
        ])
        .fails_with(Exit::Usage)
        .stderr_has("line 3");
    assert_clean(&out, "env-file");
    plugctl(&s)
        .args([
            "secret",
            "fetch",
            "good",
            "x",
            "--env-file",
            "/nonexistent/file",
        ])
        .fails_with(Exit::Usage);
    // Nothing ran, nothing recorded.
    assert!(!s.registry.exists() || events(&s).is_empty());
}

#[test]
fn fingerprint_lists_a_secrets_plugin_of_the_wrong_type_as_unhealthy() {
    let s = Rig::new();
    s.plugin(
        "secrets",
        "wrongtype",
        r#"echo '{"type": "host-volume", "version": "1.0.0"}'"#,
    );
    s.plugin("secrets", "notype", r#"echo '{"version": "1.0.0"}'"#);
    let doc = plugctl(&s)
        .args(["--json", "fingerprint", "--type", "secrets"])
        .fails_with(Exit::Failure)
        .json();
    let wrong = row(&doc, "secrets", "wrongtype");
    assert_eq!(wrong["healthy"], false);
    let reason = wrong["error"].as_str().unwrap();
    assert!(
        reason.contains("\"host-volume\"") && reason.contains("must be exactly \"secrets\""),
        "{reason}"
    );
    let none = row(&doc, "secrets", "notype");
    assert_eq!(none["healthy"], false);
    assert!(none["error"].as_str().unwrap().contains("no \"type\""));
}

#[test]
fn the_env_file_example_through_plugctl() {
    let s = Rig::new();
    let store = s.root().join("store");
    make_dir(store.join("app"));
    fs::write(
        store.join("app/db.env"),
        format!("# db\nUSER=admin\nPASSWORD={SECRET}\n"),
    )
    .unwrap();
    fs::write(store.join("-dash.env"), "K=dash\n").unwrap();
    let plugin_dir = examples();
    let dir_env = format!("SECRETS_DIR={}", store.display());
    let base = [
        "--plugin-dir",
        plugin_dir.to_str().unwrap(),
        "secret",
        "fetch",
    ];

    let mut args = base.to_vec();
    args.extend(["env-file", "app/db", "--env", &dir_env]);
    let out = plugctl(&s).args_from(&args).succeeds();
    assert_eq!(stdout(&out), format!("PASSWORD={SECRET}\nUSER=admin\n"));
    assert_eq!(stderr(&out), "");

    let mut args = base.to_vec();
    args.extend(["--env", &dir_env, "env-file", "--", "-dash"]);
    let out = plugctl(&s).args_from(&args).succeeds();
    assert_eq!(stdout(&out), "K=dash\n");

    let mut args = base.to_vec();
    args.extend(["env-file", "app/missing", "--env", &dir_env]);
    plugctl(&s)
        .args_from(&args)
        .fails_with(Exit::Failure)
        .stderr_has("the plugin reported an error: secret \"app/missing\" not found");
    assert_not_in_registry(&s);
}

#[test]
fn the_json_file_example_through_plugctl() {
    if !Path::new("/usr/bin/python3").exists() {
        skip_unless_ci("no /usr/bin/python3 for the json-file example");
        return;
    }
    let s = Rig::new();
    let store = s.root().join("store.json");
    fs::write(
        &store,
        serde_json::to_string(&json!({
            "app/db": {"USER": "admin", "PASSWORD": SECRET},
            "app/bad": {"N": 5}
        }))
        .unwrap(),
    )
    .unwrap();
    let plugin_dir = examples();
    let file_env = format!("SECRETS_FILE={}", store.display());
    let run = |path: &str, extra: &[&str]| {
        let mut args = vec![
            "--plugin-dir",
            plugin_dir.to_str().unwrap(),
            "secret",
            "fetch",
            "--env",
            &file_env,
        ];
        args.extend(extra);
        args.extend(["json-file", "--", path]);
        plugctl(&s).args_from(args)
    };
    let out = run("app/db", &["--format", "json"]).succeeds();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["result"], json!({"USER": "admin", "PASSWORD": SECRET}));
    assert_eq!(doc["provider"], "json-file");

    run("app/bad", &[])
        .fails_with(Exit::Failure)
        .stderr_has("\"N\"");
    run("app/none", &[])
        .fails_with(Exit::Failure)
        .stderr_has("not found");
    assert_not_in_registry(&s);
}

/// A plugin that dies before printing anything may have written a value it
/// fetched on stderr: with nothing to mask against, stderr is not shown,
/// even with -vv.
#[test]
fn stderr_of_a_plugin_that_printed_nothing_is_never_shown() {
    let s = Rig::new();
    s.plugin(
        "secrets",
        "dies",
        &format!("echo 'got value: {SECRET}, now crashing' >&2\nexit 1"),
    );
    s.plugin(
        "secrets",
        "hangs",
        &format!("echo 'got value: {SECRET}' >&2\nexec sleep 30"),
    );
    let out = plugctl(&s)
        .args(["-vv", "secret", "fetch", "dies", "x"])
        .fails_with(Exit::Failure);
    assert_clean(&out, "exit 1, empty stdout");
    let out = plugctl(&s)
        .args([
            "-vv",
            "secret",
            "fetch",
            "hangs",
            "x",
            "--timeout",
            "1s",
            "--grace",
            "200ms",
        ])
        .fails_with(Exit::Timeout);
    assert_clean(&out, "timeout, empty stdout");
}

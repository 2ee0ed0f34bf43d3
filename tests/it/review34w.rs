//! A sixteenth fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after review34.rs to review34t.rs,
//! aimed at what plugctl prints and where secret values go: each test
//! here is an attack that found a way through.

use std::fs;
use std::path::Path;

use crate::common::*;

/// A secrets plugin that answers every fetch with `{"result": pairs}`.
fn answering(s: &Rig, name: &str, pairs: &[(&str, String)]) {
    let map: serde_json::Map<String, serde_json::Value> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), serde_json::Value::String(v.clone())))
        .collect();
    let file = s.out_file(&format!("{name}.stdout"));
    fs::write(
        &file,
        serde_json::to_vec(&serde_json::json!({ "result": map })).unwrap(),
    )
    .unwrap();
    s.plugin(
        "secrets",
        name,
        &format!(
            "[ \"$1\" = fingerprint ] && echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' && exit 0\n\
             /usr/bin/cat '{}'",
            file.display()
        ),
    );
}

/// `script` run by a root sh with a clean environment and `HOME` a scratch
/// directory with no rc file in it; plugctl is `$PLUGCTL`. Never waits
/// for a terminal: stdin is empty and the fallback editor a stub.
fn root_sh(s: &Rig, script: &str) {
    let home = s.root().join("operator-home");
    // `editor`, which sensible-editor falls back to, a stub: vi or nano
    // would wait for a terminal.
    let stubs = s.root().join("stubs");
    fs::create_dir_all(&home).unwrap();
    fs::create_dir_all(&stubs).unwrap();
    fs::write(stubs.join("editor"), "#!/bin/sh\nexit 0\n").unwrap();
    fs::set_permissions(
        stubs.join("editor"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    expect::Run::new(s.command("/bin/sh"), "sh")
        .args(["-c", script])
        .env("HOME", &home)
        .env("PATH", format!("{}:/usr/bin:/bin", stubs.display()))
        .env("PLUGCTL", PLUGCTL)
        .any_exit();
}

/// Debian's sensible-editor (sensible-utils, priority required: on every
/// Debian node) runs `SELECTED_EDITOR`, split into words, when `EDITOR`
/// and `VISUAL` are unset and the user never ran select-editor, as root's
/// shell on a node usually is; crontab -e and other tools start it. wget
/// (priority standard) reads `SYSTEM_WGETRC` in place of `/etc/wgetrc`,
/// whose `use_askpass` names a program every wget runs at its start, and
/// runs `WGET_ASKPASS` for `--use-askpass`. None of the three was in the
/// hooks table: a store's `SELECTED_EDITOR='sh -c touch${IFS}/x'` or
/// `SYSTEM_WGETRC` naming a file of its choosing was exported by `--format
/// env`, and the next `sensible-editor` or `wget` after the eval ran the
/// store's command as root. They are refused by the env and kv formats,
/// and in a plugin's own environment, as `EDITOR`, `SSH_ASKPASS` and
/// `WGETRC` are.
#[test]
fn env_output_never_makes_sensible_editor_or_wget_run_what_the_store_names() {
    let s = Rig::new();
    let canary = s.out_file("canary");
    let askpass = s.out_file("askpass");
    fs::write(
        &askpass,
        format!("#!/bin/sh\n: > '{}'\necho x\n", canary.display()),
    )
    .unwrap();
    fs::set_permissions(
        &askpass,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let wgetrc = s.out_file("wgetrc");
    fs::write(&wgetrc, format!("use_askpass = {}\n", askpass.display())).unwrap();
    let editor = format!("sh -c :>{}", canary.display());
    answering(
        &s,
        "store",
        &[
            ("SELECTED_EDITOR", editor.clone()),
            ("SYSTEM_WGETRC", wgetrc.display().to_string()),
            ("WGET_ASKPASS", askpass.display().to_string()),
            ("GOOD", "plain".into()),
        ],
    );
    for format in ["env", "kv"] {
        plugctl(&s)
            .args(["secret", "fetch", "store", "app", "--format", format])
            .fails_with(Exit::Failure)
            .stdout_empty()
            .stderr_has("\"SELECTED_EDITOR\" would change the commands programs start")
            .stderr_has("\"WGET_ASKPASS\" would change the commands programs start")
            .stderr_has("\"SYSTEM_WGETRC\" would change where programs read their configuration");
    }
    for pair in [
        format!("SELECTED_EDITOR={editor}"),
        format!("WGET_ASKPASS={}", askpass.display()),
    ] {
        let key = pair.split('=').next().unwrap().to_string();
        plugctl(&s)
            .args(["secret", "fetch", "--env", &pair, "store", "app"])
            .fails_with(Exit::Failure)
            .stdout_empty()
            .stderr_has(&format!("its environment holds {key}"));
    }
    // A file another user may write is what SYSTEM_WGETRC names for a
    // plugin's wget: judged by the trust gate, as WGETRC is.
    if let Some(intruder) = intruder() {
        let theirs = s.root().join("theirs");
        make_dir(&theirs);
        intruder.own(&theirs);
        plugctl(&s)
            .args(["secret", "fetch", "--env"])
            .arg(format!("SYSTEM_WGETRC={}/wgetrc", theirs.display()))
            .args(["store", "app"])
            .fails_with(Exit::Failure)
            .stdout_empty()
            .stderr_has("SYSTEM_WGETRC");
    }
    let eval = "eval \"$(\"$PLUGCTL\" secret fetch store app --format env)\"; unset EDITOR VISUAL";
    if Path::new("/usr/bin/sensible-editor").exists() {
        // The attack is real: sensible-editor runs the store's command.
        root_sh(
            &s,
            &format!("export SELECTED_EDITOR='{editor}'; sensible-editor x </dev/null"),
        );
        assert!(
            canary.exists(),
            "sensible-editor did not run SELECTED_EDITOR"
        );
        fs::remove_file(&canary).unwrap();
        root_sh(&s, &format!("{eval}; sensible-editor x </dev/null"));
        assert!(
            !canary.exists(),
            "sensible-editor, run after eval of plugctl's env output, ran the store's command"
        );
    } else {
        skip_unless_ci("sensible-editor (sensible-utils) is not installed");
    }
    if tool_available("wget", "what wget runs after the eval") {
        let wget = "wget -q -t 1 -O /dev/null http://127.0.0.1:9/ </dev/null";
        root_sh(
            &s,
            &format!("export SYSTEM_WGETRC='{}'; {wget}", wgetrc.display()),
        );
        assert!(canary.exists(), "wget did not run the rc file's askpass");
        fs::remove_file(&canary).unwrap();
        root_sh(
            &s,
            &format!("{eval}; {wget}; wget --use-askpass {}", &wget[5..]),
        );
        assert!(
            !canary.exists(),
            "wget, run after eval of plugctl's env output, ran the store's program"
        );
    }
}

/// `-v` shows a fetch's stderr with every value masked, "in raw and
/// JSON-escaped form" — but only in the form serde_json writes. Nomad
/// plugins are written in Go, whose `encoding/json` (hclog's JSON logs,
/// any `json.Marshal`) writes `&`, `<` and `>` as `\u0026`, `\u003c`,
/// `\u003e`, and Python's `json.dumps` writes every character past ASCII
/// as `\u00e4`: a password `p&ss<wörd>` a Go or Python plugin logged as
/// JSON was shown whole on the operator's terminal, in a CI log, and in
/// the plugin's own `{"error"}` text when that quoted it. Each form, in
/// either case of hex digits, is masked.
#[test]
fn a_value_a_go_or_python_plugin_logs_as_json_is_masked_on_stderr_and_in_its_error() {
    let s = Rig::new();
    let value = "p&ss<wörd>";
    let forms = [
        r"p\u0026ss\u003cwörd\u003e",
        r"p&ss<w\u00f6rd>",
        r"p\u0026ss\u003Cw\u00F6rd\u003E",
    ];
    let logged: String = forms
        .iter()
        .map(|f| format!("{{\"@level\":\"debug\",\"value\":\"{f}\"}}\n"))
        .collect();
    fs::write(s.out_file("stderr"), &logged).unwrap();
    let answer = serde_json::json!({ "result": { "PASSWORD": value } });
    fs::write(s.out_file("ok"), answer.to_string()).unwrap();
    // Failing, with the document's strings masked in its error message.
    let failed = format!(
        "{{\"result\": {{\"PASSWORD\": \"{value}\"}}, \"error\": \"denied: {{\\\"v\\\":\\\"{}\\\"}}\"}}",
        forms[0].replace('\\', "\\\\")
    );
    fs::write(s.out_file("failed"), &failed).unwrap();
    s.plugin(
        "secrets",
        "gostore",
        &format!(
            "[ \"$1\" = fingerprint ] && echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' && exit 0\n\
             /usr/bin/cat '{out}/stderr' >&2\n\
             [ \"$2\" = bad ] && /usr/bin/cat '{out}/failed' && exit 1\n\
             /usr/bin/cat '{out}/ok'",
            out = s.out_file("").display()
        ),
    );
    let leaked = |text: &str| {
        forms
            .iter()
            .chain([&value])
            .find(|f| text.contains(*f))
            .map(|f| f.to_string())
    };
    let out = plugctl(&s)
        .args([
            "secret", "fetch", "gostore", "app", "--format", "json", "-v",
        ])
        .succeeds();
    let err = out.stderr();
    assert!(
        err.contains("\"value\":\"****\""),
        "stderr shown masked: {err}"
    );
    assert_eq!(leaked(&err), None, "a value's JSON form on stderr: {err}");
    let out = plugctl(&s)
        .args(["secret", "fetch", "gostore", "bad", "-v"])
        .fails_with(Exit::Failure)
        .stderr_has("denied: {\"v\":\"****\"}");
    let err = out.stderr();
    assert_eq!(
        leaked(&err),
        None,
        "a value's JSON form in the error: {err}"
    );
}

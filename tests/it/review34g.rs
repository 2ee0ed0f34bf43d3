//! A seventh fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after the first six rounds
//! (review34.rs to review34f.rs): each test here is an attack that found a
//! way through.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::*;

/// A secrets plugin that answers every fetch with `{"result": pairs}`.
fn answering(s: &Rig, name: &str, pairs: &[(&str, String)]) {
    let map: serde_json::Map<String, Value> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), Value::String(v.clone())))
        .collect();
    let file = s.out_file(&format!("{name}.stdout"));
    fs::write(
        &file,
        serde_json::to_vec(&json!({ "result": map })).unwrap(),
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

/// Both formats a shell or a service reads refuse `key`, naming it, and
/// print nothing.
#[track_caller]
fn refused_in_env_and_kv(s: &Rig, provider: &str, key: &str) {
    for format in ["env", "kv"] {
        plugctl(s)
            .args(["secret", "fetch", provider, "app", "--format", format])
            .fails_with(Exit::Failure)
            .stdout_empty()
            .stderr_has(&format!("{key:?} would change"));
    }
}

/// A directory of the intruder's holding executable `programs`, each of
/// which touches `canary` and then runs the system's program of its name.
fn their_programs(s: &Rig, intruder: Intruder, canary: &Path, programs: &[&str]) -> PathBuf {
    let theirs = s.root().join("theirs");
    make_dir(&theirs);
    for program in programs {
        let file = theirs.join(program);
        fs::write(
            &file,
            format!(
                "#!/bin/sh\n/usr/bin/touch '{}'\nexec /usr/bin/{program} \"$@\"\n",
                canary.display()
            ),
        )
        .unwrap();
        fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        intruder.own(&file);
    }
    intruder.own(&theirs);
    theirs
}

/// `man` formats a page with groff, which runs its own programs (troff,
/// grotty) from the directories `GROFF_BIN_PATH` names before the
/// system's. A store holding `GROFF_BIN_PATH` of another user's directory
/// made every `man` that a script, or an operator at the shell, ran after
/// `eval` of `--format env` run their troff as root. groff's variables are
/// refused as man's pager is.
#[test]
fn env_output_never_makes_man_run_another_users_formatter() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let canary = s.out_file("pwned");
    let theirs = their_programs(&s, intruder, &canary, &["troff", "grotty"]);
    answering(
        &s,
        "store",
        &[
            ("GROFF_BIN_PATH", theirs.display().to_string()),
            ("GOOD", "plain".into()),
        ],
    );
    refused_in_env_and_kv(&s, "store", "GROFF_BIN_PATH");
    if !tool_available("man", "what man runs after the eval") {
        return;
    }
    let page = s.out_file("page.1");
    fs::write(&page, ".TH PAGE 1\n.SH NAME\npage \\- a page\n").unwrap();
    // The attack is real: man runs their troff when the variable is set.
    expect::Run::new(s.command("man"), "man")
        .args(["-l"])
        .arg(&page)
        .env("GROFF_BIN_PATH", &theirs)
        .succeeds();
    assert!(canary.exists(), "man did not run GROFF_BIN_PATH's troff");
    fs::remove_file(&canary).unwrap();
    expect::Run::new(s.command("/bin/sh"), "sh")
        .args(["-c"])
        .arg(format!(
            "eval \"$(\"$PLUGCTL\" secret fetch store app --format env)\"; \
             man -l '{}' >/dev/null 2>&1; true",
            page.display()
        ))
        .env("PLUGCTL", PLUGCTL)
        .succeeds();
    assert!(
        !canary.exists(),
        "man, run after eval of plugctl's env output, ran another user's program as root"
    );
}

//! A third fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after the first two rounds
//! (review34.rs, review34b.rs): each test here is an attack that found a
//! way through.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use crate::common::*;

/// A strict policy's grant (`"read": ["${SECRETS_DIR}"]`) was opened as
/// root following every link on its way, through no trust gate: a user
/// who owns a directory on the way to the store the caller names (a
/// store under their home, a `current` link they rotate) pointed it at
/// root's own directory, and the strict sandbox let the plugin read what
/// Landlock is there to keep from it. A grant is a path plugctl opens as
/// root: it passes the gate, or the call is refused, naming it.
#[test]
fn a_strict_grant_never_follows_another_users_link() {
    let Some(intruder) = intruder() else {
        return;
    };
    let s = Rig::new();
    if !strict_runs(&s) {
        return;
    }
    // Root's own directory, which strict keeps from every plugin.
    let private = s.root().join("private");
    make_dir(&private);
    fs::set_permissions(&private, fs::Permissions::from_mode(0o700)).unwrap();
    let secret = private.join("secret");
    fs::write(&secret, "TOPSECRET").unwrap();
    // A plugin that reads the file its caller names, as a careless one
    // would (it trusts the sandbox to bound it).
    s.plugin(
        "secrets",
        "peek",
        "[ \"$1\" = fingerprint ] && echo '{\"type\": \"secrets\", \"version\": \"1.0.0\"}' && exit 0\n\
         v=$(/usr/bin/cat \"$TARGET\" 2>/dev/null || echo denied)\n\
         printf '{\"result\": {\"V\": \"%s\"}}' \"$v\"",
    );
    let policy = s.plugins.join("plugctl.policy.json");
    fs::write(
        &policy,
        r#"{"schema_version": 1, "plugins": {"secrets/peek": {"read": ["${SECRETS_DIR}"]}}}"#,
    )
    .unwrap();
    fs::set_permissions(&policy, fs::Permissions::from_mode(0o644)).unwrap();
    // The intruder's directory, with the store the caller names in it.
    let theirs = s.root().join("theirs");
    make_dir(theirs.join("real"));
    intruder.own(&theirs);
    intruder.own(&theirs.join("real"));
    let store = theirs.join("current");
    let fetch = || {
        plugctl(&s)
            .args(["--sandbox", "strict", "secret", "fetch", "peek", "x"])
            .arg("--env")
            .arg(format!("SECRETS_DIR={}", store.display()))
            .arg("--env")
            .arg(format!("TARGET={}", secret.display()))
    };
    intruder.sh(&s, &format!("ln -sfn real {}", store.display()));
    // The store another user owns: the grant is theirs to rotate, and the
    // plugin cannot reach root's file through it.
    let before = fetch().any_exit();
    assert!(
        !before.stdout().contains("TOPSECRET"),
        "strict let the plugin read root's file: {}",
        before.stdout()
    );
    // They point their link at root's directory.
    intruder.sh(
        &s,
        &format!("ln -sfn {} {}", private.display(), store.display()),
    );
    let run = fetch().fails_with(Exit::Failure);
    assert!(
        !run.stdout().contains("TOPSECRET"),
        "another user's link widened the strict grant to root's directory: {}",
        run.stdout()
    );
    let err = run.stderr();
    assert!(
        err.contains("${SECRETS_DIR}") && err.contains(&theirs.display().to_string()),
        "the refusal names neither the grant nor the path: {err}"
    );
    // A store on a path only root controls is granted as before.
    let own = s.root().join("store");
    make_dir(&own);
    fs::write(own.join("v"), "fine").unwrap();
    plugctl(&s)
        .args(["--sandbox", "strict", "secret", "fetch", "peek", "x"])
        .arg("--env")
        .arg(format!("SECRETS_DIR={}", own.display()))
        .arg("--env")
        .arg(format!("TARGET={}", own.join("v").display()))
        .succeeds()
        .stdout_has("V=fine");
}

/// `plugctl metrics` wrote the Prometheus text as it is to a terminal: a
/// volume's name (from `volume create --name`, or a specification file
/// handed to `volume create -f`) and a plugin's name go into label
/// values, where the format escapes only a backslash, a quote and a line
/// feed, so that an escape sequence drove the operator's terminal and a
/// bidirectional override reordered what it showed. On a terminal they
/// are shown escaped, in plugctl's one style; a pipe, and the textfile,
/// get the exact text.
#[test]
fn metrics_on_a_terminal_never_writes_what_drives_or_reorders_it() {
    let s = Rig::new();
    let name = "v\u{1b}]0;owned\u{7}\u{1b}[31m\u{202e}x\u{85}y\u{9b}2J";
    plugctl(&s)
        .args(["volume", "create", "--plugin", "mkdir", "--name", name])
        .succeeds();
    s.hv_ok("p\u{202e}q", "1.0.0");
    plugctl(&s).args(["fingerprint"]).succeeds();
    let Some(run) = plugctl_on_a_terminal(&s, "metrics") else {
        return;
    };
    let shown = run.succeeds().stdout();
    for c in ['\u{1b}', '\u{7}', '\u{202e}', '\u{85}', '\u{9b}'] {
        assert!(
            !shown.contains(c),
            "U+{:04X} reached the terminal: {shown:?}",
            c as u32
        );
    }
    assert!(
        shown.contains(r#"name="v\u{1b}]0;owned\u{7}\u{1b}[31m\u{202e}x\u{85}y\u{9b}2J""#),
        "the volume's name is not shown escaped: {shown}"
    );
    assert!(
        shown.contains(r#"name="p\u{202e}q""#),
        "the plugin's name is not shown escaped: {shown}"
    );
    // A pipe gets the format's own text, every byte as it is.
    let piped = plugctl(&s).args(["metrics"]).succeeds().stdout();
    assert!(piped.contains(&format!("name=\"{name}\"")), "{piped}");
}

/// `test --propose-policy` prints the proposed policy file, a JSON text,
/// for the operator to review on their terminal before they merge it.
/// It went out as it was, JSON leaving a bidirectional override (or a
/// DEL, a C1 control, an invisible character) in a plugin's name as it
/// is, so that the entry under review was shown reordered. On a terminal
/// they are written as JSON's own `\uXXXX` escapes, as every other JSON
/// plugctl shows there, which read back as the same name.
#[test]
fn a_proposed_policy_on_a_terminal_escapes_what_would_reorder_it() {
    let s = Rig::new();
    if !strict_runs(&s) {
        return;
    }
    let name = "e\u{202e}z";
    s.plugin(
        "secrets",
        name,
        "[ \"$1\" = fingerprint ] && echo '{\"type\": \"secrets\", \"version\": \"1.0.0\"}' && exit 0\n\
         echo '{\"result\": {\"A\": \"b\"}}'",
    );
    let Some(run) = plugctl_on_a_terminal(
        &s,
        &format!("--sandbox strict test secrets '{name}' --path x --propose-policy"),
    ) else {
        return;
    };
    let shown = run.succeeds().stdout();
    assert!(
        !shown.contains('\u{202e}'),
        "U+202E reached the terminal: {}",
        shown.escape_debug()
    );
    // The document's lines, between the messages around it (the terminal
    // gets both).
    let start = shown.find("\n{").expect("a JSON document") + 1;
    let json = &shown[start..=shown.rfind("\n}").expect("its end") + 1];
    let doc: serde_json::Value = serde_json::from_str(&json.replace("\r\n", "\n")).unwrap();
    assert!(
        doc["plugins"].get(format!("secrets/{name}")).is_some(),
        "the entry does not read back as the plugin's name: {json}"
    );
}

/// A plugin gets no `PATH` (a host-volume plugin never does; a secrets
/// plugin unless its caller passes one), and bash then searches the
/// directories of its own built-in `PATH`, which ends in `.`: a command a
/// `#!/bin/bash` plugin runs that the system lacks (a `vault` or `aws`
/// CLI it looks for with `command -v`) is looked for in its working
/// directory, plugctl's. Run from a directory another user owns (their
/// home, a job's checkout) or may add files to (`/tmp`), their program
/// ran as root. Such a call is refused before the plugin starts, naming
/// the directory (since the tenth review, with a `PATH` too); from a
/// directory of root's the plugin runs.
#[test]
fn a_plugin_without_path_never_runs_the_working_directorys_programs() {
    let Some(intruder) = intruder() else {
        return;
    };
    let s = Rig::new();
    let canary = s.out_file("canary");
    // A helper no system has, which the plugin uses when it is there.
    let helper = "plugctl-review34c-helper";
    let uses_helper = format!("if command -v {helper} >/dev/null; then {helper}; fi\n");
    s.file(
        "secrets",
        "bashy",
        &format!(
            "#!/bin/bash\n\
             [ \"$1\" = fingerprint ] && echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' && exit 0\n\
             {uses_helper}echo '{{\"result\": {{\"A\": \"b\"}}}}'\n"
        ),
        0o755,
    );
    s.file(
        "host-volume",
        "bashy",
        &format!(
            "#!/bin/bash\n\
             {uses_helper}[ \"$1\" = fingerprint ] && echo '{{\"version\": \"1.0.0\"}}'\n"
        ),
        0o755,
    );
    let theirs = s.root().join("theirs");
    make_dir(&theirs);
    intruder.own(&theirs);
    let sticky = sticky_dir(&s, "sticky");
    for dir in [&theirs, &sticky] {
        intruder.sh(
            &s,
            &format!(
                "printf '#!/bin/sh\\n: > {c}\\n' > {d}/{helper} && chmod 755 {d}/{helper}",
                c = canary.display(),
                d = dir.display()
            ),
        );
        plugctl(&s)
            .current_dir(dir)
            .args(["secret", "fetch", "bashy", "x"])
            .fails_with(Exit::Failure)
            .stdout_empty()
            .stderr_has("working directory")
            .stderr_has(&dir.display().to_string());
        assert!(
            !canary.exists(),
            "{}: their program ran as root",
            dir.display()
        );
        plugctl(&s)
            .current_dir(dir)
            .args(["fingerprint", "--type", "host-volume", "bashy"])
            .fails_with(Exit::Failure)
            .stdout_has("working directory");
        assert!(
            !canary.exists(),
            "{}: their program ran as root",
            dir.display()
        );
        // With a PATH of trusted directories bash searches only those for
        // commands, but what a plugin reads by a relative name still comes
        // from there (`working_dir::*`): refused all the same.
        plugctl(&s)
            .current_dir(dir)
            .args([
                "secret",
                "fetch",
                "bashy",
                "x",
                "--env",
                "PATH=/usr/bin:/bin",
            ])
            .fails_with(Exit::Failure)
            .stdout_empty()
            .stderr_has("working directory");
        assert!(
            !canary.exists(),
            "{}: their program ran as root",
            dir.display()
        );
    }
    // From a directory of root's the plugin runs as before.
    plugctl(&s)
        .args(["secret", "fetch", "bashy", "x"])
        .succeeds()
        .stdout_has("A=b");
}

/// `replay` of a fetch takes the values of the caller's variables from
/// its own `--env`, and says so for each one a case names and the
/// command line lacks: `plugctl replay --env NAME=...`. The name, from the
/// case file (whose contents are not trusted, whoever handed the
/// directory over), went in as it was: a variable named `T;id>pwned;X`
/// (which `--env` takes: no space, control character or `=`) made the
/// operator who pasted the advice run `id` as root. It is one shell word,
/// quoted for sh when it needs it, as every command plugctl suggests.
#[test]
fn replays_advice_for_a_missing_variable_runs_nothing_the_case_names() {
    let s = Rig::new();
    s.plugin(
        "secrets",
        "s",
        "[ \"$1\" = fingerprint ] && echo '{\"type\": \"secrets\", \"version\": \"1.0.0\"}' && exit 0\n\
         echo '{\"result\": {\"A\": \"b\"}}'",
    );
    let cases = s.out.join("cases");
    let name = "T;id>pwned;X";
    plugctl(&s)
        .args(["secret", "fetch", "s", "x", "--env", &format!("{name}=1")])
        .arg("--record")
        .arg(&cases)
        .succeeds();
    let shown = plugctl(&s)
        .arg("replay")
        .arg(&cases)
        .fails_with(Exit::Failure)
        .stdout();
    let command = suggested(&shown, "plugctl replay --env")
        .replace("...", "1")
        .replace(
            "plugctl replay",
            &format!("plugctl replay {}", cases.display()),
        );
    paste(&s, &command);
    assert!(
        !s.out.join("pwned").exists(),
        "pasting `{command}`, which plugctl suggested, ran the case's variable name as a command"
    );
}

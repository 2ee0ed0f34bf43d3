//! Usage errors through the real binary: exit 2, the message on stderr,
//! never the value of a malformed K=V argument (it may be a secret's
//! configuration).

use crate::common::*;

/// Every piece of `value` of four or more characters.
fn pieces(value: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for start in 0..value.len() {
        for end in start + 4..=value.len() {
            out.push(&value[start..end]);
        }
    }
    out
}

#[test]
fn malformed_key_value_arguments_are_refused_without_echoing_them() {
    let s = Rig::new();
    let cases: &[(&[&str], &str)] = &[
        (&["secret", "fetch", "p", "x", "--env"], "--env"),
        (&["test", "secrets", "p", "--env"], "--env"),
        (
            &[
                "volume", "create", "--plugin", "mkdir", "--name", "v", "--param",
            ],
            "--param",
        ),
        (
            &[
                "plugin",
                "register",
                "--type",
                "t",
                "--name",
                "n",
                "--alloc-id",
                "a",
                "--socket",
                "/s",
                "--option",
            ],
            "--option",
        ),
    ];
    for (args, option) in cases {
        for (bad, reason) in [
            ("SECRETLEAK", "no '='"),
            ("=SECRETLEAK", "key before '=' is empty"),
        ] {
            let mut argv = args.to_vec();
            argv.push(bad);
            let out = plugctl(&s)
                .args_from(&argv)
                .fails_with(Exit::Usage)
                .stderr_has(&format!("{option} expects KEY=VALUE"))
                .stderr_has(reason);
            let err = stderr(&out);
            for piece in pieces(bad) {
                assert!(!err.contains(piece), "{argv:?} echoed {piece:?}: {err}");
                assert!(!stdout(&out).contains(piece), "{argv:?}: {}", stdout(&out));
            }
        }
    }
}

/// Runs plugctl with `args` (and `env`), expecting a usage error: exit 2,
/// clap's message on stderr and, when `--json` is among the arguments
/// (before `--`),
/// exactly one JSON error document on stdout, else nothing there.
fn usage_error(s: &Rig, env: &[(&str, &str)], args: &[&str], message: &str) {
    let out = env
        .iter()
        .fold(plugctl(s), |run, (k, v)| run.env(k, v))
        .args_from(args)
        .fails_with(Exit::Usage)
        .stderr_has(message);
    let json = args
        .iter()
        .take_while(|a| **a != "--")
        .any(|a| *a == "--json");
    if !json {
        out.stdout_empty();
        return;
    }
    let doc = out.json();
    assert_eq!(doc["error"]["kind"], "usage", "{doc}");
    let text = doc["error"]["message"].as_str().expect("a message");
    assert!(text.contains(message), "{args:?}: {doc}");
    assert!(!text.contains('\x1b'), "{args:?}: styled message {doc}");
    assert!(!text.starts_with("error:"), "{doc}");
    assert!(!text.contains("Usage:"), "{doc}");
    assert!(doc["error"]["plugin"].is_null() && doc["error"]["operation"].is_null());
}

#[test]
fn usage_errors_with_json_are_the_json_error_document() {
    let s = Rig::new();
    let none: &[(&str, &str)] = &[];
    // A missing required argument, --json first or last.
    usage_error(
        &s,
        none,
        &["--json", "volume", "create", "--plugin", "mkdir"],
        "--name <NAME>",
    );
    usage_error(
        &s,
        none,
        &["volume", "create", "--plugin", "mkdir", "--json"],
        "--name <NAME>",
    );
    // A bad size.
    let bad_size = [
        "--json",
        "volume",
        "create",
        "--plugin",
        "mkdir",
        "--name",
        "v",
        "--capacity-max",
        "5XB",
    ];
    usage_error(&s, none, &bad_size, "--capacity-max");
    // An unknown subcommand, and a missing one.
    usage_error(
        &s,
        none,
        &["--json", "volum"],
        "unrecognized subcommand 'volum'",
    );
    usage_error(&s, none, &["--json", "volume"], "plugctl volume");
    // A bad value from the environment.
    let grace = [("PLUGCTL_GRACE", "bogus")];
    usage_error(&s, &grace, &["--json", "fingerprint"], "--grace");
    // A malformed K=V: the JSON message does not echo it either.
    let kv = ["--json", "secret", "fetch", "p", "x", "--env", "SECRETLEAK"];
    usage_error(&s, none, &kv, "--env expects KEY=VALUE");
    assert!(
        !plugctl(&s)
            .args_from(kv)
            .any_exit()
            .stdout()
            .contains("SECRET")
    );
    // Without --json (or with it only after `--`), stdout stays empty.
    usage_error(&s, none, &["volum"], "unrecognized subcommand");
    usage_error(
        &s,
        none,
        &["secret", "fetch", "p", "--", "--json", "x"],
        "unexpected argument",
    );
}

#[test]
fn help_and_version_with_json_stay_as_they_are() {
    let s = Rig::new();
    plugctl(&s)
        .args(["--json", "--help"])
        .succeeds()
        .stdout_has("Usage: plugctl");
    let out = plugctl(&s).args(["--json", "--version"]).succeeds();
    assert!(stdout(&out).starts_with("plugctl "), "{}", stdout(&out));
}

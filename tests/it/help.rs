//! Help and errors that lead with the command (issue 33 §7), through the
//! real binary: `-h` short and `--help` long, a command's own options
//! first and each described, the rare global options for `--help` only,
//! the man pages' examples, a bare `plugctl volume` that fits a screen,
//! `--color never` and `NO_COLOR` for clap's output on a terminal too,
//! `error:`/`warning:`/`tip:` as clap styles them, each hint on a line of
//! its own and in the JSON error document as a list, and `ls`/`rm`.

use crate::common::*;

#[test]
fn the_short_help_of_volume_list_is_this_page() {
    let out = plugctl(&Rig::new())
        .args(["volume", "list", "-h"])
        .succeeds()
        .stdout();
    let expected = "\
Volumes in the registry

Usage: plugctl volume list [OPTIONS]

Options:
      --plugin <NAME>    Only volumes of this plugin
      --namespace <NS>   Only volumes in this namespace [default: every namespace]
      --state <STATE>    Only volumes in this state: pending, ready or deleting
      --name <GLOB>      Only volumes whose name matches (* ? [abc])
  -o, --output <FORMAT>  How to print: table, wide, json or name
      --wide             Every column, whole: the same as -o wide
  -h, --help             Print help (see more with '--help')
  -V, --version          Print version

Global options:
      --plugin-dir <DIR>  Plugin directory: one subdirectory per family [env: PLUGCTL_PLUGIN_DIR]
      --registry <FILE>   Registry file [env: PLUGCTL_REGISTRY]
      --json              Print one JSON document on stdout (as -o json)
  -q, --quiet             Print less on stderr (warnings and progress off)
  -v, --verbose...        Print more on stderr (-vv: every call)

Examples:
  plugctl volume list --namespace default
      The volumes recorded in the default namespace.
  plugctl volume list --state pending -o name
      The ids of the volumes a create left pending, one a line, for xargs.
";
    assert_eq!(out, expected, "\n{out}");
}

#[test]
fn short_help_leads_with_the_command_and_long_help_has_everything() {
    let s = Rig::new();
    let short = plugctl(&s).args(["events", "-h"]).succeeds().stdout();
    assert!(
        short.lines().count() <= 32,
        "{} lines:\n{short}",
        short.lines().count()
    );
    // Its own options first, then the few global ones people reach for.
    let own = short.find("--kind <KIND>").unwrap();
    let global = short.find("Global options:").unwrap();
    assert!(own < global, "{short}");
    for rare in [
        "--nomad-config",
        "--lock-timeout",
        "--allow-insecure-paths",
        "--record",
    ] {
        assert!(!short.contains(rare), "{rare} in -h:\n{short}");
    }
    assert!(
        short.contains("\nExamples:\n  plugctl events --since 1h --kind "),
        "{short}"
    );
    // --help: every option, each with its whole description.
    let long = plugctl(&s).args(["events", "--help"]).succeeds().stdout();
    for all in [
        "--nomad-config",
        "--lock-timeout",
        "--allow-insecure-paths",
        "--record",
    ] {
        assert!(long.contains(all), "{all} not in --help:\n{long}");
    }
    assert!(
        long.contains("a time in UTC (2026-11-27T10:00:00Z) or how long ago (30m, 1h, 2d)"),
        "{long}"
    );
    // The long help adds to the short one rather than saying it twice.
    assert_eq!(long.matches("Only events after this").count(), 1, "{long}");
    // Arguments are described: plugin forget's too.
    plugctl(&s)
        .args(["plugin", "forget", "-h"])
        .succeeds()
        .stdout_has("  <TYPE>     The plugins' type (host-volume, secrets, ...)\n")
        .stdout_has("  <NAME>...  The plugins to forget, each gone from its directory\n");
}

#[test]
fn a_bare_group_command_fits_a_screen() {
    let s = Rig::new();
    // Nothing on the line, nothing from the environment: its short help.
    let out = plugctl(&s)
        .env_remove("PLUGCTL_PLUGIN_DIR")
        .env_remove("PLUGCTL_REGISTRY")
        .env_remove("PLUGCTL_VOLUMES_DIR")
        .env_remove("PLUGCTL_NOMAD_CONFIG")
        .args(["volume"])
        .fails_with(Exit::Usage);
    let text = out.stderr();
    assert!(
        text.lines().count() <= 40,
        "{} lines:\n{text}",
        text.lines().count()
    );
    assert!(
        text.contains("  list     Volumes in the registry [alias: ls]"),
        "{text}"
    );
    assert!(
        text.contains("Usage: plugctl volume [OPTIONS] <COMMAND>"),
        "{text}"
    );
    assert!(!text.contains("--nomad-config"), "{text}");
    // With a variable set: which subcommands there are, in a few lines.
    let out = plugctl(&s).args(["volume"]).fails_with(Exit::Usage);
    assert!(out.stderr().lines().count() <= 8, "{}", out.stderr());
    out.stderr_has("'plugctl volume' requires a subcommand");
}

#[test]
fn ls_and_rm_are_what_operators_reach_for() {
    let s = Rig::new();
    let v = create_volume(&s, &["--plugin", "mkdir", "--name", "web"]);
    plugctl(&s)
        .args(["volume", "ls", "-o", "name"])
        .succeeds()
        .stdout_has(&id_of(&v));
    plugctl(&s).args(["fingerprint"]).succeeds();
    plugctl(&s)
        .args(["plugin", "ls", "--type", "host-volume"])
        .succeeds()
        .stdout_has("mkdir");
    plugctl(&s).args(["volume", "rm", "web"]).succeeds();
    assert!(list_volumes(&s).is_empty());
}

#[test]
fn a_hint_is_a_tip_line_of_its_own_and_a_list_in_json() {
    let s = Rig::new();
    s.hv_ok("quota-dir", "1.0.0");
    let out = plugctl(&s)
        .args(["fingerprint", "--type", "hostvolume"])
        .fails_with(Exit::NotFound);
    let lines: Vec<String> = out.stderr().lines().map(str::to_string).collect();
    assert!(
        lines[0].starts_with("plugctl: error: plugin type not found: hostvolume (no directory "),
        "{lines:#?}"
    );
    assert!(!lines[0].contains("did you mean"), "{lines:#?}");
    assert_eq!(lines[1], "  tip: did you mean host-volume?", "{lines:#?}");
    let error = plugctl(&s)
        .args(["--json", "fingerprint", "--type", "hostvolume"])
        .fails_with(Exit::NotFound)
        .error();
    assert_eq!(
        error["hints"],
        serde_json::json!(["did you mean host-volume?"]),
        "{error}"
    );
    // The message is the error line stderr shows; the hint is apart.
    let message = error["message"].as_str().unwrap();
    assert!(!message.contains("did you mean"), "{error}");
    assert_eq!(lines[0], format!("plugctl: error: {message}"), "{error}");
    // clap's own tips are the hints of a usage error's document.
    let error = plugctl(&s)
        .args(["--json", "volume", "list", "--namspace", "x"])
        .fails_with(Exit::Usage)
        .error();
    assert_eq!(
        error["hints"],
        serde_json::json!(["a similar argument exists: '--namespace'"]),
        "{error}"
    );
    assert_eq!(
        error["message"], "unexpected argument '--namspace' found",
        "{error}"
    );
    // No hint: an empty list.
    let error = plugctl(&s)
        .args(["--json", "volume", "show", "nosuch"])
        .fails_with(Exit::NotFound)
        .error();
    assert_eq!(error["hints"], serde_json::json!([]), "{error}");
}

/// stderr and stdout of `plugctl ARGS` on a terminal, as one text.
fn on_a_terminal(s: &Rig, env: &[(&str, &str)], args: &str) -> Option<String> {
    // A terminal that says it takes colour, as an operator's does.
    let run = plugctl_on_a_terminal(s, args)?.env("TERM", "xterm");
    let run = env.iter().fold(run, |run, (k, v)| run.env(k, v));
    Some(run.any_exit().stdout())
}

#[test]
fn color_never_and_no_color_govern_claps_output_on_a_terminal_too() {
    let s = Rig::new();
    for args in [
        "--bogus",
        "volume list -h",
        "volume",
        "fingerprint --type hostvolume",
    ] {
        let Some(coloured) = on_a_terminal(&s, &[], args) else {
            return;
        };
        assert!(
            coloured.contains('\x1b'),
            "{args}: no colour by default: {coloured:?}"
        );
        for (env, line) in [
            (&[][..], format!("--color never {args}")),
            (&[][..], format!("{args} --color=never")),
            (&[("NO_COLOR", "1")][..], args.to_string()),
            (&[("PLUGCTL_COLOR", "never")][..], args.to_string()),
            (&[("NO_COLOR", "1")][..], format!("--color always {args}")),
        ] {
            let plain = on_a_terminal(&s, env, &line).unwrap();
            assert!(!plain.contains('\x1b'), "{env:?} {line}: {plain:?}");
        }
    }
}

#[test]
fn plugctls_labels_are_styled_as_claps_on_a_terminal() {
    let s = Rig::new();
    let Some(clap) = on_a_terminal(&s, &[], "--bogus") else {
        return;
    };
    let Some(own) = on_a_terminal(&s, &[], "fingerprint --type hostvolume") else {
        return;
    };
    // clap's error label, byte for byte, starts plugctl's own error.
    let label = "plugctl: \x1b[1m\x1b[31merror:\x1b[0m ";
    assert!(clap.starts_with(label), "{clap:?}");
    assert!(own.starts_with(label), "{own:?}");
    assert!(
        own.contains("\r\n  \x1b[32mtip:\x1b[0m did you mean host-volume?"),
        "{own:?}"
    );
    // A warning: yellow, as a caution.
    s.hv_script(
        "elsewhere",
        r#"printf '{"path": "/somewhere/else", "bytes": 0}'"#,
        "exit 0",
    );
    let warned = on_a_terminal(
        &s,
        &[],
        "volume create --plugin elsewhere --name a >/dev/null",
    )
    .unwrap();
    assert!(
        warned.starts_with("plugctl: \x1b[1m\x1b[33mwarning:\x1b[0m "),
        "{warned:?}"
    );
    // And on a pipe, none of it.
    plugctl(&s)
        .args(["fingerprint", "--type", "hostvolume"])
        .fails_with(Exit::NotFound)
        .stderr_has("plugctl: error: plugin type not found")
        .stderr_has("\n  tip: did you mean host-volume?\n");
}

//! How plugctl writes, through the real binary: a reader that goes away
//! ends the command quietly, and colour appears only when asked for and
//! never with NO_COLOR.

use crate::common::*;

/// Runs plugctl with stdout on a pipe whose read end is already closed, so
/// the first write fails with EPIPE however small the output is (an open
/// reader that is dropped later would race with a short write into the
/// pipe's buffer).
fn into_closed_pipe(s: &Rig) -> expect::Run {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let mut cmd = s.std_cmd();
    cmd.stdout(writer);
    expect::Run::new(cmd, "plugctl")
}

fn assert_quiet_success(s: &Rig, args: &[&str]) {
    into_closed_pipe(s)
        .args_from(args)
        .succeeds()
        .stderr_empty()
        // (nothing collected: stdout really went to the closed pipe)
        .stdout_empty();
}

#[test]
fn a_closed_pipe_ends_completions_quietly() {
    let s = Rig::new();
    // tens of kilobytes: more than a pipe holds
    let script = plugctl(&s).args(["completions", "bash"]).any_exit();
    assert!(script.stdout.len() > 65536);
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        assert_quiet_success(&s, &["completions", shell]);
    }
}

#[test]
fn a_closed_pipe_ends_json_and_tables_quietly() {
    let s = Rig::new();
    assert_quiet_success(&s, &["fingerprint"]);
    assert_quiet_success(&s, &["--json", "plugin", "list"]);
    assert_quiet_success(&s, &["plugin", "list"]);
    assert_quiet_success(&s, &["--json", "fingerprint", "--type", "host-volume"]);
}

#[test]
fn a_closed_pipe_ends_help_and_version_quietly() {
    let s = Rig::new();
    for args in [
        &["--help"][..],
        &["volume", "create", "--help"],
        &["help", "fingerprint"],
        &["--version"],
    ] {
        assert_quiet_success(&s, args);
    }
}

/// The fingerprint table with the built-in mkdir plugin, which always has a row.
fn host_volume_table(s: &Rig, env: &[(&str, &str)], args: &[&str]) -> expect::Ran {
    env.iter()
        .fold(plugctl(s), |run, (k, v)| run.env(k, v))
        .args_from(args)
        .args(["fingerprint", "--type", "host-volume"])
        .succeeds()
        .stdout_has("mkdir")
}

fn has_escape(bytes: &[u8]) -> bool {
    bytes.contains(&0x1b)
}

#[test]
fn always_colours_the_table_when_no_color_is_unset() {
    let s = Rig::new();
    for (env, args) in [
        (&[][..], &["--color", "always"][..]),
        (&[("PLUGCTL_COLOR", "always")], &[]),
        // no-color.org: an empty NO_COLOR does not count
        (&[("NO_COLOR", "")], &["--color", "always"]),
    ] {
        let out = host_volume_table(&s, env, args);
        let text = stdout(&out);
        let row = text.lines().find(|l| l.contains("mkdir")).unwrap();
        assert!(row.contains("\x1b["), "{env:?} {args:?}: {row:?}");
        assert!(!has_escape(&out.stderr), "{}", stderr(&out));
    }
}

#[test]
fn no_color_and_pipes_get_no_escapes() {
    let s = Rig::new();
    for (env, args) in [
        (&[("NO_COLOR", "1")][..], &["--color", "always"][..]),
        (&[("NO_COLOR", "1"), ("PLUGCTL_COLOR", "always")], &[]),
        (&[("NO_COLOR", "1")], &[]),
        // stdout is a pipe here, so auto means no colour
        (&[], &[]),
        (&[], &["--color", "auto"]),
        (&[], &["--color", "never"]),
        (&[("PLUGCTL_COLOR", "always")], &["--color", "never"]),
    ] {
        let out = host_volume_table(&s, env, args);
        assert!(
            !has_escape(&out.stdout),
            "{env:?} {args:?}: {:?}",
            stdout(&out)
        );
        assert!(
            !has_escape(&out.stderr),
            "{env:?} {args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn json_is_never_coloured() {
    let s = Rig::new();
    let out = host_volume_table(&s, &[], &["--color", "always", "--json"]);
    assert!(!has_escape(&out.stdout), "{}", stdout(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["schema_version"], 1);
}

#[test]
fn errors_on_a_pipe_get_no_escapes() {
    let s = Rig::new();
    for args in [
        &["--no-such-flag"][..],
        &["--color", "always", "plugin", "show", "host-volume", "nope"],
    ] {
        let out = plugctl(&s).env("NO_COLOR", "1").args_from(args).fails();
        assert!(!stderr(&out).is_empty());
        assert!(!has_escape(&out.stderr), "{args:?}: {:?}", stderr(&out));
        let out = plugctl(&s).args_from(args).any_exit();
        assert!(!has_escape(&out.stderr), "{args:?}: {:?}", stderr(&out));
    }
}

/// stderr of `plugctl ARGS` on a pseudo-terminal (stdout discarded), or None
/// where util-linux `script` is not there to make one.
fn stderr_on_a_terminal(s: &Rig, env: &[(&str, &str)], args: &str) -> Option<String> {
    let run = plugctl_on_a_terminal(s, &format!("{args} >/dev/null"))?;
    let run = env.iter().fold(run, |run, (k, v)| run.env(k, v));
    Some(run.succeeds().stdout())
}

#[test]
fn progress_only_on_a_capable_terminal_and_not_with_quiet() {
    let s = Rig::new();
    let Some(shown) = stderr_on_a_terminal(&s, &[], "fingerprint") else {
        return;
    };
    assert!(shown.contains("fingerprinting:"), "{shown:?}");
    // the line is erased when done, so the table starts on a clean line
    assert!(shown.ends_with("\r\x1b[2K"), "{shown:?}");
    for (env, args) in [
        (&[][..], "-q fingerprint"),
        (&[("TERM", "dumb")], "fingerprint"),
        (&[], "fingerprint 2>/dev/null"),
    ] {
        let text = stderr_on_a_terminal(&s, env, args).unwrap();
        assert!(!text.contains('\x1b'), "{env:?} {args}: {text:?}");
    }
}

#[test]
fn quiet_silences_warnings_but_not_errors() {
    let s = Rig::new();
    // A negative size from create is recorded but warned about.
    s.plugin(
        "host-volume",
        "relative",
        r#"case "$1" in
fingerprint) echo '{"version": "1.0.0"}' ;;
create) echo "{\"path\": \"$DHV_VOLUMES_DIR/$DHV_VOLUME_ID\", \"bytes\": -1}" ;;
esac"#,
    );
    plugctl(&s)
        .args(["volume", "create", "--plugin", "relative", "--name", "a"])
        .succeeds()
        .stderr_has("warning:");

    let out = plugctl(&s)
        .args([
            "-q", "volume", "create", "--plugin", "relative", "--name", "b",
        ])
        .succeeds();
    assert_eq!(stderr(&out), "", "-q leaves stderr empty");

    // Errors are never silenced.
    plugctl(&s)
        .args(["-q", "volume", "create", "--plugin", "nope", "--name", "c"])
        .fails_with(Exit::NotFound)
        .stderr_has("error:");
}

//! The habits operators bring from `nomad`, `systemctl` and `kubectl`:
//! usage lines and one error prefix, volumes by id prefix or name, short
//! tables, "did you mean", `--quiet`, and the smaller promises of
//! docs/cli.md that go with them. Each through the real binary.

use crate::common::*;

// ---- usage lines and errors ---------------------------------------------------

#[test]
fn a_usage_line_names_what_the_command_needs_not_what_the_environment_set() {
    // The sandbox sets PLUGCTL_REGISTRY, PLUGCTL_PLUGIN_DIR,
    // PLUGCTL_VOLUMES_DIR and PLUGCTL_NOMAD_CONFIG: none is required.
    let out = plugctl(&Sandbox::new())
        .args(["volume", "create"])
        .fails_with(Exit::Usage)
        .stderr_has("Usage: plugctl volume create [OPTIONS] --plugin <NAME> --name <NAME>\n");
    for set in [
        "--registry",
        "--plugin-dir",
        "--volumes-dir",
        "--nomad-config",
    ] {
        assert!(!out.stderr().contains(set), "{set}: {}", out.stderr());
    }
}

#[test]
fn every_error_starts_with_one_prefix() {
    let s = Sandbox::new();
    // clap's own (a bad value) and plugctl's (a value clap took).
    for (args, says) in [
        (&["fingerprint", "--timeout", "5"][..], "invalid value '5'"),
        (
            &["fingerprint", "--timeout", "0s"],
            "--timeout must be more than 0",
        ),
        (&["volume", "create", "--name", "x"], "required arguments"),
        (&["no-such-command"], "unrecognized subcommand"),
    ] {
        let out = plugctl(&s).args_from(args).fails_with(Exit::Usage);
        let err = out.stderr();
        assert!(
            err.starts_with("plugctl: error: ") && err.contains(says),
            "{args:?}: {err}"
        );
        assert!(!err.contains("\x1b["), "colour on a pipe: {err:?}");
    }
}

#[test]
fn a_usage_error_is_still_a_json_error_document() {
    let out = plugctl(&Sandbox::new())
        .args(["--json", "volume", "create", "--name", "x"])
        .fails_with(Exit::Usage)
        .error_kind("usage")
        .error_has("--plugin <NAME>")
        .stderr_has("plugctl: error: the following required arguments");
    let message = out.error()["message"].as_str().unwrap().to_string();
    assert!(
        !message.starts_with("error:") && !message.contains("Usage:"),
        "{message}"
    );
}

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

// ---- volumes by id, id prefix or name ---------------------------------------------

const WEB: &str = "0b5e2c1a-1111-4222-8333-444455556666";
const DB: &str = "0b5e2c1b-1111-4222-8333-444455556666";
const LOGS: &str = "7f000000-1111-4222-8333-444455556666";

/// Three mkdir volumes: `web-data` and `db` whose ids share 7 digits, and
/// `logs` in namespace `ops`.
fn three_volumes(s: &Sandbox) {
    for (id, name, ns) in [
        (WEB, "web-data", "default"),
        (DB, "db", "default"),
        (LOGS, "logs", "ops"),
    ] {
        create_volume(
            s,
            &[
                "--plugin",
                "mkdir",
                "--name",
                name,
                "--id",
                id,
                "--namespace",
                ns,
            ],
        );
    }
}

/// The id of the volume `volume show` printed as JSON.
fn shown(s: &Sandbox, args: &[&str]) -> String {
    let doc = plugctl(s)
        .args(["--json", "volume", "show"])
        .args_from(args)
        .succeeds()
        .json();
    id_of(&doc["volume"])
}

#[test]
fn a_volume_is_named_by_its_id_in_any_case_a_unique_prefix_or_its_name() {
    let s = Sandbox::new();
    three_volumes(&s);
    assert_eq!(shown(&s, &[&WEB.to_uppercase()]), WEB);
    assert_eq!(shown(&s, &["0b5e2c1a"]), WEB);
    assert_eq!(shown(&s, &["0B5E2C1B-11"]), DB);
    assert_eq!(shown(&s, &["7f00"]), LOGS);
    assert_eq!(shown(&s, &["db"]), DB);
    assert_eq!(shown(&s, &["logs", "--namespace", "ops"]), LOGS);
    // --id and --name read it one way only, as before.
    assert_eq!(shown(&s, &["--id", "0b5e2c1b"]), DB);
    assert_eq!(shown(&s, &["--name", "web-data"]), WEB);
    // The brief's case: a name where an id was expected just works.
    plugctl(&s)
        .args(["volume", "delete", "web-data"])
        .succeeds()
        .stdout_has(&format!("deleted volume {WEB}"));
    plugctl(&s).args(["volume", "delete", "7f00"]).succeeds();
    plugctl(&s)
        .args(["volume", "delete", "--name", "db"])
        .succeeds();
    assert!(list_volumes(&s).is_empty());
}

#[test]
fn a_volume_named_ambiguously_is_a_usage_error_listing_what_fits() {
    let s = Sandbox::new();
    three_volumes(&s);
    // A name that is also an id prefix: neither wins.
    create_volume(
        &s,
        &[
            "--plugin",
            "mkdir",
            "--name",
            "7f00",
            "--namespace",
            "default",
        ],
    );
    for args in [
        &["volume", "show", "0b5e2c1"][..],
        &["volume", "delete", "0b5e"],
    ] {
        plugctl(&s)
            .args_from(args)
            .fails_with(Exit::Usage)
            .stderr_has("names 2 volumes: 0b5e2c1a \"web-data\" (namespace default), 0b5e2c1b \"db\" (namespace default)")
            .stderr_has("--id or --name");
    }
    plugctl(&s)
        .args(["--json", "volume", "delete", "7f00"])
        .fails_with(Exit::Usage)
        .error_kind("usage")
        .error_has("7f000000 \"logs\" (namespace ops)")
        .error_has("\"7f00\" (namespace default)");
    assert_eq!(list_volumes(&s).len(), 4, "nothing was deleted");
    // What a plugin or a file controls is escaped in the list.
    create_volume(
        &s,
        &[
            "--plugin",
            "mkdir",
            "--name",
            "evil\x1b[2J",
            "--id",
            "0b5e0000-1111-4222-8333-444455556666",
        ],
    );
    let out = plugctl(&s)
        .args(["volume", "show", "0b5e"])
        .fails_with(Exit::Usage);
    assert!(!out.stderr().contains('\x1b'), "{:?}", out.stderr());
    out.stderr_has("names 3 volumes");
}

#[test]
fn a_volume_nothing_fits_is_not_found_naming_what_was_looked_for() {
    let s = Sandbox::new();
    three_volumes(&s);
    plugctl(&s)
        .args(["volume", "delete", "nope"])
        .fails_with(Exit::NotFound)
        .stderr_has("volume not found: \"nope\" (no volume has that name in namespace default, nor that id)");
    plugctl(&s)
        .args(["volume", "show", "0b5eff"])
        .fails_with(Exit::NotFound)
        .stderr_has("\"0b5eff\" (no volume has that name in namespace default, nor that id or an id starting with it)");
    // Too short to be a prefix: said, not guessed.
    plugctl(&s)
        .args(["volume", "show", "0b5"])
        .fails_with(Exit::NotFound)
        .stderr_has("an id prefix takes at least 4 characters");
    // A name lives in its namespace.
    plugctl(&s)
        .args(["volume", "show", "--name", "logs"])
        .fails_with(Exit::NotFound)
        .stderr_has("\"logs\" (no volume has that name in namespace default)");
}

//! The habits operators bring from `nomad`, `systemctl` and `kubectl`:
//! usage lines and one error prefix, volumes by id prefix or name, short
//! tables, "did you mean", `--quiet`, and the smaller promises of
//! docs/cli.md that go with them. Each through the real binary.

use crate::common::*;

// ---- usage lines and errors ---------------------------------------------------

#[test]
fn a_usage_line_names_what_the_command_needs_not_what_the_environment_set() {
    // The rig sets PLUGCTL_REGISTRY, PLUGCTL_PLUGIN_DIR,
    // PLUGCTL_VOLUMES_DIR and PLUGCTL_NOMAD_CONFIG: none is required.
    let out = plugctl(&Rig::new())
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
    let s = Rig::new();
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
    let out = plugctl(&Rig::new())
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
fn three_volumes(s: &Rig) {
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
fn shown(s: &Rig, args: &[&str]) -> String {
    let doc = plugctl(s)
        .args(["--json", "volume", "show"])
        .args_from(args)
        .succeeds()
        .json();
    id_of(&doc["volume"])
}

#[test]
fn a_volume_is_named_by_its_id_in_any_case_a_unique_prefix_or_its_name() {
    let s = Rig::new();
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

/// A name may be anything, another volume's full id too: that id then
/// names two volumes, and a script's `volume delete "$NAME"` deletes
/// neither rather than the one whose id it is.
#[test]
fn a_name_that_is_another_volumes_full_id_is_ambiguous_not_the_id() {
    let s = Rig::new();
    three_volumes(&s);
    create_volume(&s, &["--plugin", "mkdir", "--name", WEB]);
    plugctl(&s)
        .args(["volume", "delete", WEB])
        .fails_with(Exit::Usage)
        .stderr_has("names 2 volumes");
    assert_eq!(list_volumes(&s).len(), 4, "nothing was deleted");
    // Read one way only, each is found.
    plugctl(&s).args(["volume", "show", "--id", WEB]).succeeds();
    plugctl(&s)
        .args(["volume", "delete", "--name", WEB])
        .succeeds();
    plugctl(&s)
        .args(["volume", "show", WEB])
        .succeeds()
        .stdout_has("web-data");
}

#[test]
fn a_volume_named_ambiguously_is_a_usage_error_listing_what_fits() {
    let s = Rig::new();
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
    let s = Rig::new();
    three_volumes(&s);
    plugctl(&s)
        .args(["volume", "delete", "nope"])
        .fails_with(Exit::NotFound)
        .stderr_has("volume not found: \"nope\" (no volume has that name in namespace default, nor that id)");
    plugctl(&s)
        .args(["volume", "show", "0b5eff"])
        .fails_with(Exit::NotFound)
        .stderr_has("\"0b5eff\" (no volume has that name in namespace default, nor that id or an id starting with it)");
    // A whole id that is not there is no prefix of anything.
    plugctl(&s)
        .args(["volume", "show", "0b5e2c1a-1111-4222-8333-000000000000"])
        .fails_with(Exit::NotFound)
        .stderr_has("(no volume has that name in namespace default, nor that id)\n");
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

// ---- short ids, binary units, ages ------------------------------------------------

/// A host-volume plugin whose create reports `bytes` of its volume.
fn sized_plugin(s: &Rig, name: &str, bytes: u64) {
    s.hv_script(
        name,
        &format!(r#"mkdir -p "$v" && printf '{{"path": "%s", "bytes": {bytes}}}' "$v""#),
        r#"rm -rf "$v""#,
    );
}

#[test]
fn tables_show_short_ids_and_binary_sizes_and_json_the_whole_of_both() {
    let s = Rig::new();
    sized_plugin(&s, "sized", 10 << 20);
    create_volume(
        &s,
        &["--plugin", "sized", "--name", "web-data", "--id", WEB],
    );
    let row = |out: &str| {
        out.lines()
            .find(|l| l.contains("web-data"))
            .unwrap_or_else(|| panic!("no row: {out}"))
            .to_string()
    };
    let out = plugctl(&s).args(["volume", "list"]).succeeds().stdout();
    let line = row(&out);
    assert!(line.starts_with("0b5e2c1a  "), "{out}");
    assert!(!line.starts_with(WEB), "{out}");
    assert!(line.contains("  10 MiB  "), "{out}");
    assert!(out.lines().next().unwrap().contains("SIZE"), "{out}");
    // One volume's page has room for its whole id, and its size readable.
    let out = plugctl(&s)
        .args(["volume", "show", "web-data"])
        .succeeds()
        .stdout();
    assert!(out.contains(&format!("\nid            {WEB}\n")), "{out}");
    assert!(out.contains("\nsize          10 MiB\n"), "{out}");
    // -v: the whole id.
    let out = plugctl(&s)
        .args(["-v", "volume", "list"])
        .succeeds()
        .stdout();
    assert!(row(&out).starts_with(&format!("{WEB}  ")), "{out}");
    // JSON: the whole id and the exact bytes, with or without -v.
    for verbose in [&[][..], &["-v"]] {
        let doc = plugctl(&s)
            .args_from(verbose)
            .args(["--json", "volume", "list"])
            .succeeds()
            .json();
        assert_eq!(doc["volumes"][0]["id"], WEB, "{doc}");
        assert_eq!(doc["volumes"][0]["bytes"], 10 << 20, "{doc}");
    }
    // A pinned plugin's size too.
    let size = std::fs::metadata(s.plugins.join("host-volume/sized"))
        .unwrap()
        .len();
    plugctl(&s)
        .args(["pin"])
        .succeeds()
        .stdout_has(&format!("  {size} B  "));
    // The short id names the volume again.
    plugctl(&s)
        .args(["volume", "show", "0b5e2c1a"])
        .succeeds()
        .stdout_has("web-data");
}

#[test]
fn ids_that_share_their_first_8_characters_are_shown_long_enough_to_tell_apart() {
    let s = Rig::new();
    // Two ids alike for 10 characters, a third alike for 8 only.
    let (a, b, c) = (
        "0b5e2c1a-77aa-4f1e-9c3d-000000000001",
        "0b5e2c1a-77bb-4f1e-9c3d-000000000002",
        "0b5e2c1a-8000-4f1e-9c3d-000000000003",
    );
    for (id, name) in [(a, "a"), (b, "b"), (c, "c")] {
        create_volume(&s, &["--plugin", "mkdir", "--name", name, "--id", id]);
    }
    let other = create_volume(&s, &["--plugin", "mkdir", "--name", "other"])["id"]
        .as_str()
        .unwrap()
        .to_string();
    let out = plugctl(&s).args(["volume", "list"]).succeeds().stdout();
    let shown = |name: &str| -> String {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .unwrap_or_else(|| panic!("no row {name}: {out}"));
        line.split_whitespace().next().unwrap().to_string()
    };
    assert_eq!(shown("a"), "0b5e2c1a-77a", "{out}");
    assert_eq!(shown("b"), "0b5e2c1a-77b", "{out}");
    assert_eq!(shown("c"), "0b5e2c1a-8", "{out}");
    assert_eq!(shown("other").len(), 8, "{out}");
    assert!(other.starts_with(&shown("other")));
    // What a table shows names the volume again, each one.
    for name in ["a", "b", "c", "other"] {
        plugctl(&s)
            .args(["volume", "show", &shown(name)])
            .succeeds()
            .stdout_has(&format!("\nname          {name}\n"));
    }
    // A create's own row is as long as its id needs too.
    let out = plugctl(&s)
        .args(["volume", "create", "--plugin", "mkdir", "--name", "d"])
        .args(["--id", "0b5e2c1a-77cc-4f1e-9c3d-000000000004"])
        .succeeds()
        .stdout();
    assert!(
        out.starts_with("ID ") && out.contains("\n0b5e2c1a-77c  "),
        "{out}"
    );
}

#[test]
fn plugin_tables_say_when_each_plugin_was_last_checked() {
    let s = Rig::new();
    s.hv_ok("dir", "1.0.0");
    plugctl(&s).args(["fingerprint"]).succeeds();
    for args in [
        &["plugin", "list"][..],
        &["plugin", "show", "host-volume", "dir"],
    ] {
        let out = plugctl(&s).args_from(args).succeeds().stdout();
        assert!(out.lines().next().unwrap().contains("CHECKED"), "{out}");
        let line = out.lines().find(|l| l.contains(" dir ")).unwrap();
        assert!(
            line.contains(" s ago  ") || line.contains(" min ago  "),
            "{args:?}: {out}"
        );
    }
    // A check a day ago reads as one: the age is the record's, not now.
    let mut reg = s.registry_file();
    let mut aged = 0;
    if let Some(list) = reg["plugins"]["host-volume"]["dir"].as_array_mut() {
        for inst in list {
            inst["updated_at"] = "2020-01-01T00:00:00.000Z".into();
            aged += 1;
        }
    }
    assert!(aged > 0, "no record to age: {reg}");
    s.write_registry(reg.to_string());
    let out = plugctl(&s)
        .args(["plugin", "show", "host-volume", "dir"])
        .succeeds()
        .stdout();
    assert!(out.contains(" days ago  "), "{out}");
    // JSON keeps the time itself.
    let doc = plugctl(&s)
        .args(["--json", "plugin", "list"])
        .succeeds()
        .json();
    let dir = doc["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "dir")
        .unwrap()
        .clone();
    assert_eq!(dir["updated_at"], "2020-01-01T00:00:00.000Z", "{doc}");
}

// ---- empty lists --------------------------------------------------------------------

#[test]
fn an_empty_list_says_so_on_stderr_and_json_stays_a_document() {
    let s = Rig::new();
    for (args, says) in [
        (&["volume", "list"][..], "no volumes\n"),
        (
            &["volume", "list", "--plugin", "mkdir"],
            "no volumes of plugin mkdir\n",
        ),
        (&["plugin", "list"], "no plugins\n"),
        (&["events"], "no events\n"),
        (&["events", "--since", "5"], "no events after event 5\n"),
        (
            &["volume", "repair"],
            "nothing to repair: no volume is pending or deleting\n",
        ),
        (&["volume", "audit"], "no volumes, and nothing else in "),
        (&["pin"], " (0 plugins pinned)\n"),
    ] {
        let out = plugctl(&s).args_from(args).succeeds().stdout_empty();
        assert!(
            out.stderr().ends_with(says) || out.stderr().contains(says),
            "{args:?}: {:?}",
            out.stderr()
        );
    }
    let doc = plugctl(&s)
        .args(["--json", "volume", "list"])
        .succeeds()
        .stderr_empty()
        .json();
    assert_eq!(doc["volumes"], serde_json::json!([]), "{doc}");
    let doc = plugctl(&s)
        .args(["--json", "plugin", "list"])
        .succeeds()
        .stderr_empty()
        .json();
    assert_eq!(doc["plugins"], serde_json::json!([]), "{doc}");
    // events --json: one object per line, so none at all.
    plugctl(&s)
        .args(["--json", "events"])
        .succeeds()
        .stdout_empty()
        .stderr_empty();
    // -q: not even that.
    plugctl(&s)
        .args(["-q", "volume", "list"])
        .succeeds()
        .stdout_empty()
        .stderr_empty();
}

// ---- did you mean -------------------------------------------------------------------

#[test]
fn a_mistyped_type_or_plugin_name_gets_a_did_you_mean() {
    let s = Rig::new();
    s.hv_ok("quota-dir", "1.0.0");
    s.secrets_ok("env-file");
    plugctl(&s).args(["fingerprint"]).succeeds();
    for (args, exit, says) in [
        (
            &["fingerprint", "--type", "hostvolume"][..],
            Exit::NotFound,
            "plugin type not found: hostvolume",
        ),
        (
            &["fingerprint", "quota-dri"],
            Exit::NotFound,
            "plugin not found: quota-dri",
        ),
        (
            &["pin", "quota-dri"],
            Exit::NotFound,
            "plugin not found: quota-dri",
        ),
        (
            &["pin", "--type", "hostvolume"][..],
            Exit::NotFound,
            "plugin type not found: hostvolume",
        ),
        (
            &["pin", "--check", "--type", "hostvolume"][..],
            Exit::NotFound,
            "plugin type not found: hostvolume",
        ),
        (
            &["volume", "create", "--plugin", "quotadir", "--name", "x"],
            Exit::NotFound,
            "plugin not found: host-volume/quotadir",
        ),
        (
            &["secret", "fetch", "env-fil", "app/db"],
            Exit::NotFound,
            "plugin not found: secrets/env-fil",
        ),
        (
            &["plugin", "show", "host-volume", "quota-di"],
            Exit::NotFound,
            "plugin not found: host-volume/quota-di",
        ),
        (
            &["test", "hostvolume", "quota-dir"],
            Exit::Usage,
            "no conformance suite",
        ),
    ] {
        let out = plugctl(&s)
            .args_from(args)
            .fails_with(exit)
            .stderr_has(says);
        let want = match args {
            a if a.contains(&"hostvolume") => "; did you mean host-volume?",
            a if a.contains(&"env-fil") => "; did you mean env-file?",
            _ => "; did you mean quota-dir?",
        };
        assert!(
            out.stderr().trim_end().ends_with(want),
            "{args:?}: {}",
            out.stderr()
        );
    }
    // The JSON error document says it too, its kind unchanged.
    plugctl(&s)
        .args(["--json", "plugin", "show", "hostvolume", "quota-dir"])
        .fails_with(Exit::NotFound)
        .error_kind("not_found")
        .error_has("did you mean host-volume?");
    // An empty list with a mistyped type says it, and succeeds.
    plugctl(&s)
        .args(["plugin", "list", "--type", "hostvolume"])
        .succeeds()
        .stdout_empty()
        .stderr_has("no plugins of type hostvolume; did you mean host-volume?");
    // Nothing close: no guess.
    plugctl(&s)
        .args(["volume", "create", "--plugin", "zzz", "--name", "x"])
        .fails_with(Exit::NotFound)
        .stderr_lacks("did you mean");
    // A mistyped type pinned nothing, so the lock file was never written.
    assert!(!s.plugins.join("plugctl.lock").exists());
}

#[test]
fn a_type_whose_directory_went_away_is_checked_against_its_pins() {
    let s = Rig::new();
    s.secrets_ok("env-file");
    plugctl(&s).args(["pin"]).succeeds();
    std::fs::remove_dir_all(s.plugins.join("secrets")).unwrap();
    // Not a typo: the lock file pins plugins of that type.
    plugctl(&s)
        .args(["pin", "--check", "--type", "secrets"])
        .fails_with(Exit::Failure)
        .stdout_has("removed")
        .stdout_has("env-file");
    // Named too: a plugin pinned whose file is gone is removed, not unknown.
    plugctl(&s)
        .args(["pin", "--check", "--type", "secrets", "env-file"])
        .fails_with(Exit::Failure)
        .stdout_has("removed");
    plugctl(&s)
        .args(["pin", "--type", "secrets"])
        .succeeds()
        .stdout_has("removed");
}

#[test]
fn a_file_name_no_plugin_may_have_is_never_offered() {
    let s = Rig::new();
    s.hv_ok("dir\x1b[2J", "1.0.0");
    let out = plugctl(&s)
        .args(["volume", "create", "--plugin", "dir", "--name", "x"])
        .fails_with(Exit::NotFound)
        .stderr_has("plugin not found: host-volume/dir")
        .stderr_lacks("did you mean");
    assert!(!out.stderr().contains('\x1b'), "{:?}", out.stderr());
}

// ---- JSON errors and --json where there is no JSON ----------------------------------

#[test]
fn a_plugin_that_is_not_found_has_no_plugin_or_operation_in_its_error_document() {
    let s = Rig::new();
    for args in [
        &[
            "--json", "volume", "create", "--plugin", "nosuch", "--name", "x",
        ][..],
        &["--json", "secret", "fetch", "nosuch", "app/db"],
        &["--json", "plugin", "show", "host-volume", "nosuch"],
        &["--json", "fingerprint", "nosuch"],
    ] {
        let out = plugctl(&s)
            .args_from(args)
            .fails_with(Exit::NotFound)
            .error_kind("not_found");
        let error = out.error();
        for key in ["plugin", "operation", "subject"] {
            assert!(
                error.get(key).is_some_and(serde_json::Value::is_null),
                "{args:?}: {key} in {error}"
            );
        }
    }
}

#[test]
fn json_with_a_command_that_prints_no_json_is_a_usage_error() {
    let s = Rig::new();
    for (args, says) in [
        (
            &["--json", "metrics"][..],
            "metrics prints the Prometheus text format",
        ),
        (
            &["metrics", "--json"],
            "metrics prints the Prometheus text format",
        ),
        (
            &["--json", "completions", "bash"],
            "completions prints a shell script",
        ),
    ] {
        let out = plugctl(&s)
            .args_from(args)
            .fails_with(Exit::Usage)
            .stderr_has(says)
            .error_kind("usage");
        assert!(!out.stdout().contains("# HELP"), "{}", out.stdout());
    }
    // Without --json both print their formats.
    plugctl(&s)
        .args(["metrics"])
        .succeeds()
        .stdout_has("# HELP");
    plugctl(&s)
        .args(["completions", "bash"])
        .succeeds()
        .stdout_has("complete");
}

// ---- --quiet --------------------------------------------------------------------------

#[test]
fn quiet_actions_print_nothing_but_errors_and_a_failed_plugin_still_fails() {
    let s = Rig::new();
    s.hv_ok("dir", "1.0.0");
    s.hv_script(
        "made",
        r#"mkdir -p "$v" && printf '{"path": "%s", "bytes": 0}' "$v""#,
        r#"rm -rf "$v""#,
    );
    for args in [
        &["fingerprint"][..],
        &[
            "volume", "create", "--plugin", "made", "--name", "a", "--id", WEB,
        ],
        &["volume", "restore"],
        &["volume", "repair"],
        &["volume", "audit"],
        &["plugin", "forget", "host-volume", "gone"],
        &["volume", "delete", "a"],
        &["pin"],
        &["init", "secrets", "scaffolded", "--dir", "scaffold"],
    ] {
        let (run, quiet) = (plugctl(&s).current_dir(s.root()), args[0] != "plugin");
        if quiet {
            run.arg("-q")
                .args_from(args)
                .succeeds()
                .stdout_empty()
                .stderr_empty();
        } else {
            // Not on record: an error, said under -q as always.
            run.arg("--quiet")
                .args_from(args)
                .fails_with(Exit::NotFound)
                .stdout_empty()
                .stderr_has("plugctl: error: plugin not found");
        }
    }
    // Without -q the same commands print their tables.
    plugctl(&s)
        .args(["fingerprint"])
        .succeeds()
        .stdout_has("HEALTH");
    // An unhealthy plugin: no table, one error naming it, exit 1.
    s.plugin("host-volume", "broken", "exit 3");
    let out = plugctl(&s)
        .args(["-q", "fingerprint", "--textfile"])
        .arg(s.root())
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has("plugctl: error: 1 of ");
    assert_eq!(out.stderr().lines().count(), 1, "{}", out.stderr());
    out.stderr_has("host-volume/broken");
    assert!(
        s.root().join("plugctl.prom").exists(),
        "the textfile is still written"
    );
    // What a command is asked to show is shown, -q or not.
    plugctl(&s)
        .args(["-q", "plugin", "list"])
        .succeeds()
        .stdout_has("broken");
    plugctl(&s)
        .args(["-q", "fingerprint", "--dry-run"])
        .succeeds()
        .stdout_has("would run");
    // --json -q: the document a script asked for is printed.
    let doc = plugctl(&s)
        .args([
            "-q",
            "--json",
            "fingerprint",
            "--type",
            "host-volume",
            "dir",
        ])
        .succeeds()
        .stderr_empty()
        .json();
    assert_eq!(doc["plugins"][0]["name"], "dir", "{doc}");
}

#[test]
fn quiet_silences_warnings_too() {
    let s = Rig::new();
    // A negative size is recorded with a warning.
    s.hv_script(
        "elsewhere",
        r#"printf '{"path": "%s", "bytes": -1}' "$v""#,
        "exit 0",
    );
    plugctl(&s)
        .args(["volume", "create", "--plugin", "elsewhere", "--name", "a"])
        .succeeds()
        .stderr_has("plugctl: warning:");
    plugctl(&s)
        .args([
            "-q",
            "volume",
            "create",
            "--plugin",
            "elsewhere",
            "--name",
            "b",
        ])
        .succeeds()
        .stdout_empty()
        .stderr_empty();
}

#[test]
fn the_shipped_timer_runs_fingerprint_quietly() {
    let unit = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("deploy/systemd/plugctl-fingerprint.service"),
    )
    .unwrap();
    let exec = unit.lines().find(|l| l.starts_with("ExecStart=")).unwrap();
    assert!(exec.contains(" --quiet fingerprint"), "{exec}");
}

// ---- volume create's action -----------------------------------------------------------

#[test]
fn creating_a_volume_that_exists_as_asked_is_unchanged() {
    let s = Rig::new();
    sized_plugin(&s, "sized", 4096);
    let create = |extra: &[&str]| {
        plugctl(&s)
            .args(["--json", "volume", "create", "--plugin", "sized"])
            .args(["--name", "web-data", "--id", WEB])
            .args_from(extra)
            .succeeds()
            .json()
    };
    let doc = create(&["--param", "a=1"]);
    assert_eq!(doc["action"], "created", "{doc}");
    assert_eq!(doc["volume"]["id"], WEB, "{doc}");
    let doc = create(&["--param", "a=1"]);
    assert_eq!(doc["action"], "unchanged", "{doc}");
    let doc = create(&["--param", "a=2"]);
    assert_eq!(doc["action"], "updated", "{doc}");
    assert_eq!(doc["volume"]["parameters"]["a"], "2", "{doc}");
    let doc = create(&["--param", "a=2", "--capacity-max", "1MiB"]);
    assert_eq!(doc["action"], "updated", "{doc}");
    // The id in any case is the same volume.
    let doc = plugctl(&s)
        .args(["--json", "volume", "create", "--plugin", "sized"])
        .args(["--name", "web-data", "--id", &WEB.to_uppercase()])
        .args(["--param", "a=2", "--capacity-max", "1MiB"])
        .succeeds()
        .json();
    assert_eq!(doc["action"], "unchanged", "{doc}");
    // People read it on stderr; the table is as for any create.
    plugctl(&s)
        .args(["volume", "create", "--plugin", "sized", "--name", "web-data"])
        .args(["--id", WEB, "--param", "a=2", "--capacity-max", "1MiB"])
        .succeeds()
        .stdout_has("0b5e2c1a  web-data")
        .stderr_has("volume 0b5e2c1a-1111-4222-8333-444455556666 (\"web-data\", namespace default) unchanged: it existed with these capacities and parameters");
}

// ---- where a setting came from --------------------------------------------------------

#[test]
fn verbose_names_the_flag_or_the_variable_clap_took_a_value_from() {
    let s = Rig::new();
    let plugins = s.plugins.display().to_string();
    let volumes = s.volumes.display().to_string();
    // The rig sets PLUGCTL_PLUGIN_DIR and PLUGCTL_VOLUMES_DIR.
    plugctl(&s)
        .args(["-v", "volume", "list"])
        .succeeds()
        .stderr_has(&format!(
            "plugin directory: {plugins} (from PLUGCTL_PLUGIN_DIR)"
        ))
        .stderr_has(&format!("volumes: {volumes} (from PLUGCTL_VOLUMES_DIR)"));
    // The flag, with the same value as the variable beside it, is the flag.
    plugctl(&s)
        .args(["-v", "volume", "list", "--plugin-dir", &plugins])
        .succeeds()
        .stderr_has(&format!("plugin directory: {plugins} (from --plugin-dir)"))
        .stderr_has(&format!("volumes: {volumes} (from PLUGCTL_VOLUMES_DIR)"));
    // A variable unset: a default (Nomad's as root, else a user's own),
    // named neither a flag nor a variable.
    let out = plugctl(&s)
        .env_remove("PLUGCTL_VOLUMES_DIR")
        .env("XDG_STATE_HOME", s.root().join("state"))
        .args(["-v", "volume", "list"])
        .succeeds();
    let line = out
        .stderr()
        .lines()
        .find(|l| l.starts_with("plugctl: volumes: "))
        .unwrap()
        .to_string();
    assert!(
        !line.contains("(from ") && (line.contains("as root") || line.contains("$XDG_STATE_HOME")),
        "{line}"
    );
}

#[test]
fn volume_list_takes_a_namespace_and_a_plugin() {
    let s = Rig::new();
    three_volumes(&s);
    let names = |args: &[&str]| -> Vec<String> {
        plugctl(&s)
            .args(["--json", "volume", "list"])
            .args_from(args)
            .succeeds()
            .json()["volumes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(names(&[]), ["db", "web-data", "logs"]);
    assert_eq!(names(&["--namespace", "ops"]), ["logs"]);
    assert_eq!(
        names(&["--namespace", "default", "--plugin", "mkdir"]),
        ["db", "web-data"]
    );
    plugctl(&s)
        .args(["volume", "list", "--namespace", "nope", "--plugin", "mkdir"])
        .succeeds()
        .stdout_empty()
        .stderr_has("no volumes in namespace nope of plugin mkdir\n");
}

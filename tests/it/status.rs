//! `plugctl status` (issue 33 §4): is this node fine, in one screen,
//! through the real binary. Exit 0 when all is well, 1 with each thing
//! that needs attention said first; `-o json` the same as a document.

use crate::common::*;

/// A node that is fine: a healthy plugin fingerprinted a moment ago, its
/// textfile just written, a ready volume. Returns the textfile directory.
fn fine_node(s: &Rig) -> std::path::PathBuf {
    s.hv_ok("dir", "1.0.0");
    let textfiles = s.root().join("textfiles");
    make_dir(&textfiles);
    plugctl(s)
        .args(["fingerprint", "--textfile"])
        .arg(&textfiles)
        .succeeds();
    create_volume(s, &["--plugin", "mkdir", "--name", "web"]);
    textfiles
}

fn status(s: &Rig, textfiles: &std::path::Path) -> expect::Run {
    plugctl(s).args(["status", "--textfile"]).arg(textfiles)
}

#[test]
fn a_node_that_is_fine_says_so_and_exits_0() {
    let s = Rig::new();
    let textfiles = fine_node(&s);
    let out = status(&s, &textfiles).succeeds().stdout();
    let first = out.lines().next().unwrap();
    assert_eq!(first, "● this node is fine", "{out}");
    for says in [
        "\nagent config   none read\n",
        &format!(
            "\nplugin dir     {} (from PLUGCTL_PLUGIN_DIR)\n",
            s.plugins.display()
        ),
        &format!(
            "\nvolumes dir    {} (from PLUGCTL_VOLUMES_DIR)\n",
            s.volumes.display()
        ),
        "\nplugins        4 healthy, 0 unhealthy, 0 gone\n",
        "\nvolumes        1 ready, 0 pending, 0 deleting\n",
        &format!("\ntextfile       {}/plugctl.prom (", textfiles.display()),
        "\nsandbox        ",
        "namespaces: ",
    ] {
        assert!(out.contains(says), "{says:?} in\n{out}");
    }
    assert!(
        out.contains(&format!("\nregistry       {} (", s.registry.display())),
        "{out}"
    );
    let doc = status(&s, &textfiles)
        .arg("-o")
        .arg("json")
        .succeeds()
        .json();
    assert_eq!(doc["ok"], true, "{doc}");
    assert_eq!(doc["attention"], serde_json::json!([]), "{doc}");
    // dir, and the built-ins mkdir, nomad and vault.
    assert_eq!(doc["plugins"]["healthy"], 4, "{doc}");
    assert_eq!(doc["volumes"]["ready"], 1, "{doc}");
    assert_eq!(doc["fingerprint"]["stale"], false, "{doc}");
    assert!(
        doc["fingerprint"]["age_seconds"].as_u64().unwrap() < 600,
        "{doc}"
    );
    assert_eq!(doc["textfile"]["exists"], true, "{doc}");
    assert_eq!(doc["registry"]["exists"], true, "{doc}");
    assert!(
        doc["registry"]["journal_segments"].as_u64().unwrap() >= 1,
        "{doc}"
    );
    assert!(doc["registry"]["seq"].as_u64().unwrap() >= 4, "{doc}");
    assert_eq!(
        doc["layout"]["plugin_dir"]["from"], "from PLUGCTL_PLUGIN_DIR",
        "{doc}"
    );
    let namespaces = doc["kernel"]["namespaces"].as_array().unwrap();
    assert_eq!(namespaces.len(), 7, "{doc}");
    assert!(doc["kernel"]["seccomp"].is_boolean(), "{doc}");
}

#[test]
fn what_needs_attention_is_said_first_and_exits_1() {
    let s = Rig::new();
    let textfiles = fine_node(&s);
    // An unhealthy plugin, one gone from its directory, and a volume a
    // failed create left pending.
    s.plugin("host-volume", "broken", "echo 'disk on fire' >&2; exit 3");
    s.secrets_ok("old");
    plugctl(&s).args(["fingerprint"]).fails_with(Exit::Failure);
    std::fs::remove_file(s.plugins.join("secrets/old")).unwrap();
    s.hv_script("half", "echo not-json", "exit 0");
    plugctl(&s)
        .args(["volume", "create", "--plugin", "half", "--name", "half"])
        .args(["--id", "7f000001-1111-4222-8333-444455556666"])
        .fails_with(Exit::Failure);
    let out = status(&s, &textfiles).fails_with(Exit::Failure);
    let text = out.stdout();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "● this node needs attention: 3 things", "{text}");
    assert!(
        lines[1].starts_with("  ! plugin host-volume/broken is unhealthy: "),
        "{text}"
    );
    assert!(
        lines[2].starts_with("  ! plugin secrets/old is gone: "),
        "{text}"
    );
    assert!(
        lines[2].contains("plugctl plugin forget secrets old"),
        "{text}"
    );
    assert_eq!(
        lines[3],
        "  ! volume 7f000001-1111-4222-8333-444455556666 (\"half\", namespace default) is pending: run `plugctl volume repair`",
        "{text}"
    );
    assert!(
        text.contains("\nplugins        4 healthy, 1 unhealthy, 1 gone\n"),
        "{text}"
    );
    assert!(
        text.contains("\nvolumes        1 ready, 1 pending, 0 deleting\n"),
        "{text}"
    );
    out.stderr_has("plugctl: error: status: 3 things to look at on this node");
    let doc = status(&s, &textfiles)
        .args(["-o", "json"])
        .fails_with(Exit::Failure)
        .json();
    assert_eq!(doc["ok"], false, "{doc}");
    assert_eq!(doc["attention"].as_array().unwrap().len(), 3, "{doc}");
    let problems = doc["plugins"]["problems"].as_array().unwrap();
    assert_eq!(problems[0]["state"], "unhealthy", "{doc}");
    assert_eq!(problems[1]["state"], "gone", "{doc}");
    assert_eq!(
        doc["volumes"]["need_repair"][0]["id"], "7f000001-1111-4222-8333-444455556666",
        "{doc}"
    );
    // Repaired and forgotten, only the unhealthy plugin is left.
    plugctl(&s).args(["volume", "repair"]).any_exit();
    plugctl(&s)
        .args(["plugin", "forget", "secrets", "old"])
        .succeeds();
    let doc = status(&s, &textfiles)
        .args(["--json"])
        .fails_with(Exit::Failure)
        .json();
    assert_eq!(doc["attention"].as_array().unwrap().len(), 1, "{doc}");
    std::fs::remove_file(s.plugins.join("host-volume/broken")).unwrap();
    plugctl(&s).args(["fingerprint"]).any_exit();
    plugctl(&s)
        .args(["plugin", "forget", "host-volume", "broken"])
        .succeeds();
    plugctl(&s)
        .args(["fingerprint", "--textfile"])
        .arg(&textfiles)
        .succeeds();
    status(&s, &textfiles).succeeds();
}

#[test]
fn an_old_fingerprint_a_missing_textfile_and_none_at_all_need_attention() {
    let s = Rig::new();
    // Nothing fingerprinted yet.
    plugctl(&s)
        .args(["status"])
        .arg("--textfile")
        .arg(s.root())
        .fails_with(Exit::Failure)
        .stdout_has("  ! no plugin was ever fingerprinted here: run `plugctl fingerprint`")
        .stdout_has(&format!(
            "  ! {}/plugctl.prom is not there: node_exporter has no plugin health from this node",
            s.root().display()
        ));
    let textfiles = fine_node(&s);
    // The last check a long time ago: the record's time, not the file's.
    let mut reg = s.registry_file();
    for family in reg["plugins"].as_object_mut().unwrap().values_mut() {
        for list in family.as_object_mut().unwrap().values_mut() {
            for inst in list.as_array_mut().unwrap() {
                inst["updated_at"] = "2020-01-01T00:00:00.000Z".into();
            }
        }
    }
    s.write_registry(reg.to_string());
    status(&s, &textfiles)
        .fails_with(Exit::Failure)
        .stdout_has("  ! the last fingerprint is ")
        .stdout_has(" days old (more than 15m): is plugctl-fingerprint.timer running?");
    // A threshold of one's own.
    status(&s, &textfiles)
        .args(["--stale-after", "100000days"])
        .succeeds();
    // The variable the systemd unit sets names the directory too.
    plugctl(&s)
        .env("PLUGCTL_TEXTFILE_DIR", &textfiles)
        .args(["--json", "status", "--stale-after", "100000days"])
        .succeeds();
    plugctl(&s)
        .args(["status", "-o", "name"])
        .fails_with(Exit::Usage)
        .stderr_has("status has no list of names");
}

#[test]
fn status_on_an_80_column_terminal_fits_it() {
    let s = Rig::new();
    let textfiles = fine_node(&s);
    s.plugin(
        "host-volume",
        "broken",
        "echo 'a reason long enough to be cut at the edge of an eighty column terminal, surely' >&2; exit 3",
    );
    plugctl(&s).args(["fingerprint"]).any_exit();
    let Some(run) = plugctl_on_a_terminal_of(
        &s,
        80,
        &format!("--color never status --textfile '{}'", textfiles.display()),
    ) else {
        return;
    };
    let shown = crate::tables::screen(&run.fails_with(Exit::Failure).stdout(), 80);
    assert!(
        shown[0].starts_with("● this node needs attention"),
        "{shown:#?}"
    );
    for line in &shown {
        assert!(plugctl::output::display_width(line) <= 80, "{line:?}");
    }
    assert!(shown.iter().any(|l| l.ends_with('…')), "{shown:#?}");
}

/// The `plugctl fingerprint --textfile DIR` status suggests for a missing
/// textfile names DIR as one shell word: pasted, it writes the file there
/// and runs nothing a directory's name holds.
#[test]
fn the_textfile_directory_status_suggests_is_one_shell_word() {
    let s = Rig::new();
    s.hv_ok("disk", "1.0.0");
    let dir = s.root().join("text files;touch pwned");
    make_dir(&dir);
    let shown = plugctl(&s)
        .args(["status", "--textfile"])
        .arg(&dir)
        .fails_with(Exit::Failure)
        .stdout();
    let command = suggested(&shown, "plugctl fingerprint --textfile ");
    paste(&s, &command);
    assert!(
        !s.out.join("pwned").exists(),
        "pasting `{command}` ran touch"
    );
    assert!(
        dir.join("plugctl.prom").exists(),
        "`{command}` wrote no textfile"
    );
}

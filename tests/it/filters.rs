//! Lists that filter (issue 33 §3), through the real binary: `volume list
//! --plugin --state --namespace --name GLOB`, `plugin list --type
//! --unhealthy`, `events --kind --since --until --tail`, and `plugin show
//! NAME` without its type.

use crate::common::*;

/// The names `volume list ARGS --json` lists, in order.
fn volume_names(s: &Rig, args: &[&str]) -> Vec<String> {
    plugctl(s)
        .args(["--json", "volume", "list"])
        .args_from(args)
        .succeeds()
        .json()["volumes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn volume_list_filters_by_state_name_plugin_and_namespace() {
    let s = Rig::new();
    for (name, ns) in [
        ("web-data", "default"),
        ("web-logs", "default"),
        ("db", "default"),
        ("web-ops", "ops"),
    ] {
        create_volume(
            &s,
            &["--plugin", "mkdir", "--name", name, "--namespace", ns],
        );
    }
    // A create that failed after the plugin ran: kept pending.
    s.hv_script("half", "echo not-json", "exit 0");
    plugctl(&s)
        .args(["volume", "create", "--plugin", "half", "--name", "web-half"])
        .fails_with(Exit::Failure);
    assert_eq!(
        volume_names(&s, &["--name", "web-*"]),
        ["web-data", "web-half", "web-logs", "web-ops"]
    );
    assert_eq!(
        volume_names(&s, &["--name", "web-?a*"]),
        ["web-data", "web-half"]
    );
    assert_eq!(volume_names(&s, &["--name", "[d]*"]), ["db"]);
    // A pattern matches the whole name, not a part of it.
    assert!(volume_names(&s, &["--name", "web"]).is_empty());
    // * matches everything, as it says: nothing is left out.
    assert_eq!(volume_names(&s, &["--name", "*"]).len(), 5);
    assert_eq!(volume_names(&s, &["--state", "pending"]), ["web-half"]);
    assert_eq!(
        volume_names(&s, &["--state", "pending,deleting", "--plugin", "half"]),
        ["web-half"]
    );
    assert_eq!(
        volume_names(&s, &["--state", "ready", "--state", "pending"]).len(),
        5
    );
    assert_eq!(
        volume_names(
            &s,
            &[
                "--namespace",
                "default",
                "--name",
                "web-*",
                "--state",
                "ready"
            ]
        ),
        ["web-data", "web-logs"]
    );
    // Nothing left: said on stderr with every filter, stdout empty.
    plugctl(&s)
        .args(["volume", "list", "--state", "deleting", "--name", "x*"])
        .args(["--namespace", "ops", "--plugin", "mkdir"])
        .succeeds()
        .stdout_empty()
        .stderr_has("no deleting volumes named like \"x*\" in namespace ops of plugin mkdir\n");
    // A bad pattern or state is a sentence, exit 2.
    plugctl(&s)
        .args(["volume", "list", "--name", "web-[a"])
        .fails_with(Exit::Usage)
        .stderr_has("--name \"web-[a\" is not a pattern plugctl reads")
        .stderr_has("* matches any text");
    plugctl(&s)
        .args(["volume", "list", "--state", "gone"])
        .fails_with(Exit::Usage)
        .stderr_has("[possible values: pending, ready, deleting]");
}

#[test]
fn plugin_list_shows_only_the_unhealthy_when_asked() {
    let s = Rig::new();
    s.hv_ok("dir", "1.0.0");
    s.plugin("host-volume", "broken", "exit 3");
    s.secrets_ok("env-file");
    plugctl(&s).args(["fingerprint"]).fails_with(Exit::Failure);
    let names = |args: &[&str]| -> Vec<String> {
        plugctl(&s)
            .args(["plugin", "list", "-o", "name"])
            .args_from(args)
            .succeeds()
            .stdout()
            .lines()
            .map(str::to_string)
            .collect()
    };
    assert_eq!(names(&["--unhealthy"]), ["host-volume/broken"]);
    assert_eq!(
        names(&["--unhealthy", "--type", "secrets"]),
        Vec::<String>::new()
    );
    assert!(names(&["--type", "secrets"]).contains(&"secrets/env-file".to_string()));
    // A plugin whose file went is unhealthy now, before any fingerprint.
    std::fs::remove_file(s.plugins.join("secrets/env-file")).unwrap();
    assert_eq!(
        names(&["--unhealthy"]),
        ["host-volume/broken", "secrets/env-file"]
    );
    let doc = plugctl(&s)
        .args(["--json", "plugin", "list", "--unhealthy"])
        .succeeds()
        .json();
    assert!(
        doc["plugins"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["healthy"] == false),
        "{doc}"
    );
    plugctl(&s)
        .args(["plugin", "list", "--unhealthy", "--type", "secret"])
        .succeeds()
        .stdout_empty()
        .stderr_has("no unhealthy plugins of type secret; did you mean secrets?");
}

#[test]
fn plugin_show_takes_a_name_alone_when_one_type_has_it() {
    let s = Rig::new();
    s.hv_ok("dir", "1.0.0");
    s.hv_ok("both", "1.0.0");
    s.plugin(
        "secrets",
        "both",
        r#"[ "$1" = fingerprint ] && echo '{"type": "secrets", "version": "2.0.0"}'"#,
    );
    plugctl(&s).args(["fingerprint"]).succeeds();
    let doc = plugctl(&s)
        .args(["--json", "plugin", "show", "dir"])
        .succeeds()
        .json();
    assert_eq!(
        (doc["type"].as_str(), doc["name"].as_str()),
        (Some("host-volume"), Some("dir"))
    );
    // Two types have it: nothing is guessed; the types are listed.
    plugctl(&s)
        .args(["plugin", "show", "both"])
        .fails_with(Exit::Usage)
        .stderr_has("2 plugins are named \"both\": host-volume, secrets; name the type: `plugctl plugin show TYPE both`");
    plugctl(&s)
        .args(["plugin", "show", "secrets", "both"])
        .succeeds()
        .stdout_has("2.0.0");
    // None has it: not found, with a close name.
    plugctl(&s)
        .args(["plugin", "show", "dri"])
        .fails_with(Exit::NotFound)
        .stderr_has("plugin not found: dri (no type has a plugin of that name")
        .stderr_has("did you mean dir?");
    // The usage line says the type may be left out.
    plugctl(&s)
        .args(["plugin", "show", "--help"])
        .succeeds()
        .stdout_has("Usage: plugctl plugin show [OPTIONS] [TYPE] <NAME>");
}

/// The sequence numbers `events ARGS --json` prints.
fn event_seqs(s: &Rig, args: &[&str]) -> Vec<u64> {
    seqs(
        &plugctl(s)
            .args(["--json", "events"])
            .args_from(args)
            .succeeds()
            .json_lines(),
    )
}

#[test]
fn events_filter_by_kind_time_and_sequence_and_keep_the_tail() {
    let s = Rig::new();
    s.hv_ok("dir", "1.0.0");
    plugctl(&s).args(["fingerprint"]).succeeds();
    for name in ["a", "b", "c"] {
        create_volume(&s, &["--plugin", "mkdir", "--name", name]);
    }
    let all = event_seqs(&s, &[]);
    assert!(all.len() >= 5, "{all:?}");
    let creates = event_seqs(&s, &["--kind", "volume_create"]);
    assert_eq!(creates.len(), 3, "{creates:?}");
    assert_eq!(
        event_seqs(&s, &["--kind", "volume_create,fingerprint"]).len(),
        all.len()
    );
    // --tail N: the last N of what the other options keep.
    assert_eq!(event_seqs(&s, &["--tail", "2"]), all[all.len() - 2..]);
    assert_eq!(
        event_seqs(&s, &["--kind", "volume_create", "--tail", "1"]),
        [creates[2]]
    );
    assert!(event_seqs(&s, &["--tail", "0"]).is_empty());
    // By sequence number, as before, and up to one.
    let second = all[1];
    assert_eq!(event_seqs(&s, &["--since", &second.to_string()]), all[2..]);
    assert_eq!(event_seqs(&s, &["--until", &second.to_string()]), all[..2]);
    assert_eq!(
        event_seqs(&s, &["--since", "1", "--until", &all[3].to_string()]),
        all[1..4]
    );
    // By time: every event is from within the hour, none from the future.
    assert_eq!(event_seqs(&s, &["--since", "1h"]), all);
    assert_eq!(event_seqs(&s, &["--since", "2000-01-01T00:00:00Z"]), all);
    assert!(event_seqs(&s, &["--since", "2999-01-01T00:00:00Z"]).is_empty());
    assert!(event_seqs(&s, &["--until", "2000-01-01T00:00:00Z"]).is_empty());
    assert_eq!(event_seqs(&s, &["--until", "2999-01-01 00:00:00"]), all);
    // Said when nothing is left.
    plugctl(&s)
        .args([
            "events",
            "--kind",
            "volume_delete",
            "--since",
            "2000-01-01T00:00:00Z",
        ])
        .succeeds()
        .stdout_empty()
        .stderr_has("no events of kind volume_delete since 2000-01-01T00:00:00Z\n");
    plugctl(&s)
        .args(["events", "--kind", "volume_creat"])
        .succeeds()
        .stdout_empty()
        .stderr_has("no events of kind volume_creat; did you mean volume_create?");
    // -o name: the sequence numbers.
    let out = plugctl(&s)
        .args(["events", "--tail", "2", "-o", "name"])
        .succeeds()
        .stdout();
    let want: Vec<String> = all[all.len() - 2..].iter().map(u64::to_string).collect();
    assert_eq!(out, format!("{}\n", want.join("\n")));
}

#[test]
fn a_bad_since_or_until_is_a_sentence_not_the_parsers_text() {
    let s = Rig::new();
    for (args, says) in [
        (
            &["events", "--since", "yesterday"][..],
            "invalid value 'yesterday' for '--since <WHEN>': \"yesterday\" is none of a sequence number (42), a time in UTC (2026-11-27T10:00:00Z) or how long ago (30m, 1h, 2d)",
        ),
        (
            &["events", "--until", "2026-13-45T00:00:00Z"],
            "\"2026-13-45T00:00:00Z\" is not a time plugctl reads: write it as 2026-11-27T10:00:00Z",
        ),
        (
            &["events", "--since=-5"],
            "\"-5\" is none of a sequence number (42)",
        ),
        (
            &["events", "--since", "99999999999999999999999"],
            "99999999999999999999999 is larger than any sequence number",
        ),
    ] {
        let out = plugctl(&s)
            .args_from(args)
            .fails_with(Exit::Usage)
            .stderr_has(says);
        for parser in ["invalid digit", "ParseIntError", "expected"] {
            assert!(!out.stderr().contains(parser), "{args:?}: {}", out.stderr());
        }
    }
    plugctl(&s)
        .args(["events", "--until", "5", "--follow"])
        .fails_with(Exit::Usage)
        .stderr_has("cannot be used with");
}

#[test]
fn events_on_an_80_column_terminal_fit_it_and_a_pipe_gets_whole_lines() {
    let s = Rig::new();
    s.hv_ok("a-plugin-with-a-rather-long-name", "1.0.0");
    plugctl(&s).args(["fingerprint"]).succeeds();
    create_volume(&s, &["--plugin", "mkdir", "--name", "evil\x1b[2J"]);
    let Some(run) = plugctl_on_a_terminal_of(&s, 80, "--color never events") else {
        return;
    };
    let shown = crate::tables::screen(&run.succeeds().stdout(), 80);
    assert!(shown[0].starts_with("SEQ  TIME "), "{shown:#?}");
    for line in &shown {
        assert!(plugctl::output::display_width(line) <= 80, "{line:?}");
    }
    // The time to the second; a long name cut; the escape shown.
    let plugin = shown
        .iter()
        .find(|l| l.contains("a-plugin-wi"))
        .unwrap_or_else(|| panic!("{shown:#?}"));
    assert!(plugin.contains("Z  fingerprint"), "{plugin}");
    assert!(plugin.contains("  a-plugin-wi…  healthy=tr…"), "{plugin}");
    let create = shown.iter().find(|l| l.contains("volume_create")).unwrap();
    assert!(create.ends_with('…'), "{create}");
    assert!(!shown.join("\n").contains('\x1b'));
    // A pipe: the time to the millisecond, names and details whole.
    let piped = plugctl(&s).args(["events"]).succeeds().stdout();
    assert!(
        piped.contains("a-plugin-with-a-rather-long-name"),
        "{piped}"
    );
    assert!(piped.contains("volume_name=evil\\u{1b}[2J\n"), "{piped}");
}

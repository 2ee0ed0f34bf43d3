//! A second fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after the first round (review34.rs):
//! each test here is an attack that found a way through.

use crate::common::*;

/// U+2028 (LINE SEPARATOR) and U+2029 (PARAGRAPH SEPARATOR) end a line
/// for many readers of plugctl's output (a browser showing a CI log, an
/// editor, a log viewer, JavaScript before ES2019). A plugin's text shown
/// in a whole line (a reason in a table cell, a `validate` finding) kept
/// them as they were, so that one cell became two lines and the half
/// after the break read as a line of plugctl's own, while the same
/// character in a quoted value was escaped: they are escaped everywhere.
#[test]
fn unicode_line_separators_from_a_plugin_are_escaped_in_whole_lines() {
    let s = Rig::new();
    s.plugin(
        "host-volume",
        "liar",
        "[ \"$1\" = fingerprint ] && printf '{\"version\": \"1.0.0-a\\\\u2028healthy\\\\u2029ok\"}' && exit 0\nexit 1",
    );
    plugctl(&s).args(["fingerprint"]).fails_with(Exit::Failure);
    for args in [
        &["plugin", "list"][..],
        &["plugin", "list", "-v"],
        &["plugin", "show", "host-volume", "liar"],
        &["validate"],
    ] {
        let out = plugctl(&s).args_from(args).output();
        let shown = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            shown.contains("a\\u{2028}healthy\\u{2029}ok"),
            "plugctl {args:?} does not show the version escaped: {shown}"
        );
        for c in ['\u{2028}', '\u{2029}'] {
            assert!(
                !shown.contains(c),
                "plugctl {args:?} wrote U+{:04X} as it is: {shown:?}",
                c as u32
            );
        }
    }
}

/// A message's hints name the command that fixes it: `plugctl plugin
/// forget FAMILY NAME` for a plugin whose file is gone, `plugctl pin NAME`
/// for one `--locked` refused. The name went in as it was, so a plugin
/// named `p;touch pwned` made the operator who pasted the advice run
/// `touch pwned` as root. A name is a shell word there, quoted when it
/// needs it, as the `plugctl fingerprint NAME` hint already was.
#[test]
fn a_command_plugctl_suggests_runs_nothing_a_plugin_name_holds() {
    let s = Rig::new();
    let name = "p;touch pwned";
    s.hv_ok(name, "1.0.0");
    plugctl(&s).args(["fingerprint"]).succeeds();
    std::fs::remove_file(s.plugins.join("host-volume").join(name)).unwrap();
    let shown = plugctl(&s)
        .args(["fingerprint"])
        .fails_with(Exit::Failure)
        .stdout();
    paste(&s, &suggested(&shown, "plugctl plugin forget"));
    plugctl(&s)
        .args(["plugin", "list"])
        .succeeds()
        .stdout_lacks("pwned");

    s.hv_ok("good", "1.0.0");
    plugctl(&s).args(["pin"]).succeeds();
    s.hv_ok(name, "1.0.0");
    let shown = plugctl(&s)
        .args(["fingerprint", "--locked"])
        .fails_with(Exit::Failure)
        .stdout();
    paste(&s, &suggested(&shown, "plugctl pin"));
    plugctl(&s).args(["fingerprint", "--locked"]).succeeds();

    // A pinned plugin changed on disk: the hint to accept the new file.
    s.plugin(
        "host-volume",
        name,
        "[ \"$1\" = fingerprint ] && echo '{\"version\": \"1.0.1\"}'",
    );
    let shown = plugctl(&s)
        .args(["fingerprint", "--locked"])
        .fails_with(Exit::Failure)
        .stdout();
    paste(&s, &suggested(&shown, "plugctl pin"));
    plugctl(&s).args(["fingerprint", "--locked"]).succeeds();
}

/// `fingerprint`'s closing error lists the unhealthy plugins. It named
/// them as they were, its line escaped only at the edge, where a
/// backslash is left as it is: a plugin named `a\nb` (a backslash) and one
/// whose name holds a line break read the same, `host-volume/a\nb`, as
/// they do not in the table above it. Each name is escaped as a table
/// shows it.
#[test]
fn fingerprint_names_each_unhealthy_plugin_as_its_table_does() {
    let s = Rig::new();
    s.plugin("host-volume", "a\\nb", "exit 1");
    s.plugin("host-volume", "a\nb", "exit 1");
    let ran = plugctl(&s).args(["fingerprint"]).fails_with(Exit::Failure);
    let table = ran.stdout();
    let error = ran.stderr();
    for shown in ["a\\\\nb", "a\\nb"] {
        assert!(
            table.contains(&format!("host-volume  {shown} ")),
            "the table does not show {shown}: {table}"
        );
    }
    assert!(
        error.contains("unhealthy: host-volume/a\\nb, host-volume/a\\\\nb\n"),
        "the error does not name each plugin as the table does: {error}"
    );
}

/// `validate --format junit` names each plugin in its test cases'
/// `classname`. A C1 control in a plugin's name (U+0085, NEL) was dropped
/// by the XML writer, so that a plugin `e<NEL>z` was reported as `ez`, and
/// a bidirectional override (U+202E) was written as it is, to reorder
/// what a CI page shows; the text report shows both escaped. The report
/// shows them as the text report does.
#[test]
fn junit_shows_a_name_with_c1_or_bidi_characters_as_the_text_report_does() {
    let s = Rig::new();
    for name in ["e\u{85}z", "e\u{202e}z", "e\u{7f}z"] {
        s.plugin("secrets", name, "exit 1");
    }
    let xml = plugctl(&s)
        .args(["validate", "--format", "junit"])
        .fails_with(Exit::Failure)
        .stdout();
    let doc = roxmltree::Document::parse(&xml).expect("the report is XML");
    let classnames: std::collections::BTreeSet<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("classname"))
        .filter(|c| c.starts_with("secrets/e"))
        .collect();
    assert_eq!(
        classnames,
        [
            "secrets/e\\u{202e}z",
            "secrets/e\\u{7f}z",
            "secrets/e\\u{85}z"
        ]
        .into_iter()
        .collect(),
        "the report's names: {xml}"
    );
}

/// `replay --format junit` wrote a case's file name, its plugin's name
/// and the differences it found (what the plugin printed) as they were:
/// a plugin named with a bidirectional override (U+202E) reordered what a
/// CI page shows of the report. They are shown as `validate`'s report
/// shows them.
#[test]
fn replay_junit_shows_what_a_plugin_controls_escaped() {
    let s = Rig::new();
    let name = "r\u{202e}x";
    s.hv_ok(name, "1.0.0");
    let cases = s.out.join("cases");
    plugctl(&s)
        .args(["fingerprint", "--record"])
        .arg(&cases)
        .succeeds();
    s.plugin(
        "host-volume",
        name,
        "[ \"$1\" = fingerprint ] && printf '{\"version\": \"1.0.1\", \"x\": \"\\\\u0085\\\\u202e\"}'",
    );
    let xml = plugctl(&s)
        .args(["replay", "--format", "junit"])
        .arg(&cases)
        .fails_with(Exit::Failure)
        .stdout();
    let doc = roxmltree::Document::parse(&xml).expect("the report is XML");
    let names: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("classname"))
        .collect();
    assert!(
        names.contains(&"host-volume/r\\u{202e}x"),
        "the report's names: {xml}"
    );
    for c in ['\u{202e}', '\u{85}'] {
        assert!(
            !xml.contains(c),
            "the report holds U+{:04X} as it is: {xml}",
            c as u32
        );
    }
}

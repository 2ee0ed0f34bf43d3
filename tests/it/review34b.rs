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

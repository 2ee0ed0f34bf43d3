//! Characters with no glyph of their own that are neither controls nor
//! reordering marks: a soft hyphen (U+00AD) and the tag characters
//! (U+E0000 to U+E007F, which can spell text no one sees). A table cell
//! always showed them escaped; a whole line (a plugin's stderr under -v)
//! wrote them as they were, so that what the operator read was not what
//! the plugin wrote. Every line shows them as a cell does.

use crate::common::*;

#[test]
fn a_plugins_stderr_line_shows_hidden_characters_escaped() {
    let s = Rig::new();
    // "hid<SHY>den<TAG A>x" on stderr, then a failure.
    s.plugin(
        "host-volume",
        "h",
        r#"printf 'hid\302\255den\363\240\201\201x\n' >&2; exit 1"#,
    );
    let ran = plugctl(&s)
        .args(["-v", "fingerprint", "h"])
        .fails_with(Exit::Failure);
    let shown = format!("{}{}", ran.stdout(), ran.stderr());
    assert!(
        shown.contains("  | hid\\u{ad}den\\u{e0041}x\n"),
        "the stderr line is not shown escaped: {shown}"
    );
    for c in ['\u{ad}', '\u{e0041}'] {
        assert!(
            !shown.contains(c),
            "U+{:04X} written as it is: {shown:?}",
            c as u32
        );
    }
}

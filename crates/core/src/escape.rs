//! The one way text a plugin or a file controls is made safe for a
//! terminal, in one style, the one Rust's `{:?}` prints: `\n`, `\t`,
//! `\r`, `\0`, `\\`, and `\u{1b}` for every other character shown escaped.
//! `--json` output keeps the exact string: JSON escapes C0 controls itself,
//! and on a terminal [`json_for_terminal`] writes the rest (DEL, C1,
//! reordering and zero-width characters) as JSON's own `\uXXXX`, which
//! reads back as the same string.
//!
//! Two uses, one style:
//! - an untrusted *value* (a plugin, volume or key name, a path, a
//!   version) shown in a table cell is [`value`], in a message
//!   [`quote`]: every control character, and every character that is
//!   invisible or combines with or reorders its neighbours, is escaped, and
//!   so is a backslash, so that each `\` shown starts an escape (a name
//!   `a\nb`, with a backslash, shows `a\\nb`; one with a line break `a\nb`);
//! - a whole line (a message, a cell) is passed through
//!   [`escape_untrusted`] as the last line of defence: control and
//!   reordering characters it still holds (a plugin's `{"error"}` text, a
//!   path shown as it is) are escaped in the same style, backslashes are
//!   left as they are (they may start an escape [`value`] made).

use std::borrow::Cow;

/// Characters that change how text around them is shown without being
/// seen: bidirectional controls (which can make `abc` read `cba`),
/// zero-width ones, the Hangul fillers (letters to Unicode, so `{:?}`
/// prints them, but default-ignorable: U+1160 takes no cell, and a
/// plugin named `vault` with it read as a second `vault`), the blank
/// Braille pattern (U+2800, a symbol to Unicode, so `{:?}` prints it too,
/// but a blank cell on a terminal), and the Unicode line and paragraph
/// separators. Escaped in whole lines as control characters are.
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{061c}'
            | '\u{115f}'
            | '\u{1160}'
            | '\u{3164}'
            | '\u{ffa0}'
            | '\u{2800}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{feff}'
    ) || breaks_line(c)
}

/// U+2028 and U+2029 end a line for many readers of plugctl's output (a
/// browser showing a CI log, an editor, JavaScript): in a whole line they
/// would make one cell or one message two, as a newline would. Escaped
/// with the characters above (NEL, U+0085, is a C1 control already).
fn breaks_line(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}')
}

/// A JSON text for a terminal: every DEL, C1 control (U+009B is CSI to a
/// terminal that takes 8-bit controls) and invisible or reordering
/// character, and any other with no glyph of its own (a soft hyphen, a tag
/// character), which JSON writes as it is, becomes its `\uXXXX` escape.
/// Outside strings JSON holds only ASCII, so each such character is in a
/// string, and the text parses to the same value.
pub fn json_for_terminal(json: &str) -> Cow<'_, str> {
    let shown = |c: char| {
        !(c == '\u{7f}' || ('\u{80}'..='\u{9f}').contains(&c) || invisible(c) || unprintable(c))
    };
    if json.chars().all(shown) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if shown(c) {
            out.push(c);
        } else {
            // One escape per UTF-16 unit: a pair for a character past
            // the Basic Multilingual Plane (a tag character), as JSON
            // spells it.
            for unit in c.encode_utf16(&mut [0u16; 2]) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    Cow::Owned(out)
}

/// `c` as `{:?}` escapes it inside a string (`\u{1b}`, `\n`, `\\`), or
/// `None` when it is shown as it is. A double quote is shown as it is
/// (only [`quote`] escapes it, as the quote it is in).
fn debug_escape(c: char) -> Option<String> {
    if c == '"' || c == '\'' {
        return None;
    }
    if c.is_ascii() && !c.is_ascii_control() && c != '\\' {
        return None;
    }
    // A char's Debug is `'…'`: the escape, or the char itself.
    let shown = format!("{c:?}");
    let inner = &shown[1..shown.len() - 1];
    if inner.chars().count() != 1 || inner.starts_with('\\') {
        return Some(inner.to_string());
    }
    // The Hangul fillers and the blank Braille pattern, which `{:?}`
    // prints as the letters and symbol they are.
    invisible(c).then(|| format!("\\u{{{:x}}}", c as u32))
}

/// An untrusted value for a table cell: exactly what `{:?}` shows between
/// its quotes, but `"` itself (see the module's doc).
pub fn value(s: &str) -> Cow<'_, str> {
    if s.bytes().all(|b| (0x20..0x7f).contains(&b) && b != b'\\') {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match debug_escape(c) {
            Some(e) => out.push_str(&e),
            None => out.push(c),
        }
    }
    if out == s {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(out)
    }
}

/// An untrusted value for a message, in double quotes: [`value`], with `"`
/// as `\"` — exactly what `{:?}` of the string prints (a test holds them
/// equal), but for the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0),
/// which `{:?}` shows as they are, so a name reads the same in a table and
/// a message.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            c => match debug_escape(c) {
                Some(e) => out.push_str(&e),
                None => out.push(c),
            },
        }
    }
    out.push('"');
    out
}

/// [`value`] of a path or any OS string: a byte that is not UTF-8 as
/// `\xE9`, as `{:?}` shows it.
pub fn value_os(s: &std::ffi::OsStr) -> Cow<'_, str> {
    match s.to_str() {
        Some(text) => value(text),
        None => {
            let shown = format!("{s:?}");
            Cow::Owned(shown[1..shown.len() - 1].replace("\\\"", "\""))
        }
    }
}

/// [`quote`] of a path or any OS string: exactly what `{:?}` prints for
/// it, a byte that is not UTF-8 as `\xFF`.
pub fn quote_os(s: impl AsRef<std::ffi::OsStr>) -> String {
    let s = s.as_ref();
    match s.to_str() {
        Some(text) => quote(text),
        None => format!("{s:?}"),
    }
}

/// A whole line of text that may hold untrusted parts, made safe for a
/// terminal: C0 controls (except tab and newline, unless `one_line`), a CR
/// not followed by LF, DEL, C1 (U+0080 to U+009F, which some terminals
/// take as ESC sequences), bidirectional and zero-width characters and the
/// Unicode line and paragraph separators (U+2028, U+2029) are
/// shown escaped, as [`value`] shows them (`\u{1b}`, `\u{9b}`, `\r`);
/// backslashes are left as they are.
pub fn escape_untrusted(s: &str, one_line: bool) -> Cow<'_, str> {
    let unsafe_at = |c: char, next: Option<char>| match c {
        '\n' | '\t' => one_line,
        '\r' => one_line || next != Some('\n'),
        c => c.is_control() || invisible(c) || unprintable(c),
    };
    // Printable ASCII (most of what a table holds) needs no look at chars.
    if s.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Cow::Borrowed(s);
    }
    let mut chars = s.chars().peekable();
    let mut dirty = false;
    while let Some(c) = chars.next() {
        if unsafe_at(c, chars.peek().copied()) {
            dirty = true;
            break;
        }
    }
    if !dirty {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if !unsafe_at(c, chars.peek().copied()) {
            out.push(c);
            continue;
        }
        match debug_escape(c) {
            Some(e) => out.push_str(&e),
            None => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    Cow::Owned(out)
}

/// A character `{:?}` of a string escapes wherever it stands: one with no
/// glyph of its own that is neither a control nor in [`invisible`] (a soft
/// hyphen, U+00AD; a tag character, U+E0000 to U+E007F, which can spell
/// hidden text; an unassigned one), as a table cell shows it. A combining
/// mark after a letter is printable (`str::escape_debug` escapes one only
/// at the start of a string): text in a decomposed form stays readable.
fn unprintable(c: char) -> bool {
    if c.is_ascii() {
        return false;
    }
    let mut after_a = String::from("a");
    after_a.push(c);
    after_a.escape_debug().count() != 2
}

/// Table cells are one line each: [`escape_untrusted`] with newlines and
/// tabs escaped too (a message in a cell may hold a newline).
pub fn sanitize_cell(s: &str) -> String {
    escape_untrusted(s, true).into_owned()
}

#[cfg(test)]
mod tests {

    #[test]
    fn json_for_a_terminal_reads_back_as_the_same_string() {
        let value = "a\u{9b}b\u{7f}c\u{202e}d\u{200b}é\u{1b}";
        let json = serde_json::to_string(value).unwrap();
        let shown = json_for_terminal(&json);
        assert_eq!(shown, r#""a\u009bb\u007fc\u202ed\u200bé\u001b""#);
        assert_eq!(serde_json::from_str::<String>(&shown).unwrap(), value);
        assert!(matches!(
            json_for_terminal("{\"a\": \"é\"}"),
            Cow::Borrowed(_)
        ));
    }

    use super::*;

    #[test]
    fn text_with_no_glyph_is_shown_escaped_in_whole_lines_too() {
        // A soft hyphen and tag characters (hidden text), as a cell shows
        // them; a combining accent after its letter stays.
        let line = "a\u{ad}b\u{e0041}\u{e007f}c e\u{301}";
        assert_eq!(
            escape_untrusted(line, false),
            "a\\u{ad}b\\u{e0041}\\u{e007f}c e\u{301}"
        );
        assert_eq!(value(line), "a\\u{ad}b\\u{e0041}\\u{e007f}c e\\u{301}");
        let json = serde_json::to_string(line).unwrap();
        let shown = json_for_terminal(&json);
        assert!(
            !shown.contains('\u{ad}') && !shown.contains('\u{e0041}'),
            "{shown}"
        );
        assert_eq!(serde_json::from_str::<String>(&shown).unwrap(), line);
    }

    #[test]
    fn hangul_fillers_are_shown_escaped_everywhere() {
        // Letters to Unicode, blank or of no width on a terminal: `vault`
        // with U+1160 would read as `vault`.
        let name = "vault\u{1160}\u{115f}\u{3164}\u{ffa0}";
        let shown = "vault\\u{1160}\\u{115f}\\u{3164}\\u{ffa0}";
        assert_eq!(value(name), shown);
        assert_eq!(quote(name), format!("\"{shown}\""));
        assert_eq!(escape_untrusted(name, true), shown);
        let json = serde_json::to_string(name).unwrap();
        assert_eq!(
            json_for_terminal(&json),
            "\"vault\\u1160\\u115f\\u3164\\uffa0\""
        );
    }

    #[test]
    fn cells_stay_on_one_line() {
        assert_eq!(sanitize_cell("a\nb\tc"), "a\\nb\\tc");
        assert_eq!(sanitize_cell("plain"), "plain");
    }

    #[test]
    fn terminal_controls_are_shown_not_obeyed() {
        assert_eq!(
            escape_untrusted("\x1b[2J\x07ok", false),
            "\\u{1b}[2J\\u{7}ok"
        );
        assert_eq!(escape_untrusted("a\u{9b}31m", false), "a\\u{9b}31m");
        assert_eq!(escape_untrusted("x\x7f", false), "x\\u{7f}");
        // A bare CR would return to the line start and overwrite it.
        assert_eq!(escape_untrusted("bad\rok   ", false), "bad\\rok   ");
        assert_eq!(
            escape_untrusted("line\r\nnext\tcol", false),
            "line\r\nnext\tcol"
        );
        // Text that reads backwards is shown as what it is.
        assert_eq!(escape_untrusted("a\u{202e}cba", false), "a\\u{202e}cba");
        assert!(matches!(
            escape_untrusted("ünïcode ✓ a\\nb", false),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn a_backslash_in_a_value_is_escaped_so_every_escape_is_unambiguous() {
        assert_eq!(value("a\\nb"), "a\\\\nb");
        assert_eq!(value("a\nb"), "a\\nb");
        assert_ne!(value("a\\nb"), value("a\nb"));
        assert_eq!(value("say \"hi\""), "say \"hi\"");
        assert_eq!(value("e\u{301}"), "e\\u{301}");
        assert!(matches!(value("plain-name_1.0"), Cow::Borrowed(_)));
    }

    #[test]
    fn quote_is_exactly_what_debug_prints() {
        for s in [
            "",
            "plain",
            "a\\nb",
            "a\nb\r\t\0",
            "\x1b[2J\x07\x7f",
            "\u{9b}\u{85}",
            "say \"hi\" it's",
            "\u{202e}\u{200b}\u{feff}",
            "e\u{301} café ✓ 🔑",
            "\u{10ffff}\u{e000}",
        ] {
            assert_eq!(quote(s), format!("{s:?}"), "{s:?}");
            // The same escapes as a cell shows, between quotes.
            assert_eq!(quote(s).replace("\\\"", "\""), format!("\"{}\"", value(s)));
        }
        use std::os::unix::ffi::OsStrExt;
        let bad = std::ffi::OsStr::from_bytes(b"caf\xe9\n");
        assert_eq!(quote_os(bad), format!("{bad:?}"));
        assert_eq!(value_os(bad), "caf\\xE9\\n");
        assert_eq!(quote_os("a\nb"), quote("a\nb"));
    }
}

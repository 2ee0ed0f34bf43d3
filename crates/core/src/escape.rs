//! The one function that makes text a plugin or a file controls safe
//! for a terminal. Every table cell and every message on stderr passes
//! here; `--json` output does not (JSON escapes itself and keeps the exact
//! string).

/// Untrusted text (plugin output, names, paths) made safe for a terminal:
/// the one place that decides. Control characters that could move the
/// cursor, rewrite the screen, set the window title or forge a line — C0
/// except tab and newline, a CR not followed by LF, DEL, and C1 (U+0080 to
/// U+009F, which some terminals take as ESC sequences) — are shown
/// escaped: `\x1b`, `\u{9b}`. With `one_line` (table cells), tab and
/// newline are escaped too. `--json` output never goes through here: JSON
/// escapes them itself and keeps the exact string.
pub fn escape_untrusted(s: &str, one_line: bool) -> std::borrow::Cow<'_, str> {
    let unsafe_at = |c: char, next: Option<char>| match c {
        '\n' | '\t' => one_line,
        '\r' => one_line || next != Some('\n'),
        c => c.is_control(),
    };
    // Printable ASCII (most of what a table holds) needs no look at chars.
    if s.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return std::borrow::Cow::Borrowed(s);
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
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if !unsafe_at(c, chars.peek().copied()) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Table cells are one line each: [`escape_untrusted`] with newlines and
/// tabs escaped too (a volume name may hold a newline).
pub fn sanitize_cell(s: &str) -> String {
    escape_untrusted(s, true).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_stay_on_one_line() {
        assert_eq!(sanitize_cell("a\nb\tc"), "a\\nb\\tc");
        assert_eq!(sanitize_cell("plain"), "plain");
    }

    #[test]
    fn terminal_controls_are_shown_not_obeyed() {
        assert_eq!(escape_untrusted("\x1b[2J\x07ok", false), "\\x1b[2J\\x07ok");
        assert_eq!(escape_untrusted("a\u{9b}31m", false), "a\\u{9b}31m");
        assert_eq!(escape_untrusted("x\x7f", false), "x\\x7f");
        // A bare CR would return to the line start and overwrite it.
        assert_eq!(escape_untrusted("bad\rok   ", false), "bad\\rok   ");
        assert_eq!(
            escape_untrusted("line\r\nnext\tcol", false),
            "line\r\nnext\tcol"
        );
        assert!(matches!(
            escape_untrusted("ünïcode ✓", false),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}

//! Text that may hold secret values, made safe to show: every value
//! masked wherever plugctl shows a plugin's words next to a fetch, and a
//! value quoted as one shell word for `secret fetch --format env`.

use std::collections::BTreeSet;

use super::value::{MASK, SecretValue};

/// Replaces every occurrence of every non-empty value in `text` with
/// [`MASK`]. Occurrences may overlap (`abc` and `bcd` in `abcd`): all of
/// them are found first and every covered byte is hidden, so no part of a
/// value survives; overlapping or touching occurrences become one mask.
/// Each value is also looked for in its JSON-escaped form (a plugin that
/// logs JSON writes a newline as `\n`).
pub fn mask<'a>(text: &str, values: impl IntoIterator<Item = &'a SecretValue>) -> String {
    let patterns = patterns(values);
    mask_spans(text, spans(text, &patterns))
}

/// [`mask`] for a captured stderr tail. The runner keeps the last bytes of
/// stderr, so the tail may begin in the middle of a value: when bytes were
/// dropped, a beginning that is the end of some value is hidden too.
pub fn mask_stderr<'a>(
    stderr: &[u8],
    dropped: u64,
    values: impl IntoIterator<Item = &'a SecretValue>,
) -> String {
    let text = String::from_utf8_lossy(stderr);
    let patterns = patterns(values);
    let mut found = spans(&text, &patterns);
    if dropped > 0 {
        // The cut may have split a character: skip its replacement chars.
        let start = text
            .char_indices()
            .find(|&(_, c)| c != char::REPLACEMENT_CHARACTER)
            .map_or(text.len(), |(i, _)| i);
        let rest = &text[start..];
        let longest = patterns
            .iter()
            .filter_map(|p| {
                p.char_indices()
                    .skip(1)
                    .map(|(i, _)| &p[i..])
                    .find(|suffix| rest.starts_with(suffix))
                    .map(str::len)
            })
            .max();
        if let Some(len) = longest {
            found.push((0, start + len));
        }
    }
    mask_spans(&text, found)
}

/// The strings to look for: each non-empty value, and each JSON-escaped
/// form of it that differs. A plugin that logs JSON escapes what it must
/// (a quote, a backslash, a control character) and, by its encoder's
/// default, more: Go's `encoding/json`, which Nomad plugins are written
/// with, writes `<`, `>`, `&`, U+2028 and U+2029 as `\u003c` and so on;
/// Python's `json.dumps` writes DEL and every character past ASCII as
/// `\u00e4` (a pair of escapes past U+FFFF); other encoders spell the hex
/// digits in capitals, and Go before 1.22 wrote a backspace and a form
/// feed as `\u0008` and `\u000c`. Every mix of those is looked for.
fn patterns<'a>(values: impl IntoIterator<Item = &'a SecretValue>) -> Vec<String> {
    let mut set = BTreeSet::new();
    for v in values {
        let v = v.expose();
        if v.is_empty() {
            continue;
        }
        set.insert(v.to_string());
        for html in [false, true] {
            for ascii in [false, true] {
                for upper in [false, true] {
                    for short in [false, true] {
                        let style = JsonStyle {
                            html,
                            ascii,
                            upper,
                            short,
                        };
                        set.insert(json_inside(v, style));
                    }
                }
            }
        }
    }
    set.into_iter().collect()
}

/// How a JSON encoder escapes a string beyond what JSON requires.
#[derive(Clone, Copy)]
struct JsonStyle {
    /// `<`, `>`, `&`, U+2028 and U+2029 escaped (Go's default).
    html: bool,
    /// DEL and every character past ASCII escaped (Python's default).
    ascii: bool,
    /// Hex digits in capitals.
    upper: bool,
    /// Backspace and form feed as `\b` and `\f` (Go from 1.22, serde,
    /// Python), not `\u0008` and `\u000c` (Go before 1.22).
    short: bool,
}

/// `value` between a JSON string's quotes, escaped in `style`.
fn json_inside(value: &str, style: JsonStyle) -> String {
    let mut out = String::with_capacity(value.len() + 8);
    let hex = |out: &mut String, c: char| {
        for unit in c.encode_utf16(&mut [0u16; 2]) {
            out.push_str(&if style.upper {
                format!("\\u{unit:04X}")
            } else {
                format!("\\u{unit:04x}")
            });
        }
    };
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' if style.short => out.push_str("\\b"),
            '\u{c}' if style.short => out.push_str("\\f"),
            c if c < ' ' => hex(&mut out, c),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' if style.html => hex(&mut out, c),
            c if style.ascii && c >= '\u{7f}' => hex(&mut out, c),
            c => out.push(c),
        }
    }
    out
}

/// Byte ranges of every (overlapping) occurrence of every pattern.
fn spans(text: &str, patterns: &[String]) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    for p in patterns {
        let mut from = 0;
        while let Some(at) = text[from..].find(p.as_str()) {
            let start = from + at;
            found.push((start, start + p.len()));
            // Next char boundary after `start`, for overlapping matches.
            from = start + text[start..].chars().next().map_or(1, char::len_utf8);
            if from > text.len() {
                break;
            }
        }
    }
    found
}

/// `text` with every span in `found` (which may overlap) replaced, one
/// [`MASK`] for each run of covered bytes.
fn mask_spans(text: &str, mut found: Vec<(usize, usize)>) -> String {
    if found.is_empty() {
        return text.to_string();
    }
    found.sort_unstable();
    let mut out = String::with_capacity(text.len());
    let mut shown = 0; // text[..shown] is handled
    let mut current: Option<(usize, usize)> = None;
    for (s, e) in found {
        match current {
            Some((cs, ce)) if s <= ce => current = Some((cs, ce.max(e))),
            Some((cs, ce)) => {
                out.push_str(&text[shown..cs]);
                out.push_str(MASK);
                shown = ce;
                current = Some((s, e));
            }
            None => current = Some((s, e)),
        }
    }
    if let Some((cs, ce)) = current {
        out.push_str(&text[shown..cs]);
        out.push_str(MASK);
        shown = ce;
    }
    out.push_str(&text[shown..]);
    out
}

/// A value as one POSIX sh word: single quotes, with `'` as `'\''` and
/// `\` as `'\\'`. Everything else (newlines, `$`, backticks, `"`) is
/// literal inside single quotes. The backslash goes outside the quotes
/// because fish, which reads `\\` and `\'` as escapes inside single quotes,
/// would otherwise take a value ending in `\` as an escaped quote and read
/// on into the next line, running what the next value holds; outside the
/// quotes, every shell reads `\\` and `\'` alike. A NUL cannot be held by a
/// shell variable: refused by the caller.
pub fn sh_quote(value: &str) -> String {
    let mut s = String::with_capacity(value.len() + 2);
    s.push('\'');
    for c in value.chars() {
        match c {
            '\'' => s.push_str("'\\''"),
            '\\' => s.push_str("'\\\\'"),
            c => s.push(c),
        }
    }
    s.push('\'');
    s
}

/// A key `export` accepts in every POSIX shell: `^[A-Za-z_][A-Za-z0-9_]*$`.
pub fn is_shell_name(key: &str) -> bool {
    let mut bytes = key.bytes();
    matches!(bytes.next(), Some(b'A'..=b'Z' | b'a'..=b'z' | b'_'))
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::super::fetch::tests::SECRET;
    use super::*;

    #[test]
    fn masking() {
        let v = |s: &[&str]| s.iter().map(|s| SecretValue::new(*s)).collect::<Vec<_>>();
        assert_eq!(mask("a pass b", &v(&["pass"])), "a **** b");
        assert_eq!(mask("passpass", &v(&["pass"])), "****");
        assert_eq!(mask("x abcd y", &v(&["abc", "bcd"])), "x **** y");
        assert_eq!(
            mask("hunter2 hunter", &v(&["hunter", "hunter2"])),
            "**** ****"
        );
        assert_eq!(mask("nothing", &v(&["", "zz"])), "nothing");
        assert_eq!(mask("aaa", &v(&["aa"])), "****");
        assert_eq!(mask("é€é", &v(&["€"])), "é****é");
        // JSON-escaped forms too
        assert_eq!(mask(r#"{"k":"a\nb"}"#, &v(&["a\nb"])), r#"{"k":"****"}"#);
        // as Go writes them (HTML-safe), Python (ASCII only), in capitals
        let value = v(&["p&ss<wörd>\u{1f511}"]);
        for logged in [
            format!(r#"{{"v":"p\u0026ss\u003cwörd\u003e{}"}}"#, '\u{1f511}'),
            r#"{"v":"p&ss<w\u00f6rd>\ud83d\udd11"}"#.to_string(),
            r#"{"v":"p\u0026ss\u003Cw\u00F6rd\u003E\uD83D\uDD11"}"#.to_string(),
        ] {
            assert_eq!(mask(&logged, &value), r#"{"v":"****"}"#, "{logged}");
        }
        // A backspace and a form feed as Go before 1.22 wrote them, and
        // as every encoder now does.
        let value = v(&["a\u{8}b\u{c}<c"]);
        for logged in [
            r#"{"v":"a\u0008b\u000c\u003cc"}"#,
            r#"{"v":"a\u0008b\u000C<c"}"#,
            r#"{"v":"a\bb\f<c"}"#,
        ] {
            assert_eq!(mask(logged, &value), r#"{"v":"****"}"#, "{logged}");
        }
        // The minimal form is serde_json's.
        let tricky = "a\"b\\c\n\u{1}\u{8}\u{c}\u{7f}é<";
        let minimal = JsonStyle {
            html: false,
            ascii: false,
            upper: false,
            short: true,
        };
        assert_eq!(
            format!("\"{}\"", json_inside(tricky, minimal)),
            serde_json::to_string(tricky).unwrap()
        );
        // A tail cut in the middle of a value hides the value's end.
        let tail = "VALUE-42 then more";
        assert_eq!(
            mask_stderr(tail.as_bytes(), 100, &v(&[SECRET])),
            "**** then more"
        );
        assert_eq!(
            mask_stderr(tail.as_bytes(), 0, &v(&[SECRET])),
            "VALUE-42 then more"
        );
        let mut cut = "€x".as_bytes()[1..].to_vec();
        cut.extend_from_slice(b" y");
        assert_eq!(mask_stderr(&cut, 1, &v(&["€x"])), "**** y");
    }

    #[test]
    fn shell_words() {
        assert_eq!(sh_quote("a'b"), r"'a'\''b'");
        assert_eq!(sh_quote(""), "''");
        assert_eq!(sh_quote(r"a\b\"), r"'a'\\'b'\\''");
        assert!(is_shell_name("_A1"));
        for bad in ["", "1A", "A-B", "A B", "é", "A=B"] {
            assert!(!is_shell_name(bad), "{bad}");
        }
    }
}

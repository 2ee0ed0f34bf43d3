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
/// logs JSON writes a newline as `\n`), whatever its encoder escaped.
pub fn mask<'a>(text: &str, values: impl IntoIterator<Item = &'a SecretValue>) -> String {
    Masker::new(values).mask(text)
}

/// [`mask`] for a captured stderr tail. The runner keeps the last bytes of
/// stderr, so the tail may begin in the middle of a value: when bytes were
/// dropped, a beginning that is the end of some value is hidden too.
pub fn mask_stderr<'a>(
    stderr: &[u8],
    dropped: u64,
    values: impl IntoIterator<Item = &'a SecretValue>,
) -> String {
    Masker::new(values).mask_stderr(stderr, dropped)
}

/// Every value of one document, made ready to mask many texts with (each
/// key a plugin wrote where Nomad ignores it, its error message). The
/// values are a plugin's: there may be a hundred thousand of them in the
/// 4 MiB plugctl reads, so they are searched for all at once, by one
/// automaton, in time linear in the text; a search per value, per text,
/// made plugctl spin for hours on such an answer, deaf to SIGTERM.
pub struct Masker {
    /// The non-empty values, each once.
    values: Vec<String>,
    /// All of them at once.
    automaton: Automaton,
}

impl Masker {
    /// A masker for `values` (empty ones ignored).
    pub fn new<'a>(values: impl IntoIterator<Item = &'a SecretValue>) -> Self {
        let values: Vec<String> = values
            .into_iter()
            .map(|v| v.expose().to_string())
            .filter(|v| !v.is_empty())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        // Escaped forms need no patterns of their own: the text is also
        // searched as JSON reads it ([`Decoded`]).
        let automaton = Automaton::new(&values);
        Masker { values, automaton }
    }

    /// `text` with every value masked ([`mask`]).
    pub fn mask(&self, text: &str) -> String {
        let mut found = self.spans(text);
        found.extend(Decoded::new(text).spans(self));
        mask_spans(text, found)
    }

    /// A stderr tail with every value masked ([`mask_stderr`]).
    pub fn mask_stderr(&self, stderr: &[u8], dropped: u64) -> String {
        let text = String::from_utf8_lossy(stderr);
        let mut found = self.spans(&text);
        let decoded = Decoded::new(&text);
        found.extend(decoded.spans(self));
        if dropped > 0 {
            found.extend(decoded.cut_value_at_start(&self.values));
            // The cut may have split a character: skip its replacement chars.
            let start = text
                .char_indices()
                .find(|&(_, c)| c != char::REPLACEMENT_CHARACTER)
                .map_or(text.len(), |(i, _)| i);
            // Cut inside an escape (`0026` left of `\u0026`), the text
            // decodes to nothing: the escaped forms of the common encoders
            // are tried as they are written.
            let forms = self.values.iter().flat_map(|v| escaped_forms(v));
            if let Some(len) = longest_end_at_start(&text[start..], forms) {
                found.push((0, start + len));
            }
            // Encoders escape more than those habits (Gson `=`, .NET `+`):
            // a tail that begins with the end of any `\uXXXX` is read as
            // some character whose escape ends so, then the rest.
            if let Some(len) = cut_escape_at_start(&text[start..], &self.values) {
                found.push((0, start + len));
            }
        }
        mask_spans(&text, found)
    }

    /// Byte ranges of `text` every occurrence of every value covers.
    fn spans(&self, text: &str) -> Vec<(usize, usize)> {
        self.automaton.spans(text)
    }
}

/// The values as an Aho-Corasick automaton: a trie of their bytes, each
/// node with the node of its longest proper suffix that is in the trie
/// (where a search goes on when the next byte has no edge) and the length
/// of the longest value ending there. The `aho-corasick` crate's builder
/// was tried first: it moves the states that end a value to the front by
/// swaps whose remapping is quadratic in their number, and a hundred
/// thousand short values took minutes again.
struct Automaton {
    /// Edges, by node and byte.
    edges: std::collections::HashMap<(u32, u8), u32>,
    /// Each node's failure link (the root's is itself).
    fail: Vec<u32>,
    /// Each node's longest value ending there, 0 for none.
    longest: Vec<u32>,
}

impl Automaton {
    fn new(values: &[String]) -> Self {
        let mut a = Automaton {
            edges: std::collections::HashMap::new(),
            fail: vec![0],
            longest: vec![0],
        };
        // depth of each node, to know a value's length where it ends
        for v in values {
            let mut node = 0u32;
            for &b in v.as_bytes() {
                let next = a.fail.len() as u32;
                node = *a.edges.entry((node, b)).or_insert(next);
                if node == next {
                    a.fail.push(0);
                    a.longest.push(0);
                }
            }
            a.longest[node as usize] = v.len() as u32;
        }
        // Breadth first: a node's link is found from its parent's, which
        // is done, and a longer value ending at the node is kept over a
        // shorter one ending at its link.
        let mut children: Vec<Vec<(u8, u32)>> = vec![Vec::new(); a.fail.len()];
        for (&(from, b), &to) in &a.edges {
            children[from as usize].push((b, to));
        }
        let mut queue = std::collections::VecDeque::new();
        for &(_, child) in &children[0] {
            queue.push_back(child);
        }
        while let Some(node) = queue.pop_front() {
            for &(b, child) in &children[node as usize] {
                let mut f = a.fail[node as usize];
                let link = loop {
                    if let Some(&to) = a.edges.get(&(f, b)) {
                        break to;
                    }
                    if f == 0 {
                        break 0;
                    }
                    f = a.fail[f as usize];
                };
                a.fail[child as usize] = link;
                let inherited = a.longest[link as usize];
                let own = &mut a.longest[child as usize];
                *own = (*own).max(inherited);
                queue.push_back(child);
            }
        }
        a
    }

    /// For each place in `text` a value ends, the longest that ends there
    /// (the shorter ones lie inside it): linear in `text`. Values are whole
    /// UTF-8 strings, so each range lies on character boundaries.
    fn spans(&self, text: &str) -> Vec<(usize, usize)> {
        let mut found = Vec::new();
        if self.fail.len() == 1 {
            return found;
        }
        let mut node = 0u32;
        for (i, &b) in text.as_bytes().iter().enumerate() {
            node = loop {
                if let Some(&to) = self.edges.get(&(node, b)) {
                    break to;
                }
                if node == 0 {
                    break 0;
                }
                node = self.fail[node as usize];
            };
            let len = self.longest[node as usize] as usize;
            if len > 0 {
                found.push((i + 1 - len, i + 1));
            }
        }
        found
    }
}

/// The length of the longest beginning of `rest` that is how one of
/// `patterns` ends, found for each pattern with one pass of the
/// Knuth-Morris-Pratt matcher for `rest` over it: linear in `rest` and the
/// patterns, where trying every end of every pattern was quadratic.
fn longest_end_at_start<S: AsRef<str>>(
    rest: &str,
    patterns: impl IntoIterator<Item = S>,
) -> Option<usize> {
    longest_end_at_start_after(rest, patterns, |_| true)
}

/// [`longest_end_at_start`], counting only the ends of a pattern whose
/// character just before them is one `before` accepts: each pattern's
/// shorter ends are tried too, longest first, along the matcher's
/// borders (linear in the pattern, as each border is shorter).
fn longest_end_at_start_after<S: AsRef<str>>(
    rest: &str,
    patterns: impl IntoIterator<Item = S>,
    before: impl Fn(Option<char>) -> bool,
) -> Option<usize> {
    let needle = rest.as_bytes();
    if needle.is_empty() {
        return None;
    }
    // border[i]: the longest proper border of needle[..=i].
    let mut border = vec![0usize; needle.len()];
    let mut k = 0;
    for i in 1..needle.len() {
        while k > 0 && needle[i] != needle[k] {
            k = border[k - 1];
        }
        if needle[i] == needle[k] {
            k += 1;
        }
        border[i] = k;
    }
    patterns
        .into_iter()
        .filter_map(|p| {
            // k: how much of needle's beginning the text read so far ends with.
            let mut k = 0;
            for &b in p.as_ref().as_bytes() {
                if k == needle.len() {
                    k = border[k - 1];
                }
                while k > 0 && b != needle[k] {
                    k = border[k - 1];
                }
                if b == needle[k] {
                    k += 1;
                }
            }
            // A pattern that starts mid-character cannot have been cut
            // there: the tail begins at a character.
            let p = p.as_ref();
            while k > 0 {
                let at = p.len() - k;
                if rest.is_char_boundary(k)
                    && p.is_char_boundary(at)
                    && before(p[..at].chars().next_back())
                {
                    return Some(k);
                }
                k = border[k - 1];
            }
            None
        })
        .max()
}

/// The length of the beginning of `rest` to hide when a tail was cut
/// inside a `\uXXXX` escape (`02B` left of `\u002B`), whichever
/// character its encoder escaped: the digits left (with the `u`, if it was
/// kept) are the end of some character's escape (its high surrogate's,
/// when the low one's escape follows), and what follows, read as JSON, is
/// how a value ends just after such a character.
fn cut_escape_at_start(rest: &str, values: &[String]) -> Option<usize> {
    let bytes = rest.as_bytes();
    let unit_at = |at: usize| -> Option<u16> {
        let hex = std::str::from_utf8(bytes.get(at..at + 4)?).ok()?;
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u16::from_str_radix(hex, 16).ok()
    };
    let mut best = None;
    // A cut just after the backslash of a short escape leaves its letter;
    // one between the halves of an escaped backslash (`\\`) leaves the
    // second half, which JSON would join with the next letter (`\t`).
    let short = match bytes.first() {
        Some(b'\\') => Some('\\'),
        Some(b'n') => Some('\n'),
        Some(b'r') => Some('\r'),
        Some(b't') => Some('\t'),
        Some(b'b') => Some('\u{8}'),
        Some(b'f') => Some('\u{c}'),
        _ => None,
    };
    if let Some(short) = short {
        let decoded = Decoded::new(&rest[1..]);
        let fits = |c: Option<char>| c == Some(short);
        if let Some(len) = longest_end_at_start_after(&decoded.text, values, fits) {
            best = Some(1 + decoded.origin(0, len).1);
        }
    }
    // None kept: the tail begins with the low half's escape of a pair.
    for kept in 0..=5 {
        let Some(head) = bytes.get(..kept) else { break };
        let digits = if kept == 5 && head[0] == b'u' {
            &head[1..]
        } else {
            head
        };
        if !digits.iter().all(u8::is_ascii_hexdigit) {
            continue;
        }
        // The digits as a number, and the power of 16 they end a unit at.
        let ends = digits.iter().fold(0u32, |n, &d| {
            n * 16 + char::from(d).to_digit(16).unwrap_or_default()
        });
        let span = 16u32.pow(digits.len().min(4) as u32);
        // The low half of a pair, when its escape follows the cut one.
        let low = (bytes.get(kept..kept + 2) == Some(b"\\u"))
            .then(|| unit_at(kept + 2))
            .flatten()
            .filter(|l| (0xdc00..0xe000).contains(l));
        if kept == 0 && low.is_none() {
            continue;
        }
        let after = kept + if low.is_some() { 6 } else { 0 };
        let decoded = Decoded::new(&rest[after..]);
        let fits = |c: Option<char>| {
            let Some(c) = c else { return false };
            let mut units = [0u16; 2];
            let units = c.encode_utf16(&mut units);
            let cut = match (low, &units[..]) {
                (Some(low), [high, l]) if *l == low => *high,
                (Some(_), _) => return false,
                (None, [.., last]) => *last,
                (None, []) => return false,
            };
            u32::from(cut) % span == ends
        };
        if let Some(len) = longest_end_at_start_after(&decoded.text, values, fits) {
            let end = after + decoded.origin(0, len).1;
            best = best.max(Some(end));
        }
    }
    best
}

/// The JSON-escaped forms of a value, for a tail cut inside an escape,
/// which [`Decoded`] cannot read. A plugin that logs JSON escapes what it must
/// (a quote, a backslash, a control character) and, by its encoder's
/// default, more: Go's `encoding/json`, which Nomad plugins are written
/// with, writes `<`, `>`, `&`, U+2028 and U+2029 as `\u003c` and so on;
/// Python's `json.dumps` writes DEL and every character past ASCII as
/// `\u00e4` (a pair of escapes past U+FFFF); other encoders spell the hex
/// digits in capitals, and Go before 1.22 wrote a backspace and a form
/// feed as `\u0008` and `\u000c`. Every mix of those is tried.
fn escaped_forms(value: &str) -> impl Iterator<Item = String> + '_ {
    (0..16u8).map(move |bits| {
        let style = JsonStyle {
            html: bits & 1 != 0,
            ascii: bits & 2 != 0,
            upper: bits & 4 != 0,
            short: bits & 8 != 0,
        };
        json_inside(value, style)
    })
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

/// Text read as a JSON string's contents are read: every escape JSON
/// allows (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u` with four
/// hex digits in either case, a surrogate pair as one character) decoded
/// wherever it stands, the rest as it is. Encoders differ in what they
/// escape beyond what JSON requires (Go's `log/slog` U+2028 but not `<`,
/// Gson `=` and `'`, .NET's System.Text.Json `+`, PHP `/`), so a list of
/// their habits always missed one; a value found in the decoded text is
/// found in any mix of them. Each decoded byte keeps where in the text its
/// character came from, so a match is masked where it was written.
struct Decoded {
    text: String,
    /// For each byte of `text`, the start in the original text of the
    /// character it was decoded from.
    from: Vec<usize>,
    /// For each byte of `text`, the end of that character there.
    to: Vec<usize>,
    /// Whether any escape was decoded (else `text` is the original).
    changed: bool,
}

impl Decoded {
    fn new(original: &str) -> Self {
        let bytes = original.as_bytes();
        let mut d = Decoded {
            text: String::with_capacity(original.len()),
            from: Vec::with_capacity(original.len()),
            to: Vec::with_capacity(original.len()),
            changed: false,
        };
        let mut i = 0;
        while i < original.len() {
            let escape = escape_at(bytes, i);
            d.changed |= escape.is_some();
            let (c, len) = escape.unwrap_or_else(|| {
                let c = original[i..].chars().next().unwrap_or('\u{fffd}');
                (c, c.len_utf8())
            });
            d.text.push(c);
            for _ in 0..c.len_utf8() {
                d.from.push(i);
                d.to.push(i + len);
            }
            i += len;
        }
        d
    }

    /// Where the original text's characters that decode to `[a, b)` are.
    fn origin(&self, a: usize, b: usize) -> (usize, usize) {
        (self.from[a], self.to[b - 1])
    }

    /// Every (overlapping) occurrence of every value, in the original.
    fn spans(&self, masker: &Masker) -> Vec<(usize, usize)> {
        if !self.changed {
            // The text itself was searched.
            return Vec::new();
        }
        masker
            .spans(&self.text)
            .into_iter()
            .map(|(a, b)| self.origin(a, b))
            .collect()
    }

    /// The end of a value the cut of a tail left at its start (after the
    /// replacement characters of a split character), in the original.
    fn cut_value_at_start(&self, values: &[String]) -> Option<(usize, usize)> {
        let start = self
            .text
            .char_indices()
            .find(|&(_, c)| c != char::REPLACEMENT_CHARACTER)
            .map(|(i, _)| i)?;
        longest_end_at_start(&self.text[start..], values)
            .map(|len| (0, self.origin(start, start + len).1))
    }
}

/// The character a JSON escape at `bytes[i]` stands for, and the escape's
/// length; `None` where no valid escape starts (a lone surrogate is none).
fn escape_at(bytes: &[u8], i: usize) -> Option<(char, usize)> {
    if bytes.get(i) != Some(&b'\\') {
        return None;
    }
    let short = match *bytes.get(i + 1)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let unit = |at: usize| -> Option<u32> {
                let hex = bytes.get(at..at + 4)?;
                let hex = std::str::from_utf8(hex).ok()?;
                if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return None;
                }
                u32::from_str_radix(hex, 16).ok()
            };
            let high = unit(i + 2)?;
            if let Some(c) = char::from_u32(high) {
                return Some((c, 6));
            }
            if !(0xd800..0xdc00).contains(&high) || bytes.get(i + 6..i + 8) != Some(b"\\u") {
                return None;
            }
            let low = unit(i + 8).filter(|l| (0xdc00..0xe000).contains(l))?;
            let c = char::from_u32(0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00))?;
            return Some((c, 12));
        }
        _ => return None,
    };
    Some((short, 2))
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
        // any encoder's mix of escapes, a pair for a character past U+FFFF
        let value = v(&["a+/=\u{1f511}\u{2028}<"]);
        for logged in [
            r#"{"v":"a\u002B\/\u003d\uD83D\udd11\u2028<"}"#,
            r#"{"v":"\u0061+/=\ud83d\udd11\u2028\u003C"}"#,
        ] {
            assert_eq!(mask(logged, &value), r#"{"v":"****"}"#, "{logged}");
        }
        // a lone surrogate or a bad escape decodes nothing
        assert_eq!(
            mask(r"x\ud83dy \u12 \q", &v(&["y"])),
            r"x\ud83d**** \u12 \q"
        );
        // a tail cut inside a value written with escapes
        assert_eq!(
            mask_stderr(br"YQ\u003d\u003d\u0022 more", 9, &v(&["dG9rYQ==\""])),
            "**** more"
        );
        // a tail cut inside an escape, in Go's form
        assert_eq!(mask_stderr(b"026ss rest", 5, &v(&["p&ss"])), "**** rest");
        // a tail whose start is no value's end, nearly: nothing hidden
        assert_eq!(mask_stderr(b"aab", 5, &v(&["xab"])), "aab");
        assert_eq!(mask_stderr(b"aab", 5, &v(&["xaa", "ba"])), "****b");
        // many values, one automaton, the longest ending at each place
        let many: Vec<String> = (0..500).map(|i| format!("v{i}")).collect();
        let many: Vec<SecretValue> = many.iter().map(|s| SecretValue::new(s.as_str())).collect();
        assert_eq!(mask("a v499 v5x v50", &many), "a **** ****x ****");
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
        // cut inside an escape no common encoder's habit makes, anywhere
        let token = v(&["dG9r+ZW4=x\u{1f511}y"]);
        for tail in [
            r"02BZW4=x\ud83d\udd11y rest",
            r"u002bZW4\u003dx\ud83d\udd11y rest",
            r"BZW4=x\ud83d\udd11y rest",
            r"3dx\ud83d\udd11y rest",
            r"83d\udd11y rest",
            r"d11y rest",
            r"\udd11y rest",
        ] {
            assert_eq!(
                mask_stderr(tail.as_bytes(), 5, &token),
                "**** rest",
                "{tail}"
            );
        }
        let token = v(&["a\nb=\u{1f511}\tc"]);
        for tail in [
            r"nb\u003d\ud83d\udd11\tc rest",
            r"\udd11\u0009c rest",
            r"tc rest",
        ] {
            assert_eq!(
                mask_stderr(tail.as_bytes(), 5, &token),
                "**** rest",
                "{tail}"
            );
        }
        // digits that end no escape of the character before: shown
        assert_eq!(mask_stderr(b"02CZW4= rest", 5, &token), "02CZW4= rest");
        assert_eq!(mask_stderr(b"3d rest", 5, &v(&["a=b"])), "3d rest");
        // and cut inside such an escape at a tail's start
        assert_eq!(mask_stderr(b"08b rest", 5, &v(&["a\u{8}b"])), "**** rest");
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

//! The bytes of a token: a string literal as Go unquotes it (escapes,
//! surrogates, invalid UTF-8 as U+FFFD), a number's source, a quoted
//! character for a message, and how a key folds to a field name.

/// A number's source text (the scanner checked it is ASCII).
pub(super) fn literal(raw: &[u8]) -> &str {
    std::str::from_utf8(raw).unwrap_or_default()
}

/// Whether Go would decode `key` into the struct field named `field`.
///
/// Go compares the two after folding each rune to the smallest rune of its
/// Unicode simple-fold orbit. For an ASCII field name that is ASCII case
/// folding plus the only two non-ASCII runes whose orbit reaches ASCII: the
/// Kelvin sign (with `k`) and the long s (with `s`). Field names here are the
/// JSON tags Nomad declares, all ASCII; a non-ASCII one only matches exactly.
pub(super) fn key_matches(key: &str, field: &str) -> bool {
    if key == field {
        return true;
    }
    if !field.is_ascii() {
        return false;
    }
    let mut key_chars = key.chars();
    for f in field.bytes() {
        let same = match key_chars.next() {
            None => return false,
            Some('\u{212A}') => f.eq_ignore_ascii_case(&b'k'),
            Some('\u{017F}') => f.eq_ignore_ascii_case(&b's'),
            Some(k) => k.is_ascii() && (k as u8).eq_ignore_ascii_case(&f),
        };
        if !same {
            return false;
        }
    }
    key_chars.next().is_none()
}

/// Go's `unquote` of a string token the scanner accepted (quotes
/// included): escapes decoded, a lone or unpaired surrogate escape as
/// U+FFFD, and every byte that does not start a valid UTF-8 sequence as
/// one U+FFFD (Go's `utf8.DecodeRune` steps one byte at a time, so `E2 82`
/// cut short is two, where Rust's lossy conversion would give one).
pub(super) fn unquote(token: &[u8]) -> String {
    let body = &token[1..token.len().saturating_sub(1).max(1)];
    if !body.contains(&b'\\')
        && let Ok(s) = std::str::from_utf8(body)
    {
        return s.to_string();
    }
    let mut out = String::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        let c = body[i];
        if c == b'\\' {
            i += 1;
            let Some(&e) = body.get(i) else { break };
            i += 1;
            let simple = match e {
                b'"' => '"',
                b'\\' => '\\',
                b'/' => '/',
                b'b' => '\u{8}',
                b'f' => '\u{c}',
                b'n' => '\n',
                b'r' => '\r',
                b't' => '\t',
                b'u' => {
                    let unit = hex4(&body[i..]);
                    i += 4;
                    let decoded = match unit {
                        Some(high @ 0xd800..=0xdbff) => {
                            // Only an immediately following `\u` low
                            // surrogate pairs; anything else is left for
                            // the next round.
                            let low = body
                                .get(i..i + 2)
                                .filter(|b| *b == b"\\u")
                                .and_then(|_| hex4(&body[i + 2..]))
                                .filter(|low| (0xdc00..=0xdfff).contains(low));
                            low.and_then(|low| {
                                i += 6;
                                char::from_u32(
                                    0x10000
                                        + ((u32::from(high) - 0xd800) << 10)
                                        + (u32::from(low) - 0xdc00),
                                )
                            })
                        }
                        Some(unit) => char::from_u32(u32::from(unit)),
                        None => None,
                    };
                    out.push(decoded.unwrap_or(char::REPLACEMENT_CHARACTER));
                    continue;
                }
                _ => char::REPLACEMENT_CHARACTER,
            };
            out.push(simple);
        } else if c < 0x80 {
            out.push(char::from(c));
            i += 1;
        } else {
            match utf8_char(&body[i..]) {
                Some((ch, width)) => {
                    out.push(ch);
                    i += width;
                }
                None => {
                    out.push(char::REPLACEMENT_CHARACTER);
                    i += 1;
                }
            }
        }
    }
    out
}

/// Four hex digits as a UTF-16 unit.
pub(super) fn hex4(b: &[u8]) -> Option<u16> {
    let digits = b.get(..4)?;
    let text = std::str::from_utf8(digits).ok()?;
    if !text.bytes().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    u16::from_str_radix(text, 16).ok()
}

/// The character a valid UTF-8 sequence at the start of `b` encodes, and
/// its width; `None` where Go's `DecodeRune` gives `RuneError` of width 1
/// (overlong forms, surrogates, past U+10FFFF, cut short).
pub(super) fn utf8_char(b: &[u8]) -> Option<(char, usize)> {
    let width = match b[0] {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return None,
    };
    let s = std::str::from_utf8(b.get(..width)?).ok()?;
    s.chars().next().map(|c| (c, width))
}

/// Go's `quoteChar`: the offending byte as Go's `strconv.Quote` would show
/// the rune with that byte's value, in single quotes. A byte of a multi-byte
/// UTF-8 sequence therefore shows as a Latin-1 character (a BOM's first byte
/// is `'ï'`), which looks odd but is what Nomad's logs say.
pub(super) fn quote_char(c: u8) -> String {
    match c {
        b'\'' => r"'\''".to_string(),
        b'"' => "'\"'".to_string(),
        b'\\' => r"'\\'".to_string(),
        0x07 => r"'\a'".to_string(),
        0x08 => r"'\b'".to_string(),
        0x0c => r"'\f'".to_string(),
        b'\n' => r"'\n'".to_string(),
        b'\r' => r"'\r'".to_string(),
        b'\t' => r"'\t'".to_string(),
        0x0b => r"'\v'".to_string(),
        0x00..=0x1f | 0x7f => format!("'\\x{c:02x}'"),
        0x20..=0x7e => format!("'{}'", char::from(c)),
        // C1 controls, no-break space and soft hyphen are not printable to Go.
        0x80..=0xa0 | 0xad => format!("'\\u{c:04x}'"),
        _ => format!("'{}'", char::from(c)),
    }
}

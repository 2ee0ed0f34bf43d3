//! Tokens, positions and literal values, as HCL 1's `token` package has
//! them: a string's value is unquoted by HCL's own `strconv.Unquote` (which
//! copies `${...}` as written) or, for a string from a JSON file, by Go's;
//! a heredoc's by `unindentHeredoc`, quirks included.

use std::fmt;

use crate::text::{RUNE_ERROR, decode_rune};

/// A place in the source, as HCL 1 counts it: a byte offset, a line from
/// 1, a column from 1 in characters. An HCL file's places are those of
/// its text with each CRLF made LF, as the parser reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Pos {
    pub offset: usize,
    pub line: usize,
    pub column: usize,
}

impl Pos {
    /// Whether the position is known (HCL 1's `IsValid`: line > 0).
    pub fn is_valid(&self) -> bool {
        self.line > 0
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_valid() {
            write!(f, "{}:{}", self.line, self.column)
        } else {
            f.write_str("-")
        }
    }
}

/// HCL 1's token types (a JSON file's are mapped onto them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenKind {
    Illegal,
    Eof,
    Comment,
    Ident,
    Number,
    Float,
    Bool,
    String,
    Heredoc,
    LBrack,
    LBrace,
    Comma,
    Period,
    RBrack,
    RBrace,
    Assign,
    Add,
    Sub,
    /// JSON only.
    Colon,
    /// JSON only; a `null` value becomes an empty [`TokenKind::String`].
    Null,
}

impl TokenKind {
    /// The name HCL 1's messages use.
    pub fn name(self) -> &'static str {
        match self {
            TokenKind::Illegal => "ILLEGAL",
            TokenKind::Eof => "EOF",
            TokenKind::Comment => "COMMENT",
            TokenKind::Ident => "IDENT",
            TokenKind::Number => "NUMBER",
            TokenKind::Float => "FLOAT",
            TokenKind::Bool => "BOOL",
            TokenKind::String => "STRING",
            TokenKind::Heredoc => "HEREDOC",
            TokenKind::LBrack => "LBRACK",
            TokenKind::LBrace => "LBRACE",
            TokenKind::Comma => "COMMA",
            TokenKind::Period => "PERIOD",
            TokenKind::RBrack => "RBRACK",
            TokenKind::RBrace => "RBRACE",
            TokenKind::Assign => "ASSIGN",
            TokenKind::Add => "ADD",
            TokenKind::Sub => "SUB",
            TokenKind::Colon => "COLON",
            TokenKind::Null => "NULL",
        }
    }
}

impl fmt::Display for TokenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One token: its type, where it starts, and its text as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub pos: Pos,
    pub text: String,
    /// From a JSON file: a string is unquoted as Go's `strconv.Unquote`
    /// does, not as HCL's.
    pub json: bool,
}

/// Why a literal has no value. HCL 1 itself panics on each of these
/// (`Token.Value`), so a program using it stops: plugctl refuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueError {
    /// A string whose escapes HCL 1's unquoting refuses (`"\777"`,
    /// `"\U00110000"`, in JSON also `"\ud800"`), or a `${` that is not
    /// closed.
    Unquote,
    /// A number HCL 1 cannot read (`08`, out of range).
    Number,
    /// A token that has no value (not a literal).
    NotALiteral,
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ValueError::Unquote => {
                "a string HCL 1 cannot unquote (an escape out of range, or a ${ not closed)"
            }
            ValueError::Number => "a number HCL 1 cannot read",
            ValueError::NotALiteral => "not a literal value",
        })
    }
}

/// A literal's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Bytes: escapes such as `\xff` make strings that are not UTF-8.
    Str(Vec<u8>),
    Int(i64),
    Float(f64),
    Bool(bool),
}

impl Token {
    /// The value of a literal (or an identifier: its text), as HCL 1's
    /// `Token.Value` gives it.
    pub fn value(&self) -> Result<Value, ValueError> {
        match self.kind {
            TokenKind::Bool => match self.text.as_str() {
                "true" => Ok(Value::Bool(true)),
                "false" => Ok(Value::Bool(false)),
                _ => Err(ValueError::NotALiteral),
            },
            TokenKind::Number => parse_int(&self.text)
                .map(Value::Int)
                .ok_or(ValueError::Number),
            TokenKind::Float => self
                .text
                .parse::<f64>()
                .ok()
                .filter(|f| f.is_finite())
                .map(Value::Float)
                .ok_or(ValueError::Number),
            TokenKind::Ident | TokenKind::String | TokenKind::Heredoc => {
                self.string_value().map(Value::Str)
            }
            _ => Err(ValueError::NotALiteral),
        }
    }

    /// The string an identifier, string or heredoc stands for.
    pub fn string_value(&self) -> Result<Vec<u8>, ValueError> {
        match self.kind {
            TokenKind::Ident => Ok(self.text.as_bytes().to_vec()),
            TokenKind::Heredoc => unindent_heredoc(&self.text).ok_or(ValueError::Unquote),
            // A JSON null.
            TokenKind::String if self.text.is_empty() => Ok(Vec::new()),
            TokenKind::String if self.json => go_unquote(&self.text).ok_or(ValueError::Unquote),
            TokenKind::String => hcl_unquote(&self.text).ok_or(ValueError::Unquote),
            _ => Err(ValueError::NotALiteral),
        }
    }
}

/// Go's `strconv.ParseInt(s, 0, 64)` for what HCL 1's scanner makes a
/// NUMBER: an optional `-`, then decimal, `0x` hexadecimal or `0` octal.
fn parse_int(s: &str) -> Option<i64> {
    let (neg, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let (radix, body) = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        (16, hex)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    if body.is_empty() || !body.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = u64::from_str_radix(body, radix).ok()?;
    if neg {
        0i64.checked_sub_unsigned(magnitude)
    } else {
        i64::try_from(magnitude).ok()
    }
}

fn push_rune(buf: &mut Vec<u8>, c: char) {
    let mut tmp = [0; 4];
    buf.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
}

/// One character of a quoted string, as Go's `UnquoteChar` with quote `"`
/// reads it: the rune (an `i32`, as Go's `rune`), whether it is a
/// character to encode rather than a byte, and the rest. `go`: Go's own
/// rules (a `\u` or `\U` must be a valid rune); else HCL 1's copy (only
/// above U+10FFFF is refused, and a negative rune is a byte).
fn unquote_char(s: &[u8], go: bool) -> Option<(i32, bool, &[u8])> {
    let c = *s.first()?;
    if c == b'"' {
        return None;
    }
    if c >= 0x80 {
        let (r, size) = decode_rune(s)?;
        return Some((r as i32, true, &s[size..]));
    }
    if c != b'\\' {
        return Some((i32::from(c), false, &s[1..]));
    }
    let c = *s.get(1)?;
    let s = &s[2..];
    let simple = |v: u8| Some((i32::from(v), false, s));
    match c {
        b'a' => simple(7),
        b'b' => simple(8),
        b'f' => simple(12),
        b'n' => simple(b'\n'),
        b'r' => simple(b'\r'),
        b't' => simple(b'\t'),
        b'v' => simple(11),
        b'\\' => simple(b'\\'),
        b'"' => simple(b'"'),
        b'x' | b'u' | b'U' => {
            let n = match c {
                b'x' => 2,
                b'u' => 4,
                _ => 8,
            };
            let digits = s.get(..n)?;
            let mut v: u32 = 0;
            for &d in digits {
                v = (v << 4) | char::from(d).to_digit(16)?;
            }
            let rest = &s[n..];
            if c == b'x' {
                return Some((v as i32, false, rest));
            }
            // Go's rune is an int32: eight hex digits may wrap negative.
            let r = v as i32;
            if go {
                char::from_u32(v)?;
            } else if r > 0x10FFFF {
                return None;
            }
            Some((r, true, rest))
        }
        b'0'..=b'7' => {
            let mut v = i32::from(c - b'0');
            let digits = s.get(..2)?;
            for &d in digits {
                let x = i32::from(d) - i32::from(b'0');
                if !(0..=7).contains(&x) {
                    return None;
                }
                v = (v << 3) | x;
            }
            if v > 255 {
                return None;
            }
            Some((v, false, &s[2..]))
        }
        _ => None,
    }
}

/// Appends what [`unquote_char`] read, as Go appends it: a byte, or the
/// rune's UTF-8 (U+FFFD for a surrogate or an invalid rune).
fn append(buf: &mut Vec<u8>, r: i32, multibyte: bool) {
    if r < 0x80 || !multibyte {
        buf.push(r as u8);
    } else {
        push_rune(
            buf,
            u32::try_from(r)
                .ok()
                .and_then(char::from_u32)
                .unwrap_or(RUNE_ERROR),
        );
    }
}

/// HCL 1's `strconv.Unquote`: a double-quoted string whose `${...}` parts
/// are copied as written (no escape is read inside them, and nothing is
/// interpolated); a raw newline is refused outside them.
pub fn hcl_unquote(text: &str) -> Option<Vec<u8>> {
    let b = text.as_bytes();
    let n = b.len();
    if n < 2 || b[0] != b'"' || b[n - 1] != b'"' {
        return None;
    }
    let mut s = &b[1..n - 1];
    let has = |c: u8| s.contains(&c);
    if !has(b'$') && !has(b'{') && has(b'\n') {
        return None;
    }
    if !has(b'\\') && !has(b'"') && !has(b'$') {
        return Some(s.to_vec());
    }
    let mut buf = Vec::with_capacity(s.len());
    while !s.is_empty() {
        if s.starts_with(b"${") {
            buf.extend_from_slice(b"${");
            s = &s[2..];
            let mut braces = 1;
            while !s.is_empty() && braces > 0 {
                let (r, size) = decode_rune(s)?;
                if r == RUNE_ERROR {
                    return None;
                }
                s = &s[size..];
                push_rune(&mut buf, r);
                match r {
                    '{' => braces += 1,
                    '}' => braces -= 1,
                    _ => {}
                }
            }
            if braces != 0 {
                return None;
            }
            continue;
        }
        if s[0] == b'\n' {
            return None;
        }
        let (r, multibyte, rest) = unquote_char(s, false)?;
        s = rest;
        append(&mut buf, r, multibyte);
    }
    Some(buf)
}

/// Go's `strconv.Unquote` of a double-quoted string, for strings from a
/// JSON file.
pub fn go_unquote(text: &str) -> Option<Vec<u8>> {
    let b = text.as_bytes();
    if b.len() < 2 || b[0] != b'"' {
        return None;
    }
    let mut s = &b[1..];
    let mut buf = Vec::with_capacity(s.len());
    while let Some(&c) = s.first() {
        if c == b'"' {
            break;
        }
        if c == b'\n' {
            return None;
        }
        let (r, multibyte, rest) = unquote_char(s, true)?;
        s = rest;
        append(&mut buf, r, multibyte);
    }
    // The closing quote, and nothing after it.
    (s == b"\"").then_some(buf)
}

/// HCL 1's `unindentHeredoc`, with its arithmetic: the body is cut as if
/// the closing line were as long as the anchor, so a closing anchor
/// indented by n characters leaves n of them in the value; `<<-` takes the
/// closing line's indentation off every line when all have it.
pub fn unindent_heredoc(text: &str) -> Option<Vec<u8>> {
    let b = text.as_bytes();
    let idx = b.iter().position(|&c| c == b'\n')?;
    let unindent = *b.get(2)? == b'-';
    if !unindent {
        return b
            .get(idx + 1..(b.len() + 1).checked_sub(idx)?)
            .map(<[u8]>::to_vec);
    }
    let body = b.get(idx + 1..(b.len() + 2).checked_sub(idx)?)?;
    let lines: Vec<&[u8]> = body.split(|&c| c == b'\n').collect();
    let prefix = *lines.last()?;
    if !lines.iter().all(|l| l.starts_with(prefix)) {
        let plain = b.get(idx + 1..(b.len() + 1).checked_sub(idx)?)?;
        let end = plain
            .iter()
            .rposition(|c| !matches!(c, b' ' | b'\t'))
            .map_or(0, |i| i + 1);
        return Some(plain[..end].to_vec());
    }
    let mut out: Vec<&[u8]> = lines[..lines.len() - 1]
        .iter()
        .map(|l| &l[prefix.len()..])
        .collect();
    out.push(b"");
    Some(out.join(&b'\n'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hcl(s: &str) -> Option<Vec<u8>> {
        hcl_unquote(s)
    }

    #[test]
    fn hcl_strings_unquote_as_hcl_1_does() {
        assert_eq!(hcl(r#""a\tb""#).unwrap(), b"a\tb");
        assert_eq!(hcl(r#""\x41\101\u00e9""#).unwrap(), "AAé".as_bytes());
        assert_eq!(hcl(r#""\xff""#).unwrap(), b"\xff");
        // ${...} is copied as written, escapes and all.
        assert_eq!(hcl(r#""/srv/${a\n}/x\n""#).unwrap(), b"/srv/${a\\n}/x\n");
        assert_eq!(hcl(r#""\777""#), None);
        assert_eq!(hcl(r#""\U00110000""#), None);
        // A surrogate is U+FFFD here (Go's own Unquote refuses it).
        assert_eq!(hcl(r#""\ud800""#).unwrap(), "\u{FFFD}".as_bytes());
        assert_eq!(go_unquote(r#""\ud800""#), None);
        // Eight hex digits wrap negative in Go's int32: one byte.
        assert_eq!(hcl(r#""\UFFFFFFFF""#).unwrap(), b"\xff");
        assert_eq!(go_unquote(r#""\UFFFFFFFF""#), None);
        assert_eq!(hcl("\"${a\nb}\"").unwrap(), b"${a\nb}");
        assert_eq!(hcl("\"a\nb\""), None);
        assert_eq!(hcl(r#""${a""#), None);
        assert_eq!(go_unquote(r#""a\/b""#), None);
        assert_eq!(go_unquote(r#""a\"b""#).unwrap(), b"a\"b");
    }

    #[test]
    fn heredocs_keep_hcl_1s_arithmetic() {
        assert_eq!(unindent_heredoc("<<EOT\nhello\nEOT\n").unwrap(), b"hello\n");
        // An indented closing anchor leaves its indentation in the value.
        assert_eq!(
            unindent_heredoc("<<EOT\nhello\n  EOT\n").unwrap(),
            b"hello\n  "
        );
        assert_eq!(
            unindent_heredoc("<<-EOT\n    a\n      b\n    EOT\n").unwrap(),
            b"a\n  b\n"
        );
        // A line less indented than the anchor: kept as is, the anchor's
        // indentation trimmed.
        assert_eq!(
            unindent_heredoc("<<-EOT\n  a\nb\n  EOT\n").unwrap(),
            b"  a\nb\n"
        );
    }

    #[test]
    fn numbers_read_as_go_parse_int() {
        assert_eq!(parse_int("017"), Some(15));
        assert_eq!(parse_int("0x1F"), Some(31));
        assert_eq!(parse_int("-9223372036854775808"), Some(i64::MIN));
        assert_eq!(parse_int("9223372036854775808"), None);
        assert_eq!(parse_int("08"), None);
        assert_eq!(parse_int("0"), Some(0));
    }
}

//! Go encoding/json-compatible decoding of plugin output.
//!
//! Nomad reads a plugin's stdout with `json.Unmarshal(stdout, &response)`.
//! What matters for compatibility is not "is this JSON" but "does Go accept
//! it, and which value does each struct field end up with". That differs from
//! serde in ways a plugin author will trip over: keys match field names
//! case-insensitively, duplicate keys are all applied in document order (so
//! the last one wins), `null` leaves a string field untouched, numbers are
//! checked against the literal text, and syntax errors are worded the way Go
//! words them.
//!
//! So this module has its own small parser, a direct reading of Go's scanner
//! (`encoding/json/scanner.go`): each error site mirrors a scanner state, so
//! the messages and offsets line up with what Nomad would log. Values are
//! still handed out as [`serde_json::Value`].
//!
//! Where we are deliberately stricter than Go (a plugin plugctl accepts must be
//! accepted by Nomad, not necessarily the reverse):
//! - invalid UTF-8 inside strings is an error (Go substitutes U+FFFD);
//! - nesting deeper than [`MAX_DEPTH`] is an error (Go allows 10000);
//! - a number too large for an `f64` (`1e400`) is an error even in a key Go
//!   would ignore, because [`serde_json::Value`] cannot hold it.

use std::collections::BTreeMap;
use std::ops::Range;

use serde_json::{Map, Number, Value};

/// Deepest nesting of arrays and objects we build. Deep enough for any real
/// plugin, shallow enough that building and dropping the nested `Value`s
/// (both recursive) cannot exhaust a thread's stack.
pub const MAX_DEPTH: usize = 128;

/// Why plugin output is not what Nomad would accept.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonError {
    /// Go's `SyntaxError` text. `offset` is the zero-based index of the
    /// offending byte (Go's own `Offset` counts bytes read, so it is one more);
    /// when input ends inside a token it is the input length, and the
    /// character is reported as `' '` because Go's scanner is fed a space at
    /// end of input.
    #[error("{message} at byte {offset}")]
    Syntax { offset: usize, message: String },
    /// Input ended where more JSON was required, including empty input.
    #[error("unexpected end of JSON input")]
    UnexpectedEnd { offset: usize },
    #[error("invalid UTF-8 in string literal at byte {offset}")]
    InvalidUtf8 { offset: usize },
    #[error("arrays and objects nested deeper than {max} levels at byte {offset}", max = MAX_DEPTH)]
    TooDeep { offset: usize },
    #[error("number {literal} at byte {offset} does not fit a 64-bit float")]
    NumberOutOfRange { offset: usize, literal: String },
    /// Go's `UnmarshalTypeError` text, without Go's `json: ` prefix. `field`
    /// is empty when the top-level value itself has the wrong type.
    #[error("{message}")]
    Type { field: String, message: String },
}

/// The top-level object of one plugin response, every member kept in
/// document order, duplicates included.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object {
    entries: Vec<Entry>,
    go_type: String,
}

#[derive(Debug, Clone, PartialEq)]
struct Entry {
    key: String,
    value: Value,
    /// The value's source text. Integers are judged on their literal (Go
    /// rejects `5.0` for an int64 and quotes it in the error), and a map's
    /// own duplicate keys matter for errors, which the collapsed
    /// `serde_json::Map` in `value` no longer shows.
    text: Box<str>,
}

/// Parses `bytes` as `json.Unmarshal` into a struct would.
///
/// Error messages name the struct as `Go struct field .name`; use
/// [`parse_object_as`] to put a Go type name in front of the dot.
pub fn parse_object(bytes: &[u8]) -> Result<Object, JsonError> {
    parse_object_as(bytes, "")
}

/// Like [`parse_object`], naming the Go type in errors the way Go does.
///
/// `go_type` is the type as Go prints it, e.g.
/// `hostvolumemanager.PluginFingerprint`: whole for a top-level mismatch
/// (`Go value of type hostvolumemanager.PluginFingerprint`), without its
/// package for a field (`Go struct field PluginFingerprint.version`).
pub fn parse_object_as(bytes: &[u8], go_type: &str) -> Result<Object, JsonError> {
    let mut parser = Parser::new(bytes);
    let first = parser.next_token()?;
    // Go checks the whole input for syntax before it decodes anything, so a
    // syntax error anywhere wins over a top-level type mismatch.
    let (members, not_an_object) = if first == b'{' {
        (parser.object()?, None)
    } else {
        (Vec::new(), Some(parser.value()?))
    };
    parser.skip_whitespace();
    if parser.peek().is_some() {
        return Err(parser.invalid("after top-level value"));
    }

    match not_an_object {
        // A bare `null` leaves Go's struct untouched: no error, no fields.
        None | Some(Value::Null) => {}
        Some(other) => {
            let target = if go_type.is_empty() {
                "struct"
            } else {
                go_type
            };
            return Err(JsonError::Type {
                field: String::new(),
                message: format!(
                    "cannot unmarshal {} into Go value of type {target}",
                    kind(&other)
                ),
            });
        }
    }
    let mut object = Object {
        entries: Vec::with_capacity(members.len()),
        go_type: go_type.to_string(),
    };
    for (key, value, span) in members {
        let text = source_text(bytes, span)?;
        object.entries.push(Entry { key, value, text });
    }
    Ok(object)
}

impl Object {
    /// True when the input was `{}` or `null`.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every key as written, in document order, duplicates included; for
    /// reporting keys Nomad would ignore.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|e| e.key.as_str())
    }

    /// Every value Go would decode into `field`, in document order, `null`s
    /// included. For fields whose `null` handling differs from a plain
    /// string's: Go sets a pointer, map, slice or interface field to nil on
    /// `null` (Nomad's `*version.Version` is one), so for those the last
    /// element here, `null` or not, is what Nomad keeps.
    pub fn values<'a>(&'a self, field: &str) -> impl Iterator<Item = &'a Value> {
        self.matching(field).map(|e| &e.value)
    }

    /// The last non-null value for `field`: what a non-pointer Go field ends
    /// up holding, since `null` does not overwrite it.
    pub fn raw(&self, field: &str) -> Option<&Value> {
        self.values(field).filter(|v| !v.is_null()).last()
    }

    /// The last value for `field`, `null` included (pointer-field semantics).
    pub fn last(&self, field: &str) -> Option<&Value> {
        self.values(field).last()
    }

    /// Whether any key maps to `field`, even with a `null` value, for checks
    /// that must tell `"error": null` from a missing `error`.
    pub fn has_key_folded(&self, field: &str) -> bool {
        self.matching(field).next().is_some()
    }

    /// A Go `string` field.
    ///
    /// Go decodes every matching member in turn and reports the first type
    /// error even if a later member would have been fine, so any non-string,
    /// non-null member is an error here too.
    pub fn string(&self, field: &str) -> Result<Option<String>, JsonError> {
        let mut result = None;
        for entry in self.matching(field) {
            match &entry.value {
                Value::Null => {}
                Value::String(s) => result = Some(s.clone()),
                other => return Err(self.type_error(field, kind(other), "string")),
            }
        }
        Ok(result)
    }

    /// A Go `int64` field: an integer literal in range, nothing else. `5.0`,
    /// `1e3` and `"5"` are errors in Go even though they denote an integer.
    pub fn int64(&self, field: &str) -> Result<Option<i64>, JsonError> {
        let mut result = None;
        for entry in self.matching(field) {
            match &entry.value {
                Value::Null => {}
                // strconv.ParseInt and Rust's parser judge every JSON number
                // literal alike (`-0` included), so the literal decides here
                // exactly as it does in Go.
                Value::Number(_) => match entry.text.parse::<i64>() {
                    Ok(n) => result = Some(n),
                    Err(_) => {
                        let found = format!("number {}", entry.text);
                        return Err(self.type_error(field, &found, "int64"));
                    }
                },
                other => return Err(self.type_error(field, kind(other), "int64")),
            }
        }
        Ok(result)
    }

    /// A Go `map[string]string` field.
    ///
    /// Follows Go's map rules, which differ from a string field's: `null`
    /// resets the map to nil, a repeated key merges into the map decoded so
    /// far instead of replacing it, a `null` element stores `""`, and map
    /// keys are exact (no case folding), the last duplicate winning.
    pub fn string_map(&self, field: &str) -> Result<Option<BTreeMap<String, String>>, JsonError> {
        let mut result: Option<BTreeMap<String, String>> = None;
        for entry in self.matching(field) {
            match &entry.value {
                Value::Null => result = None,
                Value::Object(_) => {
                    let map = result.get_or_insert_with(BTreeMap::new);
                    for (key, value, _) in Parser::new(entry.text.as_bytes()).object()? {
                        let element = match value {
                            Value::String(s) => s,
                            Value::Null => String::new(),
                            other => {
                                return Err(JsonError::Type {
                                    field: field.to_string(),
                                    message: format!(
                                        "cannot unmarshal {} into Go struct field {}.{field} of type string (map key {key:?})",
                                        kind(&other),
                                        self.struct_name()
                                    ),
                                });
                            }
                        };
                        map.insert(key, element);
                    }
                }
                other => return Err(self.type_error(field, kind(other), "map[string]string")),
            }
        }
        Ok(result)
    }

    fn matching<'a>(&'a self, field: &str) -> impl Iterator<Item = &'a Entry> {
        self.entries
            .iter()
            .filter(move |e| key_matches(&e.key, field))
    }

    /// Go names the struct without its package in field errors.
    fn struct_name(&self) -> &str {
        self.go_type.rsplit('.').next().unwrap_or_default()
    }

    fn type_error(&self, field: &str, found: &str, go_type: &str) -> JsonError {
        JsonError::Type {
            field: field.to_string(),
            message: format!(
                "cannot unmarshal {found} into Go struct field {}.{field} of type {go_type}",
                self.struct_name()
            ),
        }
    }
}

/// Whether Go would decode `key` into the struct field named `field`.
///
/// Go compares the two after folding each rune to the smallest rune of its
/// Unicode simple-fold orbit. For an ASCII field name that is ASCII case
/// folding plus the only two non-ASCII runes whose orbit reaches ASCII: the
/// Kelvin sign (with `k`) and the long s (with `s`). Field names here are the
/// JSON tags Nomad declares, all ASCII; a non-ASCII one only matches exactly.
fn key_matches(key: &str, field: &str) -> bool {
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

/// How Go's type errors describe a JSON value.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn source_text(bytes: &[u8], span: Range<usize>) -> Result<Box<str>, JsonError> {
    let start = span.start;
    bytes
        .get(span)
        .and_then(|b| std::str::from_utf8(b).ok())
        .map(Box::from)
        // The parser has validated the span; this only keeps the
        // impossible case from becoming a panic.
        .ok_or(JsonError::InvalidUtf8 { offset: start })
}

/// Go's `quoteChar`: the offending byte as Go's `strconv.Quote` would show
/// the rune with that byte's value, in single quotes. A byte of a multi-byte
/// UTF-8 sequence therefore shows as a Latin-1 character (a BOM's first byte
/// is `'ï'`), which looks odd but is what Nomad's logs say.
fn quote_char(c: u8) -> String {
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

type Member = (String, Value, Range<usize>);

struct Parser<'a> {
    input: &'a [u8],
    pos: usize,
    depth: usize,
}

impl<'a> Parser<'a> {
    fn new(input: &'a [u8]) -> Self {
        Parser {
            input,
            pos: 0,
            depth: 0,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    /// Go's scanner learns about end of input by being fed a space, so a
    /// token cut short complains about `' '`.
    fn current_or_space(&self) -> u8 {
        self.peek().unwrap_or(b' ')
    }

    fn invalid(&self, context: &str) -> JsonError {
        JsonError::Syntax {
            offset: self.pos,
            message: format!(
                "invalid character {} {context}",
                quote_char(self.current_or_space())
            ),
        }
    }

    fn unexpected_end(&self) -> JsonError {
        JsonError::UnexpectedEnd {
            offset: self.input.len(),
        }
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// Every place between tokens needs more input; a space there is fine
    /// to Go's scanner, so running out is "unexpected end", not a character.
    fn next_token(&mut self) -> Result<u8, JsonError> {
        self.skip_whitespace();
        self.peek().ok_or_else(|| self.unexpected_end())
    }

    fn value(&mut self) -> Result<Value, JsonError> {
        match self.next_token()? {
            b'{' => {
                let members = self.object()?;
                Ok(Value::Object(
                    members
                        .into_iter()
                        .map(|(k, v, _)| (k, v))
                        .collect::<Map<_, _>>(),
                ))
            }
            b'[' => self.array(),
            b'"' => self.string().map(Value::String),
            b'-' | b'0'..=b'9' => self.number(),
            b't' => self.literal("true").map(|()| Value::Bool(true)),
            b'f' => self.literal("false").map(|()| Value::Bool(false)),
            b'n' => self.literal("null").map(|()| Value::Null),
            _ => Err(self.invalid("looking for beginning of value")),
        }
    }

    /// Steps over an opening bracket, refusing to go past [`MAX_DEPTH`].
    fn enter(&mut self) -> Result<(), JsonError> {
        if self.depth >= MAX_DEPTH {
            return Err(JsonError::TooDeep { offset: self.pos });
        }
        self.depth += 1;
        self.pos += 1;
        Ok(())
    }

    /// An object starting at `{`, members in document order with the source
    /// span of each value.
    fn object(&mut self) -> Result<Vec<Member>, JsonError> {
        self.enter()?;
        let mut members = Vec::new();
        if self.next_token()? == b'}' {
            self.pos += 1;
            self.depth -= 1;
            return Ok(members);
        }
        loop {
            if self.next_token()? != b'"' {
                return Err(self.invalid("looking for beginning of object key string"));
            }
            let key = self.string()?;
            if self.next_token()? != b':' {
                return Err(self.invalid("after object key"));
            }
            self.pos += 1;
            self.skip_whitespace();
            let start = self.pos;
            let value = self.value()?;
            members.push((key, value, start..self.pos));
            match self.next_token()? {
                b',' => self.pos += 1,
                b'}' => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(self.invalid("after object key:value pair")),
            }
        }
        self.depth -= 1;
        Ok(members)
    }

    fn array(&mut self) -> Result<Value, JsonError> {
        self.enter()?;
        let mut items = Vec::new();
        if self.next_token()? == b']' {
            self.pos += 1;
            self.depth -= 1;
            return Ok(Value::Array(items));
        }
        loop {
            items.push(self.value()?);
            match self.next_token()? {
                b',' => self.pos += 1,
                b']' => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(self.invalid("after array element")),
            }
        }
        self.depth -= 1;
        Ok(Value::Array(items))
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.unexpected_end());
            };
            match c {
                b'"' => {
                    self.pos += 1;
                    return Ok(out);
                }
                b'\\' => {
                    self.pos += 1;
                    self.escape(&mut out)?;
                }
                0x00..=0x1f => return Err(self.invalid("in string literal")),
                0x20..=0x7f => {
                    out.push(char::from(c));
                    self.pos += 1;
                }
                _ => out.push(self.utf8_char()?),
            }
        }
    }

    fn utf8_char(&mut self) -> Result<char, JsonError> {
        let start = self.pos;
        let width = match self.input[start] {
            0xc2..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf4 => 4,
            _ => 0,
        };
        // from_utf8 also rejects overlong forms, surrogates and values past
        // U+10FFFF, which the width table alone would let through.
        let decoded = self
            .input
            .get(start..start + width)
            .and_then(|b| std::str::from_utf8(b).ok())
            .and_then(|s| s.chars().next());
        match decoded {
            Some(ch) => {
                self.pos += width;
                Ok(ch)
            }
            None => Err(JsonError::InvalidUtf8 { offset: start }),
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), JsonError> {
        let unescaped = match self.current_or_space() {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                self.pos += 1;
                return self.unicode_escape(out);
            }
            _ => return Err(self.invalid("in string escape code")),
        };
        out.push(unescaped);
        self.pos += 1;
        Ok(())
    }

    /// `\uXXXX` after the `u`. Go pairs a high surrogate with an immediately
    /// following `\u` low surrogate and turns any other surrogate into
    /// U+FFFD without consuming what follows; we do the same, so the result
    /// is always valid UTF-8 and never an error.
    fn unicode_escape(&mut self, out: &mut String) -> Result<(), JsonError> {
        let unit = self.hex4()?;
        let decoded = match unit {
            0xd800..=0xdbff => self.low_surrogate_ahead().and_then(|low| {
                self.pos += 6;
                let high = u32::from(unit - 0xd800) << 10;
                char::from_u32(0x10000 + high + u32::from(low - 0xdc00))
            }),
            0xdc00..=0xdfff => None,
            _ => char::from_u32(u32::from(unit)),
        };
        out.push(decoded.unwrap_or(char::REPLACEMENT_CHARACTER));
        Ok(())
    }

    fn hex4(&mut self) -> Result<u16, JsonError> {
        let mut unit = 0u16;
        for _ in 0..4 {
            let digit = char::from(self.current_or_space())
                .to_digit(16)
                .ok_or_else(|| self.invalid("in \\u hexadecimal character escape"))?;
            unit = unit * 16 + digit as u16;
            self.pos += 1;
        }
        Ok(unit)
    }

    fn low_surrogate_ahead(&self) -> Option<u16> {
        let ahead = self.input.get(self.pos..self.pos + 6)?;
        if !ahead.starts_with(b"\\u") || !ahead[2..].iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        let unit = ahead[2..].iter().fold(0u16, |acc, &b| {
            acc * 16 + char::from(b).to_digit(16).unwrap_or(0) as u16
        });
        (0xdc00..=0xdfff).contains(&unit).then_some(unit)
    }

    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.current_or_space() {
            // A leading zero ends the integer part; a digit after it is then
            // judged by whatever context follows the number, as in Go.
            b'0' => self.pos += 1,
            b'1'..=b'9' => self.digits(),
            _ => return Err(self.invalid("in numeric literal")),
        }
        let mut integral = true;
        if self.peek() == Some(b'.') {
            integral = false;
            self.pos += 1;
            if !self.current_or_space().is_ascii_digit() {
                return Err(self.invalid("after decimal point in numeric literal"));
            }
            self.digits();
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            integral = false;
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !self.current_or_space().is_ascii_digit() {
                return Err(self.invalid("in exponent of numeric literal"));
            }
            self.digits();
        }
        let text = source_text(self.input, start..self.pos)?;
        number_value(&text, integral).ok_or_else(|| JsonError::NumberOutOfRange {
            offset: start,
            literal: text.into(),
        })
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
    }

    fn literal(&mut self, word: &str) -> Result<(), JsonError> {
        self.pos += 1;
        for expected in word.bytes().skip(1) {
            if self.current_or_space() != expected {
                let context = format!("in literal {word} (expecting '{}')", char::from(expected));
                return Err(self.invalid(&context));
            }
            self.pos += 1;
        }
        Ok(())
    }
}

/// Integers keep their exact value where `serde_json::Number` can hold it;
/// everything else becomes an `f64`, and only infinity is refused.
fn number_value(text: &str, integral: bool) -> Option<Value> {
    if integral {
        if let Ok(n) = text.parse::<i64>() {
            return Some(Value::from(n));
        }
        if let Ok(n) = text.parse::<u64>() {
            return Some(Value::from(n));
        }
    }
    let float: f64 = text.parse().ok()?;
    Number::from_f64(float).map(Value::Number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(input: &str) -> Object {
        parse_object(input.as_bytes()).unwrap_or_else(|e| panic!("{input:?} should parse: {e}"))
    }

    fn parse_err(input: &[u8]) -> JsonError {
        match parse_object(input) {
            Ok(o) => panic!("{input:?} should fail, got {o:?}"),
            Err(e) => e,
        }
    }

    fn syntax(offset: usize, message: &str) -> JsonError {
        JsonError::Syntax {
            offset,
            message: message.to_string(),
        }
    }

    fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn reads_fields() {
        let obj = parse(r#"{"path":"/srv/vol","bytes":1024,"env":{"A":"1"}}"#);
        assert_eq!(obj.string("path").unwrap().as_deref(), Some("/srv/vol"));
        assert_eq!(obj.int64("bytes").unwrap(), Some(1024));
        assert_eq!(obj.string_map("env").unwrap(), Some(map(&[("A", "1")])));
        assert_eq!(obj.string("missing").unwrap(), None);
        assert_eq!(obj.int64("missing").unwrap(), None);
        assert_eq!(obj.string_map("missing").unwrap(), None);
        assert_eq!(obj.keys().collect::<Vec<_>>(), vec!["path", "bytes", "env"]);
    }

    #[test]
    fn keys_match_fields_case_insensitively() {
        assert_eq!(
            parse(r#"{"VERSION":"1"}"#)
                .string("version")
                .unwrap()
                .as_deref(),
            Some("1")
        );
        assert_eq!(
            parse(r#"{"vErSiOn":"1"}"#)
                .string("version")
                .unwrap()
                .as_deref(),
            Some("1")
        );
        // An exact match does not outrank a folded one: both decode into the
        // same field, and the later assignment wins.
        assert_eq!(
            parse(r#"{"Version":"1","version":"2"}"#)
                .string("version")
                .unwrap()
                .as_deref(),
            Some("2")
        );
        assert_eq!(
            parse(r#"{"version":"2","Version":"1"}"#)
                .string("version")
                .unwrap()
                .as_deref(),
            Some("1")
        );
        assert_eq!(
            parse(r#"{"path":"/a","PATH":"/b"}"#)
                .string("path")
                .unwrap()
                .as_deref(),
            Some("/b")
        );
        // Escapes are decoded before matching.
        assert_eq!(
            parse(r#"{"\u0076ersion":"1"}"#)
                .string("version")
                .unwrap()
                .as_deref(),
            Some("1")
        );
        // Not folding: separators and near misses.
        assert!(
            !parse(r#"{"ver_sion":"1","versions":"1","versio":"1"}"#).has_key_folded("version")
        );
    }

    #[test]
    fn go_special_folds_reach_ascii() {
        // KELVIN SIGN folds with k, LATIN SMALL LETTER LONG S with s.
        assert_eq!(
            parse("{\"\u{212A}ey\":\"x\"}")
                .string("key")
                .unwrap()
                .as_deref(),
            Some("x")
        );
        assert_eq!(
            parse(r#"{"\u212Aey":"x"}"#)
                .string("KEY")
                .unwrap()
                .as_deref(),
            Some("x")
        );
        assert_eq!(
            parse("{\"ver\u{17F}ion\":\"1\"}")
                .string("version")
                .unwrap()
                .as_deref(),
            Some("1")
        );
        assert_eq!(
            parse(r#"{"VER\u017FION":"1"}"#)
                .string("version")
                .unwrap()
                .as_deref(),
            Some("1")
        );
        // Dotted and dotless i have no simple fold to i, Å-with-ring-sign
        // folds to a non-ASCII letter: none of them reach an ASCII name.
        assert!(!parse(r#"{"\u0130d":1}"#).has_key_folded("id"));
        assert!(!parse(r#"{"\u0131d":1}"#).has_key_folded("id"));
        assert!(!parse(r#"{"\u212B":1}"#).has_key_folded("a"));
        assert!(!parse("{\"\u{17F}\u{17F}\":1}").has_key_folded("s"));
        // A non-ASCII field name only matches exactly.
        assert!(parse(r#"{"café":1}"#).has_key_folded("café"));
        assert!(!parse(r#"{"CAFÉ":1}"#).has_key_folded("café"));
    }

    #[test]
    fn null_does_not_overwrite_a_string_field() {
        let obj = parse(r#"{"version":"1","version":null}"#);
        assert_eq!(obj.string("version").unwrap().as_deref(), Some("1"));
        assert_eq!(obj.raw("version"), Some(&json!("1")));
        // Pointer-field semantics, for callers that need them.
        assert_eq!(obj.last("version"), Some(&Value::Null));
        assert_eq!(
            obj.values("version").collect::<Vec<_>>(),
            vec![&json!("1"), &Value::Null]
        );

        let only_null = parse(r#"{"version":null}"#);
        assert_eq!(only_null.string("version").unwrap(), None);
        assert_eq!(only_null.raw("version"), None);
        assert!(only_null.has_key_folded("version"));
    }

    #[test]
    fn has_key_folded_tells_null_from_absent() {
        assert!(parse(r#"{"error":null}"#).has_key_folded("error"));
        assert!(!parse(r#"{}"#).has_key_folded("error"));
        let empty = parse(r#"{"ERROR":""}"#);
        assert!(empty.has_key_folded("error"));
        assert_eq!(empty.string("error").unwrap().as_deref(), Some(""));
    }

    #[test]
    fn unknown_keys_are_ignored() {
        let obj = parse(r#"{"debug":[1,{"x":null}],"version":"1","extra":{"deep":true}}"#);
        assert_eq!(obj.string("version").unwrap().as_deref(), Some("1"));
        assert_eq!(obj.raw("extra"), Some(&json!({"deep": true})));
    }

    #[test]
    fn null_top_level_is_an_empty_object() {
        for input in ["null", " null\n"] {
            let obj = parse(input);
            assert!(obj.is_empty());
            assert_eq!(obj.string("version").unwrap(), None);
            assert!(!obj.has_key_folded("version"));
        }
        assert!(parse("{}").is_empty());
        // and an object with a member is not
        assert!(!parse(r#"{"a":1}"#).is_empty());
        assert!(!parse(r#"{"a":null}"#).is_empty());
    }

    #[test]
    fn surrounding_json_whitespace_is_allowed() {
        let obj = parse(" \t\r\n{\"version\" :\t\"1\" }\n\n");
        assert_eq!(obj.string("version").unwrap().as_deref(), Some("1"));
    }

    #[test]
    fn rejects_what_is_not_exactly_one_json_value() {
        assert_eq!(parse_err(b""), JsonError::UnexpectedEnd { offset: 0 });
        assert_eq!(parse_err(b"   "), JsonError::UnexpectedEnd { offset: 3 });
        assert_eq!(parse_err(b"").to_string(), "unexpected end of JSON input");
        assert_eq!(
            parse_err(b"log line\n{\"version\":\"1\"}"),
            syntax(0, "invalid character 'l' looking for beginning of value")
        );
        assert_eq!(
            parse_err(b"{} {}"),
            syntax(3, "invalid character '{' after top-level value")
        );
        assert_eq!(
            parse_err(b"{}x").to_string(),
            "invalid character 'x' after top-level value at byte 2"
        );
        assert_eq!(
            parse_err(b"{\"version\":\"1\"}\ndone\n"),
            syntax(16, "invalid character 'd' after top-level value")
        );
        assert_eq!(
            parse_err("\u{feff}{}".as_bytes()),
            syntax(0, "invalid character 'ï' looking for beginning of value")
        );
        // Only space, tab, CR and LF are whitespace.
        assert_eq!(
            parse_err(b"\x0c{}"),
            syntax(0, "invalid character '\\f' looking for beginning of value")
        );
        // U+00A0 is C2 A0 in UTF-8; Go reports the first byte, C2, as 'Â'.
        assert_eq!(
            parse_err("\u{a0}{}".as_bytes()),
            syntax(0, "invalid character 'Â' looking for beginning of value")
        );
    }

    #[test]
    fn rejects_invalid_utf8() {
        assert_eq!(
            parse_err(b"{\"a\":\"\xff\"}"),
            JsonError::InvalidUtf8 { offset: 6 }
        );
        assert_eq!(
            parse_err(b"{\"a\":\"ok \xc3\"}"),
            JsonError::InvalidUtf8 { offset: 9 }
        );
        // Overlong encoding and an encoded surrogate.
        assert_eq!(
            parse_err(b"{\"a\":\"\xc0\xaf\"}"),
            JsonError::InvalidUtf8 { offset: 6 }
        );
        assert_eq!(
            parse_err(b"{\"\xed\xa0\x80\":1}"),
            JsonError::InvalidUtf8 { offset: 2 }
        );
        // Outside a string Go's scanner already refuses the byte.
        assert_eq!(
            parse_err(b"\xff{}"),
            syntax(
                0,
                "invalid character '\u{ff}' looking for beginning of value"
            )
        );
        assert_eq!(
            parse_err(b"{\"a\":1}\x80"),
            syntax(7, "invalid character '\\u0080' after top-level value")
        );
        // Valid multi-byte text is fine.
        assert_eq!(
            parse(r#"{"a":"héllo ✓ 😀"}"#)
                .string("a")
                .unwrap()
                .as_deref(),
            Some("héllo ✓ 😀")
        );
    }

    #[test]
    fn top_level_must_be_an_object() {
        let cases: &[(&str, &str)] = &[
            ("[1]", "array"),
            ("\"str\"", "string"),
            ("5", "number"),
            ("-0.5e3", "number"),
            ("true", "bool"),
            ("false", "bool"),
        ];
        for &(input, found) in cases {
            assert_eq!(
                parse_err(input.as_bytes()),
                JsonError::Type {
                    field: String::new(),
                    message: format!("cannot unmarshal {found} into Go value of type struct"),
                },
                "{input}"
            );
        }
        // A syntax error anywhere outranks the type mismatch, as in Go.
        assert_eq!(
            parse_err(b"[1 2]"),
            syntax(3, "invalid character '2' after array element")
        );
    }

    #[test]
    fn names_the_go_type_like_go() {
        let err = parse_object_as(b"[]", "hostvolumemanager.PluginFingerprint").unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot unmarshal array into Go value of type hostvolumemanager.PluginFingerprint"
        );
        let obj =
            parse_object_as(br#"{"version":1}"#, "hostvolumemanager.PluginFingerprint").unwrap();
        assert_eq!(
            obj.string("version").unwrap_err().to_string(),
            "cannot unmarshal number into Go struct field PluginFingerprint.version of type string"
        );
    }

    #[test]
    fn syntax_errors_read_like_go() {
        let cases: &[(&[u8], usize, &str)] = &[
            (b"{\"a\" 1}", 5, "invalid character '1' after object key"),
            (
                b"{\"a\":1 \"b\":2}",
                7,
                "invalid character '\"' after object key:value pair",
            ),
            (
                b"{,}",
                1,
                "invalid character ',' looking for beginning of object key string",
            ),
            (
                b"{\"a\":1,}",
                7,
                "invalid character '}' looking for beginning of object key string",
            ),
            (
                b"{'a':1}",
                1,
                "invalid character '\\'' looking for beginning of object key string",
            ),
            (
                b"{\"a\":[1,]}",
                8,
                "invalid character ']' looking for beginning of value",
            ),
            (
                b"{\"a\":[1}",
                7,
                "invalid character '}' after array element",
            ),
            (
                b"{\"a\":01}",
                6,
                "invalid character '1' after object key:value pair",
            ),
            (b"{\"a\":-}", 6, "invalid character '}' in numeric literal"),
            (
                b"{\"a\":+1}",
                5,
                "invalid character '+' looking for beginning of value",
            ),
            (
                b"{\"a\":.5}",
                5,
                "invalid character '.' looking for beginning of value",
            ),
            (
                b"{\"a\":1.}",
                7,
                "invalid character '}' after decimal point in numeric literal",
            ),
            (
                b"{\"a\":1e}",
                7,
                "invalid character '}' in exponent of numeric literal",
            ),
            (
                b"{\"a\":1e+}",
                8,
                "invalid character '}' in exponent of numeric literal",
            ),
            (
                b"{\"a\":tru}",
                8,
                "invalid character '}' in literal true (expecting 'e')",
            ),
            (
                b"{\"a\":fals}",
                9,
                "invalid character '}' in literal false (expecting 'e')",
            ),
            (
                b"{\"a\":nul}",
                8,
                "invalid character '}' in literal null (expecting 'l')",
            ),
            (
                b"{\"a\":nil}",
                6,
                "invalid character 'i' in literal null (expecting 'u')",
            ),
            (
                b"{\"a\":NaN}",
                5,
                "invalid character 'N' looking for beginning of value",
            ),
            (
                b"{\"a\":\"\\x\"}",
                7,
                "invalid character 'x' in string escape code",
            ),
            (
                b"{\"a\":\"\\'\"}",
                7,
                "invalid character '\\'' in string escape code",
            ),
            (
                b"{\"a\":\"\\u12g4\"}",
                10,
                "invalid character 'g' in \\u hexadecimal character escape",
            ),
            (
                b"{\"a\":\"x\ny\"}",
                7,
                "invalid character '\\n' in string literal",
            ),
            (
                b"{\"a\":\"\t\"}",
                6,
                "invalid character '\\t' in string literal",
            ),
            (
                b"{\"a\":\"\x00\"}",
                6,
                "invalid character '\\x00' in string literal",
            ),
            (
                b"{\"a\":\"\x1b\"}",
                6,
                "invalid character '\\x1b' in string literal",
            ),
            (
                b"{\"a\":1}}",
                7,
                "invalid character '}' after top-level value",
            ),
            (
                b"{\"a\":\\}",
                5,
                "invalid character '\\\\' looking for beginning of value",
            ),
            (
                b"{\"a\":\x7f}",
                5,
                "invalid character '\\x7f' looking for beginning of value",
            ),
            // Input ending inside a token: Go's scanner sees a space.
            (
                b"{\"a\":tr",
                7,
                "invalid character ' ' in literal true (expecting 'u')",
            ),
            (b"{\"a\":-", 6, "invalid character ' ' in numeric literal"),
            (
                b"{\"a\":1.",
                7,
                "invalid character ' ' after decimal point in numeric literal",
            ),
            (
                b"{\"a\":\"\\",
                7,
                "invalid character ' ' in string escape code",
            ),
            (
                b"{\"a\":\"\\u00",
                10,
                "invalid character ' ' in \\u hexadecimal character escape",
            ),
        ];
        for &(input, offset, message) in cases {
            assert_eq!(
                parse_err(input),
                syntax(offset, message),
                "{}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn truncated_input_is_unexpected_end() {
        for input in [
            &b"{"[..],
            b"{\"a\"",
            b"{\"a\":",
            b"{\"a\":1",
            b"{\"a\":1,",
            b"{\"a\":\"x",
            b"{\"a\":[",
            b"{\"a\":[1",
            b"{\"a\":[1,",
            b"{\"a\":{\"b\":1}",
        ] {
            assert_eq!(
                parse_err(input),
                JsonError::UnexpectedEnd {
                    offset: input.len()
                },
                "{}",
                String::from_utf8_lossy(input)
            );
        }
        // A complete top-level number needs no terminator.
        assert_eq!(
            parse_err(b"12").to_string(),
            "cannot unmarshal number into Go value of type struct"
        );
    }

    #[test]
    fn int64_accepts_only_integer_literals_in_range() {
        let ok: &[(&str, i64)] = &[
            ("5", 5),
            ("-5", -5),
            ("0", 0),
            ("-0", 0),
            ("9223372036854775807", i64::MAX),
            ("-9223372036854775808", i64::MIN),
        ];
        for &(literal, want) in ok {
            let obj = parse(&format!(r#"{{"bytes":{literal}}}"#));
            assert_eq!(obj.int64("bytes").unwrap(), Some(want), "{literal}");
        }
        let bad: &[(&str, &str)] = &[
            ("5.0", "number 5.0"),
            ("1e3", "number 1e3"),
            ("1E3", "number 1E3"),
            ("-0.0", "number -0.0"),
            ("9223372036854775808", "number 9223372036854775808"),
            ("-9223372036854775809", "number -9223372036854775809"),
            ("18446744073709551616", "number 18446744073709551616"),
            ("\"5\"", "string"),
            ("true", "bool"),
            ("[5]", "array"),
            ("{}", "object"),
        ];
        for &(literal, found) in bad {
            let obj = parse(&format!(r#"{{"bytes":{literal}}}"#));
            assert_eq!(
                obj.int64("bytes").unwrap_err(),
                JsonError::Type {
                    field: "bytes".into(),
                    message: format!(
                        "cannot unmarshal {found} into Go struct field .bytes of type int64"
                    ),
                },
                "{literal}"
            );
        }
        assert_eq!(parse(r#"{"bytes":null}"#).int64("bytes").unwrap(), None);
        assert_eq!(
            parse(r#"{"bytes":7,"BYTES":null}"#).int64("bytes").unwrap(),
            Some(7)
        );
    }

    #[test]
    fn any_bad_duplicate_is_an_error_even_if_a_later_one_is_good() {
        // Go records the first type error and still returns it at the end.
        let obj = parse(r#"{"bytes":1.5,"bytes":5,"version":1,"Version":"1"}"#);
        assert_eq!(
            obj.int64("bytes").unwrap_err().to_string(),
            "cannot unmarshal number 1.5 into Go struct field .bytes of type int64"
        );
        assert_eq!(
            obj.string("version").unwrap_err().to_string(),
            "cannot unmarshal number into Go struct field .version of type string"
        );
    }

    #[test]
    fn string_rejects_other_types() {
        for (literal, found) in [
            ("1", "number"),
            ("1.5", "number"),
            ("true", "bool"),
            ("[\"1\"]", "array"),
            ("{\"v\":\"1\"}", "object"),
        ] {
            let obj = parse(&format!(r#"{{"version":{literal}}}"#));
            assert_eq!(
                obj.string("version").unwrap_err(),
                JsonError::Type {
                    field: "version".into(),
                    message: format!(
                        "cannot unmarshal {found} into Go struct field .version of type string"
                    ),
                }
            );
        }
    }

    #[test]
    fn string_map_follows_go_map_rules() {
        let obj = parse(r#"{"env":{"A":"1","b":null,"A":"2","a":"x"}}"#);
        // Keys exact, last duplicate wins, null becomes "".
        assert_eq!(
            obj.string_map("env").unwrap(),
            Some(map(&[("A", "2"), ("a", "x"), ("b", "")]))
        );
        // The field name itself still folds.
        assert_eq!(
            parse(r#"{"ENV":{"k":"v"}}"#).string_map("env").unwrap(),
            Some(map(&[("k", "v")]))
        );
        // A null element after a real one overwrites it with "".
        assert_eq!(
            parse(r#"{"env":{"k":"v","k":null}}"#)
                .string_map("env")
                .unwrap(),
            Some(map(&[("k", "")]))
        );
        // A repeated field merges into the map decoded so far.
        assert_eq!(
            parse(r#"{"env":{"a":"1","b":"1"},"Env":{"b":"2"}}"#)
                .string_map("env")
                .unwrap(),
            Some(map(&[("a", "1"), ("b", "2")]))
        );
        // null resets the map; a later object starts afresh.
        assert_eq!(
            parse(r#"{"env":{"a":"1"},"env":null}"#)
                .string_map("env")
                .unwrap(),
            None
        );
        assert_eq!(
            parse(r#"{"env":{"a":"1"},"env":null,"env":{"b":"2"}}"#)
                .string_map("env")
                .unwrap(),
            Some(map(&[("b", "2")]))
        );
        assert_eq!(
            parse(r#"{"env":{}}"#).string_map("env").unwrap(),
            Some(BTreeMap::new())
        );
    }

    #[test]
    fn string_map_type_errors() {
        let err = parse(r#"{"env":{"A":"1","PORT":8080}}"#)
            .string_map("env")
            .unwrap_err();
        assert_eq!(
            err,
            JsonError::Type {
                field: "env".into(),
                message: "cannot unmarshal number into Go struct field .env of type string (map key \"PORT\")".into(),
            }
        );
        // A bad element hidden by a later duplicate is still an error in Go.
        assert!(
            parse(r#"{"env":{"A":1,"A":"1"}}"#)
                .string_map("env")
                .is_err()
        );
        assert!(parse(r#"{"env":{"A":["x"]}}"#).string_map("env").is_err());
        for (literal, found) in [
            ("\"A=1\"", "string"),
            ("[\"A=1\"]", "array"),
            ("1", "number"),
            ("false", "bool"),
        ] {
            let obj = parse(&format!(r#"{{"env":{literal}}}"#));
            assert_eq!(
                obj.string_map("env").unwrap_err().to_string(),
                format!(
                    "cannot unmarshal {found} into Go struct field .env of type map[string]string"
                )
            );
        }
    }

    #[test]
    fn string_escapes_decode_like_go() {
        let obj =
            parse(r#"{"a":"q\"b\\s\/f\bx\fn\nr\rt\t","e":"\u00e9\u263A","p":"\ud83d\ude00"}"#);
        assert_eq!(
            obj.string("a").unwrap().as_deref(),
            Some("q\"b\\s/f\u{8}x\u{c}n\nr\rt\t")
        );
        assert_eq!(obj.string("e").unwrap().as_deref(), Some("é☺"));
        assert_eq!(obj.string("p").unwrap().as_deref(), Some("😀"));
        // Broken surrogates become U+FFFD instead of failing.
        let cases = [
            (r#"{"s":"\ud800"}"#, "\u{fffd}"),
            (r#"{"s":"\udc00"}"#, "\u{fffd}"),
            (r#"{"s":"\ud800\u0041"}"#, "\u{fffd}A"),
            (r#"{"s":"\ud800x"}"#, "\u{fffd}x"),
            (r#"{"s":"\ud800\ud800\udc00"}"#, "\u{fffd}\u{10000}"),
            (r#"{"s":"\udbff\udfff"}"#, "\u{10ffff}"),
            // Only a `\u` escape pairs: four hex digits after anything else
            // are text, even when they spell a low surrogate.
            (r#"{"s":"\ud83d00dc00"}"#, "\u{fffd}00dc00"),
            (r#"{"s":"\ud83dx\udc00"}"#, "\u{fffd}x\u{fffd}"),
        ];
        for (input, want) in cases {
            assert_eq!(
                parse(input).string("s").unwrap().as_deref(),
                Some(want),
                "{input}"
            );
        }
        // The character after a lone surrogate is still checked.
        assert_eq!(
            parse_err(br#"{"s":"\ud800\uzzzz"}"#),
            syntax(
                14,
                "invalid character 'z' in \\u hexadecimal character escape"
            )
        );
        // DEL is not a control character to Go.
        assert_eq!(
            parse("{\"s\":\"\u{7f}\"}").string("s").unwrap().as_deref(),
            Some("\u{7f}")
        );
    }

    #[test]
    fn raw_values_match_serde_json() {
        let obj = parse(r#"{"v":{"n":[1,-2,3.5,1e2,null,true,"s"],"o":{"k":"x","k":"y"}}}"#);
        assert_eq!(
            obj.raw("v"),
            Some(&json!({"n": [1, -2, 3.5, 100.0, null, true, "s"], "o": {"k": "y"}}))
        );
        assert_eq!(
            parse(r#"{"big":18446744073709551615}"#).raw("big"),
            Some(&json!(u64::MAX))
        );
        assert_eq!(
            parse(r#"{"huge":1e300,"tiny":1e-400}"#).raw("tiny"),
            Some(&json!(0.0))
        );
    }

    #[test]
    fn stricter_than_go_where_documented() {
        assert_eq!(
            parse_err(br#"{"ignored":1e400}"#),
            JsonError::NumberOutOfRange {
                offset: 11,
                literal: "1e400".into()
            }
        );
        let deep_ok = format!(
            "{{\"a\":{}{}}}",
            "[".repeat(MAX_DEPTH - 1),
            "]".repeat(MAX_DEPTH - 1)
        );
        assert!(parse_object(deep_ok.as_bytes()).is_ok());
        let too_deep = format!(
            "{{\"a\":{}{}}}",
            "[".repeat(MAX_DEPTH),
            "]".repeat(MAX_DEPTH)
        );
        assert_eq!(
            parse_err(too_deep.as_bytes()),
            JsonError::TooDeep {
                offset: 5 + MAX_DEPTH - 1
            }
        );
        // Far deeper input fails just as cleanly, without recursing further.
        let very_deep = "[".repeat(100_000);
        assert!(matches!(
            parse_err(very_deep.as_bytes()),
            JsonError::TooDeep { .. }
        ));
    }

    #[test]
    fn quote_char_matches_go() {
        let cases: &[(u8, &str)] = &[
            (b'a', "'a'"),
            (b' ', "' '"),
            (b'\'', "'\\''"),
            (b'"', "'\"'"),
            (b'\\', "'\\\\'"),
            (0x00, "'\\x00'"),
            (0x07, "'\\a'"),
            (0x08, "'\\b'"),
            (b'\t', "'\\t'"),
            (b'\n', "'\\n'"),
            (0x0b, "'\\v'"),
            (0x0c, "'\\f'"),
            (b'\r', "'\\r'"),
            (0x1f, "'\\x1f'"),
            (b'~', "'~'"),
            (0x7f, "'\\x7f'"),
            (0x80, "'\\u0080'"),
            (0x9f, "'\\u009f'"),
            (0xa0, "'\\u00a0'"),
            (0xa1, "'¡'"),
            (0xad, "'\\u00ad'"),
            (0xc3, "'Ã'"),
            (0xef, "'ï'"),
            (0xff, "'ÿ'"),
        ];
        for &(byte, want) in cases {
            assert_eq!(quote_char(byte), want, "{byte:#x}");
        }
    }

    /// A fixed-seed generator so failures reproduce; no dependency needed.
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.0 >> 33
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    fn exercise(input: &[u8]) -> Result<Object, JsonError> {
        let result = parse_object(input);
        if let Ok(obj) = &result {
            for key in obj.keys().collect::<Vec<_>>() {
                let _ = obj.string(key);
                let _ = obj.int64(key);
                let _ = obj.string_map(key);
                let _ = obj.raw(key);
                let _ = obj.has_key_folded(key);
            }
        }
        if let Err(e) = &result {
            let _ = e.to_string();
        }
        result
    }

    #[test]
    fn never_panics_on_arbitrary_bytes() {
        let mut rng = Lcg(0x5eed);
        let fragments: &[&[u8]] = &[
            b"{",
            b"}",
            b"[",
            b"]",
            b"\"",
            b":",
            b",",
            b" ",
            b"\n",
            b"\\",
            b"\\u",
            b"d800",
            b"\\ud83d\\ude00",
            b"-",
            b"0",
            b"1",
            b"9",
            b".",
            b"e",
            b"E",
            b"+",
            b"true",
            b"fals",
            b"null",
            b"\"a\"",
            b"\"version\"",
            b"\"env\"",
            b"\"bytes\"",
            b"\xff",
            b"\xc3",
            b"\xa9",
            b"\xed\xa0\x80",
            b"\xef\xbb\xbf",
            b"\x00",
            b"\t",
            b"1e400",
            b"\xe2\x84\xaa",
        ];
        for round in 0..600 {
            let len = rng.below(40);
            let mut input = Vec::new();
            for _ in 0..len {
                if round % 3 == 0 {
                    input.push(rng.next() as u8);
                } else {
                    input.extend_from_slice(fragments[rng.below(fragments.len())]);
                }
            }
            if round % 2 == 0 {
                input.insert(0, b'{');
            }
            let _ = exercise(&input);
        }
    }

    /// Numbers may round differently in their last bit between parsers.
    fn same_value(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => {
                let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
                x == y || ((x - y) / x.abs().max(y.abs())).abs() < 1e-12
            }
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_value(x, y))
            }
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .all(|(k, v)| y.get(k).is_some_and(|w| same_value(v, w)))
            }
            _ => a == b,
        }
    }

    /// Random valid JSON text, so mutations of it land near the grammar.
    fn random_json(rng: &mut Lcg, depth: usize, out: &mut Vec<u8>) {
        const SCALARS: &[&str] = &[
            "0",
            "-0",
            "7",
            "-12",
            "3.25",
            "1e3",
            "-2.5E-3",
            "18446744073709551615",
            "123456789012345678901234567890",
            "true",
            "false",
            "null",
            "\"\"",
            "\"x\"",
            "\"a\\\"b\"",
            "\"\\u00e9\\n\"",
            "\"h\u{e9}\"",
        ];
        const KEYS: &[&str] = &["\"k\"", "\"K\"", "\"version\"", "\"\"", "\"a b\""];
        let ws = |rng: &mut Lcg, out: &mut Vec<u8>| {
            if rng.below(4) == 0 {
                out.extend_from_slice([&b" "[..], b"\n", b"\t", b"\r\n "][rng.below(4)]);
            }
        };
        match if depth == 0 { 2 } else { rng.below(3) } {
            0 => {
                out.push(b'{');
                for i in 0..rng.below(4) {
                    if i > 0 {
                        out.push(b',');
                    }
                    ws(rng, out);
                    out.extend_from_slice(KEYS[rng.below(KEYS.len())].as_bytes());
                    ws(rng, out);
                    out.push(b':');
                    ws(rng, out);
                    random_json(rng, depth - 1, out);
                    ws(rng, out);
                }
                out.push(b'}');
            }
            1 => {
                out.push(b'[');
                for i in 0..rng.below(4) {
                    if i > 0 {
                        out.push(b',');
                    }
                    ws(rng, out);
                    random_json(rng, depth - 1, out);
                }
                out.push(b']');
            }
            _ => out.extend_from_slice(SCALARS[rng.below(SCALARS.len())].as_bytes()),
        }
    }

    /// serde_json and Go agree on JSON syntax, so on inputs without the
    /// documented differences (no `\u` surrogates, no deep nesting, no huge
    /// exponents) our verdict and values must match serde_json's.
    #[test]
    fn agrees_with_serde_json_on_syntax_and_values() {
        let mut rng = Lcg(0xc0ffee);
        let alphabet = b"{}[]\":, \n0123456789-.eE+truefalsn\\bx\t";
        let mut accepted = 0;
        let mut rejected = 0;
        for _ in 0..4000 {
            let mut input = b"{\"k\":".to_vec();
            random_json(&mut rng, 3, &mut input);
            input.push(b'}');
            for _ in 0..rng.below(3) {
                let at = rng.below(input.len() + 1);
                let byte = alphabet[rng.below(alphabet.len())];
                match rng.below(3) {
                    0 => input.insert(at, byte),
                    1 if at < input.len() => {
                        input.remove(at);
                    }
                    _ if at < input.len() => input[at] = byte,
                    _ => {}
                }
            }
            let ours = exercise(&input);
            let theirs = serde_json::from_slice::<Value>(&input);
            let ours_valid = matches!(ours, Ok(_) | Err(JsonError::Type { .. }));
            assert_eq!(
                ours_valid,
                theirs.is_ok(),
                "{:?}: ours {ours:?}, serde {theirs:?}",
                String::from_utf8_lossy(&input)
            );
            if !ours_valid {
                rejected += 1;
            }
            if let (Ok(obj), Ok(Value::Object(expected))) = (&ours, &theirs) {
                accepted += 1;
                let mut collapsed = Map::new();
                for entry in &obj.entries {
                    collapsed.insert(entry.key.clone(), entry.value.clone());
                }
                assert!(
                    same_value(&Value::Object(collapsed), &Value::Object(expected.clone())),
                    "{:?}",
                    String::from_utf8_lossy(&input)
                );
            }
        }
        assert!(rejected > 500, "generator too tame: {rejected} rejected");
        assert!(
            accepted > 500,
            "generator too weak: {accepted} objects accepted"
        );
    }

    /// `{"a": <k open arrays> SIBLINGS, LAST <k closes>}`: the siblings sit
    /// at level k + 2 (the object is level 1).
    fn nest(k: usize, siblings: &str, last: &str) -> String {
        format!(
            "{{\"a\":{}{siblings}{last}{}}}",
            "[".repeat(k),
            "]".repeat(k)
        )
    }

    #[test]
    fn empty_arrays_and_objects_give_back_their_level() {
        // More siblings than levels: if an empty one kept its level, the
        // count would pass MAX_DEPTH halfway.
        for empty in ["[]", "{}"] {
            let n = MAX_DEPTH + 1;
            let doc = format!("{{\"x\":[{}]}}", vec![empty; n].join(","));
            let obj = parse(&doc);
            let x = &obj.entries[0].value;
            assert_eq!(x.as_array().map(Vec::len), Some(n), "{empty}");
        }
    }

    #[test]
    fn siblings_leave_the_depth_where_it_was() {
        // Level MAX_DEPTH - 1 holds 256 siblings, empty and not, arrays and
        // objects, each reaching at most MAX_DEPTH; after them one more
        // value reaches exactly MAX_DEPTH (fine) or one past it (refused).
        let k = MAX_DEPTH - 3;
        let siblings = [
            "[]",
            "{}",
            "[[]]",
            r#"{"b":[]}"#,
            "[1]",
            r#"{"c":1}"#,
            "[{}]",
            "{\"d\":{}}",
        ]
        .repeat(32)
        .join(",");
        let ok = nest(k, &format!("{siblings},"), "[[]]");
        assert!(
            parse_object(ok.as_bytes()).is_ok(),
            "{:?}",
            parse_object(ok.as_bytes())
        );
        let ok = nest(k, &format!("{siblings},"), r#"{"e":{}}"#);
        assert!(
            parse_object(ok.as_bytes()).is_ok(),
            "{:?}",
            parse_object(ok.as_bytes())
        );
        for last in ["[[[]]]", r#"{"e":{"f":{}}}"#, r#"[{"g":[]}]"#] {
            let deep = nest(k, &format!("{siblings},"), last);
            assert!(
                matches!(parse_err(deep.as_bytes()), JsonError::TooDeep { .. }),
                "{last}"
            );
        }
        // The same document with the siblings after the deep value: a level
        // given back early would let this through.
        let deep_first = nest(k, "[[[]]],", &siblings);
        assert!(matches!(
            parse_err(deep_first.as_bytes()),
            JsonError::TooDeep { .. }
        ));
    }
}

//! Go `encoding/json`-exact decoding of plugin output.
//!
//! Nomad reads a plugin's stdout with `json.Unmarshal(stdout, &response)`.
//! What matters for compatibility is not "is this JSON" but "does Go accept
//! it, which value does each struct field end up with, and what does the
//! error say". That differs from serde in ways a plugin author trips over:
//! keys match field names case-insensitively (with Go's Unicode folds),
//! duplicate keys are all applied in document order, `null` leaves a string
//! field untouched but resets a pointer or a map, integers are judged on
//! their literal, invalid UTF-8 in a string becomes U+FFFD, a type error is
//! remembered while decoding goes on but a field decoder's own error
//! (go-version's) stops it at once, and every message has Go's words.
//!
//! So this module reads Go's decoder rather than a JSON grammar:
//!
//! - [`parse_object_as`] is Go's `checkValid` (`scanner.go`): the whole
//!   input's syntax first, every error site a scanner state, nesting to
//!   Go's [`MAX_DEPTH`] on an explicit stack (never plugctl's own call
//!   stack), numbers of any size. Only the top-level object's members are
//!   kept (key, kind, source span); nothing nested is built, so nothing
//!   nested can be too big or too deep to hold.
//! - [`Object::decode`] is `decode.go`'s `object()` into one of Nomad's
//!   structs ([`StructSpec`]): which field a key fills, what each kind does
//!   to each field type, and the error Go returns.
//!
//! The message forms that change with the Go toolchain are data
//! ([`Messages`], one per generation of `encoding/json`); the release
//! profile (plugctl-core's `nomad`) picks one. The differential tests
//! (`tests/it/oracle.rs`) hold all of this against Go itself.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::version::Wording;

mod scan;
mod text;

use scan::Scanner;
use text::{key_matches, literal, quote_char, unquote};

/// Go's `maxNestingDepth`: the 10,001st open bracket is a syntax error.
pub const MAX_DEPTH: usize = 10_000;

/// The `encoding/json` messages that differ between Go generations, as
/// templates: `{char}` is the offending byte as Go quotes it (`'x'`),
/// `{raw}` the byte itself, `{type}` a Go type name.
#[derive(Debug, PartialEq, Eq)]
pub struct Messages {
    /// Which toolchains word their errors this way.
    pub generation: &'static str,
    /// A backslash followed by a byte that starts no escape.
    pub bad_escape: &'static str,
    /// An open bracket past [`MAX_DEPTH`].
    pub max_depth: &'static str,
    /// How a type error names a field whose type decodes text
    /// (`*version.Version`).
    pub text_field_type: &'static str,
    /// What a type error into such a field appends.
    pub text_field_suffix: &'static str,
}

/// `encoding/json` as Go 1.24 to 1.26 ship it (every Nomad release so far;
/// the oracle runs Go 1.26.5).
pub static GO_JSON_V1: Messages = Messages {
    generation: "Go 1.24 to 1.26 (encoding/json v1)",
    bad_escape: "invalid character {char} in string escape code",
    max_depth: "invalid character {char} exceeded max depth",
    text_field_type: "*{type}",
    text_field_suffix: "",
};

/// `encoding/json` on its v2 core (Go 1.27 and later; Go 1.25 and 1.26
/// with `GOEXPERIMENT=jsonv2`, where these three forms were read). No
/// Nomad release is built with it yet: recorded so that the first one is
/// a row in the release table, not new code.
pub static GO_JSON_V2_CORE: Messages = Messages {
    generation: "Go 1.27 and later (encoding/json on its v2 core)",
    bad_escape: "invalid escape sequence `\\{raw}` in string",
    max_depth: "exceeded max depth",
    text_field_type: "{type}",
    text_field_suffix: ": JSON value must be string type",
};

impl Messages {
    fn syntax(&self, template: &str, c: u8) -> String {
        template
            .replace("{char}", &quote_char(c))
            .replace("{raw}", &char::from(c).to_string())
    }
}

/// Whose words a decode speaks: the Go toolchain's `encoding/json` and the
/// go-version release a Nomad release is built with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dialect {
    pub json: &'static Messages,
    pub version: Wording,
}

impl Default for Dialect {
    fn default() -> Dialect {
        Dialect::NEWEST
    }
}

impl Dialect {
    /// The newest covered release's (Go 1.26, go-version 1.9.0).
    pub const NEWEST: Dialect = Dialect {
        json: &GO_JSON_V1,
        version: Wording::Lower,
    };
}

/// Why plugin output is not what Nomad would accept. [`JsonError::go_text`]
/// is exactly what Go's error says; `Display` adds where (a byte offset)
/// and, for a map element, which key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonError {
    /// Go's `SyntaxError`. `offset` is the zero-based index of the
    /// offending byte (Go's own `Offset` counts bytes read, so it is one
    /// more); when input ends inside a token it is the input length, and
    /// the character is reported as `' '` because Go's scanner is fed a
    /// space at end of input.
    #[error("{message} at byte {offset}")]
    Syntax { offset: usize, message: String },
    /// Input ended where more JSON was required, including empty input.
    #[error("unexpected end of JSON input")]
    UnexpectedEnd { offset: usize },
    /// Go's `UnmarshalTypeError`, whole (`json: cannot unmarshal ...`).
    /// `field` is empty when the top-level value itself has the wrong
    /// type; `map_key` names the element of a map field that had it
    /// (plugctl's addition: Go does not say).
    #[error("{message}{}", map_key.as_ref().map(|k| format!(" (map key {k:?})")).unwrap_or_default())]
    Type {
        field: String,
        message: String,
        map_key: Option<String>,
    },
    /// The error of a field's own text decoder (go-version's
    /// `UnmarshalText`), which Go returns as it is and which stops the
    /// decode. `value` is the string it refused.
    #[error("{message}")]
    Field {
        field: String,
        value: String,
        message: String,
    },
}

impl JsonError {
    /// Go's `err.Error()`, byte for byte.
    pub fn go_text(&self) -> String {
        match self {
            JsonError::Syntax { message, .. } | JsonError::Type { message, .. } => message.clone(),
            JsonError::Field { message, .. } => message.clone(),
            JsonError::UnexpectedEnd { .. } => "unexpected end of JSON input".into(),
        }
    }

    /// Go's `SyntaxError.Offset` for an input of `len` bytes: the bytes
    /// its scanner had read. `None` for the other errors.
    pub fn go_offset(&self, len: usize) -> Option<usize> {
        match self {
            JsonError::Syntax { offset, .. } => Some((offset + 1).min(len)),
            JsonError::UnexpectedEnd { .. } => Some(len),
            _ => None,
        }
    }
}

/// What a JSON value is, as Go's type errors name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

impl Kind {
    fn of(first: u8) -> Kind {
        match first {
            b'n' => Kind::Null,
            b't' | b'f' => Kind::Bool,
            b'"' => Kind::String,
            b'[' => Kind::Array,
            b'{' => Kind::Object,
            _ => Kind::Number,
        }
    }

    /// Go's word for it in `cannot unmarshal <word>`.
    pub fn go_word(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "bool",
            Kind::Number => "number",
            Kind::String => "string",
            Kind::Array => "array",
            Kind::Object => "object",
        }
    }
}

/// One member of an object: its key (decoded), what its value is, and
/// where the value's text is.
#[derive(Debug, Clone, PartialEq)]
struct Member {
    key: String,
    kind: Kind,
    span: Range<usize>,
}

/// A plugin's output that Go's scanner accepts: the top-level object's
/// members in document order, duplicates included, and the input they
/// point into. A top-level `null` is an object without members.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object {
    input: Box<[u8]>,
    members: Vec<Member>,
    go_type: String,
    null: bool,
    /// Whose words its decode errors are in: the dialect it was parsed in.
    dialect: Dialect,
}

/// Parses `bytes` as `json.Unmarshal` into a struct would, naming no Go
/// type (`Go value of type struct`) in a top-level type error: for reading
/// a document whose struct does not matter (a failing call's `error`).
pub fn parse_object(bytes: &[u8]) -> Result<Object, JsonError> {
    parse_object_as(bytes, "")
}

/// Checks `bytes` the way `json.Unmarshal` does before it decodes (syntax
/// everywhere, then the top-level kind), naming `go_type` (as Go prints it,
/// `hostvolumemanager.PluginFingerprint`) in a top-level type error, in the
/// words of the newest dialect ([`Dialect::NEWEST`]; [`parse_in`] takes
/// another).
pub fn parse_object_as(bytes: &[u8], go_type: &str) -> Result<Object, JsonError> {
    parse_in(bytes, go_type, Dialect::NEWEST)
}

/// [`parse_object_as`] in a given dialect.
pub fn parse_in(bytes: &[u8], go_type: &str, dialect: Dialect) -> Result<Object, JsonError> {
    let (top, members) = Scanner::new(bytes, dialect.json).document()?;
    match top {
        Kind::Object | Kind::Null => Ok(Object {
            input: bytes.into(),
            members,
            go_type: go_type.to_string(),
            null: top == Kind::Null,
            dialect,
        }),
        other => Err(JsonError::Type {
            field: String::new(),
            message: format!(
                "json: cannot unmarshal {} into Go value of type {}",
                other.go_word(),
                if go_type.is_empty() {
                    "struct"
                } else {
                    go_type
                }
            ),
            map_key: None,
        }),
    }
}

/// The type of one field of a Nomad struct, as far as decoding goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    /// `string`: `null` leaves it.
    String,
    /// `int64`: an integer literal in range.
    Int64,
    /// `*string`: `null` resets it.
    OptString,
    /// A pointer to a type with `UnmarshalText` (`*version.Version`):
    /// `null` resets it, a string goes to the text decoder, anything else
    /// is a type error naming `go_type` (`version.Version`).
    Text { go_type: &'static str },
    /// `map[string]string`: `null` resets it, an object merges into it
    /// (keys exact, `null` elements as `""`).
    StringMap,
}

/// One of Nomad's response structs: its Go name (package-qualified, as Go
/// prints it) and its fields by JSON tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StructSpec {
    pub go_type: &'static str,
    pub fields: &'static [(&'static str, FieldType)],
}

/// What one field holds after a decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Slot {
    String(String),
    Int64(i64),
    /// `*string`, and a text field's accepted text.
    Opt(Option<String>),
    StringMap(Option<BTreeMap<String, String>>),
}

impl Object {
    /// True when the input was `{}` or `null`.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// True when the input was a bare `null` (which sets a Go pointer
    /// target to nil).
    pub fn is_null(&self) -> bool {
        self.null
    }

    /// Every key as decoded, in document order, duplicates included; for
    /// reporting keys Nomad would ignore.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.members.iter().map(|m| m.key.as_str())
    }

    /// The keys that match none of `fields` as Go's decoder matches them
    /// (case-insensitively, with its folding): those Nomad ignores. In
    /// document order, each once.
    pub fn keys_unknown_to(&self, fields: &[&str]) -> Vec<&str> {
        // A set beside the list: a plugin's answer may hold a hundred
        // thousand keys, and looking each up in the list was quadratic.
        let mut seen = std::collections::HashSet::new();
        let mut out: Vec<&str> = Vec::new();
        for m in &self.members {
            if !fields.iter().any(|f| key_matches(&m.key, f)) && seen.insert(m.key.as_str()) {
                out.push(&m.key);
            }
        }
        out
    }

    /// Whether any key maps to `field`, even with a `null` value, for checks
    /// that must tell `"error": null` from a missing `error`.
    pub fn has_key_folded(&self, field: &str) -> bool {
        self.matching(field).next().is_some()
    }

    /// A Go `string` field of this object's struct (see [`Object::decode`]).
    pub fn string(&self, field: &str) -> Result<Option<String>, JsonError> {
        let spec = [(field, FieldType::String)];
        let mut seen = false;
        let slots = self.decode_fields(
            self.struct_name(),
            &spec,
            self.dialect,
            &mut |_, _| Ok(()),
            &mut seen,
        )?;
        Ok(match &slots[0] {
            Slot::String(s) if seen => Some(s.clone()),
            _ => None,
        })
    }

    /// Every string value anywhere in the members for which `keep(key)`
    /// holds (not keys), decoded: what may be a secret value.
    pub fn strings_under(&self, keep: impl Fn(&str) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        for m in self.members.iter().filter(|m| keep(&m.key)) {
            let text = &self.input[m.span.clone()];
            Scanner::new(text, &GO_JSON_V1).each_string_value(&mut |s| out.push(s));
        }
        out
    }

    /// Decodes the object into `spec` as `json.Unmarshal` does, in
    /// `dialect`'s words. `text` is the text decoder of [`FieldType::Text`]
    /// fields: given the field and the string, it returns the decoder's
    /// error text, which ends the decode as it does in Go.
    ///
    /// The rules, from `decode.go`: each member in document order finds its
    /// field by exact name, else by Go's case folding; an unknown key is
    /// skipped. A member of the wrong kind is a type error that Go
    /// remembers (the first one) while it goes on decoding; a text
    /// decoder's error is returned at once, even after a type error. A
    /// top-level type error was already [`parse_object_as`]'s.
    pub fn decode(
        &self,
        spec: &StructSpec,
        dialect: Dialect,
        text: &mut dyn FnMut(&str, &str) -> Result<(), String>,
    ) -> Result<Vec<Slot>, JsonError> {
        let mut seen = false;
        let name = spec.go_type.rsplit('.').next().unwrap_or_default();
        self.decode_fields(name, spec.fields, dialect, text, &mut seen)
    }

    fn decode_fields(
        &self,
        struct_name: &str,
        fields: &[(&str, FieldType)],
        dialect: Dialect,
        text: &mut dyn FnMut(&str, &str) -> Result<(), String>,
        seen: &mut bool,
    ) -> Result<Vec<Slot>, JsonError> {
        let mut slots: Vec<Slot> = fields
            .iter()
            .map(|(_, t)| match t {
                FieldType::String => Slot::String(String::new()),
                FieldType::Int64 => Slot::Int64(0),
                FieldType::OptString | FieldType::Text { .. } => Slot::Opt(None),
                FieldType::StringMap => Slot::StringMap(None),
            })
            .collect();
        let mut saved: Option<JsonError> = None;
        for m in &self.members {
            let Some(i) = find_field(fields, &m.key) else {
                continue;
            };
            let (name, field_type) = fields[i];
            *seen = true;
            let raw = &self.input[m.span.clone()];
            let mut wrong = |found: String, go_type: String, suffix: &str| {
                if saved.is_none() {
                    saved = Some(type_error(
                        struct_name,
                        name,
                        &found,
                        &go_type,
                        suffix,
                        None,
                    ));
                }
            };
            match (field_type, m.kind) {
                (FieldType::String | FieldType::Int64, Kind::Null) => {}
                (FieldType::String, Kind::String) => slots[i] = Slot::String(unquote(raw)),
                (FieldType::String, k) => wrong(k.go_word().into(), "string".into(), ""),
                (FieldType::Int64, Kind::Number) => match literal(raw).parse::<i64>() {
                    Ok(n) => slots[i] = Slot::Int64(n),
                    Err(_) => wrong(format!("number {}", literal(raw)), "int64".into(), ""),
                },
                (FieldType::Int64, k) => wrong(k.go_word().into(), "int64".into(), ""),
                (FieldType::OptString | FieldType::Text { .. }, Kind::Null) => {
                    slots[i] = Slot::Opt(None)
                }
                (FieldType::OptString, Kind::String) => slots[i] = Slot::Opt(Some(unquote(raw))),
                (FieldType::OptString, k) => wrong(k.go_word().into(), "string".into(), ""),
                (FieldType::Text { .. }, Kind::String) => {
                    let value = unquote(raw);
                    if let Err(message) = text(name, &value) {
                        return Err(JsonError::Field {
                            field: name.to_string(),
                            value,
                            message,
                        });
                    }
                    slots[i] = Slot::Opt(Some(value));
                }
                (FieldType::Text { go_type }, k) => wrong(
                    k.go_word().into(),
                    dialect.json.text_field_type.replace("{type}", go_type),
                    dialect.json.text_field_suffix,
                ),
                (FieldType::StringMap, Kind::Null) => slots[i] = Slot::StringMap(None),
                (FieldType::StringMap, Kind::Object) => {
                    let Slot::StringMap(map) = &mut slots[i] else {
                        unreachable!("a map field's slot is a map");
                    };
                    let map = map.get_or_insert_with(BTreeMap::new);
                    for e in Scanner::new(raw, dialect.json).members_of_object() {
                        let element = &raw[e.span.clone()];
                        let value = match e.kind {
                            Kind::String => unquote(element),
                            Kind::Null => String::new(),
                            other => {
                                if saved.is_none() {
                                    saved = Some(type_error(
                                        struct_name,
                                        name,
                                        other.go_word(),
                                        "string",
                                        "",
                                        Some(e.key.clone()),
                                    ));
                                }
                                // Go stores the element's zero value.
                                String::new()
                            }
                        };
                        map.insert(e.key, value);
                    }
                }
                (FieldType::StringMap, k) => {
                    wrong(k.go_word().into(), "map[string]string".into(), "")
                }
            }
        }
        match saved {
            Some(e) => Err(e),
            None => Ok(slots),
        }
    }

    fn matching<'a>(&'a self, field: &'a str) -> impl Iterator<Item = &'a Member> {
        self.members
            .iter()
            .filter(move |m| key_matches(&m.key, field))
    }

    /// Go names the struct without its package in field errors.
    fn struct_name(&self) -> &str {
        self.go_type.rsplit('.').next().unwrap_or_default()
    }
}

/// Go's `UnmarshalTypeError` for a struct field.
fn type_error(
    struct_name: &str,
    field: &str,
    found: &str,
    go_type: &str,
    suffix: &str,
    map_key: Option<String>,
) -> JsonError {
    JsonError::Type {
        field: field.to_string(),
        message: format!(
            "json: cannot unmarshal {found} into Go struct field {struct_name}.{field} of type \
             {go_type}{suffix}"
        ),
        map_key,
    }
}

/// Which field a key fills: the exact name first, then Go's folding
/// (`decode.go`: `byExactName`, then `byFoldedName`).
fn find_field(fields: &[(&str, FieldType)], key: &str) -> Option<usize> {
    fields
        .iter()
        .position(|(name, _)| *name == key)
        .or_else(|| fields.iter().position(|(name, _)| key_matches(key, name)))
}

#[cfg(test)]
mod tests {
    use super::*;

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

    const CREATE: StructSpec = StructSpec {
        go_type: "hostvolumemanager.HostVolumePluginCreateResponse",
        fields: &[
            ("path", FieldType::String),
            ("bytes", FieldType::Int64),
            ("error", FieldType::String),
        ],
    };

    const SECRET: StructSpec = StructSpec {
        go_type: "commonplugins.SecretResponse",
        fields: &[
            ("result", FieldType::StringMap),
            ("error", FieldType::OptString),
        ],
    };

    const FINGERPRINT: StructSpec = StructSpec {
        go_type: "hostvolumemanager.PluginFingerprint",
        fields: &[(
            "version",
            FieldType::Text {
                go_type: "version.Version",
            },
        )],
    };

    /// Decodes into `spec`; a text field refuses the text "bad".
    fn decode_in(input: &str, spec: &StructSpec, dialect: Dialect) -> Result<Vec<Slot>, JsonError> {
        parse_in(input.as_bytes(), spec.go_type, dialect)?.decode(spec, dialect, &mut |_, t| {
            if t == "bad" {
                Err(format!("malformed version: {t}"))
            } else {
                Ok(())
            }
        })
    }

    fn decode(input: &str, spec: &StructSpec) -> Result<Vec<Slot>, JsonError> {
        decode_in(input, spec, Dialect::NEWEST)
    }

    fn go_err(input: &str, spec: &StructSpec) -> String {
        decode(input, spec).unwrap_err().go_text()
    }

    fn string(s: &str) -> Slot {
        Slot::String(s.into())
    }

    #[test]
    fn decodes_create_fields() {
        assert_eq!(
            decode(
                r#"{"path":"/srv/vol","bytes":1024,"error":"x","other":[1]}"#,
                &CREATE
            )
            .unwrap(),
            vec![string("/srv/vol"), Slot::Int64(1024), string("x")]
        );
        assert_eq!(
            decode("{}", &CREATE).unwrap(),
            vec![string(""), Slot::Int64(0), string("")]
        );
        // null leaves a string or int64 field as it was.
        assert_eq!(
            decode(
                r#"{"path":"/a","PATH":null,"bytes":7,"BYTES":null}"#,
                &CREATE
            )
            .unwrap(),
            vec![string("/a"), Slot::Int64(7), string("")]
        );
    }

    #[test]
    fn int64_accepts_only_integer_literals_in_range() {
        for (literal, want) in [
            ("5", 5),
            ("-0", 0),
            ("9223372036854775807", i64::MAX),
            ("-9223372036854775808", i64::MIN),
        ] {
            let slots = decode(&format!(r#"{{"bytes":{literal}}}"#), &CREATE).unwrap();
            assert_eq!(slots[1], Slot::Int64(want), "{literal}");
        }
        for (literal, found) in [
            ("5.0", "number 5.0"),
            ("1e3", "number 1e3"),
            ("-0.0", "number -0.0"),
            ("9223372036854775808", "number 9223372036854775808"),
            ("\"5\"", "string"),
            ("true", "bool"),
            ("[5]", "array"),
            ("{}", "object"),
        ] {
            assert_eq!(
                go_err(&format!(r#"{{"bytes":{literal}}}"#), &CREATE),
                format!(
                    "json: cannot unmarshal {found} into Go struct field \
                     HostVolumePluginCreateResponse.bytes of type int64"
                ),
                "{literal}"
            );
        }
    }

    #[test]
    fn the_first_type_error_wins_but_decoding_goes_on() {
        assert_eq!(
            go_err(r#"{"bytes":1.5,"path":5,"bytes":5}"#, &CREATE),
            "json: cannot unmarshal number 1.5 into Go struct field \
             HostVolumePluginCreateResponse.bytes of type int64"
        );
        // A text decoder's error ends the decode at once, even after a
        // type error.
        assert_eq!(
            go_err(r#"{"version":1,"version":"bad"}"#, &FINGERPRINT),
            "malformed version: bad"
        );
        assert_eq!(
            go_err(r#"{"version":1,"version":"good"}"#, &FINGERPRINT),
            "json: cannot unmarshal number into Go struct field PluginFingerprint.version of \
             type *version.Version"
        );
        let e = decode(r#"{"VERSION":"bad"}"#, &FINGERPRINT).unwrap_err();
        assert_eq!(
            e,
            JsonError::Field {
                field: "version".into(),
                value: "bad".into(),
                message: "malformed version: bad".into()
            }
        );
    }

    #[test]
    fn pointer_fields_reset_on_null() {
        assert_eq!(
            decode(r#"{"version":"1.0","version":null}"#, &FINGERPRINT).unwrap(),
            vec![Slot::Opt(None)]
        );
        assert_eq!(
            decode(r#"{"error":"x","ERROR":null}"#, &SECRET).unwrap()[1],
            Slot::Opt(None)
        );
        assert_eq!(
            decode(r#"{"error":null,"Error":""}"#, &SECRET).unwrap()[1],
            Slot::Opt(Some(String::new()))
        );
        assert_eq!(
            go_err(r#"{"error":[1]}"#, &SECRET),
            "json: cannot unmarshal array into Go struct field SecretResponse.error of type string"
        );
    }

    #[test]
    fn maps_follow_go_map_rules() {
        let result = |input: &str| match decode(input, &SECRET).unwrap().remove(0) {
            Slot::StringMap(m) => m,
            other => panic!("{other:?}"),
        };
        // Keys exact, last duplicate wins, null becomes "".
        assert_eq!(
            result(r#"{"result":{"A":"1","b":null,"A":"2","a":"x"}}"#),
            Some(map(&[("A", "2"), ("a", "x"), ("b", "")]))
        );
        // A repeated field merges; null resets; a later object starts afresh.
        assert_eq!(
            result(r#"{"result":{"a":"1","b":"1"},"Result":{"b":"2"}}"#),
            Some(map(&[("a", "1"), ("b", "2")]))
        );
        assert_eq!(result(r#"{"result":{"a":"1"},"result":null}"#), None);
        assert_eq!(
            result(r#"{"result":{"a":"1"},"result":null,"result":{"b":"2"}}"#),
            Some(map(&[("b", "2")]))
        );
        assert_eq!(result(r#"{"result":{}}"#), Some(BTreeMap::new()));
        // Go names the field, not the key; plugctl's Display adds the key.
        let e = decode(r#"{"result":{"A":"1","PORT":8080}}"#, &SECRET).unwrap_err();
        assert_eq!(
            e.go_text(),
            "json: cannot unmarshal number into Go struct field SecretResponse.result of type string"
        );
        assert!(e.to_string().ends_with(" (map key \"PORT\")"), "{e}");
        assert_eq!(
            go_err(r#"{"result":"A=1"}"#, &SECRET),
            "json: cannot unmarshal string into Go struct field SecretResponse.result of type \
             map[string]string"
        );
    }

    #[test]
    fn top_level_must_be_an_object_or_null() {
        for (input, found) in [
            ("[1]", "array"),
            ("\"s\"", "string"),
            ("-0.5e3", "number"),
            ("true", "bool"),
        ] {
            assert_eq!(
                parse_in(
                    input.as_bytes(),
                    "hostvolumemanager.PluginFingerprint",
                    Dialect::NEWEST
                )
                .unwrap_err()
                .go_text(),
                format!(
                    "json: cannot unmarshal {found} into Go value of type \
                     hostvolumemanager.PluginFingerprint"
                )
            );
        }
        for input in ["null", " null\n"] {
            let obj = parse(input);
            assert!(obj.is_null() && obj.is_empty());
        }
        assert!(!parse("{}").is_null());
        // A syntax error anywhere outranks the type mismatch, as in Go.
        assert_eq!(
            parse_err(b"[1 2]"),
            syntax(3, "invalid character '2' after array element")
        );
    }

    #[test]
    fn invalid_utf8_becomes_replacement_characters_byte_by_byte() {
        let path = |raw: &[u8]| {
            let mut input = b"{\"path\":\"".to_vec();
            input.extend_from_slice(raw);
            input.extend_from_slice(b"\"}");
            let obj = parse_in(&input, CREATE.go_type, Dialect::NEWEST).unwrap();
            match obj
                .decode(&CREATE, Dialect::NEWEST, &mut |_, _| Ok(()))
                .unwrap()
                .remove(0)
            {
                Slot::String(s) => s,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(path(b"a\xffb"), "a\u{fffd}b");
        // A sequence cut short is one U+FFFD per byte, as Go's DecodeRune.
        assert_eq!(path(b"\xe2\x82x"), "\u{fffd}\u{fffd}x");
        // Overlong forms and encoded surrogates too.
        assert_eq!(path(b"\xc0\xaf"), "\u{fffd}\u{fffd}");
        assert_eq!(path(b"\xed\xa0\x80"), "\u{fffd}\u{fffd}\u{fffd}");
        // Valid text, escapes among it, stays.
        assert_eq!(path("h\u{e9}\\n\u{1F600}".as_bytes()), "h\u{e9}\n\u{1F600}");
        // Keys are decoded the same way before they are matched.
        assert!(
            !parse_in(b"{\"p\xffth\":1}", "", Dialect::NEWEST)
                .unwrap()
                .has_key_folded("path")
        );
        // Outside a string Go's scanner refuses the byte.
        assert_eq!(
            parse_err(b"{\"a\":1}\x80"),
            syntax(7, "invalid character '\\u0080' after top-level value")
        );
    }

    #[test]
    fn string_escapes_decode_like_go() {
        let s = |input: &str| unquote(format!("\"{input}\"").as_bytes());
        assert_eq!(
            s(r#"q\"b\\s\/f\bx\fn\nr\rt\t"#),
            "q\"b\\s/f\u{8}x\u{c}n\nr\rt\t"
        );
        assert_eq!(s(r"\u00e9\u263A\ud83d\ude00"), "é☺😀");
        for (input, want) in [
            (r"\ud800", "\u{fffd}"),
            (r"\udc00", "\u{fffd}"),
            (r"\ud800\u0041", "\u{fffd}A"),
            (r"\ud800x", "\u{fffd}x"),
            (r"\ud800\ud800\udc00", "\u{fffd}\u{10000}"),
            (r"\udbff\udfff", "\u{10ffff}"),
            (r"\ud83d00dc00", "\u{fffd}00dc00"),
            (r"\ud83dx\udc00", "\u{fffd}x\u{fffd}"),
        ] {
            assert_eq!(s(input), want, "{input}");
        }
        // The character after a lone surrogate is still checked.
        assert_eq!(
            parse_err(br#"{"s":"\ud800\uzzzz"}"#),
            syntax(
                14,
                "invalid character 'z' in \\u hexadecimal character escape"
            )
        );
    }

    #[test]
    fn numbers_of_any_size_and_nesting_to_gos_limit() {
        for doc in [
            r#"{"x":1e400}"#,
            r#"{"x":-1e999,"y":123456789012345678901234567890e-99999}"#,
        ] {
            assert!(parse_object(doc.as_bytes()).is_ok(), "{doc}");
        }
        let deep = |n: usize| format!("{{\"a\":{}{}}}", "[".repeat(n), "]".repeat(n));
        // The object is level 1: 9,999 arrays inside it reach the limit.
        assert!(parse_object(deep(MAX_DEPTH - 1).as_bytes()).is_ok());
        assert_eq!(
            parse_err(deep(MAX_DEPTH).as_bytes()),
            syntax(
                5 + MAX_DEPTH - 1,
                "invalid character '[' exceeded max depth"
            )
        );
        // Far deeper input fails just as cleanly, on a small stack.
        let very_deep = "[".repeat(1_000_000);
        std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || {
                assert!(matches!(
                    parse_object(very_deep.as_bytes()),
                    Err(JsonError::Syntax {
                        offset: MAX_DEPTH,
                        ..
                    })
                ));
            })
            .unwrap()
            .join()
            .unwrap();
        // Siblings give their level back.
        let wide = format!("{{\"x\":[{}]}}", vec!["[[]]"; MAX_DEPTH].join(","));
        assert!(parse_object(wide.as_bytes()).is_ok());
    }

    #[test]
    fn messages_follow_the_go_generation() {
        let v2 = Dialect {
            json: &GO_JSON_V2_CORE,
            version: Wording::Lower,
        };
        let syntax_text =
            |input: &[u8], dialect| parse_in(input, "", dialect).unwrap_err().go_text();
        assert_eq!(
            syntax_text(br#"{"a":"\x"}"#, Dialect::NEWEST),
            "invalid character 'x' in string escape code"
        );
        assert_eq!(
            syntax_text(br#"{"a":"\x"}"#, v2),
            "invalid escape sequence `\\x` in string"
        );
        let deep = "[".repeat(MAX_DEPTH + 1);
        assert_eq!(syntax_text(deep.as_bytes(), v2), "exceeded max depth");
        assert_eq!(
            decode_in(r#"{"version":1}"#, &FINGERPRINT, v2)
                .unwrap_err()
                .go_text(),
            "json: cannot unmarshal number into Go struct field PluginFingerprint.version of \
             type version.Version: JSON value must be string type"
        );
    }

    #[test]
    fn strings_under_lists_values_not_keys() {
        let obj = parse(r#"{"result":{"k":"v1","n":["v2",{"x":"v3"}]},"error":"e","o":"v4"}"#);
        let mut found = obj.strings_under(|k| k != "error");
        found.sort();
        assert_eq!(found, ["v1", "v2", "v3", "v4"]);
    }

    #[test]
    fn go_offsets_count_bytes_read() {
        let e = parse_err(b"{} x");
        assert_eq!(e.go_offset(4), Some(4));
        let e = parse_err(b"{\"a\":tr");
        assert_eq!(e.go_offset(7), Some(7));
        assert_eq!(parse_err(b"").go_offset(0), Some(0));
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
    fn has_key_folded_tells_null_from_absent() {
        assert!(parse(r#"{"error":null}"#).has_key_folded("error"));
        assert!(!parse(r#"{}"#).has_key_folded("error"));
        let empty = parse(r#"{"ERROR":""}"#);
        assert!(empty.has_key_folded("error"));
        assert_eq!(empty.string("error").unwrap().as_deref(), Some(""));
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
            "json: cannot unmarshal number into Go value of type struct"
        );
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
                let _ = obj.has_key_folded(key);
            }
            for spec in [&CREATE, &SECRET, &FINGERPRINT] {
                let _ = obj.decode(spec, Dialect::NEWEST, &mut |_, _| Ok(()));
            }
            let _ = obj.strings_under(|_| true);
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
}

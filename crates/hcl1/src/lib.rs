//! HCL 1, as HashiCorp's Go library `github.com/hashicorp/hcl` (v1) reads
//! it: `hcl.Parse` (HCL, or JSON when the first character that is not a
//! space is `{`) into a tree with positions, and `hcl.Decode`'s rules for
//! the shapes a program takes from it (strings, and blocks of them, merged
//! in order). Nomad reads its agent configuration and its volume
//! specifications with this library; so does plugctl, through this crate.
//!
//! The behaviour is the library's, leniencies and all, because a program
//! that reads a file another program reads must accept what it accepts
//! and refuse what it refuses: keys given twice, `client` blocks given
//! twice, quoted keys, heredocs, `${...}` kept as written, JSON with a
//! missing `}`. The differences are listed on [`parse`]. Errors carry a
//! position and a cause made of HCL 1's token names, never the text of the
//! file (which may hold a token or a password).
//!
//! ```
//! use plugctl_hcl1::Field;
//!
//! const FIELDS: [Field; 2] = [
//!     Field::string("data_dir"),
//!     Field::block("client", &[Field::string("node_pool")]),
//! ];
//! let file = plugctl_hcl1::parse(b"data_dir = \"/srv/nomad\"\nclient { node_pool = \"gpu\" }\n").unwrap();
//! let got = plugctl_hcl1::decode(&file.root, &FIELDS).unwrap();
//! assert_eq!(got.string("client.node_pool").unwrap().bytes, b"gpu");
//! assert_eq!(got.string("data_dir").unwrap().pos.line, 1);
//! ```

mod ast;
mod decode;
mod json;
mod parser;
mod reader;
mod scanner;
mod text;
mod token;

use std::fmt;

pub use ast::{File, ListType, Node, ObjectItem, ObjectList, ObjectType};
pub use decode::{Decoded, Field, Shape, StringValue, decode};
pub use token::{Pos, Token, TokenKind, Value, ValueError};

/// How deeply objects and lists may nest: HCL 1 has no limit (Go's stacks
/// grow), plugctl stops here rather than run out of stack.
pub const MAX_DEPTH: usize = 512;

/// Reads a file as HCL 1 does: JSON when its first character that is not
/// a (Unicode) space is `{`, else HCL with every CRLF made LF first.
///
/// Differences from the Go library, all refusals of what makes it fail
/// anyway or of what no file holds: where HCL 1 itself panics (a token
/// that ends before it starts, an unquote of a key that cannot be
/// unquoted, a rune put back that was not read) this is an error of kind
/// [`ErrorKind::Crash`]; nesting past [`MAX_DEPTH`] is refused; and
/// identifier characters are judged by the Unicode tables of the
/// `unicode-properties` crate, which may be newer than Go's.
pub fn parse(src: &[u8]) -> Result<File, Error> {
    if json_mode(src) {
        return json::parse(src).map(|root| File { root, json: true });
    }
    let normalized = crlf_to_lf(src);
    parser::parse(&normalized).map(|root| File { root, json: false })
}

/// HCL 1's `lexMode`.
fn json_mode(src: &[u8]) -> bool {
    let mut off = 0;
    while let Some((r, w)) = text::decode_rune(&src[off..]) {
        off += w;
        if text::is_space(r) {
            continue;
        }
        return r == '{';
    }
    false
}

fn crlf_to_lf(src: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(src.len());
    let mut i = 0;
    while i < src.len() {
        if src[i] == b'\r' && src.get(i + 1) == Some(&b'\n') {
            i += 1;
        }
        out.push(src[i]);
        i += 1;
    }
    out
}

/// Why a file was not read, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    pos: Option<Pos>,
    kind: ErrorKind,
}

/// What kind of error.
#[derive(Debug, Clone, PartialEq)]
pub enum ErrorKind {
    /// The scanner's (HCL 1's own words: `illegal char`, `literal not
    /// terminated`, `heredoc not terminated`, ...).
    Scan(&'static str),
    /// The parser's.
    Syntax(Syntax),
    /// A literal with no value ([`ValueError`]).
    Value(ValueError),
    /// A value of the wrong kind for what the program takes there.
    Type {
        /// The setting, as the program names it: `client.node_pool`.
        path: String,
        expected: &'static str,
        found: &'static str,
    },
    /// Where the Go library panics.
    Crash(&'static str),
}

/// The parser's errors, named by token types only.
#[derive(Debug, Clone, PartialEq)]
pub enum Syntax {
    ExpectedObjectOrAssign,
    NestedAssign,
    NoKeys,
    ExpectedKey(TokenKind),
    ExpectedKeyOrValue(TokenKind),
    IllegalCharacter,
    UnknownToken(TokenKind),
    ExpectedClosingBrace(TokenKind),
    ListExpectedComma(TokenKind),
    /// An error inside an object or a list that is inside a list.
    InList(&'static str, Box<Error>),
    UnexpectedInList(TokenKind),
    TooDeep,
    JsonExpectedObject(TokenKind),
    JsonExpectedKey(TokenKind),
    JsonEmpty,
}

impl Error {
    pub(crate) fn scan(pos: Pos, msg: &'static str) -> Error {
        Error {
            pos: Some(pos),
            kind: ErrorKind::Scan(msg),
        }
    }

    pub(crate) fn syntax(pos: Option<Pos>, syntax: Syntax) -> Error {
        Error {
            pos,
            kind: ErrorKind::Syntax(syntax),
        }
    }

    pub(crate) fn crash(pos: Option<Pos>, why: &'static str) -> Error {
        Error {
            pos,
            kind: ErrorKind::Crash(why),
        }
    }

    pub(crate) fn value(pos: Pos, e: ValueError) -> Error {
        Error {
            pos: pos.is_valid().then_some(pos),
            kind: ErrorKind::Value(e),
        }
    }

    pub(crate) fn type_error(
        pos: Option<Pos>,
        path: &str,
        expected: &'static str,
        found: &'static str,
    ) -> Error {
        Error {
            pos: pos.filter(Pos::is_valid),
            kind: ErrorKind::Type {
                path: path.to_string(),
                expected,
                found,
            },
        }
    }

    /// Where, when HCL 1 knows: for an error inside a list in a list, the
    /// innermost place.
    pub fn pos(&self) -> Option<Pos> {
        match &self.kind {
            ErrorKind::Syntax(Syntax::InList(_, inner)) => inner.pos().or(self.pos),
            _ => self.pos,
        }
    }

    /// Where HCL 1 itself reports it (for an error inside a list in a
    /// list, the outer list's element).
    pub fn reported_pos(&self) -> Option<Pos> {
        self.pos
    }

    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The cause, without the position: bounded, and free of the file's
    /// text.
    pub fn cause(&self) -> String {
        match &self.kind {
            ErrorKind::Syntax(Syntax::InList(what, inner)) => {
                // However deep the lists, the innermost error alone.
                let mut inner: &Error = inner;
                while let ErrorKind::Syntax(Syntax::InList(_, next)) = &inner.kind {
                    inner = next;
                }
                format!("in {what} within a list: {}", inner.cause())
            }
            kind => kind.to_string(),
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Scan(msg) => f.write_str(msg),
            ErrorKind::Syntax(s) => write!(f, "{s}"),
            ErrorKind::Value(v) => write!(f, "{v}"),
            ErrorKind::Type {
                path,
                expected,
                found,
            } => write!(f, "{path}: expected {expected}, found {found}"),
            ErrorKind::Crash(why) => write!(f, "HCL 1 itself stops here: {why}"),
        }
    }
}

impl fmt::Display for Syntax {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Syntax::ExpectedObjectOrAssign => {
                f.write_str("key expected start of object ('{') or assignment ('=')")
            }
            Syntax::NestedAssign => f.write_str("nested object expected: LBRACE got: ASSIGN"),
            Syntax::NoKeys => f.write_str("no object keys found"),
            Syntax::ExpectedKey(k) => write!(f, "expected: IDENT | STRING got: {k}"),
            Syntax::ExpectedKeyOrValue(k) => {
                write!(f, "expected: IDENT | STRING | ASSIGN | LBRACE got: {k}")
            }
            Syntax::IllegalCharacter => f.write_str("illegal character"),
            Syntax::UnknownToken(k) => write!(f, "expected a value, got: {k}"),
            Syntax::ExpectedClosingBrace(k) => {
                write!(f, "object expected closing RBRACE got: {k}")
            }
            Syntax::ListExpectedComma(k) => {
                write!(
                    f,
                    "error parsing list, expected comma or list end, got: {k}"
                )
            }
            Syntax::InList(what, inner) => {
                write!(f, "in {what} within a list: {}", inner.cause())
            }
            Syntax::UnexpectedInList(k) => write!(f, "unexpected token while parsing list: {k}"),
            Syntax::TooDeep => write!(f, "objects and lists nested deeper than {MAX_DEPTH}"),
            Syntax::JsonExpectedObject(k) => write!(f, "expected an object, got: {k}"),
            Syntax::JsonExpectedKey(k) => write!(f, "expected: STRING got: {k}"),
            Syntax::JsonEmpty => f.write_str("no object"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pos() {
            Some(pos) => write!(f, "{pos}: {}", self.cause()),
            None => f.write_str(&self.cause()),
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    const FIELDS: [Field; 2] = [
        Field::string("data_dir"),
        Field::block(
            "client",
            &[Field::string("node_pool"), Field::string("state_dir")],
        ),
    ];

    fn read(src: &str) -> Result<Decoded, Error> {
        decode(&parse(src.as_bytes())?.root, &FIELDS)
    }

    fn text(d: &Decoded, path: &str) -> Option<String> {
        d.string(path)
            .map(|v| String::from_utf8(v.bytes.clone()).unwrap())
    }

    #[test]
    fn what_hcl_1_merges_and_keeps() {
        let d = read("data_dir = \"/a\"\ndata_dir = \"/b\"\n").unwrap();
        assert_eq!(text(&d, "data_dir").as_deref(), Some("/b"));
        assert_eq!(d.string("data_dir").unwrap().pos.line, 2);
        // A second block is decoded into the first.
        let d =
            read("client { node_pool = \"a\"\n state_dir = \"/s\" }\nclient { node_pool = \"b\" }")
                .unwrap();
        assert_eq!(text(&d, "client.node_pool").as_deref(), Some("b"));
        assert_eq!(text(&d, "client.state_dir").as_deref(), Some("/s"));
        // A labelled block's items are keyed by the label: not ours.
        let d = read("client \"x\" { node_pool = \"p\" }").unwrap();
        assert_eq!(text(&d, "client.node_pool"), None);
        // Numbers and bools as written; ${...} untouched; quoted, folded keys.
        let d = read("\"DATA_DIR\" = 017\nclient { NODE_pool = \"${a}\" }").unwrap();
        assert_eq!(text(&d, "data_dir").as_deref(), Some("017"));
        assert_eq!(text(&d, "client.node_pool").as_deref(), Some("${a}"));
        // JSON: a list of client objects is two blocks.
        let d = read(r#"{"client": [{"node_pool": "a"}, {"state_dir": "/s"}]}"#).unwrap();
        assert_eq!(text(&d, "client.node_pool").as_deref(), Some("a"));
        assert_eq!(text(&d, "client.state_dir").as_deref(), Some("/s"));
    }

    #[test]
    fn what_hcl_1_refuses_is_refused_where_it_says() {
        let e = read("client {\n  node_pool = \"a\"\n").unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Syntax(_)), "{e}");
        // Every scan past the end moves one column on, as in HCL 1.
        assert_eq!(
            e.to_string(),
            "3:2: object expected closing RBRACE got: EOF"
        );
        let e = read("data_dir = \"/a\\q\"").unwrap_err();
        assert_eq!(e.to_string(), "1:16: illegal char escape");
        let e = read("data_dir = [\"/a\"]").unwrap_err();
        assert_eq!(
            e.to_string(),
            "1:12: data_dir: expected a string, found a list"
        );
        // Where HCL 1 panics: an escape its unquoting refuses.
        let e = read("data_dir = \"\\777\"").unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::Value(ValueError::Unquote)),
            "{e}"
        );
        // An error in a list in a list names the innermost place, bounded.
        let deep = format!("x = {}1 2{}", "[".repeat(40), "]".repeat(40));
        let e = read(&deep).unwrap_err();
        assert_eq!(e.pos().map(|p| p.column), Some(47));
        assert!(e.cause().len() < 200, "{}", e.cause());
        // Nothing of the text reaches a message.
        let e = read("vault {\n  token = s3cret-token\n}").unwrap_err();
        assert!(!e.to_string().contains("s3cret"), "{e}");
    }
}

//! HCL 1's JSON reader (`json/scanner`, `json/parser`), which reads a file
//! whose first character that is not a space is `{`, with its leniencies:
//! a missing comma between members ends the object there, and nothing
//! after the top object is read at all (not even checked); `"a" "b": v` is
//! one member with two keys; `true`, `false` and `[` inside a list are
//! skipped; `null` is an empty string. Then the tree is flattened as HCL
//! 1 flattens it, so that JSON reads like HCL blocks: a member whose value
//! is an object of objects becomes one item per inner member, with both
//! keys (`"client": {"x": {...}}` is `client "x" {...}`), and a list of
//! objects becomes one item per object (`"client": [{...}, {...}]` is two
//! `client` blocks).

use crate::ast::{ListType, Node, ObjectItem, ObjectList, ObjectType};
use crate::parser::Stop;
use crate::reader::{EOF, Mode, Reader};
use crate::text::{digit_val, is_decimal, is_digit, is_letter, is_whitespace};
use crate::token::{Token, TokenKind};
use crate::{Error, Syntax};

struct Scanner<'a> {
    r: Reader<'a>,
}

impl Scanner<'_> {
    fn scan(&mut self) -> Token {
        let mut ch = self.r.next();
        while is_whitespace(ch) {
            ch = self.r.next();
        }
        let pos = self.r.token_start();
        let kind = if is_letter(ch) {
            match self.scan_identifier().as_str() {
                "true" | "false" => TokenKind::Bool,
                "null" => TokenKind::Null,
                _ => {
                    self.r.err("illegal char");
                    TokenKind::Illegal
                }
            }
        } else if is_decimal(ch) {
            self.scan_number(ch)
        } else {
            match ch {
                EOF => TokenKind::Eof,
                '"' => {
                    self.scan_string();
                    TokenKind::String
                }
                '.' => {
                    let next = self.r.peek();
                    if is_decimal(next) {
                        let ch = self.r.scan_mantissa(next);
                        self.r.scan_exponent(ch);
                        TokenKind::Float
                    } else {
                        TokenKind::Period
                    }
                }
                '[' => TokenKind::LBrack,
                ']' => TokenKind::RBrack,
                '{' => TokenKind::LBrace,
                '}' => TokenKind::RBrace,
                ',' => TokenKind::Comma,
                ':' => TokenKind::Colon,
                // A `-` not before a digit is illegal, as any other rune.
                '-' if is_decimal(self.r.peek()) => {
                    let ch = self.r.next();
                    self.scan_number(ch)
                }
                _ => {
                    self.r.err("illegal char");
                    TokenKind::Illegal
                }
            }
        };
        let text = self.r.text_from(pos.offset);
        Token {
            kind,
            pos,
            text,
            json: kind == TokenKind::String,
        }
    }

    fn scan_number(&mut self, ch: char) -> TokenKind {
        let zero = ch == '0';
        let start = self.r.pos;
        self.r.scan_mantissa(ch);
        let mut ch = self.r.next();
        if ch == 'e' || ch == 'E' {
            self.r.scan_exponent(ch);
            return TokenKind::Float;
        }
        if ch == '.' {
            ch = self.r.scan_fraction(ch);
            if ch == 'e' || ch == 'E' {
                ch = self.r.next();
                self.r.scan_exponent(ch);
            }
            return TokenKind::Float;
        }
        if ch != EOF {
            self.r.unread();
        }
        if zero && start != self.r.pos {
            self.r.err("numbers cannot start with 0");
        }
        TokenKind::Number
    }

    fn scan_string(&mut self) {
        let mut braces = 0;
        loop {
            let ch = self.r.next();
            if ch == '\n' || ch == EOF {
                self.r.err("literal not terminated");
                return;
            }
            if ch == '"' {
                break;
            }
            if braces == 0 && ch == '$' && self.r.peek() == '{' {
                braces += 1;
                self.r.next();
            } else if braces > 0 && ch == '{' {
                braces += 1;
            }
            if braces > 0 && ch == '}' {
                braces -= 1;
            }
            if ch == '\\' {
                self.scan_escape();
            }
        }
    }

    fn scan_escape(&mut self) {
        let ch = self.r.next();
        match ch {
            'a' | 'b' | 'f' | 'n' | 'r' | 't' | 'v' | '\\' | '"' => {}
            '0'..='7' => self.scan_digits(ch, 8, 3),
            'x' => {
                let c = self.r.next();
                self.scan_digits(c, 16, 2)
            }
            'u' => {
                let c = self.r.next();
                self.scan_digits(c, 16, 4)
            }
            'U' => {
                let c = self.r.next();
                self.scan_digits(c, 16, 8)
            }
            _ => self.r.err("illegal char escape"),
        }
    }

    fn scan_digits(&mut self, mut ch: char, base: u32, mut n: usize) {
        while n > 0 && digit_val(ch) < base {
            ch = self.r.next();
            n -= 1;
        }
        if n > 0 {
            self.r.err("illegal char escape");
        }
        // The JSON scanner always puts the last rune back, even when
        // there was none to put back (at the end): HCL 1 panics there.
        self.r.unread();
    }

    fn scan_identifier(&mut self) -> String {
        let offs = self.r.pos.offset - self.r.last_char_len;
        let mut ch = self.r.next();
        while is_letter(ch) || is_digit(ch) || ch == '-' {
            ch = self.r.next();
        }
        if ch != EOF {
            self.r.unread();
        }
        self.r.text_from(offs)
    }
}

struct Parser<'a> {
    sc: Scanner<'a>,
    tok: Token,
    buffered: bool,
    /// Objects and lists open around the parser.
    depth: usize,
}

/// Parses a JSON file and flattens it.
pub fn parse(src: &[u8]) -> Result<ObjectList, Error> {
    let mut p = Parser {
        sc: Scanner {
            r: Reader::new(src, Mode::Json),
        },
        tok: Token {
            kind: TokenKind::Illegal,
            pos: Default::default(),
            text: String::new(),
            json: false,
        },
        buffered: false,
        depth: 0,
    };
    let object = p.object();
    if let Some(crash) = p.sc.r.crash {
        return Err(Error::crash(None, crash));
    }
    if let Some((pos, msg)) = p.sc.r.error {
        return Err(Error::scan(pos, msg));
    }
    let mut root = match object {
        Ok(o) => o.list,
        Err(Stop::Eof) => return Err(Error::syntax(None, Syntax::JsonEmpty)),
        Err(Stop::Err(e)) => return Err(e),
    };
    flatten(&mut root);
    Ok(root)
}

impl Parser<'_> {
    fn scan(&mut self) -> Token {
        if self.buffered {
            self.buffered = false;
            return self.tok.clone();
        }
        self.tok = self.sc.scan();
        self.tok.clone()
    }

    fn error(tok: &Token, syntax: Syntax) -> Error {
        Error::syntax(Some(tok.pos), syntax)
    }

    fn object(&mut self) -> Result<ObjectType, Stop> {
        let tok = self.scan();
        match tok.kind {
            TokenKind::LBrace => Ok(self.object_type(&tok)?),
            TokenKind::Eof => Err(Stop::Eof),
            other => Err(Self::error(&tok, Syntax::JsonExpectedObject(other)).into()),
        }
    }

    fn object_type(&mut self, lbrace: &Token) -> Result<ObjectType, Error> {
        self.depth += 1;
        let result = if self.depth > crate::MAX_DEPTH {
            Err(Error::syntax(Some(self.tok.pos), Syntax::TooDeep))
        } else {
            self.object_type_within(lbrace)
        };
        self.depth -= 1;
        result
    }

    fn object_type_within(&mut self, lbrace: &Token) -> Result<ObjectType, Error> {
        let (list, err) = self.object_list();
        if let Some(e) = err
            && self.tok.kind != TokenKind::RBrace
        {
            return Err(e);
        }
        Ok(ObjectType {
            lbrace: lbrace.pos,
            list,
        })
    }

    fn object_list(&mut self) -> (ObjectList, Option<Error>) {
        let mut node = ObjectList::default();
        loop {
            match self.object_item() {
                Ok(item) => node.items.push(item),
                Err(Stop::Eof) => break,
                Err(Stop::Err(e)) => return (node, Some(e)),
            }
            // Anything but a comma ends the object (a `}` or not).
            if self.scan().kind != TokenKind::Comma {
                break;
            }
        }
        (node, None)
    }

    fn object_item(&mut self) -> Result<ObjectItem, Stop> {
        let keys = self.object_key()?;
        let val = self.object_value()?;
        Ok(ObjectItem { keys, val })
    }

    fn object_key(&mut self) -> Result<Vec<Token>, Stop> {
        let mut keys = Vec::new();
        loop {
            let tok = self.scan();
            match tok.kind {
                TokenKind::Eof => return Err(Stop::Eof),
                TokenKind::String => keys.push(tok),
                TokenKind::Colon => {
                    if keys.is_empty() {
                        return Err(Self::error(&tok, Syntax::JsonExpectedKey(tok.kind)).into());
                    }
                    return Ok(keys);
                }
                TokenKind::Illegal => {
                    return Err(Self::error(&tok, Syntax::IllegalCharacter).into());
                }
                other => return Err(Self::error(&tok, Syntax::JsonExpectedKey(other)).into()),
            }
        }
    }

    fn object_value(&mut self) -> Result<Node, Stop> {
        let tok = self.scan();
        match tok.kind {
            TokenKind::Number
            | TokenKind::Float
            | TokenKind::Bool
            | TokenKind::Null
            | TokenKind::String => Ok(Node::Literal(hcl_token(tok))),
            TokenKind::LBrace => Ok(Node::Object(self.object_type(&tok)?)),
            TokenKind::LBrack => Ok(Node::List(self.list_type(&tok)?)),
            TokenKind::Eof => Err(Stop::Eof),
            other => Err(Self::error(&tok, Syntax::UnknownToken(other)).into()),
        }
    }

    fn list_type(&mut self, lbrack: &Token) -> Result<ListType, Error> {
        self.depth += 1;
        let result = if self.depth > crate::MAX_DEPTH {
            Err(Error::syntax(Some(self.tok.pos), Syntax::TooDeep))
        } else {
            self.list_type_within(lbrack)
        };
        self.depth -= 1;
        result
    }

    fn list_type_within(&mut self, lbrack: &Token) -> Result<ListType, Error> {
        let mut items = Vec::new();
        loop {
            let tok = self.scan();
            match tok.kind {
                TokenKind::Number | TokenKind::Float | TokenKind::String => {
                    items.push(Node::Literal(hcl_token(tok)));
                }
                TokenKind::Comma => {}
                TokenKind::LBrace => items.push(Node::Object(self.object_type(&tok)?)),
                // Skipped, as HCL 1 skips them: its grammar has neither.
                TokenKind::Bool | TokenKind::LBrack => {}
                TokenKind::RBrack => {
                    return Ok(ListType {
                        lbrack: lbrack.pos,
                        items,
                    });
                }
                other => return Err(Self::error(&tok, Syntax::UnexpectedInList(other))),
            }
        }
    }
}

/// A JSON literal as the HCL token it becomes: `null` is an empty string.
fn hcl_token(tok: Token) -> Token {
    match tok.kind {
        TokenKind::Null => Token {
            kind: TokenKind::String,
            text: String::new(),
            json: false,
            ..tok
        },
        _ => tok,
    }
}

/// HCL 1's `flattenObjects`, over the whole tree.
fn flatten(list: &mut ObjectList) {
    let mut items = Vec::with_capacity(list.items.len());
    for item in std::mem::take(&mut list.items) {
        expand(item, &mut items);
    }
    list.items = items;
    for item in &mut list.items {
        walk(&mut item.val);
    }
}

fn walk(node: &mut Node) {
    match node {
        Node::Object(o) => flatten(&mut o.list),
        Node::List(l) => l.items.iter_mut().for_each(walk),
        Node::Literal(_) => {}
    }
}

/// One item, or what it stands for when its value is an object of
/// objects (one item per member, the member's keys after its own) or a
/// list of objects (one item per object, its own keys).
fn expand(item: ObjectItem, out: &mut Vec<ObjectItem>) {
    let is_object = |n: &Node| matches!(n, Node::Object(_));
    match item.val {
        Node::Object(ref o)
            if !o.list.items.is_empty() && o.list.items.iter().all(|i| is_object(&i.val)) =>
        {
            let Node::Object(o) = item.val else {
                unreachable!()
            };
            for sub in o.list.items {
                let mut keys = item.keys.clone();
                keys.extend(sub.keys);
                expand(ObjectItem { keys, val: sub.val }, out);
            }
        }
        Node::List(ref l) if !l.items.is_empty() && l.items.iter().all(is_object) => {
            let Node::List(l) = item.val else {
                unreachable!()
            };
            for elem in l.items {
                expand(
                    ObjectItem {
                        keys: item.keys.clone(),
                        val: elem,
                    },
                    out,
                );
            }
        }
        _ => out.push(item),
    }
}

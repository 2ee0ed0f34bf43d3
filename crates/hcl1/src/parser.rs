//! HCL 1's parser (`hcl/parser`), with the behaviour its users live with:
//! items may be separated by commas, a list may end with one, `key =` at
//! the very end of a file is dropped, an error inside a block that stops at
//! its closing `}` is forgiven, and lists of lists need no commas between
//! them. The scanner's last error wins over the parser's.

use crate::ast::{ListType, Node, ObjectItem, ObjectList, ObjectType};
use crate::scanner::Scanner;
use crate::token::{Token, TokenKind};
use crate::{Error, Syntax};

/// Why an item, a key or a value was not read (by this parser and the
/// JSON one alike).
pub(crate) enum Stop {
    /// The file ended (`errEofToken`): not an error where it may end.
    Eof,
    Err(Error),
}

impl From<Error> for Stop {
    fn from(e: Error) -> Stop {
        Stop::Err(e)
    }
}

struct Parser<'a> {
    sc: Scanner<'a>,
    tok: Token,
    buffered: bool,
    /// Objects and lists open around the parser.
    depth: usize,
}

/// Parses an HCL file whose CRLFs are already LFs.
pub fn parse(src: &[u8]) -> Result<ObjectList, Error> {
    let mut p = Parser {
        sc: Scanner::new(src),
        tok: Token {
            kind: TokenKind::Illegal,
            pos: Default::default(),
            text: String::new(),
            json: false,
        },
        buffered: false,
        depth: 0,
    };
    let (list, err) = p.object_list(false);
    if let Some(crash) = p.sc.r.crash {
        return Err(Error::crash(None, crash));
    }
    if let Some((pos, msg)) = p.sc.r.error {
        return Err(Error::scan(pos, msg));
    }
    match err {
        Some(e) => Err(e),
        None => Ok(list),
    }
}

impl Parser<'_> {
    fn scan(&mut self) -> Token {
        if self.buffered {
            self.buffered = false;
            return self.tok.clone();
        }
        loop {
            self.tok = self.sc.scan();
            if self.tok.kind != TokenKind::Comment {
                return self.tok.clone();
            }
        }
    }

    fn unscan(&mut self) {
        self.buffered = true;
    }

    fn error(&self, at: &Token, syntax: Syntax) -> Error {
        Error::syntax(Some(at.pos), syntax)
    }

    fn object_list(&mut self, obj: bool) -> (ObjectList, Option<Error>) {
        let mut node = ObjectList::default();
        loop {
            if obj {
                let tok = self.scan();
                self.unscan();
                if tok.kind == TokenKind::RBrace {
                    break;
                }
            }
            match self.object_item() {
                Ok(item) => node.items.push(item),
                Err(Stop::Eof) => break,
                Err(Stop::Err(e)) => return (node, Some(e)),
            }
            // Items may be separated by a comma.
            if self.scan().kind != TokenKind::Comma {
                self.unscan();
            }
        }
        (node, None)
    }

    fn object_item(&mut self) -> Result<ObjectItem, Stop> {
        let (keys, mut err) = self.object_key();
        if !keys.is_empty() && matches!(err, Some(Stop::Eof)) {
            err = None;
        }
        if !keys.is_empty() && err.is_some() && self.tok.kind == TokenKind::RBrace {
            // Keys then `}`: the error below, about the missing value.
            err = None;
            self.tok.kind = TokenKind::Eof;
        }
        if let Some(e) = err {
            return Err(e);
        }
        let val = match self.tok.kind {
            TokenKind::Assign => self.object()?,
            TokenKind::LBrace => Node::Object(self.object_type()?),
            _ => {
                let at = self.tok.clone();
                return Err(self.error(&at, Syntax::ExpectedObjectOrAssign).into());
            }
        };
        // The parser looks one token ahead for a line comment.
        self.scan();
        self.unscan();
        Ok(ObjectItem { keys, val })
    }

    fn object_key(&mut self) -> (Vec<Token>, Option<Stop>) {
        let mut keys = Vec::new();
        loop {
            let tok = self.scan();
            match tok.kind {
                TokenKind::Eof => return (keys, Some(Stop::Eof)),
                TokenKind::Assign => {
                    if keys.len() > 1 {
                        return (
                            Vec::new(),
                            Some(self.error(&tok, Syntax::NestedAssign).into()),
                        );
                    }
                    if keys.is_empty() {
                        return (Vec::new(), Some(self.error(&tok, Syntax::NoKeys).into()));
                    }
                    return (keys, None);
                }
                TokenKind::LBrace => {
                    let err = keys
                        .is_empty()
                        .then(|| self.error(&tok, Syntax::ExpectedKey(tok.kind)).into());
                    return (keys, err);
                }
                TokenKind::Ident | TokenKind::String => keys.push(tok),
                TokenKind::Illegal => {
                    return (
                        keys,
                        Some(self.error(&tok, Syntax::IllegalCharacter).into()),
                    );
                }
                other => {
                    return (
                        keys,
                        Some(self.error(&tok, Syntax::ExpectedKeyOrValue(other)).into()),
                    );
                }
            }
        }
    }

    fn object(&mut self) -> Result<Node, Stop> {
        let tok = self.scan();
        match tok.kind {
            TokenKind::Number
            | TokenKind::Float
            | TokenKind::Bool
            | TokenKind::String
            | TokenKind::Heredoc => Ok(Node::Literal(tok)),
            TokenKind::LBrace => Ok(Node::Object(self.object_type()?)),
            TokenKind::LBrack => Ok(Node::List(self.list_type()?)),
            TokenKind::Eof => Err(Stop::Eof),
            other => Err(self.error(&tok, Syntax::UnknownToken(other)).into()),
        }
    }

    fn object_type(&mut self) -> Result<ObjectType, Error> {
        self.depth += 1;
        let result = if self.depth > crate::MAX_DEPTH {
            Err(Error::syntax(Some(self.tok.pos), Syntax::TooDeep))
        } else {
            self.object_type_within()
        };
        self.depth -= 1;
        result
    }

    fn object_type_within(&mut self) -> Result<ObjectType, Error> {
        let lbrace = self.tok.pos;
        let (list, err) = self.object_list(true);
        // An error that left the parser on this block's `}` is forgiven.
        if let Some(e) = err
            && self.tok.kind != TokenKind::RBrace
        {
            return Err(e);
        }
        let tok = self.scan();
        if tok.kind != TokenKind::RBrace {
            return Err(self.error(&tok, Syntax::ExpectedClosingBrace(tok.kind)));
        }
        Ok(ObjectType { lbrace, list })
    }

    fn list_type(&mut self) -> Result<ListType, Error> {
        self.depth += 1;
        let result = if self.depth > crate::MAX_DEPTH {
            Err(Error::syntax(Some(self.tok.pos), Syntax::TooDeep))
        } else {
            self.list_type_within()
        };
        self.depth -= 1;
        result
    }

    fn list_type_within(&mut self) -> Result<ListType, Error> {
        let lbrack = self.tok.pos;
        let mut items = Vec::new();
        let mut need_comma = false;
        loop {
            let tok = self.scan();
            if need_comma && !matches!(tok.kind, TokenKind::Comma | TokenKind::RBrack) {
                return Err(self.error(&tok, Syntax::ListExpectedComma(tok.kind)));
            }
            match tok.kind {
                TokenKind::Bool
                | TokenKind::Number
                | TokenKind::Float
                | TokenKind::String
                | TokenKind::Heredoc => {
                    items.push(Node::Literal(tok));
                    need_comma = true;
                }
                TokenKind::Comma => {
                    self.scan();
                    self.unscan();
                    need_comma = false;
                }
                TokenKind::LBrace => {
                    let obj = self.object_type().map_err(|e| {
                        Error::syntax(Some(tok.pos), Syntax::InList("an object", Box::new(e)))
                    })?;
                    items.push(Node::Object(obj));
                    need_comma = true;
                }
                TokenKind::LBrack => {
                    // No comma is needed after a list in a list.
                    let list = self.list_type().map_err(|e| {
                        Error::syntax(Some(tok.pos), Syntax::InList("a list", Box::new(e)))
                    })?;
                    items.push(Node::List(list));
                }
                TokenKind::RBrack => return Ok(ListType { lbrack, items }),
                other => return Err(self.error(&tok, Syntax::UnexpectedInList(other))),
            }
        }
    }
}

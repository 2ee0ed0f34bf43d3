//! Syntax: Go's `checkValid` over the whole input, before anything is
//! decoded.

use super::text::{quote_char, unquote};
use super::{JsonError, Kind, MAX_DEPTH, Member, Messages};

/// Go's `scanner.go`, iteratively: an explicit stack of open containers
/// replaces recursion, so 10,000 levels cost a 10 KB vector, not plugctl's
/// call stack.
pub(super) struct Scanner<'a> {
    input: &'a [u8],
    pos: usize,
    messages: &'static Messages,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Open {
    Array,
    Object,
}

impl<'a> Scanner<'a> {
    pub(super) fn new(input: &'a [u8], messages: &'static Messages) -> Self {
        Scanner {
            input,
            pos: 0,
            messages,
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

    /// The whole input as one JSON value followed by nothing but space:
    /// its kind and, when it is an object, its members.
    pub(super) fn document(&mut self) -> Result<(Kind, Vec<Member>), JsonError> {
        let first = self.next_token()?;
        let mut members = Vec::new();
        self.value(&mut |m| members.push(m))?;
        self.skip_whitespace();
        if self.peek().is_some() {
            return Err(self.invalid("after top-level value"));
        }
        Ok((Kind::of(first), members))
    }

    /// The members of a valid object (a span the scanner already
    /// accepted); empty if it is not one after all.
    pub(super) fn members_of_object(&mut self) -> Vec<Member> {
        let mut members = Vec::new();
        match self.value(&mut |m| members.push(m)) {
            Ok(()) => members,
            Err(_) => Vec::new(),
        }
    }

    /// Calls `found` with every string of a valid value that is not an
    /// object key, decoded.
    pub(super) fn each_string_value(&mut self, found: &mut dyn FnMut(String)) {
        while self.pos < self.input.len() {
            if self.input[self.pos] != b'"' {
                self.pos += 1;
                continue;
            }
            let start = self.pos;
            if self.string().is_err() {
                return;
            }
            let end = self.pos;
            self.skip_whitespace();
            if self.peek() != Some(b':') {
                found(unquote(&self.input[start..end]));
            }
        }
    }

    /// One value starting at the next token, nested values included; each
    /// member of the outermost object is handed to `member`.
    fn value(&mut self, member: &mut dyn FnMut(Member)) -> Result<(), JsonError> {
        let mut stack: Vec<Open> = Vec::new();
        // The outermost object's member being read: its key and where its
        // value starts.
        let mut pending: Option<(String, usize)> = None;
        'values: loop {
            let c = self.next_token()?;
            match c {
                b'{' | b'[' => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(JsonError::Syntax {
                            offset: self.pos,
                            message: self.messages.syntax(self.messages.max_depth, c),
                        });
                    }
                    self.pos += 1;
                    if c == b'[' {
                        stack.push(Open::Array);
                        if self.next_token()? != b']' {
                            continue 'values;
                        }
                    } else {
                        stack.push(Open::Object);
                        if self.next_token()? != b'}' {
                            let key = self.key(stack.len() == 1)?;
                            if stack.len() == 1 {
                                pending = Some((key, self.pos));
                            }
                            continue 'values;
                        }
                    }
                    // An empty container ends at once.
                    self.pos += 1;
                    stack.pop();
                }
                b'"' => self.string()?,
                b'-' | b'0'..=b'9' => self.number()?,
                b't' => self.literal("true")?,
                b'f' => self.literal("false")?,
                b'n' => self.literal("null")?,
                _ => return Err(self.invalid("looking for beginning of value")),
            }
            // A value just ended: close what it ends, or go on to the next.
            loop {
                if stack.len() == 1
                    && stack[0] == Open::Object
                    && let Some((key, start)) = pending.take()
                {
                    member(Member {
                        key,
                        kind: Kind::of(self.input[start]),
                        span: start..self.pos,
                    });
                }
                let Some(&open) = stack.last() else {
                    return Ok(());
                };
                let c = self.next_token()?;
                match (open, c) {
                    (Open::Array, b',') => {
                        self.pos += 1;
                        continue 'values;
                    }
                    (Open::Object, b',') => {
                        self.pos += 1;
                        let key = self.key(stack.len() == 1)?;
                        if stack.len() == 1 {
                            pending = Some((key, self.pos));
                        }
                        continue 'values;
                    }
                    (Open::Array, b']') | (Open::Object, b'}') => {
                        self.pos += 1;
                        stack.pop();
                    }
                    (Open::Array, _) => return Err(self.invalid("after array element")),
                    (Open::Object, _) => {
                        return Err(self.invalid("after object key:value pair"));
                    }
                }
            }
        }
    }

    /// An object key and its colon; the key decoded only when `keep`.
    /// Leaves the position at the value's first token.
    fn key(&mut self, keep: bool) -> Result<String, JsonError> {
        if self.next_token()? != b'"' {
            return Err(self.invalid("looking for beginning of object key string"));
        }
        let start = self.pos;
        self.string()?;
        let key = if keep {
            unquote(&self.input[start..self.pos])
        } else {
            String::new()
        };
        if self.next_token()? != b':' {
            return Err(self.invalid("after object key"));
        }
        self.pos += 1;
        self.skip_whitespace();
        Ok(key)
    }

    /// A string token: any byte but a control character is fine to Go's
    /// scanner (invalid UTF-8 included; decoding replaces it).
    fn string(&mut self) -> Result<(), JsonError> {
        self.pos += 1;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.unexpected_end());
            };
            match c {
                b'"' => {
                    self.pos += 1;
                    return Ok(());
                }
                b'\\' => {
                    self.pos += 1;
                    self.escape()?;
                }
                0x00..=0x1f => return Err(self.invalid("in string literal")),
                _ => self.pos += 1,
            }
        }
    }

    fn escape(&mut self) -> Result<(), JsonError> {
        match self.current_or_space() {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {
                self.pos += 1;
                Ok(())
            }
            b'u' => {
                self.pos += 1;
                for _ in 0..4 {
                    if !self.current_or_space().is_ascii_hexdigit() {
                        return Err(self.invalid("in \\u hexadecimal character escape"));
                    }
                    self.pos += 1;
                }
                Ok(())
            }
            c => Err(JsonError::Syntax {
                offset: self.pos,
                message: self.messages.syntax(self.messages.bad_escape, c),
            }),
        }
    }

    fn number(&mut self) -> Result<(), JsonError> {
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
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !self.current_or_space().is_ascii_digit() {
                return Err(self.invalid("after decimal point in numeric literal"));
            }
            self.digits();
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !self.current_or_space().is_ascii_digit() {
                return Err(self.invalid("in exponent of numeric literal"));
            }
            self.digits();
        }
        Ok(())
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

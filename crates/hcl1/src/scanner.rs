//! HCL 1's scanner (`hcl/scanner`): the tokens of an HCL file, with the
//! same positions, the same errors at the same places, and the same
//! leniencies: numbers in decimal, `0x` hexadecimal, octal and floats (a
//! `.5` or `1.` is a FLOAT, `08` is a NUMBER and `008` an error), strings
//! whose `${...}` may hold quotes and newlines, heredocs (`<<EOT`,
//! `<<-EOT`) closed by a line holding the anchor, and comments (`#`, `//`,
//! `/* */`). An error does not stop the scanner: the parser reports the
//! last one.

use crate::reader::{EOF, Mode, Reader};
use crate::text::{digit_val, is_decimal, is_digit, is_letter, is_whitespace};
use crate::token::{Token, TokenKind};

pub struct Scanner<'a> {
    pub r: Reader<'a>,
}

impl<'a> Scanner<'a> {
    pub fn new(src: &'a [u8]) -> Scanner<'a> {
        Scanner {
            r: Reader::new(src, Mode::Hcl),
        }
    }

    pub fn scan(&mut self) -> Token {
        let r = &mut self.r;
        let mut ch = r.next();
        while is_whitespace(ch) {
            ch = r.next();
        }
        let pos = r.token_start();
        let kind = if is_letter(ch) {
            let lit = self.scan_identifier();
            if lit == "true" || lit == "false" {
                TokenKind::Bool
            } else {
                TokenKind::Ident
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
                '#' | '/' => {
                    self.scan_comment(ch);
                    TokenKind::Comment
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
                '<' => {
                    self.scan_heredoc();
                    TokenKind::Heredoc
                }
                '[' => TokenKind::LBrack,
                ']' => TokenKind::RBrack,
                '{' => TokenKind::LBrace,
                '}' => TokenKind::RBrace,
                ',' => TokenKind::Comma,
                '=' => TokenKind::Assign,
                '+' => TokenKind::Add,
                '-' => {
                    if is_decimal(self.r.peek()) {
                        let ch = self.r.next();
                        self.scan_number(ch)
                    } else {
                        TokenKind::Sub
                    }
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
            json: false,
        }
    }

    fn scan_comment(&mut self, mut ch: char) {
        let r = &mut self.r;
        if ch == '#' || (ch == '/' && r.peek() != '*') {
            if ch == '/' && r.peek() != '/' {
                r.err("expected '/' for comment");
                return;
            }
            ch = r.next();
            while ch != '\n' && ch != EOF {
                ch = r.next();
            }
            if ch != EOF {
                r.unread();
            }
            return;
        }
        if ch == '/' {
            r.next();
            ch = r.next();
        }
        loop {
            if ch == EOF {
                r.err("comment not terminated");
                break;
            }
            let before = ch;
            ch = r.next();
            if before == '*' && ch == '/' {
                break;
            }
        }
    }

    fn scan_number(&mut self, mut ch: char) -> TokenKind {
        let r = &mut self.r;
        if ch == '0' {
            ch = r.next();
            if ch == 'x' || ch == 'X' {
                ch = r.next();
                let mut found = false;
                while ch.is_ascii_hexdigit() {
                    ch = r.next();
                    found = true;
                }
                if !found {
                    r.err("illegal hexadecimal number");
                }
                if ch != EOF {
                    r.unread();
                }
                return TokenKind::Number;
            }
            // Octal (0421) or a float (0.1231); a digit 8 or 9 seen after
            // the first is an error unless a fraction or exponent follows.
            let mut illegal_octal = false;
            while is_decimal(ch) {
                ch = r.next();
                if ch == '8' || ch == '9' {
                    illegal_octal = true;
                }
            }
            if ch == 'e' || ch == 'E' {
                r.scan_exponent(ch);
                return TokenKind::Float;
            }
            if ch == '.' {
                ch = r.scan_fraction(ch);
                if ch == 'e' || ch == 'E' {
                    ch = r.next();
                    r.scan_exponent(ch);
                }
                return TokenKind::Float;
            }
            if illegal_octal {
                r.err("illegal octal number");
            }
            if ch != EOF {
                r.unread();
            }
            return TokenKind::Number;
        }
        r.scan_mantissa(ch);
        ch = r.next();
        if ch == 'e' || ch == 'E' {
            r.scan_exponent(ch);
            return TokenKind::Float;
        }
        if ch == '.' {
            ch = r.scan_fraction(ch);
            if ch == 'e' || ch == 'E' {
                ch = r.next();
                r.scan_exponent(ch);
            }
            return TokenKind::Float;
        }
        if ch != EOF {
            r.unread();
        }
        TokenKind::Number
    }

    fn scan_heredoc(&mut self) {
        let r = &mut self.r;
        if r.next() != '<' {
            r.err("heredoc expected second '<', didn't see it");
            return;
        }
        let offs = r.pos.offset;
        let mut ch = r.next();
        if ch == '-' {
            ch = r.next();
        }
        while is_letter(ch) || is_digit(ch) {
            ch = r.next();
        }
        if ch == EOF {
            r.err("heredoc not terminated");
            return;
        }
        if ch == '\r' && r.peek() == '\n' {
            ch = r.next();
        }
        if ch != '\n' {
            r.err("invalid characters in heredoc anchor");
            return;
        }
        let src = r.src();
        let ident = &src[offs..r.pos.offset - r.last_char_len];
        if ident.is_empty() || ident == b"-" {
            r.err("zero-length heredoc anchor");
            return;
        }
        let anchor = ident.strip_prefix(b"-").unwrap_or(ident);
        let mut line_start = r.pos.offset;
        loop {
            let ch = r.next();
            if ch == '\n' {
                let end = r.pos.offset - r.last_char_len;
                let line = &src[line_start..end];
                if line.len() >= ident.len() && closes(line, anchor) {
                    break;
                }
                line_start = r.pos.offset;
            }
            if ch == EOF {
                r.err("heredoc not terminated");
                return;
            }
        }
    }

    fn scan_string(&mut self) {
        let mut braces = 0;
        loop {
            let ch = self.r.next();
            if (ch == '\n' && braces == 0) || ch == EOF {
                self.r.err("literal not terminated");
                return;
            }
            if ch == '"' && braces == 0 {
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

    fn scan_digits(&mut self, mut ch: char, base: u32, n: usize) {
        let start = n;
        let mut n = n;
        while n > 0 && digit_val(ch) < base {
            ch = self.r.next();
            if ch == EOF {
                break;
            }
            n -= 1;
        }
        if n > 0 {
            self.r.err("illegal char escape");
        }
        if n != start && ch != EOF {
            self.r.unread();
        }
    }

    fn scan_identifier(&mut self) -> String {
        let r = &mut self.r;
        let offs = r.pos.offset - r.last_char_len;
        let mut ch = r.next();
        while is_letter(ch) || is_digit(ch) || ch == '-' || ch == '.' {
            ch = r.next();
        }
        if ch != EOF {
            r.unread();
        }
        r.text_from(offs)
    }
}

/// Whether a line closes a heredoc: `^[[:space:]]*ANCHOR\r*\z`, the ASCII
/// spaces of Go's `[[:space:]]` (an anchor never starts with one).
fn closes(line: &[u8], anchor: &[u8]) -> bool {
    let body = match line.iter().position(|c| !b"\t\n\x0b\x0c\r ".contains(c)) {
        Some(i) => &line[i..],
        None => return false,
    };
    body.strip_prefix(anchor)
        .is_some_and(|rest| rest.iter().all(|&c| c == b'\r'))
}

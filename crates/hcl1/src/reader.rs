//! The rune reader under both of HCL 1's scanners: a `bytes.Buffer` read
//! with `ReadRune`, `UnreadRune` (one rune, and only right after a
//! successful read) and a peek, and the scanner's position bookkeeping
//! (`srcPos`, `prevPos`, `lastCharLen`, `lastLineLen`), which decide the
//! line and column of every token and error. HCL 1 marks the end with the
//! rune 0, so a NUL byte that is read as a character reads as the end too.

use crate::text::{RUNE_ERROR, decode_rune};
use crate::token::Pos;

/// The rune the scanners take for the end of the input.
pub const EOF: char = '\0';

/// Which scanner reads: they differ in how `next` reports bad input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Hcl,
    Json,
}

#[derive(Debug)]
pub struct Reader<'a> {
    src: &'a [u8],
    mode: Mode,
    /// The buffer's read offset.
    off: usize,
    /// The size of the last successful `ReadRune`, 0 when an `UnreadRune`
    /// is not allowed.
    last_read: usize,
    pub pos: Pos,
    prev: Pos,
    pub last_char_len: usize,
    pub last_line_len: usize,
    /// The last error reported (the parser keeps the last one).
    pub error: Option<(Pos, &'static str)>,
    /// Where HCL 1 itself would panic, if it would.
    pub crash: Option<&'static str>,
}

impl<'a> Reader<'a> {
    pub fn new(src: &'a [u8], mode: Mode) -> Reader<'a> {
        Reader {
            src,
            mode,
            off: 0,
            last_read: 0,
            pos: Pos {
                offset: 0,
                line: 1,
                column: 0,
            },
            prev: Pos::default(),
            last_char_len: 0,
            last_line_len: 0,
            error: None,
            crash: None,
        }
    }

    pub fn src(&self) -> &'a [u8] {
        self.src
    }

    fn read_rune(&mut self) -> Option<(char, usize)> {
        match decode_rune(&self.src[self.off..]) {
            None => {
                self.last_read = 0;
                None
            }
            Some((c, n)) => {
                self.off += n;
                self.last_read = n;
                Some((c, n))
            }
        }
    }

    fn unread_rune(&mut self) -> bool {
        if self.last_read == 0 {
            return false;
        }
        self.off -= self.last_read;
        self.last_read = 0;
        true
    }

    /// Reads the next rune, keeping the positions as HCL 1's `next` does.
    pub fn next(&mut self) -> char {
        if self.crash.is_some() {
            return EOF;
        }
        let Some((ch, size)) = self.read_rune() else {
            self.pos.column += 1;
            self.last_char_len = 0;
            return EOF;
        };
        if self.mode == Mode::Json && ch == RUNE_ERROR && size == 1 {
            // JSON's scanner counts the bad byte before remembering where
            // it was: `prevPos` stays where it was.
            self.pos.column += 1;
            self.pos.offset += 1;
            self.last_char_len = 1;
            self.err("illegal UTF-8 encoding");
            return ch;
        }
        self.prev = self.pos;
        self.pos.column += 1;
        self.last_char_len = size;
        self.pos.offset += size;
        if self.mode == Mode::Hcl && ch == RUNE_ERROR && size == 1 {
            self.err("illegal UTF-8 encoding");
            return ch;
        }
        if ch == '\n' {
            self.pos.line += 1;
            self.last_line_len = self.pos.column;
            self.pos.column = 0;
        }
        if self.mode == Mode::Hcl {
            if ch == '\0' {
                self.err("unexpected null character (0x00)");
                return EOF;
            }
            if ch == '\u{E123}' {
                self.err("unicode code point U+E123 reserved for internal use");
                return RUNE_ERROR;
            }
        }
        ch
    }

    /// Puts the last rune back (HCL 1 panics when it may not).
    pub fn unread(&mut self) {
        if !self.unread_rune() {
            self.crash
                .get_or_insert("the scanner unread a rune it had not read (HCL 1 panics)");
        }
        self.pos = self.prev;
    }

    /// The next rune, left unread.
    pub fn peek(&mut self) -> char {
        if self.crash.is_some() {
            return EOF;
        }
        match self.read_rune() {
            None => EOF,
            Some((c, _)) => {
                self.unread_rune();
                c
            }
        }
    }

    /// Where the last rune read is (`recentPosition`).
    pub fn recent(&self) -> Pos {
        let offset = self.pos.offset.saturating_sub(self.last_char_len);
        let (line, column) = if self.pos.column > 0 {
            (self.pos.line, self.pos.column)
        } else if self.last_line_len > 0 {
            (self.pos.line - 1, self.last_line_len)
        } else {
            (1, 1)
        };
        Pos {
            offset,
            line,
            column,
        }
    }

    pub fn err(&mut self, msg: &'static str) {
        self.error = Some((self.recent(), msg));
    }

    /// Where a token that starts with the rune just read starts.
    pub fn token_start(&self) -> Pos {
        let offset = self.pos.offset.saturating_sub(self.last_char_len);
        if self.pos.column > 0 {
            Pos {
                offset,
                line: self.pos.line,
                column: self.pos.column,
            }
        } else {
            Pos {
                offset,
                line: self.pos.line - 1,
                column: self.last_line_len,
            }
        }
    }

    /// The text from `start` to where the reader is; HCL 1 panics on a
    /// span that runs backwards.
    pub fn text_from(&mut self, start: usize) -> String {
        match self.src.get(start..self.pos.offset) {
            Some(b) => String::from_utf8_lossy(b).into_owned(),
            None => {
                self.crash
                    .get_or_insert("a token ends before it starts (HCL 1 panics)");
                String::new()
            }
        }
    }

    /// `scanMantissa`: decimal digits from `ch` on; the first rune after
    /// them is put back.
    pub fn scan_mantissa(&mut self, mut ch: char) -> char {
        let mut scanned = false;
        while crate::text::is_decimal(ch) {
            ch = self.next();
            scanned = true;
        }
        if scanned && ch != EOF {
            self.unread();
        }
        ch
    }

    /// `scanFraction`, after a `.`.
    pub fn scan_fraction(&mut self, ch: char) -> char {
        if ch == '.' {
            let peeked = self.peek();
            return self.scan_mantissa(peeked);
        }
        ch
    }

    /// `scanExponent`, from an `e` or `E`.
    pub fn scan_exponent(&mut self, mut ch: char) -> char {
        if ch == 'e' || ch == 'E' {
            ch = self.next();
            if ch == '-' || ch == '+' {
                ch = self.next();
            }
            ch = self.scan_mantissa(ch);
        }
        ch
    }
}

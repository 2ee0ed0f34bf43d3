//! The one printer. Data goes to stdout — a table for people or exactly one
//! JSON document for scripts — and everything else (warnings, progress,
//! errors) goes to stderr, so `plugctl ... --json | jq` always works.
//! A reader that goes away (`| head -1`) ends the command quietly.

use std::io::{self, IsTerminal, Write};

use serde::Serialize;
use serde_json::Value;

use crate::settings::Settings;
use crate::{Error, Result};

/// After Ctrl-C, results are not results: plugins were killed by us, not
/// by their own failure. Nothing more goes to stdout.
fn interrupted() -> bool {
    crate::shutdown::interrupted().is_some()
}

/// The `schema_version` of every JSON document on stdout.
pub const JSON_SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone)]
pub struct Printer {
    pub json: bool,
    color: bool,
    quiet: bool,
    verbose: u8,
    progress: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Plain,
    Good,
    Bad,
    Warn,
    Dim,
}

impl Printer {
    pub fn new(settings: &Settings) -> Printer {
        Printer {
            json: settings.json,
            color: settings.color,
            quiet: settings.quiet,
            verbose: settings.verbose,
            // Progress rewrites its line with \r and an erase sequence, which
            // a dumb terminal (Emacs shell, some CI consoles) prints as junk.
            progress: settings.interactive
                && io::stderr().is_terminal()
                && std::env::var_os("TERM").is_none_or(|t| t != "dumb"),
        }
    }

    /// A printer for library users and tests: plain text, no colour.
    pub fn plain(json: bool) -> Printer {
        Printer {
            json,
            color: false,
            quiet: false,
            verbose: 0,
            progress: false,
        }
    }

    pub fn verbose(&self) -> u8 {
        self.verbose
    }

    /// One JSON document on stdout, with `schema_version` first.
    pub fn document(&self, body: Value) -> Result<()> {
        let mut doc = serde_json::Map::new();
        doc.insert("schema_version".into(), JSON_SCHEMA_VERSION.into());
        if let Value::Object(fields) = body {
            doc.extend(fields);
        }
        self.json_line_pretty(&Value::Object(doc), true)
    }

    /// One JSON document on stdout, `schema_version` first, then the
    /// fields of `body` (a struct or map), encoded straight onto stdout:
    /// for documents too large to build as a [`Value`] first.
    pub fn document_of<T: Serialize>(&self, body: &T) -> Result<()> {
        #[derive(Serialize)]
        struct Doc<'a, T> {
            schema_version: u32,
            #[serde(flatten)]
            body: &'a T,
        }
        if interrupted() {
            return Ok(());
        }
        let mut out = io::BufWriter::new(io::stdout().lock());
        let doc = Doc {
            schema_version: JSON_SCHEMA_VERSION,
            body,
        };
        serde_json::to_writer_pretty(&mut out, &doc).map_err(|e| {
            if e.is_io() {
                Error::io("cannot write to stdout", e.into())
            } else {
                Error::io("cannot encode JSON", e.into())
            }
        })?;
        writeln!(out)
            .and_then(|()| out.flush())
            .map_err(|e| Error::io("cannot write to stdout", e))
    }

    /// One JSON object per line, for streaming commands.
    pub fn json_line<T: Serialize>(&self, value: &T) -> Result<()> {
        self.json_line_pretty(value, false)
    }

    fn json_line_pretty<T: Serialize>(&self, value: &T, pretty: bool) -> Result<()> {
        if interrupted() {
            return Ok(());
        }
        let mut out = io::stdout().lock();
        let text = if pretty {
            serde_json::to_string_pretty(value)
        } else {
            serde_json::to_string(value)
        }
        .map_err(|e| Error::io("cannot encode JSON", e.into()))?;
        writeln!(out, "{text}")
            .and_then(|()| out.flush())
            .map_err(|e| Error::io("cannot write to stdout", e))
    }

    /// Raw text on stdout.
    pub fn text(&self, s: &str) -> Result<()> {
        if interrupted() {
            return Ok(());
        }
        let mut out = io::stdout().lock();
        out.write_all(s.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| Error::io("cannot write to stdout", e))
    }

    /// Aligned columns on stdout. Cells may carry a style (colour on a
    /// terminal only).
    pub fn table(&self, headers: &[&str], rows: &[Vec<(String, Style)>]) -> Result<()> {
        let mut tw = tabwriter::TabWriter::new(Vec::new())
            .padding(2)
            .ansi(self.color);
        let head: Vec<String> = headers.iter().map(|h| self.paint(h, Style::Dim)).collect();
        let _ = writeln!(tw, "{}", head.join("\t"));
        for row in rows {
            let cells: Vec<String> = row
                .iter()
                .map(|(text, style)| self.paint(&sanitize_cell(text), *style))
                .collect();
            let _ = writeln!(tw, "{}", cells.join("\t"));
        }
        let bytes = tw
            .into_inner()
            .map_err(|e| Error::io("cannot format table", io::Error::other(e.to_string())))?;
        let mut text = String::with_capacity(bytes.len());
        for line in String::from_utf8_lossy(&bytes).lines() {
            text.push_str(line.trim_end());
            text.push('\n');
        }
        self.text(&text)
    }

    pub fn paint(&self, s: &str, style: Style) -> String {
        if !self.color {
            return s.to_string();
        }
        let code = match style {
            Style::Plain => return s.to_string(),
            Style::Good => "32",
            Style::Bad => "31",
            Style::Warn => "33",
            Style::Dim => "2",
        };
        format!("\x1b[{code}m{s}\x1b[0m")
    }

    /// A warning on stderr (hidden by -q).
    pub fn warn(&self, msg: impl AsRef<str>) {
        if !self.quiet {
            self.stderr(&format!("plugctl: warning: {}", msg.as_ref()));
        }
    }

    /// A message for people on stderr, as it is (hidden by -q): what a
    /// command did and what to do next, kept off stdout for scripts.
    pub fn info(&self, msg: impl AsRef<str>) {
        if !self.quiet {
            self.stderr(msg.as_ref());
        }
    }

    /// A note on stderr shown with -v.
    pub fn note(&self, level: u8, msg: impl AsRef<str>) {
        if self.verbose >= level {
            self.stderr(&format!("plugctl: {}", msg.as_ref()));
        }
    }

    /// A transient progress line, only when stderr is a terminal.
    pub fn progress(&self, msg: impl AsRef<str>) {
        if self.progress {
            let mut err = io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K{}", msg.as_ref());
            let _ = err.flush();
        }
    }

    pub fn progress_done(&self) {
        if self.progress {
            let mut err = io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }

    /// Every message on stderr passes here: it may quote a plugin's error
    /// or stderr, a name or a path, so it is escaped for the terminal
    /// (lines stay lines).
    fn stderr(&self, line: &str) {
        let mut err = io::stderr().lock();
        let _ = writeln!(err, "{}", escape_untrusted(line, false));
    }

    /// Reports a failed command: the message on stderr and, with `--json`,
    /// the error document on stdout (unless a document was already printed).
    pub fn error(&self, e: &Error) {
        if matches!(e, Error::BrokenPipe) {
            return;
        }
        self.stderr(&format!("plugctl: error: {e}"));
        if self.json && !matches!(e, Error::Failed(_)) {
            let _ = self.document(e.json_body());
        }
    }
}

/// Untrusted text (plugin output, names, paths) made safe for a terminal:
/// the one place that decides. Control characters that could move the
/// cursor, rewrite the screen, set the window title or forge a line — C0
/// except tab and newline, a CR not followed by LF, DEL, and C1 (U+0080 to
/// U+009F, which some terminals take as ESC sequences) — are shown
/// escaped: `\x1b`, `\u{9b}`. With `one_line` (table cells), tab and
/// newline are escaped too. `--json` output never goes through here: JSON
/// escapes them itself and keeps the exact string.
pub fn escape_untrusted(s: &str, one_line: bool) -> std::borrow::Cow<'_, str> {
    let unsafe_at = |c: char, next: Option<char>| match c {
        '\n' | '\t' => one_line,
        '\r' => one_line || next != Some('\n'),
        c => c.is_control(),
    };
    let mut chars = s.chars().peekable();
    let mut dirty = false;
    while let Some(c) = chars.next() {
        if unsafe_at(c, chars.peek().copied()) {
            dirty = true;
            break;
        }
    }
    if !dirty {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if !unsafe_at(c, chars.peek().copied()) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Table cells are one line each: [`escape_untrusted`] with newlines and
/// tabs escaped too (a volume name may hold a newline).
pub fn sanitize_cell(s: &str) -> String {
    escape_untrusted(s, true).into_owned()
}

/// "12ms", "1.25s": short durations for tables.
pub fn short_duration(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms}ms")
    } else {
        format!("{:.2}s", ms as f64 / 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_stay_on_one_line() {
        assert_eq!(sanitize_cell("a\nb\tc"), "a\\nb\\tc");
        assert_eq!(sanitize_cell("plain"), "plain");
    }

    #[test]
    fn terminal_controls_are_shown_not_obeyed() {
        assert_eq!(escape_untrusted("\x1b[2J\x07ok", false), "\\x1b[2J\\x07ok");
        assert_eq!(escape_untrusted("a\u{9b}31m", false), "a\\u{9b}31m");
        assert_eq!(escape_untrusted("x\x7f", false), "x\\x7f");
        // A bare CR would return to the line start and overwrite it.
        assert_eq!(escape_untrusted("bad\rok   ", false), "bad\\rok   ");
        assert_eq!(
            escape_untrusted("line\r\nnext\tcol", false),
            "line\r\nnext\tcol"
        );
        assert!(matches!(
            escape_untrusted("ünïcode ✓", false),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}

//! The one printer. Data goes to stdout — a table for people or exactly one
//! JSON document for scripts — and everything else (warnings, progress,
//! errors) goes to stderr, so `plugctl ... --json | jq` always works.
//! A reader that goes away (`| head -1`) ends the command quietly.
//!
//! The printer writes to any writer: the process's stdout and stderr, or
//! buffers a test hands it ([`Printer::with_streams`] and [`Streams::writers`]) to check a command's
//! output in process.

use std::borrow::Cow;
use std::io::{self, IsTerminal, Write};
use std::sync::{Arc, Mutex};

use serde::Serialize;
use serde_json::Value;

use crate::settings::Settings;
pub use plugctl_core::escape::{escape_untrusted, quote, sanitize_cell, value};
use plugctl_core::stop::Stop;

use crate::{Error, Result};

/// How many terminal columns `s` takes (what a table aligns on).
pub fn display_width(s: &str) -> usize {
    if s.is_ascii() {
        return s.len();
    }
    // Char by char, as terminals (and tabwriter before) count them.
    s.chars()
        .map(|c| unicode_width::UnicodeWidthChar::width(c).unwrap_or(0))
        .sum()
}

/// The `schema_version` of every JSON document on stdout.
pub const JSON_SCHEMA_VERSION: u32 = 1;

/// Where one of the printer's two streams goes.
#[derive(Clone)]
enum Sink {
    Stdout,
    Stderr,
    Writer(Arc<Mutex<dyn Write + Send>>),
}

impl std::fmt::Debug for Sink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Sink::Stdout => "stdout",
            Sink::Stderr => "stderr",
            Sink::Writer(_) => "writer",
        })
    }
}

/// Where a run's results and messages go: the process's stdout and
/// stderr, or two writers (a test's buffers).
#[derive(Debug, Clone)]
pub struct Streams {
    out: Sink,
    err: Sink,
}

impl Streams {
    /// stdout and stderr.
    pub fn process() -> Streams {
        Streams {
            out: Sink::Stdout,
            err: Sink::Stderr,
        }
    }

    /// Results to `out`, messages to `err` (neither a terminal).
    pub fn writers(out: impl Write + Send + 'static, err: impl Write + Send + 'static) -> Streams {
        Streams {
            out: Sink::Writer(Arc::new(Mutex::new(out))),
            err: Sink::Writer(Arc::new(Mutex::new(err))),
        }
    }

    /// Whether these are the process's own stdout and stderr.
    pub fn is_process(&self) -> bool {
        matches!((&self.out, &self.err), (Sink::Stdout, Sink::Stderr))
    }
}

impl Sink {
    /// Runs `f` with the stream locked for the whole of it (one table, one
    /// document, one line is never interleaved with another's).
    fn with<R>(&self, f: impl FnOnce(&mut dyn Write) -> R) -> R {
        match self {
            Sink::Stdout => f(&mut io::stdout().lock()),
            Sink::Stderr => f(&mut io::stderr().lock()),
            Sink::Writer(w) => f(&mut *w.lock().unwrap_or_else(|e| e.into_inner())),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Printer {
    pub json: bool,
    color: bool,
    quiet: bool,
    /// `-q` on a command that acts (not one asked to show something): its
    /// human output is not printed either, only its errors.
    results_muted: bool,
    verbose: u8,
    progress: bool,
    /// stdout is a terminal: text a plugin controls is escaped there, and
    /// only there (a pipe gets the exact bytes).
    stdout_terminal: bool,
    /// The command writes one JSON object per line (`events`): its error
    /// document is one line too. Shared by clones.
    lines: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// After a stopping signal, results are not results: plugins were
    /// killed by us, not by their own failure. Nothing more goes to stdout.
    stop: Stop,
    /// Results (tables, documents).
    out: Sink,
    /// Messages (warnings, errors, progress).
    err: Sink,
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
    pub fn new(settings: &Settings, stop: Stop) -> Printer {
        Printer {
            stop,
            json: settings.json,
            color: settings.color,
            quiet: settings.quiet,
            results_muted: false,
            verbose: settings.verbose,
            // Progress rewrites its line with \r and an erase sequence, which
            // a dumb terminal (Emacs shell, some CI consoles) prints as junk.
            progress: settings.interactive
                && io::stderr().is_terminal()
                && std::env::var_os("TERM").is_none_or(|t| t != "dumb"),
            stdout_terminal: io::stdout().is_terminal(),
            lines: Default::default(),
            out: Sink::Stdout,
            err: Sink::Stderr,
        }
    }

    /// A printer for library users and tests: plain text, no colour, never
    /// silenced (its token never fires; see [`Printer::with_stop`]).
    pub fn plain(json: bool) -> Printer {
        Printer {
            stop: Stop::new(),
            json,
            color: false,
            quiet: false,
            results_muted: false,
            verbose: 0,
            progress: false,
            stdout_terminal: false,
            lines: Default::default(),
            out: Sink::Stdout,
            err: Sink::Stderr,
        }
    }

    /// The same printer, writing to `streams` (a terminal only when they
    /// are the process's own).
    pub fn with_streams(mut self, streams: &Streams) -> Printer {
        if !streams.is_process() {
            self.stdout_terminal = false;
            self.progress = false;
            self.color = false;
        }
        self.out = streams.out.clone();
        self.err = streams.err.clone();
        self
    }

    /// Text on stderr exactly as given (clap's own messages, already
    /// formatted and free of anything untrusted).
    pub fn raw_stderr(&self, s: &str) {
        self.err.with(|err| {
            let _ = err.write_all(s.as_bytes());
            let _ = err.flush();
        });
    }

    /// The same printer, silenced by `stop` instead (a library user's or a
    /// test's own token).
    pub fn with_stop(mut self, stop: Stop) -> Printer {
        self.stop = stop;
        self
    }

    /// Whether stdout is closed to results: a shutdown is under way.
    fn interrupted(&self) -> bool {
        self.stop.stopped().is_some()
    }

    /// The same printer for a command that acts rather than shows: with
    /// `-q`, its tables and text (not a `--json` document, which a script
    /// asked for) are not printed, so a timer's journal holds errors only.
    pub fn muting_results(mut self, acts: bool) -> Printer {
        self.results_muted = acts && self.quiet;
        self
    }

    /// Whether human output (tables, text) is not printed: a shutdown is
    /// under way, or `-q` silences what an acting command says.
    fn silenced(&self) -> bool {
        self.interrupted() || (self.results_muted && !self.json)
    }

    pub fn verbose(&self) -> u8 {
        self.verbose
    }

    /// One JSON document on stdout, with `schema_version` first (on one
    /// line once the command streams lines, see [`Printer::stream_lines`]).
    pub fn document(&self, body: Value) -> Result<()> {
        let mut doc = serde_json::Map::new();
        doc.insert("schema_version".into(), JSON_SCHEMA_VERSION.into());
        if let Value::Object(fields) = body {
            doc.extend(fields);
        }
        let pretty = !self.lines.load(std::sync::atomic::Ordering::Relaxed);
        self.json_line_pretty(&Value::Object(doc), pretty)
    }

    /// From now on the command writes one JSON object per line, so any
    /// document it ends with (its error) is one line as well.
    pub fn stream_lines(&self) {
        self.lines.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// One JSON object per line, for streaming commands.
    pub fn json_line<T: Serialize>(&self, value: &T) -> Result<()> {
        self.json_line_pretty(value, false)
    }

    fn json_line_pretty<T: Serialize>(&self, value: &T, pretty: bool) -> Result<()> {
        if self.interrupted() {
            return Ok(());
        }
        let text = if pretty {
            serde_json::to_string_pretty(value)
        } else {
            serde_json::to_string(value)
        }
        .map_err(|e| Error::io("cannot encode JSON", e.into()))?;
        self.out
            .with(|out| writeln!(out, "{text}").and_then(|()| out.flush()))
            .map_err(|e| Error::io("cannot write to stdout", e))
    }

    /// Raw text on stdout.
    pub fn text(&self, s: &str) -> Result<()> {
        if self.silenced() {
            return Ok(());
        }
        self.out
            .with(|out| out.write_all(s.as_bytes()).and_then(|()| out.flush()))
            .map_err(|e| Error::io("cannot write to stdout", e))
    }

    /// Aligned columns on stdout. Cells may carry a style (colour on a
    /// terminal only).
    pub fn table(&self, headers: &[&str], rows: &[Vec<(String, Style)>]) -> Result<()> {
        self.table_from(headers, || {
            rows.iter().map(|row| {
                row.iter()
                    .map(|(text, style)| (Cow::Borrowed(text.as_str()), *style))
                    .collect()
            })
        })
    }

    /// [`Printer::table`] over rows made on demand: `rows` is called twice,
    /// once to measure the columns and once to print, so a table of 100,000
    /// volumes is never held (only the state it is made from). Each column
    /// but the last is as wide as its widest cell (display width) plus two
    /// spaces; lines carry no trailing spaces.
    pub fn table_from<'r, I>(&self, headers: &[&str], rows: impl Fn() -> I) -> Result<()>
    where
        I: Iterator<Item = Vec<(Cow<'r, str>, Style)>>,
    {
        if self.silenced() {
            return Ok(());
        }
        let mut widths: Vec<usize> = headers.iter().map(|h| display_width(h)).collect();
        for row in rows() {
            for (i, (text, _)) in row.iter().enumerate() {
                let w = display_width(&escape_untrusted(text, true));
                match widths.get_mut(i) {
                    Some(max) => *max = (*max).max(w),
                    None => widths.push(w),
                }
            }
        }
        self.out
            .with(|out| self.write_table(out, headers, &widths, rows))
            .map_err(|e| Error::io("cannot write to stdout", e))
    }

    /// The writing half of [`Printer::table_from`], columns measured.
    fn write_table<'r, I>(
        &self,
        out: &mut dyn Write,
        headers: &[&str],
        widths: &[usize],
        rows: impl Fn() -> I,
    ) -> io::Result<()>
    where
        I: Iterator<Item = Vec<(Cow<'r, str>, Style)>>,
    {
        let mut w = io::BufWriter::with_capacity(1 << 16, out);
        let mut line = String::new();
        let mut write = |w: &mut io::BufWriter<&mut dyn Write>, cells: &[(Cow<'_, str>, Style)]| {
            line.clear();
            for (i, (text, style)) in cells.iter().enumerate() {
                let last = i + 1 == cells.len();
                line.push_str(&self.paint(text, *style));
                if !last {
                    let pad = widths[i] + 2 - display_width(text);
                    line.extend(std::iter::repeat_n(' ', pad));
                }
            }
            writeln!(w, "{}", line.trim_end())
        };
        let head: Vec<(Cow<'_, str>, Style)> = headers
            .iter()
            .map(|h| (Cow::Borrowed(*h), Style::Dim))
            .collect();
        let mut result = write(&mut w, &head);
        for row in rows() {
            if result.is_err() {
                break;
            }
            let cells: Vec<(Cow<'_, str>, Style)> = row
                .iter()
                .map(|(text, style)| (escape_untrusted(text, true), *style))
                .collect();
            result = write(&mut w, &cells);
        }
        result.and_then(|()| w.flush())
    }

    /// Text on stdout written by `f` as it is made (a report too large to
    /// hold whole), through one buffer.
    pub fn stream(&self, f: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<()> {
        if self.silenced() {
            return Ok(());
        }
        self.out
            .with(|out| {
                let mut w = io::BufWriter::with_capacity(1 << 16, out);
                f(&mut w).and_then(|()| w.flush())
            })
            .map_err(|e| Error::io("cannot write to stdout", e))
    }

    /// One JSON document on stdout, written as it is serialized (nothing
    /// is built in memory first: a list of 100,000 volumes streams), with
    /// `schema_version` first and then `body`'s fields.
    pub fn document_from<T: Serialize>(&self, body: &T) -> Result<()> {
        if self.interrupted() {
            return Ok(());
        }
        #[derive(Serialize)]
        struct Doc<'b, T> {
            schema_version: u32,
            #[serde(flatten)]
            body: &'b T,
        }
        let doc = Doc {
            schema_version: JSON_SCHEMA_VERSION,
            body,
        };
        self.out.with(|out| {
            let mut w = io::BufWriter::with_capacity(1 << 16, out);
            match serde_json::to_writer_pretty(&mut w, &doc) {
                Ok(()) => {}
                Err(e) if e.is_io() => {
                    return Err(Error::io("cannot write to stdout", e.into()));
                }
                Err(e) => return Err(Error::io("cannot encode JSON", e.into())),
            }
            writeln!(w)
                .and_then(|()| w.flush())
                .map_err(|e| Error::io("cannot write to stdout", e))
        })
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

    /// Whether results go to a terminal (where text a plugin controls is
    /// shown escaped, see [`Printer::for_terminal`]).
    pub fn stdout_is_terminal(&self) -> bool {
        self.stdout_terminal
    }

    /// A value a plugin controls (a secret's), as it goes into a line of
    /// output: exact on a pipe or in a file, where a script reads it; on a
    /// terminal, every control character shown escaped (`\x1b`, `\r`,
    /// `\n`), never obeyed, so a value cannot forge a line.
    pub fn for_terminal<'v>(&self, value: &'v str) -> Cow<'v, str> {
        if self.stdout_terminal {
            escape_untrusted(value, true)
        } else {
            Cow::Borrowed(value)
        }
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

    /// A note of several lines shown with -v: the head, then each line
    /// indented — every one escaped on its own, so no line can hold a
    /// line break it did not come with (a plugin's stderr, say).
    pub fn note_lines<I, L>(&self, level: u8, head: impl AsRef<str>, lines: I)
    where
        I: IntoIterator<Item = L>,
        L: AsRef<str>,
    {
        if self.verbose >= level {
            self.stderr(&format!("plugctl: {}", head.as_ref()));
            for line in lines {
                self.stderr(&format!("  | {}", line.as_ref()));
            }
        }
    }

    /// A transient progress line, only when stderr is a terminal.
    pub fn progress(&self, msg: impl AsRef<str>) {
        if self.progress {
            self.err.with(|err| {
                let _ = write!(err, "\r\x1b[2K{}", msg.as_ref());
                let _ = err.flush();
            });
        }
    }

    pub fn progress_done(&self) {
        if self.progress {
            self.err.with(|err| {
                let _ = write!(err, "\r\x1b[2K");
                let _ = err.flush();
            });
        }
    }

    /// Every message on stderr passes here: it may quote a plugin's error
    /// or stderr, a name or a path, so it is escaped for the terminal, CR
    /// and LF included: a message stays one line, and a plugin's `\r\n`
    /// cannot forge a second one. Several lines are several calls.
    fn stderr(&self, line: &str) {
        self.err.with(|err| {
            let _ = writeln!(err, "{}", escape_untrusted(line, true));
        });
    }

    /// Reports a failed command: the message on stderr and, with `--json`,
    /// the error document on stdout (unless a document was already printed).
    pub fn error(&self, e: &Error) {
        if matches!(e.inner(), Error::BrokenPipe) {
            return;
        }
        self.stderr(&format!("plugctl: error: {}", crate::exit::message(e)));
        if self.json && !matches!(e.inner(), Error::Failed(_)) {
            let _ = self.document(crate::exit::json_body(e));
        }
    }
}

/// "12ms", "1.25s": short durations for tables.
pub fn short_duration(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms}ms")
    } else {
        format!("{:.2}s", ms as f64 / 1000.0)
    }
}

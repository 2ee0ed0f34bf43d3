//! `plugctl events [--type T] [--kind K] [--since WHEN] [--until WHEN]
//! [--tail N] [--follow]`: the registry's event log, in sequence order,
//! each event once.
//!
//! The log lives in the journal beside the registry (see
//! [`plugctl_core::registry::journal`]) and is streamed: one event is held at a
//! time whatever the log's length, and human output is fixed-width lines
//! under one header (a table could not be aligned without holding every
//! row). Old segments are rotated away; sequence numbers are never reused,
//! so a reader that asked for events after N and finds the oldest kept
//! event further on knows exactly which ones it missed, and is told so on
//! stderr. `--follow` sleeps until the kernel says the registry was
//! replaced, then reads only the journal's new bytes.
//!
//! `--since` and `--until` take a sequence number or a time; `--tail N`
//! holds the last N events that pass (at most N at a time) and prints them
//! once the log is read. On a terminal a line is cut to its width.

use std::collections::BTreeSet;

use serde_json::Value;

use super::Ctx;
use crate::Result;
use crate::cli::{EventsArgs, When};
use crate::fit::{self, Cut};
use crate::output::{Form, JSON_SCHEMA_VERSION, Printer, Style, display_width, sanitize_cell};
use plugctl_core::discovery;
use plugctl_core::error::Hint;
use plugctl_core::family::Family;
use plugctl_core::registry::journal::{self, Pos};
use plugctl_core::registry::watch::Watch;
use plugctl_core::registry::{Event, Head};

pub async fn run(ctx: &Ctx, args: EventsArgs) -> Result<()> {
    if let Some(f) = &args.family {
        discovery::require_name("plugin type", f)?;
    }
    let printer = &ctx.printer;
    printer.stream_lines();
    // Watching starts before the first read: a write landing in between
    // wakes the loop below.
    let mut watch = args.follow.then(|| Watch::new(ctx.registry.path()));
    let filter = Filter::of(&args);
    let since = filter.after;
    let mut reader = Reader::new(since, filter.clone());
    let head = ctx.registry.head()?;
    let stream = Stream {
        printer,
        shown: std::cell::Cell::new(false),
        seq_width: head.seq.to_string().len().max(3),
        tail: args.tail.map(|n| {
            std::cell::RefCell::new(std::collections::VecDeque::with_capacity(n.min(4096)))
        }),
        tail_len: args.tail.unwrap_or(0),
        tail_done: std::cell::Cell::new(false),
    };
    if since > head.seq {
        printer.warn(format!(
            "--since {since} is after the newest event ({}): only events after {since} will be \
             shown",
            head.seq
        ));
    }
    reader.read(ctx, &head, &stream)?;
    stream.flush_tail()?;
    reader.mark(ctx, &head);
    let Some(watch) = watch.as_mut() else {
        if !stream.shown.get() && !printer.json {
            // On stderr, so a script reading the lines gets none.
            let mut says = "no events".to_string();
            if !args.kind.is_empty() {
                let kinds: Vec<String> = args.kind.iter().map(|k| sanitize_cell(k)).collect();
                says.push_str(&format!(" of kind {}", kinds.join(" or ")));
                let unknown: Vec<&String> = args
                    .kind
                    .iter()
                    .filter(|k| !KINDS.contains(&k.as_str()))
                    .collect();
                for k in unknown {
                    match plugctl_core::suggest::closest(k, KINDS.iter().copied()) {
                        Some(close) => {
                            says.push_str(&crate::exit::advice(&Hint::DidYouMean(close)))
                        }
                        None => says.push_str(&format!(
                            " ({} is no kind plugctl records: {})",
                            sanitize_cell(k),
                            KINDS.join(", ")
                        )),
                    }
                }
            }
            if let Some(f) = &args.family {
                says.push_str(&format!(" of type {f}"));
                let known = ctx.registry.read().ok().map(|snap| {
                    snap.state()
                        .plugins
                        .keys()
                        .cloned()
                        .chain(Family::ALL.map(|k| k.name().to_string()))
                        .collect::<Vec<_>>()
                });
                if let Some(close) = plugctl_core::suggest::closest(f, known.unwrap_or_default()) {
                    says.push_str(&crate::exit::advice(&Hint::DidYouMean(close)));
                }
            }
            if since > 0 {
                says.push_str(&format!(" after event {since}"));
            }
            if let Some(When::Time(t)) = args.since {
                says.push_str(&format!(" since {}", humantime::format_rfc3339_seconds(t)));
            }
            match args.until {
                Some(When::Time(t)) => {
                    says.push_str(&format!(" until {}", humantime::format_rfc3339_seconds(t)));
                }
                Some(When::Seq(n)) => says.push_str(&format!(" up to event {n}")),
                None => {}
            }
            printer.info(says);
        }
        return Ok(());
    };
    let mut seen = head.write_id;
    loop {
        tokio::select! {
            () = watch.changed() => {}
            _ = ctx.stop.wait() => return Ok(()),
        }
        let head = ctx.registry.head()?;
        if head.write_id == seen {
            continue;
        }
        seen = head.write_id.clone();
        // Back from what the log itself said, not from `--since`: a
        // follower asked for events after one still to come must wait for
        // it, not read the first write as a log that went back.
        if head.seq < reader.newest {
            printer.warn(format!(
                "the registry's event sequence went back from {} to {} (the file was \
                 replaced?); following its log from the start",
                reader.newest, head.seq
            ));
            reader = Reader::new(0, filter.clone());
        } else if !reader.still_on_its_segment(ctx) {
            // The journal was replaced under the reader (a registry and
            // journal restored from a copy): its place in the old bytes
            // means nothing in the new ones. The log is read again from its
            // start, and only events after the last one shown are printed.
            printer.warn(format!(
                "the registry's journal was replaced (restored from a copy?); following the \
                 new one after event {}",
                reader.last
            ));
            reader.cursor = Pos::default();
        }
        reader.read(ctx, &head, &stream)?;
        reader.mark(ctx, &head);
    }
}

/// Where a reader is in the log.
#[derive(Debug)]
struct Reader {
    /// The last sequence number it was given, or the `--since` it was
    /// asked for, whichever is later: only events after it are printed.
    last: u64,
    /// The newest sequence number the registry said was committed when
    /// the reader last read it: a registry whose sequence is below it went
    /// back (replaced by an older or a new file).
    newest: u64,
    /// The next journal byte it has not read.
    cursor: Pos,
    /// Whether a gap is a loss worth a warning: it passed `--since N` or
    /// already read the log once. A plain `plugctl events` just shows what
    /// the log still holds.
    explicit: bool,
    filter: Filter,
    /// The segment file the cursor is in, as it was when read (device,
    /// inode): plugctl only ever appends to a segment, so another file
    /// there means the journal was replaced.
    segment_file: Option<(u64, u64)>,
}

impl Reader {
    fn new(since: u64, filter: Filter) -> Reader {
        Reader {
            last: since,
            newest: 0,
            cursor: Pos::default(),
            explicit: since > 0,
            filter,
            segment_file: None,
        }
    }

    /// Remembers which file the cursor's segment is, and how far the
    /// registry's sequence had come.
    fn mark(&mut self, ctx: &Ctx, head: &Head) {
        self.newest = head.seq;
        self.segment_file = ctx
            .registry
            .segment_file(self.cursor.segment)
            .map(|(dev, ino, _)| (dev, ino));
    }

    /// Whether the cursor's segment is still the file it read, at least as
    /// long as the cursor says.
    fn still_on_its_segment(&self, ctx: &Ctx) -> bool {
        let Some(was) = self.segment_file else {
            return true;
        };
        match ctx.registry.segment_file(self.cursor.segment) {
            Some((dev, ino, size)) => (dev, ino) == was && size >= self.cursor.offset,
            None => false,
        }
    }

    /// Prints every committed event after the last one given, in order, and
    /// warns (stderr) about events the reader can no longer get.
    fn read(&mut self, ctx: &Ctx, head: &Head, stream: &Stream) -> Result<()> {
        let mut failed = None;
        ctx.registry
            .each_event(head, &mut self.cursor, self.last, |e| {
                let expected = self.last + 1;
                if e.seq > expected && self.explicit {
                    stream.printer.warn(format!(
                        "events {expected} to {} were dropped from the log before this reader \
                         got them (plugctl keeps the last {} journal segments of {} MiB); \
                         continuing with event {}",
                        e.seq - 1,
                        journal::KEEP,
                        journal::SEGMENT_MAX >> 20,
                        e.seq
                    ));
                }
                self.last = e.seq;
                self.explicit = true;
                match self.filter.judge(&e) {
                    Judged::Show => {}
                    Judged::Skip => return true,
                    Judged::Done => return false,
                }
                match stream.event(&e) {
                    Ok(()) => true,
                    Err(err) => {
                        failed = Some(err);
                        false
                    }
                }
            })?;
        // From now on the reader has a position: any gap is a loss.
        self.explicit = true;
        match failed {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// The kinds of event plugctl records (docs/cli.md), for "did you mean".
const KINDS: [&str; 10] = [
    "fingerprint",
    "gone",
    "forgotten",
    "register",
    "deregister",
    "volume_create",
    "volume_update",
    "volume_delete",
    "volume_forget",
    "secret_fetch",
];

/// Which events are shown: `--type`, `--kind`, `--since`, `--until`.
#[derive(Debug, Clone, Default)]
struct Filter {
    family: Option<String>,
    kinds: Vec<String>,
    /// Events after this sequence number (`--since SEQ`, else 0).
    after: u64,
    /// Events at or after this time (`--since TIME`).
    from: Option<std::time::SystemTime>,
    /// Events up to this sequence number (`--until SEQ`).
    upto: Option<u64>,
    /// Events at or before this time (`--until TIME`).
    to: Option<std::time::SystemTime>,
}

/// What a filter makes of one event.
enum Judged {
    Show,
    Skip,
    /// Past `--until SEQ`: no later event is shown either.
    Done,
}

impl Filter {
    fn of(args: &EventsArgs) -> Filter {
        let (after, from) = match args.since {
            Some(When::Seq(n)) => (n, None),
            Some(When::Time(t)) => (0, Some(t)),
            None => (0, None),
        };
        let (upto, to) = match args.until {
            Some(When::Seq(n)) => (Some(n), None),
            Some(When::Time(t)) => (None, Some(t)),
            None => (None, None),
        };
        Filter {
            family: args.family.clone(),
            kinds: args.kind.clone(),
            after,
            from,
            upto,
            to,
        }
    }

    fn judge(&self, e: &Event) -> Judged {
        if self.upto.is_some_and(|n| e.seq > n) {
            return Judged::Done;
        }
        if self.family.as_deref().is_some_and(|f| f != e.family)
            || (!self.kinds.is_empty() && !self.kinds.contains(&e.kind))
        {
            return Judged::Skip;
        }
        if self.from.is_some() || self.to.is_some() {
            // An event whose time does not read as one is shown: the
            // filter cannot tell, and hiding it would hide a problem.
            if let Ok(at) = humantime::parse_rfc3339_weak(&e.time)
                && (self.from.is_some_and(|from| at < from) || self.to.is_some_and(|to| at > to))
            {
                return Judged::Skip;
            }
        }
        Judged::Show
    }
}

/// One event as a streaming JSON line: the stored event with `schema_version`.
fn line(e: &Event) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("schema_version".into(), JSON_SCHEMA_VERSION.into());
    if let Ok(Value::Object(fields)) = serde_json::to_value(e) {
        m.extend(fields);
    }
    Value::Object(m)
}

const HEADERS: [&str; 6] = ["SEQ", "TIME", "KIND", "TYPE", "NAME", "DETAILS"];

/// `key=value` pairs, nulls left out, for the human views. A string that
/// is empty or holds a space, `=`, `"` or `\` is quoted as logfmt quotes
/// one (JSON's string syntax): a volume named `x state=deleted` must not
/// read as a second `state` field. A call's `usage` is its four figures
/// every call has, each under its key (`usage.cpu_ms=3`; JSON has the
/// rest): names plugctl chose, so that no key from elsewhere (a
/// registration's `options`, which stay one JSON value) can pass for a
/// field.
fn details(e: &Event) -> String {
    let keys: BTreeSet<&String> = e.details.keys().collect();
    let mut pairs = Vec::new();
    for k in keys {
        match &e.details[k] {
            Value::Object(fields) if k == "usage" => pairs.extend(
                USAGE_SHOWN
                    .iter()
                    .filter_map(|f| pair(&format!("{k}.{f}"), fields.get(*f)?)),
            ),
            v => pairs.extend(pair(k, v)),
        }
    }
    pairs.join(" ")
}

/// A call's figures the human view shows, in this order.
const USAGE_SHOWN: [&str; 4] = ["wall_ms", "cpu_ms", "max_rss_kib", "processes"];

/// One `key=value`, as [`details`] writes it; none for a null. Every
/// string in it is in plugctl's one escape style ([`plugctl_core::escape`]):
/// a bare word as a table cell shows it when it holds no space, `=`, quote
/// or backslash, else quoted as a message quotes it — never JSON's escapes
/// beside plugctl's in one cell.
fn pair(k: &str, v: &Value) -> Option<String> {
    match v {
        Value::Null => None,
        v => Some(format!("{k}={}", shown(v))),
    }
}

/// A value of an event's details, nested ones included, in that style. A
/// string inside a list or an object is always quoted, so that `"true"`
/// never reads as `true`.
fn shown(v: &Value) -> String {
    match v {
        // Bare, a string holding a backslash is always quoted: a backslash
        // in a bare word is one of plugctl's escapes.
        Value::String(s)
            if s.is_empty()
                || s.contains(|c: char| c.is_whitespace() || matches!(c, '=' | '"' | '\\')) =>
        {
            plugctl_core::escape::quote(s)
        }
        Value::String(s) => plugctl_core::escape::value(s).into_owned(),
        v => nested(v),
    }
}

fn nested(v: &Value) -> String {
    match v {
        Value::String(s) => plugctl_core::escape::quote(s),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(nested).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(fields) => {
            let fields: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("{}: {}", plugctl_core::escape::quote(k), nested(v)))
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
        v => v.to_string(),
    }
}

fn kind_style(kind: &str) -> Style {
    match kind {
        "register" | "volume_create" => Style::Good,
        "deregister" | "volume_delete" | "volume_forget" => Style::Warn,
        _ => Style::Plain,
    }
}

fn row(e: &Event) -> Vec<(String, Style)> {
    vec![
        (e.seq.to_string(), Style::Plain),
        (e.time.clone(), Style::Dim),
        (e.kind.clone(), kind_style(&e.kind)),
        (crate::output::value(&e.family).into_owned(), Style::Plain),
        (crate::output::value(&e.name).into_owned(), Style::Plain),
        (details(e), Style::Plain),
    ]
}

/// Each event printed (and flushed) as it comes, under a header printed
/// with the first.
struct Stream<'p> {
    printer: &'p Printer,
    /// Whether an event (and so the header) was printed.
    shown: std::cell::Cell<bool>,
    /// The SEQ column's width on a terminal: the newest number's.
    seq_width: usize,
    /// `--tail N`: the last N events that passed, printed once the log
    /// is read (then each new one as it comes).
    tail: Option<std::cell::RefCell<std::collections::VecDeque<Event>>>,
    tail_len: usize,
    /// What `--tail` held was printed: later events print as they come.
    tail_done: std::cell::Cell<bool>,
}

impl Stream<'_> {
    fn header(&self) -> Result<()> {
        if self.printer.json || self.printer.form() == Form::Name {
            return Ok(());
        }
        let cells: Vec<String> = HEADERS.iter().map(|h| h.to_string()).collect();
        let text = match self.printer.fit_width() {
            Some(width) => self.fitted(&cells, width),
            None => fixed(&cells),
        };
        self.printer
            .text(&format!("{}\n", self.printer.paint(&text, Style::Dim)))
    }

    /// An event that passed the filter: held for `--tail`, else printed.
    fn event(&self, e: &Event) -> Result<()> {
        if let Some(tail) = self.tail.as_ref().filter(|_| !self.tail_done.get()) {
            let mut held = tail.borrow_mut();
            if self.tail_len == 0 {
                return Ok(());
            }
            if held.len() == self.tail_len {
                held.pop_front();
            }
            held.push_back(e.clone());
            return Ok(());
        }
        self.print(e)
    }

    /// Prints what `--tail` held; from then on events print as they come.
    fn flush_tail(&self) -> Result<()> {
        let Some(tail) = &self.tail else {
            return Ok(());
        };
        self.tail_done.set(true);
        let held = std::mem::take(&mut *tail.borrow_mut());
        for e in held {
            self.print(&e)?;
        }
        Ok(())
    }

    fn print(&self, e: &Event) -> Result<()> {
        if !self.shown.replace(true) {
            self.header()?;
        }
        if self.printer.json {
            return self.printer.json_line(&line(e));
        }
        if self.printer.form() == Form::Name {
            return self.printer.text(&format!("{}\n", e.seq));
        }
        let r = row(e);
        let width = self.printer.fit_width();
        let text = match width {
            Some(width) => {
                let raw: Vec<String> = r
                    .iter()
                    .enumerate()
                    .map(|(i, (t, _))| match i {
                        // To the second: the line has room for more.
                        1 => short_time(t),
                        _ => t.clone(),
                    })
                    .collect();
                let mut painted = String::new();
                let fitted = self.fit_cells(&raw, width);
                for (i, (cell, (_, style))) in fitted.iter().zip(&r).enumerate() {
                    painted.push_str(&self.printer.paint(cell, *style));
                    if i + 1 < fitted.len() {
                        painted.push_str("  ");
                    }
                }
                painted
            }
            None => {
                let cells: Vec<String> = r.iter().map(|(t, _)| sanitize_cell(t)).collect();
                let mut text = String::new();
                for (i, (cell, (_, style))) in cells.iter().zip(&r).enumerate() {
                    let w = WIDTHS.get(i).copied().unwrap_or(0);
                    let padded = format!("{cell:<w$}");
                    text.push_str(&self.printer.paint(&padded, *style));
                    if i + 1 < cells.len() {
                        text.push_str("  ");
                    }
                }
                text
            }
        };
        self.printer.text(&format!("{}\n", text.trim_end()))
    }

    /// The terminal's columns: SEQ as wide as the newest number, the time
    /// to the second, TYPE and NAME cut to their width, DETAILS cut to
    /// what is left of the line (left out when nothing is).
    fn widths(&self) -> [usize; 5] {
        [self.seq_width, 20, 13, 11, 12]
    }

    /// Cells (as recorded) escaped, padded and cut to the terminal's
    /// columns.
    fn fit_cells(&self, cells: &[String], width: usize) -> Vec<String> {
        let widths = self.widths();
        let mut used = 0;
        let mut out = Vec::with_capacity(cells.len());
        for (i, cell) in cells.iter().enumerate() {
            let gap = if i == 0 { 0 } else { 2 };
            // A column never runs past the terminal's edge either.
            let left = width.saturating_sub(used + gap);
            let w = widths.get(i).map_or(left, |&w| w.min(left));
            if w == 0 || used + gap >= width {
                break;
            }
            let mut shown = fit::cell(cell, w, Cut::End).into_owned();
            if i + 1 < cells.len() && widths.get(i).is_some() {
                let pad = w.saturating_sub(display_width(&shown));
                shown.extend(std::iter::repeat_n(' ', pad));
            }
            used += gap + display_width(&shown);
            out.push(shown);
        }
        out
    }

    fn fitted(&self, cells: &[String], width: usize) -> String {
        self.fit_cells(cells, width)
            .join("  ")
            .trim_end()
            .to_string()
    }
}

/// An RFC 3339 time to the second (`2026-11-25T07:46:02Z`), escaped; as
/// recorded when it does not read as one.
fn short_time(recorded: &str) -> String {
    match humantime::parse_rfc3339_weak(recorded) {
        Ok(t) => humantime::format_rfc3339_seconds(t).to_string(),
        Err(_) => sanitize_cell(recorded),
    }
}

/// Column widths of the streamed view (a longer cell just pushes the row).
const WIDTHS: [usize; 6] = [6, 24, 13, 14, 20, 0];

fn fixed(cells: &[String]) -> String {
    cells
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let w = WIDTHS.get(i).copied().unwrap_or(0);
            format!("{c:<w$}")
        })
        .collect::<Vec<_>>()
        .join("  ")
        .trim_end()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use plugctl_core::registry::State;
    use serde_json::Map;

    #[test]
    fn a_usage_is_four_figures_and_other_objects_stay_one_value() {
        let mut s = State::default();
        let mut d = Map::new();
        d.insert(
            "usage".into(),
            serde_json::json!({"wall_ms": 12, "cpu_ms": 3, "user_ms": 2, "system_ms": 1,
                "max_rss_kib": 900, "processes": 2, "source": "rusage"}),
        );
        d.insert("options".into(), serde_json::json!({"x healthy": "true"}));
        s.emit("register", "csi-node", "p", d);
        assert_eq!(
            details(&s.events[0]),
            r#"options={"x healthy": "true"} usage.wall_ms=12 usage.cpu_ms=3 usage.max_rss_kib=900 usage.processes=2"#
        );
    }

    #[test]
    fn json_line_carries_schema_version_and_details() {
        let mut s = State::default();
        let mut d = Map::new();
        d.insert("alloc_id".into(), "a1".into());
        s.emit("register", "csi-node", "p", d);
        let v = line(&s.events[0]);
        assert_eq!(v["schema_version"], 1);
        assert_eq!(v["seq"], 1);
        assert_eq!(v["kind"], "register");
        assert_eq!(v["type"], "csi-node");
        assert_eq!(v["name"], "p");
        assert_eq!(v["alloc_id"], "a1");
        assert!(v["time"].is_string());
    }
}

//! `plugctl events [--type T] [--since SEQ] [--follow]`: the registry's event
//! log, in sequence order, each event once.
//!
//! The log is bounded ([`EVENT_CAPACITY`]); sequence numbers are never
//! reused, so a reader that asked for events after N and finds the oldest
//! kept event further on knows exactly which ones it missed, and is told so
//! on stderr. `--follow` polls the registry file's metadata (see
//! [`Watch`]) and parses the file only when it changed.

use std::collections::BTreeSet;

use serde_json::Value;

use super::Ctx;
use crate::Result;
use crate::cli::EventsArgs;
use crate::discovery;
use crate::output::{JSON_SCHEMA_VERSION, Printer, Style, sanitize_cell};
use crate::registry::dynamic::{POLL_INTERVAL, Watch};
use crate::registry::model::EVENT_CAPACITY;
use crate::registry::{Event, State};

pub async fn run(ctx: &Ctx, args: EventsArgs) -> Result<()> {
    if let Some(f) = &args.family {
        discovery::require_name("plugin type", f)?;
    }
    let printer = &ctx.printer;
    let mut watch = Watch::new(ctx.registry.path());
    // Stamp first, then read: a write landing in between is seen next poll.
    watch.changed();
    let state = ctx.registry.read()?;
    let mut cursor = Cursor::new(args.since);
    let first = cursor.next(&state, printer);
    let first: Vec<&Event> = first
        .into_iter()
        .filter(|e| wanted(e, args.family.as_deref()))
        .collect();

    if !args.follow {
        if printer.json {
            for e in first {
                printer.json_line(&line(e))?;
            }
            return Ok(());
        }
        let rows: Vec<_> = first.iter().map(|e| row(e)).collect();
        return printer.table(&HEADERS, &rows);
    }

    // Following: a table cannot be aligned ahead of rows not seen yet, so
    // human output is fixed-width lines under one header.
    let stream = Stream { printer };
    stream.header()?;
    for e in first {
        stream.event(e)?;
    }
    loop {
        tokio::time::sleep(POLL_INTERVAL).await;
        if !watch.changed() {
            continue;
        }
        let state = ctx.registry.read()?;
        for e in cursor.next(&state, printer) {
            if wanted(e, args.family.as_deref()) {
                stream.event(e)?;
            }
        }
    }
}

fn wanted(e: &Event, family: Option<&str>) -> bool {
    family.is_none_or(|f| e.family == f)
}

/// Where a reader is in the log: the last sequence number it was given.
#[derive(Debug)]
struct Cursor {
    last: u64,
    /// The newest sequence number in the last snapshot read.
    newest_seen: Option<u64>,
    /// Whether the reader has a position: it passed `--since N` or already
    /// read the log once. Only then is a gap a loss worth a warning; a plain
    /// `plugctl events` just shows what the log still holds.
    explicit: bool,
}

impl Cursor {
    fn new(since: u64) -> Cursor {
        Cursor {
            last: since,
            newest_seen: None,
            explicit: since > 0,
        }
    }

    /// The events after the cursor in this snapshot, oldest first; moves the
    /// cursor past them. Warns (stderr) about events the reader can no
    /// longer get.
    fn next<'s>(&mut self, state: &'s State, printer: &Printer) -> Vec<&'s Event> {
        match self.newest_seen {
            // The sequence went back: the file was replaced by an older or
            // new registry. Start over on the log that is there now.
            Some(prev) if state.seq < prev => {
                printer.warn(format!(
                    "the registry's event sequence went back from {prev} to {} (the file was \
                     replaced?); following its log from the start",
                    state.seq
                ));
                self.last = 0;
                self.explicit = false;
            }
            None if self.last > state.seq => {
                printer.warn(format!(
                    "--since {} is after the newest event ({}): only events after {} will be shown",
                    self.last, state.seq, self.last
                ));
            }
            _ => {}
        }
        self.newest_seen = Some(state.seq);
        let new: Vec<&Event> = state.events.iter().filter(|e| e.seq > self.last).collect();
        if let Some(first) = new.first() {
            let expected = self.last + 1;
            if first.seq > expected && self.explicit {
                printer.warn(format!(
                    "events {expected} to {} were dropped from the log before this reader got \
                     them (the registry keeps the last {EVENT_CAPACITY} events); continuing \
                     with event {}",
                    first.seq - 1,
                    first.seq
                ));
            }
        }
        if let Some(last) = new.last() {
            self.last = last.seq;
        }
        // From now on the reader has a position: any gap is a loss.
        self.explicit = true;
        new
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

/// `key=value` pairs, nulls left out, for the human views.
fn details(e: &Event) -> String {
    let keys: BTreeSet<&String> = e.details.keys().collect();
    keys.into_iter()
        .filter_map(|k| match &e.details[k] {
            Value::Null => None,
            Value::String(s) => Some(format!("{k}={s}")),
            v => Some(format!("{k}={v}")),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn kind_style(kind: &str) -> Style {
    match kind {
        "register" | "volume_create" => Style::Good,
        "deregister" | "volume_delete" => Style::Warn,
        _ => Style::Plain,
    }
}

fn row(e: &Event) -> Vec<(String, Style)> {
    vec![
        (e.seq.to_string(), Style::Plain),
        (e.time.clone(), Style::Dim),
        (e.kind.clone(), kind_style(&e.kind)),
        (e.family.clone(), Style::Plain),
        (e.name.clone(), Style::Plain),
        (details(e), Style::Plain),
    ]
}

/// `--follow` output: each event printed and flushed as it comes.
struct Stream<'p> {
    printer: &'p Printer,
}

impl Stream<'_> {
    fn header(&self) -> Result<()> {
        if self.printer.json {
            return Ok(());
        }
        let cells: Vec<String> = HEADERS.iter().map(|h| h.to_string()).collect();
        self.printer.text(&format!(
            "{}\n",
            self.printer.paint(&fixed(&cells), Style::Dim)
        ))
    }

    fn event(&self, e: &Event) -> Result<()> {
        if self.printer.json {
            return self.printer.json_line(&line(e));
        }
        let r = row(e);
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
        self.printer.text(&format!("{}\n", text.trim_end()))
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
    use serde_json::Map;

    fn state_with(n: usize) -> State {
        let mut s = State::default();
        for i in 0..n {
            s.emit("register", "csi-node", &format!("p{i}"), Map::new());
        }
        s
    }

    fn seqs(v: &[&Event]) -> Vec<u64> {
        v.iter().map(|e| e.seq).collect()
    }

    #[test]
    fn cursor_gives_each_event_once_in_order() {
        let p = Printer::plain(true);
        let mut s = state_with(3);
        let mut c = Cursor::new(1);
        assert_eq!(seqs(&c.next(&s, &p)), [2, 3]);
        assert!(c.next(&s, &p).is_empty());
        s.emit("deregister", "csi-node", "p0", Map::new());
        s.emit("register", "csi-node", "p9", Map::new());
        assert_eq!(seqs(&c.next(&s, &p)), [4, 5]);
    }

    #[test]
    fn cursor_skips_past_dropped_events() {
        let p = Printer::plain(true);
        let mut s = state_with(3);
        let mut c = Cursor::new(0);
        assert_eq!(seqs(&c.next(&s, &p)), [1, 2, 3]);
        for _ in 0..EVENT_CAPACITY + 10 {
            s.emit("register", "csi-node", "x", Map::new());
        }
        let got = c.next(&s, &p);
        // Events 4..=13 are gone; the rest arrive, in order, once.
        assert_eq!(got.first().unwrap().seq, 14);
        assert_eq!(got.len(), EVENT_CAPACITY);
        assert!(got.windows(2).all(|w| w[1].seq == w[0].seq + 1));
    }

    #[test]
    fn cursor_restarts_when_the_log_goes_back() {
        let p = Printer::plain(true);
        let mut c = Cursor::new(0);
        assert_eq!(c.next(&state_with(5), &p).len(), 5);
        assert_eq!(seqs(&c.next(&state_with(2), &p)), [1, 2]);
    }

    #[test]
    fn json_line_carries_schema_version_and_details() {
        let mut s = State::default();
        let mut d = Map::new();
        d.insert("alloc_id".into(), "a1".into());
        s.emit("register", "csi-node", "p", d);
        let v = line(s.events.front().unwrap());
        assert_eq!(v["schema_version"], 1);
        assert_eq!(v["seq"], 1);
        assert_eq!(v["kind"], "register");
        assert_eq!(v["type"], "csi-node");
        assert_eq!(v["name"], "p");
        assert_eq!(v["alloc_id"], "a1");
        assert!(v["time"].is_string());
    }
}

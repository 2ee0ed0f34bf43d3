//! The journal: append-only JSON lines beside the registry file, in
//! segments `<registry>.journal.<N>`. It holds the event log — out of the
//! registry, so that a follower reads only the bytes that are new and the
//! log can grow past what every registry rewrite should carry — and
//! intents: a volume record made durable by one fsynced append instead of
//! a rewrite of the whole registry (a create's `pending`, a delete's
//! `deleting`).
//!
//! The commit rule. The registry file names where the committed journal
//! ends (segment N, byte offset O) and the last event's sequence number S.
//! A transaction appends its events and fsyncs, then renames in the
//! registry that points past them. So:
//! - an event after O was never committed (plugctl died between the append
//!   and the rename): readers ignore it and the next writer cuts it;
//! - an intent after O is committed by its own fsync: it is part of the
//!   state until the next registry write takes it in;
//! - a line without its newline is a torn append, cut likewise;
//! - a segment numbered above N is a rotation whose registry never landed,
//!   removed by the next writer.
//!
//! A transaction starts segment N+1 when N has reached [`SEGMENT_MAX`];
//! the newest [`KEEP`] segments are kept, older ones deleted after the
//! registry that no longer needs them landed.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::file::{Files, JOURNAL_SUFFIX, sibling_name};
pub use super::model::Pos;
use super::model::{Event, Volume};
use crate::trust::{Meta, Refusal};

/// A segment is closed once it holds this many bytes.
pub const SEGMENT_MAX: u64 = 16 << 20;
/// How many segments are kept (the current one included): with
/// [`SEGMENT_MAX`], the last 256 MiB of events, about a million.
pub const KEEP: u64 = 16;
/// The longest line plugctl reads back. An event or intent is a few hundred
/// bytes; a larger line is not one plugctl wrote.
pub const LINE_MAX: usize = 1 << 20;

/// The first line of every segment.
#[derive(Debug, Serialize, Deserialize)]
struct Header {
    plugctl_journal: u32,
    segment: u64,
}

const FORMAT: u32 = 1;

/// A record made durable by an append: the volume as it now is.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Intent<'a> {
    pub intent: IntentKind,
    #[serde(borrow)]
    pub volume: Volume<'a>,
}

/// An intent as written, from a record held elsewhere.
#[derive(Serialize)]
pub struct IntentRef<'r, 'a> {
    intent: IntentKind,
    volume: &'r Volume<'a>,
}

impl<'r, 'a> IntentRef<'r, 'a> {
    pub fn volume(volume: &'r Volume<'a>) -> Self {
        IntentRef {
            intent: IntentKind::Volume,
            volume,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IntentKind {
    Volume,
}

/// One line of a segment.
#[derive(Debug)]
pub enum Line<'a> {
    /// The first line: the segment's own number, as it was written.
    Header(u64),
    Event(Event),
    Intent(Box<Intent<'a>>),
}

/// Why the journal could not be used.
#[derive(Debug)]
pub enum Problem {
    /// A file plugctl will not read (a symlink, a FIFO, insecure...).
    Refused(Refusal),
    Io(io::Error),
    /// A line that is not one plugctl writes, at this segment and offset.
    Corrupt(String),
    /// An intent whose record breaks the registry's rules, at this segment
    /// and offset.
    Record(String),
}

impl From<io::Error> for Problem {
    fn from(e: io::Error) -> Self {
        Problem::Io(e)
    }
}

/// `<registry>.journal.<N>`, N zero-padded so that `ls` sorts them.
pub fn segment_path(registry: &Path, n: u64) -> PathBuf {
    registry.with_file_name(sibling_name(
        registry.file_name().unwrap_or_default(),
        &segment_suffix(n),
    ))
}

fn segment_suffix(n: u64) -> String {
    format!("{JOURNAL_SUFFIX}{}", segment_number(n))
}

/// The name of segment `n` beside the registry.
fn segment_name(files: &Files, n: u64) -> OsString {
    files.sibling(&segment_suffix(n))
}

/// The path of segment `n`, for messages.
fn segment_at(files: &Files, n: u64) -> PathBuf {
    files.path_of(segment_name(files, n))
}

/// How a segment's number is written in its name: at least eight digits.
/// The listing takes a name only if it is written so, so that it and a
/// reader opening segments by name see the same ones, 10^8 and above too.
fn segment_number(n: u64) -> String {
    format!("{n:08}")
}

/// The segment numbers present beside the registry, in order.
pub fn segments(files: &Files) -> io::Result<Vec<u64>> {
    let prefix = files.sibling(JOURNAL_SUFFIX);
    let prefix = prefix.to_string_lossy().into_owned();
    let mut out = Vec::new();
    let entries = files.dir.entries().map_err(refusal_io)?;
    for (name, _) in entries {
        let Some(n) = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix.as_str()))
            .and_then(|n| n.parse::<u64>().ok().filter(|v| segment_number(*v) == n))
        else {
            continue;
        };
        out.push(n);
    }
    out.sort_unstable();
    Ok(out)
}

/// The segments that are a registry's history, given its committed end
/// and how many segments it keeps: the newest `keep`, up to the one the
/// end names. Only these are ever read. A name outside them is no segment
/// any writer of this registry still keeps: a number below (pruned, or
/// never used) or above (a rotation whose registry never landed, which the
/// next writer removes). In a directory others may add entries to (a
/// sticky one), another user can put a file under such a name; read, it
/// would stop every reader naming its owner, or, with the owner rules
/// lifted, be taken for plugctl's history.
pub fn kept(end: Pos, keep: u64) -> std::ops::RangeInclusive<u64> {
    let oldest = end.segment.saturating_sub(keep.max(1) - 1).max(1);
    oldest..=end.segment
}

/// An event as a journal line, newline included. What a plugin printed
/// can be longer than a reader takes back ([`LINE_MAX`]): such an event
/// keeps its place and its kind, and its largest details are shortened
/// until the line fits (saying so), rather than making the log unreadable.
pub fn event_line(e: &Event) -> serde_json::Result<Vec<u8>> {
    let mut line = serde_json::to_vec(e)?;
    if line.len() >= LINE_MAX {
        let mut e = e.clone();
        let mut shortened = std::collections::BTreeSet::new();
        while line.len() >= LINE_MAX {
            let largest = e
                .details
                .iter()
                .filter(|(k, _)| !shortened.contains(*k))
                .map(|(k, v)| (serde_json::to_vec(v).map_or(0, |b| b.len()), k.clone()))
                .max();
            let Some((size, key)) = largest else { break };
            if let Some(v) = e.details.get_mut(&key) {
                *v = serde_json::Value::String(shorten(v, size));
            }
            shortened.insert(key);
            line = serde_json::to_vec(&e)?;
        }
    }
    line.push(b'\n');
    Ok(line)
}

/// A detail too long for the journal: its first KiB, and how long it was.
fn shorten(v: &serde_json::Value, size: usize) -> String {
    const KEEP: usize = 1024;
    match v {
        serde_json::Value::String(s) => {
            let end = (0..=KEEP.min(s.len()))
                .rev()
                .find(|&i| s.is_char_boundary(i))
                .unwrap_or(0);
            format!(
                "{}... ({} bytes in all, shortened for the journal)",
                &s[..end],
                s.len()
            )
        }
        _ => format!("({size} bytes of JSON, left out of the journal)"),
    }
}

/// Parses one line (without its newline). plugctl writes each kind with a
/// fixed first key, which picks the parser; anything else is tried as an
/// event, then refused.
pub fn parse_line(line: &[u8]) -> Result<Line<'_>, String> {
    let bad = |e: serde_json::Error| e.to_string();
    if line.starts_with(b"{\"seq\":") {
        return serde_json::from_slice(line).map(Line::Event).map_err(bad);
    }
    if line.starts_with(b"{\"intent\":") {
        return serde_json::from_slice::<Intent>(line)
            .map(|i| Line::Intent(Box::new(i)))
            .map_err(bad);
    }
    if line.starts_with(b"{\"plugctl_journal\":") {
        return header(line);
    }
    // Reformatted by hand (key order changed): by its keys.
    let v: serde_json::Value = serde_json::from_slice(line).map_err(bad)?;
    if v.get("intent").is_some() {
        serde_json::from_slice::<Intent>(line)
            .map(|i| Line::Intent(Box::new(i)))
            .map_err(bad)
    } else if v.get("plugctl_journal").is_some() {
        header(line)
    } else {
        serde_json::from_value(v).map(Line::Event).map_err(bad)
    }
}

/// A header line, held to the format this plugctl reads.
fn header(line: &[u8]) -> Result<Line<'_>, String> {
    let h: Header = serde_json::from_slice(line).map_err(|e| e.to_string())?;
    if h.plugctl_journal != FORMAT {
        return Err(format!(
            "a journal of format {} (this plugctl knows {FORMAT})",
            h.plugctl_journal
        ));
    }
    Ok(Line::Header(h.segment))
}

/// What follows the committed end of the journal.
#[derive(Debug, Default)]
pub struct Tail {
    /// The records of the committed intents, in order.
    pub intents: Vec<Volume<'static>>,
    /// Where uncommitted lines begin (an event past the registry's, or a
    /// torn line): the next writer cuts the segment here.
    pub torn_at: Option<u64>,
    /// The segment's length as read.
    pub len: u64,
    /// The segment is missing, or shorter than the registry says (restored
    /// from a backup without it, removed by hand): the history it held is
    /// gone, and the next write starts a new segment.
    pub lost: bool,
}

/// An I/O error from a refusal of the gate (the journal's writers report
/// I/O errors).
fn refusal_io(r: Refusal) -> io::Error {
    match r {
        Refusal::Io { source, .. } => source,
        Refusal::NotFound(p) => io::Error::new(
            io::ErrorKind::NotFound,
            format!("{} does not exist", p.display()),
        ),
        r => io::Error::other(r.to_string()),
    }
}

/// Opens a segment for reading: never through a symlink, never a FIFO,
/// regular only, and owned and moded as the registry must be.
fn open_segment(files: &Files, n: u64) -> Result<Option<(File, Meta)>, Problem> {
    match files.dir.open_read(segment_name(files, n), u64::MAX) {
        Ok(opened) => Ok(Some(opened)),
        Err(r) if r.is_not_found() => Ok(None),
        Err(r) => Err(Problem::Refused(r)),
    }
}

/// Reads the segment `pos` names from its committed end on.
pub fn tail(files: &Files, pos: Pos) -> Result<Tail, Problem> {
    let path = segment_at(files, pos.segment);
    let Some((mut f, meta)) = open_segment(files, pos.segment)? else {
        return Ok(Tail {
            lost: pos.offset > 0,
            ..Tail::default()
        });
    };
    let len = meta.size;
    if len < pos.offset {
        return Ok(Tail {
            len,
            lost: true,
            ..Tail::default()
        });
    }
    f.seek(SeekFrom::Start(pos.offset))?;
    let mut out = Tail {
        len,
        ..Tail::default()
    };
    let mut reader = BufReader::new(f.take(len - pos.offset));
    let mut at = pos.offset;
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = read_line(&mut reader, &mut line, &path, at)?;
        if n == 0 {
            break;
        }
        let complete = line.last() == Some(&b'\n');
        if !complete {
            out.torn_at.get_or_insert(at);
            break;
        }
        match parse_line(&line[..line.len() - 1]) {
            Ok(Line::Intent(i)) if out.torn_at.is_none() => {
                super::rules::volume(&i.volume).map_err(|why| {
                    Problem::Record(format!("{} at byte {at}: {why}", path.display()))
                })?;
                out.intents.push(i.volume.into_owned())
            }
            // Past the committed end an event was never committed; what
            // follows it is part of the same torn append.
            Ok(Line::Event(_)) => {
                out.torn_at.get_or_insert(at);
            }
            Ok(_) => {}
            Err(why) => {
                return Err(Problem::Corrupt(format!(
                    "{} at byte {at}: {why}",
                    path.display()
                )));
            }
        }
        at += n as u64;
    }
    Ok(out)
}

/// Reads one line (of `path`, at byte `at`), at most [`LINE_MAX`] bytes of
/// it: a longer one is not a line plugctl wrote.
fn read_line(
    r: &mut impl BufRead,
    line: &mut Vec<u8>,
    path: &Path,
    at: u64,
) -> Result<usize, Problem> {
    let n = r
        .by_ref()
        .take(LINE_MAX as u64 + 1)
        .read_until(b'\n', line)?;
    if n > LINE_MAX {
        return Err(Problem::Corrupt(format!(
            "{} at byte {at}: a line longer than {LINE_MAX} bytes",
            path.display()
        )));
    }
    Ok(n)
}

/// Under the registry lock: cuts what the last writer left uncommitted —
/// the torn end of the current segment and any segment past it.
pub fn recover(files: &Files, pos: Pos, tail: &Tail) -> io::Result<()> {
    if let Some(at) = tail.torn_at {
        let f = files
            .dir
            .open_existing(segment_name(files, pos.segment))
            .map_err(refusal_io)?;
        f.set_len(at)?;
        f.sync_all()?;
    }
    for n in segments(files)? {
        if n > pos.segment {
            clear_segment(files, n)?;
        }
    }
    Ok(())
}

/// Removes whatever has the name of segment `n`, which is no committed
/// segment (a rotation whose registry never landed, or something planted
/// there). What cannot be removed that way (a directory another user made
/// under that name beside a registry in a sticky directory, as `/tmp`) is
/// named with its kind and owner, for a person to remove: every write
/// stops on it, and "Is a directory" alone said neither where nor whose.
fn clear_segment(files: &Files, n: u64) -> io::Result<()> {
    let name = segment_name(files, n);
    match files.dir.unlink(&name) {
        Ok(()) => Ok(()),
        Err(r) if r.is_not_found() => Ok(()),
        Err(r) => {
            let why = refusal_io(r);
            let path = crate::escape::quote_os(segment_at(files, n));
            Err(match files.dir.stat(&name) {
                Ok(Some(m)) => io::Error::other(Planted(format!(
                    "{path} is {} of uid {}'s, under the name of journal segment {n}, which \
                     plugctl removes or writes and cannot ({why}): remove it",
                    m.kind(),
                    m.uid
                ))),
                _ => why,
            })
        }
    }
}

/// Something under a journal segment's name that plugctl cannot remove:
/// the registry's directory is not as plugctl keeps it (a configuration
/// error, as a lock file that is not plugctl's is), not an I/O failure.
#[derive(Debug)]
pub(super) struct Planted(String);

impl std::fmt::Display for Planted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Planted {}

/// Where the next append goes: the segment `pos` names, or a new one when
/// there is none yet or it is full.
fn target(files: &Files, pos: Option<Pos>, len: u64, adding: usize, max: u64) -> (u64, bool) {
    match pos {
        None => (1, true),
        Some(p) if len > 0 && len + adding as u64 > max => (p.segment + 1, true),
        Some(p) => {
            let fresh = len == 0
                && files
                    .dir
                    .stat(segment_name(files, p.segment))
                    .ok()
                    .flatten()
                    .is_none();
            (p.segment, fresh)
        }
    }
}

/// Appends `lines` (each ending in a newline) and fsyncs them. `pos` is
/// the committed end the registry records (None before the first write),
/// `len` the current segment's length; a segment that would pass
/// `segment_max` (None: never, for intents) is closed and the lines start
/// the next. Returns where the journal now ends. `like` is the registry
/// file, whose owner and mode a new segment takes.
pub fn append(
    files: &Files,
    pos: Option<Pos>,
    len: u64,
    lines: &[u8],
    segment_max: Option<u64>,
    like: Option<&Meta>,
) -> io::Result<Pos> {
    let max = segment_max.unwrap_or(u64::MAX);
    let (segment, fresh) = target(files, pos, len, lines.len(), max);
    let name = segment_name(files, segment);
    let mut f = if fresh {
        // Whatever has this name is no committed segment (a rotation whose
        // registry never landed, or something planted there): it goes, and
        // the segment is a new file, never one opened through another name
        // (a hard link) or a FIFO a rotation would hang on, lock held.
        clear_segment(files, segment)?;
        let mut f = files.dir.create_new(&name, 0o600).map_err(refusal_io)?;
        if let Some(m) = like {
            keep_owner(&f, m)?;
        }
        let mut header = serde_json::to_vec(&Header {
            plugctl_journal: FORMAT,
            segment,
        })?;
        header.push(b'\n');
        f.write_all(&header)?;
        f
    } else {
        // Never blocking on a FIFO, never through a symlink: the gate
        // opens it regular or refuses it, naming it.
        files.dir.open_existing(&name).map_err(refusal_io)?
    };
    let start = f.seek(SeekFrom::End(0))?;
    if let Err(e) = f.write_all(lines).and_then(|()| f.sync_all()) {
        // Best effort: what did land is cut again (the next writer would).
        let _ = f.set_len(start);
        return Err(e);
    }
    if fresh {
        files.dir.sync().map_err(refusal_io)?;
    }
    Ok(Pos {
        segment,
        offset: start + lines.len() as u64,
    })
}

/// Root writing a user's registry keeps it the user's (as the registry
/// file itself).
fn keep_owner(f: &File, like: &Meta) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if like.uid != nix::unistd::geteuid().as_raw() || like.gid != nix::unistd::getegid().as_raw() {
        std::os::unix::fs::fchown(f, Some(like.uid), Some(like.gid))?;
    }
    // As readable as the registry, never more writable than its owner.
    f.set_permissions(std::fs::Permissions::from_mode(like.mode & 0o644))
}

/// After a registry that points into `current` landed: removes the
/// segments older than the `keep` newest. Best effort.
pub fn prune(files: &Files, current: u64, keep: u64) {
    let Ok(all) = segments(files) else { return };
    for n in all {
        if n + keep.max(1) <= current {
            let _ = files.dir.unlink(segment_name(files, n));
        }
    }
}

/// The committed events from `cursor` (a reader's place: the next byte it
/// has not read; the default is the start of the oldest kept segment) up to
/// `end` (the registry's committed end), oldest first: `f` gets each event
/// with a seq above `after` and at most `last_seq`, and may stop the walk
/// by returning false (then `false` is returned). `cursor` moves past what
/// was read, so a follower reads each byte once.
pub fn read_events(
    files: &Files,
    cursor: &mut Pos,
    end: Pos,
    keep: u64,
    after: u64,
    last_seq: u64,
    mut f: impl FnMut(Event) -> bool,
) -> Result<bool, Problem> {
    // Sequence numbers only grow: a log edited out of order is refused,
    // not shown as if it were the history.
    let mut prev: Option<(u64, u64)> = None;
    // A reader with a place knows which segments come next: it opens them
    // by name. Listing the directory (only to find the oldest kept one,
    // for a reader that starts) waits on a writer's directory operations,
    // which a follower must not. A span wider than any rotation makes in
    // one wake (a registry edited to name segment 2^60) is listed instead:
    // only the segments that exist are read.
    const BY_NAME_MAX: u64 = 64;
    let numbers: Vec<u64> =
        if cursor.segment > 0 && end.segment.saturating_sub(cursor.segment) <= BY_NAME_MAX {
            (cursor.segment..=end.segment).collect()
        } else {
            segments(files)?
        };
    // Only the registry's own segments ([`kept`]): a reader that starts
    // (or fell behind) begins at the oldest one kept, never at whatever
    // the listing holds below it.
    let kept = kept(end, keep);
    for n in numbers {
        if n < cursor.segment || !kept.contains(&n) {
            continue;
        }
        if n > end.segment {
            break;
        }
        let from = if n == cursor.segment {
            cursor.offset
        } else {
            0
        };
        let limit = if n == end.segment {
            Some(end.offset)
        } else {
            None
        };
        let mut reader = SegmentReader::open(files, n, from, limit)?;
        *cursor = Pos {
            segment: n,
            offset: reader.position(),
        };
        loop {
            let at = reader.position();
            let Some((line, next)) = reader.next_line()? else {
                break;
            };
            cursor.offset = next;
            if let Line::Event(e) = &line {
                if let Some((last, _)) = prev
                    && e.seq <= last
                {
                    return Err(Problem::Corrupt(format!(
                        "{} at byte {at}: event seq {} does not follow {last} (sequence \
                         numbers only grow)",
                        segment_at(files, n).display(),
                        e.seq
                    )));
                }
                prev = Some((e.seq, at));
            }
            if let Line::Event(e) = line
                && e.seq > after
                && e.seq <= last_seq
                && !f(e)
            {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// Reads the complete lines of one segment from an offset, up to a limit.
pub struct SegmentReader {
    path: PathBuf,
    /// The segment's number, which its header must repeat.
    n: u64,
    reader: Option<BufReader<io::Take<File>>>,
    at: u64,
    line: Vec<u8>,
}

impl SegmentReader {
    /// A missing segment reads as empty.
    pub fn open(
        files: &Files,
        n: u64,
        from: u64,
        limit: Option<u64>,
    ) -> Result<SegmentReader, Problem> {
        let path = segment_at(files, n);
        let reader = match open_segment(files, n)? {
            None => None,
            Some((mut f, meta)) => {
                let end = limit.unwrap_or(meta.size).min(meta.size);
                let from = from.min(end);
                f.seek(SeekFrom::Start(from))?;
                Some(BufReader::with_capacity(1 << 16, f.take(end - from)))
            }
        };
        Ok(SegmentReader {
            path,
            n,
            reader,
            at: from,
            line: Vec::new(),
        })
    }

    /// Where the next line begins.
    pub fn position(&self) -> u64 {
        self.at
    }

    /// The next complete line; None at the end (an incomplete last line is
    /// left for later: it is an append under way or a torn one).
    /// The next complete line and where the one after it begins.
    pub fn next_line(&mut self) -> Result<Option<(Line<'_>, u64)>, Problem> {
        let Some(reader) = self.reader.as_mut() else {
            return Ok(None);
        };
        self.line.clear();
        let n = read_line(reader, &mut self.line, &self.path, self.at)?;
        if n == 0 || self.line.last() != Some(&b'\n') {
            return Ok(None);
        }
        let at = self.at;
        self.at += n as u64;
        let next = self.at;
        let corrupt =
            |why: String| Problem::Corrupt(format!("{} at byte {at}: {why}", self.path.display()));
        match parse_line(&self.line[..n - 1]).map_err(corrupt)? {
            // A segment renamed, or copied in from another registry's
            // journal: its lines are not this registry's history.
            Line::Header(named) if named != self.n => Err(corrupt(format!(
                "its header names segment {named}, not {} (a segment renamed or copied in)",
                self.n
            ))),
            line => Ok(Some((line, next))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An event whose details would make a line longer than a reader
    /// takes back keeps its place and kind; its largest detail is cut to
    /// its first KiB, saying how long it was.
    #[test]
    fn an_event_too_long_for_a_line_is_shortened_to_fit() {
        let mut details = serde_json::Map::new();
        details.insert("error".into(), "x".repeat(2 * LINE_MAX).into());
        details.insert("path".into(), "/v/a".into());
        let e = crate::registry::Event {
            seq: 7,
            kind: "volume_update".into(),
            family: "host-volume".into(),
            name: "p".into(),
            time: "2026-01-01T00:00:00.000Z".into(),
            details,
        };
        let line = event_line(&e).unwrap();
        assert!(line.len() < LINE_MAX && line.ends_with(b"\n"));
        let back: serde_json::Value = serde_json::from_slice(&line).unwrap();
        assert_eq!(
            (back["seq"].as_u64(), back["path"].as_str()),
            (Some(7), Some("/v/a"))
        );
        let error = back["error"].as_str().unwrap();
        assert!(error.starts_with(&"x".repeat(1024)), "{}", &error[..40]);
        assert!(error.ends_with(&format!(
            "... ({} bytes in all, shortened for the journal)",
            2 * LINE_MAX
        )));
    }

    #[test]
    fn the_listing_sees_the_segments_a_reader_opens_by_name() {
        let d = tempfile::tempdir().unwrap();
        let registry = d.path().join("registry.json");
        for n in [1, 99_999_999, 100_000_000] {
            std::fs::write(segment_path(&registry, n), "").unwrap();
        }
        // Not names plugctl writes: a ninth leading zero, too short, not a
        // number.
        for other in ["000000002", "0000003", "0000000x"] {
            std::fs::write(d.path().join(format!("registry.json.journal.{other}")), "").unwrap();
        }
        let files = Files::open(crate::trust::Policy::strict(), &registry)
            .unwrap()
            .unwrap();
        assert_eq!(segments(&files).unwrap(), [1, 99_999_999, 100_000_000]);
    }
}

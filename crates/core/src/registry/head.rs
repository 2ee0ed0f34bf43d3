//! The fast path for readers that poll: where the registry's committed
//! state ends (its last event, the end of its journal), from the head of
//! the file alone, and the committed events after a point, from the
//! journal. What `events`, `plugin wait` and followers read between
//! changes, without parsing the whole file.

use std::io::Read;

use super::model::{Event, SCHEMA_VERSION};
use super::{Registry, journal};
use crate::Result;

/// The registry's committed position, read from the head of the file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Head {
    pub exists: bool,
    pub write_id: String,
    /// The last committed event.
    pub seq: u64,
    /// Where the committed journal ends; None in a schema 1 file (its log
    /// is inside it) or when there is no registry.
    pub journal: Option<journal::Pos>,
}

/// How much of the file's head holds `write_id`, `seq` and `journal` (the
/// fields plugctl writes first).
pub(super) const HEAD_BYTES: usize = 1024;

impl Registry {
    /// Where the registry's committed state ends, from the head of the file
    /// (plugctl writes `seq` and `journal` near the top); a file laid out
    /// otherwise is parsed whole. Cheap: what `events` and followers poll.
    pub fn head(&self) -> Result<Head> {
        let Some(files) = self.files()? else {
            return Ok(Head::default());
        };
        let Some((mut file, meta)) = self.open_file(&files)? else {
            return Ok(Head::default());
        };
        let mut head = Vec::with_capacity(HEAD_BYTES.min(meta.size as usize));
        (&mut file)
            .take(HEAD_BYTES as u64)
            .read_to_end(&mut head)
            .map_err(|e| self.io_error("cannot read", e))?;
        if let Some(h) = parse_head(&head, head.len() as u64 == meta.size) {
            return Ok(h);
        }
        let snap = self.read()?;
        let state = snap.state();
        Ok(Head {
            exists: true,
            write_id: state.write_id.clone(),
            seq: state.seq,
            journal: state.journal,
        })
    }

    /// The committed events after `after` (and up to `head`), oldest first,
    /// to `f`, which stops the walk by returning false: from the journal,
    /// from `cursor` on (a follower keeps it between calls, so each byte is
    /// read once), or from the file itself while it is of schema 1. One
    /// event at a time is held.
    pub fn each_event(
        &self,
        head: &Head,
        cursor: &mut journal::Pos,
        after: u64,
        mut f: impl FnMut(Event) -> bool,
    ) -> Result<()> {
        match head.journal {
            Some(end) => {
                let Some(files) = self.files()? else {
                    return Ok(());
                };
                journal::read_events(&files, cursor, end, self.keep_segments, after, head.seq, f)
                    .map(|_| ())
                    .map_err(|p| self.journal_problem(p))
            }
            None if head.exists => {
                for e in &self.read()?.state().events {
                    if e.seq > after && e.seq <= head.seq && !f(e.clone()) {
                        break;
                    }
                }
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// Which file journal segment `n` is now (device, inode, size), for a
    /// follower to notice the journal being replaced under it.
    pub fn segment_file(&self, n: u64) -> Option<(u64, u64, u64)> {
        let files = self.files().ok()??;
        let m = files
            .dir
            .stat(journal::segment_path(&self.path, n).file_name()?)
            .ok()??;
        Some((m.dev, m.ino, m.size))
    }
}

/// What the registry takes on disk: its file and its journal's segments.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Storage {
    /// The registry file's size; None when there is none yet.
    pub file_bytes: Option<u64>,
    /// The journal's segments beside it, by number, each with its size.
    pub segments: Vec<(u64, u64)>,
}

impl Registry {
    /// The registry's file and journal segments as they are on disk,
    /// looked at through the trust gate (`plugctl status`).
    pub fn storage(&self) -> Result<Storage> {
        let Some(files) = self.files()? else {
            return Ok(Storage::default());
        };
        let size_of = |name: &std::ffi::OsStr| -> Result<Option<u64>> {
            Ok(files
                .dir
                .stat(name)
                .map_err(|r| self.refused(r))?
                .map(|m| m.size))
        };
        let file_bytes = size_of(files.name())?;
        let mut segments = Vec::new();
        // Only the registry's own segments ([`journal::kept`]): a name
        // beside it outside them may be another user's file.
        let kept = self
            .head()?
            .journal
            .map(|end| journal::kept(end, self.keep_segments));
        let numbers = journal::segments(&files).map_err(|e| self.io_error("cannot list", e))?;
        for n in numbers
            .into_iter()
            .filter(|n| kept.as_ref().is_none_or(|k| k.contains(n)))
        {
            let path = journal::segment_path(&self.path, n);
            if let Some(size) = size_of(path.file_name().unwrap_or_default())? {
                segments.push((n, size));
            }
        }
        Ok(Storage {
            file_bytes,
            segments,
        })
    }
}

/// The committed position from the first bytes of the file (`whole`: they
/// are the whole file). None when they do not hold it as plugctl lays it
/// out: the caller parses the whole file instead.
fn parse_head(bytes: &[u8], whole: bool) -> Option<Head> {
    // Each one required: a field that is not in the head may be further
    // down (keys in another order), and only the whole file can say.
    #[derive(serde::Deserialize)]
    struct Fields {
        schema_version: u32,
        write_id: String,
        seq: u64,
        journal: journal::Pos,
    }
    let text = std::str::from_utf8(bytes).ok()?;
    // The first top-level field after the ones wanted ends the head.
    let cut = ["plugins", "volumes", "events", "operations", "usage"]
        .iter()
        .filter_map(|k| text.find(&format!(",\n  \"{k}\":")))
        .min();
    let fields: Fields = match cut {
        Some(at) => serde_json::from_str(&format!("{}}}", &text[..at])).ok()?,
        None if whole => serde_json::from_str(text).ok()?,
        None => return None,
    };
    // A schema 1 file keeps its log inside: it is read whole; a newer one
    // is refused by the full read.
    if fields.schema_version != SCHEMA_VERSION {
        return None;
    }
    Some(Head {
        exists: true,
        write_id: fields.write_id,
        seq: fields.seq,
        journal: Some(fields.journal),
    })
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::os::unix::fs::PermissionsExt;

    use super::super::testing::{events_of, names, reg, register};
    use super::*;

    #[test]
    fn events_live_in_the_journal_and_the_head_says_where_it_ends() {
        let d = tempfile::tempdir().unwrap();
        let r = reg(d.path());
        register(&r, "a");
        register(&r, "b");
        let text = fs::read_to_string(r.path()).unwrap();
        assert!(!text.contains("\"events\""), "{text}");
        let head = r.head().unwrap();
        assert_eq!(head.seq, 2);
        let pos = head.journal.unwrap();
        let seg = journal::segment_path(r.path(), pos.segment);
        assert_eq!(fs::metadata(&seg).unwrap().len(), pos.offset);
        assert_eq!(
            fs::metadata(&seg).unwrap().permissions().mode() & 0o777,
            0o600
        );
        // The head read agrees with a full parse.
        let full = r.read().unwrap();
        let full = full.state();
        assert_eq!((full.seq, full.journal), (head.seq, head.journal));
        assert_eq!(names(&events_of(&r)), ["a", "b"]);
    }
}

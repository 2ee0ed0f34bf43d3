//! Transactions: every change to the registry is one, under the
//! [lock](super::lock). `Registry::update` reads the state (the one this
//! process last wrote, when nobody wrote since), lets a closure change it,
//! appends its events to the journal and writes the file that commits
//! them. `Registry::intend` is the cheap kind for a change to named
//! volume records only (a create's `pending`, a delete's `deleting`): one
//! fsynced journal append, the file not rewritten. Either writes nothing
//! when its closure fails or a stopping signal arrived.
//!
//! The named transactions the commands call live beside the records they
//! change: here the plugins' (`record_fingerprints`, `forget`, a secret
//! fetch's event), in [`super::volumes`] the volumes' life cycle, in
//! [`super::dynamic`] register and deregister.

use super::model::{Instance, SCHEMA_VERSION, State, Volume};
use super::store::UNCHANGED_WRITE;
use super::{Registry, Snapshot, journal, model};
use crate::{Error, Result};

/// The records as intent lines of the journal, or `None` when one is
/// longer than a reader takes back (the transaction then goes to the file).
fn intent_lines<'v, 'a: 'v>(
    records: impl Iterator<Item = &'v Volume<'a>>,
) -> serde_json::Result<Option<Vec<u8>>> {
    let mut lines = Vec::new();
    for v in records {
        let line = serde_json::to_vec(&journal::IntentRef::volume(v))?;
        if line.len() >= journal::LINE_MAX {
            return Ok(None);
        }
        lines.extend_from_slice(&line);
        lines.push(b'\n');
    }
    Ok(Some(lines))
}

impl Registry {
    /// One read-modify-write transaction. The closure sees the current state
    /// and may change it (emitting events with [`State::emit`]); when it
    /// returns `Err`, nothing is written. Never run plugins inside it: other
    /// plugctl processes wait for the lock meanwhile.
    pub(crate) async fn update<T>(&self, f: impl FnOnce(&mut State<'_>) -> Result<T>) -> Result<T> {
        let _lock = self.lock().await?;
        let (mut snap, len, _) = self.locked_state()?;
        // On error the state may be half changed: it is dropped, not cached.
        let out = snap.change(f)?;
        self.not_interrupted()?;
        let len = self.commit(&mut snap, len)?;
        snap.change(|state| state.clean_journal_len = Some(len));
        *self.cache.lock().unwrap_or_else(|e| e.into_inner()) = Some((snap, len));
        Ok(out)
    }

    /// An intent: a transaction whose only change is to the volume records
    /// `f` names, made durable by one fsynced journal append instead of a
    /// rewrite of the whole file (a create's `pending`, a delete's
    /// `deleting`). Before the file has a journal (a new registry, or one
    /// of schema 1), it is a whole transaction.
    pub(crate) async fn intend<T>(
        &self,
        f: impl FnOnce(&mut State<'_>) -> Result<(T, Vec<String>)>,
    ) -> Result<T> {
        let _lock = self.lock().await?;
        let (mut snap, len, lost) = self.locked_state()?;
        let node_id = snap.state().node_id.clone();
        let (out, ids) = snap.change(f)?;
        self.not_interrupted()?;
        // Anything beyond the named records (events, a node id made on
        // first use) needs the file: a whole transaction. So does a record
        // longer than a journal line may be (what a plugin printed, many
        // large parameters): the file holds it, a reader would refuse it.
        let state = snap.state();
        let only_records = state.events.is_empty() && state.node_id == node_id && !lost;
        let intents = match state.journal.filter(|_| only_records) {
            None => None,
            Some(pos) => intent_lines(ids.iter().filter_map(|id| state.volumes.get(id)))
                .map_err(|e| self.io_error(UNCHANGED_WRITE, e.into()))?
                .map(|lines| (pos, lines)),
        };
        let Some((pos, lines)) = intents else {
            let len = self.commit(&mut snap, len)?;
            snap.change(|state| state.clean_journal_len = Some(len));
            *self.cache.lock().unwrap_or_else(|e| e.into_inner()) = Some((snap, len));
            return Ok(out);
        };
        let files = self.files_made()?;
        let end = journal::append(&files, Some(pos), len, &lines, None, None)
            .map_err(|e| self.io_error("cannot append to its journal", e))?;
        debug_assert_eq!(end.segment, pos.segment, "intents never start a segment");
        snap.change(|state| state.clean_journal_len = Some(end.offset));
        *self.cache.lock().unwrap_or_else(|e| e.into_inner()) = Some((snap, end.offset));
        Ok(out)
    }

    /// Once a stopping signal arrived, what the command's flow would
    /// record now is the signal's doing (its plugins were killed by us):
    /// nothing is written, and the shutdown owns the exit.
    fn not_interrupted(&self) -> Result<()> {
        match self.stop.stopped() {
            Some(code) => Err(Error::Failed(format!(
                "stopped by a signal (exit {code}); not recorded"
            ))),
            None => Ok(()),
        }
    }

    /// Under the lock: the current state (this process's own, when nobody
    /// wrote since) and the current journal segment's length, with what
    /// the last writer left uncommitted cut away. `true` when the segment
    /// the file names is lost: the state's journal then names a new one,
    /// which only a write of the file can commit.
    fn locked_state(&self) -> Result<(Snapshot, u64, bool)> {
        let cached = self.cache.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some((snap, len)) = cached
            && self.still_current(snap.state(), len)
        {
            return Ok((snap, len, false));
        }
        let (mut snap, tail) = self.load()?;
        let pos = snap.state().journal.unwrap_or_default();
        if let Some(files) = self.files()? {
            journal::recover(&files, pos, &tail)
                .map_err(|e| self.io_error("cannot repair its journal", e))?;
        }
        if tail.lost {
            // What is left of that segment is not appended to: the next
            // write starts a new one.
            snap.change(|state| {
                state.journal = Some(journal::Pos {
                    segment: pos.segment + 1,
                    offset: 0,
                })
            });
            return Ok((snap, 0, true));
        }
        let len = tail.torn_at.unwrap_or(tail.len);
        Ok((snap, len, false))
    }

    /// Whether the file on disk is still the one this process wrote (its
    /// token at the head) and nobody appended to the journal since.
    pub(super) fn still_current(&self, state: &State<'_>, len: u64) -> bool {
        if state.write_id.is_empty() {
            return false;
        }
        let Ok(head) = self.head() else { return false };
        if head.write_id != state.write_id {
            return false;
        }
        match state.journal {
            None => true,
            Some(pos) => {
                std::fs::symlink_metadata(journal::segment_path(&self.path, pos.segment))
                    .map(|m| m.len())
                    .unwrap_or(0)
                    == len
            }
        }
    }

    /// Writes the transaction: its events to the journal (fsynced), then
    /// the file that says they are committed. Returns the journal
    /// segment's new length.
    fn commit(&self, snap: &mut Snapshot, len: u64) -> Result<u64> {
        let state = snap.state();
        let mut lines = Vec::new();
        for e in &state.events {
            let line =
                journal::event_line(e).map_err(|e| self.io_error(UNCHANGED_WRITE, e.into()))?;
            lines.extend_from_slice(&line);
        }
        let files = self.files_made()?;
        let like = files
            .dir
            .stat(files.name())
            .ok()
            .flatten()
            .filter(|m| m.is_file());
        let end = match state.journal {
            // Nothing to append: the file now takes in whatever intents
            // followed its last end.
            Some(pos) if lines.is_empty() => journal::Pos {
                segment: pos.segment,
                offset: len,
            },
            pos => journal::append(
                &files,
                pos,
                len,
                &lines,
                Some(self.segment_max),
                like.as_ref(),
            )
            .map_err(|e| self.io_error("left unchanged: cannot append to its journal", e))?,
        };
        let previous = state.journal;
        snap.change(|state| {
            state.journal = Some(end);
            state.schema_version = SCHEMA_VERSION;
            state.write_id = uuid::Uuid::new_v4().simple().to_string();
        });
        if let Err(e) = self.write(&files, snap.state(), like.as_ref()) {
            snap.change(|state| state.journal = previous);
            return Err(e);
        }
        snap.change(|state| state.events.clear());
        if previous.map(|p| p.segment) != Some(end.segment) {
            journal::prune(&files, end.segment, self.keep_segments);
        }
        Ok(end.offset)
    }

    /// `fingerprint`'s record, one transaction: each result as its plugin's
    /// most recent instance (an event when it is new or its health or
    /// version changed), and every file plugin on record that discovery no
    /// longer found marked unhealthy with its reason (`missing`: family,
    /// name, reason; a `gone` event).
    pub async fn record_fingerprints(
        &self,
        results: Vec<Fingerprinted>,
        missing: Vec<(String, String, String)>,
    ) -> Result<()> {
        self.update(|state| {
            for r in results {
                state.record_fingerprint(&r.family, &r.name, r.instance, r.usage.as_ref());
            }
            state.mark_missing(&missing);
            Ok(())
        })
        .await
    }

    /// `plugin forget`: removes a plugin the registry knows, one
    /// transaction; its `forgotten` event's sequence number, or None when
    /// it was not known. `still_there` is asked under the lock, so a file
    /// put back meanwhile is never forgotten.
    pub async fn forget(
        &self,
        family: &str,
        name: &str,
        still_there: impl FnOnce(&State<'_>) -> Result<()>,
    ) -> Result<Option<u64>> {
        self.update(|state| {
            still_there(state)?;
            Ok(state.forget(family, name).then_some(state.seq))
        })
        .await
    }

    /// A `secret_fetch` event (never a value: the details are the caller's
    /// summary), one transaction; its sequence number. The fetch's usage,
    /// when it ran, is tallied (success as `details` says) and put in the
    /// event.
    pub async fn record_secret_fetch(
        &self,
        provider: &str,
        mut details: serde_json::Map<String, serde_json::Value>,
        usage: Option<&crate::usage::Usage>,
    ) -> Result<u64> {
        let ok = model::result_of(&details) == "ok";
        self.update(|state| {
            let call = usage.map(|usage| super::ledger::Charge {
                family: crate::family::Family::Secrets.name(),
                name: provider,
                operation: crate::family::Operation::Fetch,
                ok,
                usage,
            });
            state.charge(call, &mut details);
            Ok(state.emit(
                model::kind::SECRET_FETCH,
                crate::family::Family::Secrets.name(),
                provider,
                details,
            ))
        })
        .await
    }
}

/// One plugin's fingerprint, to be recorded: its instance as it now is,
/// and what the call cost when it ran.
#[derive(Debug, Clone)]
pub struct Fingerprinted {
    pub family: String,
    pub name: String,
    pub instance: Instance,
    pub usage: Option<crate::usage::Usage>,
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};

    use serde_json::Map;

    use super::super::file::Files;
    use super::super::head::HEAD_BYTES;
    use super::super::testing::{GHOST, append_raw, events_of, names, reg, register};
    use super::super::volumes;
    use super::*;
    use crate::trust::Policy;

    #[test]
    fn latest_sees_what_another_process_wrote_since() {
        // A writes and keeps what it wrote; B (another process, to A) writes
        // after: A's next read must be B's state, not the one it holds.
        let d = tempfile::tempdir().unwrap();
        let (a, b) = (reg(d.path()), reg(d.path()));
        a.update_now(|s| Ok(s.emit("register", "csi", "from-a", Map::new())))
            .unwrap();
        assert_eq!(a.latest().unwrap().state().seq, 1, "A's own write");
        a.update_now(|s| Ok(s.emit("register", "csi", "again-a", Map::new())))
            .unwrap();
        b.update_now(|s| Ok(s.emit("register", "csi", "from-b", Map::new())))
            .unwrap();
        assert_eq!(a.latest().unwrap().state().seq, 3, "B's write is seen");
    }

    #[test]
    fn a_stopped_registry_and_its_clones_record_nothing() {
        let d = tempfile::tempdir().unwrap();
        let (stop, handle) = crate::stop::Stop::detached();
        let a = reg(d.path()).with_stop(stop);
        a.update_now(|s| Ok(s.emit("register", "csi", "x", Map::new())))
            .unwrap();
        handle.stop(130);
        for r in [&a, &a.clone()] {
            assert!(
                r.update_now(|s| Ok(s.emit("register", "csi", "y", Map::new())))
                    .is_err()
            );
        }
        assert_eq!(a.read().unwrap().state().seq, 1);
    }

    #[test]
    fn failed_closure_writes_nothing() {
        let d = tempfile::tempdir().unwrap();
        let r = reg(d.path());
        r.update_now(|s| Ok(s.node_id())).unwrap();
        let before = fs::read(r.path()).unwrap();
        let e = r
            .update_now(|s| -> Result<()> {
                s.emit("register", "csi", "x", Map::new());
                Err(Error::Failed("no".into()))
            })
            .unwrap_err();
        assert!(matches!(e, Error::Failed(_)));
        assert_eq!(fs::read(r.path()).unwrap(), before);
    }

    #[test]
    fn a_second_transaction_sees_what_another_process_wrote() {
        let d = tempfile::tempdir().unwrap();
        let mine = reg(d.path());
        let other = reg(d.path());
        register(&mine, "a");
        let head = fs::read_to_string(mine.path()).unwrap();
        assert!(
            head[..HEAD_BYTES.min(head.len())].contains("\"write_id\""),
            "{head}"
        );
        register(&other, "b");
        // `mine` holds a cached state without b's event: it must notice.
        assert_eq!(register(&mine, "c"), 3);
        assert_eq!(names(&events_of(&mine)), ["a", "b", "c"]);
    }

    #[test]
    fn uncommitted_events_are_never_shown_and_the_next_writer_cuts_them() {
        let d = tempfile::tempdir().unwrap();
        let r = reg(d.path());
        register(&r, "a");
        let committed = r.head().unwrap().journal.unwrap();
        append_raw(&r, GHOST);
        append_raw(&r, b"{\"seq\":3,\"ki");
        assert_eq!(names(&events_of(&r)), ["a"], "a reader skips them");
        let fresh = reg(d.path());
        assert_eq!(register(&fresh, "b"), 2, "seq 2 is handed out again");
        assert_eq!(names(&events_of(&r)), ["a", "b"]);
        let seg = journal::segment_path(r.path(), committed.segment);
        let text = fs::read_to_string(seg).unwrap();
        assert!(!text.contains("ghost") && text.ends_with('\n'), "{text}");
    }

    #[test]
    fn an_intent_is_durable_without_a_registry_write() {
        let d = tempfile::tempdir().unwrap();
        let r = reg(d.path());
        register(&r, "a");
        let before = fs::read(r.path()).unwrap();
        let v = volumes::tests::volume("11111111-2222-4333-8444-555555555555", "web");
        r.intend_now(|s| {
            s.volumes.insert(v.clone());
            Ok(((), vec![v.id.to_string()]))
        })
        .unwrap();
        assert_eq!(
            fs::read(r.path()).unwrap(),
            before,
            "the file is not rewritten"
        );
        // Another process (a fresh registry object) sees it.
        let other = reg(d.path());
        let name = |r: &Registry| {
            r.read()
                .unwrap()
                .state()
                .volumes
                .get(&v.id)
                .unwrap()
                .name
                .to_string()
        };
        assert_eq!(name(&other), "web");
        // The next transaction takes it in, and it is not applied again.
        other
            .update_now(|s| {
                s.volumes.get_mut(&v.id).unwrap().name = "renamed".into();
                Ok(())
            })
            .unwrap();
        assert_eq!(name(&reg(d.path())), "renamed");
        // A torn intent (no newline) is cut, the committed record stays.
        append_raw(&r, b"{\"intent\":\"volume\",\"vol");
        assert_eq!(reg(d.path()).read().unwrap().state().volumes.len(), 1);
        register(&reg(d.path()), "b");
        assert_eq!(name(&reg(d.path())), "renamed");
    }

    #[test]
    fn a_tampered_intent_is_refused_like_a_tampered_record() {
        let d = tempfile::tempdir().unwrap();
        let r = reg(d.path());
        register(&r, "a");
        let mut v = volumes::tests::volume("11111111-2222-4333-8444-555555555555", "web");
        v.id = "../../etc".into();
        let mut line = serde_json::to_vec(&journal::Intent {
            intent: journal::IntentKind::Volume,
            volume: v,
        })
        .unwrap();
        line.push(b'\n');
        append_raw(&r, &line);
        let e = reg(d.path()).read().unwrap_err();
        assert!(matches!(e, Error::Registry { .. }), "{e}");
        assert!(e.to_string().contains("not a UUID"), "{e}");
    }

    #[test]
    fn segments_rotate_and_only_the_newest_are_kept() {
        let d = tempfile::tempdir().unwrap();
        let r = reg(d.path()).with_segments(400, 3);
        for i in 0..30 {
            register(&r, &format!("p{i}"));
        }
        let files = Files::open(Policy::strict(), r.path()).unwrap().unwrap();
        let segs = journal::segments(&files).unwrap();
        assert_eq!(segs.len(), 3, "{segs:?}");
        let head = r.head().unwrap();
        assert_eq!(head.journal.unwrap().segment, *segs.last().unwrap());
        let got = events_of(&r);
        // The oldest are gone; what is kept is in order, ending with the last.
        assert!(got.len() < 30 && !got.is_empty());
        assert!(got.windows(2).all(|w| w[1].seq == w[0].seq + 1));
        assert_eq!(got.last().unwrap().seq, 30);
        assert!(got[0].seq > 5);
    }

    #[test]
    fn a_segment_past_the_registrys_is_an_uncommitted_rotation() {
        let d = tempfile::tempdir().unwrap();
        let r = reg(d.path());
        register(&r, "a");
        let pos = r.head().unwrap().journal.unwrap();
        let stray = journal::segment_path(r.path(), pos.segment + 1);
        let mut text = b"{\"plugctl_journal\":1,\"segment\":2}\n".to_vec();
        text.extend_from_slice(GHOST);
        fs::write(&stray, text).unwrap();
        assert_eq!(names(&events_of(&r)), ["a"]);
        register(&reg(d.path()), "b");
        assert!(!stray.exists() || !fs::read_to_string(&stray).unwrap().contains("ghost"));
        assert_eq!(names(&events_of(&r)), ["a", "b"]);
    }

    #[test]
    fn a_schema_1_file_moves_its_log_to_the_journal_at_the_first_write() {
        let d = tempfile::tempdir().unwrap();
        let r = reg(d.path());
        // Owner-only, as plugctl makes them, whatever the umask.
        fs::DirBuilder::new()
            .mode(0o700)
            .create(d.path().join("sub"))
            .unwrap();
        fs::write(
            r.path(),
            r#"{"schema_version": 1, "seq": 2, "plugins": {}, "volumes": {},
                "events": [
                  {"seq": 1, "kind": "register", "type": "csi", "name": "old1", "time": "t"},
                  {"seq": 2, "kind": "register", "type": "csi", "name": "old2", "time": "t"}
                ]}"#,
        )
        .unwrap();
        fs::set_permissions(r.path(), fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(names(&events_of(&r)), ["old1", "old2"], "read in place");
        assert_eq!(register(&r, "new"), 3);
        let text = fs::read_to_string(r.path()).unwrap();
        assert!(text.contains("\"schema_version\": 2"), "{text}");
        assert!(!text.contains("old1"), "{text}");
        assert_eq!(names(&events_of(&r)), ["old1", "old2", "new"]);
    }
}

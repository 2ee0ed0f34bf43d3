//! The registry file on disk: one JSON document, loaded and held to its
//! rules, written whole through the trust gate's one atomic replace
//! ([`crate::trust::CheckedDir::replace_with`]): a temporary file beside
//! it, fsync, rename, fsync of the directory. A crash at any instant leaves
//! the old or the new file, never a torn one, and readers need no lock
//! because rename is atomic.
//!
//! A read is a [`Snapshot`]: the file's bytes and the state whose strings
//! borrow from them (see [`super::records`]), with the intents the journal
//! committed after the file applied.

use std::fs::File;
use std::io::{self, Write};

use super::file::Files;
use super::model::{SCHEMA_VERSION, State};
use super::{Registry, journal, rules};
use crate::trust::{Refusal, Step};
use crate::{Error, Result};

self_cell::self_cell!(
    /// A read of the registry: the file's bytes, and the state whose
    /// strings borrow from them (see [`super::records`]), with the journal's
    /// intents applied.
    pub struct Snapshot {
        owner: Vec<u8>,
        #[covariant]
        dependent: State,
    }
    impl {Debug}
);

impl Snapshot {
    /// The state read.
    pub fn state(&self) -> &State<'_> {
        self.borrow_dependent()
    }

    /// An empty registry (no file yet).
    pub fn empty() -> Snapshot {
        Snapshot::new(Vec::new(), |_| State::default())
    }

    /// Health as the disk has it now (see [`State::check_files`]): a view
    /// of this read, never written.
    pub fn check_files(&mut self) {
        self.change(|state| state.check_files())
    }

    /// Changes the state in place (inside a transaction).
    pub(super) fn change<T>(&mut self, f: impl FnOnce(&mut State<'_>) -> T) -> T {
        self.with_dependent_mut(|_, state| f(state))
    }
}

// Failures before the rename leave the old file as it was, and say so.
const UNCHANGED_CREATE: &str = "left unchanged: cannot create a temporary file";
pub(super) const UNCHANGED_WRITE: &str = "left unchanged: cannot write the new version";
const UNCHANGED_FSYNC: &str = "left unchanged: cannot fsync the new version";
const UNCHANGED_REPLACE: &str = "left unchanged: cannot rename the new version over it";

/// What a failed step of the atomic replace left.
fn unchanged(step: Step) -> &'static str {
    match step {
        Step::Create => UNCHANGED_CREATE,
        Step::Write => UNCHANGED_WRITE,
        Step::Sync => UNCHANGED_FSYNC,
        Step::Rename => UNCHANGED_REPLACE,
        Step::SyncDir => "cannot fsync its directory",
    }
}

/// The end of a temporary file's name (see [`Registry::temp_prefix`]).
const TEMP_SUFFIX: &str = ".tmp";

impl Registry {
    /// The registry file opened for reading through the gate; `None` when
    /// there is none.
    pub(super) fn open_file(&self, files: &Files) -> Result<Option<(File, crate::trust::Meta)>> {
        match files.dir.open_read(files.name(), self.max_size) {
            Ok(opened) => Ok(Some(opened)),
            Err(r) if r.is_not_found() => Ok(None),
            Err(r) => Err(self.refused(r)),
        }
    }

    /// A consistent snapshot without taking the lock: the file, and the
    /// intents committed after it in the journal. A missing file is an
    /// empty registry.
    pub fn read(&self) -> Result<Snapshot> {
        self.load().map(|(snap, _)| snap)
    }

    /// [`Registry::read`], without parsing again when this process holds
    /// the state it last wrote and nobody wrote since (the state a command's
    /// transaction left, to report from). Takes it from the cache.
    pub fn latest(&self) -> Result<Snapshot> {
        let cached = self.cache.lock().unwrap_or_else(|e| e.into_inner()).take();
        match cached {
            Some((snap, len)) if self.still_current(snap.state(), len) => Ok(snap),
            _ => self.read(),
        }
    }

    /// Hands a read back, for the next transaction of this process to
    /// start from instead of parsing the file again — used only when nobody
    /// wrote since and nothing uncommitted followed its end.
    pub fn keep(&self, snap: Snapshot) {
        if let Some(len) = snap.state().clean_journal_len {
            *self.cache.lock().unwrap_or_else(|e| e.into_inner()) = Some((snap, len));
        }
    }

    /// The state and what follows its committed end in the journal.
    pub(super) fn load(&self) -> Result<(Snapshot, journal::Tail)> {
        // No registry yet: whatever segments lie about are not committed
        // (the first write's registry never landed).
        let empty = || Ok((Snapshot::empty(), journal::Tail::default()));
        let Some(files) = self.files()? else {
            return empty();
        };
        let Some((file, meta)) = self.open_file(&files)? else {
            return empty();
        };
        self.check_memory(meta.size)?;
        let bytes =
            crate::trust::dir::read_to_end_bounded(file, meta.size, meta.size).map_err(|e| {
                self.io_error(
                    "cannot read",
                    io::Error::new(
                        e.kind(),
                        format!(
                            "{e} (another process is writing it without the lock, or it is not \
                             plugctl's)"
                        ),
                    ),
                )
            })?;
        let mut snap = Snapshot::try_new(bytes, |bytes| self.parse(bytes))?;
        let tail = match snap.state().journal {
            Some(pos) => journal::tail(&files, pos).map_err(|p| self.journal_problem(p))?,
            None => journal::Tail::default(),
        };
        let clean = (tail.torn_at.is_none() && !tail.lost).then_some(tail.len);
        snap.change(|state| state.clean_journal_len = clean);
        if !tail.intents.is_empty() {
            snap.change(|state| {
                for v in &tail.intents {
                    state.volumes.insert(v.clone());
                }
            });
            // What an intent brought in is held to the file's rules too.
            self.check_records(snap.state())?;
        }
        Ok((snap, tail))
    }

    pub(super) fn journal_problem(&self, p: journal::Problem) -> Error {
        match p {
            journal::Problem::Refused(r @ (Refusal::Symlink(_) | Refusal::Kind { .. })) => {
                let what = match &r {
                    Refusal::Symlink(p) => format!("{} is a symbolic link", p.display()),
                    other => other.to_string(),
                };
                Error::Registry {
                    path: self.path.clone(),
                    message: format!(
                        "its journal segment {what}, which plugctl never reads or writes \
                         through (it writes its segments as regular files); left untouched: put \
                         the real segment in its place, or move that one aside (the events it \
                         held are lost)"
                    ),
                }
            }
            journal::Problem::Refused(r) => {
                let mut e = self.refused(r);
                if let Error::Registry { message, .. } = &mut e {
                    *message = format!("its journal: {}", message);
                }
                e
            }
            journal::Problem::Io(e) => self.io_error("cannot read its journal", e),
            journal::Problem::Record(why) => Error::Registry {
                path: self.path.clone(),
                message: format!(
                    "refusing a record of its journal that plugctl would not have written: \
                     {why}; left untouched: remove that line of the segment (the change it \
                     records is then undone)"
                ),
            },
            journal::Problem::Corrupt(why) => Error::Registry {
                path: self.path.clone(),
                message: format!(
                    "its journal is not as plugctl wrote it: {why}; left untouched: move the \
                     registry and its journal aside to start anew"
                ),
            },
        }
    }

    /// Rust aborts a process that cannot allocate: under an address-space
    /// limit (ulimit -v) too small for the registry, say so before parsing
    /// instead. A read takes about twice the file's size (its bytes, and
    /// records that borrow from them); three times leaves room.
    fn check_memory(&self, size: u64) -> Result<()> {
        use nix::sys::resource::{Resource, getrlimit};
        let Ok((soft, _)) = getrlimit(Resource::RLIMIT_AS) else {
            return Ok(());
        };
        if soft == nix::sys::resource::RLIM_INFINITY {
            return Ok(());
        }
        let need = size.saturating_mul(3).saturating_add(64 << 20);
        if need > soft {
            return Err(Error::exhausted(
                format!(
                    "read the registry {} ({size} bytes needs about {} MiB; the address-space \
                     limit is {} MiB)",
                    self.path.display(),
                    need >> 20,
                    soft >> 20
                ),
                std::io::Error::from_raw_os_error(nix::libc::ENOMEM),
            ));
        }
        Ok(())
    }

    fn parse<'a>(&self, bytes: &'a [u8]) -> Result<State<'a>> {
        #[derive(serde::Deserialize)]
        struct Header {
            schema_version: Option<u64>,
        }
        // One pass over the file in the common case: the full parse first.
        // The version still decides before the parse error does, so that a
        // newer file is refused for what it is and not reported as corrupt.
        let full = serde_json::from_slice::<State>(bytes);
        let version = match &full {
            Ok(state) => Some(u64::from(state.schema_version)),
            Err(_) => {
                serde_json::from_slice::<Header>(bytes)
                    .map_err(|e| self.corrupt(&e))?
                    .schema_version
            }
        };
        match version {
            Some(v) if v > u64::from(SCHEMA_VERSION) => {
                return Err(Error::Registry {
                    path: self.path.clone(),
                    message: format!(
                        "written by a newer plugctl (schema_version {v}; this plugctl knows \
                         {SCHEMA_VERSION}); refusing to read or overwrite it"
                    ),
                });
            }
            None => {
                return Err(Error::Registry {
                    path: self.path.clone(),
                    message: "no schema_version: not a plugctl registry; left untouched".into(),
                });
            }
            _ => {}
        }
        let state = full.map_err(|e| self.corrupt(&e))?;
        self.check_records(&state)?;
        Ok(state)
    }

    /// Every record held to the rules it was written with (see [`rules`]).
    fn check_records(&self, state: &State<'_>) -> Result<()> {
        rules::check(state).map_err(|why| Error::Registry {
            path: self.path.clone(),
            message: format!(
                "refusing a record that plugctl would not have written: {why}; left untouched: \
                 fix or remove that record"
            ),
        })
    }

    fn corrupt(&self, e: &serde_json::Error) -> Error {
        Error::Registry {
            path: self.path.clone(),
            message: format!(
                "corrupt ({e}); left untouched: move it aside to start a new registry"
            ),
        }
    }

    /// Temporary files are `.<registry file name>.<random>.tmp`, so that
    /// registries sharing a directory never touch each other's.
    fn temp_prefix(&self) -> String {
        format!(
            ".{}.",
            self.path.file_name().unwrap_or_default().to_string_lossy()
        )
    }

    /// Removes the temporary files of writers that died before their rename
    /// (a plugctl killed mid-write). Call only under the lock: only the
    /// holder ever creates one, so any other is by construction abandoned.
    fn remove_stale_temp_files(&self, files: &Files) {
        let prefix = self.temp_prefix();
        let Ok(entries) = files.dir.entries() else {
            return;
        };
        for (entry, _) in entries {
            let name = entry.to_string_lossy();
            // `.registry.json.<random>.tmp`, and not the temporary file of
            // `registry.json.bak` next to it (`.registry.json.bak.<random>.tmp`).
            let ours = name
                .strip_prefix(prefix.as_str())
                .and_then(|rest| rest.strip_suffix(TEMP_SUFFIX))
                .is_some_and(|random| !random.is_empty() && !random.contains('.'));
            if ours {
                // Best effort: a leftover costs disk space, never correctness.
                let _ = files.dir.unlink(&entry);
            }
        }
    }

    /// The one atomic replace of the gate: a temporary file beside the
    /// registry, fsynced, renamed over it, the directory fsynced. The new
    /// version keeps the old one's owner, group and mode (`like`): root
    /// writing a user's registry must not take it away from the user.
    pub(super) fn write(
        &self,
        files: &Files,
        state: &State<'_>,
        like: Option<&crate::trust::Meta>,
    ) -> Result<()> {
        self.remove_stale_temp_files(files);
        files
            .dir
            .replace_with(files.name(), 0o600, like, |f| {
                let mut w = io::BufWriter::with_capacity(1 << 16, f);
                serde_json::to_writer_pretty(&mut w, state).map_err(io::Error::from)?;
                w.write_all(b"\n")?;
                w.flush()
            })
            .map_err(|(step, r)| match r {
                Refusal::Io { source, .. } => self.io_error(unchanged(step), source),
                r => self.refused(r),
            })
    }
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::os::unix::fs::PermissionsExt;

    use serde_json::Map;

    use super::super::testing::reg;
    use crate::Error;

    #[test]
    fn missing_is_empty_and_update_creates_0600() {
        let d = tempfile::tempdir().unwrap();
        let r = reg(d.path());
        assert!(r.read().unwrap().state().plugins.is_empty());
        let seq = r
            .update_now(|s| Ok(s.emit("register", "csi", "x", Map::new())))
            .unwrap();
        assert_eq!(seq, 1);
        let mode = fs::metadata(r.path()).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        assert_eq!(r.read().unwrap().state().seq, 1);
        // no temporary file left behind
        let names: Vec<_> = fs::read_dir(d.path().join("sub"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
    }

    #[test]
    fn a_write_removes_temp_files_that_killed_writers_left() {
        let d = tempfile::tempdir().unwrap();
        let r = reg(d.path());
        r.update_now(|s| Ok(s.node_id())).unwrap();
        let sub = d.path().join("sub");
        let stale = sub.join(".registry.json.AbC123.tmp");
        fs::write(&stale, "{\"half\": ").unwrap();
        // another registry's in the same directory, and other files: kept
        let other = sub.join(".other.json.XyZ789.tmp");
        fs::write(&other, "").unwrap();
        let longer = sub.join(".registry.json.bak.XyZ789.tmp");
        fs::write(&longer, "").unwrap();
        fs::write(sub.join("notes.tmp"), "").unwrap();
        assert!(r.read().is_ok(), "a read changes nothing");
        assert!(stale.exists());
        r.update_now(|s| Ok(s.node_id())).unwrap();
        assert!(!stale.exists());
        assert!(other.exists() && longer.exists() && sub.join("notes.tmp").exists());
    }

    #[test]
    fn corrupt_and_newer_files_are_refused_and_untouched() {
        let d = tempfile::tempdir().unwrap();
        let r = reg(d.path());
        fs::create_dir_all(d.path().join("sub")).unwrap();
        for content in [
            &b"{not json"[..],
            br#"{"schema_version": 99, "plugins": {}}"#,
            br#"{"plugins": {}}"#,
        ] {
            fs::write(r.path(), content).unwrap();
            let e = r.update_now(|s| Ok(s.node_id())).unwrap_err();
            assert!(matches!(e, Error::Registry { .. }), "{e}");
            assert!(e.to_string().contains("registry.json"), "{e}");
            assert_eq!(fs::read(r.path()).unwrap(), content);
        }
    }
}

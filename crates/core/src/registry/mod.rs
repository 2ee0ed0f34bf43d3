//! The registry file: one JSON document, changed only inside
//! [`Registry::update`] — an exclusive lock on a separate lock file, read,
//! change, write to a temporary file, fsync, rename, fsync the directory.
//! A crash at any instant leaves the old or the new file, never a torn one,
//! and readers need no lock because rename is atomic.
//!
//! The lock lives in `<registry>.lock`, not on the registry itself: the
//! registry is replaced by rename on every write, so a lock on it would be
//! a lock on a file that no longer has a name.

pub mod dynamic;
pub mod file;
pub mod find;
pub mod journal;
pub mod model;
pub mod records;
pub mod validate;
pub mod volumes;
pub mod watch;

use std::fs::{self, File, TryLockError};
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub use model::{Event, Instance, SCHEMA_VERSION, Source, State, Volume, VolumeState};

use crate::stop::Stop;
use crate::trust::{Policy, Refusal, Step};
use crate::{Error, Result};
use file::Files;

#[derive(Debug)]
pub struct Registry {
    path: PathBuf,
    lock_timeout: Duration,
    /// A larger file is refused before it is read (`--registry-max-size`).
    max_size: u64,
    /// The trust gate's rules (`--allow-insecure-paths` lifts the owner
    /// and mode checks).
    policy: Policy,
    /// Journal segments: closed at this size, this many kept.
    segment_max: u64,
    keep_segments: u64,
    /// The state as this process last wrote it, and the length of the
    /// journal segment then. A command that runs two transactions (pending,
    /// run the plugin, ready) parses the file once.
    cache: Mutex<Option<(Snapshot, u64)>>,
    /// Once it fires, nothing more is recorded: what the command would
    /// write is the signal's doing.
    stop: Stop,
    /// Told, once, when the lock is not had within [`LOCK_NOTICE_AFTER`]:
    /// a person at a terminal learns what plugctl waits for.
    notice: Notice,
}

/// How long a lock wait goes unsaid.
pub const LOCK_NOTICE_AFTER: Duration = Duration::from_secs(1);

/// Where the lock wait is said (the command's printer): a callback, so the
/// registry prints nothing itself.
#[derive(Clone, Default)]
pub struct Notice(Option<std::sync::Arc<Say>>);

/// What a [`Notice`] calls with the sentence.
type Say = dyn Fn(&str) + Send + Sync;

impl std::fmt::Debug for Notice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Notice(set)"
        } else {
            "Notice(none)"
        })
    }
}

impl Notice {
    pub fn new(f: impl Fn(&str) + Send + Sync + 'static) -> Notice {
        Notice(Some(std::sync::Arc::new(f)))
    }

    fn say(&self, what: &str) {
        if let Some(f) = &self.0 {
            f(what);
        }
    }
}

self_cell::self_cell!(
    /// A read of the registry: the file's bytes, and the state whose
    /// strings borrow from them (see [`records`]), with the journal's
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
    fn change<T>(&mut self, f: impl FnOnce(&mut State<'_>) -> T) -> T {
        self.with_dependent_mut(|_, state| f(state))
    }
}

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

/// The directory a file lives in (`.` for a bare name).
pub fn parent_dir(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

impl Clone for Registry {
    fn clone(&self) -> Self {
        let mut clone = Registry::new(self.path.clone(), self.lock_timeout)
            .with_segments(self.segment_max, self.keep_segments)
            .with_stop(self.stop.clone())
            .with_notice(self.notice.clone());
        clone.max_size = self.max_size;
        clone.policy = self.policy;
        volumes::set_owners_dir(clone.path.clone(), clone.policy);
        clone
    }
}

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

/// The default ceiling on the registry's size.
pub const DEFAULT_MAX_SIZE: u64 = 1 << 30;

// Failures before the rename leave the old file as it was, and say so.
const UNCHANGED_CREATE: &str = "left unchanged: cannot create a temporary file";
const UNCHANGED_WRITE: &str = "left unchanged: cannot write the new version";
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

/// How much of the file's head holds `write_id`, `seq` and `journal` (the
/// fields plugctl writes first).
const HEAD_BYTES: usize = 1024;

impl Registry {
    pub fn new(path: impl Into<PathBuf>, lock_timeout: Duration) -> Registry {
        let path: PathBuf = path.into();
        volumes::set_owners_dir(path.clone(), Policy::strict());
        Registry {
            path,
            lock_timeout,
            max_size: DEFAULT_MAX_SIZE,
            policy: Policy::strict(),
            segment_max: journal::SEGMENT_MAX,
            keep_segments: journal::KEEP,
            cache: Mutex::new(None),
            stop: Stop::new(),
            notice: Notice::default(),
        }
    }

    /// Where a lock wait longer than [`LOCK_NOTICE_AFTER`] is said.
    pub fn with_notice(mut self, notice: Notice) -> Registry {
        self.notice = notice;
        self
    }

    /// The token whose shutdown stops recording (default: the process's).
    pub fn with_stop(mut self, stop: Stop) -> Registry {
        self.stop = stop;
        self
    }

    /// The size ceiling, and whether the owner and mode checks are off.
    pub fn with_limits(mut self, max_size: u64, allow_insecure: bool) -> Registry {
        self.max_size = max_size;
        self.policy = Policy::new(allow_insecure);
        volumes::set_owners_dir(self.path.clone(), self.policy);
        self
    }

    /// Journal segments close at `max` bytes and the newest `keep` are
    /// kept (defaults [`journal::SEGMENT_MAX`], [`journal::KEEP`]).
    pub fn with_segments(mut self, max: u64, keep: u64) -> Registry {
        self.segment_max = max.max(1);
        self.keep_segments = keep.max(1);
        self
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn lock_path(&self) -> PathBuf {
        let mut name = self.path.file_name().unwrap_or_default().to_os_string();
        name.push(".lock");
        self.path.with_file_name(name)
    }

    fn dir(&self) -> &Path {
        parent_dir(&self.path)
    }

    /// The registry's directory through the gate; `None` when it does not
    /// exist (no registry yet).
    fn files(&self) -> Result<Option<Files>> {
        Files::open(self.policy, &self.path).map_err(|r| self.refused(r))
    }

    /// The registry's directory through the gate, made when missing.
    fn files_made(&self) -> Result<Files> {
        Files::create(self.policy, &self.path).map_err(|r| match &r {
            Refusal::Kind { path, is, .. } if path != &self.path => Error::Registry {
                path: self.path.clone(),
                message: format!(
                    "cannot create its directory {}: a part of that path, {}, is {}, not a \
                     directory",
                    self.dir().display(),
                    path.display(),
                    if *is == "a regular file" {
                        "a file"
                    } else {
                        is
                    }
                ),
            },
            Refusal::Io { source, .. } if source.kind() == io::ErrorKind::AlreadyExists => {
                Error::Registry {
                    path: self.path.clone(),
                    message: format!(
                        "cannot create its directory {}: a part of that path is a file, not a \
                         directory",
                        self.dir().display()
                    ),
                }
            }
            _ => self.refused(r),
        })
    }

    /// The registry file opened for reading through the gate; `None` when
    /// there is none.
    fn open_file(&self, files: &Files) -> Result<Option<(File, crate::trust::Meta)>> {
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
    fn load(&self) -> Result<(Snapshot, journal::Tail)> {
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

    fn journal_problem(&self, p: journal::Problem) -> Error {
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
                journal::read_events(&files, cursor, end, after, head.seq, f)
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

    /// A file plugctl will not use, as a configuration error (exit 2) that
    /// says why and what to do.
    fn refused(&self, r: Refusal) -> Error {
        let ours = r.path() == self.path;
        let message = match r {
            Refusal::NotFound(p) if p == self.path => "does not exist".to_string(),
            Refusal::Symlink(p) if p == self.path => "is a symbolic link, which plugctl never \
                follows for its own files; --registry (PLUGCTL_REGISTRY) must name a regular \
                file; left untouched"
                .to_string(),
            Refusal::Kind { is, .. } if ours => format!(
                "is {is}, not a regular file; --registry (PLUGCTL_REGISTRY) must name a \
                 regular file; left untouched"
            ),
            Refusal::TooLarge { size, max, .. } => format!(
                "is {size} bytes, more than the limit of {max} bytes; refusing to read it \
                 (raise --registry-max-size or PLUGCTL_REGISTRY_MAX_SIZE if it is genuine)"
            ),
            r if r.is_insecure() && !ours => format!(
                "refusing to trust its directory: {r}; or pass --allow-insecure-paths on a lab \
                 machine (see docs/security.md)"
            ),
            r if r.is_insecure() => with_override_hint(&r),
            Refusal::Kind {
                path,
                is,
                want: "a directory",
            } => {
                let is = if is == "a regular file" { "a file" } else { is };
                format!(
                    "cannot use its directory {}: {} is {is}, not a directory",
                    self.dir().display(),
                    path.display()
                )
            }
            Refusal::Io { source, .. } if ours => return self.io_error("cannot open", source),
            Refusal::Io { path, source } => {
                return self.io_error(&format!("cannot open {}", path.display()), source);
            }
            other => format!("{other}; left untouched"),
        };
        Error::Registry {
            path: self.path.clone(),
            message,
        }
    }

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

    /// `fingerprint`'s record, one transaction: each result as its plugin's
    /// most recent instance (an event when it is new or its health or
    /// version changed), and every file plugin on record that discovery no
    /// longer found marked unhealthy with its reason (`missing`: family,
    /// name, reason; a `gone` event).
    pub async fn record_fingerprints(
        &self,
        results: Vec<(String, String, Instance)>,
        missing: Vec<(String, String, String)>,
    ) -> Result<()> {
        self.update(|state| {
            for (family, name, inst) in results {
                state.record_fingerprint(&family, &name, inst);
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
    /// summary), one transaction; its sequence number.
    pub async fn record_secret_fetch(
        &self,
        provider: &str,
        details: serde_json::Map<String, serde_json::Value>,
    ) -> Result<u64> {
        self.update(|state| {
            Ok(state.emit(
                model::kind::SECRET_FETCH,
                crate::family::Family::Secrets.name(),
                provider,
                details,
            ))
        })
        .await
    }

    /// Whether the file on disk is still the one this process wrote (its
    /// token at the head) and nobody appended to the journal since.
    fn still_current(&self, state: &State<'_>, len: u64) -> bool {
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
                fs::symlink_metadata(journal::segment_path(&self.path, pos.segment))
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

    /// Every record held to the rules it was written with (see [`validate`]).
    fn check_records(&self, state: &State<'_>) -> Result<()> {
        validate::validate(state).map_err(|why| Error::Registry {
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

    /// An I/O failure on the registry. One the operator must fix where the
    /// registry lives (no permission, a read-only file system) is a
    /// configuration error (exit 2) that says what to do; others (a full
    /// disk, an I/O error) are failures of the operation (exit 1).
    fn io_error(&self, what: &str, e: io::Error) -> Error {
        let hint = match e.kind() {
            io::ErrorKind::PermissionDenied => Some(format!(
                "plugctl runs as uid {} and needs read and write access to {} and the files \
                 in it; fix the permissions or choose another --registry",
                nix::unistd::geteuid(),
                self.dir().display()
            )),
            io::ErrorKind::ReadOnlyFilesystem => Some(format!(
                "{} is on a read-only file system; choose another --registry",
                self.dir().display()
            )),
            io::ErrorKind::IsADirectory => {
                Some("--registry (PLUGCTL_REGISTRY) must name a file, not a directory".into())
            }
            io::ErrorKind::NotADirectory => {
                Some("a part of its path is a file, not a directory".into())
            }
            _ => None,
        };
        match hint {
            Some(hint) => Error::Registry {
                path: self.path.clone(),
                message: format!("{what}: {e}; {hint}"),
            },
            None => Error::io(format!("registry {}: {what}", self.path.display()), e),
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

    /// Holds the registry lock until the guard is dropped, for a command
    /// that acts on what it read and must see no writer meanwhile
    /// (`volume audit --prune-orphans`). Reads still need no lock.
    pub async fn hold(&self) -> Result<Held> {
        self.lock().await.map(|f| Held { _lock: f })
    }

    /// Takes the exclusive lock, waiting at most `lock_timeout` without
    /// holding up the async runtime: the wait is a blocking `flock` on a
    /// thread of its own (it wakes the moment the holder lets go), awaited
    /// with the deadline; where no thread can be had, a poll with async
    /// sleeps. The holder writes its pid into the lock file so a waiter can
    /// name it (the kernel's lock table is asked first).
    ///
    /// A lock is only a lock while its file still has the lock file's name:
    /// one taken on a file that was removed or replaced meanwhile (a waiter
    /// that waited on the old one) excludes nobody who opens the name now,
    /// so it is given back and taken again on the file the name holds.
    async fn lock(&self) -> Result<File> {
        let start = Instant::now();
        loop {
            let mut file = self.open_lock()?;
            let got = match file.try_lock() {
                Ok(()) => Ok(true),
                Err(TryLockError::WouldBlock) => {
                    // Quietly for a moment, then saying whom it waits for.
                    let left = self.lock_timeout.saturating_sub(start.elapsed());
                    let quiet = left.min(LOCK_NOTICE_AFTER.saturating_sub(start.elapsed()));
                    match self.wait(&file, quiet).await {
                        Ok(false) if left > quiet => {
                            self.notice.say(&format!(
                                "waiting for the registry lock held by {} (up to {} more; \
                                 --lock-timeout)",
                                holder_text(read_pid(&mut file)),
                                humantime::format_duration(Duration::from_secs(
                                    (left - quiet).as_secs_f64().round() as u64
                                ))
                            ));
                            self.wait(&file, left - quiet).await
                        }
                        other => other,
                    }
                }
                Err(TryLockError::Error(e)) => Err(e),
            };
            match got {
                Ok(true) if self.is_lock_file(&file) => return Ok(holding(file)),
                // Replaced while we waited: dropping it lets it go.
                Ok(true) => continue,
                Ok(false) => {
                    return Err(Error::RegistryLocked {
                        path: self.path.clone(),
                        holder: read_pid(&mut file),
                        // As configured: the elapsed time to the nanosecond
                        // ("310ms 295us 150ns") says no more.
                        waited: self.lock_timeout,
                    });
                }
                Err(e) => return Err(self.io_error("cannot lock", e)),
            }
        }
    }

    /// Waits up to `limit` for the lock on `file`: on a thread of its own,
    /// or by polling when no thread is to be had.
    async fn wait(&self, file: &File, limit: Duration) -> io::Result<bool> {
        let waited = match file.try_clone() {
            Ok(waiter) => self.wait_on_thread(waiter, limit).await,
            Err(_) => None,
        };
        match waited {
            Some(got) => got,
            None => self.wait_polling(file, limit).await,
        }
    }

    /// Whether `file` is still the one the lock file's name holds.
    fn is_lock_file(&self, file: &File) -> bool {
        use std::os::unix::fs::MetadataExt;
        let now = self
            .files()
            .ok()
            .flatten()
            .and_then(|f| f.dir.stat(f.sibling(".lock")).ok().flatten());
        match (file.metadata(), now) {
            (Ok(a), Some(b)) => a.dev() == b.dev && a.ino() == b.ino,
            _ => false,
        }
    }

    /// The lock file, opened through the gate: made (0600, exclusively)
    /// when missing; an existing one must be a regular file that root or
    /// the invoking user owns and nobody else can write — one another user
    /// planted (in a sticky directory) could be held by them forever.
    fn open_lock(&self) -> Result<File> {
        let files = self.files_made()?;
        let lock_path = self.lock_path();
        files
            .dir
            .open_or_create(files.sibling(".lock"), 0o600)
            .map_err(|r| match r {
                Refusal::Io { source, .. } => self.io_error("cannot open its lock file", source),
                r @ (Refusal::Symlink(_) | Refusal::Kind { .. }) => Error::Registry {
                    path: self.path.clone(),
                    message: format!(
                        "its lock file {} {}; remove it (plugctl makes a new one)",
                        lock_path.display(),
                        match &r {
                            Refusal::Symlink(_) => "is a symbolic link".to_string(),
                            Refusal::Kind { is, .. } => format!("is {is}, not a regular file"),
                            _ => r.to_string(),
                        }
                    ),
                },
                r if r.is_insecure() => Error::Registry {
                    path: self.path.clone(),
                    message: format!(
                        "its lock file is not plugctl's: {}; another user could hold it \
                         forever. Remove it (plugctl makes a new one), or pass \
                         --allow-insecure-paths on a lab machine (see docs/security.md)",
                        r
                    ),
                },
                other => self.refused(other),
            })
    }

    /// Waits for the lock on a thread of its own, through `waiter` (a
    /// duplicate of the lock file's descriptor: an flock belongs to the
    /// open file, so the lock it takes is the caller's too). `Some(true)`:
    /// held; `Some(false)`: the deadline passed (the thread, when it gets
    /// the lock later, lets it go at once); None: no thread to be had.
    async fn wait_on_thread(&self, waiter: File, limit: Duration) -> Option<io::Result<bool>> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let given_up = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let seen = std::sync::Arc::clone(&given_up);
        std::thread::Builder::new()
            .name("plugctl-lock".into())
            .spawn(move || {
                let got = waiter.lock();
                // Nobody waits any more: what was taken is given back
                // (closing the last descriptor of the open file releases
                // the lock).
                if seen.load(std::sync::atomic::Ordering::SeqCst) || tx.send(got).is_err() {
                    drop(waiter);
                }
            })
            .ok()?;
        let waited = tokio::time::timeout(limit, rx).await;
        Some(match waited {
            Ok(Ok(Ok(()))) => Ok(true),
            Ok(Ok(Err(e))) => Err(e),
            Ok(Err(_)) => Err(io::Error::other("the lock's waiting thread ended")),
            Err(_) => {
                given_up.store(true, std::sync::atomic::Ordering::SeqCst);
                Ok(false)
            }
        })
    }

    /// Polls for the lock with async sleeps until the deadline.
    async fn wait_polling(&self, file: &File, limit: Duration) -> io::Result<bool> {
        let start = Instant::now();
        let mut pause = Duration::from_millis(1);
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(true),
                Err(TryLockError::WouldBlock) if start.elapsed() >= limit => {
                    return Ok(false);
                }
                Err(TryLockError::WouldBlock) => {}
                Err(TryLockError::Error(e)) => return Err(e),
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(Duration::from_millis(25));
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
    fn write(
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

/// The registry lock, held while this lives (see [`Registry::hold`]).
#[derive(Debug)]
pub struct Held {
    _lock: File,
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
    let cut = ["plugins", "volumes", "events", "operations"]
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

/// The lock file of a holder: its pid written in, for a waiter to name it
/// (best effort: only a hint for the error message).
fn holding(file: File) -> File {
    let _ = file.set_len(0);
    let _ = (&file).write_all(std::process::id().to_string().as_bytes());
    file
}

/// "pid 1234 (plugctl volume create --plugin x ...)", as far as /proc
/// tells: who holds the lock, and doing what.
fn holder_text(pid: Option<u32>) -> String {
    let Some(pid) = pid else {
        return "another process (its pid is unknown)".into();
    };
    let command = fs::read(format!("/proc/{pid}/cmdline"))
        .ok()
        .map(|raw| {
            raw.split(|&b| b == 0)
                .filter(|a| !a.is_empty())
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|c| !c.is_empty());
    match command {
        Some(c) if c.chars().count() > 80 => {
            format!("pid {pid} ({}...)", c.chars().take(80).collect::<String>())
        }
        Some(c) => format!("pid {pid} ({c})"),
        None => format!("pid {pid}"),
    }
}

/// The pid holding the lock. The kernel's lock table says who really
/// holds it (the pid written into the file is only the last plugctl that
/// did, and a process that is not plugctl writes none); the file is the
/// fallback where /proc/locks is not readable.
fn read_pid(file: &mut File) -> Option<u32> {
    holder_from_proc_locks(file).or_else(|| {
        let mut s = String::new();
        file.rewind().ok()?;
        file.read_to_string(&mut s).ok()?;
        s.trim().parse().ok()
    })
}

/// The lock's `maj:min:inode`, as /proc/locks and fdinfo print it.
fn lock_key(file: &File) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let meta = file.metadata().ok()?;
    let dev = meta.dev();
    Some(format!(
        "{:02x}:{:02x}:{}",
        nix::sys::stat::major(dev),
        nix::sys::stat::minor(dev),
        meta.ino()
    ))
}

/// Whether a /proc lock line ("1: FLOCK  ADVISORY  WRITE 1234 00:2a:5678 0
/// EOF") is a lock held (not a blocked request, "->") on `key`.
fn holds(line: &str, key: &str) -> bool {
    !line.contains("->") && line.split_whitespace().nth(5) == Some(key)
}

fn holder_from_proc_locks(file: &File) -> Option<u32> {
    let key = lock_key(file)?;
    // The process whose descriptor carries the lock now: an flock belongs
    // to an open file description, which a holder may have passed to a
    // child; /proc/<pid>/fdinfo shows the lock on each descriptor of it.
    // Only on this error path, so the scan's cost does not matter.
    let me = std::process::id();
    if let Ok(procs) = fs::read_dir("/proc") {
        for p in procs.flatten() {
            let Some(pid) = p.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
                continue;
            };
            if pid == me {
                continue;
            }
            let Ok(fds) = fs::read_dir(p.path().join("fdinfo")) else {
                continue;
            };
            for fd in fds.flatten() {
                if fs::read_to_string(fd.path()).is_ok_and(|info| {
                    info.lines()
                        .filter_map(|l| l.strip_prefix("lock:"))
                        .any(|l| holds(l, &key))
                }) {
                    return Some(pid);
                }
            }
        }
    }
    // Else the process that took it, from the kernel's table.
    let table = fs::read_to_string("/proc/locks").ok()?;
    table
        .lines()
        .find(|l| holds(l, &key))
        .and_then(|l| l.split_whitespace().nth(4)?.parse().ok())
}

/// A refusal of one of the registry's own paths, with the override that
/// lifts it (registry errors are still strings; see `Error::refused` for
/// the hinted form the rest of the core uses).
pub(crate) fn with_override_hint(r: &crate::trust::Refusal) -> String {
    format!(
        "{}; or pass --allow-insecure-paths on a lab machine (see docs/security.md)",
        r.explained()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};

    fn block<F: std::future::Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(f)
    }

    impl Registry {
        fn update_now<T>(&self, f: impl FnOnce(&mut State<'_>) -> Result<T>) -> Result<T> {
            block(self.update(f))
        }

        fn intend_now<T>(
            &self,
            f: impl FnOnce(&mut State<'_>) -> Result<(T, Vec<String>)>,
        ) -> Result<T> {
            block(self.intend(f))
        }

        fn lock_now(&self) -> Result<File> {
            block(self.lock())
        }
    }
    use serde_json::Map;

    const SECRETS: &str = crate::family::Family::Secrets.name();

    fn reg(dir: &Path) -> Registry {
        Registry::new(dir.join("sub/registry.json"), Duration::from_millis(200))
    }

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

    #[test]
    fn the_lock_wait_leaves_the_runtime_free_and_wakes_at_the_release() {
        let d = tempfile::tempdir().unwrap();
        let r = Registry::new(d.path().join("sub/registry.json"), Duration::from_secs(20));
        let held = r.lock_now().unwrap();
        let ticks = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
        let (took, ticked) = block(async {
            let counter = std::sync::Arc::clone(&ticks);
            // Another task on the same (one-thread) runtime keeps running
            // while the transaction waits for the lock.
            let ticker = tokio::spawn(async move {
                loop {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                }
            });
            let release = tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(300)).await;
                drop(held);
            });
            let start = Instant::now();
            r.update(|s| Ok(s.node_id())).await.unwrap();
            let took = start.elapsed();
            release.await.unwrap();
            ticker.abort();
            (took, ticks.load(std::sync::atomic::Ordering::SeqCst))
        });
        assert!(ticked >= 5, "the runtime was held up: {ticked} ticks");
        // Woken by the release, not by the 20 s deadline (generous bound).
        assert!(took < Duration::from_secs(10), "{took:?}");
    }

    #[test]
    fn a_wait_that_timed_out_gives_the_lock_back_when_it_gets_it() {
        let d = tempfile::tempdir().unwrap();
        let r = reg(d.path());
        let held = r.lock_now().unwrap();
        let e = r.update_now(|s| Ok(s.node_id())).unwrap_err();
        assert!(matches!(e, Error::RegistryLocked { .. }), "{e}");
        drop(held);
        // The abandoned waiter took the lock and let it go: not stuck.
        let other = Registry::new(r.path(), Duration::from_secs(20));
        let start = Instant::now();
        other.update_now(|s| Ok(s.node_id())).unwrap();
        assert!(start.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn lock_times_out_naming_the_holder() {
        let d = tempfile::tempdir().unwrap();
        let r = reg(d.path());
        let held = r.lock_now().unwrap();
        let e = r.update_now(|s| Ok(s.node_id())).unwrap_err();
        assert!(matches!(e, Error::RegistryLocked { .. }), "{e}");
        assert!(
            e.to_string()
                .contains(&format!("pid {}", std::process::id())),
            "{e}"
        );
        drop(held);
        assert!(r.update_now(|s| Ok(s.node_id())).is_ok());
    }

    /// Every committed event, in order, as a reader gets them.
    fn events_of(r: &Registry) -> Vec<Event> {
        let head = r.head().unwrap();
        let mut out = Vec::new();
        r.each_event(&head, &mut journal::Pos::default(), 0, |e| {
            out.push(e);
            true
        })
        .unwrap();
        out
    }

    fn names(events: &[Event]) -> Vec<String> {
        events.iter().map(|e| e.name.clone()).collect()
    }

    fn register(r: &Registry, name: &str) -> u64 {
        r.update_now(|s| Ok(s.emit("register", "csi", name, Map::new())))
            .unwrap()
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

    /// Appends raw bytes to the current segment, as a plugctl killed
    /// between its append and its rename would have left them.
    fn append_raw(r: &Registry, bytes: &[u8]) {
        use std::io::Write as _;
        let pos = r.head().unwrap().journal.unwrap();
        let mut f = fs::OpenOptions::new()
            .append(true)
            .open(journal::segment_path(r.path(), pos.segment))
            .unwrap();
        f.write_all(bytes).unwrap();
    }

    const GHOST: &[u8] =
        b"{\"seq\":2,\"kind\":\"register\",\"type\":\"csi\",\"name\":\"ghost\",\"time\":\"t\"}\n";

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

    #[test]
    fn fingerprint_moves_instance_to_front_and_emits_on_change() {
        let mut s = State::default();
        let inst = |path: &str, healthy| Instance {
            source: Source::File,
            path: Some(path.into()),
            alloc_id: None,
            socket: None,
            version: Some("1.0.0".into()),
            healthy,
            error: None,
            duration_ms: Some(1),
            options: Default::default(),
            updated_at: model::now(),
            file: None,
        };
        s.record_fingerprint(SECRETS, "a", inst("/p/a", true));
        s.record_fingerprint(SECRETS, "a", inst("/p/a", true));
        assert_eq!(s.seq, 1, "no event when nothing changed");
        s.record_fingerprint(SECRETS, "a", inst("/q/a", true));
        s.record_fingerprint(SECRETS, "a", inst("/p/a", false));
        assert_eq!(s.seq, 3);
        let list = s.instances(SECRETS, "a");
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].path.as_deref(), Some(Path::new("/p/a")));
        assert!(!list[0].healthy);
    }
}

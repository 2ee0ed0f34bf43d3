//! The registry: what plugctl learned about the node's plugins and
//! volumes, kept in one JSON file beside its journal, its lock file and its
//! owners directory — all reached through the trust gate
//! ([`crate::trust`], via [`file::Files`]).
//!
//! Every change is a transaction (`transaction.rs`) under the exclusive
//! registry lock (`lock.rs`): a whole one (`Registry::update`) appends its
//! events to the journal and rewrites the file (`store.rs`), an intent
//! (`Registry::intend`) only appends volume records to the journal.
//! Readers take no lock: a read ([`Registry::read`]) is the file, which
//! rename replaces atomically, plus the intents the journal committed after
//! it; a follower polls the head of the file alone ([`Registry::head`]). A
//! volume's create or delete is owned by a live process ([`Owners`]), so
//! that `repair` never takes over one still running.
//!
//! Where each part lives:
//! - [`model`], [`records`]: what the file holds; [`rules`]: what a loaded
//!   record must satisfy; [`ledger`]: the running tally of what calls
//!   cost;
//! - `store.rs`: load, parse, check, write (the gate's one atomic replace);
//! - `head.rs`: the committed position and events, for pollers;
//! - `known.rs`: which volume ids are plugctl's (recorded, or named by
//!   its journal), to tell its leftovers from what others made;
//! - `lock.rs`: the lock file, its bounded wait, naming the holder;
//! - `transaction.rs`: `update`, `intend` and the plugins' named
//!   transactions; [`volumes`] and [`dynamic`]: the volumes' and the
//!   dynamic plugins' named transactions and rules;
//! - [`journal`]: segments of events and intents; [`watch`]: waking a
//!   follower when the file is replaced; `owner.rs`: liveness locks.

pub mod dynamic;
pub mod file;
pub mod find;
mod head;
pub mod journal;
mod known;
pub mod ledger;
mod lock;
pub mod model;
mod owner;
pub mod records;
pub mod rules;
mod store;
mod transaction;
pub mod volumes;
pub mod watch;

#[cfg(test)]
pub(crate) mod testing;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub use head::{Head, Storage};
pub use lock::{Held, LOCK_NOTICE_AFTER, Notice};
pub use model::{Event, Instance, SCHEMA_VERSION, Source, State, Volume, VolumeState};
pub use owner::Owners;
pub use store::Snapshot;
pub use transaction::Fingerprinted;

use crate::error::Hint;
use crate::stop::Stop;
use crate::trust::{Policy, Refusal};
use crate::{Error, Result};
use file::Files;

/// One registry file and everything beside it (journal, lock, owners),
/// with the limits and rules it is used by. Cheap to clone: clones share
/// its owners handle, not its cache.
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
    /// Its owners directory and this process's liveness lock in it, shared
    /// by its clones: a create or delete that one of them starts is owned
    /// by the same process as far as the others can tell.
    owners: Arc<Owners>,
}

/// The directory a file lives in (`.` for a bare name).
pub fn parent_dir(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

impl Clone for Registry {
    fn clone(&self) -> Self {
        Registry {
            path: self.path.clone(),
            lock_timeout: self.lock_timeout,
            max_size: self.max_size,
            policy: self.policy,
            segment_max: self.segment_max,
            keep_segments: self.keep_segments,
            // Each value parses for itself: the cache is not shared.
            cache: Mutex::new(None),
            stop: self.stop.clone(),
            notice: self.notice.clone(),
            owners: Arc::clone(&self.owners),
        }
    }
}

/// The default ceiling on the registry's size.
pub const DEFAULT_MAX_SIZE: u64 = 1 << 30;

impl Registry {
    /// The registry at `path` (which need not exist yet), whose writers
    /// wait at most `lock_timeout` for the lock; strict trust rules, the
    /// default size ceiling and journal segments.
    pub fn new(path: impl Into<PathBuf>, lock_timeout: Duration) -> Registry {
        let path: PathBuf = path.into();
        Registry {
            path: path.clone(),
            lock_timeout,
            max_size: DEFAULT_MAX_SIZE,
            policy: Policy::strict(),
            segment_max: journal::SEGMENT_MAX,
            keep_segments: journal::KEEP,
            cache: Mutex::new(None),
            stop: Stop::new(),
            notice: Notice::default(),
            owners: Arc::new(Owners::new(path, Policy::strict())),
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

    /// The size ceiling, and the trust gate's rules (the owner and mode
    /// checks off with `--allow-insecure-paths`, the agent's account
    /// trusted on a Nomad node).
    pub fn with_limits(mut self, max_size: u64, policy: Policy) -> Registry {
        self.max_size = max_size;
        self.policy = policy;
        self.owners = Arc::new(Owners::new(self.path.clone(), self.policy));
        self
    }

    /// Journal segments close at `max` bytes and the newest `keep` are
    /// kept (defaults [`journal::SEGMENT_MAX`], [`journal::KEEP`]).
    pub fn with_segments(mut self, max: u64, keep: u64) -> Registry {
        self.segment_max = max.max(1);
        self.keep_segments = keep.max(1);
        self
    }

    /// The registry file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its owners directory and this process's liveness lock in it:
    /// whether a volume's recorded owner is still at work.
    pub fn owners(&self) -> &Owners {
        &self.owners
    }

    /// Gives up this process's liveness lock file at a normal end (see
    /// [`Owners::release`]); the lock itself goes when the last clone does.
    pub fn release_owner(&self) {
        self.owners.release();
    }

    pub(super) fn dir(&self) -> &Path {
        parent_dir(&self.path)
    }

    /// The registry's directory through the gate; `None` when it does not
    /// exist (no registry yet).
    pub(super) fn files(&self) -> Result<Option<Files>> {
        Files::open(self.policy, &self.path).map_err(|r| self.refused(r))
    }

    /// The registry's directory through the gate, made when missing.
    pub(super) fn files_made(&self) -> Result<Files> {
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

    /// A file plugctl will not use, as a configuration error (exit 2) that
    /// says why and what to do.
    pub(super) fn refused(&self, r: Refusal) -> Error {
        let ours = r.path() == self.path;
        let (message, hint) = match r {
            Refusal::NotFound(p) if p == self.path => ("does not exist".to_string(), None),
            Refusal::Symlink(p) if p == self.path => (
                "is a symbolic link, which plugctl never follows for its own files; left \
                 untouched"
                    .to_string(),
                Some(Hint::RegistryPath),
            ),
            Refusal::Kind { is, .. } if ours => (
                format!("is {is}, not a regular file; left untouched"),
                Some(Hint::RegistryPath),
            ),
            Refusal::TooLarge { size, max, .. } => (
                format!("is {size} bytes, more than the limit of {max} bytes; refusing to read it"),
                Some(Hint::RegistryMaxSize),
            ),
            r if r.is_insecure() && !ours => (
                format!("refusing to trust its directory: {r}"),
                Some(Hint::AllowInsecurePaths),
            ),
            r if r.is_insecure() => (r.explained(), Some(Hint::AllowInsecurePaths)),
            Refusal::Kind {
                path,
                is,
                want: "a directory",
            } => {
                let is = if is == "a regular file" { "a file" } else { is };
                (
                    format!(
                        "cannot use its directory {}: {} is {is}, not a directory",
                        self.dir().display(),
                        path.display()
                    ),
                    None,
                )
            }
            Refusal::Io { source, .. } if ours => return self.io_error("cannot open", source),
            Refusal::Io { path, source } => {
                return self.io_error(&format!("cannot open {}", path.display()), source);
            }
            other => (format!("{other}; left untouched"), None),
        };
        let e = Error::Registry {
            path: self.path.clone(),
            message,
        };
        match hint {
            Some(hint) => e.hint(hint),
            None => e,
        }
    }

    /// An I/O failure on the registry. One the operator must fix where the
    /// registry lives (no permission, a read-only file system) is a
    /// configuration error (exit 2) that says what to do; others (a full
    /// disk, an I/O error) are failures of the operation (exit 1).
    pub(super) fn io_error(&self, what: &str, e: io::Error) -> Error {
        if let Some(planted) = e
            .get_ref()
            .and_then(|i| i.downcast_ref::<journal::Planted>())
        {
            return Error::Registry {
                path: self.path.clone(),
                message: format!("{what}: {planted}"),
            };
        }
        let (why, hint) = match e.kind() {
            io::ErrorKind::PermissionDenied => (
                Some(format!(
                    "plugctl runs as uid {} and needs read and write access to {} and the \
                     files in it",
                    nix::unistd::geteuid(),
                    self.dir().display()
                )),
                Hint::RegistryAccess,
            ),
            io::ErrorKind::ReadOnlyFilesystem => (
                Some(format!(
                    "{} is on a read-only file system",
                    self.dir().display()
                )),
                Hint::AnotherRegistry,
            ),
            io::ErrorKind::IsADirectory => (None, Hint::RegistryPath),
            io::ErrorKind::NotADirectory => {
                return Error::Registry {
                    path: self.path.clone(),
                    message: format!("{what}: {e}; a part of its path is a file, not a directory"),
                };
            }
            _ => return Error::io(format!("registry {}: {what}", self.path.display()), e),
        };
        Error::Registry {
            path: self.path.clone(),
            message: match why {
                Some(why) => format!("{what}: {e}; {why}"),
                None => format!("{what}: {e}"),
            },
        }
        .hint(hint)
    }
}

//! Who is at work on a volume: the liveness locks of one registry.
//!
//! A `pending` or `deleting` record names its owner ([`Owner`]): the
//! plugctl process running its create or delete. That process holds an
//! `flock` on `<registry>.owners/<pid>-<start>-<token>.lock` for as long as
//! it lives, so another plugctl knows it is still at work by trying the
//! lock — which neither pid reuse nor a PID namespace (a container and its
//! host) can fake. A record without a lock token (written before them) has
//! only its pid and start time to go by.
//!
//! Each [`super::Registry`] owns one [`Owners`]: its owners directory and
//! this process's liveness lock in it, taken at the first create, delete,
//! restore or repair and held until the handle is released or dropped.
//! Two registries in one process are two owners, each with its own lock.
//!
//! The owners directory is reached through the trust gate with the
//! registry's rules: never a symlink, never a directory another user owns
//! or can write (either would let them delete root's liveness locks, so
//! that `repair` takes over a create still running, or make `repair` delete
//! what the link points to). When the gate refuses it, this process holds
//! no liveness lock, and nothing that would record it as an owner starts
//! ([`Owners::refused`]).

use std::fs::{File, TryLockError};
use std::path::PathBuf;
use std::sync::OnceLock;

use super::file::{Files, OWNERS_SUFFIX};
use super::model::Owner;
use crate::error::Hint;
use crate::trust::{CheckedDir, Policy, Refusal};

/// One registry's owners directory, and this process's liveness lock in
/// it (see the module docs). Shared by the clones of its registry.
#[derive(Debug)]
pub struct Owners {
    /// The registry file: the directory is `<registry>.owners` beside it.
    registry: PathBuf,
    /// The gate's rules, the registry's own.
    policy: Policy,
    /// This process as an owner, taken on first need.
    me: OnceLock<Me>,
    /// This process's start time, asked of /proc once: it never changes,
    /// and `volume list` asks whether every owner it shows is this process.
    started: OnceLock<u64>,
}

/// This process as an owner, the lock it holds while it lives, and why it
/// holds none when the owners directory was refused.
#[derive(Debug)]
struct Me {
    owner: Owner,
    _lock: Option<File>,
    refused: Option<(String, Option<Hint>)>,
}

/// The name of an owner's lock file.
fn lock_name(o: &Owner, token: u32) -> String {
    format!("{}-{}-{token:08x}.lock", o.pid, o.started)
}

/// What `/proc/<pid>/stat` says of a process: its state letter and its
/// start time (clock ticks after boot). None when it is gone (or /proc
/// cannot tell).
fn proc_stat(pid: u32) -> Option<(char, u64)> {
    let stat = procfs::process::Process::new(i32::try_from(pid).ok()?)
        .ok()?
        .stat()
        .ok()?;
    Some((stat.state, stat.starttime))
}

/// A process's start time, 0 when unknown (an owner recorded with 0 is
/// judged by its pid alone).
fn start_time(pid: u32) -> u64 {
    proc_stat(pid).map_or(0, |(_, t)| t)
}

impl Owners {
    /// The owners of the registry at `registry`, judged by `policy`.
    /// Touches nothing until it is needed.
    pub(crate) fn new(registry: PathBuf, policy: Policy) -> Owners {
        Owners {
            registry,
            policy,
            me: OnceLock::new(),
            started: OnceLock::new(),
        }
    }

    /// This process's start time (see [`start_time`]).
    fn my_start_time(&self) -> u64 {
        *self.started.get_or_init(|| start_time(std::process::id()))
    }

    /// The owners directory through the gate. `make`: create it (0700)
    /// when missing. `None`: it (`make` false) or the registry's directory
    /// is not there.
    fn dir(&self, make: bool) -> Option<Result<CheckedDir, Refusal>> {
        let files = if make {
            Files::create(self.policy, &self.registry)
        } else {
            match Files::open(self.policy, &self.registry) {
                Ok(Some(f)) => Ok(f),
                Ok(None) => return None,
                Err(r) => Err(r),
            }
        };
        let dir = files.and_then(|files| {
            let name = files.sibling(OWNERS_SUFFIX);
            if make {
                files.dir.ensure_subdir(name, 0o700)
            } else {
                files.dir.subdir(name)
            }
        });
        match dir {
            Err(r) if !make && r.is_not_found() => None,
            other => Some(other),
        }
    }

    /// This process as an owner: the first call takes its liveness lock.
    fn take(&self) -> &Me {
        self.me.get_or_init(|| {
            let mut owner = Owner {
                pid: std::process::id(),
                started: self.my_start_time(),
                lock: None,
            };
            let token = uuid::Uuid::new_v4().as_u128() as u32;
            let mut refused = None;
            let lock = match self.dir(true) {
                Some(Ok(dir)) => locked(&dir, &lock_name(&owner, token)),
                Some(Err(r)) => {
                    refused = Some((
                        r.explained(),
                        r.is_insecure().then_some(Hint::AllowInsecurePaths),
                    ));
                    None
                }
                None => None,
            };
            if lock.is_some() {
                owner.lock = Some(token);
            }
            Me {
                owner,
                _lock: lock,
                refused,
            }
        })
    }

    /// This process, as the owner a create or delete records. The first
    /// call takes its liveness lock: an flock on
    /// `<registry>.owners/<pid>-<start>-<token>.lock`, held while this
    /// handle lives.
    pub fn me(&self) -> Owner {
        self.take().owner
    }

    /// Why this process could not take its liveness lock, when the gate
    /// refused the owners directory: a create or delete must not start then
    /// (its record would be taken over as if its owner had died).
    /// With what would lift the refusal, if anything.
    pub fn refused(&self) -> Option<(&str, Option<&Hint>)> {
        self.take()
            .refused
            .as_ref()
            .map(|(why, hint)| (why.as_str(), hint.as_ref()))
    }

    /// `o` still runs: it holds its liveness lock. A record without one,
    /// or whose owners directory the gate refuses, falls back to the pid
    /// (not a zombie, and not a later process that reused the pid), which
    /// only holds inside one PID namespace.
    pub fn alive(&self, o: &Owner) -> bool {
        if self.is_me(o) {
            return true;
        }
        if let Some(token) = o.lock {
            match self.dir(false) {
                Some(Ok(dir)) => {
                    let name = lock_name(o, token);
                    let Ok(file) = dir.open_existing(&name) else {
                        return false;
                    };
                    return match file.try_lock() {
                        Err(TryLockError::WouldBlock) => true,
                        Ok(()) => {
                            // Its owner is gone: the file is litter.
                            let _ = dir.unlink(&name);
                            false
                        }
                        Err(TryLockError::Error(_)) => false,
                    };
                }
                // No owners directory at all: every lock in it is gone.
                None => return false,
                // Refused: its locks cannot be believed either way.
                Some(Err(_)) => {}
            }
        }
        let Some((state, started)) = proc_stat(o.pid) else {
            return false;
        };
        state != 'Z' && state != 'X' && (o.started == 0 || started == o.started)
    }

    /// `o` is alive and not this process: another plugctl is at work.
    pub fn is_other_live(&self, o: &Owner) -> bool {
        !self.is_me(o) && self.alive(o)
    }

    /// `o` is this process, without taking a liveness lock (reading needs
    /// none): before one is taken, the pid and start time tell.
    pub fn is_me(&self, o: &Owner) -> bool {
        match self.me.get() {
            Some(me) => *o == me.owner,
            None => o.pid == std::process::id() && o.started == self.my_start_time(),
        }
    }

    /// Removes the lock files of owners that are gone: only regular files of
    /// the trusted owners directory that nobody holds locked.
    pub fn sweep(&self) {
        let Some(Ok(dir)) = self.dir(false) else {
            return;
        };
        let Ok(entries) = dir.entries() else {
            return;
        };
        for (name, _) in entries {
            if let Ok(file) = dir.open_existing(&name)
                && file.try_lock().is_ok()
            {
                let _ = dir.unlink(&name);
            }
        }
    }

    /// Gives up this process's liveness lock file, when it took one (at a
    /// normal end; a killed plugctl leaves the file, which [`Owners::sweep`]
    /// or the next look at a record naming it removes). The last owner out
    /// removes the directory. The lock itself goes with the handle.
    pub fn release(&self) {
        if let Some(me) = self.me.get()
            && let Some(token) = me.owner.lock
            && let Some(Ok(dir)) = self.dir(false)
        {
            let _ = dir.unlink(lock_name(&me.owner, token));
            // Fails while others hold locks in it, as it should.
            if let Ok(Some(files)) = Files::open(self.policy, &self.registry) {
                let _ = files.dir.remove_dir(files.sibling(OWNERS_SUFFIX));
            }
        }
    }
}

/// `name` in `dir`, created and locked, and still the file that has that
/// name once the lock is held: another plugctl's [`Owners::sweep`] may
/// unlink the file between its creation and its lock (unlocked, it looked
/// like litter), and a lock on a file nobody can find by name would let
/// `volume repair` take this process for dead.
fn locked(dir: &CheckedDir, name: &str) -> Option<File> {
    for _ in 0..3 {
        let file = dir.open_or_create(name, 0o600).ok()?;
        file.try_lock().ok()?;
        let held = rustix::fs::fstat(&file).ok()?;
        if let Ok(Some(named)) = dir.stat(name)
            && (named.dev, named.ino) == (held.st_dev, held.st_ino)
        {
            return Some(file);
        }
    }
    None
}

impl Drop for Owners {
    /// A handle that goes takes its lock with it: its file goes too.
    fn drop(&mut self) {
        self.release();
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::trust::Policy;

    /// The owners of a registry in `dir` (which need not exist yet).
    pub(crate) fn owners(dir: &std::path::Path) -> Owners {
        Owners::new(dir.join("registry.json"), Policy::strict())
    }

    /// Owners in a temporary directory of their own, gone with them.
    pub(crate) struct Scratch {
        // Before the directory: the handle releases its lock file first.
        owners: Owners,
        _dir: tempfile::TempDir,
    }

    impl std::ops::Deref for Scratch {
        type Target = Owners;
        fn deref(&self) -> &Owners {
            &self.owners
        }
    }

    pub(crate) fn scratch() -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        Scratch {
            owners: owners(dir.path()),
            _dir: dir,
        }
    }

    #[test]
    fn own_start_time_is_known() {
        let d = tempfile::tempdir().unwrap();
        let owners = owners(d.path());
        let me = owners.me();
        assert!(me.started > 0);
        assert!(owners.alive(&me));
        assert!(!owners.is_other_live(&me));
        let reused = Owner {
            pid: me.pid,
            started: me.started + 1,
            lock: None,
        };
        assert!(!owners.alive(&reused));
        // The command name may hold spaces and parentheses: the fields are
        // counted after its last `)`.
        use procfs::FromRead;
        let line = "42 (a) b) c) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 999 \
                    1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
        let stat = procfs::process::Stat::from_read(line.as_bytes()).unwrap();
        assert_eq!((stat.state, stat.starttime), ('S', 999));
    }

    #[test]
    fn two_registries_in_one_process_are_two_owners() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let (first, second) = (owners(a.path()), owners(b.path()));
        let (one, two) = (first.me(), second.me());
        assert!(one.lock.is_some() && two.lock.is_some());
        assert_ne!(one, two, "each holds its own lock");
        let file = |dir: &std::path::Path, o: Owner| {
            dir.join("registry.json.owners")
                .join(lock_name(&o, o.lock.unwrap()))
        };
        assert!(file(a.path(), one).exists() && file(b.path(), two).exists());
        assert!(first.is_me(&one) && !first.is_other_live(&one));
        assert!(!first.is_me(&two));
        // A second handle on the same registry is another owner, alive.
        let again = owners(a.path());
        let three = again.me();
        assert!(again.is_other_live(&one) && first.is_other_live(&three));
        // A dropped handle takes its lock and its file with it; the last
        // one out takes the directory.
        drop(again);
        assert!(!file(a.path(), three).exists() && !first.alive(&three));
        drop(second);
        assert!(!b.path().join("registry.json.owners").exists());
        assert!(first.alive(&one) && file(a.path(), one).exists());
    }
}

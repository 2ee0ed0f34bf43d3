//! The registry lock: an exclusive `flock` on `<registry>.lock`, held by
//! every writer for the length of one transaction (readers need none).
//!
//! The lock lives in its own file, not on the registry: the registry is
//! replaced by rename on every write, so a lock on it would be a lock on a
//! file that no longer has a name.
//!
//! The wait is bounded (`--lock-timeout`) and never holds up the async
//! runtime's one thread: a blocking `flock` on a thread of its own, woken
//! the moment the holder lets go. A wait that lasts is said once through
//! the command's [`Notice`], and a wait that gives up names the holder —
//! found in the kernel's lock table through the `procfs` crate, the one
//! place the registry reads `/proc` for it.

use std::fs::{File, TryLockError};
use std::io::{self, Read, Seek, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::Registry;
use super::file::LOCK_SUFFIX;
use crate::error::Hint;
use crate::trust::Refusal;
use crate::{Error, Result};

/// How long a lock wait goes unsaid.
pub const LOCK_NOTICE_AFTER: Duration = Duration::from_secs(1);

/// Where the lock wait is said (the command's printer): a callback, so the
/// registry prints nothing itself.
#[derive(Clone, Default)]
pub struct Notice(Option<std::sync::Arc<Say>>);

/// What a [`Notice`] calls with the sentence, and with what would change
/// what it says, for the front end to word.
type Say = dyn Fn(&str, Option<&Hint>) + Send + Sync;

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
    /// A notice that hands each sentence, and its hint, to `f`.
    pub fn new(f: impl Fn(&str, Option<&Hint>) + Send + Sync + 'static) -> Notice {
        Notice(Some(std::sync::Arc::new(f)))
    }

    fn say(&self, what: &str, hint: Option<&Hint>) {
        if let Some(f) = &self.0 {
            f(what, hint);
        }
    }
}

/// The registry lock, held while this lives (see [`Registry::hold`]).
#[derive(Debug)]
pub struct Held {
    _lock: File,
}

impl Registry {
    /// `<registry>.lock`, for messages.
    fn lock_path(&self) -> PathBuf {
        let mut name = self.path.file_name().unwrap_or_default().to_os_string();
        name.push(LOCK_SUFFIX);
        self.path.with_file_name(name)
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
    pub(super) async fn lock(&self) -> Result<File> {
        let start = Instant::now();
        loop {
            let mut file = self.open_lock()?;
            let got = match file.try_lock() {
                Ok(()) => Ok(true),
                Err(TryLockError::WouldBlock) => {
                    // Quietly for a moment, then saying whom it waits for.
                    let left = self.lock_timeout.saturating_sub(start.elapsed());
                    let quiet = left.min(LOCK_NOTICE_AFTER.saturating_sub(start.elapsed()));
                    match wait(&file, quiet).await {
                        Ok(false) if left > quiet => {
                            self.notice.say(
                                &format!(
                                    "waiting for the registry lock held by {}",
                                    holder_text(read_pid(&mut file)),
                                ),
                                Some(&Hint::LockTimeout {
                                    left: Duration::from_secs(
                                        (left - quiet).as_secs_f64().round() as u64
                                    ),
                                }),
                            );
                            wait(&file, left - quiet).await
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

    /// Whether `file` is still the one the lock file's name holds.
    fn is_lock_file(&self, file: &File) -> bool {
        use std::os::unix::fs::MetadataExt;
        let now = self
            .files()
            .ok()
            .flatten()
            .and_then(|f| f.dir.stat(f.sibling(LOCK_SUFFIX)).ok().flatten());
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
            .open_or_create(files.sibling(LOCK_SUFFIX), 0o600)
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
                         forever. Remove it (plugctl makes a new one)",
                        r
                    ),
                }
                .hint(Hint::AllowInsecurePaths),
                other => self.refused(other),
            })
    }
}

/// Waits up to `limit` for the lock on `file`: on a thread of its own, or
/// by polling when no thread is to be had.
async fn wait(file: &File, limit: Duration) -> io::Result<bool> {
    let waited = match file.try_clone() {
        Ok(waiter) => wait_on_thread(waiter, limit).await,
        Err(_) => None,
    };
    match waited {
        Some(got) => got,
        None => wait_polling(file, limit).await,
    }
}

/// Waits for the lock on a thread of its own, through `waiter` (a
/// duplicate of the lock file's descriptor: an flock belongs to the open
/// file, so the lock it takes is the caller's too). `Some(true)`: held;
/// `Some(false)`: the deadline passed (the thread, when it gets the lock
/// later, lets it go at once); None: no thread to be had.
async fn wait_on_thread(waiter: File, limit: Duration) -> Option<io::Result<bool>> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    let given_up = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let seen = std::sync::Arc::clone(&given_up);
    std::thread::Builder::new()
        .name("plugctl-lock".into())
        .spawn(move || {
            let got = waiter.lock();
            // Nobody waits any more: what was taken is given back (closing
            // the last descriptor of the open file releases the lock).
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
async fn wait_polling(file: &File, limit: Duration) -> io::Result<bool> {
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
    let process = i32::try_from(pid)
        .ok()
        .and_then(|pid| procfs::process::Process::new(pid).ok());
    // Its command line; else (one that is not UTF-8, which procfs does not
    // read) its command name.
    let command = process.and_then(|p| {
        p.cmdline()
            .ok()
            .map(|args| args.join(" "))
            .filter(|c| !c.is_empty())
            .or_else(|| p.stat().ok().map(|s| s.comm))
    });
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
/// fallback where /proc does not tell.
fn read_pid(file: &mut File) -> Option<u32> {
    holder::find(file).or_else(|| {
        let mut s = String::new();
        file.rewind().ok()?;
        file.read_to_string(&mut s).ok()?;
        s.trim().parse().ok()
    })
}

/// Who holds an flock, from /proc through `procfs`. Only on a wait that
/// lasts or gives up, so the scan's cost does not matter.
mod holder {
    use std::fs::File;

    use procfs::FromBufRead;
    use procfs::process::FDTarget;
    use procfs::{Lock, LockType, Locks};

    /// The locked file as the kernel names it: device and inode.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(super) struct Key {
        major: u64,
        minor: u64,
        inode: u64,
    }

    impl Key {
        pub(super) fn of(file: &File) -> Option<Key> {
            use std::os::unix::fs::MetadataExt;
            let meta = file.metadata().ok()?;
            Some(Key {
                major: nix::sys::stat::major(meta.dev()),
                minor: nix::sys::stat::minor(meta.dev()),
                inode: meta.ino(),
            })
        }

        /// `lock` is an flock on this file.
        pub(super) fn is(&self, lock: &Lock) -> bool {
            lock.lock_type == LockType::FLock
                && u64::from(lock.devmaj) == self.major
                && u64::from(lock.devmin) == self.minor
                && lock.inode == self.inode
        }
    }

    /// The process holding the flock on `file`, other than this one when
    /// another holds it through a descriptor.
    pub(super) fn find(file: &File) -> Option<u32> {
        let key = Key::of(file)?;
        by_descriptor(key).or_else(|| by_table(key))
    }

    /// The process whose descriptor carries the lock now: an flock belongs
    /// to an open file description, which a holder may have passed to a
    /// child; `/proc/<pid>/fdinfo/<fd>` shows the lock on each descriptor
    /// of it. (procfs reads no fdinfo, but its `lock:` lines are the lines
    /// of /proc/locks, which procfs parses.)
    fn by_descriptor(key: Key) -> Option<u32> {
        let me = i32::try_from(std::process::id()).ok()?;
        for p in procfs::process::all_processes().ok()?.flatten() {
            if p.pid == me {
                continue;
            }
            let Ok(fds) = p.fd() else { continue };
            for fd in fds.flatten() {
                // Only a file carries an flock.
                if !matches!(fd.target, FDTarget::Path(_)) {
                    continue;
                }
                let Ok(info) = std::fs::read_to_string(format!("/proc/{}/fdinfo/{}", p.pid, fd.fd))
                else {
                    continue;
                };
                if locks_in_fdinfo(&info).iter().any(|l| key.is(l)) {
                    return u32::try_from(p.pid).ok();
                }
            }
        }
        None
    }

    /// The locks an fdinfo file shows, each after `lock:`.
    pub(super) fn locks_in_fdinfo(info: &str) -> Vec<Lock> {
        let lines: Vec<&str> = info
            .lines()
            .filter_map(|l| l.strip_prefix("lock:"))
            .map(str::trim)
            .collect();
        Locks::from_buf_read(lines.join("\n").as_bytes())
            .map(|l| l.0)
            .unwrap_or_default()
    }

    /// Else the process that took it, from the kernel's table. A request
    /// still blocked on the lock is listed after it ("->"), so the first
    /// entry for the file is the one held.
    fn by_table(key: Key) -> Option<u32> {
        let table = procfs::locks().ok()?;
        let held = table.iter().find(|l| key.is(l))?;
        u32::try_from(held.pid?).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{block, reg};
    use super::*;
    use crate::registry::State;

    impl Registry {
        fn lock_now(&self) -> Result<File> {
            block(self.lock())
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
            r.update(|s: &mut State<'_>| Ok(s.node_id())).await.unwrap();
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

    #[test]
    fn the_holder_is_found_in_the_kernels_lock_table() {
        let d = tempfile::tempdir().unwrap();
        let r = reg(d.path());
        let held = r.lock_now().unwrap();
        let key = holder::Key::of(&held).unwrap();
        let table = procfs::locks().unwrap();
        let mine = table.iter().find(|l| key.is(l)).expect("listed");
        assert_eq!(mine.pid, Some(std::process::id() as i32));
        // fdinfo shows it on this descriptor, in /proc/locks' own words.
        use std::os::fd::AsRawFd;
        let info =
            std::fs::read_to_string(format!("/proc/self/fdinfo/{}", held.as_raw_fd())).unwrap();
        assert!(
            holder::locks_in_fdinfo(&info).iter().any(|l| key.is(l)),
            "{info}"
        );
        assert_eq!(holder_text(None), "another process (its pid is unknown)");
        assert!(
            holder_text(Some(std::process::id()))
                .starts_with(&format!("pid {} (", std::process::id()))
        );
    }
}

//! The stop token and the time paused: what a signal tells the rest of
//! plugctl. [`crate::shutdown`] owns the signals and fires these; the
//! runner, the fan-out, the printer, the registry and the waiting commands
//! only listen, so this module needs nothing of theirs.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The one place a shutdown is announced: the signal thread sends the
/// exit code, every [`Stop`] sees it (a watch channel works across the
/// signal thread's runtime and the command's).
fn announcer() -> &'static tokio::sync::watch::Sender<i32> {
    static TX: std::sync::OnceLock<tokio::sync::watch::Sender<i32>> = std::sync::OnceLock::new();
    TX.get_or_init(|| tokio::sync::watch::Sender::new(0))
}

/// Fires every process [`Stop`] with the exit code the shutdown will give
/// (called by [`crate::shutdown`] when a stopping signal arrives).
pub fn announce(code: i32) {
    announcer().send_replace(code);
}

/// A cancellation token for everything that must stop when plugctl is
/// asked to: the fan-out stops starting calls, `events --follow` and
/// `plugin wait` stop waiting, the printer stops printing results that are
/// the signal's doing. Cheap to clone; every clone sees the same shutdown.
#[derive(Debug, Clone)]
pub struct Stop(tokio::sync::watch::Receiver<i32>);

impl Stop {
    /// A token for the process's shutdown.
    pub fn new() -> Stop {
        Stop(announcer().subscribe())
    }

    /// A token of its own that only [`Stop::stop`] on it (or a clone)
    /// fires: for library users and tests that are not the process.
    pub fn detached() -> (Stop, StopHandle) {
        let (tx, rx) = tokio::sync::watch::channel(0);
        (Stop(rx), StopHandle(tx))
    }

    /// The exit code of the shutdown under way, if one is. From then on
    /// the shutdown owns the exit: the command's own flow sees its plugins
    /// die and must neither report that as their failure nor exit with a
    /// code of its own.
    pub fn stopped(&self) -> Option<i32> {
        match *self.0.borrow() {
            0 => None,
            code => Some(code),
        }
    }

    /// Resolves once a shutdown is under way (at once if it already is).
    pub async fn wait(&self) -> i32 {
        let mut rx = self.0.clone();
        // The borrow the wait returns is dropped before anything else is
        // awaited, so the future stays Send.
        let code = rx.wait_for(|&code| code != 0).await.map(|code| *code);
        match code {
            Ok(code) => code,
            // The sender is static for the process's token and held by the
            // handle for a detached one: gone means never stopping.
            Err(_) => std::future::pending().await,
        }
    }
}

impl Default for Stop {
    fn default() -> Self {
        Stop::new()
    }
}

/// Fires a detached [`Stop`].
#[derive(Debug)]
pub struct StopHandle(tokio::sync::watch::Sender<i32>);

impl StopHandle {
    pub fn stop(&self, code: i32) {
        self.0.send_replace(code);
    }
}

/// Nanoseconds plugctl has spent stopped by job control.
static PAUSED_NANOS: AtomicU64 = AtomicU64::new(0);

/// How long plugctl has been stopped (Ctrl-Z) in all: a deadline measured
/// from an instant adds the growth of this since that instant.
pub fn paused() -> Duration {
    // A stop still under way counts already: the call that wakes first on
    // SIGCONT must not see its deadline passed before the stop is added.
    let since = STOPPED_SINCE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .map(|t| t.elapsed());
    Duration::from_nanos(PAUSED_NANOS.load(Ordering::SeqCst)) + since.unwrap_or_default()
}

/// When the stop under way began (set before plugctl stops itself).
static STOPPED_SINCE: Mutex<Option<std::time::Instant>> = Mutex::new(None);

/// Runs `stop` (which returns once plugctl is resumed) and adds the time
/// it took to [`paused`].
pub fn pausing(stop: impl FnOnce()) {
    let stopped_at = std::time::Instant::now();
    *STOPPED_SINCE.lock().unwrap_or_else(|e| e.into_inner()) = Some(stopped_at);
    stop();
    let stopped = stopped_at.elapsed();
    // Added before the stop is cleared: for a moment it counts twice,
    // which only ever lengthens a deadline.
    PAUSED_NANOS.fetch_add(
        u64::try_from(stopped.as_nanos()).unwrap_or(u64::MAX),
        Ordering::SeqCst,
    );
    *STOPPED_SINCE.lock().unwrap_or_else(|e| e.into_inner()) = None;
}

/// Directories removed if plugctl is stopped by a signal: a scratch
/// directory whose owner would otherwise never get to clean up, as a
/// shutdown exits without unwinding ([`remove_scratch_dirs`]).
static SCRATCH: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes `dir` (recursively) if plugctl is stopped by a signal while the
/// returned guard lives; dropping the guard hands the directory back.
pub fn remove_on_interrupt(dir: &Path) -> ScratchGuard {
    SCRATCH
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(dir.to_path_buf());
    ScratchGuard(dir.to_path_buf())
}

#[must_use = "the directory is only protected while the guard lives"]
pub struct ScratchGuard(PathBuf);

impl Drop for ScratchGuard {
    fn drop(&mut self) {
        let mut dirs = SCRATCH.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(at) = dirs.iter().position(|d| *d == self.0) {
            dirs.remove(at);
        }
    }
}

/// Removes every directory [`remove_on_interrupt`] guards (the shutdown
/// calls it, as it exits without unwinding).
pub fn remove_scratch_dirs() {
    for dir in SCRATCH.lock().unwrap_or_else(|e| e.into_inner()).drain(..) {
        let _ = std::fs::remove_dir_all(dir);
    }
}

//! One module owns signals. Every signal that asks plugctl to stop — INT
//! (Ctrl-C), TERM (a supervisor), HUP (a dropped SSH session), QUIT, USR1,
//! USR2, ALRM — stops it the same careful way: no new plugin call starts,
//! every live plugin's process group gets SIGTERM, then SIGKILL after its
//! grace (at most 2 s), scratch directories are removed, and plugctl exits
//! 128 + the signal's number. The registry needs nothing: every change is
//! one atomic replace, so an interrupted command leaves the old file or the
//! new one, and a create interrupted mid-call stays `pending` for `volume
//! repair`.
//!
//! Job control, as in cargo-nextest: Ctrl-Z (TSTP) stops the plugin groups,
//! then plugctl; CONT resumes plugctl, then the groups; the time stopped is
//! not counted against any plugin's deadline ([`paused`]).
//!
//! SIGPIPE stays ignored (Rust's default): a reader that goes away shows up
//! as a broken-pipe write error, which ends plugctl quietly with 0.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use nix::sys::signal::{Signal, killpg};
use tokio::signal::unix::{SignalKind, signal};
use tokio::time::Instant;

use crate::runner;

/// The signals that stop plugctl, with the exit code each gives.
const STOPPING: &[(Signal, i32)] = &[
    (Signal::SIGINT, 130),
    (Signal::SIGTERM, 143),
    (Signal::SIGHUP, 129),
    (Signal::SIGQUIT, 131),
    (Signal::SIGUSR1, 138),
    (Signal::SIGUSR2, 140),
    (Signal::SIGALRM, 142),
];

/// The one place a shutdown is announced: the signal thread sends the
/// exit code, every [`Stop`] sees it (a watch channel works across the
/// signal thread's runtime and the command's).
fn announcer() -> &'static tokio::sync::watch::Sender<i32> {
    static TX: std::sync::OnceLock<tokio::sync::watch::Sender<i32>> = std::sync::OnceLock::new();
    TX.get_or_init(|| tokio::sync::watch::Sender::new(0))
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

/// Directories removed if plugctl is stopped by a signal: a scratch
/// directory whose owner would otherwise never get to clean up, as the
/// shutdown exits without unwinding.
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

/// Installs the handlers: one task receives every signal and turns it into
/// a shutdown or a job-control step. The task runs on a thread of its own
/// when one can be had, so that a command blocked in a system call (a
/// registry lock wait, reaping) still stops at once; else on the caller's
/// runtime. Only the first call installs anything.
///
/// # Panics
/// Outside a Tokio runtime (for the fallback).
pub fn install() -> std::io::Result<()> {
    static INSTALLED: AtomicBool = AtomicBool::new(false);
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return Ok(());
    }
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("plugctl-signals".into())
        .spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(rt) => rt,
                Err(e) => {
                    let _ = ready_tx.send(Err(e));
                    return;
                }
            };
            runtime.block_on(async move {
                match listen() {
                    Ok(handlers) => {
                        let _ = ready_tx.send(Ok(()));
                        handle(handlers).await;
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                    }
                }
            });
        });
    let result = match spawned {
        Ok(_) => ready_rx
            .recv()
            .unwrap_or_else(|_| Err(std::io::Error::other("the signal thread ended"))),
        // No thread to be had (a low process limit): the caller's runtime
        // runs the handler between its other tasks.
        Err(_) => listen().map(|handlers| {
            tokio::spawn(handle(handlers));
        }),
    };
    if result.is_err() {
        INSTALLED.store(false, Ordering::SeqCst);
    }
    result
}

type Streams = (
    Vec<(tokio::signal::unix::Signal, i32)>,
    tokio::signal::unix::Signal,
);

fn listen() -> std::io::Result<Streams> {
    let mut stopping = Vec::with_capacity(STOPPING.len());
    for &(sig, code) in STOPPING {
        stopping.push((signal(SignalKind::from_raw(sig as i32))?, code));
    }
    let tstp = signal(SignalKind::from_raw(Signal::SIGTSTP as i32))?;
    Ok((stopping, tstp))
}

async fn handle((mut stopping, mut tstp): Streams) {
    loop {
        // The first stopping signal, or a Ctrl-Z.
        let any = futures_first(&mut stopping);
        tokio::select! {
            code = any => {
                shut_down(code, &mut stopping).await;
                return;
            }
            _ = tstp.recv() => suspend(),
        }
    }
}

/// Waits for any of the stopping signals; its exit code.
async fn futures_first(streams: &mut [(tokio::signal::unix::Signal, i32)]) -> i32 {
    std::future::poll_fn(|cx| {
        for (s, code) in streams.iter_mut() {
            if s.poll_recv(cx).is_ready() {
                return std::task::Poll::Ready(*code);
            }
        }
        std::task::Poll::Pending
    })
    .await
}

/// Ctrl-Z: stop the plugins' groups, then ourselves; on SIGCONT, resume
/// them and add the time stopped to [`paused`].
fn suspend() {
    let groups = runner::live_groups();
    for &g in &groups {
        let _ = killpg(nix::unistd::Pid::from_raw(g), Signal::SIGSTOP);
    }
    let stopped_at = std::time::Instant::now();
    *STOPPED_SINCE.lock().unwrap_or_else(|e| e.into_inner()) = Some(stopped_at);
    // SIGSTOP cannot be caught: this returns once someone sends SIGCONT.
    let _ = nix::sys::signal::raise(Signal::SIGSTOP);
    let stopped = stopped_at.elapsed();
    // Added before the stop is cleared: for a moment it counts twice,
    // which only ever lengthens a deadline.
    PAUSED_NANOS.fetch_add(
        u64::try_from(stopped.as_nanos()).unwrap_or(u64::MAX),
        Ordering::SeqCst,
    );
    *STOPPED_SINCE.lock().unwrap_or_else(|e| e.into_inner()) = None;
    for &g in &groups {
        let _ = killpg(nix::unistd::Pid::from_raw(g), Signal::SIGCONT);
    }
}

async fn shut_down(code: i32, stopping: &mut [(tokio::signal::unix::Signal, i32)]) {
    announcer().send_replace(code);
    let (mut groups, grace) = runner::close_groups();
    let grace = grace.min(runner::INTERRUPT_GRACE_CAP);
    groups.retain(|&g| {
        // A stopped group (Ctrl-Z, then kill) must be able to act on TERM.
        let _ = killpg(g, Signal::SIGCONT);
        killpg(g, Signal::SIGTERM).is_ok()
    });
    let give_up = Instant::now() + grace;
    while !groups.is_empty() && Instant::now() < give_up {
        tokio::select! {
            () = tokio::time::sleep(runner::GROUP_POLL) => {}
            // A second signal: no more waiting.
            _ = futures_first(stopping) => break,
        }
        // Zombie-aware: a leader its call's task has not reaped yet must
        // not hold the user for the whole grace.
        groups.retain(|&g| runner::group_alive(g));
    }
    for g in groups {
        let _ = killpg(g, Signal::SIGKILL);
    }
    let _ = runner::kill_orphans();
    // exit() runs no destructors: scratch directories go here.
    for dir in SCRATCH.lock().unwrap_or_else(|e| e.into_inner()).drain(..) {
        let _ = std::fs::remove_dir_all(dir);
    }
    std::process::exit(code);
}

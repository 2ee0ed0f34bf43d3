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
//! not counted against any plugin's deadline ([`plugctl_core::stop::paused`]).
//!
//! What the rest of plugctl listens to — the [`plugctl_core::stop::Stop`] token
//! and the time paused — lives in [`plugctl_core::stop`], which needs nothing:
//! this module fires it and drives the runner's process groups.
//!
//! SIGPIPE stays ignored (Rust's default): a reader that goes away shows up
//! as a broken-pipe write error, which ends plugctl quietly with 0.

use std::sync::atomic::{AtomicBool, Ordering};

use nix::sys::signal::{Signal, killpg};
use tokio::signal::unix::{SignalKind, signal};
use tokio::time::Instant;

use plugctl_core::runner;

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
/// them and add the time stopped to [`plugctl_core::stop::paused`].
fn suspend() {
    let groups = runner::live_groups();
    for &g in &groups {
        let _ = killpg(nix::unistd::Pid::from_raw(g), Signal::SIGSTOP);
    }
    // SIGSTOP cannot be caught: this returns once someone sends SIGCONT.
    plugctl_core::stop::pausing(|| {
        let _ = nix::sys::signal::raise(Signal::SIGSTOP);
    });
    for &g in &groups {
        let _ = killpg(nix::unistd::Pid::from_raw(g), Signal::SIGCONT);
    }
}

async fn shut_down(code: i32, stopping: &mut [(tokio::signal::unix::Signal, i32)]) {
    plugctl_core::stop::announce(code);
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
    plugctl_core::stop::remove_scratch_dirs();
    std::process::exit(code);
}

//! One module owns signals, and only turns them into [`Event`]s: the
//! command loop ([`crate::app::supervise`]) decides what each does, as
//! cargo-nextest's signal handler yields events to its dispatcher.
//!
//! - Every signal that asks plugctl to stop — INT (Ctrl-C), TERM (a
//!   supervisor), HUP (a dropped SSH session), QUIT, USR1, USR2, ALRM — is
//!   [`Event::Stop`]: no new plugin call starts, every live call's process
//!   group gets SIGTERM, then SIGKILL after its grace (at most 2 s), scratch
//!   directories are removed, and plugctl exits 128 + the signal's number
//!   ([`exit_code`]), returned to `main`. The registry needs nothing: every
//!   change is one atomic replace, so an interrupted command leaves the old
//!   file or the new one, and a create interrupted mid-call stays `pending`
//!   for `volume repair`.
//! - Job control, as in cargo-nextest: Ctrl-Z (TSTP) is [`Event::Pause`]:
//!   the plugins' groups stop, then plugctl; CONT is [`Event::Resume`]: the
//!   groups go on. The time stopped is not counted against any call's
//!   deadline. A TSTP to an orphaned process group (no shell of the
//!   session is there to continue it) is discarded, as the kernel discards
//!   it for a program that does not catch it.
//!
//! The handlers run on the command's own runtime: nothing a plugin command
//! does blocks that thread (a registry lock wait runs on a thread of its
//! own, reaping and socket probes are async), so an event is seen at once.
//!
//! SIGPIPE stays ignored (Rust's default): a reader that goes away shows up
//! as a broken-pipe write error, which ends plugctl quietly with 0.

use nix::sys::signal::Signal;
use tokio::signal::unix::{SignalKind, signal};

/// The signals that stop plugctl.
pub const STOPPING: &[Signal] = &[
    Signal::SIGINT,
    Signal::SIGTERM,
    Signal::SIGHUP,
    Signal::SIGQUIT,
    Signal::SIGUSR1,
    Signal::SIGUSR2,
    Signal::SIGALRM,
];

/// What a signal asks of the command under way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// Stop: end every call, clean up, exit [`exit_code`] of the signal.
    Stop(Signal),
    /// Ctrl-Z: stop the calls' groups and their clocks, then plugctl.
    Pause,
    /// plugctl was continued: so are the calls.
    Resume,
}

/// The exit code of a stop by `signal`: 128 + its number, as a shell
/// reports a process the signal killed.
pub fn exit_code(signal: Signal) -> i32 {
    SIGNAL_EXIT_BASE + signal as i32
}

/// A stop by signal n exits with this plus n.
pub const SIGNAL_EXIT_BASE: i32 = 128;

/// The signal handlers, as a stream of [`Event`]s.
#[derive(Debug)]
pub struct Signals {
    stopping: Vec<(tokio::signal::unix::Signal, Signal)>,
    tstp: tokio::signal::unix::Signal,
    cont: tokio::signal::unix::Signal,
}

/// Installs the handlers on the current runtime (which must have its I/O
/// driver). From then on these signals no longer have their default action
/// in this process: they arrive as [`Signals::next`]'s events.
///
/// # Panics
/// Outside a Tokio runtime.
pub fn install() -> std::io::Result<Signals> {
    let mut stopping = Vec::with_capacity(STOPPING.len());
    for &sig in STOPPING {
        stopping.push((signal(SignalKind::from_raw(sig as i32))?, sig));
    }
    Ok(Signals {
        stopping,
        tstp: signal(SignalKind::from_raw(Signal::SIGTSTP as i32))?,
        cont: signal(SignalKind::from_raw(Signal::SIGCONT as i32))?,
    })
}

impl Signals {
    /// The next event. Stopping signals come first when several are
    /// pending: a stop makes a pause moot.
    pub async fn next(&mut self) -> Event {
        std::future::poll_fn(|cx| {
            for (stream, sig) in &mut self.stopping {
                if stream.poll_recv(cx).is_ready() {
                    return std::task::Poll::Ready(Event::Stop(*sig));
                }
            }
            // A stop nobody can continue is no stop, as the kernel rules
            // for a group no job-control shell holds (an orphaned one).
            while self.tstp.poll_recv(cx).is_ready() {
                if !plugctl_core::runner::own_group_is_orphaned() {
                    return std::task::Poll::Ready(Event::Pause);
                }
            }
            if self.cont.poll_recv(cx).is_ready() {
                return std::task::Poll::Ready(Event::Resume);
            }
            std::task::Poll::Pending
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::{STOPPING, exit_code};

    #[test]
    fn every_stopping_signal_exits_128_plus_its_number() {
        let codes: Vec<i32> = STOPPING.iter().map(|&s| exit_code(s)).collect();
        assert_eq!(codes, [130, 143, 129, 131, 138, 140, 142]);
    }
}

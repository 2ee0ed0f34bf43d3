//! The process a call started (its leader), as plugctl holds it: tokio's
//! `Child` for what std spawned, or [`Cloned`] for what
//! [`super::vfork::start`] started.

use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;

use nix::libc;
use tokio::io::unix::AsyncFd;
use tokio::process::{Child, ChildStderr, ChildStdout};

/// A call's leader.
#[derive(Debug)]
pub(super) enum Leader {
    Spawned(Child),
    Cloned(Cloned),
}

impl Leader {
    pub(super) fn id(&self) -> Option<u32> {
        match self {
            Leader::Spawned(c) => c.id(),
            Leader::Cloned(c) => (c.status.is_none()).then_some(c.pid as u32),
        }
    }

    pub(super) fn take_stdout(&mut self) -> Option<ChildStdout> {
        match self {
            Leader::Spawned(c) => c.stdout.take(),
            Leader::Cloned(c) => c.stdout.take(),
        }
    }

    pub(super) fn take_stderr(&mut self) -> Option<ChildStderr> {
        match self {
            Leader::Spawned(c) => c.stderr.take(),
            Leader::Cloned(c) => c.stderr.take(),
        }
    }

    /// Its status if it has exited, reaping it.
    pub(super) fn try_wait(&mut self) -> io::Result<Option<ExitStatus>> {
        match self {
            Leader::Spawned(c) => c.try_wait(),
            Leader::Cloned(c) => c.try_wait(),
        }
    }

    /// Waits for it to exit, and reaps it.
    pub(super) async fn wait(&mut self) -> io::Result<ExitStatus> {
        match self {
            Leader::Spawned(c) => c.wait().await,
            Leader::Cloned(c) => c.wait().await,
        }
    }
}

/// A leader started by `clone`, with the pidfd the kernel gave at its
/// birth (so that no signal of plugctl's can reach a reused pid) and the
/// read ends of its pipes. Killed on drop if it still runs, as tokio kills
/// a `Child` made with `kill_on_drop`, and reaped.
#[derive(Debug)]
pub(super) struct Cloned {
    pid: i32,
    /// The pidfd, until it is waited for ...
    pidfd: Option<OwnedFd>,
    /// ... and from then on registered with the runtime.
    watched: Option<AsyncFd<OwnedFd>>,
    status: Option<ExitStatus>,
    pub(super) stdout: Option<ChildStdout>,
    pub(super) stderr: Option<ChildStderr>,
}

impl Cloned {
    pub(super) fn new(
        pid: i32,
        pidfd: OwnedFd,
        stdout: OwnedFd,
        stderr: OwnedFd,
    ) -> io::Result<Cloned> {
        let mut me = Cloned {
            pid,
            pidfd: Some(pidfd),
            watched: None,
            status: None,
            stdout: None,
            stderr: None,
        };
        // On error `me` is dropped: the child is killed and reaped.
        me.stdout = Some(ChildStdout::from_std(std::process::ChildStdout::from(
            stdout,
        ))?);
        me.stderr = Some(ChildStderr::from_std(std::process::ChildStderr::from(
            stderr,
        ))?);
        Ok(me)
    }

    fn try_wait(&mut self) -> io::Result<Option<ExitStatus>> {
        if let Some(status) = self.status {
            return Ok(Some(status));
        }
        let mut raw = 0;
        loop {
            // SAFETY: waitpid(2) on our own child, with a local to write.
            let r = unsafe { libc::waitpid(self.pid, &mut raw, libc::WNOHANG) };
            if r == 0 {
                return Ok(None);
            }
            if r == self.pid {
                let status = ExitStatus::from_raw(raw);
                self.status = Some(status);
                return Ok(Some(status));
            }
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }

    async fn wait(&mut self) -> io::Result<ExitStatus> {
        loop {
            if let Some(status) = self.try_wait()? {
                return Ok(status);
            }
            if let Some(fd) = self.pidfd.take() {
                // SAFETY: the AsyncFd owns the descriptor, which stays open
                // and the same until it is dropped.
                self.watched = Some(unsafe {
                    AsyncFd::register_with_interest(fd, tokio::io::Interest::READABLE)
                }?);
            }
            let Some(watched) = &self.watched else {
                unreachable!("registered just above");
            };
            let mut ready = watched.readable().await?;
            ready.clear_ready();
        }
    }
}

impl Cloned {
    fn pidfd(&self) -> Option<BorrowedFd<'_>> {
        match (&self.pidfd, &self.watched) {
            (Some(fd), _) => Some(fd.as_fd()),
            (None, Some(w)) => Some(w.get_ref().as_fd()),
            (None, None) => None,
        }
    }
}

impl Drop for Cloned {
    fn drop(&mut self) {
        if self.status.is_some() {
            return;
        }
        if let Some(fd) = self.pidfd() {
            let _ = rustix::process::pidfd_send_signal(fd, rustix::process::Signal::KILL);
        }
        if matches!(self.try_wait(), Ok(None)) {
            // Dies of the SIGKILL in a moment (or is stuck in the kernel):
            // reaped on a thread of its own, never waited for here, through
            // its pidfd (by then a sweep may have reaped it, and its pid be
            // another child's).
            let fd = match (self.pidfd.take(), self.watched.take()) {
                (Some(fd), _) => Some(fd),
                (None, Some(w)) => Some(w.into_inner()),
                (None, None) => None,
            };
            if let Some(fd) = fd {
                let _ = std::thread::Builder::new()
                    .name("plugctl-reap".into())
                    .spawn(move || {
                        let _ = rustix::process::waitid(
                            rustix::process::WaitId::PidFd(fd.as_fd()),
                            rustix::process::WaitIdOptions::EXITED,
                        );
                    });
            }
        }
    }
}

//! The kernel's account of what a call's processes used, as `wait4`
//! returns it: the leader's, read at its exit just before it is reaped,
//! and each adopted orphan's, read as plugctl reaps it. Summed into the
//! call's [`Usage`] by [`Spent`].
//!
//! Neither nix nor rustix returns a child's resource usage from a wait, so
//! two calls are made here, each in one small function: `waitid` with
//! `WNOWAIT` and its fifth, Linux-only argument (the usage of a child that
//! has exited, left to be reaped as its handle reaps it, so that its
//! [`Leader`] knows and never signals a reused pid), and `wait4` for the
//! orphans plugctl reaps itself.

use std::collections::BTreeSet;
use std::io;
use std::os::fd::OwnedFd;
use std::process::ExitStatus;
use std::time::Duration;

use nix::libc;
use tokio::io::unix::AsyncFd;

use super::leader::Leader;

use crate::usage::{CpuTime, Source, Usage};

/// What the kernel says one process (with the descendants it waited for)
/// used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Rusage {
    pub(super) cpu: CpuTime,
    /// `ru_maxrss`: KiB on Linux.
    pub(super) max_rss_kib: u64,
}

impl Rusage {
    fn of(ru: &libc::rusage) -> Rusage {
        let time = |t: libc::timeval| {
            Duration::from_secs(u64::try_from(t.tv_sec).unwrap_or(0))
                + Duration::from_micros(u64::try_from(t.tv_usec).unwrap_or(0))
        };
        Rusage {
            cpu: CpuTime {
                user: time(ru.ru_utime),
                system: time(ru.ru_stime),
            },
            max_rss_kib: u64::try_from(ru.ru_maxrss).unwrap_or(0),
        }
    }
}

/// The usage of child `pid` if it has exited, without reaping it: a
/// zombie's usage, as `wait4` would return it. `Ok(None)` while it runs.
fn peek(pid: i32) -> io::Result<Option<Rusage>> {
    // SAFETY: zeroed siginfo and rusage are valid values of both C
    // structs; the kernel writes into them and keeps no pointer.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
    // SAFETY: waitid(2) with valid pointers to the two structs above.
    let r = unsafe {
        libc::syscall(
            libc::SYS_waitid,
            libc::P_PID,
            pid,
            &mut info as *mut libc::siginfo_t,
            flags,
            &mut ru as *mut libc::rusage,
        )
    };
    if r < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the kernel filled (or left zeroed) a SIGCHLD siginfo.
    if unsafe { info.si_pid() } == 0 {
        return Ok(None);
    }
    Ok(Some(Rusage::of(&ru)))
}

/// Whether [`reap`] took the process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reaped {
    /// Reaped, with what it used.
    Gone(Rusage),
    /// Still running.
    Alive,
    /// Not ours to wait for (already reaped, or no child of ours).
    NotOurs,
}

/// Reaps child `pid` if it has exited (`wait4` with `WNOHANG`), with its
/// usage.
pub(super) fn reap(pid: i32) -> Reaped {
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value; wait4(2) only writes it.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: wait4(2) with valid pointers to locals.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut ru) };
        match r {
            0 => return Reaped::Alive,
            r if r == pid => return Reaped::Gone(Rusage::of(&ru)),
            _ if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => {}
            _ => return Reaped::NotOurs,
        }
    }
}

/// How long a call's leader may run, its pipes open, before its exit is
/// watched by a pidfd: most plugins exit as they close their output, and
/// are seen to then ([`Exit::at_eof`]) without one; a pidfd costs a file,
/// two epoll changes and a close per call.
const PIDFD_AFTER: Duration = Duration::from_millis(100);

/// Watches a call's leader exit, reading its usage before tokio reaps it.
/// When its pipes reach EOF it has almost always exited: `waitid` with
/// `WNOWAIT` reads the zombie's usage then, and tokio's `try_wait` reaps
/// it as it would have. One that keeps running (or closed its output and
/// goes on) is watched by a pidfd of plugctl's own from [`PIDFD_AFTER`]
/// (tokio's is its own business). Without a pidfd (Linux before 5.3, or no
/// descriptor left), tokio waits as before and only the clock is known.
pub(super) struct Exit {
    pid: Option<i32>,
    measure: bool,
    /// From when the exit is watched by a pidfd.
    watch_at: tokio::time::Instant,
    /// The wait until then, kept across the call loop's turns (each
    /// turn makes a new [`Exit::wait`] future: a timer of its own would be
    /// registered and dropped on every read).
    timer: Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
    fd: Option<AsyncFd<OwnedFd>>,
    /// No pidfd could be had: tokio waits.
    no_pidfd: bool,
}

/// How the leader ended, and its usage when it could be read.
pub(super) type Exited = (io::Result<ExitStatus>, Option<Rusage>);

impl Exit {
    /// Watches `child` (just spawned, not reaped); `measure` false: only
    /// the clock, as if no pidfd could be had.
    pub(super) fn watch(child: &Leader, measure: bool) -> Exit {
        Exit {
            pid: child.id().and_then(|p| i32::try_from(p).ok()),
            measure,
            watch_at: tokio::time::Instant::now() + PIDFD_AFTER,
            timer: None,
            fd: None,
            no_pidfd: false,
        }
    }

    /// The leader's end if it has exited by now (called when its pipes
    /// reach EOF), reaped with its usage read; `None` while it runs, and
    /// from then on its exit is watched by a pidfd at once (it is most
    /// likely exiting: the pipes close a moment before the kernel makes it
    /// a zombie).
    pub(super) fn at_eof(&mut self, child: &mut Leader) -> Option<Exited> {
        let pid = self.pid.filter(|_| self.measure)?;
        match peek(pid) {
            Ok(Some(usage)) => Some(reap_child(child, usage)),
            _ => {
                self.watch_at = tokio::time::Instant::now();
                None
            }
        }
    }

    /// The leader's end. Cancel-safe: nothing is reaped until the one poll
    /// that returns.
    pub(super) async fn wait(&mut self, child: &mut Leader) -> Exited {
        let Some(pid) = self.pid.filter(|_| self.measure) else {
            return (child.wait().await, None);
        };
        if self.fd.is_none() && !self.no_pidfd {
            // (A timer already due would still wait for the next tick.)
            if tokio::time::Instant::now() < self.watch_at {
                let at = self.watch_at;
                let timer = self
                    .timer
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(at)));
                timer.as_mut().await;
            }
            self.fd = pidfd(pid);
            self.no_pidfd = self.fd.is_none();
        }
        let Some(fd) = &self.fd else {
            return (child.wait().await, None);
        };
        loop {
            let mut ready = match fd.readable().await {
                Ok(ready) => ready,
                Err(_) => return (child.wait().await, None),
            };
            match peek(pid) {
                Ok(Some(usage)) => return reap_child(child, usage),
                Ok(None) => ready.clear_ready(),
                // Reaped by someone else (SIGCHLD ignored, a waitpid(-1)
                // elsewhere): tokio's wait says so as before.
                Err(_) => return (child.wait().await, None),
            }
        }
    }
}

/// A pidfd for `pid`, readable once it exits.
fn pidfd(pid: i32) -> Option<AsyncFd<OwnedFd>> {
    let pid = rustix::process::Pid::from_raw(pid)?;
    let fd = rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::NONBLOCK).ok()?;
    // SAFETY: the AsyncFd owns the descriptor, which stays open and the
    // same until it is dropped. (Like tokio's own process reaping, this
    // needs the runtime's I/O driver.)
    unsafe { AsyncFd::register_with_interest(fd, tokio::io::Interest::READABLE) }.ok()
}

/// Reaps a leader known to have exited (its usage read), through tokio,
/// so that its [`Leader`] knows and never signals a reused pid.
fn reap_child(child: &mut Leader, usage: Rusage) -> Exited {
    match child.try_wait() {
        Ok(Some(status)) => (Ok(status), Some(usage)),
        // Cannot be, by the kernel's word a moment ago: reaped by
        // someone else in between. As tokio's wait would say.
        Ok(None) => (Err(io::Error::from(io::ErrorKind::NotFound)), Some(usage)),
        Err(e) => (Err(e), Some(usage)),
    }
}

/// What a call's processes used, as it is learned: the leader's usage at
/// its exit, and each orphan plugctl reaped or killed for the call.
#[derive(Debug, Default)]
pub(super) struct Spent {
    /// The leader's usage; `None` until it exits, or when it could not
    /// be read.
    leader: Option<Rusage>,
    /// Orphans reaped for the call, by pid.
    reaped: Vec<(i32, Rusage)>,
    /// Every other process of the call plugctl saw: leftovers it killed.
    seen: BTreeSet<i32>,
}

impl Spent {
    pub(super) fn leader(&mut self, usage: Option<Rusage>) {
        self.leader = usage;
    }

    /// An orphan reaped for this call.
    pub(super) fn reaped(&mut self, pid: i32, usage: Rusage) {
        if !self.reaped.iter().any(|(p, _)| *p == pid) {
            self.reaped.push((pid, usage));
        }
    }

    /// A process of this call plugctl killed.
    pub(super) fn saw(&mut self, pid: i32) {
        self.seen.insert(pid);
    }

    /// The call's usage, once it has ended after `wall`.
    pub(super) fn usage(&self, wall: Duration) -> Usage {
        let others = self
            .seen
            .iter()
            .chain(self.reaped.iter().map(|(p, _)| p))
            .collect::<BTreeSet<_>>()
            .len() as u64;
        let Some(leader) = self.leader else {
            let mut u = Usage::clock(wall);
            u.processes += others;
            return u;
        };
        let all = std::iter::once(leader).chain(self.reaped.iter().map(|(_, u)| *u));
        let (cpu, max_rss_kib) = all.fold((CpuTime::default(), 0), |(cpu, rss), u| {
            (cpu + u.cpu, rss.max(u.max_rss_kib))
        });
        Usage {
            wall,
            cpu: Some(cpu),
            max_rss_kib: Some(max_rss_kib),
            processes: 1 + others,
            source: Source::Rusage,
            over_cap: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ru(user_ms: u64, rss: u64) -> Rusage {
        Rusage {
            cpu: CpuTime {
                user: Duration::from_millis(user_ms),
                system: Duration::from_millis(1),
            },
            max_rss_kib: rss,
        }
    }

    #[test]
    fn cpu_adds_up_memory_is_the_largest_and_each_process_counts_once() {
        let mut s = Spent::default();
        s.leader(Some(ru(10, 3000)));
        s.reaped(41, ru(5, 9000));
        s.reaped(41, ru(5, 9000));
        s.saw(41);
        s.saw(42);
        let u = s.usage(Duration::from_millis(30));
        assert_eq!(u.cpu_total(), Some(Duration::from_millis(17)));
        assert_eq!(u.max_rss_kib, Some(9000));
        assert_eq!(u.processes, 3);
        assert_eq!(u.source, Source::Rusage);
    }

    #[test]
    fn without_the_leader_only_the_clock_and_the_count_are_known() {
        let mut s = Spent::default();
        s.saw(7);
        let u = s.usage(Duration::from_millis(30));
        assert_eq!(u.source, Source::Clock);
        assert_eq!(u.cpu, None);
        assert_eq!(u.processes, 2);
    }

    #[test]
    fn a_child_that_burned_cpu_is_read_before_it_is_reaped() {
        // A child of this test that spins for a while, then exits.
        let child = std::process::Command::new("/bin/sh")
            .args(["-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done"])
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        let usage = loop {
            if let Some(u) = peek(pid).unwrap() {
                break u;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        assert!(usage.cpu.total() > Duration::ZERO, "{usage:?}");
        assert!(usage.max_rss_kib > 0);
        // Not reaped by the peek: wait4 still finds it, with the same usage.
        match reap(pid) {
            Reaped::Gone(again) => assert_eq!(again.cpu.total(), usage.cpu.total()),
            other => panic!("{other:?}"),
        }
        assert_eq!(reap(pid), Reaped::NotOurs);
        drop(child);
    }
}

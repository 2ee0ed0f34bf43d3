//! The process groups of the calls in flight: one table per [`Pool`]
//! (shared by the pools that say so), through which a shutdown or job
//! control reaches every call. The table signals nothing by itself for a
//! shutdown: it asks each call, and the call's own loop sends SIGTERM, waits
//! its grace, sends SIGKILL and keeps draining the pipes meanwhile. Job
//! control is the exception: the groups must be stopped before plugctl
//! stops itself, so [`GroupTable::pause`] sends SIGSTOP at once, and tells
//! each call when its clock stopped.
//!
//! [`Pool`]: super::Pool

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, MutexGuard, RwLock, RwLockWriteGuard};
use std::time::Duration;

use super::leader::Leader;
use nix::errno::Errno;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::sync::{Notify, watch};
use tokio::time::Instant;

use super::lineage::Lineage;

/// What the table asks of one call, read by the call's loop each time it
/// changes.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Control {
    /// Time the call's group spent stopped by job control, before the stop
    /// under way (if one is).
    paused: Duration,
    /// The stop under way began here.
    paused_since: Option<Instant>,
    /// A shutdown asked the call to end: SIGTERM now, SIGKILL after this
    /// much (zero: SIGKILL now).
    pub(super) terminate: Option<Duration>,
}

impl Control {
    /// How long the call has been stopped in all, a stop under way
    /// included: its deadline moves by this much.
    pub(super) fn paused(&self) -> Duration {
        self.paused + self.paused_since.map_or(Duration::ZERO, |t| t.elapsed())
    }

    /// Whether the call is stopped right now.
    pub(super) fn is_paused(&self) -> bool {
        self.paused_since.is_some()
    }
}

/// The table of one pool's calls in flight (several pools may share one).
#[derive(Debug, Default)]
pub(super) struct GroupTable {
    state: Mutex<Table>,
    /// Woken whenever the table becomes empty.
    emptied: Notify,
}

#[derive(Debug, Default)]
struct Table {
    /// pgid → that call's entry.
    calls: BTreeMap<i32, Entry>,
    /// Set by a shutdown: no call starts after it.
    closed: bool,
    /// Job control stopped every group at this instant (and any group born
    /// meanwhile is stopped at birth).
    paused_since: Option<Instant>,
}

/// The leader of every call this process has in flight, whatever table
/// (pool) started it. A process's children are one set, and the
/// subreaper flag that brings orphans into it is the process's: which of
/// them are calls' leaders, and which are processes a plugin left, is
/// therefore a property of the process too (a leader leads a session of
/// its own, as an escapee that called setsid does; only this index tells
/// them apart).
static IN_FLIGHT: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

/// Held (read) by each spawn from its fork until its leader is in the
/// index; taken (write) by whatever lists plugctl's children to reap or
/// kill them. A strict call may be started from another thread than the
/// one that sweeps ([`crate::sandbox::Spawner`]): without it, a plugin
/// that exits at once could be reaped as an orphan before its call knew
/// it, or a child not yet exec'd, which holds copies of every call's
/// pipes, be killed as another call's leftover.
static BIRTHS: RwLock<()> = RwLock::new(());

/// Kept while plugctl's children are listed and acted on: no spawn is
/// half done meanwhile.
pub(super) fn no_births() -> RwLockWriteGuard<'static, ()> {
    BIRTHS.write().unwrap_or_else(|p| p.into_inner())
}

fn in_flight() -> MutexGuard<'static, BTreeSet<i32>> {
    IN_FLIGHT.lock().unwrap_or_else(|p| p.into_inner())
}

/// The leaders of the calls this process has in flight, sorted.
pub(super) fn leaders_in_flight() -> Vec<i32> {
    in_flight().iter().copied().collect()
}

#[derive(Debug)]
struct Entry {
    grace: Duration,
    control: watch::Sender<Control>,
}

impl GroupTable {
    fn lock(&self) -> MutexGuard<'_, Table> {
        // The data stays consistent whatever panicked while holding it.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Spawns `cmd` and enters its group under one lock, so that a shutdown
    /// or a pause cannot miss a group born meanwhile. `Ok(None)`: the table
    /// is closed (a shutdown is under way), nothing was spawned.
    pub(super) fn spawn(
        self: &Arc<Self>,
        start: impl FnOnce() -> std::io::Result<Leader>,
        grace: Duration,
    ) -> std::io::Result<Option<(Leader, Group, watch::Receiver<Control>)>> {
        let _birth = BIRTHS.read().unwrap_or_else(|p| p.into_inner());
        let mut table = self.lock();
        if table.closed {
            return Ok(None);
        }
        let child = start()?;
        let pid = child
            .id()
            .and_then(|id| i32::try_from(id).ok())
            .ok_or_else(|| std::io::Error::other("spawned child has no pid"))?;
        let mut control = Control::default();
        if let Some(since) = table.paused_since {
            // Born while everything is stopped: stopped too, from now.
            let _ = killpg(Pid::from_raw(pid), Signal::SIGSTOP);
            control.paused_since = Some(since.max(Instant::now()));
        }
        let (tx, rx) = watch::channel(control);
        table.calls.insert(pid, Entry { grace, control: tx });
        in_flight().insert(pid);
        let group = Group {
            table: Arc::clone(self),
            pgid: Pid::from_raw(pid),
            lineage: Lineage::default(),
            known_empty: false,
            finished: false,
            spawner: None,
        };
        Ok(Some((child, group, rx)))
    }

    /// The process groups (their leaders' pids) of the calls in flight.
    pub(super) fn leaders(&self) -> Vec<i32> {
        self.lock().calls.keys().copied().collect()
    }

    /// Sends `signal` to every call's group; how many it reached.
    pub(super) fn signal_all(&self, signal: Signal) -> usize {
        self.lock()
            .calls
            .keys()
            .filter(|&&g| killpg(Pid::from_raw(g), signal).is_ok())
            .count()
    }

    /// Stops every call's group (SIGSTOP) and its clock.
    pub(super) fn pause(&self) {
        let mut table = self.lock();
        if table.paused_since.is_some() {
            return;
        }
        let now = Instant::now();
        table.paused_since = Some(now);
        for (&g, entry) in &table.calls {
            let _ = killpg(Pid::from_raw(g), Signal::SIGSTOP);
            entry.control.send_modify(|c| c.paused_since = Some(now));
        }
    }

    /// Restarts the clocks and groups [`GroupTable::pause`] stopped.
    pub(super) fn resume(&self) {
        let mut table = self.lock();
        if table.paused_since.take().is_none() {
            return;
        }
        for (&g, entry) in &table.calls {
            // The clock first: a call woken by the group's output must
            // already see its deadline moved.
            entry.control.send_modify(|c| {
                if let Some(since) = c.paused_since.take() {
                    c.paused += since.elapsed();
                }
            });
            let _ = killpg(Pid::from_raw(g), Signal::SIGCONT);
        }
    }

    /// Closes the table (no call starts after this) and asks every call in
    /// flight to end: SIGTERM, then SIGKILL after its grace or `grace_cap`,
    /// whichever is shorter. Asked again, the shorter grace wins. How many
    /// calls were asked.
    pub(super) fn terminate(&self, grace_cap: Duration) -> usize {
        let mut table = self.lock();
        table.closed = true;
        for entry in table.calls.values() {
            let grace = entry.grace.min(grace_cap);
            entry.control.send_modify(|c| {
                c.terminate = Some(c.terminate.map_or(grace, |g| g.min(grace)));
            });
        }
        table.calls.len()
    }

    /// Resolves once no call is in flight (at once when none is).
    pub(super) async fn emptied(&self) {
        loop {
            let woken = self.emptied.notified();
            tokio::pin!(woken);
            // Registered before the check, so a removal in between wakes it.
            woken.as_mut().enable();
            if self.lock().calls.is_empty() {
                return;
            }
            woken.await;
        }
    }

    fn remove(&self, pgid: Pid) {
        let mut table = self.lock();
        table.calls.remove(&pgid.as_raw());
        in_flight().remove(&pgid.as_raw());
        if table.calls.is_empty() {
            self.emptied.notify_waiters();
        }
    }
}

/// Our handle on one call's process group; leaves the table on drop.
#[derive(Debug)]
pub(super) struct Group {
    table: Arc<GroupTable>,
    pub(super) pgid: Pid,
    /// What marks the call's processes wherever they went.
    pub(super) lineage: Lineage,
    /// Seen empty after the leader was reaped. From then on the id may be
    /// reused by an unrelated group and must never be signalled again.
    pub(super) known_empty: bool,
    /// The call ran to its end. Otherwise the future was dropped mid-call,
    /// and the group is SIGKILLed rather than left running unwatched.
    pub(super) finished: bool,
    /// The sandbox's thread that started the call, held until what the
    /// call left is killed (its children's time namespace is the call's
    /// meanwhile).
    pub(super) spawner: Option<crate::sandbox::Slot>,
}

impl Group {
    /// Whether the signal reached anyone.
    pub(super) fn signal(&mut self, sig: Signal) -> bool {
        if self.known_empty {
            return false;
        }
        match killpg(self.pgid, sig) {
            Ok(()) => true,
            Err(Errno::ESRCH) => {
                self.known_empty = true;
                false
            }
            Err(_) => false,
        }
    }

    /// Call only once the leader is reaped.
    pub(super) fn probe(&mut self) {
        if !self.known_empty && !group_alive(self.pgid) {
            self.known_empty = true;
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.table.remove(self.pgid);
        if !self.finished {
            self.signal(Signal::SIGKILL);
        }
    }
}

/// Whether any member of the group is still running. Members that are
/// zombies count as gone: they hold the group id (so signals "succeed") until
/// their new parent reaps them, and an init that reaps lazily (as in some
/// containers) would otherwise make every timed-out call look like it needed
/// SIGKILL. Without /proc only the signal's answer is known.
pub(super) fn group_alive(pgid: Pid) -> bool {
    match killpg(pgid, None) {
        Err(Errno::ESRCH) => false,
        Ok(()) => running_member(pgid).unwrap_or(true),
        // EPERM: someone is there, just not ours to signal.
        Err(_) => true,
    }
}

fn running_member(pgid: Pid) -> Option<bool> {
    for process in procfs::process::all_processes().ok()?.flatten() {
        // A process that exits meanwhile just fails to answer.
        let Ok(stat) = process.stat() else {
            continue;
        };
        if stat.pgrp != pgid.as_raw() {
            continue;
        }
        let zombie = matches!(stat.state, 'Z' | 'X');
        if !zombie || has_other_threads(&process) {
            return Some(true);
        }
    }
    Some(false)
}

/// A main thread that called pthread_exit shows the process as a zombie
/// while its other threads still run.
fn has_other_threads(process: &procfs::process::Process) -> bool {
    process
        .tasks()
        .into_iter()
        .flatten()
        .flatten()
        .any(|t| t.tid != process.pid)
}

/// Whether this process's own group is orphaned (POSIX): no member has a
/// parent in another group of the same session, so no job-control shell
/// is there to continue it. The kernel discards a terminal stop (TSTP,
/// TTIN, TTOU) sent to such a group; plugctl, which catches TSTP to stop
/// its plugins before itself, must do the same, or it would stop for good
/// with its plugins. False when /proc cannot tell.
pub fn own_group_is_orphaned() -> bool {
    let Ok(me) = procfs::process::Process::myself().and_then(|p| p.stat()) else {
        return false;
    };
    let Ok(all) = procfs::process::all_processes() else {
        return false;
    };
    let stats: Vec<procfs::process::Stat> = all.flatten().filter_map(|p| p.stat().ok()).collect();
    let group_of: std::collections::HashMap<i32, (i32, i32)> =
        stats.iter().map(|s| (s.pid, (s.pgrp, s.session))).collect();
    !stats.iter().filter(|s| s.pgrp == me.pgrp).any(|s| {
        group_of
            .get(&s.ppid)
            .is_some_and(|&(pgrp, session)| pgrp != me.pgrp && session == me.session)
    })
}

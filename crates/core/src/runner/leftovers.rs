//! What a plugin leaves behind, found through /proc (the `procfs` crate):
//! members of its process group still running after it exited, and the
//! descendants that escaped the group (setsid, a daemon's double fork) and
//! were adopted by plugctl as their child subreaper. Found, they are
//! killed, and the adopted ones reaped.

use std::time::Duration;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use procfs::process::{FDTarget, Process, Stat};
use tokio::process::{ChildStderr, ChildStdout};

use super::Leftover;
use super::groups::GroupTable;
use super::rusage::{Reaped, Rusage, Spent, reap};

/// How long [`reap_orphans`] waits for orphans it just killed to die.
const REAP_BOUND: Duration = Duration::from_millis(200);

/// How often it looks again meanwhile.
const REAP_POLL: Duration = Duration::from_millis(5);

/// Makes plugctl the reaper of its descendants' orphans (Linux's child
/// subreaper): a plugin's child that calls setsid() and outlives the plugin
/// is re-parented to plugctl instead of init, so plugctl can find it, kill
/// it and reap it.
pub fn become_subreaper() {
    let _ = nix::sys::prctl::set_child_subreaper(true);
}

/// One process, from `/proc/<pid>/stat`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Proc {
    pid: i32,
    ppid: i32,
    pgid: i32,
    sid: i32,
    zombie: bool,
    comm: String,
}

impl From<&Stat> for Proc {
    fn from(stat: &Stat) -> Proc {
        Proc {
            pid: stat.pid,
            ppid: stat.ppid,
            pgid: stat.pgrp,
            sid: stat.session,
            zombie: matches!(stat.state, 'Z' | 'X'),
            comm: stat.comm.clone(),
        }
    }
}

/// plugctl's own ids, asked once per scan.
#[derive(Debug, Clone, Copy)]
struct Me {
    pid: i32,
    pgid: i32,
    sid: i32,
}

impl Me {
    fn now() -> Me {
        Me {
            pid: nix::unistd::getpid().as_raw(),
            pgid: nix::unistd::getpgrp().as_raw(),
            sid: nix::unistd::getsid(None).map_or(0, |s| s.as_raw()),
        }
    }

    /// Whether `p` is a plugin's descendant adopted by plugctl: our child
    /// that is not in plugctl's own process group (so not a helper plugctl
    /// started, nor a sibling in a host program's tests), and not a call's
    /// leader (a leader leads its group inside plugctl's session; an
    /// escapee is in a group it does not lead, or in a session of its own).
    fn adopted(&self, p: &Proc) -> bool {
        p.ppid == self.pid && p.pgid != self.pgid && (p.pgid != p.pid || p.sid != self.sid)
    }
}

fn proc_of(pid: i32) -> Option<Proc> {
    let stat = Process::new(pid).ok()?.stat().ok()?;
    Some(Proc::from(&stat))
}

/// Every process; one that exits meanwhile just is not listed.
fn processes() -> Vec<Proc> {
    let Ok(all) = procfs::process::all_processes() else {
        return Vec::new();
    };
    all.flatten()
        .filter_map(|p| p.stat().ok())
        .map(|s| Proc::from(&s))
        .collect()
}

/// plugctl's own children, from `/proc/self/task/*/children` (the kernel
/// lists each thread's children, adopted orphans included), less the
/// leaders of `table`'s calls: there may be hundreds of them, and known by
/// their group they need no /proc read.
fn children(table: &GroupTable) -> Vec<Proc> {
    let me = std::process::id() as i32;
    // By pid rather than /proc/self: no link to read.
    let Some(tasks) = Process::new(me).ok().and_then(|p| p.tasks().ok()) else {
        return processes().into_iter().filter(|p| p.ppid == me).collect();
    };
    let mut pids: Vec<i32> = tasks
        .flatten()
        .filter_map(|t| t.children().ok())
        .flatten()
        .filter_map(|p| i32::try_from(p).ok())
        .collect();
    pids.sort_unstable();
    pids.dedup();
    if pids.is_empty() {
        return Vec::new();
    }
    // Sorted: the table's keys are.
    let leaders = table.leaders();
    pids.into_iter()
        .filter(|p| leaders.binary_search(p).is_err())
        .filter_map(proc_of)
        .collect()
}

/// The inodes of a child's stdout and stderr pipes still open (what a
/// process holding them has open as `pipe:[inode]`).
pub(super) fn pipe_inodes(stdout: &Option<ChildStdout>, stderr: &Option<ChildStderr>) -> Vec<u64> {
    use std::os::fd::AsFd;
    let fds = [
        stdout.as_ref().map(|p| p.as_fd()),
        stderr.as_ref().map(|p| p.as_fd()),
    ];
    fds.into_iter()
        .flatten()
        .filter_map(|fd| nix::sys::stat::fstat(fd).ok())
        .map(|st| st.st_ino)
        .collect()
}

fn holds_pipe(pid: i32, pipes: &[u64]) -> bool {
    let Some(fds) = Process::new(pid).ok().and_then(|p| p.fd().ok()) else {
        return false;
    };
    fds.flatten()
        .any(|fd| matches!(fd.target, FDTarget::Pipe(ino) if pipes.contains(&ino)))
}

/// Kills what a finished call left behind and reaps what was adopted:
/// members of its group, orphans (adopted by plugctl) holding its pipes,
/// and, when `all_orphans` (no other call runs, so nothing else can own
/// them), every other orphan too. What it kills, and the usage of the
/// orphans of the call it reaps (those it kills, and those already dead
/// in its group, or any when `all_orphans`), go to `spent`.
pub(super) async fn kill_leftovers(
    table: &GroupTable,
    pgid: Pid,
    pipes: &[u64],
    all_orphans: bool,
    spent: &mut Spent,
) -> Vec<Leftover> {
    // Cheap first: the group is usually gone (no member answers a null
    // signal), and plugctl's children are listed by the kernel; the whole
    // process table is read only when the group still has members.
    let group_left = killpg(pgid, None).is_ok();
    // With the group gone, other calls beside this one (so orphans are not
    // all its own) and both pipes at EOF (so nobody holds them), nothing
    // can be this call's: the scan would only reap orphans that died,
    // which is done now and then rather than after every call.
    if !group_left && !all_orphans && pipes.is_empty() && !table.sweep_due() {
        return Vec::new();
    }
    let mut procs = if group_left {
        processes()
    } else {
        children(table)
    };
    if procs.is_empty() {
        return Vec::new();
    }
    let me = Me::now();
    // Dead orphans too: they wait for plugctl to reap them.
    let any_adopted = procs.iter().any(|p| me.adopted(p));
    // The dead ones that are this call's: in its group, or any when no
    // other call runs. (One that left the group with setsid and died while
    // others ran cannot be told apart: its usage is no call's.)
    let mut mine: Vec<i32> = procs
        .iter()
        .filter(|p| p.zombie && me.adopted(p) && (all_orphans || p.pgid == pgid.as_raw()))
        .map(|p| p.pid)
        .collect();
    procs.retain(|p| !p.zombie && p.pid != me.pid);
    let mut found = Vec::new();
    let mut in_group = false;
    for p in &procs {
        let member = p.pgid == pgid.as_raw();
        let orphan = me.adopted(p);
        if member || (orphan && (all_orphans || holds_pipe(p.pid, pipes))) {
            in_group |= member;
            found.push(Leftover {
                pid: p.pid,
                command: p.comm.clone(),
            });
        }
    }
    if in_group {
        let _ = killpg(pgid, Signal::SIGKILL);
    }
    for l in &found {
        let _ = nix::sys::signal::kill(Pid::from_raw(l.pid), Signal::SIGKILL);
        spent.saw(l.pid);
        mine.push(l.pid);
    }
    // Only adopted orphans are ours to reap (group members have their own
    // parents); with none in sight there is nothing to wait for.
    if any_adopted {
        for (pid, usage) in reap_orphans(table).await {
            if mine.contains(&pid) {
                spent.reaped(pid, usage);
            }
        }
    }
    found
}

/// Reaps adopted orphans that have died (never a call's leader, which its
/// own task reaps, nor any other child of the host program), waiting a
/// little (async: other calls run meanwhile) for those just killed.
/// Returns each one reaped with what it used.
async fn reap_orphans(table: &GroupTable) -> Vec<(i32, Rusage)> {
    let deadline = tokio::time::Instant::now() + REAP_BOUND;
    let mut reaped = Vec::new();
    loop {
        let me = Me::now();
        let mut pending = false;
        for p in children(table).iter().filter(|p| me.adopted(p)) {
            match reap(p.pid) {
                Reaped::Alive => pending = true,
                Reaped::Gone(usage) => reaped.push((p.pid, usage)),
                Reaped::NotOurs => {}
            }
        }
        if !pending || tokio::time::Instant::now() >= deadline {
            return reaped;
        }
        tokio::time::sleep(REAP_POLL).await;
    }
}

/// Kills and reaps every adopted orphan still running: at shutdown, and
/// when a command that ran plugins ends (an escapee that held no pipe of a
/// call running beside others could not be told apart before).
pub(super) async fn kill_orphans(table: &GroupTable) -> Vec<Leftover> {
    let me = Me::now();
    let mut killed = Vec::new();
    for p in children(table) {
        if me.adopted(&p) && !p.zombie {
            let _ = nix::sys::signal::kill(Pid::from_raw(p.pid), Signal::SIGKILL);
            killed.push(Leftover {
                pid: p.pid,
                command: p.comm,
            });
        }
    }
    reap_orphans(table).await;
    killed
}

#[cfg(test)]
mod tests {
    use procfs::FromRead;

    use super::{Me, Proc, Stat};

    /// A `/proc/<pid>/stat` line as Linux 6 writes it, with `comm` and the
    /// state, parent, group and session given.
    fn line(pid: i32, comm: &str, state: char, ppid: i32, pgid: i32, sid: i32) -> String {
        format!(
            "{pid} ({comm}) {state} {ppid} {pgid} {sid} 0 -1 4194560 110 0 0 0 0 0 0 0 20 0 1 0 \
             358126 2531328 128 18446744073709551615 1 1 0 0 0 0 0 0 65536 0 0 0 17 1 0 0 0 0 0 \
             0 0 0 0 0 0 0 0"
        )
    }

    fn parse(text: &str) -> Proc {
        Proc::from(&Stat::from_read(text.as_bytes()).unwrap())
    }

    #[test]
    fn stat_fields_after_the_command_name() {
        let p = parse(&line(4242, "sleep", 'S', 1, 4240, 4200));
        assert_eq!(
            p,
            Proc {
                pid: 4242,
                ppid: 1,
                pgid: 4240,
                sid: 4200,
                zombie: false,
                comm: "sleep".into(),
            }
        );
    }

    #[test]
    fn a_command_name_with_spaces_and_parentheses_is_one_field() {
        // A plugin names its processes: ") Z 1 1 1" must not be read as
        // the fields that follow.
        let p = parse(&line(7, "evil) Z 1 1 1 (x", 'R', 3, 5, 6));
        assert_eq!(p.comm, "evil) Z 1 1 1 (x");
        assert_eq!((p.ppid, p.pgid, p.sid, p.zombie), (3, 5, 6, false));
    }

    #[test]
    fn zombies_and_dead_processes_are_zombies() {
        for (state, zombie) in [('Z', true), ('X', true), ('S', false), ('T', false)] {
            assert_eq!(
                parse(&line(9, "sh", state, 1, 9, 9)).zombie,
                zombie,
                "{state}"
            );
        }
    }

    #[test]
    fn a_cut_line_is_no_process() {
        assert!(Stat::from_read(&b"12 (sh) S 1 12"[..]).is_err());
        assert!(Stat::from_read(&b"12 sh S 1 12 12"[..]).is_err());
    }

    #[test]
    fn adopted_means_our_child_outside_our_group_and_not_a_leader() {
        let me = Me {
            pid: 100,
            pgid: 100,
            sid: 50,
        };
        let p = |pid, ppid, pgid, sid| parse(&line(pid, "x", 'S', ppid, pgid, sid));
        // A call's leader: leads its group, in our session.
        assert!(!me.adopted(&p(200, 100, 200, 50)));
        // Escaped with setsid: leads a session of its own.
        assert!(me.adopted(&p(201, 100, 201, 201)));
        // A call's grandchild, re-parented to us, in the call's group.
        assert!(me.adopted(&p(202, 100, 200, 50)));
        // A helper in our own group.
        assert!(!me.adopted(&p(203, 100, 100, 50)));
        // Someone else's child.
        assert!(!me.adopted(&p(204, 1, 204, 204)));
    }

    #[test]
    fn this_process_reads_as_itself() {
        let me = super::proc_of(std::process::id() as i32).unwrap();
        assert_eq!(me.pid, std::process::id() as i32);
        assert_eq!(me.pgid, nix::unistd::getpgrp().as_raw());
        assert!(!me.zombie);
    }
}

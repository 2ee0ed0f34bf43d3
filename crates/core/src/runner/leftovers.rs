//! What a plugin leaves behind, found through /proc (the `procfs` crate):
//! members of its process group still running after it exited, and the
//! descendants that escaped the group (setsid, a daemon's double fork) and
//! were adopted by plugctl as their child subreaper. Found, they are
//! killed, and the adopted ones reaped.

use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

use nix::sys::signal::Signal;
use nix::unistd::Pid;
use procfs::process::{FDTarget, Process, Stat};
use tokio::process::{ChildStderr, ChildStdout};

use super::Leftover;
use super::groups::{leaders_in_flight, no_births};
use super::lineage::{Lineage, time_ns};
use super::rusage::{Reaped, Rusage, Spent, reap};

/// How long [`reap_orphans`] waits for orphans it just killed to die, and
/// a sweep goes on killing what they forked meanwhile.
const REAP_BOUND: Duration = Duration::from_millis(200);

/// How often it looks again meanwhile.
const REAP_POLL: Duration = Duration::from_millis(5);

/// Makes plugctl the reaper of its descendants' orphans (Linux's child
/// subreaper): a plugin's child whose parent exits is re-parented to
/// plugctl instead of init, so that once a call's plugin has exited,
/// everything it left hangs below plugctl's own children, where plugctl
/// finds it, kills it and reaps it.
pub fn become_subreaper() {
    let _ = nix::sys::prctl::set_child_subreaper(true);
}

/// Whether this process is a subreaper: then what a call left is all below
/// its own children; else it may be anywhere, and /proc is read whole.
fn is_subreaper() -> bool {
    nix::sys::prctl::get_child_subreaper().unwrap_or(false)
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
    /// When it started (clock ticks after boot): with the pid, which
    /// process this is, even once its pid is another's.
    start: u64,
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
            start: stat.starttime,
        }
    }
}

/// SIGKILL to exactly `p`, never to another process that has its pid by
/// now: plugctl's own child keeps its pid until plugctl reaps it; any
/// other is reached through a pidfd, opened and then checked to be the
/// process that was read (its start time). Without pidfds (Linux before
/// 5.3), by pid.
fn kill_exact(p: &Proc, me: &Me) {
    if p.ppid == me.pid {
        let _ = nix::sys::signal::kill(Pid::from_raw(p.pid), Signal::SIGKILL);
        return;
    }
    let Some(pid) = rustix::process::Pid::from_raw(p.pid) else {
        return;
    };
    match rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()) {
        Ok(fd) => {
            if proc_of(p.pid).is_some_and(|now| now.start == p.start) {
                let _ = rustix::process::pidfd_send_signal(&fd, rustix::process::Signal::KILL);
            }
        }
        Err(rustix::io::Errno::NOSYS) => {
            let _ = nix::sys::signal::kill(Pid::from_raw(p.pid), Signal::SIGKILL);
        }
        Err(_) => {}
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

    /// Whether `p`, one of plugctl's children that leads no call in
    /// flight and carries no call's mark, may be taken as a plugin's
    /// descendant adopted by plugctl: not in plugctl's own process group
    /// (a helper plugctl started, or a sibling in a host program's tests).
    /// A process that does carry a call's mark is that call's wherever it
    /// is, plugctl's group included (a plugin in plugctl's session may move
    /// a child there).
    fn adopted(&self, p: &Proc) -> bool {
        p.ppid == self.pid && p.pgid != self.pgid
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

/// The children of `pid`, from `/proc/<pid>/task/*/children` (the kernel
/// lists each thread's children, adopted orphans included); `None` where
/// the kernel keeps no such list.
fn child_pids(pid: i32) -> Option<Vec<i32>> {
    let tasks = Process::new(pid).ok()?.tasks().ok()?;
    let mut pids: Vec<i32> = Vec::new();
    let mut listed = false;
    for task in tasks.flatten() {
        if let Ok(children) = task.children() {
            listed = true;
            pids.extend(children.into_iter().filter_map(|p| i32::try_from(p).ok()));
        }
    }
    pids.sort_unstable();
    pids.dedup();
    listed.then_some(pids)
}

/// plugctl's own children less the leaders of the calls in flight (there
/// may be hundreds of them, and known by the index they need no /proc
/// read).
fn children() -> Vec<Proc> {
    let me = std::process::id() as i32;
    // By pid rather than /proc/self: no link to read.
    let Some(pids) = child_pids(me) else {
        return processes().into_iter().filter(|p| p.ppid == me).collect();
    };
    if pids.is_empty() {
        return Vec::new();
    }
    // Sorted, as the index is.
    let leaders = leaders_in_flight();
    pids.into_iter()
        .filter(|p| leaders.binary_search(p).is_err())
        .filter_map(proc_of)
        .collect()
}

/// `root` and every process below it, parents first.
fn subtree(root: Proc) -> Vec<Proc> {
    let mut out = vec![root];
    let mut at = 0;
    while at < out.len() {
        let pid = out[at].pid;
        at += 1;
        for child in child_pids(pid).unwrap_or_default() {
            if let Some(p) = proc_of(child) {
                out.push(p);
            }
        }
    }
    out
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
    if pipes.is_empty() {
        return false;
    }
    let Some(fds) = Process::new(pid).ok().and_then(|p| p.fd().ok()) else {
        return false;
    };
    fds.flatten()
        .any(|fd| matches!(fd.target, FDTarget::Pipe(ino) if pipes.contains(&ino)))
}

/// Which processes one sweep takes.
enum Claim<'a> {
    /// A call's: those its lineage marks (its session, its time
    /// namespace, and the sessions of what it was already found to have
    /// left), those holding its pipes, and everything below them; with
    /// `all_orphans` (no other call in flight, so nothing else can own
    /// them) every adopted orphan too.
    Call {
        lineage: &'a Lineage,
        sessions: HashSet<i32>,
        pipes: &'a [u64],
        all_orphans: bool,
        /// The call's leader when it was never reaped (SIGKILL did not end
        /// it): everything below it is the call's too.
        leader: Option<i32>,
    },
    /// Every adopted orphan, whoever left it: the end of a command.
    Orphans,
}

impl Claim<'_> {
    /// Whether `p` carries the claim's marks; `None` when that could not
    /// be told (it died while it was looked at).
    fn marks(&self, p: &Proc) -> Option<bool> {
        match self {
            Claim::Call {
                lineage, sessions, ..
            } => {
                if sessions.contains(&p.sid) {
                    return Some(true);
                }
                let Some(ns) = lineage.ns() else {
                    return Some(false);
                };
                time_ns(p.pid).map(|n| n == ns)
            }
            Claim::Orphans => Some(true),
        }
    }

    /// Below plugctl (a subreaper): the trees of its adopted children that
    /// are this claim's, whole (a tree is one call's: its root was the
    /// call's own descendant before its parent died).
    fn adopted(&self, me: &Me) -> Look {
        let mut look = Look::default();
        if let Claim::Call {
            leader: Some(leader),
            ..
        } = self
            && let Some(p) = proc_of(*leader)
        {
            look.taken.extend(subtree(p).into_iter().skip(1));
        }
        for root in children() {
            if root.ppid != me.pid {
                continue;
            }
            if root.zombie {
                // It died: its children have just come to plugctl.
                look.moving |= me.adopted(&root);
                continue;
            }
            let adopted = me.adopted(&root);
            let tree = subtree(root);
            let take = match self {
                Claim::Orphans => adopted,
                Claim::Call {
                    lineage,
                    pipes,
                    all_orphans,
                    ..
                } => {
                    let marked = tree.iter().map(|p| self.marks(p)).collect::<Vec<_>>();
                    look.moving |= marked.contains(&None);
                    // Where calls are marked by a time namespace, an
                    // unmarked orphan left its call's namespace on purpose
                    // (`unshare` or `setns`, as root): it may be a finished
                    // call's as well as this one's, so no call is named
                    // for it; the command's end kills it and says so.
                    let unmarked_are_ours = *all_orphans && lineage.ns().is_none();
                    marked.contains(&Some(true))
                        || (adopted
                            && (unmarked_are_ours || tree.iter().any(|p| holds_pipe(p.pid, pipes))))
                }
            };
            if take {
                look.taken.extend(tree);
            }
        }
        look
    }

    /// Anywhere (plugctl is no subreaper, so orphans went to init): the
    /// processes this claim marks in all of /proc, and everything below
    /// them.
    fn scanned(&self, me: &Me) -> Look {
        if matches!(self, Claim::Orphans) {
            return Look::default();
        }
        let leaders = leaders_in_flight();
        let all = processes();
        let mut below: BTreeMap<i32, Vec<&Proc>> = BTreeMap::new();
        for p in &all {
            below.entry(p.ppid).or_default().push(p);
        }
        let mut out: Vec<Proc> = Vec::new();
        let mut taken: HashSet<i32> = HashSet::new();
        let mut todo: Vec<&Proc> = all
            .iter()
            .filter(|p| p.pid != me.pid && self.marks(p) == Some(true))
            .collect();
        if let Claim::Call {
            leader: Some(leader),
            ..
        } = self
        {
            todo.extend(below.get(leader).into_iter().flatten());
        }
        while let Some(p) = todo.pop() {
            if leaders.binary_search(&p.pid).is_ok() || !taken.insert(p.pid) {
                continue;
            }
            out.push(p.clone());
            todo.extend(below.get(&p.pid).into_iter().flatten());
        }
        Look {
            taken: out,
            moving: false,
        }
    }
}

/// What one look found: the processes a claim takes, and whether what is
/// below plugctl was still moving (an adopted process had died, so its
/// children had just come to plugctl, or one died while it was looked
/// at): then it is looked at again at once.
#[derive(Debug, Default)]
struct Look {
    taken: Vec<Proc>,
    moving: bool,
}

/// What one sweep did: the processes it killed, each once, in the order
/// found (with their start times, which tell a reused pid apart), and
/// every adopted orphan it reaped, as it was just before, with what it
/// used.
#[derive(Debug, Default)]
struct Swept {
    found: Vec<Leftover>,
    killed: HashSet<(i32, u64)>,
    reaped: Vec<(Proc, Rusage)>,
}

/// Kills what `claim` takes, round after round while what it killed had
/// forked meanwhile (their children come back to plugctl), for at most
/// [`REAP_BOUND`]; then reaps what plugctl adopted.
async fn sweep(claim: &mut Claim<'_>) -> Swept {
    let subreaper = is_subreaper();
    let me = Me::now();
    let deadline = tokio::time::Instant::now() + REAP_BOUND;
    let mut swept = Swept::default();
    loop {
        // No spawn half done while plugctl's children are looked at.
        let births = no_births();
        // The dead first: what they forked has come to plugctl by now.
        let reaped = subreaper && reap_dead(&me, &mut swept.reaped);
        let look = if subreaper {
            claim.adopted(&me)
        } else {
            claim.scanned(&me)
        };
        let mut alive = false;
        let mut new = false;
        for p in look.taken.iter().filter(|p| !p.zombie) {
            alive = true;
            kill_exact(p, &me);
            if swept.killed.insert((p.pid, p.start)) {
                new = true;
                swept.found.push(Leftover {
                    pid: p.pid,
                    command: p.comm.clone(),
                });
            }
            // What it forked before it died carries its session (never
            // plugctl's own: where the call has a time namespace its plugin
            // stays in plugctl's session, and so would everything else).
            if let Claim::Call { sessions, .. } = claim
                && p.sid != me.sid
            {
                sessions.insert(p.sid);
            }
        }
        drop(births);
        let settled = !alive && !look.moving && !reaped;
        if settled || tokio::time::Instant::now() >= deadline {
            break;
        }
        if new || look.moving || reaped {
            // Something moved: look again at once (a process that forks
            // and exits over and over is caught by being faster than it),
            // letting the other calls run meanwhile.
            tokio::task::yield_now().await;
        } else {
            // Only what was killed is left: give it a moment to die.
            tokio::time::sleep(REAP_POLL).await;
        }
    }
    if subreaper {
        reap_orphans(&mut swept.reaped).await;
    }
    swept
}

/// Kills what a finished call left behind and reaps what was adopted:
/// every process its lineage marks (its session, its time namespace),
/// every process holding its pipes, everything below them, and, when
/// `all_orphans` (no other call runs, so nothing else can own them),
/// every other adopted orphan too; with `leader` (the plugin, never
/// reaped), everything below it. Cheap when nothing is left: plugctl is a
/// subreaper, so once the plugin has exited all it left is below
/// plugctl's own children, which the kernel lists.
///
/// What it kills goes to `spent`, and so does the usage of each orphan it
/// reaps that is the call's: one it killed, one that died in the call's
/// session or in `group` (the plugin's own process group, where its
/// children stay unless they move), or any when `all_orphans`. (A zombie's
/// time namespace can no longer be read: one that left both and died while
/// other calls ran cannot be told apart, and its usage is no call's.)
pub(super) async fn kill_leftovers(
    lineage: &Lineage,
    group: i32,
    leader: Option<i32>,
    pipes: &[u64],
    all_orphans: bool,
    spent: &mut Spent,
) -> Vec<Leftover> {
    // What another call's sweep reaped of this one's meanwhile.
    for (pid, usage) in unclaimed().take(group, lineage.sid) {
        spent.reaped(pid, usage);
    }
    if leader.is_none() && is_subreaper() && children().is_empty() {
        return Vec::new();
    }
    let mut claim = Claim::Call {
        lineage,
        sessions: lineage.sid.into_iter().collect(),
        pipes,
        all_orphans,
        leader,
    };
    let swept = sweep(&mut claim).await;
    let Claim::Call { sessions, .. } = claim else {
        unreachable!("a call's claim stays a call's");
    };
    for l in &swept.found {
        spent.saw(l.pid);
    }
    let mut others = Vec::new();
    for (p, usage) in swept.reaped {
        if all_orphans
            || swept.killed.contains(&(p.pid, p.start))
            || sessions.contains(&p.sid)
            || p.pgid == group
        {
            spent.reaped(p.pid, usage);
        } else {
            others.push((p, usage));
        }
    }
    let mut kept = unclaimed();
    if !others.is_empty() {
        kept.keep(others);
    }
    // And what another sweep reaped of this call's while this one ran.
    for (pid, usage) in kept.take(group, lineage.sid) {
        spent.reaped(pid, usage);
    }
    swept.found
}

/// Orphans one call's sweep reaped that another call in flight left (the
/// children plugctl adopted are one set, whatever call's they are, and a
/// sweep reaps every dead one): kept, with their usage, for that call to
/// take at its end. Held only while their call is in flight.
#[derive(Debug, Default)]
struct Unclaimed {
    /// pid, session, process group, usage.
    reaped: Vec<(i32, i32, i32, Rusage)>,
}

static UNCLAIMED: std::sync::Mutex<Unclaimed> =
    std::sync::Mutex::new(Unclaimed { reaped: Vec::new() });

fn unclaimed() -> std::sync::MutexGuard<'static, Unclaimed> {
    UNCLAIMED.lock().unwrap_or_else(|p| p.into_inner())
}

impl Unclaimed {
    /// Keeps those whose group or session is led by a call in flight (a
    /// call's plugin leads its process group, and its session where it has
    /// no time namespace); what is no call's is dropped, as is what was
    /// kept for a call that has ended.
    fn keep(&mut self, reaped: Vec<(Proc, Rusage)>) {
        let leaders = leaders_in_flight();
        let led = |id: i32| leaders.binary_search(&id).is_ok();
        self.reaped
            .retain(|&(_, sid, pgid, _)| led(sid) || led(pgid));
        self.reaped.extend(
            reaped
                .into_iter()
                .filter(|(p, _)| led(p.sid) || led(p.pgid))
                .map(|(p, u)| (p.pid, p.sid, p.pgid, u)),
        );
    }

    /// Takes what was kept for the call whose plugin leads process group
    /// `group` (and session `sid`, when it leads one).
    fn take(&mut self, group: i32, sid: Option<i32>) -> Vec<(i32, Rusage)> {
        if self.reaped.is_empty() {
            return Vec::new();
        }
        let (mine, rest) = std::mem::take(&mut self.reaped)
            .into_iter()
            .partition(|&(_, s, g, _)| g == group || Some(s) == sid);
        self.reaped = rest;
        mine.into_iter().map(|(pid, _, _, u)| (pid, u)).collect()
    }
}

/// Whether no call but one is in flight in this process: what plugctl
/// adopted is then that call's or a finished one's.
pub(super) fn alone() -> bool {
    leaders_in_flight().len() <= 1
}

/// Reaps every adopted orphan that has died, without waiting, with what
/// each used (`wait4`) into `reaped`; whether there was any.
fn reap_dead(me: &Me, reaped: &mut Vec<(Proc, Rusage)>) -> bool {
    let mut any = false;
    for p in children().into_iter().filter(|p| p.zombie && me.adopted(p)) {
        if let Reaped::Gone(usage) = reap(p.pid) {
            reaped.push((p, usage));
            any = true;
        }
    }
    any
}

/// Reaps adopted orphans that have died (never a call's leader, which its
/// own task reaps, nor any other child of the host program), waiting a
/// little (async: other calls run meanwhile) for those just killed; each
/// one reaped goes to `reaped` with what it used.
async fn reap_orphans(reaped: &mut Vec<(Proc, Rusage)>) {
    let deadline = tokio::time::Instant::now() + REAP_BOUND;
    loop {
        let me = Me::now();
        let mut pending = false;
        let births = no_births();
        for p in children().into_iter().filter(|p| me.adopted(p)) {
            match reap(p.pid) {
                Reaped::Alive => pending = true,
                Reaped::Gone(usage) => reaped.push((p, usage)),
                Reaped::NotOurs => {}
            }
        }
        drop(births);
        if !pending || tokio::time::Instant::now() >= deadline {
            return;
        }
        tokio::time::sleep(REAP_POLL).await;
    }
}

/// Kills and reaps every adopted orphan still running, and all below it:
/// at shutdown, and when a command that ran plugins ends (what no single
/// call could claim: an escapee without a mark of its call, where the
/// kernel gave no time namespace, that held no pipe of a call running
/// beside others).
pub(super) async fn kill_orphans() -> Vec<Leftover> {
    if !is_subreaper() {
        return Vec::new();
    }
    sweep(&mut Claim::Orphans).await.found
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
                start: 358126,
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
    fn adopted_means_our_child_outside_our_group() {
        let me = Me {
            pid: 100,
            pgid: 100,
            sid: 50,
        };
        let p = |pid, ppid, pgid, sid| parse(&line(pid, "x", 'S', ppid, pgid, sid));
        // Escaped with setsid: leads a session of its own.
        assert!(me.adopted(&p(201, 100, 201, 201)));
        // Made a group of its own in its call's session (setpgid): a call's
        // leaders are known by the index, never by how they look.
        assert!(me.adopted(&p(205, 100, 205, 200)));
        // A call's grandchild, re-parented to us, in the call's group.
        assert!(me.adopted(&p(202, 100, 200, 200)));
        // A helper in our own group.
        assert!(!me.adopted(&p(203, 100, 100, 50)));
        // Someone else's child.
        assert!(!me.adopted(&p(204, 1, 204, 204)));
    }

    #[test]
    fn an_orphan_another_sweep_reaped_goes_to_the_call_of_its_group_or_session() {
        use super::{Rusage, Unclaimed};
        let ru = |kib| Rusage {
            max_rss_kib: kib,
            ..Rusage::default()
        };
        // Ids above Linux's largest pid (2^22): no call of another test
        // running in this process leads any of them.
        const B: i32 = 1 << 23;
        let mut kept = Unclaimed {
            // pid, session, group, usage
            reaped: vec![
                (B + 11, B + 500, B + 10, ru(1)),
                (B + 21, B + 20, B + 700, ru(2)),
                (B + 31, B + 30, B + 30, ru(3)),
            ],
        };
        // The call whose plugin leads group 10 (a time namespace's call,
        // in plugctl's session) takes what died in its group.
        assert_eq!(kept.take(B + 10, None), vec![(B + 11, ru(1))]);
        // One that leads session 20 takes what died in its session,
        // whatever group it made.
        assert_eq!(kept.take(B + 40, Some(B + 20)), vec![(B + 21, ru(2))]);
        assert_eq!(kept.reaped.len(), 1);
        // With no call in flight, nothing is kept: it is no call's.
        kept.keep(Vec::new());
        assert!(kept.reaped.is_empty());
    }

    #[test]
    fn this_process_reads_as_itself() {
        let me = super::proc_of(std::process::id() as i32).unwrap();
        assert_eq!(me.pid, std::process::id() as i32);
        assert_eq!(me.pgid, nix::unistd::getpgrp().as_raw());
        assert!(!me.zombie);
    }
}

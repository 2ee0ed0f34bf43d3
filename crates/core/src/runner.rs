//! Runs plugin executables the way the protocol says Nomad does (direct exec,
//! only the given environment, stdin from /dev/null) but safer: each call in
//! its own process group, a hard deadline with SIGTERM → grace → SIGKILL to
//! the whole group, bounded capture of stdout and stderr, and no waiting on
//! pipes that orphaned children hold open. Knows nothing about JSON.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::FileExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Component, Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use nix::errno::Errno;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::{AccessFlags, Pid, access};
use tokio::io::AsyncReadExt;
use tokio::process::{Child, Command};
use tokio::sync::Semaphore;
use tokio::time::Instant;

/// Default bound on captured stdout (the rest is drained and counted).
pub const STDOUT_LIMIT: usize = 4 << 20;
/// Default bound on captured stderr: the last bytes are kept.
pub const STDERR_LIMIT: usize = 64 << 10;

/// One call of one plugin.
#[derive(Debug, Clone)]
pub struct Invocation {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// The complete environment of the child: nothing is inherited.
    pub env: Vec<(OsString, OsString)>,
    pub deadline: Duration,
    pub grace: Duration,
    pub stdout_limit: usize,
    pub stderr_limit: usize,
    /// `--locked`: exec only if the program is still this file (checked in
    /// the child, between fork and exec).
    pub expect: Option<crate::identity::Verified>,
}

impl Invocation {
    pub fn new(program: impl Into<PathBuf>, deadline: Duration, grace: Duration) -> Self {
        Invocation {
            program: program.into(),
            args: Vec::new(),
            env: Vec::new(),
            deadline,
            grace,
            stdout_limit: STDOUT_LIMIT,
            stderr_limit: STDERR_LIMIT,
            expect: None,
        }
    }

    pub fn arg(mut self, a: impl Into<OsString>) -> Self {
        self.args.push(a.into());
        self
    }

    pub fn env(mut self, k: impl Into<OsString>, v: impl Into<OsString>) -> Self {
        self.env.push((k.into(), v.into()));
        self
    }
}

/// How the direct child ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    Exited(i32),
    Signaled(i32),
}

/// What happened, measured. A plugin that could not be started at all is a
/// [`SpawnError`] instead.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub termination: Termination,
    /// The deadline passed and the group was signalled.
    pub timed_out: bool,
    /// SIGKILL was needed (SIGTERM plus grace was not enough).
    pub killed: bool,
    /// The first `stdout_limit` bytes of stdout.
    pub stdout: Vec<u8>,
    /// Bytes of stdout read past the limit and dropped.
    pub stdout_dropped: u64,
    /// The last `stderr_limit` bytes of stderr.
    pub stderr: Vec<u8>,
    /// Bytes of stderr dropped from the front.
    pub stderr_dropped: u64,
    /// A process outside our reach still held a pipe when we stopped reading.
    pub pipes_abandoned: bool,
    pub duration: Duration,
    /// Processes the plugin left running after it exited (in its group, or
    /// escaped from it with setsid and adopted by plugctl), killed.
    pub leftovers: Vec<Leftover>,
}

/// A process a plugin left behind; plugctl killed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leftover {
    pub pid: i32,
    pub command: String,
}

impl Outcome {
    pub fn success(&self) -> bool {
        !self.timed_out && self.termination == Termination::Exited(0)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpawnError {
    #[error("{0} does not exist")]
    NotFound(PathBuf),
    #[error("{0} is not executable")]
    PermissionDenied(PathBuf),
    #[error("interpreter {interpreter} of {program} does not exist")]
    InterpreterMissing {
        program: PathBuf,
        interpreter: String,
    },
    #[error("{0}: exec format error")]
    ExecFormat(PathBuf),
    #[error("{program}: {message}")]
    Other { program: PathBuf, message: String },
    /// plugctl would not run it: its owner and mode rules, or `--locked`
    /// and the lock file (the message says which, and what to do).
    #[error("refused to run {program}: {message}")]
    Refused { program: PathBuf, message: String },
    /// plugctl could not get a process, a thread or a descriptor for the
    /// call, even after waiting: its own shortage, not the plugin's.
    #[error("not run: plugctl ran out of {resource} starting {program}; {hint}")]
    Exhausted {
        program: PathBuf,
        resource: &'static str,
        hint: &'static str,
    },
}

impl SpawnError {
    /// plugctl's own shortage: nothing about the plugin is known.
    pub fn is_exhausted(&self) -> bool {
        matches!(self, SpawnError::Exhausted { .. })
    }
}

impl Outcome {
    /// Captured stdout as text, invalid UTF-8 replaced.
    pub fn stdout_lossy(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// Captured stderr as text, invalid UTF-8 replaced.
    pub fn stderr_lossy(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }

    /// "stdout cut at 4 MiB, 295 MiB dropped" when anything was dropped, so
    /// a message about a broken response can say the response was partial.
    pub fn describe_truncation(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.stdout_dropped > 0 {
            parts.push(format!(
                "stdout cut at {}, {} dropped",
                human_bytes(self.stdout.len() as u64),
                human_bytes(self.stdout_dropped)
            ));
        }
        if self.stderr_dropped > 0 {
            parts.push(format!(
                "stderr kept the last {}, {} dropped",
                human_bytes(self.stderr.len() as u64),
                human_bytes(self.stderr_dropped)
            ));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// `4 MiB`, `1.5 KiB`, `12 B`: byte counts for messages.
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut value = n as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if value >= 10.0 || value.fract() == 0.0 {
        format!("{value:.0} {}", UNITS[unit])
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// One buffer per pipe, reused for every read: a flood costs few syscalls
/// and memory stays flat whatever the plugin prints.
const READ_BUF: usize = 64 << 10;

/// How long we keep reading once the group was SIGKILLed or found empty.
/// Whoever still holds a pipe then has left the group (setsid, a daemon's
/// double fork) and no signal of ours reaches it, so waiting longer could
/// be forever.
pub const PIPE_DRAIN_BOUND: Duration = Duration::from_millis(250);

/// Nothing tells us when the last member of a group dies once its leader is
/// reaped, so after SIGTERM we ask this often (the answer may cost a scan of
/// /proc, see [`group_alive`]).
pub const GROUP_POLL: Duration = Duration::from_millis(20);

/// After the plugin exits, how long a process it left behind may keep its
/// output pipes open before plugctl kills it: long enough for a child that
/// is finishing a write, short against any deadline.
const LEFTOVER_GRACE: Duration = Duration::from_millis(500);

/// ETXTBSY means some process still has the file open for writing: usually
/// a sibling thread's fork that inherited the writer's descriptor and has not
/// reached exec yet, or a plugin being replaced. Both pass in milliseconds.
const TXTBSY_BACKOFF_MS: [u64; 4] = [10, 20, 40, 80];

/// On our own interruption the user is waiting: never make them wait longer
/// than this for plugins to honour SIGTERM, whatever their grace says.
pub const INTERRUPT_GRACE_CAP: Duration = Duration::from_secs(2);

/// Runs one plugin call to the end and says what happened.
///
/// Finished means the direct child has exited and both pipes are at EOF,
/// except that nothing waits past `deadline + grace + PIPE_DRAIN_BOUND`
/// (plus scheduling delay): at the deadline the whole process group gets
/// SIGTERM, after the grace SIGKILL, and pipes still held after that by
/// processes that left the group are abandoned.
///
/// A process left running in the group after a call that finished in time
/// (output redirected, leader exited) is left alone, as Nomad would: a
/// host-volume plugin may legitimately leave a FUSE daemon behind. After a
/// timeout nothing of the group survives.
pub async fn run(inv: &Invocation) -> Result<Outcome, SpawnError> {
    let program = exec_path(&inv.program);
    refuse_unknown_format(&program, &inv.program)?;
    let (mut child, mut group) = spawn(inv, &program).await?;
    let started = Instant::now();
    // Job control stops plugctl and its plugins together; the time stopped
    // is not the plugin's (see stop::paused).
    let paused_at_start = crate::stop::paused();
    let our_pipes = pipe_inodes_of(&child);
    let mut exited_at: Option<Instant> = None;
    let mut leftovers: Vec<Leftover> = Vec::new();
    let mut leftovers_checked = false;

    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let mut out = Head::new(inv.stdout_limit);
    let mut err = Tail::new(inv.stderr_limit);
    let mut out_buf = vec![0u8; READ_BUF];
    let mut err_buf = vec![0u8; READ_BUF];

    let mut status: Option<Termination> = None;
    let mut timed_out = false;
    let mut killed = false;
    let mut pipes_abandoned = false;
    let deadline_at = later(started, inv.deadline);
    let mut stage = Stage::Running;
    let mut last_probe: Option<Instant> = None;
    let timer = tokio::time::sleep_until(deadline_at);
    tokio::pin!(timer);

    loop {
        let pipes_open = stdout.is_some() || stderr.is_some();
        let now = Instant::now();
        match stage {
            Stage::Running | Stage::Draining { .. } if status.is_some() && !pipes_open => break,
            // After SIGTERM, done also means nothing of the group is left:
            // a member that closed its output would otherwise outlive the
            // timeout. The probe only means something once the leader is
            // reaped, as a zombie leader keeps the group id alive.
            Stage::Terminating { .. } if status.is_some() => {
                if last_probe.is_none_or(|t| now >= t + GROUP_POLL) {
                    group.probe();
                    last_probe = Some(now);
                }
                if group.known_empty {
                    if !pipes_open {
                        break;
                    }
                    stage = Stage::Draining {
                        until: now + PIPE_DRAIN_BOUND,
                    };
                }
            }
            _ => {}
        }
        let deadline_now = later(
            deadline_at,
            crate::stop::paused().saturating_sub(paused_at_start),
        );
        // The plugin exited, but something it started still holds its
        // output: after a moment, that is a process left behind.
        // (Looked for once; what plugctl cannot reach — an escapee adopted
        // by init where plugctl is no subreaper — waits for the deadline.)
        if matches!(stage, Stage::Running)
            && pipes_open
            && !leftovers_checked
            && exited_at.is_some_and(|t| now >= t + LEFTOVER_GRACE)
        {
            leftovers_checked = true;
            let found = kill_leftovers(group.pgid, &our_pipes, false);
            if !found.is_empty() {
                leftovers.extend(found);
                stage = Stage::Draining {
                    until: now + PIPE_DRAIN_BOUND,
                };
            }
        }
        let wake_at = match stage {
            Stage::Running => match exited_at {
                Some(t) if pipes_open && !leftovers_checked => deadline_now.min(t + LEFTOVER_GRACE),
                _ => deadline_now,
            },
            Stage::Terminating { kill_at } => match last_probe {
                Some(t) => kill_at.min(t + GROUP_POLL),
                None => kill_at,
            },
            Stage::Draining { until } => until,
        };
        if timer.deadline() != wake_at {
            timer.as_mut().reset(wake_at);
        }

        tokio::select! {
            n = read_pipe(&mut stdout, &mut out_buf) => match n {
                Some(n) => out.push(&out_buf[..n]),
                None => stdout = None,
            },
            n = read_pipe(&mut stderr, &mut err_buf) => match n {
                Some(n) => err.push(&err_buf[..n]),
                None => stderr = None,
            },
            s = child.wait(), if status.is_none() => {
                // wait() fails only if someone else reaped our child (a
                // SIGCHLD set to SIG_IGN, a waitpid(-1) elsewhere): the
                // leader is gone but its status is lost, which -1, never a
                // real exit code, stands for.
                status = Some(s.map_or(Termination::Exited(-1), termination));
                exited_at = Some(Instant::now());
            },
            () = &mut timer => {
                let now = Instant::now();
                match stage {
                    // Woken for the leftover check, or the deadline moved
                    // while plugctl was stopped: not the deadline yet.
                    Stage::Running if now < later(
                        deadline_at,
                        crate::stop::paused().saturating_sub(paused_at_start),
                    ) => {}
                    Stage::Running => {
                        timed_out = true;
                        if inv.grace.is_zero() {
                            killed = group.signal(Signal::SIGKILL);
                            stage = Stage::Draining { until: now + PIPE_DRAIN_BOUND };
                        } else {
                            group.signal(Signal::SIGTERM);
                            stage = Stage::Terminating { kill_at: later(deadline_at, inv.grace) };
                        }
                    }
                    Stage::Terminating { kill_at } if now >= kill_at => {
                        killed = group.signal(Signal::SIGKILL);
                        stage = Stage::Draining { until: now + PIPE_DRAIN_BOUND };
                    }
                    Stage::Terminating { .. } => {}
                    Stage::Draining { .. } => {
                        pipes_abandoned = stdout.is_some() || stderr.is_some();
                        break;
                    }
                }
            },
        }
    }
    // Whatever the plugin left running after it exited: its group's
    // members, and what escaped the group (setsid) and was adopted by
    // plugctl. A plugin call leaves nothing behind.
    let alone = live_groups().len() <= 1;
    for l in kill_leftovers(group.pgid, &our_pipes, alone) {
        // One killed a moment ago may not be gone yet.
        if !leftovers.iter().any(|seen| seen.pid == l.pid) {
            leftovers.push(l);
        }
    }
    let duration = started
        .elapsed()
        .saturating_sub(crate::stop::paused().saturating_sub(paused_at_start));
    group.finished = true;
    drop(group);

    let (stdout, stdout_dropped) = out.finish();
    let (stderr, stderr_dropped) = err.finish();
    Ok(Outcome {
        // Unreaped only when even SIGKILL plus the drain bound did not end
        // the leader (uninterruptible sleep on a dead mount): it will die of
        // that SIGKILL, and tokio reaps it once the Child is dropped.
        termination: status.unwrap_or(Termination::Signaled(Signal::SIGKILL as i32)),
        timed_out,
        killed,
        stdout,
        stdout_dropped,
        stderr,
        stderr_dropped,
        pipes_abandoned,
        duration,
        leftovers,
    })
}

#[derive(Debug, Clone, Copy)]
enum Stage {
    /// Before the deadline.
    Running,
    /// SIGTERM sent; SIGKILL at `kill_at` unless the group is gone by then.
    Terminating { kill_at: Instant },
    /// Nothing more to signal; the pipes get until `until` to reach EOF.
    Draining { until: Instant },
}

fn later(t: Instant, d: Duration) -> Instant {
    // A "no deadline" of Duration::MAX must not overflow Instant.
    t.checked_add(d)
        .unwrap_or_else(|| t + Duration::from_secs(100 * 365 * 86_400))
}

fn termination(s: ExitStatus) -> Termination {
    match (s.code(), s.signal()) {
        (Some(code), _) => Termination::Exited(code),
        (None, Some(sig)) => Termination::Signaled(sig),
        (None, None) => Termination::Exited(-1),
    }
}

/// Reads once from a pipe that may already be closed; `None` at EOF. Never
/// resolves for a closed pipe, so it can sit in `select!` unconditionally
/// (a branch precondition does not stop the future from being built).
async fn read_pipe<R>(pipe: &mut Option<R>, buf: &mut [u8]) -> Option<usize>
where
    R: tokio::io::AsyncRead + Unpin,
{
    let Some(p) = pipe else {
        return std::future::pending().await;
    };
    loop {
        match p.read(buf).await {
            Ok(0) => return None,
            Ok(n) => return Some(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            // A broken pipe is as good as EOF: nothing more can come.
            Err(_) => return None,
        }
    }
}

/// The first `limit` bytes; the rest only counted.
struct Head {
    buf: Vec<u8>,
    limit: usize,
    dropped: u64,
}

impl Head {
    fn new(limit: usize) -> Self {
        Head {
            buf: Vec::new(),
            limit,
            dropped: 0,
        }
    }

    fn push(&mut self, data: &[u8]) {
        let take = self.limit.saturating_sub(self.buf.len()).min(data.len());
        if self.buf.capacity() < self.buf.len() + take {
            // Plain doubling could reserve up to twice the limit.
            let want = (self.buf.len() + take)
                .max(self.buf.capacity() * 2)
                .min(self.limit);
            self.buf.reserve_exact(want - self.buf.len());
        }
        self.buf.extend_from_slice(&data[..take]);
        self.dropped += (data.len() - take) as u64;
    }

    fn finish(self) -> (Vec<u8>, u64) {
        (self.buf, self.dropped)
    }
}

/// The last `limit` bytes: the end of stderr is where the error usually is.
struct Tail {
    buf: Vec<u8>,
    limit: usize,
    dropped: u64,
}

impl Tail {
    fn new(limit: usize) -> Self {
        Tail {
            buf: Vec::new(),
            limit,
            dropped: 0,
        }
    }

    fn push(&mut self, data: &[u8]) {
        if data.len() >= self.limit {
            self.dropped += (self.buf.len() + data.len() - self.limit) as u64;
            self.buf.clear();
            self.buf.extend_from_slice(&data[data.len() - self.limit..]);
            return;
        }
        self.buf.extend_from_slice(data);
        // Trimming only past twice the limit keeps the memmove amortised.
        if self.buf.len() > self.limit.saturating_mul(2) {
            self.trim();
        }
    }

    fn trim(&mut self) {
        let cut = self.buf.len().saturating_sub(self.limit);
        self.buf.drain(..cut);
        self.dropped += cut as u64;
    }

    fn finish(mut self) -> (Vec<u8>, u64) {
        self.trim();
        (self.buf, self.dropped)
    }
}

/// A bare name would make exec search PATH (ours, since the child's
/// environment is not the one searched); a plugin is a file, named by path.
fn exec_path(program: &Path) -> PathBuf {
    let mut parts = program.components();
    match (parts.next(), parts.next()) {
        (Some(Component::Normal(_)), None) => Path::new(".").join(program),
        _ => program.to_path_buf(),
    }
}

/// When std cannot use posix_spawn (glibc older than 2.24, among others) it
/// forks and calls execvp, which runs a file without `#!` through /bin/sh
/// on ENOEXEC. Nomad (Go) gets "exec format error" for such a file, and a
/// plugin that works here but not under Nomad is worse than a clear error,
/// so a file that is neither a script nor ELF is refused before exec. The
/// price is binfmt_misc formats, which no plugin is known to use.
fn refuse_unknown_format(program: &Path, shown: &Path) -> Result<(), SpawnError> {
    let Ok(meta) = std::fs::metadata(program) else {
        return Ok(());
    };
    // Whatever exec would refuse anyway, let exec say why.
    if !meta.is_file() || access(program, AccessFlags::X_OK).is_err() {
        return Ok(());
    }
    let Ok(file) = File::open(program) else {
        return Ok(());
    };
    let mut magic = Vec::with_capacity(4);
    if file.take(4).read_to_end(&mut magic).is_err() {
        return Ok(());
    }
    if magic.starts_with(b"#!") || magic == b"\x7fELF" {
        Ok(())
    } else {
        Err(SpawnError::ExecFormat(shown.to_path_buf()))
    }
}

/// Makes plugctl the reaper of its descendants' orphans (Linux's child
/// subreaper): a plugin's child that calls setsid() and outlives the plugin
/// is re-parented to plugctl instead of init, so plugctl can find it, kill
/// it and reap it.
pub fn become_subreaper() {
    let _ = nix::sys::prctl::set_child_subreaper(true);
}

/// One process, from `/proc/<pid>/stat`.
#[derive(Debug, Clone)]
struct Proc {
    pid: i32,
    ppid: i32,
    pgid: i32,
    sid: i32,
    zombie: bool,
    comm: String,
}

impl Proc {
    /// A plugin's descendant adopted by plugctl: our child that is not in
    /// plugctl's own process group (so not a helper plugctl started, nor a
    /// sibling in a host program's tests), and not a call's leader (a
    /// leader leads its group inside plugctl's session; an escapee is in a
    /// group it does not lead, or in a session of its own).
    fn adopted(&self) -> bool {
        let me = nix::unistd::getpid().as_raw();
        self.ppid == me
            && self.pgid != nix::unistd::getpgrp().as_raw()
            && (self.pgid != self.pid
                || self.sid != nix::unistd::getsid(None).map_or(0, |s| s.as_raw()))
    }
}

fn processes() -> Vec<Proc> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in dir.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        out.extend(parse_stat_line(pid, &stat));
    }
    out
}

/// Fields of `/proc/<pid>/stat`; the command name may hold spaces and
/// parentheses, so the fields after it are counted from its last `)`.
fn parse_stat_line(pid: i32, stat: &str) -> Option<Proc> {
    let open = stat.find('(')?;
    let (head, fields) = stat.rsplit_once(')')?;
    let comm = head.get(open + 1..).unwrap_or_default().to_string();
    let mut f = fields.split_ascii_whitespace();
    let state = f.next().unwrap_or_default();
    let ppid = f.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    let pgid = f.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    let sid = f.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    Some(Proc {
        pid,
        ppid,
        pgid,
        sid,
        zombie: matches!(state, "Z" | "X"),
        comm,
    })
}

/// The inodes of a child's stdout and stderr pipes (what a process holding
/// them has open as `pipe:[inode]`).
fn pipe_inodes_of(child: &Child) -> Vec<u64> {
    use std::os::fd::AsRawFd;
    let fds = [
        child.stdout.as_ref().map(|p| p.as_raw_fd()),
        child.stderr.as_ref().map(|p| p.as_raw_fd()),
    ];
    fds.into_iter()
        .flatten()
        .filter_map(|fd| {
            nix::sys::stat::fstat(unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) }).ok()
        })
        .map(|st| st.st_ino)
        .collect()
}

fn holds_pipe(pid: i32, pipes: &[u64]) -> bool {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return false;
    };
    fds.flatten().any(|fd| {
        std::fs::read_link(fd.path()).is_ok_and(|l| {
            l.to_str()
                .and_then(|l| {
                    l.strip_prefix("pipe:[")?
                        .strip_suffix(']')?
                        .parse::<u64>()
                        .ok()
                })
                .is_some_and(|ino| pipes.contains(&ino))
        })
    })
}

/// Kills what a finished call left behind and reaps what was adopted:
/// members of its group, orphans (adopted by plugctl) holding its pipes,
/// and, when `all_orphans` (no other call runs, so nothing else can own
/// them), every other orphan too.
fn kill_leftovers(pgid: Pid, pipes: &[u64], all_orphans: bool) -> Vec<Leftover> {
    let me = std::process::id() as i32;
    // Cheap first: the group is usually gone (no member answers a null
    // signal), and plugctl's children are listed by the kernel; the whole
    // process table is read only when the group still has members.
    let group_left = killpg(pgid, None).is_ok();
    let mut procs = if group_left { processes() } else { children() };
    // Dead orphans too: they wait for plugctl to reap them.
    let any_adopted = procs.iter().any(Proc::adopted);
    procs.retain(|p| !p.zombie && p.pid != me);
    let mut found = Vec::new();
    let mut in_group = false;
    for p in &procs {
        let member = p.pgid == pgid.as_raw();
        let orphan = p.adopted();
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
    }
    // Only adopted orphans are ours to reap (group members have their own
    // parents); with none in sight there is nothing to wait for.
    if any_adopted {
        reap_orphans();
    }
    found
}

/// plugctl's own children, from `/proc/self/task/*/children` (the kernel
/// lists each thread's children, adopted orphans included).
fn children() -> Vec<Proc> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return processes()
            .into_iter()
            .filter(|p| p.ppid == std::process::id() as i32)
            .collect();
    };
    let mut pids: Vec<i32> = Vec::new();
    for t in tasks.flatten() {
        if let Ok(list) = std::fs::read_to_string(t.path().join("children")) {
            pids.extend(
                list.split_ascii_whitespace()
                    .filter_map(|p| p.parse::<i32>().ok()),
            );
        }
    }
    pids.sort_unstable();
    pids.dedup();
    // The calls' leaders are children too, and there may be hundreds of
    // them: known by their group, they need no /proc read.
    let leaders = live_groups();
    pids.into_iter()
        .filter(|p| !leaders.contains(p))
        .filter_map(proc_of)
        .collect()
}

fn proc_of(pid: i32) -> Option<Proc> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat_line(pid, &stat)
}

/// Reaps adopted orphans that have died (never a call's leader, which its
/// own task reaps, nor any other child of the host program), waiting a
/// little for those just killed.
fn reap_orphans() {
    use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
    let deadline = std::time::Instant::now() + Duration::from_millis(200);
    loop {
        let orphans: Vec<i32> = children()
            .into_iter()
            .filter(Proc::adopted)
            .map(|p| p.pid)
            .collect();
        let mut pending = false;
        for pid in orphans {
            if let Ok(WaitStatus::StillAlive) =
                waitpid(Pid::from_raw(pid), Some(WaitPidFlag::WNOHANG))
            {
                pending = true;
            }
        }
        if !pending || std::time::Instant::now() >= deadline {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Kills and reaps every adopted orphan still running: at shutdown, and
/// when a command that ran plugins ends (an escapee that held no pipe of a
/// call running beside others could not be told apart before).
pub fn kill_orphans() -> Vec<Leftover> {
    let mut killed = Vec::new();
    for p in children() {
        if p.adopted() && !p.zombie {
            let _ = nix::sys::signal::kill(Pid::from_raw(p.pid), Signal::SIGKILL);
            killed.push(Leftover {
                pid: p.pid,
                command: p.comm,
            });
        }
    }
    reap_orphans();
    killed
}

/// Process-wide record of the groups of calls in flight, so that our own
/// interruption can take them down: the child's `kill_on_drop` reaches only
/// the leader, and `process::exit` runs no destructors at all, so without
/// this a plugin's children would outlive plugctl.
struct Registry {
    /// pgid → that call's grace.
    groups: BTreeMap<i32, Duration>,
    /// Set once we are shutting down: no new group may appear after the
    /// interrupt handler took its snapshot.
    closed: bool,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    groups: BTreeMap::new(),
    closed: false,
});

fn registry() -> MutexGuard<'static, Registry> {
    // The data stays consistent whatever panicked while holding it.
    REGISTRY.lock().unwrap_or_else(|p| p.into_inner())
}

/// Our handle on one call's process group; leaves the registry on drop.
struct Group {
    pgid: Pid,
    /// Seen empty after the leader was reaped. From then on the id may be
    /// reused by an unrelated group and must never be signalled again.
    known_empty: bool,
    /// The call ran to its end. Otherwise the future was dropped mid-call,
    /// and the group is SIGKILLed rather than left running unwatched.
    finished: bool,
}

impl Group {
    /// Whether the signal reached anyone.
    fn signal(&mut self, sig: Signal) -> bool {
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
    fn probe(&mut self) {
        if !self.known_empty && !group_alive(self.pgid) {
            self.known_empty = true;
        }
    }
}

/// Whether any member of the group is still running. Members that are
/// zombies count as gone: they hold the group id (so signals "succeed") until
/// their new parent reaps them, and an init that reaps lazily (as in some
/// containers) would otherwise make every timed-out call look like it needed
/// SIGKILL. Without /proc only the signal's answer is known.
pub fn group_alive(pgid: Pid) -> bool {
    match killpg(pgid, None) {
        Err(Errno::ESRCH) => false,
        Ok(()) => running_member_in_proc(pgid).unwrap_or(true),
        // EPERM: someone is there, just not ours to signal.
        Err(_) => true,
    }
}

fn running_member_in_proc(pgid: Pid) -> Option<bool> {
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let name = entry.file_name();
        if !name.as_encoded_bytes().iter().all(u8::is_ascii_digit) {
            continue;
        }
        // A process that exits meanwhile just disappears from the listing.
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // The command name may contain spaces and parentheses: the fields
        // that matter follow the last ')'.
        let Some((_, fields)) = stat.rsplit_once(')') else {
            continue;
        };
        let mut fields = fields.split_ascii_whitespace();
        let (state, _ppid, pgrp) = (fields.next(), fields.next(), fields.next());
        if pgrp.and_then(|p| p.parse().ok()) != Some(pgid.as_raw()) {
            continue;
        }
        let zombie = matches!(state, Some("Z" | "X"));
        if !zombie || has_other_threads(&entry.path(), &name) {
            return Some(true);
        }
    }
    Some(false)
}

/// A main thread that called pthread_exit shows the process as a zombie
/// while its other threads still run.
fn has_other_threads(proc_dir: &Path, pid: &std::ffi::OsStr) -> bool {
    std::fs::read_dir(proc_dir.join("task"))
        .into_iter()
        .flatten()
        .flatten()
        .any(|t| t.file_name() != pid)
}

impl Drop for Group {
    fn drop(&mut self) {
        registry().groups.remove(&self.pgid.as_raw());
        if !self.finished {
            self.signal(Signal::SIGKILL);
        }
    }
}

async fn spawn(inv: &Invocation, program: &Path) -> Result<(Child, Group), SpawnError> {
    let mut cmd = Command::new(program);
    cmd.args(&inv.args)
        .env_clear()
        .envs(inv.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    if let Some(verified) = &inv.expect {
        let failed = |e: io::Error| SpawnError::Other {
            program: inv.program.clone(),
            message: e.to_string(),
        };
        if verified.elf {
            let mut argv = vec![program.as_os_str()];
            argv.extend(inv.args.iter().map(|a| a.as_os_str()));
            let exec = crate::identity::ExecFd::new(verified.file.clone(), &argv, &inv.env)
                .map_err(failed)?;
            // SAFETY: one execveat(2) with arrays prepared before fork.
            unsafe {
                cmd.pre_exec(move || Err(exec.exec()));
            }
        } else {
            let mut check = verified.identity.pre_exec_check(program).map_err(failed)?;
            match &verified.interpreter {
                // The interpreter that was hashed runs, through its
                // descriptor, as the kernel would have run it; the script
                // it opens by path is checked just before.
                Some(interp) => {
                    let mut argv: Vec<&std::ffi::OsStr> =
                        interp.argv_head.iter().map(|a| a.as_os_str()).collect();
                    argv.extend(inv.args.iter().map(|a| a.as_os_str()));
                    let exec =
                        crate::identity::ExecFd::new(interp.program.clone(), &argv, &inv.env)
                            .map_err(failed)?;
                    // SAFETY: one stat(2) and one execveat(2), with
                    // everything prepared before fork.
                    unsafe {
                        cmd.pre_exec(move || {
                            check()?;
                            Err(exec.exec())
                        });
                    }
                }
                None => {
                    // SAFETY: the check only calls stat(2) on a path prepared before fork.
                    unsafe {
                        cmd.pre_exec(check);
                    }
                }
            }
        }
    }
    let mut backoff = TXTBSY_BACKOFF_MS.iter();
    let give_up = later(Instant::now(), inv.deadline);
    let mut pause = Duration::from_millis(10);
    loop {
        let error = match spawn_registered(&mut cmd, inv) {
            Ok(Some(spawned)) => return Ok(spawned),
            Ok(None) => {
                return Err(SpawnError::Other {
                    program: inv.program.clone(),
                    message: "not started: plugctl is shutting down".into(),
                });
            }
            Err(e) => e,
        };
        if inv.expect.is_some() && error.raw_os_error() == Some(Errno::ESTALE as i32) {
            return Err(SpawnError::Other {
                program: inv.program.clone(),
                message: "drifted: the file changed between its pin check and exec; not run".into(),
            });
        }
        if error.raw_os_error() == Some(Errno::ETXTBSY as i32)
            && let Some(&ms) = backoff.next()
        {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            continue;
        }
        // Out of processes or descriptors: plugctl's condition. Other calls
        // ending free some; wait for that within the call's own deadline.
        if let Some((resource, hint)) = crate::error::exhaustion(&error)
            && error.raw_os_error() != Some(Errno::ENOMEM as i32)
        {
            if Instant::now() < give_up {
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_millis(200));
                continue;
            }
            return Err(SpawnError::Exhausted {
                program: inv.program.clone(),
                resource,
                hint,
            });
        }
        return Err(classify(&error, program, &inv.program));
    }
}

/// Spawns and registers under one lock, so that the interrupt handler's
/// snapshot cannot miss a group born meanwhile.
fn spawn_registered(cmd: &mut Command, inv: &Invocation) -> io::Result<Option<(Child, Group)>> {
    let mut reg = registry();
    if reg.closed {
        return Ok(None);
    }
    let child = cmd.spawn()?;
    let pid = child
        .id()
        .and_then(|id| i32::try_from(id).ok())
        .ok_or_else(|| io::Error::other("spawned child has no pid"))?;
    reg.groups.insert(pid, inv.grace);
    let group = Group {
        pgid: Pid::from_raw(pid),
        known_empty: false,
        finished: false,
    };
    Ok(Some((child, group)))
}

fn classify(error: &io::Error, program: &Path, shown: &Path) -> SpawnError {
    let shown = shown.to_path_buf();
    match error.raw_os_error().map(Errno::from_raw) {
        // The kernel says ENOENT both for a missing file and for a present
        // file whose interpreter (shebang or ELF loader) is missing.
        Some(Errno::ENOENT) => match missing_interpreter(program) {
            Some(interpreter) => SpawnError::InterpreterMissing {
                program: shown,
                interpreter,
            },
            None => SpawnError::NotFound(shown),
        },
        Some(Errno::EACCES) if program.is_dir() => SpawnError::Other {
            program: shown,
            message: "is a directory".into(),
        },
        Some(Errno::EACCES) => SpawnError::PermissionDenied(shown),
        Some(Errno::ENOEXEC) => SpawnError::ExecFormat(shown),
        _ => SpawnError::Other {
            program: shown,
            message: error.to_string(),
        },
    }
}

fn missing_interpreter(program: &Path) -> Option<String> {
    let file = File::open(program).ok()?;
    // The kernel reads no more of a shebang line than this.
    let mut head = Vec::with_capacity(256);
    (&file).take(256).read_to_end(&mut head).ok()?;
    if let Some(line) = head.strip_prefix(b"#!") {
        let line = line.split(|&b| b == b'\n').next().unwrap_or_default();
        let word = line
            .split(|&b| b == b' ' || b == b'\t')
            .find(|w| !w.is_empty())?;
        return Some(String::from_utf8_lossy(word).into_owned());
    }
    if head.starts_with(b"\x7fELF") {
        return elf_interpreter(&file, &head);
    }
    None
}

/// The PT_INTERP path of an ELF file: a binary built against another libc
/// (musl on glibc) fails with ENOENT though it exists, and "does not exist"
/// would send the user looking for the wrong file.
fn elf_interpreter(file: &File, head: &[u8]) -> Option<String> {
    let wide = match head.get(4)? {
        1 => false,
        2 => true,
        _ => return None,
    };
    let little = match head.get(5)? {
        1 => true,
        2 => false,
        _ => return None,
    };
    let num = |b: &[u8]| -> u64 {
        let mut v = 0u64;
        for i in 0..b.len() {
            let byte = if little { b[b.len() - 1 - i] } else { b[i] };
            v = (v << 8) | u64::from(byte);
        }
        v
    };
    let field = |off: usize, len: usize| head.get(off..off + len).map(num);
    let (phoff, phentsize, phnum) = if wide {
        (field(0x20, 8)?, field(0x36, 2)?, field(0x38, 2)?)
    } else {
        (field(0x1c, 4)?, field(0x2a, 2)?, field(0x2c, 2)?)
    };
    let entry_len = if wide { 56 } else { 32 };
    let mut entry = [0u8; 56];
    for i in 0..phnum.min(256) {
        // The header is untrusted input: offsets may be anything.
        let at = phoff.checked_add(i.checked_mul(phentsize)?)?;
        file.read_exact_at(&mut entry[..entry_len], at).ok()?;
        const PT_INTERP: u64 = 3;
        if num(&entry[0..4]) != PT_INTERP {
            continue;
        }
        let (offset, size) = if wide {
            (num(&entry[8..16]), num(&entry[32..40]))
        } else {
            (num(&entry[4..8]), num(&entry[16..20]))
        };
        if size == 0 || size > 4096 {
            return None;
        }
        let mut path = vec![0u8; size as usize];
        file.read_exact_at(&mut path, offset).ok()?;
        let end = path.iter().position(|&b| b == 0).unwrap_or(path.len());
        return Some(String::from_utf8_lossy(&path[..end]).into_owned());
    }
    None
}

/// Decides, just before a call runs, whether it may (the lock file under
/// `--locked`: [`crate::provenance::locked::Pins`]). The runner knows only
/// this trait, so provenance builds on the runner and not both ways.
pub trait Gate: Send + Sync + std::fmt::Debug {
    /// `Ok(Some(id))`: run it, and only if `exec_path` is still `id` at
    /// exec. `Ok(None)`: run it unchecked. `Err(reason)`: do not run it.
    fn admit(
        &self,
        inv: &Invocation,
        exec_path: &Path,
    ) -> std::result::Result<Option<crate::identity::Verified>, String>;
}

/// Keeps every call that ran (`--record`:
/// [`crate::provenance::case::Recorder`]).
pub trait Witness: Send + Sync + std::fmt::Debug {
    fn record(&self, inv: &Invocation, out: &Outcome);
}

/// Runs at most `limit` calls at once; the rest wait for a place.
#[derive(Debug, Clone)]
pub struct Pool {
    permits: Arc<Semaphore>,
    limit: usize,
    /// `--record DIR`: every call that ran is saved as a case file.
    recorder: Option<Arc<dyn Witness>>,
    /// The lock file, when there is one: `--locked` refuses what differs.
    pins: Option<Arc<dyn Gate>>,
    /// Owner and mode checks on what runs (None: `--allow-insecure-paths`).
    trust: Option<Arc<crate::trust::Trust>>,
}

impl Pool {
    /// A limit of 0 is taken as 1: a pool that never runs anything would
    /// only hang its callers.
    pub fn new(limit: usize) -> Pool {
        let limit = limit.clamp(1, Semaphore::MAX_PERMITS);
        Pool {
            permits: Arc::new(Semaphore::new(limit)),
            limit,
            recorder: None,
            pins: None,
            trust: Some(Arc::default()),
        }
    }

    /// Runs plugins whatever their owner and mode (`--allow-insecure-paths`).
    pub fn without_trust_checks(mut self) -> Pool {
        self.trust = None;
        self
    }

    /// Checks every call against the lock file before it runs.
    pub fn with_pins(mut self, pins: impl Gate + 'static) -> Pool {
        self.pins = Some(Arc::new(pins));
        self
    }

    /// Saves every call this pool runs into a case file (`--record`).
    pub fn with_recorder(mut self, recorder: impl Witness + 'static) -> Pool {
        self.recorder = Some(Arc::new(recorder));
        self
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Waits for a place, then [`run`]s. The deadline starts at spawn, not
    /// while waiting for a place.
    pub async fn run(&self, inv: &Invocation) -> Result<Outcome, SpawnError> {
        let _permit = self
            .permits
            .acquire()
            .await
            .expect("the pool's semaphore is never closed");
        if let Some(trust) = &self.trust
            && let Err(why) = trust.check(&inv.program)
        {
            return Err(match why {
                crate::trust::program::Untrusted::Refused(message) => SpawnError::Refused {
                    program: inv.program.clone(),
                    message,
                },
                // Refused before the exec, reported as the exec would.
                crate::trust::program::Untrusted::InterpreterMissing { interpreter } => {
                    SpawnError::InterpreterMissing {
                        program: inv.program.clone(),
                        interpreter,
                    }
                }
            });
        }
        let checked;
        let inv = match &self.pins {
            None => inv,
            Some(pins) => match pins.admit(inv, &exec_path(&inv.program)) {
                Ok(expect) => {
                    checked = Invocation {
                        expect,
                        ..inv.clone()
                    };
                    &checked
                }
                Err(message) => {
                    return Err(SpawnError::Refused {
                        program: inv.program.clone(),
                        message,
                    });
                }
            },
        };
        let result = run(inv).await;
        if let (Some(rec), Ok(out)) = (&self.recorder, &result) {
            rec.record(inv, out);
        }
        result
    }
}

/// [`run`] for callers without a Tokio runtime: builds a current-thread one
/// for the call. Called from inside a runtime (where blocking on a new one
/// would panic), it does the same on a helper thread.
pub fn run_blocking(inv: &Invocation) -> Result<Outcome, SpawnError> {
    let call = || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| SpawnError::Other {
                program: inv.program.clone(),
                message: format!("cannot start an async runtime: {e}"),
            })?
            .block_on(run(inv))
    };
    if tokio::runtime::Handle::try_current().is_ok() {
        std::thread::scope(|s| s.spawn(call).join())
            .unwrap_or_else(|p| std::panic::resume_unwind(p))
    } else {
        call()
    }
}

/// The process groups of the calls in flight.
pub fn live_groups() -> Vec<i32> {
    registry().groups.keys().copied().collect()
}

/// Sends `signal` to every call's whole process group; returns how many
/// groups it reached.
pub fn kill_all_groups(signal: Signal) -> usize {
    live_groups()
        .into_iter()
        .filter(|&g| killpg(Pid::from_raw(g), signal).is_ok())
        .count()
}

/// Closes the registry of groups (no call starts after this) and returns
/// the live groups with the longest grace among them: what a shutdown must
/// take down.
pub fn close_groups() -> (Vec<Pid>, Duration) {
    let mut reg = registry();
    reg.closed = true;
    let grace = reg.groups.values().max().copied().unwrap_or_default();
    (
        reg.groups.keys().map(|&g| Pid::from_raw(g)).collect(),
        grace,
    )
}

#[cfg(test)]
mod tests {
    use super::human_bytes;

    #[test]
    fn byte_counts_read_as_people_write_them() {
        assert_eq!(human_bytes(0), "0 B");
        assert_eq!(human_bytes(1023), "1023 B");
        assert_eq!(human_bytes(1024), "1 KiB");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(4 << 20), "4 MiB");
        assert_eq!(human_bytes(1 << 40), "1 TiB");
        // Beyond the last unit: still TiB, never past the table's end.
        assert_eq!(human_bytes(1 << 50), "1024 TiB");
        assert!(human_bytes(u64::MAX).ends_with(" TiB"));
    }
}

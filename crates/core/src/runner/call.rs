//! One call, start to end: a `select!` over the two pipes, the child's
//! exit, the deadline and what the call's table asks (a shutdown's
//! terminate, job control's pause and resume). The pipes are read in every
//! stage, terminating included, so a plugin that floods while it is being
//! stopped never blocks on a full pipe (as cargo-nextest drains a test's
//! output while it terminates it).

use std::io;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::sync::Arc;
use std::time::Duration;

use nix::sys::signal::Signal;
use tokio::io::AsyncReadExt;
use tokio::sync::watch;
use tokio::time::Instant;

use super::capture::{Head, Tail};
use super::groups::{Control, GroupTable};
use super::leftovers::{alone, kill_leftovers, pipe_inodes};
use super::rusage::{Exit, Spent};
use super::spawn::{exec_path, refuse_unknown_format, spawn};
use super::{GROUP_POLL, Invocation, Leftover, Outcome, PIPE_DRAIN_BOUND, SpawnError, Termination};

/// One buffer per pipe, reused for every read: a flood costs few syscalls
/// and memory stays flat whatever the plugin prints. Never zeroed (reads
/// fill its spare capacity), so a plugin that prints a line costs a page
/// of it, not all of it.
const READ_BUF: usize = 64 << 10;

/// After the plugin exits, how long a process it left behind may keep its
/// output pipes open before plugctl kills it: long enough for a child that
/// is finishing a write, short against any deadline.
const LEFTOVER_GRACE: Duration = Duration::from_millis(500);

/// A call's end: its outcome, and whether a shutdown cut it short (then
/// the outcome is the shutdown's doing, not the plugin's).
pub(super) struct Ended {
    pub(super) outcome: Outcome,
    pub(super) interrupted: bool,
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

/// `t + d`, where a "no deadline" of `Duration::MAX` must not overflow.
pub(super) fn later(t: Instant, d: Duration) -> Instant {
    t.checked_add(d)
        .unwrap_or_else(|| t + Duration::from_secs(100 * 365 * 86_400))
}

/// The deadline as it stands: moved by the time the call was stopped, and
/// nowhere in sight while it is stopped (its clock does not run).
fn deadline(deadline_at: Instant, control: &watch::Receiver<Control>) -> Instant {
    let control = control.borrow();
    if control.is_paused() {
        return later(Instant::now(), Duration::MAX);
    }
    later(deadline_at, control.paused())
}

fn termination(s: ExitStatus) -> Termination {
    match (s.code(), s.signal()) {
        (Some(code), _) => Termination::Exited(code),
        (None, Some(sig)) => Termination::Signaled(sig),
        (None, None) => Termination::Exited(-1),
    }
}

/// Reads once from a pipe that may already be closed, into `buf` (emptied
/// first); `None` at EOF. Never resolves for a closed pipe, so it can sit
/// in `select!` unconditionally (a branch precondition does not stop the
/// future from being built).
async fn read_pipe<R>(pipe: &mut Option<R>, buf: &mut Vec<u8>) -> Option<usize>
where
    R: tokio::io::AsyncRead + Unpin,
{
    let Some(p) = pipe else {
        return std::future::pending().await;
    };
    buf.clear();
    loop {
        // Into the spare capacity (READ_BUF), uninitialised: nothing to
        // zero first.
        match p.read_buf(buf).await {
            Ok(0) => return None,
            Ok(n) => return Some(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            // A broken pipe is as good as EOF: nothing more can come.
            Err(_) => return None,
        }
    }
}

/// Runs one call in `table` to its end: see [`super::run`] for what end
/// means. `measure`: whether the call's usage is read from the kernel
/// (else [`Outcome::usage`] is `None`).
pub(super) async fn run_call(
    table: &Arc<GroupTable>,
    inv: &Invocation,
    measure: bool,
) -> Result<Ended, SpawnError> {
    let program = exec_path(&inv.program);
    refuse_unknown_format(&program, &inv.program)?;
    let (mut child, mut group, mut control) = spawn(table, inv, &program).await?;
    let started = Instant::now();
    let mut exit = Exit::watch(&child, measure);
    let mut spent = Spent::default();
    let mut exited_at: Option<Instant> = None;
    let mut leftovers: Vec<Leftover> = Vec::new();
    let mut leftovers_checked = false;

    let mut stdout = child.take_stdout();
    let mut stderr = child.take_stderr();
    let mut out = Head::new(inv.stdout_limit);
    let mut err = Tail::new(inv.stderr_limit);
    let mut out_buf = Vec::with_capacity(READ_BUF);
    let mut err_buf = Vec::with_capacity(READ_BUF);

    let mut status: Option<Termination> = None;
    let mut timed_out = false;
    let mut killed = false;
    let mut pipes_abandoned = false;
    let mut interrupted = false;
    // Until the table lets go of the call (it never does while the call
    // runs; a closed channel just asks nothing more).
    let mut control_open = true;
    let deadline_at = later(started, inv.deadline);
    let mut stage = Stage::Running;
    let mut last_probe: Option<Instant> = None;
    let timer = tokio::time::sleep_until(deadline_at);
    tokio::pin!(timer);

    loop {
        let pipes_open = stdout.is_some() || stderr.is_some();
        // Its output closed: the plugin has almost always exited, and is
        // reaped now with its usage (else its exit is waited for below).
        if !pipes_open
            && status.is_none()
            && let Some((s, usage)) = exit.at_eof(&mut child)
        {
            status = Some(s.map_or(Termination::Exited(-1), termination));
            exited_at = Some(Instant::now());
            spent.leader(usage);
        }
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
            let pipes = pipe_inodes(&stdout, &stderr);
            let found = kill_leftovers(
                &group.lineage,
                group.pgid.as_raw(),
                None,
                &pipes,
                false,
                &mut spent,
            )
            .await;
            if !found.is_empty() {
                leftovers.extend(found);
                stage = Stage::Draining {
                    until: Instant::now() + PIPE_DRAIN_BOUND,
                };
            }
        }
        let deadline_now = deadline(deadline_at, &control);
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
            (s, usage) = exit.wait(&mut child), if status.is_none() => {
                // wait() fails only if someone else reaped our child (a
                // SIGCHLD set to SIG_IGN, a waitpid(-1) elsewhere): the
                // leader is gone but its status is lost, which -1, never a
                // real exit code, stands for.
                status = Some(s.map_or(Termination::Exited(-1), termination));
                spent.leader(usage);
                exited_at = Some(Instant::now());
            },
            changed = control.changed(), if control_open => {
                if changed.is_err() {
                    control_open = false;
                    continue;
                }
                // Pause and resume only move the deadline, read above.
                let Some(grace) = control.borrow_and_update().terminate else {
                    continue;
                };
                interrupted = true;
                let now = Instant::now();
                stage = match stage {
                    Stage::Running => {
                        // A stopped group (Ctrl-Z, then kill) must be able
                        // to act on TERM.
                        group.signal(Signal::SIGCONT);
                        if grace.is_zero() {
                            killed = group.signal(Signal::SIGKILL);
                            Stage::Draining { until: now + PIPE_DRAIN_BOUND }
                        } else {
                            group.signal(Signal::SIGTERM);
                            Stage::Terminating { kill_at: later(now, grace) }
                        }
                    }
                    // Asked again (a second signal): no more waiting.
                    Stage::Terminating { .. } if grace.is_zero() => {
                        killed = group.signal(Signal::SIGKILL);
                        Stage::Draining { until: now + PIPE_DRAIN_BOUND }
                    }
                    Stage::Terminating { kill_at } => Stage::Terminating {
                        kill_at: kill_at.min(later(now, grace)),
                    },
                    Stage::Draining { .. } => stage,
                };
            },
            () = &mut timer => {
                let now = Instant::now();
                match stage {
                    // Woken for the leftover check, or the deadline moved
                    // while the call was stopped: not the deadline yet.
                    Stage::Running if now < deadline(deadline_at, &control) => {}
                    Stage::Running => {
                        timed_out = true;
                        if inv.grace.is_zero() {
                            killed = group.signal(Signal::SIGKILL);
                            stage = Stage::Draining { until: now + PIPE_DRAIN_BOUND };
                        } else {
                            group.signal(Signal::SIGTERM);
                            stage = Stage::Terminating { kill_at: later(now, inv.grace) };
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
    // Whatever the plugin left running after it exited, wherever it went:
    // what its session or its time namespace marks, what holds its pipes,
    // what was adopted by plugctl (`leftovers`). A plugin call leaves
    // nothing behind.
    let alone = alone();
    // Only a pipe still open can be held: one at EOF has no writer left.
    let pipes = pipe_inodes(&stdout, &stderr);
    // A leader never reaped (SIGKILL did not end it) is still ours to name.
    let unreaped = status.is_none().then_some(group.pgid.as_raw());
    let pgid = group.pgid.as_raw();
    for l in kill_leftovers(&group.lineage, pgid, unreaped, &pipes, alone, &mut spent).await {
        // One killed a moment ago may not be gone yet.
        if !leftovers.iter().any(|seen| seen.pid == l.pid) {
            leftovers.push(l);
        }
    }
    let duration = started.elapsed().saturating_sub(control.borrow().paused());
    group.finished = true;
    drop(group);

    let (stdout, stdout_dropped) = out.finish();
    let (stderr, stderr_dropped) = err.finish();
    let outcome = Outcome {
        // Unreaped only when even SIGKILL plus the drain bound did not end
        // the leader (uninterruptible sleep on a dead mount): it will die of
        // that SIGKILL, and is reaped once its `Leader` is dropped (by
        // tokio, or by a thread of its own for one `vfork` started).
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
        over_cap: None,
        usage: measure.then(|| spent.usage(duration)),
    };
    Ok(Ended {
        outcome,
        interrupted,
    })
}

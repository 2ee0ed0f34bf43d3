//! Starting a call with `clone(CLONE_VM | CLONE_VFORK)`, as `posix_spawn`
//! starts one, but with the steps a confined call takes between fork and
//! exec. std forks for such a call: the kernel copies plugctl's page
//! tables, and every page either side writes next faults to be copied,
//! which costs more than a trivial plugin's whole run. A vfork child
//! borrows plugctl's memory, on a stack of its own, until it execs; the
//! thread that clones waits meanwhile (the kernel's `CLONE_VFORK`), the
//! others go on.
//!
//! What the child may do is what a forked child of a threaded program may
//! do, and less: only system calls on memory prepared before the clone
//! (the steps are the ones std's `pre_exec` runs), no allocation, no lock,
//! and no signal handler of plugctl's run on the borrowed memory (each is
//! reset to its default first, as `posix_spawn` does).

use std::cell::RefCell;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

use nix::libc;

use super::leader::Cloned;

/// One step between clone and exec; the last one execs.
pub(super) type Step = Box<dyn Fn() -> io::Result<()> + Send + Sync>;

/// The child's stack: ample for the steps (a few KiB), allocated once per
/// thread that clones.
const STACK: usize = 256 * 1024;

thread_local! {
    static STACKS: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Linux's highest signal number (`_NSIG - 1`): a constant, so that the
/// child calls nothing of the C library's to learn it.
const LAST_SIGNAL: libc::c_int = 64;

/// What the child leads, as std's `process_group(0)` or a session step
/// would make it: set before any signal can reach it, so that it is never
/// a member of plugctl's own process group (the terminal's foreground
/// group, whose Ctrl-C and Ctrl-Z would reach it) and its call's group id
/// is its pid from its first instruction on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Lead {
    /// A process group of its own, in plugctl's session.
    Group,
    /// A session, and so a group, of its own.
    Session,
}

/// What the child reads, and the error it leaves for the parent.
struct Shared<'a> {
    steps: &'a [Step],
    lead: Lead,
    /// The signals plugctl catches (bit `n - 1` for signal `n`), as the
    /// kernel says just before the clone; `None`: unknown, each is asked.
    caught: Option<u64>,
    stdin: i32,
    stdout: i32,
    stderr: i32,
    errno: i32,
}

extern "C" fn child(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the parent's `Shared`, alive (the parent is
    // suspended) until this process execs or exits.
    let shared = unsafe { &mut *arg.cast::<Shared>() };
    let errno = match run(shared) {
        Ok(()) => libc::ENOEXEC,
        Err(e) => e.raw_os_error().unwrap_or(libc::EINVAL),
    };
    shared.errno = errno.max(1);
    // SAFETY: ends this process without running anything of plugctl's.
    unsafe { libc::_exit(127) }
}

fn run(shared: &Shared) -> io::Result<()> {
    let check = |r: libc::c_int| {
        if r < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(())
        }
    };
    // SAFETY (each block): system calls on this process's own state, with
    // stack values and descriptors the parent made.
    // Every handler back to its default while all signals are blocked
    // (the cloning thread blocked them): a signal that comes before exec
    // must not run plugctl's code on plugctl's memory.
    let mut dfl: libc::sigaction = unsafe { std::mem::zeroed() };
    dfl.sa_sigaction = libc::SIG_DFL;
    for sig in 1..=LAST_SIGNAL {
        let caught = match shared.caught {
            Some(mask) => mask & (1u64 << (sig - 1)) != 0,
            None => {
                let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
                let asked = unsafe { libc::sigaction(sig, std::ptr::null(), &mut old) };
                asked == 0 && old.sa_sigaction != libc::SIG_DFL && old.sa_sigaction != libc::SIG_IGN
            }
        };
        if caught {
            unsafe { libc::sigaction(sig, &dfl, std::ptr::null_mut()) };
        }
    }
    // Its own group (or session) while every signal is still blocked: the
    // call's group id is its pid, which plugctl signals from now on.
    match shared.lead {
        Lead::Group => check(unsafe { libc::setpgid(0, 0) })?,
        Lead::Session => check(unsafe { libc::setsid() })?,
    }
    // What std gives a child before its `pre_exec` steps: SIGPIPE at its
    // default (Rust ignores it) and no signal blocked.
    unsafe {
        let mut dfl: libc::sigaction = std::mem::zeroed();
        dfl.sa_sigaction = libc::SIG_DFL;
        libc::sigaction(libc::SIGPIPE, &dfl, std::ptr::null_mut());
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut empty);
        check(libc::pthread_sigmask(
            libc::SIG_SETMASK,
            &empty,
            std::ptr::null_mut(),
        ))?;
    }
    for (fd, to) in [(shared.stdin, 0), (shared.stdout, 1), (shared.stderr, 2)] {
        check(unsafe { libc::dup2(fd, to) })?;
    }
    for step in shared.steps {
        step()?;
    }
    Ok(())
}

/// The signals this process catches, from the kernel's `SigCgt` mask:
/// read once per start (one file, where asking the kernel of each signal
/// would take sixty-four calls in the child), as a handler installed at
/// any time counts.
fn caught_signals() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/thread-self/status").ok()?;
    let hex = status.lines().find_map(|l| l.strip_prefix("SigCgt:"))?;
    u64::from_str_radix(hex.trim(), 16).ok()
}

/// Starts a child that leads what `lead` says and takes `steps` (the last
/// of which execs) with stdin from /dev/null and its output into two new
/// pipes; returns once it has exec'd, or the error of the step that failed
/// (the child then exited, and is reaped).
pub(super) fn start(steps: &[Step], lead: Lead) -> io::Result<Cloned> {
    let null = rustix::fs::open(
        "/dev/null",
        rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )?;
    let (out_r, out_w) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
    let (err_r, err_w) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
    let mut shared = Shared {
        steps,
        lead,
        caught: caught_signals(),
        stdin: null.as_raw_fd(),
        stdout: out_w.as_raw_fd(),
        stderr: err_w.as_raw_fd(),
        errno: 0,
    };
    let mut pidfd: libc::c_int = -1;
    let pid = STACKS.with(|stacks| {
        let mut stack = stacks.borrow_mut();
        if stack.len() < STACK {
            stack.resize(STACK, 0);
        }
        // The top, 16-byte aligned: the stack grows down.
        let top = (stack.as_mut_ptr() as usize + STACK) & !15;
        // Every signal blocked across the clone, as posix_spawn does, so
        // that none is handled in the child before it resets its handlers.
        // SAFETY: a full set, and the thread's own mask saved and put back.
        let mut all: libc::sigset_t = unsafe { std::mem::zeroed() };
        let mut saved: libc::sigset_t = unsafe { std::mem::zeroed() };
        unsafe {
            libc::sigfillset(&mut all);
            libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut saved);
        }
        // SAFETY: the child runs `child` on its own stack with `shared`,
        // both alive until it execs or exits, which CLONE_VFORK waits for.
        let pid = unsafe {
            libc::clone(
                child,
                top as *mut libc::c_void,
                libc::CLONE_VM | libc::CLONE_VFORK | libc::CLONE_PIDFD | libc::SIGCHLD,
                (&mut shared as *mut Shared).cast::<libc::c_void>(),
                &mut pidfd as *mut libc::c_int,
            )
        };
        let error = io::Error::last_os_error();
        // SAFETY: as above.
        unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &saved, std::ptr::null_mut()) };
        if pid < 0 { Err(error) } else { Ok(pid) }
    })?;
    // SAFETY: the kernel made this descriptor for us (CLONE_PIDFD).
    let pidfd = unsafe { OwnedFd::from_raw_fd(pidfd) };
    drop((null, out_w, err_w));
    // SAFETY: written by the child before it exited, if it did.
    let errno = unsafe { std::ptr::read_volatile(&shared.errno) };
    if errno != 0 {
        let mut raw = 0;
        // SAFETY: our own child, which has exited.
        unsafe { libc::waitpid(pid, &mut raw, 0) };
        return Err(io::Error::from_raw_os_error(errno));
    }
    Cloned::new(pid, pidfd, out_r, err_r)
}

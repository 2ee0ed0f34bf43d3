//! What a plugin starts with, as a Nomad client's children start: a Go
//! parent gives every child the soft open-files limit the parent itself
//! started with (Go raises its own and restores it in each child), the
//! signal mask it started with, and every signal at its default action but
//! those Go leaves as it found them (`SIGHUP` and `SIGINT` ignored when the
//! agent started with them ignored, and the job-control signals `SIGTSTP`,
//! `SIGTTIN`, `SIGTTOU` and `SIGCONT`, which Go does not take over).
//!
//! The child inherits exactly that, with nothing to set, when no limit was
//! raised since plugctl started and no signal was ignored or blocked at
//! its start (std resets `SIGPIPE`, handled signals reset at exec by
//! themselves, and the mask passes on). Otherwise (a raised limit, `nohup`,
//! a script's `&`) the child sets each of them back between fork and
//! exec.

use nix::libc;

/// The signals Go leaves as it found them at start (so an ignored one stays
/// ignored in every child): HUP and INT when inherited ignored, the
/// job-control signals it never takes over unless asked, and the ones the
/// C library keeps for itself.
const GO_KEEPS: &[i32] = &[
    libc::SIGHUP,
    libc::SIGINT,
    libc::SIGCONT,
    libc::SIGTSTP,
    libc::SIGTTIN,
    libc::SIGTTOU,
];

/// The highest signal number (`_NSIG - 1` on Linux).
const SIG_MAX: i32 = 64;

/// What plugctl itself started with, as far as a plugin's start depends on
/// it. Captured once, before plugctl changes any of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inherited {
    /// The signal mask at start, one bit per signal (bit n-1: signal n).
    mask: u64,
    /// Signals ignored at start (`SIG_IGN`), one bit per signal.
    ignored: u64,
    /// The soft `RLIMIT_NOFILE` at start.
    nofile_soft: Option<u64>,
    /// Whether any of this was captured (a library user that did not
    /// capture gets plugctl's plain spawn, unchanged).
    captured: bool,
}

impl Default for Inherited {
    fn default() -> Inherited {
        Inherited::unknown()
    }
}

fn bit(sig: i32) -> u64 {
    1u64 << (sig - 1)
}

impl Inherited {
    /// Nothing captured: the child gets what it inherits, as it is.
    pub fn unknown() -> Inherited {
        Inherited {
            mask: 0,
            ignored: 0,
            nofile_soft: None,
            captured: false,
        }
    }

    /// What this process has now: call it first thing in `main`, before
    /// any limit is raised or handler installed. (Rust's runtime has
    /// already ignored `SIGPIPE` by then; a Go parent gives a child
    /// `SIGPIPE`'s default action, and so does std.)
    pub fn capture() -> Inherited {
        let mut mask = 0u64;
        // SAFETY: querying the mask and the dispositions, into zeroed
        // buffers of the right types.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            if libc::pthread_sigmask(libc::SIG_BLOCK, std::ptr::null(), &mut set) == 0 {
                for sig in 1..=SIG_MAX {
                    if libc::sigismember(&set, sig) == 1 {
                        mask |= bit(sig);
                    }
                }
            }
        }
        let mut ignored = 0u64;
        for sig in 1..=SIG_MAX {
            if sig == libc::SIGPIPE || sig == libc::SIGKILL || sig == libc::SIGSTOP {
                continue;
            }
            // SAFETY: a query only (no new action).
            let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
            let r = unsafe { libc::sigaction(sig, std::ptr::null(), &mut old) };
            if r == 0 && old.sa_sigaction == libc::SIG_IGN {
                ignored |= bit(sig);
            }
        }
        let nofile_soft =
            nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE)
                .ok()
                .map(|(soft, _)| soft);
        Inherited {
            mask,
            ignored,
            nofile_soft,
            captured: true,
        }
    }

    /// Whether a child inherits, as it is, exactly what a Go parent gives:
    /// no signal ignored at start but `SIGPIPE` (which both reset), no
    /// signal blocked (std versions differ on passing the mask on), and the
    /// soft open-files limit as it started.
    pub fn spawn_gives_it(&self) -> bool {
        if !self.captured {
            return true;
        }
        let nofile_now = nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE)
            .ok()
            .map(|(soft, _)| soft);
        self.ignored == 0
            && self.mask == 0
            && (self.nofile_soft.is_none() || self.nofile_soft == nofile_now)
    }

    /// The soft open-files limit to give a child, if captured.
    pub fn nofile_soft(&self) -> Option<u64> {
        self.nofile_soft.filter(|_| self.captured)
    }

    /// What the child sets, prepared before the fork: the mask and each
    /// signal's action.
    pub(super) fn plan(&self) -> Option<SignalPlan> {
        if !self.captured {
            return None;
        }
        // SAFETY: a zeroed sigset_t, filled by sigemptyset/sigaddset.
        let mut mask: libc::sigset_t = unsafe { std::mem::zeroed() };
        unsafe { libc::sigemptyset(&mut mask) };
        for sig in 1..=SIG_MAX {
            if self.mask & bit(sig) != 0 {
                unsafe { libc::sigaddset(&mut mask, sig) };
            }
        }
        let mut ignore = 0u64;
        for &sig in GO_KEEPS {
            if self.ignored & bit(sig) != 0 {
                ignore |= bit(sig);
            }
        }
        Some(SignalPlan {
            mask,
            set_mask: self.mask != 0,
            touch: self.ignored,
            ignore,
        })
    }
}

/// The signal mask and actions a child sets before exec.
#[derive(Clone, Copy)]
pub(super) struct SignalPlan {
    mask: libc::sigset_t,
    /// The mask to set: plugctl started with one (else the child has the
    /// empty one it runs with).
    set_mask: bool,
    /// The signals whose action to set: those ignored at plugctl's start
    /// (a handler resets itself at exec; only an ignored signal stays).
    touch: u64,
    /// Of those, the ones left ignored; the others get their default.
    ignore: u64,
}

impl std::fmt::Debug for SignalPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SignalPlan")
            .field("ignore", &format_args!("{:#x}", self.ignore))
            .finish_non_exhaustive()
    }
}

impl SignalPlan {
    /// In the child: every signal's action as a Go child gets it, then the
    /// mask. Only sigaction(2) and sigprocmask(2).
    pub(super) fn apply(&self) -> std::io::Result<()> {
        for sig in 1..=SIG_MAX {
            // KILL and STOP cannot be changed; 32 and 33 belong to the C
            // library (its threads' cancellation and set*id broadcasts).
            if self.touch & bit(sig) == 0
                || sig == libc::SIGKILL
                || sig == libc::SIGSTOP
                || sig == 32
                || sig == 33
            {
                continue;
            }
            let handler = if self.ignore & bit(sig) != 0 {
                libc::SIG_IGN
            } else {
                libc::SIG_DFL
            };
            // SAFETY: sigaction(2) with a zeroed action of one handler.
            unsafe {
                let mut act: libc::sigaction = std::mem::zeroed();
                act.sa_sigaction = handler;
                libc::sigaction(sig, &act, std::ptr::null_mut());
            }
        }
        if !self.set_mask {
            return Ok(());
        }
        // SAFETY: a sigset_t prepared before the fork.
        let r =
            unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &self.mask, std::ptr::null_mut()) };
        if r != 0 {
            return Err(std::io::Error::from_raw_os_error(r));
        }
        Ok(())
    }
}

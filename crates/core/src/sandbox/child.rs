//! What the child does between fork and exec, in order, with only
//! async-signal-safe system calls on memory the parent prepared: no
//! allocation, no lock. Each step first writes its number into a page the
//! parent shares, so a step that fails is named by the parent
//! ([`Step::name`]), not only by its errno.

use std::os::fd::RawFd;
use std::sync::atomic::{AtomicU32, Ordering};

use nix::libc;

use super::inherit::SignalPlan;
use super::namespaces::Private;
use super::syscalls::Filters;

/// The steps, in the order the child takes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u32)]
pub(super) enum Step {
    Start = 0,
    Signals,
    Cgroup,
    OomScore,
    Network,
    Mounts,
    Limits,
    NoNewPrivs,
    Capabilities,
    Landlock,
    Seccomp,
    /// Everything applied: what fails now is the exec itself.
    Exec,
}

impl Step {
    fn of(n: u32) -> Step {
        use Step::*;
        [
            Start,
            Signals,
            Cgroup,
            OomScore,
            Network,
            Mounts,
            Limits,
            NoNewPrivs,
            Capabilities,
            Landlock,
            Seccomp,
            Exec,
        ]
        .get(n as usize)
        .copied()
        .unwrap_or(Exec)
    }

    /// What the step does, for "could not ...".
    pub fn name(self) -> &'static str {
        match self {
            Step::Start | Step::Exec => "start it",
            Step::Signals => "restore its signal mask and actions",
            Step::Cgroup => "join the call's cgroup",
            Step::OomScore => "set its oom_score_adj to 0",
            Step::Network => "enter the empty network namespace",
            Step::Mounts => "enter the mount namespace with the private /tmp",
            Step::Limits => "set its resource limits",
            Step::NoNewPrivs => "set no-new-privileges",
            Step::Capabilities => "bound its capabilities",
            Step::Landlock => "apply its Landlock ruleset",
            Step::Seccomp => "install its seccomp filter",
        }
    }
}

/// A page shared with every child of one call: the step reached.
pub(super) struct StepMark {
    ptr: *mut AtomicU32,
}

// SAFETY: the page is only ever read and written through the atomic.
unsafe impl Send for StepMark {}
unsafe impl Sync for StepMark {}

impl std::fmt::Debug for StepMark {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "StepMark(")?;
        std::fmt::Debug::fmt(&self.get(), f)?;
        write!(f, ")")
    }
}

impl StepMark {
    pub fn new() -> std::io::Result<StepMark> {
        // SAFETY: a fresh shared anonymous page, unmapped on drop.
        let ptr = unsafe {
            rustix::mm::mmap_anonymous(
                std::ptr::null_mut(),
                4096,
                rustix::mm::ProtFlags::READ | rustix::mm::ProtFlags::WRITE,
                rustix::mm::MapFlags::SHARED,
            )
        }?;
        Ok(StepMark {
            ptr: ptr.cast::<AtomicU32>(),
        })
    }

    pub fn set(&self, step: Step) {
        // SAFETY: the page is mapped for as long as self lives.
        unsafe { (*self.ptr).store(step as u32, Ordering::SeqCst) }
    }

    pub fn get(&self) -> Step {
        // SAFETY: as above.
        Step::of(unsafe { (*self.ptr).load(Ordering::SeqCst) })
    }
}

impl Drop for StepMark {
    fn drop(&mut self) {
        // SAFETY: the page mapped in new().
        let _ = unsafe { rustix::mm::munmap(self.ptr.cast(), 4096) };
    }
}

/// The capability sets a child keeps: bits of `keep` in every set; the
/// bits of `drop_bounding` leave the bounding set too.
#[derive(Debug, Clone, Copy)]
pub(super) struct CapPlan {
    pub keep: u64,
    pub drop_bounding: u64,
    pub last_cap: u8,
}

/// Everything the child applies, prepared.
#[derive(Debug, Default)]
pub(super) struct Plan {
    pub signals: Option<SignalPlan>,
    pub cgroup_procs: Vec<RawFd>,
    /// Set `oom_score_adj` to 0 (it is something else in plugctl).
    pub oom_zero: bool,
    /// plugctl's is above 0: a kernel that refuses to lower it (a floor
    /// set by a privileged parent) leaves the plugin more killable, not
    /// less, which is no reason to fail the call.
    pub oom_above: bool,
    pub netns: Option<RawFd>,
    pub mntns: Option<RawFd>,
    pub private: Option<Private>,
    /// (resource, soft, hard)
    pub limits: Vec<(u32, u64, u64)>,
    pub no_new_privs: bool,
    pub caps: Option<CapPlan>,
    pub landlock: Option<RawFd>,
    pub seccomp: Option<std::sync::Arc<Filters>>,
}

fn check(r: libc::c_long) -> std::io::Result<()> {
    if r < 0 {
        Err(std::io::Error::last_os_error())
    } else {
        Ok(())
    }
}

impl Plan {
    /// Whether it does anything at all.
    pub fn is_empty(&self) -> bool {
        self.signals.is_none()
            && self.cgroup_procs.is_empty()
            && !self.oom_zero
            && self.netns.is_none()
            && self.mntns.is_none()
            && self.private.is_none()
            && self.limits.is_empty()
            && !self.no_new_privs
            && self.caps.is_none()
            && self.landlock.is_none()
            && self.seccomp.is_none()
    }

    /// In the child: each step in turn. Returns the first error (the mark
    /// names its step).
    pub fn apply(&self, mark: &StepMark) -> std::io::Result<()> {
        // SAFETY (for every unsafe block below): system calls on
        // descriptors, C strings and structures prepared before the fork,
        // or on stack values.
        if let Some(signals) = &self.signals {
            mark.set(Step::Signals);
            signals.apply()?;
        }
        mark.set(Step::Cgroup);
        for &fd in &self.cgroup_procs {
            check(unsafe { libc::write(fd, b"0".as_ptr().cast(), 1) } as libc::c_long)?;
        }
        if self.oom_zero {
            mark.set(Step::OomScore);
            let fd = unsafe {
                libc::open(
                    c"/proc/self/oom_score_adj".as_ptr(),
                    libc::O_WRONLY | libc::O_CLOEXEC,
                )
            };
            check(fd as libc::c_long)?;
            let r = unsafe { libc::write(fd, b"0".as_ptr().cast(), 1) };
            let refused =
                r < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EACCES);
            unsafe { libc::close(fd) };
            if !(refused && self.oom_above) {
                check(r as libc::c_long)?;
            }
        }
        if let Some(fd) = self.netns {
            mark.set(Step::Network);
            check(unsafe { libc::setns(fd, libc::CLONE_NEWNET) } as libc::c_long)?;
        }
        if let Some(fd) = self.mntns {
            mark.set(Step::Mounts);
            check(unsafe { libc::setns(fd, libc::CLONE_NEWNS) } as libc::c_long)?;
            check(unsafe { libc::chdir(c"/".as_ptr()) } as libc::c_long)?;
        }
        if let Some(private) = &self.private {
            mark.set(Step::Mounts);
            check(unsafe { libc::unshare(libc::CLONE_NEWNS) } as libc::c_long)?;
            check(unsafe {
                libc::mount(
                    std::ptr::null(),
                    c"/".as_ptr(),
                    std::ptr::null(),
                    libc::MS_REC | libc::MS_SLAVE,
                    std::ptr::null(),
                )
            } as libc::c_long)?;
            private.enter()?;
            check(unsafe { libc::chdir(c"/".as_ptr()) } as libc::c_long)?;
        }
        mark.set(Step::Limits);
        for &(resource, soft, hard) in &self.limits {
            let lim = libc::rlimit {
                rlim_cur: soft,
                rlim_max: hard,
            };
            check(unsafe { libc::setrlimit(resource as _, &lim) } as libc::c_long)?;
        }
        if self.no_new_privs {
            mark.set(Step::NoNewPrivs);
            check(unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } as libc::c_long)?;
        }
        if let Some(caps) = self.caps {
            mark.set(Step::Capabilities);
            apply_caps(caps)?;
        }
        if let Some(fd) = self.landlock {
            mark.set(Step::Landlock);
            check(unsafe { libc::syscall(libc::SYS_landlock_restrict_self, fd, 0u32) })?;
        }
        if let Some(filters) = &self.seccomp {
            mark.set(Step::Seccomp);
            super::syscalls::install(filters)?;
        }
        mark.set(Step::Exec);
        Ok(())
    }
}

/// Drops every capability not in `keep` from the bounding set (so no exec
/// gives it back), clears the ambient set, then sets the permitted,
/// effective and inheritable sets to `keep`.
fn apply_caps(plan: CapPlan) -> std::io::Result<()> {
    for cap in 0..=plan.last_cap {
        if plan.drop_bounding & (1u64 << cap) != 0 {
            // SAFETY: prctl(PR_CAPBSET_DROP, cap).
            let r =
                unsafe { libc::prctl(libc::PR_CAPBSET_DROP, libc::c_ulong::from(cap), 0, 0, 0) };
            // EINVAL: a capability this kernel does not have.
            if r != 0 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINVAL) {
                return Err(std::io::Error::last_os_error());
            }
        }
    }
    // SAFETY: prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL).
    unsafe {
        libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL as libc::c_ulong,
            0,
            0,
            0,
        )
    };
    #[repr(C)]
    struct Header {
        version: u32,
        pid: i32,
    }
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    let low = plan.keep as u32;
    let high = (plan.keep >> 32) as u32;
    let header = Header {
        version: 0x2008_0522, // _LINUX_CAPABILITY_VERSION_3
        pid: 0,
    };
    let data = [
        Data {
            effective: low,
            permitted: low,
            inheritable: low,
        },
        Data {
            effective: high,
            permitted: high,
            inheritable: high,
        },
    ];
    // SAFETY: capset(2) with a version-3 header and two data words.
    check(unsafe { libc::syscall(libc::SYS_capset, &header as *const Header, data.as_ptr()) })
}

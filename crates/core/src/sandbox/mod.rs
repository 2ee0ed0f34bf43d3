//! The sandbox: what a plugin call may do, level by level, applied in the
//! child between fork and exec.
//!
//! - `none`: what a Nomad client does: nothing beyond its deadline. Even
//!   here a plugin starts with what a Go parent gives its children (the
//!   open-files limit and the signal dispositions plugctl itself started
//!   with: [`Inherited`]).
//! - `trim`: what a conforming plugin never notices: no new privileges, no
//!   core dumps, `oom_score_adj` 0, and the caps ([`Caps`]) where they
//!   really bind: a cgroup's memory and pids limits where plugctl has one
//!   it may use, rlimits otherwise.
//! - `strict`: `trim`, plus Landlock (read and execute the plugin, its
//!   interpreters and the system's programs and libraries; write only what
//!   the operation needs), a seccomp filter (no ptrace, bpf, modules,
//!   kexec, keyrings, perf events, mounts or namespace changes), a private
//!   `/tmp`, no network (a network namespace of its own), and no
//!   capabilities — each relaxed only by what the plugin's [`Policy`]
//!   grants.
//!
//! Everything costly is prepared in the parent, once: the Landlock
//! ruleset, the compiled seccomp filter, the cgroup, and the namespaces
//! (made once per run, entered with `setns`). The child only makes
//! async-signal-safe system calls ([`Prepared`]). A layer the kernel lacks
//! is never skipped in silence: [`Sandbox::new`] refuses `strict` without
//! it unless told to make the best of it, and [`Report`] says what was
//! applied and how each cap is enforced.
//!
//! Where each part lives: `policy` (a plugin's [`Policy`] and the
//! [`PolicyFile`]), `inherit` ([`Inherited`]), `kernel` (what the kernel
//! offers), `cgroup` (a call's own cgroup), `files` (the Landlock
//! ruleset), `syscalls` (the seccomp filter), `namespaces` (the run's
//! network and mount namespaces), `prepare` ([`Sandbox`], [`Prepared`]),
//! `child` (what runs between fork and exec), `report` ([`Report`]).

mod cgroup;
mod child;
mod files;
mod inherit;
mod kernel;
mod namespaces;
pub mod policy;
mod prepare;
mod report;
mod spawner;
mod syscalls;

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

pub use inherit::Inherited;
pub use policy::{Capability, Grant, Grants, Policy, PolicyFile, Syscalls};
pub use prepare::{Config, Confinement, Prepared, Sandbox};
pub use report::{Enforcement, Layer, Report};
pub use spawner::{Slot, Spawner};

/// How far a call is confined.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// What a Nomad client does.
    #[default]
    None,
    /// What a conforming plugin never notices.
    Trim,
    /// Trim, plus Landlock, seccomp, namespaces and no capabilities.
    Strict,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::None, Level::Trim, Level::Strict];

    pub const fn name(self) -> &'static str {
        match self {
            Level::None => "none",
            Level::Trim => "trim",
            Level::Strict => "strict",
        }
    }

    pub fn of(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What one call may consume, each cap enforced where it really binds
/// ([`Enforcement`]). `None`: no cap.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Caps {
    /// Bytes of memory: a cgroup's limit (the call and every descendant)
    /// where plugctl has one, else the address space of each process.
    pub memory_max: Option<u64>,
    /// CPU time of each process (`RLIMIT_CPU`).
    pub cpu_max: Option<Duration>,
    /// Open files of each process (`RLIMIT_NOFILE`).
    pub files_max: Option<u64>,
    /// Processes and threads of the call and every descendant at once: a
    /// cgroup's pids limit, or nothing (an error: root's `RLIMIT_NPROC`
    /// counts every process of root on the node).
    pub tasks_max: Option<u64>,
}

/// One of the caps: for messages, and the label of the calls counted over
/// it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Cap {
    Memory,
    Cpu,
    Files,
    Tasks,
}

impl Cap {
    pub const ALL: [Cap; 4] = [Cap::Memory, Cap::Cpu, Cap::Files, Cap::Tasks];

    /// "memory", "CPU", "open-files", "tasks".
    pub const fn noun(self) -> &'static str {
        match self {
            Cap::Memory => "memory",
            Cap::Cpu => "CPU",
            Cap::Files => "open-files",
            Cap::Tasks => "tasks",
        }
    }

    /// The cap's name: the `cap` label of `plugctl_call_cap_exceeded_total`.
    pub const fn name(self) -> &'static str {
        match self {
            Cap::Memory => "memory",
            Cap::Cpu => "cpu",
            Cap::Files => "files",
            Cap::Tasks => "tasks",
        }
    }
}

impl Caps {
    pub fn is_empty(&self) -> bool {
        *self == Caps::default()
    }

    /// Each cap the tighter of the two: a policy cannot loosen what the
    /// command line set, nor the command line what a policy set.
    pub fn tighter(self, other: Caps) -> Caps {
        fn min<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
            match (a, b) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        }
        Caps {
            memory_max: min(self.memory_max, other.memory_max),
            cpu_max: min(self.cpu_max, other.cpu_max),
            files_max: min(self.files_max, other.files_max),
            tasks_max: min(self.tasks_max, other.tasks_max),
        }
    }

    /// The caps that are set.
    pub fn set(&self) -> Vec<Cap> {
        Cap::ALL
            .into_iter()
            .filter(|c| match c {
                Cap::Memory => self.memory_max.is_some(),
                Cap::Cpu => self.cpu_max.is_some(),
                Cap::Files => self.files_max.is_some(),
                Cap::Tasks => self.tasks_max.is_some(),
            })
            .collect()
    }

    /// A cap of nothing (0 bytes, 0 seconds, 0 files, 0 tasks) would fail
    /// every call before it starts: refused, naming it.
    pub fn check(&self) -> Result<(), CapError> {
        let zero = match () {
            () if self.memory_max == Some(0) => Some(Cap::Memory),
            () if self.cpu_max.is_some_and(|d| d.is_zero()) => Some(Cap::Cpu),
            () if self.files_max == Some(0) => Some(Cap::Files),
            () if self.tasks_max == Some(0) => Some(Cap::Tasks),
            () => None,
        };
        match zero {
            Some(cap) => Err(CapError::Zero(cap)),
            None => Ok(()),
        }
    }

    /// "memory cap of 128 MiB", for the cap that was hit.
    pub fn describe(&self, cap: Cap) -> String {
        let value = match cap {
            Cap::Memory => self.memory_max.map(crate::runner::human_bytes),
            Cap::Cpu => self.cpu_max.map(policy::duration_text),
            Cap::Files => self.files_max.map(|n| n.to_string()),
            Cap::Tasks => self.tasks_max.map(|n| n.to_string()),
        };
        format!(
            "{} cap of {}",
            cap.noun(),
            value.unwrap_or_else(|| "nothing".into())
        )
    }
}

/// A cap that cannot be what it says.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CapError {
    #[error("a {} cap of 0 would stop every call before it starts", .0.noun())]
    Zero(Cap),
}

/// A cap a call went over, as its cgroup or its end says; or, where an
/// rlimit enforces it (each process apart, and nothing counts a hit), a
/// cap a failed call may have hit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverCap {
    pub cap: Cap,
    /// "memory cap of 128 MiB".
    pub described: String,
    /// Seen (a cgroup's count, SIGXCPU), not only possible.
    pub certain: bool,
}

impl fmt::Display for OverCap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.certain {
            write!(f, "over its {}", self.described)
        } else {
            write!(
                f,
                "it ran under its {} (a limit of each process), which it may have hit",
                self.described
            )
        }
    }
}

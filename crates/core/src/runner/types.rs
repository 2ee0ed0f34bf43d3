//! What a call is and what came of it: the [`Invocation`] a family builds,
//! the [`Outcome`] the runner measures, and the [`SpawnError`] of a call
//! that never started.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use super::human_bytes;

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
    /// The sandbox's part of the child, between fork and exec (set by the
    /// [`super::Pool`] from its [`crate::sandbox::Sandbox`]).
    pub confine: Option<std::sync::Arc<crate::sandbox::Prepared>>,
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
            confine: None,
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
    /// A sandbox cap the call went over (or, enforced per process, may
    /// have hit).
    pub over_cap: Option<crate::sandbox::OverCap>,
    /// What the call cost, from the kernel; `None` from a pool that does
    /// not account (see [`super::Pool::without_usage`]).
    pub usage: Option<crate::usage::Usage>,
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

    /// For the families' tests: a plugin that exited with `code` after
    /// printing `stdout` (nothing on stderr) in a millisecond.
    #[cfg(test)]
    pub(crate) fn exited(code: i32, stdout: &str) -> Outcome {
        Outcome {
            termination: Termination::Exited(code),
            timed_out: false,
            killed: false,
            stdout: stdout.as_bytes().to_vec(),
            stdout_dropped: 0,
            stderr: Vec::new(),
            stderr_dropped: 0,
            pipes_abandoned: false,
            duration: Duration::from_millis(1),
            leftovers: Vec::new(),
            over_cap: None,
            usage: None,
        }
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
    Refused {
        program: PathBuf,
        message: String,
        /// What would lift the refusal, for the front end to word.
        hint: Option<crate::error::Hint>,
    },
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

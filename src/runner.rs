//! Runs plugin executables the way the protocol says Nomad does (direct exec,
//! only the given environment, stdin from /dev/null) but safer: each call in
//! its own process group, a hard deadline with SIGTERM → grace → SIGKILL to
//! the whole group, bounded capture of stdout and stderr, and no waiting on
//! pipes that orphaned children hold open. Knows nothing about JSON.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

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
}

// TEMPORARY STUB (replaced by the runner branch).
pub struct Pool;
impl Pool {
    pub fn new(_limit: usize) -> Pool {
        Pool
    }
    pub async fn run(&self, _inv: &Invocation) -> Result<Outcome, SpawnError> {
        unimplemented!()
    }
}
pub fn install_interrupt_handler() {}

//! The library's error: what failed and why, typed by class. It knows no
//! exit code and no command line: the `plugctl` crate maps each class to
//! its exit code at the edge, and adds the flags that would change the
//! outcome.

use std::path::PathBuf;
use std::time::Duration;

use crate::family::Operation;

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Why a plugin call failed. Kept apart from [`Error`] so that a fingerprint
/// can record the reason for one plugin and go on with the others.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PluginFailure {
    #[error("plugin not found at {0}")]
    Missing(PathBuf),
    #[error("{0} is not executable (no execute bit, or permission denied)")]
    NotExecutable(PathBuf),
    #[error("interpreter {interpreter} named in the shebang of {path} does not exist")]
    InterpreterMissing { path: PathBuf, interpreter: String },
    #[error(
        "{0} cannot be executed: the kernel does not take it as a program (exec format \
         error): not a binary for this machine, nor a script with a #! line"
    )]
    ExecFormat(PathBuf),
    #[error("could not start {path}: {message}")]
    Spawn { path: PathBuf, message: String },
    /// plugctl refused to run it (owner and mode rules, `--locked`).
    #[error("refused to run {path}: {message}")]
    Refused {
        path: PathBuf,
        message: String,
        /// What would lift the refusal, for the front end to word after
        /// the message.
        hint: Option<Hint>,
    },
    /// plugctl's own shortage (processes, descriptors): the plugin never
    /// ran, so nothing is known or recorded about it.
    #[error("{0}")]
    NotRun(String),
    #[error("rejected: {0}")]
    Rejected(String),
    /// A file that is there but is not a plugin as Nomad sees it (no
    /// execute bit, a directory): Nomad would not find it, so neither does
    /// plugctl, but it says why.
    #[error("not found: {} is not a plugin as Nomad sees it: {reason}", path.display())]
    NotAPlugin { path: PathBuf, reason: String },
    #[error("{0}")]
    Builtin(String),
    #[error(
        "timed out after {}{}",
        humantime::format_duration(*deadline),
        killed_note(*killed, *no_grace)
    )]
    TimedOut {
        deadline: Duration,
        /// true when SIGTERM was not enough and the group got SIGKILL
        killed: bool,
        /// A grace of 0s: SIGKILL at the deadline, no SIGTERM first.
        no_grace: bool,
    },
    #[error("exited with status {code}{}", detail(message))]
    Exit {
        code: i32,
        message: Option<String>,
        /// Where the rest of what it said is ([`Hint::PluginStderr`]).
        hint: Option<Hint>,
    },
    #[error("killed by signal {signal}{}", detail(message))]
    Signaled {
        signal: String,
        message: Option<String>,
        hint: Option<Hint>,
    },
    /// The plugin exited but left processes running (in its group, or
    /// escaped with setsid); plugctl killed them.
    #[error("{0}")]
    LeftBehind(String),
    /// A failure that came of a sandbox cap, the cap said first.
    #[error("{message}")]
    OverCap { message: String, hint: Option<Hint> },
    #[error("bad output: {0}")]
    BadOutput(String),
    #[error("{0}")]
    Response(String),
}

fn killed_note(killed: bool, no_grace: bool) -> &'static str {
    if no_grace {
        " (grace 0s: process group killed with SIGKILL at once, no SIGTERM)"
    } else if killed {
        " (ignored SIGTERM; process group killed with SIGKILL)"
    } else {
        " (process group terminated)"
    }
}

fn detail(message: &Option<String>) -> String {
    match message {
        Some(m) if !m.is_empty() => format!(": {m}"),
        _ => String::new(),
    }
}

impl PluginFailure {
    pub fn is_timeout(&self) -> bool {
        matches!(self, PluginFailure::TimedOut { .. })
    }

    pub fn is_not_found(&self) -> bool {
        matches!(self, PluginFailure::NotAPlugin { .. })
    }

    /// What would change this failure, for the front end to word after its
    /// message.
    pub fn hint(&self) -> Option<&Hint> {
        match self {
            PluginFailure::Refused { hint, .. }
            | PluginFailure::Exit { hint, .. }
            | PluginFailure::OverCap { hint, .. }
            | PluginFailure::Signaled { hint, .. } => hint.as_ref(),
            _ => None,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A bad value or configuration (a usage error at the command line).
    #[error("{0}")]
    Usage(String),

    /// No such plugin, volume or registry entry.
    #[error("{what} not found: {name}")]
    NotFound { what: &'static str, name: String },

    /// A plugin call failed: timed out, not a plugin as Nomad sees it, or
    /// failed ([`PluginFailure`] says which).
    #[error(
        "{family} plugin {}, operation {operation}{}: {failure}",
        crate::escape::quote(name),
        subject.as_ref().map(|s| format!(" ({s})")).unwrap_or_default()
    )]
    Plugin {
        family: String,
        name: String,
        operation: Operation,
        /// What the call was about: a volume, a secret path.
        subject: Option<String>,
        failure: Box<PluginFailure>,
        /// What the call cost, when it ran.
        usage: Option<Box<crate::usage::Usage>>,
    },

    /// The registry lock was not granted in time.
    #[error(
        "registry {} is locked by another plugctl{}; gave up after {}",
        path.display(),
        holder.map(|p| format!(" (pid {p})")).unwrap_or_default(),
        humantime::format_duration(*waited)
    )]
    RegistryLocked {
        path: PathBuf,
        holder: Option<u32>,
        waited: Duration,
    },

    /// The registry file cannot be used as it is (corrupt, newer schema, no
    /// permission, a read-only file system). It is left untouched:
    /// an operator must look at it.
    #[error("registry {}: {message}", path.display())]
    Registry { path: PathBuf, message: String },

    /// An I/O failure outside plugins.
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },

    /// A wait that was not satisfied in time (not a plugin's).
    #[error("{0}")]
    Timeout(String),

    /// An operation that ran but did not succeed, already reported in detail
    /// (e.g. some fingerprints unhealthy).
    #[error("{0}")]
    Failed(String),

    /// plugctl itself ran short of a resource (threads, processes, file
    /// descriptors): its own condition, never a plugin's.
    #[error("plugctl ran out of {resource} trying to {what}: {source}; {hint}")]
    Exhausted {
        resource: &'static str,
        what: String,
        hint: &'static str,
        #[source]
        source: std::io::Error,
    },

    /// Output could not be written because the reader went away (`| head`).
    /// Not an error to the user: exit quietly.
    #[error("broken pipe")]
    BrokenPipe,

    /// An error with advice on the setting that would change the outcome,
    /// which the front end words with its own flags. Its class is the
    /// inner error's.
    #[error("{error}")]
    Hinted { error: Box<Error>, hint: Hint },
}

/// What would change an outcome — a setting, a command to run — named by
/// what it does, with the data it needs; or, for a message about one of the
/// caller's inputs, which input. The library knows no flags, variables or
/// commands: the command line words each hint with its own, around the
/// message it is about (`src/exit.rs` in the `plugctl` crate).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hint {
    /// A name that was not found is close to one that exists (a typo):
    /// that one, as the user would type it.
    DidYouMean(String),
    /// The trust gate's owner and mode rules can be lifted (a lab machine).
    AllowInsecurePaths,
    /// Another Nomad release can be chosen.
    NomadRelease,
    /// Fewer plugin calls at once.
    FewerCalls,
    /// The registry's size ceiling can be raised.
    RegistryMaxSize,
    /// The registry's path must name a regular file.
    RegistryPath,
    /// Another registry can be chosen (where this one is cannot be written).
    AnotherRegistry,
    /// The registry's directory needs read and write access for this
    /// process (its permissions fixed), or another registry can be chosen.
    RegistryAccess,
    /// The lock wait's ceiling, of which `left` remains.
    LockTimeout { left: Duration },
    /// The volumes directory a volume was created under: using it again
    /// lets plugctl hand the volume to its plugin.
    VolumesDir(PathBuf),
    /// A create can be re-run for an existing volume by naming its id (and
    /// its namespace, when not the one asked for).
    CreateWithId {
        id: String,
        namespace: Option<String>,
    },
    /// An interrupted delete can be finished: deleting the volume again,
    /// or repairing the registry.
    DeleteOrRepair { id: String },
    /// A volume no delete can settle (its path is not one plugctl hands to
    /// a plugin): its record can be dropped without running the plugin, or
    /// the trust gate's rules lifted (a lab machine).
    ForgetVolume { id: String },
    /// The plugin, once fixed, can be fingerprinted again.
    Fingerprint { name: String },
    /// The plugins can be fingerprinted again (a file changed since).
    FingerprintAgain,
    /// The node id can be named for this run (the agent's cannot be used).
    NodeId,
    /// A plugin removed on purpose can be forgotten: its record goes.
    Forget { family: String, name: String },
    /// Locked runs need a lock file: pinning (and reviewing it) writes one.
    LockFile,
    /// A plugin not in the lock file can be pinned (and the change
    /// reviewed).
    Pin { family: String, name: String },
    /// A plugin that drifted from its pin: if the change is wanted,
    /// reviewing it and pinning it again accepts the new file.
    Repin { family: String, name: String },
    /// Locked runs refuse a plugin that drifted from its pin (said of a
    /// warning that did not refuse it).
    Locked,
    /// Replay takes a fetch's variable `name` only from its caller.
    ReplayEnv { name: String },
    /// The caller gave replay a variable `name` the recorded fetch did not
    /// have (the message says so; this names the input).
    ExtraReplayEnv { name: String },
    /// Validating the plugin says more about why it would not run.
    Validate,
    /// A failed call wrote more on stderr than its message quotes (`all`:
    /// the message quotes its last line), which a verbose run prints
    /// (`masked`: with secret values masked).
    PluginStderr { all: bool, masked: bool },
    /// The host-volume plugin directory can be pointed elsewhere.
    HostVolumePluginDir,
    /// The trust gate's owner and mode rules were lifted (what a skip is
    /// for).
    InsecurePathsAllowed,
    /// The suite was asked to keep its volumes (what a skip is for).
    Kept,
    /// The suite's size limit for a volume, which can be lowered.
    MaxBytes,
    /// The suite's absurd-capacity check runs only when asked for.
    CheckAbsurdCapacity,
    /// A fetch's path to ask for is given by the caller (and the plugin's
    /// store configuration through its environment).
    FetchPath,
    /// A fetch's path and environment come from the caller: which to check
    /// when a fetch failed.
    FetchInputs,
    /// A deadline of the caller's raises a fingerprint's budget for
    /// plugctl alone.
    Timeout,
    /// A fetch's job variables were given for a release that never sets
    /// them: a release from `since` does, or the caller can pass the
    /// variable itself. `input` names which was given.
    JobVariables { input: JobInput, since: String },
    /// A job input that was refused (the message says why).
    JobInput(JobInput),
    /// The sandbox can make the best of what the kernel offers, saying
    /// what it leaves out.
    SandboxBestEffort,
    /// Caps need a sandbox level that has them.
    SandboxLevel,
}

impl Hint {
    /// The hint as a `tracing` warning carries it, in its `hint` (or
    /// `then`) field, with the plugin's `name` in `name` where it has one;
    /// [`Hint::from_event`] reads it back. `None`: not carried by events.
    pub fn event_kind(&self) -> Option<&'static str> {
        match self {
            Hint::Pin { .. } => Some("pin"),
            Hint::Repin { .. } => Some("repin"),
            Hint::Locked => Some("locked"),
            _ => None,
        }
    }

    /// The hint a warning's `kind` (and `name`) field carries.
    pub fn from_event(kind: &str, family: Option<&str>, name: Option<&str>) -> Option<Hint> {
        let family = || family.map(str::to_string);
        let name = || name.map(str::to_string);
        match kind {
            "pin" => Some(Hint::Pin {
                family: family()?,
                name: name()?,
            }),
            "repin" => Some(Hint::Repin {
                family: family()?,
                name: name()?,
            }),
            "locked" => Some(Hint::Locked),
            _ => None,
        }
    }
}

/// Which of a fetch's job inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobInput {
    JobId,
    Namespace,
}

impl JobInput {
    /// The variable it sets for the plugin.
    pub fn variable(self) -> &'static str {
        match self {
            JobInput::JobId => "NOMAD_JOB_ID",
            JobInput::Namespace => "NOMAD_NAMESPACE",
        }
    }
}

/// A message that is not an [`Error`] (a reason, a line of a report),
/// with what would change it, for the front end to word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Advised {
    pub message: String,
    pub hint: Option<Hint>,
}

impl Advised {
    pub fn new(message: impl Into<String>, hint: Hint) -> Advised {
        Advised {
            message: message.into(),
            hint: Some(hint),
        }
    }
}

impl From<String> for Advised {
    fn from(message: String) -> Advised {
        Advised {
            message,
            hint: None,
        }
    }
}

impl From<&str> for Advised {
    fn from(message: &str) -> Advised {
        message.to_string().into()
    }
}

/// The message alone (the front end words the hint).
impl std::fmt::Display for Advised {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl Error {
    /// A failure to get a thread, a process or a descriptor, named for the
    /// limit that caused it and what to do (EAGAIN: processes and threads,
    /// `ulimit -u`; EMFILE/ENFILE: open files, `ulimit -n`).
    pub fn exhausted(what: impl Into<String>, source: std::io::Error) -> Self {
        let (resource, hint) = exhaustion(&source).unwrap_or((
            "a resource",
            "check the process, thread and open-file limits (ulimit -u, ulimit -n)",
        ));
        Error::Exhausted {
            resource,
            what: what.into(),
            hint,
            source,
        }
    }

    pub fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        if source.kind() == std::io::ErrorKind::BrokenPipe {
            return Error::BrokenPipe;
        }
        Error::Io {
            context: context.into(),
            source,
        }
    }

    pub fn usage(message: impl Into<String>) -> Self {
        Error::Usage(message.into())
    }

    /// This error with advice on the setting that would change it.
    pub fn hint(self, hint: Hint) -> Self {
        Error::Hinted {
            error: Box::new(self),
            hint,
        }
    }

    /// A path the trust gate refused, as a configuration error: `what` says
    /// what the path was for; an owner or mode others could abuse carries
    /// [`Hint::AllowInsecurePaths`].
    pub fn refused(what: impl std::fmt::Display, r: &crate::trust::Refusal) -> Self {
        let e = Error::Usage(format!("{what}: {}", r.explained()));
        if r.is_insecure() {
            e.hint(Hint::AllowInsecurePaths)
        } else {
            e
        }
    }

    /// This error with "did you mean" advice when one of `candidates` is
    /// close to `name` (see [`crate::suggest::closest`]); else unchanged.
    pub fn did_you_mean<I, S>(self, name: &str, candidates: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        match crate::suggest::closest(name, candidates) {
            Some(close) => self.hint(Hint::DidYouMean(close)),
            None => self,
        }
    }

    /// The error under its advice rewritten by `f`, the advice kept (a
    /// caller adding context to a not-found error keeps its "did you mean").
    pub fn map_inner(self, f: impl FnOnce(Error) -> Error) -> Self {
        match self {
            Error::Hinted { error, hint } => Error::Hinted {
                error: Box::new(error.map_inner(f)),
                hint,
            },
            e => f(e),
        }
    }

    /// The advice this error carries, outermost first.
    pub fn hints(&self) -> Vec<&Hint> {
        match self {
            Error::Hinted { error, hint } => {
                let mut all = vec![hint];
                all.extend(error.hints());
                all
            }
            _ => Vec::new(),
        }
    }

    /// The error itself, under any advice it carries.
    pub fn inner(&self) -> &Error {
        match self {
            Error::Hinted { error, .. } => error.inner(),
            e => e,
        }
    }

    pub fn plugin(
        family: impl Into<String>,
        name: impl Into<String>,
        operation: Operation,
        failure: PluginFailure,
    ) -> Self {
        Error::Plugin {
            family: family.into(),
            name: name.into(),
            operation,
            subject: None,
            failure: Box::new(failure),
            usage: None,
        }
    }

    /// What a failed plugin call cost, when it ran; other errors are
    /// returned unchanged.
    pub fn costing(mut self, spent: Option<crate::usage::Usage>) -> Self {
        if let Error::Plugin { usage, .. } = &mut self {
            *usage = spent.map(Box::new);
        }
        self
    }

    /// What a failed plugin call cost, when it is known.
    pub fn call_usage(&self) -> Option<&crate::usage::Usage> {
        match self.inner() {
            Error::Plugin { usage, .. } => usage.as_deref(),
            _ => None,
        }
    }

    /// Names what a failed plugin call was about (`volume 1234 "web"`,
    /// `path "db/creds"`); other errors are returned unchanged.
    pub fn about(mut self, what: impl Into<String>) -> Self {
        if let Error::Plugin { subject, .. } = &mut self {
            *subject = Some(what.into());
        }
        self
    }

    /// What a failed plugin call was about.
    pub fn subject(&self) -> Option<&str> {
        match self.inner() {
            Error::Plugin { subject, .. } => subject.as_deref(),
            _ => None,
        }
    }

    /// `(family/name, operation)` of a failed plugin call.
    pub fn plugin_context(&self) -> (Option<String>, Option<String>) {
        // `subject` is in the message; the JSON document keeps plugin and
        // operation as scripts match them.
        match self.inner() {
            Error::Plugin {
                family,
                name,
                operation,
                ..
            } => (
                Some(format!("{family}/{name}")),
                Some(operation.name().to_string()),
            ),
            _ => (None, None),
        }
    }
}

/// Which of plugctl's own limits an OS error is: EAGAIN from fork/clone or
/// thread creation is the process limit, EMFILE/ENFILE the file limits.
pub fn exhaustion(e: &std::io::Error) -> Option<(&'static str, &'static str)> {
    match e.raw_os_error() {
        Some(nix::libc::EAGAIN) => Some((
            "processes or threads (EAGAIN)",
            "raise the limit (ulimit -u, RLIMIT_NPROC) or lower the concurrency",
        )),
        Some(nix::libc::EMFILE) => Some((
            "open files (EMFILE)",
            "raise the limit (ulimit -n, RLIMIT_NOFILE) or lower the concurrency",
        )),
        Some(nix::libc::ENFILE) => Some((
            "open files system-wide (ENFILE)",
            "the whole system is out of file handles (fs.file-max); retry later",
        )),
        Some(nix::libc::ENOMEM) => Some((
            "memory (ENOMEM)",
            "free memory or raise the limit (ulimit -v)",
        )),
        _ => None,
    }
}

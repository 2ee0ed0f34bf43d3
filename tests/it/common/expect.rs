//! The expectation builder: one plugctl run, read as the sentence it checks.
//!
//! ```ignore
//! plugctl(&s)
//!     .args(["volume", "create", "--plugin", "nope", "--name", "x"])
//!     .fails_with(Exit::NotFound)
//!     .stderr_has("host-volume/nope");
//! let doc = plugctl(&s).args(["--json", "volume", "list"]).succeeds().json();
//! ```
//!
//! Every failed expectation prints the command line, the exit code, stdout
//! and stderr, so a red test says what ran and what it said without a
//! hand-written message.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io::{Read, Write};
use std::ops::Deref;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{PLUGCTL, Rig};

/// plugctl's exit codes, by name (mirrors `plugctl::exit`, which scripts
/// depend on: docs/cli.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    Success,
    Failure,
    Usage,
    NotFound,
    Timeout,
}

impl Exit {
    pub const ALL: [Exit; 5] = [
        Exit::Success,
        Exit::Failure,
        Exit::Usage,
        Exit::NotFound,
        Exit::Timeout,
    ];

    /// The number the binary exits with.
    pub fn code(self) -> i32 {
        use plugctl::exit;
        match self {
            Exit::Success => exit::SUCCESS,
            Exit::Failure => exit::FAILURE,
            Exit::Usage => exit::USAGE,
            Exit::NotFound => exit::NOT_FOUND,
            Exit::Timeout => exit::TIMEOUT,
        }
    }

    /// The name of an exit code, if it is one of plugctl's.
    pub fn of(code: i32) -> Option<Exit> {
        Exit::ALL.into_iter().find(|e| e.code() == code)
    }
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Exit::Success => "success",
            Exit::Failure => "failure",
            Exit::Usage => "usage",
            Exit::NotFound => "not found",
            Exit::Timeout => "timeout",
        };
        write!(f, "{} ({name})", self.code())
    }
}

/// plugctl in this rig (its cleared environment, see
/// [`Rig::command`]), not yet run.
pub fn plugctl(s: &Rig) -> Run {
    Run::new(s.std_cmd(), "plugctl")
}

/// plugctl run under this umask, by `sh -c 'umask <umask>; exec plugctl
/// "$@"'` in the rig's environment (what a file it makes gets from the
/// umask is the point of such a test). Add plugctl's arguments as usual.
pub fn plugctl_with_umask(s: &Rig, umask: &str) -> Run {
    Run::new(s.command("/bin/sh"), "sh")
        .arg("-c")
        .arg(format!("umask {umask}; exec \"$0\" \"$@\""))
        .arg(PLUGCTL)
}

/// plugctl as user nobody (uid and gid 65534, no supplementary groups),
/// by setpriv, in the rig's environment: for what a user without
/// privileges may read or write. Only root can switch users: a test calls
/// this after [`super::is_root`] said so.
pub fn plugctl_as_nobody(s: &Rig) -> Run {
    Run::new(s.command("setpriv"), "setpriv").args([
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        PLUGCTL,
    ])
}

/// A program other than plugctl (promtool, a shell, a test binary), run as
/// the test's own process runs it and checked the same way.
pub fn tool(program: &str) -> Run {
    Run::new(Command::new(program), program)
}

/// One command to run and then check.
pub struct Run {
    cmd: Command,
    line: Vec<OsString>,
    stdin: Option<Vec<u8>>,
    deadline: Option<Duration>,
}

impl Run {
    /// Any command, checked the same way (plugctl run by a shell, say).
    pub fn new(cmd: Command, name: &str) -> Run {
        Run {
            cmd,
            line: vec![name.into()],
            stdin: None,
            deadline: None,
        }
    }

    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Run {
        self.cmd.arg(arg.as_ref());
        self.line.push(arg.as_ref().to_owned());
        self
    }

    /// Arguments written out as an array literal: `["volume", "delete", &id]`
    /// (a `&String` in the array is taken as a `&str`).
    pub fn args<const N: usize>(self, args: [&str; N]) -> Run {
        self.args_from(args)
    }

    /// Arguments from anything iterable (a `Vec`, a slice, `OsString`s).
    pub fn args_from<I, S>(mut self, args: I) -> Run
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        for a in args {
            self = self.arg(a);
        }
        self
    }

    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Run {
        self.cmd.env(key, value);
        self
    }

    pub fn env_remove(mut self, key: impl AsRef<OsStr>) -> Run {
        self.cmd.env_remove(key);
        self
    }

    /// Starts it in a process group of its own, as a job-control shell
    /// starts a job: its parent (this test) is then in another group of
    /// the same session, so its group is never orphaned, whatever started
    /// the tests (a TSTP to an orphaned group is discarded).
    pub fn own_process_group(mut self) -> Run {
        std::os::unix::process::CommandExt::process_group(&mut self.cmd, 0);
        self
    }

    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Run {
        self.cmd.current_dir(dir);
        self
    }

    /// Feeds these bytes on standard input (null otherwise).
    pub fn stdin(mut self, bytes: impl Into<Vec<u8>>) -> Run {
        self.stdin = Some(bytes.into());
        self
    }

    /// Kills it, and fails, when it has not ended within `limit` of its
    /// start: a hang is a failure, not a stuck suite.
    pub fn deadline(mut self, limit: Duration) -> Run {
        self.deadline = Some(limit);
        self
    }

    /// Runs it and hands back what happened, unchecked (but for the
    /// [`Run::deadline`]).
    pub fn output(self) -> Output {
        self.finish().out
    }

    /// Starts it in the background, its output collected, to check when
    /// it ends: `let bg = plugctl(&s).args([..]).start(); ...;
    /// bg.succeeds()`.
    pub fn start(mut self) -> Started {
        let line = self.command_line();
        let input = self.stdin.take();
        let started = Instant::now();
        let mut child = self
            .cmd
            .stdin(if input.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {line}: {e}"));
        // A writer thread, so a child that prints a lot before it reads
        // cannot deadlock against us; a child that never reads just closes
        // the pipe (EPIPE is no failure of the test). Readers drain its
        // output meanwhile, for the same reason.
        let writer = input.map(|input| {
            let mut pipe = child.stdin.take().unwrap();
            std::thread::spawn(move || {
                let _ = pipe.write_all(&input);
            })
        });
        let drain = |mut pipe: Box<dyn Read + Send>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                let _ = pipe.read_to_end(&mut bytes);
                bytes
            })
        };
        let stdout = drain(Box::new(child.stdout.take().unwrap()));
        let stderr = drain(Box::new(child.stderr.take().unwrap()));
        Started {
            child,
            line,
            started,
            deadline: self.deadline,
            writer,
            stdout: Some(stdout),
            stderr: Some(stderr),
        }
    }

    fn command_line(&self) -> String {
        self.line
            .iter()
            .map(|a| quote(&a.to_string_lossy()))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// How a run is checked once it has ended, the same for one run to its end
/// ([`Run`]) and one started in the background ([`Started`]).
pub trait Finish: Sized {
    /// Runs it, or waits for it, to its end; unchecked.
    fn finish(self) -> Ran;

    /// Expects exit 0.
    #[track_caller]
    fn succeeds(self) -> Ran {
        self.exits(Exit::Success)
    }

    /// Expects this failure (not [`Exit::Success`]: say
    /// [`Finish::succeeds`]).
    #[track_caller]
    fn fails_with(self, want: Exit) -> Ran {
        assert_ne!(want, Exit::Success, "fails_with(Success): say succeeds()");
        self.exits(want)
    }

    /// Expects this exit, whichever it is (for tables of cases).
    #[track_caller]
    fn exits(self, want: Exit) -> Ran {
        let ran = self.finish();
        if ran.out.status.code() != Some(want.code()) {
            ran.fail(&format!("expected exit {want}"));
        }
        ran
    }

    /// Expects it to fail, whichever way: an exit other than 0, or death
    /// by a signal (for a test that only says "refused", where the class
    /// of the refusal is not the point).
    #[track_caller]
    fn fails(self) -> Ran {
        let ran = self.finish();
        if ran.out.status.success() {
            ran.fail("expected a failure");
        }
        ran
    }

    /// Accepts whatever exit, for a test that checks only what it printed.
    fn any_exit(self) -> Ran {
        self.finish()
    }

    /// Expects a numeric exit that is not one of plugctl's own (a shell's
    /// 130, a plugin's code passed through).
    #[track_caller]
    fn exits_code(self, want: i32) -> Ran {
        let ran = self.finish();
        if ran.out.status.code() != Some(want) {
            ran.fail(&format!("expected exit {want}"));
        }
        ran
    }
}

impl Finish for Run {
    fn finish(mut self) -> Ran {
        if self.stdin.is_some() || self.deadline.is_some() {
            return self.start().finish();
        }
        let line = self.command_line();
        let started = Instant::now();
        let out = self
            .cmd
            .output()
            .unwrap_or_else(|e| panic!("cannot run {line}: {e}"));
        Ran {
            out,
            line,
            took: started.elapsed(),
        }
    }
}

/// A command running in the background ([`Run::start`]); checked as any
/// run ([`Finish`]) once it ends, waited for up to its deadline, if it has
/// one. Dropped unchecked (a test that failed meanwhile, a helper process
/// it no longer needs), it is killed, so that nothing outlives the test.
pub struct Started {
    child: Child,
    line: String,
    started: Instant,
    deadline: Option<Duration>,
    writer: Option<JoinHandle<()>>,
    stdout: Option<JoinHandle<Vec<u8>>>,
    stderr: Option<JoinHandle<Vec<u8>>>,
}

impl Started {
    /// Its process id (to signal it, to look it up in /proc).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Whether it is still running.
    pub fn running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// Sends it SIGKILL (it may have ended already); check it as usual
    /// afterwards, by [`Finish::fails`] say.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
    }
}

impl Finish for Started {
    fn finish(mut self) -> Ran {
        let line = std::mem::take(&mut self.line);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if let Some(limit) = self.deadline
                && self.started.elapsed() > limit
            {
                panic!("still running after {limit:?} (killed)\n  command: {line}");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let took = self.started.elapsed();
        if let Some(writer) = self.writer.take() {
            writer.join().unwrap();
        }
        let collected = |pipe: &mut Option<JoinHandle<Vec<u8>>>| {
            pipe.take().map(|h| h.join().unwrap()).unwrap_or_default()
        };
        let out = Output {
            status,
            stdout: collected(&mut self.stdout),
            stderr: collected(&mut self.stderr),
        };
        Ran { out, line, took }
    }
}

impl Drop for Started {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A finished run whose exit code was as expected; derefs to its
/// [`Output`], so `stderr(&ran)` and `ran.stdout` work as on any output.
pub struct Ran {
    out: Output,
    line: String,
    took: Duration,
}

impl Ran {
    /// Expects stdout to contain `needle`.
    #[track_caller]
    pub fn stdout_has(self, needle: &str) -> Ran {
        if !self.stdout().contains(needle) {
            self.fail(&format!("expected stdout to contain {needle:?}"));
        }
        self
    }

    /// Expects stderr to contain `needle`.
    #[track_caller]
    pub fn stderr_has(self, needle: &str) -> Ran {
        if !self.stderr().contains(needle) {
            self.fail(&format!("expected stderr to contain {needle:?}"));
        }
        self
    }

    /// Expects stdout not to contain `needle`.
    #[track_caller]
    pub fn stdout_lacks(self, needle: &str) -> Ran {
        if self.stdout().contains(needle) {
            self.fail(&format!("expected stdout not to contain {needle:?}"));
        }
        self
    }

    /// Expects stderr not to contain `needle`.
    #[track_caller]
    pub fn stderr_lacks(self, needle: &str) -> Ran {
        if self.stderr().contains(needle) {
            self.fail(&format!("expected stderr not to contain {needle:?}"));
        }
        self
    }

    /// Expects nothing at all on stdout.
    #[track_caller]
    pub fn stdout_empty(self) -> Ran {
        if !self.out.stdout.is_empty() {
            self.fail("expected an empty stdout");
        }
        self
    }

    /// Expects nothing at all on stderr.
    #[track_caller]
    pub fn stderr_empty(self) -> Ran {
        if !self.out.stderr.is_empty() {
            self.fail("expected an empty stderr");
        }
        self
    }

    /// stdout as one `--json` document (`schema_version` 1, as every
    /// document plugctl prints carries).
    #[track_caller]
    pub fn json(&self) -> Value {
        let v: Value = serde_json::from_slice(&self.out.stdout)
            .unwrap_or_else(|e| self.fail(&format!("stdout is not one JSON document ({e})")));
        if v["schema_version"] != 1 {
            self.fail("expected schema_version 1 in the document");
        }
        v
    }

    /// stdout as JSON lines, one object a line, as `--json events` prints
    /// them (no `schema_version`: an event is no document).
    #[track_caller]
    pub fn json_lines(&self) -> Vec<Value> {
        self.stdout()
            .lines()
            .map(|l| {
                serde_json::from_str(l).unwrap_or_else(|e| {
                    self.fail(&format!("stdout line is not one JSON object ({e}): {l:?}"))
                })
            })
            .collect()
    }

    /// The `error` object of the `--json` error document on stdout (its
    /// `kind`, `message`, ...: docs/cli.md).
    #[track_caller]
    pub fn error(&self) -> Value {
        let doc = self.json();
        if !doc["error"].is_object() {
            self.fail("expected an error document (an `error` object)");
        }
        doc["error"].clone()
    }

    /// How long it ran, from spawn to exit.
    pub fn took(&self) -> Duration {
        self.took
    }

    /// Expects a `--json` error document on stdout of this `kind`
    /// (`usage`, `not_found`, `plugin`, `timeout`...: docs/cli.md).
    #[track_caller]
    pub fn error_kind(self, kind: &str) -> Ran {
        if self.error()["kind"] != kind {
            self.fail(&format!("expected an error of kind {kind:?}"));
        }
        self
    }

    /// Expects the message of the `--json` error document on stdout to
    /// contain `needle`.
    #[track_caller]
    pub fn error_has(self, needle: &str) -> Ran {
        let error = self.error();
        if !error["message"]
            .as_str()
            .unwrap_or_default()
            .contains(needle)
        {
            self.fail(&format!("expected the error message to contain {needle:?}"));
        }
        self
    }

    /// The exit code, `None` when a signal ended it: for a table of cases
    /// that gathers every mismatch before it fails, where the checks above
    /// would stop at the first (see `faults::cell`).
    pub fn code(&self) -> Option<i32> {
        self.out.status.code()
    }

    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.out.stdout).into_owned()
    }

    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.out.stderr).into_owned()
    }

    /// The raw output.
    pub fn output(self) -> Output {
        self.out
    }

    #[track_caller]
    fn fail(&self, what: &str) -> ! {
        let signal = std::os::unix::process::ExitStatusExt::signal(&self.out.status);
        let status = match (self.out.status.code(), signal) {
            (Some(c), _) => match Exit::of(c) {
                Some(e) => format!("exit {e}"),
                None => format!("exit {c}"),
            },
            (None, Some(sig)) => format!("killed by signal {sig}"),
            (None, None) => format!("{}", self.out.status),
        };
        panic!(
            "{what}\n  command: {}\n  got:     {status}\n--- stdout ---\n{}\n--- stderr ---\n{}\n---",
            self.line,
            self.stdout(),
            self.stderr()
        )
    }
}

impl Deref for Ran {
    type Target = Output;
    fn deref(&self) -> &Output {
        &self.out
    }
}

/// A shell word for the failure message: bare when it is safe, single-quoted
/// otherwise, so the line can be pasted into a shell.
fn quote(word: &str) -> String {
    let safe = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c));
    if safe {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// plugctl on a pseudo-terminal that util-linux `script` makes, in the
/// rig's environment: `args` is the rest of a shell line, quoted as
/// the shell wants it, and may redirect (`>/dev/null` leaves only stderr on
/// the terminal). What the terminal showed, carriage returns and escapes
/// and all, is the run's stdout. `None`, the test skipped (failed in CI),
/// where util-linux `script` is not installed.
pub fn plugctl_on_a_terminal(s: &Rig, args: &str) -> Option<Run> {
    on_a_terminal(s, &format!("'{PLUGCTL}' {args}"))
}

/// [`plugctl_on_a_terminal`] on a terminal `cols` columns wide (and 50
/// lines high), as `stty` sets it before plugctl starts.
pub fn plugctl_on_a_terminal_of(s: &Rig, cols: u16, args: &str) -> Option<Run> {
    on_a_terminal(
        s,
        &format!("stty cols {cols} rows 50 && exec '{PLUGCTL}' {args}"),
    )
}

/// A shell line run on a pseudo-terminal that util-linux `script` makes.
fn on_a_terminal(s: &Rig, line: &str) -> Option<Run> {
    let util_linux = Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("util-linux"));
    if !util_linux {
        // script is in bsdutils, which Debian always has (Essential).
        super::skip_unless_ci("util-linux script is not installed to make a terminal");
        return None;
    }
    Some(Run::new(s.command("script"), "script").args(["-qfec", line, "/dev/null"]))
}

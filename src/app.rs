//! The command-line front end: parse, resolve settings, dispatch, and turn
//! an error into its message and exit code.

use std::ffi::OsString;
use std::future::Future;
use std::time::Duration;

use plugctl_core::runner::{self, Pool};
use plugctl_core::stop::{Stop, StopHandle};

use crate::cli::{Cli, Command, PluginCommand, VolumeCommand};
use crate::commands::{self, Ctx};
use crate::exit;
use crate::output::{Printer, Streams};
use crate::settings::{Host, Settings};
use crate::shutdown::{Event, Signals};
use crate::{Error, Result};

/// Runs plugctl with these arguments and returns the exit code.
pub fn run(args: impl IntoIterator<Item = OsString>) -> i32 {
    run_with(args, &Host::current(), &Streams::process())
}

/// [`run`] in a given environment (`host`: who runs it, the variables that
/// matter, the directories) writing to `streams`: the whole command line,
/// in process, for tests that check what a command prints.
pub fn run_with(args: impl IntoIterator<Item = OsString>, host: &Host, streams: &Streams) -> i32 {
    let args: Vec<OsString> = args.into_iter().collect();
    let cli = match crate::cli::parse(&args) {
        Ok(cli) => cli,
        Err(e) => return clap_error(&own_usage(e), wants_json(&args), &args, streams),
    };
    let asked = cli
        .command
        .output()
        .and_then(crate::cli::OutputArgs::format);
    let json = cli.global.json || asked == Some(crate::cli::OutputFormat::Json);
    let plain = || Printer::plain(json).with_streams(streams);
    let settings = match Settings::resolve(&cli.global, host).and_then(|mut s| {
        s.apply_output(asked)?;
        Ok(s)
    }) {
        Ok(s) => s,
        Err(e) => return report(&plain(), &e),
    };
    if let Err(e) = one_release_unless_validate(&settings, &cli.command) {
        return report(&plain(), &e);
    }
    // A plugin directory the user named must be there before anything is
    // looked up in it (validate takes its own DIR; init makes one).
    if runs_plugins(&cli.command)
        && !matches!(cli.command, Command::Validate(_) | Command::Init(_))
        && let Err(e) = crate::layout::check_explicit(&settings)
    {
        return report(&plain(), &e);
    }
    // The stop token every part of the command listens to; its handle is
    // fired by the command loop when a stopping signal comes.
    let (stop, stopper) = Stop::detached();
    // validate builds its own pool: its DIR moves the lock file with it.
    let mut ctx = if runs_plugins(&cli.command) && !matches!(cli.command, Command::Validate(_)) {
        match Ctx::for_plugins(settings, stop, streams) {
            Ok(ctx) => ctx,
            Err(e) => return report(&plain(), &e),
        }
    } else {
        Ctx::new(settings, stop, streams)
    };
    ctx.printer = ctx.printer.clone().muting_results(!shows(&cli.command));
    for warning in &ctx.settings.layout.warnings {
        ctx.printer.warn(warning);
    }
    // Where every directory came from (flag, variable, agent config file
    // and line, default), for whoever wonders why plugctl looks where it
    // looks. Completion scripts are for shells, not people.
    if !matches!(cli.command, Command::Completions(_)) {
        for line in ctx.settings.describe_layout() {
            ctx.printer.note(1, line);
        }
    }
    // What each plugin call is confined by, and how each cap binds.
    if runs_plugins(&cli.command) && !matches!(cli.command, Command::Validate(_)) {
        for line in ctx.pool.sandbox().report().lines() {
            ctx.printer.note(1, line);
        }
    }
    // What the library warns about reaches stderr through the printer.
    let _warnings =
        tracing::subscriber::set_default(crate::warnings::ToPrinter::new(ctx.printer.clone()));
    let code = match execute(&ctx, &stopper, cli) {
        Supervised::Finished(Ok(())) => exit::SUCCESS,
        Supervised::Finished(Err(e)) => report(&ctx.printer, &e),
        // What the command's flow made of its plugins' end is the signal's
        // doing: not reported.
        Supervised::Stopped(code) => code,
    };
    plugctl_core::registry::volumes::release_owner();
    // The process ends right after: freeing the registry state held in the
    // context (a map of every volume) would only cost time (~3% of a
    // command on a 100,000-volume registry).
    std::mem::forget(ctx);
    code
}

/// Every command that runs plugins but `validate` behaves as one Nomad
/// release; `validate` takes a list and prints a matrix. Commands that run
/// none (`plugin list`, `events`, ...) do not care, so a list exported for
/// `validate` does not stop them.
fn one_release_unless_validate(settings: &Settings, command: &Command) -> Result<()> {
    let releases = &settings.nomad_releases;
    if releases.len() <= 1 || matches!(command, Command::Validate(_)) || !runs_plugins(command) {
        return Ok(());
    }
    let list: Vec<String> = releases.iter().map(ToString::to_string).collect();
    Err(Error::usage(format!(
        "--nomad-version (or PLUGCTL_NOMAD_VERSION) names {} releases ({}): only `plugctl \
         validate` takes a list (it prints on which releases each plugin works); every other \
         command behaves as one release",
        releases.len(),
        list.join(", ")
    )))
}

/// Before a command that reads secret values: plugctl may not be dumped
/// (no core file, no ptrace by other users) and its core size limit is 0,
/// so a crash or an abort cannot write a value to disk.
fn protect_secrets() -> Result<()> {
    nix::sys::prctl::set_dumpable(false)
        .map_err(|e| Error::io("cannot make plugctl non-dumpable", e.into()))?;
    nix::sys::resource::setrlimit(nix::sys::resource::Resource::RLIMIT_CORE, 0, 0)
        .map_err(|e| Error::io("cannot set the core size limit to 0", e.into()))
}

fn execute(ctx: &Ctx, stopper: &StopHandle, cli: Cli) -> Supervised<Result<()>> {
    if matches!(
        cli.command,
        Command::Secret(_) | Command::Test(_) | Command::Replay(_)
    ) && let Err(e) = protect_secrets()
    {
        return Supervised::Finished(Err(e));
    }
    let plugins = runs_plugins(&cli.command);
    // One thread for every command: plugctl waits on processes and pipes,
    // which one thread multiplexes as fast (benches/run.sh), and a runtime
    // that needs no worker thread cannot fail (or panic) for want of one
    // when the process limit is low. What cannot be had is an error.
    // Commands that run no plugin need timers only (lock waits, `events
    // --follow`, socket checks): no I/O driver to set up for them.
    let mut builder = tokio::runtime::Builder::new_current_thread();
    if plugins {
        builder.enable_all();
    } else {
        builder.enable_time();
    }
    let runtime = match builder.build() {
        Ok(runtime) => runtime,
        Err(e) => return Supervised::Finished(Err(Error::exhausted("start the async runtime", e))),
    };
    runtime.block_on(async {
        if !plugins {
            return Supervised::Finished(commands::dispatch(ctx, cli.command).await);
        }
        plugctl_core::runner::become_subreaper();
        plugctl_core::runner::keep_inherited_descriptors();
        let mut signals = match crate::shutdown::install() {
            Ok(signals) => signals,
            Err(e) => {
                return Supervised::Finished(Err(Error::io("cannot install signal handlers", e)));
            }
        };
        let work = async {
            let mut result = commands::dispatch(ctx, cli.command).await;
            // What escaped every call's reach (a setsid daemon that held no
            // pipe while other calls ran beside it, so no one call could
            // claim it). Killed and reaped inside the supervised work: a
            // signal that comes meanwhile (the reap waits up to 200 ms)
            // still ends plugctl with 128 + its number.
            let left = ctx.pool.kill_orphans().await;
            if !left.is_empty() {
                let failed = Error::Failed(format!(
                    "plugins {}",
                    plugctl_core::families::left_behind(&left)
                ));
                // Named even when the command failed for another reason:
                // what was killed must not go unseen.
                match result {
                    Ok(()) => result = Err(failed),
                    Err(_) => ctx.printer.error(&failed),
                }
            }
            result
        };
        supervise(&mut signals, &ctx.pool, stopper, work).await
    })
}

/// How a command run by [`supervise`] ended.
#[derive(Debug)]
pub enum Supervised<T> {
    /// It ran to its end: what it returned.
    Finished(T),
    /// A signal stopped it: the exit code (128 + the signal's number).
    Stopped(i32),
}

/// Beyond the calls' own bounds (grace cap, pipe drain), how long a
/// shutdown waits for them before it SIGKILLs what is left and goes.
const SHUTDOWN_SLACK: Duration = Duration::from_secs(1);

/// The command loop: runs `work` (a command, whose calls go through
/// `pool`) while turning the signals' events into requests to the pool.
///
/// - Pause: the pool stops its calls' groups and clocks, then plugctl
///   stops itself (SIGSTOP); Resume: the pool's calls go on.
/// - Stop: `stopper` fires (nothing more is recorded or printed, nothing
///   new starts), every call in flight is asked to end (SIGTERM, SIGKILL
///   after its grace, at most [`runner::INTERRUPT_GRACE_CAP`]; a second
///   stopping signal: SIGKILL now) while `work` goes on being polled so
///   the calls drain and reap. Once no call is left, `work` is dropped
///   wherever it waits (a lock wait, say), the orphans plugctl adopted are
///   killed, and the stop's scratch directories removed.
pub async fn supervise<T>(
    signals: &mut Signals,
    pool: &Pool,
    stopper: &StopHandle,
    work: impl Future<Output = T>,
) -> Supervised<T> {
    // Boxed, so that it can be dropped before this returns.
    let mut work = Box::pin(work);
    let signal = loop {
        tokio::select! {
            out = &mut work => return Supervised::Finished(out),
            event = signals.next() => match event {
                Event::Pause => {
                    pool.pause();
                    // SIGSTOP cannot be caught: this returns once someone
                    // sends SIGCONT, which is Resume.
                    let _ = nix::sys::signal::raise(nix::sys::signal::Signal::SIGSTOP);
                }
                Event::Resume => pool.resume(),
                Event::Stop(signal) => break signal,
            },
        }
    };
    let code = crate::shutdown::exit_code(signal);
    stopper.stop(code);
    pool.terminate(runner::INTERRUPT_GRACE_CAP);
    let give_up = tokio::time::Instant::now()
        + runner::INTERRUPT_GRACE_CAP
        + runner::PIPE_DRAIN_BOUND
        + SHUTDOWN_SLACK;
    let mut work_done = false;
    loop {
        tokio::select! {
            _ = &mut work, if !work_done => work_done = true,
            () = pool.finished() => break,
            event = signals.next() => match event {
                // A second signal: no more waiting.
                Event::Stop(_) => {
                    pool.terminate(Duration::ZERO);
                }
                // Never stopped mid-shutdown; continued, the calls go on
                // to their end.
                Event::Pause => {}
                Event::Resume => pool.resume(),
            },
            () = tokio::time::sleep_until(give_up) => {
                pool.terminate(Duration::ZERO);
                break;
            }
        }
    }
    // Dropped wherever it waits: what it would still do is the signal's
    // doing, and a call it still holds SIGKILLs its group as it goes.
    drop(work);
    let _ = pool.kill_orphans().await;
    // A scratch directory with a mount a plugin left in it is never
    // removed through it (that would empty what is mounted): it stays,
    // and the operator is told where and why.
    for left in stopper.remove_scratch_dirs() {
        eprintln!(
            "plugctl: warning: {}",
            plugctl_core::escape::escape_untrusted(
                &format!("scratch directory left as it is: {left}"),
                true
            )
        );
    }
    Supervised::Stopped(code)
}

/// Whether the command runs plugins: those get the I/O driver that waits on
/// their pipes and the signal handlers that take their process groups down
/// with plugctl. The others only read or change the registry (or wait on
/// it): timers and the default signal actions do, and plugctl starts
/// faster without the rest (benches/run.sh, startup).
fn runs_plugins(command: &Command) -> bool {
    match command {
        Command::Plugin(_)
        | Command::Events(_)
        | Command::Status(_)
        | Command::Completions(_)
        | Command::Pin(_)
        | Command::Metrics(_) => false,
        Command::Volume(v) => !matches!(
            v,
            VolumeCommand::List(_)
                | VolumeCommand::Show { .. }
                | VolumeCommand::Audit { .. }
                | VolumeCommand::Forget { .. }
        ),
        Command::Fingerprint(_)
        | Command::Secret(_)
        | Command::Validate(_)
        | Command::Test(_)
        | Command::Init(_)
        | Command::Replay(_) => true,
    }
}

/// Whether the command is asked to show something (a list, a volume, a
/// secret, the events, the metrics, a script, the calls a `--dry-run` would
/// make): `-q` silences warnings there, never the answer. Every other
/// command acts or checks, and with `-q` prints nothing but its errors.
fn shows(command: &Command) -> bool {
    match command {
        Command::Plugin(p) => matches!(p, PluginCommand::List { .. } | PluginCommand::Show { .. }),
        Command::Volume(v) => match v {
            VolumeCommand::List(_) | VolumeCommand::Show { .. } => true,
            VolumeCommand::Create(args) => args.plan.dry_run,
            VolumeCommand::Delete(args) => args.plan.dry_run,
            VolumeCommand::Restore { plan, .. } => plan.dry_run,
            VolumeCommand::Repair { .. }
            | VolumeCommand::Audit { .. }
            | VolumeCommand::Forget { .. } => false,
        },
        Command::Secret(_) | Command::Events(_) | Command::Status(_) | Command::Completions(_) => {
            true
        }
        Command::Metrics(m) => m.textfile.is_none(),
        Command::Fingerprint(args) => args.plan.dry_run,
        Command::Validate(_)
        | Command::Test(_)
        | Command::Pin(_)
        | Command::Replay(_)
        | Command::Init(_) => false,
    }
}

/// Reports an error of the command line as clap found it. --help and
/// --version are "errors" to clap that go to stdout with exit 0; a real one
/// goes to stderr with exit 2 and, with `--json`, is also the JSON error
/// document on stdout (cli.md: any failure).
fn clap_error(e: &clap::Error, json: bool, args: &[OsString], streams: &Streams) -> i32 {
    let printer = Printer::plain(true).with_streams(streams);
    if let Some(message) = from_environment(e, args) {
        printer.raw_stderr(&format!(
            "plugctl: error: {}\n",
            crate::output::escape_untrusted(&message, true)
        ));
        if json {
            let _ = printer.document(crate::exit::json_body(&Error::usage(message)));
        }
        return exit::USAGE;
    }
    // One prefix for every error, clap's as plugctl's own.
    let prefix = if e.use_stderr() && e.render().to_string().starts_with("error:") {
        "plugctl: "
    } else {
        ""
    };
    if streams.is_process() {
        // clap styles its own output for the terminal it finds (colour on
        // a terminal, plain on a pipe); the prefix is plain either way.
        if !prefix.is_empty() {
            printer.raw_stderr(prefix);
        }
        let _ = e.print();
    } else if e.use_stderr() {
        printer.raw_stderr(&format!("{prefix}{}", e.render()));
    } else {
        let _ = printer.text(&e.render().to_string());
    }
    if !e.use_stderr() {
        return exit::SUCCESS;
    }
    if json {
        let (message, tips) = clap_tips(&usage_message(e));
        let mut body = crate::exit::json_body(&Error::usage(message));
        body["error"]["hints"] = tips.into();
        let _ = printer.document(body);
    }
    exit::USAGE
}

/// The error with the usage line of the subcommand it is about, as that
/// subcommand's `--help` prints it. clap builds an error's usage line from
/// the arguments it counts as used, and it counts an option whose
/// `PLUGCTL_*` variable is set: `volume create` would show `--registry
/// <FILE>` (and every other variable set) as if it were required.
fn own_usage(mut e: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue};
    let Some(ContextValue::StyledStr(usage)) = e.get(ContextKind::Usage) else {
        return e;
    };
    // "Usage: plugctl volume create ...": the words after the binary's
    // name that are subcommands say which one.
    let text = usage.to_string();
    let Some(line) = text.trim().strip_prefix("Usage: ") else {
        return e;
    };
    let mut root = crate::cli::command();
    root.build();
    let mut cmd = &root;
    for word in line.split_whitespace().skip(1) {
        match cmd.find_subcommand(word) {
            Some(sub) => cmd = sub,
            None => break,
        }
    }
    let own = cmd.clone().render_usage();
    e.insert(ContextKind::Usage, ContextValue::StyledStr(own));
    e
}

/// A bad value that came from an environment variable, not the command
/// line: clap names the flag, which the user never typed; say which
/// variable holds it.
fn from_environment(e: &clap::Error, args: &[OsString]) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    if e.kind() != clap::error::ErrorKind::InvalidValue
        && e.kind() != clap::error::ErrorKind::ValueValidation
    {
        return None;
    }
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    let flag = arg.split_whitespace().next()?.to_string();
    let long = flag.strip_prefix("--")?;
    let typed = args
        .iter()
        .filter_map(|a| a.to_str())
        .take_while(|a| *a != "--")
        .any(|a| a == flag || a.starts_with(&format!("{flag}=")));
    if typed {
        return None;
    }
    let command = crate::cli::command();
    let var = find_env(&command, long)?;
    let message = usage_message(e).replace(&format!("'{arg}'"), &format!("{var} ({flag})"));
    Some(message)
}

fn find_env(cmd: &clap::Command, long: &str) -> Option<String> {
    cmd.get_arguments()
        .find(|a| a.get_long() == Some(long))
        .and_then(|a| a.get_env())
        .map(|v| v.to_string_lossy().into_owned())
        .or_else(|| cmd.get_subcommands().find_map(|c| find_env(c, long)))
}

/// Whether `--json` (or `-o json`) is among the arguments, as clap would
/// see it: before a `--` (after which everything is a positional value).
/// Known before the arguments parse, so a usage error can honour it.
fn wants_json(args: &[OsString]) -> bool {
    let words: Vec<&OsString> = args.iter().skip(1).take_while(|a| *a != "--").collect();
    words.iter().enumerate().any(|(i, a)| {
        *a == "--json"
            || *a == "-ojson"
            || *a == "--output=json"
            || ((*a == "-o" || *a == "--output") && words.get(i + 1).is_some_and(|v| *v == "json"))
    })
}

/// clap's message apart from its `tip:` lines, and those tips: the JSON
/// error document carries them as its `hints`, as it does plugctl's own.
fn clap_tips(text: &str) -> (String, Vec<String>) {
    let mut message = Vec::new();
    let mut tips = Vec::new();
    for line in text.lines() {
        match line.trim_start().strip_prefix("tip: ") {
            Some(tip) => tips.push(tip.to_string()),
            None => message.push(line),
        }
    }
    (message.join("\n").trim().to_string(), tips)
}

/// clap's message for the JSON error document: plain text (no styles),
/// without the `error: ` prefix, the usage and the pointer to --help that
/// follow it on stderr.
fn usage_message(e: &clap::Error) -> String {
    // StyledStr's Display drops the styles.
    let text = e.render().to_string();
    if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        // The "message" is the whole help; its usage line says what is missing.
        return match text.lines().find_map(|l| l.trim().strip_prefix("Usage: ")) {
            Some(usage) => format!("a subcommand is required; usage: {usage}"),
            None => "a subcommand is required".into(),
        };
    }
    let text = text.trim();
    let text = text.strip_prefix("error: ").unwrap_or(text);
    let end = ["\n\nUsage: ", "\n\nFor more information"]
        .iter()
        .filter_map(|marker| text.find(marker))
        .min()
        .unwrap_or(text.len());
    text[..end].trim().to_string()
}

fn report(printer: &Printer, e: &Error) -> i32 {
    printer.error(e);
    crate::exit::code(e)
}

//! The command-line front end: parse, resolve settings, dispatch, and turn
//! an error into its message and exit code.

use std::ffi::OsString;

use clap::Parser;

use crate::cli::{Cli, Command, VolumeCommand};
use crate::commands::{self, Ctx};
use crate::exit;
use crate::output::{Printer, Streams};
use crate::settings::{Host, Settings};
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
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => return clap_error(&e, wants_json(&args), &args, streams),
    };
    let json = cli.global.json;
    let plain = || Printer::plain(json).with_streams(streams);
    let settings = match Settings::resolve(&cli.global, host) {
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
    // validate builds its own pool: its DIR moves the lock file with it.
    let ctx = if runs_plugins(&cli.command) && !matches!(cli.command, Command::Validate(_)) {
        match Ctx::for_plugins(settings, streams) {
            Ok(ctx) => ctx,
            Err(e) => return report(&plain(), &e),
        }
    } else {
        Ctx::new(settings, streams)
    };
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
    // What the library warns about reaches stderr through the printer.
    let _warnings =
        tracing::subscriber::set_default(crate::warnings::ToPrinter::new(ctx.printer.clone()));
    let code = match execute(&ctx, cli) {
        Ok(()) => exit::SUCCESS,
        Err(e) => report(&ctx.printer, &e),
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

fn execute(ctx: &Ctx, cli: Cli) -> Result<()> {
    if matches!(
        cli.command,
        Command::Secret(_) | Command::Test(_) | Command::Replay(_)
    ) {
        protect_secrets()?;
    }
    let plugins = runs_plugins(&cli.command);
    // One thread for every command: plugctl waits on processes and pipes,
    // which one thread multiplexes as fast (benches/run.sh), and a runtime
    // that needs no worker thread cannot fail (or panic) for want of one
    // when the process limit is low. What cannot be had is an error.
    // Commands that run no plugin need timers only (lock waits, `plugin
    // wait`, `events --follow`): no I/O driver to set up for them.
    let mut builder = tokio::runtime::Builder::new_current_thread();
    if plugins {
        builder.enable_all();
    } else {
        builder.enable_time();
    }
    let runtime = builder
        .build()
        .map_err(|e| Error::exhausted("start the async runtime", e))?;
    runtime.block_on(async {
        if plugins {
            plugctl_core::runner::become_subreaper();
            crate::shutdown::install()
                .map_err(|e| Error::io("cannot install signal handlers", e))?;
        }
        let mut result = commands::dispatch(ctx, cli.command).await;
        // What escaped every call's reach (a setsid daemon that held no pipe
        // while other calls ran beside it, so no one call could claim it).
        if plugins {
            let left = plugctl_core::runner::kill_orphans();
            if !left.is_empty() && result.is_ok() {
                result = Err(Error::Failed(format!(
                    "plugins {}",
                    plugctl_core::families::left_behind(&left)
                )));
            }
        }
        if ctx.stop.stopped().is_some() {
            // The handler is killing the plugins and will exit 130/143.
            std::future::pending::<()>().await;
        }
        result
    })
}

/// Whether the command runs plugins: those get the multi-thread runtime that
/// runs plugins side by side and the interrupt handler that takes their
/// process groups down with plugctl. The others only read or change the
/// registry (or wait on it): one thread and the default signal actions do,
/// and plugctl starts in half the time without worker threads to start and
/// join (benches/run.sh, startup).
fn runs_plugins(command: &Command) -> bool {
    match command {
        Command::Plugin(_)
        | Command::Events(_)
        | Command::Completions(_)
        | Command::Pin(_)
        | Command::Metrics(_) => false,
        Command::Volume(v) => !matches!(
            v,
            VolumeCommand::List { .. } | VolumeCommand::Show { .. } | VolumeCommand::Audit { .. }
        ),
        Command::Fingerprint(_)
        | Command::Secret(_)
        | Command::Validate(_)
        | Command::Test(_)
        | Command::Init(_)
        | Command::Replay(_) => true,
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
    if streams.is_process() {
        // clap styles its own output for the terminal it finds.
        let _ = e.print();
    } else if e.use_stderr() {
        printer.raw_stderr(&e.render().to_string());
    } else {
        let _ = printer.text(&e.render().to_string());
    }
    if !e.use_stderr() {
        return exit::SUCCESS;
    }
    if json {
        let _ = printer.document(crate::exit::json_body(&Error::usage(usage_message(e))));
    }
    exit::USAGE
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
    let command = <Cli as clap::CommandFactory>::command();
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

/// Whether `--json` is among the arguments, as clap would see it: before a
/// `--` (after which everything is a positional value). Known before the
/// arguments parse, so a usage error can honour it.
fn wants_json(args: &[OsString]) -> bool {
    args.iter()
        .skip(1)
        .take_while(|a| *a != "--")
        .any(|a| a == "--json")
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

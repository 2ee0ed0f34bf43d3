//! The command-line front end: parse, resolve settings, dispatch, and turn
//! an error into its message and exit code.

use std::ffi::OsString;

use clap::Parser;

use crate::cli::{Cli, Command, VolumeCommand};
use crate::commands::{self, Ctx};
use crate::exit;
use crate::output::Printer;
use crate::settings::{Host, Settings};
use crate::{Error, Result};

/// Runs plugctl with these arguments and returns the exit code.
pub fn run(args: impl IntoIterator<Item = OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version are "errors" to clap that go to stdout.
            let code = if e.use_stderr() {
                exit::USAGE
            } else {
                exit::SUCCESS
            };
            let _ = e.print();
            return code;
        }
    };
    let json = cli.global.json;
    let settings = match Settings::resolve(&cli.global, &Host::current()) {
        Ok(s) => s,
        Err(e) => return report(&Printer::plain(json), &e),
    };
    let ctx = Ctx::new(settings);
    let code = match execute(&ctx, cli) {
        Ok(()) => exit::SUCCESS,
        Err(e) => report(&ctx.printer, &e),
    };
    // The process ends right after: freeing the registry state held in the
    // context (a map of every volume) would only cost time (~3% of a
    // command on a 100,000-volume registry).
    std::mem::forget(ctx);
    code
}

fn execute(ctx: &Ctx, cli: Cli) -> Result<()> {
    let plugins = runs_plugins(&cli.command);
    let runtime = if plugins {
        tokio::runtime::Builder::new_multi_thread()
    } else {
        tokio::runtime::Builder::new_current_thread()
    }
    .enable_all()
    .build()
    .map_err(|e| Error::io("cannot start the async runtime", e))?;
    runtime.block_on(async {
        if plugins {
            crate::runner::install_interrupt_handler()
                .map_err(|e| Error::io("cannot install signal handlers", e))?;
        }
        let result = commands::dispatch(ctx, cli.command).await;
        if crate::runner::interrupted().is_some() {
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
        Command::Plugin(_) | Command::Events(_) | Command::Completions(_) => false,
        Command::Volume(v) => !matches!(v, VolumeCommand::List { .. } | VolumeCommand::Show { .. }),
        Command::Fingerprint(_)
        | Command::Secret(_)
        | Command::Validate(_)
        | Command::Test(_)
        | Command::Init(_) => true,
    }
}

fn report(printer: &Printer, e: &Error) -> i32 {
    printer.error(e);
    e.exit_code()
}

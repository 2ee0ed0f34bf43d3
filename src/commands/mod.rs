//! One function per subcommand. Commands see resolved [`Settings`], never
//! clap's raw view of the environment, and print only through the [`Printer`].

pub mod fingerprint;
pub mod plugin;

use std::sync::Arc;
use std::time::Duration;

use crate::cli::{Command, PluginCommand, RunArgs};
use crate::output::Printer;
use crate::registry::Registry;
use crate::runner::Pool;
use crate::settings::Settings;
use crate::{Error, Result};

/// Everything a command needs, made once per process.
pub struct Ctx {
    pub settings: Settings,
    pub printer: Printer,
    pub registry: Registry,
    pub pool: Arc<Pool>,
}

impl Ctx {
    pub fn new(settings: Settings) -> Ctx {
        Ctx {
            printer: Printer::new(&settings),
            registry: Registry::new(&settings.registry, settings.lock_timeout),
            pool: Arc::new(Pool::new(settings.concurrency)),
            settings,
        }
    }
}

/// A deadline from `--timeout`, else the operation's default; zero is refused
/// because it would fail every plugin without running it.
pub fn deadline(run: &RunArgs, default: Duration) -> Result<Duration> {
    match run.timeout {
        Some(d) if d.is_zero() => Err(Error::usage("--timeout must be more than 0")),
        Some(d) => Ok(d),
        None => Ok(default),
    }
}

pub async fn dispatch(ctx: &Ctx, command: Command) -> Result<()> {
    match command {
        Command::Fingerprint(args) => fingerprint::run(ctx, args).await,
        Command::Plugin(PluginCommand::List { family }) => plugin::list(ctx, family.as_deref()),
        Command::Plugin(PluginCommand::Show {
            family,
            name,
            alloc_id,
        }) => plugin::show(ctx, &family, &name, alloc_id.as_deref()),
        other => Err(Error::Failed(format!(
            "{} is not implemented yet",
            command_name(&other)
        ))),
    }
}

fn command_name(c: &Command) -> &'static str {
    match c {
        Command::Fingerprint(_) => "fingerprint",
        Command::Plugin(_) => "plugin",
        Command::Volume(_) => "volume",
        Command::Secret(_) => "secret",
        Command::Validate(_) => "validate",
        Command::Test(_) => "test",
        Command::Events(_) => "events",
        Command::Init(_) => "init",
        Command::Completions(_) => "completions",
    }
}

//! One function per subcommand. Commands see resolved [`Settings`], never
//! clap's raw view of the environment, and print only through the [`Printer`].

pub mod audit;
pub mod completions;
pub mod events;
pub mod fingerprint;
pub mod init;
pub mod metrics;
pub mod pin;
pub mod plan;
pub mod plugin;
pub mod replay;
pub mod secret;
pub mod status;
pub mod test;
pub mod validate;
pub mod volume;

use std::sync::Arc;
use std::time::Duration;

use crate::cli::{Command, ReportFormat, RunArgs};
use crate::output::{Printer, Streams};
use crate::settings::Settings;
use crate::{Error, Result};
use plugctl_core::family::{Family, Operation};
use plugctl_core::registry::Registry;
use plugctl_core::runner::Pool;
use plugctl_core::stop::Stop;

/// Everything a command needs, made once per process.
pub struct Ctx {
    pub settings: Settings,
    pub printer: Printer,
    pub registry: Registry,
    /// Runs the command's plugins; signals reach its calls through it (see
    /// [`crate::app::supervise`]).
    pub pool: Arc<Pool>,
    /// Fires when a signal stops plugctl (see [`crate::shutdown`]).
    pub stop: Stop,
}

impl Ctx {
    /// A context for a command that does not run plugins; `stop` is the
    /// token its signals fire.
    pub fn new(settings: Settings, stop: Stop, streams: &Streams) -> Ctx {
        let printer = Printer::new(&settings, stop.clone()).with_streams(streams);
        Ctx {
            registry: Registry::new(&settings.registry, settings.lock_timeout)
                .with_limits(settings.registry_max_size, settings.policy())
                .with_stop(stop.clone())
                .with_notice(lock_notice(&printer)),
            printer,
            pool: Arc::new(Pool::new(settings.concurrency).with_policy(settings.policy())),
            stop,
            settings,
        }
    }

    /// A context for a command that runs plugins: its pool checks the lock
    /// file (`--locked`) and records calls (`--record`). Fails when either
    /// cannot be used. `stop` is the token its signals fire.
    pub fn for_plugins(settings: Settings, stop: Stop, streams: &Streams) -> Result<Ctx> {
        let printer = Printer::new(&settings, stop.clone()).with_streams(streams);
        // What the library warns about while the pool is made (a lock file
        // it cannot trust) reaches the printer as the command's will.
        let pool = tracing::subscriber::with_default(
            crate::warnings::ToPrinter::new(printer.clone()),
            || plugin_pool(&settings, &printer),
        )?;
        Ok(Ctx {
            registry: Registry::new(&settings.registry, settings.lock_timeout)
                .with_limits(settings.registry_max_size, settings.policy())
                .with_stop(stop.clone())
                .with_notice(lock_notice(&printer)),
            printer,
            pool: Arc::new(pool),
            stop,
            settings,
        })
    }
}

/// Runs `work`; on a terminal, once it has taken a second, a progress
/// line says what it waits for (`what`) and for how long, every second,
/// until it ends: a long plugin call shows what it runs.
pub async fn showing<T>(
    printer: &Printer,
    what: &str,
    work: impl std::future::Future<Output = T>,
) -> T {
    let start = std::time::Instant::now();
    tokio::pin!(work);
    let mut shown = false;
    loop {
        tokio::select! {
            out = &mut work => {
                if shown {
                    printer.progress_done();
                }
                return out;
            }
            () = tokio::time::sleep(Duration::from_secs(1)) => {
                printer.progress(format!("{what}, {} s", start.elapsed().as_secs()));
                shown = true;
            }
        }
    }
}

/// A lock wait, said on stderr as a note of the command (not with -q).
fn lock_notice(printer: &Printer) -> plugctl_core::registry::Notice {
    let printer = printer.clone();
    plugctl_core::registry::Notice::new(move |what, hint| {
        let advice = hint.map(crate::exit::advice).unwrap_or_default();
        printer.info(format!("plugctl: {what}{advice}"))
    })
}

/// The sandbox policy file beside the lock file, read through the trust
/// gate (none: every plugin's policy grants nothing).
pub fn policy_file(settings: &Settings) -> Result<plugctl_core::sandbox::PolicyFile> {
    Ok(
        plugctl_core::sandbox::PolicyFile::load(&settings.policy_file(), settings.policy())?
            .unwrap_or_default(),
    )
}

/// The run's sandbox: the level and caps of the command line, the policy
/// file's policies, what plugctl started with. With best effort, what the
/// kernel lacks is a warning.
pub fn sandbox(
    settings: &Settings,
    printer: &Printer,
    policies: plugctl_core::sandbox::PolicyFile,
    policy_unread: Option<String>,
) -> Result<plugctl_core::sandbox::Sandbox> {
    use plugctl_core::sandbox::{Config, Sandbox};
    let policy_path = settings.policy_file();
    let sandbox = Sandbox::new(Config {
        level: settings.sandbox.level,
        caps: settings.sandbox.caps,
        best_effort: settings.sandbox.best_effort,
        policies,
        policy_path: Some(policy_path),
        policy_unread,
        plugin_dir: settings.plugin_dir.clone(),
        host_volume_plugin_dir: settings.host_volume_plugin_dir.clone(),
        inherited: settings.inherited,
        trust: settings.policy(),
    })?;
    for (layer, why) in &sandbox.report().missing {
        printer.warn(format!(
            "--sandbox {} without {layer} (--sandbox-best-effort): {why}",
            settings.sandbox.level
        ));
    }
    Ok(sandbox)
}

/// Descriptors one call holds in plugctl at its peak (stdout and stderr
/// pipes, both ends until the fork is done, the /proc files read at its
/// end, and its time namespace, held for the call).
const FDS_PER_CALL: u64 = 7;
/// Descriptors kept for everything else (the registry, its lock, stdio, the
/// runtime's own).
const FDS_RESERVED: u64 = 64;

/// How many calls may run at once: `--concurrency`, capped to what the
/// descriptors allow — after raising the soft open-file limit to the hard
/// one when the calls need more (as Go's runtime raises it for Nomad), and
/// saying so on stderr when it lowers the concurrency.
fn fd_budget(concurrency: usize, printer: &Printer) -> usize {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE) else {
        return concurrency;
    };
    let fits = |limit: u64| {
        usize::try_from(limit.saturating_sub(FDS_RESERVED) / FDS_PER_CALL)
            .unwrap_or(usize::MAX)
            .max(1)
    };
    // Raised only when the calls need it: a plugin must start with the
    // soft limit plugctl started with (as a Go parent restores it in each
    // child), which the child then sets back between fork and exec.
    let soft = if fits(soft) < concurrency
        && soft < hard
        && setrlimit(Resource::RLIMIT_NOFILE, hard, hard).is_ok()
    {
        hard
    } else {
        soft
    };
    let fit = fits(soft);
    if fit < concurrency {
        printer.warn(format!(
            "--concurrency {concurrency} lowered to {fit}: the open-file limit is {soft} \
             (ulimit -n) and each plugin call needs up to {FDS_PER_CALL}"
        ));
        return fit;
    }
    concurrency
}

/// Raises the soft open-file limit to the hard one, for a command that
/// runs no plugin and may need many descriptors at once (`volume audit`'s
/// walks hold one per level of a volume's tree, several volumes at once).
/// Never for a command that runs plugins: each must start with the limit
/// plugctl started with (`fd_budget` raises it only when calls need it,
/// and the child sets it back). A limit that cannot be raised is left as
/// it is; what the walk could not read then is a finding.
pub fn raise_open_file_limit() {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    if let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE)
        && soft < hard
    {
        let _ = setrlimit(Resource::RLIMIT_NOFILE, hard, hard);
    }
}

/// The pool that runs plugins for these settings: bounded by
/// `--concurrency`, checking the lock file (`--locked`, or a warning when
/// one exists) and recording calls (`--record`).
pub fn plugin_pool(settings: &Settings, printer: &Printer) -> Result<Pool> {
    // A policy file plugctl cannot trust (its directory or itself another
    // user's) does not stop the command: as with the lock file, the
    // plugins it may hold a policy for are refused, each as it is run (in
    // the usual layout, the gate refuses them first, for the same
    // directory), and none runs without its policy.
    let (policies, unread) = match policy_file(settings) {
        Ok(policies) => (policies, None),
        Err(Error::Hinted {
            error,
            hint: plugctl_core::error::Hint::AllowInsecurePaths,
        }) => {
            if std::fs::symlink_metadata(settings.policy_file()).is_ok() {
                printer.warn(format!(
                    "{error}; the plugins it may hold a policy for are refused as they run"
                ));
            }
            (Default::default(), Some(error.to_string()))
        }
        Err(e) => return Err(e),
    };
    let mut pool = Pool::new(fd_budget(settings.concurrency, printer))
        .with_policy(settings.policy())
        .with_sandbox(sandbox(settings, printer, policies.clone(), unread)?);
    if settings.allow_insecure_paths {
        pool = pool.without_trust_checks();
    }
    // benches/run.sh's accounting row: one binary, with and without it.
    // Only a build with the `bench-knobs` feature reads this variable.
    #[cfg(feature = "bench-knobs")]
    if std::env::var_os("PLUGCTL_BENCH_NO_USAGE").is_some_and(|v| v == "1") {
        pool = pool.without_usage();
    }
    if let Some(pins) = plugctl_core::provenance::locked::Pins::load(
        &settings.lockfile,
        settings.locked,
        settings.policy(),
    )? {
        pool = pool.with_pins(pins.with_policies(policies));
    }
    if let Some(dir) = &settings.record {
        pool = pool.with_recorder(plugctl_core::provenance::case::Recorder::open(
            dir,
            settings.policy(),
            settings.record_env,
        )?);
    }
    Ok(pool)
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

/// Nomad never places a volume, or registers a secrets provider, on a node
/// whose last fingerprint of that plugin failed (scheduler/feasible): a
/// plugin whose latest fingerprint here is unhealthy is refused before it
/// runs, saying why. One never fingerprinted is run (plugctl is also used
/// before a first fingerprint, as in a plugin's own tests).
pub fn require_fingerprinted(
    ctx: &Ctx,
    family: Family,
    name: &str,
    operation: Operation,
) -> Result<()> {
    ctx.registry
        .read()?
        .state()
        .require_available(family, name, operation)
}

/// The report format of `validate` and `test`: `--format`, else json with
/// `--json`, else human. `--json` with human or junit would put two kinds of
/// output on stdout (docs/cli.md: exactly one JSON document): refused, as
/// `secret fetch` refuses it with kv or env.
pub fn report_format(printer: &Printer, format: Option<ReportFormat>) -> Result<ReportFormat> {
    match (format, printer.json) {
        (None, true) | (Some(ReportFormat::Json), _) => Ok(ReportFormat::Json),
        (None, false) => Ok(ReportFormat::Human),
        (Some(f), false) => Ok(f),
        (Some(_), true) => Err(Error::usage(
            "--json prints the JSON document; it cannot be combined with --format human or junit",
        )),
    }
}

/// Runs the command, and gives up the registry's liveness lock after it.
pub async fn dispatch(ctx: &Ctx, command: Command) -> Result<()> {
    // However the command ends — run to its end, or dropped by a signal's
    // shutdown once its calls are gone — this process owns no volume after
    // it: its liveness lock file goes (the context itself is never dropped).
    let _owner = ReleaseOwner(&ctx.registry);
    run_command(ctx, command).await
}

/// Gives up the registry's liveness lock file when dropped.
struct ReleaseOwner<'r>(&'r Registry);

impl Drop for ReleaseOwner<'_> {
    fn drop(&mut self) {
        self.0.release_owner();
    }
}

/// The command's own module.
async fn run_command(ctx: &Ctx, command: Command) -> Result<()> {
    match command {
        Command::Fingerprint(args) => fingerprint::run(ctx, args).await,
        Command::Plugin(cmd) => plugin::run(ctx, cmd).await,
        Command::Volume(cmd) => volume::run(ctx, cmd).await,
        Command::Secret(cmd) => secret::run(ctx, cmd).await,
        Command::Validate(args) => validate::run(ctx, args).await,
        Command::Test(args) => test::run(ctx, args).await,
        Command::Events(args) => events::run(ctx, args).await,
        Command::Status(args) => status::run(ctx, args).await,
        Command::Init(args) => init::run(ctx, args),
        Command::Pin(args) => pin::run(ctx, args),
        Command::Replay(args) => replay::run(ctx, args).await,
        Command::Metrics(args) => metrics::run(ctx, args),
        Command::Completions(args) => completions::run(ctx, args),
    }
}

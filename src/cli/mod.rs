//! The command line, as clap types and nothing else. Values are parsed here
//! (durations, sizes, K=V pairs, in `values`) so a bad value is a usage
//! error (exit 2) before anything runs; defaults that depend on the
//! machine are resolved in [`crate::settings`]. [`parse`] reads a command
//! line into a [`Cli`].
//!
//! The doc comments below are clap's help text, shown as written: a
//! `<plugin-dir>` in them is a placeholder for people, not an HTML tag,
//! and a `[abc]` a glob's class, not a link.
#![allow(rustdoc::invalid_html_tags, rustdoc::broken_intra_doc_links)]

mod parse;
mod values;

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

pub use parse::{FromEnv, command, help_command, parse};
pub use values::{KeyValueParser, When, parse_duration, parse_key_value, parse_size, parse_when};

/// A command line, read: the global options and the subcommand.
#[derive(Debug)]
pub struct Cli {
    pub global: GlobalArgs,
    pub command: Command,
}

/// plugctl itself as clap sees it: its name, version and help, and the
/// global options. Its subcommands ([`Command`]) are added by [`command`]
/// (every one) and by [`parse`] (those the command line names).
#[derive(Debug, Parser)]
#[command(
    name = "plugctl",
    version,
    about = "Discover, run, validate and test Nomad common plugins (host volumes, secrets)",
    long_about = "plugctl discovers the short-lived \"common plugins\" a Nomad client runs \
                  (dynamic host-volume plugins, secrets plugins, and other families), runs them \
                  exactly as Nomad does but safer (own process group, bounded output, a hard \
                  deadline), and keeps what it learned in a JSON registry file.\n\n\
                  On a node it looks where the Nomad agent does: it reads the agent's own \
                  configuration (--nomad-config; as root, /etc/nomad.d when it exists) for \
                  data_dir and the client's common_plugin_dir, host_volume_plugin_dir and \
                  host_volumes_dir, and derives the ones not set as Nomad does \
                  (<data_dir>/common_plugins, <data_dir>/host_volume_plugins, \
                  <data_dir>/host_volumes; data_dir is /opt/nomad/data as root when no \
                  configuration names it). --plugin-dir, --host-volume-plugin-dir and \
                  --volumes-dir (or their variables) override it; --plugin-dir without an \
                  agent configuration is the development layout, <plugin-dir>/host-volume. \
                  `plugctl -v` says where each directory came from.",
    propagate_version = true,
    max_term_width = 100,
    // What the derive sets for a required subcommand field; the
    // subcommands are not a field here (see above).
    subcommand_required = true,
    arg_required_else_help = true
)]
struct Plugctl {
    #[command(flatten)]
    global: GlobalArgs,
}

// Every command takes these; its help lists them apart from its own.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Global options")]
pub struct GlobalArgs {
    /// The Nomad agent's configuration (`none`: read none)
    ///
    /// A file or a directory (*.hcl and *.json, in order, the later
    /// winning), read as `nomad agent -config` reads it for data_dir and the
    /// client's common_plugin_dir, host_volume_plugin_dir and
    /// host_volumes_dir; repeatable; `none` reads none [default:
    /// /etc/nomad.d as root when it exists]
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_NOMAD_CONFIG",
        value_name = "PATH",
        hide_short_help = true
    )]
    pub nomad_config: Vec<PathBuf>,

    /// Plugin directory: one subdirectory per family
    ///
    /// secrets/, host-volume/, ... [default: the agent config's common_plugin_dir, or
    /// <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else
    /// $XDG_CONFIG_HOME/plugctl/plugins]
    // The variable's value would make -h's line wrap: its name is enough.
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_PLUGIN_DIR",
        value_name = "DIR",
        hide_env_values = true
    )]
    pub plugin_dir: Option<PathBuf>,

    /// Host-volume plugin directory
    ///
    /// [default: the agent config's host_volume_plugin_dir, or <data_dir>/host_volume_plugins
    /// (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-
    /// dir is given and no agent config is read]
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_HOST_VOLUME_PLUGIN_DIR",
        value_name = "DIR",
        hide_short_help = true
    )]
    pub host_volume_plugin_dir: Option<PathBuf>,

    /// Where volumes live
    ///
    /// [default: the agent config's host_volumes_dir, or <data_dir>/host_volumes
    /// (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_VOLUMES_DIR",
        value_name = "DIR",
        hide_short_help = true
    )]
    pub volumes_dir: Option<PathBuf>,

    /// Registry file
    ///
    /// [default: /var/lib/plugctl/registry.json as root, else
    /// $XDG_STATE_HOME/plugctl/registry.json]
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_REGISTRY",
        value_name = "FILE",
        hide_env_values = true
    )]
    pub registry: Option<PathBuf>,

    /// Node id passed to plugins
    ///
    /// [default: the Nomad agent's (<state_dir>/client-id), else a stable id plugctl keeps in
    /// the registry]
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_NODE_ID",
        value_name = "ID",
        hide_short_help = true
    )]
    pub node_id: Option<String>,

    /// Node pool passed to plugins
    ///
    /// [default: the agent configuration's client.node_pool, else default]
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_NODE_POOL",
        value_name = "NAME",
        hide_short_help = true
    )]
    pub node_pool: Option<String>,

    /// Print one JSON document on stdout (as -o json)
    ///
    /// Exactly one document (one object a line when a command streams); where a command takes
    /// -o, the same as -o json
    #[arg(long, global = true)]
    pub json: bool,

    /// How many plugins may run at once
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_CONCURRENCY",
        value_name = "N",
        default_value_t = 64,
        value_parser = clap::value_parser!(u16).range(1..=1024),
        hide_short_help = true
    )]
    pub concurrency: u16,

    /// How long to wait for the registry lock held by another plugctl
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_LOCK_TIMEOUT",
        value_name = "DURATION",
        default_value = "10s",
        value_parser = parse_duration,
        hide_short_help = true
    )]
    pub lock_timeout: Duration,

    /// When to colour output, help and errors (never when NO_COLOR is set)
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_COLOR",
        value_name = "WHEN",
        default_value = "auto",
        hide_short_help = true
    )]
    pub color: ColorChoice,

    /// Print less on stderr (warnings and progress off)
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,

    /// Print more on stderr (-vv: every call)
    ///
    /// -v: where each directory came from, and the stderr of plugins that failed; -vv: every
    /// call too
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,

    /// Lift the owner and mode checks (lab machines only)
    ///
    /// Use a registry, and run plugins, that group or others can write or another user owns
    /// (see docs/security.md)
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_ALLOW_INSECURE_PATHS",
        value_parser = clap::builder::BoolishValueParser::new(),
        action = clap::ArgAction::SetTrue,
        hide_short_help = true
    )]
    pub allow_insecure_paths: bool,

    /// Refuse a registry file larger than this before reading it
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_REGISTRY_MAX_SIZE",
        value_name = "SIZE",
        default_value = "1GiB",
        value_parser = parse_size,
        hide_short_help = true
    )]
    pub registry_max_size: u64,

    /// Behave as this Nomad release does (1.10, 2.0.1, ...)
    ///
    /// Deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist;
    /// `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest
    /// release covered]
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_NOMAD_VERSION",
        value_name = "VERSION",
        value_delimiter = ',',
        hide_short_help = true
    )]
    // Strings, read as releases in `settings`: a bad PLUGCTL_NOMAD_VERSION
    // must not be an error when the flag overrides it, and clap parses a
    // global option's variable even then.
    pub nomad_version: Vec<String>,

    /// The lock file of `pin` and `--locked`
    ///
    /// [default: <plugin-dir>/plugctl.lock]
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_LOCKFILE",
        value_name = "FILE",
        hide_short_help = true
    )]
    pub lockfile: Option<PathBuf>,

    /// Save every plugin call in DIR, for `plugctl replay`
    ///
    /// Each call's argv, environment, output, status and plugin sha256, as a case file
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_RECORD",
        value_name = "DIR",
        hide_short_help = true
    )]
    pub record: Option<PathBuf>,

    /// With --record: keep --env values in the case files
    ///
    /// By default only their names are kept: they may configure a secret
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_RECORD_ENV",
        value_parser = clap::builder::BoolishValueParser::new(),
        action = clap::ArgAction::SetTrue,
        hide_short_help = true
    )]
    pub record_env: bool,

    /// Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_LOCKED",
        value_parser = clap::builder::BoolishValueParser::new(),
        action = clap::ArgAction::SetTrue,
        hide_short_help = true
    )]
    pub locked: bool,

    /// How far each plugin call is confined: none, trim or strict
    ///
    /// none (as a Nomad client runs it: nothing beyond the deadline), trim (no new privileges, no core
    /// dumps, oom_score_adj 0, and the caps below), strict (trim, plus
    /// Landlock, seccomp, no network, a private /tmp and no capabilities,
    /// each relaxed only by what the plugin's policy in plugctl.policy.json
    /// grants). A plugin's policy may raise its own level
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_SANDBOX",
        value_name = "LEVEL",
        default_value = "none",
        hide_short_help = true
    )]
    pub sandbox: SandboxLevel,

    /// Apply the layers of --sandbox this kernel has, saying which it lacks
    ///
    /// Without it, a level whose layer this kernel lacks is refused (exit 2)
    /// instead of run
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_SANDBOX_BEST_EFFORT",
        value_parser = clap::builder::BoolishValueParser::new(),
        action = clap::ArgAction::SetTrue,
        hide_short_help = true
    )]
    pub sandbox_best_effort: bool,

    /// Memory cap of each plugin call (trim, strict)
    ///
    /// Its own cgroup's limit (the call and everything it starts) where plugctl has one, else each
    /// process's address space (RLIMIT_AS)
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_MEMORY_MAX",
        value_name = "SIZE",
        value_parser = parse_size,
        hide_short_help = true
    )]
    pub memory_max: Option<u64>,

    /// CPU time cap of each process of a plugin call (trim, strict)
    ///
    /// Enforced by RLIMIT_CPU
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_CPU_MAX",
        value_name = "DURATION",
        value_parser = parse_duration,
        hide_short_help = true
    )]
    pub cpu_max: Option<Duration>,

    /// Open-files cap of each process of a plugin call (trim, strict)
    ///
    /// Enforced by RLIMIT_NOFILE
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_FILES_MAX",
        value_name = "N",
        value_parser = clap::value_parser!(u64).range(1..),
        hide_short_help = true
    )]
    pub files_max: Option<u64>,

    /// Processes and threads of a plugin call at once (trim, strict)
    ///
    /// Its own cgroup's pids limit; refused where plugctl has no cgroup to use
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_TASKS_MAX",
        value_name = "N",
        value_parser = clap::value_parser!(u64).range(1..),
        hide_short_help = true
    )]
    pub tasks_max: Option<u64>,

    /// Which of these took their value from their `PLUGCTL_*` variable, as
    /// clap saw it ([`parse`]): `-v` and messages name the
    /// flag or the variable a setting came from.
    #[arg(skip)]
    pub from_env: FromEnv,
}

/// `--sandbox`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SandboxLevel {
    None,
    Trim,
    Strict,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// `-o, --output` on the commands that list or show.
#[derive(Debug, Clone, Default, Args)]
pub struct OutputArgs {
    /// How to print: table, wide, json or name
    ///
    /// table: on a terminal, fitted to its width (empty columns left out, free text cut); wide:
    /// every column, whole; json: as --json; name: one id or name a line, for xargs
    #[arg(
        short = 'o',
        long = "output",
        value_name = "FORMAT",
        hide_possible_values = true
    )]
    pub output: Option<OutputFormat>,
    /// Every column, whole: the same as -o wide
    #[arg(long, conflicts_with = "output")]
    pub wide: bool,
}

impl OutputArgs {
    /// The form asked for, if any (`--wide` is `-o wide`).
    pub fn format(&self) -> Option<OutputFormat> {
        if self.wide {
            Some(OutputFormat::Wide)
        } else {
            self.output
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// A table; on a terminal, fitted to its width (empty columns left out,
    /// free text cut short)
    Table,
    /// Every column, whole
    Wide,
    /// The JSON document (as --json)
    Json,
    /// One id or name a line, for xargs
    Name,
}

/// `--dry-run` on the commands that run plugins.
#[derive(Debug, Clone, Args)]
pub struct DryRunArgs {
    /// Print each plugin call instead of making it; change nothing
    ///
    /// Each call's argv, environment and deadline, and an `env -i` line to reproduce it
    #[arg(long)]
    pub dry_run: bool,
}

/// Deadline and grace for commands that run plugins.
#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// Deadline for each plugin call
    ///
    /// [default: the operation's limit from the protocol]
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub timeout: Option<Duration>,

    /// Grace from SIGTERM to SIGKILL
    #[arg(
        long,
        value_name = "DURATION",
        default_value = "2s",
        env = "PLUGCTL_GRACE",
        hide_env_values = true,
        value_parser = parse_duration
    )]
    pub grace: Duration,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Discover and fingerprint plugins concurrently, and record the results
    Fingerprint(FingerprintArgs),

    /// Plugins in the registry: list, show, and the dynamic registry
    #[command(subcommand)]
    Plugin(PluginCommand),

    /// Create, delete, list and restore dynamic host volumes
    #[command(subcommand)]
    Volume(VolumeCommand),

    /// Fetch secrets through a secrets plugin
    #[command(subcommand)]
    Secret(SecretCommand),

    /// Check a plugin directory before it reaches a Nomad node
    Validate(ValidateArgs),

    /// Run the conformance suite against one plugin
    Test(TestArgs),

    /// The registry's event log
    Events(EventsArgs),

    /// Is this node fine? One screen; exit 1 when something needs attention
    ///
    /// Where its layout came from, plugin health, volumes to repair, the last fingerprint and
    /// textfile, the registry and its journal, what the kernel offers a sandbox; what needs
    /// attention is said first
    Status(StatusArgs),

    /// Pin each plugin file in the lock file, or check the disk against it
    ///
    /// Each file's sha256, size, interpreter and version
    Pin(PinArgs),

    /// Run calls recorded with --record again, and compare
    ///
    /// Against today's plugins; exit 1 on any difference
    Replay(ReplayArgs),

    /// The registry's state in the Prometheus text format
    Metrics(MetricsArgs),

    /// Scaffold a new plugin that passes validate and test
    Init(InitArgs),

    /// Print a shell completion script
    Completions(CompletionsArgs),
}

impl Command {
    /// The `-o` of a command that lists or shows, if it has one.
    pub fn output(&self) -> Option<&OutputArgs> {
        match self {
            Command::Fingerprint(a) => Some(&a.output),
            Command::Plugin(PluginCommand::List { output, .. })
            | Command::Plugin(PluginCommand::Show { output, .. })
            | Command::Volume(VolumeCommand::Show { output, .. }) => Some(output),
            Command::Volume(VolumeCommand::List(a)) => Some(&a.output),
            Command::Volume(VolumeCommand::Create(a)) => Some(&a.output),
            Command::Events(a) => Some(&a.output),
            Command::Status(a) => Some(&a.output),
            _ => None,
        }
    }
}

#[derive(Debug, Args)]
pub struct FingerprintArgs {
    /// Only this family (host-volume, secrets, or another directory name)
    #[arg(long = "type", value_name = "TYPE")]
    pub family: Option<String>,

    /// Only these plugins (all when none are given)
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,

    #[command(flatten)]
    pub run: RunArgs,

    #[command(flatten)]
    pub plan: DryRunArgs,

    /// Then write the metrics to DIR/plugctl.prom
    ///
    /// One timer does both; see `plugctl metrics`
    #[arg(long, value_name = "DIR")]
    pub textfile: Option<PathBuf>,

    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct MetricsArgs {
    /// Write DIR/plugctl.prom instead of printing
    ///
    /// Atomically, for node_exporter's textfile collector
    #[arg(long, value_name = "DIR")]
    pub textfile: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A directory of case files written by --record
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,

    /// A secrets fetch's own variable (repeatable)
    ///
    /// A case file only names the variables a fetch was given; replay takes their values from
    /// here, never from the case
    #[arg(long = "env", value_name = "K=V", value_parser = KeyValueParser)]
    pub env: Vec<(String, String)>,

    /// Report format: human, json or junit
    ///
    /// [default: human, or json with --json]
    #[arg(long, value_name = "FORMAT", hide_possible_values = true)]
    pub format: Option<ReportFormat>,
}

#[derive(Debug, Args)]
pub struct PinArgs {
    /// Only this family (host-volume, secrets, or another directory name)
    #[arg(long = "type", value_name = "TYPE")]
    pub family: Option<String>,

    /// Only these plugins (all when none are given)
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,

    /// Compare the plugin files with the lock file instead
    ///
    /// Exit 1 on any difference
    #[arg(long)]
    pub check: bool,
}

#[derive(Debug, Subcommand)]
pub enum PluginCommand {
    /// Plugins in the registry, each as its current instance
    #[command(visible_alias = "ls")]
    List {
        /// Only plugins of this type (host-volume, secrets, ...)
        #[arg(long = "type", value_name = "TYPE")]
        family: Option<String>,
        /// Only plugins that are not healthy now
        ///
        /// Failed, gone, changed on disk, or a socket that does not accept
        #[arg(long)]
        unhealthy: bool,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Every instance of one plugin, most recent first
    #[command(override_usage = "plugctl plugin show [OPTIONS] [TYPE] <NAME>")]
    Show {
        /// The plugin's type; alone, its name (when one type has it)
        ///
        /// host-volume, secrets, ...; given alone, the plugin's name, when only one type has a
        /// plugin of that name
        #[arg(value_name = "TYPE")]
        first: String,
        /// The plugin's name
        #[arg(value_name = "NAME")]
        second: Option<String>,
        /// Only the instance of this allocation
        #[arg(long, value_name = "ID")]
        alloc_id: Option<String>,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Record a plugin instance that runs as a long-lived task
    // Its own --version (the plugin's) would clash with the propagated
    // plugctl --version, which clap rejects when it builds the command.
    #[command(disable_version_flag = true)]
    Register(RegisterArgs),
    /// Remove a plugin instance
    Deregister {
        /// The plugin's type (csi-node, csi-controller, ...)
        #[arg(long = "type", value_name = "TYPE")]
        family: String,
        /// The plugin's name
        #[arg(long)]
        name: String,
        /// The allocation whose instance goes
        #[arg(long, value_name = "ID")]
        alloc_id: String,
    },
    /// Forget plugins removed from their directory on purpose
    ///
    /// So that their health is no longer reported
    Forget {
        /// The plugins' type (host-volume, secrets, ...)
        #[arg(value_name = "TYPE")]
        family: String,
        /// The plugins to forget, each gone from its directory
        #[arg(value_name = "NAME", required = true)]
        names: Vec<String>,
    },
    /// Wait until a plugin is registered (and healthy)
    ///
    /// With --healthy, until its socket accepts a connection too
    Wait {
        /// The plugin's type (csi-node, secrets, ...)
        #[arg(value_name = "TYPE")]
        family: String,
        /// The plugin's name
        name: String,
        /// Give up after this long (exit 4)
        #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = parse_duration)]
        timeout: Duration,
        /// Also wait until its socket accepts a connection
        #[arg(long)]
        healthy: bool,
    },
}

#[derive(Debug, Args)]
pub struct RegisterArgs {
    /// The plugin's type (csi-node, csi-controller, ...)
    #[arg(long = "type", value_name = "TYPE")]
    pub family: String,
    /// The plugin's name
    #[arg(long)]
    pub name: String,
    /// The allocation the plugin's task runs in
    #[arg(long, value_name = "ID")]
    pub alloc_id: String,
    /// The plugin's control socket
    #[arg(long, value_name = "PATH")]
    pub socket: PathBuf,
    /// The plugin's version
    #[arg(long, value_name = "VERSION")]
    pub version: Option<String>,
    /// Free-form options stored with the instance
    #[arg(long = "option", value_name = "K=V", value_parser = KeyValueParser)]
    pub options: Vec<(String, String)>,
}

#[derive(Debug, Subcommand)]
pub enum VolumeCommand {
    /// Run the plugin's create and record the volume
    // Two forms: the flags, or Nomad's specification instead of them.
    #[command(
        override_usage = "plugctl volume create [OPTIONS] --plugin <NAME> --name <NAME>\n       \
                          plugctl volume create [OPTIONS] -f <FILE>"
    )]
    Create(VolumeCreateArgs),
    /// Run the plugin's delete, then forget the volume
    ///
    /// The plugin is given the path recorded at create
    #[command(visible_alias = "rm")]
    Delete(VolumeDeleteArgs),
    /// Drop a volume's record without running its plugin
    ///
    /// What is on its path stays
    Forget {
        #[command(flatten)]
        volume: VolumeSelector,
    },
    /// Volumes in the registry
    #[command(visible_alias = "ls")]
    List(VolumeListArgs),
    /// One volume, by id, id prefix or name
    Show {
        #[command(flatten)]
        volume: VolumeSelector,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Run create again for every volume, as a Nomad client does
    ///
    /// As a client does when it starts; a volume given back its path and size is unchanged
    Restore {
        #[command(flatten)]
        run: RunArgs,
        #[command(flatten)]
        plan: DryRunArgs,
    },
    /// Finish or roll back volumes left pending or deleting
    ///
    /// By an interrupted plugctl
    Repair {
        #[command(flatten)]
        run: RunArgs,
    },
    /// Hold the registry against the disk; exit 1 on any finding
    ///
    /// Orphan entries in the volumes directory, vanished paths, pending operations, bytes on
    /// disk
    Audit {
        /// Remove orphan entries of the volumes directory (with --yes)
        #[arg(long)]
        prune_orphans: bool,
        /// Confirm --prune-orphans
        #[arg(long, requires = "prune_orphans")]
        yes: bool,
    },
}

#[derive(Debug, Args)]
pub struct VolumeListArgs {
    /// Only volumes of this plugin
    #[arg(long, value_name = "NAME")]
    pub plugin: Option<String>,
    /// Only volumes in this namespace [default: every namespace]
    #[arg(long, value_name = "NS")]
    pub namespace: Option<String>,
    /// Only volumes in this state: pending, ready or deleting
    ///
    /// Repeatable, or comma-separated
    #[arg(
        long,
        value_name = "STATE",
        value_delimiter = ',',
        hide_possible_values = true
    )]
    pub state: Vec<VolumeStateArg>,
    /// Only volumes whose name matches (* ? [abc])
    ///
    /// Matched against the whole name: * any text, ? one character, [abc] one of them, [!abc]
    /// none of them; quote it from the shell
    #[arg(long, value_name = "GLOB")]
    pub name: Option<String>,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// A volume's state, as `volume list --state` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum VolumeStateArg {
    /// Being created, or a create that was interrupted or failed
    Pending,
    /// Created
    Ready,
    /// Being deleted, or a delete that was interrupted
    Deleting,
}

#[derive(Debug, Args)]
pub struct VolumeCreateArgs {
    /// The volume's specification, as `nomad volume create FILE` takes it
    ///
    /// HCL or JSON, type = "host": name, namespace, id, plugin_id, capacity_min, capacity_max,
    /// parameters; a node_pool or node_id must be this node's. What a node cannot honour
    /// (constraint, capability) is said on stderr. Instead of the flags below
    #[arg(
        short = 'f',
        long = "file",
        value_name = "FILE",
        conflicts_with_all = ["plugin", "name", "id", "namespace", "capacity_min", "capacity_max", "params"]
    )]
    pub file: Option<PathBuf>,
    /// Host-volume plugin name (mkdir is built in)
    #[arg(long, value_name = "NAME", required_unless_present = "file")]
    pub plugin: Option<String>,
    /// Volume name
    ///
    /// Any non-empty string; plugctl never builds a path from it
    #[arg(long, required_unless_present = "file")]
    pub name: Option<String>,
    /// Volume id, a UUID [default: a new one]
    ///
    /// In either case, stored lower-case
    #[arg(long, value_name = "UUID")]
    pub id: Option<String>,
    /// The volume's namespace
    #[arg(long, value_name = "NS", default_value = "default")]
    pub namespace: String,
    /// Minimum capacity, e.g. 50MB (10^6) or 50MiB (2^20)
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub capacity_min: Option<u64>,
    /// Maximum capacity, e.g. 1GiB
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub capacity_max: Option<u64>,
    /// Plugin parameter (repeatable)
    #[arg(long = "param", value_name = "K=V", value_parser = KeyValueParser)]
    pub params: Vec<(String, String)>,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub plan: DryRunArgs,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct VolumeDeleteArgs {
    #[command(flatten)]
    pub volume: VolumeSelector,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub plan: DryRunArgs,
}

/// How `volume show` and `volume delete` name their volume, as `nomad`
/// (an id prefix) and `kubectl` (a name) do.
#[derive(Debug, Args)]
pub struct VolumeSelector {
    /// The volume: its id, an id prefix, or its name
    ///
    /// Its id in any case, a unique prefix of its id (4 characters or more), or its name in
    /// --namespace
    #[arg(
        value_name = "VOLUME",
        required_unless_present_any = ["id", "name"],
        conflicts_with_all = ["id", "name"]
    )]
    pub volume: Option<String>,
    /// The volume by id or id prefix only (never a name)
    #[arg(long, value_name = "ID", conflicts_with = "name")]
    pub id: Option<String>,
    /// The volume by name only (in --namespace)
    #[arg(long)]
    pub name: Option<String>,
    /// The namespace a name is looked up in
    ///
    /// An id is unique in all namespaces
    #[arg(long, value_name = "NS", default_value = "default")]
    pub namespace: String,
}

impl VolumeSelector {
    /// What the volume was named by.
    pub fn volume_ref(&self) -> plugctl_core::registry::find::VolumeRef<'_> {
        use plugctl_core::registry::find::VolumeRef;
        match (&self.volume, &self.id, &self.name) {
            (Some(v), _, _) => VolumeRef::Any(v),
            (None, Some(id), _) => VolumeRef::Id(id),
            (None, None, Some(name)) => VolumeRef::Name(name),
            // clap requires one of the three.
            (None, None, None) => VolumeRef::Any(""),
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum SecretCommand {
    /// Run a secrets plugin's fetch and print the result
    Fetch(SecretFetchArgs),
}

#[derive(Debug, Args)]
pub struct SecretFetchArgs {
    /// Secrets plugin name
    pub provider: String,
    /// Secret path, passed verbatim (may start with -)
    #[arg(allow_hyphen_values = true)]
    pub path: String,
    /// Environment for the plugin (repeatable; a later key wins)
    #[arg(long = "env", value_name = "K=V", value_parser = KeyValueParser)]
    pub env: Vec<(String, String)>,
    /// Read K=V lines for the plugin's environment from a file
    #[arg(long, value_name = "FILE")]
    pub env_file: Option<PathBuf>,
    /// Sets NOMAD_JOB_ID, as Nomad 1.11.1+ does
    #[arg(long, value_name = "ID")]
    pub job_id: Option<String>,
    /// Sets NOMAD_NAMESPACE, as Nomad 1.11.1+ does
    #[arg(long, value_name = "NS")]
    pub namespace: Option<String>,
    /// Output format: kv, env or json
    ///
    /// kv: KEY=VALUE lines; env: export lines, safe for eval in sh; json: the document
    /// [default: kv, or json with --json]
    #[arg(long, value_name = "FORMAT", hide_possible_values = true)]
    pub format: Option<SecretFormat>,
    /// Print this code-running key in kv and env output (repeatable)
    ///
    /// A key that changes how a shell or the programs it starts run code (PATH, LD_PRELOAD,
    /// ...) is refused unless named here, exactly as spelled
    #[arg(long, value_name = "KEY")]
    pub allow_key: Vec<String>,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub plan: DryRunArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SecretFormat {
    /// KEY=VALUE lines, for EnvironmentFile=, docker --env-file and --env-file
    Kv,
    /// export KEY='VALUE' lines, safe for eval in sh
    Env,
    /// the JSON document
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Human,
    Json,
    Junit,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Plugin directory to check [default: --plugin-dir]
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Report format: human, json or junit
    ///
    /// [default: human, or json with --json]
    #[arg(long, value_name = "FORMAT", hide_possible_values = true)]
    pub format: Option<ReportFormat>,
    /// Fail on warnings too
    #[arg(long)]
    pub strict: bool,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args)]
pub struct TestArgs {
    /// The plugin's type: host-volume or secrets
    #[arg(value_name = "TYPE")]
    pub family: String,
    /// The plugin's name, in the type's directory
    pub name: String,
    /// Report format: human, json or junit
    ///
    /// [default: human, or json with --json]
    #[arg(long, value_name = "FORMAT", hide_possible_values = true)]
    pub format: Option<ReportFormat>,
    /// Leave the scratch directory and what was created in it
    #[arg(long)]
    pub keep: bool,
    /// Secrets: a path the plugin should be able to fetch
    #[arg(long, value_name = "PATH", allow_hyphen_values = true)]
    pub path: Option<String>,
    /// Secrets: environment for fetch (repeatable)
    #[arg(long = "env", value_name = "K=V", value_parser = KeyValueParser)]
    pub env: Vec<(String, String)>,
    /// Host volumes: the largest capacity a check asks for
    ///
    /// A real plugin may allocate what it is asked
    #[arg(long, value_name = "SIZE", default_value = "64MiB", value_parser = parse_size)]
    pub max_bytes: u64,
    /// Host volumes: also ask for 1 EiB, to be refused
    ///
    /// Only for a plugin that checks sizes before allocating
    #[arg(long)]
    pub check_absurd_capacity: bool,
    /// Fail on warnings too
    ///
    /// Matters of style, such as a create that reports no size
    #[arg(long)]
    pub strict: bool,
    /// Print the smallest sandbox policy under which the suite passes
    ///
    /// Runs the suite under --sandbox strict; for each check that fails
    /// there but passes under none, finds the layer that stopped it by
    /// relaxing one at a time, and prints the smallest policy that passes
    #[arg(long)]
    pub propose_policy: bool,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args)]
pub struct EventsArgs {
    /// Only events of this plugin family
    #[arg(long = "type", value_name = "TYPE")]
    pub family: Option<String>,
    /// Only events of this kind (fingerprint, volume_create, ...)
    ///
    /// fingerprint, gone, forgotten, register, deregister, volume_create, volume_update,
    /// volume_delete, volume_forget, secret_fetch; repeatable, or comma-separated
    #[arg(long, value_name = "KIND", value_delimiter = ',')]
    pub kind: Vec<String>,
    /// Only events after this: a sequence number, a time, or 1h
    ///
    /// A sequence number (42), a time in UTC (2026-11-27T10:00:00Z) or how long ago (30m, 1h,
    /// 2d)
    #[arg(long, value_name = "WHEN", value_parser = parse_when)]
    pub since: Option<When>,
    /// Only events up to this: a sequence number, a time, or 1h
    ///
    /// A sequence number (42), a time in UTC (2026-11-27T10:00:00Z) or how long ago (30m, 1h,
    /// 2d)
    #[arg(long, value_name = "WHEN", value_parser = parse_when, conflicts_with = "follow")]
    pub until: Option<When>,
    /// Only the last N events (of those the other options keep)
    #[arg(long, value_name = "N")]
    pub tail: Option<usize>,
    /// Keep printing new events until interrupted
    #[arg(long)]
    pub follow: bool,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// node_exporter's textfile directory
    ///
    /// Its plugctl.prom is looked at [default: /var/lib/prometheus/node-exporter as root, when
    /// it exists]
    #[arg(
        long,
        value_name = "DIR",
        env = "PLUGCTL_TEXTFILE_DIR",
        hide_env_values = true
    )]
    pub textfile: Option<PathBuf>,
    /// Older than this, a fingerprint or textfile is stale
    #[arg(long, value_name = "DURATION", default_value = "15m", value_parser = parse_duration)]
    pub stale_after: Duration,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// Family: host-volume or secrets
    #[arg(value_name = "TYPE")]
    pub family: String,
    /// The new plugin's name (its file's)
    pub name: String,
    /// Where to create the plugin [default: ./<TYPE>]
    ///
    /// The current directory as a plugin directory; never a node's plugin directory unless
    /// named
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// The language to write it in: sh or python
    #[arg(
        long,
        value_name = "LANG",
        default_value = "sh",
        hide_possible_values = true
    )]
    pub lang: InitLang,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InitLang {
    Sh,
    Python,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// bash, zsh, fish, elvish or powershell
    #[arg(hide_possible_values = true)]
    pub shell: clap_complete::Shell,
}

#[cfg(test)]
mod tests {
    /// Every option and argument of every command, as `(command path, id,
    /// short help)`: the help clap shows with `-h`.
    fn each_arg() -> Vec<(String, String, Option<String>)> {
        fn walk(cmd: &clap::Command, at: &str, out: &mut Vec<(String, String, Option<String>)>) {
            for a in cmd.get_arguments() {
                if a.is_hide_set() || a.is_global_set() && !at.is_empty() {
                    continue;
                }
                out.push((
                    at.to_string(),
                    a.get_id().to_string(),
                    a.get_help().map(ToString::to_string),
                ));
            }
            for sub in cmd.get_subcommands() {
                let path = format!("{at} {}", sub.get_name()).trim().to_string();
                walk(sub, &path, out);
            }
        }
        let mut tree = super::command();
        tree.build();
        let mut out = Vec::new();
        walk(&tree, "", &mut out);
        out
    }

    #[test]
    fn every_option_and_argument_is_described() {
        let missing: Vec<String> = each_arg()
            .into_iter()
            .filter(|(_, _, help)| help.as_deref().is_none_or(|h| h.trim().is_empty()))
            .map(|(at, id, _)| format!("plugctl {at}: {id}"))
            .collect();
        assert!(
            missing.is_empty(),
            "no description:\n{}",
            missing.join("\n")
        );
    }
}

#[cfg(test)]
mod short_help {
    /// Every command's `-h` as clap writes it on a terminal 100 columns
    /// wide (plugctl's widest help), with its path.
    fn every_short_help() -> Vec<(String, String)> {
        fn walk(cmd: &mut clap::Command, at: &str, out: &mut Vec<(String, String)>) {
            let mut c = cmd.clone().term_width(100);
            out.push((at.to_string(), c.render_help().to_string()));
            for sub in cmd.get_subcommands_mut() {
                let path = format!("{at} {}", sub.get_name()).trim().to_string();
                walk(sub, &path, out);
            }
        }
        let mut tree = super::command();
        tree.build();
        let mut out = Vec::new();
        walk(&mut tree, "", &mut out);
        out
    }

    #[test]
    fn short_help_is_one_line_an_option_and_leaves_out_the_rare_global_options() {
        for (at, help) in every_short_help() {
            let mut section = "";
            for line in help.lines() {
                if !line.starts_with(' ') && line.ends_with(':') {
                    section = line;
                    continue;
                }
                let listed = matches!(
                    section,
                    "Options:" | "Arguments:" | "Commands:" | "Global options:"
                );
                // A line of a list that starts past the name column
                // continues the line above: a description that wrapped.
                let indent = line.len() - line.trim_start().len();
                assert!(
                    !(listed && indent > 6 && !line.trim().is_empty()),
                    "plugctl {at} -h: a description wraps: {line:?}\n{help}"
                );
            }
            for rare in [
                "--nomad-config",
                "--lock-timeout",
                "--record-env",
                "--concurrency",
            ] {
                assert!(!help.contains(rare), "plugctl {at} -h shows {rare}\n{help}");
            }
        }
    }
}

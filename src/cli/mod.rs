//! The command line, as clap types and nothing else. Values are parsed here
//! (durations, sizes, K=V pairs, in `values`) so a bad value is a usage
//! error (exit 2) before anything runs; defaults that depend on the
//! machine are resolved in [`crate::settings`]. [`parse`] reads a command
//! line into a [`Cli`].
//!
//! The doc comments below are clap's help text, shown as written: a
//! `<plugin-dir>` in them is a placeholder for people, not an HTML tag.
#![allow(rustdoc::invalid_html_tags)]

mod parse;
mod values;

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

pub use parse::{FromEnv, command, parse};
pub use values::{KeyValueParser, parse_duration, parse_key_value, parse_size};

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
    /// The Nomad agent's configuration, a file or a directory (*.hcl and
    /// *.json, in order, the later winning), read as `nomad agent -config`
    /// reads it for data_dir and the client's common_plugin_dir,
    /// host_volume_plugin_dir and host_volumes_dir; repeatable; `none`
    /// reads none [default: /etc/nomad.d as root when it exists]
    #[arg(long, global = true, env = "PLUGCTL_NOMAD_CONFIG", value_name = "PATH")]
    pub nomad_config: Vec<PathBuf>,

    /// Plugin directory: one subdirectory per family (secrets/, host-volume/, ...)
    /// [default: the agent config's common_plugin_dir, or <data_dir>/common_plugins
    /// (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]
    #[arg(long, global = true, env = "PLUGCTL_PLUGIN_DIR", value_name = "DIR")]
    pub plugin_dir: Option<PathBuf>,

    /// Host-volume plugin directory [default: the agent config's
    /// host_volume_plugin_dir, or <data_dir>/host_volume_plugins
    /// (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume
    /// when --plugin-dir is given and no agent config is read]
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_HOST_VOLUME_PLUGIN_DIR",
        value_name = "DIR"
    )]
    pub host_volume_plugin_dir: Option<PathBuf>,

    /// Where volumes live [default: the agent config's host_volumes_dir, or
    /// <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else
    /// $XDG_STATE_HOME/plugctl/volumes]
    #[arg(long, global = true, env = "PLUGCTL_VOLUMES_DIR", value_name = "DIR")]
    pub volumes_dir: Option<PathBuf>,

    /// Registry file [default: /var/lib/plugctl/registry.json as root,
    /// else $XDG_STATE_HOME/plugctl/registry.json]
    #[arg(long, global = true, env = "PLUGCTL_REGISTRY", value_name = "FILE")]
    pub registry: Option<PathBuf>,

    /// Node id passed to plugins [default: the Nomad agent's (<state_dir>/client-id), else a
    /// stable id plugctl keeps in the registry]
    #[arg(long, global = true, env = "PLUGCTL_NODE_ID", value_name = "ID")]
    pub node_id: Option<String>,

    /// Node pool passed to plugins [default: the agent configuration's client.node_pool, else
    /// default]
    #[arg(long, global = true, env = "PLUGCTL_NODE_POOL", value_name = "NAME")]
    pub node_pool: Option<String>,

    /// Print exactly one JSON document on stdout (or one object per line when streaming)
    #[arg(long, global = true)]
    pub json: bool,

    /// How many plugins may run at once
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_CONCURRENCY",
        value_name = "N",
        default_value_t = 64,
        value_parser = clap::value_parser!(u16).range(1..=1024)
    )]
    pub concurrency: u16,

    /// How long to wait for the registry lock held by another plugctl
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_LOCK_TIMEOUT",
        value_name = "DURATION",
        default_value = "10s",
        value_parser = parse_duration
    )]
    pub lock_timeout: Duration,

    /// When to colour output (never when NO_COLOR is set)
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_COLOR",
        value_name = "WHEN",
        default_value = "auto"
    )]
    pub color: ColorChoice,

    /// Print less on stderr (warnings and progress off)
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,

    /// Print more on stderr (-v: plugin stderr of failures, -vv: every call)
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,

    /// Use a registry, and run plugins, that group or others can write or
    /// another user owns (lab machines only; see docs/security.md)
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_ALLOW_INSECURE_PATHS",
        value_parser = clap::builder::BoolishValueParser::new(),
        action = clap::ArgAction::SetTrue
    )]
    pub allow_insecure_paths: bool,

    /// Refuse a registry file larger than this before reading it
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_REGISTRY_MAX_SIZE",
        value_name = "SIZE",
        default_value = "1GiB",
        value_parser = parse_size
    )]
    pub registry_max_size: u64,

    /// Behave as this Nomad release does: deadlines, the variables a fetch
    /// gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2,
    /// 2.0.1, ...); `validate` takes a comma-separated list and prints a
    /// matrix [default: 2.0.5, the newest release covered]
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_NOMAD_VERSION",
        value_name = "VERSION",
        value_delimiter = ','
    )]
    // Strings, read as releases in `settings`: a bad PLUGCTL_NOMAD_VERSION
    // must not be an error when the flag overrides it, and clap parses a
    // global option's variable even then.
    pub nomad_version: Vec<String>,

    /// The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]
    #[arg(long, global = true, env = "PLUGCTL_LOCKFILE", value_name = "FILE")]
    pub lockfile: Option<PathBuf>,

    /// Save every plugin call (argv, env, output, status, plugin sha256) as
    /// a case file in DIR, for `plugctl replay`
    #[arg(long, global = true, env = "PLUGCTL_RECORD", value_name = "DIR")]
    pub record: Option<PathBuf>,

    /// With --record: keep the values of --env/--env-file in the case files
    /// (by default only their names are kept: they may configure a secret)
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_RECORD_ENV",
        value_parser = clap::builder::BoolishValueParser::new(),
        action = clap::ArgAction::SetTrue
    )]
    pub record_env: bool,

    /// Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)
    #[arg(
        long,
        global = true,
        env = "PLUGCTL_LOCKED",
        value_parser = clap::builder::BoolishValueParser::new(),
        action = clap::ArgAction::SetTrue
    )]
    pub locked: bool,

    /// Which of these took their value from their `PLUGCTL_*` variable, as
    /// clap saw it ([`parse`]): `-v` and messages name the
    /// flag or the variable a setting came from.
    #[arg(skip)]
    pub from_env: FromEnv,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// `--dry-run` on the commands that run plugins.
#[derive(Debug, Clone, Args)]
pub struct DryRunArgs {
    /// Print each plugin call (argv, environment, deadline, an `env -i`
    /// line to reproduce it) instead of making it; change nothing
    #[arg(long)]
    pub dry_run: bool,
}

/// Deadline and grace for commands that run plugins.
#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// Deadline for each plugin call [default: the operation's limit from the protocol]
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub timeout: Option<Duration>,

    /// Time between SIGTERM and SIGKILL at the deadline
    #[arg(
        long,
        value_name = "DURATION",
        default_value = "2s",
        env = "PLUGCTL_GRACE",
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

    /// Check a plugin directory for problems before it reaches a Nomad node
    Validate(ValidateArgs),

    /// Run the conformance suite against one plugin
    Test(TestArgs),

    /// The registry's event log
    Events(EventsArgs),

    /// Pin each plugin file (sha256, size, interpreter, version) in the lock
    /// file, or check the disk against it
    Pin(PinArgs),

    /// Run calls recorded with --record DIR again against today's plugins
    /// and compare; exit 1 on any difference
    Replay(ReplayArgs),

    /// The registry's state in the Prometheus text format
    Metrics(MetricsArgs),

    /// Scaffold a new plugin that passes validate and test
    Init(InitArgs),

    /// Print a shell completion script
    Completions(CompletionsArgs),
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

    /// After recording, write the metrics to DIR/plugctl.prom (one timer
    /// does both; see `plugctl metrics`)
    #[arg(long, value_name = "DIR")]
    pub textfile: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct MetricsArgs {
    /// Write DIR/plugctl.prom atomically (node_exporter's textfile
    /// collector) instead of printing
    #[arg(long, value_name = "DIR")]
    pub textfile: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A directory of case files written by --record
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,

    /// A secrets fetch's own variable (repeatable): a case file only names
    /// the variables a fetch was given, and replay takes their values from
    /// here, never from the case
    #[arg(long = "env", value_name = "K=V", value_parser = KeyValueParser)]
    pub env: Vec<(String, String)>,

    /// Report format [default: human, or json with --json]
    #[arg(long, value_name = "FORMAT")]
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

    /// Compare the plugin files with the lock file instead of writing it;
    /// exit 1 on any difference
    #[arg(long)]
    pub check: bool,
}

#[derive(Debug, Subcommand)]
pub enum PluginCommand {
    /// Plugins in the registry, with the current (most recent) instance of each
    List {
        #[arg(long = "type", value_name = "TYPE")]
        family: Option<String>,
    },
    /// Every instance of one plugin, most recent first
    Show {
        #[arg(value_name = "TYPE")]
        family: String,
        name: String,
        /// Only the instance of this allocation
        #[arg(long, value_name = "ID")]
        alloc_id: Option<String>,
    },
    /// Record a plugin instance that runs as a long-lived task
    // Its own --version (the plugin's) would clash with the propagated
    // plugctl --version, which clap rejects when it builds the command.
    #[command(disable_version_flag = true)]
    Register(RegisterArgs),
    /// Remove a plugin instance
    Deregister {
        #[arg(long = "type", value_name = "TYPE")]
        family: String,
        #[arg(long)]
        name: String,
        #[arg(long, value_name = "ID")]
        alloc_id: String,
    },
    /// Forget plugins that are no longer in their directory (removed on
    /// purpose), so that their health is no longer reported
    Forget {
        #[arg(value_name = "TYPE")]
        family: String,
        #[arg(value_name = "NAME", required = true)]
        names: Vec<String>,
    },
    /// Wait until a plugin is registered (and, with --healthy, its socket accepts)
    Wait {
        #[arg(value_name = "TYPE")]
        family: String,
        name: String,
        /// Give up after this long (exit 4)
        #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = parse_duration)]
        timeout: Duration,
        /// Also wait until the current instance's socket accepts a connection
        #[arg(long)]
        healthy: bool,
    },
}

#[derive(Debug, Args)]
pub struct RegisterArgs {
    #[arg(long = "type", value_name = "TYPE")]
    pub family: String,
    #[arg(long)]
    pub name: String,
    #[arg(long, value_name = "ID")]
    pub alloc_id: String,
    /// The plugin's control socket
    #[arg(long, value_name = "PATH")]
    pub socket: PathBuf,
    #[arg(long, value_name = "VERSION")]
    pub version: Option<String>,
    /// Free-form options stored with the instance
    #[arg(long = "option", value_name = "K=V", value_parser = KeyValueParser)]
    pub options: Vec<(String, String)>,
}

#[derive(Debug, Subcommand)]
pub enum VolumeCommand {
    /// Run the plugin's create and record the volume
    Create(VolumeCreateArgs),
    /// Run the plugin's delete with the recorded path, then forget the volume
    Delete(VolumeDeleteArgs),
    /// Drop a volume's record without running its plugin; what is on its
    /// path stays
    Forget {
        #[command(flatten)]
        volume: VolumeSelector,
    },
    /// Volumes in the registry
    List {
        /// Only volumes of this plugin
        #[arg(long, value_name = "NAME")]
        plugin: Option<String>,
        /// Only volumes in this namespace [default: every namespace]
        #[arg(long, value_name = "NS")]
        namespace: Option<String>,
    },
    /// One volume, by id, id prefix or name
    Show {
        #[command(flatten)]
        volume: VolumeSelector,
    },
    /// Re-run create for every recorded volume, as a Nomad client does at start
    Restore {
        #[command(flatten)]
        run: RunArgs,
        #[command(flatten)]
        plan: DryRunArgs,
    },
    /// Finish or roll back volumes left pending or deleting by an interrupted plugctl
    Repair {
        #[command(flatten)]
        run: RunArgs,
    },
    /// Hold the registry against the disk: orphan entries in the volumes
    /// directory, vanished paths, pending operations, bytes on disk;
    /// exit 1 when anything is found
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
pub struct VolumeCreateArgs {
    /// Host-volume plugin name (mkdir is built in)
    #[arg(long, value_name = "NAME")]
    pub plugin: String,
    /// Volume name (any non-empty string; never used by plugctl to build a path)
    #[arg(long)]
    pub name: String,
    /// Volume id, a UUID in either case (stored lower-case) [default: a new one]
    #[arg(long, value_name = "UUID")]
    pub id: Option<String>,
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
    /// The volume: its id (any case), a unique prefix of its id (4
    /// characters or more), or its name in --namespace
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
    /// The namespace a name is looked up in (an id is unique in all)
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
    /// Secret path, passed verbatim as one argument (may start with -)
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
    /// Output format [default: kv, or json with --json]
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<SecretFormat>,
    /// Print this key in kv and env output although it changes how a shell or the programs it starts run code (repeatable; exactly as spelled)
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
    /// Report format [default: human, or json with --json]
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<ReportFormat>,
    /// Fail on warnings too
    #[arg(long)]
    pub strict: bool,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args)]
pub struct TestArgs {
    #[arg(value_name = "TYPE")]
    pub family: String,
    pub name: String,
    /// Report format [default: human, or json with --json]
    #[arg(long, value_name = "FORMAT")]
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
    /// Host volumes: the largest capacity any check asks for (a real plugin
    /// may allocate what it is asked)
    #[arg(long, value_name = "SIZE", default_value = "64MiB", value_parser = parse_size)]
    pub max_bytes: u64,
    /// Host volumes: also ask for 1 EiB to see the plugin refuse it — only
    /// for a plugin that checks sizes before allocating
    #[arg(long)]
    pub check_absurd_capacity: bool,
    /// Fail on warnings too (matters of style, such as a create that
    /// reports no size)
    #[arg(long)]
    pub strict: bool,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args)]
pub struct EventsArgs {
    /// Only events of this plugin family
    #[arg(long = "type", value_name = "TYPE")]
    pub family: Option<String>,
    /// Only events after this sequence number
    #[arg(long, value_name = "SEQ", default_value_t = 0)]
    pub since: u64,
    /// Keep printing new events until interrupted
    #[arg(long)]
    pub follow: bool,
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// Family: host-volume or secrets
    #[arg(value_name = "TYPE")]
    pub family: String,
    pub name: String,
    /// Where to create the plugin [default: ./<TYPE>, the current directory
    /// as a plugin directory; never a node's plugin directory unless named]
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    #[arg(long, value_name = "LANG", default_value = "sh")]
    pub lang: InitLang,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InitLang {
    Sh,
    Python,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    pub shell: clap_complete::Shell,
}

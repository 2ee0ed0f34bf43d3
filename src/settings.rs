//! Flags, environment variables and defaults, resolved once. clap has
//! already applied "flag beats variable"; this fills in the defaults that
//! depend on who runs plugctl (root or not) and makes every path absolute,
//! because plugins receive these paths and run with their own notion of cwd.

use std::fmt;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::agent_account::AgentAccount;
use crate::agent_config::{self, AgentConfig, Key, Place};
use crate::cli::{ColorChoice, GlobalArgs};
use crate::{Error, Result};
use plugctl_core::nomad::{Profile, Release};

/// What plugctl will use, after defaults. Library users can build it directly.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Where each directory below came from (`-v` says it; a directory
    /// named explicitly must exist).
    pub layout: Layout,
    pub plugin_dir: PathBuf,
    pub host_volume_plugin_dir: PathBuf,
    pub volumes_dir: PathBuf,
    pub registry: PathBuf,
    pub node_id: Option<String>,
    pub node_pool: String,
    pub json: bool,
    pub concurrency: usize,
    pub lock_timeout: Duration,
    pub color: bool,
    pub quiet: bool,
    pub verbose: u8,
    /// stderr is a terminal (progress lines only then)
    pub interactive: bool,
    /// `--allow-insecure-paths`: skip the owner and mode checks on the
    /// registry and on plugin files and their directories.
    pub allow_insecure_paths: bool,
    /// `--registry-max-size`: a larger registry file is refused unread.
    pub registry_max_size: u64,
    /// The lock file of `pin` and `--locked`.
    pub lockfile: PathBuf,
    /// `--record DIR`: where case files of plugin calls go.
    pub record: Option<PathBuf>,
    /// `--record-env`: case files keep `--env` values (else only names).
    pub record_env: bool,
    /// `--locked`: refuse plugins that are unpinned or differ from their pin.
    pub locked: bool,
    /// The Nomad release whose behaviour plugctl reproduces
    /// (`--nomad-version`; with a list, the newest of it).
    pub nomad: Profile,
    /// The releases `--nomad-version` named, oldest first, each once; empty
    /// when none was (the default release applies, and `validate` prints no
    /// matrix).
    pub nomad_releases: Vec<Release>,
}

/// The parts of the process environment that defaults depend on.
#[derive(Debug, Clone, Default)]
pub struct Host {
    pub is_root: bool,
    /// The effective uid (whose own files plugctl trusts too).
    pub euid: u32,
    pub cwd: PathBuf,
    pub home: Option<PathBuf>,
    pub xdg_state_home: Option<PathBuf>,
    pub xdg_config_home: Option<PathBuf>,
    pub no_color: bool,
    pub stdout_tty: bool,
    pub stderr_tty: bool,
    /// `PLUGCTL_NOMAD_VERSION` as set, to say which source a bad release
    /// came from.
    pub nomad_version_var: Option<String>,
    /// The agent configuration read when `--nomad-config` is not given:
    /// [`agent_config::DEFAULT_DIR`] as root when it exists.
    pub default_agent_config: Option<PathBuf>,
}

impl Host {
    pub fn current() -> Host {
        let non_empty = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
        Host {
            is_root: nix::unistd::geteuid().is_root(),
            euid: nix::unistd::geteuid().as_raw(),
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
            home: non_empty("HOME").map(PathBuf::from),
            xdg_state_home: non_empty("XDG_STATE_HOME").map(PathBuf::from),
            xdg_config_home: non_empty("XDG_CONFIG_HOME").map(PathBuf::from),
            no_color: non_empty("NO_COLOR").is_some(),
            stdout_tty: std::io::stdout().is_terminal(),
            stderr_tty: std::io::stderr().is_terminal(),
            nomad_version_var: std::env::var("PLUGCTL_NOMAD_VERSION").ok(),
            default_agent_config: Some(PathBuf::from(agent_config::DEFAULT_DIR))
                .filter(|d| nix::unistd::geteuid().is_root() && d.exists()),
        }
    }

    fn state_dir(&self) -> Result<PathBuf> {
        // XDG says a relative XDG_STATE_HOME is invalid and must be ignored.
        if let Some(x) = self.xdg_state_home.as_ref().filter(|p| p.is_absolute()) {
            return Ok(x.join("plugctl"));
        }
        match &self.home {
            Some(h) => Ok(self.absolute(h).join(".local/state/plugctl")),
            None => Err(Error::usage(
                "cannot find a state directory: neither XDG_STATE_HOME nor HOME is set; \
                 pass --registry and --volumes-dir (or PLUGCTL_REGISTRY, PLUGCTL_VOLUMES_DIR)",
            )),
        }
    }

    /// Where a non-root user's plugins live by default: never relative to
    /// the current directory (a script started in /tmp must not run
    /// whatever /tmp/plugins holds). A relative XDG_CONFIG_HOME is ignored,
    /// as the XDG spec says.
    fn config_plugin_dir(&self) -> Result<PathBuf> {
        if let Some(x) = self.xdg_config_home.as_ref().filter(|p| p.is_absolute()) {
            return Ok(x.join("plugctl/plugins"));
        }
        match &self.home {
            Some(h) if h.is_absolute() => Ok(h.join(".config/plugctl/plugins")),
            _ => Err(Error::usage(
                "cannot find a plugin directory: neither XDG_CONFIG_HOME nor HOME is set to an \
                 absolute path; pass --plugin-dir (or PLUGCTL_PLUGIN_DIR)",
            )),
        }
    }

    pub fn absolute(&self, p: &Path) -> PathBuf {
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.cwd.join(p)
        }
    }
}

/// Where one directory of the layout came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A flag on the command line (`--plugin-dir`).
    Flag(&'static str),
    /// Its environment variable (`PLUGCTL_PLUGIN_DIR`).
    Env(&'static str),
    /// A setting of the Nomad agent's configuration, where it is written.
    Config { key: Key, place: Place },
    /// Derived from `data_dir` as Nomad derives it: `<data_dir>/<sub>`.
    DataDir {
        sub: &'static str,
        data_dir: Box<Origin>,
    },
    /// `<plugin-dir>/host-volume`: the development layout
    /// (`plugins-examples/`), or a user's own plugin directory.
    PluginDir,
    /// plugctl's default, and why it applies.
    Default(&'static str),
}

impl Origin {
    /// Named by the user for this run (a flag or its variable): it must
    /// exist. One from the agent config or a default may be missing, as a
    /// Nomad client takes a missing directory for no plugins.
    pub fn explicit(&self) -> bool {
        matches!(self, Origin::Flag(_) | Origin::Env(_))
    }

    /// The flag or variable, for a message that starts with it.
    fn name(&self) -> &'static str {
        match self {
            Origin::Flag(n) | Origin::Env(n) => n,
            _ => "the value",
        }
    }

    /// The flag or variable that names it, for a message about it: the
    /// variable when clap took the value from it (its `value_source`).
    fn of_flag(flag: &'static str, var: &'static str, from_env: bool) -> Origin {
        if from_env {
            Origin::Env(var)
        } else {
            Origin::Flag(flag)
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Flag(flag) => write!(f, "from {flag}"),
            Origin::Env(var) => write!(f, "from {var}"),
            Origin::Config { key, place } => write!(f, "{} in {place}", key.path()),
            Origin::DataDir { sub, data_dir } => match &**data_dir {
                Origin::Config { place, .. } => {
                    write!(
                        f,
                        "<data_dir>/{sub}, as Nomad derives it; data_dir in {place}"
                    )
                }
                other => write!(f, "<data_dir>/{sub}, as Nomad derives it; data_dir {other}"),
            },
            Origin::PluginDir => write!(f, "<plugin-dir>/host-volume"),
            Origin::Default(why) => write!(f, "{why}"),
        }
    }
}

/// Where the node's directories came from: the agent configuration read
/// (if any) and the origin of each directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The agent configuration read, and why; None: none was read.
    pub agent: Option<AgentSource>,
    /// The agent's account: the owner of its configuration directory,
    /// trusted as root is when only root could have given it that
    /// directory (none when no configuration is read).
    pub account: AgentAccount,
    /// `data_dir`, when the agent config names it or plugctl runs as root
    /// (Nomad's packaged `/opt/nomad/data`).
    pub data_dir: Option<(PathBuf, Origin)>,
    pub plugin_dir: Origin,
    pub host_volume_plugin_dir: Origin,
    pub volumes_dir: Origin,
    /// The agent's state directory, where its node id is
    /// (`<state_dir>/client-id`): `client.state_dir`, else
    /// `<data_dir>/client`; None when no data_dir is known.
    pub state_dir: Option<(PathBuf, Origin)>,
    /// Where the node pool came from.
    pub node_pool: Origin,
    /// Where `--node-id` came from, when given.
    pub node_id: Option<Origin>,
    /// What to tell the user once the printer exists.
    pub warnings: Vec<String>,
}

/// The agent configuration paths read, why, and the files they held.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentSource {
    pub paths: Vec<PathBuf>,
    pub origin: Origin,
    pub files: Vec<PathBuf>,
}

impl Default for Layout {
    /// Settings a library user built: every directory as given.
    fn default() -> Layout {
        let given = || Origin::Default("as the caller set it");
        Layout {
            agent: None,
            account: AgentAccount::default(),
            data_dir: None,
            plugin_dir: given(),
            host_volume_plugin_dir: given(),
            volumes_dir: given(),
            state_dir: None,
            node_pool: given(),
            node_id: None,
            warnings: Vec::new(),
        }
    }
}

/// The root default of Nomad's packaged agent, when no agent configuration
/// names a `data_dir`.
pub const ROOT_DATA_DIR: &str = "/opt/nomad/data";

/// The node pool of a client whose configuration names none (Nomad's
/// `structs.NodePoolDefault`).
pub const DEFAULT_NODE_POOL: &str = "default";

impl Layout {
    /// The three directories (plugins, host-volume plugins, volumes) and
    /// where each came from: a flag or its variable, else the agent
    /// configuration, else what Nomad derives from `data_dir`, else
    /// plugctl's defaults for a user.
    pub fn resolve(args: &GlobalArgs, host: &Host) -> Result<(Layout, [PathBuf; 3], String)> {
        let agent_paths = agent_paths(args, host)?;
        let (agent, config, account) = match agent_paths {
            None => (None, None, AgentAccount::default()),
            Some((paths, origin)) => {
                // Who owns the agent's configuration is known before it is
                // read: its account is trusted for it too.
                let account = AgentAccount::derive(&paths, host.euid);
                let config = agent_config::load(
                    &paths,
                    plugctl_core::trust::Policy::new(args.allow_insecure_paths)
                        .with_agent(account.trusted()),
                    &account,
                )?;
                let source = AgentSource {
                    paths,
                    origin,
                    files: config.files.clone(),
                };
                (Some(source), Some(config), account)
            }
        };
        let setting = |key: Key| -> Option<(PathBuf, Origin)> {
            let s = config.as_ref().and_then(|c: &AgentConfig| c.get(key))?;
            Some((
                s.value.clone(),
                Origin::Config {
                    key,
                    place: s.place.clone(),
                },
            ))
        };
        let data_dir = setting(Key::DataDir).or_else(|| {
            host.is_root.then(|| {
                (
                    PathBuf::from(ROOT_DATA_DIR),
                    Origin::Default("/opt/nomad/data, the packaged agent's data_dir (as root)"),
                )
            })
        });
        let derive = |key: Key| -> Option<(PathBuf, Origin)> {
            let sub = agent_config::derived(key)?;
            let (dir, origin) = data_dir.as_ref()?;
            Some((
                go_join(dir, sub),
                Origin::DataDir {
                    sub,
                    data_dir: Box::new(origin.clone()),
                },
            ))
        };
        let flag = |value: &Option<PathBuf>, flag, var, id: &str| {
            value.as_ref().map(|p| {
                let origin = Origin::of_flag(flag, var, args.from_env.has(id));
                (host.absolute(p), origin)
            })
        };

        let plugin_dir = match flag(
            &args.plugin_dir,
            "--plugin-dir",
            "PLUGCTL_PLUGIN_DIR",
            "plugin_dir",
        )
        .or_else(|| setting(Key::CommonPluginDir))
        .or_else(|| derive(Key::CommonPluginDir))
        {
            Some(found) => found,
            None => (
                host.config_plugin_dir()?,
                Origin::Default("$XDG_CONFIG_HOME/plugctl/plugins, a user's own (not root)"),
            ),
        };
        let host_family = plugctl_core::family::Family::HostVolume.name();
        // `--plugin-dir DIR` with no agent configuration is the development
        // layout (plugins-examples/): DIR/host-volume.
        let development = (args.plugin_dir.is_some() && agent.is_none())
            .then(|| (plugin_dir.0.join(host_family), Origin::PluginDir));
        let host_volume_plugin_dir = flag(
            &args.host_volume_plugin_dir,
            "--host-volume-plugin-dir",
            "PLUGCTL_HOST_VOLUME_PLUGIN_DIR",
            "host_volume_plugin_dir",
        )
        .or_else(|| setting(Key::HostVolumePluginDir))
        .or(development)
        .or_else(|| derive(Key::HostVolumePluginDir))
        .unwrap_or_else(|| (plugin_dir.0.join(host_family), Origin::PluginDir));
        let volumes_dir = match flag(
            &args.volumes_dir,
            "--volumes-dir",
            "PLUGCTL_VOLUMES_DIR",
            "volumes_dir",
        )
        .or_else(|| setting(Key::HostVolumesDir))
        .or_else(|| derive(Key::HostVolumesDir))
        {
            Some(found) => found,
            None => (
                host.state_dir()?.join("volumes"),
                Origin::Default("$XDG_STATE_HOME/plugctl/volumes, a user's own (not root)"),
            ),
        };
        let state_dir = setting(Key::StateDir).or_else(|| derive(Key::StateDir));
        let node_pool = match &args.node_pool {
            Some(pool) => {
                let origin = Origin::of_flag(
                    "--node-pool",
                    "PLUGCTL_NODE_POOL",
                    args.from_env.has("node_pool"),
                );
                plugctl_core::nomad::check_node_pool(pool).map_err(|why| {
                    Error::usage(format!("{} {why}, as Nomad requires", origin.name()))
                })?;
                (pool.clone(), origin)
            }
            None => match config.as_ref().and_then(|c| c.get(Key::NodePool)) {
                Some(s) => (
                    s.text(),
                    Origin::Config {
                        key: Key::NodePool,
                        place: s.place.clone(),
                    },
                ),
                None => (
                    DEFAULT_NODE_POOL.to_string(),
                    Origin::Default("Nomad's default, as no client.node_pool is set"),
                ),
            },
        };
        let layout = Layout {
            agent,
            account,
            data_dir,
            plugin_dir: plugin_dir.1,
            host_volume_plugin_dir: host_volume_plugin_dir.1,
            volumes_dir: volumes_dir.1,
            state_dir,
            node_pool: node_pool.1,
            node_id: args.node_id.as_ref().map(|_| {
                Origin::of_flag("--node-id", "PLUGCTL_NODE_ID", args.from_env.has("node_id"))
            }),
            warnings: config.map(|c| c.warnings).unwrap_or_default(),
        };
        Ok((
            layout,
            [plugin_dir.0, host_volume_plugin_dir.0, volumes_dir.0],
            node_pool.0,
        ))
    }
}

/// Go's `filepath.Join(dir, sub)`, as Nomad derives a directory from
/// `data_dir`: the joined path cleaned lexically (`filepath.Clean`: no
/// `.`, no empty element, `..` taken back where it can be, no trailing
/// `/`), so `/srv//nomad/` gives `/srv/nomad/host_volumes`, as the agent
/// hands it to plugins.
pub fn go_join(dir: &Path, sub: &str) -> PathBuf {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let mut joined = dir.as_os_str().as_bytes().to_vec();
    joined.push(b'/');
    joined.extend_from_slice(sub.as_bytes());
    let rooted = joined.first() == Some(&b'/');
    let mut parts: Vec<&[u8]> = Vec::new();
    for part in joined.split(|&b| b == b'/') {
        match part {
            b"" | b"." => {}
            b".." => match parts.last() {
                Some(last) if *last != b".." => {
                    parts.pop();
                }
                // `..` above the root is the root; above a relative
                // start it stays.
                _ if rooted => {}
                _ => parts.push(part),
            },
            _ => parts.push(part),
        }
    }
    let mut out = Vec::new();
    if rooted {
        out.push(b'/');
    }
    out.extend_from_slice(&parts.join(&b'/'));
    if out.is_empty() {
        out.push(b'.');
    }
    PathBuf::from(std::ffi::OsString::from_vec(out))
}

/// The agent configuration paths to read and why, or None for none:
/// `--nomad-config` (or its variable), `none` meaning none; else the
/// packaged agent's directory as root when it exists.
fn agent_paths(args: &GlobalArgs, host: &Host) -> Result<Option<(Vec<PathBuf>, Origin)>> {
    let given = &args.nomad_config;
    if given.is_empty() {
        return Ok(host.default_agent_config.clone().map(|p| {
            (
                vec![p],
                Origin::Default("/etc/nomad.d, the packaged agent's (read as root when it exists)"),
            )
        }));
    }
    let from_var = args.from_env.has("nomad_config");
    let (origin, name) = if from_var {
        (Origin::Env("PLUGCTL_NOMAD_CONFIG"), "PLUGCTL_NOMAD_CONFIG")
    } else {
        (Origin::Flag("--nomad-config"), "--nomad-config")
    };
    if given.iter().any(|p| p.as_os_str().is_empty()) {
        return Err(Error::usage(format!(
            "{name} must not be empty: give the agent's configuration file or directory, \
             or `none` to read none"
        )));
    }
    let none = given
        .iter()
        .filter(|p| **p == Path::new(agent_config::NONE))
        .count();
    if none > 0 && given.len() > 1 {
        return Err(Error::usage(format!(
            "{name} none reads no agent configuration, so it cannot be given with a path \
             (for a file named none, write ./none)"
        )));
    }
    if none > 0 {
        return Ok(None);
    }
    Ok(Some((
        given.iter().map(|p| host.absolute(p)).collect(),
        origin,
    )))
}

/// The releases of `--nomad-version` (or `PLUGCTL_NOMAD_VERSION`): a bad
/// one is a usage error naming where it came from.
fn releases(given: &[String], from_var: bool, host: &Host) -> Result<Vec<Release>> {
    // An empty variable is an unset one (`export V=${V:-}` in scripts); an
    // empty flag value is a mistake.
    if from_var && host.nomad_version_var.as_deref() == Some("") {
        return Ok(Vec::new());
    }
    let source = if from_var {
        "PLUGCTL_NOMAD_VERSION"
    } else {
        "--nomad-version"
    };
    // Each release is a check per plugin: a matrix of hundreds of columns
    // is a mistake (and would cost memory on a large directory).
    if given.len() > MAX_RELEASES {
        return Err(Error::usage(format!(
            "{source}: {} releases; a matrix takes at most {MAX_RELEASES}",
            given.len()
        )));
    }
    given
        .iter()
        .map(|text| Release::parse(text).map_err(|why| Error::usage(format!("{source}: {why}"))))
        .collect()
}

/// The registry as root when `--registry` is not given.
pub const ROOT_REGISTRY: &str = "/var/lib/plugctl/registry.json";

/// The registry's file name in a user's state directory
/// (`$XDG_STATE_HOME/plugctl`, else `~/.local/state/plugctl`) when
/// `--registry` is not given.
pub const REGISTRY_NAME: &str = "registry.json";

/// The most releases `--nomad-version` may name.
pub const MAX_RELEASES: usize = 32;

impl Settings {
    pub fn resolve(args: &GlobalArgs, host: &Host) -> Result<Settings> {
        let (layout, [plugin_dir, host_volume_plugin_dir, volumes_dir], node_pool) =
            Layout::resolve(args, host)?;
        let registry = match &args.registry {
            Some(p) => host.absolute(p),
            None if host.is_root => PathBuf::from(ROOT_REGISTRY),
            None => host.state_dir()?.join(REGISTRY_NAME),
        };
        if let Some(id) = &args.node_id
            && id.trim().is_empty()
        {
            return Err(Error::usage("--node-id must not be empty"));
        }
        let lockfile = match &args.lockfile {
            Some(p) => host.absolute(p),
            None => plugctl_core::pin::default_path(&plugin_dir),
        };
        let mut nomad_releases = releases(
            &args.nomad_version,
            args.from_env.has("nomad_version"),
            host,
        )?;
        nomad_releases.sort();
        nomad_releases.dedup();
        let nomad = nomad_releases
            .last()
            .map_or_else(Profile::default, |r| Profile::of(*r));
        let color = match args.color {
            _ if host.no_color => false,
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => host.stdout_tty,
        };
        Ok(Settings {
            layout,
            plugin_dir,
            host_volume_plugin_dir,
            volumes_dir,
            registry,
            node_id: args.node_id.clone(),
            node_pool,
            json: args.json,
            concurrency: usize::from(args.concurrency),
            lock_timeout: args.lock_timeout,
            color,
            quiet: args.quiet,
            verbose: args.verbose,
            interactive: host.stderr_tty && !args.quiet,
            allow_insecure_paths: args.allow_insecure_paths,
            registry_max_size: args.registry_max_size,
            lockfile,
            record: args.record.as_ref().map(|p| host.absolute(p)),
            record_env: args.record_env,
            locked: args.locked,
            nomad,
            nomad_releases,
        })
    }

    /// What `-v` says about the layout: the agent configuration read and
    /// where each directory came from.
    pub fn describe_layout(&self) -> Vec<String> {
        let l = &self.layout;
        let mut out = Vec::new();
        match &l.agent {
            None => out.push("Nomad agent configuration: none read".to_string()),
            Some(a) => {
                let paths: Vec<String> = a.paths.iter().map(|p| p.display().to_string()).collect();
                let files: Vec<String> = a.files.iter().map(|p| p.display().to_string()).collect();
                out.push(format!(
                    "Nomad agent configuration: {} ({}); files read: {}",
                    paths.join(", "),
                    a.origin,
                    if files.is_empty() {
                        "none".to_string()
                    } else {
                        files.join(", ")
                    }
                ));
                out.extend(l.account.describe());
            }
        }
        for (what, dir, origin) in [
            ("plugin directory", &self.plugin_dir, &l.plugin_dir),
            (
                "host-volume plugins",
                &self.host_volume_plugin_dir,
                &l.host_volume_plugin_dir,
            ),
            ("volumes", &self.volumes_dir, &l.volumes_dir),
        ] {
            out.push(format!("{what}: {} ({origin})", dir.display()));
        }
        out.push(format!("node pool: {} ({})", self.node_pool, l.node_pool));
        out
    }

    /// The trust gate's rules for these settings (`--allow-insecure-paths`
    /// lifts the owner and mode checks; on a Nomad node whose configuration
    /// directory root gave to the agent's account, that account is trusted
    /// as root is, for every judgment).
    pub fn policy(&self) -> plugctl_core::trust::Policy {
        plugctl_core::trust::Policy::new(self.allow_insecure_paths)
            .with_agent(self.layout.account.trusted())
    }

    /// Where the plugins are, for the library.
    pub fn dirs(&self) -> plugctl_core::discovery::Dirs {
        plugctl_core::discovery::Dirs {
            plugin_dir: self.plugin_dir.clone(),
            host_volume_plugin_dir: self.host_volume_plugin_dir.clone(),
        }
    }

    /// The directory of one family's plugins.
    pub fn family_dir(&self, family: &str) -> PathBuf {
        self.dirs().family_dir(family)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(argv: &[&str]) -> GlobalArgs {
        let mut full = vec!["plugctl"];
        full.extend_from_slice(argv);
        full.push("fingerprint");
        let full: Vec<std::ffi::OsString> = full.into_iter().map(Into::into).collect();
        crate::cli::parse(&full).unwrap().global
    }

    fn user() -> Host {
        Host {
            cwd: "/work".into(),
            home: Some("/home/u".into()),
            ..Host::default()
        }
    }

    #[test]
    fn user_defaults_follow_xdg() {
        let s = Settings::resolve(&args(&[]), &user()).unwrap();
        // Never the current directory (/work): a script started in /tmp
        // must not run what /tmp/plugins holds.
        assert_eq!(s.plugin_dir, Path::new("/home/u/.config/plugctl/plugins"));
        assert_eq!(
            s.host_volume_plugin_dir,
            Path::new("/home/u/.config/plugctl/plugins/host-volume")
        );
        assert_eq!(
            s.registry,
            Path::new("/home/u/.local/state/plugctl/registry.json")
        );
        assert_eq!(
            s.volumes_dir,
            Path::new("/home/u/.local/state/plugctl/volumes")
        );

        let host = Host {
            xdg_state_home: Some("/xdg".into()),
            xdg_config_home: Some("/cfg".into()),
            ..user()
        };
        let s = Settings::resolve(&args(&[]), &host).unwrap();
        assert_eq!(s.registry, Path::new("/xdg/plugctl/registry.json"));
        assert_eq!(s.plugin_dir, Path::new("/cfg/plugctl/plugins"));
        // Relative XDG directories are ignored, as the XDG spec says.
        let host = Host {
            xdg_state_home: Some("rel".into()),
            xdg_config_home: Some("rel".into()),
            ..user()
        };
        let s = Settings::resolve(&args(&[]), &host).unwrap();
        assert_eq!(
            s.registry,
            Path::new("/home/u/.local/state/plugctl/registry.json")
        );
        assert_eq!(s.plugin_dir, Path::new("/home/u/.config/plugctl/plugins"));
    }

    #[test]
    fn root_defaults_are_nomads() {
        let host = Host {
            is_root: true,
            ..user()
        };
        let s = Settings::resolve(&args(&[]), &host).unwrap();
        assert_eq!(s.plugin_dir, Path::new("/opt/nomad/data/common_plugins"));
        assert_eq!(s.volumes_dir, Path::new("/opt/nomad/data/host_volumes"));
        assert_eq!(s.registry, Path::new("/var/lib/plugctl/registry.json"));
    }

    #[test]
    fn root_without_agent_config_uses_nomads_data_dir() {
        let host = Host {
            is_root: true,
            ..user()
        };
        let s = Settings::resolve(&args(&[]), &host).unwrap();
        assert_eq!(
            s.host_volume_plugin_dir,
            Path::new("/opt/nomad/data/host_volume_plugins")
        );
        assert!(matches!(
            s.layout.host_volume_plugin_dir,
            Origin::DataDir { .. }
        ));
        // --plugin-dir alone: the development layout.
        let s = Settings::resolve(&args(&["--plugin-dir", "ex"]), &host).unwrap();
        assert_eq!(s.host_volume_plugin_dir, Path::new("/work/ex/host-volume"));
        assert_eq!(s.layout.host_volume_plugin_dir, Origin::PluginDir);
        assert_eq!(s.layout.plugin_dir, Origin::Flag("--plugin-dir"));
        assert_eq!(s.volumes_dir, Path::new("/opt/nomad/data/host_volumes"));
    }

    #[test]
    fn agent_config_gives_the_layout_and_flags_override_it() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(
            d.path().join("a.hcl"),
            "data_dir = \"/srv/nomad\"\nclient {\n  host_volumes_dir = \"/srv/v\"\n}\n",
        )
        .unwrap();
        let host = Host {
            is_root: true,
            default_agent_config: Some(d.path().to_path_buf()),
            ..user()
        };
        let s = Settings::resolve(&args(&[]), &host).unwrap();
        assert_eq!(s.plugin_dir, Path::new("/srv/nomad/common_plugins"));
        assert_eq!(
            s.host_volume_plugin_dir,
            Path::new("/srv/nomad/host_volume_plugins")
        );
        assert_eq!(s.volumes_dir, Path::new("/srv/v"));
        let text = s.describe_layout().join("\n");
        assert!(text.contains("client.host_volumes_dir in "), "{text}");
        assert!(text.contains("a.hcl:3"), "{text}");
        assert!(text.contains("data_dir in "), "{text}");
        // A flag beats the config; --plugin-dir does not move the
        // host-volume directory the config gives.
        let s = Settings::resolve(&args(&["--plugin-dir", "/p", "--volumes-dir", "/v"]), &host)
            .unwrap();
        assert_eq!(s.plugin_dir, Path::new("/p"));
        assert_eq!(s.volumes_dir, Path::new("/v"));
        assert_eq!(
            s.host_volume_plugin_dir,
            Path::new("/srv/nomad/host_volume_plugins")
        );
        // `none` reads nothing, even where the default exists.
        let s = Settings::resolve(&args(&["--nomad-config", "none"]), &host).unwrap();
        assert!(s.layout.agent.is_none());
        assert_eq!(
            s.host_volume_plugin_dir,
            Path::new("/opt/nomad/data/host_volume_plugins")
        );
        let e = Settings::resolve(
            &args(&["--nomad-config", "none", "--nomad-config", "x"]),
            &host,
        )
        .unwrap_err();
        assert_eq!(crate::exit::code(&e), crate::exit::USAGE);
        // The variable is named as the source when it is one.
        let host = user();
        let mut a = args(&[]);
        a.nomad_config = vec![d.path().to_path_buf()];
        a.from_env = crate::cli::FromEnv::of_ids(&["nomad_config"]);
        let s = Settings::resolve(&a, &host).unwrap();
        assert_eq!(
            s.layout.agent.unwrap().origin,
            Origin::Env("PLUGCTL_NOMAD_CONFIG")
        );
    }

    #[test]
    fn directories_derive_from_data_dir_as_go_joins_them() {
        for (dir, want) in [
            ("/srv/nomad", "/srv/nomad/host_volumes"),
            ("/srv//nomad/", "/srv/nomad/host_volumes"),
            ("/srv/./nomad/.", "/srv/nomad/host_volumes"),
            ("/srv/a/../nomad", "/srv/nomad/host_volumes"),
            ("/../srv", "/srv/host_volumes"),
            ("/", "/host_volumes"),
        ] {
            assert_eq!(
                go_join(Path::new(dir), "host_volumes"),
                Path::new(want),
                "{dir}"
            );
        }
    }

    #[test]
    fn flags_are_made_absolute() {
        let s = Settings::resolve(
            &args(&[
                "--plugin-dir",
                "p",
                "--registry",
                "r.json",
                "--host-volume-plugin-dir",
                "/hv",
            ]),
            &user(),
        )
        .unwrap();
        assert_eq!(s.plugin_dir, Path::new("/work/p"));
        assert_eq!(s.registry, Path::new("/work/r.json"));
        assert_eq!(s.host_volume_plugin_dir, Path::new("/hv"));
    }

    #[test]
    fn no_home_is_a_usage_error() {
        let host = Host {
            home: None,
            ..user()
        };
        let e = Settings::resolve(&args(&[]), &host).unwrap_err();
        assert_eq!(crate::exit::code(&e), crate::exit::USAGE);
        assert!(
            Settings::resolve(
                &args(&[
                    "--registry",
                    "/r",
                    "--volumes-dir",
                    "/v",
                    "--plugin-dir",
                    "/p"
                ]),
                &host
            )
            .is_ok()
        );
    }

    #[test]
    fn no_color_wins() {
        let host = Host {
            no_color: true,
            stdout_tty: true,
            ..user()
        };
        assert!(
            !Settings::resolve(&args(&["--color", "always"]), &host)
                .unwrap()
                .color
        );
        let host = Host {
            stdout_tty: true,
            ..user()
        };
        assert!(Settings::resolve(&args(&[]), &host).unwrap().color);
    }
}

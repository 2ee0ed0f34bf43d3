//! Flags, environment variables and defaults, resolved once. clap has
//! already applied "flag beats variable"; this fills in the defaults that
//! depend on who runs plugctl (root or not) and makes every path absolute,
//! because plugins receive these paths and run with their own notion of cwd.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::cli::{ColorChoice, GlobalArgs};
use crate::nomad::{Profile, Release};
use crate::{Error, Result};

/// What plugctl will use, after defaults. Library users can build it directly.
#[derive(Debug, Clone)]
pub struct Settings {
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
}

impl Host {
    pub fn current() -> Host {
        let non_empty = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
        Host {
            is_root: nix::unistd::geteuid().is_root(),
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
            home: non_empty("HOME").map(PathBuf::from),
            xdg_state_home: non_empty("XDG_STATE_HOME").map(PathBuf::from),
            xdg_config_home: non_empty("XDG_CONFIG_HOME").map(PathBuf::from),
            no_color: non_empty("NO_COLOR").is_some(),
            stdout_tty: std::io::stdout().is_terminal(),
            stderr_tty: std::io::stderr().is_terminal(),
            nomad_version_var: std::env::var("PLUGCTL_NOMAD_VERSION").ok(),
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

/// The releases of `--nomad-version` (or `PLUGCTL_NOMAD_VERSION`): a bad
/// one is a usage error naming where it came from.
fn releases(given: &[String], host: &Host) -> Result<Vec<Release>> {
    let from_var = host
        .nomad_version_var
        .as_deref()
        .is_some_and(|v| v.split(',').eq(given.iter().map(String::as_str)));
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

/// The most releases `--nomad-version` may name.
pub const MAX_RELEASES: usize = 32;

impl Settings {
    pub fn resolve(args: &GlobalArgs, host: &Host) -> Result<Settings> {
        let plugin_dir = match &args.plugin_dir {
            Some(p) => host.absolute(p),
            None if host.is_root => PathBuf::from("/opt/nomad/data/common_plugins"),
            None => host.config_plugin_dir()?,
        };
        let host_volume_plugin_dir = match &args.host_volume_plugin_dir {
            Some(p) => host.absolute(p),
            None => plugin_dir.join(crate::family::Family::HostVolume.name()),
        };
        let volumes_dir = match &args.volumes_dir {
            Some(p) => host.absolute(p),
            None if host.is_root => PathBuf::from("/opt/nomad/data/host_volumes"),
            None => host.state_dir()?.join("volumes"),
        };
        let registry = match &args.registry {
            Some(p) => host.absolute(p),
            None if host.is_root => PathBuf::from("/var/lib/plugctl/registry.json"),
            None => host.state_dir()?.join("registry.json"),
        };
        if let Some(id) = &args.node_id
            && id.trim().is_empty()
        {
            return Err(Error::usage("--node-id must not be empty"));
        }
        if args.node_pool.is_empty() {
            return Err(Error::usage("--node-pool must not be empty"));
        }
        let lockfile = match &args.lockfile {
            Some(p) => host.absolute(p),
            None => crate::pin::default_path(&plugin_dir),
        };
        let mut nomad_releases = releases(&args.nomad_version, host)?;
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
            plugin_dir,
            host_volume_plugin_dir,
            volumes_dir,
            registry,
            node_id: args.node_id.clone(),
            node_pool: args.node_pool.clone(),
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

    /// The trust gate's rules for these settings (`--allow-insecure-paths`
    /// lifts the owner and mode checks).
    pub fn policy(&self) -> crate::trust::Policy {
        crate::trust::Policy::new(self.allow_insecure_paths)
    }

    /// The directory of one family's plugins.
    pub fn family_dir(&self, family: &str) -> PathBuf {
        if crate::family::Family::HostVolume.is(family) {
            self.host_volume_plugin_dir.clone()
        } else {
            self.plugin_dir.join(family)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn args(argv: &[&str]) -> GlobalArgs {
        let mut full = vec!["plugctl"];
        full.extend_from_slice(argv);
        full.push("fingerprint");
        crate::cli::Cli::try_parse_from(full).unwrap().global
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
        assert_eq!(e.exit_code(), crate::exit::USAGE);
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

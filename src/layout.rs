//! Whether the plugin directories a command looks in can be used: a
//! directory named on the command line (or by its variable) must be there;
//! one the agent configuration or a default gave may be missing, as on a
//! Nomad client, and is named in a warning. The origins are the settings'
//! knowledge, so this lives with them, not in the library's discovery.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use plugctl_core::family::Family;

use crate::settings::{Origin, Settings};
use crate::{Error, Result};

/// Why a configured directory cannot be read for plugins, if it cannot.
fn unusable(dir: &Path) -> Option<String> {
    match fs::metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Some("does not exist".into()),
        Err(e) => Some(format!("cannot be examined: {e}")),
        Ok(m) if !m.is_dir() => Some("is not a directory".into()),
        Ok(_) => fs::read_dir(dir)
            .err()
            .map(|e| format!("cannot be read: {e}")),
    }
}

/// What the plugin directories of the layout allow: the directories that
/// are missing (or unreadable) but were not named explicitly, with a
/// warning each, which hold no plugins.
#[derive(Debug, Clone, Default)]
pub struct DirCheck {
    pub warnings: Vec<String>,
    pub unusable: Vec<PathBuf>,
}

impl DirCheck {
    /// Whether the directory holds no plugins for this run.
    pub fn skips(&self, dir: &Path) -> bool {
        self.unusable.iter().any(|u| dir.starts_with(u))
    }
}

/// Checks the plugin directories a command looks in (`family`: only
/// that family's; None: all). A directory named explicitly (a flag or its
/// variable) that does not exist, is not a directory or cannot be read is
/// a usage error naming it: the user said to look there. One the agent
/// configuration or a default gave holds no plugins, as a Nomad client
/// takes it, and is named in a warning, so that a node whose plugins are
/// not where plugctl looks never reads as "all healthy". The host-volume
/// directory of the development layout (`<plugin-dir>/host-volume`) is a
/// family directory like `secrets/`: missing, it holds nothing, quietly.
pub fn check_layout(settings: &Settings, family: Option<&str>) -> Result<DirCheck> {
    let host = Family::HostVolume.name();
    let mut dirs = Vec::new();
    if family.is_none_or(|f| f != host) {
        dirs.push((
            "plugin directory",
            &settings.plugin_dir,
            &settings.layout.plugin_dir,
        ));
    }
    if family.is_none_or(|f| f == host) {
        dirs.push((
            "host-volume plugin directory",
            &settings.host_volume_plugin_dir,
            &settings.layout.host_volume_plugin_dir,
        ));
    }
    let mut check = DirCheck::default();
    if family.is_none_or(|f| f == host)
        && let Some(line) = agent_keeps_host_volume_plugins(settings)
    {
        check.warnings.push(line);
    }
    for (what, dir, origin) in dirs {
        let Some(why) = unusable(dir) else { continue };
        if origin.explicit() {
            return Err(Error::usage(format!(
                "{what} {} ({origin}) {why}",
                dir.display()
            )));
        }
        if *origin == Origin::PluginDir {
            continue;
        }
        let holds = if what == "plugin directory" {
            "no secrets or other common plugins".to_string()
        } else {
            format!("no {host} plugins")
        };
        check.warnings.push(format!(
            "{what} {} ({origin}) {why}: {holds} there, as a Nomad client finds none; only \
             the built-ins are listed. If the plugins are elsewhere, point --nomad-config at \
             the agent's configuration, or name the directory",
            dir.display()
        ));
        check.unusable.push(dir.clone());
    }
    Ok(check)
}

/// One line when `--plugin-dir DIR` (or its variable) names a development
/// layout, `DIR/host-volume` there, but an agent configuration is in use:
/// the host-volume plugins are then the agent's (as in Nomad, where the two
/// are separate settings), and whoever ran the README's set-up on a node
/// learns where they came from instead.
fn agent_keeps_host_volume_plugins(settings: &Settings) -> Option<String> {
    let layout = &settings.layout;
    let development = settings.plugin_dir.join(Family::HostVolume.name());
    let applies = layout.agent.is_some()
        && layout.plugin_dir.explicit()
        && !layout.host_volume_plugin_dir.explicit()
        && development != settings.host_volume_plugin_dir
        && development.is_dir();
    applies.then(|| {
        format!(
            "host-volume plugins are read from {} ({}), where the Nomad agent's configuration \
             puts them, not from {} (the plugin directory is {}); --nomad-config none reads that \
             development layout instead",
            settings.host_volume_plugin_dir.display(),
            layout.host_volume_plugin_dir,
            development.display(),
            layout.plugin_dir
        )
    })
}

/// The explicit part of [`check_layout`] for every family: a directory
/// named by a flag or its variable that cannot be read is an error before
/// anything is opened in it (the lock file beside the plugins included).
pub fn check_explicit(settings: &Settings) -> Result<()> {
    for (what, dir, origin) in [
        (
            "plugin directory",
            &settings.plugin_dir,
            &settings.layout.plugin_dir,
        ),
        (
            "host-volume plugin directory",
            &settings.host_volume_plugin_dir,
            &settings.layout.host_volume_plugin_dir,
        ),
    ] {
        if origin.explicit()
            && let Some(why) = unusable(dir)
        {
            return Err(Error::usage(format!(
                "{what} {} ({origin}) {why}",
                dir.display()
            )));
        }
    }
    Ok(())
}

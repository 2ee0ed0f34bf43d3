//! The Nomad agent's account, as the settings find it and as plugctl
//! words it: which account the trust gate takes as root's equal on this
//! node ([`plugctl_core::trust::account`] decides), what `-v` says of it,
//! and how a refusal of the agent's own configuration is worded (its fix
//! is to make the file root's or the agent's account's, never to remove
//! it).

use std::path::{Path, PathBuf};

use plugctl_core::provenance::shell_path;
use plugctl_core::trust::account::{self, AgentRuns, Derived, Why};
use plugctl_core::trust::{Refusal, Uid};

use crate::Error;

/// What was found of the agent's account, with the names `/etc/passwd`
/// gives the accounts it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentAccount {
    derived: Derived,
    name: Option<String>,
    /// The configuration paths named that are files, not directories: a
    /// file gives no account, and a refusal of its directory says to name
    /// the directory instead (for wording only; nothing is trusted by it).
    files: Vec<PathBuf>,
}

impl Default for AgentAccount {
    /// No account more: no agent configuration is read.
    fn default() -> AgentAccount {
        AgentAccount {
            derived: Derived::NoAccount,
            name: None,
            files: Vec::new(),
        }
    }
}

/// `nomad (uid 999)`, or `uid 999` when the account has no plain name.
pub fn who(uid: u32, name: Option<&str>) -> String {
    match name {
        Some(n) => format!("{n} (uid {uid})"),
        None => format!("uid {uid}"),
    }
}

impl AgentAccount {
    /// The account for the agent's configuration at `paths` (what
    /// `--nomad-config` names, or `/etc/nomad.d`), for a plugctl run as
    /// `me`.
    pub fn derive(paths: &[PathBuf], me: u32) -> AgentAccount {
        let derived = account::derive(paths, me);
        let name = match &derived {
            Derived::Trusted { account, .. } | Derived::Untrusted { account, .. } => {
                account::name_of(account.uid.as_raw())
            }
            Derived::NoAccount => None,
        };
        let files = paths
            .iter()
            .filter(|p| p.metadata().is_ok_and(|m| !m.is_dir()))
            .cloned()
            .collect();
        AgentAccount {
            derived,
            name,
            files,
        }
    }

    /// The account the trust gate takes as root's equal, if any.
    pub fn trusted(&self) -> Option<Uid> {
        self.derived.trusted()
    }

    fn account(&self) -> Option<&account::Account> {
        match &self.derived {
            Derived::Trusted { account, .. } | Derived::Untrusted { account, .. } => Some(account),
            Derived::NoAccount => None,
        }
    }

    /// `nomad (uid 999)`: the account found, trusted or not.
    fn named(&self) -> Option<String> {
        self.account()
            .map(|a| who(a.uid.as_raw(), self.name.as_deref()))
    }

    /// What `-v` says: which account is trusted and why, or why the owner
    /// of the agent's configuration is not. Nothing when every
    /// configuration directory is root's.
    pub fn describe(&self) -> Option<String> {
        let account = self.account()?;
        let named = self.named()?;
        let dir = account.dir.display();
        Some(match &self.derived {
            Derived::Trusted { runs, .. } => {
                let parent = account.dir.parent().unwrap_or(Path::new("/"));
                let runs = match runs {
                    AgentRuns::Root { unit } => {
                        format!("{} names no other user", unit.display())
                    }
                    _ => format!("no {} says otherwise", account::UNIT),
                };
                format!(
                    "trusted owner: the agent's account, {named}, owns {dir}: only root could \
                     give it that directory ({} is root's alone), and the agent runs as root \
                     ({runs}), so that account already decides what the agent runs",
                    parent.display()
                )
            }
            Derived::Untrusted { why, .. } => format!(
                "trusted owner: root only; {named} owns {dir} but is not trusted as the agent's \
                 account: {}",
                because(why)
            ),
            Derived::NoAccount => return None,
        })
    }

    /// A refusal of the agent's configuration, worded for it: the owner
    /// of the agent's configuration is named, and the fix is to make the
    /// file root's or the agent's account's (never to remove it).
    pub fn refused(&self, what: String, r: &Refusal) -> Error {
        let Refusal::Owner {
            path,
            what: kind,
            uid,
            ..
        } = r
        else {
            return Error::refused(what, r);
        };
        // As every refusal says it ("belongs to uid N"), with the name.
        let owner = match account::name_of(*uid) {
            Some(name) => format!("uid {uid} ({name})"),
            None => format!("uid {uid}"),
        };
        // chown follows a symlink unless told not to: the link itself is
        // what was refused.
        let chown = if *kind == "symbolic link" {
            "chown -h"
        } else {
            "chown"
        };
        let message = match (&self.derived, self.name.as_deref()) {
            (Derived::Trusted { account, .. }, name) => {
                let user = name.map_or_else(|| account.uid.as_raw().to_string(), str::to_string);
                format!(
                    "{what}: refusing to trust it: the {kind} {} belongs to {owner}, and only \
                     root or the agent's account, {}, which owns {}, may own the agent's \
                     configuration (fix: {chown} root {}, or {chown} {} {})",
                    path.display(),
                    self.named().unwrap_or_default(),
                    account.dir.display(),
                    shell_path(path),
                    plugctl_core::provenance::shell_quote(std::ffi::OsStr::new(&user)),
                    shell_path(path)
                )
            }
            (Derived::Untrusted { account, why }, _) => format!(
                "{what}: refusing to trust it: the {kind} {} belongs to {owner}, and only root \
                 may own the agent's configuration here: {} owns {} but is not trusted as the \
                 agent's account, as {} (fix: {chown} root {}{})",
                path.display(),
                self.named().unwrap_or_default(),
                account.dir.display(),
                because(why),
                shell_path(path),
                // Moving the configuration helps only where its place was
                // what kept the account from being trusted.
                if matches!(why, Why::Parent { .. }) {
                    ", or keep the configuration in a directory only root could give the \
                     agent's account, as /etc/nomad.d"
                } else {
                    ""
                }
            ),
            (Derived::NoAccount, _) => format!(
                "{what}: refusing to trust it: the {kind} {} belongs to {owner}, and only root \
                 may own the agent's configuration, or the account that owns its directory \
                 when only root could have given it that directory (fix: {chown} root {}{})",
                path.display(),
                shell_path(path),
                if self
                    .files
                    .iter()
                    .any(|f| f.parent() == Some(path.as_path()))
                {
                    format!(
                        ", or name the directory {} rather than a file in it: only a \
                         directory's owner is taken as the agent's account",
                        path.display()
                    )
                } else {
                    String::new()
                }
            ),
        };
        Error::usage(message).hint(plugctl_core::error::Hint::AllowInsecurePaths)
    }
}

/// Why an account is not the agent's, in words.
fn because(why: &Why) -> String {
    match why {
        Why::Parent { reason } => format!(
            "a directory above it is not root's alone, so its owner may have made it: {reason}"
        ),
        Why::Raced => "the directory changed while plugctl looked".to_string(),
        Why::Unprivileged(AgentRuns::As { user, file }) => format!(
            "{} runs the agent as {} (User=), so that account is not root's equal",
            file.display(),
            if account::plain_name(user) {
                user.clone()
            } else {
                plugctl_core::escape::quote(user)
            }
        ),
        Why::Unprivileged(AgentRuns::Dynamic { file }) => format!(
            "{} runs the agent as a user of its own (DynamicUser=), so that account is not \
             root's equal",
            file.display()
        ),
        Why::Unprivileged(_) => "the agent does not run as root".to_string(),
        Why::Unit { path, refusal } => format!(
            "{} cannot say how the agent runs ({refusal})",
            path.display()
        ),
        Why::Several { other } => format!(
            "another configuration directory, {}, belongs to another account, uid {}",
            other.dir.display(),
            other.uid.as_raw()
        ),
    }
}

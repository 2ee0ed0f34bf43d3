//! The Nomad agent's account: one owner more that the gate trusts on a
//! node, derived from facts only root can set.
//!
//! HashiCorp's Linux package gives the agent's configuration directory
//! (`/etc/nomad.d`) and its `data_dir` to the `nomad` account, on install
//! and on every upgrade, while its unit runs the agent as root (no
//! `User=`). The agent then reads what that account writes there: its
//! plugin directories, its configuration. That account already decides
//! what root's agent runs, so plugctl trusting it for the same tree gives
//! it nothing it did not have.
//!
//! Which account that is, is read from the owner of the agent's
//! configuration directory, when root alone could have given it that
//! directory: every directory above it is root's and no one else can
//! write there, sticky or not (in `/etc`, only root can make a directory
//! and `chown` it to another account). It is not trusted when:
//!
//! - a directory above it is not root's alone (a configuration directory
//!   under a user's home, or in `/tmp`): its owner may have made it;
//! - the agent's systemd unit (`nomad.service`, its file and drop-ins in
//!   systemd's unit directories, read through the gate) runs the agent as
//!   another user (`User=`, `DynamicUser=`): then the account is not
//!   root's equal, and trusting it would hand it root. An agent started
//!   otherwise (another unit's name, another supervisor) is not seen: that
//!   limit is the documentation's (docs/security.md);
//! - two configuration directories belong to two accounts.
//!
//! What it decides is worded by the front end; [`Derived`] says which and
//! why.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::dir::resolve_file;
use super::{CheckedDir, Policy, Refusal, Uid};

/// The agent's unit, as HashiCorp's package names it.
pub const UNIT: &str = "nomad.service";

/// systemd's directories of system units, most important first: the
/// administrator's (`systemctl set-property`, `systemctl edit`), the
/// runtime's, then the packages'.
pub const UNIT_DIRS: [&str; 7] = [
    "/etc/systemd/system.control",
    "/run/systemd/system.control",
    "/etc/systemd/system",
    "/run/systemd/system",
    "/usr/local/lib/systemd/system",
    "/usr/lib/systemd/system",
    "/lib/systemd/system",
];

/// The largest unit file or drop-in read.
const UNIT_FILE_MAX: u64 = 1 << 20;

/// The largest `/etc/passwd` read for an account's name.
const PASSWD_MAX: u64 = 16 << 20;

/// An account that owns an agent configuration directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub uid: Uid,
    /// The configuration directory it owns, as reached (absolute, no
    /// symlink).
    pub dir: PathBuf,
}

/// What was found of the agent's account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Derived {
    /// Every configuration directory is root's (or the invoking user's),
    /// or none is a directory: no account more.
    NoAccount,
    /// Trusted as root is.
    Trusted { account: Account, runs: AgentRuns },
    /// Owns a configuration directory but is not trusted, and why.
    Untrusted { account: Account, why: Why },
}

impl Derived {
    /// The account the gate trusts, if any.
    pub fn trusted(&self) -> Option<Uid> {
        match self {
            Derived::Trusted { account, .. } => Some(account.uid),
            _ => None,
        }
    }
}

/// Why the owner of a configuration directory is not the agent's account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    /// A directory above it is not root's alone, so its owner may have
    /// made it there: `reason` says which directory and how ("/home/u
    /// belongs to uid 1000", "/tmp is writable by others (mode 1777)").
    Parent { reason: String },
    /// It changed while plugctl looked.
    Raced,
    /// The agent's unit runs the agent as another user.
    Unprivileged(AgentRuns),
    /// A file of the agent's unit could not be read through the gate (a
    /// unit another user could write decides nothing for plugctl).
    Unit { path: PathBuf, refusal: String },
    /// Another configuration directory belongs to another account.
    Several { other: Account },
}

/// How the agent's unit runs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentRuns {
    /// As root: the unit file, which names no other user.
    Root { unit: PathBuf },
    /// No unit of that name is there (or it is masked).
    NoUnit,
    /// As `user` (`User=`), written in `file`.
    As { user: String, file: PathBuf },
    /// As a user systemd makes for it (`DynamicUser=`), written in `file`.
    Dynamic { file: PathBuf },
}

impl AgentRuns {
    fn is_root(&self) -> bool {
        matches!(self, AgentRuns::Root { .. } | AgentRuns::NoUnit)
    }
}

/// The agent's account for these configuration paths (files or
/// directories, as the agent's `-config` takes them): the owner of a
/// configuration directory that is neither root nor `me`, when root
/// alone could have given it the directory and the agent's unit runs the
/// agent as root.
pub fn derive(paths: &[PathBuf], me: u32) -> Derived {
    let mut found: Option<Account> = None;
    for path in paths {
        // Where the path leads, and who owns it; its owners and modes are
        // judged by the walk below and by the configuration's own read.
        let Ok(dir) = CheckedDir::open(Policy::insecure(), path) else {
            continue;
        };
        let uid = dir.meta().uid;
        if uid == 0 || uid == me {
            continue;
        }
        let account = Account {
            uid: Uid::from_raw(uid),
            dir: dir.path().to_path_buf(),
        };
        if let Some(first) = &found {
            if first.uid != account.uid {
                return Derived::Untrusted {
                    account: first.clone(),
                    why: Why::Several { other: account },
                };
            }
            continue;
        }
        if let Err(why) = given_by_root(&dir) {
            return Derived::Untrusted { account, why };
        }
        found = Some(account);
    }
    let Some(account) = found else {
        return Derived::NoAccount;
    };
    match agent_runs() {
        Ok(runs) if runs.is_root() => Derived::Trusted { account, runs },
        Ok(runs) => Derived::Untrusted {
            account,
            why: Why::Unprivileged(runs),
        },
        Err((path, refusal)) => Derived::Untrusted {
            account,
            why: Why::Unit { path, refusal },
        },
    }
}

/// Whether only root could have given `dir` to its owner: every directory
/// above it root's, none writable by anyone else (sticky or not), and
/// `dir` still the directory in it.
fn given_by_root(dir: &CheckedDir) -> Result<(), Why> {
    let path = dir.path();
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Ok(());
    };
    let above = CheckedDir::open(Policy::root_alone(), parent).map_err(|r| Why::Parent {
        reason: match &r {
            Refusal::Owner { path, uid, .. } => {
                format!("{} belongs to uid {uid}", path.display())
            }
            Refusal::Writable { path, mode, .. } => format!(
                "{} is writable by {} (mode {mode:04o})",
                path.display(),
                super::who_writes(*mode)
            ),
            other => other.to_string(),
        },
    })?;
    match above.stat(name) {
        Ok(Some(m)) if m.is_dir() && (m.dev, m.ino) == (dir.meta().dev, dir.meta().ino) => Ok(()),
        _ => Err(Why::Raced),
    }
}

/// How systemd would start the agent's unit: its file (the first of
/// [`UNIT_DIRS`] that holds one) and its drop-ins (`nomad.service.d/*.conf`
/// and `service.d/*.conf` in each, a name in a more important directory
/// hiding the same name in a later one, applied in the order of their
/// names), each read through the gate as root's alone. `User=` and
/// `DynamicUser=` of `[Service]` decide; the last one set wins, an empty
/// one resets. A unit masked (a link to `/dev/null`) is no unit.
pub fn agent_runs() -> Result<AgentRuns, (PathBuf, String)> {
    let policy = Policy::root_alone();
    let mut unit = None;
    for dir in UNIT_DIRS {
        let path = Path::new(dir).join(UNIT);
        if let Some(text) = read_unit_file(policy, &path)? {
            unit = Some((path, text));
            break;
        }
    }
    let Some((unit_path, unit_text)) = unit else {
        return Ok(AgentRuns::NoUnit);
    };
    let mut drop_ins: BTreeMap<OsString, PathBuf> = BTreeMap::new();
    for dir in UNIT_DIRS {
        for sub in [format!("{UNIT}.d"), "service.d".to_string()] {
            let at = Path::new(dir).join(sub);
            let checked = match CheckedDir::open(policy, &at) {
                Ok(d) => d,
                Err(r) if r.is_not_found() => continue,
                Err(r) => return Err((at, r.to_string())),
            };
            let entries = checked.entries().map_err(|r| (at.clone(), r.to_string()))?;
            for (name, _) in entries {
                if name.as_bytes().ends_with(b".conf") {
                    drop_ins
                        .entry(name.clone())
                        .or_insert_with(|| at.join(name));
                }
            }
        }
    }
    let mut runs = Runs::default();
    runs.read(&unit_path, &unit_text);
    for path in drop_ins.into_values() {
        if let Some(text) = read_unit_file(policy, &path)? {
            runs.read(&path, &text);
        }
    }
    Ok(match (runs.dynamic, runs.user) {
        (Some(file), _) => AgentRuns::Dynamic { file },
        (None, Some((user, file))) if user != "root" && user != "0" => AgentRuns::As { user, file },
        _ => AgentRuns::Root { unit: unit_path },
    })
}

/// A unit file's text, or None when it is not there or masked.
fn read_unit_file(policy: Policy, path: &Path) -> Result<Option<String>, (PathBuf, String)> {
    let (dir, name, _) = match resolve_file(policy, path) {
        Ok(found) => found,
        Err(r) if r.is_not_found() => return Ok(None),
        Err(r) => return Err((path.to_path_buf(), r.to_string())),
    };
    if dir.path() == Path::new("/dev") && name == "null" {
        return Ok(None);
    }
    let bytes = dir
        .read(&name, UNIT_FILE_MAX)
        .map_err(|r| (path.to_path_buf(), r.to_string()))?;
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

/// `User=` and `DynamicUser=` as read so far, and where each was set.
#[derive(Default)]
struct Runs {
    user: Option<(String, PathBuf)>,
    dynamic: Option<PathBuf>,
}

impl Runs {
    /// One file's `[Service]` settings, as systemd reads its lines:
    /// comments start with `#` or `;`, a line ending in `\` goes on.
    fn read(&mut self, path: &Path, text: &str) {
        let mut section = String::new();
        let mut line = String::new();
        for raw in text.lines() {
            let trimmed = raw.trim();
            if line.is_empty() && (trimmed.starts_with('#') || trimmed.starts_with(';')) {
                continue;
            }
            if let Some(more) = trimmed.strip_suffix('\\') {
                line.push_str(more);
                line.push(' ');
                continue;
            }
            line.push_str(trimmed);
            let whole = std::mem::take(&mut line);
            if let Some(name) = whole.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
                section = name.to_string();
                continue;
            }
            if section != "Service" {
                continue;
            }
            let Some((key, value)) = whole.split_once('=') else {
                continue;
            };
            let value = value.trim();
            match key.trim() {
                "User" => {
                    self.user = (!value.is_empty()).then(|| (value.to_string(), path.to_path_buf()))
                }
                "DynamicUser" => {
                    let on = matches!(
                        value.to_ascii_lowercase().as_str(),
                        "1" | "yes" | "y" | "true" | "t" | "on"
                    );
                    self.dynamic = on.then(|| path.to_path_buf());
                }
                _ => {}
            }
        }
    }
}

/// The name `/etc/passwd` gives `uid` (read through the gate; no name
/// service is asked, no module loaded), when it is a plain name.
pub fn name_of(uid: u32) -> Option<String> {
    let (dir, name, _) = resolve_file(Policy::strict(), Path::new("/etc/passwd")).ok()?;
    let bytes = dir.read(&name, PASSWD_MAX).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let wanted = uid.to_string();
    text.lines().find_map(|l| {
        let mut fields = l.split(':');
        let login = fields.next()?;
        (fields.nth(1)? == wanted && plain_name(login)).then(|| login.to_string())
    })
}

/// A login as `useradd` makes them: letters, digits, `.`, `_`, `-` (a
/// trailing `$`), at most 64 bytes; anything else is not shown as it is.
pub fn plain_name(login: &str) -> bool {
    let body = login.strip_suffix('$').unwrap_or(login);
    !body.is_empty()
        && login.len() <= 64
        && !body.starts_with('-')
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(files: &[&str]) -> Runs {
        let mut r = Runs::default();
        for (i, text) in files.iter().enumerate() {
            r.read(Path::new(&format!("/f{i}")), text);
        }
        r
    }

    #[test]
    fn user_and_dynamic_user_are_read_as_systemd_reads_them() {
        let package = "[Unit]\nDescription=Nomad\n\n[Service]\nExecStart=/usr/bin/nomad agent -config /etc/nomad.d\nKillMode=process\n";
        let r = runs(&[package]);
        assert!(r.user.is_none() && r.dynamic.is_none());
        let r = runs(&[package, "[Service]\nUser=nomad\nGroup=nomad\n"]);
        assert_eq!(r.user.as_ref().unwrap().0, "nomad");
        assert_eq!(r.user.unwrap().1, Path::new("/f1"));
        // A later empty assignment resets; a later drop-in wins.
        let r = runs(&[package, "[Service]\nUser=nomad\n", "[Service]\nUser=\n"]);
        assert!(r.user.is_none());
        // Only [Service] counts; comments and continuations as systemd has
        // them.
        let r = runs(&["[Unit]\nUser=nomad\n[Service]\n# User=nomad\n; User=x\n"]);
        assert!(r.user.is_none());
        let r = runs(&["[Service]\nExecStart=/bin/a \\\n  User=x\n  User = nomad \n"]);
        assert_eq!(r.user.unwrap().0, "nomad");
        let r = runs(&["[Service]\nDynamicUser=yes\n"]);
        assert!(r.dynamic.is_some());
        let r = runs(&["[Service]\nDynamicUser=yes\n", "[Service]\nDynamicUser=\n"]);
        assert!(r.dynamic.is_none());
    }

    #[test]
    fn plain_names_only() {
        for ok in ["nomad", "_apt", "systemd-network", "host$", "a.b"] {
            assert!(plain_name(ok), "{ok}");
        }
        for bad in ["", "-x", "a b", "a\u{1b}[31m", "é", &"x".repeat(65)] {
            assert!(!plain_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_directory_of_root_or_mine_gives_no_account() {
        let d = tempfile::tempdir().unwrap();
        let me = rustix::process::geteuid().as_raw();
        assert_eq!(derive(&[d.path().to_path_buf()], me), Derived::NoAccount);
        assert_eq!(derive(&[d.path().join("missing")], me), Derived::NoAccount);
    }
}

//! The one gate for every file and directory plugctl reads or writes as
//! root: its registry, journal, lock and owners directory, the pin lock
//! file, case files and their directory, env files, the volumes directory,
//! textfile targets ([`output`]), and the plugins it runs with their
//! interpreters.
//!
//! Whoever can write a file plugctl trusts decides what a root plugctl
//! does, so, like sudo and OpenSSH's StrictModes, a path is used only when
//! nobody but root or the invoking user could have put it there:
//!
//! - it is reached from `/` one component at a time through descriptors
//!   (`openat` with `O_NOFOLLOW` relative to the directory already judged),
//!   so what is judged is what is used, and a symlink on the way is read and
//!   followed by plugctl itself, each hop judged too ([`dir::CheckedDir`]);
//! - every directory on the way and the file itself belong to root or the
//!   invoking user, and group and others cannot write them — except a
//!   sticky directory such as `/tmp`, whose other users may add entries but
//!   not replace ours: an entry plugctl takes from one must still be owned
//!   by root or the invoking user, and one it creates there is created
//!   exclusively (`O_EXCL`), so nothing planted beforehand is taken for ours;
//! - the file is of the kind expected (a regular file, a directory), is
//!   never a FIFO or a device (opened `O_NONBLOCK`, refused before a read),
//!   and is read only up to a bound.
//!
//! On a Nomad node one account more may own what plugctl trusts: the
//! agent's account ([`Policy::with_agent`]), the owner of the agent's
//! configuration directory when only root could have given it that
//! directory ([`account`]). The packaged agent runs as root and reads what
//! that account writes, so the account already decides what root's agent
//! runs; trusting it for the same tree gives it nothing it did not have.
//!
//! One kind of directory is judged otherwise: one plugctl only writes a
//! file of its own into (node_exporter's textfile directory), which any
//! user may own, reached following no symlink at any step
//! ([`output::open_output_dir`]).
//!
//! `--allow-insecure-paths` ([`Policy::insecure`]) is the one override: it
//! lifts the owner and mode rules, never the descriptor discipline, the
//! kinds or the bounds. A refusal ([`Refusal`]) names the path, the owner or
//! mode that was wrong and the `chown`/`chmod` that fixes it.

pub mod account;
pub mod dir;
pub mod environment;
pub mod output;
pub mod program;
pub mod tree;
pub mod usage;

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

pub use dir::{CheckedDir, Step};
pub use program::Trust;
pub use rustix::process::Uid;

/// Who may own what plugctl trusts: root, the invoking user (the
/// effective uid) and, on a Nomad node, the agent's account; and whether
/// the owner and mode rules apply at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    me: u32,
    /// The Nomad agent's account ([`account`]), trusted as root is.
    agent: Option<Uid>,
    enforce: bool,
    /// Whether a sticky directory others may write passes (it does for
    /// everything plugctl reads or makes; not for the directories above
    /// one whose owner root must have chosen, [`Policy::root_alone`]).
    sticky_passes: bool,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy::strict()
    }
}

impl Policy {
    /// The rules for this process: owners root or the effective uid.
    pub fn strict() -> Policy {
        Policy {
            me: rustix::process::geteuid().as_raw(),
            agent: None,
            enforce: true,
            sticky_passes: true,
        }
    }

    /// Root alone, and no directory others may write, sticky or not: what
    /// the directories above the agent's configuration directory must be
    /// for its owner to be one root chose ([`account`]).
    pub(crate) fn root_alone() -> Policy {
        Policy {
            me: 0,
            agent: None,
            enforce: true,
            sticky_passes: false,
        }
    }

    /// These rules with the Nomad agent's account trusted too, as root is
    /// (`None`: no account more). Only the binary's settings know it: it
    /// is derived once, from facts only root can set
    /// ([`account::derive`]), and carried by the policy, never a global.
    pub fn with_agent(self, agent: Option<Uid>) -> Policy {
        Policy { agent, ..self }
    }

    /// The agent's account these rules trust, if any.
    pub fn agent(&self) -> Option<Uid> {
        self.agent
    }

    /// `--allow-insecure-paths`: owners and modes are not judged (the
    /// descriptor discipline, kinds and bounds still hold).
    pub fn insecure() -> Policy {
        Policy {
            enforce: false,
            ..Policy::strict()
        }
    }

    /// [`Policy::insecure`] when `allow_insecure`, else [`Policy::strict`].
    pub fn new(allow_insecure: bool) -> Policy {
        if allow_insecure {
            Policy::insecure()
        } else {
            Policy::strict()
        }
    }

    /// Whether the owner and mode rules apply (not `--allow-insecure-paths`).
    pub fn enforces(&self) -> bool {
        self.enforce
    }

    fn trusts_owner(&self, uid: u32) -> bool {
        uid == 0 || uid == self.me || self.agent.is_some_and(|a| a.as_raw() == uid)
    }

    /// Judges a file plugctl opens as its own (the registry, a lock file,
    /// a journal segment, a case file): one name only. Lifted with the
    /// owner and mode rules.
    pub fn judge_links(&self, path: &Path, st: &Meta) -> Result<(), Refusal> {
        if self.enforce && st.links > 1 {
            return Err(Refusal::Linked {
                path: path.to_path_buf(),
                links: st.links,
            });
        }
        Ok(())
    }

    /// A program taken from a directory others may add entries to (a
    /// sticky one): refused with more names than one. Another user cannot
    /// plant a file of root's there, but where the kernel lets anyone link
    /// a file they do not own (`fs.protected_hardlinks=0`) they can give
    /// any program of root's a name there, and plugctl would run it. In a
    /// directory only its owner writes, a second name is that owner's
    /// doing.
    pub fn judge_program_links(&self, path: &Path, st: &Meta, dir: &Meta) -> Result<(), Refusal> {
        if dir.mode & 0o022 != 0 {
            self.judge_links(path, st)?;
        }
        Ok(())
    }

    /// Judges one file or directory on the way: its owner and who may
    /// write it. `what` is "directory", "file", "symbolic link".
    pub fn judge(&self, path: &Path, st: &Meta, what: &'static str) -> Result<(), Refusal> {
        if !self.enforce {
            return Ok(());
        }
        if !self.trusts_owner(st.uid) {
            return Err(Refusal::Owner {
                path: path.to_path_buf(),
                what,
                uid: st.uid,
                me: self.me,
                agent: self.agent.map(Uid::as_raw),
            });
        }
        // A symlink's own mode means nothing; a sticky directory lets
        // others add entries but not replace or remove ours.
        let sticky = self.sticky_passes && st.is_dir() && st.mode & 0o1000 != 0;
        if what != "symbolic link" && st.mode & 0o022 != 0 && !sticky {
            return Err(Refusal::Writable {
                path: path.to_path_buf(),
                what,
                mode: st.mode & 0o7777,
            });
        }
        Ok(())
    }
}

/// What plugctl reads of a file's inode to judge it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Meta {
    pub uid: u32,
    pub gid: u32,
    /// The whole `st_mode`: type and permission bits.
    pub mode: u32,
    pub dev: u64,
    pub ino: u64,
    pub size: u64,
    /// How many names (hard links) the file has.
    pub links: u64,
}

impl Meta {
    pub fn of(st: &rustix::fs::Stat) -> Meta {
        Meta {
            uid: st.st_uid,
            gid: st.st_gid,
            mode: st.st_mode,
            dev: st.st_dev,
            ino: st.st_ino,
            size: u64::try_from(st.st_size).unwrap_or(0),
            links: st.st_nlink,
        }
    }

    pub fn file_type(&self) -> rustix::fs::FileType {
        rustix::fs::FileType::from_raw_mode(self.mode)
    }

    pub fn is_dir(&self) -> bool {
        self.file_type() == rustix::fs::FileType::Directory
    }

    pub fn is_file(&self) -> bool {
        self.file_type() == rustix::fs::FileType::RegularFile
    }

    pub fn is_symlink(&self) -> bool {
        self.file_type() == rustix::fs::FileType::Symlink
    }

    /// "a directory", "a FIFO", ... for messages.
    pub fn kind(&self) -> &'static str {
        use rustix::fs::FileType as T;
        match self.file_type() {
            T::RegularFile => "a regular file",
            T::Directory => "a directory",
            T::Symlink => "a symbolic link",
            T::Fifo => "a FIFO",
            T::Socket => "a socket",
            T::CharacterDevice | T::BlockDevice => "a device",
            T::Unknown => "of an unknown kind",
        }
    }
}

/// Why the gate refused a path. Its message names the path, what is wrong
/// and what fixes it.
#[derive(Debug)]
pub enum Refusal {
    /// Not there (a read of something optional treats it as absent).
    NotFound(PathBuf),
    /// A symlink where plugctl never follows one (its own files).
    Symlink(PathBuf),
    /// Of another kind than expected.
    Kind {
        path: PathBuf,
        is: &'static str,
        want: &'static str,
    },
    /// Owned by someone other than root, the invoking user or the agent's
    /// account.
    Owner {
        path: PathBuf,
        what: &'static str,
        uid: u32,
        me: u32,
        /// The agent's account, when one was trusted.
        agent: Option<u32>,
    },
    /// Group or others may write it.
    Writable {
        path: PathBuf,
        what: &'static str,
        mode: u32,
    },
    /// Longer than the bound for what it is.
    TooLarge {
        path: PathBuf,
        size: u64,
        max: u64,
    },
    /// A mount point where plugctl must stay on one file system.
    Mount(PathBuf),
    /// Changed between two looks at it (a swap raced the check).
    Raced(PathBuf),
    /// Symbolic links that lead to each other (more than 40 hops).
    Loop(PathBuf),
    /// A file of plugctl's own with more names than one: another name of it
    /// may be anywhere (a file of root's a user linked in where the kernel
    /// lets them, `fs.protected_hardlinks=0`), and plugctl writes its own
    /// files.
    Linked {
        path: PathBuf,
        links: u64,
    },
    Io {
        path: PathBuf,
        source: io::Error,
    },
}

impl Refusal {
    pub fn io(path: impl Into<PathBuf>, source: io::Error) -> Refusal {
        let path = path.into();
        match source.kind() {
            io::ErrorKind::NotFound => Refusal::NotFound(path),
            _ if source.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) => {
                Refusal::Loop(path)
            }
            _ => Refusal::Io { path, source },
        }
    }

    /// The path it is about.
    pub fn path(&self) -> &Path {
        match self {
            Refusal::NotFound(p)
            | Refusal::Symlink(p)
            | Refusal::Mount(p)
            | Refusal::Raced(p)
            | Refusal::Loop(p)
            | Refusal::Kind { path: p, .. }
            | Refusal::Owner { path: p, .. }
            | Refusal::Writable { path: p, .. }
            | Refusal::TooLarge { path: p, .. }
            | Refusal::Linked { path: p, .. }
            | Refusal::Io { path: p, .. } => p,
        }
    }

    pub fn is_not_found(&self) -> bool {
        matches!(self, Refusal::NotFound(_))
    }

    /// An owner or mode that others could abuse: the refusals
    /// `--allow-insecure-paths` lifts.
    pub fn is_insecure(&self) -> bool {
        matches!(
            self,
            Refusal::Owner { .. } | Refusal::Writable { .. } | Refusal::Linked { .. }
        )
    }

    /// The OS error underneath, for callers that classify (a full disk, a
    /// read-only file system).
    pub fn io_error(&self) -> Option<&io::Error> {
        match self {
            Refusal::Io { source, .. } => Some(source),
            _ => None,
        }
    }

    /// The message, with "refusing to trust it" before the refusals that
    /// are about an owner or a mode (the ones the front end's override
    /// lifts; [`crate::Error::refused`] carries that advice).
    pub fn explained(&self) -> String {
        if self.is_insecure() {
            format!("refusing to trust it: {self}")
        } else {
            self.to_string()
        }
    }
}

/// "group and others", "its group", "others" for mode bits 0o020/0o002.
pub fn who_writes(mode: u32) -> &'static str {
    match (mode & 0o020 != 0, mode & 0o002 != 0) {
        (true, true) => "group and others",
        (true, false) => "its group",
        _ => "others",
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotFound(p) => write!(f, "{} does not exist", p.display()),
            Refusal::Symlink(p) => write!(
                f,
                "{} is a symbolic link, which plugctl never follows for its own files; \
                 point it at the real file",
                p.display()
            ),
            Refusal::Kind { path, is, want } => {
                write!(f, "{} is {is}, not {want}", path.display())
            }
            Refusal::Linked { path, links } => write!(
                f,
                "{} has {links} names (hard links), and another name of it could be any file; \
                 plugctl uses only files of its own there",
                path.display()
            ),
            Refusal::Owner {
                path,
                what,
                uid,
                me,
                agent,
            } => {
                let mut who = if *me == 0 {
                    "root".to_string()
                } else {
                    format!("root or uid {me} (who runs plugctl)")
                };
                if let Some(a) = agent.filter(|a| a != me && *a != 0) {
                    who += &format!(" or the Nomad agent's account (uid {a})");
                }
                // chown follows a symbolic link unless told not to: the
                // fix would change the file it points at, not the link.
                let chown = if *what == "symbolic link" {
                    "chown -h"
                } else {
                    "chown"
                };
                write!(
                    f,
                    "the {what} {} belongs to uid {uid}, and only {who} may own what plugctl \
                     uses as uid {me} (fix: {chown} {me} {}, or remove it if it is not yours)",
                    path.display(),
                    crate::provenance::shell_path(path)
                )
            }
            Refusal::Writable { path, what, mode } => write!(
                f,
                "the {what} {} is writable by {} (mode {mode:04o}), so anyone there could \
                 change what plugctl uses (fix: chmod go-w {})",
                path.display(),
                who_writes(*mode),
                crate::provenance::shell_path(path)
            ),
            Refusal::TooLarge { path, size, max } => write!(
                f,
                "{} is {size} bytes, more than the {max} bytes plugctl reads of it",
                path.display()
            ),
            Refusal::Mount(p) => write!(
                f,
                "{} is (or holds) a mount point of another file system; plugctl does not \
                 cross it: unmount it first",
                p.display()
            ),
            Refusal::Raced(p) => write!(
                f,
                "{} changed while plugctl checked it (replaced between two looks); not used",
                p.display()
            ),
            Refusal::Loop(p) => write!(
                f,
                "{} is a loop of symbolic links (more than 40 hops); point the path at a real \
                 directory or file",
                p.display()
            ),
            Refusal::Io { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for Refusal {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn who_writes_names_every_combination() {
        assert_eq!(who_writes(0o775), "its group");
        assert_eq!(who_writes(0o757), "others");
        assert_eq!(who_writes(0o777), "group and others");
    }

    #[test]
    fn an_owner_refusal_names_who_may_own_it() {
        let r = |me| {
            Refusal::Owner {
                path: "/x".into(),
                what: "file",
                uid: 7,
                me,
                agent: None,
            }
            .to_string()
        };
        assert!(r(0).contains("only root may own"), "{}", r(0));
        assert!(r(1000).contains("only root or uid 1000 (who runs plugctl) may own"));
        assert!(r(1000).contains("chown 1000 /x"));
        let link = Refusal::Owner {
            path: "/l".into(),
            what: "symbolic link",
            uid: 7,
            me: 0,
            agent: None,
        }
        .to_string();
        assert!(link.contains("(fix: chown -h 0 /l,"), "{link}");
        let with_agent = Refusal::Owner {
            path: "/x".into(),
            what: "file",
            uid: 7,
            me: 0,
            agent: Some(999),
        }
        .to_string();
        assert!(
            with_agent.contains("only root or the Nomad agent's account (uid 999) may own"),
            "{with_agent}"
        );
    }

    #[test]
    fn the_agents_account_is_trusted_as_root_is_and_no_one_else() {
        let meta = |uid: u32, mode: u32| Meta {
            uid,
            gid: uid,
            mode: 0o040000 | mode,
            dev: 1,
            ino: 1,
            size: 0,
            links: 1,
        };
        let p = Path::new("/etc/nomad.d");
        let root = Policy {
            me: 0,
            ..Policy::strict()
        };
        let agent = root.with_agent(Some(Uid::from_raw(999)));
        assert!(root.judge(p, &meta(999, 0o755), "directory").is_err());
        agent.judge(p, &meta(999, 0o755), "directory").unwrap();
        agent.judge(p, &meta(0, 0o755), "directory").unwrap();
        // Another account is not; nor is a directory others can write,
        // whoever owns it.
        let other = agent.judge(p, &meta(1001, 0o755), "directory").unwrap_err();
        assert!(matches!(
            other,
            Refusal::Owner {
                uid: 1001,
                agent: Some(999),
                ..
            }
        ));
        assert!(matches!(
            agent.judge(p, &meta(999, 0o775), "directory"),
            Err(Refusal::Writable { .. })
        ));
        assert!(matches!(
            agent.judge(p, &meta(999, 0o757), "directory"),
            Err(Refusal::Writable { .. })
        ));
        // Sticky passes, but not for the directories above the agent's.
        agent.judge(p, &meta(0, 0o1777), "directory").unwrap();
        assert!(
            Policy::root_alone()
                .judge(p, &meta(0, 0o1777), "directory")
                .is_err()
        );
        assert!(
            Policy::root_alone()
                .judge(p, &meta(999, 0o755), "directory")
                .is_err()
        );
        Policy::root_alone()
            .judge(p, &meta(0, 0o755), "directory")
            .unwrap();
    }

    #[test]
    fn an_os_error_is_classified_once() {
        let os = |e| io::Error::from_raw_os_error(e);
        assert!(Refusal::io("/x", os(rustix::io::Errno::NOENT.raw_os_error())).is_not_found());
        assert!(matches!(
            Refusal::io("/x", os(rustix::io::Errno::LOOP.raw_os_error())),
            Refusal::Loop(_)
        ));
        let denied = Refusal::io("/x", os(rustix::io::Errno::ACCESS.raw_os_error()));
        assert!(matches!(denied, Refusal::Io { .. }));
        assert_eq!(
            denied.io_error().map(io::Error::kind),
            Some(io::ErrorKind::PermissionDenied)
        );
        assert!(Refusal::Symlink("/x".into()).io_error().is_none());
    }
}

//! The Landlock ruleset of one call, built in the parent: what the plugin
//! may read and execute (itself, its interpreters, the system's programs
//! and libraries, the few files of `/etc` they read), what it may write
//! (its operation's needs: the volumes directory for create and delete,
//! nothing for fingerprint and fetch; its private `/tmp`; the null
//! devices), and nothing else of the node's. The child only hands the
//! ruleset's descriptor to `landlock_restrict_self`.

use std::os::fd::{AsFd, OwnedFd};
use std::path::PathBuf;

use landlock::{
    ABI, Access, AccessFs, BitFlags, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreatedAttr, Scope, make_bitflags,
};

/// The system's programs and libraries: read and execute.
pub(super) const SYSTEM: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
];

/// What programs read of `/etc` to start and run: the loader's cache, the
/// name service's switch and the user and group tables (no password
/// hashes), the time zone, Python's site configuration, mke2fs's defaults.
/// Nothing else there (`/etc/shadow`, the agent's tokens) is readable.
pub(super) const ETC: &[&str] = &[
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/ld.so.preload",
    "/etc/localtime",
    "/etc/nsswitch.conf",
    "/etc/passwd",
    "/etc/group",
    "/etc/host.conf",
    "/etc/hosts",
    "/etc/mke2fs.conf",
    "/etc/alternatives",
];

/// The devices every program may open for reading and writing.
pub(super) const DEVICES_RW: &[&str] = &["/dev/null", "/dev/zero", "/dev/full"];
/// The devices every program may read.
pub(super) const DEVICES_R: &[&str] = &["/dev/urandom", "/dev/random"];

/// The paths of one call's rules.
#[derive(Debug, Default, Clone)]
pub(super) struct Rules {
    /// Read and execute beneath.
    pub exec: Vec<PathBuf>,
    /// Read only beneath (no execute).
    pub read: Vec<PathBuf>,
    /// Read and write (and make and remove) beneath.
    pub write: Vec<PathBuf>,
}

impl Rules {
    /// What every confined call may use: the system, `/etc`'s few files,
    /// `/proc` (to read, as `ps` and Python do), the null devices.
    pub fn base() -> Rules {
        let mut r = Rules::default();
        r.exec.extend(SYSTEM.iter().map(PathBuf::from));
        r.read.extend(ETC.iter().map(PathBuf::from));
        r.read.extend(python_etc());
        r.read.push(PathBuf::from("/proc"));
        r.read.extend(DEVICES_R.iter().map(PathBuf::from));
        r.write.extend(DEVICES_RW.iter().map(PathBuf::from));
        r
    }
}

/// `/etc/python3*`: Python's `sitecustomize` lives there on Debian (a
/// link from `/usr/lib/python3.X`), and a denied one costs a line on
/// stderr, which a secrets plugin must not write.
fn python_etc() -> Vec<PathBuf> {
    std::fs::read_dir("/etc")
        .map(|rd| {
            rd.flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("python3"))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default()
}

/// What a rule grants beneath a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    Exec,
    Read,
    Write,
}

/// A path of a rule, opened (`O_PATH`, following links: a rule is on what
/// a path names).
#[derive(Debug)]
pub(super) struct Opened {
    fd: PathFd,
    is_dir: bool,
    class: Class,
}

/// Opens each path of `rules` that exists.
pub(super) fn open(rules: &Rules) -> Vec<Opened> {
    let sets: [(&Vec<PathBuf>, Class); 3] = [
        (&rules.exec, Class::Exec),
        (&rules.read, Class::Read),
        (&rules.write, Class::Write),
    ];
    let mut out = Vec::new();
    for (paths, class) in sets {
        for path in paths {
            let Ok(meta) = std::fs::metadata(path) else {
                continue;
            };
            if let Ok(fd) = PathFd::new(path) {
                out.push(Opened {
                    fd,
                    is_dir: meta.is_dir(),
                    class,
                });
            }
        }
    }
    out
}

/// Builds the ruleset: every file-system right of `abi` handled, each
/// opened path of `base` (the system's, opened once a run) and `call` (the
/// call's own) granted its rights (a file only the rights a file can
/// have), plus `tmp` (the call's private `/tmp`, opened in its namespace)
/// read and write. From ABI 6, signals and abstract Unix sockets are
/// scoped too: the plugin cannot signal a process outside its sandbox
/// (plugctl, the agent, init) nor reach one's abstract socket.
pub(super) fn ruleset(
    abi: ABI,
    base: &[Opened],
    call: &[Opened],
    tmp: Option<&OwnedFd>,
) -> Result<OwnedFd, String> {
    let all = AccessFs::from_all(abi);
    let exec = AccessFs::from_read(abi);
    let read = exec & make_bitflags!(AccessFs::{ReadFile | ReadDir});
    // Where a plugin writes, it does not execute what it wrote.
    let write = all & !BitFlags::from(AccessFs::Execute);
    let fail = |e: landlock::RulesetError| format!("Landlock: {e}");
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(all)
        .map_err(fail)?;
    if abi >= ABI::V6 {
        ruleset = ruleset
            .scope(Scope::Signal | Scope::AbstractUnixSocket)
            .map_err(fail)?;
    }
    let mut created = ruleset.create().map_err(fail)?;
    for o in base.iter().chain(call) {
        let access: BitFlags<AccessFs> = match o.class {
            Class::Exec => exec,
            Class::Read => read,
            Class::Write => write,
        };
        let access = if o.is_dir {
            access
        } else {
            access & AccessFs::from_file(abi)
        };
        created = created
            .add_rule(PathBeneath::new(&o.fd, access))
            .map_err(fail)?;
    }
    if let Some(tmp) = tmp {
        created = created
            .add_rule(PathBeneath::new(tmp.as_fd(), write))
            .map_err(|e| format!("Landlock rule for the private /tmp: {e}"))?;
    }
    let fd: Option<OwnedFd> = created.into();
    fd.ok_or_else(|| "Landlock made no ruleset".to_string())
}

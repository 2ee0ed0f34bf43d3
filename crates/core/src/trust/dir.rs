//! A directory reached from `/` through descriptors, every component
//! judged on the way ([`CheckedDir::open`]), and everything plugctl does
//! inside one: open, create, lock, list, rename, remove — each relative to
//! the directory's descriptor with `O_NOFOLLOW`, so that a path swapped
//! after the check is never what is used.

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use rustix::fs::{AtFlags, Mode, OFlags};

use super::{Meta, Policy, Refusal};

/// How many symlinks a walk follows before it gives up (Linux's own limit).
const MAX_HOPS: usize = 40;

/// A judged directory: its descriptor (`O_PATH`), the path it was reached
/// by (absolute, without symlinks or `..`), and the rules it was judged by,
/// which everything taken from it is judged by too.
#[derive(Debug, Clone)]
pub struct CheckedDir {
    fd: Arc<OwnedFd>,
    path: PathBuf,
    meta: Meta,
    policy: Policy,
}

fn errno(e: rustix::io::Errno) -> io::Error {
    io::Error::from_raw_os_error(e.raw_os_error())
}

/// The components of an absolute path as the walk takes them: names and
/// `..` (the root and `.` need no step).
fn steps(path: &Path) -> VecDeque<OsString> {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n.to_os_string()),
            Component::ParentDir => Some(OsString::from("..")),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => None,
        })
        .collect()
}

/// `path` made absolute against the working directory.
fn absolute(path: &Path) -> Result<PathBuf, Refusal> {
    if path.is_absolute() {
        return Ok(path.to_path_buf());
    }
    std::env::current_dir()
        .map(|cwd| cwd.join(path))
        .map_err(|e| Refusal::io(path, e))
}

impl CheckedDir {
    /// A directory another walk of the gate opened and judged
    /// ([`super::output`]).
    pub(super) fn from_parts(fd: OwnedFd, path: PathBuf, meta: Meta, policy: Policy) -> Self {
        CheckedDir {
            fd: Arc::new(fd),
            path,
            meta,
            policy,
        }
    }

    /// The directory `path` names, reached from `/` one component at a
    /// time: each directory opened `O_NOFOLLOW` relative to the last and
    /// judged (owner, mode), each symlink on the way read and followed by
    /// the walk itself (its target walked and judged the same way).
    pub fn open(policy: Policy, path: &Path) -> Result<CheckedDir, Refusal> {
        walk(policy, path, None, &mut 0)
    }

    /// [`CheckedDir::open`], creating what is missing (mode `mode`, less
    /// the umask), as `mkdir -p` would but through descriptors.
    pub fn create_all(policy: Policy, path: &Path, mode: u32) -> Result<CheckedDir, Refusal> {
        walk(policy, path, Some(mode), &mut 0)
    }

    /// The path it was reached by: absolute, no symlink, no `..`.
    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn meta(&self) -> &Meta {
        &self.meta
    }

    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// The path of an entry, for messages.
    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.path.join(name)
    }

    /// Whether this is the same directory as `other` (device and inode).
    pub fn same_as(&self, other: &CheckedDir) -> bool {
        (self.meta.dev, self.meta.ino) == (other.meta.dev, other.meta.ino)
    }

    /// An entry as it is (a symlink is not followed); `Ok(None)` when it
    /// is not there.
    pub fn stat(&self, name: impl AsRef<OsStr>) -> Result<Option<Meta>, Refusal> {
        let name = name.as_ref();
        match rustix::fs::statat(self.fd.as_fd(), name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) => Ok(Some(Meta::of(&st))),
            Err(rustix::io::Errno::NOENT) => Ok(None),
            Err(e) => Err(Refusal::io(self.join(name), errno(e))),
        }
    }

    /// Why opening `name` failed, in words: `O_NOFOLLOW` says ELOOP for a
    /// symlink, and a symlink loop is not a symlink plugctl refused.
    fn open_error(&self, name: &OsStr, e: rustix::io::Errno) -> Refusal {
        let path = self.join(name);
        if e == rustix::io::Errno::LOOP
            && self
                .stat(name)
                .ok()
                .flatten()
                .is_some_and(|m| m.is_symlink())
        {
            return Refusal::Symlink(path);
        }
        Refusal::io(path, errno(e))
    }

    /// Judges an entry opened from here: of the kind wanted, owned and
    /// moded as the policy says.
    fn judge_file(&self, name: &OsStr, file: &File) -> Result<Meta, Refusal> {
        let path = self.join(name);
        let meta = Meta::of(&rustix::fs::fstat(file).map_err(|e| Refusal::io(&path, errno(e)))?);
        if !meta.is_file() {
            return Err(Refusal::Kind {
                path,
                is: meta.kind(),
                want: "a regular file",
            });
        }
        self.policy.judge(&path, &meta, "file")?;
        self.policy.judge_links(&path, &meta)?;
        Ok(meta)
    }

    /// Opens an existing regular file for reading: never through a
    /// symlink, never blocking on a FIFO, judged, at most `max` bytes long.
    pub fn open_read(&self, name: impl AsRef<OsStr>, max: u64) -> Result<(File, Meta), Refusal> {
        let name = name.as_ref();
        let fd = rustix::fs::openat(
            self.fd.as_fd(),
            name,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| self.open_error(name, e))?;
        let file = File::from(fd);
        let meta = self.judge_file(name, &file)?;
        if meta.size > max {
            return Err(Refusal::TooLarge {
                path: self.join(name),
                size: meta.size,
                max,
            });
        }
        // A FIFO was refused above; a regular file never blocks, so the
        // O_NONBLOCK the open needed can go.
        let _ = rustix::fs::fcntl_setfl(&file, OFlags::empty());
        Ok((file, meta))
    }

    /// The whole of an existing regular file, at most `max` bytes: the
    /// bound holds even if the file grows while it is read.
    pub fn read(&self, name: impl AsRef<OsStr>, max: u64) -> Result<Vec<u8>, Refusal> {
        let name = name.as_ref();
        let (file, meta) = self.open_read(name, max)?;
        read_to_end_bounded(file, meta.size, max).map_err(|e| Refusal::io(self.join(name), e))
    }

    /// Creates a new file (never one that is there already, never through
    /// a symlink), for writing.
    pub fn create_new(&self, name: impl AsRef<OsStr>, mode: u32) -> Result<File, Refusal> {
        let name = name.as_ref();
        let fd = rustix::fs::openat(
            self.fd.as_fd(),
            name,
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(mode),
        )
        .map_err(|e| self.open_error(name, e))?;
        Ok(File::from(fd))
    }

    /// Opens a file for reading and writing, creating it (mode `mode`)
    /// when it is missing: an existing one must be a regular file owned and
    /// moded as the policy says (in a sticky directory, one that another
    /// user planted is refused, never used); a new one is created
    /// exclusively. What lock files and journal segments are opened with.
    pub fn open_or_create(&self, name: impl AsRef<OsStr>, mode: u32) -> Result<File, Refusal> {
        let name = name.as_ref();
        // Two tries: a file removed between our two opens is made anew.
        for _ in 0..2 {
            match rustix::fs::openat(
                self.fd.as_fd(),
                name,
                OFlags::RDWR | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
                Mode::empty(),
            ) {
                Ok(fd) => {
                    let file = File::from(fd);
                    self.judge_file(name, &file)?;
                    let _ = rustix::fs::fcntl_setfl(&file, OFlags::empty());
                    return Ok(file);
                }
                Err(rustix::io::Errno::NOENT) => {}
                Err(e) => return Err(self.open_error(name, e)),
            }
            match rustix::fs::openat(
                self.fd.as_fd(),
                name,
                OFlags::RDWR | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::from_raw_mode(mode),
            ) {
                Ok(fd) => return Ok(File::from(fd)),
                Err(rustix::io::Errno::EXIST) => continue,
                Err(e) => return Err(self.open_error(name, e)),
            }
        }
        Err(Refusal::Raced(self.join(name)))
    }

    /// Opens an existing file for reading and writing (never creating
    /// one), judged as [`CheckedDir::open_or_create`] judges it.
    pub fn open_existing(&self, name: impl AsRef<OsStr>) -> Result<File, Refusal> {
        let name = name.as_ref();
        let fd = rustix::fs::openat(
            self.fd.as_fd(),
            name,
            OFlags::RDWR | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| self.open_error(name, e))?;
        let file = File::from(fd);
        self.judge_file(name, &file)?;
        let _ = rustix::fs::fcntl_setfl(&file, OFlags::empty());
        Ok(file)
    }

    /// A subdirectory, never through a symlink, judged.
    pub fn subdir(&self, name: impl AsRef<OsStr>) -> Result<CheckedDir, Refusal> {
        let name = name.as_ref();
        let path = self.join(name);
        let fd = rustix::fs::openat(
            self.fd.as_fd(),
            name,
            OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| match e {
            rustix::io::Errno::NOTDIR => match self.stat(name) {
                Ok(Some(m)) if m.is_symlink() => Refusal::Symlink(path.clone()),
                Ok(Some(m)) => Refusal::Kind {
                    path: path.clone(),
                    is: m.kind(),
                    want: "a directory",
                },
                _ => Refusal::io(&path, errno(e)),
            },
            e => self.open_error(name, e),
        })?;
        let meta = Meta::of(&rustix::fs::fstat(&fd).map_err(|e| Refusal::io(&path, errno(e)))?);
        self.policy.judge(&path, &meta, "directory")?;
        Ok(CheckedDir {
            fd: Arc::new(fd),
            path,
            meta,
            policy: self.policy,
        })
    }

    /// A subdirectory, made (mode `mode`) when it is missing; an existing
    /// one is judged like any other.
    pub fn ensure_subdir(&self, name: impl AsRef<OsStr>, mode: u32) -> Result<CheckedDir, Refusal> {
        let name = name.as_ref();
        match rustix::fs::mkdirat(self.fd.as_fd(), name, Mode::from_raw_mode(mode)) {
            Ok(()) | Err(rustix::io::Errno::EXIST) => {}
            Err(e) => return Err(Refusal::io(self.join(name), errno(e))),
        }
        self.subdir(name)
    }

    /// Makes a subdirectory (mode `mode`, less the umask); `Ok(false)`
    /// when something is there already (never followed).
    pub fn make_dir(&self, name: impl AsRef<OsStr>, mode: u32) -> Result<bool, Refusal> {
        let name = name.as_ref();
        match rustix::fs::mkdirat(self.fd.as_fd(), name, Mode::from_raw_mode(mode)) {
            Ok(()) => Ok(true),
            Err(rustix::io::Errno::EXIST) => Ok(false),
            Err(e) => Err(Refusal::io(self.join(name), errno(e))),
        }
    }

    /// A subdirectory opened for reading, never through a symlink: for a
    /// directory plugctl made, to `fchmod`/`fchown` exactly it.
    pub fn open_subdir_file(&self, name: impl AsRef<OsStr>) -> Result<File, Refusal> {
        let name = name.as_ref();
        rustix::fs::openat(
            self.fd.as_fd(),
            name,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map(File::from)
        .map_err(|e| self.open_error(name, e))
    }

    /// A descriptor that can read the directory (list it, fsync it).
    pub fn readable(&self) -> Result<OwnedFd, Refusal> {
        rustix::fs::openat(
            self.fd.as_fd(),
            ".",
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| Refusal::io(&self.path, errno(e)))
    }

    /// The names of its entries (not `.` and `..`), as the directory
    /// lists them, with the kind the listing gives.
    pub fn entries(&self) -> Result<Vec<(OsString, rustix::fs::FileType)>, Refusal> {
        let fd = self.readable()?;
        let dir = rustix::fs::Dir::new(fd).map_err(|e| Refusal::io(&self.path, errno(e)))?;
        let mut out = Vec::new();
        for entry in dir {
            let entry = entry.map_err(|e| Refusal::io(&self.path, errno(e)))?;
            let name = entry.file_name().to_bytes();
            if name == b"." || name == b".." {
                continue;
            }
            out.push((OsString::from_vec(name.to_vec()), entry.file_type()));
        }
        Ok(out)
    }

    /// Removes a file (or a symlink itself).
    pub fn unlink(&self, name: impl AsRef<OsStr>) -> Result<(), Refusal> {
        let name = name.as_ref();
        rustix::fs::unlinkat(self.fd.as_fd(), name, AtFlags::empty())
            .map_err(|e| Refusal::io(self.join(name), errno(e)))
    }

    /// Removes an empty subdirectory.
    pub fn remove_dir(&self, name: impl AsRef<OsStr>) -> Result<(), Refusal> {
        let name = name.as_ref();
        rustix::fs::unlinkat(self.fd.as_fd(), name, AtFlags::REMOVEDIR)
            .map_err(|e| Refusal::io(self.join(name), errno(e)))
    }

    /// Renames an entry within this directory (atomically replacing `to`).
    pub fn rename(&self, from: impl AsRef<OsStr>, to: impl AsRef<OsStr>) -> Result<(), Refusal> {
        let (from, to) = (from.as_ref(), to.as_ref());
        rustix::fs::renameat(self.fd.as_fd(), from, self.fd.as_fd(), to)
            .map_err(|e| Refusal::io(self.join(to), errno(e)))
    }

    /// Makes its entries (a rename, a new file) durable.
    pub fn sync(&self) -> Result<(), Refusal> {
        let fd = self.readable()?;
        rustix::fs::fsync(&fd).map_err(|e| Refusal::io(&self.path, errno(e)))
    }

    /// The one atomic replace: `bytes` written to a new temporary file
    /// beside `name`, fsynced, renamed over `name`, the directory fsynced
    /// (see [`CheckedDir::replace_with`]).
    pub fn replace(
        &self,
        name: impl AsRef<OsStr>,
        bytes: &[u8],
        mode: u32,
        like: Option<&Meta>,
    ) -> Result<(), (Step, Refusal)> {
        self.replace_with(name, mode, like, |f| f.write_all(bytes))
    }

    /// The one atomic replace, its contents written by `write`: a new
    /// temporary file beside `name` (created exclusively, mode `mode`, or
    /// the owner, group and mode of `like`), fsynced, renamed over `name`,
    /// the directory fsynced. A crash at any instant leaves the old file or
    /// the new one; a failure before the rename removes the temporary file
    /// and leaves the old one as it was, and says at which step it failed.
    pub fn replace_with(
        &self,
        name: impl AsRef<OsStr>,
        mode: u32,
        like: Option<&Meta>,
        write: impl FnOnce(&mut File) -> io::Result<()>,
    ) -> Result<(), (Step, Refusal)> {
        let name = name.as_ref();
        let (temp, mut file) = self.create_temp(name).map_err(|r| (Step::Create, r))?;
        let fail = |step: Step, e: io::Error| {
            let _ = self.unlink(&temp);
            (step, Refusal::io(self.join(name), e))
        };
        write(&mut file).map_err(|e| fail(Step::Write, e))?;
        keep_mode(&file, mode, like).map_err(|e| fail(Step::Write, e))?;
        file.sync_all().map_err(|e| fail(Step::Sync, e))?;
        if let Err(r) = self.rename(&temp, name) {
            let _ = self.unlink(&temp);
            return Err((Step::Rename, r));
        }
        self.sync().map_err(|r| (Step::SyncDir, r))
    }

    /// A new temporary file beside `name`: `.<name>.<random>.tmp`, 0600.
    pub fn create_temp(&self, name: &OsStr) -> Result<(OsString, File), Refusal> {
        let mut last = None;
        for _ in 0..8 {
            let mut temp = OsString::from(".");
            temp.push(name);
            temp.push(format!(
                ".{:08x}.tmp",
                uuid::Uuid::new_v4().as_u128() as u32
            ));
            match self.create_new(&temp, 0o600) {
                Ok(f) => return Ok((temp, f)),
                Err(e)
                    if e.io_error()
                        .is_some_and(|e| e.kind() == io::ErrorKind::AlreadyExists) =>
                {
                    last = Some(e)
                }
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| Refusal::Raced(self.join(name))))
    }

    /// The mount this directory is on (`statx`'s mount id): two
    /// directories of one file system mounted twice (a bind mount) differ.
    pub fn mount_id(&self) -> Result<u64, Refusal> {
        mount_id_of(self.fd.as_fd()).map_err(|e| Refusal::io(&self.path, e))
    }

    /// The raw descriptor, for the tree walk.
    pub(super) fn fd(&self) -> std::os::fd::BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

/// Where an atomic replace failed: before [`Step::Rename`] the old file is
/// as it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Create,
    Write,
    Sync,
    Rename,
    SyncDir,
}

/// Gives a new file the mode `mode`, or the owner, group and mode of the
/// file it replaces (`like`): root writing a user's file keeps it the
/// user's.
fn keep_mode(file: &File, mode: u32, like: Option<&Meta>) -> io::Result<()> {
    match like {
        Some(m) => {
            let me = (rustix::process::geteuid(), rustix::process::getegid());
            if (me.0.as_raw(), me.1.as_raw()) != (m.uid, m.gid) {
                rustix::fs::fchown(
                    file,
                    Some(rustix::fs::Uid::from_raw(m.uid)),
                    Some(rustix::fs::Gid::from_raw(m.gid)),
                )
                .map_err(errno)?;
            }
            rustix::fs::fchmod(file, Mode::from_raw_mode(m.mode & 0o7777)).map_err(errno)
        }
        None => rustix::fs::fchmod(file, Mode::from_raw_mode(mode)).map_err(errno),
    }
}

/// The mount id of an open file or directory.
pub(super) fn mount_id_of(fd: std::os::fd::BorrowedFd<'_>) -> io::Result<u64> {
    let st = rustix::fs::statx(
        fd,
        "",
        AtFlags::EMPTY_PATH | AtFlags::SYMLINK_NOFOLLOW,
        rustix::fs::StatxFlags::MNT_ID,
    )
    .map_err(errno)?;
    if st.stx_mask & rustix::fs::StatxFlags::MNT_ID.bits() == 0 {
        return Err(io::Error::other("the kernel gives no mount id (statx)"));
    }
    Ok(st.stx_mnt_id)
}

/// Reads an open file to its end, at most `max` bytes (`size` is what
/// fstat said, to allocate once): more is an error, never an endless read.
pub fn read_to_end_bounded(file: File, size: u64, max: u64) -> io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    let want = size.min(max).saturating_add(1);
    buf.try_reserve_exact(usize::try_from(want).unwrap_or(usize::MAX))
        .map_err(|_| {
            io::Error::new(
                io::ErrorKind::OutOfMemory,
                format!("cannot allocate {size} bytes to read it"),
            )
        })?;
    file.take(max.saturating_add(1)).read_to_end(&mut buf)?;
    if buf.len() as u64 > max {
        return Err(io::Error::other(format!(
            "it is longer than the {max} bytes plugctl reads of it (it grew while it was read?)"
        )));
    }
    Ok(buf)
}

/// What the symlink `name` in `dir` says. A link of `/proc` whose text is
/// absolute or names no file (`/proc/PID/root`, `cwd`, `exe`, `fd/N`,
/// `map_files/*`, `ns/*`) is a "magic" link: the kernel follows it to the
/// object it stands for, which its text does not say. `/proc/PID/root`
/// reads `/` for a process in a mount namespace of its own (a container, a
/// user's `unshare`), so that the gate would judge the node's `/usr/bin`
/// while the kernel opens the container's; such a link is refused. The
/// plain links of `/proc` (`self`, `mounts`, `net`) are relative names and
/// followed as any other.
fn link_target(dir: BorrowedFd<'_>, name: &OsStr, link: &Path) -> Result<PathBuf, Refusal> {
    let target =
        rustix::fs::readlinkat(dir, name, Vec::new()).map_err(|e| Refusal::io(link, errno(e)))?;
    let target = PathBuf::from(OsStr::from_bytes(target.as_bytes()));
    let magic =
        target.is_absolute() || target.as_os_str().as_bytes().windows(2).any(|w| w == b":[");
    if magic {
        let on_proc = rustix::fs::fstatfs(dir)
            .map_err(|e| Refusal::io(link, errno(e)))?
            .f_type
            == rustix::fs::PROC_SUPER_MAGIC;
        if on_proc {
            return Err(Refusal::io(
                link,
                io::Error::other(
                    "a link of /proc, which the kernel follows to the process's root, working \
                     directory or open file it stands for, not to its text",
                ),
            ));
        }
    }
    Ok(target)
}

/// The symlink `link` is one hop more: past [`MAX_HOPS`] the path is a
/// loop, as the kernel says of a path through more than 40 links.
fn hop(hops: &mut usize, link: &Path) -> Result<(), Refusal> {
    *hops += 1;
    if *hops > MAX_HOPS {
        return Err(Refusal::io(
            link,
            io::Error::from_raw_os_error(rustix::io::Errno::LOOP.raw_os_error()),
        ));
    }
    Ok(())
}

/// The walk of [`CheckedDir::open`]: `create` makes missing directories;
/// `hops` counts the symlinks followed, with those of the walks before it
/// for the same path (Linux's limit is on the whole resolution).
fn walk(
    policy: Policy,
    path: &Path,
    create: Option<u32>,
    hops: &mut usize,
) -> Result<CheckedDir, Refusal> {
    let path = absolute(path)?;
    let root_fd = rustix::fs::openat(
        rustix::fs::CWD,
        "/",
        OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(|e| Refusal::io("/", errno(e)))?;
    let root_meta = Meta::of(&rustix::fs::fstat(&root_fd).map_err(|e| Refusal::io("/", errno(e)))?);
    policy.judge(Path::new("/"), &root_meta, "directory")?;
    let root = CheckedDir {
        fd: Arc::new(root_fd),
        path: PathBuf::from("/"),
        meta: root_meta,
        policy,
    };
    let mut stack = vec![root];
    let mut pending = steps(&path);
    while let Some(name) = pending.pop_front() {
        if name == ".." {
            if stack.len() > 1 {
                stack.pop();
            }
            continue;
        }
        let here = stack.last().expect("the root is never popped");
        let meta = match here.stat(&name)? {
            Some(m) => m,
            None => match create {
                Some(mode) => {
                    match rustix::fs::mkdirat(here.fd(), &name, Mode::from_raw_mode(mode)) {
                        Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                        Err(e) => return Err(Refusal::io(here.join(&name), errno(e))),
                    }
                    pending.push_front(name);
                    continue;
                }
                None => return Err(Refusal::NotFound(here.join(&name))),
            },
        };
        if meta.is_symlink() {
            let link = here.join(&name);
            policy.judge(&link, &meta, "symbolic link")?;
            hop(hops, &link)?;
            let target = link_target(here.fd(), &name, &link)?;
            if target.is_absolute() {
                stack.truncate(1);
            }
            for step in steps(&target).into_iter().rev() {
                pending.push_front(step);
            }
            continue;
        }
        let next = here.subdir(&name)?;
        if (next.meta.dev, next.meta.ino) != (meta.dev, meta.ino) {
            return Err(Refusal::Raced(next.path));
        }
        stack.push(next);
    }
    Ok(stack.pop().expect("the root is never popped"))
}

/// A file named by a path, found as [`CheckedDir::open`] finds its
/// directory: a symlink at the end is followed too (plugins may be
/// symlinks), each hop judged. The directory it is in, its name there and
/// what it is.
pub fn resolve_file(policy: Policy, path: &Path) -> Result<(CheckedDir, OsString, Meta), Refusal> {
    let mut path = absolute(path)?;
    // One count for the directories' links and the file's, as the kernel
    // counts a path's: 40 in all are followed, the 41st is a loop.
    let mut hops = 0;
    loop {
        let Some(name) = path.file_name().map(OsStr::to_os_string) else {
            return Err(Refusal::Kind {
                path,
                is: "a directory",
                want: "a file",
            });
        };
        let parent = path.parent().unwrap_or(Path::new("/"));
        let dir = walk(policy, parent, None, &mut hops)?;
        let Some(meta) = dir.stat(&name)? else {
            return Err(Refusal::NotFound(dir.join(&name)));
        };
        if !meta.is_symlink() {
            return Ok((dir, name, meta));
        }
        let link = dir.join(&name);
        policy.judge(&link, &meta, "symbolic link")?;
        hop(&mut hops, &link)?;
        let target = link_target(dir.fd(), &name, &link)?;
        path = dir.path().join(target);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{PermissionsExt, symlink};

    fn dir() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        d
    }

    #[test]
    fn a_walk_resolves_symlinks_and_dots_itself() {
        let d = dir();
        let real = d.path().join("real/inner");
        std::fs::create_dir_all(&real).unwrap();
        symlink("real", d.path().join("link")).unwrap();
        let via = d.path().join("link/../link/./inner");
        let c = CheckedDir::open(Policy::strict(), &via).unwrap();
        assert_eq!(c.path(), std::fs::canonicalize(&real).unwrap());
        let direct = CheckedDir::open(Policy::strict(), &real).unwrap();
        assert!(c.same_as(&direct));
    }

    #[test]
    fn a_path_that_climbs_above_the_root_stays_at_the_root() {
        let d = dir();
        let real = std::fs::canonicalize(d.path()).unwrap();
        let direct = CheckedDir::open(Policy::strict(), &real).unwrap();
        // `/..` is `/`, however many times.
        let above = Path::new("/../../..").join(real.strip_prefix("/").unwrap());
        let c = CheckedDir::open(Policy::strict(), &above).unwrap();
        assert_eq!(c.path(), real);
        assert!(c.same_as(&direct));
        let first = real.components().nth(1).unwrap().as_os_str();
        let back = Path::new("/..").join(first).join("../..");
        assert_eq!(
            CheckedDir::open(Policy::strict(), &back).unwrap().path(),
            Path::new("/")
        );
        // A relative link with more `..` than the directory is deep.
        let depth = real.components().count();
        let up = vec![".."; depth + 3].join("/");
        symlink(&up, d.path().join("up")).unwrap();
        let c = CheckedDir::open(Policy::strict(), &d.path().join("up")).unwrap();
        assert_eq!(c.path(), Path::new("/"));
        let through = d.path().join("up").join(real.strip_prefix("/").unwrap());
        let c = CheckedDir::open(Policy::strict(), &through).unwrap();
        assert_eq!(c.path(), real);
        assert!(c.same_as(&direct));
        // And a file found through it.
        std::fs::write(real.join("f"), b"x").unwrap();
        let (dir, name, _) = resolve_file(Policy::strict(), &through.join("f")).unwrap();
        assert_eq!(
            (dir.path(), name.as_os_str()),
            (real.as_path(), OsStr::new("f"))
        );
    }

    /// `l1 -> target`, `l2 -> l1`, ... `ln`: a path through `n` links.
    fn chain(d: &Path, prefix: &str, target: &str, n: usize) -> PathBuf {
        let mut prev = target.to_string();
        for i in 1..=n {
            let name = format!("{prefix}{i}");
            symlink(&prev, d.join(&name)).unwrap();
            prev = name;
        }
        d.join(prev)
    }

    #[test]
    fn forty_links_are_followed_and_the_forty_first_is_a_loop() {
        let d = dir();
        std::fs::create_dir(d.path().join("real")).unwrap();
        std::fs::write(d.path().join("real/f"), b"x").unwrap();
        let real = std::fs::canonicalize(d.path().join("real")).unwrap();
        // As Linux counts them (`ls`, `cat` say the same).
        let forty = chain(d.path(), "d", "real", 40);
        assert_eq!(
            CheckedDir::open(Policy::strict(), &forty).unwrap().path(),
            real
        );
        let e = CheckedDir::open(Policy::strict(), &chain(d.path(), "e", "real", 41)).unwrap_err();
        assert!(matches!(e, Refusal::Loop(_)), "{e}");
        // A file: its links and those of its directory are one count.
        let forty = chain(d.path(), "f", "real/f", 40);
        let (dir, name, _) = resolve_file(Policy::strict(), &forty).unwrap();
        assert_eq!(
            (dir.path(), name.as_os_str()),
            (real.as_path(), OsStr::new("f"))
        );
        let e = resolve_file(Policy::strict(), &chain(d.path(), "g", "real/f", 41)).unwrap_err();
        assert!(matches!(e, Refusal::Loop(_)), "{e}");
        let twenty = chain(d.path(), "h", "real", 20);
        let file_links = chain(
            d.path(),
            "i",
            &format!("{}/f", twenty.file_name().unwrap().to_string_lossy()),
            20,
        );
        resolve_file(Policy::strict(), &file_links).unwrap();
        let one_more = chain(
            d.path(),
            "j",
            file_links.file_name().unwrap().to_str().unwrap(),
            1,
        );
        let e = resolve_file(Policy::strict(), &one_more).unwrap_err();
        assert!(matches!(e, Refusal::Loop(_)), "{e}");
    }

    #[test]
    fn a_symlink_opened_as_a_subdirectory_is_refused_as_a_symlink() {
        let d = dir();
        std::fs::create_dir(d.path().join("real")).unwrap();
        std::fs::write(d.path().join("file"), b"x").unwrap();
        symlink("real", d.path().join("link")).unwrap();
        let c = CheckedDir::open(Policy::strict(), d.path()).unwrap();
        c.subdir("real").unwrap();
        let e = c.subdir("link").unwrap_err();
        assert!(
            matches!(&e, Refusal::Symlink(p) if p.ends_with("link")),
            "{e}"
        );
        let e = c.subdir("file").unwrap_err();
        assert!(
            matches!(
                &e,
                Refusal::Kind {
                    want: "a directory",
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn a_writable_directory_on_the_way_is_refused_but_a_sticky_one_is_not() {
        let d = dir();
        let mid = d.path().join("mid");
        std::fs::create_dir_all(mid.join("leaf")).unwrap();
        std::fs::set_permissions(&mid, std::fs::Permissions::from_mode(0o777)).unwrap();
        let e = CheckedDir::open(Policy::strict(), &mid.join("leaf")).unwrap_err();
        assert!(matches!(e, Refusal::Writable { .. }), "{e}");
        assert!(e.to_string().contains("chmod go-w"), "{e}");
        assert!(CheckedDir::open(Policy::insecure(), &mid.join("leaf")).is_ok());
        std::fs::set_permissions(&mid, std::fs::Permissions::from_mode(0o1777)).unwrap();
        CheckedDir::open(Policy::strict(), &mid.join("leaf")).unwrap();
    }

    #[test]
    fn create_all_makes_what_is_missing_and_open_never_does() {
        let d = dir();
        let deep = d.path().join("a/b/c");
        assert!(
            CheckedDir::open(Policy::strict(), &deep)
                .unwrap_err()
                .is_not_found()
        );
        let c = CheckedDir::create_all(Policy::strict(), &deep, 0o700).unwrap();
        assert!(deep.is_dir());
        assert_eq!(c.path(), std::fs::canonicalize(&deep).unwrap());
    }

    #[test]
    fn leaf_files_are_never_symlinks_fifos_or_too_long() {
        let d = dir();
        let c = CheckedDir::open(Policy::strict(), d.path()).unwrap();
        std::fs::write(d.path().join("f"), b"12345").unwrap();
        std::fs::set_permissions(d.path().join("f"), std::fs::Permissions::from_mode(0o600))
            .unwrap();
        symlink("f", d.path().join("l")).unwrap();
        nix::unistd::mkfifo(&d.path().join("p"), nix::sys::stat::Mode::S_IRWXU).unwrap();
        assert_eq!(c.read("f", 5).unwrap(), b"12345");
        assert!(matches!(c.read("f", 4), Err(Refusal::TooLarge { .. })));
        assert!(matches!(c.read("l", 9), Err(Refusal::Symlink(_))));
        assert!(matches!(c.read("p", 9), Err(Refusal::Kind { .. })));
        assert!(c.read("none", 9).unwrap_err().is_not_found());
    }

    #[test]
    fn replace_is_atomic_and_leaves_no_temporary_file() {
        let d = dir();
        let c = CheckedDir::open(Policy::strict(), d.path()).unwrap();
        c.replace("x", b"one", 0o600, None).unwrap();
        c.replace("x", b"two", 0o644, None).unwrap();
        assert_eq!(std::fs::read(d.path().join("x")).unwrap(), b"two");
        let names: Vec<_> = c.entries().unwrap().into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, vec![OsString::from("x")]);
    }
}

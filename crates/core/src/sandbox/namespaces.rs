//! The namespaces of `strict`: a network namespace with nothing in it (not
//! even a loopback that is up), and a mount namespace whose `/tmp` is its
//! own. Both are made once per run by a short-lived thread (unshare(2) is
//! per thread for these), kept alive by their descriptors, and entered by
//! each child with setns(2): a namespace costs its making once, not once
//! per call.
//!
//! A call that needs something of the node's own `/tmp` (its plugin, its
//! volumes directory or a granted path lies there, as in a test's scratch
//! directory) gets a mount namespace of its own instead: the parent makes
//! a detached tmpfs (fsopen/fsmount) and a detached copy of each such path
//! (`open_tree`, read-only unless it is to be written), and the child
//! moves them into place after unshare(2). Nothing of the node's `/tmp`
//! but what the call names is there.
//!
//! In both, `/run` is an empty read-only tmpfs but for a read-only
//! `/run/systemd/resolve` ([`HiddenRun`]).

use std::ffi::CString;
use std::os::fd::{AsFd, AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use nix::libc;
use rustix::fs::{Mode, OFlags};
use rustix::mount::{
    FsMountFlags, FsOpenFlags, MountAttrFlags, MountPropagationFlags, OpenTreeFlags,
};

/// The run's shared namespaces.
#[derive(Debug)]
pub(super) struct Shared {
    pub net: OwnedFd,
    pub mnt: OwnedFd,
    /// The shared mount namespace's `/tmp`, for its Landlock rule.
    pub tmp: OwnedFd,
}

impl Shared {
    /// Makes them, on a thread of its own that ends right after.
    pub fn make() -> Result<Shared, String> {
        std::thread::scope(|s| {
            s.spawn(make_on_this_thread)
                .join()
                .unwrap_or_else(|_| Err("the thread making the namespaces panicked".into()))
        })
    }
}

fn make_on_this_thread() -> Result<Shared, String> {
    use rustix::thread::UnshareFlags;
    // SAFETY: FILES is not among the flags: descriptors stay shared.
    unsafe {
        rustix::thread::unshare_unsafe(
            UnshareFlags::FS | UnshareFlags::NEWNET | UnshareFlags::NEWNS,
        )
    }
    .map_err(|e| format!("cannot make a network and mount namespace (unshare): {e}"))?;
    // Nothing mounted here reaches the node; what the node mounts later
    // (a volume) still shows here.
    rustix::mount::mount_change(
        c"/",
        MountPropagationFlags::DOWNSTREAM | MountPropagationFlags::REC,
    )
    .map_err(|e| format!("cannot make / a slave mount in the new namespace: {e}"))?;
    rustix::mount::mount(
        c"tmpfs",
        c"/tmp",
        c"tmpfs",
        rustix::mount::MountFlags::NOSUID | rustix::mount::MountFlags::NODEV,
        c"mode=1777",
    )
    .map_err(|e| format!("cannot mount a private /tmp: {e}"))?;
    let run = HiddenRun::make()?;
    run.enter().map_err(|e| format!("cannot hide /run: {e}"))?;
    let open = |path: &std::ffi::CStr, flags: OFlags| {
        rustix::fs::open(path, flags | OFlags::CLOEXEC, Mode::empty())
            .map_err(|e| format!("cannot open {}: {e}", path.to_string_lossy()))
    };
    Ok(Shared {
        net: open(c"/proc/thread-self/ns/net", OFlags::RDONLY)?,
        mnt: open(c"/proc/thread-self/ns/mnt", OFlags::RDONLY)?,
        tmp: open(c"/tmp", OFlags::PATH | OFlags::DIRECTORY)?,
    })
}

/// `/run` hidden behind an empty read-only tmpfs: it is where the node's
/// services keep their Unix sockets (a container runtime's, systemd's),
/// and before Landlock ABI 9 no rule governs connecting to a socket by its
/// path. Only `/run/systemd/resolve` shows through, read-only (resolv.conf
/// points there on a node with systemd-resolved).
#[derive(Debug)]
pub(super) struct HiddenRun {
    tmpfs: OwnedFd,
    resolve: Option<OwnedFd>,
}

impl HiddenRun {
    /// Makes the detached tmpfs (with the mount point for resolve's copy)
    /// and the copy, from the mount namespace this thread is in.
    pub fn make() -> Result<HiddenRun, String> {
        let fail = |what: &str, e: rustix::io::Errno| format!("cannot hide /run ({what}): {e}");
        let fs = rustix::mount::fsopen(c"tmpfs", FsOpenFlags::FSOPEN_CLOEXEC)
            .map_err(|e| fail("fsopen", e))?;
        rustix::mount::fsconfig_set_string(fs.as_fd(), c"mode", c"0755")
            .and_then(|()| rustix::mount::fsconfig_set_string(fs.as_fd(), c"size", c"64k"))
            .and_then(|()| rustix::mount::fsconfig_create(fs.as_fd()))
            .map_err(|e| fail("fsconfig", e))?;
        let tmpfs = rustix::mount::fsmount(
            fs.as_fd(),
            FsMountFlags::FSMOUNT_CLOEXEC,
            MountAttrFlags::MOUNT_ATTR_NOSUID
                | MountAttrFlags::MOUNT_ATTR_NODEV
                | MountAttrFlags::MOUNT_ATTR_NOEXEC,
        )
        .map_err(|e| fail("fsmount", e))?;
        let resolve = Path::new("/run/systemd/resolve");
        let copy = if resolve.is_dir() {
            let copy = rustix::mount::open_tree(
                rustix::fs::CWD,
                resolve,
                OpenTreeFlags::OPEN_TREE_CLONE | OpenTreeFlags::OPEN_TREE_CLOEXEC,
            )
            .map_err(|e| fail("open_tree", e))?;
            set_attrs(
                &copy,
                MountAttrFlags::MOUNT_ATTR_RDONLY
                    | MountAttrFlags::MOUNT_ATTR_NOSUID
                    | MountAttrFlags::MOUNT_ATTR_NODEV
                    | MountAttrFlags::MOUNT_ATTR_NOEXEC,
            )
            .map_err(|e| format!("cannot hide /run (a read-only resolve): {e}"))?;
            mount_point(&tmpfs, Path::new("systemd/resolve"), true)
                .map_err(|e| format!("cannot hide /run (mkdir): {e}"))?;
            Some(copy)
        } else {
            None
        };
        set_attrs(&tmpfs, MountAttrFlags::MOUNT_ATTR_RDONLY)
            .map_err(|e| format!("cannot hide /run (read-only): {e}"))?;
        Ok(HiddenRun {
            tmpfs,
            resolve: copy,
        })
    }

    /// After the mount namespace is the caller's own: the tmpfs onto
    /// `/run`, resolve's copy into it. move_mount(2) only.
    pub fn enter(&self) -> std::io::Result<()> {
        move_mount(self.tmpfs.as_raw_fd(), c"/run".as_ptr())?;
        if let Some(copy) = &self.resolve {
            move_mount(copy.as_raw_fd(), c"/run/systemd/resolve".as_ptr())?;
        }
        Ok(())
    }
}

/// Whether `path` lies in the node's `/tmp`, which a private one hides.
pub(super) fn in_tmp(path: &Path) -> bool {
    path.starts_with("/tmp") && path != Path::new("/tmp")
}

/// One call's own mount namespace, prepared: its `/tmp` and the paths of
/// the node's `/tmp` it needs.
#[derive(Debug)]
pub(super) struct Private {
    /// The detached tmpfs, moved onto `/tmp`; also its Landlock rule.
    pub tmpfs: OwnedFd,
    /// Each path's detached copy and where it goes.
    exposed: Vec<(OwnedFd, CString)>,
    /// `/run`, hidden.
    run: HiddenRun,
}

impl Private {
    /// Makes the tmpfs and copies each `(path, writable)` of the node's
    /// `/tmp` (each must be there), with its mount point made inside the
    /// tmpfs.
    pub fn make(paths: &[(PathBuf, bool)]) -> Result<Private, String> {
        let fs = rustix::mount::fsopen(c"tmpfs", FsOpenFlags::FSOPEN_CLOEXEC)
            .map_err(|e| format!("cannot make a private /tmp (fsopen): {e}"))?;
        rustix::mount::fsconfig_set_string(fs.as_fd(), c"mode", c"1777")
            .and_then(|()| rustix::mount::fsconfig_create(fs.as_fd()))
            .map_err(|e| format!("cannot make a private /tmp (fsconfig): {e}"))?;
        let tmpfs = rustix::mount::fsmount(
            fs.as_fd(),
            FsMountFlags::FSMOUNT_CLOEXEC,
            MountAttrFlags::MOUNT_ATTR_NOSUID | MountAttrFlags::MOUNT_ATTR_NODEV,
        )
        .map_err(|e| format!("cannot make a private /tmp (fsmount): {e}"))?;
        let mut exposed = Vec::new();
        for (path, writable) in paths {
            let rel = path
                .strip_prefix("/tmp")
                .map_err(|_| format!("{} is not in /tmp", path.display()))?;
            let copy = rustix::mount::open_tree(
                rustix::fs::CWD,
                path.as_path(),
                OpenTreeFlags::OPEN_TREE_CLONE
                    | OpenTreeFlags::OPEN_TREE_CLOEXEC
                    | OpenTreeFlags::AT_RECURSIVE,
            )
            .map_err(|e| format!("cannot copy {} into the private /tmp: {e}", path.display()))?;
            let mut attrs = MountAttrFlags::MOUNT_ATTR_NOSUID | MountAttrFlags::MOUNT_ATTR_NODEV;
            if !writable {
                attrs |= MountAttrFlags::MOUNT_ATTR_RDONLY;
            }
            set_attrs(&copy, attrs).map_err(|e| {
                format!("cannot make the copy of {} read-only: {e}", path.display())
            })?;
            mount_point(&tmpfs, rel, path.is_dir())
                .map_err(|e| format!("cannot make {} in the private /tmp: {e}", path.display()))?;
            let target = CString::new(path.as_os_str().as_bytes())
                .map_err(|_| format!("{} holds a NUL byte", path.display()))?;
            exposed.push((copy, target));
        }
        Ok(Private {
            tmpfs,
            exposed,
            run: HiddenRun::make()?,
        })
    }

    /// In the child, after unshare(CLONE_NEWNS): the tmpfs onto `/tmp`,
    /// then each copy onto its place. move_mount(2) only.
    pub fn enter(&self) -> std::io::Result<()> {
        move_mount(self.tmpfs.as_raw_fd(), c"/tmp".as_ptr())?;
        for (copy, target) in &self.exposed {
            move_mount(copy.as_raw_fd(), target.as_ptr())?;
        }
        self.run.enter()
    }
}

fn move_mount(fd: RawFd, to: *const libc::c_char) -> std::io::Result<()> {
    // SAFETY: move_mount(fd, "", AT_FDCWD, to, F_EMPTY_PATH) on a detached
    // mount's descriptor and a C string prepared before the fork.
    let r = unsafe {
        libc::syscall(
            libc::SYS_move_mount,
            fd,
            c"".as_ptr(),
            libc::AT_FDCWD,
            to,
            0x4u32, // MOVE_MOUNT_F_EMPTY_PATH
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// mount_setattr(2) on a detached copy (rustix has no wrapper).
fn set_attrs(fd: &OwnedFd, set: MountAttrFlags) -> std::io::Result<()> {
    #[repr(C)]
    struct MountAttr {
        attr_set: u64,
        attr_clr: u64,
        propagation: u64,
        userns_fd: u64,
    }
    let attr = MountAttr {
        attr_set: u64::from(set.bits()),
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: mount_setattr(fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr,
    // sizeof attr) on our own descriptor.
    let r = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            fd.as_raw_fd(),
            c"".as_ptr(),
            libc::AT_EMPTY_PATH | 0x8000, // AT_RECURSIVE
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Makes `rel` (and its parents) inside the detached tmpfs: a directory,
/// or an empty file for a file to be mounted over.
fn mount_point(tmpfs: &OwnedFd, rel: &Path, dir: bool) -> std::io::Result<()> {
    let mut at = PathBuf::new();
    let parts: Vec<_> = rel.components().collect();
    for (i, part) in parts.iter().enumerate() {
        at.push(part);
        let last = i + 1 == parts.len();
        let made = if last && !dir {
            rustix::fs::openat(
                tmpfs,
                &at,
                OFlags::CREATE | OFlags::WRONLY | OFlags::CLOEXEC,
                Mode::from_raw_mode(0o600),
            )
            .map(drop)
        } else {
            rustix::fs::mkdirat(tmpfs, &at, Mode::from_raw_mode(0o755))
        };
        match made {
            Ok(()) | Err(rustix::io::Errno::EXIST) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

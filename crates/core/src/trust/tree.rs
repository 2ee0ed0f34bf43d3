//! Removing a whole tree as root without leaving it: every directory is
//! opened relative to its parent with `openat2(RESOLVE_NO_XDEV |
//! RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH)`, so no symlink is followed and no
//! mount point is crossed — a bind mount of the same file system included,
//! which a comparison of `st_dev` cannot see. The whole tree is walked once
//! before the first unlink ([`check_tree`]); the removal walks it again the
//! same way, so a mount that appears in between stops it instead of being
//! emptied.

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStringExt;
use std::path::PathBuf;

use rustix::fs::{AtFlags, FileType, Mode, OFlags, ResolveFlags};

use super::{CheckedDir, Refusal};

/// How deep a tree may go: each level holds a descriptor while the walk
/// is below it. A deeper orphan is left for a person.
pub const MAX_DEPTH: usize = 512;

fn errno(e: rustix::io::Errno) -> io::Error {
    io::Error::from_raw_os_error(e.raw_os_error())
}

/// One directory of the walk: its descriptor, its path (for messages) and
/// the subdirectories still to visit.
struct Frame {
    fd: OwnedFd,
    name: OsString,
    path: PathBuf,
    subdirs: Vec<OsString>,
}

pub(super) fn open_below(
    parent: BorrowedFd<'_>,
    name: &OsStr,
    path: &PathBuf,
) -> Result<OwnedFd, Refusal> {
    rustix::fs::openat2(
        parent,
        name,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
        ResolveFlags::NO_XDEV | ResolveFlags::NO_SYMLINKS | ResolveFlags::BENEATH,
    )
    .map_err(|e| match e {
        rustix::io::Errno::XDEV => Refusal::Mount(path.clone()),
        e => Refusal::io(path, errno(e)),
    })
}

/// A listing of an open directory, through a second descriptor of it made
/// close-on-exec: `dup` makes one without the flag, which a plugin another
/// thread starts meanwhile (the built-in `mkdir`'s delete runs beside other
/// calls) would inherit, a directory of the volumes its sandbox may not
/// read.
pub(super) fn listing(fd: BorrowedFd<'_>) -> rustix::io::Result<rustix::fs::Dir> {
    rustix::io::fcntl_dupfd_cloexec(fd, 0).and_then(rustix::fs::Dir::new)
}

/// The entries of an open directory: subdirectories apart, the rest with
/// their names. `unlink`: remove the rest on the way.
fn scan(fd: &OwnedFd, path: &PathBuf, unlink: bool) -> Result<Vec<OsString>, Refusal> {
    let dir = listing(fd.as_fd()).map_err(|e| Refusal::io(path, errno(e)))?;
    let mut subdirs = Vec::new();
    for entry in dir {
        let entry = entry.map_err(|e| Refusal::io(path, errno(e)))?;
        let raw = entry.file_name().to_bytes();
        if raw == b"." || raw == b".." {
            continue;
        }
        let name = OsString::from_vec(raw.to_vec());
        let kind = match entry.file_type() {
            FileType::Unknown => rustix::fs::statat(fd, &name, AtFlags::SYMLINK_NOFOLLOW)
                .map(|st| FileType::from_raw_mode(st.st_mode))
                .map_err(|e| Refusal::io(path.join(&name), errno(e)))?,
            k => k,
        };
        if kind == FileType::Directory {
            subdirs.push(name);
        } else if unlink {
            rustix::fs::unlinkat(fd, &name, AtFlags::empty())
                .map_err(|e| Refusal::io(path.join(&name), errno(e)))?;
        }
    }
    Ok(subdirs)
}

/// Walks `name` (an entry of `dir`) without leaving its mount, depth
/// first; with `unlink`, removes it on the way. A file or symlink is
/// removed itself.
fn walk(dir: &CheckedDir, name: &OsStr, unlink: bool) -> Result<(), Refusal> {
    let top = dir.join(name);
    let Some(meta) = dir.stat(name)? else {
        return Ok(());
    };
    if !meta.is_dir() {
        return if unlink { dir.unlink(name) } else { Ok(()) };
    }
    let fd = open_below(dir.fd(), name, &top)?;
    let subdirs = scan(&fd, &top, unlink)?;
    let mut frames = vec![Frame {
        fd,
        name: name.to_os_string(),
        path: top,
        subdirs,
    }];
    loop {
        let depth = frames.len();
        let Some(frame) = frames.last_mut() else {
            return Ok(());
        };
        if let Some(sub) = frame.subdirs.pop() {
            if depth >= MAX_DEPTH {
                return Err(Refusal::io(
                    frame.path.join(&sub),
                    io::Error::other(format!(
                        "nested deeper than {MAX_DEPTH} directories; left for a person"
                    )),
                ));
            }
            let path = frame.path.join(&sub);
            let fd = open_below(frame.fd.as_fd(), &sub, &path)?;
            let subdirs = scan(&fd, &path, unlink)?;
            frames.push(Frame {
                fd,
                name: sub,
                path,
                subdirs,
            });
            continue;
        }
        let done = frames.pop().expect("a frame was there");
        if unlink {
            let parent = frames.last().map(|f| f.fd.as_fd()).unwrap_or(dir.fd());
            drop(done.fd);
            rustix::fs::unlinkat(parent, &done.name, AtFlags::REMOVEDIR)
                .map_err(|e| Refusal::io(&done.path, errno(e)))?;
        }
    }
}

/// Whether `name` (an entry of `dir`) can be removed whole without
/// leaving `dir`'s mount or following a symlink: the whole tree is walked,
/// nothing is changed.
pub fn check_tree(dir: &CheckedDir, name: &OsStr) -> Result<(), Refusal> {
    walk(dir, name, false)
}

/// Removes `name` (an entry of `dir`) and everything below it, after
/// [`check_tree`] found the whole tree on `dir`'s mount: nothing is removed
/// when any part of it is another mount.
pub fn remove_tree(dir: &CheckedDir, name: &OsStr) -> Result<(), Refusal> {
    check_tree(dir, name)?;
    walk(dir, name, true)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_listing_holds_no_descriptor_a_plugin_would_inherit() {
        use std::os::fd::AsFd;
        let d = tempfile::tempdir().unwrap();
        let fd = std::fs::File::open(d.path()).unwrap();
        let listed = super::listing(fd.as_fd()).unwrap();
        let mut seen = 0;
        for entry in std::fs::read_dir("/proc/self/fd").unwrap().flatten() {
            let Ok(to) = std::fs::read_link(entry.path()) else {
                continue;
            };
            let Some(n) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<i32>().ok())
            else {
                continue;
            };
            if to != d.path() {
                continue;
            }
            seen += 1;
            // SAFETY: F_GETFD on a descriptor number reads its flags only.
            let flags = unsafe { nix::libc::fcntl(n, nix::libc::F_GETFD) };
            assert!(
                flags >= 0 && flags & nix::libc::FD_CLOEXEC != 0,
                "fd {n} is inherited"
            );
        }
        assert!(seen >= 2, "the listing's own descriptor was found ({seen})");
        drop(listed);
    }

    use super::*;
    use crate::trust::Policy;
    use std::os::unix::fs::symlink;

    #[test]
    fn removes_a_tree_but_never_what_a_symlink_points_to() {
        let d = tempfile::tempdir().unwrap();
        let keep = d.path().join("keep");
        std::fs::create_dir(&keep).unwrap();
        std::fs::write(keep.join("precious"), b"x").unwrap();
        let vols = d.path().join("vols");
        std::fs::create_dir_all(vols.join("orphan/a/b")).unwrap();
        std::fs::write(vols.join("orphan/a/b/f"), b"x").unwrap();
        symlink(&keep, vols.join("orphan/a/link")).unwrap();
        symlink(&keep, vols.join("top-link")).unwrap();
        let c = CheckedDir::open(Policy::strict(), &vols).unwrap();
        remove_tree(&c, OsStr::new("orphan")).unwrap();
        remove_tree(&c, OsStr::new("top-link")).unwrap();
        assert!(!vols.join("orphan").exists());
        assert!(!vols.join("top-link").exists());
        assert!(keep.join("precious").exists());
        // Gone already: nothing to do.
        remove_tree(&c, OsStr::new("orphan")).unwrap();
    }
}

//! How much a volume holds on disk, counted as root without leaving it.
//! A volume's files belong to whoever its workloads run as, and a plugin
//! may mount things inside it: a walk by path would follow a directory
//! swapped for a symlink between two steps, and `st_dev` cannot see a bind
//! mount of the same file system, so `volume audit` once counted all of
//! `/usr` bound into a volume as that volume's. This walk opens every
//! directory relative to its parent through the tree walk's `open_below`
//! (no symlink followed, no mount crossed), and leaves out every entry
//! that is itself the root of a mount, a bind-mounted file included.

use std::collections::HashSet;
use std::ffi::OsString;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStringExt;
use std::path::Path;
use std::rc::Rc;

use rustix::fs::{AtFlags, FileType, Mode, OFlags, ResolveFlags, Statx, StatxAttributes};
use rustix::fs::{StatxFlags, statx};

use super::tree::{MAX_DEPTH, open_below};
use super::{CheckedDir, Refusal};

/// What a walk counted.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Allocated bytes, as `du -s` counts them: the blocks of every entry,
    /// each hard-linked file once.
    pub bytes: u64,
    /// Mounts found inside and left out (not walked, not counted).
    pub mounts_left_out: u64,
    /// Directories deeper than [`MAX_DEPTH`], not walked.
    pub too_deep: u64,
    /// Directories and entries that were there but could not be opened,
    /// listed or looked at (out of descriptors: a walk holds one for each
    /// level with a directory still to read, and the audit walks several
    /// volumes at once; an I/O error), so not counted.
    pub unread: u64,
    /// Why the first of them could not be.
    pub unread_why: Option<String>,
}

/// Counts `rel` (a path below `dir`, which the caller has judged to lie
/// inside it) and everything below it. `rel` itself is reached with no
/// symlink followed; it may be a mount of its own (a plugin may mount an
/// image at the volume it makes), but nothing below it may. A symlink is
/// counted as itself. Entries that vanish or change kind during the
/// walk are not counted.
pub fn disk_usage(dir: &CheckedDir, rel: &Path) -> Result<Usage, Refusal> {
    let top = dir.join(rel);
    let io = |e: rustix::io::Errno| {
        Refusal::io(&top, std::io::Error::from_raw_os_error(e.raw_os_error()))
    };
    let root = rustix::fs::openat2(
        dir.fd(),
        rel,
        OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
        ResolveFlags::NO_SYMLINKS | ResolveFlags::BENEATH,
    )
    .map_err(io)?;
    let st = statx(&root, "", AtFlags::EMPTY_PATH, StatxFlags::BASIC_STATS).map_err(io)?;
    let mut walk = Walk::default();
    walk.count(&st);
    if FileType::from_raw_mode(u32::from(st.stx_mode)) != FileType::Directory {
        return Ok(walk.usage);
    }
    let fd = rustix::fs::openat(
        &root,
        ".",
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(io)?;
    // Directories still to read: the parent's descriptor (shared by its
    // children, so only one per level of the current branch stays open),
    // the name and the depth. No path per entry: a workload can nest 500
    // directories of 255-byte names and make thousands more at the bottom,
    // and a path kept for each would cost 128 KiB apiece (gigabytes of
    // root's memory for a few megabytes of its disk). A refusal's path is
    // never shown (an entry that cannot be opened is left out), so the
    // top's stands for all.
    let mut todo: Vec<(Rc<OwnedFd>, Option<OsString>, usize)> = vec![(Rc::new(fd), None, 1)];
    while let Some((parent, name, depth)) = todo.pop() {
        let fd = match name {
            None => parent,
            Some(name) => match open_below(parent.as_fd(), &name, &top) {
                Ok(fd) => Rc::new(fd),
                // Made a mount since it was counted: left out.
                Err(Refusal::Mount(_)) => {
                    walk.usage.mounts_left_out += 1;
                    continue;
                }
                // Gone, or made a symlink or a file since it was counted
                // (that is counted as itself no more): left out.
                Err(Refusal::NotFound(_) | Refusal::Loop(_)) => continue,
                Err(Refusal::Io { source, .. })
                    if source.raw_os_error() == Some(rustix::io::Errno::NOTDIR.raw_os_error()) =>
                {
                    continue;
                }
                // There, but not opened (out of descriptors): never
                // silently less, or a volume hides what it holds below.
                Err(r) => {
                    walk.unread(r.to_string());
                    continue;
                }
            },
        };
        let entries = match super::tree::listing(fd.as_fd()) {
            Ok(entries) => entries,
            Err(e) => {
                walk.unread(format!("{}: {e}", top.display()));
                continue;
            }
        };
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    walk.unread(format!("{}: {e}", top.display()));
                    break;
                }
            };
            let raw = entry.file_name().to_bytes();
            if raw == b"." || raw == b".." {
                continue;
            }
            let name = OsString::from_vec(raw.to_vec());
            let st = match statx(
                fd.as_fd(),
                &name,
                AtFlags::SYMLINK_NOFOLLOW,
                StatxFlags::BASIC_STATS,
            ) {
                Ok(st) => st,
                Err(rustix::io::Errno::NOENT) => continue,
                Err(e) => {
                    walk.unread(format!("{}: {e}", top.display()));
                    continue;
                }
            };
            if mount_root(&st) {
                walk.usage.mounts_left_out += 1;
                continue;
            }
            walk.count(&st);
            if FileType::from_raw_mode(u32::from(st.stx_mode)) == FileType::Directory {
                if depth >= MAX_DEPTH {
                    walk.usage.too_deep += 1;
                } else {
                    todo.push((Rc::clone(&fd), Some(name), depth + 1));
                }
            }
        }
    }
    Ok(walk.usage)
}

/// Whether the kernel says the entry is the root of a mount (Linux 5.8
/// and later say it; an older kernel's bind-mounted directory is still
/// left out by `open_below`, a bind-mounted file is counted).
fn mount_root(st: &Statx) -> bool {
    st.stx_attributes_mask.contains(StatxAttributes::MOUNT_ROOT)
        && st.stx_attributes.contains(StatxAttributes::MOUNT_ROOT)
}

#[derive(Default)]
struct Walk {
    usage: Usage,
    seen: HashSet<(u32, u32, u64)>,
}

impl Walk {
    fn unread(&mut self, why: String) {
        self.usage.unread += 1;
        self.usage.unread_why.get_or_insert(why);
    }

    fn count(&mut self, st: &Statx) {
        let dir = FileType::from_raw_mode(u32::from(st.stx_mode)) == FileType::Directory;
        if st.stx_nlink > 1
            && !dir
            && !self
                .seen
                .insert((st.stx_dev_major, st.stx_dev_minor, st.stx_ino))
        {
            return;
        }
        self.usage.bytes = self
            .usage
            .bytes
            .saturating_add(st.stx_blocks.saturating_mul(512));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trust::Policy;
    use std::os::unix::fs::symlink;

    #[test]
    fn counts_a_tree_once_and_never_what_a_symlink_points_to() {
        let d = tempfile::tempdir().unwrap();
        let outside = d.path().join("outside");
        std::fs::create_dir(&outside).unwrap();
        std::fs::write(outside.join("big"), vec![1u8; 1 << 20]).unwrap();
        let vols = d.path().join("vols");
        std::fs::create_dir_all(vols.join("v/a/b")).unwrap();
        std::fs::write(vols.join("v/a/b/f"), vec![1u8; 64 << 10]).unwrap();
        std::fs::hard_link(vols.join("v/a/b/f"), vols.join("v/a/f2")).unwrap();
        symlink(&outside, vols.join("v/a/link")).unwrap();
        symlink(&outside, vols.join("top-link")).unwrap();
        let c = CheckedDir::open(Policy::strict(), &vols).unwrap();
        let u = disk_usage(&c, Path::new("v")).unwrap();
        // The file once (64 KiB), three directories and a link: well
        // under the 1 MiB outside.
        assert!(u.bytes >= 64 << 10 && u.bytes < 1 << 20, "{u:?}");
        assert_eq!((u.mounts_left_out, u.too_deep), (0, 0));
        let link = disk_usage(&c, Path::new("top-link")).unwrap();
        assert!(link.bytes < 64 << 10, "{link:?}");
        // A path through a symlink is not followed to its end.
        assert!(disk_usage(&c, Path::new("top-link/big")).is_err());
        assert!(disk_usage(&c, Path::new("../outside")).is_err());
    }
}

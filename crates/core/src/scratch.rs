//! The scratch directories `test` and `replay` run real plugins in (a
//! volumes directory of their own under `$TMPDIR`), and how they go.
//!
//! A plugin's create may mount something at the volume it makes (a loop
//! image, an NFS share, a bind mount of a directory of the node's), and
//! its delete may fail, or never run when plugctl is stopped between the
//! two. A recursive removal that crosses into such a mount empties what is
//! mounted there: the node's own data, as root. A scratch directory is
//! therefore removed by the gate's walk ([`crate::trust::tree`]), which
//! never leaves the directory's own mount nor follows a symlink: one with
//! a mount left in it is left whole, and whoever removes it is told why.

use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};

use crate::trust::{CheckedDir, Policy, Refusal, tree};

/// A new directory (0700, a random name with `prefix`) under `$TMPDIR`,
/// removed when dropped (see [`remove`]) unless kept.
///
/// `$TMPDIR` goes through the trust gate first: a plugin is handed paths
/// below the scratch directory and makes, writes and removes what they
/// name, as root. Under a directory another user may write (not sticky,
/// as `/tmp` is), that user renames the new directory away and puts one of
/// theirs under its name, with a link where the volumes directory goes,
/// and the plugin then writes and removes wherever the link leads. A root
/// shell can carry a user's `TMPDIR` (`su` keeps it; libpam-tmpdir gives
/// every user one of their own).
#[derive(Debug)]
pub struct ScratchDir {
    path: Option<PathBuf>,
}

impl ScratchDir {
    pub fn new(prefix: &str, policy: Policy) -> Result<ScratchDir, Refusal> {
        let tmp = std::env::temp_dir();
        let parent = CheckedDir::open(policy, &tmp)?;
        // Made where the gate's walk arrived (no link on the way), so that
        // a link in `$TMPDIR`'s own path, changed after the check, leads
        // nowhere else.
        let dir = tempfile::Builder::new()
            .prefix(prefix)
            .tempdir_in(parent.path())
            .map_err(|e| Refusal::io(parent.path(), e))?;
        Ok(ScratchDir {
            path: Some(dir.keep()),
        })
    }

    pub fn path(&self) -> &Path {
        self.path.as_deref().unwrap_or(Path::new(""))
    }

    /// Leaves the directory where it is (`--keep`), and says where.
    pub fn keep(mut self) -> PathBuf {
        self.path.take().unwrap_or_default()
    }

    /// Removes it now, saying why not when it cannot be (a mount left in
    /// it: nothing of it is removed).
    pub fn remove(mut self) -> Result<(), Refusal> {
        match self.path.take() {
            Some(p) => remove(&p),
            None => Ok(()),
        }
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        if let Some(p) = self.path.take() {
            // Best effort where nobody is left to tell (an early return, a
            // stop): what cannot be removed without crossing a mount stays.
            let _ = remove(&p);
        }
    }
}

/// Removes the directory `path` and everything in it, reached through
/// descriptors and never leaving its own mount: when any part of it is
/// another mount (or too deep to walk), nothing is removed and the refusal
/// names it. One already gone is no error.
pub fn remove(path: &Path) -> Result<(), Refusal> {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(Refusal::io(
            path,
            io::Error::other("not a directory plugctl made"),
        ));
    };
    // Owners and modes are not the question here (plugctl made the
    // directory, under whatever `$TMPDIR` says): not leaving its mount and
    // following no link are.
    let dir = match CheckedDir::open(Policy::insecure(), parent) {
        Ok(dir) => dir,
        Err(r) if r.is_not_found() => return Ok(()),
        Err(r) => return Err(r),
    };
    tree::remove_tree(&dir, OsStr::new(name))
}

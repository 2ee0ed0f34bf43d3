//! The registry's files — the registry itself, its lock, its journal
//! segments and its owners directory — all in one directory reached
//! through the trust gate ([`crate::trust`]) and opened relative to it:
//! nothing here follows a symlink at the last component or blocks on a
//! FIFO, every descriptor is close-on-exec (a plugin must not inherit the
//! registry), anything but a regular file is refused at once, and reads
//! are bounded.
//!
//! Like OpenSSH's StrictModes, a registry (or any directory above it) that
//! group or others can write, or that belongs to someone other than the
//! invoking user or root, is refused: whoever can write it decides which
//! volume paths a root plugctl hands to plugins. `--allow-insecure-paths`
//! is the one override.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use crate::trust::{CheckedDir, Policy, Refusal};

/// The registry's directory, judged, and the registry file's name in it.
#[derive(Debug, Clone)]
pub struct Files {
    pub dir: CheckedDir,
    name: OsString,
}

/// The registry lock beside the registry: `<registry>.lock`.
pub const LOCK_SUFFIX: &str = ".lock";

/// The journal's segments beside the registry: `<registry>.journal.<N>`,
/// N zero-padded to at least eight digits.
pub const JOURNAL_SUFFIX: &str = ".journal.";

/// The owners directory beside the registry (its liveness locks):
/// `<registry>.owners`.
pub const OWNERS_SUFFIX: &str = ".owners";

/// The name of a file beside the registry: `<registry name><suffix>`.
pub fn sibling_name(registry: &OsStr, suffix: &str) -> OsString {
    let mut name = registry.to_os_string();
    name.push(suffix);
    name
}

fn file_name(registry: &Path) -> Result<&OsStr, Refusal> {
    registry.file_name().ok_or_else(|| Refusal::Kind {
        path: registry.to_path_buf(),
        is: "a directory",
        want: "a file",
    })
}

impl Files {
    /// The directory of `registry`, when it exists (`Ok(None)`: it does
    /// not, so neither does the registry).
    pub fn open(policy: Policy, registry: &Path) -> Result<Option<Files>, Refusal> {
        let name = file_name(registry)?.to_os_string();
        match CheckedDir::open(policy, super::parent_dir(registry)) {
            Ok(dir) => Ok(Some(Files { dir, name })),
            Err(r) if r.is_not_found() => Ok(None),
            Err(r) => Err(r),
        }
    }

    /// The directory of `registry`, made (0700) when it is missing.
    pub fn create(policy: Policy, registry: &Path) -> Result<Files, Refusal> {
        let name = file_name(registry)?.to_os_string();
        let dir = CheckedDir::create_all(policy, super::parent_dir(registry), 0o700)?;
        Ok(Files { dir, name })
    }

    /// The registry file's name.
    pub fn name(&self) -> &OsStr {
        &self.name
    }

    /// A file beside the registry: `<name><suffix>`.
    pub fn sibling(&self, suffix: &str) -> OsString {
        sibling_name(&self.name, suffix)
    }

    /// The path of an entry of the directory, for messages.
    pub fn path_of(&self, name: impl AsRef<OsStr>) -> PathBuf {
        self.dir.join(name.as_ref())
    }
}

//! What the checks look at: one entry of a family directory, read once
//! ([`Subject`]). The check modules (layout, permissions, runnable) depend
//! on this and on nothing else of `validate`, which only composes them.

use std::ffi::OsString;
use std::fs::{self, Metadata};
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::discovery::{self, EntryKind};

/// What a symlink entry resolves to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    /// Points at nothing (the text it holds).
    Broken(PathBuf),
    /// Resolves outside its family directory.
    Escapes(PathBuf),
    /// Resolves inside its family directory.
    Inside(PathBuf),
}

/// One entry of a family directory, with everything the static checks need,
/// read once.
#[derive(Debug)]
pub struct Subject {
    pub family: String,
    /// The file name (lossy when it is not UTF-8).
    pub name: String,
    /// `family/name`, the plugin field of findings.
    pub id: String,
    pub path: PathBuf,
    /// The name is valid UTF-8.
    pub utf8_name: bool,
    /// Set when the entry is a symlink.
    pub link: Option<Link>,
    /// What exec would open (symlinks followed), when it exists.
    pub meta: Option<Metadata>,
    /// The first bytes of a regular file (what the kernel looks at).
    pub head: Vec<u8>,
    /// Why the file could not be read (an 0711 plugin as a non-root user):
    /// its format is then unknown, not wrong.
    pub unreadable: Option<String>,
    /// How discovery classifies it on every release (plugctl's own rules).
    pub kind: EntryKind,
    /// Why Go's `os.Root`, with which Nomad 2.0.1+ looks up a host-volume
    /// plugin, refuses this symlink that plugctl follows.
    pub os_root: Option<String>,
}

impl Subject {
    /// Reads one entry. Never opens anything but a regular file, so a FIFO
    /// cannot block us.
    pub fn read(family: &str, name: OsString, dir: &Path, canonical_dir: &Path) -> Subject {
        let path = dir.join(&name);
        let utf8_name = name.to_str().is_some();
        let name = name.to_string_lossy().into_owned();
        let lmeta = fs::symlink_metadata(&path).ok();
        let link = match &lmeta {
            Some(m) if m.file_type().is_symlink() => Some(match fs::canonicalize(&path) {
                Ok(target) if target.starts_with(canonical_dir) => Link::Inside(target),
                Ok(target) => Link::Escapes(target),
                Err(_) => Link::Broken(fs::read_link(&path).unwrap_or_default()),
            }),
            _ => None,
        };
        let meta = fs::metadata(&path).ok();
        let (head, unreadable) = match &meta {
            Some(m) if m.is_file() => match read_head(&path) {
                Ok(h) => (h, None),
                Err(e) => (Vec::new(), Some(e.to_string())),
            },
            _ => (Vec::new(), None),
        };
        let kind = if !utf8_name {
            EntryKind::Rejected("name is not valid UTF-8".into())
        } else {
            discovery::classify(&path, canonical_dir)
        };
        // Judged per release (nomad.os-root, the matrix), not by the kind:
        // plugctl runs such a link, and Nomad does before 2.0.1.
        let os_root = match &link {
            Some(Link::Inside(_)) if crate::family::Family::HostVolume.is(family) => {
                discovery::os_root_refusal(dir, &name)
            }
            _ => None,
        };
        Subject {
            id: format!("{family}/{name}"),
            family: family.to_string(),
            name,
            path,
            utf8_name,
            link,
            meta,
            head,
            unreadable,
            kind,
            os_root,
        }
    }

    /// A regular file once symlinks are followed (and they stay inside).
    pub fn is_file(&self) -> bool {
        !matches!(self.link, Some(Link::Broken(_) | Link::Escapes(_)))
            && self.meta.as_ref().is_some_and(Metadata::is_file)
    }

    /// The mode bits of what exec would open.
    pub fn mode(&self) -> u32 {
        self.meta.as_ref().map_or(0, |m| m.permissions().mode())
    }

    /// The built-in this name shadows, if any.
    pub fn shadowed(&self) -> Option<&'static discovery::Builtin> {
        discovery::builtin(&self.family, &self.name)
    }
}

/// The first line's worth of a file: the kernel reads no more of a shebang.
/// Its first bytes, from a regular file only: the entry was one when it
/// was looked at, but another user may swap in a FIFO before it is opened
/// (an open of a FIFO with no writer would wait for ever), so it is opened
/// without blocking and judged by what was opened.
fn read_head(path: &Path) -> io::Result<Vec<u8>> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NONBLOCK)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("not a regular file any more"));
    }
    let mut head = Vec::with_capacity(256);
    file.take(256).read_to_end(&mut head)?;
    Ok(head)
}

#[cfg(test)]
mod tests {
    use super::read_head;

    /// An entry that was a regular file when listed and is a FIFO by the
    /// time it is read (another user swapped it): read at once as an
    /// error, never waited on for a writer that never comes.
    #[test]
    fn a_fifo_swapped_in_is_refused_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("plugin");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o644)).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(read_head(&fifo).map_err(|e| e.to_string()));
        });
        let got = rx
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("read_head waited on a FIFO");
        assert_eq!(got, Err("not a regular file any more".to_string()));
    }

    #[test]
    fn a_regular_file_gives_its_first_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("plugin");
        std::fs::write(&file, vec![b'x'; 1000]).unwrap();
        assert_eq!(read_head(&file).unwrap(), vec![b'x'; 256]);
    }
}

//! A directory plugctl only writes a file of its own into, whoever owns it:
//! node_exporter's textfile directory. On Debian that is
//! `/var/lib/prometheus/node-exporter`, below `/var/lib/prometheus`, which
//! the `prometheus-node-exporter` package gives to the `prometheus` user.
//! The owner rule of the rest of the gate would refuse it; nothing there
//! is read, so none is needed, and this is what makes a write there safe
//! instead:
//!
//! - the directory is opened once, from `/`, one component at a time
//!   (`openat(O_PATH | O_DIRECTORY | O_NOFOLLOW)` relative to the last),
//!   following no symlink at any step: a link anywhere on the way is
//!   refused, never read;
//! - everything after happens through that descriptor: the file is
//!   written under an exclusive temporary name (`O_CREAT | O_EXCL |
//!   O_NOFOLLOW`, random) and renamed over the old one with `renameat`,
//!   which replaces a name and never writes through what it names.
//!
//! So whoever owns a directory on the way can at most have the file land in
//! a directory of their own (by moving one in before plugctl opens the
//! path), never have root write through a link or into another file.

use std::ffi::OsString;
use std::io;
use std::path::{Component, Path, PathBuf};

use rustix::fs::{AtFlags, Mode, OFlags};

use super::{CheckedDir, Meta, Policy, Refusal};

fn errno(e: rustix::io::Errno) -> io::Error {
    io::Error::from_raw_os_error(e.raw_os_error())
}

/// Opens the directory `path` names (made absolute against the working
/// directory) for writing files of plugctl's own into, following no
/// symlink at any step and judging no owner. `..` is taken back a step
/// before anything is opened: with no symlink on the way, that is where
/// the kernel would go. A symlink on the way is [`Refusal::Symlink`]
/// naming it; a component that is not a directory, [`Refusal::Kind`].
pub fn open_output_dir(path: &Path) -> Result<CheckedDir, Refusal> {
    let path = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map_err(|e| Refusal::io(path, e))?
            .join(path)
    };
    let mut names: Vec<OsString> = Vec::new();
    for c in path.components() {
        match c {
            Component::Normal(n) => names.push(n.to_os_string()),
            Component::ParentDir => {
                names.pop();
            }
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let mut at = PathBuf::from("/");
    let mut fd = rustix::fs::openat(rustix::fs::CWD, "/", flags, Mode::empty())
        .map_err(|e| Refusal::io("/", errno(e)))?;
    for name in &names {
        let next = at.join(name);
        fd = match rustix::fs::openat(&fd, name, flags, Mode::empty()) {
            Ok(f) => f,
            // O_NOFOLLOW with O_PATH | O_DIRECTORY: a symlink is ENOTDIR
            // (or ELOOP); say which it was, from the entry itself.
            Err(e @ (rustix::io::Errno::NOTDIR | rustix::io::Errno::LOOP)) => {
                return Err(
                    match rustix::fs::statat(&fd, name, AtFlags::SYMLINK_NOFOLLOW) {
                        Ok(st) => {
                            let meta = Meta::of(&st);
                            if meta.is_symlink() {
                                Refusal::Symlink(next)
                            } else {
                                Refusal::Kind {
                                    path: next,
                                    is: meta.kind(),
                                    want: "a directory",
                                }
                            }
                        }
                        Err(_) => Refusal::io(next, errno(e)),
                    },
                );
            }
            Err(e) => return Err(Refusal::io(next, errno(e))),
        };
        at = next;
    }
    let meta = Meta::of(&rustix::fs::fstat(&fd).map_err(|e| Refusal::io(&at, errno(e)))?);
    // Nothing is read from it, so no owner is judged; its entries are
    // plugctl's own, made exclusively, and judged by the strict rules if
    // anything ever opened one.
    Ok(CheckedDir::from_parts(fd, at, meta, Policy::strict()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{PermissionsExt, symlink};

    #[test]
    fn a_symlink_at_any_step_is_refused_and_a_real_path_is_opened() {
        let d = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(d.path()).unwrap();
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        symlink("a", root.join("link")).unwrap();
        symlink("b", root.join("a/leaf-link")).unwrap();
        let opened = open_output_dir(&root.join("a/b")).unwrap();
        assert_eq!(opened.path(), root.join("a/b"));
        let dotted = open_output_dir(&root.join("a/../a/./b")).unwrap();
        assert!(dotted.same_as(&opened));
        for through in ["link/b", "a/leaf-link"] {
            match open_output_dir(&root.join(through)) {
                Err(Refusal::Symlink(p)) => {
                    assert!(p.ends_with(through.split('/').find(|c| c.contains("link")).unwrap()))
                }
                other => panic!("{through}: {other:?}"),
            }
        }
        std::fs::write(root.join("a/file"), "").unwrap();
        assert!(matches!(
            open_output_dir(&root.join("a/file")),
            Err(Refusal::Kind { .. })
        ));
        assert!(
            open_output_dir(&root.join("none"))
                .unwrap_err()
                .is_not_found()
        );
    }

    #[test]
    fn any_owner_and_mode_is_taken_for_a_directory_only_written_into() {
        let d = tempfile::tempdir().unwrap();
        let shared = std::fs::canonicalize(d.path()).unwrap().join("shared");
        std::fs::create_dir(&shared).unwrap();
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o777)).unwrap();
        let out = open_output_dir(&shared).unwrap();
        out.replace("x.prom", b"1\n", 0o644, None).unwrap();
        assert_eq!(std::fs::read(shared.join("x.prom")).unwrap(), b"1\n");
        let mode = std::fs::metadata(shared.join("x.prom"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o644);
    }
}

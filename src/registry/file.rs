//! Opening plugctl's own files as root, safely. Nothing here follows a
//! symlink at the last component (O_NOFOLLOW) or blocks on a FIFO
//! (O_NONBLOCK), every descriptor is close-on-exec (a plugin must not
//! inherit the registry), anything but a regular file is refused at once,
//! and a read never takes more than the file's size (plus one byte to see
//! it grow) or a configured ceiling.
//!
//! Like OpenSSH's StrictModes, a registry (or its directory) that group or
//! others can write, or that belongs to someone other than the invoking user
//! or root, is refused: whoever can write it decides which volume paths a
//! root plugctl hands to plugins. `--allow-insecure-paths` is the one
//! override.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

use nix::fcntl::OFlag;

/// What kind of file this is, for messages.
pub fn kind_of(meta: &Metadata) -> &'static str {
    let ft = meta.file_type();
    use std::os::unix::fs::FileTypeExt;
    if ft.is_dir() {
        "a directory"
    } else if ft.is_fifo() {
        "a FIFO"
    } else if ft.is_socket() {
        "a socket"
    } else if ft.is_block_device() || ft.is_char_device() {
        "a device"
    } else if ft.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    }
}

/// Why a file plugctl owns cannot be used.
#[derive(Debug)]
pub enum Refusal {
    /// Missing (for a read: an empty registry).
    NotFound,
    /// Not a regular file, or a symlink: the message says which.
    NotRegular(String),
    /// Larger than the ceiling.
    TooLarge {
        size: u64,
        max: u64,
    },
    /// Owner or mode others could abuse.
    Insecure(String),
    Io(io::Error),
}

fn open_flags() -> i32 {
    (OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC).bits()
}

/// Classifies an open error: ELOOP from O_NOFOLLOW means a symlink.
fn open_error(path: &Path, e: io::Error) -> Refusal {
    if e.kind() == io::ErrorKind::NotFound {
        return Refusal::NotFound;
    }
    if e.raw_os_error() == Some(nix::libc::ELOOP)
        && std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
    {
        return Refusal::NotRegular(
            "is a symbolic link, which plugctl never follows for its own files; point the \
             option at the real file"
                .into(),
        );
    }
    Refusal::Io(e)
}

fn require_regular(file: &File) -> Result<Metadata, Refusal> {
    let meta = file.metadata().map_err(Refusal::Io)?;
    if !meta.is_file() {
        return Err(Refusal::NotRegular(format!(
            "is {}, not a regular file",
            kind_of(&meta)
        )));
    }
    // A FIFO was refused above; a regular file never blocks, so the
    // O_NONBLOCK the open needed can go.
    let _ = nix::fcntl::fcntl(file, nix::fcntl::FcntlArg::F_SETFL(OFlag::empty()));
    Ok(meta)
}

/// Opens an existing file for reading: regular, not a symlink, at most
/// `max` bytes.
pub fn open_read(path: &Path, max: u64) -> Result<(File, Metadata), Refusal> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(open_flags())
        .open(path)
        .map_err(|e| open_error(path, e))?;
    let meta = require_regular(&file)?;
    if meta.len() > max {
        return Err(Refusal::TooLarge {
            size: meta.len(),
            max,
        });
    }
    Ok((file, meta))
}

/// Reads the whole of a file opened by [`open_read`]: at most its size as
/// fstat said, and an error (never an endless read) when it is longer.
pub fn read_bounded(file: File, meta: &Metadata) -> io::Result<Vec<u8>> {
    let size = meta.len();
    let mut buf = Vec::new();
    buf.try_reserve_exact(size as usize + 1).map_err(|_| {
        io::Error::new(
            io::ErrorKind::OutOfMemory,
            format!("cannot allocate {size} bytes to read it"),
        )
    })?;
    file.take(size + 1).read_to_end(&mut buf)?;
    if buf.len() as u64 > size {
        return Err(io::Error::other(
            "it grew while it was read (another process is writing it without the lock)",
        ));
    }
    Ok(buf)
}

/// Opens (creating if needed, 0600) the lock file for reading and writing,
/// never through a symlink and never a FIFO or device.
pub fn open_lock(path: &Path) -> Result<File, Refusal> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(open_flags())
        .open(path)
        .map_err(|e| open_error(path, e))?;
    require_regular(&file)?;
    Ok(file)
}

/// Opens an existing lock file (never creating one), as [`open_lock`].
pub fn open_lock_existing(path: &Path) -> Result<File, Refusal> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(open_flags())
        .open(path)
        .map_err(|e| open_error(path, e))?;
    require_regular(&file)?;
    Ok(file)
}

/// StrictModes for a registry file and its directory. `meta` of the file
/// when it exists.
pub fn check_trust(path: &Path, dir: &Path, file: Option<&Metadata>) -> Result<(), Refusal> {
    let me = nix::unistd::geteuid().as_raw();
    let owner_ok = |uid: u32| uid == me || uid == 0;
    if let Some(meta) = file {
        if !owner_ok(meta.uid()) {
            return Err(Refusal::Insecure(format!(
                "{} belongs to uid {}, not to uid {me} (who runs plugctl) or root; \
                 fix: chown {me} {}",
                path.display(),
                meta.uid(),
                path.display()
            )));
        }
        if meta.permissions().mode() & 0o022 != 0 {
            return Err(Refusal::Insecure(format!(
                "{} is writable by {} (mode {:04o}); fix: chmod go-w {}",
                path.display(),
                who_writes(meta.permissions().mode()),
                meta.permissions().mode() & 0o7777,
                path.display()
            )));
        }
    }
    let dmeta = match std::fs::metadata(dir) {
        Ok(m) => m,
        Err(_) => return Ok(()),
    };
    if !owner_ok(dmeta.uid()) {
        return Err(Refusal::Insecure(format!(
            "its directory {} belongs to uid {}, not to uid {me} or root; fix: chown {me} {}",
            dir.display(),
            dmeta.uid(),
            dir.display()
        )));
    }
    let mode = dmeta.permissions().mode();
    // A sticky directory (like /tmp) lets others create files but not
    // replace or remove ours.
    if mode & 0o022 != 0 && mode & 0o1000 == 0 {
        return Err(Refusal::Insecure(format!(
            "its directory {} is writable by {} (mode {:04o}); fix: chmod go-w {}",
            dir.display(),
            who_writes(mode),
            mode & 0o7777,
            dir.display()
        )));
    }
    Ok(())
}

fn who_writes(mode: u32) -> &'static str {
    match (mode & 0o020 != 0, mode & 0o002 != 0) {
        (true, true) => "group and others",
        (true, false) => "its group",
        _ => "others",
    }
}

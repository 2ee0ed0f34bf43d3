//! Pinning: what exactly a plugin file is, written down so that a later run
//! can tell whether it is still the file CI approved. A pin is the file's
//! sha256 and size, and for a `#!` script the interpreter's path and sha256
//! (a script is only as trustworthy as what runs it). The lock file is JSON
//! in a stable order, one entry per plugin, so it diffs well in git.
//!
//! Hashing never runs the plugin: `pin` only reads files. The version comes
//! from the plugin's last fingerprint in the registry.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::{Error, Result};

/// The lock file's own format version; a newer one is refused.
pub const LOCK_SCHEMA_VERSION: u32 = 1;

/// The default lock file name, at the top of the plugin directory.
pub const LOCK_FILE_NAME: &str = "plugctl.lock";

/// The interpreter line of a script is read from at most this many bytes,
/// as the kernel reads at most a page of it.
const SHEBANG_MAX: usize = 256;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interpreter {
    pub path: String,
    /// None when the interpreter cannot be read (it is missing: the plugin
    /// cannot run either, and that is what the pin records).
    pub sha256: Option<String>,
}

/// What one plugin file is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pin {
    #[serde(rename = "type")]
    pub family: String,
    pub name: String,
    pub sha256: String,
    pub size: u64,
    /// The version its last fingerprint reported; None when it has not been
    /// fingerprinted healthy.
    pub version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interpreter: Option<Interpreter>,
}

impl Pin {
    /// Whether the file is the same: content and interpreter. The version is
    /// what a fingerprint said, not a property of the file, so it is left out.
    pub fn same_file(&self, other: &Pin) -> bool {
        self.sha256 == other.sha256
            && self.size == other.size
            && self.interpreter == other.interpreter
    }
}

/// The lock file: every pinned plugin, sorted by (type, name).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockFile {
    pub schema_version: u32,
    pub plugins: Vec<Pin>,
}

impl LockFile {
    pub fn new(plugins: Vec<Pin>) -> LockFile {
        let mut lock = LockFile {
            schema_version: LOCK_SCHEMA_VERSION,
            plugins,
        };
        lock.sort();
        lock
    }

    fn sort(&mut self) {
        self.plugins
            .sort_by(|a, b| (&a.family, &a.name).cmp(&(&b.family, &b.name)));
    }

    /// The pins by (type, name).
    pub fn by_key(&self) -> BTreeMap<(String, String), &Pin> {
        self.plugins
            .iter()
            .map(|p| ((p.family.clone(), p.name.clone()), p))
            .collect()
    }

    /// Reads a lock file; Ok(None) when there is none. It is plugctl's own
    /// configuration, so anything else wrong with it is a configuration
    /// error naming the path.
    pub fn load(path: &Path) -> Result<Option<LockFile>> {
        let bad = |msg: String| Error::usage(format!("lock file {}: {msg}", path.display()));
        let file = match open_regular(path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            // O_NOFOLLOW says ELOOP; say what it means.
            Err(_) if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) => {
                return Err(bad(
                    "is a symbolic link, which plugctl does not follow: replace it with the file, or pass --lockfile".into(),
                ));
            }
            Err(e) => return Err(bad(e.to_string())),
        };
        // A lock file has one small entry per plugin; a huge one is not ours.
        let mut text = String::new();
        file.take(64 << 20)
            .read_to_string(&mut text)
            .map_err(|e| bad(format!("cannot read: {e}")))?;
        let lock: LockFile = serde_json::from_str(&text)
            .map_err(|e| bad(format!("not a plugctl lock file: {e}")))?;
        if lock.schema_version > LOCK_SCHEMA_VERSION {
            return Err(bad(format!(
                "written by a newer plugctl (schema_version {}; this one reads {LOCK_SCHEMA_VERSION})",
                lock.schema_version
            )));
        }
        Ok(Some(lock))
    }

    /// Writes the lock file atomically: a temporary file beside it, fsynced,
    /// renamed over the old one.
    pub fn save(&self, path: &Path) -> Result<()> {
        let dir = path.parent().unwrap_or(Path::new("."));
        let io_err = |what: &str, e: io::Error| {
            Error::io(format!("cannot {what} lock file {}", path.display()), e)
        };
        let mut text =
            serde_json::to_string_pretty(self).map_err(|e| io_err("encode", e.into()))?;
        text.push('\n');
        let mut tmp = tempfile::Builder::new()
            .prefix(".plugctl.lock.")
            .tempfile_in(dir)
            .map_err(|e| io_err("write", e))?;
        use std::io::Write;
        tmp.write_all(text.as_bytes())
            .and_then(|()| tmp.as_file().sync_all())
            .map_err(|e| io_err("write", e))?;
        // A lock file is read by people and CI: not secret, 0644 like a
        // Cargo.lock (tempfile makes it 0600).
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))
            .map_err(|e| io_err("write", e))?;
        tmp.persist(path).map_err(|e| io_err("replace", e.error))?;
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

/// Opens a file for reading without following a final symlink and without
/// blocking on a FIFO; anything but a regular file is refused.
fn open_regular(path: &Path) -> io::Result<File> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc_flags())
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    Ok(file)
}

fn libc_flags() -> i32 {
    (nix::fcntl::OFlag::O_NOFOLLOW | nix::fcntl::OFlag::O_NONBLOCK).bits()
}

/// The sha256 of an open file, read to its end, and the number of bytes read.
pub fn hash_reader(mut r: impl Read) -> io::Result<(String, u64)> {
    // One buffer per thread, reused: `pin --check` hashes hundreds of small
    // files, and a fresh zeroed 64 KiB for each was a tenth of its time.
    thread_local! {
        static BUF: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(vec![0u8; 64 * 1024]);
    }
    let mut hash = |buf: &mut Vec<u8>| {
        let mut hasher = Sha256::new();
        let mut total = 0u64;
        loop {
            let n = match r.read(buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            hasher.update(&buf[..n]);
            total += n as u64;
        }
        Ok((hex(&hasher.finalize()), total))
    };
    // A reader that itself hashes (on this thread) gets a buffer of its own.
    BUF.with(|cell| match cell.try_borrow_mut() {
        Ok(mut buf) => hash(&mut buf),
        Err(_) => hash(&mut vec![0u8; 64 * 1024]),
    })
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 0xf)]));
    }
    s
}

/// The interpreter named by a `#!` line, as the kernel reads it: the first
/// word after `#!`, up to the end of the line.
pub fn shebang(head: &[u8]) -> Option<String> {
    let rest = head.strip_prefix(b"#!")?;
    let line = rest.split(|&b| b == b'\n').next()?;
    let line = String::from_utf8_lossy(line);
    line.split_ascii_whitespace().next().map(str::to_string)
}

/// Pins one plugin file: hashed through one open descriptor (a symlink the
/// discovery already confined is followed), so the size, the hash and the
/// interpreter line all come from the same file.
pub fn pin_file(family: &str, name: &str, path: &Path, version: Option<String>) -> io::Result<Pin> {
    let file = File::open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    pin_open(family, name, file, version)
}

/// [`pin_file`] on a file already open (read from its current offset, 0).
pub fn pin_open(
    family: &str,
    name: &str,
    mut file: File,
    version: Option<String>,
) -> io::Result<Pin> {
    let mut head = vec![0u8; SHEBANG_MAX];
    let mut got = 0;
    while got < head.len() {
        match file.read(&mut head[got..])? {
            0 => break,
            n => got += n,
        }
    }
    head.truncate(got);
    // A file shorter than the head was read to its end already: no
    // further read (most plugin scripts are that short).
    let (sha256, rest) = if got < SHEBANG_MAX {
        (hex(&Sha256::digest(&head)), got as u64)
    } else {
        hash_reader(io::Cursor::new(&head).chain(&mut file))?
    };
    let interpreter = shebang(&head).map(|p| Interpreter {
        sha256: hash_interpreter(&p),
        path: p,
    });
    Ok(Pin {
        family: family.to_string(),
        name: name.to_string(),
        sha256,
        size: rest,
        version,
        interpreter,
    })
}

/// Interpreters hashed so far in this process: 200 `#!/bin/sh` plugins share
/// one `/bin/sh`, hashed once.
static INTERPRETERS: std::sync::LazyLock<std::sync::Mutex<BTreeMap<String, Option<String>>>> =
    std::sync::LazyLock::new(Default::default);

fn hash_interpreter(path: &str) -> Option<String> {
    let mut cache = INTERPRETERS.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry(path.to_string())
        .or_insert_with(|| hash_path(Path::new(path)).ok())
        .clone()
}

fn hash_path(path: &Path) -> io::Result<String> {
    let file = File::open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    hash_reader(file).map(|(h, _)| h)
}

/// The lock file's path: `--lockfile`, else `plugctl.lock` in the plugin dir.
pub fn default_path(plugin_dir: &Path) -> PathBuf {
    plugin_dir.join(LOCK_FILE_NAME)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_known_input() {
        // The FIPS 180-2 test vector for "abc".
        let (h, n) = hash_reader(&b"abc"[..]).unwrap();
        assert_eq!(
            h,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(n, 3);
    }

    #[test]
    fn a_file_hashes_the_same_whatever_its_length() {
        // Short files are hashed from the head alone, longer ones through
        // the buffer: both must give the file's own sha256 and size.
        for len in [0, 1, 255, 256, 257, 64 * 1024, 200_000] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
            let mut f = tempfile::tempfile().unwrap();
            std::io::Write::write_all(&mut f, &bytes).unwrap();
            std::io::Seek::rewind(&mut f).unwrap();
            let pin = pin_open(crate::family::Family::HostVolume.name(), "x", f, None).unwrap();
            assert_eq!(pin.size, len as u64, "size of {len} bytes");
            assert_eq!(
                pin.sha256,
                hex(&Sha256::digest(&bytes)),
                "sha of {len} bytes"
            );
        }
    }

    #[test]
    fn shebang_is_the_first_word() {
        assert_eq!(shebang(b"#!/bin/sh\necho"), Some("/bin/sh".into()));
        assert_eq!(
            shebang(b"#! /usr/bin/env python3\n"),
            Some("/usr/bin/env".into())
        );
        assert_eq!(shebang(b"\x7fELF"), None);
        assert_eq!(shebang(b"#!\n"), None);
    }

    #[test]
    fn same_file_ignores_the_version() {
        let a = Pin {
            family: crate::family::Family::Secrets.name().into(),
            name: "x".into(),
            sha256: "aa".into(),
            size: 1,
            version: Some("1.0.0".into()),
            interpreter: None,
        };
        let mut b = a.clone();
        b.version = None;
        assert!(a.same_file(&b));
        b.sha256 = "bb".into();
        assert!(!a.same_file(&b));
    }
}

//! Pinning: what exactly a plugin file is, written down so that a later run
//! can tell whether it is still the file CI approved. A pin is the file's
//! sha256 and size, and for a `#!` script the interpreter's path, where its
//! symlinks lead and its sha256, and for `#!/usr/bin/env X` the same of the
//! `X` that `env` runs (a script is only as trustworthy as what runs it).
//! The lock file is JSON in a stable order, one entry per plugin, so it
//! diffs well in git. It is read and written through the trust gate: a lock
//! file another user owns or can write approves nothing.
//!
//! Hashing never runs the plugin: `pin` only reads files. The version comes
//! from the plugin's last fingerprint in the registry.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::identity::FileIdentity;
use crate::trust::program::{SHEBANG_MAX, Shebang, env_lookup};
use crate::trust::{CheckedDir, Policy};
use crate::{Error, Result};

/// The lock file's own format version; a newer one is refused.
pub const LOCK_SCHEMA_VERSION: u32 = 1;

/// The default lock file name, at the top of the plugin directory.
pub const LOCK_FILE_NAME: &str = "plugctl.lock";

/// The largest lock file plugctl reads: one small entry per plugin.
pub const LOCK_FILE_MAX: u64 = 64 << 20;

/// The largest plugin or interpreter plugctl hashes (1 GiB): many times
/// any real one (a static Go plugin is tens of MiB, node or a JVM's
/// launcher less). A larger file is refused by its size before a byte is
/// read: a sparse file of a terabyte, which costs another user nothing to
/// put where a `#!` line points or in a sticky plugin directory, would
/// otherwise hold `pin` hashing zeros for hours.
pub const PROGRAM_MAX: u64 = 1 << 30;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interpreter {
    /// As the `#!` line (or `env`) names it.
    pub path: String,
    /// None when the interpreter cannot be read (it is missing: the plugin
    /// cannot run either, and that is what the pin records).
    pub sha256: Option<String>,
    /// Where its symlinks lead (`/bin/sh` → `/usr/bin/dash`): a link
    /// pointed elsewhere is a change even when both files hash alike.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved: Option<String>,
    /// For `#!/usr/bin/env X`: the `X` env runs, found as env finds it
    /// with `PATH` unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runs: Option<Box<Interpreter>>,
    /// Its size in bytes, where it was read: a drift check compares it
    /// before it reads anything, and never reads past it. (None in a lock
    /// file written before sizes were pinned.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
}

impl Interpreter {
    /// Whether this interpreter is the `pinned` one (either way round). A
    /// pin written before interpreters' sizes were recorded is compared
    /// without one: an upgrade of plugctl is no drift (the hashes still
    /// say whether the content is the same).
    pub fn matches(&self, pinned: &Interpreter) -> bool {
        let sizes_agree = match (self.size, pinned.size) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        };
        self.path == pinned.path
            && self.sha256 == pinned.sha256
            && self.resolved == pinned.resolved
            && sizes_agree
            && match (&self.runs, &pinned.runs) {
                (None, None) => true,
                (Some(now), Some(pinned)) => now.matches(pinned),
                _ => false,
            }
    }

    fn missing(named: &str) -> Interpreter {
        Interpreter {
            path: named.to_string(),
            sha256: None,
            resolved: None,
            runs: None,
            size: None,
        }
    }
}

/// Whether `now` is the `pinned` interpreter (either way round), or both
/// are none.
pub fn same_interpreter(now: Option<&Interpreter>, pinned: Option<&Interpreter>) -> bool {
    match (now, pinned) {
        (None, None) => true,
        (Some(now), Some(pinned)) => now.matches(pinned),
        _ => false,
    }
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
    /// The sha256 of the plugin's sandbox policy (its entry in the policy
    /// file beside the lock file, in its canonical form); None when it has
    /// none. What a plugin may do is part of what was approved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<String>,
}

impl Pin {
    /// Whether the file is the same: content and interpreter. The version is
    /// what a fingerprint said, not a property of the file, so it is left out.
    pub fn same_file(&self, other: &Pin) -> bool {
        self.sha256 == other.sha256
            && self.size == other.size
            && same_interpreter(self.interpreter.as_ref(), other.interpreter.as_ref())
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

    /// Reads a lock file through the trust gate; Ok(None) when there is
    /// none. Whoever can write it approves what `--locked` runs, so one
    /// that another user owns or can write (or that sits below such a
    /// directory) is refused unless `policy` lifts the rule. It is
    /// plugctl's own configuration, so anything wrong with it is a
    /// configuration error naming the path.
    pub fn load(path: &Path, policy: Policy) -> Result<Option<LockFile>> {
        let bad = |msg: String| Error::usage(format!("lock file {}: {msg}", path.display()));
        let refused = |r: crate::trust::Refusal| match r {
            crate::trust::Refusal::Symlink(_) => bad(
                "is a symbolic link, which plugctl does not follow: replace it with the file, \
                 or name the real one"
                    .into(),
            ),
            r => Error::refused(format_args!("lock file {}", path.display()), &r),
        };
        let name = path.file_name().unwrap_or_default();
        let dir = match CheckedDir::open(policy, crate::registry::parent_dir(path)) {
            Ok(d) => d,
            Err(r) if r.is_not_found() => return Ok(None),
            Err(r) => return Err(refused(r)),
        };
        // A lock file has one small entry per plugin; a huge one is not ours.
        let bytes = match dir.read(name, LOCK_FILE_MAX) {
            Ok(b) => b,
            Err(r) if r.is_not_found() => return Ok(None),
            Err(r) => return Err(refused(r)),
        };
        let lock: LockFile = serde_json::from_slice(&bytes)
            .map_err(|e| bad(format!("not a plugctl lock file: {e}")))?;
        if lock.schema_version > LOCK_SCHEMA_VERSION {
            return Err(bad(format!(
                "written by a newer plugctl (schema_version {}; this one reads {LOCK_SCHEMA_VERSION})",
                lock.schema_version
            )));
        }
        Ok(Some(lock))
    }

    /// Writes the lock file with the gate's atomic replace (a temporary
    /// file beside it, fsynced, renamed over the old one), into a
    /// directory the gate trusts. A lock file is read by people and CI: not
    /// secret, 0644 like a Cargo.lock.
    pub fn save(&self, path: &Path, policy: Policy) -> Result<()> {
        let io_err = |what: &str, e: io::Error| {
            Error::io(format!("cannot {what} lock file {}", path.display()), e)
        };
        let mut text =
            serde_json::to_string_pretty(self).map_err(|e| io_err("encode", e.into()))?;
        text.push('\n');
        let name = path.file_name().unwrap_or_default();
        let dir = CheckedDir::open(policy, crate::registry::parent_dir(path))
            .map_err(|r| Error::refused(format_args!("lock file {}", path.display()), &r))?;
        dir.replace(name, text.as_bytes(), 0o644, None)
            .map_err(|(_, r)| match r {
                crate::trust::Refusal::Io { source, .. } => io_err("write", source),
                r => Error::usage(format!("lock file {}: {r}", path.display())),
            })
    }
}

/// The head of `file` (its first [`SHEBANG_MAX`] bytes, where a `#!` line
/// is), the sha256 of all of it from its current offset and the number of
/// bytes read: to its end, or to one byte past `max` (a file that grew
/// past it is another file, whatever follows).
fn read_and_hash(file: &mut File, max: u64) -> io::Result<(Vec<u8>, String, u64)> {
    let mut bounded = file.take(max.saturating_add(1));
    let mut head = vec![0u8; SHEBANG_MAX];
    let mut got = 0;
    while got < head.len() {
        match bounded.read(&mut head[got..])? {
            0 => break,
            n => got += n,
        }
    }
    head.truncate(got);
    // A file shorter than the head was read to its end already: no
    // further read (most plugin scripts are that short).
    let (sha256, size) = if got < SHEBANG_MAX {
        (hex(&Sha256::digest(&head)), got as u64)
    } else {
        hash_reader(io::Cursor::new(&head).chain(&mut bounded))?
    };
    Ok((head, sha256, size))
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
/// word after `#!`.
pub fn shebang(head: &[u8]) -> Option<String> {
    Shebang::parse(head).map(|s| s.interpreter)
}

/// What pins plugins: hashes files and remembers the programs their `#!`
/// lines name, each found, opened and hashed once, so 200 `#!/bin/sh`
/// plugins share one walk to `/bin/sh` and one hash of it (and two names
/// of one file, by its identity, one hash). One per command (or per
/// `--locked` gate): what it remembers lives as long as its owner, not the
/// process, and an interpreter replaced meanwhile is seen by the next
/// command.
#[derive(Debug, Default)]
pub struct Pinner {
    hashed: std::sync::Mutex<HashCache>,
    /// Each program a `#!` line named, as found the first time: the walk
    /// to it, its hash and its open descriptor are had once a command, so
    /// 200 `#!/bin/sh` plugins share one walk to `/bin/sh` and, under
    /// `--locked`, all run the one descriptor that was hashed.
    found: std::sync::Mutex<BTreeMap<(String, PathBuf), Found>>,
    /// Each plugin directory walked to through the gate, once a command:
    /// 200 plugins of one directory share one walk from `/`.
    dirs: std::sync::Mutex<BTreeMap<PathBuf, crate::trust::CheckedDir>>,
}

/// A program as [`Pinner::hash_program`] found it.
type Found = (Interpreter, Option<OpenInterpreter>);

impl Pinner {
    /// Pins one plugin file: hashed through one open descriptor (a symlink
    /// the discovery already confined is followed), so the size, the hash
    /// and the interpreter line all come from the same file.
    pub fn pin_file(
        &self,
        family: &str,
        name: &str,
        path: &Path,
        version: Option<String>,
    ) -> io::Result<Pin> {
        // Through the gate's walk, as an interpreter is found: the file
        // may be anyone's (`metrics` compares what is there now), and a
        // FIFO or a device under a plugin's name is refused before a read,
        // never waited on.
        let refused = |r: crate::trust::Refusal| io::Error::other(r.to_string());
        let (dir, file_name) = self.find(path).map_err(refused)?;
        let (file, _) = dir.open_read(&file_name, PROGRAM_MAX).map_err(refused)?;
        self.pin_open(family, name, file, version)
    }

    /// Whether the file at `path` still is the one `pin` recorded: its
    /// size, its content and its interpreter. Found through the gate's
    /// walk as [`Pinner::pin_file`] finds it (the file may be anyone's),
    /// but never read past the pinned size: a file of another size is
    /// another file, told without a read, and one that grows while it is
    /// read is read one byte past it. A sparse file of terabytes that
    /// another user put under a pinned name would otherwise be hashed for
    /// hours. The interpreter is looked at only when the content is the
    /// pinned one (then so is its `#!` line).
    pub fn still_pinned(&self, pin: &Pin, path: &Path) -> bool {
        let Ok((dir, file_name)) = self.find(path) else {
            return false;
        };
        let Ok((mut file, meta)) = dir.open_read(&file_name, pin.size) else {
            return false;
        };
        if meta.size != pin.size {
            return false;
        }
        let Ok((head, sha256, size)) = read_and_hash(&mut file, pin.size) else {
            return false;
        };
        if sha256 != pin.sha256 || size != pin.size {
            return false;
        }
        // Its interpreter likewise: never read past the size it had when
        // pinned (a sparse file where the `#!` line points is no reason to
        // read for hours either).
        let interpreter = Shebang::parse(&head).map(|shebang| {
            self.interpreter_within(&shebang, None, pin.interpreter.as_ref())
                .0
        });
        same_interpreter(interpreter.as_ref(), pin.interpreter.as_ref())
    }

    /// The directory `path` is in, through the gate's walk, and its name
    /// there: the directory walked to once a command, the entry looked at
    /// each time (a symlink is resolved by the gate's own walk, as
    /// `resolve_file` does for any path).
    fn find(
        &self,
        path: &Path,
    ) -> Result<(crate::trust::CheckedDir, std::ffi::OsString), crate::trust::Refusal> {
        if let (Some(parent), Some(name)) = (path.parent(), path.file_name()) {
            let known = self
                .dirs
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(parent)
                .cloned();
            let dir = match known {
                Some(dir) => Some(dir),
                None => crate::trust::CheckedDir::open(Policy::insecure(), parent)
                    .ok()
                    .inspect(|dir| {
                        self.dirs
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .insert(parent.to_path_buf(), dir.clone());
                    }),
            };
            if let Some(dir) = dir
                && matches!(dir.stat(name), Ok(Some(m)) if !m.is_symlink())
            {
                return Ok((dir, name.to_os_string()));
            }
        }
        let (dir, name, _) = crate::trust::dir::resolve_file(Policy::insecure(), path)?;
        Ok((dir, name))
    }

    /// [`Pinner::pin_file`] on a file already open (read from its current
    /// offset, 0).
    pub fn pin_open(
        &self,
        family: &str,
        name: &str,
        file: File,
        version: Option<String>,
    ) -> io::Result<Pin> {
        self.pin_for_exec(family, name, file, version, None)
            .map(|(pin, _)| pin)
    }

    /// [`Pinner::pin_open`], and for a `#!` script what runs it, held open
    /// through the descriptor that was hashed (for `--locked`). `path`:
    /// the `PATH` the plugin gets (`None`: unset, as a fingerprint runs),
    /// on which `#!/usr/bin/env X` finds `X`.
    pub fn pin_for_exec(
        &self,
        family: &str,
        name: &str,
        mut file: File,
        version: Option<String>,
        path: Option<&std::ffi::OsStr>,
    ) -> io::Result<(Pin, Option<Runs>)> {
        let size = file.metadata()?.len();
        if size > PROGRAM_MAX {
            return Err(io::Error::other(format!(
                "it is {size} bytes, more than the {PROGRAM_MAX} bytes plugctl hashes of a program"
            )));
        }
        let (head, sha256, rest) = read_and_hash(&mut file, PROGRAM_MAX)?;
        if rest > PROGRAM_MAX {
            return Err(io::Error::other(format!(
                "it grew past the {PROGRAM_MAX} bytes plugctl hashes of a program while it was read"
            )));
        }
        let shebang = Shebang::parse(&head);
        let (interpreter, runs) = match shebang {
            Some(shebang) => {
                let (pin, program) = self.interpreter_of(&shebang, path);
                (Some(pin), Some(Runs { shebang, program }))
            }
            None => (None, None),
        };
        let pin = Pin {
            family: family.to_string(),
            name: name.to_string(),
            sha256,
            size: rest,
            version,
            interpreter,
            policy: None,
        };
        Ok((pin, runs))
    }
}

/// What the kernel runs for a `#!` script, held open: its `#!` line and
/// the descriptor of the program that runs it.
#[derive(Debug, Clone)]
pub struct Runs {
    pub shebang: Shebang,
    pub program: Option<OpenInterpreter>,
}

/// An interpreter opened for exec: the descriptor that was hashed, so that
/// `--locked` runs exactly that file (`execveat`).
#[derive(Debug, Clone)]
pub struct OpenInterpreter {
    pub file: Arc<File>,
    /// An ELF file the kernel can run through its descriptor.
    pub elf: bool,
}

/// The pin of a `#!` line's interpreter (and of what `env` runs), each
/// found through the gate's walk (symlinks followed by plugctl, never by
/// the kernel behind its back) and hashed through the descriptor it
/// opened; with the descriptor of what the kernel ends up running: `X` for
/// `#!/usr/bin/env X`, else the interpreter.
impl Pinner {
    pub fn interpreter_of(
        &self,
        shebang: &Shebang,
        path: Option<&std::ffi::OsStr>,
    ) -> (Interpreter, Option<OpenInterpreter>) {
        self.interpreter_within(shebang, path, None)
    }

    /// [`Pinner::interpreter_of`], reading no file past the size `pinned`
    /// recorded for it: one of another size is hashed as nothing (it is
    /// not the pinned one, whatever its content).
    fn interpreter_within(
        &self,
        shebang: &Shebang,
        path: Option<&std::ffi::OsStr>,
        pinned: Option<&Interpreter>,
    ) -> (Interpreter, Option<OpenInterpreter>) {
        let (mut pin, mut open) = self.hash_program(
            &shebang.interpreter,
            Path::new(&shebang.interpreter),
            pinned.and_then(|p| p.size),
        );
        if let Some(word) = shebang.env_program() {
            // Found on the PATH the plugin gets, as env would find it.
            let search = shebang.env_search_path(path);
            let bound = pinned.and_then(|p| p.runs.as_ref()).and_then(|r| r.size);
            let (runs, runs_open) = match env_lookup(word, search.as_deref()) {
                Ok(Some(found)) => self.hash_program(word, &found, bound),
                Ok(None) | Err(_) => (Interpreter::missing(word), None),
            };
            pin.runs = Some(Box::new(runs));
            open = runs_open;
        }
        (pin, open)
    }

    /// One program: found through the gate (the owner and mode rules are the
    /// runner's to apply; here only the walk), hashed through its descriptor.
    /// `bound`: the size it must have, or it is not read at all.
    fn hash_program(&self, named: &str, path: &Path, bound: Option<u64>) -> Found {
        let key = (named.to_string(), path.to_path_buf());
        let found = || self.found.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(seen) = found().get(&key) {
            return seen.clone();
        }
        let first = self.find_program(named, path, bound);
        // One left unread (not the size asked) is not what the file is:
        // another plugin's pin may name the size it has.
        if first.0.sha256.is_some() || first.0.resolved.is_none() {
            found().insert(key, first.clone());
        }
        first
    }

    /// [`Pinner::hash_program`] the first time: the walk, the open, the hash.
    fn find_program(&self, named: &str, path: &Path, bound: Option<u64>) -> Found {
        let found =
            crate::trust::dir::resolve_file(Policy::insecure(), path).and_then(|(dir, name, _)| {
                // Never one larger than any real program (it is hashed
                // whole): refused by its size, as missing.
                let (file, _) = dir.open_read(&name, PROGRAM_MAX)?;
                Ok((dir.join(&name), file))
            });
        let Ok((resolved, file)) = found else {
            return (Interpreter::missing(named), None);
        };
        let hashed = match (file.metadata(), bound) {
            (Ok(meta), Some(bound)) if meta.len() != bound => None,
            _ => self.hash_cached(&file, bound),
        };
        let (sha256, size) = match hashed {
            Some((hash, size)) => (Some(hash), Some(size)),
            None => (None, file.metadata().ok().map(|m| m.len())),
        };
        let mut magic = [0u8; 4];
        let elf = std::os::unix::fs::FileExt::read_exact_at(&file, &mut magic, 0).is_ok()
            && magic == *b"\x7fELF";
        (
            Interpreter {
                path: named.to_string(),
                sha256,
                resolved: Some(resolved.to_string_lossy().into_owned()),
                runs: None,
                size,
            },
            Some(OpenInterpreter {
                file: Arc::new(file),
                elf,
            }),
        )
    }

    /// The sha256 of `file` and the bytes hashed, read to its end or one
    /// byte past `bound` (a file that grows while it is read is another).
    fn hash_cached(&self, file: &File, bound: Option<u64>) -> Option<(String, u64)> {
        let identity = FileIdentity::of(&file.metadata().ok()?);
        let key = (identity.dev, identity.ino);
        let hashed = || self.hashed.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((seen, hash)) = hashed().get(&key)
            && seen.0 == identity
        {
            return Some((hash.clone(), seen.1));
        }
        let mut dup = file.try_clone().ok()?;
        std::io::Seek::rewind(&mut dup).ok()?;
        let limit = bound.unwrap_or(PROGRAM_MAX).saturating_add(1);
        let (hash, size) = hash_reader(dup.take(limit)).ok()?;
        hashed().insert(key, ((identity, size), hash.clone()));
        Some((hash, size))
    }
}

/// Interpreters hashed, by file identity (device, inode): the identity
/// seen and the bytes hashed, and the hash.
type HashCache = BTreeMap<(u64, u64), ((FileIdentity, u64), String)>;

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
            let pin = Pinner::default()
                .pin_open(crate::family::Family::HostVolume.name(), "x", f, None)
                .unwrap();
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
            policy: None,
        };
        let mut b = a.clone();
        b.version = None;
        assert!(a.same_file(&b));
        b.sha256 = "bb".into();
        assert!(!a.same_file(&b));
    }
}

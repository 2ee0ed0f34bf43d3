//! Whether a plugin may run: the plugin file (after its symlinks, each hop
//! judged), every directory from it up to `/`, and what the kernel runs
//! for it — the `#!` interpreter, and for `#!/usr/bin/env X` the program
//! `env` finds — all pass the gate's rules ([`super::Policy`]). Checked at
//! run time for every call, not only by `validate`.
//!
//! Each plugin's directory is walked once per process, and each interpreter
//! judged once: 200 `#!/bin/sh` plugins of one directory cost one walk of
//! the directory, one of `/bin/sh`, and one `fstatat` and one read of the
//! first line per plugin.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::dir::resolve_file;
use super::{CheckedDir, Meta, Policy, Refusal};

/// The search path `env` uses when `PATH` is unset, as every plugin runs
/// (glibc's `execvp` default, `confstr(_CS_PATH)`).
pub const DEFAULT_SEARCH_PATH: [&str; 2] = ["/bin", "/usr/bin"];

/// What a plugin file asks the kernel to run, read from its first line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shebang {
    /// The interpreter as written (`/bin/sh`, `/usr/bin/env`).
    pub interpreter: String,
    /// The one optional argument the kernel passes (everything after the
    /// interpreter, trimmed), e.g. `python3` after `/usr/bin/env`.
    pub arg: Option<String>,
}

/// The kernel reads no more of a `#!` line than this.
pub const SHEBANG_MAX: usize = 256;

impl Shebang {
    /// The `#!` line of a file's head, as Linux reads it: the interpreter
    /// is the first word after `#!`, the rest of the line (trimmed) is one
    /// argument.
    pub fn parse(head: &[u8]) -> Option<Shebang> {
        let rest = head.strip_prefix(b"#!")?;
        let line = rest.split(|&b| b == b'\n').next()?;
        let line = line.trim_ascii();
        let end = line
            .iter()
            .position(|b| *b == b' ' || *b == b'\t')
            .unwrap_or(line.len());
        let (interp, arg) = line.split_at(end);
        if interp.is_empty() {
            return None;
        }
        let arg = arg.trim_ascii();
        Some(Shebang {
            interpreter: String::from_utf8_lossy(interp).into_owned(),
            arg: (!arg.is_empty()).then(|| String::from_utf8_lossy(arg).into_owned()),
        })
    }

    /// For `#!/usr/bin/env X`: the program `env` runs, `X`, as it names
    /// it. None for any other interpreter, and for an `env` line whose
    /// first word is an option (`-S ...`), which plugctl does not interpret.
    pub fn env_program(&self) -> Option<&str> {
        if Path::new(&self.interpreter).file_name() != Some(OsStr::new("env")) {
            return None;
        }
        let word = self.arg.as_deref()?.split_ascii_whitespace().next()?;
        (!word.starts_with('-') && !word.contains('=')).then_some(word)
    }
}

/// Where `env` finds `program` with `PATH` unset: a name with a `/` is
/// that path; a bare name is looked up in [`DEFAULT_SEARCH_PATH`].
pub fn env_lookup(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        return Some(PathBuf::from(program));
    }
    DEFAULT_SEARCH_PATH
        .iter()
        .map(|d| Path::new(d).join(program))
        .find(|p| {
            std::fs::metadata(p).is_ok_and(|m| {
                use std::os::unix::fs::PermissionsExt;
                m.is_file() && m.permissions().mode() & 0o111 != 0
            })
        })
}

/// Checks what runs, remembering directories and interpreters already
/// found fine.
#[derive(Debug)]
pub struct Trust {
    policy: Policy,
    dirs: Mutex<HashMap<PathBuf, Result<CheckedDir, String>>>,
    interpreters: Mutex<HashMap<PathBuf, Result<(), String>>>,
}

impl Default for Trust {
    fn default() -> Trust {
        Trust::new(Policy::strict())
    }
}

impl Trust {
    pub fn new(policy: Policy) -> Trust {
        Trust {
            policy,
            dirs: Mutex::default(),
            interpreters: Mutex::default(),
        }
    }

    /// The directory, walked once.
    fn dir(&self, path: &Path) -> Result<CheckedDir, String> {
        if let Some(v) = self
            .dirs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(path)
        {
            return v.clone();
        }
        let v = CheckedDir::open(self.policy, path).map_err(|r| r.to_string());
        self.dirs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(path.to_path_buf(), v.clone());
        v
    }

    /// The file `path` names, its symlinks followed by the gate: the
    /// directory it is in, its name and what it is. `None` when it is not
    /// there (exec says so in its own words).
    fn file(&self, path: &Path) -> Result<Option<(CheckedDir, std::ffi::OsString, Meta)>, String> {
        let (dir, name) = match (path.parent(), path.file_name()) {
            (Some(p), Some(n)) => (self.dir(p), n),
            _ => return Err(format!("{} is not a file", path.display())),
        };
        let found = match dir {
            Ok(dir) => match dir.stat(name) {
                Ok(Some(meta)) if !meta.is_symlink() => Ok((dir, name.to_os_string(), meta)),
                Ok(Some(_)) => resolve_file(self.policy, path),
                Ok(None) => return Ok(None),
                Err(r) => Err(r),
            },
            Err(why) => return Err(why),
        };
        match found {
            Ok(f) => Ok(Some(f)),
            Err(r) if r.is_not_found() => Ok(None),
            Err(r) => Err(r.to_string()),
        }
    }

    /// `Err(reason)`: do not run it; the reason names the path, what is
    /// wrong with it and how to fix it.
    pub fn check(&self, program: &Path) -> Result<(), String> {
        let Some((dir, name, meta)) = self.file(program)? else {
            return Ok(());
        };
        let path = dir.join(&name);
        if meta.is_file() {
            self.policy
                .judge(&path, &meta, "file")
                .map_err(|r| format!("not run: {r}"))?;
        }
        let Some(shebang) = read_shebang(&dir, &name) else {
            return Ok(());
        };
        self.interpreter(&path, &shebang)
    }

    /// The interpreter of `script` (and what `env` runs), judged once per
    /// path.
    fn interpreter(&self, script: &Path, shebang: &Shebang) -> Result<(), String> {
        let interp = Path::new(&shebang.interpreter);
        if !interp.is_absolute() {
            // The kernel would look it up from plugctl's working directory.
            return Err(format!(
                "not run: the #! line of {} names {:?}, a relative path the kernel resolves \
                 from the working directory; fix: name the interpreter by its absolute path",
                script.display(),
                shebang.interpreter
            ));
        }
        self.judge_interpreter(interp, script)?;
        if let Some(program) = shebang.env_program()
            && let Some(found) = env_lookup(program)
        {
            self.judge_interpreter(&found, script)?;
        }
        Ok(())
    }

    fn judge_interpreter(&self, interp: &Path, script: &Path) -> Result<(), String> {
        let cached = self
            .interpreters
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(interp)
            .cloned();
        let verdict = match cached {
            Some(v) => v,
            None => {
                let v = match resolve_file(self.policy, interp) {
                    Ok((dir, name, meta)) if meta.is_file() => self
                        .policy
                        .judge(&dir.join(&name), &meta, "file")
                        .map_err(|r| r.to_string()),
                    Ok((dir, name, meta)) => Err(Refusal::Kind {
                        path: dir.join(name),
                        is: meta.kind(),
                        want: "a regular file",
                    }
                    .to_string()),
                    // A missing interpreter: exec says so, naming it.
                    Err(r) if r.is_not_found() => Ok(()),
                    Err(r) => Err(r.to_string()),
                };
                self.interpreters
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(interp.to_path_buf(), v.clone());
                v
            }
        };
        verdict.map_err(|why| {
            format!(
                "not run: its interpreter {} (#! of {}) is not trusted: {why}",
                interp.display(),
                script.display()
            )
        })
    }
}

/// The `#!` line of an entry, read through the checked directory.
pub fn read_shebang(dir: &CheckedDir, name: &OsStr) -> Option<Shebang> {
    let (file, _) = dir.open_read(name, u64::MAX).ok()?;
    let mut head = Vec::with_capacity(SHEBANG_MAX);
    file.take(SHEBANG_MAX as u64).read_to_end(&mut head).ok()?;
    if !head.starts_with(b"#!") {
        return None;
    }
    Shebang::parse(&head)
}

/// The `#!` line of a file by path (no trust judgement: for messages).
pub fn shebang_of(path: &Path) -> Option<Shebang> {
    let file = std::fs::File::open(path).ok()?;
    let mut head = Vec::with_capacity(SHEBANG_MAX);
    file.take(SHEBANG_MAX as u64).read_to_end(&mut head).ok()?;
    Shebang::parse(&head)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shebangs_are_read_as_linux_reads_them() {
        let s = Shebang::parse(b"#!/bin/sh\necho").unwrap();
        assert_eq!(s.interpreter, "/bin/sh");
        assert_eq!(s.arg, None);
        let s = Shebang::parse(b"#! /usr/bin/env  python3 -u \n").unwrap();
        assert_eq!(s.interpreter, "/usr/bin/env");
        assert_eq!(s.arg.as_deref(), Some("python3 -u"));
        assert_eq!(s.env_program(), Some("python3"));
        assert_eq!(
            Shebang::parse(b"#!/usr/bin/env -S python3 -u\n")
                .unwrap()
                .env_program(),
            None
        );
        assert_eq!(Shebang::parse(b"#!\n"), None);
        assert_eq!(Shebang::parse(b"\x7fELF"), None);
    }

    #[test]
    fn env_finds_what_the_default_search_path_holds() {
        let sh = env_lookup("sh").unwrap();
        assert!(sh.ends_with("sh"));
        assert_eq!(
            env_lookup("/opt/x/y"),
            Some(PathBuf::from("/opt/x/y")),
            "a path is taken as it is"
        );
        assert_eq!(env_lookup("no-such-program-here"), None);
    }
}

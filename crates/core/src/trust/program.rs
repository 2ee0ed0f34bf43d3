//! Whether a plugin may run: the plugin file (after its symlinks, each hop
//! judged), every directory from it up to `/`, and what the kernel runs
//! for it — the `#!` interpreter (an ELF program's loader), and for
//! `#!/usr/bin/env X` the program `env` finds — all pass the gate's rules ([`super::Policy`]). Checked at
//! run time for every call, not only by `validate`.
//!
//! Each plugin's directory is walked once per process, and each interpreter
//! judged once: 200 `#!/bin/sh` plugins of one directory cost one walk of
//! the directory, one of `/bin/sh`, and one `fstatat` and one read of the
//! first line per plugin.

use std::collections::{HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::dir::resolve_file;
use super::{CheckedDir, Meta, Policy, Refusal};
use crate::runner::elf::{Linked, Unreadable};

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

/// How deep the kernel follows `#!` lines (an interpreter that is itself a
/// script): Linux gives up past this many.
pub const SHEBANG_DEPTH: usize = 4;

/// How many libraries down the libraries of an ELF program's own search
/// path are followed for theirs: far past any real program's; a library
/// deeper is refused, not left unjudged.
const LIBRARY_DEPTH: usize = 16;

/// What `#!/usr/bin/env ...` makes env run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnvRuns {
    /// Not an env line.
    NotEnv,
    /// The program env runs, as named (looked up with `PATH` unset), and
    /// the arguments `-S` split off before the script's path.
    Program { name: String, args: Vec<String> },
    /// An env line plugctl does not interpret (an option it does not
    /// know); the reason.
    Unknown(String),
}

/// The words GNU env's `-S` splits a string into: at spaces, tabs, line
/// feeds, vertical tabs, form feeds and carriage returns (`str`'s own
/// ASCII whitespace lacks the vertical tab, which would hide a second
/// `PATH=` inside the first's value from plugctl and not from env).
fn split_words(arg: &str) -> impl Iterator<Item = &str> {
    arg.split([' ', '\t', '\n', '\x0b', '\x0c', '\r'])
        .filter(|w| !w.is_empty())
}

/// The blanks Linux's `binfmt_script` trims: spaces and tabs, nothing else
/// (a CR stays part of the interpreter's name).
fn blank(b: &u8) -> bool {
    *b == b' ' || *b == b'\t'
}

impl Shebang {
    /// The `#!` line of a file's head, exactly as Linux's `binfmt_script`
    /// (`load_script`) reads it from its buffer of [`SHEBANG_MAX`] bytes
    /// (zeros past the file's end): up to the first newline before a NUL,
    /// or else the buffer's first 255 bytes (the kernel writes its NUL on
    /// the last); spaces and tabs trimmed before that end and after `#!`;
    /// the interpreter is the first word (up to a space, tab or NUL), the
    /// rest, up to a NUL, one argument. A carriage return is part of the
    /// word (`#!/bin/sh\r` names `/bin/sh\r`), and so is a blank before a
    /// NUL (`#!/usr/bin/nice /x/sh \0` runs `/x/sh `), as the kernel runs
    /// them: a line read otherwise named another file than the one run.
    pub fn parse(head: &[u8]) -> Option<Shebang> {
        let mut buf = [0u8; SHEBANG_MAX];
        let len = head.len().min(SHEBANG_MAX);
        buf[..len].copy_from_slice(&head[..len]);
        if !buf.starts_with(b"#!") {
            return None;
        }
        let last = SHEBANG_MAX - 1;
        let non_blank = |buf: &[u8], from: usize, to: usize| (from..=to).find(|&i| !blank(&buf[i]));
        let terminator = |buf: &[u8], from: usize, to: usize| {
            (from..=to).find(|&i| blank(&buf[i]) || buf[i] == 0)
        };
        // `strnchr` stops at a NUL.
        let newline = buf
            .iter()
            .take_while(|&&b| b != 0)
            .position(|&b| b == b'\n');
        let mut end = match newline {
            Some(at) => at,
            None => {
                let first = non_blank(&buf, 2, last)?;
                // An interpreter's name cut by the buffer: not run.
                terminator(&buf, first, last)?;
                last
            }
        };
        while blank(&buf[end - 1]) {
            end -= 1;
        }
        let name = non_blank(&buf, 2, end).filter(|&at| at != end)?;
        let sep = terminator(&buf, name, end);
        let arg = sep
            .filter(|&at| buf[at] != 0)
            .and_then(|at| non_blank(&buf, at, end));
        buf[end] = 0;
        if let (Some(sep), Some(_)) = (sep, arg) {
            buf[sep] = 0;
        }
        let c_string = |at: usize| {
            let tail = &buf[at..];
            String::from_utf8_lossy(
                &tail[..tail.iter().position(|&b| b == 0).unwrap_or(tail.len())],
            )
            .into_owned()
        };
        Some(Shebang {
            interpreter: c_string(name),
            arg: arg.map(c_string),
        })
    }

    /// Whether the interpreter is `env`, by the name it is run by or by
    /// the file that name leads to: GNU env does not look at the name it
    /// is started by, so a link of root's named `run` to `/usr/bin/env`
    /// splits `-S PATH=... bash` and runs that PATH's bash as env does.
    fn is_env(&self) -> bool {
        let env = Some(OsStr::new("env"));
        let named = Path::new(&self.interpreter);
        named.file_name() == env
            || std::fs::canonicalize(named).is_ok_and(|real| real.file_name() == env)
    }

    /// What env runs for `#!/usr/bin/env ...`: the kernel hands env the
    /// whole rest of the line as one argument, which GNU env splits only
    /// after `-S` (`--split-string`); `-i`, `-` and `NAME=VALUE` change the
    /// environment, not the program. Any other option is [`EnvRuns::Unknown`]:
    /// plugctl will not guess what runs.
    pub fn env_runs(&self) -> EnvRuns {
        if !self.is_env() {
            return EnvRuns::NotEnv;
        }
        let Some(arg) = self.arg.as_deref() else {
            return EnvRuns::Unknown("`#!` names env without a program".into());
        };
        // Without -S the one argument is the program's name, spaces and all.
        let words: Vec<&str> = if arg.starts_with("-S") || arg.starts_with("--split-string") {
            split_words(arg).collect()
        } else {
            vec![arg]
        };
        // GNU env's -S expands ${VAR}, unquotes and unescapes: what runs
        // would then depend on text plugctl does not interpret.
        if words.len() > 1 && arg.contains(['$', '\'', '"', '\\']) {
            return EnvRuns::Unknown(
                "`#!/usr/bin/env -S` with quotes, backslashes or ${VAR}, which plugctl does \
                 not interpret"
                    .into(),
            );
        }
        let mut words = words.into_iter().peekable();
        while let Some(word) = words.next() {
            match word {
                "-S" | "--split-string" | "-i" | "--ignore-environment" | "-" => continue,
                w if w.starts_with("-S") => {
                    let name = w["-S".len()..].to_string();
                    return EnvRuns::Program {
                        name,
                        args: words.map(str::to_string).collect(),
                    };
                }
                w if w.starts_with("--split-string=") => {
                    let name = w["--split-string=".len()..].to_string();
                    return EnvRuns::Program {
                        name,
                        args: words.map(str::to_string).collect(),
                    };
                }
                w if w.starts_with('-') => {
                    return EnvRuns::Unknown(format!(
                        "`#!/usr/bin/env` with the option {w_q}, which plugctl does not \
                         interpret; name the interpreter by its path instead",
                        w_q = crate::escape::quote(w)
                    ));
                }
                w if w.contains('=') => continue,
                w => {
                    return EnvRuns::Program {
                        name: w.to_string(),
                        args: words.map(str::to_string).collect(),
                    };
                }
            }
        }
        EnvRuns::Unknown("`#!/usr/bin/env` names no program".into())
    }

    /// For `#!/usr/bin/env X`: the program `env` runs, `X`, as it names
    /// it; None for any other interpreter and for an env line plugctl
    /// does not interpret.
    pub fn env_program(&self) -> Option<&str> {
        if !self.is_env() {
            return None;
        }
        match self.env_runs() {
            EnvRuns::Program { .. } => {}
            _ => return None,
        }
        let arg = self.arg.as_deref()?;
        if !(arg.starts_with("-S") || arg.starts_with("--split-string")) {
            return Some(arg);
        }
        split_words(arg).find_map(|w| {
            let name = w
                .strip_prefix("--split-string=")
                .or_else(|| w.strip_prefix("-S").filter(|n| !n.is_empty()))
                .unwrap_or(w);
            (!name.starts_with('-') && !name.contains('=') && !name.is_empty()).then_some(name)
        })
    }
}

impl Shebang {
    /// What the program this line runs may in turn run by `PATH`: for
    /// any interpreter but env, the one argument of the line; for env,
    /// each argument `-S` gives its program; only those that are not
    /// options. `#!/usr/bin/nice python3` hands nice `python3`, which nice
    /// (as nohup, setsid, ionice, unshare, xargs and many more do) looks up
    /// on the plugin's `PATH` and runs with the script, as env would, and
    /// `-S timeout 10 python3` has env's program run the third word:
    /// whichever of those the program is, what such a word finds is judged
    /// as what env runs is. A word that names no such program is judged
    /// for nothing worse than a program of its name being there.
    pub fn passed_programs(&self) -> Vec<String> {
        self.passed_words()
            .into_iter()
            .filter_map(|word| match word {
                Passed::Program(name) => Some(name),
                _ => None,
            })
            .collect()
    }

    /// Every word the program this line runs is handed (as
    /// [`Shebang::passed_programs`] reads them), sorted by what it may
    /// change: a program's name, a `NAME=VALUE` (a nested env sets it for
    /// what it runs), or an option (whose value may name a directory).
    pub fn passed_words(&self) -> Vec<Passed> {
        let is_env = |name: &str| Path::new(name).file_name() == Some(OsStr::new("env"));
        let (words, mut after_env) = match self.env_runs() {
            EnvRuns::Program { args, name } => (args, is_env(&name)),
            EnvRuns::NotEnv => (self.arg.iter().cloned().collect(), false),
            EnvRuns::Unknown(_) => (Vec::new(), false),
        };
        words
            .into_iter()
            .filter(|word| !word.is_empty())
            .map(|word| {
                // Only env reads `NAME=VALUE` so (and `-SNAME=VALUE`, and
                // `-i` for an empty environment): to nice it is a
                // program's name, a path when it holds a `/`.
                let glued = word
                    .strip_prefix("--split-string=")
                    .or_else(|| word.strip_prefix("-S"))
                    .and_then(assignment);
                if after_env {
                    if let Some((name, value)) = assignment(&word)
                        .filter(|_| !word.starts_with('-'))
                        .or(glued)
                    {
                        return Passed::Sets(name.into(), value.into());
                    }
                    if matches!(word.as_str(), "-i" | "--ignore-environment" | "-") {
                        return Passed::Clears;
                    }
                }
                if word.starts_with('-') {
                    return Passed::Option(word);
                }
                after_env = is_env(&word);
                Passed::Program(word)
            })
            .collect()
    }

    /// Each program [`Shebang::passed_words`] names, with the `PATH` it is
    /// looked up on: `search` (what the line's program got), as a nested
    /// env's `PATH=`, `-SPATH=` or `-i` before it changes it.
    pub fn passed_lookups(&self, search: Option<&OsStr>) -> Vec<(String, Option<OsString>)> {
        let mut search = search.map(OsStr::to_os_string);
        let mut lookups = Vec::new();
        for word in self.passed_words() {
            match word {
                Passed::Program(name) => lookups.push((name, search.clone())),
                Passed::Sets(name, value) if name == "PATH" => search = Some(value),
                Passed::Clears => search = None,
                Passed::Sets(..) | Passed::Option(_) => {}
            }
        }
        lookups
    }

    /// The `PATH` env searches for its program: the plugin's own
    /// (`inherited`, `None` when unset), as the `#!` line's words before
    /// the program change it — `-i` (or `-`) empties the environment,
    /// `PATH=...` sets it. `None`: unset, so glibc's default
    /// ([`DEFAULT_SEARCH_PATH`]).
    pub fn env_search_path(&self, inherited: Option<&OsStr>) -> Option<OsString> {
        let mut path = inherited.map(OsStr::to_os_string);
        let Some(arg) = self.arg.as_deref().filter(|_| self.is_env()) else {
            return path;
        };
        if !(arg.starts_with("-S") || arg.starts_with("--split-string")) {
            return path;
        }
        for word in split_words(arg) {
            let word = word
                .strip_prefix("--split-string=")
                .or_else(|| word.strip_prefix("-S").filter(|w| !w.is_empty()))
                .unwrap_or(word);
            match word {
                "-S" | "--split-string" => {}
                "-i" | "--ignore-environment" | "-" => path = None,
                w if w.starts_with('-') => {}
                w => match w.split_once('=') {
                    Some(("PATH", value)) => path = Some(value.into()),
                    Some(_) => {}
                    // The program: what follows is its arguments.
                    None => break,
                },
            }
        }
        path
    }
}

impl Shebang {
    /// The `NAME=VALUE` pairs `#!/usr/bin/env -S ...` sets before it runs
    /// its program, in order (a `-i` drops those before it, as env does).
    /// Nothing for any other line.
    pub fn env_sets(&self) -> Vec<(OsString, OsString)> {
        let mut sets = Vec::new();
        let Some(arg) = self.arg.as_deref().filter(|_| self.is_env()) else {
            return sets;
        };
        if !(arg.starts_with("-S") || arg.starts_with("--split-string")) {
            return sets;
        }
        for word in split_words(arg) {
            let word = word
                .strip_prefix("--split-string=")
                .or_else(|| word.strip_prefix("-S").filter(|w| !w.is_empty()))
                .unwrap_or(word);
            match word {
                "-S" | "--split-string" => {}
                "-i" | "--ignore-environment" | "-" => sets.clear(),
                w if w.starts_with('-') => {}
                w => match w.split_once('=') {
                    Some((name, value)) => sets.push((name.into(), value.into())),
                    None => break,
                },
            }
        }
        sets
    }
}

/// A word a `#!` line hands its program ([`Shebang::passed_words`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Passed {
    /// A name the program may look up on `PATH` and run.
    Program(String),
    /// `NAME=VALUE`: env, run by the line's program (`nice env
    /// PATH=/x python3`), sets it for what it runs next.
    Sets(OsString, OsString),
    /// `-i` (`--ignore-environment`, `-`) to a nested env: what it runs
    /// gets no `PATH`, so glibc's default.
    Clears,
    /// An option (`-n5`, `--root=/srv/x`).
    Option(String),
}

/// `NAME=VALUE` as GNU env reads a word before its program: a name with
/// no `/` (a word with one before its `=` is a path to a program).
fn assignment(word: &str) -> Option<(&str, &str)> {
    word.split_once('=')
        .filter(|(name, _)| !name.is_empty() && !name.contains('/'))
}

/// Why a plugin is not run, as the gate found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Untrusted {
    /// The file, a directory up to `/`, an interpreter or what env runs
    /// failed the gate; the message names it and the fix.
    Refused(String),
    /// The `#!` line names an interpreter that is not there: refused
    /// before anything runs (one created a moment later is never what
    /// runs), reported as exec would report it.
    InterpreterMissing { interpreter: String },
}

impl std::fmt::Display for Untrusted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Untrusted::Refused(why) => f.write_str(why),
            Untrusted::InterpreterMissing { interpreter } => {
                write!(f, "not run: its interpreter {interpreter} does not exist")
            }
        }
    }
}

/// Where `env` (glibc's `execvp`) finds `program` on `search` (`None`:
/// `PATH` unset, so [`DEFAULT_SEARCH_PATH`]): a name with a `/` is that
/// path; a bare name is the first executable regular file of that name in
/// the search path's directories, in order. `Err`: an element met before
/// the program was found is empty or relative (the plugin's working
/// directory), which plugctl does not search on its behalf.
pub fn env_lookup(program: &str, search: Option<&OsStr>) -> Result<Option<PathBuf>, String> {
    if program.contains('/') {
        return Ok(Some(PathBuf::from(program)));
    }
    let default: Vec<PathBuf> = DEFAULT_SEARCH_PATH.iter().map(PathBuf::from).collect();
    let dirs: Vec<PathBuf> = match search {
        None => default,
        Some(path) => std::env::split_paths(path).collect(),
    };
    for dir in dirs {
        if !dir.is_absolute() {
            return Err(format!(
                "env would look for {program_q} in {} of the plugin's PATH, a directory \
                 relative to its working directory",
                crate::escape::quote_os(dir.display().to_string()),
                program_q = crate::escape::quote(program)
            ));
        }
        let candidate = dir.join(program);
        let runs = std::fs::metadata(&candidate).is_ok_and(|m| {
            use std::os::unix::fs::PermissionsExt;
            m.is_file() && m.permissions().mode() & 0o111 != 0
        });
        if runs {
            return Ok(Some(candidate));
        }
    }
    Ok(None)
}

/// The absolute paths an option word names: its value after the first
/// `=` (`--root=/srv/x`), or what follows a short option letter
/// (`-R/srv/x`), split at colons as a list of directories is.
fn option_paths(option: &str) -> Vec<&str> {
    let value = match option.split_once('=') {
        Some((_, value)) => value,
        None => option.find('/').map_or("", |at| &option[at..]),
    };
    value.split(':').filter(|p| p.starts_with('/')).collect()
}

/// The directories of an environment's `LD_LIBRARY_PATH` (the last one,
/// as exec keeps it), split at colons and semicolons as the loader splits
/// it; the empty and relative ones left out (the environment's judge
/// refuses those).
fn library_path_of(env: &[(OsString, OsString)]) -> Vec<PathBuf> {
    env_list(env, "LD_LIBRARY_PATH", b":;")
        .map(|d| PathBuf::from(OsString::from_vec(d.to_vec())))
        .filter(|d| d.is_absolute())
        .collect()
}

/// The parts of an environment's variable `name` (the last one, as exec
/// keeps it), split at any of `separators` as the loader splits it.
fn env_list<'e>(
    env: &'e [(OsString, OsString)],
    name: &str,
    separators: &'static [u8],
) -> impl Iterator<Item = &'e [u8]> {
    env.iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_encoded_bytes())
        .unwrap_or_default()
        .split(move |b| separators.contains(b))
}

/// The libraries of an environment's `LD_PRELOAD` named by a path, split
/// at spaces and colons as the loader splits it (a bare name is looked up
/// in the system's directories).
fn preload_of(env: &[(OsString, OsString)]) -> Vec<PathBuf> {
    env_list(env, "LD_PRELOAD", b": ")
        .map(|d| PathBuf::from(OsString::from_vec(d.to_vec())))
        .filter(|d| d.is_absolute())
        .collect()
}

/// The audit libraries of an environment's `LD_AUDIT`, split at colons as
/// the loader splits it (the environment's judge refuses a bare name).
fn audit_of(env: &[(OsString, OsString)]) -> Vec<PathBuf> {
    env_list(env, "LD_AUDIT", b":")
        .map(|d| PathBuf::from(OsString::from_vec(d.to_vec())))
        .filter(|d| d.is_absolute())
        .collect()
}

/// The libraries of an environment's `LD_PRELOAD` named without a `/`:
/// the loader looks for each as for a library the program it starts needs
/// (its search path, then `LD_LIBRARY_PATH`'s, then the system's).
fn preload_names(env: &[(OsString, OsString)]) -> Vec<OsString> {
    env_list(env, "LD_PRELOAD", b": ")
        .filter(|d| !d.is_empty() && !d.contains(&b'/'))
        .map(|d| OsString::from_vec(d.to_vec()))
        .collect()
}

/// `linked` with the bare names of `env`'s `LD_PRELOAD` added to what it
/// needs by name: a program the kernel starts with that environment has
/// the loader look for them as it does for its own needs, and a library
/// found so brings its own search path and libraries.
fn with_preloads(
    linked: Result<Linked, Unreadable>,
    env: &[(OsString, OsString)],
) -> Result<Linked, Unreadable> {
    linked.map(|mut linked| {
        linked.by_name.extend(preload_names(env));
        linked
    })
}

/// The `PATH` of an environment (the last one, as exec keeps it), if set.
pub fn path_of(env: &[(OsString, OsString)]) -> Option<&OsStr> {
    env.iter()
        .rev()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| v.as_os_str())
}

/// An interpreter judged: its path, and the `PATH` it would search if it
/// is itself an env script.
type Judged = (PathBuf, Option<OsString>);

/// Checks what runs, remembering directories and interpreters already
/// found fine.
#[derive(Debug)]
pub struct Trust {
    policy: Policy,
    dirs: Mutex<HashMap<PathBuf, Result<CheckedDir, String>>>,
    interpreters: Mutex<HashMap<Judged, Result<(), Untrusted>>>,
}

impl Default for Trust {
    fn default() -> Trust {
        Trust::new(Policy::strict())
    }
}

impl Trust {
    /// The rules it applies.
    pub fn policy(&self) -> Policy {
        self.policy
    }

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

    /// `Err(why)`: do not run it; the reason names the path, what is
    /// wrong with it and how to fix it. `env`: the plugin's environment,
    /// whose `PATH` decides what `#!/usr/bin/env X` runs.
    pub fn check(&self, program: &Path, env: &[(OsString, OsString)]) -> Result<(), Untrusted> {
        let refused = Untrusted::Refused;
        let Some((dir, name, meta)) = self.file(program).map_err(refused)? else {
            return Ok(());
        };
        let path = dir.join(&name);
        if meta.is_file() {
            self.policy
                .judge(&path, &meta, "file")
                .and_then(|()| self.policy.judge_program_links(&path, &meta, dir.meta()))
                .map_err(|r| refused(format!("not run: {r}")))?;
        }
        // A library of the plugin's LD_PRELOAD or LD_AUDIT (judged with
        // its environment) is loaded into every process it starts, an
        // audit library before the program, with its own search path and
        // the libraries it names, which the loader follows.
        if self.policy.enforces() {
            let loaded = (preload_of(env).into_iter().map(|l| ("LD_PRELOAD", l)))
                .chain(audit_of(env).into_iter().map(|l| ("LD_AUDIT", l)));
            for (variable, library) in loaded {
                let (Some(at), Some(linked)) = (library.parent(), linked_at(&library)) else {
                    continue;
                };
                self.runpaths(&library, at, &linked, library_path_of(env))
                    .map_err(|u| match u {
                        Untrusted::Refused(why) => Untrusted::Refused(format!(
                            "not run: {}'s {variable} loads {}, and {}",
                            path.display(),
                            library.display(),
                            why.strip_prefix("not run: ").unwrap_or(&why)
                        )),
                        missing => missing,
                    })?;
            }
        }
        let Some(shebang) = read_shebang(&dir, &name) else {
            // An ELF program's loader (`PT_INTERP`) is what the kernel runs
            // first, as root, as it runs a `#!` line's interpreter: a
            // root-owned binary built with `--dynamic-linker=/tmp/ld.so`
            // ran whatever another user put there.
            let (loader, runpaths) = read_elf_loader(&dir, &name);
            if let Some(loader) = loader {
                self.loader(&path, &loader)?;
            }
            if self.policy.enforces() {
                let runpaths = with_preloads(runpaths, env);
                self.runpaths(&path, dir.path(), &runpaths, library_path_of(env))?;
            }
            return Ok(());
        };
        self.interpreter(&path, &shebang, 1, path_of(env))?;
        // The interpreters were judged once for every plugin, without this
        // plugin's LD_LIBRARY_PATH or LD_PRELOAD: a library they need found
        // there, or a bare name it preloads, found there or in their own
        // search path, brings its own search path and libraries, judged as
        // a plugin's are.
        let library_path = library_path_of(env);
        if self.policy.enforces() && !(library_path.is_empty() && preload_names(env).is_empty()) {
            self.interpreter_libraries(&path, &shebang, env, &library_path, 1)?;
        }
        // `#!/usr/bin/env -S NAME=VALUE ... X` hands X an environment the
        // caller's was judged without: a PATH naming another user's
        // directory after the one X is found in (the commands the plugin
        // runs by name come from theirs), an LD_PRELOAD, a PYTHONPATH. Its
        // pairs are judged as the caller's are.
        if self.policy.enforces() {
            super::environment::judge(self.policy, &shebang.env_sets()).map_err(|why| {
                Untrusted::Refused(format!(
                    "not run: the #! line of {} sets the environment env hands its program, \
                     and {why}",
                    path.display()
                ))
            })?;
        }
        // Python imports from the script's own directory before its
        // standard library, and Node.js looks for what a script requires
        // in `node_modules` of every directory up to `/`: the gate judged
        // those directories, but one that is sticky lets anyone add a
        // `json.py` or a `node_modules` there, which then runs as root.
        if self.policy.enforces()
            && let Some((searcher, program)) = searcher(&shebang, path_of(env), 1)
        {
            if let Some(why) = sticky_searched(&path, dir.path(), searcher) {
                return Err(Untrusted::Refused(why));
            }
            // Each also finds its own library from where it is: Python its
            // prefix (`pyvenv.cfg` beside it or one level up, then
            // `lib/python3.X/os.py` in every directory above it), Node.js
            // its global folder (`<prefix>/lib/node`). Below a sticky
            // directory others may write, anyone may make those first.
            if let Some(why) = sticky_above_interpreter(&path, &program, searcher) {
                return Err(Untrusted::Refused(why));
            }
        }
        Ok(())
    }

    /// The interpreter of `script` (and what `env` runs), judged once per
    /// path; an interpreter that is itself a script has its own `#!` line
    /// judged the same way, as deep as the kernel follows them.
    fn interpreter(
        &self,
        script: &Path,
        shebang: &Shebang,
        depth: usize,
        search: Option<&OsStr>,
    ) -> Result<(), Untrusted> {
        let interp = Path::new(&shebang.interpreter);
        if !interp.is_absolute() {
            // The kernel would look it up from plugctl's working directory.
            return Err(Untrusted::Refused(format!(
                "not run: the #! line of {} names {}, a relative path the kernel resolves \
                 from the working directory; fix: name the interpreter by its absolute path",
                script.display(),
                crate::escape::quote_os(&shebang.interpreter)
            )));
        }
        if depth > SHEBANG_DEPTH {
            return Err(Untrusted::Refused(format!(
                "not run: {} is interpreted through more than {SHEBANG_DEPTH} #! lines, past \
                 what the kernel follows",
                script.display()
            )));
        }
        self.judge_interpreter(interp, script, depth, search, "#! of")?;
        match shebang.env_runs() {
            EnvRuns::NotEnv => self.passed(script, shebang, depth, search),
            EnvRuns::Unknown(why) => Err(Untrusted::Refused(format!(
                "not run: {} starts with {why}",
                script.display()
            ))),
            EnvRuns::Program { name, .. } => {
                // The program env finds on the PATH the plugin really gets
                // (as its #! line changes it), not on plugctl's.
                let search = shebang.env_search_path(search);
                match env_lookup(&name, search.as_deref()) {
                    Ok(Some(found)) => {
                        self.judge_interpreter(&found, script, depth, search.as_deref(), "#! of")?;
                        self.passed(script, shebang, depth, search.as_deref())
                    }
                    Ok(None) => Err(Untrusted::InterpreterMissing { interpreter: name }),
                    Err(why) => Err(Untrusted::Refused(format!(
                        "not run: {} starts with #!{} {}: {why}",
                        script.display(),
                        shebang.interpreter,
                        shebang.arg.as_deref().unwrap_or_default()
                    ))),
                }
            }
        }
    }

    /// What the program `shebang` runs may in turn run by `PATH`
    /// ([`Shebang::passed_programs`]), found on `search` as env would
    /// find it, judged as what env runs is; nothing for a word no such
    /// program is there for.
    fn passed(
        &self,
        script: &Path,
        shebang: &Shebang,
        depth: usize,
        search: Option<&OsStr>,
    ) -> Result<(), Untrusted> {
        // A nested env's `NAME=VALUE` (and `-SNAME=VALUE`) sets what the
        // programs after it get, and an option naming a directory
        // (`env --chdir=/tmp`, `unshare --root=/srv/x`) may be where they
        // are looked up: `#!/usr/bin/env -S env -SPATH=/tmp/x python3`
        // ran another user's python3 while the one on the plugin's PATH
        // was judged. Those are judged as a plugin's environment is.
        let mut search = search.map(OsStr::to_os_string);
        let refused = |why: String| {
            Untrusted::Refused(format!(
                "not run: the #! line of {} hands its program {}",
                script.display(),
                why
            ))
        };
        for word in shebang.passed_words() {
            let name = match word {
                Passed::Program(name) => name,
                Passed::Sets(name, value) => {
                    if self.policy.enforces() {
                        let pair = [(name.clone(), value.clone())];
                        super::environment::judge(self.policy, &pair).map_err(|why| {
                            refused(format!(
                                "a setting of {} (env sets it for what it runs), and {why}",
                                crate::escape::quote_os(&name)
                            ))
                        })?;
                    }
                    if name == "PATH" {
                        search = Some(value);
                    }
                    continue;
                }
                Passed::Clears => {
                    search = None;
                    continue;
                }
                Passed::Option(option) => {
                    if !self.policy.enforces() {
                        continue;
                    }
                    for path in option_paths(&option) {
                        super::environment::judge_option_path(self.policy, Path::new(path))
                            .map_err(|why| {
                                refused(format!(
                                    "the option {}, which names {}, {why}; fix: name a \
                                     directory only root may write, or leave the option out",
                                    crate::escape::quote(&option),
                                    crate::escape::quote(path)
                                ))
                            })?;
                    }
                    continue;
                }
            };
            let search = search.as_deref();
            match env_lookup(&name, search) {
                Ok(Some(found)) => {
                    self.judge_interpreter(&found, script, depth, search, "#! of")?;
                }
                Ok(None) => {}
                Err(why) => {
                    return Err(Untrusted::Refused(format!(
                        "not run: {} starts with #!{} {}: {}",
                        script.display(),
                        shebang.interpreter,
                        shebang.arg.as_deref().unwrap_or_default(),
                        why.replacen("env would", "its #! line's program would", 1)
                    )));
                }
            }
        }
        Ok(())
    }

    /// The libraries each ELF interpreter of `script`'s `#!` chain (and
    /// what env runs) takes from `library_path`, judged for their own
    /// search paths and libraries ([`Trust::runpaths`]). The chain itself
    /// was judged by [`Trust::interpreter`].
    fn interpreter_libraries(
        &self,
        script: &Path,
        shebang: &Shebang,
        env: &[(OsString, OsString)],
        library_path: &[PathBuf],
        depth: usize,
    ) -> Result<(), Untrusted> {
        self.interpreter_libraries_in(script, shebang, path_of(env), env, library_path, depth)
    }

    /// [`Trust::interpreter_libraries`], `search`: the `PATH` env searches.
    fn interpreter_libraries_in(
        &self,
        script: &Path,
        shebang: &Shebang,
        search: Option<&OsStr>,
        env: &[(OsString, OsString)],
        library_path: &[PathBuf],
        depth: usize,
    ) -> Result<(), Untrusted> {
        if depth > SHEBANG_DEPTH {
            return Ok(());
        }
        let mut programs = vec![PathBuf::from(&shebang.interpreter)];
        let search = shebang.env_search_path(search);
        if let EnvRuns::Program { name, .. } = shebang.env_runs()
            && let Ok(Some(found)) = env_lookup(&name, search.as_deref())
        {
            programs.push(found);
        }
        programs.extend(
            shebang
                .passed_lookups(search.as_deref())
                .iter()
                .filter_map(|(name, on)| env_lookup(name, on.as_deref()).ok().flatten()),
        );
        for program in programs {
            let Ok(real) = std::fs::canonicalize(&program) else {
                continue;
            };
            if let Some(nested) = shebang_of(&real) {
                self.interpreter_libraries_in(
                    script,
                    &nested,
                    search.as_deref(),
                    env,
                    library_path,
                    depth + 1,
                )?;
                continue;
            }
            let (Some(dir), Some(linked)) = (real.parent(), linked_at(&real)) else {
                continue;
            };
            // The interpreter is the program the loader starts: the bare
            // names of LD_PRELOAD are looked for as its own needs are.
            let linked = with_preloads(linked, env);
            self.runpaths(&real, dir, &linked, library_path.to_vec())
                .map_err(|u| match u {
                    Untrusted::Refused(why) => Untrusted::Refused(format!(
                        "not run: {} runs under {}, and {}",
                        script.display(),
                        real.display(),
                        why.strip_prefix("not run: ").unwrap_or(&why)
                    )),
                    missing => missing,
                })?;
        }
        Ok(())
    }

    /// An ELF program's loader, judged as a `#!` interpreter is.
    fn loader(&self, program: &Path, loader: &str) -> Result<(), Untrusted> {
        if !Path::new(loader).is_absolute() {
            // The kernel would open it from the working directory.
            return Err(Untrusted::Refused(format!(
                "not run: the ELF program {} names its loader {}, a relative path the kernel \
                 resolves from the working directory; fix: link it with an absolute \
                 loader path, as /lib64/ld-linux-x86-64.so.2 is",
                program.display(),
                crate::escape::quote(loader)
            )));
        }
        self.judge_interpreter(Path::new(loader), program, 1, None, "the ELF loader of")
    }

    /// An ELF program's own library search path (`DT_RUNPATH`, `DT_RPATH`),
    /// judged as `LD_LIBRARY_PATH` is: the loader looks in each directory
    /// for every library the program needs before the system's, so a
    /// `$ORIGIN` in a sticky plugin directory loaded another user's
    /// `libc.so.6` from beside the plugin as root. `$ORIGIN` is the
    /// program's directory as the gate reached it (the loader resolves
    /// the program's links to find it).
    fn runpaths(
        &self,
        program: &Path,
        origin: &Path,
        linked: &Result<Linked, Unreadable>,
        library_path: Vec<PathBuf>,
    ) -> Result<(), Untrusted> {
        self.runpaths_from(
            program,
            origin,
            linked,
            &library_path,
            0,
            &mut HashSet::new(),
        )
    }

    /// [`Trust::runpaths`] for a program or a library it loads, `depth`
    /// libraries down; `seen`: the libraries already followed.
    fn runpaths_from(
        &self,
        program: &Path,
        origin: &Path,
        linked: &Result<Linked, Unreadable>,
        library_path: &[PathBuf],
        depth: usize,
        seen: &mut HashSet<PathBuf>,
    ) -> Result<(), Untrusted> {
        // The loader would read a dynamic section plugctl cannot: what it
        // opens for the program cannot be judged, so it is not run.
        let Ok(linked) = linked else {
            return Err(Untrusted::Refused(format!(
                "not run: the ELF program {} has a dynamic section plugctl cannot read as the \
                 loader reads it (not at its address in a loaded segment, not ended, or a \
                 string not there), so what the loader would open for it cannot be judged; \
                 fix: relink it with a standard linker",
                program.display()
            )));
        };
        // A library needed by a name the loader fills a token in first
        // (`libvendor-$PLATFORM.so`, looked for as `libvendor-haswell.so`
        // on one CPU and `libvendor-x86_64.so` on another): which file it
        // opens, and so whose search path it follows next, cannot be said
        // from the name, and one root's vendor directory holds, built
        // with `-rpath` naming a sticky directory, had another user's
        // library there loaded as root.
        if let Some(name) = linked.by_token.first() {
            let token = crate::runner::elf::loader_token(name.as_encoded_bytes()).unwrap_or("");
            return Err(Untrusted::Refused(format!(
                "not run: the ELF program {} needs the library {}, a name in which the \
                 loader fills in ${token} before it looks for it (a different file on another machine), \
                 so what it opens cannot be judged; fix: link it against the library by a \
                 name without a `$`",
                program.display(),
                crate::escape::quote_os(name)
            )));
        }
        // A library linked by its path is opened as it is, wherever that is.
        for library in &linked.by_path {
            super::environment::judge_library_dir(self.policy, Path::new(library)).map_err(
                |why| {
                    Untrusted::Refused(format!(
                        "not run: the ELF program {} has the loader open the library {}, \
                         {why}; fix: link it by its soname, or keep the library where no \
                         one else may write",
                        program.display(),
                        crate::escape::quote_os(library)
                    ))
                },
            )?;
        }
        for element in &linked.search {
            let refused = |why: &str| {
                Untrusted::Refused(format!(
                    "not run: the ELF program {} has the loader search {} for its libraries, \
                     {why}; fix: link it without that search path (its RUNPATH), or keep \
                     the program where no one else may add files",
                    program.display(),
                    crate::escape::quote_os(element)
                ))
            };
            let dir = with_origin(element, origin);
            super::environment::judge_library_dir(self.policy, &dir)
                .map_err(|why| refused(&why))?;
        }
        // Each library the loader takes from the program's own search path
        // or by its path (not from the system's directories, which are the
        // node's packages) has a search path and libraries of its own that
        // the loader follows as it does the program's: a vendor's library
        // beside a root-owned plugin, built with `-rpath /tmp/build`, had
        // the loader look for its own needs in /tmp/build first.
        // Every library of that name in any of them, and in the plugin's
        // LD_LIBRARY_PATH (judged with its environment), whichever the
        // loader would take first.
        let dirs: Vec<PathBuf> = linked
            .search
            .iter()
            .map(|element| with_origin(element, origin))
            .chain(library_path.iter().cloned())
            .collect();
        let found = linked
            .by_name
            .iter()
            .flat_map(|name| dirs.iter().map(move |d| d.join(name)))
            .filter(|p| p.is_file())
            .chain(linked.by_path.iter().map(PathBuf::from))
            .collect::<Vec<_>>();
        for library in found {
            if !seen.insert(library.clone()) {
                continue;
            }
            // The loader follows libraries as deep as they go: one past
            // where plugctl stops would have its search path unjudged.
            if depth >= LIBRARY_DEPTH {
                return Err(Untrusted::Refused(format!(
                    "not run: the ELF program {} needs the library {}, more than \
                     {LIBRARY_DEPTH} libraries down from the plugin, past where plugctl follows \
                     what the loader opens; fix: link the libraries less deep",
                    program.display(),
                    library.display()
                )));
            }
            let Some(lib_dir) = library.parent() else {
                continue;
            };
            let Some(its) = linked_at(&library) else {
                continue;
            };
            self.runpaths_from(&library, lib_dir, &its, library_path, depth + 1, seen)
                .map_err(|u| match u {
                    Untrusted::Refused(why) => Untrusted::Refused(format!(
                        "not run: the ELF program {} needs the library {}, and {}",
                        program.display(),
                        library.display(),
                        why.strip_prefix("not run: ").unwrap_or(&why)
                    )),
                    missing => missing,
                })?;
        }
        Ok(())
    }

    /// `role`: how the message names what `interp` is to `script` (`#!
    /// of`, `the ELF loader of`).
    fn judge_interpreter(
        &self,
        interp: &Path,
        script: &Path,
        depth: usize,
        search: Option<&OsStr>,
        role: &str,
    ) -> Result<(), Untrusted> {
        let cached = self
            .interpreters
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&(interp.to_path_buf(), search.map(OsStr::to_os_string)))
            .cloned();
        let verdict = match cached {
            Some(v) => v,
            None => {
                let v = self.judge_one(interp, depth, search);
                self.interpreters
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(
                        (interp.to_path_buf(), search.map(OsStr::to_os_string)),
                        v.clone(),
                    );
                v
            }
        };
        verdict.map_err(|u| match u {
            Untrusted::Refused(why) => Untrusted::Refused(format!(
                "not run: its interpreter {} ({role} {}) is not trusted: {why}",
                interp.display(),
                script.display()
            )),
            missing => missing,
        })
    }

    /// One interpreter: found through the gate, a regular file that
    /// passes it, and, when it is itself a script, its own interpreter too.
    fn judge_one(
        &self,
        interp: &Path,
        depth: usize,
        search: Option<&OsStr>,
    ) -> Result<(), Untrusted> {
        let (dir, name, meta) = match resolve_file(self.policy, interp) {
            Ok(found) => found,
            Err(r) if r.is_not_found() => {
                return Err(Untrusted::InterpreterMissing {
                    interpreter: interp.display().to_string(),
                });
            }
            Err(r) => return Err(Untrusted::Refused(r.to_string())),
        };
        let path = dir.join(&name);
        if !meta.is_file() {
            return Err(Untrusted::Refused(
                Refusal::Kind {
                    path,
                    is: meta.kind(),
                    want: "a regular file",
                }
                .to_string(),
            ));
        }
        self.policy
            .judge(&path, &meta, "file")
            .and_then(|()| self.policy.judge_program_links(&path, &meta, dir.meta()))
            .map_err(|r| Untrusted::Refused(r.to_string()))?;
        match read_shebang(&dir, &name) {
            Some(nested) => self.interpreter(&path, &nested, depth + 1, search),
            // An ELF interpreter has a loader and a library path of its
            // own, which the kernel and the loader follow as they do a
            // plugin's.
            None => {
                let (loader, libraries) = read_elf_loader(&dir, &name);
                if let Some(loader) = loader {
                    self.loader(&path, &loader)?;
                }
                if self.policy.enforces() {
                    self.runpaths(&path, dir.path(), &libraries, Vec::new())?;
                }
                Ok(())
            }
        }
    }
}

/// An interpreter that loads modules from the directories around the
/// script it runs, which the gate judged only as the way to the script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Searcher {
    /// Python: the script's own directory comes first in `sys.path`,
    /// before the standard library.
    Python,
    /// Node.js (and Bun, which resolves modules as Node.js does):
    /// `node_modules` of the script's directory and of every one above
    /// it, up to `/`.
    Node,
}

impl Searcher {
    /// Which one `name` is: `python3`, `python3.11`, `pypy3`; `node`,
    /// Debian's `nodejs`, a versioned `node20`, `bun`.
    fn of(name: &OsStr) -> Option<Searcher> {
        let name = name.to_str()?;
        let versioned = |rest: &str| rest.bytes().all(|b| b.is_ascii_digit() || b == b'.');
        if let Some(rest) = name
            .strip_prefix("python")
            .or_else(|| name.strip_prefix("pypy"))
        {
            return versioned(rest).then_some(Searcher::Python);
        }
        if let Some(rest) = name.strip_prefix("node") {
            return (rest == "js" || versioned(rest)).then_some(Searcher::Node);
        }
        (name == "bun").then_some(Searcher::Node)
    }
}

/// Which [`Searcher`], if any, the kernel runs for a script with this
/// `#!` line, at any depth, by the name it is run by or by the file that
/// name leads to (`/usr/bin/node` is a link to `nodejs` on Debian,
/// `python3` to `python3.11`). The chain was judged by [`Trust::check`]
/// already; this only reads the names.
fn searcher(
    shebang: &Shebang,
    search: Option<&OsStr>,
    depth: usize,
) -> Option<(Searcher, PathBuf)> {
    if depth > SHEBANG_DEPTH {
        return None;
    }
    let (program, search) = match shebang.env_runs() {
        EnvRuns::Program { name, .. } => {
            let search = shebang.env_search_path(search);
            match env_lookup(&name, search.as_deref()) {
                Ok(Some(found)) => (found, search),
                _ => return None,
            }
        }
        _ => (
            PathBuf::from(&shebang.interpreter),
            search.map(OsStr::to_os_string),
        ),
    };
    // What that program may run by PATH in turn (`nice python3`).
    let mut programs = vec![program];
    programs.extend(
        shebang
            .passed_lookups(search.as_deref())
            .iter()
            .filter_map(|(name, on)| env_lookup(name, on.as_deref()).ok().flatten()),
    );
    let is = |program: &PathBuf| {
        let named = program.file_name().and_then(Searcher::of);
        let real = || {
            std::fs::canonicalize(program)
                .ok()
                .and_then(|p| p.file_name().and_then(Searcher::of))
        };
        named
            .or_else(real)
            .map(|searcher| (searcher, program.clone()))
    };
    programs.iter().find_map(is).or_else(|| {
        programs.iter().find_map(|program| {
            shebang_of(program).and_then(|nested| searcher(&nested, search.as_deref(), depth + 1))
        })
    })
}

/// For a script a [`Searcher`] runs: the first directory it loads modules
/// from (the script's own, and for Node.js every one up to `/`) that is
/// sticky and that others may write (`/tmp`), where anyone may add a
/// module of theirs; `None` when there is none. `dir` is the script's
/// directory as the gate reached it, without links or `..`, which is
/// where both start (they resolve the script's links).
fn sticky_searched(script: &Path, dir: &Path, searcher: Searcher) -> Option<String> {
    let searched: Vec<&Path> = match searcher {
        Searcher::Python => vec![dir],
        Searcher::Node => dir.ancestors().collect(),
    };
    searched.into_iter().find_map(|d| {
        let st = rustix::fs::lstat(d).ok()?;
        let mode = st.st_mode;
        (mode & 0o1000 != 0 && mode & 0o022 != 0).then(|| {
            let how = match searcher {
                Searcher::Python => {
                    "runs under Python, which imports the modules a script names from the \
                     script's own directory before its standard library"
                }
                Searcher::Node => {
                    "runs under Node.js, which loads the modules a script requires from \
                     node_modules in every directory up to /"
                }
            };
            format!(
                "not run: {} {how}, and {} is a sticky directory others may add files to \
                 (mode {:o}): anyone could put a module there whose code would run as root; \
                 fix: keep the plugin in a directory with no sticky, world-writable \
                 directory {}",
                script.display(),
                d.display(),
                mode & 0o7777,
                match searcher {
                    Searcher::Python => "as its own",
                    Searcher::Node => "on its way up to /",
                }
            )
        })
    })
}

/// `path` with `.` and `..` taken away as text, as Python's `abspath`
/// does (`/a/../b` is `/b`, whatever `/a` is).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// For an interpreter a [`Searcher`] is: the first directory above the
/// file it really is (its links resolved, as the runtime resolves them to
/// find itself) that is sticky and that others may write; `None` when
/// there is none. For Python also the first above the path it is started
/// by, its links not resolved: it reads `pyvenv.cfg` beside that path or
/// one level up before it resolves anything, so a link of root's to
/// `/usr/bin/python3` in `/tmp/bin` takes another user's
/// `/tmp/pyvenv.cfg`, and the `site-packages` beside it, for its own.
fn sticky_above_interpreter(script: &Path, program: &Path, searcher: Searcher) -> Option<String> {
    let real = std::fs::canonicalize(program).ok()?;
    // Python's pyvenv.cfg: the two directories above the path as named.
    let mut paths = Vec::new();
    if searcher == Searcher::Python {
        paths.push((lexical(program), 2));
    }
    paths.push((real, usize::MAX));
    let (runs, d, mode) = paths.iter().find_map(|(runs, up)| {
        sticky_above(runs, *up).map(|(d, mode)| (runs.as_path(), d, mode))
    })?;
    let what = match searcher {
        Searcher::Python => {
            "Python, which finds its standard library from where it is \
             (pyvenv.cfg beside the path it is started by or one level up, \
             lib/python3.X in every directory above the file it is)"
        }
        Searcher::Node => {
            "Node.js, which loads global modules from lib/node beside its own \
             directory"
        }
    };
    Some(format!(
        "not run: {} runs under {}, {what}, and {} above it is a sticky \
         directory others may add files to (mode {:o}): anyone could put a library \
         there whose code would run as root; fix: run it with an interpreter \
         installed outside any such directory (/usr/bin)",
        script.display(),
        runs.display(),
        d.display(),
        mode & 0o7777,
    ))
}

/// The first of the `up` directories above `path` (its links followed, as
/// a lookup of `pyvenv.cfg` there follows them) that is sticky and that
/// others may write, with its mode.
fn sticky_above(path: &Path, up: usize) -> Option<(&Path, u32)> {
    path.ancestors().skip(1).take(up).find_map(|d| {
        let mode = rustix::fs::stat(d).ok()?.st_mode;
        (mode & 0o1000 != 0 && mode & 0o022 != 0).then_some((d, mode))
    })
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

/// A directory of an ELF program's search path as the loader reads it:
/// `$ORIGIN` (or `${ORIGIN}`) is the program's own directory. Any other
/// `$` token (`$LIB`, `$PLATFORM`) is left as written, for the judge to
/// refuse: the loader fills it in from what it knows of the machine.
fn with_origin(element: &OsStr, origin: &Path) -> PathBuf {
    let origin = origin.as_os_str().as_encoded_bytes();
    let mut out = Vec::new();
    let mut rest = element.as_encoded_bytes();
    while let Some(at) = rest.iter().position(|&b| b == b'$') {
        out.extend_from_slice(&rest[..at]);
        let after = &rest[at + 1..];
        // As the loader reads a token: `$ORIGIN` ends where a name would.
        let plain = after.strip_prefix(b"ORIGIN").filter(|tail| {
            tail.first()
                .is_none_or(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))
        });
        match after.strip_prefix(b"{ORIGIN}").or(plain) {
            Some(tail) => {
                out.extend_from_slice(origin);
                rest = tail;
            }
            None => {
                out.push(b'$');
                rest = after;
            }
        }
    }
    out.extend_from_slice(rest);
    PathBuf::from(OsString::from_vec(out))
}

/// What the loader opens for the ELF file at `path`
/// ([`crate::runner::elf::library_paths`]); None when it cannot be opened
/// or read. By path: only for libraries in directories already judged.
fn linked_at(path: &Path) -> Option<Result<Linked, Unreadable>> {
    let file = std::fs::File::open(path).ok()?;
    let mut head = Vec::with_capacity(crate::runner::elf::HEAD_LEN);
    (&file)
        .take(crate::runner::elf::HEAD_LEN as u64)
        .read_to_end(&mut head)
        .ok()?;
    Some(crate::runner::elf::library_paths(&head, &file))
}

/// The loader (`PT_INTERP`) of an ELF entry and its library search path
/// (`DT_RUNPATH`), read through the checked directory; nothing for a
/// static program, a script or a broken file.
fn read_elf_loader(dir: &CheckedDir, name: &OsStr) -> (Option<String>, Result<Linked, Unreadable>) {
    use crate::runner::elf;
    let Ok((file, _)) = dir.open_read(name, u64::MAX) else {
        return (None, Ok(Linked::default()));
    };
    let mut head = Vec::with_capacity(elf::HEAD_LEN);
    if (&file)
        .take(elf::HEAD_LEN as u64)
        .read_to_end(&mut head)
        .is_err()
        || !head.starts_with(b"\x7fELF")
    {
        return (None, Ok(Linked::default()));
    }
    (
        elf::interpreter(&head, &file),
        elf::library_paths(&head, &file),
    )
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
    fn origin_is_read_as_the_loader_reads_it() {
        let origin = Path::new("/opt/p");
        let read = |e: &str| with_origin(OsStr::new(e), origin);
        assert_eq!(read("$ORIGIN/lib"), Path::new("/opt/p/lib"));
        assert_eq!(read("${ORIGIN}:x"), Path::new("/opt/p:x"));
        assert_eq!(read("$ORIGIN"), Path::new("/opt/p"));
        assert_eq!(read("/a/$ORIGIN/$ORIGIN"), Path::new("/a//opt/p//opt/p"));
        // Not the token: a longer name, or another token, stays for the
        // judge to refuse.
        assert_eq!(read("$ORIGINAL/lib"), Path::new("$ORIGINAL/lib"));
        assert_eq!(read("/x/$LIB"), Path::new("/x/$LIB"));
        assert_eq!(read("/x$"), Path::new("/x$"));
    }

    #[test]
    fn shebangs_are_read_as_linux_reads_them() {
        let s = Shebang::parse(b"#!/bin/sh\necho").unwrap();
        assert_eq!(s.interpreter, "/bin/sh");
        assert_eq!(s.arg, None);
        let s = Shebang::parse(b"#! /usr/bin/env  python3 -u \n").unwrap();
        assert_eq!(s.interpreter, "/usr/bin/env");
        assert_eq!(s.arg.as_deref(), Some("python3 -u"));
        // Without -S env takes the one argument whole: no such program.
        assert_eq!(s.env_program(), Some("python3 -u"));
        let s = Shebang::parse(b"#!/usr/bin/env -S /opt/x/payload -u\n").unwrap();
        assert_eq!(s.env_program(), Some("/opt/x/payload"));
        assert_eq!(
            s.env_runs(),
            EnvRuns::Program {
                name: "/opt/x/payload".into(),
                args: vec!["-u".into()]
            }
        );
        assert!(matches!(
            Shebang::parse(b"#!/usr/bin/env -v sh\n")
                .unwrap()
                .env_runs(),
            EnvRuns::Unknown(_)
        ));
        // The kernel trims spaces and tabs only: a CR is part of the name.
        let s = Shebang::parse(b"#!/tmp/interp\r\necho").unwrap();
        assert_eq!(s.interpreter, "/tmp/interp\r");
        assert_eq!(Shebang::parse(b"#!\n"), None);
        // A line past the buffer is cut where the kernel writes its NUL.
        let mut long = b"#!/bin/echo ".to_vec();
        long.resize(SHEBANG_MAX - 1, b'a');
        long.extend_from_slice(b"XYZ\n");
        let s = Shebang::parse(&long).unwrap();
        assert_eq!(s.arg.as_deref().map(str::len), Some(SHEBANG_MAX - 1 - 12));
        assert!(s.arg.unwrap().ends_with('a'));
        // A blank before a NUL is the argument's, as the kernel passes it;
        // an argument of nothing but a NUL is an empty one.
        let s = Shebang::parse(b"#!/usr/bin/nice /x/sh \0\n").unwrap();
        assert_eq!(s.arg.as_deref(), Some("/x/sh "));
        let s = Shebang::parse(b"#!/bin/sh -e\0junk\n").unwrap();
        assert_eq!(
            (s.interpreter.as_str(), s.arg.as_deref()),
            ("/bin/sh", Some("-e"))
        );
        let s = Shebang::parse(b"#!/bin/sh\0 -e\n").unwrap();
        assert_eq!(s.arg, None);
        let s = Shebang::parse(b"#!/bin/echo \0").unwrap();
        assert_eq!(s.arg.as_deref(), Some(""));
        assert_eq!(Shebang::parse(b"#!   \n"), None);
        // A newline as the buffer's last byte ends the line there.
        let mut exact = b"#!/bin/echo ".to_vec();
        exact.resize(SHEBANG_MAX - 1, b'a');
        exact.push(b'\n');
        let s = Shebang::parse(&exact).unwrap();
        assert_eq!(s.arg.as_deref().map(str::len), Some(SHEBANG_MAX - 1 - 12));
        assert_eq!(Shebang::parse(b"\x7fELF"), None);
    }

    #[test]
    fn what_a_lines_program_runs_by_path_is_read_past_env_and_wrappers() {
        let next = |l: &[u8]| Shebang::parse(l).unwrap().passed_programs();
        assert_eq!(next(b"#!/usr/bin/nice python3\n"), ["python3"]);
        assert_eq!(next(b"#!/usr/bin/env -S nice python3 -u\n"), ["python3"]);
        assert_eq!(
            next(b"#!/usr/bin/env -S timeout 10 python3\n"),
            ["10", "python3"]
        );
        assert_eq!(
            next(b"#!/usr/bin/nohup /usr/bin/python3\n"),
            ["/usr/bin/python3"]
        );
        for none in [
            &b"#!/bin/sh\n"[..],
            b"#!/bin/sh -e\n",
            b"#!/usr/bin/env python3\n",
            b"#!/usr/bin/env -S python3 -u\n",
            b"#!/usr/bin/env -v sh\n",
        ] {
            assert!(next(none).is_empty(), "{}", String::from_utf8_lossy(none));
        }
    }

    #[test]
    fn what_a_lines_words_set_or_name_is_read_apart_from_its_programs() {
        let words = |l: &[u8]| Shebang::parse(l).unwrap().passed_words();
        assert_eq!(
            words(b"#!/usr/bin/env -S nice env PATH=/x sh\n"),
            [
                Passed::Program("env".into()),
                Passed::Sets("PATH".into(), "/x".into()),
                Passed::Program("sh".into()),
            ]
        );
        // A `/` before the `=` makes it a path to a program, and so does
        // any `=` to a program other than env.
        assert_eq!(
            words(b"#!/usr/bin/env -S env ./a=b\n"),
            [Passed::Program("./a=b".into())]
        );
        assert_eq!(
            words(b"#!/usr/bin/env -S nice PATH=/x\n"),
            [Passed::Program("PATH=/x".into())]
        );
        assert_eq!(
            words(b"#!/usr/bin/env -S env A=b /usr/bin/env PATH=/x sh\n"),
            [
                Passed::Sets("A".into(), "b".into()),
                Passed::Program("/usr/bin/env".into()),
                Passed::Sets("PATH".into(), "/x".into()),
                Passed::Program("sh".into()),
            ]
        );
        // A nested env's PATH, -SPATH= and -i change where later words
        // are looked up; to another program they are its own.
        let lookups = Shebang::parse(b"#!/usr/bin/env -S env PATH=/x a -SPATH=/y b -i c\n")
            .unwrap()
            .passed_lookups(Some(OsStr::new("/p")));
        assert_eq!(
            lookups,
            [
                ("a".to_string(), Some("/x".into())),
                ("b".to_string(), Some("/x".into())),
                ("c".to_string(), Some("/x".into())),
            ]
        );
        let lookups = Shebang::parse(b"#!/usr/bin/env -S env -SPATH=/y b env -i c\n")
            .unwrap()
            .passed_lookups(Some(OsStr::new("/p")));
        assert_eq!(
            lookups,
            [
                ("b".to_string(), Some("/y".into())),
                ("env".to_string(), Some("/y".into())),
                ("c".to_string(), None),
            ]
        );
        assert_eq!(option_paths("--root=/srv/x"), ["/srv/x"]);
        assert_eq!(option_paths("-R/srv/x"), ["/srv/x"]);
        assert_eq!(option_paths("-SPATH=/a:b:/c"), ["/a", "/c"]);
        assert!(option_paths("-n5").is_empty());
        assert!(option_paths("--kill-after=5").is_empty());
    }

    #[test]
    fn env_finds_what_the_default_search_path_holds() {
        let sh = env_lookup("sh", None).unwrap().unwrap();
        assert!(sh.ends_with("sh"));
        assert_eq!(
            env_lookup("/opt/x/y", None),
            Ok(Some(PathBuf::from("/opt/x/y"))),
            "a path is taken as it is"
        );
        assert_eq!(env_lookup("no-such-program-here", None), Ok(None));
    }

    #[test]
    fn searchers_are_known_by_each_name_they_are_installed_under() {
        for name in ["node", "nodejs", "node20", "node18.19", "bun"] {
            assert_eq!(
                Searcher::of(OsStr::new(name)),
                Some(Searcher::Node),
                "{name}"
            );
        }
        for name in ["python", "python3", "python3.11", "pypy3"] {
            assert_eq!(
                Searcher::of(OsStr::new(name)),
                Some(Searcher::Python),
                "{name}"
            );
        }
        for name in [
            "nodemon",
            "sh",
            "bunx",
            "node-gyp",
            "python3-config",
            "perl",
            "",
        ] {
            assert_eq!(Searcher::of(OsStr::new(name)), None, "{name}");
        }
    }

    #[test]
    fn env_searches_the_plugins_path_as_its_line_changes_it() {
        let d = tempfile::tempdir().unwrap();
        let sh = d.path().join("sh");
        std::fs::write(&sh, "").unwrap();
        std::fs::set_permissions(&sh, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        let path = std::ffi::OsString::from(format!("{}:/bin", d.path().display()));
        assert_eq!(env_lookup("sh", Some(&path)), Ok(Some(sh.clone())));
        assert!(env_lookup("sh", Some(OsStr::new("bin:/bin"))).is_err());
        assert!(env_lookup("sh", Some(OsStr::new(":/bin"))).is_err());
        let line = |l: &[u8]| Shebang::parse(l).unwrap();
        let plain = line(b"#!/usr/bin/env sh\n");
        assert_eq!(plain.env_search_path(Some(&path)), Some(path.clone()));
        let cleared = line(b"#!/usr/bin/env -S -i sh\n");
        assert_eq!(cleared.env_search_path(Some(&path)), None);
        let set = line(b"#!/usr/bin/env -S PATH=/opt/bin sh -x\n");
        assert_eq!(set.env_search_path(None), Some("/opt/bin".into()));
        // env splits -S at a vertical tab too: the second PATH is searched.
        let vt = line(b"#!/usr/bin/env -S PATH=/usr/bin\x0bPATH=/opt/bin sh\n");
        assert_eq!(vt.env_search_path(None), Some("/opt/bin".into()));
        assert_eq!(vt.env_sets().len(), 2);
        assert!(matches!(
            line(b"#!/usr/bin/env -S PATH=${HOME}/bin sh\n").env_runs(),
            EnvRuns::Unknown(_)
        ));
    }
}

//! What a plugin's environment may hold besides the protocol's own
//! variables: a caller's variable that changes what the plugin's process
//! runs or loads ([`crate::hooks::TABLE`]: `PATH`, `LD_*`, `PYTHONPATH`,
//! `BASH_ENV`...) passes only when every path it names passes the gate,
//! so that another user's directory on the plugin's `PATH`, or their
//! library in its `LD_PRELOAD`, never runs as root. One whose value is code
//! or options (`NODE_OPTIONS`, `PERL5OPT`, `BASH_FUNC_*`, `PS4`) is
//! refused: nothing in it can be judged as a path. A plugin that needs
//! such a variable sets it itself; its file is the one the gate judged.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use super::dir::resolve_file;
use super::{CheckedDir, Policy, Refusal};
use crate::hooks::{self, Value};

/// Judges every variable of a plugin's environment the hooks table names;
/// `Err` says which variable, which path and why, and the fix.
pub fn judge(policy: Policy, env: &[(OsString, OsString)]) -> Result<(), String> {
    for (key, value) in env {
        let name = key.to_string_lossy();
        let Some(hit) = hooks::find(&name) else {
            continue;
        };
        if expanded(hit.pattern()) && value.as_encoded_bytes().iter().any(|b| b"$`\\".contains(b)) {
            return Err(format!(
                "its environment's {name} holds a `$`, a backquote or a backslash, which the \
                 shell expands before it reads the file ({name} is read as if in double \
                 quotes: a command substitution runs a command, a backslash and a line break \
                 vanish): not a path plugctl can judge; name the file plainly, or leave {name} \
                 out of the plugin's environment"
            ));
        }
        let paths: Vec<&OsStr> = match hit.value() {
            Value::Code => {
                return Err(format!(
                    "its environment holds {name}, which would change {} ({}): not a path \
                     plugctl can judge, so a plugin gets it only by setting it itself",
                    hit.reader().changes(),
                    hit.pattern()
                ));
            }
            Value::Paths => split(value, b":"),
            // The loader splits at a `;` too: `/usr/lib;/home/x` is two
            // directories to it, and one under `/usr` that is not there
            // to a split at `:` alone.
            Value::LibraryPath => split(value, b":;"),
            // A bare library name is looked up where the loader looks:
            // the system's directories and LD_LIBRARY_PATH (judged too).
            Value::Preload => split(value, b": ")
                .into_iter()
                .filter(|p| p.as_encoded_bytes().contains(&b'/'))
                .collect(),
        };
        for path in paths {
            // The gate follows links before a `..`, as the kernel does,
            // and stops at a name that is not there; Python and Node.js
            // take `..` away as text first, so that `/nothing/../their/dir`
            // (judged: a name not there in `/`) is their directory to them.
            let climbs = Path::new(path)
                .components()
                .any(|c| c == std::path::Component::ParentDir);
            if climbs {
                return Err(format!(
                    "its environment's {name} names {}, with a `..`, which a reader such as \
                     Python or Node.js takes away as text (`/a/../b` is `/b` to it, whatever \
                     `/a` is) where the kernel follows links first: not a path plugctl can \
                     judge for both; name the directory without `..`, or leave {name} out of \
                     the plugin's environment",
                    crate::escape::quote_os(path)
                ));
            }
            judge_path(policy, Path::new(path)).map_err(|why| {
                format!(
                    "its environment's {name} names {}, {why}; fix it, or leave {name} out \
                     of the plugin's environment",
                    crate::escape::quote_os(path)
                )
            })?;
        }
    }
    Ok(())
}

/// A variable whose reader expands its value before taking it for a file:
/// bash's `BASH_ENV` (and a shell's `ENV`) goes through parameter
/// expansion, command substitution and arithmetic expansion, as inside
/// double quotes (bash(1), INVOCATION). The gate would judge the text,
/// while bash runs `/`cmd`` or reads `/usr\<newline>/../their/rc` as
/// `/usr/../their/rc`: with no `$`, backquote or backslash, the
/// expansion leaves the text as it is.
fn expanded(pattern: hooks::Pattern) -> bool {
    matches!(pattern, hooks::Pattern::Exact("BASH_ENV" | "ENV"))
}

/// The elements of a list, empty ones kept (an empty `PATH` element is the
/// working directory).
fn split<'a>(value: &'a OsStr, seps: &[u8]) -> Vec<&'a OsStr> {
    value
        .as_encoded_bytes()
        .split(|b| seps.contains(b))
        // SAFETY: split at ASCII bytes of a valid OsStr's encoding.
        .map(|part| unsafe { OsStr::from_encoded_bytes_unchecked(part) })
        .collect()
}

/// A plugin runs in plugctl's working directory, and what it runs reads
/// from there by relative names without being told to: with no `PATH` (a
/// host-volume plugin never gets one; a secrets plugin unless its caller
/// passes one) bash searches it for every command it runs, as its built-in
/// `PATH` ends in `.`; whatever the `PATH`, PHP includes from it first (its
/// default `include_path` starts with `.`) and bash's `source` of a name
/// not on `PATH` reads it. That directory must pass the gate as a
/// directory the plugin searches: root's (or the invoking user's), no one
/// else's to write, and not sticky, or whoever adds a file there runs it
/// as root.
pub fn judge_working_directory(policy: Policy, env: &[(OsString, OsString)]) -> Result<(), String> {
    let reads = if env.iter().any(|(k, _)| k == "PATH") {
        "a plugin's programs read files from its working directory by relative names \
         (PHP's include path starts with `.`, bash's `source` of a name not on PATH)"
    } else {
        "it gets no PATH, so bash searches its working directory for the commands it runs \
         (bash's own PATH ends in `.`)"
    };
    let cwd = match std::env::current_dir() {
        Ok(cwd) => cwd,
        // A directory removed meanwhile: no one can add a file to it.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        // Too deep to be named (or not searchable): not judged, not used.
        Err(e) => {
            return Err(format!(
                "{reads}, and plugctl cannot judge its working directory ({e}); a working \
                 directory only root can write lets it run"
            ));
        }
    };
    judge_path(policy, &cwd).map_err(|why| {
        format!(
            "{reads}: plugctl's working directory {}, {why}; a working directory only root \
             can write lets it run",
            crate::escape::quote_os(cwd.as_os_str())
        )
    })
}

/// A path a sandbox policy grants a plugin (`read` or `write`, literal or
/// from the call's variable): plugctl opens it as root for the plugin's
/// Landlock rule, following its links, so whoever could change a
/// directory or a link on its way would choose what the grant opens (their
/// link pointed at root's own directory widens the strict sandbox to it).
/// The rule of a path a variable names, but for the sticky one: Landlock
/// confines the plugin beneath the directory granted, whatever others add
/// to it.
pub fn judge_grant(policy: Policy, path: &Path) -> Result<(), String> {
    judge_path_as(policy, path, false)
}

/// One path a variable names: absolute, no `$` (the loader's tokens), and
/// — walked from `/` through the gate, its symlinks judged — a file or
/// directory root or the invoking user owns and nobody else can write. A
/// path that is not there yet passes when no one else could make it: the
/// directory it would be made in passes, and is not a sticky one its
/// group or others may write (in `/tmp` anyone may create it).
/// A refusal continuing "…, ": which plugctl does not trust (an owner or a
/// mode the override lifts), or which it cannot use.
fn which(r: &super::Refusal) -> String {
    if r.is_insecure() {
        format!("which plugctl does not trust: {r}")
    } else {
        format!("which plugctl cannot use: {r}")
    }
}

/// A directory an ELF program's own search path (`DT_RUNPATH`) names: the
/// loader looks there for every library the program needs, before the
/// system's, as it does in `LD_LIBRARY_PATH`'s.
pub(super) fn judge_library_dir(policy: Policy, path: &Path) -> Result<(), String> {
    judge_path(policy, path)
}

/// A path an option of a `#!` line's words names (`env --chdir=/x`,
/// `unshare --root=/x`): the program may look up what it runs there, or
/// run it from there, so it passes as a directory a plugin searches does.
pub(super) fn judge_option_path(policy: Policy, path: &Path) -> Result<(), String> {
    judge_path(policy, path)
}

fn judge_path(policy: Policy, path: &Path) -> Result<(), String> {
    judge_path_as(policy, path, true)
}

/// [`judge_path`]; `searched`: the plugin's programs search it (a sticky
/// directory others add files to is refused).
fn judge_path_as(policy: Policy, path: &Path, searched: bool) -> Result<(), String> {
    if path.as_os_str().is_empty() {
        return Err("an empty element: the plugin's working directory".into());
    }
    if !path.is_absolute() {
        return Err("a path relative to the plugin's working directory".into());
    }
    if path.as_os_str().as_encoded_bytes().contains(&b'$') {
        return Err(
            "a path with a `$` token the loader expands, which plugctl cannot judge".into(),
        );
    }
    match resolve_file(policy, path) {
        Ok((dir, name, meta)) => {
            let what = if meta.is_dir() { "directory" } else { "file" };
            policy
                .judge(&dir.join(&name), &meta, what)
                .map_err(|r| which(&r))?;
            // The gate takes a sticky directory for what plugctl itself
            // puts there; a program searching it runs what anyone put there.
            if searched
                && policy.enforces()
                && meta.is_dir()
                && meta.mode & 0o1000 != 0
                && meta.mode & 0o022 != 0
            {
                return Err(format!(
                    "a sticky directory others may add files to (mode {:o}), which the plugin \
                     would search",
                    meta.mode & 0o7777
                ));
            }
            Ok(())
        }
        // `/` itself, or a path ending in `..`: a directory.
        Err(Refusal::Kind { .. }) => CheckedDir::open(policy, path)
            .map(drop)
            .map_err(|r| which(&r)),
        Err(r) if r.is_not_found() => not_there(policy, r.path()),
        Err(r) => Err(which(&r)),
    }
}

/// A path that is not there: who could make it.
fn not_there(policy: Policy, missing: &Path) -> Result<(), String> {
    let mut above: PathBuf = missing.to_path_buf();
    while above.pop() {
        match CheckedDir::open(policy, &above) {
            Ok(dir) => {
                let mode = dir.meta().mode;
                // The gate passes a sticky directory its group may write as
                // it passes one anyone may: each member may create the name
                // between this check and the plugin's use of it.
                return if mode & 0o1000 != 0 && mode & 0o022 != 0 && policy.enforces() {
                    let who = if mode & 0o002 != 0 {
                        "anyone"
                    } else {
                        "any member of its group"
                    };
                    Err(format!(
                        "which does not exist, and {who} may create it in the sticky {} \
                         (mode {:o})",
                        dir.path().display(),
                        mode & 0o7777
                    ))
                } else {
                    Ok(())
                };
            }
            Err(r) if r.is_not_found() => continue,
            Err(r) => return Err(which(&r)),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
        pairs.iter().map(|(k, v)| (k.into(), v.into())).collect()
    }

    #[test]
    fn paths_are_judged_code_is_refused() {
        let p = Policy::strict();
        assert_eq!(
            judge(p, &env(&[("PATH", "/usr/bin:/bin"), ("TOKEN", "x")])),
            Ok(())
        );
        assert_eq!(judge(p, &env(&[("LD_PRELOAD", "libc.so.6")])), Ok(()));
        for bad in [
            ("PATH", "/usr/bin:"),
            ("PATH", "bin:/usr/bin"),
            ("path", "relative"),
            ("LD_LIBRARY_PATH", "$ORIGIN/lib"),
            ("BASH_ENV", "/`id`"),
            ("ENV", "/usr\\\n/../home/x/rc"),
            ("PYTHONPATH", "/usr/lib/python3/../../../tmp"),
            ("PATH", "/nothing-here/../usr/bin"),
            ("NODE_OPTIONS", "--require /x.js"),
            ("BASH_FUNC_ls%%", "() { :; }"),
        ] {
            assert!(judge(p, &env(&[bad])).is_err(), "{bad:?}");
        }
        let sticky = tempfile::tempdir().unwrap();
        std::fs::set_permissions(
            sticky.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o1777),
        )
        .unwrap();
        let why = judge(p, &env(&[("PATH", sticky.path().to_str().unwrap())])).unwrap_err();
        assert!(
            why.contains("a sticky directory others may add files to"),
            "{why}"
        );
        let later = sticky.path().join("later");
        let why = judge(p, &env(&[("PATH", later.to_str().unwrap())])).unwrap_err();
        assert!(why.contains("anyone may create it"), "{why}");
    }
}

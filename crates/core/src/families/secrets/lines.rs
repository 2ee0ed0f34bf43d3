//! What `secret fetch` may print as lines that another program takes
//! apart: `KEY=VALUE` lines (read by systemd's `EnvironmentFile=`,
//! `docker --env-file`, plugctl's own `--env-file`, and shells that source
//! such a file) and `export KEY='VALUE'` lines (for a POSIX shell's
//! `eval`). A fetch is printed whole or not at all: every key that cannot
//! be printed safely is named (never its value), so the caller learns
//! every reason at once.

use super::fetch::Fetched;
use super::masking::is_shell_name;
use crate::hooks;

/// The line formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lines {
    /// `KEY=VALUE`, values verbatim: only values every reader of such
    /// lines reads back exactly ([`is_plain`]).
    Kv,
    /// `export KEY='VALUE'`: any value but one with a NUL byte.
    Env,
}

/// Why a key of a fetch cannot be printed in a line format.
#[derive(Debug, Clone, Copy)]
pub enum Unprintable {
    /// Not `[A-Za-z_][A-Za-z0-9_]*`: no shell can set it, systemd drops it.
    NotAName,
    /// A variable that hooks code into a shell or the programs it starts
    /// ([`hooks::TABLE`]), which the caller did not name as allowed.
    Hook(hooks::Hit),
    /// The value holds a NUL byte, which no environment can hold (and which
    /// ends systemd's reading of the whole file).
    Nul,
    /// `kv`: the value holds a character some reader of `KEY=VALUE` lines
    /// takes apart (see [`is_plain`]).
    NotPlain,
}

/// Every key of `fetched` that cannot be printed as `lines`, in key order,
/// with its first reason. `allowed`: keys the caller named, exactly as
/// spelled, which the hooks table does not refuse (the other reasons still
/// hold: they are about what a reader can take, not about trust).
pub fn refused(fetched: &Fetched, lines: Lines, allowed: &[String]) -> Vec<(String, Unprintable)> {
    fetched
        .values
        .iter()
        .filter_map(|(key, value)| {
            let value = value.expose();
            let why = if !is_shell_name(key) {
                Unprintable::NotAName
            } else if let Some(hit) = hooks::find(key).filter(|_| !allowed.iter().any(|a| a == key))
            {
                Unprintable::Hook(hit)
            } else if value.contains('\0') {
                Unprintable::Nul
            } else if lines == Lines::Kv && !is_plain(value) {
                Unprintable::NotPlain
            } else {
                return None;
            };
            Some((key.clone(), why))
        })
        .collect()
}

/// The characters no `KEY=VALUE` line may hold in its value: each is taken
/// apart by at least one of its readers. systemd's `EnvironmentFile=` ends
/// a line at LF or CR, drops a backslash and the quotes around a value,
/// and trims white space at both ends; `docker --env-file` keeps every
/// byte but ends the line at LF (and drops a CR before it); a POSIX shell
/// that sources the file ends the word at white space or `;&|<>()`, and
/// expands `$`, backquotes, quotes and backslashes. NUL ends systemd's
/// whole file.
pub const NOT_PLAIN: &[char] = &[
    '\0', '\n', '\r', ' ', '\t', '\\', '\'', '"', '`', '$', ';', '&', '|', '<', '>', '(', ')',
];

/// A value that every reader of a `KEY=VALUE` line reads back exactly,
/// and that runs nothing when the line is sourced by bash, dash or zsh:
/// none of [`NOT_PLAIN`], and no `~` or `=` at its start or after a `:`
/// (a shell's tilde expansion, zsh's `=cmd` expansion, in an assignment).
pub fn is_plain(value: &str) -> bool {
    !value.contains(NOT_PLAIN) && !value.split(':').any(|part| part.starts_with(['~', '=']))
}

#[cfg(test)]
mod tests {
    use super::super::value::SecretValue;
    use super::*;

    fn fetched(pairs: &[(&str, &str)]) -> Fetched {
        Fetched {
            values: pairs
                .iter()
                .map(|(k, v)| (k.to_string(), SecretValue::new(*v)))
                .collect(),
        }
    }

    #[test]
    fn plain_values() {
        for ok in [
            "",
            "s3cr3t",
            "a=b",
            "x~y",
            "!#%*+,-./:?@[]^_{}",
            "pässwörd",
            "a:b",
        ] {
            assert!(is_plain(ok), "{ok:?}");
        }
        for bad in [
            "a b", "a\tb", "a\nb", "a\rb", "a\\b", "'a'", "a\"b", "$x", "`x`", "a;b", "a&b", "a|b",
            "a<b", "a>b", "(a)", "~", "~root", "a:~b", "=ls", "a:=b", "a\0b",
        ] {
            assert!(!is_plain(bad), "{bad:?}");
        }
    }

    #[test]
    fn every_key_is_named_with_its_first_reason() {
        let f = fetched(&[
            ("OK", "v"),
            ("bad-key", "v"),
            ("LD_PRELOAD", "/x.so"),
            ("NUL", "a\0b"),
            ("SPACE", "a b"),
            ("path", "/x"),
        ]);
        let kv: Vec<String> = refused(&f, Lines::Kv, &[])
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(kv, ["LD_PRELOAD", "NUL", "SPACE", "bad-key", "path"]);
        let env = refused(&f, Lines::Env, &["path".to_string()]);
        let keys: Vec<&str> = env.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["LD_PRELOAD", "NUL", "bad-key"]);
        assert!(matches!(env[0].1, Unprintable::Hook(_)));
        assert!(matches!(env[1].1, Unprintable::Nul));
        assert!(matches!(env[2].1, Unprintable::NotAName));
        // An allowed key is allowed as spelled: PATH is not path.
        let f = fetched(&[("PATH", "/x")]);
        assert_eq!(refused(&f, Lines::Env, &["path".to_string()]).len(), 1);
    }
}

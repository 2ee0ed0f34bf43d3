//! Exit codes, in one place: scripts depend on these numbers
//! (docs/cli.md). The library's errors know none; this is where each class
//! of error becomes its code, its `kind` and its JSON error document.

use plugctl_core::Error;
use plugctl_core::error::Hint;

/// Everything asked for succeeded.
pub const SUCCESS: i32 = 0;
/// A plugin or an operation failed; the message says which and why.
pub const FAILURE: i32 = 1;
/// Usage or configuration error: bad flag, bad value, unreadable directory or registry.
pub const USAGE: i32 = 2;
/// No such plugin, volume or registry entry.
pub const NOT_FOUND: i32 = 3;
/// A deadline passed: a plugin's, a wait's, or the registry lock's.
pub const TIMEOUT: i32 = 4;

/// Every exit code plugctl documents, with what it means, in order: the
/// man pages' EXIT STATUS is made from this table (and the stop by a
/// signal, [`crate::shutdown::exit_code`]), and docs/cli.md lists the same.
pub const DOCUMENTED: [(i32, &str); 5] = [
    (
        SUCCESS,
        "Success; also when the reader of stdout went away.",
    ),
    (
        FAILURE,
        "A plugin or an operation failed (the message says which and why): a plugin's \
         failure, an unhealthy plugin in fingerprint, a finding of validate, test or \
         volume audit, a difference of pin --check or replay, a failed volume in \
         volume restore or volume repair, a full disk.",
    ),
    (
        USAGE,
        "A usage or configuration error, or a refusal: a bad flag or value, a directory \
         that is not there, a bad agent configuration, a registry plugctl may not use, a \
         path others can write, a request that conflicts with the registry, a plugin that \
         is unavailable or built into Nomad.",
    ),
    (
        NOT_FOUND,
        "Not found: no such plugin, volume or registry entry, or a file that is not a \
         plugin as Nomad sees it.",
    ),
    (
        TIMEOUT,
        "Timed out: a plugin's deadline, plugin wait, or the registry lock (--lock-timeout).",
    ),
];

/// The exit code of an error.
pub fn code(e: &Error) -> i32 {
    match e.inner() {
        Error::Usage(_) | Error::Registry { .. } => USAGE,
        Error::NotFound { .. } => NOT_FOUND,
        Error::Plugin { failure, .. } if failure.is_timeout() => TIMEOUT,
        Error::Plugin { failure, .. } if failure.is_not_found() => NOT_FOUND,
        Error::RegistryLocked { .. } | Error::Timeout(_) => TIMEOUT,
        Error::BrokenPipe => SUCCESS,
        Error::Plugin { .. } | Error::Io { .. } | Error::Failed(_) | Error::Exhausted { .. } => {
            FAILURE
        }
        Error::Hinted { .. } => unreachable!("inner() is never Hinted"),
    }
}

/// The class scripts match on in `{"error": {"kind": ...}}`.
pub fn kind(e: &Error) -> &'static str {
    match e.inner() {
        Error::Usage(_) => "usage",
        Error::NotFound { .. } => "not_found",
        Error::Plugin { failure, .. } if failure.is_timeout() => "timeout",
        Error::Plugin { failure, .. } if failure.is_not_found() => "not_found",
        Error::Plugin { .. } => "plugin",
        Error::RegistryLocked { .. } => "registry_locked",
        Error::Registry { .. } => "registry",
        Error::Io { .. } => "io",
        Error::Timeout(_) => "timeout",
        Error::Failed(_) => "failed",
        Error::Exhausted { .. } => "exhausted",
        Error::BrokenPipe => "broken_pipe",
        Error::Hinted { .. } => unreachable!("inner() is never Hinted"),
    }
}

/// The message of an error as the command line says it: the library's
/// words, and its advice in the flags that follow it.
pub fn message(e: &Error) -> String {
    match e {
        Error::Hinted { error, hint } => format!("{}{}", message(error), advice(*hint)),
        e => e.to_string(),
    }
}

/// A [`Hint`] as the flags (and variables) that act on it.
pub fn advice(hint: Hint) -> &'static str {
    match hint {
        Hint::AllowInsecurePaths => {
            "; or pass --allow-insecure-paths on a lab machine (see docs/security.md)"
        }
        Hint::NomadRelease => " (--nomad-version or PLUGCTL_NOMAD_VERSION picks the release)",
        Hint::FewerCalls => " (lower --concurrency or PLUGCTL_CONCURRENCY)",
        Hint::RegistryMaxSize => {
            " (raise --registry-max-size or PLUGCTL_REGISTRY_MAX_SIZE if it is genuine)"
        }
        Hint::RegistryPath => "; --registry (PLUGCTL_REGISTRY) must name a regular file",
    }
}

/// The body of the JSON error document (docs/cli.md): `{"error": {...}}`.
pub fn json_body(e: &Error) -> serde_json::Value {
    let (plugin, operation) = e.plugin_context();
    serde_json::json!({
        "error": {
            "kind": kind(e),
            "message": message(e),
            "plugin": plugin,
            "operation": operation,
            "subject": e.subject(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::time::Duration;

    /// Every error that is not a plugin call's (those map through the same
    /// constants) exits with a code the man pages and docs/cli.md document.
    #[test]
    fn every_code_is_documented() {
        let io = || std::io::Error::other("x");
        let errors = [
            Error::usage("x"),
            Error::NotFound {
                what: "volume",
                name: "x".into(),
            },
            Error::RegistryLocked {
                path: PathBuf::from("/r"),
                holder: None,
                waited: Duration::from_secs(1),
            },
            Error::Registry {
                path: PathBuf::from("/r"),
                message: "x".into(),
            },
            Error::Io {
                context: "x".into(),
                source: io(),
            },
            Error::Timeout("x".into()),
            Error::Failed("x".into()),
            Error::Exhausted {
                resource: "threads",
                what: "x".into(),
                hint: "x",
                source: io(),
            },
            Error::BrokenPipe,
        ];
        let documented: Vec<i32> = DOCUMENTED.iter().map(|(c, _)| *c).collect();
        for e in &errors {
            assert!(documented.contains(&code(e)), "{e:?}: {}", code(e));
        }
        let mut sorted = documented.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted, documented, "in order, each once");
        assert!(
            documented
                .iter()
                .all(|c| *c < crate::shutdown::SIGNAL_EXIT_BASE)
        );
    }
}

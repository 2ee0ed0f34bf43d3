//! Exit codes, in one place: scripts depend on these numbers
//! (docs/cli.md). The library's errors know none; this is where each class
//! of error becomes its code, its `kind` and its JSON error document.

use plugctl_core::Error;
use plugctl_core::error::{Advised, Hint, JobInput, PluginFailure};

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
        Error::Hinted { error, hint } => advised(&message(error), hint),
        Error::Plugin { failure, .. } => match failure.hint() {
            Some(hint) => advised(&e.to_string(), hint),
            None => e.to_string(),
        },
        e => e.to_string(),
    }
}

/// An error as stderr shows it: its message (with the input a hint is
/// about before it, and the hints that have no line of their own worded
/// into it), and each other hint as a sentence of its own, for a `tip:`
/// line below the message, as clap shows its own.
pub fn parts(e: &Error) -> (String, Vec<String>) {
    match e {
        Error::Hinted { error, hint } => {
            let (message, mut tips) = parts(error);
            match tip(hint) {
                Some(t) => {
                    tips.push(t);
                    (format!("{}{message}", preface(hint)), tips)
                }
                None => (advised(&message, hint), tips),
            }
        }
        Error::Plugin { failure, .. } => match failure.hint() {
            Some(hint) => match tip(hint) {
                Some(t) => (format!("{}{e}", preface(hint)), vec![t]),
                None => (advised(&e.to_string(), hint), Vec::new()),
            },
            None => (e.to_string(), Vec::new()),
        },
        e => (e.to_string(), Vec::new()),
    }
}

/// A [`Hint`] as a sentence that stands on a line of its own (`tip:`),
/// or None for one that belongs inside its message (it continues a
/// sentence, or says nothing alone).
pub fn tip(hint: &Hint) -> Option<String> {
    Some(match hint {
        Hint::DidYouMean(close) => format!("did you mean {}?", word(close)),
        Hint::AllowInsecurePaths => "on a lab machine, --allow-insecure-paths lifts this check \
                                     (see docs/security.md)"
            .into(),
        Hint::NomadRelease => "--nomad-version or PLUGCTL_NOMAD_VERSION picks the release".into(),
        Hint::FewerCalls => "lower --concurrency or PLUGCTL_CONCURRENCY".into(),
        Hint::RegistryMaxSize => {
            "if it is genuine, raise --registry-max-size or PLUGCTL_REGISTRY_MAX_SIZE".into()
        }
        Hint::RegistryPath => "--registry (PLUGCTL_REGISTRY) must name a regular file".into(),
        Hint::AnotherRegistry => "choose another --registry".into(),
        Hint::RegistryAccess => "fix the permissions or choose another --registry".into(),
        Hint::VolumesDir(dir) => format!(
            "run with --volumes-dir {}",
            plugctl_core::provenance::shell_path(dir)
        ),
        Hint::CreateWithId { id, namespace } => format!(
            "to re-run create for that volume, pass --id {id}{}",
            namespace
                .as_ref()
                .map(|ns| format!(" --namespace {ns}"))
                .unwrap_or_default()
        ),
        Hint::ForgetVolume { id } => format!(
            "`plugctl volume forget {id}` drops its record without running the plugin, or pass \
             --allow-insecure-paths on a lab machine (see docs/security.md)"
        ),
        Hint::DeleteOrRepair { id } => {
            format!("finish it with `plugctl volume delete {id}` or `plugctl volume repair`")
        }
        Hint::Fingerprint { name } => {
            format!("fix it and run `plugctl fingerprint {}`", name_arg(name))
        }
        Hint::FingerprintAgain => "run plugctl fingerprint".into(),
        Hint::Forget { family, name } => format!(
            "if it was removed on purpose, `plugctl plugin forget {} {}` forgets it",
            word(family),
            name_arg(name)
        ),
        Hint::LockFile => "run `plugctl pin` (and review it) first".into(),
        Hint::Pin { family, name } => format!(
            "run `plugctl pin {}` and review the change",
            pin_args(family, name)
        ),
        Hint::Repin { family, name } => format!(
            "if the change is yours, review it and run `plugctl pin {}` to accept the new file",
            pin_args(family, name)
        ),
        Hint::ReplayEnv { name } => format!(
            "replay takes its value only from `plugctl replay --env {}` (a case file never \
             chooses a plugin's environment)",
            replay_env_arg(name)
        ),
        Hint::Validate => "`plugctl validate` says more".into(),
        Hint::PluginStderr { all, masked } => format!(
            "-v shows {} stderr{}",
            if *all { "all of its" } else { "its" },
            if *masked {
                ", secret values masked"
            } else {
                ""
            }
        ),
        Hint::HostVolumePluginDir => "point --host-volume-plugin-dir (or \
                                      PLUGCTL_HOST_VOLUME_PLUGIN_DIR) at the directory that \
                                      holds the host-volume plugins"
            .into(),
        Hint::CheckAbsurdCapacity => {
            "--check-absurd-capacity runs it for a plugin that checks sizes first".into()
        }
        Hint::FetchInputs => "the plugin sees only CPI_OPERATION and the --env variables: is \
                              --path right, and is the store configured with --env?"
            .into(),
        Hint::Timeout => "--timeout raises the budget for plugctl alone".into(),
        Hint::JobVariables { since, .. } => format!(
            "pick --nomad-version {since} or later, or pass the variable yourself with --env, as \
             a job's secret block could"
        ),
        // A hint that continues its message's sentence, or that only names
        // the input before it: worded into the message.
        _ => return None,
    })
}

/// A plugin call's failure as the command line says it, with its advice.
pub fn failure(f: &PluginFailure) -> String {
    match f.hint() {
        Some(hint) => advised(&f.to_string(), hint),
        None => f.to_string(),
    }
}

/// A message that is not an error (a reason, a report line), with its
/// advice.
pub fn advised_text(a: &Advised) -> String {
    match &a.hint {
        Some(hint) => advised(&a.message, hint),
        None => a.message.clone(),
    }
}

/// A plugin's name as the last word of a command a message suggests: as
/// it is when that is safe to paste into a shell, else quoted for sh, and
/// after `--` when it starts with a dash (a plugin may be named `-v`).
pub fn name_arg(name: &str) -> String {
    let word = plugctl_core::provenance::shell_quote(std::ffi::OsStr::new(name));
    if name.starts_with('-') {
        format!("-- {word}")
    } else {
        word
    }
}

/// `--env`'s argument for a variable a replayed case names (its name is
/// the case file's, which may hold `;` or `$(`): one shell word, the
/// value left for the operator to write in place of `...`.
fn replay_env_arg(name: &str) -> String {
    word(&format!("{name}=..."))
}

/// `pin`'s arguments for one plugin: its family too, since a name alone
/// pins every family's plugin of that name.
fn pin_args(family: &str, name: &str) -> String {
    format!("--type {} {}", word(family), name_arg(name))
}

/// A word of a command a message suggests (a plugin's family): as it is
/// when that is safe to paste into a shell, else quoted for sh.
fn word(text: &str) -> String {
    plugctl_core::provenance::shell_quote(std::ffi::OsStr::new(text))
}

/// `message` with `hint` worded around it: the input it is about before
/// it, what would change it after.
pub fn advised(message: &str, hint: &Hint) -> String {
    format!("{}{message}{}", preface(hint), advice(hint))
}

/// What goes before a message its hint is about: the flag that gave the
/// input, or that the outcome follows from.
fn preface(hint: &Hint) -> String {
    match hint {
        Hint::LockFile => "--locked: ".into(),
        Hint::ExtraReplayEnv { name } => format!("--env {name}: "),
        Hint::InsecurePathsAllowed => "--allow-insecure-paths: ".into(),
        Hint::Kept => "--keep: ".into(),
        Hint::JobVariables { input, .. } => format!("{}: ", job_flag(*input)),
        Hint::JobInput(input) => format!("{} ", job_flag(*input)),
        _ => String::new(),
    }
}

fn job_flag(input: JobInput) -> &'static str {
    match input {
        JobInput::JobId => "--job-id",
        JobInput::Namespace => "--namespace",
    }
}

/// A [`Hint`] as the flags, variables and commands that act on it, worded
/// to follow the message it advises on.
pub fn advice(hint: &Hint) -> String {
    match hint {
        Hint::DidYouMean(close) => format!("; did you mean {}?", word(close)),
        Hint::AllowInsecurePaths => {
            "; or pass --allow-insecure-paths on a lab machine (see docs/security.md)".into()
        }
        Hint::NomadRelease => {
            " (--nomad-version or PLUGCTL_NOMAD_VERSION picks the release)".into()
        }
        Hint::FewerCalls => " (lower --concurrency or PLUGCTL_CONCURRENCY)".into(),
        Hint::NodeId => ", or pass --node-id (PLUGCTL_NODE_ID) for this run".into(),
        Hint::RegistryMaxSize => {
            " (raise --registry-max-size or PLUGCTL_REGISTRY_MAX_SIZE if it is genuine)".into()
        }
        Hint::RegistryPath => "; --registry (PLUGCTL_REGISTRY) must name a regular file".into(),
        Hint::AnotherRegistry => "; choose another --registry".into(),
        Hint::RegistryAccess => "; fix the permissions or choose another --registry".into(),
        Hint::LockTimeout { left } => format!(
            " (up to {} more; --lock-timeout)",
            humantime::format_duration(*left)
        ),
        Hint::VolumesDir(dir) => format!(
            ": run with --volumes-dir {}",
            plugctl_core::provenance::shell_path(dir)
        ),
        Hint::CreateWithId { id, namespace } => format!(
            " To re-run create for that volume, pass --id {id}{}",
            namespace
                .as_ref()
                .map(|ns| format!(" --namespace {ns}"))
                .unwrap_or_default()
        ),
        Hint::ForgetVolume { id } => format!(
            "; `plugctl volume forget {id}` drops its record without running the plugin, or \
             pass --allow-insecure-paths on a lab machine (see docs/security.md)"
        ),
        Hint::DeleteOrRepair { id } => {
            format!("; finish it with `plugctl volume delete {id}` or `plugctl volume repair`")
        }
        Hint::Fingerprint { name } => {
            format!(". Fix it and run `plugctl fingerprint {}`", name_arg(name))
        }
        Hint::FingerprintAgain => "; run plugctl fingerprint".into(),
        Hint::Forget { family, name } => format!(
            "; if it was removed on purpose, `plugctl plugin forget {} {}` forgets it",
            word(family),
            name_arg(name)
        ),
        Hint::LockFile => "; run `plugctl pin` (and review it) first".into(),
        Hint::Pin { family, name } => format!(
            ": run `plugctl pin {}` and review the change",
            pin_args(family, name)
        ),
        Hint::Repin { family, name } => format!(
            "; if the change is yours, review it and run `plugctl pin {}` to accept the new \
             file",
            pin_args(family, name)
        ),
        Hint::Locked => " (not enforced: pass --locked to refuse it)".into(),
        Hint::ReplayEnv { name } => format!(
            "; replay takes its value only from `plugctl replay --env {}` (a case file never \
             chooses a plugin's environment)",
            replay_env_arg(name)
        ),
        Hint::ExtraReplayEnv { .. } => String::new(),
        Hint::Validate => "; `plugctl validate` says more".into(),
        Hint::PluginStderr { all, masked } => format!(
            "; -v shows them{}{}",
            if *all { " all" } else { "" },
            if *masked {
                ", secret values masked"
            } else {
                ""
            }
        ),
        Hint::HostVolumePluginDir => "; point --host-volume-plugin-dir (or \
                                      PLUGCTL_HOST_VOLUME_PLUGIN_DIR) at the directory that \
                                      holds the host-volume plugins"
            .into(),
        Hint::InsecurePathsAllowed | Hint::Kept => String::new(),
        Hint::MaxBytes => " or lower --max-bytes".into(),
        Hint::CheckAbsurdCapacity => {
            "; --check-absurd-capacity runs it for a plugin that checks sizes first".into()
        }
        Hint::FetchPath => ": pass a path the plugin can fetch with --path (and --env K=V for its \
                            store configuration)"
            .into(),
        Hint::FetchInputs => " (the plugin sees only CPI_OPERATION and the --env variables: is \
                              --path right, and is the store configured with --env?)"
            .into(),
        Hint::Timeout => " (--timeout raises the budget for plugctl alone)".into(),
        Hint::JobVariables { since, .. } => format!(
            "; pick --nomad-version {since} or later, or pass the variable yourself with --env, \
             as a job's secret block could"
        ),
        Hint::JobInput(_) => String::new(),
        Hint::SandboxBestEffort => {
            "; --sandbox-best-effort (PLUGCTL_SANDBOX_BEST_EFFORT=1) applies what there is and \
             says what it leaves out"
                .into()
        }
        Hint::SandboxLevel => " (pass --sandbox trim or strict with them)".into(),
    }
}

/// The body of the JSON error document (docs/cli.md): `{"error": {...}}`.
/// `message` is the error line stderr shows; `hints` each hint stderr
/// shows on a `tip:` line of its own below it.
pub fn json_body(e: &Error) -> serde_json::Value {
    let (plugin, operation) = e.plugin_context();
    let (message, hints) = parts(e);
    let mut body = serde_json::json!({
        "error": {
            "kind": kind(e),
            "message": message,
            "hints": hints,
            "plugin": plugin,
            "operation": operation,
            "subject": e.subject(),
        }
    });
    // A plugin call that ran and failed: what it cost, as a success says.
    if let Some(usage) = e.call_usage() {
        body["error"]["usage"] = plugctl_core::registry::model::usage_json(usage);
    }
    body
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::time::Duration;

    use super::*;

    #[test]
    fn hints_are_worded_around_their_message() {
        let e = Error::usage("volume name already exists on this node.").hint(Hint::CreateWithId {
            id: "1234".into(),
            namespace: Some("prod".into()),
        });
        assert_eq!(
            message(&e),
            "volume name already exists on this node. To re-run create for that volume, pass \
             --id 1234 --namespace prod"
        );
        assert_eq!(
            advised(
                "the owner and mode rules are off",
                &Hint::InsecurePathsAllowed
            ),
            "--allow-insecure-paths: the owner and mode rules are off"
        );
        assert_eq!(
            advised(
                "it was created under /a, and plugctl now uses /b",
                &Hint::VolumesDir(PathBuf::from("/a"))
            ),
            "it was created under /a, and plugctl now uses /b: run with --volumes-dir /a"
        );
        let refused = PluginFailure::Refused {
            path: "/p/disk".into(),
            message: "not pinned in /p/plugctl.lock".into(),
            hint: Some(Hint::Pin {
                family: "host-volume".into(),
                name: "disk".into(),
            }),
        };
        assert_eq!(
            failure(&refused),
            "refused to run /p/disk: not pinned in /p/plugctl.lock: run `plugctl pin --type \
             host-volume disk` and review the change"
        );
        let e = Error::plugin(
            "host-volume",
            "disk",
            plugctl_core::family::Operation::Create,
            refused,
        );
        assert!(
            message(&e)
                .ends_with("run `plugctl pin --type host-volume disk` and review the change")
        );
    }

    #[test]
    fn an_event_carries_its_hints_back() {
        for hint in [
            Hint::Pin {
                family: "secrets".into(),
                name: "x".into(),
            },
            Hint::Repin {
                family: "secrets".into(),
                name: "x".into(),
            },
            Hint::Locked,
        ] {
            let kind = hint.event_kind().unwrap();
            assert_eq!(
                Hint::from_event(kind, Some("secrets"), Some("x")),
                Some(hint)
            );
        }
    }

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

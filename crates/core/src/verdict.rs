//! One verdict for one fact. `fingerprint`, `plugin list`, `metrics`,
//! `validate`, its release matrix and `test` each judge a plugin file; the
//! facts they can meet that make it unusable on a node, and the words for
//! them, are here, so that all six say the same thing about it.

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

use crate::family::{Family, Operation};
use crate::nomad::{Change, Profile};
use crate::runner::{Outcome, Termination};

/// A plugin file on record that is no longer in its directory. What
/// clears it, if it was removed on purpose, is [`forget`]'s hint.
pub fn deleted(path: &Path) -> String {
    format!(
        "deleted: {} is no longer in its plugin directory",
        path.display()
    )
}

/// What clears the record of a plugin removed on purpose ([`deleted`]).
pub fn forget(family: &str, name: &str) -> crate::error::Hint {
    crate::error::Hint::Forget {
        family: family.to_string(),
        name: name.to_string(),
    }
}

/// Whether a reason is [`deleted`]'s.
pub fn is_deleted(reason: &str) -> bool {
    reason.starts_with("deleted:")
}

/// A file without any execute bit, which Nomad skips.
pub fn no_execute_bit(path: &Path) -> String {
    format!(
        "no execute bit: Nomad ignores it (chmod 0755 {} to run it)",
        crate::provenance::shell_path(path)
    )
}

/// A FIFO, socket or device where a plugin file should be.
pub fn not_regular(what: &str) -> String {
    format!("not a regular file: {what}")
}

/// A plugin call that exited 0 but wrote `bytes` on stderr, on a release
/// whose client panics logging it ([`Profile::stderr_on_success_crashes`]):
/// why the plugin is unusable there, in the words every view says (an
/// unhealthy `fingerprint`, a failed check of `validate` and `test`, the
/// warning of `secret fetch`). Nomad logs before it decodes stdout, so the
/// output does not matter. `None`: nothing on stderr, a failed call
/// (Nomad returns before logging), or a release that logs it safely.
pub fn stderr_crashes_client(
    family: &str,
    operation: Operation,
    profile: Profile,
    out: &Outcome,
) -> Option<String> {
    let bytes = out.stderr.len() as u64 + out.stderr_dropped;
    let exited_0 = !out.timed_out && out.termination == Termination::Exited(0);
    if bytes == 0 || !exited_0 || !profile.stderr_on_success_crashes(family) {
        return None;
    }
    let when = match operation {
        Operation::Fetch => "when a task fetches a secret",
        _ => "at agent start",
    };
    Some(format!(
        "wrote {bytes} bytes on stderr while succeeding: a {profile} client panics logging it \
         (the secrets plugin's logger is never set, on every release from {}), {when}; write \
         nothing on stderr when the call succeeds (e.g. `exec 2>/dev/null`)",
        Profile::row(Change::SecretsStderrPanics).since_text()
    ))
}

/// A `*.exe` file in `secrets/`, which makes a Nomad client on Linux fail
/// its secrets fingerprinting (None for any other name).
pub fn exe_in_secrets(name: &str) -> Option<String> {
    name.ends_with(".exe").then(|| {
        format!(
            "{name_q} ends in .exe: a Nomad client on Linux refuses to start with a *.exe file \
             in secrets/; rename it without the suffix, or keep Windows builds elsewhere",
            name_q = crate::escape::quote(name)
        )
    })
}

/// "PATH is a symlink to WHAT".
fn link_to(path: &Path, what: &str) -> String {
    format!("{} is a symlink to {what}", path.display())
}

/// A symlink whose target does not exist: not deleted (the link is still
/// there, and a Nomad client still meets it), so never called so.
pub fn dangling(path: &Path, to: &Path) -> String {
    link_to(path, &nothing_at(to))
}

/// What a link to nothing leads to, for [`link_to`].
fn nothing_at(to: &Path) -> String {
    format!("{}, which does not exist", to.display())
}

/// A symlink in `secrets/` to `what` (a directory, a file without an
/// execute bit, nothing): a Nomad 1.11+ client's secrets fingerprinter
/// stats every entry and fails on it. It begins with [`dangling`]'s words
/// for a link to nothing, so a view that finds the link dangling later
/// keeps this reason.
pub fn secrets_link(path: &Path, what: &str) -> String {
    format!(
        "{}: a Nomad 1.11+ client refuses to start with it in secrets/ (its secrets \
         fingerprinter stats every entry and fails: \"fingerprinting failed\"); remove the \
         link, or point it at an executable plugin",
        link_to(path, what)
    )
}

/// What about an entry of `secrets/` stops a Nomad client from starting,
/// if anything: a `*.exe` name, or a symlink to a directory, to a file
/// without an execute bit, or to nothing. The same words wherever it is
/// said (`fingerprint`, `validate`).
pub fn stops_a_secrets_client(name: &str, path: &Path) -> Option<String> {
    if let Some(why) = exe_in_secrets(name) {
        return Some(why);
    }
    if !fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return None;
    }
    let what = match fs::metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let to = fs::read_link(path).unwrap_or_default();
            return Some(secrets_link(path, &nothing_at(&to)));
        }
        Err(_) => return None,
        Ok(m) if m.is_dir() => "a directory".to_string(),
        Ok(m) if m.permissions().mode() & 0o111 == 0 => "a file without an execute bit".into(),
        Ok(_) => return None,
    };
    Some(secrets_link(path, &what))
}

/// What is wrong with a plugin file on record now, as discovery would find
/// it: deleted, a symlink to nothing, not a regular file, no execute bit
/// (None: none of those). Symlinks are followed, as exec follows them.
pub fn file_problem(path: &Path) -> Option<String> {
    let meta = match fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Some(match fs::read_link(path) {
                Ok(to) => dangling(path, &to),
                Err(_) => deleted(path),
            });
        }
        // A dangling symlink, a directory plugctl may not search: for
        // `fingerprint` to say, with the details.
        Err(_) => return None,
    };
    if meta.is_dir() {
        return Some(deleted(path));
    }
    if !meta.is_file() {
        return Some(not_regular(special_kind(&meta)));
    }
    if meta.permissions().mode() & 0o111 == 0 {
        return Some(no_execute_bit(path));
    }
    None
}

/// How long a fingerprint may take for Nomad to use the plugin, on this
/// release: a host-volume fingerprint gets 1 s (discovery's context), a
/// secrets one the release's deadline, past which it was stopped anyway.
/// `timeout`: the user's `--timeout`, which replaces the budget (they
/// said how long is fine).
pub fn budget(family: &str, profile: Profile, timeout: Option<Duration>) -> Option<Duration> {
    if let Some(t) = timeout {
        return Some(t);
    }
    Family::of(family).map(|f| profile.fingerprint_budget(f))
}

/// "too slow for Nomad: 1.42 s > 1 s" when a fingerprint that answered
/// took longer than [`budget`].
pub fn too_slow(
    family: &str,
    took: Duration,
    profile: Profile,
    timeout: Option<Duration>,
) -> Option<String> {
    let budget = budget(family, profile, timeout)?;
    (took > budget).then(|| {
        format!(
            "too slow for Nomad: {} > {}",
            seconds(took),
            seconds(budget)
        )
    })
}

/// The class of a recorded reason for a plugin being unhealthy, a word
/// for a metric's `reason` label (a message holds paths and a plugin's
/// own words, which no label should): `timeout`, `exit_status`,
/// `signal`, `bad_output`, `slow`, `left_behind`, `deleted`,
/// `not_executable`, `not_regular`, `moved`, `changed`, `not_run`,
/// `refused`, `missing`, `interpreter_missing`, `exec_format`, `spawn`,
/// `plugctl`, else `other`. Each is told by the words plugctl itself
/// writes first ([`crate::error::PluginFailure`]'s and this module's), never
/// by what a plugin printed after them.
pub fn reason_class(reason: &str) -> &'static str {
    const LEADS: [(&str, &str); 19] = [
        ("timed out after ", "timeout"),
        ("exited with status ", "exit_status"),
        ("killed by signal ", "signal"),
        ("bad output: ", "bad_output"),
        ("too slow for Nomad: ", "slow"),
        ("left ", "left_behind"),
        ("deleted: ", "deleted"),
        ("no execute bit", "not_executable"),
        ("not a regular file: ", "not_regular"),
        ("not in ", "moved"),
        ("changed on disk since its fingerprint", "changed"),
        ("not run: ", "not_run"),
        ("refused to run ", "refused"),
        ("plugin not found at ", "missing"),
        ("interpreter ", "interpreter_missing"),
        ("could not start ", "spawn"),
        ("rejected: ", "not_run"),
        ("not found: ", "not_run"),
        ("plugctl failed on it", "plugctl"),
    ];
    if let Some((_, class)) = LEADS.iter().find(|(lead, _)| reason.starts_with(lead)) {
        return class;
    }
    // The two that begin with the plugin's path.
    if reason.starts_with('/') {
        if reason.contains(" is not executable (") {
            return "not_executable";
        }
        if reason.contains(" cannot be executed: ") {
            return "exec_format";
        }
    }
    "other"
}

/// `1.42 s`, `1 s`: two decimals unless whole.
pub fn seconds(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.2} s", d.as_secs_f64())
    }
}

/// What a file that is not regular is, for a person.
pub fn special_kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let ft = meta.file_type();
    if ft.is_fifo() {
        "a FIFO"
    } else if ft.is_socket() {
        "a socket"
    } else if ft.is_block_device() {
        "a block device"
    } else if ft.is_char_device() {
        "a character device"
    } else {
        "a special file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slowness_is_judged_against_the_release_unless_the_user_set_a_timeout() {
        let p = Profile::default();
        let ms = Duration::from_millis;
        assert_eq!(
            too_slow("host-volume", ms(1420), p, None).unwrap(),
            "too slow for Nomad: 1.42 s > 1 s"
        );
        assert_eq!(too_slow("host-volume", ms(1000), p, None), None);
        assert_eq!(too_slow("host-volume", ms(1420), p, Some(ms(3000))), None);
        assert_eq!(too_slow("secrets", ms(1420), p, None), None);
        // A family Nomad does not know has no budget.
        assert_eq!(too_slow("example-family", ms(9000), p, None), None);
    }

    #[test]
    fn file_problems() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("x");
        assert!(is_deleted(&file_problem(&p).unwrap()));
        fs::write(&p, "#!/bin/sh\n").unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o644)).unwrap();
        assert!(
            file_problem(&p)
                .unwrap()
                .starts_with("no execute bit: Nomad ignores it (chmod 0755 ")
        );
        fs::set_permissions(&p, fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(file_problem(&p), None);
        fs::remove_file(&p).unwrap();
        nix::unistd::mkfifo(&p, nix::sys::stat::Mode::from_bits_truncate(0o755)).unwrap();
        assert_eq!(file_problem(&p).unwrap(), "not a regular file: a FIFO");
    }
}

#[cfg(test)]
mod reason_tests {
    use std::path::PathBuf;
    use std::time::Duration;

    use super::*;
    use crate::error::PluginFailure;

    #[test]
    fn each_recorded_reason_has_its_class_by_the_words_plugctl_writes_first() {
        let p = || PathBuf::from("/plugins/host-volume/p");
        let cases: Vec<(String, &str)> = vec![
            (
                PluginFailure::TimedOut {
                    deadline: Duration::from_secs(5),
                    killed: false,
                    no_grace: false,
                }
                .to_string(),
                "timeout",
            ),
            (
                PluginFailure::Exit {
                    code: 2,
                    message: Some("timed out after 1s".into()),
                    hint: None,
                }
                .to_string(),
                "exit_status",
            ),
            (
                PluginFailure::Signaled {
                    signal: "SIGKILL".into(),
                    message: None,
                    hint: None,
                }
                .to_string(),
                "signal",
            ),
            (
                PluginFailure::BadOutput("deleted: x".into()).to_string(),
                "bad_output",
            ),
            (
                too_slow(
                    "host-volume",
                    Duration::from_secs(2),
                    Profile::default(),
                    None,
                )
                .unwrap(),
                "slow",
            ),
            (
                crate::families::left_behind(&[crate::runner::Leftover {
                    pid: 7,
                    command: "sleep".into(),
                }]),
                "left_behind",
            ),
            (deleted(&p()), "deleted"),
            (no_execute_bit(&p()), "not_executable"),
            (
                PluginFailure::NotExecutable(p()).to_string(),
                "not_executable",
            ),
            (not_regular("a FIFO"), "not_regular"),
            (PluginFailure::Missing(p()).to_string(), "missing"),
            (
                PluginFailure::InterpreterMissing {
                    path: p(),
                    interpreter: "/usr/bin/nope".into(),
                }
                .to_string(),
                "interpreter_missing",
            ),
            (PluginFailure::ExecFormat(p()).to_string(), "exec_format"),
            (
                PluginFailure::Refused {
                    path: p(),
                    message: "not pinned".into(),
                    hint: None,
                }
                .to_string(),
                "refused",
            ),
            (
                PluginFailure::Spawn {
                    path: p(),
                    message: "EIO".into(),
                }
                .to_string(),
                "spawn",
            ),
            ("not run: broken symlink".into(), "not_run"),
            (
                crate::fanout::Lost::Panicked("x".into()).to_string(),
                "plugctl",
            ),
            // A plugin's own words, as a Response carries them, are no
            // class of plugctl's.
            ("deleted? no: I just felt like failing".into(), "other"),
        ];
        for (reason, class) in cases {
            assert_eq!(reason_class(&reason), class, "{reason}");
        }
    }
}

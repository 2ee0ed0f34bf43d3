//! Starting a call: the child in a process group of its own, with only the
//! given environment and stdin from /dev/null; a file exec would run
//! through the shell refused first; `--locked` checked between fork and
//! exec; passing shortages waited out; and exec's errno turned into what
//! the user should look at ([`SpawnError`]).

use std::fs::File;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use nix::errno::Errno;
use nix::unistd::{AccessFlags, access};
use tokio::process::{Child, Command};
use tokio::sync::watch;
use tokio::time::Instant;

use super::groups::{Control, Group, GroupTable};
use super::{Invocation, SpawnError, later};

/// ETXTBSY means some process still has the file open for writing: usually
/// a sibling thread's fork that inherited the writer's descriptor and has not
/// reached exec yet, or a plugin being replaced. Both pass in milliseconds.
const TXTBSY_BACKOFF_MS: [u64; 4] = [10, 20, 40, 80];

/// A bare name would make exec search PATH (ours, since the child's
/// environment is not the one searched); a plugin is a file, named by path.
pub(super) fn exec_path(program: &Path) -> PathBuf {
    let mut parts = program.components();
    match (parts.next(), parts.next()) {
        (Some(Component::Normal(_)), None) => Path::new(".").join(program),
        _ => program.to_path_buf(),
    }
}

/// When std cannot use posix_spawn (glibc older than 2.24, among others) it
/// forks and calls execvp, which runs a file without `#!` through /bin/sh
/// on ENOEXEC. Nomad (Go) gets "exec format error" for such a file, and a
/// plugin that works here but not under Nomad is worse than a clear error,
/// so a file that is neither a script nor ELF is refused before exec. The
/// price is binfmt_misc formats, which no plugin is known to use.
pub(super) fn refuse_unknown_format(program: &Path, shown: &Path) -> Result<(), SpawnError> {
    let Ok(meta) = std::fs::metadata(program) else {
        return Ok(());
    };
    // Whatever exec would refuse anyway, let exec say why.
    if !meta.is_file() || access(program, AccessFlags::X_OK).is_err() {
        return Ok(());
    }
    let Ok(file) = File::open(program) else {
        return Ok(());
    };
    let mut magic = Vec::with_capacity(4);
    if file.take(4).read_to_end(&mut magic).is_err() {
        return Ok(());
    }
    if magic.starts_with(b"#!") || magic == b"\x7fELF" {
        Ok(())
    } else {
        Err(SpawnError::ExecFormat(shown.to_path_buf()))
    }
}

/// Starts `inv` (whose path to exec is `program`) in a group of its own,
/// entered in `table`; the receiver carries what the table asks of the call.
pub(super) async fn spawn(
    table: &Arc<GroupTable>,
    inv: &Invocation,
    program: &Path,
) -> Result<(Child, Group, watch::Receiver<Control>), SpawnError> {
    let mut cmd = Command::new(program);
    cmd.args(&inv.args)
        .env_clear()
        .envs(inv.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    // The sandbox's part first: the --locked hooks below end in exec.
    if let Some(confine) = &inv.confine {
        confine.install(&mut cmd);
    }
    if let Some(verified) = &inv.expect {
        let failed = |e: io::Error| SpawnError::Other {
            program: inv.program.clone(),
            message: e.to_string(),
        };
        if verified.elf {
            let mut argv = vec![program.as_os_str()];
            argv.extend(inv.args.iter().map(|a| a.as_os_str()));
            let exec = crate::identity::ExecFd::new(verified.file.clone(), &argv, &inv.env)
                .map_err(failed)?;
            // SAFETY: one execveat(2) with arrays prepared before fork.
            unsafe {
                cmd.pre_exec(move || Err(exec.exec()));
            }
        } else {
            let mut check = verified.identity.pre_exec_check(program).map_err(failed)?;
            match &verified.interpreter {
                // The interpreter that was hashed runs, through its
                // descriptor, as the kernel would have run it; the script
                // it opens by path is checked just before.
                Some(interp) => {
                    let mut argv: Vec<&std::ffi::OsStr> =
                        interp.argv_head.iter().map(|a| a.as_os_str()).collect();
                    argv.extend(inv.args.iter().map(|a| a.as_os_str()));
                    let exec =
                        crate::identity::ExecFd::new(interp.program.clone(), &argv, &inv.env)
                            .map_err(failed)?;
                    // SAFETY: one stat(2) and one execveat(2), with
                    // everything prepared before fork.
                    unsafe {
                        cmd.pre_exec(move || {
                            check()?;
                            Err(exec.exec())
                        });
                    }
                }
                None => {
                    // SAFETY: the check only calls stat(2) on a path prepared before fork.
                    unsafe {
                        cmd.pre_exec(check);
                    }
                }
            }
        }
    }
    let mut backoff = TXTBSY_BACKOFF_MS.iter();
    let give_up = later(Instant::now(), inv.deadline);
    let mut pause = Duration::from_millis(10);
    loop {
        let error = match table.spawn(&mut cmd, inv.grace) {
            Ok(Some(spawned)) => return Ok(spawned),
            Ok(None) => {
                return Err(SpawnError::Other {
                    program: inv.program.clone(),
                    message: "not started: plugctl is shutting down".into(),
                });
            }
            Err(e) => e,
        };
        if inv.expect.is_some() && error.raw_os_error() == Some(Errno::ESTALE as i32) {
            return Err(SpawnError::Other {
                program: inv.program.clone(),
                message: "drifted: the file changed between its pin check and exec; not run".into(),
            });
        }
        if error.raw_os_error() == Some(Errno::ETXTBSY as i32)
            && let Some(&ms) = backoff.next()
        {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            continue;
        }
        // Out of processes or descriptors: plugctl's condition. Other calls
        // ending free some; wait for that within the call's own deadline.
        if let Some((resource, hint)) = crate::error::exhaustion(&error)
            && error.raw_os_error() != Some(Errno::ENOMEM as i32)
        {
            if Instant::now() < give_up {
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_millis(200));
                continue;
            }
            return Err(SpawnError::Exhausted {
                program: inv.program.clone(),
                resource,
                hint,
            });
        }
        return Err(classify(&error, program, &inv.program));
    }
}

fn classify(error: &io::Error, program: &Path, shown: &Path) -> SpawnError {
    let shown = shown.to_path_buf();
    match error.raw_os_error().map(Errno::from_raw) {
        // The kernel says ENOENT both for a missing file and for a present
        // file whose interpreter (shebang or ELF loader) is missing.
        Some(Errno::ENOENT) => match missing_interpreter(program) {
            Some(interpreter) => SpawnError::InterpreterMissing {
                program: shown,
                interpreter,
            },
            None => SpawnError::NotFound(shown),
        },
        Some(Errno::EACCES) if program.is_dir() => SpawnError::Other {
            program: shown,
            message: "is a directory".into(),
        },
        Some(Errno::EACCES) => SpawnError::PermissionDenied(shown),
        Some(Errno::ENOEXEC) => SpawnError::ExecFormat(shown),
        _ => SpawnError::Other {
            program: shown,
            message: error.to_string(),
        },
    }
}

/// What a program that exec says does not exist names as its interpreter,
/// when the program itself is there.
fn missing_interpreter(program: &Path) -> Option<String> {
    let file = File::open(program).ok()?;
    let mut head = Vec::with_capacity(super::elf::HEAD_LEN);
    (&file)
        .take(super::elf::HEAD_LEN as u64)
        .read_to_end(&mut head)
        .ok()?;
    super::elf::interpreter(&head, &file)
}

//! Starting a call: the child in a time namespace of the call's own and a
//! process group of its own, or, where no namespace can be made, leading a
//! session of its own (`lineage`), with only the given environment and
//! stdin from /dev/null; a file exec would run
//! through the shell refused first; `--locked` checked between fork and
//! exec; passing shortages waited out; and exec's errno turned into what
//! the user should look at ([`SpawnError`]).

use std::ffi::CString;
use std::fs::File;
use std::io::{self, Read};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use nix::errno::Errno;
use nix::unistd::{AccessFlags, access};
use tokio::process::Command;
use tokio::sync::watch;
use tokio::time::Instant;

use super::groups::{Control, Group, GroupTable};
use super::leader::Leader;
use super::lineage::{self, Lineage, TimeNs};
use super::vfork::{self, Lead, Step};
use super::{Invocation, SpawnError, later};

/// ETXTBSY means some process still has the file open for writing: usually
/// a sibling thread's fork that inherited the writer's descriptor and has not
/// reached exec yet, or a plugin being replaced. Both pass in milliseconds.
const TXTBSY_BACKOFF_MS: [u64; 4] = [10, 20, 40, 80];

/// Marks every descriptor plugctl inherited (all above stderr) close-on-exec,
/// so that none reaches a plugin. plugctl opens its own close-on-exec; one
/// its parent left open without the flag (a script's `exec 3>>log`, a CI
/// runner's) would otherwise be a plugin's too, whatever the sandbox: a
/// descriptor open for writing is written through whatever Landlock says.
/// A Nomad client is started by systemd with none. Call it before the
/// first plugin starts.
pub fn keep_inherited_descriptors() {
    let Ok(entries) = std::fs::read_dir("/proc/self/fd") else {
        return;
    };
    let fds: Vec<i32> = entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse().ok())
        .filter(|&fd| fd > 2)
        .collect();
    for fd in fds {
        // SAFETY: fcntl(2) on a descriptor number, which changes only its
        // close-on-exec flag (the directory listed is closed by now, and an
        // fd no longer open just answers EBADF).
        unsafe {
            let flags = nix::libc::fcntl(fd, nix::libc::F_GETFD);
            if flags >= 0 && flags & nix::libc::FD_CLOEXEC == 0 {
                nix::libc::fcntl(fd, nix::libc::F_SETFD, flags | nix::libc::FD_CLOEXEC);
            }
        }
    }
}

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

/// Starts `inv` (whose path to exec is `program`) marked as its call's
/// (`lineage`), entered in `table`; the receiver carries what the table
/// asks of the call, and the group what marks its processes
/// ([`Group::lineage`]).
pub(super) async fn spawn(
    table: &Arc<GroupTable>,
    inv: &Invocation,
    program: &Path,
) -> Result<(Leader, Group, watch::Receiver<Control>), SpawnError> {
    // A strict call whose layers other calls share is started from a
    // sandbox's thread that carries them, held for the call, by
    // clone(CLONE_VM | CLONE_VFORK) ([`super::vfork`]).
    let mut spawner = match &inv.confine {
        Some(c) => c.spawner().await,
        None => None,
    };
    // The call's mark, made on this thread for the children it starts next
    // (no `.await` until the spawn): a time namespace, which costs the
    // spawn nothing; else a session of the plugin's own, which takes a
    // step between fork and exec, the first of them (those after it,
    // `--locked`'s, exec and never return). A spawner's thread made its
    // namespace before its filter (which refuses `unshare`): the call's
    // while it holds the thread.
    let mut ns = match &spawner {
        Some(slot) => slot.time_ns(),
        None => TimeNs::for_next_children(),
    };
    let by_session = ns.is_none();
    let on_spawner = spawner.is_some();
    let failed = |e: io::Error| SpawnError::Other {
        program: inv.program.clone(),
        message: e.to_string(),
    };
    // A child cloned from a spawner's thread leads its group (or session)
    // before it unblocks signals ([`vfork::Lead`]); any other is given one
    // by std (`process_group`) or by the session step.
    let lead = if by_session {
        Lead::Session
    } else {
        Lead::Group
    };
    let steps = steps(inv, program, by_session && !on_spawner, on_spawner).map_err(failed)?;
    let mut cmd = Command::new(program);
    cmd.args(&inv.args)
        .env_clear()
        .envs(inv.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if !by_session {
        cmd.process_group(0);
    }
    let mut steps = match &spawner {
        Some(_) => steps,
        None => {
            for step in steps {
                // SAFETY: each step makes only async-signal-safe system
                // calls on memory prepared before the fork ([`steps`]).
                unsafe {
                    cmd.pre_exec(step);
                }
            }
            Vec::new()
        }
    };
    let mut backoff = TXTBSY_BACKOFF_MS.iter();
    let give_up = later(Instant::now(), inv.deadline);
    let mut pause = Duration::from_millis(10);
    let mut attempt = 0;
    loop {
        // A retry comes after an `.await`: on a runtime of many threads,
        // maybe on another thread, whose next children get its own
        // namespace.
        if attempt > 0 && !by_session {
            ns = match &spawner {
                Some(slot) => slot.time_ns(),
                None => TimeNs::for_next_children(),
            };
        }
        attempt += 1;
        let spawned = match &spawner {
            Some(spawner) => {
                let table = Arc::clone(table);
                let grace = inv.grace;
                let moved = std::mem::take(&mut steps);
                let Some((back, spawned)) = spawner
                    .run(move || {
                        let spawned =
                            table.spawn(|| vfork::start(&moved, lead).map(Leader::Cloned), grace);
                        (moved, spawned)
                    })
                    .await
                else {
                    return Err(SpawnError::Other {
                        program: inv.program.clone(),
                        message: "not started: the sandbox's thread that starts it is gone".into(),
                    });
                };
                steps = back;
                spawned
            }
            None => table.spawn(|| cmd.spawn().map(Leader::Spawned), inv.grace),
        };
        let error = match spawned {
            Ok(Some((child, mut group, control))) => {
                group.spawner = spawner.take();
                group.lineage = match ns.take() {
                    Some(ns) => Lineage::by_namespace(ns),
                    None if by_session => Lineage::by_session(group.pgid.as_raw()),
                    // Made for the first try, not on this thread: only its
                    // pipes and plugctl's adoption name what it leaves.
                    None => Lineage::default(),
                };
                return Ok((child, group, control));
            }
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

/// The steps between fork and exec, in order: a session of its own
/// (`by_session`), the sandbox's, `--locked`'s check, and the exec itself
/// when any step comes before it. Each makes only async-signal-safe system
/// calls on memory prepared here; the exec's, only execve(2) or
/// execveat(2). Empty: nothing to do between fork and exec, and std
/// starts the call with `posix_spawn`.
fn steps(
    inv: &Invocation,
    program: &Path,
    by_session: bool,
    on_spawner: bool,
) -> io::Result<Vec<Step>> {
    let mut steps: Vec<Step> = Vec::new();
    if by_session {
        steps.push(Box::new(lineage::lead_a_session));
    }
    // Then the sandbox's part: it refuses namespace changes from here on,
    // and the steps after it (`--locked`'s, `ExecPath`) end in exec.
    let confined = inv.confine.as_ref().is_some_and(|c| !c.is_empty());
    if let Some(confine) = inv.confine.as_ref().filter(|_| confined) {
        steps.push(confine.step(on_spawner));
    }
    // `--locked` execs the file it hashed through its descriptor; any other
    // call that forks (a step between fork and exec: a session, the
    // sandbox's, `--locked`'s check) execs by path with execve(2) itself
    // (below); the rest are posix_spawn'ed.
    let execs_by_fd = inv
        .expect
        .as_ref()
        .is_some_and(|v| v.elf || v.interpreter.is_some());
    let forks = by_session || confined || inv.expect.is_some();
    if let Some(verified) = &inv.expect {
        if verified.elf {
            let mut argv = vec![program.as_os_str()];
            argv.extend(inv.args.iter().map(|a| a.as_os_str()));
            let exec = crate::identity::ExecFd::new(verified.file.clone(), &argv, &inv.env)?;
            steps.push(Box::new(move || Err(exec.exec())));
        } else {
            let check = verified.identity.pre_exec_check(program)?;
            match &verified.interpreter {
                // The interpreter that was hashed runs, through its
                // descriptor, as the kernel would have run it; the script
                // it opens by path is checked just before.
                Some(interp) => {
                    let mut argv: Vec<&std::ffi::OsStr> =
                        interp.argv_head.iter().map(|a| a.as_os_str()).collect();
                    argv.extend(inv.args.iter().map(|a| a.as_os_str()));
                    let exec =
                        crate::identity::ExecFd::new(interp.program.clone(), &argv, &inv.env)?;
                    steps.push(Box::new(move || {
                        check()?;
                        Err(exec.exec())
                    }));
                }
                None => steps.push(Box::new(check)),
            }
        }
    }
    if forks && !execs_by_fd {
        let exec = ExecPath::new(program, &inv.args, &inv.env)?;
        // Last of the steps between fork and exec: nothing after it runs.
        steps.push(Box::new(move || Err(exec.exec())));
    }
    Ok(steps)
}

/// An exec by path, prepared before fork so that the child makes one
/// system call: execve(2) itself. A step between fork and exec (a session,
/// `--locked`'s check) makes std fork and call execvp, which glibc retries
/// through /bin/sh when the kernel says ENOEXEC; a Nomad client (Go) gets
/// "exec format error" for such a file, and so must plugctl.
struct ExecPath {
    path: CString,
    _strings: Vec<CString>,
    argv: Vec<*const nix::libc::c_char>,
    envp: Vec<*const nix::libc::c_char>,
}

// SAFETY: the pointers point into `_strings` and `path`, owned by the same
// value and never changed; the value is only read, in the forked child.
unsafe impl Send for ExecPath {}
unsafe impl Sync for ExecPath {}

impl ExecPath {
    fn new(
        program: &Path,
        args: &[std::ffi::OsString],
        env: &[(std::ffi::OsString, std::ffi::OsString)],
    ) -> io::Result<ExecPath> {
        let bad = |_| io::Error::other("argument or environment holds a NUL byte");
        let path = CString::new(program.as_os_str().as_bytes()).map_err(bad)?;
        let mut strings = Vec::with_capacity(1 + args.len() + env.len());
        strings.push(path.clone());
        for a in args {
            strings.push(CString::new(a.as_bytes()).map_err(bad)?);
        }
        for (k, v) in env {
            let mut kv = k.as_bytes().to_vec();
            kv.push(b'=');
            kv.extend_from_slice(v.as_bytes());
            strings.push(CString::new(kv).map_err(bad)?);
        }
        let argc = 1 + args.len();
        let mut argv: Vec<_> = strings[..argc].iter().map(|s| s.as_ptr()).collect();
        argv.push(std::ptr::null());
        let mut envp: Vec<_> = strings[argc..].iter().map(|s| s.as_ptr()).collect();
        envp.push(std::ptr::null());
        Ok(ExecPath {
            path,
            _strings: strings,
            argv,
            envp,
        })
    }

    /// Replaces the process; returns only on failure.
    fn exec(&self) -> io::Error {
        // SAFETY: NUL-terminated arrays of valid C strings.
        unsafe {
            nix::libc::execve(self.path.as_ptr(), self.argv.as_ptr(), self.envp.as_ptr());
        }
        io::Error::last_os_error()
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

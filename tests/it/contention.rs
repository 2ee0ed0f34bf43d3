//! The registry lock held by a stuck process: plugctl waits `--lock-timeout`
//! and no longer, exits 4 naming the holder's pid, and changes nothing; once
//! the holder dies its lock dies with it.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

fn lock_file(s: &Rig) -> File {
    make_dir(s.registry.parent().unwrap());
    // Owner-only as plugctl makes it, whatever the umask.
    std::os::unix::fs::OpenOptionsExt::mode(
        OpenOptions::new()
            .create(true)
            .truncate(true)
            .read(true)
            .write(true),
        0o600,
    )
    .open(s.registry.with_file_name("registry.json.lock"))
    .unwrap()
}

/// A `sleep` that holds `lock` (an flock on its open file description)
/// after this process let go of it: a stuck plugctl, as far as any other
/// plugctl can tell. Its pid is written into the lock file, as a holder does.
fn stuck_holder(lock: File) -> Child {
    lock.lock().unwrap();
    let fd = lock.as_raw_fd();
    let mut cmd = Command::new("sleep");
    cmd.arg("60").stdin(Stdio::null()).stdout(Stdio::null());
    // SAFETY: only dup2(2) and fcntl(2), async-signal-safe, between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            // fd 3 in the child, without close-on-exec: the lock goes along.
            // dup2 onto itself (the lock file may already be fd 3) keeps
            // close-on-exec, so clear it explicitly.
            if nix::libc::dup2(fd, 3) < 0 || nix::libc::fcntl(3, nix::libc::F_SETFD, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let child = cmd.spawn().unwrap();
    let mut lock = lock;
    lock.set_len(0).unwrap();
    write!(lock, "{}", child.id()).unwrap();
    // Our descriptor closes; the lock stays with the sleeping child.
    drop(lock);
    child
}

const REGISTER: [&str; 10] = register_args("csi-node", "ebs", "a1", "/run/ebs.sock");

#[test]
fn a_stuck_holder_is_named_after_the_lock_timeout() {
    let s = Rig::new();
    register(&s, "csi-node", "x", "a0", "/run/x.sock");
    let before = fs::read(&s.registry).unwrap();
    let mut holder = stuck_holder(lock_file(&s));
    let pid = holder.id();

    let out = plugctl(&s)
        .args(["--json", "--lock-timeout", "1s"])
        .args_from(REGISTER)
        .fails_with(Exit::Timeout);
    let took = out.took();
    assert!(took >= Duration::from_secs(1), "gave up early: {took:?}");
    // 1 s plus start-up; a generous margin for a loaded machine
    assert!(took < Duration::from_secs(4), "waited {took:?}");
    let e = out.error();
    assert_eq!(e["kind"], "registry_locked", "{e}");
    let message = e["message"].as_str().unwrap();
    for needle in [
        s.registry.to_str().unwrap(),
        &format!("locked by another plugctl (pid {pid})"),
        "gave up after 1s",
    ] {
        assert!(message.contains(needle), "{needle:?} in {message}");
    }
    assert_eq!(
        fs::read(&s.registry).unwrap(),
        before,
        "the registry changed"
    );

    // Reading needs no lock.
    plugctl(&s)
        .args(["--json", "plugin", "list"])
        .succeeds()
        .json();

    // The holder dies (kill -9): its lock goes with it, no stale lock.
    holder.kill().unwrap();
    holder.wait().unwrap();
    plugctl(&s)
        .args(["--json", "--lock-timeout", "1s"])
        .args_from(REGISTER)
        .succeeds()
        .json();
    let lock_text = fs::read_to_string(s.registry.with_file_name("registry.json.lock")).unwrap();
    assert_ne!(
        lock_text.trim(),
        pid.to_string(),
        "the new holder writes its own pid"
    );
}

#[test]
fn a_holder_that_wrote_no_pid_is_still_a_bounded_wait() {
    let s = Rig::new();
    let lock = lock_file(&s);
    lock.lock().unwrap();
    for timeout in ["300ms", "1s"] {
        let out = plugctl(&s)
            .args(["--json", "--lock-timeout", timeout])
            .args_from(REGISTER)
            .fails_with(Exit::Timeout);
        let took = out.took();
        let doc = out.json();
        assert!(took < Duration::from_secs(4), "{timeout}: waited {took:?}");
        let message = doc["error"]["message"].as_str().unwrap();
        // The holder wrote no pid, but the kernel's lock table names it.
        assert!(
            message.contains(&format!(
                "locked by another plugctl (pid {});",
                std::process::id()
            )),
            "{message}"
        );
        assert!(
            message.contains(&format!("gave up after {timeout}")),
            "{message}"
        );
    }
    assert!(!s.registry.exists(), "nothing was written");
    // Volume commands wait the same way, before running any plugin.
    let ran = s.out_file("ran");
    s.plugin(
        "host-volume",
        "p",
        &format!("touch '{}'; echo '{{}}'", ran.display()),
    );
    plugctl(&s)
        .args([
            "--json",
            "--lock-timeout",
            "300ms",
            "volume",
            "create",
            "--plugin",
            "p",
            "--name",
            "v",
        ])
        .fails_with(Exit::Timeout)
        .error_kind("registry_locked");
    assert!(!ran.exists(), "the plugin ran without a pending record");
    drop(lock);
}

/// After a second on the lock, plugctl says whom it waits for: the pid and
/// what that process runs; a wait shorter than that says nothing.
#[test]
fn a_wait_over_a_second_names_the_holder_and_its_command() {
    let s = Rig::new();
    plugctl(&s).args(REGISTER).succeeds();
    let mut holder = stuck_holder(lock_file(&s));
    let pid = holder.id();
    let started = Instant::now();
    plugctl(&s)
        .args(["--lock-timeout", "2s"])
        .args(REGISTER)
        .fails_with(Exit::Timeout)
        .stderr_has(&format!(
            "plugctl: waiting for the registry lock held by pid {pid} (sleep 60) (up to 1s \
             more; --lock-timeout)"
        ));
    assert!(started.elapsed() >= Duration::from_secs(2));
    // -q keeps it quiet; under a second it is never said.
    plugctl(&s)
        .args(["-q", "--lock-timeout", "2s"])
        .args(REGISTER)
        .fails_with(Exit::Timeout)
        .stderr_lacks("waiting for");
    plugctl(&s)
        .args(["--lock-timeout", "500ms"])
        .args(REGISTER)
        .fails_with(Exit::Timeout)
        .stderr_lacks("waiting for");
    holder.kill().unwrap();
    holder.wait().unwrap();
}

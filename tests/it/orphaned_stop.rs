//! Job control where nobody is there to continue: a TSTP sent to plugctl
//! in an orphaned process group.

use std::time::{Duration, Instant};

use crate::common::*;

/// Waits for `path` to hold a line, at most `within`.
fn wait_for(path: &std::path::Path, within: Duration) -> Option<String> {
    let until = Instant::now() + within;
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if text.ends_with('\n') {
            return Some(text.trim().to_string());
        }
        if Instant::now() >= until {
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// plugctl catches TSTP to stop its plugins' groups before itself, then
/// stops with SIGSTOP. In a process group no job-control shell holds (an
/// orphaned one: plugctl started in the background by a script that has
/// exited, as a cron job's or a timer's helper), the kernel discards a
/// TSTP, since nothing would ever continue the group; plugctl's SIGSTOP
/// was not discarded, and the command, with its plugins, stayed stopped
/// until someone killed it (found by the tenth review). It goes on as a
/// program that does not catch TSTP would.
#[test]
fn a_tstp_to_plugctl_in_an_orphaned_process_group_stops_nothing() {
    let s = Rig::new();
    let pid_file = s.out_file("plugctl.pid");
    s.plugin(
        "host-volume",
        "slow",
        &format!(
            "echo $PPID >'{}'\nsleep 0.7\necho '{{\"version\":\"1.0.0\"}}'",
            pid_file.display()
        ),
    );
    let rc = s.out_file("rc");
    // A session of its own whose leader exits at once: the subshell that
    // waits for plugctl, and plugctl, are then an orphaned group.
    let started = s
        .command("setsid")
        .args([
            "sh",
            "-c",
            r#"( "$0" fingerprint >/dev/null 2>&1; echo $? >"$1" ) &"#,
            PLUGCTL,
        ])
        .arg(&rc)
        .status()
        .expect("setsid runs");
    assert!(started.success());
    let pid: i32 = wait_for(&pid_file, Duration::from_secs(20))
        .expect("the plugin started")
        .parse()
        .unwrap();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(pid),
        nix::sys::signal::Signal::SIGTSTP,
    )
    .unwrap();
    let done = wait_for(&rc, Duration::from_secs(20));
    if done.is_none() {
        // Stopped for good: end it, and what it ran, before failing.
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
    assert_eq!(
        done.as_deref(),
        Some("0"),
        "plugctl went on after a TSTP nobody could continue"
    );
}

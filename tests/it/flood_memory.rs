//! A plugin that prints 300 MB leaves plugctl's memory small. The peak is
//! read from wait4(2) on plugctl itself: its own usage and that of the
//! plugin it waited for, and nothing of what other tests in this binary
//! ran (getrusage(RUSAGE_CHILDREN) would count every child of the process).
//! A child's peak starts at its parent's, since exec keeps the high-water
//! mark of the memory it replaces; so plugctl is started from a fresh test
//! process, not from this one, whose other tests may hold 100 MB and more.

use std::io::Read;
use std::process::Stdio;

use crate::common::*;

#[test]
#[expect(clippy::zombie_processes, reason = "reaped by wait4, for its rusage")]
fn stdout_flood_is_cut_and_memory_stays_small() {
    if !alone_in_a_fresh_process("flood_memory::stdout_flood_is_cut_and_memory_stays_small") {
        return;
    }
    let s = Rig::new();
    // dash's default PATH finds yes and head.
    s.plugin(
        "host-volume",
        "flood",
        "yes xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx | head -c 300000000",
    );
    // A raw child, not the builder's: wait4 must reap it, for its rusage.
    let mut child = s
        .std_cmd()
        .args(["--json", "fingerprint", "flood"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err_pipe = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut err = String::new();
        err_pipe.read_to_string(&mut err).unwrap();
        err
    });
    let mut out = Vec::new();
    child.stdout.take().unwrap().read_to_end(&mut out).unwrap();
    let err = err_reader.join().unwrap();

    let pid = child.id() as i32;
    let mut status = 0;
    // SAFETY: rusage is plain data that wait4 fills in.
    let mut usage: nix::libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: reaps our own child, which nothing else waits for (the Child
    // handle is never waited on).
    let reaped = unsafe { nix::libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4: {}", std::io::Error::last_os_error());
    assert!(
        nix::libc::WIFEXITED(status) && nix::libc::WEXITSTATUS(status) == Exit::Failure.code(),
        "wait status {status:#x}\n{err}"
    );

    let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let reason = row(&doc, "host-volume", "flood")["error"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        reason.contains("capture limit") && reason.contains("dropped"),
        "{reason}"
    );
    // ru_maxrss is in KiB: plugctl (and the plugin) stayed under 64 MiB.
    assert!(usage.ru_maxrss > 0, "wait4 filled in no usage");
    assert!(
        usage.ru_maxrss < 64 * 1024,
        "max rss {} KiB",
        usage.ru_maxrss
    );
}

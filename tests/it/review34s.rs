//! A fifteenth fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after review34.rs to review34r.rs,
//! aimed at what plugctl keeps and what a plugin's answer or a workload
//! can do to it: each test here is an attack that found a way through.

use std::os::fd::OwnedFd;

use rustix::fs::{Mode, OFlags};

use crate::common::*;

/// `volume audit` walks, as root, every volume's files, which belong to
/// whoever its workloads run as. The walk kept, for every directory still
/// to read, its whole path: a workload that nested 490 directories of
/// 255-byte names and made a few thousand more at the bottom (a few MiB
/// of its disk) had the audit hold 128 KiB of path for each, so 3,000 of
/// them took 375 MiB of root's memory and 30,000 several GiB; the walk
/// now keeps names only, and this audit runs in 128 MiB of data.
#[test]
fn a_workloads_deep_wide_tree_never_costs_the_audit_its_memory() {
    if !tool_available("prlimit", "the audit's memory under a limit") {
        return;
    }
    let s = Rig::new();
    s.hv_script(
        "dir",
        r#"mkdir -p "$v"; printf '{"path": "%s"}' "$v""#,
        "exit 0",
    );
    let v = create_volume(&s, &["--plugin", "dir", "--name", "a"]);
    let path = v["path"].as_str().unwrap().to_string();
    let open = |at: &OwnedFd, name: &str| -> OwnedFd {
        rustix::fs::openat(
            at,
            name,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .unwrap()
    };
    let mut fd = rustix::fs::open(
        path.as_str(),
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .unwrap();
    let long = "x".repeat(255);
    for _ in 0..490 {
        rustix::fs::mkdirat(&fd, long.as_str(), Mode::from_raw_mode(0o755)).unwrap();
        fd = open(&fd, &long);
    }
    for i in 0..3000 {
        let name = format!("{i:06}{}", "y".repeat(249));
        rustix::fs::mkdirat(&fd, name.as_str(), Mode::from_raw_mode(0o755)).unwrap();
    }
    let run = expect::Run::new(s.command("prlimit"), "prlimit")
        .arg(format!("--data={}", 128 << 20))
        .arg("--")
        .arg(PLUGCTL)
        .args(["--json", "volume", "audit"]);
    let doc = run.succeeds().json();
    // 3,490 directories: every one counted.
    let bytes = doc["volumes"][0]["bytes_on_disk"].as_u64();
    assert!(bytes.is_some_and(|b| b >= 3490 * 512), "{doc}");
}

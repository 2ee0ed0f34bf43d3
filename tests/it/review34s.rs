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

/// The audit walks one volume per core at once, and each walk holds a
/// descriptor for every level that still has a directory to read: a
/// workload that nests 450 levels with a few empty directories beside
/// each step holds about 340 of them, and a handful of such volumes run
/// root's usual soft limit (1024) out. A directory the walk could not
/// open was then left out in silence: the 8 MiB at the bottom was not
/// counted, and the volume, over its capacity, was called "ok". Such a
/// walk is now a finding that says how many entries it could not read
/// and why, and an orphan's size is not shown smaller than it is. (The
/// limit is lowered here so that one walk runs out.)
#[test]
fn a_walk_that_runs_out_of_descriptors_never_calls_a_volume_ok() {
    if !tool_available("prlimit", "the audit under a low open-file limit") {
        return;
    }
    let s = Rig::new();
    s.hv_script(
        "dir",
        r#"mkdir -p "$v"; printf '{"path": "%s"}' "$v""#,
        "exit 0",
    );
    let v = create_volume(
        &s,
        &["--plugin", "dir", "--name", "a", "--capacity-max", "6MiB"],
    );
    let path = v["path"].as_str().unwrap().to_string();
    let id = v["id"].as_str().unwrap().to_string();
    // The same tree in an orphan: plugctl's, once its record is gone.
    plugctl(&s).args(["volume", "forget", &id]).succeeds();
    let open = |at: &OwnedFd, name: &str| -> OwnedFd {
        rustix::fs::openat(
            at,
            name,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .unwrap()
    };
    let v = create_volume(
        &s,
        &["--plugin", "dir", "--name", "b", "--capacity-max", "6MiB"],
    );
    for top in [path.as_str(), v["path"].as_str().unwrap()] {
        let mut fd = rustix::fs::open(
            top,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .unwrap();
        for _ in 0..450 {
            for side in ["p", "q", "r", "d"] {
                rustix::fs::mkdirat(&fd, side, Mode::from_raw_mode(0o755)).unwrap();
            }
            fd = open(&fd, "d");
        }
        let big = rustix::fs::openat(
            &fd,
            "big",
            OFlags::WRONLY | OFlags::CREATE | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o644),
        )
        .unwrap();
        rustix::io::write(&big, &vec![7u8; 8 << 20]).unwrap();
    }
    let out = expect::Run::new(s.command("prlimit"), "prlimit")
        .arg("--nofile=300")
        .arg("--")
        .arg(PLUGCTL)
        .args(["--json", "volume", "audit"])
        .fails_with(Exit::Failure);
    let doc = out.json();
    let findings = doc["volumes"][0]["findings"].to_string();
    assert!(
        findings.contains("could not be read") && findings.contains("not all counted"),
        "{doc}"
    );
    let orphan = doc["orphans"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["path"] == path.as_str()))
        .unwrap_or_else(|| panic!("the orphan is listed: {doc}"));
    assert!(orphan["bytes_on_disk"].is_null(), "{doc}");
    // With descriptors enough, the same walk counts all of it, and the
    // volume is over its capacity: also when only the hard limit allows
    // them, as the audit runs no plugin and raises its soft limit to the
    // hard one first.
    for limit in [None, Some("--nofile=300:4096")] {
        let run = match limit {
            None => plugctl(&s),
            Some(nofile) => expect::Run::new(s.command("prlimit"), "prlimit")
                .arg(nofile)
                .arg("--")
                .arg(PLUGCTL),
        };
        let doc = run
            .args(["--json", "volume", "audit"])
            .fails_with(Exit::Failure)
            .json();
        let findings = doc["volumes"][0]["findings"].to_string();
        assert!(
            findings.contains("over its capacity_max") && !findings.contains("could not be read"),
            "{limit:?}: {doc}"
        );
    }
}

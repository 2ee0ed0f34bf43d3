//! What a plugin starts with (docs/protocol.md#38-what-a-plugin-starts-with):
//! the same as a Nomad client's children, measured, not assumed. A Go
//! program that starts a plugin as the client does (`tests/oracle/spawn`:
//! os/exec, only the protocol's environment) and plugctl are started alike
//! — a low soft open-files limit, SIGHUP, SIGQUIT and SIGXFSZ ignored,
//! SIGUSR2 blocked, umask 027, oom_score_adj 200, a working directory of
//! their own — and the same plugin reports what it got under each: every
//! limit, the signal mask and ignored signals, oom_score_adj, umask,
//! working directory, stdin, session and process group (the one
//! deliberate difference: a group and a time namespace of its own, or,
//! where no time namespace can be made, a session of its own).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;

/// The reporting plugin: a POSIX sh script reads its own /proc entries
/// (dash changes none of them at start) and writes `key=value` lines.
fn reporter(s: &Rig, report: &Path) -> PathBuf {
    s.plugin(
        "host-volume",
        "reporter",
        &format!(
            r#"PATH=/usr/bin:/bin
r='{report}.tmp'
awk '/^(SigBlk|SigIgn|Umask):/ {{ print $1 $2 }}' /proc/$$/status | tr ':' '=' >"$r"
awk 'NR > 1 {{ n = $0; sub(/  +.*/, "", n); gsub(/ /, "_", n);
  rest = substr($0, 27); split(rest, f, / +/); print "limit." n "=" f[1] "/" f[2] }}' /proc/$$/limits >>"$r"
echo "oom=$(cat /proc/$$/oom_score_adj)" >>"$r"
echo "cwd=$(pwd)" >>"$r"
echo "stdin=$(readlink /proc/$$/fd/0)" >>"$r"
set -- $(sed 's/.*) //' /proc/$$/stat)
pgrp=$3 sid=$4
set -- $(sed 's/.*) //' /proc/$PPID/stat)
[ "$pgrp" = $$ ] && echo "group=own" >>"$r" || {{ [ "$pgrp" = "$3" ] && echo "group=parent's" >>"$r" || echo "group=other" >>"$r"; }}
[ "$sid" = $$ ] && echo "session=own" >>"$r" || {{ [ "$sid" = "$4" ] && echo "session=parent's" >>"$r" || echo "session=other" >>"$r"; }}
[ "$(readlink /proc/$$/ns/time)" = "$(readlink /proc/$PPID/ns/time)" ] && echo "timens=parent's" >>"$r" || echo "timens=own" >>"$r"
mv "$r" '{report}'
echo '{{"version": "1.0.0"}}'"#,
            report = report.display()
        ),
    )
}

/// `program args...` started as the agent might be: a soft open-files
/// limit of 256, SIGHUP, SIGQUIT and SIGXFSZ ignored, SIGUSR2 blocked,
/// umask 027, oom_score_adj 200, in `cwd`. Python only sets these up and
/// execs.
fn started_alike(s: &Rig, cwd: &Path, program: &[&std::ffi::OsStr]) -> Command {
    let mut c = s.command("python3");
    c.arg("-I")
        .arg("-c")
        .arg(
            "import os, resource, signal, sys
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
os.umask(0o027)
for sig in (signal.SIGHUP, signal.SIGQUIT, signal.SIGXFSZ):
    signal.signal(sig, signal.SIG_IGN)
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR2})
open('/proc/self/oom_score_adj', 'w').write('200')
os.chdir(sys.argv[1])
os.execv(sys.argv[2], sys.argv[2:])",
        )
        .arg(cwd)
        .args(program);
    c
}

fn read_report(path: &Path) -> BTreeMap<String, String> {
    let text =
        fs::read_to_string(path).unwrap_or_else(|e| panic!("no report at {}: {e}", path.display()));
    text.lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The Go parent, built from tests/oracle/spawn; None where Go is missing.
fn go_spawn() -> Option<PathBuf> {
    if !tool_available("go", "what a Go parent gives its children") {
        return None;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("spawn");
    make_dir(&dir);
    let out = dir.join(format!("spawn.{}", std::process::id()));
    tool("go")
        .current_dir(repo().join("tests/oracle/spawn"))
        .env("GO111MODULE", "off")
        .env("GOTOOLCHAIN", "local")
        .env("GOFLAGS", "")
        .env("GOPROXY", "off")
        .env("CGO_ENABLED", "0")
        .env("GOCACHE", dir.join("gocache"))
        .env("GOPATH", dir.join("gopath"))
        .arg("build")
        .arg("-o")
        .arg(&out)
        .arg("main.go")
        .succeeds();
    let fixed = dir.join("spawn");
    fs::rename(&out, &fixed).unwrap();
    Some(fixed)
}

#[test]
fn a_plugin_starts_with_what_a_go_parent_gives_its_children() {
    let s = Rig::new();
    if !tool_available(
        "python3",
        "a launcher that sets what the agent started with",
    ) {
        return;
    }
    let Some(go) = go_spawn() else {
        return;
    };
    let work = s.root().join("agent-cwd");
    make_dir(&work);
    let plugin = reporter(&s, &s.out_file("under-go"));
    let ran = started_alike(&s, &work, &[go.as_os_str(), plugin.as_os_str()])
        .output()
        .unwrap();
    assert!(ran.status.success(), "{}", stderr(&ran));
    let go = read_report(&s.out_file("under-go"));
    // plugctl, started alike: its concurrency of 64 needs more than 256
    // descriptors, so it raises its own limit, and the plugin still gets
    // the 256 it started with.
    reporter(&s, &s.out_file("under-plugctl"));
    let ran = started_alike(
        &s,
        &work,
        &[
            std::ffi::OsStr::new(PLUGCTL),
            "fingerprint".as_ref(),
            "reporter".as_ref(),
        ],
    )
    .output()
    .unwrap();
    assert!(ran.status.success(), "{}", stderr(&ran));
    let ours = read_report(&s.out_file("under-plugctl"));

    assert_eq!(
        go["limit.Max_open_files"].split('/').next(),
        Some("256"),
        "{go:?}"
    );
    for (key, theirs) in &go {
        let mine = ours
            .get(key)
            .unwrap_or_else(|| panic!("no {key} under plugctl"));
        if key == "group" || key == "session" || key == "timens" {
            // The deliberate difference: a group of its own, and a time
            // namespace of its own (as root, where the kernel makes one)
            // or else a session of its own, so that a deadline reaches
            // everything the plugin started.
            assert_eq!(theirs, "parent's", "{key}");
            let expected = match key.as_str() {
                "session" if ours["timens"] == "own" => "parent's",
                // As root, on a kernel with time namespaces, every call
                // has one.
                "timens" if Path::new("/proc/self/ns/time").exists() => "own",
                "timens" => "parent's",
                _ => "own",
            };
            assert_eq!(mine, expected, "{key}: {ours:?}");
            continue;
        }
        assert_eq!(
            mine, theirs,
            "{key}: plugctl's child {mine:?}, Go's child {theirs:?}"
        );
    }
    assert_eq!(ours["oom"], "200");
    assert_eq!(ours["Umask"], "0027");
    assert_eq!(ours["stdin"], "/dev/null");
    assert_eq!(Path::new(&ours["cwd"]), work.as_path());
    // SIGHUP (1) ignored as it was, SIGQUIT (3) and SIGXFSZ (25) at their
    // default again, SIGUSR2 (12) blocked as it was.
    let ign = u64::from_str_radix(&ours["SigIgn"], 16).unwrap();
    assert_eq!(ign & 1, 1, "SIGHUP: {ign:x}");
    assert_eq!(ign & (1 << 2), 0, "SIGQUIT: {ign:x}");
    assert_eq!(ign & (1 << 24), 0, "SIGXFSZ: {ign:x}");
    let blk = u64::from_str_radix(&ours["SigBlk"], 16).unwrap();
    assert_eq!(blk & (1 << 11), 1 << 11, "SIGUSR2: {blk:x}");
}

#[test]
fn started_plainly_a_plugin_gets_plugctls_own_soft_limit() {
    let s = Rig::new();
    let report = s.out_file("plain");
    reporter(&s, &report);
    let mut c = s.command("/bin/sh");
    c.args(["-c", "ulimit -Sn 300 && exec \"$0\" fingerprint reporter"])
        .arg(PLUGCTL);
    let ran = c.output().unwrap();
    assert!(ran.status.success(), "{}", stderr(&ran));
    let r = read_report(&report);
    assert_eq!(
        r["limit.Max_open_files"].split('/').next(),
        Some("300"),
        "{r:?}"
    );
    // plugctl raised its own (its 64 calls need more than 300), not the
    // plugin's.
    assert_eq!(r["stdin"], "/dev/null");
    assert_eq!(r["group"], "own");
}

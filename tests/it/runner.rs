//! The runner against real processes: shell scripts written into temporary
//! directories. Plugins run with an empty environment, so no PATH: dash
//! falls back to its default one, which finds sleep, cat, head and date.
//!
//! Time bounds are generous on purpose: these run in parallel on a small,
//! loaded machine.

use std::collections::HashSet;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use plugctl_core::runner::{
    self, Invocation, Outcome, PIPE_DRAIN_BOUND, Pool, SpawnError, Termination,
};
use tempfile::TempDir;

const DEADLINE: Duration = Duration::from_secs(1);
const GRACE: Duration = Duration::from_secs(1);
/// Slack for a loaded machine on top of every bound the runner promises.
const SLACK: Duration = Duration::from_millis(1500);

/// Writes under a temporary name and renames into place, so that the path
/// we exec was never open for writing: exec of a file some process (here, a
/// sibling test's fork) still has open for writing fails with ETXTBSY.
fn write_file(dir: &Path, name: &str, content: &[u8], mode: u32) -> PathBuf {
    let tmp = dir.join(format!(".{name}.tmp"));
    fs::write(&tmp, content).unwrap();
    fs::set_permissions(&tmp, fs::Permissions::from_mode(mode)).unwrap();
    let path = dir.join(name);
    fs::rename(&tmp, &path).unwrap();
    path
}

/// A scratch directory of mode 0755 whatever the umask: the runner refuses
/// a plugin in a group-writable directory (umask 002 makes one).
fn scratch() -> TempDir {
    let dir = TempDir::new().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    write_file(dir, name, format!("#!/bin/sh\n{body}\n").as_bytes(), 0o755)
}

fn inv(program: &Path) -> Invocation {
    Invocation::new(program, Duration::from_secs(10), GRACE)
}

/// Dead, or a zombie waiting for a parent to reap it (this machine's init
/// reaps orphans lazily).
fn gone(pid: i32) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

/// Whether `pid` is gone within a second. A SIGKILLed process closes its
/// pipes (which ends the call) a moment before it becomes a zombie.
fn gone_soon(pid: i32) -> bool {
    let until = Instant::now() + Duration::from_secs(1);
    while !gone(pid) {
        if Instant::now() >= until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    true
}

/// The pid a script wrote to `file`, waiting for it to appear.
fn read_pid(file: &Path) -> i32 {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        if let Ok(s) = fs::read_to_string(file)
            && let Ok(pid) = s.trim().parse()
        {
            return pid;
        }
        assert!(Instant::now() < until, "{} never written", file.display());
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn assert_within(o: &Outcome, low: Duration, high: Duration) {
    assert!(
        o.duration >= low && o.duration < high,
        "took {:?}, expected {low:?}..{high:?}: {o:?}",
        o.duration
    );
}

#[tokio::test]
async fn environment_is_exactly_the_given_one() {
    let dir = scratch();
    // The shell's own environ, as exec gave it: `env` would also show what
    // dash adds (PWD).
    let p = script(dir.path(), "env", r#"tr '\0' '\n' < /proc/$$/environ"#);
    let o = runner::run(
        &inv(&p)
            .env("NOMAD_ALLOC_ID", "a1")
            .env("WITH_SPACE", "x y")
            .env("EMPTY", ""),
    )
    .await
    .unwrap();
    assert!(o.success(), "{o:?}");
    let lines: HashSet<String> = o.stdout_lossy().lines().map(String::from).collect();
    let want: HashSet<String> = ["NOMAD_ALLOC_ID=a1", "WITH_SPACE=x y", "EMPTY="]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(lines, want);
}

#[tokio::test]
async fn arguments_are_passed_verbatim() {
    let dir = scratch();
    let p = script(
        dir.path(),
        "args",
        r#"for a in "$@"; do printf '%s\0' "$a"; done"#,
    );
    let args = ["-n", "two words\nand a line", "", "--x=$HOME", "*"];
    let mut i = inv(&p);
    for a in args {
        i = i.arg(a);
    }
    let o = runner::run(&i).await.unwrap();
    assert!(o.success(), "{o:?}");
    let got: Vec<&[u8]> = o.stdout.split(|&b| b == 0).collect();
    let want: Vec<&[u8]> = args
        .iter()
        .map(|a| a.as_bytes())
        .chain([&b""[..]])
        .collect();
    assert_eq!(got, want);
}

#[tokio::test]
async fn stdin_is_at_eof() {
    let dir = scratch();
    let p = script(dir.path(), "cat", "cat; echo done");
    let o = runner::run(&inv(&p)).await.unwrap();
    assert!(o.success(), "{o:?}");
    assert_eq!(o.stdout, b"done\n");
    assert!(o.duration < Duration::from_secs(5), "{o:?}");
}

#[tokio::test]
async fn exit_code_and_both_streams() {
    let dir = scratch();
    let p = script(dir.path(), "fail", "echo out; echo err >&2; exit 7");
    let o = runner::run(&inv(&p)).await.unwrap();
    assert_eq!(o.termination, Termination::Exited(7));
    assert!(!o.success() && !o.timed_out && !o.killed && !o.pipes_abandoned);
    assert_eq!(o.stdout_lossy(), "out\n");
    assert_eq!(o.stderr_lossy(), "err\n");
    assert_eq!(o.describe_truncation(), None);
}

#[tokio::test]
async fn death_by_signal() {
    let dir = scratch();
    let p = script(dir.path(), "suicide", "kill -9 $$");
    let o = runner::run(&inv(&p)).await.unwrap();
    assert_eq!(o.termination, Termination::Signaled(9));
    assert!(!o.timed_out && !o.killed && !o.success());
}

#[tokio::test]
async fn early_closed_stdout_waits_for_exit() {
    let dir = scratch();
    let p = script(dir.path(), "close", "exec >&- 2>&-; sleep 0.5; exit 3");
    let o = runner::run(&inv(&p)).await.unwrap();
    assert_eq!(o.termination, Termination::Exited(3));
    assert!(!o.timed_out, "{o:?}");
    assert_within(&o, Duration::from_millis(500), Duration::from_secs(5));
}

#[tokio::test]
async fn hang_ends_with_sigterm() {
    let dir = scratch();
    let pid_file = dir.path().join("pid");
    let p = script(dir.path(), "hang", "sleep 30 & echo $! > \"$1\"; wait");
    let o = runner::run(&Invocation::new(&p, DEADLINE, GRACE).arg(&pid_file))
        .await
        .unwrap();
    assert!(o.timed_out && !o.killed && !o.pipes_abandoned, "{o:?}");
    assert_eq!(o.termination, Termination::Signaled(15));
    assert!(!o.success());
    // SIGTERM was obeyed: no waiting for the grace.
    assert_within(&o, DEADLINE, DEADLINE + SLACK);
    assert!(gone_soon(read_pid(&pid_file)));
}

#[tokio::test]
async fn term_ignoring_group_is_killed_after_grace() {
    let dir = scratch();
    let pid_file = dir.path().join("pid");
    // The ignored TERM is inherited by the sleep, which holds stdout too.
    let p = script(
        dir.path(),
        "stubborn",
        "trap '' TERM; sleep 30 & echo $! > \"$1\"; echo started; wait",
    );
    let o = runner::run(&Invocation::new(&p, DEADLINE, GRACE).arg(&pid_file))
        .await
        .unwrap();
    assert!(o.timed_out && o.killed, "{o:?}");
    assert!(!o.pipes_abandoned, "{o:?}");
    assert_eq!(o.termination, Termination::Signaled(9));
    assert_eq!(o.stdout, b"started\n");
    assert_within(&o, DEADLINE + GRACE, DEADLINE + GRACE + SLACK);
    assert!(gone_soon(read_pid(&pid_file)));
}

#[tokio::test]
async fn zero_grace_kills_at_once() {
    let dir = scratch();
    let p = script(dir.path(), "stubborn", "trap '' TERM; sleep 30");
    let o = runner::run(&Invocation::new(&p, DEADLINE, Duration::ZERO))
        .await
        .unwrap();
    assert!(o.timed_out && o.killed, "{o:?}");
    assert_eq!(o.termination, Termination::Signaled(9));
    assert_within(&o, DEADLINE, DEADLINE + SLACK);
}

#[tokio::test]
async fn background_child_holding_stdout_is_killed_as_left_behind() {
    let dir = scratch();
    let pid_file = dir.path().join("pid");
    let p = script(
        dir.path(),
        "forker",
        "sleep 30 & echo $! > \"$1\"; echo bye; exit 0",
    );
    let o = runner::run(&Invocation::new(&p, DEADLINE, GRACE).arg(&pid_file))
        .await
        .unwrap();
    // The leader did exit 0 in time; what it left holding stdout is
    // killed a moment later, named, and the call ends without waiting for
    // the deadline.
    assert_eq!(o.termination, Termination::Exited(0));
    assert!(!o.timed_out && !o.killed && !o.pipes_abandoned, "{o:?}");
    let pid = read_pid(&pid_file);
    assert_eq!(o.leftovers.len(), 1, "{o:?}");
    assert_eq!(
        (o.leftovers[0].pid, o.leftovers[0].command.as_str()),
        (pid, "sleep")
    );
    assert_eq!(o.stdout, b"bye\n");
    assert!(o.duration < DEADLINE, "{o:?}");
    assert!(gone_soon(pid));
}

#[tokio::test]
async fn escaped_pipe_holder_is_abandoned() {
    // Out of reach only where no process above is a subreaper: alone in a
    // fresh process, while no in-process plugctl run here makes this one a
    // subreaper (the escapee would be adopted, and killed as an orphan).
    let alone = {
        let _state = crate::common::process_state();
        crate::common::alone_in_a_fresh_process("runner::escaped_pipe_holder_is_abandoned")
    };
    if !alone {
        return;
    }
    let dir = scratch();
    let pid_file = dir.path().join("pid");
    // setsid takes the sleep out of the call's session, and nsenter out of
    // the call's time namespace (where the call has one: as root) back
    // into this process's: nothing marks it as the call's any more, and it
    // is out of our reach with our stdout still open.
    let p = script(
        dir.path(),
        "escapee",
        "back=\"nsenter --time=/proc/$PPID/ns/time\"\n\
         $back true 2>/dev/null || back=\n\
         setsid $back sleep 30 & echo $! > \"$1\"; exit 0",
    );
    let o = runner::run(&Invocation::new(&p, DEADLINE, GRACE).arg(&pid_file))
        .await
        .unwrap();
    let escaped = read_pid(&pid_file);
    let _ = kill(Pid::from_raw(escaped), Signal::SIGKILL);
    assert_eq!(o.termination, Termination::Exited(0));
    assert!(o.timed_out && o.pipes_abandoned && !o.killed, "{o:?}");
    // Nobody left to signal: no need to wait for the grace.
    assert_within(&o, DEADLINE, DEADLINE + PIPE_DRAIN_BOUND + SLACK);
}

#[tokio::test]
async fn escaped_pipe_holder_with_stubborn_leader() {
    let dir = scratch();
    let pid_file = dir.path().join("pid");
    let p = script(
        dir.path(),
        "escapee",
        "setsid sleep 30 & echo $! > \"$1\"; trap '' TERM; while :; do sleep 1; done",
    );
    let o = runner::run(&Invocation::new(&p, DEADLINE, GRACE).arg(&pid_file))
        .await
        .unwrap();
    let escaped = read_pid(&pid_file);
    let _ = kill(Pid::from_raw(escaped), Signal::SIGKILL);
    assert!(o.timed_out && o.killed && o.pipes_abandoned, "{o:?}");
    assert_eq!(o.termination, Termination::Signaled(9));
    // The hard bound: deadline + grace + the drain bound.
    assert_within(
        &o,
        DEADLINE + GRACE + PIPE_DRAIN_BOUND,
        DEADLINE + GRACE + PIPE_DRAIN_BOUND + SLACK,
    );
}

#[tokio::test]
async fn stdout_flood_is_cut_and_drained() {
    let dir = scratch();
    let p = script(
        dir.path(),
        "flood",
        "head -c 50000000 /dev/zero; echo x >&2",
    );
    let mut i = inv(&p);
    i.stdout_limit = 1 << 20;
    let o = runner::run(&i).await.unwrap();
    assert!(o.success(), "{o:?}");
    assert_eq!(o.stdout.len(), 1 << 20);
    assert_eq!(o.stdout_dropped, 50_000_000 - (1 << 20));
    assert_eq!(o.stderr, b"x\n");
    assert!(o.duration < Duration::from_secs(5), "{o:?}");
    assert_eq!(
        o.describe_truncation().as_deref(),
        Some("stdout cut at 1 MiB, 47 MiB dropped")
    );
}

fn peak_rss_kib() -> u64 {
    let status = fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// The flood runs in a child process where it is the only test: the peak
/// RSS measured is then the flood's, not that of whatever other tests of
/// this binary held at the time.
#[test]
fn huge_flood_keeps_memory_flat() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "runner::huge_flood_helper",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("PLUGCTL_TEST_FLOOD", "1")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    // The helper really ran (a filter that matched nothing passes too).
    assert!(text.contains("1 passed"), "{text}");
}

/// Not a test by itself: the body of `huge_flood_keeps_memory_flat`, in a
/// process of its own.
#[test]
#[ignore = "run by huge_flood_keeps_memory_flat in a child process"]
fn huge_flood_helper() {
    if std::env::var_os("PLUGCTL_TEST_FLOOD").is_none() {
        eprintln!("SKIPPED: run by huge_flood_keeps_memory_flat, alone in a child process");
        return;
    }
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(huge_flood());
}

async fn huge_flood() {
    let dir = scratch();
    let p = script(dir.path(), "flood", "head -c 300000000 /dev/zero");
    let o = runner::run(&inv(&p)).await.unwrap();
    assert!(o.success(), "{o:?}");
    assert_eq!(o.stdout.len(), runner::STDOUT_LIMIT);
    assert_eq!(o.stdout_dropped, 300_000_000 - runner::STDOUT_LIMIT as u64);
    assert_eq!(
        o.describe_truncation().as_deref(),
        Some("stdout cut at 4 MiB, 282 MiB dropped")
    );
    // Peak of this process (the flood is its only test): far below what
    // keeping the flood would take.
    let peak = peak_rss_kib();
    assert!(peak < 128 << 10, "peak RSS {peak} KiB");
}

#[tokio::test]
async fn stderr_keeps_the_tail() {
    let dir = scratch();
    let p = script(
        dir.path(),
        "noisy",
        r#"i=0; while [ $i -lt 20000 ]; do echo "line $i" >&2; i=$((i+1)); done"#,
    );
    let mut i = inv(&p);
    i.stderr_limit = 1000;
    let o = runner::run(&i).await.unwrap();
    assert!(o.success(), "{o:?}");
    let all: String = (0..20000).map(|i| format!("line {i}\n")).collect();
    assert_eq!(o.stderr.len(), 1000);
    assert_eq!(o.stderr, all.as_bytes()[all.len() - 1000..]);
    assert_eq!(o.stderr_dropped, (all.len() - 1000) as u64);
    assert!(o.stderr_lossy().ends_with("line 19999\n"));
    assert!(
        o.describe_truncation()
            .is_some_and(|d| d.starts_with("stderr kept the last 1000 B")),
        "{o:?}"
    );
}

#[tokio::test]
async fn both_pipes_are_read_at_once() {
    let dir = scratch();
    // Far more than a pipe's buffer on stderr before the first byte of
    // stdout: reading one pipe at a time would deadlock.
    let p = script(
        dir.path(),
        "both",
        "head -c 5000000 /dev/zero >&2; echo ok; head -c 5000000 /dev/zero >&2",
    );
    let o = runner::run(&inv(&p)).await.unwrap();
    assert!(o.success(), "{o:?}");
    assert_eq!(o.stdout, b"ok\n");
    assert_eq!(o.stderr.len(), runner::STDERR_LIMIT);
    assert_eq!(o.stderr_dropped, 10_000_000 - runner::STDERR_LIMIT as u64);
}

#[tokio::test]
async fn not_executable() {
    let dir = scratch();
    let p = write_file(dir.path(), "plain", b"#!/bin/sh\necho hi\n", 0o644);
    assert_eq!(
        runner::run(&inv(&p)).await.unwrap_err(),
        SpawnError::PermissionDenied(p)
    );
}

#[tokio::test]
async fn missing_program() {
    let dir = scratch();
    let p = dir.path().join("nope");
    assert_eq!(
        runner::run(&inv(&p)).await.unwrap_err(),
        SpawnError::NotFound(p)
    );
}

#[tokio::test]
async fn missing_interpreter() {
    let dir = scratch();
    let p = write_file(
        dir.path(),
        "orphan",
        b"#! /nonexistent/interp -x\nwhatever\n",
        0o755,
    );
    assert_eq!(
        runner::run(&inv(&p)).await.unwrap_err(),
        SpawnError::InterpreterMissing {
            program: p,
            interpreter: "/nonexistent/interp".into()
        }
    );
}

#[tokio::test]
async fn missing_elf_loader() {
    // A dynamic binary whose loader path is changed to one that does not
    // exist, like a musl build on a glibc host.
    // coreutils' true, which .ci/run installs: a dynamic glibc binary.
    let Ok(mut elf) = fs::read("/usr/bin/true") else {
        crate::common::skip_unless_ci("no /usr/bin/true to copy");
        return;
    };
    let Some(at) = elf.windows(8).position(|w| w == b"ld-linux") else {
        crate::common::skip_unless_ci("/usr/bin/true names no ld-linux loader (static or musl)");
        return;
    };
    elf[at..at + 8].copy_from_slice(b"ld-nolin");
    let dir = scratch();
    let p = write_file(dir.path(), "musl", &elf, 0o755);
    match runner::run(&inv(&p)).await.unwrap_err() {
        SpawnError::InterpreterMissing {
            program,
            interpreter,
        } => {
            assert_eq!(program, p);
            assert!(interpreter.contains("ld-nolin"), "{interpreter}");
        }
        e => panic!("{e:?}"),
    }
}

#[tokio::test]
async fn no_shebang_is_an_exec_format_error() {
    let dir = scratch();
    let marker = dir.path().join("ran");
    let p = write_file(
        dir.path(),
        "bare",
        format!("echo ran > {}\n", marker.display()).as_bytes(),
        0o755,
    );
    assert_eq!(
        runner::run(&inv(&p)).await.unwrap_err(),
        SpawnError::ExecFormat(p)
    );
    assert!(!marker.exists(), "a shell ran the script");
    let empty = write_file(dir.path(), "empty", b"", 0o755);
    assert_eq!(
        runner::run(&inv(&empty)).await.unwrap_err(),
        SpawnError::ExecFormat(empty)
    );
}

/// Files that pass the `#!`/ELF check but that the kernel itself refuses
/// with ENOEXEC: classified from the errno as an exec format error, not as
/// an unknown spawn failure.
#[tokio::test]
async fn enoexec_from_exec_is_an_exec_format_error() {
    let dir = scratch();
    // The ELF magic and a few header bytes, then nothing.
    let cut = write_file(dir.path(), "cut", b"\x7fELF\x02\x01\x01\0\0\0", 0o755);
    assert_eq!(
        runner::run(&inv(&cut)).await.unwrap_err(),
        SpawnError::ExecFormat(cut)
    );
    // A whole ELF built for another machine (VAX: no binfmt_misc handler
    // runs it anywhere).
    let Ok(mut elf) = fs::read("/usr/bin/true") else {
        crate::common::skip_unless_ci("no /usr/bin/true to copy");
        return;
    };
    assert_eq!(&elf[..4], b"\x7fELF");
    // e_machine, in the byte order EI_DATA says (1: little endian).
    let vax: u16 = 75;
    let bytes = if elf[5] == 1 {
        vax.to_le_bytes()
    } else {
        vax.to_be_bytes()
    };
    elf[18..20].copy_from_slice(&bytes);
    let foreign = write_file(dir.path(), "vax", &elf, 0o755);
    assert_eq!(
        runner::run(&inv(&foreign)).await.unwrap_err(),
        SpawnError::ExecFormat(foreign)
    );
}

/// A plugin file still open for writing, as while it is being replaced.
fn open_for_writing(dir: &Path) -> (PathBuf, fs::File) {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let path = dir.join("busy");
    let mut f = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o755)
        .open(&path)
        .unwrap();
    f.write_all(b"#!/bin/sh\necho ok\n").unwrap();
    (path, f)
}

#[tokio::test]
async fn text_file_busy_is_retried() {
    let dir = scratch();
    let (p, writer) = open_for_writing(dir.path());
    let closer = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(40)).await;
        drop(writer);
    });
    let o = runner::run(&inv(&p)).await.unwrap();
    assert_eq!(o.stdout, b"ok\n");
    closer.await.unwrap();
}

#[tokio::test]
async fn text_file_busy_for_good() {
    let dir = scratch();
    let (p, _writer) = open_for_writing(dir.path());
    let started = Instant::now();
    match runner::run(&inv(&p)).await.unwrap_err() {
        SpawnError::Other { program, message } => {
            assert_eq!(program, p);
            assert!(message.contains("busy"), "{message}");
        }
        e => panic!("{e:?}"),
    }
    // Tried for the whole backoff (10 + 20 + 40 + 80 ms), then gave up.
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(150) && took < Duration::from_secs(3),
        "{took:?}"
    );
}

#[tokio::test]
async fn directory_is_refused() {
    let dir = scratch();
    let err = runner::run(&inv(dir.path())).await.unwrap_err();
    assert!(err.to_string().contains("directory"), "{err}");
}

#[tokio::test]
async fn bare_name_is_not_searched_in_path() {
    // "sh" exists in PATH; as a plugin it means ./sh, which does not.
    let err = runner::run(&inv(Path::new("sh"))).await.unwrap_err();
    assert_eq!(err, SpawnError::NotFound("sh".into()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pool_runs_concurrently_within_its_limit() {
    const LIMIT: usize = 20;
    let dir = scratch();
    let p = script(dir.path(), "nap", "date +%s%N; sleep 0.2; date +%s%N");
    let pool = Pool::new(LIMIT);
    assert_eq!(pool.limit(), LIMIT);
    let mut calls = tokio::task::JoinSet::new();
    for _ in 0..100 {
        let (pool, i) = (pool.clone(), inv(&p));
        calls.spawn(async move { pool.run(&i).await });
    }
    let mut spans = Vec::new();
    while let Some(o) = calls.join_next().await {
        let o = o.unwrap().unwrap();
        assert!(o.success(), "{o:?}");
        let t: Vec<u128> = o
            .stdout_lossy()
            .lines()
            .map(|l| l.parse().unwrap())
            .collect();
        spans.push((t[0], t[1]));
    }
    // No timed assertion: on a loaded machine 100 calls can take any
    // time. That they overlapped, and never more than the limit, is read
    // from the plugins' own clocks.
    // Most calls overlapping at any instant, from the plugins' own clocks.
    let mut edges: Vec<(u128, i32)> = spans.iter().flat_map(|&(a, b)| [(a, 1), (b, -1)]).collect();
    edges.sort();
    let (mut now, mut most) = (0, 0);
    for (_, d) in edges {
        now += d;
        most = most.max(now);
    }
    assert!(most as usize <= LIMIT, "{most} at once");
    assert!(most > 1, "never concurrent");
}

#[test]
fn run_blocking_without_runtime() {
    let dir = scratch();
    let p = script(dir.path(), "hi", "echo hi");
    let o = runner::run_blocking(&inv(&p)).unwrap();
    assert!(o.success(), "{o:?}");
    assert_eq!(o.stdout, b"hi\n");
}

#[tokio::test]
async fn run_blocking_inside_a_runtime() {
    let dir = scratch();
    let p = script(dir.path(), "hi", "echo hi");
    let o = runner::run_blocking(&inv(&p)).unwrap();
    assert_eq!(o.stdout, b"hi\n");
}

#[tokio::test]
async fn dropped_call_takes_its_group_down() {
    let dir = scratch();
    let pid_file = dir.path().join("pid");
    let p = script(
        dir.path(),
        "long",
        "sleep 30 & echo $! > \"$1\"; echo $$ >> \"$1.leader\"; wait",
    );
    let i = inv(&p).arg(&pid_file);
    let pool = Pool::new(1);
    // Boxed so that dropping it really drops the call.
    let mut call = Box::pin(pool.run(&i));
    let (grandchild, leader) = tokio::select! {
        r = &mut call => panic!("finished: {r:?}"),
        pids = tokio::task::spawn_blocking(move || {
            (read_pid(&pid_file), read_pid(&pid_file.with_extension("leader")))
        }) => pids.unwrap(),
    };
    // The call is registered while it runs, and signals reach its group.
    assert!(pool.live_groups().contains(&leader));
    assert!(pool.signal_groups(Signal::SIGCONT) >= 1);
    drop(call);
    assert!(!pool.live_groups().contains(&leader));
    let until = Instant::now() + Duration::from_secs(3);
    while !(gone(grandchild) && gone(leader)) {
        assert!(Instant::now() < until, "group survived the dropped call");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Not a test by itself: the body of a process that
/// `interrupt_takes_groups_down` starts and interrupts.
#[test]
#[ignore = "run by interrupt_takes_groups_down in a child process"]
fn interrupt_helper() {
    let Some(dir) = std::env::var_os("PLUGCTL_TEST_INTERRUPT_DIR") else {
        eprintln!("SKIPPED: run by interrupt_takes_groups_down in a child process");
        return;
    };
    let dir = PathBuf::from(dir);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let code = rt.block_on(async {
        let mut signals = plugctl::shutdown::install().unwrap();
        let (_stop, stopper) = plugctl_core::stop::Stop::detached();
        let pool = Pool::new(2);
        let stubborn = script(
            &dir,
            "stubborn",
            "trap '' TERM; sleep 30 & echo $! > \"$1\"; wait",
        );
        let meek = script(&dir, "meek", "sleep 30 & echo $! > \"$1\"; wait");
        let a = Invocation::new(&stubborn, Duration::from_secs(60), GRACE)
            .arg(dir.join("stubborn.pid"));
        let b = Invocation::new(&meek, Duration::from_secs(60), GRACE).arg(dir.join("meek.pid"));
        let work = async {
            let _ = tokio::join!(pool.run(&a), pool.run(&b));
            // Only the signal may end this process.
            tokio::time::sleep(Duration::from_secs(30)).await;
        };
        match plugctl::app::supervise(&mut signals, &pool, &stopper, work).await {
            plugctl::app::Supervised::Stopped(code) => code,
            plugctl::app::Supervised::Finished(()) => 99,
        }
    });
    std::process::exit(code);
}

fn interrupt(signal: Signal, want_code: i32) {
    let dir = scratch();
    let mut helper = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "runner::interrupt_helper",
            "--ignored",
            "--nocapture",
        ])
        .env("PLUGCTL_TEST_INTERRUPT_DIR", dir.path())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stubborn = read_pid(&dir.path().join("stubborn.pid"));
    let meek = read_pid(&dir.path().join("meek.pid"));
    kill(Pid::from_raw(helper.id() as i32), signal).unwrap();
    let sent = Instant::now();
    let status = loop {
        if let Some(status) = helper.try_wait().unwrap() {
            break status;
        }
        if sent.elapsed() > Duration::from_secs(10) {
            let _ = helper.kill();
            panic!("helper did not exit");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let took = sent.elapsed();
    assert_eq!(status.code(), Some(want_code));
    // The stubborn plugin gets its grace (1 s), then SIGKILL.
    assert!(took >= GRACE && took < GRACE + SLACK, "took {took:?}");
    let until = Instant::now() + Duration::from_secs(3);
    while !(gone(stubborn) && gone(meek)) {
        assert!(Instant::now() < until, "a plugin outlived the interrupt");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn interrupt_takes_groups_down() {
    interrupt(Signal::SIGINT, 130);
}

#[test]
fn termination_takes_groups_down() {
    interrupt(Signal::SIGTERM, 143);
}

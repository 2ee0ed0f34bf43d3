//! Signals through the real binary: every signal a terminal or a supervisor
//! sends stops plugctl the same careful way (plugin groups taken down,
//! scratch removed, registry consistent, exit 128+n); Ctrl-Z stops the
//! plugins with plugctl without eating their deadline; a plugin's setsid
//! descendants do not outlive it.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::*;
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

/// Waits (at most 10 s) until `path` holds at least `n` lines; the lines.
fn wait_lines(path: &Path, n: usize) -> Vec<String> {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let text = fs::read_to_string(path).unwrap_or_default();
        let lines: Vec<String> = text.lines().map(String::from).collect();
        if lines.len() >= n {
            return lines;
        }
        assert!(
            Instant::now() < until,
            "{} never got {n} lines",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// plugctl in the background, to signal; killed, and failed, if it has
/// not ended 30 s after it started.
fn spawn(s: &Rig, args: &[&str]) -> expect::Started {
    plugctl(s)
        .args_from(args)
        .deadline(Duration::from_secs(30))
        .start()
}

/// A host-volume plugin that records its pid and a child's, then waits.
/// The child ignores SIGTERM: only the group's SIGKILL ends it.
fn sleeper(s: &Rig) {
    s.plugin(
        "host-volume",
        "slow",
        &format!(
            r#"pids='{out}/pids'
case $1 in
fingerprint|create|delete)
  sh -c 'trap "" TERM; sleep 60' & echo $! >> "$pids"
  echo $$ >> "$pids"
  wait ;;
esac"#,
            out = s.out.display()
        ),
    );
}

const STOPPING: &[(Signal, i32)] = &[
    (Signal::SIGINT, 130),
    (Signal::SIGTERM, 143),
    (Signal::SIGHUP, 129),
    (Signal::SIGQUIT, 131),
    (Signal::SIGUSR1, 138),
    (Signal::SIGUSR2, 140),
    (Signal::SIGALRM, 142),
];

#[test]
fn every_stopping_signal_takes_the_plugins_down_and_exits_128_plus_n() {
    for &(sig, want) in STOPPING {
        let s = Rig::new();
        sleeper(&s);
        let child = spawn(&s, &["fingerprint", "slow", "--grace", "300ms"]);
        let pid = child.id() as i32;
        let pids: Vec<i32> = wait_lines(&s.out_file("pids"), 2)
            .iter()
            .map(|l| l.parse().unwrap())
            .collect();
        kill(Pid::from_raw(pid), sig).unwrap();
        child.exits_code(want);
        for p in pids {
            assert!(!survives(p), "{sig:?}: pid {p} of the plugin survived");
        }
        // Nothing recorded for a call plugctl itself cut short.
        if s.registry.exists() {
            let reg = s.registry_json();
            assert!(
                reg["plugins"]["host-volume"]["slow"].is_null(),
                "{sig:?}: {reg}"
            );
        }
    }
}

#[test]
fn a_signal_during_create_leaves_a_record_repair_settles() {
    for &(sig, want) in &[(Signal::SIGHUP, 129), (Signal::SIGTERM, 143)] {
        let s = Rig::new();
        sleeper(&s);
        let child = spawn(
            &s,
            &[
                "volume", "create", "--plugin", "slow", "--name", "v", "--grace", "300ms",
            ],
        );
        let pid = child.id() as i32;
        wait_lines(&s.out_file("pids"), 2);
        kill(Pid::from_raw(pid), sig).unwrap();
        child.exits_code(want);
        // The pending record is there, consistent, and repair settles it
        // (the plugin now answers at once).
        let reg = s.registry_json();
        let vols = reg["volumes"].as_object().unwrap();
        assert_eq!(vols.len(), 1);
        assert_eq!(vols.values().next().unwrap()["state"], "pending");
        s.plugin(
            "host-volume",
            "slow",
            r#"case $1 in create) printf '{"path": "%s/x", "bytes": 0}\n' "$DHV_VOLUMES_DIR";; esac"#,
        );
        plugctl(&s).args(["volume", "repair"]).succeeds();
        let reg = s.registry_json();
        assert_eq!(
            reg["volumes"].as_object().unwrap().values().next().unwrap()["state"],
            "ready"
        );
    }
}

#[test]
fn a_hangup_during_test_removes_its_scratch_directory() {
    let s = Rig::new();
    s.plugin(
        "host-volume",
        "slowtest",
        &format!(
            r#"case $1 in
fingerprint) echo '{{"version": "1.0.0"}}' ;;
create) echo "$DHV_VOLUMES_DIR" >> '{out}/scratch'; sleep 60 ;;
*) exit 0 ;;
esac"#,
            out = s.out.display()
        ),
    );
    let child = spawn(&s, &["test", "host-volume", "slowtest", "--grace", "300ms"]);
    let pid = child.id() as i32;
    let scratch = wait_lines(&s.out_file("scratch"), 1)[0].clone();
    assert!(Path::new(&scratch).exists());
    kill(Pid::from_raw(pid), Signal::SIGHUP).unwrap();
    child.exits_code(129);
    assert!(
        !Path::new(&scratch).exists(),
        "scratch {scratch} left behind"
    );
}

/// /proc/<pid>/stat's state letter.
fn state(pid: i32) -> char {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    stat.rsplit_once(')')
        .and_then(|(_, rest)| rest.trim_start().chars().next())
        .unwrap_or('?')
}

#[test]
fn ctrl_z_stops_the_plugins_too_and_the_stopped_time_is_not_their_deadline() {
    let s = Rig::new();
    s.plugin(
        "host-volume",
        "naps",
        &format!(
            r#"echo $$ >> '{out}/pids'
sleep 1.5
echo '{{"version": "1.0.0"}}'"#,
            out = s.out.display()
        ),
    );
    // A 2.5 s deadline; the plugin needs 1.5 s of it; plugctl is stopped
    // for 3 s in the middle.
    // As a shell's job: in a group of its own that is not orphaned.
    let child = plugctl(&s)
        .args(["--json", "fingerprint", "naps", "--timeout", "2500ms"])
        .own_process_group()
        .deadline(Duration::from_secs(30))
        .start();
    let pid = child.id() as i32;
    let plugin: i32 = wait_lines(&s.out_file("pids"), 1)[0].parse().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    kill(Pid::from_raw(pid), Signal::SIGTSTP).unwrap();
    let until = Instant::now() + Duration::from_secs(5);
    while !(state(pid) == 'T' && state(plugin) == 'T') {
        assert!(
            Instant::now() < until,
            "not stopped: plugctl {} plugin {}",
            state(pid),
            state(plugin)
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(
        state(plugin),
        'T',
        "the plugin ran on while plugctl was stopped"
    );
    kill(Pid::from_raw(pid), Signal::SIGCONT).unwrap();
    child.succeeds().stdout_has("\"healthy\": true");
}

#[test]
fn a_setsid_child_holding_stdout_is_killed_and_named_not_a_timeout() {
    let s = Rig::new();
    s.plugin(
        "host-volume",
        "daemonizes",
        &format!(
            r#"setsid sleep 60 & echo $! >> '{out}/pids'
echo '{{"version": "1.0.0"}}'"#,
            out = s.out.display()
        ),
    );
    let out = plugctl(&s)
        .args(["--json", "fingerprint", "daemonizes", "--timeout", "10s"])
        .fails_with(Exit::Failure);
    let doc = out.json();
    let took = out.took();
    let err = row(&doc, "host-volume", "daemonizes")["error"]
        .as_str()
        .unwrap()
        .to_string();
    let pid: i32 = s.read_out("pids").trim().parse().unwrap();
    assert!(
        err.contains(&format!(
            "left 1 background process (pid {pid}, `sleep`); killed"
        )),
        "{err}"
    );
    assert!(!err.contains("timed out"), "{err}");
    assert!(
        took < Duration::from_secs(8),
        "waited for the deadline: {took:?}"
    );
    assert!(!survives(pid), "the setsid child survived");
}

#[test]
fn a_daemon_that_holds_nothing_is_killed_when_the_command_ends() {
    let s = Rig::new();
    for n in ["a", "b", "c"] {
        s.plugin(
            "host-volume",
            n,
            &format!(
                r#"setsid sleep 60 </dev/null >/dev/null 2>&1 & echo $! >> '{out}/pids'
sleep 0.3
echo '{{"version": "1.0.0"}}'"#,
                out = s.out.display()
            ),
        );
    }
    let out = plugctl(&s)
        .args(["fingerprint", "--type", "host-volume"])
        .fails();
    let pids: Vec<i32> = s
        .read_out("pids")
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(pids.len(), 3);
    for p in &pids {
        assert!(!survives(*p), "pid {p} outlived plugctl: {}", stderr(&out));
    }
    // Named: on the call that could claim it (the table), or by the sweep
    // at the end of the command (stderr).
    let said = format!("{}{}", stdout(&out), stderr(&out));
    assert!(said.contains("background process"), "{}", said);
}

#[test]
fn secret_commands_cannot_dump_core() {
    let s = Rig::new();
    s.plugin(
        "secrets",
        "napper",
        &format!(
            r#"case $1 in
fetch) echo $PPID >> '{out}/parent'; sleep 60 ;;
*) echo '{{"type": "secrets", "version": "1.0.0"}}' ;;
esac"#,
            out = s.out.display()
        ),
    );
    let child = spawn(
        &s,
        &["secret", "fetch", "napper", "app/db", "--grace", "200ms"],
    );
    let pid = child.id() as i32;
    let parent: i32 = wait_lines(&s.out_file("parent"), 1)[0].parse().unwrap();
    assert_eq!(parent, pid);
    let limits = fs::read_to_string(format!("/proc/{pid}/limits")).unwrap();
    let core = limits
        .lines()
        .find(|l| l.starts_with("Max core file size"))
        .unwrap();
    assert!(core.split_whitespace().nth(4) == Some("0"), "{core}");
    // SIGABRT would dump core when allowed: none is written.
    let cwd_before: Vec<_> = fs::read_dir(s.root())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    kill(Pid::from_raw(pid), Signal::SIGABRT).unwrap();
    child.fails();
    let cwd_after: Vec<_> = fs::read_dir(s.root())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        cwd_before.len(),
        cwd_after.len(),
        "a core file appeared: {cwd_after:?}"
    );
}

#[test]
fn ctrl_c_during_a_registry_lock_wait_stops_at_once() {
    let s = Rig::new();
    s.hv_ok("quick", "1.0.0");
    plugctl(&s).args(["fingerprint"]).succeeds();
    let lock = s.registry.with_file_name("registry.json.lock");
    let holder = tool("flock").arg(&lock).args(["sleep", "30"]).start();
    let until = Instant::now() + Duration::from_secs(5);
    while !fs::read_to_string("/proc/locks")
        .unwrap()
        .contains(&format!(" {} ", holder.id()))
    {
        assert!(Instant::now() < until, "flock never took the lock");
        std::thread::sleep(Duration::from_millis(10));
    }
    // The plugin runs, then plugctl waits (up to 30 s) for the lock.
    let child = spawn(&s, &["--lock-timeout", "30s", "fingerprint", "quick"]);
    let pid = child.id() as i32;
    std::thread::sleep(Duration::from_millis(700));
    let sent = Instant::now();
    kill(Pid::from_raw(pid), Signal::SIGINT).unwrap();
    child.exits_code(130);
    let took = sent.elapsed();
    drop(holder);
    assert!(
        took < Duration::from_secs(5),
        "Ctrl-C waited for the lock: {took:?}"
    );
}

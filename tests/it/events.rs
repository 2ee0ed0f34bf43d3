//! `plugctl events` through the real binary: order and completeness under
//! concurrent writers, `--since`, `--type`, `--follow`, and the warning for a
//! reader that fell behind the bounded log.

use std::collections::BTreeSet;
use std::fs;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::Value;

/// Registers `alloc`, its socket under /run.
fn register_alloc(s: &Rig, ty: &str, name: &str, alloc: &str) {
    register(s, ty, name, alloc, &format!("/run/{alloc}.sock"));
}

#[test]
fn concurrent_writers_lose_nothing_and_seq_strictly_increases() {
    const PROCS: usize = 10;
    const EACH: usize = 20;
    let s = Rig::new();
    // Ten processes at once, each registering twenty allocations one after
    // the other, all on the same plugin.
    let script = r#"i=0
while [ $i -lt "$EACH" ]; do
  "$PLUGCTL" plugin register --type csi-node --name shared --alloc-id "p$P-$i" --socket "/run/p$P-$i.sock" >/dev/null || exit 1
  i=$((i + 1))
done"#;
    let writers: Vec<_> = (0..PROCS)
        .map(|p| {
            expect::Run::new(s.command("/bin/sh"), "sh")
                .args(["-c", script])
                .env("PLUGCTL", PLUGCTL)
                .env("PLUGCTL_LOCK_TIMEOUT", "60s")
                .env("EACH", EACH.to_string())
                .env("P", p.to_string())
                .start()
        })
        .collect();
    for w in writers {
        w.succeeds();
    }

    let out = plugctl(&s).args(["--json", "events"]).succeeds();
    let events = out.json_lines();
    assert_eq!(events.len(), PROCS * EACH);
    // 1..=200, each once, in order.
    assert_eq!(
        seqs(&events),
        (1..=(PROCS * EACH) as u64).collect::<Vec<_>>()
    );
    let allocs: BTreeSet<&str> = events
        .iter()
        .map(|e| {
            assert_eq!(e["kind"], "register");
            assert_eq!(e["schema_version"], 1);
            e["alloc_id"].as_str().unwrap()
        })
        .collect();
    assert_eq!(allocs.len(), PROCS * EACH);
    // Each process's own registrations in its own order.
    for p in 0..PROCS {
        let mine: Vec<String> = events
            .iter()
            .filter_map(|e| e["alloc_id"].as_str())
            .filter(|a| a.starts_with(&format!("p{p}-")))
            .map(String::from)
            .collect();
        let want: Vec<String> = (0..EACH).map(|i| format!("p{p}-{i}")).collect();
        assert_eq!(mine, want);
    }

    // 200 instances, most recent first: exactly the reverse event order.
    let show = plugctl(&s)
        .args(["--json", "plugin", "show", "csi-node", "shared"])
        .any_exit()
        .json();
    let instances: Vec<&str> = show["instances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["alloc_id"].as_str().unwrap())
        .collect();
    let mut by_event: Vec<&str> = events
        .iter()
        .map(|e| e["alloc_id"].as_str().unwrap())
        .collect();
    by_event.reverse();
    assert_eq!(instances, by_event);
    assert_eq!(s.registry_json()["seq"], (PROCS * EACH) as u64);
}

#[test]
fn since_gives_exactly_the_later_events_and_type_filters() {
    let s = Rig::new();
    register_alloc(&s, "csi-node", "a", "n1");
    register_alloc(&s, "csi-controller", "a", "c1");
    register_alloc(&s, "csi-node", "a", "n2");
    plugctl(&s)
        .args([
            "plugin",
            "deregister",
            "--type",
            "csi-node",
            "--name",
            "a",
            "--alloc-id",
            "n1",
        ])
        .succeeds();

    let all = plugctl(&s)
        .args(["--json", "events"])
        .any_exit()
        .json_lines();
    assert_eq!(seqs(&all), [1, 2, 3, 4]);
    assert_eq!(all[3]["kind"], "deregister");
    for e in &all {
        for key in ["seq", "kind", "type", "name", "time", "schema_version"] {
            assert!(e.get(key).is_some(), "{key} missing in {e}");
        }
    }

    let later = plugctl(&s)
        .args(["--json", "events", "--since", "2"])
        .any_exit()
        .json_lines();
    assert_eq!(seqs(&later), [3, 4]);
    assert_eq!(later[0]["alloc_id"], "n2");

    plugctl(&s)
        .args(["--json", "events", "--since", "4"])
        .succeeds()
        .stdout_empty();

    let ctl = plugctl(&s)
        .args(["--json", "events", "--type", "csi-controller"])
        .any_exit()
        .json_lines();
    assert_eq!(seqs(&ctl), [2]);

    // The table.
    let out = plugctl(&s).args(["events", "--since", "3"]).succeeds();
    let text = stdout(&out);
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert!(rows[0].starts_with("SEQ"), "{text}");
    assert!(rows[1].starts_with('4'), "{text}");
    assert!(
        rows[1].contains("deregister") && rows[1].contains("alloc_id=n1"),
        "{text}"
    );
}

#[test]
fn a_reader_behind_the_bounded_log_is_told_what_it_missed() {
    let s = Rig::new();
    // A log that kept only events 50..=60, as after many more than its
    // capacity were written.
    let events: Vec<Value> = (50..=60)
        .map(|n| {
            serde_json::json!({
                "seq": n, "kind": "register", "type": "csi-node", "name": "p",
                "time": "2026-01-01T00:00:00.000Z", "alloc_id": format!("a{n}"),
            })
        })
        .collect();
    let file = serde_json::json!({
        "schema_version": 1, "seq": 60, "plugins": {}, "volumes": {}, "events": events,
    });
    make_dir(s.registry.parent().unwrap());
    s.write_registry(file.to_string());

    let out = plugctl(&s)
        .args(["--json", "events", "--since", "10"])
        .succeeds()
        // the warning names the missing range
        .stderr_has("events 11 to 49");
    // and the rest still comes, in order
    assert_eq!(seqs(&out.json_lines()), (50..=60).collect::<Vec<_>>());

    // A reader that is not behind gets no warning.
    plugctl(&s)
        .args(["events", "--since", "55"])
        .any_exit()
        .stderr_lacks("warning");
    // Nor one that asked for everything there is.
    plugctl(&s)
        .args(["events"])
        .any_exit()
        .stderr_lacks("warning");
}

/// `events --follow` in the background, its lines read by a thread.
struct Follower {
    child: Child,
    lines: mpsc::Receiver<String>,
}

impl Follower {
    /// `--json events --follow` with these arguments.
    fn start(s: &Rig, extra: &[&str]) -> Follower {
        Follower::spawn(s, &[&["--json", "events", "--follow"], extra].concat())
    }

    /// `events --follow` with these arguments: the table.
    fn human(s: &Rig, extra: &[&str]) -> Follower {
        Follower::spawn(s, &[&["events", "--follow"], extra].concat())
    }

    fn spawn(s: &Rig, args: &[&str]) -> Follower {
        let mut child = s
            .command(PLUGCTL)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Follower { child, lines: rx }
    }

    /// JSON lines until `n` arrived or `limit` passed.
    fn take(&self, n: usize, limit: Duration) -> Vec<Value> {
        self.take_lines(n, limit)
            .iter()
            .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
            .collect()
    }

    /// Lines until `n` arrived or `limit` passed.
    fn take_lines(&self, n: usize, limit: Duration) -> Vec<String> {
        let end = Instant::now() + limit;
        let mut got = Vec::new();
        while got.len() < n {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => got.push(l),
                Err(_) => break,
            }
        }
        got
    }

    /// Whatever else arrives within `d`.
    fn more(&self, d: Duration) -> Vec<String> {
        let end = Instant::now() + d;
        let mut extra = Vec::new();
        while let Ok(l) = self
            .lines
            .recv_timeout(end.saturating_duration_since(Instant::now()))
        {
            extra.push(l);
        }
        extra
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn follow_delivers_each_new_event_exactly_once() {
    const N: usize = 12;
    let s = Rig::new();
    // Three events before the follower starts; it asks for those after 2.
    for a in ["x0", "x1", "x2"] {
        register_alloc(&s, "csi-node", "p", a);
    }
    let f = Follower::start(&s, &["--since", "2"]);
    let backlog = f.take(1, Duration::from_secs(10));
    assert_eq!(seqs(&backlog), [3]);

    // N more while it follows, some in quick succession, from other processes.
    for i in 0..N {
        if i % 4 == 3 {
            plugctl(&s)
                .args([
                    "plugin",
                    "deregister",
                    "--type",
                    "csi-node",
                    "--name",
                    "p",
                    "--alloc-id",
                    &format!("a{}", i - 1),
                ])
                .succeeds();
        } else {
            register_alloc(&s, "csi-node", "p", &format!("a{i}"));
        }
        if i % 3 == 0 {
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    let got = f.take(N, Duration::from_secs(15));
    assert_eq!(seqs(&got), (4..4 + N as u64).collect::<Vec<_>>());
    for e in &got {
        assert_eq!(e["schema_version"], 1);
        assert_eq!(e["type"], "csi-node");
    }
    assert_eq!(got[3]["kind"], "deregister");
    // Nothing twice: no line after these within a few polls.
    let extra = f.more(Duration::from_millis(700));
    assert!(extra.is_empty(), "duplicates or strays: {extra:?}");
}

#[test]
fn follow_with_type_filter_and_human_output() {
    let s = Rig::new();
    let f = Follower::human(&s, &["--type", "csi-controller"]);
    register_alloc(&s, "csi-node", "n", "a1");
    register_alloc(&s, "csi-controller", "c", "a2");
    let lines = f.take_lines(2, Duration::from_secs(10));
    drop(f);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("SEQ"), "{lines:?}");
    assert!(
        lines[1].starts_with('2') && lines[1].contains("csi-controller"),
        "{lines:?}"
    );
}

/// The registry's directory removed (or moved aside) and made again, as a
/// node's state is wiped or restored: the follower keeps following the
/// registry the path names, not the directory that went away.
#[test]
fn follow_survives_its_directory_being_replaced() {
    let s = Rig::new();
    register_alloc(&s, "csi-node", "p", "a1");
    let dir = s.registry.parent().unwrap().to_path_buf();
    for how in ["moved", "removed"] {
        let f = Follower::start(&s, &[]);
        assert!(!f.take(1, Duration::from_secs(10)).is_empty(), "{how}");
        std::thread::sleep(Duration::from_millis(300));
        if how == "moved" {
            fs::rename(&dir, s.root().join("state.old")).unwrap();
        } else {
            fs::remove_dir_all(&dir).unwrap();
        }
        std::thread::sleep(Duration::from_millis(300));
        fs::create_dir(&dir).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).unwrap();
        let fresh = format!("fresh-{how}");
        register_alloc(&s, "csi-node", "p", &fresh);
        let got = f.take(1, Duration::from_secs(10));
        assert_eq!(
            got.first().map(|e| e["alloc_id"].clone()),
            Some(Value::from(fresh)),
            "{how}: {got:?}"
        );
    }
}

/// CPU time (user + system, clock ticks) a process has used so far.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// An idle follower sleeps: its own reads of the registry (after a write
/// woke it) do not wake it again. A follower that woke itself would use a
/// whole core; the bound is a fraction of that, whatever the load.
#[test]
fn an_idle_follower_does_not_spin() {
    let s = Rig::new();
    register_alloc(&s, "csi-node", "p", "a1");
    let f = Follower::start(&s, &[]);
    assert_eq!(f.take(1, Duration::from_secs(10)).len(), 1);
    // A write wakes it once; then nothing happens for three seconds.
    register_alloc(&s, "csi-node", "p", "a2");
    assert_eq!(f.take(1, Duration::from_secs(10)).len(), 1);
    let pid = f.child.id();
    let before = cpu_ticks(pid);
    std::thread::sleep(Duration::from_secs(3));
    let used = cpu_ticks(pid) - before;
    // 300 ticks would be a spinning core; a sleeping follower uses ~0.
    assert!(
        used < 60,
        "the follower used {used} ticks in 3 s while idle"
    );
}

/// The human event log quotes a value that could read as more fields: a
/// volume named `x state=deleted was=ready` is one quoted `volume_name`,
/// never a forged `state=deleted`.
#[test]
fn a_value_that_looks_like_fields_is_quoted_in_the_human_log() {
    let s = Rig::new();
    plugctl(&s)
        .args([
            "volume",
            "create",
            "--plugin",
            "mkdir",
            "--name",
            "x state=deleted was=ready",
        ])
        .succeeds();
    let out = plugctl(&s)
        .args(["events"])
        .succeeds()
        .stdout_has("volume_name=\"x state=deleted was=ready\"");
    assert!(!out.stdout().contains("volume_name=x "), "{}", out.stdout());
}

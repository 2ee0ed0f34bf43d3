//! `events --follow --since N` with N past the newest event: only the
//! events after N are printed, as they come, with no false warning that
//! the registry was replaced.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::Value;

fn register_alloc(s: &Rig, alloc: &str) {
    register(s, "csi-node", "p", alloc, &format!("/run/{alloc}.sock"));
}

#[test]
fn follow_since_past_the_newest_event_prints_only_what_comes_after_it() {
    let s = Rig::new();
    for a in ["a1", "a2", "a3"] {
        register_alloc(&s, a);
    }
    let stderr_file = s.out_file("follower.stderr");
    let mut child = s
        .command(PLUGCTL)
        .args(["--json", "events", "--follow", "--since", "6"])
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&stderr_file).unwrap())
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
    // The follower says once that it waits for events after 6; a write
    // before it started watching would be missed by this test, not by
    // plugctl, so wait for that word first.
    let until = Instant::now() + Duration::from_secs(10);
    while !std::fs::read_to_string(&stderr_file)
        .unwrap_or_default()
        .contains("after the newest event")
    {
        assert!(Instant::now() < until, "the follower never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    // Events 4 to 8: the first writes land below 6.
    for a in ["b4", "b5", "b6", "b7", "b8"] {
        register_alloc(&s, a);
    }
    let mut got: Vec<Value> = Vec::new();
    let until = Instant::now() + Duration::from_secs(15);
    while got.last().is_none_or(|e| e["seq"] != 8) {
        let left = until.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => got.push(serde_json::from_str(&line).unwrap()),
            Err(_) => break,
        }
    }
    // Nothing more within a few wake-ups.
    while let Ok(line) = rx.recv_timeout(Duration::from_millis(500)) {
        got.push(serde_json::from_str(&line).unwrap());
    }
    let _ = child.kill();
    let _ = child.wait();
    let err = std::fs::read_to_string(&stderr_file).unwrap();
    assert_eq!(seqs(&got), [7, 8], "stderr: {err}");
    assert_eq!(got[0]["alloc_id"], "b7");
    assert!(!err.contains("went back"), "{err}");
    assert!(!err.contains("replaced"), "{err}");
}

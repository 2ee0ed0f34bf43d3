//! The expectation builder itself (common/expect.rs): each check must fail
//! when its expectation is wrong, or every test written with it could pass
//! by checking nothing.

use crate::common::*;

#[test]
fn exit_names_mirror_the_library() {
    assert_eq!(Exit::Success.code(), plugctl::exit::SUCCESS);
    assert_eq!(Exit::Failure.code(), plugctl::exit::FAILURE);
    assert_eq!(Exit::Usage.code(), plugctl::exit::USAGE);
    assert_eq!(Exit::NotFound.code(), plugctl::exit::NOT_FOUND);
    assert_eq!(Exit::Timeout.code(), plugctl::exit::TIMEOUT);
    for e in Exit::ALL {
        assert_eq!(Exit::of(e.code()), Some(e));
    }
    assert_eq!(Exit::of(101), None);
}

#[test]
fn a_passing_chain_hands_back_the_output() {
    let s = Rig::new();
    let ran = plugctl(&s)
        .args(["volume", "show", "no-such-volume"])
        .fails_with(Exit::NotFound)
        .stderr_has("no-such-volume")
        .stdout_lacks("no-such-volume");
    // Deref to Output: the free helpers work on it
    assert_eq!(ran.status.code(), Some(3));
    assert!(stderr(&ran).contains("no-such-volume"));
    assert_eq!(ran.code(), Some(3));
    let doc = plugctl(&s)
        .args(["--json", "volume", "list"])
        .succeeds()
        .stderr_empty()
        .json();
    assert_eq!(doc["volumes"], serde_json::json!([]));
}

#[test]
#[should_panic(expected = "expected exit 2 (usage)")]
fn a_wrong_exit_code_fails() {
    let s = Rig::new();
    plugctl(&s)
        .args(["volume", "show", "no-such-volume"])
        .fails_with(Exit::Usage);
}

#[test]
#[should_panic(expected = "command: plugctl volume show 'two words'")]
fn the_failure_names_the_command_line() {
    let s = Rig::new();
    plugctl(&s).args(["volume", "show", "two words"]).succeeds();
}

#[test]
#[should_panic(expected = "expected stderr to contain \"not in there\"")]
fn a_missing_needle_fails() {
    let s = Rig::new();
    plugctl(&s)
        .args(["volume", "show", "nope"])
        .fails_with(Exit::NotFound)
        .stderr_has("not in there");
}

#[test]
#[should_panic(expected = "stdout is not one JSON document")]
fn json_needs_a_document() {
    let s = Rig::new();
    plugctl(&s).args(["volume", "list"]).succeeds().json();
}

#[test]
#[should_panic(expected = "say succeeds()")]
fn success_is_not_a_failure() {
    let s = Rig::new();
    plugctl(&s)
        .args(["volume", "list"])
        .fails_with(Exit::Success);
}

#[test]
#[should_panic(expected = "expected a failure")]
fn fails_needs_a_failure() {
    let s = Rig::new();
    plugctl(&s).args(["volume", "list"]).fails();
}

#[test]
#[should_panic(expected = "expected exit 7")]
fn a_wrong_numeric_exit_fails() {
    let s = Rig::new();
    tool("sh")
        .args(["-c", "exit 3"])
        .current_dir(s.root())
        .exits_code(7);
}

#[test]
#[should_panic(expected = "still running after")]
fn a_run_past_its_deadline_fails() {
    tool("sleep")
        .arg("30")
        .deadline(std::time::Duration::from_millis(200))
        .any_exit();
}

#[test]
#[should_panic(expected = "expected an error document")]
fn error_needs_an_error_document() {
    let s = Rig::new();
    plugctl(&s)
        .args(["--json", "volume", "list"])
        .succeeds()
        .error();
}

#[test]
fn a_started_run_is_checked_when_it_ends_and_killed_when_dropped() {
    tool("sh")
        .args(["-c", "read x; echo \"got $x\"; exit 3"])
        .stdin("it\n")
        .start()
        .exits_code(3)
        .stdout_has("got it");
    let mut sleeper = tool("sleep").arg("30").start();
    assert!(sleeper.running());
    let pid = sleeper.id() as i32;
    drop(sleeper);
    assert!(!alive(pid), "a dropped run outlived its handle");
}

#[test]
fn plugctl_with_umask_runs_under_that_umask() {
    // On 1.10.0 the built-in mkdir leaves the umask to trim `mode`.
    let s = Rig::new();
    let doc = plugctl_with_umask(&s, "077")
        .args(["--json", "--nomad-version", "1.10.0", "volume", "create"])
        .args(["--plugin", "mkdir", "--name", "u", "--param", "mode=0777"])
        .succeeds()
        .json();
    assert_eq!(mode(doc["volume"]["path"].as_str().unwrap()), 0o700);
}

#[test]
fn json_lines_reads_one_object_a_line() {
    let s = Rig::new();
    register(&s, "csi-node", "a", "a1", "/run/a1.sock");
    register(&s, "csi-node", "b", "a2", "/run/a2.sock");
    let events = plugctl(&s)
        .args(["--json", "events"])
        .succeeds()
        .json_lines();
    let names: Vec<&str> = events.iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["a", "b"]);
}

#[test]
#[should_panic(expected = "expected an error of kind \"usage\"")]
fn a_wrong_error_kind_fails() {
    let s = Rig::new();
    plugctl(&s)
        .args(["--json", "volume", "show", "nope"])
        .fails_with(Exit::NotFound)
        .error_has("nope")
        .error_kind("usage");
}

#[test]
#[should_panic(expected = "expected the error message to contain \"not in there\"")]
fn a_missing_error_message_needle_fails() {
    let s = Rig::new();
    plugctl(&s)
        .args(["--json", "volume", "show", "nope"])
        .fails_with(Exit::NotFound)
        .error_kind("not_found")
        .error_has("not in there");
}

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
    let s = Sandbox::new();
    let ran = plugctl(&s)
        .args(["volume", "show", "no-such-volume"])
        .fails_with(Exit::NotFound)
        .stderr_has("no-such-volume")
        .stdout_lacks("no-such-volume");
    // Deref to Output: the free helpers work on it
    assert_eq!(code(&ran), 3);
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
    let s = Sandbox::new();
    plugctl(&s)
        .args(["volume", "show", "no-such-volume"])
        .fails_with(Exit::Usage);
}

#[test]
#[should_panic(expected = "command: plugctl volume show 'two words'")]
fn the_failure_names_the_command_line() {
    let s = Sandbox::new();
    plugctl(&s).args(["volume", "show", "two words"]).succeeds();
}

#[test]
#[should_panic(expected = "expected stderr to contain \"not in there\"")]
fn a_missing_needle_fails() {
    let s = Sandbox::new();
    plugctl(&s)
        .args(["volume", "show", "nope"])
        .fails_with(Exit::NotFound)
        .stderr_has("not in there");
}

#[test]
#[should_panic(expected = "stdout is not one JSON document")]
fn json_needs_a_document() {
    let s = Sandbox::new();
    plugctl(&s).args(["volume", "list"]).succeeds().json();
}

#[test]
#[should_panic(expected = "say succeeds()")]
fn success_is_not_a_failure() {
    let s = Sandbox::new();
    plugctl(&s)
        .args(["volume", "list"])
        .fails_with(Exit::Success);
}

//! A ninth fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after the first eight rounds
//! (review34.rs to review34h.rs): each test here is an attack that found a
//! way through.

use crate::common::*;

/// A plugin that says on stderr whether it leads its process group, and
/// what it got when its deadline came: SIGTERM runs its trap; without one,
/// only the SIGKILL after `--grace` ends it.
fn term_trapping(s: &Rig, name: &str) {
    s.plugin(
        "host-volume",
        name,
        r#"PATH=/usr/bin:/bin
trap 'echo "GOT-TERM" >&2; exit 3' TERM
if [ "$(cut -d' ' -f5 /proc/$$/stat)" = "$$" ]; then echo "LEADS-ITS-GROUP" >&2; else echo "IN-ANOTHER-GROUP" >&2; fi
sleep 30 &
wait"#,
    );
}

/// strict's calls started from the sandbox's threads
/// (`clone(CLONE_VM | CLONE_VFORK)`) never got a process group of their
/// own, which std gives every other call (`process_group(0)`): the plugin
/// stayed in plugctl's group — the terminal's foreground group, whose
/// Ctrl-C and Ctrl-Z reached it directly — and every signal plugctl sends a
/// call's group (SIGTERM at the deadline and at a shutdown, SIGSTOP and
/// SIGCONT for job control) found no group of that id. Such a plugin got
/// no SIGTERM and no grace: only the kill that ends the call, after the
/// grace had run out. It leads its group, as under every other start.
#[test]
fn a_strict_call_started_from_the_sandboxs_thread_leads_its_group_and_gets_sigterm() {
    let s = Rig::outside_tmp();
    if !strict_runs(&s) {
        return;
    }
    term_trapping(&s, "trap");
    for sandbox in ["none", "strict"] {
        let out = plugctl(&s)
            .args(["-v", "--sandbox", sandbox, "fingerprint", "trap"])
            .args(["--timeout", "1s", "--grace", "20s"])
            .fails_with(Exit::Failure);
        let err = out.stderr();
        assert!(err.contains("LEADS-ITS-GROUP"), "{sandbox}: {err}");
        assert!(
            err.contains("GOT-TERM"),
            "{sandbox}: SIGTERM reaches the plugin at its deadline: {err}"
        );
    }
}

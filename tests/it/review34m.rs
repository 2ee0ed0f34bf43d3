//! An eleventh fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after the first ten rounds
//! (review34.rs to review34k.rs): each test here is an attack that found a
//! way through, around the calls (volumes, the registry and its journal,
//! events, metrics, the agent's configuration, the shipped units).

use std::fs;

use crate::common::*;

/// A registry in a directory others may add entries to (sticky, as
/// `/tmp`; docs/security.md names the case) keeps its journal beside it,
/// as `<registry>.journal.<N>`. `events` (and `--follow`) started at the
/// oldest segment the directory *listed*, and `volume audit` read every
/// segment listed to learn which volumes plugctl made: another user who
/// put their own `registry.json.journal.00000000` there (a number no
/// writer of this registry ever used, below its oldest kept segment)
/// made both exit 2 naming their file, as often as root removed it, and
/// with `--allow-insecure-paths` had forged history read as plugctl's —
/// a `volume_create` naming the Nomad agent's volume, which the prune
/// then removed as plugctl's own leftover. Only the segments the
/// registry's committed end keeps are its history: a name outside them is
/// never opened.
#[test]
fn a_journal_segment_another_user_planted_is_never_read_as_history() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let shared = sticky_dir(&s, "shared");
    let registry = shared.join("registry.json");
    let run = || plugctl(&s).env("PLUGCTL_REGISTRY", &registry);
    // A volume plugctl made and then forgot: its directory is plugctl's
    // leftover, which a prune removes.
    let left = "0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6";
    run()
        .args(["volume", "create", "--plugin", "mkdir", "--name", "left"])
        .args(["--id", left])
        .succeeds();
    run().args(["volume", "forget", left]).succeeds();
    // The Nomad agent's own volume in the directory they share.
    let agents = "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d";
    make_dir(s.volumes.join(agents));
    fs::write(s.volumes.join(agents).join("data"), "the agent's").unwrap();
    // Their segment, below the oldest this registry keeps, with a forged
    // create of the agent's volume; and a FIFO above its committed end.
    let forged = format!(
        "{{\"plugctl_journal\":1,\"segment\":0}}\n\
         {{\"seq\":1,\"kind\":\"volume_create\",\"type\":\"host-volume\",\"name\":\"mkdir\",\
         \"time\":\"2026-01-01T00:00:00Z\",\"volume_id\":\"{agents}\"}}\n"
    );
    fs::write(s.out.join("forged"), forged).unwrap();
    intruder.sh(
        &s,
        &format!(
            "cp '{}' '{}/registry.json.journal.00000000' && mkfifo '{}/registry.json.journal.00000099'",
            s.out.join("forged").display(),
            shared.display(),
            shared.display()
        ),
    );
    // `status` counts the registry's own segments, not theirs.
    let status = run().args(["status", "--json"]).output();
    let status: serde_json::Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(status["registry"]["journal_segments"], 1, "{status:#}");
    let shown = run().args(["events"]).succeeds().stdout();
    assert!(
        shown.contains("volume_forget") && !shown.contains(agents),
        "the registry's own events, and none of theirs: {shown}"
    );
    // The forgotten volume's directory is plugctl's orphan, the agent's
    // is foreign, and their file is not looked at.
    let audit = run()
        .args(["volume", "audit"])
        .fails_with(Exit::Failure)
        .stdout();
    let line_of = |id: &str| {
        audit
            .lines()
            .find(|l| l.contains(id))
            .unwrap_or_default()
            .to_string()
    };
    assert!(line_of(left).starts_with("orphan"), "{audit}");
    assert!(line_of(agents).starts_with("foreign"), "{audit}");
    for extra in [&[][..], &["--allow-insecure-paths"][..]] {
        run()
            .args_from(extra)
            .args(["volume", "audit", "--prune-orphans", "--yes"])
            .succeeds();
        assert_eq!(
            fs::read_to_string(s.volumes.join(agents).join("data")).unwrap(),
            "the agent's",
            "a forged create never makes the agent's volume plugctl's to remove"
        );
    }
    assert!(
        !s.volumes.join(left).exists(),
        "plugctl's own leftover is still found and removed"
    );
}

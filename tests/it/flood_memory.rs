//! A plugin that prints 300 MB leaves plugctl's memory small. Alone in its
//! own test binary: RUSAGE_CHILDREN covers every child this process waited
//! for, so no other test may run here.

use crate::common::*;

#[test]
fn stdout_flood_is_cut_and_memory_stays_small() {
    let s = Sandbox::new();
    // dash's default PATH finds yes and head.
    s.plugin(
        "host-volume",
        "flood",
        "yes xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx | head -c 300000000",
    );
    let doc = plugctl(&s)
        .args(["--json", "fingerprint", "flood"])
        .fails_with(Exit::Failure)
        .json();
    let err = row(&doc, "host-volume", "flood")["error"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        err.contains("capture limit") && err.contains("dropped"),
        "{err}"
    );
    let usage =
        nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN).unwrap();
    // max_rss is in KiB: plugctl (and the plugin) stayed under 64 MiB.
    assert!(
        usage.max_rss() < 64 * 1024,
        "max rss {} KiB",
        usage.max_rss()
    );
}

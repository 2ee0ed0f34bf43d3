//! A plugin that prints 300 MB leaves plugctl's memory small: the peak of
//! that plugctl process alone (wait4), whatever else the tests run.

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
    let (out, peak) = output_and_peak_rss(s.std_cmd().args(["--json", "fingerprint", "flood"]));
    assert_eq!(code(&out), 1);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let err = row(&doc, "host-volume", "flood")["error"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        err.contains("capture limit") && err.contains("dropped"),
        "{err}"
    );
    // plugctl (and the plugin) stayed under 64 MiB.
    assert!(peak > 1024 && peak < 64 * 1024, "max rss {peak} KiB");
}

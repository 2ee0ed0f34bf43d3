//! A call over its cap, counted: the sandbox says which cap a call went
//! over, and what the call cost carries it into the call's JSON and the
//! metric the over-cap alert reads (`plugctl_call_cap_exceeded_total`).

use crate::common::*;

#[test]
fn a_call_over_its_cpu_cap_is_named_in_its_usage_and_counted_by_cap() {
    if !is_root() {
        skip_unless_ci("a CPU cap binds plugctl's plugins as root");
        return;
    }
    let s = Rig::new();
    s.plugin("host-volume", "spin", "while :; do :; done");
    s.hv_ok("calm", "1.0.0");
    let doc = plugctl(&s)
        .args(["--json", "--sandbox", "trim", "--cpu-max", "1s"])
        .args(["fingerprint", "--timeout", "30s"])
        .any_exit()
        .json();
    let spin = row(&doc, "host-volume", "spin");
    assert_eq!(spin["healthy"], false, "{spin}");
    assert_eq!(spin["usage"]["over_cap"], "cpu", "{spin}");
    let calm = row(&doc, "host-volume", "calm");
    assert!(calm["usage"].is_object(), "{calm}");
    assert!(calm["usage"].get("over_cap").is_none(), "{calm}");
    let text = plugctl(&s).arg("metrics").succeeds().stdout();
    let count = |name: &str, cap: &str| -> Option<f64> {
        text.lines()
            .find(|l| {
                l.starts_with("plugctl_call_cap_exceeded_total{")
                    && l.contains(&format!("name=\"{name}\""))
                    && l.contains(&format!("cap=\"{cap}\""))
            })
            .and_then(|l| l.rsplit(' ').next()?.parse().ok())
    };
    assert_eq!(count("spin", "cpu"), Some(1.0), "{text}");
    assert_eq!(count("spin", "memory"), Some(0.0), "{text}");
    assert_eq!(count("calm", "cpu"), Some(0.0), "{text}");
}

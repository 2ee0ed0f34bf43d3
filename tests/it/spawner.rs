//! strict's calls started from the sandbox's threads (`sandbox::Spawner`):
//! with the plugins outside `/tmp`, as on a node, the layers every call
//! shares (seccomp, the bounding set, no-new-privileges, the network and
//! mount namespaces) are applied once to a thread that starts the calls,
//! and each child applies the rest. Whichever way a call was started —
//! from such a thread, or, when all of them are lent to calls that run
//! long, the other way with every layer in its child — the plugin must
//! run under every layer, and each call in flight in a time namespace of
//! its own.

use std::collections::BTreeSet;
use std::fs;

use crate::common::*;

/// What a plugin reports of itself, on stderr, then fails: its
/// capability sets, seccomp mode, no-new-privileges, namespaces, and
/// whether it could write under /etc. It first sleeps `hold`, so that the
/// calls overlap.
fn reporting(s: &Rig, name: &str, hold: &str) {
    s.plugin(
        "host-volume",
        name,
        &format!(
            r#"PATH=/usr/bin:/bin
sleep {hold}
st() {{ awk -v k="$1:" '$1 == k {{print $2}}' /proc/self/status; }}
touch /etc/plugctl-spawner-probe-$$ 2>/dev/null && etc=written && rm -f /etc/plugctl-spawner-probe-$$ || etc=refused
echo "REPORT eff=$(st CapEff) bnd=$(st CapBnd) seccomp=$(st Seccomp) nnp=$(st NoNewPrivs) net=$(readlink /proc/self/ns/net) time=$(readlink /proc/self/ns/time) etc=$etc" >&2
exit 1"#
        ),
    );
}

fn field<'a>(report: &'a str, key: &str) -> &'a str {
    report
        .split_whitespace()
        .find_map(|kv| kv.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
        .map(|v| v.trim_end_matches(['"', '\'', ')']))
        .unwrap_or_else(|| panic!("no {key} in {report:?}"))
}

/// Twelve calls at once, each holding its thread for a second: more than
/// the threads a two-CPU node makes (four), so that some are started the
/// other way. Every one runs with no capability in any set, seccomp's
/// filter, no-new-privileges, no network of the node's and no write to
/// /etc; and the twelve are in twelve time namespaces, none plugctl's.
#[test]
fn strict_calls_in_flight_together_each_run_under_every_layer_in_a_namespace_of_their_own() {
    let s = Rig::outside_tmp();
    if !strict_runs(&s) {
        return;
    }
    let names: Vec<String> = (1..=12).map(|i| format!("r{i:02}")).collect();
    for name in &names {
        reporting(&s, name, "1");
    }
    let out = plugctl(&s)
        .args([
            "--json",
            "--sandbox",
            "strict",
            "fingerprint",
            "--type",
            "host-volume",
            "--timeout",
            "30s",
            "--concurrency",
            "12",
        ])
        .fails_with(Exit::Failure);
    let doc = out.json();
    let host_net = fs::read_link("/proc/self/ns/net").unwrap();
    let host_time = fs::read_link("/proc/self/ns/time").ok();
    let mut times = BTreeSet::new();
    for name in &names {
        let error = row(&doc, "host-volume", name)["error"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let at = error
            .find("REPORT ")
            .unwrap_or_else(|| panic!("{name}: no REPORT in {error:?}"));
        let report = &error[at + "REPORT ".len()..];
        assert_eq!(field(report, "eff"), "0000000000000000", "{name}: {report}");
        assert_eq!(field(report, "bnd"), "0000000000000000", "{name}: {report}");
        assert_eq!(field(report, "seccomp"), "2", "{name}: {report}");
        assert_eq!(field(report, "nnp"), "1", "{name}: {report}");
        assert_eq!(field(report, "etc"), "refused", "{name}: {report}");
        assert_ne!(
            field(report, "net"),
            host_net.to_string_lossy(),
            "{name}: {report}"
        );
        let time = field(report, "time").to_string();
        if let Some(host) = &host_time {
            assert_ne!(time, host.to_string_lossy(), "{name}: {report}");
        }
        times.insert(time);
    }
    if host_time.is_some() {
        assert_eq!(
            times.len(),
            names.len(),
            "one time namespace per call: {times:?}"
        );
    }
}

/// An exec that fails in a child started from the sandbox's thread says
/// why as one started any other way does: the error the child met comes
/// back to plugctl (a `#!` naming an interpreter that is not there).
#[test]
fn a_strict_call_whose_exec_fails_names_why_as_any_call_does() {
    let s = Rig::outside_tmp();
    if !strict_runs(&s) {
        return;
    }
    s.file(
        "host-volume",
        "gone",
        "#!/nonexistent/plugctl-interpreter\necho '{\"version\": \"1.0.0\"}'\n",
        0o755,
    );
    let reason = |args: &[&str]| {
        let out = plugctl(&s)
            .arg("--json")
            .args_from(args.iter().copied())
            .args(["fingerprint", "gone"])
            .fails_with(Exit::Failure);
        row(&out.json(), "host-volume", "gone")["error"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let strict = reason(&["--sandbox", "strict"]);
    let none = reason(&[]);
    assert!(
        strict.contains("/nonexistent/plugctl-interpreter"),
        "{strict}"
    );
    assert_eq!(strict, none);
}

//! What every call cost, through the binary: a plugin that burns CPU,
//! touches memory, forks children it waits for and leaves orphans behind
//! (`setsid()`) is charged at least what it is known to have done — lower
//! bounds only, from the kernel's own accounting, never a wall-clock
//! limit. The figures reach the JSON of every command that reports a
//! call, the event log, `-v`, and the metrics' histograms, which
//! `promtool` checks.

use std::fs;

use serde_json::Value;

use crate::common::*;

/// CPU seconds the burner plugin spends itself, in each child it waits
/// for, and in each orphan it leaves; how many of each; and the MiB it
/// touches.
const OWN_CPU: f64 = 0.3;
const CHILD_CPU: f64 = 0.1;
const CHILDREN: usize = 3;
const ORPHAN_CPU: f64 = 0.2;
const ORPHANS: usize = 2;
const MIB: usize = 80;

/// A host-volume plugin (Python) whose fingerprint does all of the above:
/// CPU measured by its own process clock, so the work is the same however
/// busy the machine is. The orphans start a session of their own, hold
/// none of its pipes, and are done (each writes a file) before the plugin
/// exits: plugctl, their subreaper, reaps them.
fn burner(s: &Rig) {
    let out = s.out.display();
    s.file(
        "host-volume",
        "burner",
        &format!(
            r#"#!/usr/bin/python3
import os, sys, time

def burn(seconds):
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass

if sys.argv[1] != "fingerprint":
    sys.exit(1)
ballast = b"x" * ({MIB} << 20)
burn({OWN_CPU})
children = []
for i in range({CHILDREN}):
    pid = os.fork()
    if pid == 0:
        burn({CHILD_CPU})
        os._exit(0)
    children.append(pid)
for pid in children:
    os.waitpid(pid, 0)
for i in range({ORPHANS}):
    if os.fork() == 0:
        os.setsid()
        null = os.open("/dev/null", os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        burn({ORPHAN_CPU})
        open("{out}/orphan-%d" % i, "w").close()
        os._exit(0)
while not all(os.path.exists("{out}/orphan-%d" % i) for i in range({ORPHANS})):
    time.sleep(0.01)
print('{{"version": "1.0.0"}}')
"#
        ),
        0o755,
    );
}

/// A host-volume plugin whose create makes a directory and whose delete
/// removes it; `fail` makes create exit 1.
fn dir_plugin(s: &Rig, name: &str, fail: bool) {
    let create = if fail {
        "echo 'no space' >&2; exit 1".to_string()
    } else {
        r#"mkdir -p "$v" && printf '{"path": "%s", "bytes": 0}\n' "$v""#.to_string()
    };
    s.hv_script(name, &create, r#"rm -rf "$v""#);
}

fn number(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is not a number in {v}"))
}

/// A usage object has the documented fields, of the documented types.
fn assert_usage_shape(u: &Value) {
    for key in [
        "wall_ms",
        "cpu_ms",
        "user_ms",
        "system_ms",
        "max_rss_kib",
        "processes",
    ] {
        assert!(u[key].is_u64(), "{key} in {u}");
    }
    assert_eq!(u["source"], "rusage", "{u}");
    assert!(number(u, "processes") >= 1.0, "{u}");
}

/// The value of the one sample whose line starts with `series`.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find(|l| l.starts_with(series) && l[series.len()..].starts_with(' '))
        .and_then(|l| l.rsplit(' ').next()?.parse().ok())
}

fn promtool_check(text: &str) {
    tool("promtool")
        .args(["check", "metrics"])
        .stdin(text)
        .succeeds();
}

#[test]
fn a_plugin_that_burns_touches_and_forks_is_charged_at_least_what_it_did() {
    let s = Rig::new();
    burner(&s);
    // A generous deadline: the work is fixed, the machine's speed is not.
    let out = plugctl(&s)
        .args([
            "--json",
            "fingerprint",
            "--timeout",
            "120s",
            "--type",
            "host-volume",
            "burner",
        ])
        .succeeds()
        .json();
    let u = &row(&out, "host-volume", "burner")["usage"];
    assert_usage_shape(u);
    let cpu = number(u, "cpu_ms") / 1000.0;
    let least = OWN_CPU + CHILD_CPU * CHILDREN as f64 + ORPHAN_CPU * ORPHANS as f64;
    // The plugin's own, its children's (which it waited for: the kernel
    // adds them to it) and its orphans' (reaped by plugctl).
    assert!(cpu >= least, "cpu {cpu} s < {least} s: {u}");
    assert!(
        (number(u, "user_ms") + number(u, "system_ms")) / 1000.0 >= least - 0.002,
        "{u}"
    );
    // One thread cannot spend more CPU than time passes.
    assert!(number(u, "wall_ms") / 1000.0 >= OWN_CPU, "{u}");
    assert!(number(u, "max_rss_kib") >= (MIB * 1024) as f64, "{u}");
    // The plugin and the orphans plugctl reaped; the children it waited
    // for are in its CPU time, not in this count (docs/protocol.md).
    assert!(number(u, "processes") >= 1.0 + ORPHANS as f64, "{u}");

    // The event that recorded the fingerprint says the same.
    let events = plugctl(&s)
        .args(["--json", "events", "--type", "host-volume"])
        .succeeds()
        .json_lines();
    let event = events
        .iter()
        .find(|e| e["name"] == "burner")
        .expect("a fingerprint event");
    assert_eq!(&event["usage"], u, "{event}");

    // The metrics: one call in each histogram, its sums at least the
    // bounds, and the buckets cumulative up to +Inf.
    let text = plugctl(&s).arg("metrics").succeeds().stdout();
    if tool_available("promtool", "the metrics with a call's usage") {
        promtool_check(&text);
    }
    let labels = r#"family="host-volume",name="burner",operation="fingerprint",result="ok""#;
    for h in [
        "plugctl_call_duration_seconds",
        "plugctl_call_cpu_seconds",
        "plugctl_call_peak_memory_bytes",
    ] {
        assert_eq!(
            sample(&text, &format!("{h}_count{{{labels}}}")),
            Some(1.0),
            "{h}: {text}"
        );
        assert_eq!(
            sample(&text, &format!("{h}_bucket{{le=\"+Inf\",{labels}}}")),
            Some(1.0),
            "{h}: {text}"
        );
    }
    let cpu_sum = sample(&text, &format!("plugctl_call_cpu_seconds_sum{{{labels}}}")).unwrap();
    assert!(cpu_sum >= least, "{cpu_sum}: {text}");
    let mem = sample(
        &text,
        &format!("plugctl_call_peak_memory_bytes_sum{{{labels}}}"),
    )
    .unwrap();
    assert!(mem >= (MIB << 20) as f64, "{mem}");
    // Nothing under 1 s of CPU: the buckets up to 0.5 s hold no call.
    assert_eq!(
        sample(
            &text,
            &format!("plugctl_call_cpu_seconds_bucket{{le=\"0.5\",{labels}}}")
        ),
        Some(0.0),
        "{text}"
    );
}

#[test]
fn every_document_that_reports_a_call_says_what_it_cost() {
    let s = Rig::new();
    dir_plugin(&s, "dir", false);
    s.plugin(
        "secrets",
        "kv",
        r#"case "$1" in
fingerprint) echo '{"type": "secrets", "version": "1.0.0"}' ;;
fetch) echo '{"result": {"user": "app"}}' ;;
esac"#,
    );
    let created = plugctl(&s)
        .args([
            "--json", "volume", "create", "--plugin", "dir", "--name", "web",
        ])
        .succeeds()
        .json();
    assert_usage_shape(&created["usage"]);
    let deleted = plugctl(&s)
        .args(["--json", "volume", "delete", "web"])
        .succeeds()
        .json();
    assert_usage_shape(&deleted["usage"]);
    let fetched = plugctl(&s)
        .args(["--json", "secret", "fetch", "kv", "app/db"])
        .succeeds()
        .json();
    assert_usage_shape(&fetched["usage"]);
    assert_eq!(fetched["result"]["user"], "app");

    // The built-in runs no process: nothing to say.
    let builtin = plugctl(&s)
        .args([
            "--json", "volume", "create", "--plugin", "mkdir", "--name", "m",
        ])
        .succeeds()
        .json();
    assert!(builtin.get("usage").is_none(), "{builtin}");

    // restore re-runs each create: each volume's line says its cost.
    plugctl(&s)
        .args([
            "--json", "volume", "create", "--plugin", "dir", "--name", "again",
        ])
        .succeeds();
    let restored = plugctl(&s)
        .args(["--json", "volume", "restore"])
        .succeeds()
        .json();
    let results = restored["results"].as_array().unwrap();
    let line = results.iter().find(|r| r["name"] == "again").unwrap();
    assert_usage_shape(&line["usage"]);
    let builtin_line = results.iter().find(|r| r["name"] == "m").unwrap();
    assert!(builtin_line.get("usage").is_none(), "{builtin_line}");

    // Every event of a call that ran carries it, the first that reports
    // each of these kinds included.
    let events = plugctl(&s)
        .args(["--json", "events"])
        .succeeds()
        .json_lines();
    for kind in ["volume_create", "volume_delete", "secret_fetch"] {
        let e = events
            .iter()
            .find(|e| e["kind"] == kind && e["name"] != "mkdir")
            .unwrap_or_else(|| panic!("no {kind} event in {events:?}"));
        assert_usage_shape(&e["usage"]);
    }
    // replay runs each recorded call again: each case says its cost.
    let cases = s.root().join("cases");
    let c = cases.to_str().unwrap();
    plugctl(&s)
        .args(["--record", c, "secret", "fetch", "kv", "app/db"])
        .succeeds();
    let replayed = plugctl(&s).args(["--json", "replay", c]).succeeds().json();
    let case = &replayed["cases"][0];
    assert_eq!(case["operation"], "fetch", "{replayed}");
    assert_usage_shape(&case["usage"]);

    // And the human view shows the four figures.
    let text = plugctl(&s).args(["events"]).succeeds().stdout();
    let line = text
        .lines()
        .find(|l| l.contains("secret_fetch"))
        .unwrap_or_else(|| panic!("{text}"));
    for f in ["wall_ms", "cpu_ms", "max_rss_kib", "processes"] {
        assert!(line.contains(&format!("usage.{f}=")), "{line}");
    }
}

#[test]
fn a_failed_call_says_what_it_cost_in_its_error_document_and_its_tally() {
    let s = Rig::new();
    dir_plugin(&s, "full", true);
    let ran = plugctl(&s)
        .args([
            "--json", "volume", "create", "--plugin", "full", "--name", "web",
        ])
        .fails_with(Exit::Failure);
    let error = ran.error();
    assert_eq!(error["kind"], "plugin", "{error}");
    assert_usage_shape(&error["usage"]);
    let text = plugctl(&s).arg("metrics").succeeds().stdout();
    assert_eq!(
        sample(
            &text,
            r#"plugctl_call_duration_seconds_count{family="host-volume",name="full",operation="create",result="error"}"#
        ),
        Some(1.0),
        "{text}"
    );
    // It ran, but never succeeded: a last run and no last success.
    assert!(
        sample(
            &text,
            r#"plugctl_plugin_last_run_timestamp_seconds{family="host-volume",name="full"}"#
        )
        .is_some(),
        "{text}"
    );
    assert!(
        !text.contains(
            r#"plugctl_plugin_last_success_timestamp_seconds{family="host-volume",name="full"}"#
        ),
        "{text}"
    );
}

#[test]
fn verbose_tables_and_lines_show_each_calls_cost() {
    let s = Rig::new();
    dir_plugin(&s, "dir", false);
    let text = plugctl(&s)
        .args(["-v", "fingerprint", "--type", "host-volume"])
        .succeeds()
        .stdout();
    let header = text.lines().next().unwrap();
    for column in ["DURATION", "CPU", "PEAK MEM", "PROCS"] {
        assert!(header.contains(column), "{text}");
    }
    // The plugin's row has figures; the built-in's has none.
    let dir = text.lines().find(|l| l.contains(" dir ")).unwrap();
    assert!(dir.contains("MiB"), "{text}");
    let mkdir = text.lines().find(|l| l.contains(" mkdir ")).unwrap();
    assert!(mkdir.matches(" - ").count() >= 3, "{text}");
    // Without -v, the table is as it was.
    let plain = plugctl(&s).args(["fingerprint"]).succeeds().stdout();
    assert!(!plain.contains("PEAK MEM"), "{plain}");

    plugctl(&s)
        .args(["-v", "volume", "create", "--plugin", "dir", "--name", "web"])
        .succeeds()
        .stderr_has(r#"host-volume plugin "dir": create of volume "#)
        .stderr_has(" wall, ")
        .stderr_has(" CPU, ")
        .stderr_has(" peak, 1 process");
    let restore = plugctl(&s)
        .args(["-v", "volume", "restore"])
        .succeeds()
        .stdout();
    assert!(
        restore.lines().next().unwrap().contains("PEAK MEM"),
        "{restore}"
    );
}

#[test]
fn metrics_carry_build_info_last_runs_and_every_cap_at_zero() {
    let s = Rig::new();
    dir_plugin(&s, "dir", false);
    plugctl(&s).arg("fingerprint").succeeds();
    plugctl(&s)
        .args(["volume", "create", "--plugin", "dir", "--name", "web"])
        .succeeds();
    let text = plugctl(&s).arg("metrics").succeeds().stdout();
    if tool_available("promtool", "the metrics of calls") {
        promtool_check(&text);
    }
    assert_eq!(
        sample(
            &text,
            &format!(
                "plugctl_build_info{{version=\"{}\"}}",
                env!("CARGO_PKG_VERSION")
            )
        ),
        Some(1.0),
        "{text}"
    );
    for op in ["fingerprint", "create"] {
        assert_eq!(
            sample(
                &text,
                &format!(
                    r#"plugctl_call_duration_seconds_count{{family="host-volume",name="dir",operation="{op}",result="ok"}}"#
                )
            ),
            Some(1.0),
            "{op}: {text}"
        );
    }
    let last_run = sample(
        &text,
        r#"plugctl_plugin_last_run_timestamp_seconds{family="host-volume",name="dir"}"#,
    )
    .unwrap();
    let last_success = sample(
        &text,
        r#"plugctl_plugin_last_success_timestamp_seconds{family="host-volume",name="dir"}"#,
    )
    .unwrap();
    assert_eq!(last_run, last_success, "{text}");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64();
    assert!(last_run <= now && last_run > now - 3600.0, "{last_run}");
    for cap in ["memory", "cpu", "files", "tasks"] {
        assert_eq!(
            sample(
                &text,
                &format!(
                    r#"plugctl_call_cap_exceeded_total{{family="host-volume",name="dir",cap="{cap}"}}"#
                )
            ),
            Some(0.0),
            "{cap}: {text}"
        );
    }
    // The built-in ran no process: no series of its calls.
    assert!(!text.contains(r#"name="mkdir",operation"#), "{text}");

    // A plugin forgotten takes its series with it.
    fs::remove_file(s.plugins.join("host-volume/dir")).unwrap();
    plugctl(&s).arg("fingerprint").fails_with(Exit::Failure);
    plugctl(&s).args(["volume", "forget", "web"]).succeeds();
    plugctl(&s)
        .args(["plugin", "forget", "host-volume", "dir"])
        .succeeds();
    let text = plugctl(&s).arg("metrics").succeeds().stdout();
    assert!(!text.contains(r#"name="dir""#), "{text}");
}

#[test]
fn plugin_and_family_names_cannot_forge_or_break_a_series() {
    let s = Rig::new();
    // Everything a label value must escape, and what would close a label
    // set or open another, in a family directory and a plugin's name.
    let family = r#"fam"ily\"#;
    let name = r#"p"} 1 x{a="\b,c=d"#;
    s.plugin(family, name, r#"echo '{"version": "1.0.0"}'"#);
    plugctl(&s)
        .args(["fingerprint", "--type", family])
        .succeeds();
    let text = plugctl(&s).arg("metrics").succeeds().stdout();
    if tool_available("promtool", "label values from plugin names") {
        promtool_check(&text);
    }
    let escaped = |v: &str| v.replace('\\', r"\\").replace('"', "\\\"");
    let labels = format!(
        r#"family="{}",name="{}",operation="fingerprint",result="ok""#,
        escaped(family),
        escaped(name)
    );
    assert_eq!(
        sample(
            &text,
            &format!("plugctl_call_duration_seconds_count{{{labels}}}")
        ),
        Some(1.0),
        "{text}"
    );
    // No line but the escaped ones names it.
    for line in text.lines().filter(|l| l.contains("x{a=")) {
        assert!(line.contains(&escaped(name)), "{line}");
    }

    // A registry edited by hand (plugctl reads it as untrusted input): a
    // newline in a name is escaped too.
    let mut reg = s.registry_file();
    let account = reg["usage"][family][name].clone();
    reg["usage"]["host-volume"]["two\nlines\"}"] = account;
    s.write_registry(serde_json::to_vec_pretty(&reg).unwrap());
    let text = plugctl(&s).arg("metrics").succeeds().stdout();
    if tool_available("promtool", "label values from a hand-edited registry") {
        promtool_check(&text);
    }
    assert!(text.contains(r#"name="two\nlines\"}""#), "{text}");
}

//! The Grafana dashboard and the alert rules in deploy/, against the
//! series plugctl really exports: a node is made with the binary (plugins
//! fingerprinted twice, volumes made, a secret fetched), its metrics are
//! read at both points, and every query of every panel becomes a recording
//! rule that `promtool test rules` evaluates over those series: each must
//! give a result, and the ones whose answer the node decides must give
//! exactly that. Every metric the rules and the dashboard name must be one
//! plugctl writes.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;

use serde_json::{Value, json};

use crate::common::*;

const DASHBOARD: &str = "deploy/grafana/plugctl.dashboard.json";
const RULES: &str = "deploy/prometheus/plugctl.rules.yml";

/// The instance label each series gets, as a scrape would add it.
const NODE: &str = "node-a";

fn dashboard() -> Value {
    serde_json::from_str(&fs::read_to_string(repo().join(DASHBOARD)).unwrap()).unwrap()
}

/// Every (panel id, refId, expr) of the dashboard, the `$instance`
/// variable at its "All" value.
fn queries(d: &Value) -> Vec<(u64, String, String)> {
    let all = d["templating"]["list"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "instance")
        .expect("an instance variable")["allValue"]
        .as_str()
        .unwrap()
        .to_string();
    let mut out = Vec::new();
    for p in d["panels"].as_array().unwrap() {
        let id = p["id"].as_u64().unwrap();
        let targets = p["targets"].as_array().unwrap();
        assert!(!targets.is_empty(), "panel {id} has no query");
        for t in targets {
            let expr = t["expr"].as_str().unwrap().replace("$instance", &all);
            assert!(!expr.contains('$'), "panel {id}: a variable left in {expr}");
            out.push((id, t["refId"].as_str().unwrap().to_string(), expr));
        }
    }
    out
}

/// The samples of a metrics text, by series (with the node's instance
/// label added, as a scrape adds it).
fn samples(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (series, value) = l.rsplit_once(' ').unwrap();
            let series = match series.split_once('{') {
                Some((name, labels)) => format!("{name}{{instance=\"{NODE}\",{labels}"),
                None => format!("{series}{{instance=\"{NODE}\"}}"),
            };
            (series, value.to_string())
        })
        .collect()
}

/// The metric families a metrics text declares, with their types.
fn families(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("# TYPE "))
        .map(|l| {
            let (name, ty) = l.split_once(' ').unwrap();
            (name.to_string(), ty.to_string())
        })
        .collect()
}

/// Every `plugctl_...` name in a text of queries.
fn metric_names(text: &str) -> BTreeSet<String> {
    let re = regex::Regex::new(r"\bplugctl_[a-z_]+\b").unwrap();
    re.find_iter(text)
        .map(|m| m.as_str().to_string())
        .filter(|n| !n.starts_with("plugctl_dashboard"))
        .collect()
}

/// Whether plugctl writes a series named `name`: a family of that name, or
/// a histogram's `_bucket`, `_sum` or `_count`.
fn exported(families: &BTreeMap<String, String>, name: &str) -> bool {
    families.contains_key(name)
        || ["_bucket", "_sum", "_count"].iter().any(|s| {
            name.strip_suffix(s)
                .is_some_and(|base| families.get(base).is_some_and(|t| t == "histogram"))
        })
}

/// A node: a plugin that creates volumes, one whose fingerprint fails
/// (exit 3), a secrets plugin; the metrics after a first round of calls
/// and after a second (pinned by then).
fn node() -> (String, String) {
    let s = Rig::new();
    s.hv_script(
        "dir",
        r#"mkdir -p "$v" && printf '{"path": "%s", "bytes": 0}\n' "$v""#,
        r#"rm -rf "$v""#,
    );
    s.plugin("host-volume", "broken", "exit 3");
    s.plugin(
        "secrets",
        "kv",
        r#"case "$1" in
fingerprint) echo '{"type": "secrets", "version": "1.0.0"}' ;;
fetch) echo '{"result": {"user": "app"}}' ;;
esac"#,
    );
    plugctl(&s).arg("fingerprint").fails_with(Exit::Failure);
    plugctl(&s)
        .args(["volume", "create", "--plugin", "dir", "--name", "a"])
        .succeeds();
    let first = plugctl(&s).arg("metrics").succeeds().stdout();
    // Pinned: the drift metric is written from now on.
    plugctl(&s).arg("pin").succeeds();
    plugctl(&s).arg("fingerprint").fails_with(Exit::Failure);
    plugctl(&s)
        .args(["volume", "create", "--plugin", "dir", "--name", "b"])
        .succeeds();
    plugctl(&s)
        .args(["secret", "fetch", "kv", "app/db"])
        .succeeds();
    let second = plugctl(&s).arg("metrics").succeeds().stdout();
    (first, second)
}

#[test]
fn every_panel_of_the_dashboard_shows_what_plugctl_exports() {
    if !tool_available("promtool", "the dashboard's queries") {
        return;
    }
    let d = dashboard();
    let queries = queries(&d);
    // What the issue asks to see, each by the metric that shows it.
    let all: String = queries.iter().map(|q| q.2.as_str()).collect();
    for needed in [
        "plugctl_plugin_healthy",
        "plugctl_plugin_unhealthy_reason",
        "plugctl_call_duration_seconds_bucket",
        "plugctl_call_cpu_seconds_sum",
        "plugctl_call_peak_memory_bytes_bucket",
        "plugctl_volumes",
        "plugctl_plugin_last_success_timestamp_seconds",
    ] {
        assert!(all.contains(needed), "no panel shows {needed}");
    }

    let (first, second) = node();
    let (a, b) = (samples(&first), samples(&second));
    // Six minutes of the first scrape, then ten of the second ("_": a
    // series not there yet).
    let input: Vec<Value> = a
        .keys()
        .chain(b.keys())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .map(|series| {
            let (then, now) = (
                a.get(series).map_or("_", String::as_str),
                b.get(series).map_or("_", String::as_str),
            );
            let mut values = vec![then; 6];
            values.extend(vec![now; 10]);
            json!({"series": series, "values": values.join(" ")})
        })
        .collect();

    let record = |id: u64, r: &str| format!("plugctl_dashboard:panel_{id}_{r}");
    let rules: Vec<Value> = queries
        .iter()
        .map(|(id, r, expr)| json!({"record": record(*id, r), "expr": expr}))
        .collect();
    // Every query gives a result over the node's series...
    let mut checks: Vec<Value> = queries
        .iter()
        .map(|(id, r, _)| {
            json!({
                "expr": format!("count({}) > bool 0", record(*id, r)),
                "eval_time": "15m",
                "exp_samples": [{"labels": "{}", "value": 1}],
            })
        })
        .collect();
    // ...and those the node decides, exactly: one of its three plugins is
    // unhealthy (it exits 3), two volumes are ready, one plugctl runs.
    let by_title = |title: &str| -> u64 {
        d["panels"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["title"] == title)
            .unwrap_or_else(|| panic!("no panel {title:?}"))["id"]
            .as_u64()
            .unwrap()
    };
    let health = record(by_title("Plugins by health"), "B");
    let reasons = record(by_title("Unhealthy plugins by reason"), "A");
    let volumes = record(by_title("Volumes by state"), "A");
    let versions = record(by_title("plugctl versions"), "A");
    checks.extend([
        json!({"expr": health, "eval_time": "15m",
               "exp_samples": [{"labels": health, "value": 1}]}),
        json!({"expr": reasons, "eval_time": "15m",
               "exp_samples": [{"labels": format!("{reasons}{{reason=\"exit_status\"}}"), "value": 1}]}),
        json!({"expr": format!("{volumes}{{state=\"ready\"}}"), "eval_time": "15m",
               "exp_samples": [{"labels": format!("{volumes}{{state=\"ready\"}}"), "value": 2}]}),
        json!({"expr": versions, "eval_time": "15m",
               "exp_samples": [{"labels": format!("{versions}{{version=\"{}\"}}", env!("CARGO_PKG_VERSION")), "value": 1}]}),
    ]);

    let dir = tempfile::tempdir().unwrap();
    let rules_file = dir.path().join("dashboard.rules.json");
    let test_file = dir.path().join("dashboard.test.json");
    // YAML is a superset of JSON: promtool reads both files as they are.
    fs::write(
        &rules_file,
        serde_json::to_vec_pretty(&json!({"groups": [{"name": "dashboard", "rules": rules}]}))
            .unwrap(),
    )
    .unwrap();
    fs::write(
        &test_file,
        serde_json::to_vec_pretty(&json!({
            "rule_files": ["dashboard.rules.json"],
            "evaluation_interval": "1m",
            "tests": [{
                "interval": "1m",
                "input_series": input,
                "promql_expr_test": checks,
            }],
        }))
        .unwrap(),
    )
    .unwrap();
    tool("promtool")
        .args(["check", "rules"])
        .arg(&rules_file)
        .succeeds();
    tool("promtool")
        .args(["test", "rules"])
        .arg(&test_file)
        .succeeds();
}

#[test]
fn every_metric_the_rules_and_the_dashboard_name_is_one_plugctl_writes() {
    let (_, second) = node();
    let families = families(&second);
    let rules = fs::read_to_string(repo().join(RULES)).unwrap();
    let dash = fs::read_to_string(repo().join(DASHBOARD)).unwrap();
    let names: BTreeSet<String> = metric_names(&rules)
        .into_iter()
        .chain(metric_names(&dash))
        .collect();
    assert!(names.len() >= 10, "{names:?}");
    for name in &names {
        assert!(
            exported(&families, name),
            "{name} is named in deploy/ but plugctl writes no such series: {families:?}"
        );
    }
    // The new alerts are among them.
    for alert in ["PlugctlPluginOverCap", "PlugctlNodeNoRecentSuccess"] {
        assert!(rules.contains(&format!("alert: {alert}")), "{alert}");
    }
}

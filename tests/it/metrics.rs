//! `plugctl metrics` and `--textfile` with the real Prometheus tools:
//! every output passes `promtool check metrics`, and a real
//! `prometheus-node-exporter` serves plugctl's series from its textfile
//! collector, before and after a plugin breaks. `.ci/run` installs both
//! (Debian packages `prometheus`, `prometheus-node-exporter`); locally a
//! missing tool skips with a message.

use std::fs;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

/// `promtool check metrics` on this text; panics with its complaint.
fn promtool_check(text: &str) {
    tool("promtool")
        .args(["check", "metrics"])
        .stdin(text)
        .succeeds();
}

/// The value of the one sample whose line starts with `series`.
fn value(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find(|l| l.starts_with(series) && l[series.len()..].starts_with(' '))
        .and_then(|l| l.rsplit(' ').next()?.parse().ok())
}

fn plugins(s: &Rig) {
    s.hv_ok("good", "1.2.3");
    s.secrets_ok("vaultish");
    s.plugin("host-volume", "broken", "exit 3");
    s.plugin(
        "host-volume",
        "dir",
        r#"case $1 in
fingerprint) echo '{"version": "1.0.0"}' ;;
create) mkdir -p "$DHV_VOLUMES_DIR/$DHV_VOLUME_ID"; printf '{"path": "%s/%s", "bytes": 0}\n' "$DHV_VOLUMES_DIR" "$DHV_VOLUME_ID" ;;
esac"#,
    );
}

#[test]
fn metrics_are_valid_prometheus_text_with_the_registry_in_them() {
    if !tool_available("promtool", "plugctl's metrics text") {
        return;
    }
    let s = Rig::new();
    // An empty registry is valid too.
    let out = plugctl(&s).args(["metrics"]).succeeds();
    promtool_check(&stdout(&out));

    plugins(&s);
    plugctl(&s).args(["fingerprint"]).fails_with(Exit::Failure);
    plugctl(&s)
        .args([
            "volume",
            "create",
            "--plugin",
            "dir",
            "--name",
            "quote\"and\\back\nslash",
            "--capacity-max",
            "1MiB",
        ])
        .succeeds();
    let out = plugctl(&s).args(["metrics"]).succeeds();
    let text = stdout(&out);
    promtool_check(&text);
    assert_eq!(
        value(
            &text,
            r#"plugctl_plugin_healthy{family="host-volume",name="good",version="1.2.3"}"#
        ),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        value(
            &text,
            r#"plugctl_plugin_healthy{family="host-volume",name="broken",version=""}"#
        ),
        Some(0.0),
        "{text}"
    );
    assert_eq!(
        value(&text, r#"plugctl_volumes{plugin="dir",state="ready"}"#),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        value(&text, r#"plugctl_volumes{plugin="dir",state="pending"}"#),
        Some(0.0),
        "{text}"
    );
    // Label values escaped per the format.
    assert!(text.contains(r#"name="quote\"and\\back\nslash""#), "{text}");
    assert_eq!(
        value(
            &text,
            r#"plugctl_recorded_events_total{family="host-volume",kind="volume_create",result="ok"}"#
        ),
        Some(1.0),
        "{text}"
    );
    assert!(value(&text, "plugctl_registry_events_total").unwrap() >= 1.0);
    let size = fs::metadata(&s.registry).unwrap().len() as f64;
    assert_eq!(value(&text, "plugctl_registry_size_bytes"), Some(size));
    for family in [
        "plugctl_plugin_fingerprint_duration_seconds",
        "plugctl_plugin_last_fingerprint_timestamp_seconds",
        "plugctl_volume_capacity_bytes",
    ] {
        assert!(
            text.contains(&format!("# HELP {family} "))
                && text.contains(&format!("# TYPE {family} gauge")),
            "{family}: {text}"
        );
    }
    assert!(
        !text.contains("plugctl_plugin_drifted"),
        "no lock file, no drift metric"
    );

    // Once pinned, drift is a metric too.
    plugctl(&s).args(["pin"]).succeeds();
    s.hv_ok("good", "9.9.9");
    let text = plugctl(&s).args(["metrics"]).any_exit().stdout();
    promtool_check(&text);
    assert_eq!(
        value(
            &text,
            r#"plugctl_plugin_drifted{family="host-volume",name="good"}"#
        ),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        value(
            &text,
            r#"plugctl_plugin_drifted{family="host-volume",name="dir"}"#
        ),
        Some(0.0),
        "{text}"
    );
}

#[test]
fn textfile_is_written_atomically_by_metrics_and_by_fingerprint() {
    let s = Rig::new();
    plugins(&s);
    let dir = s.root().join("textfile");
    fs::create_dir(&dir).unwrap();
    let d = dir.to_str().unwrap();
    plugctl(&s)
        .args(["fingerprint", "--textfile", d])
        .fails_with(Exit::Failure);
    let file = dir.join("plugctl.prom");
    let text = fs::read_to_string(&file).unwrap();
    assert_eq!(
        value(
            &text,
            r#"plugctl_plugin_healthy{family="host-volume",name="broken",version=""}"#
        ),
        Some(0.0),
        "{text}"
    );
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        fs::metadata(&file).unwrap().permissions().mode() & 0o777,
        0o644
    );
    // Nothing but the file: no temporary left behind.
    let names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["plugctl.prom"]);
    plugctl(&s)
        .args(["metrics", "--textfile", d])
        .succeeds()
        .stdout_empty();
    if tool_available("promtool", "the textfile") {
        promtool_check(&fs::read_to_string(&file).unwrap());
    }
    // Not a directory: refused.
    plugctl(&s)
        .args(["metrics", "--textfile", file.to_str().unwrap()])
        .fails_with(Exit::Usage);
}

/// node_exporter on a free loopback port, killed on drop.
struct Exporter {
    child: Child,
    port: u16,
}

impl Drop for Exporter {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Exporter {
    fn start(textfile_dir: &std::path::Path) -> Exporter {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = std::process::Command::new("prometheus-node-exporter")
            .arg(format!("--web.listen-address=127.0.0.1:{port}"))
            .arg("--collector.disable-defaults")
            .arg("--collector.textfile")
            .arg(format!(
                "--collector.textfile.directory={}",
                textfile_dir.display()
            ))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let e = Exporter { child, port };
        let until = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < until, "node_exporter did not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
        e
    }

    fn scrape(&self) -> String {
        let mut conn = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        conn.set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        write!(conn, "GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").unwrap();
        let mut body = String::new();
        conn.read_to_string(&mut body).unwrap();
        body
    }
}

#[test]
fn node_exporter_serves_plugctl_series_before_and_after_a_plugin_breaks() {
    if !tool_available("prometheus-node-exporter", "scraping plugctl's textfile") {
        return;
    }
    let s = Rig::new();
    s.hv_ok("flaky", "1.0.0");
    let dir = s.root().join("textfile");
    fs::create_dir(&dir).unwrap();
    let exporter = Exporter::start(&dir);
    let series = r#"plugctl_plugin_healthy{family="host-volume",name="flaky",version="1.0.0"}"#;
    plugctl(&s)
        .args(["fingerprint", "--textfile", dir.to_str().unwrap()])
        .succeeds();
    let body = exporter.scrape();
    assert_eq!(value(&body, series), Some(1.0), "{body}");
    // The textfile collector itself saw no error.
    assert_eq!(
        value(&body, "node_textfile_scrape_error"),
        Some(0.0),
        "{body}"
    );

    s.plugin("host-volume", "flaky", "echo 'out of disk' >&2; exit 1");
    plugctl(&s)
        .args(["fingerprint", "--textfile", dir.to_str().unwrap()])
        .fails_with(Exit::Failure);
    let body = exporter.scrape();
    assert_eq!(
        value(
            &body,
            r#"plugctl_plugin_healthy{family="host-volume",name="flaky",version=""}"#
        ),
        Some(0.0),
        "{body}"
    );
    assert_eq!(
        value(&body, "node_textfile_scrape_error"),
        Some(0.0),
        "{body}"
    );
}

#[test]
fn every_family_lists_its_series_in_label_order_run_after_run() {
    let s = Rig::new();
    for i in 0..12 {
        s.hv_ok(&format!("p{i:02}"), "1.0.0");
    }
    // Two operations of one plugin, and both results: the call
    // histograms' series in label order too ("create" before
    // "fingerprint", "error" before "ok").
    s.hv_script(
        "vol",
        r#"[ "$DHV_VOLUME_NAME" = bad ] && exit 1; mkdir -p "$v" && printf '{"path": "%s", "bytes": 0}\n' "$v""#,
        r#"rm -rf "$v""#,
    );
    plugctl(&s).arg("fingerprint").succeeds();
    plugctl(&s)
        .args(["volume", "create", "--plugin", "vol", "--name", "good"])
        .succeeds();
    plugctl(&s)
        .args(["volume", "create", "--plugin", "vol", "--name", "bad"])
        .fails_with(Exit::Failure);
    let text = plugctl(&s).arg("metrics").succeeds().stdout();
    assert!(
        text.contains(r#"operation="create",result="error""#),
        "{text}"
    );
    let mut family = Vec::new();
    let mut families = 0;
    let mut histogram = false;
    for line in text.lines().chain(["# end"]) {
        if line.starts_with('#') {
            if histogram {
                assert_histogram_order(&family, &text);
            } else {
                let mut sorted = family.clone();
                sorted.sort();
                assert_eq!(family, sorted, "a family out of order in:\n{text}");
            }
            families += usize::from(!family.is_empty());
            family.clear();
            if line.starts_with("# TYPE ") {
                histogram = line.ends_with(" histogram");
            }
        } else {
            family.push(line);
        }
    }
    assert!(families >= 3, "{text}");
    // The same registry gives the same bytes (timestamps are the registry's).
    assert_eq!(plugctl(&s).arg("metrics").succeeds().stdout(), text);
}

/// A histogram's lines: its series in label order, each one's `_sum`,
/// `_count`, then its buckets by bound up to `+Inf`.
fn assert_histogram_order(lines: &[&str], text: &str) {
    let mut keys = Vec::new();
    for line in lines {
        let (name, rest) = line.split_once('{').unwrap();
        let labels = rest.rsplit_once('}').unwrap().0;
        let (le, series) = match labels.strip_prefix("le=\"") {
            Some(tail) => {
                let (le, series) = tail.split_once("\",").unwrap();
                let bound = if le == "+Inf" {
                    f64::INFINITY
                } else {
                    le.parse().unwrap()
                };
                (bound, series)
            }
            None => (f64::NEG_INFINITY, labels),
        };
        let part = ["_sum", "_count", "_bucket"]
            .iter()
            .position(|p| name.ends_with(p))
            .unwrap();
        keys.push((series.to_string(), part, le));
    }
    let mut sorted = keys.clone();
    sorted.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)).then(a.2.total_cmp(&b.2)));
    assert_eq!(keys, sorted, "a histogram out of order in:\n{text}");
}

/// A registry plugctl will not read makes `metrics` fail as every other
/// command fails on it (a registry error, exit 2), not as a failure to
/// write to stdout.
#[test]
fn a_registry_it_cannot_read_is_that_error_not_a_write_failure() {
    let s = Rig::new();
    make_dir(s.registry.parent().unwrap());
    std::fs::write(&s.registry, "{ not json").unwrap();
    plugctl(&s)
        .args(["--json", "volume", "list"])
        .fails_with(Exit::Usage)
        .error_kind("registry");
    plugctl(&s)
        .args(["metrics"])
        .fails_with(Exit::Usage)
        .stderr_has(&format!("registry {}", s.registry.display()))
        .stderr_lacks("cannot write to stdout");
}

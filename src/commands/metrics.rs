//! `plugctl metrics [--textfile DIR]`: the registry's state as Prometheus
//! metrics, encoded by the `prometheus-client` crate (HELP and TYPE for
//! every family, label values escaped per the format). With `--textfile`
//! (also on `fingerprint`), written atomically to `DIR/plugctl.prom` for
//! node_exporter's textfile collector: a scrape never sees half a file.

use std::collections::BTreeSet;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::atomic::AtomicU64;

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry as Metrics;

use super::Ctx;
use crate::cli::MetricsArgs;
use crate::registry::{Source, State, VolumeState};
use crate::{Error, Result};

/// The file name node_exporter's textfile collector reads.
pub const TEXTFILE: &str = "plugctl.prom";

type Labels = Vec<(String, String)>;
type FloatGauge = Gauge<f64, AtomicU64>;

pub fn run(ctx: &Ctx, args: MetricsArgs) -> Result<()> {
    let text = render(ctx)?;
    match &args.textfile {
        Some(dir) => write_textfile(dir, &text),
        None => ctx.printer.text(&text),
    }
}

/// The metrics text for the registry as it is now.
pub fn render(ctx: &Ctx) -> Result<String> {
    let snap = ctx.registry.read()?;
    let size = std::fs::metadata(ctx.registry.path()).map_or(0, |m| m.len());
    let drifted = drifted(ctx, snap.state());
    encode_state(snap.state(), size, &drifted)
}

fn labels(pairs: &[(&str, &str)]) -> Labels {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn encode_state(state: &State<'_>, registry_size: u64, drifted: &Drifted) -> Result<String> {
    let mut reg = Metrics::with_prefix("plugctl");

    let healthy = Family::<Labels, Gauge>::default();
    let duration = Family::<Labels, FloatGauge>::default();
    let last = Family::<Labels, FloatGauge>::default();
    for (family, plugins) in &state.plugins {
        for (name, instances) in plugins {
            let Some(inst) = instances.first() else {
                continue;
            };
            let version = inst.version.as_deref().unwrap_or("");
            healthy
                .get_or_create(&labels(&[
                    ("family", family),
                    ("name", name),
                    ("version", version),
                ]))
                .set(i64::from(inst.healthy));
            let key = labels(&[("family", family), ("name", name)]);
            if let Some(ms) = inst.duration_ms {
                duration.get_or_create(&key).set(ms as f64 / 1000.0);
            }
            // A registration is not a fingerprint: dynamic plugins announce
            // themselves once, and would look stale to the alert.
            if inst.source != Source::Dynamic
                && let Ok(t) = humantime::parse_rfc3339(&inst.updated_at)
                && let Ok(since) = t.duration_since(std::time::UNIX_EPOCH)
            {
                last.get_or_create(&key).set(since.as_secs_f64());
            }
        }
    }
    reg.register(
        "plugin_healthy",
        "Whether the plugin's last fingerprint (or registration) was healthy (1) or not (0)",
        healthy,
    );
    reg.register(
        "plugin_fingerprint_duration_seconds",
        "How long the plugin's last fingerprint took",
        duration,
    );
    reg.register(
        "plugin_last_fingerprint_timestamp_seconds",
        "When the plugin was last fingerprinted or registered (Unix time)",
        last,
    );

    let volumes = Family::<Labels, Gauge>::default();
    let capacity = Family::<Labels, Gauge>::default();
    // Every state appears for every plugin with volumes, so an alert on
    // `pending` sees 0, not a missing series, once it clears.
    let plugins: BTreeSet<&str> = state.volumes.values().map(|v| v.plugin.as_ref()).collect();
    for p in &plugins {
        for st in ["ready", "pending", "deleting"] {
            volumes
                .get_or_create(&labels(&[("plugin", p), ("state", st)]))
                .set(0);
        }
    }
    for v in state.volumes.values() {
        volumes
            .get_or_create(&labels(&[
                ("plugin", &v.plugin),
                ("state", v.state.as_str()),
            ]))
            .inc();
        if v.state == VolumeState::Ready {
            capacity
                .get_or_create(&labels(&[
                    ("plugin", &v.plugin),
                    ("name", &v.name),
                    ("id", &v.id),
                ]))
                .set(i64::try_from(v.capacity_max).unwrap_or(i64::MAX));
        }
    }
    reg.register(
        "volumes",
        "Volumes in the registry by plugin and state",
        volumes,
    );
    reg.register(
        "volume_capacity_bytes",
        "The capacity_max each ready volume was asked for",
        capacity,
    );

    let ops = Family::<Labels, Counter>::default();
    for (family, kinds) in &state.operations {
        for (kind, results) in kinds {
            for (result, n) in results {
                ops.get_or_create(&labels(&[
                    ("family", family),
                    ("operation", kind),
                    ("result", result),
                ]))
                .inc_by(*n);
            }
        }
    }
    reg.register(
        "operations",
        "Registry events ever recorded, by family, operation and result",
        ops,
    );
    let events = Counter::<u64>::default();
    events.inc_by(state.seq);
    reg.register(
        "registry_events",
        "Events the registry has recorded",
        events,
    );
    let size = Gauge::<i64>::default();
    size.set(i64::try_from(registry_size).unwrap_or(i64::MAX));
    reg.register("registry_size_bytes", "Size of the registry file", size);

    if let Drifted::Checked(list) = drifted {
        let g = Family::<Labels, Gauge>::default();
        for (family, name, is_drifted) in list {
            g.get_or_create(&labels(&[("family", family), ("name", name)]))
                .set(i64::from(*is_drifted));
        }
        reg.register(
            "plugin_drifted",
            "Whether the plugin file differs from plugctl.lock (1) or matches it (0)",
            g,
        );
    }

    let mut text = String::new();
    encode(&mut text, &reg).map_err(|e| Error::Failed(format!("cannot encode metrics: {e}")))?;
    Ok(to_prometheus_text(&text))
}

/// prometheus-client writes OpenMetrics; node_exporter's textfile collector
/// and `promtool check metrics` read the Prometheus text format, where a
/// counter's HELP and TYPE name the sample (`x_total`, not `x`) and there is
/// no `# EOF`. Only those lines differ for the gauges and counters here.
fn to_prometheus_text(open_metrics: &str) -> String {
    let counters: BTreeSet<&str> = open_metrics
        .lines()
        .filter_map(|l| l.strip_prefix("# TYPE ")?.strip_suffix(" counter"))
        .collect();
    let mut out = String::with_capacity(open_metrics.len());
    for line in open_metrics.lines() {
        if line == "# EOF" {
            continue;
        }
        let renamed = ["# HELP ", "# TYPE "].iter().find_map(|prefix| {
            let rest = line.strip_prefix(prefix)?;
            let (name, tail) = rest.split_once(' ')?;
            counters
                .contains(name)
                .then(|| format!("{prefix}{name}_total {tail}"))
        });
        out.push_str(renamed.as_deref().unwrap_or(line));
        out.push('\n');
    }
    out
}

/// The pin check, when there is a lock file.
enum Drifted {
    NoLockFile,
    Checked(Vec<(String, String, bool)>),
}

fn drifted(ctx: &Ctx, state: &State<'_>) -> Drifted {
    let Ok(Some(lock)) = crate::pin::LockFile::load(&ctx.settings.lockfile) else {
        return Drifted::NoLockFile;
    };
    let mut out = Vec::new();
    for pin in &lock.plugins {
        let dir = ctx.settings.family_dir(&pin.family);
        let path = dir.join(&pin.name);
        let now = crate::pin::pin_file(&pin.family, &pin.name, &path, None).ok();
        let is_drifted = now.is_none_or(|n| !n.same_file(pin));
        out.push((pin.family.clone(), pin.name.clone(), is_drifted));
    }
    // Plugins fingerprinted from files but missing from the lock file are
    // drifted too: nobody approved them.
    {
        for (family, plugins) in &state.plugins {
            for (name, inst) in plugins {
                let from_file = inst.first().is_some_and(|i| i.source == Source::File);
                if from_file && !out.iter().any(|(f, n, _)| f == family && n == name) {
                    out.push((family.clone(), name.clone(), true));
                }
            }
        }
    }
    Drifted::Checked(out)
}

/// Writes `DIR/plugctl.prom` atomically: a temporary file in the same
/// directory, fsynced, renamed over the old one, 0644 for node_exporter.
pub fn write_textfile(dir: &Path, text: &str) -> Result<()> {
    let path = dir.join(TEXTFILE);
    let io =
        |what: &str, e: std::io::Error| Error::io(format!("cannot {what} {}", path.display()), e);
    let meta = std::fs::symlink_metadata(dir)
        .map_err(|e| Error::usage(format!("--textfile {}: {e}", dir.display())))?;
    if !meta.is_dir() {
        return Err(Error::usage(format!(
            "--textfile {} is not a directory (symlinks are not followed)",
            dir.display()
        )));
    }
    let mut tmp = tempfile::Builder::new()
        .prefix(".plugctl.prom.")
        .tempfile_in(dir)
        .map_err(|e| io("write", e))?;
    tmp.write_all(text.as_bytes())
        .and_then(|()| tmp.as_file().sync_all())
        .and_then(|()| {
            tmp.as_file()
                .set_permissions(std::fs::Permissions::from_mode(0o644))
        })
        .map_err(|e| io("write", e))?;
    tmp.persist(&path).map_err(|e| io("replace", e.error))?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

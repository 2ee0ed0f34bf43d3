//! `plugctl metrics [--textfile DIR]`: the registry's state as Prometheus
//! metrics, encoded by the `prometheus-client` crate (HELP and TYPE for
//! every family, label values escaped per the format). With `--textfile`
//! (also on `fingerprint`), written atomically to `DIR/plugctl.prom` for
//! node_exporter's textfile collector: a scrape never sees half a file.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::AtomicU64;

use prometheus_client::collector::Collector;
use prometheus_client::encoding::text::encode;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric, NoLabelSet};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry as Metrics;

use super::Ctx;
use crate::cli::MetricsArgs;
use crate::{Error, Result};
use plugctl_core::registry::ledger::{self, Histogram};
use plugctl_core::registry::{Source, State, VolumeState};
use plugctl_core::usage::Cap;

/// The file name node_exporter's textfile collector reads.
pub const TEXTFILE: &str = "plugctl.prom";

type Labels = Vec<(String, String)>;
type FloatGauge = Gauge<f64, AtomicU64>;

pub fn run(ctx: &Ctx, args: MetricsArgs) -> Result<()> {
    // A script that asked for JSON would get the text format on stdout.
    if ctx.printer.json {
        return Err(Error::usage(
            "--json: metrics prints the Prometheus text format, never JSON; drop --json",
        ));
    }
    match &args.textfile {
        Some(dir) => write_textfile(ctx, dir),
        // A person reads it: label values hold names a file or a plugin
        // chose (a volume's, a plugin's), which the format escapes only
        // for a backslash, a quote and a line feed. Shown in plugctl's one
        // escape style, so that none drives or reorders the terminal.
        None if ctx.printer.stdout_is_terminal() => {
            let text = render(ctx)?;
            ctx.printer
                .text(&plugctl_core::escape::escape_untrusted(&text, false))
        }
        None => {
            // An error of the registry's (read inside the stream) is that
            // error, not a failure to write to stdout.
            let mut failed = None;
            let streamed = ctx.printer.stream(|w| {
                write_metrics(ctx, w).map_err(|e| {
                    let io = std::io::Error::other(e.to_string());
                    failed = Some(e);
                    io
                })
            });
            failed.map_or(streamed, Err)
        }
    }
}

/// The metrics text for the registry as it is now.
pub fn render(ctx: &Ctx) -> Result<String> {
    let mut out = Vec::new();
    write_metrics(ctx, &mut out)?;
    String::from_utf8(out).map_err(|e| Error::Failed(format!("cannot encode metrics: {e}")))
}

/// The metrics text for the registry as it is now, written as it is
/// encoded: the per-volume series are made from the registry read while
/// they are written (a [`Collector`]), never held as labels.
pub fn write_metrics(ctx: &Ctx, w: &mut dyn Write) -> Result<()> {
    let snap = std::sync::Arc::new(ctx.registry.read()?);
    let size = std::fs::metadata(ctx.registry.path()).map_or(0, |m| m.len());
    let drifted = drifted(ctx, snap.state());
    let reg = metrics_of(&snap, size, &drifted);
    let mut text = PrometheusText::new(w);
    encode(&mut text, &reg)
        .and_then(|()| text.finish())
        .map_err(|_| match text.failed.take() {
            Some(e) => Error::io("cannot write the metrics", e),
            None => Error::Failed("cannot encode metrics".into()),
        })
}

/// `volume_capacity_bytes`: one series per ready volume, encoded straight
/// from the registry read.
#[derive(Debug)]
struct Capacities(std::sync::Arc<plugctl_core::registry::Snapshot>);

impl Collector for Capacities {
    fn encode(&self, mut encoder: DescriptorEncoder) -> std::result::Result<(), std::fmt::Error> {
        let gauge = ConstGauge::new(0i64);
        let mut family = encoder.encode_descriptor(
            "volume_capacity_bytes",
            "The capacity_max each ready volume was asked for",
            None,
            gauge.metric_type(),
        )?;
        for v in self.0.state().volumes.values() {
            if v.state != VolumeState::Ready {
                continue;
            }
            let labels = [
                ("plugin", v.plugin.as_ref()),
                ("name", v.name.as_ref()),
                ("id", v.id.as_ref()),
            ];
            let value = i64::try_from(v.capacity_max).unwrap_or(i64::MAX);
            ConstGauge::new(value).encode(family.encode_family(&labels)?)?;
        }
        Ok(())
    }
}

/// The calls' histograms, one series set per family, plugin, operation
/// and result, made from the registry's ledger as they are written (see
/// [`plugctl_core::registry::ledger`]: every call recorded since the
/// registry began keeping it).
#[derive(Debug)]
struct Calls(std::sync::Arc<plugctl_core::registry::Snapshot>);

/// Each histogram: its name, help, which of a tally's figures, its bounds
/// and the ledger's unit in the metric's (dividing microseconds, so that a
/// bound of 25 ms reads 0.025 and not its nearest binary fraction).
type Figure = fn(&ledger::Tally) -> &Histogram;
type Unit = fn(u64) -> f64;
const HISTOGRAMS: [(&str, &str, Figure, &[u64], Unit); 3] = [
    (
        "call_duration_seconds",
        "Wall time of each plugin call, from spawn to the end of its output and leftovers",
        |t| &t.wall_us,
        &ledger::WALL_BOUNDS,
        |us| us as f64 / 1e6,
    ),
    (
        "call_cpu_seconds",
        "User plus system CPU time of each plugin call, the plugin and the descendants the kernel accounted to it",
        |t| &t.cpu_us,
        &ledger::CPU_BOUNDS,
        |us| us as f64 / 1e6,
    ),
    (
        "call_peak_memory_bytes",
        "Peak resident memory of the largest process of each plugin call",
        |t| &t.rss_kib,
        &ledger::MEMORY_BOUNDS,
        |kib| kib as f64 * 1024.0,
    ),
];

impl Collector for Calls {
    fn encode(&self, mut encoder: DescriptorEncoder) -> std::result::Result<(), std::fmt::Error> {
        let usage = &self.0.state().usage;
        for (name, help, figure, bounds, unit) in HISTOGRAMS {
            let mut family = encoder.encode_descriptor(name, help, None, MetricType::Histogram)?;
            for (fam, plugins) in &usage.0 {
                for (plugin, account) in plugins {
                    for (op, result, tally) in &account.calls {
                        let h = figure(tally);
                        if h.count == 0 {
                            continue;
                        }
                        let labels = [
                            ("family", fam.as_str()),
                            ("name", plugin.as_str()),
                            ("operation", op.name()),
                            ("result", result.name()),
                        ];
                        // Per bucket, as prometheus-client sums them.
                        let mut below = 0;
                        let buckets: Vec<(f64, u64)> = h
                            .cumulative(bounds)
                            .into_iter()
                            .map(|(bound, total)| {
                                let n = total - below;
                                below = total;
                                (bound.map_or(f64::INFINITY, unit), n)
                            })
                            .collect();
                        family
                            .encode_family(&labels)?
                            .encode_histogram::<NoLabelSet>(unit(h.sum), below, &buckets, None)?;
                    }
                }
            }
        }
        Ok(())
    }
}

fn labels(pairs: &[(&str, &str)]) -> Labels {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn metrics_of(
    snap: &std::sync::Arc<plugctl_core::registry::Snapshot>,
    registry_size: u64,
    drifted: &Drifted,
) -> Metrics {
    let state = snap.state();
    let mut reg = Metrics::with_prefix("plugctl");

    let healthy = Family::<Labels, Gauge>::default();
    let unhealthy = Family::<Labels, Gauge>::default();
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
            if !inst.healthy {
                // The reason's class, never its words (paths, a plugin's
                // own message): a label of few values.
                let reason =
                    plugctl_core::verdict::reason_class(inst.error.as_deref().unwrap_or(""));
                unhealthy
                    .get_or_create(&labels(&[
                        ("family", family),
                        ("name", name),
                        ("reason", reason),
                    ]))
                    .set(1);
            }
            let key = labels(&[("family", family), ("name", name)]);
            if let Some(ms) = inst.duration_ms {
                duration.get_or_create(&key).set(ms as f64 / 1000.0);
            }
            // A registration is not a fingerprint: dynamic plugins announce
            // themselves once, and would look stale to the alert.
            if inst.source != Source::Dynamic
                && let Some(t) = unix_time(&inst.updated_at)
            {
                last.get_or_create(&key).set(t);
            }
        }
    }
    reg.register(
        "plugin_healthy",
        "Whether the plugin's last fingerprint (or registration) was healthy (1) or not (0)",
        healthy,
    );
    reg.register(
        "plugin_unhealthy_reason",
        "1 for each unhealthy plugin, by the class of its reason (timeout, exit_status, deleted, ...)",
        unhealthy,
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

    // What the calls cost, from the ledger: histograms, when each plugin
    // last ran and last succeeded, and calls that reached a cap (0 for
    // every cap of every plugin that ran, so that the first one is an
    // increase an alert sees).
    reg.register_collector(Box::new(Calls(std::sync::Arc::clone(snap))));
    let last_run = Family::<Labels, FloatGauge>::default();
    let last_success = Family::<Labels, FloatGauge>::default();
    let over_cap = Family::<Labels, Counter>::default();
    for (family, plugins) in &state.usage.0 {
        for (name, account) in plugins {
            let key = labels(&[("family", family), ("name", name)]);
            for (slot, at) in [
                (&last_run, &account.last_run),
                (&last_success, &account.last_success),
            ] {
                if let Some(t) = at.as_deref().and_then(unix_time) {
                    slot.get_or_create(&key).set(t);
                }
            }
            for cap in Cap::ALL {
                over_cap
                    .get_or_create(&labels(&[
                        ("family", family),
                        ("name", name),
                        ("cap", cap.name()),
                    ]))
                    .inc_by(account.over_cap.get(&cap).copied().unwrap_or(0));
            }
        }
    }
    reg.register(
        "plugin_last_run_timestamp_seconds",
        "When a call of the plugin last ended (Unix time)",
        last_run,
    );
    reg.register(
        "plugin_last_success_timestamp_seconds",
        "When a call of the plugin last succeeded (Unix time)",
        last_success,
    );
    reg.register(
        "call_cap_exceeded",
        "Plugin calls that failed by reaching a cap (memory, cpu, files, tasks)",
        over_cap,
    );
    let build = Family::<Labels, Gauge>::default();
    build
        .get_or_create(&labels(&[("version", env!("CARGO_PKG_VERSION"))]))
        .set(1);
    reg.register(
        "build_info",
        "The plugctl that wrote these metrics (always 1)",
        build,
    );

    let volumes = Family::<Labels, Gauge>::default();
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
    }
    reg.register(
        "volumes",
        "Volumes in the registry by plugin and state",
        volumes,
    );
    reg.register_collector(Box::new(Capacities(std::sync::Arc::clone(snap))));

    let ops = Family::<Labels, Counter>::default();
    for (family, kinds) in &state.operations {
        for (kind, results) in kinds {
            for (result, n) in results {
                ops.get_or_create(&labels(&[
                    ("family", family),
                    ("kind", kind),
                    ("result", result),
                ]))
                .inc_by(*n);
            }
        }
    }
    // Events, not operations: a fingerprint is an event only when a
    // plugin's health or version changed, and `gone` or `forgotten` are
    // no operation at all. Named for what it counts.
    reg.register(
        "recorded_events",
        "Registry events ever recorded, by family, kind and result",
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

    reg
}

/// An RFC 3339 time the registry recorded, as Unix seconds.
fn unix_time(recorded: &str) -> Option<f64> {
    let t = humantime::parse_rfc3339(recorded).ok()?;
    Some(t.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs_f64())
}

/// The counters registered above, by their full names: their HELP and TYPE
/// lines are renamed for the Prometheus text format.
const COUNTERS: [&str; 3] = [
    "plugctl_recorded_events",
    "plugctl_registry_events",
    "plugctl_call_cap_exceeded",
];

/// The families collectors write straight from the registry, already in
/// order ([`Capacities`] by id, [`Calls`] by labels, each histogram's
/// buckets by bound): never re-sorted.
const STREAMED: [&str; 4] = [
    "plugctl_volume_capacity_bytes ",
    "plugctl_call_duration_seconds ",
    "plugctl_call_cpu_seconds ",
    "plugctl_call_peak_memory_bytes ",
];

/// prometheus-client writes OpenMetrics; node_exporter's textfile collector
/// and `promtool check metrics` read the Prometheus text format, where a
/// counter's HELP and TYPE name the sample (`x_total`, not `x`) and there is
/// no `# EOF`. Only those lines differ for the gauges, counters and
/// histograms here. This rewrites them line by line on the way to `out`,
/// and puts each family's samples in label order: prometheus-client keeps
/// a family's series in a hash map, and a scrape that reorders its lines
/// from run to run makes every diff and every test of the text noisy. The
/// per-volume family and the histograms are written as they are read,
/// already in order (a histogram's buckets by bound, not as text sorts
/// them), never held.
struct PrometheusText<'w> {
    out: std::io::BufWriter<&'w mut dyn Write>,
    line: String,
    /// The current family's samples, held until the next family starts.
    samples: Vec<String>,
    /// Whether the current family streams (its collector orders it).
    streaming: bool,
    /// The write error, kept: `fmt::Write` can only say that one happened.
    failed: Option<std::io::Error>,
}

impl<'w> PrometheusText<'w> {
    fn new(out: &'w mut dyn Write) -> Self {
        PrometheusText {
            out: std::io::BufWriter::with_capacity(1 << 16, out),
            line: String::new(),
            samples: Vec::new(),
            streaming: false,
            failed: None,
        }
    }

    /// Writes the held samples of the family that just ended, sorted.
    fn flush_samples(&mut self) -> std::io::Result<()> {
        self.samples.sort_unstable();
        for sample in self.samples.drain(..) {
            self.out.write_all(sample.as_bytes())?;
            self.out.write_all(b"\n")?;
        }
        Ok(())
    }

    fn emit_line(&mut self) -> std::io::Result<()> {
        let line = std::mem::take(&mut self.line);
        if line == "# EOF" {
            return self.flush_samples();
        }
        if !line.starts_with('#') && !self.streaming {
            self.samples.push(line);
            return Ok(());
        }
        if line.starts_with('#') {
            self.flush_samples()?;
            if let Some(rest) = line.strip_prefix("# HELP ") {
                self.streaming = STREAMED.iter().any(|f| rest.starts_with(f));
            }
        }
        let renamed = ["# HELP ", "# TYPE "].iter().find_map(|prefix| {
            let rest = line.strip_prefix(prefix)?;
            let (name, tail) = rest.split_once(' ')?;
            COUNTERS
                .contains(&name)
                .then(|| format!("{prefix}{name}_total {tail}"))
        });
        self.out
            .write_all(renamed.as_deref().unwrap_or(&line).as_bytes())?;
        self.out.write_all(b"\n")?;
        self.line = line;
        self.line.clear();
        Ok(())
    }

    fn finish(&mut self) -> std::fmt::Result {
        let flushed = if self.line.is_empty() {
            Ok(())
        } else {
            self.emit_line()
        }
        .and_then(|()| self.flush_samples());
        flushed.and_then(|()| self.out.flush()).map_err(|e| {
            self.failed = Some(e);
            std::fmt::Error
        })
    }
}

impl std::fmt::Write for PrometheusText<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let mut rest = s;
        while let Some(at) = rest.find('\n') {
            self.line.push_str(&rest[..at]);
            if let Err(e) = self.emit_line() {
                self.failed = Some(e);
                return Err(std::fmt::Error);
            }
            rest = &rest[at + 1..];
        }
        self.line.push_str(rest);
        Ok(())
    }
}

/// The pin check, when there is a lock file.
enum Drifted {
    NoLockFile,
    Checked(Vec<(String, String, bool)>),
}

fn drifted(ctx: &Ctx, state: &State<'_>) -> Drifted {
    let Ok(Some(lock)) =
        plugctl_core::pin::LockFile::load(&ctx.settings.lockfile, ctx.settings.policy())
    else {
        return Drifted::NoLockFile;
    };
    let mut out = Vec::new();
    let pinner = plugctl_core::pin::Pinner::default();
    for pin in &lock.plugins {
        let dir = ctx.settings.family_dir(&pin.family);
        let path = dir.join(&pin.name);
        let is_drifted = !pinner.still_pinned(pin, &path);
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

/// Writes `DIR/plugctl.prom` atomically with the gate's one replace (a
/// temporary file in the same directory, created exclusively, fsynced,
/// renamed over the old one, 0644 for node_exporter), relative to the
/// directory's descriptor. The directory is opened once following no
/// symlink at any step, whoever owns it (on Debian the `prometheus` user
/// owns `/var/lib/prometheus`): nothing is read from it, and through the
/// descriptor and `renameat` its owner can at most have the file land in a
/// directory of their own, never have root write through a link
/// ([`plugctl_core::trust::output`]).
pub fn write_textfile(ctx: &Ctx, dir: &Path) -> Result<()> {
    use plugctl_core::trust::Refusal;
    let checked = plugctl_core::trust::output::open_output_dir(dir).map_err(|r| match r {
        Refusal::Kind { path, is, .. } => Error::usage(format!(
            "--textfile {}: {} is {is}, not a directory",
            dir.display(),
            path.display()
        )),
        Refusal::Symlink(link) => Error::usage(format!(
            "--textfile {}: {} is a symbolic link; plugctl reaches the textfile directory \
             through no symbolic link, at any step (whoever can change a link could have root \
             write elsewhere): name the real directory",
            dir.display(),
            link.display()
        )),
        r => Error::refused(format_args!("--textfile {}", dir.display()), &r),
    })?;
    let mut failed = None;
    checked
        .replace_with(TEXTFILE, 0o644, None, |f| {
            write_metrics(ctx, f).map_err(|e| {
                let io = std::io::Error::other(e.to_string());
                failed = Some(e);
                io
            })
        })
        .map_err(|(_, r)| match (failed.take(), r) {
            (Some(e), _) => e,
            (None, plugctl_core::trust::Refusal::Io { source, .. }) => Error::io(
                format!("cannot write {}", dir.join(TEXTFILE).display()),
                source,
            ),
            (None, r) => Error::usage(format!("--textfile {}: {r}", dir.display())),
        })
}

//! `plugctl status`: is this node fine? One screen, as `nomad node status
//! -self` and `systemctl status` give one: where the layout came from,
//! plugins healthy, unhealthy and gone (with why), volumes by state and
//! those a `volume repair` must settle, how old the last fingerprint and
//! the textfile are, the registry and its journal, and what the kernel
//! offers a sandbox. Exit 0 when all is well, 1 when something needs
//! attention (each such thing is said first). Nothing is run or changed.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::Serialize;

use super::Ctx;
use crate::cli::StatusArgs;
use crate::fit::{self, Cut};
use crate::output::{Form, Style, sanitize_cell};
use crate::{Error, Result};
use plugctl_core::kernel_support::{self, KernelSupport};
use plugctl_core::registry::{Instance, Source, VolumeState};

/// Where node_exporter's textfile collector reads on Debian (the
/// prometheus-node-exporter package): `status` looks there as root when
/// no directory is named.
pub const DEBIAN_TEXTFILE_DIR: &str = "/var/lib/prometheus/node-exporter";

/// The file `fingerprint --textfile` and `metrics --textfile` write.
const TEXTFILE: &str = "plugctl.prom";

#[derive(Debug, Serialize)]
struct Status {
    ok: bool,
    /// What needs attention, one sentence each.
    attention: Vec<String>,
    layout: Layout,
    registry: RegistryStatus,
    plugins: Plugins,
    volumes: Volumes,
    fingerprint: Age,
    textfile: Option<Textfile>,
    kernel: KernelSupport,
}

#[derive(Debug, Serialize)]
struct Layout {
    agent_config: Option<AgentConfig>,
    plugin_dir: Dir,
    host_volume_plugin_dir: Dir,
    volumes_dir: Dir,
}

#[derive(Debug, Serialize)]
struct AgentConfig {
    paths: Vec<PathBuf>,
    from: String,
    files: Vec<PathBuf>,
}

#[derive(Debug, Serialize)]
struct Dir {
    path: PathBuf,
    from: String,
}

#[derive(Debug, Serialize)]
struct RegistryStatus {
    path: PathBuf,
    exists: bool,
    bytes: Option<u64>,
    node_id: Option<String>,
    /// The last event's sequence number.
    seq: u64,
    journal_segments: usize,
    journal_bytes: u64,
}

#[derive(Debug, Default, Serialize)]
struct Plugins {
    healthy: usize,
    unhealthy: usize,
    gone: usize,
    /// Each plugin that is not healthy, with why.
    problems: Vec<Problem>,
}

#[derive(Debug, Serialize)]
struct Problem {
    #[serde(rename = "type")]
    family: String,
    name: String,
    /// `unhealthy` or `gone` (its file is no longer there).
    state: &'static str,
    reason: String,
}

#[derive(Debug, Default, Serialize)]
struct Volumes {
    ready: usize,
    pending: usize,
    deleting: usize,
    /// Pending or deleting with no live plugctl at work on them: what
    /// `volume repair` settles.
    need_repair: Vec<Repair>,
}

#[derive(Debug, Serialize)]
struct Repair {
    id: String,
    name: String,
    namespace: String,
    state: &'static str,
    note: Option<String>,
}

#[derive(Debug, Serialize)]
struct Age {
    /// When (RFC 3339), or None: never.
    at: Option<String>,
    age_seconds: Option<u64>,
    stale: bool,
}

#[derive(Debug, Serialize)]
struct Textfile {
    path: PathBuf,
    /// Named (`--textfile`, `PLUGCTL_TEXTFILE_DIR`) rather than looked for
    /// where Debian's node_exporter reads: a missing file then needs
    /// attention.
    named: bool,
    exists: bool,
    #[serde(flatten)]
    age: Age,
}

pub async fn run(ctx: &Ctx, args: StatusArgs) -> Result<()> {
    if ctx.printer.form() == Form::Name {
        return Err(Error::usage(
            "status has no list of names: -o takes table, wide or json here",
        ));
    }
    let now = SystemTime::now();
    let stale_after = args.stale_after;
    let mut attention = Vec::new();

    let mut snap = ctx.registry.read()?;
    snap.check_files(crate::exit::advised);
    let state = snap.state();
    let head = ctx.registry.head()?;
    let storage = ctx.registry.storage()?;

    // Plugins: the current instance of each, its socket asked now.
    let current: Vec<(&str, &str, &Instance)> = state
        .plugins
        .iter()
        .flat_map(|(f, plugins)| {
            plugins
                .iter()
                .filter_map(move |(n, list)| list.first().map(|i| (f.as_str(), n.as_str(), i)))
        })
        .collect();
    let sockets = super::plugin::probe(&current.iter().map(|c| c.2).collect::<Vec<_>>()).await;
    let mut plugins = Plugins::default();
    let mut newest: Option<SystemTime> = None;
    for ((family, name, inst), socket) in current.iter().zip(&sockets) {
        if inst.source != Source::Dynamic
            && let Ok(at) = humantime::parse_rfc3339_weak(&inst.updated_at)
        {
            newest = Some(newest.map_or(at, |n| n.max(at)));
        }
        let (healthy, error) = match socket {
            Some(st) => (st.accepts, st.error.clone()),
            None => (inst.healthy, inst.error.clone()),
        };
        if healthy {
            plugins.healthy += 1;
            continue;
        }
        let gone = inst.source == Source::File
            && inst.path.as_deref().is_some_and(|p| {
                plugctl_core::verdict::file_problem(p)
                    .is_some_and(|why| plugctl_core::verdict::is_deleted(&why))
            });
        let reason = error.unwrap_or_else(|| "recorded unhealthy".into());
        if gone {
            plugins.gone += 1;
        } else {
            plugins.unhealthy += 1;
        }
        attention.push(format!(
            "plugin {}/{} is {}: {}",
            sanitize_cell(family),
            sanitize_cell(name),
            if gone { "gone" } else { "unhealthy" },
            reason
        ));
        plugins.problems.push(Problem {
            family: family.to_string(),
            name: name.to_string(),
            state: if gone { "gone" } else { "unhealthy" },
            reason,
        });
    }

    // Volumes by state; those left pending or deleting by a plugctl that
    // is gone need a repair.
    let owners = ctx.registry.owners();
    let mut volumes = Volumes::default();
    for v in state.volumes_sorted() {
        match v.state {
            VolumeState::Ready => volumes.ready += 1,
            VolumeState::Pending => volumes.pending += 1,
            VolumeState::Deleting => volumes.deleting += 1,
        }
        if v.state == VolumeState::Ready || v.in_progress(owners) {
            continue;
        }
        let note = super::volume::view::note(v, owners);
        attention.push(format!(
            "{} is {}: run `plugctl volume repair`",
            v.describe(),
            v.state.as_str()
        ));
        volumes.need_repair.push(Repair {
            id: v.id.to_string(),
            name: v.name.to_string(),
            namespace: v.namespace.to_string(),
            state: v.state.as_str(),
            note,
        });
    }

    // The last fingerprint: the newest check of a plugin from the
    // plugin directory (a registered plugin's time is its registration).
    let fingerprint = age(newest, now, stale_after);
    match (&fingerprint.at, fingerprint.stale) {
        (None, _) => attention.push(
            "no plugin was ever fingerprinted here: run `plugctl fingerprint` (or enable \
             plugctl-fingerprint.timer)"
                .into(),
        ),
        (Some(_), true) => attention.push(format!(
            "the last fingerprint is {} old (more than {}): is plugctl-fingerprint.timer \
             running?",
            words(fingerprint.age_seconds),
            humantime::format_duration(stale_after)
        )),
        _ => {}
    }

    let textfile = textfile(&args, now, stale_after);
    if let Some(t) = &textfile {
        if t.named && !t.exists {
            attention.push(format!(
                "{} is not there: node_exporter has no plugin health from this node (run \
                 `plugctl fingerprint --textfile {}`)",
                t.path.display(),
                t.path
                    .parent()
                    .map(plugctl_core::provenance::shell_path)
                    .unwrap_or_default()
            ));
        } else if t.age.stale {
            attention.push(format!(
                "{} is {} old (more than {}): node_exporter reports stale health",
                t.path.display(),
                words(t.age.age_seconds),
                humantime::format_duration(stale_after)
            ));
        }
    }

    let status = Status {
        ok: attention.is_empty(),
        attention,
        layout: layout(ctx),
        registry: RegistryStatus {
            path: ctx.registry.path().to_path_buf(),
            exists: head.exists,
            bytes: storage.file_bytes,
            node_id: state.node_id.clone(),
            seq: head.seq,
            journal_segments: storage.segments.len(),
            journal_bytes: storage.segments.iter().map(|(_, b)| b).sum(),
        },
        plugins,
        volumes,
        fingerprint,
        textfile,
        kernel: kernel_support::probe(),
    };
    if ctx.printer.json {
        ctx.printer.document_from(&status)?;
    } else {
        print(ctx, &status)?;
    }
    if status.ok {
        Ok(())
    } else {
        Err(Error::Failed(format!(
            "status: {} to look at on this node",
            crate::render::plural(status.attention.len(), "thing")
        )))
    }
}

fn age(at: Option<SystemTime>, now: SystemTime, stale_after: Duration) -> Age {
    let age = at.map(|t| now.duration_since(t).unwrap_or(Duration::ZERO));
    Age {
        at: at.map(|t| humantime::format_rfc3339_millis(t).to_string()),
        age_seconds: age.map(|a| a.as_secs()),
        stale: age.is_some_and(|a| a > stale_after),
    }
}

/// An age in words: `5 min`, `3 h`, `never`.
fn words(seconds: Option<u64>) -> String {
    match seconds {
        None => "never".into(),
        Some(s) => {
            let ago = crate::readable::age(
                SystemTime::UNIX_EPOCH,
                SystemTime::UNIX_EPOCH + Duration::from_secs(s),
            );
            ago.trim_end_matches(" ago").to_string()
        }
    }
}

/// The textfile to look at: the directory named, else Debian's as root
/// when it exists, else none.
fn textfile(args: &StatusArgs, now: SystemTime, stale: Duration) -> Option<Textfile> {
    let (dir, named) = match &args.textfile {
        Some(dir) => (dir.clone(), true),
        None => {
            let debian = Path::new(DEBIAN_TEXTFILE_DIR);
            if !(nix::unistd::geteuid().is_root() && debian.is_dir()) {
                return None;
            }
            (debian.to_path_buf(), false)
        }
    };
    let path = std::path::absolute(&dir).unwrap_or(dir).join(TEXTFILE);
    // Its time only: nothing in it is read.
    let modified = std::fs::symlink_metadata(&path)
        .ok()
        .filter(|m| m.is_file())
        .and_then(|m| m.modified().ok());
    Some(Textfile {
        exists: modified.is_some(),
        path,
        named,
        age: age(modified, now, stale),
    })
}

fn layout(ctx: &Ctx) -> Layout {
    let s = &ctx.settings;
    let l = &s.layout;
    let dir = |path: &Path, from: &crate::settings::Origin| Dir {
        path: path.to_path_buf(),
        from: from.to_string(),
    };
    Layout {
        agent_config: l.agent.as_ref().map(|a| AgentConfig {
            paths: a.paths.clone(),
            from: a.origin.to_string(),
            files: a.files.clone(),
        }),
        plugin_dir: dir(&s.plugin_dir, &l.plugin_dir),
        host_volume_plugin_dir: dir(&s.host_volume_plugin_dir, &l.host_volume_plugin_dir),
        volumes_dir: dir(&s.volumes_dir, &l.volumes_dir),
    }
}

/// The screen: the verdict and what needs attention first, then one
/// section a line (and its details indented below), each line cut to
/// the terminal (`-o wide` and a pipe: whole).
fn print(ctx: &Ctx, st: &Status) -> Result<()> {
    let p = &ctx.printer;
    let mut lines: Vec<(String, Style)> = Vec::new();
    let mut add = |text: String, style: Style| lines.push((text, style));
    if st.ok {
        add("● this node is fine".into(), Style::Good);
    } else {
        add(
            format!(
                "● this node needs attention: {}",
                crate::render::plural(st.attention.len(), "thing")
            ),
            Style::Bad,
        );
        for a in &st.attention {
            add(format!("  ! {a}"), Style::Bad);
        }
    }
    add(String::new(), Style::Plain);

    let key = |k: &str| format!("{k:<14} ");
    let indent = " ".repeat(15);
    let l = &st.layout;
    match &l.agent_config {
        None => add(format!("{}none read", key("agent config")), Style::Plain),
        Some(a) => {
            let paths: Vec<String> = a.paths.iter().map(|p| p.display().to_string()).collect();
            add(
                format!("{}{} ({})", key("agent config"), paths.join(", "), a.from),
                Style::Plain,
            );
        }
    }
    for (k, d) in [
        ("plugin dir", &l.plugin_dir),
        ("volume plugins", &l.host_volume_plugin_dir),
        ("volumes dir", &l.volumes_dir),
    ] {
        add(
            format!("{}{} ({})", key(k), d.path.display(), d.from),
            Style::Plain,
        );
    }

    let r = &st.registry;
    let registry = if r.exists {
        format!(
            "{}{} ({}; last event {}; journal: {} of {})",
            key("registry"),
            r.path.display(),
            crate::readable::size(r.bytes.unwrap_or(0)),
            r.seq,
            crate::render::plural(r.journal_segments, "segment"),
            crate::readable::size(r.journal_bytes)
        )
    } else {
        format!("{}{} (not made yet)", key("registry"), r.path.display())
    };
    add(registry, Style::Plain);
    if let Some(id) = &r.node_id {
        add(format!("{}{id}", key("node id")), Style::Plain);
    }

    let pl = &st.plugins;
    add(
        format!(
            "{}{} healthy, {} unhealthy, {} gone",
            key("plugins"),
            pl.healthy,
            pl.unhealthy,
            pl.gone
        ),
        if pl.problems.is_empty() {
            Style::Plain
        } else {
            Style::Warn
        },
    );
    for pr in &pl.problems {
        add(
            format!(
                "{indent}{}/{}: {}: {}",
                pr.family, pr.name, pr.state, pr.reason
            ),
            Style::Plain,
        );
    }

    let v = &st.volumes;
    add(
        format!(
            "{}{} ready, {} pending, {} deleting",
            key("volumes"),
            v.ready,
            v.pending,
            v.deleting
        ),
        if v.need_repair.is_empty() {
            Style::Plain
        } else {
            Style::Warn
        },
    );
    for rep in &v.need_repair {
        add(
            format!(
                "{indent}{} {} (namespace {}): {}{}",
                rep.id,
                plugctl_core::escape::quote(&rep.name),
                rep.namespace,
                rep.state,
                rep.note
                    .as_ref()
                    .map(|n| format!(": {n}"))
                    .unwrap_or_default()
            ),
            Style::Plain,
        );
    }

    let f = &st.fingerprint;
    add(
        match &f.at {
            None => format!("{}never", key("fingerprint")),
            Some(at) => format!("{}{} ago ({at})", key("fingerprint"), words(f.age_seconds)),
        },
        if f.stale || f.at.is_none() {
            Style::Warn
        } else {
            Style::Plain
        },
    );
    match &st.textfile {
        None => add(
            format!(
                "{}none looked at (--textfile DIR or PLUGCTL_TEXTFILE_DIR names one)",
                key("textfile")
            ),
            Style::Dim,
        ),
        Some(t) if !t.exists => add(
            format!("{}{} is not there", key("textfile"), t.path.display()),
            if t.named { Style::Warn } else { Style::Plain },
        ),
        Some(t) => add(
            format!(
                "{}{} ({} ago)",
                key("textfile"),
                t.path.display(),
                words(t.age.age_seconds)
            ),
            if t.age.stale {
                Style::Warn
            } else {
                Style::Plain
            },
        ),
    }

    // PROVISIONAL (see plugctl_core::kernel_support): what this kernel
    // offers a sandbox, until the sandbox module reports it itself.
    let k = &st.kernel;
    add(
        format!(
            "{}{}",
            key("sandbox"),
            match (k.landlock_abi, &k.landlock_reason) {
                (Some(abi), _) => format!("Landlock ABI {abi}"),
                (None, Some(why)) => format!("no Landlock ({why})"),
                (None, None) => "no Landlock".into(),
            }
        ),
        Style::Plain,
    );
    add(
        format!("{indent}seccomp: {}", if k.seccomp { "yes" } else { "no" }),
        Style::Plain,
    );
    let have: Vec<&str> = k
        .namespaces
        .iter()
        .filter(|(_, there)| *there)
        .map(|(ns, _)| ns.as_str())
        .collect();
    let users = match k.max_user_namespaces {
        Some(0) => " (user namespaces off: user.max_user_namespaces is 0)",
        _ => "",
    };
    add(
        format!("{indent}namespaces: {}{users}", have.join(" ")),
        Style::Plain,
    );
    add(
        format!(
            "{indent}cgroup v2: {}",
            if k.cgroup_v2 {
                if k.cgroup_controllers.is_empty() {
                    "yes".to_string()
                } else {
                    k.cgroup_controllers.join(" ")
                }
            } else {
                "no".to_string()
            }
        ),
        Style::Plain,
    );

    let width = p.fit_width();
    let mut text = String::new();
    for (line, style) in lines {
        let shown = match width {
            Some(w) => fit::cell(&line, w, Cut::End),
            None => std::borrow::Cow::Owned(sanitize_cell(&line)),
        };
        text.push_str(&p.paint(&shown, style));
        text.push('\n');
    }
    p.text(&text)
}

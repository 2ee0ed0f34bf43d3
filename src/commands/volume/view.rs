//! `volume list` and `volume show`, and the JSON shape of a volume.
//!
//! A list is printed straight from the records read: the JSON document is
//! serialized as it is written, and the table is measured in one pass and
//! printed in a second (no `serde_json::Value` tree, no copy of 100,000
//! rows).

use plugctl_core::usage::Usage;
use std::borrow::Cow;

use serde::Serialize;
use serde::ser::{SerializeSeq, Serializer};

use super::super::Ctx;
use crate::cli::{VolumeListArgs, VolumeSelector, VolumeStateArg};
use crate::fit::Column;
use crate::output::{Form, Style, quote, sanitize_cell, value};
use crate::{Error, Result};
use plugctl_core::families::host_volume;
use plugctl_core::registry::Owners;
use plugctl_core::registry::find::ShortIds;
use plugctl_core::registry::model::{Owner, Params};
use plugctl_core::registry::{State, Volume, VolumeState};

/// `volume list`, filtered by plugin, namespace, state and a name pattern.
pub fn list(ctx: &Ctx, args: &VolumeListArgs) -> Result<()> {
    let pattern = args.name.as_deref().map(name_pattern).transpose()?;
    let states: Vec<VolumeState> = args.state.iter().map(|s| state_of(*s)).collect();
    let (plugin, namespace) = (args.plugin.as_deref(), args.namespace.as_deref());
    let snap = ctx.registry.read()?;
    let volumes: Vec<&Volume> = snap
        .state()
        .volumes_sorted()
        .into_iter()
        .filter(|v| plugin.is_none_or(|p| v.plugin == p))
        .filter(|v| namespace.is_none_or(|ns| v.namespace == ns))
        .filter(|v| states.is_empty() || states.contains(&v.state))
        .filter(|v| pattern.as_ref().is_none_or(|p| p.matches(&v.name)))
        .collect();
    if volumes.is_empty() && !ctx.printer.json {
        // Said on stderr, so a script reading the table gets no lines.
        let mut says = "no volumes".to_string();
        if !states.is_empty() {
            let words: Vec<&str> = states.iter().map(|s| s.as_str()).collect();
            says = format!("no {} volumes", words.join(" or "));
        }
        if let Some(glob) = &args.name {
            says.push_str(&format!(" named like {}", quote(glob)));
        }
        if let Some(ns) = namespace {
            says.push_str(&format!(" in namespace {}", sanitize_cell(ns)));
        }
        if let Some(p) = plugin {
            says.push_str(&format!(" of plugin {}", sanitize_cell(p)));
        }
        ctx.printer.info(says);
        return Ok(());
    }
    print_volumes(ctx, snap.state(), &volumes)
}

fn state_of(s: VolumeStateArg) -> VolumeState {
    match s {
        VolumeStateArg::Pending => VolumeState::Pending,
        VolumeStateArg::Ready => VolumeState::Ready,
        VolumeStateArg::Deleting => VolumeState::Deleting,
    }
}

/// `--name GLOB` as a pattern: `*`, `?` and `[...]` as the shell has them,
/// matched against the whole name (a `/` in a name is a character like
/// any other). A bad pattern is a usage error that says what is wrong.
fn name_pattern(glob: &str) -> Result<glob::Pattern> {
    glob::Pattern::new(glob).map_err(|e| {
        Error::usage(format!(
            "--name {} is not a pattern plugctl reads: {} (at character {}); * matches any \
             text, ? one character, [abc] one of those; [*] matches a * itself",
            quote(glob),
            e.msg,
            e.pos + 1
        ))
    })
}

pub fn show(ctx: &Ctx, selector: &VolumeSelector) -> Result<()> {
    let snap = ctx.registry.read()?;
    let v = super::select::one(snap.state(), selector)?;
    let warnings = ready_warnings(ctx, v);
    if ctx.printer.json {
        return print_one(ctx, v, warnings);
    }
    if ctx.printer.form() == Form::Name {
        return ctx.printer.names([&*v.id]);
    }
    let params = if v.parameters.is_empty() {
        "-".to_string()
    } else {
        host_volume::encode_parameters(&v.parameters.to_map())
    };
    let capacity = |n: u64| {
        if n == 0 {
            "-".to_string()
        } else {
            crate::readable::size(n)
        }
    };
    let mut rows = vec![
        ("id", value(v.id.as_ref()).into_owned()),
        ("name", value(v.name.as_ref()).into_owned()),
        ("namespace", value(v.namespace.as_ref()).into_owned()),
        ("plugin", value(v.plugin.as_ref()).into_owned()),
        ("state", v.state.as_str().to_string()),
        ("path", value(v.path.as_ref()).into_owned()),
        ("size", crate::readable::signed_size(v.bytes)),
        ("capacity min", capacity(v.capacity_min)),
        ("capacity max", capacity(v.capacity_max)),
        ("parameters", params),
        ("node id", value(v.node_id.as_ref()).into_owned()),
        ("node pool", value(v.node_pool.as_ref()).into_owned()),
        (
            "volumes dir",
            value(v.volumes_dir.as_deref().unwrap_or("-")).into_owned(),
        ),
        ("created", v.created_at.to_string()),
        ("updated", v.updated_at.to_string()),
    ];
    if let Some(note) = note(v, ctx.registry.owners()) {
        rows.push(("note", note));
    }
    for w in warnings {
        rows.push(("warning", w));
    }
    let rows: Vec<Vec<(String, Style)>> = rows
        .into_iter()
        .map(|(k, val)| vec![(k.to_string(), Style::Dim), (val, Style::Plain)])
        .collect();
    ctx.printer.table(&["FIELD", "VALUE"], &rows)
}

/// Path warnings of a ready volume, against the directory it was created in.
pub fn ready_warnings(ctx: &Ctx, v: &Volume<'_>) -> Vec<String> {
    if v.state != VolumeState::Ready {
        return Vec::new();
    }
    let dir = v.volumes_dir().unwrap_or(&ctx.settings.volumes_dir);
    host_volume::warnings_of(&v.path, v.bytes, dir)
}

/// A volume as scripts see it: every recorded field, `error` always
/// present, `in_progress` (another live plugctl runs its create or delete)
/// and `warnings` when given. Keys in alphabetical order, as they always
/// were.
#[derive(Serialize)]
pub struct VolumeJson<'r, 'a> {
    bytes: i64,
    capacity_max: u64,
    capacity_min: u64,
    created_at: &'r str,
    error: Option<&'r str>,
    id: &'r str,
    in_progress: bool,
    name: &'r str,
    namespace: &'r str,
    node_id: &'r str,
    node_pool: &'r str,
    #[serde(skip_serializing_if = "Option::is_none")]
    owner: Option<Owner>,
    parameters: &'r Params<'a>,
    path: &'r str,
    plugin: &'r str,
    /// `pending`, `ready`, `deleting`, or `deleted` after a delete.
    state: &'static str,
    updated_at: &'r str,
    #[serde(skip_serializing_if = "Option::is_none")]
    volumes_dir: Option<&'r str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    warnings: Option<Vec<String>>,
}

impl<'r, 'a> VolumeJson<'r, 'a> {
    /// `owners` (the registry's) tell whether its recorded owner still
    /// runs.
    pub fn new(v: &'r Volume<'a>, warnings: Option<Vec<String>>, owners: &Owners) -> Self {
        VolumeJson {
            bytes: v.bytes,
            capacity_max: v.capacity_max,
            capacity_min: v.capacity_min,
            created_at: &v.created_at,
            error: v.error.as_deref(),
            id: &v.id,
            in_progress: v.in_progress(owners),
            name: &v.name,
            namespace: &v.namespace,
            node_id: &v.node_id,
            node_pool: &v.node_pool,
            owner: v.owner,
            parameters: &v.parameters,
            path: &v.path,
            plugin: &v.plugin,
            state: v.state.as_str(),
            updated_at: &v.updated_at,
            volumes_dir: v.volumes_dir.as_deref(),
            warnings,
        }
    }
}

/// What `volume delete` and `volume forget` print of a volume that went,
/// with `--json`: `{"deleted": true, "volume": {...}}` (or `forgotten`),
/// the record as it was but its `state`, that word.
pub fn print_gone(
    ctx: &Ctx,
    v: &Volume<'_>,
    gone: &'static str,
    usage: Option<&Usage>,
) -> Result<()> {
    struct Gone<'r, 'a> {
        gone: &'static str,
        volume: VolumeJson<'r, 'a>,
        usage: Option<&'r Usage>,
    }
    impl Serialize for Gone<'_, '_> {
        fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut m = s.serialize_map(None)?;
            m.serialize_entry(self.gone, &true)?;
            m.serialize_entry("volume", &self.volume)?;
            // The delete's call, when a plugin ran (not for forget).
            if let Some(u) = self.usage {
                m.serialize_entry("usage", u)?;
            }
            m.end()
        }
    }
    let mut volume = VolumeJson::new(v, Some(Vec::new()), ctx.registry.owners());
    volume.state = gone;
    ctx.printer.document_from(&Gone {
        gone,
        volume,
        usage,
    })
}

/// What a human should know about a volume beyond its state (`owners`,
/// the registry's, tell whether its recorded owner still runs).
pub fn note(v: &Volume<'_>, owners: &Owners) -> Option<String> {
    if let Some(o) = v.owner.filter(|o| owners.is_other_live(o)) {
        let what = if v.state == VolumeState::Deleting {
            "delete"
        } else {
            "create"
        };
        return Some(format!("{what} running (plugctl pid {})", o.pid));
    }
    match (v.state, v.error.as_deref()) {
        (VolumeState::Pending, Some(e)) if e.starts_with("create failed") => {
            Some(format!("{e}; run volume repair"))
        }
        (VolumeState::Pending, Some(e)) => Some(format!("create failed: {e}; run volume repair")),
        (VolumeState::Pending, None) => Some("create interrupted; run volume repair".into()),
        (VolumeState::Deleting, _) => Some("delete interrupted; run volume repair".into()),
        (VolumeState::Ready, Some(e)) => Some(format!("last update or delete failed: {e}")),
        (VolumeState::Ready, None) => None,
    }
}

/// `{"volume": {...}}`.
pub fn print_one(ctx: &Ctx, v: &Volume<'_>, warnings: Vec<String>) -> Result<()> {
    #[derive(Serialize)]
    struct One<'r, 'a> {
        volume: VolumeJson<'r, 'a>,
    }
    ctx.printer.document_from(&One {
        volume: VolumeJson::new(v, Some(warnings), ctx.registry.owners()),
    })
}

/// What `volume create` prints: `{"action": ..., "volume": {...}}` (the
/// action `created`, `updated` or `unchanged`), or the one-row table.
pub fn print_created(
    ctx: &Ctx,
    v: &Volume<'_>,
    warnings: Vec<String>,
    action: &'static str,
    usage: Option<&Usage>,
) -> Result<()> {
    if ctx.printer.json {
        #[derive(Serialize)]
        struct Created<'r, 'a> {
            action: &'static str,
            volume: VolumeJson<'r, 'a>,
            /// The create's call, when a plugin ran (not the built-in).
            #[serde(skip_serializing_if = "Option::is_none")]
            usage: Option<&'r Usage>,
        }
        return ctx.printer.document_from(&Created {
            action,
            volume: VolumeJson::new(v, Some(warnings), ctx.registry.owners()),
            usage,
        });
    }
    if ctx.printer.form() == Form::Name {
        return ctx.printer.names([&*v.id]);
    }
    // The state the create's transaction left (no second parse), for the
    // length its id needs.
    let snap = ctx.registry.latest()?;
    print_volumes(ctx, snap.state(), &[v])
}

/// `volume list`: a table, or `{"volumes": [...]}`, each straight from its
/// record.
pub fn print_volumes(ctx: &Ctx, state: &State<'_>, volumes: &[&Volume<'_>]) -> Result<()> {
    if ctx.printer.json {
        /// The list, serialized one volume at a time.
        struct All<'r, 'a, 'c> {
            volumes: &'r [&'r Volume<'a>],
            ctx: &'c Ctx,
        }
        impl Serialize for All<'_, '_, '_> {
            fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                let mut seq = s.serialize_seq(Some(self.volumes.len()))?;
                for v in self.volumes {
                    seq.serialize_element(&VolumeJson::new(
                        v,
                        Some(ready_warnings(self.ctx, v)),
                        self.ctx.registry.owners(),
                    ))?;
                }
                seq.end()
            }
        }
        #[derive(Serialize)]
        struct Doc<'r, 'a, 'c> {
            volumes: All<'r, 'a, 'c>,
        }
        return ctx.printer.document_from(&Doc {
            volumes: All { volumes, ctx },
        });
    }
    if ctx.printer.form() == Form::Name {
        // Whole ids: a name is unique only in its namespace.
        return ctx.printer.names(volumes.iter().map(|v| &*v.id));
    }
    let full_ids = ctx.printer.verbose() > 0;
    let ids = state.short_ids();
    ctx.printer.table_from(
        &[
            Column::keep("ID"),
            Column::text("NAME"),
            Column::keep("NAMESPACE"),
            Column::keep("PLUGIN"),
            Column::keep("STATE"),
            Column::keep("SIZE"),
            // On a terminal, for -o wide: the id names the volume, and
            // `volume show` has its path.
            Column::path("PATH").wide(),
            Column::text("NOTE"),
        ],
        || {
            volumes.iter().map(|v| {
                let style = match v.state {
                    VolumeState::Ready if v.error.is_none() => Style::Good,
                    VolumeState::Ready => Style::Warn,
                    _ => Style::Bad,
                };
                vec![
                    (Cow::Borrowed(table_id(&ids, &v.id, full_ids)), Style::Plain),
                    (value(v.name.as_ref()), Style::Plain),
                    (value(v.namespace.as_ref()), Style::Plain),
                    (value(v.plugin.as_ref()), Style::Plain),
                    (Cow::Borrowed(v.state.as_str()), style),
                    (
                        Cow::Owned(crate::readable::signed_size(v.bytes)),
                        Style::Plain,
                    ),
                    (value(v.path.as_ref()), Style::Plain),
                    (
                        note(v, ctx.registry.owners()).map_or(Cow::Borrowed(""), Cow::Owned),
                        Style::Dim,
                    ),
                ]
            })
        },
    )
}

/// A volume's id as a table shows it: its first 8 characters, as `nomad
/// volume status` shows them, or more when another volume's id starts the
/// same (enough to name it again: `volume show` takes a prefix), or the
/// whole id with `-v`. JSON always has it whole.
pub fn table_id<'i>(ids: &ShortIds<'_>, id: &'i str, full: bool) -> &'i str {
    if full { id } else { ids.of(id) }
}

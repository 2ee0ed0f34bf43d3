//! `plugctl plugin list|show`: what the registry knows about plugins.

use serde_json::{Value, json};

use super::Ctx;
use crate::cli::PluginCommand;
use crate::discovery;
use crate::output::{Style, short_duration};
use crate::registry::{Instance, Source};
use crate::{Error, Result};

pub async fn run(ctx: &Ctx, cmd: PluginCommand) -> Result<()> {
    match cmd {
        PluginCommand::List { family } => list(ctx, family.as_deref()),
        PluginCommand::Show {
            family,
            name,
            alloc_id,
        } => show(ctx, &family, &name, alloc_id.as_deref()),
        _ => Err(Error::Failed(
            "plugin register/deregister/wait: not implemented yet".into(),
        )),
    }
}

/// An instance as scripts see it: the registry record plus its family and name.
pub fn instance_json(family: &str, name: &str, inst: &Instance) -> Value {
    let mut v = serde_json::to_value(inst).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut v {
        m.insert("type".into(), family.into());
        m.insert("name".into(), name.into());
    }
    v
}

fn where_from(inst: &Instance) -> String {
    match inst.source {
        Source::File => inst
            .path
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        Source::Builtin => "built-in".into(),
        Source::Dynamic => format!(
            "alloc {} socket {}",
            inst.alloc_id.as_deref().unwrap_or("?"),
            inst.socket
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default()
        ),
    }
}

fn row(family: &str, name: &str, inst: &Instance) -> Vec<(String, Style)> {
    let health = if inst.healthy {
        ("healthy", Style::Good)
    } else {
        ("unhealthy", Style::Bad)
    };
    vec![
        (family.to_string(), Style::Plain),
        (name.to_string(), Style::Plain),
        (
            inst.version.clone().unwrap_or_else(|| "-".into()),
            Style::Plain,
        ),
        (health.0.into(), health.1),
        (
            inst.duration_ms
                .map(short_duration)
                .unwrap_or_else(|| "-".into()),
            Style::Dim,
        ),
        (where_from(inst), Style::Plain),
        (inst.error.clone().unwrap_or_default(), Style::Plain),
    ]
}

const HEADERS: [&str; 7] = [
    "TYPE", "NAME", "VERSION", "HEALTH", "DURATION", "FROM", "REASON",
];

pub fn list(ctx: &Ctx, family: Option<&str>) -> Result<()> {
    if let Some(f) = family {
        discovery::require_name("plugin type", f)?;
    }
    let state = ctx.registry.read()?;
    let mut current = Vec::new();
    for (fam, plugins) in &state.plugins {
        if family.is_some_and(|f| f != fam) {
            continue;
        }
        for (name, instances) in plugins {
            if let Some(inst) = instances.first() {
                current.push((fam.as_str(), name.as_str(), inst));
            }
        }
    }
    if ctx.printer.json {
        let plugins: Vec<Value> = current
            .iter()
            .map(|(f, n, i)| instance_json(f, n, i))
            .collect();
        return ctx.printer.document(json!({ "plugins": plugins }));
    }
    let rows: Vec<_> = current.iter().map(|(f, n, i)| row(f, n, i)).collect();
    ctx.printer.table(&HEADERS, &rows)
}

pub fn show(ctx: &Ctx, family: &str, name: &str, alloc_id: Option<&str>) -> Result<()> {
    discovery::require_name("plugin type", family)?;
    discovery::require_name("plugin", name)?;
    let state = ctx.registry.read()?;
    let instances: Vec<&Instance> = state
        .instances(family, name)
        .iter()
        .filter(|i| alloc_id.is_none_or(|a| i.alloc_id.as_deref() == Some(a)))
        .collect();
    if instances.is_empty() {
        let what = match alloc_id {
            Some(a) => format!("{family}/{name} with alloc id {a}"),
            None => format!(
                "{family}/{name} in registry {}",
                ctx.registry.path().display()
            ),
        };
        return Err(Error::NotFound {
            what: "plugin",
            name: what,
        });
    }
    if ctx.printer.json {
        let list: Vec<Value> = instances
            .iter()
            .map(|i| instance_json(family, name, i))
            .collect();
        return ctx.printer.document(json!({
            "type": family,
            "name": name,
            "instances": list,
        }));
    }
    let rows: Vec<_> = instances.iter().map(|i| row(family, name, i)).collect();
    ctx.printer.table(&HEADERS, &rows)
}

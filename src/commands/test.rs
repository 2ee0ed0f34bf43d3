//! `plugctl test TYPE NAME`: the conformance suite for one plugin.

use std::sync::Arc;

use serde_json::json;

use super::Ctx;
use crate::cli::{ReportFormat, TestArgs};
use crate::{Error, Result};
use plugctl_core::conformance::Outcome;
use plugctl_core::conformance::report;
use plugctl_core::conformance::suite::{self, Options};
use plugctl_core::discovery;
use plugctl_core::family::Family;

pub async fn run(ctx: &Ctx, args: TestArgs) -> Result<()> {
    let format = super::report_format(&ctx.printer, args.format)?;
    discovery::require_name("plugin type", &args.family)?;
    // Every family plugctl knows has a suite.
    let Some(family) = Family::of(&args.family) else {
        return Err(Error::usage(format!(
            "no conformance suite for the {} family; there is one for {} and {}",
            plugctl_core::escape::quote_os(&args.family),
            Family::HostVolume,
            Family::Secrets
        ))
        .did_you_mean(&args.family, Family::ALL.map(Family::name)));
    };
    ctx.settings.nomad.require_family(family)?;
    for warning in crate::layout::check_layout(&ctx.settings, Some(family.name()))?.warnings {
        ctx.printer.warn(warning);
    }
    let dir = ctx.settings.family_dir(family.name());
    let entry = match discovery::find(family.name(), &dir, &args.name, ctx.settings.nomad) {
        // A plugin the registry knows that is gone: the suite fails it
        // for the reason `fingerprint` gives (not "not found").
        Err(e)
            if matches!(e.inner(), Error::NotFound { .. }) && recorded(ctx, family, &args.name) =>
        {
            discovery::Entry {
                family: family.name().to_string(),
                path: dir.join(&args.name),
                kind: discovery::EntryKind::Rejected(crate::exit::advised(
                    &plugctl_core::verdict::deleted(&dir.join(&args.name)),
                    &plugctl_core::verdict::forget(family.name(), &args.name),
                )),
                name: args.name.clone(),
            }
        }
        other => other?,
    };
    if let Some(t) = args.run.timeout
        && t.is_zero()
    {
        return Err(Error::usage("--timeout must be more than 0"));
    }
    let opts = Options {
        path: args.path.clone(),
        env: args.env.clone(),
        keep: args.keep,
        deadline: args.run.timeout,
        grace: args.run.grace,
        max_bytes: args.max_bytes,
        check_absurd_capacity: args.check_absurd_capacity,
        stop: ctx.stop.clone(),
        nomad: ctx.settings.nomad,
        plugin_dir: ctx.settings.host_volume_plugin_dir.clone(),
        node_pool: ctx.settings.node_pool.clone(),
        node_id: ctx.settings.node_id.clone(),
        policy: ctx.settings.policy(),
    };
    let result = suite::run(Arc::clone(&ctx.pool), &entry, &opts).await?;
    let mut rep = result.report;
    rep.advise(crate::exit::advised);
    // With --strict a warning (a matter of style) fails too.
    let failed = rep
        .checks_run
        .iter()
        .filter(|c| c.outcome == Outcome::Failed || args.strict && c.outcome == Outcome::Warned)
        .count();
    let ok = failed == 0;
    let id = format!("{}/{}", args.family, args.name);
    if let Some(dir) = &result.kept {
        ctx.printer.warn(format!(
            "--keep: the scratch directory and its volumes are in {}",
            dir.display()
        ));
    }
    match format {
        ReportFormat::Human => {
            ctx.printer
                .text(&crate::render::human_checks(&rep, &ctx.printer, &id, ok))?
        }
        ReportFormat::Json => ctx.printer.document_from(&report::json(
            &rep,
            ok,
            json!({
                "type": args.family,
                "name": args.name,
                "path": (!entry.path.as_os_str().is_empty()).then_some(&entry.path),
                "scratch_dir": result.kept,
            }),
        ))?,
        ReportFormat::Junit => {
            let suite = format!("plugctl test {id}");
            ctx.printer
                .stream(|w| crate::render::write_junit(&rep, &suite, args.strict, w))?
        }
    }
    if ok {
        Ok(())
    } else {
        Err(Error::Failed(format!(
            "{id}: {failed} of {} failed{}",
            crate::render::plural(rep.checks_run.len(), "conformance check"),
            if args.strict {
                " (--strict: warnings fail too)"
            } else {
                ""
            }
        )))
    }
}

/// Whether the registry holds a fingerprinted file of this plugin.
fn recorded(ctx: &Ctx, family: Family, name: &str) -> bool {
    ctx.registry.read().is_ok_and(|snap| {
        snap.state()
            .instances(family.name(), name)
            .first()
            .is_some_and(|i| i.source == plugctl_core::registry::Source::File)
    })
}

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
        // Not there, and `./TYPE/NAME` is (made by `init` here): say so.
        Err(e) if matches!(e.inner(), Error::NotFound { .. }) => {
            return Err(
                match crate::layout::here_instead(
                    &ctx.settings,
                    Some(family.name()),
                    Some(&args.name),
                ) {
                    Some(here) => e.map_inner(|inner| match inner {
                        Error::NotFound { what, name } => Error::NotFound {
                            what,
                            name: format!("{name}; {here}"),
                        },
                        other => other,
                    }),
                    None => e,
                },
            );
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
    if args.propose_policy {
        return propose(ctx, &args, &entry, &opts, format).await;
    }
    // The level and policy its calls run under.
    let confinement = ctx
        .pool
        .sandbox()
        .confinement(&plugctl_core::runner::Invocation::new(
            &entry.path,
            std::time::Duration::ZERO,
            std::time::Duration::ZERO,
        ));
    if confinement.level != plugctl_core::sandbox::Level::None || confinement.from_file {
        ctx.printer.info(format!(
            "sandbox: {}",
            crate::output::sanitize_cell(&confinement.describe())
        ));
    }
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
                "sandbox": super::plan::sandbox_json(&confinement),
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

/// `--propose-policy`: the smallest policy under which the suite passes
/// under strict whatever passes under none, on stdout as a policy file
/// (one entry) to review and merge into the plugins' own; how it was found
/// on stderr. Exit 1 when no policy was found that passes.
async fn propose(
    ctx: &Ctx,
    args: &TestArgs,
    entry: &discovery::Entry,
    opts: &Options,
    format: ReportFormat,
) -> Result<()> {
    use plugctl_core::sandbox::{Level, PolicyFile};
    if ctx.settings.sandbox.level != Level::Strict {
        return Err(Error::usage(
            "--propose-policy proposes a policy for --sandbox strict: pass --sandbox strict",
        ));
    }
    if format == ReportFormat::Junit {
        return Err(Error::usage(
            "--propose-policy prints a policy (human or JSON), not a JUnit report",
        ));
    }
    let id = format!("{}/{}", args.family, args.name);
    ctx.printer.info(format!(
        "running the suite of {id} under strict and none, then a layer at a time..."
    ));
    let p = plugctl_core::conformance::propose::propose(Arc::clone(&ctx.pool), entry, opts).await?;
    let mut file = PolicyFile::default();
    file.plugins.insert(id.clone(), p.policy.clone());
    let text = file.to_json();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    let policy_path = ctx.settings.policy_file();
    let layers = |l: &[plugctl_core::sandbox::Layer]| -> Vec<String> {
        l.iter().map(ToString::to_string).collect()
    };
    if ctx.printer.json {
        ctx.printer.document(json!({
            "type": args.family,
            "name": args.name,
            "policy_file": policy_path,
            "policy": doc["plugins"][&id],
            "stopped": p.stopped.iter().map(|(check, l)| json!({
                "check": check,
                "layers": l,
            })).collect::<Vec<_>>(),
            "lifted_together": p.together,
            "unresolved": p.unresolved,
            "failing_under_none": p.failing_anyway,
            "verified": p.verified,
            "suite_runs": p.runs,
        }))?;
    } else {
        if p.stopped.is_empty() {
            ctx.printer.info(format!(
                "strict stops nothing that passes under none: {id} needs no grant"
            ));
        } else {
            let n = p.stopped.len();
            ctx.printer.info(format!(
                "{n} {} under none and not under strict:",
                if n == 1 {
                    "check passes"
                } else {
                    "checks pass"
                }
            ));
            for (check, l) in &p.stopped {
                let by = if l.is_empty() {
                    format!("{} together", layers(&p.together).join(" and "))
                } else {
                    format!("{} (lifted alone, it passes)", layers(l).join(", or "))
                };
                ctx.printer.info(format!("  {check}: stopped by {by}"));
            }
        }
        for l in &p.unresolved {
            ctx.printer.warn(format!(
                "{l} still stops it, and no policy grant relaxes it for this plugin: run it \
                 under --sandbox trim, or name the paths it needs in read or write"
            ));
        }
        if !p.failing_anyway.is_empty() {
            ctx.printer.warn(format!(
                "failing under none too (the plugin's own, not the sandbox's): {}",
                p.failing_anyway.join(", ")
            ));
        }
        // Reviewed on a terminal: JSON's own escapes for what it leaves as
        // it is and would reorder what the operator reviews (a name's).
        let shown = if ctx.printer.stdout_is_terminal() {
            plugctl_core::escape::json_for_terminal(&text)
        } else {
            std::borrow::Cow::Borrowed(text.as_str())
        };
        ctx.printer.text(&shown)?;
        ctx.printer.info(format!(
            "{} ({} suite runs); put the entry in {}, review it, and pin it",
            if p.verified {
                "the suite passes under strict with this policy"
            } else {
                "NOT verified: the suite still fails under strict with this policy"
            },
            p.runs,
            policy_path.display()
        ));
    }
    if p.verified {
        Ok(())
    } else {
        Err(Error::Failed(format!(
            "{id}: no policy found under which strict passes what none passes"
        )))
    }
}

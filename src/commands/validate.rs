//! `plugctl validate [DIR]`: lint a plugin directory for CI.

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use super::Ctx;
use crate::cli::{ReportFormat, ValidateArgs};
use crate::render::plural;
use crate::{Error, Result};
use plugctl_core::conformance::report;
use plugctl_core::conformance::validate::{self, Options};
use plugctl_core::conformance::{Severity, matrix};

pub async fn run(ctx: &Ctx, args: ValidateArgs) -> Result<()> {
    let format = super::report_format(&ctx.printer, args.format)?;
    let mut settings = ctx.settings.clone();
    if let Some(dir) = &args.dir {
        let dir = std::path::absolute(dir)
            .map_err(|e| Error::usage(format!("bad directory {}: {e}", dir.display())))?;
        // DIR is a plugin directory laid out for development: its
        // host-volume plugins are in DIR/host-volume, unless the user set
        // them apart (--host-volume-plugin-dir or its variable). A node's
        // agent configuration describes the node, not DIR.
        if !settings.layout.host_volume_plugin_dir.explicit() {
            settings.host_volume_plugin_dir =
                dir.join(plugctl_core::family::Family::HostVolume.name());
            settings.layout.host_volume_plugin_dir = crate::settings::Origin::PluginDir;
        }
        // So does the lock file, unless it was named (--lockfile).
        let lockfile_follows =
            settings.lockfile == plugctl_core::pin::default_path(&settings.plugin_dir);
        settings.plugin_dir = dir;
        if lockfile_follows {
            settings.lockfile = plugctl_core::pin::default_path(&settings.plugin_dir);
        }
    }
    if !settings.plugin_dir.is_dir() {
        return Err(Error::usage(format!(
            "plugin directory {} does not exist or is not a directory",
            settings.plugin_dir.display()
        )));
    }
    let deadline = match args.run.timeout {
        Some(_) => Some(super::deadline(&args.run, Duration::ZERO)?),
        None => None,
    };
    let opts = Options {
        strict: args.strict,
        deadline,
        grace: args.run.grace,
        trust: (!settings.allow_insecure_paths)
            .then(|| std::sync::Arc::new(plugctl_core::trust::Trust::new(settings.policy()))),
        nomad: settings.nomad,
        releases: settings
            .nomad_releases
            .iter()
            .map(|r| plugctl_core::nomad::Profile::of(*r))
            .collect(),
        known: Arc::new(known_plugins(ctx)),
    };
    // Checked against DIR's lock file (--locked): a drifted or unpinned
    // plugin is not run, and its fingerprint check fails saying so. Its
    // calls are in the context's pool's table, which signals reach.
    let pool = Arc::new(super::plugin_pool(&settings, &ctx.printer)?.with_groups_of(&ctx.pool));
    let mut rep = validate::validate(&settings.dirs(), pool, &opts, &ctx.stop).await?;
    rep.advise(crate::exit::advised);
    rep.sort();
    let ok = rep.ok(args.strict);
    let title = settings.plugin_dir.display().to_string();
    let releases = (!settings.nomad_releases.is_empty()).then_some(&settings.nomad_releases[..]);
    match format {
        ReportFormat::Human => ctx.printer.text(&crate::render::human_findings(
            &rep,
            &ctx.printer,
            &title,
            ok,
            releases,
        ))?,
        ReportFormat::Json => ctx.printer.document_from(&report::json(
            &rep,
            ok,
            Extra {
                dir: &settings.plugin_dir,
                strict: args.strict,
                nomad_version: settings.nomad.release(),
                matrix: releases.map(|r| matrix::rows(&rep, r)),
            },
        ))?,
        ReportFormat::Junit => {
            let suite = format!("plugctl validate {title}");
            ctx.printer
                .stream(|w| crate::render::write_junit(&rep, &suite, args.strict, w))?
        }
    }
    if ok {
        return Ok(());
    }
    let errors = rep.count(plugctl_core::conformance::Severity::Error);
    let warnings = rep.count(plugctl_core::conformance::Severity::Warning);
    // The matrix's failures are errors too; say how many, as the human
    // report shows them in the table rather than among the findings.
    let cells = rep
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error && matrix::is_release_check(&f.check))
        .count();
    let errors = match cells {
        0 => plural(errors, "error"),
        n => format!(
            "{} ({} of them a plugin × release that would not work)",
            plural(errors, "error"),
            n
        ),
    };
    let warnings = plural(warnings, "warning");
    Err(Error::Failed(if args.strict {
        format!("validate --strict found {errors} and {warnings} in {title}")
    } else {
        format!("validate found {errors} and {warnings} in {title}")
    }))
}

/// The file plugins the registry knows, by their recorded paths: those in
/// the directory validated are judged as `fingerprint` judges them. A
/// registry that cannot be read only costs that (validate is also a CI
/// check on machines with none).
fn known_plugins(ctx: &Ctx) -> validate::Known {
    let snap = match ctx.registry.read() {
        Ok(snap) => snap,
        Err(e) => {
            ctx.printer.note(
                1,
                format!(
                    "validating without the registry's knowledge: {}",
                    crate::exit::message(&e)
                ),
            );
            return validate::Known::new();
        }
    };
    let mut known = validate::Known::new();
    for (family, plugins) in &snap.state().plugins {
        for (name, instances) in plugins {
            if let Some(inst) = instances.first()
                && inst.source == plugctl_core::registry::Source::File
                && let Some(path) = &inst.path
            {
                known.insert((family.clone(), name.clone()), path.clone());
            }
        }
    }
    known
}

/// `validate`'s own fields of the JSON report.
#[derive(Serialize)]
struct Extra<'a> {
    dir: &'a std::path::Path,
    strict: bool,
    /// The release whose deadlines the fingerprints had (with a list, the
    /// newest of it).
    #[serde(serialize_with = "as_text")]
    nomad_version: plugctl_core::nomad::Release,
    /// With `--nomad-version`: on which releases each plugin works.
    #[serde(skip_serializing_if = "Option::is_none")]
    matrix: Option<matrix::Matrix<'a>>,
}

fn as_text<S: serde::Serializer>(
    r: &plugctl_core::nomad::Release,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_str(r)
}

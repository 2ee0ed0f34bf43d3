//! `--dry-run`: the calls a command would make, printed instead of made.
//! Nothing runs and nothing in the registry changes; see
//! [`plugctl_core::provenance::dry_run`] for what each call shows.

use serde_json::{Value, json};

use super::Ctx;
use crate::Result;
use plugctl_core::provenance::{Call, dry_run};
use plugctl_core::runner::Invocation;

/// One call a command would make.
pub enum Planned {
    /// A plugin executable, run as the invocation says.
    Exec(Call, Invocation),
    /// Work plugctl would do itself (the built-in mkdir), or a plugin it
    /// would not run, with what it would do or why not.
    Inline(Call, String),
}

/// Prints the plan: blocks of text, or `{"dry_run": true, "nomad_version",
/// "calls": [...]}` (the release whose deadlines and variables the calls
/// have).
pub fn print(ctx: &Ctx, plans: &[Planned]) -> Result<()> {
    print_refused(ctx, plans, None)
}

/// [`print()`] of a call the real command would refuse (its plugin's last
/// fingerprint failed): the call is shown all the same, with why it would
/// not be made — on stderr, and as `"refused"` in JSON.
pub fn print_refused(ctx: &Ctx, plans: &[Planned], refused: Option<&crate::Error>) -> Result<()> {
    let refused = refused.map(|e| {
        format!(
            "the real call would be refused: {}",
            crate::exit::message(e)
        )
    });
    if let Some(why) = &refused {
        ctx.printer.warn(why);
    }
    // Each call as the run would judge it just before it starts: its
    // program, interpreter and environment through the trust gate.
    let admitted: Vec<Option<String>> = plans
        .iter()
        .map(|p| match p {
            Planned::Exec(call, inv) => ctx.pool.admits(inv).err().map(|e| {
                let mut error = plugctl_core::Error::plugin(
                    &call.family,
                    &call.name,
                    call.operation,
                    plugctl_core::families::spawn_failure(e),
                );
                if let Some(subject) = &call.subject {
                    error = error.about(subject.clone());
                }
                format!(
                    "the real call would be refused: {}",
                    crate::exit::message(&error)
                )
            }),
            Planned::Inline(..) => None,
        })
        .collect();
    for why in admitted.iter().flatten() {
        ctx.printer.warn(why);
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    if ctx.printer.json {
        let calls: Vec<Value> = plans
            .iter()
            .zip(&admitted)
            .map(|(p, admitted)| match p {
                Planned::Exec(call, inv) => {
                    let mut doc = dry_run::to_json(call, inv, &cwd);
                    if let Some(why) = admitted {
                        doc["refused"] = why.clone().into();
                    }
                    doc
                }
                Planned::Inline(call, what) => json!({
                    "type": call.family,
                    "name": call.name,
                    "operation": call.operation,
                    "subject": call.subject,
                    "inline": what,
                }),
            })
            .collect();
        let mut doc = json!({
            "dry_run": true,
            "nomad_version": ctx.settings.nomad.release().to_string(),
            "calls": calls,
        });
        if let Some(why) = refused {
            doc["refused"] = why.into();
        }
        return ctx.printer.document(doc);
    }
    let mut text = String::new();
    for (i, p) in plans.iter().enumerate() {
        if i > 0 {
            text.push('\n');
        }
        match p {
            Planned::Exec(call, inv) => text.push_str(&dry_run::to_text(call, inv, &cwd)),
            Planned::Inline(call, what) => text.push_str(&format!(
                "# {} plugin {}, operation {}: {}\n",
                crate::output::value(&call.family),
                crate::output::quote(&call.name),
                call.operation,
                crate::output::sanitize_cell(what)
            )),
        }
    }
    if plans.is_empty() {
        text.push_str("# nothing would run\n");
    }
    ctx.printer.text(&text)?;
    ctx.printer.info(format!(
        "dry run as {}: nothing was run and the registry was not changed",
        ctx.settings.nomad
    ));
    Ok(())
}

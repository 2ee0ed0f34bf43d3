//! The sandbox checks of `validate`: under which level and policy each
//! plugin runs, what its policy grants beyond `strict` (its exposure), and
//! policies that name no plugin there.

use std::path::Path;

use super::Verdict;
use crate::runner::Invocation;
use crate::sandbox::{Level, PolicyFile, Sandbox};

/// `sandbox.policy`: the level and policy the plugin at `path` runs under,
/// and what its policy grants beyond `strict` — said (info) whenever a
/// sandbox or a policy file is in play; silent otherwise (a run at `none`
/// with no policy file is what a Nomad client does).
pub fn policy(sandbox: &Sandbox, path: &Path) -> Verdict {
    let conf = sandbox.confinement(&Invocation::new(
        path,
        std::time::Duration::ZERO,
        std::time::Duration::ZERO,
    ));
    if conf.level == Level::None && !conf.from_file {
        return Verdict::NotApplicable;
    }
    let exposure = conf.policy.exposure();
    let grants = if exposure.is_empty() {
        "grants nothing beyond strict".to_string()
    } else {
        format!("grants beyond strict: {}", exposure.join("; "))
    };
    let entry = if conf.from_file {
        "its policy"
    } else {
        "no policy entry, so its policy"
    };
    Verdict::info(format!(
        "runs under {} ({} here); {entry} {grants}",
        conf.level,
        if conf.level == sandbox.level() {
            "the level asked for"
        } else {
            "raised by its policy"
        }
    ))
}

/// `sandbox.unused-policy`: entries of the policy file for plugins that
/// are not in the plugin directory (a renamed plugin, a typo), which would
/// confine nothing.
pub fn unused(policies: &PolicyFile, plugins: &[String]) -> Verdict {
    let unused: Vec<&str> = policies
        .plugins
        .keys()
        .filter(|k| !plugins.iter().any(|p| p == *k))
        .map(String::as_str)
        .collect();
    if unused.is_empty() {
        return Verdict::pass();
    }
    Verdict::warning(format!(
        "the policy file has policies for {} ({}), which {} not a plugin here: a renamed \
         plugin runs under no policy of its own",
        if unused.len() == 1 {
            "a plugin"
        } else {
            "plugins"
        },
        unused.join(", "),
        if unused.len() == 1 { "is" } else { "are" }
    ))
}

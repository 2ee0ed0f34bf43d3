//! Secrets plugins (protocol section 5): the `CPI_*` environment, and the
//! rule that values never leave through anything but the caller's stdout.

use std::path::Path;
use std::time::Duration;

use super::{Fingerprint, Quote, judge, parse_stdout, required_version};
use crate::error::PluginFailure;
use crate::runner::{Invocation, Outcome};

/// Nomad 2.0+ gives secrets plugins 60 s for fingerprint and fetch.
pub const DEADLINE: Duration = Duration::from_secs(60);

pub fn fingerprint_invocation(program: &Path, deadline: Duration, grace: Duration) -> Invocation {
    Invocation::new(program, deadline, grace)
        .arg("fingerprint")
        .env("CPI_OPERATION", "fingerprint")
}

/// `{"type": "secrets", "version": "..."}`. Nomad silently skips a plugin
/// whose type is not exactly `secrets`; plugctl says why.
pub fn parse_fingerprint(inv: &Invocation, out: &Outcome) -> Result<Fingerprint, PluginFailure> {
    judge(inv, out, Quote::Allowed)?;
    let obj = parse_stdout(inv, out, Quote::Allowed)?;
    let kind = obj
        .string("type")
        .map_err(|e| PluginFailure::BadOutput(e.to_string()))?;
    match kind.as_deref() {
        Some("secrets") => {}
        None => {
            return Err(PluginFailure::Response(
                "fingerprint has no \"type\" (must be \"secrets\"; Nomad silently ignores this \
                 plugin)"
                    .into(),
            ));
        }
        Some(other) => {
            return Err(PluginFailure::Response(format!(
                "fingerprint type is {other:?}, must be exactly \"secrets\" (Nomad silently \
                 ignores this plugin)"
            )));
        }
    }
    let version = required_version(&obj)?;
    Ok(Fingerprint {
        version: version.original().to_string(),
        kind,
    })
}

//! Families plugctl does not know: fingerprinted the way every common plugin
//! is (`CPI_OPERATION=fingerprint`), nothing else is run.

use std::path::Path;
use std::time::Duration;

use super::{Fingerprint, Quote, judge, parse_stdout, required_version};
use crate::error::PluginFailure;
use crate::family::Operation;
use crate::runner::{Invocation, Outcome};

pub fn fingerprint_invocation(program: &Path, deadline: Duration, grace: Duration) -> Invocation {
    Invocation::new(program, deadline, grace)
        .arg(Operation::Fingerprint.name())
        .env("CPI_OPERATION", Operation::Fingerprint.name())
}

pub fn parse_fingerprint(inv: &Invocation, out: &Outcome) -> Result<Fingerprint, PluginFailure> {
    judge(inv, out, Quote::Allowed)?;
    let obj = parse_stdout(inv, out, Quote::Allowed)?;
    let version = required_version(&obj)?;
    let kind = obj
        .string("type")
        .map_err(|e| PluginFailure::BadOutput(e.to_string()))?;
    Ok(Fingerprint {
        version: version.original().to_string(),
        kind,
    })
}

//! Families plugctl does not know: fingerprinted the way every common plugin
//! is (`CPI_OPERATION=fingerprint`), nothing else is run.

use super::{Fingerprint, Quote, decode_fingerprint, judge};
use crate::error::PluginFailure;
use crate::runner::{Invocation, Outcome};
use plugctl_protocol::json::Dialect;
use plugctl_protocol::responses;

pub fn parse_fingerprint(
    dialect: Dialect,
    inv: &Invocation,
    out: &Outcome,
) -> Result<Fingerprint, PluginFailure> {
    judge(inv, out, Quote::Allowed)?;
    // As every common plugin's fingerprint (Nomad runs no plugin of such
    // a family, so nothing here is Nomad's verdict).
    let fp = decode_fingerprint(inv, out, |b| responses::common_fingerprint(b, dialect))?;
    let (version, kind) = match fp {
        Some(fp) => (fp.version, fp.kind),
        None => (None, None),
    };
    let version = version.ok_or_else(|| {
        PluginFailure::Response("fingerprint has no \"version\" (missing or null)".into())
    })?;
    Ok(Fingerprint {
        version: version.original().to_string(),
        kind,
    })
}

//! Dynamic host-volume plugins (protocol section 4): the `DHV_*`
//! environment is formed here and nowhere else.

use std::path::Path;
use std::time::Duration;

use super::{Fingerprint, Quote, judge, parse_stdout, required_version};
use crate::error::PluginFailure;
use crate::runner::{Invocation, Outcome};

/// Nomad documents 5 s (and allows 1 s at agent start: `validate` warns).
pub const FINGERPRINT_DEADLINE: Duration = Duration::from_secs(5);
/// Nomad's limit for create and delete.
pub const OPERATION_DEADLINE: Duration = Duration::from_secs(60);

pub fn fingerprint_invocation(program: &Path, deadline: Duration, grace: Duration) -> Invocation {
    Invocation::new(program, deadline, grace)
        .arg("fingerprint")
        .env("DHV_OPERATION", "fingerprint")
}

/// `{"version": "..."}`; reported normalised (`v1.2` → `1.2.0`) as Nomad does.
pub fn parse_fingerprint(inv: &Invocation, out: &Outcome) -> Result<Fingerprint, PluginFailure> {
    judge(inv, out, Quote::Allowed)?;
    let obj = parse_stdout(inv, out, Quote::Allowed)?;
    let version = required_version(&obj)?;
    Ok(Fingerprint {
        version: version.normalized(),
        kind: None,
    })
}

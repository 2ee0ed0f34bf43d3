//! Secrets plugins (protocol section 5): the `CPI_*` environment, and the
//! rule that values never leave through anything but the caller's stdout.
//!
//! Here the fingerprint; `fetch.rs` forms a fetch and judges its answer,
//! `value.rs` holds what it returns ([`SecretValue`]: never printed, wiped
//! when dropped), `masking.rs` makes text that may hold values safe to show
//! and quotes them for a shell, `lines.rs` says which keys and values a
//! line format may print.

mod fetch;
mod lines;
mod masking;
mod value;

use super::{Fingerprint, Quote, decode_fingerprint, judge};
use crate::error::PluginFailure;
use crate::family::Family;
use crate::runner::{Invocation, Outcome};
use plugctl_protocol::json::Dialect;
use plugctl_protocol::responses;

pub use fetch::{
    DEFAULT_JOB_ID, DEFAULT_NAMESPACE, FetchRequest, Fetched, candidate_values, dedup_env,
    fetch_invocation, parse_fetch, strings_of,
};
pub use lines::{Lines, NOT_PLAIN, Unprintable, is_plain, refused};
pub use masking::{is_shell_name, mask, mask_stderr, sh_quote};
pub use value::{MASK, SecretValue};

/// `{"type": "secrets", "version": "..."}`. Nomad silently skips a plugin
/// whose type is not exactly `secrets`; plugctl says why.
pub fn parse_fingerprint(
    dialect: Dialect,
    inv: &Invocation,
    out: &Outcome,
) -> Result<Fingerprint, PluginFailure> {
    judge(inv, out, Quote::Allowed)?;
    // What Nomad does differs by shape (client/fingerprint/secrets.go): a
    // bare `null` sets the response to nil and the client dereferences it;
    // a missing type or version makes it skip the plugin without a word.
    let Some(fp) = decode_fingerprint(inv, out, |b| responses::common_fingerprint(b, dialect))?
    else {
        return Err(PluginFailure::Response(
            "fingerprint output is a bare null (on a Nomad node this crashes the client)".into(),
        ));
    };
    match fp.kind.as_deref() {
        Some(t) if Family::Secrets.is(t) => {}
        None => {
            return Err(PluginFailure::Response(
                "fingerprint has no \"type\" (must be \"secrets\"; Nomad silently ignores this \
                 plugin)"
                    .into(),
            ));
        }
        Some(other) => {
            return Err(PluginFailure::Response(format!(
                "fingerprint type is {other_q}, must be exactly \"secrets\" (Nomad silently \
                 ignores this plugin)",
                other_q = crate::escape::quote(other)
            )));
        }
    }
    let version = fp.version.ok_or_else(|| {
        PluginFailure::Response(
            "fingerprint has no \"version\" (missing or null; Nomad silently skips this plugin)"
                .into(),
        )
    })?;
    Ok(Fingerprint {
        version: version.original().to_string(),
        kind: fp.kind,
    })
}

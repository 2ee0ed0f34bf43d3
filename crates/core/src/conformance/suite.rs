//! `test`: the conformance suite for one plugin. Every call runs exactly as
//! the protocol says (the family modules build the invocations, with the
//! protocol's empty environment); each check passes, fails, warns or is
//! skipped with a reason.
//!
//! Host-volume plugins run against a scratch volumes directory (a tempdir)
//! and every volume the suite created is deleted at the end by a cleanup
//! tracker, even when a step failed, unless `--keep`.

mod host_volume;
mod secrets;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::{Report, Verdict};
use crate::discovery::{Entry, EntryKind};
use crate::family::Family;
use crate::runner::Pool;
use crate::{Error, Result};

/// How `test` runs.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Secrets: a path the plugin can fetch.
    pub path: Option<String>,
    /// Secrets: the fetch environment (store configuration).
    pub env: Vec<(String, String)>,
    /// Leave the scratch directory and the volumes in it.
    pub keep: bool,
    /// Overrides every call's deadline from the protocol.
    pub deadline: Option<Duration>,
    pub grace: Duration,
    /// Host volumes: no request asks for more than this many bytes.
    pub max_bytes: u64,
    /// Host volumes: run the 1 EiB refusal check (opt-in).
    pub check_absurd_capacity: bool,
    /// The shutdown the suite's fan-outs listen to.
    pub stop: crate::stop::Stop,
    /// The Nomad release whose behaviour the calls get.
    pub nomad: crate::nomad::Profile,
    /// Host volumes: the host-volume plugin directory (`DHV_PLUGIN_DIR`).
    pub plugin_dir: PathBuf,
    /// Host volumes: `DHV_NODE_POOL`.
    pub node_pool: String,
    /// Host volumes: `DHV_NODE_ID` (a conformance node's when None).
    pub node_id: Option<String>,
    /// The trust gate's rules (the built-in `mkdir`'s volumes directory).
    pub policy: crate::trust::Policy,
}

/// What the suite found, and where it left the scratch directory (with
/// `--keep`).
#[derive(Debug)]
pub struct Suite {
    pub report: Report,
    pub kept: Option<PathBuf>,
}

/// Runs the suite for one discovered plugin.
pub async fn run(pool: Arc<Pool>, entry: &Entry, opts: &Options) -> Result<Suite> {
    let id = format!("{}/{}", entry.family, entry.name);
    let mut report = Report::new();
    match &entry.kind {
        EntryKind::Plugin => {}
        EntryKind::Builtin(b) if b.runnable && b.family == Family::HostVolume => {}
        EntryKind::Builtin(b) => {
            report.record(
                Some(&id),
                "suite.runnable",
                Verdict::skip(format!(
                    "{} is built into Nomad and needs a Nomad cluster to run",
                    b.name
                )),
            );
            return Ok(Suite { report, kept: None });
        }
        EntryKind::Rejected(why) | EntryKind::Ignored(why) => {
            report.record(
                Some(&id),
                "suite.runnable",
                Verdict::error(format!(
                    "{} is not a plugin Nomad would run: {why}",
                    entry.path.display()
                ))
                .hint(crate::error::Hint::Validate),
            );
            return Ok(Suite { report, kept: None });
        }
    }
    match Family::of(&entry.family) {
        Some(Family::Secrets) => {
            secrets::suite(&pool, entry, opts, &id, &mut report).await;
            Ok(Suite { report, kept: None })
        }
        Some(Family::HostVolume) => host_volume::suite(pool, entry, opts, &id, report).await,
        None => Err(Error::usage(format!(
            "no conformance suite for the {} family (there is one for {} and {})",
            entry.family,
            Family::HostVolume,
            Family::Secrets
        ))),
    }
}

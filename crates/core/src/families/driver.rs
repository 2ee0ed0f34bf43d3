//! One host-volume create or delete, whoever implements it: a plugin
//! executable run through the pool, or the built-in `mkdir` in process.
//! `volume` and the conformance suite both call plugins through this.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::host_volume::{self, Created, Request};
use super::{mkdir, spawn_failure};
use crate::error::PluginFailure;
use crate::runner::{Invocation, Outcome, Pool};

#[derive(Debug, Clone)]
pub enum Driver {
    Plugin {
        pool: Arc<Pool>,
        program: PathBuf,
        deadline: Duration,
        grace: Duration,
        /// Whose words a decode error is in (the release's Go).
        dialect: super::Dialect,
    },
    /// The built-in, as the chosen release's does it: it takes no created
    /// path and prints nothing; it reaches the volumes directory through
    /// the trust gate with these rules.
    Mkdir(mkdir::MkdirBehaviour, crate::trust::Policy),
}

/// One call: how it was judged, and (for a plugin that ran) what it printed.
#[derive(Debug)]
pub struct Call<T> {
    pub result: Result<T, PluginFailure>,
    pub outcome: Option<Outcome>,
}

impl Driver {
    /// Runs create and judges the path it returned when it arrives
    /// ([`host_volume::judge_created_path`], [`host_volume::judge_own_entry`]):
    /// a path plugctl would not record is the plugin's failure, never a
    /// volume.
    pub async fn create(&self, req: &Request) -> Call<Created> {
        let mut call = self.create_as_returned(req).await;
        if let Ok(created) = &call.result
            && let Err(why) = host_volume::judge_created_path(&created.path, &req.volumes_dir)
                .and_then(|()| {
                    host_volume::judge_own_entry(&created.path, &req.volumes_dir, &req.id)
                })
        {
            // An answer without `path` names the keys it had instead: the
            // plugin's real mistake (`volume_path`), not "empty".
            let why = match host_volume::no_path(created) {
                Some(keys) if created.path.is_empty() => format!(
                    "{keys} (Nomad would record an empty path; plugctl records no volume \
                     outside its volumes directory)"
                ),
                _ => why,
            };
            call.result = Err(PluginFailure::BadOutput(why));
        }
        call
    }

    /// Runs create and takes its path as returned: for the conformance
    /// suite, which judges the path itself, check by check
    /// (`create.path`, `create.hostile-names`).
    pub async fn create_as_returned(&self, req: &Request) -> Call<Created> {
        match self {
            Driver::Plugin {
                pool,
                program,
                deadline,
                grace,
                dialect,
            } => {
                let inv = host_volume::create_invocation(program, req, *deadline, *grace);
                let dialect = *dialect;
                run(pool, inv, move |inv, out| {
                    host_volume::parse_create(dialect, inv, out)
                })
                .await
            }
            Driver::Mkdir(behaviour, policy) => {
                let (req, behaviour, policy) = (req.clone(), *behaviour, *policy);
                builtin(move || mkdir::create_as(&req, behaviour, policy)).await
            }
        }
    }

    pub async fn delete(&self, req: &Request, created_path: &str) -> Call<()> {
        match self {
            Driver::Plugin {
                pool,
                program,
                deadline,
                grace,
                ..
            } => {
                let inv =
                    host_volume::delete_invocation(program, req, created_path, *deadline, *grace);
                run(pool, inv, host_volume::parse_delete).await
            }
            Driver::Mkdir(_, policy) => {
                let policy = *policy;
                let req = req.clone();
                builtin(move || mkdir::delete(&req, policy)).await
            }
        }
    }
}

async fn run<T>(
    pool: &Pool,
    inv: Invocation,
    parse: impl FnOnce(&Invocation, &Outcome) -> Result<T, PluginFailure>,
) -> Call<T> {
    match pool.run(&inv).await {
        Ok(out) => Call {
            result: parse(&inv, &out),
            outcome: Some(out),
        },
        Err(e) => Call {
            result: Err(spawn_failure(e)),
            outcome: None,
        },
    }
}

/// The built-in runs here, on the caller's thread: a mkdir, a chmod and a
/// chown take microseconds, and a thread pool for them would cost a thread
/// (and its memory arena) per call in flight — and panic where no thread
/// can be had (a low `ulimit -u`). A panic in it is that call's failure.
async fn builtin<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, PluginFailure> + Send + 'static,
) -> Call<T> {
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let why = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(PluginFailure::Builtin(format!(
            "the built-in mkdir panicked: {why}"
        )))
    });
    Call {
        result,
        outcome: None,
    }
}

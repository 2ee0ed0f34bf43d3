//! Runs plugin executables the way the protocol says Nomad does (direct exec,
//! only the given environment, stdin from /dev/null) but safer: each call
//! in a process group and a time namespace (or a session) of its own, a
//! hard deadline with SIGTERM → grace → SIGKILL to the whole group, bounded
//! capture of stdout and stderr, no waiting on pipes that orphaned children
//! hold open, and nothing the plugin started left running after it. Knows
//! nothing about JSON.
//!
//! Where each part lives:
//!
//! - `types`: [`Invocation`], [`Outcome`], [`Termination`], [`SpawnError`];
//! - `call`: one call's loop, a `select!` over its pipes, its exit, its
//!   deadline and what its table asks;
//! - `capture`: the bounded head of stdout and tail of stderr;
//! - `spawn`: starting a call (format sniffing, `--locked`'s exec check,
//!   backoff), with `elf` naming a missing interpreter;
//! - `groups`: the table of the calls' process groups a [`Pool`] owns,
//!   through which shutdown and job control reach them;
//! - `lineage`: what marks every process of a call (its time namespace,
//!   else its session);
//! - `leftovers`: /proc, to find and kill what a plugin left behind and
//!   reap what plugctl adopted;
//! - `rusage`: what the kernel says a call's processes used, read as the
//!   plugin and each orphan are reaped, summed into its usage;
//! - `pool`: [`Pool`], and the [`Gate`] and [`Witness`] it consults;
//! - `human`: [`human_bytes`].

mod call;
mod capture;
pub(crate) mod elf;
mod groups;
mod human;
mod leader;
mod leftovers;
mod lineage;
mod pool;
mod rusage;
mod spawn;
mod types;
mod vfork;

use std::sync::Arc;
use std::time::Duration;

use call::later;
pub use groups::own_group_is_orphaned;
pub use human::human_bytes;
pub use leftovers::become_subreaper;
pub(crate) use lineage::TimeNs;
pub use pool::{Gate, Pool, Witness};
pub use spawn::keep_inherited_descriptors;
pub use types::{
    Invocation, Leftover, Outcome, STDERR_LIMIT, STDOUT_LIMIT, SpawnError, Termination,
};

/// How long we keep reading once the group was SIGKILLed or found empty.
/// Whoever still holds a pipe then has left the group (setsid, a daemon's
/// double fork) and no signal of ours reaches it, so waiting longer could
/// be forever.
pub const PIPE_DRAIN_BOUND: Duration = Duration::from_millis(250);

/// Nothing tells us when the last member of a group dies once its leader is
/// reaped, so after SIGTERM we ask this often (the answer may cost a scan of
/// /proc).
pub const GROUP_POLL: Duration = Duration::from_millis(20);

/// On our own interruption the user is waiting: never make them wait longer
/// than this for plugins to honour SIGTERM, whatever their grace says (the
/// cap a shutdown passes to [`Pool::terminate`]).
pub const INTERRUPT_GRACE_CAP: Duration = Duration::from_secs(2);

/// Runs one plugin call to the end and says what happened.
///
/// Finished means the direct child has exited and both pipes are at EOF,
/// except that nothing waits past `deadline + grace + PIPE_DRAIN_BOUND`
/// (plus scheduling delay): at the deadline the whole process group gets
/// SIGTERM, after the grace SIGKILL, and pipes still held after that by
/// processes that left the group are abandoned.
///
/// Whatever the plugin started and left running when the call ends,
/// whatever group or session it moved to, is killed and listed in
/// [`Outcome::leftovers`] (`lineage` says how it is told from what other
/// calls left).
///
/// The call runs outside any [`Pool`]: no shutdown or job control reaches
/// it, only dropping its future (which SIGKILLs its group).
pub async fn run(inv: &Invocation) -> Result<Outcome, SpawnError> {
    call::run_call(&Arc::default(), inv, true)
        .await
        .map(|ended| ended.outcome)
}

/// [`run`] for callers without a Tokio runtime: builds a current-thread one
/// for the call. Called from inside a runtime (where blocking on a new one
/// would panic), it does the same on a helper thread.
pub fn run_blocking(inv: &Invocation) -> Result<Outcome, SpawnError> {
    let call = || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| SpawnError::Other {
                program: inv.program.clone(),
                message: format!("cannot start an async runtime: {e}"),
            })?
            .block_on(run(inv))
    };
    if tokio::runtime::Handle::try_current().is_ok() {
        std::thread::scope(|s| s.spawn(call).join())
            .unwrap_or_else(|p| std::panic::resume_unwind(p))
    } else {
        call()
    }
}

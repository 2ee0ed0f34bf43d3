//! The pool every command runs its calls through: at most `limit` at once,
//! each checked (owner and mode, the lock file) before it runs and recorded
//! after; and the handle through which a shutdown or job control reaches
//! every call in flight, as the pool owns their process groups' table.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use nix::sys::signal::Signal;
use tokio::sync::Semaphore;

use super::call::run_call;
use super::groups::GroupTable;
use super::spawn::exec_path;
use super::{Invocation, Leftover, Outcome, SpawnError};

/// Decides, just before a call runs, whether it may (the lock file under
/// `--locked`: [`crate::provenance::locked::Pins`]). The runner knows only
/// this trait, so provenance builds on the runner and not both ways.
pub trait Gate: Send + Sync + std::fmt::Debug {
    /// `Ok(Some(id))`: run it, and only if `exec_path` is still `id` at
    /// exec. `Ok(None)`: run it unchecked. `Err(reason)`: do not run it
    /// (with what would let it run).
    fn admit(
        &self,
        inv: &Invocation,
        exec_path: &Path,
    ) -> std::result::Result<Option<crate::identity::Verified>, crate::error::Advised>;
}

/// Runs one call; with the sandbox's part, a start that failed in it is
/// said as the sandbox's, and a cap the call went over is noted.
async fn confined_call(
    groups: &Arc<GroupTable>,
    inv: &Invocation,
    measure: bool,
) -> Result<super::call::Ended, SpawnError> {
    match run_call(groups, inv, measure).await {
        Err(e) => Err(match &inv.confine {
            Some(p) => p.explain(e),
            None => e,
        }),
        Ok(mut ended) => {
            if let Some(p) = &inv.confine {
                ended.outcome.over_cap = p.over_cap(&ended.outcome);
                // What the call cost names a cap only when one was seen
                // reached (a cgroup's count, SIGXCPU): an rlimit's failure
                // that only may have been the cap is said, not counted.
                if let (Some(usage), Some(over)) = (
                    ended.outcome.usage.as_mut(),
                    ended.outcome.over_cap.as_ref(),
                ) && over.certain
                {
                    usage.over_cap = Some(over.cap);
                }
            }
            Ok(ended)
        }
    }
}

/// Keeps every call that ran (`--record`:
/// [`crate::provenance::case::Recorder`]).
pub trait Witness: Send + Sync + std::fmt::Debug {
    /// Called once per call that ran to its end, with what came of it (not
    /// for a call a shutdown cut short: that outcome is not the plugin's).
    fn record(&self, inv: &Invocation, out: &Outcome);
}

/// Runs at most `limit` calls at once; the rest wait for a place. Clones
/// share the places and the calls in flight.
#[derive(Debug, Clone)]
pub struct Pool {
    permits: Arc<Semaphore>,
    limit: usize,
    /// The process groups of the calls in flight, which [`Pool::terminate`],
    /// [`Pool::pause`] and [`Pool::resume`] reach.
    groups: Arc<GroupTable>,
    /// `--record DIR`: every call that ran is saved as a case file.
    recorder: Option<Arc<dyn Witness>>,
    /// The lock file, when there is one: `--locked` refuses what differs.
    pins: Option<Arc<dyn Gate>>,
    /// Owner and mode checks on what runs (None: `--allow-insecure-paths`).
    trust: Option<Arc<crate::trust::Trust>>,
    /// What each call may do ([`crate::sandbox`]); none by default.
    sandbox: Arc<crate::sandbox::Sandbox>,
    /// A level, policy and lifted layers for every call instead of the
    /// sandbox's own ([`Pool::under`]).
    overriding: Option<Arc<Overriding>>,
    /// Whether each call's usage is read from the kernel.
    measure: bool,
}

type Overriding = (
    crate::sandbox::Level,
    crate::sandbox::Policy,
    std::collections::BTreeSet<crate::sandbox::Layer>,
);

impl Pool {
    /// A limit of 0 is taken as 1: a pool that never runs anything would
    /// only hang its callers.
    pub fn new(limit: usize) -> Pool {
        let limit = limit.clamp(1, Semaphore::MAX_PERMITS);
        Pool {
            permits: Arc::new(Semaphore::new(limit)),
            limit,
            groups: Arc::default(),
            recorder: None,
            pins: None,
            trust: Some(Arc::default()),
            sandbox: Arc::default(),
            overriding: None,
            measure: true,
        }
    }

    /// Runs every call under this sandbox.
    pub fn with_sandbox(mut self, sandbox: crate::sandbox::Sandbox) -> Pool {
        self.sandbox = Arc::new(sandbox);
        self
    }

    /// The sandbox every call runs under.
    pub fn sandbox(&self) -> &crate::sandbox::Sandbox {
        &self.sandbox
    }

    /// Reads no call's usage: every [`Outcome::usage`] is `None`. For
    /// measuring what the accounting itself costs, against the same calls
    /// with it.
    pub fn without_usage(mut self) -> Pool {
        self.measure = false;
        self
    }

    /// Judges what runs by these rules (default [`crate::trust::Policy::strict`]):
    /// on a Nomad node, the agent's account is trusted too
    /// ([`crate::trust::Policy::with_agent`]).
    pub fn with_policy(mut self, policy: crate::trust::Policy) -> Pool {
        if self.trust.is_some() {
            self.trust = Some(Arc::new(crate::trust::Trust::new(policy)));
        }
        self
    }

    /// Runs plugins whatever their owner and mode (`--allow-insecure-paths`).
    pub fn without_trust_checks(mut self) -> Pool {
        self.trust = None;
        self
    }

    /// Checks every call against the lock file before it runs.
    pub fn with_pins(mut self, pins: impl Gate + 'static) -> Pool {
        self.pins = Some(Arc::new(pins));
        self
    }

    /// Saves every call this pool runs into a case file (`--record`).
    pub fn with_recorder(mut self, recorder: impl Witness + 'static) -> Pool {
        self.recorder = Some(Arc::new(recorder));
        self
    }

    /// Puts this pool's calls in the same table as `other`'s, so that
    /// terminating, pausing or resuming either reaches both: for a command
    /// that builds a pool of its own beside the one its process watches.
    pub fn with_groups_of(mut self, other: &Pool) -> Pool {
        self.groups = Arc::clone(&other.groups);
        self
    }

    /// How many calls may run at once.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Waits for a place, then [`run`](super::run)s. The deadline starts at
    /// spawn, not while waiting for a place. Once [`Pool::terminate`] was
    /// called, nothing more starts.
    pub async fn run(&self, inv: &Invocation) -> Result<Outcome, SpawnError> {
        let confinement = self.overriding.as_ref().map(|o| {
            let (level, policy, relaxed) = o.as_ref();
            let own = self.sandbox.confinement(inv);
            crate::sandbox::Confinement {
                level: *level,
                // The caps stay what the command line and the file say.
                policy: crate::sandbox::Policy {
                    caps: own.policy.caps,
                    ..policy.clone()
                },
                relaxed: relaxed.clone(),
                ..own
            }
        });
        self.run_under(inv, confinement).await
    }

    /// [`Pool::run`], under `confinement` instead of the sandbox's own for
    /// this plugin when one is given.
    async fn run_under(
        &self,
        inv: &Invocation,
        confinement: Option<crate::sandbox::Confinement>,
    ) -> Result<Outcome, SpawnError> {
        let _permit = self
            .permits
            .acquire()
            .await
            .expect("the pool's semaphore is never closed");
        self.admits(inv)?;
        let checked;
        let inv = match &self.pins {
            None => inv,
            Some(pins) => match pins.admit(inv, &exec_path(&inv.program)) {
                Ok(expect) => {
                    checked = Invocation {
                        expect,
                        ..inv.clone()
                    };
                    &checked
                }
                Err(why) => {
                    return Err(SpawnError::Refused {
                        program: inv.program.clone(),
                        message: why.message,
                        hint: why.hint,
                    });
                }
            },
        };
        let confined;
        let prepared = match confinement {
            None => self.sandbox.prepare(inv)?,
            Some(c) => self.sandbox.prepare_as(inv, c)?,
        };
        let inv = match prepared {
            None => inv,
            Some(prepared) => {
                confined = Invocation {
                    confine: Some(prepared),
                    ..inv.clone()
                };
                &confined
            }
        };
        let ended = confined_call(&self.groups, inv, self.measure).await?;
        if let Some(rec) = &self.recorder
            && !ended.interrupted
        {
            rec.record(inv, &ended.outcome);
        }
        Ok(ended.outcome)
    }

    /// This pool's places, groups and checks, with every call confined as
    /// `level` and `policy` say (and `relaxed`'s layers lifted) whatever
    /// the sandbox's own say for the plugin: `test --propose-policy` runs
    /// the suite so, a layer at a time.
    pub fn under(
        &self,
        level: crate::sandbox::Level,
        policy: crate::sandbox::Policy,
        relaxed: std::collections::BTreeSet<crate::sandbox::Layer>,
    ) -> Pool {
        Pool {
            overriding: Some(Arc::new((level, policy, relaxed))),
            ..self.clone()
        }
    }

    /// Whether this pool would run `inv`, as [`Pool::run`] decides just
    /// before it does (and a dry run says): the environment the caller
    /// added ([`crate::trust::environment`]), then the program, its
    /// directories up to `/`, its interpreter and what `env` runs on the
    /// plugin's own `PATH` ([`crate::trust::Trust::check`]). The lock file
    /// is checked apart, by the run.
    pub fn admits(&self, inv: &Invocation) -> Result<(), SpawnError> {
        let refused = |message: String| SpawnError::Refused {
            program: inv.program.clone(),
            message,
            hint: None,
        };
        let policy = self
            .trust
            .as_ref()
            .map_or_else(crate::trust::Policy::insecure, |t| t.policy());
        crate::trust::environment::judge(policy, &inv.env)
            .map_err(|why| refused(format!("not run: {why}")))?;
        // Strict starts the plugin in `/`, whatever plugctl's directory.
        let level = match &self.overriding {
            Some(o) => o.0,
            None => self.sandbox.confinement(inv).level,
        };
        if level < crate::sandbox::Level::Strict {
            crate::trust::environment::judge_working_directory(policy, &inv.env)
                .map_err(|why| refused(format!("not run: {why}")))?;
        }
        let Some(trust) = &self.trust else {
            return Ok(());
        };
        trust
            .check(&inv.program, &inv.env)
            .map_err(|why| match why {
                crate::trust::program::Untrusted::Refused(message) => refused(message),
                // Refused before the exec, reported as the exec would.
                crate::trust::program::Untrusted::InterpreterMissing { interpreter } => {
                    SpawnError::InterpreterMissing {
                        program: inv.program.clone(),
                        interpreter,
                    }
                }
            })
    }

    /// The process groups (their leaders' pids) of the calls in flight.
    pub fn live_groups(&self) -> Vec<i32> {
        self.groups.leaders()
    }

    /// Sends `signal` to every call's whole process group; returns how many
    /// groups it reached.
    pub fn signal_groups(&self, signal: Signal) -> usize {
        self.groups.signal_all(signal)
    }

    /// Job control: stops every call's process group (SIGSTOP) and every
    /// call's clock, so the time stopped is not counted against a deadline.
    /// A call that starts meanwhile starts stopped. Returns at once: the
    /// groups are stopped when it returns.
    pub fn pause(&self) {
        self.groups.pause();
    }

    /// Undoes [`Pool::pause`]: every call's clock runs again, then its group
    /// gets SIGCONT. Nothing when not paused.
    pub fn resume(&self) {
        self.groups.resume();
    }

    /// A shutdown: no call starts from now on, and every call in flight is
    /// asked to end (its loop sends SIGTERM to its group, SIGKILL after
    /// its grace or `grace_cap`, whichever is shorter, and drains its
    /// output meanwhile). Called again, with a shorter cap (zero: SIGKILL
    /// now), the sooner end wins. The calls end in their own tasks: await
    /// [`Pool::finished`] while they run. Returns how many were asked.
    pub fn terminate(&self, grace_cap: Duration) -> usize {
        self.groups.terminate(grace_cap)
    }

    /// Resolves once no call of this pool (or of those sharing its table)
    /// is in flight; at once when none is.
    pub async fn finished(&self) {
        self.groups.emptied().await;
    }

    /// Kills and reaps every orphan adopted by this process (see
    /// [`super::become_subreaper`]) that is not the leader of a call in
    /// flight: when a command that ran plugins ends, and at shutdown. An
    /// escapee that held no pipe of a call running beside others could not
    /// be told apart before. Returns what it killed.
    pub async fn kill_orphans(&self) -> Vec<Leftover> {
        super::leftovers::kill_orphans().await
    }
}

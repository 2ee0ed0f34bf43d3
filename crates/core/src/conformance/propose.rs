//! `test --propose-policy`: a policy derived from evidence. The suite runs
//! under `strict` with nothing granted and under `none`; every check that
//! fails under the first but passes under the second was stopped by a
//! layer of `strict`. Relaxing one layer at a time says which; then, layer
//! by layer, the smallest grant that lets those checks pass with the layer
//! back in place is searched for (groups of system calls and capabilities
//! by halving, paths among the call's own variables), and the resulting
//! policy is run once more to prove it passes.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::suite::{self, Options};
use crate::Result;
use crate::discovery::Entry;
use crate::runner::Pool;
use crate::sandbox::{Capability, Grant, Grants, Layer, Level, Policy, Syscalls};

/// What the search found.
#[derive(Debug, Clone)]
pub struct Proposal {
    /// The smallest policy found that passes (its caps and level those the
    /// plugin has now).
    pub policy: Policy,
    /// Each check strict stopped, and the layers that, lifted alone, let it
    /// pass (empty: only several lifted together do).
    pub stopped: Vec<(String, Vec<Layer>)>,
    /// The fewest layers that, lifted together, let every stopped check
    /// pass (what the grants were then searched for).
    pub together: Vec<Layer>,
    /// Layers no grant of a policy can relax (the node's own `/tmp`, paths
    /// no variable of the call names), which the checks still need.
    pub unresolved: Vec<Layer>,
    /// Checks that fail under `none` too: the plugin's own, not the
    /// sandbox's.
    pub failing_anyway: Vec<String>,
    /// The suite passes the checks strict stopped under the proposed policy.
    pub verified: bool,
    /// How many times the suite ran.
    pub runs: usize,
}

type Check = String;

struct Search<'a> {
    pool: Arc<Pool>,
    entry: &'a Entry,
    opts: &'a Options,
    base: Policy,
    /// The checks strict stops.
    target: BTreeSet<Check>,
    runs: usize,
}

impl Search<'_> {
    /// Runs the suite under `level`, `grants` and `relaxed`; the checks
    /// that passed (or only warned) and those that failed.
    async fn run(
        &mut self,
        level: Level,
        grants: &Grants,
        relaxed: &BTreeSet<Layer>,
    ) -> Result<(BTreeSet<Check>, BTreeSet<Check>)> {
        self.runs += 1;
        let policy = Policy {
            grants: grants.clone(),
            ..self.base.clone()
        };
        let pool = Arc::new(self.pool.under(level, policy, relaxed.clone()));
        let suite = suite::run(pool, self.entry, self.opts).await?;
        let (mut passed, mut failed) = (BTreeSet::new(), BTreeSet::new());
        for c in &suite.report.checks_run {
            match c.outcome {
                super::Outcome::Passed | super::Outcome::Warned => {
                    passed.insert(c.check.to_string());
                }
                super::Outcome::Failed => {
                    failed.insert(c.check.to_string());
                }
                super::Outcome::Skipped(_) => {}
            }
        }
        Ok((passed, failed))
    }

    /// The checks that did not pass (failed, or skipped for an earlier
    /// failure) under `grants` and `relaxed` at strict.
    async fn failed(
        &mut self,
        grants: &Grants,
        relaxed: &BTreeSet<Layer>,
    ) -> Result<BTreeSet<Check>> {
        let (passed, _) = self.run(Level::Strict, grants, relaxed).await?;
        Ok(self
            .target
            .iter()
            .filter(|c| !passed.contains(*c))
            .cloned()
            .collect())
    }

    /// Whether every check strict stops passes so.
    async fn passes(&mut self, grants: &Grants, relaxed: &BTreeSet<Layer>) -> Result<bool> {
        Ok(self.failed(grants, relaxed).await?.is_empty())
    }
}

/// Proposes the smallest policy for `entry` under which its suite passes
/// under strict whatever passes under none. `pool` carries the run's
/// sandbox (its caps, the plugin's current policy).
pub async fn propose(pool: Arc<Pool>, entry: &Entry, opts: &Options) -> Result<Proposal> {
    let own = pool.sandbox().confinement(&crate::runner::Invocation::new(
        &entry.path,
        std::time::Duration::ZERO,
        std::time::Duration::ZERO,
    ));
    let base = Policy {
        grants: Grants::default(),
        ..own.policy
    };
    let mut s = Search {
        pool,
        entry,
        opts,
        base,
        target: BTreeSet::new(),
        runs: 0,
    };
    let none = BTreeSet::new();
    let nothing = Grants::default();
    let (strict_passed, _) = s.run(Level::Strict, &nothing, &none).await?;
    let (none_passed, none_failed) = s.run(Level::None, &nothing, &none).await?;
    s.target = none_passed.difference(&strict_passed).cloned().collect();
    let failing_anyway: Vec<String> = none_failed.into_iter().collect();
    if s.target.is_empty() {
        return Ok(Proposal {
            policy: s.base.clone(),
            stopped: Vec::new(),
            together: Vec::new(),
            unresolved: Vec::new(),
            failing_anyway,
            verified: true,
            runs: s.runs,
        });
    }

    // Which layer stops each check, lifting one at a time.
    let mut stopped: Vec<(String, Vec<Layer>)> =
        s.target.iter().map(|c| (c.clone(), Vec::new())).collect();
    for layer in Layer::STRICT {
        let failed = s.failed(&nothing, &[layer].into_iter().collect()).await?;
        for (check, layers) in &mut stopped {
            if !failed.contains(check) {
                layers.push(layer);
            }
        }
    }
    // The layers to relax: those that alone let a check pass, if together
    // they let all pass; else every layer, less each one that is not
    // needed (a check that needs several lifted at once).
    let mut relaxed: BTreeSet<Layer> = stopped.iter().flat_map(|(_, l)| l.clone()).collect();
    if relaxed.is_empty() || !s.passes(&nothing, &relaxed).await? {
        relaxed = Layer::STRICT.into_iter().collect();
        for layer in Layer::STRICT {
            let mut fewer = relaxed.clone();
            fewer.remove(&layer);
            if s.passes(&nothing, &fewer).await? {
                relaxed = fewer;
            }
        }
    }

    let together: Vec<Layer> = relaxed.iter().copied().collect();
    // Layer by layer, the smallest grant that lets it back in place. The
    // order matters: a mount grant (seccomp) also lifts Landlock and the
    // private /tmp, which then need no grant of their own.
    let order = [
        Layer::Network,
        Layer::Seccomp,
        Layer::Capabilities,
        Layer::Landlock,
        Layer::PrivateTmp,
    ];
    let mut grants = Grants::default();
    let mut unresolved = Vec::new();
    for layer in order {
        if !relaxed.contains(&layer) {
            continue;
        }
        let mut back = relaxed.clone();
        back.remove(&layer);
        if s.passes(&grants, &back).await? {
            relaxed = back;
            continue;
        }
        let found = match layer {
            Layer::Network => {
                let mut g = grants.clone();
                g.network = true;
                s.passes(&g, &back).await?.then_some(g)
            }
            Layer::Seccomp => {
                let all: Vec<Syscalls> = Syscalls::ALL.to_vec();
                grant_smallest(&mut s, &grants, &back, all, |g, set| {
                    g.syscalls = set.into_iter().collect()
                })
                .await?
            }
            Layer::Capabilities => {
                let all: Vec<Capability> = caps::all().into_iter().map(Capability).collect();
                let mut all = all;
                all.sort();
                grant_smallest(&mut s, &grants, &back, all, |g, set| {
                    g.capabilities = set.into_iter().collect()
                })
                .await?
            }
            // A path granted is readable under Landlock and shows, read
            // only (or writable), in the private /tmp: the same grants
            // put either layer back.
            Layer::Landlock | Layer::PrivateTmp => {
                // Paths the call's own variables name: a store, a file;
                // writes first, so that halving drops them before reads.
                let mut candidates: Vec<(bool, Grant)> = Vec::new();
                for (k, v) in &s.opts.env {
                    let p = std::path::Path::new(v);
                    if p.is_absolute() && p != std::path::Path::new("/") {
                        let g = Grant::FromEnv {
                            var: k.clone(),
                            rest: std::path::PathBuf::new(),
                        };
                        candidates.push((true, g.clone()));
                        candidates.push((false, g));
                    }
                }
                candidates.sort_by_key(|(write, _)| !write);
                grant_smallest(&mut s, &grants, &back, candidates, |g, set| {
                    g.read = set
                        .iter()
                        .filter(|(w, _)| !w)
                        .map(|(_, x)| x.clone())
                        .collect();
                    g.write = set
                        .iter()
                        .filter(|(w, _)| *w)
                        .map(|(_, x)| x.clone())
                        .collect();
                })
                .await?
            }
            Layer::NoNewPrivs | Layer::NoCoreDumps | Layer::OomScoreAdj => None,
        };
        match found {
            Some(g) => {
                grants = g;
                relaxed = back;
            }
            None => unresolved.push(layer),
        }
    }
    let policy = Policy {
        grants: grants.clone(),
        ..s.base.clone()
    };
    let verified = unresolved.is_empty() && s.passes(&grants, &BTreeSet::new()).await?;
    Ok(Proposal {
        policy,
        stopped,
        together,
        unresolved,
        failing_anyway,
        verified,
        runs: s.runs,
    })
}

/// The smallest set of `all` that, set into `grants` by `put`, lets the
/// checks pass with `relaxed`; None when even all of it does not. Found by
/// halving: one or two needed items out of forty cost about a dozen runs,
/// not forty.
async fn grant_smallest<T: Clone>(
    s: &mut Search<'_>,
    grants: &Grants,
    relaxed: &BTreeSet<Layer>,
    all: Vec<T>,
    put: impl Fn(&mut Grants, Vec<T>),
) -> Result<Option<Grants>> {
    let with = |set: Vec<T>| {
        let mut g = grants.clone();
        put(&mut g, set);
        g
    };
    if all.is_empty() || !s.passes(&with(all.clone()), relaxed).await? {
        return Ok(None);
    }
    if s.passes(&with(Vec::new()), relaxed).await? {
        return Ok(Some(with(Vec::new())));
    }
    let mut keep = all;
    let mut parts = 2usize;
    while keep.len() > 1 {
        let size = keep.len().div_ceil(parts);
        let mut dropped = false;
        for start in (0..keep.len()).step_by(size) {
            let without: Vec<T> = keep
                .iter()
                .enumerate()
                .filter(|(i, _)| *i < start || *i >= start + size)
                .map(|(_, t)| t.clone())
                .collect();
            if s.passes(&with(without.clone()), relaxed).await? {
                keep = without;
                parts = (parts - 1).max(2);
                dropped = true;
                break;
            }
        }
        if !dropped {
            if parts >= keep.len() {
                break;
            }
            parts = (parts * 2).min(keep.len());
        }
    }
    Ok(Some(with(keep)))
}

//! The fingerprint checks, shared by `validate` and `test`: one fingerprint
//! call with the protocol's empty environment, judged by the family module
//! (the one place that knows what a healthy fingerprint is), one check per
//! way it can go wrong.

use crate::error::Hint;
use std::path::Path;
use std::time::Duration;

use super::{Report, Verdict};
use crate::error::PluginFailure;
use crate::families::{self, Quote, host_volume};
use crate::family::Family;
use crate::nomad::Profile;
use crate::runner::{Invocation, Outcome, Pool, SpawnError};
use plugctl_protocol::json;

/// Nomad's effective host-volume fingerprint budget on every release (the
/// discovery context: see [`crate::nomad`]); also the yardstick for a
/// family Nomad does not know.
pub const BUDGET: Duration = crate::nomad::HOST_VOLUME_FINGERPRINT_BUDGET;

/// The PATH of the second attempt that tells "needs an inherited PATH"
/// apart from "broken".
pub const INHERITED_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// One fingerprint call and what came of it.
#[derive(Debug)]
pub struct Run {
    pub family: String,
    pub inv: Invocation,
    pub result: Result<Outcome, SpawnError>,
    /// The release judged against, and the user's `--timeout` (which
    /// replaces its budget): see [`crate::verdict::too_slow`].
    pub profile: Profile,
    pub timeout: Option<Duration>,
}

impl Run {
    /// Healthy, as `plugctl fingerprint` (and Nomad) would judge it: a
    /// good answer, in time for the release.
    pub fn healthy(&self) -> bool {
        match &self.result {
            Ok(out) => {
                families::parse_fingerprint(self.profile.dialect(), &self.family, &self.inv, out)
                    .is_ok()
                    && self.too_slow().is_none()
                    && self.crashes_client().is_none()
            }
            Err(_) => false,
        }
    }

    /// Why a call that succeeded while writing on stderr crashes a client
    /// of the release judged against (see
    /// [`crate::verdict::stderr_crashes_client`]).
    pub fn crashes_client(&self) -> Option<String> {
        let out = self.result.as_ref().ok()?;
        crate::verdict::stderr_crashes_client(
            &self.family,
            crate::family::Operation::Fingerprint,
            self.profile,
            out,
        )
    }

    /// "too slow for Nomad: 1.42 s > 1 s", for an answer past the budget.
    pub fn too_slow(&self) -> Option<String> {
        let out = self.result.as_ref().ok().filter(|o| !o.timed_out)?;
        crate::verdict::too_slow(&self.family, out.duration, self.profile, self.timeout)
    }

    /// The outcome, when the call ran and ended by itself with status 0.
    fn succeeded(&self) -> Option<&Outcome> {
        match &self.result {
            Ok(out) if families::judge(&self.inv, out, Quote::Allowed).is_ok() => Some(out),
            _ => None,
        }
    }

    /// The parsed stdout of a successful call.
    fn object(&self) -> Option<json::Object> {
        let out = self.succeeded()?;
        families::parse_stdout(
            &self.inv,
            out,
            Quote::Allowed,
            families::fingerprint_go_type(&self.family),
        )
        .ok()
    }
}

/// How a fingerprint is run and judged: the release, and the user's
/// `--timeout` (the deadline, and the budget a healthy answer keeps).
#[derive(Debug, Clone, Copy)]
pub struct Judged {
    pub profile: Profile,
    pub timeout: Option<Duration>,
    pub grace: Duration,
}

/// Runs one fingerprint exactly as the protocol says, plus `extra_env`.
pub async fn run(
    pool: &Pool,
    family: &str,
    program: &Path,
    judged: Judged,
    extra_env: &[(&str, &str)],
) -> Run {
    let deadline = judged
        .timeout
        .unwrap_or_else(|| judged.profile.fingerprint_deadline(family));
    let mut inv = families::fingerprint_invocation(family, program, deadline, judged.grace);
    for (k, v) in extra_env {
        inv = inv.env(k, v);
    }
    let result = pool.run(&inv).await;
    Run {
        family: family.to_string(),
        inv,
        result,
        profile: judged.profile,
        timeout: judged.timeout,
    }
}

/// The checks that need a fingerprint run, in order, for one family.
pub fn checks(family: &str) -> Vec<&'static str> {
    let mut v = vec![
        "fingerprint.runs",
        "fingerprint.output",
        "fingerprint.version",
    ];
    let secrets = Family::Secrets.is(family);
    if secrets {
        v.push("fingerprint.type");
    }
    v.push("fingerprint.slow");
    if secrets {
        v.push("fingerprint.stderr");
    }
    v.push("runnable.needs-path");
    v
}

/// Every check that needs a fingerprint run, of any family.
pub fn checks_all() -> &'static [&'static str] {
    &[
        "fingerprint.runs",
        "fingerprint.output",
        "fingerprint.version",
        "fingerprint.type",
        "fingerprint.slow",
        "fingerprint.stderr",
        "runnable.needs-path",
    ]
}

/// Records every fingerprint check but `runnable.needs-path` (which runs the
/// plugin again: see [`needs_path`]).
pub fn record_checks(r: &mut Report, plugin: Option<&str>, run: &Run) {
    r.record(plugin, "fingerprint.runs", runs(run));
    r.record(plugin, "fingerprint.output", output(run));
    r.record(plugin, "fingerprint.version", version(run));
    let secrets = Family::Secrets.is(&run.family);
    if secrets {
        r.record(plugin, "fingerprint.type", kind(run));
    }
    r.record(plugin, "fingerprint.slow", slow(run));
    if secrets {
        r.record(plugin, "fingerprint.stderr", stderr(run));
    }
}

/// `fingerprint.runs` (error): starts, ends in time, exits 0.
pub fn runs(run: &Run) -> Verdict {
    let out = match &run.result {
        Ok(out) => out,
        // plugctl's own shortage, a refusal (trust, pin): the file is not
        // at fault, so no hint about it.
        Err(e @ crate::runner::SpawnError::Exhausted { .. }) => {
            return Verdict::error(format!(
                "could not start: {}",
                families::spawn_failure(e.clone())
            ));
        }
        Err(e @ crate::runner::SpawnError::Other { .. }) => {
            return Verdict::error(format!(
                "fingerprint could not start: {}",
                families::spawn_failure(e.clone())
            ));
        }
        Err(e @ crate::runner::SpawnError::Refused { .. }) => {
            let failure = families::spawn_failure(e.clone());
            let v = Verdict::error(failure.to_string());
            return match failure.hint() {
                Some(hint) => v.hint(hint.clone()),
                None => v,
            };
        }
        Err(e) => {
            return Verdict::error(format!(
                "fingerprint could not start: {}; check the file's shebang and execute bit",
                families::spawn_failure(e.clone())
            ));
        }
    };
    match families::judge(&run.inv, out, Quote::Allowed) {
        Ok(()) => Verdict::pass(),
        Err(f @ PluginFailure::TimedOut { .. }) => Verdict::error(format!(
            "fingerprint {f}: it must answer at once (Nomad allows about 1 s at agent start); \
             do no slow work in fingerprint"
        )),
        Err(f) => Verdict::error(format!(
            "fingerprint {f}: it must exit 0, with the protocol's environment only \
             (no PATH, no HOME; run it with `env -i {}=fingerprint {} fingerprint` to see)",
            operation_var(&run.family),
            crate::provenance::shell_path(&run.inv.program)
        )),
    }
}

fn operation_var(family: &str) -> &'static str {
    if Family::HostVolume.is(family) {
        "DHV_OPERATION"
    } else {
        "CPI_OPERATION"
    }
}

/// `fingerprint.output` (error): stdout is exactly one JSON object.
pub fn output(run: &Run) -> Verdict {
    let Some(out) = run.succeeded() else {
        return Verdict::skip("the fingerprint failed (see fingerprint.runs)");
    };
    let go_type = families::fingerprint_go_type(&run.family);
    match families::parse_stdout(&run.inv, out, Quote::Allowed, go_type) {
        Ok(_) => Verdict::pass(),
        Err(f) => Verdict::error(format!(
            "{f}: stdout must hold one JSON object and nothing else (Nomad rejects text \
             before or after it); send log lines to stderr"
        )),
    }
}

/// `fingerprint.version` (error): a version that go-version accepts. The
/// host-volume rule (parse only) is every family's.
pub fn version(run: &Run) -> Verdict {
    let Some(out) = run.succeeded() else {
        return Verdict::skip("the fingerprint failed (see fingerprint.runs)");
    };
    if run.object().is_none() {
        return Verdict::skip("stdout is not JSON (see fingerprint.output)");
    }
    match host_volume::parse_fingerprint(run.profile.dialect(), &run.inv, out) {
        Ok(_) => Verdict::pass(),
        Err(f) => Verdict::error(format!(
            "{f}; print a version string such as {{\"version\": \"1.0.0\"}}"
        )),
    }
}

/// `fingerprint.type` (error, secrets): `type` is exactly `secrets`.
pub fn kind(run: &Run) -> Verdict {
    let (Some(out), Some(obj)) = (run.succeeded(), run.object()) else {
        return Verdict::skip(
            "no fingerprint output to check (see fingerprint.runs, fingerprint.output)",
        );
    };
    if matches!(obj.string("type"), Ok(Some(t)) if Family::Secrets.is(&t)) {
        return Verdict::pass();
    }
    match families::secrets::parse_fingerprint(run.profile.dialect(), &run.inv, out) {
        Ok(_) => Verdict::pass(),
        Err(f) => Verdict::error(format!(
            "{f}; print {{\"type\": \"secrets\", \"version\": \"1.0.0\"}}"
        )),
    }
}

/// `fingerprint.slow`: slower than Nomad allows. A host-volume fingerprint
/// gets 1 s on every release: past it, an error (the plugin is unhealthy,
/// as `fingerprint` records it) unless `--timeout` raised the budget; a
/// secrets one 10 s before 2.0.0 (60 s after, past which it timed out): a
/// warning, as the newer releases take it.
pub fn slow(run: &Run) -> Verdict {
    let short = crate::nomad::SECRETS_DEADLINE_SHORT;
    match &run.result {
        Ok(out) if out.timed_out => {
            Verdict::skip("the fingerprint timed out (see fingerprint.runs)")
        }
        Ok(out) if Family::Secrets.is(&run.family) && out.duration > short => {
            Verdict::warning(format!(
                "fingerprint took {:.1} s; Nomad before {} stops a secrets plugin after {} s, \
                 so it works on later releases only; answer fingerprint without doing any work",
                out.duration.as_secs_f64(),
                crate::nomad::Profile::row(crate::nomad::Change::LongSecretsDeadline).since_text(),
                short.as_secs()
            ))
        }
        Ok(_) if Family::Secrets.is(&run.family) => Verdict::pass(),
        // An error: `fingerprint` records the plugin unhealthy for it, and
        // a Nomad client drops it.
        Ok(_) => match run.too_slow() {
            Some(reason) => Verdict::error(format!(
                "{reason}: a Nomad client gives a host-volume fingerprint {} at agent start \
                 and drops a slower plugin; answer fingerprint without doing any work",
                crate::verdict::seconds(BUDGET)
            ))
            .hint(Hint::Timeout),
            None => Verdict::pass(),
        },
        Err(_) => Verdict::skip("the fingerprint did not start (see fingerprint.runs)"),
    }
}

/// `fingerprint.stderr` (error, secrets): stderr on success crashes a
/// client of every release with secrets plugins, so `fingerprint` calls
/// the plugin unhealthy for it, in the same words. Its text is never
/// quoted: it may hold a value.
pub fn stderr(run: &Run) -> Verdict {
    if run.succeeded().is_none() {
        return Verdict::skip("the fingerprint failed (see fingerprint.runs)");
    }
    match run.crashes_client() {
        Some(why) => Verdict::error(format!("the fingerprint {why}")),
        None => Verdict::pass(),
    }
}

/// `runnable.needs-path` (warning): when the fingerprint fails with the
/// protocol's empty environment, it is run once more with a PATH; if it
/// then passes, the plugin relies on an environment Nomad never gives it.
pub async fn needs_path(pool: &Pool, first: &Run) -> Verdict {
    if first.healthy() {
        return Verdict::pass();
    }
    if matches!(&first.result, Ok(out) if out.timed_out) {
        return Verdict::skip("the fingerprint timed out (see fingerprint.runs)");
    }
    // Refused, it never ran: a PATH can lift the refusal (of a working
    // directory plugctl does not trust) and would then read as the cause.
    if let Err(crate::runner::SpawnError::Refused { .. }) = &first.result {
        return Verdict::skip("the fingerprint was not run (see fingerprint.runs)");
    }
    let mut inv = first.inv.clone();
    inv.env.push(("PATH".into(), INHERITED_PATH.into()));
    let again = Run {
        family: first.family.clone(),
        result: pool.run(&inv).await,
        inv,
        profile: first.profile,
        timeout: first.timeout,
    };
    if let Err(crate::runner::SpawnError::Refused { message, .. }) = &again.result {
        return Verdict::skip(format!("not tried with PATH={INHERITED_PATH}: {message}"));
    }
    if again.healthy() {
        Verdict::warning(format!(
            "fingerprint fails with the protocol's empty environment but works with \
             PATH={INHERITED_PATH}: it relies on an inherited PATH, which Nomad never passes; \
             set PATH at the top of the plugin (e.g. `PATH=/usr/sbin:/usr/bin:/sbin:/bin; \
             export PATH`) or call programs by absolute path"
        ))
    } else {
        Verdict::skip(format!(
            "the fingerprint fails with PATH={INHERITED_PATH} too, so a missing PATH is not \
             the cause"
        ))
    }
}

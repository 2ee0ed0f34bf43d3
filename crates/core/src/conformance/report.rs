//! A [`Report`] as data: its tally and the JSON document scripts read
//! (docs/cli.md). The command line renders it for people and as JUnit.

use serde::Serialize;

use super::{CheckRun, Finding, Outcome, Report, Severity};

/// The name of the scope a check ran on, for people and JUnit.
pub fn scope(plugin: Option<&str>) -> &str {
    plugin.unwrap_or("(plugin directory)")
}

/// How many checks ended which way.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub checks: usize,
    pub passed: usize,
    pub warned: usize,
    pub failed: usize,
    pub skipped: usize,
}

impl Tally {
    pub fn of(report: &Report) -> Tally {
        let mut t = Tally::default();
        for c in &report.checks_run {
            t.checks += 1;
            match c.outcome {
                Outcome::Passed => t.passed += 1,
                Outcome::Warned => t.warned += 1,
                Outcome::Failed => t.failed += 1,
                Outcome::Skipped(_) => t.skipped += 1,
            }
        }
        t
    }
}

pub fn outcome_name(o: &Outcome) -> &'static str {
    match o {
        Outcome::Passed => "passed",
        Outcome::Warned => "warned",
        Outcome::Failed => "failed",
        Outcome::Skipped(_) => "skipped",
    }
}

/// The document docs/cli.md describes: `schema_version` (added by the printer), `ok`,
/// `findings`; then `checks` (every check run with its outcome), `summary`,
/// and the caller's `extra` fields. It borrows the report and is written
/// straight to stdout by the command line's printer: no JSON
/// tree of 10,000 plugins' checks is built first.
pub fn json<E: Serialize>(report: &Report, ok: bool, extra: E) -> JsonReport<'_, E> {
    let t = Tally::of(report);
    JsonReport {
        ok,
        findings: &report.findings,
        checks: Checks(&report.checks_run),
        summary: Summary {
            checks: t.checks,
            passed: t.passed,
            warned: t.warned,
            failed: t.failed,
            skipped: t.skipped,
            errors: report.count(Severity::Error),
            warnings: report.count(Severity::Warning),
            infos: report.count(Severity::Info),
        },
        extra,
    }
}

/// See [`json`].
#[derive(Debug, Serialize)]
pub struct JsonReport<'a, E> {
    pub ok: bool,
    pub findings: &'a [Finding],
    pub checks: Checks<'a>,
    pub summary: Summary,
    #[serde(flatten)]
    pub extra: E,
}

/// The counts of a report, as JSON.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Summary {
    pub checks: usize,
    pub passed: usize,
    pub warned: usize,
    pub failed: usize,
    pub skipped: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
}

/// Every check run: `{"plugin", "check", "outcome"}`, and a skip's `reason`.
#[derive(Debug)]
pub struct Checks<'a>(pub &'a [CheckRun]);

impl Serialize for Checks<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct One<'a> {
            plugin: Option<&'a str>,
            check: &'a str,
            outcome: &'static str,
            #[serde(skip_serializing_if = "Option::is_none")]
            reason: Option<&'a str>,
        }
        s.collect_seq(self.0.iter().map(|c| One {
            plugin: c.plugin.as_deref(),
            check: &c.check,
            outcome: outcome_name(&c.outcome),
            reason: match &c.outcome {
                Outcome::Skipped(reason) => Some(reason),
                _ => None,
            },
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::Verdict;

    fn sample() -> Report {
        let mut r = Report::new();
        r.record(Some("hv/a"), "x.pass", Verdict::pass());
        r.record(Some("hv/a"), "x.err", Verdict::error("bad <thing> & \u{7}"));
        r.record(Some("hv/b"), "x.warn", Verdict::warning("meh"));
        r.record(Some("hv/b"), "x.skip", Verdict::skip("why \"not\""));
        r.record(None, "x.info", Verdict::info("note"));
        r
    }

    #[test]
    fn json_document_fields() {
        let r = sample();
        let v =
            serde_json::to_value(json(&r, r.ok(false), serde_json::json!({"dir": "/p"}))).unwrap();
        assert_eq!(v["ok"], false);
        assert_eq!(v["dir"], "/p");
        assert_eq!(v["findings"].as_array().unwrap().len(), 3);
        let f = &v["findings"][0];
        for k in ["severity", "plugin", "check", "message"] {
            assert!(f.get(k).is_some(), "{k}");
        }
        assert_eq!(v["summary"]["checks"], 5);
        assert_eq!(v["checks"][3]["reason"], "why \"not\"");
    }
}

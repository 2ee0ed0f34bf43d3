//! `validate` (a lint of a plugin directory) and `test` (a conformance suite
//! for one plugin). Both produce a [`Report`]: findings, each with a
//! severity, the plugin, a stable check name and a message that says how to
//! fix it, plus every check that ran, so that JUnit can list the passing
//! ones too.
//!
//! Every check is a small named unit that returns a [`Verdict`]; check
//! names are part of the contract (scripts and CI filters match on them).

pub mod fingerprint;
pub mod layout;
pub mod matrix;
pub mod permissions;
pub mod propose;
pub mod report;
pub mod runnable;
pub mod sandbox;
pub mod subject;
pub mod suite;
pub mod validate;

use std::borrow::Cow;
use std::sync::Arc;

use serde::{Serialize, Serializer};

use crate::error::Hint;

/// A check's name: a literal for the fixed checks, made once for the
/// per-release ones (`release.1.11.0`). Never a copy per plugin.
pub type CheckName = Cow<'static, str>;

/// The scope of a finding or a check run: `family/name` for a plugin, the
/// family for a family directory, `None` for the plugin directory itself.
/// Shared by every record of one scope, so a directory of 10,000 plugins
/// holds each id once.
pub type Scope = Option<Arc<str>>;

fn serialize_scope<S: Serializer>(scope: &Scope, s: S) -> Result<S::Ok, S::Error> {
    match scope {
        Some(id) => s.serialize_str(id),
        None => s.serialize_none(),
    }
}

/// How bad a finding is. `Error` fails `validate` and `test`; `Warning`
/// fails `validate --strict`; `Info` never fails anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One problem found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub severity: Severity,
    /// `family/name` for a plugin, `family` for a family directory, `None`
    /// for the plugin directory itself.
    #[serde(serialize_with = "serialize_scope")]
    pub plugin: Scope,
    pub check: CheckName,
    pub message: String,
    /// What would change the finding, for the front end to word into the
    /// message ([`Report::advise`]) before it is shown.
    #[serde(skip)]
    pub hint: Option<Hint>,
}

/// How one check ended for one plugin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase", tag = "outcome", content = "reason")]
pub enum Outcome {
    /// Nothing found (an `info` finding may still have been made).
    Passed,
    /// Only warnings: passes unless `--strict`.
    Warned,
    /// At least one error.
    Failed,
    /// Not run; the reason says why.
    Skipped(String),
}

/// One check × one plugin (or family, or the directory), as run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckRun {
    pub plugin: Scope,
    pub check: CheckName,
    pub outcome: Outcome,
    /// What a skip's reason is for, or what would change it, for the front
    /// end to word into the reason ([`Report::advise`]).
    pub hint: Option<Hint>,
}

/// What a check unit says about its subject. Each issue becomes a finding
/// under the check's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Checked; these issues found (none: passed).
    Issues(Vec<(Severity, String)>),
    /// Not run, and why.
    Skip(String),
    /// Does not apply to this subject at all (not listed in the report).
    NotApplicable,
    /// A verdict whose messages (or skip reason) carry a hint, for the
    /// front end to word ([`Report::advise`]).
    Hinted(Box<Verdict>, Hint),
}

impl Verdict {
    pub fn pass() -> Verdict {
        Verdict::Issues(Vec::new())
    }

    pub fn one(severity: Severity, message: impl Into<String>) -> Verdict {
        Verdict::Issues(vec![(severity, message.into())])
    }

    pub fn error(message: impl Into<String>) -> Verdict {
        Verdict::one(Severity::Error, message)
    }

    pub fn warning(message: impl Into<String>) -> Verdict {
        Verdict::one(Severity::Warning, message)
    }

    pub fn info(message: impl Into<String>) -> Verdict {
        Verdict::one(Severity::Info, message)
    }

    pub fn skip(reason: impl Into<String>) -> Verdict {
        Verdict::Skip(reason.into())
    }

    /// This verdict with what would change it (or what its skip is for).
    pub fn hint(self, hint: Hint) -> Verdict {
        Verdict::Hinted(Box::new(self), hint)
    }

    /// True when the check found an error.
    pub fn has_error(&self) -> bool {
        match self {
            Verdict::Hinted(v, _) => v.has_error(),
            Verdict::Issues(v) => v.iter().any(|(s, _)| *s == Severity::Error),
            _ => false,
        }
    }

    /// True when the check ran and found nothing worse than info.
    pub fn clean(&self) -> bool {
        match self {
            Verdict::Hinted(v, _) => v.clean(),
            Verdict::Issues(v) => v.iter().all(|(s, _)| *s == Severity::Info),
            _ => false,
        }
    }
}

/// Everything `validate` or `test` found.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub findings: Vec<Finding>,
    pub checks_run: Vec<CheckRun>,
}

impl Report {
    pub fn new() -> Report {
        Report::default()
    }

    /// Records one check's verdict for one subject. Consecutive records of
    /// one scope share its id.
    pub fn record(&mut self, plugin: Option<&str>, check: impl Into<CheckName>, verdict: Verdict) {
        let (mut verdict, mut hint) = (verdict, None);
        while let Verdict::Hinted(v, h) = verdict {
            // The outermost hint is the one said.
            hint = hint.or(Some(h));
            verdict = *v;
        }
        let outcome = match verdict {
            Verdict::NotApplicable | Verdict::Hinted(..) => return,
            Verdict::Skip(reason) => Outcome::Skipped(reason),
            Verdict::Issues(issues) => {
                let worst = issues.iter().map(|(s, _)| *s).min();
                let check = check.into();
                let scope = self.scope(plugin);
                for (severity, message) in issues {
                    self.findings.push(Finding {
                        severity,
                        plugin: scope.clone(),
                        check: check.clone(),
                        message,
                        hint: hint.clone(),
                    });
                }
                let outcome = match worst {
                    Some(Severity::Error) => Outcome::Failed,
                    Some(Severity::Warning) => Outcome::Warned,
                    _ => Outcome::Passed,
                };
                self.checks_run.push(CheckRun {
                    plugin: scope,
                    check,
                    outcome,
                    hint: None,
                });
                return;
            }
        };
        let scope = self.scope(plugin);
        self.checks_run.push(CheckRun {
            plugin: scope,
            check: check.into(),
            outcome,
            hint,
        });
    }

    /// Words every hint into the message or skip reason it is about, with
    /// `words` (the front end's: message and hint to text), and drops it.
    /// A report is shown after this.
    pub fn advise(&mut self, words: impl Fn(&str, &Hint) -> String) {
        for f in &mut self.findings {
            if let Some(hint) = f.hint.take() {
                f.message = words(&f.message, &hint);
            }
        }
        for c in &mut self.checks_run {
            if let Some(hint) = c.hint.take()
                && let Outcome::Skipped(reason) = &mut c.outcome
            {
                *reason = words(reason, &hint);
            }
        }
    }

    /// The shared id of `plugin`: the last record's, when it is the same.
    fn scope(&self, plugin: Option<&str>) -> Scope {
        let plugin = plugin?;
        match self.checks_run.last().and_then(|c| c.plugin.as_ref()) {
            Some(last) if &**last == plugin => Some(Arc::clone(last)),
            _ => Some(Arc::from(plugin)),
        }
    }

    /// Appends another report (e.g. one plugin's checks, run concurrently).
    pub fn extend(&mut self, other: Report) {
        self.findings.extend(other.findings);
        self.checks_run.extend(other.checks_run);
    }

    pub fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == severity)
            .count()
    }

    /// No error, and with `strict` no warning either.
    pub fn ok(&self, strict: bool) -> bool {
        self.findings.iter().all(|f| match f.severity {
            Severity::Error => false,
            Severity::Warning => !strict,
            Severity::Info => true,
        })
    }

    /// The findings of one check run.
    pub fn findings_of<'a>(
        &'a self,
        plugin: Option<&'a str>,
        check: &'a str,
    ) -> impl Iterator<Item = &'a Finding> {
        self.findings
            .iter()
            .filter(move |f| f.plugin.as_deref() == plugin && f.check == check)
    }

    /// Orders findings worst first, then by plugin and check, for reading.
    pub fn sort(&mut self) {
        self.findings.sort_by(|a, b| {
            (a.severity, &a.plugin, &a.check).cmp(&(b.severity, &b.plugin, &b.check))
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_follow_the_worst_finding() {
        let mut r = Report::new();
        r.record(Some("a/b"), "x.pass", Verdict::pass());
        r.record(Some("a/b"), "x.info", Verdict::info("fyi"));
        r.record(Some("a/b"), "x.warn", Verdict::warning("hmm"));
        r.record(
            Some("a/b"),
            "x.err",
            Verdict::Issues(vec![
                (Severity::Warning, "w".into()),
                (Severity::Error, "e".into()),
            ]),
        );
        r.record(Some("a/b"), "x.skip", Verdict::skip("why"));
        r.record(Some("a/b"), "x.na", Verdict::NotApplicable);
        let outcomes: Vec<_> = r.checks_run.iter().map(|c| c.outcome.clone()).collect();
        assert_eq!(
            outcomes,
            [
                Outcome::Passed,
                Outcome::Passed,
                Outcome::Warned,
                Outcome::Failed,
                Outcome::Skipped("why".into())
            ]
        );
        assert_eq!(r.findings.len(), 4);
        assert!(!r.ok(false));
        assert_eq!(r.findings_of(Some("a/b"), "x.err").count(), 2);
    }

    #[test]
    fn strict_fails_on_warnings_only() {
        let mut r = Report::new();
        r.record(None, "x.info", Verdict::info("fyi"));
        assert!(r.ok(true));
        r.record(None, "x.warn", Verdict::warning("w"));
        assert!(r.ok(false));
        assert!(!r.ok(true));
    }
}

//! Conformance reports (`validate`, `test`) and the release matrix for
//! people — text with colour on a terminal — and as JUnit XML for CI
//! systems (one testcase per plugin × check). The library's
//! [`plugctl_core::conformance::Report`] is the data; this is its look.

use std::collections::HashMap;
use std::fmt::Write as _;

use plugctl_core::conformance::matrix::{self, Matrix, Status};
use plugctl_core::conformance::report::{Tally, scope};
use plugctl_core::conformance::{CheckRun, Finding, Outcome, Report, Severity};
use plugctl_core::nomad::Release;

use crate::output::{Printer, Style, display_width, sanitize_cell};

fn severity_style(s: Severity) -> Style {
    match s {
        Severity::Error => Style::Bad,
        Severity::Warning => Style::Warn,
        Severity::Info => Style::Dim,
    }
}

/// `validate`'s text: each finding (worst first) on a line of its own,
/// its message indented below, then (with `--nomad-version`) the matrix,
/// whose reasons stand there instead of among the findings, then a summary
/// line.
pub fn human_findings(
    report: &Report,
    printer: &Printer,
    title: &str,
    ok: bool,
    matrix: Option<&[Release]>,
) -> String {
    let mut s = String::new();
    let listed = report
        .findings
        .iter()
        .filter(|f| matrix.is_none() || !matrix::is_release_check(&f.check));
    let mut any = false;
    for f in listed {
        any = true;
        let _ = writeln!(
            s,
            "{:<7}  {}  {}",
            printer.paint(f.severity.as_str(), severity_style(f.severity)),
            crate::output::value(scope(f.plugin.as_deref())),
            f.check
        );
        let _ = writeln!(s, "         {}", sanitize_cell(&f.message));
    }
    if any {
        s.push('\n');
    }
    if let Some(releases) = matrix {
        let table = self::matrix(&matrix::rows(report, releases), printer);
        if !table.is_empty() {
            s.push_str(&table);
            s.push('\n');
        }
    }
    s.push_str(&summary(report, printer, title, ok));
    s
}

/// `test`'s text: every check with its outcome, the findings' messages
/// below the check that made them, then a summary line.
pub fn human_checks(report: &Report, printer: &Printer, title: &str, ok: bool) -> String {
    let mut s = String::new();
    let width = report
        .checks_run
        .iter()
        .map(|c| c.check.len())
        .max()
        .unwrap_or(0);
    for c in &report.checks_run {
        let (label, style) = match &c.outcome {
            Outcome::Passed => ("PASS", Style::Good),
            Outcome::Warned => ("WARN", Style::Warn),
            Outcome::Failed => ("FAIL", Style::Bad),
            Outcome::Skipped(_) => ("SKIP", Style::Dim),
        };
        let _ = write!(s, "{}  {:<width$}", printer.paint(label, style), c.check);
        if let Outcome::Skipped(reason) = &c.outcome {
            let _ = write!(s, "  {}", sanitize_cell(reason));
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
        for f in report.findings_of(c.plugin.as_deref(), &c.check) {
            let _ = writeln!(
                s,
                "      {}: {}",
                f.severity.as_str(),
                sanitize_cell(&f.message)
            );
        }
    }
    s.push('\n');
    s.push_str(&summary(report, printer, title, ok));
    s
}

fn summary(report: &Report, printer: &Printer, title: &str, ok: bool) -> String {
    let t = Tally::of(report);
    let verdict = if ok {
        printer.paint("ok", Style::Good)
    } else {
        printer.paint("FAILED", Style::Bad)
    };
    format!(
        "{verdict}: {}: {}: {} passed, {} failed, {} warned, {} skipped ({}, {}, {})\n",
        crate::output::value(title),
        plural(t.checks, "check"),
        t.passed,
        t.failed,
        t.warned,
        t.skipped,
        plural(report.count(Severity::Error), "error"),
        plural(report.count(Severity::Warning), "warning"),
        plural(report.count(Severity::Info), "note"),
    )
}

/// "1 error", "2 errors".
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// JUnit XML, written by `quick-junit`: one `<testsuite>` per plugin (or
/// family, or the directory), one `<testcase>` per check run. A check with
/// an error is a `<failure>`; with only warnings it is a `<failure>` under
/// `strict` and otherwise passes with the warnings in `<system-out>`; a
/// skipped check is `<skipped>`; notes go to `<system-out>`.
pub fn junit(report: &Report, suite: &str, strict: bool) -> crate::Result<String> {
    let mut out = Vec::new();
    write_junit(report, suite, strict, &mut out).map_err(junit_error)?;
    String::from_utf8(out).map_err(|e| junit_error(std::io::Error::other(e)))
}

fn junit_error(e: std::io::Error) -> crate::Error {
    crate::Error::io("cannot write the JUnit report", e)
}

/// [`junit`], written as it is made: the totals first (from the checks
/// run), then one suite at a time, each serialized by quick-junit on its
/// own, so a report of 10,000 plugins never holds more than one plugin's
/// test cases. The bytes are those of the whole report serialized at once.
pub fn write_junit(
    report: &Report,
    suite: &str,
    strict: bool,
    w: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    use quick_junit::Report as Junit;

    let xml_error = |e: quick_junit::SerializeError| std::io::Error::other(e.to_string());
    // Findings by (plugin, check), looked up once per testcase: a scan per
    // testcase would be quadratic on a directory of 10,000 plugins.
    let mut by_check: HashMap<(Option<&str>, &str), Vec<&Finding>> = HashMap::new();
    for f in &report.findings {
        by_check
            .entry((f.plugin.as_deref(), &*f.check))
            .or_default()
            .push(f);
    }
    // Suites in the order their first check ran.
    let mut suites: Vec<(Option<&str>, Vec<&CheckRun>)> = Vec::new();
    let mut index: HashMap<Option<&str>, usize> = HashMap::new();
    for c in &report.checks_run {
        let key = c.plugin.as_deref();
        let i = *index.entry(key).or_insert_with(|| {
            suites.push((key, Vec::new()));
            suites.len() - 1
        });
        suites[i].1.push(c);
    }

    // The opening of the whole report, with its totals, as quick-junit
    // writes it: an empty report carrying them, cut before its end tag.
    let mut totals = Junit::new(visible(suite));
    for c in &report.checks_run {
        totals.tests += 1;
        if is_failure(&c.outcome, strict) {
            totals.failures += 1;
        } else if matches!(c.outcome, Outcome::Skipped(_)) {
            totals.skipped += 1;
        }
    }
    let head = totals.to_string().map_err(xml_error)?;
    let end = head.rfind("</testsuites>").unwrap_or(head.len());
    w.write_all(&head.as_bytes()[..end])?;
    for (key, runs) in suites {
        let mut one = Junit::new("");
        one.add_test_suite(test_suite(suite, key, &runs, &by_check, strict));
        let text = one.to_string().map_err(xml_error)?;
        // The suite as it stands inside the whole report.
        let start = text
            .find("<testsuite ")
            .map_or(0, |at| text[..at].rfind('\n').map_or(0, |nl| nl + 1));
        let stop = text.rfind("</testsuites>").unwrap_or(text.len());
        w.write_all(&text.as_bytes()[start..stop])?;
    }
    w.write_all(b"</testsuites>\n")
}

fn is_failure(o: &Outcome, strict: bool) -> bool {
    match o {
        Outcome::Failed => true,
        Outcome::Warned => strict,
        _ => false,
    }
}

/// One plugin's (or scope's) `<testsuite>`.
fn test_suite(
    suite: &str,
    key: Option<&str>,
    runs: &[&CheckRun],
    by_check: &HashMap<(Option<&str>, &str), Vec<&Finding>>,
    strict: bool,
) -> quick_junit::TestSuite {
    use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};

    let line = |f: &&Finding| format!("{}: {}", f.severity.as_str(), f.message);
    let name = scope(key);
    let mut ts = TestSuite::new(visible(&format!("{suite}: {name}")));
    for c in runs {
        let findings = by_check
            .get(&(key, &*c.check))
            .map_or(&[][..], Vec::as_slice);
        let failing = is_failure(&c.outcome, strict);
        let status = if failing {
            let shown: Vec<&&Finding> = findings
                .iter()
                .filter(|f| f.severity == Severity::Error || strict)
                .filter(|f| f.severity != Severity::Info)
                .collect();
            let mut st = TestCaseStatus::non_success(NonSuccessKind::Failure);
            st.set_type(visible(&c.check));
            st.set_message(visible(shown.first().map_or("", |f| f.message.as_str())));
            let all: Vec<String> = shown.iter().map(|f| line(f)).collect();
            st.set_description(visible(&all.join("\n")));
            st
        } else if let Outcome::Skipped(reason) = &c.outcome {
            let mut st = TestCaseStatus::skipped();
            st.set_message(visible(reason));
            st
        } else {
            TestCaseStatus::success()
        };
        let mut tc = TestCase::new(visible(&c.check), status);
        tc.set_classname(visible(name));
        let notes: Vec<String> = findings
            .iter()
            .filter(|f| f.severity == Severity::Info || !failing)
            .map(line)
            .collect();
        if !notes.is_empty() {
            tc.set_system_out(visible(&notes.join("\n")));
        }
        ts.add_test_case(tc);
    }
    ts
}

/// Text as XML 1.0 can carry it: a character it forbids (most C0 controls,
/// an escape sequence's ESC) is written as a `\u{..}` escape, so the
/// report shows it instead of quick-junit silently dropping it; and as a
/// terminal is shown it, first (a CI page shows the report to a person):
/// DEL, C1 controls (which quick-junit drops too) and reordering,
/// invisible or line-breaking characters escaped in the same style.
pub fn visible(s: &str) -> String {
    let s = &*plugctl_core::escape::escape_untrusted(s, false);
    if s.chars().all(allowed_in_xml) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if allowed_in_xml(c) {
            out.push(c);
        } else {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
    out
}

/// XML 1.0's Char production.
fn allowed_in_xml(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// The human view: a table of plugins × releases, then why not, one line
/// per plugin and reason with the releases it holds for.
pub fn matrix(matrix: &Matrix<'_>, printer: &Printer) -> String {
    let mut out = String::new();
    if matrix.plugins.is_empty() {
        return out;
    }
    // Cells as text and style; columns as wide as their widest cell plus
    // two spaces, measured before the styles add their escapes.
    let mut lines: Vec<Vec<(String, Style)>> = Vec::with_capacity(matrix.plugins.len() + 1);
    let mut head = vec![("PLUGIN".to_string(), Style::Dim)];
    head.extend(
        matrix
            .releases
            .iter()
            .map(|r| (format!("NOMAD {r}"), Style::Dim)),
    );
    lines.push(head);
    for row in &matrix.plugins {
        let mut cells = vec![(crate::output::value(row.plugin).into_owned(), Style::Plain)];
        cells.extend(
            row.releases
                .iter()
                .map(|c| (c.status.word().to_string(), status_style(c.status))),
        );
        lines.push(cells);
    }
    let mut widths: Vec<usize> = Vec::new();
    for cells in &lines {
        for (i, (text, _)) in cells.iter().enumerate() {
            let w = display_width(text);
            match widths.get_mut(i) {
                Some(max) => *max = (*max).max(w),
                None => widths.push(w),
            }
        }
    }
    for cells in &lines {
        let mut line = String::new();
        for (i, (text, style)) in cells.iter().enumerate() {
            line.push_str(&printer.paint(text, *style));
            if i + 1 < cells.len() {
                line.extend(std::iter::repeat_n(
                    ' ',
                    widths[i] + 2 - display_width(text),
                ));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    for row in &matrix.plugins {
        // Same reason on several releases: one line.
        let mut why: Vec<(&str, Vec<String>)> = Vec::new();
        for c in &row.releases {
            let Some(reason) = c.reason else { continue };
            match why.iter_mut().find(|(r, _)| *r == reason) {
                Some((_, on)) => on.push(c.release.to_string()),
                None => why.push((reason, vec![c.release.to_string()])),
            }
        }
        for (reason, on) in why {
            let _ = writeln!(
                out,
                "  {} on {}: {}",
                crate::output::value(row.plugin),
                on.join(", "),
                sanitize_cell(reason)
            );
        }
    }
    out
}

fn status_style(status: Status) -> Style {
    match status {
        Status::Works => Style::Good,
        Status::Fails => Style::Bad,
        Status::Unknown => Style::Warn,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plugctl_core::conformance::Verdict;

    #[test]
    fn forbidden_characters_are_shown_escaped() {
        assert_eq!(visible("x\u{1}y\u{1b}\u{fffe}"), "x\\u{1}y\\u{1b}\\u{fffe}");
        assert_eq!(visible("a\nb\tc <&>"), "a\nb\tc <&>");
    }

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
    fn junit_streamed_is_the_whole_report_byte_for_byte() {
        for strict in [false, true] {
            let r = sample();
            let streamed = junit(&r, "plugctl validate", strict).unwrap();
            // The same report built whole, as quick-junit writes it.
            let mut whole = quick_junit::Report::new("plugctl validate");
            let mut by_check: HashMap<(Option<&str>, &str), Vec<&Finding>> = HashMap::new();
            for f in &r.findings {
                by_check
                    .entry((f.plugin.as_deref(), &*f.check))
                    .or_default()
                    .push(f);
            }
            let mut keys: Vec<Option<&str>> = Vec::new();
            for c in &r.checks_run {
                if !keys.contains(&c.plugin.as_deref()) {
                    keys.push(c.plugin.as_deref());
                }
            }
            for key in keys {
                let runs: Vec<&CheckRun> = r
                    .checks_run
                    .iter()
                    .filter(|c| c.plugin.as_deref() == key)
                    .collect();
                whole.add_test_suite(test_suite(
                    "plugctl validate",
                    key,
                    &runs,
                    &by_check,
                    strict,
                ));
            }
            assert_eq!(streamed, whole.to_string().unwrap());
        }
    }

    #[test]
    fn junit_parses_and_counts() {
        let xml = junit(&sample(), "plugctl validate", false).unwrap();
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let root = doc.root_element();
        assert_eq!(root.attribute("tests"), Some("5"));
        assert_eq!(root.attribute("failures"), Some("1"));
        assert_eq!(root.attribute("skipped"), Some("1"));
        let failure = doc
            .descendants()
            .find(|n| n.has_tag_name("failure"))
            .unwrap();
        assert_eq!(failure.attribute("message"), Some("bad <thing> & \\u{7}"));
        let strict = junit(&sample(), "plugctl validate", true).unwrap();
        let doc = roxmltree::Document::parse(&strict).unwrap();
        assert_eq!(doc.root_element().attribute("failures"), Some("2"));
    }
}

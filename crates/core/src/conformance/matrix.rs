//! `validate --nomad-version A,B,...`: on which of these Nomad releases each
//! plugin would work, and why not.
//!
//! `validate` runs each plugin once (with the newest named release's
//! deadlines); this module judges what it learned against each release's
//! [`Profile`]: whether the release has the plugin's family at all, whether
//! it runs a symlink that leaves the plugin directory, and whether the
//! fingerprint answered within the release's budget. Each judgement is one
//! check, `release.<version>`: passed (works), failed with the reason (an
//! error: the plugin would not work there) or skipped with the reason
//! (plugctl cannot know: it did not run the plugin). JSON, JUnit and the
//! human report carry these checks like any other; the JSON `matrix` object
//! and the human table are views of them ([`rows`]).

use crate::error::Hint;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use serde::Serialize;

use super::subject::{Link, Subject};
use super::{Outcome, Report, Severity, Verdict, fingerprint};
use crate::family::Family;
use crate::nomad::{Change, Profile, Release};

/// How far `validate` got with an entry: what the releases are judged on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ran {
    /// A directory or a special file: no plugin, no row in the matrix.
    NotAPlugin,
    /// A file Nomad skips without a word (no execute bit): why.
    Ignored(String),
    /// plugctl did not run its fingerprint because the file cannot run at
    /// all (its failing checks say why): why.
    NotRun(String),
    /// plugctl would not or could not run it, for a reason of its own (its
    /// owner and mode rules, a pin, plugctl's shortage, a file only root
    /// can read), so whether Nomad would is unknown: why. The fingerprint
    /// checks that failed for it say nothing about the plugin.
    Refused(String),
    /// The fingerprint ran, for this long (to its end or to the deadline).
    Fingerprint { took: Duration },
}

/// The check of one release: `release.1.11.0`. Made once per release and
/// kept for the process (a handful of names, whatever the number of
/// plugins), so every plugin's record shares it.
pub fn check_name(release: Release) -> &'static str {
    static NAMES: OnceLock<Mutex<BTreeMap<Release, &'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    names
        .entry(release)
        .or_insert_with(|| Box::leak(format!("{PREFIX}{release}").into_boxed_str()))
}

const PREFIX: &str = "release.";

/// Whether a check is one of the matrix's.
pub fn is_release_check(check: &str) -> bool {
    check.starts_with(PREFIX)
}

/// Records a `release.<version>` check per release for one entry, after
/// its other checks (whose failures fail every release).
pub fn record(
    r: &mut Report,
    s: &Subject,
    ran: &Ran,
    releases: &[Profile],
    timeout: Option<Duration>,
) {
    let Some(family) = Family::of(&s.family) else {
        // Nomad runs no other family on any release (layout.unknown-family).
        return;
    };
    if *ran == Ran::NotAPlugin {
        return;
    }
    // The one failure that depends on the release is judged per release;
    // a fingerprint plugctl refused to run failed for plugctl's reasons.
    let refused = matches!(ran, Ran::Refused(_));
    // Each failed check with what its finding says: the cell gives the
    // reason `validate` (and `fingerprint`) give, not a pointer to it.
    let mut failed: Vec<(String, Option<Hint>)> = r
        .checks_run
        .iter()
        .filter(|c| c.outcome == Outcome::Failed && !RELEASE_DEPENDENT.contains(&&*c.check))
        // plugctl's own refusal (its trust gate) says nothing of Nomad.
        .filter(|c| {
            !(refused
                && (fingerprint::checks_all().contains(&&*c.check)
                    || c.check == "permissions.trusted"))
        })
        // Each with what its finding says: the cell gives the reason
        // `validate` (and `fingerprint`) give, not a pointer to it.
        .map(|c| {
            let finding = r.findings.iter().find(|f| {
                f.check == c.check && f.plugin == c.plugin && f.severity == Severity::Error
            });
            let message = finding.map_or("failed", |f| f.message.as_str());
            (
                format!("{}: {message}", c.check),
                finding.and_then(|f| f.hint.clone()),
            )
        })
        .collect();
    // A cell is one message, and its hint is worded after it: the reason
    // with a hint goes last (of several, the last one's is said).
    failed.sort_by_key(|(_, hint)| hint.is_some());
    let escapes = match &s.link {
        Some(Link::Escapes(target)) => Some(target.as_path()),
        _ => None,
    };
    for profile in releases {
        let verdict = judge(
            family,
            escapes,
            s.os_root.as_deref(),
            &failed,
            ran,
            *profile,
            timeout,
        );
        r.record(Some(&s.id), check_name(profile.release()), verdict);
    }
}

/// The checks whose failure depends on the release: judged here per
/// release, not passed on to every one.
const RELEASE_DEPENDENT: &[&str] = &["layout.symlink-escapes", "nomad.os-root"];

/// Whether a plugin works on one release, and if not why. Reasons are
/// worded without the release, so the human view can group them.
fn judge(
    family: Family,
    escapes: Option<&Path>,
    os_root: Option<&str>,
    failed: &[(String, Option<Hint>)],
    ran: &Ran,
    profile: Profile,
    timeout: Option<Duration>,
) -> Verdict {
    let since = |change| Profile::row(change).since_text();
    if !profile.runs_family(family) {
        let change = match family {
            Family::HostVolume => Change::HostVolumePlugins,
            Family::Secrets => Change::SecretsPlugins,
        };
        return Verdict::error(format!(
            "Nomad has no {family} plugins before {}",
            since(change)
        ));
    }
    if let Some(target) = escapes {
        let confined = since(Change::ConfinedLookup);
        return match family {
            Family::HostVolume if profile.follows_escaping_symlinks() => Verdict::skip(format!(
                "Nomad before {confined} follows the symlink to {} and runs it \
                 (CVE-2026-7474); plugctl never runs a plugin outside its directory, so \
                 whether it works there is unknown",
                target.display()
            )),
            Family::HostVolume => Verdict::error(format!(
                "from {confined} Nomad refuses a plugin whose symlink leaves the plugin \
                 directory (it leads to {}; CVE-2026-7474)",
                target.display()
            )),
            Family::Secrets => Verdict::skip(format!(
                "Nomad follows the symlink to {} and runs it (only host-volume lookups are \
                 confined); plugctl never runs a plugin outside its directory (its own rule), \
                 so whether it works is unknown",
                target.display()
            )),
        };
    }
    if let Some(why) = os_root
        && family == Family::HostVolume
        && !profile.follows_escaping_symlinks()
    {
        return Verdict::error(format!(
            "from {} Nomad does not find it: its host-volume lookup resolves the name with \
             Go's os.Root (CVE-2026-7474), and {why}",
            since(Change::ConfinedLookup)
        ));
    }
    if let Some((_, last)) = failed.last() {
        let reasons: Vec<&str> = failed.iter().map(|(m, _)| m.as_str()).collect();
        let v = Verdict::error(reasons.join("; "));
        return match last {
            Some(hint) => v.hint(hint.clone()),
            None => v,
        };
    }
    match ran {
        Ran::NotAPlugin => Verdict::NotApplicable,
        Ran::Ignored(why) => Verdict::error(why.clone()),
        Ran::NotRun(why) | Ran::Refused(why) => Verdict::skip(format!(
            "plugctl did not run it, so whether it works is unknown: {why}"
        )),
        Ran::Fingerprint { took } => {
            // The user's --timeout replaces the budget, as `fingerprint`
            // and `validate` take it.
            let budget = timeout.unwrap_or_else(|| profile.fingerprint_budget(family));
            if *took <= budget {
                return Verdict::pass();
            }
            match family {
                Family::HostVolume => Verdict::error(format!(
                    "{}; Nomad gives a host-volume fingerprint {} on every release \
                     (discovery's context; the 5 s of its docs never applies)",
                    crate::verdict::too_slow(family.name(), *took, profile, timeout)
                        .unwrap_or_default(),
                    crate::verdict::seconds(budget)
                )),
                Family::Secrets => Verdict::error(format!(
                    "the fingerprint took {:.1} s; Nomad before {} stops a secrets plugin after \
                     {} s (SIGTERM, then SIGKILL {} s later), later releases after {} s",
                    took.as_secs_f64(),
                    since(Change::LongSecretsDeadline),
                    crate::nomad::SECRETS_DEADLINE_SHORT.as_secs(),
                    crate::nomad::SECRETS_GRACE.as_secs(),
                    crate::nomad::SECRETS_DEADLINE_LONG.as_secs(),
                )),
            }
        }
    }
}

/// How one plugin fares on one release.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Works,
    Fails,
    /// plugctl did not run it (the reason says why).
    Unknown,
}

impl Status {
    /// What the human table says: the matrix ran only the fingerprint,
    /// so "works" would claim more than was checked.
    pub fn word(self) -> &'static str {
        match self {
            Status::Works => "fingerprint ok",
            Status::Fails => "fails",
            Status::Unknown => "unknown",
        }
    }
}

/// One plugin × one release.
#[derive(Debug, Clone, Serialize)]
pub struct Cell<'a> {
    #[serde(serialize_with = "as_text")]
    pub release: Release,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'a str>,
}

/// One plugin's row.
#[derive(Debug, Clone, Serialize)]
pub struct Row<'a> {
    pub plugin: &'a str,
    /// The releases it works on, oldest first.
    #[serde(serialize_with = "as_texts")]
    pub works_on: Vec<Release>,
    pub releases: Vec<Cell<'a>>,
}

/// The matrix as JSON: `{"releases": [...], "plugins": [{"plugin",
/// "works_on", "releases": [{"release", "status", "reason"}]}]}`.
#[derive(Debug, Clone, Serialize)]
pub struct Matrix<'a> {
    /// What was run to judge "works": the fingerprint only (validate runs
    /// no create or delete), so "works" means "fingerprint ok".
    pub checked: &'static str,
    #[serde(serialize_with = "as_texts")]
    pub releases: Vec<Release>,
    pub plugins: Vec<Row<'a>>,
}

fn as_text<S: serde::Serializer>(r: &Release, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(r)
}

fn as_texts<S: serde::Serializer>(rs: &[Release], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(rs.iter().map(ToString::to_string))
}

/// The matrix the report's `release.*` checks make, plugins in the order
/// they were checked.
pub fn rows<'a>(report: &'a Report, releases: &[Release]) -> Matrix<'a> {
    let column: HashMap<&str, usize> = releases
        .iter()
        .enumerate()
        .map(|(i, r)| (check_name(*r), i))
        .collect();
    let reasons: HashMap<(&str, &str), &str> = report
        .findings
        .iter()
        .filter(|f| is_release_check(&f.check))
        .filter_map(|f| Some(((f.plugin.as_deref()?, &*f.check), f.message.as_str())))
        .collect();
    let mut plugins: Vec<Row<'a>> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for c in &report.checks_run {
        let (Some(plugin), Some(&col)) = (c.plugin.as_deref(), column.get(&*c.check)) else {
            continue;
        };
        let (status, reason) = match &c.outcome {
            Outcome::Passed | Outcome::Warned => (Status::Works, None),
            Outcome::Failed => (Status::Fails, reasons.get(&(plugin, &*c.check)).copied()),
            Outcome::Skipped(why) => (Status::Unknown, Some(why.as_str())),
        };
        let i = *index.entry(plugin).or_insert_with(|| {
            plugins.push(Row {
                plugin,
                works_on: Vec::new(),
                releases: Vec::new(),
            });
            plugins.len() - 1
        });
        let row = &mut plugins[i];
        if status == Status::Works {
            row.works_on.push(releases[col]);
        }
        row.releases.push(Cell {
            release: releases[col],
            status,
            reason,
        });
    }
    Matrix {
        checked: "fingerprint",
        releases: releases.to_vec(),
        plugins,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(v: &str) -> Profile {
        Profile::of(Release::parse(v).unwrap())
    }

    #[test]
    fn releases_judge_what_validate_learned() {
        let took = |ms| Ran::Fingerprint {
            took: Duration::from_millis(ms),
        };
        let hv = Family::HostVolume;
        let sec = Family::Secrets;
        // 1.5 s: no host-volume release takes it.
        for v in ["1.10", "1.11", "2.0.1"] {
            assert!(
                judge(hv, None, None, &[], &took(1500), p(v), None).has_error(),
                "{v}"
            );
            assert!(
                judge(hv, None, None, &[], &took(900), p(v), None).clean(),
                "{v}"
            );
        }
        // 20 s secrets: from 2.0 only; no secrets at all on 1.10.
        assert!(judge(sec, None, None, &[], &took(20_000), p("1.11.3"), None).has_error());
        assert!(judge(sec, None, None, &[], &took(20_000), p("2.0"), None).clean());
        let v = judge(sec, None, None, &[], &took(10), p("1.10.5"), None);
        assert_eq!(
            v,
            Verdict::error("Nomad has no secrets plugins before 1.11.0")
        );
        // An escaping host-volume symlink: followed before 2.0.1.
        let target = Path::new("/elsewhere/plugin");
        let nr = Ran::NotRun("refused".into());
        assert!(matches!(
            judge(hv, Some(target), None, &[], &nr, p("2.0.0"), None),
            Verdict::Skip(_)
        ));
        assert!(judge(hv, Some(target), None, &[], &nr, p("2.0.1"), None).has_error());
        // A link inside that os.Root refuses: works before 2.0.1 only.
        let why = Some("its link text is absolute");
        assert!(judge(hv, None, why, &[], &took(10), p("2.0.0"), None).clean());
        let v = judge(hv, None, why, &[], &took(10), p("2.0.1"), None);
        assert!(v.has_error(), "{v:?}");
        // Secrets lookups are not confined: Nomad runs an escaping link.
        let v = judge(sec, Some(target), None, &[], &nr, p("2.0.5"), None);
        assert!(
            matches!(&v, Verdict::Skip(why) if why.contains("Nomad follows the symlink")),
            "{v:?}"
        );
        // A failed check fails every release, with its finding's reason;
        // no execute bit too.
        let failed = [("fingerprint.output: bad output: x".to_string(), None)];
        let v = judge(hv, None, None, &failed, &took(10), p("2.0"), None);
        assert_eq!(v, Verdict::error("fingerprint.output: bad output: x"));
        assert!(
            judge(
                hv,
                None,
                None,
                &[],
                &Ran::Ignored("x".into()),
                p("2.0"),
                None
            )
            .has_error()
        );
        assert!(matches!(
            judge(hv, None, None, &[], &nr, p("2.0"), None),
            Verdict::Skip(_)
        ));
        // The user's --timeout is the budget, as fingerprint takes it.
        let slow = judge(hv, None, None, &[], &took(1420), p("2.0"), None);
        assert!(
            matches!(&slow, Verdict::Issues(i) if i[0].1.starts_with("too slow for Nomad: 1.42 s > 1 s")),
            "{slow:?}"
        );
        assert!(
            judge(
                hv,
                None,
                None,
                &[],
                &took(1420),
                p("2.0"),
                Some(Duration::from_secs(3))
            )
            .clean()
        );
        assert_eq!(check_name(p("1.11").release()), "release.1.11.0");
        assert!(std::ptr::eq(
            check_name(p("1.11").release()),
            check_name(p("1.11.0").release())
        ));
    }
}

//! Nomad releases: what changes for common plugins from one release to the
//! next, and the Go toolchain each is built with, kept as data in one place
//! (docs/protocol.md says how it is proven).
//!
//! [`TABLE`] holds one row per change, each with the release (or releases,
//! when a fix was backported to an older line) it landed in and where in
//! Nomad's source it comes from. A [`Profile`] is one release: commands ask
//! it for the deadline, the variables, the lookup rule or the built-in
//! `mkdir`'s behaviour of that release, and never compare versions
//! themselves. `--nomad-version` (or `PLUGCTL_NOMAD_VERSION`) picks it;
//! the default is [`NEWEST`].

use std::fmt;
use std::time::Duration;

use crate::family::Family;
use plugctl_protocol::json::{self, Dialect};
use plugctl_protocol::version::{Version, Wording};

/// A Nomad release plugctl covers: three numbers, no pre-release.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Release {
    major: u64,
    minor: u64,
    patch: u64,
}

const fn r(major: u64, minor: u64, patch: u64) -> Release {
    Release {
        major,
        minor,
        patch,
    }
}

/// The release lines the table covers, oldest first. Nomad went from 1.11
/// to 2.0: there is no 1.12.
pub const LINES: [(u64, u64); 3] = [(1, 10), (1, 11), (2, 0)];

/// The newest release the table names, the default profile.
pub const NEWEST: Release = r(2, 0, 5);

/// The oldest release with a common plugin family (host volumes).
pub const OLDEST: Release = r(1, 10, 0);

/// What changed, one variant per row of [`TABLE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Dynamic host-volume plugins exist: fingerprint, create, delete, the
    /// `DHV_*` variables, a failing call's `{"error"}` shown (#25341), the
    /// built-in `mkdir` with `mode`/`uid`/`gid`.
    HostVolumePlugins,
    /// The built-in `mkdir` removes the directory it made when chown fails
    /// (before: it is left behind).
    MkdirCleanupOnChownFailure,
    /// Secrets plugins exist: fingerprint and fetch, SIGTERM at the
    /// deadline then SIGKILL 2 s later; a `*.exe` in `secrets/` fails
    /// fingerprinting on Linux.
    SecretsPlugins,
    /// A secrets plugin's stderr on a call that exited 0 is logged through
    /// the plugin's `logger`, which `NewExternalSecretsPlugin` never sets:
    /// a nil interface, so the client panics — at agent start for a
    /// fingerprint (the fingerprint manager), at task start for a fetch
    /// (the secrets hook); nothing recovers. Every release with secrets
    /// plugins has it (1.11.0 to 2.0.5, and main as of aa026cc99c); a
    /// release that fixes it will get a row of its own, which
    /// [`Profile::stderr_on_success_crashes`] will ask too.
    SecretsStderrPanics,
    /// `NOMAD_JOB_ID` and `NOMAD_NAMESPACE` are set for every fetch.
    FetchJobVariables,
    /// The task's fetch error messages were reworded. Nothing a plugin
    /// sees or plugctl runs changes.
    FetchErrorWording,
    /// The built-in `mkdir` chmods the directory after making it, so the
    /// mode no longer depends on the umask (before: the umask wins).
    MkdirChmod,
    /// The job's `secret` block interpolates its `env` before a fetch (a
    /// job's concern: plugctl takes `--env` values as given).
    SecretEnvInterpolation,
    /// Secrets fingerprint and fetch get 60 s (before: 10 s), + 2 s grace.
    LongSecretsDeadline,
    /// Host-volume plugin lookup is confined to the plugin directory
    /// (`os.Root`, CVE-2026-7474): a symlink leaving it, or an id with
    /// `..`, is refused. Before, a symlink anywhere was followed.
    ConfinedLookup,
    /// A task's secrets are fetched again when its prestart hooks run
    /// again (a client restart, a task restart): before, the first fetch
    /// marked the hook done. A plugin's fetch must then answer a second
    /// time as it did the first.
    SecretsRefetch,
}

/// One row of the table.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    pub change: Change,
    /// The first release of each line that has it, oldest first: a release
    /// has the change when it is at least the entry of its own line, or
    /// newer than every entry (a later line).
    pub since: &'static [Release],
    /// Where it comes from in `hashicorp/nomad`.
    pub source: &'static str,
}

/// docs/protocol.md ("Which Nomad release"), as data. Keep each row's
/// source next to it. Each `since` is read from Nomad's CHANGELOG.md and
/// the code at each release tag: a row names the first release of every
/// line that carries the change, Enterprise-only patches included (1.10.6
/// and later, 1.11.4 and later: [`ENTERPRISE_ONLY_FROM`]), since they are
/// the only releases those lines still get.
pub const TABLE: &[Row] = &[
    Row {
        change: Change::HostVolumePlugins,
        since: &[r(1, 10, 0)],
        source: "client/hostvolumemanager/ (1.10.0 GA, #25341)",
    },
    Row {
        change: Change::MkdirCleanupOnChownFailure,
        since: &[r(1, 10, 3)],
        source: "e158356dd290 (#26194, 1.10.3)",
    },
    Row {
        change: Change::SecretsPlugins,
        since: &[r(1, 11, 0)],
        source: "client/commonplugins/ (1.11.0 GA)",
    },
    Row {
        change: Change::SecretsStderrPanics,
        since: &[r(1, 11, 0)],
        source: "client/commonplugins/secrets_plugin.go (e.logger.Info on stderr; the logger is \
                 never set, from 00ef9cacab, 1.11.0, through 2.0.5)",
    },
    Row {
        change: Change::MkdirChmod,
        since: &[r(1, 10, 7), r(1, 11, 1)],
        source: "8b4c265e36f1 (#27068, 1.11.1; 1.10.7 Enterprise)",
    },
    Row {
        change: Change::FetchJobVariables,
        since: &[r(1, 11, 1)],
        source: "client/allocrunner/taskrunner/secrets_hook.go (#27207, 1.11.1)",
    },
    Row {
        change: Change::FetchErrorWording,
        since: &[r(1, 11, 2)],
        source: "client/allocrunner/taskrunner/secrets/plugin_provider.go (#27330, 1.11.2)",
    },
    Row {
        change: Change::SecretEnvInterpolation,
        since: &[r(1, 11, 3)],
        source: "client/allocrunner/taskrunner/secrets/plugin_provider.go (#27568, 1.11.3)",
    },
    Row {
        change: Change::LongSecretsDeadline,
        since: &[r(1, 11, 4), r(2, 0, 0)],
        source: "d9d98c086628 (#27779, 2.0.0; 1.11.4 Enterprise)",
    },
    Row {
        change: Change::ConfinedLookup,
        since: &[r(1, 10, 11), r(1, 11, 5), r(2, 0, 1)],
        source: "client/hostvolumemanager/host_volume_plugin.go (#27919, CVE-2026-7474: 2.0.1; \
                 1.11.5 and 1.10.11 Enterprise)",
    },
    Row {
        change: Change::SecretsRefetch,
        since: &[r(1, 11, 9), r(2, 0, 5)],
        source: "0f9ab40732a2 (#28237, 2.0.5; 1.11.9 Enterprise)",
    },
];

/// The first patch of each line that HashiCorp ships to Enterprise
/// customers only (Nomad's CHANGELOG marks them "Enterprise"): what
/// `--nomad-version` says about such a release.
pub const ENTERPRISE_ONLY_FROM: &[Release] = &[r(1, 10, 6), r(1, 11, 4)];

/// Every release: a host-volume fingerprint gets 1 s in practice. The code
/// caps a call at 5 s ([`HOST_VOLUME_FINGERPRINT_CAP`]), but discovery
/// passes a 1 s context (`client/fingerprint/dynamic_host_volumes.go`),
/// and the plugin is SIGKILLed at the deadline.
pub const HOST_VOLUME_FINGERPRINT_BUDGET: Duration = Duration::from_secs(1);
/// What the code (and the docs) say for a host-volume fingerprint; plugctl's
/// default deadline, so a slow plugin is reported slow, not cut off.
pub const HOST_VOLUME_FINGERPRINT_CAP: Duration = Duration::from_secs(5);
/// Host-volume create and delete, every release.
pub const HOST_VOLUME_OPERATION_DEADLINE: Duration = Duration::from_secs(60);
/// Secrets fingerprint and fetch before [`Change::LongSecretsDeadline`].
pub const SECRETS_DEADLINE_SHORT: Duration = Duration::from_secs(10);
/// Secrets fingerprint and fetch from [`Change::LongSecretsDeadline`].
pub const SECRETS_DEADLINE_LONG: Duration = Duration::from_secs(60);
/// SIGTERM to SIGKILL for secrets plugins, every release.
pub const SECRETS_GRACE: Duration = Duration::from_secs(2);

/// A Go release: `1.26.5`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GoRelease(pub u64, pub u64, pub u64);

impl fmt::Display for GoRelease {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// What one Nomad release is built with: its `.go-version` and the
/// `hashicorp/go-version` its `go.mod` requires, read at its release tag.
/// Both word the errors a node logs for a plugin's output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Toolchain {
    pub release: Release,
    pub go: GoRelease,
    /// hashicorp/go-version.
    pub go_version: GoRelease,
    /// The release's commit in hashicorp/nomad.
    pub commit: &'static str,
}

const fn t(
    release: Release,
    go: GoRelease,
    go_version: GoRelease,
    commit: &'static str,
) -> Toolchain {
    Toolchain {
        release,
        go,
        go_version,
        commit,
    }
}

/// Every covered release, oldest first, from its tag. A later patch than
/// the last of its line is taken to be built as that one.
pub const TOOLCHAINS: &[Toolchain] = &[
    t(
        r(1, 10, 0),
        GoRelease(1, 24, 2),
        GoRelease(1, 7, 0),
        "e26a2bd2ac",
    ),
    t(
        r(1, 10, 1),
        GoRelease(1, 24, 3),
        GoRelease(1, 7, 0),
        "3431f13e80",
    ),
    t(
        r(1, 10, 2),
        GoRelease(1, 24, 4),
        GoRelease(1, 7, 0),
        "df4c764f67",
    ),
    t(
        r(1, 10, 3),
        GoRelease(1, 24, 4),
        GoRelease(1, 7, 0),
        "fde0bf26a7",
    ),
    t(
        r(1, 10, 4),
        GoRelease(1, 24, 6),
        GoRelease(1, 7, 0),
        "62b195aaa5",
    ),
    t(
        r(1, 10, 5),
        GoRelease(1, 24, 7),
        GoRelease(1, 7, 0),
        "a3b86c697f",
    ),
    t(
        r(1, 11, 0),
        GoRelease(1, 25, 3),
        GoRelease(1, 7, 0),
        "9103d93813",
    ),
    t(
        r(1, 11, 1),
        GoRelease(1, 25, 5),
        GoRelease(1, 8, 0),
        "5b76eb0535",
    ),
    t(
        r(1, 11, 2),
        GoRelease(1, 25, 7),
        GoRelease(1, 8, 0),
        "f876384fe3",
    ),
    t(
        r(1, 11, 3),
        GoRelease(1, 25, 8),
        GoRelease(1, 8, 0),
        "173ab08a02",
    ),
    t(
        r(2, 0, 0),
        GoRelease(1, 26, 2),
        GoRelease(1, 8, 0),
        "7a90601f4d",
    ),
    t(
        r(2, 0, 1),
        GoRelease(1, 26, 3),
        GoRelease(1, 9, 0),
        "5c11f948ba",
    ),
    t(
        r(2, 0, 2),
        GoRelease(1, 26, 3),
        GoRelease(1, 9, 0),
        "26ed559e8b",
    ),
    t(
        r(2, 0, 3),
        GoRelease(1, 26, 4),
        GoRelease(1, 9, 0),
        "a2a5fee9c4",
    ),
    t(
        r(2, 0, 4),
        GoRelease(1, 26, 4),
        GoRelease(1, 9, 0),
        "5b83b13399",
    ),
    t(
        r(2, 0, 5),
        GoRelease(1, 26, 5),
        GoRelease(1, 9, 0),
        "5c8612bba6",
    ),
];

/// One generation of Go's `encoding/json` messages.
#[derive(Debug, Clone, Copy)]
pub struct GoGeneration {
    /// The first Go release that words its errors this way.
    pub since: GoRelease,
    pub messages: &'static json::Messages,
    /// The first Nomad release built with it; `None` while there is none
    /// (its messages are recorded, but no profile speaks them yet).
    pub first_nomad: Option<Release>,
}

/// The generations, oldest first.
pub const GO_GENERATIONS: &[GoGeneration] = &[
    GoGeneration {
        since: GoRelease(1, 24, 0),
        messages: &json::GO_JSON_V1,
        first_nomad: Some(r(1, 10, 0)),
    },
    GoGeneration {
        since: GoRelease(1, 27, 0),
        messages: &json::GO_JSON_V2_CORE,
        first_nomad: None,
    },
];

/// go-version lower-cased its errors in this release.
const GO_VERSION_LOWER_CASE: GoRelease = GoRelease(1, 8, 0);

impl Row {
    /// Whether `release` has this row's change.
    pub fn in_release(&self, release: Release) -> bool {
        let newest = self.since.iter().max().copied().unwrap_or(OLDEST);
        release >= newest
            || self
                .since
                .iter()
                .any(|s| s.line() == release.line() && release >= *s)
    }

    /// The releases it landed in, for people: the community releases, then
    /// the Enterprise-only ones in brackets: `2.0.1 (1.10.11 and 1.11.5
    /// Enterprise)`.
    pub fn since_text(&self) -> String {
        let (enterprise, community): (Vec<Release>, Vec<Release>) =
            self.since.iter().partition(|r| r.enterprise_only());
        let join = |list: &[Release], sep: &str| {
            list.iter()
                .map(Release::to_string)
                .collect::<Vec<_>>()
                .join(sep)
        };
        let mut text = join(&community, " / ");
        if !enterprise.is_empty() {
            text = format!("{text} ({} Enterprise)", join(&enterprise, " and "));
        }
        text
    }
}

impl Release {
    pub const fn new(major: u64, minor: u64, patch: u64) -> Release {
        r(major, minor, patch)
    }

    /// The line: `(1, 11)` for 1.11.3.
    pub fn line(&self) -> (u64, u64) {
        (self.major, self.minor)
    }

    /// Whether HashiCorp ships this patch to Enterprise customers only
    /// ([`ENTERPRISE_ONLY_FROM`]).
    pub fn enterprise_only(&self) -> bool {
        ENTERPRISE_ONLY_FROM
            .iter()
            .any(|from| from.line() == self.line() && self >= from)
    }

    /// Reads a release the way Nomad's own go-version would (`1.11` is
    /// 1.11.0, a leading `v` is fine), then keeps only what the table
    /// covers: a release (no pre-release, no metadata, at most three
    /// numbers) of a covered line. The error says which releases are
    /// covered.
    pub fn parse(text: &str) -> Result<Release, String> {
        let covered = covered_text();
        if text.is_empty() {
            return Err(format!(
                "an empty Nomad release; give one such as 1.11 or 2.0.1 ({covered})"
            ));
        }
        let v = Version::parse(text).map_err(|e| {
            format!(
                "{text_q} is not a Nomad release ({e}); give one such as 1.11 or 2.0.1",
                text_q = crate::escape::quote(text)
            )
        })?;
        if !v.prerelease().is_empty() || !v.metadata().is_empty() {
            return Err(format!(
                "{text_q} is a pre-release or a build: plugctl knows releases only ({covered})",
                text_q = crate::escape::quote(text)
            ));
        }
        if v.written_segments() > 3 {
            return Err(format!(
                "{text_q} has more than three numbers: a Nomad release is MAJOR.MINOR.PATCH",
                text_q = crate::escape::quote(text)
            ));
        }
        let s = v.segments();
        let release = r(s[0], s[1], s[2]);
        if release < OLDEST {
            return Err(format!(
                "Nomad {release} runs no common plugins: dynamic host-volume plugins came in \
                 1.10.0 and secrets plugins in 1.11.0 ({covered})"
            ));
        }
        if !LINES.contains(&release.line()) {
            return Err(format!(
                "Nomad {release} is not covered by plugctl's release table ({covered}); \
                 for a later release, the newest covered one, {NEWEST}, is the closest"
            ));
        }
        Ok(release)
    }
}

/// "plugctl covers 1.10.x, 1.11.x and 2.0.x".
pub fn covered_text() -> String {
    let lines: Vec<String> = LINES.iter().map(|(a, b)| format!("{a}.{b}.x")).collect();
    let (last, rest) = lines.split_last().expect("lines are listed");
    format!("plugctl covers {} and {last}", rest.join(", "))
}

impl fmt::Display for Release {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

impl std::str::FromStr for Release {
    type Err = String;

    fn from_str(s: &str) -> Result<Release, String> {
        Release::parse(s)
    }
}

/// The longest node pool name Nomad takes.
pub const NODE_POOL_MAX: usize = 128;

/// Whether Nomad lets a client register in this node pool
/// (`structs.ValidateNodePoolName` and the agent's own check): 1 to 128
/// letters, digits, `-` and `_`, and not `all`, the pool of every node.
/// The error says why, without quoting the name.
pub fn check_node_pool(name: &str) -> Result<(), String> {
    let valid = (1..=NODE_POOL_MAX).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !valid {
        return Err(format!(
            "is not a node pool name: 1 to {NODE_POOL_MAX} letters, digits, - and _"
        ));
    }
    if name == "all" {
        return Err("is all, the pool of every node, which no node registers in".into());
    }
    Ok(())
}

/// What the built-in `mkdir` of a release does differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MkdirBehaviour {
    /// chmod after mkdir, so the mode is exact ([`Change::MkdirChmod`]);
    /// without it the umask takes bits off.
    pub chmod: bool,
    /// Remove the directory when chown fails
    /// ([`Change::MkdirCleanupOnChownFailure`]).
    pub cleanup_on_chown_failure: bool,
}

impl MkdirBehaviour {
    /// The newest release's: both fixes.
    pub const NEWEST: MkdirBehaviour = MkdirBehaviour {
        chmod: true,
        cleanup_on_chown_failure: true,
    };
}

/// One release's behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    release: Release,
}

impl Default for Profile {
    fn default() -> Profile {
        Profile::of(NEWEST)
    }
}

impl Profile {
    pub const fn of(release: Release) -> Profile {
        Profile { release }
    }

    pub fn release(&self) -> Release {
        self.release
    }

    /// Whether this release has a change of the table.
    pub fn has(&self, change: Change) -> bool {
        TABLE
            .iter()
            .find(|row| row.change == change)
            .is_some_and(|row| row.in_release(self.release))
    }

    /// The row of a change.
    pub fn row(change: Change) -> &'static Row {
        TABLE
            .iter()
            .find(|row| row.change == change)
            .expect("every change has a row")
    }

    /// Whether Nomad of this release runs plugins of `family` at all.
    pub fn runs_family(&self, family: Family) -> bool {
        match family {
            Family::HostVolume => self.has(Change::HostVolumePlugins),
            Family::Secrets => self.has(Change::SecretsPlugins),
        }
    }

    /// Refuses a family the release does not have, saying since when it
    /// exists (a usage error: the flag and the command disagree).
    pub fn require_family(&self, family: Family) -> crate::Result<()> {
        if self.runs_family(family) {
            return Ok(());
        }
        let change = match family {
            Family::HostVolume => Change::HostVolumePlugins,
            Family::Secrets => Change::SecretsPlugins,
        };
        Err(crate::Error::usage(format!(
            "Nomad {} has no {family} plugins: they came in {}",
            self.release,
            Profile::row(change).since_text()
        ))
        .hint(crate::error::Hint::NomadRelease))
    }

    /// The deadline of a secrets fingerprint or fetch.
    pub fn secrets_deadline(&self) -> Duration {
        if self.has(Change::LongSecretsDeadline) {
            SECRETS_DEADLINE_LONG
        } else {
            SECRETS_DEADLINE_SHORT
        }
    }

    /// plugctl's default fingerprint deadline for a family: the host-volume
    /// cap (the 1 s budget is judged, not enforced: see `validate`), the
    /// secrets deadline of the release, and the latter for a family Nomad
    /// does not know (the longest).
    pub fn fingerprint_deadline(&self, family: &str) -> Duration {
        match Family::of(family) {
            Some(Family::HostVolume) => HOST_VOLUME_FINGERPRINT_CAP,
            Some(Family::Secrets) | None => self.secrets_deadline(),
        }
    }

    /// How long a fingerprint may take for the plugin to be used on a node
    /// of this release.
    pub fn fingerprint_budget(&self, family: Family) -> Duration {
        match family {
            Family::HostVolume => HOST_VOLUME_FINGERPRINT_BUDGET,
            Family::Secrets => self.secrets_deadline(),
        }
    }

    /// Whether a `family` plugin that writes on stderr while its call
    /// succeeds (exit 0) crashes a client of this release
    /// ([`Change::SecretsStderrPanics`]).
    pub fn stderr_on_success_crashes(&self, family: &str) -> bool {
        Family::Secrets.is(family) && self.has(Change::SecretsStderrPanics)
    }

    /// Whether a fetch always gets `NOMAD_JOB_ID` and `NOMAD_NAMESPACE`.
    pub fn sets_fetch_job_variables(&self) -> bool {
        self.has(Change::FetchJobVariables)
    }

    /// What the built-in `mkdir` does on this release.
    pub fn mkdir(&self) -> MkdirBehaviour {
        MkdirBehaviour {
            chmod: self.has(Change::MkdirChmod),
            cleanup_on_chown_failure: self.has(Change::MkdirCleanupOnChownFailure),
        }
    }

    /// What this release is built with: its own row of [`TOOLCHAINS`], or
    /// for a later patch than any there, the newest of its line.
    pub fn toolchain(&self) -> &'static Toolchain {
        TOOLCHAINS
            .iter()
            .rfind(|tc| tc.release.line() == self.release.line() && tc.release <= self.release)
            .unwrap_or(&TOOLCHAINS[TOOLCHAINS.len() - 1])
    }

    /// The `encoding/json` generation of this release's toolchain.
    pub fn go_generation(&self) -> &'static GoGeneration {
        let go = self.toolchain().go;
        GO_GENERATIONS
            .iter()
            .rfind(|g| g.since <= go)
            .unwrap_or(&GO_GENERATIONS[0])
    }

    /// Whose words this release's decode errors are in.
    pub fn dialect(&self) -> Dialect {
        Dialect {
            json: self.go_generation().messages,
            version: if self.toolchain().go_version < GO_VERSION_LOWER_CASE {
                Wording::Capitalized
            } else {
                Wording::Lower
            },
        }
    }

    /// Whether Nomad runs a host-volume plugin that is a symlink leaving
    /// the plugin directory (plugctl never does).
    pub fn follows_escaping_symlinks(&self) -> bool {
        !self.has(Change::ConfinedLookup)
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Nomad {}", self.release)?;
        if self.release.enterprise_only() {
            // As Nomad's CHANGELOG names it.
            f.write_str(" Enterprise")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Profile {
        Profile::of(Release::parse(text).unwrap())
    }

    #[test]
    fn releases_parse_as_go_version_does_and_only_covered_ones() {
        assert_eq!(Release::parse("1.10").unwrap(), r(1, 10, 0));
        assert_eq!(Release::parse("v2.0").unwrap(), r(2, 0, 0));
        assert_eq!(Release::parse("1.11.2").unwrap(), r(1, 11, 2));
        assert_eq!(Release::parse("01.011.3").unwrap(), r(1, 11, 3));
        for (bad, needle) in [
            ("", "empty"),
            ("1.9.7", "runs no common plugins"),
            ("0.1", "runs no common plugins"),
            ("1.12", "not covered"),
            ("2.1.0", "not covered"),
            ("3", "not covered"),
            ("2.0.0-beta.1", "pre-release"),
            ("2.0.0+ent", "pre-release or a build"),
            ("1.11.0.1", "more than three numbers"),
            (" 1.11", "not a Nomad release"),
            ("latest", "not a Nomad release"),
            ("1..2", "not a Nomad release"),
        ] {
            let e = Release::parse(bad).unwrap_err();
            assert!(e.contains(needle), "{bad:?}: {e}");
        }
        assert!(
            Release::parse("2.1")
                .unwrap_err()
                .contains("1.10.x, 1.11.x and 2.0.x")
        );
    }

    #[test]
    fn node_pools_are_checked_as_nomad_checks_them() {
        for ok in ["default", "gpu", "a-b_c", "A1", &"x".repeat(128)] {
            assert!(check_node_pool(ok).is_ok(), "{ok}");
        }
        for bad in ["", "a b", "pool.1", "é", "all", &"x".repeat(129), "a/b"] {
            assert!(check_node_pool(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn each_release_names_its_toolchain() {
        assert_eq!(p("2.0.5").toolchain().go, GoRelease(1, 26, 5));
        assert_eq!(p("1.10").toolchain().go, GoRelease(1, 24, 2));
        assert_eq!(p("1.11.3").toolchain().go, GoRelease(1, 25, 8));
        // A patch past the table's last of its line: built as that one.
        assert_eq!(p("1.10.9").toolchain().release, r(1, 10, 5));
        assert_eq!(p("2.0.9").toolchain().release, r(2, 0, 5));
        // go-version 1.8.0 (from 1.11.1) lower-cased its errors.
        assert_eq!(p("1.11.0").dialect().version, Wording::Capitalized);
        assert_eq!(p("1.11.1").dialect().version, Wording::Lower);
        assert_eq!(Profile::default().dialect(), Dialect::NEWEST);
        // Every release so far is built with a Go of the first generation;
        // the second has no Nomad release yet.
        for tc in TOOLCHAINS {
            let profile = Profile::of(tc.release);
            assert!(
                std::ptr::eq(profile.dialect().json, &json::GO_JSON_V1),
                "{}",
                tc.release
            );
        }
        assert!(GO_GENERATIONS.last().unwrap().first_nomad.is_none());
        // Sorted, one row per release.
        assert!(TOOLCHAINS.windows(2).all(|w| w[0].release < w[1].release));
    }

    #[test]
    fn each_row_starts_where_the_table_says() {
        // Read from Nomad's CHANGELOG and the code at each tag: #26194
        // (mkdir's clean-up) in 1.10.3, #27068 (its exact mode) in 1.11.1
        // and 1.10.7 Enterprise, #28237 (a second fetch) in 2.0.5.
        let cleanup = |v| p(v).mkdir().cleanup_on_chown_failure;
        assert!(!cleanup("1.10.2"));
        assert!(cleanup("1.10.3"));
        assert!(cleanup("1.11.0"));
        assert!(cleanup("2.0"));
        let chmod = |v| p(v).mkdir().chmod;
        assert!(!chmod("1.10.6"));
        assert!(chmod("1.10.7"));
        assert!(!chmod("1.11.0"));
        assert!(chmod("1.11.1"));
        assert!(chmod("2.0.0"));
        let refetch = |v| p(v).has(Change::SecretsRefetch);
        assert!(!refetch("2.0.4"));
        assert!(refetch("2.0.5"));
        assert!(!refetch("1.11.8"));
        assert!(refetch("1.11.9"));
        let confined = |v| p(v).has(Change::ConfinedLookup);
        assert!(!confined("1.10.10") && confined("1.10.11"));
        assert!(!confined("1.11.4") && confined("1.11.5"));
        assert!(!confined("2.0.0") && confined("2.0.1"));
        assert_eq!(p("1.11.3").secrets_deadline(), Duration::from_secs(10));
        assert_eq!(p("1.11.4").secrets_deadline(), Duration::from_secs(60));
        // Enterprise-only patches are named as Nomad's CHANGELOG names them.
        assert_eq!(p("1.10.7").to_string(), "Nomad 1.10.7 Enterprise");
        assert_eq!(p("1.10.5").to_string(), "Nomad 1.10.5");
        assert_eq!(p("1.11.4").to_string(), "Nomad 1.11.4 Enterprise");
        assert_eq!(p("2.0.5").to_string(), "Nomad 2.0.5");
        assert_eq!(
            Profile::row(Change::ConfinedLookup).since_text(),
            "2.0.1 (1.10.11 and 1.11.5 Enterprise)"
        );
        assert_eq!(
            Profile::row(Change::MkdirCleanupOnChownFailure).since_text(),
            "1.10.3"
        );
        assert!(!p("1.10.9").runs_family(Family::Secrets));
        assert!(p("1.11.0").runs_family(Family::Secrets));
        assert!(p("1.10.0").runs_family(Family::HostVolume));
        assert!(!p("1.11.0").sets_fetch_job_variables());
        assert!(p("1.11.1").sets_fetch_job_variables());
        assert_eq!(p("1.11.3").secrets_deadline(), Duration::from_secs(10));
        assert_eq!(p("2.0.0").secrets_deadline(), Duration::from_secs(60));
        assert!(p("2.0.0").follows_escaping_symlinks());
        assert!(!p("2.0.1").follows_escaping_symlinks());
        assert_eq!(Profile::default().release(), NEWEST);
        assert_eq!(NEWEST, r(2, 0, 5));
        assert_eq!(Profile::default().mkdir(), MkdirBehaviour::NEWEST);
        // Every change has exactly one row.
        for row in TABLE {
            assert_eq!(
                TABLE.iter().filter(|r| r.change == row.change).count(),
                1,
                "{:?}",
                row.change
            );
            assert!(!row.source.is_empty());
        }
    }
}

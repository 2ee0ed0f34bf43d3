//! HashiCorp go-version compatible version parsing.
//!
//! Nomad parses a plugin's `version` with `version.NewVersion` from
//! `github.com/hashicorp/go-version`, which is looser than SemVer: any number
//! of numeric segments, an optional `v`, pre-release text glued straight onto
//! the numbers (`1.7rc2`), leading zeros. A version plugctl accepts has to be
//! one Nomad accepts, and it has to print the way Nomad prints it, so this is
//! a behavioural port of `NewVersion`, `String` and `Compare` rather than a
//! SemVer parser.
//!
//! Upstream matches one anchored regular expression, `VersionRegexpRaw`;
//! plugctl uses the same expression with the `regex` crate, whose
//! leftmost-first semantics are Go's (both are RE2 descendants), so the same
//! text parses and the same groups capture.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use regex::Regex;

/// go-version's `VersionRegexpRaw`, anchored as `NewVersion` anchors it.
static VERSION_REGEX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^v?([0-9]+(\.[0-9]+)*?)",
        r"(-([0-9]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)|(-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)))?",
        r"(\+([0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*))?",
        r"?$",
    ))
    .expect("the upstream expression compiles")
});

/// A parsed go-version version.
///
/// Equality is structural (two versions written differently are different
/// values); use [`Version::compare`] for go-version's notion of precedence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// Numeric segments, padded with zeros to at least three like upstream.
    /// Every value fits in an `i64`, because upstream parses them as one.
    segments: Vec<u64>,
    /// How many segments were written, before padding.
    written: usize,
    pre: String,
    metadata: String,
    original: String,
}

/// Why a string is not a go-version version.
///
/// `Display` is go-version's own text as the newest release Nomad vendors
/// words it; [`VersionError::go_text`] gives an older release's. Nomad
/// passes this text through `encoding/json` unchanged, so it is what a
/// Nomad node logs for a bad `version`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VersionError {
    /// Upstream's "malformed version: " with nothing after it.
    #[error("{}", self.go_text(Wording::Lower))]
    Empty,
    #[error("{}", self.go_text(Wording::Lower))]
    Malformed(String),
    /// The text matched the grammar but a segment overflowed `int64`; upstream
    /// surfaces the `strconv.ParseInt` error, so we say the same thing.
    #[error("{}", self.go_text(Wording::Lower))]
    SegmentOutOfRange { segment: String },
}

/// How a go-version release words its errors: 1.8.0 lower-cased them
/// (`Malformed version` became `malformed version`). Which release a Nomad
/// release vendors is in plugctl-core's `nomad` module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wording {
    /// go-version before 1.8.0: `Malformed version: `, `Error parsing version: `.
    Capitalized,
    /// go-version 1.8.0 and later.
    Lower,
}

impl VersionError {
    /// The error text of go-version worded as `wording` says, byte for byte.
    pub fn go_text(&self, wording: Wording) -> String {
        let (malformed, parsing) = match wording {
            Wording::Capitalized => ("Malformed version", "Error parsing version"),
            Wording::Lower => ("malformed version", "error parsing version"),
        };
        match self {
            VersionError::Empty => format!("{malformed}: "),
            VersionError::Malformed(text) => format!("{malformed}: {text}"),
            VersionError::SegmentOutOfRange { segment } => format!(
                "{parsing}: strconv.ParseInt: parsing {}: value out of range",
                go_quote(segment)
            ),
        }
    }
}

/// Go's `strconv.Quote` of a string of ASCII digits (all a segment can
/// hold once the grammar matched): plain double quotes.
fn go_quote(digits: &str) -> String {
    format!("\"{digits}\"")
}

impl Version {
    /// Parses `s` exactly as go-version's `NewVersion` does.
    pub fn parse(s: &str) -> Result<Version, VersionError> {
        if s.is_empty() {
            return Err(VersionError::Empty);
        }
        // Go's regexp and the regex crate both match leftmost-first, so the
        // groups capture what upstream's capture: the numbers lazily (group
        // 1), then the pre-release of the `-digit` branch (4) or of the loose
        // branch (7, which wins when set), then the metadata (10).
        let caps = VERSION_REGEX
            .captures(s)
            .ok_or_else(|| VersionError::Malformed(s.to_string()))?;
        let group = |i: usize| caps.get(i).map_or("", |m| m.as_str());
        let numbers = group(1);
        let pre = match group(7) {
            "" => group(4),
            loose => loose,
        };
        let metadata = group(10);

        let mut segments = Vec::with_capacity(3);
        for text in numbers.split('.') {
            // Leading zeros are fine (`01` is 1), but the value must fit
            // int64: go-version rejects anything strconv.ParseInt rejects.
            let value: i64 = text.parse().map_err(|_| VersionError::SegmentOutOfRange {
                segment: text.to_string(),
            })?;
            segments.push(value.unsigned_abs());
        }
        let written = segments.len();
        if segments.len() < 3 {
            segments.resize(3, 0);
        }

        Ok(Version {
            segments,
            written,
            pre: pre.to_string(),
            metadata: metadata.to_string(),
            original: s.to_string(),
        })
    }

    /// The text as it was given, `v` prefix and leading zeros included.
    pub fn original(&self) -> &str {
        &self.original
    }

    /// go-version's `String()`: segments re-printed (so `v1.2` is `1.2.0` and
    /// `01.2` is `1.2.0`), then `-pre` and `+metadata` if present.
    pub fn normalized(&self) -> String {
        let mut out = self
            .segments
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(".");
        if !self.pre.is_empty() {
            out.push('-');
            out.push_str(&self.pre);
        }
        if !self.metadata.is_empty() {
            out.push('+');
            out.push_str(&self.metadata);
        }
        out
    }

    /// Pre-release text without its separator; empty when there is none.
    pub fn prerelease(&self) -> &str {
        &self.pre
    }

    pub fn metadata(&self) -> &str {
        &self.metadata
    }

    /// Numeric segments, zero-padded to at least three as go-version does.
    pub fn segments(&self) -> &[u64] {
        &self.segments
    }

    /// How many numeric segments the original text had (before padding).
    pub fn written_segments(&self) -> usize {
        self.written
    }

    /// go-version's `Compare`, quirks included.
    ///
    /// This is deliberately not an `Ord` impl: upstream's ordering ignores
    /// metadata, ignores pre-releases whenever the padded segment counts
    /// differ (`1.2.0.0-beta` equals `1.2`), and calls numeric pre-release
    /// parts that differ only by leading zeros "less" in both directions, so
    /// it is neither consistent with `Eq` nor transitive.
    pub fn compare(&self, other: &Version) -> Ordering {
        if self.normalized() == other.normalized() {
            return Ordering::Equal;
        }
        if self.segments == other.segments {
            return match (self.pre.is_empty(), other.pre.is_empty()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                (false, false) => compare_prereleases(&self.pre, &other.pre),
            };
        }
        let (a, b) = (&self.segments, &other.segments);
        for i in 0..a.len().max(b.len()) {
            // A shorter version counts as padded with zeros.
            if i >= a.len() {
                return if b[i..].iter().all(|&s| s == 0) {
                    Ordering::Equal
                } else {
                    Ordering::Less
                };
            }
            if i >= b.len() {
                return if a[i..].iter().all(|&s| s == 0) {
                    Ordering::Equal
                } else {
                    Ordering::Greater
                };
            }
            match a[i].cmp(&b[i]) {
                Ordering::Equal => continue,
                unequal => return unequal,
            }
        }
        Ordering::Equal
    }
}

fn compare_prereleases(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    let a_parts: Vec<&str> = a.split('.').collect();
    let b_parts: Vec<&str> = b.split('.').collect();
    for i in 0..a_parts.len().max(b_parts.len()) {
        let a_part = a_parts.get(i).copied().unwrap_or("");
        let b_part = b_parts.get(i).copied().unwrap_or("");
        match compare_prerelease_part(a_part, b_part) {
            Ordering::Equal => continue,
            unequal => return unequal,
        }
    }
    Ordering::Equal
}

fn compare_prerelease_part(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    // Upstream asks strconv.ParseInt, which, like Rust's parser, takes a
    // leading sign: the part `-1` (from `1.0--1`) counts as numeric.
    let a_num = a.parse::<i64>().ok();
    let b_num = b.parse::<i64>().ok();
    // A missing part loses to a numeric one and beats a textual one.
    if a.is_empty() {
        return if b_num.is_some() {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    if b.is_empty() {
        return if a_num.is_some() {
            Ordering::Greater
        } else {
            Ordering::Less
        };
    }
    match (a_num, b_num) {
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) if a > b => Ordering::Greater,
        (None, None) => Ordering::Less,
        // Equal values written differently (`01` and `1`) fall through to
        // "less" whichever side they are on; upstream does the same.
        (Some(x), Some(y)) if x > y => Ordering::Greater,
        (Some(_), Some(_)) => Ordering::Less,
    }
}

impl FromStr for Version {
    type Err = VersionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Version::parse(s)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.normalized())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap_or_else(|e| panic!("{s:?} should parse: {e}"))
    }

    // Upstream TestNewVersion, plus the cases plugctl's brief calls out.
    #[test]
    fn accepts_and_rejects_like_new_version() {
        let cases: &[(&str, bool)] = &[
            ("", false),
            ("1.2.3", true),
            ("1.0", true),
            ("1", true),
            ("1.2.beta", false),
            ("1.21.beta", false),
            ("foo", false),
            ("1.2-5", true),
            ("1.2-beta.5", true),
            ("\n1.2", false),
            ("1.2.0-x.Y.0+metadata", true),
            ("1.2.0-x.Y.0+metadata-width-hyphen", true),
            ("1.2.3-rc1-with-hyphen", true),
            ("1.2.3.4", true),
            ("1.2.0.4-x.Y.0+metadata", true),
            ("1.2.0.4-x.Y.0+metadata-width-hyphen", true),
            ("1.2.0-X-1.2.0+metadata~dist", true),
            ("1.2.3.4-rc1-with-hyphen", true),
            ("v1.2.3", true),
            ("foo1.2.3", false),
            ("1.7rc2", true),
            ("v1.7rc2", true),
            ("1.0-", true),
            // Beyond upstream's table.
            ("1.2", true),
            ("1.0beta1", true),
            ("1.2.3-rc.1+meta", true),
            ("01.02.03", true),
            ("1.0~rc1", true),
            ("1.0--x", true),
            ("1.0-.x", true),
            ("1.0-+meta", true),
            (" 1.0", false),
            ("1.0 ", false),
            ("1.0\n", false),
            ("x", false),
            ("v", false),
            ("V1.0", false),
            ("vv1.0", false),
            ("1.", false),
            (".1", false),
            ("1..2", false),
            ("1.2-", true),
            ("1.2-beta.", false),
            ("1.2-beta..1", false),
            ("1.2+", false),
            ("1.2+meta+more", false),
            ("1.2+meta.", false),
            ("1.2-be_ta", false),
            ("1.2-bêta", false),
            ("1.2.3-rc.1+meta!", false),
            ("-1.2", false),
        ];
        for &(input, ok) in cases {
            let got = Version::parse(input);
            assert_eq!(got.is_ok(), ok, "{input:?}: {got:?}");
        }
    }

    #[test]
    fn errors_read_like_upstream() {
        assert_eq!(Version::parse(""), Err(VersionError::Empty));
        assert_eq!(
            Version::parse("").unwrap_err().to_string(),
            "malformed version: "
        );
        assert_eq!(
            Version::parse("1.2.beta").unwrap_err().to_string(),
            "malformed version: 1.2.beta"
        );
        assert_eq!(
            Version::parse("1.2.beta")
                .unwrap_err()
                .go_text(Wording::Capitalized),
            "Malformed version: 1.2.beta"
        );
        assert_eq!(
            Version::parse(" 1.0").unwrap_err(),
            VersionError::Malformed(" 1.0".into())
        );
        assert_eq!(
            Version::parse("1.99999999999999999999")
                .unwrap_err()
                .to_string(),
            "error parsing version: strconv.ParseInt: parsing \"99999999999999999999\": value out of range"
        );
        assert_eq!(
            Version::parse("1.99999999999999999999")
                .unwrap_err()
                .go_text(Wording::Capitalized),
            "Error parsing version: strconv.ParseInt: parsing \"99999999999999999999\": value out of range"
        );
    }

    #[test]
    fn segments_must_fit_int64() {
        assert_eq!(
            v("1.4.9223372036854775807").segments(),
            &[1, 4, 9223372036854775807]
        );
        assert_eq!(
            Version::parse("1.4.9223372036854775808"),
            Err(VersionError::SegmentOutOfRange {
                segment: "9223372036854775808".into()
            })
        );
        // The value, not the length, decides: zeros in front do not count.
        assert_eq!(v("0000000000000000000000001.0").segments(), &[1, 0, 0]);
    }

    // Upstream TestVersionString, extended with normalisation cases.
    #[test]
    fn normalizes_like_string() {
        let cases = [
            ("1.2.3", "1.2.3"),
            ("1.2-beta", "1.2.0-beta"),
            ("1.2.0-x.Y.0", "1.2.0-x.Y.0"),
            ("1.2.0-x.Y.0+metadata", "1.2.0-x.Y.0+metadata"),
            (
                "1.2.0-metadata-1.2.0+metadata~dist",
                "1.2.0-metadata-1.2.0+metadata~dist",
            ),
            ("17.03.0-ce", "17.3.0-ce"),
            ("v1.2", "1.2.0"),
            ("1", "1.0.0"),
            ("1.2.3-rc.1+meta", "1.2.3-rc.1+meta"),
            ("01.02.03", "1.2.3"),
            ("1.2.3.4", "1.2.3.4"),
            ("1.0beta1", "1.0.0-beta1"),
            ("v1.7rc2", "1.7.0-rc2"),
            ("1.0-", "1.0.0--"),
            ("1.0+meta", "1.0.0+meta"),
        ];
        for (input, want) in cases {
            let parsed = v(input);
            assert_eq!(parsed.normalized(), want, "{input:?}");
            assert_eq!(parsed.to_string(), want, "{input:?}");
            assert_eq!(parsed.original(), input);
        }
    }

    // Upstream TestVersionPrerelease, plus the capture edge cases.
    #[test]
    fn prerelease_capture_matches_upstream() {
        let cases = [
            ("1.2.3", ""),
            ("1.2-beta", "beta"),
            ("1.2.0-x.Y.0", "x.Y.0"),
            ("1.2.0-7.Y.0", "7.Y.0"),
            ("1.2.0-x.Y.0+metadata", "x.Y.0"),
            ("1.2.0-metadata-1.2.0+metadata~dist", "metadata-1.2.0"),
            ("17.03.0-ce", "ce"),
            ("1.7rc2", "rc2"),
            ("1.0-", "-"),
            ("1.0--x", "-x"),
            ("1.0-.x", "-.x"),
            ("1.0~x", "~x"),
            ("1.0-+m", "-"),
        ];
        for (input, want) in cases {
            assert_eq!(v(input).prerelease(), want, "{input:?}");
        }
    }

    // Upstream TestVersionMetadata.
    #[test]
    fn metadata_matches_upstream() {
        let cases = [
            ("1.2.3", ""),
            ("1.2-beta", ""),
            ("1.2.0-x.Y.0", ""),
            ("1.2.0-x.Y.0+metadata", "metadata"),
            ("1.2.0-metadata-1.2.0+metadata~dist", "metadata~dist"),
        ];
        for (input, want) in cases {
            assert_eq!(v(input).metadata(), want, "{input:?}");
        }
    }

    // Upstream TestVersionSegments / TestVersionSegments64.
    #[test]
    fn segments_match_upstream() {
        let cases: &[(&str, &[u64], usize)] = &[
            ("1.2.3", &[1, 2, 3], 3),
            ("1.2-beta", &[1, 2, 0], 2),
            ("1-x.Y.0", &[1, 0, 0], 1),
            ("1.2.0-x.Y.0+metadata", &[1, 2, 0], 3),
            ("1.2.0-metadata-1.2.0+metadata~dist", &[1, 2, 0], 3),
            ("17.03.0-ce", &[17, 3, 0], 3),
            ("5.6.7.1.2.3", &[5, 6, 7, 1, 2, 3], 6),
        ];
        for &(input, want, written) in cases {
            let parsed = v(input);
            assert_eq!(parsed.segments(), want, "{input:?}");
            assert_eq!(parsed.written_segments(), written, "{input:?}");
        }
    }

    fn assert_compare(cases: &[(&str, &str, i8)]) {
        for &(a, b, want) in cases {
            let want = want.cmp(&0);
            assert_eq!(v(a).compare(&v(b)), want, "{a} <=> {b}");
        }
    }

    // Upstream TestVersionCompare (TestEqual, TestGreaterThan and friends
    // use the same pairs, so they add nothing here).
    #[test]
    fn compare_matches_upstream() {
        assert_compare(&[
            ("1.2.3", "1.4.5", -1),
            ("1.2-beta", "1.2-beta", 0),
            ("1.2", "1.1.4", 1),
            ("1.2", "1.2-beta", 1),
            ("1.2+foo", "1.2+beta", 0),
            ("v1.2", "v1.2-beta", 1),
            ("v1.2+foo", "v1.2+beta", 0),
            ("v1.2.3.4", "v1.2.3.4", 0),
            ("v1.2.0.0", "v1.2", 0),
            ("v1.2.0.0.1", "v1.2", 1),
            ("v1.2", "v1.2.0.0", 0),
            ("v1.2", "v1.2.0.0.1", -1),
            ("v1.2.0.0", "v1.2.0.0.1", -1),
            ("v1.2.3.0", "v1.2.3.4", -1),
            ("1.7rc2", "1.7rc1", 1),
            ("1.7rc2", "1.7", -1),
            ("1.2.0", "1.2.0-X-1.2.0+metadata~dist", 1),
        ]);
    }

    // Upstream TestVersionCompare_versionAndSemver; every right-hand side is
    // also valid for NewVersion, which captures it identically.
    #[test]
    fn compare_against_semver_strings() {
        assert_compare(&[
            ("0.0.2", "0.0.2", 0),
            ("1.0.2alpha", "1.0.2-alpha", 0),
            ("v1.2+foo", "v1.2+beta", 0),
            ("v1.2", "v1.2+meta", 0),
            ("1.2", "1.2-beta", 1),
            ("v1.2", "v1.2-beta", 1),
            ("1.2.3", "1.4.5", -1),
            ("v1.2", "v1.2.0.0.1", -1),
            ("v1.0.3-", "v1.0.3", -1),
        ]);
    }

    // Upstream TestComparePreReleases.
    #[test]
    fn prerelease_precedence_matches_upstream() {
        assert_compare(&[
            ("1.2-beta.2", "1.2-beta.2", 0),
            ("1.2-beta.1", "1.2-beta.2", -1),
            ("1.2-beta.2", "1.2-beta.11", -1),
            ("3.2-alpha.1", "3.2-alpha", 1),
            ("1.2-beta.2", "1.2-beta.1", 1),
            ("1.2-beta.11", "1.2-beta.2", 1),
            ("1.2-beta", "1.2-beta.3", -1),
            ("1.2-alpha", "1.2-beta.3", -1),
            ("1.2-beta", "1.2-alpha.3", 1),
            ("3.0-alpha.3", "3.0-rc.1", -1),
            ("3.0-alpha3", "3.0-rc1", -1),
            ("3.0-alpha.1", "3.0-alpha.beta", -1),
            ("5.4-alpha", "5.4-alpha.beta", 1),
            ("v1.2-beta.2", "v1.2-beta.2", 0),
            ("v1.2-beta.1", "v1.2-beta.2", -1),
            ("v3.2-alpha.1", "v3.2-alpha", 1),
            ("v3.2-rc.1-1-g123", "v3.2-rc.2", 1),
        ]);
    }

    #[test]
    fn compare_keeps_upstream_quirks() {
        // Padded lengths differ, so pre-releases are never looked at.
        assert_compare(&[("1.2.0.0-beta", "1.2-alpha", 0)]);
        // Numerically equal parts written differently: "less" both ways.
        assert_compare(&[("1.0-rc.01", "1.0-rc.1", -1), ("1.0-rc.1", "1.0-rc.01", -1)]);
        // Leading zeros in segments do not matter.
        assert_compare(&[("01.02.03", "1.2.3", 0)]);
    }

    #[test]
    fn from_str_and_display_round_trip_through_normalized() {
        let parsed: Version = "v01.2-rc.1+build.5".parse().unwrap();
        assert_eq!(parsed.to_string(), "1.2.0-rc.1+build.5");
        let again: Version = parsed.to_string().parse().unwrap();
        assert_eq!(again.normalized(), parsed.normalized());
        assert_eq!(again.compare(&parsed), Ordering::Equal);
        assert!("nope".parse::<Version>().is_err());
    }
}

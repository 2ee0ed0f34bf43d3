//! "Did you mean": the name among those there are that a mistyped one was
//! most likely meant to be (`hostvolume` for `host-volume`, `env-fil` for
//! `env-file`), as git, cargo and kubectl suggest.

/// How alike two names must be (Jaro-Winkler, 0 to 1) for one to be
/// offered for the other when more than a letter or two differ.
const SIMILAR: f64 = 0.85;

/// Whether `candidate` may be what `wanted` (both lower-cased) meant: a
/// letter missing, extra, mistyped or two swapped (`dri` for `dir`; two
/// such in a name of 6 or more letters), or a name alike enough.
fn close(wanted: &str, candidate: &str) -> Option<(usize, f64)> {
    let edits = strsim::osa_distance(wanted, candidate);
    let letters = wanted.chars().count();
    let similar = strsim::jaro_winkler(wanted, candidate);
    let typo = (letters >= 2 && edits <= 1) || (letters >= 6 && edits <= 2);
    (typo || similar >= SIMILAR).then_some((edits, similar))
}

/// The candidate closest to `name`, if one is close enough and is not
/// `name` itself: the fewest edits away, then the most alike, then the
/// first in sorted order.
pub fn closest<I, S>(name: &str, candidates: I) -> Option<String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let wanted = name.to_lowercase();
    let mut best: Option<(usize, f64, String)> = None;
    for candidate in candidates {
        let candidate = candidate.as_ref();
        if candidate == name || candidate.is_empty() {
            continue;
        }
        let Some((edits, similar)) = close(&wanted, &candidate.to_lowercase()) else {
            continue;
        };
        let better = match &best {
            None => true,
            Some((e, s, n)) => (edits, -similar, candidate) < (*e, -*s, n.as_str()),
        };
        if better {
            best = Some((edits, similar, candidate.to_string()));
        }
    }
    best.map(|(_, _, n)| n)
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn a_typo_finds_the_name_and_an_unrelated_word_finds_none() {
        let families = ["host-volume", "secrets"];
        assert_eq!(
            closest("hostvolume", families).as_deref(),
            Some("host-volume")
        );
        assert_eq!(
            closest("HOST-VOLUME", families).as_deref(),
            Some("host-volume")
        );
        assert_eq!(closest("secret", families).as_deref(), Some("secrets"));
        assert_eq!(closest("nosuch", families), None);
        assert_eq!(
            closest("host-volume", families),
            None,
            "itself is no suggestion"
        );
        assert_eq!(closest("x", ["dir", "mkdir"]), None);
        assert_eq!(closest("di", ["dir", "mkdir"]).as_deref(), Some("dir"));
        assert_eq!(closest("dri", ["dir", "mkdir"]).as_deref(), Some("dir"));
        assert_eq!(
            closest("a", ["b"]),
            None,
            "one letter is too little to go on"
        );
        assert_eq!(
            closest("quotadir", ["quota-dir", "dir"]).as_deref(),
            Some("quota-dir")
        );
        assert_eq!(
            closest("env-fil", ["env-file", "json-file"]).as_deref(),
            Some("env-file")
        );
        assert_eq!(closest("a", Vec::<String>::new()), None);
    }
}

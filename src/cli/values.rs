//! Values parsed as the command line is read, so that a bad one is a usage
//! error (exit 2) before anything runs.

use std::time::Duration;

/// `500ms`, `5s`, `2m`, `1h30m`.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    crate::units::parse_duration(s)
}

/// `50MB` (10^6), `50MiB` (2^20), plain bytes.
pub fn parse_size(s: &str) -> Result<u64, String> {
    crate::units::parse_size(s)
}

/// Where `events --since` and `--until` stand: an event's sequence number,
/// or a time (one given as how long ago is made a time when it is read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    Seq(u64),
    Time(std::time::SystemTime),
}

/// `42` (a sequence number), `2026-11-27T10:00:00Z` (a time, UTC) or `1h`
/// (that long before now). What is none of these is said in a sentence
/// with an example of each, not in a parser's words.
pub fn parse_when(s: &str) -> Result<When, String> {
    let t = s.trim();
    let q = plugctl_core::escape::quote(s);
    let forms = "a sequence number (42), a time in UTC (2026-11-27T10:00:00Z) or how long \
                 ago (30m, 1h, 2d)";
    if t.is_empty() {
        return Err(format!("it is empty: give {forms}"));
    }
    if t.bytes().all(|b| b.is_ascii_digit()) {
        return t
            .parse()
            .map(When::Seq)
            .map_err(|_| format!("{t} is larger than any sequence number"));
    }
    if t.starts_with(|c: char| c.is_ascii_digit()) && t.contains('-') {
        return humantime::parse_rfc3339_weak(t)
            .map(When::Time)
            .map_err(|_| {
                format!(
                    "{q} is not a time plugctl reads: write it as 2026-11-27T10:00:00Z \
                     (UTC; an offset other than +00:00 is not taken)"
                )
            });
    }
    match humantime::parse_duration(t) {
        Ok(ago) => std::time::SystemTime::now()
            .checked_sub(ago)
            .map(When::Time)
            .ok_or_else(|| format!("{q} is before the clock's start")),
        Err(_) => Err(format!("{q} is none of {forms}")),
    }
}

/// `K=V`; the value may be empty and may contain `=`, the key may not be
/// empty. The error says what is wrong without the argument itself: it may be
/// a secret's configuration.
pub fn parse_key_value(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some(("", _)) => Err("the key before '=' is empty".into()),
        Some((k, v)) => Ok((k.to_string(), v.to_string())),
        None => Err("the argument has no '='".into()),
    }
}

/// The clap value parser for `K=V` options (`--env`, `--param`, `--option`).
/// Unlike a plain function parser, whose error clap prints with the raw
/// value (`invalid value 'SECRET' for ...`), its error names the option but
/// never the argument.
#[derive(Debug, Clone, Copy)]
pub struct KeyValueParser;

impl clap::builder::TypedValueParser for KeyValueParser {
    type Value = (String, String);

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Self::Value, clap::Error> {
        let option = arg
            .and_then(|a| a.get_long())
            .map(|l| format!("--{l}"))
            .unwrap_or_else(|| "a K=V argument".into());
        let reason = match value.to_str() {
            Some(s) => match parse_key_value(s) {
                Ok(kv) => return Ok(kv),
                Err(reason) => reason,
            },
            None => "the argument is not valid UTF-8".into(),
        };
        Err(cmd.clone().error(
            clap::error::ErrorKind::ValueValidation,
            format!("{option} expects KEY=VALUE, but {reason}"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_when_is_a_sequence_number_a_time_or_how_long_ago() {
        assert_eq!(parse_when("42"), Ok(When::Seq(42)));
        assert_eq!(
            parse_when("1970-01-01T00:01:40Z"),
            Ok(When::Time(
                std::time::UNIX_EPOCH + std::time::Duration::from_secs(100)
            ))
        );
        let Ok(When::Time(t)) = parse_when("1h") else {
            panic!("1h")
        };
        let ago = std::time::SystemTime::now().duration_since(t).unwrap();
        assert!((3599..3700).contains(&ago.as_secs()), "{ago:?}");
        for bad in [
            "yesterday",
            "",
            "2026-13-01T00:00:00Z",
            "99999999999999999999999",
        ] {
            let e = parse_when(bad).unwrap_err();
            assert!(!e.contains("invalid digit"), "{bad}: {e}");
        }
        assert!(
            parse_when("soon")
                .unwrap_err()
                .contains("a sequence number (42)")
        );
    }

    #[test]
    fn key_value_pairs() {
        assert_eq!(parse_key_value("a=b"), Ok(("a".into(), "b".into())));
        assert_eq!(parse_key_value("a="), Ok(("a".into(), String::new())));
        assert_eq!(parse_key_value("a=b=c"), Ok(("a".into(), "b=c".into())));
        assert!(parse_key_value("=b").is_err());
        assert!(parse_key_value("ab").is_err());
    }

    #[test]
    fn key_value_errors_do_not_echo_the_argument() {
        for bad in ["SECRETLEAK", "=SECRETLEAK"] {
            let e = crate::cli::command()
                .try_get_matches_from(["plugctl", "secret", "fetch", "p", "x", "--env", bad])
                .unwrap_err();
            let text = e.render().to_string();
            assert!(text.contains("--env expects KEY=VALUE"), "{text}");
            assert!(!text.contains("SECRETLEAK"), "{text}");
        }
    }
}

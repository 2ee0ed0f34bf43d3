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

//! Durations and sizes as users type them.

use std::time::Duration;

/// `500ms`, `5s`, `2m`, `1h30m`. A bare number is refused: `--timeout 5`
/// could mean seconds or milliseconds, and guessing wrong is worse than asking.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    if t.is_empty() {
        return Err("empty duration (examples: 500ms, 5s, 2m)".into());
    }
    if t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "{s_q} has no unit (examples: 500ms, 5s, 2m)",
            s_q = shown(s)
        ));
    }
    humantime::parse_duration(t)
        .map_err(|e| format!("{s_q}: {e} (examples: 500ms, 5s, 2m)", s_q = shown(s)))
}

/// `50MB` = 50,000,000 and `50MiB` = 52,428,800, as the protocol says; a
/// plain number is bytes.
/// A value in an error, quoted: whole up to 40 characters, else its first
/// 32 and how long it is (a 100,000-digit capacity is not echoed back).
fn shown(s: &str) -> String {
    let n = s.chars().count();
    if n <= 40 {
        return plugctl_core::escape::quote(s);
    }
    let head: String = s.chars().take(32).collect();
    format!("{}… ({n} characters)", plugctl_core::escape::quote(&head))
}

pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    if t.is_empty() {
        return Err("empty size (examples: 1048576, 50MB, 50MiB, 1GiB)".into());
    }
    // A size is a whole number of bytes: scientific notation (`1e-3`)
    // and fractions of a byte would be rounded silently, so they are
    // refused; a fraction of a larger unit (`1.5MiB`) is fine.
    let digits_end = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '_'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(digits_end);
    let unit = unit.trim();
    if unit.starts_with(['e', 'E'])
        && unit[1..].starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+')
    {
        return Err(format!(
            "{s_q}: scientific notation is not a size; write the bytes or a unit (examples: 1048576, 50MB, 50MiB)",
            s_q = shown(s)
        ));
    }
    let bytes = parse_size::parse_size(t).map_err(|e| {
        format!(
            "{s_q}: {e} (examples: 1048576, 50MB, 50MiB, 1GiB)",
            s_q = shown(s)
        )
    })?;
    if number.contains('.') && (unit.is_empty() || unit.eq_ignore_ascii_case("b")) {
        return Err(format!(
            "{s_q}: a size is a whole number of bytes",
            s_q = shown(s)
        ));
    }
    if bytes == 0 && number.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
        return Err(format!("{s_q} is less than one byte", s_q = shown(s)));
    }
    Ok(bytes)
}

pub fn duration_ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("5s"), Ok(Duration::from_secs(5)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("1h30m"), Ok(Duration::from_secs(5400)));
        assert!(parse_duration("5").is_err());
        assert!(parse_duration("").is_err());
        assert!(parse_duration("fast").is_err());
        assert!(parse_duration("-1s").is_err());
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("50MB"), Ok(50_000_000));
        assert_eq!(parse_size("50MiB"), Ok(52_428_800));
        assert_eq!(parse_size("1GiB"), Ok(1 << 30));
        assert_eq!(parse_size("1024"), Ok(1024));
        assert_eq!(parse_size("1kB"), Ok(1000));
        assert!(parse_size("").is_err());
        assert!(parse_size("-5MB").is_err());
        assert!(parse_size("lots").is_err());
        assert!(parse_size("99999999999999999999999").is_err());
        // Never rounded silently.
        assert!(parse_size("1e-3").is_err());
        assert!(parse_size("1E6").is_err());
        assert!(parse_size("1.5").is_err());
        assert!(parse_size("0.4B").is_err());
        assert_eq!(parse_size("1.5MiB"), Ok(1_572_864));
        assert_eq!(parse_size("0"), Ok(0));
        assert_eq!(parse_size("0MiB"), Ok(0));
    }
}

//! Sizes and ages as tables show them to people (`10 MiB`, `5 min ago`);
//! JSON documents keep the exact bytes and the RFC 3339 times.

use std::time::{Duration, SystemTime};

const UNITS: [&str; 6] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];

/// Bytes in binary units, as `ls -h` and `du -h` count them: `0 B`,
/// `512 B`, `10 MiB`, `1.5 GiB`. A whole number of a unit is shown
/// without a fraction; anything else with one decimal, so `1.0 MiB` (just
/// under or over) never reads as exactly one.
pub fn size(bytes: u64) -> String {
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut unit = 0;
    let mut scale: u64 = 1024;
    while unit + 1 < UNITS.len() && bytes / scale >= 1024 {
        unit += 1;
        scale *= 1024;
    }
    if bytes.is_multiple_of(scale) {
        return format!("{} {}", bytes / scale, UNITS[unit]);
    }
    let value = bytes as f64 / scale as f64;
    // 1023.95 KiB rounds to "1024.0 KiB": one unit up says it better.
    if format!("{value:.1}") == "1024.0" && unit + 1 < UNITS.len() {
        return format!("{:.1} {}", value / 1024.0, UNITS[unit + 1]);
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// A recorded size, which a plugin reported and may be anything: a
/// negative one is shown as the number it is.
pub fn signed_size(bytes: i64) -> String {
    match u64::try_from(bytes) {
        Ok(b) => size(b),
        Err(_) => format!("{bytes} B"),
    }
}

/// How long ago `then` was, in one unit: `12 s ago`, `5 min ago`, `3 h
/// ago`, `2 days ago` (whole units, rounded down; hours up to two days).
/// A time in the future (a clock set back since) is `0 s ago`.
pub fn age(then: SystemTime, now: SystemTime) -> String {
    let secs = now.duration_since(then).unwrap_or(Duration::ZERO).as_secs();
    match secs {
        s if s < 60 => format!("{s} s ago"),
        s if s < 3600 => format!("{} min ago", s / 60),
        s if s < 48 * 3600 => format!("{} h ago", s / 3600),
        s => format!("{} days ago", s / 86_400),
    }
}

/// The columns `-v` adds to a table of calls: what each cost.
pub const USAGE_HEADERS: [&str; 3] = ["CPU", "PEAK MEM", "PROCS"];

/// A call's [`USAGE_HEADERS`] cells: CPU time, peak memory, processes;
/// `-` for what is not known (no call ran, or only its clock was read).
pub fn usage_cells(usage: Option<&plugctl_core::usage::Usage>) -> [String; 3] {
    let dash = || "-".to_string();
    let Some(u) = usage else {
        return [dash(), dash(), dash()];
    };
    [
        u.cpu_total().map_or_else(dash, |cpu| {
            crate::output::short_duration(plugctl_core::usage::millis(cpu))
        }),
        u.max_rss_kib
            .map_or_else(dash, |kib| size(kib.saturating_mul(1024))),
        u.processes.to_string(),
    ]
}

/// The age of an RFC 3339 time the registry recorded (`updated_at`), or
/// `-` when it does not read as one.
pub fn age_of(recorded: &str, now: SystemTime) -> String {
    humantime::parse_rfc3339_weak(recorded).map_or_else(|_| "-".into(), |t| age(t, now))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_in_binary_units() {
        assert_eq!(size(0), "0 B");
        assert_eq!(size(1023), "1023 B");
        assert_eq!(size(1024), "1 KiB");
        assert_eq!(size(1536), "1.5 KiB");
        assert_eq!(size(10 << 20), "10 MiB");
        assert_eq!(size((1 << 20) - 1), "1.0 MiB");
        assert_eq!(size(1_000_000), "976.6 KiB");
        assert_eq!(size(u64::MAX), "16.0 EiB");
        assert_eq!(signed_size(-1), "-1 B");
        assert_eq!(signed_size(1 << 30), "1 GiB");
    }

    #[test]
    fn ages_in_one_unit() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let ago = |s: u64| age(now - Duration::from_secs(s), now);
        assert_eq!(ago(0), "0 s ago");
        assert_eq!(ago(12), "12 s ago");
        assert_eq!(ago(300), "5 min ago");
        assert_eq!(ago(3 * 3600 + 59), "3 h ago");
        assert_eq!(ago(47 * 3600), "47 h ago");
        assert_eq!(ago(2 * 86_400), "2 days ago");
        assert_eq!(age(now + Duration::from_secs(5), now), "0 s ago");
        assert_eq!(age_of("yesterday", now), "-");
        assert_eq!(
            age_of("1970-01-12T13:46:00.000Z", now),
            "40 s ago",
            "1,000,000 s after the epoch is 13:46:40 on 12 January 1970"
        );
    }
}

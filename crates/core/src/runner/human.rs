//! Byte counts as people write them, for messages about output.

/// `4 MiB`, `1.5 KiB`, `12 B`: byte counts for messages.
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut value = n as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if value >= 10.0 || value.fract() == 0.0 {
        format!("{value:.0} {}", UNITS[unit])
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::human_bytes;

    #[test]
    fn byte_counts_read_as_people_write_them() {
        assert_eq!(human_bytes(0), "0 B");
        assert_eq!(human_bytes(1023), "1023 B");
        assert_eq!(human_bytes(1024), "1 KiB");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(4 << 20), "4 MiB");
        assert_eq!(human_bytes(1 << 40), "1 TiB");
        // Beyond the last unit: still TiB, never past the table's end.
        assert_eq!(human_bytes(1 << 50), "1024 TiB");
        assert!(human_bytes(u64::MAX).ends_with(" TiB"));
    }
}

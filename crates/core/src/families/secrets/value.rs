//! A secret value: what a `fetch` returns, kept out of every log line,
//! error message and record, and wiped from memory when dropped.

use std::fmt;

/// A secret value. Its `Debug` and `Display` print `****`, and it has no
/// `Serialize`, so it cannot reach a log line, an error message or the
/// registry by accident: the only way to the bytes is [`SecretValue::expose`],
/// which only the output code of `secret fetch` (and masking) calls.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretValue(String);

impl SecretValue {
    /// `value`, as secret from now on.
    pub fn new(value: impl Into<String>) -> SecretValue {
        SecretValue(value.into())
    }

    /// The value itself. Call it only to print it where the caller asked
    /// for it (stdout of `secret fetch`), or to mask it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The value is `""`.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The value's bytes are overwritten when it is dropped (a copy made by
/// `Clone` is its own value and is wiped too), so a freed value does not
/// linger in memory that a later allocation or a core could show.
impl Drop for SecretValue {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.0);
    }
}

impl fmt::Debug for SecretValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecretValue(****)")
    }
}

impl fmt::Display for SecretValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(MASK)
    }
}

/// What a value is replaced with wherever plugctl shows text that may hold one.
pub const MASK: &str = "****";

#[cfg(test)]
mod tests {
    use super::super::fetch::tests::{SECRET, fetch};
    use super::*;

    #[test]
    fn secret_value_is_redacted() {
        let v = SecretValue::new(SECRET);
        assert_eq!(format!("{v}"), "****");
        assert_eq!(format!("{v:?}"), "SecretValue(****)");
        let f = fetch(0, &format!(r#"{{"result": {{"K": "{SECRET}"}}}}"#)).unwrap();
        let dbg = format!("{f:?} {f:#?}");
        assert!(!dbg.contains(SECRET) && dbg.contains("\"K\""), "{dbg}");
        assert_eq!(f.values["K"].expose(), SECRET);
    }
}

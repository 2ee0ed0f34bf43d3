//! The domain's words, in one place: the plugin families plugctl knows and
//! the operations a plugin is asked for. Every other module compares these
//! types; the names as strings appear here (and in user-facing text) only.
//!
//! A plugin directory may hold families plugctl does not know (any other
//! subdirectory), and the dynamic registry takes any type: those stay
//! strings, and [`Family::of`] says whether a type is one of ours.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A plugin family whose protocol plugctl speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// Dynamic host-volume plugins (`DHV_*`): fingerprint, create, delete.
    HostVolume,
    /// Secrets plugins (`CPI_OPERATION`): fingerprint, fetch.
    Secrets,
}

impl Family {
    /// Every known family, in the order they are listed.
    pub const ALL: [Family; 2] = [Family::HostVolume, Family::Secrets];

    /// The family's name: its directory under the plugin directory, the
    /// `type` in tables and JSON, and a key in the registry.
    pub const fn name(self) -> &'static str {
        match self {
            Family::HostVolume => "host-volume",
            Family::Secrets => "secrets",
        }
    }

    /// The family a type name is, if plugctl knows it.
    pub fn of(type_name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == type_name)
    }

    /// Whether `type_name` is this family.
    pub fn is(self, type_name: &str) -> bool {
        self.name() == type_name
    }

    /// The operations a plugin of this family answers, fingerprint first.
    pub const fn operations(self) -> &'static [Operation] {
        match self {
            Family::HostVolume => &[Operation::Fingerprint, Operation::Create, Operation::Delete],
            Family::Secrets => &[Operation::Fingerprint, Operation::Fetch],
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a plugin is asked to do: argv\[1\], and the value of
/// `DHV_OPERATION` / `CPI_OPERATION`. Which family answers which is
/// [`Family::operations`]; a family plugctl does not know answers only
/// fingerprint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Operation {
    Fingerprint,
    /// host-volume
    Create,
    /// host-volume
    Delete,
    /// secrets
    Fetch,
}

impl Operation {
    pub const ALL: [Operation; 4] = [
        Operation::Fingerprint,
        Operation::Create,
        Operation::Delete,
        Operation::Fetch,
    ];

    /// The operation argv\[1\] names, if it is one.
    pub fn of(name: &str) -> Option<Operation> {
        Operation::ALL.into_iter().find(|op| op.name() == name)
    }

    pub const fn name(self) -> &'static str {
        match self {
            Operation::Fingerprint => "fingerprint",
            Operation::Create => "create",
            Operation::Delete => "delete",
            Operation::Fetch => "fetch",
        }
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_types_are_none() {
        for f in Family::ALL {
            assert_eq!(Family::of(f.name()), Some(f));
            assert!(f.is(f.name()));
            assert_eq!(f.operations()[0], Operation::Fingerprint);
        }
        assert_eq!(Family::of("csi-node"), None);
        assert_eq!(
            Family::of("Secrets"),
            None,
            "family names are case-sensitive"
        );
        assert_eq!(
            serde_json::to_string(&Operation::Fetch).unwrap(),
            "\"fetch\""
        );
        for op in [
            Operation::Fingerprint,
            Operation::Create,
            Operation::Delete,
            Operation::Fetch,
        ] {
            let json = serde_json::to_string(&op).unwrap();
            assert_eq!(json, format!("\"{}\"", op.name()));
        }
    }
}

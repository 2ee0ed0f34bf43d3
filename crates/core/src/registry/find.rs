//! Finding one volume the way operators name one: `nomad volume status`
//! takes an id prefix, `kubectl` a name. A volume is named by its full id
//! (any case), by a prefix of its id long enough to mean something, or by
//! its name in a namespace; two volumes that fit are an ambiguity the
//! caller reports, never a guess (a delete must not pick one).
//!
//! Only the public view of [`State`] is used here (its volumes in id
//! order, by id, by name), so the registry's own modules stay as they are.

use std::collections::HashMap;

use super::{State, Volume};

/// How many characters of an id a prefix needs: fewer would take a short
/// name (`db`, `a`) for an id prefix, and match too many ids to help. Git
/// takes 4 for an abbreviated hash, for the same reasons.
pub const MIN_ID_PREFIX: usize = 4;

/// How many characters of an id a table shows (`nomad volume status`
/// shows 8 too); the rest is in `-v` and in every JSON document.
pub const SHORT_ID: usize = 8;

/// What a volume was named by, and how to read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VolumeRef<'q> {
    /// An id, an id prefix, or a name in the namespace (a positional
    /// argument): any volume that fits.
    Any(&'q str),
    /// Only an id or an id prefix (`--id`).
    Id(&'q str),
    /// Only a name in the namespace (`--name`).
    Name(&'q str),
}

impl<'q> VolumeRef<'q> {
    /// The text as typed.
    pub fn text(self) -> &'q str {
        match self {
            VolumeRef::Any(t) | VolumeRef::Id(t) | VolumeRef::Name(t) => t,
        }
    }

    /// Whether this may be read as an id or an id prefix.
    pub fn may_be_id(self) -> bool {
        !matches!(self, VolumeRef::Name(_))
    }

    /// Whether this may be read as a name.
    pub fn may_be_name(self) -> bool {
        !matches!(self, VolumeRef::Id(_))
    }

    /// The text, lower-cased, when it can be an id prefix: long enough,
    /// and made of what an id is made of (hex digits and dashes).
    pub fn id_prefix(self) -> Option<String> {
        let t = self.text();
        let id_like =
            t.len() >= MIN_ID_PREFIX && t.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-');
        (self.may_be_id() && id_like).then(|| t.to_ascii_lowercase())
    }
}

/// How a table of volumes shows their ids ([`State::short_ids`]).
#[derive(Debug, Clone)]
pub struct ShortIds<'s> {
    /// The ids that need more than [`SHORT_ID`] characters, with how many:
    /// none in most registries, every one in one whose ids were made alike.
    /// Hashed: a table asks in its own order, and a binary search per row
    /// through 100,000 ids was a twentieth of `volume list`.
    longer: HashMap<&'s str, usize>,
}

impl ShortIds<'_> {
    /// `id` as a table shows it.
    pub fn of<'i>(&self, id: &'i str) -> &'i str {
        let len = self.longer.get(id).copied().unwrap_or(SHORT_ID);
        id.get(..len).unwrap_or(id)
    }
}

/// What a [`VolumeRef`] found.
#[derive(Debug, Clone, PartialEq)]
pub enum Found<'s, 'a> {
    One(&'s Volume<'a>),
    /// More than one fits: every one, in id order.
    Ambiguous(Vec<&'s Volume<'a>>),
    None,
}

impl<'a> State<'a> {
    /// How a table shows these volumes' ids: each by its first
    /// [`SHORT_ID`] characters, or by as many more as it takes to tell it
    /// from every other volume's id (two chosen with `--id` may share
    /// their first 8; 100,000 random ones hold such a pair on average):
    /// what a table shows, `volume show` takes.
    pub fn short_ids(&self) -> ShortIds<'_> {
        ShortIds {
            longer: self
                .volumes
                .distinct_prefix_lens_over(SHORT_ID)
                .into_iter()
                .collect(),
        }
    }

    /// The volume `what` names in `namespace` (names are per namespace;
    /// ids are not). A full id wins over other ids it is a prefix of, but
    /// not over a volume that has it for a name (a name may be anything,
    /// another volume's id too): both are then [`Found::Ambiguous`].
    /// Otherwise every volume whose id starts with the prefix and the one
    /// with that name are the candidates, and more than one is ambiguous.
    pub fn lookup_volume(&self, what: VolumeRef<'_>, namespace: &str) -> Found<'_, 'a> {
        if what.may_be_id()
            && let Some(v) = self.volume(what.text())
        {
            let named = what
                .may_be_name()
                .then(|| self.volume_named(namespace, what.text()))
                .flatten()
                .filter(|n| n.id != v.id);
            return match named {
                Some(n) => {
                    let mut both = vec![v, n];
                    both.sort_by(|a, b| a.id.cmp(&b.id));
                    Found::Ambiguous(both)
                }
                None => Found::One(v),
            };
        }
        let mut fits: Vec<&Volume<'a>> = match what.id_prefix() {
            Some(prefix) => self
                .volumes
                .values()
                .filter(|v| {
                    v.id.get(..prefix.len())
                        .is_some_and(|p| p.eq_ignore_ascii_case(&prefix))
                })
                .collect(),
            None => Vec::new(),
        };
        if what.may_be_name()
            && let Some(v) = self.volume_named(namespace, what.text())
            && !fits.iter().any(|f| f.id == v.id)
        {
            fits.push(v);
            fits.sort_by(|a, b| a.id.cmp(&b.id));
        }
        match fits.len() {
            0 => Found::None,
            1 => Found::One(fits[0]),
            _ => Found::Ambiguous(fits),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::host_volume::Request;
    use crate::registry::model::Owner;

    /// A state holding these volumes (id, name, namespace), made as a
    /// create makes them.
    fn state(vols: &[(&str, &str, &str)]) -> State<'static> {
        let mut s = State::default();
        for (id, name, ns) in vols {
            let req = Request {
                volumes_dir: "/vols".into(),
                plugin_dir: "/plugins".into(),
                node_pool: "default".into(),
                namespace: ns.to_string(),
                name: name.to_string(),
                id: id.to_string(),
                capacity_min: 0,
                capacity_max: 0,
                node_id: "node".into(),
                parameters: Default::default(),
            };
            s.volumes.insert(Volume::pending(
                &req,
                "dir",
                Owner {
                    pid: std::process::id(),
                    started: 0,
                    lock: None,
                },
            ));
        }
        s
    }

    const A: &str = "0b5e2c1a-1111-4222-8333-444455556666";
    const B: &str = "0b5e9999-1111-4222-8333-444455556666";
    const C: &str = "7f000000-1111-4222-8333-444455556666";

    fn id<'s>(f: Found<'s, '_>) -> Option<&'s str> {
        match f {
            Found::One(v) => Some(&v.id),
            _ => None,
        }
    }

    /// The definition, plainly: 8 characters, or one more than the id
    /// shares with any other.
    fn short_id_by_definition<'i>(ids: &[&str], id: &'i str) -> &'i str {
        let shared = |other: &str| {
            id.bytes()
                .zip(other.bytes())
                .take_while(|(a, b)| a.eq_ignore_ascii_case(b))
                .count()
        };
        let most = ids
            .iter()
            .filter(|o| **o != id)
            .map(|o| shared(o))
            .max()
            .unwrap_or(0);
        id.get(..(most + 1).max(SHORT_ID)).unwrap_or(id)
    }

    #[test]
    fn a_short_id_is_8_characters_or_as_many_as_tell_it_apart() {
        let near = "0b5e2c1a-1112-4222-8333-444455556666";
        let s = state(&[
            (A, "a", "ns"),
            (B, "b", "ns"),
            (C, "c", "ns"),
            (near, "n", "ns"),
        ]);
        let ids = s.short_ids();
        assert_eq!(ids.of(C), "7f000000");
        assert_eq!(ids.of(B), "0b5e9999");
        // A and `near` share 12 characters: 13 tell them apart.
        assert_eq!(ids.of(A), "0b5e2c1a-1111");
        assert_eq!(ids.of(near), "0b5e2c1a-1112");
        assert_eq!(State::default().short_ids().of(A), "0b5e2c1a");
        assert_eq!(ids.of("abc"), "abc");
    }

    #[test]
    fn an_id_recorded_in_upper_case_is_found_by_its_prefix_in_any_case() {
        let upper = "0B5E2C1A-3111-4222-8333-444455556666";
        let s = state(&[(A, "keep", "ns"), (upper, "victim", "ns")]);
        let ids = s.short_ids();
        // The two share 9 characters in any case: each is shown by 10.
        assert_eq!(ids.of(A), "0b5e2c1a-1");
        assert_eq!(ids.of(upper), "0B5E2C1A-3");
        for typed in ["0B5E2C1A-3", "0b5e2c1a-3"] {
            assert_eq!(
                id(s.lookup_volume(VolumeRef::Id(typed), "ns")),
                Some(upper),
                "{typed}"
            );
        }
        assert_eq!(
            id(s.lookup_volume(VolumeRef::Id("0B5E2C1A-1"), "ns")),
            Some(A)
        );
    }

    #[test]
    fn short_ids_are_as_defined_for_every_id() {
        // Ids that share up to 12 characters in every pattern: runs of
        // three alike, pairs, and lone ones.
        let ids: Vec<String> = (0..300u32)
            .map(|n| {
                let (x, y) = (n % 7, (n * 31) % 11);
                let id = format!(
                    "0b5e2c{:02x}-{x:x}{y:x}{:02x}-4222-8333-{n:012x}",
                    n % 3,
                    n % 5
                );
                // A hand-edited registry may hold upper case too.
                if n % 4 == 0 { id.to_uppercase() } else { id }
            })
            .collect();
        let all: Vec<&str> = ids.iter().map(String::as_str).collect();
        let vols: Vec<(&str, &str, &str)> = all.iter().map(|i| (*i, "v", "ns")).collect();
        let s = state(&vols);
        let shown = s.short_ids();
        let mut longer = 0;
        for id in &all {
            assert_eq!(shown.of(id), short_id_by_definition(&all, id), "{id}");
            longer += usize::from(shown.of(id).len() > SHORT_ID);
        }
        assert!(longer > 100, "the ids collide too little to test: {longer}");
    }

    #[test]
    fn ids_prefixes_and_names() {
        let s = state(&[
            (A, "web", "default"),
            (B, "db", "default"),
            (C, "cafe", "prod"),
        ]);
        let any = |t| s.lookup_volume(VolumeRef::Any(t), "default");
        let upper = A.to_uppercase();
        assert_eq!(id(any(&upper)), Some(A));
        assert_eq!(id(any("0b5e2")), Some(A));
        assert_eq!(id(any("7F00")), Some(C));
        assert_eq!(id(any("db")), Some(B));
        assert!(matches!(any("0b5e"), Found::Ambiguous(v) if v.len() == 2));
        // too short to be a prefix, and no such name
        assert_eq!(any("0b5"), Found::None);
        // a name lives in its namespace
        assert_eq!(any("cafe"), Found::None);
        assert_eq!(id(s.lookup_volume(VolumeRef::Any("cafe"), "prod")), Some(C));
        // --id and --name read it one way only
        assert_eq!(s.lookup_volume(VolumeRef::Id("db"), "default"), Found::None);
        assert_eq!(
            s.lookup_volume(VolumeRef::Name("0b5e2"), "default"),
            Found::None
        );
    }

    #[test]
    fn a_name_that_is_also_a_prefix_is_ambiguous() {
        let s = state(&[(A, "web", "default"), (C, "0b5e", "default")]);
        match s.lookup_volume(VolumeRef::Any("0b5e"), "default") {
            Found::Ambiguous(v) => {
                let ids: Vec<&str> = v.iter().map(|v| v.id.as_ref()).collect();
                assert_eq!(ids, [A, C]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            id(s.lookup_volume(VolumeRef::Name("0b5e"), "default")),
            Some(C)
        );
        assert_eq!(
            id(s.lookup_volume(VolumeRef::Id("0b5e"), "default")),
            Some(A)
        );
    }
}

//! Volume records held as the file holds them: their strings borrow from
//! the bytes read (a `Cow` that owns only what a change wrote or what had
//! an escape), the parameters are a small sorted list, and the records are
//! one sorted vector of boxes. A registry of 100,000 volumes so takes
//! about its file's size again in memory, not four times it, and parses
//! faster than owned strings would (no allocation per string).
//!
//! The file format is unchanged: `volumes` is a JSON object id → record,
//! `parameters` an object name → value.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

/// A string of a record: borrowed from the file's bytes when it can be.
pub type Text<'a> = Cow<'a, str>;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VolumeState {
    /// create is running, or was interrupted: `volume repair` settles it.
    Pending,
    /// create succeeded.
    Ready,
    /// delete is running, or was interrupted.
    Deleting,
}

impl VolumeState {
    pub fn as_str(self) -> &'static str {
        match self {
            VolumeState::Pending => "pending",
            VolumeState::Ready => "ready",
            VolumeState::Deleting => "deleting",
        }
    }
}

/// One volume's record. Its strings borrow from the registry's bytes where
/// they can (see this module); `Volume<'static>` owns them all.
/// (The fields say `Cow<'a, str>`, not the `Text` alias: serde's derive
/// borrows a field only when it sees `Cow` written out.)
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Volume<'a> {
    #[serde(borrow)]
    pub id: Cow<'a, str>,
    #[serde(borrow)]
    pub name: Cow<'a, str>,
    #[serde(borrow)]
    pub namespace: Cow<'a, str>,
    #[serde(borrow)]
    pub plugin: Cow<'a, str>,
    #[serde(borrow)]
    pub node_id: Cow<'a, str>,
    #[serde(borrow)]
    pub node_pool: Cow<'a, str>,
    pub capacity_min: u64,
    pub capacity_max: u64,
    #[serde(borrow)]
    pub parameters: Params<'a>,
    /// What create returned; empty while pending.
    #[serde(borrow)]
    pub path: Cow<'a, str>,
    pub bytes: i64,
    pub state: VolumeState,
    #[serde(borrow)]
    pub created_at: Cow<'a, str>,
    #[serde(borrow)]
    pub updated_at: Cow<'a, str>,
    /// The last failure of an update or delete, kept for the operator.
    #[serde(
        default,
        borrow,
        with = "opt_text",
        skip_serializing_if = "Option::is_none"
    )]
    pub error: Option<Text<'a>>,
    /// The volumes directory the volume was created in, so that delete,
    /// restore and repair send the plugin the same one. Absent in records
    /// that did not store it: the configured directory is used.
    #[serde(
        default,
        borrow,
        with = "opt_text",
        skip_serializing_if = "Option::is_none"
    )]
    pub volumes_dir: Option<Text<'a>>,
    /// The plugctl process running this volume's create or delete while it
    /// is `pending` or `deleting`; a dead owner means it was interrupted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<Owner>,
}

/// One process, told apart from a later one with the same pid by its start
/// time (clock ticks after boot, from `/proc/<pid>/stat`; 0 when unknown).
/// Whether it still runs is decided by `lock`: the process holds an flock
/// on a file named by it for as long as it lives, which no pid reuse and no
/// PID namespace can fake (see [`super::Owners`]). Records written before
/// it have only the pid to go by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Owner {
    pub pid: u32,
    #[serde(default)]
    pub started: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<u32>,
}

impl Volume<'_> {
    /// The record owning every string: outlives the bytes it was read from.
    pub fn into_owned(self) -> Volume<'static> {
        let own = |t: Text<'_>| -> Text<'static> { Cow::Owned(t.into_owned()) };
        Volume {
            id: own(self.id),
            name: own(self.name),
            namespace: own(self.namespace),
            plugin: own(self.plugin),
            node_id: own(self.node_id),
            node_pool: own(self.node_pool),
            capacity_min: self.capacity_min,
            capacity_max: self.capacity_max,
            parameters: self.parameters.into_owned(),
            path: own(self.path),
            bytes: self.bytes,
            state: self.state,
            created_at: own(self.created_at),
            updated_at: own(self.updated_at),
            error: self.error.map(own),
            volumes_dir: self.volumes_dir.map(own),
            owner: self.owner,
        }
    }

    /// An owned copy.
    pub fn to_owned_record(&self) -> Volume<'static> {
        self.clone().into_owned()
    }

    /// The recorded volumes directory, as a path.
    pub fn volumes_dir(&self) -> Option<&std::path::Path> {
        self.volumes_dir.as_deref().map(std::path::Path::new)
    }
}

/// A string that borrows from the input when it has no escape (serde's
/// derive does this for a bare `Cow` field only, not inside a map, a tuple
/// or an `Option`).
struct Borrowing<'a>(Text<'a>);

impl<'de: 'a, 'a> Deserialize<'de> for Borrowing<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<Text<'a>>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Borrowing<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: serde::de::Error>(
                self,
                v: &'de str,
            ) -> Result<Self::Value, E> {
                Ok(Borrowing(Cow::Borrowed(v)))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Borrowing(Cow::Owned(v.to_string())))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Borrowing(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V(std::marker::PhantomData))
    }
}

/// `Option<Cow<str>>` that borrows.
pub mod opt_text {
    use super::*;

    pub fn serialize<S: Serializer>(v: &Option<Text<'_>>, s: S) -> Result<S::Ok, S::Error> {
        v.serialize(s)
    }

    pub fn deserialize<'de: 'a, 'a, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Text<'a>>, D::Error> {
        Ok(Option::<Borrowing<'a>>::deserialize(d)?.map(|w| w.0))
    }
}

/// A volume's parameters: name → value, sorted by name, each name once
/// (a name given twice in the file keeps its last value, as a map would).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Params<'a>(Vec<(Text<'a>, Text<'a>)>);

impl<'a> Params<'a> {
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_ref(), v.as_ref()))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn to_map(&self) -> BTreeMap<String, String> {
        self.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    pub fn into_owned(self) -> Params<'static> {
        Params(
            self.0
                .into_iter()
                .map(|(k, v)| (Cow::Owned(k.into_owned()), Cow::Owned(v.into_owned())))
                .collect(),
        )
    }

    fn from_pairs(mut pairs: Vec<(Text<'a>, Text<'a>)>) -> Params<'a> {
        // Stable: of equal names the last given stays last, and is kept.
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(Text<'a>, Text<'a>)> = Vec::with_capacity(pairs.len());
        for (k, v) in pairs {
            match out.last_mut() {
                Some(last) if last.0 == k => last.1 = v,
                _ => out.push((k, v)),
            }
        }
        out.shrink_to_fit();
        Params(out)
    }
}

impl From<&BTreeMap<String, String>> for Params<'static> {
    fn from(m: &BTreeMap<String, String>) -> Self {
        Params(
            m.iter()
                .map(|(k, v)| (Cow::Owned(k.clone()), Cow::Owned(v.clone())))
                .collect(),
        )
    }
}

impl Serialize for Params<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k.as_ref(), v.as_ref())?;
        }
        m.end()
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Params<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<Params<'a>>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Params<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of strings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
                let mut pairs = Vec::new();
                while let Some((k, v)) = m.next_entry::<Borrowing<'a>, Borrowing<'a>>()? {
                    pairs.push((k.0, v.0));
                }
                Ok(Params::from_pairs(pairs))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// How many leading bytes `a` and `b` have in common, in any case (ids
/// are compared lower-cased, as Nomad compares UUIDs).
fn shared_prefix(a: &str, b: &str) -> usize {
    a.bytes()
        .zip(b.bytes())
        .take_while(|(x, y)| x.eq_ignore_ascii_case(y))
        .count()
}

/// Every volume record, sorted by id (one box each: a 100,000-record
/// registry never needs one contiguous block of them, nor a copy of it
/// when the vector grows).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Volumes<'a> {
    // Boxed on purpose: one allocation per record, so that 100,000 of them
    // never need one contiguous block, nor a copy of it when the vector
    // grows while the file is read.
    #[allow(clippy::vec_box)]
    sorted: Vec<Box<Volume<'a>>>,
    /// A record whose key in the file is not its id (kept for validation,
    /// which names it; the record is kept under its id).
    pub(crate) mismatched_key: Option<(String, String)>,
}

impl<'a> Volumes<'a> {
    fn at(&self, id: &str) -> Result<usize, usize> {
        self.sorted.binary_search_by(|v| v.id.as_ref().cmp(id))
    }

    pub fn get(&self, id: &str) -> Option<&Volume<'a>> {
        self.at(id).ok().map(|i| &*self.sorted[i])
    }

    pub fn get_mut(&mut self, id: &str) -> Option<&mut Volume<'a>> {
        match self.at(id) {
            Ok(i) => Some(&mut *self.sorted[i]),
            Err(_) => None,
        }
    }

    pub fn contains_key(&self, id: &str) -> bool {
        self.at(id).is_ok()
    }

    /// Adds or replaces the record with this id; the one replaced.
    pub fn insert(&mut self, v: Volume<'a>) -> Option<Volume<'a>> {
        match self.at(&v.id) {
            Ok(i) => Some(*std::mem::replace(&mut self.sorted[i], Box::new(v))),
            Err(i) => {
                self.sorted.insert(i, Box::new(v));
                None
            }
        }
    }

    pub fn remove(&mut self, id: &str) -> Option<Volume<'a>> {
        self.at(id).ok().map(|i| *self.sorted.remove(i))
    }

    /// How many characters of each id it takes to tell it from every other
    /// id here (one more than it shares with the closest, its neighbour in
    /// id order), for the ids that take more than `floor`. One walk: a
    /// lookup per id, a binary search through 100,000 boxes, had doubled
    /// `volume list`.
    pub fn distinct_prefix_lens_over(&self, floor: usize) -> Vec<(&str, usize)> {
        let mut ids: Vec<&str> = self.sorted.iter().map(|v| v.id.as_ref()).collect();
        // In any case, neighbours are neighbours lower-cased. plugctl writes
        // ids lower-case: only a hand-edited upper-case one costs this sort.
        let upper = ids
            .iter()
            .any(|id| id.bytes().any(|b| b.is_ascii_uppercase()));
        if upper {
            ids.sort_by_cached_key(|id| id.to_ascii_lowercase());
        }
        let mut out: Vec<(&str, usize)> = Vec::new();
        for pair in ids.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let len = shared_prefix(a, b) + 1;
            if len <= floor {
                continue;
            }
            match out.last_mut() {
                Some((last, l)) if *last == a => *l = (*l).max(len.min(a.len())),
                _ => out.push((a, len.min(a.len()))),
            }
            out.push((b, len.min(b.len())));
        }
        out
    }

    /// In id order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Volume<'a>> + ExactSizeIterator {
        self.sorted.iter().map(|b| &**b)
    }

    pub fn len(&self) -> usize {
        self.sorted.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sorted.is_empty()
    }
}

impl Serialize for Volumes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.sorted.len()))?;
        for v in &self.sorted {
            m.serialize_entry(v.id.as_ref(), &**v)?;
        }
        m.end()
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Volumes<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<Volumes<'a>>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Volumes<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of volume records by id")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
                let mut out = Volumes::default();
                let mut sorted = true;
                while let Some(key) = m.next_key::<Borrowing<'a>>()? {
                    let v: Volume<'a> = m.next_value()?;
                    if key.0 != v.id && out.mismatched_key.is_none() {
                        out.mismatched_key = Some((key.0.into_owned(), v.id.to_string()));
                    }
                    if out.sorted.last().is_some_and(|last| last.id >= v.id) {
                        sorted = false;
                    }
                    out.sorted.push(Box::new(v));
                }
                if !sorted {
                    // By hand, or by another tool: sorted here, and of one
                    // id given twice the last is kept, as a map would.
                    out.sorted.reverse();
                    out.sorted.sort_by(|a, b| a.id.cmp(&b.id));
                    out.sorted.dedup_by(|later, earlier| later.id == earlier.id);
                }
                out.sorted.shrink_to_fit();
                Ok(out)
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every string of a record read without an escape borrows from the
    /// file: the memory of a large registry depends on it (an owned copy
    /// per field doubled it once, when a type alias hid `Cow` from serde).
    #[test]
    fn a_record_borrows_its_strings() {
        let text = r#"{"v1": {"id": "v1", "name": "n", "namespace": "default",
            "plugin": "mkdir", "node_id": "node", "node_pool": "default",
            "capacity_min": 0, "capacity_max": 0, "parameters": {"mode": "0755"},
            "path": "/v/v1", "bytes": 0, "state": "ready",
            "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z",
            "error": "e", "volumes_dir": "/v"}}"#;
        let vols: Volumes = serde_json::from_str(text).unwrap();
        let v = vols.get("v1").unwrap();
        let borrowed = |t: &Text<'_>| matches!(t, Cow::Borrowed(_));
        for (field, t) in [
            ("id", &v.id),
            ("name", &v.name),
            ("namespace", &v.namespace),
            ("plugin", &v.plugin),
            ("node_id", &v.node_id),
            ("node_pool", &v.node_pool),
            ("path", &v.path),
            ("created_at", &v.created_at),
            ("updated_at", &v.updated_at),
        ] {
            assert!(borrowed(t), "{field} was copied");
        }
        assert!(v.error.as_ref().is_some_and(borrowed));
        assert!(v.volumes_dir.as_ref().is_some_and(borrowed));
        assert!(
            v.parameters
                .0
                .iter()
                .all(|(k, val)| borrowed(k) && borrowed(val))
        );
    }

    #[test]
    fn params_borrow_sort_and_keep_the_last_of_a_name() {
        let text = r#"{"b": "2", "a": "x", "b": "3", "e": "with \"escape\""}"#;
        let p: Params = serde_json::from_str(text).unwrap();
        assert_eq!(
            p.iter().collect::<Vec<_>>(),
            [("a", "x"), ("b", "3"), ("e", "with \"escape\"")]
        );
        assert!(matches!(p.0[0].1, Cow::Borrowed(_)));
        assert!(matches!(p.0[2].1, Cow::Owned(_)));
        assert_eq!(
            serde_json::to_string(&p).unwrap(),
            r#"{"a":"x","b":"3","e":"with \"escape\""}"#
        );
    }
}

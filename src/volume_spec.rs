//! A host volume's specification as `nomad volume create FILE` takes it,
//! for `volume create -f FILE`: HCL 1 (or its JSON, when the first
//! character that is not a space is `{`), read with `plugctl-hcl1` as
//! Nomad reads it with HCL 1's Go library.
//!
//! What Nomad does with the file (hashicorp/nomad `command/volume_create.go`
//! and `command/volume_create_host.go`): `type` picks the kind of volume;
//! the rest is decoded into its `api.HostVolume` (`name`, `namespace`,
//! `id`, `plugin_id`, `node_pool`, `node_id`, `capacity_min`,
//! `capacity_max`, `parameters`, `constraint` and `capability` blocks,
//! `capacity`, `host_path`), keys matched whatever their case, keys it does
//! not know ignored; a capacity is a number or a string such as `"1GiB"`
//! or `"500MB"`. The server then places the volume on a node and that
//! node's client runs the plugin.
//!
//! plugctl is that node's client: what only a server could honour is said,
//! never dropped in silence. A `node_id` or `node_pool` that is not this
//! node's is refused (a server would never place the volume here); a type
//! other than `host` is refused; `constraint`, `capability`, `capacity`,
//! `host_path` and keys Nomad does not know are warnings that name their
//! line. The rest becomes exactly what the equivalent flags give, sizes
//! read by the flags' own parser.

use std::collections::BTreeMap;

use plugctl_hcl1::{Field, Pos, StringValue};

/// The fields plugctl takes, with Nomad's names.
const FIELDS: [Field; 10] = [
    Field::string("type"),
    Field::string("id"),
    Field::string("name"),
    Field::string("namespace"),
    Field::string("plugin_id"),
    Field::string("node_pool"),
    Field::string("node_id"),
    Field::string("capacity_min"),
    Field::string("capacity_max"),
    Field::map("parameters"),
];

/// A value from the file, with the line it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    pub value: String,
    pub line: usize,
}

/// What the file asks for that a create on this node cannot do, each
/// with its line: said on stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unhonoured {
    /// A `constraint` block: a server places the volume by it.
    Constraint,
    /// A `capability` block: checked when a job claims the volume.
    Capability,
    /// `capacity`: the size Nomad records from the plugin's answer.
    Capacity,
    /// `host_path`: `nomad volume register`'s, not create's.
    HostPath,
    /// A key Nomad's own decoding does not know either.
    Unknown(String),
}

/// The specification, as read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VolumeSpec {
    pub id: Option<Located>,
    pub name: Option<Located>,
    pub namespace: Option<Located>,
    pub plugin_id: Option<Located>,
    pub node_pool: Option<Located>,
    pub node_id: Option<Located>,
    pub capacity_min: Option<Located>,
    pub capacity_max: Option<Located>,
    /// Each key with its value; a key given twice, the later.
    pub parameters: BTreeMap<String, String>,
    pub unhonoured: Vec<(Unhonoured, usize)>,
}

/// Reads a specification. The error is a sentence that starts with the
/// line (and column) it is about, never the file's text beyond a key.
pub fn parse(bytes: &[u8]) -> Result<VolumeSpec, String> {
    let file = plugctl_hcl1::parse(bytes).map_err(|e| e.to_string())?;
    let decoded = plugctl_hcl1::decode(&file.root, &FIELDS).map_err(|e| e.to_string())?;
    let text = |key: &str| -> Result<Option<Located>, String> {
        decoded.string(key).map(|v| located(key, v)).transpose()
    };
    match text("type")? {
        None => {
            return Err(
                "no type: a volume specification says type = \"host\" (as nomad volume create \
                 requires)"
                    .into(),
            );
        }
        // Nomad lower-cases the type before it dispatches on it.
        Some(t) if !t.value.eq_ignore_ascii_case("host") => {
            return Err(format!(
                "line {}: type = {}: plugctl creates host volumes only (type = \"host\"); a {} \
                 volume is created through Nomad",
                t.line,
                plugctl_core::escape::quote(&t.value),
                plugctl_core::escape::value(&t.value)
            ));
        }
        Some(_) => {}
    }
    let mut parameters = BTreeMap::new();
    if let Some(map) = decoded.map("parameters") {
        for (k, v) in map {
            let value = located(&format!("parameters.{k}"), v)?;
            parameters.insert(k.clone(), value.value);
        }
    }
    let mut unhonoured = Vec::new();
    for item in &file.root.items {
        let Some(key) = item.keys.first() else {
            continue;
        };
        let name = key
            .string_value()
            .map(|b| String::from_utf8_lossy(&b).to_lowercase())
            .unwrap_or_default();
        let what = match name.as_str() {
            "constraint" => Unhonoured::Constraint,
            "capability" => Unhonoured::Capability,
            "capacity" => Unhonoured::Capacity,
            "host_path" => Unhonoured::HostPath,
            n if FIELDS.iter().any(|f| f.name == n) => continue,
            _ => Unhonoured::Unknown(name),
        };
        unhonoured.push((what, key.pos.line));
    }
    Ok(VolumeSpec {
        id: text("id")?,
        name: text("name")?,
        namespace: text("namespace")?,
        plugin_id: text("plugin_id")?,
        node_pool: text("node_pool")?,
        node_id: text("node_id")?,
        capacity_min: text("capacity_min")?,
        capacity_max: text("capacity_max")?,
        parameters,
        unhonoured,
    })
}

fn located(key: &str, v: &StringValue) -> Result<Located, String> {
    let Pos { line, .. } = v.pos;
    String::from_utf8(v.bytes.clone())
        .map(|value| Located { value, line })
        .map_err(|_| format!("line {line}: {key} is not UTF-8"))
}

impl Unhonoured {
    /// Why a create on this node does not do it, after `line N: `.
    pub fn sentence(&self) -> String {
        match self {
            Unhonoured::Constraint => "a constraint block is not checked: a Nomad server places \
                                       the volume by it, and plugctl creates it on this node"
                .into(),
            Unhonoured::Capability => "a capability block is not checked: Nomad checks it when \
                                       a job claims the volume, and plugctl records none"
                .into(),
            Unhonoured::Capacity => "capacity is not passed: Nomad records the size the \
                                     plugin answers; capacity_min and capacity_max are what a \
                                     plugin gets"
                .into(),
            Unhonoured::HostPath => "host_path is not used: it belongs to nomad volume \
                                     register; a create's path is the plugin's answer"
                .into(),
            Unhonoured::Unknown(key) => format!(
                "{} is no key of a host volume's specification; Nomad ignores it too",
                plugctl_core::escape::quote(key)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_is_read_in_hcl_and_in_json_alike() {
        let hcl = br#"
type = "host"
name = "web-data"
namespace = "prod"
plugin_id = "quota-dir"
node_pool = "default"
capacity_min = "1GiB"
capacity_max = 2000000000
parameters {
  mode = "0750"
}
"#;
        let json = br#"{"type": "host", "name": "web-data", "namespace": "prod",
            "plugin_id": "quota-dir", "node_pool": "default", "capacity_min": "1GiB",
            "capacity_max": 2000000000, "parameters": {"mode": "0750"}}"#;
        let a = parse(hcl).unwrap();
        let b = parse(json).unwrap();
        for s in [&a, &b] {
            assert_eq!(s.name.as_ref().unwrap().value, "web-data");
            assert_eq!(s.plugin_id.as_ref().unwrap().value, "quota-dir");
            assert_eq!(s.capacity_min.as_ref().unwrap().value, "1GiB");
            assert_eq!(s.capacity_max.as_ref().unwrap().value, "2000000000");
            assert_eq!(s.parameters["mode"], "0750");
            assert!(s.unhonoured.is_empty(), "{:?}", s.unhonoured);
        }
        assert_eq!(a.name.as_ref().unwrap().line, 3);
    }

    #[test]
    fn what_a_node_cannot_honour_is_listed_with_its_line() {
        let s = parse(
            b"type = \"host\"\nName = \"x\"\nconstraint {\n  attribute = \"a\"\n}\n\
              capability {\n  access_mode = \"single-node-writer\"\n}\ncapacity = \"1G\"\n\
              host_path = \"/srv\"\nplugin = \"typo\"\n",
        )
        .unwrap();
        assert_eq!(s.name.unwrap().value, "x", "keys match whatever their case");
        assert_eq!(
            s.unhonoured,
            vec![
                (Unhonoured::Constraint, 3),
                (Unhonoured::Capability, 6),
                (Unhonoured::Capacity, 9),
                (Unhonoured::HostPath, 10),
                (Unhonoured::Unknown("plugin".into()), 11),
            ]
        );
    }

    #[test]
    fn a_type_other_than_host_or_none_is_refused() {
        assert!(parse(b"name = \"x\"").unwrap_err().starts_with("no type"));
        assert!(parse(b"type = \"HOST\"").is_ok(), "any case, as Nomad");
        let e = parse(b"\ntype = \"csi\"").unwrap_err();
        assert!(
            e.starts_with("line 2: type = \"csi\": plugctl creates host volumes only"),
            "{e}"
        );
        let e = parse(b"type = \"host\"\nparameters { a = true }").unwrap_err();
        assert!(
            e.starts_with("2:18: parameters.a: expected a string, found a bool"),
            "{e}"
        );
    }
}

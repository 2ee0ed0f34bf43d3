//! Nomad's response structs, and the five decodes a Nomad client does of a
//! plugin's stdout, each as `json.Unmarshal` into that struct does it
//! ([`json::Object::decode`]): the verdict, the values and the error text
//! are Go's. The families judge what a decoded response means (a missing
//! version crashes a client, a non-null error fails a fetch); this module
//! only says what Go made of the bytes.
//!
//! The struct, field and tag names are Nomad's (they appear in Go's
//! errors): `client/hostvolumemanager/host_volume_plugin.go` and
//! `client/commonplugins/` in `hashicorp/nomad`. `tests/oracle/` declares
//! the same structs in Go, and `tests/it/oracle.rs` holds the two against
//! each other.

use std::collections::BTreeMap;

use super::json::{self, Dialect, FieldType, JsonError, Slot, StructSpec};
use super::version::Version;

/// `hostvolumemanager.PluginFingerprint`: `Version *version.Version`.
pub const HOST_VOLUME_FINGERPRINT: StructSpec = StructSpec {
    go_type: "hostvolumemanager.PluginFingerprint",
    fields: &[("version", VERSION)],
};

/// `hostvolumemanager.HostVolumePluginCreateResponse`: `Path string`,
/// `SizeBytes int64` (`bytes`), `Error string`.
pub const CREATE_RESPONSE: StructSpec = StructSpec {
    go_type: "hostvolumemanager.HostVolumePluginCreateResponse",
    fields: &[
        ("path", FieldType::String),
        ("bytes", FieldType::Int64),
        ("error", FieldType::String),
    ],
};

/// `hostvolumemanager.HostVolumePluginDeleteResponse`: `Error string`,
/// read only when delete fails.
pub const DELETE_RESPONSE: StructSpec = StructSpec {
    go_type: "hostvolumemanager.HostVolumePluginDeleteResponse",
    fields: &[("error", FieldType::String)],
};

/// `commonplugins.PluginFingerprint`: `Version *version.Version`,
/// `Type *string`.
pub const COMMON_FINGERPRINT: StructSpec = StructSpec {
    go_type: "commonplugins.PluginFingerprint",
    fields: &[("version", VERSION), ("type", FieldType::OptString)],
};

/// `commonplugins.SecretResponse`: `Result map[string]string`,
/// `Error *string`.
pub const SECRET_RESPONSE: StructSpec = StructSpec {
    go_type: "commonplugins.SecretResponse",
    fields: &[
        ("result", FieldType::StringMap),
        ("error", FieldType::OptString),
    ],
};

const VERSION: FieldType = FieldType::Text {
    go_type: "version.Version",
};

/// What a host-volume `fingerprint` decodes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostVolumeFingerprint {
    /// `nil` when unset or reset by a later `null`.
    pub version: Option<Version>,
}

/// What a host-volume `create` decodes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateResponse {
    pub path: String,
    pub bytes: i64,
    pub error: String,
}

/// What a failed host-volume `delete` decodes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeleteResponse {
    pub error: String,
}

/// What a secrets (or any common plugin's) `fingerprint` decodes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommonFingerprint {
    pub version: Option<Version>,
    /// `type`.
    pub kind: Option<String>,
}

/// What a secrets `fetch` decodes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecretResponse {
    pub result: Option<BTreeMap<String, String>>,
    pub error: Option<String>,
}

/// `json.Unmarshal(stdout, fprint)`, `fprint` a `*PluginFingerprint`.
pub fn host_volume_fingerprint(
    stdout: &[u8],
    dialect: Dialect,
) -> Result<HostVolumeFingerprint, JsonError> {
    let slots = decode(stdout, &HOST_VOLUME_FINGERPRINT, dialect)?.1;
    Ok(HostVolumeFingerprint {
        version: version(&slots[0]),
    })
}

/// `json.Unmarshal(stdout, &pluginResp)` of a create.
pub fn create(stdout: &[u8], dialect: Dialect) -> Result<CreateResponse, JsonError> {
    let slots = decode(stdout, &CREATE_RESPONSE, dialect)?.1;
    Ok(CreateResponse {
        path: string(&slots[0]),
        bytes: match slots[1] {
            Slot::Int64(n) => n,
            _ => 0,
        },
        error: string(&slots[2]),
    })
}

/// `json.Unmarshal(stdout, &pluginResp)` of a failed delete.
pub fn delete(stdout: &[u8], dialect: Dialect) -> Result<DeleteResponse, JsonError> {
    let slots = decode(stdout, &DELETE_RESPONSE, dialect)?.1;
    Ok(DeleteResponse {
        error: string(&slots[0]),
    })
}

/// `json.Unmarshal(stdout, &res)`, `res` a `*PluginFingerprint`: a bare
/// `null` sets `res` to nil (`None`).
pub fn common_fingerprint(
    stdout: &[u8],
    dialect: Dialect,
) -> Result<Option<CommonFingerprint>, JsonError> {
    let (null, slots) = decode(stdout, &COMMON_FINGERPRINT, dialect)?;
    Ok((!null).then(|| CommonFingerprint {
        version: version(&slots[0]),
        kind: opt(&slots[1]),
    }))
}

/// `json.Unmarshal(stdout, &res)`, `res` a `*SecretResponse`: a bare `null`
/// sets `res` to nil (`None`).
pub fn fetch(stdout: &[u8], dialect: Dialect) -> Result<Option<SecretResponse>, JsonError> {
    let (null, mut slots) = decode(stdout, &SECRET_RESPONSE, dialect)?;
    let result = match std::mem::replace(&mut slots[0], Slot::Opt(None)) {
        Slot::StringMap(m) => m,
        _ => None,
    };
    Ok((!null).then(|| SecretResponse {
        result,
        error: opt(&slots[1]),
    }))
}

/// The syntax check, the top-level kind and the fields, in Go's order;
/// whether the document was a bare `null`.
fn decode(
    stdout: &[u8],
    spec: &StructSpec,
    dialect: Dialect,
) -> Result<(bool, Vec<Slot>), JsonError> {
    let obj = json::parse_in(stdout, spec.go_type, dialect)?;
    let slots = obj.decode(spec, dialect, &mut |_, text| {
        Version::parse(text)
            .map(drop)
            .map_err(|e| e.go_text(dialect.version))
    })?;
    Ok((obj.is_null(), slots))
}

fn string(slot: &Slot) -> String {
    match slot {
        Slot::String(s) => s.clone(),
        _ => String::new(),
    }
}

fn opt(slot: &Slot) -> Option<String> {
    match slot {
        Slot::Opt(s) => s.clone(),
        _ => None,
    }
}

/// A version field's text, accepted by the decode, parsed again.
fn version(slot: &Slot) -> Option<Version> {
    opt(slot).and_then(|text| Version::parse(&text).ok())
}

//! The registry is untrusted input when it is loaded: a file edited behind
//! plugctl's back must not turn into a plugin argument. Every id, name,
//! namespace, path and number is held to the rules it was written with; a
//! record that fails is named by its position and field, and the whole file
//! is refused (exit 2, never overwritten): a registry that is partly wrong
//! is one an operator must look at, not one plugctl should half-use.

use std::path::{Component, Path};

use super::model::{State, Volume};
use crate::discovery::check_name;
use crate::error::Hint;
use crate::families::host_volume::{is_namespace, is_volume_id};

/// Every record of `state` held to its rules: the first that fails, named
/// by its position and field.
pub fn check(state: &State<'_>) -> Result<(), String> {
    for (family, plugins) in &state.plugins {
        check_name(family).map_err(|e| {
            format!(
                "plugins[{family_q}]: bad plugin type: {e}",
                family_q = crate::escape::quote(family)
            )
        })?;
        for (name, instances) in plugins {
            let at = format!(
                "plugins[{family_q}][{name_q}]",
                family_q = crate::escape::quote(family),
                name_q = crate::escape::quote(name)
            );
            check_name(name).map_err(|e| format!("{at}: bad plugin name: {e}"))?;
            for (i, inst) in instances.iter().enumerate() {
                // Each bound is the one that field is held to when it
                // arrives (`plugin register`, a fingerprint): whatever
                // plugctl records, it loads again.
                for (field, value, max) in [
                    (
                        "alloc_id",
                        inst.alloc_id.as_deref(),
                        super::dynamic::ALLOC_ID_MAX,
                    ),
                    (
                        "version",
                        inst.version.as_deref(),
                        crate::families::VERSION_MAX,
                    ),
                ] {
                    if value.is_some_and(|v| v.chars().any(char::is_control)) {
                        return Err(format!("{at}[{i}].{field}: contains a control character"));
                    }
                    if value.is_some_and(|v| v.len() > max) {
                        return Err(format!("{at}[{i}].{field}: longer than {max} bytes"));
                    }
                }
            }
        }
    }
    if let Some((key, id)) = &state.volumes.mismatched_key {
        return Err(format!(
            "volumes[{key_q}].id: {id_q} differs from its key",
            id_q = crate::escape::quote(id),
            key_q = crate::escape::quote(key)
        ));
    }
    let mut upper = false;
    for v in state.volumes.values() {
        volume(v)?;
        upper |= v.id.bytes().any(|b| b.is_ascii_uppercase());
    }
    // Ids are compared lower-cased (Nomad's helper.IsUUID): two records
    // whose ids differ only in case are one volume recorded twice, which
    // no lookup could tell apart. plugctl writes ids lower-case, so only a
    // hand-edited file (or journal) pays for this check.
    if upper {
        let mut seen = std::collections::HashSet::new();
        for v in state.volumes.values() {
            if !seen.insert(v.id.to_ascii_lowercase()) {
                return Err(format!(
                    "volumes[{}]: a second record of volume {} (ids differ only in case)",
                    crate::escape::quote(&v.id),
                    v.id.to_ascii_lowercase()
                ));
            }
        }
    }
    if state.schema_version >= 2 && !state.events.is_empty() {
        return Err(
            "events: a registry of schema 2 keeps its events in its journal, not in the file"
                .into(),
        );
    }
    let mut last = 0;
    for (i, e) in state.events.iter().enumerate() {
        if e.seq <= last && i > 0 {
            return Err(format!(
                "events[{i}].seq: {} does not follow {last} (sequence numbers only grow)",
                e.seq
            ));
        }
        if e.seq > state.seq {
            return Err(format!(
                "events[{i}].seq: {} is past the registry's counter seq {}",
                e.seq, state.seq
            ));
        }
        last = e.seq;
    }
    Ok(())
}

/// One volume record held to the rules (a record of the file, or one an
/// intent of the journal brings).
pub fn volume(v: &Volume<'_>) -> Result<(), String> {
    // Named only in a refusal: made when one is.
    let at = Lazy(&v.id);
    // Upper case is Nomad's too (helper.IsUUID); lower-cased only when
    // it is there.
    let lowered;
    let id: &str = if v.id.bytes().any(|b| b.is_ascii_uppercase()) {
        lowered = v.id.to_ascii_lowercase();
        &lowered
    } else {
        &v.id
    };
    if !is_volume_id(id) {
        return Err(format!(
            "{at}.id: {} is not a UUID",
            crate::escape::quote(&v.id)
        ));
    }
    check_name(&v.plugin).map_err(|e| format!("{at}.plugin: {e}"))?;
    if !is_namespace(&v.namespace) {
        return Err(format!(
            "{at}.namespace: {} is not a namespace name",
            crate::escape::quote(&v.namespace)
        ));
    }
    if let Some(dir) = v.volumes_dir() {
        normal_absolute(dir).map_err(|e| format!("{at}.volumes_dir: {e}"))?;
    }
    // A path is what the plugin returned; create records even one
    // outside the volumes directory (with a warning), so it is held to
    // the directory only when it is about to reach a plugin (`confined`).
    if v.path.contains('\0') {
        return Err(format!("{at}.path: contains a NUL byte"));
    }
    // A size is what the plugin returned, too: Go's int64 takes a negative
    // one, create records it with a warning, so a load must take it back.
    // What `volume create` checks before it ever records a request.
    if v.name.is_empty() {
        return Err(format!("{at}.name: empty"));
    }
    for (field, value) in [
        ("name", &v.name),
        ("node_id", &v.node_id),
        ("node_pool", &v.node_pool),
    ] {
        if value.contains('\0') {
            return Err(format!("{at}.{field}: contains a NUL byte"));
        }
    }
    if v.node_id.is_empty() || v.node_pool.is_empty() {
        return Err(format!("{at}: empty node_id or node_pool"));
    }
    if i64::try_from(v.capacity_min).is_err() || i64::try_from(v.capacity_max).is_err() {
        return Err(format!(
            "{at}: a capacity beyond Nomad's limit of {} bytes",
            i64::MAX
        ));
    }
    if v.parameters
        .iter()
        .any(|(k, val)| k.contains('\0') || val.contains('\0'))
    {
        return Err(format!("{at}.parameters: contains a NUL byte"));
    }
    Ok(())
}

/// `volumes["<id>"]`, formatted only when a message needs it.
struct Lazy<'r>(&'r str);

impl std::fmt::Display for Lazy<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "volumes[{}]", crate::escape::quote_os(self.0))
    }
}

/// An absolute path with no `.` or `..` component and no NUL.
fn normal_absolute(p: &Path) -> Result<(), String> {
    if !p.is_absolute() {
        return Err(format!(
            "{p_q} is not an absolute path",
            p_q = crate::escape::quote_os(p)
        ));
    }
    if p.as_os_str().as_encoded_bytes().contains(&0) {
        return Err(format!(
            "{p_q} contains a NUL byte",
            p_q = crate::escape::quote_os(p)
        ));
    }
    if p.components()
        .any(|c| matches!(c, Component::ParentDir | Component::CurDir))
    {
        return Err(format!(
            "{p_q} contains '.' or '..'",
            p_q = crate::escape::quote_os(p)
        ));
    }
    Ok(())
}

/// Why a volume may not be handed to its plugin under a volumes directory
/// (its `Display`), and what would change that, for the front end to word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unconfined {
    pub why: String,
    pub hint: Hint,
}

impl std::fmt::Display for Unconfined {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.why)
    }
}

/// Whether a volume may be handed to its plugin under this volumes
/// directory: it was created under it, and its path lies inside it.
pub fn confined(v: &super::Volume<'_>, volumes_dir: &Path) -> Result<(), Unconfined> {
    if let Some(dir) = v.volumes_dir()
        && dir != volumes_dir
    {
        return Err(Unconfined {
            why: format!(
                "it was created under {}, and plugctl now uses {}",
                dir.display(),
                volumes_dir.display(),
            ),
            hint: Hint::VolumesDir(dir.to_path_buf()),
        });
    }
    if !v.path.is_empty() {
        let path = Path::new(v.path.as_ref());
        let inside = path.is_absolute()
            && path.starts_with(volumes_dir)
            && path != volumes_dir
            && !path
                .components()
                .any(|c| matches!(c, Component::ParentDir | Component::CurDir));
        if !inside {
            return Err(Unconfined {
                why: format!(
                    "its recorded path {} is not inside the volumes directory {}; plugctl will \
                     not hand it to a plugin",
                    path.display(),
                    volumes_dir.display()
                ),
                hint: Hint::ForgetVolume {
                    id: v.id.to_string(),
                },
            });
        }
    }
    Ok(())
}

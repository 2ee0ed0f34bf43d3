//! The node's identity, as a Nomad client gives it to host-volume plugins
//! (`DHV_NODE_ID`): the id the agent persisted in `<state_dir>/client-id`
//! the first time it started (`client/client.go`, `ensureNodeID`: the
//! file's content, lower-cased, is the id the node registers with and the
//! id the servers put in every volume request for the node). A node whose
//! agent never started has no such file yet; plugctl then keeps an id of
//! its own in its registry, the same on every call.

use std::path::{Path, PathBuf};

use crate::trust::{Policy, Refusal};
use crate::{Error, Result};

/// The file in the agent's state directory that holds the node id.
pub const CLIENT_ID: &str = "client-id";

/// The largest `client-id` plugctl reads: Nomad writes a UUID.
pub const CLIENT_ID_MAX: u64 = 4096;

/// What the agent's state directory says about the node's id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentNodeId {
    /// The agent's id, as it registers with it.
    Found { id: String, file: PathBuf },
    /// No id yet (no file, or an empty one, which the agent replaces with
    /// a new id when it starts): where it will be.
    Missing { file: PathBuf },
}

/// Reads `<state_dir>/client-id` through the trust gate, as the agent
/// reads it: its content, lower-cased (Go's `strings.ToLower`), not
/// trimmed. A file another user could have written, a FIFO, a device or a
/// link that leaves trusted ground is refused, never read or waited on; an
/// id that could not be passed to a plugin intact (not UTF-8, a control
/// character, a line break) is refused, never quoted.
pub fn read_agent_node_id(policy: Policy, state_dir: &Path) -> Result<AgentNodeId> {
    let path = state_dir.join(CLIENT_ID);
    let read = crate::trust::dir::resolve_file(policy, &path)
        .and_then(|(dir, name, _)| dir.read(&name, CLIENT_ID_MAX));
    let bytes = match read {
        Ok(bytes) => bytes,
        Err(Refusal::NotFound(_)) => return Ok(AgentNodeId::Missing { file: path }),
        Err(r) => {
            return Err(Error::refused(
                format!("cannot read the Nomad agent's node id {}", path.display()),
                &r,
            ));
        }
    };
    if bytes.is_empty() {
        return Ok(AgentNodeId::Missing { file: path });
    }
    let bad = |why: &str| {
        Error::usage(format!(
            "the Nomad agent's node id {} {why}: plugctl passes a plugin the id the agent \
             registers with, and cannot pass this one intact; fix or remove the file (the agent \
             writes a new id when it starts without one)",
            path.display()
        ))
        .hint(crate::error::Hint::NodeId)
    };
    let text = String::from_utf8(bytes).map_err(|_| bad("is not UTF-8 text"))?;
    if text.chars().any(char::is_control) {
        return Err(bad(
            "holds a control character (a line break, perhaps written by `echo`)",
        ));
    }
    Ok(AgentNodeId::Found {
        id: text.to_lowercase(),
        file: path,
    })
}

/// The files that name this machine for good, best first: systemd's
/// machine id, then the kernel's id of this boot (which holds until the
/// registry keeps what it gave).
const MACHINE_IDS: [&str; 2] = ["/etc/machine-id", "/proc/sys/kernel/random/boot_id"];

/// The node id plugctl makes for itself when its registry has none: derived
/// from the machine's id (a keyed SHA-256, so the machine id itself is not
/// revealed), so that a dry run shows the id the call would get, and a
/// registry made anew on the same machine gets the same id. A random one
/// when the machine names itself nowhere.
pub fn first_own_node_id() -> String {
    use sha2::{Digest, Sha256};
    let machine = MACHINE_IDS.iter().find_map(|p| {
        let (dir, name, _) =
            crate::trust::dir::resolve_file(Policy::strict(), Path::new(p)).ok()?;
        let bytes = dir.read(&name, 256).ok()?;
        let id = String::from_utf8(bytes).ok()?.trim().to_string();
        (!id.is_empty()).then_some(id)
    });
    let Some(machine) = machine else {
        return uuid::Uuid::new_v4().to_string();
    };
    let digest = Sha256::new()
        .chain_update(b"plugctl node id\0")
        .chain_update(machine.as_bytes())
        .finalize();
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    // A version-8 (custom) UUID: made from data, not random.
    uuid::Builder::from_custom_bytes(bytes)
        .into_uuid()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn dir() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
        d
    }

    #[test]
    fn the_agents_id_is_read_as_the_agent_reads_it() {
        let d = dir();
        let got = read_agent_node_id(Policy::strict(), d.path()).unwrap();
        assert!(matches!(got, AgentNodeId::Missing { .. }), "{got:?}");
        let file = d.path().join(CLIENT_ID);
        std::fs::write(&file, "").unwrap();
        assert!(matches!(
            read_agent_node_id(Policy::strict(), d.path()).unwrap(),
            AgentNodeId::Missing { .. }
        ));
        std::fs::write(&file, "0B9C5A7E-1D2F-4A6B-8C3D-4E5F60718293").unwrap();
        let AgentNodeId::Found { id, .. } = read_agent_node_id(Policy::strict(), d.path()).unwrap()
        else {
            panic!("no id")
        };
        assert_eq!(id, "0b9c5a7e-1d2f-4a6b-8c3d-4e5f60718293");
        std::fs::write(&file, "0b9c5a7e-1d2f-4a6b-8c3d-4e5f60718293\n").unwrap();
        let e = read_agent_node_id(Policy::strict(), d.path())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("control character") && !e.contains("0b9c"),
            "{e}"
        );
    }

    #[test]
    fn the_own_id_is_the_same_every_time_and_a_uuid() {
        let a = first_own_node_id();
        let b = first_own_node_id();
        assert_eq!(uuid::Uuid::parse_str(&a).unwrap().to_string(), a);
        if Path::new(MACHINE_IDS[0]).exists() || Path::new(MACHINE_IDS[1]).exists() {
            assert_eq!(a, b);
        }
    }
}

//! Which node id a plugin gets (`DHV_NODE_ID`), as a Nomad client gives
//! it: `--node-id` (or `PLUGCTL_NODE_ID`) when given, else the agent's own
//! id from `<state_dir>/client-id` (`client.state_dir`, else
//! `<data_dir>/client`), read through the trust gate, else, on a node whose
//! agent has not started yet, plugctl's own id kept in its registry. `-v`
//! says which.

use std::path::PathBuf;

use plugctl_core::node::{self, AgentNodeId};

use crate::Result;
use crate::settings::{Origin, Settings};

/// Where the node id of a call comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeIdentity {
    /// Named for this run.
    Given { id: String, origin: Origin },
    /// The agent's.
    Agent { id: String, file: PathBuf },
    /// plugctl's own, kept in the registry: the agent has none yet at
    /// `missing` (None: no agent data directory is known).
    Own { missing: Option<PathBuf> },
}

impl NodeIdentity {
    /// Resolves it for a command that passes the id to a plugin: only then
    /// is the agent's file read (a broken one stops only those commands).
    pub fn resolve(settings: &Settings) -> Result<NodeIdentity> {
        if let Some(id) = &settings.node_id {
            return Ok(NodeIdentity::Given {
                id: id.clone(),
                origin: settings
                    .layout
                    .node_id
                    .clone()
                    .unwrap_or(Origin::Flag("--node-id")),
            });
        }
        let Some((state_dir, _)) = &settings.layout.state_dir else {
            return Ok(NodeIdentity::Own { missing: None });
        };
        Ok(
            match node::read_agent_node_id(settings.policy(), state_dir)? {
                AgentNodeId::Found { id, file } => NodeIdentity::Agent { id, file },
                AgentNodeId::Missing { file } => NodeIdentity::Own {
                    missing: Some(file),
                },
            },
        )
    }

    /// The id, unless it is plugctl's own (which the registry gives).
    pub fn fixed(&self) -> Option<&str> {
        match self {
            NodeIdentity::Given { id, .. } | NodeIdentity::Agent { id, .. } => Some(id),
            NodeIdentity::Own { .. } => None,
        }
    }

    /// What `-v` says, once the id is known.
    pub fn describe(&self, id: &str) -> String {
        match self {
            NodeIdentity::Given { origin, .. } => format!("node id: {id} ({origin})"),
            NodeIdentity::Agent { file, .. } => {
                format!("node id: {id} (the Nomad agent's, from {})", file.display())
            }
            NodeIdentity::Own {
                missing: Some(file),
            } => format!(
                "node id: {id} (plugctl's own, kept in the registry: the Nomad agent has no id \
                 on this node yet, {} does not exist; the agent's is used once it does)",
                file.display()
            ),
            NodeIdentity::Own { missing: None } => format!(
                "node id: {id} (plugctl's own, kept in the registry: no Nomad agent data \
                 directory is known)"
            ),
        }
    }
}

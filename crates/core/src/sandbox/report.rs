//! What the sandbox applies, said once per run (`-v`) and kept with each
//! recorded call: the level, each layer applied or why not, and how each
//! cap is enforced.

use std::fmt;
use std::path::PathBuf;

use serde::Serialize;

use super::{Cap, Level};

/// One layer of the sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layer {
    /// `PR_SET_NO_NEW_PRIVS`: no setuid bit or file capability takes
    /// effect at exec.
    NoNewPrivs,
    /// `RLIMIT_CORE` 0: no core file, where secrets could land.
    NoCoreDumps,
    /// `oom_score_adj` 0: neither the agent's exemption nor plugctl's.
    OomScoreAdj,
    /// Landlock: what the plugin may read, write and execute.
    Landlock,
    /// A seccomp filter refusing the guarded system calls.
    Seccomp,
    /// A network namespace with nothing in it.
    Network,
    /// A mount namespace with a `/tmp` of its own.
    PrivateTmp,
    /// The capability sets bounded to what the policy names.
    Capabilities,
}

impl Layer {
    pub const TRIM: [Layer; 3] = [Layer::NoNewPrivs, Layer::NoCoreDumps, Layer::OomScoreAdj];
    pub const STRICT: [Layer; 5] = [
        Layer::Landlock,
        Layer::Seccomp,
        Layer::Network,
        Layer::PrivateTmp,
        Layer::Capabilities,
    ];

    /// The layers a level applies.
    pub fn of(level: Level) -> Vec<Layer> {
        match level {
            Level::None => Vec::new(),
            Level::Trim => Layer::TRIM.to_vec(),
            Level::Strict => Layer::TRIM.iter().chain(&Layer::STRICT).copied().collect(),
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Layer::NoNewPrivs => "no-new-privileges",
            Layer::NoCoreDumps => "no core dumps",
            Layer::OomScoreAdj => "oom_score_adj 0",
            Layer::Landlock => "Landlock",
            Layer::Seccomp => "seccomp",
            Layer::Network => "no network",
            Layer::PrivateTmp => "private /tmp",
            Layer::Capabilities => "capabilities bounded",
        }
    }
}

impl fmt::Display for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a cap binds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "by")]
pub enum Enforcement {
    /// A cgroup's limit: the call and every process it starts together.
    /// `file` names the limit (`<call>` stands for each call's cgroup).
    Cgroup { file: PathBuf },
    /// A resource limit of each process (`RLIMIT_AS`, `RLIMIT_CPU`,
    /// `RLIMIT_NOFILE`): every process of the call gets the whole cap.
    Rlimit { name: &'static str },
}

impl fmt::Display for Enforcement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Enforcement::Cgroup { file } => write!(
                f,
                "by the call's own cgroup ({}), for the call and everything it starts",
                file.display()
            ),
            Enforcement::Rlimit { name } => write!(f, "by {name}, for each process apart"),
        }
    }
}

/// What one run's sandbox applies at its level (a plugin's policy may
/// raise its own level, or relax a layer by name: `validate` shows that).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    pub level: Level,
    /// The layers applied at this level.
    pub applied: Vec<Layer>,
    /// Layers the level has that this kernel lacks, and why; only with
    /// best effort (without it, the sandbox is refused).
    pub missing: Vec<(Layer, String)>,
    /// Landlock's ABI, when applied.
    pub landlock_abi: Option<i32>,
    /// Each cap set, its value in words, and how it binds.
    pub caps: Vec<(Cap, String, Enforcement)>,
    /// `oom_score_adj` stays above 0 where plugctl runs with one and may
    /// not lower it (no `CAP_SYS_RESOURCE`): said, not hidden.
    pub notes: Vec<String>,
}

impl Report {
    /// The lines `-v` prints, in plain words.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.level == Level::None {
            out.push(
                "sandbox: none (as a Nomad client runs plugins: nothing beyond the deadline)"
                    .to_string(),
            );
        } else {
            let applied: Vec<String> = self
                .applied
                .iter()
                .map(|l| match (l, self.landlock_abi) {
                    (Layer::Landlock, Some(abi)) => format!("Landlock (ABI {abi})"),
                    (l, _) => l.to_string(),
                })
                .collect();
            out.push(format!(
                "sandbox: {}: applied {}",
                self.level,
                if applied.is_empty() {
                    "nothing".to_string()
                } else {
                    applied.join(", ")
                }
            ));
        }
        for (layer, why) in &self.missing {
            out.push(format!("sandbox: {layer} NOT applied: {why}"));
        }
        for (cap, value, how) in &self.caps {
            out.push(format!(
                "sandbox: {} cap {value}, enforced {how}",
                cap.noun()
            ));
        }
        for n in &self.notes {
            out.push(format!("sandbox: {n}"));
        }
        out
    }
}

//! What one plugin call cost: its wall time, the CPU time and peak memory
//! of the plugin and its descendants, and how many processes it is known
//! to have run. The runner measures it for every call ([`Usage`] in each
//! [`crate::runner::Outcome`]); the registry keeps a running tally of it
//! by plugin, operation and result (`registry::ledger`), from which the
//! metrics' histograms are made.
//!
//! Every figure comes from the kernel, never from the plugin: what a
//! plugin prints cannot change what it is said to have cost. Where the
//! figures came from is [`Source`]; what each one means for each source is
//! said on its field.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Where a call's figures came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The kernel's resource usage (`wait4`) of the plugin, which holds
    /// that of every descendant the plugin itself waited for, added to
    /// that of each descendant plugctl reaped for the call (one that
    /// escaped with `setsid()` or outlived the plugin, adopted by plugctl
    /// as their subreaper).
    Rusage,
    /// The call's own cgroup: every process of the call, waited for or
    /// not, counted by the kernel as it ran.
    Cgroup,
    /// Only the wall clock: the plugin's exit could not be waited for with
    /// its usage (a kernel without pidfd, or a plugin stuck past SIGKILL).
    Clock,
}

impl Source {
    pub const fn name(self) -> &'static str {
        match self {
            Source::Rusage => "rusage",
            Source::Cgroup => "cgroup",
            Source::Clock => "clock",
        }
    }
}

/// A limit a call can be held to (`--memory-max`, `--cpu-max`,
/// `--files-max`, `--tasks-max`): the sandbox's own; a call seen over one
/// says which in [`Usage::over_cap`], and the metrics count such calls by
/// cap.
pub use crate::sandbox::Cap;

/// CPU time, as the kernel splits it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CpuTime {
    pub user: Duration,
    pub system: Duration,
}

impl CpuTime {
    pub fn total(self) -> Duration {
        self.user + self.system
    }
}

impl std::ops::Add for CpuTime {
    type Output = CpuTime;
    fn add(self, other: CpuTime) -> CpuTime {
        CpuTime {
            user: self.user + other.user,
            system: self.system + other.system,
        }
    }
}

/// What one call cost (see the module).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    /// From spawn to the end of the call (its output drained, what it left
    /// behind killed), less any time job control kept it stopped.
    pub wall: Duration,
    /// User and system CPU time of the plugin and its descendants (for
    /// [`Source::Rusage`], those whose end the kernel accounted to the
    /// plugin or to plugctl: see [`Source`]). `None` for [`Source::Clock`].
    pub cpu: Option<CpuTime>,
    /// Peak resident memory in KiB. For [`Source::Rusage`] it is the
    /// largest of any one process of the call (the kernel keeps, for each
    /// process, the maximum over itself and the descendants it waited
    /// for, never their sum); for [`Source::Cgroup`], the call's peak as a
    /// whole. `None` for [`Source::Clock`].
    pub max_rss_kib: Option<u64>,
    /// Processes the call is known to have run, the plugin included: a
    /// lower bound. The kernel counts no forks per process, so with
    /// [`Source::Rusage`] these are the plugin and each descendant
    /// plugctl itself reaped or killed for the call; a child the plugin
    /// waited for adds its CPU time and memory but not to this count.
    /// With [`Source::Cgroup`], the most the cgroup held at once, or that
    /// count when it is larger.
    pub processes: u64,
    pub source: Source,
    /// The call failed by reaching this cap (set by whatever enforced it).
    pub over_cap: Option<Cap>,
}

impl Usage {
    /// A call of which only the wall time is known.
    pub fn clock(wall: Duration) -> Usage {
        Usage {
            wall,
            cpu: None,
            max_rss_kib: None,
            processes: 1,
            source: Source::Clock,
            over_cap: None,
        }
    }

    /// What a call's own cgroup says it cost: its CPU time (`cpu.stat`),
    /// its peak memory in bytes (`memory.peak`) and the most tasks it held
    /// at once (`pids.peak`), with `seen` the processes plugctl itself
    /// knows of (see [`Usage::processes`]).
    pub fn from_cgroup(
        wall: Duration,
        cpu: CpuTime,
        memory_peak_bytes: u64,
        pids_peak: u64,
        seen: u64,
    ) -> Usage {
        Usage {
            wall,
            cpu: Some(cpu),
            max_rss_kib: Some(memory_peak_bytes.div_ceil(1024)),
            processes: pids_peak.max(seen).max(1),
            source: Source::Cgroup,
            over_cap: None,
        }
    }

    /// User plus system CPU time, when known.
    pub fn cpu_total(&self) -> Option<Duration> {
        self.cpu.map(CpuTime::total)
    }

    /// "12ms wall, 3ms CPU, 2.1 MiB peak, 1 process" for a person.
    pub fn describe(&self) -> String {
        let mut parts = vec![format!("{} wall", ms_text(self.wall))];
        if let Some(cpu) = self.cpu_total() {
            parts.push(format!("{} CPU", ms_text(cpu)));
        }
        if let Some(kib) = self.max_rss_kib {
            parts.push(format!(
                "{} peak",
                crate::runner::human_bytes(kib.saturating_mul(1024))
            ));
        }
        parts.push(format!(
            "{} process{}",
            self.processes,
            if self.processes == 1 { "" } else { "es" }
        ));
        parts.join(", ")
    }
}

fn ms_text(d: Duration) -> String {
    format!("{}ms", millis(d))
}

/// Whole milliseconds, as every `_ms` field is written.
pub fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The JSON form: `{"wall_ms", "cpu_ms", "user_ms", "system_ms",
/// "max_rss_kib", "processes", "source"}` (and `"over_cap"` when a cap was
/// reached); figures not known are `null`.
#[derive(Serialize, Deserialize)]
struct Wire {
    wall_ms: u64,
    cpu_ms: Option<u64>,
    #[serde(default)]
    user_ms: Option<u64>,
    #[serde(default)]
    system_ms: Option<u64>,
    max_rss_kib: Option<u64>,
    processes: u64,
    source: Source,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    over_cap: Option<Cap>,
}

impl Serialize for Usage {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Wire {
            wall_ms: millis(self.wall),
            cpu_ms: self.cpu_total().map(millis),
            user_ms: self.cpu.map(|c| millis(c.user)),
            system_ms: self.cpu.map(|c| millis(c.system)),
            max_rss_kib: self.max_rss_kib,
            processes: self.processes,
            source: self.source,
            over_cap: self.over_cap,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Usage {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Usage, D::Error> {
        let w = Wire::deserialize(d)?;
        let ms = Duration::from_millis;
        let cpu = match (w.user_ms, w.system_ms, w.cpu_ms) {
            (Some(u), Some(s), _) => Some(CpuTime {
                user: ms(u),
                system: ms(s),
            }),
            (_, _, Some(total)) => Some(CpuTime {
                user: ms(total),
                system: Duration::ZERO,
            }),
            _ => None,
        };
        Ok(Usage {
            wall: ms(w.wall_ms),
            cpu,
            max_rss_kib: w.max_rss_kib,
            processes: w.processes,
            source: w.source,
            over_cap: w.over_cap,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Usage {
        Usage {
            wall: Duration::from_micros(12_700),
            cpu: Some(CpuTime {
                user: Duration::from_micros(2_400),
                system: Duration::from_micros(1_900),
            }),
            max_rss_kib: Some(2150),
            processes: 3,
            source: Source::Rusage,
            over_cap: None,
        }
    }

    #[test]
    fn json_has_the_documented_fields_in_milliseconds() {
        let v = serde_json::to_value(sample()).unwrap();
        assert_eq!(
            v,
            serde_json::json!({
                "wall_ms": 12, "cpu_ms": 4, "user_ms": 2, "system_ms": 1,
                "max_rss_kib": 2150, "processes": 3, "source": "rusage"
            })
        );
        let back: Usage = serde_json::from_value(v).unwrap();
        assert_eq!(back.processes, 3);
        assert_eq!(back.wall, Duration::from_millis(12));
        assert_eq!(back.cpu_total(), Some(Duration::from_millis(3)));
    }

    #[test]
    fn unknown_figures_are_null_and_a_cap_is_named() {
        let mut u = Usage::clock(Duration::from_millis(5));
        u.over_cap = Some(Cap::Memory);
        let v = serde_json::to_value(u).unwrap();
        assert_eq!(v["cpu_ms"], serde_json::Value::Null);
        assert_eq!(v["max_rss_kib"], serde_json::Value::Null);
        assert_eq!(v["source"], "clock");
        assert_eq!(v["over_cap"], "memory");
        assert_eq!(v["processes"], 1);
    }

    #[test]
    fn a_cgroup_peak_is_rounded_up_to_a_kib_and_counts_at_least_what_was_seen() {
        let u = Usage::from_cgroup(Duration::ZERO, CpuTime::default(), 1025, 2, 5);
        assert_eq!(u.max_rss_kib, Some(2));
        assert_eq!(u.processes, 5);
        assert_eq!(u.source, Source::Cgroup);
    }

    #[test]
    fn described_for_a_person() {
        assert_eq!(
            sample().describe(),
            "12ms wall, 4ms CPU, 2.1 MiB peak, 3 processes"
        );
        assert_eq!(
            Usage::clock(Duration::from_millis(7)).describe(),
            "7ms wall, 1 process"
        );
    }
}

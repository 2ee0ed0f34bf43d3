//! A call's own cgroup, where the memory and tasks caps really bind: the
//! call and every process it starts, whatever they do, in one count.
//!
//! plugctl uses a cgroup only where it may: cgroup v2 delegated to it
//! (systemd's `Delegate=`, which marks the cgroup with a `delegate`
//! extended attribute; or the root of a hierarchy no systemd manages), or
//! the cgroup v1 memory and pids controllers, below its own cgroup there.
//! On v2 it first moves itself into a leaf of its own (`plugctl`), since a
//! cgroup that hands out controllers may hold no process, then makes one
//! cgroup per call beside it. The child joins before exec by writing `0`
//! to the call's `cgroup.procs`, opened beforehand.

use std::fs;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};

use super::Cap;
use super::report::Enforcement;

/// Where calls' cgroups are made.
#[derive(Debug, Clone)]
pub(super) enum Parent {
    /// cgroup v2: calls are made in `dir` (plugctl's own, delegated).
    V2 { dir: PathBuf },
    /// cgroup v1: the memory and the pids controllers' directories for
    /// plugctl, where present.
    V1 {
        memory: Option<PathBuf>,
        pids: Option<PathBuf>,
    },
}

impl Parent {
    /// Finds where calls' cgroups may be made, or says why there is no
    /// such place.
    pub fn discover() -> Result<Parent, String> {
        let me = procfs::process::Process::myself().map_err(|e| e.to_string())?;
        let groups = me.cgroups().map_err(|e| e.to_string())?;
        let mounts = me.mountinfo().map_err(|e| e.to_string())?;
        let mut v2_why = String::new();
        // v2 first: a delegated cgroup is what a systemd unit gives.
        if let Some(g) = groups.0.iter().find(|g| g.hierarchy == 0)
            && let Some(m) = mounts.0.iter().find(|m| m.fs_type == "cgroup2")
        {
            let dir = m.mount_point.join(g.pathname.trim_start_matches('/'));
            match usable_v2(&dir, &g.pathname) {
                Ok(()) => return Ok(Parent::V2 { dir }),
                Err(why) => v2_why = why,
            }
        }
        let v1 = |controller: &str| -> Option<PathBuf> {
            let g = groups
                .0
                .iter()
                .find(|g| g.controllers.iter().any(|c| c == controller))?;
            let m = mounts
                .0
                .iter()
                .find(|m| m.fs_type == "cgroup" && m.super_options.contains_key(controller))?;
            let dir = m.mount_point.join(g.pathname.trim_start_matches('/'));
            dir.join("cgroup.procs").exists().then_some(dir)
        };
        let (memory, pids) = (v1("memory"), v1("pids"));
        if memory.is_some() || pids.is_some() {
            return Ok(Parent::V1 { memory, pids });
        }
        Err(if v2_why.is_empty() {
            "this node gives plugctl no cgroup: no cgroup v2 delegated to it, no cgroup v1 \
             memory or pids controller"
                .into()
        } else {
            format!("{v2_why}, and there is no cgroup v1 memory or pids controller")
        })
    }

    /// How a memory cap binds here, if a cgroup does it.
    pub fn memory(&self) -> Option<Enforcement> {
        match self {
            Parent::V2 { dir } if has_controller(dir, "memory") => Some(Enforcement::Cgroup {
                file: dir.join("<call>/memory.max"),
            }),
            Parent::V1 {
                memory: Some(dir), ..
            } => Some(Enforcement::Cgroup {
                file: dir.join("<call>/memory.limit_in_bytes"),
            }),
            _ => None,
        }
    }

    /// How a tasks cap binds here, if a cgroup does it.
    pub fn pids(&self) -> Option<Enforcement> {
        match self {
            Parent::V2 { dir } if has_controller(dir, "pids") => Some(Enforcement::Cgroup {
                file: dir.join("<call>/pids.max"),
            }),
            Parent::V1 {
                pids: Some(dir), ..
            } => Some(Enforcement::Cgroup {
                file: dir.join("<call>/pids.max"),
            }),
            _ => None,
        }
    }
}

/// The controllers a v2 cgroup can give its children.
fn has_controller(dir: &Path, name: &str) -> bool {
    fs::read_to_string(dir.join("cgroup.controllers"))
        .is_ok_and(|s| s.split_whitespace().any(|c| c == name))
}

/// A v2 cgroup plugctl may make children in: delegated to it, with the
/// memory or pids controller to hand out.
fn usable_v2(dir: &Path, pathname: &str) -> Result<(), String> {
    let delegated = ["trusted.delegate", "user.delegate"].iter().any(|attr| {
        let mut buf = [0u8; 8];
        rustix::fs::getxattr(dir, *attr, &mut buf).is_ok_and(|n| &buf[..n] == b"1")
    });
    // The root of a hierarchy no service manager runs (a container's own).
    let unmanaged_root =
        pathname == "/" && fs::read_to_string("/proc/1/comm").is_ok_and(|c| c.trim() != "systemd");
    if !(delegated || unmanaged_root) {
        return Err(format!(
            "plugctl's cgroup v2 {} is not delegated to it (a systemd unit gives one with \
             Delegate=yes)",
            dir.display()
        ));
    }
    if !(has_controller(dir, "memory") || has_controller(dir, "pids")) {
        return Err(format!(
            "plugctl's cgroup v2 {} has neither the memory nor the pids controller",
            dir.display()
        ));
    }
    Ok(())
}

/// Makes plugctl's own v2 cgroup ready to hand out controllers: plugctl
/// moves into the leaf `plugctl` (no process may sit in a cgroup whose
/// children get controllers), and the controllers are enabled for the
/// children. Once per run, before the first call's cgroup.
pub(super) fn ready_v2(dir: &Path) -> io::Result<()> {
    let leaf = dir.join("plugctl");
    match fs::create_dir(&leaf) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    fs::write(leaf.join("cgroup.procs"), b"0")?;
    let mut wanted = Vec::new();
    for c in ["memory", "pids"] {
        if has_controller(dir, c) {
            wanted.push(format!("+{c}"));
        }
    }
    fs::write(dir.join("cgroup.subtree_control"), wanted.join(" "))
}

/// One call's cgroup (one per controller hierarchy on v1).
#[derive(Debug)]
pub(super) struct CallCgroup {
    /// Each directory made, with its `cgroup.procs` open for writing and
    /// the file that counts hitting its limit.
    parts: Vec<Part>,
    memory_max: Option<u64>,
}

#[derive(Debug)]
struct Part {
    dir: PathBuf,
    procs: OwnedFd,
    /// (the cap, the events file, the key that counts hits)
    watches: Vec<(Cap, PathBuf, &'static str)>,
}

impl CallCgroup {
    /// Makes the call's cgroup(s) named `name` with these limits.
    pub fn create(
        parent: &Parent,
        name: &str,
        memory: Option<u64>,
        tasks: Option<u64>,
    ) -> io::Result<CallCgroup> {
        let mut call = CallCgroup {
            parts: Vec::new(),
            memory_max: memory,
        };
        match parent {
            Parent::V2 { dir } => {
                let d = dir.join(name);
                fs::create_dir(&d)?;
                let mut part = Part::open(d)?;
                if let Some(m) = memory {
                    fs::write(part.dir.join("memory.max"), m.to_string())?;
                    // No swap: a cap that spills to swap is no cap.
                    let _ = fs::write(part.dir.join("memory.swap.max"), "0");
                    // An OOM kill takes the whole call, as its deadline does.
                    let _ = fs::write(part.dir.join("memory.oom.group"), "1");
                    part.watches
                        .push((Cap::Memory, part.dir.join("memory.events"), "oom_kill"));
                }
                if let Some(t) = tasks {
                    fs::write(part.dir.join("pids.max"), t.to_string())?;
                    part.watches
                        .push((Cap::Tasks, part.dir.join("pids.events"), "max"));
                }
                call.parts.push(part);
            }
            Parent::V1 {
                memory: mem_dir,
                pids: pids_dir,
            } => {
                if let (Some(m), Some(dir)) = (memory, mem_dir) {
                    let d = dir.join(name);
                    fs::create_dir(&d)?;
                    let mut part = Part::open(d)?;
                    fs::write(part.dir.join("memory.limit_in_bytes"), m.to_string())?;
                    // Memory and swap together, where the kernel counts swap.
                    let _ = fs::write(part.dir.join("memory.memsw.limit_in_bytes"), m.to_string());
                    part.watches.push((
                        Cap::Memory,
                        part.dir.join("memory.oom_control"),
                        "oom_kill",
                    ));
                    call.parts.push(part);
                }
                if let (Some(t), Some(dir)) = (tasks, pids_dir) {
                    let d = dir.join(name);
                    fs::create_dir(&d)?;
                    let mut part = Part::open(d)?;
                    fs::write(part.dir.join("pids.max"), t.to_string())?;
                    part.watches
                        .push((Cap::Tasks, part.dir.join("pids.events"), "max"));
                    call.parts.push(part);
                }
            }
        }
        Ok(call)
    }

    /// The `cgroup.procs` descriptors the child writes `0` to.
    pub fn procs(&self) -> impl Iterator<Item = RawFd> + '_ {
        self.parts.iter().map(|p| p.procs.as_raw_fd())
    }

    /// The cap the call went over, as its cgroup counts it: an OOM kill
    /// inside it, or a fork refused at its pids limit.
    pub fn over(&self) -> Option<Cap> {
        for part in &self.parts {
            for (cap, file, key) in &part.watches {
                if counter(file, key).is_some_and(|n| n > 0) {
                    return Some(*cap);
                }
            }
        }
        None
    }

    /// The memory cap it was made with.
    pub fn memory_max(&self) -> Option<u64> {
        self.memory_max
    }
}

impl Part {
    fn open(dir: PathBuf) -> io::Result<Part> {
        use std::os::unix::fs::OpenOptionsExt;
        let procs = fs::OpenOptions::new()
            .write(true)
            .custom_flags(nix::libc::O_CLOEXEC)
            .open(dir.join("cgroup.procs"));
        match procs {
            Ok(f) => Ok(Part {
                dir,
                procs: f.into(),
                watches: Vec::new(),
            }),
            Err(e) => {
                let _ = fs::remove_dir(&dir);
                Err(e)
            }
        }
    }
}

/// `key N` from a flat-keyed cgroup file.
fn counter(file: &Path, key: &str) -> Option<u64> {
    let text = fs::read_to_string(file).ok()?;
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok()).flatten()
    })
}

impl Drop for CallCgroup {
    /// Removes the call's cgroups. The runner has killed and reaped what
    /// the call left by now; what is still inside (a process on its way
    /// out) is killed, and the removal retried for a moment.
    fn drop(&mut self) {
        for part in &self.parts {
            for attempt in 0..20 {
                match fs::remove_dir(&part.dir) {
                    Ok(()) => break,
                    Err(e) if e.kind() == io::ErrorKind::NotFound => break,
                    Err(_) if attempt < 19 => {
                        if let Ok(pids) = fs::read_to_string(part.dir.join("cgroup.procs")) {
                            for pid in pids.lines().filter_map(|p| p.trim().parse::<i32>().ok()) {
                                let _ = nix::sys::signal::kill(
                                    nix::unistd::Pid::from_raw(pid),
                                    nix::sys::signal::Signal::SIGKILL,
                                );
                            }
                        }
                        std::thread::sleep(std::time::Duration::from_millis(2));
                    }
                    Err(e) => tracing::warn!(
                        "cannot remove the call's cgroup {}: {e}",
                        part.dir.display()
                    ),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_are_read_by_key() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("memory.events");
        fs::write(
            &f,
            "low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\noom_group_kill 0\n",
        )
        .unwrap();
        assert_eq!(counter(&f, "oom_kill"), Some(1));
        assert_eq!(counter(&f, "max"), Some(12));
        assert_eq!(counter(&f, "oom_kill_disable"), None);
        let v1 = dir.path().join("memory.oom_control");
        fs::write(&v1, "oom_kill_disable 0\nunder_oom 0\noom_kill 0\n").unwrap();
        assert_eq!(counter(&v1, "oom_kill"), Some(0));
    }
}

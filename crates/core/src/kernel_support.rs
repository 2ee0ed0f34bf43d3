//! What this kernel offers a sandbox, as `plugctl status` reports it:
//! Landlock (and its ABI version), seccomp, each kind of namespace, and
//! cgroup v2 with its controllers.
//!
//! PROVISIONAL: a small probe of `plugctl status`'s own, written while the
//! sandbox module (`--sandbox none|trim|strict`) was built beside it. Once
//! that module is merged with a probe of its own, `status` uses that one
//! and this file goes. Nothing here applies a restriction: it only asks.
//!
//! The answers come from the kernel itself: a system call that takes no
//! action (Landlock's version query), and files of `/proc` and `/sys`,
//! which the kernel writes and no user can (they are not files the trust
//! gate judges: nothing in them is run or believed beyond this report).

use std::path::Path;

/// The namespaces a sandbox may unshare, as `/proc/self/ns` names them.
pub const NAMESPACES: [&str; 7] = ["user", "mnt", "pid", "net", "ipc", "uts", "cgroup"];

/// What the running kernel offers.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct KernelSupport {
    /// Landlock's ABI version; None when the kernel has no Landlock or it
    /// is not enabled (`landlock_reason` says which).
    pub landlock_abi: Option<u32>,
    pub landlock_reason: Option<String>,
    /// Whether the kernel has seccomp (`Seccomp:` in /proc/self/status),
    /// and the mode plugctl itself runs under (0: none).
    pub seccomp: bool,
    pub seccomp_mode: Option<u32>,
    /// Each namespace kind, and whether this kernel has it.
    pub namespaces: Vec<(String, bool)>,
    /// `user.max_user_namespaces`: 0 forbids new user namespaces.
    pub max_user_namespaces: Option<u64>,
    /// Whether the unified cgroup hierarchy (v2) is mounted at
    /// /sys/fs/cgroup, and its controllers.
    pub cgroup_v2: bool,
    pub cgroup_controllers: Vec<String>,
}

/// Asks the kernel.
pub fn probe() -> KernelSupport {
    let (landlock_abi, landlock_reason) = landlock();
    let seccomp_mode = procfs::process::Process::myself()
        .ok()
        .and_then(|p| p.status().ok())
        .and_then(|s| s.seccomp);
    let controllers = std::fs::read_to_string("/sys/fs/cgroup/cgroup.controllers").ok();
    KernelSupport {
        landlock_abi,
        landlock_reason,
        seccomp: seccomp_mode.is_some(),
        seccomp_mode,
        namespaces: NAMESPACES
            .iter()
            .map(|ns| {
                let there = Path::new("/proc/self/ns").join(ns).exists();
                (ns.to_string(), there)
            })
            .collect(),
        max_user_namespaces: std::fs::read_to_string("/proc/sys/user/max_user_namespaces")
            .ok()
            .and_then(|t| t.trim().parse().ok()),
        cgroup_v2: controllers.is_some(),
        cgroup_controllers: controllers
            .map(|t| t.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default(),
    }
}

/// Landlock's ABI version, by the query the kernel documents
/// (`landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION)`),
/// which creates nothing.
fn landlock() -> (Option<u32>, Option<String>) {
    const LANDLOCK_CREATE_RULESET_VERSION: u32 = 1 << 0;
    // SAFETY: with a null attribute pointer, size 0 and only the version
    // flag, the kernel reads no memory and returns a number or an error.
    let ret = unsafe {
        nix::libc::syscall(
            nix::libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    if ret > 0 {
        return (u32::try_from(ret).ok(), None);
    }
    let why = match nix::errno::Errno::last() {
        nix::errno::Errno::ENOSYS => "this kernel has no Landlock",
        nix::errno::Errno::EOPNOTSUPP => "Landlock is built in but not enabled (lsm= at boot)",
        _ => "the kernel refused the version query",
    };
    (None, Some(why.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_answers_for_every_namespace_and_is_consistent() {
        let k = probe();
        assert_eq!(k.namespaces.len(), NAMESPACES.len());
        // Every Linux that runs plugctl has mount namespaces.
        assert!(k.namespaces.iter().any(|(ns, there)| ns == "mnt" && *there));
        assert_eq!(k.landlock_abi.is_some(), k.landlock_reason.is_none());
        assert_eq!(k.seccomp, k.seccomp_mode.is_some());
        assert_eq!(k.cgroup_v2, !k.cgroup_controllers.is_empty() || k.cgroup_v2);
    }
}

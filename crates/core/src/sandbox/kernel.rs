//! What the running kernel offers the sandbox, probed once per run and
//! only when a call is confined: the Landlock ABI (through the `landlock`
//! crate: a ruleset it can create is one the kernel enforces), seccomp
//! filters, the highest capability number.

use landlock::{ABI, Access, AccessFs, CompatLevel, Compatible, Ruleset, RulesetAttr};
use nix::libc;

/// The Landlock ABIs the `landlock` crate knows, newest first.
const ABIS: [ABI; 10] = [
    ABI::V10,
    ABI::V9,
    ABI::V8,
    ABI::V7,
    ABI::V6,
    ABI::V5,
    ABI::V4,
    ABI::V3,
    ABI::V2,
    ABI::V1,
];

#[derive(Debug, Clone)]
pub(super) struct Kernel {
    /// The newest Landlock ABI the kernel enforces, or why there is none.
    pub landlock: Result<ABI, String>,
    /// The kernel's own Landlock ABI number, as it says it.
    pub landlock_version: Option<i32>,
    /// Whether seccomp filters can be installed, or why not.
    pub seccomp: Result<(), String>,
    /// The highest capability the kernel knows (`cap_last_cap`).
    pub last_cap: u8,
    /// The capabilities plugctl itself holds (its permitted set): a child
    /// can keep no other (capset(2) refuses to add one).
    pub permitted: u64,
    /// plugctl's bounding set: a child drops only what is in it.
    pub bounding: u64,
}

impl Kernel {
    pub fn probe() -> Kernel {
        Kernel {
            landlock: landlock_abi(),
            landlock_version: landlock_version(),
            seccomp: seccomp(),
            last_cap: last_cap(),
            permitted: mask(caps::CapSet::Permitted),
            bounding: mask(caps::CapSet::Bounding),
        }
    }

    /// Whether plugctl holds `cap` (effective, and so permitted).
    pub fn holds(&self, cap: caps::Capability) -> bool {
        self.permitted & (1u64 << cap.index()) != 0
    }
}

/// One of plugctl's capability sets as a mask.
fn mask(set: caps::CapSet) -> u64 {
    caps::read(None, set)
        .map(|set| set.iter().fold(0u64, |m, c| m | (1u64 << c.index())))
        .unwrap_or(0)
}

/// The newest ABI for which the crate can make a ruleset that handles
/// every file-system right of that ABI as a hard requirement.
fn landlock_abi() -> Result<ABI, String> {
    for abi in ABIS {
        let made = Ruleset::default()
            .set_compatibility(CompatLevel::HardRequirement)
            .handle_access(AccessFs::from_all(abi))
            .and_then(|r| r.create());
        if made.is_ok() {
            return Ok(abi);
        }
    }
    // Why: the system call's own answer.
    // SAFETY: landlock_create_ruleset(NULL, 0, VERSION) only reports.
    let v = unsafe { libc::syscall(libc::SYS_landlock_create_ruleset, 0usize, 0usize, 1u32) };
    let e = std::io::Error::last_os_error();
    Err(match e.raw_os_error() {
        _ if v >= 0 => format!("Landlock ABI {v} is not one plugctl can use"),
        Some(libc::EOPNOTSUPP) => {
            "Landlock is built into this kernel but not enabled (add landlock to the lsm= boot \
             parameter)"
                .to_string()
        }
        Some(libc::ENOSYS) => "this kernel has no Landlock (Linux 5.13 or later, built with \
                               CONFIG_SECURITY_LANDLOCK)"
            .to_string(),
        _ => format!("Landlock cannot be used: {e}"),
    })
}

/// landlock_create_ruleset(NULL, 0, VERSION): the kernel's ABI number.
fn landlock_version() -> Option<i32> {
    // SAFETY: a report only.
    let v = unsafe { libc::syscall(libc::SYS_landlock_create_ruleset, 0usize, 0usize, 1u32) };
    (v > 0).then(|| i32::try_from(v).unwrap_or(i32::MAX))
}

/// Whether a seccomp filter can be installed: the kernel says which return
/// actions it has (`SECCOMP_GET_ACTION_AVAIL`), which needs filter support.
fn seccomp() -> Result<(), String> {
    let action: u32 = libc::SECCOMP_RET_ERRNO;
    // SAFETY: seccomp(GET_ACTION_AVAIL, 0, &action) reads one u32.
    let r = unsafe {
        libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_GET_ACTION_AVAIL,
            0u32,
            &action as *const u32,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(format!(
            "this kernel cannot install seccomp filters (CONFIG_SECCOMP_FILTER): {}",
            std::io::Error::last_os_error()
        ))
    }
}

fn last_cap() -> u8 {
    std::fs::read_to_string("/proc/sys/kernel/cap_last_cap")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(40)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_agrees_with_the_kernels_own_answer() {
        let k = Kernel::probe();
        // SAFETY: as above, a report only.
        let v = unsafe { libc::syscall(libc::SYS_landlock_create_ruleset, 0usize, 0usize, 1u32) };
        // The crate may name a newer ABI than the kernel's when it adds
        // no file-system right (the probe asks for those); never one where
        // the kernel has none.
        match k.landlock {
            Ok(_) => assert!(v > 0, "kernel {v}, probe {:?}", k.landlock),
            Err(why) => assert!(v < 0, "kernel ABI {v}, probe said {why}"),
        }
        assert_eq!(k.landlock_version, (v > 0).then_some(v as i32));
        assert!(k.last_cap >= 36, "CAP_BLOCK_SUSPEND is old: {}", k.last_cap);
    }
}

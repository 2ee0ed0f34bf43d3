//! The seccomp filters of `strict`, compiled once per set of grants
//! (`seccompiler`) before any plugin is spawned: the guarded groups of
//! system calls answer `EPERM` unless the policy grants the group, and
//! `clone3` answers `ENOSYS` (its flags sit in memory a filter cannot
//! read, so the C library falls back to `clone`, whose flags it can). On
//! x86-64 a call through the x32 ABI (the same numbers with bit 30 set)
//! answers `ENOSYS` too, so the numbers below cannot be dodged.

use std::collections::{BTreeMap, BTreeSet};

use nix::libc;
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

use super::Syscalls;

/// The system calls of each group.
fn numbers(group: Syscalls) -> &'static [i64] {
    match group {
        Syscalls::Ptrace => &[
            libc::SYS_ptrace,
            libc::SYS_process_vm_readv,
            libc::SYS_process_vm_writev,
            libc::SYS_pidfd_getfd,
        ],
        Syscalls::Bpf => &[libc::SYS_bpf],
        Syscalls::Modules => &[
            libc::SYS_init_module,
            libc::SYS_finit_module,
            libc::SYS_delete_module,
        ],
        Syscalls::Kexec => &[libc::SYS_kexec_load, libc::SYS_kexec_file_load],
        Syscalls::Keyrings => &[libc::SYS_add_key, libc::SYS_request_key, libc::SYS_keyctl],
        Syscalls::Perf => &[libc::SYS_perf_event_open],
        Syscalls::Mount => &[
            libc::SYS_mount,
            libc::SYS_umount2,
            libc::SYS_pivot_root,
            libc::SYS_open_tree,
            libc::SYS_move_mount,
            libc::SYS_fsopen,
            libc::SYS_fsconfig,
            libc::SYS_fsmount,
            libc::SYS_fspick,
            libc::SYS_mount_setattr,
        ],
        // clone's namespace flags are looked at below.
        Syscalls::Namespaces => &[libc::SYS_unshare, libc::SYS_setns],
    }
}

/// The namespace flags `clone` may not carry without the namespaces grant.
const CLONE_NAMESPACES: [u64; 7] = [
    libc::CLONE_NEWNS as u64,
    libc::CLONE_NEWUTS as u64,
    libc::CLONE_NEWIPC as u64,
    libc::CLONE_NEWUSER as u64,
    libc::CLONE_NEWPID as u64,
    libc::CLONE_NEWNET as u64,
    libc::CLONE_NEWCGROUP as u64,
];

/// The compiled programs of one set of grants, installed in this order.
#[derive(Debug)]
pub(super) struct Filters {
    pub programs: Vec<BpfProgram>,
}

fn arch() -> Result<TargetArch, String> {
    std::env::consts::ARCH
        .try_into()
        .map_err(|e| format!("seccomp: {e}"))
}

/// Compiles the filters that refuse every guarded group but `granted`.
pub(super) fn compile(granted: &BTreeSet<Syscalls>) -> Result<Filters, String> {
    let arch = arch()?;
    let fail = |e: seccompiler::BackendError| format!("seccomp: {e}");
    let mut refused: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    for group in Syscalls::ALL {
        if granted.contains(&group) {
            continue;
        }
        for &nr in numbers(group) {
            refused.insert(nr, Vec::new());
        }
        if group == Syscalls::Namespaces {
            let mut rules = Vec::new();
            for flag in CLONE_NAMESPACES {
                let cond = SeccompCondition::new(
                    0,
                    SeccompCmpArgLen::Qword,
                    SeccompCmpOp::MaskedEq(flag),
                    flag,
                )
                .map_err(fail)?;
                rules.push(SeccompRule::new(vec![cond]).map_err(fail)?);
            }
            refused.insert(libc::SYS_clone, rules);
        }
    }
    let mut programs = Vec::new();
    if !refused.is_empty() {
        let filter = SeccompFilter::new(
            refused,
            SeccompAction::Allow,
            SeccompAction::Errno(libc::EPERM as u32),
            arch,
        )
        .map_err(fail)?;
        programs.push(BpfProgram::try_from(filter).map_err(|e| format!("seccomp: {e}"))?);
    }
    // clone3 (and x32) answer ENOSYS, unless namespaces are granted
    // altogether.
    if !granted.contains(&Syscalls::Namespaces) {
        let mut nosys = BTreeMap::new();
        nosys.insert(libc::SYS_clone3, Vec::new());
        let filter = SeccompFilter::new(
            nosys,
            SeccompAction::Allow,
            SeccompAction::Errno(libc::ENOSYS as u32),
            arch,
        )
        .map_err(fail)?;
        let mut program = BpfProgram::try_from(filter).map_err(|e| format!("seccomp: {e}"))?;
        refuse_x32(&mut program);
        programs.push(program);
    } else {
        programs.push(x32_guard(arch));
    }
    Ok(Filters { programs })
}

/// A program of the x32 guard alone (every group granted: nothing else to
/// refuse), in seccompiler's own shape: its architecture check, then the
/// guard, then allow.
fn x32_guard(arch: TargetArch) -> BpfProgram {
    let audit = match arch {
        TargetArch::x86_64 => 62 | 0x8000_0000 | 0x4000_0000,
        TargetArch::aarch64 => 183 | 0x8000_0000 | 0x4000_0000,
        TargetArch::riscv64 => 243 | 0x8000_0000 | 0x4000_0000,
    };
    let stmt = |code: u32, k: u32| seccompiler::sock_filter {
        code: code as u16,
        jt: 0,
        jf: 0,
        k,
    };
    let mut program = vec![
        stmt(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 4), // arch
        seccompiler::sock_filter {
            code: (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16,
            jt: 1,
            jf: 0,
            k: audit,
        },
        stmt(libc::BPF_RET | libc::BPF_K, libc::SECCOMP_RET_KILL_PROCESS),
        stmt(libc::BPF_RET | libc::BPF_K, libc::SECCOMP_RET_ALLOW),
    ];
    refuse_x32(&mut program);
    program
}

/// On x86-64, right after seccompiler's architecture check (its first three
/// instructions), a system call number with the x32 bit answers ENOSYS.
/// The program's own code loads the number again after this.
fn refuse_x32(program: &mut BpfProgram) {
    if std::env::consts::ARCH != "x86_64" || program.len() < 3 {
        return;
    }
    const X32_SYSCALL_BIT: u32 = 0x4000_0000;
    let ld = seccompiler::sock_filter {
        code: (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16,
        jt: 0,
        jf: 0,
        k: 0, // offsetof(struct seccomp_data, nr)
    };
    let jge = seccompiler::sock_filter {
        code: (libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K) as u16,
        jt: 0,
        jf: 1,
        k: X32_SYSCALL_BIT,
    };
    let ret = seccompiler::sock_filter {
        code: (libc::BPF_RET | libc::BPF_K) as u16,
        jt: 0,
        jf: 0,
        k: libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32,
    };
    program.splice(3..3, [ld, jge, ret]);
}

/// In the child: installs the programs, on memory prepared before the
/// fork (seccompiler's install makes only prctl(2) and seccomp(2) calls,
/// and its error is the OS error, allocated nowhere).
pub(super) fn install(filters: &Filters) -> std::io::Result<()> {
    for program in &filters.programs {
        seccompiler::apply_filter(program).map_err(|e| match e {
            seccompiler::Error::Seccomp(e) | seccompiler::Error::Prctl(e) => e,
            _ => std::io::Error::from_raw_os_error(libc::EINVAL),
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_group_compiles_alone_and_together() {
        let none = compile(&BTreeSet::new()).unwrap();
        assert_eq!(none.programs.len(), 2);
        let all: BTreeSet<Syscalls> = Syscalls::ALL.into_iter().collect();
        let open = compile(&all).unwrap();
        // Nothing refused: only the x32 guard is left.
        assert_eq!(open.programs.len(), 1);
        for g in Syscalls::ALL {
            compile(&[g].into_iter().collect()).unwrap();
        }
    }
}

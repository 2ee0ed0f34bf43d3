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
    // One program (the kernel compiles each one a child installs): the
    // refused groups answer EPERM; after the architecture check, x32 calls
    // and clone3 (unless namespaces are granted) answer ENOSYS.
    let mut program = if refused.is_empty() {
        allow_all(arch)
    } else {
        let filter = SeccompFilter::new(
            refused,
            SeccompAction::Allow,
            SeccompAction::Errno(libc::EPERM as u32),
            arch,
        )
        .map_err(fail)?;
        BpfProgram::try_from(filter).map_err(|e| format!("seccomp: {e}"))?
    };
    let clone3 = !granted.contains(&Syscalls::Namespaces);
    program.splice(3..3, nosys(std::env::consts::ARCH == "x86_64", clone3));
    Ok(Filters {
        programs: vec![program],
    })
}

/// What answers ENOSYS, right after the architecture check (the program's
/// own code loads the number again after this): a number with the x32 bit
/// (on x86-64), and clone3 when asked.
fn nosys(x32: bool, clone3: bool) -> Vec<seccompiler::sock_filter> {
    const X32_SYSCALL_BIT: u32 = 0x4000_0000;
    let op = |code: u32, jt: u8, k: u32| seccompiler::sock_filter {
        code: code as u16,
        jt,
        jf: 0,
        k,
    };
    let mut tests = Vec::new();
    if x32 {
        tests.push((libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K, X32_SYSCALL_BIT));
    }
    if clone3 {
        tests.push((
            libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K,
            libc::SYS_clone3 as u32,
        ));
    }
    if tests.is_empty() {
        return Vec::new();
    }
    let n = tests.len();
    // offsetof(struct seccomp_data, nr) is 0.
    let mut out = vec![op(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 0, 0)];
    for (j, (code, k)) in tests.into_iter().enumerate() {
        // To the RET below: past the tests left and the jump over it.
        out.push(op(code, (n - j) as u8, k));
    }
    out.push(op(libc::BPF_JMP | libc::BPF_JA, 0, 1));
    out.push(op(
        libc::BPF_RET | libc::BPF_K,
        0,
        libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32,
    ));
    out
}

/// A program that refuses nothing (every group granted), in seccompiler's
/// own shape: its architecture check (three instructions), then allow.
fn allow_all(arch: TargetArch) -> BpfProgram {
    let audit = match arch {
        TargetArch::x86_64 => 62 | 0x8000_0000 | 0x4000_0000,
        TargetArch::aarch64 => 183 | 0x8000_0000 | 0x4000_0000,
        TargetArch::riscv64 => 243 | 0x8000_0000 | 0x4000_0000,
    };
    let op = |code: u32, jt: u8, k: u32| seccompiler::sock_filter {
        code: code as u16,
        jt,
        jf: 0,
        k,
    };
    vec![
        op(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 0, 4), // arch
        op(libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K, 1, audit),
        op(
            libc::BPF_RET | libc::BPF_K,
            0,
            libc::SECCOMP_RET_KILL_PROCESS,
        ),
        op(libc::BPF_RET | libc::BPF_K, 0, libc::SECCOMP_RET_ALLOW),
    ]
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
        assert_eq!(none.programs.len(), 1);
        let all: BTreeSet<Syscalls> = Syscalls::ALL.into_iter().collect();
        let open = compile(&all).unwrap();
        // Nothing refused: the architecture check, the x32 guard, allow.
        assert_eq!(open.programs.len(), 1);
        assert_eq!(open.programs[0].len(), 4 + 4, "{:?}", open.programs[0]);
        for g in Syscalls::ALL {
            compile(&[g].into_iter().collect()).unwrap();
        }
    }

    /// The program as the kernel runs it, in a forked child: each answer
    /// coded in the child's exit status.
    #[test]
    fn the_filter_answers_as_it_says() {
        let filters = compile(&[Syscalls::Bpf].into_iter().collect()).unwrap();
        // SAFETY: the child makes raw system calls only, then _exit.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0);
        if pid == 0 {
            unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) };
            if install(&filters).is_err() {
                unsafe { libc::_exit(10) };
            }
            let call = |r: i64| {
                (
                    r,
                    std::io::Error::last_os_error().raw_os_error().unwrap_or(0),
                )
            };
            let checks: [((i64, i32), i32); 4] = [
                (
                    call(unsafe { libc::syscall(libc::SYS_ptrace, 0x4206, 1, 0, 0) }),
                    libc::EPERM,
                ),
                (
                    call(unsafe { libc::syscall(libc::SYS_clone3, 0usize, 0usize) }),
                    libc::ENOSYS,
                ),
                (
                    call(unsafe { libc::syscall(0x4000_0000 + libc::SYS_getpid) }),
                    libc::ENOSYS,
                ),
                (
                    call(unsafe { libc::syscall(libc::SYS_unshare, libc::CLONE_NEWNET) }),
                    libc::EPERM,
                ),
            ];
            for (i, ((r, errno), want)) in checks.into_iter().enumerate() {
                if r != -1 || errno != want {
                    unsafe { libc::_exit(20 + i as i32) };
                }
            }
            // Granted and unguarded calls pass.
            if unsafe { libc::syscall(libc::SYS_getpid) } <= 0 {
                unsafe { libc::_exit(30) };
            }
            unsafe { libc::_exit(0) };
        }
        let mut status = 0;
        unsafe { libc::waitpid(pid, &mut status, 0) };
        assert!(libc::WIFEXITED(status), "{status:#x}");
        assert_eq!(libc::WEXITSTATUS(status), 0, "see the codes above");
    }
}

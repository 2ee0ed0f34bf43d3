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
    Ok(Filters {
        programs: vec![program(granted, true)?],
    })
}

/// The one program of [`compile`]; `fast`: with the [`shortcut`] (the
/// tests compare the two).
fn program(granted: &BTreeSet<Syscalls>, fast: bool) -> Result<BpfProgram, String> {
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
    let numbers: Vec<u32> = refused
        .keys()
        .filter_map(|&n| u32::try_from(n).ok())
        .collect();
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
    let guard = nosys(std::env::consts::ARCH == "x86_64", clone3);
    let after = 3 + guard.len();
    program.splice(3..3, guard);
    if fast {
        program.splice(after..after, shortcut(&numbers));
    }
    Ok(program)
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

/// A binary search over the refused numbers (sorted), right after the
/// architecture check and the ENOSYS guard: a number that is not one of
/// them is allowed at once, one that is goes on to the rules below. Why:
/// at install the kernel runs the program once for every system call
/// number, to cache the ones it always allows, under a lock with
/// interrupts off; through seccompiler's chain of comparisons, one after
/// another, that was the largest part of what each strict call cost.
/// Here a number takes at most a handful of comparisons.
fn shortcut(numbers: &[u32]) -> Vec<seccompiler::sock_filter> {
    let op = |code: u32, jt: u8, jf: u8, k: u32| seccompiler::sock_filter {
        code: code as u16,
        jt,
        jf,
        k,
    };
    if numbers.is_empty() {
        return Vec::new();
    }
    // The load, 2n - 1 comparisons, the allow; the rules follow.
    let tree = 2 * numbers.len() - 1;
    let allow_at = 1 + tree;
    let rules_at = allow_at + 1;
    // Jumps are forward, at most 255 instructions long.
    if rules_at > 255 {
        return Vec::new();
    }
    let mut out = vec![op(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 0, 0, 0)];
    fn emit(
        numbers: &[u32],
        out: &mut Vec<seccompiler::sock_filter>,
        allow_at: usize,
        rules_at: usize,
    ) {
        let i = out.len();
        let code = |c: u32| c as u16;
        if let [only] = numbers {
            out.push(seccompiler::sock_filter {
                code: code(libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K),
                jt: (rules_at - i - 1) as u8,
                jf: (allow_at - i - 1) as u8,
                k: *only,
            });
            return;
        }
        let mid = numbers.len() / 2;
        // At or above the middle: the right half, after the left one.
        out.push(seccompiler::sock_filter {
            code: code(libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K),
            jt: 0,
            jf: 0,
            k: numbers[mid],
        });
        emit(&numbers[..mid], out, allow_at, rules_at);
        out[i].jt = (out.len() - i - 1) as u8;
        emit(&numbers[mid..], out, allow_at, rules_at);
    }
    emit(numbers, &mut out, allow_at, rules_at);
    out.push(op(
        libc::BPF_RET | libc::BPF_K,
        0,
        0,
        libc::SECCOMP_RET_ALLOW,
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

    /// Classic BPF as the kernel runs a seccomp program, for the
    /// instructions these programs use: the action returned for system
    /// call `nr` with `args`.
    fn run(program: &[seccompiler::sock_filter], nr: u32, arch: u32, args: [u64; 6]) -> u32 {
        let (mut a, mut pc) = (0u32, 0usize);
        loop {
            let i = &program[pc];
            let code = u32::from(i.code);
            pc += 1;
            match code {
                c if c == libc::BPF_LD | libc::BPF_W | libc::BPF_ABS => {
                    a = match i.k {
                        0 => nr,
                        4 => arch,
                        k if (16..64).contains(&k) && k % 4 == 0 => {
                            let arg = args[(k as usize - 16) / 8];
                            if k % 8 == 0 {
                                arg as u32
                            } else {
                                (arg >> 32) as u32
                            }
                        }
                        k => panic!("load of offset {k}"),
                    }
                }
                c if c == libc::BPF_ALU | libc::BPF_AND | libc::BPF_K => a &= i.k,
                c if c == libc::BPF_JMP | libc::BPF_JA => pc += i.k as usize,
                c if c & 0x07 == libc::BPF_JMP => {
                    let taken = match c & 0xf0 {
                        x if x == libc::BPF_JEQ => a == i.k,
                        x if x == libc::BPF_JGE => a >= i.k,
                        x if x == libc::BPF_JGT => a > i.k,
                        x if x == libc::BPF_JSET => a & i.k != 0,
                        _ => panic!("jump {c:#x}"),
                    };
                    pc += usize::from(if taken { i.jt } else { i.jf });
                }
                c if c == libc::BPF_RET | libc::BPF_K => return i.k,
                c => panic!("instruction {c:#x}"),
            }
        }
    }

    /// The shortcut changes no answer: for every system call number, with
    /// and without namespace flags in its first argument, under every
    /// set of one group granted, none, and all, the program answers as
    /// seccompiler's alone does; and it is shorter to run for a number
    /// no group holds (what the kernel's cache runs at install).
    #[test]
    fn the_shortcut_answers_as_the_rules_do() {
        let audit = match std::env::consts::ARCH {
            "x86_64" => 62 | 0x8000_0000 | 0x4000_0000,
            "aarch64" => 183 | 0x8000_0000 | 0x4000_0000,
            _ => return,
        };
        let mut sets: Vec<BTreeSet<Syscalls>> = vec![BTreeSet::new(), Syscalls::ALL.into()];
        sets.extend(Syscalls::ALL.map(|g| [g].into_iter().collect()));
        for granted in sets {
            let fast = program(&granted, true).unwrap();
            let slow = program(&granted, false).unwrap();
            for nr in (0..1100).chain([0x4000_0000, 0x4000_0001, u32::MAX]) {
                for first in [0, libc::CLONE_NEWUSER as u64, libc::CLONE_NEWNS as u64] {
                    let args = [first, 0, 0, 0, 0, 0];
                    assert_eq!(
                        run(&fast, nr, audit, args),
                        run(&slow, nr, audit, args),
                        "{granted:?}: system call {nr}, first argument {first:#x}"
                    );
                }
            }
            // Another architecture is killed either way.
            assert_eq!(
                run(&fast, 0, 3 | 0x4000_0000, [0; 6]),
                run(&slow, 0, 3 | 0x4000_0000, [0; 6])
            );
        }
        let none = BTreeSet::new();
        let fast = program(&none, true).unwrap();
        let refused = libc::SECCOMP_RET_ERRNO | libc::EPERM as u32;
        assert_eq!(run(&fast, libc::SYS_ptrace as u32, audit, [0; 6]), refused);
        let newuser = [libc::CLONE_NEWUSER as u64, 0, 0, 0, 0, 0];
        assert_eq!(run(&fast, libc::SYS_clone as u32, audit, newuser), refused);
        assert_eq!(
            run(&fast, libc::SYS_clone as u32, audit, [0; 6]),
            libc::SECCOMP_RET_ALLOW
        );
        assert!(
            program(&none, true).unwrap().len() > program(&none, false).unwrap().len(),
            "no shortcut was made"
        );
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

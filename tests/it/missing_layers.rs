//! strict on a node whose kernel lacks a layer: never skipped in silence.
//! plugctl runs here under a seccomp filter the test installs, which
//! answers the layer's system call as a kernel without it does (ENOSYS):
//! Landlock's `landlock_create_ruleset`, or `seccomp` itself. `--sandbox
//! strict` then stops with exit 2 naming the layer and why; with
//! `--sandbox-best-effort` the plugin runs under the rest, and `-v` says
//! the layer was not applied.

use std::os::unix::process::CommandExt;

use seccompiler::{BpfProgram, SeccompAction, SeccompFilter, TargetArch};

use crate::common::expect::Run;
use crate::common::*;

/// A filter that answers `syscall` with ENOSYS and allows the rest.
fn without(syscall: i64) -> BpfProgram {
    let arch: TargetArch = std::env::consts::ARCH.try_into().unwrap();
    let filter = SeccompFilter::new(
        [(syscall, Vec::new())].into_iter().collect(),
        SeccompAction::Allow,
        SeccompAction::Errno(nix::libc::ENOSYS as u32),
        arch,
    )
    .unwrap();
    filter.try_into().unwrap()
}

/// plugctl in the rig's environment, under `program`.
fn plugctl_without(s: &Rig, program: &BpfProgram) -> Run {
    let mut cmd = s.command(PLUGCTL);
    let program = program.clone();
    // SAFETY: the child makes the prctl(2) and seccomp(2) calls of
    // seccompiler's install, on a program compiled before the fork.
    unsafe {
        cmd.pre_exec(move || seccompiler::apply_filter(&program).map_err(std::io::Error::other));
    }
    Run::new(cmd, "plugctl")
}

#[test]
fn a_kernel_without_landlock_or_seccomp_is_exit_2_unless_best_effort() {
    let s = Rig::new();
    if !strict_runs(&s) {
        return;
    }
    s.hv_ok("plain", "1.0.0");
    for (layer, syscall, why) in [
        (
            "Landlock",
            nix::libc::SYS_landlock_create_ruleset,
            "this kernel has no Landlock",
        ),
        (
            "seccomp",
            nix::libc::SYS_seccomp,
            "this kernel cannot install seccomp filters",
        ),
    ] {
        let program = without(syscall);
        plugctl_without(&s, &program)
            .args(["--sandbox", "strict", "fingerprint", "plain"])
            .fails_with(Exit::Usage)
            .stderr_has("the strict sandbox needs what this node does not give")
            .stderr_has(&format!("{layer} ({why}"))
            .stderr_has("--sandbox-best-effort");
        let ran = plugctl_without(&s, &program)
            .args(["-v", "--sandbox", "strict", "--sandbox-best-effort"])
            .args(["fingerprint", "plain"])
            .succeeds()
            .stderr_has(&format!("sandbox: {layer} NOT applied"));
        let applied = ran
            .stderr()
            .lines()
            .find(|l| l.contains("sandbox: strict: applied"))
            .unwrap_or_else(|| panic!("{layer}: no applied line: {}", ran.stderr()))
            .to_string();
        assert!(!applied.contains(layer), "{layer}: {applied}");
        assert!(applied.contains("no-new-privileges"), "{layer}: {applied}");
    }
}

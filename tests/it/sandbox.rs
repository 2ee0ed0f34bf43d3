//! The sandbox (docs/sandbox.md), layer by layer, through the binary, as
//! root: each hostile plugin is allowed under `none` (what a Nomad client
//! does) and stopped under the level that has the layer, with the reason
//! naming what stopped it.
//!
//! A plugin here reports what it saw on its last line of stderr and exits
//! 1, so its fingerprint's reason carries the report; a plugin that does
//! something hostile prints `{"version"}` only when it managed to.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::common::*;

/// Runs `fingerprint NAME` with `args` before it, as JSON: (healthy,
/// reason).
fn fingerprint(s: &Rig, args: &[&str], name: &str) -> (bool, String) {
    let ran = plugctl(s)
        .arg("--json")
        .args_from(args.iter().copied())
        // Past Nomad's 1 s: some of these plugins take their time.
        .args(["fingerprint", "--timeout", "30s", name])
        .any_exit();
    let doc = ran.json();
    let r = row(&doc, "host-volume", name);
    (
        r["healthy"].as_bool().unwrap_or(false),
        r["error"].as_str().unwrap_or_default().to_string(),
    )
}

/// The report a plugin printed (its fingerprint's reason, from `REPORT`).
fn report(s: &Rig, args: &[&str], name: &str) -> String {
    let (healthy, reason) = fingerprint(s, args, name);
    assert!(!healthy, "a report plugin always fails: {reason}");
    let at = reason
        .find("REPORT ")
        .unwrap_or_else(|| panic!("no REPORT in {reason:?} ({args:?})"));
    reason[at + "REPORT ".len()..]
        .trim_end_matches(['"', '\''])
        .to_string()
}

/// A report's `key=value`.
fn field<'a>(report: &'a str, key: &str) -> &'a str {
    report
        .split_whitespace()
        .find_map(|kv| kv.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
        .map(|v| v.trim_end_matches(['"', '\'']))
        .unwrap_or_else(|| panic!("no {key} in {report:?}"))
}

/// Whether these tests can run: as root (the layers need it).
fn as_root() -> bool {
    if !is_root() {
        skip_unless_ci("the sandbox's tests run plugins as root");
        return false;
    }
    true
}

/// A plugin that reports what trim changes: no-new-privileges, the core
/// size limit, oom_score_adj.
const TRIM_REPORT: &str = r#"PATH=/usr/bin:/bin
nnp=$(awk '/^NoNewPrivs/ {print $2}' /proc/self/status)
echo "REPORT nnp=$nnp core=$(ulimit -c) oom=$(cat /proc/self/oom_score_adj)" >&2
exit 1"#;

#[test]
fn trim_sets_no_new_privileges_no_core_dumps_and_oom_score_adj_0_and_none_leaves_all_three() {
    if !as_root() {
        return;
    }
    let s = Rig::new();
    s.plugin("host-volume", "trimmed", TRIM_REPORT);
    // plugctl itself runs with an oom_score_adj of 300 and core dumps on:
    // under none the plugin has both, as a Nomad client's child has the
    // agent's.
    let run = |level: &str| {
        let out = s
            .command("/bin/sh")
            .args([
                "-c",
                "echo 300 >/proc/self/oom_score_adj && ulimit -c unlimited && exec \"$@\"",
                "sh",
                PLUGCTL,
                "--json",
                "--sandbox",
                level,
                "fingerprint",
                "trimmed",
            ])
            .output()
            .unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "--sandbox {level}: no JSON document ({e}), {}: {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            )
        });
        let reason = row(&doc, "host-volume", "trimmed")["error"]
            .as_str()
            .unwrap()
            .to_string();
        let at = reason.find("REPORT ").expect("a report");
        reason[at + 7..].trim_end_matches('"').to_string()
    };
    let none = run("none");
    assert_eq!(field(&none, "nnp"), "0", "{none}");
    assert_eq!(field(&none, "core"), "unlimited", "{none}");
    assert_eq!(field(&none, "oom"), "300", "{none}");
    for level in ["trim", "strict"] {
        let r = run(level);
        assert_eq!(field(&r, "nnp"), "1", "{level}: {r}");
        assert_eq!(field(&r, "core"), "0", "{level}: {r}");
        assert_eq!(field(&r, "oom"), "0", "{level}: {r}");
    }
}

/// A plugin that allocates and touches 1 GiB, then answers.
const TOUCH_1_GIB: &str = "#!/usr/bin/python3 -I
import sys
if sys.argv[1] == 'fingerprint':
    b = bytearray(1 << 30)
    for i in range(0, len(b), 4096):
        b[i] = 1
    print('{\"version\": \"1.0.0\"}')
";

#[test]
fn touching_1_gib_is_allowed_under_none_and_over_the_memory_cap_under_trim_and_strict() {
    if !as_root() || !tool_available("python3", "a plugin that allocates") {
        return;
    }
    let s = Rig::new();
    s.file("host-volume", "hog", TOUCH_1_GIB, 0o755);
    let (healthy, reason) = fingerprint(&s, &[], "hog");
    assert!(healthy, "none lets it allocate 1 GiB: {reason}");
    for level in ["trim", "strict"] {
        let (healthy, reason) =
            fingerprint(&s, &["--sandbox", level, "--memory-max", "128MiB"], "hog");
        assert!(!healthy, "{level}");
        assert!(
            reason.contains("over its memory cap of 128 MiB")
                || reason.contains("it ran under its memory cap of 128 MiB"),
            "{level}: {reason}"
        );
    }
}

/// A fork bomb bounded by the test: it starts sleeping children until a
/// fork fails or 200 run, says how many, and answers only with all 200.
const FORK_200: &str = r#"PATH=/usr/bin:/bin
n=0 pids=
while [ $n -lt 200 ]; do
  sleep 30 & pids="$pids $!" n=$((n+1))
done
kill $pids
wait
echo '{"version": "1.0.0"}'"#;

#[test]
fn a_fork_bomb_is_allowed_under_none_and_stopped_by_the_tasks_cap() {
    if !as_root() {
        return;
    }
    let s = Rig::new();
    s.plugin("host-volume", "bomb", FORK_200);
    let (healthy, reason) = fingerprint(&s, &[], "bomb");
    assert!(healthy, "none lets it start 200 processes: {reason}");
    let probe = plugctl(&s)
        .args([
            "--sandbox",
            "trim",
            "--tasks-max",
            "16",
            "fingerprint",
            "bomb",
        ])
        .any_exit();
    if probe.stderr().contains("cannot be enforced here") {
        skip_unless_ci("this node gives plugctl no pids cgroup");
        return;
    }
    for level in ["trim", "strict"] {
        let (healthy, reason) = fingerprint(&s, &["--sandbox", level, "--tasks-max", "16"], "bomb");
        assert!(!healthy, "{level}");
        assert!(
            reason.contains("over its tasks cap of 16"),
            "{level}: {reason}"
        );
    }
}

#[test]
fn a_busy_loop_is_over_its_cpu_cap_and_too_many_open_files_names_the_files_cap() {
    if !as_root() {
        return;
    }
    let s = Rig::new();
    s.plugin("host-volume", "spin", "while :; do :; done");
    let (healthy, reason) = fingerprint(&s, &["--sandbox", "trim", "--cpu-max", "1s"], "spin");
    assert!(!healthy);
    assert!(reason.contains("over its CPU cap of 1s"), "{reason}");
    // 64 descriptors open at once: fine under none, not under a cap of 16.
    let body = r#"PATH=/usr/bin:/bin
exec python3 -I -c '
import os
fds = [os.open("/dev/null", os.O_RDONLY) for _ in range(64)]
print("{\"version\": \"1.0.0\"}")'"#;
    s.plugin("host-volume", "files", body);
    let (healthy, reason) = fingerprint(&s, &[], "files");
    assert!(healthy, "{reason}");
    let (healthy, reason) = fingerprint(&s, &["--sandbox", "trim", "--files-max", "16"], "files");
    assert!(!healthy);
    assert!(
        reason.contains(
            "it ran under its open-files cap of 16 (a limit of each process), which it may have hit"
        ),
        "{reason}"
    );
}

#[test]
fn caps_need_a_level_that_has_them_and_verbose_says_how_each_binds() {
    let s = Rig::new();
    s.hv_ok("ok", "1.0.0");
    plugctl(&s)
        .args(["--memory-max", "64MiB", "fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has("caps are part of the trim and strict levels")
        .stderr_has("--sandbox trim or strict");
    plugctl(&s)
        .args(["--sandbox", "trim", "--files-max", "0", "fingerprint"])
        .fails_with(Exit::Usage);
    if !as_root() {
        return;
    }
    let ran = plugctl(&s)
        .args([
            "-v",
            "--sandbox",
            "trim",
            "--cpu-max",
            "5s",
            "--files-max",
            "256",
        ])
        .args(["--memory-max", "1GiB", "fingerprint"])
        .succeeds();
    let err = ran.stderr();
    assert!(
        err.contains("sandbox: trim: applied no-new-privileges, no core dumps, oom_score_adj 0"),
        "{err}"
    );
    assert!(err.contains("CPU cap 5s, enforced by RLIMIT_CPU, for each process apart"));
    assert!(err.contains("open-files cap 256, enforced by RLIMIT_NOFILE, for each process apart"));
    assert!(
        err.contains("memory cap 1 GiB, enforced by the call's own cgroup")
            || err.contains("memory cap 1 GiB, enforced by RLIMIT_AS"),
        "{err}"
    );
    plugctl(&s)
        .args(["-v", "fingerprint"])
        .succeeds()
        .stderr_has("sandbox: none (as a Nomad client runs plugins");
}

/// The variables of the sandbox name themselves as the flags do.
#[test]
fn the_sandbox_is_chosen_by_its_variables_too() {
    let s = Rig::new();
    s.hv_ok("ok", "1.0.0");
    plugctl(&s)
        .env("PLUGCTL_SANDBOX", "paranoid")
        .args(["fingerprint"])
        .fails_with(Exit::Usage)
        .stderr_has("paranoid");
    if !as_root() {
        return;
    }
    plugctl(&s)
        .env("PLUGCTL_SANDBOX", "trim")
        .env("PLUGCTL_FILES_MAX", "128")
        .args(["-v", "fingerprint"])
        .succeeds()
        .stderr_has("sandbox: trim")
        .stderr_has("open-files cap 128");
}

/// A scratch directory outside `/tmp` (which strict hides behind a private
/// one): what a layer must stop there, Landlock stops, not the mount.
fn outside_tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("sandbox")
        .join(format!("{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    make_dir(&d);
    fs::set_permissions(&d, fs::Permissions::from_mode(0o755)).unwrap();
    d
}

/// Whether strict can run here; else the test skips (in CI it fails).
fn strict_runs(s: &Rig) -> bool {
    if !as_root() {
        return false;
    }
    s.hv_ok("plain", "1.0.0");
    let ran = plugctl(s)
        .args(["--sandbox", "strict", "fingerprint", "plain"])
        .any_exit();
    if ran.code() == Some(Exit::Usage.code()) {
        skip_unless_ci(&format!("strict cannot run here: {}", ran.stderr()));
        return false;
    }
    true
}

#[test]
fn strict_lets_a_plain_plugin_run_with_no_capabilities_seccomp_and_a_private_tmp() {
    let s = Rig::new();
    if !strict_runs(&s) {
        return;
    }
    fs::write(s.out_file("marker"), "host").unwrap();
    let body = format!(
        r#"PATH=/usr/bin:/bin
caps=$(awk '/^CapEff/ {{print $2}}' /proc/self/status)
bnd=$(awk '/^CapBnd/ {{print $2}}' /proc/self/status)
sec=$(awk '/^Seccomp:/ {{print $2}}' /proc/self/status)
[ -e '{marker}' ] && seen=yes || seen=no
echo private >/tmp/plugctl-sandbox-private-probe && tmp=writable || tmp=no
echo "REPORT caps=$caps bnd=$bnd seccomp=$sec marker=$seen tmp=$tmp cwd=$(pwd)" >&2
exit 1"#,
        marker = s.out_file("marker").display()
    );
    s.plugin("host-volume", "looks", &body);
    let none = report(&s, &[], "looks");
    assert_ne!(field(&none, "caps"), "0000000000000000", "{none}");
    assert_eq!(field(&none, "seccomp"), "0", "{none}");
    assert_eq!(field(&none, "marker"), "yes", "{none}");
    let strict = report(&s, &["--sandbox", "strict"], "looks");
    assert_eq!(field(&strict, "caps"), "0000000000000000", "{strict}");
    assert_eq!(field(&strict, "bnd"), "0000000000000000", "{strict}");
    assert_eq!(field(&strict, "seccomp"), "2", "{strict}");
    // The node's /tmp is not there (the rig lives in it), but a /tmp of
    // its own is, writable, and gone after.
    assert_eq!(field(&strict, "marker"), "no", "{strict}");
    assert_eq!(field(&strict, "tmp"), "writable", "{strict}");
    assert_eq!(field(&strict, "cwd"), "/", "{strict}");
    assert!(
        !Path::new("/tmp/plugctl-sandbox-private-probe").exists() || {
            // Written by the none run above: that is the node's own /tmp.
            let _ = fs::remove_file("/tmp/plugctl-sandbox-private-probe");
            true
        }
    );
    let again = report(&s, &["--sandbox", "strict"], "looks");
    assert_eq!(field(&again, "tmp"), "writable", "{again}");
    assert!(
        !Path::new("/tmp/plugctl-sandbox-private-probe").exists(),
        "strict's /tmp reached the node's"
    );
}

#[test]
fn writing_etc_is_allowed_under_none_and_stopped_by_landlock_under_strict() {
    let s = Rig::new();
    if !strict_runs(&s) {
        return;
    }
    s.plugin(
        "host-volume",
        "etc-writer",
        "echo owned >/etc/plugctl-sandbox-probe && echo '{\"version\": \"1.0.0\"}'",
    );
    // The node's /etc is never the target: a tmpfs over it, in a mount
    // namespace of the test's own, whatever the level.
    let Some(ns) = in_mount_namespace(
        &s,
        r#"mount -t tmpfs tmpfs /etc || exit 1
"$PLUGCTL" --json fingerprint etc-writer >"$OUT/none.json"
[ -e /etc/plugctl-sandbox-probe ] && echo wrote >"$OUT/none.wrote"
rm -f /etc/plugctl-sandbox-probe
"$PLUGCTL" --json --sandbox strict fingerprint etc-writer >"$OUT/strict.json"
[ -e /etc/plugctl-sandbox-probe ] && echo wrote >"$OUT/strict.wrote"
exit 0"#,
    ) else {
        return;
    };
    ns.succeeds();
    let read = |f: &str| -> serde_json::Value {
        serde_json::from_slice(&fs::read(s.out_file(f)).unwrap()).unwrap()
    };
    let none = read("none.json");
    assert_eq!(
        row(&none, "host-volume", "etc-writer")["healthy"],
        true,
        "{none}"
    );
    assert!(s.out_file("none.wrote").exists());
    let strict = read("strict.json");
    let r = row(&strict, "host-volume", "etc-writer");
    assert_eq!(r["healthy"], false, "{strict}");
    assert!(
        r["error"].as_str().unwrap().contains("Permission denied"),
        "{r}"
    );
    assert!(!s.out_file("strict.wrote").exists());
    assert!(!Path::new("/etc/plugctl-sandbox-probe").exists());
}

#[test]
fn a_root_only_file_elsewhere_is_read_under_none_and_not_under_strict() {
    let s = Rig::new();
    if !strict_runs(&s) {
        return;
    }
    let dir = outside_tmp("secret");
    let secret = dir.join("root-only");
    fs::write(&secret, "TOPSECRET\n").unwrap();
    fs::set_permissions(&secret, fs::Permissions::from_mode(0o600)).unwrap();
    s.plugin(
        "host-volume",
        "reader",
        &format!(
            "PATH=/usr/bin:/bin\ngrep -q TOPSECRET '{}' && echo '{{\"version\": \"1.0.0\"}}'",
            secret.display()
        ),
    );
    let (healthy, reason) = fingerprint(&s, &[], "reader");
    assert!(healthy, "{reason}");
    let (healthy, reason) = fingerprint(&s, &["--sandbox", "strict"], "reader");
    assert!(!healthy);
    // Landlock refuses it; from a clone under /tmp the file lies in the
    // /tmp strict replaces with an empty one of the call's own, where it
    // is not there at all.
    let in_tmp = secret.starts_with("/tmp");
    assert!(
        reason.contains("Permission denied")
            || (in_tmp && reason.contains("No such file or directory")),
        "{reason}"
    );
    // trim has no Landlock: it reads it.
    let (healthy, reason) = fingerprint(&s, &["--sandbox", "trim"], "reader");
    assert!(healthy, "{reason}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_fingerprint_reaches_a_local_listener_under_none_and_no_network_under_strict() {
    let s = Rig::new();
    if !strict_runs(&s) || !tool_available("python3", "a plugin that connects") {
        return;
    }
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    s.file(
        "host-volume",
        "caller",
        &format!(
            "#!/usr/bin/python3 -I
import socket
socket.create_connection(('127.0.0.1', {port}), timeout=5).close()
print('{{\"version\": \"1.0.0\"}}')
"
        ),
        0o755,
    );
    let (healthy, reason) = fingerprint(&s, &[], "caller");
    assert!(healthy, "{reason}");
    let (healthy, reason) = fingerprint(&s, &["--sandbox", "strict"], "caller");
    assert!(!healthy);
    assert!(reason.contains("Network is unreachable"), "{reason}");
}

/// A python plugin that makes one raw system call and answers only when
/// `ok` (a Python expression over `r`, its result, and `e`, its errno)
/// holds; else it says the errno.
fn syscall_plugin(s: &Rig, name: &str, call: &str, ok: &str) {
    s.file(
        "host-volume",
        name,
        &format!(
            "#!/usr/bin/python3 -I
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
r = {call}
e = ctypes.get_errno()
if {ok}:
    print('{{\"version\": \"1.0.0\"}}')
else:
    sys.exit('REPORT errno=%d %s' % (e, os.strerror(e)))
"
        ),
        0o755,
    );
}

#[test]
fn ptrace_of_its_parent_works_under_none_and_is_refused_under_strict() {
    let s = Rig::new();
    if !strict_runs(&s) || !tool_available("python3", "a plugin that calls ptrace") {
        return;
    }
    // PTRACE_SEIZE (0x4206) stops nothing; the link goes when it exits.
    syscall_plugin(
        &s,
        "tracer",
        "libc.syscall(101, 0x4206, os.getppid(), 0, 0)",
        "r == 0",
    );
    let (healthy, reason) = fingerprint(&s, &[], "tracer");
    assert!(healthy, "{reason}");
    let r = report(&s, &["--sandbox", "strict"], "tracer");
    assert_eq!(field(&r, "errno"), "1", "EPERM: {r}");
}

#[test]
fn loading_a_kernel_module_reaches_the_kernel_under_none_and_is_refused_under_strict() {
    let s = Rig::new();
    if !strict_runs(&s) || !tool_available("python3", "a plugin that loads a module") {
        return;
    }
    // init_module(2) with 64 bytes of garbage: the kernel refuses it as no
    // module (EINVAL, ENOEXEC), or has no modules at all (ENOSYS); never
    // loads it. Only a refusal of the call itself is EPERM.
    syscall_plugin(
        &s,
        "loader",
        "libc.syscall(175, ctypes.create_string_buffer(64), 64, b'')",
        "r != 0 and e != 1",
    );
    let (healthy, reason) = fingerprint(&s, &[], "loader");
    if !healthy && reason.contains("errno=1 ") {
        skip_unless_ci("this kernel refuses module loading to root itself");
        return;
    }
    assert!(healthy, "{reason}");
    let r = report(&s, &["--sandbox", "strict"], "loader");
    assert_eq!(field(&r, "errno"), "1", "EPERM: {r}");
}

#[test]
fn a_setuid_program_gives_privileges_back_under_none_and_not_under_trim_or_strict() {
    let s = Rig::new();
    if !strict_runs(&s) || !tool_available("cc", "a setuid helper") {
        return;
    }
    let dir = outside_tmp("setuid");
    let src = dir.join("euid.c");
    fs::write(
        &src,
        "#include <stdio.h>\n#include <unistd.h>\nint main(void){printf(\"%d\\n\", (int)geteuid());return 0;}\n",
    )
    .unwrap();
    let helper = dir.join("euid");
    tool("cc").arg("-o").arg(&helper).arg(&src).succeeds();
    fs::set_permissions(&helper, fs::Permissions::from_mode(0o4755)).unwrap();
    // The plugin drops to nobody, then runs the setuid-root helper: its
    // euid is 0 again unless no-new-privileges holds.
    s.plugin(
        "host-volume",
        "climber",
        &format!(
            "PATH=/usr/bin:/bin
e=$(setpriv --reuid=65534 --regid=65534 --clear-groups '{}')
[ \"$e\" = 0 ] && echo '{{\"version\": \"1.0.0\"}}' && exit 0
echo \"REPORT euid=${{e:-none}}\" >&2; exit 1",
            helper.display()
        ),
    );
    let (healthy, reason) = fingerprint(&s, &[], "climber");
    assert!(healthy, "none: the setuid bit works: {reason}");
    let trim = report(&s, &["--sandbox", "trim"], "climber");
    assert_eq!(field(&trim, "euid"), "65534", "{trim}");
    // Under strict it cannot even become nobody (no CAP_SETUID), nor run
    // the helper (Landlock): nothing is gained.
    let strict = report(&s, &["--sandbox", "strict"], "climber");
    assert_eq!(field(&strict, "euid"), "none", "{strict}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_unix_socket_in_run_is_reached_under_none_and_hidden_under_strict() {
    let s = Rig::new();
    if !strict_runs(&s) || !tool_available("python3", "a plugin that connects") {
        return;
    }
    // A node service's socket in /run (removed when the test ends).
    let path = PathBuf::from(format!(
        "/run/plugctl-sandbox-test-{}.sock",
        std::process::id()
    ));
    let _ = fs::remove_file(&path);
    let listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
    struct Gone(PathBuf);
    impl Drop for Gone {
        fn drop(&mut self) {
            let _ = fs::remove_file(&self.0);
        }
    }
    let _gone = Gone(path.clone());
    std::thread::spawn(move || {
        for c in listener.incoming() {
            drop(c);
        }
    });
    s.file(
        "host-volume",
        "dialer",
        &format!(
            "#!/usr/bin/python3 -I
import socket
c = socket.socket(socket.AF_UNIX)
c.connect('{}')
print('{{\\\"version\\\": \\\"1.0.0\\\"}}')
",
            path.display()
        ),
        0o755,
    );
    let (healthy, reason) = fingerprint(&s, &[], "dialer");
    assert!(healthy, "{reason}");
    let (healthy, reason) = fingerprint(&s, &["--sandbox", "strict"], "dialer");
    assert!(!healthy);
    assert!(reason.contains("No such file or directory"), "{reason}");
}

/// A confined call takes steps between fork and exec, and its exec is
/// still execve(2) itself, last: a file the kernel refuses with ENOEXEC
/// (an ELF cut short; a script without `#!`) is an exec format error, as
/// Nomad (Go) reports it, never run through /bin/sh as execvp would.
#[test]
fn a_confined_call_is_never_run_through_the_shell_when_exec_refuses_it() {
    let s = Rig::new();
    if !strict_runs(&s) {
        return;
    }
    s.file("host-volume", "cut-elf", "\x7fELF\x02\x01\x01\0\0\0", 0o755);
    let ran = s.out_file("bare-ran");
    s.file(
        "host-volume",
        "bare",
        &format!(
            "touch '{}'\necho '{{\"version\": \"1.0.0\"}}'\n",
            ran.display()
        ),
        0o755,
    );
    for args in [
        &["--sandbox", "trim", "--files-max", "64"][..],
        &["--sandbox", "strict"],
    ] {
        for name in ["cut-elf", "bare"] {
            let (healthy, reason) = fingerprint(&s, args, name);
            assert!(!healthy, "{args:?} {name}: {reason}");
            assert!(
                reason.contains("exec format error"),
                "{args:?} {name}: {reason}"
            );
        }
    }
    assert!(!ran.exists(), "a shell ran the script without #!");
}

/// A layer the node cannot give is never skipped in silence: plugctl
/// without `CAP_SYS_ADMIN` (a bounding set without it, as a hardened unit
/// may leave it out) cannot make strict's network and mount namespaces,
/// and `--sandbox strict` stops with exit 2 naming both and the flag that
/// lets it go on; with `--sandbox-best-effort` the plugin runs under the
/// rest, a warning names each layer left out, and `-v` says which were
/// applied and which not.
#[test]
fn a_layer_the_node_lacks_is_exit_2_unless_best_effort_says_what_it_leaves_out() {
    let s = Rig::new();
    if !strict_runs(&s) || !tool_available("setpriv", "plugctl without CAP_SYS_ADMIN") {
        return;
    }
    let without_admin = || {
        crate::common::expect::Run::new(s.command("setpriv"), "setpriv").args([
            "--bounding-set=-sys_admin",
            "--inh-caps=-sys_admin",
            "--",
            PLUGCTL,
        ])
    };
    without_admin()
        .args(["--sandbox", "strict", "fingerprint", "plain"])
        .fails_with(Exit::Usage)
        .stderr_has("the strict sandbox needs what this node does not give")
        .stderr_has("no network")
        .stderr_has("private /tmp")
        .stderr_has("CAP_SYS_ADMIN")
        .stderr_has("--sandbox-best-effort");
    let ran = without_admin()
        .args(["-v", "--sandbox", "strict", "--sandbox-best-effort"])
        .args(["fingerprint", "plain"])
        .succeeds()
        .stderr_has("warning: --sandbox strict without no network")
        .stderr_has("sandbox: private /tmp NOT applied");
    let applied = ran
        .stderr()
        .lines()
        .find(|l| l.contains("sandbox: strict: applied"))
        .unwrap_or_else(|| panic!("no applied line: {}", ran.stderr()))
        .to_string();
    for layer in ["no-new-privileges", "Landlock", "seccomp"] {
        assert!(applied.contains(layer), "{layer}: {applied}");
    }
    assert!(!applied.contains("no network"), "{applied}");
    // With the capability, nothing is left out and no flag is needed.
    plugctl(&s)
        .args(["-v", "--sandbox", "strict", "fingerprint", "plain"])
        .succeeds()
        .stderr_has("no network, private /tmp")
        .stderr_lacks("NOT applied");
}

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
#[allow(dead_code)]
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
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
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

/// Where plugins and scratch files live for a test (never the node's).
#[allow(dead_code)]
fn target_tmp() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sandbox");
    make_dir(&d);
    fs::set_permissions(&d, fs::Permissions::from_mode(0o755)).unwrap();
    d
}

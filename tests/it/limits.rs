//! plugctl at its own limits, through the real binary run as an
//! unprivileged user under `prlimit` (RLIMIT_NPROC binds only a non-root
//! user): its shortage of processes or descriptors is its own error —
//! never a panic, never a hang, never a plugin recorded unhealthy.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::process::Command;
use std::time::Duration;

use crate::common::*;
use serde_json::Value;

/// A world-readable tree of `n` trivial plugins that user 65534 can use
/// (its registry goes in a sticky directory, as /tmp).
fn tree(n: usize) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    let hv = root.join("plugins/host-volume");
    make_dir(&hv);
    for i in 0..n {
        let p = hv.join(format!("p{i:04}"));
        fs::write(&p, "#!/bin/sh\necho '{\"version\": \"1.0.0\"}'\n").unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o755)).unwrap();
    }
    for d in [root.join("plugins"), hv] {
        fs::set_permissions(&d, fs::Permissions::from_mode(0o755)).unwrap();
    }
    fs::set_permissions(&root, fs::Permissions::from_mode(0o1777)).unwrap();
    (dir, root)
}

/// plugctl as user 65534 under `prlimit LIMIT`, killed after 60 s (a hang
/// fails the test).
fn limited(root: &std::path::Path, limit: &str, args: &[&str]) -> expect::Run {
    let mut cmd = Command::new("setpriv");
    cmd.env_clear()
        .env("HOME", root)
        .env("PATH", "/usr/bin:/bin")
        .env("PLUGCTL_NOMAD_CONFIG", "none");
    expect::Run::new(cmd, "setpriv")
        .args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "prlimit",
            limit,
            PLUGCTL,
        ])
        .arg("--plugin-dir")
        .arg(root.join("plugins"))
        .arg("--registry")
        .arg(root.join("state/registry.json"))
        .args_from(args)
        .deadline(Duration::from_secs(60))
}

fn root_or_skip() -> bool {
    if !nix::unistd::geteuid().is_root() {
        eprintln!("SKIPPED: needs root to run plugctl as another user under prlimit");
        return false;
    }
    true
}

#[test]
fn too_few_processes_is_plugctls_error_not_a_panic_and_blames_no_plugin() {
    if !root_or_skip() {
        return;
    }
    let (_keep, root) = tree(40);
    // Whether it fails depends on whether every plugin got its turn: the
    // exit code is read after the document.
    let out = limited(&root, "--nproc=2", &["--json", "fingerprint"])
        .any_exit()
        .stderr_lacks("panicked")
        .stderr_lacks("RUST_BACKTRACE");
    let err = stderr(&out);
    assert_ne!(out.code(), Some(101), "{err}");
    let doc = out.json();
    let rows = doc["plugins"].as_array().unwrap();
    let not_run: Vec<&Value> = rows.iter().filter(|p| p["not_run"] == true).collect();
    if not_run.is_empty() {
        // All got their turn: then all are healthy.
        assert!(rows.iter().all(|p| p["healthy"] == true), "{doc}");
        return;
    }
    assert_eq!(out.code(), Some(1), "{err}");
    for p in &not_run {
        let reason = p["error"].as_str().unwrap();
        assert!(
            reason.contains("plugctl ran out of processes or threads"),
            "{reason}"
        );
        assert!(reason.contains("ulimit -u"), "{reason}");
    }
    assert!(err.contains("not run: plugctl ran out of"), "{err}");
    // Nothing recorded for a plugin that never started: no unhealthy
    // instance, no health-change event.
    let reg: Value =
        serde_json::from_slice(&fs::read(root.join("state/registry.json")).unwrap()).unwrap();
    // Every event in the journal beside it, committed or not.
    let events: Vec<Value> = fs::read_dir(root.join("state"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains(".journal."))
        .flat_map(|e| {
            fs::read_to_string(e.path())
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap())
                .collect::<Vec<_>>()
        })
        .filter(|l| l.get("seq").is_some())
        .collect();
    assert!(!events.is_empty() || not_run.len() == 40, "no event at all");
    for p in &not_run {
        let name = p["name"].as_str().unwrap();
        assert!(
            reg["plugins"]["host-volume"][name].is_null(),
            "{name} recorded: {reg}"
        );
    }
    for e in &events {
        assert_ne!(
            e["healthy"], false,
            "a health event for plugctl's shortage: {e}"
        );
    }
}

#[test]
fn few_open_files_lowers_concurrency_and_every_plugin_is_healthy() {
    if !root_or_skip() {
        return;
    }
    let (_keep, root) = tree(300);
    let doc = limited(&root, "--nofile=64:64", &["--json", "fingerprint"])
        .succeeds()
        .stderr_has("--concurrency 64 lowered to")
        .stderr_has("ulimit -n")
        .json();
    let rows = doc["plugins"].as_array().unwrap();
    assert_eq!(
        rows.iter().filter(|p| p["healthy"] == true).count(),
        rows.len(),
        "{doc}"
    );
}

#[test]
fn the_soft_open_file_limit_is_raised_to_the_hard_one() {
    if !root_or_skip() {
        return;
    }
    let (_keep, root) = tree(1);
    fs::write(
        root.join("plugins/host-volume/p0000"),
        "#!/bin/sh\ncat /proc/$PPID/limits >&2\necho '{\"version\": \"1.0.0\"}'\n",
    )
    .unwrap();
    limited(&root, "--nofile=64:4096", &["-v", "fingerprint", "p0000"])
        .succeeds()
        .stderr_lacks("lowered");
}

#[test]
fn a_registry_too_big_for_the_memory_limit_is_an_error_not_an_abort() {
    let s = Rig::new();
    make_dir(s.registry.parent().unwrap());
    // About 15 MB of valid volumes.
    let mut vols = Vec::new();
    for i in 0..30_000u32 {
        let id = format!("00000000-0000-4000-8000-{i:012x}");
        vols.push(format!(
            r#""{id}": {{"id": "{id}", "name": "v{i}", "namespace": "default", "plugin": "mkdir", "node_id": "n", "node_pool": "default", "capacity_min": 0, "capacity_max": 0, "parameters": {{}}, "path": "/v/{id}", "bytes": 0, "state": "ready", "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z", "padding": "{pad}"}}"#,
            pad = "x".repeat(300)
        ));
    }
    s.write_registry(format!(
        r#"{{"schema_version": 1, "volumes": {{{}}}}}"#,
        vols.join(",")
    ));
    let size = fs::metadata(&s.registry).unwrap().len();
    assert!(size > 10 << 20, "{size}");
    // Exit 1, not killed by a signal (an abort).
    let err = expect::Run::new(s.command("prlimit"), "prlimit")
        .arg(format!("--as={}", 48u64 << 20))
        .arg(PLUGCTL)
        .args(["volume", "list"])
        .fails_with(Exit::Failure)
        .stderr();
    assert!(
        err.contains("ran out of memory") && err.contains("ulimit -v"),
        "{err}"
    );
    // The figures are the rule's: three times the file and 64 MiB, against
    // the limit set.
    let need = (size * 3 + (64 << 20)) >> 20;
    assert!(
        err.contains(&format!("needs about {need} MiB")) && err.contains("limit is 48 MiB"),
        "{err}"
    );
    // With room, the same registry reads.
    plugctl(&s).args(["volume", "list", "--json"]).succeeds();
}

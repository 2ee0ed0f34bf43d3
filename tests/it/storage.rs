//! The registry where writing fails: a directory plugctl may not write in,
//! a full file system, a read-only one. Each is a clear error naming the
//! registry, with the exit code of its class (docs/cli.md: 2 for what the
//! operator must fix where the registry lives, 1 for an operation that
//! failed), and the old file is left exactly as it was, with no temporary
//! file behind.
//!
//! Root ignores directory permissions, so the unwritable case runs plugctl
//! as an unprivileged uid. The full and read-only file systems need a mount
//! namespace (`unshare -m`); where that is not permitted those cases say so
//! and are skipped (the full file system is also covered by RLIMIT_FSIZE,
//! which needs nothing).

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;

use crate::common::*;
use serde_json::Value;

const REGISTER: [&str; 10] = register_args("csi-node", "ebs", "new-alloc", "/run/ebs.sock");

/// A rig whose registry holds something, as root wrote it.
fn with_registry() -> (Rig, Vec<u8>) {
    let s = Rig::new();
    for alloc in ["a1", "a2", "a3"] {
        register(&s, "csi-node", "ebs", alloc, "/run/ebs.sock");
    }
    let before = fs::read(&s.registry).unwrap();
    (s, before)
}

/// The `error` of the JSON document a run inside the mount namespace wrote
/// to `$OUT/stdout` (its stderr went to `$OUT/stderr`).
fn namespaced_error_doc(s: &Rig) -> Value {
    let (out, err) = (s.read_out("stdout"), s.read_out("stderr"));
    let doc: Value = serde_json::from_str(&out)
        .unwrap_or_else(|e| panic!("stdout is not one JSON document ({e}): {out}\nstderr: {err}"));
    doc["error"].clone()
}

/// The old file is byte for byte what it was, and nothing else was left.
fn assert_intact(s: &Rig, before: &[u8]) {
    assert_eq!(
        fs::read(&s.registry).unwrap(),
        before,
        "the registry changed"
    );
    let dir = s.registry.parent().unwrap();
    for e in fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        assert!(!name.ends_with(".tmp"), "temporary file {name} left behind");
    }
}

/// The registry's directory belongs to root (0755); plugctl runs as nobody.
/// Without root the directory is made read-only for its owner instead.
#[test]
fn unwritable_directory() {
    let (s, before) = with_registry();
    let dir = s.registry.parent().unwrap().to_path_buf();
    let mut program = PathBuf::from(PLUGCTL);
    if is_root() {
        // nobody must reach the binary and the rig
        fs::set_permissions(s.root(), fs::Permissions::from_mode(0o755)).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        // The registry and its journal, readable by all.
        for f in fs::read_dir(&dir).unwrap().flatten() {
            if f.file_name().to_string_lossy().starts_with("registry.json") && f.path().is_file() {
                fs::set_permissions(f.path(), fs::Permissions::from_mode(0o644)).unwrap();
            }
        }
        let copy = s.root().join("plugctl");
        if fs::hard_link(&program, &copy).is_err() {
            fs::copy(&program, &copy).unwrap();
        }
        program = copy;
    } else {
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o555)).unwrap();
    }
    let run = |what: &str| {
        let mut cmd = s.command(&program);
        if is_root() {
            cmd.uid(65534).gid(65534);
        }
        let out = expect::Run::new(cmd, "plugctl")
            .arg("--json")
            .args(REGISTER)
            .fails_with(Exit::Usage);
        let e = out.error();
        assert_eq!(e["kind"], "registry", "{what}: {e}");
        let message = e["message"].as_str().unwrap();
        for needle in [
            s.registry.to_str().unwrap(),
            "Permission denied",
            "needs read and write access to",
        ] {
            assert!(message.contains(needle), "{what}: {needle:?} in {message}");
        }
        // What to do is a hint of its own, a tip line on stderr.
        assert_eq!(
            e["hints"],
            serde_json::json!(["fix the permissions or choose another --registry"]),
            "{what}: {e}"
        );
        assert!(
            stderr(&out).contains("\n  tip: fix the permissions or choose another --registry\n"),
            "{}",
            stderr(&out)
        );
        assert!(stderr(&out).contains(message), "{}", stderr(&out));
        assert_intact(&s, &before);
        message.to_string()
    };
    // The lock file belongs to root: it cannot even be opened.
    let message = run("lock file not writable");
    assert!(message.contains("cannot open its lock file"), "{message}");
    if is_root() {
        // With a lock file and a journal it may use, the temporary file is
        // refused.
        for f in fs::read_dir(&dir).unwrap().flatten() {
            let name = f.file_name().to_string_lossy().into_owned();
            if name == "registry.json.lock" || name.starts_with("registry.json.journal.") {
                nix::unistd::chown(&f.path(), Some(nix::unistd::Uid::from_raw(65534)), None)
                    .unwrap();
            }
        }
        let message = run("directory not writable");
        assert!(
            message.contains("left unchanged: cannot create a temporary file"),
            "{message}"
        );
    }
    // Reading is still fine.
    let mut cmd = s.command(&program);
    if is_root() {
        cmd.uid(65534).gid(65534);
    }
    expect::Run::new(cmd, "plugctl")
        .args(["--json", "plugin", "list"])
        .succeeds();
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
}

/// RLIMIT_FSIZE below the registry's size, SIGXFSZ ignored: every write
/// past the limit fails with EFBIG, as on a file system that is full.
#[test]
fn full_file_system_by_file_size_limit() {
    use nix::sys::resource::{Resource, setrlimit};
    use nix::sys::signal::{SigHandler, Signal, signal};

    let (s, before) = with_registry();
    assert!(before.len() > 512, "the registry is too small to overflow");
    let mut cmd = s.std_cmd();
    // SAFETY: between fork and exec only async-signal-safe calls are made:
    // setrlimit(2) and signal(2).
    unsafe {
        cmd.pre_exec(|| {
            setrlimit(Resource::RLIMIT_FSIZE, 512, 512)?;
            signal(Signal::SIGXFSZ, SigHandler::SigIgn)?;
            Ok(())
        });
    }
    let e = expect::Run::new(cmd, "plugctl")
        .arg("--json")
        .args(REGISTER)
        .fails_with(Exit::Failure)
        .error();
    assert_eq!(e["kind"], "io", "{e}");
    let message = e["message"].as_str().unwrap();
    for needle in [
        s.registry.to_str().unwrap(),
        // The journal's append is the first write of a transaction.
        "left unchanged: cannot append to its journal",
        "File too large",
    ] {
        assert!(message.contains(needle), "{needle:?} in {message}");
    }
    assert_intact(&s, &before);
    // Room again: the same command succeeds.
    plugctl(&s).args_from(REGISTER).succeeds();
}

/// A tmpfs that is really full (ENOSPC), mounted over the registry's
/// directory with the registry copied in.
#[test]
fn full_file_system_by_tmpfs() {
    let (s, before) = with_registry();
    let Some(run) = in_mount_namespace(
        &s,
        r#"set -e
mkdir "$OUT/original"
cp "$STATE"/registry.json "$STATE"/registry.json.journal.* "$OUT/original/"
mount -t tmpfs -o size=64k,mode=0700 tmpfs "$STATE"
cp "$OUT"/original/* "$STATE/"
: > "$STATE/registry.json.lock"
dd if=/dev/zero of="$STATE/fill" bs=4096 2>/dev/null || true
"$PLUGCTL" --json plugin register --type csi-node --name ebs --alloc-id new-alloc \
  --socket /run/ebs.sock > "$OUT/stdout" 2> "$OUT/stderr" || echo $? > "$OUT/code"
cp "$STATE/registry.json" "$OUT/after.json"
ls -a "$STATE" > "$OUT/entries""#,
    ) else {
        return;
    };
    run.succeeds();
    assert_eq!(s.read_out("code").trim(), "1", "{}", s.read_out("stderr"));
    let e = &namespaced_error_doc(&s);
    assert_eq!(e["kind"], "io", "{e}");
    let message = e["message"].as_str().unwrap();
    for needle in [
        s.registry.to_str().unwrap(),
        "left unchanged",
        "No space left on device",
    ] {
        assert!(message.contains(needle), "{needle:?} in {message}");
    }
    assert_eq!(fs::read(s.out_file("after.json")).unwrap(), before);
    let entries = s.read_out("entries");
    assert!(!entries.contains(".tmp"), "{entries}");
}

/// The registry's directory bind-mounted read-only.
#[test]
fn read_only_file_system() {
    let (s, before) = with_registry();
    let Some(run) = in_mount_namespace(
        &s,
        r#"set -e
mount --bind "$STATE" "$STATE"
mount -o remount,bind,ro "$STATE"
"$PLUGCTL" --json plugin register --type csi-node --name ebs --alloc-id new-alloc \
  --socket /run/ebs.sock > "$OUT/stdout" 2> "$OUT/stderr" || echo $? > "$OUT/code"
"$PLUGCTL" --json plugin list > "$OUT/list" 2>&1 || echo $? > "$OUT/list-code""#,
    ) else {
        return;
    };
    run.succeeds();
    assert_eq!(s.read_out("code").trim(), "2", "{}", s.read_out("stderr"));
    let e = &namespaced_error_doc(&s);
    assert_eq!(e["kind"], "registry", "{e}");
    let message = e["message"].as_str().unwrap();
    for needle in [
        s.registry.to_str().unwrap(),
        "Read-only file system",
        "is on a read-only file system",
    ] {
        assert!(message.contains(needle), "{needle:?} in {message}");
    }
    assert_eq!(
        e["hints"],
        serde_json::json!(["choose another --registry"]),
        "{e}"
    );
    assert!(s.read_out("stderr").contains(message));
    // reading a read-only registry is fine
    assert_eq!(s.read_out("list-code"), "", "{}", s.read_out("list"));
    assert_intact(&s, &before);
}

/// A registry path that is a directory, or under a file, is a configuration
/// error (exit 2) that says so.
#[test]
fn a_registry_path_that_cannot_be_a_file() {
    let s = Rig::new();
    let dir = s.root().join("regdir");
    std::fs::create_dir(&dir).unwrap();
    let file = s.root().join("a-file");
    std::fs::write(&file, "x").unwrap();
    for (registry, needle) in [
        (dir.clone(), "must name a regular file"),
        (file.join("registry.json"), "is a file, not a directory"),
    ] {
        for args in [&["plugin", "list"][..], &["fingerprint"][..]] {
            plugctl(&s)
                .env("PLUGCTL_REGISTRY", &registry)
                .args_from(args)
                .fails_with(Exit::Usage)
                .stderr_has(needle);
        }
    }
    assert_eq!(std::fs::read(&file).unwrap(), b"x");
}

//! Nomad fidelity: what plugctl says about a plugin matches what a Nomad
//! node would do with it, per family and per output shape
//! (docs/protocol.md, "Which Nomad release").

use crate::common::*;

#[test]
fn bad_fingerprints_say_what_nomad_does_per_family() {
    let s = Rig::new();
    for (name, output) in [
        ("bare-null", "null"),
        ("empty", "{}"),
        ("no-version", r#"{"type": "secrets"}"#),
    ] {
        s.plugin("secrets", name, &format!("echo '{output}'"));
        s.plugin("host-volume", name, &format!("echo '{output}'"));
    }
    let doc = plugctl(&s)
        .args(["--json", "fingerprint"])
        .any_exit()
        .json();
    let reason = |family: &str, name: &str| {
        row(&doc, family, name)["error"]
            .as_str()
            .unwrap()
            .to_string()
    };
    // Host volumes: an unset version crashes the client, whatever the shape.
    for name in ["bare-null", "empty", "no-version"] {
        assert!(
            reason("host-volume", name).contains("crashes the client"),
            "{name}: {}",
            reason("host-volume", name)
        );
    }
    // Secrets: a bare null crashes it; a missing type or version is skipped.
    assert!(
        reason("secrets", "bare-null")
            .contains("bare null (on a Nomad node this crashes the client)")
    );
    assert!(
        reason("secrets", "empty").contains("silently ignores"),
        "{}",
        reason("secrets", "empty")
    );
    let nv = reason("secrets", "no-version");
    assert!(
        nv.contains("silently skips") && !nv.contains("crash"),
        "{nv}"
    );
}

/// Nomad never places a volume on a node whose fingerprint did not report
/// its plugin, nor registers a secrets provider whose fingerprint failed:
/// refused before the plugin runs, nothing recorded.
#[test]
fn a_plugin_whose_last_fingerprint_failed_is_unavailable() {
    let s = Rig::new();
    let ran = s.out_file("ran");
    let broken = |family: &str| {
        s.plugin(
            family,
            "flaky",
            &format!(
                r#"[ "$1" = fingerprint ] && exit 1; echo "$1" >> '{}'; echo '{{}}'"#,
                ran.display()
            ),
        );
    };
    broken("host-volume");
    broken("secrets");
    plugctl(&s).args(["fingerprint"]).fails_with(Exit::Failure);
    let before = std::fs::read(&s.registry).unwrap();
    plugctl(&s)
        .args(["volume", "create", "--plugin", "flaky", "--name", "v"])
        .fails_with(Exit::Usage)
        .stderr_has("unavailable for create: its last fingerprint failed");
    plugctl(&s)
        .args(["secret", "fetch", "flaky", "app/db"])
        .fails_with(Exit::Usage)
        .stderr_has("unavailable for fetch");
    assert!(!ran.exists(), "an unavailable plugin ran");
    assert_eq!(
        std::fs::read(&s.registry).unwrap(),
        before,
        "something was recorded"
    );
    // Healthy again after a fingerprint: used.
    s.hv_ok("flaky", "1.0.0");
    plugctl(&s)
        .args(["fingerprint", "--type", "host-volume"])
        .succeeds();
    plugctl(&s)
        .args(["volume", "create", "--plugin", "mkdir", "--name", "m"])
        .succeeds();
}

// ---------------------------------------------------------------------------
// Release profiles (--nomad-version): one test per row of the release table in docs/protocol.md
// ---------------------------------------------------------------------------

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant};

use serde_json::Value;

/// The mode of the directory the built-in mkdir makes for `mode=0777` as
/// `release`, run under `umask`.
fn mkdir_0777_under(s: &Rig, umask: &str, release: &str, name: &str) -> u32 {
    let doc = plugctl_with_umask(s, umask)
        .args([
            "--json",
            "--nomad-version",
            release,
            "volume",
            "create",
            "--plugin",
            "mkdir",
            "--name",
            name,
            "--param",
            "mode=0777",
        ])
        .succeeds()
        .json();
    mode(doc["volume"]["path"].as_str().unwrap())
}

/// `secret fetch --dry-run --json` of a recording plugin as `release`
/// (None: the default), with `extra` arguments: the one call it would make.
fn planned_fetch(s: &Rig, release: Option<&str>, extra: &[&str]) -> Value {
    s.secrets_ok("rec");
    let mut args = Vec::new();
    if let Some(r) = release {
        args.extend(["--nomad-version", r]);
    }
    args.extend(["secret", "fetch", "rec", "app/db", "--dry-run"]);
    args.extend(extra);
    let doc = plugctl(s).arg("--json").args_from(&args).succeeds().json();
    assert_eq!(doc["dry_run"], true);
    doc["calls"][0].clone()
}

fn env_of(call: &Value) -> Vec<String> {
    let mut env: Vec<String> = call["env"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    env.sort();
    env
}

/// The matrix cell of one plugin on one release in a `validate --json`.
fn cell<'a>(doc: &'a Value, plugin: &str, release: &str) -> &'a Value {
    let row = doc["matrix"]["plugins"]
        .as_array()
        .unwrap_or_else(|| panic!("no matrix: {doc:#}"))
        .iter()
        .find(|p| p["plugin"] == plugin)
        .unwrap_or_else(|| panic!("no matrix row for {plugin}: {doc:#}"));
    row["releases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["release"] == release)
        .unwrap_or_else(|| panic!("no {release} cell for {plugin}: {row:#}"))
}

/// 1.10.0: host-volume plugins exist, no release before does; the built-in
/// mkdir has no chmod after mkdir, so the umask wins over `mode`.
#[test]
fn release_1_10_0_has_host_volumes_and_a_mkdir_whose_mode_the_umask_trims() {
    let s = Rig::new();
    for before in ["1.9.7", "1.9", "0.12.0"] {
        plugctl(&s)
            .args(["--json", "--nomad-version", before, "fingerprint"])
            .fails_with(Exit::Usage)
            .error_has("runs no common plugins")
            .error_has("1.10.0")
            .error_has("1.10.x, 1.11.x and 2.0.x");
    }
    assert_eq!(
        mkdir_0777_under(&s, "022", "1.10.0", "old"),
        0o755,
        "1.10.0: the umask wins"
    );
    assert_eq!(
        mkdir_0777_under(&s, "022", "1.10", "old-short"),
        0o755,
        "1.10 is 1.10.0"
    );
}

/// Every release: a host-volume fingerprint gets 1 s in practice, so one
/// that takes 1.5 s works on no release.
#[test]
fn every_release_gives_a_host_volume_fingerprint_1_s() {
    let s = Rig::new();
    s.plugin(
        "host-volume",
        "slow",
        r#"sleep 1.5; echo '{"version": "1.0.0"}'"#,
    );
    s.hv_ok("quick", "1.0.0");
    let doc = plugctl(&s)
        .args(["--json", "validate", "--nomad-version", "1.10,1.11,2.0"])
        .fails_with(Exit::Failure)
        .json();
    assert_eq!(
        doc["matrix"]["releases"],
        serde_json::json!(["1.10.0", "1.11.0", "2.0.0"])
    );
    for release in ["1.10.0", "1.11.0", "2.0.0"] {
        let c = cell(&doc, "host-volume/slow", release);
        assert_eq!(c["status"], "fails", "{c}");
        let reason = c["reason"].as_str().unwrap();
        assert!(reason.contains("too slow for Nomad: 1.5"), "{reason}");
        assert!(reason.contains("> 1 s"), "{reason}");
        assert_eq!(cell(&doc, "host-volume/quick", release)["status"], "works");
    }
    assert_eq!(doc["matrix"]["checked"], "fingerprint", "{doc:#}");
    let row = &doc["matrix"]["plugins"][1];
    assert_eq!(row["plugin"], "host-volume/slow");
    assert_eq!(row["works_on"], serde_json::json!([]));
    // Without --nomad-version: no matrix, and the same verdict: the slow
    // one fails fingerprint.slow, as `fingerprint` records it unhealthy.
    let doc = plugctl(&s)
        .args(["--json", "validate"])
        .fails_with(Exit::Failure)
        .json();
    assert!(doc.get("matrix").is_none(), "{doc:#}");
    assert_eq!(doc["nomad_version"], "2.0.5");
    let slow = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["plugin"] == "host-volume/slow" && f["check"] == "fingerprint.slow")
        .unwrap_or_else(|| panic!("{doc:#}"));
    assert_eq!(slow["severity"], "error");
    // A --timeout the user raised is the budget, for the matrix too.
    plugctl(&s)
        .args([
            "--json",
            "validate",
            "--timeout",
            "3s",
            "--nomad-version",
            "1.10,2.0",
        ])
        .succeeds()
        .json();
}

/// plugctl as a user that may not chown (nobody when run as root): a
/// registry and volumes directory of its own.
fn unprivileged(s: &Rig) -> expect::Run {
    use std::os::unix::process::CommandExt;
    let home = s.root().join("unprivileged");
    if !home.exists() {
        // Modes as plugctl wants them, whatever the umask.
        make_dir(home.join("volumes"));
        fs::set_permissions(s.root(), fs::Permissions::from_mode(0o755)).unwrap();
        if nix::unistd::geteuid().is_root() {
            for d in [home.clone(), home.join("volumes")] {
                nix::unistd::chown(&d, Some(65534.into()), Some(65534.into())).unwrap();
            }
        }
    }
    let mut cmd = s.command(PLUGCTL);
    cmd.env("PLUGCTL_REGISTRY", home.join("registry.json"))
        .env("PLUGCTL_VOLUMES_DIR", home.join("volumes"));
    if nix::unistd::geteuid().is_root() {
        cmd.uid(65534).gid(65534);
    }
    expect::Run::new(cmd, "plugctl")
}

/// 1.10.3 (#26194, and so every later release): mkdir removes the
/// directory it made when chown fails; before, it is left behind.
#[test]
fn release_1_10_3_removes_the_mkdir_directory_when_chown_fails() {
    let s = Rig::new();
    let volumes = s.root().join("unprivileged/volumes");
    for (i, (release, left)) in [("1.10.2", true), ("1.10.3", false), ("1.11.0", false)]
        .into_iter()
        .enumerate()
    {
        let id = format!("5f4e3d2c-1b0a-4998-8776-65544332211{i}");
        let said = if left {
            "left behind, as this Nomad release leaves it (removed from 1.10.3)"
        } else {
            "removed again"
        };
        unprivileged(&s)
            .args([
                "--nomad-version",
                release,
                "volume",
                "create",
                "--plugin",
                "mkdir",
                "--name",
                &format!("v{i}"),
                "--id",
                &id,
                "--param",
                "uid=12345",
            ])
            .fails_with(Exit::Failure)
            .stderr_has("chown (uid 12345)")
            .stderr_has(said);
        assert_eq!(volumes.join(&id).is_dir(), left, "{release}");
    }
}

/// 1.11.0: secrets plugins exist (not on 1.10.x), with 10 s for fetch and
/// fingerprint, SIGTERM then SIGKILL 2 s later.
#[test]
fn release_1_11_0_brings_secrets_plugins_with_10_s() {
    let s = Rig::new();
    s.plugin(
        "secrets",
        "slow",
        r#"[ "$1" = fingerprint ] && echo '{"type": "secrets", "version": "1.0.0"}' && exit 0
sleep 10.5; echo '{"result": {"K": "v"}}'"#,
    );
    s.hv_ok("hv", "1.0.0");
    // 1.10.x: no secrets plugins at all.
    for args in [
        &["secret", "fetch", "slow", "app/db"][..],
        &["test", "secrets", "slow"],
        &["fingerprint", "--type", "secrets"],
    ] {
        let mut full = vec!["--nomad-version", "1.10.9"];
        full.extend(args);
        plugctl(&s)
            .arg("--json")
            .args_from(&full)
            .fails_with(Exit::Usage)
            .error_has("Nomad 1.10.9 has no secrets plugins: they came in 1.11.0");
    }
    let out = plugctl(&s)
        .args(["--json", "--nomad-version", "1.10.9", "fingerprint"])
        .succeeds();
    let doc = out.json();
    let types: Vec<&str> = doc["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["type"].as_str().unwrap())
        .collect();
    assert!(types.iter().all(|t| *t == "host-volume"), "{types:?}");
    // 1.11.0: 10 s and a 2 s grace; the fetch that takes 10.5 s times out
    // (exit 4) while the newest release waits for it.
    let call = planned_fetch(&s, Some("1.11.0"), &[]);
    assert_eq!(
        (call["timeout_ms"].as_u64(), call["grace_ms"].as_u64()),
        (Some(10_000), Some(2_000))
    );
    let started = Instant::now();
    let newest = std::thread::scope(|scope| {
        let newest = scope.spawn(|| {
            plugctl(&s)
                .args(["secret", "fetch", "slow", "app/db"])
                .succeeds()
        });
        plugctl(&s)
            .args([
                "--nomad-version",
                "1.11.0",
                "secret",
                "fetch",
                "slow",
                "app/db",
            ])
            .fails_with(Exit::Timeout)
            .stderr_has("timed out after 10s");
        newest.join().unwrap()
    });
    assert_eq!(stdout(&newest), "K=v\n");
    assert!(started.elapsed() < Duration::from_secs(30));
}

/// 1.11.1: NOMAD_JOB_ID and NOMAD_NAMESPACE reach every fetch (plugctl's
/// defaults when no job is named); before, never.
#[test]
fn release_1_11_1_sets_the_job_variables_on_every_fetch() {
    let s = Rig::new();
    assert_eq!(
        env_of(&planned_fetch(&s, Some("1.11.0"), &[])),
        ["CPI_OPERATION=fetch"]
    );
    // A flag for a variable the release never sets is refused.
    for flag in ["--job-id", "--namespace"] {
        let doc = plugctl(&s)
            .args([
                "--json",
                "--nomad-version",
                "1.11.0",
                "secret",
                "fetch",
                "rec",
                "p",
                flag,
                "web",
            ])
            .fails_with(Exit::Usage)
            .json();
        let message = doc["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with(flag) && message.contains("from 1.11.1 it always does"),
            "{message}"
        );
    }
    // An --env of the same name is the plugin's own business then.
    assert_eq!(
        env_of(&planned_fetch(
            &s,
            Some("1.11.0"),
            &["--env", "NOMAD_JOB_ID=mine"]
        )),
        ["CPI_OPERATION=fetch", "NOMAD_JOB_ID=mine"]
    );
    for release in [Some("1.11.1"), None] {
        assert_eq!(
            env_of(&planned_fetch(&s, release, &[])),
            [
                "CPI_OPERATION=fetch",
                "NOMAD_JOB_ID=plugctl",
                "NOMAD_NAMESPACE=default"
            ],
            "{release:?}"
        );
    }
    assert_eq!(
        env_of(&planned_fetch(
            &s,
            Some("1.11.1"),
            &["--job-id", "web", "--namespace", "prod"]
        )),
        [
            "CPI_OPERATION=fetch",
            "NOMAD_JOB_ID=web",
            "NOMAD_NAMESPACE=prod"
        ]
    );
    // Nomad overwrites the secret block's env with the job's: so does
    // plugctl, and says so.
    plugctl(&s)
        .args([
            "--nomad-version",
            "1.11.1",
            "secret",
            "fetch",
            "rec",
            "p",
            "--dry-run",
            "--env",
            "NOMAD_NAMESPACE=mine",
        ])
        .succeeds()
        .stdout_has("NOMAD_NAMESPACE=default")
        .stderr_has("NOMAD_NAMESPACE from --env/--env-file is replaced by \"default\"");
    // A namespace Nomad could not have is refused.
    plugctl(&s)
        .args(["secret", "fetch", "rec", "p", "--namespace", "a b"])
        .fails_with(Exit::Usage)
        .stderr_has("is not a Nomad namespace");
    // So is a job id Nomad would refuse (`Job.Validate`).
    for id in ["", "a b", "a\nb"] {
        plugctl(&s)
            .args(["secret", "fetch", "rec", "p", "--job-id", id])
            .fails_with(Exit::Usage)
            .stderr_has("--job-id must be a job id");
    }
}

/// 1.11.2: the task's fetch error messages changed; nothing a plugin gets
/// does, so a 1.11.2 fetch is a 1.11.1 fetch.
#[test]
fn release_1_11_2_changes_nothing_a_plugin_sees() {
    let s = Rig::new();
    let mut a = planned_fetch(&s, Some("1.11.1"), &[]);
    let mut b = planned_fetch(&s, Some("1.11.2"), &[]);
    for call in [&mut a, &mut b] {
        call.as_object_mut().unwrap().remove("env_i");
    }
    assert_eq!(a, b);
    assert_eq!(a["timeout_ms"], 10_000);
    let doc = plugctl(&s)
        .args([
            "--json",
            "--nomad-version",
            "1.11.2",
            "secret",
            "fetch",
            "rec",
            "p",
            "--dry-run",
        ])
        .any_exit()
        .json();
    assert_eq!(doc["nomad_version"], "1.11.2");
}

/// 1.11.1 (#27068; 1.10.7 on the Enterprise 1.10 line): mkdir chmods after
/// mkdir, so the mode is exact whatever the umask; 1.11.0 and 1.10.6 still
/// let the umask trim it.
#[test]
fn release_1_11_1_chmods_the_mkdir_directory() {
    let s = Rig::new();
    for (release, want) in [
        ("1.10.6", 0o750),
        ("1.10.7", 0o777),
        ("1.11.0", 0o750),
        ("1.11.1", 0o777),
        ("2.0.0", 0o777),
    ] {
        assert_eq!(
            mkdir_0777_under(&s, "027", release, release),
            want,
            "{release}"
        );
    }
}

/// 2.0.0: secrets fingerprint and fetch get 60 s. A secrets fingerprint of
/// 10.5 s works from 2.0.0 only; the matrix says so.
#[test]
fn release_2_0_0_gives_secrets_60_s() {
    let s = Rig::new();
    for (release, ms) in [("1.11.3", 10_000), ("2.0.0", 60_000), ("2.0.1", 60_000)] {
        let call = planned_fetch(&s, Some(release), &[]);
        assert_eq!(call["timeout_ms"], ms, "{release}");
    }
    fs::remove_file(s.plugins.join("secrets/rec")).unwrap();
    s.plugin(
        "secrets",
        "slow",
        r#"sleep 10.5; echo '{"type": "secrets", "version": "1.0.0"}'"#,
    );
    let doc = plugctl(&s)
        .args(["--json", "validate", "--nomad-version", "1.11.3,2.0.0"])
        .fails_with(Exit::Failure)
        .json();
    let old = cell(&doc, "secrets/slow", "1.11.3");
    assert_eq!(old["status"], "fails", "{old}");
    let reason = old["reason"].as_str().unwrap();
    assert!(
        reason.contains("before 2.0.0 (1.11.4 Enterprise) stops a secrets plugin after 10 s"),
        "{reason}"
    );
    assert_eq!(cell(&doc, "secrets/slow", "2.0.0")["status"], "works");
    assert_eq!(
        doc["nomad_version"], "2.0.0",
        "the newest named gives the deadline"
    );
}

/// 2.0.1: host-volume lookup is confined to the plugin directory; before, a
/// symlink leaving it is followed. plugctl never runs it, whatever the
/// release; validate's matrix says where Nomad would.
#[test]
fn release_2_0_1_refuses_symlinks_out_of_the_plugin_directory() {
    let s = Rig::new();
    let outside = s.root().join("outside");
    fs::write(
        &outside,
        "#!/bin/sh\necho '{\"path\": \"/x\", \"bytes\": 0}'\n",
    )
    .unwrap();
    fs::set_permissions(&outside, fs::Permissions::from_mode(0o755)).unwrap();
    fs::create_dir_all(s.plugins.join("host-volume")).unwrap();
    std::os::unix::fs::symlink(&outside, s.plugins.join("host-volume/escape")).unwrap();
    let doc = plugctl(&s)
        .args(["--json", "validate", "--nomad-version", "1.10,2.0.0,2.0.1"])
        .fails_with(Exit::Failure)
        .json();
    for release in ["1.10.0", "2.0.0"] {
        let c = cell(&doc, "host-volume/escape", release);
        assert_eq!(c["status"], "unknown", "{c}");
        assert!(
            c["reason"]
                .as_str()
                .unwrap()
                .contains("follows the symlink"),
            "{c}"
        );
    }
    let c = cell(&doc, "host-volume/escape", "2.0.1");
    assert_eq!(c["status"], "fails", "{c}");
    assert!(
        c["reason"].as_str().unwrap().contains("CVE-2026-7474"),
        "{c}"
    );
    for release in ["2.0.0", "2.0.1"] {
        plugctl(&s)
            .args([
                "--nomad-version",
                release,
                "volume",
                "create",
                "--plugin",
                "escape",
                "--name",
                "v",
            ])
            .fails_with(Exit::Failure)
            .stderr_has("outside its directory");
    }
}

/// What a hostile user may try with --nomad-version: every bad value is a
/// usage error naming the covered range; a flag beats the variable; a list
/// is for validate only.
#[test]
fn nomad_version_values_and_where_they_come_from() {
    let s = Rig::new();
    s.hv_ok("hv", "1.0.0");
    for bad in [
        "2.1",
        "3.0.0",
        "1.12",
        "2.0.0-beta.1",
        "1.11.0.1",
        "latest",
        "",
        "1.10,",
        " 2.0",
    ] {
        plugctl(&s)
            .args(["--json", "--nomad-version", bad, "fingerprint"])
            .fails_with(Exit::Usage)
            .error_kind("usage");
        assert!(!s.registry.exists(), "{bad:?}: something ran");
    }
    plugctl(&s)
        .args(["--json", "--nomad-version", "2.1", "fingerprint"])
        .any_exit()
        .error_has("plugctl covers 1.10.x, 1.11.x and 2.0.x");
    // The variable names itself when it is the bad one...
    let out = plugctl(&s)
        .env("PLUGCTL_NOMAD_VERSION", "9.9")
        .args(["fingerprint"])
        .fails_with(Exit::Usage);
    assert!(
        stderr(&out)
            .starts_with("plugctl: error: PLUGCTL_NOMAD_VERSION: Nomad 9.9.0 is not covered"),
        "{}",
        stderr(&out)
    );
    // Empty, it is unset.
    plugctl(&s)
        .env("PLUGCTL_NOMAD_VERSION", "")
        .args(["--json", "validate"])
        .succeeds();
    // ...and a flag beats it, bad or not.
    plugctl(&s)
        .env("PLUGCTL_NOMAD_VERSION", "9.9")
        .args([
            "--json",
            "--nomad-version",
            "1.11.0",
            "secret",
            "fetch",
            "x",
            "p",
            "--dry-run",
        ])
        .fails_with(Exit::NotFound) // no such provider: the release was fine
        .error_kind("not_found");
    s.secrets_ok("x");
    let doc = plugctl(&s)
        .env("PLUGCTL_NOMAD_VERSION", "1.11.0")
        .args(["--json", "secret", "fetch", "x", "p", "--dry-run"])
        .any_exit()
        .json();
    assert_eq!(doc["nomad_version"], "1.11.0", "{doc}");
    let doc = plugctl(&s)
        .env("PLUGCTL_NOMAD_VERSION", "1.11.0")
        .args([
            "--json",
            "--nomad-version",
            "v2.0",
            "secret",
            "fetch",
            "x",
            "p",
            "--dry-run",
        ])
        .any_exit()
        .json();
    assert_eq!(doc["nomad_version"], "2.0.0", "{doc}");
    // A list is validate's alone, from the flag or the variable.
    let many: Vec<String> = (0..33).map(|i| format!("1.10.{i}")).collect();
    plugctl(&s)
        .args(["--json", "--nomad-version", &many.join(","), "validate"])
        .fails_with(Exit::Usage)
        .error_has("at most 32");
    plugctl(&s)
        .args(["--json", "--nomad-version", "1.10,2.0", "fingerprint"])
        .fails_with(Exit::Usage)
        .error_has("only `plugctl validate` takes a list");
    plugctl(&s)
        .env("PLUGCTL_NOMAD_VERSION", "1.10,2.0")
        .args(["volume", "create", "--plugin", "mkdir", "--name", "v"])
        .fails_with(Exit::Usage);
    // A command that runs no plugin does not care.
    plugctl(&s)
        .env("PLUGCTL_NOMAD_VERSION", "1.10,2.0")
        .args(["plugin", "list"])
        .succeeds();
    let doc = plugctl(&s)
        .env("PLUGCTL_NOMAD_VERSION", "2.0,1.10,2.0.0")
        .args(["--json", "validate"])
        .any_exit()
        .json();
    assert_eq!(
        doc["matrix"]["releases"],
        serde_json::json!(["1.10.0", "2.0.0"]),
        "sorted, each once"
    );
}

/// The matrix is the same in the human report, JSON and JUnit.
#[test]
fn the_matrix_is_the_same_in_every_format() {
    let s = Rig::new();
    s.hv_ok("good", "1.0.0");
    s.secrets_ok("sec");
    s.plugin(
        "host-volume",
        "chatty",
        r#"echo hi; echo '{"version": "1.0.0"}'"#,
    );
    let releases = "1.10,2.0";
    let doc = plugctl(&s)
        .args(["--json", "validate", "--nomad-version", releases])
        .any_exit()
        .json();
    let out = plugctl(&s)
        .args(["validate", "--nomad-version", releases])
        .fails_with(Exit::Failure);
    let text = stdout(&out);
    let junit = plugctl(&s)
        .args(["validate", "--nomad-version", releases, "--format", "junit"])
        .any_exit();
    let xml = stdout(&junit);
    let junit = roxmltree::Document::parse(&xml).unwrap();
    let mut cells = 0;
    for row in doc["matrix"]["plugins"].as_array().unwrap() {
        let plugin = row["plugin"].as_str().unwrap();
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{plugin} ")))
            .unwrap_or_else(|| panic!("no row for {plugin}:\n{text}"));
        // The table says what the matrix checked: "fingerprint ok" for
        // JSON's "works".
        let line = line.replace("fingerprint ok", "works");
        let words: Vec<&str> = line.split_whitespace().skip(1).collect();
        let statuses: Vec<&str> = row["releases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["status"].as_str().unwrap())
            .collect();
        assert_eq!(words, statuses, "{plugin}:\n{text}");
        for c in row["releases"].as_array().unwrap() {
            cells += 1;
            let name = format!("release.{}", c["release"].as_str().unwrap());
            let case = junit
                .descendants()
                .find(|n| {
                    n.attribute("classname") == Some(plugin) && n.attribute("name") == Some(&name)
                })
                .unwrap_or_else(|| panic!("no testcase {plugin} {name}"));
            let failure = case.children().find(|n| n.has_tag_name("failure"));
            assert_eq!(failure.is_some(), c["status"] == "fails", "{plugin} {name}");
            if let (Some(f), Some(reason)) = (failure, c["reason"].as_str()) {
                assert_eq!(f.attribute("message"), Some(reason));
                assert!(text.contains(reason), "{reason} not in:\n{text}");
            }
        }
    }
    assert_eq!(cells, 6, "{doc:#}");
    assert_eq!(cell(&doc, "secrets/sec", "1.10.0")["status"], "fails");
    assert_eq!(cell(&doc, "secrets/sec", "2.0.0")["status"], "works");
    // The cell gives the finding's own reason, not a pointer to it.
    let reason = cell(&doc, "host-volume/chatty", "2.0.0")["reason"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        reason.starts_with("fingerprint.output: bad output: invalid character 'h'"),
        "{reason}"
    );
    assert!(
        stderr(&out).contains("4 errors (3 of them a plugin × release that would not work)"),
        "{}",
        stderr(&out)
    );
}

/// A plugin plugctl will not run for its own reasons (a drifted pin, a file
/// others can write) is unknown on every release, not a failure of the
/// plugin's: its fingerprint checks failed because plugctl refused.
#[test]
fn a_plugin_plugctl_refuses_to_run_is_unknown_not_failed() {
    let s = Rig::new();
    let pinned = s.hv_ok("pinned", "1.0.0");
    s.hv_ok("writable", "1.0.0");
    plugctl(&s).args(["pin"]).succeeds();
    fs::write(
        &pinned,
        format!("{}\n# changed\n", fs::read_to_string(&pinned).unwrap()),
    )
    .unwrap();
    let writable = s.plugins.join("host-volume/writable");
    fs::set_permissions(&writable, fs::Permissions::from_mode(0o777)).unwrap();
    let doc = plugctl(&s)
        .args([
            "--json",
            "--locked",
            "validate",
            "--nomad-version",
            "1.11,2.0",
        ])
        .any_exit()
        .json();
    for plugin in ["host-volume/pinned", "host-volume/writable"] {
        for release in ["1.11.0", "2.0.0"] {
            let c = cell(&doc, plugin, release);
            assert_eq!(c["status"], "unknown", "{plugin} {release}: {c}");
            assert!(
                c["reason"]
                    .as_str()
                    .unwrap()
                    .starts_with("plugctl did not run it"),
                "{c}"
            );
        }
    }
}

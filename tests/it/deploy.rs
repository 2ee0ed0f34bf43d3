//! What `deploy/` ships, each piece checked by the tool that will use it:
//! the alert rules by `promtool test rules`, the Nomad job by parsing it
//! (hcl-rs) and running its exact script on a node in a box, the systemd units by
//! `systemd-analyze verify` and `systemd-analyze security --offline`, and
//! the Debian package by building it (`cargo deb`), installing it with
//! dpkg and purging it again. What the units run, under their hardening,
//! on a stock node: `node_box`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::node_box::{HOST_VOLUME_PLUGINS, NOMAD_D, NodeBox, TEXTFILE_DIR, User};
use crate::common::*;
use serde_json::Value;

#[test]
fn alert_rules_pass_their_promtool_tests() {
    if !tool_available("promtool", "the alert rules") {
        return;
    }
    let dir = repo().join("deploy/prometheus");
    tool("promtool")
        .args(["check", "rules", "plugctl.rules.yml"])
        .current_dir(&dir)
        .succeeds()
        .stdout_has("6 rules found");
    tool("promtool")
        .args(["test", "rules", "plugctl.rules.test.yml"])
        .current_dir(&dir)
        .succeeds();
    // Every alert has a case of its own.
    let rules = std::fs::read_to_string(dir.join("plugctl.rules.yml")).unwrap();
    let tests = std::fs::read_to_string(dir.join("plugctl.rules.test.yml")).unwrap();
    for alert in rules
        .lines()
        .filter_map(|l| l.trim().strip_prefix("- alert: "))
    {
        assert!(
            tests.contains(&format!("alertname: {alert}")),
            "{alert} has no test case"
        );
    }
}

/// The Nomad job as data.
fn jobspec() -> Value {
    let text = std::fs::read_to_string(repo().join("deploy/nomad/plugctl.nomad.hcl")).unwrap();
    hcl::from_str(&text).expect("the jobspec is valid HCL")
}

#[test]
fn the_nomad_job_is_a_system_job_whose_loop_survives_an_unhealthy_plugin() {
    let spec = jobspec();
    let job = &spec["job"]["plugctl-fingerprint"];
    // A system job: the shape Nomad's periodic sysbatch issues
    // (nomad#17395, nomad#17397) do not touch.
    assert_eq!(job["type"], "system", "{spec:#}");
    assert!(job.get("periodic").is_none(), "{spec:#}");
    let task = &job["group"]["plugctl"]["task"]["fingerprint"];
    assert_eq!(task["driver"], "raw_exec");
    assert_eq!(task["config"]["command"], "/bin/sh");
    assert_eq!(task["config"]["args"][0], "-c");
    let script = task["config"]["args"][1].as_str().unwrap().to_string();
    assert!(
        script.contains(
            "/usr/bin/plugctl --quiet fingerprint --textfile /var/lib/prometheus/node-exporter"
        ),
        "{script}"
    );
    // No node path in the job: plugctl reads the agent's configuration.
    assert!(
        !script.contains("/opt/") && !script.contains("nomad/data"),
        "{script}"
    );
    shellcheck_clean(&script);

    // The exact script on a packaged client (a node in a box), with plugctl
    // the binary under test and a `sleep` that stops the task as Nomad
    // would (SIGTERM) and says it was reached: a round went on to wait.
    let Some(b) = NodeBox::new() else { return };
    let script = script.replace("/usr/bin/plugctl", PLUGCTL);
    std::fs::create_dir(b.path("/tmp/stub")).unwrap();
    std::fs::write(
        b.path("/tmp/stub/sleep"),
        "#!/bin/sh\necho \"$1\" >>/tmp/slept\nkill -TERM \"$PPID\"\n",
    )
    .unwrap();
    b.own("/tmp/stub/sleep", 0o755, User { uid: 0, gid: 0 });
    let task = |name: &str| {
        let mut c = b.command("/bin/sh");
        c.env("PATH", "/tmp/stub:/usr/sbin:/usr/bin:/sbin:/bin");
        tool_run(c, name).args(["-c", &script])
    };
    let textfile = format!("{TEXTFILE_DIR}/plugctl.prom");
    let healthy = |family: &str, name: &str, version: &str, up: bool| {
        let prom = b.read(&textfile);
        let line = format!(
            "plugctl_plugin_healthy{{family=\"{family}\",name=\"{name}\",version=\"{version}\"}} {}",
            u8::from(up)
        );
        assert!(prom.contains(&line), "{line} not in:\n{prom}");
    };

    // All healthy: one round, then the wait, where Nomad stops it: exit 0.
    task("the job's task").succeeds();
    healthy("host-volume", "dir", "1.0.0", true);
    let slept = b.read("/tmp/slept");
    let seconds: u32 = slept.trim().parse().unwrap();
    assert!((270..330).contains(&seconds), "{slept}");

    // An unhealthy plugin: plugctl exits 1, the metric says so, and the
    // task goes on to its next round (it does not fail the allocation).
    b.write(
        &format!("{HOST_VOLUME_PLUGINS}/broken"),
        "#!/bin/sh\necho '{\"version\": \"1.0.0\"}'\nexit 1\n",
        0o755,
        User { uid: 0, gid: 0 },
    );
    task("the job's task, a plugin unhealthy").succeeds();
    healthy("host-volume", "broken", "", false);
    assert_eq!(b.read("/tmp/slept").lines().count(), 2);

    // A configuration plugctl cannot use (exit 2) ends the task with it,
    // before any wait: Nomad shows it, and restarts it.
    b.write(
        &format!("{NOMAD_D}/zz-local.hcl"),
        "client {\n  host_volume_plugin_dir = \"plugins\"\n}\n",
        0o644,
        User { uid: 0, gid: 0 },
    );
    task("the job's task, a broken configuration")
        .fails_with(Exit::Usage)
        .stderr_has("must be an absolute path");
    assert_eq!(b.read("/tmp/slept").lines().count(), 2, "it waited");
}

/// shellcheck has nothing to say about the job's script (as sh).
fn shellcheck_clean(script: &str) {
    if !tool_available("shellcheck", "the Nomad job's script") {
        return;
    }
    tool("shellcheck")
        .args(["--shell=sh", "-"])
        .stdin(script.as_bytes())
        .succeeds();
}

/// Any command, checked as a plugctl run is.
fn tool_run(c: std::process::Command, name: &str) -> crate::common::expect::Run {
    crate::common::expect::Run::new(c, name)
}

#[test]
fn the_systemd_units_verify() {
    if !tool_available("systemd-analyze", "the systemd units") {
        return;
    }
    // systemd-analyze checks that ExecStart exists: point it at this build.
    let dir = tempfile::tempdir().unwrap();
    for unit in ["plugctl-fingerprint.service", "plugctl-fingerprint.timer"] {
        let text = std::fs::read_to_string(repo().join("deploy/systemd").join(unit)).unwrap();
        std::fs::write(
            dir.path().join(unit),
            text.replace("/usr/bin/plugctl", PLUGCTL),
        )
        .unwrap();
    }
    let out = tool("systemd-analyze")
        .args(["verify", "--man=no"])
        .arg(dir.path().join("plugctl-fingerprint.service"))
        .arg(dir.path().join("plugctl-fingerprint.timer"))
        .succeeds();
    assert!(stderr(&out).trim().is_empty(), "warnings: {}", stderr(&out));
    // Hardened: at most 2.0 in systemd's own exposure score (in tenths
    // for --threshold), read offline from the file as shipped.
    let scored = tool("systemd-analyze")
        .args(["security", "--offline=true", "--threshold=20", "--no-pager"])
        .arg(dir.path().join("plugctl-fingerprint.service"))
        .succeeds();
    let score = stdout(&scored);
    let level = score
        .lines()
        .find_map(|l| l.split_once("Overall exposure level for plugctl-fingerprint.service: "))
        .and_then(|(_, rest)| rest.split_whitespace().next()?.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no exposure level in:\n{score}"));
    assert!(level <= 2.0, "{score}");
    // The fleet's nodes do not all fingerprint in the same second.
    let timer =
        std::fs::read_to_string(repo().join("deploy/systemd/plugctl-fingerprint.timer")).unwrap();
    assert!(
        timer.lines().any(|l| l.starts_with("RandomizedDelaySec=")),
        "{timer}"
    );
    // The service runs the command the docs describe.
    let service =
        std::fs::read_to_string(repo().join("deploy/systemd/plugctl-fingerprint.service")).unwrap();
    assert!(service.contains(
        "ExecStart=/usr/bin/plugctl --sandbox strict --sandbox-best-effort --quiet fingerprint \
         --textfile ${PLUGCTL_TEXTFILE_DIR}"
    ));
    assert!(service.contains("Environment=PLUGCTL_TEXTFILE_DIR=/var/lib/prometheus/node-exporter"));
    assert!(service.contains("EnvironmentFile=-/etc/default/plugctl"));
    // No Nomad path anywhere in deploy/ but comments: the agent config says them.
    for unit in [
        "deploy/systemd/plugctl-fingerprint.service",
        "deploy/nomad/plugctl.nomad.hcl",
        "deploy/debian/default",
    ] {
        let text = std::fs::read_to_string(repo().join(unit)).unwrap();
        for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
            assert!(!line.contains("/opt/nomad"), "{unit}: {line}");
        }
    }
}

#[test]
fn the_debian_package_installs_runs_and_removes() {
    let root = nix::unistd::geteuid().is_root();
    let have = tool_available("cargo-deb", "the Debian package")
        && tool_available("dpkg", "installing the package");
    if !have {
        return;
    }
    if !root {
        eprintln!("SKIPPED: installing a Debian package needs root");
        return;
    }
    if Path::new("/usr/bin/plugctl").exists() {
        eprintln!("SKIPPED: /usr/bin/plugctl exists already; not touching a real installation");
        return;
    }
    // Its own target directory: a release build beside the test build.
    let target = std::env::temp_dir().join("plugctl-deb-target");
    tool(env!("CARGO"))
        .args(["deb", "--locked", "--output"])
        .arg(target.join("plugctl.deb"))
        .env("CARGO_TARGET_DIR", &target)
        .current_dir(repo())
        .succeeds();
    let deb: PathBuf = target.join("plugctl.deb");
    let contents = Command::new("dpkg-deb")
        .arg("-c")
        .arg(&deb)
        .output()
        .unwrap();
    let listing = stdout(&contents);
    for path in [
        "./usr/bin/plugctl",
        "./usr/share/man/man1/plugctl.1.gz",
        "./usr/share/bash-completion/completions/plugctl",
        "./lib/systemd/system/plugctl-fingerprint.timer",
        "./etc/default/plugctl",
        "./usr/share/doc/plugctl/README.md",
    ] {
        assert!(listing.contains(path), "{path} missing from:\n{listing}");
    }
    let install = dpkg(&[std::ffi::OsStr::new("-i"), deb.as_os_str()]);
    assert!(install.status.success(), "{}", stderr(&install));
    let version = Command::new("/usr/bin/plugctl").arg("--version").output();
    let man = Command::new("man").args(["-w", "plugctl"]).output();
    // Purged, not only removed: a removed package keeps its conffile,
    // /etc/default/plugctl, in the machine's own /etc.
    let remove = dpkg(&[
        std::ffi::OsStr::new("--purge"),
        std::ffi::OsStr::new("plugctl"),
    ]);
    let version = version.unwrap();
    assert!(
        stdout(&version).starts_with("plugctl "),
        "{}",
        stdout(&version)
    );
    let man = man.unwrap();
    assert!(
        stdout(&man).contains("/usr/share/man/man1/plugctl.1"),
        "{}{}",
        stdout(&man),
        stderr(&man)
    );
    assert!(remove.status.success(), "{}", stderr(&remove));
    assert!(
        !Path::new("/usr/bin/plugctl").exists(),
        "dpkg --purge left the binary"
    );
    assert!(
        !Path::new("/etc/default/plugctl").exists(),
        "dpkg --purge left the conffile"
    );
}

/// dpkg, waiting (up to a minute) while another dpkg holds its lock.
fn dpkg(args: &[&std::ffi::OsStr]) -> std::process::Output {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let out = Command::new("dpkg").args(args).output().unwrap();
        let locked = stderr(&out).contains("lock") && stderr(&out).contains("another process");
        if out.status.success() || !locked || std::time::Instant::now() > until {
            return out;
        }
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
}

#[test]
fn after_cargo_install_the_readme_points_the_unit_at_the_binary() {
    // The README's drop-in runs the unit's own command, from where its
    // `cargo install --root` puts the binary.
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let service =
        std::fs::read_to_string(repo().join("deploy/systemd/plugctl-fingerprint.service")).unwrap();
    let exec = service
        .lines()
        .find(|l| l.starts_with("ExecStart=/usr/bin/plugctl "))
        .expect("the unit's ExecStart");
    assert!(readme.contains("cargo install --locked --path . --root /usr/local"));
    let drop_in = format!(
        "[Service]\nExecStart=\n{}\n",
        exec.replace("/usr/bin/plugctl", "/usr/local/bin/plugctl")
    );
    assert!(readme.contains(&drop_in), "the README lacks:\n{drop_in}");
}

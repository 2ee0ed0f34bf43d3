//! What `deploy/` ships, each piece checked by the tool that will use it:
//! the alert rules by `promtool test rules`, the Nomad job by parsing it
//! (hcl-rs) and running its exact command, the systemd units by
//! `systemd-analyze verify`, and the Debian package by building it
//! (`cargo deb`), installing it with dpkg and removing it again.

use std::path::{Path, PathBuf};
use std::process::Command;

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
fn the_nomad_job_is_a_periodic_sysbatch_whose_command_works() {
    let spec = jobspec();
    let job = &spec["job"]["plugctl-fingerprint"];
    assert_eq!(job["type"], "sysbatch", "{spec:#}");
    assert_eq!(job["periodic"]["crons"][0], "*/5 * * * *");
    assert_eq!(job["periodic"]["prohibit_overlap"], true);
    let task = &job["group"]["plugctl"]["task"]["fingerprint"];
    assert_eq!(task["driver"], "raw_exec");
    assert_eq!(task["config"]["command"], "/usr/bin/plugctl");
    let args: Vec<String> = task["config"]["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect();

    // No node path in the job: plugctl reads the agent's configuration.
    assert!(
        args.iter()
            .all(|a| !a.contains("/opt/") && !a.contains("nomad/data")),
        "{args:?}"
    );
    // The exact command on a scratch node: an agent configuration
    // directory (HCL, as the package ships it) whose data_dir is in the
    // rig, its host-volume plugin where Nomad derives it; only the
    // textfile directory is moved.
    let s = Rig::new();
    let data = s.root().join("nomad-data");
    let etc = s.root().join("nomad.d");
    make_dir(&etc);
    std::fs::write(
        etc.join("nomad.hcl"),
        format!(
            "data_dir = \"{}\"\n\nclient {{\n  enabled = true\n}}\n",
            data.display()
        ),
    )
    .unwrap();
    make_dir(data.join("host_volume_plugins"));
    std::fs::rename(
        s.hv_ok("dir", "1.0.0"),
        data.join("host_volume_plugins/dir"),
    )
    .unwrap();
    let textfile = s.root().join("node-exporter");
    std::fs::create_dir(&textfile).unwrap();
    let moved: Vec<String> = args
        .iter()
        .map(|a| match a.as_str() {
            "/var/lib/prometheus/node-exporter" => textfile.display().to_string(),
            other => other.to_string(),
        })
        .collect();
    plugctl(&s)
        .args_from(&moved)
        .env("PLUGCTL_NOMAD_CONFIG", &etc)
        .env_remove("PLUGCTL_PLUGIN_DIR")
        .env_remove("PLUGCTL_VOLUMES_DIR")
        .succeeds();
    let prom = std::fs::read_to_string(textfile.join("plugctl.prom")).unwrap();
    if tool_available("promtool", "the job's textfile") {
        tool("promtool")
            .args(["check", "metrics"])
            .stdin(prom.as_bytes())
            .succeeds();
    }
    assert!(
        prom.contains(
            r#"plugctl_plugin_healthy{family="host-volume",name="dir",version="1.0.0"} 1"#
        ),
        "{prom}"
    );
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
    // The service runs the command the docs describe.
    let service =
        std::fs::read_to_string(repo().join("deploy/systemd/plugctl-fingerprint.service")).unwrap();
    assert!(service.contains(
        "ExecStart=/usr/bin/plugctl --quiet fingerprint --textfile ${PLUGCTL_TEXTFILE_DIR}"
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
    let remove = dpkg(&[std::ffi::OsStr::new("-r"), std::ffi::OsStr::new("plugctl")]);
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
        "dpkg -r left the binary"
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

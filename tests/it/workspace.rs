//! The workspace's layers hold: the core and the protocol crates know
//! nothing of the command line (no clap, no printer, no exit codes, no
//! settings), so another front end can use them.

use crate::common::*;

/// Every crate `package` pulls in, normal dependencies only, by name.
fn dependencies(package: &str) -> Vec<String> {
    tool(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "--locked",
            "-e",
            "normal",
            "--prefix",
            "none",
            "-p",
        ])
        .arg(package)
        .current_dir(repo())
        .succeeds()
        .stdout()
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn the_core_and_the_protocol_know_nothing_of_the_command_line() {
    for package in ["plugctl-core", "plugctl-protocol"] {
        let deps = dependencies(package);
        assert!(deps.iter().any(|d| d == package), "{package}: {deps:?}");
        for cli in [
            "clap",
            "clap_complete",
            "clap_mangen",
            "prometheus-client",
            "quick-junit",
        ] {
            assert!(
                !deps.iter().any(|d| d == cli),
                "{package} depends on {cli}, which belongs to the command line: {deps:?}"
            );
        }
    }
    // The protocol crate is the bottom floor: it needs none of the others.
    let protocol = dependencies("plugctl-protocol");
    assert!(
        !protocol
            .iter()
            .any(|d| d == "plugctl-core" || d == "plugctl")
    );
    // The CLI does depend on both (the check above sees real trees).
    let cli = dependencies("plugctl");
    assert!(cli.iter().any(|d| d == "clap") && cli.iter().any(|d| d == "plugctl-core"));
}

#[test]
fn the_core_names_no_flag_and_no_exit_code() {
    // Words that belong to the front end: what a flag is called and how a
    // process exits are decided in the binary (src/exit.rs, src/cli.rs).
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut offenders = Vec::new();
    for crate_dir in ["crates/core/src", "crates/protocol/src"] {
        for entry in walkdir::WalkDir::new(root.join(crate_dir)) {
            let entry = entry.unwrap();
            if entry.path().extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(entry.path()).unwrap();
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for word in ["std::process::exit", "clap::", "ExitCode"] {
                    if code.contains(word) {
                        offenders.push(format!("{}:{}: {word}", entry.path().display(), n + 1));
                    }
                }
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

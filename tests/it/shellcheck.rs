//! Every shell script plugctl ships, checked by the real `shellcheck`: the
//! example plugins, the `init` templates as `init` writes them, the
//! scripts under benches/ and deploy/, and the hand-written part of the
//! bash completion script. In CI (`CI` set) a missing shellcheck fails the
//! test; locally it is skipped with a message.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::*;

fn shellcheck() -> Option<&'static str> {
    tool_available("shellcheck", "the shell scripts plugctl ships").then_some("shellcheck")
}

/// Files under `dir` whose first line is a POSIX sh or bash shebang.
fn shell_scripts(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(dir).into_iter().flatten() {
        if !entry.file_type().is_file() {
            continue;
        }
        let Ok(text) = fs::read(entry.path()) else {
            continue;
        };
        let first = text.split(|&b| b == b'\n').next().unwrap_or_default();
        if first.starts_with(b"#!") && (first.ends_with(b"/sh") || first.ends_with(b"bash")) {
            out.push(entry.path().to_path_buf());
        }
    }
    out.sort();
    out
}

fn check(files: &[PathBuf]) {
    let Some(sc) = shellcheck() else { return };
    assert!(!files.is_empty(), "no scripts found to check");
    // Its complaints are on stdout, shown when it fails.
    tool(sc)
        .arg("--external-sources")
        .args_from(files)
        .succeeds();
}

#[test]
fn example_plugins_and_repo_scripts_pass_shellcheck() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = shell_scripts(&root.join("plugins-examples"));
    assert!(files.len() >= 3, "the sh examples are found: {files:?}");
    for dir in ["benches", "deploy", ".ci"] {
        files.extend(shell_scripts(&root.join(dir)));
    }
    check(&files);
}

#[test]
fn init_templates_pass_shellcheck_as_written() {
    let s = Rig::new();
    let mut files = Vec::new();
    for family in ["host-volume", "secrets"] {
        let name = format!("sc-{family}");
        let out = plugctl(&s)
            .args(["init", family, &name, "--lang", "sh"])
            .succeeds();
        files.push(PathBuf::from(stdout(&out).trim_end()));
    }
    check(&files);
}

#[test]
fn bash_completion_snippet_passes_shellcheck() {
    // clap_complete's own part is not ours to lint; the registry names are.
    let script = plugctl::generate::completion(clap_complete::Shell::Bash);
    let at = script
        .find("# --- plugctl: registry names")
        .expect("the hand-written part of the bash script");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plugctl-registry.bash");
    fs::write(&file, format!("#!/usr/bin/env bash\n{}", &script[at..])).unwrap();
    check(&[file]);
}

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
    for package in ["plugctl-core", "plugctl-protocol", "plugctl-hcl1"] {
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
    // The HCL 1 reader is a plain library of its own (the daily tool reads
    // Nomad's volume specifications with it): none of plugctl's crates.
    let hcl1 = dependencies("plugctl-hcl1");
    assert!(
        !hcl1
            .iter()
            .any(|d| d == "plugctl-core" || d == "plugctl-protocol" || d == "plugctl"),
        "{hcl1:?}"
    );
    // The CLI does depend on both (the check above sees real trees).
    let cli = dependencies("plugctl");
    assert!(cli.iter().any(|d| d == "clap") && cli.iter().any(|d| d == "plugctl-core"));
}

#[test]
fn the_core_names_no_flag_and_no_exit_code() {
    // Words that belong to the front end: what a flag is called and how a
    // process exits are decided in the binary (src/exit.rs, src/cli/).
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut offenders = Vec::new();
    for crate_dir in ["crates/core/src", "crates/protocol/src", "crates/hcl1/src"] {
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

/// The string literals of a Rust source file as `(line, text)`, with what
/// comments and `#[cfg(test)]` items hold left out (a `\` line continuation
/// is joined as the compiler joins it). A lexer just good enough for this
/// workspace: strings, raw strings, char literals and lifetimes, nested
/// block comments.
fn string_literals(src: &str) -> Vec<(usize, String)> {
    let b = src.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let line_of = |i: usize| src[..i].matches('\n').count() + 1;
    let mut out = Vec::new();
    let mut i = 0;
    let mut depth = 0usize;
    // Inside a `#[cfg(test)]` item: the depth it started at, and whether
    // its body (a `{ ... }`) has opened.
    let mut skipping: Option<(usize, bool)> = None;
    while i < b.len() {
        let c = b[i];
        if src[i..].starts_with("//") {
            i = src[i..].find('\n').map_or(b.len(), |n| i + n);
            continue;
        }
        if src[i..].starts_with("/*") {
            let mut nest = 0;
            while i < b.len() {
                if src[i..].starts_with("/*") {
                    nest += 1;
                    i += 2;
                } else if src[i..].starts_with("*/") {
                    nest -= 1;
                    i += 2;
                    if nest == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            continue;
        }
        if skipping.is_none() && src[i..].starts_with("#[cfg(test)]") {
            skipping = Some((depth, false));
            i += "#[cfg(test)]".len();
            continue;
        }
        // A string: plain (`"`, `b"`, `c"`) or raw (`r#"`, `br"`).
        let start = i;
        let mut raw = None;
        if ident(c) && (i == 0 || !ident(b[i - 1])) {
            let mut j = i;
            while j < b.len() && ident(b[j]) {
                j += 1;
            }
            let word = &src[i..j];
            let hashes = src[j..].bytes().take_while(|&h| h == b'#').count();
            if matches!(word, "r" | "br" | "cr") && b.get(j + hashes) == Some(&b'"') {
                raw = Some(hashes);
                i = j + hashes;
            } else if matches!(word, "b" | "c") && b.get(j) == Some(&b'"') {
                i = j;
            } else {
                i = j;
                continue;
            }
        }
        match (b[i], raw) {
            (b'"', Some(hashes)) => {
                let close = format!("\"{}", "#".repeat(hashes));
                let end = src[i + 1..].find(&close).map_or(b.len(), |n| i + 1 + n);
                if skipping.is_none() {
                    out.push((line_of(start), src[i + 1..end].to_string()));
                }
                i = end + close.len();
            }
            (b'"', None) => {
                let mut j = i + 1;
                let mut text = String::new();
                while j < b.len() && b[j] != b'"' {
                    if b[j] == b'\\' && b.get(j + 1) == Some(&b'\n') {
                        // A continuation: the newline and the next line's
                        // leading whitespace are not in the string.
                        j += 2;
                        while j < b.len() && b[j].is_ascii_whitespace() {
                            j += 1;
                        }
                        continue;
                    }
                    let step = if b[j] == b'\\' { 2 } else { 1 };
                    text.push_str(&String::from_utf8_lossy(&b[j..(j + step).min(b.len())]));
                    j += step;
                }
                if skipping.is_none() {
                    out.push((line_of(start), text));
                }
                i = j + 1;
            }
            (b'\'', _) => {
                // A char literal ('x', '\n', '"', 'é'), or a lifetime ('a).
                let rest = &src[i + 1..];
                if rest.starts_with('\\') {
                    i += 1 + rest[2..].find('\'').map_or(rest.len(), |n| n + 3);
                } else {
                    let len = rest.chars().next().map_or(0, char::len_utf8);
                    i += if rest[len..].starts_with('\'') {
                        len + 2
                    } else {
                        1
                    };
                }
            }
            (b'{', _) => {
                if let Some((_, opened @ false)) = &mut skipping {
                    *opened = true;
                }
                depth += 1;
                i += 1;
            }
            (b'}', _) => {
                depth = depth.saturating_sub(1);
                if skipping.is_some_and(|(d, opened)| opened && d == depth) {
                    skipping = None;
                }
                i += 1;
            }
            (b';', _) => {
                if skipping.is_some_and(|(d, opened)| !opened && d == depth) {
                    skipping = None;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// The files of the modules a source file declares test-only
/// (`#[cfg(test)] mod name;`): `name.rs` or `name/mod.rs` beside it (under
/// its own directory when it is a `mod.rs` or `lib.rs`, else under its stem).
fn test_only_modules(file: &std::path::Path, src: &str) -> Vec<std::path::PathBuf> {
    let dir = match file.file_name().and_then(|n| n.to_str()) {
        Some("mod.rs" | "lib.rs" | "main.rs") => file.parent().unwrap().to_path_buf(),
        _ => file.with_extension(""),
    };
    let mut out = Vec::new();
    for (at, _) in src.match_indices("#[cfg(test)]") {
        let rest = src[at + "#[cfg(test)]".len()..].trim_start();
        let rest = rest
            .strip_prefix("pub(crate) ")
            .or_else(|| rest.strip_prefix("pub "))
            .unwrap_or(rest);
        if let Some(decl) = rest.strip_prefix("mod ")
            && let Some((name, _)) = decl.split_once(';')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            out.push(dir.join(format!("{name}.rs")));
            out.push(dir.join(name).join("mod.rs"));
        }
    }
    out
}

/// What in a string makes it the command line's: a flag (`--name`), one of
/// plugctl's variables, or a plugctl command to run.
/// The short flags plugctl takes, from its clap definition.
fn short_flags() -> Vec<char> {
    fn walk(cmd: &clap::Command, out: &mut Vec<char>) {
        out.extend(cmd.get_arguments().filter_map(|a| a.get_short()));
        for sub in cmd.get_subcommands() {
            walk(sub, out);
        }
    }
    let mut cmd = plugctl::cli::command();
    cmd.build();
    let mut out = Vec::new();
    walk(&cmd, &mut out);
    out.sort_unstable();
    out.dedup();
    out
}

fn names_the_command_line(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    for (at, _) in text.match_indices("--") {
        let before = at.checked_sub(1).map(|p| bytes[p]);
        let after = bytes.get(at + 2);
        if before.is_none_or(|c| !c.is_ascii_alphanumeric() && c != b'-')
            && after.is_some_and(u8::is_ascii_lowercase)
        {
            let flag: String = text[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            return Some(flag);
        }
    }
    // One of plugctl's short flags (`-v`, `-q`, ...) as a word of its own
    // (not `x-v`, not `-v2`), unless another program's (`ulimit -v`).
    let shorts = short_flags();
    for (at, _) in text.match_indices('-') {
        let before = at.checked_sub(1).map(|p| bytes[p]);
        let flag = bytes.get(at + 1).map(|&c| char::from(c));
        let after = bytes.get(at + 2);
        let others = ["ulimit ", "env ", "sed "];
        if before.is_none_or(|c| c == b' ' || c == b'(' || c == b'`')
            && flag.is_some_and(|f| shorts.contains(&f))
            && after.is_none_or(|c| !c.is_ascii_alphanumeric() && *c != b'-')
            && !others.iter().any(|o| text[..at].ends_with(o))
        {
            return Some(text[at..at + 2].to_string());
        }
    }
    ["PLUGCTL_", "`plugctl ", "run plugctl "]
        .into_iter()
        .find(|w| text.contains(w))
        .map(str::to_string)
}

#[test]
fn the_core_names_no_flag_variable_or_command_in_its_words() {
    // The core says what is wrong and, as a typed `Hint`, what would fix it;
    // the command line alone words that as its flags, variables and
    // commands (src/exit.rs). Comments and `#[cfg(test)]` items may name them.
    // env(1)'s own options, which the trust gate reads in a shebang,
    // chown(1)'s for a symbolic link, in the fix a refusal names, and
    // make(1)'s.
    let allowed = [
        ("trust/program.rs", "--split-string"),
        ("trust/program.rs", "--ignore-environment"),
        ("trust/mod.rs", "-h"),
        // make's, in why the hooks table refuses MAKEFLAGS.
        ("hooks.rs", "--eval"),
    ];
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut offenders = Vec::new();
    for crate_dir in ["crates/core/src", "crates/protocol/src", "crates/hcl1/src"] {
        let files: Vec<_> = walkdir::WalkDir::new(root.join(crate_dir))
            .into_iter()
            .map(|e| e.unwrap().into_path())
            .filter(|p| p.extension().is_some_and(|e| e == "rs"))
            .map(|p| {
                let text = std::fs::read_to_string(&p).unwrap();
                (p, text)
            })
            .collect();
        let test_only: Vec<_> = files
            .iter()
            .flat_map(|(p, text)| test_only_modules(p, text))
            .collect();
        assert!(
            crate_dir != "crates/core/src" || !test_only.is_empty(),
            "registry/testing.rs is a test-only module the scan must see as one"
        );
        for (path, text) in &files {
            if test_only.contains(path) {
                continue;
            }
            for (line, literal) in string_literals(text) {
                let Some(word) = names_the_command_line(&literal) else {
                    continue;
                };
                if allowed
                    .iter()
                    .any(|(file, w)| path.ends_with(file) && word == *w)
                {
                    continue;
                }
                offenders.push(format!(
                    "{}:{line}: {word} in {literal:?}",
                    path.strip_prefix(root).unwrap().display()
                ));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "the core's words name the command line (give the error a Hint instead):\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_literal_scanner_sees_strings_and_skips_comments_and_tests() {
    let src = r##"
// "--in-a-comment"
/* "--in /* a nested */ block" */
fn f<'a>(x: &'a str) -> char {
    let _ = ('"', '\'', b'x', "a \
             --joined", r#"raw "--raw" PLUGCTL_X"#);
    format!("run `plugctl {x}`");
    '{'
}
#[cfg(test)]
mod tests {
    fn g() { let _ = "{ --in-a-test"; }
}
const AFTER: &str = "1.0--x and --after";
const SHORT: [&str; 3] = ["wrote 3 bytes: -v shows them", "(ulimit -v)", "x-v and -vv"];
"##;
    let found: Vec<_> = string_literals(src)
        .into_iter()
        .filter_map(|(line, s)| names_the_command_line(&s).map(|w| (line, w)))
        .collect();
    assert_eq!(
        found,
        [
            (5, "--joined".to_string()),
            (6, "--raw".to_string()),
            (7, "`plugctl ".to_string()),
            (14, "--after".to_string()),
            (15, "-v".to_string()),
        ]
    );
}

//! Escapes are unambiguous, in one style everywhere: a name holding a
//! line break and a name holding a backslash followed by `n` never look
//! the same, and a control character shows as `\u{1b}` in a table as in a
//! message (the style of Rust's `{:?}`, which `plugctl_core::escape`
//! implements once: `value` for a cell, `quote` for a message).

use std::fs;
use std::path::Path;

use crate::common::*;

/// One `fingerprint` row's NAME cell, as the table shows it.
fn name_cells(table: &str) -> Vec<String> {
    table
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().nth(1).map(str::to_string))
        .collect()
}

#[test]
fn a_backslash_in_a_name_is_escaped_so_no_two_names_look_alike() {
    let s = Rig::new();
    // A backslash then `n`; a real line break; an escape sequence.
    for name in ["a\\nb", "a\nb", "clear\x1b[2J"] {
        s.hv_ok(name, "1.0.0");
    }
    let table = plugctl(&s)
        .args(["fingerprint", "--type", "host-volume"])
        .any_exit()
        .stdout();
    let names = name_cells(&table);
    for want in ["a\\\\nb", "a\\nb", "clear\\u{1b}[2J"] {
        assert!(
            names.iter().any(|n| n == want),
            "{want} in {names:?}:\n{table}"
        );
    }
    assert!(!table.contains('\x1b'), "{table}");
    // The recorded one (a backslash is no control character) reads the
    // same in plugin list, and in a message that names it.
    plugctl(&s)
        .args(["plugin", "list"])
        .succeeds()
        .stdout_has("a\\\\nb");
    plugctl(&s)
        .args(["volume", "create", "--plugin", "a\\nb", "--name", "v"])
        .args(["--dry-run"])
        .succeeds()
        .stdout_has("# would run host-volume plugin \"a\\\\nb\", operation create");
    // A message quotes a name with the escapes its table cell shows.
    plugctl(&s)
        .args(["secret", "fetch", "clear\x1b[2J", "x"])
        .fails()
        .stderr_has("clear\\u{1b}[2J")
        .stderr_lacks("\\x1b");
}

/// Every `{...:?}` in a format string of the library and the command line
/// (tests apart): Rust's Debug, which a message must not use for a string
/// of anyone's (`escape::quote` is the one way, and prints the same).
#[test]
fn messages_quote_untrusted_text_only_through_the_one_function() {
    // Debug of what is no one's text: clap's parse tree, a tracing
    // field's value, and the escape module itself.
    const ALLOWED: &[&str] = &[
        "src/cli/parse.rs",
        "src/warnings.rs",
        "src/agent_config.rs",
        "crates/core/src/escape.rs",
    ];
    let mut found = Vec::new();
    for dir in ["src", "crates/core/src"] {
        scan(&repo().join(dir), &mut |path, text| {
            let rel = path
                .strip_prefix(repo())
                .unwrap()
                .to_string_lossy()
                .to_string();
            if ALLOWED.contains(&rel.as_str()) {
                return;
            }
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            for (n, line) in code.lines().enumerate() {
                let line = line.trim_start();
                if line.starts_with("//") {
                    continue;
                }
                if line.contains(":?}") {
                    found.push(format!("{rel}:{}: {line}", n + 1));
                }
            }
        });
    }
    assert!(
        found.is_empty(),
        "{{:?}} in messages:\n{}",
        found.join("\n")
    );
}

fn scan(dir: &Path, f: &mut dyn FnMut(&Path, &str)) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            scan(&path, f);
        } else if path.extension().is_some_and(|e| e == "rs") {
            f(&path, &fs::read_to_string(&path).unwrap());
        }
    }
}

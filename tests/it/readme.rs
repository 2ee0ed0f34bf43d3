//! Every `console` block in README.md and docs/ runs, as printed, through
//! the real binary (one test per page; each name contains `readme`).
//!
//! A page is one shell session: its blocks run in order in one `bash`, in
//! a private mount namespace whose `/tmp` is a fresh tmpfs and whose root
//! file system is read-only (see [`run_page`]). The working directory is
//! `/tmp/clone`, holding a copy of the repository's `plugins-examples`, as
//! a clone would; a copy of `plugctl` is first on `PATH`, and the environment holds
//! nothing but `PATH`, `HOME` (`/tmp/home`), `LANG` and `TZ`: whatever
//! else a command needs, the page sets, where the reader sees it.
//!
//! In a block, a line starting `$ ` is a command (continued by a trailing
//! `\` or up to a here-document's terminator) and the lines after it, up
//! to the next command, are what it prints, stdout and stderr as a
//! terminal shows them. A line `...` stands for any number of lines and
//! `[..]` for any text within a line. Before comparing,
//! both sides get the same masks, and only these: durations, clock times,
//! ages ("5 min ago"), generated ids, and the runs of spaces that align a
//! table's columns (a duration's width moves them). Every other byte must
//! match: change one printed word and the page's test fails.
//!
//! `PLUGCTL_REGENERATE=1` rewrites each step that no longer matches with
//! what the command prints now, keeping a step's `...`: as many lines as
//! the page showed before it and after it (review the diff).

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::sync::LazyLock;
use std::time::Duration;

use regex::Regex;

use crate::common::*;

/// One command of a block and what the page says it prints.
struct Step {
    command: String,
    expected: String,
}

/// A `console` block: where its lines sit in the page, and its steps.
struct Block {
    /// Line numbers (0-based) of the first and one past the last line
    /// inside the fences.
    body: (usize, usize),
    steps: Vec<Step>,
}

/// The `console` blocks of a page, in order.
fn blocks(page: &str) -> Vec<Block> {
    let lines: Vec<&str> = page.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i].trim_start();
        if !fence.starts_with("```") {
            i += 1;
            continue;
        }
        let console = fence.trim_start_matches('`').trim() == "console";
        let start = i + 1;
        let mut end = start;
        while end < lines.len() && !lines[end].trim_start().starts_with("```") {
            end += 1;
        }
        if console {
            out.push(Block {
                body: (start, end),
                steps: steps(&lines[start..end]),
            });
        }
        i = end + 1;
    }
    out
}

fn steps(lines: &[&str]) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(first) = lines[i].strip_prefix("$ ") else {
            let step = steps
                .last_mut()
                .unwrap_or_else(|| panic!("output before any command: {:?}", lines[i]));
            step.expected.push_str(lines[i]);
            step.expected.push('\n');
            i += 1;
            continue;
        };
        let mut command = first.to_string();
        i += 1;
        // A trailing backslash continues the command on the next line.
        while command.ends_with('\\') && i < lines.len() {
            command.push('\n');
            command.push_str(lines[i]);
            i += 1;
        }
        // A here-document runs to its terminator.
        if let Some(word) = heredoc_word(&command) {
            while i < lines.len() {
                command.push('\n');
                command.push_str(lines[i]);
                i += 1;
                if lines[i - 1] == word {
                    break;
                }
            }
        }
        steps.push(Step {
            command,
            expected: String::new(),
        });
    }
    steps
}

fn heredoc_word(command: &str) -> Option<String> {
    static HEREDOC: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#"<<-?\s*['"]?([A-Za-z_]+)['"]?"#).unwrap());
    HEREDOC.captures(command).map(|c| c[1].to_string())
}

/// The masks both sides get before they are compared.
fn masked(text: &str) -> String {
    static MASKS: LazyLock<Vec<(Regex, &str)>> = LazyLock::new(|| {
        [
            // Generated ids: a UUID, and a short id (its first 8 digits)
            // where a table or message shows one.
            (
                r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
                "<id>",
            ),
            // A short id is a table's cell: 8 hex digits, then the padding
            // before the next column (or the line's end).
            (r"(?m)\b[0-9a-f]{8}( {2,}|$)", "<id>$1"),
            // Clock times: RFC 3339 and Unix seconds in a JSON field.
            (
                r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)\b",
                "<time>",
            ),
            // Ages.
            (r"\b(\d+ (s|sec|min|h|d|days?) ago|just now)\b", "<age>"),
            // Durations: 3ms, 7.00s, 1.42 s, 120µs.
            (r"\b\d+(\.\d+)? ?(ns|µs|us|ms|s|min|h)\b", "<duration>"),
            (r#""duration_ms": ?\d+"#, r#""duration_ms": <duration>"#),
            // Column alignment.
            (r"  +", "  "),
            (r"(?m)[ \t]+$", ""),
        ]
        .into_iter()
        .map(|(re, with)| (Regex::new(re).unwrap(), with))
        .collect()
    });
    let mut text = text.to_string();
    for (re, with) in MASKS.iter() {
        text = re.replace_all(&text, *with).into_owned();
    }
    text
}

/// Where the page runs: a fresh `/tmp` with a copy of the repository's
/// examples at [`CLONE`], the rest of the file system read-only.
const CLONE: &str = "/tmp/clone";

/// Where the page finds `plugctl`: first on its `PATH`.
const BIN: &str = "/tmp/bin";

/// What a page's commands print, with each one's exit status, or `None`
/// when this machine cannot isolate them (not root).
///
/// The page runs in a private mount namespace whose `/tmp` is a new tmpfs
/// and whose root file system is read-only: the scratch paths a page sets
/// are under `/tmp`, and a command that wrote anywhere else (the default
/// registry in /var/lib, a node's volumes in /opt) fails, and so does the
/// test. That is the README's promise to someone pasting it as root.
fn run_page(page: &Path, blocks: &[Block]) -> Option<Vec<(String, i32)>> {
    if !rustix::process::geteuid().is_root() {
        crate::common::skip_unless_ci(&format!(
            "{} runs in a mount namespace with a read-only root, which needs root",
            page.display()
        ));
        return None;
    }
    let marker = format!("@@plugctl-readme-{}@@", std::process::id());
    let mut script = String::new();
    let mut n = 0;
    for block in blocks {
        for step in &block.steps {
            // Each command in its own group so a failing one does not end
            // the session; its status is printed after the marker, and is
            // `$?` again when the next command starts (`$ echo $?` shows
            // the status of the command before it, as in a terminal).
            writeln!(script, "printf '\\n{marker} {n}\\n'").unwrap();
            writeln!(script, "(exit \"${{plugctl_readme_status:-0}}\")").unwrap();
            writeln!(script, "{{\n{}\n}} 2>&1", step.command).unwrap();
            writeln!(script, "plugctl_readme_status=$?").unwrap();
            writeln!(
                script,
                "printf '\\n{marker} status %s\\n' \"$plugctl_readme_status\""
            )
            .unwrap();
            n += 1;
        }
    }
    let examples = examples();
    // The mounts first, then the page in a shell whose environment holds
    // only what a fresh login would.
    // The binary and the examples are copied into the new /tmp through
    // descriptors opened before the mount, so a clone or a build under /tmp
    // (CARGO_TARGET_DIR=/tmp/...) is not hidden by it. Each step of the
    // set-up names itself when it fails: its own error, not "command 0
    // never ran".
    let setup = format!(
        "set -e\n\
         fail() {{ echo \"{marker} setup failed: $1\"; exit 97; }}\n\
         exec 3<'{plugctl}' || fail 'cannot open the plugctl binary'\n\
         exec 4<'{examples}' || fail 'cannot open plugins-examples'\n\
         mount -t tmpfs -o mode=1777 plugctl-readme /tmp || fail 'cannot mount a tmpfs on /tmp'\n\
         mkdir -p {CLONE} /tmp/home {BIN}\n\
         cat <&3 >{BIN}/plugctl && chmod 755 {BIN}/plugctl && exec 3<&- || fail 'cannot copy plugctl'\n\
         cp -a /proc/self/fd/4/. {CLONE}/plugins-examples && exec 4<&- || fail 'cannot copy plugins-examples'\n\
         mount -o remount,bind,ro / || fail 'cannot make / read-only'\n\
         cd {CLONE}\n\
         exec env -i PATH='{BIN}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
         HOME=/tmp/home LANG=C.UTF-8 TZ=UTC bash --noprofile --norc -c \"$0\"",
        examples = examples.display(),
        plugctl = PLUGCTL,
    );
    let out = expect::Run::new(Command::new("unshare"), "unshare")
        .args(["--mount", "--propagation", "private", "--", "bash", "-c"])
        .arg(&setup)
        .arg(&script)
        // What each command said is the answer, its status among it.
        .deadline(Duration::from_secs(300))
        .any_exit()
        .stdout();
    let mut results = Vec::new();
    for i in 0..n {
        let open = format!("\n{marker} {i}\n");
        let start = out.find(&open).unwrap_or_else(|| {
            // The set-up's own words, when it is what failed.
            let setup = out
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{marker} setup failed: ")));
            match setup {
                Some(why) => panic!("{}: the page's set-up failed: {why}", page.display()),
                None => panic!("{}: command {i} never ran:\n{out}", page.display()),
            }
        }) + open.len();
        let close = format!("\n{marker} status ");
        let end = start + out[start..].find(&close).unwrap();
        let status: i32 = out[end + close.len()..]
            .lines()
            .next()
            .unwrap()
            .parse()
            .unwrap();
        results.push((out[start..end].to_string(), status));
    }
    Some(results)
}

/// `actual` shown the way `expected` showed its output: when `expected`
/// elides lines with `...`, the same number of lines before the first and
/// after the last, and `...` between them.
fn keep_elision(expected: &str, actual: &str) -> String {
    let shown: Vec<&str> = expected.lines().collect();
    let (Some(first), Some(last)) = (
        shown.iter().position(|l| *l == "..."),
        shown.iter().rposition(|l| *l == "..."),
    ) else {
        return actual.to_string();
    };
    let (head, tail) = (first, shown.len() - last - 1);
    let lines: Vec<&str> = actual.lines().collect();
    if head + tail >= lines.len() {
        return actual.to_string();
    }
    let mut out: Vec<&str> = lines[..head].to_vec();
    out.push("...");
    out.extend(&lines[lines.len() - tail..]);
    out.join("\n") + "\n"
}

/// Runs every `console` block of `page` (relative to the repository) and
/// fails, with a diff per step, on any difference.
fn check(page: &str) {
    let path = repo().join(page);
    let text = std::fs::read_to_string(&path).unwrap();
    let blocks = blocks(&text);
    assert!(!blocks.is_empty(), "{page} has no console block");
    let Some(results) = run_page(&path, &blocks) else {
        return;
    };
    let regenerate = std::env::var_os("PLUGCTL_REGENERATE").is_some();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut failures = Vec::new();
    let mut n = 0;
    // Blocks are rewritten from the last so earlier line numbers hold.
    let mut rewrites: Vec<((usize, usize), String)> = Vec::new();
    for block in &blocks {
        let mut fresh = String::new();
        let mut changed = false;
        for step in &block.steps {
            let (actual, _status) = &results[n];
            n += 1;
            let actual = actual.strip_suffix('\n').unwrap_or(actual);
            let actual = if actual.is_empty() {
                String::new()
            } else {
                format!("{actual}\n")
            };
            // Compared as printed: snapbox would otherwise turn every `\`
            // of the actual output (an escaped quote in JSON, `\r` in a
            // message) into `/`, as if it were a Windows path.
            let assert = snapbox::Assert::new().normalize_paths(false);
            if let Err(diff) = assert.try_eq(
                Some(&format!("{page}: $ {}", step.command)),
                snapbox::Data::text(masked(&actual)),
                snapbox::Data::text(masked(&step.expected)),
            ) {
                failures.push(format!("{page}, line {}:\n{diff}", block.body.0));
                changed = true;
                let actual = keep_elision(&step.expected, &actual);
                fresh.push_str(&format!("$ {}\n{actual}", step.command));
            } else {
                fresh.push_str(&format!("$ {}\n{}", step.command, step.expected));
            }
        }
        if changed {
            rewrites.push((block.body, fresh));
        }
    }
    if failures.is_empty() {
        return;
    }
    if regenerate {
        for ((start, end), fresh) in rewrites.into_iter().rev() {
            lines.splice(start..end, fresh.lines().map(str::to_string));
        }
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        eprintln!("{page}: rewrote {} step(s)", failures.len());
        return;
    }
    panic!(
        "{} step(s) of {page} print something else now (PLUGCTL_REGENERATE=1 rewrites them):\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn readme_masks_only_what_changes_between_runs() {
    assert_eq!(
        masked("took 3ms and 1.42 s"),
        "took <duration> and <duration>"
    );
    assert_eq!(
        masked("10de5388-c61d-47e7-8f6c-44acb1259cad  web"),
        "<id>  web"
    );
    assert_eq!(
        masked("ok  10de5388  web\n10de5389\n"),
        "ok  <id>  web\n<id>\n"
    );
    // A word, a path or a size is compared as printed.
    assert_eq!(
        masked("inode 11272516, id 10de5388 web"),
        "inode 11272516, id 10de5388 web"
    );
    assert_eq!(masked("10 MiB in /tmp/x"), "10 MiB in /tmp/x");
    assert_eq!(masked("a   b\n"), "a  b\n");
}

#[test]
fn readme_blocks_parse_commands_continuations_and_heredocs() {
    let page = "text\n```console\n$ a \\\n  b\nout\n$ cat <<'EOF'\nx\nEOF\nx\n```\n```sh\n$ not run\n```\n";
    let blocks = blocks(page);
    assert_eq!(blocks.len(), 1);
    let steps = &blocks[0].steps;
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[0].command, "a \\\n  b");
    assert_eq!(steps[0].expected, "out\n");
    assert_eq!(steps[1].command, "cat <<'EOF'\nx\nEOF");
    assert_eq!(steps[1].expected, "x\n");
}

#[test]
fn readme_regenerating_keeps_a_steps_elision() {
    let shown = "TYPE  NAME\ndir   1\n...\nok: 3 checks\n";
    let now = "TYPE  NAME\ndir   2\nb     3\nc     4\nok: 4 checks\n";
    assert_eq!(
        keep_elision(shown, now),
        "TYPE  NAME\ndir   2\n...\nok: 4 checks\n"
    );
    // Nothing elided, or too few lines to elide: the output as it is.
    assert_eq!(keep_elision("a\nb\n", now), now);
    assert_eq!(keep_elision(shown, "a\nb\n"), "a\nb\n");
}

#[test]
fn readme() {
    check("README.md");
}

#[test]
fn readme_docs_cli() {
    check("docs/cli.md");
}

#[test]
fn readme_docs_volumes() {
    check("docs/volumes.md");
}

#[test]
fn readme_docs_secrets() {
    check("docs/secrets.md");
}

#[test]
fn readme_docs_provenance() {
    check("docs/provenance.md");
}

#[test]
fn readme_docs_plugin_authors() {
    check("docs/plugin-authors.md");
}

#[test]
fn readme_docs_conformance() {
    check("docs/conformance.md");
}

#[test]
fn readme_docs_fleet() {
    check("docs/fleet.md");
}

/// Every relative link in the repository's Markdown names a file or
/// directory that exists inside it, and no page cites a path on a build
/// machine or a contract kept outside the repository.
#[test]
fn readme_links_resolve_and_cite_nothing_outside_the_repository() {
    let root = repo();
    let listed = expect::Run::new(Command::new("git"), "git")
        .arg("-C")
        .arg(root)
        .args([
            "ls-files",
            "--cached",
            "--others",
            "--exclude-standard",
            "*.md",
        ])
        .succeeds()
        .stdout()
        .to_string();
    let link = Regex::new(r"\]\(([^)\s]+)\)").unwrap();
    let outside = Regex::new(r"shared/(spec)|/work/|/home/[a-z]|/root/").unwrap();
    let canonical_root = root.canonicalize().unwrap();
    let mut bad = Vec::new();
    let mut checked = 0;
    for page in listed.lines().filter(|p| !p.starts_with("target/")) {
        let path = root.join(page);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            if let Some(m) = outside.find(line) {
                bad.push(format!("{page}:{}: cites {:?}", n + 1, m.as_str()));
            }
            for cap in link.captures_iter(line) {
                let target = &cap[1];
                if target.contains("://")
                    || target.starts_with('#')
                    || target.starts_with("mailto:")
                {
                    continue;
                }
                let file = target.split('#').next().unwrap();
                let resolved = path.parent().unwrap().join(file);
                checked += 1;
                match resolved.canonicalize() {
                    Ok(p) if p.starts_with(&canonical_root) => {}
                    Ok(p) => bad.push(format!(
                        "{page}:{}: {target} leaves the repository ({})",
                        n + 1,
                        p.display()
                    )),
                    Err(e) => bad.push(format!("{page}:{}: {target}: {e}", n + 1)),
                }
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} links found: is the pattern right?"
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

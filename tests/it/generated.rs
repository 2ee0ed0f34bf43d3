//! The committed completion scripts (`completions/`) and man pages (`man/`)
//! are exactly what `plugctl::generate` makes from the clap definition now,
//! the binary prints the same scripts, the scripts parse in their shells, and
//! the hand-written registry completion answers what it should.
//!
//! `PLUGCTL_REGENERATE=1 cargo test --test it generated::` rewrites the files.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::*;
use clap_complete::Shell;
use plugctl::generate;

const REGENERATE: &str = "PLUGCTL_REGENERATE=1 cargo test --test it generated::";

/// Other tests here read the committed files; while they are being
/// rewritten those reads could see half a file, so they skip that part.
fn regenerating() -> bool {
    std::env::var_os("PLUGCTL_REGENERATE").is_some_and(|v| !v.is_empty())
}

#[test]
fn committed_files_are_current() {
    if regenerating() {
        generate::write_all(repo()).expect("write the generated files");
        eprintln!(
            "regenerated completions/ and man/ under {}",
            repo().display()
        );
        return;
    }
    let files = generate::files();
    let mut problems = Vec::new();
    for (rel, want) in &files {
        match fs::read(repo().join(rel)) {
            Ok(have) if have == *want => {}
            Ok(_) => problems.push(format!("{} is out of date", rel.display())),
            Err(e) => problems.push(format!("{} cannot be read: {e}", rel.display())),
        }
    }
    for stale in generate::stale_man_pages(repo(), &files).expect("list man/") {
        problems.push(format!(
            "{} is no longer generated (its command is gone)",
            stale.display()
        ));
    }
    assert!(
        problems.is_empty(),
        "generated files do not match the CLI definition:\n  {}\nregenerate everything with:\n  {REGENERATE}\nand commit the result",
        problems.join("\n  ")
    );
}

#[test]
fn the_binary_prints_the_committed_scripts() {
    let s = Rig::new();
    for shell in generate::SHELLS {
        let out = plugctl(&s)
            .args(["completions", &shell.to_string()])
            .succeeds();
        assert!(out.stderr.is_empty(), "{shell}: {}", stderr(&out));
        assert!(
            out.stdout == generate::completion(shell).into_bytes(),
            "`plugctl completions {shell}` differs from plugctl::generate::completion"
        );
        if regenerating() {
            continue;
        }
        let file = Path::new("completions").join(generate::completion_file_name(shell));
        let committed = fs::read(repo().join(&file)).unwrap_or_default();
        assert!(
            out.stdout == committed,
            "`plugctl completions {shell}` differs from {}; regenerate with: {REGENERATE}",
            file.display()
        );
    }
}

#[test]
fn completion_file_names_are_the_conventional_ones() {
    let names: Vec<String> = generate::SHELLS
        .iter()
        .map(|&s| generate::completion_file_name(s))
        .collect();
    assert_eq!(
        names,
        [
            "plugctl.bash",
            "_plugctl",
            "plugctl.fish",
            "plugctl.elv",
            "_plugctl.ps1"
        ]
    );
}

#[test]
fn man_pages_cover_every_command_without_a_date() {
    let pages = generate::man_pages();
    let names: Vec<&str> = pages.iter().map(|(n, _)| n.as_str()).collect();
    for want in [
        "plugctl.1",
        "plugctl-fingerprint.1",
        "plugctl-plugin.1",
        "plugctl-plugin-register.1",
        "plugctl-volume-create.1",
        "plugctl-secret-fetch.1",
        "plugctl-completions.1",
    ] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    assert!(
        !names.iter().any(|n| n.contains("help")),
        "a page for clap's help pseudo-command: {names:?}"
    );
    for (name, page) in &pages {
        let text = String::from_utf8_lossy(page);
        let title = name.trim_end_matches(".1");
        let th = text
            .lines()
            .find(|l| l.starts_with(".TH "))
            .unwrap_or_default();
        let want = format!(
            ".TH {title} 1 \"\" \"plugctl {}\"",
            env!("CARGO_PKG_VERSION")
        );
        assert!(th.starts_with(&want), "{name}: {th}");
    }
    let create = String::from_utf8_lossy(
        &pages
            .iter()
            .find(|(n, _)| n == "plugctl-volume-create.1")
            .unwrap()
            .1,
    )
    .into_owned();
    assert!(create.contains("plugctl volume create"), "{create}");
    assert!(create.contains("PLUGCTL_REGISTRY"), "{create}");
    assert_eq!(
        pages,
        generate::man_pages(),
        "man pages are not deterministic"
    );
}

#[test]
fn zsh_wrapper_comes_before_the_dispatch() {
    let script = generate::completion(Shell::Zsh);
    let wrapper = script.find("_plugctl_registry_position()").unwrap();
    let dispatch = script
        .rfind(generate::ZSH_DISPATCH)
        .expect("clap's zsh script no longer ends as src/generate/completions.rs expects");
    assert!(wrapper < dispatch);
}

// ---- syntax ----------------------------------------------------------------

/// `shell -n` on the script, which must pass.
fn syntax_check(shell: &str, script: &str) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("script");
    fs::write(&file, script).unwrap();
    tool(shell).arg("-n").arg(&file).succeeds();
}

#[test]
fn bash_script_parses() {
    // The tests need nothing but bash from the machine.
    syntax_check("bash", &generate::completion(Shell::Bash));
}

#[test]
fn zsh_and_fish_scripts_parse_where_installed() {
    for (shell, kind) in [("zsh", Shell::Zsh), ("fish", Shell::Fish)] {
        if !crate::common::tool_available(shell, "its completion script's syntax") {
            continue;
        }
        syntax_check(shell, &generate::completion(kind));
    }
}

// ---- registry names ----------------------------------------------------------

const VOLUME_A: &str = "0b5e2c1a-1111-4222-8333-444455556666";
const VOLUME_B: &str = "7f000000-1111-4222-8333-444455556666";
/// In namespace `other`.
const VOLUME_C: &str = "3c000000-1111-4222-8333-444455556666";
/// A volume name is any non-empty string: completion must offer it as one
/// literal word, never expand or split it.
const HOSTILE: &str = "we b\"$(touch pwned)';`touch pwned2`\\ * ~x";

/// Plugins of two families, some registered and some only in the plugin
/// directory, volumes made by the real plugctl, a `plugctl` on PATH, and
/// the completion scripts on disk.
struct Fixture {
    s: Rig,
    bin: PathBuf,
}

impl Fixture {
    fn new() -> Fixture {
        let s = Rig::new();
        s.hv_script(
            "dir",
            r#"mkdir -p "$v" && printf '{"path": "%s", "bytes": 0}\n' "$v""#,
            r#"rm -rf "$v""#,
        );
        // registered, but unhealthy: no volume can be created with it
        s.plugin("host-volume", "broken", "exit 1");
        s.secrets_ok("env-file");
        // The built-ins (host-volume/mkdir, secrets/nomad, secrets/vault)
        // are recorded without running anything; broken makes it exit 1.
        plugctl(&s).args(["fingerprint"]).fails_with(Exit::Failure);
        // in the plugin directory, not (yet) in the registry
        s.hv_ok("late", "1.0.0");
        s.plugin("example-family", "hello", "exit 0");
        for (id, name, ns, params) in [
            (
                VOLUME_A,
                "data",
                "default",
                // a volume's parameters are not volume ids or names
                &["--param", "id=not-a-volume", "--param", "name=not-a-name"][..],
            ),
            (VOLUME_B, HOSTILE, "default", &[]),
            (VOLUME_C, "logs", "other", &[]),
        ] {
            plugctl(&s)
                .args(["volume", "create", "--plugin", "dir", "--id", id])
                .args(["--name", name, "--namespace", ns])
                .args_from(params)
                .succeeds();
        }
        let bin = s.root().join("bin");
        crate::common::make_dir(&bin);
        // The real plugctl; a plugins.json next to it stands in for `plugin
        // list` where a test needs names no plugin file could have.
        let shim = format!(
            r#"#!/bin/sh
here=$(dirname "$0")
case " $* " in
*" plugin list "*) [ -f "$here/plugins.json" ] && exec cat "$here/plugins.json" ;;
esac
exec '{}' "$@"
"#,
            env!("CARGO_BIN_EXE_plugctl")
        );
        let path = bin.join("plugctl");
        fs::write(&path, shim).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
            fs::write(
                s.root().join(generate::completion_file_name(shell)),
                generate::completion(shell),
            )
            .unwrap();
        }
        Fixture { s, bin }
    }

    fn shell(&self, shell: &str, registry: &Path) -> expect::Run {
        let mut c = Command::new(shell);
        c.env_clear()
            .env("PATH", format!("{}:/usr/bin:/bin", self.bin.display()))
            .env("HOME", self.s.root().join("home"))
            .env("PLUGCTL_REGISTRY", registry)
            .env("PLUGCTL_NOMAD_CONFIG", "none")
            .env("PLUGCTL_PLUGIN_DIR", &self.s.plugins)
            .env("PLUGCTL_VOLUMES_DIR", &self.s.volumes)
            .current_dir(self.s.root());
        expect::Run::new(c, shell)
    }

    fn script(&self, shell: Shell) -> PathBuf {
        self.s.root().join(generate::completion_file_name(shell))
    }

    /// What bash offers for these words, the last being the one completed,
    /// each as the word bash reads from what it inserts: every reply must be
    /// exactly one word.
    fn bash(&self, registry: &Path, words: &[&str]) -> Vec<String> {
        let out = self
            .shell("bash", registry)
            .args([
                "-c",
                r#"source "$1" && shift
COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
_plugctl_with_registry plugctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
for reply in "${COMPREPLY[@]}"; do
    # as the line will read it once inserted
    eval "set -- $reply"
    if [ $# -ne 1 ]; then echo "not one word: $reply" >&2; exit 1; fi
    printf '%s\n' "$1"
done"#,
                "bash",
            ])
            .arg(self.script(Shell::Bash))
            .args_from(words)
            .succeeds();
        lines(&out)
    }

    /// What the zsh wrapper hands to compadd (zsh itself filters by the
    /// prefix and quotes each for the line), or None where it leaves the
    /// word to clap's function. The completion system's functions are
    /// stand-ins that print what they are given.
    fn zsh(&self, registry: &Path, words: &[&str]) -> Option<Vec<String>> {
        let out = self
            .shell("zsh", registry)
            .args([
                "-fc",
                // compdef exists only under compinit, which this does not need.
                r#"compdef() { :; }
source "$1" && shift
_wanted() { shift 3; "$@"; }
compset() { :; }
compadd() {
    [[ $1 == -a && $# == 2 ]] || { print -r -- "compadd $*" >&2; exit 1; }
    print -rl -- "${(@P)2}"
}
_plugctl_clap() { exit 3; }
words=("$@"); CURRENT=$#
_plugctl"#,
                "zsh",
            ])
            .arg(self.script(Shell::Zsh))
            .args_from(words)
            .any_exit();
        match out.status.code() {
            Some(0) => Some(lines(&out)),
            Some(3) => None,
            _ => panic!("zsh: {}", stderr(&out)),
        }
    }

    /// What fish offers for this command line (candidates without
    /// descriptions), sorted: fish orders them its own way.
    fn fish(&self, registry: &Path, line: &str) -> Vec<String> {
        let out = self
            .shell("fish", registry)
            .args(["--no-config", "-c", "source $argv[1]; complete -C $argv[2]"])
            .arg(self.script(Shell::Fish))
            .arg(line)
            .succeeds();
        let mut offered: Vec<String> = lines(&out)
            .into_iter()
            .map(|l| l.split('\t').next().unwrap_or_default().to_string())
            .collect();
        offered.sort();
        offered
    }

    fn pwned(&self) -> bool {
        ["pwned", "pwned2"]
            .iter()
            .any(|f| self.s.root().join(f).exists())
    }
}

fn lines(out: &Output) -> Vec<String> {
    stdout(out)
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

fn strings(s: &[&str]) -> Vec<String> {
    s.iter().map(|s| s.to_string()).collect()
}

fn sorted(s: &[&str]) -> Vec<String> {
    let mut v = strings(s);
    v.sort();
    v
}

fn installed(shell: &str) -> bool {
    crate::common::tool_available(shell, "its completion of registry names")
}

/// Words before the cursor, the word being completed, and what must be
/// offered, in byte order (`sort -u` under the tests' C locale).
const CASES: &[(&[&str], &str, &[&str])] = &[
    // ids in every namespace, names in --namespace (default: default)
    (
        &["volume", "show"],
        "",
        &[VOLUME_A, VOLUME_C, VOLUME_B, "data", HOSTILE],
    ),
    (
        &["volume", "delete"],
        "",
        &[VOLUME_A, VOLUME_C, VOLUME_B, "data", HOSTILE],
    ),
    (
        &["volume", "forget"],
        "",
        &[VOLUME_A, VOLUME_C, VOLUME_B, "data", HOSTILE],
    ),
    (
        &["volume", "show", "--namespace", "other"],
        "",
        &[VOLUME_A, VOLUME_C, VOLUME_B, "logs"],
    ),
    (&["plugin", "show"], "", &["host-volume", "secrets"]),
    (
        &["plugin", "show", "secrets"],
        "",
        &["env-file", "nomad", "vault"],
    ),
    (
        &["plugin", "wait", "host-volume"],
        "",
        &["broken", "dir", "mkdir"],
    ),
    (
        &["fingerprint"],
        "",
        &["broken", "dir", "env-file", "mkdir", "nomad", "vault"],
    ),
    (
        &["fingerprint", "--type", "secrets"],
        "",
        &["env-file", "nomad", "vault"],
    ),
    // a file, not Nomad's built-ins, which cannot run here
    (&["secret", "fetch"], "", &["env-file"]),
    // healthy only: broken cannot serve a create
    (
        &["volume", "create", "--name", "x", "--plugin"],
        "",
        &["dir", "mkdir"],
    ),
    (
        &["volume", "list", "--plugin"],
        "",
        &["broken", "dir", "mkdir"],
    ),
    (&["init"], "", &["host-volume", "secrets"]),
    (&["--json", "init"], "", &["host-volume", "secrets"]),
    // the plugin directory, registered or not; no built-in
    (&["test"], "", &["example-family", "host-volume", "secrets"]),
    (&["test", "host-volume"], "", &["broken", "dir", "late"]),
    (&["--json", "test", "secrets"], "", &["env-file"]),
    (
        &["plugin", "list", "--type"],
        "",
        &["host-volume", "secrets"],
    ),
];

fn words<'a>(before: &[&'a str], cur: &'a str) -> Vec<&'a str> {
    let mut w = vec!["plugctl"];
    w.extend_from_slice(before);
    w.push(cur);
    w
}

#[test]
fn bash_completes_registry_names() {
    let f = Fixture::new();
    let reg = &f.s.registry;
    for (before, cur, want) in CASES {
        assert_eq!(
            f.bash(reg, &words(before, cur)),
            *want,
            "{before:?} {cur:?}"
        );
    }
    // the prefix typed so far filters
    assert_eq!(f.bash(reg, &words(&["volume", "show"], "7")), [VOLUME_B]);
    assert_eq!(f.bash(reg, &words(&["volume", "show"], "d")), ["data"]);
    assert_eq!(
        f.bash(reg, &words(&["plugin", "show", "secrets"], "v")),
        ["vault"]
    );
    assert_eq!(f.bash(reg, &words(&["init"], "s")), ["secrets"]);
    assert_eq!(f.bash(reg, &words(&["test", "host-volume"], "l")), ["late"]);
    // bash splits --plugin=m into three words
    assert_eq!(
        f.bash(reg, &["plugctl", "volume", "create", "--plugin", "=", "m"]),
        ["mkdir"]
    );
    // an option is still an option, and clap still completes subcommands
    assert!(
        f.bash(reg, &words(&["volume", "show"], "--"))
            .contains(&"--namespace".to_string())
    );
    assert!(
        f.bash(reg, &words(&[], "vol"))
            .contains(&"volume".to_string())
    );
    assert!(!f.pwned());
}

#[test]
fn bash_offers_a_hostile_volume_name_as_one_literal_word() {
    let f = Fixture::new();
    let reg = &f.s.registry;
    // `bash` evals each reply as the line will read it: one word, the name
    assert_eq!(f.bash(reg, &words(&["volume", "show"], "w")), [HOSTILE]);
    // what was typed so far is compared as bash will read it
    assert_eq!(
        f.bash(reg, &words(&["volume", "delete"], r"we\ b")),
        [HOSTILE]
    );
    assert_eq!(
        f.bash(reg, &words(&["volume", "delete"], "'we b")),
        [HOSTILE]
    );
    assert!(!f.pwned(), "completion ran a command from a volume name");
}

#[test]
fn bash_reads_the_registry_and_plugin_dir_named_on_the_line() {
    let f = Fixture::new();
    let elsewhere = f.s.root().join("no-such-registry.json");
    let real = f.s.registry.to_str().unwrap();
    assert_eq!(
        f.bash(
            &elsewhere,
            &words(&["--registry", real, "plugin", "show", "secrets"], "")
        ),
        ["env-file", "nomad", "vault"]
    );
    assert_eq!(
        f.bash(
            &elsewhere,
            &words(&["--registry", "=", real, "secret", "fetch"], "")
        ),
        ["env-file"]
    );
    let other = f.s.root().join("other-plugins");
    crate::common::make_dir(other.join("secrets"));
    fs::copy(
        f.s.plugins.join("secrets/env-file"),
        other.join("secrets/only-here"),
    )
    .unwrap();
    let other = other.to_str().unwrap();
    assert_eq!(
        f.bash(
            &f.s.registry,
            &words(&["--plugin-dir", other, "test", "secrets"], "")
        ),
        ["only-here"]
    );
}

#[test]
fn bash_falls_back_to_clap_when_plugctl_fails() {
    let f = Fixture::new();
    let broken = f.s.root().join("broken.json");
    fs::write(&broken, "not json").unwrap();
    let offered = f.bash(&broken, &words(&["plugin", "show", "secrets"], ""));
    assert!(!offered.contains(&"vault".to_string()), "{offered:?}");
    assert!(offered.contains(&"--alloc-id".to_string()), "{offered:?}");
}

#[test]
fn bash_never_expands_registry_data() {
    let f = Fixture::new();
    // A plugin file name is anything the directory allows; completion must
    // offer it as text, not run it.
    fs::write(
        f.bin.join("plugins.json"),
        r#"{"schema_version": 1, "plugins": [
            {"type": "host-volume", "name": "x$(touch pwned)", "healthy": true},
            {"type": "host-volume", "name": "x with \"quote\\", "healthy": true},
            {"type": "host-volume", "name": "x\nline", "healthy": true}
        ]}"#,
    )
    .unwrap();
    let offered = f.bash(
        &f.s.registry,
        &words(&["plugin", "show", "host-volume"], "x"),
    );
    // a name with a newline cannot be one line, and is left out
    assert_eq!(offered, ["x with \"quote\\", "x$(touch pwned)"]);
    assert!(!f.pwned());
}

#[test]
fn zsh_completes_registry_names_where_installed() {
    if !installed("zsh") {
        return;
    }
    let f = Fixture::new();
    for (before, cur, want) in CASES {
        assert_eq!(
            f.zsh(&f.s.registry, &words(before, cur)),
            Some(strings(want)),
            "{before:?} {cur:?}"
        );
    }
    assert_eq!(
        f.zsh(&f.s.registry, &words(&["volume", "create"], "--plugin=")),
        Some(strings(&["dir", "mkdir"]))
    );
    assert_eq!(
        f.zsh(
            &f.s.registry,
            &words(&["volume", "show", "--namespace=other"], "")
        ),
        Some(strings(&[VOLUME_A, VOLUME_C, VOLUME_B, "logs"]))
    );
    assert_eq!(
        f.zsh(&f.s.registry, &words(&["volume", "show"], "--n")),
        None
    );
    let broken = f.s.root().join("broken.json");
    fs::write(&broken, "not json").unwrap();
    assert_eq!(
        f.zsh(&broken, &words(&["plugin", "show", "secrets"], "")),
        None
    );
    assert!(!f.pwned());
}

#[test]
fn zsh_hands_a_hostile_volume_name_to_compadd_as_one_word_where_installed() {
    if !installed("zsh") {
        return;
    }
    let f = Fixture::new();
    let offered = f
        .zsh(&f.s.registry, &words(&["volume", "show"], ""))
        .unwrap();
    assert!(offered.contains(&HOSTILE.to_string()), "{offered:?}");
    assert!(!f.pwned(), "completion ran a command from a volume name");
    // compadd quotes what it inserts unless told not to (-Q, -U)
    let script = generate::completion(Shell::Zsh);
    assert!(script.contains("compadd -a names"));
    assert!(!script.contains("compadd -Q") && !script.contains("compadd -U"));
}

/// The command line after typing `line` and TAB in a real interactive
/// `shell` (zsh with compinit, or fish) with the completion script, on a
/// pseudo-terminal that zsh's `zsh/zpty` drives.
fn line_after_tab(f: &Fixture, shell: Shell, line: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let buffer = dir.path().join("buffer");
    // Then ^X writes the line as it is after completion, and empties it.
    let (start, setup) = match shell {
        Shell::Zsh => (
            "zsh -f -i",
            r#"autoload -U compinit; compinit -u -D; source ${(q)script}
dump() { print -r -- \$BUFFER > ${(q)buffer}; BUFFER=; zle accept-line }; zle -N dump; bindkey '^X' dump"#,
        ),
        Shell::Fish => (
            "fish --no-config -i",
            r#"source ${(q)script}; bind \\cx 'commandline > ${(q)buffer}; commandline \"\"'"#,
        ),
        _ => unreachable!(),
    };
    let driver = format!(
        r#"zmodload zsh/zpty || exit 2
buffer=$1 script=$2 line=$3
zpty z '{start}'
zpty -w z "{setup}"
# the shell reads these in order: the completion is done before ^X is read
zpty -w -n z "$line"$'\t'$'\C-x'
for i in {{1..300}}; do [[ -s $buffer ]] && break; sleep 0.1; done
zpty -w z exit
zpty -d z
[[ -s $buffer ]] || {{ print -u2 "no line after 30 s"; exit 1; }}
print -rn -- "$(<$buffer)""#
    );
    let out = f
        .shell("zsh", &f.s.registry)
        .args(["-fc", &driver, "zsh"])
        .arg(buffer)
        .arg(f.script(shell))
        .arg(line)
        .succeeds();
    stdout(&out)
}

/// The words fish reads from a command line: each printed on a line (the
/// names here hold no newline).
fn fish_words(f: &Fixture, line: &str) -> Vec<String> {
    let out = f
        .shell("fish", &f.s.registry)
        .args(["--no-config", "-c", &format!("printf '%s\\n' {line}")])
        .succeeds();
    stdout(&out).lines().map(str::to_string).collect()
}

/// The words zsh reads from a command line, unquoted.
fn zsh_words(f: &Fixture, line: &str) -> Vec<String> {
    let out = f
        .shell("zsh", &f.s.registry)
        .args(["-fc", r#"print -rl -- "${(@Q)${(z)1}}""#, "zsh", line])
        .succeeds();
    stdout(&out).lines().map(str::to_string).collect()
}

#[test]
fn zsh_inserts_a_hostile_volume_name_as_one_literal_word_where_installed() {
    if !installed("zsh") {
        return;
    }
    let f = Fixture::new();
    let line = line_after_tab(&f, Shell::Zsh, "plugctl volume show w");
    assert_ne!(
        line.trim_end(),
        "plugctl volume show w",
        "nothing was inserted"
    );
    assert_eq!(
        zsh_words(&f, &line),
        ["plugctl", "volume", "show", HOSTILE],
        "as inserted: {line:?}"
    );
    // and a plain one, to show the driver sees what zsh does
    let line = line_after_tab(&f, Shell::Zsh, "plugctl secret fetch e");
    assert_eq!(line, "plugctl secret fetch env-file ");
    assert!(!f.pwned(), "completion ran a command from a volume name");
}

#[test]
fn fish_completes_registry_names_where_installed() {
    if !installed("fish") {
        return;
    }
    let f = Fixture::new();
    for (before, cur, want) in CASES {
        let line = words(before, cur).join(" ");
        assert_eq!(f.fish(&f.s.registry, &line), sorted(want), "{line:?}");
    }
    assert_eq!(
        f.fish(&f.s.registry, "plugctl volume create --plugin=m"),
        ["--plugin=mkdir"]
    );
    assert_eq!(
        f.fish(&f.s.registry, "plugctl volume show --namespace=other l"),
        ["logs"]
    );
    assert_eq!(f.fish(&f.s.registry, "plugctl volume show 7"), [VOLUME_B]);
    assert_eq!(
        f.fish(&f.s.registry, "plugctl test host-volume l"),
        ["late"]
    );
    let broken = f.s.root().join("broken.json");
    fs::write(&broken, "not json").unwrap();
    let offered = f.fish(&broken, "plugctl secret fetch ");
    assert!(!offered.contains(&"env-file".to_string()), "{offered:?}");
    assert!(!f.pwned());
}

#[test]
fn fish_offers_a_hostile_volume_name_as_one_literal_word_where_installed() {
    if !installed("fish") {
        return;
    }
    let f = Fixture::new();
    // fish escapes a candidate as the line needs it when it inserts it
    assert_eq!(f.fish(&f.s.registry, "plugctl volume show w"), [HOSTILE]);
    assert!(!f.pwned(), "completion ran a command from a volume name");
}

#[test]
fn fish_inserts_a_hostile_volume_name_as_one_literal_word_where_installed() {
    if !installed("fish") || !installed("zsh") {
        return;
    }
    let f = Fixture::new();
    let line = line_after_tab(&f, Shell::Fish, "plugctl volume show w");
    assert_ne!(
        line.trim_end(),
        "plugctl volume show w",
        "nothing was inserted"
    );
    assert_eq!(
        fish_words(&f, &line),
        ["plugctl", "volume", "show", HOSTILE],
        "as inserted: {line:?}"
    );
    let line = line_after_tab(&f, Shell::Fish, "plugctl secret fetch e");
    assert_eq!(line.trim_end(), "plugctl secret fetch env-file");
    assert!(!f.pwned(), "completion ran a command from a volume name");
}

#[test]
fn the_json_reader_holds_no_single_quote_and_the_context_options_exist() {
    // each script quotes the awk program in single quotes
    assert!(!generate::JSON_AWK.contains('\''));
    let mut cmd = plugctl::cli::command();
    cmd.build();
    for opt in generate::CONTEXT_OPTIONS {
        assert!(
            cmd.get_arguments()
                .any(|a| a.is_global_set() && a.get_long() == opt.strip_prefix("--")),
            "{opt} is not a global option"
        );
    }
}

#[test]
fn scripts_name_no_machine_paths() {
    for shell in generate::SHELLS {
        let script = generate::completion(shell);
        for leak in [env!("CARGO_MANIFEST_DIR"), "/root/", "/home/"] {
            assert!(!script.contains(leak), "{shell} script contains {leak:?}");
        }
    }
}

// ---- man page sections --------------------------------------------------------

/// A page as `man` renders it for a reader: its sections' bodies by
/// heading, or None where man is not installed (in CI it must be).
fn rendered_sections(page: &[u8]) -> Option<Vec<(String, String)>> {
    if !crate::common::tool_available("man", "the man pages' sections as man renders them") {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("page.1");
    fs::write(&file, page).unwrap();
    let mut c = Command::new("man");
    c.env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("MANWIDTH", "200")
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        // groff's warnings on stderr: a page must render without one.
        .args(["--warnings", "--nh", "--nj", "-l"])
        .arg(&file);
    let out = expect::Run::new(c, "man").succeeds();
    assert!(
        out.stderr.is_empty(),
        "man warns about the page: {}",
        stderr(&out)
    );
    let mut sections: Vec<(String, String)> = Vec::new();
    for line in stdout(&out).lines() {
        if line.starts_with(|c: char| c.is_ascii_uppercase()) {
            sections.push((line.trim().to_string(), String::new()));
        } else if let Some((_, body)) = sections.last_mut() {
            body.push_str(line.trim());
            body.push('\n');
        }
    }
    Some(sections)
}

fn section<'a>(sections: &'a [(String, String)], name: &str, page: &str) -> &'a str {
    sections
        .iter()
        .find(|(h, _)| h == name)
        .map(|(_, b)| b.as_str())
        .unwrap_or_else(|| {
            let headings: Vec<&str> = sections.iter().map(|(h, _)| h.as_str()).collect();
            panic!("{page}: no {name} section among {headings:?}")
        })
}

/// The command of each page, from the clap definition: `plugctl.1` is the
/// root, `plugctl-volume-create.1` is `volume create`.
fn page_commands() -> Vec<(String, clap::Command)> {
    fn walk(cmd: &clap::Command, out: &mut Vec<(String, clap::Command)>) {
        out.push((
            format!("{}.1", cmd.get_display_name().unwrap_or("plugctl")),
            cmd.clone(),
        ));
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            walk(sub, out);
        }
    }
    let mut root = plugctl::cli::command().disable_help_subcommand(true);
    root.build();
    let mut out = Vec::new();
    walk(&root, &mut out);
    out
}

#[test]
fn man_pages_say_exit_status_environment_files_and_examples() {
    let pages = generate::man_pages();
    let commands = page_commands();
    assert_eq!(
        commands
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .len(),
        pages.len()
    );
    for (name, cmd) in &commands {
        let page = &pages
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no page {name}"))
            .1;
        let Some(sections) = rendered_sections(page) else {
            return;
        };

        let exit = section(&sections, "EXIT STATUS", name);
        for (code, _) in plugctl::exit::DOCUMENTED {
            assert!(
                exit.lines()
                    .any(|l| l.split_whitespace().next() == Some(&code.to_string())),
                "{name}: exit code {code} is not in EXIT STATUS:\n{exit}"
            );
        }
        assert!(exit.contains("128+n"), "{name}:\n{exit}");
        assert!(exit.contains("130 for Ctrl-C"), "{name}:\n{exit}");

        // Every variable clap reads for this command, found independently
        // of how src/generate/completions.rs finds them.
        let environment = section(&sections, "ENVIRONMENT", name);
        let headings: Vec<&str> = environment
            .lines()
            .filter(|l| !l.contains(' ') && !l.is_empty())
            .collect();
        let mut wanted = 0;
        for arg in cmd.get_arguments() {
            let Some(var) = arg.get_env().and_then(|v| v.to_str()) else {
                continue;
            };
            wanted += 1;
            assert!(
                headings.contains(&var),
                "{name}: {var} is not in ENVIRONMENT:\n{environment}"
            );
            let long = format!("--{}", arg.get_long().unwrap());
            assert!(
                environment.contains(&format!("Sets {long}")),
                "{name}: {long}"
            );
        }
        assert!(wanted >= 15, "{name}: only {wanted} variables");
        for var in headings.iter().filter(|v| v.starts_with("PLUGCTL_")) {
            assert!(
                cmd.get_arguments()
                    .any(|a| a.get_env().is_some_and(|e| e == *var)),
                "{name}: ENVIRONMENT lists {var}, which clap does not read"
            );
        }
        assert!(headings.contains(&"NO_COLOR"), "{name}");

        if !name.starts_with("plugctl-completions") && !name.starts_with("plugctl-init") {
            let files = section(&sections, "FILES", name);
            for want in [
                plugctl::settings::ROOT_REGISTRY.to_string(),
                format!(
                    "<registry>{}<N>",
                    plugctl_core::registry::file::JOURNAL_SUFFIX
                ),
                "registry.json.journal.00000001".to_string(),
                format!("<registry>{}", plugctl_core::registry::file::LOCK_SUFFIX),
                format!("<registry>{}/", plugctl_core::registry::file::OWNERS_SUFFIX),
                format!("<plugin-dir>/{}", plugctl_core::pin::LOCK_FILE_NAME),
                "/etc/nomad.d".to_string(),
            ] {
                assert!(
                    files.contains(&want),
                    "{name}: {want} not in FILES:\n{files}"
                );
            }
        }
    }

    let root = &pages.iter().find(|(n, _)| n == "plugctl.1").unwrap().1;
    let Some(sections) = rendered_sections(root) else {
        return;
    };
    let examples = section(&sections, "EXAMPLES", "plugctl.1");
    let shown: Vec<&str> = examples
        .lines()
        .filter(|l| l.starts_with("plugctl "))
        .collect();
    assert!(shown.len() >= 5, "{examples}");
    assert!(shown.contains(&"plugctl fingerprint"), "{examples}");
    let create = pages
        .iter()
        .find(|(n, _)| n == "plugctl-volume-create.1")
        .unwrap();
    let sections = rendered_sections(&create.1).unwrap();
    let examples = section(&sections, "EXAMPLES", &create.0);
    assert!(
        examples.contains("plugctl volume create --plugin mkdir"),
        "{examples}"
    );
}

#[test]
fn man_page_examples_are_commands_plugctl_takes() {
    assert!(generate::EXAMPLES.len() >= 10);
    for e in generate::EXAMPLES {
        let words: Vec<&str> = e.command.split(' ').collect();
        assert_eq!(words[0], "plugctl", "{}", e.command);
        if let Err(err) = plugctl::cli::command().try_get_matches_from(&words) {
            panic!("example {:?} does not parse:\n{}", e.command, err.render());
        }
    }
    // each is on its command's page and the pages above it
    let on = |path: &[&str]| -> Vec<&str> {
        generate::examples_for(path)
            .iter()
            .map(|e| e.command)
            .collect()
    };
    assert!(
        on(&["volume", "create"])
            .iter()
            .all(|c| c.starts_with("plugctl volume create"))
    );
    assert!(on(&["volume"]).len() > on(&["volume", "create"]).len());
    assert!(on(&["completions"]).contains(&"plugctl completions bash"));
    assert!(on(&["plugin", "wait"])[0].contains("plugin wait"));
}

#[test]
fn cli_doc_lists_the_exit_codes_the_code_defines() {
    let doc = fs::read_to_string(repo().join("docs/cli.md")).unwrap();
    let table = doc
        .split("\n## Exit codes\n")
        .nth(1)
        .expect("docs/cli.md has an Exit codes section");
    let codes: Vec<&str> = table
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .filter_map(|l| l.split('|').nth(1).map(str::trim))
        .collect();
    let mut want: Vec<String> = plugctl::exit::DOCUMENTED
        .iter()
        .map(|(c, _)| c.to_string())
        .collect();
    want.push(format!("{}+n", plugctl::shutdown::SIGNAL_EXIT_BASE));
    assert_eq!(
        codes, want,
        "docs/cli.md's exit codes and src/exit.rs differ"
    );
}

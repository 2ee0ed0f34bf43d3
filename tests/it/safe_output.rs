//! What `secret fetch` prints is read by something: a shell's `eval`
//! (`--format env`), systemd's `EnvironmentFile=`, `docker --env-file`,
//! plugctl's own `--env-file` or a shell sourcing the file (`--format
//! kv`). Whoever can write a key or a value into a secret store must not
//! run code through any of them, nor set another variable: each format's
//! output is handed to the real readers here (bash, dash, zsh; systemd's
//! own parser in libsystemd-shared; the docker command line against a
//! daemon of the test's making; plugctl's `--env-file`), with a canary
//! file that any payload would create.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use plugctl_core::hooks::{self, Pattern};
use serde_json::{Value, json};

use crate::common::*;

/// The shells `--format env` is for, and that may source a kv file.
const SHELLS: [&str; 3] = ["/usr/bin/bash", "/usr/bin/dash", "/usr/bin/zsh"];

/// A secrets plugin that answers every fetch with exactly these bytes.
fn answering(s: &Rig, name: &str, stdout: &[u8]) {
    let file = s.out_file(&format!("{name}.stdout"));
    fs::write(&file, stdout).unwrap();
    s.plugin(
        "secrets",
        name,
        &format!(
            "[ \"$1\" = fingerprint ] && echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' && exit 0\n\
             /usr/bin/cat '{}'",
            file.display()
        ),
    );
}

/// `{"result": {...}}` of these pairs.
fn result<K: AsRef<str>, V: AsRef<str>>(pairs: impl IntoIterator<Item = (K, V)>) -> Vec<u8> {
    let map: serde_json::Map<String, Value> = pairs
        .into_iter()
        .map(|(k, v)| {
            (
                k.as_ref().to_string(),
                Value::String(v.as_ref().to_string()),
            )
        })
        .collect();
    serde_json::to_vec(&json!({ "result": map })).unwrap()
}

/// Values that run `touch canary` wherever something evaluates them: a
/// command substitution, backquotes, bash's arithmetic on a special
/// parameter, a quote that ends the word early, a line of its own.
fn payloads(canary: &Path) -> Vec<String> {
    let c = canary.display();
    vec![
        format!("$(/usr/bin/touch {c})"),
        format!("`/usr/bin/touch {c}`"),
        format!("a[$(/usr/bin/touch {c})]"),
        format!("'; /usr/bin/touch {c}; '"),
        format!("\"; /usr/bin/touch {c}; \""),
        format!("x\n/usr/bin/touch {c}\n"),
        format!("x\r/usr/bin/touch {c}"),
        format!("\\\n/usr/bin/touch {c}"),
        format!("/usr/bin/touch {c}"),
    ]
}

/// `script` run by `shell -c`, with plugctl at `$1`, in the rig's
/// environment.
fn in_shell(s: &Rig, shell: &str, script: &str) -> expect::Run {
    expect::Run::new(s.command(shell), shell)
        .arg("-c")
        .arg(script)
        .arg("sh")
        .arg(PLUGCTL)
}

/// One of each name and family of the hooks table, as the table spells
/// it, in lower case and a family with a tail: every key a store could
/// use to hook code.
fn every_hook_key() -> Vec<String> {
    let mut keys = std::collections::BTreeSet::new();
    for (_, pattern) in hooks::patterns() {
        let key = match pattern {
            Pattern::Exact(name) => name.to_string(),
            Pattern::Prefix(start) => format!("{start}X"),
        };
        keys.insert(key.to_ascii_lowercase());
        keys.insert(key);
    }
    keys.into_iter().collect()
}

#[test]
fn env_and_kv_refuse_every_key_that_hooks_code_and_nothing_runs() {
    let s = Rig::new();
    let canary = s.out_file("canary");
    let payload = payloads(&canary).join("");
    let keys = every_hook_key();
    let mut store: Vec<(String, String)> =
        keys.iter().map(|k| (k.clone(), payload.clone())).collect();
    store.push(("GOOD".into(), "plain".into()));
    answering(&s, "p", &result(store));
    // A message names at most 500 keys: each key is named by a store
    // holding it among fewer.
    let chunks: Vec<&[String]> = keys.chunks(250).collect();
    for (i, chunk) in chunks.iter().enumerate() {
        let store: Vec<(String, String)> = chunk
            .iter()
            .map(|k| (k.clone(), payload.clone()))
            .chain([("GOOD".to_string(), "plain".to_string())])
            .collect();
        answering(&s, &format!("part{i}"), &result(store));
    }

    for format in ["env", "kv"] {
        // Nothing printed, exit 1, every key named, no value.
        plugctl(&s)
            .args(["secret", "fetch", "p", "x", "--format", format])
            .fails_with(Exit::Failure)
            .stdout_empty()
            .stderr_has(&format!("nothing printed: {} keys", keys.len()))
            .stderr_lacks("touch");
        for (i, chunk) in chunks.iter().enumerate() {
            let out = plugctl(&s)
                .args([
                    "secret",
                    "fetch",
                    &format!("part{i}"),
                    "x",
                    "--format",
                    format,
                ])
                .fails_with(Exit::Failure)
                .stdout_empty()
                .stderr_has(&format!("nothing printed: {} keys", chunk.len()))
                .stderr_lacks("touch");
            let err = out.stderr();
            for key in *chunk {
                assert!(
                    err.contains(&format!("{key:?} would change")),
                    "{key}: {err}"
                );
            }
            assert!(!err.contains("\"GOOD\""), "{err}");
        }
        // And a shell that evals what it printed (nothing) runs nothing and
        // sets nothing.
        for shell in SHELLS {
            let ran = in_shell(
                &s,
                shell,
                &format!(
                    "out=$(\"$1\" secret fetch p x --format {format} 2>/dev/null); st=$?; \
                     eval \"$out\"; printf '%s|%s' \"$st\" \"${{GOOD-unset}}\""
                ),
            )
            .succeeds();
            assert_eq!(ran.stdout(), "1|unset", "{shell} {format}");
        }
    }
    assert!(!canary.exists(), "a payload ran");
}

/// The least the table must hold, as issue 34 lists it, written out here
/// rather than read from the table (which the test above uses).
const AT_LEAST: &[&str] = &[
    "PATH",
    "IFS",
    "ENV",
    "BASH_ENV",
    "CDPATH",
    "PS0",
    "PS1",
    "PS2",
    "PS3",
    "PS4",
    "PROMPT_COMMAND",
    "SHELLOPTS",
    "BASHOPTS",
    "BASH_FUNC_x",
    "LD_PRELOAD",
    "LD_LIBRARY_PATH",
    "LD_AUDIT",
    "GCONV_PATH",
    "GLIBC_TUNABLES",
    "LOCPATH",
    "NLSPATH",
    "PYTHONPATH",
    "PYTHONSTARTUP",
    "PYTHONHOME",
    "PERL5LIB",
    "PERL5OPT",
    "PERLLIB",
    "RUBYLIB",
    "RUBYOPT",
    "NODE_OPTIONS",
    "NODE_PATH",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS",
    "CLASSPATH",
    "GIT_SSH_COMMAND",
    "GIT_EXEC_PATH",
    "GIT_CONFIG_COUNT",
    "GIT_CONFIG_KEY_0",
    "EDITOR",
    "VISUAL",
    "PAGER",
    "LESSOPEN",
    "ZDOTDIR",
    "FPATH",
    "path",
    "OPTIND",
    "RANDOM",
    "UID",
    "USERNAME",
];

/// Every parameter the shells' manuals name (bash(1) "Shell Variables",
/// dash(1), zshparam(1), zshmodules(1)): each is either refused or, once
/// evaluated, a plain variable holding exactly the value in every shell.
const SHELL_MANUALS: &[&str] = &[
    "_",
    "BASH",
    "BASHOPTS",
    "BASHPID",
    "BASH_ALIASES",
    "BASH_ARGC",
    "BASH_ARGV",
    "BASH_ARGV0",
    "BASH_CMDS",
    "BASH_COMMAND",
    "BASH_EXECUTION_STRING",
    "BASH_LINENO",
    "BASH_LOADABLES_PATH",
    "BASH_REMATCH",
    "BASH_SOURCE",
    "BASH_SUBSHELL",
    "BASH_VERSINFO",
    "BASH_VERSION",
    "COMP_CWORD",
    "COMP_KEY",
    "COMP_LINE",
    "COMP_POINT",
    "COMP_TYPE",
    "COMP_WORDBREAKS",
    "COMP_WORDS",
    "COPROC",
    "DIRSTACK",
    "EPOCHREALTIME",
    "EPOCHSECONDS",
    "EUID",
    "FUNCNAME",
    "GROUPS",
    "HISTCMD",
    "HOSTNAME",
    "HOSTTYPE",
    "LINENO",
    "MACHTYPE",
    "MAPFILE",
    "OLDPWD",
    "OPTARG",
    "OPTIND",
    "OSTYPE",
    "PIPESTATUS",
    "PPID",
    "PWD",
    "RANDOM",
    "READLINE_ARGUMENT",
    "READLINE_LINE",
    "READLINE_MARK",
    "READLINE_POINT",
    "REPLY",
    "SECONDS",
    "SHELLOPTS",
    "SHLVL",
    "SRANDOM",
    "UID",
    "BASH_COMPAT",
    "BASH_ENV",
    "BASH_XTRACEFD",
    "CDPATH",
    "CHILD_MAX",
    "COLUMNS",
    "COMPREPLY",
    "EMACS",
    "ENV",
    "EXECIGNORE",
    "FCEDIT",
    "FIGNORE",
    "FUNCNEST",
    "GLOBIGNORE",
    "HISTCONTROL",
    "HISTFILE",
    "HISTFILESIZE",
    "HISTIGNORE",
    "HISTSIZE",
    "HISTTIMEFORMAT",
    "HOME",
    "HOSTFILE",
    "IFS",
    "IGNOREEOF",
    "INPUTRC",
    "INSIDE_EMACS",
    "LANG",
    "LC_ALL",
    "LC_COLLATE",
    "LC_CTYPE",
    "LC_MESSAGES",
    "LC_NUMERIC",
    "LC_TIME",
    "LINES",
    "MAIL",
    "MAILCHECK",
    "MAILPATH",
    "OPTERR",
    "PATH",
    "POSIXLY_CORRECT",
    "PROMPT_COMMAND",
    "PROMPT_DIRTRIM",
    "PS0",
    "PS1",
    "PS2",
    "PS3",
    "PS4",
    "SHELL",
    "TIMEFORMAT",
    "TMOUT",
    "TMPDIR",
    "TERM",
    "ARGC",
    "argv",
    "status",
    "pipestatus",
    "CPUTYPE",
    "EGID",
    "ERRNO",
    "GID",
    "HOST",
    "LOGNAME",
    "signals",
    "TRY_BLOCK_ERROR",
    "TRY_BLOCK_INTERRUPT",
    "TTY",
    "TTYIDLE",
    "USERNAME",
    "VENDOR",
    "zsh_eval_context",
    "ZSH_ARGZERO",
    "ZSH_EXECUTION_STRING",
    "ZSH_NAME",
    "ZSH_PATCHLEVEL",
    "zsh_scheduled_events",
    "ZSH_SCRIPT",
    "ZSH_SUBSHELL",
    "ZSH_VERSION",
    "ARGV0",
    "BAUD",
    "cdpath",
    "CORRECT_IGNORE",
    "CORRECT_IGNORE_FILE",
    "DIRSTACKSIZE",
    "fignore",
    "fpath",
    "histchars",
    "HISTCHARS",
    "HISTORY_IGNORE",
    "KEYBOARD_HACK",
    "KEYTIMEOUT",
    "LISTMAX",
    "mailpath",
    "manpath",
    "match",
    "mbegin",
    "mend",
    "MATCH",
    "MBEGIN",
    "MEND",
    "module_path",
    "NULLCMD",
    "path",
    "POSTEDIT",
    "PROMPT",
    "PROMPT2",
    "PROMPT3",
    "PROMPT4",
    "prompt",
    "PROMPT_EOL_MARK",
    "psvar",
    "READNULLCMD",
    "REPORTMEMORY",
    "REPORTTIME",
    "reply",
    "RPROMPT",
    "RPS1",
    "RPROMPT2",
    "RPS2",
    "SAVEHIST",
    "SPROMPT",
    "STTY",
    "TERMINFO",
    "TERMINFO_DIRS",
    "TIMEFMT",
    "TMPPREFIX",
    "TMPSUFFIX",
    "WORDCHARS",
    "ZBEEP",
    "ZDOTDIR",
    "zle_bracketed_paste",
    "zle_highlight",
    "ZLE_LINE_ABORTED",
    "ZLE_REMOVE_SUFFIX_CHARS",
    "ZLE_SPACE_SUFFIX_CHARS",
    "ZLE_RPROMPT_INDENT",
    "options",
    "commands",
    "functions",
    "dis_functions",
    "functions_source",
    "dis_functions_source",
    "builtins",
    "dis_builtins",
    "reswords",
    "dis_reswords",
    "patchars",
    "dis_patchars",
    "aliases",
    "dis_aliases",
    "galiases",
    "dis_galiases",
    "saliases",
    "dis_saliases",
    "parameters",
    "modules",
    "dirstack",
    "history",
    "historywords",
    "jobdirs",
    "jobtexts",
    "jobstates",
    "nameddirs",
    "userdirs",
    "usergroups",
    "funcfiletrace",
    "funcsourcetrace",
    "funcstack",
    "functrace",
    "keymaps",
    "widgets",
    "epochtime",
    "errnos",
    "langinfo",
    "mapfile",
    "sysparams",
    "termcap",
    "terminfo",
];

#[test]
fn the_table_holds_the_issues_list_and_every_shell_parameter_is_refused_or_plain() {
    let s = Rig::new();
    let canary = s.out_file("canary");
    let value = format!("a[$(/usr/bin/touch {})]", canary.display());
    let mut keys: Vec<&str> = AT_LEAST.to_vec();
    keys.extend(SHELL_MANUALS);
    keys.sort_unstable();
    keys.dedup();
    answering(&s, "all", &result(keys.iter().map(|k| (k, &value))));
    let err = plugctl(&s)
        .args(["secret", "fetch", "all", "x", "--format", "env"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr();
    let refused = |k: &str| err.contains(&format!("{k:?} would change"));
    let missing: Vec<&&str> = AT_LEAST.iter().filter(|k| !refused(k)).collect();
    assert!(missing.is_empty(), "not refused: {missing:?}");

    // What is not refused is a plain variable in every shell.
    let rest: BTreeMap<String, String> = keys
        .iter()
        .filter(|k| !refused(k))
        .map(|k| (k.to_string(), value.clone()))
        .collect();
    answering(&s, "rest", &result(&rest));
    for shell in SHELLS {
        in_shell(
            &s,
            shell,
            "vars=$(\"$1\" secret fetch rest x --format env) || exit 9\n\
             /usr/bin/env -0 >\"$OUT/before\"\n\
             eval \"$vars\"\n\
             /usr/bin/env -0 >\"$OUT/after\"; :",
        )
        .env("OUT", &s.out)
        .succeeds();
        let mut read = gained(&s);
        // Set by the shell for the command it runs, whatever came before.
        read.remove("_");
        assert_read(&read, &rest, &format!("{shell} eval"));
    }
    assert!(!canary.exists(), "a payload ran");
}

#[test]
fn allow_key_prints_the_key_named_exactly_and_nothing_else() {
    let s = Rig::new();
    answering(
        &s,
        "p",
        &result([
            ("PATH", "/opt/app/bin"),
            ("HOME", "/srv/app"),
            ("USER", "app"),
        ]),
    );
    let fetch = |extra: &[&str]| {
        plugctl(&s)
            .args(["secret", "fetch", "p", "x", "--format", "env"])
            .args_from(extra)
    };
    fetch(&["--allow-key", "PATH"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has("1 key cannot be printed")
        .stderr_has("\"HOME\" would change where programs read their configuration (HOME)")
        .stderr_lacks("\"PATH\"");
    // As spelled: `path` is not `PATH`.
    fetch(&["--allow-key", "path", "--allow-key", "HOME"])
        .fails_with(Exit::Failure)
        .stderr_has("\"PATH\" would change what the shell runs or reads (PATH)");
    let out = fetch(&["--allow-key", "PATH", "--allow-key", "HOME"]).succeeds();
    assert_eq!(
        out.stdout(),
        "export HOME='/srv/app'\nexport PATH='/opt/app/bin'\nexport USER='app'\n"
    );
    // kv too.
    plugctl(&s)
        .args(["secret", "fetch", "p", "x", "--allow-key", "PATH"])
        .args(["--allow-key", "HOME"])
        .succeeds()
        .stdout_has("PATH=/opt/app/bin\n");
    // A name no line can hold is a typo: a usage error.
    fetch(&["--allow-key", "BASH_FUNC_ls%%"])
        .fails_with(Exit::Usage)
        .stderr_has("--allow-key \"BASH_FUNC_ls%%\": not a shell variable name");
}

/// The environment `env -0` prints, as a map.
fn env0(bytes: &[u8]) -> BTreeMap<Vec<u8>, Vec<u8>> {
    bytes
        .split(|&b| b == 0)
        .filter(|e| !e.is_empty())
        .map(|e| {
            let at = e.iter().position(|&b| b == b'=').unwrap();
            (e[..at].to_vec(), e[at + 1..].to_vec())
        })
        .collect()
}

/// What a shell's environment gained (or changed) between two `env -0`
/// dumps written to `$OUT/before` and `$OUT/after`.
fn gained(s: &Rig) -> BTreeMap<String, String> {
    let before = env0(&fs::read(s.out_file("before")).unwrap());
    let after = env0(&fs::read(s.out_file("after")).unwrap());
    after
        .into_iter()
        .filter(|(k, v)| before.get(k) != Some(v))
        .map(|(k, v)| {
            (
                String::from_utf8(k).unwrap(),
                String::from_utf8(v).expect("a value the shell set is UTF-8"),
            )
        })
        .collect()
}

/// Fails, naming each key that differs (values cut short), unless a
/// reader's variables are `want`.
#[track_caller]
fn assert_read(read: &BTreeMap<String, String>, want: &BTreeMap<String, String>, reader: &str) {
    let cut = |v: Option<&String>| {
        v.map(|v| {
            let shown: String = v.chars().take(60).collect();
            format!(
                "{shown:?}{}",
                if v.chars().count() > 60 { "..." } else { "" }
            )
        })
        .unwrap_or_else(|| "(unset)".into())
    };
    let keys: std::collections::BTreeSet<&String> = read.keys().chain(want.keys()).collect();
    let wrong: Vec<String> = keys
        .into_iter()
        .filter(|k| read.get(*k) != want.get(*k))
        .map(|k| format!("{k}: read {}, want {}", cut(read.get(k)), cut(want.get(k))))
        .collect();
    assert!(wrong.is_empty(), "{reader}:\n{}", wrong.join("\n"));
}

/// Hostile values under ordinary keys: quotes, substitutions, line
/// breaks, control characters, and bytes that are not UTF-8 (which the
/// plugin writes raw and Go's decoder, as Nomad's, makes U+FFFD).
fn hostile(canary: &Path) -> Vec<(String, String)> {
    let mut values: Vec<(String, String)> = payloads(canary)
        .into_iter()
        .enumerate()
        .map(|(i, v)| (format!("PAYLOAD_{i}"), v))
        .collect();
    values.extend(
        [
            ("SINGLE", "it's 'quoted' '\\''"),
            ("DOUBLE", r#"say "hi" \" "#),
            ("NEWLINES", "line1\nline2\n\nOTHER=set\n"),
            ("CR", "a\r\nb\rOTHER=set"),
            ("CONTROL", "\u{1b}[2J\u{7}\u{7f}\u{9b}31m\t"),
            ("DOLLAR", "$HOME ${PATH} $1 $$ $ $'x'"),
            ("EXPORT", "x'\nexport OTHER='set"),
            ("UNICODE", "pässwörd ✓ 🔑"),
            ("EMPTY", ""),
            ("DASH", "-n"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string())),
    );
    values.push(("LONG".into(), "x'y\"z$".repeat(20_000)));
    values
}

/// The fetch's JSON with `BAD_UTF8` added as raw invalid bytes, and what
/// Go (so Nomad, so plugctl) reads for it.
fn with_invalid_utf8(pairs: &[(String, String)]) -> (Vec<u8>, (String, String)) {
    let mut doc = result(pairs.iter().map(|(k, v)| (k, v)));
    let at = doc.len() - 2; // before the closing `}}`
    let raw = b",\"BAD_UTF8\":\"a\xffb\xc3z\xed\xa0\x80\"";
    doc.splice(at..at, raw.iter().copied());
    (
        doc,
        (
            "BAD_UTF8".into(),
            "a\u{fffd}b\u{fffd}z\u{fffd}\u{fffd}\u{fffd}".into(),
        ),
    )
}

#[test]
fn env_output_evaluated_by_bash_dash_and_zsh_sets_exactly_the_values() {
    let s = Rig::new();
    let canary = s.out_file("canary");
    let values = hostile(&canary);
    let (doc, bad_utf8) = with_invalid_utf8(&values);
    answering(&s, "p", &doc);
    let mut want: BTreeMap<String, String> = values.into_iter().collect();
    want.insert(bad_utf8.0, bad_utf8.1);

    for shell in SHELLS {
        in_shell(
            &s,
            shell,
            "vars=$(\"$1\" secret fetch p x --format env) || exit 9\n\
             /usr/bin/env -0 >\"$OUT/before\"\n\
             eval \"$vars\"\n\
             /usr/bin/env -0 >\"$OUT/after\"; :",
        )
        .env("OUT", &s.out)
        .succeeds();
        assert_read(&gained(&s), &want, &format!("{shell} eval"));
    }
    assert!(!canary.exists(), "a payload ran");

    // A NUL byte cannot be held by any variable: refused, naming the key.
    answering(&s, "nul", &result([("TOKEN", "a\0b"), ("OK", "x")]));
    plugctl(&s)
        .args(["secret", "fetch", "nul", "x", "--format", "env"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has("the value of \"TOKEN\" holds a NUL byte");
}

/// Where systemd's shared library is (it holds the parser PID 1 uses for
/// `EnvironmentFile=`); `None` (a skip, a failure in CI) without it.
fn libsystemd_shared() -> Option<PathBuf> {
    let found = [
        "/usr/lib/x86_64-linux-gnu/systemd",
        "/usr/lib/systemd",
        "/lib/systemd",
    ]
    .iter()
    .filter_map(|d| fs::read_dir(d).ok())
    .flatten()
    .flatten()
    .map(|e| e.path())
    .find(|p| {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("libsystemd-shared-") && n.ends_with(".so"))
    });
    if found.is_none() {
        skip_unless_ci(
            "systemd's libsystemd-shared is not installed, so EnvironmentFile= is not read",
        );
    }
    found
}

fn reader(name: &str) -> PathBuf {
    repo().join("tests/readers").join(name)
}

/// Each file as systemd's `EnvironmentFile=` reads it.
fn systemd_reads(lib: &Path, files: &[PathBuf]) -> Vec<Option<BTreeMap<String, String>>> {
    let out = tool("/usr/bin/python3")
        .arg(reader("systemd_env_file.py"))
        .arg(lib)
        .args_from(files)
        .succeeds();
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A file as `docker --env-file` reads it (`None`: docker is not here).
fn docker_reads(s: &Rig, file: &Path) -> Option<BTreeMap<String, String>> {
    if !tool_available("docker", "what docker --env-file reads") {
        return None;
    }
    let scratch = s.out_file("docker");
    fs::create_dir_all(&scratch).unwrap();
    let out = tool("/usr/bin/python3")
        .arg(reader("docker_env_file.py"))
        .arg(&scratch)
        .arg(file)
        .succeeds();
    let env: Vec<String> = serde_json::from_slice(&out.stdout).unwrap();
    Some(
        env.into_iter()
            .map(|e| {
                let (k, v) = e.split_once('=').unwrap();
                (k.to_string(), v.to_string())
            })
            .collect(),
    )
}

/// Values kv prints as they are: nothing in them is taken apart by any
/// reader of `KEY=VALUE` lines.
fn plain_values() -> Vec<(String, String)> {
    [
        "s3cr3t",
        "a=b",
        "x~y",
        "a:b:c",
        "!#%*+,-./?@[]^_{}",
        "pässwörd✓",
        "\u{1b}[1m\u{7f}\u{9b}",
        "",
        "ends=",
        "#start",
    ]
    .iter()
    .enumerate()
    .map(|(i, v)| (format!("P{i}"), v.to_string()))
    .collect()
}

#[test]
fn kv_lines_are_read_back_exactly_by_every_reader_of_key_value_lines() {
    let s = Rig::new();
    let Some(lib) = libsystemd_shared() else {
        return;
    };
    let canary = s.out_file("canary");
    let plain = plain_values();
    answering(&s, "plain", &result(plain.iter().map(|(k, v)| (k, v))));
    let out = plugctl(&s)
        .args(["secret", "fetch", "plain", "x"])
        .succeeds();
    let file = s.out_file("plain.env");
    fs::write(&file, &out.stdout).unwrap();
    let want: BTreeMap<String, String> = plain.into_iter().collect();

    // systemd's EnvironmentFile=.
    let read = systemd_reads(&lib, std::slice::from_ref(&file));
    assert_read(
        read[0].as_ref().expect("systemd read the file"),
        &want,
        "systemd",
    );
    // docker --env-file.
    if let Some(read) = docker_reads(&s, &file) {
        assert_read(&read, &want, "docker --env-file");
    }
    // plugctl's own --env-file: a plugin that writes what it was given.
    s.plugin(
        "secrets",
        "dump",
        &format!(
            "[ \"$1\" = fingerprint ] && echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' && exit 0\n\
             /usr/bin/env -0 >'{}'\necho '{{}}'",
            s.out_file("after").display()
        ),
    );
    fs::write(s.out_file("before"), "").unwrap();
    plugctl(&s)
        .args(["secret", "fetch", "dump", "x", "--env-file"])
        .arg(&file)
        .succeeds();
    let mut given = gained(&s);
    given.retain(|k, _| {
        k.strip_prefix('P')
            .is_some_and(|n| n.parse::<u32>().is_ok())
    });
    assert_read(&given, &want, "plugctl --env-file");
    // A shell that sources the file (set -a; . FILE).
    for shell in SHELLS {
        in_shell(
            &s,
            shell,
            "/usr/bin/env -0 >\"$OUT/before\"; set -a; . \"$FILE\"; /usr/bin/env -0 >\"$OUT/after\"; :",
        )
        .env("OUT", &s.out)
        .env("FILE", &file)
        .succeeds();
        assert_read(&gained(&s), &want, &format!("{shell} sourcing the file"));
    }

    // Every other value is refused, whole, naming its key and not the
    // value; and each is one that some reader would have taken apart had
    // it been printed as it is (so no refusal is for nothing).
    let mut taken_apart = Vec::new();
    let mut hostile_values = hostile(&canary);
    hostile_values.retain(|(k, _)| k != "UNICODE" && k != "EMPTY" && k != "DASH");
    for (c, value) in [
        ("space", "a b"),
        ("tab", "a\tb"),
        ("backslash", "a\\b"),
        ("leading quote", "'a'"),
        ("inner quote", "s3cr\"et"),
        ("dollar", "a$b"),
        ("backquote", "a`b`"),
        ("semicolon", "a;b"),
        ("ampersand", "a&b"),
        ("pipe", "a|b"),
        ("less", "a<b"),
        ("greater", "a>b"),
        ("parenthesis", "a(b)"),
        ("tilde", "~root"),
        ("tilde after colon", "a:~root"),
        ("equals expansion", "=ls"),
        ("trailing space", "ab "),
    ]
    .iter()
    .map(|(c, v)| (c.to_string(), v.to_string()))
    .chain(hostile_values)
    {
        answering(&s, "one", &result([("K", &value)]));
        plugctl(&s)
            .args(["secret", "fetch", "one", "x"])
            .fails_with(Exit::Failure)
            .stdout_empty()
            .stderr_has(
                "the value of \"K\" holds a character that a reader of KEY=VALUE lines takes apart",
            );
        let line = s.out_file(&format!("verbatim-{}.env", taken_apart.len()));
        fs::write(&line, format!("K={value}\nAFTER=x\n")).unwrap();
        taken_apart.push((c, value, line));
    }
    let files: Vec<PathBuf> = taken_apart.iter().map(|(_, _, f)| f.clone()).collect();
    let by_systemd = systemd_reads(&lib, &files);
    for ((c, value, line), systemd) in taken_apart.iter().zip(by_systemd) {
        let exact = |env: &BTreeMap<String, String>| {
            env.get("K") == Some(value)
                && env.get("AFTER").map(String::as_str) == Some("x")
                && env.len() == 2
        };
        let mut misread = !systemd.as_ref().is_some_and(exact);
        for shell in SHELLS {
            let _ = fs::remove_file(&canary);
            let ran = in_shell(
                &s,
                shell,
                "/usr/bin/env -0 >\"$OUT/before\"; set -a; . \"$FILE\"; /usr/bin/env -0 >\"$OUT/after\"; :",
            )
            .env("OUT", &s.out)
            .env("FILE", line)
            .any_exit();
            let read = if ran.status.success() {
                let mut env = gained(&s);
                env.remove("_");
                Some(env)
            } else {
                None
            };
            misread |= canary.exists() || !read.as_ref().is_some_and(exact);
        }
        assert!(
            misread,
            "{c}: {value:?} is read back exactly by systemd and every shell, yet refused"
        );
    }
    let _ = fs::remove_file(&canary);
}

#[test]
fn kv_refuses_a_key_no_reader_takes_and_a_value_no_environment_holds() {
    let s = Rig::new();
    for (key, value, why) in [
        ("bad-key", "v", "\"bad-key\" is not a shell variable name"),
        ("K", "a\0b", "the value of \"K\" holds a NUL byte"),
        ("K", "a\nb", "the value of \"K\" holds a character"),
        ("K", "a\rb", "the value of \"K\" holds a character"),
    ] {
        answering(&s, "p", &result([(key, value), ("OK", "fine")]));
        plugctl(&s)
            .args(["secret", "fetch", "p", "x"])
            .fails_with(Exit::Failure)
            .stdout_empty()
            .stderr_has(why);
    }
    // What Go reads for invalid UTF-8 is U+FFFD, which every reader takes.
    let (doc, (key, value)) = with_invalid_utf8(&[("OK".into(), "fine".into())]);
    answering(&s, "p", &doc);
    plugctl(&s)
        .args(["secret", "fetch", "p", "x"])
        .succeeds()
        .stdout_has(&format!("{key}={value}\n"));
}

#[test]
fn docs_list_the_table_exactly_with_the_names_that_hold_paths_marked() {
    use plugctl_core::hooks::Value as Held;
    let page = fs::read_to_string(repo().join("docs/secrets.md")).unwrap();
    let start = page
        .find("| reader | names | why |")
        .expect("docs/secrets.md lists the table");
    let rows: Vec<&str> = page[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    let mut documented = std::collections::BTreeSet::new();
    for row in &rows {
        let names = row.split(" | ").nth(1).unwrap();
        for name in names.split(", ") {
            documented.insert(name.to_string());
        }
    }
    let table: std::collections::BTreeSet<String> = hooks::TABLE
        .iter()
        .flat_map(|g| g.entries.iter())
        .map(|e| match (e.pattern, e.value) {
            (Pattern::Prefix(start), _) => format!("`{start}*`"),
            (Pattern::Exact(name), Held::Paths | Held::Preload | Held::LibraryPath) => {
                format!("`{name}`†")
            }
            (Pattern::Exact(name), Held::Code) => format!("`{name}`"),
        })
        .collect();
    assert_eq!(documented, table, "docs/secrets.md and hooks::TABLE");
    assert_eq!(rows.len(), hooks::TABLE.len(), "one row per group");
}

#[test]
fn a_refusal_names_a_bounded_number_of_keys_and_counts_the_rest() {
    let s = Rig::new();
    let keys: Vec<String> = (0..600).map(|i| format!("PYTHON_{i:03}")).collect();
    answering(&s, "many", &result(keys.iter().map(|k| (k, "v"))));
    let err = plugctl(&s)
        .args(["secret", "fetch", "many", "x", "--format", "env"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has("nothing printed: 600 keys cannot be printed")
        .stderr_has("and 100 more keys (--format json shows every key)")
        .stderr();
    assert!(
        err.contains("\"PYTHON_499\"") && !err.contains("\"PYTHON_500\""),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one line");
}

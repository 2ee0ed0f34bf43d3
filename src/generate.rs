//! Every artifact derived from the clap definition: shell completion scripts
//! and man pages. They are committed (packagers and users without a Rust
//! toolchain need them), so the output must be a pure function of the code
//! — [`crate::cli::command`], and for the man pages' own sections the exit
//! codes ([`crate::exit::DOCUMENTED`]), the registry's file names and
//! [`EXAMPLES`]: no dates, no environment, no machine.
//! `tests/it/generated.rs` fails when the committed files fall behind and
//! rewrites them with `PLUGCTL_REGENERATE=1 cargo test --test it generated::`.

use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use clap_complete::{Generator, Shell};

/// The name completions are registered for and man pages are titled with.
pub const BIN_NAME: &str = "plugctl";

/// Every shell `plugctl completions` supports, in a stable order.
pub const SHELLS: [Shell; 5] = [
    Shell::Bash,
    Shell::Zsh,
    Shell::Fish,
    Shell::Elvish,
    Shell::PowerShell,
];

/// Where a shell's script lives under `completions/`: clap_complete's
/// conventional names (`plugctl.bash`, `_plugctl`, `plugctl.fish`,
/// `plugctl.elv`, `_plugctl.ps1`), which are also what the shells'
/// autoloaders look for.
pub fn completion_file_name(shell: Shell) -> String {
    shell.file_name(BIN_NAME)
}

/// The completion script for one shell: clap's generated script, plus, for
/// bash, zsh and fish, the dynamic completion of registry names.
pub fn completion(shell: Shell) -> String {
    let mut cmd = crate::cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, BIN_NAME, &mut buf);
    let mut script = String::from_utf8(buf).expect("clap_complete writes UTF-8");
    let Some(extra) = dynamic_snippet(shell) else {
        return script;
    };
    if !script.ends_with('\n') {
        script.push('\n');
    }
    // zsh: before the tail that runs or registers _plugctl (see ZSH_DYNAMIC).
    let at = match shell {
        Shell::Zsh => script.rfind(ZSH_DISPATCH).map(|i| i + 1),
        _ => None,
    }
    .unwrap_or(script.len());
    script.insert_str(at, &format!("{extra}\n"));
    script
}

/// Man pages: `plugctl.1` and one page per subcommand at any depth
/// (`plugctl-fingerprint.1`, `plugctl-volume-create.1`, ...), sorted by file
/// name.
pub fn man_pages() -> Vec<(String, Vec<u8>)> {
    // No `help` pseudo-subcommand: it would get a page that says nothing.
    let mut root = crate::cli::command().disable_help_subcommand(true);
    // build() gives every subcommand the display name `plugctl-volume-create`
    // (page title and file name) and the bin name `plugctl volume create`
    // (synopsis), and propagates global options into each page.
    root.build();
    // clap_mangen names a subcommand's page "create 0.1.0" in the footer.
    let source = format!("{BIN_NAME} {}", env!("CARGO_PKG_VERSION"));
    let mut pages = Vec::new();
    collect_pages(&root, &source, &mut pages);
    pages.sort_by(|a, b| a.0.cmp(&b.0));
    pages
}

fn collect_pages(cmd: &clap::Command, source: &str, pages: &mut Vec<(String, Vec<u8>)>) {
    // No date keeps the pages byte-identical across builds; a date would only
    // tell when someone last regenerated, not when the CLI changed. It must
    // be a quoted empty argument: roff drops an empty string, and .TH would
    // then read the source as the date.
    let man = clap_mangen::Man::new(cmd.clone())
        .date("\"\"")
        .source(source);
    let mut page = Vec::new();
    man.render(&mut page)
        .expect("rendering into a Vec cannot fail");
    let page = with_sections(page, &man_sections(cmd));
    pages.push((man.get_filename(), page));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect_pages(sub, source, pages);
    }
}

/// `page` with `sections` (roff) before its VERSION section, or at its end.
fn with_sections(mut page: Vec<u8>, sections: &str) -> Vec<u8> {
    const VERSION: &[u8] = b"\n.SH VERSION\n";
    let at = page
        .windows(VERSION.len())
        .rposition(|w| w == VERSION)
        .map_or(page.len(), |i| i + 1);
    page.splice(at..at, sections.bytes());
    page
}

// ---- man page sections clap_mangen does not write ---------------------------

/// One EXAMPLES entry: the command (`plugctl` and its words, none quoted),
/// and what it does.
#[derive(Debug, Clone, Copy)]
pub struct Example {
    /// The words after `plugctl`, split at spaces.
    pub command: &'static str,
    pub what: &'static str,
    /// Also on `plugctl.1`, the page most people open first.
    pub on_root: bool,
}

const fn ex(command: &'static str, what: &'static str, on_root: bool) -> Example {
    Example {
        command,
        what,
        on_root,
    }
}

/// Every example the man pages show: each on the page of its command and
/// of the commands above it (`volume create` also on `plugctl-volume.1`),
/// and those marked on `plugctl.1`. A test parses each with clap.
pub const EXAMPLES: &[Example] = &[
    ex(
        "plugctl fingerprint",
        "Discover every plugin, fingerprint them all at once, and record the results in the registry.",
        true,
    ),
    ex(
        "plugctl --json fingerprint --type host-volume --dry-run",
        "Show, as JSON, each fingerprint call plugctl would make for the host-volume plugins, without making it.",
        false,
    ),
    ex(
        "plugctl --nomad-config none --plugin-dir ./plugins --registry ./registry.json fingerprint",
        "Work on a development plugin directory and a registry of its own, ignoring any agent configuration.",
        true,
    ),
    ex(
        "plugctl plugin list --type secrets",
        "The secrets plugins the registry knows, with their health.",
        true,
    ),
    ex(
        "plugctl plugin show host-volume mkdir",
        "Every recorded instance of the built-in mkdir plugin.",
        false,
    ),
    ex(
        "plugctl plugin wait secrets vault-agent --healthy --timeout 1m",
        "Wait until a long-lived plugin is registered and its socket accepts; exit 4 after a minute.",
        false,
    ),
    ex(
        "plugctl volume create --plugin mkdir --name web --capacity-max 1GiB --param mode=0750",
        "Create a host volume with the built-in mkdir plugin and record it.",
        true,
    ),
    ex(
        "plugctl volume list --namespace default",
        "The volumes recorded in the default namespace.",
        false,
    ),
    ex(
        "plugctl volume show web",
        "One volume, by name (in --namespace, default default), id or id prefix.",
        false,
    ),
    ex(
        "plugctl volume delete --id 5df78593",
        "Delete a volume named by a prefix of its id only.",
        false,
    ),
    ex(
        "plugctl volume restore",
        "Run create again for every recorded volume, as a Nomad client does when it starts.",
        false,
    ),
    ex(
        "plugctl volume audit --prune-orphans --yes",
        "Hold the registry against the volumes directory and remove entries no volume owns.",
        false,
    ),
    ex(
        "plugctl secret fetch env-file app/db --format env",
        "Fetch a secret through a secrets plugin, as export lines for sh.",
        true,
    ),
    ex(
        "plugctl validate --strict ./plugins",
        "Check a plugin directory before it reaches a node, failing on warnings too.",
        true,
    ),
    ex(
        "plugctl test host-volume dir --format junit",
        "Run the conformance suite against one plugin, with a JUnit report for CI.",
        true,
    ),
    ex(
        "plugctl events --since 100 --follow",
        "Print the registry's events after sequence number 100, and keep printing new ones.",
        false,
    ),
    ex(
        "plugctl pin --check",
        "Compare the plugin files with the lock file; exit 1 on any difference.",
        false,
    ),
    ex(
        "plugctl --record ./cases fingerprint",
        "Save every plugin call as a case file, for replay.",
        false,
    ),
    ex(
        "plugctl replay ./cases",
        "Run the recorded calls again against today's plugins and compare.",
        false,
    ),
    ex(
        "plugctl metrics --textfile /var/lib/node_exporter/textfile",
        "Write the registry's state for node_exporter's textfile collector.",
        false,
    ),
    ex(
        "plugctl init secrets my-secrets --lang python",
        "Scaffold a secrets plugin in Python that passes validate and test.",
        true,
    ),
    ex(
        "plugctl completions bash",
        "Print the bash completion script.",
        false,
    ),
];

/// The words of an example's command after `plugctl`'s global options: its
/// command path first.
fn example_path(e: &Example) -> Vec<&'static str> {
    let cmd = crate::cli::command();
    let mut path = Vec::new();
    let mut at = &cmd;
    let mut words = e.command.split(' ').skip(1);
    while let Some(w) = words.next() {
        if let Some(sub) = at.find_subcommand(w) {
            path.push(w);
            at = sub;
        } else if w.starts_with("--")
            && at
                .get_arguments()
                .chain(cmd.get_arguments())
                .any(|a| a.get_long() == Some(&w[2..]) && a.get_action().takes_values())
        {
            words.next();
        }
    }
    path
}

/// The examples shown on the page of the command at `path` (empty: `plugctl.1`).
pub fn examples_for(path: &[&str]) -> Vec<Example> {
    EXAMPLES
        .iter()
        .filter(|e| {
            if path.is_empty() {
                e.on_root
            } else {
                example_path(e).starts_with(path)
            }
        })
        .copied()
        .collect()
}

/// Variables plugctl reads that are not a flag's: shown in every page's
/// ENVIRONMENT after the `PLUGCTL_*` ones.
pub const OTHER_VARIABLES: &[(&str, &str)] = &[
    (
        "NO_COLOR",
        "When set and not empty, plugctl never colours its output, whatever --color says.",
    ),
    (
        "XDG_STATE_HOME",
        "Not as root: the registry and the volumes directory default to $XDG_STATE_HOME/plugctl \
         (~/.local/state/plugctl when it is unset).",
    ),
    (
        "XDG_CONFIG_HOME",
        "Not as root, without an agent configuration: the plugin directory defaults to \
         $XDG_CONFIG_HOME/plugctl/plugins (~/.config/plugctl/plugins when it is unset).",
    ),
];

/// The files plugctl reads and writes, as (path, what), for FILES.
pub fn files_section() -> Vec<(String, String)> {
    use plugctl_core::registry::file::{JOURNAL_SUFFIX, LOCK_SUFFIX, OWNERS_SUFFIX};
    use plugctl_core::registry::journal::segment_path;
    let registry = crate::settings::ROOT_REGISTRY;
    let segment = segment_path(Path::new(crate::settings::REGISTRY_NAME), 1);
    vec![
        (
            registry.to_string(),
            format!(
                "The registry (--registry, PLUGCTL_REGISTRY) as root: plugins, their \
                 instances, volumes and the event log, one JSON file. Not as root: \
                 $XDG_STATE_HOME/plugctl/{name} (~/.local/state/plugctl/{name}).",
                name = crate::settings::REGISTRY_NAME
            ),
        ),
        (
            format!("<registry>{JOURNAL_SUFFIX}<N>"),
            format!(
                "The registry's journal segments, N zero-padded ({}): changes not yet \
                 folded into the registry file.",
                segment.display()
            ),
        ),
        (
            format!("<registry>{LOCK_SUFFIX}"),
            "The registry lock: one writer at a time; others wait up to --lock-timeout \
             (exit 4)."
                .to_string(),
        ),
        (
            format!("<registry>{OWNERS_SUFFIX}/"),
            "Liveness locks of the plugctl processes at work on a volume, so that \
             volume repair never takes over a create or delete still running."
                .to_string(),
        ),
        (
            format!("<plugin-dir>/{}", plugctl_core::pin::LOCK_FILE_NAME),
            "The lock file of plugctl pin and --locked (--lockfile, PLUGCTL_LOCKFILE): \
             each plugin file's sha256, size, interpreter and version."
                .to_string(),
        ),
        (
            crate::agent_config::DEFAULT_DIR.to_string(),
            "The Nomad agent's configuration, read as root when it exists and \
             --nomad-config is not given."
                .to_string(),
        ),
    ]
}

/// The pages' own sections, in roff: EXAMPLES, EXIT STATUS, ENVIRONMENT
/// and FILES, each where it applies.
fn man_sections(cmd: &clap::Command) -> String {
    use roff::{Roff, bold, italic, roman};
    // "plugctl volume create" (build() set it) -> ["volume", "create"]
    let bin = cmd.get_bin_name().unwrap_or(BIN_NAME);
    let path: Vec<&str> = bin.split(' ').skip(1).collect();
    let mut r = Roff::new();

    let examples = examples_for(&path);
    if !examples.is_empty() {
        r.control("SH", ["EXAMPLES"]);
        for e in examples {
            r.control("TP", [])
                .text([bold(e.command)])
                .text([roman(e.what)]);
        }
    }

    r.control("SH", ["EXIT STATUS"]);
    for (code, what) in crate::exit::DOCUMENTED {
        r.control("TP", [])
            .text([bold(code.to_string())])
            .text([roman(what)]);
    }
    let signals: Vec<String> = crate::shutdown::STOPPING
        .iter()
        .map(|s| s.as_str().trim_start_matches("SIG").to_string())
        .collect();
    r.control("TP", [])
        .text([
            bold(format!("{}+", crate::shutdown::SIGNAL_EXIT_BASE)),
            italic("n"),
        ])
        .text([roman(format!(
            "Stopped by signal n ({}), after every plugin it started was stopped: {} for \
             Ctrl-C (INT), {} for TERM.",
            signals.join(", "),
            crate::shutdown::exit_code(nix::sys::signal::Signal::SIGINT),
            crate::shutdown::exit_code(nix::sys::signal::Signal::SIGTERM),
        ))]);

    r.control("SH", ["ENVIRONMENT"]);
    for (name, what) in environment(cmd) {
        r.control("TP", []).text([bold(name)]).text([roman(what)]);
    }
    for (name, what) in OTHER_VARIABLES {
        r.control("TP", []).text([bold(*name)]).text([roman(*what)]);
    }

    // A script is all `completions` writes; `init` writes a new plugin.
    if !matches!(path.first(), Some(&"completions" | &"init")) {
        r.control("SH", ["FILES"]);
        for (file, what) in files_section() {
            r.control("TP", []).text([bold(file)]).text([roman(what)]);
        }
    }
    let text = r.render();
    // The page has the apostrophe preamble already.
    let preamble = Roff::new().render();
    text.strip_prefix(preamble.as_str())
        .unwrap_or(&text)
        .to_string()
}

/// Every variable clap reads for this command (its own options and the
/// global ones), sorted, with what it sets: `(PLUGCTL_REGISTRY, "--registry:
/// Registry file [...]")`.
pub fn environment(cmd: &clap::Command) -> Vec<(String, String)> {
    let mut vars: Vec<(String, String)> = cmd
        .get_arguments()
        .filter_map(|a| {
            let name = a.get_env()?.to_str()?.to_string();
            let flag = a
                .get_long()
                .map_or_else(|| a.get_id().to_string(), |l| format!("--{l}"));
            let help = a
                .get_long_help()
                .or_else(|| a.get_help())
                .map(|h| h.to_string())
                .unwrap_or_default();
            let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
            let what = if a.get_action().takes_values() {
                format!("Sets {flag}: {help}")
            } else {
                format!("Sets {flag} (1, true, yes or on; 0, false, no or off): {help}")
            };
            Some((name, what))
        })
        .collect();
    vars.sort();
    vars.dedup();
    vars
}

/// Every generated file, as a path relative to the repository root and its
/// contents, in a stable order.
pub fn files() -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = SHELLS
        .iter()
        .map(|&shell| {
            (
                Path::new("completions").join(completion_file_name(shell)),
                completion(shell).into_bytes(),
            )
        })
        .collect();
    files.extend(
        man_pages()
            .into_iter()
            .map(|(name, page)| (Path::new("man").join(name), page)),
    );
    files
}

/// Writes every generated file under `root` (the repository root), and
/// removes man pages of subcommands that no longer exist so that a renamed
/// command does not leave its old page installed forever.
pub fn write_all(root: &Path) -> io::Result<()> {
    let files = files();
    for dir in ["completions", "man"] {
        fs::create_dir_all(root.join(dir))?;
    }
    for stale in stale_man_pages(root, &files)? {
        fs::remove_file(root.join(stale))?;
    }
    for (rel, contents) in &files {
        let path = root.join(rel);
        // Unchanged files keep their mtime, so make and packagers see no change.
        if fs::read(&path).ok().as_deref() != Some(contents.as_slice()) {
            fs::write(&path, contents)?;
        }
    }
    Ok(())
}

/// `man/*.1` files under `root` that [`files`] would not produce, as paths
/// relative to `root`.
pub fn stale_man_pages(root: &Path, files: &[(PathBuf, Vec<u8>)]) -> io::Result<Vec<PathBuf>> {
    let dir = root.join("man");
    let entries = match fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut stale = Vec::new();
    for entry in entries {
        let rel = Path::new("man").join(entry?.file_name());
        if rel.extension().is_some_and(|e| e == "1") && !files.iter().any(|(p, _)| *p == rel) {
            stale.push(rel);
        }
    }
    stale.sort();
    Ok(stale)
}

fn dynamic_snippet(shell: Shell) -> Option<String> {
    let template = match shell {
        Shell::Bash => BASH_DYNAMIC,
        Shell::Zsh => ZSH_DYNAMIC,
        Shell::Fish => FISH_DYNAMIC,
        _ => return None,
    };
    let options = value_options();
    let families: Vec<&str> = plugctl_core::family::Family::ALL
        .iter()
        .map(|f| f.name())
        .collect();
    // Inside single quotes fish still reads \\ and \' as escapes.
    let awk = match shell {
        Shell::Fish => JSON_AWK.replace('\\', "\\\\"),
        _ => JSON_AWK.to_string(),
    };
    Some(
        template
            .replace("@VALUE_OPTIONS_CASE@", &options.join("|"))
            .replace("@VALUE_OPTIONS_LIST@", &options.join(" "))
            .replace("@CONTEXT_OPTIONS_CASE@", &CONTEXT_OPTIONS.join("|"))
            .replace("@CONTEXT_OPTIONS_LIST@", &CONTEXT_OPTIONS.join(" "))
            .replace("@FAMILIES@", &families.join(" "))
            .replace("@JSON_AWK@", awk.trim_end()),
    )
}

/// Global options that change what plugctl finds, passed on from the
/// command line to the plugctl the scripts ask, so that it looks at the
/// same registry and plugin directories. All take a value.
pub const CONTEXT_OPTIONS: [&str; 5] = [
    "--registry",
    "--plugin-dir",
    "--host-volume-plugin-dir",
    "--nomad-config",
    "--nomad-version",
];

/// The scripts' JSON reader: an awk program (POSIX awk: mawk, gawk, BWK
/// awk, busybox) that reads plugctl's `--json` output on stdin and prints,
/// one per line, the fields named in `$_plugctl_want` of each object of the
/// top-level array `$_plugctl_list` that has the `type`, `namespace`,
/// `healthy` and `source` asked for in `$_plugctl_<field>` (when not
/// empty), and a field `$_plugctl_has` (when not empty). The scripts pass
/// these in the environment (`env`), never with `-v`, which would read
/// backslash escapes in them. Strings are decoded (`\"`, `\\`, `\/`); one
/// with any other escape, a control character, is left out: a completion
/// is a line. It reads a line at a time, as plugctl prints its JSON (no
/// string spans lines), and holds no single quote, so that each script can
/// quote it in single quotes.
pub const JSON_AWK: &str = r#"function decode(raw,    out, p, e) {
    ok = 1
    out = ""
    while ((p = index(raw, "\\")) > 0) {
        e = substr(raw, p + 1, 1)
        if (e == "\"" || e == "\\" || e == "/") out = out substr(raw, 1, p - 1) e
        else { ok = 0; out = out substr(raw, 1, p - 1) }
        raw = substr(raw, p + 2)
    }
    return out raw
}
function value(v, good) {
    if (kind[d] == "{") {
        if (d == 3 && inlist) { rec[key[d]] = v; recok[key[d]] = good }
        haskey[d] = 0
    }
}
function enter(c,    k) {
    k = ""
    if (kind[d] == "{") { k = key[d]; haskey[d] = 0 }
    d++
    kind[d] = c
    haskey[d] = 0
    if (d == 2 && c == "[" && k == ENVIRON["_plugctl_list"]) inlist = 1
    if (d == 3 && inlist) { split("", rec); split("", recok) }
}
function leave(    i, n, w, f) {
    if (d == 3 && inlist && kind[d] == "{" && keep()) {
        n = split(ENVIRON["_plugctl_want"], w, " ")
        for (i = 1; i <= n; i++) {
            f = w[i]
            if ((f in rec) && recok[f] && rec[f] != "") print rec[f]
        }
    }
    if (d == 2) inlist = 0
    d--
}
function keep(    i, n, f, c) {
    n = split("type namespace healthy source", f, " ")
    for (i = 1; i <= n; i++) {
        c = ENVIRON["_plugctl_" f[i]]
        if (c != "" && !((f[i] in rec) && rec[f[i]] == c)) return 0
    }
    c = ENVIRON["_plugctl_has"]
    return c == "" || (c in rec)
}
{
    line = $0
    i = 1
    n = length(line)
    while (i <= n) {
        c = substr(line, i, 1)
        if (c == "\"") {
            if (!match(substr(line, i + 1), /^([^"\\]|\\.)*"/)) exit 1
            s = decode(substr(line, i + 1, RLENGTH - 1))
            i += RLENGTH + 1
            if (kind[d] == "{" && !haskey[d]) { key[d] = s; haskey[d] = 1 }
            else value(s, ok)
        } else if (c == "{" || c == "[") { enter(c); i++ }
        else if (c == "}" || c == "]") { leave(); i++ }
        else if (c ~ /[-0-9a-z]/) {
            match(substr(line, i), /^[-+.0-9a-zA-Z]+/)
            value(substr(line, i, RLENGTH), 1)
            i += RLENGTH
        } else i++
    }
}
"#;

/// Every option that takes a value, in any subcommand, so that the
/// hand-written snippets can tell an option's value from a positional word.
/// Derived from the clap definition so a new option cannot make the
/// snippets miscount. `--version` is a value only for `plugin register`;
/// treating it as one elsewhere is harmless because it ends plugctl there.
fn value_options() -> Vec<String> {
    fn walk(cmd: &clap::Command, out: &mut BTreeSet<String>) {
        for arg in cmd.get_arguments() {
            if arg.is_positional() || !arg.get_action().takes_values() {
                continue;
            }
            if let Some(longs) = arg.get_long_and_visible_aliases() {
                out.extend(longs.into_iter().map(|l| format!("--{l}")));
            }
            if let Some(shorts) = arg.get_short_and_visible_aliases() {
                out.extend(shorts.into_iter().map(|s| format!("-{s}")));
            }
        }
        for sub in cmd.get_subcommands() {
            walk(sub, out);
        }
    }
    let mut cmd = crate::cli::command();
    cmd.build();
    let mut out = BTreeSet::new();
    walk(&cmd, &mut out);
    out.into_iter().collect()
}

/// Appended to clap's bash script. Kept to bash 3.2 (macOS) features, safe
/// under a user's `set -u`, and never `compgen -W` on registry data: it would
/// expand `$(...)` in a name.
const BASH_DYNAMIC: &str = r#"# --- plugctl: registry names (hand-written in src/generate.rs, not by clap) ---
# clap's _plugctl above knows commands and options. This wrapper runs it,
# then, where an argument names something plugctl knows (plugin types and
# names, volume ids and names, plugin files, families), replaces its answer
# with what plugctl itself says (`plugctl --json plugin list`, `volume list`,
# `fingerprint --dry-run`). If plugctl fails or finds nothing, clap's answer
# stands.

# The JSON reader (see JSON_AWK in src/generate.rs), its settings as
# arguments: _plugctl_list=volumes _plugctl_want=id ...
_plugctl_json() {
    # shellcheck disable=SC2016 # its $ are awk's
    env "$@" awk '@JSON_AWK@'
}

# Sets `what` (plugins, types, volumes, files, file-types or families),
# `filter` (a plugin type), `healthy`, `source` and `namespace`, and adds
# the options that choose the registry and directories to `args`, in the
# caller; fails when the word under the cursor is none of these.
_plugctl_registry_position() {
    local -a pos=()
    local i=1 w v opt="" type=""
    while (( i < COMP_CWORD )); do
        w=${COMP_WORDS[i]}
        case $w in
            @VALUE_OPTIONS_CASE@)
                # bash splits `--opt=value` into `--opt`, `=`, `value`
                [[ ${COMP_WORDS[i+1]-} == = ]] && (( i++ ))
                if (( i + 1 >= COMP_CWORD )); then
                    opt=$w
                else
                    v=${COMP_WORDS[i+1]-}
                    # the shell has not expanded a ~ typed on the line
                    # shellcheck disable=SC2088 # that literal ~ is the point
                    [[ $v == "~/"* ]] && v=$HOME/${v#"~/"}
                    case $w in
                        @CONTEXT_OPTIONS_CASE@) args+=("$w" "$v") ;;
                        --type) type=$v ;;
                        --namespace) namespace=$v ;;
                    esac
                fi
                (( i++ ))
                ;;
            --allow-insecure-paths) args+=("$w") ;;
            -*) ;;
            *) pos+=("$w") ;;
        esac
        (( i++ ))
    done
    local cur=${COMP_WORDS[COMP_CWORD]}
    if [[ -n $opt ]]; then
        case $opt,${pos[0]-},${pos[1]-} in
            # only a plugin that can serve the create
            --plugin,volume,create) what=plugins filter=host-volume healthy=true ;;
            --plugin,volume,*) what=plugins filter=host-volume ;;
            --type,*) what=types ;;
            *) return 1 ;;
        esac
        return 0
    fi
    [[ $cur == -* ]] && return 1
    case ${pos[0]-},${pos[1]-},${#pos[@]} in
        fingerprint,*) what=plugins filter=$type ;;
        plugin,show,2 | plugin,wait,2) what=types ;;
        plugin,show,3 | plugin,wait,3) what=plugins filter=${pos[2]-} ;;
        # the files in the plugin directory, registered or not
        test,*,1) what=file-types ;;
        test,*,2) what=files filter=${pos[1]-} ;;
        volume,show,2 | volume,delete,2) what=volumes ;;
        # a built-in secrets plugin cannot run here
        secret,fetch,2) what=plugins filter=secrets source=file ;;
        init,*,1) what=families ;;
        *) return 1 ;;
    esac
}

# One name per line, for what the position set.
_plugctl_registry_query() {
    local out
    case $what in
        families) printf '%s\n' @FAMILIES@; return 0 ;;
        volumes) out=$(command plugctl "${args[@]}" volume list 2>/dev/null) || return 1
            {
                printf '%s\n' "$out" | _plugctl_json _plugctl_list=volumes _plugctl_want=id
                # a name is looked up in --namespace
                printf '%s\n' "$out" | _plugctl_json _plugctl_list=volumes _plugctl_want=name \
                    _plugctl_namespace="${namespace:-default}"
            } | sort -u ;;
        types) out=$(command plugctl "${args[@]}" plugin list 2>/dev/null) || return 1
            printf '%s\n' "$out" | _plugctl_json _plugctl_list=plugins _plugctl_want=type | sort -u ;;
        plugins) out=$(command plugctl "${args[@]}" plugin list 2>/dev/null) || return 1
            printf '%s\n' "$out" | _plugctl_json _plugctl_list=plugins _plugctl_want=name _plugctl_type="$filter" \
                _plugctl_healthy="$healthy" _plugctl_source="$source" | sort -u ;;
        file-types | files)
            # discovery without running anything: each plugin file is a call
            # with a "program"; a built-in is not
            out=$(command plugctl "${args[@]}" fingerprint --dry-run 2>/dev/null) || return 1
            local want=type
            [[ $what == files ]] && want=name
            printf '%s\n' "$out" | _plugctl_json _plugctl_list=calls _plugctl_want=$want _plugctl_has=program \
                _plugctl_type="$filter" | sort -u ;;
    esac
}

# The word under the cursor as the shell will read it: without the quoting
# typed so far, so that it can be compared with names.
_plugctl_unquote() {
    local w=$1 out="" c
    case $w in
        \'*) printf '%s' "${w#\'}"; return ;;
        \"*) w=${w#\"} ;;
    esac
    while [[ -n $w ]]; do
        c=${w:0:1} w=${w:1}
        if [[ $c == \\ && -n $w ]]; then
            c=${w:0:1} w=${w:1}
        fi
        out+=$c
    done
    printf '%s' "$out"
}

_plugctl_with_registry() {
    _plugctl "$@"
    local ret=$? what="" filter="" healthy="" source="" namespace="" out n q
    local -a args=(--json)
    _plugctl_registry_position || return $ret
    out=$(_plugctl_registry_query) && [[ -n $out ]] || return $ret
    local cur=${COMP_WORDS[COMP_CWORD]}
    [[ $cur == = ]] && cur=""
    cur=$(_plugctl_unquote "$cur")
    COMPREPLY=()
    while IFS= read -r n; do
        [[ -n $n && $n == "$cur"* ]] || continue
        # one word, whatever the name holds: never expanded, never split
        printf -v q '%q' "$n"
        COMPREPLY+=("$q")
    done <<<"$out"
    return 0
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _plugctl_with_registry -o nosort -o bashdefault -o default plugctl
else
    complete -F _plugctl_with_registry -o bashdefault -o default plugctl
fi
"#;

/// The start of the tail of clap's zsh script.
pub const ZSH_DISPATCH: &str = "\nif [ \"$funcstack[1]\" = \"_plugctl\" ]; then\n";

/// Inserted into clap's zsh script after its functions and before the lines
/// that run or register `_plugctl`, so that both the autoloaded (fpath) and
/// the sourced use of the file get the wrapper from the first TAB on.
const ZSH_DYNAMIC: &str = r#"# --- plugctl: registry names (hand-written in src/generate.rs, not by clap) ---
# clap's _plugctl above knows commands and options. It is kept as
# _plugctl_clap, and _plugctl becomes a wrapper that, where an argument names
# something plugctl knows (plugin types and names, volume ids and names,
# plugin files, families), offers what plugctl itself says (`plugctl --json
# plugin list`, `volume list`, `fingerprint --dry-run`). If plugctl fails or
# finds nothing, clap's completion runs as if the wrapper were not there.
# This file redefines clap's _plugctl each time it runs, so the copy below
# is always clap's, never a previous wrapper.
functions[_plugctl_clap]=$functions[_plugctl]

# The JSON reader (see JSON_AWK in src/generate.rs), its settings as
# arguments: _plugctl_list=volumes _plugctl_want=id ...
_plugctl_json() {
    env "$@" awk '@JSON_AWK@'
}

# Sets `what` (plugins, types, volumes, files, file-types or families),
# `filter` (a plugin type), `healthy`, `source` and `namespace`, and adds
# the options that choose the registry and directories to `args`, in the
# caller; fails when the word under the cursor is none of these.
_plugctl_registry_position() {
    local -a pos
    local i=2 w v opt="" type=""
    while (( i < CURRENT )); do
        w=$words[i]
        case $w in
            (@VALUE_OPTIONS_CASE@)
                if (( i + 1 >= CURRENT )); then
                    opt=$w
                else
                    v=$words[i+1]
                    # the shell has not expanded a ~ typed on the line
                    [[ $v == "~/"* ]] && v=$HOME/${v#"~/"}
                    case $w in
                        (@CONTEXT_OPTIONS_CASE@) args+=("$w" "$v") ;;
                        (--type) type=$v ;;
                        (--namespace) namespace=$v ;;
                    esac
                fi
                (( i++ ))
                ;;
            (--*=*)
                v=${w#*=}
                [[ $v == "~/"* ]] && v=$HOME/${v#"~/"}
                case ${w%%=*} in
                    (@CONTEXT_OPTIONS_CASE@) args+=("${w%%=*}" "$v") ;;
                    (--type) type=$v ;;
                    (--namespace) namespace=$v ;;
                esac
                ;;
            (--allow-insecure-paths) args+=("$w") ;;
            (-*) ;;
            (*) pos+=("$w") ;;
        esac
        (( i++ ))
    done
    # `--plugin=ma` is one word, the one under the cursor
    if [[ $words[CURRENT] == --*=* ]]; then
        case ${words[CURRENT]%%=*} in
            (@VALUE_OPTIONS_CASE@) opt=${words[CURRENT]%%=*} ;;
        esac
    fi
    if [[ -n $opt ]]; then
        case $opt,$pos[1],$pos[2] in
            # only a plugin that can serve the create
            (--plugin,volume,create) what=plugins filter=host-volume healthy=true ;;
            (--plugin,volume,*) what=plugins filter=host-volume ;;
            (--type,*) what=types ;;
            (*) return 1 ;;
        esac
        return 0
    fi
    [[ $words[CURRENT] == -* ]] && return 1
    case $pos[1],$pos[2],$#pos in
        (fingerprint,*) what=plugins filter=$type ;;
        (plugin,show,2|plugin,wait,2) what=types ;;
        (plugin,show,3|plugin,wait,3) what=plugins filter=$pos[3] ;;
        # the files in the plugin directory, registered or not
        (test,*,1) what=file-types ;;
        (test,*,2) what=files filter=$pos[2] ;;
        (volume,show,2|volume,delete,2) what=volumes ;;
        # a built-in secrets plugin cannot run here
        (secret,fetch,2) what=plugins filter=secrets source=file ;;
        (init,*,1) what=families ;;
        (*) return 1 ;;
    esac
}

# One name per line, for what the position set.
_plugctl_registry_query() {
    local out want=name
    case $what in
        (families) print -rl -- @FAMILIES@; return 0 ;;
        (volumes)
            out=$(command plugctl "${args[@]}" volume list 2>/dev/null) || return 1
            {
                print -r -- "$out" | _plugctl_json _plugctl_list=volumes _plugctl_want=id
                # a name is looked up in --namespace
                print -r -- "$out" | _plugctl_json _plugctl_list=volumes _plugctl_want=name \
                    _plugctl_namespace="${namespace:-default}"
            } | sort -u ;;
        (types|plugins)
            out=$(command plugctl "${args[@]}" plugin list 2>/dev/null) || return 1
            [[ $what == types ]] && want=type
            print -r -- "$out" | _plugctl_json _plugctl_list=plugins _plugctl_want=$want _plugctl_type="$filter" \
                _plugctl_healthy="$healthy" _plugctl_source="$source" | sort -u ;;
        (file-types|files)
            # discovery without running anything: each plugin file is a call
            # with a "program"; a built-in is not
            out=$(command plugctl "${args[@]}" fingerprint --dry-run 2>/dev/null) || return 1
            [[ $what == file-types ]] && want=type
            print -r -- "$out" | _plugctl_json _plugctl_list=calls _plugctl_want=$want _plugctl_has=program \
                _plugctl_type="$filter" | sort -u ;;
    esac
}

_plugctl() {
    local what="" filter="" healthy="" source="" namespace="" out expl
    local -a names args
    args=(--json)
    if _plugctl_registry_position && out=$(_plugctl_registry_query) && [[ -n $out ]]; then
        names=("${(@f)out}")
        [[ $words[CURRENT] == --*=* ]] && compset -P '*='
        # compadd quotes each name as the line needs it: one word, never expanded
        _wanted plugctl-$what expl $what compadd -a names && return 0
    fi
    _plugctl_clap "$@"
}
"#;

/// Appended to clap's fish script.
const FISH_DYNAMIC: &str = r#"# --- plugctl: registry names (hand-written in src/generate.rs, not by clap) ---
# Where an argument names something plugctl knows (plugin types and names,
# volume ids and names, plugin files, families), offer what plugctl itself
# says (`plugctl --json plugin list`, `volume list`, `fingerprint
# --dry-run`). If plugctl fails or finds nothing, the condition fails and
# clap's completions above stand.

# The JSON reader (see JSON_AWK in src/generate.rs), its settings as
# arguments: _plugctl_list=volumes _plugctl_want=id ...
function __plugctl_json
    env $argv awk '@JSON_AWK@'
end

# The condition: succeeds when the token under the cursor names something
# plugctl knows and it has some; leaves them in $__plugctl_registry_names
# for the argument list, so plugctl runs once per TAB.
function __plugctl_registry_lookup
    set -g __plugctl_registry_names
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l value_options @VALUE_OPTIONS_LIST@
    set -l context_options @CONTEXT_OPTIONS_LIST@
    set -l args --json
    set -l pos
    set -l opt
    set -l type
    set -l namespace
    set -l i 1
    set -l n (count $tokens)
    while test $i -le $n
        set -l w $tokens[$i]
        set -l v
        set -l name
        if contains -- $w $value_options
            if test $i -eq $n
                set opt $w
            else
                set name $w
                set v $tokens[(math $i + 1)]
            end
            set i (math $i + 1)
        else
            switch $w
                case '--*=*'
                    set -l parts (string split -m 1 = -- $w)
                    set name $parts[1]
                    set v $parts[2]
                case --allow-insecure-paths
                    set -a args $w
                case '-*'
                case '*'
                    set -a pos $w
            end
        end
        if test -n "$name"
            # the shell has not expanded a ~ typed on the line
            set v (string replace -r -- '^~/' "$HOME/" $v)
            if contains -- $name $context_options
                set -a args $name $v
            else if test $name = --type
                set type $v
            else if test $name = --namespace
                set namespace $v
            end
        end
        set i (math $i + 1)
    end
    # `--plugin=ma` is one token, the one under the cursor
    set -l cur (commandline -ct)
    if string match -q -- '--*=*' $cur
        set -l name (string split -m 1 = -- $cur)[1]
        contains -- $name $value_options; and set opt $name
    end
    set -l what
    set -l filter
    set -l healthy
    set -l source
    if test -n "$opt"
        if test "$opt" = --plugin -a "$pos[1]" = volume
            set what plugins
            set filter host-volume
            # only a plugin that can serve the create
            test "$pos[2]" = create; and set healthy true
        else if test "$opt" = --type
            set what types
        else
            return 1
        end
    else if string match -q -- '-*' $cur
        return 1
    else
        switch "$pos[1] $pos[2] "(count $pos)
            case 'fingerprint *'
                set what plugins
                set filter $type
            case 'plugin show 2' 'plugin wait 2'
                set what types
            case 'plugin show 3' 'plugin wait 3'
                set what plugins
                set filter $pos[3]
            # the files in the plugin directory, registered or not
            case 'test * 1'
                set what file-types
            case 'test * 2'
                set what files
                set filter $pos[2]
            case 'volume show 2' 'volume delete 2'
                set what volumes
            # a built-in secrets plugin cannot run here
            case 'secret fetch 2'
                set what plugins
                set filter secrets
                set source file
            case 'init * 1'
                set what families
            case '*'
                return 1
        end
    end
    switch $what
        case families
            set -g __plugctl_registry_names @FAMILIES@
        case volumes
            set -l out (command plugctl $args volume list 2>/dev/null); or return 1
            test -n "$namespace"; or set namespace default
            set -g __plugctl_registry_names (begin
                    printf '%s\n' $out | __plugctl_json _plugctl_list=volumes _plugctl_want=id
                    # a name is looked up in --namespace
                    printf '%s\n' $out | __plugctl_json _plugctl_list=volumes _plugctl_want=name \
                        _plugctl_namespace="$namespace"
                end | sort -u)
        case types plugins
            set -l out (command plugctl $args plugin list 2>/dev/null); or return 1
            set -l want name
            test $what = types; and set want type
            set -g __plugctl_registry_names (printf '%s\n' $out | __plugctl_json _plugctl_list=plugins \
                _plugctl_want=$want _plugctl_type="$filter" _plugctl_healthy="$healthy" \
                _plugctl_source="$source" | sort -u)
        case file-types files
            # discovery without running anything: each plugin file is a call
            # with a "program"; a built-in is not
            set -l out (command plugctl $args fingerprint --dry-run 2>/dev/null); or return 1
            set -l want name
            test $what = file-types; and set want type
            set -g __plugctl_registry_names (printf '%s\n' $out | __plugctl_json _plugctl_list=calls \
                _plugctl_want=$want _plugctl_has=program _plugctl_type="$filter" | sort -u)
    end
    test (count $__plugctl_registry_names) -gt 0
end

# Positional arguments, then the values of --plugin and --type (fish asks
# only an option's own entries for its value). fish escapes each name as
# the command line needs it.
complete -c plugctl -f -n __plugctl_registry_lookup -a '(printf "%s\n" $__plugctl_registry_names)'
complete -c plugctl -f -n __plugctl_registry_lookup -l plugin -r -a '(printf "%s\n" $__plugctl_registry_names)'
complete -c plugctl -f -n __plugctl_registry_lookup -l type -r -a '(printf "%s\n" $__plugctl_registry_names)'
"#;

//! Man pages: clap_mangen's, with the sections clap knows nothing of (EXIT
//! STATUS, ENVIRONMENT, FILES, EXAMPLES) rendered from the code's own
//! values.

use std::path::Path;

use super::BIN_NAME;

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
        "plugctl status",
        "Is this node fine? Where its layout came from, plugin health, volumes to repair, the last fingerprint and textfile; exit 1 when something needs attention.",
        true,
    ),
    ex(
        "plugctl plugin list --unhealthy",
        "The plugins that are not healthy now, with why.",
        false,
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
        "plugctl volume create -f web.volume.hcl",
        "Create the host volume a `nomad volume create` specification describes (type = \"host\").",
        false,
    ),
    ex(
        "plugctl volume list --namespace default",
        "The volumes recorded in the default namespace.",
        false,
    ),
    ex(
        "plugctl volume list --state pending -o name",
        "The ids of the volumes a create left pending, one a line, for xargs.",
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
        "plugctl volume forget --id 5df78593",
        "Drop the record of a volume no delete can settle (its path is outside the volumes directory) without running its plugin; what is on its path stays.",
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
        "plugctl events --since 1h --kind volume_create,volume_delete",
        "The volumes created and deleted in the last hour.",
        false,
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
fn example_path(e: &Example, cmd: &clap::Command) -> Vec<&'static str> {
    let mut path = Vec::new();
    let mut at = cmd;
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
    let paths = example_paths();
    examples_at(&paths, path)
}

/// Each example with its command path (`["volume", "create"]`), worked
/// out on one tree: for pages and help that show them for many commands.
pub fn example_paths() -> Vec<(Vec<&'static str>, Example)> {
    let cmd = crate::cli::command();
    EXAMPLES
        .iter()
        .map(|e| (example_path(e, &cmd), *e))
        .collect()
}

/// Of `paths` ([`example_paths`]), the examples shown on the page of the
/// command at `path`: its own and those of the commands below it (on
/// `plugctl.1`, those marked for it).
pub fn examples_at(paths: &[(Vec<&'static str>, Example)], path: &[&str]) -> Vec<Example> {
    paths
        .iter()
        .filter(|(at, e)| {
            if path.is_empty() {
                e.on_root
            } else {
                at.starts_with(path)
            }
        })
        .map(|(_, e)| *e)
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

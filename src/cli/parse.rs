//! Reading a command line: clap's parse, on a tree cut down to what the
//! line names.
//!
//! Before it parses, clap copies each of plugctl's 20 global options into
//! every subcommand of the command it builds (12 at the top), each copy a
//! few allocations. In a process as short as `plugctl plugin list` that
//! memory, touched once, cost more page faults than anything else plugctl
//! does at startup. So [`parse`] hands clap a tree with only the top-level
//! subcommands some word of the line names. A line that parses there
//! parses the same in the whole tree: a subcommand is entered only by its
//! own name. Everything else clap says (an error, `--help`, a missing
//! subcommand) comes from the whole tree, so that help lists every
//! subcommand and a typo gets its "did you mean".

use std::ffi::OsString;

use clap::{CommandFactory, FromArgMatches, Subcommand};

use super::{Cli, Command, GlobalArgs, Plugctl};

/// The whole command tree: for completions and man pages.
pub fn command() -> clap::Command {
    Command::augment_subcommands(Plugctl::command())
}

/// The whole tree as help shows it: [`command`] with, below each command's
/// options, the examples of it its man page carries
/// (`crate::generate::EXAMPLES`; on `plugctl -h`, those marked for the top).
/// Made only when help or an error is printed: parsing never pays for it.
pub fn help_command() -> clap::Command {
    type Paths = [(Vec<&'static str>, crate::generate::Example)];
    fn with_examples(mut cmd: clap::Command, path: &mut Vec<String>, all: &Paths) -> clap::Command {
        let words: Vec<&str> = path.iter().map(String::as_str).collect();
        // Its own examples (a group's page, `plugctl volume -h`, stays a
        // list of its commands; the man page has them all).
        let examples: Vec<_> = crate::generate::examples_at(all, &words)
            .into_iter()
            .filter(|e| {
                words.is_empty()
                    || all
                        .iter()
                        .any(|(at, x)| at == &words && x.command == e.command)
            })
            .collect();
        if !examples.is_empty() {
            let head = *clap::builder::styling::Styles::default().get_header();
            let mut text = format!("{head}Examples:{head:#}\n");
            for e in examples {
                text.push_str(&format!("  {}\n      {}\n", e.command, e.what));
            }
            cmd = cmd.after_help(text.trim_end().to_string());
        }
        let names: Vec<String> = cmd
            .get_subcommands()
            .map(|s| s.get_name().to_string())
            .collect();
        for name in names {
            path.push(name.clone());
            cmd = cmd.mut_subcommand(&name, |sub| with_examples(sub, path, all));
            path.pop();
        }
        cmd
    }
    with_examples(
        command(),
        &mut Vec::new(),
        &crate::generate::example_paths(),
    )
}

/// The colour plugctl's `--color` (or `PLUGCTL_COLOR`, or `NO_COLOR`) asks
/// for, read before clap parses: clap's own errors and help follow it too.
fn colour_asked(args: &[OsString]) -> clap::ColorChoice {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let mut asked = std::env::var("PLUGCTL_COLOR").ok();
    let words: Vec<&str> = args
        .iter()
        .skip(1)
        .map(|a| a.to_str().unwrap_or_default())
        .take_while(|a| *a != "--")
        .collect();
    for (i, w) in words.iter().enumerate() {
        if let Some(v) = w.strip_prefix("--color=") {
            asked = Some(v.to_string());
        } else if *w == "--color" {
            asked = words.get(i + 1).map(|v| v.to_string());
        }
    }
    match asked.as_deref() {
        _ if no_color => clap::ColorChoice::Never,
        Some("never") => clap::ColorChoice::Never,
        Some("always") => clap::ColorChoice::Always,
        _ => clap::ColorChoice::Auto,
    }
}

/// Parses a command line (`args[0]` is the program), as
/// `Cli::try_parse_from` would on the whole tree; see the module's doc for
/// the tree it parses on first.
///
/// The tree clap builds to parse, and the matches, are leaked instead of
/// dropped: they are built once a process (a few per in-process test), and
/// freeing every argument was a fifth of the instructions `plugctl plugin
/// list` ran (callgrind; benches/run.sh times the start).
///
/// Where each global option's value came from (the command line, a
/// `PLUGCTL_*` variable, a default) is noted in [`GlobalArgs::from_env`],
/// read before the matches are taken apart.
pub fn parse(args: &[OsString]) -> Result<Cli, clap::Error> {
    let colour = colour_asked(args);
    match parse_on(named_tree(args).color(colour), args) {
        // The version is the same in either tree; help and errors are not.
        Err(e) if e.kind() != clap::error::ErrorKind::DisplayVersion => {
            parse_on(help_command().color(colour), args)
        }
        parsed => parsed,
    }
}

fn parse_on(tree: clap::Command, args: &[OsString]) -> Result<Cli, clap::Error> {
    let tree = Box::leak(Box::new(tree));
    let matches = Box::leak(Box::new(tree.try_get_matches_from_mut(args)?));
    let from_env = FromEnv::of(matches);
    let mut global = GlobalArgs::from_arg_matches_mut(matches).map_err(|e| e.format(tree))?;
    global.from_env = from_env;
    let command = Command::from_arg_matches_mut(matches).map_err(|e| e.format(tree))?;
    Ok(Cli { global, command })
}

/// plugctl with only the subcommands a word of `args` names, at every
/// depth (a word that is an option's value may keep one more: that costs
/// nothing but time). The top-level ones are built one by one
/// ([`top_level`]): the others are never built at all.
fn named_tree(args: &[OsString]) -> clap::Command {
    let named = |sub: &clap::Command| {
        let names = std::iter::once(sub.get_name()).chain(sub.get_all_aliases());
        names
            .into_iter()
            .any(|name| args.iter().skip(1).any(|word| word == name))
    };
    let mut tree = Plugctl::command();
    for name in TOP_LEVEL {
        if args.iter().skip(1).any(|word| word == name)
            && let Some(sub) = top_level(name)
        {
            tree = tree.subcommand(keeping(sub, &named));
        }
    }
    tree
}

/// plugctl's top-level subcommands, in [`Command`]'s order; a test holds
/// it to the enum.
const TOP_LEVEL: [&str; 13] = [
    "fingerprint",
    "plugin",
    "volume",
    "secret",
    "validate",
    "test",
    "events",
    "status",
    "pin",
    "replay",
    "metrics",
    "init",
    "completions",
];

/// One top-level subcommand as derive makes it for parsing (its options,
/// its own subcommands, that a group needs one), without its help text:
/// help and errors come from the whole tree. Building every subcommand to
/// keep one was most of what `plugctl plugin list` ran before it parsed;
/// a test holds each to derive's, argument by argument.
fn top_level(name: &'static str) -> Option<clap::Command> {
    use super::{
        CompletionsArgs, EventsArgs, FingerprintArgs, InitArgs, MetricsArgs, PinArgs,
        PluginCommand, ReplayArgs, SecretCommand, StatusArgs, TestArgs, ValidateArgs,
        VolumeCommand,
    };
    use clap::Args;
    let new = || clap::Command::new(name);
    // What derive puts on a `#[command(subcommand)]` variant.
    let group = |cmd: clap::Command| cmd.subcommand_required(true).arg_required_else_help(true);
    Some(match name {
        "fingerprint" => FingerprintArgs::augment_args(new()),
        "plugin" => group(PluginCommand::augment_subcommands(new())),
        "volume" => group(VolumeCommand::augment_subcommands(new())),
        "secret" => group(SecretCommand::augment_subcommands(new())),
        "validate" => ValidateArgs::augment_args(new()),
        "test" => TestArgs::augment_args(new()),
        "events" => EventsArgs::augment_args(new()),
        "status" => StatusArgs::augment_args(new()),
        "pin" => PinArgs::augment_args(new()),
        "replay" => ReplayArgs::augment_args(new()),
        "metrics" => MetricsArgs::augment_args(new()),
        "init" => InitArgs::augment_args(new()),
        "completions" => CompletionsArgs::augment_args(new()),
        _ => return None,
    })
}

/// `sub` with only the subcommands `keep` keeps. clap cannot take a
/// subcommand out of a command, so one that has any is made anew with
/// what derive puts on such a command (its help, that a subcommand is
/// required); a test holds the copy to derive's, subcommand by subcommand.
fn keeping(mut sub: clap::Command, keep: &dyn Fn(&clap::Command) -> bool) -> clap::Command {
    if !sub.has_subcommands() {
        return sub;
    }
    // clap takes a command's name as &'static; the tree is leaked anyway.
    let name: &'static str = Box::leak(sub.get_name().into());
    let mut made = clap::Command::new(name)
        .display_order(sub.get_display_order())
        .subcommand_required(sub.is_subcommand_required_set())
        .arg_required_else_help(sub.is_arg_required_else_help_set())
        .args(sub.get_arguments().cloned());
    if let Some(about) = sub.get_about() {
        made = made.about(about.clone());
    }
    if let Some(about) = sub.get_long_about() {
        made = made.long_about(about.clone());
    }
    for child in sub.get_subcommands_mut().filter(|child| keep(child)) {
        made = made.subcommand(keeping(std::mem::take(child), keep));
    }
    made
}

/// The global options (by clap id, the field's name) whose value came from
/// the environment rather than the command line or a default: clap's own
/// `value_source`, not a guess from the values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FromEnv(std::collections::BTreeSet<String>);

impl FromEnv {
    /// What clap's matches say, at the deepest subcommand that has each
    /// option (a global option's value is set there).
    pub fn of(matches: &clap::ArgMatches) -> FromEnv {
        let mut ids = std::collections::BTreeSet::new();
        let mut level = Some(matches);
        while let Some(m) = level {
            for id in m.ids() {
                let id = id.as_str();
                match m.value_source(id) {
                    Some(clap::parser::ValueSource::EnvVariable) => {
                        ids.insert(id.to_string());
                    }
                    Some(_) => {
                        ids.remove(id);
                    }
                    None => {}
                }
            }
            level = m.subcommand().map(|(_, sub)| sub);
        }
        FromEnv(ids)
    }

    /// These options as set by their variables (for tests and library users).
    pub fn of_ids(ids: &[&str]) -> FromEnv {
        FromEnv(ids.iter().map(|id| id.to_string()).collect())
    }

    /// Whether the option `id` took its value from its variable.
    pub fn has(&self, id: &str) -> bool {
        self.0.contains(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(words: &str) -> Vec<OsString> {
        std::iter::once("plugctl")
            .chain(words.split(' ').filter(|w| !w.is_empty()))
            .map(OsString::from)
            .collect()
    }

    /// What a parse said, comparably: the command line read, or clap's
    /// whole message.
    fn answer(parsed: Result<Cli, clap::Error>) -> String {
        match parsed {
            Ok(cli) => format!("{cli:?}"),
            Err(e) => format!("{:?}: {}", e.kind(), e.render()),
        }
    }

    /// Every subcommand path of the whole tree, `plugin list` and the like.
    fn paths() -> Vec<String> {
        fn walk(cmd: &clap::Command, at: &str, out: &mut Vec<String>) {
            for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
                let path = format!("{at} {}", sub.get_name()).trim().to_string();
                out.push(path.clone());
                walk(sub, &path, out);
            }
        }
        let mut tree = command();
        tree.build();
        let mut out = Vec::new();
        walk(&tree, "", &mut out);
        out
    }

    #[test]
    fn the_cut_tree_answers_every_line_as_the_whole_tree_does() {
        let mut lines: Vec<String> = Vec::new();
        for path in paths() {
            for form in [
                "{}",
                "{} --json",
                "--json {} -q",
                "-v {} -v",
                "{} --version",
                "{} --help",
                "{} --lock-timeout 5s --concurrency 3",
                "--registry plugin {} --node-pool volume",
                "{} --no-such-flag",
                "{} --concurrency 0",
            ] {
                lines.push(form.replace("{}", &path));
            }
        }
        // Lines that parse, with positionals and values that are the names
        // of other subcommands.
        lines.extend(
            [
                "",
                "--version",
                "-V",
                "help",
                "help volume create",
                "fingerprint",
                "fingerprint --type secrets volume plugin -- secret",
                "plugin list --type host-volume",
                "plugin show host-volume mkdir --alloc-id volume",
                "plugin register --type t --name n --alloc-id a --socket /s --version 1.0",
                "plugin wait secrets vault --timeout 1s --healthy",
                "volume create --plugin mkdir --name fingerprint --capacity-max 1MiB --param a=b",
                "volume delete web --dry-run --grace 1s",
                "volume show --name x --namespace ns",
                "volume list --plugin volume",
                "volume ls --state pending -o name",
                "volume rm web --dry-run",
                "plugin ls --unhealthy",
                "plugin show dir",
                "status --stale-after 1h -o json",
                "events --since 2026-01-01T00:00:00Z --until 5 --kind gone,fingerprint --tail 3",
                "--color never volume craete",
                "--color=always plugn",
                "volume audit --prune-orphans --yes",
                "secret fetch env-file app/db --env K=V --format env",
                "secret fetch vault -- -path",
                "validate /tmp --nomad-version 1.10,2.0 --strict",
                "test host-volume mkdir --max-bytes 1MiB --keep",
                "events --follow --since 3 --type secrets",
                "pin --check volume",
                "replay /tmp/cases --env A=B --format junit",
                "metrics --textfile /tmp",
                "init secrets s --lang python --dir /tmp",
                "completions zsh",
                "--color never --quiet --locked --record /tmp/r --record-env volume list",
                "plugn list",
                "volume creat",
            ]
            .map(String::from),
        );
        for words in &lines {
            let args = line(words);
            assert_eq!(
                answer(parse(&args)),
                answer(parse_on(help_command().color(colour_asked(&args)), &args)),
                "plugctl {words}"
            );
        }
    }

    #[test]
    fn the_cut_tree_holds_only_the_named_subcommands() {
        let tree = named_tree(&line("--registry /r plugin list --json"));
        let names = |cmd: &clap::Command| -> Vec<String> {
            cmd.get_subcommands()
                .map(|s| s.get_name().to_string())
                .collect()
        };
        assert_eq!(names(&tree), ["plugin"]);
        assert_eq!(names(tree.find_subcommand("plugin").unwrap()), ["list"]);
        assert!(names(&named_tree(&line("--version"))).is_empty());
    }

    #[test]
    fn only_its_name_or_an_alias_enters_a_subcommand() {
        // What the cut rests on: a subcommand no word names cannot be the
        // one a line enters. clap settings that would let one in another
        // way would break that silently; here they fail instead.
        fn each(cmd: &clap::Command) {
            let name = cmd.get_name();
            assert!(
                !cmd.is_allow_external_subcommands_set(),
                "{name}: external subcommands"
            );
            assert!(!cmd.is_multicall_set(), "{name}: multicall");
            assert!(
                cmd.get_short_flag().is_none(),
                "{name}: a short-flag subcommand"
            );
            assert!(
                cmd.get_long_flag().is_none(),
                "{name}: a long-flag subcommand"
            );
            for sub in cmd.get_subcommands() {
                each(sub);
            }
        }
        let mut tree = command();
        tree.build();
        each(&tree);
        // No inferred subcommands: a name cut short enters nothing.
        for sub in tree.get_subcommands() {
            let name = sub.get_name();
            let short = &name[..name.len() - 1];
            let kind = command()
                .try_get_matches_from(["plugctl", short])
                .map(|_| ())
                .map_err(|e| e.kind());
            assert_eq!(
                kind,
                Err(clap::error::ErrorKind::InvalidSubcommand),
                "{short}"
            );
        }
    }

    #[test]
    fn each_top_level_subcommand_built_alone_parses_as_derive_makes_it() {
        let whole = command();
        let names: Vec<&str> = whole.get_subcommands().map(|s| s.get_name()).collect();
        assert_eq!(
            names, TOP_LEVEL,
            "TOP_LEVEL is Command's subcommands, in order"
        );
        // What parsing reads of a command: its arguments, its settings,
        // its subcommands; not its help text.
        fn shape(cmd: &clap::Command) -> String {
            let mut out = format!(
                "{} required={} else_help={} version={} args={:?}\n",
                cmd.get_name(),
                cmd.is_subcommand_required_set(),
                cmd.is_arg_required_else_help_set(),
                cmd.is_disable_version_flag_set(),
                cmd.get_arguments().collect::<Vec<_>>()
            );
            for sub in cmd.get_subcommands() {
                out.push_str(&shape(sub));
            }
            out
        }
        for derived in whole.get_subcommands() {
            let name = TOP_LEVEL
                .iter()
                .find(|n| **n == derived.get_name())
                .unwrap();
            let alone = top_level(name).unwrap();
            assert_eq!(shape(&alone), shape(derived), "{}", derived.get_name());
        }
    }

    #[test]
    fn a_subcommand_made_anew_is_the_one_derive_makes() {
        fn each(cmd: &clap::Command, checked: &mut usize) {
            for sub in cmd.get_subcommands() {
                if sub.has_subcommands() {
                    let made = format!("{:?}", keeping(sub.clone(), &|_| true));
                    let derived = format!("{sub:?}");
                    // Where they part, in a few words: the whole is pages long.
                    let at = made
                        .bytes()
                        .zip(derived.bytes())
                        .position(|(a, b)| a != b)
                        .unwrap_or(made.len().min(derived.len()));
                    let near =
                        |s: &str| s[at.saturating_sub(80)..(at + 80).min(s.len())].to_string();
                    assert!(
                        made == derived,
                        "{}: made anew\n  {}\nderive's\n  {}",
                        sub.get_name(),
                        near(&made),
                        near(&derived)
                    );
                    *checked += 1;
                }
                each(sub, checked);
            }
        }
        let mut checked = 0;
        each(&command(), &mut checked);
        assert_eq!(checked, 3, "plugin, volume and secret have subcommands");
    }
}

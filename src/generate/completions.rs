//! Shell completion: clap_complete's scripts, and for bash, zsh and fish the
//! hand-written part (scripts/) that completes what plugctl knows — plugin
//! types and names, volume ids and names, plugin files, families — by
//! asking plugctl itself.

use std::collections::BTreeSet;

use clap_complete::{Generator, Shell};

use super::BIN_NAME;

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
pub const JSON_AWK: &str = include_str!("scripts/json.awk");

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
const BASH_DYNAMIC: &str = include_str!("scripts/dynamic.bash");

/// The start of the tail of clap's zsh script.
pub const ZSH_DISPATCH: &str = "\nif [ \"$funcstack[1]\" = \"_plugctl\" ]; then\n";

/// Inserted into clap's zsh script after its functions and before the lines
/// that run or register `_plugctl`, so that both the autoloaded (fpath) and
/// the sourced use of the file get the wrapper from the first TAB on.
const ZSH_DYNAMIC: &str = include_str!("scripts/dynamic.zsh");

/// Appended to clap's fish script.
const FISH_DYNAMIC: &str = include_str!("scripts/dynamic.fish");

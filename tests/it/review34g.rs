//! A seventh fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after the first six rounds
//! (review34.rs to review34f.rs): each test here is an attack that found a
//! way through.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::*;

/// Both formats a shell or a service reads refuse each of `keys`, naming
/// it, and print nothing.
#[track_caller]
fn refused_in_env_and_kv(s: &Rig, provider: &str, keys: &[&str]) {
    for format in ["env", "kv"] {
        let err = plugctl(s)
            .args(["secret", "fetch", provider, "app", "--format", format])
            .fails_with(Exit::Failure)
            .stdout_empty()
            .stderr();
        for key in keys {
            assert!(
                err.contains(&format!("{key:?} would change")),
                "{format}, {key}: {err}"
            );
        }
    }
}

/// A directory of the intruder's holding executable `programs`, each of
/// which touches `canary` and then runs the system's program of its name.
fn their_programs(s: &Rig, intruder: Intruder, canary: &Path, programs: &[&str]) -> PathBuf {
    let theirs = s.root().join("theirs");
    make_dir(&theirs);
    for program in programs {
        let file = theirs.join(program);
        fs::write(
            &file,
            format!(
                "#!/bin/sh\n/usr/bin/touch '{}'\nexec /usr/bin/{program} \"$@\"\n",
                canary.display()
            ),
        )
        .unwrap();
        fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        intruder.own(&file);
    }
    intruder.own(&theirs);
    theirs
}

/// `man` formats a page with groff, which runs its own programs (troff,
/// grotty) from the directories `GROFF_BIN_PATH` names before the
/// system's. A store holding `GROFF_BIN_PATH` of another user's directory
/// made every `man` that a script, or an operator at the shell, ran after
/// `eval` of `--format env` run their troff as root. groff's variables are
/// refused as man's pager is.
#[test]
fn env_output_never_makes_man_run_another_users_formatter() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let canary = s.out_file("pwned");
    let theirs = their_programs(&s, intruder, &canary, &["troff", "grotty"]);
    store_answering(
        &s,
        "store",
        &[
            ("GROFF_BIN_PATH", theirs.display().to_string()),
            ("GOOD", "plain".into()),
        ],
    );
    refused_in_env_and_kv(&s, "store", &["GROFF_BIN_PATH"]);
    if !tool_available("man", "what man runs after the eval") {
        return;
    }
    let page = s.out_file("page.1");
    fs::write(&page, ".TH PAGE 1\n.SH NAME\npage \\- a page\n").unwrap();
    // The attack is real: man runs their troff when the variable is set.
    expect::Run::new(s.command("man"), "man")
        .args(["-l"])
        .arg(&page)
        .env("GROFF_BIN_PATH", &theirs)
        .succeeds();
    assert!(canary.exists(), "man did not run GROFF_BIN_PATH's troff");
    fs::remove_file(&canary).unwrap();
    expect::Run::new(s.command("/bin/sh"), "sh")
        .args(["-c"])
        .arg(format!(
            "eval \"$(\"$PLUGCTL\" secret fetch store app --format env)\"; \
             man -l '{}' >/dev/null 2>&1; true",
            page.display()
        ))
        .env("PLUGCTL", PLUGCTL)
        .succeeds();
    assert!(
        !canary.exists(),
        "man, run after eval of plugctl's env output, ran another user's program as root"
    );
}

/// Where Debian's bash-completion keeps the script an interactive bash
/// sources.
const BASH_COMPLETION: &str = "/usr/share/bash-completion/bash_completion";

/// An interactive root bash on a terminal, with bash-completion loaded,
/// that runs `line`, then types `theirs-cmd ` and TAB, as an operator
/// completing a command's arguments would.
fn tab_after(s: &Rig, line: &str) {
    let typed = format!(". {BASH_COMPLETION}\n{line}\ntheirs-cmd \t\nexit 0\n");
    expect::Run::new(s.command("script"), "script")
        .args(["-qc", "bash --norc --noprofile -i", "/dev/null"])
        .env("PLUGCTL", PLUGCTL)
        .stdin(typed)
        .succeeds();
}

/// bash-completion, which an interactive bash sources, loads the
/// completion of a command the first time TAB completes it from the
/// `completions` directory `BASH_COMPLETION_USER_DIR` names, before the
/// system's, and sources `BASH_COMPLETION_USER_FILE` and the files of
/// `BASH_COMPLETION_COMPAT_DIR` when a shell starts. A store holding one
/// made the operator who evals `--format env` in a root shell run another
/// user's script at the next TAB, as `PROMPT_COMMAND` would at the next
/// prompt: the table named bash-completion's scripts in `XDG_DATA_DIRS`,
/// but not its own variables. They are refused as the shell's are.
#[test]
fn env_output_never_hands_tab_completion_another_users_script() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let canary = s.out_file("pwned");
    let theirs = s.root().join("theirs");
    make_dir(theirs.join("completions"));
    make_dir(theirs.join("compat"));
    let script = format!("/usr/bin/touch '{}'\n", canary.display());
    for file in ["completions/theirs-cmd", "rc", "compat/x"] {
        fs::write(theirs.join(file), &script).unwrap();
        intruder.own(&theirs.join(file));
    }
    for dir in ["completions", "compat", ""] {
        intruder.own(&theirs.join(dir));
    }
    let dir = theirs.display().to_string();
    store_answering(
        &s,
        "store",
        &[
            ("BASH_COMPLETION_USER_DIR", dir.clone()),
            ("BASH_COMPLETION_USER_FILE", format!("{dir}/rc")),
            ("BASH_COMPLETION_COMPAT_DIR", format!("{dir}/compat")),
            ("GOOD", "plain".into()),
        ],
    );
    refused_in_env_and_kv(
        &s,
        "store",
        &[
            "BASH_COMPLETION_USER_DIR",
            "BASH_COMPLETION_USER_FILE",
            "BASH_COMPLETION_COMPAT_DIR",
        ],
    );
    if !Path::new(BASH_COMPLETION).exists() {
        skip_unless_ci("bash-completion is not installed to press TAB after the eval");
        return;
    }
    if !tool_available("script", "an interactive bash on a terminal") {
        return;
    }
    // The attack is real: TAB sources their completion when the variable
    // is set.
    tab_after(&s, &format!("export BASH_COMPLETION_USER_DIR='{dir}'"));
    assert!(
        canary.exists(),
        "TAB did not load BASH_COMPLETION_USER_DIR's completion"
    );
    fs::remove_file(&canary).unwrap();
    tab_after(
        &s,
        "eval \"$(\"$PLUGCTL\" secret fetch store app --format env)\"",
    );
    assert!(
        !canary.exists(),
        "TAB, after eval of plugctl's env output, ran another user's script as root"
    );
}

/// Every D-Bus client connects to the bus its environment's
/// `DBUS_SYSTEM_BUS_ADDRESS` (or `DBUS_SESSION_BUS_ADDRESS`) names, and
/// an address `unixexec:path=PROGRAM` makes libdbus and systemd's sd-bus
/// start that program to talk to: a store holding one made the `busctl`,
/// `hostnamectl`, `timedatectl` or `loginctl` a script ran after `eval`
/// of `--format env` run another user's program as root. D-Bus's
/// variables are refused as OpenSSL's are.
#[test]
fn env_output_never_makes_a_bus_client_start_another_users_program() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let canary = s.out_file("pwned");
    let theirs = their_programs(&s, intruder, &canary, &["true"]);
    let address = format!("unixexec:path={}/true", theirs.display());
    store_answering(
        &s,
        "store",
        &[
            ("DBUS_SYSTEM_BUS_ADDRESS", address.clone()),
            ("DBUS_SESSION_BUS_ADDRESS", address.clone()),
            ("GOOD", "plain".into()),
        ],
    );
    refused_in_env_and_kv(
        &s,
        "store",
        &["DBUS_SYSTEM_BUS_ADDRESS", "DBUS_SESSION_BUS_ADDRESS"],
    );
    if !tool_available("busctl", "what a D-Bus client runs after the eval") {
        return;
    }
    // The attack is real: busctl starts their program when the variable
    // is set (and then fails: it is no bus).
    let _ = expect::Run::new(s.command("busctl"), "busctl")
        .args(["--system", "list"])
        .env("DBUS_SYSTEM_BUS_ADDRESS", &address)
        .output();
    assert!(
        canary.exists(),
        "busctl did not start the address's program"
    );
    fs::remove_file(&canary).unwrap();
    expect::Run::new(s.command("/bin/sh"), "sh")
        .args(["-c"])
        .arg(
            "eval \"$(\"$PLUGCTL\" secret fetch store app --format env)\"; \
             busctl --system list >/dev/null 2>&1; true",
        )
        .env("PLUGCTL", PLUGCTL)
        .succeeds();
    assert!(
        !canary.exists(),
        "busctl, run after eval of plugctl's env output, ran another user's program as root"
    );
}

/// What the seventh round named and could not run here (no kubectl,
/// vault, terraform, bundler or yarn on this machine), each with an
/// obvious way to run a program as root after eval: kubectl edit's and
/// kubectl diff's programs, Vault's configuration (its token helper),
/// the options TF_CLI_ARGS adds to every terraform command
/// (`-plugin-dir`), Bundler's configuration directory, Yarn's yarnPath
/// and man's roff options. Each is refused in every spelling of its
/// family, naming it, with nothing printed; a plain key beside them is
/// not the reason.
#[test]
fn env_output_refuses_the_tools_a_seventh_round_named() {
    let s = Rig::new();
    let keys = [
        "KUBE_EDITOR",
        "KUBECTL_EXTERNAL_DIFF",
        "VAULT_CONFIG_PATH",
        "TF_CLI_ARGS",
        "TF_CLI_ARGS_init",
        "BUNDLE_APP_CONFIG",
        "YARN_YARN_PATH",
        "MANROFFOPT",
    ];
    let mut pairs: Vec<(&str, String)> = keys.iter().map(|k| (*k, "/tmp/x".to_string())).collect();
    pairs.push(("GOOD", "plain".into()));
    store_answering(&s, "store", &pairs);
    refused_in_env_and_kv(&s, "store", &keys);
    // The same keys one at a time: each alone is refused.
    for key in keys {
        store_answering(&s, "one", &[(key, "/tmp/x".into())]);
        refused_in_env_and_kv(&s, "one", &[key]);
    }
    // And a store of only plain keys prints them.
    store_answering(&s, "plain", &[("GOOD", "plain".into())]);
    plugctl(&s)
        .args(["secret", "fetch", "plain", "app", "--format", "env"])
        .succeeds()
        .stdout_has("GOOD=");
}

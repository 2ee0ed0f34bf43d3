//! Pasting what plugctl suggests, as an operator would: the command
//! between a message's backquotes, run in `sh` as root with `plugctl` this
//! binary, from the rig's scratch directory, where nothing a name in the
//! command holds may make a file `pwned`.

use std::ffi::OsStr;

use super::expect::{Finish, Run};
use super::{PLUGCTL, Rig};

/// The command between the backquotes of `text` that starts with `start`.
pub fn suggested(text: &str, start: &str) -> String {
    let from = text
        .find(&format!("`{start}"))
        .unwrap_or_else(|| panic!("no `{start}...` suggested in: {text}"));
    let rest = &text[from + 1..];
    rest[..rest.find('`').expect("a closing backquote")].to_string()
}

/// Runs `command` pasted (see the module's doc); it must succeed.
pub fn paste(s: &Rig, command: &str) {
    paste_with(s, command, &[]);
}

/// [`paste`], with `env` added to the shell's environment.
pub fn paste_with(s: &Rig, command: &str, env: &[(&str, &OsStr)]) {
    let mut run = Run::new(s.command("/bin/sh"), "sh")
        .args(["-c"])
        .arg(format!("plugctl() {{ \"$PLUGCTL\" \"$@\"; }}\n{command}"))
        .env("PLUGCTL", PLUGCTL)
        .current_dir(&s.out);
    for (k, v) in env {
        run = run.env(k, v);
    }
    run.succeeds();
    assert!(
        !s.out.join("pwned").exists(),
        "pasting `{command}`, which plugctl suggested, ran what a name in it holds"
    );
}

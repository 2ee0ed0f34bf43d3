//! Whether the kernel can run a plugin at all, judged from its first bytes
//! (the dynamic half, `runnable.needs-path`, is in [`super::fingerprint`]).

use std::path::Path;

use nix::unistd::{AccessFlags, access};

use super::Verdict;
use super::subject::Subject;

/// The static checks, in order.
pub const STATIC_CHECKS: &[&str] = &[
    "runnable.exec-format",
    "runnable.crlf-shebang",
    "runnable.interpreter-missing",
];

/// The shebang line without `#!` and without its line feed, if any.
fn shebang(head: &[u8]) -> Option<&[u8]> {
    let rest = head.strip_prefix(b"#!")?;
    Some(rest.split(|&b| b == b'\n').next().unwrap_or_default())
}

/// `runnable.exec-format` (error): neither `#!` nor ELF. Nomad (Go's exec)
/// gets "exec format error" for it; a shell would have run it, which is why
/// it can pass by hand.
pub fn exec_format(s: &Subject) -> Verdict {
    if s.head.starts_with(b"#!") || s.head.starts_with(b"\x7fELF") {
        return Verdict::pass();
    }
    if let Some(why) = &s.unreadable {
        return Verdict::one(
            super::Severity::Warning,
            format!(
                "{} cannot be read by uid {} ({why}), so its format is not checked; Nomad \
                 runs plugins as root, which can read it",
                s.path.display(),
                nix::unistd::geteuid()
            ),
        );
    }
    let what = if s.head.is_empty() {
        "is empty"
    } else {
        "has no #! line and is not an ELF binary"
    };
    Verdict::error(format!(
        "{} {what}: Nomad execs plugins directly (no shell) and gets \"exec format \
         error\"; start a script with a shebang such as #!/bin/sh",
        s.path.display()
    ))
}

/// `runnable.crlf-shebang` (error): a CR before the line feed becomes part
/// of the interpreter's name (or of its argument).
pub fn crlf_shebang(s: &Subject) -> Verdict {
    match shebang(&s.head) {
        Some(line) if line.ends_with(b"\r") => Verdict::error(format!(
            "the #! line of {} ends in CR (Windows line endings): the kernel looks for an \
             interpreter named {}; convert the file to LF line endings (dos2unix, or \
             `sed -i 's/\\r$//'`)",
            s.path.display(),
            crate::escape::quote_os(interpreter(line).unwrap_or_default())
        )),
        _ => Verdict::pass(),
    }
}

/// The interpreter word of a shebang line.
fn interpreter(line: &[u8]) -> Option<String> {
    let word = line
        .split(|&b| b == b' ' || b == b'\t')
        .find(|w| !w.is_empty())?;
    Some(String::from_utf8_lossy(word).into_owned())
}

/// `runnable.interpreter-missing` (error): the interpreter named in the
/// shebang does not exist, is not absolute, or cannot be executed.
pub fn interpreter_missing(s: &Subject) -> Verdict {
    let Some(line) = shebang(&s.head) else {
        return Verdict::NotApplicable;
    };
    let Some(interp) = interpreter(line) else {
        return Verdict::error(format!(
            "the #! line of {} names no interpreter; write e.g. #!/bin/sh",
            s.path.display()
        ));
    };
    let path = Path::new(&interp);
    let problem = if !path.is_absolute() {
        Some("is not an absolute path (the kernel resolves it against Nomad's working directory)")
    } else if !path.exists() {
        Some("does not exist")
    } else if path.is_dir() || access(path, AccessFlags::X_OK).is_err() {
        Some("is not an executable file")
    } else {
        None
    };
    match problem {
        Some(p) => Verdict::error(format!(
            "interpreter {interp} named in the #! line of {} {p} on this machine: install it, \
             or point the #! line at one that exists (e.g. #!/bin/sh, #!/usr/bin/env python3)",
            s.path.display()
        )),
        None => Verdict::pass(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shebang_words() {
        assert_eq!(shebang(b"#!/bin/sh\necho"), Some(&b"/bin/sh"[..]));
        assert_eq!(
            interpreter(shebang(b"#! /usr/bin/env  python3 -I\n").unwrap()),
            Some("/usr/bin/env".into())
        );
        assert_eq!(shebang(b"echo"), None);
        assert_eq!(interpreter(b"  "), None);
    }
}

//! Usage errors through the real binary: exit 2, the message on stderr,
//! never the value of a malformed K=V argument (it may be a secret's
//! configuration).

mod common;

use common::*;

/// Every piece of `value` of four or more characters.
fn pieces(value: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for start in 0..value.len() {
        for end in start + 4..=value.len() {
            out.push(&value[start..end]);
        }
    }
    out
}

#[test]
fn malformed_key_value_arguments_are_refused_without_echoing_them() {
    let s = Sandbox::new();
    let cases: &[(&[&str], &str)] = &[
        (&["secret", "fetch", "p", "x", "--env"], "--env"),
        (&["test", "secrets", "p", "--env"], "--env"),
        (
            &[
                "volume", "create", "--plugin", "mkdir", "--name", "v", "--param",
            ],
            "--param",
        ),
        (
            &[
                "plugin",
                "register",
                "--type",
                "t",
                "--name",
                "n",
                "--alloc-id",
                "a",
                "--socket",
                "/s",
                "--option",
            ],
            "--option",
        ),
    ];
    for (args, option) in cases {
        for (bad, reason) in [
            ("SECRETLEAK", "no '='"),
            ("=SECRETLEAK", "key before '=' is empty"),
        ] {
            let mut argv = args.to_vec();
            argv.push(bad);
            let out = s.run(&argv);
            let err = stderr(&out);
            assert_eq!(code(&out), 2, "{argv:?}: {err}");
            assert!(
                err.contains(&format!("{option} expects KEY=VALUE")) && err.contains(reason),
                "{argv:?}: {err}"
            );
            for piece in pieces(bad) {
                assert!(!err.contains(piece), "{argv:?} echoed {piece:?}: {err}");
                assert!(!stdout(&out).contains(piece), "{argv:?}: {}", stdout(&out));
            }
        }
    }
}

//! Human output where the text is the contract: tables and error messages,
//! as snapshots (insta). Machine-specific parts (temp paths, durations,
//! hashes of system files) are filtered to stable placeholders.
//! Update after an intended change: `INSTA_UPDATE=always cargo test --test it snapshots::`,
//! then review the diff of tests/it/snapshots/.

use crate::common::*;

fn settings(s: &Rig) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(&regex::escape(&s.root().display().to_string()), "[SANDBOX]");
    // The DURATION column of a table row, and nothing else.
    settings.add_filter(r"(healthy|unhealthy)(\s+)\d+(\.\d+)?m?s *", "$1$2[DUR] ");
    settings.add_filter(r"\b[0-9a-f]{12}\b", "[SHA]");
    settings.add_filter(
        r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
        "[UUID]",
    );
    settings
}

/// The whole run as the snapshot keeps it: its exit code (which the
/// snapshot states, so it is read, not expected), stdout and stderr.
fn transcript(out: &expect::Ran) -> String {
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        out.code().unwrap_or(-1),
        out.stdout(),
        out.stderr()
    )
}

#[test]
fn fingerprint_table_with_a_broken_plugin() {
    let s = Rig::new();
    s.hv_ok("good", "1.2.3");
    s.plugin(
        "host-volume",
        "chatty",
        r#"echo "starting up"; echo '{"version": "1.0.0"}'"#,
    );
    s.plugin("host-volume", "noversion", r#"echo '{}'"#);
    s.secrets_ok("vaultish");
    let out = plugctl(&s).args(["fingerprint"]).any_exit();
    settings(&s).bind(|| insta::assert_snapshot!(transcript(&out)));
}

#[test]
fn pin_check_table_after_an_edit() {
    let s = Rig::new();
    s.hv_ok("a", "1.0.0");
    s.hv_ok("b", "1.0.0");
    plugctl(&s).args(["pin"]).succeeds();
    s.hv_ok("a", "1.0.1");
    let out = plugctl(&s).args(["pin", "--check"]).any_exit();
    settings(&s).bind(|| insta::assert_snapshot!(transcript(&out)));
}

#[test]
fn usage_and_not_found_messages() {
    let s = Rig::new();
    s.hv_ok("a", "1.0.0");
    let mut all = String::new();
    for args in [
        &["volume", "show", "nosuch"][..],
        &["fingerprint", "--timeout", "0s"],
        &["fingerprint", "--timeout", "5"],
        &["volume", "create", "--plugin", "a/../b", "--name", "x"],
        &["volume", "audit", "--yes"],
    ] {
        let out = plugctl(&s).args_from(args).any_exit();
        all.push_str(&format!(
            "$ plugctl {}\n{}\n",
            args.join(" "),
            transcript(&out)
        ));
    }
    settings(&s).bind(|| insta::assert_snapshot!(all));
}

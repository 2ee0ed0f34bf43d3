//! A twelfth fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after review34.rs to review34m.rs: each
//! test here is an attack that found a way through, across two items of
//! the issue at once (what `secret fetch` prints and what a plugin's
//! environment loads).

use std::fs;
use std::path::Path;

use crate::common::*;

/// A GNU message catalog (`.mo`, as msgfmt writes it) translating each
/// `(msgid, msgstr)`, sorted by msgid as gettext's binary search needs.
fn message_catalog(pairs: &[(&str, &str)]) -> Vec<u8> {
    let mut pairs = pairs.to_vec();
    pairs.sort();
    let n = pairs.len() as u32;
    let header = 28u32;
    let originals = header;
    let translations = originals + 8 * n;
    let mut strings = translations + 8 * n;
    let mut out = Vec::new();
    for word in [0x9504_12de_u32, 0, n, originals, translations, 0, strings] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    let mut blob = Vec::new();
    let mut table = |texts: Vec<&str>, out: &mut Vec<u8>| {
        for t in texts {
            out.extend_from_slice(&(t.len() as u32).to_le_bytes());
            out.extend_from_slice(&strings.to_le_bytes());
            blob.extend_from_slice(t.as_bytes());
            blob.push(0);
            strings += t.len() as u32 + 1;
        }
    };
    table(pairs.iter().map(|p| p.0).collect(), &mut out);
    table(pairs.iter().map(|p| p.1).collect(), &mut out);
    out.extend_from_slice(&blob);
    out
}

/// `LANGUAGE`, which glibc's gettext reads in every program that
/// translates its messages (bash, coreutils, apt...), names the catalog
/// directories below `/usr/share/locale` it looks in, and it follows a
/// `../` out of there: `LANGUAGE=../../../../their/dir` (with any locale
/// but C, such as `LC_ALL=C.UTF-8`, which the table leaves out on
/// purpose) made a root bash load another user's `bash.mo`, whose
/// translations are the format strings bash prints its errors with — a
/// format string of theirs (`%p` leaked root's pointers, `%n` writes
/// memory). It was printed by `--format env` and `kv` and taken into a
/// plugin's environment; it is now refused in all three, as the variables
/// glibc ignores in a set-user-ID program are (glibc ignores a `LANGUAGE`
/// holding a slash there).
#[test]
fn language_never_hands_a_root_program_another_users_message_catalog() {
    let Some(them) = intruder() else { return };
    let s = Rig::new();
    let marker = "INTRUDER-CATALOG";
    let theirs = s.root().join("theirs");
    let messages = theirs.join("x/LC_MESSAGES");
    make_dir(&messages);
    fs::write(
        messages.join("bash.mo"),
        message_catalog(&[
            ("", "Content-Type: text/plain; charset=UTF-8\n"),
            ("%s: command not found", &format!("{marker} %s")),
        ]),
    )
    .unwrap();
    for p in [
        &theirs,
        &theirs.join("x"),
        &messages,
        &messages.join("bash.mo"),
    ] {
        them.own(p);
    }
    // gettext appends the value to /usr/share/locale: climb to / first.
    let language = format!("../../../../../..{}", theirs.join("x").display());
    store_answering(
        &s,
        "store",
        &[
            ("LANGUAGE", language.clone()),
            ("LC_ALL", "C.UTF-8".into()),
            ("TOKEN", "t0k3n".into()),
        ],
    );
    for format in ["env", "kv"] {
        let err = plugctl(&s)
            .args(["secret", "fetch", "store", "app", "--format", format])
            .fails_with(Exit::Failure)
            .stdout_empty()
            .stderr();
        assert!(err.contains("\"LANGUAGE\" would change"), "{format}: {err}");
        assert!(
            !err.contains(&language),
            "{format}: a value is never named: {err}"
        );
        for plain in ["LC_ALL", "TOKEN"] {
            assert!(
                !err.contains(plain),
                "{format}: {plain} is no reason: {err}"
            );
        }
    }

    // Nor does a plugin's environment take it: a root-owned `#!/bin/bash`
    // plugin that looks for a tool the node lacks printed their format
    // string.
    let seen = s.out_file("bash.err");
    s.file(
        "secrets",
        "bashy",
        &format!(
            "#!/bin/bash\n\
             [ \"$1\" = fingerprint ] && echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' && exit 0\n\
             no-such-tool 2>'{}'\n\
             echo '{{\"result\": {{\"A\": \"b\"}}}}'\n",
            seen.display()
        ),
        0o755,
    );
    plugctl(&s)
        .args(["secret", "fetch", "bashy", "app"])
        .args(["--env", &format!("LANGUAGE={language}")])
        .args(["--env", "LC_ALL=C.UTF-8"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has("LANGUAGE");
    assert!(!seen.exists(), "the plugin ran with their LANGUAGE");

    // The shell that evals the output: what it starts next reads their
    // catalog. Without a C.UTF-8 locale gettext translates nothing and
    // the attack cannot be shown here (the refusals above still hold).
    if !Path::new("/usr/lib/locale/C.utf8").is_dir() {
        skip_unless_ci("no C.UTF-8 locale: the eval of env output is not shown");
        return;
    }
    let run = |allow: &str| {
        s.command("/bin/bash")
            .arg("-c")
            .arg(format!(
                "vars=$(\"$0\" secret fetch store app --format env {allow}) || exit 7\n\
                 eval \"$vars\"\n\
                 bash -c no-such-command\n\
                 exit 0"
            ))
            .arg(PLUGCTL)
            .output()
            .unwrap()
    };
    let refused = run("");
    assert_eq!(refused.status.code(), Some(7), "{}", stderr(&refused));
    assert!(!stderr(&refused).contains(marker), "{}", stderr(&refused));
    // Allowed, the same script does print their text: the refusal above
    // is what kept their catalog out.
    let allowed = run("--allow-key LANGUAGE");
    assert_eq!(allowed.status.code(), Some(0), "{}", stderr(&allowed));
    assert!(
        stderr(&allowed).contains(&format!("{marker} no-such-command")),
        "bash never read their catalog here: the check above proves nothing: {}",
        stderr(&allowed)
    );
}

/// A secrets plugin whose fingerprint exits 0 and writes on stderr makes
/// a client of every release from 1.11.0 panic at agent start: Nomad logs
/// that stderr before it decodes stdout, so what stdout holds does not
/// matter. `validate` and `test` said so whatever stdout held; but when
/// stdout was not a fingerprint too (not JSON, or another type), the
/// recorded reason was only "bad output", so `fingerprint`, `plugin list`,
/// `plugin show`, `status` and `metrics` told the operator of a plugin
/// Nomad would skip, not of one that stops the node's client. The crash
/// is now the reason in every view, as it is for a plugin whose stdout
/// is fine.
#[test]
fn a_fingerprint_that_writes_stderr_is_the_client_crash_whatever_its_stdout() {
    let s = Rig::new();
    for (name, stdout) in [
        ("garbled", "echo not-json"),
        (
            "other-type",
            "echo '{\"type\": \"host-volume\", \"version\": \"1.0.0\"}'",
        ),
    ] {
        s.plugin("secrets", name, &format!("echo oops >&2\n{stdout}"));
    }
    let crash = "a Nomad 2.0.5 client panics logging it";
    plugctl(&s).args(["fingerprint"]).fails_with(Exit::Failure);
    let list = plugctl(&s)
        .args(["--json", "plugin", "list"])
        .succeeds()
        .json();
    for name in ["garbled", "other-type"] {
        let reason = row(&list, "secrets", name)["error"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(reason.contains(crash), "plugin list, {name}: {reason}");
        plugctl(&s)
            .args(["plugin", "show", "secrets", name])
            .succeeds()
            .stdout_has(crash);
        plugctl(&s)
            .args(["validate"])
            .fails_with(Exit::Failure)
            .stdout_has(crash);
    }
    plugctl(&s)
        .args(["status"])
        .fails_with(Exit::Failure)
        .stdout_has(&format!(
            "plugin secrets/garbled is unhealthy: wrote 5 bytes on stderr while succeeding: {crash}"
        ));
    plugctl(&s)
        .args(["metrics"])
        .succeeds()
        .stdout_lacks("reason=\"bad_output\"");
}

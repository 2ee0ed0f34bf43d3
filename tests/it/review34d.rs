//! A fourth fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after review34.rs, review34b.rs and
//! review34c.rs: each test here is an attack that found a way through.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use crate::common::*;

/// The command `text` suggests after `before` (`fix: `, a backquote)
/// that starts with `command` (`chown 0 `), up to `end`, the text that
/// follows it there.
fn fix(text: &str, before: &str, command: &str, end: &str) -> String {
    let from = text
        .find(&format!("{before}{command}"))
        .unwrap_or_else(|| panic!("no {command:?} suggested in: {text}"))
        + before.len();
    let rest = &text[from..];
    let to = rest
        .find(end)
        .unwrap_or_else(|| panic!("no {end:?} after {command:?} in: {text}"));
    rest[..to].to_string()
}

/// The fix a refusal or a finding gives for a file (`chown 0 PATH`,
/// `chmod go-w PATH`, `chmod 0755 PATH`) named its path as it was. A user
/// who can put a file in a plugin directory (a checkout `validate` is run
/// on, a tarball of theirs unpacked as root with its owners kept) names it
/// `x;touch pwned`, and the operator who pasted the fix ran `touch pwned`
/// as root. The path is one shell word there, quoted for sh when it
/// needs it, as every command plugctl suggests.
#[test]
fn a_fix_plugctl_suggests_runs_nothing_a_file_name_holds() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let owned = "o;touch pwned";
    intruder.own(&s.hv_ok(owned, "1.0.0"));
    let shown = plugctl(&s)
        .args(["fingerprint"])
        .fails_with(Exit::Failure)
        .stdout();
    paste(&s, &fix(&shown, "fix: ", "chown 0 ", ", or remove it"));
    plugctl(&s).args(["fingerprint"]).succeeds();

    let writable = "w;touch pwned";
    let path = s.hv_ok(writable, "1.0.0");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o775)).unwrap();
    let shown = plugctl(&s)
        .args(["fingerprint"])
        .fails_with(Exit::Failure)
        .stdout();
    paste(&s, &fix(&shown, "fix: ", "chmod go-w ", ")"));
    plugctl(&s).args(["fingerprint"]).succeeds();

    // validate's findings, on a directory handed over for review.
    let plain = "p;touch pwned";
    let path = s.hv_ok(plain, "1.0.0");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
    let out = plugctl(&s).args(["validate"]).output();
    let shown = String::from_utf8_lossy(&out.stdout);
    paste(&s, &fix(&shown, "`", "chmod 0755 ", "`"));
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o755,
        "the pasted fix did not act on {}",
        path.display()
    );
    fs::set_permissions(&path, fs::Permissions::from_mode(0o664)).unwrap();
    let out = plugctl(&s).args(["validate"]).output();
    let shown = String::from_utf8_lossy(&out.stdout);
    paste(&s, &fix(&shown, "`", "chmod go-w ", "`"));
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o644,
        "the pasted fix did not act on {}",
        path.display()
    );
}

/// `init`'s next steps for a secrets plugin made a store to test it with
/// under the working directory: `mkdir -p store/app && echo USER=admin >
/// store/app/db.env`. Run from a directory another user owns (their
/// checkout) or can add to (`/tmp`), their `store/app/db.env`, a link to
/// a file of root's, made the operator's shell overwrite that file as
/// root. The store is a new directory of `mktemp -d`'s, and the steps
/// still work as printed.
#[test]
fn inits_next_steps_never_write_through_the_working_directory() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let victim = s.root().join("victim");
    fs::write(&victim, "root's\n").unwrap();
    let theirs = s.root().join("theirs");
    make_dir(&theirs);
    intruder.own(&theirs);
    intruder.sh(
        &s,
        &format!(
            "mkdir -p '{t}/store/app' && ln -s '{v}' '{t}/store/app/db.env'",
            t = theirs.display(),
            v = victim.display()
        ),
    );
    let dir = s.plugins.join("secrets");
    let out = plugctl(&s)
        .current_dir(&theirs)
        .args(["init", "secrets", "scaffold", "--dir"])
        .arg(&dir)
        .succeeds();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let steps: Vec<&str> = err
        .lines()
        .map(str::trim)
        .filter(|l| l.contains("USER=admin") || l.contains(" test secrets "))
        .collect();
    assert_eq!(steps.len(), 2, "no store and test steps in: {err}");
    let tmp = s.root().join("tmp");
    make_dir(&tmp);
    let paste = |lines: &[&str], cwd: &std::path::Path| {
        expect::Run::new(s.command("/bin/sh"), "sh")
            .args(["-ec"])
            .arg(format!(
                "plugctl() {{ \"$PLUGCTL\" \"$@\"; }}\n{}",
                lines.join("\n")
            ))
            .env("PLUGCTL", PLUGCTL)
            .env("TMPDIR", &tmp)
            .current_dir(cwd)
            .succeeds();
    };
    // The store, made from their directory (plugctl then refuses to run
    // a plugin from there, which is not the point here).
    paste(&steps[..1], &theirs);
    assert_eq!(
        fs::read_to_string(&victim).unwrap(),
        "root's\n",
        "pasting init's next steps wrote through another user's link"
    );
    // The steps work as printed, from a directory of root's.
    paste(&steps, &s.out);
}

/// `test` run from a directory plugctl does not trust refuses a plugin
/// that gets no PATH (it is never run), and `runnable.needs-path` then ran
/// it again with a PATH, which lifts that refusal: the report said the
/// plugin "relies on an inherited PATH", a cause that is not one, and
/// told the author to change a plugin that had nothing wrong with it.
#[test]
fn a_refused_fingerprint_is_never_blamed_on_a_missing_path() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let theirs = s.root().join("theirs");
    make_dir(&theirs);
    intruder.own(&theirs);
    s.plugin(
        "secrets",
        "fine",
        r#"[ "$1" = fingerprint ] && echo '{"type": "secrets", "version": "1.0.0"}'"#,
    );
    let shown = plugctl(&s)
        .current_dir(&theirs)
        .args(["test", "secrets", "fine"])
        .fails_with(Exit::Failure)
        .stdout();
    assert!(shown.contains("plugctl does not trust"), "{shown}");
    assert!(
        !shown.contains("relies on an inherited PATH"),
        "a refusal was blamed on the plugin's PATH: {shown}"
    );
    assert!(
        shown.contains("SKIP  runnable.needs-path"),
        "runnable.needs-path is not skipped: {shown}"
    );
}

/// A volume created under another volumes directory is handed to no
/// plugin under this one, and the message says which to use: `run with
/// --volumes-dir DIR`, the directory as one shell word there too.
#[test]
fn the_volumes_directory_a_message_suggests_is_one_shell_word() {
    let s = Rig::new();
    let other = s.root().join("v;touch pwned");
    make_dir(&other);
    plugctl(&s)
        .arg("--volumes-dir")
        .arg(&other)
        .args(["volume", "create", "--plugin", "mkdir", "--name", "vv"])
        .succeeds();
    let err = plugctl(&s).args(["volume", "delete", "vv"]).output();
    let err = String::from_utf8_lossy(&err.stderr).into_owned();
    let dir = fix(&err, "run with ", "--volumes-dir ", "\n");
    expect::Run::new(s.command("/bin/sh"), "sh")
        .args(["-c"])
        .arg(format!(
            "plugctl() {{ \"$PLUGCTL\" \"$@\"; }}\nplugctl {dir} volume delete vv"
        ))
        .env("PLUGCTL", PLUGCTL)
        .current_dir(&s.out)
        .succeeds();
    assert!(
        !s.out.join("pwned").exists(),
        "pasting `{dir}`, which plugctl suggested, ran what the directory's name holds"
    );
    assert!(!other.join("vv").exists() && fs::read_dir(&other).unwrap().count() == 0);
}

/// `--format env` refused the hooks of the shells, the loader and the
/// interpreters, but not of the build tools a script runs next: a CI job
/// that evals its secrets and then runs `make` ran, as root, what a
/// store's `MAKEFLAGS` (`--eval=$(shell ...)`) or `MAKEFILES` (a makefile
/// read before its own) said. make's, the compilers', cargo's and rustc's
/// variables, and Go's module sources, are refused as the rest.
#[test]
fn env_output_never_hooks_code_into_the_build_a_script_runs_next() {
    let s = Rig::new();
    let canary = s.out.join("pwned");
    let evil = s.out.join("evil.mk");
    fs::write(&evil, format!("$(shell touch {})\n", canary.display())).unwrap();
    let store = s.out.join("store.json");
    let keys = [
        (
            "MAKEFLAGS",
            format!("--eval=$(shell touch {})", canary.display()),
        ),
        ("MAKEFILES", evil.display().to_string()),
        ("CC", format!("/bin/sh -c 'touch {}' --", canary.display())),
        ("CFLAGS", "-wrapper,/bin/true".to_string()),
        ("RUSTC_WRAPPER", "/tmp/theirs/wrap".to_string()),
        (
            "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER",
            "/tmp/theirs/run".to_string(),
        ),
        ("RUSTUP_TOOLCHAIN", "/tmp/theirs/toolchain".to_string()),
        ("GOPROXY", "https://proxy.example".to_string()),
        ("CGO_CFLAGS", "-fplugin=/tmp/theirs/p.so".to_string()),
        ("GCC_EXEC_PREFIX", "/tmp/theirs/".to_string()),
        ("MAVEN_OPTS", "-javaagent:/tmp/theirs/a.jar".to_string()),
        ("KUBECONFIG", "/tmp/theirs/kubeconfig".to_string()),
        ("AWS_CONFIG_FILE", "/tmp/theirs/aws".to_string()),
    ];
    let result: serde_json::Map<String, serde_json::Value> = keys
        .iter()
        .map(|(k, v)| (k.to_string(), serde_json::Value::from(v.as_str())))
        .chain([("GOOD".to_string(), serde_json::Value::from("plain"))])
        .collect();
    fs::write(&store, serde_json::json!({ "result": result }).to_string()).unwrap();
    s.plugin(
        "secrets",
        "store",
        &format!(
            "[ \"$1\" = fingerprint ] && echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' && exit 0\ncat '{}'",
            store.display()
        ),
    );
    let err = plugctl(&s)
        .args(["secret", "fetch", "store", "app", "--format", "env"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr();
    for (key, _) in &keys {
        assert!(
            err.contains(&format!("{key:?} would change")),
            "{key}: {err}"
        );
    }
    let make = ["/usr/bin/make", "/bin/make"]
        .into_iter()
        .find(|m| std::path::Path::new(m).exists());
    let Some(make) = make else {
        skip_unless_ci("make is not installed to run after the eval");
        return;
    };
    let work = s.out.join("work");
    make_dir(&work);
    fs::write(work.join("Makefile"), "all:\n\t@echo built\n").unwrap();
    expect::Run::new(s.command("/bin/sh"), "sh")
        .args(["-c"])
        .arg(format!(
            "eval \"$(\"$PLUGCTL\" secret fetch store app --format env)\"; {make} -s -C {}",
            work.display()
        ))
        .env("PLUGCTL", PLUGCTL)
        .succeeds();
    assert!(
        !canary.exists(),
        "make, run after eval of plugctl's env output, ran the store's code"
    );
}

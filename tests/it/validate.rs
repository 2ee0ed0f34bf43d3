//! `plugctl validate` through the real binary: a clean directory (and the
//! bundled examples) passes; every planted problem is found with its check
//! name and severity; `--strict`; the JSON and JUnit reports.

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;

use crate::common::*;
use serde_json::Value;

const HV_FP: &str = r#"echo '{"version": "1.0.0"}'"#;
const SECRETS_FP: &str = r#"echo '{"type": "secrets", "version": "1.0.0"}'"#;

/// A rig whose directories have exact modes, whatever the umask.
fn rig() -> Rig {
    let s = Rig::new();
    for family in ["host-volume", "secrets"] {
        make_dir(s.plugins.join(family));
    }
    fix_modes(&s.plugins);
    s
}

fn fix_modes(root: &Path) {
    fs::set_permissions(root, fs::Permissions::from_mode(0o755)).unwrap();
    for e in fs::read_dir(root).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() && !p.is_symlink() {
            fs::set_permissions(&p, fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
}

/// The findings of one plugin and check.
fn findings<'a>(doc: &'a Value, plugin: impl Into<Value>, check: &str) -> Vec<&'a Value> {
    let plugin = plugin.into();
    doc["findings"]
        .as_array()
        .expect("findings array")
        .iter()
        .filter(|f| f["plugin"] == plugin && f["check"] == check)
        .collect()
}

/// The one finding of a plugin and check, with its severity checked.
#[track_caller]
fn expect(doc: &Value, plugin: &str, check: &str, severity: &str) -> String {
    let found = findings(doc, plugin, check);
    assert!(
        !found.is_empty(),
        "no {check} finding for {plugin}; findings:\n{}",
        serde_json::to_string_pretty(&doc["findings"]).unwrap()
    );
    for f in &found {
        assert_eq!(f["severity"], severity, "{plugin} {check}: {f}");
        let msg = f["message"].as_str().unwrap();
        assert!(msg.len() > 20, "a message that says how to fix it: {msg}");
    }
    found[0]["message"].as_str().unwrap().to_string()
}

fn outcome<'a>(doc: &'a Value, plugin: &str, check: &str) -> &'a Value {
    doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["plugin"] == plugin && c["check"] == check)
        .unwrap_or_else(|| panic!("{plugin} {check} was not run: {}", doc["checks"]))
}

#[test]
fn a_clean_directory_passes_even_strict() {
    let s = rig();
    s.plugin("host-volume", "disk", HV_FP);
    s.plugin("secrets", "store", SECRETS_FP);
    let doc = plugctl(&s)
        .args(["--json", "validate", "--strict"])
        .succeeds()
        .json();
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["findings"], Value::Array(vec![]), "{doc:#}");
    // every check ran and passed, per plugin
    for p in ["host-volume/disk", "secrets/store"] {
        for check in [
            "layout.not-executable",
            "permissions.writable",
            "runnable.interpreter-missing",
            "fingerprint.runs",
            "fingerprint.output",
            "fingerprint.version",
            "fingerprint.slow",
            "runnable.needs-path",
        ] {
            assert_eq!(outcome(&doc, p, check)["outcome"], "passed", "{p} {check}");
        }
    }
    assert_eq!(
        outcome(&doc, "secrets/store", "fingerprint.type")["outcome"],
        "passed"
    );
    assert_eq!(
        outcome(&doc, "secrets/store", "fingerprint.stderr")["outcome"],
        "passed"
    );

    let human = plugctl(&s).args(["validate"]).succeeds();
    assert!(stdout(&human).starts_with("ok: "), "{}", stdout(&human));
    assert!(stderr(&human).is_empty(), "{}", stderr(&human));
}

/// The bundled examples were written to pass: no error and no warning, so
/// `--strict` passes too (the README at the top and the example family are
/// notes).
#[test]
fn the_bundled_examples_pass() {
    let s = Rig::new();
    let dir = examples();
    let doc = plugctl(&s)
        .args(["--json", "validate", "--strict", dir.to_str().unwrap()])
        .succeeds()
        .json();
    assert_eq!(doc["ok"], true);
    for f in doc["findings"].as_array().unwrap() {
        assert_eq!(f["severity"], "info", "{f}");
    }
    expect(&doc, "example-family", "layout.unknown-family", "info");
    for p in [
        "host-volume/dir",
        "host-volume/quota-dir",
        "host-volume/sparse-image",
        "secrets/env-file",
        "secrets/json-file",
        "example-family/hello",
    ] {
        assert_eq!(
            outcome(&doc, p, "fingerprint.version")["outcome"],
            "passed",
            "{p}"
        );
    }
}

/// Every problem of the issue's list, planted in one directory and found
/// in one run, each with its check name and severity.
#[test]
fn every_planted_problem_is_found() {
    let s = rig();
    let hv = s.plugins.join("host-volume");
    let sec = s.plugins.join("secrets");

    s.plugin("host-volume", "good", HV_FP);
    // layout
    s.file(
        "host-volume",
        "noexec",
        &format!("#!/bin/sh\n{HV_FP}\n"),
        0o644,
    );
    fs::create_dir(hv.join("subdir")).unwrap();
    nix::unistd::mkfifo(
        &hv.join("fifo"),
        nix::sys::stat::Mode::from_bits_truncate(0o644),
    )
    .unwrap();
    let outside = s.root().join("outside-plugin");
    fs::write(&outside, format!("#!/bin/sh\n{HV_FP}\n")).unwrap();
    fs::set_permissions(&outside, fs::Permissions::from_mode(0o755)).unwrap();
    symlink(&outside, hv.join("escapes")).unwrap();
    symlink("nowhere", hv.join("broken")).unwrap();
    symlink("good", hv.join("alias")).unwrap();
    fs::create_dir(s.plugins.join("my-family")).unwrap();
    fs::write(s.plugins.join("notes.txt"), "hello").unwrap();
    // runnable
    s.file(
        "host-volume",
        "no-interp",
        &format!("#!/nonexistent/sh\n{HV_FP}\n"),
        0o755,
    );
    s.file(
        "host-volume",
        "crlf",
        &format!("#!/bin/sh\r\n{HV_FP}\r\n"),
        0o755,
    );
    s.file("host-volume", "no-shebang", &format!("{HV_FP}\n"), 0o755);
    s.plugin(
        "host-volume",
        "needs-path",
        &format!(
            "printenv PATH >/dev/null || {{ echo 'helper: not found' >&2; exit 127; }}\n{HV_FP}"
        ),
    );
    // permissions
    s.file(
        "host-volume",
        "group-writable",
        &format!("#!/bin/sh\n{HV_FP}\n"),
        0o775,
    );
    s.file(
        "host-volume",
        "setuid",
        &format!("#!/bin/sh\n{HV_FP}\n"),
        0o4755,
    );
    fs::set_permissions(&sec, fs::Permissions::from_mode(0o757)).unwrap();
    // fingerprint
    s.plugin("host-volume", "slow", &format!("sleep 1.2\n{HV_FP}"));
    s.plugin("host-volume", "junk", &format!("echo starting up\n{HV_FP}"));
    s.plugin("host-volume", "bad-version", r#"echo '{"version": "one"}'"#);
    s.plugin(
        "host-volume",
        "fails",
        "echo '{\"error\": \"no disk\"}'; exit 3",
    );
    s.plugin(
        "secrets",
        "wrong-type",
        r#"echo '{"type": "Secrets", "version": "1.0.0"}'"#,
    );
    s.plugin(
        "secrets",
        "chatty",
        &format!("echo 'loading config' >&2\n{SECRETS_FP}"),
    );
    // Nomad traps
    s.plugin("host-volume", "mkdir", HV_FP);
    s.plugin("secrets", "vault", SECRETS_FP);
    s.plugin("secrets", "x.exe", SECRETS_FP);

    // Planted permission problems would stop plugctl from running those
    // plugins at all (see the test below); the override lets every check run.
    let out = plugctl(&s)
        .args(["--json", "--allow-insecure-paths", "validate"])
        .fails_with(Exit::Failure);
    let doc = out.json();
    assert_eq!(doc["ok"], false);
    // The report comes first, then only the one-line message on stderr.
    let err = stderr(&out);
    assert!(err.starts_with("plugctl: error: validate found"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    expect(
        &doc,
        "host-volume/noexec",
        "layout.not-executable",
        "warning",
    );
    expect(&doc, "host-volume/subdir", "layout.directory", "warning");
    // An error: `fingerprint` lists it unhealthy, "not a regular file".
    expect(&doc, "host-volume/fifo", "layout.special-file", "error");
    let m = expect(
        &doc,
        "host-volume/escapes",
        "layout.symlink-escapes",
        "error",
    );
    assert!(m.contains("outside-plugin"), "{m}");
    expect(&doc, "host-volume/broken", "layout.broken-symlink", "error");
    expect(&doc, "my-family", "layout.unknown-family", "info");
    let stray = findings(&doc, Value::Null, "layout.stray-file");
    assert_eq!(stray.len(), 1, "{doc:#}");
    assert_eq!(stray[0]["severity"], "info");
    assert!(stray[0]["message"].as_str().unwrap().contains("notes.txt"));
    let m = expect(
        &doc,
        "host-volume/no-interp",
        "runnable.interpreter-missing",
        "error",
    );
    assert!(m.contains("/nonexistent/sh"), "{m}");
    expect(&doc, "host-volume/crlf", "runnable.crlf-shebang", "error");
    expect(
        &doc,
        "host-volume/no-shebang",
        "runnable.exec-format",
        "error",
    );
    expect(
        &doc,
        "host-volume/needs-path",
        "runnable.needs-path",
        "warning",
    );
    // ...and it does fail the protocol's way meanwhile
    expect(&doc, "host-volume/needs-path", "fingerprint.runs", "error");
    let m = expect(
        &doc,
        "host-volume/group-writable",
        "permissions.writable",
        "warning",
    );
    assert!(m.contains("chmod go-w"), "{m}");
    expect(&doc, "host-volume/setuid", "permissions.setuid", "warning");
    expect(&doc, "secrets", "permissions.writable", "warning");
    // An error, as `fingerprint` records the plugin unhealthy for it.
    expect(&doc, "host-volume/slow", "fingerprint.slow", "error");
    expect(&doc, "host-volume/junk", "fingerprint.output", "error");
    expect(
        &doc,
        "host-volume/bad-version",
        "fingerprint.version",
        "error",
    );
    let m = expect(&doc, "host-volume/fails", "fingerprint.runs", "error");
    assert!(m.contains("no disk"), "{m}");
    expect(&doc, "secrets/wrong-type", "fingerprint.type", "error");
    // An error, as `fingerprint` records it unhealthy: it crashes a client.
    let m = expect(&doc, "secrets/chatty", "fingerprint.stderr", "error");
    assert!(m.contains("client panics logging it"), "{m}");
    expect(&doc, "host-volume/mkdir", "nomad.shadows-builtin", "error");
    expect(&doc, "secrets/vault", "nomad.shadows-builtin", "error");
    expect(&doc, "secrets/x.exe", "nomad.exe-in-secrets", "error");

    // Nothing wrong with these (a loaded machine may make anything slow),
    // and what cannot run is skipped with a reason.
    for p in ["host-volume/good", "host-volume/alias"] {
        assert!(
            doc["findings"]
                .as_array()
                .unwrap()
                .iter()
                .all(|f| f["plugin"] != p || f["check"] == "fingerprint.slow"),
            "{p}: {doc:#}"
        );
    }
    let skipped = outcome(&doc, "host-volume/noexec", "fingerprint.runs");
    assert_eq!(skipped["outcome"], "skipped");
    assert!(skipped["reason"].as_str().unwrap().contains("execute bit"));
    let skipped = outcome(&doc, "host-volume/crlf", "fingerprint.runs");
    assert!(
        skipped["reason"]
            .as_str()
            .unwrap()
            .contains("runnable.crlf-shebang"),
        "{skipped}"
    );
    assert_eq!(
        outcome(&doc, "host-volume/mkdir", "fingerprint.runs")["outcome"],
        "skipped"
    );
    // the FIFO was not opened (the run did not hang) and is not a plugin
    assert!(
        doc["checks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| !(c["plugin"] == "host-volume/fifo" && c["check"] == "fingerprint.runs"))
    );
}

/// Files owned by someone else: only root can plant them. The owner is a
/// warning; that plugctl refuses to run it is an error.
#[test]
fn foreign_owner_is_a_warning_and_the_refusal_to_run_it_an_error() {
    if !nix::unistd::geteuid().is_root() {
        eprintln!("SKIPPED: needs root to chown");
        return;
    }
    let s = rig();
    let p = s.plugin("host-volume", "theirs", HV_FP);
    nix::unistd::chown(&p, Some(nix::unistd::Uid::from_raw(65534)), None).unwrap();
    let doc = plugctl(&s)
        .args(["--json", "validate"])
        .fails_with(Exit::Failure)
        .json();
    expect(&doc, "host-volume/theirs", "permissions.owner", "warning");
    expect(&doc, "host-volume/theirs", "permissions.trusted", "error");
    // ...and plugctl does not run it, saying why.
    let skipped = outcome(&doc, "host-volume/theirs", "fingerprint.runs");
    assert_eq!(skipped["outcome"], "skipped", "{skipped}");
    assert!(
        skipped["reason"]
            .as_str()
            .unwrap()
            .contains("belongs to uid 65534"),
        "{skipped}"
    );
}

/// A plugin others can write is reported, and never run by validate, or by
/// any other command; the override runs it.
#[test]
fn a_writable_plugin_is_not_run_anywhere() {
    let s = rig();
    let marker = s.out_file("ran");
    s.file(
        "host-volume",
        "loose",
        &format!(
            "#!/bin/sh
touch '{}'
{HV_FP}
",
            marker.display()
        ),
        0o757,
    );
    let doc = plugctl(&s)
        .args(["--json", "validate"])
        .fails_with(Exit::Failure)
        .json();
    expect(&doc, "host-volume/loose", "permissions.writable", "warning");
    expect(&doc, "host-volume/loose", "permissions.trusted", "error");
    let skipped = outcome(&doc, "host-volume/loose", "fingerprint.runs");
    assert_eq!(skipped["outcome"], "skipped", "{skipped}");
    assert!(
        skipped["reason"]
            .as_str()
            .unwrap()
            .contains("writable by others"),
        "{skipped}"
    );
    let fp = plugctl(&s)
        .args(["--json", "fingerprint", "loose"])
        .fails_with(Exit::Failure)
        .json();
    let err = row(&fp, "host-volume", "loose")["error"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        err.contains("writable by others") && err.contains("chmod go-w"),
        "{err}"
    );
    // A registry of its own: in this one the failed fingerprint above
    // would refuse the create first, and the run-time check is the point.
    let fresh = s.root().join("fresh.json");
    plugctl(&s)
        .args([
            "--registry",
            fresh.to_str().unwrap(),
            "volume",
            "create",
            "--plugin",
            "loose",
            "--name",
            "v",
        ])
        .fails_with(Exit::Failure)
        .stderr_has("writable by others");
    assert!(!marker.exists(), "an untrusted plugin ran");
    plugctl(&s)
        .args(["--json", "--allow-insecure-paths", "fingerprint", "loose"])
        .succeeds()
        .json();
    assert!(marker.exists());
}

#[test]
fn strict_turns_warnings_into_a_failure() {
    let s = rig();
    s.file(
        "host-volume",
        "loose",
        &format!("#!/bin/sh\n{HV_FP}\n"),
        0o777,
    );

    // Not run by plugctl: an error even without --strict.
    let doc = plugctl(&s)
        .args(["--json", "validate"])
        .fails_with(Exit::Failure)
        .json();
    assert_eq!(doc["ok"], false);
    expect(&doc, "host-volume/loose", "permissions.writable", "warning");
    expect(&doc, "host-volume/loose", "permissions.trusted", "error");

    let out = plugctl(&s)
        .args(["--json", "validate", "--strict"])
        .fails_with(Exit::Failure);
    let doc = out.json();
    assert_eq!(doc["ok"], false);
    // permission findings are errors under --strict
    expect(&doc, "host-volume/loose", "permissions.writable", "error");
    assert!(stderr(&out).contains("plugctl: error:"), "{}", stderr(&out));

    // a plain warning (not a permission) fails --strict too
    let s = rig();
    s.file("host-volume", "noexec", "#!/bin/sh\n", 0o644);
    plugctl(&s).args(["validate"]).succeeds();
    plugctl(&s)
        .args(["validate", "--strict"])
        .fails_with(Exit::Failure)
        .stdout_has("layout.not-executable");
}

#[test]
fn junit_has_one_testcase_per_plugin_and_check() {
    let s = rig();
    s.plugin("host-volume", "good", HV_FP);
    s.plugin(
        "host-volume",
        "junk",
        &format!("echo 'a <b> & \"c\" \u{1b}[31m'\n{HV_FP}"),
    );
    s.file("secrets", "noexec", "#!/bin/sh\n", 0o644);
    let out = plugctl(&s)
        .args(["validate", "--format", "junit"])
        .fails_with(Exit::Failure);
    let xml = stdout(&out);
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}:\n{xml}"));
    let cases: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    let json = plugctl(&s).args(["--json", "validate"]).any_exit().json();
    assert_eq!(cases.len(), json["checks"].as_array().unwrap().len());
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!(root.attribute("tests").unwrap(), cases.len().to_string());

    // one testcase per (plugin, check), no duplicates
    let mut keys: Vec<_> = cases
        .iter()
        .map(|c| {
            (
                c.attribute("classname").unwrap(),
                c.attribute("name").unwrap(),
            )
        })
        .collect();
    let before = keys.len();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), before);

    let case = |plugin: &str, check: &str| {
        *cases
            .iter()
            .find(|c| {
                c.attribute("classname") == Some(plugin) && c.attribute("name") == Some(check)
            })
            .unwrap_or_else(|| panic!("no testcase {plugin} {check}"))
    };
    // passing testcases are listed too
    let good = case("host-volume/good", "fingerprint.output");
    assert!(good.children().all(|n| !n.has_tag_name("failure")));
    // a failure carries the message, escaped and readable
    let failure = case("host-volume/junk", "fingerprint.output")
        .children()
        .find(|n| n.has_tag_name("failure"))
        .expect("a failure element");
    let message = failure.attribute("message").unwrap();
    assert!(
        message.contains("stdout must hold one JSON object"),
        "{message}"
    );
    assert!(failure.text().unwrap().contains("a <b> & "), "{xml}");
    // a warning is not a failure without --strict, and is one with it
    let noexec = case("secrets/noexec", "layout.not-executable");
    assert!(noexec.children().all(|n| !n.has_tag_name("failure")));
    assert!(noexec.children().any(|n| n.has_tag_name("system-out")));
    let skipped = case("secrets/noexec", "fingerprint.runs");
    assert!(skipped.children().any(|n| n.has_tag_name("skipped")));

    let strict = plugctl(&s)
        .args(["validate", "--strict", "--format", "junit"])
        .any_exit();
    let xml = stdout(&strict);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let noexec = doc
        .descendants()
        .find(|n| {
            n.attribute("classname") == Some("secrets/noexec")
                && n.attribute("name") == Some("layout.not-executable")
        })
        .unwrap();
    assert!(noexec.children().any(|n| n.has_tag_name("failure")));
}

#[test]
fn human_report_lists_findings_worst_first() {
    let s = rig();
    s.plugin("host-volume", "junk", &format!("echo log line\n{HV_FP}"));
    s.file("host-volume", "noexec", "#!/bin/sh\n", 0o644);
    let out = plugctl(&s).args(["validate"]).fails_with(Exit::Failure);
    let text = stdout(&out);
    let err_at = text
        .find("error    host-volume/junk  fingerprint.output")
        .expect(&text);
    let warn_at = text
        .find("warning  host-volume/noexec  layout.not-executable")
        .expect(&text);
    assert!(err_at < warn_at, "{text}");
    assert!(
        text.lines().last().unwrap().starts_with("FAILED: "),
        "{text}"
    );
    assert!(!text.contains('\x1b'));
}

#[test]
fn directory_argument_and_usage_errors() {
    let s = rig();
    // DIR wins over --plugin-dir, and its host-volume/ is used
    let other = s.root().join("other");
    make_dir(other.join("host-volume"));
    fix_modes(&other);
    let p = other.join("host-volume/bad");
    fs::write(&p, "#!/bin/sh\necho nope\n").unwrap();
    fs::set_permissions(&p, fs::Permissions::from_mode(0o755)).unwrap();
    let doc = plugctl(&s)
        .args(["--json", "validate", "other"])
        .fails_with(Exit::Failure)
        .json();
    expect(&doc, "host-volume/bad", "fingerprint.output", "error");

    // ...unless the host-volume directory was set apart
    let apart = s.root().join("hv-apart");
    fs::create_dir(&apart).unwrap();
    fs::set_permissions(&apart, fs::Permissions::from_mode(0o755)).unwrap();
    s.hv_ok("elsewhere", "1.0.0");
    fs::rename(
        s.plugins.join("host-volume/elsewhere"),
        apart.join("elsewhere"),
    )
    .unwrap();
    let doc = plugctl(&s)
        .args([
            "--json",
            "--host-volume-plugin-dir",
            apart.to_str().unwrap(),
            "validate",
            "other",
        ])
        .succeeds()
        .json();
    assert_eq!(
        outcome(&doc, "host-volume/elsewhere", "fingerprint.runs")["outcome"],
        "passed"
    );

    plugctl(&s)
        .args(["validate", "missing-dir"])
        .fails_with(Exit::Usage)
        .stderr_has("missing-dir");
    plugctl(&s)
        .args(["--json", "validate", "missing-dir"])
        .fails_with(Exit::Usage)
        .error_kind("usage");
}

#[test]
fn timeout_flag_bounds_each_fingerprint() {
    let s = rig();
    s.plugin("secrets", "hangs", &format!("sleep 30\n{SECRETS_FP}"));
    let out = plugctl(&s)
        .args([
            "--json",
            "validate",
            "--timeout",
            "300ms",
            "--grace",
            "100ms",
        ])
        .fails_with(Exit::Failure);
    let doc = out.json();
    assert!(out.took().as_secs() < 10);
    let m = expect(&doc, "secrets/hangs", "fingerprint.runs", "error");
    assert!(m.contains("timed out"), "{m}");
    assert_eq!(
        outcome(&doc, "secrets/hangs", "runnable.needs-path")["outcome"],
        "skipped"
    );
}

#[test]
fn json_refuses_a_report_format_other_than_json() {
    let s = rig();
    s.hv_ok("fine", "1.0.0");
    for format in ["junit", "human"] {
        assert_format_refused_with_json(
            plugctl(&s).args(["--json", "validate", "--format", format]),
        );
    }
    // --format json, or none, with --json: the report
    for args in [&["validate", "--format", "json"][..], &["validate"]] {
        let doc = plugctl(&s).arg("--json").args_from(args).succeeds().json();
        assert_eq!(doc["ok"], true, "{doc:#}");
    }
}

#[test]
fn a_family_entry_that_is_not_a_directory_is_an_error() {
    // What fingerprint says about the same directory.
    fn fingerprint(s: &Rig, dir: &Path, extra: &[&str]) -> expect::Run {
        plugctl(s)
            .args(["--plugin-dir", dir.to_str().unwrap()])
            .args_from(extra)
            .arg("fingerprint")
    }
    let s = Rig::new();
    let target = s.root().join("a-file");
    fs::write(&target, "not a directory\n").unwrap();

    // host-volume a file, secrets a symlink to a file, then both broken symlinks.
    let plain = s.root().join("p-file");
    fs::create_dir(&plain).unwrap();
    fs::write(plain.join("host-volume"), "").unwrap();
    symlink(&target, plain.join("secrets")).unwrap();
    let broken = s.root().join("p-broken");
    fs::create_dir(&broken).unwrap();
    symlink("nowhere", broken.join("host-volume")).unwrap();
    symlink("nowhere", broken.join("secrets")).unwrap();
    for (dir, what) in [
        (&plain, ["a file", "which is not a directory"]),
        (&broken, ["does not resolve", "does not resolve"]),
    ] {
        fix_modes(dir);
        let doc = plugctl(&s)
            .args(["--json", "validate", dir.to_str().unwrap()])
            .fails_with(Exit::Failure)
            .json();
        assert_eq!(doc["ok"], false);
        for (family, what) in ["host-volume", "secrets"].into_iter().zip(what) {
            let msg = expect(&doc, family, "layout.family-not-directory", "error");
            assert!(msg.contains(what), "{msg}");
            assert!(msg.contains(&format!("{family} plugins")), "{msg}");
            assert!(msg.contains("a Nomad client warns and finds no"), "{msg}");
        }
        // Reported once, as what it is, not also as a stray file.
        assert!(
            findings(&doc, Value::Null, "layout.stray-file").is_empty(),
            "{doc:#}"
        );
        // The human report and exit code say the same.
        plugctl(&s)
            .args(["validate", dir.to_str().unwrap()])
            .fails_with(Exit::Failure)
            .stdout_has("layout.family-not-directory");
    }
    // What validate predicts: as a Nomad client, fingerprint warns and
    // finds only the built-ins.
    fingerprint(&s, &plain, &[])
        .succeeds()
        .stderr_has("host-volume plugin directory")
        .stderr_has("secrets plugin directory")
        .stderr_has("is not a directory: a Nomad client warns")
        .stdout_has("vault");

    // A --host-volume-plugin-dir that is a file.
    let good = s.root().join("p-good");
    make_dir(good.join("secrets"));
    fix_modes(&good);
    let hv_dir = ["--host-volume-plugin-dir", target.to_str().unwrap()];
    let mut args = hv_dir.to_vec();
    args.extend(["validate", good.to_str().unwrap()]);
    let doc = plugctl(&s)
        .arg("--json")
        .args_from(&args)
        .fails_with(Exit::Failure)
        .json();
    let msg = expect(&doc, "host-volume", "layout.family-not-directory", "error");
    assert!(msg.contains("--host-volume-plugin-dir"), "{msg}");
    assert!(msg.contains(target.to_str().unwrap()), "{msg}");
    assert_eq!(
        outcome(&doc, "secrets", "layout.family-not-directory")["outcome"],
        "passed"
    );
    fingerprint(&s, &good, &hv_dir).fails_with(Exit::Usage);

    // Directories, or symlinks to directories, pass; a missing family is fine.
    let linked = s.root().join("p-linked");
    make_dir(linked.join("real"));
    symlink("real", linked.join("host-volume")).unwrap();
    fix_modes(&linked);
    let doc = plugctl(&s)
        .args(["--json", "validate", linked.to_str().unwrap()])
        .succeeds()
        .json();
    assert_eq!(
        outcome(&doc, "host-volume", "layout.family-not-directory")["outcome"],
        "passed"
    );
    assert!(
        !doc["checks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["plugin"] == "secrets" && c["check"] == "layout.family-not-directory"),
        "{doc:#}"
    );
}

/// An 0711 plugin (exec, not read) seen by a non-root user: its format is
/// unknown, not wrong — a warning that says so, never "empty file".
#[test]
fn an_unreadable_plugin_is_a_warning_for_a_non_root_user() {
    if !nix::unistd::geteuid().is_root() {
        eprintln!("SKIPPED: needs root to run validate as another user");
        return;
    }
    let s = rig();
    s.file(
        "host-volume",
        "hidden",
        &format!("#!/bin/sh\n{HV_FP}\n"),
        0o711,
    );
    for p in [
        s.root(),
        s.plugins.as_path(),
        &s.plugins.join("host-volume"),
    ] {
        fs::set_permissions(p, fs::Permissions::from_mode(0o755)).unwrap();
    }
    let doc = plugctl_as_nobody(&s)
        .args(["--json", "validate"])
        .env(
            "PLUGCTL_REGISTRY",
            "/tmp/plugctl-validate-unreadable-never-written.json",
        )
        .succeeds()
        .json();
    let m = expect(
        &doc,
        "host-volume/hidden",
        "runnable.exec-format",
        "warning",
    );
    assert!(m.contains("cannot be read by uid 65534"), "{m}");
    assert!(!m.contains("empty"), "{m}");
}

//! `plugctl test` through the real binary: well-behaved plugins pass (the
//! bundled examples among them), broken ones fail on the right check, and
//! nothing is left behind in the temporary directory either way.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::*;
use serde_json::Value;

/// A rig with its own TMPDIR for plugctl, to see what the suite leaves.
struct Env {
    s: Rig,
    tmp: PathBuf,
}

impl Env {
    fn new() -> Env {
        let s = Rig::new();
        let tmp = s.root().join("tmp");
        // 0755 whatever the umask: a TMPDIR others may write is refused.
        make_dir(&tmp);
        Env { s, tmp }
    }

    /// plugctl with this rig's TMPDIR, to run and check.
    fn plugctl(&self) -> expect::Run {
        plugctl(&self.s).env("TMPDIR", &self.tmp)
    }

    /// `plugctl --json test ...`, to run and check.
    fn suite(&self, args: &[&str]) -> expect::Run {
        self.suite_in(None, args)
    }

    fn suite_in(&self, plugin_dir: Option<&Path>, args: &[&str]) -> expect::Run {
        let mut run = self.plugctl();
        if let Some(d) = plugin_dir {
            run = run.env("PLUGCTL_PLUGIN_DIR", d);
        }
        run.args(["--json", "test"]).args_from(args)
    }

    /// The `--json test` report, whatever the exit (for checks that read
    /// only the outcomes).
    fn report_in(&self, plugin_dir: Option<&Path>, args: &[&str]) -> Value {
        self.suite_in(plugin_dir, args).any_exit().json()
    }

    /// What plugctl left in its TMPDIR.
    fn leftovers(&self) -> Vec<String> {
        fs::read_dir(&self.tmp)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    }
}

/// The outcome of one check (each check runs once per `test`).
#[track_caller]
fn outcome(doc: &Value, check: &str) -> String {
    doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == check)
        .unwrap_or_else(|| panic!("{check} not run: {doc:#}"))["outcome"]
        .as_str()
        .unwrap()
        .to_string()
}

#[track_caller]
fn message(doc: &Value, check: &str) -> String {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["check"] == check)
        .map(|f| f["message"].as_str().unwrap().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[track_caller]
fn all_pass_but(doc: &Value, allowed: &[(&str, &str)]) {
    for c in doc["checks"].as_array().unwrap() {
        let check = c["check"].as_str().unwrap();
        let got = c["outcome"].as_str().unwrap();
        let want = allowed
            .iter()
            .find(|(n, _)| *n == check)
            .map_or("passed", |(_, o)| *o);
        assert_eq!(got, want, "{check}: {c}\n{doc:#}");
    }
}

// ---------------------------------------------------------------------------
// secrets
// ---------------------------------------------------------------------------

fn store(e: &Env) -> PathBuf {
    let store = e.s.root().join("store");
    make_dir(store.join("app"));
    fs::write(store.join("app/db.env"), "USER=admin\nPASSWORD=s3cr\"et\n").unwrap();
    store
}

#[test]
fn secrets_example_env_file_passes() {
    let e = Env::new();
    let store = store(&e);
    let env = format!("SECRETS_DIR={}", store.display());
    let doc = e
        .suite_in(
            Some(&examples()),
            &["secrets", "env-file", "--path", "app/db", "--env", &env],
        )
        .succeeds()
        .json();
    assert_eq!(doc["ok"], true);
    all_pass_but(&doc, &[]);
    for check in [
        "fetch.result",
        "fetch.stderr",
        "fetch.missing-path",
        "fingerprint.type",
    ] {
        assert_eq!(outcome(&doc, check), "passed", "{check}");
    }
    assert_eq!(doc["type"], "secrets");
    assert_eq!(doc["name"], "env-file");
    // values never reach the report
    let text = doc.to_string();
    assert!(!text.contains("s3cr"), "{text}");
    assert!(e.leftovers().is_empty(), "{:?}", e.leftovers());

    // without --path the fetch of a real secret is skipped, with the reason
    let doc = e
        .suite_in(Some(&examples()), &["secrets", "env-file", "--env", &env])
        .succeeds()
        .json();
    assert_eq!(outcome(&doc, "fetch.result"), "skipped");
    let reason = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "fetch.result")
        .unwrap()["reason"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(reason.contains("--path"), "{reason}");
}

#[test]
fn secrets_plugins_that_break_the_protocol_fail() {
    let e = Env::new();
    // stderr on a successful fetch, and a result for a path that cannot exist
    e.s.plugin(
        "secrets",
        "chatty",
        r#"case "$1" in
fingerprint) echo '{"type": "secrets", "version": "1.0.0"}' ;;
fetch) echo "fetching $2" >&2; echo '{"result": {"K": "v"}}' ;;
esac"#,
    );
    let out = e
        .suite(&["secrets", "chatty", "--path", "any"])
        .fails_with(Exit::Failure);
    let doc = out.json();
    assert_eq!(doc["ok"], false);
    assert_eq!(outcome(&doc, "fetch.result"), "passed");
    assert_eq!(outcome(&doc, "fetch.stderr"), "failed");
    // Answering any path is what Nomad's own e2e test plugin does: a
    // warning (the stderr on success is what fails this one).
    assert_eq!(outcome(&doc, "fetch.missing-path"), "warned");
    assert!(message(&doc, "fetch.missing-path").contains("cannot exist"));
    assert!(
        stderr(&out).contains("conformance checks failed"),
        "{}",
        stderr(&out)
    );

    // a missing path reported by a non-zero exit: works, but Nomad loses the
    // message (a warning, the suite still passes)
    e.s.plugin(
        "secrets",
        "exits",
        r#"case "$1" in
fingerprint) echo '{"type": "secrets", "version": "1.0.0"}' ;;
fetch) [ "$2" = good ] && echo '{"result": {}}' && exit 0
       echo '{"error": "no such secret"}'; exit 1 ;;
esac"#,
    );
    let doc = e
        .suite(&["secrets", "exits", "--path", "good"])
        .succeeds()
        .json();
    assert_eq!(outcome(&doc, "fetch.missing-path"), "warned");
    assert!(message(&doc, "fetch.missing-path").contains("discards stdout"));

    // a fingerprint with the wrong type: nothing else is run
    e.s.plugin(
        "secrets",
        "wrong-type",
        r#"echo '{"type": "secret", "version": "1.0.0"}'"#,
    );
    let doc = e
        .suite(&["secrets", "wrong-type", "--path", "x"])
        .fails_with(Exit::Failure)
        .json();
    assert_eq!(outcome(&doc, "fingerprint.type"), "failed");
    assert_eq!(outcome(&doc, "fetch.result"), "skipped");
    assert!(e.leftovers().is_empty());
}

#[test]
fn unknown_plugins_and_families() {
    let e = Env::new();
    e.plugctl()
        .args(["test", "secrets", "nope"])
        .fails_with(Exit::NotFound);
    e.plugctl()
        .args(["test", "host-volume", "nope"])
        .fails_with(Exit::NotFound);
    e.plugctl()
        .args(["test", "other", "x"])
        .fails_with(Exit::Usage)
        .stderr_has("no conformance suite");

    // a file Nomad would not run fails the suite with the reason
    e.s.file("secrets", "noexec", "#!/bin/sh\n", 0o644);
    let doc = e
        .suite(&["secrets", "noexec"])
        .fails_with(Exit::Failure)
        .json();
    assert!(
        message(&doc, "suite.runnable").contains("execute bit"),
        "{doc:#}"
    );
}

// ---------------------------------------------------------------------------
// host volumes
// ---------------------------------------------------------------------------

/// A host-volume plugin: fingerprint answers, the body handles the rest
/// (`$1` is the operation).
fn hv(e: &Env, name: &str, body: &str) {
    e.s.plugin(
        "host-volume",
        name,
        &format!(
            "case \"$1\" in\nfingerprint) echo '{{\"version\": \"1.0.0\"}}'; exit 0 ;;\nesac\n{body}"
        ),
    );
}

#[test]
fn host_volume_examples_pass_and_leave_nothing() {
    let e = Env::new();
    for name in ["dir", "sparse-image", "quota-dir"] {
        let doc = e
            .suite_in(Some(&examples()), &["host-volume", name])
            .succeeds()
            .json();
        assert_eq!(doc["ok"], true, "{name}");
        for check in [
            "fingerprint.runs",
            "fingerprint.output",
            "create.path",
            "create.idempotent",
            "delete.idempotent",
            "delete.removes",
            "delete.never-created",
            "create.hostile-names",
            "create.parallel",
            "cleanup",
        ] {
            assert_eq!(outcome(&doc, check), "passed", "{name} {check}: {doc:#}");
        }
        assert!(e.leftovers().is_empty(), "{name}: {:?}", e.leftovers());
        assert!(doc["scratch_dir"].is_null());
    }
    // Nomad's example ignores capacities and parameters: warned and skipped,
    // not failed
    let doc = e.report_in(Some(&examples()), &["host-volume", "dir"]);
    assert_eq!(outcome(&doc, "create.bytes"), "warned");
    assert_eq!(outcome(&doc, "create.refuses-unknown-parameter"), "skipped");
    // sparse-image refuses 1 EiB (asked only with the opt-in: a plugin
    // that allocates would try to fill the disk), quota-dir an unknown
    // parameter
    let doc = e.report_in(Some(&examples()), &["host-volume", "sparse-image"]);
    assert_eq!(outcome(&doc, "create.refuses-absurd-capacity"), "skipped");
    let doc = e.report_in(
        Some(&examples()),
        &["host-volume", "sparse-image", "--check-absurd-capacity"],
    );
    assert_eq!(outcome(&doc, "create.refuses-absurd-capacity"), "passed");
    let doc = e.report_in(Some(&examples()), &["host-volume", "quota-dir"]);
    assert_eq!(outcome(&doc, "create.refuses-unknown-parameter"), "passed");
}

#[test]
fn builtin_mkdir_passes() {
    let e = Env::new();
    let doc = e.suite(&["host-volume", "mkdir"]).succeeds().json();
    assert_eq!(outcome(&doc, "create.refuses-unknown-parameter"), "passed");
    assert_eq!(outcome(&doc, "fingerprint.runs"), "skipped");
    assert!(e.leftovers().is_empty(), "{:?}", e.leftovers());
}

/// create returns a new path every time.
#[test]
fn a_non_idempotent_create_fails() {
    let e = Env::new();
    hv(
        &e,
        "random",
        r#"case "$1" in
create) p="$DHV_VOLUMES_DIR/vol-$(od -An -N4 -tx4 /dev/urandom | tr -d ' ')"
        mkdir -p "$p" && printf '{"path": "%s", "bytes": %s}\n' "$p" "$DHV_CAPACITY_MAX_BYTES" ;;
delete) rm -rf "$DHV_CREATED_PATH" ;;
esac"#,
    );
    let doc = e
        .suite(&["host-volume", "random"])
        .fails_with(Exit::Failure)
        .json();
    assert_eq!(doc["ok"], false);
    assert_eq!(outcome(&doc, "create.idempotent"), "failed");
    assert!(
        message(&doc, "create.idempotent").contains("returned path"),
        "{doc:#}"
    );
    assert_eq!(outcome(&doc, "create.path"), "passed");
    assert_eq!(outcome(&doc, "cleanup"), "passed");
    assert!(e.leftovers().is_empty(), "{:?}", e.leftovers());
}

/// Paths built from the volume name: `$DHV_VOLUMES_DIR/../$DHV_VOLUME_NAME`.
#[test]
fn paths_from_the_volume_name_fail() {
    let e = Env::new();
    hv(
        &e,
        "by-name",
        r#"case "$1" in
create) p="$DHV_VOLUMES_DIR/../$DHV_VOLUME_NAME"
        mkdir -p "$p" && printf '{"path": "%s", "bytes": %s}\n' "$p" "$DHV_CAPACITY_MAX_BYTES" ;;
delete) rm -rf "$DHV_CREATED_PATH" ;;
esac"#,
    );
    let doc = e
        .suite(&["host-volume", "by-name"])
        .fails_with(Exit::Failure)
        .json();
    assert_eq!(outcome(&doc, "create.path"), "failed");
    assert!(message(&doc, "create.path").contains("outside the volumes directory"));
    // One bug, one failure: hostile names would only find it again.
    assert_eq!(outcome(&doc, "create.hostile-names"), "skipped");
    assert!(e.leftovers().is_empty(), "{:?}", e.leftovers());

    // A plugin whose plain create is right but that takes an odd name as a
    // path: hostile names find the escape, and remove what escaped.
    hv(
        &e,
        "odd-names",
        r#"case "$DHV_VOLUME_NAME" in
conformance-*|parallel-*|refuse-me-*|never-created-*) p="$DHV_VOLUMES_DIR/$DHV_VOLUME_ID" ;;
*) p="$DHV_VOLUMES_DIR/../$DHV_VOLUME_NAME" ;;
esac
case "$1" in
create) mkdir -p "$p" && printf '{"path": "%s", "bytes": %s}
' "$p" "$DHV_CAPACITY_MAX_BYTES" ;;
delete) rm -rf "$DHV_CREATED_PATH" ;;
esac"#,
    );
    let doc = e
        .suite(&["host-volume", "odd-names"])
        .fails_with(Exit::Failure)
        .json();
    assert_eq!(outcome(&doc, "create.path"), "passed");
    assert_eq!(outcome(&doc, "create.hostile-names"), "failed");
    let m = message(&doc, "create.hostile-names");
    assert!(m.contains("escape-"), "{m}");
    assert!(m.contains("outside the scratch directory"), "{m}");
    // what escaped the scratch directory was removed, the rest went with it
    assert!(e.leftovers().is_empty(), "{:?}", e.leftovers());
}

#[test]
fn refusals_must_say_why_and_leave_nothing() {
    let e = Env::new();
    hv(
        &e,
        "messy",
        r#"v="$DHV_VOLUMES_DIR/$DHV_VOLUME_ID"
case "$1" in
create) mkdir -p "$v"
        case "$DHV_PARAMETERS" in *plugctl_conformance_unknown*) echo 'unknown parameter' >&2; exit 1 ;; esac
        printf '{"path": "%s", "bytes": %s}\n' "$v" "$DHV_CAPACITY_MAX_BYTES" ;;
delete) [ -d "$DHV_CREATED_PATH" ] || { echo '{"error": "no such volume"}'; exit 1; }
        rm -rf "$DHV_CREATED_PATH" ;;
esac"#,
    );
    let doc = e
        .suite(&["host-volume", "messy"])
        .fails_with(Exit::Failure)
        .json();
    assert_eq!(outcome(&doc, "create.refuses-unknown-parameter"), "failed");
    let m = message(&doc, "create.refuses-unknown-parameter");
    assert!(m.contains("without a message"), "{m}");
    assert!(m.contains("left"), "{m}");
    assert_eq!(outcome(&doc, "create.refuses-absurd-capacity"), "skipped");
    // delete of what is gone fails: not idempotent
    assert_eq!(outcome(&doc, "delete.idempotent"), "failed");
    assert_eq!(outcome(&doc, "delete.never-created"), "failed");
    assert!(message(&doc, "delete.never-created").contains("no such volume"));
    assert!(e.leftovers().is_empty(), "{:?}", e.leftovers());
}

/// Creates that share a fixed lock file collide when run at once.
#[test]
fn parallel_creates_must_all_succeed() {
    let e = Env::new();
    hv(
        &e,
        "serial",
        r#"v="$DHV_VOLUMES_DIR/$DHV_VOLUME_ID"
case "$1" in
create) mkdir "$DHV_VOLUMES_DIR/.lock" 2>/dev/null || { echo '{"error": "busy"}'; exit 1; }
        mkdir -p "$v"; sleep 0.5; rmdir "$DHV_VOLUMES_DIR/.lock"
        printf '{"path": "%s", "bytes": %s}\n' "$v" "$DHV_CAPACITY_MAX_BYTES" ;;
delete) rm -rf "$v" ;;
esac"#,
    );
    let doc = e
        .suite(&["host-volume", "serial"])
        .fails_with(Exit::Failure)
        .json();
    assert_eq!(outcome(&doc, "create.idempotent"), "passed");
    assert_eq!(outcome(&doc, "create.parallel"), "failed");
    assert!(message(&doc, "create.parallel").contains("busy"), "{doc:#}");
    assert!(e.leftovers().is_empty(), "{:?}", e.leftovers());
}

/// Everything runs with the protocol's environment only.
#[test]
fn calls_get_the_protocol_environment_only() {
    let e = Env::new();
    let seen = e.s.out_file("env");
    hv(
        &e,
        "env-dump",
        &format!(
            r#"env >> {seen}
v="$DHV_VOLUMES_DIR/$DHV_VOLUME_ID"
case "$1" in
create) mkdir -p "$v"; printf '{{"path": "%s", "bytes": %s}}\n' "$v" "$DHV_CAPACITY_MAX_BYTES" ;;
delete) rm -rf "$v" ;;
esac"#,
            seen = seen.display()
        ),
    );
    e.suite(&["host-volume", "env-dump"]).succeeds().json();
    let env = fs::read_to_string(&seen).unwrap();
    assert!(!env.contains(SENTINEL), "{env}");
    assert!(!env.contains("TMPDIR="), "{env}");
    for line in env.lines() {
        let key = line.split('=').next().unwrap();
        // sh itself sets PWD (and dash OLDPWD-free); the rest is DHV_*
        assert!(
            key.starts_with("DHV_") || key == "PWD" || !line.contains('='),
            "unexpected variable {line:?}"
        );
    }
}

#[test]
fn keep_leaves_the_scratch_directory_and_says_where() {
    let e = Env::new();
    let out = e
        .plugctl()
        .env("PLUGCTL_PLUGIN_DIR", examples())
        .args(["--json", "test", "host-volume", "dir", "--keep"])
        .succeeds();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let kept = PathBuf::from(doc["scratch_dir"].as_str().unwrap());
    assert!(kept.starts_with(&e.tmp), "{kept:?}");
    assert!(
        stderr(&out).contains(kept.to_str().unwrap()),
        "{}",
        stderr(&out)
    );
    assert_eq!(outcome(&doc, "cleanup"), "skipped");
    let volumes: Vec<_> = fs::read_dir(kept.join("data/host_volumes"))
        .unwrap()
        .collect();
    assert!(!volumes.is_empty());
    fs::remove_dir_all(&kept).unwrap();
}

#[test]
fn junit_and_human_reports() {
    let e = Env::new();
    let out = e
        .plugctl()
        .env("PLUGCTL_PLUGIN_DIR", examples())
        .args(["test", "host-volume", "dir", "--format", "junit"])
        .succeeds();
    let xml = stdout(&out);
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|err| panic!("{err}\n{xml}"));
    let cases: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert!(cases.len() >= 15, "{xml}");
    assert!(
        cases
            .iter()
            .all(|c| c.attribute("classname") == Some("host-volume/dir"))
    );
    let skipped = cases
        .iter()
        .find(|c| c.attribute("name") == Some("create.refuses-unknown-parameter"))
        .unwrap();
    assert!(skipped.children().any(|n| n.has_tag_name("skipped")));
    assert!(doc.descendants().all(|n| !n.has_tag_name("failure")));

    let out = e
        .plugctl()
        .env("PLUGCTL_PLUGIN_DIR", examples())
        .args(["test", "host-volume", "sparse-image"])
        .succeeds();
    let text = stdout(&out);
    assert!(text.contains("PASS  create.idempotent"), "{text}");
    assert!(
        text.lines()
            .last()
            .unwrap()
            .starts_with("ok: host-volume/sparse-image"),
        "{text}"
    );
    assert!(e.leftovers().is_empty(), "{:?}", e.leftovers());
}

#[test]
fn json_refuses_a_report_format_other_than_json() {
    let e = Env::new();
    let examples = examples();
    let dir = Some(examples.as_path());
    for format in ["junit", "human"] {
        assert_format_refused_with_json(
            e.suite_in(dir, &["host-volume", "dir", "--format", format]),
        );
    }
    // Refused before anything ran.
    assert!(e.leftovers().is_empty(), "{:?}", e.leftovers());
    for args in [
        &["host-volume", "dir", "--format", "json"][..],
        &["host-volume", "dir"],
    ] {
        let doc = e.suite_in(dir, args).succeeds().json();
        assert_eq!(doc["ok"], true, "{doc:#}");
    }
    assert!(e.leftovers().is_empty(), "{:?}", e.leftovers());
}

// ---------------------------------------------------------------------------
// the CI script plugin authors copy (deploy/ci/check-plugins.sh)
// ---------------------------------------------------------------------------

/// The `ci/check-plugins.sh` script plugin authors copy, as shipped in
/// `deploy/ci/` (docs/conformance.md shows how to wire it into CI).
fn ci_script() -> String {
    fs::read_to_string(repo().join("deploy/ci/check-plugins.sh")).unwrap()
}

#[test]
fn the_ci_snippet_runs_on_a_repository_of_plugins() {
    let e = Env::new();
    let repo = e.s.root().join("repo");
    make_dir(&repo);
    copy_tree(&examples(), &repo.join("plugins"));
    make_dir(repo.join("ci/plugctl-test/secrets"));
    make_dir(repo.join("ci/secrets/app"));
    fs::write(repo.join("ci/secrets/app/db.env"), "USER=ci\n").unwrap();
    fs::write(
        repo.join("ci/secrets.json"),
        r#"{"app/db": {"USER": "ci"}}"#,
    )
    .unwrap();
    fs::write(
        repo.join("ci/plugctl-test/secrets/env-file.sh"),
        "set -- --path app/db --env \"SECRETS_DIR=$PWD/ci/secrets\"\n",
    )
    .unwrap();
    fs::write(
        repo.join("ci/plugctl-test/secrets/json-file.sh"),
        "set -- --path app/db --env \"SECRETS_FILE=$PWD/ci/secrets.json\"\n",
    )
    .unwrap();
    fs::write(repo.join("ci/check-plugins.sh"), ci_script()).unwrap();

    let path = format!(
        "{}:/usr/local/bin:/usr/bin:/bin",
        Path::new(PLUGCTL).parent().unwrap().display()
    );
    let run = || {
        expect::Run::new(e.s.command("/bin/sh"), "sh")
            .arg("ci/check-plugins.sh")
            .current_dir(&repo)
            .env("PATH", &path)
            .env("TMPDIR", &e.tmp)
    };
    run().succeeds();
    let reports = repo.join("reports");
    let mut names: Vec<String> = fs::read_dir(&reports)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "test-host-volume-dir.xml",
            "test-host-volume-mkfs-image.xml",
            "test-host-volume-quota-dir.xml",
            "test-host-volume-sparse-image.xml",
            "test-secrets-env-file.xml",
            "test-secrets-json-file.xml",
            "validate.xml"
        ]
    );
    for n in &names {
        let xml = fs::read_to_string(reports.join(n)).unwrap();
        let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|err| panic!("{n}: {err}"));
        assert_eq!(doc.root_element().attribute("failures"), Some("0"), "{n}");
    }
    assert!(e.leftovers().is_empty(), "{:?}", e.leftovers());

    // one broken plugin: the script still runs everything, then fails
    let dir = repo.join("plugins/host-volume/dir");
    let text = fs::read_to_string(&dir).unwrap();
    fs::write(
        &dir,
        text.replace("fingerprint) printf", "fingerprint) echo hi; printf"),
    )
    .unwrap();
    run().exits_code(1);
    let xml = fs::read_to_string(reports.join("validate.xml")).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert!(
        doc.descendants()
            .any(|n| n.has_tag_name("failure") && n.attribute("type") == Some("fingerprint.output")),
        "{xml}"
    );
    let xml = fs::read_to_string(reports.join("test-secrets-env-file.xml")).unwrap();
    assert!(xml.contains("failures=\"0\""));
}

/// Tests that set up plugin trees, registries and lock files of their own,
/// again in a child test process under umask 002 (a shared build host's):
/// plugctl refuses group-writable plugin directories and registries, so a
/// test that left their modes to the umask would fail there for that, or
/// pass for that reason instead of its own. The CI snippet among them:
/// whether a well-formed repository passes `validate --strict` must not
/// follow the umask of whoever runs the tests.
#[test]
fn setups_do_not_depend_on_the_umask() {
    use std::os::unix::process::CommandExt;
    const TESTS: [&str; 6] = [
        "conformance::the_ci_snippet_runs_on_a_repository_of_plugins",
        "contention::a_holder_that_wrote_no_pid_is_still_a_bounded_wait",
        "fingerprint::a_json_file_without_schema_version_is_not_a_plugctl_registry",
        "runner::pool_runs_concurrently_within_its_limit",
        "trust::a_registry_over_the_size_limit_is_refused_unread",
        "validate::every_planted_problem_is_found",
    ];
    let mut cmd = std::process::Command::new(std::env::current_exe().unwrap());
    cmd.arg("--exact").args(TESTS).arg("--test-threads=1");
    // SAFETY: umask is async-signal-safe and touches only the child.
    unsafe {
        cmd.pre_exec(|| {
            nix::sys::stat::umask(nix::sys::stat::Mode::from_bits_truncate(0o002));
            Ok(())
        });
    }
    let out = expect::Run::new(cmd, "it").succeeds();
    let text = format!("{}{}", stdout(&out), stderr(&out));
    // They really ran (a filter that matches nothing passes too).
    assert!(text.contains(&format!("{} passed", TESTS.len())), "{text}");
}

#[test]
fn an_interrupted_suite_leaves_no_scratch_directory() {
    let e = Env::new();
    // create hangs, so the suite is mid-run when the interrupt comes.
    e.s.plugin(
        "host-volume",
        "slow",
        r#"case "$1" in
fingerprint) echo '{"version": "1.0.0"}' ;;
create) sleep 30 ;;
delete) exit 0 ;;
esac"#,
    );
    let suite = plugctl(&e.s)
        .env("TMPDIR", &e.tmp)
        .args(["test", "host-volume", "slow"])
        .start();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while e.leftovers().is_empty() {
        assert!(
            std::time::Instant::now() < until,
            "no scratch directory appeared"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // Let the create start inside it.
    std::thread::sleep(std::time::Duration::from_millis(300));
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(suite.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    suite.exits_code(130);
    assert_eq!(e.leftovers(), Vec::<String>::new());
}

/// A provider that answers every path, cleanly (as Nomad's e2e test
/// secrets plugin does), passes with a warning, not a failure.
#[test]
fn a_provider_that_answers_any_path_is_warned_not_failed() {
    let e = Env::new();
    e.s.plugin(
        "secrets",
        "anything",
        r#"case "$1" in
fingerprint) echo '{"type": "secrets", "version": "1.0.0"}' ;;
fetch) echo '{"result": {"K": "v"}}' ;;
esac"#,
    );
    let doc = e
        .suite(&["secrets", "anything", "--path", "any"])
        .succeeds()
        .json();
    assert_eq!(outcome(&doc, "fetch.missing-path"), "warned");
    assert_eq!(doc["ok"], true, "{doc:#}");
}

/// Every capacity the suite asks for stays under --max-bytes (64 MiB by
/// default), the 1 EiB request needs the opt-in, and the suite refuses to
/// start when the scratch file system cannot hold its volumes.
#[test]
fn the_suite_is_safe_on_a_plugin_that_allocates() {
    let e = Env::new();
    let log = e.s.out_file("asked");
    e.s.plugin(
        "host-volume",
        "alloc",
        &format!(
            r#"case "$1" in
fingerprint) echo '{{"version": "1.0.0"}}' ;;
create) echo "$DHV_CAPACITY_MIN_BYTES $DHV_CAPACITY_MAX_BYTES" >> '{log}'
  mkdir -p "$DHV_VOLUMES_DIR/$DHV_VOLUME_ID"
  printf '{{"path": "%s/%s", "bytes": %s}}\n' "$DHV_VOLUMES_DIR" "$DHV_VOLUME_ID" "$DHV_CAPACITY_MAX_BYTES" ;;
delete) rm -rf "$DHV_VOLUMES_DIR/$DHV_VOLUME_ID" ;;
esac"#,
            log = log.display()
        ),
    );
    let asked = || -> Vec<u64> {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .split_whitespace()
            .map(|n| n.parse().unwrap())
            .collect()
    };
    let doc = e.suite(&["host-volume", "alloc"]).succeeds().json();
    assert_eq!(outcome(&doc, "create.refuses-absurd-capacity"), "skipped");
    assert!(
        message_or_reason(&doc, "create.refuses-absurd-capacity")
            .contains("--check-absurd-capacity")
    );
    let sizes = asked();
    assert!(!sizes.is_empty());
    assert!(sizes.iter().all(|&b| b <= 64 << 20), "{sizes:?}");

    std::fs::remove_file(&log).unwrap();
    e.suite(&["host-volume", "alloc", "--max-bytes", "100KiB"])
        .succeeds()
        .json();
    assert!(asked().iter().all(|&b| b <= 100 << 10), "{:?}", asked());

    std::fs::remove_file(&log).unwrap();
    e.plugctl()
        .args(["test", "host-volume", "alloc", "--max-bytes", "1EiB"])
        .fails_with(Exit::Usage)
        .stderr_has("bytes free");
    assert!(
        asked().is_empty(),
        "the plugin ran before the free-space check"
    );
}

fn message_or_reason(doc: &Value, check: &str) -> String {
    doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == check)
        .map(|c| {
            c["reason"]
                .as_str()
                .or(c["message"].as_str())
                .unwrap_or("")
                .to_string()
        })
        .unwrap_or_default()
}

//! The output that is a contract — tables, messages, the text report of
//! `validate` and `test`, the event log — snapshot-tested in process: the
//! command line runs through `plugctl::app::run_with` with its streams in
//! buffers, so each check costs no process and reads exactly what a user
//! would see. Machine-specific parts (the rig path, durations, ids,
//! times) are filtered to placeholders; nothing else is.
//!
//! After an intended change: `INSTA_UPDATE=always cargo test --test it
//! contract::`, then review the diff of tests/it/snapshots/.

use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};

use plugctl::output::Streams;
use plugctl::settings::Host;

use crate::common::*;

/// A buffer both the printer and the test hold.
#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buf {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// Runs plugctl in process against the rig: its directories given as
/// flags (the process's environment is the test runner's), no agent
/// configuration. The exit code, stdout and stderr, as one transcript.
fn run(s: &Rig, args: &[&str]) -> String {
    let (out, err) = (Buf::default(), Buf::default());
    let mut argv: Vec<String> = [
        "plugctl",
        "--nomad-config",
        "none",
        "--plugin-dir",
        s.plugins.to_str().unwrap(),
        "--registry",
        s.registry.to_str().unwrap(),
        "--volumes-dir",
        s.volumes.to_str().unwrap(),
    ]
    .iter()
    .map(|a| a.to_string())
    .collect();
    argv.extend(args.iter().map(|a| a.to_string()));
    let host = Host {
        is_root: nix::unistd::geteuid().is_root(),
        cwd: s.root().to_path_buf(),
        home: Some(s.root().join("home")),
        ..Host::default()
    };
    let code = {
        // plugctl makes its process a subreaper: this one, shared with other
        // tests, is left as it was (see `process_state`).
        let _state = process_state();
        let code = plugctl::app::run_with(
            argv.into_iter().map(Into::into),
            &host,
            &Streams::writers(out.clone(), err.clone()),
        );
        let _ = nix::sys::prctl::set_child_subreaper(false);
        code
    };
    format!(
        "exit: {code}\n--- stdout\n{}--- stderr\n{}",
        out.text(),
        err.text()
    )
}

fn settings(root: &Path) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    let root = root.display().to_string();
    settings.add_filter(&regex::escape(&root), "[SANDBOX]");
    settings.add_filter(
        r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
        "[UUID]",
    );
    // A table's short id: the first 8 digits of a UUID, first in its row.
    settings.add_filter(r"(?m)^[0-9a-f]{8}\b", "[ID]");
    settings.add_filter(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", "[TIME]");
    // A duration in a table cell, with the padding its width decided.
    settings.add_filter(r"\b\d+(\.\d+)?m?s\b *", "[DUR] ");
    // An age ("5 min ago"), with its padding.
    settings.add_filter(r"\b\d+ (s|min|h|days) ago\b *", "[AGE] ");
    settings.add_filter(r"\b[0-9a-f]{12}\b", "[SHA]");
    // What a call cost, in the event log: the machine's figures.
    settings.add_filter(r"\b(usage\.(cpu_ms|max_rss_kib|wall_ms))=\d+", "$1=[N]");
    settings
}

/// A small node: a good host-volume plugin, a broken one, a secrets plugin.
fn node(s: &Rig) {
    s.hv_ok("dir", "1.0.0");
    s.plugin(
        "host-volume",
        "chatty",
        r#"echo "starting up"; echo '{"version": "1.0.0"}'"#,
    );
    s.secrets_ok("vaultish");
}

#[test]
fn the_fingerprint_table_and_the_plugin_list_say_the_same() {
    let s = Rig::new();
    node(&s);
    let fp = run(&s, &["fingerprint"]);
    let list = run(&s, &["plugin", "list"]);
    let show = run(&s, &["plugin", "show", "host-volume", "chatty"]);
    settings(s.root()).bind(|| {
        insta::assert_snapshot!("fingerprint", fp);
        insta::assert_snapshot!("plugin_list", list);
        insta::assert_snapshot!("plugin_show", show);
    });
}

#[test]
fn volume_tables_and_messages() {
    let s = Rig::new();
    let empty = run(&s, &["volume", "list"]);
    let created = run(
        &s,
        &[
            "volume", "create", "--plugin", "mkdir", "--name", "web data",
        ],
    );
    let list = run(&s, &["volume", "list"]);
    let missing = run(&s, &["volume", "show", "nope"]);
    let deleted = run(&s, &["volume", "delete", "--name", "web data"]);
    settings(s.root()).bind(|| {
        insta::assert_snapshot!("volume_list_empty", empty);
        insta::assert_snapshot!("volume_create", created);
        insta::assert_snapshot!("volume_list", list);
        insta::assert_snapshot!("volume_show_missing", missing);
        insta::assert_snapshot!("volume_delete", deleted);
    });
}

#[test]
fn usage_errors_name_the_cause() {
    let s = Rig::new();
    let unknown_type = run(&s, &["fingerprint", "--type", "host volume"]);
    let bad_capacity = run(
        &s,
        &[
            "volume",
            "create",
            "--plugin",
            "mkdir",
            "--name",
            "v",
            "--capacity-min",
            "2MiB",
        ],
    );
    let no_subcommand = run(&s, &["volume"]);
    settings(s.root()).bind(|| {
        insta::assert_snapshot!("bad_type_name", unknown_type);
        insta::assert_snapshot!("capacity_min_without_max", bad_capacity);
        insta::assert_snapshot!("no_subcommand", no_subcommand);
    });
}

#[test]
fn the_validate_and_test_reports() {
    // In a process of its own: `plugctl test` makes its process's hard core
    // limit 0 before it reads a secret, and run in this one it would leave
    // every later test's children that limit (root here has no
    // CAP_SYS_RESOURCE to raise it again).
    if !alone_in_a_fresh_process("contract::the_validate_and_test_reports") {
        return;
    }
    let s = Rig::new();
    node(&s);
    let validate = run(&s, &["validate"]);
    let test = run(&s, &["test", "host-volume", "mkdir"]);
    settings(s.root()).bind(|| {
        insta::assert_snapshot!("validate", validate);
        insta::assert_snapshot!("test_mkdir", test);
    });
}

#[test]
fn the_event_log() {
    let s = Rig::new();
    node(&s);
    run(&s, &["fingerprint"]);
    let events = run(&s, &["events"]);
    settings(s.root()).bind(|| insta::assert_snapshot!("events", events));
}

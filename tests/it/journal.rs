//! The registry's journal through the real binary: where the event log and
//! intents live, what a reader shows of it (only what the registry file
//! commits), rotation as a reader sees it, and a create's first step as one
//! append.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

use crate::common::*;
use serde_json::Value;

/// A csi-node registration of allocation a1, which must succeed.
fn register_a1(s: &Rig, name: &str) {
    register(s, "csi-node", name, "a1", "/run/a1.sock");
}

/// The names in `--json events` with these arguments.
fn event_names(s: &Rig, args: &[&str]) -> Vec<String> {
    plugctl(s)
        .args(["--json", "events"])
        .args_from(args)
        .succeeds()
        .json_lines()
        .iter()
        .map(|e| e["name"].as_str().unwrap().to_string())
        .collect()
}

fn event_line(seq: u64, name: &str) -> String {
    format!(
        r#"{{"seq":{seq},"kind":"register","type":"csi-node","name":"{name}","time":"2026-01-01T00:00:00.000Z"}}"#
    )
}

#[test]
fn a_schema_1_registry_keeps_its_log_and_moves_it_to_the_journal() {
    let s = Rig::new();
    let events: Vec<Value> = [(1, "old1"), (2, "old2")]
        .iter()
        .map(|(n, name)| serde_json::from_str(&event_line(*n, name)).unwrap())
        .collect();
    let v1 = serde_json::json!({
        "schema_version": 1, "seq": 2, "plugins": {}, "volumes": {}, "events": events,
    });
    s.write_registry(v1.to_string());
    assert_eq!(event_names(&s, &[]), ["old1", "old2"]);
    // Read from the file itself while it is of schema 1: --since N starts
    // after N there too.
    assert_eq!(event_names(&s, &["--since", "1"]), ["old2"]);
    register_a1(&s, "new");
    let file = s.registry_file();
    assert_eq!(file["schema_version"], 2);
    assert!(file.get("events").is_none(), "{file}");
    assert_eq!(file["seq"], 3);
    let segments = s.journal_segments();
    assert_eq!(segments.len(), 1, "{segments:?}");
    let text = fs::read_to_string(&segments[0].1).unwrap();
    assert!(text.contains("old1") && text.contains("\"new\""), "{text}");
    assert_eq!(event_names(&s, &[]), ["old1", "old2", "new"]);
}

#[test]
fn events_the_registry_does_not_commit_are_never_shown_and_are_cut() {
    let s = Rig::new();
    register_a1(&s, "a");
    let (_, segment) = s.journal_segments().pop().unwrap();
    tear(&segment, 2);
    assert_eq!(event_names(&s, &[]), ["a"]);
    register_a1(&s, "b");
    assert_eq!(event_names(&s, &[]), ["a", "b"]);
    assert_cut(&segment, 2);
}

/// Appends what a plugctl killed between its append and its rename
/// leaves: a whole event `seq` (named "ghost") and a torn line after it.
fn tear(segment: &std::path::Path, seq: u64) {
    let mut torn = fs::read(segment).unwrap();
    torn.extend_from_slice(
        format!("{}\n{{\"seq\":{},\"kin", event_line(seq, "ghost"), seq + 1).as_bytes(),
    );
    fs::write(segment, &torn).unwrap();
}

/// Neither line [`tear`] appended is left in the segment.
fn assert_cut(segment: &std::path::Path, seq: u64) {
    let text = fs::read_to_string(segment).unwrap();
    assert!(
        !text.contains("ghost") && !text.contains(&format!("{{\"seq\":{}", seq + 1)),
        "{text}"
    );
}

#[test]
fn a_delete_that_starts_from_its_own_read_still_cuts_a_torn_journal() {
    // `volume delete` reads once and starts its transaction from that read.
    // The read must not call a journal with uncommitted lines clean, or the
    // delete's intent would be appended after them and commit them.
    let s = Rig::new();
    let id = id_of(&create_volume(&s, &["--plugin", "mkdir", "--name", "v"]));
    let (_, segment) = s.journal_segments().pop().unwrap();
    tear(&segment, 8);
    plugctl(&s).args(["volume", "delete", &id]).succeeds();
    let names = event_names(&s, &[]);
    assert!(!names.iter().any(|n| n == "ghost"), "{names:?}");
    assert_cut(&segment, 8);
}

#[test]
fn a_node_id_made_by_a_create_is_in_the_file_before_the_plugin_runs() {
    // A create's pending record may be a journal append only when nothing
    // else changed: a node id made on first use must reach the file first,
    // or a plugctl killed during the call would leave a pending volume of
    // a node the registry never names.
    let s = Rig::new();
    register_a1(&s, "first");
    s.plugin(
        "host-volume",
        "copy",
        &format!(
            r#"case $1 in
fingerprint) echo '{{"version": "1.0.0"}}' ;;
create)
  cp '{registry}' '{out}/during.json'
  echo "{{\"path\": \"$DHV_VOLUMES_DIR/$DHV_VOLUME_ID\"}}" ;;
esac"#,
            registry = s.registry.display(),
            out = s.out.display(),
        ),
    );
    let out = plugctl(&s)
        .args([
            "--json", "volume", "create", "--plugin", "copy", "--name", "v",
        ])
        .succeeds();
    let doc = out.json();
    let node = doc["volume"]["node_id"].as_str().unwrap().to_string();
    assert!(!node.is_empty(), "{doc}");
    let during: Value =
        serde_json::from_str(&fs::read_to_string(s.out.join("during.json")).unwrap()).unwrap();
    assert_eq!(during["node_id"], node.as_str(), "{during}");
}

#[test]
fn a_delete_that_starts_from_its_own_read_starts_a_new_segment_when_the_old_is_lost() {
    // The journal segment the registry names is gone (restored from a
    // backup without it): the read that a delete starts from must not call
    // it clean, so the delete writes a new segment that the file commits.
    let s = Rig::new();
    let id = id_of(&create_volume(&s, &["--plugin", "mkdir", "--name", "v"]));
    let before = s.registry_file()["journal"]["segment"].as_u64().unwrap();
    for (_, segment) in s.journal_segments() {
        fs::remove_file(segment).unwrap();
    }
    plugctl(&s).args(["volume", "delete", &id]).succeeds();
    let file = s.registry_file();
    assert_eq!(
        file["journal"]["segment"].as_u64(),
        Some(before + 1),
        "{file}"
    );
    assert!(file["volumes"].as_object().unwrap().is_empty(), "{file}");
    plugctl(&s).args(["events"]).succeeds();
}

#[test]
fn a_reader_behind_the_rotated_journal_is_told_what_it_missed() {
    let s = Rig::new();
    let dir = s.registry.parent().unwrap();
    make_dir(dir);
    // Segments 1 and 2 were rotated away; 3 and 4 hold events 50..=60.
    let segment = |n: u64| dir.join(format!("registry.json.journal.{n:08}"));
    let mut three = String::from("{\"plugctl_journal\":1,\"segment\":3}\n");
    for seq in 50..=54 {
        three.push_str(&event_line(seq, &format!("p{seq}")));
        three.push('\n');
    }
    let mut four = String::from("{\"plugctl_journal\":1,\"segment\":4}\n");
    for seq in 55..=60 {
        four.push_str(&event_line(seq, &format!("p{seq}")));
        four.push('\n');
    }
    for (n, text) in [(3, &three), (4, &four)] {
        fs::write(segment(n), text).unwrap();
        // As plugctl writes them: not writable by others, whatever the umask.
        fs::set_permissions(segment(n), fs::Permissions::from_mode(0o600)).unwrap();
    }
    let registry = serde_json::json!({
        "schema_version": 2, "seq": 60,
        "journal": {"segment": 4, "offset": four.len()},
        "plugins": {}, "volumes": {},
    });
    s.write_registry(serde_json::to_vec_pretty(&registry).unwrap());

    let out = plugctl(&s)
        .args(["--json", "events", "--since", "10"])
        .succeeds()
        .stderr_has("events 11 to 49");
    assert_eq!(seqs(&out.json_lines()), (50..=60).collect::<Vec<_>>());
    // Across the two segments, from the middle of the first.
    assert_eq!(
        event_names(&s, &["--since", "53"])
            .first()
            .map(String::as_str),
        Some("p54")
    );
    plugctl(&s)
        .args(["events", "--since", "55"])
        .any_exit()
        .stderr_lacks("warning");
}

/// The first step of a create is one journal append: while the plugin runs
/// the registry file is byte for byte what it was, and every reader sees
/// the volume pending.
#[test]
fn a_create_records_pending_with_one_append() {
    let s = Rig::new();
    register_a1(&s, "first");
    let before = s.out_file("before");
    s.plugin(
        "host-volume",
        "watch",
        &format!(
            r#"case $1 in
fingerprint) echo '{{"version": "1.0.0"}}' ;;
create)
  cmp -s '{registry}' '{before}' && echo same > '{out}/same'
  '{plugctl}' --registry '{registry}' --plugin-dir '{plugins}' --json volume show "$DHV_VOLUME_ID" > '{out}/during.json'
  echo "{{\"path\": \"$DHV_VOLUMES_DIR/$DHV_VOLUME_ID\"}}" ;;
esac"#,
            registry = s.registry.display(),
            before = before.display(),
            out = s.out.display(),
            plugins = s.plugins.display(),
            plugctl = PLUGCTL,
        ),
    );
    fs::copy(&s.registry, &before).unwrap();
    // (With the node id given: one made on first use is kept in the file.)
    let doc = plugctl(&s)
        .args([
            "--json",
            "--node-id",
            "n1",
            "volume",
            "create",
            "--plugin",
            "watch",
            "--name",
            "w",
        ])
        .succeeds()
        .json();
    assert_eq!(s.read_out("same").trim(), "same", "the file was rewritten");
    let during: Value = serde_json::from_str(&s.read_out("during.json")).unwrap();
    assert_eq!(during["volume"]["state"], "pending");
    assert_eq!(during["volume"]["id"], doc["volume"]["id"]);
    assert_eq!(doc["volume"]["state"], "ready");
    // The intent was taken into the file at the end: the journal's tail
    // holds nothing past the registry's end.
    let file = s.registry_file();
    let (_, segment) = s.journal_segments().pop().unwrap();
    assert_eq!(
        file["journal"]["offset"].as_u64().unwrap(),
        fs::metadata(segment).unwrap().len()
    );
}

#[test]
fn a_plugin_of_a_family_the_release_lacks_is_named_as_such() {
    let s = Rig::new();
    s.secrets_ok("env-file");
    plugctl(&s)
        .args(["--nomad-version", "1.10", "fingerprint", "env-file"])
        .fails_with(Exit::Usage)
        .stderr_has("Nomad 1.10.0 has no secrets plugins");
    plugctl(&s)
        .args(["--nomad-version", "1.10", "fingerprint", "nope"])
        .fails_with(Exit::NotFound);
}

/// What a plugin prints may be longer than a journal line a reader takes
/// back (1 MiB; plugctl reads up to 4 MiB of a plugin's stdout), and so
/// may a record with large parameters. plugctl must never write a line it
/// then refuses: the log stays readable and the record stays whole.
#[test]
fn a_record_or_event_too_long_for_a_journal_line_never_makes_the_log_unreadable() {
    let s = Rig::new();
    register_a1(&s, "first");
    let long = 2_000_000;
    // An update that fails with a message of 2 MB: the record and its
    // event keep its first 4 KiB, saying how long it was (a path that long
    // is refused when it arrives: no path is longer than 4095 bytes). An
    // event too long for a line is cut too (unit
    // `registry::journal::tests::an_event_too_long_for_a_line_is_shortened_to_fit`).
    let fail = s.out_file("fail");
    s.plugin(
        "host-volume",
        "loud",
        &format!(
            r#"case $1 in
fingerprint) echo '{{"version": "1.0.0"}}' ;;
create) if [ -e '{fail}' ]; then
          printf '{{"error": "%s"}}' "$(head -c {long} /dev/zero | tr '\0' a)"; exit 1
        fi
        printf '{{"path": "%s/%s"}}' "$DHV_VOLUMES_DIR" "$DHV_VOLUME_ID" ;;
esac"#,
            fail = fail.display()
        ),
    );
    let create = |extra: &[&str]| {
        plugctl(&s)
            .args([
                "--json",
                "--node-id",
                "n1",
                "volume",
                "create",
                "--plugin",
                "loud",
                "--name",
                "l",
            ])
            .args_from(extra)
    };
    let id = id_of(&create(&[]).succeeds().json()["volume"]);
    fs::write(&fail, "").unwrap();
    create(&["--id", &id]).fails_with(Exit::Failure);
    let doc = plugctl(&s)
        .args(["--json", "volume", "show", &id])
        .succeeds()
        .json();
    let error = doc["volume"]["error"].as_str().unwrap().to_string();
    assert!(
        error.len() < 4200 && error.contains("shortened for the registry"),
        "{}",
        &error[error.len().saturating_sub(100)..]
    );
    let events = plugctl(&s)
        .args(["--json", "events"])
        .succeeds()
        .json_lines();
    let last = events.last().unwrap();
    assert_eq!(last["kind"], "volume_update");
    assert_eq!(last["error"].as_str().unwrap(), error);

    // A record longer than a line (ten parameters of 120 kB): the create's
    // first step writes the file instead of an intent, so every reader,
    // during the create and after, can read the journal.
    s.hv_ok("quiet", "1.0.0");
    let value = "x".repeat(120_000);
    let params: Vec<String> = (0..10).map(|i| format!("k{i}={value}")).collect();
    let mut args = vec![
        "--node-id",
        "n1",
        "volume",
        "create",
        "--plugin",
        "quiet",
        "--name",
        "p",
    ];
    for p in &params {
        args.extend(["--param", p]);
    }
    // (The plugin cannot even start with such an environment.)
    plugctl(&s).args_from(&args).fails();
    for args in [&["events"][..], &["volume", "list"]] {
        plugctl(&s).args_from(args).succeeds();
    }
    for (_, segment) in s.journal_segments() {
        let text = fs::read(segment).unwrap();
        let longest = text.split(|b| *b == b'\n').map(<[u8]>::len).max().unwrap();
        assert!(longest < 1 << 20, "a journal line of {longest} bytes");
    }
}

/// Fills the registry's current segment with committed events until it is
/// `room` bytes short of 16 MiB, as a long-lived node's journal is.
fn fill_segment(s: &Rig, room: u64) {
    let mut file = s.registry_file();
    let n = file["journal"]["segment"].as_u64().unwrap();
    let (_, segment) = s
        .journal_segments()
        .into_iter()
        .find(|(m, _)| *m == n)
        .unwrap();
    let mut bytes = fs::read(&segment).unwrap();
    let mut seq = file["seq"].as_u64().unwrap();
    while (bytes.len() as u64) < (16 << 20) - room {
        seq += 1;
        bytes.extend_from_slice(event_line(seq, &format!("p{seq}")).as_bytes());
        bytes.push(b'\n');
    }
    fs::write(&segment, &bytes).unwrap();
    file["seq"] = seq.into();
    file["journal"]["offset"] = bytes.len().into();
    fs::write(&s.registry, serde_json::to_vec_pretty(&file).unwrap()).unwrap();
}

/// The segment a rotation is about to create may already have a name: a
/// FIFO there must not hang the writer (it holds the lock), and a file
/// there (a hard link to another file) must not be truncated or written.
#[test]
fn a_fifo_or_a_link_where_a_rotation_goes_is_replaced_not_used() {
    use std::os::unix::fs::FileTypeExt;
    for planted in ["fifo", "link"] {
        let s = Rig::new();
        register_a1(&s, "first");
        let next = s
            .registry
            .parent()
            .unwrap()
            .join("registry.json.journal.00000002");
        let precious = s.out_file("precious");
        fs::write(&precious, "precious\n").unwrap();
        // Planted while the create's plugin runs, after the first step.
        let plant = match planted {
            "fifo" => format!("mkfifo '{}'", next.display()),
            _ => format!("ln '{}' '{}'", precious.display(), next.display()),
        };
        s.plugin(
            "host-volume",
            "hv",
            &format!(
                r#"case $1 in
fingerprint) echo '{{"version": "1.0.0"}}' ;;
create) {plant}; echo "{{\"path\": \"$DHV_VOLUMES_DIR/$DHV_VOLUME_ID\"}}" ;;
esac"#
            ),
        );
        fill_segment(&s, 300);
        let args = [
            "--node-id",
            "n1",
            "volume",
            "create",
            "--plugin",
            "hv",
            "--name",
            "v",
        ];
        plugctl(&s)
            .args(args)
            .deadline(Duration::from_secs(30))
            .succeeds();
        assert_eq!(
            fs::read_to_string(&precious).unwrap(),
            "precious\n",
            "{planted}"
        );
        let meta = fs::symlink_metadata(&next).unwrap();
        assert!(meta.is_file() && !meta.file_type().is_fifo(), "{planted}");
        let text = fs::read_to_string(&next).unwrap();
        assert!(
            text.starts_with("{\"plugctl_journal\":1,\"segment\":2}\n"),
            "{text}"
        );
        assert_eq!(s.registry_file()["journal"]["segment"], 2, "{planted}");
        let names = event_names(
            &s,
            &[
                "--since",
                &(s.registry_file()["seq"].as_u64().unwrap() - 1).to_string(),
            ],
        );
        assert_eq!(names, ["hv"], "{planted}");
    }
}

/// `events` reads the registry's head (its first KiB) for `seq` and
/// `journal`; a file whose keys come in another order (rewritten by
/// another tool) is as valid, and must give the same answer as a full
/// read, not an empty log.
#[test]
fn a_registry_with_its_keys_in_another_order_shows_the_same_events() {
    let s = Rig::new();
    register_a1(&s, "a");
    register_a1(&s, "b");
    let file = s.registry_file();
    let field = |k: &str| {
        serde_json::to_string_pretty(&file[k])
            .unwrap()
            .replace('\n', "\n  ")
    };
    let text = format!(
        "{{\n  \"schema_version\": 2,\n  \"plugins\": {},\n  \"write_id\": {},\n  \"seq\": {},\n  \"journal\": {},\n  \"volumes\": {{}}\n}}\n",
        field("plugins"),
        field("write_id"),
        field("seq"),
        field("journal"),
    );
    fs::write(&s.registry, text).unwrap();
    assert_eq!(event_names(&s, &[]), ["a", "b"]);
    register_a1(&s, "c");
    assert_eq!(event_names(&s, &[]), ["a", "b", "c"]);
}

/// A line of 10 MB is no line plugctl writes: the journal is refused as
/// edited (exit 2) naming the segment and the byte, like any other such
/// line, not reported as an I/O failure of the registry (exit 1).
#[test]
fn a_huge_line_in_a_segment_is_refused_naming_the_segment_and_byte() {
    let s = Rig::new();
    register_a1(&s, "a");
    let (_, segment) = s.journal_segments().pop().unwrap();
    let end = fs::metadata(&segment).unwrap().len();
    let mut bytes = fs::read(&segment).unwrap();
    bytes.extend_from_slice(b"{\"seq\":2,\"kind\":\"");
    bytes.extend(std::iter::repeat_n(b'x', 10 << 20));
    bytes.extend_from_slice(b"\"}\n");
    fs::write(&segment, &bytes).unwrap();
    for args in [&["volume", "list"][..], &["plugin", "list"]] {
        let out = plugctl(&s).args_from(args).fails_with(Exit::Usage);
        let needle = format!("{} at byte {end}", segment.display());
        assert!(stderr(&out).contains(&needle), "{args:?}: {}", stderr(&out));
    }
}

/// The refusal of an edited journal reads as one sentence.
#[test]
fn an_edited_journal_is_refused_with_a_readable_message() {
    let s = Rig::new();
    register_a1(&s, "a");
    let (_, segment) = s.journal_segments().pop().unwrap();
    let mut bytes = fs::read(&segment).unwrap();
    bytes.extend_from_slice(b"not json\n");
    fs::write(&segment, &bytes).unwrap();
    plugctl(&s)
        .args(["volume", "list"])
        .fails_with(Exit::Usage)
        .stderr_has("move the registry and its journal aside");
}

/// A symlink or a FIFO as a segment is refused at once, naming the
/// segment (not the registry, which is a fine regular file) and what to do.
#[test]
fn a_symlink_or_fifo_as_a_segment_is_refused_naming_the_segment() {
    for planted in ["symlink", "fifo"] {
        let s = Rig::new();
        register_a1(&s, "a");
        let (_, segment) = s.journal_segments().pop().unwrap();
        let real = s.out_file("segment");
        fs::rename(&segment, &real).unwrap();
        match planted {
            "symlink" => std::os::unix::fs::symlink(&real, &segment).unwrap(),
            _ => nix::unistd::mkfifo(&segment, nix::sys::stat::Mode::from_bits_truncate(0o600))
                .unwrap(),
        }
        for args in [&["events"][..], &["volume", "list"]] {
            let kind = if planted == "fifo" {
                "a FIFO"
            } else {
                "a symbolic link"
            };
            plugctl(&s)
                .args_from(args)
                .deadline(Duration::from_secs(10))
                .fails_with(Exit::Usage)
                .stderr_has(&format!("{} is {kind}", segment.display()))
                .stderr_lacks("--registry");
        }
    }
}

/// Appends an intent line for `record` to the newest segment, as a hand
/// (or a hostile user) would; returns the segment and the byte it starts at.
fn append_intent(s: &Rig, record: &Value) -> (std::path::PathBuf, u64) {
    let (_, segment) = s.journal_segments().pop().unwrap();
    let mut bytes = fs::read(&segment).unwrap();
    let at = bytes.len() as u64;
    bytes.extend_from_slice(
        format!(
            "{}\n",
            serde_json::json!({"intent": "volume", "volume": record})
        )
        .as_bytes(),
    );
    fs::write(&segment, &bytes).unwrap();
    (segment, at)
}

/// An intent edited behind plugctl's back (a volume id with `../`) is
/// refused as a record of the file would be, and the message says where
/// it is: in the journal, which segment and byte, not in the registry file
/// the user would look through in vain.
#[test]
fn a_tampered_intent_is_refused_naming_its_segment_and_byte() {
    let s = Rig::new();
    register_a1(&s, "a");
    let record = serde_json::json!({
        "id": "../../etc", "name": "x", "namespace": "default", "plugin": "mkdir",
        "node_id": "n1", "node_pool": "default", "capacity_min": 0, "capacity_max": 0,
        "parameters": {}, "path": "", "bytes": 0, "state": "pending",
        "created_at": "t", "updated_at": "t",
    });
    let (segment, end) = append_intent(&s, &record);
    let out = plugctl(&s).args(["volume", "list"]).fails_with(Exit::Usage);
    let err = stderr(&out);
    assert!(err.contains("not a UUID"), "{err}");
    assert!(
        err.contains(&format!("{} at byte {end}", segment.display())),
        "{err}"
    );
}

#[test]
fn a_reader_told_of_a_far_segment_reads_only_the_segments_that_exist() {
    // A follower opens the segments after its place by name. A registry
    // edited to end its journal at segment 2^60 must not make it open (or
    // count out) 2^60 names: it reads what exists and returns at once.
    use plugctl_core::registry::file::Files;
    use plugctl_core::registry::journal::{Pos, read_events};
    let s = Rig::new();
    register_a1(&s, "a");
    register_a1(&s, "b");
    let registry = s.registry.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut cursor = Pos {
            segment: 1,
            offset: 0,
        };
        let end = Pos {
            segment: 1 << 60,
            offset: 0,
        };
        let mut seen = Vec::new();
        let files = Files::open(plugctl_core::trust::Policy::insecure(), &registry)
            .unwrap()
            .unwrap();
        // Every segment counted as kept: what is held here is the span.
        let r = read_events(&files, &mut cursor, end, u64::MAX, 0, u64::MAX, |e| {
            seen.push(e.name);
            true
        });
        let _ = tx.send((r.is_ok(), seen));
    });
    let (ok, seen) = rx
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("the read returns");
    assert!(ok);
    assert_eq!(seen, ["a", "b"]);
}

#[test]
fn a_segment_whose_header_names_another_is_refused() {
    // A segment renamed, or copied in from another registry's journal: its
    // header still names the number it was written as.
    let s = Rig::new();
    register_a1(&s, "a");
    let (_, segment) = s.journal_segments().pop().unwrap();
    let text = fs::read_to_string(&segment).unwrap();
    let (header, rest) = text.split_once('\n').unwrap();
    assert!(header.contains("\"segment\":1"), "{header}");
    // Same length, so every offset the registry records still holds.
    let renamed = header.replace("\"segment\":1", "\"segment\":7");
    fs::write(&segment, format!("{renamed}\n{rest}")).unwrap();
    let out = plugctl(&s).args(["events"]).fails_with(Exit::Usage);
    let err = stderr(&out);
    assert!(
        err.contains("header names segment 7, not 1") && err.contains("journal.00000001"),
        "{err}"
    );
}

#[test]
fn an_intent_for_a_volume_in_other_case_is_refused_not_a_second_record() {
    // Ids are compared lower-cased: an intent naming an existing volume in
    // upper case would be that volume recorded twice.
    let s = Rig::new();
    let mut record = create_volume(&s, &["--plugin", "mkdir", "--name", "v"]);
    let id = id_of(&record);
    let upper = id.to_ascii_uppercase();
    record["id"] = Value::from(upper.as_str());
    append_intent(&s, &record);
    let out = plugctl(&s).args(["volume", "list"]).fails_with(Exit::Usage);
    let err = stderr(&out);
    assert!(
        err.contains("ids differ only in case") && err.contains(&id),
        "{err}"
    );
}

/// A lock file or a journal segment with a second name (a hard link, which
/// a user can make to a file of root's where `fs.protected_hardlinks` is
/// 0) is refused, and the file behind the other name is left as it was:
/// plugctl truncates, locks and appends to its own files.
#[test]
fn a_lock_file_or_segment_with_another_name_is_refused_and_that_file_untouched() {
    for planted in ["lock", "segment"] {
        let s = Rig::new();
        register_a1(&s, "a");
        let victim = s.out_file("victim");
        fs::write(&victim, "root's own data\n").unwrap();
        fs::set_permissions(&victim, fs::Permissions::from_mode(0o600)).unwrap();
        let name = match planted {
            "lock" => s.registry.with_extension("json.lock"),
            _ => s.journal_segments().pop().unwrap().1,
        };
        let _ = fs::remove_file(&name);
        fs::hard_link(&victim, &name).unwrap();
        plugctl(&s)
            .args(["fingerprint"])
            .fails_with(Exit::Usage)
            .stderr_has(&format!("{} has 2 names (hard links)", name.display()));
        assert_eq!(fs::read_to_string(&victim).unwrap(), "root's own data\n");
    }
}

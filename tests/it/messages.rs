//! Errors that point at the cause (docs/cli.md: each names the plugin, the
//! operation, the path and the cause), through the real binary: how much a failing plugin wrote on stderr and how to see it, no
//! volume id the user never saw, the fix for a capacity, `--locked`
//! refusals that say what to run, a dry run of a refused call, restore
//! rows that name their own volume, and what a long call is waiting for on
//! a terminal.

use std::fs;

use crate::common::*;

const MAKE: &str = r#"mkdir -p "$v" && printf '{"path": "%s", "bytes": 0}\n' "$v""#;

#[test]
fn a_failed_create_or_delete_says_how_much_it_wrote_on_stderr_and_how_to_see_it() {
    let s = Rig::new();
    // {"error"} on stdout, and a debugging trail on stderr.
    s.hv_script(
        "trail",
        r#"i=0; while [ $i -lt 20 ]; do echo "step $i of 20: probing the disk" >&2; i=$((i+1)); done; echo '{"error": "no space left"}'; exit 1"#,
        "exit 0",
    );
    let bytes: usize = (0..20)
        .map(|i| format!("step {i} of 20: probing the disk\n").len())
        .sum();
    plugctl(&s)
        .args(["volume", "create", "--plugin", "trail", "--name", "web"])
        .fails_with(Exit::Failure)
        .stderr_has(&format!(
            "no space left (it also wrote {bytes} bytes on stderr)\n  tip: -v shows its stderr\n"
        ));
    plugctl(&s)
        .args([
            "-v", "volume", "create", "--plugin", "trail", "--name", "web",
        ])
        .fails_with(Exit::Failure)
        .stderr_has("step 19 of 20: probing the disk");
    // Only stderr: its last line, and how much more there is.
    s.hv_script(
        "noisy",
        MAKE,
        r#"echo "removing $DHV_CREATED_PATH" >&2; echo "rm: Device or resource busy" >&2; exit 1"#,
    );
    let id = create_volume(&s, &["--plugin", "noisy", "--name", "busy"])["id"]
        .as_str()
        .unwrap()
        .to_string();
    plugctl(&s)
        .args(["volume", "delete", &id])
        .fails_with(Exit::Failure)
        .stderr_has("stderr: \"rm: Device or resource busy\" (the last line of ")
        .stderr_has(" bytes on stderr)\n  tip: -v shows all of its stderr\n");
    // One line, all there was: quoted, nothing more to say.
    s.hv_script("terse", r#"echo "disk full" >&2; exit 1"#, "exit 0");
    plugctl(&s)
        .args(["volume", "create", "--plugin", "terse", "--name", "t"])
        .fails_with(Exit::Failure)
        .stderr_has("stderr: \"disk full\"")
        .stderr_lacks("-v shows");
}

#[test]
fn a_failed_fingerprint_points_at_its_stderr_and_minus_v_shows_it() {
    let s = Rig::new();
    s.plugin(
        "host-volume",
        "trail",
        r#"echo "probing /dev/vdb" >&2; echo "no device" >&2; echo '{"error": "broken"}'; exit 3"#,
    );
    let how = "; `plugctl -v fingerprint --type=host-volume trail` shows them";
    let table = plugctl(&s)
        .args(["fingerprint"])
        .fails_with(Exit::Failure)
        .stderr_lacks("probing /dev/vdb")
        .stdout();
    assert!(
        table.contains(&format!("broken (it also wrote 27 bytes on stderr){how}")),
        "{table}"
    );
    // What it points at is there.
    plugctl(&s)
        .args(["-v", "fingerprint", "trail"])
        .fails_with(Exit::Failure)
        .stderr_has("host-volume plugin \"trail\": fingerprint: stderr:")
        .stderr_has("  | probing /dev/vdb\n")
        .stderr_has("  | no device\n");
    // Recorded as said: `plugin list` points at the same command, where
    // its own -v would show nothing.
    plugctl(&s)
        .args(["plugin", "list"])
        .succeeds()
        .stdout_has(how);
    // The command pointed at is one to paste, whatever the plugin's name.
    for (name, word) in [("-v", "-- -v"), ("my plugin", "'my plugin'")] {
        let body = format!(r#"echo "{name} says" >&2; echo more >&2; exit 3"#);
        s.plugin("host-volume", name, &body);
        let table = plugctl(&s)
            .args(["fingerprint"])
            .fails_with(Exit::Failure)
            .stdout();
        let said = format!("`plugctl -v fingerprint --type=host-volume {word}` shows them");
        assert!(table.contains(&said), "{said}\n{table}");
        let shown = if name == "-v" {
            vec!["-v", "fingerprint", "--type=host-volume", "--", "-v"]
        } else {
            vec!["-v", "fingerprint", "--type=host-volume", "my plugin"]
        };
        plugctl(&s)
            .args_from(shown.iter())
            .fails_with(Exit::Failure)
            .stderr_has(&format!("  | {name} says\n"));
        std::fs::remove_file(s.plugins.join("host-volume").join(name)).unwrap();
    }
    // A healthy plugin's stderr only with -vv.
    s.plugin(
        "host-volume",
        "chatty",
        r#"echo "warming up" >&2; echo '{"version": "1.0.0"}'"#,
    );
    plugctl(&s)
        .args(["-v", "fingerprint", "chatty"])
        .succeeds()
        .stderr_lacks("warming up");
    plugctl(&s)
        .args(["-vv", "fingerprint", "chatty"])
        .succeeds()
        .stderr_has("  | warming up");
}

/// A UUID as plugctl prints one.
fn has_uuid(text: &str) -> bool {
    text.as_bytes().windows(36).any(|w| {
        w.iter().enumerate().all(|(i, &b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
    })
}

#[test]
fn a_refused_request_names_no_id_the_user_never_saw_and_says_the_fix() {
    let s = Rig::new();
    let refusals: [&[&str]; 4] = [
        &["volume", "create", "--plugin", "nope", "--name", "web"],
        &["volume", "create", "--plugin", "mkdir", "--name", ""],
        &[
            "volume",
            "create",
            "--plugin",
            "mkdir",
            "--name",
            "web",
            "--capacity-min",
            "10MB",
        ],
        &["volume", "create", "--plugin", "mkdir", "--name", "taken"],
    ];
    plugctl(&s)
        .args(["volume", "create", "--plugin", "mkdir", "--name", "taken"])
        .succeeds();
    for args in refusals {
        let first = plugctl(&s).args_from(args.iter()).fails();
        let again = plugctl(&s).args_from(args.iter()).any_exit();
        let (one, two) = (first.stderr(), again.stderr());
        // A retry reads the same: no new id each time.
        assert_eq!(one, two, "{args:?}");
        if args[5] != "taken" {
            assert!(!has_uuid(&one), "{args:?}: {one}");
        }
    }
    plugctl(&s)
        .args(["volume", "create", "--plugin", "mkdir", "--name", "web", "--capacity-min", "10MB"])
        .fails_with(Exit::Usage)
        .stderr_has("capacity_max (0) must be larger than capacity_min (10000000); pass --capacity-max ≥ --capacity-min")
        .stderr_has("cannot create volume \"web\" (namespace default)");
    // The one id named is the volume that holds the name, which `volume
    // list` shows.
    let ran = plugctl(&s)
        .args(["volume", "create", "--plugin", "mkdir", "--name", "taken"])
        .fails_with(Exit::Usage);
    let holder = id_of(&list_volumes(&s)[0]);
    assert!(
        ran.stderr().contains(&format!("--id {holder}")),
        "{}",
        ran.stderr()
    );
    // An id the user gave is theirs: named.
    let id = "0b1c2d3e-4f50-4617-8899-aabbccddeeff";
    plugctl(&s)
        .args([
            "volume", "create", "--plugin", "nope", "--name", "x", "--id", id,
        ])
        .fails_with(Exit::NotFound)
        .stderr_has(id);
}

#[test]
fn locked_refusals_say_refused_to_run_both_hashes_and_the_pin_command() {
    let s = Rig::new();
    s.hv_script("disk", MAKE, "exit 0");
    plugctl(&s).args(["pin"]).succeeds();
    let lock = fs::read_to_string(s.plugins.join("plugctl.lock")).unwrap();
    let pinned: serde_json::Value = serde_json::from_str(&lock).unwrap();
    let old = pinned["plugins"][0]["sha256"].as_str().unwrap().to_string();
    s.hv_script("disk", MAKE, "echo changed; exit 0");
    let new = {
        use sha2::Digest;
        let bytes = fs::read(s.plugins.join("host-volume/disk")).unwrap();
        let digest = sha2::Sha256::digest(&bytes);
        digest
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    for args in [
        vec![
            "--locked", "volume", "create", "--plugin", "disk", "--name", "v",
        ],
        vec!["--locked", "fingerprint", "disk"],
    ] {
        let ran = plugctl(&s).args_from(&args).fails();
        let text = format!("{}{}", ran.stdout(), ran.stderr());
        assert!(text.contains("refused to run"), "{args:?}: {text}");
        assert!(!text.contains("could not start"), "{args:?}: {text}");
        assert!(
            text.contains(&new[..12]) && text.contains(&old[..12]),
            "{text}"
        );
        assert!(
            text.contains("`plugctl pin --type host-volume disk`"),
            "{text}"
        );
    }
}

#[test]
fn a_dry_run_shows_the_call_the_real_run_would_refuse() {
    let s = Rig::new();
    s.hv_script("flaky", MAKE, "exit 0");
    plugctl(&s).args(["fingerprint"]).succeeds();
    s.plugin("host-volume", "flaky", "echo not json");
    plugctl(&s).args(["fingerprint"]).fails_with(Exit::Failure);
    // The real call: refused.
    plugctl(&s)
        .args(["volume", "create", "--plugin", "flaky", "--name", "v"])
        .fails_with(Exit::Usage)
        .stderr_has("its last fingerprint failed");
    // The dry run: the call, and that it would be refused.
    plugctl(&s)
        .args(["volume", "create", "--plugin", "flaky", "--name", "v", "--dry-run"])
        .succeeds()
        .stdout_has("DHV_OPERATION=create")
        .stderr_has("plugctl: warning: the real call would be refused: host-volume plugin \"flaky\" is unavailable for create");
    let doc = plugctl(&s)
        .args([
            "--json",
            "volume",
            "create",
            "--plugin",
            "flaky",
            "--name",
            "v",
            "--dry-run",
        ])
        .succeeds()
        .json();
    assert_eq!(doc["calls"][0]["operation"], "create", "{doc}");
    assert!(
        doc["refused"]
            .as_str()
            .unwrap()
            .contains("its last fingerprint failed"),
        "{doc}"
    );
    // Nothing ran, nothing recorded.
    assert!(list_volumes(&s).is_empty());
}

#[test]
fn restore_rows_name_their_own_volume() {
    let s = Rig::new();
    s.hv_script("gone", MAKE, "exit 0");
    let mut ids = Vec::new();
    for name in ["first", "second", "third"] {
        let vol = create_volume(&s, &["--plugin", "gone", "--name", name]);
        ids.push((name, id_of(&vol)));
    }
    fs::remove_file(s.plugins.join("host-volume/gone")).unwrap();
    // Full ids with -v (a table shows their first 8 characters).
    let out = plugctl(&s)
        .args(["-v", "volume", "restore"])
        .fails_with(Exit::Failure)
        .stdout();
    for (name, id) in &ids {
        let row = out
            .lines()
            .find(|l| l.starts_with(id.as_str()))
            .unwrap_or_else(|| panic!("no row for {id}:\n{out}"));
        assert!(
            row.contains(&format!("volume {id} (\"{name}\", namespace default)")),
            "{row}"
        );
        for (other, other_id) in &ids {
            if other != name {
                assert!(!row.contains(other_id.as_str()), "{row}");
            }
        }
    }
}

/// plugctl with stderr on a terminal; what the terminal showed, with the
/// carriage returns.
fn on_a_terminal(s: &Rig, args: &str) -> Option<String> {
    // Wide enough that no progress line is cut to fit (tables.rs holds
    // the cut on an 80-column terminal).
    Some(
        plugctl_on_a_terminal_of(s, 400, &format!("{args} >/dev/null"))?
            .any_exit()
            .stdout(),
    )
}

#[test]
fn on_a_terminal_progress_names_what_it_still_waits_for() {
    let s = Rig::new();
    for n in ["a", "b", "c"] {
        s.hv_ok(n, "1.0.0");
    }
    s.plugin(
        "host-volume",
        "hang",
        r#"/bin/sleep 2.5; echo '{"version": "1.0.0"}'"#,
    );
    let Some(screen) = on_a_terminal(&s, "fingerprint --type host-volume") else {
        return;
    };
    // Counted as they end: the quick ones are done while hang still runs.
    assert!(
        screen.contains("fingerprinting: 4/5 done, waiting for host-volume/hang, 1 s")
            || screen.contains("fingerprinting: 4/5 done, waiting for host-volume/hang, 2 s"),
        "{screen:?}"
    );
    // A long create shows what it runs.
    s.hv_script("slowmake", &format!("/bin/sleep 2; {MAKE}"), "exit 0");
    let Some(screen) = on_a_terminal(&s, "volume create --plugin slowmake --name web") else {
        return;
    };
    let hv = s.plugins.join("host-volume/slowmake");
    assert!(
        screen.contains(&format!(
            "volume create: running {} create for volume ",
            hv.display()
        )) && screen.contains("(\"web\", namespace default), 1 s"),
        "{screen:?}"
    );
    // Off a terminal: none of it.
    plugctl(&s)
        .args(["fingerprint", "--type", "host-volume"])
        .fails_with(Exit::Failure)
        .stderr_lacks("waiting for");
}

//! A fresh-eyes attack on issue #34 ("safe to consume, safe to run"),
//! through the real binary: each test here is an attack that found a way
//! through, or a cheap one that found none and is not held elsewhere.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use serde_json::Value;

use crate::common::*;

/// The environment `env -0` wrote to `file`, as a map.
fn env0(file: &Path) -> BTreeMap<String, String> {
    fs::read(file)
        .unwrap()
        .split(|&b| b == 0)
        .filter(|e| !e.is_empty())
        .map(|e| {
            let e = String::from_utf8_lossy(e);
            let (k, v) = e.split_once('=').unwrap();
            (k.to_string(), v.to_string())
        })
        .collect()
}

/// fish reads `\\` and `\'` as escapes inside single quotes: a value
/// ending in a backslash used to carry fish's string past its closing
/// quote, over the next line, so that the next key's value ran as fish
/// code when the output was sourced (`plugctl secret fetch ... --format
/// env | source`).
#[test]
fn env_output_sourced_by_fish_runs_nothing() {
    if !tool_available("fish", "env output sourced by fish") {
        return;
    }
    let s = Rig::new();
    let canary = s.out_file("canary");
    let c = canary.display();
    let attack: Vec<(&str, String)> = vec![
        ("A", "x\\".into()),
        ("B", format!("; /usr/bin/touch {c}; echo ")),
        ("Z", "x\\".into()),
    ];
    let odd: Vec<(&str, String)> = vec![
        ("C", format!("\\'; /usr/bin/touch {c}; echo \\'")),
        ("D", format!("$(/usr/bin/touch {c}) (/usr/bin/touch {c})")),
        ("E", "it's \\\\ 'quoted' \"twice\" \\".into()),
        ("F", "\\".into()),
    ];
    for values in [attack, odd] {
        store_answering(&s, "p", &values);
        expect::Run::new(s.command("fish"), "fish")
            .args(["--no-config", "-c"])
            .arg(
                "/usr/bin/env -0 > $OUT/before\n\
                 $PLUGCTL secret fetch p x --format env | source\n\
                 /usr/bin/env -0 > $OUT/after",
            )
            .env("OUT", &s.out)
            .env("PLUGCTL", PLUGCTL)
            .succeeds();
        assert!(!canary.exists(), "a value ran as fish code");
        let before = env0(&s.out_file("before"));
        let gained: BTreeMap<String, String> = env0(&s.out_file("after"))
            .into_iter()
            .filter(|(k, v)| before.get(k) != Some(v))
            .collect();
        let want: BTreeMap<String, String> = values
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        assert_eq!(gained, want, "fish read other values than the store's");
    }
}

/// fish's own hooks: `fish_user_paths` goes before `PATH`,
/// `fish_function_path` says where functions (every command a fish
/// script calls by a name it does not find on PATH, and fish's own
/// prompt) are loaded from.
#[test]
fn fish_variables_that_change_what_fish_runs_are_refused() {
    let s = Rig::new();
    let keys = [
        "fish_user_paths",
        "fish_function_path",
        "FISH_COMPLETE_PATH",
    ];
    store_answering(
        &s,
        "p",
        &keys
            .iter()
            .map(|k| (*k, "/tmp".to_string()))
            .collect::<Vec<_>>(),
    );
    for format in ["env", "kv"] {
        let run = plugctl(&s)
            .args(["secret", "fetch", "p", "x", "--format", format])
            .fails_with(Exit::Failure)
            .stdout_empty();
        let err = run.stderr();
        for k in keys {
            assert!(
                err.contains(&format!("{k:?} would change")),
                "{format}: {err}"
            );
        }
    }
}

/// A create's answer that names a directory another volume already holds
/// (the same directory, one inside it, or one it lies inside) would make
/// two ready volumes share data: deleting one removes the other's. It is
/// the plugin's failure, as a path outside the volumes directory is.
#[test]
fn a_create_that_answers_another_volumes_directory_is_the_plugins_failure() {
    let s = Rig::new();
    let answer = s.out_file("answer");
    // Answers the path the file names; delete removes whatever path it
    // is given.
    s.hv_script(
        "fickle",
        &format!(
            r#"p=$(cat '{a}'); mkdir -p "$p"; printf '{{"path": "%s"}}' "$p""#,
            a = answer.display()
        ),
        r#"[ -n "$DHV_CREATED_PATH" ] && rm -rf "$DHV_CREATED_PATH"; exit 0"#,
    );
    let nest = s.volumes.join("nest");
    let held = nest.join("deep");
    fs::write(&answer, held.display().to_string()).unwrap();
    create_volume(&s, &["--plugin", "fickle", "--name", "first"]);
    fs::write(held.join("data"), "first's").unwrap();
    for (name, path) in [
        ("same", held.clone()),
        ("inside", held.join("sub")),
        ("around", nest.clone()),
    ] {
        fs::write(&answer, path.display().to_string()).unwrap();
        let err = plugctl(&s)
            .args(["volume", "create", "--plugin", "fickle", "--name", name])
            .fails_with(Exit::Failure)
            .stderr();
        assert!(
            err.contains("another volume") && err.contains("\"first\""),
            "{name}: {err}"
        );
        let v = list_volumes(&s)
            .into_iter()
            .find(|v| v["name"] == name)
            .unwrap();
        assert_eq!(v["state"], "pending", "{name}: {v}");
        assert_eq!(v["path"], "", "{name}: {v}");
        // repair's create gets the same answer, and judges it the same
        // way: the volume stays pending, and the first keeps its data.
        plugctl(&s)
            .args(["volume", "repair"])
            .fails_with(Exit::Failure)
            .stdout_has("another volume");
        assert_eq!(
            fs::read_to_string(held.join("data")).unwrap(),
            "first's",
            "{name}"
        );
    }
    // A directory beside it is no one else's.
    fs::write(&answer, nest.join("beside").display().to_string()).unwrap();
    create_volume(&s, &["--plugin", "fickle", "--name", "beside"]);
}

/// JSON escapes only C0 controls, quotes and backslashes: a value with a
/// C1 control (U+009B is CSI to a terminal that takes 8-bit controls), DEL
/// or a bidirectional override went to a terminal as it was, reordering or
/// driving what the operator saw. On a terminal those are written as JSON
/// `\uXXXX` escapes, which read back as the same string.
#[test]
fn json_on_a_terminal_escapes_what_would_drive_or_reorder_it() {
    let s = Rig::new();
    let value = "a\u{9b}31mb\u{7f}c\u{202e}d\u{200b}e\u{2066}f";
    store_answering(&s, "p", &[("TOKEN", value.to_string())]);
    for args in [
        "secret fetch p x --format json",
        "--json secret fetch p x",
        "--json events",
    ] {
        let Some(run) = plugctl_on_a_terminal(&s, args) else {
            return;
        };
        let shown = run.succeeds().stdout();
        for c in ['\u{9b}', '\u{7f}', '\u{202e}', '\u{200b}', '\u{2066}'] {
            assert!(
                !shown.contains(c),
                "{args}: {c:?} reached the terminal: {shown:?}"
            );
        }
        if args.contains("secret") {
            let doc: Value = serde_json::from_str(&shown.replace("\r\n", "\n")).unwrap();
            assert_eq!(doc["result"]["TOKEN"], value, "{args}");
        }
    }
    // A pipe gets the bytes as they are.
    let piped = plugctl(&s)
        .args(["secret", "fetch", "p", "x", "--format", "json"])
        .succeeds()
        .stdout();
    assert!(piped.contains(value), "{piped:?}");
}

/// An empty element of `PATH` (`PATH=`, a leading or trailing `:`, `::`)
/// is the working directory to `env` and to a shell: a plugin run from a
/// directory another user owns, with such a `PATH`, would run their `sh`
/// as root for `#!/usr/bin/env sh`. Refused before the plugin starts, in
/// any case of the name.
#[test]
fn an_empty_path_element_never_runs_the_working_directorys_program() {
    let Some(intruder) = intruder() else {
        return;
    };
    let s = Rig::new();
    s.file(
        "secrets",
        "viaenv",
        "#!/usr/bin/env sh\n\
         [ \"$1\" = fingerprint ] && echo '{\"type\": \"secrets\", \"version\": \"1.0.0\"}' && exit 0\n\
         echo '{\"result\": {\"A\": \"b\"}}'\n",
        0o755,
    );
    let theirs = s.root().join("theirs");
    make_dir(&theirs);
    intruder.own(&theirs);
    let canary = s.out_file("canary");
    intruder.sh(
        &s,
        &format!(
            "printf '#!/bin/sh\\n: > {c}\\nexec /bin/sh \"$@\"\\n' > {d}/sh && chmod 755 {d}/sh",
            c = canary.display(),
            d = theirs.display()
        ),
    );
    for path in [
        "PATH=",
        "PATH=:/usr/bin:/bin",
        "PATH=/usr/bin:/bin:",
        "PATH=/usr/bin::/bin",
        "path=",
    ] {
        plugctl(&s)
            .current_dir(&theirs)
            .args(["secret", "fetch", "viaenv", "x", "--env", path])
            .fails_with(Exit::Failure)
            .stdout_empty()
            .stderr_has("an empty element: the plugin's working directory");
        assert!(!canary.exists(), "{path}: their sh ran as root");
    }
    // Without the empty element, root's own sh runs (from a directory of
    // root's: their directory is refused as the working directory of any
    // call, `working_dir::*`).
    plugctl(&s)
        .args([
            "secret",
            "fetch",
            "viaenv",
            "x",
            "--env",
            "PATH=/usr/bin:/bin",
        ])
        .succeeds()
        .stdout_has("A=b");
}

/// The events table says every string of an event's details in plugctl's
/// one escape style: a registration's options come from a task, and a
/// value with an escape byte and a bidirectional override showed JSON's
/// `\u001b` beside plugctl's `\u{202e}` in one cell.
#[test]
fn the_events_table_escapes_details_in_one_style() {
    let s = Rig::new();
    plugctl(&s)
        .args([
            "plugin",
            "register",
            "--type",
            "csi-node",
            "--name",
            "p",
            "--alloc-id",
            "a1",
            "--socket",
            "/run/p.sock",
            "--option",
            "k=x\u{1b}[31m \u{202e}y\\z",
        ])
        .succeeds();
    let shown = plugctl(&s).args(["events"]).succeeds().stdout();
    let line = shown
        .lines()
        .find(|l| l.contains("register"))
        .unwrap_or_else(|| panic!("no register event: {shown}"));
    assert!(
        line.contains(r#""k": "x\u{1b}[31m \u{202e}y\\z""#),
        "{line}"
    );
    assert!(!line.contains(r"\u001b"), "JSON's escape style: {line}");
}

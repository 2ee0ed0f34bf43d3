//! Round 13 of the fresh-eyes attack on issue #34, on what plugctl keeps
//! (the registry, its journal, the volumes it records) and what a plugin's
//! answer can do to it. It found no new way through; this file holds what
//! one of its probes showed no test held: another volume's directory is
//! refused under every spelling a path can give it, since two volumes'
//! paths are compared part by part, not as strings.

use std::fs;

use crate::common::*;

/// A create whose answer names another volume's directory with an empty
/// part (`//`), a `.` part or a trailing slash is the plugin's failure, as
/// the same directory spelled plainly is: compared as strings, each would
/// have been a directory of its own, and two ready volumes would share the
/// data one delete removes. The volume's own directory spelled that way is
/// still its own.
#[test]
fn another_volumes_directory_under_any_spelling_is_the_plugins_failure() {
    let s = Rig::new();
    let answer = s.out_file("answer");
    // Answers the path the file names (its own directory when the file is
    // empty); delete removes whatever path it is given.
    s.hv_script(
        "speller",
        &format!(
            r#"p=$(cat '{a}'); [ -n "$p" ] || p="$v/."; mkdir -p "$v" "$p"; printf '{{"path": "%s"}}' "$p""#,
            a = answer.display()
        ),
        r#"[ -n "$DHV_CREATED_PATH" ] && rm -rf "$DHV_CREATED_PATH"; exit 0"#,
    );
    let held = s.volumes.join("shared");
    fs::write(&answer, held.display().to_string()).unwrap();
    create_volume(&s, &["--plugin", "speller", "--name", "first"]);
    fs::write(held.join("data"), "first's").unwrap();

    let dir = s.volumes.display().to_string();
    for (case, path) in [
        ("empty part", format!("{dir}//shared")),
        ("dot part", format!("{dir}/./shared")),
        ("trailing slash", format!("{dir}/shared/")),
        ("trailing dot", format!("{dir}/shared/.")),
        ("inside, empty part", format!("{dir}/shared//sub")),
    ] {
        fs::write(&answer, &path).unwrap();
        let name = case.replace([' ', ','], "-");
        let err = plugctl(&s)
            .args(["volume", "create", "--plugin", "speller", "--name", &name])
            .fails_with(Exit::Failure)
            .stderr();
        assert!(
            err.contains("another volume") && err.contains("\"first\""),
            "{case} ({path}): {err}"
        );
        let v = list_volumes(&s)
            .into_iter()
            .find(|v| v["name"] == name.as_str())
            .unwrap();
        assert_eq!(v["state"], "pending", "{case}: {v}");
        assert_eq!(v["path"], "", "{case}: {v}");
    }
    assert_eq!(fs::read_to_string(held.join("data")).unwrap(), "first's");

    // Its own directory, spelled `<id>/.`, is its own.
    fs::write(&answer, "").unwrap();
    let v = create_volume(&s, &["--plugin", "speller", "--name", "own"]);
    assert_eq!(v["state"], "ready", "{v}");
}

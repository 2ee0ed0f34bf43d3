//! A create's path that reaches a directory through a symbolic link inside
//! the volumes directory: two volumes' paths are compared as written, so
//! such a path could name another volume's directory under another
//! spelling. It is the plugin's failure, as a path outside is.

use std::fs;

use crate::common::*;

/// Answers the path the file `answer` names; before that, makes a symbolic
/// link at the path the file `link` names (if any), to the name in the
/// file `target`. Delete removes whatever path it is given.
fn linking_plugin(s: &Rig) -> (std::path::PathBuf, std::path::PathBuf) {
    let answer = s.out_file("answer");
    let link = s.out_file("link");
    s.hv_script(
        "linker",
        &format!(
            r#"p=$(cat '{a}'); if [ -s '{l}' ]; then ln -s "$(cut -d' ' -f2 '{l}')" "$(cut -d' ' -f1 '{l}')"; else mkdir -p "$p"; fi; printf '{{"path": "%s"}}' "$p""#,
            a = answer.display(),
            l = link.display()
        ),
        r#"[ -n "$DHV_CREATED_PATH" ] && rm -rf "$DHV_CREATED_PATH"; exit 0"#,
    );
    (answer, link)
}

#[test]
fn a_second_spelling_of_another_volumes_directory_is_the_plugins_failure() {
    let s = Rig::new();
    let (answer, link) = linking_plugin(&s);
    let first = s.volumes.join("first");
    fs::write(&answer, first.display().to_string()).unwrap();
    create_volume(&s, &["--plugin", "linker", "--name", "first"]);
    fs::write(first.join("data"), "first's").unwrap();

    // The second answers a link to the first's directory.
    let alias = s.volumes.join("alias");
    fs::write(&link, format!("{} first", alias.display())).unwrap();
    fs::write(&answer, alias.display().to_string()).unwrap();
    plugctl(&s)
        .args(["volume", "create", "--plugin", "linker", "--name", "second"])
        .fails_with(Exit::Failure)
        .stderr_has(&format!(
            "leads through a symbolic link to {}",
            first.display()
        ));
    let v = list_volumes(&s)
        .into_iter()
        .find(|v| v["name"] == "second")
        .unwrap();
    assert_eq!(v["state"], "pending", "{v}");
    assert_eq!(v["path"], "", "{v}");
    // The repair runs the plugin again (it answers the link again), and
    // nothing it runs removes the first's data.
    plugctl(&s).args(["volume", "repair"]).output();
    assert_eq!(fs::read_to_string(first.join("data")).unwrap(), "first's");
    assert!(
        list_volumes(&s)
            .into_iter()
            .all(|v| v["name"] != "second" || v["state"] != "ready"),
        "the second is ready after its repair"
    );
}

#[test]
fn a_volume_whose_path_is_a_link_is_refused_before_another_takes_its_directory() {
    let s = Rig::new();
    let (answer, link) = linking_plugin(&s);
    // The first answers a link to a directory no volume has yet...
    fs::create_dir_all(s.volumes.join("real")).unwrap();
    let alias = s.volumes.join("alias");
    fs::write(&link, format!("{} real", alias.display())).unwrap();
    fs::write(&answer, alias.display().to_string()).unwrap();
    plugctl(&s)
        .args(["volume", "create", "--plugin", "linker", "--name", "first"])
        .fails_with(Exit::Failure)
        .stderr_has("leads through a symbolic link to");
    // ...so that the second, answering that directory, takes it alone.
    fs::write(&link, "").unwrap();
    fs::write(&answer, s.volumes.join("real").display().to_string()).unwrap();
    create_volume(&s, &["--plugin", "linker", "--name", "second"]);
    let ready: Vec<_> = list_volumes(&s)
        .into_iter()
        .filter(|v| v["state"] == "ready")
        .collect();
    assert_eq!(ready.len(), 1, "{ready:?}");
}

/// A volumes directory named through a symbolic link is the same
/// directory: a path written under that name is its own directory.
#[test]
fn a_volumes_directory_named_through_a_link_is_no_link_inside() {
    let s = Rig::new();
    let (answer, _) = linking_plugin(&s);
    let named = s.out.join("vols-link");
    fs::create_dir_all(&s.volumes).unwrap();
    std::os::unix::fs::symlink(&s.volumes, &named).unwrap();
    fs::write(&answer, named.join("v").display().to_string()).unwrap();
    plugctl(&s)
        .args(["--volumes-dir"])
        .arg(&named)
        .args(["volume", "create", "--plugin", "linker", "--name", "v"])
        .succeeds();
}

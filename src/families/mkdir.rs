//! The built-in host-volume plugin `mkdir` (protocol 4.4), run in-process.
//!
//! Create makes `<volumes_dir>/<volume_id>`: if anything already exists
//! there it succeeds with that path and re-applies nothing (as Nomad does);
//! otherwise it accepts only the parameters `mode` (octal, default `0700`),
//! `uid` and `gid` (decimal), makes the directory, chmods it explicitly (so
//! the umask cannot win), chowns it, and removes it again when the chown
//! fails. Delete removes `<volumes_dir>/<volume_id>` recursively and
//! succeeds when it is already gone.
//!
//! That is the newest release's `mkdir`; an older release's lacks the chmod
//! (the umask takes bits off the mode) or the removal, as its
//! [`MkdirBehaviour`] says ([`crate::nomad`] has the rows).
//!
//! Paths come from `volumes_dir` and the volume id only (the id is checked to
//! be a UUID here too), never from the name. Errors are
//! [`PluginFailure::Builtin`] with a message naming what was wrong.

use std::collections::BTreeMap;
use std::fs::{self, DirBuilder, File, OpenOptions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::host_volume::{Created, Request, is_volume_id};
use crate::error::PluginFailure;
pub use crate::nomad::MkdirBehaviour;
use crate::nomad::{Change, Profile};

/// The plugin's name, which no file can shadow.
pub const NAME: &str = "mkdir";
/// The version Nomad reports for it.
pub const VERSION: &str = "0.0.1";
/// The mode of a new volume directory when `mode` is not given.
pub const DEFAULT_MODE: u32 = 0o700;
/// The parameters `mkdir` accepts.
pub const PARAMETERS: &[&str] = &["mode", "uid", "gid"];
/// The mode of the volumes directory when `mkdir` has to make it.
pub const VOLUMES_DIR_MODE: u32 = 0o755;

/// `mkdir`'s parameters, parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Params {
    /// Permission bits, at most `0o777`.
    pub mode: u32,
    /// Owner to set; `None` leaves it as created.
    pub uid: Option<u32>,
    /// Group to set; `None` leaves it as created.
    pub gid: Option<u32>,
}

fn fail(message: impl Into<String>) -> PluginFailure {
    PluginFailure::Builtin(message.into())
}

/// Parses `mode`, `uid` and `gid`; any other key is an error naming it.
///
/// `mode` is octal digits (`0755`, `755`, `0700`), at most `0777`: Nomad
/// would silently drop setuid, setgid and sticky bits written this way, so
/// plugctl refuses them. `uid` and `gid` are decimal, `0` to `4294967294`
/// (`4294967295` is chown's "unchanged").
pub fn parse_parameters(params: &BTreeMap<String, String>) -> Result<Params, PluginFailure> {
    let unknown: Vec<String> = params
        .keys()
        .filter(|k| !PARAMETERS.contains(&k.as_str()))
        .map(|k| format!("{k:?}"))
        .collect();
    if !unknown.is_empty() {
        return Err(fail(format!(
            "unknown parameter{} {} (mkdir accepts mode, uid and gid)",
            if unknown.len() == 1 { "" } else { "s" },
            unknown.join(", ")
        )));
    }
    let mode = match params.get("mode") {
        None => DEFAULT_MODE,
        Some(m) => parse_mode(m)?,
    };
    Ok(Params {
        mode,
        uid: params.get("uid").map(|v| parse_id("uid", v)).transpose()?,
        gid: params.get("gid").map(|v| parse_id("gid", v)).transpose()?,
    })
}

fn parse_mode(text: &str) -> Result<u32, PluginFailure> {
    let bad = |why: &str| {
        fail(format!(
            "parameter \"mode\": {text:?} {why} (expected an octal mode such as 0755 or 755)"
        ))
    };
    if text.is_empty() || !text.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        return Err(bad("is not octal"));
    }
    match u32::from_str_radix(text, 8) {
        Ok(m) if m <= 0o777 => Ok(m),
        _ => Err(bad(
            "is more than 0777 (setuid, setgid and sticky bits are not supported)",
        )),
    }
}

fn parse_id(key: &str, text: &str) -> Result<u32, PluginFailure> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(fail(format!(
            "parameter {key:?}: {text:?} is not a decimal {} id",
            if key == "uid" { "user" } else { "group" }
        )));
    }
    match text.parse::<u32>() {
        Ok(n) if n != u32::MAX => Ok(n),
        _ => Err(fail(format!(
            "parameter {key:?}: {text:?} is out of range (0 to {})",
            u32::MAX - 1
        ))),
    }
}

/// `<volumes_dir>/<id>`, the only path `mkdir` touches. Refuses an id that is
/// not a volume id, and a volumes directory that is relative or not UTF-8.
pub fn target(req: &Request) -> Result<PathBuf, PluginFailure> {
    if !is_volume_id(&req.id) {
        return Err(fail(format!(
            "volume id {:?} is not a lowercase UUID; refusing to build a path from it",
            req.id
        )));
    }
    if !req.volumes_dir.is_absolute() || req.volumes_dir.to_str().is_none() {
        return Err(fail(format!(
            "volumes directory {:?} must be an absolute UTF-8 path",
            req.volumes_dir
        )));
    }
    Ok(req.volumes_dir.join(&req.id))
}

fn created(path: &Path) -> Created {
    Created {
        // target() checked that the path is UTF-8.
        path: path.to_string_lossy().into_owned(),
        bytes: 0,
    }
}

fn io_fail(what: &str, path: &Path, e: &io::Error) -> PluginFailure {
    fail(format!("cannot {what} {}: {e}", path.display()))
}

/// Create, as protocol 4.4 says: see the module documentation. Returns the
/// directory's path and `bytes: 0`.
pub fn create(req: &Request) -> Result<Created, PluginFailure> {
    create_as(req, MkdirBehaviour::NEWEST)
}

/// Create as a given release's `mkdir` does it.
pub fn create_as(req: &Request, behaviour: MkdirBehaviour) -> Result<Created, PluginFailure> {
    create_with(req, behaviour, &|dir, uid, gid| {
        std::os::unix::fs::fchown(dir, uid, gid)
    })
}

/// How the owner is set; replaced in tests to make it fail.
type Chown<'a> = &'a dyn Fn(&File, Option<u32>, Option<u32>) -> io::Result<()>;

fn create_with(
    req: &Request,
    behaviour: MkdirBehaviour,
    chown: Chown<'_>,
) -> Result<Created, PluginFailure> {
    let path = target(req)?;
    // Anything at all there (a directory, a file, even a dangling symlink)
    // means the volume exists: success, nothing re-applied.
    match fs::symlink_metadata(&path) {
        Ok(_) => return Ok(created(&path)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_fail("inspect", &path, &e)),
    }
    let params = parse_parameters(&req.parameters)?;
    DirBuilder::new()
        .recursive(true)
        .mode(VOLUMES_DIR_MODE)
        .create(&req.volumes_dir)
        .map_err(|e| io_fail("create the volumes directory", &req.volumes_dir, &e))?;
    // With the chmod: made owner-only first, the requested mode set once it
    // is ours. Without it (an older release): made with the mode, which the
    // umask takes bits off, as mkdir(2) does.
    let first_mode = if behaviour.chmod { 0o700 } else { params.mode };
    match DirBuilder::new().mode(first_mode).create(&path) {
        Ok(()) => {}
        // A concurrent create of the same volume won: the same as existing.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return Ok(created(&path)),
        Err(e) => return Err(io_fail("create", &path, &e)),
    }
    let finish = || -> Result<(), PluginFailure> {
        // Through a descriptor opened without following symlinks, so a path
        // swapped meanwhile cannot redirect the chmod or the chown.
        let dir = OpenOptions::new()
            .read(true)
            .custom_flags(nix::libc::O_DIRECTORY | nix::libc::O_NOFOLLOW)
            .open(&path)
            .map_err(|e| io_fail("open", &path, &e))?;
        if behaviour.chmod {
            dir.set_permissions(fs::Permissions::from_mode(params.mode))
                .map_err(|e| io_fail(&format!("chmod {:04o}", params.mode), &path, &e))?;
        }
        if params.uid.is_some() || params.gid.is_some() {
            chown(&dir, params.uid, params.gid).map_err(|e| {
                let who = [("uid", params.uid), ("gid", params.gid)]
                    .iter()
                    .filter_map(|(k, v)| v.map(|v| format!("{k} {v}")))
                    .collect::<Vec<_>>()
                    .join(", ");
                io_fail(&format!("chown ({who})"), &path, &e)
            })?;
        }
        Ok(())
    };
    if let Err(failure) = finish() {
        let what = if behaviour.cleanup_on_chown_failure {
            let _ = fs::remove_dir(&path);
            "the directory was removed again".to_string()
        } else {
            format!(
                "the directory is left behind, as this Nomad release leaves it (removed from {})",
                Profile::row(Change::MkdirCleanupOnChownFailure).since_text()
            )
        };
        return Err(match failure {
            PluginFailure::Builtin(m) => fail(format!("{m}; {what}")),
            other => other,
        });
    }
    Ok(created(&path))
}

/// Delete, as protocol 4.4 says: removes `<volumes_dir>/<volume_id>`
/// recursively (a symlink there is removed itself, never followed); success
/// when nothing is there.
pub fn delete(req: &Request) -> Result<(), PluginFailure> {
    let path = target(req)?;
    let removed = match fs::symlink_metadata(&path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io_fail("inspect", &path, &e)),
        Ok(meta) if meta.is_dir() => fs::remove_dir_all(&path),
        Ok(_) => fs::remove_file(&path),
    };
    match removed {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(io_fail("remove", &path, &e)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    fn request(dir: &Path, params: &[(&str, &str)]) -> Request {
        Request {
            volumes_dir: dir.join("vols"),
            plugin_dir: dir.join("plugins"),
            node_pool: "default".into(),
            namespace: "default".into(),
            name: "../x".into(),
            id: "7d5c1f0e-3b6a-4c2d-8e9f-0a1b2c3d4e5f".into(),
            capacity_min: 0,
            capacity_max: 0,
            node_id: "n".into(),
            parameters: params
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    fn mode_of(p: &Path) -> u32 {
        fs::metadata(p).unwrap().permissions().mode() & 0o7777
    }

    #[test]
    fn parameters() {
        let p =
            |pairs: &[(&str, &str)]| parse_parameters(&request(Path::new("/"), pairs).parameters);
        assert_eq!(
            p(&[]).unwrap(),
            Params {
                mode: 0o700,
                uid: None,
                gid: None
            }
        );
        assert_eq!(p(&[("mode", "0755")]).unwrap().mode, 0o755);
        assert_eq!(p(&[("mode", "755")]).unwrap().mode, 0o755);
        assert_eq!(p(&[("mode", "0")]).unwrap().mode, 0);
        assert_eq!(
            p(&[("uid", "0"), ("gid", "12345")]).unwrap().gid,
            Some(12345)
        );
        for (k, v, needle) in [
            ("mode", "", "not octal"),
            ("mode", "0o755", "not octal"),
            ("mode", "0789", "not octal"),
            ("mode", "-755", "not octal"),
            ("mode", "4755", "more than 0777"),
            ("uid", "abc", "not a decimal user id"),
            ("uid", "-1", "not a decimal user id"),
            ("uid", " 5", "not a decimal user id"),
            ("gid", "1.5", "not a decimal group id"),
            ("uid", "4294967295", "out of range"),
            ("gid", "99999999999", "out of range"),
        ] {
            let e = p(&[(k, v)]).unwrap_err().to_string();
            assert!(e.contains(needle) && e.contains(k), "{k}={v}: {e}");
        }
        let e = p(&[("size", "1"), ("mode", "0700")])
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown parameter \"size\""), "{e}");
        let e = p(&[("b", "1"), ("a", "1")]).unwrap_err().to_string();
        assert!(e.contains("unknown parameters \"a\", \"b\""), "{e}");
    }

    #[test]
    fn create_chmods_and_is_idempotent() {
        // The directory is made 0700 and then chmodded, so the mode is exact
        // whatever the umask (tests/it/mkdir.rs runs plugctl under umask 077;
        // changing this process's umask here would race other tests).
        let d = tempfile::tempdir().unwrap();
        let req = request(d.path(), &[("mode", "0775")]);
        let made = create(&req).unwrap();
        let path = d.path().join("vols").join(&req.id);
        assert_eq!(made.path, path.to_str().unwrap());
        assert_eq!(made.bytes, 0);
        assert_eq!(mode_of(&path), 0o775);
        // existing: success, nothing re-applied, parameters not even looked at
        fs::set_permissions(&path, fs::Permissions::from_mode(0o711)).unwrap();
        let again = create(&request(d.path(), &[("mode", "0700"), ("bogus", "x")])).unwrap();
        assert_eq!(again, made);
        assert_eq!(mode_of(&path), 0o711);
    }

    #[test]
    fn bad_parameters_leave_nothing() {
        let d = tempfile::tempdir().unwrap();
        for params in [&[("owner", "me")][..], &[("uid", "x")], &[("mode", "999")]] {
            let req = request(d.path(), params);
            assert!(create(&req).is_err());
            assert!(!d.path().join("vols").join(&req.id).exists());
        }
    }

    #[test]
    fn failed_chown_removes_the_directory() {
        let d = tempfile::tempdir().unwrap();
        let req = request(d.path(), &[("uid", "12345")]);
        let eperm = |_: &File, _, _| Err(io::Error::from_raw_os_error(1));
        let e = create_with(&req, MkdirBehaviour::NEWEST, &eperm)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("chown (uid 12345)") && e.contains("removed again"),
            "{e}"
        );
        assert!(!d.path().join("vols").join(&req.id).exists());
        assert!(d.path().join("vols").is_dir());
        // Before 1.10.5 / 1.11.0 it stays.
        let old = MkdirBehaviour {
            chmod: false,
            cleanup_on_chown_failure: false,
        };
        let e = create_with(&req, old, &eperm).unwrap_err().to_string();
        assert!(e.contains("left behind"), "{e}");
        assert!(d.path().join("vols").join(&req.id).is_dir());
    }

    #[test]
    fn chown_as_root() {
        if !nix::unistd::geteuid().is_root() {
            return;
        }
        let d = tempfile::tempdir().unwrap();
        let req = request(d.path(), &[("uid", "12345"), ("gid", "23456")]);
        let made = create(&req).unwrap();
        let meta = fs::metadata(&made.path).unwrap();
        assert_eq!((meta.uid(), meta.gid()), (12345, 23456));
        assert_eq!(mode_of(Path::new(&made.path)), 0o700);
    }

    #[test]
    fn delete_is_recursive_and_idempotent() {
        let d = tempfile::tempdir().unwrap();
        let req = request(d.path(), &[]);
        let made = create(&req).unwrap();
        fs::create_dir_all(Path::new(&made.path).join("a/b")).unwrap();
        fs::write(Path::new(&made.path).join("a/b/f"), "x").unwrap();
        delete(&req).unwrap();
        assert!(!Path::new(&made.path).exists());
        delete(&req).unwrap();
        // a symlink there is removed, never followed
        let outside = d.path().join("outside");
        fs::create_dir(&outside).unwrap();
        fs::write(outside.join("keep"), "x").unwrap();
        std::os::unix::fs::symlink(&outside, &made.path).unwrap();
        delete(&req).unwrap();
        assert!(outside.join("keep").exists());
        assert!(fs::symlink_metadata(&made.path).is_err());
    }

    #[test]
    fn ids_that_are_not_uuids_are_refused() {
        let d = tempfile::tempdir().unwrap();
        let mut req = request(d.path(), &[]);
        req.id = "..".into();
        assert!(create(&req).is_err());
        assert!(delete(&req).is_err());
    }
}

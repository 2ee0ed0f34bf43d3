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
use std::fs::{self, File};
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::host_volume::{Created, Request, is_volume_id};
use crate::error::PluginFailure;
pub use crate::nomad::MkdirBehaviour;
use crate::nomad::{Change, Profile};
use crate::trust::{CheckedDir, Policy, Refusal};

/// The plugin's name, which no file can shadow.
pub const NAME: &str = "mkdir";
/// The version Nomad reports for it.
pub const VERSION: &str = "0.0.1";
/// The mode of a new volume directory when `mode` is not given.
pub const DEFAULT_MODE: u32 = 0o700;
/// The mode of the volumes directory when `mkdir` has to make it.
pub const VOLUMES_DIR_MODE: u32 = 0o755;

/// `mkdir`'s parameters, parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Params {
    /// The mode bits chmod gets (`0o7777` at most): what Go makes of the
    /// number written (see [`go_chmod_bits`]).
    pub mode: u32,
    /// Owner to set; `None` leaves it as created (`-1`, chown's "unchanged").
    pub uid: Option<u32>,
    /// Group to set; `None` leaves it as created.
    pub gid: Option<u32>,
}

fn fail(message: impl Into<String>) -> PluginFailure {
    PluginFailure::Builtin(message.into())
}

/// Parses `mode`, `uid` and `gid` as Nomad's `decodeMkdirParams` does, in
/// its words (`client/hostvolumemanager/host_volume_plugin.go`):
///
/// - `mode`: `strconv.ParseUint(value, 8, 32)` (octal digits, no sign, at
///   most `0o37777777777`), then an `os.FileMode`, of which chmod(2) gets
///   what [`go_chmod_bits`] says (so `01777` is `0777`: Go's sticky bit is
///   another bit; [`parameter_warnings`] says so);
/// - `uid`, `gid`: `strconv.Atoi` (a sign is fine: `+0`, `-1`; `-1` leaves
///   the owner as it is, as chown(2) does);
/// - any other key: `unknown mkdir parameter`.
///
/// Every error reads `invalid value for "<key>": <cause>`. Nomad walks a Go
/// map, so with several bad parameters the one it names is chance; plugctl
/// names the first in byte order. One refusal is plugctl's own: an id
/// outside -1..=4294967295, which Nomad accepts and the kernel reads as
/// another id (uid_t is 32 bits), is refused naming that id.
pub fn parse_parameters(params: &BTreeMap<String, String>) -> Result<Params, PluginFailure> {
    let mut out = Params {
        mode: DEFAULT_MODE,
        uid: None,
        gid: None,
    };
    for (key, value) in params {
        let invalid = |cause: String| fail(format!("invalid value for {}: {cause}", go_quote(key)));
        match key.as_str() {
            "mode" => {
                let number = parse_uint_octal(value).map_err(invalid)?;
                out.mode = go_chmod_bits(number);
            }
            "uid" | "gid" => {
                let id = atoi(value).map_err(invalid)?;
                let id = chown_id(key, id).map_err(fail)?;
                if key == "uid" {
                    out.uid = id;
                } else {
                    out.gid = id;
                }
            }
            _ => {
                return Err(invalid(format!(
                    "unknown mkdir parameter: {}",
                    go_quote(key)
                )));
            }
        }
    }
    Ok(out)
}

/// What plugctl warns about in parameters Nomad accepts: a `mode` whose
/// bits chmod does not get as written.
pub fn parameter_warnings(params: &BTreeMap<String, String>) -> Vec<String> {
    let Some(text) = params.get("mode") else {
        return Vec::new();
    };
    let Ok(number) = parse_uint_octal(text) else {
        return Vec::new();
    };
    let applied = go_chmod_bits(number);
    if u64::from(applied) == number {
        return Vec::new();
    }
    let mut dropped = Vec::new();
    for (bit, name) in [(0o4000, "setuid"), (0o2000, "setgid"), (0o1000, "sticky")] {
        if number & bit != 0 && applied & bit as u32 == 0 {
            dropped.push(name);
        }
    }
    let what = match dropped.as_slice() {
        [] => "bits Go's os.FileMode does not pass to chmod are dropped".to_string(),
        [one] => format!("the {one} bit is dropped"),
        many => format!("the {} bits are dropped", many.join(" and ")),
    };
    vec![format!(
        "mkdir parameter mode {text_q}: {what}, as Nomad does (it chmods to the number's \
         os.FileMode, whose setuid, setgid and sticky bits are not 04000, 02000 and 01000), \
         so the directory gets mode {applied:04o}",
        text_q = crate::escape::quote(text)
    )]
}

/// Go's `os.FileMode` bits for setuid, setgid and sticky (`io/fs`).
const GO_MODE_SETUID: u64 = 1 << 23;
const GO_MODE_SETGID: u64 = 1 << 22;
const GO_MODE_STICKY: u64 = 1 << 20;

/// What `os.Chmod(path, os.FileMode(number))` passes to chmod(2) (Go's
/// `syscallMode`): the permission bits, plus setuid, setgid and sticky
/// when Go's own bits for them are set.
pub fn go_chmod_bits(number: u64) -> u32 {
    let mut mode = (number & 0o777) as u32;
    for (go, unix) in [
        (GO_MODE_SETUID, 0o4000),
        (GO_MODE_SETGID, 0o2000),
        (GO_MODE_STICKY, 0o1000),
    ] {
        if number & go != 0 {
            mode |= unix;
        }
    }
    mode
}

/// `strconv.ParseUint(text, 8, 32)`, with its error text.
fn parse_uint_octal(text: &str) -> Result<u64, String> {
    let error = |why: &str| format!("strconv.ParseUint: parsing {}: {why}", go_quote(text));
    if text.is_empty() || !text.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        return Err(error("invalid syntax"));
    }
    match u64::from_str_radix(text, 8) {
        Ok(n) if n <= u64::from(u32::MAX) => Ok(n),
        _ => Err(error("value out of range")),
    }
}

/// `strconv.Atoi(text)` (64-bit `int`), with its error text.
fn atoi(text: &str) -> Result<i64, String> {
    let error = |why: &str| format!("strconv.Atoi: parsing {}: {why}", go_quote(text));
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(error("invalid syntax"));
    }
    text.parse::<i64>().map_err(|_| error("value out of range"))
}

/// The id chown(2) gets: `-1` (and its 32-bit twin 4294967295) leave the
/// owner; anything else outside uid_t is refused, as no id Nomad means.
fn chown_id(key: &str, id: i64) -> Result<Option<u32>, String> {
    match id {
        -1 => Ok(None),
        0..=0xffff_fffe => Ok(Some(id as u32)),
        0xffff_ffff => Ok(None),
        _ => Err(format!(
            "invalid value for {}: {id} is not a {} id: Nomad would accept it and chown(2) \
             would read it as {} (uid_t and gid_t are 32 bits); plugctl refuses it",
            go_quote(key),
            if key == "uid" { "user" } else { "group" },
            id as u32
        )),
    }
}

/// Go's `strconv.Quote` for the text of a parameter: double quotes, with
/// `"` and `\` escaped and control characters as Go writes them.
fn go_quote(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            '\u{0}'..='\u{1f}' | '\u{7f}' => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `<volumes_dir>/<id>`, the only path `mkdir` touches. Refuses an id that is
/// not a volume id, and a volumes directory that is relative or not UTF-8.
pub fn target(req: &Request) -> Result<PathBuf, PluginFailure> {
    if !is_volume_id(&req.id) {
        return Err(fail(format!(
            "volume id {} is not a lowercase UUID; refusing to build a path from it",
            crate::escape::quote_os(&req.id)
        )));
    }
    if !req.volumes_dir.is_absolute() || req.volumes_dir.to_str().is_none() {
        return Err(fail(format!(
            "volumes directory {} must be an absolute UTF-8 path",
            crate::escape::quote_os(&req.volumes_dir)
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
    create_as(req, MkdirBehaviour::NEWEST, Policy::strict())
}

/// Create as a given release's `mkdir` does it, the volumes directory
/// reached through the trust gate with `policy`.
pub fn create_as(
    req: &Request,
    behaviour: MkdirBehaviour,
    policy: Policy,
) -> Result<Created, PluginFailure> {
    create_with(req, behaviour, policy, &|dir, uid, gid| {
        std::os::unix::fs::fchown(dir, uid, gid)
    })
}

/// How the owner is set; replaced in tests to make it fail.
type Chown<'a> = &'a dyn Fn(&File, Option<u32>, Option<u32>) -> io::Result<()>;

fn refused(what: &str, r: Refusal) -> PluginFailure {
    fail(format!("cannot {what}: {}", r.explained()))
}

fn create_with(
    req: &Request,
    behaviour: MkdirBehaviour,
    policy: Policy,
    chown: Chown<'_>,
) -> Result<Created, PluginFailure> {
    let path = target(req)?;
    // The volumes directory through the gate, made when missing: a root
    // mkdir must not be walked elsewhere by a directory another user
    // controls. Everything below happens relative to its descriptor.
    let vols = CheckedDir::create_all(policy, &req.volumes_dir, VOLUMES_DIR_MODE)
        .map_err(|r| refused("use the volumes directory", r))?;
    let id = req.id.as_str();
    // Anything there (a directory, a file, what a symlink leads to) means
    // the volume exists: success, nothing re-applied. Nomad asks os.Stat,
    // which follows a symlink: a dangling one is not a volume, and making
    // the directory then fails on it, as below.
    let exists = |vols: &CheckedDir| -> Result<bool, PluginFailure> {
        match vols.stat(id).map_err(|r| refused("inspect", r))? {
            None => Ok(false),
            Some(m) if m.is_symlink() => Ok(fs::metadata(vols.join(id)).is_ok()),
            Some(_) => Ok(true),
        }
    };
    if exists(&vols)? {
        return Ok(created(&path));
    }
    let params = parse_parameters(&req.parameters)?;
    // With the chmod: made owner-only first, the requested mode set once it
    // is ours. Without it (an older release): made with the mode, which the
    // umask takes bits off, as mkdir(2) does.
    let first_mode = if behaviour.chmod { 0o700 } else { params.mode };
    if !vols
        .make_dir(id, first_mode)
        .map_err(|r| refused("create", r))?
    {
        // A concurrent create of the same volume won: the same as existing
        // (but not a dangling symlink: that stays an error, as in Nomad).
        if exists(&vols)? {
            return Ok(created(&path));
        }
        return Err(io_fail(
            "create",
            &path,
            &io::Error::from(io::ErrorKind::AlreadyExists),
        ));
    }
    let finish = || -> Result<(), PluginFailure> {
        // Through a descriptor opened without following symlinks, so a path
        // swapped meanwhile cannot redirect the chmod or the chown.
        let dir = vols.open_subdir_file(id).map_err(|r| refused("open", r))?;
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
            let _ = vols.remove_dir(id);
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
/// when nothing is there. Unlike Nomad's `os.RemoveAll`, the removal never
/// crosses into another mount (a bind mount inside a volume is refused,
/// naming it): root deletes nothing outside the volume it was asked to.
pub fn delete(req: &Request, policy: Policy) -> Result<(), PluginFailure> {
    target(req)?;
    let vols = match CheckedDir::open(policy, &req.volumes_dir) {
        Ok(d) => d,
        Err(r) if r.is_not_found() => return Ok(()),
        Err(r) => return Err(refused("use the volumes directory", r)),
    };
    crate::trust::tree::remove_tree(&vols, std::ffi::OsStr::new(&req.id))
        .map_err(|r| refused("remove", r))
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
    fn parameters_decode_as_nomad_does() {
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
        // Go's FileMode: 01777 is 0777 to chmod; Go's own sticky bit
        // (1 << 20, octal 4000000) is the one chmod gets as 01000.
        assert_eq!(p(&[("mode", "01777")]).unwrap().mode, 0o777);
        assert_eq!(p(&[("mode", "4000755")]).unwrap().mode, 0o1755);
        assert_eq!(p(&[("mode", "37777777777")]).unwrap().mode, 0o7777);
        // Atoi takes a sign; -1 (and its 32-bit twin) leaves the owner.
        assert_eq!(p(&[("uid", "-1")]).unwrap().uid, None);
        assert_eq!(p(&[("uid", "4294967295")]).unwrap().uid, None);
        assert_eq!(p(&[("uid", "+0")]).unwrap().uid, Some(0));
        assert_eq!(p(&[("gid", "0012345")]).unwrap().gid, Some(12345));
        for (k, v, want) in [
            (
                "mode",
                "",
                r#"invalid value for "mode": strconv.ParseUint: parsing "": invalid syntax"#,
            ),
            (
                "mode",
                "0o755",
                r#"invalid value for "mode": strconv.ParseUint: parsing "0o755": invalid syntax"#,
            ),
            (
                "mode",
                "0789",
                r#"invalid value for "mode": strconv.ParseUint: parsing "0789": invalid syntax"#,
            ),
            (
                "mode",
                "+755",
                r#"invalid value for "mode": strconv.ParseUint: parsing "+755": invalid syntax"#,
            ),
            (
                "mode",
                "40000000000",
                r#"invalid value for "mode": strconv.ParseUint: parsing "40000000000": value out of range"#,
            ),
            (
                "uid",
                "abc",
                r#"invalid value for "uid": strconv.Atoi: parsing "abc": invalid syntax"#,
            ),
            (
                "uid",
                " 5",
                r#"invalid value for "uid": strconv.Atoi: parsing " 5": invalid syntax"#,
            ),
            (
                "gid",
                "1.5",
                r#"invalid value for "gid": strconv.Atoi: parsing "1.5": invalid syntax"#,
            ),
            (
                "gid",
                "-",
                r#"invalid value for "gid": strconv.Atoi: parsing "-": invalid syntax"#,
            ),
            (
                "uid",
                "99999999999999999999",
                r#"invalid value for "uid": strconv.Atoi: parsing "99999999999999999999": value out of range"#,
            ),
            (
                "uid",
                "a\tb\"",
                r#"invalid value for "uid": strconv.Atoi: parsing "a\tb\"": invalid syntax"#,
            ),
            (
                "what",
                "1",
                r#"invalid value for "what": unknown mkdir parameter: "what""#,
            ),
        ] {
            assert_eq!(p(&[(k, v)]).unwrap_err().to_string(), want, "{k}={v}");
        }
        // Ids past 32 bits: Nomad's kernel call would truncate them.
        for v in ["4294967296", "-2"] {
            let e = p(&[("uid", v)]).unwrap_err().to_string();
            assert!(
                e.contains("Nomad would accept it") && e.contains("plugctl refuses it"),
                "{e}"
            );
        }
        // Several bad ones: the first in byte order.
        let e = p(&[("b", "1"), ("a", "1")]).unwrap_err().to_string();
        assert_eq!(e, r#"invalid value for "a": unknown mkdir parameter: "a""#);
    }

    #[test]
    fn a_dropped_bit_is_a_warning() {
        let w = |mode: &str| {
            parameter_warnings(
                &[("mode".to_string(), mode.to_string())]
                    .into_iter()
                    .collect(),
            )
        };
        assert!(w("0755").is_empty());
        assert!(w("755").is_empty());
        assert!(w("bad").is_empty());
        let sticky = w("01777");
        assert_eq!(sticky.len(), 1);
        assert!(
            sticky[0].contains("the sticky bit is dropped") && sticky[0].ends_with("mode 0777"),
            "{sticky:?}"
        );
        assert!(w("06755")[0].contains("the setuid and setgid bits are dropped"));
        assert!(w("4000755")[0].contains("Go's os.FileMode"));
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
    fn a_dangling_symlink_is_not_a_volume() {
        let d = tempfile::tempdir().unwrap();
        let req = request(d.path(), &[]);
        fs::create_dir_all(d.path().join("vols")).unwrap();
        let path = d.path().join("vols").join(&req.id);
        std::os::unix::fs::symlink(d.path().join("nowhere"), &path).unwrap();
        let e = create(&req).unwrap_err().to_string();
        assert!(e.contains("cannot create") && e.contains("exists"), "{e}");
        assert!(!d.path().join("nowhere").exists(), "never followed");
    }

    #[test]
    fn bad_parameters_leave_nothing() {
        let d = tempfile::tempdir().unwrap();
        for params in [
            &[("owner", "me")][..],
            &[("uid", "x")],
            &[("mode", "999")],
            &[("uid", "-2")],
        ] {
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
        let e = create_with(&req, MkdirBehaviour::NEWEST, Policy::strict(), &eperm)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("chown (uid 12345)") && e.contains("removed again"),
            "{e}"
        );
        assert!(!d.path().join("vols").join(&req.id).exists());
        assert!(d.path().join("vols").is_dir());
        // Before 1.10.3 it stays.
        let old = MkdirBehaviour {
            chmod: false,
            cleanup_on_chown_failure: false,
        };
        let e = create_with(&req, old, Policy::strict(), &eperm)
            .unwrap_err()
            .to_string();
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
        delete(&req, Policy::strict()).unwrap();
        assert!(!Path::new(&made.path).exists());
        delete(&req, Policy::strict()).unwrap();
        // a symlink there is removed, never followed
        let outside = d.path().join("outside");
        fs::create_dir(&outside).unwrap();
        fs::write(outside.join("keep"), "x").unwrap();
        std::os::unix::fs::symlink(&outside, &made.path).unwrap();
        delete(&req, Policy::strict()).unwrap();
        assert!(outside.join("keep").exists());
        assert!(fs::symlink_metadata(&made.path).is_err());
    }

    #[test]
    fn ids_that_are_not_uuids_are_refused() {
        let d = tempfile::tempdir().unwrap();
        let mut req = request(d.path(), &[]);
        req.id = "..".into();
        assert!(create(&req).is_err());
        assert!(delete(&req, Policy::strict()).is_err());
    }
}

//! `plugctl volume audit [--prune-orphans --yes]`: the registry held against
//! the disk. Entries of the volumes directory that no record claims
//! (orphans), records whose path is gone, operations left pending, and for
//! every volume the bytes it takes on disk against the capacity asked.
//!
//! The walk never follows a symlink and never leaves the volume's file
//! system: a plugin's volume may hold anything, including a link to `/` or a
//! mount point, and an audit run as root must stay inside what it audits.
//!
//! Pruning deletes as root, so it works on descriptors under the registry
//! lock: the volumes directory is opened once through the trust gate
//! (every directory up to `/` judged, a symlink followed only by the gate's
//! own walk), its entries are listed and removed relative to that
//! descriptor, each orphan's whole tree is checked before the first unlink
//! and never crossed into another mount — a bind mount of the same file
//! system included (`openat2(RESOLVE_NO_XDEV)`, see [`plugctl_core::trust::tree`]).
//! The registry is read after the listing, with the lock held until the
//! last removal: a create that wrote its `pending` record before its plugin
//! made anything is seen, and none can start meanwhile. Records made under
//! another volumes directory (by identity, not spelling) refuse the prune.
//!
//! The volumes directory is shared: on a node it is the Nomad agent's
//! `<data_dir>/host_volumes`, where the agent makes volumes of its own, and
//! other tools may keep theirs. So each entry is one of three kinds:
//! - a volume's: a record in any state claims it, by its path or by the
//!   volume id the name begins with (`<id>`, `<id>.img`, `<id>.ext4`: one
//!   volume may own several);
//! - an *orphan*: plugctl's own leftover, an entry whose name begins with
//!   the id of a volume plugctl's journal shows it made, changed, deleted or
//!   forgot ([`plugctl_core::registry::Registry::volume_ids_ever`]);
//! - *foreign*: everything else — not plugctl's, the agent's or another
//!   tool's. Shown as such, counted apart (never a finding), and never
//!   removed or changed, whatever the flags.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use plugctl_core::trust::usage::disk_usage;
use serde::Serialize;

use super::Ctx;
use crate::fit::Column;
use crate::output::Style;
use crate::{Error, Result};
use plugctl_core::registry::{Owners, Volume, VolumeState};
use plugctl_core::trust::{CheckedDir, Refusal};

#[derive(Debug, Serialize)]
struct VolumeReport<'a> {
    id: &'a str,
    name: &'a str,
    namespace: &'a str,
    plugin: &'a str,
    state: &'static str,
    path: &'a str,
    /// Bytes the plugin reported at create.
    bytes: i64,
    capacity_min: u64,
    capacity_max: u64,
    /// Allocated bytes on disk (blocks × 512, hard links once); None when
    /// the path is gone or unreadable.
    bytes_on_disk: Option<u64>,
    findings: Vec<String>,
}

/// An entry of the volumes directory that no record claims: an orphan
/// (plugctl's own leftover) or a foreign one (see the module's doc).
#[derive(Debug, Serialize)]
struct Orphan {
    /// Escaped where it is not UTF-8: the directory is shared with the
    /// agent and other tools, whose names plugctl does not choose.
    #[serde(serialize_with = "escaped_path")]
    path: PathBuf,
    kind: &'static str,
    bytes_on_disk: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pruned: Option<bool>,
    /// Why it was not removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    not_pruned: Option<String>,
    #[serde(skip)]
    name: OsString,
}

/// A path as JSON: as it is when it is UTF-8, else its bytes escaped
/// (`caf\xe9`), as `fingerprint` writes a plugin file's: a JSON string
/// cannot carry the raw bytes, and one entry another tool named so must
/// not cut the whole document.
fn escaped_path<S: serde::Serializer>(path: &Path, s: S) -> std::result::Result<S::Ok, S::Error> {
    use std::os::unix::ffi::OsStrExt;
    match path.to_str() {
        Some(text) => s.serialize_str(text),
        None => s.collect_str(&path.as_os_str().as_bytes().escape_ascii()),
    }
}

/// What no record claims, sorted into plugctl's own leftovers and the
/// rest.
struct Unclaimed {
    orphans: Vec<Orphan>,
    foreign: Vec<Orphan>,
}

pub async fn run(ctx: &Ctx, prune: bool, yes: bool) -> Result<()> {
    let volumes_dir = &ctx.settings.volumes_dir;
    // A prune holds the registry lock from before the listing to the last
    // removal: no create starts meanwhile, and one under way is seen.
    let _held = if prune && yes {
        Some(ctx.registry.hold().await?)
    } else {
        None
    };
    let dir = open_volumes_dir(ctx)?;
    let entries = match &dir {
        Some(d) => d.entries().map_err(|r| refused(volumes_dir, r))?,
        None => Vec::new(),
    };
    // Read after the listing: every entry listed was made by a plugin whose
    // record (pending at least) was written before it ran.
    let snap = ctx.registry.read()?;
    let volumes = snap.state().volumes_sorted();
    super::raise_open_file_limit();
    let reports = audit_all(&volumes, ctx.registry.owners(), volumes_dir, dir.as_ref());
    let Unclaimed {
        mut orphans,
        foreign,
    } = match &dir {
        Some(d) => {
            let ours = ctx.registry.volume_ids_ever(snap.state())?;
            sort_unclaimed(d, volumes_dir, entries, &volumes, &ours)
        }
        None => Unclaimed {
            orphans: Vec::new(),
            foreign: Vec::new(),
        },
    };
    if prune {
        if !yes {
            let list: Vec<String> = orphans
                .iter()
                .map(|o| o.path.display().to_string())
                .collect();
            return Err(Error::usage(format!(
                "--prune-orphans removes {} orphan(s) under {} ({}){}; add --yes to confirm",
                orphans.len(),
                volumes_dir.display(),
                if list.is_empty() {
                    "none".to_string()
                } else {
                    list.join(", ")
                },
                never_pruned(foreign.len())
            )));
        }
        if let Some(dir) = &dir {
            super::volume::writable_only_by_root(ctx, dir)?;
            same_dir_as_records(ctx, dir, &volumes)?;
            for o in &mut orphans {
                let removed = plugctl_core::trust::tree::remove_tree(dir, &o.name);
                if let Err(e) = &removed {
                    ctx.printer
                        .warn(format!("cannot remove orphan {}: {e}", o.path.display()));
                    o.not_pruned = Some(e.to_string());
                }
                o.pruned = Some(removed.is_ok());
            }
        }
    }
    let problems = reports
        .iter()
        .flatten()
        .filter(|r| !r.findings.is_empty())
        .count()
        + orphans.iter().filter(|o| o.pruned != Some(true)).count();
    if ctx.printer.json {
        // Serialized as it is written: no JSON tree of 100,000 reports.
        struct Reports<'r, 'a>(&'r [Option<VolumeReport<'a>>]);
        impl Serialize for Reports<'_, '_> {
            fn serialize<S: serde::Serializer>(
                &self,
                s: S,
            ) -> std::result::Result<S::Ok, S::Error> {
                s.collect_seq(self.0.iter().flatten())
            }
        }
        #[derive(Serialize)]
        struct Doc<'r, 'a> {
            ok: bool,
            volumes_dir: &'r Path,
            volumes: Reports<'r, 'a>,
            orphans: &'r [Orphan],
            foreign: &'r [Orphan],
        }
        ctx.printer.document_from(&Doc {
            ok: problems == 0,
            volumes_dir,
            volumes: Reports(&reports),
            orphans: &orphans,
            foreign: &foreign,
        })?;
    } else {
        // Rows made as they are printed, cells borrowed from the reports.
        let full_ids = ctx.printer.verbose() > 0;
        let ids = snap.state().short_ids();
        let volume_rows = reports.iter().flatten().map(|r| {
            let finding = if r.findings.is_empty() {
                (Cow::Borrowed("ok"), Style::Good)
            } else {
                (Cow::Owned(r.findings.join("; ")), Style::Bad)
            };
            vec![
                finding,
                (
                    Cow::Borrowed(super::volume::view::table_id(&ids, r.id, full_ids)),
                    Style::Plain,
                ),
                (crate::output::value(r.plugin), Style::Plain),
                (Cow::Borrowed(r.state), Style::Plain),
                (Cow::Owned(human(r.bytes_on_disk)), Style::Plain),
                (Cow::Owned(capacity(r.capacity_max)), Style::Plain),
                (crate::output::value(r.path), Style::Plain),
            ]
        });
        let orphan_rows = orphans.iter().map(|o| {
            let label = match o.pruned {
                Some(true) => (Cow::Borrowed("orphan, removed"), Style::Warn),
                Some(false) => (Cow::Borrowed("orphan, not removed"), Style::Bad),
                None => (Cow::Owned(format!("orphan {}", o.kind)), Style::Bad),
            };
            vec![
                label,
                (Cow::Borrowed("-"), Style::Plain),
                (Cow::Borrowed("-"), Style::Plain),
                (Cow::Borrowed("-"), Style::Plain),
                (Cow::Owned(human(o.bytes_on_disk)), Style::Plain),
                (Cow::Borrowed("-"), Style::Plain),
                (
                    Cow::Owned(crate::output::value(&o.path.to_string_lossy()).into_owned()),
                    Style::Plain,
                ),
            ]
        });
        // What is not plugctl's is shown for what it is, never as a finding.
        let foreign_rows = foreign.iter().map(|o| {
            vec![
                (Cow::Owned(format!("foreign {}", o.kind)), Style::Plain),
                (Cow::Borrowed("-"), Style::Plain),
                (Cow::Borrowed("-"), Style::Plain),
                (Cow::Borrowed("-"), Style::Plain),
                (Cow::Owned(human(o.bytes_on_disk)), Style::Plain),
                (Cow::Borrowed("-"), Style::Plain),
                (o.path.to_string_lossy(), Style::Plain),
            ]
        });
        if reports.iter().flatten().next().is_none() && orphans.is_empty() && foreign.is_empty() {
            // Nothing to hold against the disk, nothing on it: no table.
            ctx.printer.info(format!(
                "no volumes, and nothing else in {}",
                volumes_dir.display()
            ));
        } else {
            ctx.printer.table_from(
                &[
                    Column::text("FINDING"),
                    Column::keep("ID"),
                    Column::keep("PLUGIN"),
                    Column::keep("STATE"),
                    Column::keep("ON DISK"),
                    Column::keep("CAPACITY"),
                    Column::path("PATH"),
                ],
                || {
                    volume_rows
                        .clone()
                        .chain(orphan_rows.clone())
                        .chain(foreign_rows.clone())
                },
            )?;
        }
        if !foreign.is_empty() {
            ctx.printer.info(format!(
                "{} foreign {} in {}: not plugctl's (the Nomad agent's or another tool's), \
                 left as {} (never an orphan, never pruned)",
                foreign.len(),
                if foreign.len() == 1 {
                    "entry"
                } else {
                    "entries"
                },
                volumes_dir.display(),
                if foreign.len() == 1 {
                    "it is"
                } else {
                    "they are"
                },
            ));
        }
    }
    if problems == 0 {
        Ok(())
    } else {
        Err(Error::Failed(format!(
            "volume audit: {problems} finding(s) in {} volume(s) and {}",
            volumes.len(),
            volumes_dir.display()
        )))
    }
}

/// Audits every volume, the walks spread over the machine's cores: a walk
/// mostly waits on stat(2), and volumes are independent.
/// One slot per volume, in order (every slot filled): kept as they are
/// rather than collected again, which would hold the reports twice.
fn audit_all<'a>(
    volumes: &[&'a Volume],
    owners: &Owners,
    volumes_dir: &Path,
    dir: Option<&CheckedDir>,
) -> Vec<Option<VolumeReport<'a>>> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(volumes.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut slots: Vec<Option<VolumeReport<'a>>> = (0..volumes.len()).map(|_| None).collect();
    let done = std::sync::Mutex::new(&mut slots);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(v) = volumes.get(i) else { break };
                    let report = audit_volume(v, owners, volumes_dir, dir);
                    done.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(report);
                }
            });
        }
    });
    slots
}

/// A volume's path is walked only when it lies inside the volumes
/// directory and leads nowhere out of it: an audit run as root never walks
/// what a record elsewhere names (`/usr`, or a link to it).
fn audit_volume<'a>(
    v: &'a Volume,
    owners: &Owners,
    volumes_dir: &Path,
    dir: Option<&CheckedDir>,
) -> VolumeReport<'a> {
    let mut findings = Vec::new();
    match v.state {
        VolumeState::Ready => {}
        VolumeState::Pending | VolumeState::Deleting => {
            let op = if v.state == VolumeState::Pending {
                "create"
            } else {
                "delete"
            };
            findings.push(if v.in_progress(owners) {
                format!("{op} running")
            } else {
                format!("{op} interrupted: `plugctl volume repair` settles it")
            });
        }
    }
    let below = (!v.path.is_empty())
        .then(|| plugctl_core::families::host_volume::judge_recorded_path(&v.path, volumes_dir));
    let bytes_on_disk = match below {
        None => None,
        Some(Err(why)) => {
            findings.push(format!("not walked: {why}"));
            None
        }
        Some(Ok(below)) => {
            match fs::symlink_metadata(v.path.as_ref()) {
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    if v.state == VolumeState::Ready {
                        findings.push("path is gone".into());
                    }
                    None
                }
                Err(e) => {
                    findings.push(format!("cannot stat path: {e}"));
                    None
                }
                Ok(_) => {
                    match dir.map(|d| disk_usage(d, &below)) {
                        Some(Ok(usage)) => {
                            if usage.too_deep > 0 {
                                findings.push(format!(
                                    "nested deeper than {} directories: not all counted",
                                    plugctl_core::trust::tree::MAX_DEPTH
                                ));
                            }
                            if let Some(why) = &usage.unread_why {
                                findings.push(format!(
                                    "{} {} could not be read ({why}): not all counted",
                                    usage.unread,
                                    if usage.unread == 1 {
                                        "entry"
                                    } else {
                                        "entries"
                                    }
                                ));
                            }
                            Some(usage.bytes)
                        }
                        Some(Err(r)) => {
                            findings.push(format!("not walked: {r}"));
                            None
                        }
                        // No volumes directory: the path was gone too.
                        None => None,
                    }
                }
            }
        }
    };
    if let Some(on_disk) = bytes_on_disk
        && v.capacity_max > 0
        && on_disk > v.capacity_max
    {
        findings.push(format!(
            "uses {on_disk} bytes, over its capacity_max {}",
            v.capacity_max
        ));
    }
    VolumeReport {
        id: &v.id,
        name: &v.name,
        namespace: &v.namespace,
        plugin: &v.plugin,
        state: v.state.as_str(),
        path: &v.path,
        bytes: v.bytes,
        capacity_min: v.capacity_min,
        capacity_max: v.capacity_max,
        bytes_on_disk,
        findings,
    }
}

/// The volumes directory through the gate; `None` when it does not exist
/// (no orphans).
fn open_volumes_dir(ctx: &Ctx) -> Result<Option<CheckedDir>> {
    let path = &ctx.settings.volumes_dir;
    match CheckedDir::open(ctx.settings.policy(), path) {
        Ok(d) => Ok(Some(d)),
        Err(r) if r.is_not_found() => Ok(None),
        Err(r) => Err(refused(path, r)),
    }
}

fn refused(volumes_dir: &Path, r: Refusal) -> Error {
    Error::refused(
        format_args!(
            "cannot audit the volumes directory {}",
            volumes_dir.display()
        ),
        &r,
    )
}

/// Refuses a prune when records were made under another volumes directory
/// than the one being pruned (compared by identity: a spelling through a
/// symlink or `..` is the same directory): pruning here could then take
/// what those records own, or they would be judged against the wrong place.
fn same_dir_as_records(ctx: &Ctx, dir: &CheckedDir, volumes: &[&Volume]) -> Result<()> {
    let mut seen: HashMap<&str, bool> = HashMap::new();
    let mut others: Vec<&str> = Vec::new();
    for v in volumes {
        let Some(recorded) = v.volumes_dir.as_deref() else {
            continue;
        };
        let same = *seen.entry(recorded).or_insert_with(|| {
            CheckedDir::open(ctx.settings.policy(), Path::new(recorded))
                .is_ok_and(|d| d.same_as(dir))
        });
        if !same && !others.contains(&recorded) {
            others.push(recorded);
        }
    }
    if others.is_empty() {
        return Ok(());
    }
    Err(Error::usage(format!(
        "--prune-orphans: refusing to prune {}: volumes on record were created under {} \
         (another directory, or one that is gone); prune with --volumes-dir naming the \
         directory the records were made in",
        ctx.settings.volumes_dir.display(),
        others.join(", ")
    )))
}

/// ", and N foreign entries it never removes" for a prune's confirmation.
fn never_pruned(foreign: usize) -> String {
    match foreign {
        0 => String::new(),
        1 => "; 1 foreign entry, not plugctl's, is never removed".into(),
        n => format!("; {n} foreign entries, not plugctl's, are never removed"),
    }
}

/// The entries of the volumes directory that no record claims, sorted
/// into plugctl's own leftovers (their name begins with an id in `ours`:
/// recorded, or named by plugctl's journal) and foreign ones. A record (in
/// any state) claims the entry its path names or lies inside (its first
/// component below the volumes directory it was made in, as recorded or as
/// the gate resolved it), and every entry whose name begins with its id
/// (`<id>`, `<id>.img`, `<id>.ext4`).
fn sort_unclaimed(
    dir: &CheckedDir,
    volumes_dir: &Path,
    entries: Vec<(OsString, rustix::fs::FileType)>,
    volumes: &[&Volume],
    ours: &HashSet<String>,
) -> Unclaimed {
    let first_below = |path: &str, base: &Path| -> Option<OsString> {
        Path::new(path)
            .strip_prefix(base)
            .ok()?
            .components()
            .next()
            .map(|c| c.as_os_str().to_os_string())
    };
    // A set, not a scan per entry: 100,000 volumes against 100,000 entries.
    let mut claimed: HashSet<OsString> = HashSet::new();
    let mut ids: HashSet<String> = HashSet::new();
    for v in volumes {
        ids.insert(v.id.to_ascii_lowercase());
        if v.path.is_empty() {
            continue;
        }
        let bases = [
            Some(volumes_dir),
            Some(dir.path()),
            v.volumes_dir.as_deref().map(Path::new),
        ];
        for base in bases.into_iter().flatten() {
            if let Some(name) = first_below(&v.path, base) {
                claimed.insert(name);
            }
        }
    }
    let begins_with = |name: &OsStr, ids: &HashSet<String>| {
        name.to_str()
            .and_then(|n| n.get(..36))
            .is_some_and(|id| ids.contains(&id.to_ascii_lowercase()))
    };
    let mut orphans = Vec::new();
    let mut foreign = Vec::new();
    for (name, kind) in entries {
        if claimed.contains(&name) || begins_with(&name, &ids) {
            continue;
        }
        let out = if begins_with(&name, ours) {
            &mut orphans
        } else {
            &mut foreign
        };
        let path = dir.join(&name);
        use rustix::fs::FileType as T;
        let kind = match kind {
            T::Symlink => "symlink",
            T::Directory => "dir",
            T::RegularFile => "file",
            T::Unknown => match dir.stat(&name) {
                Ok(Some(m)) if m.is_symlink() => "symlink",
                Ok(Some(m)) if m.is_dir() => "dir",
                Ok(Some(m)) if m.is_file() => "file",
                Ok(Some(_)) => "special",
                _ => continue,
            },
            _ => "special",
        };
        out.push(Orphan {
            // Not all of it counted: no number rather than a smaller one.
            bytes_on_disk: disk_usage(dir, Path::new(&name))
                .ok()
                .filter(|u| u.unread == 0)
                .map(|u| u.bytes),
            path,
            kind,
            pruned: None,
            not_pruned: None,
            name,
        });
    }
    orphans.sort_by(|a, b| a.path.cmp(&b.path));
    foreign.sort_by(|a, b| a.path.cmp(&b.path));
    Unclaimed { orphans, foreign }
}

fn human(bytes: Option<u64>) -> String {
    bytes.map_or_else(|| "-".into(), crate::readable::size)
}

fn capacity(max: u64) -> String {
    if max == 0 {
        "-".into()
    } else {
        crate::readable::size(max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plugctl_core::trust::Policy;
    use rustix::fs::FileType;
    use std::os::unix::fs::PermissionsExt;

    /// On a file system whose listing gives no entry type (`DT_UNKNOWN`:
    /// some network and FUSE file systems, old XFS), each orphan is judged
    /// by what it is: a directory or a file is not called a symlink, and a
    /// FIFO, a socket or a device is still reported (as a leftover of
    /// plugctl's or as a foreign entry: one rule judges both).
    #[test]
    fn an_untyped_listing_judges_each_orphan_by_what_it_is() {
        let d = tempfile::tempdir().unwrap();
        fs::set_permissions(d.path(), fs::Permissions::from_mode(0o755)).unwrap();
        let root = d.path();
        fs::create_dir(root.join("a-dir")).unwrap();
        fs::write(root.join("a-file"), b"x").unwrap();
        std::os::unix::fs::symlink("/", root.join("a-link")).unwrap();
        nix::unistd::mkfifo(&root.join("a-fifo"), nix::sys::stat::Mode::S_IRWXU).unwrap();
        let _socket = std::os::unix::net::UnixListener::bind(root.join("a-socket")).unwrap();
        let mut want = vec![
            ("a-dir", "dir"),
            ("a-fifo", "special"),
            ("a-file", "file"),
            ("a-link", "symlink"),
            ("a-socket", "special"),
        ];
        // A device needs root to make (tests run as root in CI).
        if nix::sys::stat::mknod(
            &root.join("a-device"),
            nix::sys::stat::SFlag::S_IFCHR,
            nix::sys::stat::Mode::S_IRUSR,
            nix::sys::stat::makedev(1, 3),
        )
        .is_ok()
        {
            want.insert(0, ("a-device", "special"));
        }
        let dir = CheckedDir::open(Policy::strict(), root).unwrap();
        let mut entries: Vec<(OsString, FileType)> = dir
            .entries()
            .unwrap()
            .into_iter()
            .map(|(name, _)| (name, FileType::Unknown))
            .collect();
        // Listed, then gone before it was looked at: not an orphan.
        entries.push(("vanished".into(), FileType::Unknown));
        // No record and no id of plugctl's: every entry is foreign, and
        // foreign entries are judged by the same rule as leftovers.
        let orphans = sort_unclaimed(&dir, root, entries, &[], &HashSet::new()).foreign;
        let got: Vec<(&str, &str)> = orphans
            .iter()
            .map(|o| (o.name.to_str().unwrap(), o.kind))
            .collect();
        assert_eq!(got, want);
    }
}

//! `plugctl volume audit [--prune-orphans --yes]`: the registry held against
//! the disk. Entries of the volumes directory that no record claims
//! (orphans), records whose path is gone, operations left pending, and for
//! every volume the bytes it takes on disk against the capacity asked.
//!
//! The walk never follows a symlink and never leaves the volume's file
//! system: a plugin's volume may hold anything, including a link to `/` or a
//! mount point, and an audit run as root must stay inside what it audits.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fs;
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use serde::Serialize;
use walkdir::WalkDir;

use super::Ctx;
use crate::output::Style;
use crate::registry::{Volume, VolumeState};
use crate::{Error, Result};

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

#[derive(Debug, Serialize)]
struct Orphan {
    path: PathBuf,
    kind: &'static str,
    bytes_on_disk: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pruned: Option<bool>,
}

pub fn run(ctx: &Ctx, prune: bool, yes: bool) -> Result<()> {
    let snap = ctx.registry.read()?;
    let volumes_dir = &ctx.settings.volumes_dir;
    let volumes = snap.state().volumes_sorted();
    let reports = audit_all(&volumes);
    let mut orphans = find_orphans(volumes_dir, &volumes)?;
    if prune {
        if !yes {
            let list: Vec<String> = orphans
                .iter()
                .map(|o| o.path.display().to_string())
                .collect();
            return Err(Error::usage(format!(
                "--prune-orphans removes {} orphan(s) under {} ({}); add --yes to confirm",
                orphans.len(),
                volumes_dir.display(),
                if list.is_empty() {
                    "none".to_string()
                } else {
                    list.join(", ")
                }
            )));
        }
        for o in &mut orphans {
            let removed = prune_orphan(volumes_dir, &o.path);
            if let Err(e) = &removed {
                ctx.printer
                    .warn(format!("cannot remove orphan {}: {e}", o.path.display()));
            }
            o.pruned = Some(removed.is_ok());
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
        }
        ctx.printer.document_from(&Doc {
            ok: problems == 0,
            volumes_dir,
            volumes: Reports(&reports),
            orphans: &orphans,
        })?;
    } else {
        // Rows made as they are printed, cells borrowed from the reports.
        let volume_rows = reports.iter().flatten().map(|r| {
            let finding = if r.findings.is_empty() {
                (Cow::Borrowed("ok"), Style::Good)
            } else {
                (Cow::Owned(r.findings.join("; ")), Style::Bad)
            };
            vec![
                finding,
                (Cow::Borrowed(r.id), Style::Plain),
                (Cow::Borrowed(r.plugin), Style::Plain),
                (Cow::Borrowed(r.state), Style::Plain),
                (Cow::Owned(human(r.bytes_on_disk)), Style::Plain),
                (Cow::Owned(capacity(r.capacity_max)), Style::Plain),
                (Cow::Borrowed(r.path), Style::Plain),
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
                (o.path.to_string_lossy(), Style::Plain),
            ]
        });
        ctx.printer.table_from(
            &[
                "FINDING", "ID", "PLUGIN", "STATE", "ON DISK", "CAPACITY", "PATH",
            ],
            || volume_rows.clone().chain(orphan_rows.clone()),
        )?;
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
fn audit_all<'a>(volumes: &[&'a Volume]) -> Vec<Option<VolumeReport<'a>>> {
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
                    let report = audit_volume(v);
                    done.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(report);
                }
            });
        }
    });
    slots
}

fn audit_volume<'a>(v: &'a Volume) -> VolumeReport<'a> {
    let mut findings = Vec::new();
    match v.state {
        VolumeState::Ready => {}
        VolumeState::Pending | VolumeState::Deleting => {
            let op = if v.state == VolumeState::Pending {
                "create"
            } else {
                "delete"
            };
            findings.push(if v.in_progress() {
                format!("{op} running")
            } else {
                format!("{op} interrupted: `plugctl volume repair` settles it")
            });
        }
    }
    let bytes_on_disk = if v.path.is_empty() {
        None
    } else {
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
            Ok(_) => Some(disk_usage(Path::new(v.path.as_ref()))),
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

/// Allocated bytes under `root`, as `du -s` counts them: blocks of every
/// entry, each hard-linked inode once, symlinks not followed, one file system.
fn disk_usage(root: &Path) -> u64 {
    let mut seen = HashSet::new();
    let mut total = 0u64;
    for entry in WalkDir::new(root)
        .follow_links(false)
        .same_file_system(true)
        .into_iter()
        .flatten()
    {
        let Ok(meta) = entry.metadata() else { continue };
        if meta.nlink() > 1 && !meta.is_dir() && !seen.insert((meta.dev(), meta.ino())) {
            continue;
        }
        total += meta.blocks() * 512;
    }
    total
}

/// Direct entries of the volumes directory that no record's path is, or
/// contains. A missing volumes directory has no orphans.
fn find_orphans(volumes_dir: &Path, volumes: &[&Volume]) -> Result<Vec<Orphan>> {
    let rd = match fs::read_dir(volumes_dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(Error::usage(format!(
                "cannot read volumes directory {}: {e}",
                volumes_dir.display()
            )));
        }
    };
    // The entries of the volumes directory that records claim: a record
    // owns the entry its path names and the one its path lives inside (the
    // path's first component below the directory). A set, not a scan per
    // entry: 100,000 volumes against 100,000 entries.
    let claimed: std::collections::HashSet<&std::ffi::OsStr> = volumes
        .iter()
        .filter(|v| !v.path.is_empty())
        .filter_map(|v| {
            Path::new(v.path.as_ref())
                .strip_prefix(volumes_dir)
                .ok()?
                .components()
                .next()
                .map(|c| c.as_os_str())
        })
        .collect();
    let pending: std::collections::HashSet<&str> = volumes
        .iter()
        .filter(|v| v.state != VolumeState::Ready)
        .map(|v| v.id.as_ref())
        .collect();
    let mut out = Vec::new();
    for entry in rd {
        let entry =
            entry.map_err(|e| Error::io(format!("cannot read {}", volumes_dir.display()), e))?;
        let path = entry.path();
        let name = entry.file_name();
        if claimed.contains(name.as_os_str()) {
            continue;
        }
        // A pending create has no path yet; its directory is named by its id
        // (36 characters, maybe with an ending such as `.img`) by every
        // plugin plugctl ships, so it is not called an orphan.
        let name = name.to_string_lossy();
        if name.get(..36).is_some_and(|id| pending.contains(id)) {
            continue;
        }
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        let kind = if meta.file_type().is_symlink() {
            "symlink"
        } else if meta.is_dir() {
            "dir"
        } else if meta.is_file() {
            "file"
        } else {
            "special"
        };
        out.push(Orphan {
            bytes_on_disk: Some(disk_usage(&path)),
            path,
            kind,
            pruned: None,
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// Removes one orphan, only when it is a direct entry of the volumes
/// directory (checked again now, not trusted from the scan); a symlink is
/// removed itself, never what it points to.
fn prune_orphan(volumes_dir: &Path, path: &Path) -> io::Result<()> {
    if path.parent() != Some(volumes_dir) {
        return Err(io::Error::other(
            "not directly inside the volumes directory",
        ));
    }
    let meta = fs::symlink_metadata(path)?;
    if meta.is_dir() {
        // A mount point inside (a volume mounted and forgotten) would have
        // its file system emptied: such an orphan is left for a person.
        let dev = fs::symlink_metadata(volumes_dir)?.dev();
        let mounted = WalkDir::new(path)
            .follow_links(false)
            .into_iter()
            .flatten()
            .any(|e| e.metadata().is_ok_and(|m| m.is_dir() && m.dev() != dev));
        if mounted {
            return Err(io::Error::other(
                "it holds a mount point (another file system); unmount it first",
            ));
        }
        // std's remove_dir_all does not follow symlinks inside the tree.
        fs::remove_dir_all(path)
    } else {
        fs::remove_file(path)
    }
}

fn human(bytes: Option<u64>) -> String {
    bytes.map(|b| b.to_string()).unwrap_or_else(|| "-".into())
}

fn capacity(max: u64) -> String {
    if max == 0 {
        "-".into()
    } else {
        max.to_string()
    }
}

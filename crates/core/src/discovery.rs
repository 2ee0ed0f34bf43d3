//! Finding plugins, as Nomad does: one level of a family directory, dot-files
//! included; an entry is a plugin when it is not a directory and any execute
//! bit is set; its name is the file name. plugctl adds checks of its own,
//! on every release: names are validated and a symlink must stay inside its
//! directory. From 2.0.1 Nomad confines its host-volume lookup with Go's
//! `os.Root` (CVE-2026-7474), whose rules are stricter still (an absolute
//! link, or one that climbs above the directory on the way, is refused even
//! when it ends inside): [`os_root_refusal`] applies them for those
//! releases.

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::error::PluginFailure;
use crate::family::{Family, Operation};
use crate::nomad::{Change, Profile};
use crate::{Error, Result};

/// Plugins that Nomad implements itself; no file can shadow them.
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        family: Family::HostVolume,
        name: "mkdir",
        version: "0.0.1",
        runnable: true,
    },
    Builtin {
        family: Family::Secrets,
        name: "nomad",
        version: "1.0.0",
        runnable: false,
    },
    Builtin {
        family: Family::Secrets,
        name: "vault",
        version: "1.0.0",
        runnable: false,
    },
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Builtin {
    pub family: Family,
    pub name: &'static str,
    pub version: &'static str,
    /// plugctl can run it in-process (mkdir); nomad and vault need a cluster.
    pub runnable: bool,
}

impl Builtin {
    /// What a table says beside a built-in that plugctl cannot run itself,
    /// wherever it is shown (fingerprint, plugin list and show).
    pub fn note(&self) -> Option<&'static str> {
        (!self.runnable).then_some("built-in to Nomad; needs a Nomad cluster to run")
    }
}

pub fn builtin(family: &str, name: &str) -> Option<&'static Builtin> {
    BUILTINS
        .iter()
        .find(|b| b.family.is(family) && b.name == name)
}

/// One entry of a family directory, classified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub family: String,
    pub name: String,
    pub path: PathBuf,
    pub kind: EntryKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryKind {
    /// A plugin: an executable file, or a symlink to one inside the directory.
    Plugin,
    /// A Nomad built-in.
    Builtin(&'static Builtin),
    /// Would be a plugin but must not be run; the reason says why.
    Rejected(String),
    /// Not a plugin, as Nomad sees it (a directory, a file without an
    /// execute bit, a special file). Reported by `validate`, skipped elsewhere.
    Ignored(String),
}

/// The longest file name Linux allows, and so the longest plugin name.
pub const NAME_MAX: usize = 255;

/// A plugin name from a user or a directory. Names become path components,
/// so anything that could step out of a directory is refused.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        Err("empty name".into())
    } else if name == "." || name == ".." {
        Err(format!(
            "{name_q} is not a plugin name",
            name_q = crate::escape::quote(name)
        ))
    } else if name.contains('/') {
        Err(format!(
            "{name_q} contains '/'",
            name_q = crate::escape::quote(name)
        ))
    } else if name.contains('\0') {
        Err(format!(
            "{name_q} contains a NUL byte",
            name_q = crate::escape::quote(name)
        ))
    } else if name.chars().any(char::is_control) {
        // A name is shown in tables and messages and may become a file
        // name: a newline or an escape sequence has no business in it.
        Err(format!(
            "{name_q} contains a control character",
            name_q = crate::escape::quote(name)
        ))
    } else if name.len() > NAME_MAX {
        Err(format!(
            "a name of {} bytes is longer than a file name may be ({NAME_MAX})",
            name.len()
        ))
    } else {
        Ok(())
    }
}

/// Like [`check_name`], as a usage error.
pub fn require_name(what: &str, name: &str) -> Result<()> {
    check_name(name).map_err(|reason| Error::usage(format!("bad {what} name: {reason}")))
}

/// Where a node keeps its plugins: the common plugin directory (one
/// subdirectory per family: `secrets/`, and families Nomad does not know)
/// and the host-volume plugin directory, which Nomad keeps apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dirs {
    pub plugin_dir: PathBuf,
    pub host_volume_plugin_dir: PathBuf,
}

impl Dirs {
    /// The directory of one family's plugins.
    pub fn family_dir(&self, family: &str) -> PathBuf {
        if Family::HostVolume.is(family) {
            self.host_volume_plugin_dir.clone()
        } else {
            self.plugin_dir.join(family)
        }
    }
}

/// The families to look at: host-volume and secrets always (a missing
/// directory has no plugins), then every other subdirectory of the plugin
/// directory, sorted.
pub fn families(dirs: &Dirs) -> Result<Vec<(String, PathBuf)>> {
    let mut out = vec![
        (
            Family::HostVolume.name().to_string(),
            dirs.host_volume_plugin_dir.clone(),
        ),
        (
            Family::Secrets.name().to_string(),
            dirs.family_dir(Family::Secrets.name()),
        ),
    ];
    let mut others = Vec::new();
    match fs::read_dir(&dirs.plugin_dir) {
        Ok(rd) => {
            for entry in rd {
                let entry = entry.map_err(|e| dir_error(&dirs.plugin_dir, e))?;
                let Ok(name) = entry.file_name().into_string() else {
                    continue;
                };
                if Family::of(&name).is_some() || check_name(&name).is_err() {
                    continue;
                }
                if entry.path().is_dir() {
                    others.push((name, entry.path()));
                }
            }
        }
        // No plugin directory (or a file in its place, which
        // check_layout named): no other families.
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) => {}
        Err(e) => return Err(dir_error(&dirs.plugin_dir, e)),
    }
    others.sort();
    out.extend(others);
    Ok(out)
}

fn dir_error(dir: &Path, e: io::Error) -> Error {
    Error::usage(format!(
        "cannot read plugin directory {}: {e}",
        dir.display()
    ))
}

/// The built-ins of a family, as entries: all a directory that cannot be
/// read holds.
pub fn builtin_entries(family: &str) -> Vec<Entry> {
    BUILTINS
        .iter()
        .filter(|b| b.family.is(family))
        .map(|b| Entry {
            family: family.to_string(),
            name: b.name.to_string(),
            path: PathBuf::new(),
            kind: EntryKind::Builtin(b),
        })
        .collect()
}

/// The names a plugin of `family` may be asked for by: the family's
/// built-ins and every file name in `dir` (unclassified: for "did you
/// mean", never to run). A directory that cannot be read offers none.
pub fn names_in(family: &str, dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = BUILTINS
        .iter()
        .filter(|b| b.family.is(family))
        .map(|b| b.name.to_string())
        .collect();
    if let Ok(rd) = fs::read_dir(dir) {
        names.extend(
            rd.flatten()
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| check_name(n).is_ok()),
        );
    }
    names
}

/// Every entry of one family directory, plus the family's built-ins, sorted
/// by name. A missing directory means no plugins. One that is not a
/// directory (a file named `secrets`) or cannot be read holds no plugins
/// either, with a warning: Nomad's fingerprint warns ("error finding
/// secrets plugins") and still reports its built-in providers.
pub fn scan(family: &str, dir: &Path, profile: Profile) -> Result<Vec<Entry>> {
    let mut out = builtin_entries(family);
    let rd = match fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(out),
        Err(e) => {
            let why = if e.kind() == io::ErrorKind::NotADirectory {
                "is not a directory".to_string()
            } else {
                format!("cannot be read: {e}")
            };
            let only = if out.is_empty() {
                "none are listed"
            } else {
                "only the built-ins are listed"
            };
            tracing::warn!(
                "{family} plugin directory {} {why}: a Nomad client warns and finds no \
                 {family} plugins there; {only}",
                dir.display()
            );
            return Ok(out);
        }
    };
    // Canonical form of the directory, to confine symlinks to it.
    let canonical_dir = fs::canonicalize(dir).map_err(|e| dir_error(dir, e))?;
    for entry in rd {
        let entry = entry.map_err(|e| dir_error(dir, e))?;
        let path = entry.path();
        let name = match entry.file_name().into_string() {
            Ok(n) => n,
            Err(raw) => {
                // Named with its bytes escaped (`bad\xff`, as `--json`
                // shows its path); its path keeps the real name, which
                // tells [`Entry::recordable`] apart.
                out.push(Entry {
                    family: family.to_string(),
                    name: raw.as_encoded_bytes().escape_ascii().to_string(),
                    path,
                    kind: EntryKind::Rejected(
                        "the file name is not valid UTF-8: Nomad cannot report it and plugctl \
                         neither runs nor records it; rename it"
                            .into(),
                    ),
                });
                continue;
            }
        };
        if name.chars().any(char::is_control) {
            // Nomad would run it; plugctl shows it escaped and never runs or
            // records it: a registry name is shown in every table and
            // message, and a line break or an escape sequence in one could
            // forge a line of output (the registry refuses such a name on
            // load, so recording it would lock every later command out).
            // The name as it is: every view escapes it once, as every name
            // (`plugctl_core::escape`).
            out.push(Entry {
                family: family.to_string(),
                name: name.clone(),
                path,
                kind: EntryKind::Rejected(
                    "the file name contains a control character: Nomad would run it, but \
                     plugctl neither runs nor records it; rename it"
                        .into(),
                ),
            });
            continue;
        }
        let kind = if builtin(family, &name).is_some() {
            EntryKind::Ignored(format!(
                "shadowed by the built-in {family} plugin {name_q}, which Nomad always uses",
                name_q = crate::escape::quote(&name)
            ))
        } else if let Some(why) = Family::Secrets
            .is(family)
            .then(|| crate::verdict::stops_a_secrets_client(&name, &path))
            .flatten()
        {
            // What stops a Nomad client from starting is unhealthy in
            // every view, not a plugin among healthy ones.
            EntryKind::Rejected(why)
        } else {
            classify_in(family, dir, &name, &canonical_dir, profile)
        };
        out.push(Entry {
            family: family.to_string(),
            name,
            path,
            kind,
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// Decides whether one directory entry is a plugin.
pub fn classify(path: &Path, canonical_dir: &Path) -> EntryKind {
    classify_entry(path, canonical_dir).0
}

/// [`classify`], and whether the entry itself is a symlink (what the
/// release's confined lookup looks at; a plain file needs no second look).
fn classify_entry(path: &Path, canonical_dir: &Path) -> (EntryKind, bool) {
    let lmeta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) => return (EntryKind::Rejected(format!("cannot stat: {e}")), false),
    };
    let symlink = lmeta.file_type().is_symlink();
    (classify_meta(path, canonical_dir, lmeta), symlink)
}

fn classify_meta(path: &Path, canonical_dir: &Path, lmeta: fs::Metadata) -> EntryKind {
    let meta = if lmeta.file_type().is_symlink() {
        let target = match fs::canonicalize(path) {
            Ok(t) => t,
            Err(_) => {
                let to = fs::read_link(path)
                    .map(|t| t.display().to_string())
                    .unwrap_or_default();
                return EntryKind::Rejected(format!("broken symlink (to {to})"));
            }
        };
        if target.parent() != Some(canonical_dir) && !target.starts_with(canonical_dir) {
            return EntryKind::Rejected(format!(
                "symlink resolves to {}, outside its directory {}: plugctl never runs a plugin \
                 from outside its directory (its own rule, on every release)",
                target.display(),
                canonical_dir.display()
            ));
        }
        match fs::metadata(&target) {
            Ok(m) => m,
            Err(e) => return EntryKind::Rejected(format!("cannot stat symlink target: {e}")),
        }
    } else {
        lmeta
    };
    if meta.is_dir() {
        return EntryKind::Ignored("a directory".into());
    }
    if !meta.is_file() {
        // A FIFO, socket or device: plugctl never opens one (a FIFO blocks
        // a reader), and Nomad fails to run it: a plugin file that became
        // one is unhealthy, not gone.
        return EntryKind::Rejected(crate::verdict::not_regular(crate::verdict::special_kind(
            &meta,
        )));
    }
    if meta.permissions().mode() & 0o111 == 0 {
        return EntryKind::Ignored(crate::verdict::no_execute_bit(path));
    }
    EntryKind::Plugin
}

impl Entry {
    /// Whether a result of this entry may go into the registry: its name
    /// is the file's (a name that is not UTF-8 is only shown, escaped).
    pub fn recordable(&self) -> bool {
        match &self.kind {
            EntryKind::Builtin(_) => true,
            // A control character in a registry name would forge lines in
            // every view, and the registry refuses it on load.
            _ if self.name.chars().any(char::is_control) => false,
            _ => self
                .path
                .file_name()
                .is_some_and(|n| n.to_str() == Some(self.name.as_str())),
        }
    }
}

/// [`classify`], then what the release `profile` does
/// with a symlink: whether Nomad runs one plugctl refuses (said, so the
/// refusal is not mistaken for Nomad's), and, from 2.0.1, Go's `os.Root`
/// rules for a host-volume plugin.
pub fn classify_in(
    family: &str,
    dir: &Path,
    name: &str,
    canonical_dir: &Path,
    profile: Profile,
) -> EntryKind {
    let (kind, symlink) = classify_entry(&dir.join(name), canonical_dir);
    let host_volume = Family::HostVolume.is(family);
    let confined = host_volume && profile.has(Change::ConfinedLookup);
    let since = Profile::row(Change::ConfinedLookup).since_text();
    match kind {
        EntryKind::Rejected(why) if why.contains("outside its directory") => {
            let nomad = if !host_volume {
                format!(
                    "{profile} runs it: only its host-volume lookup is confined to the plugin \
                     directory"
                )
            } else if confined {
                format!("{profile} refuses it too (Go's os.Root, CVE-2026-7474; from {since})")
            } else {
                format!("{profile} runs it (CVE-2026-7474, fixed in {since})")
            };
            EntryKind::Rejected(format!("{why}; {nomad}"))
        }
        EntryKind::Rejected(_) | EntryKind::Ignored(_) | EntryKind::Builtin(_) => kind,
        // os.Root refuses only what a symlink leads to: a file is found.
        EntryKind::Plugin if !confined || !symlink => kind,
        EntryKind::Plugin => match os_root_refusal(dir, name) {
            Some(why) => EntryKind::Rejected(format!(
                "{profile} refuses it: its host-volume lookup resolves the name inside the \
                 plugin directory with Go's os.Root (from {since}, CVE-2026-7474), and {why}"
            )),
            None => kind,
        },
    }
}

/// The most symlinks Go's `os.Root` follows in one lookup.
const OS_ROOT_MAX_SYMLINKS: usize = 8;

/// Why Go's `os.Root` opened at `dir` would refuse to stat `name`
/// (`os/root.go`, `os/root_openat.go`), if it would: the path is resolved
/// one component at a time inside the root; a symlink's text is spliced in
/// where the link was, and an absolute one is refused outright; a `..`
/// that would step above the root is refused, wherever it comes from and
/// even if later components come back; more than 8 symlinks are refused.
/// `None` when the lookup stays inside (or fails for another reason, such
/// as a missing target, which is not a confinement).
pub fn os_root_refusal(dir: &Path, name: &str) -> Option<String> {
    let mut parts: Vec<String> = vec![name.to_string()];
    let mut i = 0;
    let mut symlinks = 0;
    loop {
        if parts[i] == ".." {
            let end = i + parts[i..].iter().take_while(|p| *p == "..").count();
            let count = end - i;
            if count > i {
                return Some(format!(
                    "resolving it climbs above the plugin directory ({}), which os.Root \
                     refuses even when the path comes back inside",
                    parts.join("/")
                ));
            }
            parts.drain(i - count..end);
            if parts.is_empty() {
                parts.push(".".into());
            }
            i = 0;
            continue;
        }
        let path = dir.join(parts[..=i].join("/"));
        let meta = fs::symlink_metadata(&path).ok()?;
        if meta.file_type().is_symlink() {
            symlinks += 1;
            if symlinks > OS_ROOT_MAX_SYMLINKS {
                return Some(format!(
                    "resolving it takes more than {OS_ROOT_MAX_SYMLINKS} symlinks, os.Root's \
                     limit"
                ));
            }
            let link = fs::read_link(&path).ok()?;
            let text = link.to_str()?;
            if text.starts_with('/') {
                return Some(format!(
                    "the symlink {} holds the absolute path {text_q}, which os.Root refuses \
                     even when it leads inside the directory",
                    path.display(),
                    text_q = crate::escape::quote(text)
                ));
            }
            let mut spliced: Vec<String> = parts[..i].to_vec();
            let components: Vec<&str> = text.split('/').filter(|c| !c.is_empty()).collect();
            for (n, c) in components.iter().enumerate() {
                // "." goes, except as the last component of all.
                if *c != "." || (n + 1 == components.len() && i + 1 == parts.len()) {
                    spliced.push((*c).to_string());
                }
            }
            spliced.extend(parts[i + 1..].iter().cloned());
            if spliced.is_empty() {
                spliced.push(".".into());
            }
            if spliced.len() < i || spliced[..i] != parts[..i] {
                i = 0;
            }
            parts = spliced;
            continue;
        }
        if i + 1 == parts.len() {
            return None;
        }
        if !meta.is_dir() {
            return None;
        }
        i += 1;
    }
}

/// The error for a plugin named on the command line that exists but is not a
/// plugin as Nomad sees it (an [`EntryKind::Ignored`] entry: no execute bit, a
/// directory): not found (exit 3, kind `not_found`), as Nomad would not find
/// it either, naming the plugin, the operation it was needed for, the path
/// and why. Every command says it alike.
pub fn not_a_plugin(entry: &Entry, reason: &str, operation: Operation) -> Error {
    Error::plugin(
        &entry.family,
        &entry.name,
        operation,
        PluginFailure::NotAPlugin {
            path: entry.path.clone(),
            reason: reason.to_string(),
        },
    )
}

/// Finds one plugin by family and name, for commands that run a single one.
/// A built-in wins over a file, as in Nomad.
pub fn find(family: &str, dir: &Path, name: &str, profile: Profile) -> Result<Entry> {
    require_name(&format!("{family} plugin"), name)?;
    if let Some(b) = builtin(family, name) {
        return Ok(Entry {
            family: family.into(),
            name: name.into(),
            path: PathBuf::new(),
            kind: EntryKind::Builtin(b),
        });
    }
    let path = dir.join(name);
    if fs::symlink_metadata(&path).is_err() {
        return Err(Error::NotFound {
            what: "plugin",
            name: format!("{family}/{name} (looked in {})", dir.display()),
        }
        .did_you_mean(name, names_in(family, dir)));
    }
    let canonical_dir = fs::canonicalize(dir).map_err(|e| dir_error(dir, e))?;
    Ok(Entry {
        family: family.into(),
        name: name.into(),
        kind: classify_in(family, dir, name, &canonical_dir, profile),
        path,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(check_name("ok-name.sh").is_ok());
        assert!(check_name(".hidden").is_ok());
        for bad in ["", ".", "..", "a/b", "../x", "a\0b"] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn classify_entries() {
        use std::os::unix::fs::symlink;
        let d = tempfile::tempdir().unwrap();
        let fam = d.path().join("fam");
        fs::create_dir(&fam).unwrap();
        let exe = fam.join("exe");
        fs::write(&exe, "#!/bin/sh\n").unwrap();
        fs::set_permissions(&exe, fs::Permissions::from_mode(0o700)).unwrap();
        fs::write(fam.join("plain"), "x").unwrap();
        fs::create_dir(fam.join("dir")).unwrap();
        let outside = d.path().join("outside");
        fs::write(&outside, "#!/bin/sh\n").unwrap();
        fs::set_permissions(&outside, fs::Permissions::from_mode(0o755)).unwrap();
        symlink(&outside, fam.join("escape")).unwrap();
        symlink("exe", fam.join("inside")).unwrap();
        symlink("nowhere", fam.join("broken")).unwrap();

        let entries = scan("fam", &fam, Profile::default()).unwrap();
        let kind = |n: &str| {
            entries
                .iter()
                .find(|e| e.name == n)
                .map(|e| e.kind.clone())
                .unwrap()
        };
        assert_eq!(kind("exe"), EntryKind::Plugin);
        assert_eq!(kind("inside"), EntryKind::Plugin);
        assert!(matches!(kind("plain"), EntryKind::Ignored(_)));
        assert!(matches!(kind("dir"), EntryKind::Ignored(_)));
        assert!(matches!(kind("escape"), EntryKind::Rejected(r) if r.contains("outside")));
        assert!(matches!(kind("broken"), EntryKind::Rejected(r) if r.contains("broken")));
        assert!(
            scan("fam", &d.path().join("missing"), Profile::default())
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn os_root_rules() {
        use std::os::unix::fs::symlink;
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("host-volume");
        fs::create_dir_all(dir.join("sub")).unwrap();
        fs::write(dir.join("real"), "#!/bin/sh\n").unwrap();
        fs::write(dir.join("sub/deep"), "#!/bin/sh\n").unwrap();
        let link = |name: &str, to: &str| symlink(to, dir.join(name)).unwrap();
        link("plain", "real");
        link("dotted", "./real");
        link("down-up", "sub/../real");
        link("into-sub", "sub/deep");
        link("absolute", dir.join("real").to_str().unwrap());
        link("climbs", "../host-volume/real");
        link("chain", "plain");
        link("chain-climbs", "climbs");
        link("sub-climbs", "sub/../../host-volume/real");
        link("missing", "nowhere");
        for ok in [
            "real", "plain", "dotted", "down-up", "into-sub", "chain", "missing",
        ] {
            assert_eq!(os_root_refusal(&dir, ok), None, "{ok}");
        }
        let why = |name: &str| os_root_refusal(&dir, name).unwrap_or_else(|| panic!("{name}"));
        assert!(why("absolute").contains("absolute path"));
        for climbing in ["climbs", "chain-climbs", "sub-climbs"] {
            assert!(why(climbing).contains("climbs above"), "{climbing}");
        }
        // A loop of links stops at os.Root's limit.
        link("loop-a", "loop-b");
        link("loop-b", "loop-a");
        assert!(why("loop-a").contains("more than 8 symlinks"));
    }
}

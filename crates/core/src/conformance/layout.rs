//! Layout checks (what an entry is, where it is) and the Nomad traps (names
//! that a Nomad client treats specially). Each function is one check.

use std::ffi::OsString;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use super::Verdict;
use super::subject::{Link, Subject};
use crate::family::Family;
use crate::nomad::{Change, Profile};

/// `layout.stray-file` (info): a file at the top of the plugin directory is
/// in no family, so nothing ever runs it.
pub fn stray_files(root: &Path, names: &[OsString]) -> Verdict {
    let issues = names
        .iter()
        .filter(|n| !root.join(n).is_dir())
        // The sandbox policy file belongs there, beside the plugins.
        .filter(|n| *n != crate::sandbox::policy::POLICY_FILE_NAME)
        .map(|n| {
            (
                super::Severity::Info,
                format!(
                    "{} is not in a family directory, so no one runs it; plugins go in \
                     host-volume/, secrets/ or another family's directory",
                    root.join(n).display()
                ),
            )
        })
        .collect();
    Verdict::Issues(issues)
}

/// `layout.unknown-family` (info): a directory that is neither
/// `host-volume` nor `secrets`.
pub fn unknown_family(family: &str, dir: &Path) -> Verdict {
    if Family::of(family).is_some() {
        return Verdict::pass();
    }
    Verdict::info(format!(
        "{} is not a family Nomad knows (host-volume, secrets): Nomad never runs its \
         plugins; plugctl fingerprints them with CPI_OPERATION=fingerprint. Rename the \
         directory if it was meant to be one of those",
        dir.display()
    ))
}

/// `layout.family-not-directory` (error): `host-volume` or `secrets` is
/// there but is not a directory (a file, a symlink to one, a broken
/// symlink): `plugctl fingerprint` and Nomad cannot read plugins from it.
/// Nothing there is fine (no plugins); other families are directories by
/// the way they are found. `set_apart`: the host-volume directory comes from
/// --host-volume-plugin-dir (or its variable), not from the plugin directory.
pub fn family_not_directory(family: &str, dir: &Path, set_apart: bool) -> Verdict {
    if Family::of(family).is_none() {
        return Verdict::NotApplicable;
    }
    let Ok(lmeta) = fs::symlink_metadata(dir) else {
        return Verdict::NotApplicable;
    };
    if dir.is_dir() {
        return Verdict::pass();
    }
    let what = if lmeta.file_type().is_symlink() {
        let to = fs::read_link(dir).unwrap_or_default();
        if fs::metadata(dir).is_ok() {
            format!("a symlink to {}, which is not a directory", to.display())
        } else {
            format!("a symlink to {}, which does not resolve", to.display())
        }
    } else if lmeta.is_file() {
        "a file, not a directory".to_string()
    } else {
        "a special file (FIFO, socket or device), not a directory".to_string()
    };
    let unreadable = format!(
        "{} is {what}: a Nomad client warns and finds no {family} plugins there (plugctl \
         fingerprint does the same: the built-ins alone are listed)",
        dir.display()
    );
    if set_apart {
        // Where it is set is the front end's to say.
        return Verdict::error(unreadable).hint(crate::error::Hint::HostVolumePluginDir);
    }
    Verdict::error(format!(
        "{unreadable}; replace it with a directory (or a symlink to one) that holds the \
         {family} plugins, or remove it"
    ))
}

/// `layout.bad-name` (error): a name that is not UTF-8 (a name with `/` or
/// equal to `.`/`..` cannot come out of a directory listing).
pub fn bad_name(s: &Subject) -> Verdict {
    if s.utf8_name {
        Verdict::pass()
    } else {
        Verdict::error(format!(
            "the file name {} is not valid UTF-8: plugctl refuses to run it and Nomad \
             cannot report it; rename it",
            crate::escape::quote_os(&s.name)
        ))
    }
}

/// `layout.broken-symlink` (error).
pub fn broken_symlink(s: &Subject) -> Verdict {
    match &s.link {
        Some(Link::Broken(to)) => Verdict::error(format!(
            "symlink to {} does not resolve: point it at an existing plugin inside {}, or \
             remove it",
            to.display(),
            parent(&s.path)
        )),
        _ => Verdict::pass(),
    }
}

/// `layout.symlink-escapes` (error): a symlink resolving outside its family
/// directory. plugctl refuses it on every release (its own rule); what
/// Nomad does depends on the family and, for host volumes, on the release
/// in force (CVE-2026-7474: confined from 2.0.1).
pub fn symlink_escapes(s: &Subject, profile: Profile) -> Verdict {
    let Some(Link::Escapes(target)) = &s.link else {
        return Verdict::pass();
    };
    let since = Profile::row(Change::ConfinedLookup).since_text();
    let nomad = if !Family::HostVolume.is(&s.family) {
        format!(
            "{profile} runs it (only its host-volume lookup is confined to the plugin \
             directory)"
        )
    } else if profile.has(Change::ConfinedLookup) {
        format!("{profile} refuses it too (Go's os.Root, CVE-2026-7474; from {since})")
    } else {
        format!("{profile} runs it (CVE-2026-7474; Nomad refuses it from {since})")
    };
    Verdict::error(format!(
        "symlink resolves to {}, outside {}: plugctl refuses it on every release (its own \
         rule); {nomad}; copy the plugin into the directory instead",
        target.display(),
        parent(&s.path)
    ))
}

/// `nomad.os-root` (host volumes): a symlink that resolves inside the
/// plugin directory but that Go's `os.Root` refuses (an absolute link, or
/// one that climbs above the directory on the way): Nomad 2.0.1+ does not
/// find the plugin. An error when the release in force is one of those, a
/// warning (it breaks on upgrade) otherwise.
pub fn os_root(s: &Subject, profile: Profile) -> Verdict {
    if !Family::HostVolume.is(&s.family) {
        return Verdict::NotApplicable;
    }
    let Some(why) = &s.os_root else {
        return Verdict::pass();
    };
    let since = Profile::row(Change::ConfinedLookup).since_text();
    let fix = "make it a relative link that stays inside (e.g. `ln -sf real-name link-name` \
               in the directory), or copy the plugin";
    if profile.has(Change::ConfinedLookup) {
        Verdict::error(format!(
            "{profile} does not find this plugin: its lookup resolves the name with Go's \
             os.Root (from {since}, CVE-2026-7474), and {why}; {fix}"
        ))
    } else {
        Verdict::warning(format!(
            "{profile} runs it, but Nomad {since} and later do not find it: their lookup \
             resolves the name with Go's os.Root (CVE-2026-7474), and {why}; {fix}"
        ))
    }
}

/// `nomad.secrets-symlink` (error, secrets): a symlink in `secrets/` to
/// something that is not an executable file. Nomad's discovery lists it
/// (a symlink's own mode has every execute bit), then stats its target to
/// make the plugin, and an error there ends the secrets fingerprinter: a
/// Nomad 1.11+ client does not start ("fingerprinting failed").
pub fn secrets_symlink(s: &Subject) -> Verdict {
    if !Family::Secrets.is(&s.family) {
        return Verdict::NotApplicable;
    }
    let what = match (&s.link, &s.meta) {
        (None, _) | (Some(Link::Escapes(_)), _) => return Verdict::pass(),
        (Some(Link::Broken(to)), _) => format!("{}, which does not exist", to.display()),
        (Some(_), Some(m)) if m.is_dir() => "a directory".to_string(),
        (Some(_), Some(m)) if m.permissions().mode() & 0o111 == 0 => {
            "a file without an execute bit".to_string()
        }
        _ => return Verdict::pass(),
    };
    Verdict::error(crate::verdict::secrets_link(&s.path, &what))
}

/// A secrets symlink [`secrets_symlink`] reports, which the generic checks
/// must not call harmless.
fn stops_a_secrets_client(s: &Subject) -> bool {
    secrets_symlink(s).has_error()
}

/// `layout.directory` (warning): discovery does not recurse.
pub fn directory(s: &Subject) -> Verdict {
    if s.is_file() || !s.meta.as_ref().is_some_and(|m| m.is_dir()) || stops_a_secrets_client(s) {
        return Verdict::pass();
    }
    Verdict::warning(format!(
        "{} is a directory: Nomad looks only one level deep and ignores it; move the \
         plugin executable itself into {}",
        s.path.display(),
        parent(&s.path)
    ))
}

/// `layout.special-file` (error): a FIFO, socket or device, which
/// `fingerprint` lists unhealthy (plugctl never opens one).
pub fn special_file(s: &Subject) -> Verdict {
    let Some(m) = &s.meta else {
        return Verdict::pass();
    };
    let ft = m.file_type();
    if ft.is_file() || ft.is_dir() {
        return Verdict::pass();
    }
    Verdict::error(format!(
        "{}: {} is not a plugin (Nomad ignores it, or fails to run it if an execute bit is \
         set); remove it from the plugin directory",
        crate::verdict::not_regular(crate::verdict::special_kind(m)),
        s.path.display()
    ))
}

/// `layout.not-executable`: Nomad skips files without an execute bit,
/// silently. A warning for a file nobody knows (a stray README); an error
/// for a plugin the registry knows, which `fingerprint` records unhealthy
/// for it (`known`).
pub fn not_executable(s: &Subject, known: bool) -> Verdict {
    if !s.is_file() || s.mode() & 0o111 != 0 || stops_a_secrets_client(s) {
        return Verdict::pass();
    }
    if known {
        return Verdict::error(format!(
            "{}; it is a plugin plugctl fingerprinted before",
            crate::verdict::no_execute_bit(&s.path)
        ));
    }
    Verdict::warning(format!(
        "{} has no execute bit, so Nomad silently ignores it; run `chmod 0755 {}` if it \
         is a plugin, or move it out of the plugin directory",
        s.path.display(),
        crate::provenance::shell_path(&s.path)
    ))
}

/// `nomad.shadows-builtin` (error): a file named like a built-in never runs.
pub fn shadows_builtin(s: &Subject) -> Verdict {
    match s.shadowed() {
        Some(b) => Verdict::error(format!(
            "{} is the name of a Nomad built-in {} plugin: Nomad always uses the \
             built-in and never runs this file; rename it (e.g. {}-local)",
            crate::escape::quote_os(b.name),
            b.family,
            b.name
        )),
        None => Verdict::pass(),
    }
}

/// `nomad.exe-in-secrets` (error): on Linux a Nomad client fails to start
/// when `secrets/` holds a `*.exe` file.
pub fn exe_in_secrets(s: &Subject) -> Verdict {
    if !Family::Secrets.is(&s.family) {
        return Verdict::NotApplicable;
    }
    match crate::verdict::exe_in_secrets(&s.name) {
        Some(why) => Verdict::error(why),
        None => Verdict::pass(),
    }
}

fn parent(p: &Path) -> String {
    p.parent()
        .map(|d| d.display().to_string())
        .unwrap_or_default()
}

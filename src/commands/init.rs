//! `plugctl init TYPE NAME [--dir DIR] [--lang sh|python]`: scaffolds a
//! plugin that already passes `plugctl validate --strict` and `plugctl test`,
//! from one of the templates under `src/templates/` (compiled in).
//!
//! The new file goes to `<DIR>/<NAME>`, or `./<TYPE>/<NAME>` (the current
//! directory as a plugin directory, as `cargo init` makes it a package;
//! `./<NAME>` when the current directory is a `<TYPE>` directory already);
//! an existing file is never overwritten. The only
//! thing substituted into a template is the name, in comment lines.

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::Ctx;
use plugctl_core::trust::CheckedDir;

use crate::cli::{InitArgs, InitLang};
use crate::{Error, Result};
use plugctl_core::discovery;
use plugctl_core::family::Family;

/// The plugin file's mode: executable by all, writable by its owner only
/// (`validate` flags group- or world-writable plugins: a Nomad client runs
/// them as root).
const FILE_MODE: u32 = 0o755;
/// Directories `init` creates (less the umask: never more open than this).
const DIR_MODE: u32 = 0o755;

/// What a template holds in place of the plugin's name.
const NAME_PLACEHOLDER: &str = "{{NAME}}";

/// The template for one family and language.
pub fn template(family: Family, lang: InitLang) -> &'static str {
    match (family, lang) {
        (Family::HostVolume, InitLang::Sh) => include_str!("../templates/host-volume.sh"),
        (Family::HostVolume, InitLang::Python) => include_str!("../templates/host-volume.py"),
        (Family::Secrets, InitLang::Sh) => include_str!("../templates/secrets.sh"),
        (Family::Secrets, InitLang::Python) => include_str!("../templates/secrets.py"),
    }
}

/// `sh` / `python`, as `--lang` spells it.
pub fn lang_name(lang: InitLang) -> &'static str {
    match lang {
        InitLang::Sh => "sh",
        InitLang::Python => "python",
    }
}

fn lang_label(lang: InitLang) -> &'static str {
    match lang {
        InitLang::Sh => "POSIX sh",
        InitLang::Python => "Python 3",
    }
}

/// The template with `name` in its header. The name sits in comment lines
/// only (from line 3 on, where Python never looks for a `coding:`
/// declaration), so it just has to stay on one line: control characters
/// and the Unicode line and paragraph separators are written escaped.
pub fn render(template: &str, name: &str) -> String {
    template.replace(NAME_PLACEHOLDER, &comment_safe(name))
}

fn comment_safe(name: &str) -> String {
    name.chars()
        .flat_map(|c| {
            if c.is_control() || c == '\u{2028}' || c == '\u{2029}' {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect()
}

pub fn run(ctx: &Ctx, args: InitArgs) -> Result<()> {
    let Some(family) = Family::of(&args.family) else {
        return Err(Error::usage(format!(
            "unknown plugin type {}: init knows {} and {}",
            plugctl_core::escape::quote_os(&args.family),
            Family::HostVolume,
            Family::Secrets
        )));
    };
    let name = args.name.as_str();
    discovery::require_name("plugin", name)?;
    if family == Family::Secrets && name.to_ascii_lowercase().ends_with(".exe") {
        return Err(Error::usage(format!(
            "a secrets plugin named {name_q} would break Nomad on Linux: a file ending in .exe \
             in secrets/ makes the whole family's fingerprint fail; choose another name",
            name_q = plugctl_core::escape::quote(name)
        )));
    }
    if let Some(b) = discovery::builtin(family.name(), name) {
        ctx.printer.warn(format!(
            "{family} plugin {name_q} would shadow Nomad's built-in {} (version {}): \
             Nomad always runs its built-in and never a file of that name",
            plugctl_core::escape::quote_os(b.name),
            b.version,
            name_q = plugctl_core::escape::quote(name)
        ));
        return Err(Error::usage(format!(
            "refusing to create {family} plugin {name_q}: the name belongs to a Nomad \
             built-in; choose another name",
            name_q = plugctl_core::escape::quote(name)
        )));
    }
    let template = template(family, args.lang);

    let dir = match &args.dir {
        Some(d) => std::path::absolute(d)
            .map_err(|e| Error::usage(format!("bad directory {}: {e}", d.display())))?,
        // As `cargo init` makes the current directory the package, the
        // current directory becomes the plugin directory (its <TYPE>/, or
        // itself when it is one already): an author's plugin never lands
        // in a node's plugin directory unless --dir says so.
        None => {
            let cwd = std::env::current_dir()
                .map_err(|e| Error::io("cannot find the current directory", e))?;
            if cwd.file_name().is_some_and(|n| n == family.name()) {
                cwd
            } else {
                cwd.join(family.name())
            }
        }
    };
    let path = dir.join(name);
    // Through the trust gate: a family directory planted as a symlink (or
    // one another user controls) in a shared directory never makes root
    // write a program elsewhere; the file is created exclusively in the
    // directory the gate judged.
    let checked = CheckedDir::create_all(ctx.settings.policy(), &dir, DIR_MODE).map_err(|r| {
        Error::refused(
            format_args!("cannot use the directory {}", dir.display()),
            &r,
        )
    })?;
    write_new(&checked, name, &path, render(template, name).as_bytes())?;
    let policy = add_policy(ctx, family, name, &dir)?;

    let p = &ctx.printer;
    if p.json {
        p.document(json!({
            "path": path,
            "type": family.name(),
            "name": name,
            "lang": lang_name(args.lang),
            "policy_file": policy,
        }))?;
    } else {
        p.text(&format!("{}\n", path.display()))?;
    }
    p.info(format!(
        "created {family} plugin {name_q} ({}) at {}",
        lang_label(args.lang),
        path.display(),
        name_q = plugctl_core::escape::quote(name)
    ));
    if let Some(policy) = &policy {
        p.info(format!(
            "its sandbox policy is in {}: it grants nothing beyond --sandbox strict (the \
             template needs nothing more)",
            policy.display()
        ));
    }
    for line in next_steps(ctx, family, name, &dir) {
        p.info(line);
    }
    Ok(())
}

/// Gives the new plugin its sandbox policy, granting nothing beyond
/// strict (the templates need no more), in the policy file of the plugin
/// directory `dir` belongs to (its parent, when `dir` is the family's
/// directory); an entry already there is kept. The file is read and
/// replaced through the trust gate. None when `dir` is not a family
/// directory: there is no plugin directory to put it in.
fn add_policy(ctx: &Ctx, family: Family, name: &str, dir: &Path) -> Result<Option<PathBuf>> {
    use plugctl_core::sandbox::{Policy, PolicyFile, policy};
    let Some(root) = dir
        .parent()
        .filter(|_| dir.file_name().is_some_and(|n| n == family.name()))
    else {
        return Ok(None);
    };
    let path = root.join(policy::POLICY_FILE_NAME);
    let mut file = PolicyFile::load(&path, ctx.settings.policy())?.unwrap_or_default();
    file.plugins
        .entry(format!("{family}/{name}"))
        .or_insert_with(Policy::default);
    file.save(&path, ctx.settings.policy())?;
    Ok(Some(path))
}

fn exists(path: &Path) -> Error {
    Error::usage(format!(
        "{} already exists; not overwriting it (remove it, or choose another name or --dir)",
        path.display()
    ))
}

/// Creates `path` (never replacing anything, not even a dangling symlink)
/// with mode 0755 whatever the umask; removes it again if writing fails.
fn write_new(dir: &CheckedDir, name: &str, path: &Path, bytes: &[u8]) -> Result<()> {
    let mut file = dir
        .create_new(name, FILE_MODE)
        .map_err(|r| match r.io_error() {
            Some(e) if e.kind() == io::ErrorKind::AlreadyExists => exists(path),
            _ => Error::usage(format!("cannot create {}: {r}", path.display())),
        })?;
    let written = file
        .write_all(bytes)
        .and_then(|()| file.set_permissions(fs::Permissions::from_mode(FILE_MODE)))
        .and_then(|()| file.sync_all());
    drop(file);
    written.map_err(|e| {
        let _ = dir.unlink(name);
        Error::io(format!("cannot write {}", path.display()), e)
    })
}

/// What to do next, as commands that work as printed: validate takes the
/// plugin directory (the parent of the family directories), test finds the
/// plugin through `--plugin-dir` (or `--host-volume-plugin-dir`).
fn next_steps(ctx: &Ctx, family: Family, name: &str, dir: &Path) -> Vec<String> {
    let mut out = vec![
        "next steps:".to_string(),
        "  edit it: the comments in the file explain each operation and the protocol's rules"
            .to_string(),
    ];
    let root: Option<PathBuf> = match dir.parent() {
        Some(parent) if dir.file_name().is_some_and(|n| n == family.name()) => Some(parent.into()),
        _ => None,
    };
    let locate = match (&root, family) {
        (Some(root), _) => format!("--plugin-dir {}", sh_quote(&root.to_string_lossy())),
        (None, Family::HostVolume) => {
            format!(
                "--host-volume-plugin-dir {}",
                sh_quote(&dir.to_string_lossy())
            )
        }
        (None, _) => {
            out.push(format!(
                "  move it to <plugin-dir>/{family}/: plugctl and Nomad look for {family} \
                 plugins there, not in {}",
                dir.display()
            ));
            format!(
                "--plugin-dir {}",
                sh_quote(&ctx.settings.plugin_dir.to_string_lossy())
            )
        }
    };
    let validate_dir = root.as_deref().unwrap_or(&ctx.settings.plugin_dir);
    out.push(format!(
        "  plugctl validate --strict {}",
        sh_quote(&validate_dir.to_string_lossy())
    ));
    let test = format!("plugctl {locate} test {family} {}", sh_quote(name));
    if family == Family::Secrets {
        // A store of its own, made new by mktemp: one under the working
        // directory (`store/app/db.env`) is whatever another user put
        // there when it is theirs or /tmp, and the operator's shell, as
        // root, wrote through their link.
        out.push(
            "  store=$(mktemp -d) && mkdir \"$store/app\" && echo USER=admin > \"$store/app/db.env\""
                .to_string(),
        );
        out.push(format!(
            "  {test} --path app/db --env SECRETS_DIR=\"$store\""
        ));
    } else {
        out.push(format!("  {test}"));
    }
    out
}

/// `s` as one shell word: as it is when that is safe, else single-quoted.
fn sh_quote(s: &str) -> String {
    let safe = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:@%+=,".contains(c));
    if safe {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_has_a_name_slot_after_line_two() {
        for family in Family::ALL {
            for lang in [InitLang::Sh, InitLang::Python] {
                let t = template(family, lang);
                assert!(t.contains(NAME_PLACEHOLDER), "{family} {lang:?}");
                let first_two: String = t.lines().take(2).collect();
                assert!(!first_two.contains(NAME_PLACEHOLDER), "{family} {lang:?}");
                assert!(t.starts_with("#!/"), "{family} {lang:?}");
            }
        }
    }

    #[test]
    fn the_name_stays_on_its_comment_line() {
        let t = "#!/bin/sh\n# x\n# Plugin: {{NAME}}\necho\n";
        let out = render(t, "a\nrm -rf /\r\u{2028}b");
        assert_eq!(out.lines().count(), 4, "{out}");
        assert!(
            out.contains("# Plugin: a\\nrm -rf /\\r\\u{2028}b\n"),
            "{out}"
        );
        // One pass: a name that looks like the placeholder is not expanded again.
        assert_eq!(render(t, "{{NAME}}"), t);
    }

    #[test]
    fn shell_words() {
        assert_eq!(sh_quote("/tmp/plugins"), "/tmp/plugins");
        assert_eq!(sh_quote("a b"), "'a b'");
        assert_eq!(sh_quote("it's"), r"'it'\''s'");
        assert_eq!(sh_quote(""), "''");
    }
}

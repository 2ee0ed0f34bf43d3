//! Whether a plugin file may be run: like sudo and OpenSSH, plugctl (often
//! root) runs a program only when nobody but root or the invoking user could
//! have put it there. The file (after a symlink) and every directory from
//! it up to `/` must belong to root or the invoking user and must not be
//! writable by group or others — except a sticky directory such as `/tmp`,
//! where others may create files but not replace ours. Checked at run time
//! for every call, not only by `validate`; `--allow-insecure-paths` is the
//! one override.

use std::collections::HashMap;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Checks plugin paths, remembering directories already found fine (every
/// plugin of a family shares them).
#[derive(Debug, Default)]
pub struct Trust {
    dirs: Mutex<HashMap<PathBuf, Result<(), String>>>,
}

impl Trust {
    /// `Err(reason)`: do not run it; the reason names the path, what is wrong
    /// and how to fix it.
    pub fn check(&self, program: &Path) -> Result<(), String> {
        let real = match std::fs::canonicalize(program) {
            Ok(r) => r,
            // Gone (or a broken link): exec will say so in its own words.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(format!("cannot resolve {}: {e}", program.display())),
        };
        let meta =
            std::fs::metadata(&real).map_err(|e| format!("cannot stat {}: {e}", real.display()))?;
        judge(&real, &meta, false)?;
        let mut dir = real.parent();
        while let Some(d) = dir {
            let cached = self
                .dirs
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(d)
                .cloned();
            let verdict = match cached {
                Some(v) => v,
                None => {
                    let v = std::fs::metadata(d)
                        .map_err(|e| format!("cannot stat {}: {e}", d.display()))
                        .and_then(|m| judge(d, &m, true));
                    self.dirs
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .insert(d.to_path_buf(), v.clone());
                    v
                }
            };
            verdict?;
            dir = d.parent();
        }
        Ok(())
    }
}

fn judge(path: &Path, meta: &std::fs::Metadata, is_dir: bool) -> Result<(), String> {
    let me = nix::unistd::geteuid().as_raw();
    let what = if is_dir { "directory" } else { "file" };
    if meta.uid() != 0 && meta.uid() != me {
        return Err(format!(
            "not run: its {what} {} belongs to uid {}, and only root{} may own what plugctl \
             runs (fix: chown root {}, or --allow-insecure-paths on a lab machine)",
            path.display(),
            meta.uid(),
            if me == 0 {
                String::new()
            } else {
                format!(" or uid {me}")
            },
            path.display()
        ));
    }
    let mode = meta.permissions().mode();
    let sticky = is_dir && mode & 0o1000 != 0;
    if mode & 0o022 != 0 && !sticky {
        let who = match (mode & 0o020 != 0, mode & 0o002 != 0) {
            (true, true) => "group and others",
            (true, false) => "its group",
            _ => "others",
        };
        return Err(format!(
            "not run: its {what} {} is writable by {who} (mode {:04o}), so anyone there could \
             replace what runs as uid {me} (fix: chmod go-w {}, or --allow-insecure-paths on a \
             lab machine)",
            path.display(),
            mode & 0o7777,
            path.display()
        ));
    }
    Ok(())
}

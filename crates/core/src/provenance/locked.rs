//! `--locked`: a plugin runs only if it is the file `plugctl pin` wrote
//! down. The file is hashed through one open descriptor, and the identity of
//! that descriptor's file (device, inode, size, times) is checked again in
//! the child just before exec, so a file swapped or edited between the hash
//! and the exec is not run. The plugin still sees its own path as `$0`, as on
//! a Nomad node. Without `--locked`, a lock file that disagrees is a warning.

use std::collections::HashSet;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::Call;
use crate::error::{Advised, Hint};
use crate::identity::{FileIdentity, Interpreted, Verified};
use crate::pin::{LockFile, Pin, Pinner, Runs};
use crate::runner::Invocation;
use crate::trust::program::EnvRuns;
use crate::{Error, Result};

#[derive(Debug)]
pub struct Pins {
    lock: LockFile,
    path: PathBuf,
    enforce: bool,
    /// Plugins already warned about (a fingerprint and a create of the same
    /// plugin warn once).
    warned: Mutex<HashSet<(String, String)>>,
    /// Hashes what is checked (each interpreter once for all calls).
    pinner: Pinner,
    /// The sandbox policies in force, each held to its pinned digest.
    policies: crate::sandbox::PolicyFile,
}

impl Pins {
    /// The lock file to check calls against: required with `--locked`,
    /// used for warnings when it merely exists.
    pub fn load(path: &Path, enforce: bool, policy: crate::trust::Policy) -> Result<Option<Pins>> {
        let loaded = match LockFile::load(path, policy) {
            // Without `--locked` a lock file only adds warnings: one plugctl
            // cannot trust (its directory or itself another user's) is not
            // read, and the command goes on — the plugins in such a
            // directory are refused by the gate, each as it is run, which
            // is the answer the operator needs. A missing one is no news.
            Err(Error::Hinted {
                error,
                hint: Hint::AllowInsecurePaths,
            }) if !enforce => {
                if std::fs::symlink_metadata(path).is_ok() {
                    tracing::warn!("{error}; its pins are not checked");
                }
                return Ok(None);
            }
            other => other?,
        };
        match loaded {
            None if enforce => Err(Error::usage(format!(
                "there is no lock file at {}",
                path.display()
            ))
            .hint(Hint::LockFile)),
            None => Ok(None),
            Some(lock) => Ok(Some(Pins {
                lock,
                path: path.to_path_buf(),
                enforce,
                warned: Mutex::new(HashSet::new()),
                pinner: Pinner::default(),
                policies: crate::sandbox::PolicyFile::default(),
            })),
        }
    }

    /// Holds each plugin's sandbox policy to the digest its pin recorded.
    pub fn with_policies(mut self, policies: crate::sandbox::PolicyFile) -> Pins {
        self.policies = policies;
        self
    }
}

impl crate::runner::Gate for Pins {
    /// Checks the file `exec_path` names against its pin. `Ok(Some(id))`:
    /// run it, and only if it is still `id` at exec. `Ok(None)`: run it
    /// unchecked (not enforcing). `Err(reason)`: do not run it.
    fn admit(
        &self,
        inv: &Invocation,
        exec_path: &Path,
    ) -> std::result::Result<Option<Verified>, Advised> {
        let Some(call) = Call::infer(inv) else {
            return Err(format!(
                "{} is not called with an operation plugctl knows",
                inv.program.display()
            )
            .into());
        };
        let pinned = self
            .lock
            .plugins
            .iter()
            .find(|p| p.family == call.family && p.name == call.name);
        let verdict = match pinned {
            None => Err(Advised::new(
                format!("not pinned in {}", self.path.display()),
                Hint::Pin {
                    family: call.family.to_string(),
                    name: call.name.clone(),
                },
            )),
            // Both hashes are in the reason; what accepts the new file:
            Some(pin) => compare(&self.pinner, pin, &call, exec_path, inv)
                .and_then(|id| {
                    let now = self
                        .policies
                        .get(&call.family, &call.name)
                        .map(crate::sandbox::policy::digest);
                    same_policy(pin, now.as_deref()).map(|()| id)
                })
                .map_err(|reason| {
                    Advised::new(
                        reason,
                        Hint::Repin {
                            family: call.family.to_string(),
                            name: call.name.clone(),
                        },
                    )
                }),
        };
        match verdict {
            Ok(id) if self.enforce => Ok(Some(id)),
            Ok(_) => Ok(None),
            Err(reason) if self.enforce => Err(reason),
            Err(reason) => {
                let key = (call.family.clone(), call.name.clone());
                if self
                    .warned
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(key)
                {
                    // The front end words each hint after the message:
                    // the reason's, then that it was not enforced.
                    tracing::warn!(
                        hint = reason.hint.as_ref().and_then(Hint::event_kind),
                        family = call.family.to_string().as_str(),
                        name = call.name.as_str(),
                        then = Hint::Locked.event_kind(),
                        "{} plugin {}: {}",
                        call.family,
                        crate::escape::quote_os(&call.name),
                        reason.message
                    );
                }
                Ok(None)
            }
        }
    }
}

/// Whether the plugin's sandbox policy is the one pinned with it.
fn same_policy(pin: &Pin, now: Option<&str>) -> std::result::Result<(), String> {
    if pin.policy.as_deref() == now {
        return Ok(());
    }
    let short = |d: Option<&str>| match d {
        Some(d) => format!("sha256 {}…", &d[..d.len().min(12)]),
        None => "none".to_string(),
    };
    Err(format!(
        "its sandbox policy changed since it was pinned: {} ≠ pinned {}",
        short(now),
        short(pin.policy.as_deref())
    ))
}

fn compare(
    pinner: &Pinner,
    pin: &Pin,
    call: &Call,
    exec_path: &Path,
    inv: &Invocation,
) -> std::result::Result<Verified, String> {
    let file =
        File::open(exec_path).map_err(|e| format!("cannot read it to check its pin: {e}"))?;
    let before = file
        .metadata()
        .map_err(|e| format!("cannot stat it to check its pin: {e}"))?;
    let identity = FileIdentity::of(&before);
    let dup = file
        .try_clone()
        .map_err(|e| format!("cannot read it to check its pin: {e}"))?;
    let (now, runs) = pinner
        .pin_for_exec(
            &call.family,
            &call.name,
            dup,
            None,
            crate::trust::program::path_of(&inv.env),
        )
        .map_err(|e| format!("cannot read it to check its pin: {e}"))?;
    let after = file
        .metadata()
        .map_err(|e| format!("cannot stat it to check its pin: {e}"))?;
    if FileIdentity::of(&after) != identity {
        return Err("drifted: the file changed while it was being hashed".into());
    }
    if now.sha256 != pin.sha256 || now.size != pin.size {
        return Err(format!(
            "drifted: sha256 {}… ≠ pinned {}…",
            &now.sha256[..12],
            &pin.sha256[..pin.sha256.len().min(12)]
        ));
    }
    if !crate::pin::same_interpreter(now.interpreter.as_ref(), pin.interpreter.as_ref()) {
        let show = |p: &Pin| {
            p.interpreter
                .as_ref()
                .map(|i| {
                    format!(
                        "{} (sha256 {})",
                        i.path,
                        i.sha256.as_deref().map(|h| &h[..12]).unwrap_or("missing")
                    )
                })
                .unwrap_or_else(|| "none".into())
        };
        return Err(format!(
            "drifted: interpreter {} ≠ pinned {}",
            show(&now),
            show(pin)
        ));
    }
    let mut magic = [0u8; 4];
    let elf = std::os::unix::fs::FileExt::read_exact_at(&file, &mut magic, 0).is_ok()
        && magic == *b"\x7fELF";
    Ok(Verified {
        identity,
        file: std::sync::Arc::new(file),
        elf,
        interpreter: runs.and_then(|r| interpreted(&r, exec_path)),
    })
}

/// The exec the kernel would make for a script, through the hashed
/// descriptor of what runs it: `#!/bin/sh` runs `/bin/sh` with argv
/// `/bin/sh [arg] <script> ...`; `#!/usr/bin/env X` ends in `X` with argv
/// `X <script> ...` (env with `PATH` unset finds X where the pin found it;
/// `-S X a b` gives `X a b <script> ...`).
/// None when that program is not an ELF file (a script interpreting a
/// script runs by path, its identity checked as the plugin's is).
fn interpreted(runs: &Runs, script: &Path) -> Option<Interpreted> {
    let program = runs.program.as_ref().filter(|p| p.elf)?;
    let mut argv_head: Vec<std::ffi::OsString> = Vec::new();
    match runs.shebang.env_runs() {
        // env execs its program with what -S split off, then the script.
        EnvRuns::Program { name, args } => {
            argv_head.push(name.into());
            argv_head.extend(args.into_iter().map(Into::into));
        }
        EnvRuns::NotEnv => {
            argv_head.push(runs.shebang.interpreter.clone().into());
            if let Some(arg) = &runs.shebang.arg {
                argv_head.push(arg.into());
            }
        }
        // The gate refuses it before the exec; nothing to run through a
        // descriptor.
        EnvRuns::Unknown(_) => return None,
    }
    argv_head.push(script.as_os_str().to_os_string());
    Some(Interpreted {
        program: program.file.clone(),
        argv_head,
    })
}

//! The stop token: what a stopping signal tells the rest of plugctl.
//! Whoever owns the signals (the command line's command loop) holds the
//! [`StopHandle`] and fires it; the fan-out, the printer, the registry and
//! the waiting commands only listen, so this module needs nothing of
//! theirs. The token also carries the scratch directories a stop must
//! remove, so that they have an owner: the handle's holder removes them
//! once the stop is done ([`StopHandle::remove_scratch_dirs`]).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Directories to remove if a stop comes.
type Scratch = Arc<Mutex<Vec<PathBuf>>>;

/// A cancellation token for everything that must stop when plugctl is
/// asked to: the fan-out stops starting calls, `events --follow` and
/// `plugin wait` stop waiting, the printer stops printing results that are
/// the signal's doing, the registry records nothing more. Cheap to clone;
/// every clone sees the same stop.
#[derive(Debug, Clone)]
pub struct Stop {
    /// The exit code of the stop under way; 0 while there is none.
    code: tokio::sync::watch::Receiver<i32>,
    scratch: Scratch,
}

impl Stop {
    /// A token that never fires: for a caller that has no stop to
    /// announce (a library user, a registry nobody gave a token).
    pub fn new() -> Stop {
        // The sender is dropped at once: nothing can fire it.
        let (_, code) = tokio::sync::watch::channel(0);
        Stop {
            code,
            scratch: Scratch::default(),
        }
    }

    /// A token and the handle that fires it (and every clone of it).
    pub fn detached() -> (Stop, StopHandle) {
        let (tx, code) = tokio::sync::watch::channel(0);
        let scratch = Scratch::default();
        (
            Stop {
                code,
                scratch: Arc::clone(&scratch),
            },
            StopHandle { tx, scratch },
        )
    }

    /// The exit code of the stop under way, if one is. From then on the
    /// stop owns the exit: the command's own flow sees its plugins die and
    /// must neither report that as their failure nor exit with a code of
    /// its own.
    pub fn stopped(&self) -> Option<i32> {
        match *self.code.borrow() {
            0 => None,
            code => Some(code),
        }
    }

    /// Resolves once a stop is under way (at once if it already is).
    pub async fn wait(&self) -> i32 {
        let mut rx = self.code.clone();
        // The borrow the wait returns is dropped before anything else is
        // awaited, so the future stays Send.
        let code = rx.wait_for(|&code| code != 0).await.map(|code| *code);
        match code {
            Ok(code) => code,
            // The handle is gone (or never was): never stopping.
            Err(_) => std::future::pending().await,
        }
    }

    /// Removes `dir` (recursively) if a stop comes while the returned guard
    /// lives (the handle's holder does it once the stop is done); dropping
    /// the guard once its owner removed the directory hands it back (one
    /// still there, which its owner could not remove, stays for a stop).
    pub fn remove_on_interrupt(&self, dir: &Path) -> ScratchGuard {
        self.scratch
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(dir.to_path_buf());
        ScratchGuard {
            scratch: Arc::clone(&self.scratch),
            dir: dir.to_path_buf(),
        }
    }
}

impl Default for Stop {
    fn default() -> Self {
        Stop::new()
    }
}

/// Fires a [`Stop`] from [`Stop::detached`], and cleans up after it.
#[derive(Debug)]
pub struct StopHandle {
    tx: tokio::sync::watch::Sender<i32>,
    scratch: Scratch,
}

impl StopHandle {
    /// Announces a stop that will exit with `code` (not 0) to every token.
    pub fn stop(&self, code: i32) {
        self.tx.send_replace(code);
    }

    /// Removes every directory a token's [`Stop::remove_on_interrupt`]
    /// guards: once the stop is done, when their owners may not have got
    /// to it. Never through a mount a plugin left in one (a create the
    /// stop cut short before its delete): such a directory is left whole,
    /// and returned with why.
    pub fn remove_scratch_dirs(&self) -> Vec<crate::trust::Refusal> {
        let dirs = std::mem::take(&mut *self.scratch.lock().unwrap_or_else(|e| e.into_inner()));
        dirs.iter()
            .filter_map(|dir| crate::scratch::remove(dir).err())
            .collect()
    }
}

/// Keeps a directory on the list [`StopHandle::remove_scratch_dirs`]
/// removes, while it lives.
#[must_use = "the directory is only protected while the guard lives"]
#[derive(Debug)]
pub struct ScratchGuard {
    scratch: Scratch,
    dir: PathBuf,
}

impl Drop for ScratchGuard {
    fn drop(&mut self) {
        // A directory its owner could not remove (a mount a plugin left in
        // it) stays on the list: a stop then tries again and says why it
        // is left.
        if std::fs::symlink_metadata(&self.dir).is_ok() {
            return;
        }
        let mut dirs = self.scratch.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(at) = dirs.iter().position(|d| *d == self.dir) {
            dirs.remove(at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Stop;

    #[test]
    fn a_new_token_never_fires() {
        let stop = Stop::new();
        assert_eq!(stop.stopped(), None);
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        let waited = rt.block_on(async {
            tokio::time::timeout(std::time::Duration::from_millis(20), stop.wait()).await
        });
        assert!(waited.is_err());
    }

    #[test]
    fn the_handle_removes_what_is_guarded_and_only_that() {
        let (stop, handle) = Stop::detached();
        let root = tempfile::tempdir().unwrap();
        let kept = root.path().join("kept");
        let scratch = root.path().join("scratch");
        std::fs::create_dir_all(scratch.join("deep")).unwrap();
        std::fs::create_dir(&kept).unwrap();
        let gone = root.path().join("gone");
        std::fs::create_dir(&gone).unwrap();
        let handed_back = stop.remove_on_interrupt(&gone);
        std::fs::remove_dir(&gone).unwrap();
        drop(handed_back);
        // Made again after it was handed back: no longer the stop's.
        std::fs::create_dir(&gone).unwrap();
        // Its owner could not remove it: it stays the stop's.
        let left = root.path().join("left");
        std::fs::create_dir(&left).unwrap();
        drop(stop.remove_on_interrupt(&left));
        let _guard = stop.clone().remove_on_interrupt(&scratch);
        handle.stop(130);
        assert_eq!(stop.stopped(), Some(130));
        assert!(handle.remove_scratch_dirs().is_empty());
        assert!(!scratch.exists());
        assert!(!left.exists());
        assert!(gone.exists());
        assert!(kept.exists());
    }
}

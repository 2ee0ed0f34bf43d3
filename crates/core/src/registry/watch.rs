//! Change detection for readers that follow the registry (`events
//! --follow`, `plugin wait`): the kernel says when the file is replaced
//! (inotify on its directory, through the `notify` crate), so an idle
//! follower costs nothing and sees a write at once. Where no watch can be
//! had (no thread for the watcher, the watch limit reached, the directory
//! not there yet) a slow poll of the file's stamp stands in.
//!
//! A write is a rename over the registry file, and the journal is appended
//! before it: when the file changes, everything it commits is on disk.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use notify::Watcher as _;
use tokio::sync::Notify;

/// How often the fallback looks at the file's stamp.
pub const POLL: Duration = Duration::from_millis(250);

pub struct Watch {
    path: PathBuf,
    woken: Arc<Notify>,
    /// The watched directory itself was removed or moved away: the watch
    /// sees nothing that happens at the path any more.
    dir_gone: Arc<AtomicBool>,
    /// Kept alive while it watches; None: polling.
    watcher: Option<notify::RecommendedWatcher>,
    stamp: Option<Stamp>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    ino: u64,
    len: u64,
    mtime: (i64, i64),
}

fn stamp(path: &Path) -> Option<Stamp> {
    std::fs::metadata(path).ok().map(|m| Stamp {
        ino: m.ino(),
        len: m.len(),
        mtime: (m.mtime(), m.mtime_nsec()),
    })
}

impl Watch {
    /// Starts watching `registry`. Set it up before the first read, so that
    /// a write landing in between is seen.
    pub fn new(registry: &Path) -> Watch {
        let mut w = Watch {
            path: registry.to_path_buf(),
            woken: Arc::new(Notify::new()),
            dir_gone: Arc::new(AtomicBool::new(false)),
            watcher: None,
            stamp: stamp(registry),
        };
        w.watcher = w.start();
        w
    }

    /// Whether the kernel watches (false: the slow poll).
    pub fn is_watching(&self) -> bool {
        self.watcher.is_some()
    }

    fn start(&self) -> Option<notify::RecommendedWatcher> {
        let name = self.path.file_name()?.to_os_string();
        let dir = super::parent_dir(&self.path).to_path_buf();
        let woken = Arc::clone(&self.woken);
        let gone = Arc::clone(&self.dir_gone);
        gone.store(false, Ordering::SeqCst);
        let watched = dir.clone();
        let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
            // An error, or the kernel's queue overflowed (a directory
            // others write in, as `/tmp`, flooded while the follower was
            // slow): events were dropped, the registry's own rename maybe
            // among them, and a follower that slept on would show that
            // write only at the next one, hours later on a quiet node.
            // A look for nothing costs one read of the head.
            let event = match res {
                Ok(event) if !event.need_rescan() => event,
                _ => {
                    woken.notify_one();
                    return;
                }
            };
            // Reading a file is no change: the follower's own read of the
            // registry (open, read, close) must not wake it again, or it
            // would spin.
            if matches!(event.kind, notify::EventKind::Access(_)) {
                return;
            }
            // The directory itself removed or moved (its own events carry
            // its path): what comes to the path next is not seen here.
            if event.paths.contains(&watched) {
                gone.store(true, Ordering::SeqCst);
                woken.notify_one();
            }
            // Only what concerns the registry file itself (the lock file
            // and temporary files change beside it on every write).
            if event.paths.iter().any(|p| p.file_name() == Some(&name)) {
                woken.notify_one();
            }
        })
        .ok()?;
        watcher
            .watch(&dir, notify::RecursiveMode::NonRecursive)
            .ok()?;
        Some(watcher)
    }

    /// Resolves when the registry file may have changed since the last
    /// call (or since [`Watch::new`]).
    pub async fn changed(&mut self) {
        if self.watcher.is_none() {
            // The directory may have appeared since: what changed before
            // the watch began is seen by the file's stamp.
            self.watcher = self.start();
            let now = stamp(&self.path);
            if self.watcher.is_some() && now != self.stamp {
                self.stamp = now;
                return;
            }
        }
        if self.watcher.is_some() {
            self.woken.notified().await;
            if self.dir_gone.load(Ordering::SeqCst) {
                // The next call watches the directory the path names then
                // (or polls until there is one).
                self.watcher = None;
            }
            return;
        }
        loop {
            tokio::time::sleep(POLL).await;
            let now = stamp(&self.path);
            if now != self.stamp {
                self.stamp = now;
                return;
            }
            if let Some(w) = self.start() {
                self.watcher = Some(w);
                // What changed while no watch was there is not known.
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    /// Whether `changed` resolves within `limit`.
    async fn woken(w: &mut Watch, limit: Duration) -> bool {
        tokio::time::timeout(limit, w.changed()).await.is_ok()
    }

    #[test]
    fn a_replacement_by_rename_wakes_it_and_files_beside_do_not() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("r.json");
        std::fs::write(&path, "{}").unwrap();
        rt().block_on(async {
            let mut w = Watch::new(&path);
            assert!(w.is_watching(), "inotify is there on Linux");
            // The lock file and temporary files change on every write.
            std::fs::write(d.path().join("r.json.lock"), "1").unwrap();
            std::fs::write(d.path().join(".r.json.x.tmp"), "{}").unwrap();
            assert!(!woken(&mut w, Duration::from_millis(300)).await);
            std::fs::rename(d.path().join(".r.json.x.tmp"), &path).unwrap();
            // Generous: the watcher's thread may wait for a core.
            assert!(woken(&mut w, Duration::from_secs(20)).await);
            // One rename is reported more than once (to, then both names):
            // a follower may wake again for nothing, never sleep through.
            let mut extra = 0;
            while woken(&mut w, Duration::from_millis(300)).await {
                extra += 1;
                assert!(extra < 5, "woken again and again");
            }
            std::fs::write(d.path().join("r.json.lock"), "2").unwrap();
            assert!(!woken(&mut w, Duration::from_millis(300)).await);
            // A read of the file (what a woken follower does) is no change.
            let _ = std::fs::read(&path).unwrap();
            assert!(!woken(&mut w, Duration::from_millis(300)).await);
        });
    }

    #[test]
    fn without_its_directory_it_polls_until_the_file_appears() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("later/r.json");
        rt().block_on(async {
            let mut w = Watch::new(&path);
            assert!(!w.is_watching());
            std::fs::create_dir(d.path().join("later")).unwrap();
            std::fs::write(&path, "{}").unwrap();
            assert!(woken(&mut w, Duration::from_secs(20)).await);
        });
    }
}

//! strict's layers that every call of a run shares, applied once: to a
//! thread of plugctl's own, which then starts those calls.
//!
//! A seccomp filter costs the kernel a compilation each time a process
//! installs one (about 0.2 ms however short it is), dropping forty
//! capabilities from the bounding set forty credential changes, entering
//! two namespaces two more: per call, together more than the rest of a
//! trivial plugin's run. Each of them is a property of a thread, not of
//! the process (seccomp without `TSYNC`, the bounding set, no-new-privs,
//! the namespaces of a thread that stopped sharing its file-system
//! context with the others), and what a thread forks inherits it. So the
//! calls that would apply the same ones are started from one thread that
//! applied them to itself once ([`Spawner`]); between fork and exec their
//! children apply only what differs from call to call (Landlock, limits,
//! capability sets, cgroup). The rest of plugctl keeps all it had.
//!
//! The price: that thread's filter refuses `unshare`, so it cannot give
//! each call a time namespace of its own; its calls are marked by a
//! session of their own instead (the runner's fallback where the kernel
//! makes no namespace).

use std::collections::HashMap;
use std::os::fd::RawFd;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use nix::libc;

use super::child::{CapPlan, Plan};
use super::namespaces::Shared;
use super::syscalls::{self, Filters};

/// What one spawner thread applies to itself, and so to every child it
/// starts.
#[derive(Debug)]
pub(super) struct ThreadLayers {
    pub netns: Option<RawFd>,
    pub mntns: Option<RawFd>,
    /// Bits to drop from the bounding set.
    pub drop_bounding: u64,
    pub last_cap: u8,
    pub seccomp: Option<Arc<Filters>>,
    /// What `netns` and `mntns` belong to, held while the thread lives.
    _shared: Option<Arc<Shared>>,
}

/// Which calls may share a thread: those whose child would apply exactly
/// these.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Key {
    netns: Option<RawFd>,
    mntns: Option<RawFd>,
    drop_bounding: u64,
    /// The compiled filters, by identity (compiled once per set of grants).
    filters: Option<usize>,
}

impl ThreadLayers {
    /// The part of `plan` a thread can carry for its children, or `None`
    /// where it would carry nothing worth a thread. A plan with a private
    /// `/tmp` of its own (made per call) is never carried: its child must
    /// unshare and mount, which the thread's filter would refuse.
    pub fn of(plan: &Plan, shared: Option<&Arc<Shared>>) -> Option<ThreadLayers> {
        if plan.private.is_some() {
            return None;
        }
        let drop_bounding = plan.caps.map_or(0, |c| c.drop_bounding);
        if plan.seccomp.is_none()
            && drop_bounding == 0
            && plan.netns.is_none()
            && plan.mntns.is_none()
        {
            return None;
        }
        Some(ThreadLayers {
            netns: plan.netns,
            mntns: plan.mntns,
            drop_bounding,
            last_cap: plan.caps.map_or(0, |c| c.last_cap),
            seccomp: plan.seccomp.clone(),
            _shared: shared.cloned(),
        })
    }

    pub fn key(&self) -> Key {
        Key {
            netns: self.netns,
            mntns: self.mntns,
            drop_bounding: self.drop_bounding,
            filters: self.seccomp.as_ref().map(|f| Arc::as_ptr(f) as usize),
        }
    }

    /// What a child of the thread still applies of `plan`: all but what
    /// the thread carries (and no-new-privs, which it carries too).
    pub fn lean(&self, plan: &Plan) -> Plan {
        Plan {
            signals: plan.signals.clone(),
            cgroup_procs: plan.cgroup_procs.clone(),
            oom_zero: plan.oom_zero,
            oom_above: plan.oom_above,
            netns: None,
            mntns: None,
            private: None,
            limits: plan.limits.clone(),
            no_new_privs: false,
            caps: plan.caps.map(|c| CapPlan {
                drop_bounding: 0,
                ..c
            }),
            landlock: plan.landlock,
            seccomp: None,
        }
    }

    /// On the thread itself: each layer, in the order a child applies
    /// them. The thread keeps its own capabilities (its children's sets
    /// are set by each child), only their bound is lowered.
    fn apply(&self) -> std::io::Result<()> {
        let check = |r: libc::c_int| {
            if r < 0 {
                Err(std::io::Error::last_os_error())
            } else {
                Ok(())
            }
        };
        // SAFETY (every block below): system calls on this thread, with
        // descriptors the thread holds and constants.
        // Its own root and working directory, so that entering a mount
        // namespace changes them for this thread only.
        check(unsafe { libc::unshare(libc::CLONE_FS) })?;
        if let Some(fd) = self.netns {
            check(unsafe { libc::setns(fd, libc::CLONE_NEWNET) })?;
        }
        if let Some(fd) = self.mntns {
            check(unsafe { libc::setns(fd, libc::CLONE_NEWNS) })?;
            check(unsafe { libc::chdir(c"/".as_ptr()) })?;
        }
        check(unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) })?;
        for cap in 0..=self.last_cap {
            if self.drop_bounding & (1u64 << cap) != 0 {
                let r = unsafe {
                    libc::prctl(libc::PR_CAPBSET_DROP, libc::c_ulong::from(cap), 0, 0, 0)
                };
                if r != 0 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINVAL) {
                    return Err(std::io::Error::last_os_error());
                }
            }
        }
        if let Some(filters) = &self.seccomp {
            syscalls::install(filters)?;
        }
        Ok(())
    }
}

type Job = Box<dyn FnOnce() + Send>;

/// A thread that applied [`ThreadLayers`] to itself and runs what it is
/// given, one after the other.
#[derive(Debug)]
pub struct Spawner {
    jobs: Mutex<mpsc::Sender<Job>>,
}

impl Spawner {
    /// Starts the thread and applies the layers; the error of a layer it
    /// could not apply (its calls then apply every layer in their child,
    /// which names the step that fails).
    fn start(layers: ThreadLayers) -> std::io::Result<Spawner> {
        let (tx, rx) = mpsc::channel::<Job>();
        let (ready_tx, ready_rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("plugctl-strict".into())
            .spawn(move || {
                let applied = layers.apply();
                let ok = applied.is_ok();
                let _ = ready_tx.send(applied);
                if !ok {
                    return;
                }
                // Ends when the last sender (the run's sandbox) is gone.
                while let Ok(job) = rx.recv() {
                    job();
                }
                drop(layers);
            })?;
        ready_rx
            .recv()
            .unwrap_or_else(|_| Err(std::io::Error::other("the spawner thread ended")))?;
        Ok(Spawner {
            jobs: Mutex::new(tx),
        })
    }

    /// Runs `f` on the thread, within the caller's tokio runtime (what it
    /// spawns is registered there), and waits for it without blocking the
    /// runtime. `None` if the thread is gone (it never goes while the run's
    /// sandbox lives).
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let handle = tokio::runtime::Handle::current();
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _in_runtime = handle.enter();
            let _ = tx.send(f());
        });
        self.jobs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .send(job)
            .ok()?;
        rx.await.ok()
    }
}

/// The run's spawner threads, one per [`Key`], made when first needed;
/// `None` for a key whose thread could not apply its layers (never tried
/// again).
#[derive(Debug, Default)]
pub(super) struct Spawners {
    threads: Mutex<HashMap<Key, Option<Arc<Spawner>>>>,
}

impl Spawners {
    pub fn get(&self, layers: ThreadLayers) -> Option<Arc<Spawner>> {
        let mut threads = self.threads.lock().unwrap_or_else(|e| e.into_inner());
        threads
            .entry(layers.key())
            .or_insert_with(|| Spawner::start(layers).ok().map(Arc::new))
            .clone()
    }
}

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
//! That thread's filter refuses `unshare`, so it cannot give each call a
//! time namespace of its own as plugctl's other threads do: it makes one
//! before its filter, and its children all get that one. A thread is
//! therefore lent to one call at a time ([`Slot`]), from its start until
//! everything the call left is killed: calls in flight at once each have
//! a thread, and a namespace, of their own; calls one after another share
//! them (each leaves nothing in it). A run makes at most two threads of a
//! kind per CPU (each thread's children are listed apart when plugctl
//! looks for what a call left, so many threads would make every call's
//! end slower); a call that finds them all lent for [`SLOT_WAIT`] is
//! started as any other call is, with every layer applied in its child.

use std::collections::HashMap;
use std::os::fd::RawFd;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use nix::libc;

use super::child::{CapPlan, Plan};
use super::namespaces::Shared;
use super::syscalls::{self, Filters};

/// What one spawner thread applies to itself, and so to every child it
/// starts.
#[derive(Debug, Clone)]
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
            signals: plan.signals,
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

/// A thread that applied strict's shared layers to itself and runs what
/// it is given, one after the other.
#[derive(Debug)]
pub struct Spawner {
    jobs: Mutex<mpsc::Sender<Job>>,
    /// The time namespace its children are in, where one could be made.
    time_ns: Option<crate::runner::TimeNs>,
}

impl Spawner {
    /// Starts the thread, gives its children a time namespace of their
    /// own and applies the layers; the error of a layer it could not apply
    /// (its calls then apply every layer in their child, which names the
    /// step that fails).
    fn start(layers: ThreadLayers) -> std::io::Result<Spawner> {
        let (tx, rx) = mpsc::channel::<Job>();
        let (ready_tx, ready_rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("plugctl-strict".into())
            .spawn(move || {
                let time_ns = crate::runner::TimeNs::for_next_children();
                let applied = layers.apply().map(|()| time_ns);
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
        let time_ns = ready_rx
            .recv()
            .unwrap_or_else(|_| Err(std::io::Error::other("the spawner thread ended")))?;
        Ok(Spawner {
            jobs: Mutex::new(tx),
            time_ns,
        })
    }

    /// The time namespace the thread's children are in, held by a
    /// descriptor of the caller's own; `None` where none could be made
    /// (they are then marked by a session of their own).
    pub(crate) fn time_ns(&self) -> Option<crate::runner::TimeNs> {
        self.time_ns.as_ref()?.try_clone()
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

/// How long a call waits for a thread of its kind when all are lent:
/// longer than trivial calls hold them, even many at once on a busy node
/// (each a few milliseconds). Longer, the threads are held by calls that
/// run long, and the call is started without one rather than wait for
/// them.
const SLOT_WAIT: Duration = Duration::from_millis(250);

/// The threads of one kind (the layers they carry): those no call holds,
/// how many were made, and what a new one applies.
#[derive(Debug)]
pub struct Pool {
    layers: ThreadLayers,
    idle: Mutex<Vec<Spawner>>,
    made: std::sync::atomic::AtomicUsize,
    /// At most this many threads.
    most: usize,
    returned: tokio::sync::Notify,
}

impl Pool {
    fn new(layers: ThreadLayers, first: Spawner) -> Pool {
        // Two per CPU: enough to keep every CPU busy with trivial calls,
        // each of which holds its thread for a millisecond or two (more
        // made every call's end slower, benches/run.sh).
        let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
        Pool {
            layers,
            idle: Mutex::new(vec![first]),
            made: std::sync::atomic::AtomicUsize::new(1),
            most: (2 * cpus).clamp(2, 16),
            returned: tokio::sync::Notify::new(),
        }
    }

    fn idle(&self) -> Option<Spawner> {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop()
    }

    /// A thread for one call, held until the [`Slot`] is dropped: an idle
    /// one, else a new one while there are fewer than the most, else the
    /// first returned within 250 ms. `None` otherwise, or if a new
    /// one could not apply its layers: the call then applies them in its
    /// child.
    pub async fn slot(self: &Arc<Self>) -> Option<Slot> {
        use std::sync::atomic::Ordering;
        let give_up = tokio::time::Instant::now() + SLOT_WAIT;
        loop {
            // Registered before looking, so that a return in between wakes it.
            let returned = self.returned.notified();
            tokio::pin!(returned);
            returned.as_mut().enable();
            if let Some(spawner) = self.idle() {
                return Some(self.lend(spawner));
            }
            let made = self.made.load(Ordering::Relaxed);
            if made < self.most
                && self
                    .made
                    .compare_exchange(made, made + 1, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok()
            {
                return match Spawner::start(self.layers.clone()) {
                    Ok(spawner) => Some(self.lend(spawner)),
                    Err(_) => {
                        self.made.fetch_sub(1, Ordering::Relaxed);
                        None
                    }
                };
            }
            if tokio::time::timeout_at(give_up, returned).await.is_err() {
                return None;
            }
        }
    }

    fn lend(self: &Arc<Self>, spawner: Spawner) -> Slot {
        Slot {
            spawner: Some(spawner),
            pool: Arc::clone(self),
        }
    }
}

/// A spawner thread lent to one call, back to its pool when dropped.
#[derive(Debug)]
pub struct Slot {
    spawner: Option<Spawner>,
    pool: Arc<Pool>,
}

impl std::ops::Deref for Slot {
    type Target = Spawner;
    fn deref(&self) -> &Spawner {
        self.spawner
            .as_ref()
            .expect("a slot holds its thread until dropped")
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(s) = self.spawner.take() {
            self.pool
                .idle
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(s);
            self.pool.returned.notify_one();
        }
    }
}

/// The run's pools of spawner threads, one per [`Key`], made when first
/// needed; `None` for a key whose first thread could not apply its
/// layers (never tried again).
#[derive(Debug, Default)]
pub(super) struct Spawners {
    pools: Mutex<HashMap<Key, Option<Arc<Pool>>>>,
}

impl Spawners {
    pub fn get(&self, layers: ThreadLayers) -> Option<Arc<Pool>> {
        let mut pools = self.pools.lock().unwrap_or_else(|e| e.into_inner());
        pools
            .entry(layers.key())
            .or_insert_with(|| {
                // The first thread is made now, so that a layer the
                // kernel refuses is known before any call relies on it.
                let first = Spawner::start(layers.clone()).ok()?;
                Some(Arc::new(Pool::new(layers, first)))
            })
            .clone()
    }
}

//! What marks every process of one call, whatever it does to leave: a
//! time namespace of the call's own where the kernel lets plugctl make
//! one, else the call's session.
//!
//! **A time namespace per call.** Just before it starts a plugin, the
//! thread that starts it calls `unshare(CLONE_NEWTIME)` (Linux 5.6, root):
//! the thread itself stays where it is, but the children it starts from
//! then on are in a new time namespace, whose clocks are the host's (its
//! offsets stay zero, so nothing a plugin measures changes). Every
//! descendant inherits it and keeps it through `setpgid`, `setsid` and the
//! death of its parents; only a process with `CAP_SYS_ADMIN` that calls
//! `setns` leaves it. plugctl holds the namespace open for the call (so
//! its inode, the mark, cannot be given to another namespace meanwhile)
//! and compares `/proc/<pid>/ns/time` against it. Made in the parent,
//! the namespace costs the spawn nothing: the plugin is still started by
//! `posix_spawn`, in a process group of its own.
//!
//! **Else a session per call.** Where no namespace can be made (an older
//! kernel, plugctl not root, a container without the capability), the
//! plugin is started as the leader of a session of its own (`setsid`
//! between fork and exec), so the call's session id is its pid. A process
//! keeps its session across fork, exec and `setpgid`, and leaves it only
//! by calling `setsid` itself: the session names the call exactly for a
//! child that made a process group of its own, and for a double fork that
//! kept its session. What left with `setsid` and lost its parents falls to
//! the pipes it holds and the sweep at the end of the command
//! (`leftovers`).

use std::ffi::CStr;
use std::io;
use std::os::fd::OwnedFd;

use rustix::fs::{Mode, OFlags};

/// Where a thread finds the time namespace its next children get.
const TIME_FOR_CHILDREN: &CStr = c"/proc/thread-self/ns/time_for_children";

/// What marks one call's processes.
#[derive(Debug, Default)]
pub(super) struct Lineage {
    /// The session the plugin leads (its pid), when it was started in one
    /// of its own: where the call has no time namespace.
    pub(super) sid: Option<i32>,
    /// The call's time namespace, held, and its inode.
    ns: Option<TimeNs>,
}

impl Lineage {
    /// A call marked by its time namespace.
    pub(super) fn by_namespace(ns: TimeNs) -> Lineage {
        Lineage {
            sid: None,
            ns: Some(ns),
        }
    }

    /// A call marked by the session its leader `pid` leads.
    pub(super) fn by_session(pid: i32) -> Lineage {
        Lineage {
            sid: Some(pid),
            ns: None,
        }
    }

    /// The inode of the call's time namespace, when it has one.
    pub(super) fn ns(&self) -> Option<u64> {
        self.ns.as_ref().map(|ns| ns.ino)
    }
}

/// A time namespace made for one call, held open.
#[derive(Debug)]
pub(crate) struct TimeNs {
    _held: OwnedFd,
    ino: u64,
}

impl TimeNs {
    /// Gives the calling thread's next children a new time namespace, and
    /// holds it; `None` where the kernel makes none for plugctl (then the
    /// thread's children are where they were). Call it on the thread that
    /// spawns, with no `.await` before the spawn.
    pub(crate) fn for_next_children() -> Option<TimeNs> {
        // SAFETY: the flag shares no descriptor table and changes only
        // what this thread's later children get.
        unsafe { rustix::thread::unshare_unsafe(rustix::thread::UnshareFlags::NEWTIME) }.ok()?;
        let held = rustix::fs::open(
            TIME_FOR_CHILDREN,
            OFlags::RDONLY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .ok()?;
        let ino = rustix::fs::fstat(&held).ok()?.st_ino;
        Some(TimeNs { _held: held, ino })
    }
}

impl TimeNs {
    /// The same namespace, held by a descriptor of its own: a sandbox's
    /// thread's, lent with the thread to one call after another.
    pub(crate) fn try_clone(&self) -> Option<TimeNs> {
        Some(TimeNs {
            _held: self._held.try_clone().ok()?,
            ino: self.ino,
        })
    }
}

/// The inode of `pid`'s time namespace (`None` for a process that is gone,
/// a zombie, or a kernel without time namespaces).
pub(super) fn time_ns(pid: i32) -> Option<u64> {
    rustix::fs::stat(format!("/proc/{pid}/ns/time"))
        .ok()
        .map(|st| st.st_ino)
}

/// Run in the child between fork and exec where the call has no time
/// namespace: leads a new session (it always can: a freshly forked child
/// leads no group). One system call.
pub(super) fn lead_a_session() -> io::Result<()> {
    rustix::process::setsid()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lineage_by_session_has_no_namespace() {
        let l = Lineage::by_session(42);
        assert_eq!((l.sid, l.ns()), (Some(42), None));
    }

    #[test]
    fn this_process_has_a_time_namespace_where_the_kernel_has_them() {
        let mine = time_ns(std::process::id() as i32);
        if std::path::Path::new("/proc/self/ns/time").exists() {
            assert!(mine.is_some());
        }
        assert_eq!(time_ns(-1), None);
    }

    /// Made on a thread of its own (what it changes is that thread's),
    /// as root: the new namespace is another than this process's, and two
    /// are two.
    #[test]
    fn each_call_gets_a_namespace_of_its_own_where_one_can_be_made() {
        let made = std::thread::spawn(|| {
            let a = TimeNs::for_next_children()?;
            let b = TimeNs::for_next_children()?;
            Some((a.ino, b.ino))
        })
        .join()
        .unwrap();
        let Some((a, b)) = made else {
            // Not root, or no time namespaces: the session marks calls.
            return;
        };
        let mine = time_ns(std::process::id() as i32);
        assert_ne!(Some(a), mine);
        assert_ne!(a, b);
    }
}

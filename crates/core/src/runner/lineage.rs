//! What marks every process of one call, whatever it does to leave: the
//! call's session, and, where the kernel lets plugctl make one, a time
//! namespace of the call's own.
//!
//! The plugin is started as the leader of a new session (`setsid` between
//! fork and exec), so its session id is its pid. A process keeps its
//! session across fork, exec and `setpgid`, and leaves it only by calling
//! `setsid` itself: the session names the call exactly for a child that
//! made a process group of its own, and for a daemon's double fork that
//! kept its session.
//!
//! A process that called `setsid` is in a session of its own, and once its
//! parent is gone nothing in its ids says which call started it. For that
//! one way out, the child also leaves plugctl's time namespace for a new
//! one (`unshare(CLONE_NEWTIME)`, Linux 5.6, root): a namespace whose
//! clocks are the host's (its offsets stay zero, so nothing a plugin
//! measures changes), which every descendant inherits and keeps through
//! `setsid`, and which only a process with `CAP_SYS_ADMIN` that calls
//! `setns` leaves. The child hands the namespace to plugctl over a socket
//! before it execs: plugctl holds it (so its inode, the mark, cannot be
//! given to another namespace while the call runs) and compares
//! `/proc/<pid>/ns/time` against it. Where the namespace cannot be made
//! (an older kernel, plugctl not root, a container without the
//! capability), the call has its session alone, and the rest falls to the
//! pipes a process holds and to the sweep at the end of the command
//! (`leftovers`).

use std::ffi::CStr;
use std::io::{self, IoSlice, IoSliceMut};
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd, RawFd};

use rustix::fs::{Mode, OFlags};
use rustix::net::{
    AddressFamily, RecvAncillaryBuffer, RecvAncillaryMessage, RecvFlags, SendAncillaryBuffer,
    SendAncillaryMessage, SendFlags, SocketFlags, SocketType,
};

/// Where the child finds the namespace it just made.
const TIME_FOR_CHILDREN: &CStr = c"/proc/self/ns/time_for_children";

/// What marks one call's processes.
#[derive(Debug, Default)]
pub(super) struct Lineage {
    /// The session the plugin leads: its pid.
    pub(super) sid: i32,
    /// The call's time namespace, held, and its inode; `None` where none
    /// could be made.
    ns: Option<(OwnedFd, u64)>,
}

impl Lineage {
    /// The inode of the call's time namespace, when it has one.
    pub(super) fn ns(&self) -> Option<u64> {
        self.ns.as_ref().map(|(_, ino)| *ino)
    }

    /// Whether `p` carries this call's mark.
    pub(super) fn marks(&self, pid: i32, sid: i32) -> bool {
        sid == self.sid || self.ns().is_some_and(|ns| time_ns(pid) == Some(ns))
    }
}

/// The inode of `pid`'s time namespace (`None` for a process that is gone,
/// a zombie, or a kernel without time namespaces).
pub(super) fn time_ns(pid: i32) -> Option<u64> {
    rustix::fs::stat(format!("/proc/{pid}/ns/time"))
        .ok()
        .map(|st| st.st_ino)
}

/// The socket the child hands its namespace over: plugctl's end, and the
/// child's, which the closure [`in_child`] runs with writes to.
#[derive(Debug)]
pub(super) struct Handover {
    ours: OwnedFd,
    theirs: OwnedFd,
}

impl Handover {
    /// `None` when no socket can be had (out of descriptors): the call
    /// then runs with its session alone.
    pub(super) fn new() -> Option<Handover> {
        let (ours, theirs) = rustix::net::socketpair(
            AddressFamily::UNIX,
            SocketType::DGRAM,
            SocketFlags::CLOEXEC | SocketFlags::NONBLOCK,
            None,
        )
        .ok()?;
        Some(Handover { ours, theirs })
    }

    /// The descriptor the child writes to (inherited across fork, closed at
    /// exec: the plugin never has it).
    pub(super) fn child_end(&self) -> RawFd {
        use std::os::fd::AsRawFd;
        self.theirs.as_raw_fd()
    }

    /// The call's lineage once its leader `pid` was started: the last
    /// namespace a child sent (a spawn retried after ETXTBSY ran the
    /// closure more than once).
    pub(super) fn receive(self, pid: i32) -> Lineage {
        drop(self.theirs);
        let mut ns = None;
        loop {
            let mut space = [MaybeUninit::<u8>::uninit(); rustix::cmsg_space!(ScmRights(1))];
            let mut control = RecvAncillaryBuffer::new(&mut space);
            let mut byte = [0u8; 1];
            let got = rustix::net::recvmsg(
                &self.ours,
                &mut [IoSliceMut::new(&mut byte)],
                &mut control,
                RecvFlags::DONTWAIT | RecvFlags::CMSG_CLOEXEC,
            );
            if got.is_err() {
                break;
            }
            for message in control.drain() {
                if let RecvAncillaryMessage::ScmRights(fds) = message {
                    for fd in fds {
                        if let Ok(st) = rustix::fs::fstat(&fd) {
                            ns = Some((fd, st.st_ino));
                        }
                    }
                }
            }
        }
        Lineage { sid: pid, ns }
    }
}

/// Run in the child between fork and exec: leads a new session, leaves
/// for a time namespace of its own where it can, and sends it to plugctl
/// on `handover`. Only system calls, on memory prepared before the fork.
///
/// A session must be had (it always can: a freshly forked child leads no
/// group); the namespace is a best effort.
pub(super) fn in_child(handover: Option<RawFd>) -> io::Result<()> {
    rustix::process::setsid()?;
    let Some(handover) = handover else {
        return Ok(());
    };
    // SAFETY: the child is single-threaded, and the flag shares no
    // descriptor table.
    if unsafe { rustix::thread::unshare_unsafe(rustix::thread::UnshareFlags::NEWTIME) }.is_err() {
        return Ok(());
    }
    let Ok(ns) = rustix::fs::open(
        TIME_FOR_CHILDREN,
        OFlags::RDONLY | OFlags::CLOEXEC,
        Mode::empty(),
    ) else {
        return Ok(());
    };
    // SAFETY: the descriptor stays open for the whole call: the closure
    // that holds it outlives every child it runs in.
    let handover = unsafe { BorrowedFd::borrow_raw(handover) };
    let fds = [ns.as_fd()];
    let mut space = [MaybeUninit::<u8>::uninit(); rustix::cmsg_space!(ScmRights(1))];
    let mut control = SendAncillaryBuffer::new(&mut space);
    if control.push(SendAncillaryMessage::ScmRights(&fds)) {
        let _ = rustix::net::sendmsg(
            handover,
            &[IoSlice::new(&[0])],
            &mut control,
            SendFlags::DONTWAIT,
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lineage_without_a_namespace_marks_its_session_only() {
        let l = Lineage { sid: 42, ns: None };
        assert!(l.marks(7, 42));
        assert!(!l.marks(std::process::id() as i32, 43));
    }

    #[test]
    fn this_process_has_a_time_namespace_where_the_kernel_has_them() {
        let mine = time_ns(std::process::id() as i32);
        if std::path::Path::new("/proc/self/ns/time").exists() {
            assert!(mine.is_some());
        }
        assert_eq!(time_ns(-1), None);
    }
}

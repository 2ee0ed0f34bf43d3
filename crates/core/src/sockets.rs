//! Whether a dynamic plugin's control socket accepts a connection, asked
//! without holding up the async runtime: a non-blocking connect, retried
//! with async sleeps while the listener's backlog is full, all sockets at
//! once under one deadline.
//!
//! A Unix stream connect never waits "in progress" as a TCP one does: it is
//! queued on the listener at once, refused, or (backlog full) EAGAIN. So
//! it needs no I/O driver, only the runtime's timer, and the commands that
//! check sockets (`plugin list`, `show`, `wait`) start no reactor.

use std::future::Future;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::pin::Pin;
use std::task::Poll;
use std::time::Duration;

use tokio::time::Instant;

use crate::registry::dynamic::SocketStatus;

/// The longest pause between two tries at a listener whose backlog is full.
const BUSY_RETRY_MAX: Duration = Duration::from_millis(50);

/// Checks several sockets at once, none for longer than `timeout`; the
/// statuses in the order of `paths`.
pub async fn check_all(paths: &[&Path], timeout: Duration) -> Vec<SocketStatus> {
    let deadline = Instant::now() + timeout;
    let mut checks: Vec<Pin<Box<dyn Future<Output = SocketStatus> + Send + '_>>> = paths
        .iter()
        .map(|p| Box::pin(check_until(p, deadline)) as Pin<Box<_>>)
        .collect();
    let mut done: Vec<Option<SocketStatus>> = vec![None; paths.len()];
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (check, slot) in checks.iter_mut().zip(done.iter_mut()) {
            if slot.is_none() {
                match check.as_mut().poll(cx) {
                    Poll::Ready(status) => *slot = Some(status),
                    Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    })
    .await;
    done.into_iter().flatten().collect()
}

/// Checks one socket, for at most `timeout`.
pub async fn check(path: &Path, timeout: Duration) -> SocketStatus {
    check_until(path, Instant::now() + timeout).await
}

async fn check_until(path: &Path, deadline: Instant) -> SocketStatus {
    let not_accepting = |exists, error: String| SocketStatus {
        exists,
        accepts: false,
        error: Some(error),
    };
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return not_accepting(false, format!("socket {} does not exist", path.display()));
        }
        Err(e) => {
            return not_accepting(false, format!("socket {}: {e}", path.display()));
        }
        Ok(m) if !m.file_type().is_socket() => {
            return not_accepting(true, format!("{} is not a socket", path.display()));
        }
        Ok(_) => {}
    }
    let error = match tokio::time::timeout_at(deadline, connect(path)).await {
        Ok(Ok(())) => None,
        Ok(Err(e)) => Some(format!(
            "socket {} does not accept connections: {e}",
            path.display()
        )),
        Err(_) => Some(format!(
            "socket {} did not accept a connection in time (listener busy or hung)",
            path.display(),
        )),
    };
    SocketStatus {
        exists: true,
        accepts: error.is_none(),
        error,
    }
}

/// Connects and hangs up. A listener whose backlog is full makes a
/// non-blocking connect fail with EAGAIN (where a blocking one would wait
/// for a place): tried again until the caller's deadline.
async fn connect(path: &Path) -> std::io::Result<()> {
    use rustix::net::{AddressFamily, SocketAddrUnix, SocketFlags, SocketType};
    let address = SocketAddrUnix::new(path)?;
    let mut pause = Duration::from_millis(1);
    loop {
        let socket = rustix::net::socket_with(
            AddressFamily::UNIX,
            SocketType::STREAM,
            SocketFlags::NONBLOCK | SocketFlags::CLOEXEC,
            None,
        )?;
        match rustix::net::connect(&socket, &address) {
            Ok(()) => return Ok(()),
            Err(rustix::io::Errno::AGAIN) => {
                // Closed while it waits: a thousand busy listeners must
                // not take a descriptor each until their deadline.
                drop(socket);
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(BUSY_RETRY_MAX);
            }
            Err(e) => return Err(e.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::net::UnixListener;
    use std::time::Duration;

    use super::{check, check_all};

    // A timer and no I/O driver, as plugctl runs the check.
    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
    }

    #[test]
    fn a_listening_socket_accepts_and_others_say_why_not() {
        let dir = tempfile::tempdir().unwrap();
        let live = dir.path().join("live.sock");
        let _listener = UnixListener::bind(&live).unwrap();
        let dead = dir.path().join("dead.sock");
        drop(UnixListener::bind(&dead).unwrap());
        let missing = dir.path().join("missing.sock");
        let file = dir.path().join("file");
        std::fs::write(&file, "").unwrap();
        let paths = [&*live, &*dead, &*missing, &*file];
        let got = rt().block_on(check_all(&paths, Duration::from_secs(1)));
        assert!(got[0].accepts && got[0].exists, "{:?}", got[0]);
        assert!(!got[1].accepts && got[1].exists, "{:?}", got[1]);
        let refused = got[1].error.as_deref().unwrap();
        assert!(refused.contains("does not accept connections"), "{refused}");
        assert!(!got[2].exists && !got[2].accepts, "{:?}", got[2]);
        assert!(got[2].error.as_deref().unwrap().contains("does not exist"));
        assert!(got[3].exists && !got[3].accepts, "{:?}", got[3]);
        assert!(got[3].error.as_deref().unwrap().contains("is not a socket"));
    }

    #[test]
    fn a_full_backlog_is_busy_until_the_deadline_and_blocks_nothing() {
        use nix::sys::socket::{
            AddressFamily, Backlog, SockFlag, SockType, UnixAddr, bind, connect, listen, socket,
        };
        use std::os::fd::AsRawFd;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("busy.sock");
        let addr = UnixAddr::new(&path).unwrap();
        // Listening with a backlog of 1 and never accepting: two connects
        // fill it, the next would wait for a place.
        let listener = socket(
            AddressFamily::Unix,
            SockType::Stream,
            SockFlag::empty(),
            None,
        )
        .unwrap();
        bind(listener.as_raw_fd(), &addr).unwrap();
        listen(&listener, Backlog::new(1).unwrap()).unwrap();
        let mut queued = Vec::new();
        loop {
            let s = socket(
                AddressFamily::Unix,
                SockType::Stream,
                SockFlag::SOCK_NONBLOCK,
                None,
            )
            .unwrap();
            if connect(s.as_raw_fd(), &addr).is_err() {
                break;
            }
            queued.push(s);
            assert!(queued.len() < 100, "the backlog never filled");
        }
        let status = rt().block_on(async {
            // The runtime's one thread stays free: a ticker runs beside it.
            let ticks = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
            let counted = std::sync::Arc::clone(&ticks);
            let ticker = tokio::spawn(async move {
                loop {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                }
            });
            let started = std::time::Instant::now();
            let status = check(&path, Duration::from_millis(300)).await;
            let took = started.elapsed();
            ticker.abort();
            assert!(took >= Duration::from_millis(250), "{took:?}");
            assert!(ticks.load(std::sync::atomic::Ordering::SeqCst) >= 10);
            status
        });
        assert!(!status.accepts, "{status:?}");
        let why = status.error.unwrap();
        assert!(why.contains("in time"), "{why}");
    }
}

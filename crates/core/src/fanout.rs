//! The one fan-out: run a piece of work for every item, a bounded number at
//! once, and hand the results on in the items' order as soon as each one
//! and all before it are done. fingerprint, restore, repair, validate and
//! the conformance suite's parallel creates all go through [`run_all`], so
//! they share one answer to the questions a fan-out raises:
//!
//! - **Order.** Results come out in input order, so tables and JSON are
//!   stable whatever finished first.
//! - **Memory.** At most `limit` items are in flight, and a finished result
//!   waits only for the ones before it, so a fan-out over 10,000 plugins
//!   holds `limit` results, not 10,000 (the sink can print and drop each).
//! - **A panic** in one item's work becomes that item's [`Lost::Panicked`],
//!   never the whole command's failure.
//! - **A shutdown** ([`Stop`]) starts nothing new: items not started yet
//!   come out as [`Lost::Stopped`]; running ones finish (the shutdown kills
//!   their plugins).

use std::collections::BTreeMap;
use std::future::Future;

use tokio::task::{Id, JoinSet};

use crate::stop::Stop;

/// Why an item's work gave no result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lost {
    /// The work panicked; the panic's message.
    Panicked(String),
    /// A shutdown came first: the work never started.
    Stopped,
}

impl std::fmt::Display for Lost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Lost::Panicked(why) => write!(f, "plugctl failed on it (a bug: {why})"),
            Lost::Stopped => f.write_str("not run: plugctl was stopped by a signal"),
        }
    }
}

/// Runs `work(item)` for every item, at most `limit` at once (0 is taken as
/// 1), and calls `sink(index, result)` for each in input order. Returns
/// once every item came out.
pub async fn run_all<I, T, W, Fut>(
    items: impl IntoIterator<Item = I>,
    limit: usize,
    stop: &Stop,
    mut work: W,
    mut sink: impl FnMut(usize, Result<T, Lost>),
) where
    W: FnMut(I) -> Fut,
    Fut: Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    let limit = limit.max(1);
    let mut items = items.into_iter().enumerate().peekable();
    let mut running: JoinSet<T> = JoinSet::new();
    let mut index_of: BTreeMap<Id, usize> = BTreeMap::new();
    // Finished out of order: waiting for the ones before them.
    let mut done: BTreeMap<usize, Result<T, Lost>> = BTreeMap::new();
    let mut next = 0;
    loop {
        while running.len() < limit && stop.stopped().is_none() {
            let Some((i, item)) = items.next() else { break };
            let handle = running.spawn(work(item));
            index_of.insert(handle.id(), i);
        }
        if stop.stopped().is_some() {
            // Whatever was not started never will be.
            for (i, _) in items.by_ref() {
                done.insert(i, Err(Lost::Stopped));
            }
        }
        let Some(joined) = running.join_next_with_id().await else {
            break;
        };
        let (id, result) = match joined {
            Ok((id, out)) => (id, Ok(out)),
            Err(e) => {
                let id = e.id();
                let why = if e.is_panic() {
                    panic_message(e.into_panic())
                } else {
                    "its task was cancelled".to_string()
                };
                (id, Err(Lost::Panicked(why)))
            }
        };
        if let Some(i) = index_of.remove(&id) {
            done.insert(i, result);
        }
        while let Some(r) = done.remove(&next) {
            sink(next, r);
            next += 1;
        }
    }
    // Stopped: what is left comes out in order too.
    while let Some(r) = done.remove(&next) {
        sink(next, r);
        next += 1;
    }
    debug_assert!(items.peek().is_none());
}

/// [`run_all`], collected: the results in input order.
pub async fn collect_all<I, T, W, Fut>(
    items: impl IntoIterator<Item = I>,
    limit: usize,
    stop: &Stop,
    work: W,
) -> Vec<Result<T, Lost>>
where
    W: FnMut(I) -> Fut,
    Fut: Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    let mut out = Vec::new();
    run_all(items, limit, stop, work, |_, r| out.push(r)).await;
    out
}

fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn results_keep_input_order_whatever_finishes_first() {
        let (stop, _h) = Stop::detached();
        let got = rt().block_on(async {
            let mut seen = Vec::new();
            run_all(
                [30u64, 1, 20, 0, 10],
                8,
                &stop,
                |ms| async move {
                    tokio::time::sleep(Duration::from_millis(ms)).await;
                    ms
                },
                |i, r| seen.push((i, r.unwrap())),
            )
            .await;
            seen
        });
        assert_eq!(got, [(0, 30), (1, 1), (2, 20), (3, 0), (4, 10)]);
    }

    #[test]
    fn at_most_limit_run_at_once() {
        let (stop, _h) = Stop::detached();
        let now = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let out = rt().block_on(collect_all(0..40, 3, &stop, |i| {
            let (now, peak) = (Arc::clone(&now), Arc::clone(&peak));
            async move {
                let n = now.fetch_add(1, Ordering::SeqCst) + 1;
                peak.fetch_max(n, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(2)).await;
                now.fetch_sub(1, Ordering::SeqCst);
                i
            }
        }));
        assert_eq!(peak.load(Ordering::SeqCst), 3);
        let got: Vec<i32> = out.into_iter().map(Result::unwrap).collect();
        assert_eq!(got, (0..40).collect::<Vec<_>>());
    }

    #[test]
    fn a_panic_is_that_items_loss_only() {
        let (stop, _h) = Stop::detached();
        let out = rt().block_on(collect_all(0..5, 2, &stop, |i| async move {
            if i == 2 {
                panic!("item two broke");
            }
            i * 10
        }));
        assert_eq!(out.len(), 5);
        assert_eq!(out[1], Ok(10));
        assert_eq!(out[2], Err(Lost::Panicked("item two broke".into())));
        assert_eq!(out[4], Ok(40));
    }

    #[test]
    fn a_stop_starts_nothing_new_and_every_item_comes_out() {
        let (stop, handle) = Stop::detached();
        let handle = Arc::new(handle);
        let out = rt().block_on(collect_all(0..10, 2, &stop, |i| {
            let handle = Arc::clone(&handle);
            async move {
                if i == 1 {
                    handle.stop(130);
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
                i
            }
        }));
        assert_eq!(out.len(), 10);
        assert_eq!(&out[..2], [Ok(0), Ok(1)]);
        assert!(out[2..].iter().all(|r| *r == Err(Lost::Stopped)), "{out:?}");
    }

    #[test]
    fn a_stop_token_wakes_its_waiters() {
        let (stop, handle) = Stop::detached();
        assert_eq!(stop.stopped(), None);
        let code = rt().block_on(async {
            let waiter = stop.clone();
            let wait = tokio::spawn(async move { waiter.wait().await });
            tokio::task::yield_now().await;
            handle.stop(143);
            wait.await.unwrap()
        });
        assert_eq!(code, 143);
        assert_eq!(stop.stopped(), Some(143));
    }
}

//! What the registry's unit tests share: a runtime to block on, a
//! registry in a temporary directory, and readers of what was committed.

use std::path::Path;
use std::time::Duration;

use serde_json::Map;

use super::model::{Event, State};
use super::{Registry, journal};
use crate::Result;

/// Runs `f` to its end on a one-thread runtime, as a command does.
pub(crate) fn block<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(f)
}

impl Registry {
    /// [`Registry::update`], blocking.
    pub(crate) fn update_now<T>(&self, f: impl FnOnce(&mut State<'_>) -> Result<T>) -> Result<T> {
        block(self.update(f))
    }

    /// [`Registry::intend`], blocking.
    pub(crate) fn intend_now<T>(
        &self,
        f: impl FnOnce(&mut State<'_>) -> Result<(T, Vec<String>)>,
    ) -> Result<T> {
        block(self.intend(f))
    }
}

/// A registry in a directory not yet made, with a short lock timeout.
pub(crate) fn reg(dir: &Path) -> Registry {
    Registry::new(dir.join("sub/registry.json"), Duration::from_millis(200))
}

/// Every committed event, in order, as a reader gets them.
pub(crate) fn events_of(r: &Registry) -> Vec<Event> {
    let head = r.head().unwrap();
    let mut out = Vec::new();
    r.each_event(&head, &mut journal::Pos::default(), 0, |e| {
        out.push(e);
        true
    })
    .unwrap();
    out
}

pub(crate) fn names(events: &[Event]) -> Vec<String> {
    events.iter().map(|e| e.name.clone()).collect()
}

/// Commits one `register` event naming `name`; its sequence number.
pub(crate) fn register(r: &Registry, name: &str) -> u64 {
    r.update_now(|s| Ok(s.emit("register", "csi", name, Map::new())))
        .unwrap()
}

/// Appends raw bytes to the current segment, as a plugctl killed
/// between its append and its rename would have left them.
pub(crate) fn append_raw(r: &Registry, bytes: &[u8]) {
    use std::io::Write as _;
    let pos = r.head().unwrap().journal.unwrap();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(journal::segment_path(r.path(), pos.segment))
        .unwrap();
    f.write_all(bytes).unwrap();
}

/// An event a killed writer appended and never committed.
pub(crate) const GHOST: &[u8] =
    b"{\"seq\":2,\"kind\":\"register\",\"type\":\"csi\",\"name\":\"ghost\",\"time\":\"t\"}\n";

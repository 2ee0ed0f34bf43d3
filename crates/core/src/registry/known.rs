//! Which volumes are plugctl's, by id: those it records, and those its own
//! journal shows it made, changed or removed. The volumes directory is
//! shared with the Nomad agent (`<data_dir>/host_volumes`) and maybe other
//! tools; what tells plugctl's leftovers there from theirs is plugctl's own
//! memory, never a guess from a name's shape.

use std::collections::HashSet;

use super::model::{Event, State, kind};
use super::{Registry, journal};
use crate::Result;

/// Whether an event is about a volume plugctl made or removed.
fn volume_event(e: &Event) -> Option<&str> {
    let volume = matches!(
        e.kind.as_str(),
        kind::VOLUME_CREATE | kind::VOLUME_UPDATE | kind::VOLUME_DELETE | kind::VOLUME_FORGET
    );
    volume
        .then(|| e.details.get("volume_id")?.as_str())
        .flatten()
}

impl Registry {
    /// The ids (lower case) of every volume `state` records and every one
    /// plugctl's journal names: in a volume event, or in an intent (a
    /// create's `pending` record, a delete's mark), committed or not — a
    /// create whose plugin failed leaves only its intent. A registry whose
    /// log is still inside its file (schema 1) gives its events too. The
    /// journal keeps its newest segments only: an id older than them is
    /// not plugctl's any more as far as it can tell.
    pub fn volume_ids_ever(&self, state: &State<'_>) -> Result<HashSet<String>> {
        let mut ids: HashSet<String> = state
            .volumes
            .values()
            .map(|v| v.id.to_ascii_lowercase())
            .collect();
        ids.extend(
            state
                .events
                .iter()
                .filter_map(volume_event)
                .map(str::to_ascii_lowercase),
        );
        // Only the segments the committed end keeps ([`journal::kept`]):
        // another name beside the registry may be another user's file,
        // whose forged events would make the agent's volumes plugctl's
        // to prune. Intents are appended to the committed segment, so none
        // is missed.
        let Some(end) = state.journal else {
            return Ok(ids);
        };
        let Some(files) = self.files()? else {
            return Ok(ids);
        };
        let kept = journal::kept(end, self.keep_segments);
        let numbers = journal::segments(&files)
            .map_err(|e| self.io_error("cannot list the journal of", e))?;
        for n in numbers.into_iter().filter(|n| kept.contains(n)) {
            let mut reader = journal::SegmentReader::open(&files, n, 0, None)
                .map_err(|p| self.journal_problem(p))?;
            while let Some((line, _)) = reader.next_line().map_err(|p| self.journal_problem(p))? {
                match line {
                    journal::Line::Event(e) => {
                        if let Some(id) = volume_event(&e) {
                            ids.insert(id.to_ascii_lowercase());
                        }
                    }
                    journal::Line::Intent(i) => {
                        ids.insert(i.volume.id.to_ascii_lowercase());
                    }
                    journal::Line::Header(_) => {}
                }
            }
        }
        Ok(ids)
    }
}

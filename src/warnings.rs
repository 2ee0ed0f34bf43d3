//! The library says what it noticed but did not fail on — a recording it
//! could not save, a plugin that drifted from its pin without `--locked`
//! — as `tracing` events at WARN; here they become plugctl's own warnings
//! on stderr, through the one printer (escaped, hidden by `-q`). Nothing
//! below WARN is listened to.

use std::fmt;

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

use plugctl_core::error::Hint;

use crate::output::Printer;

/// Hands the library's warnings to a printer.
pub struct ToPrinter(Printer);

impl ToPrinter {
    pub fn new(printer: Printer) -> ToPrinter {
        ToPrinter(printer)
    }
}

/// The `message` of an event (what `warn!("...")` formats), and the hints
/// it carries: `hint` (about the message) and `then` (after it), with the
/// plugin's `family` and `name` ([`Hint::from_event`]).
#[derive(Default)]
struct Message {
    message: String,
    hint: Option<String>,
    then: Option<String>,
    family: Option<String>,
    name: Option<String>,
}

impl Message {
    fn set(&mut self, field: &Field, value: String) {
        match field.name() {
            "message" => self.message = value,
            "hint" => self.hint = Some(value),
            "then" => self.then = Some(value),
            "family" => self.family = Some(value),
            "name" => self.name = Some(value),
            _ => {}
        }
    }

    /// The message, with its hints in the command line's words.
    fn text(&self) -> String {
        let mut text = self.message.clone();
        for kind in [&self.hint, &self.then].into_iter().flatten() {
            if let Some(hint) = Hint::from_event(kind, self.family.as_deref(), self.name.as_deref())
            {
                text = crate::exit::advised(&text, &hint);
            }
        }
        text
    }
}

impl Visit for Message {
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.set(field, format!("{value:?}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.set(field, value.to_string());
    }
}

impl Subscriber for ToPrinter {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        // Levels grow more verbose: WARN and ERROR only.
        *metadata.level() <= Level::WARN
    }

    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }

    fn record(&self, _: &Id, _: &Record<'_>) {}

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut message = Message::default();
        event.record(&mut message);
        self.0.warn(message.text());
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

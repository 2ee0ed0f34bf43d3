//! The library says what it noticed but did not fail on — a recording it
//! could not save, a plugin that drifted from its pin without `--locked`
//! — as `tracing` events at WARN; here they become plugctl's own warnings
//! on stderr, through the one printer (escaped, hidden by `-q`). Nothing
//! below WARN is listened to.

use std::fmt;

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

use crate::output::Printer;

/// Hands the library's warnings to a printer.
pub struct ToPrinter(Printer);

impl ToPrinter {
    pub fn new(printer: Printer) -> ToPrinter {
        ToPrinter(printer)
    }
}

/// The `message` of an event (what `warn!("...")` formats).
#[derive(Default)]
struct Message(String);

impl Visit for Message {
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        if field.name() == "message" {
            self.0 = format!("{value:?}");
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.0 = value.to_string();
        }
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
        self.0.warn(message.0);
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

//! The library behind plugctl: discover, run, validate and test HashiCorp
//! Nomad "common plugins" (host-volume and secrets plugins, and families not
//! known yet) safely, and keep what was learned. No command line here: the
//! `plugctl` crate resolves flags and settings and prints; this crate takes
//! plain inputs (directories, limits, a release profile) and returns typed
//! results and errors.
//!
//! - [`discovery`] finds plugins in a family directory, as Nomad does;
//! - [`runner`] runs an [`runner::Invocation`]: its own group, a
//!   deadline, bounded capture, leftovers killed; a [`runner::Pool`] owns
//!   its calls' groups, which a shutdown or Ctrl-Z reaches through it;
//! - [`families`] turn requests into invocations and plugin output into
//!   typed responses (through `plugctl_protocol`, Go-exact);
//! - [`registry`] keeps plugins, volumes and the event log, one locked
//!   transaction at a time;
//! - [`conformance`] is `validate` and the `test` suite, [`provenance`] pins,
//!   dry runs, records and replays;
//! - [`trust`] is the gate every file and directory passes as root;
//! - [`usage`] is what a call cost, which the runner measures for each.

pub mod conformance;
pub mod discovery;
pub mod error;
pub mod escape;
pub mod families;
pub mod family;
pub mod fanout;
pub mod fingerprint;
pub mod hooks;
pub mod identity;
pub mod kernel_support;
pub mod node;
pub mod nomad;
pub mod pin;
pub mod provenance;
pub mod registry;
pub mod runner;
pub mod sandbox;
pub mod scratch;
pub mod sockets;
pub mod stop;
pub mod suggest;
pub mod trust;
pub mod usage;
pub mod verdict;

pub use error::{Error, Result};

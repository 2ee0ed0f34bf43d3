//! plugctl: discover, run, validate and test Nomad "common plugins" (host-volume
//! and secrets plugins, and families not known yet).
//!
//! The library is usable without the CLI: [`discovery`] finds plugins,
//! [`runner`] runs an [`runner::Invocation`] safely, [`families`] turn requests
//! into invocations and plugin output into typed responses, and [`registry`]
//! keeps what was learned. [`app::run`] is the command-line front end.

pub mod agent_config;
pub mod app;
pub mod cli;
pub mod commands;
pub mod conformance;
pub mod discovery;
pub mod error;
pub mod exit;
pub mod families;
pub mod family;
pub mod fanout;
pub mod generate;
pub mod identity;
pub mod nomad;
pub mod output;
pub mod pin;
pub mod protocol;
pub mod provenance;
pub mod registry;
pub mod runner;
pub mod settings;
pub mod shutdown;
pub mod stop;
pub mod trust;
pub mod units;
pub mod verdict;

pub use error::{Error, Result};

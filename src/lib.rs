//! plugctl, the command line: parse, resolve settings, dispatch to one
//! function per subcommand, print, and turn an error into its message and
//! exit code. Everything plugctl does to plugins and the registry is the
//! library `plugctl_core` (and `plugctl_protocol` beneath it); this crate
//! is where clap, the printer and the exit codes live.

pub mod agent_account;
pub mod agent_config;
pub mod app;
pub mod cli;
pub mod commands;
pub mod exit;
pub mod generate;
pub mod layout;
pub mod node_identity;
pub mod output;
pub mod readable;
pub mod render;
pub mod settings;
pub mod shutdown;
pub mod units;
pub mod warnings;

pub use plugctl_core::{Error, Result};

//! Exit codes, in one place: scripts depend on these numbers (cli.md).

/// Everything asked for succeeded.
pub const SUCCESS: i32 = 0;
/// A plugin or an operation failed; the message says which and why.
pub const FAILURE: i32 = 1;
/// Usage or configuration error: bad flag, bad value, unreadable directory or registry.
pub const USAGE: i32 = 2;
/// No such plugin, volume or registry entry.
pub const NOT_FOUND: i32 = 3;
/// A deadline passed: a plugin's, a wait's, or the registry lock's.
pub const TIMEOUT: i32 = 4;

//! One module per plugin family: each turns requests into invocations (the
//! family's environment variables live there and only there) and plugin
//! output into typed responses.

/// Family directory names, as plugctl lays them out.
pub const HOST_VOLUME: &str = "host-volume";
pub const SECRETS: &str = "secrets";

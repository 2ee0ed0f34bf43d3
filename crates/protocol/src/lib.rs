//! Parsing plugin output exactly as a Nomad client (Go) would.

pub mod json;
pub mod responses;
pub mod version;

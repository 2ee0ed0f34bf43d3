//! The registry file.

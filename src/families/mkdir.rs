//! The built-in host-volume plugin `mkdir` (protocol 4.4), run in-process.

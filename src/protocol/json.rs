//! Go encoding/json-compatible decoding of plugin output.

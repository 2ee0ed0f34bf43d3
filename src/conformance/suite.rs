//! `test`: the conformance suite for one plugin.

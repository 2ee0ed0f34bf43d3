//! The one printer: human tables or JSON documents on stdout, diagnostics on stderr.

//! HashiCorp go-version compatible version parsing.

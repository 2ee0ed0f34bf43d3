//! The dynamic plugin registry: register and deregister, with Nomad's semantics.

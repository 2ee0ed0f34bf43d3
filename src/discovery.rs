//! Finding plugins in family directories, as Nomad does.

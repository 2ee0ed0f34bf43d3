//! Every integration test, in one binary so the helpers in `common` compile
//! once. Each module is one area, run through the real plugctl binary
//! (`runner` drives the library's runner against real processes).
//! One area: `cargo test --test it volume::`.

mod accounting;
mod attacks;
mod common;
mod conformance;
mod contention;
mod contract;
mod crash;
mod dashboard;
mod deploy;
mod dynamic;
mod events;
mod expect;
mod faults;
mod fidelity;
mod fingerprint;
mod flood_memory;
mod gallery;
mod generated;
mod habits;
mod init;
mod journal;
mod layout;
mod limits;
mod lookup;
mod messages;
mod metrics;
mod mkdir;
mod oracle;
mod output;
mod provenance;
mod readme;
mod runner;
mod secret;
mod shellcheck;
mod signals;
mod snapshots;
mod storage;
mod trust;
mod usage;
mod validate;
mod verdict;
mod volume;
mod workspace;

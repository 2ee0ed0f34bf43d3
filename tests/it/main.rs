//! Every integration test, in one binary so the helpers in `common` compile
//! once. Each module is one area, run through the real plugctl binary
//! (`runner` drives the library's runner against real processes).
//! One area: `cargo test --test it volume::`.

mod agent;
mod arrival;
mod attacks;
mod client_crash;
mod common;
mod conformance;
mod contain;
mod contention;
mod contract;
mod crash;
mod deploy;
mod dynamic;
mod escapes;
mod events;
mod events_since;
mod expect;
mod faults;
mod fidelity;
mod fingerprint;
mod flood_memory;
mod gallery;
mod generated;
mod habits;
mod hcl_oracle;
mod init;
mod journal;
mod layout;
mod limits;
mod lookup;
mod messages;
mod metrics;
mod mkdir;
mod node_box;
mod nomad_exact;
mod oracle;
mod output;
mod plugin_env;
mod provenance;
mod readme;
mod review34;
mod runner;
mod safe_output;
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

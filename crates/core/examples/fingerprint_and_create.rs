//! plugctl's library without its command line: fingerprint every plugin of
//! a plugin directory, then create and delete one host volume.
//!
//! ```sh
//! cargo run -p plugctl-core --example fingerprint_and_create -- plugins-examples
//! ```
//!
//! With no argument it uses the repository's `plugins-examples`. Nothing is
//! recorded (no registry is opened): this is the part of plugctl that runs
//! plugins as a Nomad client would, safely. `cargo test` runs it too (see
//! `[[example]]` in Cargo.toml), so it cannot rot.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use plugctl_core::discovery::{self, Dirs};
use plugctl_core::families::driver::Driver;
use plugctl_core::families::host_volume::Request;
use plugctl_core::fingerprint::{Plan, probe_all};
use plugctl_core::nomad::Profile;
use plugctl_core::runner::Pool;
use plugctl_core::stop::Stop;
use plugctl_core::trust::Policy;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let plugin_dir = std::env::args_os().nth(1).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../plugins-examples"),
        PathBuf::from,
    );
    let plugin_dir = std::path::absolute(plugin_dir)?;
    // The layout a development checkout uses: one directory, a
    // subdirectory per family (a node reads its agent's configuration).
    let dirs = Dirs {
        host_volume_plugin_dir: plugin_dir.join("host-volume"),
        plugin_dir,
    };
    // As a Nomad client 2.0.5 would; every file passes the trust gate.
    let profile = Profile::default();
    let pool = Arc::new(Pool::new(16));
    let stop = Stop::new();

    // One thread is enough: plugins mostly wait, and so does plugctl.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let mut entries = Vec::new();
        for (family, dir) in discovery::families(&dirs)? {
            entries.extend(discovery::scan(&family, &dir, profile)?);
        }
        let plan = Plan {
            pool: &pool,
            stop: &stop,
            profile,
            deadline: None,
            grace: Duration::from_secs(2),
        };
        let probes = probe_all(plan, entries, |_| {}).await;
        for p in &probes {
            let health = if p.healthy { "healthy" } else { "unhealthy" };
            let version = p.version.as_deref().unwrap_or("-");
            let why = p.error.as_deref().unwrap_or("");
            println!("{}/{}: {health} {version} {why}", p.family, p.name);
        }
        if probes.is_empty() {
            return Err("no plugins found".into());
        }

        // A host volume through the built-in mkdir, in a scratch volumes
        // directory: the same request a Nomad client sends a plugin.
        let scratch = tempfile::tempdir()?;
        let request = Request {
            volumes_dir: scratch.path().to_path_buf(),
            plugin_dir: dirs.host_volume_plugin_dir.clone(),
            node_pool: "default".into(),
            namespace: "default".into(),
            name: "example".into(),
            id: uuid::Uuid::new_v4().to_string(),
            capacity_min: 0,
            capacity_max: 0,
            node_id: uuid::Uuid::new_v4().to_string(),
            parameters: BTreeMap::from([("mode".into(), "0750".into())]),
        };
        let mkdir = Driver::Mkdir(profile.mkdir(), Policy::strict());
        let created = mkdir.create(&request).await.result?;
        println!("created volume {} at {}", request.id, created.path);
        if !std::path::Path::new(&created.path).is_dir() {
            return Err(format!("{} is not a directory", created.path).into());
        }
        mkdir.delete(&request, &created.path).await.result?;
        println!("deleted volume {}", request.id);
        Ok::<_, Box<dyn std::error::Error>>(())
    })
}

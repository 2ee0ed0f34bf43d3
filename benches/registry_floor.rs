//! The floor for registry work: what any program must do to read the
//! registry and write it back safely, with nothing else. Plain serde structs
//! mirroring the file (src/registry/model.rs), a typed parse, then an atomic
//! write of the same document in the same format (pretty JSON): temporary
//! file, fsync, rename, fsync of the directory.
//!
//!   registry_floor gen N FILE [VOLUMES_DIR]
//!                                write a registry holding N ready volumes
//!                                (created under VOLUMES_DIR)
//!   registry_floor events N FILE write a registry whose journal holds N
//!                                events (one segment), as plugctl lays it out
//!   registry_floor parse FILE    read and parse only
//!   registry_floor FILE          read, parse, write back atomically
//!
//! Prints the time of each step on stderr. benches/run.sh times the whole
//! process, as it times plugctl.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Serialize, Deserialize)]
struct State {
    schema_version: u32,
    #[serde(default)]
    write_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    node_id: Option<String>,
    #[serde(default)]
    seq: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    journal: Option<Value>,
    #[serde(default)]
    plugins: BTreeMap<String, Value>,
    #[serde(default)]
    volumes: BTreeMap<String, Volume>,
}

#[derive(Serialize, Deserialize)]
struct Volume {
    id: String,
    name: String,
    namespace: String,
    plugin: String,
    node_id: String,
    node_pool: String,
    capacity_min: u64,
    capacity_max: u64,
    parameters: BTreeMap<String, String>,
    path: String,
    bytes: i64,
    state: String,
    created_at: String,
    updated_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    volumes_dir: Option<String>,
}

/// A lowercase UUID-shaped id from a counter: deterministic, unique.
fn id(i: u64) -> String {
    let h = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5851_f42d_4c95_7f2d;
    format!(
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        h >> 32,
        (h >> 16) & 0xffff,
        (h >> 4) & 0xfff,
        i & 0xfff,
        i
    )
}

fn generate(n: u64, path: &Path, dir: &str) {
    let node = "6f1c2a4e-8d3b-4f5a-9c7e-1b2d3e4f5a6b".to_string();
    let volumes = (0..n)
        .map(|i| {
            let id = id(i);
            let v = Volume {
                id: id.clone(),
                name: format!("volume-{i}"),
                namespace: "default".into(),
                plugin: "mkdir".into(),
                node_id: node.clone(),
                node_pool: "default".into(),
                capacity_min: 1 << 30,
                capacity_max: 10 << 30,
                parameters: [("mode".to_string(), "0755".to_string())].into(),
                path: format!("{dir}/{id}"),
                bytes: 0,
                state: "ready".into(),
                created_at: "2026-01-01T00:00:00.000Z".into(),
                updated_at: "2026-01-01T00:00:00.000Z".into(),
                error: None,
                volumes_dir: Some(dir.into()),
            };
            (id, v)
        })
        .collect();
    let state = State {
        schema_version: 2,
        write_id: String::new(),
        node_id: Some(node),
        seq: 0,
        journal: None,
        plugins: BTreeMap::new(),
        volumes,
    };
    write_atomically(&state, path);
}

/// A registry whose journal (one segment) holds `n` events, as a node
/// that registered and deregistered plugins for a long time would have.
fn generate_events(n: u64, path: &Path) {
    let mut name = path.file_name().unwrap().to_os_string();
    name.push(".journal.00000001");
    let segment = path.with_file_name(name);
    let file = File::create(&segment).expect("create the journal");
    let mut w = BufWriter::with_capacity(1 << 16, &file);
    writeln!(w, r#"{{"plugctl_journal":1,"segment":1}}"#).expect("write");
    for seq in 1..=n {
        let kind = if seq % 2 == 1 {
            "register"
        } else {
            "deregister"
        };
        writeln!(
            w,
            r#"{{"seq":{seq},"kind":"{kind}","type":"csi-node","name":"ebs-{}","time":"2026-01-01T00:00:00.000Z","alloc_id":"{}","socket":"/run/plugins/ebs.sock","version":"1.4.0"}}"#,
            seq % 100,
            id(seq)
        )
        .expect("write");
    }
    w.flush().expect("write");
    drop(w);
    let offset = fs::metadata(&segment).expect("journal").len();
    let state = State {
        schema_version: 2,
        write_id: String::new(),
        node_id: Some("6f1c2a4e-8d3b-4f5a-9c7e-1b2d3e4f5a6b".into()),
        seq: n,
        journal: Some(serde_json::json!({"segment": 1, "offset": offset})),
        plugins: BTreeMap::new(),
        volumes: BTreeMap::new(),
    };
    write_atomically(&state, path);
}

fn write_atomically(state: &State, path: &Path) {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let tmp = dir.join(format!(".floor-{}.tmp", std::process::id()));
    let file = File::create(&tmp).expect("create temporary file");
    let mut w = BufWriter::with_capacity(1 << 16, &file);
    serde_json::to_writer_pretty(&mut w, state).expect("write");
    w.write_all(b"\n").and_then(|()| w.flush()).expect("write");
    drop(w);
    file.sync_all().expect("fsync");
    fs::rename(&tmp, path).expect("rename");
    File::open(dir)
        .and_then(|d| d.sync_all())
        .expect("fsync directory");
}

fn parse(path: &Path) -> State {
    let bytes = fs::read(path).expect("read");
    serde_json::from_slice(&bytes).expect("parse")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [cmd, n, file] if cmd == "gen" => generate(
            n.parse().expect("N"),
            Path::new(file),
            "/opt/nomad/data/host_volumes",
        ),
        [cmd, n, file, dir] if cmd == "gen" => {
            generate(n.parse().expect("N"), Path::new(file), dir)
        }
        [cmd, n, file] if cmd == "events" => {
            generate_events(n.parse().expect("N"), Path::new(file))
        }
        [p, file] if p == "parse" => {
            let t = Instant::now();
            let state = parse(Path::new(file));
            eprintln!("{} volumes: parse {:?}", state.volumes.len(), t.elapsed());
        }
        [file] => {
            let t = Instant::now();
            let state = parse(Path::new(file));
            let parsed = t.elapsed();
            write_atomically(&state, Path::new(file));
            eprintln!(
                "{} volumes: parse {parsed:?}, write {:?}",
                state.volumes.len(),
                t.elapsed() - parsed
            );
        }
        _ => {
            eprintln!(
                "usage: registry_floor gen N FILE [VOLUMES_DIR] | events N FILE | parse FILE | FILE"
            );
            std::process::exit(2);
        }
    }
}

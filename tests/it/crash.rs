//! Crash safety: plugctl processes changing the registry at once while
//! another thread SIGKILLs them at random. Nothing a plugctl acknowledged
//! (exit 0) may be lost, the registry always parses, and what a killed
//! plugctl left half done is visible (`pending`, `deleting`) and settled by
//! `plugctl volume repair`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::Value;

/// plugctl as a plain process, to spawn under [`LIVE`] and kill at random
/// (the builder's runs cannot be killed by another thread): the rig's,
/// with a lock timeout that contention never reaches.
fn killable(s: &Rig, args: &[String]) -> Command {
    let mut c = s.std_cmd();
    c.args(args)
        .env("PLUGCTL_LOCK_TIMEOUT", "60s")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    c
}

/// A small xorshift generator: no dependency, and a printed seed makes a
/// failing run repeatable (`PLUGCTL_STRESS_SEED`).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The plugctl processes this test spawned and has not reaped, by pid.
/// Reaping happens under this lock, and so does killing: a pid in here is
/// always ours, never a reused one.
static LIVE: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

/// Runs plugctl to the end (or to its death), registered in [`LIVE`].
fn run_killable(mut cmd: Command) -> (ExitStatus, String) {
    let mut child: Child = {
        let mut live = LIVE.lock().unwrap();
        let child = cmd.spawn().unwrap();
        live.insert(child.id());
        child
    };
    let status = loop {
        {
            let mut live = LIVE.lock().unwrap();
            if let Some(status) = child.try_wait().unwrap() {
                live.remove(&child.id());
                break status;
            }
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        use std::io::Read;
        let _ = e.read_to_string(&mut err);
    }
    (status, err)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Create,
    Delete,
    Register,
    Deregister,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Exited(i32),
    Killed,
}

#[derive(Debug, Clone)]
struct Done {
    kind: Kind,
    /// volume id, or alloc id
    target: String,
    end: End,
    stderr: String,
}

const WORKERS: usize = 8;
const OPS: usize = 30;

fn worker(s: &Rig, w: usize, seed: u64) -> Vec<Done> {
    let mut rng = Rng(seed);
    let mut volumes: Vec<String> = Vec::new();
    let mut allocs: Vec<String> = Vec::new();
    let mut done = Vec::new();
    for i in 0..OPS {
        let roll = rng.below(100);
        let (kind, target, args): (Kind, String, Vec<String>) = if roll < 25 && !volumes.is_empty()
        {
            let v = volumes.remove(rng.below(volumes.len() as u64) as usize);
            (
                Kind::Delete,
                v.clone(),
                vec!["volume".into(), "delete".into(), v],
            )
        } else if roll < 40 && !allocs.is_empty() {
            let a = allocs.remove(rng.below(allocs.len() as u64) as usize);
            let args = ["plugin", "deregister", "--type", "csi-node", "--name"];
            let mut args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            args.extend([format!("w{w}"), "--alloc-id".into(), a.clone()]);
            (Kind::Deregister, a, args)
        } else if roll < 65 {
            let a = format!("alloc-{w}-{i}");
            let args = ["plugin", "register", "--type", "csi-node", "--name"];
            let mut args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            args.extend([
                format!("w{w}"),
                "--alloc-id".into(),
                a.clone(),
                "--socket".into(),
                format!("/run/plugctl-test/{a}.sock"),
            ]);
            (Kind::Register, a, args)
        } else {
            let id = uuid::Uuid::new_v4().to_string();
            let args = ["volume", "create", "--plugin", "fast", "--name"];
            let mut args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            args.extend([format!("v-{w}-{i}"), "--id".into(), id.clone()]);
            (Kind::Create, id, args)
        };
        let (status, stderr) = run_killable(killable(s, &args));
        let end = match (status.code(), status.signal()) {
            (Some(c), _) => End::Exited(c),
            (None, Some(9)) => End::Killed,
            other => panic!("{args:?} ended oddly: {other:?}"),
        };
        // Only what was acknowledged is built upon.
        if end == End::Exited(0) {
            match kind {
                Kind::Create => volumes.push(target.clone()),
                Kind::Register => allocs.push(target.clone()),
                _ => {}
            }
        }
        done.push(Done {
            kind,
            target,
            end,
            stderr,
        });
    }
    done
}

fn registry_entries(s: &Rig) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(s.registry.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

fn volumes_by_id(reg: &Value) -> BTreeMap<String, Value> {
    reg["volumes"]
        .as_object()
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default()
}

fn allocs_of(reg: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if let Some(names) = reg["plugins"]["csi-node"].as_object() {
        for list in names.values() {
            for inst in list.as_array().unwrap() {
                out.insert(inst["alloc_id"].as_str().unwrap().to_string());
            }
        }
    }
    out
}

/// How one object's history must show in the registry.
#[derive(Debug, PartialEq, Eq)]
enum Must {
    Present,
    Absent,
    Either,
}

fn expectation(history: &[&Done]) -> Must {
    // Each worker's operations on one object are sequential: creation, then
    // at most one removal, only after an acknowledged creation.
    match history {
        [make] if make.end == End::Exited(0) => Must::Present,
        [make, remove] if make.end == End::Exited(0) => match remove.end {
            End::Exited(0) => Must::Absent,
            _ => Must::Either,
        },
        [make] if make.end == End::Killed => Must::Either,
        _ => panic!("unexpected history {history:?}"),
    }
}

#[test]
fn kill_9_at_random_loses_no_acknowledged_operation() {
    let s = Rig::new();
    s.plugin(
        "host-volume",
        "fast",
        r#"# a short pause from the pid: kills land before, during and after it
case "$1" in
fingerprint) echo '{"version": "1.0.0"}' ;;
create)
  sleep 0.0$(( $$ % 5 ))
  mkdir -p "$DHV_VOLUMES_DIR/$DHV_VOLUME_ID"
  echo "{\"path\": \"$DHV_VOLUMES_DIR/$DHV_VOLUME_ID\", \"bytes\": 0}" ;;
delete)
  sleep 0.0$(( $$ % 5 ))
  rm -rf "$DHV_VOLUMES_DIR/$DHV_VOLUME_ID" ;;
esac"#,
    );
    make_dir(&s.volumes);
    let seed: u64 = std::env::var("PLUGCTL_STRESS_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
                | 1
        });
    eprintln!("PLUGCTL_STRESS_SEED={seed}");

    let started = Instant::now();
    let finished = std::sync::atomic::AtomicBool::new(false);
    let mut kills = 0;
    let results: Vec<Vec<Done>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..WORKERS)
            .map(|w| {
                let s = &s;
                scope.spawn(move || worker(s, w, seed.wrapping_mul(w as u64 + 7) | 1))
            })
            .collect();
        let killer = scope.spawn(|| {
            let mut rng = Rng(seed ^ 0x9e37_79b9_7f4a_7c15);
            let mut kills = 0;
            while !finished.load(std::sync::atomic::Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(10 + rng.below(60)));
                let live = LIVE.lock().unwrap();
                if live.is_empty() {
                    continue;
                }
                let pid = *live
                    .iter()
                    .nth(rng.below(live.len() as u64) as usize)
                    .unwrap();
                // Ours, unreaped (the lock is held): never a reused pid.
                let _ = nix::sys::signal::kill(
                    nix::unistd::Pid::from_raw(pid as i32),
                    nix::sys::signal::Signal::SIGKILL,
                );
                kills += 1;
            }
            kills
        });
        let results = handles.into_iter().map(|h| h.join().unwrap()).collect();
        finished.store(true, std::sync::atomic::Ordering::SeqCst);
        kills = killer.join().unwrap();
        results
    });
    let all: Vec<&Done> = results.iter().flatten().collect();
    let killed = all.iter().filter(|d| d.end == End::Killed).count();
    eprintln!(
        "{} operations, {kills} SIGKILLs sent, {killed} operations killed, in {:?}",
        all.len(),
        started.elapsed()
    );
    // Every operation not killed succeeded: contention is no failure.
    for d in &all {
        assert!(
            matches!(d.end, End::Exited(0) | End::Killed),
            "{:?} {} ended {:?}: {}",
            d.kind,
            d.target,
            d.end,
            d.stderr
        );
    }
    assert!(
        killed > 0,
        "the killer never hit anything: the test proved little"
    );
    // Orphaned plugins of killed plugctls finish their short sleep.
    std::thread::sleep(Duration::from_millis(300));

    // The registry parses, and every acknowledged operation is reflected.
    let reg = s.registry_json();
    let vols = volumes_by_id(&reg);
    let allocs = allocs_of(&reg);
    let mut histories: HashMap<&str, Vec<&Done>> = HashMap::new();
    for d in &all {
        histories.entry(&d.target).or_default().push(d);
    }
    let mut pending_or_deleting = 0;
    for (target, history) in &histories {
        let volume = matches!(history[0].kind, Kind::Create);
        let present = if volume {
            vols.contains_key(*target)
        } else {
            allocs.contains(*target)
        };
        match expectation(history) {
            Must::Present => assert!(present, "{target} lost: {history:?}"),
            Must::Absent => assert!(!present, "{target} came back: {history:?}"),
            Must::Either => {}
        }
        if volume && let Some(v) = vols.get(*target) {
            let state = v["state"].as_str().unwrap();
            assert!(
                ["ready", "pending", "deleting"].contains(&state),
                "{target}: {v}"
            );
            // Only a killed plugctl leaves a volume half done.
            if state != "ready" {
                assert!(
                    history.iter().any(|d| d.end == End::Killed),
                    "{target} is {state} though nothing was killed: {history:?}"
                );
                pending_or_deleting += 1;
            }
        }
    }
    // Nothing appeared that nobody asked for.
    for id in vols.keys() {
        assert!(histories.contains_key(id.as_str()), "stray volume {id}");
    }
    for a in &allocs {
        assert!(histories.contains_key(a.as_str()), "stray instance {a}");
    }
    // Events: strictly increasing, none lost in the counter.
    let seqs = seqs(reg["events"].as_array().unwrap());
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{seqs:?}");
    assert_eq!(seqs.last().copied(), reg["seq"].as_u64());
    // Besides the registry, its journal, its lock and the owners' liveness
    // locks, only temporary files of writers that were killed mid-write.
    let leftovers: Vec<String> = registry_entries(&s)
        .into_iter()
        .filter(|n| {
            n != "registry.json"
                && n != "registry.json.lock"
                && n != "registry.json.owners"
                && !n.starts_with("registry.json.journal.")
        })
        .collect();
    for n in &leftovers {
        assert!(n.starts_with('.') && n.ends_with(".tmp"), "stray file {n}");
    }
    eprintln!(
        "{pending_or_deleting} volumes left pending or deleting, {} temporary files left",
        leftovers.len()
    );

    // `volume list` shows the half-done ones, not in progress (owners dead).
    let listed = list_volumes(&s);
    assert_eq!(listed.len(), vols.len());
    for v in &listed {
        assert_eq!(v["in_progress"], false, "{v}");
    }
    let table = plugctl(&s).args(["volume", "list"]).any_exit().stdout();
    if pending_or_deleting > 0 {
        assert!(table.contains("run volume repair"), "{table}");
    }

    // repair settles every one of them, and then has nothing left to do.
    let doc = plugctl(&s)
        .args(["--json", "volume", "repair"])
        .succeeds()
        .json();
    assert_eq!(
        doc["results"].as_array().unwrap().len(),
        pending_or_deleting,
        "{doc}"
    );
    let reg = s.registry_json();
    let after = volumes_by_id(&reg);
    for (id, v) in &after {
        assert_eq!(v["state"], "ready", "{id}: {v}");
        assert!(v.get("owner").is_none(), "{v}");
        // the world agrees with the registry
        assert!(s.volumes.join(id).is_dir(), "{id} has no directory");
    }
    for (target, history) in &histories {
        if history[0].kind == Kind::Create && expectation(history) == Must::Present {
            assert!(after.contains_key(*target), "{target} lost by repair");
        }
        if history[0].kind == Kind::Create && expectation(history) == Must::Absent {
            assert!(!after.contains_key(*target), "{target} back after repair");
            assert!(!s.volumes.join(target).exists(), "{target} still on disk");
        }
    }
    let on_disk: BTreeSet<String> = fs::read_dir(&s.volumes)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    let recorded: BTreeSet<String> = after.keys().cloned().collect();
    assert_eq!(on_disk, recorded, "volumes on disk and in the registry");
    plugctl(&s)
        .args(["volume", "repair"])
        .succeeds()
        .stderr_has("nothing to repair");
    // The writes since cleaned up what killed writers left: no temporary
    // file, no uncommitted journal segment.
    let entries = registry_entries(&s);
    assert_eq!(
        entries,
        [
            "registry.json",
            "registry.json.journal.00000001",
            "registry.json.lock"
        ],
        "{entries:?}"
    );
}

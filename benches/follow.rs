//! What a follower costs: `plugctl events --follow` on a registry, idle and
//! while another process writes.
//!
//!   follow PLUGCTL REGISTRY IDLE_SECONDS WRITES
//!
//! Starts the follower, lets it sit idle for IDLE_SECONDS and reads the CPU
//! time it used meanwhile (from /proc), then makes WRITES registrations
//! through the plugctl library (the same transaction `plugin register`
//! runs) and times each from the moment its write landed — the rename of
//! the registry file, seen through inotify here as the follower sees it —
//! to the moment the follower printed it. Prints, tab-separated:
//! `idle_cpu_percent median_ms max_ms`.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use notify::Watcher as _;
use plugctl_core::registry::Registry;
use plugctl_core::registry::dynamic::Registration;

fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("the follower runs");
    let rest = &stat[stat.rfind(')').expect("stat") + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime: fields 14 and 15, here 11 and 12 after the state.
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [plugctl, registry, idle, writes] = args.as_slice() else {
        eprintln!("usage: follow PLUGCTL REGISTRY IDLE_SECONDS WRITES");
        std::process::exit(2);
    };
    let idle = Duration::from_secs(idle.parse().expect("IDLE_SECONDS"));
    let writes: usize = writes.parse().expect("WRITES");
    let registry = Path::new(registry);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let reg = Registry::new(registry, Duration::from_secs(30));
    let register = |i: usize| {
        let r = Registration {
            family: "csi-node".into(),
            name: format!("bench-{i}"),
            alloc_id: format!("alloc-{i}"),
            socket: "/run/bench.sock".into(),
            version: None,
            options: Default::default(),
        };
        rt.block_on(reg.register(&r)).expect("register");
    };
    // The log starts after this, so the follower prints only what comes.
    register(0);
    let seq0 = reg.head().expect("head").seq;

    let mut follower = Command::new(plugctl)
        .args(["--registry"])
        .arg(registry)
        .args(["--json", "events", "--follow", "--since"])
        .arg(seq0.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start the follower");
    let pid = follower.id();
    let out = follower.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if tx.send((line, Instant::now())).is_err() {
                break;
            }
        }
    });
    // Ready: it prints the first write it sees.
    register(1);
    rx.recv_timeout(Duration::from_secs(30))
        .expect("the follower never printed");

    let before = cpu_ticks(pid);
    std::thread::sleep(idle);
    let used = cpu_ticks(pid) - before;
    let hz = 100.0; // USER_HZ on Linux
    let idle_cpu = used as f64 / hz / idle.as_secs_f64() * 100.0;

    // When each rename lands, as the kernel tells any watcher.
    let (renamed_tx, renamed) = mpsc::channel();
    let name = registry.file_name().unwrap().to_os_string();
    let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        if let Ok(e) = res
            && matches!(
                e.kind,
                notify::EventKind::Modify(notify::event::ModifyKind::Name(
                    notify::event::RenameMode::To
                ))
            )
            && e.paths.iter().any(|p| p.file_name() == Some(&name))
        {
            let _ = renamed_tx.send(Instant::now());
        }
    })
    .expect("a watcher");
    watcher
        .watch(
            registry.parent().unwrap(),
            notify::RecursiveMode::NonRecursive,
        )
        .expect("watch the registry's directory");

    let mut lat = Vec::with_capacity(writes);
    for i in 0..writes {
        while renamed.try_recv().is_ok() {}
        register(i + 2);
        let landed = renamed
            .recv_timeout(Duration::from_secs(30))
            .expect("the rename was not seen");
        let (line, seen) = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the follower missed a write");
        assert!(line.contains(&format!("bench-{}", i + 2)), "{line}");
        lat.push(seen.saturating_duration_since(landed));
    }
    let _ = follower.kill();
    let _ = follower.wait();
    lat.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{idle_cpu:.3}\t{:.3}\t{:.3}",
        ms(lat[lat.len() / 2]),
        ms(*lat.last().unwrap())
    );
}

//! The dynamic plugin registry through the real binary: `plugin register`,
//! `deregister`, `wait`, and the socket health shown by `plugin list|show`.

use std::os::unix::net::UnixListener;
use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::Value;

/// The words of a csi-node deregistration.
fn deregister_args<'a>(name: &'a str, alloc: &'a str) -> [&'a str; 8] {
    [
        "plugin",
        "deregister",
        "--type",
        "csi-node",
        "--name",
        name,
        "--alloc-id",
        alloc,
    ]
}

/// A csi-node deregistration, to run and check.
fn deregister(s: &Rig, name: &str, alloc: &str) -> expect::Run {
    plugctl(s).args(deregister_args(name, alloc))
}

fn allocs(doc: &Value) -> Vec<String> {
    doc["instances"]
        .as_array()
        .expect("instances")
        .iter()
        .map(|i| i["alloc_id"].as_str().unwrap().to_string())
        .collect()
}

fn seq(s: &Rig) -> u64 {
    s.registry_json()["seq"].as_u64().unwrap()
}

#[test]
fn most_recent_registration_is_current_and_persisted() {
    let s = Rig::new();
    let sock = |a: &str| s.root().join(format!("{a}.sock")).display().to_string();
    register(&s, "csi-node", "ebs", "a1", &sock("a1"));
    register(&s, "csi-node", "ebs", "a2", &sock("a2"));

    let list = plugctl(&s)
        .args(["--json", "plugin", "list", "--type", "csi-node"])
        .any_exit()
        .json();
    let cur = row(&list, "csi-node", "ebs");
    assert_eq!(cur["alloc_id"], "a2");
    assert_eq!(cur["source"], "dynamic");
    for key in ["type", "name", "healthy", "version", "error", "duration_ms"] {
        assert!(cur.get(key).is_some(), "{key} missing in {cur}");
    }

    let show = plugctl(&s)
        .args(["--json", "plugin", "show", "csi-node", "ebs"])
        .succeeds()
        .json();
    assert_eq!(allocs(&show), ["a2", "a1"]);

    // The lookup by allocation.
    let one = plugctl(&s)
        .args([
            "--json",
            "plugin",
            "show",
            "csi-node",
            "ebs",
            "--alloc-id",
            "a1",
        ])
        .any_exit()
        .json();
    assert_eq!(allocs(&one), ["a1"]);
    assert_eq!(one["instances"][0]["socket"], sock("a1"));
    plugctl(&s)
        .args(["plugin", "show", "csi-node", "ebs", "--alloc-id", "nope"])
        .fails_with(Exit::NotFound);

    // In the file, for a restarted node: order and connection info.
    let file = s.registry_json();
    let stored = file["plugins"]["csi-node"]["ebs"].as_array().unwrap();
    assert_eq!(stored.len(), 2);
    assert_eq!(stored[0]["alloc_id"], "a2");
    assert_eq!(stored[0]["socket"], sock("a2"));
    assert_eq!(stored[1]["alloc_id"], "a1");

    // The table shows where each came from.
    let text = plugctl(&s)
        .args(["plugin", "show", "csi-node", "ebs"])
        .any_exit()
        .stdout();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].contains("SOCKET") && lines[0].contains("FROM"),
        "{text}"
    );
    assert!(lines[1].contains("alloc a2"), "{text}");
    assert!(lines[2].contains("alloc a1"), "{text}");
}

#[test]
fn relative_socket_is_stored_absolute() {
    let s = Rig::new();
    register(&s, "csi-node", "ebs", "a1", "rel/csi.sock");
    let file = s.registry_json();
    assert_eq!(
        file["plugins"]["csi-node"]["ebs"][0]["socket"],
        s.root().join("rel/csi.sock").display().to_string()
    );
}

#[test]
fn re_register_is_idempotent() {
    let s = Rig::new();
    register(&s, "csi-node", "ebs", "a1", "/run/a1.sock");
    register(&s, "csi-node", "ebs", "a2", "/run/a2.sock");
    assert_eq!(seq(&s), 2);

    // Same allocation again, even with other details: nothing changes, no
    // event, and it does not become current.
    let out = plugctl(&s)
        .args([
            "--json",
            "plugin",
            "register",
            "--type",
            "csi-node",
            "--name",
            "ebs",
            "--alloc-id",
            "a1",
            "--socket",
            "/run/other.sock",
        ])
        .succeeds();
    let doc = out.json();
    assert_eq!(doc["changed"], false);
    assert_eq!(doc["seq"], Value::Null);
    assert_eq!(doc["is_current"], false);
    assert_eq!(doc["instance"]["socket"], "/run/a1.sock");
    assert!(
        stderr(&out).contains("already registered"),
        "{}",
        stderr(&out)
    );
    let out = register(&s, "csi-node", "ebs", "a1", "/run/a1.sock");
    assert!(stdout(&out).contains("nothing changed"), "{}", stdout(&out));

    assert_eq!(seq(&s), 2);
    let show = plugctl(&s)
        .args(["--json", "plugin", "show", "csi-node", "ebs"])
        .any_exit()
        .json();
    assert_eq!(allocs(&show), ["a2", "a1"]);
    assert_eq!(s.registry_json()["events"].as_array().unwrap().len(), 2);
}

#[test]
fn deregister_tolerates_unknown_names_and_missing_allocations() {
    let s = Rig::new();
    // Nothing registered at all.
    deregister(&s, "never", "a1")
        .succeeds()
        .stdout_has("not registered");

    register(&s, "csi-node", "ebs", "a1", "/run/a1.sock");
    assert_eq!(seq(&s), 1);
    // An unknown name, and an allocation that never registered (a plugin
    // that crashed first): success, no event, nothing touched.
    for (name, alloc) in [("never", "a1"), ("ebs", "crashed")] {
        deregister(&s, name, alloc).succeeds();
    }
    let doc = plugctl(&s)
        .arg("--json")
        .args(deregister_args("ebs", "gone"))
        .succeeds()
        .json();
    assert_eq!(doc["changed"], false);
    assert_eq!(seq(&s), 1);
    let show = plugctl(&s)
        .args(["--json", "plugin", "show", "csi-node", "ebs"])
        .any_exit()
        .json();
    assert_eq!(allocs(&show), ["a1"]);

    // Twice the same real deregister: one event.
    deregister(&s, "ebs", "a1").succeeds();
    deregister(&s, "ebs", "a1").succeeds();
    assert_eq!(seq(&s), 2);
    let events = s.registry_json()["events"].clone();
    assert_eq!(events[1]["kind"], "deregister");
    assert_eq!(events[1]["alloc_id"], "a1");

    // A fingerprinted family is not a dynamic type: an error that names it.
    plugctl(&s)
        .args([
            "plugin",
            "deregister",
            "--type",
            "host-volume",
            "--name",
            "ebs",
            "--alloc-id",
            "a1",
        ])
        .fails_with(Exit::Usage)
        .stderr_has("\"host-volume\"")
        .stderr_has("csi-controller, csi-node");
}

#[test]
fn current_instance_leaving_hands_over_to_the_previous() {
    let s = Rig::new();
    for a in ["a1", "a2", "a3"] {
        register(&s, "csi-node", "ebs", a, &format!("/run/{a}.sock"));
    }
    // An older one leaves: the current stays.
    deregister(&s, "ebs", "a2").succeeds();
    let list = plugctl(&s)
        .args(["--json", "plugin", "list"])
        .any_exit()
        .json();
    assert_eq!(row(&list, "csi-node", "ebs")["alloc_id"], "a3");

    // The current one leaves: the previous takes over.
    let doc = plugctl(&s)
        .arg("--json")
        .args(deregister_args("ebs", "a3"))
        .succeeds()
        .json();
    assert_eq!(doc["changed"], true);
    assert_eq!(doc["was_current"], true);
    assert_eq!(doc["current"]["alloc_id"], "a1");
    let list = plugctl(&s)
        .args(["--json", "plugin", "list"])
        .any_exit()
        .json();
    assert_eq!(row(&list, "csi-node", "ebs")["alloc_id"], "a1");
    let last = s.registry_json()["events"]
        .as_array()
        .unwrap()
        .last()
        .cloned();
    assert_eq!(last.unwrap()["current_alloc_id"], "a1");

    // The last one leaves: no such plugin any more.
    deregister(&s, "ebs", "a1").succeeds();
    plugctl(&s)
        .args(["plugin", "show", "csi-node", "ebs"])
        .fails_with(Exit::NotFound);
}

#[test]
fn validation_errors_are_usage_errors() {
    let s = Rig::new();
    let base = |ty: &str, name: &str, alloc: &str, sock: &str| -> Vec<String> {
        register_args(ty, name, alloc, sock)
            .iter()
            .map(|x| x.to_string())
            .collect()
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        (base("", "ebs", "a1", "/s"), "type must not be empty"),
        (
            base("secrets", "ebs", "a1", "/s"),
            "not a dynamic plugin type",
        ),
        (
            base("host-volume", "ebs", "a1", "/s"),
            "csi-controller, csi-node",
        ),
        (base("csi-node", "", "a1", "/s"), "name must not be empty"),
        (base("csi-node", "../x", "a1", "/s"), "contains '/'"),
        (
            base("csi-node", "ebs", "", "/s"),
            "allocation id must not be empty",
        ),
        (base("csi-node", "ebs", "a1", ""), "--socket"),
        (
            vec![
                "plugin".into(),
                "register".into(),
                "--type".into(),
                "csi-node".into(),
                "--name".into(),
                "ebs".into(),
                "--alloc-id".into(),
                "a1".into(),
            ],
            "--socket",
        ),
        (
            vec![
                "plugin".into(),
                "deregister".into(),
                "--type".into(),
                "csi-node".into(),
                "--name".into(),
                "ebs".into(),
                "--alloc-id".into(),
                " ".into(),
            ],
            "allocation id must not be empty",
        ),
    ];
    for (args, want) in cases {
        plugctl(&s)
            .args_from(&args)
            .fails_with(Exit::Usage)
            .stderr_has(want);
    }
    // Refused before touching the registry.
    assert!(!s.registry.exists());

    // With --json the failure is a document too.
    plugctl(&s)
        .args([
            "--json",
            "plugin",
            "register",
            "--type",
            "secrets",
            "--name",
            "n",
            "--alloc-id",
            "a",
            "--socket",
            "/s",
        ])
        .fails_with(Exit::Usage)
        .error_kind("usage");

    // --version and --option are the plugin's, and --help works.
    plugctl(&s)
        .args(["plugin", "register", "--help"])
        .succeeds();
    plugctl(&s)
        .args(register_args("csi-controller", "ebs", "a1", "/s"))
        .args(["--version", "1.4.0", "--option", "mount_dir=/csi"])
        .succeeds();
    let stored = &s.registry_json()["plugins"]["csi-controller"]["ebs"][0];
    assert_eq!(stored["version"], "1.4.0");
    assert_eq!(stored["options"]["mount_dir"], "/csi");
}

#[test]
fn show_reports_socket_health() {
    let s = Rig::new();
    let live = s.root().join("live.sock");
    let _listener = UnixListener::bind(&live).unwrap();
    let missing = s.root().join("missing.sock");
    let stale = s.root().join("stale.sock");
    drop(UnixListener::bind(&stale).unwrap()); // a socket file nobody listens on
    register(&s, "csi-node", "ebs", "missing", missing.to_str().unwrap());
    register(&s, "csi-node", "ebs", "stale", stale.to_str().unwrap());
    register(&s, "csi-node", "ebs", "live", live.to_str().unwrap());

    let doc = plugctl(&s)
        .args(["--json", "plugin", "show", "csi-node", "ebs"])
        .succeeds()
        .json();
    let inst = doc["instances"].as_array().unwrap();
    assert_eq!(inst[0]["alloc_id"], "live");
    assert_eq!(inst[0]["socket_healthy"], true);
    assert_eq!(inst[0]["healthy"], true);
    assert_eq!(inst[0]["socket_status"]["exists"], true);
    assert_eq!(inst[0]["error"], Value::Null);

    assert_eq!(inst[1]["alloc_id"], "stale");
    assert_eq!(inst[1]["socket_healthy"], false);
    assert_eq!(inst[1]["socket_status"]["exists"], true);
    assert_eq!(inst[1]["socket_status"]["accepts"], false);

    assert_eq!(inst[2]["alloc_id"], "missing");
    assert_eq!(inst[2]["socket_healthy"], false);
    assert_eq!(inst[2]["healthy"], false);
    assert_eq!(inst[2]["socket_status"]["exists"], false);
    assert!(
        inst[2]["error"]
            .as_str()
            .unwrap()
            .contains("does not exist"),
        "{}",
        inst[2]
    );

    let text = plugctl(&s)
        .args(["plugin", "show", "csi-node", "ebs"])
        .any_exit()
        .stdout();
    let line = |alloc: &str| {
        text.lines()
            .find(|l| l.contains(&format!("alloc {alloc} ")))
            .unwrap_or_else(|| panic!("{alloc} in {text}"))
            .to_string()
    };
    assert!(line("live").contains("accepting"), "{text}");
    assert!(line("stale").contains("refusing"), "{text}");
    assert!(line("missing").contains("missing"), "{text}");
    assert!(line("missing").contains("unhealthy"), "{text}");

    // list shows the current instance's health the same way.
    let list = plugctl(&s)
        .args(["--json", "plugin", "list"])
        .any_exit()
        .json();
    assert_eq!(row(&list, "csi-node", "ebs")["socket_healthy"], true);
}

/// A listener that never accepts and whose backlog is full: a connect to
/// it is EAGAIN until the probe's deadline. The listener and the client
/// that fills it.
fn busy_listener(path: &std::path::Path) -> (std::os::fd::OwnedFd, std::os::fd::OwnedFd) {
    use nix::sys::socket::{
        AddressFamily, Backlog, SockFlag, SockType, UnixAddr, bind, connect, listen, socket,
    };
    use std::os::fd::AsRawFd;
    let addr = UnixAddr::new(path).unwrap();
    // Close-on-exec: 80 of them must not reach the plugctl under test.
    let listener = socket(
        AddressFamily::Unix,
        SockType::Stream,
        SockFlag::SOCK_CLOEXEC,
        None,
    )
    .unwrap();
    bind(listener.as_raw_fd(), &addr).unwrap();
    listen(&listener, Backlog::new(0).unwrap()).unwrap();
    let flags = SockFlag::SOCK_NONBLOCK | SockFlag::SOCK_CLOEXEC;
    let client = socket(AddressFamily::Unix, SockType::Stream, flags, None).unwrap();
    connect(client.as_raw_fd(), &addr).unwrap();
    (listener, client)
}

#[test]
fn many_busy_sockets_take_no_descriptor_each_while_they_are_waited_for() {
    if !tool_available(
        "prlimit",
        "util-linux's prlimit bounds plugctl's descriptors",
    ) {
        return;
    }
    let s = Rig::new();
    let held: Vec<_> = (0..40)
        .map(|i| {
            let path = s.root().join(format!("busy{i}.sock"));
            let pair = busy_listener(&path);
            register(
                &s,
                "csi-node",
                &format!("b{i}"),
                "a",
                path.to_str().unwrap(),
            );
            pair
        })
        .collect();
    // 40 descriptors for plugctl: fewer than the sockets it checks at once.
    let out = expect::Run::new(s.command("prlimit"), "prlimit")
        .args(["--nofile=40:40", PLUGCTL, "plugin", "list"])
        .succeeds()
        .stdout();
    assert!(!out.contains("Too many open files"), "{out}");
    assert_eq!(
        out.matches("did not accept a connection in time").count(),
        40,
        "{out}"
    );
    drop(held);
}

#[test]
fn wait_returns_soon_after_another_process_registers() {
    let s = Rig::new();
    let mut wait = plugctl(&s)
        .args(["plugin", "wait", "csi-node", "ebs", "--timeout", "30s"])
        .deadline(Duration::from_secs(15))
        .start();
    std::thread::sleep(Duration::from_millis(500));
    assert!(wait.running(), "wait returned early");
    register(&s, "csi-node", "ebs", "a1", "/run/a1.sock");
    let registered = Instant::now();
    wait.succeeds().stdout_has("alloc a1");
    let took = registered.elapsed();
    assert!(took < Duration::from_millis(1500), "noticed after {took:?}");
}

#[test]
fn wait_returns_at_once_when_registered_and_prints_the_instance() {
    let s = Rig::new();
    register(&s, "csi-node", "ebs", "a1", "/run/a1.sock");
    let start = Instant::now();
    let doc = plugctl(&s)
        .args([
            "--json",
            "plugin",
            "wait",
            "csi-node",
            "ebs",
            "--timeout",
            "10s",
        ])
        .succeeds()
        .json();
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(doc["instance"]["alloc_id"], "a1");
    assert_eq!(doc["instance"]["socket"], "/run/a1.sock");
}

#[test]
fn wait_healthy_waits_for_the_socket_to_accept() {
    let s = Rig::new();
    let sock = s.root().join("csi.sock");
    register(&s, "csi-node", "ebs", "a1", sock.to_str().unwrap());
    let mut wait = plugctl(&s)
        .args([
            "--json",
            "plugin",
            "wait",
            "csi-node",
            "ebs",
            "--healthy",
            "--timeout",
            "30s",
        ])
        .deadline(Duration::from_secs(15))
        .start();
    std::thread::sleep(Duration::from_millis(600));
    assert!(
        wait.running(),
        "--healthy returned before the socket listened"
    );
    let _listener = UnixListener::bind(&sock).unwrap();
    let listening = Instant::now();
    let doc = wait.succeeds().json();
    let took = listening.elapsed();
    assert!(took < Duration::from_millis(1500), "noticed after {took:?}");
    assert_eq!(doc["instance"]["socket_healthy"], true);
}

#[test]
fn wait_times_out_with_exit_4() {
    let s = Rig::new();
    let took = plugctl(&s)
        .args(["plugin", "wait", "csi-node", "ebs", "--timeout", "1s"])
        .fails_with(Exit::Timeout)
        .stderr_has("not registered")
        .took();
    assert!(took >= Duration::from_secs(1), "{took:?}");
    assert!(took < Duration::from_secs(5), "{took:?}");

    // Registered, but the socket never accepts.
    let missing = s.root().join("never.sock");
    register(&s, "csi-node", "ebs", "a1", missing.to_str().unwrap());
    let out = plugctl(&s)
        .args([
            "--json",
            "plugin",
            "wait",
            "csi-node",
            "ebs",
            "--healthy",
            "--timeout",
            "1s",
        ])
        .fails_with(Exit::Timeout);
    let doc = out.json();
    assert_eq!(doc["error"]["kind"], "timeout");
    assert!(stderr(&out).contains("never.sock"), "{}", stderr(&out));
}

#[test]
fn names_with_control_characters_or_too_long_are_refused() {
    let s = Rig::new();
    let long = "a".repeat(300);
    for name in ["evil\x1b[31mred", "two\nlines", "bell\x07", long.as_str()] {
        let out = plugctl(&s)
            .args(register_args("csi-node", name, "a1", "/run/a1.sock"))
            .fails_with(Exit::Usage);
        // The refusal quotes the name escaped, never raw.
        assert!(
            !out.stderr.contains(&0x1b) && !out.stderr.contains(&0x07),
            "{:?}",
            stderr(&out)
        );
        assert!(
            stderr(&out).trim_end().lines().count() == 1,
            "{:?}",
            stderr(&out)
        );
    }
    assert!(!s.registry.exists(), "nothing was recorded");
    // 255 bytes is still a name.
    register(&s, "csi-node", &"b".repeat(255), "a1", "/run/a1.sock");
}

/// Nomad's dynamic registry takes any non-empty type; only the families
/// plugctl fingerprints (and its plugin directory's other families) collide.
#[test]
fn any_dynamic_type_but_a_fingerprinted_family() {
    let s = Rig::new();
    register(&s, "csi-node", "ebs", "a1", "/run/a1.sock");
    for ty in ["device", "my-plugin-type"] {
        register(&s, ty, "p", "a1", "/run/p.sock");
        let doc = plugctl(&s)
            .args(["--json", "plugin", "show", ty, "p"])
            .any_exit()
            .json();
        assert_eq!(doc["instances"][0]["alloc_id"], "a1", "{doc}");
    }
    s.hv_ok("x", "1.0.0");
    make_dir(s.plugins.join("example-family"));
    for ty in ["host-volume", "secrets", "example-family"] {
        plugctl(&s)
            .args(register_args(ty, "p", "a1", "/run/p.sock"))
            .fails_with(Exit::Usage);
    }
}

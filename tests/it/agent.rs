//! The agent's configuration and the node's identity through the real
//! binary: a configuration the agent would refuse never has its text
//! printed (it holds tokens), wherever the error goes; a plugin gets the
//! agent's node pool and node id (`<state_dir>/client-id`), read through
//! the trust gate, which refuses a file another user could have written,
//! a FIFO and an id that would not reach the plugin intact; on a node
//! without an id yet, plugctl's own id, the same in a dry run as in the
//! call.

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::*;

const TOKEN: &str = "s3cr3t-7f3a9c";

/// A node: an agent configuration directory naming the rig's plugin and
/// volumes directories, and a data_dir whose `client/` holds the node id.
struct Node {
    s: Rig,
    config: PathBuf,
    data: PathBuf,
}

impl Node {
    fn new(client_extra: &str) -> Node {
        let s = Rig::new();
        let config = s.root().join("etc/nomad.d");
        let data = s.root().join("opt/nomad/data");
        make_dir(&config);
        make_dir(&data);
        let n = Node { s, config, data };
        n.write(
            "nomad.hcl",
            &format!(
                "data_dir = \"{}\"\nclient {{\n  enabled = true\n  host_volume_plugin_dir = \"{}\"\n  \
                 host_volumes_dir = \"{}\"\n{client_extra}}}\n",
                n.data.display(),
                n.s.plugins.join("host-volume").display(),
                n.s.volumes.display()
            ),
        );
        // A plugin that says which node it was given.
        let seen = n.s.root().join("seen");
        make_dir(&seen);
        n.s.plugin(
            "host-volume",
            "tell",
            &format!(
                r#"case "$1" in
fingerprint) echo '{{"version": "1.0.0"}}' ;;
create) mkdir -p "$DHV_VOLUMES_DIR/$DHV_VOLUME_ID"
        printf '%s\n%s\n' "$DHV_NODE_ID" "$DHV_NODE_POOL" > '{}/'"$DHV_VOLUME_NAME"
        echo "{{\"path\": \"$DHV_VOLUMES_DIR/$DHV_VOLUME_ID\", \"bytes\": 0}}" ;;
delete) rm -rf "$DHV_VOLUMES_DIR/$DHV_VOLUME_ID" ;;
esac"#,
                seen.display()
            ),
        );
        n
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.config.join(name);
        fs::write(&p, text).unwrap();
        p
    }

    fn state(&self) -> PathBuf {
        let state = self.data.join("client");
        make_dir(&state);
        fs::set_permissions(&state, fs::Permissions::from_mode(0o700)).unwrap();
        state
    }

    fn plugctl(&self) -> expect::Run {
        plugctl(&self.s)
            .env("PLUGCTL_NOMAD_CONFIG", &self.config)
            .env_remove("PLUGCTL_VOLUMES_DIR")
    }

    /// What the plugin was given for the volume `name`: node id and pool.
    fn seen(&self, name: &str) -> (String, String) {
        let text = fs::read_to_string(self.s.root().join("seen").join(name)).unwrap();
        let mut lines = text.lines().map(str::to_string);
        (lines.next().unwrap(), lines.next().unwrap())
    }

    /// `volume create --dry-run --json`: the one planned call's env.
    fn planned_env(&self, name: &str) -> serde_json::Map<String, Value> {
        let doc = self
            .plugctl()
            .args([
                "--json", "volume", "create", "--plugin", "tell", "--name", name,
            ])
            .arg("--dry-run")
            .succeeds()
            .json();
        let call = doc["calls"]
            .as_array()
            .and_then(|c| c.first())
            .cloned()
            .unwrap_or_else(|| panic!("no call planned: {doc:#}"));
        call["env"]
            .as_array()
            .unwrap_or_else(|| panic!("no env in the planned call: {doc:#}"))
            .iter()
            .map(|kv| {
                let (k, v) = kv.as_str().unwrap().split_once('=').unwrap();
                (k.to_string(), Value::String(v.to_string()))
            })
            .collect()
    }
}

use crate::common::expect;

/// Everything a run left where a person or a program reads it: stdout,
/// stderr, and every file of the registry's directory (events included).
fn everything_said(n: &Node, ran: &expect::Ran) -> String {
    let mut all = format!("{}\n{}", ran.stdout(), ran.stderr());
    if let Some(dir) = n.s.registry.parent() {
        for e in fs::read_dir(dir).into_iter().flatten().flatten() {
            if e.path().is_file() {
                all += &String::from_utf8_lossy(&fs::read(e.path()).unwrap_or_default());
            }
        }
    }
    all
}

#[test]
fn a_configuration_the_agent_refuses_never_has_its_text_printed() {
    let n = Node::new("");
    // The registry exists, with events, before the bad file arrives.
    n.plugctl().args(["fingerprint"]).succeeds();
    let cases: &[(&str, &str, &str)] = &[
        (
            "unquoted.hcl",
            "vault {\n  enabled = true\n  token   = TOKEN\n}\n",
            ":3:13: the file does not parse as HCL 1, as the agent reads it: expected a value, \
             got: IDENT",
        ),
        (
            "unterminated.hcl",
            "consul {\n  token = \"TOKEN\n}\n",
            ":2:25: the file does not parse as HCL 1, as the agent reads it: literal not \
             terminated",
        ),
        (
            "escape.hcl",
            "vault { token = \"TOKEN\\q\" }\n",
            ":1:32: the file does not parse as HCL 1, as the agent reads it: illegal char escape",
        ),
        (
            "key.hcl",
            "vault {\n  TOKEN\n}\n",
            ":3:1: the file does not parse as HCL 1, as the agent reads it: key expected start \
             of object",
        ),
        (
            "heredoc.hcl",
            "vault {\n  token = <<EOT\nTOKEN\n",
            ":4:1: the file does not parse as HCL 1, as the agent reads it: heredoc not \
             terminated",
        ),
        (
            "vault.json",
            "{\"vault\": {\"token\": TOKEN}}",
            ":1:33: the file does not parse as HCL 1, as the agent reads it: illegal char",
        ),
        (
            "relative.hcl",
            "data_dir = \"TOKEN\"\n",
            ":1:12: data_dir must be an absolute path, as Nomad requires: it is relative",
        ),
        (
            "pool.hcl",
            "client { node_pool = \"TOKEN with spaces\" }\n",
            ":1:22: client.node_pool is not a node pool name",
        ),
        (
            "crash.hcl",
            "data_dir = \"/srv/TOKEN\\777\"\n",
            ":1:12: a string HCL 1 cannot unquote",
        ),
    ];
    for (name, text, said) in cases {
        let file = n.write(name, &text.replace("TOKEN", TOKEN));
        for args in [
            &["fingerprint"][..],
            &["-vv", "--json", "plugin", "list"],
            &[
                "volume",
                "create",
                "--plugin",
                "tell",
                "--name",
                "x",
                "--dry-run",
            ],
            &["--json", "events"],
        ] {
            let ran = n.plugctl().args_from(args).fails_with(Exit::Usage);
            let all = everything_said(&n, &ran);
            assert!(
                !all.contains(TOKEN) && !all.contains("7f3a9c"),
                "{name} {args:?}: the token was printed or kept:\n{all}"
            );
            let want = format!("Nomad agent configuration {}{said}", file.display());
            assert!(
                all.contains(&want),
                "{name} {args:?}: want {want:?} in\n{all}"
            );
        }
        fs::remove_file(&file).unwrap();
    }
    n.plugctl().args(["fingerprint"]).succeeds();
}

#[test]
fn plugins_get_the_agents_node_pool_and_node_id() {
    let n = Node::new("  node_pool = \"gpu\"\n");
    // No id yet: plugctl's own, the same in the dry run as in the call,
    // and -v says whose it is.
    let planned = n.planned_env("first");
    let own = planned["DHV_NODE_ID"].as_str().unwrap().to_string();
    assert!(uuid::Uuid::parse_str(&own).is_ok(), "{own}");
    assert_eq!(planned["DHV_NODE_POOL"], "gpu");
    let ran = n
        .plugctl()
        .args([
            "-v", "volume", "create", "--plugin", "tell", "--name", "first",
        ])
        .succeeds();
    ran.stderr_has(&format!(
        "node id: {own} (plugctl's own, kept in the registry"
    ))
    .stderr_has("client-id does not exist")
    .stderr_has("node pool: gpu (client.node_pool in");
    assert_eq!(n.seen("first"), (own.clone(), "gpu".to_string()));
    // The next call gets the same.
    n.plugctl()
        .args(["volume", "create", "--plugin", "tell", "--name", "second"])
        .succeeds();
    assert_eq!(n.seen("second").0, own);

    // The agent wrote its id: that one, lower-cased as the agent takes it.
    let state = n.state();
    fs::write(
        state.join("client-id"),
        "0B9C5A7E-1D2F-4A6B-8C3D-4E5F60718293",
    )
    .unwrap();
    let agent = "0b9c5a7e-1d2f-4a6b-8c3d-4e5f60718293";
    assert_eq!(n.planned_env("third")["DHV_NODE_ID"], agent);
    let ran = n
        .plugctl()
        .args([
            "-v", "--json", "volume", "create", "--plugin", "tell", "--name", "third",
        ])
        .succeeds();
    let ran = ran.stderr_has(&format!(
        "node id: {agent} (the Nomad agent's, from {})",
        state.join("client-id").display()
    ));
    assert_eq!(ran.json()["volume"]["node_id"], agent);
    assert_eq!(n.seen("third"), (agent.to_string(), "gpu".to_string()));
    // A volume keeps the id it was made with: its delete passes it.
    let doc = n
        .plugctl()
        .args(["--json", "volume", "show", "first"])
        .succeeds()
        .json();
    assert_eq!(doc["volume"]["node_id"], own.as_str(), "{doc}");

    // Flags and variables name them for one run.
    let env = {
        let doc = n
            .plugctl()
            .env("PLUGCTL_NODE_POOL", "batch")
            .args(["--json", "--node-id", "given", "volume", "create"])
            .args(["--plugin", "tell", "--name", "fourth", "--dry-run"])
            .succeeds()
            .json();
        doc["calls"][0]["env"].to_string()
    };
    assert!(env.contains("\"DHV_NODE_ID=given\""), "{env}");
    assert!(env.contains("\"DHV_NODE_POOL=batch\""), "{env}");
    n.plugctl()
        .args(["--node-pool", "all", "plugin", "list"])
        .fails_with(Exit::Usage)
        .stderr_has("--node-pool is all");
}

#[test]
fn client_state_dir_says_where_the_node_id_is() {
    let n = Node::new("");
    let state = n.s.root().join("var/lib/nomad-client");
    make_dir(&state);
    fs::set_permissions(&state, fs::Permissions::from_mode(0o700)).unwrap();
    fs::write(
        state.join("client-id"),
        "5d0f2c1e-0000-4000-8000-0000000000aa",
    )
    .unwrap();
    n.write(
        "zz-state.json",
        &format!("{{\"client\": {{\"state_dir\": \"{}\"}}}}", state.display()),
    );
    assert_eq!(
        n.planned_env("v")["DHV_NODE_ID"],
        "5d0f2c1e-0000-4000-8000-0000000000aa"
    );
}

#[test]
fn a_client_id_no_one_should_trust_is_refused_and_never_waited_on() {
    let n = Node::new("");
    let state = n.state();
    let id = state.join("client-id");
    let create = |n: &Node| {
        n.plugctl()
            .args([
                "volume",
                "create",
                "--plugin",
                "tell",
                "--name",
                "v",
                "--dry-run",
            ])
            .fails_with(Exit::Usage)
    };

    // A line break the agent would keep: refused, never quoted, with the
    // way out.
    fs::write(&id, "0b9c5a7e-1d2f-4a6b-8c3d-4e5f60718293\n").unwrap();
    let ran = create(&n)
        .stderr_has(&format!("the Nomad agent's node id {}", id.display()))
        .stderr_has("control character")
        .stderr_has("--node-id");
    assert!(!ran.stderr().contains("0b9c5a7e"), "{}", ran.stderr());
    // Other commands do not need the id and still run.
    n.plugctl().args(["plugin", "list"]).succeeds();

    // A FIFO: refused at once (a read would block until a writer came).
    fs::remove_file(&id).unwrap();
    nix::unistd::mkfifo(&id, nix::sys::stat::Mode::S_IRWXU).unwrap();
    create(&n).stderr_has("cannot read the Nomad agent's node id");
    fs::remove_file(&id).unwrap();

    // A symlink to a root-owned file elsewhere is followed, as the agent
    // follows it, each hop judged.
    let elsewhere = n.s.root().join("ids");
    make_dir(&elsewhere);
    fs::write(
        elsewhere.join("real"),
        "6e1f3d2a-0000-4000-8000-0000000000bb",
    )
    .unwrap();
    symlink(elsewhere.join("real"), &id).unwrap();
    assert_eq!(
        n.planned_env("v")["DHV_NODE_ID"],
        "6e1f3d2a-0000-4000-8000-0000000000bb"
    );

    if !nix::unistd::geteuid().is_root() {
        skip_unless_ci("a client-id another user owns needs root to make");
        return;
    }
    // ... but not into a file another user owns (they would choose the id
    // a root plugctl hands to plugins), nor through a directory others
    // can write in.
    let theirs = n.s.root().join("theirs");
    make_dir(&theirs);
    fs::write(theirs.join("id"), "7a2b4c6d-0000-4000-8000-0000000000cc").unwrap();
    nix::unistd::chown(&theirs.join("id"), Some(65534.into()), Some(65534.into())).unwrap();
    fs::remove_file(&id).unwrap();
    symlink(theirs.join("id"), &id).unwrap();
    create(&n)
        .stderr_has("cannot read the Nomad agent's node id")
        .stderr_has("65534");
    fs::remove_file(&id).unwrap();
    fs::write(&id, "7a2b4c6d-0000-4000-8000-0000000000cc").unwrap();
    nix::unistd::chown(&id, Some(65534.into()), Some(65534.into())).unwrap();
    create(&n).stderr_has("cannot read the Nomad agent's node id");
    fs::remove_file(&id).unwrap();
    fs::write(&id, "7a2b4c6d-0000-4000-8000-0000000000cc").unwrap();
    fs::set_permissions(&state, fs::Permissions::from_mode(0o777)).unwrap();
    create(&n).stderr_has("cannot read the Nomad agent's node id");
    fs::set_permissions(&state, fs::Permissions::from_mode(0o700)).unwrap();
    assert_eq!(
        n.planned_env("v")["DHV_NODE_ID"],
        "7a2b4c6d-0000-4000-8000-0000000000cc"
    );
}

/// A dry run on a node where nothing was ever created shows the id the
/// call then gets: never a placeholder.
#[test]
fn a_dry_run_on_a_fresh_node_shows_the_id_the_call_gets() {
    let n = Node::new("");
    let ran = n
        .plugctl()
        .args([
            "volume",
            "create",
            "--plugin",
            "tell",
            "--name",
            "fresh",
            "--dry-run",
        ])
        .succeeds();
    let out = ran.stdout();
    assert!(!out.contains("node-id-from-registry"), "{out}");
    let planned = n.planned_env("fresh")["DHV_NODE_ID"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        out.contains(&format!("DHV_NODE_ID={planned}")),
        "the reproduce line: {out}"
    );
    n.plugctl()
        .args(["volume", "create", "--plugin", "tell", "--name", "fresh"])
        .succeeds();
    assert_eq!(n.seen("fresh").0, planned);
    assert!(Path::new(&n.s.registry).exists());
}

/// HCL 1 nests without limit; plugctl's reader refuses past 512 levels
/// rather than run out of stack (a crash of a root command), and reads
/// what is below that.
#[test]
fn deep_nesting_is_refused_not_a_crash() {
    let n = Node::new("");
    for (depth, ok) in [(500, true), (513, false), (200_000, false)] {
        let list = format!("x = {}{}\n", "[".repeat(depth), "]".repeat(depth));
        let objects = format!("{}{}\n", "a {".repeat(depth), "}".repeat(depth));
        let json = format!(
            "{{{}\"b\": 1{}}}",
            "\"a\": {".repeat(depth),
            "}".repeat(depth)
        );
        for (name, text) in [
            ("list.hcl", list),
            ("objects.hcl", objects),
            ("deep.json", json),
        ] {
            let file = n.write(name, &text);
            let ran = n.plugctl().args(["plugin", "list"]).any_exit();
            if ok {
                assert_eq!(ran.code(), Some(0), "{name} at {depth}: {}", ran.stderr());
            } else {
                assert_eq!(ran.code(), Some(2), "{name} at {depth}: {}", ran.stderr());
                ran.stderr_has(&format!("Nomad agent configuration {}:", file.display()))
                    .stderr_has("nested deeper than 512");
            }
            fs::remove_file(&file).unwrap();
        }
    }
}

/// On a node as the packages leave it (the node in a box: the package's
/// `nomad.hcl`, `/opt/nomad/data/client/client-id` as the agent writes
/// it), plugctl run as root with no flag gives a plugin the agent's own
/// node id and the default node pool, and says so with `-v`.
#[test]
fn on_a_packaged_node_a_plugin_gets_the_agents_node_id() {
    use crate::common::node_box::{CLIENT_ID, NodeBox};
    let Some(b) = NodeBox::new() else { return };
    let ran = b
        .plugctl()
        .args([
            "-v", "--json", "volume", "create", "--plugin", "dir", "--name", "id",
        ])
        .args(["--dry-run"])
        .succeeds()
        .stderr_has(&format!(
            "node id: {CLIENT_ID} (the Nomad agent's, from /opt/nomad/data/client/client-id)"
        ))
        .stderr_has("node pool: default (Nomad's default, as no client.node_pool is set)");
    let env = ran.json()["calls"][0]["env"].to_string();
    assert!(
        env.contains(&format!("\"DHV_NODE_ID={CLIENT_ID}\"")),
        "{env}"
    );
    assert!(env.contains("\"DHV_NODE_POOL=default\""), "{env}");
    let doc = b
        .plugctl()
        .args([
            "--json", "volume", "create", "--plugin", "mkdir", "--name", "id",
        ])
        .succeeds()
        .json();
    assert_eq!(doc["volume"]["node_id"], CLIENT_ID);
}

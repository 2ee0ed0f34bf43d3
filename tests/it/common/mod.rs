//! The one helper every integration test uses: a scratch plugin tree, a
//! scratch registry and volumes directory, and the real plugctl binary run
//! with a cleared environment (plus a sentinel that must never reach a plugin).
//!
//! Where a test finds what it needs, before writing it again:
//! - here: [`Rig`] (plugins, the registry and its journal read back,
//!   events and volume records), the second user ([`intruder`]), a mount
//!   namespace ([`in_mount_namespace`]), skipping ([`skip_unless_ci`],
//!   [`tool_available`], [`is_root`]), processes ([`alive`], [`survives`]);
//! - [`expect`]: every run and its checks — plugctl as it is
//!   ([`plugctl`]), under a umask, as nobody, on a terminal, any other
//!   program ([`tool`]); in the background ([`expect::Run::start`]); the exit,
//!   the streams, the `--json` document, its error, JSON lines;
//! - [`ops`]: what many tests start from or read back — registering,
//!   creating and listing volumes, event seqs, report and error checks;
//! - [`files`]: the repository's own files (examples), modes, copied trees;
//! - [`node_box`]: a packaged Nomad client and Debian's node_exporter in a
//!   private mount namespace, where plugctl runs as root with no flag
//!   ([`node_box::NodeBox`]).
#![allow(dead_code)]

use std::ffi::OsStr;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

pub mod elf;
pub mod expect;
pub mod files;
pub mod node_box;
pub mod ops;
pub mod paste;
pub use elf::{C_SECRETS_PLUGIN, loader_of, with_loader};
pub use expect::{
    Exit, Finish, plugctl, plugctl_as_nobody, plugctl_on_a_terminal, plugctl_on_a_terminal_of,
    plugctl_with_umask, tool,
};
pub use files::{copy_tree, examples, mode, repo};
pub use ops::{
    assert_clean_report, assert_format_refused_with_json, create_volume, id_of, leftover,
    list_volumes, register, register_args, seqs,
};
pub use paste::{paste, paste_with, suggested};

/// The binary under test.
pub const PLUGCTL: &str = env!("CARGO_BIN_EXE_plugctl");

/// Set in plugctl's own environment by [`Rig::command`]; a plugin must
/// never see it.
pub const SENTINEL: &str = "PLUGCTL_TEST_SENTINEL";

pub struct Rig {
    pub dir: tempfile::TempDir,
    pub plugins: PathBuf,
    pub registry: PathBuf,
    pub volumes: PathBuf,
    /// A scratch directory for plugins to write what they saw.
    pub out: PathBuf,
}

impl Rig {
    pub fn new() -> Rig {
        Rig::in_dir(tempfile::tempdir().expect("tempdir"))
    }

    /// A rig outside `/tmp`, in the build's scratch directory, as a
    /// node's plugin directory is: `--sandbox strict` then gives its calls
    /// the run's own mount namespace (a plugin in `/tmp` gets a private
    /// `/tmp` of its own per call, made another way).
    pub fn outside_tmp() -> Rig {
        Rig::in_dir(
            tempfile::Builder::new()
                .prefix("rig")
                .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
                .expect("tempdir"),
        )
    }

    fn in_dir(dir: tempfile::TempDir) -> Rig {
        let root = dir.path().to_path_buf();
        // tempfile makes it 0777 less the umask: 0755 whatever the umask,
        // since plugctl refuses plugins below a group-writable directory.
        fs::set_permissions(&root, fs::Permissions::from_mode(0o755)).unwrap();
        let s = Rig {
            plugins: root.join("plugins"),
            registry: root.join("state/registry.json"),
            volumes: root.join("volumes"),
            out: root.join("out"),
            dir,
        };
        for d in [&s.plugins, &s.out] {
            make_dir(d);
        }
        s
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    /// `program` as a plain process with only what the rig sets: for
    /// plugctl in the background, or a shell that runs plugctl.
    pub fn command(&self, program: impl AsRef<OsStr>) -> Command {
        let mut c = Command::new(program);
        c.env_clear()
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .env("HOME", self.root().join("home"))
            .env(SENTINEL, "leaked")
            // Never the machine's own /etc/nomad.d (read as root by
            // default): a test names the agent configuration it means.
            .env("PLUGCTL_NOMAD_CONFIG", "none")
            .env("PLUGCTL_PLUGIN_DIR", &self.plugins)
            .env("PLUGCTL_REGISTRY", &self.registry)
            .env("PLUGCTL_VOLUMES_DIR", &self.volumes)
            .current_dir(self.root())
            .stdin(Stdio::null());
        c
    }

    /// plugctl as a plain process (see [`Rig::command`]).
    pub fn std_cmd(&self) -> Command {
        self.command(PLUGCTL)
    }

    /// Writes an executable `#!/bin/sh` plugin with this body.
    pub fn plugin(&self, family: &str, name: &str, body: &str) -> PathBuf {
        self.file(family, name, &format!("#!/bin/sh\n{body}\n"), 0o755)
    }

    /// Writes a file into a family directory, by rename so that no one can
    /// exec it while it is open for writing (ETXTBSY).
    pub fn file(&self, family: &str, name: &str, text: &str, mode: u32) -> PathBuf {
        let dir = self.plugins.join(family);
        make_dir(&dir);
        let tmp = self.root().join(format!(".tmp-{family}-{name}"));
        fs::write(&tmp, text).unwrap();
        fs::set_permissions(&tmp, fs::Permissions::from_mode(mode)).unwrap();
        let path = dir.join(name);
        fs::rename(&tmp, &path).unwrap();
        path
    }

    /// A well-behaved host-volume plugin fingerprint.
    pub fn hv_ok(&self, name: &str, version: &str) -> PathBuf {
        self.plugin(
            "host-volume",
            name,
            &format!(
                r#"[ "$1" = fingerprint ] && echo '{{"version": "{version}"}}' && exit 0; exit 1"#
            ),
        )
    }

    /// A host-volume plugin that fingerprints well and whose create and
    /// delete are these sh bodies, with `$v` the volume's directory under
    /// `DHV_VOLUMES_DIR` and a plain PATH.
    pub fn hv_script(&self, name: &str, create: &str, delete: &str) -> PathBuf {
        self.plugin(
            "host-volume",
            name,
            &format!(
                "PATH=/usr/bin:/bin\nv=\"$DHV_VOLUMES_DIR/$DHV_VOLUME_ID\"\ncase \"$1\" in\n\
                 fingerprint) echo '{{\"version\": \"1.0.0\"}}' ;;\n\
                 create) {create} ;;\n\
                 delete) {delete} ;;\nesac\n"
            ),
        )
    }

    /// A well-behaved secrets plugin fingerprint.
    pub fn secrets_ok(&self, name: &str) -> PathBuf {
        self.plugin(
            "secrets",
            name,
            r#"[ "$1" = fingerprint ] && echo '{"type": "secrets", "version": "1.0.0"}' && exit 0; exit 1"#,
        )
    }

    /// Writes a registry file of the test's own making, owner-only as
    /// plugctl writes it: one the umask left group writable would be
    /// refused for that before anything the test means to check.
    pub fn write_registry(&self, contents: impl AsRef<[u8]>) {
        make_dir(self.registry.parent().unwrap());
        fs::write(&self.registry, contents).unwrap();
        fs::set_permissions(&self.registry, fs::Permissions::from_mode(0o600)).unwrap();
    }

    /// The registry as plugctl holds it: the file, with its journal read
    /// back in — `events`, every committed event in order, and `volumes`
    /// with the intents committed after the file's end applied. Read here
    /// from the files themselves, as a second reader of the format
    /// (docs/registry.md); [`Rig::registry_file`] is the file alone.
    pub fn registry_json(&self) -> Value {
        let mut doc = self.registry_file();
        let seq = doc["seq"].as_u64().unwrap_or(0);
        let end = (
            doc["journal"]["segment"].as_u64().unwrap_or(0),
            doc["journal"]["offset"].as_u64().unwrap_or(0),
        );
        let mut events = Vec::new();
        let mut intents = Vec::new();
        for (n, path) in self.journal_segments() {
            if n > end.0 {
                break;
            }
            let bytes = fs::read(&path).unwrap();
            let mut at = 0;
            for line in bytes.split_inclusive(|&b| b == b'\n') {
                let start = at;
                at += line.len();
                if !line.ends_with(b"\n") {
                    break;
                }
                let v: Value = serde_json::from_slice(line).expect("a journal line parses");
                if v.get("intent").is_some() {
                    if n == end.0 && start as u64 >= end.1 {
                        intents.push(v["volume"].clone());
                    }
                } else if v.get("seq").is_some() && v["seq"].as_u64().unwrap() <= seq {
                    events.push(v);
                }
            }
        }
        if doc.get("events").is_none() {
            doc["events"] = Value::Array(events);
        }
        for v in intents {
            let id = v["id"].as_str().unwrap().to_string();
            doc["volumes"][id] = v;
        }
        doc
    }

    /// The registry file alone, as written.
    pub fn registry_file(&self) -> Value {
        let bytes = fs::read(&self.registry).expect("registry exists");
        serde_json::from_slice(&bytes).expect("registry parses")
    }

    /// The journal's segments beside the registry, by number.
    pub fn journal_segments(&self) -> Vec<(u64, PathBuf)> {
        let prefix = format!(
            "{}.journal.",
            self.registry.file_name().unwrap().to_string_lossy()
        );
        let mut out: Vec<(u64, PathBuf)> = fs::read_dir(self.registry.parent().unwrap())
            .map(|rd| {
                rd.flatten()
                    .filter_map(|e| {
                        let name = e.file_name().into_string().ok()?;
                        let n = name.strip_prefix(&prefix)?.parse().ok()?;
                        Some((n, e.path()))
                    })
                    .collect()
            })
            .unwrap_or_default();
        out.sort();
        out
    }

    pub fn out_file(&self, name: &str) -> PathBuf {
        self.out.join(name)
    }

    pub fn read_out(&self, name: &str) -> String {
        fs::read_to_string(self.out.join(name)).unwrap_or_default()
    }
}

/// Creates a directory, and its missing parents, of mode 0755 whatever the
/// umask of whoever runs the tests: under umask 002 a plain
/// `create_dir_all` makes them group writable, and plugctl rightly refuses
/// to run plugins from there. A directory that exists keeps its mode (a
/// test may have planted a writable one on purpose).
pub fn make_dir(dir: impl AsRef<Path>) {
    let dir = dir.as_ref();
    if dir.is_dir() {
        return;
    }
    if let Some(parent) = dir.parent() {
        make_dir(parent);
    }
    match fs::create_dir(dir) {
        Ok(()) => fs::set_permissions(dir, fs::Permissions::from_mode(0o755)).unwrap(),
        // Made by a concurrent caller in the meantime: theirs to set.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => panic!("mkdir {}: {e}", dir.display()),
    }
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The fingerprint row of one plugin in a `--json` document.
pub fn row<'a>(doc: &'a Value, family: &str, name: &str) -> &'a Value {
    doc["plugins"]
        .as_array()
        .expect("plugins array")
        .iter()
        .find(|p| p["type"] == family && p["name"] == name)
        .unwrap_or_else(|| panic!("no row for {family}/{name} in {doc}"))
}

/// Whether a process is still alive a second from now (a killed process
/// closes its pipes a moment before it is gone).
pub fn survives(pid: i32) -> bool {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(1);
    while alive(pid) {
        if std::time::Instant::now() >= until {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    false
}

/// Whether a process exists.
pub fn alive(pid: i32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
        && !fs::read_to_string(format!("/proc/{pid}/stat"))
            .map(|s| s.contains(") Z "))
            .unwrap_or(true)
}

/// Whether the test named `name` (its path in this binary,
/// `module::test`) should run its body here: `true` in a fresh test
/// process of its own; `false` in the shared one, where it has just run
/// itself alone in a fresh process, which must pass. For a test that needs
/// the process as it starts: no memory high-water mark from other tests
/// (`flood_memory`), no process-wide flag another test set (the subreaper
/// flag an in-process `app::run_with` sets, which lets plugctl reach
/// escaped processes, see `runner`).
#[track_caller]
pub fn alone_in_a_fresh_process(name: &str) -> bool {
    const ALONE: &str = "PLUGCTL_TEST_ALONE";
    if std::env::var_os(ALONE).is_some_and(|n| n == name) {
        return true;
    }
    let out = expect::Run::new(Command::new(std::env::current_exe().unwrap()), "it")
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env(ALONE, name)
        .succeeds();
    // It really ran (a filter that matches nothing passes too).
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert!(text.contains("1 passed"), "{text}");
    false
}

/// Held while the test process's own process-wide state is changed or
/// matters: an in-process plugctl run (`contract`) makes the whole test
/// process a child subreaper, so that processes other tests' plugins leave
/// behind are adopted by it, and reached (and killed as orphans) by
/// plugctl code running in it; it holds this while it runs and clears the
/// flag after. A test that needs the flag clear holds it meanwhile.
pub fn process_state() -> std::sync::MutexGuard<'static, ()> {
    static STATE: std::sync::Mutex<()> = std::sync::Mutex::new(());
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether `--sandbox strict` runs here (root, and a kernel with every
/// layer), probed with a plugin of its own in a registry of its own (the
/// rig's never hears of it, and the plugin is gone after); else the test
/// skips, and in CI fails.
pub fn strict_runs(s: &Rig) -> bool {
    if !is_root() {
        skip_unless_ci("the sandbox's tests run plugins as root");
        return false;
    }
    s.hv_ok("plain", "1.0.0");
    let ran = plugctl(s)
        .arg("--registry")
        .arg(s.root().join("probe/registry.json"))
        .args(["--sandbox", "strict", "fingerprint", "plain"])
        .any_exit();
    let _ = std::fs::remove_file(s.plugins.join("host-volume/plain"));
    if ran.code() == Some(Exit::Usage.code()) {
        skip_unless_ci(&format!("strict cannot run here: {}", ran.stderr()));
        return false;
    }
    true
}

/// Whether the tests run as root (as in CI): some need it to act as
/// another user or to mount, and skip without.
pub fn is_root() -> bool {
    nix::unistd::geteuid().is_root()
}

/// A test that cannot run here says so, and does not pass quietly: it prints
/// `SKIPPED: <why>` — or, in CI (`CI` set), where `.ci/run` installs
/// everything the tests need, it fails instead.
pub fn skip_unless_ci(why: &str) {
    if std::env::var_os("CI").is_some() {
        panic!("{why}, and CI must run this test (.ci/run installs what it needs)");
    }
    eprintln!("SKIPPED: {why}");
}

/// Whether `tool` can be run. A test that needs it skips with a message
/// when it is missing — except in CI (`CI` set), where `.ci/run` installs
/// every tool the tests use, so a missing one fails the test instead.
pub fn tool_available(tool: &str, why: &str) -> bool {
    let found = Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if !found {
        if std::env::var_os("CI").is_some() {
            panic!(
                "{tool} is not installed, and CI must run this test ({why}); .ci/run installs it"
            );
        }
        eprintln!("SKIPPED: {tool} is not installed; {why} is not checked");
    }
    found
}

/// A second, unprivileged user for the tests that attack plugctl as a
/// local user who can write some directory root's plugctl reads. Made on
/// first use (`useradd`; the tests run as root in CI); without root the
/// test skips — in CI it fails instead.
#[derive(Debug, Clone, Copy)]
pub struct Intruder {
    pub uid: u32,
    pub gid: u32,
}

/// The login of [`Intruder`].
pub const INTRUDER: &str = "plugctl-intruder";

pub fn intruder() -> Option<Intruder> {
    static MADE: std::sync::Mutex<Option<Intruder>> = std::sync::Mutex::new(None);
    if !nix::unistd::geteuid().is_root() {
        skip_unless_ci("needs root to create a second user and act as them");
        return None;
    }
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(u) = *made {
        return Some(u);
    }
    let lookup = || nix::unistd::User::from_name(INTRUDER).ok().flatten();
    if lookup().is_none() {
        let out = Command::new("useradd")
            .args(["--system", "--no-create-home", "--user-group"])
            .args(["--shell", "/usr/sbin/nologin", INTRUDER])
            .output()
            .expect("useradd runs");
        // Another test binary may have made it meanwhile.
        assert!(
            lookup().is_some(),
            "useradd {INTRUDER}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let user = lookup().expect("the user exists");
    let u = Intruder {
        uid: user.uid.as_raw(),
        gid: user.gid.as_raw(),
    };
    *made = Some(u);
    Some(u)
}

impl Intruder {
    /// `program` run as this user in the rig's environment.
    pub fn command(&self, s: &Rig, program: impl AsRef<OsStr>) -> Command {
        let mut c = s.command("setpriv");
        c.arg(format!("--reuid={}", self.uid))
            .arg(format!("--regid={}", self.gid))
            .args(["--clear-groups", "--"])
            .arg(program);
        c
    }

    /// A shell script run as this user; panics when it fails (the attack
    /// must have been set up for the test to mean anything).
    #[track_caller]
    pub fn sh(&self, s: &Rig, script: &str) {
        expect::Run::new(self.command(s, "/bin/sh"), &format!("{INTRUDER}: sh"))
            .args(["-c", script])
            .succeeds();
    }

    /// Gives a path to this user (as root).
    pub fn own(&self, path: &Path) {
        nix::unistd::chown(path, Some(self.uid.into()), Some(self.gid.into())).unwrap();
    }

    /// Makes `path` (as this user) a sparse file of a terabyte, which costs
    /// its owner nothing; false (after the skip message) where the file
    /// system makes none.
    pub fn sparse_terabyte(&self, s: &Rig, path: &Path) -> bool {
        let made = self
            .command(s, "truncate")
            .args(["-s", "1T"])
            .arg(path)
            .status()
            .expect("truncate runs");
        if !made.success() {
            skip_unless_ci("this file system makes no sparse file of a terabyte");
        }
        made.success()
    }
}

/// A world-writable sticky directory in the rig (like `/tmp`), where
/// the intruder may add entries.
pub fn sticky_dir(s: &Rig, name: &str) -> PathBuf {
    let d = s.root().join(name);
    make_dir(&d);
    fs::set_permissions(&d, fs::Permissions::from_mode(0o1777)).unwrap();
    d
}

/// `script` run by `/bin/sh -c` in a mount namespace of its own, with
/// private propagation so that nothing mounted there outlives the test; in
/// the rig's environment with plugctl at `$PLUGCTL`, the registry's
/// directory at `$STATE` and [`Rig::out`] at `$OUT`. `None` where this
/// machine cannot mount in a new namespace (the test skips; in CI, where
/// the tests run as root with util-linux, it fails instead).
pub fn in_mount_namespace(s: &Rig, script: &str) -> Option<expect::Run> {
    // The probe mounts for real: a namespace alone is not the permission.
    let probe = s
        .command("unshare")
        .args(["--mount", "--propagation", "private", "/bin/sh", "-c"])
        .args(["mount -t tmpfs -o size=4k tmpfs \"$0\""])
        .arg(&s.out)
        .output();
    match probe {
        Ok(o) if o.status.success() => {}
        Ok(o) => {
            skip_unless_ci(&format!(
                "cannot mount in a new mount namespace here (unshare --mount: {})",
                String::from_utf8_lossy(&o.stderr).trim()
            ));
            return None;
        }
        Err(e) => {
            skip_unless_ci(&format!("unshare is not available ({e})"));
            return None;
        }
    }
    Some(
        expect::Run::new(s.command("unshare"), "unshare")
            .args(["--mount", "--propagation", "private", "/bin/sh", "-c"])
            .arg(script)
            .env("PLUGCTL", PLUGCTL)
            .env("STATE", s.registry.parent().unwrap())
            .env("OUT", &s.out),
    )
}

/// A secrets plugin `name` that answers every fetch with
/// `{"result": pairs}`, and its fingerprint as a secrets plugin 1.0.0.
pub fn store_answering(s: &Rig, name: &str, pairs: &[(&str, String)]) {
    let map: serde_json::Map<String, serde_json::Value> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), serde_json::Value::String(v.clone())))
        .collect();
    let file = s.out_file(&format!("{name}.stdout"));
    fs::write(
        &file,
        serde_json::to_vec(&serde_json::json!({ "result": map })).unwrap(),
    )
    .unwrap();
    s.plugin(
        "secrets",
        name,
        &format!(
            "[ \"$1\" = fingerprint ] && echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' && exit 0\n\
             /usr/bin/cat '{}'",
            file.display()
        ),
    );
}

//! A node in a box: what a packaged Nomad client and Debian's
//! `prometheus-node-exporter` leave on a machine, built in a private mount
//! namespace, so that plugctl runs there as root with no flag and no
//! `PLUGCTL_*` variable — reading `/etc/nomad.d`, `/opt/nomad/data` and
//! `/var/lib/prometheus` as on a real node — while the machine's own
//! `/etc`, `/opt`, `/var/lib` and `/tmp` are never touched.
//!
//! The box is one process (`sh`, waiting on its stdin) in a mount namespace
//! of its own (`unshare --mount --propagation private`): a tmpfs over
//! `/opt`, `/var/lib` and `/tmp`, and over `/etc` and
//! `/usr/lib/systemd/system` a tmpfs holding a copy of the machine's (its
//! users and units included). Before anything is written,
//! each of those is checked to be a tmpfs of the box's, not the machine's
//! directory. The test lays the node out through that process's root
//! (`/proc/PID/root/...`, [`NodeBox::path`]) and runs commands in the
//! namespace with `nsenter` ([`NodeBox::command`], [`NodeBox::plugctl`]).
//! Dropping the box closes the process's stdin: it ends, and the namespace
//! and its tmpfs go with it. The binary under test stays at its own path in
//! the box even when a covered directory holds it (a clone under /tmp): it
//! is bound back from a descriptor opened before the mounts.
//!
//! What the box holds, as the packages make it:
//! - the package's unit, `/usr/lib/systemd/system/nomad.service`, which
//!   runs the agent as root (no `User=`);
//! - `/etc/nomad.d/nomad.hcl`, the file HashiCorp's Linux package ships
//!   (`data_dir "/opt/nomad/data"`, `bind_addr`, a server and a client);
//! - `/opt/nomad/data` as a client agent leaves it: `client/` (0700) with
//!   `client-id` and `secret-id` (0600, no newline, as the agent writes
//!   them) and its state database, `alloc/` (0711), `server/`,
//!   `host_volume_plugins/` and `common_plugins/<family>/` holding the
//!   repository's example plugins, and `host_volumes/` (0700: made by the
//!   built-in mkdir's `MkdirAll` with its default mode) holding volumes the
//!   agent made: directories named by volume id with content (files of
//!   several owners and modes, a symlink out of the volume) and an image
//!   file `<id>.img`;
//! - `/var/lib/prometheus` owned by `prometheus:prometheus` 0755 (the
//!   package's postinst chowns it), and `/var/lib/prometheus/node-exporter`
//!   owned by root, 0755 (from the package's files): node_exporter's
//!   textfile directory on Debian;
//! - the `nomad` (the Nomad package's preinst) and `prometheus` system
//!   users, added to the box's copy of `/etc/passwd` when the machine has
//!   none.
//!
//! Ownership of the Nomad part: HashiCorp's postinst runs
//! `chown nomad:nomad /opt/nomad/data` and `chown -R nomad:nomad
//! /etc/nomad.d`. The box gives them to root by default, as an operator
//! may; [`Layout::package_owners`] builds them as the postinst leaves them,
//! where plugctl trusts the `nomad` account as the agent's account.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};

use super::expect::Run;
use super::{PLUGCTL, examples, is_root, skip_unless_ci};

/// The agent configuration directory of the packaged agent.
pub const NOMAD_D: &str = "/etc/nomad.d";
/// `data_dir` in the package's `nomad.hcl`.
pub const DATA_DIR: &str = "/opt/nomad/data";
/// `<data_dir>/host_volumes`: the agent's and plugctl's volumes directory.
pub const VOLUMES_DIR: &str = "/opt/nomad/data/host_volumes";
/// `<data_dir>/host_volume_plugins`.
pub const HOST_VOLUME_PLUGINS: &str = "/opt/nomad/data/host_volume_plugins";
/// `<data_dir>/common_plugins`.
pub const COMMON_PLUGINS: &str = "/opt/nomad/data/common_plugins";
/// node_exporter's textfile directory on Debian.
pub const TEXTFILE_DIR: &str = "/var/lib/prometheus/node-exporter";
/// plugctl's registry as root.
pub const REGISTRY: &str = "/var/lib/plugctl/registry.json";
/// Where the package's unit goes (a copy of the machine's, in the box).
pub const UNIT_DIR: &str = "/usr/lib/systemd/system";

/// What the Nomad package's `nomad.service` says of how the agent runs:
/// its `[Service]` names no `User=`, so the agent runs as root. (The
/// package's file has more lines, none about the user.)
pub const PACKAGE_UNIT: &str = "[Unit]
Description=Nomad
Wants=network-online.target
After=network-online.target

[Service]
EnvironmentFile=-/etc/nomad.d/nomad.env
ExecStart=/usr/bin/nomad agent -config /etc/nomad.d
KillMode=process
KillSignal=SIGINT
Restart=on-failure

[Install]
WantedBy=multi-user.target
";

/// The `nomad.hcl` HashiCorp's Linux package installs.
pub const PACKAGE_NOMAD_HCL: &str = r#"# Copyright (c) HashiCorp, Inc.
# SPDX-License-Identifier: BUSL-1.1

# Full configuration options can be found at https://www.nomadproject.io/docs/configuration

data_dir  = "/opt/nomad/data"
bind_addr = "0.0.0.0"

server {
  # license_path is required for Nomad Enterprise as of Nomad v1.1.1+
  #license_path = "/etc/nomad.d/license.hclic"
  enabled          = true
  bootstrap_expect = 1
}

client {
  enabled = true
  servers = ["127.0.0.1"]
}
"#;

/// The agent's node id in `client/client-id` (lower case, no newline).
pub const CLIENT_ID: &str = "0d6f1a7e-3c2b-4d5e-8f90-a1b2c3d4e5f6";

/// Volumes the agent made, by their names in the volumes directory.
pub const AGENT_VOLUMES: [&str; 4] = [
    // the built-in mkdir, default mode, a job's files in it
    "5b1c7d2e-8a9f-4b3c-9d4e-0f1a2b3c4d5e",
    // the built-in mkdir with uid=1000, gid=1000, mode=0755
    "6c2d8e3f-9b0a-4c4d-8e5f-1a2b3c4d5e6f",
    // an empty one
    "7d3e9f4a-0c1b-4d5e-9f6a-2b3c4d5e6f7a",
    // an image file a plugin made (sparse-image's layout)
    "8e4f0a5b-1d2c-4e6f-8a7b-3c4d5e6f7a8b.img",
];

/// A user of the box: their uid and gid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct User {
    pub uid: u32,
    pub gid: u32,
}

/// How the box is laid out (the default: as a packaged client whose
/// operator gave the agent's files to root).
#[derive(Debug, Clone, Copy, Default)]
pub struct Layout {
    /// `/etc/nomad.d` and `/opt/nomad/data` owned by `nomad:nomad`, as
    /// HashiCorp's postinst leaves them.
    pub package_owners: bool,
}

pub struct NodeBox {
    holder: Child,
    stdin: Option<ChildStdin>,
    pid: u32,
    /// The mount namespace's inode, checked before every command.
    ns: u64,
    /// Where the copy of /etc is mounted in the box (an empty directory
    /// outside it), removed with the box.
    staging: tempfile::TempDir,
    pub nomad: User,
    pub prometheus: User,
}

impl NodeBox {
    /// The box as a packaged client whose operator gave the agent's
    /// configuration and data directory to root; `None` (the test skips)
    /// where the tests cannot mount (not root, no unshare), and in CI a
    /// failure instead.
    pub fn new() -> Option<NodeBox> {
        NodeBox::with(Layout::default())
    }

    pub fn with(layout: Layout) -> Option<NodeBox> {
        if !is_root() {
            skip_unless_ci("the node box needs root to mount in a mount namespace of its own");
            return None;
        }
        let staging = tempfile::tempdir().expect("tempdir");
        // The whole set-up runs in the new namespace, before it says ready:
        // nothing is mounted in the machine's. `set -e`: a mount that fails
        // ends the script, and the box is never used.
        //
        // The binary under test may live below a directory the box covers
        // (a clone under /tmp): it is opened before the mounts and, where
        // its path no longer reaches it, bound back onto that path from the
        // open descriptor (`--no-canonicalize`: the path text of
        // /proc/self/fd/3 would name the covered place), so that `PLUGCTL`
        // runs in the box, as root or as any user, under its own name.
        let script = r#"set -e
staging=$0
bin=$1
exec 3<"$bin"
mount -t tmpfs -o mode=0755,size=32m plugctl-box-etc "$staging"
cp -a /etc/. "$staging/"
mount --bind "$staging" /etc
for d in /opt /var/lib; do mount -t tmpfs -o mode=0755,size=256m plugctl-box "$d"; done
mount -t tmpfs -o mode=1777,size=64m plugctl-box /tmp
if [ -d /usr/lib/systemd/system ]; then
  mkdir /tmp/units && cp -a /usr/lib/systemd/system/. /tmp/units/
  mount -t tmpfs -o mode=0755,size=16m plugctl-box-units /usr/lib/systemd/system
  cp -a /tmp/units/. /usr/lib/systemd/system/ && rm -rf /tmp/units
fi
if [ "$(stat -L -c %d:%i "$bin" 2>/dev/null)" != "$(stat -L -c %d:%i /proc/self/fd/3)" ]; then
  mkdir -p "${bin%/*}"
  : >"$bin"
  mount --no-canonicalize --bind /proc/self/fd/3 "$bin"
fi
exec 3<&-
echo ready
read -r _ || true
"#;
        let spawned = Command::new("unshare")
            .args([
                "--mount",
                "--propagation",
                "private",
                "/bin/sh",
                "-c",
                script,
            ])
            .arg(staging.path())
            .arg(PLUGCTL)
            .env_clear()
            .env("PATH", "/usr/sbin:/usr/bin:/sbin:/bin")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn();
        let mut holder = match spawned {
            Ok(c) => c,
            Err(e) => {
                skip_unless_ci(&format!("unshare is not available ({e})"));
                return None;
            }
        };
        let mut line = String::new();
        let mut out = BufReader::new(holder.stdout.take().unwrap());
        let _ = out.read_line(&mut line);
        if line.trim() != "ready" {
            let _ = holder.kill();
            let _ = holder.wait();
            let mut err = String::new();
            let _ = holder.stderr.take().unwrap().read_to_string(&mut err);
            skip_unless_ci(&format!(
                "cannot build the node box in a mount namespace (unshare --mount): {}",
                err.trim()
            ));
            return None;
        }
        let pid = holder.id();
        let stdin = holder.stdin.take();
        let ns = fs::metadata(format!("/proc/{pid}/ns/mnt")).unwrap().ino();
        let mut b = NodeBox {
            holder,
            stdin,
            pid,
            ns,
            staging,
            nomad: User { uid: 0, gid: 0 },
            prometheus: User { uid: 0, gid: 0 },
        };
        b.check_isolation();
        b.lay_out(layout);
        Some(b)
    }

    /// Refuses to go on unless the box's /etc, /opt, /var/lib and /tmp are
    /// tmpfs of its own and its mount namespace is not the machine's: every
    /// write below goes through them.
    fn check_isolation(&self) {
        let own = fs::metadata("/proc/self/ns/mnt").unwrap().ino();
        assert_ne!(
            self.ns, own,
            "the node box shares the test's mount namespace"
        );
        for dir in ["/etc", "/opt", "/var/lib", "/tmp", UNIT_DIR] {
            if dir == UNIT_DIR && !Path::new(UNIT_DIR).is_dir() {
                continue;
            }
            let inside = self.path(dir);
            let fs_type = nix::sys::statfs::statfs(&inside)
                .unwrap_or_else(|e| panic!("statfs {}: {e}", inside.display()))
                .filesystem_type();
            assert_eq!(
                fs_type,
                nix::sys::statfs::TMPFS_MAGIC,
                "the box's {dir} is not its own tmpfs"
            );
            let host = fs::metadata(dir).unwrap();
            let boxed = fs::metadata(&inside).unwrap();
            assert_ne!(
                (host.dev(), host.ino()),
                (boxed.dev(), boxed.ino()),
                "the box's {dir} is the machine's"
            );
        }
    }

    /// A path inside the box, as the test process reaches it (through the
    /// box's root).
    pub fn path(&self, inside: impl AsRef<Path>) -> PathBuf {
        let inside = inside.as_ref();
        assert!(inside.is_absolute(), "{}", inside.display());
        let ns = fs::metadata(format!("/proc/{}/ns/mnt", self.pid)).map(|m| m.ino());
        assert_eq!(
            ns.ok(),
            Some(self.ns),
            "the node box's process is gone: nothing may be written through its pid"
        );
        PathBuf::from(format!("/proc/{}/root", self.pid)).join(inside.strip_prefix("/").unwrap())
    }

    /// `program` run in the box as root, in the environment of a root
    /// shell on a node (`PATH`, `HOME=/root`, nothing else: no `PLUGCTL_*`
    /// variable), from `/`.
    pub fn command(&self, program: impl AsRef<OsStr>) -> Command {
        // Checks that the box's process is still the one whose namespace
        // this is, before nsenter is pointed at its pid.
        self.path("/");
        let mut c = Command::new("nsenter");
        c.arg(format!("--mount=/proc/{}/ns/mnt", self.pid))
            .arg("--wd=/")
            .arg("--")
            .arg(program)
            .env_clear()
            .env(
                "PATH",
                "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            )
            .env("HOME", "/root")
            .stdin(Stdio::null());
        c
    }

    /// plugctl in the box, as root with no flag and no variable.
    pub fn plugctl(&self) -> Run {
        Run::new(self.command(PLUGCTL), "plugctl (in the node box)")
    }

    /// A shell script run in the box as root; plugctl is `$PLUGCTL_BIN`
    /// (a name plugctl does not read: no `PLUGCTL_*` variable is set).
    pub fn sh(&self, script: &str) -> Run {
        let mut c = self.command("/bin/sh");
        c.env("PLUGCTL_BIN", PLUGCTL);
        Run::new(c, "sh (in the node box)").args(["-c", script])
    }

    /// `program` run in the box as `user` (no supplementary groups).
    pub fn command_as(&self, user: User, program: impl AsRef<OsStr>) -> Command {
        let mut c = self.command("setpriv");
        c.arg(format!("--reuid={}", user.uid))
            .arg(format!("--regid={}", user.gid))
            .args(["--clear-groups", "--"])
            .arg(program);
        c
    }

    /// A shell script run in the box as `user`.
    pub fn sh_as(&self, user: User, script: &str) -> Run {
        Run::new(
            self.command_as(user, "/bin/sh"),
            "sh (a user in the node box)",
        )
        .args(["-c", script])
    }

    /// Writes a file in the box: this content, mode and owner.
    pub fn write(&self, inside: &str, content: impl AsRef<[u8]>, mode: u32, owner: User) {
        let p = self.path(inside);
        fs::write(&p, content).unwrap_or_else(|e| panic!("write {inside}: {e}"));
        self.own(inside, mode, owner);
    }

    /// Makes a directory in the box (its parent must exist).
    pub fn mkdir(&self, inside: &str, mode: u32, owner: User) {
        let p = self.path(inside);
        fs::create_dir(&p).unwrap_or_else(|e| panic!("mkdir {inside}: {e}"));
        self.own(inside, mode, owner);
    }

    /// Sets an entry's owner and mode (explicitly: no umask decides).
    pub fn own(&self, inside: &str, mode: u32, owner: User) {
        let p = self.path(inside);
        std::os::unix::fs::lchown(&p, Some(owner.uid), Some(owner.gid)).unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(mode)).unwrap();
    }

    /// Whether a path exists in the box (a symlink itself counts).
    pub fn exists(&self, inside: &str) -> bool {
        fs::symlink_metadata(self.path(inside)).is_ok()
    }

    pub fn read(&self, inside: &str) -> String {
        fs::read_to_string(self.path(inside)).unwrap_or_else(|e| panic!("read {inside}: {e}"))
    }

    /// The names in a directory of the box, sorted.
    pub fn ls(&self, inside: &str) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(self.path(inside))
            .unwrap_or_else(|e| panic!("ls {inside}: {e}"))
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// Every entry below `inside` (itself included), by its path: kind,
    /// mode, owner, and a file's size and hash or a symlink's target. Times are
    /// left out: what was read is not what changed.
    pub fn checksum(&self, inside: &str) -> BTreeMap<String, String> {
        let root = self.path(inside);
        let mut out = BTreeMap::new();
        for entry in walkdir::WalkDir::new(&root)
            .follow_links(false)
            .sort_by_file_name()
        {
            let entry = entry.unwrap_or_else(|e| panic!("walk {inside}: {e}"));
            let meta = entry.metadata().unwrap();
            let rel = entry.path().strip_prefix(&root).unwrap();
            let what = if meta.file_type().is_symlink() {
                format!("-> {}", fs::read_link(entry.path()).unwrap().display())
            } else if meta.is_file() {
                // A change is what is looked for, not an adversary: std's
                // hasher (a digest crate in a test build takes seconds a
                // megabyte; the box's files are kilobytes).
                use std::hash::Hasher;
                let mut hash = std::hash::DefaultHasher::new();
                let bytes = fs::read(entry.path()).unwrap();
                hash.write(&bytes);
                format!("file {} {:016x}", meta.len(), hash.finish())
            } else if meta.is_dir() {
                "dir".to_string()
            } else {
                format!("special {:o}", meta.mode() & 0o170000)
            };
            let key = if rel.as_os_str().is_empty() {
                inside.to_string()
            } else {
                Path::new(inside).join(rel).display().to_string()
            };
            out.insert(
                key,
                format!(
                    "{what} mode {:04o} owner {}:{}",
                    meta.mode() & 0o7777,
                    meta.uid(),
                    meta.gid()
                ),
            );
        }
        out
    }

    /// The agent's whole tree: its configuration and its data directory.
    pub fn agent_tree(&self) -> BTreeMap<String, String> {
        let mut all = self.checksum(NOMAD_D);
        all.extend(self.checksum("/opt/nomad"));
        all
    }

    /// The volumes the agent made, every byte, mode and owner of them.
    pub fn agent_volumes(&self) -> BTreeMap<String, String> {
        let mut all = BTreeMap::new();
        for v in AGENT_VOLUMES {
            let path = format!("{VOLUMES_DIR}/{v}");
            if self.exists(&path) {
                all.extend(self.checksum(&path));
            }
        }
        all
    }

    fn lay_out(&mut self, layout: Layout) {
        let root = User { uid: 0, gid: 0 };
        self.nomad = self.system_user("nomad", "/home/nomad", "/bin/false", "");
        self.prometheus = self.system_user(
            "prometheus",
            "/var/lib/prometheus",
            "/usr/sbin/nologin",
            "Prometheus daemon,,,",
        );
        let agent = if layout.package_owners {
            self.nomad
        } else {
            root
        };

        // The Nomad package: its unit, its configuration, and data_dir as
        // a client agent leaves it.
        if self.exists(UNIT_DIR) {
            self.write(
                &format!("{UNIT_DIR}/nomad.service"),
                PACKAGE_UNIT,
                0o644,
                root,
            );
        }
        self.mkdir(NOMAD_D, 0o755, agent);
        self.write(
            &format!("{NOMAD_D}/nomad.hcl"),
            PACKAGE_NOMAD_HCL,
            0o644,
            agent,
        );
        self.mkdir("/opt/nomad", 0o755, root);
        self.mkdir(DATA_DIR, 0o755, agent);
        self.mkdir(&format!("{DATA_DIR}/client"), 0o700, root);
        self.write(
            &format!("{DATA_DIR}/client/client-id"),
            CLIENT_ID,
            0o600,
            root,
        );
        self.write(
            &format!("{DATA_DIR}/client/secret-id"),
            "3f9b2c1d-7e6a-4b5c-8d9e-0a1b2c3d4e5f",
            0o600,
            root,
        );
        self.write(
            &format!("{DATA_DIR}/client/state.db"),
            b"bolt\x00\x00\x00\x02the client's state database".as_slice(),
            0o600,
            root,
        );
        self.mkdir(&format!("{DATA_DIR}/alloc"), 0o711, root);
        self.mkdir(&format!("{DATA_DIR}/server"), 0o700, root);
        self.write(
            &format!("{DATA_DIR}/server/node-id"),
            "e2a7c9b4-5d3f-4e1a-b6c8-9d0e1f2a3b4c",
            0o600,
            root,
        );
        self.mkdir(HOST_VOLUME_PLUGINS, 0o755, root);
        for entry in fs::read_dir(examples().join("host-volume")).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            self.write(
                &format!("{HOST_VOLUME_PLUGINS}/{name}"),
                fs::read(entry.path()).unwrap(),
                0o755,
                root,
            );
        }
        self.mkdir(COMMON_PLUGINS, 0o755, root);
        for family in fs::read_dir(examples()).unwrap() {
            let family = family.unwrap();
            let name = family.file_name().to_string_lossy().into_owned();
            if !family.file_type().unwrap().is_dir() || name == "host-volume" {
                continue;
            }
            self.mkdir(&format!("{COMMON_PLUGINS}/{name}"), 0o755, root);
            for plugin in fs::read_dir(family.path()).unwrap() {
                let plugin = plugin.unwrap();
                let file = plugin.file_name().to_string_lossy().into_owned();
                self.write(
                    &format!("{COMMON_PLUGINS}/{name}/{file}"),
                    fs::read(plugin.path()).unwrap(),
                    0o755,
                    root,
                );
            }
        }

        // The volumes the agent made. host_volumes itself came from the
        // first mkdir volume's MkdirAll: that volume's mode, 0700.
        self.mkdir(VOLUMES_DIR, 0o700, root);
        let job = User {
            uid: 1000,
            gid: 1000,
        };
        let v = |i: usize| format!("{VOLUMES_DIR}/{}", AGENT_VOLUMES[i]);
        self.mkdir(&v(0), 0o700, root);
        self.mkdir(&format!("{}/data", v(0)), 0o755, job);
        self.write(
            &format!("{}/data/app.db", v(0)),
            b"SQLite format 3\x00 a job's database".as_slice(),
            0o600,
            job,
        );
        self.write(
            &format!("{}/data/app.log", v(0)),
            "started\nserving\n",
            0o640,
            job,
        );
        std::os::unix::fs::symlink("data/app.db", self.path(format!("{}/current", v(0)))).unwrap();
        // A volume may hold anything: a link out of it is its own business.
        std::os::unix::fs::symlink("/etc", self.path(format!("{}/etc-link", v(0)))).unwrap();
        self.mkdir(&v(1), 0o755, job);
        self.mkdir(&format!("{}/www", v(1)), 0o2775, job);
        self.write(
            &format!("{}/www/index.html", v(1)),
            "<h1>served from a host volume</h1>\n",
            0o644,
            job,
        );
        self.mkdir(&v(2), 0o700, root);
        self.write(&v(3), b"", 0o600, root);
        fs::OpenOptions::new()
            .write(true)
            .open(self.path(v(3)))
            .unwrap()
            .set_len(8 << 20)
            .unwrap();
        let mut img = fs::OpenOptions::new()
            .write(true)
            .open(self.path(v(3)))
            .unwrap();
        img.write_all(b"\x53\xef ext4 superblock, more or less")
            .unwrap();

        // Debian's prometheus-node-exporter: the package's postinst gives
        // /var/lib/prometheus to prometheus; the textfile directory is in
        // the package's files, root's.
        self.mkdir("/var/lib/prometheus", 0o755, self.prometheus);
        self.mkdir(TEXTFILE_DIR, 0o755, root);
    }

    /// A system user and group of this name in the box's /etc (the
    /// machine's, copied, when it has one; else added to the copy with a
    /// free id below 1000).
    fn system_user(&self, name: &str, home: &str, shell: &str, gecos: &str) -> User {
        let passwd = self.read("/etc/passwd");
        let group = self.read("/etc/group");
        let field = |text: &str, name: &str, n: usize| -> Option<u32> {
            text.lines()
                .map(|l| l.split(':').collect::<Vec<_>>())
                .find(|f| f.first() == Some(&name))
                .and_then(|f| f.get(n)?.parse().ok())
        };
        if let (Some(uid), Some(gid)) = (field(&passwd, name, 2), field(&passwd, name, 3)) {
            return User { uid, gid };
        }
        let used = |text: &str, n: usize| -> Vec<u32> {
            text.lines()
                .filter_map(|l| l.split(':').nth(n)?.parse().ok())
                .collect()
        };
        let (uids, gids) = (used(&passwd, 2), used(&group, 2));
        let id = (100..1000)
            .rev()
            .find(|i| !uids.contains(i) && !gids.contains(i))
            .expect("a free system id");
        let gid = field(&group, name, 2).unwrap_or_else(|| {
            self.append("/etc/group", &format!("{name}:x:{id}:\n"));
            id
        });
        self.append(
            "/etc/passwd",
            &format!("{name}:x:{id}:{gid}:{gecos}:{home}:{shell}\n"),
        );
        User { uid: id, gid }
    }

    fn append(&self, inside: &str, line: &str) {
        let mut f = fs::OpenOptions::new()
            .append(true)
            .open(self.path(inside))
            .unwrap();
        f.write_all(line.as_bytes()).unwrap();
    }
}

impl Drop for NodeBox {
    fn drop(&mut self) {
        // Its stdin closed, the box's shell reads end-of-file and exits;
        // the namespace and its tmpfs go with the last process in it.
        drop(self.stdin.take());
        let _ = self.holder.wait();
    }
}

/// Says which entries differ between two checksums (`what` names them).
#[track_caller]
pub fn assert_same_tree(
    what: &str,
    before: &BTreeMap<String, String>,
    after: &BTreeMap<String, String>,
) {
    if before == after {
        return;
    }
    let mut diff = Vec::new();
    for (path, was) in before {
        match after.get(path) {
            None => diff.push(format!("  gone:    {path} ({was})")),
            Some(now) if now != was => diff.push(format!("  changed: {path}: {was} -> {now}")),
            _ => {}
        }
    }
    for (path, now) in after {
        if !before.contains_key(path) {
            diff.push(format!("  new:     {path} ({now})"));
        }
    }
    panic!("{what} changed:\n{}", diff.join("\n"));
}

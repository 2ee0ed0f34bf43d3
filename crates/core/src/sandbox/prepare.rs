//! The run's [`Sandbox`]: from its [`Config`] (the level and caps the
//! command line chose, the policy file) to each call's [`Confinement`]
//! (the level and policy that call runs under) and [`Prepared`] (the
//! resources and the plan its child applies between fork and exec).

use std::collections::{BTreeMap, BTreeSet};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use nix::libc;

use super::cgroup::{CallCgroup, Parent};
use super::child::{CapPlan, Plan, Step, StepMark};
use super::files::{self, Rules};
use super::kernel::Kernel;
use super::namespaces::{self, Private, Shared};
use super::report::{Enforcement, Layer, Report};
use super::spawner::{Pool, Slot, Spawners, ThreadLayers};
use super::syscalls::{self, Filters};
use super::{Cap, Caps, Grant, Inherited, Level, OverCap, Policy, PolicyFile, Syscalls};
use crate::error::Hint;
use crate::family::Operation;
use crate::runner::{Invocation, Outcome, SpawnError, Termination};
use crate::{Error, Result};

/// What the command line resolved for the run's sandbox.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// `none`, `trim` or `strict` for every call (a plugin's policy may
    /// raise its own).
    pub level: Level,
    /// Caps for every call (a plugin's policy may tighten them).
    pub caps: Caps,
    /// Apply what the kernel has, and say what it lacks, rather than
    /// refuse.
    pub best_effort: bool,
    /// Every plugin's policy (empty: no file).
    pub policies: PolicyFile,
    /// Where the policy file was looked for (for messages).
    pub policy_path: Option<PathBuf>,
    /// Why the policy file was not read (the trust gate refused it or its
    /// directory): every plugin of the plugin directories, whose policy it
    /// may hold, is then refused as it is run, never run without it.
    pub policy_unread: Option<String>,
    /// Where plugins are, to tell which plugin a call runs.
    pub plugin_dir: PathBuf,
    pub host_volume_plugin_dir: PathBuf,
    /// What plugctl started with ([`Inherited::capture`]).
    pub inherited: Inherited,
    /// The trust gate's rules (the volumes directory made for a create).
    pub trust: crate::trust::Policy,
}

/// The level and policy one call runs under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confinement {
    pub level: Level,
    /// `family/name`, when the call runs a plugin of the plugin
    /// directories.
    pub plugin: Option<String>,
    /// The plugin's policy, its caps the tighter of its own and the
    /// command line's.
    pub policy: Policy,
    /// Whether the policy file has an entry for the plugin.
    pub from_file: bool,
    /// Strict layers lifted altogether, whatever the policy grants: only
    /// `test --propose-policy`'s search does this, to find the layer that
    /// stops a check.
    pub relaxed: BTreeSet<Layer>,
}

impl Confinement {
    /// One line: "strict, policy of host-volume/dir (grants nothing)".
    pub fn describe(&self) -> String {
        let mut s = self.level.to_string();
        if self.level != Level::None {
            match (&self.plugin, self.from_file) {
                (Some(p), true) => {
                    let exposure = self.policy.exposure();
                    if exposure.is_empty() {
                        s.push_str(&format!(", policy of {p} (grants nothing)"));
                    } else {
                        s.push_str(&format!(", policy of {p} (grants {})", exposure.join("; ")));
                    }
                }
                _ => s.push_str(", no policy for this plugin (grants nothing)"),
            }
            let caps: Vec<String> = self
                .policy
                .caps
                .set()
                .into_iter()
                .map(|c| self.policy.caps.describe(c))
                .collect();
            if !caps.is_empty() {
                s.push_str(&format!("; {}", caps.join(", ")));
            }
        }
        s
    }
}

/// The run's sandbox: what it applies, and what it made once to share.
#[derive(Debug)]
pub struct Sandbox {
    config: Config,
    report: Report,
    kernel: OnceLock<Kernel>,
    shared: OnceLock<std::result::Result<Arc<Shared>, String>>,
    cgroups: OnceLock<std::result::Result<Parent, String>>,
    filters: Mutex<BTreeMap<BTreeSet<Syscalls>, Arc<Filters>>>,
    seq: AtomicU64,
    /// The system's paths of every ruleset, opened once.
    base_rules: OnceLock<Vec<files::Opened>>,
    /// trim's own layers are set on plugctl itself (the whole run is at
    /// trim or above), so every child inherits them and a call without
    /// caps needs no step of its own between fork and exec.
    trimmed: bool,
    /// The threads that start strict calls with the layers they share.
    spawners: Spawners,
}

impl Default for Sandbox {
    fn default() -> Sandbox {
        Sandbox::none()
    }
}

/// Why the run's sandbox cannot be what was asked.
fn refuse(message: String) -> Error {
    Error::usage(message).hint(Hint::SandboxBestEffort)
}

impl Sandbox {
    /// No sandbox, nothing captured: every call as plugctl always ran them.
    pub fn none() -> Sandbox {
        Sandbox::build(Config::default(), Report::default())
    }

    fn build(config: Config, report: Report) -> Sandbox {
        Sandbox {
            config,
            report,
            kernel: OnceLock::new(),
            shared: OnceLock::new(),
            cgroups: OnceLock::new(),
            filters: Mutex::default(),
            seq: AtomicU64::new(0),
            base_rules: OnceLock::new(),
            trimmed: false,
            spawners: Spawners::default(),
        }
    }

    /// The run's sandbox. Refused (naming what is missing) when the level
    /// needs a layer the kernel lacks (unless best effort), or a cap this
    /// node cannot enforce, or caps without a level that has them.
    pub fn new(config: Config) -> Result<Sandbox> {
        config
            .caps
            .check()
            .map_err(|e| Error::usage(e.to_string()))?;
        if config.level == Level::None && !config.caps.is_empty() {
            return Err(Error::usage(format!(
                "caps are part of the trim and strict levels, and the sandbox level is none \
                 ({} set)",
                config
                    .caps
                    .set()
                    .iter()
                    .map(|c| config.caps.describe(*c))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
            .hint(Hint::SandboxLevel));
        }
        let level = config.level;
        let mut report = Report {
            level,
            applied: Layer::of(level),
            ..Report::default()
        };
        let sandbox = Sandbox::build(config, Report::default());
        let mut trimmed = false;
        if level >= Level::Trim {
            report.caps = sandbox.enforcement(&sandbox.config.caps)?;
            trim_self().map_err(|e| {
                Error::io(
                    "cannot apply the trim sandbox's layers to plugctl itself",
                    e,
                )
            })?;
            trimmed = true;
            if let Some(note) = oom_note() {
                report.notes.push(note);
            }
        }
        if level == Level::Strict {
            let missing = sandbox.missing_layers();
            if !missing.is_empty() && !sandbox.config.best_effort {
                let list: Vec<String> = missing
                    .iter()
                    .map(|(l, why)| format!("{l} ({why})"))
                    .collect();
                return Err(refuse(format!(
                    "the strict sandbox needs what this node does not give: {}",
                    list.join("; ")
                )));
            }
            report
                .applied
                .retain(|l| !missing.iter().any(|(m, _)| m == l));
            report.landlock_abi = sandbox
                .kernel()
                .landlock
                .is_ok()
                .then(|| sandbox.kernel().landlock_version)
                .flatten();
            report.missing = missing;
        }
        Ok(Sandbox {
            report,
            trimmed,
            ..sandbox
        })
    }

    /// The level every call runs under at least.
    pub fn level(&self) -> Level {
        self.config.level
    }

    /// What the run applies, for `-v`.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// The policy file's policies.
    pub fn policies(&self) -> &PolicyFile {
        &self.config.policies
    }

    /// Where the policy file was looked for.
    pub fn policy_path(&self) -> Option<&Path> {
        self.config.policy_path.as_deref()
    }

    fn kernel(&self) -> &Kernel {
        self.kernel.get_or_init(Kernel::probe)
    }

    fn shared(&self) -> std::result::Result<Arc<Shared>, String> {
        self.shared
            .get_or_init(|| {
                // Not even tried without the capability it needs (a
                // hardened unit's bounding set): no call a filter refuses.
                if !self.kernel().holds(caps::Capability::CAP_SYS_ADMIN) {
                    return Err(
                        "plugctl does not hold CAP_SYS_ADMIN, which making a network and \
                                mount namespace needs (a systemd unit's \
                                CapabilityBoundingSet= may leave it out)"
                            .to_string(),
                    );
                }
                Shared::make().map(Arc::new)
            })
            .clone()
    }

    fn cgroups(&self) -> std::result::Result<&Parent, String> {
        self.cgroups
            .get_or_init(|| {
                let parent = Parent::discover()?;
                if let Parent::V2 { dir } = &parent {
                    super::cgroup::ready_v2(dir).map_err(|e| {
                        format!(
                            "cannot make plugctl's cgroup {} hand out controllers: {e}",
                            dir.display()
                        )
                    })?;
                }
                Ok(parent)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The strict layers this node cannot give, and why.
    fn missing_layers(&self) -> Vec<(Layer, String)> {
        let k = self.kernel();
        let mut missing = Vec::new();
        if let Err(why) = &k.landlock {
            missing.push((Layer::Landlock, why.clone()));
        }
        if let Err(why) = &k.seccomp {
            missing.push((Layer::Seccomp, why.clone()));
        }
        if let Err(why) = self.shared() {
            missing.push((Layer::Network, why.clone()));
            missing.push((Layer::PrivateTmp, why));
        }
        missing
    }

    /// How each cap set binds here; an error for one nothing here can
    /// enforce.
    fn enforcement(&self, caps: &Caps) -> Result<Vec<(Cap, String, Enforcement)>> {
        let mut out = Vec::new();
        for cap in caps.set() {
            let how = self.enforce(cap).map_err(Error::usage)?;
            let value = caps.describe(cap);
            let value = value
                .strip_prefix(&format!("{} cap of ", cap.noun()))
                .unwrap_or(&value)
                .to_string();
            out.push((cap, value, how));
        }
        Ok(out)
    }

    fn enforce(&self, cap: Cap) -> std::result::Result<Enforcement, String> {
        let rlimit = |name| Ok(Enforcement::Rlimit { name });
        match cap {
            Cap::Memory => match self.cgroups().ok().and_then(Parent::memory) {
                Some(how) => Ok(how),
                None => rlimit("RLIMIT_AS"),
            },
            Cap::Cpu => rlimit("RLIMIT_CPU"),
            Cap::Files => rlimit("RLIMIT_NOFILE"),
            Cap::Tasks => match self.cgroups() {
                Ok(p) => p.pids().ok_or_else(|| {
                    "the tasks cap cannot be enforced here: plugctl's cgroup has no pids \
                     controller, and root's RLIMIT_NPROC counts every process of root on the \
                     node, so it is no cap of one call"
                        .to_string()
                }),
                Err(why) => Err(format!(
                    "the tasks cap cannot be enforced here: {why}; root's RLIMIT_NPROC counts \
                     every process of root on the node, so it is no cap of one call"
                )),
            },
        }
    }

    /// Which plugin `program` is: `family/name`, when it lies directly in
    /// the host-volume plugin directory or in a family directory of the
    /// plugin directory.
    fn plugin_of(&self, program: &Path) -> Option<(String, String)> {
        let name = program.file_name()?.to_str()?.to_string();
        let parent = program.parent()?;
        if parent == self.config.host_volume_plugin_dir {
            return Some((crate::family::Family::HostVolume.name().to_string(), name));
        }
        if parent.parent()? == self.config.plugin_dir {
            let family = parent.file_name()?.to_str()?.to_string();
            return Some((family, name));
        }
        None
    }

    /// The level and policy `inv` runs under.
    pub fn confinement(&self, inv: &Invocation) -> Confinement {
        let plugin = self.plugin_of(&inv.program);
        let entry = plugin
            .as_ref()
            .and_then(|(f, n)| self.config.policies.get(f, n));
        let mut policy = entry.cloned().unwrap_or_default();
        let level = self.config.level.max(policy.level.unwrap_or(Level::None));
        policy.caps = self.config.caps.tighter(policy.caps);
        if level == Level::None {
            // Caps and grants mean nothing at none.
            policy.caps = Caps::default();
        }
        Confinement {
            level,
            plugin: plugin.map(|(f, n)| format!("{f}/{n}")),
            policy,
            from_file: entry.is_some(),
            relaxed: BTreeSet::new(),
        }
    }

    /// Everything `inv`'s child needs, made now; None when the child needs
    /// nothing (what it inherits is exactly what a Nomad client's
    /// child gets). A call that cannot be confined as its policy says is
    /// refused, naming why.
    pub fn prepare(
        &self,
        inv: &Invocation,
    ) -> std::result::Result<Option<Arc<Prepared>>, SpawnError> {
        let conf = self.confinement(inv);
        self.prepare_as(inv, conf)
    }

    /// [`Sandbox::prepare`] under a confinement of the caller's (the
    /// policy proposal relaxes one layer at a time).
    pub fn prepare_as(
        &self,
        inv: &Invocation,
        conf: Confinement,
    ) -> std::result::Result<Option<Arc<Prepared>>, SpawnError> {
        let refused = |message: String| SpawnError::Refused {
            program: inv.program.clone(),
            message: format!("sandbox {}: {message}", conf.level),
            hint: None,
        };
        if let (Some(why), Some(_)) = (&self.config.policy_unread, &conf.plugin) {
            return Err(SpawnError::Refused {
                program: inv.program.clone(),
                message: format!("not run: its sandbox policy cannot be read: {why}"),
                hint: Some(Hint::AllowInsecurePaths),
            });
        }
        let inherited = &self.config.inherited;
        // What it inherits is all the call needs: at none, what a Go
        // parent gives; at trim without caps, what plugctl itself has.
        let inherits_all = match conf.level {
            Level::None => true,
            Level::Trim => self.trimmed && conf.policy.caps.is_empty(),
            Level::Strict => false,
        };
        if inherits_all && inherited.spawn_gives_it() {
            return Ok(None);
        }
        let mut prepared = Prepared::new(conf.clone()).map_err(|e| refused(e.to_string()))?;
        let plan = &mut prepared.plan;
        plan.signals = inherited.plan();
        let nofile_hard =
            nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE)
                .map(|(_, h)| h)
                .unwrap_or(libc::RLIM_INFINITY);
        let caps = conf.policy.caps;
        match (caps.files_max, inherited.nofile_soft()) {
            (Some(n), _) if conf.level >= Level::Trim => {
                plan.limits
                    .push((libc::RLIMIT_NOFILE, n.min(nofile_hard), n.min(nofile_hard)));
            }
            (_, Some(soft)) => {
                plan.limits
                    .push((libc::RLIMIT_NOFILE, soft.min(nofile_hard), nofile_hard))
            }
            _ => {}
        }
        if conf.level == Level::None {
            return Ok(Some(Arc::new(prepared)));
        }
        // trim
        plan.no_new_privs = true;
        let oom = own_oom_score_adj();
        plan.oom_zero = oom != 0;
        plan.oom_above = oom > 0;
        plan.limits.push((libc::RLIMIT_CORE, 0, 0));
        if let Some(cpu) = caps.cpu_max {
            let s = cpu.as_secs().max(1);
            plan.limits.push((libc::RLIMIT_CPU, s, s + 1));
        }
        let by_cgroup = |cap| matches!(self.enforce(cap), Ok(Enforcement::Cgroup { .. }));
        let memory_cgroup = caps.memory_max.filter(|_| by_cgroup(Cap::Memory));
        if let Some(m) = caps.memory_max
            && memory_cgroup.is_none()
        {
            plan.limits.push((libc::RLIMIT_AS, m, m));
            prepared.by_rlimit.push(Cap::Memory);
        }
        if caps.files_max.is_some() {
            prepared.by_rlimit.push(Cap::Files);
        }
        if let Some(t) = caps.tasks_max
            && let Err(why) = self.enforce(Cap::Tasks)
        {
            let _ = t;
            return Err(refused(why));
        }
        if memory_cgroup.is_some() || caps.tasks_max.is_some() {
            let parent = self.cgroups().map_err(refused)?;
            let n = self.seq.fetch_add(1, Ordering::Relaxed);
            let name = format!("plugctl-call-{}-{n}", std::process::id());
            let cg = CallCgroup::create(parent, &name, memory_cgroup, caps.tasks_max)
                .map_err(|e| refused(format!("cannot make the call's cgroup: {e}")))?;
            prepared.plan.cgroup_procs = cg.procs().collect();
            prepared.cgroup = Some(cg);
        }
        if conf.level == Level::Strict {
            self.strict(inv, &conf, &mut prepared).map_err(refused)?;
        }
        Ok(Some(Arc::new(prepared)))
    }

    /// The strict layers of one call, each relaxed only by its grants.
    fn strict(
        &self,
        inv: &Invocation,
        conf: &Confinement,
        prepared: &mut Prepared,
    ) -> std::result::Result<(), String> {
        let grants = &conf.policy.grants;
        let op = inv
            .args
            .first()
            .and_then(|a| a.to_str())
            .and_then(Operation::of);
        let best_effort = self.config.best_effort;
        let k = self.kernel();
        let missing = |layer: Layer, why: &str| -> std::result::Result<(), String> {
            if best_effort {
                Ok(())
            } else {
                Err(format!("{layer} cannot be applied here: {why}"))
            }
        };
        let relaxed = |l: Layer| conf.relaxed.contains(&l);
        // Capabilities: only those granted, in every set.
        let mut keep = 0u64;
        for c in &grants.capabilities {
            keep |= 1u64 << c.index();
        }
        // Only capabilities this kernel has and plugctl holds: capset(2)
        // refuses to give any other.
        keep &= u64::MAX >> (63 - u32::from(k.last_cap.min(63)));
        keep &= k.permitted;
        // Nothing to drop (plugctl itself holds no more, as in a unit whose
        // CapabilityBoundingSet= is empty): the child inherits the bound.
        let drop_bounding = k.bounding & !keep;
        if !relaxed(Layer::Capabilities) && (drop_bounding != 0 || k.permitted & !keep != 0) {
            prepared.plan.caps = Some(CapPlan {
                keep,
                drop_bounding,
                last_cap: k.last_cap,
            });
        }
        // Seccomp.
        match &k.seccomp {
            _ if relaxed(Layer::Seccomp) => {}
            Ok(()) => {
                let filters = self.filters(&grants.syscalls)?;
                prepared.plan.seccomp = Some(filters);
            }
            Err(why) => missing(Layer::Seccomp, why)?,
        }
        // The volumes directory a create or delete writes in: made now if
        // missing (as a Nomad client makes it at start), so that a rule
        // can name it.
        let volumes = match op {
            Some(Operation::Create | Operation::Delete) => env_path(inv, "DHV_VOLUMES_DIR"),
            _ => None,
        };
        if let Some(v) = &volumes
            && !v.exists()
        {
            crate::trust::CheckedDir::create_all(
                self.config.trust,
                v,
                crate::families::mkdir::VOLUMES_DIR_MODE,
            )
            .map_err(|r| format!("cannot make the volumes directory: {r}"))?;
        }
        // What the call reads, executes and writes, as the node sees it.
        let program = canonical(&inv.program);
        let mut rules = Rules::default();
        rules.exec.push(program.clone());
        rules.exec.extend(interpreters(
            &program,
            crate::trust::program::path_of(&inv.env),
        ));
        // A path that leads to / (a symlink, a variable) grants nothing:
        // confined, nothing may have the whole disk.
        let whole = |p: &PathBuf| p == Path::new("/");
        // Each grant is opened as root, following its links: it passes the
        // trust gate first, so that no other user's directory or link on
        // its way chooses what it opens.
        let granted = |kind: &str, grants: &BTreeSet<Grant>| {
            let mut out = Vec::new();
            for g in grants {
                let Some(p) = g.resolve(&inv.env) else {
                    continue;
                };
                crate::trust::environment::judge_grant(self.config.trust, &p).map_err(|why| {
                    format!(
                        "its policy's {kind} grant {} names {}, {why}; plugctl opens a grant \
                         as root for the plugin, so no one else may change its way: fix it, \
                         or grant another path",
                        crate::escape::quote(&g.to_string()),
                        crate::escape::quote_os(p.as_os_str())
                    )
                })?;
                let p = canonical(&p);
                if !whole(&p) {
                    out.push(p);
                }
            }
            Ok::<_, String>(out)
        };
        let reads = granted("read", &grants.read)?;
        let mut writes = granted("write", &grants.write)?;
        if let Some(v) = &volumes {
            let v = canonical(v);
            if whole(&v) {
                return Err("a volumes directory of / cannot be confined".into());
            }
            writes.push(v);
        }
        rules.exec.extend(reads.iter().cloned());
        rules.write.extend(writes.iter().cloned());
        // Network: none for a fingerprint; for the rest, unless granted.
        let network =
            (grants.network && op != Some(Operation::Fingerprint)) || relaxed(Layer::Network);
        let no_mount_ns = grants.mounts() || relaxed(Layer::PrivateTmp);
        let shared = if network && no_mount_ns {
            None
        } else {
            match self.shared() {
                Ok(s) => Some(s),
                Err(why) => {
                    missing(Layer::Network, &why)?;
                    None
                }
            }
        };
        if !network && let Some(s) = &shared {
            prepared.plan.netns = Some(s.net.as_raw_fd());
        }
        // Mounts: a plugin that mounts stays in the node's mount namespace
        // (its mount must reach the node) and without Landlock (which
        // refuses every mount).
        let mut tmp_rule: Option<&OwnedFd> = None;
        let private;
        if !no_mount_ns && shared.is_some() {
            let mut exposed: Vec<(PathBuf, bool)> = Vec::new();
            let mut add = |p: &Path, writable: bool| {
                if namespaces::in_tmp(p) && p.exists() {
                    exposed.push((p.to_path_buf(), writable));
                }
            };
            add(&program, false);
            for p in &rules.exec {
                add(p, false);
            }
            for p in &writes {
                add(p, true);
            }
            exposed.sort();
            exposed.dedup_by(|a, b| a.0 == b.0);
            if exposed.is_empty() {
                if let Some(s) = &shared {
                    prepared.plan.mntns = Some(s.mnt.as_raw_fd());
                }
                private = None;
            } else {
                // Parents first, so a path inside another lands on it.
                exposed.sort_by_key(|(p, _)| p.components().count());
                private = Some(Private::make(&exposed)?);
            }
        } else {
            private = None;
        }
        if let Some(p) = &private {
            tmp_rule = Some(&p.tmpfs);
        } else if prepared.plan.mntns.is_some() {
            tmp_rule = shared.as_ref().map(|s| &s.tmp);
        } else {
            // No /tmp of its own (lifted, or not to be had): the node's,
            // which programs need to write in.
            rules.write.push(PathBuf::from("/tmp"));
        }
        // Landlock.
        if !grants.mounts() && !relaxed(Layer::Landlock) {
            match &k.landlock {
                Ok(abi) => {
                    let base = self.base_rules.get_or_init(|| files::open(&Rules::base()));
                    let fd = files::ruleset(*abi, base, &files::open(&rules), tmp_rule)?;
                    prepared.plan.landlock = Some(fd.as_raw_fd());
                    prepared.landlock = Some(fd);
                }
                Err(why) => missing(Layer::Landlock, why)?,
            }
        }
        prepared.plan.private = private;
        prepared.shared = shared;
        // What every call like it shares goes to a thread that applied it
        // once; the child applies the rest.
        if let Some(layers) = ThreadLayers::of(&prepared.plan, prepared.shared.as_ref()) {
            let lean = layers.lean(&prepared.plan);
            if let Some(pool) = self.spawners.get(layers) {
                prepared.spawner = Some((pool, lean));
            }
        }
        Ok(())
    }

    fn filters(&self, granted: &BTreeSet<Syscalls>) -> std::result::Result<Arc<Filters>, String> {
        let mut cache = self.filters.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = cache.get(granted) {
            return Ok(Arc::clone(f));
        }
        let f = Arc::new(syscalls::compile(granted)?);
        cache.insert(granted.clone(), Arc::clone(&f));
        Ok(f)
    }
}

/// trim's layers on plugctl itself, for the whole run, so that every child
/// inherits them without a step of its own between fork and exec:
/// no-new-privileges (plugctl never needs a privilege an exec would give),
/// no core dumps, `oom_score_adj` 0 (where the kernel lets it be lowered
/// to 0; above 0 and not lowerable, it stays higher: more killable).
fn trim_self() -> std::io::Result<()> {
    nix::sys::prctl::set_no_new_privs()?;
    nix::sys::resource::setrlimit(nix::sys::resource::Resource::RLIMIT_CORE, 0, 0)?;
    let now = own_oom_score_adj();
    if now != 0 {
        match std::fs::write("/proc/self/oom_score_adj", "0") {
            Ok(()) => {}
            Err(e) if now > 0 && e.raw_os_error() == Some(libc::EACCES) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// plugctl's own `oom_score_adj` (0 when it cannot be read).
fn own_oom_score_adj() -> i32 {
    std::fs::read_to_string("/proc/self/oom_score_adj")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0)
}

/// `oom_score_adj` may stay above 0: plugctl runs with one, and without
/// `CAP_SYS_RESOURCE` the kernel lowers it only down to the floor a
/// privileged parent set.
fn oom_note() -> Option<String> {
    let now = own_oom_score_adj();
    let can = caps::has_cap(
        None,
        caps::CapSet::Effective,
        caps::Capability::CAP_SYS_RESOURCE,
    )
    .unwrap_or(false);
    (now > 0 && !can).then(|| {
        format!(
            "oom_score_adj is lowered from plugctl's {now} to 0 where the kernel lets a process \
             without CAP_SYS_RESOURCE do so, and otherwise stays {now} (more likely killed, \
             never less)"
        )
    })
}

fn env_path(inv: &Invocation, key: &str) -> Option<PathBuf> {
    inv.env
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| PathBuf::from(v))
        .filter(|p| p.is_absolute())
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// What runs a `#!` script: its interpreter, what `env` runs (found on
/// the `PATH` the plugin gets, `search`, as its `#!` line changes it, as
/// the trust gate finds it), and an interpreter's own interpreter, as
/// deep as the kernel follows them.
fn interpreters(program: &Path, search: Option<&std::ffi::OsStr>) -> Vec<PathBuf> {
    use crate::trust::program::{SHEBANG_DEPTH, env_lookup, shebang_of};
    let mut out = Vec::new();
    let mut at = program.to_path_buf();
    let mut search = search.map(std::ffi::OsStr::to_os_string);
    for _ in 0..SHEBANG_DEPTH {
        let Some(sb) = shebang_of(&at) else { break };
        let interp = canonical(Path::new(&sb.interpreter));
        out.push(interp.clone());
        if let Some(word) = sb.env_program() {
            search = sb.env_search_path(search.as_deref());
            if let Ok(Some(found)) = env_lookup(word, search.as_deref()) {
                out.push(canonical(&found));
            }
        }
        at = interp;
    }
    out
}

/// One call's confinement, made: its plan and what the plan's descriptors
/// belong to.
#[derive(Debug)]
pub struct Prepared {
    pub confinement: Confinement,
    plan: Plan,
    mark: StepMark,
    cgroup: Option<CallCgroup>,
    landlock: Option<OwnedFd>,
    shared: Option<Arc<Shared>>,
    /// The threads that start calls like it, and what its child still
    /// applies (the rest of `plan` such a thread applied to itself).
    spawner: Option<(Arc<Pool>, Plan)>,
    /// Caps enforced per process by an rlimit (a hit is not seen, only
    /// possible).
    by_rlimit: Vec<Cap>,
}

impl Prepared {
    fn new(confinement: Confinement) -> std::io::Result<Prepared> {
        Ok(Prepared {
            confinement,
            plan: Plan::default(),
            mark: StepMark::new()?,
            cgroup: None,
            landlock: None,
            shared: None,
            spawner: None,
            by_rlimit: Vec::new(),
        })
    }

    /// Whether the child does anything.
    pub fn is_empty(&self) -> bool {
        self.plan.is_empty()
    }

    /// A thread to start the call from ([`super::Spawner::run`]), held
    /// for the call, where it shares layers with others; else (`None`) it
    /// is started from any thread and its child applies every layer.
    pub async fn spawner(&self) -> Option<Slot> {
        match &self.spawner {
            Some((pool, _)) => pool.slot().await,
            None => None,
        }
    }

    /// The child's part, to run between fork and exec before any other
    /// step (the `--locked` exec check execs). It makes only
    /// async-signal-safe system calls on memory prepared before the fork,
    /// and allocates nothing. `on_spawner`: the call is started from a
    /// [`Prepared::spawner`] thread, and its child applies only what that
    /// thread did not; else every layer.
    #[allow(clippy::type_complexity)]
    pub fn step(
        self: &Arc<Self>,
        on_spawner: bool,
    ) -> Box<dyn Fn() -> std::io::Result<()> + Send + Sync> {
        let me = Arc::clone(self);
        Box::new(move || match &me.spawner {
            Some((_, lean)) if on_spawner => lean.apply(&me.mark),
            _ => me.plan.apply(&me.mark),
        })
    }

    /// A start that failed, said as the sandbox's when a step of it
    /// failed, or when Landlock kept the exec from reading the program.
    pub fn explain(&self, e: SpawnError) -> SpawnError {
        let step = self.mark.get();
        let (program, os) = match &e {
            SpawnError::Other { program, message } => (program.clone(), message.clone()),
            SpawnError::PermissionDenied(p) => (p.clone(), "permission denied".into()),
            _ => return e,
        };
        let level = self.confinement.level;
        if step < Step::Exec && step > Step::Start {
            return SpawnError::Other {
                program,
                message: format!("the {level} sandbox could not {}: {os}", step.name()),
            };
        }
        if step == Step::Exec && self.landlock.is_some() {
            return SpawnError::Other {
                program,
                message: format!(
                    "not run: the {level} sandbox's Landlock rules do not let it start \
                     ({os}): it, its interpreter or a library it loads lies outside what \
                     strict lets a plugin read and execute (a policy grants more with read)"
                ),
            };
        }
        e
    }

    /// The cap a finished call went over: certain where its cgroup counts
    /// it or it died of SIGXCPU; where an rlimit enforces a cap, a failed
    /// call may have hit it, and that is said as a possibility.
    pub fn over_cap(&self, out: &Outcome) -> Option<OverCap> {
        let caps = &self.confinement.policy.caps;
        if let Some(cg) = &self.cgroup
            && let Some(cap) = cg.over()
        {
            let _ = cg.memory_max();
            return Some(OverCap {
                cap,
                described: caps.describe(cap),
                certain: true,
            });
        }
        if caps.cpu_max.is_some() && out.termination == Termination::Signaled(libc::SIGXCPU) {
            return Some(OverCap {
                cap: Cap::Cpu,
                described: caps.describe(Cap::Cpu),
                certain: true,
            });
        }
        if out.success() {
            return None;
        }
        self.by_rlimit.first().map(|&cap| OverCap {
            cap,
            described: caps.describe(cap),
            certain: false,
        })
    }
}

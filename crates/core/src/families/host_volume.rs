//! Dynamic host-volume plugins (docs/protocol.md, section 4): the `DHV_*`
//! environment is formed here and nowhere else.
//!
//! Everything here is pure protocol: a [`Request`] (what a Nomad client asks
//! of a plugin), the [`Invocation`]s for `create` and `delete`, and the
//! parsing of their output into [`Created`]. Nothing here knows about the
//! registry or the command line, so the conformance suite can drive a plugin
//! with exactly the calls `plugctl volume` makes (including deliberately bad
//! requests: building an invocation never validates, [`Request::validate`]
//! does).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{Fingerprint, Quote, decode_fingerprint, decode_stdout, judge};
use crate::error::PluginFailure;
use crate::family::Operation;
use crate::runner::{Invocation, Outcome};
use plugctl_protocol::json::{self, Dialect};
use plugctl_protocol::responses;

/// Nomad's code caps a fingerprint at 5 s (it allows 1 s at agent start:
/// `validate` judges that); the same on every release ([`crate::nomad`]).
pub const FINGERPRINT_DEADLINE: Duration = crate::nomad::HOST_VOLUME_FINGERPRINT_CAP;
/// Nomad's limit for create and delete, every release.
pub const OPERATION_DEADLINE: Duration = crate::nomad::HOST_VOLUME_OPERATION_DEADLINE;

/// `{"version": "..."}`; reported normalised (`v1.2` → `1.2.0`) as Nomad does.
/// `dialect`: whose words a decode error is in (the release's Go).
pub fn parse_fingerprint(
    dialect: Dialect,
    inv: &Invocation,
    out: &Outcome,
) -> Result<Fingerprint, PluginFailure> {
    judge(inv, out, Quote::Allowed)?;
    let fp = decode_fingerprint(inv, out, |b| responses::host_volume_fingerprint(b, dialect))?;
    // Nomad calls `fprint.Version.String()`: a nil version is a nil
    // dereference in the client.
    let version = fp.version.ok_or_else(|| {
        PluginFailure::Response(
            "fingerprint has no \"version\" (missing or null; on a Nomad node this crashes \
             the client)"
                .into(),
        )
    })?;
    Ok(Fingerprint {
        version: version.normalized(),
        kind: None,
    })
}

/// Nomad's namespace rule, `^[a-zA-Z0-9-]{1,128}$`, as a length bound.
pub const NAMESPACE_MAX: usize = 128;

/// One volume request, as a Nomad client sends it to a plugin: every value a
/// `DHV_*` variable carries, and nothing else.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// `DHV_VOLUMES_DIR`: where volumes live (absolute).
    pub volumes_dir: PathBuf,
    /// `DHV_PLUGIN_DIR`: the host-volume plugin directory (absolute).
    pub plugin_dir: PathBuf,
    /// `DHV_NODE_POOL`.
    pub node_pool: String,
    /// `DHV_NAMESPACE`: `^[a-zA-Z0-9-]{1,128}$`.
    pub namespace: String,
    /// `DHV_VOLUME_NAME`: any non-empty string. Untrusted: plugctl never
    /// builds a path from it.
    pub name: String,
    /// `DHV_VOLUME_ID`: a lowercase UUID.
    pub id: String,
    /// `DHV_CAPACITY_MIN_BYTES`, 0 when unset.
    pub capacity_min: u64,
    /// `DHV_CAPACITY_MAX_BYTES`, 0 when unset.
    pub capacity_max: u64,
    /// `DHV_NODE_ID`.
    pub node_id: String,
    /// `DHV_PARAMETERS`, encoded by [`encode_parameters`].
    pub parameters: BTreeMap<String, String>,
}

/// Why a [`Request`] cannot be sent: the field, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct InvalidRequest {
    /// The request field (`namespace`, `id`, `capacity_max`, `parameters`, ...).
    pub field: &'static str,
    pub reason: String,
}

fn invalid(field: &'static str, reason: impl Into<String>) -> InvalidRequest {
    InvalidRequest {
        field,
        reason: reason.into(),
    }
}

impl Request {
    /// Checks every rule of protocol 4.2 that plugctl enforces before a
    /// plugin runs:
    ///
    /// - `volumes_dir` and `plugin_dir` absolute and valid UTF-8 (they are
    ///   recorded and printed as JSON strings);
    /// - `namespace` matches `^[a-zA-Z0-9-]{1,128}$`;
    /// - `name` not empty; `id` a lowercase UUID ([`is_volume_id`]);
    /// - `node_id`, `node_pool` not empty;
    /// - both capacities fit Go's `int64`, and `capacity_max >= capacity_min`
    ///   when a maximum is set (0 means unset, as in Nomad);
    /// - parameter keys not empty;
    /// - no value holds a NUL byte (an environment variable cannot carry one);
    /// - the directories are absolute, without `..`.
    pub fn validate(&self) -> Result<(), InvalidRequest> {
        for (field, dir) in [
            ("volumes_dir", &self.volumes_dir),
            ("plugin_dir", &self.plugin_dir),
        ] {
            let Some(text) = dir.to_str() else {
                return Err(invalid(
                    field,
                    format!(
                        "{dir_q} is not valid UTF-8",
                        dir_q = crate::escape::quote_os(dir)
                    ),
                ));
            };
            if !dir.is_absolute() {
                return Err(invalid(
                    field,
                    format!(
                        "{text_q} is not an absolute path",
                        text_q = crate::escape::quote(text)
                    ),
                ));
            }
            // The registry records the volumes directory and loads none
            // with '..' (which a symlink before it makes ambiguous); and no
            // path a plugin builds from it could be judged inside it.
            if dir.components().any(|c| c == Component::ParentDir) {
                return Err(invalid(
                    field,
                    format!(
                        "{} holds '..': name the directory without it",
                        crate::escape::quote(text)
                    ),
                ));
            }
            no_nul(field, text)?;
        }
        if !is_namespace(&self.namespace) {
            return Err(invalid(
                "namespace",
                format!(
                    "{} must be 1 to {NAMESPACE_MAX} characters of a-z, A-Z, 0-9 and '-'",
                    crate::escape::quote_os(&self.namespace)
                ),
            ));
        }
        if self.name.is_empty() {
            return Err(invalid("name", "must not be empty"));
        }
        no_nul("name", &self.name)?;
        if !is_volume_id(&self.id) {
            return Err(invalid(
                "id",
                format!(
                    "{} is not a UUID (8-4-4-4-12 hex digits, e.g. {})",
                    crate::escape::quote_os(&self.id),
                    new_volume_id()
                ),
            ));
        }
        for (field, value) in [("node_id", &self.node_id), ("node_pool", &self.node_pool)] {
            if value.is_empty() {
                return Err(invalid(field, "must not be empty"));
            }
            no_nul(field, value)?;
        }
        for (field, value) in [
            ("capacity_min", self.capacity_min),
            ("capacity_max", self.capacity_max),
        ] {
            if i64::try_from(value).is_err() {
                return Err(invalid(
                    field,
                    format!(
                        "{value} bytes is more than Nomad's limit of {} bytes",
                        i64::MAX
                    ),
                ));
            }
        }
        // Nomad's server: capacity_max ≥ capacity_min, so a minimum without
        // a maximum (0) is refused too (nomad/structs/host_volumes.go).
        if self.capacity_max < self.capacity_min {
            return Err(invalid(
                "capacity_max",
                format!(
                    "capacity_max ({}) must be larger than capacity_min ({})",
                    self.capacity_max, self.capacity_min
                ),
            ));
        }
        for (key, value) in &self.parameters {
            if key.is_empty() {
                return Err(invalid("parameters", "a parameter key is empty"));
            }
            no_nul("parameters", key)?;
            no_nul("parameters", value)?;
        }
        Ok(())
    }

    /// The `DHV_*` variables every operation shares, in protocol order,
    /// after `DHV_OPERATION`.
    fn common_env(&self) -> Vec<(&'static str, OsString)> {
        vec![
            ("DHV_VOLUMES_DIR", self.volumes_dir.clone().into_os_string()),
            ("DHV_PLUGIN_DIR", self.plugin_dir.clone().into_os_string()),
            ("DHV_NODE_POOL", self.node_pool.clone().into()),
        ]
    }
}

fn no_nul(field: &'static str, value: &str) -> Result<(), InvalidRequest> {
    if value.contains('\0') {
        Err(invalid(
            field,
            format!(
                "{value_q} contains a NUL byte",
                value_q = crate::escape::quote(value)
            ),
        ))
    } else {
        Ok(())
    }
}

/// `^[a-zA-Z0-9-]{1,128}$`, Nomad's namespace rule.
pub fn is_namespace(s: &str) -> bool {
    (1..=NAMESPACE_MAX).contains(&s.len())
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// A lowercase UUID, `8-4-4-4-12` hex digits, as Nomad makes volume ids.
/// Uppercase is refused rather than folded, so an id is one string
/// everywhere (registry key, `DHV_VOLUME_ID`, directory name).
pub fn is_volume_id(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, &c)| match i {
            8 | 13 | 18 | 23 => c == b'-',
            _ => c.is_ascii_digit() || (b'a'..=b'f').contains(&c),
        })
}

/// A new random volume id (UUID v4, lowercase).
pub fn new_volume_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// The `create` call: argv `create`, and exactly these 11 variables in this
/// order: `DHV_OPERATION`, `DHV_VOLUMES_DIR`, `DHV_PLUGIN_DIR`,
/// `DHV_NODE_POOL`, `DHV_NAMESPACE`, `DHV_VOLUME_NAME`, `DHV_VOLUME_ID`,
/// `DHV_CAPACITY_MIN_BYTES`, `DHV_CAPACITY_MAX_BYTES`, `DHV_NODE_ID`,
/// `DHV_PARAMETERS`. Capacities are plain decimal integers.
///
/// The request is not validated here (see [`Request::validate`]), so a
/// conformance check can send a plugin a bad one on purpose.
pub fn create_invocation(
    program: &Path,
    req: &Request,
    deadline: Duration,
    grace: Duration,
) -> Invocation {
    let mut inv = Invocation::new(program, deadline, grace)
        .arg(Operation::Create.name())
        .env("DHV_OPERATION", Operation::Create.name());
    for (k, v) in req.common_env() {
        inv = inv.env(k, v);
    }
    inv.env("DHV_NAMESPACE", &req.namespace)
        .env("DHV_VOLUME_NAME", &req.name)
        .env("DHV_VOLUME_ID", &req.id)
        .env("DHV_CAPACITY_MIN_BYTES", req.capacity_min.to_string())
        .env("DHV_CAPACITY_MAX_BYTES", req.capacity_max.to_string())
        .env("DHV_NODE_ID", &req.node_id)
        .env("DHV_PARAMETERS", encode_parameters(&req.parameters))
}

/// The `delete` call: argv `delete`, and exactly these 10 variables in this
/// order: `DHV_OPERATION`, `DHV_VOLUMES_DIR`, `DHV_PLUGIN_DIR`,
/// `DHV_NODE_POOL`, `DHV_CREATED_PATH` (`created_path`: what create
/// returned), `DHV_NAMESPACE`, `DHV_VOLUME_NAME`, `DHV_VOLUME_ID`,
/// `DHV_NODE_ID`, `DHV_PARAMETERS`. No capacities.
///
/// Not validated, as [`create_invocation`].
pub fn delete_invocation(
    program: &Path,
    req: &Request,
    created_path: &str,
    deadline: Duration,
    grace: Duration,
) -> Invocation {
    let mut inv = Invocation::new(program, deadline, grace)
        .arg(Operation::Delete.name())
        .env("DHV_OPERATION", Operation::Delete.name());
    for (k, v) in req.common_env() {
        inv = inv.env(k, v);
    }
    inv.env("DHV_CREATED_PATH", created_path)
        .env("DHV_NAMESPACE", &req.namespace)
        .env("DHV_VOLUME_NAME", &req.name)
        .env("DHV_VOLUME_ID", &req.id)
        .env("DHV_NODE_ID", &req.node_id)
        .env("DHV_PARAMETERS", encode_parameters(&req.parameters))
}

/// `DHV_PARAMETERS`: the parameters as Go's `json.Marshal` encodes a
/// `map[string]string`, byte for byte.
///
/// - An empty map is the literal `null` (Nomad marshals a nil map).
/// - Keys sorted by their bytes; no whitespace: `{"a":"1","b":"2"}`.
/// - `"` and `\` escaped with a backslash; `\n` `\r` `\t` and (Go 1.22+)
///   `\b` `\f` as short escapes; other control characters below U+0020 as
///   `\u00XX` (lowercase hex).
/// - HTML-safe, as Go's default: `<` `>` `&` as `\u003c` `\u003e` `\u0026`.
/// - U+2028 and U+2029 as `\u2028` `\u2029`.
/// - Everything else, DEL and non-ASCII included, as is (UTF-8).
pub fn encode_parameters(params: &BTreeMap<String, String>) -> String {
    if params.is_empty() {
        return "null".into();
    }
    let mut out = String::from("{");
    // BTreeMap<String, _> iterates in byte order of the keys, as Go sorts them.
    for (i, (k, v)) in params.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        go_string(&mut out, k);
        out.push(':');
        go_string(&mut out, v);
    }
    out.push('}');
    out
}

/// Go's `encoding/json` `appendString` with HTML escaping on.
fn go_string(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' | '>' | '&' | '\u{0}'..='\u{1f}' => {
                let b = c as u8;
                out.push_str("\\u00");
                out.push(HEX[usize::from(b >> 4)] as char);
                out.push(HEX[usize::from(b & 0xf)] as char);
            }
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            _ => out.push(c),
        }
    }
    out.push('"');
}

/// What a successful create returned (protocol 4.2), from a plugin or from
/// the built-in `mkdir`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Created {
    /// `path`: recorded as given. Nomad checks nothing about it; see
    /// [`path_warnings`].
    pub path: String,
    /// `bytes`: an int64 literal, 0 when absent or `null`.
    pub bytes: i64,
    /// The keys the answer had when none of them was `path` (what the
    /// plugin wrote instead: `volume_path`, say); None when it had one.
    /// (Boxed, one word: a restore holds one `Created` a volume, 100,000
    /// of them.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub without_path: Option<Box<AnswerKeys>>,
}

/// The keys of a create's answer, in document order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AnswerKeys(pub Vec<String>);

/// How many of an answer's keys a message names.
const KEYS_NAMED: usize = 6;

/// Why a create's path is empty when its answer had no `path` at all:
/// "no `path` in create's answer; it had `volume_path`, `bytes`".
pub fn no_path(created: &Created) -> Option<String> {
    let keys = &created.without_path.as_ref()?.0;
    Some(if keys.is_empty() {
        "no `path` in create's answer; it had no key at all".to_string()
    } else {
        let mut named: Vec<String> = keys
            .iter()
            .take(KEYS_NAMED)
            .map(|k| format!("`{k}`"))
            .collect();
        if keys.len() > KEYS_NAMED {
            named.push(format!("and {} more", keys.len() - KEYS_NAMED));
        }
        format!("no `path` in create's answer; it had {}", named.join(", "))
    })
}

/// Judges a `create` call and reads `{"path": string, "bytes": int64}`.
///
/// As Nomad (Go's `encoding/json`): keys match case-insensitively, unknown
/// keys (including `error`) are ignored on exit 0, `bytes` must be an integer
/// literal (`5.0`, `"5"`, `1e3` are bad output), an absent or `null` member
/// leaves its default (`""`, 0). Empty stdout on exit 0 is bad output, as in
/// Nomad. A non-zero exit, death by signal or timeout is a failure whose
/// message carries the plugin's `{"error": ...}` when it printed one.
pub fn parse_create(
    dialect: Dialect,
    inv: &Invocation,
    out: &Outcome,
) -> Result<Created, PluginFailure> {
    judge(inv, out, Quote::Allowed)?;
    let resp = decode_stdout(inv, out, Quote::Allowed, |b| responses::create(b, dialect))?;
    let path = resp.path;
    // Go accepts both, but no file has such a path: Nomad would record a
    // volume it can never mount, and delete could never pass a NUL on in
    // DHV_CREATED_PATH (an environment value cannot hold one).
    if path.contains('\0') {
        return Err(PluginFailure::BadOutput(
            "the returned path contains a NUL byte (\\u0000): Nomad would accept it and record \
             a path no file can have; plugctl refuses it"
                .into(),
        ));
    }
    if path.contains(char::REPLACEMENT_CHARACTER) && std::str::from_utf8(&out.stdout).is_err() {
        return Err(PluginFailure::BadOutput(
            "the returned path is not valid UTF-8: Nomad would accept it with each bad byte \
             replaced by U+FFFD, and record a path that is not the one created; plugctl \
             refuses it"
                .into(),
        ));
    }
    // Keys are matched as Go matches them: `"Path"` is the path.
    let without_path = json::parse_object(&out.stdout)
        .ok()
        .filter(|o| !o.has_key_folded("path"))
        .map(|o| {
            Box::new(AnswerKeys(
                o.keys_unknown_to(&[])
                    .into_iter()
                    .map(str::to_string)
                    .collect(),
            ))
        });
    Ok(Created {
        path,
        bytes: resp.bytes,
        without_path,
    })
}

/// Judges a `delete` call. Stdout is ignored on success (as Nomad does), so
/// a plugin that prints nothing, or anything, and exits 0 has deleted.
pub fn parse_delete(inv: &Invocation, out: &Outcome) -> Result<(), PluginFailure> {
    judge(inv, out, Quote::Allowed)
}

/// What is odd about a created volume's path, one sentence each; empty when
/// nothing is. Nomad accepts any path; plugctl records it and warns when it
/// is empty, relative, the volumes directory itself, or not inside
/// `volumes_dir`. The check is lexical (`.` and `..` are resolved, symlinks
/// are not followed), so it never touches the filesystem.
pub fn path_warnings(created: &Created, volumes_dir: &Path) -> Vec<String> {
    match no_path(created) {
        Some(why) if created.path.is_empty() => vec![why],
        _ => path_warnings_of(&created.path, volumes_dir),
    }
}

/// [`path_warnings`] of a recorded path.
pub fn path_warnings_of(created_path: &str, volumes_dir: &Path) -> Vec<String> {
    // The common case, answered without building paths: both already
    // lexically clean, the path one level or more inside the directory.
    if let Some(dir) = volumes_dir.to_str()
        && is_clean(created_path)
        && is_clean(dir)
        && created_path.len() > dir.len() + 1
        && created_path.starts_with(dir)
        && (dir == "/" || created_path.as_bytes()[dir.len()] == b'/')
    {
        return Vec::new();
    }
    let path = Path::new(created_path);
    if created_path.is_empty() {
        return vec!["the plugin returned an empty path".into()];
    }
    if !path.is_absolute() {
        return vec![format!(
            "the plugin returned a relative path {}; Nomad would mount it relative to \
             its own working directory",
            crate::escape::quote_os(created_path)
        )];
    }
    let (p, dir) = (lexical(path), lexical(volumes_dir));
    if p == dir {
        return vec![format!(
            "the plugin returned the volumes directory {} itself as the volume's path",
            volumes_dir.display()
        )];
    }
    if !p.starts_with(&dir) {
        return vec![format!(
            "the path {} is outside the volumes directory {}",
            crate::escape::quote_os(created_path),
            volumes_dir.display()
        )];
    }
    Vec::new()
}

/// The longest path Linux takes (`PATH_MAX`, 4096 bytes with its NUL): a
/// created path past it could never be opened, mounted or passed back.
pub const PATH_MAX_LEN: usize = 4095;

/// Judges the path a create returned, when it arrives: it must be
/// absolute, no longer than [`PATH_MAX_LEN`], hold no `..`, lie strictly
/// inside `volumes_dir` as written, and resolve inside it too (each
/// symlink on the way followed by the trust gate's own walk, as far as the
/// path exists). Anything else is the plugin's failure: plugctl would
/// later hand the path to a delete, and walk it in an audit, as root.
/// Nomad records any path.
pub fn judge_created_path(path: &str, volumes_dir: &Path) -> Result<(), String> {
    let nomad = "Nomad would record it; plugctl records no volume outside its volumes directory";
    if path.is_empty() {
        return Err(format!("the returned path is empty ({nomad})"));
    }
    if path.len() > PATH_MAX_LEN {
        return Err(format!(
            "the returned path is {} bytes long, longer than any path Linux takes ({} bytes)",
            path.len(),
            PATH_MAX_LEN
        ));
    }
    let p = Path::new(path);
    if !p.is_absolute() {
        return Err(format!(
            "the returned path {} is relative, not absolute ({nomad})",
            crate::escape::quote(path)
        ));
    }
    if path.split('/').any(|c| c == "..") {
        return Err(format!(
            "the returned path {} holds '..' ({nomad})",
            crate::escape::quote(path)
        ));
    }
    if !p.starts_with(volumes_dir) || p == volumes_dir {
        return Err(format!(
            "the returned path {} is not inside the volumes directory {} ({nomad})",
            crate::escape::quote(path),
            volumes_dir.display()
        ));
    }
    resolves_inside(p, volumes_dir).map_err(|why| {
        format!(
            "the returned path {} {why} ({nomad})",
            crate::escape::quote(path)
        )
    })?;
    // Inside, and where it is written: volumes' paths are compared as
    // written (two volumes on one directory share their data), so a path
    // that reaches another directory through a link inside the volumes
    // directory would pass that comparison while it is the same directory.
    match where_it_leads(p, volumes_dir) {
        Ok(Some((dir, led))) => {
            let written = p.strip_prefix(volumes_dir).unwrap_or(p);
            let reached = led.strip_prefix(&dir).unwrap_or(&led);
            let n = reached.components().count();
            if written.components().take(n).ne(reached.components()) {
                return Err(format!(
                    "the returned path {} leads through a symbolic link to {}: a volume's \
                     path must name its own directory (Nomad would record it; plugctl \
                     compares volumes' paths as written)",
                    crate::escape::quote(path),
                    led.display()
                ));
            }
            Ok(())
        }
        Ok(None) => Ok(()),
        Err(why) => Err(format!(
            "the returned path {} {why} ({nomad})",
            crate::escape::quote(path)
        )),
    }
}

/// Whether a created path (judged inside `volumes_dir` already) lies in an
/// entry of the volumes directory named for another volume: one whose name
/// begins with a volume id (`<id>`, `<id>.ext4`, as Nomad's example
/// plugins lay a volume out) other than `id`, the volume's own. That entry
/// is the other volume's, maybe the Nomad agent's in the directory they
/// share, whether or not plugctl records it; recorded as this volume, the
/// next delete would hand it to the plugin to remove. Why not, when it is.
pub fn judge_own_entry(path: &str, volumes_dir: &Path, id: &str) -> Result<(), String> {
    let Some(entry) = Path::new(path)
        .strip_prefix(volumes_dir)
        .ok()
        .and_then(|rest| rest.components().next())
    else {
        return Ok(());
    };
    let entry = entry.as_os_str().to_string_lossy();
    match entry.get(..36).filter(|named| is_volume_id(named)) {
        Some(named) if named != id => Err(format!(
            "the returned path {} lies in {}, an entry of the volumes directory named for \
             another volume's id ({named}: maybe the Nomad agent's, in the directory they \
             share); recorded as this volume, its delete would remove the other's data. A \
             volume's entry is named after its own id (DHV_VOLUME_ID)",
            crate::escape::quote(path),
            crate::escape::quote(&entry)
        )),
        _ => Ok(()),
    }
}

/// Whether a recorded `path` may be handed to a plugin (a delete gets it
/// as `DHV_CREATED_PATH` and removes, unmounts or lists what it names, as
/// root): it still leads strictly inside `volumes_dir` ([`judge_recorded_path`])
/// and no one but root (or whom `policy` trusts as root) can change where
/// it leads. Each directory between the volumes directory and the path's
/// own entry is reached without a symlink and must be one `policy` trusts
/// that nobody else may write, sticky or not. A workload owns what is
/// *in* its volume, and a plugin may lay a volume out as
/// `<id>/data` with `<id>` given to the workload: the workload then swaps
/// `data` for a symlink to any directory of the node, and a check of where
/// the path leads, however late, is a step behind a swap made between it
/// and the plugin's own use. With every directory above the entry root's,
/// the entry stays where the check found it.
pub fn judge_handed_path(
    path: &str,
    volumes_dir: &Path,
    policy: crate::trust::Policy,
) -> Result<(), String> {
    use crate::trust::CheckedDir;
    judge_recorded_path(path, volumes_dir)?;
    let below = match Path::new(path).strip_prefix(volumes_dir) {
        Ok(below) => below,
        // Spelled another way (a volumes directory named through a link):
        // where it leads was judged; the parts are judged as written.
        Err(_) => return Ok(()),
    };
    let Some(parents) = below.parent() else {
        return Ok(());
    };
    let mut dir = match CheckedDir::open(policy, volumes_dir) {
        Ok(d) => d,
        Err(r) if r.is_not_found() => return Ok(()),
        Err(r) => return Err(format!("its volumes directory cannot be used: {r}")),
    };
    for part in parents.components() {
        dir = match dir.subdir(part.as_os_str()) {
            Ok(d) => d,
            // Nothing there: nothing for anyone to swap below it.
            Err(r) if r.is_not_found() => return Ok(()),
            Err(r) => {
                return Err(format!(
                    "its path {} runs through {}: {r}; a plugin would get a path whose \
                     directory another user can change, so plugctl will not hand it to one",
                    crate::escape::quote(path),
                    crate::escape::quote_os(dir.join(part.as_os_str()))
                ));
            }
        };
        let mode = dir.meta().mode & 0o7777;
        if mode & 0o022 != 0 && policy.enforces() {
            return Err(format!(
                "its path {} runs through the directory {}, which {} may write (mode \
                 {mode:04o}): whoever writes there can swap what the path names for a \
                 symbolic link to any directory of the node before a plugin uses it as root, \
                 so plugctl will not hand it to one (fix: chmod go-w {})",
                crate::escape::quote(path),
                crate::escape::quote_os(dir.path()),
                crate::trust::who_writes(mode),
                crate::provenance::shell_path(dir.path())
            ));
        }
    }
    Ok(())
}

/// Whether a recorded path may be walked under `volumes_dir`: absolute,
/// without `..`, and leading strictly inside the directory however either
/// is spelled (a volumes directory named through a symlink is the same
/// directory). Where it leads below the directory when it may (to walk it
/// from there), why not when it may not.
pub fn judge_recorded_path(path: &str, volumes_dir: &Path) -> Result<PathBuf, String> {
    let p = Path::new(path);
    if !p.is_absolute() || path.split('/').any(|c| c == "..") {
        return Err(format!(
            "its path {path} is not inside the volumes directory {}",
            volumes_dir.display()
        ));
    }
    resolves_inside(p, volumes_dir).map_err(|why| format!("its path {path} {why}"))
}

/// Whether `path` (absolute, without `..`) leads strictly inside
/// `volumes_dir`: where each of its parts that exists leads, symlinks
/// followed, the owner and mode of what it passes not judged (only where
/// it leads). Where it leads, below the directory; why not, when it does
/// not.
pub fn resolves_inside(path: &Path, volumes_dir: &Path) -> Result<PathBuf, String> {
    let written_inside = path.starts_with(volumes_dir) && path != volumes_dir;
    let outside = |led: &Path| {
        if written_inside {
            format!(
                "leads through a symbolic link to {}, outside the volumes directory {}",
                led.display(),
                volumes_dir.display()
            )
        } else {
            format!(
                "is not inside the volumes directory {}",
                volumes_dir.display()
            )
        }
    };
    let Some((dir, led)) = where_it_leads(path, volumes_dir)? else {
        // Nothing below the volumes directory exists: a path inside it as
        // written leads nowhere else, and any other is outside.
        return match path.strip_prefix(volumes_dir) {
            Ok(below) if written_inside => Ok(below.to_path_buf()),
            _ => Err(outside(path)),
        };
    };
    match led.strip_prefix(&dir) {
        Ok(below) if led != dir => Ok(below.to_path_buf()),
        _ => Err(outside(&led)),
    }
}

/// Where `volumes_dir` and `path` lead, symlinks followed by the trust
/// gate's walk (owners and modes not judged): `path` whole, or its first
/// part that is missing. None when the volumes directory does not exist.
fn where_it_leads(
    path: &Path,
    volumes_dir: &Path,
) -> Result<Option<(std::path::PathBuf, std::path::PathBuf)>, String> {
    use crate::trust::{CheckedDir, Policy, Refusal, dir::resolve_file};
    let policy = Policy::insecure();
    let dir = match CheckedDir::open(policy, volumes_dir) {
        Ok(d) => d.path().to_path_buf(),
        Err(r) if r.is_not_found() => return Ok(None),
        Err(r) => return Err(format!("cannot be resolved: {r}")),
    };
    let led = match CheckedDir::open(policy, path) {
        Ok(d) => d.path().to_path_buf(),
        Err(Refusal::NotFound(at)) => at,
        Err(Refusal::Kind { .. }) => match resolve_file(policy, path) {
            Ok((d, name, _)) => d.path().join(name),
            Err(Refusal::NotFound(at)) => at,
            Err(r) => return Err(format!("cannot be resolved: {r}")),
        },
        Err(r) => return Err(format!("cannot be resolved: {r}")),
    };
    Ok(Some((dir, led)))
}

/// [`path_warnings`], plus a warning for a negative `bytes` (which Go's
/// int64 accepts and no volume can have).
pub fn warnings(created: &Created, volumes_dir: &Path) -> Vec<String> {
    let mut w = path_warnings(created, volumes_dir);
    w.extend(negative_bytes(created.bytes));
    w
}

/// [`warnings`] of a recorded path and size.
pub fn warnings_of(created_path: &str, bytes: i64, volumes_dir: &Path) -> Vec<String> {
    let mut w = path_warnings_of(created_path, volumes_dir);
    w.extend(negative_bytes(bytes));
    w
}

fn negative_bytes(bytes: i64) -> Option<String> {
    (bytes < 0).then(|| format!("the plugin returned a negative size ({bytes} bytes)"))
}

/// An absolute path with no `.`, `..` or empty component (nor a trailing
/// `/`, but for `/` itself): what [`lexical`] would leave as it is.
fn is_clean(p: &str) -> bool {
    p.starts_with('/')
        && (p == "/"
            || (!p.ends_with('/')
                && p[1..]
                    .split('/')
                    .all(|c| !c.is_empty() && c != "." && c != "..")))
}

/// `path` with `.` dropped and `..` applied, without looking at the disk.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// Expected values are what Go 1.22+ `json.Marshal(map[string]string{...})` prints.
    #[test]
    fn parameters_encode_as_go_does() {
        let table: &[(&[(&str, &str)], &str)] = &[
            (&[], "null"),
            (&[("a", "1")], r#"{"a":"1"}"#),
            (&[("b", "2"), ("a", "1")], r#"{"a":"1","b":"2"}"#),
            // byte order, not case-insensitive: uppercase sorts first
            (
                &[("b", ""), ("B", ""), ("_", "")],
                r#"{"B":"","_":"","b":""}"#,
            ),
            (&[("", "empty key")], r#"{"":"empty key"}"#),
            (
                &[("html", "<a href=\"x\">&amp;</a>")],
                r#"{"html":"\u003ca href=\"x\"\u003e\u0026amp;\u003c/a\u003e"}"#,
            ),
            (&[("k<&>", "v")], r#"{"k\u003c\u0026\u003e":"v"}"#),
            (&[("bs", "a\\b")], r#"{"bs":"a\\b"}"#),
            (&[("ws", "\n\r\t")], r#"{"ws":"\n\r\t"}"#),
            (&[("short", "\u{8}\u{c}")], r#"{"short":"\b\f"}"#),
            (
                &[("ctl", "\u{0}\u{1}\u{1f}\u{b}")],
                r#"{"ctl":"\u0000\u0001\u001f\u000b"}"#,
            ),
            (&[("del", "\u{7f}")], "{\"del\":\"\u{7f}\"}"),
            (&[("ls", "\u{2028}\u{2029}")], r#"{"ls":"\u2028\u2029"}"#),
            (&[("utf8", "été ☃ 😀")], r#"{"utf8":"été ☃ 😀"}"#),
            (&[("sp ace", "= x =")], r#"{"sp ace":"= x ="}"#),
            (&[("q", "'\"")], r#"{"q":"'\""}"#),
            (&[("slash", "/a/../b")], r#"{"slash":"/a/../b"}"#),
        ];
        for (pairs, want) in table {
            assert_eq!(encode_parameters(&params(pairs)), *want, "{pairs:?}");
        }
    }

    fn request() -> Request {
        Request {
            volumes_dir: "/vols".into(),
            plugin_dir: "/plugins".into(),
            node_pool: "default".into(),
            namespace: "default".into(),
            name: "data".into(),
            id: "0c4a7e6e-1c7e-4f0b-9d8e-5a1b2c3d4e5f".into(),
            capacity_min: 0,
            capacity_max: 0,
            node_id: "node-1".into(),
            parameters: BTreeMap::new(),
        }
    }

    fn env(inv: &Invocation) -> Vec<(String, String)> {
        inv.env
            .iter()
            .map(|(k, v)| {
                (
                    k.to_string_lossy().into_owned(),
                    v.to_string_lossy().into_owned(),
                )
            })
            .collect()
    }

    #[test]
    fn create_has_exactly_eleven_variables() {
        let mut r = request();
        r.capacity_min = 50_000_000;
        r.capacity_max = 52_428_800;
        r.parameters = params(&[("mode", "0755")]);
        let inv = create_invocation(
            Path::new("/plugins/p"),
            &r,
            Duration::from_secs(60),
            Duration::from_secs(2),
        );
        assert_eq!(inv.args, vec![OsString::from("create")]);
        let want: Vec<(String, String)> = [
            ("DHV_OPERATION", "create"),
            ("DHV_VOLUMES_DIR", "/vols"),
            ("DHV_PLUGIN_DIR", "/plugins"),
            ("DHV_NODE_POOL", "default"),
            ("DHV_NAMESPACE", "default"),
            ("DHV_VOLUME_NAME", "data"),
            ("DHV_VOLUME_ID", "0c4a7e6e-1c7e-4f0b-9d8e-5a1b2c3d4e5f"),
            ("DHV_CAPACITY_MIN_BYTES", "50000000"),
            ("DHV_CAPACITY_MAX_BYTES", "52428800"),
            ("DHV_NODE_ID", "node-1"),
            ("DHV_PARAMETERS", r#"{"mode":"0755"}"#),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(env(&inv), want);
    }

    #[test]
    fn delete_has_exactly_ten_variables() {
        let inv = delete_invocation(
            Path::new("/plugins/p"),
            &request(),
            "/vols/x",
            Duration::from_secs(60),
            Duration::from_secs(2),
        );
        assert_eq!(inv.args, vec![OsString::from("delete")]);
        let keys: Vec<String> = env(&inv).into_iter().map(|(k, _)| k).collect();
        assert_eq!(
            keys,
            [
                "DHV_OPERATION",
                "DHV_VOLUMES_DIR",
                "DHV_PLUGIN_DIR",
                "DHV_NODE_POOL",
                "DHV_CREATED_PATH",
                "DHV_NAMESPACE",
                "DHV_VOLUME_NAME",
                "DHV_VOLUME_ID",
                "DHV_NODE_ID",
                "DHV_PARAMETERS",
            ]
        );
        assert!(env(&inv).contains(&("DHV_CREATED_PATH".into(), "/vols/x".into())));
        assert!(env(&inv).contains(&("DHV_PARAMETERS".into(), "null".into())));
    }

    #[test]
    fn validation() {
        assert_eq!(request().validate(), Ok(()));
        let bad = |f: &dyn Fn(&mut Request), field: &str| {
            let mut r = request();
            f(&mut r);
            let e = r.validate().unwrap_err();
            assert_eq!(e.field, field, "{e}");
        };
        bad(&|r| r.namespace = String::new(), "namespace");
        bad(&|r| r.namespace = "a_b".into(), "namespace");
        bad(&|r| r.namespace = "x".repeat(129), "namespace");
        bad(&|r| r.name = String::new(), "name");
        bad(&|r| r.name = "a\0b".into(), "name");
        bad(
            &|r| r.id = "0C4A7E6E-1C7E-4F0B-9D8E-5A1B2C3D4E5F".into(),
            "id",
        );
        bad(&|r| r.id = "0c4a7e6e1c7e4f0b9d8e5a1b2c3d4e5f".into(), "id");
        bad(&|r| r.id = "../../etc".into(), "id");
        bad(&|r| r.volumes_dir = "vols".into(), "volumes_dir");
        bad(&|r| r.volumes_dir = "/srv/x/../vols".into(), "volumes_dir");
        bad(&|r| r.plugin_dir = "".into(), "plugin_dir");
        bad(&|r| r.node_id = String::new(), "node_id");
        bad(
            &|r| {
                r.capacity_min = 10;
                r.capacity_max = 5;
            },
            "capacity_max",
        );
        bad(&|r| r.capacity_max = u64::MAX, "capacity_max");
        bad(&|r| r.parameters = params(&[("", "x")]), "parameters");
        bad(&|r| r.parameters = params(&[("k", "a\0")]), "parameters");

        let ok = |f: &dyn Fn(&mut Request)| {
            let mut r = request();
            f(&mut r);
            assert_eq!(r.validate(), Ok(()));
        };
        ok(&|r| r.namespace = "x".repeat(128));
        ok(&|r| r.namespace = "Prod-2".into());
        ok(&|r| r.name = "../a b/\n..".into());
        // Nomad's server refuses a minimum without a maximum (max 0).
        bad(&|r| r.capacity_min = 10, "capacity_max");
        ok(&|r| {
            r.capacity_min = 10;
            r.capacity_max = 10;
        });
        assert!(is_volume_id(&new_volume_id()));
    }

    #[test]
    fn create_responses() {
        let inv = create_invocation(
            Path::new("/p"),
            &request(),
            Duration::from_secs(1),
            Duration::from_secs(1),
        );
        let ok = |stdout: &str| {
            parse_create(Dialect::NEWEST, &inv, &Outcome::exited(0, stdout)).unwrap()
        };
        let created = |path: &str, bytes| Created {
            path: path.into(),
            bytes,
            without_path: None,
        };
        assert_eq!(ok(r#"{"path": "/v/x", "bytes": 5}"#), created("/v/x", 5));
        // No `path` at all: the keys it had instead, said by no_path.
        let odd = ok(r#"{"volume_path": "/v/x", "bytes": 5}"#);
        assert_eq!(odd.path, "");
        assert_eq!(
            no_path(&odd).as_deref(),
            Some("no `path` in create's answer; it had `volume_path`, `bytes`")
        );
        assert_eq!(
            path_warnings(&odd, Path::new("/v")),
            ["no `path` in create's answer; it had `volume_path`, `bytes`"]
        );
        // A `path` in any case is one (Go's matching), null or empty too.
        for doc in [
            r#"{"PATH": "/v/x"}"#,
            r#"{"path": null}"#,
            r#"{"path": ""}"#,
        ] {
            assert_eq!(ok(doc).without_path, None, "{doc}");
        }
        assert_eq!(
            no_path(&ok("{}")).as_deref(),
            Some("no `path` in create's answer; it had no key at all")
        );
        assert_eq!(ok(r#"{"path": "/v/x"}"#), created("/v/x", 0));
        assert_eq!(ok(r#"{"path": "/v/x", "bytes": null}"#), created("/v/x", 0));
        assert_eq!(
            ok(r#" {"PATH": "/v/y", "Bytes": -1} "#),
            created("/v/y", -1)
        );
        assert_eq!(
            ok(r#"{"path": "/v/x", "bytes": 9223372036854775807, "error": "ignored"}"#),
            created("/v/x", i64::MAX)
        );
        assert_eq!(
            ok("{}"),
            Created {
                without_path: Some(Box::default()),
                ..created("", 0)
            }
        );
        for bad in [
            r#"{"path": "/v/x", "bytes": 5.0}"#,
            r#"{"path": "/v/x", "bytes": "5"}"#,
            r#"{"path": "/v/x", "bytes": 1e3}"#,
            r#"{"path": "/v/x", "bytes": 9223372036854775808}"#,
            r#"{"path": 5}"#,
            "",
            "not json",
            r#"{"path": "/v/x"} {}"#,
        ] {
            let e = parse_create(Dialect::NEWEST, &inv, &Outcome::exited(0, bad)).unwrap_err();
            assert!(matches!(e, PluginFailure::BadOutput(_)), "{bad}: {e}");
        }
        let e = parse_create(
            Dialect::NEWEST,
            &inv,
            &Outcome::exited(0, r#"{"bytes": "5"}"#),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad output: json: cannot unmarshal string into Go struct field \
             HostVolumePluginCreateResponse.bytes of type int64"
        );
        // Nomad's struct has an `error` string: on exit 0 a string there is
        // ignored, anything else is a type error.
        let e = parse_create(
            Dialect::NEWEST,
            &inv,
            &Outcome::exited(0, r#"{"path": "/v/x", "error": 5}"#),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad output: json: cannot unmarshal number into Go struct field \
             HostVolumePluginCreateResponse.error of type string"
        );
        // What Go accepts but no file can be: refused, saying Nomad would not.
        for bad in [
            &b"{\"path\": \"/v/a\\u0000b\"}"[..],
            b"{\"path\": \"/v/\xff\"}",
        ] {
            let mut out = Outcome::exited(0, "");
            out.stdout = bad.to_vec();
            let e = parse_create(Dialect::NEWEST, &inv, &out)
                .unwrap_err()
                .to_string();
            assert!(e.contains("Nomad would accept it"), "{e}");
        }
        let e = parse_create(
            Dialect::NEWEST,
            &inv,
            &Outcome::exited(1, r#"{"error": "disk full"}"#),
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "exited with status 1: disk full");
        assert_eq!(
            parse_delete(&inv, &Outcome::exited(0, "anything at all")),
            Ok(())
        );
        let e = parse_delete(&inv, &Outcome::exited(3, r#"{"error": "busy"}"#)).unwrap_err();
        assert_eq!(e.to_string(), "exited with status 3: busy");
    }

    #[test]
    fn an_entry_named_for_another_volume_is_not_this_ones() {
        let vols = Path::new("/v");
        let own = "0d6f1a7e-3c2b-4d5e-8f90-a1b2c3d4e5f6";
        let other = "abcdef01-2222-4333-8444-555555555555";
        let judge = |p: &str| judge_own_entry(p, vols, own);
        for p in [
            format!("/v/{own}"),
            format!("/v/{own}.ext4"),
            format!("/v/{own}/data"),
            "/v/pool/x".into(),
            // No volume has an uppercase id.
            format!("/v/{}", other.to_uppercase()),
            format!("/v/pool/{other}"),
        ] {
            judge(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
        }
        for p in [
            format!("/v/{other}"),
            format!("/v/{other}.ext4"),
            format!("/v/{other}/sub"),
            format!("/v/{other}{own}"),
        ] {
            let why = judge(&p).unwrap_err();
            assert!(
                why.contains(&format!("another volume's id ({other}")),
                "{p}: {why}"
            );
        }
    }

    #[test]
    fn a_created_path_is_judged_when_it_arrives() {
        let d = tempfile::tempdir().unwrap();
        let vols = d.path().join("vols");
        let v = vols.display().to_string();
        let judge = |p: &str| judge_created_path(p, &vols);
        // Inside, as written and as it leads, made or not yet.
        judge(&format!("{v}/a")).unwrap();
        std::fs::create_dir_all(vols.join("real/x")).unwrap();
        judge(&format!("{v}/real/x")).unwrap();
        judge(&format!("{v}/real/x/not-yet/deeper")).unwrap();
        let why = |p: &str| judge(p).unwrap_err();
        assert!(why("").contains("empty"));
        assert!(why("rel/a").contains("relative"));
        assert!(why(&format!("{v}/../x")).contains("'..'"));
        assert!(why(&format!("{v}/a/../b")).contains("'..'"));
        assert!(why(&v).contains("not inside"));
        assert!(why(&format!("{v}/")).contains("not inside"));
        assert!(why(&format!("{v}x/a")).contains("not inside"));
        assert!(why("/etc").contains("not inside"));
        let long = format!("{v}/{}", "a/".repeat(PATH_MAX_LEN));
        assert!(why(&long).contains("longer than any path Linux takes"));
        // Through links, on the way or last: out is refused, and so is in
        // (a second spelling of a directory, maybe another volume's).
        std::os::unix::fs::symlink(d.path(), vols.join("up")).unwrap();
        std::os::unix::fs::symlink("real", vols.join("alias")).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", vols.join("file")).unwrap();
        for p in ["alias", "alias/x", "alias/missing"] {
            assert!(
                why(&format!("{v}/{p}")).contains("leads through a symbolic link to"),
                "{p}"
            );
        }
        assert!(why(&format!("{v}/up")).contains("symbolic link"));
        assert!(why(&format!("{v}/up/vols-not-here")).contains("symbolic link"));
        assert!(why(&format!("{v}/file")).contains("symbolic link"));
        // A link back into the directory itself is not a volume.
        std::os::unix::fs::symlink(".", vols.join("self")).unwrap();
        assert!(why(&format!("{v}/self")).contains("symbolic link"));
    }

    #[test]
    fn path_warnings_cover_the_odd_paths() {
        let dir = Path::new("/vols");
        let w = |p: &str| {
            path_warnings(
                &Created {
                    path: p.into(),
                    bytes: 0,
                    without_path: None,
                },
                dir,
            )
        };
        assert!(w("/vols/abc").is_empty());
        assert!(w("/vols/a/b/../c").is_empty());
        assert!(w("/vols/./x").is_empty());
        assert!(w("")[0].contains("empty"));
        assert!(w("vols/abc")[0].contains("relative"));
        assert!(w("/vols")[0].contains("itself"));
        assert!(w("/vols/")[0].contains("itself"));
        assert!(w("/vols/x/..")[0].contains("itself"));
        assert!(w("/volsx/a")[0].contains("outside"));
        assert!(w("/vols/../etc")[0].contains("outside"));
        assert!(w("/tmp/x")[0].contains("outside"));
        // The fast path (clean strings) agrees with the lexical one, for
        // clean and unclean directories and paths alike.
        for d in ["/vols", "/vols/", "/", "/a/../vols", "/vols/."] {
            for p in [
                "/vols/a",
                "/vols",
                "/vols/",
                "/volsx/a",
                "/vols//a",
                "/vols/a/",
                "/a",
                "/",
                "/vols/a/../../b",
                "/vols/.x",
                "/vols/..x",
            ] {
                let fast = path_warnings_of(p, Path::new(d));
                let slow = {
                    let (pp, dd) = (lexical(Path::new(p)), lexical(Path::new(d)));
                    if pp == dd {
                        "itself"
                    } else if pp.starts_with(&dd) {
                        ""
                    } else {
                        "outside"
                    }
                };
                match slow {
                    "" => assert!(fast.is_empty(), "{p} in {d}: {fast:?}"),
                    what => assert!(fast[0].contains(what), "{p} in {d}: {fast:?}"),
                }
            }
        }
        let neg = warnings(
            &Created {
                path: "/vols/a".into(),
                bytes: -5,
                without_path: None,
            },
            dir,
        );
        assert_eq!(neg.len(), 1);
        assert!(neg[0].contains("negative"));
    }
}

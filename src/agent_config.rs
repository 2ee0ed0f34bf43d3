//! The Nomad agent's own configuration, read as `nomad agent -config PATH`
//! reads it, for the four settings that say where a node keeps its plugins
//! and volumes: `data_dir`, `client.common_plugin_dir`,
//! `client.host_volume_plugin_dir` and `client.host_volumes_dir`.
//!
//! How Nomad reads it (hashicorp/nomad `command/agent/config.go`,
//! `LoadConfig` and `LoadConfigDir`, at aa026cc99cfb): each `-config` path
//! is a file or a directory; a directory contributes its `*.hcl` and
//! `*.json` files (not subdirectories, not editor temporaries: `name~`,
//! `.#name`, `#name#`) in byte order; every file is merged over the ones
//! before it, a value that is set (not empty) winning. The parser (HCL 1)
//! takes a file whose first non-blank character is `{` as JSON, whatever
//! its name. `command/agent/command.go` then refuses a relative
//! `data_dir`, `host_volume_plugin_dir` or `host_volumes_dir`; plugctl
//! refuses a relative `common_plugin_dir` too, as it cannot know the
//! agent's working directory. `command/agent/agent.go`
//! (`convertClientConfig`) derives the directories a file leaves unset
//! from `data_dir` ([`derived`]).
//!
//! Everything else in the files is ignored, unread: plugctl is not the
//! agent's validator. What it does read must be right, and a value that is
//! not is an error naming the file and line (exit 2).

use std::ffi::OsStr;
use std::fmt;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use hcl::edit::Span as _;
use hcl::edit::expr::{Expression, ObjectKey};
use hcl::edit::structure::{Body, Structure};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

use plugctl_core::trust::{CheckedDir, Policy, Refusal};

use crate::{Error, Result};

/// The packaged agent's configuration directory: read by default as root
/// when it exists.
pub const DEFAULT_DIR: &str = "/etc/nomad.d";

/// The `--nomad-config` value that reads no agent configuration at all
/// (as `ssh -F none`): a file of that name is `./none`.
pub const NONE: &str = "none";

/// One of the four settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    DataDir,
    CommonPluginDir,
    HostVolumePluginDir,
    HostVolumesDir,
}

impl Key {
    pub const ALL: [Key; 4] = [
        Key::DataDir,
        Key::CommonPluginDir,
        Key::HostVolumePluginDir,
        Key::HostVolumesDir,
    ];

    /// The name as written in the agent config (inside `client` for all
    /// but `data_dir`).
    pub fn name(self) -> &'static str {
        match self {
            Key::DataDir => "data_dir",
            Key::CommonPluginDir => "common_plugin_dir",
            Key::HostVolumePluginDir => "host_volume_plugin_dir",
            Key::HostVolumesDir => "host_volumes_dir",
        }
    }

    /// The name with its block, as people look for it: `client.host_volumes_dir`.
    pub fn path(self) -> &'static str {
        match self {
            Key::DataDir => "data_dir",
            Key::CommonPluginDir => "client.common_plugin_dir",
            Key::HostVolumePluginDir => "client.host_volume_plugin_dir",
            Key::HostVolumesDir => "client.host_volumes_dir",
        }
    }

    /// A key of the `client` block, its case folded as HCL 1 folds it.
    fn in_client(name: &str) -> Option<Key> {
        [
            Key::CommonPluginDir,
            Key::HostVolumePluginDir,
            Key::HostVolumesDir,
        ]
        .into_iter()
        .find(|k| k.name().eq_ignore_ascii_case(name))
    }
}

/// Where a value was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub file: PathBuf,
    /// The line, when the format tells it (HCL always; JSON does not keep
    /// positions of values that parse).
    pub line: Option<usize>,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}", self.file.display()),
            None => write!(f, "{}", self.file.display()),
        }
    }
}

/// A value read, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    pub value: PathBuf,
    pub place: Place,
}

/// What the agent configuration says, merged.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgentConfig {
    /// Every file read, in the order merged.
    pub files: Vec<PathBuf>,
    pub data_dir: Option<Setting>,
    pub common_plugin_dir: Option<Setting>,
    pub host_volume_plugin_dir: Option<Setting>,
    pub host_volumes_dir: Option<Setting>,
    /// What a person should know (a directory with no config file in it,
    /// as Nomad warns too).
    pub warnings: Vec<String>,
}

impl AgentConfig {
    pub fn get(&self, key: Key) -> Option<&Setting> {
        match key {
            Key::DataDir => self.data_dir.as_ref(),
            Key::CommonPluginDir => self.common_plugin_dir.as_ref(),
            Key::HostVolumePluginDir => self.host_volume_plugin_dir.as_ref(),
            Key::HostVolumesDir => self.host_volumes_dir.as_ref(),
        }
    }

    fn slot(&mut self, key: Key) -> &mut Option<Setting> {
        match key {
            Key::DataDir => &mut self.data_dir,
            Key::CommonPluginDir => &mut self.common_plugin_dir,
            Key::HostVolumePluginDir => &mut self.host_volume_plugin_dir,
            Key::HostVolumesDir => &mut self.host_volumes_dir,
        }
    }

    /// Sets a value read later than what is there: a set value wins, an
    /// empty one changes nothing (Nomad's `Merge`).
    fn merge(&mut self, key: Key, setting: Setting) {
        if !setting.value.as_os_str().is_empty() {
            *self.slot(key) = Some(setting);
        }
    }
}

/// The sub-directory of `data_dir` Nomad puts each directory in when the
/// configuration does not name it (`convertClientConfig`).
pub fn derived(key: Key) -> Option<&'static str> {
    match key {
        Key::DataDir => None,
        Key::CommonPluginDir => Some("common_plugins"),
        Key::HostVolumePluginDir => Some("host_volume_plugins"),
        Key::HostVolumesDir => Some("host_volumes"),
    }
}

/// The largest configuration file plugctl reads.
pub const CONFIG_FILE_MAX: u64 = 16 << 20;

/// Reads the configuration at these paths (files or directories), in
/// order, as one agent with these `-config` flags would. Every file and
/// directory goes through the trust gate (`policy`): the configuration
/// decides where a root plugctl runs plugins and what its prune deletes,
/// so one another user owns or can write is refused, and a FIFO or a
/// device is never read.
pub fn load(paths: &[PathBuf], policy: Policy) -> Result<AgentConfig> {
    let mut config = AgentConfig::default();
    for path in paths {
        let dir = match CheckedDir::open(policy, path) {
            Ok(dir) => dir,
            // Not a directory: a file (its symlinks followed by the gate).
            Err(Refusal::Kind { .. }) => {
                read_file(path, policy, &mut config)?;
                continue;
            }
            Err(r) => return Err(refused(path, r)),
        };
        let files = config_files(&dir).map_err(|r| refused(path, r))?;
        if files.is_empty() {
            config.warnings.push(format!(
                "no Nomad agent configuration in {} (no *.hcl or *.json file): Nomad's \
                 defaults apply",
                path.display()
            ));
        }
        for file in files {
            read_file(&file, policy, &mut config)?;
        }
    }
    Ok(config)
}

fn refused(path: &Path, r: Refusal) -> Error {
    let what = format!(
        "cannot read the Nomad agent configuration {}",
        path.display()
    );
    match r {
        Refusal::NotFound(missing) => Error::usage(format!(
            "{what}: No such file or directory ({})",
            missing.display()
        )),
        Refusal::Io { path: at, source } if at == path => Error::usage(format!("{what}: {source}")),
        r => Error::refused(what, &r),
    }
}

/// The files of a configuration directory that Nomad reads, in its order.
fn config_files(dir: &CheckedDir) -> std::result::Result<Vec<PathBuf>, Refusal> {
    let mut files = Vec::new();
    for (name, kind) in dir.entries()? {
        // Nomad looks at the entry itself (no symlink followed) to skip
        // directories.
        let is_dir = match kind {
            rustix::fs::FileType::Unknown => dir.stat(&name)?.is_some_and(|m| m.is_dir()),
            k => k == rustix::fs::FileType::Directory,
        };
        if is_dir {
            continue;
        }
        if is_config_name(&name) {
            files.push(dir.join(&name));
        }
    }
    // Go's sort.Strings: byte order.
    files.sort_by(|a, b| a.as_os_str().as_bytes().cmp(b.as_os_str().as_bytes()));
    Ok(files)
}

/// `*.hcl` or `*.json`, and not an editor's temporary file.
fn is_config_name(name: &OsStr) -> bool {
    let b = name.as_bytes();
    let wanted = b.ends_with(b".hcl") || b.ends_with(b".json");
    let temporary =
        b.ends_with(b"~") || b.starts_with(b".#") || (b.starts_with(b"#") && b.ends_with(b"#"));
    wanted && !temporary
}

fn read_file(path: &Path, policy: Policy, config: &mut AgentConfig) -> Result<()> {
    let bytes = plugctl_core::trust::dir::resolve_file(policy, path)
        .and_then(|(dir, name, _)| dir.read(&name, CONFIG_FILE_MAX))
        .map_err(|r| refused(path, r))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = line_at(&e.into_bytes(), at);
        Error::usage(format!(
            "Nomad agent configuration {}:{line}: not valid UTF-8 text",
            path.display()
        ))
    })?;
    // HCL 1, which Nomad parses with, takes a document that opens with `{`
    // as JSON.
    let settings = if text.trim_start().starts_with('{') {
        parse_json(path, &text)?
    } else {
        parse_hcl(path, &text)?
    };
    for (key, setting) in settings {
        config.merge(key, setting);
    }
    config.files.push(path.to_path_buf());
    Ok(())
}

/// The 1-based line of a byte offset.
fn line_at(text: &[u8], offset: usize) -> usize {
    text[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The byte offset of a 1-based line and column (serde_json's), at most
/// the text's end.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let mut at = (start + column).min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A value as written, or why it cannot be used (no place: the caller
/// knows it).
fn check_dir(key: Key, value: &str) -> std::result::Result<PathBuf, String> {
    if value.is_empty() {
        return Ok(PathBuf::new());
    }
    if value.contains('\0') {
        return Err(format!("{} contains a NUL byte", key.path()));
    }
    let path = PathBuf::from(value);
    if !path.is_absolute() {
        return Err(format!(
            "{} must be an absolute path, as Nomad requires: got {value:?}",
            key.path()
        ));
    }
    Ok(path)
}

fn parse_hcl(path: &Path, text: &str) -> Result<Vec<(Key, Setting)>> {
    let body = hcl::edit::parser::parse_body(text).map_err(|e| {
        let loc = e.location();
        Error::usage(format!(
            "Nomad agent configuration {}:{}:{}: the HCL does not parse: {} (in the line {:?})",
            path.display(),
            loc.line(),
            loc.column(),
            e.message(),
            e.line()
        ))
    })?;
    let mut out = Vec::new();
    let at = |span: Option<std::ops::Range<usize>>| Place {
        file: path.to_path_buf(),
        line: Some(line_at(text.as_bytes(), span.map_or(0, |s| s.start))),
    };
    for structure in body.iter() {
        match structure {
            // HCL 1 matches keys whatever their case (`Filter` folds).
            Structure::Attribute(attr)
                if attr.key.as_str().eq_ignore_ascii_case(Key::DataDir.name()) =>
            {
                let place = at(attr.span());
                out.push((
                    Key::DataDir,
                    hcl_setting(Key::DataDir, &attr.value, place, text)?,
                ));
            }
            Structure::Block(block) if block.ident.as_str().eq_ignore_ascii_case("client") => {
                client_body(&block.body, &at, text, &mut out)?;
            }
            // `client = { ... }`, which HCL 1 reads as the block.
            Structure::Attribute(attr) if attr.key.as_str().eq_ignore_ascii_case("client") => {
                if let Expression::Object(object) = &attr.value {
                    for (k, v) in object.iter() {
                        let name = match k {
                            ObjectKey::Ident(ident) => ident.as_str().to_string(),
                            ObjectKey::Expression(Expression::String(s)) => s.value().clone(),
                            ObjectKey::Expression(_) => continue,
                        };
                        if let Some(key) = Key::in_client(&name) {
                            let place = at(v.expr().span());
                            out.push((key, hcl_setting(key, v.expr(), place, text)?));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

fn client_body(
    body: &Body,
    at: &dyn Fn(Option<std::ops::Range<usize>>) -> Place,
    text: &str,
    out: &mut Vec<(Key, Setting)>,
) -> Result<()> {
    for structure in body.iter() {
        if let Structure::Attribute(attr) = structure
            && let Some(key) = Key::in_client(attr.key.as_str())
        {
            let place = at(attr.span());
            out.push((key, hcl_setting(key, &attr.value, place, text)?));
        }
    }
    Ok(())
}

fn hcl_setting(key: Key, expr: &Expression, place: Place, text: &str) -> Result<Setting> {
    let raw;
    let value = match expr {
        Expression::String(s) => s.value().as_str(),
        // HCL 1 does not interpolate an agent configuration: `${x}` is
        // taken as written, between its quotes.
        Expression::StringTemplate(_) => {
            raw = expr
                .span()
                .and_then(|span| text.get(span))
                .and_then(|quoted| quoted.strip_prefix('"')?.strip_suffix('"'))
                .unwrap_or_default()
                .to_string();
            raw.as_str()
        }
        // Nomad takes nothing but a string here.
        _ => {
            return Err(Error::usage(format!(
                "Nomad agent configuration {place}: {} must be a plain string such as \
                 \"/opt/nomad/data\"",
                key.path()
            )));
        }
    };
    let value = check_dir(key, value)
        .map_err(|why| Error::usage(format!("Nomad agent configuration {place}: {why}")))?;
    Ok(Setting { value, place })
}

/// The JSON form: `{"data_dir": "...", "client": {...}}`, where HCL 1
/// also takes `"client": [{...}]`. Parsed by serde as it streams, so an
/// error (a value of the wrong type, a relative directory) carries the
/// line it is on.
fn parse_json(path: &Path, text: &str) -> Result<Vec<(Key, Setting)>> {
    let file = path.to_path_buf();
    let top: JsonTop = serde_json::from_str(text).map_err(|e| {
        // serde_json appends " at line L column C" to a message; the line
        // goes where every other error of this module has it.
        let full = e.to_string();
        let message = full
            .rsplit_once(" at line ")
            .map_or(full.as_str(), |(m, _)| m);
        // serde_json places an error raised by a value at the end of the
        // object holding it; the key, written before that, is the line a
        // person looks for.
        let end = offset_of(text, e.line(), e.column());
        let line = Key::ALL
            .into_iter()
            .find(|k| message.starts_with(k.path()))
            .and_then(|k| text[..end].rfind(&format!("\"{}\"", k.name())))
            .map_or(e.line(), |at| line_at(text.as_bytes(), at));
        Error::usage(format!(
            "Nomad agent configuration {}:{line}: {message}",
            path.display(),
        ))
    })?;
    let place = || Place {
        file: file.clone(),
        line: None,
    };
    let mut out = Vec::new();
    if let Some(d) = top.data_dir {
        out.push((
            Key::DataDir,
            Setting {
                value: d.0,
                place: place(),
            },
        ));
    }
    for client in top.client.0 {
        for (key, dir) in [
            (Key::CommonPluginDir, client.common_plugin_dir.map(|d| d.0)),
            (
                Key::HostVolumePluginDir,
                client.host_volume_plugin_dir.map(|d| d.0),
            ),
            (Key::HostVolumesDir, client.host_volumes_dir.map(|d| d.0)),
        ] {
            if let Some(value) = dir {
                out.push((
                    key,
                    Setting {
                        value,
                        place: place(),
                    },
                ));
            }
        }
    }
    Ok(out)
}

/// The top of a JSON configuration. Keys match whatever their case, as
/// HCL 1 (which reads Nomad's JSON too) folds them; others are skipped.
#[derive(Default)]
struct JsonTop {
    data_dir: Option<JsonDir<DataDirKey>>,
    client: Clients,
}

impl<'de> serde::Deserialize<'de> for JsonTop {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<JsonTop, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = JsonTop;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a Nomad agent configuration object")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<JsonTop, A::Error> {
                let mut top = JsonTop::default();
                while let Some(key) = map.next_key::<String>()? {
                    if key.eq_ignore_ascii_case(Key::DataDir.name()) {
                        top.data_dir = Some(map.next_value()?);
                    } else if key.eq_ignore_ascii_case("client") {
                        top.client = map.next_value()?;
                    } else {
                        map.next_value::<de::IgnoredAny>()?;
                    }
                }
                Ok(top)
            }
        }
        d.deserialize_map(V)
    }
}

/// One `client` object, its keys matched as [`JsonTop`]'s.
#[derive(Default)]
struct JsonClient {
    common_plugin_dir: Option<JsonDir<CommonKey>>,
    host_volume_plugin_dir: Option<JsonDir<PluginKey>>,
    host_volumes_dir: Option<JsonDir<VolumesKey>>,
}

impl<'de> serde::Deserialize<'de> for JsonClient {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<JsonClient, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = JsonClient;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("the client block: an object")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<JsonClient, A::Error> {
                let mut client = JsonClient::default();
                while let Some(key) = map.next_key::<String>()? {
                    match Key::in_client(&key) {
                        Some(Key::CommonPluginDir) => {
                            client.common_plugin_dir = Some(map.next_value()?)
                        }
                        Some(Key::HostVolumePluginDir) => {
                            client.host_volume_plugin_dir = Some(map.next_value()?)
                        }
                        Some(Key::HostVolumesDir) => {
                            client.host_volumes_dir = Some(map.next_value()?)
                        }
                        _ => {
                            map.next_value::<de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(client)
            }
        }
        d.deserialize_map(V)
    }
}

/// The `client` object, or a list of them (HCL 1's JSON form of a block).
#[derive(Default)]
struct Clients(Vec<JsonClient>);

impl<'de> serde::Deserialize<'de> for Clients {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Clients, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Clients;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("the client block: an object, or a list of objects")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                map: A,
            ) -> std::result::Result<Clients, A::Error> {
                let one = <JsonClient as serde::Deserialize>::deserialize(
                    de::value::MapAccessDeserializer::new(map),
                )?;
                Ok(Clients(vec![one]))
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<Clients, A::Error> {
                let mut all = Vec::new();
                while let Some(one) = seq.next_element()? {
                    all.push(one);
                }
                Ok(Clients(all))
            }
        }
        d.deserialize_any(V)
    }
}

/// Which setting a [`JsonDir`] is, for its error message.
trait JsonKey {
    const KEY: Key;
}
struct DataDirKey;
impl JsonKey for DataDirKey {
    const KEY: Key = Key::DataDir;
}
struct CommonKey;
impl JsonKey for CommonKey {
    const KEY: Key = Key::CommonPluginDir;
}
struct PluginKey;
impl JsonKey for PluginKey {
    const KEY: Key = Key::HostVolumePluginDir;
}
struct VolumesKey;
impl JsonKey for VolumesKey {
    const KEY: Key = Key::HostVolumesDir;
}

/// A directory setting, checked as it is read (so a refusal has its line).
struct JsonDir<K>(PathBuf, std::marker::PhantomData<K>);

impl<'de, K: JsonKey> serde::Deserialize<'de> for JsonDir<K> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let text = <String as serde::Deserialize>::deserialize(d).map_err(|_| {
            de::Error::custom(format!(
                "{} must be a string such as \"/opt/nomad/data\"",
                K::KEY.path()
            ))
        })?;
        check_dir(K::KEY, &text)
            .map(|p| JsonDir(p, std::marker::PhantomData))
            .map_err(de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn a_directory_is_read_in_byte_order_and_the_later_file_wins() {
        let d = tempfile::tempdir().unwrap();
        write(
            d.path(),
            "10-base.hcl",
            "# the packaged file\ndata_dir = \"/srv/nomad\"\n\nclient {\n  enabled = true\n  host_volumes_dir = \"/srv/vols\"\n}\n",
        );
        write(
            d.path(),
            "20-client.json",
            r#"{"client": {"host_volume_plugin_dir": "/srv/hv", "host_volumes_dir": ""}}"#,
        );
        write(d.path(), "30-late.hcl~", "data_dir = \"relative\"\n");
        write(d.path(), "notes.txt", "data_dir = 1\n");
        fs::create_dir(d.path().join("sub.hcl")).unwrap();
        let c = load(&[d.path().to_path_buf()], Policy::strict()).unwrap();
        assert_eq!(c.files.len(), 2, "{c:?}");
        let data = c.data_dir.unwrap();
        assert_eq!(data.value, Path::new("/srv/nomad"));
        assert_eq!(data.place.line, Some(2));
        // An empty value does not unset what an earlier file set.
        assert_eq!(c.host_volumes_dir.unwrap().value, Path::new("/srv/vols"));
        let hv = c.host_volume_plugin_dir.unwrap();
        assert_eq!(hv.value, Path::new("/srv/hv"));
        assert!(hv.place.file.ends_with("20-client.json"));
        assert!(c.common_plugin_dir.is_none());
    }

    #[test]
    fn keys_match_whatever_their_case_and_nothing_is_interpolated() {
        // HCL 1 folds keys (`ObjectList.Filter`) and reads `${x}` as text.
        let d = tempfile::tempdir().unwrap();
        let f = write(
            d.path(),
            "a.hcl",
            "DATA_DIR = \"/srv/${x}/d\"\nClient {\n  Host_Volumes_Dir = \"/srv/hv\"\n}\n",
        );
        let c = load(&[f], Policy::strict()).unwrap();
        assert_eq!(c.data_dir.unwrap().value, Path::new("/srv/${x}/d"));
        assert_eq!(c.host_volumes_dir.unwrap().value, Path::new("/srv/hv"));
        let f = write(
            d.path(),
            "b.json",
            r#"{"Data_Dir": "/srv/j", "CLIENT": {"host_volumes_DIR": "/srv/jv"}}"#,
        );
        let c = load(&[f], Policy::strict()).unwrap();
        assert_eq!(c.data_dir.unwrap().value, Path::new("/srv/j"));
        assert_eq!(c.host_volumes_dir.unwrap().value, Path::new("/srv/jv"));
    }

    #[test]
    fn bad_values_name_file_and_line() {
        let d = tempfile::tempdir().unwrap();
        let f = write(
            d.path(),
            "a.hcl",
            "data_dir = \"/x\"\nclient {\n  host_volume_plugin_dir = \"plugins\"\n}\n",
        );
        let e = load(&[f], Policy::strict()).unwrap_err().to_string();
        assert!(e.contains("a.hcl:3:"), "{e}");
        assert!(e.contains("must be an absolute path"), "{e}");
        let f = write(d.path(), "b.hcl", "data_dir = \n}\n");
        let e = load(&[f], Policy::strict()).unwrap_err().to_string();
        assert!(e.contains("b.hcl:1:") || e.contains("b.hcl:2:"), "{e}");
        assert!(e.contains("does not parse"), "{e}");
        let f = write(
            d.path(),
            "c.json",
            "{\n  \"client\": {\n    \"common_plugin_dir\": \"rel\"\n  }\n}\n",
        );
        let e = load(&[f], Policy::strict()).unwrap_err().to_string();
        assert!(e.contains("c.json:3:"), "{e}");
        let f = write(d.path(), "d.json", "{\"data_dir\": 5}");
        let e = load(&[f], Policy::strict()).unwrap_err().to_string();
        assert!(e.contains("must be a string"), "{e}");
        // HCL 1 takes `${...}` as text: here a relative path.
        let f = write(d.path(), "e.hcl", "data_dir = \"${var.x}\"\n");
        let e = load(&[f], Policy::strict()).unwrap_err().to_string();
        assert!(e.contains("absolute path") && e.contains("${var.x}"), "{e}");
        let f = write(d.path(), "f.hcl", "data_dir = [\"/x\"]\n");
        let e = load(&[f], Policy::strict()).unwrap_err().to_string();
        assert!(e.contains("plain string"), "{e}");
        let e = load(&[d.path().join("missing")], Policy::strict())
            .unwrap_err()
            .to_string();
        assert!(e.contains("cannot read"), "{e}");
    }

    #[test]
    fn json_client_may_be_a_list_and_hcl_client_an_object() {
        let d = tempfile::tempdir().unwrap();
        let f = write(
            d.path(),
            "a.json",
            r#"{"client": [{"common_plugin_dir": "/a"}, {"common_plugin_dir": "/b"}]}"#,
        );
        assert_eq!(
            load(&[f], Policy::strict())
                .unwrap()
                .common_plugin_dir
                .unwrap()
                .value,
            Path::new("/b")
        );
        let f = write(
            d.path(),
            "b.hcl",
            "client = {\n  host_volumes_dir = \"/v\"\n}\n",
        );
        let c = load(&[f], Policy::strict()).unwrap();
        let v = c.host_volumes_dir.unwrap();
        assert_eq!(v.value, Path::new("/v"));
        assert_eq!(v.place.line, Some(2));
        // A JSON document in a file named .hcl is JSON, as HCL 1 reads it.
        let f = write(d.path(), "c.hcl", "  {\"data_dir\": \"/j\"}");
        assert_eq!(
            load(&[f], Policy::strict())
                .unwrap()
                .data_dir
                .unwrap()
                .value,
            Path::new("/j")
        );
        let empty = tempfile::tempdir().unwrap();
        let c = load(&[empty.path().to_path_buf()], Policy::strict()).unwrap();
        assert_eq!(c.warnings.len(), 1);
    }
}

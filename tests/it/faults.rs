//! The fault matrix: every misbehaviour from docs/protocol.md section 6,
//! planted as a real plugin, run through the real binary for every operation
//! it applies to (host-volume fingerprint, create and delete, secrets fetch).
//!
//! Each cell says what plugctl must answer: the exit code, the JSON error
//! `kind`, a message naming the plugin, the operation and the cause, and a
//! registry that is unchanged or consistent afterwards (a failed create
//! leaves no volume, or a `pending` one with the error when the plugin may
//! have made something; a failed delete keeps the volume; a fingerprint
//! records the plugin unhealthy with the reason; a fetch never stores a
//! value). Processes a plugin forked must be gone afterwards.
//!
//! Every cell runs in its own rig, and the cells run concurrently (the
//! ones that end in a timeout with a 1 s deadline and 500 ms grace) so that
//! the whole matrix takes seconds.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    /// `plugctl fingerprint --type host-volume NAME`
    Fingerprint,
    /// `plugctl volume create --plugin NAME`
    Create,
    /// `plugctl volume delete ID` of a volume NAME created while it behaved
    Delete,
    /// `plugctl secret fetch NAME PATH`
    Fetch,
}

impl Op {
    fn family(self) -> &'static str {
        match self {
            Op::Fetch => "secrets",
            _ => "host-volume",
        }
    }

    fn operation(self) -> &'static str {
        match self {
            Op::Fingerprint => "fingerprint",
            Op::Create => "create",
            Op::Delete => "delete",
            Op::Fetch => "fetch",
        }
    }
}

/// How the fault is put where the plugin should be.
#[derive(Debug, Clone, Copy)]
enum Plant {
    /// A `#!/bin/sh` plugin: [`PREAMBLE`], then this body.
    Script(&'static str),
    /// A working plugin without an execute bit.
    NotExecutable,
    /// A directory with the plugin's name.
    Directory,
    /// A symlink to a file that does not exist.
    BrokenSymlink,
    /// A symlink to a working plugin outside the family directory.
    EscapingSymlink,
    /// `#!/no/such/interpreter`.
    MissingInterpreter,
}

/// What plugctl must answer.
#[derive(Debug, Clone, Copy)]
enum Want {
    /// Success: healthy, a ready volume, the volume gone, the value printed.
    Ok,
    /// A plugin failure: exit `code` (1, or 4 for a timeout), this JSON
    /// error kind, a message containing `cause`. `uncertain`: the plugin may
    /// have made something, so a failed create keeps a `pending` record.
    Fail {
        code: i32,
        kind: &'static str,
        cause: &'static str,
        uncertain: bool,
    },
    /// Not a plugin as Nomad sees it: exit 3, kind `not_found`, with why.
    NotFound { cause: &'static str },
    /// The fault does not apply to this operation.
    Na,
}

/// The plugin ran and said it failed (exit status, could not start, refused).
const fn fail(cause: &'static str) -> Want {
    Want::Fail {
        code: 1,
        kind: "plugin",
        cause,
        uncertain: false,
    }
}

/// The plugin ran and its answer is unusable: it may have made something.
const fn bad(cause: &'static str) -> Want {
    Want::Fail {
        code: 1,
        kind: "plugin",
        cause,
        uncertain: true,
    }
}

/// The deadline passed; the whole group was taken down.
const fn timeout(cause: &'static str) -> Want {
    Want::Fail {
        code: 4,
        kind: "timeout",
        cause,
        uncertain: true,
    }
}

const fn not_found(cause: &'static str) -> Want {
    Want::NotFound { cause }
}

use Want::{Na, Ok};

struct Fault {
    name: &'static str,
    plant: Plant,
    fingerprint: Want,
    create: Want,
    delete: Want,
    fetch: Want,
}

/// Defines `$OK`, the operation's well-formed answer, and `$PIDS`, a file
/// a plugin appends the pids of its children to. A secret value is in
/// fetch's answer so that every cell can check it leaked nowhere.
const PREAMBLE: &str = r#"PIDS="$OUT/pids"
case "$1" in
fingerprint) OK='{"version": "1.0.0"}' ;;
create) OK="{\"path\": \"$DHV_VOLUMES_DIR/$DHV_VOLUME_ID\", \"bytes\": 0}" ;;
delete) OK='{}' ;;
fetch) OK='{"result": {"password": "s3cr3t-VALUE"}}' ;;
esac"#;

const SECRET: &str = "s3cr3t-VALUE";

const TIMED_OUT: &str = "timed out after 1s (process group terminated)";
const KILLED: &str = "timed out after 1s (ignored SIGTERM; process group killed with SIGKILL)";
const FLOOD_OUT: &str = "stdout exceeded the 4 MiB capture limit";
const LEFT_BEHIND: &str = "left 1 background process (pid ";

/// The matrix. Rows: faults; columns: operations.
const FAULTS: &[Fault] = &[
    Fault {
        name: "empty-output",
        plant: Plant::Script("exit 0"),
        fingerprint: bad("unexpected end of JSON input"),
        create: bad("unexpected end of JSON input"),
        // delete's stdout is ignored on success, as Nomad does
        delete: Ok,
        fetch: bad("unexpected end of JSON input"),
    },
    Fault {
        name: "not-json",
        plant: Plant::Script("echo 'all good, volume made'"),
        fingerprint: bad("invalid character 'a' looking for beginning of value"),
        create: bad("invalid character 'a' looking for beginning of value"),
        delete: Ok,
        // a secrets plugin's output may hold values: never quoted
        fetch: bad("syntax error at byte 0 (looking for beginning of value)"),
    },
    Fault {
        name: "log-line-first",
        plant: Plant::Script(r#"echo 'starting up'; echo "$OK""#),
        fingerprint: bad("invalid character 's' looking for beginning of value"),
        create: bad("invalid character 's' looking for beginning of value"),
        delete: Ok,
        fetch: bad("syntax error at byte 0 (looking for beginning of value)"),
    },
    Fault {
        name: "two-documents",
        plant: Plant::Script(r#"echo "$OK"; echo "$OK""#),
        fingerprint: bad("after top-level value"),
        create: bad("after top-level value"),
        delete: Ok,
        fetch: bad("syntax error at byte 41 (after top-level value)"),
    },
    Fault {
        name: "bom",
        plant: Plant::Script(r#"printf '\357\273\277%s\n' "$OK""#),
        fingerprint: bad("invalid character 'ï' looking for beginning of value"),
        create: bad("invalid character 'ï' looking for beginning of value"),
        delete: Ok,
        fetch: bad("syntax error at byte 0 (a byte-order mark)"),
    },
    Fault {
        name: "invalid-utf8",
        plant: Plant::Script(
            r#"case $1 in
fingerprint) printf '{"version": "1.0.0\377"}' ;;
create) printf '{"path": "/v/\377"}' ;;
fetch) printf '{"result": {"password": "s3cr3t-VALUE", "k": "\377"}}' ;;
esac"#,
        ),
        // Go replaces each bad byte with U+FFFD, as plugctl does: the
        // version no longer parses, a path that is not the one made is
        // refused (plugctl's rule, saying Nomad would take it), and a
        // value is what Nomad would hand the task.
        fingerprint: bad("malformed version: 1.0.0\u{fffd}"),
        create: bad("not valid UTF-8: Nomad would accept it"),
        delete: Ok,
        fetch: Ok,
    },
    Fault {
        name: "bare-null",
        plant: Plant::Script("echo null"),
        fingerprint: bad("no \"version\""),
        // Go decodes null into the response struct as {}: Nomad accepts it
        // and records an empty path; plugctl judges the path when it
        // arrives: the plugin's failure, the volume kept pending
        create: bad("the returned path is empty (Nomad would record it"),
        delete: Ok,
        fetch: bad("bare JSON null"),
    },
    Fault {
        name: "version-null",
        plant: Plant::Script(r#"echo '{"version": null}'"#),
        fingerprint: bad("no \"version\" (missing or null; on a Nomad node this crashes"),
        create: Na,
        delete: Na,
        fetch: Na,
    },
    Fault {
        name: "version-number",
        plant: Plant::Script(r#"echo '{"version": 1.2}'"#),
        fingerprint: bad("cannot unmarshal number"),
        create: Na,
        delete: Na,
        fetch: Na,
    },
    Fault {
        name: "version-whitespace",
        plant: Plant::Script(r#"echo '{"version": " 1.0.0"}'"#),
        fingerprint: bad("invalid version \" 1.0.0\""),
        create: Na,
        delete: Na,
        fetch: Na,
    },
    Fault {
        name: "not-an-object",
        plant: Plant::Script(
            r#"case $1 in
fingerprint) echo '[1, 2]' ;;
create) echo '"/v/data"' ;;
fetch) echo '{"result": "password=hunter2"}' ;;
esac"#,
        ),
        fingerprint: bad("cannot unmarshal array"),
        create: bad("cannot unmarshal string"),
        delete: Na,
        fetch: bad("cannot unmarshal string into Go struct field SecretResponse.result"),
    },
    Fault {
        name: "bytes-float",
        plant: Plant::Script(r#"echo '{"path": "/v/data", "bytes": 5.0}'"#),
        fingerprint: Na,
        create: bad("cannot unmarshal number 5.0 into Go struct field"),
        delete: Na,
        fetch: Na,
    },
    Fault {
        name: "bytes-exponent",
        plant: Plant::Script(r#"echo '{"path": "/v/data", "bytes": 1e3}'"#),
        fingerprint: Na,
        create: bad("cannot unmarshal number 1e3 into Go struct field"),
        delete: Na,
        fetch: Na,
    },
    Fault {
        name: "bytes-string",
        plant: Plant::Script(r#"echo '{"path": "/v/data", "bytes": "5"}'"#),
        fingerprint: Na,
        create: bad("cannot unmarshal string into Go struct field"),
        delete: Na,
        fetch: Na,
    },
    Fault {
        name: "exit-with-error",
        plant: Plant::Script(r#"echo '{"error": "disk on fire"}'; exit 3"#),
        fingerprint: fail("exited with status 3: disk on fire"),
        create: fail("exited with status 3: disk on fire"),
        delete: fail("exited with status 3: disk on fire"),
        fetch: fail("exited with status 3: disk on fire"),
    },
    Fault {
        name: "exit-without-error",
        plant: Plant::Script("echo 'no such pool' >&2; exit 2"),
        fingerprint: fail(r#"exited with status 2: stderr: "no such pool""#),
        create: fail(r#"exited with status 2: stderr: "no such pool""#),
        delete: fail(r#"exited with status 2: stderr: "no such pool""#),
        // a secrets plugin's stderr may hold values: never quoted
        fetch: fail("exited with status 2"),
    },
    Fault {
        name: "error-with-exit-0",
        plant: Plant::Script(
            r#"case $1 in
fetch) echo '{"result": {}, "error": "permission denied"}' ;;
*) echo "$OK" | sed 's/}$/, "error": "ignored on success"}/' ;;
esac"#,
        ),
        // Nomad ignores `error` on exit 0 for host volumes...
        fingerprint: Ok,
        create: Ok,
        delete: Ok,
        // ...but any non-null `error` fails a fetch
        fetch: bad("permission denied"),
    },
    Fault {
        name: "killed-by-signal",
        plant: Plant::Script("kill -KILL $$"),
        fingerprint: bad("killed by signal SIGKILL (9)"),
        create: bad("killed by signal SIGKILL (9)"),
        delete: bad("killed by signal SIGKILL (9)"),
        fetch: bad("killed by signal SIGKILL (9)"),
    },
    Fault {
        name: "hang",
        plant: Plant::Script("exec sleep 30"),
        fingerprint: bad(TIMED_OUT),
        create: timeout(TIMED_OUT),
        delete: timeout(TIMED_OUT),
        fetch: timeout(TIMED_OUT),
    },
    Fault {
        name: "hang-ignoring-sigterm",
        plant: Plant::Script(r#"trap '' TERM; sleep 30 & echo $! >> "$PIDS"; wait; wait; wait"#),
        fingerprint: bad(KILLED),
        create: timeout(KILLED),
        delete: timeout(KILLED),
        fetch: timeout(KILLED),
    },
    Fault {
        name: "child-holds-stdout",
        // the plugin answers and exits 0; its child keeps the pipe open:
        // plugctl kills it a moment later and says so (not "timed out")
        plant: Plant::Script(r#"sleep 30 & echo $! >> "$PIDS"; echo "$OK"; exit 0"#),
        fingerprint: bad(LEFT_BEHIND),
        create: bad(LEFT_BEHIND),
        delete: bad(LEFT_BEHIND),
        fetch: bad(LEFT_BEHIND),
    },
    Fault {
        name: "setsid-child-holds-stdout",
        // the child leaves the process group and the session (setsid), so
        // no group kill reaches it; plugctl adopts it (child subreaper)
        plant: Plant::Script(r#"setsid sleep 30 & echo $! >> "$PIDS"; echo "$OK"; exit 0"#),
        fingerprint: bad(LEFT_BEHIND),
        create: bad(LEFT_BEHIND),
        delete: bad(LEFT_BEHIND),
        fetch: bad(LEFT_BEHIND),
    },
    Fault {
        name: "setsid-daemon",
        // a daemon that holds no pipe and leaves the session: found after
        // the call, killed
        plant: Plant::Script(
            r#"setsid sleep 30 </dev/null >/dev/null 2>&1 & echo $! >> "$PIDS"; echo "$OK"; exit 0"#,
        ),
        fingerprint: bad(LEFT_BEHIND),
        create: bad(LEFT_BEHIND),
        delete: bad(LEFT_BEHIND),
        fetch: bad(LEFT_BEHIND),
    },
    Fault {
        name: "child-outlives-kill",
        // the child holds no pipe: only the group kill reaches it
        plant: Plant::Script(
            r#"sleep 30 </dev/null >/dev/null 2>&1 & echo $! >> "$PIDS"; exec sleep 30"#,
        ),
        fingerprint: bad(TIMED_OUT),
        create: timeout(TIMED_OUT),
        delete: timeout(TIMED_OUT),
        fetch: timeout(TIMED_OUT),
    },
    Fault {
        name: "stdout-flood",
        plant: Plant::Script(r#"yes "$OK" | head -c 8000000"#),
        fingerprint: bad(FLOOD_OUT),
        create: bad(FLOOD_OUT),
        delete: Ok,
        fetch: bad(FLOOD_OUT),
    },
    Fault {
        name: "stderr-flood-then-fail",
        plant: Plant::Script(
            "yes 'noise noise noise' | head -c 2000000 >&2; printf '\nthe real cause\n' >&2; exit 1",
        ),
        // stderr's tail is kept: the last line is the cause
        fingerprint: fail(r#"exited with status 1: stderr: "the real cause""#),
        create: fail(r#"exited with status 1: stderr: "the real cause""#),
        delete: fail(r#"exited with status 1: stderr: "the real cause""#),
        fetch: fail("exited with status 1"),
    },
    Fault {
        name: "stderr-flood-then-answer",
        plant: Plant::Script(r#"yes 'noise noise noise' | head -c 2000000 >&2; echo "$OK""#),
        fingerprint: Ok,
        create: Ok,
        delete: Ok,
        fetch: Ok,
    },
    Fault {
        name: "not-executable",
        plant: Plant::NotExecutable,
        fingerprint: not_found("no execute bit"),
        create: not_found("no execute bit"),
        delete: not_found("no execute bit"),
        fetch: not_found("no execute bit"),
    },
    Fault {
        name: "a-directory",
        plant: Plant::Directory,
        fingerprint: not_found("a directory"),
        create: not_found("a directory"),
        delete: not_found("a directory"),
        fetch: not_found("a directory"),
    },
    Fault {
        name: "broken-symlink",
        plant: Plant::BrokenSymlink,
        fingerprint: fail("broken symlink (to nowhere)"),
        create: fail("broken symlink (to nowhere)"),
        delete: fail("broken symlink (to nowhere)"),
        fetch: fail("broken symlink (to nowhere)"),
    },
    Fault {
        name: "escaping-symlink",
        plant: Plant::EscapingSymlink,
        fingerprint: fail("outside its directory"),
        create: fail("outside its directory"),
        delete: fail("outside its directory"),
        fetch: fail("outside its directory"),
    },
    Fault {
        name: "missing-interpreter",
        plant: Plant::MissingInterpreter,
        fingerprint: fail("interpreter /no/such/interpreter named in the shebang"),
        create: fail("interpreter /no/such/interpreter named in the shebang"),
        delete: fail("interpreter /no/such/interpreter named in the shebang"),
        fetch: fail("interpreter /no/such/interpreter named in the shebang"),
    },
    Fault {
        name: "closes-stdout-then-fails",
        // EOF on stdout is not the end: the exit status still counts
        plant: Plant::Script(r#"echo "$OK"; exec >&-; sleep 0.3; exit 5"#),
        fingerprint: fail("exited with status 5"),
        create: fail("exited with status 5"),
        delete: fail("exited with status 5"),
        fetch: fail("exited with status 5"),
    },
    Fault {
        name: "closes-stdout-keeps-running",
        plant: Plant::Script(r#"echo "$OK"; exec >&- 2>&-; exec sleep 30"#),
        fingerprint: bad(TIMED_OUT),
        create: timeout(TIMED_OUT),
        delete: timeout(TIMED_OUT),
        fetch: timeout(TIMED_OUT),
    },
    Fault {
        name: "reads-stdin",
        // gets EOF at once (stdin is the null device), so it answers in time
        plant: Plant::Script(r#"n=$(cat | wc -c); [ "$n" -eq 0 ] || exit 9; echo "$OK""#),
        fingerprint: Ok,
        create: Ok,
        delete: Ok,
        fetch: Ok,
    },
];

/// Cells that end in a timeout get a short deadline, to keep the matrix
/// fast; the others a long one, so that a loaded machine cannot turn a slow
/// start (or a flood of 8 MB) into a timeout.
const SHORT: [&str; 4] = ["--timeout", "1s", "--grace", "500ms"];
const LONG: [&str; 4] = ["--timeout", "20s", "--grace", "500ms"];

fn times_out(want: Want) -> bool {
    matches!(want, Want::Fail { cause, .. } if cause.starts_with("timed out"))
}

/// No cell may take longer than its deadline + grace + drain bound, plus a
/// wide margin for a loaded machine: plugctl is never wedged by a plugin.
fn cell_bound(want: Want) -> Duration {
    if times_out(want) {
        Duration::from_secs(8)
    } else {
        Duration::from_secs(25)
    }
}

/// A plugin that behaves, for creating the volume a delete cell deletes.
const WELL_BEHAVED: &str =
    r#"[ "$1" = create ] && echo "{\"path\": \"$DHV_VOLUMES_DIR/$DHV_VOLUME_ID\"}"; exit 0"#;

fn plant(s: &Rig, family: &str, name: &str, plant: Plant) {
    let path = s.plugins.join(family).join(name);
    make_dir(s.plugins.join(family));
    let _ = fs::remove_file(&path);
    let script = |body: &str| format!("#!/bin/sh\nOUT='{}'\n{PREAMBLE}\n{body}\n", s.out.display());
    let marker = format!("touch '{}'; echo \"$OK\"", s.out_file("ran").display());
    match plant {
        Plant::Script(body) => {
            s.file(family, name, &script(body), 0o755);
        }
        Plant::NotExecutable => {
            s.file(family, name, &script(&marker), 0o644);
        }
        Plant::Directory => make_dir(&path),
        Plant::BrokenSymlink => symlink("nowhere", &path).unwrap(),
        Plant::EscapingSymlink => {
            let outside = s.root().join("outside-plugin");
            fs::write(&outside, script(&marker)).unwrap();
            fs::set_permissions(
                &outside,
                std::os::unix::fs::PermissionsExt::from_mode(0o755),
            )
            .unwrap();
            symlink(&outside, &path).unwrap();
        }
        Plant::MissingInterpreter => {
            s.file(family, name, "#!/no/such/interpreter\necho '{}'\n", 0o755);
        }
    }
}

fn args(op: Op, name: &str, volume_id: &str, short: bool) -> Vec<String> {
    let mut a: Vec<&str> = match op {
        Op::Fingerprint => vec!["fingerprint", "--type", "host-volume", name],
        Op::Create => vec!["volume", "create", "--plugin", name, "--name", "vol"],
        Op::Delete => vec!["volume", "delete", volume_id],
        Op::Fetch => vec!["secret", "fetch", name, "app/db"],
    };
    a.extend(if short { SHORT } else { LONG });
    a.into_iter().map(String::from).collect()
}

fn volume_events(s: &Rig) -> Vec<String> {
    let mut kinds = s.event_kinds();
    kinds.retain(|k| k.starts_with("volume"));
    kinds
}

/// Runs one cell; `Err` says everything that was wrong with it.
fn cell(fault: &Fault, op: Op, want: Want) -> Result<(), String> {
    let s = Rig::new();
    let name = fault.name;
    let family = op.family();
    let mut problems = Vec::new();
    let mut check = |ok: bool, what: String| {
        if !ok {
            problems.push(what);
        }
    };

    // A delete needs a ready volume made while the plugin still behaved.
    let mut volume_id = String::new();
    if op == Op::Delete {
        s.plugin(family, name, WELL_BEHAVED);
        let out = plugctl(&s)
            .args([
                "--json", "volume", "create", "--plugin", name, "--name", "vol",
            ])
            .any_exit();
        if out.code() != Some(0) {
            return Err(format!("setup create failed: {}", stderr(&out)));
        }
        volume_id = id_of(&out.json()["volume"]);
    }
    plant(&s, family, name, fault.plant);
    let registry_before = fs::read(&s.registry).ok();

    // Every mismatch of the cell is gathered (`check`), so its exit code is
    // read rather than expected.
    let out = plugctl(&s)
        .arg("--json")
        .args_from(args(op, name, &volume_id, times_out(want)))
        .any_exit();
    let exit = out.code();
    let took = out.took();
    check(took < cell_bound(want), format!("took {took:?}"));
    let doc: Value = match serde_json::from_slice(&out.stdout) {
        Result::Ok(v) => v,
        Err(e) => {
            return Err(format!(
                "stdout is not one JSON document ({e}): {}\nstderr: {}",
                stdout(&out),
                stderr(&out)
            ));
        }
    };
    check(
        doc["schema_version"] == 1,
        format!("no schema_version: {doc}"),
    );
    let err = stderr(&out);

    // Forked children never outlive the call.
    for pid in s.read_out("pids").lines() {
        let pid: i32 = pid.trim().parse().unwrap();
        check(!survives(pid), format!("child {pid} survived"));
    }
    // A plugin refused before running never ran.
    check(
        !s.out_file("ran").exists(),
        "a plugin that must not run ran".into(),
    );
    // A secret value reaches stdout on success and nothing else, ever.
    if op == Op::Fetch {
        let registry = fs::read(&s.registry).unwrap_or_default();
        check(
            !String::from_utf8_lossy(&registry).contains(SECRET),
            "the secret value is in the registry".into(),
        );
        check(
            !err.contains(SECRET),
            format!("the secret value is on stderr: {err}"),
        );
        if !matches!(want, Ok) {
            check(
                !stdout(&out).contains(SECRET) && !stdout(&out).contains("hunter2"),
                format!("a value is in the error: {}", stdout(&out)),
            );
        }
    }
    if op != Op::Fingerprint
        && let Some(e) = doc.get("error")
    {
        // stderr carries the same message
        let message = e["message"].as_str().unwrap_or_default();
        check(
            err.contains(message),
            format!("stderr lacks the message: {err}"),
        );
    }

    match (op, want) {
        (_, Na) => unreachable!(),
        (Op::Fingerprint, Ok) => {
            check(exit == Some(0), format!("exit {exit:?}: {err}"));
            let r = row(&doc, family, name);
            check(r["healthy"] == true, format!("not healthy: {r}"));
            let recorded = &s.registry_json()["plugins"][family][name][0];
            check(recorded["healthy"] == true, format!("recorded {recorded}"));
        }
        (Op::Fingerprint, Want::Fail { cause, .. }) => {
            // One unhealthy plugin makes fingerprint exit 1, a timeout too.
            check(exit == Some(1), format!("exit {exit:?}: {err}"));
            let r = row(&doc, family, name);
            let reason = r["error"].as_str().unwrap_or_default();
            check(r["healthy"] == false, format!("healthy: {r}"));
            check(
                reason.contains(cause),
                format!("want {cause:?} in {reason:?}"),
            );
            // recorded unhealthy, with the same reason
            let recorded = &s.registry_json()["plugins"][family][name][0];
            check(
                recorded["healthy"] == false && recorded["error"] == r["error"],
                format!("recorded {recorded}"),
            );
        }
        (_, Want::NotFound { cause }) => {
            check(exit == Some(3), format!("exit {exit:?}: {err}"));
            let e = &doc["error"];
            let message = e["message"].as_str().unwrap_or_default();
            check(e["kind"] == "not_found", format!("kind: {e}"));
            check(
                e["plugin"] == format!("{family}/{name}") && e["operation"] == op.operation(),
                format!("plugin/operation: {e}"),
            );
            check(subject_ok(op, &e["subject"]), format!("subject: {e}"));
            for needle in [
                &format!("{family} plugin \"{name}\""),
                &format!("operation {}", op.operation()),
                "is not a plugin as Nomad sees it",
                cause,
            ] {
                check(
                    message.contains(needle),
                    format!("want {needle:?} in {message:?}"),
                );
            }
            // nothing ran, nothing changed
            check(
                fs::read(&s.registry).ok() == registry_before,
                "the registry changed".into(),
            );
        }
        (_, Ok) => {
            check(exit == Some(0), format!("exit {exit:?}: {err}"));
            let vols = s.volume_records();
            match op {
                Op::Create => check(
                    vols.len() == 1 && vols[0]["state"] == "ready",
                    format!("volumes: {vols:?}"),
                ),
                Op::Delete => check(vols.is_empty(), format!("volumes: {vols:?}")),
                Op::Fetch => check(
                    doc["result"]["password"] == SECRET,
                    format!("result: {doc}"),
                ),
                Op::Fingerprint => unreachable!(),
            }
        }
        (
            _,
            Want::Fail {
                code: want_code,
                kind,
                cause,
                uncertain,
            },
        ) => {
            check(
                exit == Some(want_code),
                format!("exit {exit:?} (want {want_code}): {err}"),
            );
            let e = &doc["error"];
            let message = e["message"].as_str().unwrap_or_default();
            check(e["kind"] == kind, format!("kind (want {kind}): {e}"));
            check(
                e["plugin"] == format!("{family}/{name}") && e["operation"] == op.operation(),
                format!("plugin/operation: {e}"),
            );
            check(subject_ok(op, &e["subject"]), format!("subject: {e}"));
            for needle in [
                &format!("{family} plugin \"{name}\""),
                &format!("operation {}", op.operation()),
                cause,
            ] {
                check(
                    message.contains(needle),
                    format!("want {needle:?} in {message:?}"),
                );
            }
            let vols = s.volume_records();
            match op {
                Op::Create if uncertain => {
                    // kept pending with the error, for `volume repair`
                    let ok = vols.len() == 1
                        && vols[0]["state"] == "pending"
                        && vols[0]["error"].as_str().is_some_and(|m| m.contains(cause))
                        && vols[0].get("owner").is_none();
                    check(ok, format!("volumes: {vols:?}"));
                }
                Op::Create => check(
                    vols.is_empty() && volume_events(&s).is_empty(),
                    format!("volumes: {vols:?}"),
                ),
                // refused before it ran: nothing was recorded
                _ if never_runs(fault.plant) => check(
                    fs::read(&s.registry).ok() == registry_before,
                    "the registry changed".into(),
                ),
                Op::Delete => {
                    // the volume stays, back to ready, with the error
                    let ok = vols.len() == 1
                        && vols[0]["state"] == "ready"
                        && vols[0]["error"].as_str().is_some_and(|m| m.contains(cause))
                        && vols[0].get("owner").is_none();
                    check(ok, format!("volumes: {vols:?}"));
                }
                Op::Fetch => {
                    // the fetch is recorded as failed, and nothing else
                    let events = s.registry_json()["events"].clone();
                    let ok = events.as_array().is_some_and(|a| {
                        a.len() == 1 && a[0]["kind"] == "secret_fetch" && a[0]["success"] == false
                    });
                    check(ok, format!("events: {events}"));
                }
                Op::Fingerprint => unreachable!(),
            }
        }
    }
    if problems.is_empty() {
        Result::Ok(())
    } else {
        Err(problems.join("\n    "))
    }
}

/// What an operation's errors are about: `subject` in the JSON error.
fn subject_ok(op: Op, subject: &Value) -> bool {
    let subject = subject.as_str().unwrap_or_default();
    match op {
        Op::Fingerprint => true,
        Op::Create | Op::Delete => subject.starts_with("volume ") && subject.contains("\"vol\""),
        Op::Fetch => subject == "path \"app/db\"",
    }
}

/// plugctl refuses it after looking at it, before running anything.
fn never_runs(plant: Plant) -> bool {
    matches!(
        plant,
        Plant::NotExecutable | Plant::Directory | Plant::BrokenSymlink | Plant::EscapingSymlink
    )
}

/// Runs `jobs` on a few threads; returns the failures, labelled.
fn run_concurrently<J: Sync>(
    jobs: &[J],
    label: impl Fn(&J) -> String + Sync,
    run: impl Fn(&J) -> Result<(), String> + Sync,
) -> Vec<String> {
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..8 {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(job) = jobs.get(i) else { break };
                    let result =
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(job)))
                            .unwrap_or_else(|p| {
                                Err(p
                                    .downcast_ref::<String>()
                                    .cloned()
                                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                                    .unwrap_or_else(|| "panicked".into()))
                            });
                    if let Err(e) = result {
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("{}:\n    {e}", label(job)));
                    }
                }
            });
        }
    });
    failures.into_inner().unwrap()
}

#[test]
fn fault_matrix() {
    let mut cells = Vec::new();
    for f in FAULTS {
        for (op, want) in [
            (Op::Fingerprint, f.fingerprint),
            (Op::Create, f.create),
            (Op::Delete, f.delete),
            (Op::Fetch, f.fetch),
        ] {
            if !matches!(want, Na) {
                cells.push((f, op, want));
            }
        }
    }
    // The slow cells (timeouts) first, so they overlap everything else.
    cells.sort_by_key(|(_, _, want)| !times_out(*want));
    let started = Instant::now();
    let failures = run_concurrently(
        &cells,
        |(f, op, _)| format!("{} × {}", f.name, op.operation()),
        |(f, op, want)| cell(f, *op, *want),
    );
    eprintln!("{} cells in {:?}", cells.len(), started.elapsed());
    assert!(
        failures.is_empty(),
        "{} of {} cells failed:\n{}",
        failures.len(),
        cells.len(),
        failures.join("\n")
    );
}

/// Whether `pid` has `path` open (it got past discovery to the lock).
fn has_open(pid: u32, path: &Path) -> bool {
    fs::read_dir(format!("/proc/{pid}/fd"))
        .into_iter()
        .flatten()
        .flatten()
        .any(|fd| fs::read_link(fd.path()).is_ok_and(|t| t == path))
}

/// A plugin deleted between discovery and run. fingerprint: two plugins
/// that each delete the other, one at a time (`--concurrency 1`): whichever
/// runs first makes the other vanish after discovery listed it. create and
/// delete: plugctl resolves the plugin, then waits for the registry lock
/// (held here) before running it; the plugin is deleted meanwhile. (secret
/// fetch does nothing between finding the plugin and running it that a test
/// could wait on; it shares the runner's spawn path with these.)
#[test]
fn plugin_deleted_between_discovery_and_run() {
    let s = Rig::new();
    for (me, other) in [("a-deleter", "b-deleter"), ("b-deleter", "a-deleter")] {
        let victim = s.plugins.join("host-volume").join(other);
        s.plugin(
            "host-volume",
            me,
            &format!(
                "rm -f '{}'; echo '{{\"version\": \"1.0.0\"}}'",
                victim.display()
            ),
        );
    }
    let doc = plugctl(&s)
        .args([
            "--json",
            "--concurrency",
            "1",
            "fingerprint",
            "--type",
            "host-volume",
        ])
        .fails_with(Exit::Failure)
        .json();
    let rows: Vec<&Value> = ["a-deleter", "b-deleter"]
        .iter()
        .map(|n| row(&doc, "host-volume", n))
        .collect();
    let healthy = rows.iter().filter(|r| r["healthy"] == true).count();
    assert_eq!(healthy, 1, "{rows:?}");
    let gone = rows.iter().find(|r| r["healthy"] == false).unwrap();
    let reason = gone["error"].as_str().unwrap();
    assert!(
        reason.contains("plugin not found at") && reason.contains("-deleter"),
        "{reason}"
    );
    let name = gone["name"].as_str().unwrap();
    assert_eq!(
        s.registry_json()["plugins"]["host-volume"][name][0]["error"],
        gone["error"]
    );

    for op in [Op::Create, Op::Delete] {
        let s = Rig::new();
        let plugin = s.plugin("host-volume", "vanishing", WELL_BEHAVED);
        let mut id = String::new();
        if op == Op::Delete {
            id = id_of(&create_volume(
                &s,
                &["--plugin", "vanishing", "--name", "v"],
            ));
        }
        let before = s.volume_records();
        let lock_path = s.registry.with_file_name("registry.json.lock");
        make_dir(s.registry.parent().unwrap());
        // Owner-only as plugctl makes it, whatever the umask.
        let lock = std::os::unix::fs::OpenOptionsExt::mode(
            fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true),
            0o600,
        )
        .open(&lock_path)
        .unwrap();
        lock.lock().unwrap();
        let child = plugctl(&s)
            .arg("--json")
            .args_from(args(op, "vanishing", &id, false))
            .start();
        // Past discovery once it opened the lock file.
        let until = Instant::now() + Duration::from_secs(30);
        while !has_open(child.id(), &lock_path) {
            assert!(Instant::now() < until, "plugctl never reached the lock");
            std::thread::sleep(Duration::from_millis(5));
        }
        fs::remove_file(&plugin).unwrap();
        drop(lock);
        let error = child.fails_with(Exit::Failure).error();
        let message = error["message"].as_str().unwrap();
        assert_eq!(error["kind"], "plugin", "{error}");
        for needle in [
            "host-volume plugin \"vanishing\"",
            &format!("operation {}", op.operation()),
            "plugin not found at",
        ] {
            assert!(message.contains(needle), "{op:?}: {needle:?} in {message}");
        }
        // a create that never started leaves nothing; a delete keeps the volume
        let after = s.volume_records();
        match op {
            Op::Create => assert!(after.is_empty(), "{after:?}"),
            _ => {
                assert_eq!(after.len(), 1, "{after:?}");
                assert_eq!(after[0]["state"], "ready");
                assert_eq!(after[0]["id"], before[0]["id"]);
                assert!(after[0]["error"].as_str().unwrap().contains("not found"));
            }
        }
    }
}

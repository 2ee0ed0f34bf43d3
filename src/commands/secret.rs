//! `plugctl secret fetch`: run a secrets plugin's fetch and print the values
//! on stdout — and nowhere else. Values are [`SecretValue`](plugctl_core::families::secrets::SecretValue)s from the moment
//! they are parsed; this module's output functions are the only callers of
//! `expose()`. The registry records that a fetch happened (provider, path,
//! key count, success, duration), never a value, a key name or a hash.
//! The plugin's stderr is shown only with `-v`, with every value masked.

use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::Ctx;
use crate::cli::{SecretCommand, SecretFetchArgs, SecretFormat};
use crate::output::{Printer, short_duration};
use crate::units::duration_ms;
use crate::{Error, Result};
use plugctl_core::discovery::{self, EntryKind};
use plugctl_core::error::PluginFailure;
use plugctl_core::families;
use plugctl_core::families::secrets::{self, FetchRequest, Fetched, Lines, Unprintable};
use plugctl_core::family::{Family, Operation};
use plugctl_core::runner::Outcome;

pub async fn run(ctx: &Ctx, cmd: SecretCommand) -> Result<()> {
    match cmd {
        SecretCommand::Fetch(args) => fetch(ctx, args).await,
    }
}

async fn fetch(ctx: &Ctx, args: SecretFetchArgs) -> Result<()> {
    let format = output_format(&ctx.printer, args.format)?;
    let result = fetch_and_print(ctx, &args, format).await;
    // `--format json` promises JSON on stdout, failures included, as
    // `--json` does (which the printer already handles).
    if let Err(e) = &result
        && format == SecretFormat::Json
        && !ctx.printer.json
        && !matches!(e, Error::BrokenPipe | Error::Failed(_))
    {
        let _ = Printer::plain(true).document(crate::exit::json_body(e));
    }
    result
}

/// `--format`, else json with `--json`, else kv. `--json` with another
/// format would put two kinds of output on stdout: refused.
fn output_format(printer: &Printer, format: Option<SecretFormat>) -> Result<SecretFormat> {
    match (format, printer.json) {
        (None, true) | (Some(SecretFormat::Json), _) => Ok(SecretFormat::Json),
        (None, false) => Ok(SecretFormat::Kv),
        (Some(f), false) => Ok(f),
        (Some(_), true) => Err(Error::usage(
            "--json prints the JSON document; it cannot be combined with --format kv or env",
        )),
    }
}

async fn fetch_and_print(ctx: &Ctx, args: &SecretFetchArgs, format: SecretFormat) -> Result<()> {
    let nomad = ctx.settings.nomad;
    nomad.require_family(Family::Secrets)?;
    // A key no line format can print cannot be allowed either: a typo.
    if let Some(bad) = args.allow_key.iter().find(|k| !secrets::is_shell_name(k)) {
        return Err(Error::usage(format!(
            "--allow-key {}: not a shell variable name ([A-Za-z_][A-Za-z0-9_]*), so no key \
             of that name is ever printed as a line",
            quoted(bad)
        )));
    }
    let deadline = super::deadline(&args.run, nomad.secrets_deadline())?;
    let mut env = match &args.env_file {
        Some(file) => read_env_file(file, ctx.settings.policy())?,
        None => Vec::new(),
    };
    env.extend(args.env.iter().cloned());
    // A key is passed to exec as `KEY=VALUE`: one with a space, a control
    // character or `=` is not a variable any program can read.
    if let Some((k, _)) = env.iter().find(|(k, _)| {
        k.is_empty()
            || k.chars()
                .any(|c| c == '=' || c.is_whitespace() || c.is_control())
    }) {
        return Err(Error::usage(format!(
            "--env/--env-file: {k_q} is not an environment variable name (no spaces, control \
             characters or '=')",
            k_q = plugctl_core::escape::quote(k)
        )));
    }
    // From 1.11.1 the job's own NOMAD_JOB_ID and NOMAD_NAMESPACE overwrite
    // whatever the secret block's env says (secrets_hook.go).
    let request = FetchRequest {
        path: args.path.clone(),
        env,
        job_id: None,
        namespace: None,
    }
    .with_job(nomad, args.job_id.as_deref(), args.namespace.as_deref())
    .map_err(|why| Error::usage(crate::exit::advised_text(&why)))?;
    if let (Some(job), Some(ns)) = (&request.job_id, &request.namespace) {
        for (key, value, flag, given) in [
            ("NOMAD_JOB_ID", job, "--job-id", args.job_id.is_some()),
            (
                "NOMAD_NAMESPACE",
                ns,
                "--namespace",
                args.namespace.is_some(),
            ),
        ] {
            if !given && request.env.iter().any(|(k, _)| k == key) {
                ctx.printer.warn(format!(
                    "{key} from --env/--env-file is replaced by {value_q}: {nomad} sets it \
                     for every fetch, over the secret block's env; use {flag} to choose it",
                    value_q = plugctl_core::escape::quote(value)
                ));
            }
        }
    }
    let env = &request.env;
    if env.iter().any(|(k, _)| k == "CPI_OPERATION") {
        ctx.printer.warn(
            "CPI_OPERATION is set by --env/--env-file and replaces fetch in the plugin's \
             environment (Nomad does the same); the argument is still fetch",
        );
    }

    let provider = &args.provider;
    let dir = ctx.settings.family_dir(Family::Secrets.name());
    let entry = discovery::find(Family::Secrets.name(), &dir, provider, ctx.settings.nomad)?;
    // A dry run shows the call even so, and says it would be refused.
    let refused =
        match super::require_fingerprinted(ctx, Family::Secrets, provider, Operation::Fetch) {
            Ok(()) => None,
            Err(e) if args.plan.dry_run => Some(e),
            Err(e) => return Err(e),
        };
    match &entry.kind {
        EntryKind::Plugin => {}
        EntryKind::Builtin(_) => {
            return Err(Error::usage(format!(
                "secrets provider {provider_q} is built into Nomad (it reads Nomad Variables or \
                 Vault through a Nomad client) and needs a Nomad cluster; plugctl runs only \
                 secrets plugins that are executables in {}",
                dir.display(),
                provider_q = plugctl_core::escape::quote(provider)
            )));
        }
        EntryKind::Rejected(reason) => {
            return Err(fetch_error(
                provider,
                &args.path,
                PluginFailure::Rejected(format!("{}: {reason}", entry.path.display())),
            ));
        }
        EntryKind::Ignored(reason) => {
            return Err(discovery::not_a_plugin(&entry, reason, Operation::Fetch)
                .about(subject(&args.path)));
        }
    }

    let inv = secrets::fetch_invocation(&entry.path, &request, deadline, args.run.grace);
    if args.plan.dry_run {
        // The environment is shown in full: it is the caller's own input.
        let call =
            plugctl_core::provenance::Call::new(Family::Secrets.name(), provider, Operation::Fetch)
                .about(subject(&args.path));
        return super::plan::print_refused(
            ctx,
            &[super::plan::Planned::Exec(call, inv)],
            refused.as_ref(),
        );
    }
    ctx.printer.note(
        2,
        format!(
            "running {} fetch {} (environment: {}; values not shown)",
            entry.path.display(),
            plugctl_core::escape::quote_os(&args.path),
            inv.env
                .iter()
                .map(|(k, _)| k.to_string_lossy())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );

    let (fetched, duration, usage) = match ctx.pool.run(&inv).await {
        Ok(mut out) => {
            let parsed = secrets::parse_fetch(ctx.settings.nomad.dialect(), &inv, &out);
            show_stderr(ctx, &out, &parsed);
            // The raw output holds the values too: wiped once parsed.
            zeroize::Zeroize::zeroize(&mut out.stdout);
            zeroize::Zeroize::zeroize(&mut out.stderr);
            (parsed, out.duration, out.usage)
        }
        Err(e) => (Err(families::spawn_failure(e)), Duration::ZERO, None),
    };
    super::volume::show_usage(
        &ctx.printer,
        &format!(
            "{} plugin {}: fetch of {}",
            Family::Secrets,
            plugctl_core::escape::quote(provider),
            subject(&args.path)
        ),
        usage.as_ref(),
    );
    record(
        ctx,
        provider,
        &args.path,
        &fetched,
        duration,
        usage.as_ref(),
    )
    .await;
    let fetched =
        fetched.map_err(|failure| fetch_error(provider, &args.path, failure).costing(usage))?;
    ctx.printer.note(
        2,
        format!(
            "fetched {} keys in {}",
            fetched.len(),
            short_duration(duration_ms(duration))
        ),
    );
    say_what_was_ignored(ctx, provider, &args.path, &fetched);
    print(ctx, args, &fetched, format, usage.as_ref())
}

/// On stderr, a fetch that gave no keys and why (no `result`, a `results`
/// Nomad ignores, an empty one), and keys Nomad ignores beside a result:
/// a task would get nothing from them, and nothing else says so.
fn say_what_was_ignored(ctx: &Ctx, provider: &str, path: &str, fetched: &Fetched) {
    let who = format!(
        "secrets plugin {}, path {}",
        plugctl_core::escape::quote(provider),
        plugctl_core::escape::quote(path)
    );
    match fetched.why_empty() {
        Some(why) => ctx
            .printer
            .warn(format!("{who}: fetch returned 0 keys: {why}")),
        None if !fetched.ignored.is_empty() => ctx.printer.warn(format!(
            "{who}: Nomad ignores {} of the answer (only \"result\" and \"error\" are read)",
            fetched.ignored_words()
        )),
        None => {}
    }
}

/// The command's error: provider, operation, path and cause.
fn fetch_error(provider: &str, path: &str, failure: PluginFailure) -> Error {
    Error::plugin(Family::Secrets.name(), provider, Operation::Fetch, failure).about(subject(path))
}

/// What a fetch is about, in its errors.
fn subject(path: &str) -> String {
    format!("path {path_q}", path_q = plugctl_core::escape::quote(path))
}

/// The plugin's stderr, which may hold values. Without `-v` only its size
/// is mentioned; with `-v` it is shown with every value masked: on success
/// the values are known exactly; on failure every string of stdout is
/// masked; when stdout is not one whole JSON document the values cannot be
/// known, and stderr is not shown at all (see doc-parts/secrets.md).
fn show_stderr(ctx: &Ctx, out: &Outcome, parsed: &std::result::Result<Fetched, PluginFailure>) {
    if out.stderr.is_empty() && out.stderr_dropped == 0 {
        return;
    }
    let size = out.stderr.len() as u64 + out.stderr_dropped;
    if ctx.printer.verbose() >= 1 {
        match secrets::candidate_values(out) {
            Some(mut values) => {
                if let Ok(f) = parsed {
                    values.extend(f.values.values().cloned());
                }
                let text = secrets::mask_stderr(&out.stderr, out.stderr_dropped, &values);
                let cut = if out.stderr_dropped > 0 {
                    format!(", the last {} shown", out.stderr.len())
                } else {
                    String::new()
                };
                // Each line escaped on its own: no terminal escapes from a
                // plugin reach the operator's terminal.
                ctx.printer.note_lines(
                    1,
                    format!("plugin stderr ({size} bytes{cut}; secret values masked):"),
                    text.lines(),
                );
            }
            None => ctx.printer.note(
                1,
                format!(
                    "plugin stderr ({size} bytes) not shown: stdout is not one whole JSON \
                     document, so the values stderr may repeat are unknown and cannot be masked \
                     (run the plugin by hand to see it)"
                ),
            ),
        }
    }
    let hint = if ctx.printer.verbose() >= 1 {
        ""
    } else {
        "; -v shows them, values masked"
    };
    let crashes = parsed.as_ref().ok().and_then(|_| {
        plugctl_core::verdict::stderr_crashes_client(
            Family::Secrets.name(),
            Operation::Fetch,
            ctx.settings.nomad,
            out,
        )
    });
    if let Some(why) = crashes {
        ctx.printer.warn(format!("the plugin {why}{hint}"));
    } else if !hint.is_empty() {
        ctx.printer
            .warn(format!("the plugin wrote {size} bytes on stderr{hint}"));
    }
}

/// One event per fetch that ran (or was tried): never a value, a key name
/// or a hash of anything the plugin returned. A registry that cannot be
/// written does not cost the caller a secret it already has: a warning.
async fn record(
    ctx: &Ctx,
    provider: &str,
    path: &str,
    fetched: &std::result::Result<Fetched, PluginFailure>,
    duration: Duration,
    usage: Option<&plugctl_core::usage::Usage>,
) {
    let mut details = Map::new();
    details.insert("path".into(), path.into());
    details.insert("success".into(), fetched.is_ok().into());
    details.insert(
        "keys".into(),
        fetched.as_ref().map_or(0, Fetched::len).into(),
    );
    details.insert("duration_ms".into(), duration_ms(duration).into());
    if let Err(f) = fetched {
        details.insert("failure".into(), failure_class(f).into());
    }
    let written = ctx
        .registry
        .record_secret_fetch(provider, details, usage)
        .await;
    if let Err(e) = written {
        ctx.printer.warn(format!(
            "the fetch was not recorded in the registry: {}",
            crate::exit::message(&e)
        ));
    }
}

/// The kind of failure, for the registry: the plugin's own message may
/// quote anything, so it is not stored.
fn failure_class(f: &PluginFailure) -> &'static str {
    match f {
        PluginFailure::TimedOut { .. } => "timeout",
        PluginFailure::Exit { .. } => "exit_status",
        PluginFailure::Signaled { .. } => "signal",
        PluginFailure::BadOutput(_) => "bad_output",
        PluginFailure::Response(_) => "plugin_error",
        _ => "not_started",
    }
}

fn print(
    ctx: &Ctx,
    args: &SecretFetchArgs,
    fetched: &Fetched,
    format: SecretFormat,
    usage: Option<&plugctl_core::usage::Usage>,
) -> Result<()> {
    let lines = match format {
        SecretFormat::Json => {
            let result: Map<String, Value> = fetched
                .values
                .iter()
                .map(|(k, v)| (k.clone(), Value::String(v.expose().to_string())))
                .collect();
            let mut doc = json!({
                "provider": &args.provider,
                "path": &args.path,
                "result": result,
            });
            if let Some(u) = usage {
                doc["usage"] = plugctl_core::registry::model::usage_json(u);
            }
            return ctx.printer.document(doc);
        }
        SecretFormat::Kv => Lines::Kv,
        SecretFormat::Env => Lines::Env,
    };
    // Built whole before anything is printed: a refused key prints nothing.
    let refused = secrets::refused(fetched, lines, &args.allow_key);
    if !refused.is_empty() {
        return Err(Error::Failed(refusal(
            &args.provider,
            &args.path,
            lines,
            &refused,
        )));
    }
    let text = zeroize::Zeroizing::new(match lines {
        Lines::Kv => render_kv(fetched, &ctx.printer),
        Lines::Env => render_env(fetched, &ctx.printer),
    });
    ctx.printer.text(&text)
}

/// How many refused keys a refusal names, one by one.
const REFUSALS_NAMED: usize = 500;

/// Why nothing was printed: every refused key by name (never a value),
/// each with its reason, then what the caller can do.
fn refusal(provider: &str, path: &str, lines: Lines, refused: &[(String, Unprintable)]) -> String {
    let what = match lines {
        Lines::Kv => "KEY=VALUE lines",
        Lines::Env => "export lines for a shell",
    };
    // A store can hold any number of keys: a message names a bounded
    // number of them, and counts the rest.
    let mut reasons: Vec<String> = refused
        .iter()
        .take(REFUSALS_NAMED)
        .map(|(key, why)| {
            let key = quoted(key);
            match why {
                Unprintable::NotAName => {
                    format!("{key} is not a shell variable name ([A-Za-z_][A-Za-z0-9_]*)")
                }
                Unprintable::Hook(hit) => format!(
                    "{key} would change {} ({})",
                    hit.reader().changes(),
                    hit.pattern()
                ),
                Unprintable::Nul => format!("the value of {key} holds a NUL byte"),
                Unprintable::NotPlain => format!(
                    "the value of {key} holds a character that a reader of KEY=VALUE lines \
                     takes apart (white space, a line break, a quote, a backslash, one of \
                     $`;&|<>(), or ~ or = at its start or after a colon)"
                ),
            }
        })
        .collect();
    if refused.len() > REFUSALS_NAMED {
        reasons.push(format!(
            "and {} more keys (--format json shows every key)",
            refused.len() - REFUSALS_NAMED
        ));
    }
    let mut advice = Vec::new();
    if refused
        .iter()
        .any(|(_, w)| matches!(w, Unprintable::Hook(_)))
    {
        advice.push(
            "a shell that evals this output, or a program started with it, would run what the \
             secret store chose; name a key with --allow-key KEY to print it anyway",
        );
    }
    if refused
        .iter()
        .any(|(_, w)| matches!(w, Unprintable::NotPlain))
    {
        advice.push("use --format env for a shell, or --format json");
    } else if refused
        .iter()
        .any(|(_, w)| matches!(w, Unprintable::NotAName | Unprintable::Nul))
    {
        advice.push("use --format json");
    }
    format!(
        "secrets plugin {}, operation fetch ({}): nothing printed: {} cannot be printed as \
         {what}: {}; {}",
        quoted(provider),
        subject(path),
        match refused.len() {
            1 => "1 key".to_string(),
            n => format!("{n} keys"),
        },
        reasons.join("; "),
        advice.join("; ")
    )
}

/// A name a plugin or the caller chose, quoted for a message.
fn quoted(s: &str) -> String {
    plugctl_core::escape::quote(s)
}

/// `KEY=VALUE` lines, keys sorted, values verbatim: every key and value
/// was checked ([`secrets::refused`]) to be one every reader of such lines
/// reads back exactly. On a terminal, control characters are escaped.
fn render_kv(fetched: &Fetched, printer: &Printer) -> String {
    let mut out = String::new();
    for (key, value) in &fetched.values {
        out.push_str(key);
        out.push('=');
        // The copy made for the terminal is wiped once written.
        out.push_str(&zeroize::Zeroizing::new(
            printer.for_terminal(value.expose()).into_owned(),
        ));
        out.push('\n');
    }
    out
}

/// `export KEY='VALUE'` lines for `eval` in POSIX sh, keys sorted; every
/// key was checked ([`secrets::refused`]).
fn render_env(fetched: &Fetched, printer: &Printer) -> String {
    let mut out = String::new();
    for (key, value) in &fetched.values {
        out.push_str("export ");
        out.push_str(key);
        out.push('=');
        let quoted = zeroize::Zeroizing::new(secrets::sh_quote(value.expose()));
        out.push_str(&zeroize::Zeroizing::new(
            printer.for_terminal(&quoted).into_owned(),
        ));
        out.push('\n');
    }
    out
}

/// The largest `--env-file` plugctl reads.
pub const ENV_FILE_MAX: u64 = 1 << 20;

/// `--env-file`: `KEY=VALUE` lines; blank lines and lines whose first
/// non-blank character is `#` are skipped; a CR before the line feed is
/// dropped; the value is everything after the first `=`, verbatim (no
/// quotes removed, nothing expanded). A bad line is a usage error that
/// names its number, never its text (it may be a value without its key).
///
/// The file goes through the trust gate: a regular file (never a FIFO, a
/// device such as `/dev/zero`, or a symlink), owned by root or the invoking
/// user and writable by nobody else, read up to [`ENV_FILE_MAX`] bytes.
pub fn read_env_file(
    file: &Path,
    policy: plugctl_core::trust::Policy,
) -> Result<Vec<(String, String)>> {
    let refused = |r: plugctl_core::trust::Refusal| match r {
        plugctl_core::trust::Refusal::Symlink(_) => Error::usage(format!(
            "cannot read --env-file {}: it is a symbolic link, which plugctl does not follow; \
             name the file itself",
            file.display()
        )),
        r => Error::refused(
            format_args!("cannot read --env-file {}", file.display()),
            &r,
        ),
    };
    let dir =
        plugctl_core::trust::CheckedDir::open(policy, plugctl_core::registry::parent_dir(file))
            .map_err(refused)?;
    let bytes = dir
        .read(file.file_name().unwrap_or_default(), ENV_FILE_MAX)
        .map_err(refused)?;
    parse_env_file(&bytes)
        .map_err(|msg| Error::usage(format!("--env-file {}: {msg}", file.display())))
}

fn parse_env_file(bytes: &[u8]) -> std::result::Result<Vec<(String, String)>, String> {
    let mut pairs = Vec::new();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let n = i + 1;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let line = std::str::from_utf8(raw).map_err(|_| format!("line {n} is not valid UTF-8"))?;
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            return Err(format!("line {n}: expected KEY=VALUE"));
        };
        if key.is_empty() {
            return Err(format!("line {n}: the key before '=' is empty"));
        }
        if key.chars().any(|c| c.is_whitespace() || c == '\0') {
            return Err(format!(
                "line {n}: the key contains white space or a NUL byte"
            ));
        }
        if value.contains('\0') {
            return Err(format!(
                "line {n}: the value contains a NUL byte, which no environment can hold"
            ));
        }
        pairs.push((key.to_string(), value.to_string()));
    }
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use plugctl_core::families::secrets::SecretValue;

    fn fetched(pairs: &[(&str, &str)]) -> Fetched {
        Fetched {
            values: pairs
                .iter()
                .map(|(k, v)| (k.to_string(), SecretValue::new(*v)))
                .collect(),
            ..Fetched::default()
        }
    }

    #[test]
    fn env_file_lines() {
        let text = b"# comment\n\n  # indented comment\nA=1\r\nB=x=y\nC=\nA=2\nD='q' \"w\" $x\n";
        let pairs = parse_env_file(text).unwrap();
        let want = [
            ("A", "1"),
            ("B", "x=y"),
            ("C", ""),
            ("A", "2"),
            ("D", "'q' \"w\" $x"),
        ];
        assert_eq!(
            pairs,
            want.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<Vec<_>>()
        );
        for (bad, line) in [
            (&b"A=1\nsecret-without-key\n"[..], "line 2"),
            (b"=value-secret", "line 1"),
            (b"\n\nexport A=secret", "line 3"),
            (b"A=se\0cret", "line 1"),
            (b"A=\xff", "line 1"),
        ] {
            let msg = parse_env_file(bad).unwrap_err();
            assert!(msg.starts_with(line), "{msg}");
            assert!(!msg.contains("secret"), "{msg}");
        }
    }

    #[test]
    fn kv_and_env_rendering() {
        let f = fetched(&[("B", "it's \"x\"\n$(y)"), ("A", "1")]);
        assert_eq!(
            render_kv(
                &fetched(&[("B", "x:y=z"), ("A", "1")]),
                &Printer::plain(false)
            ),
            "A=1\nB=x:y=z\n"
        );
        assert_eq!(
            render_env(&f, &Printer::plain(false)),
            "export A='1'\nexport B='it'\\''s \"x\"\n$(y)'\n"
        );
    }

    #[test]
    fn a_refusal_names_every_key_and_no_value() {
        let f = fetched(&[
            ("bad-key", "s3cr3t"),
            ("LD_PRELOAD", "s3cr3t"),
            ("K", "s3\0cr3t"),
            ("Q", "s3 cr3t"),
        ]);
        let msg = refusal("p", "x", Lines::Kv, &secrets::refused(&f, Lines::Kv, &[]));
        for want in [
            "\"bad-key\"",
            "\"LD_PRELOAD\"",
            "(LD_PRELOAD)",
            "\"K\" holds a NUL",
            "\"Q\" holds a character",
            "4 keys",
            "--allow-key",
            "--format env",
        ] {
            assert!(msg.contains(want), "{want}: {msg}");
        }
        assert!(!msg.contains("s3") && !msg.contains("cr3t"), "{msg}");
    }

    #[test]
    fn formats() {
        let p = Printer::plain(false);
        let j = Printer::plain(true);
        assert_eq!(output_format(&p, None).unwrap(), SecretFormat::Kv);
        assert_eq!(output_format(&j, None).unwrap(), SecretFormat::Json);
        assert_eq!(
            output_format(&p, Some(SecretFormat::Env)).unwrap(),
            SecretFormat::Env
        );
        assert_eq!(
            output_format(&j, Some(SecretFormat::Json)).unwrap(),
            SecretFormat::Json
        );
        assert!(output_format(&j, Some(SecretFormat::Kv)).is_err());
    }
}

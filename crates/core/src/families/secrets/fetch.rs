//! A secrets plugin's `fetch` (protocol section 5.2): the one place its
//! environment is formed, and its answer judged as Nomad judges it,
//! without ever quoting stdout (it may hold values).

use crate::error::{Advised, Hint, JobInput};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;

use super::masking::Masker;
use super::value::SecretValue;
use crate::error::PluginFailure;
use crate::families::{human_bytes, signal_name};
use crate::family::Operation;
use crate::nomad::{Change, Profile};
use crate::runner::{Invocation, Outcome, Termination};
use plugctl_protocol::json::{self, Dialect, JsonError};
use plugctl_protocol::responses;

/// `NOMAD_JOB_ID` of a fetch that names no job (`--job-id`) on a release
/// that always sets it (1.11.1 and later): plugctl runs no job, so the
/// value says who is asking rather than pretend to be a real job.
pub const DEFAULT_JOB_ID: &str = "plugctl";

/// `NOMAD_NAMESPACE` of a fetch that names none: Nomad's default namespace,
/// where a job without a `namespace` runs.
pub const DEFAULT_NAMESPACE: &str = "default";

/// What a caller asks a secrets plugin for.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FetchRequest {
    /// Passed verbatim as the one argument after `fetch`, even when it
    /// starts with `-`.
    pub path: String,
    /// The caller's variables, in order (Nomad's `secret { env {} }` block;
    /// plugctl's `--env-file` then `--env`). A later key wins.
    pub env: Vec<(String, String)>,
    /// `NOMAD_JOB_ID`, as Nomad 1.11.1+ sets it.
    pub job_id: Option<String>,
    /// `NOMAD_NAMESPACE`, as Nomad 1.11.1+ sets it.
    pub namespace: Option<String>,
}

impl FetchRequest {
    /// Sets `NOMAD_JOB_ID` and `NOMAD_NAMESPACE` as `profile`'s release
    /// does (`secrets_hook.go`): from 1.11.1 on every fetch, the given job
    /// and namespace or [`DEFAULT_JOB_ID`] and [`DEFAULT_NAMESPACE`];
    /// before, never, so a given one is refused (it would be a fetch no
    /// node of that release makes). The error's hint names the input.
    pub fn with_job(
        self,
        profile: Profile,
        job_id: Option<&str>,
        namespace: Option<&str>,
    ) -> Result<FetchRequest, Advised> {
        if !profile.sets_fetch_job_variables() {
            let given = [(JobInput::JobId, job_id), (JobInput::Namespace, namespace)]
                .into_iter()
                .find_map(|(input, v)| v.map(|_| input));
            if let Some(input) = given {
                let since = Profile::row(Change::FetchJobVariables).since_text();
                return Err(Advised::new(
                    format!(
                        "{profile} never sets NOMAD_JOB_ID or NOMAD_NAMESPACE for a fetch (from \
                         {since} it always does)"
                    ),
                    Hint::JobVariables {
                        input,
                        since: since.to_string(),
                    },
                ));
            }
            return Ok(self.as_on(profile));
        }
        // Nomad's own rule for a job id (`Job.Validate`): present, no space,
        // no NUL; control characters have no business in one either.
        if job_id.is_some_and(|id| id.is_empty() || id.chars().any(|c| c == ' ' || c.is_control()))
        {
            return Err(Advised::new(
                "must be a job id Nomad accepts: not empty, no spaces, no control characters",
                Hint::JobInput(JobInput::JobId),
            ));
        }
        if let Some(ns) = namespace
            && !crate::families::host_volume::is_namespace(ns)
        {
            return Err(Advised::new(
                format!(
                    "{ns_q} is not a Nomad namespace (letters, digits and '-', 1 to 128 of them)",
                    ns_q = crate::escape::quote(ns)
                ),
                Hint::JobInput(JobInput::Namespace),
            ));
        }
        let mut req = self.as_on(profile);
        if let Some(id) = job_id {
            req.job_id = Some(id.to_string());
        }
        if let Some(ns) = namespace {
            req.namespace = Some(ns.to_string());
        }
        Ok(req)
    }

    /// The variables `profile`'s release sets when the caller names no job:
    /// [`DEFAULT_JOB_ID`] and [`DEFAULT_NAMESPACE`] from 1.11.1, none before.
    pub fn as_on(mut self, profile: Profile) -> FetchRequest {
        if profile.sets_fetch_job_variables() {
            self.job_id = Some(DEFAULT_JOB_ID.to_string());
            self.namespace = Some(DEFAULT_NAMESPACE.to_string());
        } else {
            self.job_id = None;
            self.namespace = None;
        }
        self
    }
}

/// The one place the fetch environment is formed.
///
/// argv: `fetch <path>`. env: `CPI_OPERATION=fetch`, then the caller's
/// pairs, then `NOMAD_JOB_ID` and `NOMAD_NAMESPACE` when given (so
/// `--job-id`/`--namespace` win over an `--env` of the same name), then
/// deduplicated as Go's `os/exec` does it (see [`dedup_env`]). As in Nomad,
/// a caller's `CPI_OPERATION` therefore replaces the operation variable;
/// the argument still says `fetch`.
pub fn fetch_invocation(
    program: &Path,
    req: &FetchRequest,
    deadline: Duration,
    grace: Duration,
) -> Invocation {
    let mut pairs: Vec<(String, String)> = Vec::with_capacity(req.env.len() + 3);
    pairs.push(("CPI_OPERATION".into(), Operation::Fetch.name().into()));
    pairs.extend(req.env.iter().cloned());
    if let Some(id) = &req.job_id {
        pairs.push(("NOMAD_JOB_ID".into(), id.clone()));
    }
    if let Some(ns) = &req.namespace {
        pairs.push(("NOMAD_NAMESPACE".into(), ns.clone()));
    }
    let mut inv = Invocation::new(program, deadline, grace)
        .arg(Operation::Fetch.name())
        .arg(&req.path);
    for (k, v) in dedup_env(pairs) {
        inv = inv.env(k, v);
    }
    inv
}

/// Go's `os/exec` `dedupEnv` on Unix: keys are case-sensitive, the last
/// value of a key wins and keeps the position of that last occurrence.
/// (The runner hands the result to `std::process::Command`, which passes
/// the variables to exec sorted by name; the set is what matters.)
pub fn dedup_env(pairs: Vec<(String, String)>) -> Vec<(String, String)> {
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<(String, String)> = Vec::with_capacity(pairs.len());
    for (k, v) in pairs.into_iter().rev() {
        if seen.insert(k.clone()) {
            out.push((k, v));
        }
    }
    out.reverse();
    out
}

/// A successful fetch: key → value, keys sorted. Keys are not secret;
/// values are [`SecretValue`]s, so `{:?}` of this is safe to print.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Fetched {
    pub values: BTreeMap<String, SecretValue>,
    /// Whether the answer had a `result` member that was not `null`.
    pub had_result: bool,
    /// The answer's other top-level keys, which Nomad ignores (`results`
    /// for `result`, say), each masked with the answer's strings.
    pub ignored: Vec<String>,
}

impl Fetched {
    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.values.keys().map(String::as_str)
    }

    /// Why a fetch that succeeded gave no keys: `result` missing (and the
    /// keys Nomad ignored instead), `null`, or empty. None when it gave
    /// some.
    pub fn why_empty(&self) -> Option<String> {
        if !self.is_empty() {
            return None;
        }
        Some(match (self.had_result, self.ignored.is_empty()) {
            (true, _) => "its answer's \"result\" is empty".to_string(),
            (false, true) => {
                "its answer has no \"result\" (a fetch answers {\"result\": {\"KEY\": \"value\"}})"
                    .to_string()
            }
            (false, false) => format!(
                "its answer has no \"result\", and Nomad ignores {} (a fetch answers \
                 {{\"result\": {{\"KEY\": \"value\"}}}})",
                self.ignored_words()
            ),
        })
    }

    /// "its key \"results\"", "its keys \"a\", \"b\"": the keys Nomad ignores.
    pub fn ignored_words(&self) -> String {
        const NAMED: usize = 6;
        let mut named: Vec<String> = self
            .ignored
            .iter()
            .take(NAMED)
            .map(|k| crate::escape::quote(k))
            .collect();
        if self.ignored.len() > NAMED {
            named.push(format!("and {} more", self.ignored.len() - NAMED));
        }
        format!(
            "its key{} {}",
            if self.ignored.len() == 1 { "" } else { "s" },
            named.join(", ")
        )
    }
}

/// Judges a fetch the way Nomad does, and says why it failed without ever
/// quoting stdout (it may hold values): every failure goes through
/// `Quote::Never` rules.
///
/// Nomad (client/commonplugins/secrets_plugin.go) decodes stdout with
/// `json.Unmarshal` into
///
/// ```go
/// type SecretResponse struct {
///     Result map[string]string `json:"result"`
///     Error  *string           `json:"error"`
/// }
/// ```
///
/// and the task's secret provider
/// (client/allocrunner/taskrunner/secrets/plugin_provider.go) fails on
/// `resp.Error != nil`. Hence:
/// - `error` is a pointer: `null` (or absent) is no error, any string,
///   `""` included, is one; a later `null` member resets an earlier string
///   (the last member decides, as in Go's decoder); a non-string,
///   non-null `error` is a decode error.
/// - `result` is a `map[string]string`: absent or `null` = no keys, a
///   `null` element is stored as `""` (Go's map decoding), any other
///   non-string element or a non-object `result` is a decode error
///   (both as [`responses::fetch`] decodes them).
/// - Nomad passes `&res` where `res` is already a `*SecretResponse`, so a
///   bare `null` document sets `res` to nil and the provider's
///   `resp.Error` dereferences a nil pointer: the client crashes. plugctl
///   fails it with that reason.
/// - Nomad discards stdout when the exit status is non-zero; plugctl reads
///   its `{"error"}` anyway and shows it (masked with any value the same
///   document carried).
///
/// `dialect`: whose words a decode error is in (the release's Go).
pub fn parse_fetch(
    dialect: Dialect,
    inv: &Invocation,
    out: &Outcome,
) -> Result<Fetched, PluginFailure> {
    let parsed = if out.stdout_dropped > 0 {
        None
    } else {
        json::parse_object(&out.stdout).ok()
    };
    // Whatever strings the document holds may be values: the plugin's own
    // error message is masked with them before plugctl shows it.
    let known: Vec<SecretValue> = parsed.as_ref().map(strings_of).unwrap_or_default();
    // Built once: a document may hold a hundred thousand strings, and as
    // many keys to mask with them.
    let masker = Masker::new(&known);
    let plugin_error = parsed
        .as_ref()
        .and_then(|o| o.string("error").ok().flatten())
        .filter(|m| !m.is_empty())
        .map(|m| masker.mask(&m));

    let capped = |f| crate::families::with_cap(out, f);
    if out.timed_out {
        return Err(capped(PluginFailure::TimedOut {
            deadline: inv.deadline,
            killed: out.killed,
            no_grace: inv.grace.is_zero(),
        }));
    }
    match out.termination {
        Termination::Exited(0) => {}
        Termination::Exited(code) => {
            return Err(capped(PluginFailure::Exit {
                code,
                message: plugin_error,
                hint: None,
            }));
        }
        Termination::Signaled(sig) => {
            return Err(capped(PluginFailure::Signaled {
                signal: signal_name(sig),
                message: plugin_error,
                hint: None,
            }));
        }
    }
    if !out.leftovers.is_empty() {
        return Err(PluginFailure::LeftBehind(crate::families::left_behind(
            &out.leftovers,
        )));
    }

    if out.stdout_dropped > 0 {
        return Err(PluginFailure::BadOutput(format!(
            "stdout exceeded the {} capture limit ({} more bytes dropped)",
            human_bytes(inv.stdout_limit as u64),
            out.stdout_dropped
        )));
    }
    let decoded = responses::fetch(&out.stdout, dialect)
        .map_err(|e| PluginFailure::BadOutput(describe_json_error(&e, &out.stdout)))?;
    let Some(resp) = decoded else {
        return Err(PluginFailure::BadOutput(
            "the output is a bare JSON null, not an object (on a Nomad node this crashes the \
             client: it dereferences the nil response)"
                .into(),
        ));
    };
    if let Some(message) = resp.error {
        return Err(PluginFailure::Response(if message.is_empty() {
            "the plugin returned \"error\": \"\"; any non-null error fails the fetch, an empty \
             one too (as on Nomad)"
                .to_string()
        } else {
            format!("the plugin reported an error: {}", masker.mask(&message))
        }));
    }
    // Top-level keys Nomad ignores: a `results` for `result` gives the task
    // no secret at all, and says nothing. Masked: a key is no value, but a
    // plugin may write one where a key goes.
    let ignored: Vec<String> = parsed
        .as_ref()
        .map(|o| {
            o.keys_unknown_to(&["result", "error"])
                .into_iter()
                .map(|k| masker.mask(k))
                .collect()
        })
        .unwrap_or_default();
    Ok(Fetched {
        had_result: resp.result.is_some(),
        ignored,
        values: resp
            .result
            .unwrap_or_default()
            .into_iter()
            .map(|(k, v)| (k, SecretValue::new(v)))
            .collect(),
    })
}

/// Every string value anywhere in a response document (not keys), except
/// the `error` message itself: what must be masked in text shown next to
/// it, when it is not known which of them are values (a failure accepted
/// no result, yet `result` may hold values).
pub fn strings_of(obj: &json::Object) -> Vec<SecretValue> {
    // "error" has no k or s, so ASCII folding is Go's folding here.
    let set: BTreeSet<String> = obj
        .strings_under(|key| !key.eq_ignore_ascii_case("error"))
        .into_iter()
        .collect();
    set.into_iter().map(SecretValue::new).collect()
}

/// The values that may appear in this call's stderr: every string of its
/// stdout document (on success that includes every value). `None` when
/// stdout holds something that is not one whole JSON document (cut short,
/// killed mid-write, not JSON): values may be in there but cannot be told
/// apart, so nothing that might repeat them can be shown safely. Empty
/// stdout is `None` too: a plugin that died (or timed out) before printing
/// may still have written a value it fetched to stderr.
pub fn candidate_values(out: &Outcome) -> Option<Vec<SecretValue>> {
    if out.stdout_dropped > 0 || trim_json_space(&out.stdout).is_empty() {
        return None;
    }
    json::parse_object(&out.stdout).ok().map(|o| strings_of(&o))
}

/// A JSON error as a message that cannot quote plugin output. Go's syntax
/// errors quote the offending character, which would be a byte of a value;
/// the offset is enough to find it.
fn describe_json_error(e: &JsonError, stdout: &[u8]) -> String {
    match e {
        JsonError::Syntax { offset, message } => {
            let what = if *offset == 0 && stdout.starts_with(b"\xef\xbb\xbf") {
                " (a byte-order mark)".to_string()
            } else {
                syntax_context(message)
                    .map(|c| format!(" ({c})"))
                    .unwrap_or_default()
            };
            format!(
                "not valid JSON: syntax error at byte {offset}{what} (stdout is not quoted: it may \
                 hold secret values)"
            )
        }
        JsonError::UnexpectedEnd { .. } if stdout.iter().all(u8::is_ascii_whitespace) => {
            "unexpected end of JSON input (stdout was empty)".into()
        }
        // The others name kinds, fields, map keys and offsets only.
        other => other.to_string(),
    }
}

/// Where a Go syntax error happened, without the character it quotes:
/// `invalid character 'x' after top-level value` gives `after top-level
/// value` (a second document), `looking for beginning of value` (text
/// before the JSON), and so on.
fn syntax_context(message: &str) -> Option<&str> {
    let quoted = message.strip_prefix("invalid character '")?;
    // The character is quoted Go-style (`'\''` for a quote): the quote that
    // ends it is the first one followed by a space.
    let end = quoted
        .char_indices()
        .skip(1)
        .find_map(|(i, c)| (c == '\'' && quoted[i + 1..].starts_with(' ')).then_some(i + 2))?;
    Some(&quoted[end..]).filter(|c| !c.is_empty())
}

fn trim_json_space(b: &[u8]) -> &[u8] {
    let ws = |c: &u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r');
    let start = b.iter().position(|c| !ws(c)).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !ws(c)).map_or(start, |i| i + 1);
    &b[start..end]
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::runner::Termination;

    /// The newest release's deadline.
    const DEADLINE: Duration = crate::nomad::SECRETS_DEADLINE_LONG;

    #[test]
    fn syntax_errors_say_where_without_quoting_output() {
        let fails = |stdout: &str| {
            parse_fetch(Dialect::NEWEST, &inv(), &Outcome::exited(0, stdout))
                .unwrap_err()
                .to_string()
        };
        let two = fails(r#"{"result": {"k": "hunter2"}}{"result": {}}"#);
        assert!(two.contains("at byte 28 (after top-level value)"), "{two}");
        let log = fails("hunter2 says hello");
        assert!(log.contains("(looking for beginning of value)"), "{log}");
        let bom = fails("\u{feff}{}");
        assert!(bom.contains("(a byte-order mark)"), "{bom}");
        for m in [two, log, bom] {
            assert!(!m.contains("hunter2") && !m.contains("'h'"), "{m}");
        }
        assert_eq!(
            syntax_context(r"invalid character '\'' after object key"),
            Some("after object key")
        );
        assert_eq!(
            syntax_context("invalid character ' ' in literal true (expecting 'r')"),
            Some("in literal true (expecting 'r')")
        );
        assert_eq!(syntax_context("something else"), None);
    }

    pub(crate) fn inv() -> Invocation {
        fetch_invocation(
            Path::new("/p"),
            &FetchRequest {
                path: "a".into(),
                ..Default::default()
            },
            DEADLINE,
            Duration::from_secs(2),
        )
    }

    pub(crate) fn fetch(code: i32, stdout: &str) -> Result<Fetched, PluginFailure> {
        parse_fetch(Dialect::NEWEST, &inv(), &Outcome::exited(code, stdout))
    }

    fn values(f: &Fetched) -> Vec<(&str, &str)> {
        f.values
            .iter()
            .map(|(k, v)| (k.as_str(), v.expose()))
            .collect()
    }

    pub(crate) const SECRET: &str = "s3cr3t-VALUE-42";

    fn assert_no_secret(r: Result<Fetched, PluginFailure>) -> String {
        let msg = r.expect_err("must fail").to_string();
        assert!(!msg.contains(SECRET), "{msg}");
        assert!(!msg.contains("s3cr3t"), "{msg}");
        msg
    }

    #[test]
    fn invocation_argv_and_env() {
        let req = FetchRequest {
            path: "-x".into(),
            env: vec![
                ("A".into(), "1".into()),
                ("B".into(), "2".into()),
                ("A".into(), "3".into()),
                ("NOMAD_JOB_ID".into(), "from-env".into()),
            ],
            job_id: Some("job".into()),
            namespace: Some("ns".into()),
        };
        let inv = fetch_invocation(Path::new("/p"), &req, DEADLINE, Duration::from_secs(2));
        assert_eq!(inv.args, vec!["fetch", "-x"]);
        let env: Vec<(String, String)> = inv
            .env
            .iter()
            .map(|(k, v)| {
                (
                    k.to_string_lossy().into_owned(),
                    v.to_string_lossy().into_owned(),
                )
            })
            .collect();
        let pairs = |p: &[(&str, &str)]| -> Vec<(String, String)> {
            p.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        assert_eq!(
            env,
            pairs(&[
                ("CPI_OPERATION", "fetch"),
                ("B", "2"),
                ("A", "3"),
                ("NOMAD_JOB_ID", "job"),
                ("NOMAD_NAMESPACE", "ns"),
            ])
        );
        assert_eq!(inv.deadline, DEADLINE);
    }

    #[test]
    fn dedup_is_gos() {
        let p = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        assert_eq!(
            dedup_env(p(&[("A", "1"), ("a", "2"), ("B", "3"), ("A", "4")])),
            p(&[("a", "2"), ("B", "3"), ("A", "4")])
        );
        let only = vec![("CPI_OPERATION".into(), "x".into())];
        let inv = fetch_invocation(
            Path::new("/p"),
            &FetchRequest {
                path: "p".into(),
                env: only,
                ..Default::default()
            },
            DEADLINE,
            DEADLINE,
        );
        assert_eq!(inv.env.len(), 1);
        assert_eq!(inv.env[0].1, "x");
    }

    #[test]
    fn success_shapes() {
        let f = fetch(0, r#"{"result": {"B": "2", "A": "1"}}"#).unwrap();
        assert_eq!(values(&f), vec![("A", "1"), ("B", "2")]);
        for empty in [
            "{}",
            r#"{"result": null}"#,
            r#"{"result": {}}"#,
            r#"{"result": {"A": "1"}, "result": null}"#,
            r#"{"error": null}"#,
            " \n{\"result\": null, \"error\": null}\n",
        ] {
            assert!(fetch(0, empty).unwrap().is_empty(), "{empty}");
        }
        // A later null error resets an earlier one: *string semantics.
        let f = fetch(0, r#"{"error": "x", "ERROR": null, "result": {"K": "v"}}"#).unwrap();
        assert_eq!(values(&f), vec![("K", "v")]);
        // Keys fold case; map keys do not; a null element is "".
        let f = fetch(
            0,
            r#"{"RESULT": {"k": "1", "K": "2", "n": null}, "Result": {"k": "3"}}"#,
        )
        .unwrap();
        assert_eq!(values(&f), vec![("K", "2"), ("k", "3"), ("n", "")]);
        // Unknown keys are ignored.
        assert_eq!(fetch(0, r#"{"result": {}, "x": [1]}"#).unwrap().len(), 0);
    }

    #[test]
    fn error_fields() {
        let msg = fetch(0, r#"{"error": ""}"#).unwrap_err().to_string();
        assert!(msg.contains(r#""error": """#), "{msg}");
        let msg = fetch(0, r#"{"result": {"A": "1"}, "error": "not found"}"#)
            .unwrap_err()
            .to_string();
        assert!(msg.contains("not found"), "{msg}");
        let msg = fetch(0, r#"{"error": null, "error": "late"}"#)
            .unwrap_err()
            .to_string();
        assert!(msg.contains("late"), "{msg}");
        let msg = fetch(0, r#"{"error": 5}"#).unwrap_err().to_string();
        assert!(
            msg.contains("cannot unmarshal number into Go struct field SecretResponse.error"),
            "{msg}"
        );
        // A non-zero exit still shows {"error"}, masked with the document's values.
        let e = fetch(
            3,
            &format!(r#"{{"result": {{"K": "{SECRET}"}}, "error": "bad {SECRET}"}}"#),
        )
        .unwrap_err();
        assert_eq!(
            e,
            PluginFailure::Exit {
                code: 3,
                message: Some("bad ****".into()),
                hint: None
            }
        );
        assert_eq!(
            fetch(1, "not json").unwrap_err(),
            PluginFailure::Exit {
                code: 1,
                message: None,
                hint: None
            }
        );
    }

    #[test]
    fn failures_never_quote_values() {
        let cases = [
            format!(r#"{{"result": "{SECRET}"}}"#),
            format!(r#"{{"result": {{"A": "{SECRET}", "B": 5}}}}"#),
            format!(r#"{{"result": {{"A": "{SECRET}"}}"#),
            format!(r#"{{"result": {{"A": {SECRET}}}}}"#),
            SECRET.to_string(),
            format!(r#""{SECRET}""#),
            format!(r#"{{"result": {{"A": "{SECRET}"}}}} trailing"#),
            format!(r#"{{"result": {{"A": "{SECRET}"}}, "error": ["{SECRET}"]}}"#),
            format!(r#"{{"result": [{{"A": "{SECRET}"}}]}}"#),
            format!(r#"{{"result": {{"A": "{SECRET}"}}, "error": "{SECRET}"}}"#),
            r#"{"result": {"A": 1e400}}"#.into(),
            "null".into(),
            "".into(),
        ];
        for c in &cases {
            let msg = assert_no_secret(fetch(0, c));
            assert!(!msg.is_empty(), "{c}");
        }
        let msg = assert_no_secret(fetch(
            0,
            &format!(r#"{{"result": {{"A": "{SECRET}", "B": 5}}}}"#),
        ));
        assert!(msg.contains("\"B\""), "names the key: {msg}");
        let msg = assert_no_secret(fetch(0, "null"));
        assert!(msg.contains("crashes"), "{msg}");
        let msg = assert_no_secret(fetch(0, ""));
        assert!(msg.contains("empty"), "{msg}");
        let msg = assert_no_secret(fetch(0, r#"{"result": {"A": 1e400}}"#));
        assert!(!msg.contains("1e400"), "{msg}");
    }

    #[test]
    fn timeouts_signals_and_floods() {
        let mut out = Outcome::exited(0, &format!(r#"{{"result": {{"A": "{SECRET}"}}}}"#));
        out.timed_out = true;
        out.termination = Termination::Signaled(15);
        assert!(
            parse_fetch(Dialect::NEWEST, &inv(), &out)
                .unwrap_err()
                .is_timeout()
        );
        let mut out = Outcome::exited(0, &format!(r#"{{"result": {{"A": "{SECRET}"}}"#));
        out.termination = Termination::Signaled(9);
        let msg = assert_no_secret(parse_fetch(Dialect::NEWEST, &inv(), &out));
        assert!(msg.contains("SIGKILL"), "{msg}");
        let mut out = Outcome::exited(0, &format!(r#"{{"result": {{"A": "{SECRET}"}}}}"#));
        out.stdout_dropped = 10;
        let msg = assert_no_secret(parse_fetch(Dialect::NEWEST, &inv(), &out));
        assert!(msg.contains("capture limit"), "{msg}");
    }
}

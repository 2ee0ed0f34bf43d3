//! A seventeenth fresh-eyes attack on issue #34 ("safe to consume, safe
//! to run"), through the real binary, after review34.rs to review34w.rs,
//! aimed at what plugctl prints and where secret values go: each test
//! here is an attack that found a way through.

use std::fs;

use crate::common::*;

/// `-v` shows a fetch's stderr with every value masked in "raw and
/// JSON-escaped form", but the escaped forms were a list of encoders'
/// habits (Go's `json.Marshal`, Python's `json.dumps`), and every other
/// encoder escapes other characters, each as JSON allows: Go's own
/// `log/slog` JSON handler leaves `<` alone but writes U+2028 as
/// `\u2028`; Java's Gson writes `=` and `'` as `\u003d` and `\u0027`, so
/// the padding of every base64 secret; .NET's System.Text.Json writes `+`
/// as `\u002B`; PHP's `json_encode` writes `/` as `\/`. A base64 token such
/// a plugin logged was shown whole on the operator's terminal and in its
/// own `{"error"}` text. The text is now read as JSON reads it, every
/// escape JSON allows decoded wherever it is, so any mix is masked.
#[test]
fn a_value_any_json_encoder_logs_is_masked_on_stderr_and_in_its_error() {
    let s = Rig::new();
    let token = "dG9r+ZW4/YQ==";
    let note = "it's a<b\u{2028}";
    let forms = [
        // Gson
        r"dG9r+ZW4/YQ\u003d\u003d",
        // System.Text.Json
        r"dG9r\u002BZW4/YQ==",
        // PHP
        r"dG9r+ZW4\/YQ==",
        // all at once, hex in capitals
        r"dG9r\u002BZW4\/YQ\u003D=",
        // log/slog
        r"it's a<b\u2028",
        // Gson
        r"it\u0027s a\u003cb\u2028",
    ];
    let logged: String = forms
        .iter()
        .map(|f| format!("{{\"level\":\"DEBUG\",\"value\":\"{f}\"}}\n"))
        .collect();
    fs::write(s.out_file("stderr"), &logged).unwrap();
    let answer = serde_json::json!({ "result": { "TOKEN": token, "NOTE": note } });
    fs::write(s.out_file("ok"), answer.to_string()).unwrap();
    let failed = serde_json::json!({
        "result": { "TOKEN": token, "NOTE": note },
        "error": format!("denied: {{\"v\":\"{}\",\"w\":\"{}\"}}", forms[0], forms[4]),
    });
    fs::write(s.out_file("failed"), failed.to_string()).unwrap();
    s.plugin(
        "secrets",
        "anystore",
        &format!(
            "[ \"$1\" = fingerprint ] && echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' && exit 0\n\
             /usr/bin/cat '{out}/stderr' >&2\n\
             [ \"$2\" = bad ] && /usr/bin/cat '{out}/failed' && exit 1\n\
             /usr/bin/cat '{out}/ok'",
            out = s.out_file("").display()
        ),
    );
    // What a terminal shows of a form: control characters escaped.
    let leaked = |text: &str| {
        forms
            .iter()
            .map(|f| f.to_string())
            .chain([token.to_string(), "a<b\\u{2028}".to_string()])
            .find(|f| text.contains(f.as_str()))
    };
    let out = plugctl(&s)
        .args([
            "secret", "fetch", "anystore", "app", "--format", "json", "-v",
        ])
        .succeeds();
    let err = out.stderr();
    assert_eq!(
        err.matches("\"value\":\"****\"").count(),
        forms.len(),
        "every form masked: {err}"
    );
    assert_eq!(leaked(&err), None, "a value's JSON form on stderr: {err}");
    let out = plugctl(&s)
        .args(["secret", "fetch", "anystore", "bad", "-v"])
        .fails_with(Exit::Failure)
        .stderr_has("denied: {\"v\":\"****\",\"w\":\"****\"}");
    let err = out.stderr();
    assert_eq!(
        leaked(&err),
        None,
        "a value's JSON form in the error: {err}"
    );
}

/// A secrets plugin's answer could hold as many strings as fit in the
/// 4 MiB plugctl reads, and each was searched for on its own in each text
/// it masked: in each of the top-level keys Nomad ignores (named, masked,
/// in a warning), in the plugin's `{"error"}` text and in its stderr. An
/// answer of twenty thousand `"kN": "vN"` members, exit 0, no `-v`, kept
/// `secret fetch` spinning for more than fourteen minutes (deaf to the
/// SIGTERM of `timeout`), and the 4 MiB of a real flood for hours; listing
/// the ignored keys was quadratic too. Every value is now searched for at
/// once, by one automaton built once per answer.
#[test]
fn an_answer_with_many_strings_does_not_make_the_fetch_spin() {
    let s = Rig::new();
    let mut doc = serde_json::Map::new();
    doc.insert("result".into(), serde_json::json!({ "A": "v1" }));
    for i in 0..20_000 {
        doc.insert(format!("k{i}"), format!("v{i}").into());
    }
    fs::write(
        s.out_file("many.json"),
        serde_json::Value::Object(doc).to_string(),
    )
    .unwrap();
    fs::write(s.out_file("stderr"), "fetched v1 and v19999\n".repeat(2000)).unwrap();
    s.plugin(
        "secrets",
        "many",
        &format!(
            "[ \"$1\" = fingerprint ] && echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' && exit 0\n\
             /usr/bin/cat '{out}/stderr' >&2\n\
             /usr/bin/cat '{out}/many.json'",
            out = s.out_file("").display()
        ),
    );
    // A hang guard, not a timing: the fix takes well under a second.
    let out = plugctl(&s)
        .args(["secret", "fetch", "many", "app", "--format", "json", "-v"])
        .deadline(std::time::Duration::from_secs(120))
        .succeeds();
    assert!(out.stdout().contains("\"A\""), "{}", out.stdout());
    let err = out.stderr();
    // Each ignored key is named, and masked where a key is some value.
    assert!(
        err.contains("\"k0\"") && err.contains("and 19994 more"),
        "the ignored keys named: {}",
        &err[..err.len().min(2000)]
    );
    assert!(
        err.contains("fetched **** and ****") && !err.contains("v19999"),
        "stderr masked: {}",
        &err[..err.len().min(2000)]
    );
}

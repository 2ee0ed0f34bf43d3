//! A nineteenth fresh-eyes attack on issue #34 ("safe to consume, safe
//! to run"), through the real binary, after review34.rs to review34aa.rs:
//! each test here is an attack that found a way through.

use std::fs;

use crate::common::*;

/// Runs `secret fetch -v` on a secrets plugin that answers `TOKEN: token`
/// and first writes `line` on stderr, with enough after it that the kept
/// 64 KiB tail begins just after `cut_after`; returns plugctl's stderr.
fn fetch_with_tail_cut(s: &Rig, token: &str, line: &str, cut_after: &str) -> String {
    let limit = 64 << 10;
    let kept = &line[line.find(cut_after).unwrap() + cut_after.len()..];
    let mut stderr = "x".repeat(1000);
    stderr.push('\n');
    stderr.push_str(line);
    // Short lines after it, so the kept tail starts exactly at the cut.
    let filler = limit - kept.len();
    let short = format!("{}\n", "y".repeat(63));
    stderr.push_str(&"y".repeat(filler % 64));
    stderr.push_str(&short.repeat(filler / 64));
    fs::write(s.out_file("stderr"), &stderr).unwrap();
    let answer = serde_json::json!({ "result": { "TOKEN": token } });
    fs::write(s.out_file("ok"), answer.to_string()).unwrap();
    s.plugin(
        "secrets",
        "netstore",
        &format!(
            "[ \"$1\" = fingerprint ] && echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' && exit 0\n\
             /usr/bin/cat '{out}/stderr' >&2\n\
             /usr/bin/cat '{out}/ok'",
            out = s.out_file("").display()
        ),
    );
    let out = plugctl(s)
        .args([
            "secret", "fetch", "netstore", "app", "--format", "json", "-v",
        ])
        .succeeds();
    let err = out.stderr();
    assert!(err.contains("the last 65536 shown"), "{err}");
    err
}

/// Round 18 read a kept stderr tail that begins inside an escape as the
/// end of some escape, but only when the tail begins with a short
/// escape's letter or hex digits. A value holding a backslash (a Windows
/// path, a regular expression) is logged with it doubled (`\\`); a cut
/// between the two leaves a tail that begins with a lone backslash, which
/// the JSON reading then joins with the next letter (`\t` read as a tab),
/// so the value's end was never found, and when the encoder also escaped
/// a character no habit list holds (.NET's `\u002B` for `+`), the rest of
/// the value was shown from the cut on. A tail that begins with a
/// backslash is now also read as the second half of an escaped one.
#[test]
fn a_tail_cut_between_an_escaped_backslashs_halves_hides_the_rest_of_the_value() {
    let s = Rig::new();
    let token = r"C:\temp\tk+c2VjcmV0LXRhaWwtb2YtdGhlLXRva2Vu";
    // System.Text.Json: the backslashes doubled, `+` as `\u002B`.
    let written = r"C:\\temp\\tk\u002Bc2VjcmV0LXRhaWwtb2YtdGhlLXRva2Vu";
    let line = format!("{{\"level\":\"DEBUG\",\"token\":\"{written}\"}}\n");
    // Cut after the first half of the second `\\`.
    let err = fetch_with_tail_cut(&s, token, &line, r"C:\\temp\");
    assert!(
        !err.contains("c2VjcmV0LXRhaWwtb2Yt"),
        "the rest of the token after a cut inside an escaped backslash: {err}"
    );
    assert!(err.contains("****\"}"), "{err}");
}

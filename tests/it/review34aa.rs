//! An eighteenth fresh-eyes attack on issue #34 ("safe to consume, safe
//! to run"), through the real binary, after review34.rs to review34z.rs,
//! aimed at round 17's newest code: each test here is an attack that
//! found a way through.

use std::fs;

use crate::common::*;

/// `secret fetch -v` keeps the last 64 KiB of a plugin's stderr, so the
/// kept tail may begin inside a value, and inside a `\uXXXX` escape in
/// that value. Round 17 decoded every escape JSON allows anywhere in the
/// text, but a tail cut inside an escape fell back to a list of encoders'
/// habits (Go's HTML escapes, Python's ASCII ones): .NET's
/// System.Text.Json writes `+` as `\u002B`, Gson `=` as `\u003d`, so a
/// base64 token such a plugin logged, cut after `\u0`, showed the rest of
/// the token (`02B` and everything after it) on the operator's terminal.
/// A tail that begins with the end of a `\uXXXX` escape is now read as
/// that escape's character followed by the rest, whatever the encoder.
#[test]
fn a_tail_cut_inside_any_encoders_escape_hides_the_rest_of_the_value() {
    let s = Rig::new();
    let token = "dG9r+c2VjcmV0LXRhaWwtb2YtdGhlLXRva2Vu=";
    let limit = 64 << 10;
    for (written, cut_after) in [
        // System.Text.Json, cut after `\u0`
        (r"dG9r\u002Bc2VjcmV0LXRhaWwtb2YtdGhlLXRva2Vu=", r"dG9r\u0"),
        // Gson, cut after `\u00`
        (
            r"dG9r\u002bc2VjcmV0LXRhaWwtb2YtdGhlLXRva2Vu\u003d",
            r"dG9r\u00",
        ),
        // cut after `\`
        (r"dG9r\u002Bc2VjcmV0LXRhaWwtb2YtdGhlLXRva2Vu=", r"dG9r\"),
        // cut after `\u00`
        (r"dG9r\u002Bc2VjcmV0LXRhaWwtb2YtdGhlLXRva2Vu=", r"dG9r\u00"),
    ] {
        let line = format!("{{\"level\":\"DEBUG\",\"token\":\"{written}\"}}\n");
        let kept = &line[line.find(cut_after).unwrap() + cut_after.len()..];
        let mut stderr = "x".repeat(1000);
        stderr.push('\n');
        stderr.push_str(&line);
        // Short lines after it, so the kept tail starts exactly at the cut.
        let filler = limit - kept.len();
        let line = format!("{}\n", "y".repeat(63));
        stderr.push_str(&"y".repeat(filler % 64));
        stderr.push_str(&line.repeat(filler / 64));
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
        let out = plugctl(&s)
            .args([
                "secret", "fetch", "netstore", "app", "--format", "json", "-v",
            ])
            .succeeds();
        let err = out.stderr();
        assert!(err.contains("the last 65536 shown"), "{err}");
        assert!(
            !err.contains("c2VjcmV0LXRhaWwtb2Yt"),
            "the rest of the token after a cut inside {written}: {err}"
        );
        assert!(err.contains("****\"}"), "{err}");
    }
}

//! Output that fits (issue 33 §2), through the real binary on a
//! pseudo-terminal 80 columns wide: tables cut to the terminal's width
//! (columns that say nothing left out, free text cut with `…`), progress
//! lines that never wrap and leave nothing behind, whole lines off a
//! terminal, and the `-o` forms.

use crate::common::*;

const COLS: usize = 80;

const WEB: &str = "0b5e2c1a-1111-4222-8333-444455556666";
const WIDE: &str = "0b5e2c1b-1111-4222-8333-444455556666";
const EVIL: &str = "7f000000-1111-4222-8333-444455556666";
const HALF: &str = "7f000001-1111-4222-8333-444455556666";

/// What a terminal `cols` wide shows once `text` is written to it: its
/// lines, by the controls plugctl writes (CR, LF, erase the line, colours)
/// with the wrap at the right margin that every terminal does.
pub fn screen(text: &str, cols: usize) -> Vec<String> {
    let mut lines: Vec<Vec<char>> = vec![Vec::new()];
    let (mut row, mut col) = (0usize, 0usize);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => col = 0,
            '\n' => {
                row += 1;
                col = 0;
            }
            '\x1b' if chars.peek() == Some(&'[') => {
                chars.next();
                let mut params = String::new();
                let mut end = ' ';
                for c in chars.by_ref() {
                    if c.is_ascii_alphabetic() {
                        end = c;
                        break;
                    }
                    params.push(c);
                }
                if end == 'K' {
                    lines.resize(row + 1, Vec::new());
                    match params.as_str() {
                        "2" => lines[row].clear(),
                        _ => lines[row].truncate(col),
                    }
                }
            }
            c => {
                let w = plugctl::output::display_width(c.encode_utf8(&mut [0; 4]));
                if col + w > cols {
                    row += 1;
                    col = 0;
                }
                lines.resize(row + 1, Vec::new());
                let line = &mut lines[row];
                if line.len() < col {
                    line.resize(col, ' ');
                }
                line.truncate(col);
                line.push(c);
                // A wide character takes two cells: the second is empty.
                if w == 2 {
                    line.push('\0');
                }
                col += w;
            }
        }
    }
    let mut out: Vec<String> = lines
        .into_iter()
        .map(|l| {
            l.into_iter()
                .filter(|c| *c != '\0')
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect();
    while out.last().is_some_and(String::is_empty) {
        out.pop();
    }
    out
}

/// The rig's volumes: `web-data`, one with a name in wide characters, one
/// whose name holds an escape sequence, and one a failed create left
/// pending (its NOTE says so).
fn four_volumes(s: &Rig) {
    for (id, name) in [
        (WEB, "web-data"),
        (WIDE, "日本語のボリューム名"),
        (EVIL, "evil\x1b[2J\x1b]0;pwned\x07-name"),
    ] {
        create_volume(s, &["--plugin", "mkdir", "--name", name, "--id", id]);
    }
    s.hv_script("half", "echo not-json", "exit 0");
    plugctl(s)
        .args(["volume", "create", "--plugin", "half", "--name", "half"])
        .args(["--id", HALF])
        .fails_with(Exit::Failure);
}

/// `plugctl ARGS` on a terminal 80 columns wide: what it shows, lines as
/// the screen has them.
fn on_80_columns(s: &Rig, args: &str) -> Option<Vec<String>> {
    let run = plugctl_on_a_terminal_of(s, COLS as u16, &format!("--color never {args}"))?;
    Some(screen(&run.any_exit().stdout(), COLS))
}

#[test]
fn a_volume_table_on_an_80_column_terminal_fits_it_and_a_pipe_gets_whole_lines() {
    let s = Rig::new();
    four_volumes(&s);
    let Some(shown) = on_80_columns(&s, "volume list") else {
        return;
    };
    // The id is what identifies a row; PATH is for -o wide (`volume show`
    // has it); the free text (names, the note) gives way, each cut by its
    // display width with `…`; the escape in a name is shown, never obeyed,
    // and never cut inside; a wide character is never split.
    let expected = [
        "ID        NAME               NAMESPACE  PLUGIN  STATE    SIZE  NOTE",
        "7f000000  evil\\u{1b}[2J…     default    mkdir   ready    0 B",
        "7f000001  half               default    half    pending  0 B   create failed: b…",
        "0b5e2c1a  web-data           default    mkdir   ready    0 B",
        "0b5e2c1b  日本語のボリュー…  default    mkdir   ready    0 B",
    ];
    assert_eq!(shown, expected, "\n{}", shown.join("\n"));
    for line in &shown {
        assert!(
            plugctl::output::display_width(line) <= COLS,
            "{line:?} is wider than {COLS}"
        );
    }
    // -o wide, and a pipe: every column and every cell whole.
    let wide = on_80_columns(&s, "volume list -o wide").unwrap();
    assert!(
        wide.iter().any(|l| l.contains(&format!("/volumes/{WEB}"))),
        "{wide:#?}"
    );
    let piped = plugctl(&s).args(["volume", "list"]).succeeds().stdout();
    assert!(piped.contains(&format!("/volumes/{WEB}\n")), "{piped}");
    assert!(piped.contains("日本語のボリューム名"), "{piped}");
    assert!(
        piped.contains("create failed: ") && piped.contains("; run volume repair\n"),
        "{piped}"
    );
    assert!(!piped.contains('…'), "{piped}");
}

#[test]
fn columns_that_say_nothing_are_left_out_on_a_terminal_and_kept_on_a_pipe() {
    let s = Rig::new();
    s.hv_ok("dir", "1.0.0");
    s.plugin(
        "host-volume",
        "broken",
        "echo 'this plugin fails with a long explanation of what went wrong, and where, and why' >&2; exit 3",
    );
    plugctl(&s).args(["fingerprint"]).fails_with(Exit::Failure);
    let Some(shown) = on_80_columns(&s, "plugin list") else {
        return;
    };
    // SOCKET (no dynamic plugin) says nothing; FROM and DURATION are for
    // -o wide; REASON is cut to the line.
    let head = &shown[0];
    assert!(
        head.starts_with("TYPE  ") && head.contains("  CHECKED  ") && head.ends_with("  REASON"),
        "{shown:#?}"
    );
    for gone in ["SOCKET", "FROM", "DURATION"] {
        assert!(!head.contains(gone), "{shown:#?}");
    }
    let broken = shown.iter().find(|l| l.contains("broken")).unwrap();
    assert!(broken.ends_with('…'), "{shown:#?}");
    assert!(
        shown
            .iter()
            .all(|l| plugctl::output::display_width(l) <= COLS),
        "{shown:#?}"
    );
    // On a pipe: every column, the reason whole.
    let piped = plugctl(&s).args(["plugin", "list"]).succeeds().stdout();
    let head = piped.lines().next().unwrap();
    for kept in ["SOCKET", "FROM", "DURATION"] {
        assert!(head.contains(kept), "{piped}");
    }
    assert!(piped.contains("and where, and why"), "{piped}");
}

#[test]
fn a_slow_creates_progress_line_fits_the_terminal_and_leaves_nothing_behind() {
    let s = Rig::new();
    s.hv_script(
        "slow",
        r#"sleep 2.5; mkdir -p "$v" && printf '{"path": "%s", "bytes": 0}' "$v""#,
        r#"rm -rf "$v""#,
    );
    let name = "a-volume-whose-name-makes-the-progress-line-longer-than-eighty-columns";
    // Only stderr on the terminal: the progress line and what replaces it.
    let Some(run) = plugctl_on_a_terminal_of(
        &s,
        COLS as u16,
        &format!("volume create --plugin slow --name {name} >/dev/null"),
    ) else {
        return;
    };
    let raw = run.succeeds().stdout();
    let drawn: Vec<&str> = raw.split("\r\x1b[2K").skip(1).collect();
    assert!(
        drawn
            .iter()
            .filter(|d| d.contains("volume create: running"))
            .count()
            >= 2,
        "the line is drawn each second: {raw:?}"
    );
    for d in &drawn {
        assert!(
            plugctl::output::display_width(d) < COLS,
            "a progress line of {} columns wraps: {d:?}",
            plugctl::output::display_width(d)
        );
    }
    // Once done, the screen holds nothing of it.
    let left = screen(&raw, COLS);
    assert!(left.is_empty(), "left on the screen: {left:#?}");
}

#[test]
fn a_message_while_a_progress_line_is_shown_starts_on_a_clean_line() {
    let s = Rig::new();
    s.hv_script(
        "slow",
        r#"sleep 1.5; echo "slow: ready" >&2; mkdir -p "$v" && printf '{"path": "%s", "bytes": 0}' "$v""#,
        r#"rm -rf "$v""#,
    );
    let Some(run) = plugctl_on_a_terminal_of(
        &s,
        COLS as u16,
        "-vv volume create --plugin slow --name v >/dev/null",
    ) else {
        return;
    };
    let shown = screen(&run.succeeds().stdout(), COLS);
    assert!(
        shown.iter().all(|l| !l.contains("volume create: running")),
        "{shown:#?}"
    );
    assert!(
        shown.iter().any(|l| l.starts_with("plugctl: running ")),
        "{shown:#?}"
    );
}

#[test]
fn output_forms_name_json_and_wide() {
    let s = Rig::new();
    four_volumes(&s);
    // -o name: one whole id a line, for xargs.
    let out = plugctl(&s)
        .args(["volume", "list", "-o", "name"])
        .succeeds()
        .stdout();
    // In the table's order: by namespace, then name.
    assert_eq!(out, format!("{EVIL}\n{HALF}\n{WEB}\n{WIDE}\n"));
    let id = plugctl(&s)
        .args([
            "volume", "create", "--plugin", "mkdir", "--name", "new", "-o", "name",
        ])
        .succeeds()
        .stdout();
    assert_eq!(id.trim().len(), 36, "{id}");
    // Asked for by a script: printed with -q too, as --json is.
    let id = plugctl(&s)
        .args([
            "-q", "volume", "create", "--plugin", "mkdir", "--name", "quiet", "-o", "name",
        ])
        .succeeds()
        .stderr_empty()
        .stdout();
    assert_eq!(id.trim().len(), 36, "{id}");
    plugctl(&s)
        .args(["volume", "show", "web-data", "--output", "name"])
        .succeeds()
        .stdout_has(&format!("{WEB}\n"));
    s.hv_ok("dir", "1.0.0");
    let names = plugctl(&s)
        .args(["fingerprint", "-o", "name"])
        .succeeds()
        .stdout();
    assert!(names.lines().any(|l| l == "host-volume/dir"), "{names}");
    assert!(names.lines().any(|l| l == "host-volume/mkdir"), "{names}");
    plugctl(&s)
        .args(["plugin", "list", "-o", "name", "--type", "host-volume"])
        .succeeds()
        .stdout_has("host-volume/dir\n");
    // -o json is --json, the same document.
    let a = plugctl(&s)
        .args(["volume", "list", "-o", "json"])
        .succeeds()
        .json();
    let b = plugctl(&s)
        .args(["--json", "volume", "list"])
        .succeeds()
        .json();
    assert_eq!(a, b);
    // A usage error with -o json is a JSON error document too.
    plugctl(&s)
        .args(["volume", "list", "-o", "json", "--state", "nope"])
        .fails_with(Exit::Usage)
        .error_kind("usage");
    // Two forms at once are refused, saying which.
    plugctl(&s)
        .args(["--json", "volume", "list", "-o", "table"])
        .fails_with(Exit::Usage)
        .stderr_has("--json and -o table ask for two forms of output");
    plugctl(&s)
        .args(["volume", "list", "-o", "name", "--wide"])
        .fails_with(Exit::Usage);
    // --wide is -o wide.
    let Some(wide) = on_80_columns(&s, "volume list --wide") else {
        return;
    };
    assert!(
        wide.join("\n").contains(&format!("/volumes/{WEB}")),
        "{wide:#?}"
    );
}

#[test]
fn the_screen_model_wraps_and_erases_as_a_terminal_does() {
    // A line longer than the terminal wraps; CR and erase clear only the
    // last of its rows: what left stale copies of a progress line.
    let long = "x".repeat(100);
    let shown = screen(&format!("\r\x1b[2K{long}\r\x1b[2Kshort"), 80);
    assert_eq!(shown, ["x".repeat(80), "short".to_string()]);
    assert_eq!(screen("日本\r\x1b[2K", 80), Vec::<String>::new());
}

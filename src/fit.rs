//! Output that fits a terminal: how wide it is, which table columns give
//! way when a table is wider (free text, cut with `…`), and the cut itself.
//!
//! On a terminal a table is as wide as the terminal at most: columns empty
//! in every row are left out, so are the columns only `-o wide` shows, and
//! the free-text columns (REASON, NOTE, PATH, ...) are cut, the widest
//! first. Off a terminal (a pipe, a file) nothing is cut or left out: a
//! script gets whole lines and the same columns whatever the data.
//!
//! A cell is cut where a terminal shows it: by display width (a wide
//! character is two columns and is never split), after the escaping that
//! makes a control byte visible (`\u{1b}` is six columns and is kept or
//! dropped whole, never cut inside, whether plugctl escaped it here or the
//! cell came escaped).

use std::borrow::Cow;
use std::os::fd::AsFd;

use crate::output::{display_width, escape_untrusted};

/// The mark a cut cell ends (or starts) with.
pub const ELLIPSIS: char = '…';

/// A cut column keeps at least this many columns (or its header's width,
/// when wider, or its widest cell's, when narrower).
pub const MIN_CUT: usize = 8;

/// The width of the terminal `fd` is, when it is one: what the kernel says
/// (TIOCGWINSZ), else `COLUMNS`, else 80.
pub fn terminal_width(fd: impl AsFd) -> Option<usize> {
    if !rustix::termios::isatty(&fd) {
        return None;
    }
    let from_kernel = rustix::termios::tcgetwinsize(&fd)
        .ok()
        .map(|w| usize::from(w.ws_col))
        .filter(|&w| w > 0);
    let from_env = || {
        std::env::var("COLUMNS")
            .ok()?
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|&w| w > 0)
    };
    Some(from_kernel.or_else(from_env).unwrap_or(80))
}

/// Which end of a cell gives way when it is cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// Free text: its start is kept, `…` ends it.
    End,
    /// A path: its end (the file's own name) is kept, `…` starts it.
    Start,
}

/// A table's column: its header, whether it gives way on a narrow
/// terminal, and whether only `-o wide` (or a pipe) shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    pub name: &'static str,
    pub cut: Option<Cut>,
    pub wide_only: bool,
}

impl Column {
    /// A column shown whole (ids, states, sizes).
    pub const fn keep(name: &'static str) -> Column {
        Column {
            name,
            cut: None,
            wide_only: false,
        }
    }

    /// Free text (a reason, a note, a name): cut at its end.
    pub const fn text(name: &'static str) -> Column {
        Column {
            name,
            cut: Some(Cut::End),
            wide_only: false,
        }
    }

    /// A path: cut at its start, so the end stays.
    pub const fn path(name: &'static str) -> Column {
        Column {
            name,
            cut: Some(Cut::Start),
            wide_only: false,
        }
    }

    /// Shown only with `-o wide`, and off a terminal.
    pub const fn wide(self) -> Column {
        Column {
            wide_only: true,
            ..self
        }
    }
}

impl From<&'static str> for Column {
    fn from(name: &'static str) -> Column {
        Column::keep(name)
    }
}

/// Whether a cell says nothing: empty, or the `-` tables put for "none".
pub fn says_nothing(cell: &str) -> bool {
    cell.is_empty() || cell == "-"
}

/// How many columns each shown column gets so that the line (columns and
/// the two spaces between them) is at most `width`: the cut columns give
/// way, the widest first, down to their minimum. `natural` is each
/// column's widest cell (its header included), `header` its header's
/// width; the result may still be wider than `width` when the columns
/// that are not cut are.
pub fn widths(natural: &[usize], header: &[usize], cut: &[bool], width: usize) -> Vec<usize> {
    let mut out = natural.to_vec();
    let gaps = 2 * out.len().saturating_sub(1);
    let mut total: usize = out.iter().sum::<usize>() + gaps;
    let floor = |i: usize| header[i].max(MIN_CUT).min(natural[i]);
    while total > width {
        let widest = (0..out.len())
            .filter(|&i| cut[i] && out[i] > floor(i))
            .max_by_key(|&i| (out[i], std::cmp::Reverse(i)));
        let Some(i) = widest else { break };
        // Down to the next widest cut column at once (or as far as needed);
        // two as wide give way a column each in turn.
        let next = (0..out.len())
            .filter(|&j| j != i && cut[j] && out[j] > floor(j))
            .map(|j| out[j])
            .filter(|&w| w <= out[i])
            .max()
            .unwrap_or(0)
            .max(floor(i));
        let step = (out[i] - next).min(total - width).max(1);
        out[i] -= step;
        total -= step;
    }
    out
}

/// `raw` as a table cell shows it (escaped, on one line), in at most
/// `width` columns: whole when it fits, else cut with `…` at `side`.
pub fn cell(raw: &str, width: usize, side: Cut) -> Cow<'_, str> {
    let shown = escape_untrusted(raw, true);
    if display_width(&shown) <= width {
        return shown;
    }
    Cow::Owned(cut(&shown, width, side))
}

/// The units a shown text is cut between: a plain character, or a whole
/// escape (`\u{1b}`, `\n`, `\\`), whether the cell's value came escaped
/// (`escape::value`) or was escaped here.
fn units(shown: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = shown;
    while let Some(c) = rest.chars().next() {
        let len = if c != '\\' {
            c.len_utf8()
        } else if rest[1..].starts_with("u{") {
            rest.find('}').map_or(1, |end| end + 1)
        } else {
            1 + rest[1..].chars().next().map_or(0, char::len_utf8)
        };
        out.push(&rest[..len]);
        rest = &rest[len..];
    }
    out
}

/// [`cell`] for a text that does not fit: its units, as many as fit in
/// `width - 1` columns, and `…`.
fn cut(shown: &str, width: usize, side: Cut) -> String {
    if width == 0 {
        return String::new();
    }
    let room = width - 1;
    let all = units(shown);
    let mut kept: Vec<&str> = Vec::new();
    let mut used = 0;
    let ordered: Box<dyn Iterator<Item = &&str>> = match side {
        Cut::End => Box::new(all.iter()),
        Cut::Start => Box::new(all.iter().rev()),
    };
    for unit in ordered {
        let w = display_width(unit);
        if used + w > room {
            break;
        }
        used += w;
        kept.push(unit);
    }
    if side == Cut::Start {
        kept.reverse();
    }
    let mut out = String::with_capacity(used * 4 + 3);
    if side == Cut::Start {
        out.push(ELLIPSIS);
    }
    for u in &kept {
        out.push_str(u);
    }
    if side == Cut::End {
        out.push(ELLIPSIS);
    }
    out
}

/// A line of messages (a progress line) cut to `width` columns, escaped.
pub fn line(raw: &str, width: usize) -> Cow<'_, str> {
    cell(raw, width, Cut::End)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_that_fits_is_whole_and_one_that_does_not_is_cut_with_an_ellipsis() {
        assert_eq!(cell("abc", 3, Cut::End), "abc");
        assert_eq!(cell("abcdef", 4, Cut::End), "abc…");
        assert_eq!(cell("/a/b/volume.img", 8, Cut::Start), "…ume.img");
        assert_eq!(cell("abc", 0, Cut::End), "");
        assert_eq!(cell("abc", 1, Cut::End), "…");
    }

    #[test]
    fn a_wide_character_is_never_split() {
        // 日本語 is 6 columns: in 5, two characters and the mark.
        assert_eq!(cell("日本語", 5, Cut::End), "日本…");
        assert_eq!(display_width(&cell("日本語", 5, Cut::End)), 5);
        assert_eq!(cell("日本語", 4, Cut::End), "日…");
        assert_eq!(display_width(&cell("日本語", 4, Cut::End)), 3);
        assert_eq!(cell("日本語", 4, Cut::Start), "…語");
    }

    #[test]
    fn an_escape_plugctl_made_is_kept_or_dropped_whole() {
        // ESC is shown as six columns (\u{1b}): never cut inside, whether
        // escaped here or given escaped (escape::value, as tables do).
        let raw = "ab\x1b[2Jcd";
        let given = plugctl_core::escape::value(raw).into_owned();
        for text in [raw, given.as_str()] {
            for width in 1..14 {
                let shown = cell(text, width, Cut::End);
                assert!(display_width(&shown) <= width, "{width}: {shown}");
                assert!(!shown.contains('\x1b'), "{width}: {shown:?}");
                let body = shown.trim_end_matches(ELLIPSIS);
                let open = body.rfind('\\').is_some_and(|i| {
                    let tail = &body[i..];
                    tail.len() < 2 || (tail.starts_with("\\u") && !tail.contains('}'))
                });
                assert!(!open, "{width}: {shown}");
            }
            assert_eq!(cell(text, 9, Cut::End), "ab\\u{1b}…");
            assert_eq!(cell(text, 8, Cut::End), "ab…");
            assert_eq!(cell(text, 9, Cut::Start), "…[2Jcd");
        }
        assert_eq!(cell("a\nb", 3, Cut::End), "a…");
        assert_eq!(cell("a\\\\nb", 3, Cut::End), "a…");
        assert_eq!(cell("a\\\\nb", 4, Cut::End), "a\\\\…");
    }

    #[test]
    fn the_widest_cut_column_gives_way_first_and_none_below_its_minimum() {
        // 10 + 40 + 30 + gaps 4 = 84 > 80: the 40 gives 4.
        assert_eq!(
            widths(&[10, 40, 30], &[2, 4, 4], &[false, true, true], 80),
            [10, 36, 30]
        );
        // 10 + 40 + 30 + 4 = 84 > 60: both cut to share what is left.
        let w = widths(&[10, 40, 30], &[2, 4, 4], &[false, true, true], 60);
        assert_eq!(w.iter().sum::<usize>() + 4, 60, "{w:?}");
        assert!(w[1].abs_diff(w[2]) <= 1, "{w:?}");
        // Nothing can give more than its minimum: the line stays wider.
        let w = widths(&[70, 40], &[2, 6], &[false, true], 60);
        assert_eq!(w, [70, MIN_CUT]);
        // A header wider than the minimum is the minimum.
        let w = widths(&[70, 40], &[2, 12], &[false, true], 60);
        assert_eq!(w, [70, 12]);
    }
}

//! Go's view of text, as HCL 1's scanners see it: runes decoded one at a
//! time from bytes (`utf8.DecodeRune`: an invalid byte is U+FFFD of size
//! 1), the character classes of `unicode.IsLetter`, `unicode.IsDigit` and
//! `unicode.IsSpace`, and `strings.EqualFold`.

use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};

/// Go's `utf8.RuneError`.
pub const RUNE_ERROR: char = '\u{FFFD}';

/// The rune at the start of `bytes` and its size, as Go's
/// `utf8.DecodeRune`: `None` at the end, U+FFFD of size 1 for a byte that
/// does not start a valid UTF-8 sequence (overlong forms and surrogates
/// included).
pub fn decode_rune(bytes: &[u8]) -> Option<(char, usize)> {
    let first = *bytes.first()?;
    let len = match first {
        0x00..=0x7f => return Some((char::from(first), 1)),
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return Some((RUNE_ERROR, 1)),
    };
    match bytes.get(..len).map(std::str::from_utf8) {
        Some(Ok(s)) => s.chars().next().map(|c| (c, len)),
        _ => Some((RUNE_ERROR, 1)),
    }
}

/// `unicode.IsLetter` behind HCL 1's ASCII test: `a-z`, `A-Z`, `_`, or a
/// letter (category L) above ASCII.
pub fn is_letter(c: char) -> bool {
    c.is_ascii_alphabetic()
        || c == '_'
        || (!c.is_ascii() && c.general_category_group() == GeneralCategoryGroup::Letter)
}

/// `0-9`, or a decimal digit (category Nd) above ASCII.
pub fn is_digit(c: char) -> bool {
    c.is_ascii_digit() || (!c.is_ascii() && c.general_category() == GeneralCategory::DecimalNumber)
}

/// `0-9` only.
pub fn is_decimal(c: char) -> bool {
    c.is_ascii_digit()
}

/// The scanners' whitespace: space, tab, newline, carriage return.
pub fn is_whitespace(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

/// Go's `unicode.IsSpace` (the White_Space property, which Rust's
/// `char::is_whitespace` also follows).
pub fn is_space(c: char) -> bool {
    c.is_whitespace()
}

/// A digit's value in bases up to 16, or 16 for anything else.
pub fn digit_val(c: char) -> u32 {
    c.to_digit(16).unwrap_or(16)
}

/// Go's `strings.EqualFold` of a key with a name of ASCII characters: rune
/// by rune, equal, equal ignoring ASCII case, or one of the two non-ASCII
/// runes whose simple case folding reaches an ASCII letter (U+212A KELVIN
/// SIGN is `k`, U+017F LATIN SMALL LETTER LONG S is `s`).
pub fn equal_fold_ascii(key: &str, name: &str) -> bool {
    let mut k = key.chars();
    let mut n = name.chars();
    loop {
        match (k.next(), n.next()) {
            (None, None) => return true,
            (Some(a), Some(b)) => {
                let same = a == b
                    || a.eq_ignore_ascii_case(&b)
                    || (a == '\u{212A}' && b.eq_ignore_ascii_case(&'k'))
                    || (a == '\u{17F}' && b.eq_ignore_ascii_case(&'s'))
                    || (b == '\u{212A}' && a.eq_ignore_ascii_case(&'k'))
                    || (b == '\u{17F}' && a.eq_ignore_ascii_case(&'s'));
                if !same {
                    return false;
                }
            }
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runes_decode_as_go_decodes_them() {
        assert_eq!(decode_rune(b""), None);
        assert_eq!(decode_rune(b"a"), Some(('a', 1)));
        assert_eq!(decode_rune("é".as_bytes()), Some(('é', 2)));
        assert_eq!(decode_rune(b"\xff"), Some((RUNE_ERROR, 1)));
        assert_eq!(decode_rune(b"\xc3"), Some((RUNE_ERROR, 1)));
        // Overlong and surrogate forms are one bad byte each.
        assert_eq!(decode_rune(b"\xc0\xaf"), Some((RUNE_ERROR, 1)));
        assert_eq!(decode_rune(b"\xed\xa0\x80"), Some((RUNE_ERROR, 1)));
        // A real U+FFFD is three bytes.
        assert_eq!(decode_rune("\u{FFFD}".as_bytes()), Some((RUNE_ERROR, 3)));
    }

    #[test]
    fn letters_digits_and_folds() {
        assert!(is_letter('é') && is_letter('_') && is_letter('K'));
        assert!(!is_letter('1') && !is_letter('-') && !is_letter('\u{FFFD}'));
        assert!(is_digit('٣') && !is_digit('½'));
        assert!(equal_fold_ascii("DATA_dir", "data_dir"));
        assert!(equal_fold_ascii("\u{17F}tate_dir", "state_dir"));
        assert!(!equal_fold_ascii("data_dirs", "data_dir"));
        assert!(!equal_fold_ascii("\u{131}", "i"));
    }
}

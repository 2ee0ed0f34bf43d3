//! ELF programs for the tests of what the trust gate reads in them: a
//! secrets plugin's C source, and a 64-bit little-endian program's loader
//! (`PT_INTERP`) read or rewritten in place.

/// The C source of a secrets plugin: its fingerprint, and `{"A": "b"}`.
pub const C_SECRETS_PLUGIN: &str = r#"#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "fingerprint") == 0) {
    puts("{\"type\": \"secrets\", \"version\": \"1.0.0\"}");
    return 0;
  }
  puts("{\"result\": {\"A\": \"b\"}}");
  return 0;
}
"#;

/// The loader `program` names (its `PT_INTERP` path).
pub fn loader_of(program: &[u8]) -> Option<String> {
    let word = |at: usize, len: usize| {
        program.get(at..at + len).map(|b| {
            b.iter()
                .rev()
                .fold(0usize, |v, b| (v << 8) | usize::from(*b))
        })
    };
    if !program.starts_with(b"\x7fELF\x02\x01") {
        return None;
    }
    let (phoff, phentsize, phnum) = (word(0x20, 8)?, word(0x36, 2)?, word(0x38, 2)?);
    (0..phnum).find_map(|i| {
        let at = phoff + i * phentsize;
        (word(at, 4)? == 3).then_some(())?;
        let (offset, size) = (word(at + 8, 8)?, word(at + 32, 8)?);
        let path = program.get(offset..offset + size)?;
        let end = path.iter().position(|&b| b == 0)?;
        Some(String::from_utf8_lossy(&path[..end]).into_owned())
    })
}

/// `program` (a 64-bit little-endian ELF file) with its loader, the
/// `PT_INTERP` path, made `loader` (NUL-padded in place); None when it
/// has no loader or `loader` does not fit.
pub fn with_loader(program: &[u8], loader: &str) -> Option<Vec<u8>> {
    let mut elf = program.to_vec();
    if !elf.starts_with(b"\x7fELF\x02\x01") {
        return None;
    }
    let word = |at: usize, len: usize| {
        elf[at..at + len]
            .iter()
            .rev()
            .fold(0usize, |v, b| (v << 8) | usize::from(*b))
    };
    let (phoff, phentsize, phnum) = (word(0x20, 8), word(0x36, 2), word(0x38, 2));
    for i in 0..phnum {
        let at = phoff + i * phentsize;
        if word(at, 4) != 3 {
            continue;
        }
        let (offset, size) = (word(at + 8, 8), word(at + 32, 8));
        if loader.len() >= size {
            return None;
        }
        let field = &mut elf[offset..offset + size];
        field.fill(0);
        field[..loader.len()].copy_from_slice(loader.as_bytes());
        return Some(elf);
    }
    None
}

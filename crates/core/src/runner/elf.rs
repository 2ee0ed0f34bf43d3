//! Which interpreter a program names: the first word of its `#!` line, or
//! the `PT_INTERP` path of an ELF file (its dynamic loader). When exec says
//! ENOENT for a file that exists, that interpreter is what is missing, and
//! "does not exist" would send the user looking for the wrong file.
//!
//! Hand-written rather than a crate: the one field needed is a loop over
//! the program headers. The file is untrusted input, so every offset and
//! size is checked before it is used.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;

/// How much of a file [`interpreter`] wants in `head`: the kernel reads no
/// more of a shebang line than this, and the ELF header fits in it.
pub(crate) const HEAD_LEN: usize = 256;

/// A path no loader has: longer is taken as a broken file.
const PATH_MAX: u64 = 4096;

/// Program headers looked at, at most: a real file has a dozen.
const MAX_HEADERS: u64 = 256;

/// Reads bytes at an offset: a file, or a slice (tests).
pub(crate) trait ReadAt {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()>;
}

impl ReadAt for File {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        FileExt::read_exact_at(self, buf, offset)
    }
}

impl ReadAt for [u8] {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        let short = || io::Error::from(io::ErrorKind::UnexpectedEof);
        let start = usize::try_from(offset).map_err(|_| short())?;
        let end = start.checked_add(buf.len()).ok_or_else(short)?;
        buf.copy_from_slice(self.get(start..end).ok_or_else(short)?);
        Ok(())
    }
}

/// The interpreter `file` names, given its first bytes (`head`, up to
/// [`HEAD_LEN`]): the first word of a `#!` line, or an ELF file's
/// `PT_INTERP` path. None for anything else, or a file too broken to say.
pub(crate) fn interpreter(head: &[u8], file: &(impl ReadAt + ?Sized)) -> Option<String> {
    if let Some(line) = head.strip_prefix(b"#!") {
        let line = line.split(|&b| b == b'\n').next().unwrap_or_default();
        let word = line
            .split(|&b| b == b' ' || b == b'\t')
            .find(|w| !w.is_empty())?;
        return Some(String::from_utf8_lossy(word).into_owned());
    }
    if head.starts_with(b"\x7fELF") {
        return elf_interpreter(head, file);
    }
    None
}

/// The PT_INTERP path of an ELF file: a binary built against another libc
/// (musl on glibc) fails with ENOENT though it exists.
fn elf_interpreter(head: &[u8], file: &(impl ReadAt + ?Sized)) -> Option<String> {
    let wide = match head.get(4)? {
        1 => false,
        2 => true,
        _ => return None,
    };
    let little = match head.get(5)? {
        1 => true,
        2 => false,
        _ => return None,
    };
    let num = |b: &[u8]| -> u64 {
        let mut v = 0u64;
        for i in 0..b.len() {
            let byte = if little { b[b.len() - 1 - i] } else { b[i] };
            v = (v << 8) | u64::from(byte);
        }
        v
    };
    let field = |off: usize, len: usize| head.get(off..off + len).map(num);
    let (phoff, phentsize, phnum) = if wide {
        (field(0x20, 8)?, field(0x36, 2)?, field(0x38, 2)?)
    } else {
        (field(0x1c, 4)?, field(0x2a, 2)?, field(0x2c, 2)?)
    };
    let entry_len = if wide { 56 } else { 32 };
    let mut entry = [0u8; 56];
    for i in 0..phnum.min(MAX_HEADERS) {
        // The header is untrusted input: offsets may be anything.
        let at = phoff.checked_add(i.checked_mul(phentsize)?)?;
        file.read_exact_at(&mut entry[..entry_len], at).ok()?;
        const PT_INTERP: u64 = 3;
        if num(&entry[0..4]) != PT_INTERP {
            continue;
        }
        let (offset, size) = if wide {
            (num(&entry[8..16]), num(&entry[32..40]))
        } else {
            (num(&entry[4..8]), num(&entry[16..20]))
        };
        if size == 0 || size > PATH_MAX {
            return None;
        }
        let mut path = vec![0u8; usize::try_from(size).ok()?];
        file.read_exact_at(&mut path, offset).ok()?;
        let end = path.iter().position(|&b| b == 0).unwrap_or(path.len());
        return Some(String::from_utf8_lossy(&path[..end]).into_owned());
    }
    None
}

/// What an ELF file has the loader open besides the system's libraries:
/// the directories of its library search path (`DT_RUNPATH`, or the older
/// `DT_RPATH`), each as written (`$ORIGIN` not substituted), and every
/// library it needs by a path (a `DT_NEEDED` with a `/`, as a link against
/// a library without a soname records it), which the loader opens as it
/// is. Empty for a static program or a file too broken to say (the loader
/// refuses one itself).
pub(crate) fn library_paths(
    head: &[u8],
    file: &(impl ReadAt + ?Sized),
) -> (Vec<String>, Vec<String>) {
    dynamic_paths(head, file).unwrap_or_default()
}

fn dynamic_paths(head: &[u8], file: &(impl ReadAt + ?Sized)) -> Option<(Vec<String>, Vec<String>)> {
    if !head.starts_with(b"\x7fELF") {
        return None;
    }
    let wide = match head.get(4)? {
        1 => false,
        2 => true,
        _ => return None,
    };
    let little = match head.get(5)? {
        1 => true,
        2 => false,
        _ => return None,
    };
    let num = |b: &[u8]| -> u64 {
        let mut v = 0u64;
        for i in 0..b.len() {
            let byte = if little { b[b.len() - 1 - i] } else { b[i] };
            v = (v << 8) | u64::from(byte);
        }
        v
    };
    let field = |off: usize, len: usize| head.get(off..off + len).map(num);
    let (phoff, phentsize, phnum) = if wide {
        (field(0x20, 8)?, field(0x36, 2)?, field(0x38, 2)?)
    } else {
        (field(0x1c, 4)?, field(0x2a, 2)?, field(0x2c, 2)?)
    };
    let entry_len = if wide { 56 } else { 32 };
    // (vaddr, offset, filesz) of each PT_LOAD; (offset, filesz) of PT_DYNAMIC.
    let mut loads = Vec::new();
    let mut dynamic = None;
    let mut entry = [0u8; 56];
    for i in 0..phnum.min(MAX_HEADERS) {
        let at = phoff.checked_add(i.checked_mul(phentsize)?)?;
        file.read_exact_at(&mut entry[..entry_len], at).ok()?;
        let (offset, vaddr, filesz) = if wide {
            (num(&entry[8..16]), num(&entry[16..24]), num(&entry[32..40]))
        } else {
            (num(&entry[4..8]), num(&entry[8..12]), num(&entry[16..20]))
        };
        match num(&entry[0..4]) {
            1 => loads.push((vaddr, offset, filesz)),
            2 => dynamic = Some((offset, filesz)),
            _ => {}
        }
    }
    let (dyn_offset, dyn_size) = dynamic?;
    let word = if wide { 8 } else { 4 };
    let (mut strtab, mut path, mut needed) = (None, None, Vec::new());
    for i in 0..(dyn_size / (2 * word)).min(MAX_DYNAMIC) {
        let mut pair = [0u8; 16];
        let pair = &mut pair[..2 * word as usize];
        file.read_exact_at(pair, dyn_offset.checked_add(i * 2 * word)?)
            .ok()?;
        let (tag, val) = (num(&pair[..word as usize]), num(&pair[word as usize..]));
        match tag {
            0 => break,
            5 => strtab = Some(val),
            // DT_RUNPATH wins over DT_RPATH, as the loader has it.
            29 => path = Some(val),
            15 if path.is_none() => path = Some(val),
            1 => needed.push(val),
            _ => {}
        }
    }
    let strtab = strtab?;
    let (vaddr, offset, _) = loads
        .iter()
        .find(|(vaddr, _, size)| strtab >= *vaddr && strtab - vaddr < *size)?;
    let base = (strtab - vaddr).checked_add(*offset)?;
    let search: Vec<String> = match path {
        Some(at) => read_string(file, base.checked_add(at)?)?
            .split(':')
            .map(str::to_string)
            .collect(),
        None => Vec::new(),
    };
    let mut by_path = Vec::new();
    for at in needed {
        let name = read_string(file, base.checked_add(at)?)?;
        if name.contains('/') {
            by_path.push(name);
        }
    }
    Some((search, by_path))
}

/// The NUL-terminated string at `start`, at most [`RUNPATH_MAX`] bytes.
fn read_string(file: &(impl ReadAt + ?Sized), start: u64) -> Option<String> {
    let mut text = Vec::new();
    let mut chunk = [0u8; 64];
    while text.len() < RUNPATH_MAX {
        // A chunk may run past the end of the file: read byte by byte there.
        let at = start + text.len() as u64;
        if file.read_exact_at(&mut chunk, at).is_err() {
            let mut byte = [0u8; 1];
            file.read_exact_at(&mut byte, at).ok()?;
            if byte[0] == 0 {
                break;
            }
            text.push(byte[0]);
            continue;
        }
        match chunk.iter().position(|&b| b == 0) {
            Some(end) => {
                text.extend_from_slice(&chunk[..end]);
                break;
            }
            None => text.extend_from_slice(&chunk),
        }
    }
    Some(String::from_utf8_lossy(&text).into_owned())
}

/// Dynamic entries looked at, at most: a real file has a few dozen.
const MAX_DYNAMIC: u64 = 4096;

/// A search path longer than this is taken as a broken file.
const RUNPATH_MAX: usize = 64 * 1024;

#[cfg(test)]
mod tests {
    use super::interpreter;

    /// Builds an ELF file by hand: the identification bytes, the three
    /// header fields the reader uses, and program headers `(type, offset,
    /// size)` written at `phoff`; `extra` is appended at `tail_at`.
    struct Elf {
        wide: bool,
        little: bool,
        phoff: u64,
        phentsize: u64,
        phnum: u64,
        headers: Vec<(u32, u64, u64)>,
        tail_at: usize,
        extra: Vec<u8>,
    }

    impl Elf {
        fn new(wide: bool, little: bool) -> Elf {
            let phoff = if wide { 64 } else { 52 };
            Elf {
                wide,
                little,
                phoff,
                phentsize: if wide { 56 } else { 32 },
                phnum: 0,
                headers: Vec::new(),
                tail_at: 0,
                extra: Vec::new(),
            }
        }

        /// One PT_LOAD, then PT_INTERP pointing at `path` (NUL-ended).
        fn with_interp(mut self, path: &[u8]) -> Elf {
            self.tail_at = 512;
            let mut p = path.to_vec();
            p.push(0);
            self.headers = vec![(1, 0, 0), (3, 512, p.len() as u64)];
            self.phnum = 2;
            self.extra = p;
            self
        }

        fn put(&self, out: &mut Vec<u8>, at: usize, value: u64, len: usize) {
            if out.len() < at + len {
                out.resize(at + len, 0);
            }
            let bytes = value.to_be_bytes();
            let be = &bytes[8 - len..];
            for i in 0..len {
                out[at + i] = if self.little { be[len - 1 - i] } else { be[i] };
            }
        }

        fn bytes(&self) -> Vec<u8> {
            let mut out = b"\x7fELF".to_vec();
            out.push(if self.wide { 2 } else { 1 });
            out.push(if self.little { 1 } else { 2 });
            out.resize(64, 0);
            if self.wide {
                self.put(&mut out, 0x20, self.phoff, 8);
                self.put(&mut out, 0x36, self.phentsize, 2);
                self.put(&mut out, 0x38, self.phnum, 2);
            } else {
                self.put(&mut out, 0x1c, self.phoff, 4);
                self.put(&mut out, 0x2a, self.phentsize, 2);
                self.put(&mut out, 0x2c, self.phnum, 2);
            }
            // A hostile offset is only written in the header, never used.
            let headers = if self.phoff < 4096 {
                &self.headers[..]
            } else {
                &[]
            };
            for (i, &(kind, offset, size)) in headers.iter().enumerate() {
                let at = self.phoff as usize + i * self.phentsize as usize;
                self.put(&mut out, at, u64::from(kind), 4);
                if self.wide {
                    self.put(&mut out, at + 8, offset, 8);
                    self.put(&mut out, at + 32, size, 8);
                } else {
                    self.put(&mut out, at + 4, offset, 4);
                    self.put(&mut out, at + 16, size, 4);
                }
            }
            if !self.extra.is_empty() {
                if out.len() < self.tail_at {
                    out.resize(self.tail_at, 0);
                }
                out.truncate(self.tail_at);
                out.extend_from_slice(&self.extra);
            }
            out
        }
    }

    fn read(file: &[u8]) -> Option<String> {
        let head = &file[..file.len().min(super::HEAD_LEN)];
        interpreter(head, file)
    }

    const MUSL: &[u8] = b"/lib/ld-musl-x86_64.so.1";

    #[test]
    fn every_class_and_byte_order_finds_the_loader() {
        for wide in [true, false] {
            for little in [true, false] {
                let elf = Elf::new(wide, little).with_interp(MUSL).bytes();
                assert_eq!(
                    read(&elf).as_deref(),
                    Some("/lib/ld-musl-x86_64.so.1"),
                    "wide {wide} little {little}"
                );
            }
        }
    }

    #[test]
    fn a_real_binary_names_its_loader() {
        let me = std::fs::read("/proc/self/exe").unwrap();
        let file = std::fs::File::open("/proc/self/exe").unwrap();
        let head = &me[..super::HEAD_LEN];
        // A test binary is dynamically linked (or static: no loader).
        if let Some(loader) = interpreter(head, &file) {
            assert!(loader.starts_with('/'), "{loader}");
        }
        assert_eq!(interpreter(head, &file), read(&me));
    }

    #[test]
    fn a_static_binary_has_none() {
        let mut elf = Elf::new(true, true);
        elf.headers = vec![(1, 0, 0), (4, 0, 0)];
        elf.phnum = 2;
        assert_eq!(read(&elf.bytes()), None);
    }

    #[test]
    fn a_path_without_its_nul_ends_with_the_segment() {
        let mut elf = Elf::new(true, true).with_interp(b"/lib/ld.so");
        elf.extra.pop();
        elf.headers[1].2 -= 1;
        assert_eq!(read(&elf.bytes()).as_deref(), Some("/lib/ld.so"));
    }

    #[test]
    fn hostile_headers_give_up_quietly() {
        let base = || Elf::new(true, true).with_interp(MUSL);
        let cases: Vec<(&str, Elf)> = vec![
            ("program headers past the end", {
                let mut e = base();
                e.phoff = 1 << 40;
                e
            }),
            ("offset + index * size overflows", {
                let mut e = base();
                e.phoff = u64::MAX - 10;
                e.headers.clear();
                e
            }),
            ("headers spaced past the end", {
                let mut e = Elf::new(true, true);
                e.phentsize = u64::from(u16::MAX);
                e.phnum = u64::from(u16::MAX);
                e
            }),
            ("path offset past the end", {
                let mut e = base();
                e.headers[1].1 = u64::MAX;
                e
            }),
            ("path size zero", {
                let mut e = base();
                e.headers[1].2 = 0;
                e
            }),
            ("path size huge", {
                let mut e = base();
                e.headers[1].2 = u64::MAX;
                e
            }),
            ("path runs past the end", {
                let mut e = base();
                e.headers[1].2 = 4000;
                e
            }),
            ("header count past what is there", {
                let mut e = Elf::new(false, false);
                e.phnum = u64::from(u16::MAX);
                e
            }),
        ];
        for (what, elf) in cases {
            assert_eq!(read(&elf.bytes()), None, "{what}");
        }
    }

    #[test]
    fn overlapping_headers_are_read_as_they_are() {
        // A header size smaller than an entry: entries overlap, and what
        // the bytes say is read, without reading out of bounds.
        let mut elf = Elf::new(true, true);
        elf.phentsize = 1;
        elf.phnum = 300;
        assert_eq!(read(&elf.bytes()), None);
    }

    #[test]
    fn broken_identification_is_not_elf() {
        let good = Elf::new(true, true).with_interp(MUSL).bytes();
        for (at, byte) in [(4, 0u8), (4, 3), (5, 0), (5, 9)] {
            let mut bad = good.clone();
            bad[at] = byte;
            assert_eq!(read(&bad), None, "byte {at} = {byte}");
        }
        // Cut inside the header: the fields are not there.
        assert_eq!(read(&good[..0x30]), None);
        assert_eq!(read(b"\x7fELF"), None);
        assert_eq!(read(b"\x7fEL"), None);
        assert_eq!(read(b""), None);
    }

    #[test]
    fn shebang_names_its_first_word() {
        assert_eq!(read(b"#!/bin/bash\necho").as_deref(), Some("/bin/bash"));
        assert_eq!(
            read(b"#! \t/usr/bin/env python3 -u\n").as_deref(),
            Some("/usr/bin/env")
        );
        assert_eq!(read(b"#!/bin/sh").as_deref(), Some("/bin/sh"));
        // Nothing after #! names nothing.
        assert_eq!(read(b"#!\n/bin/sh"), None);
        assert_eq!(read(b"#!   \n"), None);
        assert_eq!(read(b"echo hi\n"), None);
    }
}

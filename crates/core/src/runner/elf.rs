//! What the kernel and the dynamic loader open for a program besides it:
//! the first word of its `#!` line, or an ELF file's loader (`PT_INTERP`),
//! library search path (`DT_RUNPATH`, `DT_RPATH`) and the libraries it
//! needs by a path. The trust gate judges each (trust/program.rs); when
//! exec says ENOENT for a file that exists, the loader is what is missing,
//! and "does not exist" would send the user looking for the wrong file.
//!
//! The ELF structures are read with the `object` crate, through its read
//! cache: only the headers, the dynamic segment and the strings it names
//! are read, never a whole segment, so a large program costs a few small
//! reads. Everything is read from the program headers, as the kernel and
//! the loader do, not from the section headers a stripped file may lack.

use std::ffi::OsString;
use std::fs::File;
use std::os::unix::ffi::OsStringExt;

use object::Endianness;
use object::elf::{DT_AUDIT, DT_AUXILIARY, DT_DEPAUDIT, DT_FILTER, DT_NEEDED, DT_NULL};
use object::elf::{DT_RPATH, DT_RUNPATH, DT_STRSZ, DT_STRTAB};
use object::elf::{FileHeader32, FileHeader64, PT_DYNAMIC, PT_INTERP, PT_LOAD};
use object::read::elf::{Dyn, FileHeader, ProgramHeader};
use object::read::{ReadCache, ReadRef, StringTable};

/// How much of a file [`interpreter`] wants in `head`: the kernel reads no
/// more of a shebang line than this, and the ELF header fits in it.
pub(crate) const HEAD_LEN: usize = 256;

/// A path no loader has: longer is taken as a broken file.
const PATH_MAX: u64 = 4096;

/// Program headers looked at, at most: a real file has a dozen.
const MAX_HEADERS: usize = 256;

/// Dynamic entries looked at, at most: a real file has a few dozen.
const MAX_DYNAMIC: u64 = 4096;

/// The interpreter `file` names, given its first bytes (`head`, up to
/// [`HEAD_LEN`]): the first word of a `#!` line, or an ELF file's
/// `PT_INTERP` path. None for anything else, or a file too broken to say.
pub(crate) fn interpreter(head: &[u8], file: &File) -> Option<String> {
    interpreter_in(head, &ReadCache::new(file))
}

/// What an ELF file has the loader open besides the system's libraries:
/// the directories of its library search path (`DT_RUNPATH`, or the older
/// `DT_RPATH`), each as written (`$ORIGIN` not substituted), and every
/// library it names by a path (a `DT_NEEDED` with a `/`, as a link against
/// a library without a soname records it; an audit library of `DT_AUDIT`,
/// which the loader runs before the program; a filter's), which the loader
/// opens as it is. Empty for a static program or a file too broken to say (the loader
/// refuses one itself).
pub(crate) fn library_paths(head: &[u8], file: &File) -> Linked {
    library_paths_in(head, &ReadCache::new(file))
}

/// An ELF program's own library search path and the libraries it needs by
/// a path ([`library_paths`]), as the file spells them.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Linked {
    /// The directories of `DT_RUNPATH` (or `DT_RPATH`), in order.
    pub search: Vec<OsString>,
    /// Each library named with a `/` (`DT_NEEDED`, `DT_AUDIT`, ...).
    pub by_path: Vec<OsString>,
}

fn interpreter_in<'d>(head: &[u8], data: impl ReadRef<'d>) -> Option<String> {
    if let Some(line) = head.strip_prefix(b"#!") {
        let line = line.split(|&b| b == b'\n').next().unwrap_or_default();
        let word = line
            .split(|&b| b == b' ' || b == b'\t')
            .find(|w| !w.is_empty())?;
        return Some(String::from_utf8_lossy(word).into_owned());
    }
    let loader = match elf_class(head)? {
        Class::Narrow => loader::<FileHeader32<Endianness>>(data),
        Class::Wide => loader::<FileHeader64<Endianness>>(data),
    }?;
    Some(String::from_utf8_lossy(loader).into_owned())
}

fn library_paths_in<'d>(head: &[u8], data: impl ReadRef<'d>) -> Linked {
    match elf_class(head) {
        Some(Class::Narrow) => linked::<FileHeader32<Endianness>>(data),
        Some(Class::Wide) => linked::<FileHeader64<Endianness>>(data),
        None => None,
    }
    .unwrap_or_default()
}

enum Class {
    Narrow,
    Wide,
}

/// The class an ELF file's identification names; None for anything else.
fn elf_class(head: &[u8]) -> Option<Class> {
    if !head.starts_with(b"\x7fELF") {
        return None;
    }
    match head.get(4)? {
        1 => Some(Class::Narrow),
        2 => Some(Class::Wide),
        _ => None,
    }
}

/// The program headers of an ELF file and the byte order they are in.
fn segments<'d, Elf: FileHeader<Endian = Endianness>>(
    data: impl ReadRef<'d>,
) -> Option<(Endianness, &'d [Elf::ProgramHeader])> {
    let header = Elf::parse(data).ok()?;
    let endian = header.endian().ok()?;
    let segments = header.program_headers(endian, data).ok()?;
    Some((endian, &segments[..segments.len().min(MAX_HEADERS)]))
}

/// The `PT_INTERP` path, without its NUL: a binary built against another
/// libc (musl on glibc) fails with ENOENT though it exists. None when the
/// path is empty, longer than a path may be, or not NUL-ended (the kernel
/// refuses to run such a file).
fn loader<'d, Elf: FileHeader<Endian = Endianness>>(data: impl ReadRef<'d>) -> Option<&'d [u8]> {
    let (endian, segments) = segments::<Elf>(data)?;
    let segment = segments.iter().find(|s| s.p_type(endian) == PT_INTERP)?;
    if segment.file_range(endian).1 > PATH_MAX {
        return None;
    }
    segment
        .interpreter(endian, data)
        .ok()
        .flatten()
        .filter(|path| !path.is_empty())
}

/// What the dynamic segment names, read as the loader reads it: the
/// string table found through `DT_STRTAB`'s address in a loaded segment.
fn linked<'d, Elf: FileHeader<Endian = Endianness>>(data: impl ReadRef<'d>) -> Option<Linked> {
    let (endian, segments) = segments::<Elf>(data)?;
    let dynamic = segments.iter().find(|s| s.p_type(endian) == PT_DYNAMIC)?;
    let entry_len = std::mem::size_of::<Elf::Dyn>() as u64;
    if dynamic.file_range(endian).1 > MAX_DYNAMIC * entry_len {
        return None;
    }
    let entries = dynamic.dynamic(endian, data).ok()??;
    let (mut strtab, mut strsz, mut search, mut rpath) = (None, None, None, None);
    let mut needed = Vec::new();
    for entry in entries {
        let value: u64 = entry.d_val(endian).into();
        match entry.d_tag(endian) {
            DT_NULL => break,
            DT_STRTAB => strtab = Some(value),
            DT_STRSZ => strsz = Some(value),
            // DT_RUNPATH wins over DT_RPATH, as the loader has it.
            DT_RUNPATH => search = Some(value),
            DT_RPATH => rpath = Some(value),
            // What the loader opens by name: a library needed, one a
            // filter names, and the audit libraries it loads before all
            // (colon-separated lists).
            DT_NEEDED | DT_FILTER | DT_AUXILIARY => needed.push((value, false)),
            DT_AUDIT | DT_DEPAUDIT => needed.push((value, true)),
            _ => {}
        }
    }
    let (strtab, strsz) = (strtab?, strsz?);
    // The file offset of the table: the loaded segment holding its address.
    let start = segments.iter().find_map(|s| {
        let vaddr: u64 = s.p_vaddr(endian).into();
        let (offset, size) = s.file_range(endian);
        let within = strtab.checked_sub(vaddr)?;
        (s.p_type(endian) == PT_LOAD && within < size).then(|| offset.checked_add(within))?
    })?;
    let strings = StringTable::new(data, start, start.checked_add(strsz)?);
    let text = |at: u64| -> Option<OsString> {
        let bytes = strings.get(u32::try_from(at).ok()?).ok()?;
        Some(OsString::from_vec(bytes.to_vec()))
    };
    let search = match search.or(rpath) {
        Some(at) => text(at)?
            .into_vec()
            .split(|&b| b == b':')
            .map(|dir| OsString::from_vec(dir.to_vec()))
            .collect(),
        None => Vec::new(),
    };
    let mut by_path = Vec::new();
    for (at, list) in needed {
        let names = text(at)?.into_vec();
        let names: Vec<&[u8]> = if list {
            names.split(|&b| b == b':').collect()
        } else {
            vec![&names[..]]
        };
        for name in names.into_iter().filter(|name| name.contains(&b'/')) {
            by_path.push(OsString::from_vec(name.to_vec()));
        }
    }
    Some(Linked { search, by_path })
}

#[cfg(test)]
mod tests {
    use super::{Linked, interpreter, interpreter_in, library_paths_in};
    use std::ffi::OsString;

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
            // EI_VERSION: every real file says 1, and the reader wants it.
            out.push(1);
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
        interpreter_in(head, file)
    }

    fn linked(file: &[u8]) -> Linked {
        let head = &file[..file.len().min(super::HEAD_LEN)];
        library_paths_in(head, file)
    }

    /// An ELF file whose dynamic segment holds `entries` (tag, value) and
    /// whose string table is `strings`, all in one segment loaded at 0.
    fn dynamic(wide: bool, little: bool, entries: &[(u64, u64)], strings: &[u8]) -> Vec<u8> {
        let word = if wide { 8 } else { 4 };
        let mut elf = Elf::new(wide, little);
        let dyn_at = 512usize;
        let strtab_at = dyn_at + entries.len() * 2 * word;
        let mut tail = Vec::new();
        for (i, &(tag, value)) in entries.iter().enumerate() {
            let value = if tag == 5 { strtab_at as u64 } else { value };
            elf.put(&mut tail, i * 2 * word, tag, word);
            elf.put(&mut tail, i * 2 * word + word, value, word);
        }
        tail.extend_from_slice(strings);
        let total = (dyn_at + tail.len()) as u64;
        elf.headers = vec![
            (1, 0, total),
            (2, dyn_at as u64, (entries.len() * 2 * word) as u64),
        ];
        elf.phnum = 2;
        elf.tail_at = dyn_at;
        elf.extra = tail;
        elf.bytes()
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
    fn a_path_without_its_nul_is_a_broken_file() {
        // The kernel refuses to run such a file (ENOEXEC): no loader.
        let mut elf = Elf::new(true, true).with_interp(b"/lib/ld.so");
        elf.extra.pop();
        elf.headers[1].2 -= 1;
        assert_eq!(read(&elf.bytes()), None);
    }

    #[test]
    fn the_search_path_and_the_libraries_needed_by_a_path_are_read() {
        // DT_NEEDED 1, DT_STRTAB 5, DT_STRSZ 10, DT_RPATH 15, DT_RUNPATH 29.
        let strings = b"\0libc.so.6\0/opt/x/libz.so\0$ORIGIN:/opt/lib\0/old\0a.so:/tmp/au.so\0";
        let entries = [
            (1, 1),
            (1, 11),
            (15, 43),
            (29, 26),
            (0x6fff_fefc, 48),
            (5, 0),
            (10, strings.len() as u64),
            (0, 0),
        ];
        let want = Linked {
            search: vec![OsString::from("$ORIGIN"), OsString::from("/opt/lib")],
            by_path: vec![
                OsString::from("/opt/x/libz.so"),
                OsString::from("/tmp/au.so"),
            ],
        };
        for wide in [true, false] {
            for little in [true, false] {
                let elf = dynamic(wide, little, &entries, strings);
                assert_eq!(linked(&elf), want, "wide {wide} little {little}");
            }
        }
        // Without DT_RUNPATH, DT_RPATH is the search path.
        let elf = dynamic(true, true, &[entries[2], entries[5], entries[6]], strings);
        assert_eq!(linked(&elf).search, vec![OsString::from("/old")]);
        // Entries after DT_NULL are not read.
        let elf = dynamic(
            true,
            true,
            &[entries[5], entries[6], (0, 0), entries[3]],
            strings,
        );
        assert_eq!(linked(&elf), Linked::default());
        // A string table outside every loaded segment says nothing.
        let mut elf = dynamic(true, true, &entries, strings);
        elf[64 + 32..64 + 40].copy_from_slice(&16u64.to_le_bytes());
        assert_eq!(linked(&elf), Linked::default());
        // A script has none.
        assert_eq!(linked(b"#!/bin/sh\n"), Linked::default());
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
    fn a_header_size_other_than_an_entrys_is_a_broken_file() {
        // As the kernel has it: the entries are not what they say.
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

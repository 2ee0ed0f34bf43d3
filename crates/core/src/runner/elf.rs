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
//! the loader do, not from the section headers a stripped file may lack,
//! and the way they do: the kernel takes a file's class from its machine,
//! never looking at the identification's class, byte order or version,
//! and reads up to 64 KiB of program headers; the loader finds the
//! dynamic section at the last `PT_DYNAMIC`'s address, reads it up to
//! `DT_NULL` and its strings up to their NUL, with no regard for
//! `DT_STRSZ`, from memory as the segments are mapped: in whole pages, so
//! the file's bytes around a segment's file part are read too. A dynamic
//! section plugctl cannot read that way is
//! [`Unreadable`], refused rather than taken as naming nothing.

use std::ffi::OsString;
use std::fs::File;
use std::os::unix::ffi::OsStringExt;

use object::Endianness;
use object::elf::{DT_AUDIT, DT_AUXILIARY, DT_DEPAUDIT, DT_FILTER, DT_NEEDED, DT_NULL};
use object::elf::{DT_RPATH, DT_RUNPATH, DT_STRTAB};
use object::elf::{EM_386, EM_AARCH64, EM_ARM, EM_X86_64, Machine};
use object::elf::{FileHeader32, FileHeader64, PT_DYNAMIC, PT_INTERP, PT_LOAD, PT_PHDR};
use object::read::elf::{Dyn, FileHeader, ProgramHeader};
use object::read::{ReadCache, ReadRef};

/// How much of a file [`interpreter`] wants in `head`: the kernel reads no
/// more of a shebang line than this, and the ELF header fits in it.
pub(crate) const HEAD_LEN: usize = 256;

/// A path no loader has: longer is taken as a broken file.
const PATH_MAX: u64 = 4096;

/// The most bytes of program headers the kernel reads (`elf_read_phdrs`):
/// a real file has a dozen headers, but the kernel follows a `PT_INTERP`
/// at any place within this.
const MAX_HEADER_BYTES: usize = 65536;

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
/// opens as it is. Empty for a static program or a file the kernel would
/// not run; [`Unreadable`] for a dynamic section the loader would read but
/// plugctl cannot say what it names.
pub(crate) fn library_paths(head: &[u8], file: &File) -> Result<Linked, Unreadable> {
    library_paths_in(head, &ReadCache::new(file))
}

/// A program whose dynamic section (or a string it names) is not where
/// the loader would read it from the file: what the loader opens for it
/// cannot be said, so it is judged as naming something untrusted.
#[derive(Debug, PartialEq)]
pub(crate) struct Unreadable;

/// An ELF program's own library search path and the libraries it needs by
/// a path ([`library_paths`]), as the file spells them.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Linked {
    /// The directories of `DT_RUNPATH` (or `DT_RPATH`), in order.
    pub search: Vec<OsString>,
    /// Each library named with a `/` (`DT_NEEDED`, `DT_AUDIT`, ...).
    pub by_path: Vec<OsString>,
    /// Each library needed by a bare name (`DT_NEEDED` without a `/`, and
    /// an audit library so named), which the loader looks for in the
    /// search path first.
    pub by_name: Vec<OsString>,
    /// Each library needed by a bare name holding a token the loader
    /// fills in first ([`loader_token`]): `libx-$PLATFORM.so` is looked
    /// for as `libx-haswell.so` on one machine and `libx-x86_64.so` on
    /// another, so which file it opens cannot be said from the name.
    pub by_token: Vec<OsString>,
}

/// The first dynamic string token of `name` the loader fills in before it
/// looks for a library needed by that name (ld.so(8): `$ORIGIN`,
/// `$PLATFORM`, `$LIB`, or braced, `${LIB}`; a longer name such as
/// `$ORIGINAL` is no token), as glibc reads them.
pub(crate) fn loader_token(name: &[u8]) -> Option<&'static str> {
    let mut rest = name;
    while let Some(at) = rest.iter().position(|&b| b == b'$') {
        rest = &rest[at + 1..];
        for token in ["ORIGIN", "PLATFORM", "LIB"] {
            let braced = rest
                .strip_prefix(b"{")
                .and_then(|r| r.strip_prefix(token.as_bytes()))
                .is_some_and(|r| r.starts_with(b"}"));
            let plain = rest.strip_prefix(token.as_bytes()).is_some_and(|r| {
                r.first()
                    .is_none_or(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))
            });
            if braced || plain {
                return Some(token);
            }
        }
    }
    None
}

fn interpreter_in<'d>(head: &[u8], data: impl ReadRef<'d>) -> Option<String> {
    if let Some(line) = head.strip_prefix(b"#!") {
        let line = line.split(|&b| b == b'\n').next().unwrap_or_default();
        let word = line
            .split(|&b| b == b' ' || b == b'\t')
            .find(|w| !w.is_empty())?;
        return Some(String::from_utf8_lossy(word).into_owned());
    }
    // The first reading the kernel accepts is the one it runs.
    let loader = elf_classes(head)
        .into_iter()
        .find_map(|reading| match reading {
            Reading::Narrow(how) => segments::<FileHeader32<Endianness>>(head, how, data)
                .map(|s| loader::<FileHeader32<Endianness>>(s, data)),
            Reading::Wide(how) => segments::<FileHeader64<Endianness>>(head, how, data)
                .map(|s| loader::<FileHeader64<Endianness>>(s, data)),
        })??;
    Some(String::from_utf8_lossy(loader).into_owned())
}

fn library_paths_in<'d>(head: &[u8], data: impl ReadRef<'d>) -> Result<Linked, Unreadable> {
    elf_classes(head)
        .into_iter()
        .find_map(|reading| match reading {
            Reading::Narrow(how) => segments::<FileHeader32<Endianness>>(head, how, data)
                .map(|s| linked::<FileHeader32<Endianness>>(s, data)),
            Reading::Wide(how) => segments::<FileHeader64<Endianness>>(head, how, data)
                .map(|s| linked::<FileHeader64<Endianness>>(s, data)),
        })
        .unwrap_or_else(|| Ok(Linked::default()))
}

/// How a file's header is read: as the kernel of this machine takes it
/// (its identification bytes ignored), or, for a machine it does not run
/// natively, as the identification says.
#[derive(Clone, Copy)]
enum How {
    Kernel,
    Identified,
}

#[derive(Clone, Copy)]
enum Reading {
    Narrow(How),
    Wide(How),
}

/// The readings of an ELF file the kernel would try, in its order; empty
/// for anything else. Linux runs an ELF file by its magic, type and
/// machine (read in the machine's own byte order) and never looks at the
/// identification's class, byte order or version: a 64-bit program whose
/// version byte is 0, which a careful reader refuses as not ELF, runs its
/// loader all the same. Its 64-bit handler goes first; a file it refuses
/// goes on to the 32-bit one (x32 takes the 64-bit machine's files).
fn elf_classes(head: &[u8]) -> Vec<Reading> {
    if !head.starts_with(b"\x7fELF") {
        return Vec::new();
    }
    let Some(&[a, b]) = head.get(18..20) else {
        return Vec::new();
    };
    let machine = Machine(u16::from_ne_bytes([a, b]));
    // EM_486 (6), which the kernel's 32-bit x86 handler takes too.
    let (wide, narrow): (&[Machine], &[Machine]) = if cfg!(target_arch = "x86_64") {
        (&[EM_X86_64], &[EM_386, Machine(6), EM_X86_64])
    } else if cfg!(target_arch = "aarch64") {
        (&[EM_AARCH64], &[EM_ARM])
    } else {
        (&[], &[])
    };
    let mut readings = Vec::new();
    if wide.contains(&machine) {
        readings.push(Reading::Wide(How::Kernel));
    }
    if narrow.contains(&machine) {
        readings.push(Reading::Narrow(How::Kernel));
    }
    if readings.is_empty() {
        // Another machine's file (binfmt_misc's, or none): as it says.
        match head.get(4) {
            Some(1) => readings.push(Reading::Narrow(How::Identified)),
            Some(2) => readings.push(Reading::Wide(How::Identified)),
            _ => {}
        }
    }
    readings
}

/// The program headers of an ELF file, the byte order they are in and
/// where they are in the file; None when the kernel would not run it so
/// read.
fn segments<'d, Elf: FileHeader<Endian = Endianness>>(
    head: &[u8],
    how: How,
    data: impl ReadRef<'d>,
) -> Option<(Endianness, &'d [Elf::ProgramHeader], u64)> {
    let mut header = head.get(..std::mem::size_of::<Elf>())?.to_vec();
    if let How::Kernel = how {
        // What the kernel takes the identification to say.
        header[4] = if Elf::is_type_64_sized() { 2 } else { 1 };
        header[5] = if cfg!(target_endian = "little") { 1 } else { 2 };
        header[6] = 1;
    }
    let parsed = Elf::parse(&header[..]).ok()?;
    let endian = parsed.endian().ok()?;
    let entry = std::mem::size_of::<Elf::ProgramHeader>();
    // As `elf_read_phdrs`: the entry size must be the class's, the count
    // taken as it is (no extended numbering), the table at most 64 KiB.
    let count = usize::from(parsed.e_phnum(endian));
    if usize::from(parsed.e_phentsize(endian)) != entry
        || count == 0
        || count * entry > MAX_HEADER_BYTES
    {
        return None;
    }
    let offset: u64 = parsed.e_phoff(endian).into();
    let segments = data.read_slice_at(offset, count).ok()?;
    Some((endian, segments, offset))
}

/// The `PT_INTERP` path, without its NUL: a binary built against another
/// libc (musl on glibc) fails with ENOENT though it exists. None when the
/// path is empty, longer than a path may be, or not NUL-ended (the kernel
/// refuses to run such a file).
fn loader<'d, Elf: FileHeader<Endian = Endianness>>(
    (endian, segments, _): (Endianness, &'d [Elf::ProgramHeader], u64),
    data: impl ReadRef<'d>,
) -> Option<&'d [u8]> {
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

/// What the program's memory holds at an address, as the kernel maps a
/// program and the loader a library: each `PT_LOAD` in whole pages, a
/// later one over an earlier.
enum Mapped {
    /// The file's bytes from `offset`, for `len` bytes at most (to the end
    /// of the page or of the file part).
    File { offset: u64, len: u64 },
    /// Zeros, for `len` bytes at most.
    Zeros { len: u64 },
    /// The rest of the page after a segment's file part when memory is
    /// zero-filled after it: the loader zeroes it, but the kernel leaves
    /// the file's bytes there when the segment is not writable. Read only
    /// where the file holds zeros too, so both readings agree.
    Either { offset: u64, len: u64 },
}

/// The page size the kernel and the loader map segments in.
fn page() -> u64 {
    rustix::param::page_size() as u64
}

/// What the bytes at `address` of the program's memory are: the last
/// `PT_LOAD` whose pages cover it decides. Its file part is mapped from
/// the start of the page `p_vaddr` is in to the end of the page its file
/// size ends in, so the page around a segment's file part holds the
/// file's bytes too (a dynamic section read on past the file size finds
/// them); when the memory size is larger, the rest is zeros. None for an
/// address nothing maps, or a segment exec would not map.
fn mapped_at<Elf: FileHeader<Endian = Endianness>>(
    endian: Endianness,
    segments: &[Elf::ProgramHeader],
    address: u64,
) -> Option<Mapped> {
    let page = page();
    let down = |a: u64| a - a % page;
    let up = |a: u64| a.checked_next_multiple_of(page);
    let page_end = up(address.checked_add(1)?)?;
    segments.iter().rev().find_map(|s| {
        if s.p_type(endian) != PT_LOAD {
            return None;
        }
        let vaddr: u64 = s.p_vaddr(endian).into();
        let (offset, filesz) = s.file_range(endian);
        let memsz: u64 = s.p_memsz(endian).into();
        let start = down(vaddr);
        let data_end = vaddr.checked_add(filesz)?;
        let file_end = if filesz == 0 { start } else { up(data_end)? };
        let end = file_end.max(up(vaddr.checked_add(memsz)?)?);
        if address < start || address >= end {
            return None;
        }
        let to = |limit: u64| limit.min(page_end) - address;
        if address >= file_end {
            return Some(Some(Mapped::Zeros { len: to(end) }));
        }
        // From the file offset of the first page's start: exec fails for a
        // segment whose offset and address disagree within a page.
        let at = offset
            .checked_sub(vaddr - start)
            .filter(|_| offset % page == vaddr % page)
            .and_then(|first| first.checked_add(address - start));
        let Some(at) = at else {
            return Some(None);
        };
        Some(Some(if memsz <= filesz || address < data_end {
            let limit = if memsz <= filesz { file_end } else { data_end };
            Mapped::File {
                offset: at,
                len: to(limit),
            }
        } else {
            Mapped::Either {
                offset: at,
                len: to(file_end),
            }
        }))
    })?
}

/// `len` bytes of the program's memory at `address` ([`mapped_at`]); a
/// page's bytes past the end of the file are zeros, as mapped.
fn memory<'d, Elf: FileHeader<Endian = Endianness>>(
    endian: Endianness,
    segments: &[Elf::ProgramHeader],
    data: impl ReadRef<'d>,
    address: u64,
    len: u64,
) -> Result<Vec<u8>, Unreadable> {
    let file_len = data.len().map_err(|_| Unreadable)?;
    let mut out = Vec::new();
    let mut at = address;
    while (out.len() as u64) < len {
        let want = len - out.len() as u64;
        let (offset, run, either) =
            match mapped_at::<Elf>(endian, segments, at).ok_or(Unreadable)? {
                Mapped::Zeros { len } => {
                    let n = len.min(want);
                    out.resize(out.len() + n as usize, 0);
                    at = at.checked_add(n).ok_or(Unreadable)?;
                    continue;
                }
                Mapped::File { offset, len } => (offset, len.min(want), false),
                Mapped::Either { offset, len } => (offset, len.min(want), true),
            };
        let in_file = run.min(file_len.saturating_sub(offset));
        let bytes = if in_file == 0 {
            &[][..]
        } else {
            data.read_bytes_at(offset, in_file)
                .map_err(|_| Unreadable)?
        };
        if either && bytes.iter().any(|&b| b != 0) {
            return Err(Unreadable);
        }
        out.extend_from_slice(bytes);
        out.resize(out.len() + (run - in_file) as usize, 0);
        at = at.checked_add(run).ok_or(Unreadable)?;
    }
    Ok(out)
}

/// The longest string of the dynamic section read (a real one is a path
/// or a short list of them); longer is [`Unreadable`]. It also bounds
/// what a file crafted with thousands of entries naming long strings
/// costs to read.
const MAX_STRING: u64 = 4096;

/// The string at `address` of the program's memory, up to its NUL.
fn string<'d, Elf: FileHeader<Endian = Endianness>>(
    endian: Endianness,
    segments: &[Elf::ProgramHeader],
    data: impl ReadRef<'d>,
    address: u64,
) -> Result<Vec<u8>, Unreadable> {
    let mut out = Vec::new();
    let mut at = address;
    while (out.len() as u64) < MAX_STRING {
        // To the end of the page at most: the next may be mapped apart.
        let chunk = (page() - at % page()).min(256);
        let bytes = memory::<Elf>(endian, segments, data, at, chunk)?;
        if let Some(nul) = bytes.iter().position(|&b| b == 0) {
            out.extend_from_slice(&bytes[..nul]);
            return Ok(out);
        }
        out.extend_from_slice(&bytes);
        at = at.checked_add(chunk).ok_or(Unreadable)?;
    }
    Err(Unreadable)
}

/// For a program the kernel runs, the loader finds the program headers
/// in memory where the kernel says they are (`AT_PHDR`: in the last
/// `PT_LOAD` whose file part holds them), takes the program's load address
/// to be that less `PT_PHDR`'s address, and reads the dynamic section at
/// `PT_DYNAMIC`'s address from there. A `PT_PHDR` that lies, or headers in
/// memory other than the file's, have the loader read a dynamic section
/// other than the one plugctl reads: [`Unreadable`]. (A library is mapped
/// by the loader, which reads its headers from the file; the rule costs a
/// real one nothing.)
fn loaded_where_it_says<'d, Elf: FileHeader<Endian = Endianness>>(
    endian: Endianness,
    segments: &[Elf::ProgramHeader],
    phoff: u64,
    data: impl ReadRef<'d>,
) -> Result<(), Unreadable> {
    let Some(stated) = segments.iter().find(|s| s.p_type(endian) == PT_PHDR) else {
        return Ok(());
    };
    let table = std::mem::size_of_val(segments) as u64;
    let at = segments
        .iter()
        .filter(|s| s.p_type(endian) == PT_LOAD)
        .filter_map(|s| {
            let (offset, size) = s.file_range(endian);
            let within = phoff.checked_sub(offset).filter(|&w| w < size)?;
            let vaddr: u64 = s.p_vaddr(endian).into();
            vaddr.checked_add(within)
        })
        .last()
        .unwrap_or(0);
    let stated: u64 = stated.p_vaddr(endian).into();
    let in_memory = memory::<Elf>(endian, segments, data, at, table)?;
    let in_file = data.read_bytes_at(phoff, table).map_err(|_| Unreadable)?;
    if stated != at || in_memory != in_file {
        return Err(Unreadable);
    }
    Ok(())
}

/// What the dynamic segment names, read as the loader reads it: the last
/// `PT_DYNAMIC`, at its address in the loaded segments, up to `DT_NULL`,
/// and each string at `DT_STRTAB`'s address plus its offset, up to its NUL
/// (`DT_STRSZ`, which the loader never looks at, bounds nothing).
fn linked<'d, Elf: FileHeader<Endian = Endianness>>(
    (endian, segments, phoff): (Endianness, &'d [Elf::ProgramHeader], u64),
    data: impl ReadRef<'d>,
) -> Result<Linked, Unreadable> {
    let Some(dynamic) = segments
        .iter()
        .rev()
        .find(|s| s.p_type(endian) == PT_DYNAMIC)
    else {
        return Ok(Linked::default());
    };
    loaded_where_it_says::<Elf>(endian, segments, phoff, data)?;
    let entry_len = std::mem::size_of::<Elf::Dyn>() as u64;
    let start: u64 = dynamic.p_vaddr(endian).into();
    let (mut strtab, mut search, mut rpath) = (None, None, None);
    let mut needed = Vec::new();
    let mut ended = false;
    for i in 0..MAX_DYNAMIC {
        // Read from memory as mapped: zeros past a segment's file part
        // are a DT_NULL, the file's bytes in the rest of its page are not.
        let at = start.checked_add(i * entry_len).ok_or(Unreadable)?;
        let bytes = memory::<Elf>(endian, segments, data, at, entry_len)?;
        let entry = bytes
            .as_slice()
            .read_at::<Elf::Dyn>(0)
            .map_err(|_| Unreadable)?;
        let value: u64 = entry.d_val(endian).into();
        match entry.d_tag(endian) {
            DT_NULL => {
                ended = true;
                break;
            }
            DT_STRTAB => strtab = Some(value),
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
    if !ended {
        return Err(Unreadable);
    }
    if search.is_none() && rpath.is_none() && needed.is_empty() {
        return Ok(Linked::default());
    }
    let strtab = strtab.ok_or(Unreadable)?;
    let text = |at: u64| -> Result<Vec<u8>, Unreadable> {
        string::<Elf>(
            endian,
            segments,
            data,
            strtab.checked_add(at).ok_or(Unreadable)?,
        )
    };
    let search = match search.or(rpath) {
        Some(at) => text(at)?
            .split(|&b| b == b':')
            .map(|dir| OsString::from_vec(dir.to_vec()))
            .collect(),
        None => Vec::new(),
    };
    let (mut by_path, mut by_name, mut by_token) = (Vec::new(), Vec::new(), Vec::new());
    for (at, list) in needed {
        let names = text(at)?;
        let names: Vec<&[u8]> = if list {
            names.split(|&b| b == b':').collect()
        } else {
            vec![&names[..]]
        };
        for name in names.into_iter().filter(|name| !name.is_empty()) {
            let name = OsString::from_vec(name.to_vec());
            if name.as_encoded_bytes().contains(&b'/') {
                by_path.push(name);
            } else {
                // An audit library named bare is looked for as a library
                // needed is, the program's search path first. The loader
                // fills a token in before it looks (and a `$LIB` makes the
                // name a path from the working directory).
                match loader_token(name.as_encoded_bytes()) {
                    Some(_) => by_token.push(name),
                    None => by_name.push(name),
                }
            }
        }
    }
    Ok(Linked {
        search,
        by_path,
        by_name,
        by_token,
    })
}

#[cfg(test)]
mod tests {
    use super::{Linked, Unreadable, interpreter, interpreter_in, library_paths_in, loader_token};
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
                // Loaded where it is in the file: address = offset.
                if self.wide {
                    self.put(&mut out, at + 8, offset, 8);
                    self.put(&mut out, at + 16, offset, 8);
                    self.put(&mut out, at + 32, size, 8);
                } else {
                    self.put(&mut out, at + 4, offset, 4);
                    self.put(&mut out, at + 8, offset, 4);
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

    fn linked(file: &[u8]) -> Result<Linked, Unreadable> {
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
    fn tokens_are_read_as_the_loader_reads_them() {
        let token = |n: &str| loader_token(n.as_bytes());
        assert_eq!(token("libx-$PLATFORM.so"), Some("PLATFORM"));
        assert_eq!(token("libx-${LIB}.so"), Some("LIB"));
        assert_eq!(token("$ORIGIN"), Some("ORIGIN"));
        assert_eq!(token("a$$LIB"), Some("LIB"));
        for plain in [
            "libc.so.6",
            "lib$ORIGINAL.so",
            "lib${LIB.so",
            "x$",
            "$LIBS",
            "$lib",
        ] {
            assert_eq!(token(plain), None, "{plain}");
        }
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
            by_name: vec![OsString::from("libc.so.6"), OsString::from("a.so")],
            by_token: vec![],
        };
        for wide in [true, false] {
            for little in [true, false] {
                let elf = dynamic(wide, little, &entries, strings);
                assert_eq!(
                    linked(&elf),
                    Ok(want.clone()),
                    "wide {wide} little {little}"
                );
            }
        }
        // Without DT_RUNPATH, DT_RPATH is the search path.
        let elf = dynamic(true, true, &[entries[2], entries[5], entries[6]], strings);
        assert_eq!(linked(&elf).unwrap().search, vec![OsString::from("/old")]);
        // Entries after DT_NULL are not read.
        let elf = dynamic(
            true,
            true,
            &[entries[5], entries[6], (0, 0), entries[3]],
            strings,
        );
        assert_eq!(linked(&elf), Ok(Linked::default()));
        // A string table outside every loaded segment cannot be read as
        // the loader would: what it names is unknown, not nothing.
        let mut elf = dynamic(true, true, &entries, strings);
        let strtab_value = 512 + 5 * 16 + 8;
        elf[strtab_value..strtab_value + 8].copy_from_slice(&(1u64 << 40).to_le_bytes());
        assert_eq!(linked(&elf), Err(Unreadable));
        // A script has none.
        assert_eq!(linked(b"#!/bin/sh\n"), Ok(Linked::default()));
    }

    /// `elf` marked as this machine's own (64-bit) program.
    #[cfg(target_arch = "x86_64")]
    fn native(mut elf: Vec<u8>) -> Vec<u8> {
        elf[18..20].copy_from_slice(&object::elf::EM_X86_64.0.to_ne_bytes());
        elf
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn a_native_program_is_read_as_the_kernel_reads_it() {
        // The kernel never looks at the class, byte order or version byte
        // of a program of its own machine: nor does the reader.
        let good = native(Elf::new(true, true).with_interp(MUSL).bytes());
        for (at, byte) in [(4, 3u8), (4, 1), (5, 0), (5, 2), (6, 0), (6, 9)] {
            let mut odd = good.clone();
            odd[at] = byte;
            assert_eq!(
                read(&odd).as_deref(),
                Some("/lib/ld-musl-x86_64.so.1"),
                "byte {at} = {byte}"
            );
        }
        let strings = b"\0/tmp/x\0";
        let entries = [(29, 1), (5, 0), (10, strings.len() as u64), (0, 0)];
        let mut elf = native(dynamic(true, true, &entries, strings));
        elf[6] = 0;
        assert_eq!(linked(&elf).unwrap().search, vec![OsString::from("/tmp/x")]);
        // DT_STRSZ, which the loader never reads, bounds nothing: without
        // it, or too small, the search path is read all the same.
        for strsz in [None, Some(1)] {
            let mut entries = vec![(29, 1), (5, 0)];
            entries.extend(strsz.map(|n| (10, n)));
            entries.push((0, 0));
            let elf = native(dynamic(true, true, &entries, strings));
            assert_eq!(
                linked(&elf).unwrap().search,
                vec![OsString::from("/tmp/x")],
                "DT_STRSZ {strsz:?}"
            );
        }
        // A dynamic section never ended is unreadable, not empty.
        let mut entries = vec![(5, 0)];
        entries.extend(std::iter::repeat_n((29, 1), super::MAX_DYNAMIC as usize));
        let elf = native(dynamic(true, true, &entries, b"\0/tmp/x\0"));
        assert_eq!(linked(&elf), Err(Unreadable));
    }

    /// `elf` (from [`dynamic`]) with its loaded segment's file size and
    /// memory size set.
    fn sized(mut elf: Vec<u8>, filesz: u64, memsz: u64) -> Vec<u8> {
        elf[64 + 32..64 + 40].copy_from_slice(&filesz.to_le_bytes());
        elf[64 + 40..64 + 48].copy_from_slice(&memsz.to_le_bytes());
        elf
    }

    #[test]
    fn a_dynamic_section_is_read_from_the_pages_the_segments_map() {
        // The segment's file part ends after the string table's entry, in
        // the middle of the dynamic section: its page is mapped whole, so
        // the loader reads on through the file's bytes, as the reader does.
        let strings = b"\0/tmp/x\0";
        let entries = [(5, 0), (29, 1), (0, 0)];
        let full = dynamic(true, true, &entries, strings);
        let cut = 512 + 16;
        let want = vec![OsString::from("/tmp/x")];
        assert_eq!(linked(&sized(full.clone(), cut, cut)).unwrap().search, want);
        // The file's bytes past its end in that page are zeros: a DT_NULL
        // there ends it.
        let ended = dynamic(true, true, &entries[..1], b"");
        assert_eq!(linked(&ended), Ok(Linked::default()));
        // Memory zero-filled after the file part: the loader zeroes the
        // rest of the page, the kernel leaves the file's bytes in one it
        // cannot write; read only where both say the same.
        assert_eq!(linked(&sized(full.clone(), cut, 4096)), Err(Unreadable));
        let mut zeroed = full.clone();
        zeroed[cut as usize..].fill(0);
        assert_eq!(
            linked(&sized(zeroed, cut, 4096)),
            Ok(Linked::default()),
            "zeros either way"
        );
        // A PT_PHDR where the kernel loads the headers passes; one that
        // is not has the loader take another load address: unreadable.
        let mut elf = Elf::new(true, true);
        elf.headers = vec![(1, 0, 0), (2, 512, 48), (6, 64, 3 * 56)];
        elf.phnum = 3;
        elf.tail_at = 512;
        elf.extra = dynamic(true, true, &entries, strings)[512..].to_vec();
        let size = elf.bytes().len() as u64;
        elf.headers[0].2 = size;
        assert_eq!(linked(&elf.bytes()).unwrap().search, want);
        let mut lying = elf.bytes();
        lying[64 + 2 * 56 + 16..64 + 2 * 56 + 24].copy_from_slice(&128u64.to_le_bytes());
        assert_eq!(linked(&lying), Err(Unreadable));
        // A segment whose offset and address disagree within a page is
        // not mapped by exec: unreadable.
        let mut odd = full;
        odd[64 + 8..64 + 16].copy_from_slice(&8u64.to_le_bytes());
        assert_eq!(linked(&odd), Err(Unreadable));
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_loader_is_found_wherever_the_kernel_finds_it() {
        // Past the 256th program header: the kernel reads up to 64 KiB.
        let mut elf = Elf::new(true, true).with_interp(MUSL);
        let interp = elf.headers.pop().unwrap();
        elf.headers.extend(std::iter::repeat_n((0, 0, 0), 300));
        elf.headers.push(interp);
        elf.phnum = elf.headers.len() as u64;
        elf.tail_at = 64 + elf.headers.len() * 56;
        elf.headers.last_mut().unwrap().1 = elf.tail_at as u64;
        assert_eq!(
            read(&native(elf.bytes())).as_deref(),
            Some("/lib/ld-musl-x86_64.so.1")
        );
    }

    #[test]
    fn the_last_dynamic_segment_at_its_address_is_the_loaders() {
        // Two PT_DYNAMIC: the loader takes the last, at its address.
        let strings = b"\0/tmp/x\0/usr/lib\0";
        let first = dynamic(true, true, &[(29, 9), (5, 0), (0, 0)], strings);
        let mut elf = dynamic(true, true, &[(29, 1), (5, 0), (0, 0)], strings);
        // The same file with a first PT_DYNAMIC naming /usr/lib, put at
        // the end of the file and the headers.
        let at = elf.len() as u64;
        elf.extend_from_slice(&first[512..512 + 48]);
        let count = 3u16;
        elf[0x38..0x3a].copy_from_slice(&count.to_le_bytes());
        // Move the real PT_DYNAMIC (second header) to third, the decoy second.
        let real: Vec<u8> = elf[64 + 56..64 + 112].to_vec();
        let mut decoy = real.clone();
        decoy[8..16].copy_from_slice(&at.to_le_bytes());
        decoy[16..24].copy_from_slice(&at.to_le_bytes());
        elf[64 + 56..64 + 112].copy_from_slice(&decoy);
        elf[64 + 112..64 + 168].copy_from_slice(&real);
        // The loaded segment covers the whole file.
        let len = elf.len() as u64;
        elf[64 + 32..64 + 40].copy_from_slice(&len.to_le_bytes());
        assert_eq!(linked(&elf).unwrap().search, vec![OsString::from("/tmp/x")]);
        // A PT_DYNAMIC whose file offset shows one section and whose
        // address another: the address is what the loader reads.
        let mut elf = dynamic(true, true, &[(29, 1), (5, 0), (0, 0)], strings);
        let decoy_at = elf.len() as u64;
        let mut decoy = first[512..512 + 48].to_vec();
        // Its DT_STRTAB must still name the same table.
        decoy[24..32].copy_from_slice(&elf[512 + 24..512 + 32]);
        elf.extend_from_slice(&decoy);
        elf[64 + 56 + 8..64 + 56 + 16].copy_from_slice(&decoy_at.to_le_bytes());
        let len = elf.len() as u64;
        elf[64 + 32..64 + 40].copy_from_slice(&len.to_le_bytes());
        assert_eq!(linked(&elf).unwrap().search, vec![OsString::from("/tmp/x")]);
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

//! A fifteenth fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after review34.rs to review34r.rs,
//! aimed at what plugctl runs and what it prints: each test here is an
//! attack that found a way through.

use std::fs;

use crate::common::*;

/// The C source of a secrets plugin: its fingerprint, and `{"A": "b"}`.
const C_PLUGIN: &str = r#"#include <stdio.h>
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

/// A little-endian field of `elf`.
fn word(elf: &[u8], at: usize, len: usize) -> u64 {
    elf[at..at + len]
        .iter()
        .rev()
        .fold(0u64, |v, b| (v << 8) | u64::from(*b))
}

/// `program` (a 64-bit little-endian ELF file) with the loaded segment
/// that holds its dynamic section cut (file and memory size alike) right
/// after the section's first two entries, its string table's made one of
/// them. The kernel and the loader map whole
/// pages: the rest of the segment's last page still holds the file's
/// bytes, so the loader reads every entry as before. None when the
/// segment does not sit in one page or the first entry is the search
/// path itself.
fn cut_after_two_dynamic_entries(program: &[u8]) -> Option<Vec<u8>> {
    let mut elf = program.to_vec();
    let (phoff, phnum) = (word(&elf, 0x20, 8) as usize, word(&elf, 0x38, 2) as usize);
    let headers: Vec<usize> = (0..phnum).map(|i| phoff + i * 56).collect();
    let dynamic = headers.iter().find(|&&at| word(&elf, at, 4) == 2)?;
    let (dyn_offset, dyn_vaddr) = (
        word(&elf, dynamic + 8, 8) as usize,
        word(&elf, dynamic + 16, 8),
    );
    // The string table's entry (DT_STRTAB) made the second, the search
    // path's moved to where it was: the loader takes them in any order.
    let entry = |i: usize| dyn_offset + i * 16;
    let strtab = (0..64).find(|&i| word(&elf, entry(i), 8) == 5)?;
    let (first, second) = (elf[entry(1)..entry(2)].to_vec(), entry(strtab));
    elf.copy_within(second..second + 16, entry(1));
    elf[second..second + 16].copy_from_slice(&first);
    if [15, 29].contains(&word(&elf, entry(0), 8)) {
        return None;
    }
    let load = headers.iter().find(|&&at| {
        let (vaddr, filesz) = (word(&elf, at + 16, 8), word(&elf, at + 32, 8));
        word(&elf, at, 4) == 1 && vaddr <= dyn_vaddr && dyn_vaddr < vaddr + filesz
    })?;
    let (vaddr, memsz) = (word(&elf, load + 16, 8), word(&elf, load + 40, 8));
    if vaddr % 4096 + memsz > 4096 {
        return None;
    }
    let cut = dyn_vaddr - vaddr + 32;
    elf[load + 32..load + 40].copy_from_slice(&cut.to_le_bytes());
    elf[load + 40..load + 48].copy_from_slice(&cut.to_le_bytes());
    Some(elf)
}

/// The reader plugctl judges an ELF plugin's dynamic section with took a
/// loaded segment to end at its file size, and read an entry past it as
/// the zeros of `DT_NULL`. The kernel and the loader map whole pages:
/// when the segment has no zero-filled part (its memory size no larger),
/// the rest of its last page is the file's bytes, and the loader reads
/// the dynamic section on through them. A root-owned plugin linked with
/// `-rpath` naming a sticky directory, its data segment's sizes cut to
/// just after its first dynamic entries (`DT_NEEDED libc.so.6` and the
/// string table's, the search path's moved after them), ran as it
/// did before, but plugctl saw no search path: the loader mapped another
/// user's `libc.so.6` from there as root, and `validate` found nothing.
/// The segments are read as mapped, page by page.
#[test]
fn a_dynamic_section_past_its_segments_file_size_is_read_as_the_loader_reads_it() {
    let Some(intruder) = intruder() else { return };
    if !tool_available("cc", "an ELF plugin with a library search path") {
        return;
    }
    let s = Rig::new();
    let shared = sticky_dir(&s, "lib");
    let source = s.out_file("plugin.c");
    fs::write(&source, C_PLUGIN).unwrap();
    let built = s.out_file("plugin");
    let build = |extra: &[String]| {
        expect::Run::new(s.command("cc"), "cc")
            .args(["-o"])
            .arg(&built)
            .arg(&source)
            .args(["-Wl,-z,norelro"])
            .args_from(extra)
            .succeeds();
        fs::read(&built).unwrap()
    };
    let linked = build(&[
        format!("-Wl,-rpath,{}", shared.display()),
        "-Wl,--enable-new-dtags".into(),
    ]);
    let Some(elf) = cut_after_two_dynamic_entries(&linked) else {
        skip_unless_ci("cc made no program whose data segment sits in one page");
        return;
    };
    let plugin = s.plugins.join("secrets").join("vendored");
    s.file("secrets", "vendored", "", 0o755);
    fs::write(&plugin, &elf).unwrap();
    // Their libc.so.6 there: junk the loader refuses, which shows it was
    // looked for, had the plugin run.
    intruder.sh(
        &s,
        &format!("printf 'junk' > '{}'", shared.join("libc.so.6").display()),
    );
    let why = format!(
        "the ELF program {} has the loader search {:?} for its libraries, a sticky \
         directory others may add files to (mode 1777)",
        plugin.display(),
        shared.display().to_string()
    );
    plugctl(&s)
        .args(["secret", "fetch", "vendored", "x"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has(&why);
    plugctl(&s)
        .args(["validate"])
        .fails_with(Exit::Failure)
        .stdout_has(&why);
    // The same cut program without the search path runs: the page's tail
    // is read, not refused.
    let Some(elf) = cut_after_two_dynamic_entries(&build(&[])) else {
        skip_unless_ci("cc made no program whose data segment sits in one page");
        return;
    };
    fs::write(&plugin, &elf).unwrap();
    plugctl(&s)
        .args(["secret", "fetch", "vendored", "x"])
        .succeeds()
        .stdout_has("A=b");
}

/// A little-endian `value` written into `elf` at `at`.
fn put(elf: &mut [u8], at: usize, value: u64) {
    elf[at..at + 8].copy_from_slice(&value.to_le_bytes());
}

/// `program` (a 64-bit little-endian position-independent ELF file, its
/// data segment in one page) made to have the loader read a second
/// dynamic section: its `PT_PHDR` moved by the distance between the real
/// one and a copy near the end of the data segment's page (the loader
/// takes the program's load address from it), its real `DT_RUNPATH`
/// retagged `DT_DEBUG`, the copy naming `libc.so.6` and the search path.
/// None when the layout is not that.
fn with_a_second_dynamic_section(program: &[u8]) -> Option<Vec<u8>> {
    let mut elf = program.to_vec();
    let (phoff, phnum) = (word(&elf, 0x20, 8) as usize, word(&elf, 0x38, 2) as usize);
    let headers: Vec<usize> = (0..phnum).map(|i| phoff + i * 56).collect();
    let of = |kind: u64| {
        headers
            .iter()
            .copied()
            .find(|&at| word(&elf, at, 4) == kind)
    };
    let (phdr, dynamic) = (of(6)?, of(2)?);
    let (dyn_offset, dyn_vaddr) = (word(&elf, dynamic + 8, 8), word(&elf, dynamic + 16, 8));
    let load = headers.iter().copied().find(|&at| {
        let (vaddr, filesz) = (word(&elf, at + 16, 8), word(&elf, at + 32, 8));
        word(&elf, at, 4) == 1 && vaddr <= dyn_vaddr && dyn_vaddr < vaddr + filesz
    })?;
    let (offset, vaddr, filesz) = (
        word(&elf, load + 8, 8),
        word(&elf, load + 16, 8),
        word(&elf, load + 32, 8),
    );
    let page_end = (vaddr + filesz).next_multiple_of(4096);
    if vaddr / 4096 != (vaddr + filesz) / 4096 || page_end - (vaddr + filesz) < 0x200 {
        return None;
    }
    // No zero-filled part: the rest of the page is the file's bytes.
    put(&mut elf, load + 40, filesz);
    let copy = page_end - 0x100;
    let copy_at = (copy - vaddr + offset) as usize;
    if elf.len() < copy_at + 64 {
        elf.resize(copy_at + 64, 0);
    }
    let entry = |i: u64| (dyn_offset + i * 16) as usize;
    let find = |elf: &[u8], tag: u64| (0..64).map(entry).find(|&at| word(elf, at, 8) == tag);
    let (needed, runpath, strtab) = (find(&elf, 1)?, find(&elf, 29)?, find(&elf, 5)?);
    let delta = copy.wrapping_sub(dyn_vaddr);
    let entries = [
        (1, word(&elf, needed + 8, 8)),
        (29, word(&elf, runpath + 8, 8)),
        (5, word(&elf, strtab + 8, 8).wrapping_sub(delta)),
        (0, 0),
    ];
    for (i, (tag, value)) in entries.into_iter().enumerate() {
        put(&mut elf, copy_at + i * 16, tag);
        put(&mut elf, copy_at + i * 16 + 8, value);
    }
    put(&mut elf, runpath, 21);
    let stated = word(&elf, phdr + 16, 8);
    put(&mut elf, phdr + 16, stated.wrapping_sub(delta));
    Some(elf)
}

/// The loader takes a program's load address to be where the kernel put
/// its program headers less `PT_PHDR`'s address, and reads the dynamic
/// section at `PT_DYNAMIC`'s address from there; plugctl read it where
/// the program was really loaded. A root-owned plugin whose `PT_PHDR` was
/// moved by the distance to a second dynamic section in its data
/// segment's page had plugctl judge the first (`libc.so.6`, nothing
/// else), while the loader read the second, whose search path named a
/// sticky directory, and mapped another user's `libc.so.6` from there as
/// root. A program whose `PT_PHDR` is not where the kernel loads its
/// headers is refused as unreadable.
#[test]
fn a_program_header_table_that_lies_about_its_address_is_refused() {
    let Some(intruder) = intruder() else { return };
    if !tool_available("cc", "an ELF plugin with a library search path") {
        return;
    }
    let s = Rig::new();
    let shared = sticky_dir(&s, "lib");
    let source = s.out_file("plugin.c");
    fs::write(&source, C_PLUGIN).unwrap();
    let built = s.out_file("plugin");
    expect::Run::new(s.command("cc"), "cc")
        .args(["-o"])
        .arg(&built)
        .arg(&source)
        .args(["-pie", "-fPIE", "-Wl,-z,norelro", "-Wl,--enable-new-dtags"])
        .arg(format!("-Wl,-rpath,{}", shared.display()))
        .succeeds();
    let Some(elf) = with_a_second_dynamic_section(&fs::read(&built).unwrap()) else {
        skip_unless_ci("cc made no program whose data segment sits in one page");
        return;
    };
    let plugin = s.plugins.join("secrets").join("vendored");
    s.file("secrets", "vendored", "", 0o755);
    fs::write(&plugin, &elf).unwrap();
    intruder.sh(
        &s,
        &format!("printf 'junk' > '{}'", shared.join("libc.so.6").display()),
    );
    let why = format!(
        "the ELF program {} has a dynamic section plugctl cannot read as the loader reads it",
        plugin.display()
    );
    plugctl(&s)
        .args(["secret", "fetch", "vendored", "x"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has(&why);
    plugctl(&s)
        .args(["validate"])
        .fails_with(Exit::Failure)
        .stdout_has(&why);
    // The loader really reads the second: run directly, it looks for
    // libc.so.6 in the sticky directory and finds their junk.
    let ran = std::process::Command::new(&plugin).output().unwrap();
    assert!(
        String::from_utf8_lossy(&ran.stderr).contains(&*shared.join("libc.so.6").to_string_lossy()),
        "{ran:?}"
    );
}

//! A fifteenth fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after review34.rs to review34r.rs,
//! aimed at what plugctl runs and what it prints: each test here is an
//! attack that found a way through.

use std::fs;

use crate::common::*;

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
    fs::write(&source, C_SECRETS_PLUGIN).unwrap();
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
    fs::write(&source, C_SECRETS_PLUGIN).unwrap();
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

/// A library a plugin's `LD_PRELOAD` names without a `/` is looked for by
/// the loader as the program's own needs are: in its search path and in
/// `LD_LIBRARY_PATH`. Only preloads named by a path had their own search
/// path judged, so `--env LD_PRELOAD=libpre.so --env
/// LD_LIBRARY_PATH=<root's directory>`, where root's `libpre.so` was
/// built with `-rpath` naming a sticky build directory, had the loader
/// look there for what `libpre.so` needs, and another user's library
/// there ran its constructor as root, for a shell plugin as for an ELF
/// one. A bare name is followed wherever the loader would find it.
#[test]
fn a_preloaded_library_named_without_a_path_has_its_search_path_judged() {
    let Some(intruder) = intruder() else { return };
    if !tool_available("cc", "libraries with a search path") {
        return;
    }
    let s = Rig::new();
    let build = sticky_dir(&s, "build");
    let cc = |args: &[&str]| {
        let mut run = expect::Run::new(s.command("cc"), "cc");
        for a in args {
            run = run.arg(a);
        }
        run.succeeds();
    };
    let out = |name: &str| s.out_file(name).display().to_string();
    fs::write(s.out_file("dep.c"), "int dep(void) { return 0; }\n").unwrap();
    fs::write(
        s.out_file("pre.c"),
        "int dep(void);\nint pre(void) { return dep(); }\n",
    )
    .unwrap();
    let canary = s.out_file("canary");
    fs::write(
        s.out_file("theirs.c"),
        format!(
            "#include <fcntl.h>\n__attribute__((constructor)) static void f(void) {{ \
             open(\"{}\", O_CREAT | O_WRONLY, 0644); }}\nint dep(void) {{ return 1; }}\n",
            canary.display()
        ),
    )
    .unwrap();
    // What the vendor linked against, in their build directory (gone on
    // the node); the preloaded library in a directory only root writes.
    let vendor_build = s.out_file("vb");
    make_dir(&vendor_build);
    cc(&[
        "-shared",
        "-fPIC",
        "-o",
        &format!("{}/libdep.so", vendor_build.display()),
        &out("dep.c"),
    ]);
    let pre = s.root().join("pre");
    make_dir(&pre);
    cc(&[
        "-shared",
        "-fPIC",
        "-o",
        &pre.join("libpre.so").display().to_string(),
        &out("pre.c"),
        &format!("-L{}", vendor_build.display()),
        "-ldep",
        &format!("-Wl,-rpath,{}", build.display()),
        "-Wl,--enable-new-dtags",
    ]);
    cc(&[
        "-shared",
        "-fPIC",
        "-o",
        &out("libtheirs.so"),
        &out("theirs.c"),
    ]);
    // Another user's libdep.so in the build directory.
    let theirs = build.join("libdep.so");
    intruder.sh(
        &s,
        &format!("cat '{}' > '{}'", out("libtheirs.so"), theirs.display()),
    );
    s.file(
        "secrets",
        "shell",
        "#!/bin/sh\necho '{\"result\": {\"A\": \"b\"}}'\n",
        0o755,
    );
    fs::write(s.out_file("plugin.c"), C_SECRETS_PLUGIN).unwrap();
    cc(&[
        "-o",
        &s.plugins
            .join("secrets")
            .join("compiled")
            .display()
            .to_string(),
        &out("plugin.c"),
    ]);
    let library_path = format!("LD_LIBRARY_PATH={}", pre.display());
    let search = format!(
        "the ELF program {} has the loader search {:?}",
        pre.join("libpre.so").display(),
        build.display().to_string()
    );
    for plugin in ["shell", "compiled"] {
        let refused = plugctl(&s)
            .args([
                "secret",
                "fetch",
                "--env",
                "LD_PRELOAD=libpre.so",
                "--env",
                &library_path,
                plugin,
                "x",
            ])
            .fails_with(Exit::Failure)
            .stderr();
        assert!(
            !canary.exists(),
            "their library's constructor ran as root ({plugin})"
        );
        assert!(refused.contains(&search), "{plugin}: {refused}");
    }
    // The build directory only root's, the vendor's library there: both
    // run with the preload.
    fs::remove_file(&theirs).unwrap();
    fs::copy(vendor_build.join("libdep.so"), &theirs).unwrap();
    fs::set_permissions(&build, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    for plugin in ["shell", "compiled"] {
        plugctl(&s)
            .args([
                "secret",
                "fetch",
                "--env",
                "LD_PRELOAD=libpre.so",
                "--env",
                &library_path,
                plugin,
                "x",
            ])
            .succeeds()
            .stdout_has("A=b");
    }
}

/// The libraries a plugin's own search path brings were followed for
/// their own search paths 16 deep, and then no further, silently: the
/// loader follows them as deep as they go. A root-owned plugin needing
/// `libl0.so` beside its vendor's other libraries, each needing the next
/// (`-rpath '$ORIGIN'`), the seventeenth built with `-rpath` naming a
/// sticky directory, had another user's `libdep.so` there loaded as
/// root, and `validate` found nothing. A library past the depth plugctl
/// follows is refused, naming it; one less deep has its search path
/// judged, as before.
#[test]
fn a_library_past_the_depth_plugctl_follows_is_refused_not_left_unjudged() {
    let Some(intruder) = intruder() else { return };
    if !tool_available("cc", "a chain of libraries") {
        return;
    }
    let s = Rig::new();
    let build = sticky_dir(&s, "build");
    let vend = s.root().join("vend");
    make_dir(&vend);
    let cc = |args: &[String]| {
        expect::Run::new(s.command("cc"), "cc")
            .args_from(args)
            .succeeds();
    };
    let out = |name: &str| s.out_file(name).display().to_string();
    fs::write(s.out_file("l.c"), "int f(void) { return 0; }\n").unwrap();
    fs::write(s.out_file("plugin.c"), C_SECRETS_PLUGIN).unwrap();
    // libdep.so, as the vendor linked it; another user's in the sticky
    // directory, whose constructor marks the canary.
    let vendor_build = s.out_file("vb");
    make_dir(&vendor_build);
    cc(&[
        "-shared".into(),
        "-fPIC".into(),
        "-o".into(),
        format!("{}/libdep.so", vendor_build.display()),
        out("l.c"),
    ]);
    let canary = s.out_file("canary");
    fs::write(
        s.out_file("theirs.c"),
        format!(
            "#include <fcntl.h>\n__attribute__((constructor)) static void f(void) {{ \
             open(\"{}\", O_CREAT | O_WRONLY, 0644); }}\n",
            canary.display()
        ),
    )
    .unwrap();
    cc(&[
        "-shared".into(),
        "-fPIC".into(),
        "-o".into(),
        out("libtheirs.so"),
        out("theirs.c"),
    ]);
    intruder.sh(
        &s,
        &format!(
            "cat '{}' > '{}'",
            out("libtheirs.so"),
            build.join("libdep.so").display()
        ),
    );
    // libl0.so .. libl<last>.so, each needing the next; the last libdep.so
    // with the sticky search path.
    let chain = |last: usize| {
        for i in (0..=last).rev() {
            let (lib, needs, rpath) = if i == last {
                (
                    vendor_build.display().to_string(),
                    "-ldep".to_string(),
                    build.display().to_string(),
                )
            } else {
                (
                    vend.display().to_string(),
                    format!("-ll{}", i + 1),
                    "$ORIGIN".to_string(),
                )
            };
            cc(&[
                "-shared".into(),
                "-fPIC".into(),
                "-o".into(),
                vend.join(format!("libl{i}.so")).display().to_string(),
                out("l.c"),
                "-Wl,--no-as-needed".into(),
                format!("-L{lib}"),
                needs,
                format!("-Wl,-rpath,{rpath}"),
                "-Wl,--enable-new-dtags".into(),
            ]);
        }
    };
    chain(16);
    let plugin = s.plugins.join("secrets").join("deep");
    s.file("secrets", "deep", "", 0o755);
    cc(&[
        "-o".into(),
        plugin.display().to_string(),
        out("plugin.c"),
        "-Wl,--no-as-needed".into(),
        format!("-L{}", vend.display()),
        "-ll0".into(),
        format!("-Wl,-rpath,{}", vend.display()),
        "-Wl,--enable-new-dtags".into(),
    ]);
    let why = format!(
        "needs the library {}, more than 16 libraries down from the plugin",
        vend.join("libl16.so").display()
    );
    plugctl(&s)
        .args(["secret", "fetch", "deep", "x"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has(&why);
    assert!(!canary.exists(), "their library's constructor ran as root");
    plugctl(&s)
        .args(["validate"])
        .fails_with(Exit::Failure)
        .stdout_has(&why);
    // One less deep: the sticky search path is found and named.
    fs::remove_file(vend.join("libl16.so")).unwrap();
    chain(15);
    plugctl(&s)
        .args(["secret", "fetch", "deep", "x"])
        .fails_with(Exit::Failure)
        .stderr_has(&format!(
            "the ELF program {} has the loader search {:?}",
            vend.join("libl15.so").display(),
            build.display().to_string()
        ));
    assert!(!canary.exists(), "their library's constructor ran as root");
}

/// The blank Braille pattern (U+2800) is a symbol to Unicode, so Rust's
/// `{:?}`, on which plugctl's escapes are built, prints it as it is; on a
/// terminal it is a blank cell. A secrets plugin named `vault` and U+2800
/// read as a second `vault` beside Nomad's built-in one in `fingerprint`
/// and `plugin list`, healthy and run from the plugin directory, as the
/// Hangul fillers did before review34q. It is escaped as they are, in
/// tables and messages alike.
#[test]
fn a_blank_braille_pattern_never_makes_a_name_read_as_another() {
    let s = Rig::new();
    s.file(
        "secrets",
        "vault\u{2800}",
        "#!/bin/sh\necho '{\"type\": \"secrets\", \"version\": \"1.0.0\"}'\n",
        0o755,
    );
    let shown = "vault\\u{2800}";
    plugctl(&s)
        .args(["fingerprint"])
        .succeeds()
        .stdout_has(shown)
        .stdout_lacks("\u{2800}");
    plugctl(&s)
        .args(["plugin", "list"])
        .succeeds()
        .stdout_has(shown)
        .stdout_lacks("\u{2800}");
    plugctl(&s)
        .args(["plugin", "show", "secrets", "nope\u{2800}"])
        .fails()
        .stderr_has("nope\\u{2800}")
        .stderr_lacks("\u{2800}");
}

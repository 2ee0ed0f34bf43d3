//! A fourteenth fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after review34.rs to review34q.rs,
//! aimed at what plugctl runs and what it prints: each test here is an
//! attack that found a way through.

use std::fs;

use crate::common::*;

/// Linux runs an ELF file by its magic, its type and its machine alone:
/// it never looks at the identification's class, byte order or version
/// bytes (nor does the loader, for the program the kernel mapped). The
/// ELF reader plugctl judges the loader with refused such a file as not
/// ELF, so a root-owned binary whose `PT_INTERP` names another user's
/// file, with its `EI_VERSION` byte 0 (or its class byte 3, or its byte
/// order 0), had its loader never judged: the kernel ran the other user's
/// loader as root. Such a file is read as the kernel reads it.
#[cfg(target_arch = "x86_64")]
#[test]
fn an_elf_header_the_kernel_runs_is_never_too_odd_to_judge() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let Ok(program) = fs::read("/usr/bin/true") else {
        skip_unless_ci("no /usr/bin/true to copy");
        return;
    };
    let Some(real) = loader_of(&program) else {
        skip_unless_ci("/usr/bin/true is no dynamically linked 64-bit little-endian ELF");
        return;
    };
    let shared = sticky_dir(&s, "s");
    let theirs = shared.join("l");
    let Some(elf) = with_loader(&program, theirs.to_str().unwrap()) else {
        skip_unless_ci("the scratch directory's path is too long for the loader field");
        return;
    };
    let canary = s.out_file("canary");
    // Their "loader": a static program that leaves a mark when it runs.
    if !tool_available("cc", "a static program to stand in for a loader") {
        return;
    }
    let source = s.out_file("mark.c");
    fs::write(&source, mark_source(&canary)).unwrap();
    expect::Run::new(s.command("cc"), "cc")
        .args(["-nostdlib", "-static-pie", "-fPIE", "-O1", "-o"])
        .arg(&theirs)
        .arg(&source)
        .succeeds();
    intruder.own(&theirs);
    assert!(real.starts_with('/'));
    s.file("secrets", "linked", "", 0o755);
    for (at, byte, what) in [
        (6, 0u8, "version 0"),
        (4, 3, "class 3"),
        (5, 0, "byte order 0"),
    ] {
        let mut odd = elf.clone();
        odd[at] = byte;
        fs::write(s.plugins.join("secrets").join("linked"), &odd).unwrap();
        let refused = plugctl(&s)
            .args(["secret", "fetch", "linked", "x"])
            .fails_with(Exit::Failure)
            .stderr();
        assert!(!canary.exists(), "{what}: their loader ran as root");
        assert!(
            refused.contains(&format!(
                "its interpreter {} (the ELF loader of {}) is not trusted",
                theirs.display(),
                s.plugins.join("secrets").join("linked").display()
            )),
            "{what}: {refused}"
        );
    }
}

/// The C source of an x86-64 program without libc that creates `canary`
/// and exits: run as a loader, it needs nothing the kernel does not give.
fn mark_source(canary: &std::path::Path) -> String {
    format!(
        "static long sys(long n, long a, long b, long c) {{ long r; __asm__ volatile \
         (\"syscall\" : \"=a\"(r) : \"a\"(n), \"D\"(a), \"S\"(b), \"d\"(c) : \
         \"rcx\", \"r11\", \"memory\"); return r; }}\n\
         void _start(void) {{ sys(2, (long)\"{}\", 0101, 0644); sys(60, 0, 0, 0); }}\n",
        canary.display()
    )
}

/// `program` (a 64-bit little-endian ELF file) with every dynamic entry
/// tagged `from` retagged `to`; None when it has none.
fn retagged(program: &[u8], from: u64, to: u64) -> Option<Vec<u8>> {
    let mut elf = program.to_vec();
    let word = |elf: &[u8], at: usize, len: usize| {
        elf[at..at + len]
            .iter()
            .rev()
            .fold(0u64, |v, b| (v << 8) | u64::from(*b))
    };
    let (phoff, phnum) = (word(&elf, 0x20, 8) as usize, word(&elf, 0x38, 2) as usize);
    let mut changed = false;
    for i in 0..phnum {
        let at = phoff + i * 56;
        if word(&elf, at, 4) != 2 {
            continue;
        }
        let (offset, size) = (
            word(&elf, at + 8, 8) as usize,
            word(&elf, at + 32, 8) as usize,
        );
        for entry in (offset..offset + size).step_by(16) {
            if word(&elf, entry, 8) == from {
                elf[entry..entry + 8].copy_from_slice(&to.to_le_bytes());
                changed = true;
            }
        }
    }
    changed.then_some(elf)
}

/// The loader never reads `DT_STRSZ`: it finds each string of the dynamic
/// section at `DT_STRTAB`'s address plus its offset, up to its NUL. The
/// reader plugctl judged a plugin's search path with gave up on a dynamic
/// section without it (or with one too small for the strings) and took
/// the program as naming nothing: a root-owned plugin linked with
/// `-rpath` naming a sticky directory, its `DT_STRSZ` retagged, had its
/// search path never judged, and the loader mapped another user's
/// `libc.so.6` from there, running its constructor as root. Its strings
/// are read as the loader reads them; a dynamic section plugctl cannot
/// read so is refused, not taken as empty.
#[test]
fn a_dynamic_section_without_its_string_table_size_is_still_judged() {
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
        .arg(format!("-Wl,-rpath,{}", shared.display()))
        .arg("-Wl,--enable-new-dtags")
        .succeeds();
    // DT_STRSZ (10) made DT_DEBUG (21), which the loader fills in itself.
    let Some(elf) = retagged(&fs::read(&built).unwrap(), 10, 21) else {
        skip_unless_ci("cc made no 64-bit little-endian program with a DT_STRSZ");
        return;
    };
    // Their libc.so.6 there: junk the loader would refuse, enough to show
    // it was looked for, had the plugin run.
    intruder.sh(
        &s,
        &format!("printf 'junk' > '{}'", shared.join("libc.so.6").display()),
    );
    s.file("secrets", "vendored", "", 0o755);
    fs::write(s.plugins.join("secrets").join("vendored"), &elf).unwrap();
    let why = format!(
        "the ELF program {} has the loader search {:?} for its libraries, a sticky \
         directory others may add files to (mode 1777)",
        s.plugins.join("secrets").join("vendored").display(),
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
    // The same program without the search path runs: only the search
    // path was refused, not the missing DT_STRSZ.
    expect::Run::new(s.command("cc"), "cc")
        .args(["-o"])
        .arg(&built)
        .arg(&source)
        .succeeds();
    let elf = retagged(&fs::read(&built).unwrap(), 10, 21).unwrap();
    fs::write(s.plugins.join("secrets").join("vendored"), &elf).unwrap();
    plugctl(&s)
        .args(["secret", "fetch", "vendored", "x"])
        .succeeds()
        .stdout_has("A=b");
}

/// The gate judged an ELF plugin's own library search path, but not
/// those of the libraries the loader takes from it: a vendor's library
/// shipped beside a root-owned plugin (linked with `-rpath '$ORIGIN'`, in
/// a directory only root writes), itself built with `-rpath` naming a
/// build directory that is sticky and world-writable, had the loader look
/// there first for what the library needs, and another user's library
/// there ran its constructor as root. The libraries the loader takes from
/// the plugin's own search path, or by a path, have theirs judged too.
#[test]
fn a_library_beside_a_plugin_never_brings_a_search_path_another_user_fills() {
    let Some(intruder) = intruder() else { return };
    if !tool_available("cc", "an ELF plugin with libraries of its own") {
        return;
    }
    let s = Rig::new();
    let build = sticky_dir(&s, "build");
    let dir = s.plugins.join("secrets");
    s.file("secrets", "vendored", "", 0o755);
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
        s.out_file("vend.c"),
        "int dep(void);\nint vend(void) { return dep(); }\n",
    )
    .unwrap();
    fs::write(
        s.out_file("plugin.c"),
        C_SECRETS_PLUGIN
            .replace("int main(", "int vend(void);\nint main(")
            .replace("  puts(\"{\\\"result", "  vend();\n  puts(\"{\\\"result"),
    )
    .unwrap();
    // What the vendor linked against, in their build directory (gone on
    // the node).
    let vendor_build = s.out_file("vb");
    make_dir(&vendor_build);
    cc(&[
        "-shared",
        "-fPIC",
        "-o",
        &format!("{}/libdep.so", vendor_build.display()),
        &out("dep.c"),
    ]);
    cc(&[
        "-shared",
        "-fPIC",
        "-o",
        &dir.join("libvend.so").display().to_string(),
        &out("vend.c"),
        &format!("-L{}", vendor_build.display()),
        "-ldep",
        &format!("-Wl,-rpath,{}", build.display()),
        "-Wl,--enable-new-dtags",
    ]);
    cc(&[
        "-o",
        &dir.join("vendored").display().to_string(),
        &out("plugin.c"),
        &format!("-L{}", dir.display()),
        "-lvend",
        "-Wl,-rpath,$ORIGIN",
        "-Wl,--enable-new-dtags",
        "-Wl,--allow-shlib-undefined",
    ]);
    // Another user's libdep.so in the build directory, whose constructor
    // leaves a mark.
    let canary = s.out_file("canary");
    fs::write(
        s.out_file("theirs.c"),
        format!(
            "#include <fcntl.h>\nint dep(void) {{ return 0; }}\n\
             __attribute__((constructor)) static void mark(void) {{ open(\"{}\", O_CREAT | O_WRONLY, 0644); }}\n",
            canary.display()
        ),
    )
    .unwrap();
    let theirs = build.join("libdep.so");
    cc(&[
        "-shared",
        "-fPIC",
        "-o",
        &theirs.display().to_string(),
        &out("theirs.c"),
    ]);
    intruder.own(&theirs);
    let refused = plugctl(&s)
        .args(["secret", "fetch", "vendored", "x"])
        .fails_with(Exit::Failure)
        .stderr();
    assert!(!canary.exists(), "their library's constructor ran as root");
    assert!(
        refused.contains(&format!(
            "needs the library {}, and the ELF program {} has the loader search {:?} for its \
             libraries, a sticky directory others may add files to (mode 1777)",
            dir.join("libvend.so").display(),
            dir.join("libvend.so").display(),
            build.display().to_string()
        )),
        "{refused}"
    );
    plugctl(&s)
        .args(["validate"])
        .fails_with(Exit::Failure)
        .stdout_has(&format!(
            "needs the library {}",
            dir.join("libvend.so").display()
        ));
    // The same library found through the plugin's LD_LIBRARY_PATH, a
    // directory of root's, by a plugin without a search path of its own.
    let vlib = s.root().join("vlib");
    make_dir(&vlib);
    fs::rename(dir.join("libvend.so"), vlib.join("libvend.so")).unwrap();
    cc(&[
        "-o",
        &dir.join("vendored").display().to_string(),
        &out("plugin.c"),
        &format!("-L{}", vlib.display()),
        "-lvend",
        "-Wl,--allow-shlib-undefined",
    ]);
    let library_path = format!("LD_LIBRARY_PATH={}", vlib.display());
    let refused = plugctl(&s)
        .args(["secret", "fetch", "--env", &library_path, "vendored", "x"])
        .fails_with(Exit::Failure)
        .stderr();
    assert!(!canary.exists(), "their library's constructor ran as root");
    assert!(
        refused.contains(&format!(
            "needs the library {}",
            vlib.join("libvend.so").display()
        )),
        "{refused}"
    );
    // So for an ELF interpreter of a script plugin, which needs it.
    let ibin = s.root().join("ibin");
    make_dir(&ibin);
    let interp = ibin.join("interp");
    cc(&[
        "-o",
        &interp.display().to_string(),
        &out("plugin.c"),
        &format!("-L{}", vlib.display()),
        "-lvend",
        "-Wl,--allow-shlib-undefined",
    ]);
    s.file(
        "secrets",
        "scripted",
        &format!("#!{}\n", interp.display()),
        0o755,
    );
    let refused = plugctl(&s)
        .args(["secret", "fetch", "--env", &library_path, "scripted", "x"])
        .fails_with(Exit::Failure)
        .stderr();
    assert!(!canary.exists(), "their library's constructor ran as root");
    assert!(
        refused.contains(&format!(
            "runs under {}, and the ELF program {} needs the library {}",
            interp.display(),
            interp.display(),
            vlib.join("libvend.so").display()
        )),
        "{refused}"
    );
    // And a library of root's the plugin's LD_PRELOAD loads into a shell
    // plugin, built the same way.
    let pre = s.root().join("pre");
    make_dir(&pre);
    cc(&[
        "-shared",
        "-fPIC",
        "-o",
        &pre.join("libpre.so").display().to_string(),
        &out("vend.c"),
        &format!("-L{}", vendor_build.display()),
        "-ldep",
        &format!("-Wl,-rpath,{}", build.display()),
        "-Wl,--enable-new-dtags",
    ]);
    s.file(
        "secrets",
        "shell",
        "#!/bin/sh\necho '{\"result\": {\"A\": \"b\"}}'\n",
        0o755,
    );
    let preload = format!("LD_PRELOAD={}", pre.join("libpre.so").display());
    let refused = plugctl(&s)
        .args(["secret", "fetch", "--env", &preload, "shell", "x"])
        .fails_with(Exit::Failure)
        .stderr();
    assert!(!canary.exists(), "their library's constructor ran as root");
    assert!(
        refused.contains(&format!(
            "LD_PRELOAD loads {}, and the ELF program {} has the loader search {:?}",
            pre.join("libpre.so").display(),
            pre.join("libpre.so").display(),
            build.display().to_string()
        )),
        "{refused}"
    );
    // Its build directory only root's: the plugin runs, their library
    // gone.
    fs::remove_file(&theirs).unwrap();
    fs::copy(vendor_build.join("libdep.so"), &theirs).unwrap();
    std::fs::set_permissions(&build, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    for plugin in ["vendored", "scripted"] {
        plugctl(&s)
            .args(["secret", "fetch", "--env", &library_path, plugin, "x"])
            .succeeds()
            .stdout_has("A=b");
    }
    plugctl(&s)
        .args(["secret", "fetch", "--env", &preload, "shell", "x"])
        .succeeds()
        .stdout_has("A=b");
}

//! A thirteenth fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after review34.rs to review34o.rs,
//! aimed at what plugctl prints and what it runs: each test here is an
//! attack that found a way through.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use crate::common::*;

/// A path of a plugin's environment that does not exist yet passed when
/// the directory it would be made in was sticky but only its group, not
/// everyone, could write it (mode `1775`, which the gate passes on the way
/// to a file as it passes `/tmp`): `--env PATH=<that dir>/bin:/usr/bin`
/// was judged fine, and any member of the group who made `bin` after the
/// check, while the plugin started, had their `hostname` run as root in
/// its place. Such a path is refused as one in `/tmp` is, naming the
/// directory; made by the member before the call, it is refused for its
/// owner, as before.
#[test]
fn a_path_not_made_yet_in_a_sticky_directory_its_group_writes_is_refused() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let shared = s.root().join("shared");
    make_dir(&shared);
    nix::unistd::chown(&shared, Some(0.into()), Some(intruder.gid.into())).unwrap();
    fs::set_permissions(&shared, fs::Permissions::from_mode(0o1775)).unwrap();
    let theirs = shared.join("bin");
    s.file(
        "secrets",
        "host",
        "#!/bin/sh\n\
         [ \"$1\" = fingerprint ] && echo '{\"type\": \"secrets\", \"version\": \"1.0.0\"}' && exit 0\n\
         echo \"{\\\"result\\\": {\\\"HOST\\\": \\\"$(hostname)\\\"}}\"\n",
        0o755,
    );
    let path = format!("PATH={}:/usr/bin:/bin", theirs.display());
    plugctl(&s)
        .args(["secret", "fetch", "--env", &path, "host", "x"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has(&format!(
            "which does not exist, and any member of its group may create it in the sticky {} \
             (mode 1775)",
            shared.display()
        ));
    plugctl(&s)
        .args(["secret", "fetch", "--dry-run", "--env", &path, "host", "x"])
        .succeeds()
        .stderr_has("the real call would be refused")
        .stderr_has("any member of its group may create it");
    // What the member could do at any moment: make it theirs, with their
    // program in it.
    let canary = s.out_file("canary");
    intruder.sh(
        &s,
        &format!(
            "mkdir {d} && printf '#!/bin/sh\\n: > {c}\\necho theirs\\n' > {d}/hostname && \
             chmod 755 {d}/hostname",
            c = canary.display(),
            d = theirs.display()
        ),
    );
    plugctl(&s)
        .args(["secret", "fetch", "--env", &path, "host", "x"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has("its environment's PATH names");
    assert!(!canary.exists(), "their hostname ran as root");
    // A sticky directory only root may write gives no one else the name.
    fs::remove_dir_all(&theirs).unwrap();
    fs::set_permissions(&shared, fs::Permissions::from_mode(0o1755)).unwrap();
    plugctl(&s)
        .args(["secret", "fetch", "--env", &path, "host", "x"])
        .succeeds()
        .stdout_has("HOST=");
}

/// A root `less` on a terminal, after `setup` in sh, that searches for
/// `b` in `file` and quits, as an operator reading a log would.
fn less_searching(s: &Rig, setup: &str, file: &std::path::Path) {
    expect::Run::new(s.command("script"), "script")
        .args(["-qec"])
        .arg(format!(
            "{setup}; TERM=dumb less '{}' < /dev/tty",
            file.display()
        ))
        .arg("/dev/null")
        .env("PLUGCTL", PLUGCTL)
        .stdin(b"/b\nq".to_vec())
        .succeeds();
}

/// less, on every Debian node (priority important), saves its search
/// history when it quits after a search by writing a new file and renaming
/// it onto `LESSHISTFILE`, whatever that names: a store's
/// `LESSHISTFILE=/etc/passwd` made the next search in a root `less`, in a
/// script or at the shell that ran `eval` of `--format env`, replace the
/// node's `/etc/passwd` with its history (mode 600, every account gone).
/// The key is refused by the env and kv formats as less's other variables
/// are, and never reaches a plugin's environment.
#[test]
fn env_output_never_makes_less_replace_a_file_of_the_stores_choosing() {
    let s = Rig::new();
    let victim = s.out_file("passwd");
    fs::write(&victim, "root:x:0:0:root:/root:/bin/bash\n").unwrap();
    store_answering(
        &s,
        "store",
        &[
            ("LESSHISTFILE", victim.display().to_string()),
            ("GOOD", "plain".into()),
        ],
    );
    for format in ["env", "kv"] {
        plugctl(&s)
            .args(["secret", "fetch", "store", "app", "--format", format])
            .fails_with(Exit::Failure)
            .stdout_empty()
            .stderr_has("\"LESSHISTFILE\" would change");
    }
    plugctl(&s)
        .args(["secret", "fetch", "--env"])
        .arg(format!("LESSHISTFILE={}", victim.display()))
        .args(["store", "app"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has("its environment holds LESSHISTFILE");
    if !tool_available("less", "what a root less writes after the eval")
        || !tool_available("script", "a terminal for less")
    {
        return;
    }
    let log = s.out_file("log");
    fs::write(&log, "a\nb\nc\n").unwrap();
    // The attack is real: less replaces the file the variable names.
    less_searching(
        &s,
        &format!("export LESSHISTFILE='{}'", victim.display()),
        &log,
    );
    assert!(
        fs::read_to_string(&victim)
            .unwrap()
            .contains(".less-history-file:"),
        "less did not write its history where LESSHISTFILE pointed"
    );
    fs::write(&victim, "root:x:0:0:root:/root:/bin/bash\n").unwrap();
    less_searching(
        &s,
        "eval \"$(\"$PLUGCTL\" secret fetch store app --format env)\"",
        &log,
    );
    assert_eq!(
        fs::read_to_string(&victim).unwrap(),
        "root:x:0:0:root:/root:/bin/bash\n",
        "less, run after eval of plugctl's env output, replaced the store's file as root"
    );
}

/// The Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) are letters to
/// Unicode, so Rust's `{:?}`, on which plugctl's escapes were built,
/// prints them as they are; on a terminal they are blank, and U+1160
/// takes no cell at all. A secrets plugin named `vault` and U+1160 read as
/// a second `vault` beside Nomad's built-in one in `fingerprint` and
/// `plugin list`, healthy and run from the plugin directory, and the
/// same in messages and `--dry-run`. They are escaped as the zero-width
/// characters are, in tables and messages alike.
#[test]
fn a_hangul_filler_never_makes_a_name_read_as_another() {
    let s = Rig::new();
    for name in ["vault\u{1160}", "st\u{3164}"] {
        s.plugin(
            "secrets",
            name,
            "[ \"$1\" = fingerprint ] && echo '{\"type\": \"secrets\", \"version\": \"1.0.0\"}' && exit 0\n\
             echo '{\"result\": {\"A\": \"b\"}}'",
        );
    }
    let table = plugctl(&s).args(["fingerprint"]).succeeds().stdout();
    for shown in ["vault\\u{1160}", "st\\u{3164}"] {
        assert!(table.contains(shown), "{shown}: {table}");
    }
    assert!(
        !table.contains('\u{1160}') && !table.contains('\u{3164}'),
        "{table}"
    );
    let list = plugctl(&s).args(["plugin", "list"]).succeeds().stdout();
    assert!(list.contains("vault\\u{1160}"), "{list}");
    assert!(!list.contains('\u{1160}'), "{list}");
    let dry = plugctl(&s)
        .args(["secret", "fetch", "vault\u{1160}", "x", "--dry-run"])
        .succeeds()
        .stdout();
    assert!(
        dry.contains("secrets plugin \"vault\\u{1160}\"") && !dry.contains('\u{1160}'),
        "{dry}"
    );
    // JSON keeps the exact name for a program to read.
    plugctl(&s)
        .args(["plugin", "list", "-o", "json"])
        .succeeds()
        .stdout_has("\"vault\u{1160}\"");
}

/// plugctl read a `#!` line as env's only when its interpreter was named
/// `env`. GNU env does not look at the name it is started by: a link of
/// root's named `run` to `/usr/bin/env`, in a directory of root's, with
/// `#!<dir>/run -S PATH=<another user's directory> bash`, was judged as
/// an interpreter with one argument (the link led to root's env, fine),
/// while env split the line and ran the other user's `bash` as root;
/// `validate` found nothing. An interpreter whose link leads to `env` is
/// read as env, and the `bash` env would run is judged and refused.
#[test]
fn env_under_another_name_is_read_as_env() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let canary = s.out_file("canary");
    let theirs = s.root().join("theirs");
    make_dir(&theirs);
    intruder.own(&theirs);
    intruder.sh(
        &s,
        &format!(
            "printf '#!/bin/sh\\n: > {c}\\necho {{}}\\n' > {d}/bash && chmod 755 {d}/bash",
            c = canary.display(),
            d = theirs.display()
        ),
    );
    let bin = s.root().join("bin");
    make_dir(&bin);
    std::os::unix::fs::symlink("/usr/bin/env", bin.join("run")).unwrap();
    let body = "[ \"$1\" = fingerprint ] && echo '{\"type\": \"secrets\", \"version\": \"1.0.0\"}' && exit 0\n\
         echo '{\"result\": {\"A\": \"b\"}}'\n";
    s.file(
        "secrets",
        "renamed",
        &format!(
            "#!{} -S PATH={}:/usr/bin:/bin bash\n{body}",
            bin.join("run").display(),
            theirs.display()
        ),
        0o755,
    );
    let why = format!("its interpreter {}/bash", theirs.display());
    plugctl(&s)
        .args(["secret", "fetch", "renamed", "x"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has(&why)
        .stderr_has("is not trusted");
    plugctl(&s)
        .args(["validate"])
        .fails_with(Exit::Failure)
        .stdout_has(&why);
    assert!(
        !canary.exists(),
        "their bash ran as root through env under another name"
    );
    // The same link with root's own PATH runs, and is what runs.
    s.file(
        "secrets",
        "renamed",
        &format!(
            "#!{} -S PATH=/usr/bin:/bin bash\n{body}",
            bin.join("run").display()
        ),
        0o755,
    );
    plugctl(&s)
        .args(["secret", "fetch", "renamed", "x"])
        .succeeds()
        .stdout_has("A=b");
}

/// The gate judged a plugin's `#!` interpreter but not an ELF plugin's
/// loader, the `PT_INTERP` path the kernel maps and runs first: a
/// root-owned binary linked with `--dynamic-linker=<a sticky directory>/l`
/// (a build directory's loader, a copied toolchain's) ran whatever
/// another user put under that name as root, for the call, fingerprint
/// and validate. The loader is judged as an interpreter is: another
/// user's is refused, naming it; root's own passes the gate.
#[test]
fn an_elf_plugins_loader_passes_the_gate_as_an_interpreter_does() {
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
    intruder.sh(
        &s,
        &format!(
            "cp '{real}' '{}' && chmod 755 '{}'",
            theirs.display(),
            theirs.display()
        ),
    );
    s.file("secrets", "linked", "", 0o755);
    fs::write(s.plugins.join("secrets").join("linked"), &elf).unwrap();
    let why = format!(
        "its interpreter {} (the ELF loader of {}) is not trusted",
        theirs.display(),
        s.plugins.join("secrets").join("linked").display()
    );
    plugctl(&s)
        .args(["secret", "fetch", "linked", "x"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has(&why);
    plugctl(&s)
        .args(["fingerprint", "--type", "secrets", "linked"])
        .fails_with(Exit::Failure)
        .stdout_has(&why);
    plugctl(&s)
        .args(["validate"])
        .fails_with(Exit::Failure)
        .stdout_has(&why);
    // Root's own loader, in a directory of root's, passes the gate: the
    // fingerprint then runs it (unhealthy only for what `true` prints:
    // nothing).
    let ours = s.root().join("r");
    make_dir(&ours);
    fs::copy(&real, ours.join("l")).unwrap();
    let elf = with_loader(&program, ours.join("l").to_str().unwrap()).unwrap();
    fs::write(s.plugins.join("secrets").join("linked"), &elf).unwrap();
    let table = plugctl(&s)
        .args(["fingerprint", "--type", "secrets", "linked"])
        .fails_with(Exit::Failure)
        .stdout();
    assert!(!table.contains("is not trusted"), "{table}");
}

/// An ELF program's own library search path (`DT_RUNPATH`) was never
/// judged: the loader looks there for every library a program needs
/// (`libc.so.6` included) before the system's, so a root-owned plugin
/// linked with `-rpath '$ORIGIN'` (as vendors ship programs with their
/// libraries beside them) in a sticky plugin directory loaded another
/// user's `libc.so.6` from beside it, and ran its constructor as root.
/// Each directory of the search path is judged as one of
/// `LD_LIBRARY_PATH` is, `$ORIGIN` as the plugin's own directory: such a
/// plugin is refused, naming the path; in a directory only root writes
/// it runs. So is a library the plugin needs by its path (a `DT_NEEDED`
/// with a `/`, which the loader opens as it is): another user's is
/// refused, naming it.
#[test]
fn an_elf_plugins_own_library_path_is_judged_as_ld_library_path_is() {
    let Some(intruder) = intruder() else { return };
    if !tool_available("cc", "an ELF plugin with a library search path") {
        return;
    }
    let s = Rig::new();
    let source = s.out_file("plugin.c");
    fs::write(&source, C_SECRETS_PLUGIN).unwrap();
    let built = s.out_file("plugin");
    expect::Run::new(s.command("cc"), "cc")
        .args(["-o"])
        .arg(&built)
        .arg(&source)
        .args(["-Wl,-rpath,$ORIGIN", "-Wl,--enable-new-dtags"])
        .succeeds();
    let elf = fs::read(&built).unwrap();
    let shared = s.plugins.join("secrets");
    make_dir(&shared);
    fs::set_permissions(&shared, fs::Permissions::from_mode(0o1777)).unwrap();
    s.file("secrets", "vendored", "", 0o755);
    fs::write(shared.join("vendored"), &elf).unwrap();
    // Their libc.so.6 beside it: the loader would map it as root.
    intruder.sh(
        &s,
        &format!("printf 'junk' > '{}'", shared.join("libc.so.6").display()),
    );
    let why = format!(
        "the ELF program {} has the loader search \"$ORIGIN\" for its libraries, a sticky \
         directory others may add files to (mode 1777)",
        shared.join("vendored").display()
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
    // In a directory only root may write, `$ORIGIN` is root's: it runs.
    fs::remove_file(shared.join("libc.so.6")).unwrap();
    fs::set_permissions(&shared, fs::Permissions::from_mode(0o755)).unwrap();
    plugctl(&s)
        .args(["fingerprint", "--type", "secrets", "vendored"])
        .succeeds();
    plugctl(&s)
        .args(["secret", "fetch", "vendored", "x"])
        .succeeds()
        .stdout_has("A=b");
    // A library linked by its path (one without a soname records it so),
    // in a sticky directory, is opened as it is, whoever made it there.
    let shared_lib = sticky_dir(&s, "lib").join("libf.so");
    let lib_source = s.out_file("f.c");
    fs::write(&lib_source, "int f(void) { return 0; }\n").unwrap();
    expect::Run::new(s.command("cc"), "cc")
        .args(["-shared", "-fPIC", "-o"])
        .arg(&shared_lib)
        .arg(&lib_source)
        .succeeds();
    let linked = s.out_file("linked");
    expect::Run::new(s.command("cc"), "cc")
        .args(["-o"])
        .arg(&linked)
        .arg(&source)
        .arg("-Wl,--no-as-needed")
        .arg(&shared_lib)
        .succeeds();
    intruder.own(&shared_lib);
    fs::write(shared.join("vendored"), fs::read(&linked).unwrap()).unwrap();
    plugctl(&s)
        .args(["secret", "fetch", "vendored", "x"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has(&format!(
            "has the loader open the library {:?}, which plugctl does not trust",
            shared_lib.display().to_string()
        ));
}

/// The same for an ELF interpreter a plugin's `#!` line names: its loader
/// is what the kernel runs first for it. A root-owned interpreter linked
/// with a loader in a sticky directory ran another user's file there as
/// root for every plugin that named it; it is refused, naming the loader.
#[test]
fn an_elf_interpreters_loader_passes_the_gate_too() {
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
    let theirs = sticky_dir(&s, "s").join("l");
    let Some(elf) = with_loader(&program, theirs.to_str().unwrap()) else {
        skip_unless_ci("the scratch directory's path is too long for the loader field");
        return;
    };
    intruder.sh(
        &s,
        &format!(
            "cp '{real}' '{}' && chmod 755 '{}'",
            theirs.display(),
            theirs.display()
        ),
    );
    let bin = s.root().join("bin");
    make_dir(&bin);
    let interpreter = bin.join("interp");
    fs::write(&interpreter, &elf).unwrap();
    fs::set_permissions(&interpreter, fs::Permissions::from_mode(0o755)).unwrap();
    s.file(
        "secrets",
        "script",
        &format!("#!{}\n", interpreter.display()),
        0o755,
    );
    plugctl(&s)
        .args(["fingerprint", "--type", "secrets", "script"])
        .fails_with(Exit::Failure)
        .stdout_has(&format!(
            "its interpreter {} (the ELF loader of {}) is not trusted",
            theirs.display(),
            interpreter.display()
        ));
}

/// An audit library an ELF plugin names (`DT_AUDIT`, written by linking
/// with `--audit`) is loaded by the loader before the program and runs
/// its constructor first, as root; one in a sticky directory another user
/// may plant was never judged. Every library the dynamic section names by
/// a path (needed, audit, filter) is judged as a file of `LD_PRELOAD` is:
/// another user's is refused, naming it, and nothing of theirs runs.
#[test]
fn an_elf_plugins_audit_library_is_judged_as_a_library_it_needs() {
    let Some(intruder) = intruder() else { return };
    if !tool_available("cc", "an ELF plugin with an audit library") {
        return;
    }
    let s = Rig::new();
    let source = s.out_file("plugin.c");
    fs::write(&source, C_SECRETS_PLUGIN).unwrap();
    let audit = sticky_dir(&s, "audit").join("au.so");
    let built = s.out_file("plugin");
    expect::Run::new(s.command("cc"), "cc")
        .args(["-o"])
        .arg(&built)
        .arg(&source)
        .arg(format!("-Wl,--audit={}", audit.display()))
        .succeeds();
    s.file("secrets", "audited", "", 0o755);
    fs::write(s.plugins.join("secrets/audited"), fs::read(&built).unwrap()).unwrap();
    // Theirs: an audit library whose constructor leaves a mark.
    let canary = s.out_file("canary");
    let au_source = s.out_file("au.c");
    fs::write(
        &au_source,
        format!(
            "#include <stdio.h>\n\
             __attribute__((constructor)) static void mark(void) {{\n\
               FILE *f = fopen(\"{}\", \"w\"); if (f) fclose(f);\n\
             }}\n\
             unsigned int la_version(unsigned int v) {{ return v; }}\n",
            canary.display()
        ),
    )
    .unwrap();
    expect::Run::new(s.command("cc"), "cc")
        .args(["-shared", "-fPIC", "-o"])
        .arg(&audit)
        .arg(&au_source)
        .succeeds();
    intruder.own(&audit);
    let why = format!(
        "has the loader open the library {:?}, which plugctl does not trust",
        audit.display().to_string()
    );
    plugctl(&s)
        .args(["secret", "fetch", "audited", "x"])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has(&why);
    plugctl(&s)
        .args(["validate"])
        .fails_with(Exit::Failure)
        .stdout_has(&why);
    assert!(!canary.exists(), "their audit library ran as root");
    // Root's own, where only root writes: it runs, and the plugin answers.
    nix::unistd::chown(&audit, Some(0.into()), Some(0.into())).unwrap();
    fs::set_permissions(audit.parent().unwrap(), fs::Permissions::from_mode(0o755)).unwrap();
    plugctl(&s)
        .args(["secret", "fetch", "audited", "x"])
        .succeeds()
        .stdout_has("A=b");
    assert!(canary.exists(), "the loader ran root's audit library");
}

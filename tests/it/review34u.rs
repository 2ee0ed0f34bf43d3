//! A sixteenth fresh-eyes attack on issue #34 ("safe to consume, safe to
//! run"), through the real binary, after review34.rs to review34t.rs,
//! aimed at what plugctl runs: each test here is an attack that found a
//! way through.

use std::fs;

use crate::common::*;

/// The C source of a secrets plugin that needs `vendor()` from a library:
/// its fingerprint, and `{"A": "b"}`.
const C_PLUGIN: &str = r#"#include <stdio.h>
#include <string.h>
int vendor(void);
int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "fingerprint") == 0) {
    puts("{\"type\": \"secrets\", \"version\": \"1.0.0\"}");
    return vendor();
  }
  puts("{\"result\": {\"A\": \"b\"}}");
  return vendor();
}
"#;

/// The C source of a secrets plugin that needs no library of its own.
const C_PLAIN_PLUGIN: &str = r#"#include <stdio.h>
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

/// The loader expands `$PLATFORM` (and `$LIB`, `$ORIGIN`) in a library a
/// program needs by name (`DT_NEEDED`), as `ld.so(8)` says: a vendor's
/// library whose soname is `libvendor-$PLATFORM.so` is looked for as
/// `libvendor-haswell.so` (what this machine's CPU is called). plugctl
/// looked for the name as written, found nothing, and left that library's
/// own search path unjudged: a root-owned plugin linked with `-rpath`
/// naming root's vendor directory, whose `libvendor-<platform>.so` was
/// built with `-rpath` naming a sticky build directory, had the loader
/// look there for what that library needs, and another user's library
/// ran its constructor as root while `validate` found nothing. A library
/// needed by a name the loader expands is refused, naming it.
#[test]
fn a_library_needed_by_a_name_the_loader_expands_is_not_left_unjudged() {
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
        s.out_file("vendor.c"),
        "int dep(void);\nint vendor(void) { return dep(); }\n",
    )
    .unwrap();
    let canary = s.out_file("canary");
    fs::write(
        s.out_file("theirs.c"),
        format!(
            "#include <fcntl.h>\n__attribute__((constructor)) static void f(void) {{ \
             open(\"{}\", O_CREAT | O_WRONLY, 0644); }}\nint dep(void) {{ return 0; }}\n",
            canary.display()
        ),
    )
    .unwrap();
    // What the vendor linked against, in their build directory (gone on
    // the node); the vendor's library in a directory only root writes,
    // its soname naming the platform for the loader to fill in.
    let vendor_build = s.out_file("vb");
    make_dir(&vendor_build);
    cc(&[
        "-shared",
        "-fPIC",
        "-o",
        &format!("{}/libdep.so", vendor_build.display()),
        &out("dep.c"),
    ]);
    let vendor = s.root().join("vendor");
    make_dir(&vendor);
    let linked = vendor.join("libvendor.so");
    cc(&[
        "-shared",
        "-fPIC",
        "-o",
        &linked.display().to_string(),
        &out("vendor.c"),
        "-Wl,-soname,libvendor-$PLATFORM.so",
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
    fs::write(s.out_file("plugin.c"), C_PLUGIN).unwrap();
    let plugin = s.plugins.join("secrets").join("compiled");
    make_dir(plugin.parent().unwrap());
    cc(&[
        "-o",
        &plugin.display().to_string(),
        &out("plugin.c"),
        &format!("-L{}", vendor.display()),
        "-lvendor",
        &format!("-Wl,-rpath-link,{}", vendor_build.display()),
        &format!("-Wl,-rpath,{}", vendor.display()),
        "-Wl,--enable-new-dtags",
    ]);
    // The name the loader looks for here: ask it.
    let traced = std::process::Command::new(&plugin)
        .env_clear()
        .env("LD_TRACE_LOADED_OBJECTS", "1")
        .output()
        .unwrap();
    let traced = String::from_utf8_lossy(&traced.stdout).into_owned();
    let expanded = traced
        .split_whitespace()
        .find(|w| w.starts_with("libvendor-"))
        .unwrap_or_else(|| panic!("the loader names the vendor's library: {traced}"))
        .to_string();
    assert!(!expanded.contains('$'), "{traced}");
    fs::rename(&linked, vendor.join(&expanded)).unwrap();
    // Another user's libdep.so in the build directory.
    let theirs = build.join("libdep.so");
    intruder.sh(
        &s,
        &format!("cat '{}' > '{}'", out("libtheirs.so"), theirs.display()),
    );
    let fetched = plugctl(&s)
        .args(["secret", "fetch", "compiled", "x"])
        .output();
    assert!(!canary.exists(), "their library's constructor ran as root");
    assert_eq!(
        fetched.status.code(),
        Some(Exit::Failure.code()),
        "{fetched:?}"
    );
    let refused = String::from_utf8_lossy(&fetched.stderr);
    assert!(
        refused.contains("libvendor-$PLATFORM.so"),
        "the refusal names the library: {refused}"
    );
    plugctl(&s)
        .args(["validate"])
        .fails_with(Exit::Failure)
        .stdout_has("libvendor-$PLATFORM.so");
    assert!(!canary.exists(), "their library's constructor ran as root");
    eprintln!("{refused}");
    // The same vendor library by a plain name, the build directory only
    // root's: it runs.
    fs::remove_file(&theirs).unwrap();
    fs::copy(vendor_build.join("libdep.so"), &theirs).unwrap();
    fs::set_permissions(&build, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    fs::remove_file(vendor.join(&expanded)).unwrap();
    cc(&[
        "-shared",
        "-fPIC",
        "-o",
        &linked.display().to_string(),
        &out("vendor.c"),
        &format!("-L{}", vendor_build.display()),
        "-ldep",
        &format!("-Wl,-rpath,{}", build.display()),
        "-Wl,--enable-new-dtags",
    ]);
    cc(&[
        "-o",
        &plugin.display().to_string(),
        &out("plugin.c"),
        &format!("-L{}", vendor.display()),
        "-lvendor",
        &format!("-Wl,-rpath-link,{}", vendor_build.display()),
        &format!("-Wl,-rpath,{}", vendor.display()),
        "-Wl,--enable-new-dtags",
    ]);
    plugctl(&s)
        .args(["secret", "fetch", "compiled", "x"])
        .succeeds()
        .stdout_has("A=b");
}

/// An audit library a program names without a `/` (linked with
/// `--audit libau.so`) is looked for by the loader as a library it needs
/// is, in the program's own search path first, and runs before the
/// program does, constructor first. Only audit libraries named by a path
/// were followed: a root-owned plugin linked with `-rpath` naming root's
/// vendor directory, whose `libau.so` there was built with `-rpath`
/// naming a sticky build directory, had the loader look there for what
/// `libau.so` needs, and another user's library ran its constructor as
/// root while `validate` found nothing. A bare audit name is followed as
/// a library needed by that name is.
#[test]
fn an_audit_library_named_without_a_path_has_its_search_path_judged() {
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
        s.out_file("au.c"),
        "int dep(void);\nunsigned int la_version(unsigned int v) { return dep() == 0 ? v : 0; }\n",
    )
    .unwrap();
    let canary = s.out_file("canary");
    fs::write(
        s.out_file("theirs.c"),
        format!(
            "#include <fcntl.h>\n__attribute__((constructor)) static void f(void) {{ \
             open(\"{}\", O_CREAT | O_WRONLY, 0644); }}\nint dep(void) {{ return 0; }}\n",
            canary.display()
        ),
    )
    .unwrap();
    let vendor_build = s.out_file("vb");
    make_dir(&vendor_build);
    cc(&[
        "-shared",
        "-fPIC",
        "-o",
        &format!("{}/libdep.so", vendor_build.display()),
        &out("dep.c"),
    ]);
    // The vendor's audit library in a directory only root writes.
    let vendor = s.root().join("vendor");
    make_dir(&vendor);
    let build_au = |rpath: &std::path::Path| {
        cc(&[
            "-shared",
            "-fPIC",
            "-o",
            &vendor.join("libau.so").display().to_string(),
            &out("au.c"),
            "-Wl,--no-as-needed",
            &format!("-L{}", vendor_build.display()),
            "-ldep",
            &format!("-Wl,-rpath,{}", rpath.display()),
            "-Wl,--enable-new-dtags",
        ])
    };
    build_au(&build);
    cc(&[
        "-shared",
        "-fPIC",
        "-o",
        &out("libtheirs.so"),
        &out("theirs.c"),
    ]);
    fs::write(s.out_file("plugin.c"), C_PLAIN_PLUGIN).unwrap();
    let plugin = s.plugins.join("secrets").join("audited");
    make_dir(plugin.parent().unwrap());
    cc(&[
        "-o",
        &plugin.display().to_string(),
        &out("plugin.c"),
        "-Wl,--audit,libau.so",
        &format!("-Wl,-rpath,{}", vendor.display()),
        "-Wl,--enable-new-dtags",
    ]);
    let theirs = build.join("libdep.so");
    intruder.sh(
        &s,
        &format!("cat '{}' > '{}'", out("libtheirs.so"), theirs.display()),
    );
    let fetched = plugctl(&s)
        .args(["secret", "fetch", "audited", "x"])
        .output();
    assert!(!canary.exists(), "their library's constructor ran as root");
    assert_eq!(
        fetched.status.code(),
        Some(Exit::Failure.code()),
        "{fetched:?}"
    );
    let why = format!(
        "the ELF program {} has the loader search {:?}",
        vendor.join("libau.so").display(),
        build.display().to_string()
    );
    let refused = String::from_utf8_lossy(&fetched.stderr);
    assert!(refused.contains(&why), "{refused}");
    plugctl(&s)
        .args(["validate"])
        .fails_with(Exit::Failure)
        .stdout_has(&why);
    assert!(!canary.exists(), "their library's constructor ran as root");
    // The audit library built with a search path only root writes: it runs.
    fs::remove_file(&theirs).unwrap();
    build_au(&vendor_build);
    plugctl(&s)
        .args(["secret", "fetch", "audited", "x"])
        .succeeds()
        .stdout_has("A=b");
}

/// A library a plugin's `LD_AUDIT` names (by a path, root's own, as the
/// environment's judge requires) is loaded by the loader before the
/// program, constructor first, into every process the plugin starts, with
/// its own search path and the libraries it needs. Only `LD_PRELOAD`'s
/// libraries had theirs judged: `--env LD_AUDIT=<root's libau.so>`,
/// built with `-rpath` naming a sticky build directory, had another
/// user's library there run its constructor as root, for a shell plugin
/// as for an ELF one. It is judged as a preloaded library is.
#[test]
fn an_audit_library_of_the_plugins_environment_has_its_search_path_judged() {
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
        s.out_file("au.c"),
        "int dep(void);\nunsigned int la_version(unsigned int v) { return dep() == 0 ? v : 0; }\n",
    )
    .unwrap();
    let canary = s.out_file("canary");
    fs::write(
        s.out_file("theirs.c"),
        format!(
            "#include <fcntl.h>\n__attribute__((constructor)) static void f(void) {{ \
             open(\"{}\", O_CREAT | O_WRONLY, 0644); }}\nint dep(void) {{ return 0; }}\n",
            canary.display()
        ),
    )
    .unwrap();
    let vendor_build = s.out_file("vb");
    make_dir(&vendor_build);
    cc(&[
        "-shared",
        "-fPIC",
        "-o",
        &format!("{}/libdep.so", vendor_build.display()),
        &out("dep.c"),
    ]);
    let vendor = s.root().join("vendor");
    make_dir(&vendor);
    let au = vendor.join("libau.so");
    let build_au = |rpath: &std::path::Path| {
        cc(&[
            "-shared",
            "-fPIC",
            "-o",
            &au.display().to_string(),
            &out("au.c"),
            "-Wl,--no-as-needed",
            &format!("-L{}", vendor_build.display()),
            "-ldep",
            &format!("-Wl,-rpath,{}", rpath.display()),
            "-Wl,--enable-new-dtags",
        ])
    };
    build_au(&build);
    cc(&[
        "-shared",
        "-fPIC",
        "-o",
        &out("libtheirs.so"),
        &out("theirs.c"),
    ]);
    s.file(
        "secrets",
        "shell",
        "#!/bin/sh\necho '{\"result\": {\"A\": \"b\"}}'\n",
        0o755,
    );
    fs::write(s.out_file("plugin.c"), C_PLAIN_PLUGIN).unwrap();
    cc(&[
        "-o",
        &s.plugins
            .join("secrets")
            .join("compiled")
            .display()
            .to_string(),
        &out("plugin.c"),
    ]);
    let theirs = build.join("libdep.so");
    intruder.sh(
        &s,
        &format!("cat '{}' > '{}'", out("libtheirs.so"), theirs.display()),
    );
    let audit = format!("LD_AUDIT={}", au.display());
    let why = format!(
        "the ELF program {} has the loader search {:?}",
        au.display(),
        build.display().to_string()
    );
    for plugin in ["shell", "compiled"] {
        let fetched = plugctl(&s)
            .args(["secret", "fetch", "--env", &audit, plugin, "x"])
            .output();
        assert!(
            !canary.exists(),
            "their library's constructor ran as root ({plugin})"
        );
        assert_eq!(
            fetched.status.code(),
            Some(Exit::Failure.code()),
            "{plugin}: {fetched:?}"
        );
        let refused = String::from_utf8_lossy(&fetched.stderr);
        assert!(refused.contains(&why), "{plugin}: {refused}");
    }
    // The audit library built with a search path only root writes: both
    // run with it.
    fs::remove_file(&theirs).unwrap();
    build_au(&vendor_build);
    for plugin in ["shell", "compiled"] {
        plugctl(&s)
            .args(["secret", "fetch", "--env", &audit, plugin, "x"])
            .succeeds()
            .stdout_has("A=b");
    }
}

/// `#!/usr/bin/nice python3` runs the script as `#!/usr/bin/env python3`
/// does: the kernel hands `nice` the one argument `python3`, and `nice`
/// (as `nohup`, util-linux's `setsid`, `ionice`, `unshare`, `xargs`...)
/// looks it up on the plugin's `PATH` and runs it with the script. plugctl
/// read only env's line so: it judged `nice` and nothing it runs, and a
/// root-owned Python plugin in a sticky directory, which `#!/usr/bin/python3`
/// or `#!/usr/bin/env python3` has refused, imported another user's
/// `json.py` beside it as root. What such a line runs is judged as what
/// env runs is: the program found, and the directories it searches.
#[test]
fn a_program_a_wrapper_runs_by_path_is_judged_as_one_env_runs() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    let pwned = s.out_file("pwned");
    let body = "import sys, json\n\
                if sys.argv[1] == 'fingerprint':\n\
                \x20   print(json.dumps({'type': 'secrets', 'version': '1.0.0'}))\n\
                else:\n\
                \x20   print(json.dumps({'result': {'A': 'b'}}))\n";
    let wrappers = [
        ("nice", "#!/usr/bin/nice python3"),
        ("nohup", "#!/usr/bin/nohup python3"),
        ("setsid", "#!/usr/bin/setsid python3"),
        ("path", "#!/usr/bin/nice /usr/bin/python3"),
        ("env-nice", "#!/usr/bin/env -S nice python3"),
        ("env-nice-n", "#!/usr/bin/env -S nice -n 5 python3"),
    ];
    for (name, shebang) in wrappers {
        s.file("secrets", name, &format!("{shebang}\n{body}"), 0o755);
    }
    s.file(
        "host-volume",
        "mine",
        &format!(
            "#!/usr/bin/nice python3\n{}",
            body.replace("secrets", "host-volume")
        ),
        0o755,
    );
    let shared = s.plugins.join("secrets");
    fs::set_permissions(
        &shared,
        std::os::unix::fs::PermissionsExt::from_mode(0o1777),
    )
    .unwrap();
    intruder.sh(
        &s,
        &format!(
            "printf '%s\\n' \"open('{pwned}', 'w').write('ran')\" > '{dir}/json.py'",
            pwned = pwned.display(),
            dir = shared.display()
        ),
    );
    let why = format!(
        "runs under Python, which imports the modules a script names from the script's own \
         directory before its standard library, and {} is a sticky directory others may add \
         files to (mode 1777)",
        shared.display()
    );
    for (name, _) in wrappers {
        let fetched = plugctl(&s)
            .args(["secret", "fetch", name, "app/db"])
            .output();
        assert!(
            !pwned.exists(),
            "another user's json.py ran as root ({name})"
        );
        assert_eq!(
            fetched.status.code(),
            Some(Exit::Failure.code()),
            "{name}: {fetched:?}"
        );
        let refused = String::from_utf8_lossy(&fetched.stderr);
        assert!(refused.contains(&why), "{name}: {refused}");
    }
    plugctl(&s)
        .args(["validate"])
        .fails_with(Exit::Failure)
        .stdout_has(&why);
    assert!(!pwned.exists(), "another user's json.py ran as root");
    // The same line for a plugin in a directory of root's runs.
    plugctl(&s)
        .args(["fingerprint", "mine"])
        .succeeds()
        .stdout_has("healthy");
}

/// A library a plugin's `LD_PRELOAD` names without a `/` is looked for by
/// the loader in the search path of the program it starts: for a script,
/// its ELF interpreter's (`-rpath '$ORIGIN/../lib'`, as a vendored Python
/// or Node.js is built). That was followed only when the plugin's
/// environment also held an `LD_LIBRARY_PATH`: `--env
/// LD_PRELOAD=libpre.so` alone, root's `libpre.so` beside such an
/// interpreter built with `-rpath` naming a sticky build directory, had
/// another user's library there run its constructor as root. A bare
/// preload is followed in the interpreter's search path with or without
/// an `LD_LIBRARY_PATH`.
#[test]
fn a_bare_preload_found_in_an_interpreters_search_path_is_judged() {
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
             open(\"{}\", O_CREAT | O_WRONLY, 0644); }}\nint dep(void) {{ return 0; }}\n",
            canary.display()
        ),
    )
    .unwrap();
    // An interpreter that answers for the script it is given.
    fs::write(
        s.out_file("interp.c"),
        r#"#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  if (argc > 2 && strcmp(argv[2], "fingerprint") == 0) {
    puts("{\"type\": \"secrets\", \"version\": \"1.0.0\"}");
    return 0;
  }
  puts("{\"result\": {\"A\": \"b\"}}");
  return 0;
}
"#,
    )
    .unwrap();
    let vendor_build = s.out_file("vb");
    make_dir(&vendor_build);
    cc(&[
        "-shared",
        "-fPIC",
        "-o",
        &format!("{}/libdep.so", vendor_build.display()),
        &out("dep.c"),
    ]);
    // A vendored interpreter, its libraries in ../lib.
    let bin = s.root().join("runtime").join("bin");
    let lib = s.root().join("runtime").join("lib");
    make_dir(&bin);
    make_dir(&lib);
    let interp = bin.join("interp");
    cc(&[
        "-o",
        &interp.display().to_string(),
        &out("interp.c"),
        "-Wl,-rpath,$ORIGIN/../lib",
        "-Wl,--enable-new-dtags",
    ]);
    let build_pre = |rpath: &std::path::Path| {
        cc(&[
            "-shared",
            "-fPIC",
            "-o",
            &lib.join("libpre.so").display().to_string(),
            &out("pre.c"),
            "-Wl,--no-as-needed",
            &format!("-L{}", vendor_build.display()),
            "-ldep",
            &format!("-Wl,-rpath,{}", rpath.display()),
            "-Wl,--enable-new-dtags",
        ])
    };
    build_pre(&build);
    cc(&[
        "-shared",
        "-fPIC",
        "-o",
        &out("libtheirs.so"),
        &out("theirs.c"),
    ]);
    s.file(
        "secrets",
        "script",
        &format!("#!{}\n", interp.display()),
        0o755,
    );
    let theirs = build.join("libdep.so");
    intruder.sh(
        &s,
        &format!("cat '{}' > '{}'", out("libtheirs.so"), theirs.display()),
    );
    // Named as the interpreter's search path spells it.
    let why = format!(
        "the ELF program {} has the loader search {:?}",
        bin.join("../lib/libpre.so").display(),
        build.display().to_string()
    );
    let fetched = plugctl(&s)
        .args([
            "secret",
            "fetch",
            "--env",
            "LD_PRELOAD=libpre.so",
            "script",
            "x",
        ])
        .output();
    assert!(!canary.exists(), "their library's constructor ran as root");
    assert_eq!(
        fetched.status.code(),
        Some(Exit::Failure.code()),
        "{fetched:?}"
    );
    let refused = String::from_utf8_lossy(&fetched.stderr);
    assert!(refused.contains(&why), "{refused}");
    // Built with a search path only root writes: it runs with the preload.
    fs::remove_file(&theirs).unwrap();
    build_pre(&vendor_build);
    plugctl(&s)
        .args([
            "secret",
            "fetch",
            "--env",
            "LD_PRELOAD=libpre.so",
            "script",
            "x",
        ])
        .succeeds()
        .stdout_has("A=b");
}

/// A secrets plugin `store` answering `{key: value, "GOOD": "plain"}`.
fn store_of(s: &Rig, key: &str, value: &str) {
    let store = s.out_file("store.json");
    fs::write(
        &store,
        serde_json::to_vec(&serde_json::json!({
            "result": {key: value, "GOOD": "plain"}
        }))
        .unwrap(),
    )
    .unwrap();
    s.plugin(
        "secrets",
        "store",
        &format!(
            "[ \"$1\" = fingerprint ] && echo '{{\"type\": \"secrets\", \"version\": \"1.0.0\"}}' && exit 0\n\
             /usr/bin/cat '{}'",
            store.display()
        ),
    );
}

/// `key` from a store is refused in both formats a shell or a service
/// reads, naming it, with nothing printed; named by the operator, printed.
#[track_caller]
fn refused_from_a_store(s: &Rig, key: &str) {
    for format in ["env", "kv"] {
        plugctl(s)
            .args(["secret", "fetch", "store", "app", "--format", format])
            .fails_with(Exit::Failure)
            .stdout_empty()
            .stderr_has(&format!("{key:?} would change"));
    }
    plugctl(s)
        .args(["secret", "fetch", "store", "app", "--format", "env"])
        .args(["--allow-key", key])
        .succeeds()
        .stdout_has("GOOD=");
}

/// kmod's modprobe (Debian's `kmod`, priority important: on every node)
/// takes options from `MODPROBE_OPTIONS` before its own: `-C DIR` reads
/// its configuration from there, where an `install` line names a shell
/// command modprobe runs, as root, for that module. A Nomad client's
/// set-up script runs `modprobe br_netfilter` (or `overlay`) after it
/// evals `--format env`: a store holding that key made it run another
/// user's command. It is refused in both formats a shell or a service
/// reads, and in a plugin's environment, naming it.
#[test]
fn modprobes_options_are_refused_from_a_store_and_a_plugins_environment() {
    let s = Rig::new();
    store_of(&s, "MODPROBE_OPTIONS", "-C /tmp/x");
    refused_from_a_store(&s, "MODPROBE_OPTIONS");
    plugctl(&s)
        .args([
            "secret",
            "fetch",
            "store",
            "app",
            "--env",
            "MODPROBE_OPTIONS=-C /tmp/x",
        ])
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has("MODPROBE_OPTIONS");
}

/// util-linux's mount and findmnt (Debian's `mount`, required: on every
/// node) read the file system table `LIBMOUNT_FSTAB` names instead of
/// `/etc/fstab`: a set-up script's `mount /data` after its eval mounted
/// what another user's table said there (their image, `suid`, whose
/// set-uid shell they then run as root). It is refused from a store, and
/// a plugin's environment may name only a table root's gate passes.
#[test]
fn a_mount_table_is_refused_from_a_store_and_judged_in_a_plugins_environment() {
    let Some(intruder) = intruder() else { return };
    let s = Rig::new();
    store_of(&s, "LIBMOUNT_FSTAB", "/tmp/fstab");
    refused_from_a_store(&s, "LIBMOUNT_FSTAB");
    let theirs = sticky_dir(&s, "shared").join("fstab");
    intruder.sh(
        &s,
        &format!(
            "echo '/x /data ext4 loop,suid 0 0' > '{}'",
            theirs.display()
        ),
    );
    plugctl(&s)
        .args(["secret", "fetch", "store", "app", "--env"])
        .arg(format!("LIBMOUNT_FSTAB={}", theirs.display()))
        .fails_with(Exit::Failure)
        .stdout_empty()
        .stderr_has("LIBMOUNT_FSTAB");
    let mine = s.out_file("fstab");
    fs::write(&mine, "").unwrap();
    plugctl(&s)
        .args(["--json", "secret", "fetch", "store", "app", "--env"])
        .arg(format!("LIBMOUNT_FSTAB={}", mine.display()))
        .succeeds()
        .stdout_has("GOOD");
}

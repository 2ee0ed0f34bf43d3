//! The node's networking tools load shared objects as root from a
//! directory their environment names: iproute2's `ip` and `tc` (on every
//! Debian node) and iptables (which bridge networking and CNI plugins
//! run). A store's `TC_LIB_DIR` printed for `eval` made the next root
//! `tc qdisc show` (read-only) run the store's code; the family is in the
//! hooks table, refused in the env and kv formats and judged as paths in
//! a plugin's own environment.

use std::fs;

use crate::common::*;

const NETWORK_HOOKS: [&str; 5] = [
    "IP_LIB_DIR",
    "TC_LIB_DIR",
    "XTABLES_LIBDIR",
    "IPTABLES_LIB_DIR",
    "IP6TABLES_LIB_DIR",
];

#[test]
fn env_output_never_makes_tc_load_the_stores_library() {
    let s = Rig::new();
    let theirs = sticky_dir(&s, "modules");
    for key in NETWORK_HOOKS {
        store_answering(
            &s,
            "store",
            &[
                (key, theirs.display().to_string()),
                ("GOOD", "plain".into()),
            ],
        );
        for format in ["env", "kv"] {
            plugctl(&s)
                .args(["secret", "fetch", "store", "app", "--format", format])
                .fails_with(Exit::Failure)
                .stdout_empty()
                .stderr_has(&format!("\"{key}\" would change"))
                .stderr_has("networking tool");
        }
        // In a plugin's own environment the value is a path, judged as
        // one: a sticky directory anyone writes is refused.
        plugctl(&s)
            .args(["secret", "fetch", "--env"])
            .arg(format!("{key}={}", theirs.display()))
            .args(["store", "app"])
            .fails_with(Exit::Failure)
            .stdout_empty()
            .stderr_has(key);
    }
    if !nix::unistd::geteuid().is_root() {
        skip_unless_ci("needs root for a network namespace of its own");
        return;
    }
    if !tool_available("tc", "what a root tc loads after the eval")
        || !tool_available("cc", "a module for tc to load")
    {
        return;
    }
    // The attack is real: every discipline `tc qdisc show` prints is
    // looked up as q_<kind>.so in TC_LIB_DIR first (a loopback's
    // `noqueue` at least, in a network namespace of its own).
    let canary = s.out_file("ran");
    let source = s.out_file("module.c");
    fs::write(
        &source,
        format!(
            "#include <stdio.h>\n\
             __attribute__((constructor)) static void hook(void) {{\n\
             FILE *f = fopen(\"{}\", \"w\"); if (f) fclose(f); }}\n",
            canary.display()
        ),
    )
    .unwrap();
    for kind in ["noqueue", "pfifo_fast", "fq_codel", "mq", "noop"] {
        expect::Run::new(s.command("cc"), "cc")
            .args(["-shared", "-fPIC", "-o"])
            .arg(theirs.join(format!("q_{kind}.so")))
            .arg(&source)
            .succeeds();
    }
    store_answering(
        &s,
        "store",
        &[
            ("TC_LIB_DIR", theirs.display().to_string()),
            ("GOOD", "plain".into()),
        ],
    );
    let tc_after = |setup: &str| {
        expect::Run::new(s.command("unshare"), "unshare")
            .args(["-n", "sh", "-c"])
            .arg(format!(
                "PATH=/usr/sbin:/sbin:/usr/bin:/bin; {setup}; ip link set lo up; tc qdisc show >/dev/null"
            ))
            .env("PLUGCTL", PLUGCTL)
            .succeeds();
    };
    tc_after(&format!("export TC_LIB_DIR='{}'", theirs.display()));
    assert!(
        canary.exists(),
        "tc did not load from TC_LIB_DIR: no attack to guard"
    );
    fs::remove_file(&canary).unwrap();
    tc_after("eval \"$(\"$PLUGCTL\" secret fetch store app --format env)\"");
    assert!(
        !canary.exists(),
        "tc, run after eval of plugctl's env output, loaded the store's library as root"
    );
}

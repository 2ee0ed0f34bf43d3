//! Which file a path names, cheaply: device, inode, size and the change
//! times. Two stats that agree mean the same unchanged file (a rename
//! swaps the inode, a write moves mtime and ctime), which is how `--locked`
//! knows that the file it hashed is the file it is about to exec.

use std::ffi::CString;
use std::fs::Metadata;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// A plugin file checked against its pin, held open: an ELF file is
/// executed through this descriptor; a script's interpreter (an ELF file,
/// the one hashed) is executed through its descriptor with the argv the
/// kernel would give it, and the script itself — which the interpreter
/// opens again by path — is checked again by identity just before.
#[derive(Debug, Clone)]
pub struct Verified {
    pub identity: FileIdentity,
    pub file: std::sync::Arc<std::fs::File>,
    pub elf: bool,
    /// For a script: what runs it, through the descriptor that was hashed
    /// (None: an interpreter that is itself a script, run by path).
    pub interpreter: Option<Interpreted>,
}

/// How the kernel would run a script, made explicit: `program` (the
/// interpreter, or for `#!/usr/bin/env X` the `X` env would run) with
/// `argv_head` before the script's path and the call's arguments.
#[derive(Debug, Clone)]
pub struct Interpreted {
    pub program: std::sync::Arc<std::fs::File>,
    pub argv_head: Vec<std::ffi::OsString>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileIdentity {
    pub dev: u64,
    pub ino: u64,
    pub size: u64,
    pub mtime: (i64, i64),
    pub ctime: (i64, i64),
}

impl FileIdentity {
    pub fn of(meta: &Metadata) -> FileIdentity {
        FileIdentity {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        }
    }

    /// A check to run in the child between fork and exec: it fails with
    /// ESTALE when `path` no longer names this file unchanged. Only
    /// async-signal-safe work happens there (one stat(2) on a path prepared
    /// before the fork).
    pub fn pre_exec_check(
        self,
        path: &Path,
    ) -> io::Result<impl Fn() -> io::Result<()> + Send + Sync + 'static> {
        let c_path = CString::new(path.as_os_str().as_bytes())
            .map_err(|_| io::Error::other("path holds a NUL byte"))?;
        Ok(move || {
            // SAFETY: stat(2) on a valid C string into a zeroed buffer.
            let mut st: nix::libc::stat = unsafe { std::mem::zeroed() };
            if unsafe { nix::libc::stat(c_path.as_ptr(), &mut st) } != 0 {
                return Err(io::Error::from_raw_os_error(nix::libc::ESTALE));
            }
            let now = FileIdentity {
                dev: st.st_dev,
                ino: st.st_ino,
                size: st.st_size as u64,
                mtime: (st.st_mtime, st.st_mtime_nsec),
                ctime: (st.st_ctime, st.st_ctime_nsec),
            };
            if now == self {
                Ok(())
            } else {
                Err(io::Error::from_raw_os_error(nix::libc::ESTALE))
            }
        })
    }
}

/// An exec of an already-open, already-verified ELF file: `execveat(fd, "",
/// AT_EMPTY_PATH)` runs exactly the inode that was hashed, whatever the path
/// names by then, while argv\[0\] is still the plugin's path. Everything is
/// prepared before fork, so the child only makes the one system call.
pub struct ExecFd {
    fd: std::os::fd::RawFd,
    _file: std::sync::Arc<std::fs::File>,
    _strings: Vec<CString>,
    argv: Vec<*const nix::libc::c_char>,
    envp: Vec<*const nix::libc::c_char>,
}

// SAFETY: the pointers point into `_strings`, owned by the same value and
// never changed; the value is only read, in the forked child.
unsafe impl Send for ExecFd {}
unsafe impl Sync for ExecFd {}

impl ExecFd {
    pub fn new(
        file: std::sync::Arc<std::fs::File>,
        argv: &[&std::ffi::OsStr],
        env: &[(std::ffi::OsString, std::ffi::OsString)],
    ) -> io::Result<ExecFd> {
        use std::os::fd::AsRawFd;
        let bad = |_| io::Error::other("argument or environment holds a NUL byte");
        let mut strings = Vec::with_capacity(argv.len() + env.len());
        for a in argv {
            strings.push(CString::new(a.as_bytes()).map_err(bad)?);
        }
        for (k, v) in env {
            let mut kv = k.as_bytes().to_vec();
            kv.push(b'=');
            kv.extend_from_slice(v.as_bytes());
            strings.push(CString::new(kv).map_err(bad)?);
        }
        let mut argv_p: Vec<_> = strings[..argv.len()].iter().map(|s| s.as_ptr()).collect();
        argv_p.push(std::ptr::null());
        let mut envp_p: Vec<_> = strings[argv.len()..].iter().map(|s| s.as_ptr()).collect();
        envp_p.push(std::ptr::null());
        Ok(ExecFd {
            fd: file.as_raw_fd(),
            _file: file,
            _strings: strings,
            argv: argv_p,
            envp: envp_p,
        })
    }

    /// Replaces the process; returns only on failure.
    pub fn exec(&self) -> io::Error {
        // SAFETY: valid fd, NUL-terminated arrays of valid C strings.
        unsafe {
            nix::libc::syscall(
                nix::libc::SYS_execveat,
                self.fd,
                c"".as_ptr(),
                self.argv.as_ptr(),
                self.envp.as_ptr(),
                nix::libc::AT_EMPTY_PATH,
            );
        }
        io::Error::last_os_error()
    }
}

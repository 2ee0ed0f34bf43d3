//! Environment variables that hook code into a program: the one table of
//! them. A variable here changes what a shell, the dynamic loader, an
//! interpreter or a tool a script runs next executes or loads — a search
//! path, a start-up file, a command it runs at a prompt, a library it
//! preloads — or is a shell's own state that an assignment cannot set as a
//! plain variable (it runs arithmetic, changes the shell's user, fails).
//!
//! Two places read it. `secret fetch` refuses to print such a key in its
//! `env` and `kv` formats (what a shell evals, or a service starts with)
//! unless the caller names it; and a plugin's own environment (`--env` of
//! a secrets fetch, `test` or `replay`) may hold such a variable only when
//! every path it names passes the trust gate ([`Value::Paths`]), never
//! when its value is code or options ([`Value::Code`]): the program that
//! runs is then the program that was checked.
//!
//! Matching ignores ASCII case, and a [`Pattern::Prefix`] covers a whole
//! family (`LD_*`, `PYTHON*`, `GIT_*`): zsh ties `path` to `PATH` (and
//! `fpath`, `cdpath`, `module_path`, `manpath`, `mailpath`, `prompt` to
//! theirs), npm reads `npm_config_*` in any case, and a family grows with
//! each release of its program faster than a list of names would.
//! docs/secrets.md lists the table with each group's reason; a test holds
//! the two equal.

use std::fmt;

/// Whose behaviour a group of variables changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reader {
    /// The shell itself (POSIX sh, bash, dash, zsh, ksh, fish).
    Shell,
    /// The shells' own state: special parameters.
    ShellState,
    /// The dynamic loader and the C library.
    Loader,
    /// Libraries that load plug-ins or start programs the environment
    /// names.
    Libraries,
    /// Debian's package tools: apt, dpkg, debconf.
    Packages,
    Python,
    Perl,
    Ruby,
    Node,
    Java,
    /// Go, awk, Lua, Tcl, PHP.
    OtherInterpreters,
    /// make, the C compilers, cargo and rustc.
    Build,
    Git,
    /// Programs a script starts on its own: editors, pagers, askpass.
    Programs,
    /// Where programs find their configuration.
    Configuration,
    /// Operations tools and runtimes a deployment script runs next.
    Tools,
    /// The node's networking tools: iproute2 (`ip`, `tc`) and iptables.
    Network,
}

impl Reader {
    /// What a variable of the group changes, for a message: "`LD_PRELOAD`
    /// would change what the dynamic loader loads".
    pub fn changes(self) -> &'static str {
        match self {
            Reader::Shell => "what the shell runs or reads",
            Reader::ShellState => "a shell's own state (a special parameter)",
            Reader::Loader => "what the dynamic loader and C library load",
            Reader::Libraries => "what a library (OpenSSL, D-Bus, Kerberos) loads or starts",
            Reader::Packages => "what Debian's package tools (apt, dpkg, debconf) run",
            Reader::Python => "what Python loads or runs",
            Reader::Perl => "what Perl loads or runs",
            Reader::Ruby => "what Ruby loads or runs",
            Reader::Node => "what Node.js or npm loads or runs",
            Reader::Java => "what a JVM loads or runs",
            Reader::OtherInterpreters => {
                "what an interpreter (Go, awk, Lua, Tcl, PHP) loads or runs"
            }
            Reader::Build => "what make, a compiler or cargo runs or loads",
            Reader::Git => "what git runs",
            Reader::Programs => {
                "the commands programs start on their own (an editor, a pager, a helper)"
            }
            Reader::Configuration => "where programs read their configuration",
            Reader::Tools => {
                "what a deployment tool or runtime (.NET, R, pip, Terraform, \
                              Helm, Ansible, Docker) loads or runs"
            }
            Reader::Network => "what a networking tool (ip, tc, iptables) loads",
        }
    }
}

/// A name, or a whole family of names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// This name, in any ASCII case.
    Exact(&'static str),
    /// Every name that starts with this, in any ASCII case.
    Prefix(&'static str),
}

impl Pattern {
    pub fn matches(self, key: &str) -> bool {
        match self {
            Pattern::Exact(name) => key.eq_ignore_ascii_case(name),
            Pattern::Prefix(start) => key
                .get(..start.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(start)),
        }
    }
}

/// `LD_PRELOAD`, `LD_*`.
impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pattern::Exact(name) => f.write_str(name),
            Pattern::Prefix(start) => write!(f, "{start}*"),
        }
    }
}

/// What a variable's value names, which decides whether a plugin's
/// environment may hold it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    /// Absolute paths of files or directories, separated by `:` (one path
    /// is a list of one): what they name can be put through the trust
    /// gate.
    Paths,
    /// `LD_PRELOAD`'s list: paths separated by spaces or colons.
    Preload,
    /// `LD_LIBRARY_PATH`'s list: directories separated by colons or
    /// semicolons (ld.so(8)); judged at a `:` only, `/usr/lib;/home/x`
    /// read as one path under `/usr` that is not there.
    LibraryPath,
    /// Code, options or a setting that cannot be judged as a path: a
    /// command line, a prompt, `-Mmodule`, `--require file`.
    Code,
}

/// One row of a group: a name or family, and what its value names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub pattern: Pattern,
    pub value: Value,
}

/// Variables that change one reader, and why they are refused.
#[derive(Debug, Clone, Copy)]
pub struct Group {
    pub reader: Reader,
    /// Why, in a sentence (docs/secrets.md says the same).
    pub why: &'static str,
    pub entries: &'static [Entry],
}

const fn code(name: &'static str) -> Entry {
    Entry {
        pattern: Pattern::Exact(name),
        value: Value::Code,
    }
}

const fn paths(name: &'static str) -> Entry {
    Entry {
        pattern: Pattern::Exact(name),
        value: Value::Paths,
    }
}

const fn family(start: &'static str) -> Entry {
    Entry {
        pattern: Pattern::Prefix(start),
        value: Value::Code,
    }
}

/// The table. An exact name of a group wins over a family of the same
/// group (`LD_LIBRARY_PATH` is [`Value::LibraryPath`], the rest of `LD_*` code).
pub const TABLE: &[Group] = &[
    Group {
        reader: Reader::Shell,
        why: "where the shell finds commands and functions, files it reads or writes on its own \
              (start-up, history, translations), where `cd -` goes and what a script takes \
              for its working directory, code it runs at a prompt, a trace line or a \
              mail check, its options, the functions bash imports from the environment, \
              bash-completion's own directories and file (sourced when an interactive bash \
              starts, and when TAB first completes a command), and fish's own fish_* \
              variables (fish_user_paths goes before PATH, fish_function_path says where \
              commands it does not find on PATH are loaded from) (bash(1), dash(1), \
              zshparam(1), fish-language(1))",
        entries: &[
            paths("PATH"),
            code("IFS"),
            paths("ENV"),
            paths("BASH_ENV"),
            paths("CDPATH"),
            paths("PWD"),
            paths("OLDPWD"),
            code("PS0"),
            code("PS1"),
            code("PS2"),
            code("PS3"),
            code("PS4"),
            code("PROMPT"),
            code("PROMPT2"),
            code("PROMPT3"),
            code("PROMPT4"),
            code("RPROMPT"),
            code("RPROMPT2"),
            code("RPS1"),
            code("RPS2"),
            code("SPROMPT"),
            code("PROMPT_EOL_MARK"),
            code("PROMPT_COMMAND"),
            code("SHELLOPTS"),
            code("BASHOPTS"),
            family("BASH_FUNC_"),
            family("BASH_COMPLETION_"),
            family("FISH_"),
            code("BASH_COMPAT"),
            code("POSIXLY_CORRECT"),
            code("GLOBIGNORE"),
            code("EXECIGNORE"),
            code("BASH_XTRACEFD"),
            paths("BASH_LOADABLES_PATH"),
            code("FCEDIT"),
            paths("HISTFILE"),
            paths("INPUTRC"),
            code("MAILPATH"),
            code("TEXTDOMAIN"),
            paths("TEXTDOMAINDIR"),
            paths("ZDOTDIR"),
            paths("FPATH"),
            paths("MODULE_PATH"),
            code("NULLCMD"),
            code("READNULLCMD"),
            code("STTY"),
            paths("TMPPREFIX"),
            code("SHELL"),
        ],
    },
    Group {
        reader: Reader::ShellState,
        why: "special parameters a shell keeps itself: assigning one is no plain variable — \
              bash evaluates OPTIND, RANDOM, SRANDOM and HISTCMD as arithmetic, where \
              a[$(cmd)] runs cmd even inside single quotes; zsh's UID, EUID, GID, EGID and \
              USERNAME change the shell's user; argv and BASH_ARGV0 its arguments and $0; \
              the rest are read-only, integers or arrays, and eval stops half-way on them \
              (found by exporting each name a shell's manual lists in bash, dash and zsh)",
        entries: &[
            code("_"),
            code("BASHPID"),
            code("BASH_ALIASES"),
            code("BASH_ARGC"),
            code("BASH_ARGV"),
            code("BASH_ARGV0"),
            code("BASH_CMDS"),
            code("BASH_COMMAND"),
            code("BASH_LINENO"),
            code("BASH_SOURCE"),
            code("BASH_SUBSHELL"),
            code("BASH_VERSINFO"),
            code("DIRSTACK"),
            code("EPOCHREALTIME"),
            code("EPOCHSECONDS"),
            code("EUID"),
            code("FUNCNAME"),
            code("GROUPS"),
            code("HISTCMD"),
            code("LINENO"),
            code("OPTIND"),
            code("PPID"),
            code("RANDOM"),
            code("SECONDS"),
            code("SRANDOM"),
            code("UID"),
            code("ARGC"),
            code("argv"),
            code("ARGV0"),
            code("COLUMNS"),
            code("EGID"),
            code("ERRNO"),
            code("FUNCNEST"),
            code("GID"),
            code("HISTCHARS"),
            code("HISTSIZE"),
            code("KEYBOARD_HACK"),
            code("KEYTIMEOUT"),
            code("LINES"),
            code("LISTMAX"),
            code("MAILCHECK"),
            code("MANPATH"),
            code("FIGNORE"),
            code("PSVAR"),
            code("SAVEHIST"),
            code("SHLVL"),
            code("TRY_BLOCK_ERROR"),
            code("TRY_BLOCK_INTERRUPT"),
            code("TTYIDLE"),
            code("USERNAME"),
            code("ZLE_RPROMPT_INDENT"),
            code("ZSH_SUBSHELL"),
            code("pipestatus"),
            code("signals"),
            code("status"),
            code("zsh_eval_context"),
            code("zsh_scheduled_events"),
            // zsh's modules (zshmodules(1)): zsh/parameter, zsh/zleparameter,
            // zsh/system, zsh/datetime, zsh/mapfile (an assignment writes a
            // file), zsh/langinfo, zsh/termcap, zsh/terminfo.
            code("aliases"),
            code("builtins"),
            code("commands"),
            code("dis_aliases"),
            code("dis_builtins"),
            code("dis_functions"),
            code("dis_functions_source"),
            code("dis_galiases"),
            code("dis_patchars"),
            code("dis_reswords"),
            code("dis_saliases"),
            code("epochtime"),
            code("errnos"),
            code("funcfiletrace"),
            code("funcsourcetrace"),
            code("funcstack"),
            code("functions"),
            code("functions_source"),
            code("functrace"),
            code("galiases"),
            code("history"),
            code("historywords"),
            code("jobdirs"),
            code("jobstates"),
            code("jobtexts"),
            code("keymaps"),
            code("langinfo"),
            code("mapfile"),
            code("modules"),
            code("nameddirs"),
            code("options"),
            code("parameters"),
            code("patchars"),
            code("reswords"),
            code("saliases"),
            code("sysparams"),
            code("termcap"),
            code("terminfo"),
            code("userdirs"),
            code("usergroups"),
            code("widgets"),
        ],
    },
    Group {
        reader: Reader::Loader,
        why: "what the dynamic loader loads into every dynamically linked program before main(), \
              and the variables glibc itself ignores in a set-user-ID program for that reason \
              (ld.so(8), secure-execution mode), LANGUAGE among them: gettext follows its ../ \
              out of /usr/share/locale, and a message catalog of someone else's holds the \
              format strings every program that translates its messages prints with (gettext(3))",
        entries: &[
            family("LD_"),
            Entry {
                pattern: Pattern::Exact("LD_LIBRARY_PATH"),
                value: Value::LibraryPath,
            },
            Entry {
                pattern: Pattern::Exact("LD_PRELOAD"),
                value: Value::Preload,
            },
            paths("LD_AUDIT"),
            paths("GCONV_PATH"),
            paths("GETCONF_DIR"),
            code("GLIBC_TUNABLES"),
            paths("HOSTALIASES"),
            // A list of language names, each appended to gettext's catalog
            // directory: `../../their/dir` loads their `.mo`, whose
            // translations are the format strings bash, coreutils and apt
            // print with (%n writes memory). No name a store or a plugin
            // needs holds a slash, and nothing else can be judged.
            code("LANGUAGE"),
            code("LOCALDOMAIN"),
            paths("LOCPATH"),
            paths("MALLOC_TRACE"),
            code("NIS_PATH"),
            code("NLSPATH"),
            paths("RESOLV_HOST_CONF"),
            code("RES_OPTIONS"),
            paths("TMPDIR"),
            paths("TZDIR"),
        ],
    },
    Group {
        reader: Reader::Libraries,
        why: "configuration and plug-in directories from which OpenSSL loads engines and \
              providers (shared objects) into any program that uses it, and the bus every \
              D-Bus client connects to, whose address may name a program to start \
              (unixexec:path=..., which libdbus and systemd's sd-bus start for busctl, \
              hostnamectl, timedatectl, loginctl), and Kerberos's configuration, plug-in \
              and trace files, which libkrb5 reads and writes in every program that may \
              authenticate with it (ssh, with Debian's GSSAPIAuthentication yes): its \
              configuration names plug-in modules to load, KRB5_TRACE appends to any file \
              (openssl-env(7), the D-Bus specification's server addresses, sd-bus(3), \
              kerberos(7))",
        entries: &[
            paths("OPENSSL_CONF"),
            paths("OPENSSL_ENGINES"),
            paths("OPENSSL_MODULES"),
            family("DBUS_"),
            family("KRB5"),
            paths("KRB5_CONFIG"),
        ],
    },
    Group {
        reader: Reader::Packages,
        why: "commands Debian's package tools, on every Debian node, run as root at a \
              script's next apt-get, dpkg or debconf: debconf pastes DEBIAN_FRONTEND into \
              Perl it evaluates (a value can close the module's name and call system), \
              APT_CONFIG names a configuration whose Pre-Invoke and Post-Invoke commands \
              apt runs, DPKG_ADMINDIR a database whose maintainer scripts dpkg runs as \
              it configures packages, DPKG_PAGER a command, and DEBCONF_* debconf's \
              configuration, database and the answers it gives",
        entries: &[
            // Debconf::AutoSelect: `eval qq{use Debconf::FrontEnd::$type; ...}`
            // with $type from DEBIAN_FRONTEND: the value is Perl source.
            code("DEBIAN_FRONTEND"),
            // Tells a package's maintainer script that a frontend already
            // runs, and to talk to it on the descriptors DEBCONF_* names.
            code("DEBIAN_HAS_FRONTEND"),
            paths("APT_CONFIG"),
            paths("DPKG_ADMINDIR"),
            family("DPKG_"),
            paths("DEBCONF_SYSTEMRC"),
            family("DEBCONF_"),
        ],
    },
    Group {
        reader: Reader::Python,
        why: "Python's module search path, start-up file, breakpoint hook and every other \
              PYTHON* setting (python3(1), and the environment section of its help)",
        entries: &[
            family("PYTHON"),
            paths("PYTHONPATH"),
            paths("PYTHONHOME"),
            paths("PYTHONSTARTUP"),
            paths("PYTHONUSERBASE"),
            paths("PYTHONPLATLIBDIR"),
            paths("PYTHONPYCACHEPREFIX"),
        ],
    },
    Group {
        reader: Reader::Perl,
        why: "Perl's library path, the options every perl starts with (-M loads a module), its \
              debugger and I/O layers: every PERL* variable (perlrun(1))",
        entries: &[family("PERL"), paths("PERL5LIB"), paths("PERLLIB")],
    },
    Group {
        reader: Reader::Ruby,
        why: "Ruby's library path, the options every ruby starts with (-r requires a file), \
              where gems and bundles are loaded from, gem's configuration file (GEMRC: the \
              sources and options of every gem install, whose extensions it builds and so \
              runs) and Bundler's settings (BUNDLE_APP_CONFIG names its configuration \
              directory) (ruby(1), gem(1), bundle-config(1))",
        entries: &[
            family("RUBY"),
            paths("RUBYLIB"),
            paths("GEM_HOME"),
            paths("GEM_PATH"),
            paths("GEMRC"),
            family("BUNDLE_"),
            paths("BUNDLE_GEMFILE"),
        ],
    },
    Group {
        reader: Reader::Node,
        why: "Node.js's module path and the options every node starts with (its require and \
              import options), and npm's and Yarn's configuration, read in any case (Yarn's \
              yarnPath names the program every yarn runs) (node(1), npm-config, yarnrc)",
        entries: &[
            family("NODE_"),
            paths("NODE_PATH"),
            family("NPM_CONFIG_"),
            family("YARN_"),
        ],
    },
    Group {
        reader: Reader::Java,
        why: "options every JVM starts with (-javaagent loads code), and those Maven, \
              Gradle, sbt and Ant start theirs with, Gradle's home (its init.d scripts run \
              with every build), its class path, and the JDK launchers run from JAVA_HOME \
              (java(1), mvn, gradle)",
        entries: &[
            code("JAVA_TOOL_OPTIONS"),
            code("_JAVA_OPTIONS"),
            code("JDK_JAVA_OPTIONS"),
            code("JAVA_OPTS"),
            code("MAVEN_OPTS"),
            code("GRADLE_OPTS"),
            paths("GRADLE_USER_HOME"),
            code("SBT_OPTS"),
            code("ANT_OPTS"),
            paths("CLASSPATH"),
            paths("JAVA_HOME"),
        ],
    },
    Group {
        reader: Reader::OtherInterpreters,
        why: "what other interpreters a script may run load or execute: go's flags \
              (-toolexec runs a program), toolchain, cache and authentication programs, \
              where its modules come from and how they are checked (a proxy, a module cache \
              or a workspace of someone else's is their code built and run) and cgo's \
              compiler flags, awk's include and extension paths, Lua's start-up code and \
              paths, Tcl's and PHP's library and ini paths",
        entries: &[
            code("GOFLAGS"),
            code("GOTOOLCHAIN"),
            paths("GOENV"),
            paths("GOROOT"),
            code("GOCACHEPROG"),
            code("GOAUTH"),
            code("GOPROXY"),
            code("GONOPROXY"),
            code("GOSUMDB"),
            code("GONOSUMDB"),
            code("GONOSUMCHECK"),
            code("GOINSECURE"),
            code("GOPRIVATE"),
            code("GOVCS"),
            paths("GOPATH"),
            paths("GOMODCACHE"),
            paths("GOWORK"),
            family("CGO_"),
            paths("AWKPATH"),
            paths("AWKLIBPATH"),
            family("LUA_"),
            code("TCLLIBPATH"),
            paths("PHPRC"),
            paths("PHP_INI_SCAN_DIR"),
        ],
    },
    Group {
        reader: Reader::Build,
        why: "what the build tools a script runs next execute: make's flags (--eval runs make \
              code, SHELL= names its shell) and the makefiles it reads before any other; the \
              compilers and flags make's rules, cgo and build scripts run (CFLAGS=-fplugin= \
              loads a shared object into gcc, -wrapper runs a program); gcc's program, include \
              and library search paths; cargo's configuration, read from CARGO_* (a target's \
              runner and linker, rustc's wrapper, credential providers: programs it runs), \
              rustc's and rustdoc's programs and flags, and rustup's toolchain and download \
              server (make(1), gcc(1), cargo's and rustup's environment references)",
        entries: &[
            code("MAKEFLAGS"),
            code("MFLAGS"),
            code("GNUMAKEFLAGS"),
            code("MAKEFILES"),
            code("CC"),
            code("CXX"),
            code("CPP"),
            code("CFLAGS"),
            code("CXXFLAGS"),
            code("CPPFLAGS"),
            code("LDFLAGS"),
            paths("GCC_EXEC_PREFIX"),
            paths("COMPILER_PATH"),
            paths("LIBRARY_PATH"),
            paths("CPATH"),
            paths("C_INCLUDE_PATH"),
            paths("CPLUS_INCLUDE_PATH"),
            paths("OBJC_INCLUDE_PATH"),
            family("CARGO_"),
            family("RUSTC"),
            code("RUSTFLAGS"),
            code("RUSTDOC"),
            code("RUSTDOCFLAGS"),
            family("RUSTUP_"),
        ],
    },
    Group {
        reader: Reader::Git,
        why: "git runs programs its environment names (GIT_SSH_COMMAND, GIT_EDITOR, \
              GIT_PAGER, GIT_ASKPASS, GIT_EXTERNAL_DIFF, GIT_PROXY_COMMAND), takes \
              configuration from it (GIT_CONFIG_*, which can set core.fsmonitor or \
              core.sshCommand) and hooks from GIT_DIR and GIT_TEMPLATE_DIR; its list grows \
              with each release, so the whole GIT_* family (git(1))",
        entries: &[family("GIT_")],
    },
    Group {
        reader: Reader::Programs,
        why: "commands that programs a script runs start on their own: an editor (crontab -e, \
              git commit, systemctl edit, and Debian's sensible-editor, which runs \
              SELECTED_EDITOR when EDITOR is unset), a pager (man, git log, systemctl status), less's \
              input preprocessor and key file, the file less replaces with its history after \
              a search (/etc/passwd to a root less), the formatter man runs (groff's programs come \
              from GROFF_BIN_PATH first, its macros from GROFF_TMAC_PATH, its options from \
              MANROFFOPT), askpass helpers of sudo, ssh and wget, tar's default options (its \
              to-command option), rsync's remote shell, the editor and diff program \
              kubectl edit and kubectl diff run, vim's start-up commands (VIMINIT, EXINIT: \
              Ex commands, :! among them) and runtime files, and the start-up file of mail \
              and mailx (whose set sendmail= names a program), and modprobe's options (-C \
              names its configuration, whose install lines are shell commands it runs) \
              (less(1), man(1), groff(1), systemctl(1), sudo(8), ssh(1), tar(1), rsync(1), \
              kubectl, vim(1), mailx(1), modprobe(8))",
        entries: &[
            code("EDITOR"),
            code("VISUAL"),
            code("PAGER"),
            code("MANPAGER"),
            code("MANOPT"),
            code("MANROFFOPT"),
            code("BROWSER"),
            code("SYSTEMD_PAGER"),
            code("SYSTEMD_PAGERSECURE"),
            code("SYSTEMD_EDITOR"),
            code("SYSTEMD_LESS"),
            code("LESS"),
            code("LESSOPEN"),
            code("LESSCLOSE"),
            code("LESSEDIT"),
            paths("LESSKEY"),
            paths("LESSKEYIN"),
            paths("LESSKEY_SYSTEM"),
            paths("LESSKEYIN_SYSTEM"),
            // less replaces this file with its history (a rename onto it,
            // whatever it was) after a search: `/etc/passwd` as root. A
            // target to write, not a file to load: root's own passes the
            // gate, so it is refused as code is.
            code("LESSHISTFILE"),
            code("LESSSECURE"),
            family("GROFF_"),
            code("SUDO_EDITOR"),
            // Debian's sensible-editor (sensible-utils, on every node)
            // runs it, split into words, when EDITOR and VISUAL are unset
            // and the user never chose one: `sh -c ...` runs as root.
            code("SELECTED_EDITOR"),
            code("SUDO_ASKPASS"),
            code("SSH_ASKPASS"),
            code("WGET_ASKPASS"),
            code("SSH_ASKPASS_REQUIRE"),
            code("TAR_OPTIONS"),
            code("RSYNC_RSH"),
            code("RSYNC_CONNECT_PROG"),
            code("KUBE_EDITOR"),
            code("KUBECTL_EXTERNAL_DIFF"),
            code("VIMINIT"),
            code("EXINIT"),
            paths("VIMRUNTIME"),
            paths("VIM"),
            paths("MAILRC"),
            code("MODPROBE_OPTIONS"),
        ],
    },
    Group {
        reader: Reader::Configuration,
        why: "where programs read their configuration, which names more programs to run: \
              ~/.gitconfig, ~/.ssh/config (ProxyCommand), Python's user site-packages, \
              bash-completion's scripts in XDG_DATA_DIRS, curl's and wget's rc files \
              (wget's system-wide one too, whose use_askpass names a program it runs), \
              kubectl's configuration (a user's exec command), the AWS CLI's \
              (credential_process), and the file system table mount reads (what a \
              mount of a directory alone mounts there, set-uid programs and all)",
        entries: &[
            paths("KUBECONFIG"),
            paths("AWS_CONFIG_FILE"),
            paths("HOME"),
            paths("XDG_CONFIG_HOME"),
            paths("XDG_CONFIG_DIRS"),
            paths("XDG_DATA_HOME"),
            paths("XDG_DATA_DIRS"),
            paths("CURL_HOME"),
            paths("WGETRC"),
            // wget reads it in place of /etc/wgetrc.
            paths("SYSTEM_WGETRC"),
            paths("LIBMOUNT_FSTAB"),
        ],
    },
    Group {
        reader: Reader::Tools,
        why: "code the runtimes and operations tools a deployment script runs next load \
              from their environment: .NET's startup hooks and CoreCLR profilers, R's \
              profile files, pip's configuration and every option of its commands, read \
              from PIP_* (PIP_REQUIREMENT adds a requirements file to every pip install, \
              whose packages pip builds, and so runs), uv's settings, read from UV_* (its \
              index, its configuration file, the Python it runs), and the configuration of \
              Terraform (provider installation, also under its older name \
              TERRAFORM_CONFIG, and the options TF_CLI_ARGS adds to every command, \
              -plugin-dir among them), Helm (plugins), Ansible (its plugins and callbacks), \
              Docker (credential helpers), Vault (its token helper, a program every vault \
              command runs) and GnuPG (GNUPGHOME holds gpg.conf, whose agent-program and \
              keyserver helpers gpg starts)",
        entries: &[
            paths("DOTNET_STARTUP_HOOKS"),
            paths("DOTNET_ADDITIONAL_DEPS"),
            family("CORECLR_"),
            paths("R_PROFILE"),
            paths("R_PROFILE_USER"),
            paths("R_ENVIRON"),
            paths("R_ENVIRON_USER"),
            paths("R_LIBS"),
            paths("R_LIBS_USER"),
            // Every option of every pip command is read from PIP_<OPTION>
            // (pip's configuration docs), and several name what pip builds
            // and so runs: PIP_REQUIREMENT and PIP_CONSTRAINT add a
            // requirements file to any `pip install`, PIP_EDITABLE a source
            // tree, besides the index and links.
            family("PIP_"),
            paths("PIP_CONFIG_FILE"),
            family("UV_"),
            paths("UV_CONFIG_FILE"),
            paths("TF_CLI_CONFIG_FILE"),
            paths("TERRAFORM_CONFIG"),
            paths("TF_PLUGIN_CACHE_DIR"),
            family("TF_CLI_ARGS"),
            paths("HELM_PLUGINS"),
            paths("HELM_CONFIG_HOME"),
            paths("HELM_DATA_HOME"),
            family("ANSIBLE_"),
            paths("DOCKER_CONFIG"),
            paths("VAULT_CONFIG_PATH"),
            paths("GNUPGHOME"),
        ],
    },
    Group {
        reader: Reader::Network,
        why: "shared objects the node's networking tools load as root from a directory \
              their environment names: iproute2, on every Debian node, looks for a link \
              type's module (link_<kind>.so) in IP_LIB_DIR and for a queueing discipline's, \
              filter's or action's in TC_LIB_DIR before its built-in one, so even a plain \
              tc qdisc show loads one per discipline it prints; iptables, which bridge \
              networking and CNI plugins run, loads its extensions from XTABLES_LIBDIR \
              (and the older IPTABLES_LIB_DIR, IP6TABLES_LIB_DIR) (ip(8), tc(8), \
              iptables(8))",
        entries: &[
            paths("IP_LIB_DIR"),
            paths("TC_LIB_DIR"),
            paths("XTABLES_LIBDIR"),
            paths("IPTABLES_LIB_DIR"),
            paths("IP6TABLES_LIB_DIR"),
        ],
    },
];

/// What the table says about one variable.
#[derive(Debug, Clone, Copy)]
pub struct Hit {
    pub group: &'static Group,
    pub entry: &'static Entry,
}

impl Hit {
    pub fn reader(&self) -> Reader {
        self.group.reader
    }

    pub fn pattern(&self) -> Pattern {
        self.entry.pattern
    }

    pub fn value(&self) -> Value {
        self.entry.value
    }
}

/// The table's entry for `key`, if any: an exact name before a family,
/// first group first.
pub fn find(key: &str) -> Option<Hit> {
    let exact = |e: &Entry| matches!(e.pattern, Pattern::Exact(_)) && e.pattern.matches(key);
    let family = |e: &Entry| matches!(e.pattern, Pattern::Prefix(_)) && e.pattern.matches(key);
    for wanted in [&exact as &dyn Fn(&Entry) -> bool, &family] {
        for group in TABLE {
            if let Some(entry) = group.entries.iter().find(|e| wanted(e)) {
                return Some(Hit { group, entry });
            }
        }
    }
    None
}

/// Every pattern of the table, in order (for a listing, and the test that
/// holds docs/secrets.md to it).
pub fn patterns() -> impl Iterator<Item = (Reader, Pattern)> {
    TABLE
        .iter()
        .flat_map(|g| g.entries.iter().map(move |e| (g.reader, e.pattern)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_in_any_case_and_families_by_prefix() {
        for (key, reader) in [
            ("PATH", Reader::Shell),
            ("path", Reader::Shell),
            ("Path", Reader::Shell),
            ("LD_PRELOAD", Reader::Loader),
            ("ld_bind_now", Reader::Loader),
            ("BASH_FUNC_ls%%", Reader::Shell),
            ("PYTHONBREAKPOINT", Reader::Python),
            ("npm_config_script_shell", Reader::Node),
            ("GIT_SSH_COMMAND", Reader::Git),
            ("OPTIND", Reader::ShellState),
            ("USERNAME", Reader::ShellState),
            ("PS0", Reader::Shell),
        ] {
            assert_eq!(find(key).map(|h| h.reader()), Some(reader), "{key}");
        }
        for fine in [
            "DB_PASSWORD",
            "USER",
            "TOKEN",
            "LD",
            "GI",
            "PATHS",
            "XPATH",
            "PS5",
        ] {
            assert!(find(fine).is_none(), "{fine}");
        }
    }

    #[test]
    fn an_exact_name_wins_over_its_family() {
        assert_eq!(find("LD_LIBRARY_PATH").unwrap().value(), Value::LibraryPath);
        assert_eq!(find("LD_PRELOAD").unwrap().value(), Value::Preload);
        assert_eq!(find("LD_DEBUG_OUTPUT").unwrap().value(), Value::Code);
        assert_eq!(find("PYTHONPATH").unwrap().value(), Value::Paths);
        assert_eq!(find("PYTHONINSPECT").unwrap().value(), Value::Code);
    }

    #[test]
    fn no_pattern_is_listed_twice() {
        let mut seen = std::collections::HashSet::new();
        for (_, p) in patterns() {
            let key = p.to_string().to_ascii_uppercase();
            assert!(seen.insert(key.clone()), "{key} twice");
        }
    }
}

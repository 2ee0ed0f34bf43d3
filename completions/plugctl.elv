
use builtin;
use str;

set edit:completion:arg-completer[plugctl] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'plugctl'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'plugctl'= {
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand fingerprint 'Discover and fingerprint plugins concurrently, and record the results'
            cand plugin 'Plugins in the registry: list, show, and the dynamic registry'
            cand volume 'Create, delete, list and restore dynamic host volumes'
            cand secret 'Fetch secrets through a secrets plugin'
            cand validate 'Check a plugin directory for problems before it reaches a Nomad node'
            cand test 'Run the conformance suite against one plugin'
            cand events 'The registry''s event log'
            cand init 'Scaffold a new plugin that passes validate and test'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'plugctl;fingerprint'= {
            cand --type 'Only this family (host-volume, secrets, or another directory name)'
            cand --timeout 'Deadline for each plugin call [default: the operation''s limit from the protocol]'
            cand --grace 'Time between SIGTERM and SIGKILL at the deadline'
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'plugctl;plugin'= {
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'Plugins in the registry, with the current (most recent) instance of each'
            cand show 'Every instance of one plugin, most recent first'
            cand register 'Record a plugin instance that runs as a long-lived task'
            cand deregister 'Remove a plugin instance'
            cand wait 'Wait until a plugin is registered (and, with --healthy, its socket accepts)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'plugctl;plugin;list'= {
            cand --type 'type'
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'plugctl;plugin;show'= {
            cand --alloc-id 'Only the instance of this allocation'
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'plugctl;plugin;register'= {
            cand --type 'type'
            cand --name 'name'
            cand --alloc-id 'alloc-id'
            cand --socket 'The plugin''s control socket'
            cand --version 'version'
            cand --option 'Free-form options stored with the instance'
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'plugctl;plugin;deregister'= {
            cand --type 'type'
            cand --name 'name'
            cand --alloc-id 'alloc-id'
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'plugctl;plugin;wait'= {
            cand --timeout 'Give up after this long (exit 4)'
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --healthy 'Also wait until the current instance''s socket accepts a connection'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'plugctl;plugin;help'= {
            cand list 'Plugins in the registry, with the current (most recent) instance of each'
            cand show 'Every instance of one plugin, most recent first'
            cand register 'Record a plugin instance that runs as a long-lived task'
            cand deregister 'Remove a plugin instance'
            cand wait 'Wait until a plugin is registered (and, with --healthy, its socket accepts)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'plugctl;plugin;help;list'= {
        }
        &'plugctl;plugin;help;show'= {
        }
        &'plugctl;plugin;help;register'= {
        }
        &'plugctl;plugin;help;deregister'= {
        }
        &'plugctl;plugin;help;wait'= {
        }
        &'plugctl;plugin;help;help'= {
        }
        &'plugctl;volume'= {
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand create 'Run the plugin''s create and record the volume'
            cand delete 'Run the plugin''s delete with the recorded path, then forget the volume'
            cand list 'Volumes in the registry'
            cand show 'One volume, by id or by name'
            cand restore 'Re-run create for every recorded volume, as a Nomad client does at start'
            cand repair 'Finish or roll back volumes left pending or deleting by an interrupted plugctl'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'plugctl;volume;create'= {
            cand --plugin 'Host-volume plugin name (mkdir is built in)'
            cand --name 'Volume name (any non-empty string; never used by plugctl to build a path)'
            cand --id 'Volume id, a lowercase UUID [default: a new one]'
            cand --namespace 'namespace'
            cand --capacity-min 'Minimum capacity, e.g. 50MB (10^6) or 50MiB (2^20)'
            cand --capacity-max 'Maximum capacity, e.g. 1GiB'
            cand --param 'Plugin parameter (repeatable)'
            cand --timeout 'Deadline for each plugin call [default: the operation''s limit from the protocol]'
            cand --grace 'Time between SIGTERM and SIGKILL at the deadline'
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'plugctl;volume;delete'= {
            cand --name 'Delete by name instead of id'
            cand --namespace 'namespace'
            cand --timeout 'Deadline for each plugin call [default: the operation''s limit from the protocol]'
            cand --grace 'Time between SIGTERM and SIGKILL at the deadline'
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'plugctl;volume;list'= {
            cand --plugin 'Only volumes of this plugin'
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'plugctl;volume;show'= {
            cand --namespace 'namespace'
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'plugctl;volume;restore'= {
            cand --timeout 'Deadline for each plugin call [default: the operation''s limit from the protocol]'
            cand --grace 'Time between SIGTERM and SIGKILL at the deadline'
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'plugctl;volume;repair'= {
            cand --timeout 'Deadline for each plugin call [default: the operation''s limit from the protocol]'
            cand --grace 'Time between SIGTERM and SIGKILL at the deadline'
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'plugctl;volume;help'= {
            cand create 'Run the plugin''s create and record the volume'
            cand delete 'Run the plugin''s delete with the recorded path, then forget the volume'
            cand list 'Volumes in the registry'
            cand show 'One volume, by id or by name'
            cand restore 'Re-run create for every recorded volume, as a Nomad client does at start'
            cand repair 'Finish or roll back volumes left pending or deleting by an interrupted plugctl'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'plugctl;volume;help;create'= {
        }
        &'plugctl;volume;help;delete'= {
        }
        &'plugctl;volume;help;list'= {
        }
        &'plugctl;volume;help;show'= {
        }
        &'plugctl;volume;help;restore'= {
        }
        &'plugctl;volume;help;repair'= {
        }
        &'plugctl;volume;help;help'= {
        }
        &'plugctl;secret'= {
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand fetch 'Run a secrets plugin''s fetch and print the result'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'plugctl;secret;fetch'= {
            cand --env 'Environment for the plugin (repeatable; a later key wins)'
            cand --env-file 'Read K=V lines for the plugin''s environment from a file'
            cand --job-id 'Sets NOMAD_JOB_ID, as Nomad 1.11.1+ does'
            cand --namespace 'Sets NOMAD_NAMESPACE, as Nomad 1.11.1+ does'
            cand --format 'Output format [default: kv, or json with --json]'
            cand --timeout 'Deadline for each plugin call [default: the operation''s limit from the protocol]'
            cand --grace 'Time between SIGTERM and SIGKILL at the deadline'
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'plugctl;secret;help'= {
            cand fetch 'Run a secrets plugin''s fetch and print the result'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'plugctl;secret;help;fetch'= {
        }
        &'plugctl;secret;help;help'= {
        }
        &'plugctl;validate'= {
            cand --format 'Report format [default: human, or json with --json]'
            cand --timeout 'Deadline for each plugin call [default: the operation''s limit from the protocol]'
            cand --grace 'Time between SIGTERM and SIGKILL at the deadline'
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --strict 'Fail on warnings too'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'plugctl;test'= {
            cand --format 'Report format [default: human, or json with --json]'
            cand --path 'Secrets: a path the plugin should be able to fetch'
            cand --env 'Secrets: environment for fetch (repeatable)'
            cand --timeout 'Deadline for each plugin call [default: the operation''s limit from the protocol]'
            cand --grace 'Time between SIGTERM and SIGKILL at the deadline'
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --keep 'Leave the scratch directory and what was created in it'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'plugctl;events'= {
            cand --type 'Only events of this plugin family'
            cand --since 'Only events after this sequence number'
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --follow 'Keep printing new events until interrupted'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'plugctl;init'= {
            cand --dir 'Where to create the plugin [default: <plugin-dir>/<TYPE>]'
            cand --lang 'lang'
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'plugctl;completions'= {
            cand --plugin-dir 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: /opt/nomad/data/common_plugins as root, else ./plugins]'
            cand --host-volume-plugin-dir 'Host-volume plugin directory [default: <plugin-dir>/host-volume]'
            cand --volumes-dir 'Where volumes live [default: /opt/nomad/data/host_volumes as root, else $XDG_STATE_HOME/plugctl/volumes]'
            cand --registry 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]'
            cand --node-id 'Node id passed to plugins [default: a stable id kept in the registry]'
            cand --node-pool 'Node pool passed to plugins'
            cand --concurrency 'How many plugins may run at once'
            cand --lock-timeout 'How long to wait for the registry lock held by another plugctl'
            cand --color 'When to colour output (never when NO_COLOR is set)'
            cand --registry-max-size 'Refuse a registry file larger than this before reading it'
            cand --nomad-version 'Behave as this Nomad release does (timeouts, variables, lookup rules) [default: the newest release covered]'
            cand --json 'Print exactly one JSON document on stdout (or one object per line when streaming)'
            cand -q 'Print less on stderr (warnings and progress off)'
            cand --quiet 'Print less on stderr (warnings and progress off)'
            cand -v 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --verbose 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)'
            cand --allow-insecure-paths 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'plugctl;help'= {
            cand fingerprint 'Discover and fingerprint plugins concurrently, and record the results'
            cand plugin 'Plugins in the registry: list, show, and the dynamic registry'
            cand volume 'Create, delete, list and restore dynamic host volumes'
            cand secret 'Fetch secrets through a secrets plugin'
            cand validate 'Check a plugin directory for problems before it reaches a Nomad node'
            cand test 'Run the conformance suite against one plugin'
            cand events 'The registry''s event log'
            cand init 'Scaffold a new plugin that passes validate and test'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'plugctl;help;fingerprint'= {
        }
        &'plugctl;help;plugin'= {
            cand list 'Plugins in the registry, with the current (most recent) instance of each'
            cand show 'Every instance of one plugin, most recent first'
            cand register 'Record a plugin instance that runs as a long-lived task'
            cand deregister 'Remove a plugin instance'
            cand wait 'Wait until a plugin is registered (and, with --healthy, its socket accepts)'
        }
        &'plugctl;help;plugin;list'= {
        }
        &'plugctl;help;plugin;show'= {
        }
        &'plugctl;help;plugin;register'= {
        }
        &'plugctl;help;plugin;deregister'= {
        }
        &'plugctl;help;plugin;wait'= {
        }
        &'plugctl;help;volume'= {
            cand create 'Run the plugin''s create and record the volume'
            cand delete 'Run the plugin''s delete with the recorded path, then forget the volume'
            cand list 'Volumes in the registry'
            cand show 'One volume, by id or by name'
            cand restore 'Re-run create for every recorded volume, as a Nomad client does at start'
            cand repair 'Finish or roll back volumes left pending or deleting by an interrupted plugctl'
        }
        &'plugctl;help;volume;create'= {
        }
        &'plugctl;help;volume;delete'= {
        }
        &'plugctl;help;volume;list'= {
        }
        &'plugctl;help;volume;show'= {
        }
        &'plugctl;help;volume;restore'= {
        }
        &'plugctl;help;volume;repair'= {
        }
        &'plugctl;help;secret'= {
            cand fetch 'Run a secrets plugin''s fetch and print the result'
        }
        &'plugctl;help;secret;fetch'= {
        }
        &'plugctl;help;validate'= {
        }
        &'plugctl;help;test'= {
        }
        &'plugctl;help;events'= {
        }
        &'plugctl;help;init'= {
        }
        &'plugctl;help;completions'= {
        }
        &'plugctl;help;help'= {
        }
    ]
    $completions[$command]
}

# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_plugctl_global_optspecs
    string join \n nomad-config= plugin-dir= host-volume-plugin-dir= volumes-dir= registry= node-id= node-pool= json concurrency= lock-timeout= color= q/quiet v/verbose allow-insecure-paths registry-max-size= nomad-version= lockfile= record= record-env locked sandbox= sandbox-best-effort memory-max= cpu-max= files-max= tasks-max= h/help V/version
end

function __fish_plugctl_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_plugctl_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_plugctl_using_subcommand
    set -l cmd (__fish_plugctl_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c plugctl -n "__fish_plugctl_needs_command" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_needs_command" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_needs_command" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_needs_command" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_needs_command" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_needs_command" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_needs_command" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_needs_command" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_needs_command" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_needs_command" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_needs_command" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_needs_command" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_needs_command" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_needs_command" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_needs_command" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_needs_command" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_needs_command" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_needs_command" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_needs_command" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_needs_command" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_needs_command" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_needs_command" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_needs_command" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_needs_command" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_needs_command" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_needs_command" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_needs_command" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_needs_command" -f -a "fingerprint" -d 'Discover and fingerprint plugins concurrently, and record the results'
complete -c plugctl -n "__fish_plugctl_needs_command" -f -a "plugin" -d 'Plugins in the registry: list, show, and the dynamic registry'
complete -c plugctl -n "__fish_plugctl_needs_command" -f -a "volume" -d 'Create, delete, list and restore dynamic host volumes'
complete -c plugctl -n "__fish_plugctl_needs_command" -f -a "secret" -d 'Fetch secrets through a secrets plugin'
complete -c plugctl -n "__fish_plugctl_needs_command" -f -a "validate" -d 'Check a plugin directory before it reaches a Nomad node'
complete -c plugctl -n "__fish_plugctl_needs_command" -f -a "test" -d 'Run the conformance suite against one plugin'
complete -c plugctl -n "__fish_plugctl_needs_command" -f -a "events" -d 'The registry\'s event log'
complete -c plugctl -n "__fish_plugctl_needs_command" -f -a "status" -d 'Is this node fine? One screen; exit 1 when something needs attention'
complete -c plugctl -n "__fish_plugctl_needs_command" -f -a "pin" -d 'Pin each plugin file in the lock file, or check the disk against it'
complete -c plugctl -n "__fish_plugctl_needs_command" -f -a "replay" -d 'Run calls recorded with --record again, and compare'
complete -c plugctl -n "__fish_plugctl_needs_command" -f -a "metrics" -d 'The registry\'s state in the Prometheus text format'
complete -c plugctl -n "__fish_plugctl_needs_command" -f -a "init" -d 'Scaffold a new plugin that passes validate and test'
complete -c plugctl -n "__fish_plugctl_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c plugctl -n "__fish_plugctl_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l type -d 'Only this family (host-volume, secrets, or another directory name)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l timeout -d 'Deadline for each plugin call' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l grace -d 'Grace from SIGTERM to SIGKILL' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l textfile -d 'Then write the metrics to DIR/plugctl.prom' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -s o -l output -d 'How to print: table, wide, json or name' -r -f -a "table\t'A table; on a terminal, fitted to its width (empty columns left out, free text cut short)'
wide\t'Every column, whole'
json\t'The JSON document (as --json)'
name\t'One id or name a line, for xargs'"
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l dry-run -d 'Print each plugin call instead of making it; change nothing'
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l wide -d 'Every column, whole: the same as -o wide'
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand fingerprint" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -f -a "list" -d 'Plugins in the registry, each as its current instance'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -f -a "ls" -d 'Plugins in the registry, each as its current instance'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -f -a "show" -d 'Every instance of one plugin, most recent first'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -f -a "register" -d 'Record a plugin instance that runs as a long-lived task'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -f -a "deregister" -d 'Remove a plugin instance'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -f -a "forget" -d 'Forget plugins removed from their directory on purpose'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -f -a "wait" -d 'Wait until a plugin is registered (and healthy)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and not __fish_seen_subcommand_from list ls show register deregister forget wait help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l type -d 'Only plugins of this type (host-volume, secrets, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -s o -l output -d 'How to print: table, wide, json or name' -r -f -a "table\t'A table; on a terminal, fitted to its width (empty columns left out, free text cut short)'
wide\t'Every column, whole'
json\t'The JSON document (as --json)'
name\t'One id or name a line, for xargs'"
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l unhealthy -d 'Only plugins that are not healthy now'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l wide -d 'Every column, whole: the same as -o wide'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l type -d 'Only plugins of this type (host-volume, secrets, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -s o -l output -d 'How to print: table, wide, json or name' -r -f -a "table\t'A table; on a terminal, fitted to its width (empty columns left out, free text cut short)'
wide\t'Every column, whole'
json\t'The JSON document (as --json)'
name\t'One id or name a line, for xargs'"
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l unhealthy -d 'Only plugins that are not healthy now'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l wide -d 'Every column, whole: the same as -o wide'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from ls" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l alloc-id -d 'Only the instance of this allocation' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -s o -l output -d 'How to print: table, wide, json or name' -r -f -a "table\t'A table; on a terminal, fitted to its width (empty columns left out, free text cut short)'
wide\t'Every column, whole'
json\t'The JSON document (as --json)'
name\t'One id or name a line, for xargs'"
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l wide -d 'Every column, whole: the same as -o wide'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l type -d 'The plugin\'s type (csi-node, csi-controller, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l name -d 'The plugin\'s name' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l alloc-id -d 'The allocation the plugin\'s task runs in' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l socket -d 'The plugin\'s control socket' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l version -d 'The plugin\'s version' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l option -d 'Free-form options stored with the instance' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from register" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l type -d 'The plugin\'s type (csi-node, csi-controller, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l name -d 'The plugin\'s name' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l alloc-id -d 'The allocation whose instance goes' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from deregister" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from forget" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l timeout -d 'Give up after this long (exit 4)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l healthy -d 'Also wait until its socket accepts a connection'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from wait" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from help" -f -a "list" -d 'Plugins in the registry, each as its current instance'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from help" -f -a "show" -d 'Every instance of one plugin, most recent first'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from help" -f -a "register" -d 'Record a plugin instance that runs as a long-lived task'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from help" -f -a "deregister" -d 'Remove a plugin instance'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from help" -f -a "forget" -d 'Forget plugins removed from their directory on purpose'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from help" -f -a "wait" -d 'Wait until a plugin is registered (and healthy)'
complete -c plugctl -n "__fish_plugctl_using_subcommand plugin; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -f -a "create" -d 'Run the plugin\'s create and record the volume'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -f -a "delete" -d 'Run the plugin\'s delete, then forget the volume'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -f -a "rm" -d 'Run the plugin\'s delete, then forget the volume'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -f -a "forget" -d 'Drop a volume\'s record without running its plugin'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -f -a "list" -d 'Volumes in the registry'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -f -a "ls" -d 'Volumes in the registry'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -f -a "show" -d 'One volume, by id, id prefix or name'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -f -a "restore" -d 'Run create again for every volume, as a Nomad client does'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -f -a "repair" -d 'Finish or roll back volumes left pending or deleting'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -f -a "audit" -d 'Hold the registry against the disk; exit 1 on any finding'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and not __fish_seen_subcommand_from create delete rm forget list ls show restore repair audit help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -s f -l file -d 'The volume\'s specification, as `nomad volume create FILE` takes it' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l plugin -d 'Host-volume plugin name (mkdir is built in)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l name -d 'Volume name' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l id -d 'Volume id, a UUID [default: a new one]' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l namespace -d 'The volume\'s namespace' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l capacity-min -d 'Minimum capacity, e.g. 50MB (10^6) or 50MiB (2^20)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l capacity-max -d 'Maximum capacity, e.g. 1GiB' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l param -d 'Plugin parameter (repeatable)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l timeout -d 'Deadline for each plugin call' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l grace -d 'Grace from SIGTERM to SIGKILL' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -s o -l output -d 'How to print: table, wide, json or name' -r -f -a "table\t'A table; on a terminal, fitted to its width (empty columns left out, free text cut short)'
wide\t'Every column, whole'
json\t'The JSON document (as --json)'
name\t'One id or name a line, for xargs'"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l dry-run -d 'Print each plugin call instead of making it; change nothing'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l wide -d 'Every column, whole: the same as -o wide'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l id -d 'The volume by id or id prefix only (never a name)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l name -d 'The volume by name only (in --namespace)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l namespace -d 'The namespace a name is looked up in' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l timeout -d 'Deadline for each plugin call' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l grace -d 'Grace from SIGTERM to SIGKILL' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l dry-run -d 'Print each plugin call instead of making it; change nothing'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from delete" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l id -d 'The volume by id or id prefix only (never a name)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l name -d 'The volume by name only (in --namespace)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l namespace -d 'The namespace a name is looked up in' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l timeout -d 'Deadline for each plugin call' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l grace -d 'Grace from SIGTERM to SIGKILL' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l dry-run -d 'Print each plugin call instead of making it; change nothing'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from rm" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l id -d 'The volume by id or id prefix only (never a name)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l name -d 'The volume by name only (in --namespace)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l namespace -d 'The namespace a name is looked up in' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from forget" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l plugin -d 'Only volumes of this plugin' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l namespace -d 'Only volumes in this namespace [default: every namespace]' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l state -d 'Only volumes in this state: pending, ready or deleting' -r -f -a "pending\t'Being created, or a create that was interrupted or failed'
ready\t'Created'
deleting\t'Being deleted, or a delete that was interrupted'"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l name -d 'Only volumes whose name matches (* ? [abc])' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -s o -l output -d 'How to print: table, wide, json or name' -r -f -a "table\t'A table; on a terminal, fitted to its width (empty columns left out, free text cut short)'
wide\t'Every column, whole'
json\t'The JSON document (as --json)'
name\t'One id or name a line, for xargs'"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l wide -d 'Every column, whole: the same as -o wide'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l plugin -d 'Only volumes of this plugin' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l namespace -d 'Only volumes in this namespace [default: every namespace]' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l state -d 'Only volumes in this state: pending, ready or deleting' -r -f -a "pending\t'Being created, or a create that was interrupted or failed'
ready\t'Created'
deleting\t'Being deleted, or a delete that was interrupted'"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l name -d 'Only volumes whose name matches (* ? [abc])' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -s o -l output -d 'How to print: table, wide, json or name' -r -f -a "table\t'A table; on a terminal, fitted to its width (empty columns left out, free text cut short)'
wide\t'Every column, whole'
json\t'The JSON document (as --json)'
name\t'One id or name a line, for xargs'"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l wide -d 'Every column, whole: the same as -o wide'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from ls" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l id -d 'The volume by id or id prefix only (never a name)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l name -d 'The volume by name only (in --namespace)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l namespace -d 'The namespace a name is looked up in' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -s o -l output -d 'How to print: table, wide, json or name' -r -f -a "table\t'A table; on a terminal, fitted to its width (empty columns left out, free text cut short)'
wide\t'Every column, whole'
json\t'The JSON document (as --json)'
name\t'One id or name a line, for xargs'"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l wide -d 'Every column, whole: the same as -o wide'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l timeout -d 'Deadline for each plugin call' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l grace -d 'Grace from SIGTERM to SIGKILL' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l dry-run -d 'Print each plugin call instead of making it; change nothing'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from restore" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l timeout -d 'Deadline for each plugin call' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l grace -d 'Grace from SIGTERM to SIGKILL' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from repair" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l prune-orphans -d 'Remove orphan entries of the volumes directory (with --yes)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l yes -d 'Confirm --prune-orphans'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from audit" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from help" -f -a "create" -d 'Run the plugin\'s create and record the volume'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from help" -f -a "delete" -d 'Run the plugin\'s delete, then forget the volume'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from help" -f -a "forget" -d 'Drop a volume\'s record without running its plugin'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from help" -f -a "list" -d 'Volumes in the registry'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from help" -f -a "show" -d 'One volume, by id, id prefix or name'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from help" -f -a "restore" -d 'Run create again for every volume, as a Nomad client does'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from help" -f -a "repair" -d 'Finish or roll back volumes left pending or deleting'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from help" -f -a "audit" -d 'Hold the registry against the disk; exit 1 on any finding'
complete -c plugctl -n "__fish_plugctl_using_subcommand volume; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -f -a "fetch" -d 'Run a secrets plugin\'s fetch and print the result'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and not __fish_seen_subcommand_from fetch help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l env -d 'Environment for the plugin (repeatable; a later key wins)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l env-file -d 'Read K=V lines for the plugin\'s environment from a file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l job-id -d 'Sets NOMAD_JOB_ID, as Nomad 1.11.1+ does' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l namespace -d 'Sets NOMAD_NAMESPACE, as Nomad 1.11.1+ does' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l format -d 'Output format: kv, env or json' -r -f -a "kv\t'KEY=VALUE lines, for EnvironmentFile=, docker --env-file and --env-file'
env\t'export KEY=\'VALUE\' lines, safe for eval in sh'
json\t'the JSON document'"
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l allow-key -d 'Print this code-running key in kv and env output (repeatable)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l timeout -d 'Deadline for each plugin call' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l grace -d 'Grace from SIGTERM to SIGKILL' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l dry-run -d 'Print each plugin call instead of making it; change nothing'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from fetch" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from help" -f -a "fetch" -d 'Run a secrets plugin\'s fetch and print the result'
complete -c plugctl -n "__fish_plugctl_using_subcommand secret; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l format -d 'Report format: human, json or junit' -r -f -a "human\t''
json\t''
junit\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l timeout -d 'Deadline for each plugin call' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l grace -d 'Grace from SIGTERM to SIGKILL' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l strict -d 'Fail on warnings too'
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand validate" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l format -d 'Report format: human, json or junit' -r -f -a "human\t''
json\t''
junit\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l path -d 'Secrets: a path the plugin should be able to fetch' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l env -d 'Secrets: environment for fetch (repeatable)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l max-bytes -d 'Host volumes: the largest capacity a check asks for' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l timeout -d 'Deadline for each plugin call' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l grace -d 'Grace from SIGTERM to SIGKILL' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l keep -d 'Leave the scratch directory and what was created in it'
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l check-absurd-capacity -d 'Host volumes: also ask for 1 EiB, to be refused'
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l strict -d 'Fail on warnings too'
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l propose-policy -d 'Print the smallest sandbox policy under which the suite passes'
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand test" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l type -d 'Only events of this plugin family' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l kind -d 'Only events of this kind (fingerprint, volume_create, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l since -d 'Only events after this: a sequence number, a time, or 1h' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l until -d 'Only events up to this: a sequence number, a time, or 1h' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l tail -d 'Only the last N events (of those the other options keep)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -s o -l output -d 'How to print: table, wide, json or name' -r -f -a "table\t'A table; on a terminal, fitted to its width (empty columns left out, free text cut short)'
wide\t'Every column, whole'
json\t'The JSON document (as --json)'
name\t'One id or name a line, for xargs'"
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l follow -d 'Keep printing new events until interrupted'
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l wide -d 'Every column, whole: the same as -o wide'
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand events" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l textfile -d 'node_exporter\'s textfile directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l stale-after -d 'Older than this, a fingerprint or textfile is stale' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -s o -l output -d 'How to print: table, wide, json or name' -r -f -a "table\t'A table; on a terminal, fitted to its width (empty columns left out, free text cut short)'
wide\t'Every column, whole'
json\t'The JSON document (as --json)'
name\t'One id or name a line, for xargs'"
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l wide -d 'Every column, whole: the same as -o wide'
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand status" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l type -d 'Only this family (host-volume, secrets, or another directory name)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l check -d 'Compare the plugin files with the lock file instead'
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand pin" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l env -d 'A secrets fetch\'s own variable (repeatable)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l format -d 'Report format: human, json or junit' -r -f -a "human\t''
json\t''
junit\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand replay" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l textfile -d 'Write DIR/plugctl.prom instead of printing' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand metrics" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l dir -d 'Where to create the plugin [default: ./<TYPE>]' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l lang -d 'The language to write it in: sh or python' -r -f -a "sh\t''
python\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand init" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l nomad-config -d 'The Nomad agent\'s configuration (`none`: read none)' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l plugin-dir -d 'Plugin directory: one subdirectory per family' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l host-volume-plugin-dir -d 'Host-volume plugin directory' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l volumes-dir -d 'Where volumes live' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l registry -d 'Registry file' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l node-id -d 'Node id passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l node-pool -d 'Node pool passed to plugins' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l concurrency -d 'How many plugins may run at once' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l lock-timeout -d 'How long to wait for the registry lock held by another plugctl' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l color -d 'When to colour output, help and errors (never when NO_COLOR is set)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l registry-max-size -d 'Refuse a registry file larger than this before reading it' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l nomad-version -d 'Behave as this Nomad release does (1.10, 2.0.1, ...)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l lockfile -d 'The lock file of `pin` and `--locked`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l record -d 'Save every plugin call in DIR, for `plugctl replay`' -r -F
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l sandbox -d 'How far each plugin call is confined: none, trim or strict' -r -f -a "none\t''
trim\t''
strict\t''"
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l memory-max -d 'Memory cap of each plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l cpu-max -d 'CPU time cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l files-max -d 'Open-files cap of each process of a plugin call (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l tasks-max -d 'Processes and threads of a plugin call at once (trim, strict)' -r
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l json -d 'Print one JSON document on stdout (as -o json)'
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -s q -l quiet -d 'Print less on stderr (warnings and progress off)'
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -s v -l verbose -d 'Print more on stderr (-vv: every call)'
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l allow-insecure-paths -d 'Lift the owner and mode checks (lab machines only)'
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l record-env -d 'With --record: keep --env values in the case files'
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l locked -d 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)'
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -l sandbox-best-effort -d 'Apply the layers of --sandbox this kernel has, saying which it lacks'
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c plugctl -n "__fish_plugctl_using_subcommand completions" -s V -l version -d 'Print version'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and not __fish_seen_subcommand_from fingerprint plugin volume secret validate test events status pin replay metrics init completions help" -f -a "fingerprint" -d 'Discover and fingerprint plugins concurrently, and record the results'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and not __fish_seen_subcommand_from fingerprint plugin volume secret validate test events status pin replay metrics init completions help" -f -a "plugin" -d 'Plugins in the registry: list, show, and the dynamic registry'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and not __fish_seen_subcommand_from fingerprint plugin volume secret validate test events status pin replay metrics init completions help" -f -a "volume" -d 'Create, delete, list and restore dynamic host volumes'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and not __fish_seen_subcommand_from fingerprint plugin volume secret validate test events status pin replay metrics init completions help" -f -a "secret" -d 'Fetch secrets through a secrets plugin'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and not __fish_seen_subcommand_from fingerprint plugin volume secret validate test events status pin replay metrics init completions help" -f -a "validate" -d 'Check a plugin directory before it reaches a Nomad node'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and not __fish_seen_subcommand_from fingerprint plugin volume secret validate test events status pin replay metrics init completions help" -f -a "test" -d 'Run the conformance suite against one plugin'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and not __fish_seen_subcommand_from fingerprint plugin volume secret validate test events status pin replay metrics init completions help" -f -a "events" -d 'The registry\'s event log'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and not __fish_seen_subcommand_from fingerprint plugin volume secret validate test events status pin replay metrics init completions help" -f -a "status" -d 'Is this node fine? One screen; exit 1 when something needs attention'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and not __fish_seen_subcommand_from fingerprint plugin volume secret validate test events status pin replay metrics init completions help" -f -a "pin" -d 'Pin each plugin file in the lock file, or check the disk against it'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and not __fish_seen_subcommand_from fingerprint plugin volume secret validate test events status pin replay metrics init completions help" -f -a "replay" -d 'Run calls recorded with --record again, and compare'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and not __fish_seen_subcommand_from fingerprint plugin volume secret validate test events status pin replay metrics init completions help" -f -a "metrics" -d 'The registry\'s state in the Prometheus text format'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and not __fish_seen_subcommand_from fingerprint plugin volume secret validate test events status pin replay metrics init completions help" -f -a "init" -d 'Scaffold a new plugin that passes validate and test'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and not __fish_seen_subcommand_from fingerprint plugin volume secret validate test events status pin replay metrics init completions help" -f -a "completions" -d 'Print a shell completion script'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and not __fish_seen_subcommand_from fingerprint plugin volume secret validate test events status pin replay metrics init completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and __fish_seen_subcommand_from plugin" -f -a "list" -d 'Plugins in the registry, each as its current instance'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and __fish_seen_subcommand_from plugin" -f -a "show" -d 'Every instance of one plugin, most recent first'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and __fish_seen_subcommand_from plugin" -f -a "register" -d 'Record a plugin instance that runs as a long-lived task'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and __fish_seen_subcommand_from plugin" -f -a "deregister" -d 'Remove a plugin instance'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and __fish_seen_subcommand_from plugin" -f -a "forget" -d 'Forget plugins removed from their directory on purpose'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and __fish_seen_subcommand_from plugin" -f -a "wait" -d 'Wait until a plugin is registered (and healthy)'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and __fish_seen_subcommand_from volume" -f -a "create" -d 'Run the plugin\'s create and record the volume'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and __fish_seen_subcommand_from volume" -f -a "delete" -d 'Run the plugin\'s delete, then forget the volume'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and __fish_seen_subcommand_from volume" -f -a "forget" -d 'Drop a volume\'s record without running its plugin'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and __fish_seen_subcommand_from volume" -f -a "list" -d 'Volumes in the registry'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and __fish_seen_subcommand_from volume" -f -a "show" -d 'One volume, by id, id prefix or name'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and __fish_seen_subcommand_from volume" -f -a "restore" -d 'Run create again for every volume, as a Nomad client does'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and __fish_seen_subcommand_from volume" -f -a "repair" -d 'Finish or roll back volumes left pending or deleting'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and __fish_seen_subcommand_from volume" -f -a "audit" -d 'Hold the registry against the disk; exit 1 on any finding'
complete -c plugctl -n "__fish_plugctl_using_subcommand help; and __fish_seen_subcommand_from secret" -f -a "fetch" -d 'Run a secrets plugin\'s fetch and print the result'
# --- plugctl: registry names (hand-written in src/generate/scripts/, not by clap) ---
# Where an argument names something plugctl knows (plugin types and names,
# volume ids and names, plugin files, families), offer what plugctl itself
# says (`plugctl --json plugin list`, `volume list`, `fingerprint
# --dry-run`). If plugctl fails or finds nothing, the condition fails and
# clap's completions above stand.

# The JSON reader (see JSON_AWK in src/generate.rs), its settings as
# arguments: _plugctl_list=volumes _plugctl_want=id ...
function __plugctl_json
    env $argv awk 'function decode(raw,    out, p, e) {
    ok = 1
    out = ""
    while ((p = index(raw, "\\\\")) > 0) {
        e = substr(raw, p + 1, 1)
        if (e == "\\"" || e == "\\\\" || e == "/") out = out substr(raw, 1, p - 1) e
        else { ok = 0; out = out substr(raw, 1, p - 1) }
        raw = substr(raw, p + 2)
    }
    return out raw
}
function value(v, good) {
    if (kind[d] == "{") {
        if (d == 3 && inlist) { rec[key[d]] = v; recok[key[d]] = good }
        haskey[d] = 0
    }
}
function enter(c,    k) {
    k = ""
    if (kind[d] == "{") { k = key[d]; haskey[d] = 0 }
    d++
    kind[d] = c
    haskey[d] = 0
    if (d == 2 && c == "[" && k == ENVIRON["_plugctl_list"]) inlist = 1
    if (d == 3 && inlist) { split("", rec); split("", recok) }
}
function leave(    i, n, w, f) {
    if (d == 3 && inlist && kind[d] == "{" && keep()) {
        n = split(ENVIRON["_plugctl_want"], w, " ")
        for (i = 1; i <= n; i++) {
            f = w[i]
            if ((f in rec) && recok[f] && rec[f] != "") print rec[f]
        }
    }
    if (d == 2) inlist = 0
    d--
}
function keep(    i, n, f, c) {
    n = split("type namespace healthy source", f, " ")
    for (i = 1; i <= n; i++) {
        c = ENVIRON["_plugctl_" f[i]]
        if (c != "" && !((f[i] in rec) && rec[f[i]] == c)) return 0
    }
    c = ENVIRON["_plugctl_has"]
    return c == "" || (c in rec)
}
{
    line = $0
    i = 1
    n = length(line)
    while (i <= n) {
        c = substr(line, i, 1)
        if (c == "\\"") {
            if (!match(substr(line, i + 1), /^([^"\\\\]|\\\\.)*"/)) exit 1
            s = decode(substr(line, i + 1, RLENGTH - 1))
            i += RLENGTH + 1
            if (kind[d] == "{" && !haskey[d]) { key[d] = s; haskey[d] = 1 }
            else value(s, ok)
        } else if (c == "{" || c == "[") { enter(c); i++ }
        else if (c == "}" || c == "]") { leave(); i++ }
        else if (c ~ /[-0-9a-z]/) {
            match(substr(line, i), /^[-+.0-9a-zA-Z]+/)
            value(substr(line, i, RLENGTH), 1)
            i += RLENGTH
        } else i++
    }
}'
end

# The condition: succeeds when the token under the cursor names something
# plugctl knows and it has some; leaves them in $__plugctl_registry_names
# for the argument list, so plugctl runs once per TAB.
function __plugctl_registry_lookup
    set -g __plugctl_registry_names
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l value_options --alloc-id --allow-key --capacity-max --capacity-min --color --concurrency --cpu-max --dir --env --env-file --file --files-max --format --grace --host-volume-plugin-dir --id --job-id --kind --lang --lock-timeout --lockfile --max-bytes --memory-max --name --namespace --node-id --node-pool --nomad-config --nomad-version --option --output --param --path --plugin --plugin-dir --record --registry --registry-max-size --sandbox --since --socket --stale-after --state --tail --tasks-max --textfile --timeout --type --until --version --volumes-dir -f -o
    set -l context_options --registry --plugin-dir --host-volume-plugin-dir --nomad-config --nomad-version
    set -l args --json
    set -l pos
    set -l opt
    set -l type
    set -l namespace
    set -l i 1
    set -l n (count $tokens)
    while test $i -le $n
        set -l w $tokens[$i]
        set -l v
        set -l name
        if contains -- $w $value_options
            if test $i -eq $n
                set opt $w
            else
                set name $w
                set v $tokens[(math $i + 1)]
            end
            set i (math $i + 1)
        else
            switch $w
                case '--*=*'
                    set -l parts (string split -m 1 = -- $w)
                    set name $parts[1]
                    set v $parts[2]
                case --allow-insecure-paths
                    set -a args $w
                case '-*'
                case '*'
                    set -a pos $w
            end
        end
        if test -n "$name"
            # the shell has not expanded a ~ typed on the line
            set v (string replace -r -- '^~/' "$HOME/" $v)
            if contains -- $name $context_options
                set -a args $name $v
            else if test $name = --type
                set type $v
            else if test $name = --namespace
                set namespace $v
            end
        end
        set i (math $i + 1)
    end
    # `--plugin=ma` is one token, the one under the cursor
    set -l cur (commandline -ct)
    if string match -q -- '--*=*' $cur
        set -l name (string split -m 1 = -- $cur)[1]
        contains -- $name $value_options; and set opt $name
    end
    set -l what
    set -l filter
    set -l healthy
    set -l source
    if test -n "$opt"
        if test "$opt" = --plugin -a "$pos[1]" = volume
            set what plugins
            set filter host-volume
            # only a plugin that can serve the create
            test "$pos[2]" = create; and set healthy true
        else if test "$opt" = --type
            set what types
        else
            return 1
        end
    else if string match -q -- '-*' $cur
        return 1
    else
        switch "$pos[1] $pos[2] "(count $pos)
            case 'fingerprint *'
                set what plugins
                set filter $type
            case 'plugin show 2' 'plugin wait 2'
                set what types
            case 'plugin show 3' 'plugin wait 3'
                set what plugins
                set filter $pos[3]
            # the files in the plugin directory, registered or not
            case 'test * 1'
                set what file-types
            case 'test * 2'
                set what files
                set filter $pos[2]
            case 'volume show 2' 'volume delete 2' 'volume forget 2'
                set what volumes
            # a built-in secrets plugin cannot run here
            case 'secret fetch 2'
                set what plugins
                set filter secrets
                set source file
            case 'init * 1'
                set what families
            case '*'
                return 1
        end
    end
    switch $what
        case families
            set -g __plugctl_registry_names host-volume secrets
        case volumes
            set -l out (command plugctl $args volume list 2>/dev/null); or return 1
            test -n "$namespace"; or set namespace default
            set -g __plugctl_registry_names (begin
                    printf '%s\n' $out | __plugctl_json _plugctl_list=volumes _plugctl_want=id
                    # a name is looked up in --namespace
                    printf '%s\n' $out | __plugctl_json _plugctl_list=volumes _plugctl_want=name \
                        _plugctl_namespace="$namespace"
                end | sort -u)
        case types plugins
            set -l out (command plugctl $args plugin list 2>/dev/null); or return 1
            set -l want name
            test $what = types; and set want type
            set -g __plugctl_registry_names (printf '%s\n' $out | __plugctl_json _plugctl_list=plugins \
                _plugctl_want=$want _plugctl_type="$filter" _plugctl_healthy="$healthy" \
                _plugctl_source="$source" | sort -u)
        case file-types files
            # discovery without running anything: each plugin file is a call
            # with a "program"; a built-in is not
            set -l out (command plugctl $args fingerprint --dry-run 2>/dev/null); or return 1
            set -l want name
            test $what = file-types; and set want type
            set -g __plugctl_registry_names (printf '%s\n' $out | __plugctl_json _plugctl_list=calls \
                _plugctl_want=$want _plugctl_has=program _plugctl_type="$filter" | sort -u)
    end
    test (count $__plugctl_registry_names) -gt 0
end

# Positional arguments, then the values of --plugin and --type (fish asks
# only an option's own entries for its value). fish escapes each name as
# the command line needs it.
complete -c plugctl -f -n __plugctl_registry_lookup -a '(printf "%s\n" $__plugctl_registry_names)'
complete -c plugctl -f -n __plugctl_registry_lookup -l plugin -r -a '(printf "%s\n" $__plugctl_registry_names)'
complete -c plugctl -f -n __plugctl_registry_lookup -l type -r -a '(printf "%s\n" $__plugctl_registry_names)'


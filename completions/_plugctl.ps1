
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'plugctl' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'plugctl'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'plugctl' {
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('fingerprint', 'fingerprint', [CompletionResultType]::ParameterValue, 'Discover and fingerprint plugins concurrently, and record the results')
            [CompletionResult]::new('plugin', 'plugin', [CompletionResultType]::ParameterValue, 'Plugins in the registry: list, show, and the dynamic registry')
            [CompletionResult]::new('volume', 'volume', [CompletionResultType]::ParameterValue, 'Create, delete, list and restore dynamic host volumes')
            [CompletionResult]::new('secret', 'secret', [CompletionResultType]::ParameterValue, 'Fetch secrets through a secrets plugin')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check a plugin directory before it reaches a Nomad node')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Run the conformance suite against one plugin')
            [CompletionResult]::new('events', 'events', [CompletionResultType]::ParameterValue, 'The registry''s event log')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Is this node fine? One screen; exit 1 when something needs attention')
            [CompletionResult]::new('pin', 'pin', [CompletionResultType]::ParameterValue, 'Pin each plugin file in the lock file, or check the disk against it')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Run calls recorded with --record again, and compare')
            [CompletionResult]::new('metrics', 'metrics', [CompletionResultType]::ParameterValue, 'The registry''s state in the Prometheus text format')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Scaffold a new plugin that passes validate and test')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'plugctl;fingerprint' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only this family (host-volume, secrets, or another directory name)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline for each plugin call')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'Grace from SIGTERM to SIGKILL')
            [CompletionResult]::new('--textfile', '--textfile', [CompletionResultType]::ParameterName, 'Then write the metrics to DIR/plugctl.prom')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'How to print: table, wide, json or name')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'How to print: table, wide, json or name')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each plugin call instead of making it; change nothing')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Every column, whole: the same as -o wide')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;plugin' {
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Plugins in the registry, each as its current instance')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'Plugins in the registry, each as its current instance')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Every instance of one plugin, most recent first')
            [CompletionResult]::new('register', 'register', [CompletionResultType]::ParameterValue, 'Record a plugin instance that runs as a long-lived task')
            [CompletionResult]::new('deregister', 'deregister', [CompletionResultType]::ParameterValue, 'Remove a plugin instance')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Forget plugins removed from their directory on purpose')
            [CompletionResult]::new('wait', 'wait', [CompletionResultType]::ParameterValue, 'Wait until a plugin is registered (and healthy)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'plugctl;plugin;list' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only plugins of this type (host-volume, secrets, ...)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'How to print: table, wide, json or name')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'How to print: table, wide, json or name')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--unhealthy', '--unhealthy', [CompletionResultType]::ParameterName, 'Only plugins that are not healthy now')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Every column, whole: the same as -o wide')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;plugin;ls' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only plugins of this type (host-volume, secrets, ...)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'How to print: table, wide, json or name')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'How to print: table, wide, json or name')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--unhealthy', '--unhealthy', [CompletionResultType]::ParameterName, 'Only plugins that are not healthy now')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Every column, whole: the same as -o wide')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;plugin;show' {
            [CompletionResult]::new('--alloc-id', '--alloc-id', [CompletionResultType]::ParameterName, 'Only the instance of this allocation')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'How to print: table, wide, json or name')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'How to print: table, wide, json or name')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Every column, whole: the same as -o wide')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;plugin;register' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'The plugin''s type (csi-node, csi-controller, ...)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The plugin''s name')
            [CompletionResult]::new('--alloc-id', '--alloc-id', [CompletionResultType]::ParameterName, 'The allocation the plugin''s task runs in')
            [CompletionResult]::new('--socket', '--socket', [CompletionResultType]::ParameterName, 'The plugin''s control socket')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'The plugin''s version')
            [CompletionResult]::new('--option', '--option', [CompletionResultType]::ParameterName, 'Free-form options stored with the instance')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'plugctl;plugin;deregister' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'The plugin''s type (csi-node, csi-controller, ...)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The plugin''s name')
            [CompletionResult]::new('--alloc-id', '--alloc-id', [CompletionResultType]::ParameterName, 'The allocation whose instance goes')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;plugin;forget' {
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;plugin;wait' {
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up after this long (exit 4)')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--healthy', '--healthy', [CompletionResultType]::ParameterName, 'Also wait until its socket accepts a connection')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;plugin;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Plugins in the registry, each as its current instance')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Every instance of one plugin, most recent first')
            [CompletionResult]::new('register', 'register', [CompletionResultType]::ParameterValue, 'Record a plugin instance that runs as a long-lived task')
            [CompletionResult]::new('deregister', 'deregister', [CompletionResultType]::ParameterValue, 'Remove a plugin instance')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Forget plugins removed from their directory on purpose')
            [CompletionResult]::new('wait', 'wait', [CompletionResultType]::ParameterValue, 'Wait until a plugin is registered (and healthy)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'plugctl;plugin;help;list' {
            break
        }
        'plugctl;plugin;help;show' {
            break
        }
        'plugctl;plugin;help;register' {
            break
        }
        'plugctl;plugin;help;deregister' {
            break
        }
        'plugctl;plugin;help;forget' {
            break
        }
        'plugctl;plugin;help;wait' {
            break
        }
        'plugctl;plugin;help;help' {
            break
        }
        'plugctl;volume' {
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Run the plugin''s create and record the volume')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Run the plugin''s delete, then forget the volume')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Run the plugin''s delete, then forget the volume')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Drop a volume''s record without running its plugin')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Volumes in the registry')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'Volumes in the registry')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One volume, by id, id prefix or name')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Run create again for every volume, as a Nomad client does')
            [CompletionResult]::new('repair', 'repair', [CompletionResultType]::ParameterValue, 'Finish or roll back volumes left pending or deleting')
            [CompletionResult]::new('audit', 'audit', [CompletionResultType]::ParameterValue, 'Hold the registry against the disk; exit 1 on any finding')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'plugctl;volume;create' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The volume''s specification, as `nomad volume create FILE` takes it')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The volume''s specification, as `nomad volume create FILE` takes it')
            [CompletionResult]::new('--plugin', '--plugin', [CompletionResultType]::ParameterName, 'Host-volume plugin name (mkdir is built in)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Volume name')
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'Volume id, a UUID [default: a new one]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The volume''s namespace')
            [CompletionResult]::new('--capacity-min', '--capacity-min', [CompletionResultType]::ParameterName, 'Minimum capacity, e.g. 50MB (10^6) or 50MiB (2^20)')
            [CompletionResult]::new('--capacity-max', '--capacity-max', [CompletionResultType]::ParameterName, 'Maximum capacity, e.g. 1GiB')
            [CompletionResult]::new('--param', '--param', [CompletionResultType]::ParameterName, 'Plugin parameter (repeatable)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline for each plugin call')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'Grace from SIGTERM to SIGKILL')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'How to print: table, wide, json or name')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'How to print: table, wide, json or name')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each plugin call instead of making it; change nothing')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Every column, whole: the same as -o wide')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;volume;delete' {
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'The volume by id or id prefix only (never a name)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The volume by name only (in --namespace)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace a name is looked up in')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline for each plugin call')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'Grace from SIGTERM to SIGKILL')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each plugin call instead of making it; change nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;volume;rm' {
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'The volume by id or id prefix only (never a name)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The volume by name only (in --namespace)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace a name is looked up in')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline for each plugin call')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'Grace from SIGTERM to SIGKILL')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each plugin call instead of making it; change nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;volume;forget' {
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'The volume by id or id prefix only (never a name)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The volume by name only (in --namespace)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace a name is looked up in')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;volume;list' {
            [CompletionResult]::new('--plugin', '--plugin', [CompletionResultType]::ParameterName, 'Only volumes of this plugin')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Only volumes in this namespace [default: every namespace]')
            [CompletionResult]::new('--state', '--state', [CompletionResultType]::ParameterName, 'Only volumes in this state: pending, ready or deleting')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Only volumes whose name matches (* ? [abc])')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'How to print: table, wide, json or name')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'How to print: table, wide, json or name')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Every column, whole: the same as -o wide')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;volume;ls' {
            [CompletionResult]::new('--plugin', '--plugin', [CompletionResultType]::ParameterName, 'Only volumes of this plugin')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Only volumes in this namespace [default: every namespace]')
            [CompletionResult]::new('--state', '--state', [CompletionResultType]::ParameterName, 'Only volumes in this state: pending, ready or deleting')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Only volumes whose name matches (* ? [abc])')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'How to print: table, wide, json or name')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'How to print: table, wide, json or name')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Every column, whole: the same as -o wide')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;volume;show' {
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'The volume by id or id prefix only (never a name)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The volume by name only (in --namespace)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace a name is looked up in')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'How to print: table, wide, json or name')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'How to print: table, wide, json or name')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Every column, whole: the same as -o wide')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;volume;restore' {
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline for each plugin call')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'Grace from SIGTERM to SIGKILL')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each plugin call instead of making it; change nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;volume;repair' {
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline for each plugin call')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'Grace from SIGTERM to SIGKILL')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;volume;audit' {
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--prune-orphans', '--prune-orphans', [CompletionResultType]::ParameterName, 'Remove orphan entries of the volumes directory (with --yes)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Confirm --prune-orphans')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;volume;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Run the plugin''s create and record the volume')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Run the plugin''s delete, then forget the volume')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Drop a volume''s record without running its plugin')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Volumes in the registry')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One volume, by id, id prefix or name')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Run create again for every volume, as a Nomad client does')
            [CompletionResult]::new('repair', 'repair', [CompletionResultType]::ParameterValue, 'Finish or roll back volumes left pending or deleting')
            [CompletionResult]::new('audit', 'audit', [CompletionResultType]::ParameterValue, 'Hold the registry against the disk; exit 1 on any finding')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'plugctl;volume;help;create' {
            break
        }
        'plugctl;volume;help;delete' {
            break
        }
        'plugctl;volume;help;forget' {
            break
        }
        'plugctl;volume;help;list' {
            break
        }
        'plugctl;volume;help;show' {
            break
        }
        'plugctl;volume;help;restore' {
            break
        }
        'plugctl;volume;help;repair' {
            break
        }
        'plugctl;volume;help;audit' {
            break
        }
        'plugctl;volume;help;help' {
            break
        }
        'plugctl;secret' {
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('fetch', 'fetch', [CompletionResultType]::ParameterValue, 'Run a secrets plugin''s fetch and print the result')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'plugctl;secret;fetch' {
            [CompletionResult]::new('--env', '--env', [CompletionResultType]::ParameterName, 'Environment for the plugin (repeatable; a later key wins)')
            [CompletionResult]::new('--env-file', '--env-file', [CompletionResultType]::ParameterName, 'Read K=V lines for the plugin''s environment from a file')
            [CompletionResult]::new('--job-id', '--job-id', [CompletionResultType]::ParameterName, 'Sets NOMAD_JOB_ID, as Nomad 1.11.1+ does')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Sets NOMAD_NAMESPACE, as Nomad 1.11.1+ does')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: kv, env or json')
            [CompletionResult]::new('--allow-key', '--allow-key', [CompletionResultType]::ParameterName, 'Print this code-running key in kv and env output (repeatable)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline for each plugin call')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'Grace from SIGTERM to SIGKILL')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each plugin call instead of making it; change nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;secret;help' {
            [CompletionResult]::new('fetch', 'fetch', [CompletionResultType]::ParameterValue, 'Run a secrets plugin''s fetch and print the result')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'plugctl;secret;help;fetch' {
            break
        }
        'plugctl;secret;help;help' {
            break
        }
        'plugctl;validate' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Report format: human, json or junit')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline for each plugin call')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'Grace from SIGTERM to SIGKILL')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Fail on warnings too')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;test' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Report format: human, json or junit')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Secrets: a path the plugin should be able to fetch')
            [CompletionResult]::new('--env', '--env', [CompletionResultType]::ParameterName, 'Secrets: environment for fetch (repeatable)')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'Host volumes: the largest capacity a check asks for')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline for each plugin call')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'Grace from SIGTERM to SIGKILL')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--keep', '--keep', [CompletionResultType]::ParameterName, 'Leave the scratch directory and what was created in it')
            [CompletionResult]::new('--check-absurd-capacity', '--check-absurd-capacity', [CompletionResultType]::ParameterName, 'Host volumes: also ask for 1 EiB, to be refused')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Fail on warnings too')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;events' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only events of this plugin family')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only events of this kind (fingerprint, volume_create, ...)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only events after this: a sequence number, a time, or 1h')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only events up to this: a sequence number, a time, or 1h')
            [CompletionResult]::new('--tail', '--tail', [CompletionResultType]::ParameterName, 'Only the last N events (of those the other options keep)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'How to print: table, wide, json or name')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'How to print: table, wide, json or name')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Keep printing new events until interrupted')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Every column, whole: the same as -o wide')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;status' {
            [CompletionResult]::new('--textfile', '--textfile', [CompletionResultType]::ParameterName, 'node_exporter''s textfile directory')
            [CompletionResult]::new('--stale-after', '--stale-after', [CompletionResultType]::ParameterName, 'Older than this, a fingerprint or textfile is stale')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'How to print: table, wide, json or name')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'How to print: table, wide, json or name')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Every column, whole: the same as -o wide')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;pin' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only this family (host-volume, secrets, or another directory name)')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Compare the plugin files with the lock file instead')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;replay' {
            [CompletionResult]::new('--env', '--env', [CompletionResultType]::ParameterName, 'A secrets fetch''s own variable (repeatable)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Report format: human, json or junit')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;metrics' {
            [CompletionResult]::new('--textfile', '--textfile', [CompletionResultType]::ParameterName, 'Write DIR/plugctl.prom instead of printing')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;init' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Where to create the plugin [default: ./<TYPE>]')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language to write it in: sh or python')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;completions' {
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration (`none`: read none)')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output, help and errors (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does (1.10, 2.0.1, ...)')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked`')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON document on stdout (as -o json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Lift the owner and mode checks (lab machines only)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep --env values in the case files')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;help' {
            [CompletionResult]::new('fingerprint', 'fingerprint', [CompletionResultType]::ParameterValue, 'Discover and fingerprint plugins concurrently, and record the results')
            [CompletionResult]::new('plugin', 'plugin', [CompletionResultType]::ParameterValue, 'Plugins in the registry: list, show, and the dynamic registry')
            [CompletionResult]::new('volume', 'volume', [CompletionResultType]::ParameterValue, 'Create, delete, list and restore dynamic host volumes')
            [CompletionResult]::new('secret', 'secret', [CompletionResultType]::ParameterValue, 'Fetch secrets through a secrets plugin')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check a plugin directory before it reaches a Nomad node')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Run the conformance suite against one plugin')
            [CompletionResult]::new('events', 'events', [CompletionResultType]::ParameterValue, 'The registry''s event log')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Is this node fine? One screen; exit 1 when something needs attention')
            [CompletionResult]::new('pin', 'pin', [CompletionResultType]::ParameterValue, 'Pin each plugin file in the lock file, or check the disk against it')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Run calls recorded with --record again, and compare')
            [CompletionResult]::new('metrics', 'metrics', [CompletionResultType]::ParameterValue, 'The registry''s state in the Prometheus text format')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Scaffold a new plugin that passes validate and test')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'plugctl;help;fingerprint' {
            break
        }
        'plugctl;help;plugin' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Plugins in the registry, each as its current instance')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Every instance of one plugin, most recent first')
            [CompletionResult]::new('register', 'register', [CompletionResultType]::ParameterValue, 'Record a plugin instance that runs as a long-lived task')
            [CompletionResult]::new('deregister', 'deregister', [CompletionResultType]::ParameterValue, 'Remove a plugin instance')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Forget plugins removed from their directory on purpose')
            [CompletionResult]::new('wait', 'wait', [CompletionResultType]::ParameterValue, 'Wait until a plugin is registered (and healthy)')
            break
        }
        'plugctl;help;plugin;list' {
            break
        }
        'plugctl;help;plugin;show' {
            break
        }
        'plugctl;help;plugin;register' {
            break
        }
        'plugctl;help;plugin;deregister' {
            break
        }
        'plugctl;help;plugin;forget' {
            break
        }
        'plugctl;help;plugin;wait' {
            break
        }
        'plugctl;help;volume' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Run the plugin''s create and record the volume')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Run the plugin''s delete, then forget the volume')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Drop a volume''s record without running its plugin')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Volumes in the registry')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One volume, by id, id prefix or name')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Run create again for every volume, as a Nomad client does')
            [CompletionResult]::new('repair', 'repair', [CompletionResultType]::ParameterValue, 'Finish or roll back volumes left pending or deleting')
            [CompletionResult]::new('audit', 'audit', [CompletionResultType]::ParameterValue, 'Hold the registry against the disk; exit 1 on any finding')
            break
        }
        'plugctl;help;volume;create' {
            break
        }
        'plugctl;help;volume;delete' {
            break
        }
        'plugctl;help;volume;forget' {
            break
        }
        'plugctl;help;volume;list' {
            break
        }
        'plugctl;help;volume;show' {
            break
        }
        'plugctl;help;volume;restore' {
            break
        }
        'plugctl;help;volume;repair' {
            break
        }
        'plugctl;help;volume;audit' {
            break
        }
        'plugctl;help;secret' {
            [CompletionResult]::new('fetch', 'fetch', [CompletionResultType]::ParameterValue, 'Run a secrets plugin''s fetch and print the result')
            break
        }
        'plugctl;help;secret;fetch' {
            break
        }
        'plugctl;help;validate' {
            break
        }
        'plugctl;help;test' {
            break
        }
        'plugctl;help;events' {
            break
        }
        'plugctl;help;status' {
            break
        }
        'plugctl;help;pin' {
            break
        }
        'plugctl;help;replay' {
            break
        }
        'plugctl;help;metrics' {
            break
        }
        'plugctl;help;init' {
            break
        }
        'plugctl;help;completions' {
            break
        }
        'plugctl;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}

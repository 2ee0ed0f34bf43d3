
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
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('fingerprint', 'fingerprint', [CompletionResultType]::ParameterValue, 'Discover and fingerprint plugins concurrently, and record the results')
            [CompletionResult]::new('plugin', 'plugin', [CompletionResultType]::ParameterValue, 'Plugins in the registry: list, show, and the dynamic registry')
            [CompletionResult]::new('volume', 'volume', [CompletionResultType]::ParameterValue, 'Create, delete, list and restore dynamic host volumes')
            [CompletionResult]::new('secret', 'secret', [CompletionResultType]::ParameterValue, 'Fetch secrets through a secrets plugin')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check a plugin directory for problems before it reaches a Nomad node')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Run the conformance suite against one plugin')
            [CompletionResult]::new('events', 'events', [CompletionResultType]::ParameterValue, 'The registry''s event log')
            [CompletionResult]::new('pin', 'pin', [CompletionResultType]::ParameterValue, 'Pin each plugin file (sha256, size, interpreter, version) in the lock file, or check the disk against it')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Run calls recorded with --record DIR again against today''s plugins and compare; exit 1 on any difference')
            [CompletionResult]::new('metrics', 'metrics', [CompletionResultType]::ParameterValue, 'The registry''s state in the Prometheus text format')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Scaffold a new plugin that passes validate and test')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'plugctl;fingerprint' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only this family (host-volume, secrets, or another directory name)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline for each plugin call [default: the operation''s limit from the protocol]')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'Time between SIGTERM and SIGKILL at the deadline')
            [CompletionResult]::new('--textfile', '--textfile', [CompletionResultType]::ParameterName, 'After recording, write the metrics to DIR/plugctl.prom (one timer does both; see `plugctl metrics`)')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each plugin call (argv, environment, deadline, an `env -i` line to reproduce it) instead of making it; change nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;plugin' {
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Plugins in the registry, with the current (most recent) instance of each')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Every instance of one plugin, most recent first')
            [CompletionResult]::new('register', 'register', [CompletionResultType]::ParameterValue, 'Record a plugin instance that runs as a long-lived task')
            [CompletionResult]::new('deregister', 'deregister', [CompletionResultType]::ParameterValue, 'Remove a plugin instance')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Forget plugins that are no longer in their directory (removed on purpose), so that their health is no longer reported')
            [CompletionResult]::new('wait', 'wait', [CompletionResultType]::ParameterValue, 'Wait until a plugin is registered (and, with --healthy, its socket accepts)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'plugctl;plugin;list' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'type')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;plugin;show' {
            [CompletionResult]::new('--alloc-id', '--alloc-id', [CompletionResultType]::ParameterName, 'Only the instance of this allocation')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;plugin;register' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'type')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'name')
            [CompletionResult]::new('--alloc-id', '--alloc-id', [CompletionResultType]::ParameterName, 'alloc-id')
            [CompletionResult]::new('--socket', '--socket', [CompletionResultType]::ParameterName, 'The plugin''s control socket')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'version')
            [CompletionResult]::new('--option', '--option', [CompletionResultType]::ParameterName, 'Free-form options stored with the instance')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'plugctl;plugin;deregister' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'type')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'name')
            [CompletionResult]::new('--alloc-id', '--alloc-id', [CompletionResultType]::ParameterName, 'alloc-id')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;plugin;forget' {
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;plugin;wait' {
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up after this long (exit 4)')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--healthy', '--healthy', [CompletionResultType]::ParameterName, 'Also wait until the current instance''s socket accepts a connection')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;plugin;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Plugins in the registry, with the current (most recent) instance of each')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Every instance of one plugin, most recent first')
            [CompletionResult]::new('register', 'register', [CompletionResultType]::ParameterValue, 'Record a plugin instance that runs as a long-lived task')
            [CompletionResult]::new('deregister', 'deregister', [CompletionResultType]::ParameterValue, 'Remove a plugin instance')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Forget plugins that are no longer in their directory (removed on purpose), so that their health is no longer reported')
            [CompletionResult]::new('wait', 'wait', [CompletionResultType]::ParameterValue, 'Wait until a plugin is registered (and, with --healthy, its socket accepts)')
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
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Run the plugin''s create and record the volume')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Run the plugin''s delete with the recorded path, then forget the volume')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Drop a volume''s record without running its plugin; what is on its path stays')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Volumes in the registry')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One volume, by id, id prefix or name')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Re-run create for every recorded volume, as a Nomad client does at start')
            [CompletionResult]::new('repair', 'repair', [CompletionResultType]::ParameterValue, 'Finish or roll back volumes left pending or deleting by an interrupted plugctl')
            [CompletionResult]::new('audit', 'audit', [CompletionResultType]::ParameterValue, 'Hold the registry against the disk: orphan entries in the volumes directory, vanished paths, pending operations, bytes on disk; exit 1 when anything is found')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'plugctl;volume;create' {
            [CompletionResult]::new('--plugin', '--plugin', [CompletionResultType]::ParameterName, 'Host-volume plugin name (mkdir is built in)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Volume name (any non-empty string; never used by plugctl to build a path)')
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'Volume id, a UUID in either case (stored lower-case) [default: a new one]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'namespace')
            [CompletionResult]::new('--capacity-min', '--capacity-min', [CompletionResultType]::ParameterName, 'Minimum capacity, e.g. 50MB (10^6) or 50MiB (2^20)')
            [CompletionResult]::new('--capacity-max', '--capacity-max', [CompletionResultType]::ParameterName, 'Maximum capacity, e.g. 1GiB')
            [CompletionResult]::new('--param', '--param', [CompletionResultType]::ParameterName, 'Plugin parameter (repeatable)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline for each plugin call [default: the operation''s limit from the protocol]')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'Time between SIGTERM and SIGKILL at the deadline')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each plugin call (argv, environment, deadline, an `env -i` line to reproduce it) instead of making it; change nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;volume;delete' {
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'The volume by id or id prefix only (never a name)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The volume by name only (in --namespace)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace a name is looked up in (an id is unique in all)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline for each plugin call [default: the operation''s limit from the protocol]')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'Time between SIGTERM and SIGKILL at the deadline')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each plugin call (argv, environment, deadline, an `env -i` line to reproduce it) instead of making it; change nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;volume;forget' {
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'The volume by id or id prefix only (never a name)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The volume by name only (in --namespace)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace a name is looked up in (an id is unique in all)')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;volume;list' {
            [CompletionResult]::new('--plugin', '--plugin', [CompletionResultType]::ParameterName, 'Only volumes of this plugin')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Only volumes in this namespace [default: every namespace]')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;volume;show' {
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'The volume by id or id prefix only (never a name)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The volume by name only (in --namespace)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace a name is looked up in (an id is unique in all)')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;volume;restore' {
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline for each plugin call [default: the operation''s limit from the protocol]')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'Time between SIGTERM and SIGKILL at the deadline')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each plugin call (argv, environment, deadline, an `env -i` line to reproduce it) instead of making it; change nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;volume;repair' {
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline for each plugin call [default: the operation''s limit from the protocol]')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'Time between SIGTERM and SIGKILL at the deadline')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;volume;audit' {
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--prune-orphans', '--prune-orphans', [CompletionResultType]::ParameterName, 'Remove orphan entries of the volumes directory (with --yes)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Confirm --prune-orphans')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;volume;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Run the plugin''s create and record the volume')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Run the plugin''s delete with the recorded path, then forget the volume')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Drop a volume''s record without running its plugin; what is on its path stays')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Volumes in the registry')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One volume, by id, id prefix or name')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Re-run create for every recorded volume, as a Nomad client does at start')
            [CompletionResult]::new('repair', 'repair', [CompletionResultType]::ParameterValue, 'Finish or roll back volumes left pending or deleting by an interrupted plugctl')
            [CompletionResult]::new('audit', 'audit', [CompletionResultType]::ParameterValue, 'Hold the registry against the disk: orphan entries in the volumes directory, vanished paths, pending operations, bytes on disk; exit 1 when anything is found')
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
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
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
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format [default: kv, or json with --json]')
            [CompletionResult]::new('--allow-key', '--allow-key', [CompletionResultType]::ParameterName, 'Print this key in kv and env output although it changes how a shell or the programs it starts run code (repeatable; exactly as spelled)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline for each plugin call [default: the operation''s limit from the protocol]')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'Time between SIGTERM and SIGKILL at the deadline')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print each plugin call (argv, environment, deadline, an `env -i` line to reproduce it) instead of making it; change nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
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
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Report format [default: human, or json with --json]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline for each plugin call [default: the operation''s limit from the protocol]')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'Time between SIGTERM and SIGKILL at the deadline')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Fail on warnings too')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;test' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Report format [default: human, or json with --json]')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Secrets: a path the plugin should be able to fetch')
            [CompletionResult]::new('--env', '--env', [CompletionResultType]::ParameterName, 'Secrets: environment for fetch (repeatable)')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'Host volumes: the largest capacity any check asks for (a real plugin may allocate what it is asked)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline for each plugin call [default: the operation''s limit from the protocol]')
            [CompletionResult]::new('--grace', '--grace', [CompletionResultType]::ParameterName, 'Time between SIGTERM and SIGKILL at the deadline')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--keep', '--keep', [CompletionResultType]::ParameterName, 'Leave the scratch directory and what was created in it')
            [CompletionResult]::new('--check-absurd-capacity', '--check-absurd-capacity', [CompletionResultType]::ParameterName, 'Host volumes: also ask for 1 EiB to see the plugin refuse it — only for a plugin that checks sizes before allocating')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Fail on warnings too (matters of style, such as a create that reports no size)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;events' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only events of this plugin family')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only events after this sequence number')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Keep printing new events until interrupted')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;pin' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only this family (host-volume, secrets, or another directory name)')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Compare the plugin files with the lock file instead of writing it; exit 1 on any difference')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;replay' {
            [CompletionResult]::new('--env', '--env', [CompletionResultType]::ParameterName, 'A secrets fetch''s own variable (repeatable): a case file only names the variables a fetch was given, and replay takes their values from here, never from the case')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Report format [default: human, or json with --json]')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;metrics' {
            [CompletionResult]::new('--textfile', '--textfile', [CompletionResultType]::ParameterName, 'Write DIR/plugctl.prom atomically (node_exporter''s textfile collector) instead of printing')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;init' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Where to create the plugin [default: ./<TYPE>, the current directory as a plugin directory; never a node''s plugin directory unless named]')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'lang')
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;completions' {
            [CompletionResult]::new('--nomad-config', '--nomad-config', [CompletionResultType]::ParameterName, 'The Nomad agent''s configuration, a file or a directory (*.hcl and *.json, in order, the later winning), read as `nomad agent -config` reads it for data_dir and the client''s common_plugin_dir, host_volume_plugin_dir and host_volumes_dir; repeatable; `none` reads none [default: /etc/nomad.d as root when it exists]')
            [CompletionResult]::new('--plugin-dir', '--plugin-dir', [CompletionResultType]::ParameterName, 'Plugin directory: one subdirectory per family (secrets/, host-volume/, ...) [default: the agent config''s common_plugin_dir, or <data_dir>/common_plugins (/opt/nomad/data/common_plugins as root), else $XDG_CONFIG_HOME/plugctl/plugins]')
            [CompletionResult]::new('--host-volume-plugin-dir', '--host-volume-plugin-dir', [CompletionResultType]::ParameterName, 'Host-volume plugin directory [default: the agent config''s host_volume_plugin_dir, or <data_dir>/host_volume_plugins (/opt/nomad/data/host_volume_plugins as root); <plugin-dir>/host-volume when --plugin-dir is given and no agent config is read]')
            [CompletionResult]::new('--volumes-dir', '--volumes-dir', [CompletionResultType]::ParameterName, 'Where volumes live [default: the agent config''s host_volumes_dir, or <data_dir>/host_volumes (/opt/nomad/data/host_volumes as root), else $XDG_STATE_HOME/plugctl/volumes]')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry file [default: /var/lib/plugctl/registry.json as root, else $XDG_STATE_HOME/plugctl/registry.json]')
            [CompletionResult]::new('--node-id', '--node-id', [CompletionResultType]::ParameterName, 'Node id passed to plugins [default: the Nomad agent''s (<state_dir>/client-id), else a stable id plugctl keeps in the registry]')
            [CompletionResult]::new('--node-pool', '--node-pool', [CompletionResultType]::ParameterName, 'Node pool passed to plugins [default: the agent configuration''s client.node_pool, else default]')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many plugins may run at once')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the registry lock held by another plugctl')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output (never when NO_COLOR is set)')
            [CompletionResult]::new('--registry-max-size', '--registry-max-size', [CompletionResultType]::ParameterName, 'Refuse a registry file larger than this before reading it')
            [CompletionResult]::new('--nomad-version', '--nomad-version', [CompletionResultType]::ParameterName, 'Behave as this Nomad release does: deadlines, the variables a fetch gets, the built-in mkdir, which plugin families exist (1.10, 1.11.2, 2.0.1, ...); `validate` takes a comma-separated list and prints a matrix [default: 2.0.5, the newest release covered]')
            [CompletionResult]::new('--lockfile', '--lockfile', [CompletionResultType]::ParameterName, 'The lock file of `pin` and `--locked` [default: <plugin-dir>/plugctl.lock]')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Save every plugin call (argv, env, output, status, plugin sha256) as a case file in DIR, for `plugctl replay`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print exactly one JSON document on stdout (or one object per line when streaming)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less on stderr (warnings and progress off)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more on stderr (-v: plugin stderr of failures, -vv: every call)')
            [CompletionResult]::new('--allow-insecure-paths', '--allow-insecure-paths', [CompletionResultType]::ParameterName, 'Use a registry, and run plugins, that group or others can write or another user owns (lab machines only; see docs/security.md)')
            [CompletionResult]::new('--record-env', '--record-env', [CompletionResultType]::ParameterName, 'With --record: keep the values of --env/--env-file in the case files (by default only their names are kept: they may configure a secret)')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Run only plugins pinned in the lock file, unchanged (see `plugctl pin`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plugctl;help' {
            [CompletionResult]::new('fingerprint', 'fingerprint', [CompletionResultType]::ParameterValue, 'Discover and fingerprint plugins concurrently, and record the results')
            [CompletionResult]::new('plugin', 'plugin', [CompletionResultType]::ParameterValue, 'Plugins in the registry: list, show, and the dynamic registry')
            [CompletionResult]::new('volume', 'volume', [CompletionResultType]::ParameterValue, 'Create, delete, list and restore dynamic host volumes')
            [CompletionResult]::new('secret', 'secret', [CompletionResultType]::ParameterValue, 'Fetch secrets through a secrets plugin')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check a plugin directory for problems before it reaches a Nomad node')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Run the conformance suite against one plugin')
            [CompletionResult]::new('events', 'events', [CompletionResultType]::ParameterValue, 'The registry''s event log')
            [CompletionResult]::new('pin', 'pin', [CompletionResultType]::ParameterValue, 'Pin each plugin file (sha256, size, interpreter, version) in the lock file, or check the disk against it')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Run calls recorded with --record DIR again against today''s plugins and compare; exit 1 on any difference')
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
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Plugins in the registry, with the current (most recent) instance of each')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Every instance of one plugin, most recent first')
            [CompletionResult]::new('register', 'register', [CompletionResultType]::ParameterValue, 'Record a plugin instance that runs as a long-lived task')
            [CompletionResult]::new('deregister', 'deregister', [CompletionResultType]::ParameterValue, 'Remove a plugin instance')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Forget plugins that are no longer in their directory (removed on purpose), so that their health is no longer reported')
            [CompletionResult]::new('wait', 'wait', [CompletionResultType]::ParameterValue, 'Wait until a plugin is registered (and, with --healthy, its socket accepts)')
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
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Run the plugin''s delete with the recorded path, then forget the volume')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Drop a volume''s record without running its plugin; what is on its path stays')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Volumes in the registry')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One volume, by id, id prefix or name')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Re-run create for every recorded volume, as a Nomad client does at start')
            [CompletionResult]::new('repair', 'repair', [CompletionResultType]::ParameterValue, 'Finish or roll back volumes left pending or deleting by an interrupted plugctl')
            [CompletionResult]::new('audit', 'audit', [CompletionResultType]::ParameterValue, 'Hold the registry against the disk: orphan entries in the volumes directory, vanished paths, pending operations, bytes on disk; exit 1 when anything is found')
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

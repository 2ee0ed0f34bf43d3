# --- plugctl: registry names (hand-written in src/generate/scripts/, not by clap) ---
# Where an argument names something plugctl knows (plugin types and names,
# volume ids and names, plugin files, families), offer what plugctl itself
# says (`plugctl --json plugin list`, `volume list`, `fingerprint
# --dry-run`). If plugctl fails or finds nothing, the condition fails and
# clap's completions above stand.

# The JSON reader (see JSON_AWK in src/generate.rs), its settings as
# arguments: _plugctl_list=volumes _plugctl_want=id ...
function __plugctl_json
    env $argv awk '@JSON_AWK@'
end

# The condition: succeeds when the token under the cursor names something
# plugctl knows and it has some; leaves them in $__plugctl_registry_names
# for the argument list, so plugctl runs once per TAB.
function __plugctl_registry_lookup
    set -g __plugctl_registry_names
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l value_options @VALUE_OPTIONS_LIST@
    set -l context_options @CONTEXT_OPTIONS_LIST@
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
            set -g __plugctl_registry_names @FAMILIES@
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

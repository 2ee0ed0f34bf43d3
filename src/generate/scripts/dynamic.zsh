# --- plugctl: registry names (hand-written in src/generate/scripts/, not by clap) ---
# clap's _plugctl above knows commands and options. It is kept as
# _plugctl_clap, and _plugctl becomes a wrapper that, where an argument names
# something plugctl knows (plugin types and names, volume ids and names,
# plugin files, families), offers what plugctl itself says (`plugctl --json
# plugin list`, `volume list`, `fingerprint --dry-run`). If plugctl fails or
# finds nothing, clap's completion runs as if the wrapper were not there.
# This file redefines clap's _plugctl each time it runs, so the copy below
# is always clap's, never a previous wrapper.
functions[_plugctl_clap]=$functions[_plugctl]

# The JSON reader (see JSON_AWK in src/generate.rs), its settings as
# arguments: _plugctl_list=volumes _plugctl_want=id ...
_plugctl_json() {
    env "$@" awk '@JSON_AWK@'
}

# Sets `what` (plugins, types, volumes, files, file-types or families),
# `filter` (a plugin type), `healthy`, `source` and `namespace`, and adds
# the options that choose the registry and directories to `args`, in the
# caller; fails when the word under the cursor is none of these.
_plugctl_registry_position() {
    local -a pos
    local i=2 w v opt="" type=""
    while (( i < CURRENT )); do
        w=$words[i]
        case $w in
            (@VALUE_OPTIONS_CASE@)
                if (( i + 1 >= CURRENT )); then
                    opt=$w
                else
                    v=$words[i+1]
                    # the shell has not expanded a ~ typed on the line
                    [[ $v == "~/"* ]] && v=$HOME/${v#"~/"}
                    case $w in
                        (@CONTEXT_OPTIONS_CASE@) args+=("$w" "$v") ;;
                        (--type) type=$v ;;
                        (--namespace) namespace=$v ;;
                    esac
                fi
                (( i++ ))
                ;;
            (--*=*)
                v=${w#*=}
                [[ $v == "~/"* ]] && v=$HOME/${v#"~/"}
                case ${w%%=*} in
                    (@CONTEXT_OPTIONS_CASE@) args+=("${w%%=*}" "$v") ;;
                    (--type) type=$v ;;
                    (--namespace) namespace=$v ;;
                esac
                ;;
            (--allow-insecure-paths) args+=("$w") ;;
            (-*) ;;
            (*) pos+=("$w") ;;
        esac
        (( i++ ))
    done
    # `--plugin=ma` is one word, the one under the cursor
    if [[ $words[CURRENT] == --*=* ]]; then
        case ${words[CURRENT]%%=*} in
            (@VALUE_OPTIONS_CASE@) opt=${words[CURRENT]%%=*} ;;
        esac
    fi
    if [[ -n $opt ]]; then
        case $opt,$pos[1],$pos[2] in
            # only a plugin that can serve the create
            (--plugin,volume,create) what=plugins filter=host-volume healthy=true ;;
            (--plugin,volume,*) what=plugins filter=host-volume ;;
            (--type,*) what=types ;;
            (*) return 1 ;;
        esac
        return 0
    fi
    [[ $words[CURRENT] == -* ]] && return 1
    case $pos[1],$pos[2],$#pos in
        (fingerprint,*) what=plugins filter=$type ;;
        (plugin,show,2|plugin,wait,2) what=types ;;
        (plugin,show,3|plugin,wait,3) what=plugins filter=$pos[3] ;;
        # the files in the plugin directory, registered or not
        (test,*,1) what=file-types ;;
        (test,*,2) what=files filter=$pos[2] ;;
        (volume,show,2|volume,delete,2|volume,forget,2) what=volumes ;;
        # a built-in secrets plugin cannot run here
        (secret,fetch,2) what=plugins filter=secrets source=file ;;
        (init,*,1) what=families ;;
        (*) return 1 ;;
    esac
}

# One name per line, for what the position set.
_plugctl_registry_query() {
    local out want=name
    case $what in
        (families) print -rl -- @FAMILIES@; return 0 ;;
        (volumes)
            out=$(command plugctl "${args[@]}" volume list 2>/dev/null) || return 1
            {
                print -r -- "$out" | _plugctl_json _plugctl_list=volumes _plugctl_want=id
                # a name is looked up in --namespace
                print -r -- "$out" | _plugctl_json _plugctl_list=volumes _plugctl_want=name \
                    _plugctl_namespace="${namespace:-default}"
            } | sort -u ;;
        (types|plugins)
            out=$(command plugctl "${args[@]}" plugin list 2>/dev/null) || return 1
            [[ $what == types ]] && want=type
            print -r -- "$out" | _plugctl_json _plugctl_list=plugins _plugctl_want=$want _plugctl_type="$filter" \
                _plugctl_healthy="$healthy" _plugctl_source="$source" | sort -u ;;
        (file-types|files)
            # discovery without running anything: each plugin file is a call
            # with a "program"; a built-in is not
            out=$(command plugctl "${args[@]}" fingerprint --dry-run 2>/dev/null) || return 1
            [[ $what == file-types ]] && want=type
            print -r -- "$out" | _plugctl_json _plugctl_list=calls _plugctl_want=$want _plugctl_has=program \
                _plugctl_type="$filter" | sort -u ;;
    esac
}

_plugctl() {
    local what="" filter="" healthy="" source="" namespace="" out expl
    local -a names args
    args=(--json)
    if _plugctl_registry_position && out=$(_plugctl_registry_query) && [[ -n $out ]]; then
        names=("${(@f)out}")
        [[ $words[CURRENT] == --*=* ]] && compset -P '*='
        # compadd quotes each name as the line needs it: one word, never expanded
        _wanted plugctl-$what expl $what compadd -a names && return 0
    fi
    _plugctl_clap "$@"
}

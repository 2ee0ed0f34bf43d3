# --- plugctl: registry names (hand-written in src/generate/scripts/, not by clap) ---
# clap's _plugctl above knows commands and options. This wrapper runs it,
# then, where an argument names something plugctl knows (plugin types and
# names, volume ids and names, plugin files, families), replaces its answer
# with what plugctl itself says (`plugctl --json plugin list`, `volume list`,
# `fingerprint --dry-run`). If plugctl fails or finds nothing, clap's answer
# stands.

# The JSON reader (see JSON_AWK in src/generate.rs), its settings as
# arguments: _plugctl_list=volumes _plugctl_want=id ...
_plugctl_json() {
    # shellcheck disable=SC2016 # its $ are awk's
    env "$@" awk '@JSON_AWK@'
}

# Sets `what` (plugins, types, volumes, files, file-types or families),
# `filter` (a plugin type), `healthy`, `source` and `namespace`, and adds
# the options that choose the registry and directories to `args`, in the
# caller; fails when the word under the cursor is none of these.
_plugctl_registry_position() {
    local -a pos=()
    local i=1 w v opt="" type=""
    while (( i < COMP_CWORD )); do
        w=${COMP_WORDS[i]}
        case $w in
            @VALUE_OPTIONS_CASE@)
                # bash splits `--opt=value` into `--opt`, `=`, `value`
                [[ ${COMP_WORDS[i+1]-} == = ]] && (( i++ ))
                if (( i + 1 >= COMP_CWORD )); then
                    opt=$w
                else
                    v=${COMP_WORDS[i+1]-}
                    # the shell has not expanded a ~ typed on the line
                    # shellcheck disable=SC2088 # that literal ~ is the point
                    [[ $v == "~/"* ]] && v=$HOME/${v#"~/"}
                    case $w in
                        @CONTEXT_OPTIONS_CASE@) args+=("$w" "$v") ;;
                        --type) type=$v ;;
                        --namespace) namespace=$v ;;
                    esac
                fi
                (( i++ ))
                ;;
            --allow-insecure-paths) args+=("$w") ;;
            -*) ;;
            *) pos+=("$w") ;;
        esac
        (( i++ ))
    done
    local cur=${COMP_WORDS[COMP_CWORD]}
    if [[ -n $opt ]]; then
        case $opt,${pos[0]-},${pos[1]-} in
            # only a plugin that can serve the create
            --plugin,volume,create) what=plugins filter=host-volume healthy=true ;;
            --plugin,volume,*) what=plugins filter=host-volume ;;
            --type,*) what=types ;;
            *) return 1 ;;
        esac
        return 0
    fi
    [[ $cur == -* ]] && return 1
    case ${pos[0]-},${pos[1]-},${#pos[@]} in
        fingerprint,*) what=plugins filter=$type ;;
        plugin,show,2 | plugin,wait,2) what=types ;;
        plugin,show,3 | plugin,wait,3) what=plugins filter=${pos[2]-} ;;
        # the files in the plugin directory, registered or not
        test,*,1) what=file-types ;;
        test,*,2) what=files filter=${pos[1]-} ;;
        volume,show,2 | volume,delete,2 | volume,forget,2) what=volumes ;;
        # a built-in secrets plugin cannot run here
        secret,fetch,2) what=plugins filter=secrets source=file ;;
        init,*,1) what=families ;;
        *) return 1 ;;
    esac
}

# One name per line, for what the position set.
_plugctl_registry_query() {
    local out
    case $what in
        families) printf '%s\n' @FAMILIES@; return 0 ;;
        volumes) out=$(command plugctl "${args[@]}" volume list 2>/dev/null) || return 1
            {
                printf '%s\n' "$out" | _plugctl_json _plugctl_list=volumes _plugctl_want=id
                # a name is looked up in --namespace
                printf '%s\n' "$out" | _plugctl_json _plugctl_list=volumes _plugctl_want=name \
                    _plugctl_namespace="${namespace:-default}"
            } | sort -u ;;
        types) out=$(command plugctl "${args[@]}" plugin list 2>/dev/null) || return 1
            printf '%s\n' "$out" | _plugctl_json _plugctl_list=plugins _plugctl_want=type | sort -u ;;
        plugins) out=$(command plugctl "${args[@]}" plugin list 2>/dev/null) || return 1
            printf '%s\n' "$out" | _plugctl_json _plugctl_list=plugins _plugctl_want=name _plugctl_type="$filter" \
                _plugctl_healthy="$healthy" _plugctl_source="$source" | sort -u ;;
        file-types | files)
            # discovery without running anything: each plugin file is a call
            # with a "program"; a built-in is not
            out=$(command plugctl "${args[@]}" fingerprint --dry-run 2>/dev/null) || return 1
            local want=type
            [[ $what == files ]] && want=name
            printf '%s\n' "$out" | _plugctl_json _plugctl_list=calls _plugctl_want=$want _plugctl_has=program \
                _plugctl_type="$filter" | sort -u ;;
    esac
}

# The word under the cursor as the shell will read it: without the quoting
# typed so far, so that it can be compared with names.
_plugctl_unquote() {
    local w=$1 out="" c
    case $w in
        \'*) printf '%s' "${w#\'}"; return ;;
        \"*) w=${w#\"} ;;
    esac
    while [[ -n $w ]]; do
        c=${w:0:1} w=${w:1}
        if [[ $c == \\ && -n $w ]]; then
            c=${w:0:1} w=${w:1}
        fi
        out+=$c
    done
    printf '%s' "$out"
}

_plugctl_with_registry() {
    _plugctl "$@"
    local ret=$? what="" filter="" healthy="" source="" namespace="" out n q
    local -a args=(--json)
    _plugctl_registry_position || return $ret
    out=$(_plugctl_registry_query) && [[ -n $out ]] || return $ret
    local cur=${COMP_WORDS[COMP_CWORD]}
    [[ $cur == = ]] && cur=""
    cur=$(_plugctl_unquote "$cur")
    COMPREPLY=()
    while IFS= read -r n; do
        [[ -n $n && $n == "$cur"* ]] || continue
        # one word, whatever the name holds: never expanded, never split
        printf -v q '%q' "$n"
        COMPREPLY+=("$q")
    done <<<"$out"
    return 0
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _plugctl_with_registry -o nosort -o bashdefault -o default plugctl
else
    complete -F _plugctl_with_registry -o bashdefault -o default plugctl
fi

#!/bin/sh
# A Nomad dynamic host-volume plugin in POSIX sh, made by `plugctl init`.
# Plugin: {{NAME}}
#
# Each volume is a directory <DHV_VOLUMES_DIR>/<DHV_VOLUME_ID>, mode 0750.
# Parameters are ignored; the requested capacity is reported, not enforced.
#
# Nomad runs it as `{{NAME}} <operation>` (DHV_OPERATION holds the same word):
#   fingerprint  print {"version": "..."}, at once: a client gives a plugin
#                about 1 s at agent start
#   create       make the volume and print {"path": "...", "bytes": N}
#   delete       remove the volume; stdout is ignored when it succeeds
# create and delete get 60 s each, then the plugin is killed.
#
# Protocol rules that matter:
#   - the environment holds the DHV_* variables and nothing else: no PATH,
#     no HOME (so PATH is set below);
#   - stdout carries exactly one JSON document; logs go to stderr;
#   - a failure prints {"error": "..."} on stdout and exits non-zero;
#   - create and delete are idempotent: Nomad calls create again with the
#     same request on every client restart and update, and retries delete;
#   - paths come from DHV_VOLUMES_DIR and DHV_VOLUME_ID only, never from
#     DHV_VOLUME_NAME, which may hold "/", "..", spaces or newlines.
#
# Check it: plugctl validate --strict; plugctl test host-volume <name>

PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
LC_ALL=C
export LC_ALL

# json_quote STRING: STRING as a JSON string literal (", \ and control
# characters escaped; other bytes copied, so STRING should be UTF-8).
json_quote() {
	_jq=$1 awk 'BEGIN {
		for (i = 1; i < 32; i++) ctl[sprintf("%c", i)] = sprintf("\\u%04x", i)
		ctl["\177"] = "\\u007f"; ctl["\n"] = "\\n"; ctl["\r"] = "\\r"; ctl["\t"] = "\\t"
		s = ENVIRON["_jq"]; out = ""
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (c == "\"" || c == "\\") out = out "\\" c
			else if (c in ctl) out = out ctl[c]
			else out = out c
		}
		printf "\"%s\"", out
	}'
}

# fail MESSAGE: log MESSAGE, print it as {"error": ...} and exit 1.
fail() {
	printf '%s\n' "error: $1" >&2
	printf '{"error": %s}\n' "$(json_quote "$1")"
	exit 1
}

# volume_path: sets vdir (DHV_VOLUMES_DIR) and vpath (<vdir>/<DHV_VOLUME_ID>)
# after checking both: an absolute directory and a UUID.
volume_path() {
	vdir=${DHV_VOLUMES_DIR:-}
	case $vdir in
	/*) ;;
	*) fail "DHV_VOLUMES_DIR must be an absolute path, got \"$vdir\"" ;;
	esac
	while :; do
		case $vdir in
		?*/) vdir=${vdir%/} ;;
		*) break ;;
		esac
	done
	h='[0-9a-f]'
	# shellcheck disable=SC2254 # the pattern is a glob on purpose
	case ${DHV_VOLUME_ID:-} in
	$h$h$h$h$h$h$h$h-$h$h$h$h-$h$h$h$h-$h$h$h$h-$h$h$h$h$h$h$h$h$h$h$h$h) ;;
	*) fail "DHV_VOLUME_ID must be a lowercase UUID, got \"${DHV_VOLUME_ID:-}\"" ;;
	esac
	vpath=${vdir%/}/$DHV_VOLUME_ID
}

# create: make the directory unless it is there already (a repeated create
# must succeed with the same answer), then report it.
do_create() {
	volume_path
	bytes=${DHV_CAPACITY_MAX_BYTES:-0}
	[ "$bytes" = 0 ] && bytes=${DHV_CAPACITY_MIN_BYTES:-0}
	case $bytes in
	'' | *[!0-9]* | 0?*) fail "capacities must be decimal integers, got \"$bytes\"" ;;
	esac
	if [ -L "$vpath" ] || { [ -e "$vpath" ] && [ ! -d "$vpath" ]; }; then
		fail "$vpath exists and is not a directory"
	fi
	if [ ! -d "$vpath" ]; then
		mkdir -p "$vdir" || fail "cannot create $vdir"
		# -m sets the mode exactly (the umask does not apply). A concurrent
		# create of the same volume may win the race: fine if it made a directory.
		mkdir -m 0750 "$vpath" || [ -d "$vpath" ] || fail "cannot create $vpath"
		printf 'created %s\n' "$vpath" >&2
	fi
	printf '{"path": %s, "bytes": %s}\n' "$(json_quote "$vpath")" "$bytes"
}

# delete: remove the directory if it is there (deleting what is already
# gone succeeds), but only this volume's path inside DHV_VOLUMES_DIR.
do_delete() {
	volume_path
	created=${DHV_CREATED_PATH:-$vpath}
	if [ "$created" != "$vpath" ] && [ "$created" != "$vpath/" ]; then
		fail "refusing to delete \"$created\": this plugin only deletes $vpath"
	fi
	if [ -e "$vpath" ] || [ -L "$vpath" ]; then
		# rm removes a symlink itself, never what it points to.
		rm -rf "$vpath" || fail "cannot remove $vpath"
		printf 'deleted %s\n' "$vpath" >&2
	fi
}

case ${1:-} in
fingerprint) printf '{"version": "0.1.0"}\n' ;;
create) do_create ;;
delete) do_delete ;;
*) fail "unknown operation \"${1:-}\" (expected fingerprint, create or delete)" ;;
esac

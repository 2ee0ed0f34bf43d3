#!/bin/sh
# A Nomad secrets plugin in POSIX sh, made by `plugctl init`.
# Plugin: {{NAME}}
#
# The store is a directory of KEY=VALUE files: `fetch app/db` reads
# $SECRETS_DIR/app/db.env. SECRETS_DIR comes from the caller: a Nomad job's
# secret block (env { SECRETS_DIR = "/srv/secrets" }), or
# `plugctl secret fetch {{NAME}} app/db --env SECRETS_DIR=/srv/secrets`.
# File format: one KEY=VALUE per line (KEY: letters, digits, _; the value is
# everything after the first "=", verbatim, UTF-8); blank lines and lines
# starting with # are skipped; a later line for the same key wins.
#
# Nomad runs it as `{{NAME}} <operation> [path]` (CPI_OPERATION holds the operation):
#   fingerprint  print {"type": "secrets", "version": "..."}
#   fetch PATH   print {"result": {"KEY": "value", ...}}; PATH is one argument,
#                passed verbatim (it may even start with "-")
# Nomad kills a call after 60 s (10 s before Nomad 2.0).
#
# Protocol rules that matter:
#   - the environment is CPI_OPERATION plus the job's env block (and
#     NOMAD_JOB_ID, NOMAD_NAMESPACE): no PATH, no HOME; since the caller
#     controls it, take nothing from it but the settings you document;
#   - stdout carries exactly one JSON document;
#   - errors are {"error": "..."} with exit 0: Nomad ignores stdout when a
#     secrets plugin exits non-zero, so the operator would never see why;
#   - never write on stderr (stderr from a succeeding secrets plugin can
#     crash a Nomad client), and never put a secret value in an error;
#   - fetch is read-only, so calling it again is always safe.
#
# Check it: plugctl validate --strict;
#   plugctl test secrets {{NAME}} --path app/db --env SECRETS_DIR=/srv/secrets

PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
LC_ALL=C
export LC_ALL
exec 2>/dev/null

# The awk function q(s): s as a JSON string literal (", \ and control
# characters escaped; other bytes copied, so the store must be UTF-8).
# shellcheck disable=SC2016 # awk code, not shell
QUOTE='
function q(s,    out, i, c) {
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\"" || c == "\\") out = out "\\" c
		else if (c in ctl) out = out ctl[c]
		else out = out c
	}
	return "\"" out "\""
}
BEGIN {
	for (i = 1; i < 32; i++) ctl[sprintf("%c", i)] = sprintf("\\u%04x", i)
	ctl["\177"] = "\\u007f"; ctl["\n"] = "\\n"; ctl["\r"] = "\\r"; ctl["\t"] = "\\t"
}'

# answer_error MESSAGE [STATUS]: print {"error": MESSAGE}, exit STATUS (0).
answer_error() {
	_msg=$1 awk "$QUOTE"' BEGIN { printf "{\"error\": %s}\n", q(ENVIRON["_msg"]) }'
	exit "${2:-0}"
}

do_fetch() {
	[ $# -eq 1 ] || answer_error "usage: fetch PATH"
	path=$1
	case ${SECRETS_DIR:-} in
	/*) ;;
	*) answer_error "SECRETS_DIR must be set to an absolute path (in the job's secret env block; plugctl: --env SECRETS_DIR=...)" ;;
	esac
	# The path may not leave the store: no leading "/", no "", "." or ".."
	# component.
	case /$path/ in
	//* | */./* | */../* | *//*) answer_error "invalid secret path \"$path\"" ;;
	esac
	file=$SECRETS_DIR/$path.env
	[ -f "$file" ] || answer_error "secret \"$path\" not found"
	[ -r "$file" ] || answer_error "secret \"$path\" is not readable"
	# One awk reads the file and prints the whole answer. An error names the
	# line, never its text: the text may be a secret.
	_path=$path awk "$QUOTE"'
	{ sub(/\r$/, "") }
	/^[ \t]*(#|$)/ { next }
	!/^[A-Za-z_][A-Za-z0-9_]*=/ { bad = NR; exit }
	{
		eq = index($0, "=")
		key = substr($0, 1, eq - 1)
		if (!(key in val)) keys[n++] = key
		val[key] = substr($0, eq + 1)
	}
	END {
		if (bad) {
			printf "{\"error\": %s}\n", q("secret \"" ENVIRON["_path"] "\": line " bad " is not KEY=VALUE")
			exit
		}
		printf "{\"result\": {"
		for (i = 0; i < n; i++) printf "%s\"%s\": %s", (i ? ", " : ""), keys[i], q(val[keys[i]])
		printf "}}\n"
	}' <"$file" || answer_error "cannot read secret \"$path\""
}

case ${1:-} in
fingerprint) printf '{"type": "secrets", "version": "0.1.0"}\n' ;;
fetch)
	shift
	do_fetch "$@"
	;;
*) answer_error "unknown operation (expected fingerprint or fetch)" 1 ;;
esac

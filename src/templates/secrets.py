#!/usr/bin/python3 -I
# A Nomad secrets plugin in Python 3 (stdlib only), made by `plugctl init`.
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
#     NOMAD_JOB_ID, NOMAD_NAMESPACE): no PATH, no HOME. The caller controls
#     it, hence the absolute interpreter and -I on the first line: with
#     `/usr/bin/env python3`, a job could pick the interpreter through PATH,
#     or run its own code through PYTHONPATH, as root on a Nomad client;
#   - stdout carries exactly one JSON document;
#   - errors are {"error": "..."} with exit 0: Nomad ignores stdout when a
#     secrets plugin exits non-zero, so the operator would never see why;
#   - never write on stderr (stderr from a succeeding secrets plugin can
#     crash a Nomad client), and never put a secret value in an error;
#   - fetch is read-only, so calling it again is always safe.
#
# Check it: plugctl validate --strict;
#   plugctl test secrets {{NAME}} --path app/db --env SECRETS_DIR=/srv/secrets

import json
import os
import re
import sys

VERSION = "0.1.0"
KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class FetchError(Exception):
    """A failure, reported as {"error": message}."""


def fetch(args):
    if len(args) != 1:
        raise FetchError("usage: fetch PATH")
    path = args[0]
    store = os.environ.get("SECRETS_DIR", "")
    if not store.startswith("/"):
        raise FetchError(
            "SECRETS_DIR must be set to an absolute path (in the job's secret env block; plugctl: --env SECRETS_DIR=...)"
        )
    # The path may not leave the store: no leading "/", no "", "." or ".." component.
    if any(part in ("", ".", "..") for part in path.split("/")):
        raise FetchError(f"invalid secret path {json.dumps(path)}")
    try:
        with open(os.path.join(store, path + ".env"), encoding="utf-8") as f:
            text = f.read()
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        raise FetchError(f"secret {json.dumps(path)} not found") from None
    except (OSError, UnicodeDecodeError) as e:
        raise FetchError(f"cannot read secret {json.dumps(path)}: {type(e).__name__}") from None
    result = {}
    for number, line in enumerate(text.split("\n"), 1):
        line = line.removesuffix("\r")
        if line.lstrip(" \t")[:1] in ("", "#"):
            continue
        key, eq, value = line.partition("=")
        if not eq or not KEY.fullmatch(key):
            # Name the line, never its text: the text may be a secret.
            raise FetchError(f"secret {json.dumps(path)}: line {number} is not KEY=VALUE")
        result[key] = value
    return {"result": result}


def main(argv):
    # Nothing on stderr, ever: not even a traceback or an interpreter warning.
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
    op = argv[1] if len(argv) > 1 else ""
    status = 0
    try:
        if op == "fingerprint":
            document = {"type": "secrets", "version": VERSION}
        elif op == "fetch":
            document = fetch(argv[2:])
        else:
            document = {"error": "unknown operation (expected fingerprint or fetch)"}
            status = 1
    except FetchError as e:
        document = {"error": str(e)}
    except Exception as e:  # a bug: say what kind, never what data
        document = {"error": f"internal error: {type(e).__name__}"}
    # json.dumps escapes every string (ensure_ascii: the output is ASCII).
    print(json.dumps(document), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))

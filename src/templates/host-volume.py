#!/usr/bin/env python3
# A Nomad dynamic host-volume plugin in Python 3 (stdlib only), made by `plugctl init`.
# Plugin: {{NAME}}
#
# Each volume is a directory <DHV_VOLUMES_DIR>/<DHV_VOLUME_ID>. One parameter:
# `mode`, an octal string (default "0750"); any other parameter is refused.
# The requested capacity is reported, not enforced.
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
#     no HOME (`/usr/bin/env python3` then searches the default /bin:/usr/bin);
#   - stdout carries exactly one JSON document; logs go to stderr;
#   - a failure prints {"error": "..."} on stdout and exits non-zero, and
#     leaves nothing behind;
#   - create and delete are idempotent: Nomad calls create again with the
#     same request on every client restart and update, and retries delete;
#   - paths come from DHV_VOLUMES_DIR and DHV_VOLUME_ID only, never from
#     DHV_VOLUME_NAME, which may hold "/", "..", spaces or newlines.
#
# Check it: plugctl validate --strict; plugctl test host-volume {{NAME}}

import json
import os
import re
import shutil
import stat
import sys

VERSION = "0.1.0"
PARAMETERS = {"mode": "0750"}  # the parameters this plugin knows, with defaults
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


class PluginError(Exception):
    """A failure, reported as {"error": message}."""


def emit(document):
    # json.dumps escapes every string (ensure_ascii: the output is ASCII).
    print(json.dumps(document), flush=True)


def volume_path():
    """<DHV_VOLUMES_DIR>/<DHV_VOLUME_ID>, after checking both."""
    vdir = os.environ.get("DHV_VOLUMES_DIR", "")
    vid = os.environ.get("DHV_VOLUME_ID", "")
    if not vdir.startswith("/"):
        raise PluginError(f"DHV_VOLUMES_DIR must be an absolute path, got {vdir!r}")
    if not UUID.fullmatch(vid):
        raise PluginError(f"DHV_VOLUME_ID must be a lowercase UUID, got {vid!r}")
    return os.path.join(vdir, vid)


def parameters():
    """DHV_PARAMETERS (a JSON object of strings, or null) merged over the defaults."""
    given = json.loads(os.environ.get("DHV_PARAMETERS") or "null") or {}
    if not isinstance(given, dict):
        raise PluginError("DHV_PARAMETERS must be a JSON object")
    unknown = sorted(set(given) - set(PARAMETERS))
    if unknown:
        raise PluginError(f"unknown parameter {unknown[0]!r} (known: {', '.join(PARAMETERS)})")
    params = {**PARAMETERS, **given}
    if not (isinstance(params["mode"], str) and re.fullmatch(r"0?[0-7]{3}", params["mode"])):
        raise PluginError(f"parameter 'mode' must be an octal string like 0750, got {params['mode']!r}")
    return params


def capacity():
    """The requested size: DHV_CAPACITY_MAX_BYTES, else DHV_CAPACITY_MIN_BYTES."""
    sizes = [os.environ.get(v) or "0" for v in ("DHV_CAPACITY_MAX_BYTES", "DHV_CAPACITY_MIN_BYTES")]
    if not all(re.fullmatch(r"[0-9]+", s) for s in sizes):
        raise PluginError(f"capacities must be decimal integers, got {sizes!r}")
    return int(sizes[0]) or int(sizes[1])


def create():
    # Check the whole request before touching the disk: a refused create
    # must leave nothing behind.
    vpath = volume_path()
    mode = int(parameters()["mode"], 8)
    size = capacity()
    if os.path.lexists(vpath) and not stat.S_ISDIR(os.lstat(vpath).st_mode):
        raise PluginError(f"{vpath} exists and is not a directory")
    try:
        os.makedirs(os.path.dirname(vpath), exist_ok=True)
        os.mkdir(vpath)
        try:
            os.chmod(vpath, mode)  # chmod, unlike mkdir, ignores the umask
        except OSError:
            shutil.rmtree(vpath, ignore_errors=True)
            raise
        print(f"created {vpath}", file=sys.stderr)
    except FileExistsError:
        # A repeated create (or a concurrent one that won): the same answer,
        # nothing re-applied.
        if not stat.S_ISDIR(os.lstat(vpath).st_mode):
            raise PluginError(f"{vpath} exists and is not a directory") from None
    emit({"path": vpath, "bytes": size})


def delete():
    # Remove this volume's directory if it is there; only that path.
    vpath = volume_path()
    created = os.environ.get("DHV_CREATED_PATH") or vpath
    if created.rstrip("/") != vpath:
        raise PluginError(f"refusing to delete {created!r}: this plugin only deletes {vpath}")
    try:
        st = os.lstat(vpath)
    except FileNotFoundError:
        return  # already gone: success
    if stat.S_ISDIR(st.st_mode):
        shutil.rmtree(vpath)
    else:
        os.unlink(vpath)  # a symlink is removed itself, never followed
    print(f"deleted {vpath}", file=sys.stderr)


def main(argv):
    op = argv[1] if len(argv) > 1 else ""
    try:
        if op == "fingerprint":
            emit({"version": VERSION})
        elif op == "create":
            create()
        elif op == "delete":
            delete()
        else:
            raise PluginError(f"unknown operation {op!r} (expected fingerprint, create or delete)")
        return 0
    except PluginError as e:
        message = str(e)
    except Exception as e:  # OSError, bad JSON...: never a bare traceback
        message = f"{type(e).__name__}: {e}"
    print(f"error: {message}", file=sys.stderr)
    emit({"error": message})
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/python3
"""Reads KEY=VALUE files with systemd's own parser, the code PID 1 runs for
a unit's EnvironmentFile= (load_env_file in libsystemd-shared), and prints
what it read: one JSON object per file, in order, as a JSON list; a file
systemd refuses is null.

Usage: systemd_env_file.py LIBSYSTEMD_SHARED FILE...
"""
import ctypes
import json
import sys

lib = ctypes.CDLL(sys.argv[1])
load = lib.load_env_file
load.argtypes = [
    ctypes.c_void_p,
    ctypes.c_char_p,
    ctypes.POINTER(ctypes.POINTER(ctypes.c_char_p)),
]
load.restype = ctypes.c_int

read = []
for path in sys.argv[2:]:
    pairs = ctypes.POINTER(ctypes.c_char_p)()
    if load(None, path.encode(), ctypes.byref(pairs)) < 0:
        read.append(None)
        continue
    env = {}
    i = 0
    while pairs and pairs[i]:
        key, _, value = pairs[i].partition(b"=")
        env[key.decode()] = value.decode()
        i += 1
    read.append(env)
json.dump(read, sys.stdout)

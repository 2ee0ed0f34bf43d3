#!/usr/bin/python3
"""Reads a KEY=VALUE file with the docker command line's own --env-file
parser: `docker create --env-file FILE` talks to a daemon of this script's
making (a Unix socket answering the ping and the create), which prints the
container's environment as the CLI sent it, as a JSON list, and creates
nothing. No image, daemon or network is needed.

Usage: docker_env_file.py SCRATCH_DIR FILE
"""
import http.server
import json
import os
import socketserver
import subprocess
import sys
import threading

scratch, env_file = sys.argv[1], sys.argv[2]
sock = os.path.join(scratch, "docker.sock")
sent = []


class Daemon(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, code, body, ctype="application/json"):
        data = body.encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Api-Version", "1.41")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass

    def do_HEAD(self):
        self.answer(200, "", "text/plain")

    def do_GET(self):
        if self.path.endswith("/_ping"):
            self.answer(200, "OK", "text/plain")
        else:
            self.answer(404, json.dumps({"message": "not here"}))

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if "/containers/create" in self.path:
            sent.append(json.loads(body).get("Env") or [])
        self.answer(500, json.dumps({"message": "a test daemon: nothing created"}))


class Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True

    def get_request(self):
        conn, _ = super().get_request()
        return conn, ("local", 0)


if os.path.exists(sock):
    os.remove(sock)
server = Server(sock, Daemon)
threading.Thread(target=server.serve_forever, daemon=True).start()
run = subprocess.run(
    ["docker", "create", "--env-file", env_file, "busybox"],
    env={
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": scratch,
        "DOCKER_HOST": "unix://" + sock,
        "DOCKER_CONFIG": scratch,
    },
    capture_output=True,
)
server.shutdown()
if not sent:
    sys.stderr.write(run.stderr.decode(errors="replace"))
    sys.exit(2)
json.dump(sent[0], sys.stdout)

"""nginx (Debian's), the reference server: the same JSON body as the control API on a Unix socket, and the feed
fixture on loopback for the live network service."""
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import time

import processes

CONFIG = """\
daemon off;
worker_processes {workers};
user root;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    default_type application/json;
    keepalive_requests 10000000;
    keepalive_timeout 60s;
    client_body_temp_path {prefix}/tmp;
    proxy_temp_path {prefix}/tmp;
    fastcgi_temp_path {prefix}/tmp;
    uwsgi_temp_path {prefix}/tmp;
    scgi_temp_path {prefix}/tmp;
    server {{
        listen unix:{prefix}/nginx.sock;
        listen 127.0.0.1:{port};
        root {prefix}/www;
        {locations}
    }}
}}
"""


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Nginx:
    """nginx serving `files` (URL path → bytes) on `socket` and on http://127.0.0.1:`port`; `locations` are added
    to its server block; `workers` is its worker_processes ("auto": one per core)."""

    def __init__(self, prefix: pathlib.Path, files: dict, locations=(), workers="auto"):
        self.prefix = prefix
        self.workers = workers
        self.port = free_port()
        self.socket = str(prefix / "nginx.sock")
        for path, body in files.items():
            target = prefix / "www" / path.lstrip("/")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(body)
        (prefix / "tmp").mkdir(parents=True, exist_ok=True)
        (prefix / "nginx.conf").write_text(CONFIG.format(prefix=prefix, port=self.port, workers=workers, locations="\n        ".join(locations)))
        self.process = None

    @property
    def origin(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        self.process = subprocess.Popen(
            [binary, "-p", str(self.prefix), "-c", str(self.prefix / "nginx.conf"), "-e", str(self.prefix / "error.log")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not (os.path.exists(self.socket) and self._answers()):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"nginx did not start:\n{(self.prefix / 'error.log').read_text()}")
            time.sleep(0.02)
        return self

    def _answers(self):
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return True
        except OSError:
            return False

    def stop(self):
        if self.process:
            processes.stop(self.process, signal.SIGQUIT, timeout=10)

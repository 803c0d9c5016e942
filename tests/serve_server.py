"""A real ``putnam serve`` in a child process on loopback, for the tests and ``bench/serve_throughput.py``.

The child binds port 0 (any free port) and prints the URL it listens on; :func:`start_server` reads it,
waits for ``/ready`` when asked, and returns a handle that reads the child's memory and stops it.
:func:`in_process` runs the same server (uvicorn, the API behind its gatekeeper) in this process instead,
for tests that hand it a configuration or a gate backend of their own.
"""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import httpx

from tests.helpers import REPO

if TYPE_CHECKING:
    from putnam_solver.serve import ServeConfig, Verifier

LISTENING = re.compile(r"listening on (http://\S+)")
KEYS = {
    "alice": ("a1ice-0123456789abcdef", 3),
    "bob": ("b0b-fedcba9876543210ab", None),
    "solo": ("s0lo-00112233445566778", 1),
}
"""Name -> (key, its own limit or None): alice is limited to 3 in flight, solo to 1, bob has the default."""


def write_keys(path: Path) -> Path:
    lines = ["# test keys: NAME KEY [LIMIT]"]
    lines += [f"{name} {key}{f' {limit}' if limit else ''}" for name, (key, limit) in KEYS.items()]
    path.write_text("\n".join(lines) + "\n")
    path.chmod(0o600)  # the keys file is this account's alone
    return path


def auth(name: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {KEYS[name][0]}"}


@dataclass
class ServerProcess:
    proc: subprocess.Popen[str]
    url: str
    log: Path

    def rss_kib(self) -> int:
        """The server's resident memory (``VmRSS`` of ``/proc/<pid>/status``), in KiB."""
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        match = re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)
        assert match, status
        return int(match.group(1))

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()


def start_server(
    log: Path, args: list[str], env: Mapping[str, str], wait_ready: bool = True, timeout: float = 300
) -> ServerProcess:
    """``putnam serve --host 127.0.0.1 --port 0 ARGS`` with ``env`` added; its stderr (the log) to ``log``."""
    argv = [sys.executable, "-m", "putnam_solver", "serve", "--host", "127.0.0.1", "--port", "0", *args]
    environment = {**os.environ, "PYTHONPATH": str(REPO / "src"), **env}
    with log.open("w") as sink:
        proc = subprocess.Popen(argv, cwd=REPO, env=environment, stdout=subprocess.PIPE, stderr=sink, text=True)
    deadline = time.monotonic() + 60
    line = ""
    assert proc.stdout is not None
    while not (match := LISTENING.search(line)):
        ready, _, _ = select.select([proc.stdout], [], [], max(0.0, deadline - time.monotonic()))
        if not ready or proc.poll() is not None:
            proc.kill()
            raise AssertionError(f"putnam serve did not start: {log.read_text(errors='replace')[-3000:]}")
        line = proc.stdout.readline()
    server = ServerProcess(proc, match.group(1), log)
    if wait_ready:
        _wait_ready(server, timeout)
    return server


def _wait_ready(server: ServerProcess, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise AssertionError(f"putnam serve stopped: {server.log_text()[-3000:]}")
        if httpx.get(f"{server.url}/ready", timeout=10).status_code == 200:
            return
        time.sleep(0.5)
    server.stop()
    raise AssertionError(f"putnam serve not ready within {timeout:g} s: {server.log_text()[-3000:]}")


@contextmanager
def in_process(config: ServeConfig, verifier: Verifier, connections: int = 1024) -> Iterator[str]:
    """The real server of ``config`` and ``verifier`` on a free loopback port, in a thread of this process (at
    most ``connections`` held): its URL, until the block ends and it stops."""
    from putnam_solver.listen import bind
    from putnam_solver.serve.server import make_server

    sock = bind("127.0.0.1", 0, connections)
    server = make_server(config, verifier)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()

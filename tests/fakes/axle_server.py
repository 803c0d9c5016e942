"""A local AXLE on 127.0.0.1 for the real ``axiom-axle`` client: ``POST /api/v1/verify_proof``.

It follows the contract of axiom-axle 1.9.0 as its client reads it (``axle/client.py``, ``axle/types.py``):
- the client takes the server from ``AXLE_API_URL`` (client.py:103) and sends ``Authorization: Bearer
  <AXLE_API_KEY>`` (client.py:131);
- it POSTs the JSON request to ``<url>/api/v1/<method>`` (client.py:163, 868): for ``verify_proof`` a body with
  ``formal_statement``, ``content``, ``environment``, ``mathlib_options``... (client.py:195-227);
- it expects exactly one line of JSON back (client.py:171), raises on ``internal_error``, ``user_error``
  and ``error`` keys (client.py:176-190), and reads ``okay``, ``content``, ``lean_messages``,
  ``tool_messages``, ``failed_declarations``, ``timings`` from it (types.py:37-57).

- ``environments()`` GETs ``<url>/v1/environments`` (client.py:770-777) and reads a JSON list of objects
  with a ``name`` such as ``lean-4.28.0`` (docs/configuration.md, "Environment Response Format";
  ``_LEAN_ENV_RE`` in client.py:57); the server answers with ``environments``.

Answers come from a script (the last reply repeats) or from a function of the request body (``judge``),
and every request is recorded.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SERVED = ("lean-4.21.0", "lean-4.25.1", "lean-4.26.0", "lean-4.27.0", "lean-4.28.0", "lean-4.29.0")
"""The environments AXLE's own client and documentation name (endpoints.py:62 and :484, docs/configuration.md,
the 1.1.1 announcement of 4.29.0); a test sets ``environments`` for another list."""


@dataclass
class Reply:
    """One scripted answer: status, body, extra headers, and a delay before answering."""

    status: int = 200
    body: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


def verified(okay: Any, errors: tuple[str, ...] = (), failed: tuple[str, ...] = ("putnam_1962_a2",)) -> Reply:
    """A ``verify_proof`` answer as the real service sends it: one JSON line, with a request id."""
    body = {
        "okay": okay,
        "content": "",
        "lean_messages": {"errors": [], "warnings": [], "infos": []},
        "tool_messages": {"errors": list(errors), "warnings": [], "infos": []},
        "failed_declarations": list(failed) if errors else [],
        "timings": {"total_ms": 12},
    }
    return Reply(body=json.dumps(body) + "\n", headers={"X-Request-Id": "req-42"})


class AxleServer:
    """A local AXLE: answers from ``judge`` when set, else from a script (the last reply repeats), and
    records every request (path, headers, JSON body)."""

    def __init__(self, judge: Callable[[dict[str, Any]], Reply] | None = None) -> None:
        self.replies: list[Reply] = []
        self.judge = judge
        self.requests: list[dict[str, Any]] = []
        self.environments = list(SERVED)
        self.stop = threading.Event()
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                with server._lock:
                    server.requests.append({"path": self.path, "headers": dict(self.headers), "body": None})
                listed = [{"name": n, "lean_toolchain": f"leanprover/lean4:v{n[5:]}"} for n in server.environments]
                found = self.path == "/v1/environments"
                data = json.dumps(listed if found else {"error": "not found"}).encode("utf-8")
                self.send_response(200 if found else 404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length))
                with server._lock:
                    server.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                    if server.judge is not None:
                        reply = server.judge(body)
                    else:
                        reply = server.replies.pop(0) if len(server.replies) > 1 else server.replies[0]
                server.stop.wait(reply.delay)
                data = reply.body.encode("utf-8")
                self.send_response(reply.status)
                for name, value in {"Content-Type": "application/json", **reply.headers}.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                return

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def close(self) -> None:
        self.stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)


@contextmanager
def serve_axle(server: AxleServer) -> Iterator[AxleServer]:
    """Run ``server`` on loopback for the block (set ``AXLE_API_URL`` to ``server.url`` to reach it)."""
    server.thread.start()
    try:
        yield server
    finally:
        server.close()

"""The listening side of ``putnam serve`` and ``putnam mcp --transport http``: the socket, and the HTTP
connection limits uvicorn does not have.

What uvicorn 0.54 and h11 0.16 give (read in ``uvicorn/protocols/http/h11_impl.py``): a header size
bound (h11's ``max_incomplete_event_size``, uvicorn's ``h11_max_incomplete_event_size``, 16 KiB: a longer
head is a 400 and the connection closes) and an idle timeout between requests (``timeout_keep_alive``,
armed only in ``on_response_complete``). What they lack: any deadline before a connection's first request
(a connection that sends nothing, or half a head, is held forever), and any limit per client address.
Their one connection limit, ``limit_concurrency``, counts every open connection and answers every new
request with 503 once they reach it: 512 idle sockets, without any key, made ``/health`` itself a 503.

:func:`guarded_h11` is uvicorn's own h11 protocol with those two additions: a head deadline (the head of
every request must be complete within ``head_seconds`` of the connection opening or of the previous
response; trickling bytes does not extend it) and a cap on open connections per client address and in
all (a connection over either is closed as it opens). Servers then run without ``limit_concurrency``,
so open connections never turn answers into 503s; what verifications may run is decided after the API
key (``serve/gatekeeper.py``), so only authenticated requests occupy it.
"""

from __future__ import annotations

import asyncio
import socket
from collections import Counter
from dataclasses import dataclass
from types import FrameType
from typing import TYPE_CHECKING, Any

from putnam_solver.core.sandbox import stopping
from putnam_solver.core.util import InputError

if TYPE_CHECKING:
    import uvicorn


def bind(host: str, port: int, backlog: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: any free one), or an InputError saying why not.

    The socket names TCP by protocol number: asyncio turns Nagle's algorithm off only on sockets that
    do (its connections inherit the number), and with it on every response waits for the client's
    delayed ACK (about 40 ms on Linux)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(backlog)
    except OSError as exc:
        sock.close()
        why = exc.strerror or str(exc)
        raise InputError(f"cannot listen on {host}:{port}: {why}; choose another --host or --port") from exc
    return sock


@dataclass(frozen=True)
class ConnectionLimits:
    """How long and how many connections a server holds."""

    head_seconds: float = 10.0
    """The head of each request (request line and headers) must be complete within this time."""
    idle_seconds: int = 5
    """A connection idle this long after a response is closed (uvicorn's ``timeout_keep_alive``)."""
    head_bytes: int = 16 * 1024
    """The largest head (h11's ``max_incomplete_event_size``); a longer one is a 400."""
    per_address: int = 32
    """Open connections per client address; one more is closed as it opens."""
    connections: int = 1024
    """Open connections in all; one more is closed as it opens."""

    def uvicorn_settings(self) -> dict[str, Any]:
        """The ``uvicorn.Config`` arguments that apply these limits."""
        return {
            "http": guarded_h11(self),
            "timeout_keep_alive": self.idle_seconds,
            "h11_max_incomplete_event_size": self.head_bytes,
            "limit_concurrency": None,
            "backlog": self.connections,
        }


def guarded_h11(limits: ConnectionLimits) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol with a head deadline and connection caps (the module's docstring); the
    counts are shared by the connections of one server (one class per call)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    by_address: Counter[str] = Counter()

    class GuardedH11Protocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _address: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._address = self.client[0] if self.client else ""
            by_address[self._address] += 1
            if by_address[self._address] > limits.per_address or len(self.connections) > limits.connections:
                transport.close()
                return
            self._await_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._no_deadline()
            if self._address is not None:
                by_address[self._address] -= 1
                if by_address[self._address] <= 0:
                    del by_address[self._address]
                self._address = None
            super().connection_lost(exc)

        def handle_events(self) -> None:
            super().handle_events()
            if self.conn.their_state is not h11.IDLE:  # the head arrived
                self._no_deadline()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                self._await_head()

        def _await_head(self) -> None:
            self._no_deadline()
            self._deadline = self.loop.call_later(limits.head_seconds, self._head_late)

        def _no_deadline(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _head_late(self) -> None:
            self._deadline = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

    return GuardedH11Protocol


def stopping_server(config: uvicorn.Config) -> uvicorn.Server:
    """A ``uvicorn.Server`` for ``config`` whose graceful shutdown on SIGINT or SIGTERM first kills every
    sandbox (``lifetime``, step 4): uvicorn waits for the requests in flight, and a verification
    compiling would otherwise hold it (and its compile) up to its timeout; killed, it answers ``error``."""
    import uvicorn

    class StoppingServer(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            stopping(super().handle_exit)(sig, frame)

    return StoppingServer(config)

"""The listening socket of ``putnam serve`` and ``putnam mcp --transport http``."""

from __future__ import annotations

import socket

from putnam_solver.core.util import InputError


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

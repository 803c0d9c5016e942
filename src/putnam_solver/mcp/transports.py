"""How ``putnam mcp`` serves its tools (``server.build_server``): over the client's stdio pipe, or as
streamable HTTP on a socket bound here, behind the key and Host check of ``http_guard``."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any, Literal, TextIO

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server

from putnam_solver.api_keys import KeyRing
from putnam_solver.core.util import InputError
from putnam_solver.kits.interactive import DEFAULT_MAX_SESSIONS
from putnam_solver.kits.sessions import SessionPool
from putnam_solver.listen import ConnectionLimits, bind, stopping_server
from putnam_solver.mcp.early_initialize import server_identity
from putnam_solver.mcp.http_guard import HTTP_PATH, allowed_host, http_app
from putnam_solver.mcp.server import McpSettings, PutnamTools, build_server
from putnam_solver.mcp.stdio import EarlyStdio, stderr


def default_pool() -> SessionPool:
    """Warm checker sessions as a campaign keeps them: reused, at most one per core and
    ``DEFAULT_MAX_SESSIONS`` (each holds its imports in memory)."""
    return SessionPool(max_sessions=max(1, min(os.cpu_count() or 1, DEFAULT_MAX_SESSIONS)), reuse=True)


def run_server(
    settings: McpSettings,
    transport: Literal["stdio", "http"] = "stdio",
    host: str = "127.0.0.1",
    port: int = 8000,
    announce: Callable[[str], None] = stderr,
    early: EarlyStdio | None = None,
    keys: KeyRing | None = None,
    allowed_hosts: tuple[str, ...] = (),
) -> None:
    """Serve until the client closes stdin (stdio) or the process is stopped (HTTP).

    Over stdio the client's pipe is ``early``'s, which the command took over (and answered
    ``initialize`` on) before it imported the SDK; without it, it is taken over here. Over HTTP the
    server listens on ``host:port`` (port 0: a free port), and ``announce`` hears the URL once it
    listens, e.g. ``http://127.0.0.1:8000/mcp``; every judged call (check, verify) is a line on stderr.
    HTTP needs ``keys``: every request must carry one of them (``http_app``); there is no keyless HTTP.
    ``allowed_hosts`` are names a request's Host may give besides the loopback names and ``host``
    (``--allow-host``: the names clients use to reach a server bound to ``0.0.0.0``).
    """
    if transport == "http" and keys is None:
        raise InputError("putnam mcp --transport http needs API keys: pass --keys FILE or set PUTNAM_MCP_KEYS")
    allowed_hosts = tuple(map(allowed_host, allowed_hosts))  # refused before anything starts
    pool = default_pool()
    server = build_server(PutnamTools(settings, pool))
    try:
        if transport == "stdio":
            serve_stdio(server, early or EarlyStdio(server_identity(settings.prover.label)))
        else:
            assert keys is not None
            anyio.run(serve_http, server, host, port, announce, keys, allowed_hosts)
    finally:
        pool.close()


def serve_stdio(server: MCPServer[Any], early: EarlyStdio) -> None:
    """The stdio transport, ended by Ctrl-C at once: the SDK reads stdin in a thread that no cancellation
    reaches, so the event loop, interrupted in the main thread, would wait for the client's next line.
    Here the loop runs in a daemon thread (its worker threads inherit that), and the main thread only
    waits for it, so its ``KeyboardInterrupt`` ends the command without waiting for stdin."""
    failures: list[BaseException] = []

    def run() -> None:
        try:
            stdin, stdout = early.handoff()
            anyio.run(serve_streams, server, stdin, stdout)
        except BaseException as exc:  # handed to the main thread, which raises it
            failures.append(exc)

    loop = threading.Thread(target=run, name="mcp-stdio", daemon=True)
    loop.start()
    try:
        loop.join()
    finally:
        early.restore()
    if failures:
        raise failures[0]


async def serve_streams(server: MCPServer[Any], stdin: TextIO, stdout: TextIO) -> None:
    """``MCPServer.run_stdio_async`` (``mcp/server/mcpserver/server.py``) on the given streams: the SDK's
    stdio transport and the low-level server ``MCPServer`` holds and runs itself this way (it has no
    public way to serve streams it is given; the tests compare the two)."""
    async with stdio_server(anyio.wrap_file(stdin), anyio.wrap_file(stdout)) as (read, write):
        lowlevel = server._lowlevel_server
        await lowlevel.run(read, write, lowlevel.create_initialization_options())


async def serve_http(
    server: MCPServer[Any],
    host: str,
    port: int,
    announce: Callable[[str], None],
    keys: KeyRing,
    allowed_hosts: tuple[str, ...] = (),
) -> None:
    """The streamable HTTP transport (``http_app``) on a socket bound here, so that port 0 can be announced."""
    import uvicorn

    limits = ConnectionLimits()
    listener = bind(host, port, limits.connections)
    bound_host, bound = listener.getsockname()[:2]
    app = http_app(server, host, keys, allowed_hosts)
    config = uvicorn.Config(app, log_level="warning", lifespan="on", **limits.uvicorn_settings())
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    announce(f"serving streamable HTTP at http://{shown}:{bound}{HTTP_PATH}")
    await stopping_server(config).serve(sockets=[listener])

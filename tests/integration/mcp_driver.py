"""``putnam mcp`` as the tests drive it: started by the MCP SDK's stdio client, or in the background on a
free loopback port for its streamable HTTP transport (with an API key in ``PUTNAM_MCP_KEYS``, which every
request sends), with the lines it logs on stderr."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.helpers import REPO

Session = Callable[[Client], Awaitable[None]]
KEY = "mcp-test-0123456789abcdef"
"""The key ``http_server`` gives the server (as the client ``tester``) and ``over_http`` sends."""


def key_env(key: str = KEY) -> dict[str, str]:
    """The environment that gives ``putnam mcp --transport http`` the one key ``key``."""
    return {"PUTNAM_MCP_KEYS": f"tester {key}"}


def bearer(key: str = KEY) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@asynccontextmanager
async def keyed_client(
    url: str, read_timeout_seconds: float = 300, key: str = KEY, **options: Any
) -> AsyncIterator[Client]:
    """The SDK's client (``options`` its other settings) of the streamable HTTP server at ``url``, sending
    ``key`` with every request."""
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async with create_mcp_http_client(headers=bearer(key)) as http:
        transport = streamable_http_client(url, http_client=http)
        async with Client(transport, read_timeout_seconds=read_timeout_seconds, **options) as client:
            yield client


def server_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The server's environment: this checkout's package, the few variables it needs, and ``extra``."""
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "PUTNAM_CACHE_DIR")}
    return {**keep, "PYTHONPATH": str(REPO / "src"), **(extra or {})}


def mcp_argv(*args: str) -> list[str]:
    """``putnam mcp ARGS`` run by this interpreter."""
    return [sys.executable, "-m", "putnam_solver", "mcp", *args]


def over_stdio(session: Session, *args: str, env: dict[str, str] | None = None) -> None:
    """Start ``putnam mcp ARGS`` as the SDK's stdio client does and run ``session`` against it."""
    command, *rest = mcp_argv(*args)
    params = StdioServerParameters(command=command, args=rest, env=server_env(env), cwd=str(REPO))

    async def main() -> None:
        async with Client(params, read_timeout_seconds=300) as client:
            await session(client)

    anyio.run(main)


@dataclass
class Served:
    """A running ``putnam mcp --transport http``: its URL and the lines it wrote on stderr so far."""

    url: str
    log: list[str] = field(default_factory=list)


@contextmanager
def http_server(*args: str, env: dict[str, str] | None = None) -> Iterator[Served]:
    """``putnam mcp --transport http --port 0 ARGS`` in the background, keyed with ``KEY`` (``env`` may
    give other keys), up to the URL it announces."""
    argv = mcp_argv("--transport", "http", "--port", "0", *args)
    process = subprocess.Popen(
        argv, env=server_env({**key_env(), **(env or {})}), cwd=REPO, stderr=subprocess.PIPE, text=True
    )
    assert process.stderr is not None
    stream = process.stderr
    reader: threading.Thread | None = None
    try:
        lines: list[str] = []
        for line in stream:
            lines.append(line)
            if "serving streamable HTTP at " in line:
                break
        else:
            raise AssertionError(f"putnam mcp exited ({process.wait()}) without serving: {''.join(lines)}")
        served = Served(lines[-1].split(" at ", 1)[1].strip(), lines)
        reader = threading.Thread(target=lambda: lines.extend(stream), daemon=True)
        reader.start()
        yield served
    finally:
        process.terminate()
        process.wait(timeout=30)
        if reader is not None:
            reader.join(timeout=10)  # the log is complete once the server is gone


def over_http(url: str, session: Session, key: str = KEY) -> None:
    async def main() -> None:
        async with keyed_client(url, key=key) as client:
            await session(client)

    anyio.run(main)


def text(result: Any) -> str:
    return "\n".join(part.text for part in result.content if getattr(part, "type", "") == "text")


def structured(result: Any) -> dict[str, Any]:
    assert not result.is_error, text(result)
    data: dict[str, Any] = result.structured_content or json.loads(text(result))
    return data

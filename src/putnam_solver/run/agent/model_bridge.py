"""A CLI agent starts only once the model proxy it talks to listens.

inspect-swe starts Inspect's model proxy in the sandbox and launches the CLI right after it, without
waiting for the proxy to listen (``sandbox_agent_bridge`` in inspect_ai/agent/_bridge/sandbox/bridge.py
starts it with ``exec_remote`` and yields at once, lines 281-308; inspect_swe/_claude_code/claude_code.py
then launches Claude Code, line 553). On a busy machine the CLI's first request can come first: the
connection is refused, and a CLI whose own retries are off (cli_worker.py turns them off, since Inspect
retries the bridge's calls) stops at once. Claude Code then exits 1 and says on stderr only a
diagnostic about the model's name, so the attempt ended as an ``error`` that named the wrong cause.

The CLI's environment names the proxy: ``ANTHROPIC_BASE_URL`` for Claude Code
(inspect_swe/_claude_code/env.py, ``claude_code_agent_env``), ``OPENAI_BASE_URL`` for Codex
(inspect_swe/_codex_cli/codex_cli.py, ``agent_env``). ``wait_for_bridge`` waits, bounded, until a
loopback address named there accepts a connection.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

import anyio

BRIDGE_URL_VARIABLES = ("ANTHROPIC_BASE_URL", "OPENAI_BASE_URL")
BRIDGE_WAIT_SECONDS = 60.0
_LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
_POLL_SECONDS = 0.05


class ModelBridgeUnavailable(RuntimeError):
    """The model proxy never listened: the agent is not started (its attempt ends as an error)."""


def bridge_address(env: Mapping[str, str]) -> tuple[str, int] | None:
    """The loopback host and port of the model proxy named in a CLI's environment, or None when it names
    none (a command that is not a CLI agent) or one elsewhere, which is not this machine's to wait for."""
    for variable in BRIDGE_URL_VARIABLES:
        url = env.get(variable)
        if not isinstance(url, str) or not url:
            continue
        parts = urlsplit(url)
        try:
            port = parts.port
        except ValueError:
            return None
        if parts.hostname in _LOOPBACK_HOSTS and port is not None:
            return parts.hostname, port
        return None
    return None


async def wait_for_bridge(address: tuple[str, int], seconds: float = BRIDGE_WAIT_SECONDS) -> None:
    """Return once ``address`` accepts a TCP connection; ``ModelBridgeUnavailable`` after ``seconds``."""
    host, port = address
    with anyio.move_on_after(seconds):
        while True:
            try:
                stream = await anyio.connect_tcp(host, port)
            except OSError:
                await anyio.sleep(_POLL_SECONDS)
                continue
            await stream.aclose()
            return
    raise ModelBridgeUnavailable(
        f"the model proxy on {host}:{port} did not accept a connection within {seconds:g} s, so the agent "
        "was not started; the machine may be too busy (run fewer attempts at once with --jobs) or the proxy "
        "failed at start (see the attempt's transcript)"
    )

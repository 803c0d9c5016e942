"""A CLI agent starts only once its model proxy listens (run/agent/model_bridge.py): the race that made
Claude Code stop with "Connection refused" on a busy machine, with real loopback listeners."""

from __future__ import annotations

import json
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import pytest

from putnam_solver.run.agent._inspect import SANDBOX_CLI, LocalSandboxEnvironment
from putnam_solver.run.agent.cli_sandbox import CliLayer, CliSandboxEnvironment
from putnam_solver.run.agent.model_bridge import ModelBridgeUnavailable, bridge_address, wait_for_bridge


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def late_listener(port: int, delay: float) -> Iterator[threading.Event]:
    """A loopback listener on ``port`` that starts ``delay`` seconds from now; the event is set once it
    listens."""
    listening, stop = threading.Event(), threading.Event()

    def serve() -> None:
        time.sleep(delay)
        with socket.socket() as listener:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(("127.0.0.1", port))
            listener.listen(8)
            listener.settimeout(0.1)
            listening.set()
            while not stop.is_set():
                try:
                    listener.accept()[0].close()
                except TimeoutError:
                    continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listening
    finally:
        stop.set()
        thread.join(timeout=5)


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"ANTHROPIC_BASE_URL": "http://localhost:3001"}, ("localhost", 3001)),
        ({"OPENAI_BASE_URL": "http://localhost:3002/v1", "RUST_LOG": "warning"}, ("localhost", 3002)),
        ({"OPENAI_BASE_URL": "http://127.0.0.1:3003/v1"}, ("127.0.0.1", 3003)),
        ({}, None),
        ({"HOME": "/tmp/x"}, None),
        ({"ANTHROPIC_BASE_URL": "https://api.example.org"}, None),
        ({"ANTHROPIC_BASE_URL": "http://10.0.0.2:3001"}, None),
        ({"ANTHROPIC_BASE_URL": "http://localhost:notaport"}, None),
        ({"ANTHROPIC_BASE_URL": ""}, None),
    ],
    ids=["claude", "codex", "ip", "none", "other", "remote", "lan", "bad-port", "empty"],
)
def test_the_proxy_is_the_loopback_address_the_cli_environment_names(
    env: dict[str, str], expected: tuple[str, int] | None
) -> None:
    assert bridge_address(env) == expected


def test_the_wait_ends_when_a_late_proxy_listens() -> None:
    port = free_port()
    with late_listener(port, delay=0.5) as listening:
        started = time.monotonic()
        anyio.run(wait_for_bridge, ("localhost", port), 30.0)
        assert listening.is_set()
        assert time.monotonic() - started >= 0.4


def test_a_proxy_that_never_listens_is_an_error_naming_it() -> None:
    port = free_port()
    with pytest.raises(ModelBridgeUnavailable, match=rf"127\.0\.0\.1:{port} did not accept a connection within 0\.5 s"):
        anyio.run(wait_for_bridge, ("127.0.0.1", port), 0.5)


def _start_request(command: list[str], env: dict[str, str]) -> str:
    """An ``exec_remote_start`` call to Inspect's tool server, as ``exec_remote`` sends it."""
    params = {"command": " ".join(command), "env": env, "cwd": None}
    return json.dumps({"jsonrpc": "2.0", "method": "exec_remote_start", "params": params, "id": 1})


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_the_sandbox_hands_the_cli_to_the_tool_server_only_once_its_proxy_listens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The layer's ``exec`` (how inspect-swe starts the CLI) waits for the proxy; Inspect's tool server is
    replaced by a recorder of what it was handed and whether the proxy listened then."""
    port = free_port()
    handed: list[tuple[dict[str, Any], bool]] = []

    async def tool_server(self: LocalSandboxEnvironment, cmd: list[str], input: str, *args: Any) -> None:
        handed.append((json.loads(input), listening.is_set()))

    monkeypatch.setattr(LocalSandboxEnvironment, "exec", tool_server)
    box = CliSandboxEnvironment(CliLayer(installs=(), path=()))
    try:
        with late_listener(port, delay=0.5) as listening:
            proxy = _start_request([SANDBOX_CLI, "model_proxy"], {"MODEL_SERVICE_PORT": str(port)})
            anyio.run(box.exec, [SANDBOX_CLI, "exec"], proxy)
            cli = _start_request(["bash", "-c", "claude"], {"ANTHROPIC_BASE_URL": f"http://localhost:{port}"})
            anyio.run(box.exec, [SANDBOX_CLI, "exec"], cli)
    finally:
        box.directory.cleanup()
        box.harness_dir.cleanup()
    (proxy_call, proxy_listening), (cli_call, cli_listening) = handed
    assert proxy_call["params"]["command"].endswith("model_proxy") and not proxy_listening, "the proxy is not held"
    assert cli_listening, "the CLI was handed over before its proxy listened"
    assert cli_call["params"]["command"].startswith("/") and "bwrap" in cli_call["params"]["command"]
    assert "env" not in cli_call["params"], "the CLI's environment moved into the layer"

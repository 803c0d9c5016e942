"""``putnam mcp`` answers ``initialize`` before it imports the MCP SDK (``mcp/early_initialize.py``,
``mcp/stdio.py``), with the answer the SDK itself gives, and then hands the session to the SDK with
nothing lost.

The SDK's own answers are the reference: its server as ``putnam mcp`` builds it, run in this process by
the SDK's own ``MCPServer.run_stdio_async`` on the same bytes. The real command runs as a subprocess
over stdio, driven by hand (one JSON-RPC message a line, as the stdio transport frames them) and by the
SDK's client in its initialize-handshake mode (``mode="legacy"``, as Claude Code, Codex and Cursor
connect; its default first probes ``server/discover``, which the SDK answers itself).
"""

from __future__ import annotations

import io
import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client
from mcp.client.stdio import StdioServerParameters

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.mcp import McpSettings, PutnamTools, build_server
from putnam_solver.mcp.early_initialize import initialize_response, server_identity
from tests.helpers import REPO, ROCQ_SAMPLES
from tests.integration.mcp_driver import mcp_argv, server_env, structured
from tests.toylean.build import BENCHMARK as LEAN_SAMPLES

SAMPLES = {"rocq": ROCQ_SAMPLES, "lean": LEAN_SAMPLES}
CLIENT = {"name": "early-test", "version": "1"}
WAIT = 120.0
"""Seconds a test waits for an answer (the machine may be loaded); none is expected to take long."""


def initialize(version: str = "2025-06-18", request_id: Any = 1, **params: Any) -> dict[str, Any]:
    hello = {"protocolVersion": version, "capabilities": {}, "clientInfo": CLIENT, **params}
    return {"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": hello}


INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def lines(*messages: dict[str, Any] | bytes) -> bytes:
    return b"".join(m if isinstance(m, bytes) else json.dumps(m).encode() + b"\n" for m in messages)


class HeldOpen(io.RawIOBase):
    """The client's ``data``, then an end of input only once ``out`` holds ``answers`` lines (or after
    ``WAIT``): the SDK stops serving at the end of its input, cancelling what it has not answered yet."""

    def __init__(self, data: bytes, out: io.BytesIO, answers: int) -> None:
        super().__init__()
        self.data, self.out, self.answers = data, out, answers

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if not self.data:
            deadline = time.monotonic() + WAIT
            while self.out.getvalue().count(b"\n") < self.answers and time.monotonic() < deadline:
                time.sleep(0.01)
            return 0
        chunk, self.data = self.data[: len(buffer)], self.data[len(buffer) :]
        buffer[: len(chunk)] = chunk
        return len(chunk)


def sdk_answers(prover: str, data: bytes, monkeypatch: pytest.MonkeyPatch, answers: int = 1) -> list[dict[str, Any]]:
    """What the SDK's own stdio transport and server write for the client's ``data`` (stdin closed once
    ``answers`` messages are written), the server built as ``putnam mcp --prover PROVER`` builds it:
    ``MCPServer.run_stdio_async`` on standard streams that are no descriptors, which it serves in place
    (``mcp/server/stdio.py``)."""
    settings = McpSettings(get_prover(prover), load_benchmark(SAMPLES[prover]))
    server = build_server(PutnamTools(settings, None))
    out = io.BytesIO()
    with monkeypatch.context() as patch:
        patch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(HeldOpen(data, out, answers))))
        patch.setattr(sys, "stdout", io.TextIOWrapper(out, write_through=True))
        anyio.run(server.run_stdio_async)
        written = out.getvalue()  # before the patched streams go, closing ``out``
    return [json.loads(line) for line in written.splitlines()]


def early_answer(prover: str, data: bytes) -> dict[str, Any] | None:
    return initialize_response(data, server_identity(get_prover(prover).label))


VERSIONS = ("2024-11-05", "2025-06-18", "2025-11-25", "2026-07-28", "1999-01-01", "draft")
"""Asked versions: the oldest the SDK negotiates, one in between, the newest of the handshake, the
modern era's (which has no handshake), and two it does not know."""


@pytest.mark.parametrize("prover", sorted(SAMPLES))
def test_the_early_answer_is_the_sdks_own_for_every_asked_version(prover: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for version in VERSIONS:
        for request_id in (1, 0, -7, "init-1", "é"):
            data = lines(initialize(version, request_id))
            early = early_answer(prover, data)
            assert early is not None, (version, request_id)
            assert sdk_answers(prover, data, monkeypatch) == [early], (version, request_id)
    assert {early_answer(prover, lines(initialize(v)))["result"]["protocolVersion"] for v in VERSIONS} == {  # type: ignore[index]
        "2024-11-05",
        "2025-06-18",
        "2025-11-25",
    }, "a version the handshake knows is answered as asked, any other with the newest"


CLIENTS_AS_THEY_ARE = [
    {"capabilities": {"roots": {"listChanged": True}, "sampling": {}, "elicitation": {}}},  # MCP Inspector
    {"capabilities": {"elicitation": {}}, "clientInfo": {"name": "codex-mcp-client", "title": "Codex", "version": "0"}},
    {"capabilities": {"roots": {}, "experimental": {"x": {}}, "tasks": {"requests": {"sampling": {}}}}},
    {"clientInfo": {"name": "c", "version": "1", "description": "d", "websiteUrl": "https://example.org"}},
]
"""Well-formed requests answered early: capabilities and client descriptions of real clients."""
LEFT_TO_THE_SDK = [
    b"not json\n",
    b"\n",
    lines([initialize()]),  # a batch
    lines(INITIALIZED),
    lines({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
    lines({"jsonrpc": "2.0", "id": 1, "method": "initialize"}),
    lines({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}}),
    lines({**initialize(), "jsonrpc": "1.0"}),
    lines(initialize(request_id=None)),
    lines(initialize(request_id=True)),
    lines(initialize(request_id=1.5)),
    lines(initialize(protocolVersion=20250618)),
    lines(initialize(capabilities={"roots": {"listChanged": "yes"}})),
    lines(initialize(capabilities={"experimental": {"x": True}})),
    lines(initialize(capabilities={"roots": None})),
    lines(initialize(capabilities=[])),
    lines(initialize(capabilities={"experimental": {"x": {"a": {"b": {"c": {"d": {"e": {"f": {}}}}}}}}})),
    b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n",
    lines(initialize(clientInfo={"name": "c"})),
    lines(initialize(clientInfo={"name": "c", "version": 1})),
    lines(initialize(clientInfo={**CLIENT, "icons": [{"src": "https://example.org/i.png"}]})),
    lines(initialize(_meta={"progressToken": 1})),
    lines(initialize(_meta={"io.modelcontextprotocol/protocolVersion": "2026-07-28"})),
    json.dumps(initialize()).encode() + b"\r\n",  # accepted: the SDK's text stream ends the line at \r\n too
    json.dumps(initialize()).replace(", ", ",\r").encode() + b"\n",  # the SDK splits this at each \r
    json.dumps(initialize()).encode(),  # no newline: stdin closed in the middle of the line
    json.dumps(initialize()).replace('"early-test"', '"\\ud800"').encode() + b"\n",  # a lone surrogate
    json.dumps(initialize()).replace('"early-test"', '"\xff"').encode("latin-1") + b"\n",  # not UTF-8
    json.dumps(initialize()).replace('"early-test"', "NaN").encode() + b"\n",
    json.dumps(initialize()).replace('"id": 1', '"id": 1, "id": 2').encode() + b"\n",
]
"""First lines left to the SDK (its answer, its error or its silence), all but one beside a well-formed
initialize: other messages, other shapes, and bytes the SDK might read otherwise than Python's json."""


@pytest.mark.parametrize("prover", sorted(SAMPLES))
def test_what_is_answered_early_is_what_the_sdk_answers_and_the_rest_is_left_to_it(
    prover: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for params in CLIENTS_AS_THEY_ARE:
        data = lines(initialize(**params))
        early = early_answer(prover, data)
        assert early is not None and sdk_answers(prover, data, monkeypatch) == [early], params
    for data in LEFT_TO_THE_SDK:
        early = early_answer(prover, data)
        expected = data.endswith(b"}\r\n")
        assert (early is not None) == expected, data
        if early is not None:
            assert sdk_answers(prover, data, monkeypatch) == [early]


class Server:
    """``putnam mcp ARGS`` started as a stdio client starts it; its messages read as they come."""

    def __init__(self, *args: str, argv: list[str] | None = None) -> None:
        self.proc = subprocess.Popen(
            argv or mcp_argv(*args),
            env=server_env(),
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.messages: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.messages.put(line)
        self.messages.put(b"")

    def send(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def receive(self, count: int) -> list[dict[str, Any]]:
        got = [self.messages.get(timeout=WAIT) for _ in range(count)]
        assert b"" not in got, f"the server ended early: {self.stop()[1]}"
        return [json.loads(line) for line in got]

    def stop(self) -> tuple[list[dict[str, Any]], str]:
        """Close stdin; the messages written after those received, and stderr, once the server ended."""
        assert self.proc.stdin is not None and self.proc.stderr is not None
        self.proc.stdin.close()
        errors = self.proc.stderr.read().decode(errors="replace")
        self.proc.wait(timeout=WAIT)
        rest = []
        while (line := self.messages.get(timeout=WAIT)) != b"":
            rest.append(json.loads(line))
        return rest, errors


@pytest.mark.parametrize("prover", sorted(SAMPLES))
def test_a_client_sending_everything_in_one_write_loses_nothing(prover: str) -> None:
    """initialize, initialized, tools/list and a tool call in one write: the first line is answered
    early, the rest (read along with it into the same buffer) reaches the SDK, and initialize is answered
    once."""
    server = Server("--prover", prover, "--benchmark", str(SAMPLES[prover]))
    call = {"name": "list_problems", "arguments": {"prefix": "sample_" if prover == "rocq" else "toy_"}}
    server.send(
        lines(
            initialize(),
            INITIALIZED,
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
            {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": call},
        )
    )
    answers = {m["id"]: m for m in server.receive(3)}
    rest, errors = server.stop()
    assert server.proc.returncode == 0, errors
    assert rest == [], "no second answer to initialize, nothing else"
    assert answers[1] == early_answer(prover, lines(initialize()))
    assert "verify" in {t["name"] for t in answers[2]["result"]["tools"]}
    listed = json.loads(answers[3]["result"]["content"][0]["text"])
    assert listed["prover"] == prover and listed["problems"], listed


@pytest.mark.parametrize("prover", sorted(SAMPLES))
def test_a_malformed_first_line_gets_what_the_sdk_alone_answers(prover: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An initialize without its capabilities and client, a line that is no JSON, then a well-formed
    initialize and a ping: the server's answers are the SDK's own, in the same order (its error, its
    silence, its answer), and the SDK's answer to the later initialize is not mistaken for a second."""
    data = lines(
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}},
        b"not json\n",
        initialize(request_id=2),
        INITIALIZED,
        {"jsonrpc": "2.0", "id": 3, "method": "ping"},
    )
    expected = sdk_answers(prover, data, monkeypatch, answers=3)
    assert [m["id"] for m in expected] == [1, 2, 3] and "error" in expected[0], expected
    server = Server("--prover", prover, "--benchmark", str(SAMPLES[prover]))
    server.send(data)
    answers = server.receive(3)
    rest, errors = server.stop()
    assert (answers, rest, server.proc.returncode) == (expected, [], 0), errors


HOLD_THE_SDK = """\
import os, sys
held = []
def hold(event, args):
    if event == "import" and args[0].partition(".")[0] in ("mcp", "mcp_types") and not held:
        held.append(args[0])
        with open({gate!r}, "rb") as gate:
            gate.read(1)
sys.addaudithook(hold)
sys.argv[0] = "putnam"
from putnam_solver.cli import main
main()
"""


@pytest.mark.parametrize("prover", sorted(SAMPLES))
def test_the_sdks_client_is_answered_while_the_server_has_not_imported_the_sdk(prover: str, tmp_path: Path) -> None:
    """The server's first import of the SDK is held (an audit hook waits on a FIFO) until the SDK's
    client is connected: its initialize can only have been answered without the SDK. Then the import
    goes on, and tools/list and a tool call are answered by the SDK's server."""
    gate = tmp_path / "gate"
    os.mkfifo(gate)
    launcher = HOLD_THE_SDK.format(gate=str(gate))
    args = ["-c", launcher, "mcp", "--prover", prover, "--benchmark", str(SAMPLES[prover])]
    params = StdioServerParameters(command=sys.executable, args=args, env=server_env(), cwd=str(REPO))
    seen: dict[str, Any] = {}

    async def session() -> None:
        with anyio.fail_after(WAIT):
            async with Client(params, mode="legacy", read_timeout_seconds=WAIT) as client:
                seen["server"] = client.server_info
                release(gate)
                seen["tools"] = {t.name for t in (await client.list_tools()).tools}
                seen["problems"] = structured(await client.call_tool("list_problems", {}))

    anyio.run(session)
    identity = server_identity(get_prover(prover).label)
    assert seen["server"] is not None and (seen["server"].name, seen["server"].version) == (
        identity.name,
        identity.version,
    )
    assert {"list_problems", "get_statement", "check", "verify"} <= seen["tools"]
    assert seen["problems"]["prover"] == prover and seen["problems"]["problems"]


def release(gate: Path) -> None:
    """Let the held import go on: open the FIFO for writing, which succeeds only while the server waits
    on it (the server may still be on its way to the import when its answer arrived)."""
    deadline = time.monotonic() + WAIT
    while True:
        try:
            fd = os.open(gate, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            if time.monotonic() > deadline:
                raise AssertionError("the server never reached its import of the SDK") from None
            time.sleep(0.05)
            continue
        os.write(fd, b"x")
        os.close(fd)
        return


def test_a_server_started_with_its_stdin_closed_says_so() -> None:
    closed = subprocess.run(
        ["sh", "-c", 'exec "$@" 0<&-', "sh", *mcp_argv("--prover", "rocq", "--benchmark", str(ROCQ_SAMPLES))],
        env=server_env(),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert closed.returncode == 2 and "needs its standard input and output" in closed.stderr, closed.stderr
    assert closed.stdout == ""

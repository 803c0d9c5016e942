"""The pieces of ``putnam mcp``'s stdio hand-off (``mcp/stdio.py``): the client's pipe taken over, the
first line answered without the MCP SDK, the input replayed to the SDK with nothing lost, and the SDK's
second answer to that initialize left out only when it is the same answer."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from typing import Any

from putnam_solver.mcp.early_initialize import encoded, initialize_response, server_identity
from putnam_solver.mcp.stdio import Replayed, WithoutSecondAnswer
from tests.helpers import REPO

IDENTITY = server_identity("Rocq (Coq)")
HELLO = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
REQUEST = encoded({"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": HELLO})
ANSWER = initialize_response(REQUEST, IDENTITY)

ANSWER_IN_A_FRESH_INTERPRETER = """\
import json, os, subprocess, sys
from putnam_solver.mcp.early_initialize import server_identity
from putnam_solver.mcp.stdio import EarlyStdio
early = EarlyStdio(server_identity("Rocq (Coq)"))
early.thread.join()
os.write(1, b"written to fd 1\\n")
print("printed", flush=True)
subprocess.run(["echo", "a child's output"], check=True)
sdk = sorted(m for m in sys.modules if m.partition(".")[0] in ("mcp", "mcp_types", "pydantic"))
sys.stderr.write(json.dumps({"sdk": sdk, "stdin": sys.stdin.read()}) + "\\n")
"""


def test_the_first_line_is_answered_without_the_sdk_and_nothing_else_meets_the_pipe() -> None:
    """In a fresh interpreter: the answer comes with no module of the SDK (nor pydantic) loaded; what the
    process and its children print goes to stderr, and they read nothing of the client's input."""
    done = subprocess.run(
        [sys.executable, "-c", ANSWER_IN_A_FRESH_INTERPRETER],
        input=REQUEST + b"the client's next line\n",
        capture_output=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO / "src")},
        timeout=120,
        check=True,
    )
    assert ANSWER is not None and done.stdout == encoded(ANSWER)
    report = json.loads(done.stderr.splitlines()[-1])
    assert report == {"sdk": [], "stdin": ""}
    assert all(line in done.stderr for line in (b"written to fd 1", b"printed", b"a child's output"))


def test_the_sdk_reads_the_first_line_then_what_was_read_along_with_it_then_the_rest() -> None:
    read_end, write_end = os.pipe()
    os.write(write_end, b"first\nsecond\nthird")
    with io.BufferedReader(io.FileIO(read_end, "rb")) as pipe:
        first = pipe.readline()
        os.write(write_end, b" line\nfourth\n")
        os.close(write_end)
        replayed = io.TextIOWrapper(io.BufferedReader(Replayed(first, pipe)), encoding="utf-8")
        assert list(replayed) == ["first\n", "second\n", "third line\n", "fourth\n"]


def written(answered: dict[str, Any] | None, *messages: dict[str, Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """What reaches the client of ``messages`` written as the SDK writes them, and what was reported."""
    out, warnings = io.BytesIO(), []
    stream = WithoutSecondAnswer(out, answered, warnings.append)  # type: ignore[arg-type]
    for message in messages:
        stream.write(json.dumps(message) + "\n")
        stream.flush()
    return [json.loads(line) for line in out.getvalue().splitlines()], warnings


def test_the_sdks_second_answer_is_left_out_once_and_only_when_it_is_the_same() -> None:
    assert ANSWER is not None
    ping = {"jsonrpc": "2.0", "id": 8, "result": {}}
    as_text = {**ANSWER, "id": "7"}
    assert written(ANSWER, ANSWER, ping, ANSWER) == ([ping, ANSWER], []), "once"
    assert written(ANSWER, as_text, ping, ANSWER) == ([as_text, ping], []), "id 7 is not id '7'"
    assert written(None, ANSWER, ping) == ([ANSWER, ping], []), "nothing answered early, nothing left out"
    other = {**ANSWER, "result": {**ANSWER["result"], "protocolVersion": "2025-11-25"}}
    refused = {"jsonrpc": "2.0", "id": 7, "error": {"code": -32602, "message": "Invalid request parameters"}}
    for different in (other, refused):
        reached, warnings = written(ANSWER, different, ANSWER)
        assert reached == [different, ANSWER], "a different answer is the client's to see, and ends the watch"
        assert len(warnings) == 1 and "otherwise than putnam mcp did" in warnings[0]

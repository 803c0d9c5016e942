"""``putnam mcp`` as a user with only the ``mcp`` extra has it: no Inspect AI, no model SDKs.

The server must import nothing of the agent stack (``pip install 'putnambench-solver[mcp]'`` does not
install it, and importing Inspect took seconds of its start), its tools carry read-only annotations,
a call with missing arguments gets our own message, and nothing it answers names a path of the server.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import REPO, ROCQ_SAMPLES
from tests.integration.mcp_driver import server_env, structured, text

AGENT_STACK = ("inspect_ai", "inspect_swe", "openai", "anthropic")
BLOCKED = "import sys\nfor name in {names!r}: sys.modules[name] = None\n"
GOOD = (ROCQ_SAMPLES.parent / "proofs" / "sample_even_square.v").read_text()
WRONG = GOOD.replace("destruct (Nat.even n); reflexivity.", "reflexivity.")
SERVER_PATHS = (tempfile.gettempdir() + "/", str(REPO) + "/", str(Path.home()) + "/")


def test_the_cli_and_the_mcp_server_import_no_agent_module() -> None:
    script = (  # every command's module, not only those `putnam mcp` imports (the CLI imports them lazily)
        "import json, sys\nimport putnam_solver.cli.runs, putnam_solver.cli.services, putnam_solver.cli.setup\n"
        "import putnam_solver.cli.solve, putnam_solver.cli.verify, putnam_solver.mcp.server\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=True)
    loaded = [m for m in json.loads(done.stdout) if m.split(".")[0] in AGENT_STACK]
    assert loaded == []


@NEEDS_ROCQ
def test_putnam_mcp_runs_with_the_agent_stack_uninstalled() -> None:
    """The agent's modules made unimportable, as without the agent extra: the server starts, lists its
    tools as read-only, judges a real Rocq proof and a wrong one, and says itself what a call lacks."""
    launcher = BLOCKED.format(names=AGENT_STACK) + "sys.argv[0] = 'putnam'\nfrom putnam_solver.cli import main\nmain()"
    args = ["-c", launcher, "mcp", "--prover", "rocq", "--benchmark", str(ROCQ_SAMPLES)]
    params = StdioServerParameters(command=sys.executable, args=args, env=server_env(), cwd=str(REPO))
    seen: dict[str, Any] = {}

    async def session() -> None:
        async with Client(params, read_timeout_seconds=300) as client:
            seen["tools"] = (await client.list_tools()).tools
            seen["good"] = structured(
                await client.call_tool("verify", {"problem": "sample_even_square", "proof": GOOD})
            )
            seen["wrong"] = text(await client.call_tool("check", {"problem": "sample_even_square", "proof": WRONG}))
            seen["missing"] = await client.call_tool("check", {"problem": "sample_even_square"})
            seen["bad_line"] = await client.call_tool("goals", {"problem": "sample_even_square", "proof": GOOD})
            seen["unknown"] = await client.call_tool("verify", {"problem": "nope", "proof": GOOD})

    import anyio

    anyio.run(session)
    assert {t.name for t in seen["tools"]} == {
        *("list_problems", "get_statement", "check", "goals", "search", "verify"),
        *("library_search", "find_declarations"),  # Rocq's own search; the ranked one (extra `retrieval`)
    }
    assert all(t.annotations and t.annotations.read_only_hint and t.annotations.idempotent_hint for t in seen["tools"])
    assert seen["good"]["status"] == "accepted" and seen["wrong"].startswith("verdict: rejected")
    missing = seen["missing"]
    assert missing.is_error and text(missing) == (
        "check(problem, proof, track?): missing proof (list_problems gives the problem ids)"
    )
    assert seen["bad_line"].is_error and "goals(problem, proof, line, track?): missing line" in text(seen["bad_line"])
    assert seen["unknown"].is_error and "list_problems" in text(seen["unknown"])
    answers = json.dumps(seen["good"]) + seen["wrong"] + text(seen["unknown"])
    assert [p for p in SERVER_PATHS if p in answers] == [], answers
    assert "coqc" in json.dumps(seen["good"]), "a tool is still named, by its file name"

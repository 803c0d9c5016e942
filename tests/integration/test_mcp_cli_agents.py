"""End to end: Codex and Claude Code, run by ``putnam solve``'s machinery (inspect-swe in the
``putnam-cli`` sandbox layer) against the loopback model server, use ``putnam mcp`` over streamable HTTP
on loopback as an MCP server. The scripted model calls the MCP ``check`` and ``verify`` tools, the
server judges the proof with the real Rocq gates, the CLI hands its answer back to the model, and the
run judges and records the file the agent left.

``putnam solve`` itself never configures an MCP server (its agents have the built-in tools); the tests
add the server where the CLI is started, with inspect-swe's own ``mcp_servers`` option, as a user's
own harness would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")
pytest.importorskip("inspect_swe")

from tests.fakes.openai_server import tool_call_reply
from tests.fakes.scripted_agent import FIXTURE, GOOD, NEEDS_ROCQ
from tests.integration.cli_agents import AGENTS, CODEX, DONE, CliAgent, prepared, tool_output
from tests.integration.mcp_driver import bearer, http_server

pytestmark = NEEDS_ROCQ
PROBLEM = "one_plus_one"
WRONG = GOOD.replace("reflexivity.", "exact I.")


def use_mcp_server(monkeypatch: pytest.MonkeyPatch, agent: str, url: str) -> None:
    """Start the CLI with the ``putnam`` MCP server configured, its key as a header (inspect-swe writes it
    into Codex's ``config.toml`` ``[mcp_servers.putnam]``, or Claude Code's ``--mcp-config``)."""
    import inspect_swe
    from inspect_ai.tool import MCPServerConfigHTTP

    server = MCPServerConfigHTTP(name="putnam", type="http", url=url, headers=bearer())
    name = "codex_cli" if agent == "codex" else "claude_code"
    original = getattr(inspect_swe, name)
    extra: dict[str, Any] = {"approve_static_mcp_tools": True} if agent == "codex" else {}
    # Codex ignores a server's `headers` (what inspect-swe writes for it) and reads `http_headers`
    headers = ", ".join(f'"{field}" = "{value}"' for field, value in bearer().items())
    overrides = {"mcp_servers.putnam.http_headers": f"{{{headers}}}"} if agent == "codex" else {}

    def configured(**kwargs: Any) -> Any:
        if overrides:
            kwargs["config_overrides"] = {**(kwargs.get("config_overrides") or {}), **overrides}
        return original(**kwargs, mcp_servers=[server], **extra)

    monkeypatch.setattr(inspect_swe, name, configured)


@pytest.fixture(params=AGENTS)
def agent(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> CliAgent:
    spec = prepared(request, monkeypatch, tmp_path)
    return spec


def mcp_call(agent: CliAgent, tool: str, arguments: dict[str, Any], call_id: str) -> dict[str, Any]:
    """The model's call of an MCP tool of the ``putnam`` server, under the name the CLI gives it."""
    name = tool if agent is CODEX else f"mcp__putnam__{tool}"
    return tool_call_reply(name, arguments, call_id)


def test_the_cli_agent_checks_and_verifies_through_putnam_mcp(
    agent: CliAgent, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with http_server("--prover", "rocq", "--benchmark", str(FIXTURE)) as served:
        use_mcp_server(monkeypatch, agent.name, served.url)
        fake = agent.fake(
            [
                mcp_call(agent, "check", {"problem": PROBLEM, "proof": WRONG}, "check_wrong"),
                mcp_call(agent, "check", {"problem": PROBLEM, "proof": GOOD}, "check_good"),
                mcp_call(agent, "verify", {"problem": PROBLEM, "proof": GOOD}, "verify_good"),
                agent.write(GOOD),
                DONE,
            ]
        )
        result = agent.solve(tmp_path, fake)[PROBLEM]
    judged = [line.strip() for line in served.log if line.startswith("putnam mcp: ")]
    checks = [line for line in judged if line.startswith(f"putnam mcp: check {PROBLEM} ")]
    assert len(checks) == 2 and "verdict: rejected" in checks[0] and "PASSED" in checks[1], served.log
    assert any(line.startswith(f"putnam mcp: verify {PROBLEM}") and line.endswith(": accepted") for line in judged)
    assert "G4 compile: failed" in tool_output(fake, "check_wrong")
    assert "PASSED the fast gates" in tool_output(fake, "check_good")
    verdict = tool_output(fake, "verify_good")
    shown = verdict.replace('\\"', '"').replace('": "', '":"')  # the verdict JSON, however the CLI quotes it
    assert '"status":"accepted"' in shown and '"id":"G6"' in shown, verdict
    assert result.status == "passed", result.error
    assert result.verdict is not None and result.verdict.accepted and result.candidate == GOOD

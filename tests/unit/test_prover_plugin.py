"""A prover is a plug-in: one ``register_prover`` call, and the CLI and the agent's workspace writer take it.

The toy prover below has text gates only (its statements are a claim line; a candidate keeps the claim
and replaces ``sorry``). Nothing outside this test knows it exists.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from putnam_solver.core import provers
from putnam_solver.core.answer_check import AnswerCheck
from putnam_solver.core.benchmark import Problem, load_benchmark
from putnam_solver.core.provers import InstallRequest, InstallStep, Readiness, gate_readiness, get_prover
from putnam_solver.core.verify import Gate, GateResult, GateStatus, Submission, Track, VerifyOptions

CLAIM = "claim: 1 + 1 = 2\n"


def _result(gate_id: str, name: str, ok: bool, why: str) -> GateResult:
    return GateResult(gate_id, name, GateStatus.PASSED if ok else GateStatus.FAILED, "ok" if ok else why)


def _kept(sub: Submission) -> GateResult:
    return _result("G2", "claim kept", sub.candidate.startswith(sub.challenge.split("\n")[0]), "claim changed")


def _no_sorry(sub: Submission) -> GateResult:
    return _result("G3", "no sorry", "sorry" not in sub.candidate, "the proof is `sorry`")


class ToyProver:
    """The smallest prover the protocol allows: text gates, no tools, nothing to install."""

    name = "toy"
    label = "Toy logic"
    suffix = ".toy"
    benchmark_file = "toy.jsonl"
    selftest_suites: tuple[str, ...] = ()

    def challenge(self, problem: Problem, track: Track) -> str:
        return problem.formal_statement

    def model_statement(self, problem: Problem, track: Track) -> str:
        return problem.formal_statement

    def has_answer(self, problem: Problem) -> bool:
        return False

    def answer_forms(self, problem: Problem) -> list[str]:
        return []

    def policy_text(self) -> str:
        return "Keep the claim line; prove it without sorry."

    def tool_status(self, options: VerifyOptions) -> list[Readiness]:
        return []

    def gates(self) -> Sequence[Gate]:
        return (Gate("G2", "claim kept", _kept), Gate("G3", "no sorry", _no_sorry))

    def answers(self, problem: Problem, candidate: str, track: Track) -> dict[str, Any]:
        return {}

    def check_answers(self, sub: Submission) -> dict[str, AnswerCheck]:
        return {}

    def toolchain_fingerprint(self, options: VerifyOptions) -> str:
        return "toy 1"

    def workspace_files(self) -> dict[str, str]:
        return {"toy.project": "root: .\n"}

    def library_roots(self, options: VerifyOptions) -> tuple[Path, ...]:
        return ()

    def install_plan(self, request: InstallRequest) -> Sequence[InstallStep]:
        return ()


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """Register the toy prover (for this test only) and write its one-problem benchmark."""
    monkeypatch.setattr(provers, "_REGISTRY", dict(provers._REGISTRY))
    provers.register_prover("toy", ToyProver)
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    benchmark = tmp_path / "toy.jsonl"
    benchmark.write_text(json.dumps({"problem_id": "toy_one", "formal_statement": CLAIM + "proof: sorry\n"}) + "\n")
    yield benchmark


def _putnam(*args: str) -> tuple[int, str]:
    """Run the CLI; its exit code and what it printed on stdout."""
    from putnam_solver.cli import app

    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout


def test_cli_lists_shows_policy_and_verifies_with_a_registered_prover(toy: Path, tmp_path: Path) -> None:
    code, out = _putnam("list", "--prover", "toy", "--benchmark", str(toy), "--json")
    assert code == 0 and json.loads(out.splitlines()[-1])["problem"] == "toy_one"
    code, out = _putnam("policy", "--prover", "toy")
    assert code == 0 and "without sorry" in out
    good, bad = tmp_path / "good" / "toy_one.toy", tmp_path / "bad" / "toy_one.toy"
    good.parent.mkdir()
    bad.parent.mkdir()
    good.write_text(CLAIM + "proof: arithmetic\n")
    bad.write_text(CLAIM + "proof: sorry\n")
    verdicts = tmp_path / "verdicts.json"
    code, out = _putnam("verify", "--prover", "toy", "--gates", "text", "--benchmark", str(toy), str(good))
    assert code == 0, out
    code, out = _putnam(
        "verify", "--prover", "toy", "--gates", "text", "--benchmark", str(toy), "--json", str(verdicts), str(bad)
    )
    assert code != 0 and "sorry" in verdicts.read_text()


def test_workspace_and_readiness_come_from_the_registered_prover(toy: Path, tmp_path: Path) -> None:
    from putnam_solver.run.agent.task import prepare_workspaces
    from putnam_solver.run.agent.types import Budgets, SolveConfig

    bench = load_benchmark(toy)
    config = SolveConfig("toy", Track.WITH_ANSWER, "mockllm/model", None, None, "react", "local", 1, 1, Budgets())
    (where,) = prepare_workspaces(list(bench.problems.values()), bench, config, tmp_path / "work")
    assert (where / "ToyOne.toy").read_text() == CLAIM + "proof: sorry\n"
    assert (where / "toy.project").is_file()
    assert "Toy logic" in (where / "PROMPT.md").read_text()
    rows = {r.name.split()[0]: r for r in gate_readiness(get_prover("toy"), VerifyOptions())}
    assert rows["G2"].ok and rows["G3"].ok and not rows["G4"].ok, "a gate the prover lacks is not ready"


def test_the_registry_loads_no_prover_until_asked() -> None:
    code = (
        "import sys, putnam_solver.core.provers as p; "
        "assert p.prover_names() == ('lean', 'rocq'); "
        "assert not [m for m in sys.modules if m.startswith('putnam_solver.core.provers.')], sorted(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)

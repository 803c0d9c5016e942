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
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from putnam_solver.core import provers
from putnam_solver.core.answer_check import AnswerCheck
from putnam_solver.core.benchmark import Problem, load_benchmark
from putnam_solver.core.gatekit import ToolSpec, ToolUnavailable, resolve_tool
from putnam_solver.core.provers import InstallRequest, InstallStep, Readiness, gate_readiness, get_prover
from putnam_solver.core.verify import Gate, GateResult, GateStatus, Submission, Track, VerifyOptions

CLAIM = "claim: 1 + 1 = 2\n"


def _result(gate_id: str, name: str, ok: bool, why: str) -> GateResult:
    return GateResult(gate_id, name, GateStatus.PASSED if ok else GateStatus.FAILED, "ok" if ok else why)


def _kept(sub: Submission) -> GateResult:
    return _result("G2", "claim kept", sub.candidate.startswith(sub.challenge.split("\n")[0]), "claim changed")


def _no_sorry(sub: Submission) -> GateResult:
    return _result("G3", "no sorry", "sorry" not in sub.candidate, "the proof is `sorry`")


TOY_CHECKER = ToolSpec("toycheck", "PUTNAM_TOYCHECK", "the toy logic's checker")


def _checker_found(sub: Submission) -> GateResult:
    """G4 only resolves the toy's checker (running it is not the point): where the user put it."""
    tool = resolve_tool(TOY_CHECKER, sub.options)
    return GateResult("G4", "checker", GateStatus.PASSED, f"{tool.path} ({tool.origin})", {"tool": tool.evidence()})


def _checker_ready(options: VerifyOptions) -> tuple[bool, str]:
    try:
        return True, str(resolve_tool(TOY_CHECKER, options).path)
    except ToolUnavailable as exc:
        return False, str(exc)


class ToyProver:
    """The smallest prover the protocol allows: text gates, a G4 that finds one tool, nothing to install."""

    name = "toy"
    label = "Toy logic"
    suffix = ".toy"
    selftest_suites: tuple[str, ...] = ()
    tools = (TOY_CHECKER,)
    pins: ClassVar[dict[str, str]] = {}

    def challenge(self, problem: Problem, track: Track) -> str:
        return problem.formal_statement

    def model_statement(self, problem: Problem, track: Track) -> str:
        return problem.formal_statement

    def has_answer(self, problem: Problem) -> bool:
        return False

    def answer_forms(self, problem: Problem) -> list[str]:
        return []

    def policy_text(self, options: VerifyOptions) -> str:
        return "Keep the claim line; prove it without sorry."

    def policy_brief(self, options: VerifyOptions) -> str:
        return self.policy_text(options)

    def interactive(self) -> None:
        """No warm checker, proof states or lemma holes: the agent checks with the gates alone."""
        return None

    def tool_status(self, options: VerifyOptions) -> list[Readiness]:
        return []

    def gates(self) -> Sequence[Gate]:
        return (
            Gate("G2", "claim kept", _kept),
            Gate("G3", "no sorry", _no_sorry),
            Gate("G4", "checker", _checker_found, _checker_ready),
        )

    def answers(self, problem: Problem, candidate: str, track: Track) -> dict[str, Any]:
        return {}

    def check_answers(self, sub: Submission) -> dict[str, AnswerCheck]:
        return {}

    def toolchain_fingerprint(self, options: VerifyOptions) -> str:
        return "toy 1"

    def toolchain_version(self, options: VerifyOptions) -> str | None:
        return "1"

    def workspace_files(self, options: VerifyOptions) -> dict[str, str]:
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


def _app() -> Any:
    from putnam_solver.cli import app

    return app


def _putnam(*args: str) -> tuple[int, str]:
    """Run the CLI; its exit code and what it printed on stdout."""
    result = CliRunner().invoke(_app(), list(args))
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
    assert rows["G2"].ok and rows["G3"].ok and not rows["G5"].ok, "a gate the prover lacks is not ready"


def _gate(verdicts: Path, gate_id: str) -> dict[str, Any]:
    (result,) = json.loads(verdicts.read_text())["results"]
    gate: dict[str, Any] = next(g for g in result["gates"] if g["id"] == gate_id)
    return gate


def test_a_registered_prover_declares_its_tools_and_the_user_chooses_them(
    toy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--tool NAME=PATH`` reaches a new prover's gate with no edit outside the prover; its
    environment variable does the same; a name no prover runs is refused, naming the choices."""
    monkeypatch.delenv("PUTNAM_TOYCHECK", raising=False)
    checker = tmp_path / "bin" / "toycheck"
    checker.parent.mkdir()
    checker.write_text("#!/bin/sh\nexit 0\n")
    checker.chmod(0o755)
    good = tmp_path / "toy_one.toy"
    good.write_text(CLAIM + "proof: arithmetic\n")
    verdicts = tmp_path / "verdicts.json"
    args = ["verify", "--prover", "toy", "--gates", "fast", "--benchmark", str(toy), "--json", str(verdicts), str(good)]
    code, out = _putnam(*args[:-1], "--tool", f"toycheck={checker}", str(good))
    assert code == 0, out
    g4 = _gate(verdicts, "G4")
    assert g4["evidence"]["tool"]["path"] == str(checker) and g4["evidence"]["tool"]["origin"] == "--tool toycheck"
    monkeypatch.setenv("PUTNAM_TOYCHECK", str(checker))
    code, out = _putnam(*args, "--no-cache")
    assert code == 0, out
    assert _gate(verdicts, "G4")["evidence"]["tool"]["origin"] == "PUTNAM_TOYCHECK"
    code, out = _putnam("doctor", "--prover", "toy")
    assert "choose toycheck: --tool toycheck=PATH or PUTNAM_TOYCHECK=PATH" in out
    result = CliRunner().invoke(_app(), [*args[:-1], "--tool", "nosuch=/bin/true", str(good)])
    assert result.exit_code == 2 and "no prover runs a tool 'nosuch'" in result.output
    assert "toycheck" in result.output and "coqc" in result.output


def test_the_registry_loads_no_prover_until_asked() -> None:
    code = (
        "import sys, putnam_solver.core.provers as p; "
        "assert p.prover_names() == ('lean', 'rocq'); "
        "assert not [m for m in sys.modules if m.startswith('putnam_solver.core.provers.')], sorted(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)

"""The gate pipeline folds gate results into a verdict and fails closed."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.core import text_gates
from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.cache import VerdictCache
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Gate, GateResult, GateStatus, Profile, Submission, Track, VerifyOptions, run_gates
from putnam_solver.verifier.candidates import Candidate, exit_code, verify_candidates


@pytest.fixture(autouse=True)
def _text_gates_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scripted prover's gates are closures of this module, which a worker process cannot load: the
    pipeline's own rules are tested with the text job run here (the worker: test_text_gate_bounds.py)."""
    monkeypatch.setattr(text_gates, "run_text_gates", text_gates.text_job)


@dataclass
class ScriptedProver:
    """A prover whose gates return what the test says, to exercise the pipeline's own rules."""

    outcomes: dict[str, GateStatus | Exception]
    calls: list[str] = field(default_factory=list)
    name: str = "scripted"
    suffix: str = ".txt"

    def challenge(self, problem: Any, track: Track) -> str:
        return problem.formal_statement

    def model_statement(self, problem: Any, track: Track) -> str:
        return problem.formal_statement

    def has_answer(self, problem: Any) -> bool:
        return False

    def policy_text(self, options: VerifyOptions) -> str:
        return ""

    def answers(self, problem: Any, candidate: str, track: Track) -> dict[str, Any]:
        return {}

    def toolchain_fingerprint(self, options: VerifyOptions) -> str:
        return "scripted-1"

    def gates(self) -> Sequence[Gate]:
        return [Gate(gid, f"gate {gid}", self._check(gid)) for gid in self.outcomes]

    def _check(self, gate_id: str) -> Any:
        def check(sub: Submission) -> GateResult:
            self.calls.append(gate_id)
            outcome = self.outcomes[gate_id]
            if isinstance(outcome, Exception):
                raise outcome
            assert sub.scratch.is_dir()
            return GateResult(gate_id, f"gate {gate_id}", outcome, "scripted")

        return check


@pytest.fixture
def bench(tmp_path: Path) -> Any:
    path = tmp_path / "b.jsonl"
    path.write_text(json.dumps({"problem_id": "p1", "formal_statement": "stmt"}) + "\n", encoding="utf-8")
    return load_benchmark(path)


def _run(prover: ScriptedProver, bench: Any, profile: Profile = Profile.FULL, **kw: Any) -> Any:
    options = VerifyOptions(profile=profile, **kw)
    return run_gates(prover, bench, bench.problems["p1"], b"proof", Track.WITH_ANSWER, options)


ALL_PASS = {g: GateStatus.PASSED for g in ("G2", "G3", "G4", "G5", "G6")}


def test_all_gates_passing_is_accepted(bench: Any) -> None:
    verdict = _run(ScriptedProver(dict(ALL_PASS)), bench)
    assert verdict.status == "accepted"
    assert [g.id for g in verdict.gates] == ["G1", "G2", "G3", "G4", "G5", "G6"]
    assert not verdict.benchmark_pinned
    assert "UNPINNED" in verdict.gates[0].detail


def test_profiles_choose_gates(bench: Any) -> None:
    prover = ScriptedProver(dict(ALL_PASS))
    assert [g.id for g in _run(prover, bench, Profile.TEXT).gates] == ["G1", "G2", "G3"]
    assert [g.id for g in _run(prover, bench, Profile.FAST).gates] == ["G1", "G2", "G3", "G4"]


def test_a_gate_the_prover_lacks_is_unavailable_not_a_pass(bench: Any) -> None:
    verdict = _run(ScriptedProver(dict(ALL_PASS)), bench, axle=True)
    assert verdict.status == "error"
    assert any(g.id == "G7" and g.status is GateStatus.UNAVAILABLE for g in verdict.gates)


def test_a_crashing_gate_is_an_error(bench: Any) -> None:
    verdict = _run(ScriptedProver({**ALL_PASS, "G4": RuntimeError("boom")}), bench)
    assert verdict.status == "error"
    crashed = next(g for g in verdict.gates if g.id == "G4")
    assert crashed.status is GateStatus.ERROR and "RuntimeError: boom" in crashed.detail


@pytest.mark.parametrize("status", [GateStatus.ERROR, GateStatus.UNAVAILABLE])
def test_undecided_gates_never_accept(bench: Any, status: GateStatus) -> None:
    assert _run(ScriptedProver({**ALL_PASS, "G6": status}), bench).status == "error"


def test_text_failure_stops_heavy_gates_unless_keep_going(bench: Any) -> None:
    prover = ScriptedProver({**ALL_PASS, "G2": GateStatus.FAILED})
    verdict = _run(prover, bench)
    assert verdict.status == "rejected"
    assert prover.calls == ["G2", "G3"]
    prover.calls.clear()
    assert _run(prover, bench, keep_going=True).status == "rejected"
    assert prover.calls == ["G2", "G3", "G4", "G5", "G6"]


def test_empty_and_non_utf8_candidates_are_input_errors(bench: Any) -> None:
    prover = ScriptedProver(dict(ALL_PASS))
    options = VerifyOptions()
    with pytest.raises(InputError, match=r"cand.lean: the candidate file is empty"):
        run_gates(prover, bench, bench.problems["p1"], b" \n", Track.WITH_ANSWER, options, "cand.lean")
    with pytest.raises(InputError, match=r"cand.lean: not UTF-8 text"):
        run_gates(prover, bench, bench.problems["p1"], b"\xff\xfe", Track.WITH_ANSWER, options, "cand.lean")


def test_cache_reuses_decided_verdicts_only(bench: Any, tmp_path: Path) -> None:
    cache = VerdictCache(tmp_path / "cache")
    candidate = Candidate(tmp_path / "p1.txt", bench.problems["p1"], b"proof")
    prover = ScriptedProver(dict(ALL_PASS))
    first = verify_candidates([candidate], prover, bench, Track.WITH_ANSWER, VerifyOptions(), 1, cache)
    assert not first[0].cached and first[0].accepted
    calls = len(prover.calls)
    second = verify_candidates([candidate], prover, bench, Track.WITH_ANSWER, VerifyOptions(), 1, cache)
    assert second[0].cached and second[0].accepted and len(prover.calls) == calls
    other = Candidate(candidate.path, candidate.problem, b"other proof")
    assert not verify_candidates([other], prover, bench, Track.WITH_ANSWER, VerifyOptions(), 1, cache)[0].cached
    flaky = ScriptedProver({**ALL_PASS, "G4": GateStatus.ERROR})
    for _ in range(2):
        result = verify_candidates([other], flaky, bench, Track.NO_ANSWER, VerifyOptions(), 1, cache)
        assert not result[0].cached and result[0].status == "error"


def test_exit_codes() -> None:
    class V:
        def __init__(self, status: str) -> None:
            self.status, self.accepted = status, status == "accepted"

    assert exit_code([V("accepted")]) == 0  # type: ignore[list-item]
    assert exit_code([V("accepted"), V("rejected")]) == 1  # type: ignore[list-item]
    assert exit_code([V("rejected"), V("error")]) == 2  # type: ignore[list-item]

"""Red-team candidates run for real: the toy Lean shows what Lean makes of them, the gates must agree.

Each hole the red team found in the text gates has a candidate here that Lean compiles cleanly and
whose theorem depends on no forbidden axiom, so G4 and G5 pass it: only G2/G3 (and G6, not installed
here) stand between it and acceptance. The tests assert both halves, so that if Lean ever stops
reading a trick the way the exploit needs, the test says so instead of silently testing nothing.
Attacks that G4/G5 already stopped on their own are kept as regressions for those gates.
"""

from __future__ import annotations

import json

import pytest

from putnam_solver.core.benchmark import Benchmark, load_benchmark
from putnam_solver.core.provers.lean import LeanProver
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import needs_sandbox
from tests.toylean.build import BENCHMARK, CANDIDATES, VALID, ToyLean

pytestmark = needs_sandbox
AUTO_BOUND = "theorem toy_auto : Eq a b := sorry\n"
"""A statement whose ``a`` and ``b`` are auto-bound implicits: "any two values are equal" (false)."""


@pytest.fixture
def toy_env(toy_lean: ToyLean, monkeypatch: pytest.MonkeyPatch) -> ToyLean:
    for name, value in toy_lean.env.items():
        monkeypatch.setenv(name, value)
    return toy_lean


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Benchmark:
    """The Lean samples plus ``toy_auto``, written as a benchmark file of its own (unpinned)."""
    path = tmp_path_factory.mktemp("bench") / "redteam.jsonl"
    record = {"problem_id": "toy_auto", "formal_statement": AUTO_BOUND, "informal_statement": None}
    path.write_text(BENCHMARK.read_text(encoding="utf-8") + json.dumps(record) + "\n", encoding="utf-8")
    return load_benchmark(path)


def verify(bench: Benchmark, problem_id: str, candidate: bytes) -> Verdict:
    """The full profile: G1-G5 run here, G6 reports itself unavailable."""
    options = VerifyOptions(Profile.FULL, keep_going=True)
    return run_gates(LeanProver(), bench, bench.problems[problem_id], candidate, Track.WITH_ANSWER, options)


def statuses(verdict: Verdict) -> dict[str, GateStatus]:
    return {g.id: g.status for g in verdict.gates}


def detail(verdict: Verdict, gate: str) -> str:
    return next(g.detail for g in verdict.gates if g.id == gate)


def invalid(case: str) -> bytes:
    return (CANDIDATES / "invalid" / f"{case}.lean").read_bytes()


# Holes: Lean accepts these (G4, G5 pass); the text gates must not.
HOLES = {
    # `/--/` opens a doc comment in Lean and `/-/- -/` is one whole comment: the theorem the text gates
    # used to compare sat in Lean's doc comment, and Lean compiled a theorem of `True` instead.
    "comment_hides_theorem": ("toy_and_comm", "G2", "`toy_and_comm`: differs from the challenge"),
    # An `open` glued to the end of a helper's body is a new command for Lean: `choice` is resolved.
    "glued_open": ("toy_choice", "G2", "`open`: without `... in` this starts a new command"),
    # Helpers named like the statement's auto-bound variables turn "all a b are equal" into "0 = 0".
    "auto_bound_shadowed": ("toy_auto", "G2", "`a`: is a name the challenge uses"),
}


@pytest.mark.parametrize("case", sorted(HOLES))
def test_a_candidate_lean_accepts_with_another_meaning_is_rejected(
    toy_env: ToyLean, bench: Benchmark, case: str
) -> None:
    problem_id, gate, needle = HOLES[case]
    verdict = verify(bench, problem_id, invalid(case))
    found = statuses(verdict)
    assert (found["G4"], found["G5"]) == (GateStatus.PASSED, GateStatus.PASSED), verdict.first_problem()
    assert verdict.status == "rejected"
    assert found[gate] is GateStatus.FAILED
    assert needle in detail(verdict, gate)


def test_crlf_line_endings_are_accepted_like_lean_accepts_them(toy_env: ToyLean, bench: Benchmark) -> None:
    """Lean reads ``\\r\\n`` as a line break; a candidate saved with CRLF is the same candidate."""
    text = (VALID / "toy_and_comm.lean").read_text(encoding="utf-8").replace("\n", "\r\n")
    found = statuses(verify(bench, "toy_and_comm", text.encode("utf-8")))
    assert {g: found[g] for g in ("G1", "G2", "G3", "G4", "G5")} == dict.fromkeys(
        ("G1", "G2", "G3", "G4", "G5"), GateStatus.PASSED
    )


# Already stopped by G4/G5 on their own (the text gates reject them too).
STOPPED = {
    "axiom_escaped_name": ("G5", "outside the allowed set: «propext, Quot.sound»"),
    "axiom_private": ("G5", "outside the allowed set: Toy.propext✝"),
    "helper_named_axioms": ("G5", "outside the allowed set: toy_cheat"),
    "declared_twice": ("G4", "`toy_and_comm` has already been declared"),
}


@pytest.mark.parametrize("case", sorted(STOPPED))
def test_attacks_the_lean_gates_stop_on_their_own(toy_env: ToyLean, bench: Benchmark, case: str) -> None:
    gate, needle = STOPPED[case]
    verdict = verify(bench, "toy_and_comm", invalid(case))
    assert statuses(verdict)[gate] is GateStatus.FAILED
    assert needle in detail(verdict, gate)
    assert verdict.status == "rejected"

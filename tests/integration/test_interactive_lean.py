"""Lean's warm checker (``lean --server``) and proof states, against the toy Lean in the sandbox.

The toy Lean is a real Lean 4 (elaborator, kernel, language server) with a small prelude: term proofs,
and tactic proofs through the tactics built into the elaborator (``match``). A warm check must give every
candidate the verdict the cold gates give it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from putnam_solver.kits.interactive import ProofState
from putnam_solver.kits.sessions import SessionPool, check_file, proof_state
from putnam_solver.run.agent.tools import format_check
from tests.helpers import needs_sandbox
from tests.toylean.build import BENCHMARK as TOY_BENCHMARK
from tests.toylean.build import VALID, ToyLean

BENCHMARK = TOY_BENCHMARK
"""What the ``bench`` fixture (conftest.py) loads for this module."""
pytestmark = needs_sandbox

LEAN = get_prover("lean")
PROBLEM = "toy_and_comm"
GOOD = (VALID / f"{PROBLEM}.lean").read_text()
STATEMENT = "theorem toy_and_comm (p q : Prop) (h : And p q) : And q p := "
TACTIC = STATEMENT + "by\n  match h with\n  | ⟨a, b⟩ => ?_\n"
HELPER = "theorem swap_and (h : And p q) : And q p := And.intro h.right h.left\n\n"
CANDIDATES = {
    "good": GOOD,
    "type mismatch": GOOD.replace("And.intro h.right h.left", "And.intro h.left h.right"),
    "unsolved goals": TACTIC,
    "does not parse": STATEMENT + "And.intro h.right h.left =>\n",  # brackets matched: G3 refuses unmatched ones
    "needs autoImplicit": HELPER + STATEMENT + "swap_and h\n",
    "sorry": STATEMENT + "sorry\n",
    "edited statement": GOOD.replace("And q p :=", "And p p :=").replace("h.right h.left", "h.left h.left"),
}
OPTIONS = VerifyOptions(profile=Profile.FAST, acceptance=Profile.FULL, timeout_seconds=120)


@pytest.fixture(scope="module")
def toy_env(toy_lean: ToyLean) -> Iterator[None]:
    patch = pytest.MonkeyPatch()
    for name, value in toy_lean.env.items():
        patch.setenv(name, value)
    patch.setenv("PUTNAM_TOOLCHAIN_DIR", "/nonexistent-putnam-toolchain")
    yield
    patch.undo()


@pytest.fixture(scope="module")
def pool(toy_env: None) -> Iterator[SessionPool]:
    pool = SessionPool(max_sessions=1)
    yield pool
    pool.close()


def state_at(bench: Benchmark, text: str, line: int, pool: SessionPool) -> ProofState | str:
    return proof_state(LEAN, bench, bench.problems[PROBLEM], text, line, Track.WITH_ANSWER, OPTIONS, pool)


def gates(verdict: object) -> list[tuple[str, str]]:
    return [(g.id, g.status.value) for g in verdict.gates]  # type: ignore[attr-defined]


def test_warm_checks_give_every_candidate_the_cold_verdict(bench: Benchmark, pool: SessionPool) -> None:
    problem = bench.problems[PROBLEM]
    warm_used = set()
    for name, candidate in CANDIDATES.items():
        cold = run_gates(LEAN, bench, problem, candidate.encode(), Track.WITH_ANSWER, OPTIONS)
        warm = check_file(LEAN, bench, problem, candidate, Track.WITH_ANSWER, OPTIONS, pool)
        assert (name, warm.verdict.status, gates(warm.verdict)) == (name, cold.status, gates(cold))
        if warm.warm:
            warm_used.add(name)
    assert {"good", "type mismatch", "unsolved goals", "does not parse", "needs autoImplicit"} <= warm_used
    assert pool.started == 1, "one language server served every warm check"


def test_unsolved_goals_reach_the_check_with_the_goals(bench: Benchmark, pool: SessionPool) -> None:
    outcome = check_file(LEAN, bench, bench.problems[PROBLEM], TACTIC, Track.WITH_ANSWER, OPTIONS, pool)
    g4 = outcome.verdict.gates[-1]
    assert outcome.warm and g4.status.value == "failed"
    assert "unsolved goals" in g4.detail and "a : p" in g4.detail and "⊢ And q p" in g4.detail


def test_a_draft_with_a_sorry_helper_is_compiled_and_its_hole_listed(bench: Benchmark, pool: SessionPool) -> None:
    draft = "theorem swap_and {p q : Prop} (h : And p q) : And q p := sorry\n\n" + STATEMENT + "swap_and h\n"
    outcome = check_file(LEAN, bench, bench.problems[PROBLEM], draft, Track.WITH_ANSWER, OPTIONS, pool)
    assert outcome.verdict.status == "rejected" and [h.name for h in outcome.holes] == ["swap_and"]
    assert outcome.draft is not None and "sorry" in outcome.draft.detail, "only the hole is left"


def test_goals_in_the_middle_of_a_tactic_proof(bench: Benchmark, pool: SessionPool) -> None:
    state = state_at(bench, TACTIC, 3, pool)
    assert isinstance(state, ProofState)
    assert state.goals is not None and "a : p" in state.goals and "b : q" in state.goals
    assert "⊢ And q p" in state.goals


def test_goals_in_a_term_proof(bench: Benchmark, pool: SessionPool) -> None:
    state = state_at(bench, STATEMENT + "\n  And.intro h.right h.left\n", 2, pool)
    assert isinstance(state, ProofState)
    assert state.goals is not None and "term mode" in state.goals and "h : And p q" in state.goals


def test_goals_at_a_line_outside_the_file(bench: Benchmark, pool: SessionPool) -> None:
    for line in (0, 4):
        state = state_at(bench, TACTIC, line, pool)
        assert isinstance(state, ProofState)
        assert state.goals is None and "outside the file" in state.note


def test_goals_of_a_file_that_does_not_parse(bench: Benchmark, pool: SessionPool) -> None:
    broken = STATEMENT + "by\n  match h with\n  | ⟨a, b⟩ => => ?_\n"
    state = state_at(bench, broken, 3, pool)
    assert isinstance(state, ProofState)
    assert state.messages and state.messages[0].severity == "error" and state.messages[0].line == 3


def test_a_warm_check_elaborates_with_the_benchmarks_own_lean_options(bench: Benchmark, pool: SessionPool) -> None:
    """miniF2F and ProofNet keep Lean's defaults (autoImplicit on) where PutnamBench turns it off: a warm
    check follows the problem's options, as G4 does, so it judges as the acceptance will."""
    problem = bench.problems[PROBLEM]
    lean_defaults = dataclasses.replace(problem, format=dataclasses.replace(problem.format, lean_options=()))
    candidate = CANDIDATES["needs autoImplicit"]
    statuses = {}
    for chosen in (problem, lean_defaults):
        cold = run_gates(LEAN, bench, chosen, candidate.encode(), Track.WITH_ANSWER, OPTIONS)
        warm = check_file(LEAN, bench, chosen, candidate, Track.WITH_ANSWER, OPTIONS, pool)
        assert warm.warm and (warm.verdict.status, gates(warm.verdict)) == (cold.status, gates(cold))
        statuses[chosen.format.lean_options] = cold.status
    assert statuses == {(("autoImplicit", False),): "rejected", (): "accepted"}


def test_what_a_search_tactic_suggests_reaches_the_check(bench: Benchmark, pool: SessionPool) -> None:
    """Lean's ``exact?``/``apply?``/``rw?``/``simp?``/``hint`` answer with an information message
    "Try this: ..." that the prompt tells the model to paste in: ``check`` passes it back, with its line.
    (The toy Lean has no search tactics; a ``#print`` makes the same kind of message.)"""
    suggested = GOOD + '#print "Try this: exact And.intro h.right h.left"\n'
    outcome = check_file(LEAN, bench, bench.problems[PROBLEM], suggested, Track.WITH_ANSWER, OPTIONS, pool)
    if not outcome.warm:
        pytest.skip(f"the text gates refuse the #print used here: {outcome.verdict.status}")
    assert [(m.line, m.text) for m in outcome.suggestions] == [(2, "Try this: exact And.intro h.right h.left")]
    text = format_check(outcome, suggested)
    assert "Suggestions the search tactics printed" in text and "line 2: Try this: exact And.intro" in text


def test_a_check_judged_by_the_fast_profile_runs_the_cold_statement_check(bench: Benchmark, pool: SessionPool) -> None:
    """Where the acceptance runs no G6 (miniF2F's fast profile), the cold G4 also checks the theorem's type
    in a clean scope, which a session's compile does not: the check goes cold and reports that check."""
    fast = VerifyOptions(profile=Profile.FAST, acceptance=Profile.FAST, timeout_seconds=120)
    outcome = check_file(LEAN, bench, bench.problems[PROBLEM], GOOD, Track.WITH_ANSWER, fast, pool)
    g4 = next(g for g in outcome.verdict.gates if g.id == "G4")
    assert not outcome.warm
    assert g4.passed and "the pinned statement's type" in g4.detail
    judged_by_full = check_file(LEAN, bench, bench.problems[PROBLEM], GOOD, Track.WITH_ANSWER, OPTIONS, pool)
    assert judged_by_full.warm

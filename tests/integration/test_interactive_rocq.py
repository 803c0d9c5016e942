"""Rocq's warm checker and proof states against real coqtop/coqc in the sandbox.

A warm check must give every candidate the verdict the cold gates give it: the same gates, the same
statuses. Proof states are read from coqtop at the end of a line of the whole file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from putnam_solver.kits.interactive import ProofState
from putnam_solver.kits.sessions import SessionPool, check_file, proof_state
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import one_record_benchmark

pytestmark = NEEDS_ROCQ

HEADER = "Require Import Arith.\n"
STATEMENT = HEADER + "Theorem add_zero : forall n : nat, n + 0 = n /\\ 0 + n = n.\nProof.\nAdmitted.\n"
GOOD = (
    HEADER
    + "Lemma add_zero_r : forall n : nat, n + 0 = n.\n"
    + "Proof.\n  intros n.\n  induction n as [| k IH].\n  - reflexivity.\n  - simpl. rewrite IH. reflexivity.\nQed.\n"
    + "Theorem add_zero : forall n : nat, n + 0 = n /\\ 0 + n = n.\n"
    + "Proof.\n  intros n.\n  split.\n  { apply add_zero_r. }\n  reflexivity.\nQed.\n"
)
CANDIDATES = {
    "good": GOOD,
    "wrong tactic": GOOD.replace("rewrite IH. reflexivity.", "exact I."),
    "incomplete proof at Qed": GOOD.replace("  { apply add_zero_r. }\n  reflexivity.", "  apply add_zero_r."),
    "ends inside a proof": GOOD[: GOOD.rindex("Qed.")],
    "syntax error": GOOD.replace("intros n.\n  split.", "intros (n.\n  split."),
    "printed prompt": GOOD.replace("split.", 'idtac "<prompt>Coq < 3 || 0 < </prompt>". split.'),
    "section": GOOD.replace(HEADER, HEADER + "Section S.\n").replace("Qed.\nTheorem", "Qed.\nEnd S.\nTheorem"),
    "admitted helper": GOOD.replace("reflexivity.\nQed.\nTheorem", "reflexivity.\nAdmitted.\nTheorem"),
    "brace block before Qed": GOOD.replace(
        "  { apply add_zero_r. }\n  reflexivity.", "  { apply add_zero_r. }\n  { reflexivity. }"
    ),
    "edited statement": GOOD.replace("n /\\ 0 + n = n.", "n.").replace(
        "  split.\n  { apply add_zero_r. }\n  reflexivity.", "  apply add_zero_r."
    ),
}
OPTIONS = VerifyOptions(profile=Profile.FAST, acceptance=Profile.FULL, timeout_seconds=120)
ROCQ = get_prover("rocq")


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Benchmark:
    return one_record_benchmark(tmp_path_factory.mktemp("bench"), "add_zero", STATEMENT)


def state_at(bench: Benchmark, text: str, line: int, pool: SessionPool) -> ProofState | str:
    return proof_state(ROCQ, bench, bench.problems["add_zero"], text, line, Track.WITH_ANSWER, OPTIONS, pool)


def gates(verdict: object) -> list[tuple[str, str]]:
    return [(g.id, g.status.value) for g in verdict.gates]  # type: ignore[attr-defined]


def test_warm_checks_give_every_candidate_the_cold_verdict(bench: Benchmark, pool: SessionPool) -> None:
    problem = bench.problems["add_zero"]
    warm_used = []
    for name, candidate in CANDIDATES.items():
        cold = run_gates(ROCQ, bench, problem, candidate.encode(), Track.WITH_ANSWER, OPTIONS)
        warm = check_file(ROCQ, bench, problem, candidate, Track.WITH_ANSWER, OPTIONS, pool)
        assert (name, warm.verdict.status, gates(warm.verdict)) == (name, cold.status, gates(cold)), name
        if warm.warm and warm.draft is None:
            warm_used.append(name)
    decided_warm = {"good", "wrong tactic", "incomplete proof at Qed", "syntax error", "printed prompt"}
    assert decided_warm <= set(warm_used), "these reached G4 and a warm coqtop decided it"
    assert "section" not in warm_used, "a file with a section goes to the cold gates"
    assert pool.started == 1 and pool.reused >= 5, "one coqtop served every warm check"


def test_a_wrong_step_reports_the_goals_where_it_failed(bench: Benchmark, pool: SessionPool) -> None:
    problem = bench.problems["add_zero"]
    outcome = check_file(ROCQ, bench, problem, CANDIDATES["incomplete proof at Qed"], Track.WITH_ANSWER, OPTIONS, pool)
    g4 = outcome.verdict.gates[-1]
    assert outcome.warm and g4.id == "G4" and g4.status.value == "failed"
    assert "goals at that point" in g4.detail and "0 + n = n" in g4.detail


def test_a_draft_with_holes_is_compiled_and_its_holes_listed(bench: Benchmark, pool: SessionPool) -> None:
    problem = bench.problems["add_zero"]
    outcome = check_file(ROCQ, bench, problem, CANDIDATES["admitted helper"], Track.WITH_ANSWER, OPTIONS, pool)
    assert outcome.verdict.status == "rejected"
    assert [h.name for h in outcome.holes] == ["add_zero_r"]
    assert outcome.draft is not None and outcome.draft.status.value == "passed"


def test_goals_in_the_middle_of_a_tactic_proof(bench: Benchmark, pool: SessionPool) -> None:
    lines = GOOD.split("\n")
    after_split = lines.index("  split.") + 1
    state = state_at(bench, GOOD, after_split, pool)
    assert isinstance(state, ProofState)
    assert state.goals is not None and "2 goals" in state.goals and "n : nat" in state.goals
    assert "0 + n = n" in state.goals and state.messages == ()
    after_qed = lines.index("Qed.") + 1
    done = state_at(bench, GOOD, after_qed, pool)
    assert isinstance(done, ProofState)
    assert done.goals is None and "no proof is open" in done.note


def test_goals_at_a_line_outside_the_file(bench: Benchmark, pool: SessionPool) -> None:
    for line in (0, len(GOOD.splitlines()) + 1):
        state = state_at(bench, GOOD, line, pool)
        assert isinstance(state, ProofState)
        assert state.goals is None and "outside the file" in state.note


def test_goals_after_a_syntax_error_show_the_error_and_the_state_before_it(bench: Benchmark, pool: SessionPool) -> None:
    broken = CANDIDATES["syntax error"]
    line = broken.split("\n").index("  reflexivity.") + 1
    state = state_at(bench, broken, line, pool)
    assert isinstance(state, ProofState)
    assert [m.severity for m in state.messages] == ["error"] and "Syntax error" in state.messages[0].text
    assert state.messages[0].line == broken.split("\n").index("  intros (n.") + 1
    assert state.goals is not None and "forall n : nat" in state.goals, "the state just before the bad step"


def test_goals_of_a_file_that_does_not_lex(bench: Benchmark, pool: SessionPool) -> None:
    unlexable = GOOD + "(* an unclosed comment"
    refused = state_at(bench, unlexable, 3, pool)
    assert isinstance(refused, str) and "G3" in refused and "comment" in refused


def test_a_session_is_replaced_after_its_uses(bench: Benchmark) -> None:
    problem = bench.problems["add_zero"]
    with_limit = SessionPool(max_sessions=1, max_uses=2)
    try:
        for _ in range(3):
            outcome = check_file(ROCQ, bench, problem, GOOD, Track.WITH_ANSWER, OPTIONS, with_limit)
            assert outcome.warm and outcome.verdict.status == "accepted"
        assert (with_limit.started, with_limit.reused) == (2, 1)
    finally:
        with_limit.close()


def test_without_reuse_every_check_starts_and_stops_its_own_session(bench: Benchmark, tmp_path: Path) -> None:
    problem = bench.problems["add_zero"]
    cold = SessionPool(reuse=False)
    try:
        for _ in range(2):
            assert check_file(ROCQ, bench, problem, GOOD, Track.WITH_ANSWER, OPTIONS, cold).verdict.accepted
        assert (cold.started, cold.reused) == (2, 0)
    finally:
        cold.close()

"""No-answer Rocq answers that restate the question (``provers/rocq/restated.py``).

``putnam_1971_a2`` asks for the polynomials with ``P.[0] = 0 /\\ forall x, P.[x^2 + 1] = P.[x]^2 + 1``; the
answer ``[set P | P.[0] = 0 /\\ ...]`` makes the theorem ``A <-> P \\in [set P | A]``, and every gate
accepted a proof of it on the full profile (the answer check could only say ``unknown``). G4 now states
the pinned theorem with the answer, before the candidate is loaded, and refuses the answer when a tactic
of the harness's proves it by logic alone. The attacks below carry real proofs (they compile); the
official answers, and an honest answer written otherwise, must pass G4.

Red team 12 found the same with an answer of any other type: ``putnam_2020_a2``'s own ``fun k => sum_n ...``
copied as its answer made the theorem ``eq_refl``, and it was accepted on the full profile (the check
ran for set and predicate answers only). Every other answer now meets syntactic identity of an
equation's two sides (``COPIED``).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers.rocq.answer_env import yes_no_answer
from putnam_solver.core.provers.rocq.compile import compile_gate
from putnam_solver.core.provers.rocq.restated import predicate_answer
from putnam_solver.core.provers.rocq.statement_shape import parse_statement, solution_body_start
from putnam_solver.core.verify import GateResult, GateStatus, Profile, Track, VerifyOptions
from tests.helpers import COQ_BENCH, failures, needs_coq, pinned, rocq_full_verdict, rocq_submission, thinned

RESTATES = "restates the question"
PROOF = "Proof. intros; unfold {solution}; rewrite ?inE; try tauto; firstorder. Qed."
"""A proof of the theorem from a restated answer: the attacker's own, not the harness's tactic."""

RESTATED = {
    "putnam_1971_a2": "[set P : {poly R} | P.[0] = 0 /\\ (forall x : R, P.[x ^+ 2 + 1] = (P.[x]) ^+ 2 + 1)]",
    "putnam_1976_a3": "fun p r q s => prime p /\\ prime q /\\ gt r 1 /\\ gt s 1 /\\ `|(p^r)%:Z - (q^s)%:Z| = 1",
    "putnam_1977_a2": "fun a b c d => (1/d = 1/a + 1/b + 1/c /\\ a + b + c = d)",
    "putnam_1980_b1": "[set c | forall x : R, (expR x + expR (-x)) / 2 <= expR (c * x^2)]",
    "putnam_2022_a1": "fun a b => exists! (x: R), a * x + b = ln (1 + x ^ 2) / ln 10",
}
"""The question's condition as the answer: copied (``1971_a2``, ``1976_a3``, ``1980_b1``: MathComp sets and
predicates; ``2022_a1``: Coquelicot) or rearranged (``1977_a2``: conjuncts swapped, an equation turned)."""


COPIED = {
    "putnam_2020_a2": "(fun k => sum_n (fun j => 2 ^ (k - j) * Binomial.C (k + j) j) k)",
    "putnam_1962_a5": "fun n : nat => \\sum_(1 <= k < n.+1) (binomial n k * k ^ 2)",
    "putnam_1976_b5": "fun n x => \\sum_(0 <= k < n.+1) ((-1) ^+ k * 'C(n, k)%:R * (x - k%:R) ^+ n)",
}
"""The expression the question asks to evaluate as the answer: closed (``2020_a2``, Coquelicot) or applied to
the answer's arguments (``1962_a5``: one, MathComp's ``nat``; ``1976_b5``: two, a real field)."""
COPIED_PROOF = "Proof. intros; unfold {solution}; reflexivity. Qed."


def answered(problem_id: str, body: str, proof: str | None = None) -> str:
    """The pinned statement with ``body`` as its answer and, if given, ``proof`` for its placeholder."""
    statement = parse_statement(pinned(COQ_BENCH).problems[problem_id].formal_statement, problem_id)
    assert statement.solution is not None
    sentence = statement.sentences[statement.solution]
    start = sentence.tokens[solution_body_start(sentence)].start
    text = statement.text[:start] + body + "." + statement.text[sentence.end :]
    return text if proof is None else text.replace("Proof. Admitted.", proof)


def official(problem_id: str) -> str:
    """The pinned statement as a no-answer candidate with the official answer (its proof still admitted)."""
    return pinned(COQ_BENCH).problems[problem_id].formal_statement


def g4(problem_id: str, candidate: str) -> GateResult:
    options = VerifyOptions(profile=Profile.FAST)
    return compile_gate(rocq_submission(pinned(COQ_BENCH), problem_id, candidate, Track.NO_ANSWER, options=options))


ATTACKS = [(pid, RESTATED[pid], PROOF) for pid in sorted(RESTATED)] + [
    (pid, COPIED[pid], COPIED_PROOF) for pid in sorted(COPIED)
]


@needs_coq
@pytest.mark.parametrize(("problem_id", "answer", "proof"), thinned(ATTACKS, every=2))
def test_an_answer_restating_the_question_is_refused(problem_id: str, answer: str, proof: str) -> None:
    candidate = answered(problem_id, answer, proof.format(solution=f"{problem_id}_solution"))
    verdict = rocq_full_verdict(pinned(COQ_BENCH), problem_id, candidate, Track.NO_ANSWER)
    failing = failures(verdict)
    assert not verdict.accepted
    assert set(failing) == {"G4"} and RESTATES in failing["G4"], failing


@needs_coq
def test_a_numeric_answer_meets_identity_only() -> None:
    """``putnam_1962_a5``'s answer written as the same closed form plus zero is not a copy to syntactic
    identity (arithmetic is never evaluated here, so a large honest number cannot time the check out)."""
    result = g4("putnam_1962_a5", answered("putnam_1962_a5", "fun n : nat => n * (n + 1) * 2 ^ (n - 2) + 0"))
    assert result.status is GateStatus.PASSED, result.detail


@needs_coq
def test_an_honest_answer_written_otherwise_passes() -> None:
    """``putnam_1971_a2``'s answer as a set-builder of its own condition (``P = 'X``), not the question's."""
    result = g4("putnam_1971_a2", answered("putnam_1971_a2", "[set P : {poly R} | P = 'X]"))
    assert result.status is GateStatus.PASSED, result.detail


PADDED = {
    "a true fact beside it": "(0 < 1 :> R) /\\ (a + b + c = d /\\ 1 / a + 1/b + 1/c = 1/d)",
    "the equation fifth": (
        "exists e : R, True /\\ True /\\ True /\\ True /\\ e = d /\\ (a + b + c = e /\\ 1 / a + 1/b + 1/c = 1/e)"
    ),
}
"""``putnam_1977_a2``'s condition copied beside what logic alone does not reach: a true fact that is no
logic (``0 < 1``), or the one-point equation after more conjuncts than ``ONE_POINT_DEPTH`` lemmas cover.
Both passed until red team 18: a closed proposition of the answer now reads ``True`` (``restated.CLOSED_FACTS``)
and a ``True`` conjunct is dropped before the one-point rewrites (``test_rocq_redteam18.py`` has more)."""
PADDED_PROOF = (
    "Proof. intros a b c d ha hb hc hd; unfold putnam_1977_a2_solution; split; "
    "[ intros H; first [ split; [ exact Num.Theory.ltr01 | exact H ] | exists d; tauto ] "
    "| first [ intros [_ H]; exact H | intros [e He]; decompose [and] He; subst; tauto ] ]. Qed."
)


@needs_coq
@pytest.mark.parametrize("answer", PADDED.values(), ids=PADDED.keys())
def test_a_copy_padded_past_the_logic_step_is_refused(answer: str) -> None:
    result = g4("putnam_1977_a2", answered("putnam_1977_a2", f"fun a b c d => {answer}", PADDED_PROOF))
    assert result.status is GateStatus.FAILED and RESTATES in result.detail, result.detail


PREDICATE_PROBLEMS = sorted(
    p.id
    for p in load_benchmark(COQ_BENCH).problems.values()
    if predicate_answer(statement := parse_statement(p.formal_statement, p.id)) and not yes_no_answer(statement)
)
SAMPLE = ["putnam_1971_a2", "putnam_1974_a3", "putnam_1976_a3", "putnam_2019_a1", "putnam_2022_a1"]
"""The official answers CI checks (MathComp sets, a pair of sets, a predicate, an Ensemble, Coquelicot);
``-m slow`` checks every predicate answer."""
OTHER_PROBLEMS = sorted(
    p.id
    for p in load_benchmark(COQ_BENCH).problems.values()
    if (statement := parse_statement(p.formal_statement, p.id)).solution is not None
    and not predicate_answer(statement)
    and not yes_no_answer(statement)
)
OTHER_SAMPLE = [
    "putnam_1962_a5",
    "putnam_1976_b5",
    "putnam_1985_a1",
    "putnam_2015_a2",
    "putnam_2018_a1",
    "putnam_2020_a2",
]
"""Official answers of other types CI checks (MathComp ``nat`` and reals, a tuple, Coquelicot; ``2015_a2``: a
statement's let-bound fixpoint, which opening the theorem must not compute; ``2018_a1``: large unary
``nat`` literals, whose print must stay under the output cap); ``-m slow`` checks every one."""
DOES_NOT_COMPILE_HERE = "coqc: "
"""How G4 reports a statement whose libraries this machine's Coq lacks (a fact of the toolchain)."""


def _official_passes(problem_id: str) -> None:
    result = g4(problem_id, official(problem_id))
    assert RESTATES not in result.detail, (problem_id, result.detail)
    if result.status is not GateStatus.PASSED:
        assert result.detail.startswith(DOES_NOT_COMPILE_HERE), (problem_id, result.status, result.detail)


@needs_coq
@pytest.mark.parametrize("problem_id", SAMPLE + OTHER_SAMPLE)
def test_official_answers_do_not_restate_the_question(problem_id: str) -> None:
    _official_passes(problem_id)


@needs_coq
@pytest.mark.slow
@pytest.mark.parametrize("problem_id", PREDICATE_PROBLEMS + OTHER_PROBLEMS)
def test_every_official_answer_passes(problem_id: str) -> None:
    _official_passes(problem_id)


def test_predicate_answers_are_read_from_the_declared_type() -> None:
    assert set(SAMPLE) <= set(PREDICATE_PROBLEMS) and len(PREDICATE_PROBLEMS) >= 25
    for pid in ("putnam_1974_b6", "putnam_1986_a2", "putnam_1996_a3"):  # numbers, a yes/no answer
        assert pid not in PREDICATE_PROBLEMS

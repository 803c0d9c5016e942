"""Red team 27 on the Rocq yes/no answer rule (G4, ``answer_env``): a truth value must be a ``Prop``.

Lead from red team 26: on ``fast``, ``putnam_1990_a5`` (official ``False``, no declared type: Coq infers
``Prop``) answered with the question as a boolean, ``asbool Q`` (or ``if excluded_middle_informative Q then
true else false``, any ``bool`` decision of the question), passed G4; only the full profile's G5 refused it
(the reference's solution is a ``Prop``). Cause: G4's truth-value decision (``__putnam_truth``) decides each
factor of the answer whose type is ``Prop`` and passed over a factor of any other type unread, so a ``bool``
answer was "decided" with nothing decided. The theorem then reads ``Q <-> is_true (asbool Q)`` and holds by
``asboolP`` whatever the answer to the problem.

Text or by meaning? The Lean copy rule reads the answer's text against the statement's; here the class is
not a copy of the question's text (``asbool Q`` can be spelled through any decision procedure, a ``let``, a
helper lemma's ``sumbool``) but an answer of the wrong type, which Coq decides. Fix, by meaning: each factor
the official answer writes as ``True``/``False`` (the answer itself, or a component of its tuple,
``(True, -1, True, 0)``) must have type ``Prop`` as Coq elaborates the candidate's answer in the harness's
environment file (``answer_env.truth_paths``, ``__putnam_prop``), before it is decided; otherwise the step
prints ``undecided`` and G4 refuses. ``fast`` now agrees with ``full`` on this class. Every official yes/no
answer of the pinned data that compiles here (31 of 32; ``putnam_2009_a1`` needs GeoCoq) still passes G4
(measured; ``test_rocq_restated.py`` sweeps them with ``-m slow``, a sample here).

A bool re-encoding also needs a coercion from ``bool`` to ``Prop`` in the theorem (``is_true``, from
``ssrbool``) and, for an undecidable question, classical choice: no pinned header gives both (measured:
``matrix ssralg`` alone leaves ``Q <-> <bool>`` ill-typed), so on ``fast`` the needed ``Require Import`` is
refused by G2 too (class 2); G4's refusal holds whatever the header.

The same re-encoding found a second class, on the full profile: a set answer copying the question's condition
behind a Boolean decision of it (``putnam_1980_b1``: ``[set c | asbool Q]`` after ``From mathcomp Require
Import boolp.``) was accepted, answer check ``unknown``: G4's restatement check reads the condition through
logic only, and ``is_true (asbool Q)`` is no formula of it. Its logic step now reads each decision back
(``restated.DECISIONS``); all 171 official answers still pass (``test_rocq_restated.py``, ``-m slow``,
measured), as does the official set written through ``pselect`` of its own condition.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq.answer_env import truth_paths
from putnam_solver.core.provers.rocq.statement_shape import parse_statement
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from tests.adversarial.test_rocq_redteam26_measured import A5_BOOL_RESTATED, A5_QUESTION
from tests.adversarial.test_rocq_restated import RESTATES, answered, g4, official
from tests.helpers import COQ_BENCH, failures, needs_coq, pinned, rocq_full_verdict

NOT_A_TRUTH_VALUE = "not a truth value"

EM_RESTATED = f"""From mathcomp Require Import matrix ssralg.
Open Scope ring_scope.
From mathcomp Require Import ssrbool.
Require Import Coq.Logic.ClassicalEpsilon.
Definition putnam_1990_a5_solution := if excluded_middle_informative {A5_QUESTION} then true else false.
Theorem putnam_1990_a5
    : {A5_QUESTION} <-> putnam_1990_a5_solution.
Proof. unfold putnam_1990_a5_solution. destruct (excluded_middle_informative _) as [h|h]; split; intro x;
  [reflexivity|exact h|contradiction|discriminate]. Qed.
"""
"""The same question decided classically into a ``bool``."""

RESTATED = {"asbool": A5_BOOL_RESTATED, "excluded_middle_informative": EM_RESTATED}


def _fast(candidate: str) -> dict[str, str]:
    bench = pinned(COQ_BENCH)
    options = VerifyOptions(profile=Profile.FAST, keep_going=True)
    problem = bench.problems["putnam_1990_a5"]
    v = run_gates(get_prover("rocq"), bench, problem, candidate.encode(), Track.NO_ANSWER, options)
    assert v.status == "rejected"
    return failures(v)


@needs_coq
@pytest.mark.parametrize(
    "candidate",
    [
        pytest.param(text, id=name, marks=() if i == 0 else pytest.mark.slow)
        for i, (name, text) in enumerate(RESTATED.items())
    ],
)
def test_a_yes_no_answer_restated_as_a_boolean_is_refused_by_g4_on_fast(candidate: str) -> None:
    assert NOT_A_TRUTH_VALUE in _fast(candidate).get("G4", ""), _fast(candidate)


def _paths(solution: str) -> list[str]:
    statement = parse_statement(f"{solution}\nTheorem t : t_solution = t_solution.\nProof. Admitted.\n", "t")
    return truth_paths(statement, "s")


def test_the_factors_that_must_be_prop_are_read_from_the_official_answer() -> None:
    assert _paths("Definition t_solution := False.") == ["s"]
    assert _paths("Definition t_solution : Prop := (True).") == ["s"]
    pair = ["Coq.Init.Datatypes.fst (s)", "Coq.Init.Datatypes.snd (s)"]
    assert _paths("Definition t_solution := (False, True).") == pair
    assert _paths("Definition t_solution : Prop * Prop := ((True), False).") == pair
    fst, snd = "Coq.Init.Datatypes.fst", "Coq.Init.Datatypes.snd"
    assert _paths("Definition t_solution := (True, -1, True, 0).") == [
        f"{fst} ({fst} ({fst} (s)))",
        f"{snd} ({fst} (s))",
    ]
    assert _paths("Definition t_solution := (1, (2, 3), False).") == [f"{snd} (s)"]


YES_NO_SAMPLE = ("putnam_1987_b4", "putnam_1988_a4", "putnam_1990_a5")
"""Official yes/no answers checked under the new rule (``-m slow``; CI runs red team 6's typed ones): a
4-tuple with two ``Prop`` factors, a typed pair, an untyped ``False`` (the other 28 that compile here pass
too, measured)."""


@needs_coq
@pytest.mark.parametrize("problem_id", [pytest.param(p, marks=pytest.mark.slow) for p in YES_NO_SAMPLE])
def test_official_yes_no_answers_still_pass_g4(problem_id: str) -> None:
    result = g4(problem_id, official(problem_id))
    assert result.status.value == "passed", result.detail


@needs_coq
@pytest.mark.slow
def test_the_boolean_restatement_stays_refused_on_full() -> None:
    v = rocq_full_verdict(pinned(COQ_BENCH), "putnam_1990_a5", A5_BOOL_RESTATED, Track.NO_ANSWER)
    failed = failures(v)
    assert v.status == "rejected" and NOT_A_TRUTH_VALUE in failed.get("G4", ""), failed


BOOLEAN_COPIES = {
    "asbool": (
        "putnam_1980_b1",
        "[set c | asbool (forall x : R, (expR x + expR (-x)) / 2 <= expR (c * x^2))]",
        "From mathcomp Require Import boolp.",
    ),
    "pselect": (
        "putnam_1980_b1",
        "[set c | if pselect (forall x : R, (expR x + expR (-x)) / 2 <= expR (c * x^2)) then true else false]",
        "From mathcomp Require Import boolp.",
    ),
    "excluded_middle_informative": (
        "putnam_1971_a2",
        "[set P : {poly R} | if excluded_middle_informative (P.[0] = 0 /\\ (forall x : R, "
        "P.[x ^+ 2 + 1] = (P.[x]) ^+ 2 + 1)) then true else false]",
        "Require Import Coq.Logic.ClassicalEpsilon.",
    ),
}
"""Set answers that copy the question's condition behind a Boolean decision of it (with the import it needs
before the solution): the theorem becomes ``Q <-> is_true (decide Q)``."""


def _with_import(problem_id: str, body: str, library: str) -> str:
    text = answered(problem_id, body)
    at = text.index(f"Definition {problem_id}_solution")
    return f"{text[:at]}{library}\n{text[at:]}"


@needs_coq
@pytest.mark.parametrize(
    ("problem_id", "body", "library"),
    [
        pytest.param(*case, id=name, marks=() if i == 0 else pytest.mark.slow)
        for i, (name, case) in enumerate(BOOLEAN_COPIES.items())
    ],
)
def test_a_set_answer_copying_the_question_behind_a_boolean_decision_restates_it(
    problem_id: str, body: str, library: str
) -> None:
    """Red team 27: ``putnam_1980_b1`` answered ``[set c | asbool Q]`` was accepted on the full profile (the
    proof ``split => h; exact/asboolP``), its answer check ``unknown``: the restatement check's logic read no
    ``bool``. Its logic step now reads Boolean decisions back (``restated.DECISIONS``)."""
    result = g4(problem_id, _with_import(problem_id, body, library))
    assert RESTATES in result.detail, result.detail


@needs_coq
@pytest.mark.slow
def test_an_honest_set_answer_through_a_decision_is_no_copy() -> None:
    """``putnam_1980_b1``'s official set written through a decision of its own condition: no copy."""
    body = "[set c | if pselect (c >= 1/2) then true else false]"
    result = g4("putnam_1980_b1", _with_import("putnam_1980_b1", body, "From mathcomp Require Import boolp."))
    assert result.status.value == "passed", result.detail

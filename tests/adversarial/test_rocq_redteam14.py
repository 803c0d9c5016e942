"""Red team 14 on the Rocq side: what a candidate's compiled module carries into the harness's own files.

1. **A reduction setting replayed by ``Require``.** On the no-answer track an accepted proof whose answer
   the answer check proves different from the official one is ``disputed``, never ``accepted`` (DESIGN §3:
   such a proof shows the statement is wrong). The check is a harness file that ``Require``s the compiled
   candidate, unfolds its solution and tries ``discriminate``, ``lia``, ``lra``... Coq 8.16 keeps a
   ``Strategy`` that is not ``Local`` (even one written inside the theorem's own proof, or in a section) and
   a ``Global Opaque`` in the ``.vo`` and replays it on ``Require`` (measured: ``Print Strategy`` in a file
   that only ``Require``s the candidate). ``Strategy opaque [putnam_2013_b2_solution].`` in the proof made
   the check's ``unfold`` fail, so the wrong answer ``4`` to the vacuous ``putnam_2013_b2`` (PutnamBench's
   erratum; official ``3``) was ``unknown`` and the verdict ``accepted`` on the full profile;
   ``Global Opaque`` of the reals' operations made ``lra`` fail the same way. G3 now refuses both spellings
   (``sentence_rules``), and the answer check makes the solution transparent again before it unfolds it.
   ``Local Strategy`` and a plain ``Opaque`` stay in the candidate's file and stay accepted.
2. **The restatement check read the theorem in another state than the candidate.** The no-answer check
   that an answer does not restate the question (``restated.py``) elaborated the pinned theorem again in
   its environment file, which replays the candidate's reading commands up to its answer only.
   ``Open Scope C_scope.`` before the answer and ``Close Scope C_scope.`` after it read ``putnam_2022_a1``'s
   question over Coquelicot's complex numbers there and over the reals in the candidate, so the question
   copied as the answer (with ``%R``) met a theorem it did not restate: accepted on the full profile. The
   theorem is now the reference's (``type of`` its theorem applied to the answer), read from the pinned
   text alone.
3. **The answer read otherwise in that file than in the candidate.** Every check of the environment file
   is about its own elaboration of the answer's text, never tied to the candidate's compiled solution (but
   for yes/no answers). A scope opened in a section of the candidate's (closed at its ``End``, kept open
   by the file, which dropped sections) read the copied question over the complex numbers there; a hint of
   the candidate's (a harmless addition on every profile) made ``ltac:(first [solve [auto] | exact
   ...])`` the copied question in the candidate and another answer there: both accepted on the full
   profile. The file now keeps sections, and prints its own elaboration of the answer and the compiled
   solution raw: unless they are the same term (the candidate's module prefix aside), G4 refuses the answer.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.verify import GateStatus, Track, Verdict
from tests.adversarial.test_rocq_restated import answered, g4
from tests.helpers import COQ_BENCH, REPO, needs_coq, pinned, rocq_full_verdict, thinned

VACUOUS = REPO / "tests" / "fixtures" / "conformance" / "rocq" / "putnambench-rocq__putnam_2013_b2.v"
"""A published proof of the vacuous ``putnam_2013_b2`` (PutnamBench erratum): any answer is provable."""


def vacuous(answer: str, in_proof: str = "") -> str:
    """The published proof of ``putnam_2013_b2`` with ``answer`` and ``in_proof`` as its first sentence."""
    text = VACUOUS.read_text()
    start = text.index("Require Import Ensembles")
    text = text[start : text.index("Print Assumptions", start)]
    text = text.replace("R := 3.", f"R := {answer}.")
    return text.replace("  clear hm.", f"  {in_proof}\n  clear hm.") if in_proof else text


def verdict(candidate: str) -> Verdict:
    return rocq_full_verdict(pinned(COQ_BENCH), "putnam_2013_b2", candidate, Track.NO_ANSWER)


def check_status(v: Verdict) -> str:
    return str(v.answers["putnam_2013_b2_solution"]["check"]["status"])


def g3_detail(v: Verdict) -> str:
    g3 = next(g for g in v.gates if g.id == "G3")
    assert g3.status is GateStatus.FAILED, g3.detail
    return g3.detail


OPS = "Rplus Rmult Rminus Rdiv Rinv Ropp IZR Rlt Rle Rgt Rge IPR IPR_2 Rdefinitions.R0 Rdefinitions.R1"
REPLAYED = {
    "Strategy opaque of the solution": "Strategy opaque [putnam_2013_b2_solution].",
    "Strategy level of the solution": "Strategy 1000 [putnam_2013_b2_solution].",
    "Global Opaque of the reals": f"Global Opaque {OPS}.",
    "#[global] Opaque of the reals": f"#[global] Opaque {OPS}.",
}
"""Settings that Coq replays in every file that ``Require``s the candidate; before this round each made the
wrong answer's check ``unknown`` (``Strategy`` by failing ``unfold``, ``Opaque`` of the operations by failing
``lra``), so the verdict was ``accepted`` instead of ``disputed``."""


@needs_coq
def test_a_wrong_answer_to_the_vacuous_statement_is_disputed() -> None:
    """The baseline: the answer check proves ``4 <> 3`` and the verdict is never ``accepted``."""
    v = verdict(vacuous("4"))
    assert v.status == "disputed" and check_status(v) == "differs", (v.status, v.answers)


@needs_coq
@pytest.mark.parametrize("name", thinned(sorted(REPLAYED), every=2))
def test_a_reduction_setting_replayed_by_require_is_refused(name: str) -> None:
    v = verdict(vacuous("4", REPLAYED[name]))
    assert v.status == "rejected", (v.status, v.answers)
    assert "every file that merely Requires the candidate" in g3_detail(v)


@needs_coq
def test_the_answer_check_unfolds_a_solution_the_candidate_made_opaque() -> None:
    """The harness's side, whatever G3 says: the check resets the solution's strategy before unfolding it."""
    v = verdict(vacuous("4", REPLAYED["Strategy opaque of the solution"]))
    assert check_status(v) == "differs", v.answers


LOCAL = {
    "Local Strategy": "Local Strategy opaque [putnam_2013_b2_solution].",
    "#[local] Strategy": "#[local] Strategy opaque [Rplus].",
    "plain Opaque": "Opaque putnam_2013_b2_solution Rplus.",
}
"""Settings that stay in the candidate's file (measured): accepted, and the check still decides."""


@needs_coq
@pytest.mark.parametrize("name", thinned(sorted(LOCAL)))
def test_local_reduction_settings_pass_and_leave_the_check_alone(name: str) -> None:
    wrong = verdict(vacuous("4", LOCAL[name]))
    assert wrong.status == "disputed" and check_status(wrong) == "differs", (wrong.status, wrong.answers)
    right = verdict(vacuous("3", LOCAL[name]))
    assert right.status == "accepted", [(g.id, g.detail) for g in right.gates]


COPY = "fun a b => (exists! (x: R), a * x + b = ln (1 + x ^ 2) / ln 10)"
"""``putnam_2022_a1``'s question as its answer (a set answer the restatement check refuses as written)."""
TAUTO = "Proof. intros; unfold putnam_2022_a1_solution; tauto. Qed."
READ_ELSEWHERE = {
    "a scope closed after the answer": (
        "Open Scope C_scope.\n",
        "fun a b => (exists! (x: R), (a * x + b = ln (1 + x ^ 2) / ln 10)%R)",
        "Close Scope C_scope.\n",
    ),
    "a scope opened in a section": ("Section zz_s.\nOpen Scope C_scope.\nEnd zz_s.\n", COPY, ""),
    "a hint steering an ltac answer": (
        f"Hint Extern 1 => exact ({COPY.replace('fun a b', 'fun a b : R')}) : core.\n",
        "ltac:(first [ solve [ auto ] | exact (fun a b : R => a = 0 /\\ b = 0) ])",
        "",
    ),
}
"""(before the answer, the answer, after it): each read the copy as another proposition in the harness's
environment file than in the candidate, and was accepted on the full profile before this round."""


def a1(before: str, answer: str, after: str, proof: str = TAUTO) -> str:
    text = answered("putnam_2022_a1", answer, proof)
    head, rest = text.split("Definition putnam_2022_a1_solution", 1)
    solution, theorem = rest.split("\nTheorem", 1)
    return f"{head}{before}Definition putnam_2022_a1_solution{solution}\n{after}Theorem{theorem}"


@needs_coq
@pytest.mark.parametrize("name", sorted(READ_ELSEWHERE))
def test_an_answer_read_otherwise_by_the_restatement_check_is_refused(name: str) -> None:
    result = g4("putnam_2022_a1", a1(*READ_ELSEWHERE[name]))
    assert result.status is GateStatus.FAILED, result.detail
    assert "restates the question" in result.detail or "means something else" in result.detail, result.detail


HONEST_A1 = (
    "fun a b => (a = 0 /\\ b = 0) \\/ (Rabs a >= 1) \\/ (0 < Rabs a < 1 /\\ "
    "(b < ln (1 + ((1 - sqrt (1 - a ^2))/ a) ^ 2) - a * (1 - sqrt (1 - a ^ 2) / a) \\/ "
    "b > ln (1 + ((1 + sqrt (1 - a ^ 2)) / a) ^ 2) - a * (1 + sqrt (1 - a ^ 2) / a)))"
)
"""``putnam_2022_a1``'s official answer."""
HONEST_SETTINGS = {
    "plain": ("", HONEST_A1, ""),
    "a scope opened before it": ("Open Scope R_scope.\n", HONEST_A1, "Open Scope R_scope.\n"),
    "a section with a scope before it": ("Section zz_s.\nOpen Scope C_scope.\nEnd zz_s.\n", HONEST_A1, ""),
    "an ltac answer that reads the same": ("", f"ltac:(exact ({HONEST_A1}))", ""),
}


@needs_coq
@pytest.mark.parametrize("name", thinned(sorted(HONEST_SETTINGS), every=2))
def test_an_honest_answer_in_those_settings_passes(name: str) -> None:
    result = g4("putnam_2022_a1", a1(*HONEST_SETTINGS[name], proof="Proof. Admitted."))
    assert result.status is GateStatus.PASSED, result.detail

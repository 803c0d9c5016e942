"""Round 46 on the Rocq no-answer answer check: the reals' attempts by what the reference loads, not by words.

Measured with coqc 8.16.1, mathcomp 1.15, mathcomp-analysis 0.6.0 (before: this file against the sources of
the round's start; after: with the fix).

**The defect.** ``answers.check_answer`` ran its attempts with the reals' facts (``DIFFERENT_REALS``,
``DIFFERENT_COMPUTED``) and compared function and set answers at real points only where the statement's
*text* said ``Reals`` or ``Coquelicot`` (``STDLIB_REALS``). MathComp analysis's ``Rstruct`` (and ``exp``,
which loads it) ``Require`` Coq's reals without either word: a statement importing it and answering ``3 :
R`` never met the attempt that knows ``3 < PI``, so on a vacuous statement (every answer provable, as
PutnamBench's ``putnam_2013_b2``) the wrong answer ``PI``, soundly proved, stayed ``unknown`` and its verdict
``accepted``. A statement naming ``Reals`` only in a comment ran both attempts (each loading the reals and
running its tactics) for answers that cannot be reals.

**The fix** (``loaded_reals.py``). The first reals attempt's file asks Coq on its second line, after the
reference is ``Require``d and before the candidate is, whether ``Coq.Reals.Rdefinitions.R`` resolves; where
it does not, the file stops there, and the check skips the other reals attempt and the real points. No run
is added where the reals are loaded; where they are not, the one attempt that used to be skipped by the text
now stops at its second line.

**Measured.** ``PI`` and ``sqrt 10`` for ``3`` on a vacuous ``Rstruct`` statement: before ``unknown``, verdict
``accepted`` (2 of 2); after ``differs``, verdict ``disputed`` (2 of 2). The honest ``2 + 1`` is
``confirmed`` and ``accepted`` before and after. A ``Z`` statement naming ``Reals`` only in a comment, with
an answer no attempt decides: before, both reals attempts ran to their tactics (``Answer_ne_reals`` 2.2 s,
``Answer_ne_computed`` 3.3 s); after, one file stops at its guard (0.5 s) and the other is not built. The
cost: a statement that neither names nor loads the reals now has that one 0.5 s file where it had none
(only when neither equality nor its negation was proved before it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.provers.rocq import answers
from putnam_solver.core.provers.rocq.answers import DIFFERENT_COMPUTED, DIFFERENT_REALS, check_source
from putnam_solver.core.provers.rocq.challenge import statement_of
from putnam_solver.core.provers.rocq.loaded_reals import GUARD, GUARD_LINE, stopped_at_guard
from putnam_solver.core.verify import Track, Verdict
from tests.helpers import needs_coq, one_record_benchmark, rocq_full_verdict, spied_answer_builds

PROBLEM = "putnam_zz"
RSTRUCT = (
    "From mathcomp Require Import Rstruct.\nImport Rdefinitions.\nLocal Open Scope R_scope.\n"
    f"Definition {PROBLEM}_solution : R := 3.\n"
    f"Theorem {PROBLEM} (m : R) (h : m < m) : m = {PROBLEM}_solution.\n"
)
"""A vacuous statement (``m < m``) over Coq's reals, loaded through MathComp analysis's ``Rstruct``: no word
``Reals`` or ``Coquelicot`` in its text."""
COMMENTED = (
    "Require Import ZArith.\nOpen Scope Z_scope.\n(* Reals and Coquelicot are not needed here. *)\n"
    f"Definition {PROBLEM}_solution : Z := 3.\n"
    f"Theorem {PROBLEM} (m : Z) (h : m < m) : m = {PROBLEM}_solution.\n"
)
"""A vacuous statement over ``Z`` that names the reals only in a comment."""


def _verdict(tmp_path: Path, statement: str, answer: str, proof: str) -> Verdict:
    bench = one_record_benchmark(tmp_path, PROBLEM, f"{statement}Proof. Admitted.\n")
    candidate = statement.replace(":= 3.", f":= {answer}.") + f"Proof. {proof} Qed.\n"
    return rocq_full_verdict(bench, PROBLEM, candidate, Track.NO_ANSWER)


def _status(v: Verdict) -> str:
    return str(v.answers[f"{PROBLEM}_solution"]["check"]["status"])


REALS_PROOF = "exfalso. exact (Raxioms.Rlt_asym m m h h)."
WRONG = {"pi": "Rtrigo1.PI", "a square root": "R_sqrt.sqrt 10"}
"""Wrong answers for ``3`` that only the reals' facts separate from it (``lra`` alone knows neither)."""


@needs_coq
@pytest.mark.parametrize(
    "answer", [pytest.param(a, id=k, marks=() if k == "pi" else (pytest.mark.slow,)) for k, a in WRONG.items()]
)
def test_a_wrong_answer_on_reals_loaded_without_the_word_is_disputed(tmp_path: Path, answer: str) -> None:
    v = _verdict(tmp_path, RSTRUCT, answer, REALS_PROOF)
    assert v.status == "disputed" and _status(v) == "differs", (v.status, v.answers)


@needs_coq
@pytest.mark.slow
def test_the_honest_answer_on_reals_loaded_without_the_word_is_confirmed(tmp_path: Path) -> None:
    v = _verdict(tmp_path, RSTRUCT, "2 + 1", REALS_PROOF)
    assert v.status == "accepted" and _status(v) == "confirmed", (v.status, v.answers)


@needs_coq
def test_a_comment_naming_the_reals_runs_no_reals_attempt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An answer no attempt decides (the first two attempts' tactics replaced by ``fail``: round 47's G4
    refuses the answer this test used, ``3`` behind a ``match`` on a ``Qed`` proof), and the reals' attempts
    stop at the guard."""
    built = spied_answer_builds(monkeypatch)
    undecided = tuple((c, "fail" if c in ("eq", "ne") else t, *rest) for c, t, *rest in answers.ATTEMPTS)
    monkeypatch.setattr(answers, "ATTEMPTS", undecided)
    v = _verdict(tmp_path, COMMENTED, "2 + 1", "exfalso. exact (Z.lt_irrefl m h).")
    assert v.status == "accepted" and _status(v) == "unknown", (v.status, v.answers)
    assert "Answer_ne_computed" not in built and "Answer_ne_reals" in built, built.keys()
    assert stopped_at_guard(built["Answer_ne_reals"]), built["Answer_ne_reals"].messages


def test_the_reals_attempts_ask_once_both_modules_are_loaded(tmp_path: Path) -> None:
    """(Round 47 moved the guard after the candidate's ``Require``: reals the candidate loads count too.)"""
    bench = one_record_benchmark(tmp_path, PROBLEM, f"{RSTRUCT}Proof. Admitted.\n")
    statement = statement_of(bench.problems[PROBLEM])
    for claim, tactic in (("ne_reals", DIFFERENT_REALS), ("ne_computed", DIFFERENT_COMPUTED)):
        lines = check_source(statement, claim, tactic).splitlines()
        assert lines[GUARD_LINE - 1] == GUARD
        assert lines[:2] == ["Require Putnam.Reference.", "Require Putnam.Candidate."]
    assert GUARD not in check_source(statement, "ne", answers.DIFFERENT)

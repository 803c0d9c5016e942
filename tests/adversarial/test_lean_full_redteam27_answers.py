"""Red team 27 (Lean, full profile): the answer check's confirming run walks its own proof's axioms.

The answer check (``provers/lean/answers.py``) proves ``candidate = official`` (or its negation) in a
harness file that imports the candidate's module, with proofs that name things unqualified (``rfl``,
``of_decide_eq_true``) or run tactics that read the candidate's ``@[simp]`` lemmas. Those can reach a
helper of the candidate that the theorem never uses, so neither G5 nor comparator walks it: a helper
resting on an axiom could make a wrong answer ``confirmed`` (hiding the ``disputed`` alarm). Found with
the real Lean 4.35 kernel (toy prelude): a candidate helper ``of_decide_eq_true`` declared as an axiom
(G3 refuses the word ``axiom``; the check must not rest on that) made the wrong answer ``2`` confirmed
against the official ``1``. Fixed: the confirming run states the attempt as a named theorem followed by
``#print axioms`` of it, read as G5 reads its own, and confirms only on the allowed axioms.
Then (second case): an attempt that fails that check passes the turn to the next, so a ``Nat.rfl`` axiom
of the candidate's, which ``rfl`` resolves to under the statement's ``open Nat``, no longer stops the
check at ``unknown`` before the negation proves a wrong answer different.
Valid cases: the right answer is still confirmed, a wrong one without such a helper is never confirmed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import LeanProver
from putnam_solver.core.provers.lean import answers as lean_answers
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from tests.adversarial._lean_redteam27_toy import NAME, PROBLEM, STATEMENT, THEOREM, verify_full
from tests.helpers import one_record_benchmark
from tests.toylean.build import ToyLean

CHEAT = "axiom of_decide_eq_true {p : Prop} (h : Eq Bool.true Bool.true) : p\n\n"


def candidate(answer: str, helper: str = "") -> str:
    return f"noncomputable abbrev {NAME} : Nat := {answer}\n{helper}{THEOREM}\n  rfl\n"


@pytest.fixture
def bench(toy_lean_env: ToyLean, tmp_path: Path) -> Benchmark:
    return one_record_benchmark(tmp_path, PROBLEM, STATEMENT)


def _check(verdict: Verdict) -> dict[str, Any]:
    check: dict[str, Any] = verdict.answers[NAME]["check"]
    return check


def test_a_helper_resting_on_an_axiom_cannot_confirm_a_wrong_answer(bench: Benchmark) -> None:
    verdict = verify_full(bench, candidate("2", CHEAT))
    assert verdict.gates[3].passed, verdict.gates[3].detail  # it compiles; G3 refuses the word only
    check = _check(verdict)
    assert check["status"] == "unknown", check
    assert "of_decide_eq_true" in check["reason"] and "outside the allowed set" in check["reason"], check


def test_the_right_answer_is_confirmed_and_a_wrong_one_differs(bench: Benchmark) -> None:
    assert _check(verify_full(bench, candidate("1")))["status"] == "confirmed"
    assert _check(verify_full(bench, candidate("1", CHEAT)))["status"] == "confirmed"  # `rfl` first: no axiom
    wrong = _check(verify_full(bench, candidate("2")))
    assert wrong["status"] in ("differs", "unknown"), wrong  # the toy has no `decide` for Nat
    assert wrong["status"] != "confirmed"


def test_the_confirming_file_names_the_attempt_and_prints_its_axioms() -> None:
    line = lean_answers.attempt_line(NAME, "Nat", "1", lean_answers.ATTEMPTS[0])
    theorem, report = lean_answers.confirmation_lines(line)
    assert theorem.startswith(f"theorem {lean_answers.CLAIM_NAME} : ") and theorem.endswith(":= rfl")
    assert report == f"#print axioms {lean_answers.CLAIM_NAME}"


BOOL_THEOREM = "theorem toy_bool : Or (Eq toy_bool_solution true) (Eq toy_bool_solution false) :="
BOOL_PROOF = "  Bool.rec (motive := fun b => Or (Eq b true) (Eq b false)) (Or.inr rfl) (Or.inl rfl) toy_bool_solution\n"


def test_a_helper_axiom_on_the_equality_cannot_keep_a_wrong_answer_from_differing(
    toy_lean_env: ToyLean, tmp_path: Path
) -> None:
    """With the statement's ``open Nat`` repeated in the check's file, a candidate's ``Nat.rfl`` (an axiom
    stating its wrong answer equal to the official one) is what ``rfl`` resolves to: the equality then
    fails its own axiom check, and the next attempts still prove the answer different (before, the check
    stopped at the first attempt that did not hold up: ``unknown``, the ``disputed`` alarm silenced)."""
    from tests.integration.test_lean_answer_check import PRELUDE

    statement = f"open Nat\n{PRELUDE}abbrev toy_bool_solution : Bool := sorry\n-- true\n{BOOL_THEOREM} sorry\n"
    bench = one_record_benchmark(tmp_path, "toy_bool", statement)
    helper = "axiom Nat.rfl : Eq toy_bool_solution true\n\n"

    def check(answer: str, more: str) -> dict[str, Any]:
        text = f"open Nat\n{PRELUDE}noncomputable abbrev toy_bool_solution : Bool := {answer}\n{more}"
        options = VerifyOptions(profile=Profile.FULL, keep_going=True)
        problem = bench.problems["toy_bool"]
        verdict = run_gates(
            LeanProver(), bench, problem, f"{text}{BOOL_THEOREM}\n{BOOL_PROOF}".encode(), Track.NO_ANSWER, options
        )
        found: dict[str, Any] = verdict.answers["toy_bool_solution"]["check"]
        return found

    wrong = check("false", helper)
    assert wrong["status"] == "differs", wrong
    assert check("true", "")["status"] == "confirmed"

"""Red team 23 (Lean, G2 and G3): additions that steer a no-answer value on the full profile, and what was tried.

Found and fixed (accepted by G2 and G3 on the full profile before; the text and fast profiles refused them
as additions that act only through elaboration): on the no-answer track G6 (comparator) takes each
``*_solution`` definition as a hole, compares the theorem's type and lets the value be anything, so an
addition left to G6 that stands before the value steers it where no gate looks.

* ``abbrev Zz := Set ℕ`` and ``noncomputable instance : Inhabited Zz := ⟨Classical.choose (⟨_, rfl⟩ : ∃
  S, <the question> = S)⟩`` before ``putnam_2024_a1_solution``, then the answer ``(default : Set ℕ)``:
  ``Zz`` is reducible, so the instance is indexed as ``Inhabited (Set ℕ)`` and, declared last, tried first;
  the answer is the choice of the question's own set, which G2's reading of the answer (no choice
  operator, no constant of the candidate's) never sees, and the theorem holds by
  ``Classical.choose_spec``. G2 passed it on the full profile (an ``instance`` whose type names the
  candidate's own declaration is left to G6), comparator would compare only the theorem, and the answer
  check can only say ``unknown``. Likewise ``EmptyCollection Zz`` and the answer ``∅``.
* A ``section`` around the solution holding ``local notation "zzq" => (Classical.choose ...)`` and the
  answer ``zzq``; a global ``open`` in force at the solution.

Fix (``provers/lean/_opens_in_force.py``): up to the last solution declaration G2 judges as if no G6 ran,
on every profile, and says why. Helpers, ``open ... in`` a helper, ``@[simp]`` and local instances in
closed blocks before the answer stay accepted; after the answer, and on with-answer (where comparator
compares the kept ``abbrev`` by value), the additions left to G6 stay accepted on the full profile.

Also tried (about 150 candidates on ``putnam_1962_a1`` and ``putnam_2024_a1``, both tracks) and refused
by G2 or G3 or harmless: the commands and attributes of :data:`REFUSED`; ``@[simp ←]``, ``@[simp high]``
on a helper, ``decide +kernel``, ``set_option`` of ``linter.*``, ``pp.*``, ``trace.*``, ``maxRecDepth``,
``exponentiation.threshold`` (output or resources only); numbers glued to ``sorry`` (``2sorry``,
``1e3sorry``, ``0x1Fsorry``, ``0b1sorry``, ``1.5sorry``); a char literal ``'"'``, a string gap and a
nested ``s!`` interpolation before an ``axiom`` (each read as Lean reads it); no-answer values reached
through a leading dot, a dotted field of a helper, an ``open`` or ``open ... in`` a helper's namespace,
``«»``, ``by exact``, ``show .. from``, ``by first``, ``by apply_rules``, or an instance of a class and type
the candidate does not define (refused); tactic blocks that pick a library value (``by aesop``,
``by exact default``, ``by infer_instance``: the value is the library's, not the candidate's).

The ``@[simp]`` helpers G2 permits also reach the no-answer answer check, whose harness file imports the
candidate: one that makes ``simp`` loop kept every numeric negation unproved (a wrong answer ``unknown``
instead of ``differs``). The check now tries ``norm_num1``, which reads no simp lemma, before ``norm_num``
and ``simp`` (:func:`test_the_answer_check_tries_a_negation_no_simp_lemma_reaches`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import answers
from putnam_solver.core.provers.lean._opens_in_force import BEFORE_ANSWER
from putnam_solver.core.verify import GateStatus, Profile, Track
from tests.helpers import failures, lean_filled, lean_text_verdict, lean_verdict

CONFORMANCE = Path(__file__).resolve().parents[1] / "fixtures" / "conformance"
SET = "putnam_2024_a1"
QUESTION = "{n : ℕ | 0 < n ∧ ∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n}"
CHOICE = f"Classical.choose (⟨_, rfl⟩ : ∃ S : Set ℕ, {QUESTION} = S)"
ZZ = "abbrev Zz := Set ℕ\n\n"


def _around_answer(bench: Benchmark, value: str, before: str, after: str = "") -> str:
    """``putnam_2024_a1`` with ``before`` right before its solution ``abbrev`` and ``after`` right after it."""
    text = lean_filled(bench, SET, Track.NO_ANSWER, value=value, proof="by\n  rfl")
    start = text.index("noncomputable abbrev")
    end = text.index("/--", start)
    return text[:start] + before + text[start:end] + after + text[end:]


def _g2_full(bench: Benchmark, text: str, track: Track = Track.NO_ANSWER) -> tuple[GateStatus, str]:
    gate = next(g for g in lean_verdict(bench, SET, text, Profile.FULL, track).gates if g.id == "G2")
    return gate.status, gate.detail


STEERED = {
    "an instance of an own abbrev answers `default`": (
        f"{ZZ}noncomputable instance : Inhabited Zz := ⟨{CHOICE}⟩\n\n",
        "",
        "(default : Set ℕ)",
    ),
    "an instance of an own abbrev answers `∅`": (
        f"{ZZ}noncomputable instance : EmptyCollection Zz := ⟨{CHOICE}⟩\n\n",
        "",
        "∅",
    ),
    "a local notation in a section around the answer": (
        f'section\nlocal notation "zzq" => ({CHOICE})\n',
        "end\n\n",
        "zzq",
    ),
    "a global open that renames a choice operator": (
        "open Classical renaming epsilon → zzpick\n\n",
        "",
        f"zzpick (fun S : Set ℕ => S = {QUESTION})",
    ),
}


@pytest.mark.parametrize("case", sorted(STEERED))
def test_an_addition_left_to_g6_before_a_no_answer_value_is_refused_on_full(
    lean_putnambench: Benchmark, case: str
) -> None:
    before, after, value = STEERED[case]
    text = _around_answer(lean_putnambench, value, before, after)
    status, detail = _g2_full(lean_putnambench, text)
    assert status is GateStatus.FAILED and BEFORE_ANSWER in detail, detail
    assert "G2" in failures(lean_text_verdict(lean_putnambench, SET, text, Track.NO_ANSWER))


KEPT = {
    "an instance of an own abbrev after the answer": ("", f"{ZZ}instance : Inhabited Zz := ⟨({{1}} : Set ℕ)⟩\n\n"),
    "a simp helper before the answer": ("@[simp] theorem zz_h : (1 : ℕ) = 1 := rfl\n\n", ""),
    "open ... in a helper before the answer": ("open Nat in\ntheorem zz_h : (1 : ℕ) = 1 := rfl\n\n", ""),
    "a local instance in a closed section before the answer": (
        f"section\n{ZZ}local instance : Inhabited Zz := ⟨({{1}} : Set ℕ)⟩\nend\n\n",
        "",
    ),
    "a global open after the answer": ("", "open Nat\n\n"),
    "a global open of library namespaces before the answer": ("open Real MeasureTheory\nopen scoped ENNReal\n\n", ""),
}

OPENED_CHOICE = {
    "`open Classical` then `epsilon`": ("open Classical\n\n", f"epsilon (fun S : Set ℕ => S = {QUESTION})"),
    "`open Classical` then a leading-dot `choose`": (
        "open Classical\n\n",
        f"choose (⟨_, rfl⟩ : ∃ S : Set ℕ, {QUESTION} = S)",
    ),
    "`open Nat` then `find` in a set": ("open Nat\n\n", "{n | n = find (⟨1, rfl⟩ : ∃ m : ℕ, m = 1)}"),
}


@pytest.mark.parametrize("case", sorted(OPENED_CHOICE))
def test_a_choice_operator_reached_through_an_added_open_is_refused_on_full(
    lean_putnambench: Benchmark, case: str
) -> None:
    """A global ``open`` before a no-answer value stays accepted on the full profile (published proofs add
    them), so the answer rules resolve the value's words through it: ``epsilon`` under ``open Classical``
    is ``Classical.epsilon``."""
    before, value = OPENED_CHOICE[case]
    status, detail = _g2_full(lean_putnambench, _around_answer(lean_putnambench, value, before))
    assert status is GateStatus.FAILED and "choice operator" in detail, detail


PUBLISHED_OPENS = (
    "putnam-fix-zzy__putnam_1965_b1", "putnam-fix-zzy__putnam_1977_a4", "putnam-fix-zzy__putnam_1983_b5",
    "putnam-fix-zzy__putnam_1989_b3", "putnam-fix-zzy__putnam_1996_a6", "putnam-fix-zzy__putnam_1996_b3",
    "putnam-fix-zzy__putnam_1997_a3", "putnam-fix-zzy__putnam_2008_b2", "putnam-fix-zzy__putnam_2011_a3",
    "putnam-fix-zzy__putnam_2014_b2", "putnam-fix-zzy__putnam_2021_a3", "putnam-fix-zzy__putnam_2023_a5",
)  # fmt: skip
"""Published proofs (tests/fixtures/conformance) with a global ``open`` above the solution: refusing every
addition left to G6 before a no-answer value refused all twelve on the full profile."""


@pytest.mark.parametrize("name", PUBLISHED_OPENS)
def test_published_opens_above_a_no_answer_value_pass_g2_on_full(lean_putnambench: Benchmark, name: str) -> None:
    text = (CONFORMANCE / "lean" / f"{name}.lean").read_text(encoding="utf-8")
    problem = name.split("__")[1]
    gate = next(
        g for g in lean_verdict(lean_putnambench, problem, text, Profile.FULL, Track.NO_ANSWER).gates if g.id == "G2"
    )
    assert gate.status is GateStatus.PASSED, gate.detail


@pytest.mark.parametrize("case", sorted(KEPT))
def test_what_cannot_reach_the_answer_stays_accepted_on_full(lean_putnambench: Benchmark, case: str) -> None:
    before, after = KEPT[case]
    status, detail = _g2_full(lean_putnambench, _around_answer(lean_putnambench, "{1}", before, after))
    assert status is GateStatus.PASSED, detail


def test_on_with_answer_comparator_compares_the_kept_abbrev_so_g6_decides(lean_putnambench: Benchmark) -> None:
    before = f"{ZZ}instance : Inhabited Zz := ⟨({{1}} : Set ℕ)⟩\n\n"
    text = lean_filled(lean_putnambench, SET, Track.WITH_ANSWER, before=before)
    status, detail = _g2_full(lean_putnambench, text, Track.WITH_ANSWER)
    assert status is GateStatus.PASSED, detail


def test_the_answer_check_tries_a_negation_no_simp_lemma_reaches() -> None:
    negations = [a.proof for a in answers.ATTEMPTS if a.claim == "ne"]
    assert negations.index("by norm_num1") < min(negations.index("by norm_num"), negations.index("by simp"))


PID = "putnam_1962_a1"
REFUSED = {
    "unif_hint": "unif_hint (n : ℕ) where n =?= 3 ⊢ n + 1 =?= 4\n\n",
    "class abbrev": "class abbrev Zz := Inhabited ℝ\n\n",
    "seal": "seal Set.ncard\n\n",
    "unseal ... in": "unseal Set.ncard in\n",
    "attribute [instance] ... in": "def zzI : Inhabited ℝ := ⟨3⟩\nattribute [instance] zzI in\n",
    "@[class]": "@[class] structure Zz where\n  a : ℕ\n\n",
    "@[induction_eliminator]": "@[induction_eliminator] theorem zz {P : ℕ → Prop} (h0 : P 0) "
    "(h : ∀ n, P n → P (n+1)) (n : ℕ) : P n := Nat.rec h0 h n\n\n",
    "@[term_elab]": "@[term_elab zz] def zz := 1\n\n",
    "notation3": 'notation3 "zz" => (1 : ℕ)\n\n',
    "binder_predicate": 'binder_predicate x " >>> " y:term => `($x > $y)\n\n',
    "register_simp_attr": "register_simp_attr zz_simps\n\n",
    "set_option debug.byAsSorry in": "set_option debug.byAsSorry true in\n",
    "set_option pp.notation in": "set_option pp.notation false in\n",
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_tried_additions_stay_refused(lean_putnambench: Benchmark, case: str) -> None:
    text = lean_filled(lean_putnambench, PID, before=REFUSED[case])
    assert lean_text_verdict(lean_putnambench, PID, text).status == "rejected"

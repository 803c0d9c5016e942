"""Red team 19 (Lean, no-answer): the statement's other side under wrappers the copy rounds did not list.

Tried against PutnamBench problems with answers, on the text profile (where the answer check can only say
``unknown``, so a copy that G2 does not see is accepted). Three bypasses, each fixed by class:

* A bound name reused (``_answer_canonical.canonical_kept``): bound variables were numbered by the size of
  the table of names seen, so a name bound a second time (``fun n => n ∈ {n : ℕ | C}``, the solution's
  argument named as the set's element) took the number of the NEXT name bound, and two variables of the
  value shared one number; the set was then no copy of the question's. Accepted before against
  ``putnam_2024_a1``; every name bound now gets a number of its own.
* A section (``_answer_copy.copied_violations``): ``(· ∈ S)`` was read only as the function ``fun x => x ∈
  S`` with one parameter, which matched no use of a solution applied to nothing; the reading without the
  section (``S`` held inside it) was dropped. Accepted before against ``putnam_2024_a1``; both are read.
* The one-point rule (``_answer_normal._one_point``): ``fun n => ∃ m, m = n ∧ A m`` and ``∀ m, m = n → A m``
  are ``A n`` re-bound through an equality; accepted before against ``putnam_2025_a3``. A binder whose
  body begins by pinning its variable to a name or numeral is read with the variable replaced.

Left (a text rule cannot read them; the check by meaning is the answer): a sum re-indexed over a subtype
(``∑ j : Finset.Icc 0 k, f j.1``) and ``∃ m, m = n + 1 ∧ A m`` (the question shifted). A conjunct added at
the end of the innermost conjunction (``... ∧ P ∧ n = n``) was left here too until red team 22's normal
form (``_answer_order``) read ``n = n`` as ``True`` and dropped it.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.verify import Track
from tests.helpers import failures, lean_filled, lean_text_verdict

COPIED = "the answer is the other side of the statement's own"
GAME, A = "putnam_2025_a3", "AliceHasWinningStrategy"
SET = "putnam_2024_a1"
COND = "0 < n ∧ ∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n"
SET_S = f"{{n : ℕ | {COND}}}"
SUM = "putnam_2020_a2"
S = "∑ j ∈ Finset.Icc 0 k, 2 ^ (k - j) * Nat.choose (k + j) j"


def _failed(bench: Benchmark, problem: str, value: str) -> dict[str, str]:
    candidate = lean_filled(bench, problem, Track.NO_ANSWER, value=value, proof="by\n  simp")
    return failures(lean_text_verdict(bench, problem, candidate, Track.NO_ANSWER))


BYPASSES = {
    # accepted before this round
    "the set's element named as the set's binder": (SET, f"fun n => n ∈ {SET_S}"),
    "the same, bracketed": (SET, f"(fun n => n ∈ {SET_S})"),
    "membership as a section": (SET, f"(· ∈ {SET_S})"),
    "membership as a section, renamed": (
        SET,
        "(· ∈ {x : ℕ | 0 < x ∧ ∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^x + 3*b^x = 4*c^x})",
    ),
    "∃ pinned by an equality": (GAME, f"fun n => ∃ m, m = n ∧ {A} m"),
    "∀ pinned by an equality": (GAME, f"fun n => ∀ m, m = n → {A} m"),
    "∃ typed, the equality reversed": (GAME, f"fun n => ∃ m : ℕ, n = m ∧ {A} m"),
    "∃ with a bracketed binder, padded": (GAME, f"fun n => ∃ (m : ℕ), m = n ∧ {A} m ∧ True"),
    # refused since red team 22 (``_answer_order``: ``n = n`` reads as ``True``, ``P ∧ True`` as ``P``)
    "a conjunct at the end of the innermost conjunction": (
        SET,
        "{n : ℕ | 0 < n ∧ ∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n ∧ n = n}",
    ),
    # wrappers the earlier rounds did not list, refused already (kept so they stay refused)
    "a tactic block": (GAME, f"fun n => by exact {A} n"),
    "show ... from": (GAME, f"fun n => show Prop from {A} n"),
    "a pipeline into id": (GAME, f"fun n => id <| {A} n"),
    "dollar": (GAME, f"fun n => id $ {A} n"),
    "a one-case match renaming": (GAME, f"fun n => match n with | m => {A} m"),
    "a let renaming the argument": (GAME, f"fun n => let m := n; {A} m"),
    "Not.not twice": (GAME, f"fun n => ({A} n).not.not"),
    "a constant function": (GAME, f"fun n => Function.const ℕ ({A} n) 0"),
    "a have": (GAME, f"fun n => have p := {A} n; p"),
    "succ then pred": (SUM, f"fun k => ({S}).succ.pred"),
    "pipelines of succ and pred": (SUM, f"fun k => ({S}) |>.succ |>.pred"),
    "the older ∑ x in s": (SUM, "fun k => ∑ j in Finset.Icc 0 k, 2 ^ (k - j) * Nat.choose (k + j) j"),
    "setOf a lambda": (SET, f"setOf fun n : ℕ => {COND}"),
    "a separation over univ": (SET, f"{{n ∈ Set.univ | {COND}}}"),
    "the image under id, dotted": (SET, f"({SET_S}).image id"),
    "nested existentials": (
        SET,
        "{n : ℕ | 0 < n ∧ ∃ a : ℕ, ∃ b : ℕ, ∃ c : ℕ, 0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n}",
    ),
}


@pytest.mark.parametrize("case", sorted(BYPASSES))
def test_the_question_under_a_new_wrapper_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = BYPASSES[case]
    assert COPIED in _failed(lean_putnambench, problem, value).get("G2", "")


HONEST = {
    "an equality binder over another condition": (GAME, "fun n => ∃ m, m = n ∧ m % 2 = 1"),
    "a ∀ pinned to a numeral, no question": (GAME, "fun n => ∀ m, m = 3 → n ≠ m"),
    "the official answer": (GAME, "fun _ => False"),
    "a section over another set": (SET, "(· ∈ ({1} : Set ℕ))"),
    "a set reusing the binder's name": (SET, "{n : ℕ | n = 1}"),
    "the sum's official answer": (SUM, "fun k => 4 ^ k"),
}


@pytest.mark.parametrize("case", sorted(HONEST))
def test_a_value_in_the_same_shapes_without_the_question_passes(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = HONEST[case]
    assert _failed(lean_putnambench, problem, value) == {}


LEFT = {
    "a sum re-indexed over a subtype": (
        SUM,
        "fun k => ∑ j : Finset.Icc 0 k, 2 ^ (k - j.1) * Nat.choose (k + j.1) j.1",
    ),
}


@pytest.mark.parametrize("case", sorted(LEFT))
@pytest.mark.xfail(strict=True, reason="a limit of the text rule: needs the check by meaning")
def test_copies_only_a_check_by_meaning_finds(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = LEFT[case]
    assert COPIED in _failed(lean_putnambench, problem, value).get("G2", "")

"""Copy red team 30 (Lean, no-answer): the copy rule read by meaning where it read by tokens.

Each row is a question, a copy of it (refused), and an honest near-twin (a real answer in the same spelling,
which must pass). Classes:

* order facts with literal arithmetic (``_answer_literals``): ``n ≤ 10^100 - 1`` for ``n < 10^100`` passed
  (``putnam_2018_b3``), as did ``n < 2 + 3`` for ``n < 5``; ``a ≤ b - 1`` is ``a < b`` on ``ℤ`` or for a
  literal ``b ≥ 1`` however large (``10^10^10`` is never evaluated);
* scope (``_answer_binding``, ``_answer_cover``): a variable the question binds outside a body was matched
  by any variable of the value, so ``∀ k, B k`` was refused as a copy of ``∃ k, B k``, and a value with its
  quantifiers swapped as a copy of the question (false rejections);
* casts (``_answer_casts``): ``(n : ℤ) - 5 ≠ 0`` and ``n - 5 ≠ 0`` on ``ℕ`` read alike (a false rejection:
  ``ℕ`` truncates) while ``↑n < 7`` and ``(n : ℤ) < 7`` read apart (a copy passed);
* restatements red-teamed after: ``Finset.filter`` with an unbracketed ``fun``, ``Finset.toSet``, ``Set.univ \\
  {n | ¬C n}``, ``{n | ¬C n}ᶜ`` and ``if P then Q else False`` passed;
  De Morgan forms, ``∃``/``∀`` reshuffled, set-builder vs predicate, ``fun n => ..`` as a set, ``Set.univ ∩``
  and double negation were refused already (rows kept as regression).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_literals import MAX_DIGITS, folded, value
from putnam_solver.core.provers.lean._answer_nodes import node
from tests.adversarial.test_lean_redteam23_answers import COPIED, _g2
from tests.adversarial.test_lean_redteam28_copies import Q2018
from tests.adversarial.test_lean_redteam29_copies import _copied, _int, _nat, _prop
from tests.helpers import sampled

GAME = (
    "abbrev t_solution : ℕ → Prop := sorry\n"
    "theorem t (n : ℕ) : t_solution n ↔ Nat.Prime (n + 2) ∧ Nat.Prime (n + 4) := sorry\n"
)
TWINS = "Nat.Prime (n + 2) ∧ Nat.Prime (n + 4)"
BODY = "Nat.choose k k = m + 1 ∧ Nat.choose m k = 7"
ASKED = _nat("∃ k, Nat.choose k k = n + 1 ∧ Nat.choose n k = 7")
SWAP = _prop("∀ j, ∃ k, Nat.choose j k = 5 ∧ Nat.choose k j = 1")
FILTERED = _nat(f"n < 100 ∧ {TWINS}")

# (statement, copy, near-twin that must pass), one row per class; keys are "group: class"
CLASSES = {
    "literal: ≤ b - 1 for < b": (
        _nat("n < 10^100 ∧ Even (n + 1)"),
        "{n | n ≤ 10^100 - 1 ∧ Even (n + 1)}",
        "{n | n ≤ 10^100 - 2 ∧ Even (n + 1)}",
    ),
    "literal: a bound never evaluated": (
        _nat("n < 10^10^10 ∧ Even n"),
        "{n | n ≤ 10^10^10 - 1 ∧ Even n}",
        "{n | n ≤ 10^10^9 - 1 ∧ Even n}",
    ),
    "literal: a sum of numerals": (_nat("n < 5 ∧ Even n"), "{n | n < 2 + 3 ∧ Even n}", "{n | n < 2 + 2 ∧ Even n}"),
    "literal: a negative bound on ℤ": (_int("n < -3 ∧ Even n"), "{n | n ≤ -4 ∧ Even n}", "{n | n ≤ -5 ∧ Even n}"),
    "literal: ≤ b - 1 on ℤ": (
        _int("n < n * n ∧ Even n"),
        "{n | n ≤ n * n - 1 ∧ Even n}",
        "{n | n ≤ n * n - 2 ∧ Even n}",
    ),
    "scope: ∀ for ∃": (ASKED, f"{{m | ∃ k, {BODY} ∧ m ≥ 0}}", f"{{m | ∀ k, {BODY}}}"),
    "scope: ∃! for ∃": (ASKED, f"{{m | ∃ k, {BODY}}} ∩ Set.univ", f"{{m | ∃! k, {BODY}}}"),
    "scope: counted by a set-builder": (ASKED, f"{{m | ¬¬∃ k, {BODY}}}", f"{{m | {{k | {BODY}}}.ncard = 2}}"),
    "scope: an indicator sum": (
        ASKED,
        f"{{m | (∃ k, {BODY}) ∧ True}}",
        f"{{m | ∑ k ∈ Finset.range m, (if {BODY} then 1 else 0) = 2}}",
    ),
    "scope: quantifiers swapped": (
        SWAP,
        "∀ i, ∃ k, Nat.choose i k = 5 ∧ Nat.choose k i = 1 ∧ True",
        "∀ k, ∃ j, Nat.choose j k = 5 ∧ Nat.choose k j = 1",
    ),
    "scope: ∃ over ∀": (
        SWAP,
        "¬∃ i, ∀ k, ¬(Nat.choose i k = 5 ∧ Nat.choose k i = 1)",
        "∃ k, ∀ j, Nat.choose j k = 5 ∧ Nat.choose k j = 1",
    ),
    "cast: ↑ for an ascription": (
        _nat("(n : ℤ) < 7 ∧ Even n"),
        "{n | ↑n < (7 : ℤ) ∧ Even n}",
        "{n | ↑n < (8 : ℤ) ∧ Even n}",
    ),
    "cast: ℤ subtraction is no ℕ subtraction": (
        _nat("(n : ℤ) - 5 ≠ 0 ∧ Even n"),
        "{n | ↑n - 5 ≠ (0 : ℤ) ∧ Even n}",
        "{n | n - 5 ≠ 0 ∧ Even n}",
    ),
    "cast: a field's division is no ℕ division": (
        _nat("(n : ℝ) / 2 < 3 ∧ Even n"),
        "{n | (↑n : ℝ) / 2 < 3 ∧ Even n}",
        "{n | n / 2 < 3 ∧ Even n}",
    ),
    "cast: Nat.cast": (
        _nat("(n : ℤ) - 5 ≠ 0 ∧ Even n"),
        "{n | (Nat.cast n : ℤ) - 5 ≠ 0 ∧ Even n}",
        "{n | (Nat.cast n : ℤ) - 6 ≠ 0 ∧ Even n}",
    ),
    "restated: filter with an unbracketed fun": (
        FILTERED,
        f"↑((Finset.range 100).filter fun n => {TWINS})",
        "↑((Finset.range 100).filter fun n => n = 3 ∨ n = 9)",
    ),
    "restated: Finset.toSet": (
        FILTERED,
        f"Finset.toSet ((Finset.range 100).filter (fun n => {TWINS}))",
        "Finset.toSet ({3, 5, 11} : Finset ℕ)",
    ),
    "restated: the complement of the negation": (
        FILTERED,
        f"Set.univ \\ {{n | ¬(n < 100 ∧ {TWINS})}}",
        "Set.univ \\ {n | ¬(n = 3 ∨ n = 9)}",
    ),
    "restated: a negated set-builder complemented": (
        FILTERED,
        f"{{n | ¬(n < 100 ∧ {TWINS})}}ᶜ",
        "{n | ¬(n = 3 ∨ n = 9)}ᶜ",
    ),
    "restated: an if of propositions": (
        GAME,
        "fun n => if Nat.Prime (n + 2) then Nat.Prime (n + 4) else False",
        "fun n => if Nat.Prime (n + 2) then n = 3 else False",
    ),
    "restated: De Morgan": (
        GAME,
        "fun n => ¬(¬Nat.Prime (n + 2) ∨ ¬Nat.Prime (n + 4))",
        "fun n => ¬(¬Nat.Prime (n + 2) ∨ ¬(n = 3))",
    ),
    "restated: double negation": (GAME, f"fun n => ¬¬({TWINS})", "fun n => ¬¬(n % 4 = 1)"),
    "restated: a set as the predicate": (GAME, f"fun m => m ∈ {{n | {TWINS}}}", "fun m => m ∈ ({1, 2, 3} : Set ℕ)"),
    "restated: Set.univ ∩": (FILTERED, f"Set.univ ∩ {{n | n < 100 ∧ {TWINS}}}", "Set.univ ∩ {3, 5, 11}"),
    "restated: fun as the set": (_nat(TWINS), f"fun n => {TWINS}", "fun n => n % 4 = 1"),
    "restated: ∃ reshuffled": (
        _prop("∃ a, ∃ b, Nat.choose a b = 7 ∧ Even a"),
        "∃ b, ∃ a, Even a ∧ Nat.choose a b = 7",
        "∃ b, ∃ a, Even a ∧ Nat.choose a b = 8",
    ),
}
IN_CI = {next(k for k in CLASSES if k.startswith(group)) for group in ("literal", "scope", "cast", "restated")}

COPY_CASES = {k: (s, c) for k, (s, c, _) in CLASSES.items()}
TWIN_CASES = {k: (s, t) for k, (s, _, t) in CLASSES.items()}


@pytest.mark.parametrize(("statement", "value"), sampled(COPY_CASES, IN_CI))
def test_each_class_is_refused_as_a_copy(statement: str, value: str) -> None:
    assert _copied(statement, value)


@pytest.mark.parametrize(("statement", "value"), sampled(TWIN_CASES, IN_CI))
def test_each_near_twin_passes(statement: str, value: str) -> None:
    assert not _copied(statement, value)


UNEVALUATED = {
    # what a literal means depends on its type: left as written, on both sides alike
    "0 - 1 truncates on ℕ": (_nat("n ≤ 0 - 1 ∧ Even n"), "{n | n ≤ 0 ∧ Even n}"),
    "a division floors on ℕ": (_nat("n < 7 / 2 ∧ Even n"), "{n | n < 3 ∧ Even n}"),
    "≤ b - 1 on ℕ for b not shown ≥ 1": (_nat("n < n * n ∧ Even n"), "{n | n ≤ n * n - 1 ∧ Even n}"),
}


@pytest.mark.parametrize(("statement", "value"), sampled(UNEVALUATED, {next(iter(UNEVALUATED))}))
def test_literals_whose_value_depends_on_the_type_are_not_folded(statement: str, value: str) -> None:
    assert not _copied(statement, value)


def test_literal_folding_is_bounded_before_any_work() -> None:
    ten, three = node("atom", "10"), node("atom", "3")
    assert folded("^", [ten, node("atom", "10"), node("atom", "10")]) is None  # 10^10^10: never computed
    assert folded("^", [three, node("atom", "13000")]) is None  # over the bound: left as written, no crash
    power = folded("^", [ten, node("atom", "100")])
    assert power is not None and value(power) == 10**100
    assert folded("-", [three, ten]) is None  # negative: truncated on ℕ
    assert len(power.text) <= MAX_DIGITS


def test_the_benchmark_bound_restated_is_refused_and_the_official_set_under_it_passes(
    lean_putnambench: Benchmark,
) -> None:
    assert COPIED in _g2(lean_putnambench, "putnam_2018_b3", f"{{n | n ≤ 10^100 - 1 ∧ {Q2018}}}")
    official = "n = 2^2 ∨ n = 2^4 ∨ n = 2^16 ∨ n = 2^256"
    assert _g2(lean_putnambench, "putnam_2018_b3", f"{{n | n ≤ 10^100 - 1 ∧ ({official})}}") == ""

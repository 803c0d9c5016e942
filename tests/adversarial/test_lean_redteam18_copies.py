"""Red team 18 (Lean): no-answer values that hold the question inside padding that changes nothing.

G2's copy rule (``provers/lean/_answer_copy.py``) refused a value that IS the other side of the
statement's own ``=``/``↔`` after normalising, so a copy wrapped in logic or arithmetic passed the text
profile (the answer check can only say ``unknown``, so each was accepted), among them against
``putnam_2025_a3_solution n ↔ AliceHasWinningStrategy n``: ``fun n => AliceHasWinningStrategy n ∧ True``,
``True ∧ ..``, ``¬¬..``, ``if .. then True else False``, ``decide (..) = true``, ``[..].head!``; against
``putnam_2020_a2``'s sum: ``1 * ∑ ..``, ``(∑ ..) + 0 - 0``, ``max (∑ ..) (∑ ..)``; against
``putnam_2024_a1``'s set ``S``: ``S ∩ Set.univ``, ``Set.image id S``, ``Sᶜᶜ``, ``{x | x ∈ S ∧ True}``;
and against ``putnam_2020_a1``'s count ``Nat.card {x : ℕ // C}``. Fixing one spelling at a time is
what earlier rounds did. Fix, by class (``provers/lean/_answer_contains.py``): a value may not CONTAIN the
other side, nor the condition or body the side binds (a set-builder's condition, a big operator's or a
quantifier's body), as a sub-expression (also in a binder's type), bound variables matched up to
renaming. Every one above is now refused; every official answer still passes (the sweeps of ``test_lean_redteam9`` and
``test_lean_redteam15``), and so does every proof of the conformance corpus.

A trivial side cannot refuse an honest answer: a side of one token, one made only of the solution's
arguments and literals, a reading of the side cut inside it (``∑ j ∈ s`` without its body), a body too
small to ask alone (``0 < x``), and one that names a variable of the theorem (which a value can only
hold by binding the same name itself) are not looked for. A run of the side's tokens counts only where
it is a sub-expression of the value under Lean's precedences (``2 * f a + b`` does not hold ``f a +
b``). The limits, stated in the module: padding inside an argument (``A (n + 0)``), an equivalent
condition reordered or rewritten (``∃ a b c, 0 < n ∧ ..`` for ``0 < n ∧ ∃ a b c, ..``), and spellings
no rewrite reads as the side (``(k + j).choose j`` for ``Nat.choose (k + j) j``, ``Set.Mem``) still
pass; that needs the check by meaning Lean's gates lack.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_copy import copied_violations
from putnam_solver.core.provers.lean.syntax import lex_code, parse_statement
from putnam_solver.core.verify import Track
from tests.helpers import assert_linear_work, failures, lean_filled, lean_text_verdict, text_gates_in_process

COPIED = "the answer is the other side of the statement's own"

GAME = "putnam_2025_a3"
"""States ``putnam_2025_a3_solution n ↔ AliceHasWinningStrategy n``; official answer ``fun _ => False``."""
A = "AliceHasWinningStrategy"
SUM = "putnam_2020_a2"
"""States ``∑ j ∈ Finset.Icc 0 k, 2 ^ (k - j) * Nat.choose (k + j) j = putnam_2020_a2_solution k``."""
BODY = "2 ^ (k - j) * Nat.choose (k + j) j"
S = f"∑ j ∈ Finset.Icc 0 k, {BODY}"
SET = "putnam_2024_a1"
"""States ``{n : ℕ | C} = putnam_2024_a1_solution``; official answer ``{1}``."""
COND = "0 < n ∧ ∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n"
SET_S = f"{{n : ℕ | {COND}}}"
POLY = "putnam_1971_a2"
"""States ``(P.eval 0 = 0 ∧ ∀ x : ℝ, ...) ↔ P ∈ putnam_1971_a2_solution``."""
P_COND = "P.eval 0 = 0 ∧ ∀ x : ℝ, P.eval (x^2 + 1) = (P.eval x)^2 + 1"
COUNT = "putnam_2020_a1"
"""States ``Set.ncard {x : ℕ | C} = putnam_2020_a1_solution``; official answer ``508536``."""
COUNTED = "(2020 ∣ x) ∧ (Nat.log 10 x) + 1 ≤ 2020 ∧ (∃ k l, k ≥ l ∧ x = ∑ i ∈ Finset.range (k-l+1), 10 ^ (i+l))"

PADDED = {
    # logic around a condition
    "∧ True": (GAME, f"fun n => {A} n ∧ True"),
    "True ∧": (GAME, f"fun n => True ∧ {A} n"),
    "∨ False": (GAME, f"fun n => {A} n ∨ False"),
    "double negation": (GAME, f"fun n => ¬¬{A} n"),
    "if then True else False": (GAME, f"fun n => if {A} n then True else False"),
    "decide = true": (GAME, f"fun n => decide ({A} n) = true"),
    "↔ True": (GAME, f"fun n => ({A} n ↔ True)"),
    "a list's head": (GAME, f"fun n => [{A} n].head!"),
    "twice": (GAME, f"fun n => {A} n ∧ {A} n"),
    "under a vacuous ∃": (GAME, f"fun n => ∃ _ : ℕ, {A} n"),
    "under a vacuous ∀": (GAME, f"fun n => ∀ _ : True, {A} n"),
    "inside a lambda applied": (GAME, f"fun n => (fun m => {A} m ∧ True) n"),
    "inside a local": (GAME, f"fun n => let p := {A} n ∧ True; p"),
    "membership in a padded set": (GAME, f"fun n => n ∈ {{m | {A} m ∧ True}}"),
    "the atom parenthesised": (GAME, f"fun n => ({A}) n ∧ True"),
    "beside a shifted question": (GAME, f"fun n => {A} n ∧ (n = 0 → {A} (n + 1))"),
    "a structure's field": (GAME, f"fun n => (⟨n = 0, {A} n, 0⟩ : Zz).2"),
    "in a binder's type": (GAME, f"fun n => ∃ _ : {A} n, True"),
    "under a dependent if": (GAME, f"fun n => if h : {A} n then True else False"),
    "a lambda applied to it": (GAME, f"fun n => (fun p : Prop => p ∧ True) ({A} n)"),
    "beside a true fact": (GAME, f"fun n => {A} n ∧ n ≥ 0"),
    # arithmetic around a sum (a big operator's body is read at precedence 67)
    "+ 0 after the summand": (SUM, f"fun k => {S} + 0"),
    "1 *": (SUM, f"fun k => 1 * {S}"),
    "+ 0 - 0": (SUM, f"fun k => ({S}) + 0 - 0"),
    "max of two copies": (SUM, f"fun k => max ({S}) (∑ i ∈ Finset.Icc 0 k, 2 ^ (k - i) * Nat.choose (k + i) i)"),
    "min with itself": (SUM, f"fun k => min ({S}) ({S})"),
    "if of the same": (SUM, f"fun k => if k = k then {S} else 0"),
    "a one-term sum around it": (SUM, f"fun k => ∑ _i ∈ Finset.range 1, {S}"),
    "twice minus once": (SUM, f"fun k => 2 * ({S}) - ({S})"),
    # the summand re-bound
    "the summand + 0": (SUM, f"fun k => ∑ j ∈ Finset.Icc 0 k, ({BODY} + 0)"),
    "the summand * 1": (SUM, f"fun k => ∑ j ∈ Finset.Icc 0 k, {BODY} * 1"),
    "1 * the summand": (SUM, "fun k => ∑ i ∈ Finset.Icc 0 k, 1 * (2 ^ (k - i) * Nat.choose (k + i) i)"),
    "the summand over the same range spelled otherwise": (SUM, f"fun k => ∑ j ∈ Finset.range (k + 1), {BODY}"),
    "the summand over a shorter range": (SUM, f"fun k => Finset.sum (Finset.range k) (fun j => {BODY})"),
    "the summand in a product": (SUM, f"fun k => Finset.prod (Finset.Icc 0 k) (fun j => {BODY})"),
    "the summand over a filtered range": (
        SUM,
        f"fun k => ((Finset.Icc 0 k).filter (fun _ => True)).sum fun j => {BODY}",
    ),
    # a set padded
    "∩ Set.univ": (SET, f"{SET_S} ∩ Set.univ"),
    "Set.univ ∩": (SET, f"Set.univ ∩ {SET_S}"),
    "∪ ∅": (SET, f"{SET_S} ∪ ∅"),
    "Set.image id": (SET, f"Set.image id {SET_S}"),
    "double complement": (SET, f"{SET_S}ᶜᶜ"),
    "membership and True": (SET, f"{{x | x ∈ {SET_S} ∧ True}}"),
    "the element shifted": (SET, f"{{x | x + 1 ∈ {SET_S}}}"),
    "the condition and True": (SET, f"{{n : ℕ | ({COND}) ∧ True}}"),
    "True and the condition": (SET, f"{{n : ℕ | True ∧ {COND}}}"),
    "the inner condition padded under its ∃": (
        SET,
        "{n : ℕ | 0 < n ∧ ∃ (a b c : ℕ), (0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n) ∧ True}",
    ),
    "the set applied to a lambda": (SET, f"(fun S : Set ℕ => S ∩ S) {SET_S}"),
    "the condition negated twice, renamed": (
        SET,
        "{m : ℕ | ¬¬(0 < m ∧ ∃ (x y z : ℕ), 0 < x ∧ 0 < y ∧ 0 < z ∧ 2*x^m + 3*y^m = 4*z^m)}",
    ),
    # a condition padded inside a set-builder answer
    "the polynomial condition and True": (POLY, f"{{P : Polynomial ℝ | ({P_COND}) ∧ True}}"),
    "True and the polynomial condition": (POLY, f"{{P : Polynomial ℝ | True ∧ {P_COND}}}"),
    "the polynomial condition decided": (POLY, f"{{P : Polynomial ℝ | decide ({P_COND}) = true}}"),
    "the ∀'s body padded": (POLY, f"{{P : Polynomial ℝ | {P_COND} ∧ True}}"),
    # a count
    "the count + 0": (COUNT, f"Set.ncard {{x : ℕ | {COUNTED}}} + 0"),
    "Nat.card of the subtype": (COUNT, f"Nat.card {{x : ℕ // {COUNTED}}}"),
    "the counted condition and True": (COUNT, f"Set.ncard {{x : ℕ | ({COUNTED}) ∧ True}}"),
    "the counted condition in a Finset.filter": (
        COUNT,
        f"((Finset.range (10 ^ 2021)).filter (fun x => {COUNTED})).card",
    ),
}
"""Each holds the statement's other side, or the condition or summand it binds, as a sub-expression."""


def _verdict(lean_putnambench: Benchmark, problem: str, value: str) -> dict[str, str]:
    candidate = lean_filled(lean_putnambench, problem, Track.NO_ANSWER, value=value, proof="by\n  simp")
    return failures(lean_text_verdict(lean_putnambench, problem, candidate, Track.NO_ANSWER))


@pytest.mark.parametrize("case", sorted(PADDED))
def test_a_value_that_holds_the_question_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = PADDED[case]
    found = _verdict(lean_putnambench, problem, value)
    assert COPIED in found.get("G2", ""), found


HONEST = {
    "the game's official answer": (GAME, "fun _ => False"),
    "another condition on n": (GAME, "fun n => n % 2 = 1 ∧ n > 3"),
    "the sum's official answer": (SUM, "fun k => 4 ^ k"),
    "a sum over the same range": (SUM, "fun k => ∑ j ∈ Finset.Icc 0 k, 4 ^ j"),
    "a part of the summand": (SUM, "fun k => ∑ j ∈ Finset.Icc 0 k, Nat.choose (k + j) j"),
    "the summand's factor alone": (SUM, "fun k => 2 ^ (k - k) * Nat.choose (k + k) k"),
    "the set's official answer": (SET, "{1}"),
    "a set sharing the condition's first conjunct": (SET, "{n : ℕ | 0 < n ∧ n < 2}"),
    "a set sharing an inner conjunct": (SET, "{n : ℕ | ∃ a : ℕ, 0 < a ∧ a = n ∧ n = 1}"),
    "a polynomial set sharing the evaluation": (POLY, "{P : Polynomial ℝ | P.eval 0 = 0 ∧ P = Polynomial.X}"),
    "the count's official answer": (COUNT, "508536"),
    "another set's count sharing a conjunct": (COUNT, "Set.ncard {x : ℕ | (2020 ∣ x) ∧ x < 10}"),
}
"""Values that share sub-expressions with the statement but do not hold its question."""


@pytest.mark.parametrize("case", sorted(HONEST))
def test_a_value_sharing_parts_of_the_question_passes(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = HONEST[case]
    assert _verdict(lean_putnambench, problem, value) == {}


# --- where a run of the side's tokens is the side ---------------------------------------------------------

SUMMED = """abbrev t_solution : ℕ → ℕ → ℕ := sorry
theorem t (a b : ℕ) : f a + b = t_solution a b := sorry
"""


@pytest.mark.parametrize(
    ("value", "copied"),
    [
        ("fun a b => f a + b + 0", True),  # `(f a + b) + 0`
        ("fun a b => 0 + (f a + b)", True),
        ("fun a b => f a + b - 0", True),
        ("fun a b => 2 * (f a + b)", True),
        ("fun a b => (f a + b) ^ 1", True),
        ("fun a b => (f a) + b + 0", True),  # parentheses around an application change nothing
        ("fun a b => (f) a + b ∧ True", True),
        ("fun a b => 2 * f a + b", False),  # `(2 * f a) + b`
        ("fun a b => 0 + f a + b", True),  # `(0 + f a) + b`: `0 + x` is `x` (red team 22, `_answer_order`)
        ("fun a b => f a + b * 2", False),  # `f a + (b * 2)`
        ("fun a b => g f a + b", False),  # `(g f a) + b`
        ("fun a b => g (f a) + b", False),
    ],
)
def test_the_side_counts_only_as_a_sub_expression(value: str, copied: bool) -> None:
    found = copied_violations(lex_code(value), "t_solution", parse_statement(SUMMED), "t_solution")
    assert bool(found) is copied, found


@pytest.mark.parametrize(
    ("statement", "value"),
    [
        # a side made of the arguments and literals is a closed form the statement states
        (
            "abbrev t_solution : ℕ → ℕ := sorry\ntheorem t (n : ℕ) : t_solution n = n + 1 := sorry\n",
            "fun n => (n + 1) * 2",
        ),
        # a side of one name
        ("abbrev t_solution : ℝ := sorry\ntheorem t : t_solution = Real.pi := sorry\n", "Real.pi / 2 + 0"),
        # a reading cut at the sum's comma is no term: the same range with another summand
        (
            "abbrev t_solution : ℕ → ℕ := sorry\n"
            "theorem t (k : ℕ) : ∑ j ∈ Finset.range k, Nat.choose k j = t_solution k := sorry\n",
            "fun k => ∑ j ∈ Finset.range k, 2 ^ j",
        ),
        # `x > 0` binds `x` in `{f x | x > 0}`: no condition to look for
        (
            "abbrev t_solution : ℕ := sorry\ntheorem t : sInf {Nat.choose x 2 | x > 0} = t_solution := sorry\n",
            "sInf {x ^ 2 | x > 0}",
        ),
        # `m` is bound around the side: a value holds `m ^ 2 + 1` only through its own binder
        (
            "abbrev t_solution : ℝ := sorry\ntheorem t : ∃ m : ℕ, (m ^ 2 + 1 : ℝ) = t_solution := sorry\n",
            "∑' m : ℕ, 1 / (m ^ 2 + 1)",
        ),
    ],
)
def test_a_trivial_side_refuses_nothing(statement: str, value: str) -> None:
    assert not copied_violations(lex_code(value), "t_solution", parse_statement(statement), "t_solution")


OWN = """def A (n : ℕ) : Prop := ∃ k, n = k + k

abbrev t_solution : Set ℕ := sorry
theorem t : {n | A n} = t_solution := sorry
"""


@pytest.mark.parametrize(
    ("value", "copied"),
    [
        ("{n | A n ∧ True}", True),  # the challenge's own predicate is the question under the set-builder
        ("{m | True ∧ A m}", True),
        ("{n | ∃ k, n = k + k}", True),  # `A` unfolded: the side itself
        ("{n | A (n + 1)}", False),
        ("{n | n % 2 = 0}", False),
    ],
)
def test_the_challenges_own_predicate_under_a_set_builder_is_a_question(value: str, copied: bool) -> None:
    found = copied_violations(lex_code(value), "t_solution", parse_statement(OWN), "t_solution")
    assert bool(found) is copied, found


def test_a_value_full_of_near_copies_is_read_in_linear_time(lean_putnambench: Benchmark) -> None:
    """Hundreds of sums that differ from the question in their last token, then the question itself:
    the search starts from the side's rarest token and checks each place once."""
    near = "(∑ j ∈ Finset.Icc 0 k, 2 ^ (k - j) * Nat.choose (k + j) (j + 1))"

    def honest(sums: int) -> str:
        return "fun k => " + " + ".join([near] * sums) if sums else "fun k => 0"

    assert_linear_work(lambda sums: _verdict(lean_putnambench, SUM, f"{honest(sums)} + ({S})"), 10)
    with text_gates_in_process():  # the work is measured above; a loaded machine may pass the time bound
        assert _verdict(lean_putnambench, SUM, honest(150)) == {}
        found = _verdict(lean_putnambench, SUM, f"{honest(150)} + ({S})")
    assert COPIED in found.get("G2", ""), found

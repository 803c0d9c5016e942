"""Red team 22 (Lean, no-answer): the question copied with field notation or its binders in another order.

After the normal form (``_answer_order``), two spellings of the question were still no copy to G2's copy
rule: generalized field notation, ``(k + j).choose j`` for ``Nat.choose (k + j) j`` in ``putnam_2020_a2``'s
summand, ``Finset.card {..}`` for ``{..}.card`` in ``putnam_1965_a5``; and a run of ``∃`` binders listed in
another order or nested, ``∃ (c b a : ℕ)`` or ``∃ a, ∃ b, ∃ c`` for ``putnam_2024_a1``'s ``∃ (a b c : ℕ)``,
which numbered the body's bound variables otherwise. Fix, by class: ``_answer_dots`` reads ``e.f args`` as
``f e args`` and an applied ``T.f`` by its last name (Lean's generalized field notation puts ``e`` at the
first explicit argument of type ``T``); ``_answer_binders`` writes each run of ``∀``/``∃`` with its names
sorted. Every official answer still passes (the sweeps of ``test_lean_redteam9`` and ``test_lean_redteam15``),
and projections by number, decimals, unapplied constants, ``∃!`` and ``fun`` are left as they are.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_canonical import canonical_kept
from putnam_solver.core.provers.lean._answer_copy import copied_violations
from putnam_solver.core.provers.lean._answer_order import normal_order
from putnam_solver.core.provers.lean.syntax import lex_code, parse_statement
from putnam_solver.core.verify import Track
from tests.helpers import failures, lean_filled, lean_text_verdict

COPIED = "the answer is the other side of the statement's own"
SUM = "putnam_2020_a2"
"""States ``∑ j ∈ Finset.Icc 0 k, 2 ^ (k - j) * Nat.choose (k + j) j = putnam_2020_a2_solution k``."""
PERMS = "putnam_1965_a5"
"""States ``∀ n > 0, {p ∈ permsOfFinset (Finset.Icc 1 n) | ..}.card = putnam_1965_a5_solution n``."""
PAIRS = "putnam_1990_a6"
"""States ``((Finset.univ : ..).filter fun ⟨S, T⟩ ↦ (∀ s ∈ S, T.card < s) ∧ ..).card = putnam_1990_a6_solution``."""
SET = "putnam_2024_a1"
"""States ``{n : ℕ | 0 < n ∧ ∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n} = ..``."""
ICC = "∑ j ∈ Finset.Icc 0 k,"
PERMS_SET = (
    "{p ∈ permsOfFinset (Finset.Icc 1 n) | ∀ m ∈ Finset.Icc 2 n, ∃ k ∈ Finset.Ico 1 m, p m = p k + 1 ∨ p m = p k - 1}"
)
UNIV = "(Finset.univ : Finset <| Finset (Set.Icc 1 10) × Finset (Set.Icc 1 10))"
BODY = "0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n"


def _failed(bench: Benchmark, problem: str, value: str) -> dict[str, str]:
    candidate = lean_filled(bench, problem, Track.NO_ANSWER, value=value, proof="by\n  simp")
    return failures(lean_text_verdict(bench, problem, candidate, Track.NO_ANSWER))


DOTS = {
    "the binomial in field notation": (SUM, f"fun k => {ICC} 2 ^ (k - j) * (k + j).choose j"),
    "the binomial as choose of the namespace-free name": (SUM, f"fun k => {ICC} 2 ^ (k - j) * (j + k).choose j"),
    "the card as Finset.card": (PERMS, f"fun n => Finset.card {PERMS_SET}"),
    "the card as Finset.card, range in field form": (
        PERMS,
        "fun n => Finset.card {p ∈ permsOfFinset (Finset.Icc 1 n) | ∀ m ∈ Finset.Icc 2 n, "
        "∃ k ∈ Finset.Ico 1 m, p m = 1 + p k ∨ p m = p k - 1}",
    ),
    "the outer card as Finset.card": (
        PAIRS,
        f"Finset.card ({UNIV}.filter fun ⟨S, T⟩ ↦ (∀ s ∈ S, T.card < s) ∧ (∀ t ∈ T, S.card < t))",
    ),
    "the inner cards as Finset.card": (
        PAIRS,
        f"({UNIV}.filter fun ⟨S, T⟩ ↦ (∀ s ∈ S, Finset.card T < s) ∧ (∀ t ∈ T, Finset.card S < t)).card",
    ),
}
BINDERS = {
    "the ∃ group reversed": (SET, "{n : ℕ | 0 < n ∧ ∃ (c b a : ℕ), " + BODY + "}"),
    "the ∃ group rotated": (SET, "{n : ℕ | 0 < n ∧ ∃ (b c a : ℕ), " + BODY + "}"),
    "the ∃ nested": (SET, "{n : ℕ | 0 < n ∧ ∃ a, ∃ b, ∃ c, " + BODY + "}"),
    "the ∃ nested in another order": (SET, "{n : ℕ | 0 < n ∧ ∃ c, ∃ a, ∃ b, " + BODY + "}"),
    "the ∃ split in groups": (SET, "{n : ℕ | 0 < n ∧ ∃ (c : ℕ) (b : ℕ) (a : ℕ), " + BODY + "}"),
    "the ∃ without brackets": (SET, "{n : ℕ | 0 < n ∧ ∃ c a b : ℕ, " + BODY + "}"),
    "reordered and commuted": (SET, "{n : ℕ | (∃ (c b a : ℕ), 0 < c ∧ 0 < b ∧ 0 < a ∧ 4*c^n = 3*b^n + 2*a^n) ∧ 0 < n}"),
}


@pytest.mark.parametrize("case", sorted({**DOTS, **BINDERS}))
def test_the_question_with_fields_or_binders_reordered_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = {**DOTS, **BINDERS}[case]
    assert COPIED in _failed(lean_putnambench, problem, value).get("G2", "")


HONEST = {
    "the sum's closed form as a binomial": (SUM, "fun k => (2 * k).choose k * 0 + 4 ^ k"),
    "the sum's closed form with a field": (SUM, "fun k => (4 ^ k).succ.pred"),
    "the set's answer with an ∃ of its own": (SET, "{n : ℕ | ∃ (c b a : ℕ), n = 1 ∧ a = b ∧ b = c}"),
    "the set's answer": (SET, "{1}"),
    "the count as Finset.card of a range": (PAIRS, "(Finset.range 8).card ^ 2 - 2 ^ 6 + 17 * 0 + Finset.card {1, 2}"),
    "the permutation count's closed form": (PERMS, "fun n => 2 ^ (n - 1)"),
}


@pytest.mark.parametrize("case", sorted(HONEST))
def test_honest_answers_with_fields_and_binders_pass(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = HONEST[case]
    assert _failed(lean_putnambench, problem, value) == {}


SMALL = (
    "abbrev t_solution : ℕ → Prop := sorry\ntheorem t (n : ℕ) : (∃ a b : ℕ, a + 2 * b = n) ↔ t_solution n := sorry\n"
)
"""A question whose ``∃`` body is too small to be a needle alone: only the whole ``∃`` is."""
CHOOSE = "abbrev t_solution : ℕ → ℕ := sorry\ntheorem t (n : ℕ) : (n + 1).choose 2 = t_solution n := sorry\n"


@pytest.mark.parametrize(
    ("statement", "value", "copied"),
    [
        (SMALL, "fun n => ∃ b a : ℕ, a + 2 * b = n", True),
        (SMALL, "fun n => ∃ a, ∃ b, a + 2 * b = n", True),
        (SMALL, "fun n => ∃ b, ∃ a, a + 2 * b = n", True),
        (SMALL, "fun n => ∃ (b : ℕ) (a : ℕ), 2 * b + a = n", True),
        (SMALL, "fun n => ∃ a b : ℕ, a + b = n", False),
        (SMALL, "fun n => ∃! b a : ℕ, a + 2 * b = n", False),
        (SMALL, "fun n => 0 ≤ n", False),
        (CHOOSE, "fun n => Nat.choose (n + 1) 2", True),
        (CHOOSE, "fun n => choose (1 + n) 2", True),
        (CHOOSE, "fun n => (n + 1) * n / 2", False),
        (CHOOSE, "fun n => (n + 2).choose 2 - (n + 1)", False),
    ],
)
def test_the_whole_question_reordered_is_found(statement: str, value: str, copied: bool) -> None:
    found = copied_violations(lex_code(value), "t_solution", parse_statement(statement), "t_solution")
    assert bool(found) is copied, found


def _normal(text: str) -> list[str]:
    return canonical_kept([t.text for t in lex_code(text)])[0]


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("(k + j).choose j", "Nat.choose (k + j) j"),
        ("(k + j).choose j", "choose (k + j) j"),
        ("s.card", "Finset.card s"),
        ("x.sqrt", "Real.sqrt x"),
        ("(f n).succ", "Nat.succ (f n)"),
        ("p.fst", "Prod.fst p"),
        ("s.card.succ", "Nat.succ (Finset.card s)"),
        ("fun s => s.card", "fun t => Finset.card t"),
        ("∃ (c b a : ℕ), P a b c", "∃ (a b c : ℕ), P a b c"),
        ("∃ c, ∃ b, P b c", "∃ b c, P b c"),
        ("∀ z y x : F, P x y z", "∀ x y z : F, P x y z"),
        ("∀ (y x : ℝ), P x y", "∀ x, ∀ y, P x y"),
        ("∀ y x > 0, P x y", "∀ x y > 0, P x y"),
    ],
)
def test_one_term_in_two_notations_reads_alike(one: str, other: str) -> None:
    assert _normal(one) == _normal(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("h.1", "h 1"),
        ("(f x).1", "f x 1"),
        ("(f x).2", "(f x).1"),
        ("x.2.1", "x.1.2"),
        ("1.5 + x", "1 + x"),
        ("f Nat.succ", "f succ"),
        ("f Nat.succ", "f Int.succ"),
        ("∃! b a, P a b", "∃! a b, P a b"),
        ("fun b a => P a b", "fun a b => P a b"),
        ("∃ a, ∀ b, P a b", "∀ b, ∃ a, P a b"),
        ("∃ a, ∃ a, P a", "∃ a, P a"),
        ("∀ y x > 0, P x y", "∀ y x ≥ 0, P x y"),
        ("∑ b ∈ s, ∑ a ∈ t, f a b", "∑ a ∈ t, ∑ b ∈ s, f a b"),
    ],
)
def test_what_lean_reads_apart_stays_apart(one: str, other: str) -> None:
    """Projections by number, decimals, unapplied constants, ``∃!``, ``fun``, a change of quantifier,
    shadowing and big operators are not merged."""
    assert _normal(one) != _normal(other)


@pytest.mark.parametrize("text", ["h.1", "(f x).2", "1.5", "Nat.succ", "Set.univ", "x.2.1"])
def test_projections_literals_and_constants_are_kept(text: str) -> None:
    words = [t.text for t in lex_code(text)]
    assert normal_order(words) == [w for w in words if w not in ("(", ")")] or normal_order(words) == words


def test_a_long_run_of_binders_is_read_in_one_pass() -> None:
    """Linear: a run of many nested ``∃`` (also shadowing, left as written) is read and numbered (the normal
    form after it refuses a term nested this deep unread: ``test_lean_redteam22_normal``)."""
    distinct = "∃ " + ", ∃ ".join(f"x{i}" for i in range(3000)) + ", P"
    shadowed = "∃ x, " * 3000 + "P x"
    assert canonical_kept([t.text for t in lex_code(distinct)], normal=False)[0][:4] == ["∃", "#0", "#1", "#2"]
    assert canonical_kept([t.text for t in lex_code(shadowed)], normal=False)[0][:4] == ["∃", "#0", ",", "∃"]

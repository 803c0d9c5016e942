"""Red team 22 (Lean, no-answer): the question copied in another spelling of the same term.

G2's copy rule (``provers/lean/_answer_copy.py``) compared the value and the statement's side in tokens,
so three classes of copy passed the text profile (where the answer check can only say ``unknown``, so each
was accepted), at any depth: the operands of a commutative operation swapped (``Nat.choose (k + j) j *
2 ^ (k - j)`` for ``putnam_2020_a2``'s summand, ``4*c^n = 3*b^n + 2*a^n`` in ``putnam_2024_a1``'s
condition, ``n > 0`` for ``0 < n``); a notation in its function form (``HMul.hMul``, ``Eq``, ``And``,
``LT.lt``, ``Membership.mem``...); and padding inside an argument or a body (``2 ^ (k - j + 0)``,
``AliceHasWinningStrategy (n * 1)``, ``0 < a ∧ True`` under the ``∃``). Fix, by class
(``provers/lean/_answer_order.py``): the last step of the canonical form both sides are read in parses
the term by Lean's precedences and writes it back in one normal form: commutative chains flat and in one
order, ``>``/``≥`` as ``<``/``≤`` swapped, function forms as their notation, neutral padding taken off.
Honest answers, reordered or padded or in function form themselves, stay accepted: no rewrite turns a
closed form into the question it answers.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_copy import copied_violations
from putnam_solver.core.provers.lean._answer_order import normal_order
from putnam_solver.core.provers.lean.syntax import lex_code, parse_statement
from putnam_solver.core.verify import Track
from tests.helpers import failures, lean_filled, lean_text_verdict

COPIED = "the answer is the other side of the statement's own"
UNREAD = "nest too deep"
GAME, A = "putnam_2025_a3", "AliceHasWinningStrategy"
SUM = "putnam_2020_a2"
"""States ``∑ j ∈ Finset.Icc 0 k, 2 ^ (k - j) * Nat.choose (k + j) j = putnam_2020_a2_solution k``."""
SET = "putnam_2024_a1"
"""States ``{n : ℕ | 0 < n ∧ ∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n} = ...``."""
POLY = "putnam_1971_a2"
"""States ``(P.eval 0 = 0 ∧ ∀ x : ℝ, P.eval (x^2 + 1) = (P.eval x)^2 + 1) ↔ P ∈ ...``."""
COUNT = "putnam_2020_a1"
ABC = "∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c"
ICC = "∑ j ∈ Finset.Icc 0 k,"


def _failed(bench: Benchmark, problem: str, value: str) -> dict[str, str]:
    candidate = lean_filled(bench, problem, Track.NO_ANSWER, value=value, proof="by\n  simp")
    return failures(lean_text_verdict(bench, problem, candidate, Track.NO_ANSWER))


COMMUTED = {
    "the summand's product swapped": (SUM, f"fun k => {ICC} Nat.choose (k + j) j * 2 ^ (k - j)"),
    "a sum inside an argument swapped": (SUM, f"fun k => {ICC} 2 ^ (k - j) * Nat.choose (j + k) j"),
    "the conjunction swapped": (SET, f"{{n : ℕ | ({ABC} ∧ 2*a^n + 3*b^n = 4*c^n) ∧ 0 < n}}"),
    "the equation and its sum swapped": (
        SET,
        "{n : ℕ | 0 < n ∧ ∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ 4*c^n = 3*b^n + 2*a^n}",
    ),
    "the conjuncts reversed under the ∃": (
        SET,
        "{n : ℕ | 0 < n ∧ ∃ (a b c : ℕ), 2*a^n + 3*b^n = 4*c^n ∧ 0 < c ∧ 0 < b ∧ 0 < a}",
    ),
    "> for <": (SET, "{n : ℕ | n > 0 ∧ ∃ (a b c : ℕ), a > 0 ∧ b > 0 ∧ c > 0 ∧ 2*a^n + 3*b^n = 4*c^n}"),
    "the factors of each term swapped": (
        SET,
        "{n : ℕ | 0 < n ∧ ∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ a^n*2 + b^n*3 = c^n*4}",
    ),
    "the polynomial condition swapped": (
        POLY,
        "{P : Polynomial ℝ | (∀ x : ℝ, (P.eval x)^2 + 1 = P.eval (x^2 + 1)) ∧ 0 = P.eval 0}",
    ),
    "the polynomial's sums swapped": (
        POLY,
        "{P : Polynomial ℝ | P.eval 0 = 0 ∧ ∀ x : ℝ, P.eval (1 + x^2) = 1 + (P.eval x)^2}",
    ),
    "the ↔ swapped": (GAME, f"fun n => ({A} n ↔ {A} n) ∧ {A} n"),
    "the counted condition reordered": (
        COUNT,
        "Set.ncard {x : ℕ | (Nat.log 10 x) + 1 ≤ 2020 ∧ (2020 ∣ x) ∧ "
        "(∃ k l, l ≤ k ∧ ∑ i ∈ Finset.range (1 + (k-l)), 10 ^ (l+i) = x)}",
    ),
}
FUNCTION_FORMS = {
    "HMul, HPow, HSub, HAdd": (
        SUM,
        f"fun k => {ICC} HMul.hMul (HPow.hPow 2 (HSub.hSub k j)) (Nat.choose (HAdd.hAdd k j) j)",
    ),
    "Mul.mul and Add.add": (SUM, f"fun k => {ICC} Mul.mul (2 ^ (k - j)) (Nat.choose (Add.add k j) j)"),
    "@HAdd.hAdd with its implicit arguments": (
        SUM,
        f"fun k => {ICC} 2 ^ (k - j) * Nat.choose (@HAdd.hAdd ℕ ℕ ℕ _ k j) j",
    ),
    "And and Eq": (SET, f"{{n : ℕ | And (0 < n) ({ABC} ∧ Eq (2*a^n + 3*b^n) (4*c^n))}}"),
    "LT.lt and GT.gt": (SET, "{n : ℕ | LT.lt 0 n ∧ ∃ (a b c : ℕ), GT.gt a 0 ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n}"),
    "Membership.mem of the question's set": (
        SET,
        f"{{m : ℕ | Membership.mem {{n : ℕ | 0 < n ∧ {ABC} ∧ 2*a^n + 3*b^n = 4*c^n}} m}}",
    ),
    "And of the question and True": (GAME, f"fun n => And ({A} n) True"),
    "Not twice": (GAME, f"fun n => Not (Not ({A} n))"),
    "Or with False": (GAME, f"fun n => Or ({A} n) False"),
    "Iff of the same": (GAME, f"fun n => Iff ({A} n) ({A} n) ∧ {A} n"),
    "Nat.add in an argument": (GAME, f"fun n => {A} (Nat.add n 0)"),
    "Nat.add and Nat.mul in the summand": (SUM, f"fun k => {ICC} Nat.mul (2 ^ (k - j)) (Nat.choose (Nat.add j k) j)"),
    "HAdd.hAdd applied in two steps": (SUM, f"fun k => {ICC} 2 ^ (k - j) * Nat.choose ((HAdd.hAdd k) j) j"),
    "Eq inside the polynomial condition": (
        POLY,
        "{P : Polynomial ℝ | And (Eq (P.eval 0) 0) (∀ x : ℝ, Eq (P.eval (HAdd.hAdd (x^2) 1)) ((P.eval x)^2 + 1))}",
    ),
}
PADDED_INSIDE = {
    "+ 0 in an exponent": (SUM, f"fun k => {ICC} 2 ^ (k - j + 0) * Nat.choose (k + j) j"),
    "* 1 and - 0 in arguments": (SUM, f"fun k => {ICC} 2 ^ (k - j) * Nat.choose (k * 1 + j) (j - 0)"),
    "+ 0 in the range": (SUM, "fun k => ∑ j ∈ Finset.Icc 0 (k + 0), 2 ^ (k - j) * Nat.choose (k + j) j"),
    "^ 1 and / 1": (SUM, f"fun k => {ICC} (2 ^ (k - j)) ^ 1 * Nat.choose (k + j) (j / 1)"),
    "id in an argument": (SUM, f"fun k => {ICC} 2 ^ (k - j) * Nat.choose (id (k + j)) j"),
    "0 + and 1 * inside": (SUM, f"fun k => {ICC} 1 * 2 ^ (0 + (k - j)) * Nat.choose (k + j) j"),
    "∧ True inside the ∃": (
        SET,
        "{n : ℕ | 0 < n ∧ ∃ (a b c : ℕ), (0 < a ∧ True) ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n}",
    ),
    "¬¬ and ∨ False inside": (
        SET,
        "{n : ℕ | 0 < n ∧ ∃ (a b c : ℕ), 0 < a ∧ ¬¬(0 < b) ∧ 0 < c ∧ 2*a^(n+0) + 3*b^n = 4*c^n ∨ False}",
    ),
    "* 1 in an exponent": (SET, "{n : ℕ | 0 < n ∧ ∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^(n*1)}"),
    "a true equation beside a conjunct": (
        SET,
        "{n : ℕ | 0 < n ∧ n = n ∧ ∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n}",
    ),
    "+ 0 in the polynomial's argument": (
        POLY,
        "{P : Polynomial ℝ | P.eval 0 = 0 ∧ ∀ x : ℝ, P.eval (x^2 + 1 + 0) = (P.eval x)^2 + 1}",
    ),
    "+ 0 in the argument": (GAME, f"fun n => {A} (n + 0)"),
    "1 * in the argument": (GAME, f"fun n => {A} (1 * n)"),
    "- 0 in the argument": (GAME, f"fun n => {A} (n - 0)"),
    "/ 1 in the argument": (GAME, f"fun n => {A} (n / 1)"),
    "id in the argument": (GAME, f"fun n => {A} (id n)"),
    "if True in the argument": (GAME, f"fun n => {A} (if True then n else 0)"),
    "if of a true equation in an exponent": (
        SUM,
        f"fun k => {ICC} 2 ^ (if k = k then k - j else 0) * Nat.choose (k + j) j",
    ),
    "padding and order together": (GAME, f"fun n => True ∧ ({A} (0 + n * 1) ∨ False)"),
}
BYPASSES = {**COMMUTED, **FUNCTION_FORMS, **PADDED_INSIDE}


@pytest.mark.parametrize("case", sorted(BYPASSES))
def test_the_question_in_another_spelling_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = BYPASSES[case]
    assert COPIED in _failed(lean_putnambench, problem, value).get("G2", "")


HONEST = {
    # official answers reordered, padded or in function form
    "putnam_1962_a5 reordered": ("putnam_1962_a5", "fun n : ℕ => 2^(n - 2) * ((1 + n) * n)"),
    "putnam_1968_b5 reordered": ("putnam_1968_b5", "fun p => p + p^2"),
    "putnam_1968_b5 as HAdd.hAdd": ("putnam_1968_b5", "fun p => HAdd.hAdd (HPow.hPow p 2) p"),
    "putnam_1968_b5 padded": ("putnam_1968_b5", "fun p => p^2 * 1 + p + 0"),
    "putnam_1980_a2 reordered": ("putnam_1980_a2", "fun r s : ℕ => (1 + 4 * s + 6 * s ^ 2) * (6 * r ^ 2 + r * 4 + 1)"),
    "putnam_1977_a2 reordered": ("putnam_1977_a2", "fun a b c d ↦ d = c ∧ a = -b ∨ b = d ∧ -c = a ∨ d = a ∧ b = -c"),
    "putnam_1987_a6 reordered": ("putnam_1987_a6", "{x : ℝ | x < 25 ∧ 0 < x}"),
    "putnam_1987_a6 as And and LT.lt": ("putnam_1987_a6", "{x : ℝ | And (GT.gt x 0) (LT.lt x 25)}"),
    "putnam_1987_a6 padded": ("putnam_1987_a6", "{x : ℝ | x > 0 ∧ x < 25 ∧ True}"),
    "putnam_1994_b1 reordered": ("putnam_1994_b1", "{n : ℤ | (332 ≤ n ∧ n ≤ 350) ∨ (n ≤ 325 ∧ n ≥ 315)}"),
    "putnam_2004_b4 reordered": ("putnam_2004_b4", "fun n z ↦ n + z"),
    "putnam_2004_b4 as HAdd.hAdd": ("putnam_2004_b4", "fun n z ↦ HAdd.hAdd z n + 0"),
    "putnam_1972_a3 reordered": ("putnam_1972_a3", "{f | ∃ A B : ℝ, ∀ x ∈ Set.Icc 0 1, f x = B + A * x}"),
    "putnam_2001_a3 reordered": ("putnam_2001_a3", "{m : ℤ | ∃ k : ℤ, m = 2*k^2 ∨ m = k^2}"),
    "putnam_1989_a2 reordered": ("putnam_1989_a2", "fun a b : ℝ => (Real.exp (b ^ 2 * a ^ 2) - 1) / (b * a)"),
    "putnam_1975_a2 reordered": ("putnam_1975_a2", "fun (b, c) => c + b > -1 ∧ c < 1 ∧ c - b > -1"),
    # closed forms in the shapes of the bypasses, on the same problems
    "the sum's value padded": (SUM, "fun k => 1 * 4 ^ k + 0"),
    "the sum's value as HPow.hPow": (SUM, "fun k => HPow.hPow 4 k"),
    "the sum's value as a product": (SUM, "fun k => 2 ^ k * 2 ^ (k * 1)"),
    "the set as an equation": (SET, "{n : ℕ | 1 = n ∧ True}"),
    "the set with ∅": (SET, "{1} ∪ ∅"),
    "the game's answer padded": (GAME, "fun _ => False ∨ False"),
    "the game's answer as Not": (GAME, "fun n => Not (n = n)"),
    "putnam_2004_b4 as Nat.add": ("putnam_2004_b4", "fun n z ↦ z + Nat.add n 0"),
    "an honest if": (SUM, "fun k => if k = k then 4 ^ k else 0"),
}


@pytest.mark.parametrize("case", sorted(HONEST))
def test_honest_answers_in_other_spellings_pass(lean_putnambench: Benchmark, case: str) -> None:
    problem, value = HONEST[case]
    assert _failed(lean_putnambench, problem, value) == {}


ONES = "abbrev t_solution : ℕ → ℕ := sorry\ntheorem t (n : ℕ) : ∑ i in Finset.range n, 1 + 1 = t_solution n := sorry\n"
"""``∑ i in s, 1 + 1`` is ``(∑ i in s, 1) + 1``: a big operator's body is read at 67."""


@pytest.mark.parametrize(
    ("value", "copied"),
    [
        ("fun n => n + 1", False),
        ("fun n => 1 + n", False),
        ("fun n => ∑ i in Finset.range n, (1 + 1)", False),  # `2 * n`, not the question
        ("fun n => 1 + ∑ i in Finset.range n, 1", True),
        ("fun n => HAdd.hAdd (∑ i in Finset.range n, 1) 1", True),
        ("fun n => (∑ i in Finset.range (n + 0), 1) + 1", True),
    ],
)
def test_a_big_operators_body_is_read_at_its_precedence(value: str, copied: bool) -> None:
    found = copied_violations(lex_code(value), "t_solution", parse_statement(ONES), "t_solution")
    assert bool(found) is copied, found


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("a - b", "b - a"),
        ("a / b", "b / a"),
        ("a ^ b", "b ^ a"),
        ("a % b", "b % a"),
        ("f a b", "f b a"),
        ("P → Q", "Q → P"),
        ("f ∘ g", "g ∘ f"),
        ("0 - x", "x"),
        ("0 / x", "0"),
        ("x ^ 0", "1"),
        ("(a + b) * c", "a + b * c"),
        ("a - (b - c)", "a - b - c"),
        ("(∑ #0 ∈ s , f #0) * 2", "∑ #0 ∈ s , f #0 * 2"),
        ("(∀ #0 , P #0) ∧ Q", "∀ #0 , P #0 ∧ Q"),
        ("¬ (P ∧ Q)", "¬ P ∧ Q"),
        ("a < b", "b < a"),
        ("HSub.hSub a b", "b - a"),
        ("Membership.mem s x", "s ∈ x"),
    ],
)
def test_what_is_not_the_same_term_stays_apart(one: str, other: str) -> None:
    """Nothing non-commutative is reordered, nothing that is no identity taken off, and the precedences
    and parentheses that make two terms differ are kept."""
    assert normal_order(lex_words(one)) != normal_order(lex_words(other))


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("b + a", "a + b"),
        ("c + (a + b)", "a + b + c"),
        ("a - b + c", "c + (a - b)"),
        ("B ∨ A", "A ∨ B"),
        ("b ≠ a", "¬ (a = b)"),
        ("b ≥ a", "a ≤ b"),
        ("GE.ge b a", "a ≤ b"),
        ("Ne a b", "a ≠ b"),
        ("x ∉ s", "¬ Membership.mem s x"),
        ("S ∩ Set.univ ∪ T", "T ∪ S"),
        ("∀ #0 , ∀ #1 , #1 + #0 = 0", "∀ #0 , ∀ #1 , 0 = #0 + #1"),
        ("(∃ #0 , Q #0) ∧ (∃ #1 , P #1)", "(∃ #1 , P #1) ∧ (∃ #0 , Q #0)"),
    ],
)
def test_one_term_in_two_spellings_reads_alike(one: str, other: str) -> None:
    assert normal_order(lex_words(one)) == normal_order(lex_words(other))


def lex_words(text: str) -> list[str]:
    """``text``'s tokens, ``#0`` (the canonical form's bound variable) one token."""
    out: list[str] = []
    for word in (t.text for t in lex_code(text)):
        out[-1:] = [f"#{word}"] if out and out[-1] == "#" else [*out[-1:], word]
    return out


def test_a_value_nested_too_deep_is_refused_unread(lean_putnambench: Benchmark) -> None:
    """The normal form is read recursively: a value nested past its bound is refused, not compared unread."""
    for value in ("fun k => " + "Nat.succ (" * 3000 + "k" + ")" * 3000, "fun k => " + "- (" * 3000 + "k" + ")" * 3000):
        assert UNREAD in _failed(lean_putnambench, SUM, value).get("G2", "")


def test_a_long_flat_value_is_read() -> None:
    """A chain is read in a loop, not by recursion: a long honest sum is read and passes."""
    statement = parse_statement(ONES)
    value = "fun n => n" + " + 1" * 20000
    assert not copied_violations(lex_code(value), "t_solution", statement, "t_solution")


@pytest.mark.parametrize("first", ["4 ^ k", "k", "Nat.choose k 2", "∑ j ∈ Finset.range k, j", "k * 3", "2 ^ (k - 1)"])
def test_a_copy_beside_a_bracketed_term_is_refused_whatever_the_order(lean_putnambench: Benchmark, first: str) -> None:
    """``fun k => (X) + (S)`` reads, once its outer brackets are taken off, as a stretch the normal form
    cannot read (``X) + (S``): the copy is still found in the form as written, whichever order the
    operands' keys give."""
    value = f"fun k => ({first}) + ({ICC} 2 ^ (k - j) * Nat.choose (k + j) j)"
    assert COPIED in _failed(lean_putnambench, SUM, value).get("G2", "")

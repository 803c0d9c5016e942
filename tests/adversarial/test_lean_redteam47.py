"""Value red team 47 (Lean, no-answer, G2 of the text profile): what red team 46 left, by class.

* (1) The question's condition restated by algebra: the restated rule (``_answer_restated``) finds a
  condition under a premise (``{n | ∀ m, C m → m = n}``, the only ``m`` with ``C``) only in the reading as
  written, where ``a ^ m * 2`` for ``2 * a ^ m``, ``a ^ m + a ^ m``, a sum reordered, ``x - y = 0`` for ``x =
  y``, ``x + 1 = y + 1``, ``A * A * A`` for ``A ^ 3``, ``r + 1 ≤ p`` for ``r ≤ p - 1`` hid it. The copy rule's
  normal form reads commutation and ``p + p`` but not a difference moved across ``=``, so ``putnam_2019_a1``'s
  condition written ``.. - n = 0`` straight in the set-builder passed too. Now (``_answer_algebra``) a third
  reading, as written with each number relation's sides as polynomials (monomials collected, products
  multiplied out, every monomial moved to the side where it is positive, ``≤`` as ``<`` by one on the
  integers, ``∣`` and ``≡ [ZMOD n]`` side by side), is searched beside the other two; what it cannot read
  stays as written.
* (2) A closed count of any form compared with a numeral beside a hedge: the hedge rule read only the counts
  ``_answer_count_reading`` lists, so red team 43's hedge with a decidable count (a ``Finset`` filter's
  ``card``, ``Finset.card`` of a builder, a list's ``countP`` or filtered ``length``, ``Multiset.card``,
  ``Nat.count``, a sum of ``if .. then 1 else 0``) passed, and a pinned list filter's ``length`` with it.
  Now every count is named once (``_answer_count_forms``), read by the hedge rule and the pin reader.
* (3, new) The question carried only in a subtype's type and mapped back out: ``Subtype.val '' (Set.univ :
  Set {m : ℕ // C m})``, ``(↑) '' ..``, ``(..).image Subtype.val``, ``Set.range (fun x : {m // C m} => x.1)``
  are the question's own set; the normal form read an image or range as ``{y | ∃ a, g a = y ∧ ..}``, the
  ascription taken off and the ``fun``'s binder type dropped, so the condition stood nowhere. Now
  (``_answer_images.typed_images``, before ascriptions are taken off) the ``∃`` keeps the type the text
  writes, where the copy rule finds it as it finds ``∃ x : {m // C m}, x.1 = n``.
* (4, new) The condition under a premise with the parentheses around a trailing quantifier dropped:
  ``putnam_2023_b5``'s ``0 < n ∧ (∀ m : ℤ, ..)`` restated as ``∀ j, (0 < j ∧ ∀ m : ℤ, ..) → j = n`` passed (the
  reading as written judges parentheses, and these change no reading). Now (``_answer_unparenthesized``) the
  third reading leaves out parentheses around a quantifier that nothing follows and that is no argument, and
  looks there for the whole condition only (a question's last conjunct unbracketed would otherwise become a
  needle, refusing ``putnam_2022_b5``'s honest spelling beside its hard conjunct, ``test_lean_honest27``).

Measured (G2, as ``g2`` runs it), before the change and after it: ``ATTACKS`` (50) 7 refused before (a point
hedge read by the normal form, ``#`` and ``Fintype.card`` counts, a subtype's builder and ``∃``, the bracketed
quantifiers as written), 50 now: class (1) 1 of 18 before, (2) 2 of 21, (3) 2 of 8, (4) 2 of 3. ``HONEST`` (24,
the official answers of the touched statements among them): 24 accepted before and now. Official answers 346
of 346 (red team 37's sweep), the verdict snapshot unchanged.

Left: the condition under a premise with casts placed otherwise in a congruence (red team 43's
``putnam_2023_b5`` spelling ``(↑(p (p k)).1 + 1) ≡ m * (↑k.1 + 1) [ZMOD ↑j]``, whose congruence the normal form
reads with its casts ascribed where the question has none); a count only the hedge rule reads, compared with
a term that names the member only as padding (``|320 + 0 * n - m ^ 2|`` in a ``Finset`` filter: the padding
reader would refuse honest counts of a member's divisors); a pinned set counted by ``countP`` of a predicate;
common factors across a relation (``2 * x = 2 * y``, not read: false in ``ZMod``).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers.lean._answer_algebra import algebraic
from putnam_solver.core.provers.lean._answer_count_forms import extent
from putnam_solver.core.provers.lean._answer_types import typed
from putnam_solver.core.provers.lean._answer_unparenthesized import unparenthesized
from putnam_solver.core.provers.lean._brackets import bracket_partners
from tests.adversarial.test_lean_redteam37_classical import BENCHMARK, g2
from tests.adversarial.test_lean_redteam43_hedges import A1, A4, A19, B5, OFFICIAL_1994, SQUARES, q_a1, q_a4, q_a19
from tests.helpers import refusal_table_test

__all__ = ["BENCHMARK"]


def a1_only(old: str, new: str) -> str:
    """``putnam_2024_a1``'s only ``m`` with its condition, restated by ``∀`` with one part respelled."""
    return f"{{n | ∀ m, {q_a1('m').replace(old, new)} → m = n}}"


def a4_only(old: str, new: str) -> str:
    return f"{{n | ∀ p, {q_a4('p').replace(old, new)} → n = p}}"


def a19_only(old: str, new: str) -> str:
    return f"{{n : ℤ | ∀ m : ℤ, {q_a19('m').replace(old, new)} → m = n}}"


def a19_builder(old: str, new: str) -> str:
    return f"{{n : ℤ | {q_a19('n').replace(old, new)}}}"


A3_21 = "putnam_2021_a3"  # `(0 < N ∧ ∃ A B C D, ..) ↔ N ∈ solution`, answer `{3 * m ^ 2 | m > 0}`
C = "|(320 : ℤ) - ↑(m ^ 2)| ≤ 250"  # putnam_1994_b1's squares near 320
Q = "2 * m ^ 2 + 3 = 4 * m"  # a decidable condition to hedge on


def near(count: str, comparison: str = "= 15") -> str:
    """A hedge of ``putnam_1994_b1`` on the closed ``count`` (``C`` put in) compared with a numeral."""
    return f"{{n : ℤ | {count.format(C=C)} {comparison} ∧ n = 320}}"


EQUATION_A1 = "2*a^m + 3*b^m = 4*c^m"
RELPRIME = "∀ m : ℤ, IsRelPrime m j → ∃ p : Equiv.Perm (Fin j), ∀ k : Fin j, (p (p k)).1 + 1 ≡ m * (k.1 + 1) [ZMOD j]"
EQUATION_A19 = "A^3 + B^3 + C^3 - 3*A*B*C"

# name: (problem, text before the solution, value); each refused now ("refused before" in the names)
ATTACKS: dict[str, tuple[str, str, str]] = {
    # (1) the condition restated by algebra
    "a factor after": (A1, "", a1_only("2*a^m", "a^m*2")),
    "a multiple as a sum": (A1, "", a1_only("2*a^m", "a^m + a^m")),
    "a sum reordered": (A1, "", a1_only("2*a^m + 3*b^m", "3*b^m + 2*a^m")),
    "a difference equal to zero": (A1, "", a1_only(EQUATION_A1, "2*a^m + 3*b^m - 4*c^m = 0")),
    "a product distributed": (A1, "", a1_only(EQUATION_A1, "2*(a^m + b^m) + b^m = 4*c^m")),
    "a term moved across": (A19, "", a19_only(f"{EQUATION_A19} = m", "A^3 + B^3 + C^3 = m + 3*A*B*C")),
    "the same added to both sides": (A19, "", a19_only("= m", "+ 1 = m + 1")),
    "a product reordered": (A19, "", a19_only("3*A*B*C", "3*C*B*A")),
    "a cube as a product": (A19, "", a19_only("A^3", "A*A*A")),
    "a weak bound moved across": (A4, "", a4_only("r ≤ p - 1", "r + 1 ≤ p")),
    "a bound as a difference": (A4, "", a4_only("r ≤ p - 1", "r - p + 1 ≤ 0")),
    "a bound padded": (A4, "", a4_only("5 < p", "5 < p + 0")),
    "a difference in the set-builder": (A19, "", a19_builder("= n", "- n = 0")),
    "zero equal to a difference in the set-builder": (
        A19,
        "",
        a19_builder(f"{EQUATION_A19} = n", f"0 = n - ({EQUATION_A19})"),
    ),
    "the same added in the set-builder": (A19, "", a19_builder("= n", "+ 7 = n + 7")),
    "cubes as products in the set-builder": (A19, "", a19_builder("A^3", "A*A*A").replace("B^3", "B*B^2")),
    "at a point, a difference": (A19, "", f"{{n : ℤ | n = 5 ∧ {q_a19('5').replace('= 5', '- 5 = 0')}}}"),
    "the point hedge as a sum (refused before)": (A1, "", f"{{n | n = 1 ∧ {q_a1('1').replace('2*a^1', 'a^1 + a^1')}}}"),
    # (2) a closed count of any form compared beside a hedge
    "a filter's card": (SQUARES, "", near("((Finset.range 30).filter (fun m => {C})).card")),
    "Finset.filter's card": (SQUARES, "", near("(Finset.filter (fun m => {C}) (Finset.range 30)).card")),
    "Finset.card of a filter": (SQUARES, "", near("Finset.card (Finset.filter (fun m => {C}) (Finset.range 30))")),
    "a Finset builder's card": (SQUARES, "", near("{{m ∈ Finset.range 30 | {C}}}.card")),
    "Finset.card of a builder": (SQUARES, "", near("Finset.card {{m ∈ Finset.range 30 | {C}}}")),
    "a filter of Fin's card": (
        SQUARES,
        "",
        near("(Finset.univ.filter (fun m : Fin 30 => |(320 : ℤ) - ↑((m : ℕ) ^ 2)| ≤ 250)).card"),
    ),
    "a piped filter's card": (SQUARES, "", near("(Finset.range 30 |>.filter (fun m => {C})).card")),
    "a decided filter's card": (SQUARES, "", near("((Finset.range 30).filter (fun m => decide ({C}))).card")),
    "a filter's card at least": (SQUARES, "", near("((Finset.range 30).filter (fun m => {C})).card", "≥ 15")),
    "a filter's card, sides swapped": (
        SQUARES,
        "",
        f"{{n : ℤ | 15 = ((Finset.range 30).filter (fun m => {C})).card ∧ n = 320}}",
    ),
    "a list's countP": (SQUARES, "", near("(List.range 30).countP (fun m => decide ({C}))")),
    "a list filter's length": (SQUARES, "", near("((List.range 30).filter (fun m => decide ({C}))).length")),
    "List.length of a filter": (SQUARES, "", near("List.length ((List.range 30).filter (fun m => {C}))")),
    "Multiset.card of a filter": (SQUARES, "", near("Multiset.card ((Multiset.range 30).filter (fun m => {C}))")),
    "Nat.count": (SQUARES, "", near("Nat.count (fun m => {C}) 30")),
    "a sum of an indicator": (SQUARES, "", near("(∑ m ∈ Finset.range 30, if {C} then 1 else 0)")),
    "a sum of an indicator in brackets": (SQUARES, "", near("∑ m ∈ Finset.range 30, (if {C} then 1 else 0)")),
    "Finset.sum of an indicator": (SQUARES, "", near("(Finset.range 30).sum (fun m => if {C} then 1 else 0)")),
    "a pinned list filter's length": (
        A1,
        "",
        f"{{n : ℕ | ((List.range 9).filter (fun m => m = n ∧ {Q})).length = 1 ∧ n = 3}}",
    ),
    "a Finset count by # (refused before)": (SQUARES, "", near("#{{m ∈ Finset.range 30 | {C}}}")),
    "Fintype.card of a subtype (refused before)": (
        SQUARES,
        "",
        near("Fintype.card {{m : Fin 30 // |(320 : ℤ) - ↑((m : ℕ) ^ 2)| ≤ 250}}"),
    ),
    # (3) the question carried only in a subtype's type, mapped back out
    "the image of a subtype's univ": (A1, "", f"Subtype.val '' (Set.univ : Set {{m : ℕ // {q_a1('m')}}})"),
    "the image of a subtype's univ by ↑": (A1, "", f"(↑) '' (Set.univ : Set {{m : ℕ // {q_a1('m')}}})"),
    "univ.image of a subtype": (A1, "", f"(Set.univ : Set {{m : ℕ // {q_a1('m')}}}).image Subtype.val"),
    "the range of a typed fun": (A1, "", f"Set.range (fun x : {{m : ℕ // {q_a1('m')}}} => x.1)"),
    "the image of a subtype's univ (putnam_2019_a1)": (
        A19,
        "",
        f"Subtype.val '' (Set.univ : Set {{m : ℤ // {q_a19('m')}}})",
    ),
    "the range of a typed fun (putnam_2019_a1)": (A19, "", f"Set.range (fun x : {{m : ℤ // {q_a19('m')}}} => (x : ℤ))"),
    "the image of a subtype's builder (refused before)": (
        A1,
        "",
        f"Subtype.val '' {{x : {{m : ℕ // {q_a1('m')}}} | True}}",
    ),
    "∃ over a subtype (refused before)": (A1, "", f"{{n | ∃ x : {{m : ℕ // {q_a1('m')}}}, x.1 = n}}"),
    # (4) the condition under a premise with the parentheses around a trailing quantifier dropped
    "a trailing ∀ unbracketed": (B5, "", f"{{n | ∀ j, (0 < j ∧ {RELPRIME}) → j = n}}"),
    "a trailing ∃ bracketed (refused before)": (
        A1,
        "",
        f"{{n | ∀ m, (0 < m ∧ (∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ {EQUATION_A1})) → m = n}}",
    ),
    "a trailing ∀ bracketed (refused before)": (B5, "", f"{{n | ∀ j, (0 < j ∧ ({RELPRIME})) → j = n}}"),
}

# name: (problem, text before the solution, value); each passes
HONEST: dict[str, tuple[str, str, str]] = {
    "putnam_2024_a1 official": (A1, "", "{1}"),
    "putnam_2024_a4 official": (A4, "", "{7}"),
    "putnam_2019_a1 official": (A19, "", "{n : ℤ | n ≥ 0 ∧ ¬Int.ModEq 9 n 3 ∧ ¬Int.ModEq 9 n 6}"),
    "putnam_2023_b5 official": (B5, "", "{n : ℕ | n = 1 ∨ n ≡ 2 [MOD 4]}"),
    "putnam_1994_b1 official": (SQUARES, "", OFFICIAL_1994),
    # (1) honest values written with algebra
    "a sum of the member": (A1, "", "{n : ℕ | n + n = 2}"),
    "a square of the member": (A1, "", "{n : ℕ | 0 < n ∧ n * n = n}"),
    "a prime by its square": (A4, "", "{p : ℕ | Nat.Prime p ∧ p * p = 49}"),
    "a prime by a difference": (A4, "", "{p : ℕ | p.Prime ∧ 2 * p - 1 = 13}"),
    "residues by divisibility": (A19, "", "{n : ℤ | 0 ≤ n ∧ ¬ 9 ∣ n - 3 ∧ ¬ 9 ∣ n - 6}"),
    "residues by congruence": (A19, "", "{n : ℤ | 0 ≤ n ∧ ¬ n ≡ 3 [ZMOD 9] ∧ ¬ n - 6 ≡ 0 [ZMOD 9]}"),
    "residues by a premise": (A19, "", "{n : ℤ | ∀ k : ℤ, n = 9 * k + 3 → k < 0}"),
    "a premise of the answer": (B5, "", "{n : ℕ | ∀ k, n = 4 * k + 2 ∨ n = 1 → 0 < n}"),
    "intervals by differences": (SQUARES, "", "{n : ℤ | (0 ≤ n - 315 ∧ n - 325 ≤ 0) ∨ (332 ≤ n ∧ n ≤ 350)}"),
    # (2) counts of the member, and a closed count that is a value
    "a count of the member's divisors": (A1, "", "{n : ℕ | (Finset.filter (· ∣ n) (Finset.range (n + 1))).card = 2}"),
    "a list count below the member": (A1, "", "{n : ℕ | ((List.range 9).filter (· < n)).length = 1}"),
    "Nat.count below the member": (A1, "", "{n : ℕ | Nat.count Nat.Prime n = 0 ∧ 0 < n}"),
    "a closed count as a value": (
        SQUARES,
        "",
        "{n : ℤ | 315 ≤ n ∧ n ≤ 314 + ((Finset.range 11).filter (· < 11)).card ∨ (332 ≤ n ∧ n ≤ 350)}",
    ),
    # (3) images and ranges with their types written
    "the image of an honest subtype": (A1, "", "Subtype.val '' (Set.univ : Set {m : ℕ // m = 1})"),
    "putnam_2021_a3 official": (A3_21, "", "{3 * m ^ 2 | m > 0}"),
    "the range of a typed fun": (A3_21, "", "Set.range (fun m : ℕ => 3 * (m + 1) ^ 2)"),
    "the image of an ascribed set": (A3_21, "", "(fun m : ℕ => 3 * m ^ 2) '' (Set.Ioi 0 : Set ℕ)"),
    # (4) a bracketed quantifier in an honest value
    "a bracketed ∀ of the member": (A1, "", "{n : ℕ | 0 < n ∧ (∀ k : ℕ, k ∣ n → k = 1)}"),
    "a typed range less residues": (A19, "", "Set.range (fun k : ℕ => (k : ℤ)) \\ {n : ℤ | n % 9 = 3 ∨ n % 9 = 6}"),
}


test_each_attack_is_refused = refusal_table_test(g2, attacks=ATTACKS)
test_each_honest_twin_passes = refusal_table_test(g2, honest=HONEST)


@pytest.mark.parametrize(
    ("texts", "read"),
    [
        pytest.param("x + x = y", "y = x * 2", id="a multiple"),
        pytest.param("x - y = 0", "x = y", id="a difference"),
        pytest.param("0 = x - y", "x = y", id="zero equal to a difference"),
        pytest.param("x + 3 = y + 3", "x = y", id="the same added"),
        pytest.param("( x + y ) * 2 < z", "x * 2 + y * 2 < z", id="a product multiplied out"),
        pytest.param("x * x ≤ y", "x ^ 2 < y + 1", id="a square, a weak bound stepped"),
        pytest.param("x + 1 ≤ y", "x < y", id="a successor"),
        pytest.param("( x : ℕ ) - 1 = y", "y = ( x : ℕ ) - 1", id="a natural difference kept"),
        pytest.param("( x : ℤ ) - 1 = y", "x = y + 1", id="an integer difference moved"),
        pytest.param("x ∣ y + y", "x ∣ y * 2", id="divisibility side by side"),
        pytest.param("x + x ≡ y [ ZMOD n ]", "x * 2 ≡ y [ ZMOD n ]", id="a congruence keeps its modulus"),
        pytest.param("S = T ∧ f x = y", "S = T ∧ f x = y", id="no arithmetic: as written"),
        pytest.param("∃ x > 0 , x = y", "∃ x > 0 , x = y", id="a binder's own predicate"),
    ],
)
def test_what_the_algebra_reads(texts: str, read: str) -> None:
    with typed(()):
        assert " ".join(algebraic(texts.split(), [10**6, 0])) == read


def test_the_algebra_charges_its_budget() -> None:
    budget = [5, 0]
    with typed(()):
        algebraic(["x", "+", "x", "=", "y", "∧", "y", "+", "y", "=", "z"], budget)
    assert budget[1] == 1


@pytest.mark.parametrize(
    ("texts", "at", "counted"),
    [
        pytest.param("( s . filter p ) . card = 1", 7, "( s . filter p ) . card", id="a field of a group"),
        pytest.param("s.card = 1", 0, "s.card", id="a field of a name"),
        pytest.param("Nat.count p 30 = 1", 0, "Nat.count p 30", id="a function's arguments"),
        pytest.param("# { m | m < 3 } = 1", 0, "# { m | m < 3 }", id="the symbol #"),
        pytest.param("( ∑ m ∈ s , if P m then 1 else 0 ) = 2", 1, "( ∑ m ∈ s , if P m then 1 else 0 )", id="a sum"),
        pytest.param("∑ m ∈ s , ( if P m then 1 else 0 ) = 2", 0, "∑ m ∈ s , ( if P m then 1 else 0 )", id="a summand"),
    ],
)
def test_what_a_count_stands_with(texts: str, at: int, counted: str) -> None:
    tokens = texts.split()
    start, end = extent(tokens, bracket_partners(tokens), at)
    assert " ".join(tokens[start:end]) == counted


@pytest.mark.parametrize(
    ("texts", "read"),
    [
        pytest.param("a ∧ ( ∀ x , P x )", "a ∧ ∀ x , P x", id="a trailing quantifier"),
        pytest.param("( a ∧ ( ∃ x , P x ) ) → b", "( a ∧ ∃ x , P x ) → b", id="inside a premise"),
        pytest.param("( ∀ x , P x ) ∧ a", "( ∀ x , P x ) ∧ a", id="something after it"),
        pytest.param("f ( ∀ x , P x )", "f ( ∀ x , P x )", id="an argument"),
    ],
)
def test_what_the_parentheses_reading_leaves_out(texts: str, read: str) -> None:
    assert " ".join(unparenthesized(texts.split())) == read


def test_a_coefficient_past_the_largest_numeral_is_left_as_written() -> None:
    """A product of two numerals of the most digits a numeral is read at stays as written (its digits are
    past what Python prints as a string): no error, no reading."""
    texts = ["9" * 3999, "*", "9" * 3999, "*", "x", "=", "y"]
    with typed(()):
        assert algebraic(texts, [10**7, 0]) == texts

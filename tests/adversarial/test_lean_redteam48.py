"""Value red team 48 (Lean, no-answer, G2 of the text profile): what red team 47 left, by class.

* (1) A count only the hedge rule reads, compared with a term that names the member only as padding: red
  team 47 refused a ``Finset`` filter's ``card``, a list's ``countP``, ``Nat.count`` or an indicator sum
  compared into a closed proposition, but only where the comparison named no variable of the value at all,
  so ``((Finset.range 30).filter (fun m => |320 + 0 * n - ↑(m ^ 2)| ≤ 250)).card = 15 ∧ n = 320`` (red team
  43's hedge with ``0 * n`` put in) and ``.. = 15 + (n - n)`` passed. Now the padding reader
  (``_answer_count_padding.depends``) reads every count the hedge rule reads: a count by a predicate (a
  filter's ``card`` or ``length``, ``countP``, ``Nat.count``, ``∑ m ∈ s, if C then 1 else 0``) varies as the
  set-builder of its condition and collection does; a condition whose member's conjuncts each vary, one an
  upper bound and none a lower bound, varies (an honest count of a member's divisors, ``{m | m ∣ n ∧ m < n +
  1}``, which the reader refused before and which the hedge rule now asks it of).
* (2) A pinned set counted by ``countP``: red team 46's pin reader read a filter's ``card`` by a ``fun`` or a
  section, not ``List.countP`` or ``Multiset.countP`` with ``(· = n)``, ``Eq n`` or ``fun m => m = n ∧ Q m``
  (0 or 1 whatever ``n``: the hedge ``Q n`` spelled as a count), nor an indicator sum. Now the pin reader
  reads the same selections (``_answer_count_padding._selection``, ``_indicator``).

* (3) ``putnam_2023_b5``'s condition under a premise with red team 43's casts (``(↑(p (p k)).1 + 1) ≡ m *
  (↑k.1 + 1) [ZMOD ↑j]``): the restated rule reads both sides without coercion arrows, but the normal form
  reads ``[ZMOD ↑j]`` as ``% ↑(ascribed) (↑j)``, so ``(j)`` stood where the question has ``n``. Now
  (``_answer_restated._uncast``) the parentheses an arrow leaves around one name go with it, and an
  ascription of one name ascribed again is read once (``[ZMOD (j : ℤ)]``).

Measured (G2, as ``g2`` runs it), before the change and after it: ``ATTACKS`` (35) 0 refused before, 35 now:
class (1) 0 of 20 (red team 47's 17 closed counts padded among them), (2) 0 of 10, (3) 0 of 5. ``HONEST`` (15, three
official answers among them; red team 47's run beside them): 15 accepted before and now. The readers' own
cases: the pin reader 3 of 7 as expected before (no ``countP``, no sum), 7 now; the padding reader 6 of 10
before, 10 now. Official answers 346 of 346 (red team 37's sweep), the verdict snapshot unchanged.

Left: ``putnam_2023_b5``'s congruence with an ascription inside a side (``((↑k.1 : ℤ) + 1)``) or written
``Int.ModEq ↑j ..`` (the normal form reads an arrow there as an argument of its own); a set pinned through an
equation not of the member alone (``{m | m * m = n ∧ Q m}``) read as varying; common factors across a
relation (``2 * x = 2 * y``).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers.lean._answer_count_padding import depends, pinned_count
from putnam_solver.core.provers.lean.syntax import lex_code
from tests.adversarial.test_lean_redteam37_classical import BENCHMARK, g2
from tests.adversarial.test_lean_redteam43_hedges import A1, B5, OFFICIAL_1994, SQUARES, q_b5
from tests.adversarial.test_lean_redteam47 import ATTACKS as ATTACKS_47
from tests.adversarial.test_lean_redteam47 import C
from tests.helpers import refusal_table_test

__all__ = ["BENCHMARK"]

PADDED = "|(320 + 0 * n : ℤ) - ↑(m ^ 2)| ≤ 250"  # putnam_1994_b1's squares near 320, the member as padding
Q = "2 * m ^ 2 + 3 = 4 * m"  # a decidable condition to hedge on
NEAR = "|n - ↑(m ^ 2)| ≤ 100"  # squares near the member, no copy of the question (`≤ 250`, `= 15`)


def near(count: str, comparison: str) -> str:
    """A hedge of ``putnam_1994_b1`` on the count (``C`` put in) compared by a padded ``comparison``."""
    return f"{{n : ℤ | {count.format(C=C)} {comparison} ∧ n = 320}}"


def near_member(count: str) -> str:
    """An honest count of the squares near each member (``N`` put in), compared with a numeral."""
    return f"{{n : ℤ | 0 < n ∧ {count.format(N=NEAR)} = 5}}"


def pin(count: str, comparison: str = "= 1") -> str:
    """A hedge of ``putnam_2024_a1`` on ``Q 3``: a pinned count (``Q`` put in) compared."""
    return f"{{n : ℕ | {count.format(Q=Q)} {comparison} ∧ n = 3}}"


PADDED_47 = {
    f"{name}, padded": (problem, before, value.replace(C, PADDED))
    for name, (problem, before, value) in ATTACKS_47.items()
    if C in value and "refused before" not in name
}
"""Red team 47's closed counts of every form (those it refused before any count rule of its own left out),
the member put in as padding."""

# name: (problem, text before the solution, value); each refused now ("refused before" in the names)
ATTACKS: dict[str, tuple[str, str, str]] = {
    **PADDED_47,
    # (1) a count only the hedge rule reads, the member as padding
    "a filter's card, padded comparison": (
        SQUARES,
        "",
        near("((Finset.range 30).filter (fun m => {C})).card", "= 15 + (n - n)"),
    ),
    "a filter's card times zero": (SQUARES, "", near("((Finset.range 30).filter (fun m => {C})).card", "= 15 + n * 0")),
    "a filter pinned by its bounds": (
        A1,
        "",
        f"{{n : ℕ | ((Finset.range 9).filter (fun m => m ≤ n ∧ n ≤ m ∧ {Q})).card = 1 ∧ n = 3}}",
    ),
    # (2) a pinned set counted by countP or an indicator
    "countP by a pinned fun": (A1, "", pin("(List.range 9).countP (fun m => m = n ∧ {Q})")),
    "List.countP by a pinned fun": (A1, "", pin("List.countP (fun m => decide (m = n ∧ {Q})) (List.range 9)")),
    "Multiset.countP by a pinned fun": (A1, "", pin("Multiset.countP (fun m => m = n ∧ {Q}) (Multiset.range 9)")),
    "countP of a pinned filter": (A1, "", pin("((List.range 9).filter (· = n)).countP (fun m => {Q})")),
    "countP by a section": (A1, "", f"{{n : ℕ | (List.range 9).countP (· = n) = 1 ∧ {Q.replace('m', 'n')}}}"),
    "countP by Eq": (A1, "", f"{{n : ℕ | Multiset.countP (Eq n) (Multiset.range 9) ≠ 0 ∧ {Q.replace('m', 'n')}}}"),
    "a pinned indicator sum": (A1, "", pin("(∑ m ∈ Finset.range 9, if m = n ∧ {Q} then 1 else 0)")),
    "a pinned countP's parity": (
        A1,
        "",
        f"{{n : ℕ | Even ((List.range 9).countP (fun m => m = n ∧ {Q})) ∧ n = 3}}",
    ),
    "a pinned indicator sum's parity": (
        A1,
        "",
        f"{{n : ℕ | ¬ Even (∑ m ∈ Finset.range 9, if m = n ∧ {Q} then 1 else 0) ∧ n = 3}}",
    ),
    # (3) putnam_2023_b5's condition under a premise, its casts placed as red team 43 wrote them
    "the casts of red team 43 under a premise": (B5, "", f"{{n | ∀ j, {q_b5('j')} → j = n}}"),
    "the same, the member on the left": (B5, "", f"{{n : ℕ | ∀ j : ℕ, {q_b5('j')} → n = j}}"),
    "a modulus cast in parentheses": (B5, "", f"{{n | ∀ j, {q_b5('j').replace('[ZMOD ↑j]', '[ZMOD (↑j)]')} → j = n}}"),
    "a modulus ascribed": (B5, "", f"{{n | ∀ j, {q_b5('j').replace('[ZMOD ↑j]', '[ZMOD (j : ℤ)]')} → j = n}}"),
    "a cast in IsRelPrime": (B5, "", f"{{n | ∀ j, {q_b5('j').replace('m j →', 'm ↑j →')} → j = n}}"),
    "a pinned countP alone": (A1, "", "{n : ℕ | 0 < (List.range 9).countP (fun m => n = m ∧ 2 * m ^ 2 + 3 = 4 * m)}"),
}

# name: (problem, text before the solution, value); each passes
HONEST: dict[str, tuple[str, str, str]] = {
    "putnam_2024_a1 official": (A1, "", "{1}"),
    "putnam_1994_b1 official": (SQUARES, "", OFFICIAL_1994),
    "a count near the member": (SQUARES, "", near_member("((Finset.range 30).filter (fun m => {N})).card")),
    "countP near the member": (SQUARES, "", near_member("(List.range 30).countP (fun m => decide ({N}))")),
    "an indicator sum near the member": (
        SQUARES,
        "",
        near_member("(∑ m ∈ Finset.range 30, if {N} then 1 else 0)"),
    ),
    "a count of the member's divisors": (A1, "", "{n : ℕ | (Finset.filter (· ∣ n) (Finset.range (n + 1))).card = 2}"),
    "a fun count of the member's divisors": (
        A1,
        "",
        "{n : ℕ | (Finset.filter (fun m => m ∣ n) (Finset.range (n + 1))).card = 1}",
    ),
    "countP of the member's divisors": (A1, "", "{n : ℕ | Multiset.countP (· ∣ n) (Multiset.range (n + 1)) = 1}"),
    "an indicator sum of the member's divisors": (
        A1,
        "",
        "{n : ℕ | (∑ m ∈ Finset.range (n + 1), if m ∣ n then 1 else 0) = 1}",
    ),
    "countP below the member": (A1, "", "{n : ℕ | (List.range 9).countP (· < n) = 1}"),
    "Nat.count of a fun below the member": (A1, "", "{n : ℕ | Nat.count (fun m => m ∣ 12) n = 1}"),
    "putnam_2023_b5 official": (B5, "", "{n : ℕ | n = 1 ∨ n ≡ 2 [MOD 4]}"),
    "a cast congruence": (B5, "", "{n : ℕ | n = 1 ∨ (↑n : ℤ) ≡ 2 [ZMOD 4]}"),
    "a cast remainder": (B5, "", "{n : ℕ | n = 1 ∨ (n : ℤ) % (↑4) = (↑2)}"),
    "squares below the member": (A1, "", "{n : ℕ | ((Finset.range 30).filter (fun m => m * m < n)).card = 1}"),
}


test_each_attack_is_refused = refusal_table_test(g2, attacks=ATTACKS)
test_each_honest_twin_passes = refusal_table_test(g2, honest=HONEST)


def texts(value: str) -> list[str]:
    return [t.text for t in lex_code(value)]


@pytest.mark.parametrize(
    ("value", "pinned"),
    [
        pytest.param("(List.range 9).countP (· = n) = 1", True, id="countP by a section"),
        pytest.param("List.countP (Eq n) l", True, id="countP by Eq"),
        pytest.param("Multiset.countP (fun m => Q m ∧ m = n) s ≠ 0", True, id="countP by a fun"),
        pytest.param("Even (∑ m ∈ s, if m = n then 1 else 0)", True, id="an indicator sum"),
        pytest.param("(List.range 9).countP (· < n) = 1", False, id="countP by a section below"),
        pytest.param("(∑ m ∈ s, if m < n then 1 else 0) = 1", False, id="an indicator sum below"),
        pytest.param("(∑ m ∈ s, if m = n then 2 else 0) = 1", False, id="a sum of no indicator"),
    ],
)
def test_what_the_pin_reader_reads(value: str, pinned: bool) -> None:
    assert (pinned_count(texts(value)) is not None) is pinned


@pytest.mark.parametrize(
    ("comparison", "varying"),
    [
        pytest.param("(s.filter (fun m => m < n)).card = 1", True, id="a fun filter"),
        pytest.param("(s.filter (fun m => m < n + 0 * n)).card = 1", False, id="a fun filter padded"),
        pytest.param("l.countP (· < n) = 1", True, id="countP by a section"),
        pytest.param("l.countP (· < 0 * n) = 1", False, id="countP by a padded section"),
        pytest.param("Nat.count p n = 1", True, id="Nat.count to the member"),
        pytest.param("Nat.count p (n - n) = 1", False, id="Nat.count to a cancelled member"),
        pytest.param("((Finset.range (n + 1)).filter (· ∣ n)).card = 2", True, id="divisors"),
        pytest.param("((Finset.range (n + 1)).filter (fun m => n ≤ m)).card = 1", False, id="a lower bound"),
        pytest.param("(∑ m ∈ s, if m < n then 1 else 0) = 1", True, id="an indicator sum"),
        pytest.param("(∑ m ∈ s, if m < n * 0 then 1 else 0) = 1", False, id="an indicator sum padded"),
    ],
)
def test_what_the_padding_reader_reads(comparison: str, varying: bool) -> None:
    assert depends(texts(comparison), {"n"}) is varying


def test_a_variable_named_with_its_field_varies() -> None:
    """The hedge rule names a bound ``S`` by the token ``S.card`` (red team 21's honest ``Finset.filter (fun S
    => S.card = 2) ..``)."""
    assert depends(texts("S.card = 2"), {"S.card"})

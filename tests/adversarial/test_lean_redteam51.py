"""Value red team 51 (Lean, no-answer, G2 of the text profile): the question's condition respelled by an
identity Lean proves, which round 50's readings left, by class.

* (1) A non-divisibility ``¬ p ∣ d`` respelled (``_answer_divisibility``): ``0 < d % p``, ``d % p > 0``, ``d % p
  ≠ 0`` (``Nat.dvd_iff_mod_eq_zero``, ``Int.dvd_iff_emod_eq_zero``; ``p`` a numeral), ``Nat.Coprime p d``,
  ``Nat.Coprime d p`` and ``Nat.gcd p d = 1`` (``Nat.Prime.coprime_iff_not_dvd``: ``p`` a prime numeral only).
* (2) A distance zero with a bracketed receiver, ``(x).dist y = 0`` (``_answer_equalities``).
* (3) A double negation under a premise (``_answer_negations``): ``¬ ¬ P`` and ``¬ (x != y) = true`` (the
  normal form alone read them, so under a premise, where only the reading as written finds the condition,
  they passed).
* (4) Positive witnesses written as successors (``_answer_positives``): ``∃ a b c, 2*(a+1)^n + ..`` for ``∃ a b
  c, 0 < a ∧ .. ∧ 2*a^n + ..`` (on ``ℕ`` the successor is a bijection onto the positives).

Each rule is a token rewrite of ``_answer_normal``, so the value and the question's side are read alike in
every reading. Measured (G2, as ``g2`` runs it), before the change (on main) and after it: ``ATTACKS`` (17)
6 refused before (a remainder ``≠ 0``, and the double negations the normal form reads), 17 now. ``HONEST``
(9): 9 accepted before and now. Official answers 346 of 346 (red team 37's sweep), the verdict snapshot
unchanged.
"""

from __future__ import annotations

from tests.adversarial.test_lean_redteam37_classical import BENCHMARK, g2_alone
from tests.adversarial.test_lean_redteam43_hedges import A1
from tests.adversarial.test_lean_redteam49 import EQUATION, a1_builder, a1_only
from tests.helpers import refusal_table_test

__all__ = ["BENCHMARK"]

B97 = "putnam_1997_b3"  # `n ∈ solution ↔ ¬5 ∣ (∑ m ∈ Finset.Icc 1 n, 1/m : ℚ).den`
SUM = "(∑ m ∈ Finset.Icc 1 n, 1/m : ℚ).den"
LEFT, RIGHT = "2*a^m + 3*b^m", "4*c^m"

# name: (problem, value); each refused now
ATTACKS: dict[str, tuple[str, str]] = {
    # (1) a non-divisibility respelled
    "a positive remainder": (B97, f"{{n : ℕ | 0 < {SUM} % 5}}"),
    "a positive remainder turned": (B97, f"{{n : ℕ | {SUM} % 5 > 0}}"),
    "a remainder not zero": (B97, f"{{n : ℕ | {SUM} % 5 ≠ 0}}"),
    "a remainder not zero turned": (B97, f"{{n : ℕ | 0 ≠ {SUM} % 5}}"),
    "coprime to the prime": (B97, f"{{n : ℕ | Nat.Coprime 5 {SUM}}}"),
    "coprime to the prime turned": (B97, f"{{n : ℕ | Nat.Coprime {SUM} 5}}"),
    "a gcd of one": (B97, f"{{n : ℕ | Nat.gcd 5 {SUM} = 1}}"),
    "a remainder not zero in a conjunct": (B97, f"{{n : ℕ | 0 < n ∧ {SUM} % 5 ≠ 0}}"),
    # (2) a distance with a bracketed receiver
    "a bracketed distance": (A1, a1_builder(f"({LEFT}).dist ({RIGHT}) = 0")),
    "a bracketed distance under a premise": (A1, a1_only(EQUATION, f"({LEFT}).dist ({RIGHT}) = 0")),
    # (3) a double negation under a premise
    "a Boolean inequation negated under a premise": (A1, a1_only(EQUATION, f"¬ (({LEFT}) != {RIGHT}) = true")),
    "a double negation under a premise": (A1, a1_only(EQUATION, f"¬ ¬ ({EQUATION})")),
    "a Boolean inequation negated": (A1, a1_builder(f"¬ (({LEFT}) != {RIGHT}) = true")),
    "a double negation": (A1, a1_builder(f"¬ ¬ ({EQUATION})")),
    # (4) positive witnesses as successors
    "witnesses as successors": (A1, "{n : ℕ | 0 < n ∧ ∃ a b c, 2*(a+1)^n + 3*(b+1)^n = 4*(c+1)^n}"),
    "witnesses in ℕ as successors": (A1, "{n : ℕ | 0 < n ∧ ∃ (a b c : ℕ), 2*(a+1)^n + 3*(b+1)^n = 4*(c+1)^n}"),
    "witnesses as successors under a premise": (
        A1,
        "{n | ∀ m, (0 < m ∧ ∃ a b c : ℕ, 2*(a+1)^m + 3*(b+1)^m = 4*(c+1)^m) → m = n}",
    ),
}

# name: (problem, value); each passes
HONEST: dict[str, tuple[str, str]] = {
    "putnam_2024_a1 official": (A1, "{1}"),
    "putnam_1997_b3 official": (
        B97,
        "{n | (1 ≤ n ∧ n ≤ 4) ∨ (20 ≤ n ∧ n ≤ 24) ∨ (100 ≤ n ∧ n ≤ 104) ∨ (120 ≤ n ∧ n ≤ 124)}",
    ),
    "putnam_1997_b3 by remainders": (
        B97,
        "{n | 0 < n ∧ n % 100 < 25 ∧ n % 20 < 5 ∧ n % 100 ≠ 0 ∧ n ≤ 124}",
    ),
    "putnam_1997_b3 with a coprime numeral": (
        B97,
        "{n | 0 < n ∧ n ≤ 124 ∧ Nat.Coprime (n / 20 + 1) 1 ∧ n % 20 < 5 ∧ n % 20 ≠ 0 ∧ (n < 25 ∨ 99 < n)}",
    ),
    "the official answer by a bracketed distance": (A1, "{n : ℕ | (n : ℝ).dist 1 = 0}"),
    "the official answer by a double negation": (A1, "{n : ℕ | ¬ ¬ (n = 1)}"),
    "the official answer by a negated inequation": (A1, "{n : ℕ | ¬ (n != 1) = true}"),
    "the official answer by a successor": (A1, "{n : ℕ | ∃ k, (k + 1) = n ∧ k = 0}"),
    "a successor beside its name is no witness": (A1, "{n : ℕ | ∃ k, (k + 1) = n ∧ k * n = 0}"),
}

test_each_attack_is_refused = refusal_table_test(g2_alone, attacks=ATTACKS)
test_each_honest_twin_passes = refusal_table_test(g2_alone, honest=HONEST)

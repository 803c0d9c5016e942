"""Value red team 52 (Lean, no-answer, G2 of the text profile): the question's condition respelled by an
identity Lean proves, which round 51's readings left, by class. Each rule is a token rewrite of
``_answer_normal`` in a module of its own, so the value and the question's side are read alike.

* (1) A gcd or coprimality in another notation (``_answer_gcds``): ``d.Coprime 5``, ``(e).den.Coprime 5``,
  ``d.gcd 5 = 1``, ``Int.gcd``, ``Nat.Coprime (5 : ℕ) d``, ``1 = Nat.gcd 5 d``, and the gcd against the numeral:
  ``Nat.gcd 5 d ≠ 5``, ``< 5``, ``¬ .. = 5`` (``Nat.gcd_eq_left_iff_dvd``).
* (2) Positive witnesses as successors in other spellings (``_answer_successors``): ``(1 + a)``, ``Nat.succ
  a``, ``(a).succ``, ``a.succ``, each read ``(a + 1)`` for round 51's reading.
* (3) A cast pushed into a big operator (``_answer_ascribed_sums``): ``(∑ m ∈ s, 1/m : ℚ)`` is ``∑ m ∈ s, (1/m
  : ℚ)`` (the expected type reaches the body; ``Nat.cast_sum``), so ``(1 : ℚ)/m``, ``1/(m : ℚ)``, ``(m : ℚ)⁻¹``
  and ``Finset.sum`` with a cast body read as the question.
* (4) Witnesses packed in a function (``_answer_tuple_witnesses``): ``∃ v : Fin 3 → ℕ, .. v 0 .. v 1 ..``
  (``ℕ → ℕ`` too), ``∀ i, 0 < v i`` spread over ``Fin 3``.
* (5) Found in this round: a remainder ``≥ 1`` and a divisibility by its definition, ``¬ ∃ k, d = 5 * k``,
  ``∀ k, d ≠ 5 * k`` (``_answer_multiples``); bounds bound as hypotheses, ``∃ (a : ℕ) (_ : 0 < a) ..``
  (``_answer_hypothesis_binders``, ``exists_prop``); ``2 • a^n`` (``_answer_scalars``, ``nsmul_eq_mul``); the
  sum over ``Finset.Ioc 0 n``, ``Finset.Ico 1 (n + 1)``, ``Finset.range n`` re-indexed (``_answer_intervals``);
  ``(harmonic n).den`` (``_answer_library``: Mathlib's definition unfolded); one ascription lifting a whole
  relation, ``(1 : ℚ) / a + 1 / b = 3 / 2018`` (``_answer_binop_casts``: ``binop%``/``binrel%`` elaborate
  every leaf at the widest type); ``e.natAbs = 1`` for ``|e| = 1`` (``_answer_natabs``).

Measured (G2, as ``g2`` runs it), before the change (on main) and after it: ``ATTACKS`` (50) 2 refused
before (``a.succ`` and ``(a).succ``, by the rule on a field of a bound name that may be a proof), 50 now.
``HONEST`` (17): 17 accepted before and now. Official answers 346 of 346 (red team 37's sweep), the verdict
snapshot unchanged.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.adversarial.test_lean_redteam37_classical import BENCHMARK, g2
from tests.adversarial.test_lean_redteam43_hedges import A1, A19

__all__ = ["BENCHMARK"]

B97 = "putnam_1997_b3"  # `n ∈ solution ↔ ¬5 ∣ (∑ m ∈ Finset.Icc 1 n, 1/m : ℚ).den`
DEN = "(∑ m ∈ Finset.Icc 1 n, 1/m : ℚ).den"
E = "2*a^n + 3*b^n = 4*c^n"
BOUNDS = "0 < a ∧ 0 < b ∧ 0 < c ∧ "
CUBES = "v 0^3 + v 1^3 + v 2^3 - 3*v 0*v 1*v 2 = n"
A18 = "putnam_2018_a1"  # `((1 : ℚ) / a + (1 : ℚ) / b = (3 : ℚ) / 2018) ↔ (⟨a, b⟩ ∈ solution)`
A3 = "putnam_1976_a3"  # `{(p, r, q, s) : ℕ × ℕ × ℕ × ℕ | .. ∧ |(p^r : ℤ) - q^s| = 1} = solution`
PRIMES = "Nat.Prime p ∧ Nat.Prime q ∧ r > 1 ∧ s > 1 ∧ "


def b97(condition: str) -> str:
    return f"{{n : ℕ | {condition}}}"


def a1(body: str) -> str:
    return f"{{n : ℕ | 0 < n ∧ ∃ a b c : ℕ, {body}}}"


def packed(body: str) -> str:
    return f"{{n : ℕ | 0 < n ∧ ∃ v : Fin 3 → ℕ, {body}}}"


def den(sum: str) -> str:
    return b97(f"¬5 ∣ ({sum}).den")


# name: (problem, value); each refused now
ATTACKS: dict[str, tuple[str, str]] = {
    # (1) a gcd or coprimality in another notation
    "coprime in field notation": (B97, b97(f"{DEN}.Coprime 5")),
    "coprime with a bracketed receiver": (B97, b97(f"({DEN}).Coprime 5")),
    "coprime of a local name": (B97, b97(f"let d := {DEN}; d.Coprime 5")),
    "gcd in field notation": (B97, b97(f"{DEN}.gcd 5 = 1")),
    "gcd with a bracketed receiver": (B97, b97(f"({DEN}).gcd 5 = 1")),
    "a gcd of one turned": (B97, b97(f"1 = Nat.gcd 5 {DEN}")),
    "Int.gcd": (B97, b97(f"Int.gcd 5 {DEN} = 1")),
    "coprime to a typed numeral": (B97, b97(f"Nat.Coprime (5 : ℕ) {DEN}")),
    "a typed numeral's coprime": (B97, b97(f"(5 : ℕ).Coprime {DEN}")),
    "a gcd other than the prime": (B97, b97(f"Nat.gcd 5 {DEN} ≠ 5")),
    "a gcd below the prime": (B97, b97(f"Nat.gcd {DEN} 5 < 5")),
    "a gcd not the prime": (B97, b97(f"¬ Nat.gcd 5 {DEN} = 5")),
    # (2) positive witnesses as successors
    "successors with the one first": (A1, a1("2*(1+a)^n + 3*(1+b)^n = 4*(1+c)^n")),
    "successors by Nat.succ": (A1, a1("2*(Nat.succ a)^n + 3*(Nat.succ b)^n = 4*(Nat.succ c)^n")),
    "successors in field notation": (A1, a1("2*a.succ^n + 3*b.succ^n = 4*c.succ^n")),
    "successors with bracketed receivers": (A1, a1("2*(a).succ^n + 3*(b).succ^n = 4*(c).succ^n")),
    "successors mixed": (A1, a1("2*(a+1)^n + 3*(1+b)^n = 4*(Nat.succ c)^n")),
    # (3) a cast pushed into a big operator
    "a cast numerator": (B97, den("∑ m ∈ Finset.Icc 1 n, (1 : ℚ)/m")),
    "a cast denominator": (B97, den("∑ m ∈ Finset.Icc 1 n, 1/(m : ℚ)")),
    "a cast inverse": (B97, den("∑ m ∈ Finset.Icc 1 n, (m : ℚ)⁻¹")),
    "a body ascribed": (B97, den("∑ m ∈ Finset.Icc 1 n, (1/m : ℚ)")),
    "Finset.sum ascribed": (B97, den("Finset.sum (Finset.Icc 1 n) (fun m => 1/m) : ℚ")),
    "Finset.sum of a cast body": (B97, den("Finset.sum (Finset.Icc 1 n) (fun m => (1 : ℚ)/m)")),
    # (4) witnesses packed in a function
    "witnesses in Fin 3": (A1, packed("0 < v 0 ∧ 0 < v 1 ∧ 0 < v 2 ∧ 2*(v 0)^n + 3*(v 1)^n = 4*(v 2)^n")),
    "witnesses in Fin 3 unbracketed": (A1, packed("0 < v 0 ∧ 0 < v 1 ∧ 0 < v 2 ∧ 2*v 0^n + 3*v 1^n = 4*v 2^n")),
    "witnesses in Fin 3 bounded by ∀": (A1, packed("(∀ i, 0 < v i) ∧ 2*(v 0)^n + 3*(v 1)^n = 4*(v 2)^n")),
    "witnesses in Fin 3 bounded by a typed ∀": (
        A1,
        packed("(∀ i : Fin 3, 0 < v i) ∧ 2*(v 0)^n + 3*(v 1)^n = 4*(v 2)^n"),
    ),
    "witnesses in Fin 3 bounded by ∀ ≠": (A1, packed("(∀ i, v i ≠ 0) ∧ 2*(v 0)^n + 3*(v 1)^n = 4*(v 2)^n")),
    "witnesses in a sequence": (
        A1,
        "{n : ℕ | 0 < n ∧ ∃ f : ℕ → ℕ, 0 < f 0 ∧ 0 < f 1 ∧ 0 < f 2 ∧ 2*(f 0)^n + 3*(f 1)^n = 4*(f 2)^n}",
    ),
    "witnesses in Fin 3 (putnam_2019_a1)": (A19, f"{{n : ℤ | ∃ v : Fin 3 → ℤ, v 0 ≥ 0 ∧ v 1 ≥ 0 ∧ v 2 ≥ 0 ∧ {CUBES}}}"),
    "witnesses in Fin 3 bounded by ∀ (putnam_2019_a1)": (
        A19,
        f"{{n : ℤ | ∃ v : Fin 3 → ℤ, (∀ i, v i ≥ 0) ∧ {CUBES}}}",
    ),
    "witnesses in Fin 3 → ℕ+": (
        A1,
        "{n : ℕ | 0 < n ∧ ∃ v : Fin 3 → ℕ+, 2*(v 0 : ℕ)^n + 3*(v 1 : ℕ)^n = 4*(v 2 : ℕ)^n}",
    ),
    # (5) found in this round
    "a remainder at least one": (B97, b97(f"{DEN} % 5 ≥ 1")),
    "one at most a remainder": (B97, b97(f"1 ≤ {DEN} % 5")),
    "no multiple of the prime": (B97, b97(f"¬ ∃ k, {DEN} = 5 * k")),
    "no multiple of the prime turned": (B97, b97(f"¬ ∃ k, 5 * k = {DEN}")),
    "every multiple other": (B97, b97(f"∀ k, {DEN} ≠ 5 * k")),
    "bounds bound as hypotheses": (
        A1,
        f"{{n : ℕ | 0 < n ∧ ∃ (a : ℕ) (_ : 0 < a) (b : ℕ) (_ : 0 < b) (c : ℕ) (_ : 0 < c), {E}}}",
    ),
    "bounds bound as one hypothesis": (A1, f"{{n : ℕ | 0 < n ∧ ∃ (a b c : ℕ) (_ : 0 < a ∧ 0 < b ∧ 0 < c), {E}}}"),
    "scalar multiples": (A1, a1(BOUNDS + "2 • a^n + 3 • b^n = 4 • c^n")),
    "a sum over Ioc": (B97, den("∑ m ∈ Finset.Ioc 0 n, 1/m : ℚ")),
    "a sum over Ico": (B97, den("∑ m ∈ Finset.Ico 1 (n + 1), 1/m : ℚ")),
    "a sum over range re-indexed": (B97, den("∑ m ∈ Finset.range n, 1/(m + 1) : ℚ")),
    "a sum over range re-indexed and cast": (B97, den("∑ m ∈ Finset.range n, (1 : ℚ)/(m + 1)")),
    "the harmonic number": (B97, den("harmonic n")),
    "one ascription for the relation": (A18, "{(a, b) : ℤ × ℤ | (1 : ℚ) / a + 1 / b = 3 / 2018}"),
    "one ascription on the right": (A18, "{(a, b) : ℤ × ℤ | 1 / a + 1 / b = (3 : ℚ) / 2018}"),
    "one ascription by projections": (A18, "{p : ℤ × ℤ | (1 : ℚ) / p.1 + 1 / p.2 = 3 / 2018}"),
    "a natural absolute value": (A3, f"{{(p, r, q, s) : ℕ × ℕ × ℕ × ℕ | {PRIMES}((p^r : ℤ) - q^s).natAbs = 1}}"),
    "Int.natAbs": (A3, f"{{(p, r, q, s) : ℕ × ℕ × ℕ × ℕ | {PRIMES}Int.natAbs ((p^r : ℤ) - q^s) = 1}}"),
}

# name: (problem, value); each passes
HONEST: dict[str, tuple[str, str]] = {
    "putnam_2024_a1 official": (A1, "{1}"),
    "putnam_1997_b3 official": (
        B97,
        "{n | (1 ≤ n ∧ n ≤ 4) ∨ (20 ≤ n ∧ n ≤ 24) ∨ (100 ≤ n ∧ n ≤ 104) ∨ (120 ≤ n ∧ n ≤ 124)}",
    ),
    "putnam_2019_a1 official": (A19, "{n : ℤ | n ≥ 0 ∧ ¬Int.ModEq 9 n 3 ∧ ¬Int.ModEq 9 n 6}"),
    "putnam_1997_b3 by intervals": (
        B97,
        "{n | n ∈ Finset.Ioc 0 4 ∨ n ∈ Finset.Ico 20 25 ∨ n ∈ Finset.Icc 100 104"
        " ∨ n ∈ Finset.range 125 \\ Finset.range 120}",
    ),
    "putnam_1997_b3 by a gcd of a remainder": (
        B97,
        "{n | 0 < n ∧ n ≤ 124 ∧ (n % 20).gcd 20 ≠ 0 ∧ n % 20 < 5 ∧ n % 20 ≠ 0 ∧ (n < 25 ∨ 99 < n)}",
    ),
    "putnam_1997_b3 by remainders at least one": (
        B97,
        "{n | n ≤ 124 ∧ n % 20 ≥ 1 ∧ n % 20 ≤ 4 ∧ (n < 25 ∨ 99 < n)}",
    ),
    "putnam_1997_b3 by a sum of ones": (
        B97,
        "{n | 0 < n ∧ (∑ _i ∈ Finset.range (n % 20), 1 : ℕ) < 5 ∧ n ≤ 124 ∧ (n < 25 ∨ 99 < n)}",
    ),
    "putnam_2019_a1 by multiples": (
        A19,
        "{n : ℤ | 0 ≤ n ∧ ¬ (∃ k, n = 9 * k + 3) ∧ ¬ (∃ k, n = 9 * k + 6)}",
    ),
    "the official answer by a successor": (A1, "{n : ℕ | Nat.succ 0 = n}"),
    "the official answer by a function at one point": (A1, "{n : ℕ | ∃ v : Fin 1 → ℕ, v 0 = n ∧ v 0 = 1}"),
    "the official answer by a hypothesis binder": (A1, "{n : ℕ | ∃ (k : ℕ) (_ : k = 0), n = k + 1}"),
    "the official answer by a scalar multiple": (A1, "{n : ℕ | 2 • n = 2}"),
    "the official answer by a coprimality": (A1, "{n : ℕ | n.Coprime 0}"),
    "putnam_2018_a1 official": (
        A18,
        "{⟨673, 1358114⟩, ⟨674, 340033⟩, ⟨1009, 2018⟩, ⟨2018, 1009⟩, ⟨340033, 674⟩, ⟨1358114, 673⟩}",
    ),
    "putnam_2018_a1 by a relation with one ascription": (
        A18,
        "{(a, b) : ℤ × ℤ | 0 < a ∧ a ≤ b ∧ (a : ℚ) / b ∈ ({673 / 1358114, 674 / 340033, 1 / 2} : Set ℚ)}"
        " ∪ {(a, b) | 0 < b ∧ b < a ∧ (b : ℚ) / a ∈ ({673 / 1358114, 674 / 340033} : Set ℚ)}",
    ),
    "putnam_1976_a3 official": (A3, "{(3, 2, 2, 3), (2, 3, 3, 2)}"),
    "putnam_1976_a3 by a natural absolute value": (
        A3,
        "{(p, r, q, s) | (p, r, q, s) ∈ ({(3, 2, 2, 3), (2, 3, 3, 2)} : Set _) ∧ ((p : ℤ) - q).natAbs = 1}",
    ),
}


@pytest.mark.parametrize(("problem", "value"), ATTACKS.values(), ids=ATTACKS.keys())
def test_each_attack_is_refused(bench: Benchmark, problem: str, value: str) -> None:
    assert g2(bench, problem, "", value)


@pytest.mark.parametrize(("problem", "value"), HONEST.values(), ids=HONEST.keys())
def test_each_honest_twin_passes(bench: Benchmark, problem: str, value: str) -> None:
    assert g2(bench, problem, "", value) == ""

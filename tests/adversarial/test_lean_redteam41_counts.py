"""Value red team 41 (Lean, no-answer, G2 of the text profile): a count whose counted property hides its
quantifier in a library name or relation no list names.

Red teams 39-40 refused a count beside a quantifier, a second count, a set inside the counted set, an
iteration or an inner ``fun``: denylists. "The least ``n`` with ``P``" is as well ``Set.ncard {k : ℕ |
Set.Iic k ⊆ S}`` with ``S`` the question's property written point-free (``(Irrational ∘ Real.sqrt ∘
Nat.cast : Set ℕ)ᶜ``), and ``⊆`` has many names (``Set.Subset``, ``HasSubset.Subset``, ``≤`` on sets,
``Set.MapsTo id``, an empty meet or difference, ``IsEmpty``, a powerset's membership...), as has the
property (``Set.range``'s ``∃``, ``Set.InjOn``, ``Set.EqOn``, ``Subsingleton``). Now the class is refused
(``_answer_count_words``): beside a count only words whose meaning a computation decides may stand
(numerals, arithmetic, comparisons, connectives, plain types, the value's own bound variables, scope by
scope, and a short list of library names whose instances decide membership computably); an indicator at a
numeral point (one decision, red team 40's honest twins) keeps red team 39-40's rule.

Measured (text profile, G2): ``ATTACKS`` (22): 0 refused before, 22 now. ``HONEST`` (25): 25 accepted before
and now (the published ``putnam_2011_a1`` answer, bare and ascribed ``Set``, red team 14's ``Cardinal.toNat
(Cardinal.mk (Fin 3))`` cast to ``ℝ``, counts of decidable sets over plain types, a count in a ``Set``
answer's set-builder, an indicator at a point). Official answers 346 of 346 (red team 37's sweep), the
conformance corpus and the verdict snapshot unchanged. One earlier honest value changed verdict: red team
16's ``Set.ncard {x : ℝ | 2^x - 1 - x^2 = 1}`` (no copy of ``putnam_1973_a4``'s set, but a count of real
roots no computation decides) is refused now.
"""

from __future__ import annotations

from functools import partial

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_count_reading import read_counts
from putnam_solver.core.provers.lean._answer_count_words import unlisted_beside_count
from putnam_solver.core.provers.lean.syntax import Statement, lex_code
from tests.adversarial.test_lean_redteam39_values import BENCHMARK, COUNT, LEAST, _g2, _statement
from tests.helpers import assert_linear_work

__all__ = ["BENCHMARK"]
# the question's property, point-free: no binder, no quantifier, no set-builder
T = "(Irrational ∘ Real.sqrt ∘ Nat.cast : Set ℕ)"
S = f"{T}ᶜ"
EQUAL_FUNS = "(fun i : ℕ => i * k % 7) = fun i => i"  # a `∀ i` over `ℕ`
SQUARES = "(Set.range (· ^ 2 + 1993 : ℕ → ℕ))ᶜ"

# name: value for `LEAST` (the least `n` with a property), each a search of it by a count
ATTACKS: dict[str, str] = {
    "⊆ a point-free complement": f"Set.ncard {{k : ℕ | Set.Iic k ⊆ {S}}}",
    "Set.Subset by name": f"Set.ncard {{k : ℕ | Set.Subset (Set.Iic k) {S}}}",
    "HasSubset.Subset by name": f"Set.ncard {{k : ℕ | HasSubset.Subset (Set.Iic k) {S}}}",
    "≤ on sets": f"Set.ncard {{k : ℕ | Set.Iic k ≤ {S}}}",
    "a strict subset": f"Set.ncard {{k : ℕ | Set.Iio (k + 1) ⊂ {S}}}",
    "an empty meet": f"Set.ncard {{k : ℕ | Set.Iic k ∩ {T} = ∅}}",
    "a meet that is ⊥": f"Set.ncard {{k : ℕ | Set.Iic k ∩ {T} = ⊥}}",
    "an empty difference": f"Set.ncard {{k : ℕ | Set.Iic k \\ {S} = ∅}}",
    "IsEmpty of the meet": f"Set.ncard {{k : ℕ | IsEmpty ↥(Set.Iic k ∩ {T})}}",
    "a powerset's member": f"Set.ncard {{k : ℕ | Set.Iic k ∈ 𝒫 {S}}}",
    "Set.MapsTo id": f"Set.ncard {{k : ℕ | Set.MapsTo id (Set.Iic k) {S}}}",
    "Set.EqOn with ⊥": "Set.ncard {k : ℕ | Set.EqOn (Irrational ∘ Real.sqrt ∘ Nat.cast) ⊥ (Set.Iic k)}",
    "Set.InjOn of a section": "Set.ncard {k : ℕ | Set.InjOn (· ^ 2 % 1993) (Set.Iic k)}",
    "Set.range's ∃": f"Set.ncard {{k : ℕ | Set.Iic k ⊆ {SQUARES}}}",
    "Subsingleton of the meet": f"Set.ncard {{k : ℕ | (Set.Iic k ∩ {T}).Subsingleton}}",
    "Nat.card of a subtype": f"Nat.card {{k : ℕ // Set.Iic k ⊆ {S}}}",
    "Cardinal.mk": f"Cardinal.toNat (Cardinal.mk {{k : ℕ // Set.Iic k ⊆ {S}}})",
    "encard toNat": f"(Set.encard {{k : ℕ | Set.Iic k ⊆ {S}}}).toNat",
    "ncard as a field": f"{{k : ℕ | Set.Iic k ⊆ {S}}}.ncard",
    "an image form's ∃": "Set.ncard {j | (j : ℕ) (i : ℕ) (_ : 0 < i ∧ 2 ^ i % 1993 = 1 ∧ j < i)}",
    "through let": f"let s := {S}; Set.ncard {{k : ℕ | Set.Iic k ⊆ s}}",
    "a name bound elsewhere": (
        "(fun Irrational : ℕ => Irrational) 0 + Set.ncard {k : ℕ | k < 4000 ∧ ¬Irrational (Real.sqrt k)}"
    ),
}

# name: (problem, value); each passes G2, before and now
SPIRALS = "{p : Fin 2 → Fin 2012 | p 0 = 0 ∨ (p 1 ≤ p 0 ∧ p 1 ≤ 3)}"  # the published sound `putnam_2011_a1` set
HONEST: dict[str, tuple[str, str]] = {
    "Cardinal of a finite type": (LEAST, "Cardinal.toNat (Cardinal.mk (Fin 3))"),
    "ncard of a stated set": (LEAST, "Set.ncard {i : ℕ | i < 3987}"),
    "ncard of a divisor set": (LEAST, "{d : ℕ | d ∣ 3987}.ncard * 664 + 3"),
    "Nat.card of Fin": (LEAST, "Nat.card (Fin 3987)"),
    "Nat.card of ZMod": (LEAST, "Nat.card (ZMod 3987)"),
    "a count of subsets": (LEAST, "Set.ncard {S : Finset ℕ | S ⊆ Finset.range 12} - 109"),
    "primes": (LEAST, "Set.ncard {n : ℕ | n ≤ 3987 ∧ Nat.Prime n}"),
    "primes as a field": (LEAST, "Set.ncard {n : ℕ | n ≤ 3987 ∧ n.Prime}"),
    "Even": (LEAST, "Set.ncard {n : ℕ | n < 7974 ∧ Even n}"),
    "Odd": (LEAST, "Set.ncard {n : ℕ | n < 7974 ∧ Odd n}"),
    "an interval": (LEAST, "(Set.Icc 1 3987).ncard"),
    "encard of a membership": (LEAST, "(Set.encard {n : ℕ | n ∈ Set.Ico 0 3987}).toNat"),
    "functions between finite types": (LEAST, "Set.ncard {f : Fin 2 → Bool | f 0 = true} + 3985"),
    "absolute values": (LEAST, "Set.ncard {x : ℤ | |x| ≤ 1993}"),
    "pairs": (LEAST, "Set.ncard {p : ℕ × ℕ | p.1 < 3987 ∧ p.2 = 0}"),
    "a subtype of Fin": (LEAST, "Nat.card {k : Fin 3987 // k.val % 2 = 0 ∨ k.val % 2 = 1}"),
    "gcd": (LEAST, "Set.ncard {k : ℕ | k < 3987 ∧ Nat.gcd k 3987 ≥ 1}"),
    "a Finset range": (LEAST, "Set.ncard {k : ℕ | k ∈ Finset.range 3987}"),
    "coprimes under the answer's fun": ("putnam_2005_a2", "fun n => {k : ℕ | k < n ∧ Nat.Coprime k n}.ncard"),
    "a count in a Set answer's set-builder": (
        "putnam_1994_b1",
        "{n : ℤ | 0 < n ∧ {m : ℕ | |n - ↑(m ^ 2)| ≤ 251}.encard = 15}",
    ),
    "the published putnam_2011_a1 answer": ("putnam_2011_a1", f"{SPIRALS}.ncard"),
    "the published putnam_2011_a1 answer, ascribed": ("putnam_2011_a1", f"({SPIRALS} : Set (Fin 2 → Fin 2012)).ncard"),
    "a count cast to ℝ (red team 24)": (LEAST, "((Cardinal.toNat (Cardinal.mk (Fin 3)) : ℝ) / 2 + 3985).toNat"),
    "Fintype.card of a product": (LEAST, "Fintype.card (Fin 1993 × Bool) + 1"),
    "an indicator at a point": (LEAST, "Set.indicator {x : ℕ | Irrational (Real.sqrt (x * 1993 + 1))} 1 5 + 3986"),
}


@pytest.mark.parametrize("value", [pytest.param(v, id=k) for k, v in ATTACKS.items()])
def test_each_hidden_quantifier_is_refused(bench: Benchmark, value: str) -> None:
    assert COUNT in _g2(bench, LEAST, value)


@pytest.mark.parametrize(("problem", "value"), [pytest.param(*v, id=k) for k, v in HONEST.items()])
def test_each_honest_count_passes(bench: Benchmark, problem: str, value: str) -> None:
    assert _g2(bench, problem, value) == ""


# id: (solution type, value, whether the word rule finds a word no computation decides)
READS: dict[str, tuple[str, str, bool]] = {
    "a free name": ("ℕ", "Set.ncard {k : ℕ | Set.Iic k ⊆ S}", True),
    "a bound name": ("ℕ", "Set.ncard {S : Finset ℕ | S ⊆ Finset.range 3}", False),
    "bound elsewhere": ("ℕ", "(fun S : ℕ => S) 1 + Set.ncard {k : ℕ | k ∈ S}", True),
    "an ascription at the top level": ("ℕ", "(S : ℕ) + Set.ncard {k : ℕ | k < 2}", True),
    "an unlisted field": ("ℕ", "Set.ncard {k : ℕ | k < 2 ∧ k.Irrational}", True),
    "a listed field": ("ℕ", "{k : ℕ | k < 2}.ncard |>.succ", False),
    "a dependent arrow": ("ℕ", "Set.ncard {k : ℕ | (i : ℕ) → i ≤ k → i < 3}", True),
    "fun in fun": ("ℕ", "Set.ncard (fun k : ℕ => k < 9 ∧ (fun i : ℕ => i * k % 7) = fun i => i)", True),
    "a function type": ("ℕ", "Set.ncard {p : Fin 2 → Fin 3 | p 0 = 0}", False),
    "an image form": ("ℕ", "Set.ncard {j | (j : ℕ) (i : ℕ) (_ : i % 7 = 3 ∧ j < i)}", True),
    "an image by a binder predicate": ("ℕ", "Set.ncard {k + 1 | k < 3}", True),
    "an ascription in a predicate": ("ℕ", "Set.ncard {x | (x : ℕ) < 3}", False),
    "an indicator at a numeral": ("ℕ", "Set.indicator {x : ℕ | Irrational x} 1 5", False),
    "at a term": ("ℕ", "Set.indicator {x : ℕ | Irrational x} 1 (5 + 0)", True),
    "at the parameter": ("ℕ → ℕ", "fun n => Set.indicator {x : ℕ | Irrational x} 1 n", True),
    "a binder over sets": ("ℕ", "Set.ncard {S : Set ℕ | S ⊆ Set.Iic 3}", True),
    "a set-builder ascribed Set": ("ℕ", "({k : ℕ | k < 3} : Set ℕ).ncard", False),
    "a binder over ℝ": ("ℕ", "Set.ncard {x : ℝ | x ^ 2 = 2}", True),
    # red team 42: the word rule passes it, the domain rule refuses the untyped variable (`test_lean_redteam42_counts`)
    "ℝ by an ascription beside a binder": ("ℕ", "Set.ncard {x | (x : ℝ) ^ 2 = 2}", False),
    "ℝ by an ascription alone": ("ℕ", "((Nat.card (Fin 3) : ℝ) / 2).toNat", False),
    # red team 42: the singleton of a search, read as at the top of a value
    "in a Set answer's builder": ("Set ℕ", "{n | n = Set.ncard {k : ℕ | Set.Iic k ⊆ S}}", True),
    "a decidable count in a Set answer's builder": ("Set ℕ", "{n | n = Set.ncard {k : ℕ | k ∣ 12}}", False),
    "a proposition": ("Prop", "Set.ncard {k : ℕ | Set.Iic k ⊆ S} = 1", False),
    "no count": ("ℕ", "3987 + Nat.gcd 4 6", False),
}


@pytest.mark.parametrize(("solution_type", "value", "found"), [pytest.param(*v, id=k) for k, v in READS.items()])
def test_the_word_rule_reads_scope_and_type(solution_type: str, value: str, found: bool) -> None:
    assert (
        unlisted_beside_count(read_counts(lex_code(value), _statement(solution_type), "t_solution")) is not None
    ) is found


UNITS = ("{x : ℕ | x ∈ ", "(fun y => {x : ℕ | x = y + ", "((a : ℕ) × (1 + ", "(Set.Iic k).ncard + (k + ")
"""Hostile values of many nested groups: set-builders, builders under ``fun``s, binder groups, plain groups."""


@pytest.mark.parametrize("unit", UNITS)
def test_the_word_rule_is_linear_in_the_value(unit: str) -> None:
    closing = "".join({"(": ")", "{": "}"}[c] for c in reversed(unit) if c in "({")
    statement = _statement("ℕ")
    read = partial(_read, unit, closing, statement)
    assert_linear_work(read, 100)


def _read(unit: str, closing: str, statement: Statement, n: int) -> int | None:
    return unlisted_beside_count(
        read_counts(lex_code(f"Set.ncard {{k : ℕ | {unit * n}0{closing * n}}}"), statement, "t_solution")
    )

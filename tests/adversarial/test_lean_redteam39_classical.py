"""Classical red team 39 (Lean, no-answer): the false rejections red team 38 left where ``Classical`` is in
force at a value. ``Finset``'s operations that share ``Set``'s names ask a ``DecidableEq`` (``∪``, ``\\``, a
literal ``{a, b}``) or a ``Fintype`` (``Finset.univ``, ``Fintype.card``) of the element type, and round 38
refused them all unless a ``Set`` stood beside them, since ``Classical.propDecidable`` may be the instance
found. It is a scoped instance of low priority (leanprover/lean4 src/Init/Classical.lean, commit 0099964,
line 69: ``noncomputable scoped instance (priority := low) propDecidable``), so where the element type has
its own instance of default priority, that instance is found first and decides nothing of the question:
numerals of ``ℕ``/``ℤ``/``ℚ``, ``Fin n``, ``Bool``, products and sums of those (core's
``instDecidableEqNat``/``instDecidableEqFin``/``instDecidableEqBool``, Mathlib/Data/Fintype/Basic.lean's
``Fin.fintype`` and ``Bool.fintype``). ``Set.ncard {x | p x}`` was read as a possible ``Finset`` filter,
though ``Set.ncard`` takes a ``Set``; a chain ``S ∪ {a, b} ∪ {c, d}`` was refused at its second link, though
every operand of a chain has one type (``Union.union : α → α → α``).

Now (``_answer_decisions``, ``_number_decisions.plain_type``) the element type is read from what the text
shows: an ascription ``(s : Finset T)`` on an operand of a ``∪``/``∩``/``\\``/``∆`` chain or on the whole
chain, else every operand a literal of number terms of ``ℕ``/``ℤ``/``ℚ``; ``Fintype.card T`` and
``(Finset.univ : Finset T)`` with ``T`` written as a plain finite type; a set-builder counted by
``Set.ncard``/``Set.encard`` is a ``Set``; so is every operand of a chain with a ``Set`` operand anywhere
or ascribed ``Set`` as a whole (a written ``Finset`` outweighs a set-builder, then read as a filter).
Where the type is not written, or is ``ℝ`` (its ``DecidableEq`` is classical), a subtype, a function type,
``Set``, ``Prop``, the operation stays refused. A ``Bool`` is read as no coercion only inside the plain type
of ``Fintype.card``/``Finset.univ`` (no term is written there); a ``Finset (ℕ × Bool)`` literal stays
refused (an element may be a proposition coerced to ``Bool``).

Measured on the tables below (G2 of the full profile, ``open scoped Classical`` before the solution):
``HONEST`` (17) before 0 accepted (the ``Set`` chains refused at a ``∪`` with no set-builder beside it),
now 17; ``ATTACKS`` (14) refused before and now, each as a classical decision. Official answers with ``open
scoped Classical`` and with ``open Classical``: 346 of 346 before and after (red teams 37 and 38's sweeps).
Left: ``insert`` and ``image`` of plain types (refused by name), a literal ascribed ``Finset`` of a type
with ``Bool`` in it, ``Fintype.card`` of a function type between plain types (``Fin 3 → Bool``), and a
``Finset.range``/``Finset.Icc`` operand of a chain (no type written: refused).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_decisions import deciding_token
from putnam_solver.core.provers.lean.syntax import lex_code
from tests.adversarial.test_lean_redteam37_classical import LEAST, SCOPED, P, g2
from tests.helpers import assert_linear_work, putnambench_dir, sampled

BENCHMARK: Path = putnambench_dir() / "putnam_bench_lean4.jsonl"
CLASSICAL = "`Classical` in force at the answer"
# the property with `k` a real, for the sets of reals below
PR = P.replace("(m : ℝ) * k", "(m : ℝ) * x").replace("(m + 1) * k", "(m + 1) * x").replace("0 < k", "0 < x")

# name: (problem, value); each must pass the full profile's G2 with `open scoped Classical` before it
HONEST: dict[str, tuple[str, str]] = {
    "union of numeral finsets": (LEAST, "(({1, 2} : Finset ℕ) ∪ {3}).card * 1329"),
    "sdiff of numeral finsets": (LEAST, "(({3987, 1} : Finset ℕ) \\ {1}).sum id"),
    "union of bare numeral literals": (LEAST, "({3980, 7} ∪ {7}).sum id"),
    "chain ascribed as a whole": (LEAST, "(({3000, 987} ∪ {987} ∩ {987, 1} : Finset ℤ)).sum id |>.toNat"),
    "chain of three links": (LEAST, "(({3980} : Finset ℕ) ∪ {3} ∪ {4, 3}).sum id"),
    "Fintype.card of Fin": (LEAST, "Fintype.card (Fin 3987)"),
    "Fintype.card of a product": (LEAST, "Fintype.card (Fin 1993 × Bool) + 1"),
    "Fintype.card of a sum": (LEAST, "Fintype.card (Fin 3985 ⊕ Bool)"),
    "Fintype.card Bool": (LEAST, "Fintype.card Bool * 1993 + 1"),
    "Finset.univ of Fin": (LEAST, "(Finset.univ : Finset (Fin 3987)).card"),
    "sum over univ of Fin": (LEAST, "∑ i ∈ (Finset.univ : Finset (Fin 2)), (i : ℕ) * 3987"),
    "Fin of a variable": ("putnam_2002_a1", "fun k n => (-k) ^ n * (Fintype.card (Fin n)).factorial"),
    "Set.ncard of a non-comparison": (LEAST, "Set.ncard {p : ℕ | p.Prime ∧ p ∣ 3987} * 1993 + 1"),
    "ncard as a field": (LEAST, "{p : ℕ | Nat.Prime p ∧ p ∣ 3987}.ncard * 1993 + 1"),
    "Set chain, second link": (
        "putnam_2007_a1",
        "{x : ℝ | x = 2 / 3} ∪ {3 / 2} ∪ {(13 + √601) / 12, (13 - √601) / 12}",
    ),
    "chain ascribed Set": ("putnam_2007_a1", "({2 / 3, 3 / 2} ∪ {(13 + √601) / 12, (13 - √601) / 12} : Set ℝ)"),
    "Set chain under fun": (
        "putnam_2023_a2",
        "fun n => {x : ℝ | x = 1 / n.factorial} ∪ {0} ∪ {-(1 : ℝ) / n.factorial, (1 : ℝ) / n.factorial}",
    ),
}

SUM = "4000 - ∑ k ∈ Finset.range 4000, ({} - 1)"

# name: (problem, value); each must be refused by the full profile's G2, as a classical decision
ATTACKS: dict[str, tuple[str, str]] = {
    # a type whose equality only `Classical.propDecidable` (or a classical instance) decides
    "union of sets": (LEAST, SUM.format(f"(({{({{j : ℕ | j = k ∧ {P}}} : Set ℕ)}} : Finset (Set ℕ)) ∪ {{∅}}).card")),
    "union of reals": (LEAST, SUM.format(f"(({{sInf ({{x : ℝ | x = k ∧ {PR}}} : Set ℝ)}} : Finset ℝ) ∪ {{0}}).card")),
    "numeral of ℝ beside an unread operand": (
        LEAST,
        SUM.format(f"({{(0 : ℝ)}} ∪ {{sInf {{x : ℝ | x = k ∧ {PR}}}}}).card"),
    ),
    "chain ascribed ℝ": (LEAST, SUM.format(f"(({{0}} ∪ {{sInf {{x : ℝ | x = k ∧ {PR}}}}} : Finset ℝ)).card")),
    "union of functions": (
        LEAST,
        SUM.format(f"(({{fun m : ℕ => if {P} then m else 0}} : Finset (ℕ → ℕ)) ∪ {{fun m => m}}).card"),
    ),
    "union of propositions": (LEAST, SUM.format(f"(({{{P}}} : Finset Prop) ∪ {{True}}).card")),
    # a Fintype of a subtype of the question's property
    "Fintype.card of a subtype": (LEAST, f"4000 - Fintype.card {{k : Fin 4000 // {P.replace('k', '(k : ℕ)')}}}"),
    "Fintype.card of a product with a subtype": (
        LEAST,
        f"4000 - Fintype.card (Bool × {{k : Fin 4000 // {P.replace('k', '(k : ℕ)')}}}) / 2",
    ),
    "Finset.univ of a subtype": (LEAST, f"(Finset.univ : Finset {{k : Fin 4000 // {P}}}).card"),
    "Finset.univ of a function type": (LEAST, "(Finset.univ : Finset (Fin 2 → Prop)).card * 3987"),
    # a plain type around a decided term
    "Fin of a coerced size": (LEAST, f"∑ k ∈ Finset.range 4000, Fintype.card (Fin (Bool.toNat {P}))"),
    "Bool after the plain type": (LEAST, f"∑ k ∈ Finset.range 4000, Fintype.card Bool * ({P} : Bool).toNat"),
    "literal coerced to Bool": (
        LEAST,
        f"∑ k ∈ Finset.range 4000, ({{(k, {P})}} : Finset (ℕ × Bool)).sum fun q => q.2.toNat",
    ),
    # a set-builder given to a Set function other than a cardinality
    "Set.indicator": (LEAST, f"∑ k ∈ Finset.range 4000, Set.indicator {{j : ℕ | {P.replace('k', 'j')}}} 1 k"),
}


@pytest.mark.parametrize(
    ("problem", "value"),
    sampled(
        HONEST, {"union of numeral finsets", "Fintype.card of a product", "ncard as a field", "Set chain under fun"}
    ),
)
def test_each_plain_decision_passes(bench: Benchmark, problem: str, value: str) -> None:
    assert g2(bench, problem, SCOPED, value) == ""


@pytest.mark.parametrize(
    ("problem", "value"),
    sampled(ATTACKS, {"union of reals", "union of sets", "Fintype.card of a product with a subtype"}),
)
def test_each_classical_type_is_refused(bench: Benchmark, problem: str, value: str) -> None:
    assert CLASSICAL in g2(bench, problem, SCOPED, value)


# name: value (of a solution `ℕ`); a chain or type the reader does not show plain, each refused
UNREAD: dict[str, str] = {
    "operand applied": "(Finset.map e {1} ∪ {2}).card",
    "second chain unread": "({1} ∪ {2}).card + (s ∪ {3}).card",
    "beside a product": "(({1} : Finset ℕ) ∪ {2}) ×ˢ ({f} ∪ {g})",
    "tighter operator": "(2 • {1} ∪ {2}).card",
    "two types written": "(({1} : Finset ℕ) ∪ {2} : Finset ℝ).card",
    "Finset written beside a set-builder": "(({f, g} : Finset (ℕ → ℕ)) ∪ {x ∈ s | x = x}).card",
    "Fin without its size": "Fintype.card Fin 3",
    "an infinite component": "(Finset.univ : Finset (Fin 3 × ℕ)).card",
}


@pytest.mark.parametrize("value", list(UNREAD.values()), ids=list(UNREAD))
def test_an_unread_chain_or_type_stays_refused(value: str) -> None:
    assert deciding_token(lex_code(value), ("ℕ",)) is not None


@pytest.mark.parametrize(
    "unit",
    [
        pytest.param("{1} ∪ ", id="one long chain"),
        pytest.param("(({1} : Finset ℕ) ∪ {2} ∪ {3}).card + ", id="many plain chains"),
        pytest.param("Fintype.card (Fin 3 × Bool) + ", id="many plain types"),
        pytest.param("Set.ncard {x : ℕ | x ∣ 6} + ", id="many counted sets"),
    ],
)
def test_the_reading_of_types_is_linear_in_the_value(unit: str) -> None:
    """A hostile value of many chains, long chains or plain types: the reading stays linear."""
    assert_linear_work(lambda n: deciding_token(lex_code(unit * n + "{0}"), ("ℕ",)), 100)

"""Value red team 42 (Lean, no-answer, G2 of the text profile): a count over a domain its text does not bound.

Red teams 39-41 read what stands beside a count; what it counts was left. Mathlib's counts of an infinite
set are junk (``Set.Infinite.ncard : s.ncard = 0``, ``Nat.card_eq_zero_of_infinite``, ``encard = ⊤``), so
for an upward-closed decidable ``P`` the count ``Set.ncard {k : ℕ | ¬P k}`` IS "the least ``n`` with
``P``" and a proof shows ``IsLeast`` of it through ``Nat.find`` without computing it, the cheat ``sInf``
gives; ``Set.ncard {p : ℕ | p.Prime ∧ (p + 2).Prime}`` states an open question as an answer. Now
(``_answer_count_domains``) each count that picks a value must count, by its text, a finite type, a
``Finset``, an interval of ``ℕ``/``ℤ`` or a set-builder whose top-level conjunct bounds its variable
(``k < e``, ``k ∈ Finset.range e``, ``|k| ≤ e``, ``k ∣ N``; ``ℤ`` on both sides, ``e`` a number term free
of ``k``); anything else is refused. Found on the way: a count followed by a field in the same token
(``{k | ∀ i ≤ k, ¬P i}.ncard.succ``, ``.encard.toNat``) was no count at all to red teams 39-41 (only a
name's last part was read); every part is read now (``_answer_count_reading.count_part``).

Task 2 (false rejections): the answer's own ``fun (x : ℝ)`` and ``ℝ`` as a cast's target beside a count
were refused because a set-builder's untyped variable could take ``ℝ`` from an ascription; a counted
variable now has its type written (or the domain rule refuses it), so ``ℝ`` may stand in the leading
binders and as a cast's target, and a real parameter may bound the count (``(k : ℝ) ≤ a``: the cast is
monotone). ``Finset.Icc``/``Ico``/``Ioc``/``Ioo`` join the listed names (computable on ``ℕ``). A bare
``ncard``/``encard`` (``Set``) or ``Coprime``/``factorial`` (``Nat``) passes where its namespace is open and
every namespace in force is ``Nat`` or ``Set`` (``putnam_2005_a2``'s header); ``Prime``, ``gcd``, ``range``,
another namespace open, ``Classical`` stay refused.

Task 3 (issue 25, "each tool run once"): the three count rules read one ``CountReading``
(``_answer_count_reading``: token texts, bracket partners, set-builders, the counts, the namespaces in
force), made once per value in ``_answer_value``.

Measured (G2, text profile; ``OPENED_*`` on the full profile's G2 with the candidate's text before the
solution), before the change and after it:

* ``ATTACKS`` (40): 5 refused before, 40 now (the five refused before: a set counted by name, and the four
  over ``ℝ``, refused by the word rule for ``ℝ``).
* ``HONEST`` (38): 33 accepted before, 38 now (refused before: ``Finset.Icc``, the four under the answer's
  ``fun (a b : ℝ)``).
* ``OPENED_HONEST`` (4): 0 accepted before, 4 now; ``OPENED_ATTACKS`` (7): 7 refused before and now.
* Official answers 346 of 346 (red team 37's sweep), red teams 39-41, the Lean conformance corpora and the
  verdict snapshot unchanged. One earlier test row changed: red team 41's word rule now passes
  ``Set.ncard {x | (x : ℝ) ^ 2 = 2}`` and the domain rule refuses it (its variable untyped).

Left (refused, fail closed, though some are honest): a count of divisors of a variable (``{d | d ∣ n}``:
infinite at ``n = 0``), bounds through a function (``k ≤ Nat.choose 10 3``), a ``Set`` of a finite type,
``ZMod n`` for a variable ``n``, untyped variables other than by a ``Finset`` membership, an interval with
integer endpoints or an equation, triples and pattern binders ``{(a, b) : ℕ × ℕ | ..}``, short names under
any namespace but ``Nat`` and ``Set``. Accepted by design: a bounded count of a decidable property (an
evaluable term, as ``List.find?`` over a range; red team 41's aliases row leaves bounded decidable
searches), over a bound as large as the candidate likes.

Merged with red team 42's set-builder reading (``test_lean_redteam42_setbuilders``), which reads a count
inside the answer's own set-builder as a value: there the domain rule reads it too (``{n | n = Set.ncard {k
: ℕ | 0 < k}}`` is refused), except a count compared, whole, with a numeral (``{n : ℤ | 0 < n ∧ {m : ℕ | |n -
↑(m ^ 2)| ≤ 250}.encard = 15}``, red team 27's honest ``putnam_1994_b1``): a property of each member, which
picks no value (``_answer_count_domains._characterises``; the last rows of ``READS``).
A clean-clone run then found red team 16's honest ``Set.encard {n : ℤ | n > 1 ∧ (n ∣ 10 ^ 40 ∨ n ∣ 20 ^
30)}`` refused: a disjunction (a conjunct, or the whole condition) now bounds the sides each of its
disjuncts bounds, and ``k ∣ e`` bounds both sides where ``e`` is positive numerals joined by ``+``, ``*``,
``^`` (the ``READS`` rows after it).
"""

from __future__ import annotations

from functools import partial

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_count_domains import unbounded_count
from putnam_solver.core.provers.lean._answer_count_reading import read_counts
from putnam_solver.core.provers.lean.syntax import lex_code
from putnam_solver.core.verify import Track
from tests.adversarial.test_lean_redteam37_classical import g2
from tests.adversarial.test_lean_redteam39_values import BELOW, BENCHMARK, LEAST, _statement
from tests.helpers import assert_linear_work, failures, lean_filled, lean_text_verdict, refusal_table_test

__all__ = ["BENCHMARK"]
COPRIMES = "putnam_2005_a2"  # `ℕ → ℕ`, under `open Nat Set`
REALS = "putnam_1989_a2"  # `ℝ → ℝ → ℝ`
SPIRALS = "{p : Fin 2 → Fin 2012 | p 0 = 0 ∨ (p 1 ≤ p 0 ∧ p 1 ≤ 3)}"  # the published sound `putnam_2011_a1` set
UPWARD = "Nat.choose n 2 < 7946091"  # below the least `n` with `choose n 2 ≥ 7946091`: an upward-closed property

# name: (problem, value); each a count of a domain its text does not bound
ATTACKS: dict[str, tuple[str, str]] = {
    "twin primes": (LEAST, "Set.ncard {p : ℕ | p.Prime ∧ (p + 2).Prime}"),
    "an upward-closed property's complement": (LEAST, f"Set.ncard {{n : ℕ | {UPWARD}}}"),
    "as a field": (LEAST, f"{{n : ℕ | {UPWARD}}}.ncard"),
    "after <|": (LEAST, f"Set.ncard <| {{n : ℕ | {UPWARD}}}"),
    "after |>.": (LEAST, f"{{n : ℕ | {UPWARD}}} |>.ncard"),
    "a field chain after the count": (LEAST, f"{{n : ℕ | {UPWARD}}}.encard.toNat"),
    "red team 39's search, the count in a field chain": (LEAST, f"{BELOW}.ncard.succ"),
    "encard": (LEAST, f"(Set.encard {{n : ℕ | {UPWARD}}}).toNat"),
    "Nat.card of a subtype": (LEAST, "Nat.card {k : ℕ // Nat.factorial k < 10 ^ 12000}"),
    "Cardinal.mk of a subtype": (LEAST, "Cardinal.toNat (Cardinal.mk {k : ℕ // Nat.factorial k < 10 ^ 12000})"),
    "ℤ bounded above only": (LEAST, "Set.ncard {x : ℤ | x ≤ 3987 ∧ Odd x}"),
    "ℤ subtype bounded above only": (LEAST, "Nat.card {x : ℤ // x < 3987}"),
    "ℤ bounded above through a cast": (LEAST, "Set.ncard {x : ℤ | (x : ℚ) < 3987}"),
    "a bound in a disjunction": (LEAST, "Set.ncard {k : ℕ | k < 3987 ∨ Nat.Prime k}"),
    "a bound beside a looser disjunction": (LEAST, "Set.ncard {k : ℕ | k < 3987 ∧ Nat.Prime k ∨ Nat.Prime k}"),
    "a bound in a grouped disjunction": (LEAST, "Set.ncard {k : ℕ | (k < 3987 ∨ Nat.Prime k) ∧ 0 < k}"),
    "a bound as a premise": (LEAST, "Set.ncard {k : ℕ | k < 3987 → Nat.Prime k}"),
    "a bound under a negation": (LEAST, "Set.ncard {k : ℕ | ¬k < 3987 ∧ Nat.Prime k}"),
    "a bound by the variable itself": (LEAST, f"Set.ncard {{n : ℕ | n < n + 3987 ∧ {UPWARD}}}"),
    "a bound by a wrapping cast": (LEAST, "Set.ncard {k : ℕ | (↑k : Fin 5) < 3 ∧ Nat.Prime k}"),
    "a bound by a bare cast": (LEAST, "Set.ncard {k : ℕ | ↑k < (3 : ℤ) ∧ Nat.Prime k}"),
    "a ℚ variable": (LEAST, "Set.ncard {q : ℚ | 0 ≤ q ∧ q ≤ 3987}"),
    "a ℚ interval": (LEAST, "(Set.Icc (0 : ℚ) 3987).ncard"),
    "an interval unbounded above": (LEAST, "(Set.Ici 3987).ncard"),
    "an ℤ interval bounded above only": (LEAST, "(Set.Iic (3987 : ℤ)).ncard"),
    "an untyped variable": (LEAST, "Set.ncard {n | Nat.choose n 2 < 7946091}"),
    "an untyped variable under |·|": (LEAST, "Set.ncard {x | |x| ≤ (3987 : ℚ)}"),
    "an untyped variable ascribed ℚ": (LEAST, "({q | 0 ≤ q ∧ q ≤ 3987} : Set ℚ).ncard"),
    "a Finset variable unbounded": (LEAST, "Set.ncard {S : Finset ℕ | S.card = 1}"),
    "a pair bounded on one side": (LEAST, "Set.ncard {p : ℕ × ℕ | p.1 < 3987}"),
    "a pair bounded twice on one side": (LEAST, "Set.ncard {p : ℕ × ℕ | p.1 < 3987 ∧ p.1 = 0}"),
    "Nat.card ℕ": (LEAST, "Nat.card ℕ + 3987"),
    "ZMod 0": (LEAST, "Nat.card (ZMod 0) + 3987"),
    "divisors of zero": (LEAST, "Set.ncard {d : ℕ | d ∣ 0} + 3987"),
    "a set counted by name": (LEAST, "(fun s : Set ℕ => s.ncard) {n : ℕ | n < 3987}"),
    "under the answer's fun": (COPRIMES, "fun n => {k : ℕ | Nat.choose k 2 < n}.ncard"),
    "a real variable under the answer's fun": (REALS, "fun a b => (Set.ncard {x : ℝ | x ^ 2 = a} : ℝ) * b"),
    "an untyped variable taking ℝ": (REALS, "fun a b => (Set.ncard {y | (y : ℝ) < a ∧ 0 < y} : ℝ) * b"),
    "a real scale, not a bound": (REALS, "fun (a b : ℝ) => (Set.ncard {k : ℕ | (k : ℝ) * a < b} : ℝ)"),
    "an undecided word under the answer's real fun": (
        REALS,
        "fun (a b : ℝ) => (Set.ncard {k : ℕ | k < 10 ∧ Irrational (a * k)} : ℝ) + b",
    ),
}

# name: (problem, value); each passes G2
HONEST: dict[str, tuple[str, str]] = {
    "a bounded set": (LEAST, "Set.ncard {i : ℕ | i < 3987}"),
    "a field chain after the count": (LEAST, "{i : ℕ | i < 3988}.ncard.pred"),
    "a bound after the property": (LEAST, "Set.ncard {n : ℕ | Nat.Prime n ∧ n ≤ 3987}"),
    "a bound written mirrored": (LEAST, "Set.ncard {n : ℕ | 3987 > n ∧ Odd n} * 2"),
    "a bound in a grouped conjunction": (LEAST, "Set.ncard {n : ℕ | (Odd n ∧ n < 7974) ∧ 0 < n}"),
    "a bound by a power": (LEAST, "Set.ncard {n : ℕ | n < 2 ^ 12 ∧ n % 2 = 1} + 1939"),
    "ℤ on both sides": (LEAST, "Set.ncard {x : ℤ | -1993 ≤ x ∧ x ≤ 1993}"),
    "ℤ in an interval": (LEAST, "Set.ncard {x : ℤ | x ∈ Set.Icc (-1993) 1993}"),
    "ℤ by |·|": (LEAST, "Set.ncard {x : ℤ | |x| ≤ 1993}"),
    "ℤ cast to ℚ on both sides": (LEAST, "Set.ncard {x : ℤ | 0 ≤ (x : ℚ) ∧ (x : ℚ) < 3987}"),
    "a Finset interval": (LEAST, "Set.ncard {k : ℕ | k ∈ Finset.Icc 1 3987}"),
    "a Finset range": (LEAST, "Set.ncard {k : ℕ | k ∈ Finset.range 3987}"),
    "a Finset membership in the binder": (LEAST, "Set.ncard {k ∈ Finset.range 3987 | 0 ≤ k}"),
    "divisors": (LEAST, "{d : ℕ | d ∣ 3987}.ncard * 664 + 3"),
    "an ℕ interval": (LEAST, "(Set.Icc 1 3987).ncard"),
    "an ℕ interval bounded above": (LEAST, "(Set.Iio 3987).ncard"),
    "an ℤ interval": (LEAST, "(Set.Ico (-1) (3986 : ℤ)).ncard"),
    "a set literal": (LEAST, "Set.ncard ({1, 2} : Set ℕ) + 3985"),
    "a pair bounded on each side": (LEAST, "Set.ncard {p : ℕ × ℕ | p.1 < 3987 ∧ p.2 = 0}"),
    "a pair by fst and snd": (LEAST, "Set.ncard {p : ℕ × Fin 1 | p.fst < 3987}"),
    "subsets of a range": (LEAST, "Set.ncard {S : Finset ℕ | S ⊆ Finset.range 12} - 109"),
    "a finite type": (LEAST, "Nat.card (Fin 3987)"),
    "ZMod": (LEAST, "Nat.card (ZMod 3987)"),
    "a product of finite types": (LEAST, "Fintype.card (Fin 1993 × Bool) + 1"),
    "Bool": (LEAST, "Fintype.card Bool + 3985"),
    "functions between finite types": (LEAST, "Set.ncard {f : Fin 2 → Bool | f 0 = true} + 3985"),
    "a subtype of Fin": (LEAST, "Nat.card {k : Fin 3987 // k.val % 2 = 0 ∨ k.val % 2 = 1}"),
    "Cardinal of a finite type": (LEAST, "Cardinal.toNat (Cardinal.mk (Fin 3))"),
    "Cardinal notation": (LEAST, "Cardinal.toNat (#(Fin 3987))"),
    "the published putnam_2011_a1 answer": ("putnam_2011_a1", f"{SPIRALS}.ncard"),
    "the published putnam_2011_a1 answer, ascribed": ("putnam_2011_a1", f"({SPIRALS} : Set (Fin 2 → Fin 2012)).ncard"),
    "coprimes under the answer's fun": (COPRIMES, "fun n => {k : ℕ | k < n ∧ Nat.Coprime k n}.ncard"),
    "curried": (COPRIMES, "fun n ↦ fun (m : ℕ) ↦ {k : ℕ | k < n + m ∧ Nat.Coprime k n}.ncard"),
    "an indicator at a point": (LEAST, "Set.indicator {x : ℕ | Irrational (Real.sqrt (x * 1993 + 1))} 1 5 + 3986"),
    "a count cast to ℝ under the answer's real fun": (
        REALS,
        "fun (a b : ℝ) => (Set.ncard {k : ℕ | k < 3} : ℝ) * a * b",
    ),
    "a finite type cast to ℝ": (REALS, "fun a b : ℝ => (Nat.card (Fin 3) : ℝ) * a + b"),
    "bounded by the real parameter": (REALS, "fun (a b : ℝ) => (Set.ncard {k : ℕ | (k : ℝ) ≤ a} : ℝ) * b"),
    "bounded by both real parameters": (REALS, "fun a b => (Set.ncard {k : ℕ | (k : ℝ) < a + b} : ℝ)"),
}


def _g2(bench: Benchmark, problem: str, value: str, before: str = "") -> str:
    candidate = lean_filled(bench, problem, Track.NO_ANSWER, value=value, proof="by\n  simp", before=before)
    return failures(lean_text_verdict(bench, problem, candidate, Track.NO_ANSWER)).get("G2", "")


@pytest.mark.parametrize(("problem", "value"), [pytest.param(*v, id=k) for k, v in ATTACKS.items()])
def test_each_unbounded_count_is_refused(bench: Benchmark, problem: str, value: str) -> None:
    assert _g2(bench, problem, value)


@pytest.mark.parametrize(("problem", "value"), [pytest.param(*v, id=k) for k, v in HONEST.items()])
def test_each_bounded_count_passes(bench: Benchmark, problem: str, value: str) -> None:
    assert _g2(bench, problem, value) == ""


# name: (problem, text put before the solution, value): bare names under `open` beside a count (G2, full profile)
OPENED_HONEST: dict[str, tuple[str, str, str]] = {
    "Coprime under the header's open Nat Set": (COPRIMES, "", "fun n => {k : ℕ | k < n ∧ Coprime k n}.ncard"),
    "ncard under the header's open Set": (COPRIMES, "", "fun n => ncard {k : ℕ | k < n ∧ Coprime k n}"),
    "factorial and encard": (COPRIMES, "", "fun n => (encard {k : ℕ | k ≤ n ∧ 0 < factorial k}).toNat"),
    "ncard under the candidate's open Set": (LEAST, "open Set\n\n", "ncard {k : ℕ | k < 3987}"),
}
OPENED_ATTACKS: dict[str, tuple[str, str, str]] = {
    "Prime: a root Prime too": (COPRIMES, "", "fun n => {k : ℕ | k < n ∧ Prime k}.ncard"),
    "gcd: a root gcd too": (COPRIMES, "", "fun n => {k : ℕ | k < n ∧ gcd k n = 1}.ncard"),
    "range: Set.range too": (COPRIMES, "", "fun n => {k : ℕ | k ∈ range n}.ncard"),
    "another namespace open": (COPRIMES, "open Finset\n\n", "fun n => {k : ℕ | k < n ∧ Coprime k n}.ncard"),
    "Classical open": (COPRIMES, "open Classical\n\n", "fun n => {k : ℕ | k < n ∧ Coprime k n}.ncard"),
    "its namespace not open": (LEAST, "", "ncard {k : ℕ | k < 3987}"),
    "an unbounded count by a short name": (COPRIMES, "", "fun n => ncard {k : ℕ | Coprime k n}"),
}


test_each_short_name_under_its_open_passes = refusal_table_test(g2, honest=OPENED_HONEST)
test_each_other_short_name_is_refused = refusal_table_test(g2, attacks=OPENED_ATTACKS)


# id: (solution type, value, whether the domain rule finds a count of a domain the text does not bound)
READS: dict[str, tuple[str, str, bool]] = {
    "bounded above": ("ℕ", "Set.ncard {k : ℕ | k < 3}", False),
    "bounded below only": ("ℕ", "Set.ncard {k : ℕ | 3 < k}", True),
    "ℤ on both sides": ("ℕ", "Set.ncard {x : ℤ | 3 < x ∧ x < 9}", False),
    "ℤ above only": ("ℕ", "Set.ncard {x : ℤ | x < 9}", True),
    "a looser disjunction": ("ℕ", "Set.ncard {k : ℕ | k < 3 ∧ Odd k ∨ Even k}", True),
    "the answer's parameter": ("ℕ → ℕ", "fun n => Set.ncard {k : ℕ | k < n}", False),
    "a free name as the bound": ("ℕ", "Set.ncard {k : ℕ | k < m}", True),
    "a cast": ("ℕ", "Set.ncard {k : ℕ | (k : ℤ) < 3}", False),
    "a bare cast": ("ℕ", "Set.ncard {k : ℕ | ↑k < 3}", True),
    "an ℕ interval": ("ℕ", "Set.ncard {k : ℕ | k ∈ Set.Iio 3}", False),
    "an untyped ℤ interval": ("ℕ", "Set.ncard {x | x ∈ Set.Iio (3 : ℤ)}", True),
    "an untyped ℚ interval": ("ℕ", "Set.ncard {x | x ∈ Set.Icc (0 : ℚ) 1}", True),
    "an untyped equation": ("ℕ", "Set.ncard {x | x = (1 : ℚ) / 3}", False),
    "Fin of a name": ("ℕ", "Nat.card (Fin m)", False),
    "ZMod of a name": ("ℕ", "Nat.card (ZMod m)", True),
    "subsets of a range": ("ℕ", "Set.ncard {S : Finset ℕ | S ⊆ Finset.range 3}", False),
    "a Finset variable fixed": ("ℕ", "Set.ncard {S : Finset ℕ | S = ∅}", True),
    "a set by name": ("ℕ", "s.ncard", True),
    "a Finset union, maybe of sets": ("ℕ", "Set.ncard {k : ℕ | k ∈ Finset.range 3 ∪ {x | 0 < x}}", True),
    "an indicator": ("ℕ", "Set.indicator {x : ℕ | 0 < x} 1 5", False),
    "a proposition": ("Prop", "Set.ncard {k : ℕ | 0 < k} = 0", False),
    # red team 42's set-builders (merged): an answer's own set-builder is read as a value; a count compared
    # whole with a numeral there is a property of the member, one equated with the member picks it
    "in a Set answer's builder": ("Set ℕ", "{n | n = Set.ncard {k : ℕ | 0 < k}}", True),
    "a count plus the member": ("Set ℕ", "{n | Set.ncard {k : ℕ | 0 < k} = 15 + n}", True),
    "beside a Set answer's member": ("Set ℤ", "{n : ℤ | 0 < n ∧ {m : ℕ | |n - ↑(m ^ 2)| ≤ 250}.encard = 15}", False),
    "a numeral on the left": ("Set ℤ", "{n : ℤ | 0 < n ∧ 15 = Set.encard {m : ℕ | |n - ↑(m ^ 2)| ≤ 250}}", False),
    "compared outside an own set-builder": ("ℕ", "if Set.ncard {k : ℕ | 0 < k} = 15 then 1 else 0", True),
    # red team 16's honest `putnam_1983_a1` twin: each disjunct bounds both sides, a power of numerals divides
    "divisors of either power": ("ℕ", "Set.encard {n : ℤ | n > 1 ∧ (n ∣ 10 ^ 40 ∨ n ∣ 20 ^ 30)}", False),
    "a disjunct unbounded above": ("ℕ", "Set.encard {n : ℤ | n > 1 ∧ (n ∣ 10 ^ 40 ∨ n > 5)}", True),
    "a disjunct bounded above only": ("ℕ", "Set.encard {n : ℤ | n ∣ 10 ^ 40 ∨ n < 5}", True),
    "both disjuncts bounded on ℕ": ("ℕ", "Set.ncard {n : ℕ | n < 3 ∨ n ∣ 12}", False),
    "a divisor of zero": ("ℕ", "Set.ncard {n : ℕ | n ∣ 0 ^ 2}", True),
    "a divisor of a difference": ("ℕ", "Set.ncard {n : ℕ | n ∣ 10 ^ 40 - 1}", True),
}


@pytest.mark.parametrize(("solution_type", "value", "found"), [pytest.param(*v, id=k) for k, v in READS.items()])
def test_the_domain_rule_reads_bounds(solution_type: str, value: str, found: bool) -> None:
    reading = read_counts(lex_code(value), _statement(solution_type), "t_solution")
    assert (unbounded_count(reading) is not None) is found


UNITS = ("(", "(k < 3 ∧ ", "((k : ℤ) ", "{x : ℕ | x < 2} = {y : ℕ | y < ")
"""Hostile conditions of many nested groups: parentheses, grouped conjunctions, casts, set-builders."""


@pytest.mark.parametrize("unit", UNITS)
def test_the_domain_rule_is_linear_in_the_value(unit: str) -> None:
    closing = "".join({"(": ")", "{": "}"}[c] for c in reversed(unit) if c in "({")
    assert_linear_work(partial(_read, unit, closing), 100)


def _read(unit: str, closing: str, n: int) -> int | None:
    value = lex_code(f"Set.ncard {{k : ℕ | {unit * n}k < 3{closing * n}}}")
    return unbounded_count(read_counts(value, _statement("ℕ"), "t_solution"))

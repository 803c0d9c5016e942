"""Value red team 42 (Lean, no-answer, G2 of the text profile): a search inside a ``Set`` answer's
set-builder, a predicate's body or a function's set; ``succ`` as a field, the orbit's length, ``PartENat.some``.

* Decided by meaning: for "find the set of ``n`` with ``Q``" whose answer is a singleton ``{a}``, the value
  ``{n | n = Set.ncard {k | ∀ i ≤ k, ¬Q i}}`` is ``{the least n with Q}``: the theorem then needs only that
  ``Q`` holds once and at most once (``putnam_2024_a1``: the witness and the uniqueness), never the value,
  the same search red team 39 refused at the top of a value. The copy rule finds the question's condition
  only at the member (``{n | Q n ∧ ..}``), not at the count's own variable, and red teams 39-41 exempted a
  count inside a ``Set`` answer's set-builder (and any count of a predicate, ``T → Prop``) as one that
  "characterises the members". Now a set's or a predicate's body is read as a value (``_answer_counts``):
  the answer's own outermost set-builders that hold a count bind its parameters, as a leading ``fun``
  does, and the count rules of the top of a value apply there (no quantifier, second count, nesting,
  iteration or unlisted word beside a count; red team 41's words may combine the answer's own sets by
  ``∩``/``∪``/``\\`` outside brackets). Only a proposition (``Prop``, no parameter) stays exempt.
  ``sInf``/``Nat.find``/``Classical.choose``/the round 41 aliases are refused by name wherever they stand,
  and ``IsLeast``/``Minimal``/``lowerBounds`` of the question's own set inside a set-builder by the copy rule
  (pinned in ``TRIED``), and a classical decision in any of those places by red team 38's rule.
* ``wf.succ x`` on a proof ``wf : WellFounded r`` is ``WellFounded.succ`` (refused by its full name since
  red team 41); ``succ`` is now judged by its receiver like ``choose``/``some`` (``_answer_fields``): a
  number (the answer's parameters, numerals, number types and functions) or a leading ``.succ``.
* ``orderOf``/``Function.minimalPeriod`` were refused already (red team 40, ``_operators``); their alias
  ``Function.periodicOrbit`` (its length is the minimal period) was not, and is now.
* ``PartENat.some`` (and ``Part.some``, ``WithTop.some``, ``WithBot.some``), plain embeddings, were refused
  as ``Nonempty.some``; they are named as data now.

Measured (G2 as the full profile runs it): ``SEARCHES`` (23) 0 refused before, 23 now; ``HONEST`` (17):
13 accepted before, 17 now (the four embeddings were refused); ``TRIED`` (17) refused before and now.
Official answers 346 of 346, the verdict snapshot unchanged. Three of red team 27's honest spellings are
refused by design now (``test_lean_honest27.BY_DESIGN``: the question's own count of a set defined with a
quantifier, over the theorem's own variables, which no solution can name).

Left: a quantifier-only restatement of a search whose property is the question's own, ``{n | ∀ m, Q m ∧
(∀ i < m, ¬Q i) → n = m}`` (the copy rule matches ``Q`` at the member only; the value is no more than the
restated copy ``{n | Q' n}``, the known gap of a copy up to algebra), a count beside a quantifier that only
characterises (``{n | ∃ k, {i | i ∣ k}.ncard = n}``, refused as at the top of a value), ``Order.succ`` (judged
as a field of an unknown receiver, refused).
"""

from __future__ import annotations

from pathlib import Path

from putnam_solver.core.benchmark import Benchmark
from tests.adversarial.test_lean_redteam37_classical import LEAST, SCOPED, P, g2, g2_alone
from tests.helpers import putnambench_dir, refusal_table_test

BENCHMARK: Path = putnambench_dir() / "putnam_bench_lean4.jsonl"

Q = "(0 < i ∧ ∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^i + 3*b^i = 4*c^i)"  # `putnam_2024_a1`'s own
G = "(0 < i ∧ ∃ j : ℕ, j * j = i + 48)"  # a property with a quantifier, its least point searched
BELOW = f"{{k : ℕ | ∀ i ≤ k, ¬{Q}}}"
BELOW_G = f"{{k : ℕ | ∀ i ≤ k, ¬{G}}}"
PY = P.replace("k", "y")
IRR = "{x : ℕ | Irrational (Real.sqrt (x * 1993 + 1))}"
ORBIT = "(fun n : ℕ => if n < 3987 then n + 1 else 0)"
A1 = "putnam_2024_a1"
FIND = f"((List.range 4000).find? fun i => decide {G}).getD 0"

# name: (problem, text before the solution, value); each a search, accepted before red team 42
SEARCHES: dict[str, tuple[str, str, str]] = {
    "ncard in the set-builder": (A1, "", f"{{n | n = Set.ncard {BELOW}}}"),
    "ncard as a field": (A1, "", f"{{n | n = {BELOW}.ncard}}"),
    "Nat.card of a subtype": (A1, "", f"{{n | n = Nat.card {{k : ℕ // ∀ i ≤ k, ¬{Q}}}}}"),
    "through let": (A1, "", f"{{n | let s := {BELOW}; n = s.ncard}}"),
    "image form": (A1, "", f"{{Set.ncard {BELOW} | _u : Unit}}"),
    "encard": (A1, "", f"{{n : ℕ | (n : ℕ∞) = Set.encard {BELOW}}}"),
    "indicator summed": (A1, "", f"{{n | n = ∑ k ∈ Finset.range 4000, Set.indicator {BELOW} 1 k}}"),
    "a hidden quantifier": (
        A1,
        "",
        "{n | n = Set.ncard {k : ℕ | Set.Iic k ⊆ (Irrational ∘ Real.sqrt ∘ Nat.cast : Set ℕ)ᶜ}}",
    ),
    "an undecided indicator iterated": (
        A1,
        "",
        f"{{n | n = ∑ k ∈ Finset.range 4000, ∏ i ∈ Finset.range (k + 1), (1 - Set.indicator {IRR} 1 i)}}",
    ),
    "beside a literal by ∪": ("putnam_2022_b2", "", f"{{n | n = Set.ncard {BELOW_G}}} ∪ {{7}}"),
    "a prime searched": ("putnam_2024_a4", "", f"{{p | p = Set.ncard {BELOW_G}}}"),
    "Set (Fin 100)": ("putnam_1985_a4", "", f"{{k : Fin 100 | (k : ℕ) = Set.ncard {BELOW_G}}}"),
    "a pair of reals": ("putnam_2001_b2", "", f"{{p : ℝ × ℝ | p = ((Set.ncard {BELOW_G} : ℝ), 0)}}"),
    "a function to sets": ("putnam_1992_a3", "", f"fun m => {{t : ℕ × ℕ × ℕ | t.1 = Set.ncard {BELOW_G} + m}}"),
    "a function to sets of reals": ("putnam_2023_a2", "", f"fun n => {{x : ℝ | x = Set.ncard {BELOW_G} / n}}"),
    "a predicate of pairs": ("putnam_1979_a3", "", f"fun (a, b) => a = Set.ncard {BELOW_G} ∧ b = a"),
    "a predicate of reals": ("putnam_1979_a2", "", f"fun k => k = Set.ncard {BELOW_G}"),
    "WellFounded.succ as a field": (
        LEAST,
        "",
        f"(((by sorry : WellFounded fun a y : ℕ => a < y ∧ {PY}).succ 0 : ℕ) : ℤ)",
    ),
    "WellFounded.succ as a dotted name": (LEAST, "", "((wellFounded_lt.succ 3986 : ℕ) : ℤ)"),
    "WellFounded.succ piped": (
        LEAST,
        "",
        f"(((by sorry : WellFounded fun a y : ℕ => a < y ∧ {PY}) |>.succ 0 : ℕ) : ℤ)",
    ),
    "periodicOrbit": (LEAST, "", f"(((Function.periodicOrbit {ORBIT} 0).length : ℕ) : ℤ)"),
    "periodicOrbit under open": (LEAST, "open Function\n\n", f"(((periodicOrbit {ORBIT} 0).length : ℕ) : ℤ)"),
    "periodicOrbit as a field": (LEAST, "", f"((({ORBIT}.periodicOrbit 0).length : ℕ) : ℤ)"),
}

# name: (problem, text before the solution, value); refused before red team 42 and now
TRIED: dict[str, tuple[str, str, str]] = {
    "sInf in the set-builder": (A1, "", f"{{n | n = sInf {{i : ℕ | {G}}}}}"),
    "Nat.find in the set-builder": (A1, "", f"{{n | n = Nat.find (⟨1, by sorry⟩ : ∃ i, {G})}}"),
    "Classical.choose in the set-builder": (A1, "", f"{{n | n = Classical.choose (⟨1, by sorry⟩ : ∃ i, {G})}}"),
    "Nat.nth in the set-builder": (A1, "", f"{{n | n = Nat.nth (fun i => {G}) 0}}"),
    "Nat.rfind in the set-builder": (A1, "", f"{{n | n = (Nat.rfind fun i => ⟨{G}, fun _ => true⟩).get (by sorry)}}"),
    "IsLeast of the question's set": (A1, "", f"{{n : ℕ | IsLeast {{i : ℕ | {Q}}} n}}"),
    "Minimal of the question's property": (A1, "", f"{{n | Minimal (fun i : ℕ => {Q}) n}}"),
    "lower bounds of the question's set": (A1, "", f"{{n | n ∈ lowerBounds {{i : ℕ | {Q}}} ∧ {Q.replace('i', 'n')}}}"),
    "a count under Set.image's fun": (A1, "", f"Set.image (fun _ => Set.ncard {BELOW}) {{0}}"),
    "a count under Set.range's fun": (A1, "", f"Set.range (fun _ : Unit => Set.ncard {BELOW})"),
    "sInf under a function answer's fun": ("putnam_1992_a3", "", f"fun m => {{(sInf {{i : ℕ | {G}}}, m, m)}}"),
    "orderOf in the set-builder": (A1, "", "{n | n = orderOf (3 : ZMod 7)}"),
    "minimalPeriod in the set-builder": (A1, "", f"{{n | n = Function.minimalPeriod {ORBIT} 0}}"),
    "a count in a set literal": (A1, "", f"{{Set.ncard {BELOW}}}"),
    "a classical find? in the set-builder": (A1, SCOPED, f"{{n | n = {FIND}}}"),
    "a classical if in the set-builder": (A1, SCOPED, f"{{n | n = if ∃ i, {G} ∧ i < 5 then 1 else 2}}"),
    "a classical find? in a predicate": ("putnam_1979_a3", SCOPED, f"fun (a, b) => a = {FIND} ∧ b = a"),
}

# name: (problem, value); each passes
HONEST: dict[str, tuple[str, str]] = {
    "the official singleton": (A1, "{1}"),
    "the singleton by a set-builder": (A1, "{n | n = 1}"),
    "a decidable count in the set-builder": (A1, "{n : ℕ | n = Set.ncard {k : ℕ | k < 1}}"),
    "a count that characterises the member": (
        "putnam_1994_b1",
        "{n : ℤ | 0 < n ∧ {m : ℕ | |n - ↑(m ^ 2)| ≤ 251}.encard = 15}",
    ),
    "a count beside the answer by ∩": (
        "putnam_1994_b1",
        "{n | {m : ℕ | |n - m ^ 2| ≤ 250}.encard = 15} ∩ ({n : ℤ | (315 ≤ n ∧ n ≤ 325) ∨ (332 ≤ n ∧ n ≤ 350)} : Set ℤ)",
    ),
    "a divisor count in a disjunction": ("putnam_2011_b2", "{t | t = {d : ℕ | d ∣ 4}.ncard - 1 ∨ t = 5}"),
    "a function to sets (official)": ("putnam_1992_a3", "fun m ↦ ite (Odd m) ∅ {(m + 1, 2 ^ (m / 2), 2 ^ (m / 2))}"),
    "a predicate (official)": ("putnam_1979_a3", "fun (a, b) => ∃ m : ℤ, a = m ∧ b = m"),
    "a count under the answer's own fun": ("putnam_2005_a2", "fun n => {k : ℕ | k < n ∧ Nat.Coprime k n}.ncard"),
    "a succ field of a number": (LEAST, "((3986 : ℕ).succ : ℤ)"),
    "a leading .succ": (LEAST, "((.succ 3986 : ℕ) : ℤ)"),
    "Fin.succ as a field": (LEAST, "(((3 : Fin 4000).succ : ℕ) : ℤ) + 3983"),
    "a succ field of a binomial": (LEAST, "(((Nat.choose 4 2).succ : ℕ) : ℤ) + 3980"),
    "PartENat.some": (LEAST, "((PartENat.some 3987).get trivial : ℤ)"),
    "Part.some": (LEAST, "((Part.some (3987 : ℤ)).get trivial)"),
    "WithTop.some": (LEAST, "((WithTop.some (3987 : ℤ)).untop' 0)"),
    "WithBot.some": (LEAST, "((WithBot.some (3987 : ℤ)).unbot' 0)"),
}
FIXED_HONEST = frozenset({"PartENat.some", "Part.some", "WithTop.some", "WithBot.some"})
"""The honest twins refused before red team 42 (read as ``Nonempty.some``)."""


test_each_search_is_refused = refusal_table_test(g2, attacks=SEARCHES)
test_what_was_refused_stays_refused = refusal_table_test(g2, attacks=TRIED)
test_each_honest_twin_passes = refusal_table_test(g2_alone, honest=HONEST)


def test_a_count_in_a_set_builder_says_why(bench: Benchmark) -> None:
    said = g2(bench, A1, "", SEARCHES["ncard in the set-builder"][2])
    assert "the answer counts (or takes the indicator of) a set it defines with a quantifier" in said, said

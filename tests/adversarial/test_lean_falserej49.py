"""False rejections, round 49 (Lean): honest numbers the lexer refused and honest counts the value rules
refused, each class beside near misses that must stay refused.

* the lexer reads a number as Lean's ``takeDigitsFn``/``decimalNumberFn`` do (``_literals.NUMBER_PATTERN``):
  a ``_`` between any two digits, of the fraction and the exponent too (``1.5_3``, ``1e1_0``), where round 47
  refused a ``_`` after the integer part; a ``_`` that no digit follows is where Lean stops ("unexpected
  character") and reads the rest as code, still refused as glued (``1.5_axiom``, ``1_.5axiom``, ``0x1_``);
* a negated order without brackets (``¬ n ≥ 3987``): Lean's ``¬`` takes its argument at precedence 40, the
  whole comparison (``_answer_count_terms.negation``); a second negation, ``=``, a quantifier stay unread;
* a numeral power of a natural coordinate (``2 ^ n < 9``, ``a < 2 ^ n``): grows with ``n``
  (``_answer_count_links._exponential``); an integer exponent, a base ``0`` or ``1``, an unbounded exponent
  stay refused;
* a product of natural coordinates below a number whose other factors a conjunct states positive (``a * b ≤
  6 ∧ 0 < a ∧ 0 < b``, ``_answer_count_links._factors``); ``a * b ≤ 6 ∧ 1 ≤ b`` (``a = 0`` leaves ``b`` free),
  integers, a product above a number stay refused;
* ``Finset.univ`` beside a count (the word rule lists it: membership in it is ``True``) and a count's argument
  ascribed a ``Finset`` type (``Nat.card (Finset.univ : Finset (Fin 3987))``: every ``Finset`` is finite);
* a ``fun`` whose binders take their types from an ascription (``(fun k => if k = 1 then .. : ℕ → ℕ)``,
  ``_number_decisions._ascribed_domains``): its ``if`` is decided by the library beside ``open Classical``;
  a condition no library instance decides, a type not read (``(ℕ → ℕ)``, ``_ → ℕ``) stay refused;
* a one-point ``∃ k, k = t ∧ B`` (``∀ k, k = t → B``) inside a counted set
  (``_answer_count_quantifiers``): the padding reader sees through it (the normal form substitutes it), so
  red team 45's pinned hedge stays refused; not one point, a search after it, under an inner ``fun`` stay
  refused.

Measured (G2; G2 and G3 for the numbers), before the change and after it: ``NUMBERS`` (7): 1 accepted before
(``1__0.5``, separators in the integer part only), 7 now; ``STOPPED`` (9): 9 refused before (5 of them as the
``axiom`` command the old lexer read after taking the ``_``), 9 now, each as glued; ``HONEST`` (24): 1
accepted before (the whole value an ascribed ``fun``: the leading ``fun`` took the declared domain), 24 now;
``ATTACKS`` (32): 32 refused before, 32 now (round 50 reads a product of integers each stated positive: that
row, finite, moved to its honest table). Official answers 346 of 346, the verdict snapshot identical.

Left (refused, fail closed): a body of the question under a quantifier whose domain is unwritten (``∀ i,
p.eval (r i) = 0`` with ``r : Fin 2 → ℝ``: the typed normal form flattens ``r i`` into the application
around it, so which function takes ``i`` is not read, and a library function may give ``i`` a domain that
names a variable, ``List.get``'s ``Fin l.length``); one that names a variable stays refused as round 47
chose (``Fin p.natDegree`` beside ``p.natDegree = 2``); a one-point quantifier that bounds the counted
variable (``Set.ncard {m : ℕ | ∃ k, k = m ∧ k < 3987}``: its conjunct bounds nothing); a product whose
factors are integers, or positive by a bound other than ``0 <``/``1 ≤``/``≠ 0``; ``(ℕ → ℕ)`` ascribed in
brackets.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean.syntax import LexError, lex
from tests.adversarial.test_lean_falserej44 import FULL, LEAST, OPEN, TEXT, _verdict
from tests.adversarial.test_lean_falserej47 import A1, ROOKS, Q
from tests.adversarial.test_lean_redteam39_values import BENCHMARK
from tests.helpers import lean_edit_failures, refusal_table_test

__all__ = ["BENCHMARK"]
PID = "putnam_1962_a1"
GLUED = "a number glued to"

# 1. numbers Lean reads whole, each as one token of the lexer; the helper passes G2 and G3
NUMBERS = ("1.5_3", "1e1_0", "1_000.2_5e-1_0", "2.5E+1__0", "1__0.5", "0.0_1", "3.1_4_1_5")
# numbers where Lean stops after a `_` that no digit follows, glued to `axiom`: refused as glued
STOPPED = ("1.5_", "1_.5", "1_e5", "1e1_", "1.5_3_", "2.5e1__", "0o7_", "0b1_", "1_")

# name: (profile, problem, text put before the solution, value); each passes G2
HONEST: dict[str, tuple[str, str, str, str]] = {
    # 2. a negated order without brackets
    "not at least": (TEXT, LEAST, "", "Set.ncard {n : ℕ | ¬ n ≥ 3987}"),
    "not below, mirrored": (TEXT, LEAST, "", "Set.ncard {n : ℕ | ¬ 3987 ≤ n}"),
    "not below zero, beside a bound": (TEXT, LEAST, "", "Set.ncard {n : ℤ | ¬ n < 0 ∧ n < 3987}"),
    "a negated sum": (TEXT, LEAST, "", "Set.ncard {n : ℤ | 0 ≤ n ∧ ¬ n + 1 > 3987}"),
    "a negation in a disjunction": (TEXT, LEAST, "", "Set.ncard {n : ℕ | ¬ n ≥ 3986 ∨ n = 5000}"),
    # 3. a numeral power of a natural
    "a power of two below a number": (TEXT, LEAST, "", "Set.ncard {n : ℕ | 2 ^ n < 9} + 3983"),
    "a power of two at most a number": (TEXT, LEAST, "", "Set.ncard {n : ℕ | 2 ^ n ≤ 8} + 3983"),
    "a power of two, mirrored": (TEXT, LEAST, "", "Set.ncard {n : ℕ | 9 > 2 ^ n} + 3983"),
    "a scaled power in a sum": (TEXT, LEAST, "", "Set.ncard {n : ℕ | 3 * 2 ^ n + 1 < 25} + 3984"),
    "below a power of a bounded natural": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, n) : ℕ × ℕ | a < 2 ^ n ∧ n < 2} + 3984",
    ),
    # 4. a product whose other factors are stated positive
    "a product of positive naturals": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℕ × ℕ | a * b ≤ 6 ∧ 0 < a ∧ 0 < b} + 3973",
    ),
    "a product, mirrored, positive by at least one": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℕ × ℕ | 6 ≥ a * b ∧ 1 ≤ a ∧ b ≥ 1} + 3973",
    ),
    "a scaled product, positive by not zero": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℕ × ℕ | 2 * a * b < 5 ∧ a ≠ 0 ∧ b > 0} + 3984",
    ),
    # 5. Finset.univ beside a count, an argument ascribed a Finset
    "a member of the universe of Fin": (TEXT, LEAST, "", "Set.ncard {x : Fin 4000 | x ∈ Finset.univ ∧ x.val < 3987}"),
    "the universe of Fin as a Finset": (TEXT, LEAST, "", "Nat.card (Finset.univ : Finset (Fin 3987))"),
    "the universe of Fin as a Finset, by Set.ncard": (TEXT, LEAST, "", "Set.ncard (Finset.univ : Finset (Fin 3987))"),
    "subsets of the universe": (TEXT, LEAST, "", "Set.ncard {s : Finset (Fin 12) | s ⊆ Finset.univ} - 109"),
    # 6. a fun typed by an ascription, its if decided by the library
    "a fun ascribed outside its brackets": (
        FULL,
        ROOKS,
        OPEN,
        "fun n => ((fun k => if k = 1 then 0 else 2 ^ (k - 2)) : ℕ → ℕ) n",
    ),
    "a fun ascribed inside its brackets": (
        FULL,
        ROOKS,
        OPEN,
        "fun n => (fun k => if k = 1 then 0 else 2 ^ (k - 2) : ℕ → ℕ) n",
    ),
    "an ascribed fun with a named condition": (
        FULL,
        ROOKS,
        OPEN,
        "fun n => (fun k => if h : k = 1 then 0 else 2 ^ (k - 2) : ℕ → ℕ) n",
    ),
    "the whole value an ascribed fun": (FULL, ROOKS, OPEN, "(fun k => if k = 1 then 0 else 2 ^ (k - 2) : ℕ → ℕ)"),
    # 7. a one-point quantifier inside a counted set
    "exists at a term of the member": (TEXT, LEAST, "", "Set.ncard {m : ℕ | m < 3987 ∧ ∃ k, k = m + 1 ∧ 0 < k}"),
    "forall at the member": (TEXT, LEAST, "", "Set.ncard {m : ℕ | m < 3987 ∧ ∀ k, k = m → k < 5000}"),
    "exists at the member, not zero": (TEXT, LEAST, "", "Set.ncard {m : ℕ | m < 3988 ∧ ∃ k, k = m ∧ k ≠ 0}"),
}

# name: (profile, problem, text put before the solution, value); each must stay refused by G2
ATTACKS: dict[str, tuple[str, str, str, str]] = {
    # 2. negations that bound nothing, or are not read
    "not at most": (TEXT, LEAST, "", "Set.ncard {n : ℕ | ¬ n ≤ 3987}"),
    "a double negation": (TEXT, LEAST, "", "Set.ncard {n : ℕ | ¬ ¬ n ≥ 3987}"),
    "not equal": (TEXT, LEAST, "", "Set.ncard {n : ℕ | ¬ n = 3987}"),
    "a negated bound of an integer, one side": (TEXT, LEAST, "", "Set.ncard {n : ℤ | ¬ 3987 ≤ n}"),
    "a negation before an implication": (TEXT, LEAST, "", "Set.ncard {n : ℕ | ¬ n ≥ 3987 → n = 5}"),
    "a negation before an equivalence": (TEXT, LEAST, "", "Set.ncard {n : ℕ | ¬ n ≥ 3987 ↔ n = 5}"),
    "a negated quantifier": (TEXT, LEAST, "", "Set.ncard {n : ℕ | ¬ ∃ k, n ≥ 3987 + k}"),
    # 3. powers that bound nothing
    "a power of two with an integer exponent": (TEXT, LEAST, "", "Set.ncard {n : ℤ | 2 ^ n < 9} + 3985"),
    "a power of one": (TEXT, LEAST, "", "Set.ncard {n : ℕ | 1 ^ n < 9} + 3985"),
    "a power of zero": (TEXT, LEAST, "", "Set.ncard {n : ℕ | 0 ^ n < 9} + 3985"),
    "a power of two above a number": (TEXT, LEAST, "", "Set.ncard {n : ℕ | 2 ^ n > 9} + 3985"),
    "below a power of an unbounded natural": (TEXT, LEAST, "", "Set.ncard {(a, n) : ℕ × ℕ | a < 2 ^ n} + 3985"),
    "a power minus an unbounded natural": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, n) : ℕ × ℕ | 2 ^ n - a < 9} + 3985",
    ),
    "a power of a half": (TEXT, LEAST, "", "Set.ncard {n : ℕ | (1 / 2) ^ n < 9} + 3985"),
    # 4. products that bound a factor nowhere
    "a product, one factor positive": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a * b ≤ 6 ∧ 1 ≤ b} + 3978"),
    "a product, no factor positive": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a * b ≤ 6} + 3978"),
    "a product above a number": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a * b ≥ 6 ∧ 0 < a ∧ 0 < b} + 3978"),
    "a product with a zero factor": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℕ × ℕ | 0 * a * b ≤ 6 ∧ 0 < a ∧ 0 < b} + 3978",
    ),
    "a product plus a factor": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a * b + a ≤ 6 ∧ 0 < b} + 3978"),
    "a product, positivity in a disjunction": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℕ × ℕ | a * b ≤ 6 ∧ 0 < a ∨ 0 < b} + 3978",
    ),
    # 5. the universe beside an unbounded or unlisted word
    "the universe beside an unlisted word": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {x : Fin 4000 | x ∈ Finset.univ ∧ Irrational (Real.sqrt x.val)}",
    ),
    "the card of the universe below an integer": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {n : ℤ | (Finset.univ : Finset (Fin 5)).card ≤ n}",
    ),
    "an image of the universe": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {n : ℕ | n ∉ (Finset.univ : Finset (Fin 3987)).image Fin.val}",
    ),
    # 6. ascriptions that type no decided condition
    "an ascribed fun deciding an undecided word": (
        FULL,
        ROOKS,
        OPEN,
        "fun n => ((fun k => if Irrational k then 0 else 2 ^ (n - 2)) : ℝ → ℕ) 2",
    ),
    "an ascribed fun deciding sets": (
        FULL,
        ROOKS,
        OPEN,
        "fun n => ((fun k => if k = {1} then 0 else 2 ^ (n - 2)) : Set ℕ → ℕ) {n}",
    ),
    # 7. one point inside a counted set: a search after it, not one point, a pinned hedge
    "one point, then a search": (TEXT, LEAST, "", "Set.ncard {m : ℕ | m < 3987 ∧ ∃ k, k = m ∧ ∃ j, j > k}"),
    "a disjunction, not one point": (TEXT, LEAST, "", "Set.ncard {m : ℕ | m < 3987 ∧ ∃ k, k = m ∨ k = 5}"),
    "equal to itself": (TEXT, LEAST, "", "Set.ncard {m : ℕ | m < 3987 ∧ ∃ k, k = k ∧ k < 5}"),
    "under an inner fun": (TEXT, LEAST, "", "Set.ncard {m : ℕ | m < 3987 ∧ (fun t => ∃ k, k = t ∧ k < 5000) m}"),
    "a pinned member through one point (red team 45's hedge)": (
        TEXT,
        A1,
        "",
        f"{{n : ℕ | Set.ncard {{m | ∃ k, k = n ∧ m = k ∧ {Q}}} = 1 ∧ n = 3}}",
    ),
    "a pinned member through one point, bounded": (
        TEXT,
        A1,
        "",
        f"{{n : ℕ | Set.ncard {{m : ℕ | m < 9 ∧ ∃ k, k = m ∧ k = n ∧ {Q}}} = 1}}",
    ),
}


@pytest.mark.parametrize("number", NUMBERS)
def test_a_number_lean_reads_whole_is_one_token(lean_putnambench: Benchmark, number: str) -> None:
    assert [t.text for t in lex(f"x = {number}")][2:] == [number]
    helper = f"noncomputable def zz_r : ℝ := {number} + 1"
    assert lean_edit_failures(lean_putnambench, PID, {"before": helper + "\n\n"}) == {}


@pytest.mark.parametrize("number", STOPPED)
def test_a_separator_lean_stops_at_is_refused(lean_putnambench: Benchmark, number: str) -> None:
    text = f"def zz_s := {number}axiom zz : False"
    with pytest.raises(LexError, match=GLUED):
        lex(text)
    found = lean_edit_failures(lean_putnambench, PID, {"before": text + "\n\n"})
    assert GLUED in found.get("G2", "") and GLUED in found.get("G3", ""), found


test_each_honest_value_passes = refusal_table_test(_verdict, honest=HONEST)
test_each_near_miss_is_refused = refusal_table_test(_verdict, attacks=ATTACKS)

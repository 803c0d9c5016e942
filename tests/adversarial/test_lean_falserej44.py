"""False rejections, round 44 (Lean, no-answer, G2): honest values the count, ``Finset`` and decision rules
refused, each class beside near misses that must stay refused.

Red teams 39-43 left honest no-answer values refused (fail closed) by the count rules, the ``Finset``
element-type reading and the classical-decision rule. Now:

* short names (``_short_names``): a bare ``card``, ``range``, ``filter`` (with ``ncard``, ``encard``,
  ``Coprime``, ``factorial`` from red team 42) means, where the ``open``s in force (the statement's, the
  candidate's, an ``open Finset in`` inside the value) are all namespaces known for that name, the one
  declaration one of them holds: ``card (range n)`` under ``open Finset`` is ``Finset.card (Finset.range
  n)`` and is read as that spelling is (no count), ``Nat.card`` being ``protected``; ``range`` beside ``open
  Set`` (``Set.range``) or any namespace not known leaves the name as written (refused). Only free names,
  never a field (``{..}.ncard``) or a name the value binds; an ``open N in`` of known namespaces passes the
  word rule;
* ``Set`` as the finite type a count counts (``Nat.card (Set (Fin 5))``, ``_answer_count_words``);
* positive parameters (``_answer_count_parameters``): a bracketed type before an arrow (``(rooktour : (ℕ →
  ℤ × ℤ) → Prop)``, ``putnam_2005_a2``) no longer makes the statement unread; the conclusion's own head
  ``∀ n > 0,`` (``putnam_1965_a5``, ``1962_a5``) gives ``n`` positive where it binds it innermost; a numeral
  bound that implies positivity (``n ≥ 2``) counts. Found on the way: a dependent arrow in a statement with
  no other binder (``(n : ℕ) (hn : 0 < n) : (n : ℕ) → t_solution n = 1``, also ``{n : ℕ} →``, ``⦃n : ℕ⦄
  →``) gave ``n`` positive though it rebinds it; now any dependent arrow leaves no parameter positive (no
  pinned statement loses one; ``putnam_2023_b3``'s ``(IsZigZag : {k : ℕ} → ..)`` keeps none);
* ``Nat.fib`` of number terms free of the counted variable bounds (``_answer_count_terms``), as ``choose``;
  found on the way (red team 43's divisor reading): ``{k : ℕ | (k : ℝ) ∣ 1024}`` passed as bounded, but in
  a field every nonzero number divides every number (the set is every ``k ≥ 1``); a divisor now bounds
  only in ``ℕ``/``ℤ`` (no cast to ``ℚ``/``ℝ``/``ℂ``, the term of integers), which also keeps refused
  ``putnam_1972_b2``'s real parameters, positive by their hypotheses since its arrow binder is read;
* a coordinate bounded by another (``_answer_count_links``): ``a < b ∧ b < 10`` between ``ℕ``/``ℤ``
  coordinates, carried to a fixpoint (a cycle bounds nothing, a ``Fin`` coordinate links nothing: its order
  wraps);
* an unascribed image (``_finset_types._counted_image``): ``((Finset.range e).image fun n => body).card``
  (and ``Finset.image f (Finset.range e)``) with a body of arithmetic of ``n`` and numerals only, whose
  type is then ``ℕ``;
* ``@ite``/``@dite`` naming a library instance (``Real.decidableLT``/``LE``/``Eq``, ``Nat.decEq``/``decLt``/
  ``decLe``) applied to number terms, the condition one the plain ``if`` passes (``_answer_decisions``).

Cleanup: one indicator definition (``_answer_count_reading.INDICATORS``/``indicator``, bare or under
``Set``) for the word, hedge and domain rules (three copies before, two by last part of any owner), and
``_characterises`` is ``CountReading.characterises``.

Measured (G2; the text profile, or the full profile beside the text put before the solution), before the
change and after it: ``HONEST`` (34): 0 accepted before, 34 now. ``ATTACKS`` (42): 40 refused before (the
two field divisors passed: red team 43's false acceptance above), 42 now. ``PARAMETERS`` (19): 9 read the
same before; the five positive rows (head ``∀``, ``≥ 2``, ``1 <``) gave none before, and the five
dependent-arrow rows gave ``{0}``. Pinned statements with a positive parameter: 18 before, 36 now, none
lost. Red team 43's table changed where intended (``a < b ∧ b < 5`` is honest now, its attack is ``a < b ∧
a < 5``; ``Nat.fib`` is read, its unread row is ``Nat.totient``; ``putnam_2005_a2`` reads ``{0}``).
Official answers 346 of 346, the verdict snapshot identical.

Left (refused, fail closed): short names beside namespaces not known for them (a header's ``open Real``,
``Topology``, ``Filter``: most headers, so ``card (range n)`` there stays refused), ``ncard``/``Coprime``
under ``open Finset``, ``choose``; a ``∀ n > 0`` not at the conclusion's head; bounds through other
functions (``Nat.totient``) or by a coordinate plus a term (``a < b + 1``); an image of anything but
``Finset.range``, piped (``|>.image``) or not counted by ``.card``; other explicit instances. Not changed
(as before for the full spelling): ``Finset.card {k : Fin 5 | Irrational ..}`` beside ``open scoped
Classical`` passes (a proposition with no symbol, ``_answer_decisions``' left row), and so now does its
short spelling ``card {..}`` under ``open Finset``.
"""

from __future__ import annotations

from functools import partial

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_count_domains import unbounded_count
from putnam_solver.core.provers.lean._answer_count_parameters import positive_parameters
from putnam_solver.core.provers.lean._answer_count_reading import read_counts
from putnam_solver.core.provers.lean._answer_decisions import deciding_token
from putnam_solver.core.provers.lean.syntax import lex_code, parse_statement
from tests.adversarial.test_lean_falserej43 import _theorem
from tests.adversarial.test_lean_redteam37_classical import LEAST, SCOPED, g2
from tests.adversarial.test_lean_redteam39_values import BENCHMARK, _statement
from tests.adversarial.test_lean_redteam42_counts import _g2
from tests.helpers import assert_linear_work, refusal_table_test

__all__ = ["BENCHMARK"]
PLAIN = "putnam_2019_b1"  # `ℕ → ℕ`, `(n : ℕ)` with no hypothesis on it
ROOKS = "putnam_2005_a2"  # `ℕ → ℕ` under `open Nat Set`, `(n : ℕ) (npos : n > 0) .. (rooktour : (ℕ → ℤ × ℤ) → Prop)`
REALS = "putnam_1972_b2"  # `ℝ → ℝ → ℝ`, `(s v : ℝ) (hs : s > 0) (hv : v > 0) (valid : ℝ → (ℝ → ℝ) → Prop)`
HEADED = "putnam_1965_a5"  # `ℕ → ℕ`, `: ∀ n > 0, {..}.card = putnam_1965_a5_solution n`
FINSET = "open Finset\n\n"
OPEN = "open Classical\n\n"
TEXT, FULL = "text", "full"

# name: (profile, problem, text put before the solution, value); each passes G2
HONEST: dict[str, tuple[str, str, str, str]] = {
    # 1. short names as the open in force makes them mean
    "card of a range under open Finset": (FULL, LEAST, FINSET, "card (range 3987)"),
    "card of a filter under open Finset": (FULL, LEAST, FINSET, "card (filter (fun k => k % 2 = 1) (range 7974))"),
    "card under open Nat Finset (Nat.card is protected)": (
        FULL,
        LEAST,
        "open Nat Finset\n\n",
        "card (Finset.range 3987)",
    ),
    "card of a range under open Finset in": (TEXT, LEAST, "", "open Finset in card (range 3987)"),
    "ncard bounded by a range under open Finset in": (
        TEXT,
        LEAST,
        "",
        "open Finset in Set.ncard {k : ℕ | k ∈ range 3987}",
    ),
    "odd members of a range under open Finset in": (
        TEXT,
        LEAST,
        "",
        "open Finset in Set.ncard {k : ℕ | k ∈ range 3987 ∧ k % 2 = 1} + 1994",
    ),
    # 2. cardinalities of finite types of sets
    "Nat.card of the sets of Fin 5": (TEXT, LEAST, "", "Nat.card (Set (Fin 5)) + 3955"),
    "Fintype.card of the sets of Fin 3": (TEXT, LEAST, "", "Fintype.card (Set (Fin 3)) + 3979"),
    "Nat.card of the sets of Bool": (TEXT, LEAST, "", "Nat.card (Set Bool) + 3983"),
    "Nat.card of the sets of a product": (TEXT, LEAST, "", "Nat.card (Set (Fin 2 × Bool)) + 3971"),
    # 3. parameters the statement only gives positive numbers
    "divisors under a statement with a plain arrow binder": (TEXT, ROOKS, "", "fun n => Set.ncard {d : ℕ | d ∣ n}"),
    "ZMod under a statement with a plain arrow binder": (TEXT, ROOKS, "", "fun n => Nat.card (ZMod n)"),
    "divisors under the conclusion's ∀ n > 0": (TEXT, HEADED, "", "fun n => Set.ncard {d : ℕ | d ∣ n}"),
    "ZMod under the conclusion's ∀ n > 0": (TEXT, HEADED, "", "fun n => Nat.card (ZMod n)"),
    # 4. bounds through Nat.fib
    "a bound by fib": (TEXT, LEAST, "", "Set.ncard {k : ℕ | k < Nat.fib 10} + 3932"),
    "a bound by fib as a field": (TEXT, LEAST, "", "Set.ncard {k : ℕ | k < (10).fib} + 3932"),
    "a bound by fib of the parameter": (TEXT, PLAIN, "", "fun n => Set.ncard {k : ℕ | k < Nat.fib n}"),
    "a bound by the parameter's fib": (TEXT, PLAIN, "", "fun n => Set.ncard {k : ℕ | k ≤ n.fib ∧ k % 2 = 0}"),
    # 5. a coordinate bounded by another
    "a pair, one below the other": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a < b ∧ b < 10} + 3942"),
    "a pair, non-strict": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a ≤ b ∧ b ≤ 9} + 3932"),
    "a pair, mirrored": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | b > a ∧ 10 > b} + 3942"),
    "a pair by projections": (TEXT, LEAST, "", "Set.ncard {p : ℕ × ℕ | p.1 < p.2 ∧ p.2 < 10} + 3942"),
    "a chain of a triple": (TEXT, LEAST, "", "Set.ncard {(a, b, c) : ℕ × ℕ × ℕ | a < b ∧ b < c ∧ c < 10} + 3867"),
    "an integer pair": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℤ × ℤ | 0 ≤ a ∧ a < b ∧ b < 10} + 3942"),
    "an integer above a natural": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℤ | a < b ∧ b < 10} + 3942"),
    "a coordinate equal to another": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a = b ∧ b < 10} + 3977"),
    # 6. an image counted, not ascribed (beside `open Classical`)
    "image of a range, counted": (FULL, LEAST, OPEN, "((Finset.range 3).image (fun n => n * 2)).card * 1329"),
    "image by Finset.image, counted": (
        FULL,
        LEAST,
        OPEN,
        "(Finset.image (fun n => n + 1) (Finset.range 3)).card * 1329",
    ),
    "image by a typed fun, counted": (
        FULL,
        LEAST,
        OPEN,
        "((Finset.range 3).image fun (n : ℕ) => n % 2).card * 1993 + 1",
    ),
    "image of a range of a sum, counted": (
        FULL,
        LEAST,
        SCOPED,
        "((Finset.range (2 + 1)).image fun n => n ^ 2).card * 1329",
    ),
    # 7. an explicit instance of the library (beside `open Classical`)
    "@ite by Real.decidableLT": (FULL, LEAST, OPEN, "@ite ℕ ((3 : ℝ) < 4) (Real.decidableLT 3 4) 3987 0"),
    "@ite by Real.decidableLE": (FULL, LEAST, SCOPED, "@ite ℕ ((3 : ℝ) ≤ 4) (Real.decidableLE 3 4) 3987 0"),
    "@dite by Real.decidableEq": (
        FULL,
        LEAST,
        OPEN,
        "@dite ℕ ((3 : ℝ) = 3) (Real.decidableEq 3 3) (fun _ => 3987) (fun _ => 0)",
    ),
    "@ite by Nat.decLt": (FULL, LEAST, OPEN, "@ite ℕ (3 < 4) (Nat.decLt 3 4) 3987 0"),
}

# name: (profile, problem, text put before the solution, value); each must stay refused by G2
ATTACKS: dict[str, tuple[str, str, str, str]] = {
    # 1. short names: truly ambiguous, not known, or bound by the value
    "range under open Set and Finset (Set.range too)": (
        FULL,
        LEAST,
        "open Set Finset\n\n",
        "Set.ncard {k : ℕ | k ∈ range 3987}",
    ),
    "range under open Set in (Set.range)": (TEXT, LEAST, "", "open Set in Set.ncard {k : ℕ | k ∈ range 3987}"),
    "card beside another namespace open": (FULL, LEAST, "open Finset Real\n\n", "card (range 3987)"),
    "card under the header's open Nat Set and open Finset": (FULL, ROOKS, FINSET, "fun n => card (range n)"),
    "card under an open in of another namespace": (TEXT, LEAST, "", "open Real in card (range 3987)"),
    "ncard under open Finset (not known there)": (TEXT, LEAST, "", "open Finset in ncard {k : ℕ | k < 3987}"),
    "card bound by the value": (
        TEXT,
        LEAST,
        "",
        "open Finset in (fun card : Set ℕ → ℕ => card {k : ℕ | 3987 < k}) Set.ncard + 3987",
    ),
    "card with no open": (TEXT, LEAST, "", "card {k : ℕ | 3987 < k} + 3987"),
    "an unbounded count under open Finset": (TEXT, LEAST, "", "open Finset in Set.ncard {k : ℕ | 3987 < k} + 3987"),
    # 2. sets of infinite types
    "Nat.card of the sets of ℕ": (TEXT, LEAST, "", "Nat.card (Set ℕ) + 3987"),
    "Nat.card of the sets of ℝ": (TEXT, LEAST, "", "Nat.card (Set ℝ) + 3987"),
    "Nat.card of sets of functions into ℕ": (TEXT, LEAST, "", "Nat.card (Set (Fin 5 → ℕ)) + 3987"),
    "Set in a counted set-builder's type": (TEXT, LEAST, "", "Set.ncard {S : Set ℕ | S ⊆ {1}} + 3985"),
    # 3. parameters not only positive
    "divisors of a parameter with no hypothesis": (TEXT, PLAIN, "", "fun n => Set.ncard {d : ℕ | d ∣ n}"),
    "divisors of a predecessor under ∀ n > 0": (TEXT, HEADED, "", "fun n => Set.ncard {d : ℕ | d ∣ n - 1}"),
    "divisors in ℝ (every nonzero real divides)": (TEXT, LEAST, "", "Set.ncard {k : ℕ | (k : ℝ) ∣ 1024} + 3987"),
    "divisors in ℚ": (TEXT, LEAST, "", "Set.ncard {k : ℕ | (k : ℚ) ∣ 1024 ∧ k % 2 = 1} + 3987"),
    "divisors of a positive real parameter": (TEXT, REALS, "", "fun s v => (Set.ncard {k : ℕ | k ∣ s} : ℝ)"),
    # 4. fib of the variable, fib not positive, bare fib
    "a bound through fib of the variable": (TEXT, LEAST, "", "Set.ncard {k : ℕ | k < Nat.fib k} + 3987"),
    "fib on the variable's side": (TEXT, LEAST, "", "Set.ncard {k : ℕ | Nat.fib k < 100} + 3987"),
    "divisors of fib 0": (TEXT, LEAST, "", "Set.ncard {d : ℕ | d ∣ Nat.fib 0} + 3987"),
    "a bound by a bare fib under open Nat": (TEXT, ROOKS, "", "fun n => Set.ncard {k : ℕ | k < fib n}"),
    # 5. coordinates: the other unbounded, a cycle, a wrapping type, a disjunction
    "a pair bounded by an unbounded other": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a < b} + 3987"),
    "the other bounded below only": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a < b ∧ a < 10} + 3987"),
    "a cycle": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a < b ∧ b < a} + 3987"),
    "an integer bounded above only by another": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℤ × ℕ | a < b ∧ b < 10} + 3987"),
    "a bound by a Fin coordinate (it wraps)": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × Fin 5 | a < b} + 3987"),
    "a link in a disjunction": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℕ × ℕ | (a < b ∨ a = 0) ∧ b < 10} + 3987",
    ),
    # honest since false rejections 48 (`¬(b ≤ a)` is `a < b`); its near miss leaves `a` unbounded
    "a link under a negation": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | ¬(b ≥ a) ∧ b < 10} + 3987"),
    # honest since false rejections 46 (`a < b + 1 ∧ b < 10`); its near miss leaves `b` unbounded
    "a bound by another plus one": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℕ × ℕ | a < b + 1 ∧ a < 10} + 3987"),
    # 6. images whose elements are not shown plain
    "image into Prop": (FULL, LEAST, OPEN, "((Finset.range 3).image (fun n => n < 2)).card * 1329"),
    "image cast into ℝ": (FULL, LEAST, OPEN, "((Finset.range 3).image (fun n => (n : ℝ))).card * 1329"),
    "image by a bare cast": (FULL, LEAST, OPEN, "((Finset.range 3).image (fun n => ↑n)).card * 1329"),
    "image by an unknown function": (
        FULL,
        LEAST,
        OPEN,
        "(fun f : ℕ → ℝ => ((Finset.range 3).image f).card) (fun n => n) * 1329",
    ),
    "image of a real interval": (FULL, LEAST, OPEN, "((Finset.Icc (1 : ℝ) 3).image (fun x => x)).card * 1329"),
    "image given one more argument": (FULL, LEAST, OPEN, "((Finset.range 3).image (fun n => n * 2) 5).card * 1329"),
    "image of a range of the element's own image": (
        FULL,
        LEAST,
        OPEN,
        "((Finset.range 3).image (fun n => (Finset.range 3).image (fun m => m))).card * 1329",
    ),
    "image not counted": (FULL, LEAST, OPEN, "((Finset.range 3).image (fun n => n * 2)).sum id + 3981"),
    # 7. instances not of the library, conditions or arguments not read
    "@ite by Classical.propDecidable": (
        FULL,
        LEAST,
        OPEN,
        "@ite ℕ ((3 : ℝ) < 4) (Classical.propDecidable _) 3987 0",
    ),
    "@ite of an undecided condition": (
        FULL,
        LEAST,
        OPEN,
        "@ite ℕ (Irrational (Real.sqrt 2)) (Real.decidableLT 3 4) 3987 0",
    ),
    "@ite by an instance of an unread term": (
        FULL,
        LEAST,
        OPEN,
        "@ite ℕ ((3 : ℝ) < 4) (Real.decidableLT (sSup {x : ℝ | x < 4}) 4) 3987 0",
    ),
    "@ite by a library instance, a branch decides": (
        FULL,
        LEAST,
        OPEN,
        "@ite ℕ ((3 : ℝ) < 4) (Real.decidableLT 3 4) (if Irrational (Real.sqrt 2) then 3987 else 0) 0",
    ),
}


def _verdict(bench: Benchmark, profile: str, problem: str, before: str, value: str) -> str:
    return g2(bench, problem, before, value) if profile == FULL else _g2(bench, problem, value, before)


test_each_honest_value_passes = refusal_table_test(_verdict, honest=HONEST)
test_each_near_miss_is_refused = refusal_table_test(_verdict, attacks=ATTACKS)


# id: (solution type, the theorem's signature and conclusion, the positive parameters)
PARAMETERS: dict[str, tuple[str, str, set[int]]] = {
    "a plain arrow binder": ("ℕ → ℕ", "(f : (ℕ → ℕ) → Prop) (n : ℕ) (hn : 0 < n) : t_solution n = 1", {0}),
    "the conclusion's ∀ n > 0": ("ℕ → ℕ", ": ∀ n > 0, t_solution n = 1", {0}),
    "the conclusion's ∀ n ≥ 2": ("ℕ → ℕ", ": ∀ n ≥ 2, t_solution n = 1", {0}),
    "a hypothesis n ≥ 2": ("ℕ → ℕ", "(n : ℕ) (hn : n ≥ 2) : t_solution n = 1", {0}),
    "a hypothesis 1 < n": ("ℕ → ℕ", "(n : ℕ) (hn : 1 < n) : t_solution n = 1", {0}),
    "a dependent arrow binder (read since false rejections 47)": (
        "ℕ → ℕ",
        "(f : (m : ℕ) → Fin m) (n : ℕ) (hn : 0 < n) : t_solution n = 1",
        {0},
    ),
    "rebound by a dependent arrow": ("ℕ → ℕ", "(n : ℕ) (hn : 0 < n) : (n : ℕ) → t_solution n = 1", set()),
    "rebound by an implicit arrow": ("ℕ → ℕ", "(n : ℕ) (hn : 0 < n) : {n : ℕ} → t_solution n = 1", set()),
    "rebound by a strict implicit arrow": ("ℕ → ℕ", "(n : ℕ) (hn : 0 < n) : ⦃n : ℕ⦄ → t_solution n = 1", set()),
    "an implicit parameter": ("ℕ → ℕ", "{n : ℕ} (hn : 0 < n) : t_solution n = 1", {0}),
    "a type in square brackets before an arrow": (
        "ℕ → ℕ",
        "(P : ℝ[X] → ℕ) (n : ℕ) (hn : n ≥ 2) : t_solution n = 1",
        {0},
    ),
    "rebound by an instance arrow": ("ℕ → ℕ", "(n : ℕ) (hn : 0 < n) : [n : Inhabited ℕ] → t_solution n = 1", set()),
    "an arrow hypothesis": ("ℕ → ℕ", "(n : ℕ) (h : (n > 0) → True) : t_solution n = 1", set()),
    "the conclusion's ∀ n ≥ 0": ("ℕ → ℕ", ": ∀ n ≥ 0, t_solution n = 1", set()),
    "the conclusion's ∀ n ≠ 1": ("ℕ → ℕ", ": ∀ n ≠ 1, t_solution n = 1", set()),
    "a hypothesis n > -1": ("ℤ → ℕ", "(n : ℤ) (hn : n > -1) : t_solution n = 1", set()),
    "rebound inside the ∀": ("ℕ → ℕ", ": ∀ n > 0, ∀ n : ℕ, t_solution n = 1", set()),
    "the ∀ not at the head (read since false rejections 46)": ("ℕ → ℕ", ": True ∧ ∀ n > 0, t_solution n = 1", {0}),
    "also applied outside the ∀": ("ℕ → ℕ", "(m : ℕ) : (∀ n > 0, t_solution n = 1) ∧ t_solution m = 0", set()),
}


@pytest.mark.parametrize(
    ("solution_type", "theorem", "positive"), [pytest.param(*v, id=k) for k, v in PARAMETERS.items()]
)
def test_the_positive_parameters_are_read(solution_type: str, theorem: str, positive: set[int]) -> None:
    assert positive_parameters(parse_statement(_theorem(solution_type, theorem)), "t_solution") == positive


UNITS = ("a < b ∧ ", "open Finset in ", "@ite ℕ (3 < 4) (Nat.decLt 3 4) 1 ")
"""Hostile values of many links, opens and explicit instances: each reading stays linear."""


@pytest.mark.parametrize("unit", UNITS)
def test_the_new_readings_are_linear_in_the_value(unit: str) -> None:
    assert_linear_work(partial(_read, unit), 100)


def _read(unit: str, n: int) -> object:
    if unit.startswith("@"):
        return deciding_token(lex_code(f"{unit * n}0"), ("ℕ",))
    if unit.startswith("open"):
        value = f"{unit * n}card (range 3)"
        return unbounded_count(read_counts(lex_code(value), _statement("ℕ"), "t_solution", ("Finset",)))
    value = f"Set.ncard {{(a, b) : ℕ × ℕ | {unit * n}b < 3}}"
    return unbounded_count(read_counts(lex_code(value), _statement("ℕ"), "t_solution"))

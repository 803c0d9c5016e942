"""False rejections, round 50 (Lean): honest proofs and values the gates refused, each class beside near
misses that must stay refused.

* a name after ``|`` in an ``rcases``/``obtain``/``rintro`` pattern (``rcases h with hconst | hopen``):
  red team 49's G3 rule (``_resumed_names``) took every ``|`` for a place where a tactic begins, and
  ``hopen`` read from its second character holds ``open``. Lean reads a pattern's names by the ``ident``
  parser, whole (leanprover/lean4 src/Init/RCases.lean, ``rcasesPatMed := sepBy1(rcasesPat, " | ")``), so
  a name whose tokens back to ``obtain``, an ``rcases``'s ``with`` or (inside brackets) ``rintro`` form a
  pattern is no tactic's place now (``_rcases_patterns``); a ``|`` of ``first``, of a ``match``
  alternative, after ``obtain`` with no item, after two items with no ``|``, after a ``:`` ascription or
  in a term's brackets stays one, and so does every guillemet name;
* ``@[«simp»]``: a guillemet name is read by Lean's catch-all ``Attr.simple``, which applies the attribute
  the name names (``_attribute_items.attribute_word``); with arguments (which then are not ``simp``'s own
  syntax) and for every attribute not listed it stays refused;
* a product of integer coordinates below a number where each factor is stated positive by an order (``a *
  b ≤ 6 ∧ 0 < a ∧ 0 < b`` over ``ℤ × ℤ``, ``_answer_count_links._factors``): round 49 read naturals only;
  ``≠ 0`` of an integer, one factor not positive, ``0 ≤``, a real factor stay refused. Round 49's table row
  "a product of positive integers" was such a value and moved here (its count differs from the answer's;
  G2 judges finiteness only);
* a one-point quantifier whose point is the counted name (``{m : ℕ | ∃ k, k = m ∧ k < 3987}``,
  ``∀ k, k = m → k < 3987``): its body bounds ``m`` as it bounds ``k`` (``_answer_count_quantifiers.
  point_body``); a typed ``k`` (``Fin 5`` wraps), a shifted point, a body that binds again, a bound on one
  side of an integer stay refused;
* a function type ascribed in brackets (``(fun k => .. : (ℕ → ℕ))``, ``_number_decisions._ascribed_domains``);
* found by this round's respellings of official answers: an ASCII comparison in a counted set (``n <= 3986``)
  was read as an unknown word; the count reading now reads ``<=``, ``>=``, ``->`` as ``≤``, ``≥``, ``→``
  (``_answer_count_reading.read_counts``), so the same bounds hold, and the same non-bounds stay refused.

Measured (the same tests run against the code before this round and after it): ``HONEST_PROOFS`` (13): 2
passed before (a name after ``,`` or first on its line in a tuple), 13 now; ``HOSTILE_PROOFS`` (20): 20
refused before, 20 now; ``HONEST_ATTRIBUTES`` (3): 0 before, 3 now; ``HOSTILE_ATTRIBUTES`` (4): 4 refused
before, 4 now; ``HONEST`` values (17): 2 before (the whole value ascribed: the leading ``fun`` took the
declared domain), 17 now; ``ATTACKS`` (21): 21 refused before, 21 now. Respellings of official answers
(G2 on the no-answer track): 1358 made by rule from all 346 (``fun x ↦``/``=>``, ``λ``, ASCII ``<=``/``>=``/
``->``/``/\\``, ``Nat``/``Real``/``Int``, ``Finset.Ico 0`` for ``Finset.range``, set-builders for ``Set.Ioo``/
``Icc``/``Ioi``, typed binders, brackets, line breaks) and 56 by hand: all accepted before and after; 69
spellings of ``putnam_1993_b1``'s count: 8 refused before, 6 now. Published Lean proofs of the conformance
corpora with a name G3 reads as resumed: 1 of 1461 before (``rcases .. with hconst | hopen``), 0 now.

Left (refused, fail closed): a pattern tactic's word after a tactic of several lines that holds a body word
(``have h := by\n    exact let ..``), or after ``=>``, ``;`` or ``|`` on its line; ``(ℕ) → (ℕ)`` (a domain in
brackets of its own), a dependent ascription ``((k : ℕ) → ℕ)`` (both read since round 52, that row of
``ATTACKS`` moved to ``test_lean_falserej52``); a one-point quantifier whose point is a term
(``k = m + 1``); counts of ``∃ k < c, n = k``, ``n.succ ≤ c``, a ``Finset`` cast to a ``Set``, a disjunction
of bounded conjunctions; an unwritten ``Fin`` domain (``∀ i, p.eval (r i) = 0`` with ``r : Fin 2 → ℝ``).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.adversarial.test_lean_falserej44 import FULL, LEAST, OPEN, TEXT, _verdict
from tests.adversarial.test_lean_falserej47 import ROOKS
from tests.adversarial.test_lean_redteam39_values import BENCHMARK
from tests.helpers import lean_edit_failures, refusal_table_test

__all__ = ["BENCHMARK"]
PID = "putnam_1962_a1"
AXIOM = "axiom zz : False"
RESUMED = "a command one character into a tactic's name"
EM = "Classical.em True"

# proofs whose names Lean reads as rcases patterns: each passes the text gates
HONEST_PROOFS: dict[str, str] = {
    "rcases with two names": f"by\n  rcases {EM} with hconst | hopen\n  · trivial\n  · trivial",
    "obtain with two names": f"by\n  obtain hconst | hopen := {EM}\n  · trivial\n  · trivial",
    "obtain, tuples": "by\n  obtain ⟨hx, hy⟩ | ⟨hz, hopen⟩ := (Or.inl ⟨trivial, trivial⟩ : True ∧ True ∨ True ∧ True)"
    "\n  · trivial\n  · trivial",
    "rintro in brackets": "by\n  rintro (hconst | hopen)",
    "rintro, a tuple after a name": "by\n  rintro hx ⟨hy, hconst | hopen⟩",
    "rcases of a named target": f"by\n  rcases hdef : {EM} with hconst | hopen | hend",
    "an explicit tuple": f"by\n  rcases {EM} with @⟨ha, hb⟩ | hopen",
    "three alternatives, a clear and a hole": f"by\n  rcases {EM} with - | _ | hopen\n  trivial",
    "a name first on a line of a pattern": f"by\n  obtain ⟨ha,\n    hopen⟩ := {EM}\n  trivial",
    "after a tactic of two lines": "by\n  have h : True ∨ True := by\n    simp\n  rcases h with hconst | hopen",
    "under a bullet": f"by\n  · simp at h\n    rcases {EM} with hconst | hopen",
    "after a bullet": f"by\n  · rcases {EM} with hconst | hopen",
    "after another pattern": f"by\n  rcases {EM} with ha | hb\n  rcases {EM} with hconst | hopen",
}

# the same names where a tactic may begin: refused by G3
HOSTILE_PROOFS: dict[str, str] = {
    "first after obtain with no item": f"by\n  first | obtain | h{AXIOM}",
    "first after a finished obtain": f"by\n  obtain h\n  first | simp | h{AXIOM}",
    "a match alternative": f"by\n  match h with\n  | h{AXIOM}",
    "rintro without brackets": f"by\n  rintro a | h{AXIOM}",
    "after an ascription": f"by\n  obtain h : T | h{AXIOM}",
    "first": f"by\n  first | simp | h{AXIOM}",
    "an anonymous constructor": f"by\n  exact ⟨a | h{AXIOM}⟩",
    "a guillemet name in a pattern": f"by\n  rcases h with a | «{AXIOM}»",
    "with of cases": f"by\n  cases h with a | h{AXIOM}",
    "rcases with on another line": f"by\n  rcases h\n  with a | h{AXIOM}",
    "a term value of obtain": f"by\n  obtain h := ⟨a, by | h{AXIOM}⟩",
    "a by block in a group": f"by\n  obtain ⟨a, by simp | h{AXIOM}⟩ := h",
    "a keyword item": f"by\n  obtain fun | h{AXIOM}",
    "a list in a pattern": f"by\n  obtain [a] | h{AXIOM}",
    "obtain as an argument under first": f"by\n  first | exact f obtain a | h{AXIOM}",
    "obtain as an argument of an unknown tactic": f"by\n  first | peel obtain a | h{AXIOM}",
    "obtain as a let's body": f"by\n  first | exact let x := 1\n  obtain a | h{AXIOM}",
    "obtain as an operator's right side": f"by\n  first | exact 1 +\n  obtain a | h{AXIOM}",
    "rcases deeper than the line before": f"by\n  first | exact f\n    rcases h with a | h{AXIOM}",
    "obtain after a semicolon in a term": f"by\n  first | exact let x := 1; obtain a | h{AXIOM}",
}

# helpers before the theorem: (text, passes)
HONEST_ATTRIBUTES = (
    "@[«simp»] theorem zz_t : (1 : ℕ) + 0 = 1 := rfl",
    "@[local «simp»] theorem zz_t : (1 : ℕ) + 0 = 1 := rfl",
    "@[«simp», simp] theorem zz_t : (1 : ℕ) + 0 = 1 := rfl",
)
HOSTILE_ATTRIBUTES = (
    "@[«simp» 100] theorem zz_t : (1 : ℕ) + 0 = 1 := rfl",
    "@[«instance»] def zz_i : Inhabited ℕ := ⟨3⟩",
    "@[«csimp»] theorem zz_t : (1 : ℕ) + 0 = 1 := rfl",
    "@[«simp.x»] theorem zz_t : (1 : ℕ) + 0 = 1 := rfl",
)

# name: (profile, problem, text put before the solution, value); each passes G2
HONEST: dict[str, tuple[str, str, str, str]] = {
    "a product of positive integers": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℤ × ℤ | a * b ≤ 6 ∧ 0 < a ∧ 0 < b} + 3973",
    ),
    "a product of integers, mirrored": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℤ × ℤ | 6 ≥ a * b ∧ a ≥ 1 ∧ 1 ≤ b} + 3973",
    ),
    "an integer times a natural": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℤ × ℕ | 2 * a * b < 13 ∧ 0 < a ∧ b ≠ 0} + 3973",
    ),
    "exists at the counted name": (TEXT, LEAST, "", "Set.ncard {m : ℕ | ∃ k, k = m ∧ k < 3987}"),
    "exists at the counted name, mirrored": (TEXT, LEAST, "", "Set.ncard {m : ℕ | ∃ k, m = k ∧ k < 3987}"),
    "forall at the counted name": (TEXT, LEAST, "", "Set.ncard {m : ℕ | ∀ k, k = m → k < 3987}"),
    "exists beside a lower bound": (TEXT, LEAST, "", "Set.ncard {m : ℤ | 0 ≤ m ∧ ∃ k, k = m ∧ k < 3987}"),
    "exists bounding both sides": (TEXT, LEAST, "", "Set.ncard {m : ℤ | ∃ k, k = m ∧ 0 ≤ k ∧ k < 3987}"),
    "exists at a coordinate, linked": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℕ × ℕ | a < 3 ∧ ∃ k, k = b ∧ k < a} + 3984",
    ),
    "ASCII at most": (TEXT, LEAST, "", "Set.ncard {n : ℕ | n <= 3986}"),
    "ASCII bounds both sides": (TEXT, LEAST, "", "Set.ncard {x : ℤ | x >= 1 ∧ 3987 >= x}"),
    "ASCII and symbols mixed": (TEXT, LEAST, "", "Set.ncard {n : ℕ | 1 <= n ∧ n ≤ 3987}"),
    "a function type in brackets, outside": (
        FULL,
        ROOKS,
        OPEN,
        "fun n => ((fun k => if k = 1 then 0 else 2 ^ (k - 2)) : (ℕ → ℕ)) n",
    ),
    "a function type in brackets, inside": (
        FULL,
        ROOKS,
        OPEN,
        "fun n => (fun k => if k = 1 then 0 else 2 ^ (k - 2) : (ℕ → ℕ)) n",
    ),
    "a function type in double brackets": (
        FULL,
        ROOKS,
        OPEN,
        "fun n => (fun k => if k = 1 then 0 else 2 ^ (k - 2) : ((ℕ → ℕ))) n",
    ),
    "the whole value ascribed in brackets": (
        FULL,
        ROOKS,
        OPEN,
        "(fun k => if k = 1 then 0 else 2 ^ (k - 2) : (ℕ → ℕ))",
    ),
    "the whole value, a named condition": (
        FULL,
        ROOKS,
        OPEN,
        "(fun k => if h : k = 1 then 0 else 2 ^ (k - 2) : (ℕ → ℕ))",
    ),
}

# name: (profile, problem, text put before the solution, value); each must stay refused by G2
ATTACKS: dict[str, tuple[str, str, str, str]] = {
    "integers stated not zero": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℤ × ℤ | a * b ≤ 6 ∧ a ≠ 0 ∧ b ≠ 0} + 3973"),
    "one integer positive": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℤ × ℤ | a * b ≤ 6 ∧ 0 < b} + 3973"),
    "an integer not stated positive beside a natural": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℤ × ℕ | a * b ≤ 6 ∧ 0 < b} + 3973",
    ),
    "a product of integers above a number": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℤ × ℤ | a * b ≥ 6 ∧ 0 < a ∧ 0 < b} + 3973",
    ),
    "an integer at least zero": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℤ × ℤ | a * b ≤ 6 ∧ 0 ≤ a ∧ 0 < b} + 3973"),
    "a real factor": (TEXT, LEAST, "", "Set.ncard {(a, b) : ℤ × ℝ | a * b ≤ 6 ∧ 0 < a ∧ 0 < b} + 3973"),
    "positivity in a disjunction": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {(a, b) : ℤ × ℤ | a * b ≤ 6 ∧ 0 < a ∨ 0 < b} + 3973",
    ),
    "a typed one-point variable": (TEXT, LEAST, "", "Set.ncard {m : ℕ | ∃ k : Fin 5, k = m ∧ k < 3}"),
    "a one-point bound below only": (TEXT, LEAST, "", "Set.ncard {m : ℕ | ∃ k, k = m ∧ k > 3987}"),
    "a one-point bound of an integer above only": (TEXT, LEAST, "", "Set.ncard {m : ℤ | ∃ k, k = m ∧ k < 3987}"),
    "a one-point body in a disjunction": (TEXT, LEAST, "", "Set.ncard {m : ℕ | ∃ k, k = m ∧ k < 3987 ∨ m = m}"),
    "a one-point body that binds again": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {m : ℕ | ∃ k, k = m ∧ ∃ m, m < 3987 ∧ k = k}",
    ),
    "a shifted point": (TEXT, LEAST, "", "Set.ncard {m : ℕ | ∃ k, k = m + 1 ∧ k < 3987}"),
    "a one-point forall before an equivalence": (TEXT, LEAST, "", "Set.ncard {m : ℕ | ∀ k, k = m → k < 3987 ↔ True}"),
    "a one-point bound in an inner disjunction": (
        TEXT,
        LEAST,
        "",
        "Set.ncard {m : ℕ | ∃ k, k = m ∧ (k < 3987 ∨ k = k)}",
    ),
    "a one-point forall with a premise": (TEXT, LEAST, "", "Set.ncard {m : ℕ | ∀ k, k = m → k < 3987 → False}"),
    "ASCII at least": (TEXT, LEAST, "", "Set.ncard {n : ℕ | n >= 3987}"),
    "ASCII bound of an integer above only": (TEXT, LEAST, "", "Set.ncard {x : ℤ | x <= 3987}"),
    "an ASCII implication": (TEXT, LEAST, "", "Set.ncard {n : ℕ | n < 3987 -> n < 5}"),
    "a hole in brackets": (FULL, ROOKS, OPEN, "fun n => (fun k => if k = 1 then 0 else 2 ^ (k - 2) : (_ → ℕ)) n"),
}


@pytest.mark.parametrize(
    ("text", "honest"), [*((t, True) for t in HONEST_PROOFS.values()), *((t, False) for t in HOSTILE_PROOFS.values())]
)
def test_a_pattern_name_passes_and_a_tactic_place_is_refused(
    lean_putnambench: Benchmark, text: str, honest: bool
) -> None:
    found = lean_edit_failures(lean_putnambench, PID, {"proof": text})
    assert found == {} if honest else RESUMED in found.get("G3", ""), found


@pytest.mark.parametrize(
    ("helper", "honest"), [*((h, True) for h in HONEST_ATTRIBUTES), *((h, False) for h in HOSTILE_ATTRIBUTES)]
)
def test_only_a_bare_guillemet_simp_passes(lean_putnambench: Benchmark, helper: str, honest: bool) -> None:
    found = lean_edit_failures(lean_putnambench, PID, {"before": helper + "\n\n"})
    assert found == {} if honest else "attribute not permitted" in found.get("G2", ""), found


test_honest_values_pass_and_near_misses_stay_refused = refusal_table_test(_verdict, honest=HONEST, attacks=ATTACKS)

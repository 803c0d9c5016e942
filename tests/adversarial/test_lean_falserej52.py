"""False rejections, round 52 (Lean): honest proofs the G3 rule of red team 49 refused (a name whose text after
its first character holds a command keyword, ``hopen``, ``hend``, ``hdef``, read where a tactic begins) and
honest no-answer values G2 refused, each class beside near misses that must stay refused.

* a pattern tactic after ``;``, ``<;>`` (also at the end of the line before), ``try``, ``all_goals``, a
  tactic's ``(``, ``first |``, a ``case``'s or ``next``'s ``=>``, a tactic alternative's ``=>`` (``cases h
  with`` then ``| inl h => rcases ..``), or first on its line after a tactic of several lines that holds a
  tactic ``have`` first on its line, a ``conv_lhs => ..`` or tactic alternatives, or ends in ``⊢``: round 50
  took ``rcases``/``obtain``/``rintro`` for a tactic only after ``by``, a bullet, or first on its line after a
  one-line tactic holding no body word. ``_tactic_starts`` reads Lean's tactic sequences (``sepByIndent
  tactic "; "``, ``t <;> t'``, the combinators' ``tacticSeq``, ``case``'s and ``inductionAlts``' ``=>``);
* the first item right after an ``rcases``'s ``with`` (``rcases h with hopen | hb``): ``with`` was no place
  before a pattern's name (``_rcases_patterns``);
* a name right after the ``with`` of a tactic that takes names there (``cases' h with hopen hb``, ``set x := e
  with hdef``, ``split_ifs with hend``, ``injection``, ``filter_upwards``...): red team 50 read every name
  right after ``with`` as core ``cases``'s tactic (``_with_binders``);
* a name among a declaration's binders (``theorem aux`` then ``(hend : p)`` at column 0, as PutnamBench writes
  statements): red team 50 read a name after ``(`` first on its line as a tactic's (``_signature_binders``);
* a domain ascribed to a no-answer value's ``fun`` in brackets of its own (``: (ℕ) → (ℕ)``) or as a dependent
  arrow (``: (k : ℕ) → ℕ``, Lean's ``depArrow``): round 49 read one word per domain only
  (``_number_decisions._domain_words``); a hole, an implicit binder, a ``Fin`` domain stay refused.

Near misses stay refused: the same words where ``;`` belongs to a term (``exact let x := 1; obtain ..``, in a
term's brackets), after a term's word (``exact f try obtain``, ``exact foo case x =>``), after a term
``match``'s or ``fun``'s ``=>``, after a ``conv =>``, a term ``let`` left open in a nested block, core
``cases``/``induction``'s ``with`` (a tactic runs there), a ``with`` whose tactic is not one listed, a
group at a tactic's column or after a bullet.

Measured (the same tests run against the code before this round and after it): ``HONEST`` (37): 0 passed
before, 37 now; ``HOSTILE`` (24): 23 refused before (``exact (f`` then ``obtain a | h..)`` on the next line
was read as a pattern; Lean's ``(`` keeps the term open there, so it is refused now), 24 now; ``VALUES`` (9):
the 4 honest ones refused before, 4 passed now, the 5 near misses refused before and now; ``SIGNATURES``
(7): the 4 honest ones refused before, 4 passed now, the 3 near misses refused before and now. Published Lean
proofs of the conformance corpora (1494 distinct files): as published, no name refused by this rule before
or after; with every hypothesis name (``h``, ``hx``, ``h1``, ``hab``, ``H2``...) respelled ``hend``, 894
names in 258 files refused before, 71 in 40 now (what is left is listed below; the respelling also reaches
the benchmark's own statements, whose binders are now read). The ``dependent function
type in brackets`` row of round 50's ``ATTACKS`` (a fail-closed refusal, listed there as left) moved here.

Left (refused, fail closed): a pattern tactic after a tactic holding a term body word inside a nested block
(``have h := by`` then ``exact let x := 1; x``), after ``then``/``else``, after a term ``fun``'s alternatives,
or where the line it aligns with is more than 2048 tokens back or more than 48 tactics chain by ``<;>``; a
``with`` whose tactic spans lines before it; names after a word no list knows (``injection hend``), in a
``def``'s equation patterns (``| (hend :: t) => ..``) and right-hand sides, and between absolute value bars
(``|hend z|``); the value classes of round 50's notes besides the ascriptions (an unwritten or variable ``Fin``
domain, counts as ``∃ k < c, n = k`` or ``n.succ ≤ c``, a ``Finset`` cast to a ``Set``).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._resumed_names import CONSTRUCT as RESUMED
from tests.adversarial.test_lean_falserej44 import FULL, OPEN, _verdict
from tests.adversarial.test_lean_falserej47 import ROOKS
from tests.adversarial.test_lean_redteam39_values import BENCHMARK
from tests.helpers import lean_edit_failures

__all__ = ["BENCHMARK"]

PID = "putnam_1962_a1"
AXIOM = "axiom zz : False"
NAME = f"h{AXIOM}"
EM = "Classical.em True"

# proofs whose names Lean reads as patterns or binders: each passes the text gates
HONEST: dict[str, str] = {
    "rcases after a semicolon": f"by\n  · intro x; rcases {EM} with h1 | hopen",
    "rcases after <;>": f"by\n  constructor <;> rcases {EM} with ha | hopen",
    "obtain after <;>": "by\n  constructor <;> obtain ⟨a, ha⟩ | hopen := h",
    "rintro after <;>": "by\n  constructor <;> rintro (ha | hopen)",
    "rintro after a semicolon": "by\n  intro x; rintro (h1 | hopen)",
    "two rcases joined by <;>": f"by\n  rcases {EM} with ha | hb <;> rcases {EM} with hc | hend",
    "rcases after <;> ending the line": f"by\n  rcases {EM} with ha | hb <;>\n    rcases {EM} with hc | hend",
    "rcases after <;> and a bracket": f"by\n  simp <;> (try simp) <;>\n    rcases {EM} with hc | hend",
    "rcases after refine and a semicolon": f"by\n  refine ⟨?_, ?_⟩; rcases {EM} with ha | hopen",
    "rcases after simp at and a semicolon": f"by\n  simp only [foo] at h; rcases {EM} with ha | hopen",
    "rcases after try": f"by\n  try rcases {EM} with ha | hopen",
    "rcases after all_goals": f"by\n  all_goals rcases {EM} with ha | hopen",
    "rcases on the line after all_goals": f"by\n  all_goals\n    rcases {EM} with ha | hopen",
    "rcases in a tactic's brackets": f"by\n  simp <;> (rcases {EM} with ha | hopen)",
    "rcases after first": f"by\n  first | rcases {EM} with ha | hopen | simp",
    "rcases after a case's arrow": f"by\n  case inl => rcases {EM} with ha | hopen",
    "rcases after next": f"by\n  next => rcases {EM} with ha | hopen",
    "rcases after an alternative's arrow": f"by\n  cases h with\n  | inl h => rcases {EM} with ha | hopen"
    "\n  | inr h => simp",
    "rcases on the line after an alternative": "by\n  induction n with\n  | zero => simp\n  | succ k ih =>"
    f"\n    rcases {EM} with ha | hopen",
    "rcases after a tactic match's arrow": f"by\n  match h with\n  | .inl a => rcases {EM} with ha | hopen"
    "\n  | .inr b => simp",
    "rcases after a have holding a have": "by\n  have h : True := by\n    have h2 : True := trivial\n    exact h2"
    f"\n  rcases {EM} with ha | hopen",
    "rcases after a conv line": "by\n  have h : True := by\n    conv_lhs => rw [foo]\n    simp"
    f"\n  rcases {EM} with ha | hopen",
    "rcases after alternatives": "by\n  cases h with\n  | inl h => simp\n  | inr h => simp"
    f"\n  rcases {EM} with ha | hopen",
    "rcases after at ⊢": f"by\n  simp at h ⊢\n  rcases {EM} with ha | hopen",
    "rcases after at *": f"by\n  simp at *\n  rcases {EM} with ha | hopen",
    "the first item after with": f"by\n  rcases {EM} with hopen | hb",
    "the only item after with": "by\n  rcases h with hend",
    "the first item after with, after <;>": f"by\n  simp <;> rcases {EM} with hend | hb",
    "cases' names": "by\n  cases' h with hopen hb",
    "cases' after <;>": "by\n  constructor <;> cases' h with hopen hb",
    "cases' after all_goals": "by\n  all_goals cases' lt_or_le 0 x with hend hb",
    "induction' names": "by\n  induction' n with hend ih",
    "set with": "by\n  set q : ℕ := n / 8 with hdef",
    "split_ifs with": "by\n  split_ifs with hend",
    "injection with": "by\n  · injection h with hend hb",
    "wlog with": "by\n  wlog h : p ≤ q generalizing p q with hend",
    "filter_upwards with": "by\n  filter_upwards [h] with hend",
}

# the same words where a term holds them, or a tactic begins after ``with``: refused by G3
HOSTILE: dict[str, str] = {
    "a term let's semicolon": f"by\n  first | exact let x := 1; obtain a | {NAME}",
    "a term let's semicolon in brackets": f"by\n  first | exact (let x := 1; obtain a | {NAME})",
    "a tactic let's bracket after a term": f"by\n  first | exact f (let x := 1; obtain a | {NAME})",
    "try after a term": f"by\n  first | exact f try obtain a | {NAME}",
    "a bracket after a term": f"by\n  first | exact f (obtain a | {NAME})",
    "a fun's arrow": f"by\n  first | exact fun x => obtain a | {NAME}",
    "case after a term": f"by\n  first | exact foo case x => obtain a | {NAME}",
    "a conv arrow": f"by\n  first | conv => obtain a | {NAME}",
    "<;> after a term let": f"by\n  first | exact let x := 1 <;>\n  obtain a | {NAME}",
    "a term match's alternative": f"by\n  first | exact match x with\n  | a => obtain b | {NAME}",
    "an alternative after a term match": f"by\n  cases h with\n  | a => exact match x with\n  | b => obtain c | {NAME}",
    "a fun's alternatives": f"by\n  first | exact fun\n  | a => obtain b | {NAME}",
    "a let open in a nested block": f"by\n  first | have h := by\n      exact let x := 1\n    obtain a | {NAME}",
    "a deeper have after a term": f"by\n  first | exact foo\n      have x := 1\n    obtain a | {NAME}",
    "all_goals on the line before a term": f"by\n  first | exact f all_goals\n    obtain a | {NAME}",
    "a bracket open across lines": f"by\n  first | exact (f\n  obtain a | {NAME})",
    "cases with": f"by\n  cases h with {NAME}",
    "induction with": f"by\n  induction n with {NAME}",
    "cases' after a term": f"by\n  first | exact f cases' x with {NAME}",
    "cases after cases'": f"by\n  cases' h <;> cases x with {NAME}",
    "set with a fun's value": f"by\n  set x := fun y => y with {NAME}",
    "set in a term's line": f"by\n  first | exact f\n      set x := 1 with {NAME}",
    "a with in a by": f"by\n  set x := by cases h with {NAME}",
    "a with after a let": f"by\n  set x := let y := 1 with {NAME}",
}


@pytest.mark.parametrize(("name", "honest"), [*((n, True) for n in HONEST), *((n, False) for n in HOSTILE)])
def test_a_pattern_or_binder_passes_and_a_tactic_place_is_refused(
    lean_putnambench: Benchmark, name: str, honest: bool
) -> None:
    found = lean_edit_failures(lean_putnambench, PID, {"proof": (HONEST if honest else HOSTILE)[name]})
    assert found == {} if honest else RESUMED in found.get("G3", ""), found


ROOK = "fun k => if k = 1 then 0 else 2 ^ (k - 2)"
# no-answer values of `putnam_2005_a2` (`ℕ → ℕ`, under `open Nat Set`): each ascription gives the `fun`'s
# binder its domain, so its `if` is read over `ℕ` (G2); honest ones pass, near misses stay refused
# name: (the type ascribed, honest)
VALUES: dict[str, tuple[str, bool]] = {
    "domains in brackets of their own": ("((ℕ) → (ℕ))", True),
    "a domain in brackets, unbracketed": ("(ℕ) → ℕ", True),
    "a dependent ascription in brackets": ("((k : ℕ) → ℕ)", True),
    "a dependent ascription": ("(k : ℕ) → ℕ", True),
    "a hole": ("(_ → ℕ)", False),
    "an implicit binder": ("({k : ℕ} → ℕ)", False),
    "a Fin binder": ("((k : Fin 5) → ℕ)", False),
    "a hole in brackets of its own": ("((_) → ℕ)", False),
    "a hole as a dependent binder's type": ("((k : _) → ℕ)", False),
}


@pytest.mark.parametrize("name", VALUES)
def test_an_ascribed_domain_is_read(bench: Benchmark, name: str) -> None:
    ascribed, honest = VALUES[name]
    assert (_verdict(bench, FULL, ROOKS, OPEN, f"fun n => ({ROOK} : {ascribed}) n") == "") is honest


# (place, text, honest): a declaration's binders at column 0 pass; a group a term or tactic holds is refused
SIGNATURES: dict[str, tuple[str, str, bool]] = {
    "a helper's binder at column 0": ("before", "theorem zz_t\n(hend : True) : True := hend", True),
    "a second name in a group": ("before", "lemma zz_t (a : ℕ)\n(b hdef : ℕ) : True := trivial", True),
    "an implicit group after another": ("before", "theorem zz_t {a : ℕ}\n{hopen : a = a} : True := trivial", True),
    "an example's binder": ("before", "example\n(hopen : True) : True := hopen", True),
    "a group at a tactic's column": ("proof", f"by\n  exact foo\n  ({NAME})", False),
    "a group after a term's name": ("proof", f"by\n  first | foo ({NAME})", False),
    "a group after a bullet": ("proof", f"by\n  · ({NAME})", False),
}


@pytest.mark.parametrize("name", SIGNATURES)
def test_a_signature_binder_passes(lean_putnambench: Benchmark, name: str) -> None:
    place, text, honest = SIGNATURES[name]
    found = lean_edit_failures(lean_putnambench, PID, {place: text + "\n\n" if place == "before" else text})
    assert found == {} if honest else RESUMED in found.get("G3", ""), found

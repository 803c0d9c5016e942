"""Lean proof-side red team 50 (text profile): a command one character into a name after a word, a bracket or
a bullet, and what else was tried.

The leftover of round 49, a name after an unknown tactic word on its line (``foo haxiom zz : False``), decided
with Lean's parser: the fallback ``Lean.Parser.Tactic.«unknown»`` (leanprover/lean4 src/Lean/Parser/
Tactic.lean, ``withPosition (ident >> errorAtSavedPos "unknown tactic" true)``) stands one character into the
*first* name, ``foo``; the command loop (src/Lean/Parser/Module.lean, ``parseCommand``) resumes at ``oo`` and
skips each later name whole, so after a word no tactic is, Lean declares nothing (measured on the toy Lean,
``test_lean_declares_nothing``). But where the word is one that takes a tactic right
after it (core's ``iterate 3``, ``classical``, ``with_reducible``, ``fail_if_success``, ``repeat'``, Mathlib's
``says``...), the next name begins a tactic, and round 49 read only a line's first word or one after a
separator and a few combinators: ``classical haxiom zz : False`` declared the axiom. So did a name after
``{`` (core's ``tacticSeqBracketed``; the toy Lean declares the axiom, ``test_lean_reads_the_command_after_a_brace``),
``(``, a ``.`` bullet, ``<;> [``, ``(disch :=``, and after ``|`` and such a word (``first | iterate 2 haxiom``).
So did a name after a word's string argument (Mathlib's ``success_if_fail_with_msg "m" tac``).
The text profile accepted each of the 17 candidates of ``HOSTILE``. Now (``_resumed_names._leads``) a name
after words on its line is read where a tactic may begin (``TacticPlaces``), whatever the words (fail
closed: a library word that takes a tactic need not be listed), except in a location (``at h hlocal``,
``generalizing``) and among binders (``case inr hopen =>``, ``next``, ``rename_i``, ``cases' h with x
hopen``, ``| inr hopen =>`` where the word after ``|`` is no tactic word taking a tactic). Published Lean proofs
of the conformance corpora touched: the same 1 of 1489 distinct files as before (``rcases .. with hconst |
hopen``); the verdict snapshot unchanged.

Nothing else was found: each of the attacks of ``TRIED`` was refused before this round and after it, and the
texts of ``CONSISTENT`` (accepted) are read by the toy Lean as by the lexer (``test_lean_declares_nothing``):
a line comment ends only at a line feed (a carriage return, U+2028 and U+0085 stay in the comment), a name two
characters into an unknown tactic (``xyaxiom``) is skipped whole, and a full-width or Greek look-alike of a
word is no keyword to Lean.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._resumed_names import CONSTRUCT as RESUMED
from tests.helpers import lean_edit_failures
from tests.toylean.build import ToyLean

PID = "putnam_1962_a1"
AXIOM = "axiom zz : False"
NAME = f"h{AXIOM}"
HELPER = "theorem zz_t : True := trivial"
RECURSION = "def zz_f : Nat → Nat\n  | 0 => 0\n  | n + 1 => zz_f n\ndecreasing_by "
META, UNREADABLE = "run code or end the file early", "unreadable source"

# a name Lean reads as a tactic after a word, bracket or bullet: accepted before, refused now
HOSTILE: dict[str, str] = {
    "after a brace": f"by\n  {{ {NAME} }}",
    "after a parenthesis": f"by\n  ({NAME})",
    "after a dot bullet": f"by\n  . {NAME}",
    "after iterate and a number": f"by\n  iterate 3 {NAME}",
    "after classical": f"by\n  classical {NAME}",
    "after with_reducible": f"by\n  with_reducible {NAME}",
    "after fail_if_success": f"by\n  fail_if_success {NAME}",
    "in a list after <;>": f"by\n  simp <;> [{NAME}]",
    "as a discharger": f"by\n  simp (disch := {NAME})",
    "after says": f"by\n  simp says {NAME}",
    "after an unknown word": f"by\n  foo {NAME}",
    "after repeat'": f"by\n  repeat' {NAME}",
    "in a term's tactic block": f"by\n  exact (by ({NAME}))",
    "after with and a combinator": f"by\n  induction n with classical {NAME}",
    "after | and a combinator": f"by\n  first | iterate 2 {NAME}",
    "after a case's arrow and a combinator": f"by\n  case h => classical {NAME}",
    "after a word's string": f'by\n  success_if_fail_with_msg "m" {NAME}',
}

# the same names where Lean reads a binder, a pattern or a location, as published proofs write them
HONEST: dict[str, str] = {
    "a location": "by\n  simp at h1 hlocal",
    "case binders": "by\n  case inr hopen => trivial",
    "case binders under a bullet": "by\n  · case inr hopen => trivial",
    "next binders": "by\n  next hopen => trivial",
    "rename_i": "by\n  rename_i hopen\n  trivial",
    "cases' names": "by\n  cases' h with x hopen",
    "an alternative's pattern": "by\n  cases h with\n  | inl hconst => trivial\n  | inr hopen => trivial",
    "generalizing": "by\n  induction n generalizing hopen",
    "a string in a term": 'by\n  exact foo "s" hopen',
}

# attacks refused before this round and after it: the place, the text, the gate, words of its reason
TRIED: dict[str, tuple[str, str, str, str]] = {
    "a name in conv": ("proof", f"by\n  conv => {NAME}", "G3", RESUMED),
    "a name after case =>": ("proof", f"by\n  case h => {NAME}", "G3", RESUMED),
    "a name after then": ("proof", f"by\n  if h : True then {NAME} else trivial", "G3", RESUMED),
    "a name after set_option in": ("proof", f"by\n  set_option pp.all true in {NAME}", "G3", RESUMED),
    "a name after open in": ("proof", f"by\n  open Nat in {NAME}", "G3", RESUMED),
    "a name after decreasing_by": ("before", RECURSION + NAME, "G3", RESUMED),
    "a name after <|>": ("proof", f"by\n  simp <|> {NAME}", "G3", RESUMED),
    "a name in a term's by": ("proof", f"(by {NAME} : True)", "G3", RESUMED),
    "a name after show .. by": ("proof", f"by\n  exact show True by {NAME}", "G3", RESUMED),
    "a name on the line after iterate": ("proof", f"by\n  iterate 2\n    {NAME}", "G3", RESUMED),
    "a name under a dot bullet's line": ("proof", f"by\n  .\n    {NAME}", "G3", RESUMED),
    "a guillemet native_decide": ("proof", "by\n  «native_decide»", "G3", RESUMED),
    "a zero-width space in axiom": ("before", "ax\u200biom zz : False", "G3", UNREADABLE),
    "a BOM before an axiom": ("before", f"\ufeff{AXIOM}", "G3", UNREADABLE),
    "a form feed": ("before", f"def zz_s := 1\f{AXIOM}", "G3", UNREADABLE),
    "sorry in guillemets": ("proof", "by\n  exact «sorry»", "G3", "proof hole"),
    "sorryAx in guillemets": ("proof", "by\n  exact «sorryAx» _ true", "G3", "proof hole"),
    "_root_.sorryAx": ("proof", "by\n  exact _root_.sorryAx _ true", "G3", "proof hole"),
    "Lean.ofReduceBool": ("proof", "by\n  exact Lean.ofReduceBool _ _ rfl", "G3", "native"),
    "unsafeCast": ("proof", "by\n  exact unsafeCast ()", "G3", "unsafe"),
    "skipKernelTC": ("proof", "by\n  set_option debug.skipKernelTC true in\n  trivial", "G3", "skipKernelTC"),
    "liftTermElabM": ("before", "def zz_m := Lean.Elab.Command.liftTermElabM (pure ())", "G3", "meta"),
    "Lean.Elab.Command in a proof": ("proof", "by\n  exact (Lean.Elab.Command.elabCommand default)", "G3", "meta"),
    "Lean.addDecl": ("before", "def zz_m := Lean.addDecl", "G3", "kernel"),
    "eval%": ("proof", "by\n  eval% trivial", "G3", "meta"),
    "attribute [csimp]": ("before", "attribute [csimp] Nat.add_comm", "G3", "csimp"),
    "attribute [implemented_by]": ("before", "attribute [implemented_by Nat.add] Nat.mul", "G3", "implemented_by"),
    "open private": ("before", f"open private zz_p in\n{HELPER}", "G3", "open private"),
    "initialize": ("before", "initialize pure ()", "G3", "initialize"),
    "a string holding a comment opener": ("before", f'def zz_s := "/-"\n{AXIOM}\n-- -/', "G3", "axiom"),
    "a char holding a quote": ("before", f"def zz_c := '\"'\n{AXIOM}\n-- \"", "G3", "axiom"),
    "a doc comment holding an escape": ("before", f'/-- "-/" -/ {AXIOM}', "G3", UNREADABLE),
    "a mutual block holding an axiom": ("before", f"mutual\n{AXIOM}\nend", "G3", "axiom"),
    "a namespace holding an axiom": ("before", f"namespace zz\n{AXIOM}\nend zz", "G3", "axiom"),
    "sorry in decreasing_by": ("before", RECURSION + "sorry", "G3", "proof hole"),
    "a name literal holding a command": ("before", f"def zz_s := `({AXIOM})", "G3", "axiom"),
    "a local notation": ("before", 'local notation "zzN" => (3 : ℕ)', "G2", "local notation"),
    "a prioritised instance": ("before", "instance (priority := high) zz_i : OfNat ℕ 2 := ⟨3⟩", "G2", "instance"),
    "an open renaming": ("before", "open Nat renaming add → zz_add", "G2", "open"),
    "a variable": ("before", "variable (zz_h : False)", "G2", "variable"),
}  # fmt: skip

# texts the gates accept, read by the toy Lean as by the lexer (nothing declared)
CONSISTENT: dict[str, str] = {
    "a carriage return in a line comment": f"-- c\r{AXIOM}",
    "a line separator in a line comment": f"-- c\u2028{AXIOM}",
    "a next line in a line comment": f"-- c\u0085{AXIOM}",
    "a raw string with more hashes": f'def zz_s := r##"a"#{AXIOM}"##',
}


@pytest.mark.parametrize("name", HOSTILE)
def test_each_name_after_a_word_or_bracket_is_refused(lean_putnambench: Benchmark, name: str) -> None:
    found = lean_edit_failures(lean_putnambench, PID, {"proof": HOSTILE[name]})
    assert RESUMED in found.get("G3", ""), found


@pytest.mark.parametrize("name", HONEST)
def test_each_binder_or_location_passes(lean_putnambench: Benchmark, name: str) -> None:
    assert lean_edit_failures(lean_putnambench, PID, {"proof": HONEST[name]}) == {}


@pytest.mark.parametrize("name", TRIED)
def test_each_tried_attack_is_refused(lean_putnambench: Benchmark, name: str) -> None:
    place, text, gate, words = TRIED[name]
    found = lean_edit_failures(lean_putnambench, PID, {place: text + "\n" if place == "before" else text})
    assert words in found.get(gate, ""), found


@pytest.mark.parametrize("name", CONSISTENT)
def test_each_consistent_text_passes(lean_putnambench: Benchmark, name: str) -> None:
    assert lean_edit_failures(lean_putnambench, PID, {"before": CONSISTENT[name] + "\n\n"}) == {}


def _toy_run(toy_lean: ToyLean, folder: Path, text: str) -> str:
    (folder / "T.lean").write_text(f"{text}\n#print axioms zz\n", encoding="utf-8")
    env = {"LEAN_PATH": str(toy_lean.init_dir), "PATH": "/usr/bin:/bin"}
    run = subprocess.run(
        [str(toy_lean.lean), "T.lean"], cwd=folder, env=env, capture_output=True, text=True, timeout=120
    )
    return run.stdout + run.stderr


def test_lean_reads_the_command_after_a_brace(toy_lean: ToyLean, tmp_path: Path) -> None:
    out = _toy_run(toy_lean, tmp_path, f"theorem zz_t : True := by\n  {{ {NAME} }}")
    assert "'zz' depends on axioms: [zz]" in out, out


@pytest.mark.parametrize(
    "text",
    [*(f"theorem zz_t : True := by\n  {t}" for t in (f"foo {NAME}", f"foo bar {NAME}", f"{{ xy{AXIOM} }}")),
     *CONSISTENT.values()],
)  # fmt: skip
def test_lean_declares_nothing(toy_lean: ToyLean, tmp_path: Path, text: str) -> None:
    """After an unknown word Lean resumes one character into it and skips each later name whole; a comment
    ends at a line feed only."""
    assert "Unknown constant `zz`" in _toy_run(toy_lean, tmp_path, text)

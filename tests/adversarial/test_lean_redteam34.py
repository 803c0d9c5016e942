"""Red team 34 (Lean, G2 and G3 on the text profile): where the gates' parse of a command and Lean's part.

Found and fixed (each passed the text profile):

* A library's command keyword after a field's doc comment, attribute list or modifier in a structure. Lean
  reads a field's modifiers inside ``atomic`` and needs a name after them (src/Lean/Parser/Command.lean,
  ``structSimpleBinder``): a keyword is none, so the structure ends before the modifiers and they begin the
  command. ``/-- d -/ zz_library_command zz : True`` was read as a field named ``zz_library_command`` because a
  ``:`` followed on its line. A field's name must now be followed at once by ``:``, ``:=``, ``::`` or a
  binder ``(x : T)`` (``_doc_breaks._field_follows``); the known command words are reported wherever they
  stand (``_commands.body_keywords``).
* Brackets that do not match inside a command. ``aesop (add safe zz`` with no ``)`` passed: Lean cannot parse
  it, resumes at the next command it finds and elaborates what it parsed, while the gates read the clause
  to the end of the command. Every command's brackets must now match (``_brackets``, G3).
* ``namespace «+»`` crashed G2 (its component was split again as a dotted name, and had no name part), and
  ``namespace «Putnam1962A1.Real»`` was read as ``Putnam1962A1`` then ``Real``: Lean reads one component
  ``Putnam1962A1.Real``, which is not the problem's namespace (``_preservation._fresh_namespace``).

Checked and sound (kept as regression cases): core's array literal ``#[`` (src/Init/Data/Array/Basic.lean,
``syntax "#[" withoutPosition(sepBy(term, ", ")) "]" : term``) is lexed as ``#`` then ``[`` with no space
between, which cuts the text where Lean does and keeps every bracket reader counting the ``[``.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import check_forbidden
from putnam_solver.core.provers.lean.syntax import lex_code
from tests.helpers import failures, lean_filled, lean_text_verdict, sampled

PUTNAM = "putnam_1962_a1"


def _found(bench: Benchmark, before: str, proof: str = "by\n  simp", after: str = "") -> dict[str, str]:
    candidate = lean_filled(bench, PUTNAM, proof=proof, before=before, after=after)
    return failures(lean_text_verdict(bench, PUTNAM, candidate))


def _structure(field: str) -> str:
    return f"structure ZzS where\n  x : ℕ\n  {field}\n\n"


FIELDS = {
    # name: (the last field line of a helper structure, whether Lean begins a command there)
    "a doc comment before a library command": ("/-- d -/ zz_library_command zz : True", True),
    "attributes before a library command": ("@[simp] zz_library_command zz : True", True),
    "a modifier before a library command": ("protected zz_library_command zz : True", True),
    "a library command taking a binder": ("/-- d -/ zz_library_command zz (n : ℕ) : True", True),
    "a known command after a modifier": ("protected def zz : ℕ := 1", True),
    "honest: a documented field": ("/-- d -/ y : True", False),
    "honest: a documented field on its own line": ("/-- d -/\n  y : ℕ := 0", False),
    "honest: a field with modifiers and a binder": ("@[simp] protected y (n : ℕ) : ℕ := n", False),
    "honest: a protected field": ("protected y : True", False),
}


@pytest.mark.parametrize(
    ("field", "command"),
    sampled(FIELDS, {"a doc comment before a library command", "honest: a documented field"}),
)
def test_a_command_word_after_field_modifiers_ends_the_structure(
    lean_putnambench: Benchmark, field: str, command: bool
) -> None:
    found = _found(lean_putnambench, _structure(field))
    assert "G2" in found if command else found == {}


BRACKETS = {
    # name: (helpers, proof, whether a bracket is unmatched)
    "an aesop clause never closed": ("", "by\n  aesop (add safe Nat.le_refl\n", True),
    "an aesop rule list never closed": ("", "by\n  aesop (add safe [Nat.le_refl, Nat.succ_le_succ)\n", True),
    "a simp list never closed": ("", "by\n  simp [Nat.add_comm\n", True),
    "a closer with no opener": ("", "by\n  simp)\n", True),
    "a helper's term never closed": ("theorem zz : True := (trivial\n\n", "by\n  simp", True),
    "brackets crossing": ("theorem zz : True := (id ⟨trivial)⟩\n\n", "by\n  simp", True),
    "honest: an aesop clause": ("", "by\n  aesop (add safe [Nat.le_refl, Nat.succ_le_succ])", False),
    "honest: an indexed bound proof": ("theorem zz (l : List ℕ) (h : 0 < l.length) : l[0]'h = l[0] := rfl\n\n",
                                       "by\n  simp", False),
    "honest: an array literal": ("theorem zz : (#[1, 2, 3] : Array ℕ).size = 3 := by\n  rfl\n\n", "by\n  simp", False),
}  # fmt: skip


@pytest.mark.parametrize(
    ("before", "proof", "unmatched"), sampled(BRACKETS, {"an aesop clause never closed", "honest: an aesop clause"})
)
def test_unmatched_brackets_are_refused(lean_putnambench: Benchmark, before: str, proof: str, unmatched: bool) -> None:
    found = _found(lean_putnambench, before, proof)
    assert "unmatched bracket" in found.get("G3", "") if unmatched else found == {}


def test_brackets_are_matched_per_command() -> None:
    """An opener in one command closed in the next is refused: Lean never reads a bracket across commands."""
    assert check_forbidden("theorem a : True := (trivial\n\ntheorem b : True := trivial)\n") != []
    assert check_forbidden("theorem a : True := (trivial)\n\ntheorem b : True := ⟨⟩\n") == []


def test_the_array_literal_is_lexed_where_lean_cuts_it() -> None:
    """``#[`` is two tokens with nothing between, so ``# [1]`` (spaced: Mathlib's card of a list) stays apart."""
    glued = [(t.text, t.spaced) for t in lex_code("#[1]")]
    spaced = [(t.text, t.spaced) for t in lex_code("# [1]")]
    assert glued[:2] == [("#", True), ("[", False)]
    assert spaced[:2] == [("#", True), ("[", True)]


NAMESPACES = {
    # name: (helpers, whether G2 refuses them in the text profile)
    "a quoted symbol component": ("namespace «+»\ndef zz : ℕ := 1\nend «+»\n\n", True),
    "a quoted dotted component": (
        "namespace «Putnam1962A1.Real»\ndef zz : ℕ := 1\nend «Putnam1962A1.Real»\n\n",
        True,
    ),
    "a quoted component closed as two": ("namespace «Real.Zz»\nend Real.Zz\n\n", True),
    "honest: the problem's namespace": ("namespace Putnam1962A1\ndef zz : ℕ := 1\nend Putnam1962A1\n\n", False),
    "honest: a dotted namespace in it": (
        "namespace Putnam1962A1.Zz\ndef zz : ℕ := 1\nend Putnam1962A1.Zz\n\n",
        False,
    ),
    "honest: the problem's namespace quoted": (
        "namespace «Putnam1962A1»\ndef zz : ℕ := 1\nend «Putnam1962A1»\n\n",
        False,
    ),
}


@pytest.mark.parametrize(
    ("before", "refused"), sampled(NAMESPACES, {"a quoted dotted component", "honest: the problem's namespace"})
)
def test_a_quoted_namespace_is_one_component(lean_putnambench: Benchmark, before: str, refused: bool) -> None:
    found = _found(lean_putnambench, before)
    assert found.keys() == {"G2"} and "crashed" not in found["G2"] if refused else found == {}


TRIED = {
    # name: (helpers, proof): tried in this round and refused already; each must stay refused
    "a helper's trace in a conv tactic block": ('def zzS : String := "x"\n\n', "by\n  conv => tactic => trace zzS"),
    "a helper's trace in a focused sequence": ('def zzS : String := "x"\n\n', "by\n  skip <;> [trace zzS; skip]"),
    "a library command after a coinductive's constructors": (
        "coinductive ZzC : Prop where\n  | a : ZzC\n  /-- d -/ zz_library_command zz : True\n\n",
        "by\n  simp",
    ),
    "a modifier before a library command in where declarations": (
        "",
        "by\n  simp\nwhere\n  zz : ℕ := 1\n  private zz_library_command zz : True",
    ),
}


@pytest.mark.parametrize(("before", "proof"), sampled(TRIED, {"a helper's trace in a conv tactic block"}))
def test_tried_spellings_stay_refused(lean_putnambench: Benchmark, before: str, proof: str) -> None:
    assert _found(lean_putnambench, before, proof).keys() & {"G2", "G3"}

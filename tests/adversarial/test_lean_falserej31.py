"""False rejections of honest Lean proofs by the text gates G2 and G3, round 31, and the bypasses around each
relaxed spot, on the red team 22 problem (text profile).

* An indented ``mutual`` block: Lean parses each declaration of the block as a command of its own, at any
  column (leanprover/lean4 src/Lean/Parser/Command.lean, ``«mutual»``: ``many1 (ppLine >> notSymbol "end" >>
  commandParser)``); the splitter read them as one command and refused each indented keyword as layout. A
  declaration word first on its line inside the block now begins a command (``_commands``), so G2 judges
  each as a helper (and refuses anything else in the block).
* An indented ``#check``/``#print``...: Lean ends a command there, except where Mathlib's ``#check`` tactic
  may stand. Read as more of a helper's body, a ``/--`` after it in a ``where`` block or among a structure's
  fields was taken for a declaration's or field's doc, so a library command after it passed G2 (a soundness
  hole, not only a false rejection). Such a ``#`` command outside a tactic's place now begins a command.
* A doc comment or attributes among a structure's fields that no field follows: Lean reads a field's
  modifiers inside ``atomic`` (``structSimpleBinder``), so the structure ends before them and they begin the
  next command; ``/-- d -/ zz_library_command 1`` there was read as a field (soundness). They stay inside only
  where a bracketed binder, or a name with its ``:``, ``:=`` or ``::``, follows (``_doc_breaks``).
* ``| 0 => by tac | 1 => f (x := a)`` on one line: an arm after a ``by`` arm was read as a tactic's place;
  after ``by`` and one tactic that takes no alternatives, the ``|`` is the next arm's (``_match_arms``).

Left refused: ``add_aesop_rules``. It adds global rules (leanprover-community/aesop Aesop/Frontend/Command.lean,
``addRules``: ``attrKind`` global unless ``local``/``scoped``) for any declaration, library ones included, or
for a tactic ``(by ...)``, to any declared rule set (``(rule_sets := [CategoryTheory])``); every later Aesop
call uses them, including autoParams elaborated inside a statement (Mathlib's ``aesop_cat`` fields of
``Functor``), where a rule may assign a metavariable the statement shares with its goal. The text cannot show
that this changes nothing; ``@[aesop]`` on a helper and a proof's ``aesop (add ...)`` stay the ways to add
rules. One case of each class runs in CI; the others are slow.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._commands import commands_of
from tests.adversarial.test_lean_falserej29 import _cases
from tests.adversarial.test_lean_redteam22_g2g3 import Edit, _verdict
from tests.adversarial.test_scoped_additions import _toy_run
from tests.toylean.build import ToyLean

NAMED = "def ff (x : ℕ := 0) (y : ℕ) : ℕ := x + y\n"
LIBRARY = "zz_library_command"
EVEN_ODD = (
    "mutual\n  def zz_even : ℕ → Bool\n    | 0 => true\n    | n + 1 => zz_odd n\n"
    "  def zz_odd : ℕ → Bool\n    | 0 => false\n    | n + 1 => zz_even n\nend\n\n"
)
TRACE = "trace e"
STRUCT = "structure zz_S where\n  x : ℕ\n"
WHERE = "def zz_f : ℕ := zz_g where\n  zz_g : ℕ := 1\n"


def _library(before: str) -> tuple[Edit, str, str]:
    """A refused case: ``before`` added, and G2 names the library command Lean begins in it."""
    return {"before": before}, "G2", LIBRARY


def _theorem_in_mutual(text: str) -> str:
    """The filled challenge with its theorem indented in a ``mutual`` block."""
    at = text.index("theorem putnam_1962_a1")
    return text[:at] + "mutual\n" + "".join(f"  {line}\n" for line in text[at:].splitlines()) + "end\n"


VALID: dict[str, dict[str, Edit]] = {
    "indented mutual blocks": {
        "mutual recursion": {"before": EVEN_ODD},
        "theorems": {"before": "mutual\n  theorem zz_a : True := trivial\n  theorem zz_b : True := trivial\nend\n\n"},
        "documented, with attributes and modifiers": {
            "before": "mutual\n  /-- d -/\n  @[simp] private def zz_a : ℕ := 0\n"
            "  theorem zz_t : zz_a = 0 := rfl\nend\n\n"
        },
        "inductive types with a deriving clause": {
            "before": "mutual\n  inductive zz_A\n    | a : zz_B → zz_A\n    | z\n  deriving Repr\n"
            "  inductive zz_B\n    | b : zz_A → zz_B\nend\n\n"
        },
    },
    "indented # commands": {
        "after a term body": {"before": "theorem zz_h : True := trivial\n  #check zz_h\n\n"},
        "in a where block": {"before": WHERE + "  #check zz_f\n\n"},
        "in a tactic block": {
            "before": "theorem zz_h : True := by\n  trivial\n  #check zz_h\n  #print axioms zz_h\n\n"
        },
        "after a structure": {"before": STRUCT + "  #print zz_S\n\n"},
    },
    "documented structure fields": {
        "docs on their own lines": {"before": "structure zz_S where\n  /-- x -/\n  x : ℕ\n  /-- y -/\n  y : ℕ\n\n"},
        "a doc before a default": {"before": STRUCT + "  /-- y -/ y : ℕ := 2\n\n"},
        "a doc before a binder": {"before": "structure zz_S where\n  /-- z -/\n  (z w : ℕ)\n\n"},
        "a documented constructor": {"before": "structure zz_S where\n  /-- c -/\n  mk ::\n  /-- x -/\n  x : ℕ\n\n"},
        "a type over two lines": {"before": "structure zz_S where\n  /-- f -/\n  f : ℕ →\n    ℕ\n\n"},
    },
    "a by arm before a term arm": {
        "one line": {"before": NAMED + "def gg (a : ℕ) : ℕ := match a with | 0 => by exact 1 | _ => ff (x := a) 1\n\n"},
        "two by arms": {
            "before": NAMED
            + "def gg (a : ℕ) : ℕ := match a with | 0 => by simp [ff] | 1 => by exact 2 | _ => ff (x := a) 1\n\n"
        },
        "a fun": {"before": NAMED + "def gg : ℕ → ℕ := fun | 0 => by exact 1 | n => ff (x := n) 1\n\n"},
    },
}
REFUSED: dict[str, dict[str, tuple[Edit, str, str]]] = {
    # class: case: (edit, gate, the words of its refusal)
    "indented mutual blocks": {
        "an instance in the block": (
            {"before": "mutual\n  def zz_a : ℕ := 0\n  instance : Inhabited ℕ := ⟨zz_a⟩\nend\n\n"},
            "G2",
            "only helper declarations stand in a `mutual` block",
        ),
        "notation in the block": (
            {"before": 'mutual\n  def zz_a : ℕ := 0\n  local notation "zzn" => zz_a\nend\n\n'},
            "G2",
            "only helper declarations stand in a `mutual` block",
        ),
        "two declarations on a line": (
            {"before": "mutual\n  def zz_a : ℕ := 0 def zz_b : ℕ := 0\nend\n\n"},
            "G2",
            "starts a new command here",
        ),
        "an indented declaration after the block": (
            {"before": "mutual\n  def zz_a : ℕ := 0\nend\n  def zz_b : ℕ := 0\n\n"},
            "G2",
            "starts a new command here",
        ),
        "the theorem in the block": (_theorem_in_mutual, "G2", "`mutual`"),
        "an axiom in the block": (
            {"before": "mutual\n  def zz_a : ℕ := 0\n  axiom zz_x : False\nend\n\n"},
            "G3",
            "axiom",
        ),
    },
    "indented # commands": {
        "a library command after #check in a where block": _library(WHERE + f"  #check 1\n  /-- d -/ {LIBRARY} 1\n\n"),
        "attributes after #check in a where block": _library(WHERE + f"  #check 1\n  @[simp] {LIBRARY} 1\n\n"),
        "a library command after #check in a structure": _library(
            STRUCT + f"  #check 1\n  /-- d -/ {LIBRARY} zz_x : ℕ\n\n"
        ),
        "a library command after #print in a where declaration's tactic block": _library(
            f"def zz_f : ℕ := zz_g where\n  zz_g : ℕ := by\n    exact 1\n    #print zz_f\n  /-- d -/ {LIBRARY} 1\n\n"
        ),
        "an indented #eval": ({"before": "theorem zz_h : True := trivial\n  #eval 1\n\n"}, "G3", "#eval"),
    },
    "documented structure fields": {
        "a library command after a doc": _library(STRUCT + f"  /-- d -/ {LIBRARY} 1\n\n"),
        "on the next line": _library(STRUCT + f"  /-- d -/\n  {LIBRARY} 1\n\n"),
        "a bare name before a field": _library(STRUCT + f"  /-- d -/ {LIBRARY} zz_a\n  zz_b : ℕ\n\n"),
        "after attributes": _library(STRUCT + f"  @[simp] {LIBRARY} 1\n\n"),
    },
    "a by arm before a term arm": {
        "intro's alternatives in the by block": (
            {"proof": "by\n  exact match a with | 0 => by intro | 0 => trivial | _ => trace zz"},
            "G3",
            TRACE,
        ),
        "a fun in the by block": (
            {"before": "theorem zz_t (a : ℕ) : ℕ := match a with | 0 => by exact fun | 0 => 1 | _ => by trace zz\n\n"},
            "G3",
            TRACE,
        ),
        "a tactic match's arm": ({"proof": "by\n  match a with | 0 => by simp | _ => trace zz"}, "G3", TRACE),
        "a second tactic after ;": (
            {"proof": "by\n  exact match a with | 0 => by simp; intro | _ => trace zz"},
            "G3",
            TRACE,
        ),
        "a second tactic after <;>": (
            {"proof": "by\n  exact match a with | 0 => by simp <;> intro | _ => trace zz"},
            "G3",
            TRACE,
        ),
    },
}


@pytest.mark.parametrize("edit", _cases(VALID))
def test_honest_layouts_pass_g2_and_g3(lean_putnambench: Benchmark, edit: Edit) -> None:
    found = _verdict(lean_putnambench, edit)
    assert not found, found


@pytest.mark.parametrize(("edit", "gate", "word"), _cases(REFUSED))
def test_their_near_twins_stay_refused(lean_putnambench: Benchmark, edit: Edit, gate: str, word: str) -> None:
    found = _verdict(lean_putnambench, edit)
    assert word in found.get(gate, ""), found


def test_lean_begins_commands_inside_a_mutual_block_a_where_block_and_a_structure(
    toy_lean: ToyLean, tmp_path: Path
) -> None:
    """The premises on Lean 4.35: the indented declarations of a ``mutual`` block are declared, each its own
    command; an indented ``#print`` in a ``where`` block ends the definition, so the ``/--`` after it begins a
    declaration of its own; a ``/--`` among a structure's fields that no field follows begins one too. The
    splitter reads the first two alike (the third's ``def`` is a command word G2 refuses in a body)."""
    text = (
        "mutual\n  def zz_a : Nat := Nat.zero\n  def zz_b : Nat := zz_a\nend\n"
        "def zz_f : Nat := zz_g where\n  zz_g : Nat := Nat.zero\n  #print zz_f\n"
        "  /-- e -/ def zz_e : Nat := Nat.zero\n"
    )
    fields = "structure zz_S where\n  x : Nat\n  /-- d -/ def zz_d : Nat := Nat.zero\n"
    printed = ("zz_b", "zz_e", "zz_d")
    (tmp_path / "Zz.lean").write_text(text + fields + "".join(f"#print {n}\n" for n in printed), encoding="utf-8")
    run = _toy_run(toy_lean, tmp_path, "Zz.lean")
    assert run.returncode == 0, run.stdout + run.stderr
    assert all(f"def {n} : Nat" in run.stdout for n in printed)
    assert [c.name for c in commands_of(text)] == [None, "zz_a", "zz_b", None, "zz_f", None, "zz_e"]

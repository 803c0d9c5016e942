"""Red team 36 (Lean, G1-G3 on the text profile and on the full profile): no new hole found.

About 235 candidates went through G1-G3 on both profiles, and 80 texts through the lexer alone, along the
lines the round was given: Lean syntax that begins a command where the gates read a term or a tactic,
lexing (nested and doc comments, char and string literals, raw and interpolated strings, ``«»`` names,
library tokens with quotes), ``c in d`` games, the module system, attributes and modifiers, ``deriving``,
``where``/``let rec``/``termination_by``/``decreasing_by``, ``partial_fixpoint``, ``mutual``,
``set_option`` and ``open`` inside proofs and answers, and the names a helper can declare without writing
them (auto-bound variables). None was accepted that Lean would read as a different statement, a hole, an
axiom or a changed environment; every one of them is pinned here so that a regression is seen.

What Lean does, as the cases rely on it (leanprover/lean4):

* ``src/Lean/Parser/Basic.lean``, ``whitespace``: after ``/-`` the next character is consumed before
  ``finishCommentBlock`` starts counting, so ``/-/- x -/`` is one whole comment and what follows is code;
  ``/--`` and ``/-!`` are tokens whose body starts right after them, so ``/---/`` and ``/-!-/`` are closed.
  ``tokenFnAux``: ``'`` before another ``'`` is not a character literal (Mathlib's ``''`` token), and
  ``s!"{"}"} x"`` keeps ``x`` in the string (the braces hold the term ``"}"``).
* ``src/Lean/Elab/BuiltinCommand.lean``, ``expandInCmd``: ``c in d`` wraps both in a scope of its own
  (``section c d end`` in most releases; ``end_local_scope`` or ``push_scope% ... pop_scope%`` in later ones).
  Where it is ``section c d end`` and ``d`` is a ``section``, the generated ``end`` closes ``d`` and leaves
  ``c`` (a local instance, an ``open``) in force for the rest of the file, the theorem included; in the other
  releases such a ``d`` is an error or ends with the scope. G2 refuses a block opener after ``in`` in every
  release.
* ``src/Lean/Elab/Inductive.lean`` (``MutualInductive.lean`` in later releases), ``inductiveSyntaxToView``: a
  constructor is named ``declName ++ ctorName``, a plain append with no ``_root_`` escape, so ``| _root_.f_a``
  names no root ``f_a`` and cannot become the auto-bound ``f_a`` of ``Ireland_Rosen_exercise_2_4`` (harmless,
  accepted); Mathlib's ``irreducible_def zz (lemma := f_a)`` would declare it (refused).
* ``src/Lean/ResolveName.lean``, ``resolveGlobalName``: a name of the current namespace wins over the root,
  so the theorem inside a library namespace (``namespace Real`` with ``theorem _root_.putnam_...``) would read
  its words there: refused on both profiles.

A Lean 4 source newer than the ones judged here expands ``c in d`` through builtin commands a candidate can
write too (src/Lean/Elab/BuiltinCommand.lean: ``push_scope% tk``, ``with_local_scope_restriction%``, ...,
``pop_scope% tk``): ``push_scope%`` at a tactic's place would open a scope that the candidate's next ``end``
closes in place of its own ``section``, keeping a local instance of that section in force at the theorem. No
pinned release (v4.24, v4.27, v4.28; nor Lean 4.35's ``libleanshared.so``) has these tokens, and G2 refuses
them already (``_more_commands``), so a toolchain bump cannot open the hole unseen.

Noticed and left alone. False rejections of shapes no
published proof in the corpus uses: ``coinductive`` helpers (Lean's greatest fixpoints, sound),
``theorem «putnam_1962_a1»`` (the same name escaped), and tactics written at column 0 with ``open ... in``
or ``set_option ... in`` among them (Lean reads them as tactics; G2 as commands).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean.syntax import CHAR, DOC, STRING, lex_code
from putnam_solver.core.verify import GateStatus, Profile, Track
from tests.adversarial import test_lean_redteam25_tried as autobound
from tests.helpers import failures, lean_filled, lean_text_verdict, lean_verdict, sampled

PUTNAM = "putnam_1962_a1"
NUMBERED = "putnam_2015_b5"
TEXT_GATES = ("G1", "G2", "G3")


def _both(
    bench: Benchmark, problem: str, text: str, track: Track = Track.WITH_ANSWER
) -> tuple[dict[str, str], dict[str, str]]:
    """G1-G3's failures on the text profile and on the full profile (whose later gates cannot run here)."""
    text_found = {k: v for k, v in failures(lean_text_verdict(bench, problem, text, track)).items() if k in TEXT_GATES}
    full = lean_verdict(bench, problem, text, Profile.FULL, track)
    full_found = {g.id: g.detail for g in full.gates if g.id in TEXT_GATES and g.status is not GateStatus.PASSED}
    return text_found, full_found


def _filled(bench: Benchmark, before: str = "", proof: str = "by\n  simp", after: str = "") -> str:
    return lean_filled(bench, PUTNAM, proof=proof, before=before, after=after)


def _edited(bench: Benchmark, old: str, new: str) -> str:
    text = _filled(bench)
    assert old in text
    return text.replace(old, new, 1)


# What Lean reads as code after each text (src/Lean/Parser/Basic.lean, see above): the lexer must show it.
LEXED = {
    "a comment whose opener's next character is skipped": ("a /-/- x -/ sorry -/ c", ["a", "sorry", "c"]),
    "a doc comment closed at once": ("a /---/ sorry -/ c", ["a", "sorry", "c"]),
    "a module doc closed at once": ("a /-!-/ sorry -/ c", ["a", "sorry", "c"]),
    "a doc comment nested": ("a /-- /-- x -/ sorry -/ c", ["a", "c"]),
    "an interpolated string holding a string": ('s!"{"}"} sorry" c', ["s!", "c"]),
    "Mathlib's image token before a string": ("f ''\"' sorry \" c", ["f", "''", "c"]),
    "a raw string with hashes": ('r##"a"#"## sorry', ["sorry"]),
    "a name escaped with a quote in it": ('«x\'» "s" sorry', ["«x'»", "sorry"]),
}


@pytest.mark.parametrize(
    ("text", "code"), sampled(LEXED, {"a comment whose opener's next character is skipped", "a doc comment nested"})
)
def test_the_lexer_shows_what_lean_reads_as_code(text: str, code: list[str]) -> None:
    """``-/`` left after a closed comment is two symbols to Lean too; they are left out of the comparison."""
    words = [t.text for t in lex_code(text) if t.kind not in (STRING, CHAR, DOC)]
    assert [w for w in words if w not in ("-", "/")] == code


SIMP = "by\n  simp"
HELPER_TACTICS = "theorem zz : True := by\n  trivial\n"

# name: (helpers before the theorem, proof, text after it, the gate that refuses it on both profiles)
REFUSED = {
    # lexing: the hole stays visible wherever Lean reads it as code
    "lexing: sorry after a comment whose opener skips a character": ("", "by\n  /-/- x -/ sorry -/\n  simp", "", "G3"),
    "lexing: sorry after a doc comment closed at once": ("", "by\n  have := 1 /---/\n  sorry", "", "G3"),
    "lexing: sorry after a string gap": ("", 'by\n  have := "a\\\n   b"\n  sorry', "", "G3"),
    "lexing: an escaped proof hole": ("", "by\n  exact «sorryAx» _ false", "", "G3"),
    "lexing: an escaped native axiom": ("", "by\n  exact «Lean».«ofReduceBool» _ _ rfl", "", "G3"),
    # commands Lean begins where a proof seems to go on
    "command: open ending a helper's tactic block": (f"{HELPER_TACTICS}  open Classical\n\n", SIMP, "", "G2"),
    "command: set_option ending a helper's tactic block": (
        f"{HELPER_TACTICS}  set_option pp.all true\n\n",
        SIMP,
        "",
        "G2",
    ),
    "command: open ... in left at a helper's end": (f"{HELPER_TACTICS}  open Classical in\n", SIMP, "", "G2"),
    "command: a local instance at a tactic's place": (
        "",
        "by\n  have := 1\n  attribute [local instance] Classical.propDecidable in\n  simp",
        "",
        "G2",
    ),
    "command: omit at a tactic's place": ("", "by\n  omit hS\n  simp", "", "G2"),
    "command: a public def at a tactic's place": ("", "by\n  simp\n  public def zz : ℕ := 1", "", "G2"),
    "command: an instance among where declarations": (
        "",
        f"{SIMP}\nwhere\n  instance zz : Inhabited ℕ := ⟨0⟩",
        "",
        "G2",
    ),
    "command: #exit after the proof": ("", f"{SIMP}\n#exit", "", "G3"),
    "command: a later release's scope push at a tactic's place": (
        "def zzFive : OfNat ℕ 5 := ⟨4⟩\n\nsection\nattribute [local instance] zzFive\n"
        "theorem zz : True := by\n  push_scope% zz\n  trivial\nend\n\n",
        SIMP,
        "\nend\n",
        "G2",
    ),
    # `c in d` is `section c d end`: with `d` a section, `c` outlives it
    "in: a local instance before a section": (
        "def zzFive : OfNat ℕ 5 := ⟨4⟩\n\nattribute [local instance] zzFive in\nsection\n\n",
        SIMP,
        "\nend\n",
        "G2",
    ),
    "in: an open before a section": ("open Classical in\nsection\n\n", SIMP, "\nend\n", "G2"),
    "in: an open before a mutual block": (
        "open Classical in\nmutual\ntheorem zz : True := trivial\nend\n\n",
        SIMP,
        "",
        "G2",
    ),
    "in: a reducibility change around a library constant": ("unseal Set.ncard in\n", SIMP, "", "G2"),
    # the module system (Lean 4.2x): visibility and meta code
    "module: a meta helper": ("meta def zz : ℕ := 1\n\n", SIMP, "", "G2"),
    "module: a public helper": ("public theorem zz : True := trivial\n\n", SIMP, "", "G2"),
    "module: an exposed helper": ("@[expose] def zz : ℕ := 1\n\n", SIMP, "", "G3"),
    # attributes and declarations that steer elaboration or compiled code
    "attribute: an induction eliminator": (
        "@[induction_eliminator] theorem zz {P : ℕ → Prop} (z : P 0) (s : ∀ n, P n → P (n + 1)) (n : ℕ) : P n :=\n"
        "  Nat.rec z s n\n\n",
        SIMP,
        "",
        "G3",
    ),
    "attribute: a match pattern": ("@[match_pattern] def zz : ℕ := 1\n\n", SIMP, "", "G3"),
    "attribute: a symbol export": ("@[export zz_c] def zz : ℕ := 1\n\n", SIMP, "", "G3"),
    "attribute: an instance in a let rec": ("", "by\n  let rec @[instance] zz : Inhabited ℕ := ⟨0⟩\n  simp", "", "G3"),
    "deriving: an instance for a synonym of the statement's type": (
        "abbrev ZzR := ℝ deriving Inhabited\n\n",
        SIMP,
        "",
        "G2",
    ),
    "deriving: an instance for a library type": ("deriving instance Repr for Real\n\n", SIMP, "", "G3"),
    "deriving: a class whose parents become instances": ("class ZzC extends Inhabited ℝ\n\n", SIMP, "", "G2"),
    "unsafe: a partial helper": ("partial def zz : ℕ → ℕ := fun n => zz n\n\n", SIMP, "", "G3"),
    "unsafe: an opaque constant": ("opaque zz : ℕ\n\n", SIMP, "", "G3"),
    # options and meta code in a proof
    "option: an escaped kernel switch": ("", "by\n  set_option «debug».skipKernelTC true in\n  simp", "", "G3"),
    "option: the sorry warning escaped": ("", "by\n  set_option «warn.sorry» false in\n  simp", "", "G3"),
    "meta: a runner in a nested proof": ("", "by\n  have : True := by run_tac pure ()\n  simp", "", "G3"),
    "meta: the elaborator's namespace opened in a proof": ("", "by\n  open Lean in\n  simp", "", "G3"),
    "native: the reflection axiom by field notation": ("", "by\n  exact (Bool.true).reduceBool", "", "G3"),
}

IN_CI = {
    "lexing: sorry after a comment whose opener skips a character",
    "command: open ending a helper's tactic block",
    "command: a later release's scope push at a tactic's place",
    "in: a local instance before a section",
    "module: a meta helper",
    "attribute: an induction eliminator",
    "deriving: an instance for a synonym of the statement's type",
    "option: an escaped kernel switch",
}


@pytest.mark.parametrize(("before", "proof", "after", "gate"), sampled(REFUSED, IN_CI))
def test_refused_on_both_profiles(lean_putnambench: Benchmark, before: str, proof: str, after: str, gate: str) -> None:
    text_found, full_found = _both(lean_putnambench, PUTNAM, _filled(lean_putnambench, before, proof, after))
    assert gate in text_found and gate in full_found, (text_found, full_found)


# name: (the challenge's text, its replacement): the theorem itself moved, escaped or decorated
THEOREM_EDITS = {
    "the theorem in a library namespace, escaped to the root": (
        "theorem putnam_1962_a1",
        "namespace Real\n\ntheorem _root_.putnam_1962_a1",
    ),
    "the theorem private": ("theorem putnam_1962_a1", "private theorem putnam_1962_a1"),
    "the theorem an instance": ("theorem putnam_1962_a1", "@[instance] theorem putnam_1962_a1"),
    "a module header": ("import Mathlib", "module\n\nimport Mathlib"),
    "a public import": ("import Mathlib", "public import Mathlib"),
    "a spaced field access in the statement": ("S.ncard = 5", "S .ncard = 5"),
}


@pytest.mark.parametrize(
    ("old", "new"), sampled(THEOREM_EDITS, {"the theorem in a library namespace, escaped to the root"})
)
def test_the_theorem_moved_or_decorated_is_refused(lean_putnambench: Benchmark, old: str, new: str) -> None:
    text_found, full_found = _both(lean_putnambench, PUTNAM, _edited(lean_putnambench, old, new))
    assert "G2" in text_found and "G2" in full_found, (text_found, full_found)


# name: helpers before the theorem that can act only through elaboration: G6 decides them on the full profile
BY_ELABORATION = {
    "open ... in the theorem": "open Classical in\n",
    "a global open in a section around the theorem": "section\nopen Classical\n\n",
    "a universe": "universe u\n\n",
    "a local notation": 'local notation "zz" => 1\n\n',
}


@pytest.mark.parametrize("before", sampled(BY_ELABORATION, {"open ... in the theorem"}))
def test_elaboration_additions_are_left_to_g6(lean_putnambench: Benchmark, before: str) -> None:
    after = "\nend\n" if before.startswith("section") else ""
    text = _filled(lean_putnambench, before, after=after)
    verdict = lean_text_verdict(lean_putnambench, PUTNAM, text)
    text_found, full_found = _both(lean_putnambench, PUTNAM, text)
    assert "G2" in text_found and verdict.needs_full_profile and full_found == {}, (text_found, full_found)


# name: (a no-answer value with an `open` inside it, whether it reaches a choice operator through it)
OPENED_VALUES = {
    "Nat.find opened": ("open Nat in find (⟨4, rfl⟩ : ∃ n : ℕ, n = 4)", True),
    "Nat.find renamed": ("open Nat renaming find → zzf in zzf (⟨4, rfl⟩ : ∃ n : ℕ, n = 4)", True),
    "Nat.find opened alone": ("open Nat (find) in find (⟨4, rfl⟩ : ∃ n : ℕ, n = 4)", True),
    "Nat.find beside a hiding": ("open Nat hiding add in find (⟨4, rfl⟩ : ∃ n : ℕ, n = 4)", True),
    "Classical.choose renamed": ("open Classical renaming choose → zzc in zzc (⟨4, rfl⟩ : ∃ n : ℕ, n = 4)", True),
    "sInf renamed": ("open InfSet renaming sInf → zzi in zzi {n : ℕ | n = 4}", True),
    "honest: arithmetic under an open": ("open Nat in 2 + 2", False),
    "honest: a successor renamed": ("open Nat renaming succ → zzs in zzs 3", False),
    "honest: a card under open Finset": ("open Finset in (range 5).card - 1", False),
}


@pytest.mark.parametrize(
    ("value", "choice"), sampled(OPENED_VALUES, {"Nat.find renamed", "honest: a successor renamed"})
)
def test_a_choice_reached_through_an_open_in_the_answer_is_refused(
    lean_putnambench: Benchmark, value: str, choice: bool
) -> None:
    text = lean_filled(lean_putnambench, NUMBERED, Track.NO_ANSWER, proof=SIMP, value=value)
    found = _both(lean_putnambench, NUMBERED, text, Track.NO_ANSWER)
    assert ("choice operator" in found[0].get("G2", "") and "G2" in found[1]) if choice else found == ({}, {}), found


# name: (helpers before the theorem, proof, text after it): published-proof shapes that must stay accepted
HONEST = {
    "open ... in a helper": ("open Classical in\ntheorem zz : True := trivial\n\n", SIMP, ""),
    "open ... in as a tactic": ("", "by\n  open Classical in\n  simp", ""),
    "open ... in as a helper's term": ("theorem zz : True :=\n  open Classical in\n  trivial\n\n", SIMP, ""),
    "set_option ... in as a term": ("", "by\n  exact set_option maxRecDepth 2000 in by simp", ""),
    "heartbeats before the theorem": ("set_option maxHeartbeats 400000 in\n", SIMP, ""),
    "a local instance by haveI": ("", "by\n  haveI : Inhabited ℕ := ⟨0⟩\n  simp", ""),
    "a local simp attribute before a helper": (
        "theorem zz : True := trivial\n\nattribute [local simp] zz in\ntheorem zz2 : True := by simp\n\n",
        SIMP,
        "",
    ),
    "a helper by partial_fixpoint": ("def zz (n : ℕ) : Option ℕ := zz (n + 1)\npartial_fixpoint\n\n", SIMP, ""),
    "where with termination_by": (
        "",
        f"{SIMP}\nwhere\n  zz : ℕ → ℕ\n    | 0 => 0\n    | n + 1 => zz n\n  termination_by n => n",
        "",
    ),
    "let rec with decreasing_by": (
        "",
        "by\n  let rec zz : ℕ → ℕ\n    | 0 => 0\n    | n + 1 => zz n\n  decreasing_by omega\n  simp",
        "",
    ),
    "mutual inductive types": (
        "mutual\ninductive ZzA | a | b : ZzB → ZzA\ninductive ZzB | c : ZzA → ZzB\nend\n\n",
        SIMP,
        "",
    ),
    "a structure deriving instances for itself": ("structure ZzS where\n  x : ℕ\nderiving Inhabited\n\n", SIMP, ""),
    "a definition by a structure instance": (
        "structure ZzS where\n  x : ℕ\n\ndef zz : ZzS where\n  x := 1\n\n",
        SIMP,
        "",
    ),
    "irreducible_def": ("irreducible_def zz : ℕ := 1\n\n", SIMP, ""),
    "a noncomputable section left open": ("noncomputable section\n\n", SIMP, ""),
    "an example under open ... in": ("open Classical in\nexample : True := trivial\n\n", SIMP, ""),
    "#check of a proof, #print axioms after": (
        "#check (by trivial : True)\n\n",
        SIMP,
        "\n#print axioms putnam_1962_a1\n",
    ),
    "simp and grind attributes": ("@[simp, grind =] theorem zz : (1 : ℕ) + 0 = 1 := rfl\n\n", SIMP, ""),
    "decide by the kernel, classical": ("", "by\n  classical\n  decide +kernel", ""),
    "a name literal": ("", "by\n  have := `sorry\n  simp", ""),
}


@pytest.mark.parametrize(
    ("before", "proof", "after"), sampled(HONEST, {"open ... in as a tactic", "a helper by partial_fixpoint"})
)
def test_honest_twins_stay_accepted(lean_putnambench: Benchmark, before: str, proof: str, after: str) -> None:
    assert _both(lean_putnambench, PUTNAM, _filled(lean_putnambench, before, proof, after)) == ({}, {})


def test_the_honest_theorem_in_a_closed_section_stays_accepted(lean_putnambench: Benchmark) -> None:
    """The twin of the namespace case: a section opens no namespace, so the statement reads as at the root."""
    text = _edited(lean_putnambench, "/--\nGiven", "section\n\n/--\nGiven").rstrip() + "\n\nend\n"
    assert _both(lean_putnambench, PUTNAM, text) == ({}, {})


AUTO_BOUND = {
    # name: (helpers before ProofNet's `Ireland_Rosen_exercise_2_4`, whose `f_a` is auto-bound; refused or not)
    "irreducible_def naming its lemma f_a": ("irreducible_def zz (lemma := f_a) : ℕ → ℕ → ℕ := fun _ _ => 2\n\n", True),
    "a constructor escaped to the root": ("inductive Zz where\n  | _root_.f_a : Zz\n\n", False),
    "a structure constructor escaped to the root": ("structure Zz where\n  _root_.f_a ::\n  x : ℕ\n\n", False),
}


@pytest.mark.parametrize(("before", "refused"), sampled(AUTO_BOUND, {"irreducible_def naming its lemma f_a"}))
def test_names_declared_without_a_declaration_keyword(proofnet: Benchmark, before: str, refused: bool) -> None:
    """``(lemma := f_a)`` would declare the root theorem ``f_a``; a constructor's ``_root_`` stays under its type."""
    problem = autobound.AUTO_BOUND
    verdict = lean_text_verdict(proofnet, problem, autobound._candidate(proofnet, problem, before))
    assert (verdict.status == "rejected") is refused, failures(verdict)

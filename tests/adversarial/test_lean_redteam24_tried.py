"""Red team 24: what was tried besides the two classes of ``test_lean_redteam24.py``, and how the gates
judged it (about 215 candidates on ``putnam_1962_a1``, whose header opens ``MeasureTheory``, on
``putnam_2024_a1`` and ``putnam_1993_b1`` on no-answer, and on single snippets for G3).

Refused, on the text and the full profile alike (:data:`REFUSED`): the theorem with a modifier or an
attribute, ``.{u}``, ``lemma`` for ``theorem``, a guillemet-escaped name or inside a namespace; ``deriving
instance``; ``alias`` (a library namespace or the root); ``protected``/``private`` helpers named like the
statement's constants; ``omit ... in``; ``attribute [...] ... in`` before the theorem; an ``instance`` in a
``mutual`` block or a ``where`` clause; ``builtin_initialize``, ``declare_config_elab``,
``register_simp_attr``, ``compile_inductive%``, ``class`` (since round 32 only with
``extends`` or ``[...]`` fields), ``class inductive``,
``export``, ``#check_failure``; a zero-width space in a name; ``set_option «debug».skipKernelTC``. Left to G6
on the full profile (:data:`BY_ELABORATION`): ``universe``, a ``local notation`` in a closed section, helpers
in a library namespace. Harmless and accepted (:data:`HARMLESS`): ``noncomputable section`` left open, a
closed section with ``variable``/``include`` (its variables reach only that section's helpers), nested
comments holding ``#exit``, raw strings with hashes, ``termination_by``/``decreasing_by``, ``where``, a
``deriving`` clause on the candidate's own type, a ``mutual`` helper, ``#check``/``#print`` of a string or
axioms, ``@[simp ←]``, a section or ``noncomputable section`` around the theorem.

A ``#`` command glued to any literal or name (``1#exit``, ``"a"#exit``, ``x!#exit``, ``1e5#exit``) is
refused by G3, as Lean reads it (the longest token). On no-answer, ``putnam_2024_a1``'s question restated
by about 35 wrappers (``setOf``, ``fun``, binder types dropped or split, ``>`` for ``<``, ``¬¬``, ``∧ True``,
``Set.univ ∩``, ``id ⁻¹'``, ``if True``, a one-case ``match``, ``decide (...) = true``) was refused by the
copy rule; ``∃ a > 0, ...`` (a binder predicate, quantifiers interleaved) and a tuple-indexed existential
pass, as the threat model says of reordered and changed-inside copies. ``putnam_1993_b1``'s set under
``sInf``, ``InfSet.sInf``, ``Set.IsWF.min``, ``wellFounded_lt.min``, ``.min'``, ``.inf'``, ``Exists.some``,
``Set.Nonempty.some``, ``Nat.findGreatest``, ``Function.argminOn`` was refused by name before this round.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import check_forbidden
from putnam_solver.core.verify import GateStatus, Profile
from tests.helpers import PROOF, failures, lean_filled, lean_text_verdict, lean_verdict

PROBLEM = "putnam_1962_a1"
THEOREM = f"theorem {PROBLEM}"


def _before(bench: Benchmark, text: str) -> str:
    return lean_filled(bench, PROBLEM, before=text)


def _theorem(bench: Benchmark, prefix: str, name: str = PROBLEM) -> str:
    return lean_filled(bench, PROBLEM).replace(THEOREM, f"{prefix}theorem {name}")


REFUSED = {
    "a private theorem": lambda b: _theorem(b, "private "),
    "a protected theorem": lambda b: _theorem(b, "protected "),
    "a noncomputable theorem": lambda b: _theorem(b, "noncomputable "),
    "a nonrec theorem": lambda b: _theorem(b, "nonrec "),
    "a simp theorem": lambda b: _theorem(b, "@[simp] "),
    "a universe on the theorem": lambda b: _theorem(b, "", f"{PROBLEM}.{{u}}"),
    "an escaped theorem name": lambda b: _theorem(b, "", f"«{PROBLEM}»"),
    "open ... in the theorem": lambda b: _theorem(b, "open Nat in\n"),
    "omit ... in the theorem": lambda b: _theorem(b, "omit hS in\n"),
    "deriving instance": lambda b: _before(b, "deriving instance Repr for Real\n\n"),
    "alias into a library namespace": lambda b: _before(b, "alias MeasureTheory.Collinear := Collinear\n\n"),
    "a protected helper named like the statement": lambda b: _before(
        b, "protected def MeasureTheory.convexHull := 1\n\n"
    ),
    "a private helper named like the statement": lambda b: _before(b, "private def convexHull := 1\n\n"),
    "attribute ... in before the theorem": lambda b: _before(
        b, "attribute [local instance] Classical.propDecidable in\n"
    ),
    "an instance in a mutual block": lambda b: _before(b, "mutual\ninstance zzi : Inhabited ℝ := ⟨1⟩\nend\n\n"),
    "an instance in a where clause": lambda b: _before(
        b, "def zz : Nat := 3\nwhere\n  instance : Inhabited Nat := ⟨5⟩\n\n"
    ),
    "builtin_initialize": lambda b: _before(b, "builtin_initialize zz : IO.Ref Nat ← IO.mkRef 0\n\n"),
    "declare_config_elab": lambda b: _before(b, "declare_config_elab zzElab Foo\n\n"),
    "register_simp_attr": lambda b: _before(b, "register_simp_attr zz_simp\n\n"),
    "compile_inductive%": lambda b: _before(b, "compile_inductive% Nat\n\n"),
    "a class with a parent": lambda b: _before(b, "class Zz (α : Type) extends Inhabited α where\n  x : α\n\n"),
    "a class inductive": lambda b: _before(b, "class inductive Zz : Prop\n  | a\n\n"),
    "export of an own namespace": lambda b: _before(b, "namespace Zz\ndef zq : Nat := 1\nend Zz\nexport Zz (zq)\n\n"),
    "#check_failure": lambda b: _before(b, "#check_failure (1 : String)\n\n"),
    "a zero-width space in a name": lambda b: _before(b, "def zz\u200b := 1\n\n"),
    "an escaped debug option": lambda b: _before(
        b, "theorem zz : 2 + 2 = 4 := by\n  set_option «debug».skipKernelTC true in decide\n\n"
    ),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_on_every_profile(lean_putnambench: Benchmark, case: str) -> None:
    text = REFUSED[case](lean_putnambench)
    assert failures(lean_text_verdict(lean_putnambench, PROBLEM, text)), case
    full = lean_verdict(lean_putnambench, PROBLEM, text, Profile.FULL)
    assert any(g.status is GateStatus.FAILED for g in full.gates if g.id in ("G2", "G3")), case


BY_ELABORATION = {
    "universe": "universe u v\n\n",
    "a local notation in a closed section": 'section\nlocal notation "zz" => 1\nend\n\n',
    "a helper in a library namespace": "namespace MeasureTheory\ndef zzq : Nat := 1\nend MeasureTheory\n\n",
}


@pytest.mark.parametrize("case", sorted(BY_ELABORATION))
def test_left_to_g6_on_the_full_profile_only(lean_putnambench: Benchmark, case: str) -> None:
    text = _before(lean_putnambench, BY_ELABORATION[case])
    assert "G2" in failures(lean_text_verdict(lean_putnambench, PROBLEM, text))
    full = lean_verdict(lean_putnambench, PROBLEM, text, Profile.FULL)
    assert all(g.status is GateStatus.PASSED for g in full.gates if g.id in ("G1", "G2", "G3"))


HARMLESS = {
    "a class (falserej32: refused before)": "class Zz (α : Type) where\n  x : α\n\n",
    "noncomputable section left open": "noncomputable section\n\n",
    "a closed section with variable and include": (
        "section\nvariable (h : False)\ninclude h\ntheorem zz : False := h\nend\n\n"
    ),
    "a closed section with an instance variable": (
        "section\nvariable [Fact False]\ntheorem zz : True := trivial\nend\n\n"
    ),
    "#exit in a nested comment": "/- /- -/ #exit -/\n",
    "raw strings with hashes": 'def zz := r#"a"# ++ r##"b"#"##\n\n',
    "an axiom inside a string after a raw string": 'def zz := r#"a"#"\naxiom zzz : False\n-- "\n\n',
    "termination_by and decreasing_by": (
        "def zz : Nat → Nat\n| 0 => 0\n| n+1 => zz n\ntermination_by n => n\ndecreasing_by all_goals simp_wf; omega\n\n"
    ),
    "a where clause": "def zz : Nat := aux 3\nwhere aux (n : Nat) : Nat := n\n\n",
    "a deriving clause": "structure Zz where\n  x : Nat\nderiving Repr, Inhabited\n\n",
    "a mutual helper": "mutual\ntheorem zz : True := trivial\nend\n\n",
    "#check of a tactic term": "#check (by exact trivial : True)\n\n",
    "#print of a string": '#print "hello"\n\n',
    "simp backwards on a helper": "@[simp ←] theorem zz : (1:ℕ) = 1 := rfl\n\n",
}


@pytest.mark.parametrize("case", sorted(HARMLESS))
def test_harmless_additions_stay_accepted(lean_putnambench: Benchmark, case: str) -> None:
    text = _before(lean_putnambench, HARMLESS[case])
    assert failures(lean_text_verdict(lean_putnambench, PROBLEM, text)) == {}


def test_a_section_around_the_theorem_stays_accepted(lean_putnambench: Benchmark) -> None:
    text = lean_filled(lean_putnambench, PROBLEM, proof=PROOF)
    for opener in ("section", "noncomputable section"):
        wrapped = text.replace("/--", f"{opener}\n/--", 1) + "\nend\n"
        assert failures(lean_text_verdict(lean_putnambench, PROBLEM, wrapped)) == {}, opener


@pytest.mark.parametrize("glued", ["1", '"a"', "(1)", "⟨⟩", "x.1", "'a'", "1.5", 'r"a"', "0x1F", "x!", "x?", "1e5"])
def test_a_hash_command_glued_to_a_literal_is_refused(glued: str) -> None:
    assert [v.construct for v in check_forbidden(f"def zz := {glued}#exit")] == ["#exit"]

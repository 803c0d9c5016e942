"""Red team 22 (Lean, G2 and G3 on the text profile): additions around real PutnamBench problems.

Tried (about 330 candidates, on ``putnam_1962_a1``, whose header opens ``MeasureTheory``, and on
``putnam_2024_a1`` on both tracks, the ``abbrev`` kept on with-answer, the value on no-answer; plus
whitespace edits on ``putnam_1967_b6``, ``putnam_1968_a5`` and ``putnam_1970_a3``): ``set_option ... in``
before the theorem for options that steer elaboration (``quotPrecheck``, ``backward.*``, ``Elab.async``,
``allowUnsafeReducibility``, ``trace.*``, ``diagnostics``), stacked behind allowed ones, inside a section
or namespace that stays open at the theorem or holds the kept ``abbrev``; ``open`` with ``renaming`` or
``hiding``; ``export``; ``namespace`` with ``_root_`` declarations, and the theorem put inside a namespace
as ``_root_.putnam_x``; sections with ``variable``/``include``/``omit``; attributes on helpers
(``instance``, ``default_instance``, ``coe``, ``csimp``, ``implemented_by``, ``local``/``scoped``
instance, mixed ``[local simp, instance]``); ``attribute [local X]`` in closed blocks for every X Lean
scopes (and ``-instance``, ``csimp``, ``coe``, ``default_instance``, which it does not); ``scoped``
notation, instance and macro in a namespace the header opens; ``local macro_rules``; ``deriving instance``;
``universe`` (shadowing ``u_1``); ``noncomputable section`` left open; ``mutual``; ``where``,
``termination_by`` and ``decreasing_by``; ``unsafe``, ``partial``, ``opaque``; ``private`` and
``protected`` helpers named like the statement's constants; ``#guard_msgs``, ``initialize``,
``declare_syntax_cat``, ``elab_rules``, ``syntax`` + ``macro_rules``; instances for the candidate's own
type that open a coercion path (``Coe ℕ Zz`` + ``Coe Zz ℝ``); the theorem with ``.{u}``, ``private``,
``protected``, ``@[simp]``, a default argument, an ``autoParam``; ``set_option ... in`` or ``open ... in``
trailing a helper's body, an ``example``, a ``where`` clause or a no-answer value, indented so that the
command splitter could take it for part of the body; ``p.1`` to ``p .1``, ``ℝ[X]`` to ``ℝ [X]``,
``)[k]!`` to ``) [k]!``.

Found and fixed (accepted by the text profile before):

* Commands the column-0 splitter did not know were read as more of the helper before them: after
  ``def zz := 1``, the line ``builtin_simproc [simp] zzs (Nat.succ _) := fun _ => return .continue`` (a
  simplification procedure: code ``simp`` runs), ``builtin_dsimproc``, ``grind_propagator``,
  ``builtin_grind_propagator``, ``cbv_simproc_decl``, ``elab_stx_quot``, ``set_premise_selector``,
  ``reset_grind_attrs%``, ``init_grind_norm``, ``register_try?_tactic``, ``aux_def``, ``register_hint``.
  They are command-only words now, and the procedure-defining ones meta words of G3. ``scoped`` at
  column 0 (``scoped[Real] attribute [simp] x``, Lean's ``attrKind``) begins a command too; it was read
  as more of the header's ``open MeasureTheory``.
* The compiler's markers of Lean's prelude are ``unsafe axiom``\\ s that prove anything and need no
  ``open``: ``decreasing_by all_goals exact lcProof`` in a helper, or ``exact lcProof`` as the proof
  (``lcUnreachable``, ``lcCast`` likewise). The kernel refuses them in a safe declaration (checked on the
  toy Lean 4.35: "invalid declaration, it uses unsafe declaration 'lcProof'"), so G4 would, but the text
  profile passed them; G3 refuses them now as it refused ``unsafeCast``.

Left (the class behind the first item): any command keyword a library adds that the list does not know is
still read as more of the helper before it when it stands at column 0. Lean ends a command at a
column-0 token that cannot continue its last term (an application argument must stand right of the
command's column); the splitter would need that reading of the term's end, not a list, to be complete.
Done since (``_continuation``, ``test_lean_column0_words.py``): a column-0 word ends the command unless
Lean may read it as a continuation.

Everything else was refused by G2 or G3, or accepted where it cannot change the statement (the valid cases
below). Checked on the toy Lean: a ``local irreducible`` made in a section or in a namespace the file has
already opened ends at the block's ``end``; ``synthInstance.maxHeartbeats`` exhausted is an error
("failed to synthesize ... maximum number of heartbeats"), not an answer dropped as ``synthInstance.maxSize``
drops one, so it stays a resource option.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.verify import Track
from tests.helpers import failures, lean_filled, lean_text_verdict

PID = "putnam_1962_a1"
NAME = "theorem putnam_1962_a1"
ANSWER = "putnam_2024_a1"

Edit = dict[str, str] | Callable[[str], str]


def _rep(old: str, new: str) -> Callable[[str], str]:
    def edit(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, 1)

    return edit


def _verdict(bench: Benchmark, edit: Edit, pid: str = PID, track: Track = Track.WITH_ANSWER) -> dict[str, str]:
    """The text gates' failures on the challenge of ``pid`` with its holes filled and ``edit`` made (the
    ``lean_filled`` keywords, or a function of the filled text); empty when accepted."""
    fill = {"value": "{1}"} if track is Track.NO_ANSWER else {}  # the official answer of `putnam_2024_a1`
    if callable(edit):
        text = edit(lean_filled(bench, pid, track=track, **fill))
    else:
        text = lean_filled(bench, pid, track=track, **(fill | edit))
    verdict = lean_text_verdict(bench, pid, text, track)
    return {} if verdict.status == "accepted" else failures(verdict) or {"verdict": verdict.status}


# --- the bypass: the prelude's unsafe axioms as proof holes -----------------------------------------

PRELUDE_HOLES: dict[str, Edit] = {
    "lcProof in decreasing_by": {
        "before": "def zz (n : ℕ) : ℕ := zz (n + 1)\ntermination_by n\ndecreasing_by all_goals exact lcProof\n\n"
    },
    "lcProof as the proof": {"proof": "by\n  exact lcProof"},
    "_root_.lcProof in a helper": {"before": "theorem zz : False := _root_.lcProof\n\n"},
    "lcUnreachable": {"before": "theorem zz : False := lcUnreachable\n\n"},
    "lcCast": {"proof": "lcCast (0 : ℕ)"},
    "lcProof in a where clause": {"proof": "zz\nwhere zz : ∀ P : Prop, P := fun _ => lcProof"},
}


@pytest.mark.parametrize("case", sorted(PRELUDE_HOLES))
def test_the_prelude_s_unsafe_axioms_are_refused(lean_putnambench: Benchmark, case: str) -> None:
    found = _verdict(lean_putnambench, PRELUDE_HOLES[case])
    assert "unsafe: escapes the kernel's checks" in found.get("G3", ""), found


def test_a_real_termination_proof_still_passes(lean_putnambench: Benchmark) -> None:
    helper = "def zz (n : ℕ) : ℕ := if h : n = 0 then 0 else zz (n - 1)\ntermination_by n\ndecreasing_by omega\n\n"
    assert _verdict(lean_putnambench, {"before": helper}) == {}


# --- refused: additions that can change the statement, or forbidden constructs ----------------------

ZZ = "structure Zz where\n  a : ℕ\n\n"
INST = "def zzI : Inhabited ℝ := ⟨3⟩\n"
REFUSED: dict[str, Edit] = {
    # options that steer elaboration, however they are placed
    "set_option quotPrecheck in": {"before": "set_option quotPrecheck false in\n"},
    "set_option backward.* in": {"before": "set_option backward.synthInstance.canonInstances false in\n"},
    # `false` leaves the statement as it was (round 35, `_option_values`); `true` stays refused
    "set_option Elab.async in": {"before": "set_option Elab.async true in\n"},
    "set_option allowUnsafeReducibility": {"before": "set_option allowUnsafeReducibility true\n\n"},
    "autoImplicit behind an allowed option": {
        "before": "set_option maxHeartbeats 400000 in\nset_option autoImplicit true in\n"
    },
    "autoImplicit in a section around the theorem": _rep(
        "/--\nGiven", "section\nset_option autoImplicit true\n/--\nGiven"
    ),
    "autoImplicit in a closed namespace": {"before": "namespace Foo\nset_option autoImplicit true\nend Foo\n\n"},
    # name resolution
    "open renaming": {"before": "open Set renaming ncard → card\n\n"},
    "open hiding": {"before": "open Set hiding ncard\n\n"},
    "export": {"before": "export Set (ncard)\n\n"},
    "a _root_ helper from a namespace": {"before": "namespace Foo\n\ndef _root_.convexHull := 1\n\nend Foo\n\n"},
    "the theorem as _root_ inside namespace Set": _rep(NAME, "namespace Set\ntheorem _root_.putnam_1962_a1"),
    "private helper named like a constant": {"before": "private def convexHull := 1\n\n"},
    "protected helper in Set": {"before": "protected def Set.ncard' := 1\n\n"},
    "@[reducible] def in a namespace then open": {
        "before": "namespace Foo\n@[reducible] def convexHull := 1\nend Foo\nopen Foo\n\n"
    },
    "a def in the header's namespace": {"before": "namespace MeasureTheory\ndef Collinear := 1\nend MeasureTheory\n\n"},
    "universe shadowing u_1": {"before": "universe u_1\n\n"},
    # scopes left open at the theorem
    "section with variable and include": _rep(
        "/--\nGiven", "section\nvariable {α : Type} (h : False)\ninclude h\n/--\nGiven"
    ),
    "section with a local instance around the theorem": _rep(
        "/--\nGiven", "section\nattribute [local instance] Classical.propDecidable\n/--\nGiven"
    ),
    "section open at the theorem with an open": _rep("/--\nGiven", "section\nopen Real\n/--\nGiven"),
    "omit ... in": {"before": "omit h in\n"},
    # instances, attributes
    "@[instance] def": {"before": "@[instance] def zz : Inhabited ℕ := ⟨3⟩\n\n"},
    "@[default_instance] instance": {
        "before": "@[default_instance] instance zz : HMul ℕ ℕ ℕ := ⟨fun a b => a + b⟩\n\n"
    },
    "instance (priority := high)": {"before": "instance (priority := high) zz : Inhabited ℕ := ⟨3⟩\n\n"},
    "@[local instance] def": {"before": "@[local instance] def zz : Inhabited ℕ := ⟨3⟩\n\n"},
    "@[scoped instance] def": {"before": "@[scoped instance] def zz : Inhabited ℕ := ⟨3⟩\n\n"},
    "@[simp, instance] def": {"before": "@[simp, instance] def zz : Inhabited ℕ := ⟨3⟩\n\n"},
    "@[csimp]": {"before": "@[csimp] theorem zz : @Nat.add = @Nat.add := rfl\n\n"},
    "@[implemented_by]": {"before": "@[implemented_by Nat.rec] def zz : ℕ := 1\n\n"},
    "@[coe]": {"before": "@[coe] def zz (n : ℕ) : ℝ := n\n\n"},
    "attribute [-simp]": {"before": "attribute [-simp] Nat.add_zero\n\n"},
    "attribute [local instance] at top level": {"before": "attribute [local instance] Classical.propDecidable\n\n"},
    "attribute [irreducible] on a library constant": {"before": "attribute [irreducible] Set.ncard\n\n"},
    "attribute [local simp, instance] in a section": {
        "before": "section\n" + INST + "attribute [local simp, instance] zzI\nend\n\n"
    },
    "attribute [local -instance] in a section": {
        "before": "section\nattribute [local -instance] Real.instInhabited\nend\n\n"
    },
    "attribute [local default_instance] in a section": {
        "before": "section\n" + INST + "attribute [local default_instance] zzI\nend\n\n"
    },
    "attribute [local coe] in a section": {"before": "section\n" + INST + "attribute [local coe] zzI\nend\n\n"},
    "attribute [scoped irreducible] in the header's namespace": {
        "before": "namespace MeasureTheory\nattribute [scoped irreducible] Real.pi\nend MeasureTheory\n\n"
    },
    "unif_hint": {"before": "unif_hint (n : ℕ) where n =?= 1 ⊢ n + 0 =?= 1\n\n"},
    "a coercion path through the candidate's type": {
        "before": ZZ + "instance : Coe ℕ Zz := ⟨fun _ => ⟨0⟩⟩\n\ninstance : Coe Zz ℝ := ⟨fun _ => 0⟩\n\n"
    },
    # syntax and meta-programming
    "scoped notation then open ... in": {"before": 'namespace Foo\nscoped notation "ℝ" => ℕ\nend Foo\nopen Foo in\n'},
    "scoped instance in the header's namespace": {
        "before": "namespace MeasureTheory\nscoped instance : Inhabited ℕ := ⟨3⟩\nend MeasureTheory\n\n"
    },
    "scoped macro in the header's namespace": {
        "before": 'namespace MeasureTheory\nscoped macro "zz" : term => `(1)\nend MeasureTheory\n\n'
    },
    "local macro_rules": {"before": "local macro_rules | `(ℝ) => `(ℕ)\n\n"},
    "syntax then macro_rules": {"before": 'syntax "zz" : term\nmacro_rules | `(zz) => `(1)\n\n'},
    "deriving instance": {"before": "deriving instance Repr for Nat\n\n"},
    "#guard_msgs in": {"before": "#guard_msgs in\n#check 1\n\n"},
    "initialize": {"before": "initialize zz : IO.Ref ℕ ← IO.mkRef 0\n\n"},
    "declare_syntax_cat": {"before": "declare_syntax_cat zz\n\n"},
    "elab_rules": {"before": "elab_rules : term | `(ℝ) => pure (Lean.mkConst ``Nat)\n\n"},
    "unsafe def": {"before": "unsafe def zz : ℕ := 1\n\n"},
    "partial def": {"before": "partial def zz (n : ℕ) : ℕ := zz n\n\n"},
    "opaque": {"before": "opaque zz : ℕ\n\n"},
    # the theorem's own text
    "universe parameters on the theorem": _rep(NAME, NAME + ".{u}"),
    "private theorem": _rep(NAME, "private " + NAME),
    "protected theorem": _rep(NAME, "protected " + NAME),
    "@[simp] theorem": _rep(NAME, "@[simp] " + NAME),
    "a default argument": _rep("(hS : S.ncard = 5)", "(hS : S.ncard = 5 := by decide)"),
    "an autoParam": _rep("(hS : S.ncard = 5)", "(hS : autoParam (S.ncard = 5) _)"),
    # a trailing `... in` the splitter could read as part of a body
    "set_option autoImplicit in, indented after a def": {
        "before": "def zz : ℕ := 1\n  set_option autoImplicit true in\n"
    },
    "set_option maxSize in, after a def on its line": {
        "before": "def zz : ℕ := 1 set_option synthInstance.maxSize 1 in\n"
    },
    "open ... in, indented after a def": {"before": "def zz : ℕ := 1\n  open Real in\n"},
    "set_option in, indented after an example": {"before": "example : ℕ := 1\n  set_option autoImplicit true in\n"},
    "set_option in, indented after a where clause": {
        "before": "def zz : ℕ := y\nwhere y := 1\n  set_option autoImplicit true in\n"
    },
    "set_option in, indented after a tactic proof": {
        "before": "theorem zz : True := by\n  trivial\n  set_option autoImplicit true in\n"
    },
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_an_addition_that_can_change_the_statement_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    found = _verdict(lean_putnambench, REFUSED[case])
    assert "G2" in found or "G3" in found, found


@pytest.mark.parametrize(
    ("pid", "old", "new"),
    [
        ("putnam_1967_b6", "f p.1 p.2", "f p .1 p.2"),
        ("putnam_1968_a5", "(V : Set ℝ[X])", "(V : Set ℝ [X])"),
        ("putnam_1970_a3", "n)[k]!", "n) [k]!"),
        ("putnam_1970_a3", "n)[k]!", "n)[k] !"),
    ],
)
def test_a_space_lean_reads_is_a_changed_statement(lean_putnambench: Benchmark, pid: str, old: str, new: str) -> None:
    """``x.1`` is a projection and ``x .1`` an application; ``a[i]`` indexes and ``a [i]`` applies ``a`` to a
    list; ``n !`` is a factorial, ``n!`` a name."""
    found = _verdict(lean_putnambench, _rep(old, new), pid)
    assert "differs from the challenge" in found.get("G2", ""), found


Q = "0 < n ∧ ∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n"
KEPT = "noncomputable abbrev putnam_2024_a1_solution : Set ℕ := {1}\n"
THEOREM = (
    "/--\nDetermine.\n-/\ntheorem putnam_2024_a1 :\n    {n : ℕ | " + Q + "}\n"
    "      = putnam_2024_a1_solution := by\n  simp\n"
)
"""The with-answer candidate that keeps the challenge's ``abbrev`` with the official answer."""


def _kept(before: str = KEPT, after: str = "") -> Callable[[str], str]:
    return lambda _: "import Mathlib\n\n" + before + THEOREM + after


ANSWER_REFUSED: dict[str, tuple[Track, Edit]] = {
    "with-answer: set_option ... in before the kept abbrev": (
        Track.WITH_ANSWER,
        _kept("set_option maxHeartbeats 400000 in\n" + KEPT),
    ),
    "with-answer: the kept abbrev after the theorem": (Track.WITH_ANSWER, _kept("", "\n" + KEPT)),
    "with-answer: the kept abbrev with universe parameters": (
        Track.WITH_ANSWER,
        _kept(KEPT.replace("solution :", "solution.{u} :")),
    ),
    "no-answer: open ... in before the abbrev": (
        Track.NO_ANSWER,
        _rep("noncomputable abbrev", "open Nat in\nnoncomputable abbrev"),
    ),
    "no-answer: set_option ... in before the abbrev": (
        Track.NO_ANSWER,
        _rep("noncomputable abbrev", "set_option maxHeartbeats 400000 in\nnoncomputable abbrev"),
    ),
    "no-answer: @[irreducible] on the abbrev": (
        Track.NO_ANSWER,
        _rep("noncomputable abbrev", "@[irreducible] noncomputable abbrev"),
    ),
    "no-answer: private abbrev": (Track.NO_ANSWER, _rep("noncomputable abbrev", "private noncomputable abbrev")),
    "no-answer: open ... in trailing the value": (Track.NO_ANSWER, {"value": "{1}\n  open Real in"}),
    "no-answer: set_option pp ... in trailing the value": (
        Track.NO_ANSWER,
        {"value": "{1}\n  set_option pp.all true in"},
    ),
    "no-answer: set_option maxHeartbeats ... in trailing the value": (
        Track.NO_ANSWER,
        {"value": "{1} set_option maxHeartbeats 1000 in"},
    ),
}


@pytest.mark.parametrize("case", sorted(ANSWER_REFUSED))
def test_an_edit_around_the_answer_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    track, edit = ANSWER_REFUSED[case]
    assert "G2" in _verdict(lean_putnambench, edit, ANSWER, track)


# --- accepted: additions that cannot change the statement (published proofs make them) ---------------

VALID: dict[str, Edit] = {
    "set_option pp.all in": {"before": "set_option pp.all true in\n"},
    "set_option maxRecDepth in": {"before": "set_option maxRecDepth 10000 in\n"},
    "a linter option then maxHeartbeats, both in": {
        "before": "set_option linter.unusedVariables false in\nset_option maxHeartbeats 400000 in\n"
    },
    "two allowed options on one line": {"before": "set_option maxHeartbeats 400000 in set_option pp.all true in\n"},
    "a global printing option": {"before": "set_option pp.proofs true\n\n"},
    "a global heartbeat option": {"before": "set_option maxHeartbeats 400000\n\n"},
    "#check, then set_option ... in": {"before": "#check (1 : ℕ)\nset_option maxHeartbeats 400000 in\n"},
    "@[simp] lemma": {"before": "@[simp] lemma zz : (1:ℕ) = 1 := rfl\n\n"},
    "@[reducible] def": {"before": "@[reducible] def zz : ℕ := 1\n\n"},
    "@[local irreducible] def": {"before": "@[local irreducible] def zz := 1\n\n"},
    "noncomputable section left open": {"before": "noncomputable section\n\n"},
    "noncomputable section closed": {"before": "noncomputable section\ndef zz : ℝ := 1\nend\n\n"},
    "noncomputable section around the theorem": _rep("/--\nGiven", "noncomputable section\n/--\nGiven"),
    "a section around the theorem with a helper and a printing option": _rep(
        "/--\nGiven", "section\nset_option pp.all true\ndef zz := 1\n/--\nGiven"
    ),
    "mutual helpers": {
        "before": "mutual\ndef zza : ℕ → ℕ | 0 => 0 | n+1 => zzb n\ndef zzb : ℕ → ℕ | 0 => 0 | n+1 => zza n\nend\n\n"
    },
    "a closed section with variable, include, omit": {
        "before": "section\nvariable {x : ℕ} (h : x = 1)\ninclude h\ntheorem zz : x = 1 := h\n"
        "omit h in\ntheorem zz2 : True := trivial\nend\n\n"
    },
    "a closed section with open": {"before": "section\nopen Real\nend\n\n"},
    "nested sections, the variable in the inner": _rep(
        "/--\nGiven", "section A\nsection B\nvariable (x : ℕ)\nend B\n/--\nGiven"
    ),
    "a closed dotted namespace with a variable": {"before": "namespace A.B\nvariable (x : ℕ)\nend A.B\n\n"},
    "local attributes in a closed section": {
        "before": "section\n"
        + INST
        + "attribute [local instance 2000] zzI\nattribute [local simp] Nat.add_comm\nend\n\n"
    },
    "local irreducible in the header's namespace, closed": {
        "before": "namespace MeasureTheory\nattribute [local irreducible] Real.pi\nend MeasureTheory\n\n"
    },
    "a structure deriving": {"before": ZZ.rstrip("\n") + "\nderiving Repr, DecidableEq\n\n"},
    "an inductive deriving Fintype": {"before": "inductive Zz | a | b\nderiving Fintype\n\n"},
    "a structure extending a class, with an instance field": {
        "before": "structure Zz extends Inhabited ℕ where\n  [inst : Inhabited ℕ]\n  a : ℕ := by exact 1\n\n"
    },
    "a def with an instance binder": {"before": "def zz [inst : Inhabited ℕ] : ℕ := default\n\n"},
    "a theorem with where": {"before": "theorem zz : (1:ℕ) = 1 := h\nwhere h : (1:ℕ) = 1 := rfl\n\n"},
    "an example": {"before": "example : (1:ℕ) = 1 := rfl\n\n"},
    "#print axioms": {"before": "#print axioms Nat.add\n\n"},
    "a helper with set_option autoImplicit in its proof": {
        "before": "theorem zz : True := by\n  set_option autoImplicit true in trivial\n\n"
    },
    "after the theorem: local notation": {"after": 'local notation "zz" => 1\n'},
    "after the theorem: open": {"after": "open Real\n"},
    "after the theorem: a section never closed": {"after": "section\nvariable (x : ℕ)\n"},
    "set_option maxRecDepth in a tactic proof": {"proof": "by\n  set_option maxRecDepth 10000 in\n  exact?"},
}


@pytest.mark.parametrize("case", sorted(VALID))
def test_a_harmless_addition_is_accepted(lean_putnambench: Benchmark, case: str) -> None:
    assert _verdict(lean_putnambench, VALID[case]) == {}


ANSWER_VALID: dict[str, tuple[Track, Edit]] = {
    "with-answer: the kept abbrev": (Track.WITH_ANSWER, _kept()),
    "with-answer: the kept abbrev in a closed section": (Track.WITH_ANSWER, _kept("section\n" + KEPT + "end\n")),
    "with-answer: a helper between the kept abbrev and the theorem": (Track.WITH_ANSWER, _kept(KEPT + "def zz := 1\n")),
    "no-answer: a closed section before the abbrev": (
        Track.NO_ANSWER,
        _rep("noncomputable abbrev", "section\nend\nnoncomputable abbrev"),
    ),
    "no-answer: noncomputable section before the abbrev": (
        Track.NO_ANSWER,
        _rep("noncomputable abbrev", "noncomputable section\nnoncomputable abbrev"),
    ),
    "no-answer: a helper before the abbrev, not used by the value": (
        Track.NO_ANSWER,
        _rep("noncomputable abbrev", "def zz : Set ℕ := {1}\nnoncomputable abbrev"),
    ),
}


@pytest.mark.parametrize("case", sorted(ANSWER_VALID))
def test_a_harmless_addition_around_the_answer_is_accepted(lean_putnambench: Benchmark, case: str) -> None:
    track, edit = ANSWER_VALID[case]
    assert _verdict(lean_putnambench, edit, ANSWER, track) == {}


def test_scoped_at_column_0_begins_a_command(lean_putnambench: Benchmark) -> None:
    """Mathlib's ``scoped[NS] cmd`` (and ``scoped notation``...) at column 0 is a command of its own, not more
    of the header's ``open MeasureTheory`` before it."""
    found = _verdict(lean_putnambench, {"before": "scoped[Real] attribute [simp] Nat.add_comm\n\n"})
    assert "`scoped [ Real ] attribute [ simp ] Nat.add_comm`: not a permitted addition" in found.get("G2", ""), found
    assert "open MeasureTheory scoped" not in found.get("G2", ""), found


# --- the bypass: core commands the splitter did not know, read as more of a helper's body ------------

UNKNOWN_COMMANDS: dict[str, str] = {
    "builtin_simproc": "builtin_simproc [simp] zzs (Nat.succ _) := fun _ => return .continue",
    "builtin_dsimproc": "builtin_dsimproc [simp] zzs (Nat.succ _) := fun _ => return .continue",
    "grind_propagator": "grind_propagator ↓ zzs (Nat) := fun _ => pure ()",
    "builtin_grind_propagator": "builtin_grind_propagator zzs ↓Nat := fun _ => pure ()",
    "cbv_simproc_decl": "cbv_simproc_decl zzs (Nat.succ _) := fun _ => return .continue",
    "elab_stx_quot": "elab_stx_quot Zz",
    "set_premise_selector": "set_premise_selector fun _ _ => pure #[]",
    "reset_grind_attrs%": "reset_grind_attrs%",
    "init_grind_norm": "init_grind_norm",
    "register_try?_tactic": "register_try?_tactic (priority := 100) trivial",
    "aux_def": "aux_def zz2 : ℕ := 1",
    "register_hint": "register_hint simp",
}
"""Lean commands at column 0 after a helper (``def zz := 1``): each begins a command of its own (the term
before it is complete, and a command keyword cannot continue it), which the splitter read as more of
``zz``'s body, so the text profile accepted them; the simplification and ``grind`` procedures are code
that ``simp`` and ``grind`` run (src/Init/Simproc.lean, src/Init/CbvSimproc.lean, src/Init/Grind)."""


@pytest.mark.parametrize("case", sorted(UNKNOWN_COMMANDS))
def test_a_core_command_after_a_helper_is_a_command(lean_putnambench: Benchmark, case: str) -> None:
    found = _verdict(lean_putnambench, {"before": "def zz := 1\n" + UNKNOWN_COMMANDS[case] + "\n\n"})
    assert "not a permitted addition" in found.get("G2", ""), found

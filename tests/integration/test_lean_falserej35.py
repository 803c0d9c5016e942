"""False rejections of honest Lean proofs by G2 and G3, round 35, and the near-twins that stay refused.

* ``set_option Elab.async false in`` (or ``autoImplicit false in``...) before the theorem: Lean expands ``c in
  d`` to ``section c d end``, so the theorem elaborates under the options the accepted global setting gives
  it (``_option_values.strict_group``); ``true``, or another option, before the theorem stays refused.
* ``set_option synthInstance.maxSize 128`` (Aristotle's header): Lean's default restated where nothing else
  set the option; another value is still left to G6 (it can change which instance the statement gets).
* ``| private mk`` (or another modifier) in an ``inductive``: ``ctor`` reads ``declModifiers`` after the ``|``
  (``_members``); a modifier that no ``|`` precedes still begins a command.
* A class field whose own signature takes an instance binder (``f [Inhabited α] (a : α) : α``): its projection
  is no instance (checked below); a ``[inst : C α]`` field of a class stays refused.
* A documented field with bare binder names (``/-- d -/ f n : Fin (n + 1)``) or an anonymous instance binder
  (``f {α : Type} [Inhabited α] : α``): a field is a name, binders, then ``:``, each bare binder named again
  in its signature, since Lean cannot infer its type otherwise (checked below on the toy Lean), so
  ``/-- d -/ zz_library_command zz : True`` stays a command (``test_lean_redteam34``).

``PUBLISHED`` holds honest files in the shapes DeepSeek-Prover-V2, Kimina, Goedel-Prover-V2, Seed-Prover and
Aristotle write, on both tracks: each passes G1-G3 on a profile that runs G6, and on the text profile too
unless it only defers an elaboration-only addition to G6 (a global ``open``, a helper in a namespace the
library may have, an instance). Measured on the 69: before this round the text gates of an acceptance that
runs G6 refused 11 and the text profile 20; now none and 9 (all deferred to G6). Left refused, as Lean
refuses them: tabs and a byte-order mark (the toy Lean 4.35: "expected token" at a leading U+FEFF).

One case of each class runs in CI; the others are slow.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._helpers import ELABORATION_MARK
from putnam_solver.core.provers.lean._option_values import strict_violations
from putnam_solver.core.provers.lean.syntax import commands_of, parse_statement
from putnam_solver.core.submission import VerifyOptions
from putnam_solver.core.verdict import Profile
from putnam_solver.core.verify import Track, run_gates
from tests.adversarial.test_lean_falserej29 import assert_verdict, honest_and_refused
from tests.adversarial.test_lean_redteam22_g2g3 import Edit, _verdict
from tests.adversarial.test_scoped_additions import _toy_run
from tests.helpers import LEAN_PROVER, failures, lean_filled, sampled
from tests.integration.test_lean_falserej34 import _header as header
from tests.toylean.build import ToyLean

A1 = "putnam_1962_a1"
B = "putnam_2024_a1"
W, N = Track.WITH_ANSWER, Track.NO_ANSWER
ARISTOTLE = header(
    "set_option linter.mathlibStandardSet false",
    "open scoped BigOperators",
    "open scoped Real",
    "open scoped Nat",
    "open scoped Classical",
    "open scoped Pointwise",
    "set_option maxHeartbeats 400000",
    "set_option maxRecDepth 4000",
    "set_option synthInstance.maxHeartbeats 20000",
    "set_option synthInstance.maxSize 128",
    "set_option relaxedAutoImplicit false",
    "set_option autoImplicit false",
)

PUBLISHED: dict[str, tuple[str, Track, Edit]] = {
    # name: (problem, track, edit), in the shapes published provers' files take
    "deepseek lemma helper": (A1, W, {"before": "lemma zz_aux (a b : ℕ) : a + b = b + a := by\n  omega\n\n"}),
    "simp lemma": (A1, W, {"before": "@[simp] lemma zz_aux (a : ℕ) : a + 0 = a := by simp\n\n"}),
    "private lemma": (A1, W, {"before": "private lemma zz_aux (a : ℕ) : a + 0 = a := rfl\n\n"}),
    "protected theorem dotted": (
        A1,
        W,
        {"before": "protected theorem Putnam1962A1.zz_aux (a : ℕ) : a + 0 = a := rfl\n\n"},
    ),
    "theorem foo.bar": (A1, W, {"before": "theorem zz_ns.zz_aux (a : ℕ) : a + 0 = a := rfl\n\n"}),
    "open Finset in lemma": (
        A1,
        W,
        {"before": "open Finset in\nlemma zz_aux (n : ℕ) : (range n).card = n := card_range n\n\n"},
    ),
    "open scoped BigOperators header": (A1, W, header("open scoped BigOperators")),
    "namespace section variable": (
        A1,
        W,
        {
            "before": "namespace Putnam1962A1\nsection\nvariable (a : ℕ)\nlemma zz_aux : a + 0 = a := rfl\nend\n"
            "end Putnam1962A1\n\n"
        },
    ),
    "noncomputable def": (A1, W, {"before": "noncomputable def zz_f (x : ℝ) : ℝ := Real.sqrt x\n\n"}),
    "haveI Fact": (A1, W, {"proof": "by\n  haveI : Fact (1 < 2) := ⟨by norm_num⟩\n  simp"}),
    "termination_by": (
        A1,
        W,
        {
            "before": "def zz_f : ℕ → ℕ\n  | 0 => 0\n  | n + 1 => zz_f n + 1\ntermination_by n => n\n"
            "decreasing_by simp_wf; omega\n\n"
        },
    ),
    "mutual": (
        A1,
        W,
        {
            "before": "mutual\ndef zz_even : ℕ → Bool\n  | 0 => true\n  | n + 1 => zz_odd n\n"
            "def zz_odd : ℕ → Bool\n  | 0 => false\n  | n + 1 => zz_even n\nend\n\n"
        },
    ),
    "where clause": (A1, W, {"proof": "by\n  exact zz_aux\nwhere\n  zz_aux : True := trivial"}),
    "calc block": (
        A1,
        W,
        {
            "before": "lemma zz_aux (a b : ℕ) (h : a = b) : a + 1 = b + 1 := by\n"
            "  calc a + 1 = b + 1 := by rw [h]\n    _ = b + 1 := rfl\n\n"
        },
    ),
    "maxHeartbeats in": (A1, W, {"before": "set_option maxHeartbeats 400000 in\n"}),
    "maxRecDepth global": (A1, W, header("set_option maxRecDepth 10000")),
    "#check and #print axioms": (
        A1,
        W,
        {"before": "#check Nat.add_comm\n\n", "after": "\n#print axioms putnam_1962_a1\n"},
    ),
    "example block": (A1, W, {"before": "example : (2 : ℕ) + 2 = 4 := by norm_num\n\n"}),
    "unicode binders": (
        A1,
        W,
        {"before": "lemma zz_aux : ∀ ε > (0:ℝ), ∃ δ > 0, δ < ε := fun ε hε => ⟨ε / 2, by positivity, by linarith⟩\n\n"},
    ),
    "crlf": (A1, W, lambda t: t.replace("\n", "\r\n")),
    "aristotle header": (A1, W, ARISTOTLE),
    "aristotle header no-answer": (B, N, ARISTOTLE),
    "Elab.async false in": (A1, W, {"before": "set_option Elab.async false in\n"}),
    "Elab.async false in no-answer": (B, N, {"before": "set_option Elab.async false in\n"}),
    "inductive private ctor": (A1, W, {"before": "inductive ZzT where\n  | private mk : ZzT\n  | b : ZzT\n\n"}),
    "inductive protected ctor": (A1, W, {"before": "inductive ZzT where\n  | protected mk : ℕ → ZzT\n\n"}),
    "inductive doc ctor": (A1, W, {"before": "inductive ZzT where\n  /-- d -/\n  | a : ZzT\n  | b : ZzT\n\n"}),
    "structure doc bare binder": (A1, W, {"before": "structure ZzS where\n  /-- d -/\n  f n : Fin (n + 1)\n\n"}),
    "structure doc bare binder used by a binder": (
        A1,
        W,
        {"before": "structure ZzS where\n  /-- d -/\n  g n (i : Fin n) : ℕ\n  h : ℕ\n\n"},
    ),
    "structure doc inst binder": (
        A1,
        W,
        {"before": "structure ZzS (α : Type) where\n  /-- d -/\n  [inst : Inhabited α]\n  x : α\n\n"},
    ),
    "structure doc anonymous inst binder": (
        A1,
        W,
        {"before": "structure ZzS where\n  /-- d -/\n  f {α : Type} [Inhabited α] : α\n\n"},
    ),
    "class doc anonymous inst binder in a field": (
        A1,
        W,
        {"before": "class ZzC (α : Type) where\n  /-- d -/\n  f [Inhabited α] (a : α) : α\n\n"},
    ),
    "structure doc implicit": (A1, W, {"before": "structure ZzS where\n  /-- d -/\n  {n : ℕ}\n  x : Fin (n + 1)\n\n"}),
    "structure doc explicit binder": (
        A1,
        W,
        {"before": "structure ZzS where\n  /-- d -/\n  (n : ℕ)\n  x : Fin (n + 1)\n\n"},
    ),
    "structure doc field with binders": (
        A1,
        W,
        {"before": "structure ZzS where\n  /-- d -/\n  f (x : ℕ) : ℕ\n  /-- e -/\n  g : ℕ := 3\n\n"},
    ),
    "structure doc simple field with default": (A1, W, {"before": "structure ZzS where\n  /-- d -/\n  g := 3\n\n"}),
    "structure doc private bare binder": (
        A1,
        W,
        {"before": "structure ZzS where\n  /-- d -/\n  private f n m : Fin (n + m + 1)\n\n"},
    ),
    "kimina theorem style": (
        B,
        W,
        {
            "proof": "by\n  ext n\n  simp only [Set.mem_setOf_eq, Set.mem_singleton_iff]\n"
            "  constructor <;> intro h <;> omega"
        },
    ),
    "goedel have chain": (
        B,
        N,
        {"proof": "by\n  have h₁ : (1 : ℕ) = 1 := rfl\n  have h₂ : True := by\n    trivial\n  nlinarith [h₁]"},
    ),
    "seed nested section open": (
        B,
        N,
        {"before": "section Aux\nopen Finset\nlemma zz_aux (n : ℕ) : (range n).card = n := card_range n\nend Aux\n\n"},
    ),
    "set_option maxHeartbeats in proof": (B, W, {"proof": "by\n  set_option maxHeartbeats 400000 in\n  simp"}),
    "trailing print axioms no-answer": (B, N, {"after": "\n#print axioms putnam_2024_a1\n"}),
    "instance local in proof": (B, W, {"proof": "by\n  letI : Inhabited ℕ := ⟨0⟩\n  simp"}),
    "noncomputable section": (A1, W, {"before": "noncomputable section\ndef zz_f (x : ℝ) : ℝ := x / 2\nend\n\n"}),
    "abbrev helper": (A1, W, {"before": "abbrev zz_f (n : ℕ) : ℕ := n + 1\n\n"}),
    "instance helper type": (
        A1,
        W,
        {"before": "structure ZzS where\n  x : ℕ\n\ninstance : Inhabited ZzS := ⟨⟨0⟩⟩\n\n"},
    ),
    "doc on helper": (A1, W, {"before": "/-- The helper. -/\ntheorem zz_aux : True := trivial\n\n"}),
    "module doc": (A1, W, {"before": "/-! ## Helpers -/\n\ntheorem zz_aux : True := trivial\n\n"}),
    "lemma with attribute local simp after": (
        A1,
        W,
        {"after": "\nattribute [local simp] Nat.add_comm in\ntheorem zz_aux (a b : ℕ) : a + b = b + a := by simp\n"},
    ),
    "inductive deriving": (A1, W, {"before": "inductive ZzC where\n  | r | g\n  deriving DecidableEq, Repr\n\n"}),
    "synthInstance.maxSize 128 alone": (A1, W, header("set_option synthInstance.maxSize 128")),
    "autoImplicit false in": (A1, W, {"before": "set_option autoImplicit false in\n"}),
    "match helper def": (
        A1,
        W,
        {"before": "def zz_f (n : ℕ) : ℕ :=\n  match n with\n  | 0 => 1\n  | k + 1 => 2 * zz_f k\n\n"},
    ),
    "inductive private ctor with docs": (
        A1,
        W,
        {
            "before": "inductive ZzT where\n  /-- a -/\n  | private a : ZzT\n  /-- b -/\n"
            "  | protected b (n : ℕ) : ZzT\n\n"
        },
    ),
    "structure private field": (
        A1,
        W,
        {"before": "structure ZzS where\n  /-- d -/\n  private x : ℕ\n  protected y : ℕ\n\n"},
    ),
    "deepseek header": (
        A1,
        W,
        header("import Aesop", "", "set_option maxHeartbeats 400000", "", "open BigOperators Real Nat Topology Rat"),
    ),
    "deepseek header no-answer": (
        B,
        N,
        header("import Aesop", "", "set_option maxHeartbeats 400000", "", "open BigOperators Real Nat Topology Rat"),
    ),
    "linter off in": (A1, W, {"before": "set_option linter.unusedVariables false in\n"}),
    "open Classical in helper": (
        A1,
        W,
        {"before": "open Classical in\nnoncomputable def zz_f (p : Prop) : Bool := if p then true else false\n\n"},
    ),
    "namespace theorem name": (
        A1,
        W,
        {"before": "namespace putnam_1962_a1\ntheorem zz_aux : True := trivial\nend putnam_1962_a1\n\n"},
    ),
    "section variable typeclass": (
        A1,
        W,
        {
            "before": "section\nvariable {α : Type*} [Fintype α]\n"
            "lemma zz_aux : Fintype.card α = Fintype.card α := rfl\nend\n\n"
        },
    ),
    "let rec in proof": (B, W, {"proof": "by\n  let rec zz : ℕ → ℕ\n    | 0 => 0\n    | n + 1 => zz n\n  simp"}),
    "private def where termination": (
        A1,
        W,
        {
            "before": "private def zz_f (n : ℕ) : ℕ := go n 0\nwhere\n  go : ℕ → ℕ → ℕ\n"
            "    | 0, acc => acc\n    | k + 1, acc => go k (acc + 1)\n\n"
        },
    ),
    "mutual theorems": (
        A1,
        W,
        {"before": "mutual\ntheorem zz_a : ∀ n : ℕ, n = n\n  | _ => rfl\ntheorem zz_b : True := trivial\nend\n\n"},
    ),
    "omit in lemma": (
        A1,
        W,
        {
            "before": "section\nvariable {α : Type} [DecidableEq α]\nomit [DecidableEq α] in\n"
            "lemma zz_aux (a : α) : a = a := rfl\nend\n\n"
        },
    ),
    "no doc theorem": (A1, W, lambda t: t[: t.index("/--")] + t[t.index("-/\n") + 3 :]),
    "gauss theorem after with print": (
        B,
        N,
        {"after": "\n#print axioms putnam_2024_a1\n#check putnam_2024_a1_solution\n"},
    ),
    "set_option in open in theorem": (A1, W, {"before": "set_option maxHeartbeats 400000 in\nopen Finset in\n"}),
    "decreasing_by helper": (
        A1,
        W,
        {"before": "def zz_g (n : ℕ) : ℕ :=\n  if h : n ≤ 1 then n else zz_g (n / 2)\ndecreasing_by omega\n\n"},
    ),
}


TEXT_DEFERS = {
    "theorem foo.bar",
    "open scoped BigOperators header",
    "aristotle header",
    "aristotle header no-answer",
    "instance helper type",
    "deepseek header",
    "deepseek header no-answer",
    "namespace theorem name",
    "set_option in open in theorem",
}
"""The cases the text profile leaves to G6: each adds what acts only through elaboration."""

VALID: dict[str, dict[str, Edit]] = {
    "strict settings before the theorem": {
        "Elab.async false": {"before": "set_option Elab.async false in\n"},
        "autoImplicit false": {"before": "set_option autoImplicit false in\n"},
        "after an allowed option": {"before": "set_option maxHeartbeats 400000 in\nset_option Elab.async false in\n"},
        "before a helper": {"before": "set_option Elab.async false in\ntheorem zz_h : True := trivial\n\n"},
    },
    "Lean's default instance size": {
        "global": header("set_option synthInstance.maxSize 128"),
        "before the theorem": {"before": "set_option synthInstance.maxSize 128 in\n"},
    },
    "constructor modifiers": {
        "private": {"before": "inductive ZzT where\n  | private a : ZzT\n  | b : ZzT\n\n"},
        "documented, with attributes": {
            "before": "inductive ZzT where\n  /-- a -/\n  | @[simp] protected a (n : ℕ) : ZzT\n  | private b : ZzT\n\n"
        },
    },
    "field signatures": {
        "a bare binder": {"before": "structure ZzS where\n  /-- d -/\n  f n : Fin (n + 1)\n\n"},
        "an anonymous instance binder": {
            "before": "structure ZzS where\n  /-- d -/\n  f {α : Type} [Inhabited α] : α\n\n"
        },
        "a bare binder a later binder names": {
            "before": "structure ZzS where\n  /-- d -/\n  protected g n (i : Fin n) : ℕ\n  h : ℕ\n\n"
        },
        "binders and a default": {"before": "structure ZzS where\n  /-- d -/\n  f (n : ℕ) := n + 1\n\n"},
        "an instance binder of a class's field": {
            "before": "class ZzC (α : Type) where\n  /-- d -/\n  f [Inhabited α] (a : α) : α\n\n"
        },
    },
}
REFUSED: dict[str, dict[str, tuple[Edit, str, str]]] = {
    # class: case: (edit, gate, the words of its refusal)
    "strict settings before the theorem": {
        "Elab.async true": ({"before": "set_option Elab.async true in\n"}, "G2", "option not allowed"),
        "autoImplicit true": ({"before": "set_option autoImplicit true in\n"}, "G2", "option not allowed"),
        "Elab.async false in the proof": (
            {"proof": "by\n  set_option Elab.async false in\n  simp"},
            "G3",
            "set_option Elab.async",
        ),
    },
    "Lean's default instance size": {
        "another value": (header("set_option synthInstance.maxSize 1"), "G2", ELABORATION_MARK),
        "another value before the theorem": (
            {"before": "set_option synthInstance.maxSize 1 in\n"},
            "G2",
            "option not allowed",
        ),
    },
    "constructor modifiers": {
        "a modifier no bar precedes": (
            {"before": "inductive ZzT where\n  | a : ZzT\n  private zz_library_command zz : True\n\n"},
            "G2",
            "starts a new command",
        ),
        "a modifier before a command word": (
            {"before": "inductive ZzT where\n  | private theorem zz : False\n\n"},
            "G2",
            "starts a new command",
        ),
    },
    "field signatures": {
        "a bare binder its type never names": (
            {"before": "structure ZzS where\n  x : ℕ\n  /-- d -/ zz_library_command zz : True\n\n"},
            "G2",
            "not a permitted addition",
        ),
        "a bare binder and a default alone": (
            {"before": "structure ZzS where\n  x : ℕ\n  /-- d -/ zz_library_command zz := zz\n\n"},
            "G2",
            "not a permitted addition",
        ),
        "a class's instance field": (
            {"before": "class ZzC (α : Type) where\n  x : α\n  /-- d -/\n  [inst : Inhabited α]\n\n"},
            "G2",
            "a class's parents become instances",
        ),
        "a class's instance field after a field's type": (
            {"before": "class ZzC (α : Type) where\n  x : α [inst : Inhabited α]\n\n"},
            "G2",
            "a class's parents become instances",
        ),
        "an anonymous bare binder": (
            {"before": "structure ZzS where\n  x : ℕ\n  /-- d -/ zz_library_command _ : True\n\n"},
            "G2",
            "not a permitted addition",
        ),
    },
}


@pytest.mark.parametrize(("edit", "gate", "word"), honest_and_refused(VALID, REFUSED))
def test_honest_proofs_pass_and_their_twins_stay_refused(
    lean_putnambench: Benchmark, edit: Edit, gate: str, word: str
) -> None:
    assert_verdict(lean_putnambench, edit, gate, word)


def _published(bench: Benchmark, name: str, profile: Profile | None) -> dict[str, str]:
    pid, track, edit = PUBLISHED[name]
    fill = {"value": "{1}"} if track is Track.NO_ANSWER else {}
    filled = lean_filled(bench, pid, track=track, **fill)
    text = edit(filled) if callable(edit) else lean_filled(bench, pid, track=track, **(fill | edit))
    options = VerifyOptions(profile=Profile.TEXT, acceptance=profile)
    verdict = run_gates(LEAN_PROVER, bench, bench.problems[pid], text.encode("utf-8"), track, options)
    return failures(verdict)


@pytest.mark.parametrize("name", sampled({n: n for n in PUBLISHED}, {"aristotle header no-answer", "crlf"}))
def test_published_shapes_pass_g1_to_g3(lean_putnambench: Benchmark, name: str) -> None:
    """Accepted by the text gates of an acceptance that runs G6; on the text profile too, or left to G6."""
    assert _published(lean_putnambench, name, Profile.FULL) == {}
    found = _published(lean_putnambench, name, None)
    if name in TEXT_DEFERS:
        assert found.keys() == {"G2"} and all(ELABORATION_MARK in line for line in found["G2"].splitlines()), found
    else:
        assert found == {}, found


def test_lean_infers_a_field_s_bare_binder_only_from_its_uses(toy_lean: ToyLean, tmp_path: Path) -> None:
    """The premise, on Lean 4.35: ``f n : Eq n Nat.zero`` is a field; ``f x : Nat`` is refused, since no use
    of ``x`` tells its type."""
    for field, ok in (("f n : Eq n Nat.zero", True), ("f x : Nat", False)):
        (tmp_path / "Zz.lean").write_text(f"structure ZzS where\n  /-- d -/\n  {field}\n", encoding="utf-8")
        run = _toy_run(toy_lean, tmp_path, "Zz.lean")
        assert (run.returncode == 0) is ok, run.stdout + run.stderr
        assert ok or "Failed to infer type of binder" in run.stdout, run.stdout


def test_autoimplicit_false_in_front_of_the_theorem_is_left_to_g6_where_the_benchmark_leaves_it_on(
    minif2f: Benchmark,
) -> None:
    """As the global setting (``test_lean_falserej34``): miniF2F keeps ``autoImplicit`` on, so ``false`` at the
    theorem can change how it elaborates; ``Elab.async false in`` passes there too."""
    found = _verdict(minif2f, {"before": "set_option autoImplicit false in\n"}, pid="aimeII_2001_p3")
    assert ELABORATION_MARK in found.get("G2", "") and "G3" not in found, found
    assert _verdict(minif2f, {"before": "set_option Elab.async false in\n"}, pid="aimeII_2001_p3") == {}


@pytest.mark.parametrize(
    ("setting", "project", "deferred"),
    [
        ("", frozenset(), False),
        ("", frozenset({"synthInstance.maxSize"}), True),
        ("set_option synthInstance.maxSize 256\n\n", frozenset(), True),
    ],
)
def test_lean_s_default_instance_size_is_left_to_g6_where_something_else_sets_it(
    setting: str, project: frozenset[str], deferred: bool
) -> None:
    """Restating ``128`` undoes the benchmark's ``leanOptions`` or the challenge's own setting, so G6 decides
    there (and only a profile that runs it accepts); elsewhere it changes nothing."""
    expected = parse_statement(f"import Mathlib\n\n{setting}theorem zz : True := sorry\n")
    (command,) = commands_of("set_option synthInstance.maxSize 128\n")
    found = strict_violations(command.tokens[1], replace(expected, project_options=project), semantic=False)
    assert bool(found) is deferred and all(ELABORATION_MARK in v.rule for v in found), found
    assert strict_violations(command.tokens[1], replace(expected, project_options=project), semantic=True) == []


CLASS_WITH_A_BINDER = (
    "class ZzD (α : Type) where\n  d : Bool\n\nclass ZzE (α : Type) where\n  e : Bool\n\n"
    "class ZzC (α : Type) where\n  f [ZzD α] : ZzE α\n\n"
    "instance zzD : ZzD Nat := ⟨Bool.true⟩\n\ninstance zzC : ZzC Nat := ⟨⟨Bool.true⟩⟩\n\n{}"
    "def zzFind (α : Type) [i : ZzE α] : Bool := i.e\n\ndef zz : Bool := zzFind Nat\n"
)


@pytest.mark.parametrize(("extra", "found"), [("", False), ("instance zzE : ZzE Nat := ⟨Bool.true⟩\n\n", True)])
def test_a_class_field_s_own_instance_binder_declares_no_instance(
    toy_lean: ToyLean, tmp_path: Path, extra: str, found: bool
) -> None:
    """The premise, on Lean 4.35: with instances of ``ZzC Nat`` and ``ZzD Nat``, ``ZzC.f : [ZzC α] → [ZzD α] →
    ZzE α`` serves no search for ``ZzE Nat``; an ``instance`` of it does."""
    (tmp_path / "Zz.lean").write_text(CLASS_WITH_A_BINDER.format(extra), encoding="utf-8")
    run = _toy_run(toy_lean, tmp_path, "Zz.lean")
    assert (run.returncode == 0) is found, run.stdout + run.stderr
    assert found or "failed to synthesize" in run.stdout, run.stdout

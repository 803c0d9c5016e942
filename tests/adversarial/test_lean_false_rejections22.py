"""False rejections found by red team 22 in the Lean text gates (G2 and G3), on ``putnam_1962_a1``.

* Options that change only what Lean prints were refused around the theorem: ``trace.<class>``,
  ``diagnostics``, ``diagnostics.threshold``, ``profiler``, ``profiler.threshold``, ``grind.warning``
  (``_policy._OUTPUT_OPTIONS`` cites where Lean registers each). ``trace.profiler.output`` names a file
  Lean writes and debugging classes (a ``debug`` part) run extra code, so they stay refused; so do options
  that steer elaboration or disable checks.
* ``local instance`` inside a ``section`` or ``namespace`` closed before the theorem was refused while
  ``attribute [local instance] x`` there was accepted: the same local attribute, ended by the same ``end``.
* ``universe u`` inside a block closed before the theorem: Lean's ``universe`` adds to the scope's level
  names, which ``end`` pops. One in scope at the theorem stays left to G6.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean.checks import check_preservation
from putnam_solver.core.verify import Track
from tests.adversarial.test_lean_redteam22_g2g3 import Edit, _rep, _verdict
from tests.adversarial.test_scoped_additions import _toy_run
from tests.helpers import LEAN_PROVER, lean_filled
from tests.toylean.build import ToyLean

PID = "putnam_1962_a1"
"""The problem ``_verdict`` judges: its statement is read after ``open MeasureTheory``."""

AROUND = "/--\nGiven"
"""The start of the theorem's docstring: text put before it stands in the theorem's scope."""

VALID: dict[str, Edit] = {
    # output-only options, before the theorem, global or `in`
    "trace.Meta.synthInstance in": {"before": "set_option trace.Meta.synthInstance true in\n"},
    "trace.profiler in": {"before": "set_option trace.profiler true in\n"},
    "trace.aesop false in": {"before": "set_option trace.aesop false in\n"},
    "diagnostics in": {"before": "set_option diagnostics true in\n"},
    "diagnostics.threshold in": {"before": "set_option diagnostics.threshold 5 in\n"},
    "profiler in": {"before": "set_option profiler true in\n"},
    "profiler.threshold global": {"before": "set_option profiler.threshold 10\n\n"},
    "grind.warning false in": {"before": "set_option grind.warning false in\n"},
    "grind.warning global": {"before": "set_option grind.warning false\n\n"},
    "diagnostics global": {"before": "set_option diagnostics true\n\n"},
    "stacked output options": {
        "before": "set_option maxHeartbeats 400000 in\nset_option trace.Meta.Tactic.simp true in\n"
        "set_option diagnostics true in\n"
    },
    "trace option in a section around the theorem": _rep(AROUND, "section\nset_option trace.Elab.step true\n" + AROUND),
    "trace option inside the proof": {
        "proof": "by\n  set_option trace.Meta.Tactic.simp true in\n  simp [foo] <;> linarith"
    },
    "trace option before a helper": {
        "before": "set_option trace.Meta.Tactic.simp true in\ntheorem zz : True := trivial\n\n"
    },
    # local instance in a block closed before the theorem
    "local instance in a closed section": {
        "before": "section\nlocal instance zzI : Inhabited ℝ := ⟨3⟩\ntheorem zz : (default : ℝ) = 3 := rfl\nend\n\n"
    },
    "anonymous local instance in a closed section": {"before": "section\nlocal instance : Inhabited ℝ := ⟨3⟩\nend\n\n"},
    "local instance with priority in a closed namespace": {
        "before": "namespace Putnam1962A1\nlocal instance (priority := high) zzI : Inhabited ℝ := ⟨3⟩\n"
        "end Putnam1962A1\n\n"
    },
    "local instance in a closed section, with @[simp]": {
        "before": "section\n@[simp] local instance zzI : Inhabited ℝ := ⟨3⟩\nend\n\n"
    },
    "local instance after the theorem": {"after": "\n\nlocal instance zzI : Inhabited ℝ := ⟨3⟩\n"},
    # universe in a block closed before the theorem
    "universe in a closed section": {"before": "section\nuniverse u\ndef zz (α : Sort u) : Sort u := α\nend\n\n"},
    "universe in a closed namespace": {
        "before": "namespace Putnam1962A1\nuniverse u v\ndef zz (α : Sort u) (β : Sort v) : Prop := True\n"
        "end Putnam1962A1\n\n"
    },
    "universe in a nested closed section": _rep(
        AROUND, "section A\nsection B\nuniverse u_1\nend B\nend A\n\n" + AROUND
    ),
}

REFUSED: dict[str, tuple[Edit, str]] = {
    # options that are not output-only, however placed
    "debug.skipKernelTC in": ({"before": "set_option debug.skipKernelTC true in\n"}, "G3"),
    "debug.skipKernelTC behind a trace option": (
        {"before": "set_option trace.Meta.synthInstance true in\nset_option debug.skipKernelTC true in\n"},
        "G3",
    ),
    "autoImplicit behind a trace option": (
        {"before": "set_option trace.Elab.step true in\nset_option autoImplicit true in\n"},
        "G2",
    ),
    "trace.profiler.output writes a file": (
        {"before": 'set_option trace.profiler.output "zz.json" in\n'},
        "G3",
    ),
    "trace.profiler.output.pp": ({"before": "set_option trace.profiler.output.pp true in\n"}, "G3"),
    "grind.debug": ({"before": "set_option grind.debug true in\n"}, "G3"),
    "a debugging trace class": ({"before": "set_option trace.Debug.Meta.Tactic.simp true in\n"}, "G3"),
    "trace.grind.debug": ({"before": "set_option trace.grind.debug true in\n"}, "G3"),
    "trace.«debug»": ({"before": "set_option trace.«debug» true in\n"}, "G3"),
    "diagnostics-like name": ({"before": "set_option diagnosticsX true in\n"}, "G3"),
    "tracer-like name": ({"before": "set_option tracer.x true in\n"}, "G3"),
    "trace option wrapping a forbidden construct": (
        {"proof": "by\n  set_option trace.Meta.Tactic.simp true in\n  native_decide"},
        "G3",
    ),
    # local instance reaching the theorem
    "local instance at top level": ({"before": "local instance zzI : Inhabited ℝ := ⟨3⟩\n\n"}, "G2"),
    "local instance in a section open at the theorem": (
        _rep(AROUND, "section\nlocal instance zzI : Inhabited ℝ := ⟨3⟩\n" + AROUND),
        "G2",
    ),
    "local instance in an outer section open at the theorem": (
        _rep(AROUND, "section A\nlocal instance zzI : Inhabited ℝ := ⟨3⟩\nsection B\nend B\n" + AROUND),
        "G2",
    ),
    "universe in an outer section open at the theorem": (
        _rep(AROUND, "section A\nuniverse u_1\nsection B\nend B\n" + AROUND),
        "G2",
    ),
    "local instance with a forbidden attribute in a closed section": (
        {"before": "section\n@[csimp] local instance zzI : Inhabited ℝ := ⟨3⟩\nend\n\n"},
        "G3",
    ),
    "local instance named like a statement constant": (
        {"before": "section\nlocal instance convexHull : Inhabited ℝ := ⟨3⟩\nend\n\n"},
        "G2",
    ),
    "local instance escaping to _root_": (
        {"before": "namespace Putnam1962A1\nlocal instance _root_.zzI : Inhabited ℝ := ⟨3⟩\nend Putnam1962A1\n\n"},
        "G2",
    ),
    "local instance in a library namespace": (
        {"before": "namespace Set\nlocal instance zzI : Inhabited ℝ := ⟨3⟩\nend Set\n\n"},
        "G2",
    ),
    "local instance in a mutual block": (
        {"before": "mutual\nlocal instance zzI : Inhabited ℝ := ⟨3⟩\nend\n\n"},
        "G2",
    ),
    "global instance for a library class and type": ({"before": "instance zzI : Inhabited ℝ := ⟨3⟩\n\n"}, "G2"),
    "scoped instance in a closed namespace": (
        {"before": "namespace Foo\nscoped instance zzI : Inhabited ℝ := ⟨3⟩\nend Foo\n\n"},
        "G2",
    ),
    # universe in scope at the theorem
    "universe at top level": ({"before": "universe u_1\n\n"}, "G2"),
    "universe in a section open at the theorem": (_rep(AROUND, "section\nuniverse u_1\n" + AROUND), "G2"),
}


@pytest.mark.parametrize("case", sorted(VALID))
def test_a_sound_addition_is_accepted(lean_putnambench: Benchmark, case: str) -> None:
    assert _verdict(lean_putnambench, VALID[case]) == {}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_neighbour_that_can_change_the_statement_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    edit, gate = REFUSED[case]
    found = _verdict(lean_putnambench, edit)
    assert gate in found, found


UNIVERSE_IN_SCOPE = {
    "top level": "universe u_1\n\n",
    "section open at the theorem": "section\nuniverse u_1\n",
    "outer section open at the theorem": "section A\nuniverse u_1\nsection B\nend B\n",
}


@pytest.mark.parametrize("case", sorted(UNIVERSE_IN_SCOPE))
def test_a_universe_in_scope_at_the_theorem_is_left_to_g6(lean_putnambench: Benchmark, case: str) -> None:
    """As before the fix: a ``universe`` the theorem is read with is the elaboration class, accepted by G2
    only where comparator runs, and refused with that reason on the text profile."""
    candidate = lean_filled(lean_putnambench, PID, before=UNIVERSE_IN_SCOPE[case])
    challenge = LEAN_PROVER.challenge(lean_putnambench.problems[PID], Track.WITH_ANSWER)
    assert check_preservation(challenge, candidate, Track.WITH_ANSWER, semantic=True) == []
    found = check_preservation(challenge, candidate, Track.WITH_ANSWER, semantic=False)
    assert found and all("only through elaboration" in v.rule for v in found), found


# --- the premises, on the toy Lean 4.35 ----------------------------------------------------------------


SCOPED = """set_option autoImplicit false
class ZzC (α : Type) where
  val : Bool

section
local instance zzBig : ZzC Nat := ⟨Bool.true⟩
universe zzu
theorem zz_in : Eq (ZzC.val Nat) Bool.true := rfl
def zz_s (α : Sort zzu) : Sort zzu := α
end

theorem zz_out : Eq (ZzC.val Nat) Bool.true := rfl
def zz_t (α : Sort zzu) : Sort zzu := α
"""


def test_lean_ends_a_local_instance_and_a_universe_at_the_blocks_end(toy_lean: ToyLean, tmp_path: Path) -> None:
    """Inside the block the instance is found and the universe is known; after its ``end`` neither: the
    only errors are on the two declarations after it (lines 12 and 13)."""
    (tmp_path / "Zz.lean").write_text(SCOPED, encoding="utf-8")
    run = _toy_run(toy_lean, tmp_path, "Zz.lean")
    errors = [line for line in run.stdout.splitlines() if ": error" in line]
    assert run.returncode == 1, run.stdout
    assert {e.split(":")[1] for e in errors} == {"12", "13"}, run.stdout


def test_an_importer_does_not_see_a_local_instance_of_a_closed_block(toy_lean: ToyLean, tmp_path: Path) -> None:
    """The harness's checks import the candidate: the block's local instance does not reach them either."""
    head = SCOPED.split("\ntheorem zz_out")[0]
    (tmp_path / "Zza.lean").write_text(head, encoding="utf-8")
    (tmp_path / "Zzb.lean").write_text("import Zza\n\ntheorem zz_out : Eq (ZzC.val Nat) Bool.true := rfl\n")
    assert _toy_run(toy_lean, tmp_path, "-o", "Zza.olean", "Zza.lean").returncode == 0
    importer = _toy_run(toy_lean, tmp_path, "Zzb.lean")
    assert importer.returncode == 1 and "Zzb.lean:3" in importer.stdout, importer.stdout


OUTPUT_ONLY = """class ZzC (α : Type) where
  val : Bool
instance zzI : ZzC Nat := ⟨Bool.true⟩
set_option trace.Meta.synthInstance true in
set_option diagnostics true in
set_option diagnostics.threshold 0 in
set_option profiler true in
set_option profiler.threshold 0 in
theorem zz : Eq (ZzC.val Nat) Bool.true := rfl
"""


def test_output_only_options_add_no_error(toy_lean: ToyLean, tmp_path: Path) -> None:
    """``lean --json`` with the options on: exit 0 and every line a JSON message of no ``error`` severity
    (trace output is a message like any other, G4 reads severities)."""
    (tmp_path / "Zz.lean").write_text(OUTPUT_ONLY, encoding="utf-8")
    run = _toy_run(toy_lean, tmp_path, "--json", "Zz.lean")
    assert run.returncode == 0, run.stdout + run.stderr
    messages = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    assert messages and all(m["severity"] != "error" for m in messages), run.stdout

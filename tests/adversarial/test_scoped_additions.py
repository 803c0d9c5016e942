"""Additions whose effect ends before the statement can see it: false rejections fixed, attacks kept out.

Round conform21 looked for refusals of sound proofs among additions that Lean or Coq scope away from
the statement, and loosened three rules, each by what the tool does rather than by spelling:

* Lean ``attribute [local irreducible] c`` (or ``local reducible``/``local semireducible``) in a block
  of the candidate's closed before the theorem. ``Lean/ReducibilityAttrs.lean`` keeps a ``local``
  reducibility in a scoped environment extension, which drops it at the block's ``end``, as it drops a
  ``local instance`` (already accepted, red team 15). Measured below on the toy Lean 4.35: ``rfl`` for
  ``zzc = 3`` fails inside the block that makes ``zzc`` irreducible and passes after its ``end``.
* Lean ``local notation``, ``local instance`` and section ``variable``/``include``/``omit`` after the
  theorem's proof:
  Lean elaborates each command in the environment the commands before it made, so nothing after the
  theorem reaches it, and neither is exported, so no harness file that imports the candidate sees them.
  An ``instance`` after the theorem stays as it was: it is exported, and the harness's answer check and
  statement check read their text in a file that imports the candidate (red team 8's ``OfNat`` attack).
* Rocq ``Succeed``/``Fail`` before a setting (``Arguments``, ``Hint``, ``Set``, opacity): Coq restores
  its whole state after such a sentence, and ``Require`` replays nothing of it (measured below with
  coqc 8.16, the premise of red team 20's rule against replayed ``Arguments``).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.verify import Profile, Track
from tests.adversarial.test_rocq_redteam14 import check_status, verdict
from tests.adversarial.test_rocq_redteam15 import compile_pair
from tests.adversarial.test_rocq_redteam20 import before_solution, stopping
from tests.helpers import failures, lean_filled, lean_text_verdict, needs_coq
from tests.toylean.build import ToyLean

PLAIN = "putnam_1962_a1"
"""A statement without an answer, read after ``open MeasureTheory``."""

# --- Lean: local reducibility in a closed block ------------------------------------------------------

HELPER = "def zz_c : ℕ := 3\n\n"
LOCAL_REDUCIBILITY = {
    "irreducible on the candidate's own helper": f"{HELPER}section\nattribute [local irreducible] zz_c\nend\n\n",
    "in a named section": f"{HELPER}section zz\nattribute [local irreducible] zz_c\nend zz\n\n",
    "on a library constant": "section\nattribute [local irreducible] Set.ncard\nend\n\n",
    "semireducible, with a helper proved under it": (
        f"{HELPER}section\nattribute [local semireducible] zz_c\ntheorem zz_h : zz_c = 3 := rfl\nend\n\n"
    ),
    "in a namespace of the problem's": (
        "namespace Putnam1962A1\nattribute [local irreducible] Set.ncard\nend Putnam1962A1\n\n"
    ),
}
REACHING_THE_THEOREM = {
    "at top level": (f"{HELPER}attribute [local irreducible] zz_c\n\n", "a local attribute at top level"),
    "in a section left open": ("section\nattribute [local irreducible] Set.ncard\n", "still open at the theorem"),
    "global": ("section\nattribute [irreducible] Set.ncard\nend\n\n", "not a permitted addition"),
    "scoped": ("section\nattribute [scoped irreducible] Set.ncard\nend\n\n", "not a permitted addition"),
    "one item global": ("section\nattribute [local simp, irreducible] Set.ncard\nend\n\n", "starts a new command"),
    "with an argument": ("section\nattribute [local irreducible 3] Set.ncard\nend\n\n", "starts a new command"),
    "... in the end": ("section\nattribute [local irreducible] Set.ncard in\nend\n\n", "attribute: elaboration"),
    "in a mutual block": ("mutual\nattribute [local irreducible] Set.ncard\nend\n\n", "`mutual` block"),
}


@pytest.mark.parametrize("case", sorted(LOCAL_REDUCIBILITY))
def test_local_reducibility_in_a_closed_block_is_accepted(lean_putnambench: Benchmark, case: str) -> None:
    candidate = lean_filled(lean_putnambench, PLAIN, before=LOCAL_REDUCIBILITY[case])
    v = lean_text_verdict(lean_putnambench, PLAIN, candidate)
    assert v.status == "accepted", failures(v)


@pytest.mark.parametrize("case", sorted(REACHING_THE_THEOREM))
def test_reducibility_that_reaches_the_theorem_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    before, rule = REACHING_THE_THEOREM[case]
    v = lean_text_verdict(lean_putnambench, PLAIN, lean_filled(lean_putnambench, PLAIN, before=before))
    assert v.status == "rejected"
    assert rule in " ".join(failures(v).values()), failures(v)


def test_lean_drops_a_local_reducibility_at_the_blocks_end(toy_lean: ToyLean, tmp_path: Path) -> None:
    """The premise, on Lean 4.35's elaborator: inside the block ``zzc`` does not unfold, after it it does."""
    source = (
        "def zzc : Nat := 3\n\nsection\nattribute [local irreducible] zzc\n"
        "theorem zz_in : Eq zzc 3 := rfl\nend\n\ntheorem zz_after : Eq zzc 3 := rfl\n"
    )
    (tmp_path / "Zz.lean").write_text(source, encoding="utf-8")
    run = _toy_run(toy_lean, tmp_path, "Zz.lean")
    errors = [line for line in run.stdout.splitlines() if ": error" in line]
    assert run.returncode == 1 and len(errors) == 1, run.stdout
    assert errors[0].startswith("Zz.lean:5:"), errors  # the helper inside the block, not the theorem after it


# --- Lean: additions after the theorem that are not exported -----------------------------------------


def _toy_run(toy_lean: ToyLean, cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {"LEAN_PATH": f"{toy_lean.init_dir}:{cwd}", "PATH": "/usr/bin:/bin"}
    return subprocess.run([str(toy_lean.lean), *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("kind", "exported"), [("local instance", False), ("instance", True)])
def test_what_an_importer_sees_of_an_instance_after_the_theorem(
    toy_lean: ToyLean, tmp_path: Path, kind: str, exported: bool
) -> None:
    """The premise, on Lean 4.35: a ``local instance`` after the theorem serves its own module only; a file
    that imports the module (as the harness's checks do) does not find it, where it finds an ``instance``."""
    module = (
        "class ZzC (α : Type) where\n  val : Bool\n\ntheorem zz_t : Eq Bool.true Bool.true := rfl\n\n"
        f"{kind} zzBig : ZzC Nat := ⟨Bool.true⟩\n\ntheorem zz_in : Eq (ZzC.val Nat) Bool.true := rfl\n"
    )
    (tmp_path / "Zza.lean").write_text(module, encoding="utf-8")
    (tmp_path / "Zzb.lean").write_text("import Zza\n\ntheorem zz_out : Eq (ZzC.val Nat) Bool.true := rfl\n")
    assert _toy_run(toy_lean, tmp_path, "-o", "Zza.olean", "Zza.lean").returncode == 0
    importer = _toy_run(toy_lean, tmp_path, "Zzb.lean")
    assert (importer.returncode == 0) is exported, importer.stdout


AFTER_THEOREM = {
    "local notation": '\nlocal notation "ZZ" => (1 : ℕ)\n',
    "local infix": '\nlocal infix:65 " +++ " => Nat.add\n',
    "variable": "\nvariable (zz_x : ℕ)\n",
    "variable then a helper using it": "\nvariable (zz_x : ℕ)\n\ntheorem zz_h : zz_x = zz_x := rfl\n",
    "include and omit": "\nvariable (zz_x : ℕ) (zz_h : zz_x = 1)\ninclude zz_h\nomit zz_h\n",
    "in a section after the theorem": '\nsection\nvariable (zz_x : ℕ)\nlocal notation "ZZ" => zz_x\nend\n',
    "local instance": "\nlocal instance : Inhabited ℕ := ⟨3⟩\n",
    "a named local instance with @[simp]": "\n@[simp] local instance zz_i : Inhabited ℕ := ⟨3⟩\n",
}
STILL_REFUSED = {
    "local notation before the theorem": ('local notation "ZZ" => (1 : ℕ)\n\n', "", "a `local notation`"),
    "variable before the theorem": ("variable (zz_x : ℕ)\n\n", "", "not a permitted addition"),
    "an instance after the theorem": ("", "\ninstance : Inhabited ℕ := ⟨3⟩\n", "an `instance` for a class"),
    "a scoped instance after the theorem": ("", "\nscoped instance : Inhabited ℕ := ⟨3⟩\n", "instance"),
    "a local instance before the theorem": (
        "local instance : Inhabited ℕ := ⟨3⟩\n\n",
        "",
        "a local attribute at top level is in force at the theorem",
    ),
    "a local instance after the theorem with @[instance]": (
        "",
        "\n@[instance] local instance : Inhabited ℕ := ⟨3⟩\n",
        "attribute not permitted",
    ),
    "a local instance with sorry after the theorem": ("", "\nlocal instance : Nonempty False := sorry\n", "sorry"),
    "a global notation after the theorem": ("", '\nnotation "ZZ" => (1 : ℕ)\n', "not a permitted addition"),
    "a scoped notation after the theorem": ("", '\nscoped notation "ZZ" => (1 : ℕ)\n', "syntax extension"),
}


@pytest.mark.parametrize("case", sorted(AFTER_THEOREM))
def test_unexported_additions_after_the_theorem_are_accepted(lean_putnambench: Benchmark, case: str) -> None:
    candidate = lean_filled(lean_putnambench, PLAIN, after=AFTER_THEOREM[case])
    v = lean_text_verdict(lean_putnambench, PLAIN, candidate)
    assert v.status == "accepted", failures(v)


def test_after_the_theorem_on_no_answer(lean_putnambench: Benchmark) -> None:
    """A problem with an answer, on the no-answer track: the value is before the theorem, untouched."""
    after = '\nvariable (zz_x : ℕ)\nlocal notation "ZZ" => zz_x\n'
    candidate = lean_filled(lean_putnambench, "putnam_1967_a3", Track.NO_ANSWER, value="5", after=after)
    v = lean_text_verdict(lean_putnambench, "putnam_1967_a3", candidate, Track.NO_ANSWER)
    assert "G2" not in failures(v), failures(v)


@pytest.mark.parametrize("case", sorted(STILL_REFUSED))
def test_neighbours_that_can_reach_the_statement_or_the_harness_stay_refused(
    lean_putnambench: Benchmark, case: str
) -> None:
    before, after, rule = STILL_REFUSED[case]
    v = lean_text_verdict(lean_putnambench, PLAIN, lean_filled(lean_putnambench, PLAIN, before=before, after=after))
    assert v.status == "rejected"
    assert rule in " ".join(failures(v).values()), failures(v)


# --- Rocq: settings that Succeed or Fail roll back ---------------------------------------------------

ROLLED_BACK = {
    "Succeed Arguments": "Succeed Arguments Rtrigo_def.exp _%nat_scope.",
    "Succeed Global Arguments": "Succeed Global Arguments Rtrigo_def.exp _%nat_scope.",
    "Time Succeed Arguments": "Time Succeed Arguments BinPosDef.Pos.succ : simpl never.",
    "Succeed Arguments in a section": "Section zz.\nSucceed Global Arguments R_sqrt.sqrt_pos {x}.\nEnd zz.",
    "Fail Fail Arguments": "Fail Fail Arguments R_sqrt.sqrt_pos {x}.",
    "Succeed Hint": "Succeed Hint Resolve Rplus_comm : core.",
}
NOT_ROLLED_BACK = {
    "bare Arguments": ("Arguments Rtrigo_def.exp _%nat_scope.", "write `Local Arguments`"),
    "Time Arguments": ("Time Arguments Rtrigo_def.exp _%nat_scope.", "write `Local Arguments`"),
    "Succeed Notation": ('Succeed Notation "zz" := 3%R.', "not a permitted addition"),
    "Succeed Instance": ("Succeed Instance zz : Inhabited nat := 3.", "not a permitted addition"),
}


@pytest.mark.parametrize("case", sorted(ROLLED_BACK))
def test_a_rolled_back_setting_passes_g2(case: str) -> None:
    v = stopping("putnam_2013_b2", before_solution(ROLLED_BACK[case], "3"), Profile.TEXT, Track.NO_ANSWER)
    assert "G2" not in failures(v) and "G3" not in failures(v), failures(v)


@pytest.mark.parametrize("case", sorted(NOT_ROLLED_BACK))
def test_a_setting_that_takes_effect_stays_refused(case: str) -> None:
    setting, rule = NOT_ROLLED_BACK[case]
    v = stopping("putnam_2013_b2", before_solution(setting, "3"), Profile.TEXT, Track.NO_ANSWER)
    assert v.status == "rejected"
    assert rule in " ".join(failures(v).values()), failures(v)


@needs_coq
def test_a_rolled_back_arguments_leaves_the_answer_check_alone() -> None:
    """Red team 20's attack behind ``Succeed``: the wrong answer is still proved different (``disputed``)."""
    v = verdict(before_solution(ROLLED_BACK["Succeed Arguments"], "sqrt 10"))
    assert v.status == "disputed" and check_status(v) == "differs", (v.status, failures(v))


@needs_coq
def test_what_require_replays_of_a_rolled_back_setting(tmp_path: Path) -> None:
    """The premise, measured with coqc: the bare ``Arguments`` breaks a file that only ``Require``s the
    candidate; the same behind ``Succeed`` leaves no trace there, nor in the candidate's own file."""
    loader = "Require T.C.\nRequire Import Reals.\nLocal Open Scope R_scope.\nCheck (exp (1/8)).\n"
    head = "Require Import Reals.\n"
    assert compile_pair(tmp_path, head + "Arguments Rtrigo_def.exp _%nat_scope.\n", loader).returncode != 0
    for setting in ("Succeed Arguments", "Succeed Global Arguments"):
        own = head + ROLLED_BACK[setting] + "\nLocal Open Scope R_scope.\nCheck (exp (1/8)).\n"
        run = compile_pair(tmp_path, own, loader)
        assert run.returncode == 0, (setting, run.stderr)

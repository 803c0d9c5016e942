"""Red team 15 (Lean): scoped local attributes, and no-answer values that wrap a copy of the question.

* False rejection: ``attribute [local instance] foo`` (or ``local simp``) inside a ``section`` or
  ``namespace`` block of the candidate's own, closed before the theorem, was refused by G3 on sight
  (the word ``attribute``) and by G2's layout rule (``local`` read as a new command), although Lean
  drops local attribute entries at the block's ``end``: checked on Lean 4.35 (the toy toolchain) below,
  the instance serves a helper inside the block and the pinned theorem after it is read without it.
  Fix (``_helpers.local_attribute``, ``_preservation._local_attribute_violations``): G2 judges that one
  shape by its block, which must be the candidate's own and closed before any pinned declaration (the
  rule section variables already follow); at top level, in the challenge's own open section, in a
  ``mutual`` block, ``scoped``, non-local, erasing or other attributes stay refused.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark, load_benchmark
from putnam_solver.core.sandbox import sandbox_status
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict
from tests.helpers import (
    DATA_ROOT,
    LEAN_BENCH,
    failures,
    lean_filled,
    lean_text_verdict,
    lean_verdict,
    one_record_benchmark,
)
from tests.toylean.build import ToyLean

PROOFNET_LEAN = DATA_ROOT / "proofnet" / "proofnet_lean4.jsonl"
AVAILABLE, WHY = sandbox_status()
needs_sandbox = pytest.mark.skipif(not AVAILABLE, reason=f"bubblewrap unavailable: {WHY}")


@pytest.fixture(scope="module")
def putnambench() -> Benchmark:
    return load_benchmark(LEAN_BENCH)


@pytest.fixture(scope="module")
def proofnet() -> Benchmark:
    if not PROOFNET_LEAN.is_file():
        pytest.skip("pinned ProofNet data not found")
    return load_benchmark(PROOFNET_LEAN)


def _gate(verdict: Verdict, gate: str) -> GateStatus:
    return next(g for g in verdict.gates if g.id == gate).status


# --- local attributes in a block of the candidate's own ---------------------------------------------

PLAIN = "putnam_1962_a1"
"""A statement without an answer, read after ``open MeasureTheory``."""
DECIDABLE = "attribute [local instance] Classical.propDecidable\n"
SCOPED = {
    "in a section": f"section\n{DECIDABLE}end\n\n",
    "in a named section": f"section zz\n{DECIDABLE}end zz\n\n",
    "in a namespace of the problem's": f"namespace Putnam1962A1\n{DECIDABLE}end Putnam1962A1\n\n",
    "with a priority, and local simp": (
        "section\nattribute [local instance 10] Classical.propDecidable\n"
        "attribute [local simp] Set.ncard Set.encard\ntheorem zz_h : True := trivial\nend\n\n"
    ),
    "two local items in one list": "section\nattribute [local instance, local simp] Classical.propDecidable\nend\n\n",
}
UNSCOPED = {
    "at top level": (DECIDABLE, "a local attribute at top level"),
    "in a section left open": (f"section\n{DECIDABLE}", "local attributes and is still open at the theorem"),
    "in a noncomputable section left open": (
        f"noncomputable section\n{DECIDABLE}",
        "local attributes and is still open at the theorem",
    ),
    "in a mutual block": (f"mutual\n{DECIDABLE}end\n", "`mutual` block"),
    "scoped": ("section\nattribute [scoped instance] Classical.propDecidable\nend\n", "starts a new command"),
    "global": ("section\nattribute [instance] Classical.propDecidable\nend\n", "starts a new command"),
    "one item global": ("section\nattribute [local instance, instance] Classical.propDecidable\nend\n", "new command"),
    "reducibility": ("section\nattribute [local reducible] Set.ncard\nend\n", "starts a new command"),
    "an erasure": ("section\nattribute [-instance] Classical.propDecidable\nend\n", "starts a new command"),
    "a helper glued after it": (
        "section\nattribute [local instance] Classical.propDecidable theorem zz : True := trivial\nend\n",
        "starts a new command",
    ),
}


@pytest.mark.parametrize("case", sorted(SCOPED))
def test_a_local_attribute_in_a_closed_block_is_accepted(putnambench: Benchmark, case: str) -> None:
    candidate = lean_filled(putnambench, PLAIN, before=SCOPED[case])
    verdict = lean_text_verdict(putnambench, PLAIN, candidate)
    assert verdict.status == "accepted", failures(verdict)


@pytest.mark.parametrize("case", sorted(UNSCOPED))
def test_a_local_attribute_in_force_at_the_theorem_is_refused(putnambench: Benchmark, case: str) -> None:
    before, rule = UNSCOPED[case]
    verdict = lean_text_verdict(putnambench, PLAIN, lean_filled(putnambench, PLAIN, before=before))
    assert verdict.status == "rejected"
    assert rule in failures(verdict).get("G2", ""), failures(verdict)


def test_a_local_attribute_at_top_level_stays_a_g3_refusal(putnambench: Benchmark) -> None:
    verdict = lean_text_verdict(putnambench, PLAIN, lean_filled(putnambench, PLAIN, before=DECIDABLE))
    assert "attribute: elaboration" in failures(verdict).get("G3", ""), failures(verdict)


def test_a_local_attribute_around_a_pinned_definition_is_refused(putnambench: Benchmark) -> None:
    """``putnam_2025_a3`` declares definitions before its theorem: a block holding the attribute that is
    still open at one of them elaborates it with the instance."""
    text = lean_filled(putnambench, "putnam_2025_a3", Track.NO_ANSWER, value="fun _ => False", proof="by\n  simp")
    at = text.index("def GameString")
    candidate = text[:at] + f"section\n{DECIDABLE}" + text[at:].replace("/--\nAlice", "end\n\n/--\nAlice", 1)
    verdict = lean_text_verdict(putnambench, "putnam_2025_a3", candidate, Track.NO_ANSWER)
    assert verdict.status == "rejected"
    assert "local attributes and is still open at `GameString`" in failures(verdict).get("G2", ""), failures(verdict)


def test_a_local_attribute_in_the_challenges_own_section_is_refused(proofnet: Benchmark) -> None:
    """ProofNet's ``Munkres_exercise_20_2`` leaves its ``noncomputable section`` open at the theorem."""
    text = lean_filled(proofnet, "Munkres_exercise_20_2", proof="by\n  simp")
    assert "noncomputable section" in text
    candidate = text.replace("noncomputable section\n", f"noncomputable section\n{DECIDABLE}", 1)
    verdict = lean_text_verdict(proofnet, "Munkres_exercise_20_2", candidate)
    assert verdict.status == "rejected"
    assert "a local attribute in the challenge's own `section`" in failures(verdict).get("G2", ""), failures(verdict)


# --- for real on the toy Lean (Lean 4.35's elaborator and kernel) -----------------------------------

TOY_CLASS = (
    "class ZzC (α : Type) where\n  val : Bool\n\n"
    "instance zzSmall : ZzC Nat := ⟨Bool.false⟩\n\n"
    "def zzBig : ZzC Nat := ⟨Bool.true⟩\n\n"
)
TOY_FALSE = TOY_CLASS + "theorem toy_local_attr : Eq (ZzC.val Nat) Bool.true := sorry\n"
"""False as pinned: the instance is ``zzSmall``."""
TOY_TRUE = TOY_CLASS + "theorem toy_local_attr : Eq (ZzC.val Nat) Bool.false := sorry\n"
ATTACK = TOY_CLASS + "attribute [local instance] zzBig\n\ntheorem toy_local_attr : Eq (ZzC.val Nat) Bool.true := rfl\n"
"""The local attribute at top level is in force at the theorem: ``rfl`` proves the false statement."""
SOUND = TOY_CLASS + (
    "section\nattribute [local instance] zzBig\n"
    "theorem zz_helper : Eq (ZzC.val Nat) Bool.true := rfl\nend\n\n"
    "theorem toy_local_attr : Eq (ZzC.val Nat) Bool.false := rfl\n"
)
"""Inside the block ``zzBig`` is the instance (the helper's ``rfl`` needs it); after ``end`` it is not."""


def _toy(tmp_path_factory: pytest.TempPathFactory, statement: str) -> Benchmark:
    return one_record_benchmark(tmp_path_factory.mktemp("bench"), "toy_local_attr", statement)


def test_the_text_gates_refuse_the_top_level_attribute(tmp_path_factory: pytest.TempPathFactory) -> None:
    verdict = lean_verdict(_toy(tmp_path_factory, TOY_FALSE), "toy_local_attr", ATTACK, Profile.TEXT)
    assert verdict.status == "rejected"
    assert "a local attribute at top level" in failures(verdict).get("G2", ""), failures(verdict)


@needs_sandbox
def test_lean_proves_the_false_statement_with_a_top_level_local_attribute(
    toy_lean_env: ToyLean, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Why it stays refused: the candidate compiles with no error and no axiom; the fast profile's
    statement check, which reads the pinned signature in a clean scope, refuses it by meaning."""
    bench = _toy(tmp_path_factory, TOY_FALSE)
    full = lean_verdict(bench, "toy_local_attr", ATTACK, Profile.FULL)
    assert _gate(full, "G4") is GateStatus.PASSED
    assert _gate(full, "G5") is GateStatus.PASSED
    fast = lean_verdict(bench, "toy_local_attr", ATTACK, Profile.FAST)
    assert _gate(fast, "G4") is GateStatus.FAILED


@needs_sandbox
def test_the_fast_profile_accepts_a_local_attribute_in_a_closed_section(
    toy_lean_env: ToyLean, tmp_path_factory: pytest.TempPathFactory
) -> None:
    verdict = lean_verdict(_toy(tmp_path_factory, TOY_TRUE), "toy_local_attr", SOUND, Profile.FAST)
    assert verdict.status == "accepted", failures(verdict)

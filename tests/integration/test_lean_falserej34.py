"""False rejections of honest Lean proofs by G2 and G3, round 34, and the near-twins that stay refused (text
profile).

* A global ``set_option autoImplicit false`` / ``relaxedAutoImplicit false`` (Aristotle's generated files
  open with both: kavanaghpatrick/aristotle-math-problems, proven/tuza/nu4/slot72_f0a24a15/output.lean at
  d17e844) and ``set_option Elab.async false``: each leaves the statement as it was where the benchmark
  turns ``autoImplicit`` off (``_option_values``); where it is on, the first two are left to G6; ``true``
  stays refused.
* ``set_option simprocs false in`` / ``push_neg.use_distrib true in`` inside a proof or before a helper:
  they only steer a tactic's search (``_signature_options.SEARCH_OPTIONS``); before the theorem, as a
  global command, or another option (``debug.skipKernelTC``, ``Elab.async``, ``backward.*``) inside a
  proof stay refused.
* ``attribute [local simp] x in`` (or another local attribute G2 accepts in a closed block) before a
  helper: ``c in d`` is ``section c d end``; a global attribute, one before the theorem or an instance stays
  refused.
* Mathlib's ``irreducible_def n``: a ``def`` and its equation ``n_def`` (``_policy.helper_keywords``), both
  under the helpers' naming rules.

One case of each class runs in CI; the others are slow.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._helpers import ELABORATION_MARK
from tests.adversarial.test_lean_falserej29 import assert_verdict, honest_and_refused
from tests.adversarial.test_lean_redteam22_g2g3 import Edit, _verdict
from tests.adversarial.test_scoped_additions import _toy_run
from tests.toylean.build import ToyLean


def _header(*lines: str) -> Edit:
    """The filled challenge with ``lines`` as global commands right after its imports."""

    def edit(text: str) -> str:
        head, _, rest = text.partition("\n\n")
        return "\n".join([head, *lines, "", rest])

    return edit


SIMP_HELPER = "theorem zz_h (a b : ℕ) : a + b = b + a := by simp\n\n"
LOCAL_SIMP = "attribute [local simp] Nat.add_comm in\n"
IRREDUCIBLE = "irreducible_def zz_f (n : ℕ) : ℕ := n + 1\n\n"

VALID: dict[str, dict[str, Edit]] = {
    "strict global settings": {
        "Aristotle's two lines": _header("set_option relaxedAutoImplicit false", "set_option autoImplicit false"),
        "autoImplicit false": _header("set_option autoImplicit false"),
        "Elab.async false": _header("set_option Elab.async false"),
        "after the theorem": {"after": "\nset_option autoImplicit false\n"},
    },
    "search options": {
        "simprocs in the proof": {"proof": "by\n  set_option simprocs false in\n  simp [foo]"},
        "push_neg's distrib in the proof": {"proof": "by\n  set_option push_neg.use_distrib true in push_neg\n  simp"},
        "before a helper": {"before": f"set_option push_neg.use_distrib true in\n{SIMP_HELPER}"},
        "in a helper's proof": {
            "before": "theorem zz_h (a b : ℕ) : a + b = b + a := by\n  set_option simprocs false in simp\n\n"
        },
    },
    "local attribute before a helper": {
        "local simp": {"before": LOCAL_SIMP + SIMP_HELPER},
        "local instance before a def": {
            "before": "attribute [local instance] Classical.propDecidable in\n"
            "noncomputable def zz_f (p : Prop) : Bool := decide p\n\n"
        },
        "two names, behind an option": {
            "before": f"set_option simprocs false in\nattribute [local simp] Nat.add_comm Nat.mul_one in\n{SIMP_HELPER}"
        },
        "before an example": {"before": LOCAL_SIMP + "example (a b : ℕ) : a + b = b + a := by simp\n\n"},
        "after the theorem": {"after": "\n" + LOCAL_SIMP + SIMP_HELPER},
    },
    "irreducible_def": {
        "plain": {"before": IRREDUCIBLE},
        "with @[simp] and private": {"before": "@[simp] private " + IRREDUCIBLE},
        "with a docstring, used by a helper": {
            "before": "/-- a helper -/\n" + IRREDUCIBLE + "theorem zz_h : zz_f 1 = 2 := by rw [zz_f_def]\n\n"
        },
        "after the theorem": {"after": "\n" + IRREDUCIBLE},
    },
}
NOT_ALLOWED = "option not allowed"
REFUSED: dict[str, dict[str, tuple[Edit, str, str]]] = {
    # class: case: (edit, gate, the words of its refusal)
    "strict global settings": {
        "autoImplicit true": (_header("set_option autoImplicit true"), "G2", NOT_ALLOWED),
        "relaxedAutoImplicit true": (_header("set_option relaxedAutoImplicit true"), "G2", NOT_ALLOWED),
        "Elab.async true": (_header("set_option Elab.async true"), "G3", "set_option Elab.async"),
    },
    "search options": {
        "simprocs in front of the theorem": ({"before": "set_option simprocs false in\n"}, "G2", NOT_ALLOWED),
        "simprocs as a global command": (_header("set_option simprocs false"), "G2", NOT_ALLOWED),
        "skipKernelTC in the proof": (
            {"proof": "by\n  set_option debug.skipKernelTC true in\n  simp"},
            "G3",
            "set_option debug.skipKernelTC",
        ),
        "Elab.async in the proof": (
            {"proof": "by\n  set_option Elab.async false in\n  simp"},
            "G3",
            "set_option Elab.async",
        ),
        "backward.* in the proof": (
            {"proof": "by\n  set_option backward.synthInstance.canonInstances false in\n  simp"},
            "G3",
            "set_option backward.synthInstance.canonInstances",
        ),
    },
    "local attribute before a helper": {
        "a global attribute": (
            {"before": "attribute [simp] Nat.add_comm in\n" + SIMP_HELPER},
            "G2",
            "not permitted before a helper",
        ),
        "before the theorem": ({"before": LOCAL_SIMP}, "G2", "differs from the challenge"),
        "local and global items": (
            {"before": "attribute [local simp, instance] Nat.add_comm in\n" + SIMP_HELPER},
            "G3",
            "attribute",
        ),
        "before an instance": (
            {"before": "attribute [local simp] Nat.add_comm in\ninstance zzI : Inhabited ℕ := ⟨3⟩\n\n"},
            "G2",
            "not permitted before a helper",
        ),
    },
    "irreducible_def": {
        "named like a constant of the statement": (
            {"before": "irreducible_def convexHull (n : ℕ) : ℕ := n + 1\n\n"},
            "G2",
            "is a name the challenge uses",
        ),
        "unsafe": ({"before": "unsafe " + IRREDUCIBLE}, "G3", "unsafe"),
        "an instance attribute": ({"before": "@[instance] " + IRREDUCIBLE}, "G3", "@[instance]"),
        "a lemma name of its own": (
            {"before": "irreducible_def zz_f (lemma := zz_g) (n : ℕ) : ℕ := n + 1\n\n"},
            "G2",
            "starts a new command",
        ),
    },
}


@pytest.mark.parametrize(("edit", "gate", "word"), honest_and_refused(VALID, REFUSED))
def test_honest_proofs_pass_and_their_twins_stay_refused(
    lean_putnambench: Benchmark, edit: Edit, gate: str, word: str
) -> None:
    assert_verdict(lean_putnambench, edit, gate, word)


def test_irreducible_def_s_equation_follows_the_naming_rules(lean_putnambench: Benchmark) -> None:
    """``irreducible_def through`` in the problem's namespace declares ``Putnam1965B6.through_def`` too, which
    dot notation on the statement's hypothesis ``through_def`` could find; another name passes."""
    block = "namespace Putnam1965B6\nirreducible_def {} : ℕ := 1\nend Putnam1965B6\n\n"
    found = _verdict(lean_putnambench, {"before": block.format("through")}, pid="putnam_1965_b6")
    assert "`Putnam1965B6.through_def`: inside a namespace" in found.get("G2", ""), found
    assert _verdict(lean_putnambench, {"before": block.format("zz_through")}, pid="putnam_1965_b6") == {}


@pytest.mark.parametrize("name", ["autoImplicit", "relaxedAutoImplicit"])
def test_autoimplicit_false_is_left_to_g6_where_the_benchmark_leaves_it_on(minif2f: Benchmark, name: str) -> None:
    """miniF2F's project keeps Lean's default (``autoImplicit`` on): there ``false`` can change how the
    statement elaborates, so only a profile that runs G6 accepts it; ``Elab.async false`` passes anyway."""
    found = _verdict(minif2f, _header(f"set_option {name} false"), pid="aimeII_2001_p3")
    assert ELABORATION_MARK in found.get("G2", "") and "G3" not in found, found
    assert _verdict(minif2f, _header("set_option Elab.async false"), pid="aimeII_2001_p3") == {}


def test_lean_ends_a_local_attribute_with_the_helper_it_prefixes(toy_lean: ToyLean, tmp_path: Path) -> None:
    """The premise, on Lean 4.35: ``attribute [local instance] x in def a ...`` serves ``a`` only; the next
    declaration no longer finds the instance."""
    text = (
        "class ZzC (α : Type) where\n  val : Bool\n\ndef zzBig : ZzC Nat := ⟨Bool.true⟩\n\n"
        "attribute [local instance] zzBig in\ndef zz_a : Bool := ZzC.val Nat\n\n"
    )
    (tmp_path / "Zz.lean").write_text(text, encoding="utf-8")
    run = _toy_run(toy_lean, tmp_path, "Zz.lean")
    assert run.returncode == 0, run.stdout + run.stderr
    (tmp_path / "Zz.lean").write_text(text + "def zz_b : Bool := ZzC.val Nat\n", encoding="utf-8")
    run = _toy_run(toy_lean, tmp_path, "Zz.lean")
    assert run.returncode != 0 and "failed to synthesize" in run.stdout, run.stdout

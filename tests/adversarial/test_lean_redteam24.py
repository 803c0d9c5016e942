"""Red team 24 (Lean, G1-G3 on the text and full profiles, and the no-answer answer rules).

Found and fixed (accepted by G2 and G3 on both profiles before; the full profile's G5 would see
``Lean.ofReduceBool``, the text profile nothing):

* ``decide``'s configuration given whole. Core's ``DecideConfig`` is ``kernel, native, zetaReduce, revert``
  (leanprover/lean4 src/Init/Tactics.lean), and ``valConfigItem`` there takes ``(config := term)``, "sets the
  entire configuration": ``decide (config := ⟨false, true, true, false⟩)`` is ``decide +native`` (the
  compiler evaluates the instance, admitted by ``Lean.ofReduceBool``) with no ``native`` word for G3 to
  see; so are ``.mk false true true false``, ``id ⟨..⟩``, ``{ c with }`` and ``decide!``. G3 now reads a
  ``(config := e)`` item only when ``e`` is a structure instance that names its fields, with no source
  (``_tactic_config``); the published proofs' ``(config := { decide := true })`` stays accepted.

Also tried and refused by G2 or G3, or harmless: see :data:`TRIED` (the attack classes of the brief that
earlier rounds had not covered, each spelled several ways) and ``test_lean_redteam24_tried.py``.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import check_forbidden
from putnam_solver.core.provers.lean._tactic_config import CONFIG_CONSTRUCT, whole_configs
from putnam_solver.core.provers.lean.syntax import lex_code
from putnam_solver.core.verify import GateStatus, Profile
from tests.helpers import failures, lean_filled, lean_text_verdict, lean_verdict

PROBLEM = "putnam_1962_a1"
HELPER = "theorem zz_h : 2 + 2 = 4 := by\n  {}\n\n"

NATIVE_BY_POSITION = {
    "anonymous constructor": "decide (config := ⟨false, true, true, false⟩)",
    "dot constructor": "decide (config := .mk false true true false)",
    "decide!": "decide! (config := ⟨false, true, true, false⟩)",
    "wrapped in id": "decide (config := id ⟨false, true, true, false⟩)",
    "ascribed": "decide (config := (⟨false, true, true, false⟩ : _))",
    "escaped config": "decide («config» := ⟨false, true, true, false⟩)",
    "no spaces": "decide (config:=⟨false,true,true,false⟩)",
    "on the next line": "decide\n    (config := ⟨false, true, true, false⟩)",
    "after a named item": "decide (kernel := false) (config := ⟨false, true, true, false⟩)",
    "a structure source": "decide (config := { (⟨false, true, true, false⟩ : _) with })",
    "a source and a field": "decide (config := { (⟨false, true, true, false⟩ : _) with kernel := false })",
    "braces then more": "decide (config := {} |> fun _ => ⟨false, true, true, false⟩)",
    "in a discharger": "simp (disch := decide (config := ⟨false, true, true, false⟩))",
    "a let": "decide (config := let c := ⟨false, true, true, false⟩; c)",
    "a term proof": "exact (by decide (config := ⟨false, true, true, false⟩))",
}


@pytest.mark.parametrize("case", sorted(NATIVE_BY_POSITION))
def test_a_tactic_configuration_given_whole_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    text = lean_filled(lean_putnambench, PROBLEM, before=HELPER.format(NATIVE_BY_POSITION[case]))
    assert CONFIG_CONSTRUCT in failures(lean_text_verdict(lean_putnambench, PROBLEM, text)).get("G3", "")
    full = lean_verdict(lean_putnambench, PROBLEM, text, Profile.FULL)
    assert next(g for g in full.gates if g.id == "G3").status is GateStatus.FAILED


NAMED = {
    "a simp option by name": "simp (config := { decide := true })",
    "two fields": "simp (config := { decide := true, failIfUnchanged := false })",
    "kernel by name": "decide (config := { kernel := true })",
    "plus kernel": "decide +kernel",
    "a named item": "decide (kernel := true)",
    "empty braces": "decide (config := {})",
    "a field holding a match": "simp (config := { decide := match 0 with | _ => true })",
    "a nested structure value": "simp (config := { decide := ({ x := true } : Zz).x })",
    "an argument named like config elsewhere": "exact foo (configs := ⟨1, 2⟩)",
    "config as a plain name": "exact config",
}


@pytest.mark.parametrize("case", sorted(NAMED))
def test_a_configuration_by_field_names_stays_accepted(lean_putnambench: Benchmark, case: str) -> None:
    text = lean_filled(lean_putnambench, PROBLEM, before=HELPER.format(NAMED[case]))
    assert failures(lean_text_verdict(lean_putnambench, PROBLEM, text)) == {}


def test_the_native_field_by_name_is_still_the_native_word() -> None:
    for tactic in ("decide (config := { native := true })", "decide +native", "decide («native» := true)"):
        found = check_forbidden(f"theorem x : 2 + 2 = 4 := by {tactic}\n")
        assert [v.rule.split(":")[0] for v in found] == ["native"], tactic


def test_the_configuration_scan_is_linear_in_nested_items() -> None:
    depth = 3000
    text = "by simp " + "(config := { decide := " * depth + "true" + " })" * depth
    assert whole_configs(lex_code(text)) == []
    assert len(whole_configs(lex_code(text.replace("{ decide := true }", "⟨true⟩")))) == 1

"""Red team 31 (Lean, G3): a helper of the candidate's own that Aesop runs as code.

Found and fixed (each passed the text profile):

* Aesop's ``default`` builder, which a rule gets when it names none, tries the ``tactic`` builder before
  ``apply`` (leanprover-community/aesop Aesop/Builder/Default.lean), and ``tactic`` takes any global constant
  whose type is definitionally ``TacticM Unit`` and runs it in the interpreter when the rule fires
  (Aesop/Builder/Tactic.lean). G3 refused the ``Lean``/``Aesop`` names such a type is written with, but Lean
  infers a definition's type from a library tactic in its body, and dot notation and leading-dot names reach
  ``Lean.MVarId.assign`` and ``Lean.Expr``'s constructors unwritten: ``@[aesop safe] def zz := do ...`` or
  ``aesop (add safe zz)`` closed goals with ``sorryAx`` (named in a string) through meta code no G3 word saw,
  and ``(add safe tactic zz)`` was read as harmless in a clause. Now a rule given a ``def``, ``abbrev`` or
  ``where``/``let rec`` declaration of the file needs a builder that uses it as a lemma or definition; a
  ``theorem`` or a type needs none (``_aesop_code``).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import check_forbidden
from tests.helpers import failures, lean_filled, lean_text_verdict, sampled

PUTNAM = "putnam_1962_a1"
RUN_AS_CODE = "aesop rule run as code"
CLOSE = (
    "def zz_close := do\n"
    "  try Mathlib.Meta.NormNum.elabNormNum default default default catch _ => pure ()\n"
    "  let s ← get\n"
    "  for g in s.goals do\n"
    '    g.assign (.app (.app (.const (.str .anonymous ("sorry" ++ "Ax")) [.zero])\n'
    "      (← g.getType)) (.const `Bool.false []))\n"
    "  set { s with goals := [] }\n\n"
)
"""A tactic whose type Lean infers (``TacticM Unit``): it closes every goal with ``sorryAx``."""
HELPERS = "def zz_p : Prop := True\n\ntheorem zz_t : True := trivial\n\n"

ATTACKS: dict[str, tuple[str, str]] = {
    # name: (helpers before the theorem, proof)
    "an attribute with no builder": ("@[aesop safe]\n" + CLOSE, "by\n  aesop"),
    "an attribute with a priority only": ("@[aesop unsafe 90%]\n" + CLOSE, "by\n  aesop"),
    "an attribute naming the default builder": ("@[aesop norm 0 default]\n" + CLOSE, "by\n  aesop"),
    "an attribute on a where declaration": ("", "by\n  aesop\nwhere\n  @[aesop safe] zz_close := 1"),
    "a type written by type_of%": (
        "@[aesop safe]\ndef zz_close : type_of% Mathlib.Meta.NormNum.elabNormNum default default default := do\n"
        "  pure ()\n\n",
        "by\n  aesop",
    ),
    "a clause with no builder": (CLOSE, "by\n  aesop (add safe zz_close)"),
    "a clause's tactic builder": (CLOSE, "by\n  aesop (add safe tactic zz_close)"),
    "a clause's list without a builder": (CLOSE, "by\n  aesop (add safe [apply Nat.le_refl, zz_close])"),
    "a clause of Mathlib's aesop_cat": (CLOSE, "by\n  aesop_cat (add norm 0 zz_close)"),
    "a namespaced name": (
        "namespace Putnam1962A1\n\n" + CLOSE + "end Putnam1962A1\n\n",
        "by\n  aesop (add unsafe 50% Putnam1962A1.zz_close)",
    ),
}
HONEST: dict[str, tuple[str, str]] = {
    # name: (helpers, proof) that hand Aesop lemmas, definitions to unfold, types and library rules
    "a definition given with the apply builder": (HELPERS, "by\n  aesop (add safe apply zz_p)"),
    "a definition to unfold": (HELPERS, "by\n  aesop (add norm unfold zz_p)"),
    "a theorem with no builder": (HELPERS, "by\n  aesop (add safe zz_t)"),
    "library rules": (HELPERS, "by\n  aesop (add safe Nat.le_refl, unsafe 50% apply Nat.succ_le_succ)"),
    "a list under one builder": (HELPERS, "by\n  aesop (add safe apply [zz_p, zz_t])"),
    "a tactic rule written as syntax": (HELPERS, "by\n  aesop (add safe (by simp))"),
    "an attribute with a builder on a definition": ("@[aesop safe apply]\n" + HELPERS, "by\n  aesop"),
    "an attribute with no builder on a theorem": (
        "@[aesop unsafe 50%]\ntheorem zz_u : True := trivial\n\n",
        "by\n  aesop",
    ),
    "an attribute on an inductive proposition": (
        "@[aesop safe]\ninductive ZzP : Prop where\n  | intro\n\n",
        "by\n  aesop",
    ),
}


def _found(bench: Benchmark, before: str, proof: str) -> dict[str, str]:
    return failures(lean_text_verdict(bench, PUTNAM, lean_filled(bench, PUTNAM, proof=proof, before=before)))


@pytest.mark.parametrize(
    ("before", "proof"), sampled(ATTACKS, {"an attribute with no builder", "a clause with no builder"})
)
def test_a_declaration_aesop_may_run_as_code_is_refused(lean_putnambench: Benchmark, before: str, proof: str) -> None:
    assert RUN_AS_CODE in _found(lean_putnambench, before, proof).get("G3", "")


@pytest.mark.parametrize(("before", "proof"), sampled(HONEST, {"a definition given with the apply builder"}))
def test_rules_aesop_uses_as_lemmas_pass(lean_putnambench: Benchmark, before: str, proof: str) -> None:
    assert _found(lean_putnambench, before, proof) == {}


def test_aesop_command_rules_are_read_like_clauses() -> None:
    """``add_aesop_rules`` (refused by G2 as a command today) is judged by the same rule, up to the next
    command, so that permitting the command cannot open the door again."""
    assert [v.construct for v in check_forbidden("def zz := 1\n\nadd_aesop_rules safe zz\n")] == [f"{RUN_AS_CODE}: zz"]
    assert check_forbidden("def zz := 1\n\nadd_aesop_rules safe apply zz\n") == []
    assert check_forbidden("theorem zz : True := trivial\n\nadd_aesop_rules safe zz\ndef yy := 1\n") == []

"""Red team 28 (Lean, G1-G3 on the text profile): configuration items after a keyword no list names.

Found and fixed (accepted by G2 and G3 on the text profile before, on every benchmark and track):

* Red team 27 refused a non-literal configuration value ``(opt := v)`` only after a tactic word of a list
  (``_evaluated.CONFIG_TACTICS``). Any library tactic or term that takes ``optConfig`` escaped it, and each
  hands its configuration to a config elaborator that compiles and runs the value (leanprover/lean4
  src/Lean/Elab/Tactic/Config.lean, ``mkConfigElaborator``: ``evalExpr'`` with ``safety := .unsafe``):
  Mathlib's ``noncomm_ring`` (Mathlib/Tactic/NoncommRing.lean, ``syntax (name := noncomm_ring) "noncomm_ring"
  optConfig (discharger)? ...``, whose ``macro_rules`` expand to ``simp $cfg:optConfig ... only [...]``) and
  the term elaborator ``dsimp%`` (Mathlib, ``syntax (name := dsimpPercent) "dsimp%" optConfig (discharger)?
  ... term : term``, elaborated by ``mkSimpContext stx``). So ``noncomm_ring (maxSteps := zzRead)`` or
  ``rw [dsimp% (zeta := zzRead == 1) h]`` ran a helper that reads the machine's files. G3 now reads where a
  word stands instead of which word it is (``_tactic_position``): a word where a tactic may begin (after
  ``by``, ``;``, ``<;>``, ``·``, ``=>``, a combinator, or first on a line at its block's column, Lean's
  ``sepByIndent``/``checkColEq``) is taken for a tactic keyword, whatever it is, and so is a word glued to
  ``%``; a word in a term's place (after ``exact``, ``:=``, ``[``, ``,``, an operator, another argument) is a
  function, whose named arguments stay free.

* Aesop's rule builders run a declaration of the candidate's: ``aesop (add safe zzTac)`` takes the
  ``tactic`` builder when ``zzTac`` has type ``TacticM Unit``, ``Aesop.SingleRuleTac`` or ``Aesop.RuleTac``
  (leanprover-community/aesop Aesop/Builder/Default.lean: ``tacticDef`` is tried before ``applyDef`` in
  every phase; Aesop/Builder/Tactic.lean: ``isDefEq`` with each type), and Aesop/RuleTac/Tactic.lean runs it
  (``evalConst RuleTac decl``, ``evalConst SingleRuleTac decl``); a ``TacGen`` returns strings that
  ``tacGenImpl`` parses (``Parser.runParserCategory env `tactic tacticStr``) and runs as tactics, so a
  ``"native_decide"`` in a string literal (which G3 never reads) became a proof step. ``TacticM`` was
  refused, Aesop's own types (or their unfolding, ``Aesop.RuleTacInput → Aesop.BaseM Aesop.RuleTacOutput``,
  or ``open Aesop in``) were not. G3 now refuses the ``Aesop`` namespace as it does ``Lean`` (an ``import
  Aesop``, in miniF2F's header, is a module name and stays).

False rejections looked for: the 255 ProofNet and 244 miniF2F published proofs and the Lean conformance
corpus keep their verdicts, named arguments in every place they take there included (a value on its own line
after ``:=``, argument lists continued over lines at one column, ``measurable_pi_apply (X := ...)`` inside an
argument list); :data:`HONEST` keeps the shapes.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import check_forbidden
from putnam_solver.core.provers.lean._evaluated import evaluated_values
from putnam_solver.core.provers.lean.syntax import lex_code
from tests.adversarial.test_lean_redteam27 import MINIF2F, PURE, PUTNAM, refused_on_every_track
from tests.helpers import failures, lean_filled, lean_text_verdict

RULE = "tactic configuration is compiled and run"

UNLISTED: dict[str, str] = {
    # name: a proof whose configuration item follows a keyword that red team 27's list does not name
    "noncomm_ring": "by\n  noncomm_ring (maxSteps := zzN)",
    "dsimp% in a rewrite": "by\n  rw [dsimp% (maxSteps := zzN) foo]",
    "dsimp% in term mode": "dsimp% (zeta := zzN == 1) foo",
    "an unknown tactic": "by\n  zz_tac (maxSteps := zzN)",
    "after intro alone": "by\n  intro\n  noncomm_ring (maxSteps := zzN)",
    "after at *": "by\n  simp at *\n  noncomm_ring (maxSteps := zzN)",
    "after a rewrite at the goal": "by\n  rw [foo] at h ⊢\n  noncomm_ring (maxSteps := zzN)",
    "after exact on its line": "by\n  exact foo\n  noncomm_ring (maxSteps := zzN)",
    "all_goals": "by\n  all_goals noncomm_ring (maxSteps := zzN)",
    "all_goals, the tactic on the next line": "by\n  all_goals\n    noncomm_ring (maxSteps := zzN)",
    "iterate": "by\n  iterate 2 noncomm_ring (maxSteps := zzN)",
    "parenthesised": "by\n  (noncomm_ring (maxSteps := zzN))",
    "bullets": "by\n  constructor\n  · noncomm_ring (maxSteps := zzN)\n  . noncomm_ring (maxSteps := zzN)",
    "a bullet's second tactic": "by\n  constructor\n  · intro h\n    noncomm_ring (maxSteps := zzN)",
    "a case": "by\n  cases h with\n  | inl h => noncomm_ring (maxSteps := zzN)",
    "a case, the tactic on the next line": "by\n  cases h with\n  | inl h =>\n    noncomm_ring (maxSteps := zzN)",
    "a nested by": "by\n  have : True := by noncomm_ring (maxSteps := zzN)\n  simp",
    "<;>": "by\n  constructor <;> noncomm_ring (maxSteps := zzN)",
    ";": "by\n  constructor; noncomm_ring (maxSteps := zzN)",
    "on_goal": "by\n  on_goal 2 => noncomm_ring (maxSteps := zzN)",
    "set_option in": "by\n  set_option maxHeartbeats 400000 in\n  noncomm_ring (maxSteps := zzN)",
    "a by argument": "by\n  exact foo (by noncomm_ring (maxSteps := zzN))",
    "classical": "by\n  classical\n  noncomm_ring (maxSteps := zzN)",
    "classical on one line": "by\n  classical noncomm_ring (maxSteps := zzN)",
    "a calc step": "by\n  calc x = y := by noncomm_ring (maxSteps := zzN)\n    _ = z := rfl",
    "first": "by\n  first | rfl | noncomm_ring (maxSteps := zzN)",
    "if then": "by\n  if h : x = 0 then noncomm_ring (maxSteps := zzN) else simp",
    "a chain after the item": "by\n  noncomm_ring (zeta := true) (maxSteps := zzN)",
    "induction ... with tac": "by\n  induction n with noncomm_ring (maxSteps := zzN)\n  | zero => rfl\n  | succ => rfl",
    "a bracketed block": "by {\n  noncomm_ring (maxSteps := zzN) }",
    "a nested bracketed block": "by\n  · { noncomm_ring (maxSteps := zzN) }",
    "<;> [t1; t2]": "by\n  constructor <;> [noncomm_ring (maxSteps := zzN); noncomm_ring (maxSteps := zzN)]",
}
HONEST: dict[str, str] = {
    # name: a proof with named arguments of functions, which G3 must leave alone
    "after exact": "by\n  exact foo (x := zzN)",
    "on the line after exact": "by\n  exact\n    foo (x := zzN)",
    "a have's value on its own line": "by\n  have h : x = 1 :=\n    foo (x := zzN)\n  simp",
    "a value at the column of a deeper type line": "by\n  have h : x =\n      1 :=\n    foo (x := zzN)\n  simp",
    "in a list over two lines": "by\n  nlinarith [sq_nonneg (a - b),\n    mul_pos (a := zzN) h]",
    "after a fun": "by\n  exact fun n => foo (x := n)",
    "in an anonymous constructor": "by\n  refine ⟨foo (x := zzN), ?_⟩",
    "after using": "by\n  simpa using foo (x := zzN)",
    "after other arguments": "by\n  exact le_trans h foo (b := zzN)",
    "after obtain": "by\n  obtain ⟨a, b⟩ := foo (x := zzN)",
    "in a rewrite": "by\n  rw [foo (x := zzN)] at h",
    "term mode": "foo (x := zzN)",
    "term mode, nested": "le_trans (foo (x := zzN)) (bar (y := zzN))",
    "parenthesised after exact": "by\n  exact (foo (x := zzN))",
    "an argument line under apply": "by\n  apply foo\n    (x := zzN) h",
    "specialize": "by\n  specialize h (x := zzN)\n  simp",
    "cases": "by\n  cases foo (x := zzN)",
    "a field's function": "by\n  exact (h.trans (b := zzN)).le",
    "argument lines at one column": "by\n  have h := foo\n    (a := zzN)\n    (b := zzN) h1\n"
    "    bar (X := zzN) h2\n  simp",
    "a structure instance": "by\n  exact { x := foo (a := zzN), y := 1 }",
    "a singleton": "by\n  exact ({foo (a := zzN)} : Set ℕ)",
    "a literal configuration after any keyword": "by\n  noncomm_ring (maxSteps := 100000)",
}


def test_noncomm_ring_reading_a_file_is_refused_on_every_benchmark_and_track(
    lean_putnambench: Benchmark, minif2f: Benchmark, proofnet: Benchmark
) -> None:
    benches = (lean_putnambench, minif2f, proofnet)
    clean = "by\n  noncomm_ring (maxSteps := 100000)"
    found = refused_on_every_track(benches, "by\n  noncomm_ring (maxSteps := zzRead)", clean)
    assert all(RULE in reason for reason in found), found


def test_configuration_items_after_any_keyword_are_read() -> None:
    """Every place a tactic may stand, and every place a function's named argument may, in one pass."""
    for name, proof in UNLISTED.items():
        rules = [v.rule for v in check_forbidden(f"{PURE}theorem zz : True := {proof}")]
        assert any(RULE in rule for rule in rules), name
    for name, proof in HONEST.items():
        assert check_forbidden(f"{PURE}theorem zz : True := {proof}") == [], name
    # a command's priority is read by `evalPrio` (a macro), not run: `instance` is no tactic
    assert evaluated_values(lex_code("local instance (priority := high) zzI : Inhabited ℝ := ⟨3⟩")) == []
    assert evaluated_values(lex_code("def zzF (x := zzN) : ℕ := x\nexample (y := zzN) : True := trivial")) == []


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(UNLISTED))
def test_each_unlisted_keyword_is_refused_on_the_text_profile(lean_putnambench: Benchmark, case: str) -> None:
    text = lean_filled(lean_putnambench, PUTNAM, proof=UNLISTED[case], before=PURE)
    assert RULE in failures(lean_text_verdict(lean_putnambench, PUTNAM, text)).get("G3", "")


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(HONEST))
def test_each_named_argument_stays_accepted(minif2f: Benchmark, case: str) -> None:
    text = lean_filled(minif2f, MINIF2F, proof=HONEST[case], before=PURE)
    assert failures(lean_text_verdict(minif2f, MINIF2F, text)) == {}


def test_the_place_scan_stays_linear() -> None:
    lines = "by\n" + "  simp\n" * 20000 + "  noncomm_ring (maxSteps := zzN)\n"
    assert len(evaluated_values(lex_code(lines))) == 1
    words = ("by\n  exact " + "f " * 30 + "(x := zzN)" * 50 + "\n") * 400
    assert evaluated_values(lex_code(words)) == []
    far = "by\n  exact " + "f " * 20000 + "(x := zzN)"  # round 30: no bound on the walk, each place judged once
    assert evaluated_values(lex_code(far)) == []
    assert len(evaluated_values(lex_code(far.replace("exact", "noncomm_ring")))) == 1


AESOP_RULES = {
    # name: a helper Aesop's tactic builder would run, and the proof that adds it
    "SingleRuleTac": "def zzTac : Aesop.SingleRuleTac := fun _ => failure\n\n",
    "RuleTac": "def zzTac : Aesop.RuleTac := fun _ => failure\n\n",
    "TacGen with a forbidden tactic in a string": (
        'def zzTac : Aesop.TacGen := fun _ => pure #[("native_decide", 1.0)]\n\n'
    ),
    "the type unfolded": "def zzTac : Aesop.RuleTacInput → Aesop.BaseM Aesop.RuleTacOutput := fun _ => failure\n\n",
    "open Aesop in": "open Aesop in\ndef zzTac : SingleRuleTac := fun _ => failure\n\n",
    "escaped root": "def zzTac : _root_.«Aesop».RuleTac := fun _ => failure\n\n",
}
AESOP_HONEST = (
    "theorem zz : True := by\n  aesop",
    "theorem zz : True := by\n  aesop (add safe Nat.le_refl) (rule_sets := [-builtin])",
    "theorem zz : True := by\n  aesop? (add norm simp Nat.add_comm)",
)


def test_aesop_rule_code_is_refused_and_its_tactic_stays() -> None:
    for name, helper in AESOP_RULES.items():
        rules = [v.rule for v in check_forbidden(f"{helper}theorem zz : True := by\n  aesop (add safe zzTac)")]
        assert any("`Aesop` namespace" in rule for rule in rules), name
    for text in AESOP_HONEST:
        assert check_forbidden(f"import Mathlib\nimport Aesop\n\n{text}") == [], text


@pytest.mark.slow
def test_aesop_rule_code_is_refused_on_every_benchmark_and_track(
    lean_putnambench: Benchmark, minif2f: Benchmark, proofnet: Benchmark
) -> None:
    benches = (lean_putnambench, minif2f, proofnet)
    proof = "by\n  aesop (add safe zzTac)"
    found = refused_on_every_track(benches, proof, "by\n  aesop (add safe Nat.le_refl)", AESOP_RULES["RuleTac"])
    assert all("`Aesop` namespace" in reason for reason in found), found

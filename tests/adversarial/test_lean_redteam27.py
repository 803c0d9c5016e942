"""Red team 27 (Lean, G3 on the text and full profiles): terms Lean runs in its interpreter while it
elaborates a proof.

Found and fixed (each accepted by G2 and G3 on the text profile before, on every benchmark and track):

* A tactic configuration's values. Core's configuration elaborators (``declare_config_elab``,
  leanprover/lean4 src/Lean/Elab/Tactic/Config.lean, ``mkConfigElaborator``) elaborate the items
  ``(opt := v)`` and ``(config := v)`` and then compile and run the result, ``Meta.evalExpr' (safety :=
  .unsafe)``; Mathlib's ``apply (config := cfg) e`` (``unsafe evalTerm``) and Aesop's ``(options := ...)``
  likewise. So ``simp (maxSteps := zzRead)`` runs a helper's code, and with ``IO.RealWorld`` a ``def`` of
  ``Unit`` (src/Init/System/IO.lean) an ``IO`` action applied to ``()``, or ``unsafeBaseIO``, reads the
  machine's files and prints them in the compile's messages, which the agent's ``check`` returns (the class
  of ``include_str``, trust-path red team 8). G3 now reads every item Lean may take for a configuration
  (``_evaluated``): its value may hold only literals; and it refuses the names through which pure code does
  input and output (``IO``, ``EIO``, ``BaseIO``, ``System``, ``unsafeBaseIO``, ``timeit``...: ``_file_reads``).

* Mathlib's ``trace e`` (Mathlib/Tactic/Trace.lean: ``unsafe evalExpr String`` of ``toString e``, then
  ``logInfo``) runs ``e`` and prints its value; core's ``trace "literal"`` runs nothing and stays. ``grind``'s
  ``trace`` option (``grind +trace``) is refused with it: ``useSorry``, true by default, "when ``trace :=
  true``, uses ``sorry`` to close unsolved branches" (src/Init/Grind/Config.lean), a hole by configuration.

* The widget commands, ``show_panel_widgets [w with props]`` (src/Lean/Widget/Commands.lean:
  ``evalWidgetInstance`` runs ``props`` and the widget, then ``addAndCompile``) and ProofWidgets' tactic
  ``with_panel_widgets``: they only draw in an editor.

Tried and already refused or harmless (:data:`TRIED`): ``unsafe`` terms, ``by_elab``, ``run_tac``,
``dbg_trace``, ``#guard_msgs``, ``@[export]``, ``@[grind]``, ``@[aesop]``, ``@[never_extract]``, ``decide
+«native»``, ``(config := .mk (native := true))``; harmless: ``with_decl_name%``, ``type_of%``,
``show_term``, ``dbgTraceIfShared`` (a constant message), ``panic!``. False rejections looked for (about
80 proofs in Lean 4.27/4.28 syntax, :data:`HONEST`): none; they pass with literal configurations, named
arguments of lemmas, ``grind?``, ``decide +kernel``, ``simp +arith``, ``induction ... with``,
``termination_by structural``, ``partial_fixpoint``, ``open scoped ... in``, ``set_option maxRecDepth ... in``.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import check_forbidden
from putnam_solver.core.provers.lean._evaluated import evaluated_values
from putnam_solver.core.provers.lean.syntax import lex_code
from putnam_solver.core.verify import GateStatus, Profile, Track
from tests.helpers import failures, lean_filled, lean_text_verdict, lean_verdict

PUTNAM = "putnam_1962_a1"
ANSWERED = "putnam_1993_b1"
MINIF2F = "mathd_algebra_17"
PROOFNET = "Ireland_Rosen_exercise_2_4"
READ = 'def zzRead : ℕ := match IO.FS.readFile "/etc/hostname" () with\n  | .ok s _ => s.length\n  | _ => 0\n\n'
PURE = "def zzN : ℕ := 100000\n\n"

RUN: dict[str, str] = {
    # name: a proof that makes Lean run a term it does not merely check
    "simp option": "by\n  simp (maxSteps := zzN)",
    "simp option after +arith": "by\n  simp +arith (zeta := true) (maxSteps := zzN) [zzN]",
    "whole config field": "by\n  simp (config := { maxSteps := zzN })",
    "library function": "by\n  norm_num (config := { maxSteps := Nat.succ 5 })",
    "field access on a literal": "by\n  grind (splits := (1).succ)",
    "arithmetic with a name": "by\n  simp (maxSteps := 1 + zzN)",
    "string method": 'by\n  simp (maxSteps := "abc".length)',
    "decide option": "by\n  decide (kernel := zzN == 1)",
    "omega option": "by\n  omega (splitDisjunctions := zzN == 1)",
    "constructor argument": "by\n  rw (occs := .pos [zzN]) [Nat.add_comm]",
    "escaped option name": "by\n  simp («maxSteps» := zzN)",
    "comment inside": "by\n  simp (maxSteps := -- c\n    zzN)",
    "simp? and simp_all!": "by\n  simp? (maxSteps := zzN)\n  simp_all! (maxSteps := zzN)",
    "after a bullet": "by\n  · simp (maxSteps := zzN)",
    "in first": "by\n  first | simp (maxSteps := zzN) | rfl",
    "in a by block of an argument": "by\n  exact foo (h := by simp (maxSteps := zzN))",
    "an option after a +option, whatever the tactic": "by\n  zz_tac +arith (maxSteps := zzN)",
    "an option after a whole configuration": "by\n  zz_tac (config := {}) (maxSteps := zzN)",
    "congr! option": "by\n  congr! (closePost := zzN == 1)",
    "mvcgen option": "by\n  mvcgen (trivial := zzN == 1)",
    "aesop options": "by\n  aesop (add safe Nat.add_comm) (options := { maxRuleApplications := zzN })",
    "Mathlib apply config": "by\n  apply (config := zzCfg) Nat.le_refl",
    "Mathlib trace": "by\n  trace zzN\n  nlinarith",
    "Mathlib trace of an interpolation": 'by\n  trace s!"{zzN}"\n  nlinarith',
    "success_if_fail_with_msg": "by\n  success_if_fail_with_msg zzMsg rfl\n  nlinarith",
    "grind +trace (holes by sorry)": "by\n  grind +trace",
    "grind trace item": "by\n  grind (trace := true)",
    "grind trace field": "by\n  grind (config := { trace := true })",
    "Mathlib trace of a parenthesised term": "by\n  trace (zzN)\n  nlinarith",
    "Aesop simp_config": "by\n  aesop (simp_config := zzCfg)",
    "panel widgets": "by\n  with_panel_widgets [ProofWidgets.GoalTypePanel with zzN]\n    nlinarith",
}
EFFECTS: dict[str, str] = {
    # name: a helper that performs input or output when some term runs it
    "IO action applied to the world": READ,
    "unsafeBaseIO": "def zzRead : ℕ := (unsafeBaseIO (pure 1))\n\n",
    "System.FilePath action": 'def zzRead : Bool := match System.FilePath.pathExists "/x" () with\n'
    "  | .ok b _ => b\n\n",
    "open IO": "open IO in\ndef zzRead : ℕ := 1\n\n",
    "timeit": 'def zzRead : ℕ := match timeit "x" (pure 1 : IO ℕ) () with\n  | .ok n _ => n\n  | _ => 0\n\n',
    "EIO": "def zzRead : EIO String ℕ := pure 1\n\n",
    "show_panel_widgets": "show_panel_widgets [local ProofWidgets.GoalTypePanel with zzN]\n\n",
}


def _g3(bench: Benchmark, problem: str, text: str, track: Track = Track.WITH_ANSWER) -> str:
    return failures(lean_text_verdict(bench, problem, text, track)).get("G3", "")


@pytest.mark.parametrize("case", sorted(RUN))
def test_a_term_lean_runs_while_elaborating_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    text = lean_filled(lean_putnambench, PUTNAM, proof=RUN[case], before=PURE)
    assert "while elaborating" in _g3(lean_putnambench, PUTNAM, text) or "interpreter" in _g3(
        lean_putnambench, PUTNAM, text
    )
    full = lean_verdict(lean_putnambench, PUTNAM, text, Profile.FULL)
    assert next(g for g in full.gates if g.id == "G3").status is GateStatus.FAILED


@pytest.mark.parametrize("case", sorted(EFFECTS))
def test_input_and_output_from_pure_code_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    text = lean_filled(lean_putnambench, PUTNAM, proof="by\n  simp", before=EFFECTS[case])
    assert "input and output" in _g3(lean_putnambench, PUTNAM, text)


def refused_on_every_track(
    benches: tuple[Benchmark, Benchmark, Benchmark], proof: str, clean: str, before: str = READ
) -> list[str]:
    """G3's reasons for ``proof`` (after ``before``) on PutnamBench (both tracks), miniF2F and ProofNet,
    one per case, asserting on the way that ``clean`` passes every text gate on each."""
    putnam, minif2f, proofnet = benches
    cases = [
        (putnam, PUTNAM, Track.WITH_ANSWER, {}),
        (putnam, ANSWERED, Track.NO_ANSWER, {"value": "3987"}),
        (minif2f, MINIF2F, Track.WITH_ANSWER, {}),
        (proofnet, PROOFNET, Track.WITH_ANSWER, {}),
    ]
    found = []
    for bench, problem, track, value in cases:
        text = lean_filled(bench, problem, track=track, proof=proof, before=before, **value)
        found.append(_g3(bench, problem, text, track))
        honest = lean_filled(bench, problem, track=track, proof=clean, **value)
        assert failures(lean_text_verdict(bench, problem, honest, track)) == {}, problem
    return found


def test_the_file_reading_proof_is_refused_on_every_benchmark_and_track(
    lean_putnambench: Benchmark, minif2f: Benchmark, proofnet: Benchmark
) -> None:
    benches = (lean_putnambench, minif2f, proofnet)
    found = refused_on_every_track(benches, "by\n  simp (maxSteps := zzRead)", "by\n  simp (maxSteps := 100000)")
    assert all("interpreter" in reason and "input and output" in reason for reason in found), found


HONEST: dict[str, str] = {
    "literal fields": "by\n  simp (config := { decide := true, maxSteps := 10 ^ 7 })",
    "literal option after +arith": "by\n  simp +arith (maxSteps := 400000) [Nat.add_comm] at *",
    "occurrences": "by\n  rw (occs := .pos [1, 2]) [Nat.add_comm]",
    "constructor field": "by\n  simp (config := { zeta := false, proj := .all })",
    "decide +kernel": "by\n  decide +kernel",
    "decide kernel item": "by\n  decide (kernel := true)",
    "grind options": "by\n  grind (splits := 12) (ematch := 5)",
    "grind +ring -lia": "by\n  grind +ring -lia",
    "grind?": "by\n  grind?",
    "grind only": "by\n  grind only [Nat.add_comm]",
    "lia": "by\n  lia",
    "omega config": "by\n  omega (config := { splitDisjunctions := true })",
    "norm_num config": "by\n  norm_num (config := { failIfUnchanged := false }) [Nat.add_comm]",
    "fun_prop discharger": "by\n  fun_prop (disch := positivity)",
    "use discharger": "by\n  use (discharger := simp) 1",
    "linear_combination exponent": "by\n  linear_combination (exp := 2) h₀",
    "linear_combination normaliser": "by\n  linear_combination (norm := ring_nf) h₀",
    "aesop rule sets": "by\n  aesop (rule_sets := [Zz]) (config := { terminal := true })",
    "congr as a theorem": "by\n  exact congr (h₁ := rfl) (h₂ := h₀)",
    "named arguments": "by\n  exact foo (x := h) (f := fun n => n + 1)",
    "named arguments in simp lemmas": "by\n  nlinarith [foo (a := x) (b := y)]",
    "a sum before a named argument": "by\n  exact le_trans (x+y) (h := h₀)",
    "named arguments after apply": "by\n  apply foo (x := h)",
    "named arguments on a continuation line": "by\n  exact\n    le_trans (a := 1) (b := 2)",
    "a by value": "by\n  simp (maxSteps := by exact 5)",
    "core trace of a literal": 'by\n  trace "checkpoint"\n  nlinarith',
    "grind -trace": "by\n  grind -trace",
    "success_if_fail_with_msg of a literal": 'by\n  success_if_fail_with_msg "failed" rfl\n  nlinarith',
    "grind trace off": "by\n  grind (config := { trace := false, splits := 3 })",
    "trace options": "by\n  set_option trace.Meta.Tactic.simp true in\n  simp",
    "matrix trace by its full name": "by\n  simp [Matrix.trace]",
    "simp +arith": "by\n  simp +arith",
    "simp_all +arith": "by\n  simp_all +arith",
    "induction with": "by\n  induction x with\n  | zero => simp\n  | succ n ih => omega",
    "maxRecDepth in a proof": "by\n  set_option maxRecDepth 10000 in\n  norm_num",
    "open scoped in a proof": "by\n  open scoped Real in\n  norm_num",
    "cbv": "by\n  cbv",
    "decide +revert": "by\n  decide +revert",
}


@pytest.mark.parametrize("case", sorted(HONEST))
def test_honest_proofs_stay_accepted(lean_putnambench: Benchmark, case: str) -> None:
    text = lean_filled(lean_putnambench, PUTNAM, proof=HONEST[case])
    assert failures(lean_text_verdict(lean_putnambench, PUTNAM, text)) == {}


HONEST_HELPERS = {
    "termination_by structural": "def zzf : ℕ → ℕ\n  | 0 => 0\n  | n + 1 => zzf n\n"
    "termination_by structural n => n\n\n",
    "partial_fixpoint": "def zzg (n : ℕ) : Option ℕ := zzg (n + 1)\npartial_fixpoint\n\n",
    "open scoped in a helper": "open scoped Real in\ntheorem zz : (1 : ℝ) = 1 := rfl\n\n",
    "maxRecDepth before the theorem": "set_option maxRecDepth 10000 in\n",
    "a name holding IO or trace": "theorem zz_IO_trace (hIO : True) : True := hIO\n\n",
    "a field named trace": "structure Zz where\n  trace : ℕ\n\n",
    "a variable named trace": "theorem zz (trace : ℕ) : trace = trace + 1 - 1 := by omega\n\n",
}


@pytest.mark.parametrize("case", sorted(HONEST_HELPERS))
def test_honest_helpers_stay_accepted(minif2f: Benchmark, case: str) -> None:
    text = lean_filled(minif2f, MINIF2F, proof="by nlinarith", before=HONEST_HELPERS[case])
    assert failures(lean_text_verdict(minif2f, MINIF2F, text)) == {}


TRIED = {
    # snippet: the rule that refuses it (already before this round)
    "example : True := unsafe (trivial)": "unsafe",
    "example : True := by\n  run_tac pure ()": "meta",
    'example : True := by\n  dbg_trace "x"; trivial': "meta",
    "example : 2 + 2 = 4 := by decide +«native»": "native",
    "example : 2 + 2 = 4 := by decide (config := .mk (native := true))": "native",
    "@[export zz] def zz := 1": "attribute",
    "@[never_extract] def zz := 1": "attribute",
    # round 29: `@[aesop safe]` makes a rule that builds kernel-checked proofs and passes; its `tactic`
    # builder runs the declaration as code and stays refused
    "@[aesop safe tactic] theorem zz : True := trivial": "attribute",
    "example := by_elab pure default": "meta",
    "/-- info: -/\n#guard_msgs in\n#check 1": "meta",
}
HARMLESS = (
    "theorem x : True := by\n  with_decl_name% Foo.bar (trivial)",
    "example : True := by\n  exact type_of% trivial",
    "example := show_term trivial",
    'example : True := by\n  exact dbgTraceIfShared "x" trivial',
    "example : Matrix.trace (1 : Matrix (Fin 2) (Fin 2) ℚ) = 2 := by simp",
    "example (A : Matrix (Fin 2) (Fin 2) ℚ) : A.trace = A.trace := rfl",
)


GRIND_TAGGED = {
    "plain": "@[grind] theorem zz (n : ℕ) : n + 0 = n := rfl\n\n",
    "equation": "@[grind =] theorem zz (n : ℕ) : n + 0 = n := rfl\n\n",
    "both sides with gen": "@[grind _=_ gen] theorem zz (n : ℕ) : n + 0 = n := rfl\n\n",
    "backwards with simp": "@[simp, grind ←] theorem zz (n : ℕ) : n ≤ n + 1 := Nat.le_succ n\n\n",
    "forwards, local": "@[local grind →] theorem zz (n : ℕ) (h : 0 < n) : 1 ≤ n := h\n\n",
    "grind! and symbol priority": "@[grind! ⇒, grind symbol high] theorem zz (n : ℕ) : n ≤ n := le_rfl\n\n",
    "cases on an own predicate": "@[grind cases] inductive ZzEven : ℕ → Prop\n  | zero : ZzEven 0\n\n",
    "ext on an own structure": "@[grind ext] theorem zz_ext (a b : ℕ × ℕ) (h : a.1 = b.1 ∧ a.2 = b.2) : a = b :=\n"
    "  Prod.ext h.1 h.2\n\n",
    "unfold an own definition": "@[grind unfold] def zzDouble (x : ℕ) := 2 * x\n\n",
}
GRIND_REFUSED = {
    "on an instance": "@[grind] instance zzInst : Inhabited ℕ := ⟨0⟩\n\n",
    "an unknown argument": "@[grind zzFoo] theorem zz (n : ℕ) : n + 0 = n := rfl\n\n",
    "as a command on a library theorem": "attribute [grind] Nat.add_zero\n\n",
}


@pytest.mark.parametrize("case", sorted({**GRIND_TAGGED, **GRIND_REFUSED}))
def test_grind_tags_pass_on_an_own_helper_only(minif2f: Benchmark, case: str) -> None:
    """False rejection found this round: Lean 4.27 proofs tag helper lemmas for ``grind`` as for ``simp``;
    an instance, an unknown modifier and the ``attribute`` command stay refused."""
    before = GRIND_TAGGED.get(case) or GRIND_REFUSED[case]
    text = lean_filled(minif2f, MINIF2F, proof="by grind", before=before)
    assert (failures(lean_text_verdict(minif2f, MINIF2F, text)) == {}) is (case in GRIND_TAGGED)


def test_grind_tags_on_the_theorem_or_an_answer_change_the_statement(lean_putnambench: Benchmark) -> None:
    tagged = lean_filled(lean_putnambench, PUTNAM, proof="by grind").replace(
        f"theorem {PUTNAM}", f"@[grind] theorem {PUTNAM}"
    )
    assert "G2" in failures(lean_text_verdict(lean_putnambench, PUTNAM, tagged))
    answer = lean_filled(lean_putnambench, ANSWERED, track=Track.NO_ANSWER, value="3987", proof="by grind")
    at = answer.index(f"abbrev {ANSWERED}_solution")
    answer = answer[:at] + "@[grind] " + answer[at:]
    assert "G2" in failures(lean_text_verdict(lean_putnambench, ANSWERED, answer, Track.NO_ANSWER))


def test_what_was_tried_and_already_refused() -> None:
    for snippet, rule in TRIED.items():
        assert rule in {v.rule.split(":")[0] for v in check_forbidden(snippet)}, snippet
    for snippet in HARMLESS:
        assert check_forbidden(snippet) == [], snippet


def test_the_value_scan_is_linear() -> None:
    many = "by simp" + " +a (a := 1)" * 50000
    assert evaluated_values(lex_code(many)) == []
    nested = "by simp " + "(config := { a := (b := " * 2000 + "1" + ")})" * 2000
    assert len(evaluated_values(lex_code(nested))) == 2000  # each item refused, each read up to its first name

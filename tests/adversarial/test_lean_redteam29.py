"""Red team 29 (Lean, G3): code Lean runs in its interpreter while a proof elaborates, through library words
no list of G3 named and configuration values G3 took for literals.

Found and fixed (each passed G3; G2 admits every one on the text profile, but the helper in ``Nat``, which it
leaves to G6 on the full profile):

* Runners of a do-block. G3 refused core's ``run_tac``, ``run_cmd``, ``run_elab``, ``run_meta`` and
  ``by_elab`` by name, but every Mathlib file also has Mathlib's conv tactic ``run_conv`` (Mathlib/Tactic/
  Conv.lean: ``macro "run_conv" e:doSeq : conv => `(conv| tactic' => run_tac $e)``) and, from Mathlib's
  dependency Qq, ``run_tacq`` and ``by_elabq`` (Qq/Commands.lean: ``unsafe evalExpr (TacticM Unit)``,
  ``(TermElabM Expr)``; scoped, so after ``open Qq in``). Each runs arbitrary meta code: ``run_tacq g =>
  g.mvarId!.admit`` closes the goal by ``sorry`` through generalized field notation (``Quoted`` unfolds to
  ``Lean.Expr``) without writing the word ``Lean``. G3 now refuses them by name and, as a class, every
  one-part word that begins with ``run_`` where a tactic may begin (``_policy.RUNNER_PREFIXES``,
  ``_tactic_position``); in a term's or binder's place such a word is a name (Lean reads an identifier
  longer than any keyword as one: red team 9's binder ``by_elab_ok`` stays), and so are qualified lemma
  names (``StateT.run_bind``) and fields (``(e).run_bind``).

* Arguments run as values. Mathlib's SAT certificates, the term ``from_lrat cnf lrat`` and the command
  ``lrat_proof NAME cnf lrat`` (Mathlib/Tactic/Sat/FromLRAT.lean: ``unsafe evalTerm String`` of both
  arguments), compile and run their arguments, as a tactic configuration's values do (red team 27): ``from_lrat
  zzCnf zzLrat`` runs the candidate's definitions. Their arguments must now be string literals, as in
  Mathlib's own examples (``_evaluated.LITERAL_ARGUMENTS``, with ``success_if_fail_with_msg``).

* A whole configuration given by a tactic block. G3 let a configuration item's value be a ``by`` block,
  which core's ``elabConfig`` quotes as syntax for one option (``(opt := by tacs)``: ``Unhygienic.run
  `(tacticSeq| ...)``). A whole configuration is no option: Aesop's ``(options := by exact zzOpts)`` and
  ``(simp_options := ...)`` (Aesop/Frontend/Tactic.lean, ``elabOptions``) elaborate the block into the term
  ``zzOpts`` and run it. A ``by`` block is now inert only as one option's value (``_evaluated._inert``);
  core's ``(config := ...)`` was refused already (red team 24's whole-configuration rule).

* A configuration item named by a field path. G3 read an item ``(NAME := value)`` only when ``NAME`` was one
  part, but core's ``elabConfig`` resolves a hierarchical name through parent structures and
  structure-valued fields (``expandField``), so ``simp (toConfig.maxSteps := zzN)`` ran ``zzN`` unread. Any
  name is now an item's name (a function's named argument is one part; ``_evaluated.evaluated_values``).

* A leading-dot name the candidate declares. G3 took ``.name`` in a configuration value for a constructor of
  the option's type (``.all``), but Lean resolves it in that type's namespace, whatever it names: with ``def
  Nat.zzN`` (or ``def zzN`` in ``namespace Nat``), ``simp (maxSteps := .zzN)`` runs the helper. G2 leaves such a
  helper to G6 on the full profile, where G3 was the only line. Likewise the words G3 took for literals,
  ``none``, ``some``, ``true``, ``false``: core exports them from ``Option`` and ``Bool``, a root ``def none : ℕ``
  overloads the constructor, and Lean elaborates the one whose type fits (checked on Lean 4.35: the root
  definition was chosen), so ``simp (maxSteps := none)`` ran the helper, on the text profile too. A
  leading-dot name with a part the file declares (after a declaration keyword), and such a word the file
  declares, are now names (``_evaluated._Declared``).

Tried and already refused or harmless (:data:`TRIED`).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import check_forbidden
from putnam_solver.core.provers.lean._forbidden import _flagged_texts, _may_flag
from putnam_solver.core.provers.lean._policy import POLICY
from putnam_solver.core.provers.lean._preservation import check_preservation
from putnam_solver.core.verify import Track
from tests.adversarial.test_lean_redteam27 import MINIF2F, PURE, PUTNAM, refused_on_every_track
from tests.helpers import LEAN_PROVER, failures, lean_filled, lean_text_verdict, sampled

RUNNER = "runs its do-block in Lean's interpreter"
META = "meta-programming"
ARGUMENTS = "only string literals may follow"

RUNNERS: dict[str, str] = {
    # name: a proof that runs meta code through a word of the runner family
    "Mathlib's run_conv": "by\n  conv => run_conv pure ()\n  simp",
    "Qq's run_tacq closing the goal": "by\n  open Qq in run_tacq g => g.mvarId!.skip",
    "Qq's by_elabq": "open Qq in by_elabq pure q(trivial)",
    "a runner no library has yet": "by\n  run_zz pure ()",
    "a runner after a combinator": "by\n  all_goals run_zz pure ()",
    "a runner with a mark": "by\n  run_zz! pure ()",
}
ARGUMENT_RUNS: dict[str, str] = {
    # name: a proof whose SAT certificate is computed by the candidate's own definitions
    "from_lrat of names": "by\n  have := from_lrat zzN zzN\n  simp",
    "from_lrat of an expression": 'by\n  have := from_lrat (toString zzN) "1 0"\n  simp',
    "from_lrat in term mode": 'from_lrat "p cnf 1 1  1 0" zzN',
}
WHOLE_BY: dict[str, str] = {
    # name: a whole configuration computed by a tactic block, which Lean elaborates and then runs
    "Aesop's options": "by\n  aesop (options := by exact zzN)",
    "Aesop's simp_options": "by\n  aesop (simp_options := by exact zzN)",
    "simp_config": "by\n  zz_tac (simp_config := by exact zzN)",
}
DOTTED: dict[str, str] = {
    # name: a configuration item whose name is a field path, and whose value is a definition of the candidate's
    "a parent's field": "by\n  simp (toConfig.maxSteps := zzN)",
    "after another item": "by\n  simp +arith (toConfig.maxSteps := zzN)",
    "escaped": "by\n  simp («toConfig».maxSteps := zzN)",
}
DECLARED_DOTS: dict[str, tuple[str, str]] = {
    # name: (helpers, proof) where a leading-dot value names a helper of the candidate's
    "a dotted helper": ("def Nat.zzN : ℕ := 100000\n\n", "by\n  simp (maxSteps := .zzN)"),
    "a helper in namespace Nat": ("namespace Nat\ndef zzN : ℕ := 100000\nend Nat\n\n", "by\n  simp (maxSteps := .zzN)"),
    "applied": ("def Nat.zzF (n : ℕ) : ℕ := n\n\n", "by\n  simp (maxSteps := .zzF 5)"),
    "inside a whole configuration": ("def Nat.zzN : ℕ := 100000\n\n", "by\n  simp (config := { maxSteps := .zzN })"),
    "a root none overloading Option.none": ("def none : ℕ := 100000\n\n", "by\n  simp (maxSteps := none)"),
    "a root some": ("def some (n : ℕ) : ℕ := n\n\n", "by\n  simp (maxSteps := some 5)"),
    "a root true": ("def true : ℕ := 100000\n\n", "by\n  simp (maxSteps := true)"),
}
HONEST: dict[str, str] = {
    # name: a proof whose words look like the runners' or take their arguments, which G3 must leave alone
    "a qualified lemma named run_": "by\n  simp [StateT.run_bind, ReaderT.run_pure]",
    "a lemma with run in its name": "by\n  exact rerun_zz h",
    "a binder and an argument named run_": "by\n  intro run_count\n  exact foo run_count",
    "a field named run_ after a dot (Lean's rawIdent)": "by\n  exact (h).run_bind",
    "from_lrat of literals": 'by\n  have := from_lrat "p cnf 1 2  1 0  -1 0" "3 0 1 2 0"\n  simp',
    "success_if_fail_with_msg with a literal": 'by\n  success_if_fail_with_msg "no" simp\n  simp',
    "conv with ordinary tactics": "by\n  conv => lhs; rw [Nat.add_comm]\n  simp",
    "open Qq in a proof": "by\n  open Qq in simp",
    "a constructor by a leading dot, helpers named otherwise": "by\n  simp (config := { etaStruct := .all })",
    "a field path set to a literal": "by\n  simp (toConfig.maxSteps := 100000)",
    "Aesop's options as literals": "by\n  aesop (options := { maxRuleApplications := 200, terminal := true })",
}
TRIED = {
    "`set_option synthInstance.maxSize 1 in` glued to a helper": "G2: a trailing `... in` applies to the next command",
    "`set_option ... in section` / `open ... in section`": "G2: a prefixed block opener is no permitted addition",
    "`deriving` with arguments, `@[instance]`, `@`, trailing comma": "G2: read as a command of its own, refused",
    "`module` header, `public`/`meta` sections and modifiers": "G2: not in the header; modifiers not permitted",
    "`export`, `unif_hint`, `#guard_msgs`, `#check_failure`, `deriving instance`": "G2 and G3 refuse each",
    "`«elab»`, `«native_decide»`, `«sorry»` in `decreasing_by`": "G3 reads the escaped name's parts",
    "`private theorem <the theorem's name>`, the theorem in `mutual`": "G2: differs / `mutual` still open",
    "a namespace reopening `Nat` or `Set` with a helper": "G2: left to G6 (refused on the text profile)",
    "`set_option`/`open ... in`/a copy in a no-answer value": "the answer rules read through them (copies refused)",
    "a local attribute or instance in a section open at the theorem": "G2: the section must close before it",
    "`/-!` module doc inside a body": "Lean ends the command there; a known command word after it splits as anywhere",
    "a docstring with `{lean}` roles": "`doc.verso` is off on Lean 4.35 and not settable",
}


def _rules(proof: str, before: str = PURE) -> list[str]:
    return [v.rule for v in check_forbidden(f"{before}theorem zz : True := {proof}")]


@pytest.mark.parametrize("proof", sampled(RUNNERS, {"Mathlib's run_conv"}))
def test_every_runner_word_is_refused(proof: str) -> None:
    rules = _rules(proof)
    assert any(RUNNER in rule or META in rule for rule in rules), rules


@pytest.mark.parametrize("proof", sampled(ARGUMENT_RUNS, {"from_lrat of names"}))
def test_sat_certificates_computed_by_the_candidate_are_refused(proof: str) -> None:
    assert any(ARGUMENTS in rule for rule in _rules(proof)), proof


@pytest.mark.parametrize("proof", sampled(WHOLE_BY, {"Aesop's options"}))
def test_a_whole_configuration_made_by_a_tactic_block_is_refused(proof: str) -> None:
    assert any("compiled and run" in rule for rule in _rules(proof)), proof


@pytest.mark.parametrize("proof", sampled(DOTTED, {"a parent's field"}))
def test_a_configuration_item_named_by_a_field_path_is_read(proof: str) -> None:
    assert any("compiled and run" in rule for rule in _rules(proof)), proof


@pytest.mark.parametrize(
    ("helpers", "proof"), sampled(DECLARED_DOTS, {"a dotted helper", "a root none overloading Option.none"})
)
def test_a_leading_dot_name_the_candidate_declares_is_a_name(helpers: str, proof: str) -> None:
    rules = _rules(proof, before=PURE + helpers)
    assert any("compiled and run" in rule or "given whole" in rule for rule in rules), rules


def test_g2_leaves_the_dotted_helper_to_g6_on_the_full_profile(lean_putnambench: Benchmark) -> None:
    """Why G3 must read it: with G6 in the same acceptance, G2 admits a helper in ``Nat``."""
    helpers, proof = DECLARED_DOTS["a dotted helper"]
    challenge = LEAN_PROVER.challenge(lean_putnambench.problems[PUTNAM], Track.WITH_ANSWER)
    text = lean_filled(lean_putnambench, PUTNAM, proof=proof, before=helpers)
    assert check_preservation(challenge, text, Track.WITH_ANSWER, semantic=True) == []
    assert check_preservation(challenge, text, Track.WITH_ANSWER) != []


@pytest.mark.parametrize("proof", sampled(HONEST, {"a qualified lemma named run_"}))
def test_honest_look_alikes_pass_the_text_profile(minif2f: Benchmark, proof: str) -> None:
    assert check_forbidden(f"{PURE}theorem zz : True := {proof}") == []
    text = lean_filled(minif2f, MINIF2F, proof=proof, before=PURE)
    assert failures(lean_text_verdict(minif2f, MINIF2F, text)) == {}


def test_lrat_proof_takes_literals_only() -> None:
    assert check_forbidden('lrat_proof zzT "p cnf 1 2  1 0  -1 0" "3 0 1 2 0"') == []
    assert any(ARGUMENTS in v.rule for v in check_forbidden("lrat_proof zzT zzN zzN"))


def test_run_conv_is_refused_on_every_benchmark_and_track(
    lean_putnambench: Benchmark, minif2f: Benchmark, proofnet: Benchmark
) -> None:
    benches = (lean_putnambench, minif2f, proofnet)
    proof, clean = RUNNERS["Mathlib's run_conv"], "by\n  conv => lhs\n  simp"
    found = refused_on_every_track(benches, proof, clean, PURE)
    assert all(META in reason for reason in found), found


def test_the_prefilter_keeps_every_runner_word() -> None:
    """G3 reads only the texts its prefilter keeps: those holding a runner's prefix are kept exactly when
    ``_may_flag`` accepts them (a name part inside a word is not enough: ``rerun_zz`` is a name)."""
    words = POLICY.forbidden_words()
    texts = {"run_conv", "run_zz!", "by_elabq", "rerun_zz", "StateT.run_bind", "x.by_elab_zz", "run", "run_"}
    assert _flagged_texts(texts, words) == {t for t in texts if _may_flag(t, words)}
    assert {"run_conv", "run_zz!", "by_elabq"} <= _flagged_texts(texts, words)

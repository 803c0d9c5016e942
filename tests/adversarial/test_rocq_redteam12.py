r"""Red team, round 12 (Rocq): where the gates' reading of a candidate parted from Coq's.

1. **A command glued behind a bullet (``fast``).** At a sentence's start Coq's lexer reads a run of one of
   ``-``, ``+``, ``*`` as a bullet whatever follows it (``cLexer.ml``: ``process_sequence`` while
   ``between_commands``), so ``-#[local] Open Scope nat_scope.`` inside a helper's proof is a bullet and
   then ``Open Scope``, whose scope outlives the ``Qed`` (measured with coqc 8.16). The gates' lexer took
   ``-#`` for one symbol, so the sentence read as a tactic whose command was ``-#``: G2 never judged the
   ``Open``, and a statement ``3 - 5 = 0`` over ``Z`` (false) was proved in ``nat`` and ``accepted`` on
   the ``fast`` profile (G5 refused it on ``full``). Any command with an attribute could hide so
   (``#[global] Ltac ... ::=``, ``#[export] Set ...``, ``#[global] Hint ... : typeclass_instances``).
   The splitter now cuts such a token into Coq's bullets and the rest.
2. **Coquelicot's ``iota`` by its class field (no-answer, ``full``).** ``Hierarchy.iota P`` unfolds to
   ``CompleteSpace.lim _ (CompleteSpace.class T) (fun A => forall x, P x -> A x)``: the complete-space
   class's own limit of a filter. The answer check refused ``iota`` and ``lim`` by name but not the field,
   so ``putnam_X_solution := CompleteSpace.lim _ (CompleteSpace.class R_CompleteSpace) (fun A => forall
   x, x * x = 4 /\ 0 < x -> A x)`` ("the x with the property", proved by ``iota_unique``) was
   ``accepted`` with the answer record ``unknown``. The field, the class's constructor (a ``match`` on
   ``CompleteSpace.Mixin``) and its recursors are refused now, and so are mathcomp's ``xget`` under other
   names (``fun_of_rel f0 f x := xget (f0 x) (f x)``, ``pblock_index``).
3. **ssreflect's ``Prenex Implicits`` inside a helper's proof.** It makes a constant's implicit arguments
   maximal, as ``Arguments`` would, and outlives the ``Qed`` (measured); G2 read it as a tactic. It is
   now judged as the other elaborating commands in proofs (only the ``full`` profile accepts it before
   the theorem).
4. **The question restated classically (no-answer, ``full``).** The restated-answer check proved the
   pinned theorem from the answer by intuitionistic logic only (``tauto``), so the condition copied with
   De Morgan's laws or a double negation (``fun n => ~ (n * n <> 4 \/ ~ n > 0)`` for ``n * n = 4 /\ n >
   0 <-> solution n``) was not seen as a copy, and a proof by case analysis was ``accepted`` with the answer
   check ``unknown``. The check now also tries ``apply NNPP; tauto`` (Glivenko: a classical propositional
   tautology's double negation is an intuitionistic one), with ``Classical_Prop`` loaded, never imported.
5. **The question restated under a quantifier (no-answer, ``full``).** ``fun n => exists m, m = n /\
   cond m`` or ``fun n => forall m, m = n -> cond m`` is the condition itself, but neither ``tauto`` nor
   ``intuition congruence`` instantiates a quantifier: ``accepted``, answer check ``unknown``.
   (``firstorder congruence`` refuses both, but on 9 of the 29 official predicate answers its failed
   search outlasts the step's 20 s.) Fixed by red team 13: the one-point rule, as rewrites of the
   harness's that always end, takes the copy out before the logic step.
6. **A package's value under ssreflect's name (no-answer, ``full``).** The answer check refuses taking a
   value out of a proof-carrying package by ``proj1_sig``/``projT1`` or a match on its constructor,
   whatever made the package; ssreflect's ``tag`` (``:= projT1``), ``tag2`` and ``s2val`` are the same
   projections under other names. ``ssrfun.tag (sigT_of_sig (completeness E hb he))`` answered "the least
   upper bound of ``x < 1``" by the reals' completeness lemma, proved by ``proj2_sig`` of the same package:
   ``accepted``, answer check ``unknown``. The three are refused now.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq.syntax import sentences
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import failures, needs_coq, one_record_benchmark

Z_HEADER = "Require Import ZArith.\nOpen Scope Z_scope.\n"
Z_FALSE = Z_HEADER + "Theorem t : 3 - 5 = 0.\nProof. Admitted.\n"
"""False over ``Z`` (``3 - 5`` is ``-2``), true over ``nat``."""


def _verdict(tmp_path: Path, statement: str, candidate: str, profile: Profile) -> Verdict:
    bench = one_record_benchmark(tmp_path, "t", statement)
    options = VerifyOptions(profile=profile, keep_going=True)
    return run_gates(get_prover("rocq"), bench, bench.problems["t"], candidate.encode(), Track.WITH_ANSWER, options)


def _glued_scope(bullet: str) -> str:
    return (
        Z_HEADER
        + "Lemma zz_h : True /\\ True.\nProof. split.\n"
        + f"{bullet}#[local] Open Scope nat_scope. exact I.\n- exact I.\nQed.\n"
        + "Theorem t : 3 - 5 = 0.\nProof. reflexivity. Qed.\n"
    )


@pytest.mark.parametrize("bullet", ["-", "*", "+", "--", "-*+"])
def test_a_command_glued_to_a_bullet_is_its_own_sentence(bullet: str) -> None:
    text = f"Proof. split.\n{bullet}#[local] Open Scope nat_scope. exact I.\n"
    read = [s.command for s in sentences(text)]
    assert "Open" in read
    assert all(c in ("Proof", "split", "Open", "exact") or set(c) <= set("-+*") for c in read)


@needs_coq
def test_a_scope_opened_behind_a_glued_bullet_is_refused_on_fast(tmp_path: Path) -> None:
    verdict = _verdict(tmp_path, Z_FALSE, _glued_scope("-"), Profile.FAST)
    assert verdict.status != "accepted"
    assert "Open Scope nat_scope" in failures(verdict)["G2"]


@needs_coq
def test_glued_bullets_in_a_sound_proof_still_pass(tmp_path: Path) -> None:
    statement = Z_HEADER + "Theorem t : 3 - 5 = -2 /\\ True.\nProof. Admitted.\n"
    candidate = Z_HEADER + "Theorem t : 3 - 5 = -2 /\\ True.\nProof. split.\n-reflexivity.\n-*exact I.\nQed.\n"
    verdict = _verdict(tmp_path, statement, candidate, Profile.FAST)
    assert verdict.status == "accepted", failures(verdict)
    assert all(g.status is GateStatus.PASSED for g in verdict.gates)


ROOT_THEOREM = (
    "Theorem putnam_2000_a1 : putnam_2000_a1_solution * putnam_2000_a1_solution = 4\n"
    "  /\\ 0 < putnam_2000_a1_solution.\n"
)
COQUELICOT = "Require Import Reals Lra Coquelicot.Coquelicot.\nOpen Scope R_scope.\n"
ROOT_STATEMENT = COQUELICOT + "Definition putnam_2000_a1_solution : R := 2.\n" + ROOT_THEOREM + "Proof. Admitted.\n"
PROPERTY = "(fun A => forall x : R, x * x = 4 /\\ 0 < x -> A x)"
CHOSEN = {
    "the class's field": f"CompleteSpace.lim _ (CompleteSpace.class R_CompleteSpace) {PROPERTY}",
    "a match on its constructor": (
        "match CompleteSpace.mixin _ (CompleteSpace.class R_CompleteSpace) with CompleteSpace.Mixin l _ _ => l end "
        + PROPERTY
    ),
}


def _root(answer: str, by_iota: bool) -> str:
    proof = (
        "  assert (E : putnam_2000_a1_solution = 2).\n"
        "  { change putnam_2000_a1_solution with (@iota R_CompleteNormedModule (fun x : R => x * x = 4 /\\ 0 < x)).\n"
        "    apply iota_unique; [| split; lra]. intros y [Hy Hp]. nra. }\n"
        "  rewrite E. split; lra.\n"
        if by_iota
        else "  unfold putnam_2000_a1_solution. split; lra.\n"
    )
    return (
        COQUELICOT + f"Definition putnam_2000_a1_solution : R := {answer}.\n" + ROOT_THEOREM + f"Proof.\n{proof}Qed.\n"
    )


def _no_answer(tmp_path: Path, candidate: str) -> Verdict:
    bench = one_record_benchmark(tmp_path, "putnam_2000_a1", ROOT_STATEMENT)
    options = VerifyOptions(profile=Profile.FULL, keep_going=True)
    problem = bench.problems["putnam_2000_a1"]
    return run_gates(get_prover("rocq"), bench, problem, candidate.encode(), Track.NO_ANSWER, options)


@needs_coq
@pytest.mark.parametrize("spelling", sorted(CHOSEN))
def test_coquelicots_iota_by_its_class_field_is_refused_by_g4(tmp_path: Path, spelling: str) -> None:
    verdict = _no_answer(tmp_path, _root(CHOSEN[spelling], by_iota=True))
    assert verdict.status != "accepted"
    assert "picks a value by choice" in failures(verdict)["G4"]
    assert "G5" not in failures(verdict)  # the proof itself is sound: only the answer is refused


@needs_coq
def test_the_root_stated_outright_is_accepted(tmp_path: Path) -> None:
    verdict = _no_answer(tmp_path, _root("2", by_iota=False))
    assert verdict.status == "accepted", failures(verdict)


def test_prenex_implicits_in_a_helper_proof_needs_the_statement_check(tmp_path: Path) -> None:
    header = "From mathcomp Require Import ssreflect ssrfun ssrbool.\n"
    statement = header + "Theorem t : True.\nProof. Admitted.\n"
    helper = "Lemma zz_h : True.\nProof. Prenex Implicits zz_f. exact I. Qed.\n"
    candidate = header + helper + "Theorem t : True.\nProof. exact I. Qed.\n"
    verdict = _verdict(tmp_path, statement, candidate, Profile.TEXT)
    assert "Prenex Implicits zz_f" in failures(verdict)["G2"]
    sound = header + "Lemma zz_h : True.\nProof. exact I. Qed.\n" + "Theorem t : True.\nProof. exact I. Qed.\n"
    assert _verdict(tmp_path, statement, sound, Profile.TEXT).status == "accepted"


NAT_HEADER = "Require Import Arith.\n"
NAT_SOLUTION = "Definition putnam_2000_a1_solution : nat -> Prop := fun n => {answer}.\n"
NAT_THEOREM = "Theorem putnam_2000_a1 : forall n : nat, (n * n = 4 /\\ n > 0) <-> putnam_2000_a1_solution n.\n"
NAT_STATEMENT = NAT_HEADER + NAT_SOLUTION.format(answer="n = 2") + NAT_THEOREM + "Proof. Admitted.\n"
LOGICAL_COPIES = {
    "De Morgan": (
        "~ (n * n <> 4 \\/ ~ n > 0)",
        "  intro n. unfold putnam_2000_a1_solution. split.\n"
        "  - intros [h1 h2] [h | h]; contradiction.\n"
        "  - intro h. destruct (Nat.eq_dec (n * n) 4) as [e | e]; [| exfalso; apply h; left; exact e].\n"
        "    destruct (le_lt_dec n 0) as [l | l]; [exfalso; apply h; right; lia | split; assumption].\n",
    ),
    "double negation": (
        "~ ~ (n * n = 4 /\\ n > 0)",
        "  intro n. unfold putnam_2000_a1_solution. split; [tauto |].\n"
        "  intro h. destruct (Nat.eq_dec (n * n) 4) as [e | e]; [| exfalso; tauto].\n"
        "  destruct (le_lt_dec n 0) as [l | l]; [exfalso; apply h; intros [_ g]; lia | split; assumption].\n",
    ),
}


def _nat_verdict(tmp_path: Path, answer: str, proof: str) -> Verdict:
    bench = one_record_benchmark(tmp_path, "putnam_2000_a1", NAT_STATEMENT)
    candidate = (
        NAT_HEADER
        + "Require Import Lia.\n"
        + NAT_SOLUTION.format(answer=answer)
        + NAT_THEOREM
        + f"Proof.\n{proof}Qed.\n"
    )
    options = VerifyOptions(profile=Profile.FULL, keep_going=True)
    problem = bench.problems["putnam_2000_a1"]
    return run_gates(get_prover("rocq"), bench, problem, candidate.encode(), Track.NO_ANSWER, options)


@needs_coq
@pytest.mark.parametrize("copy", sorted(LOGICAL_COPIES))
def test_the_question_restated_by_logic_alone_is_refused_by_g4(tmp_path: Path, copy: str) -> None:
    verdict = _nat_verdict(tmp_path, *LOGICAL_COPIES[copy])
    assert verdict.status != "accepted"
    assert "restates the question" in failures(verdict)["G4"]
    assert "G5" not in failures(verdict)


@needs_coq
def test_the_answer_itself_still_passes_the_logic_check(tmp_path: Path) -> None:
    proof = (
        "  intro n. unfold putnam_2000_a1_solution. split.\n"
        "  - intros [h1 h2]. destruct (le_lt_dec n 2) as [l | l]; nia.\n"
        "  - intros ->. split; [reflexivity | lia].\n"
    )
    verdict = _nat_verdict(tmp_path, "n = 2", proof)
    assert verdict.status == "accepted", failures(verdict)


QUANTIFIED_COPIES = {
    "an existential witness": (
        "exists m, m = n /\\ (m * m = 4 /\\ m > 0)",
        "  intro n. unfold putnam_2000_a1_solution. split.\n"
        "  - intro h. exists n. split; [reflexivity | exact h].\n"
        "  - intros [m [-> h]]. exact h.\n",
    ),
    "a universal over equals": (
        "forall m, m = n -> (m * m = 4 /\\ m > 0)",
        "  intro n. unfold putnam_2000_a1_solution. split.\n"
        "  - intros h m ->. exact h.\n"
        "  - intro h. exact (h n eq_refl).\n",
    ),
    "the equation turned, among conjuncts": (
        "exists m, (m * m = 4 /\\ n = m) /\\ m > 0",
        "  intro n. unfold putnam_2000_a1_solution. split.\n"
        "  - intros [h1 h2]. exists n. tauto.\n"
        "  - intros [m [[h1 ->] h2]]. tauto.\n",
    ),
    "the equation among premises": (
        "forall m, (m = m /\\ n = m) -> (m * m = 4 /\\ m > 0)",
        "  intro n. unfold putnam_2000_a1_solution. split.\n"
        "  - intros h m [_ ->]. exact h.\n"
        "  - intro h. exact (h n (conj eq_refl eq_refl)).\n",
    ),
}
"""The condition under a quantifier over equals, the equation either way round and anywhere among the
conjuncts or premises: the one-point rule takes it out before the logic step."""


@needs_coq
@pytest.mark.parametrize("copy", sorted(QUANTIFIED_COPIES))
def test_the_question_restated_under_a_quantifier_is_refused_by_g4(tmp_path: Path, copy: str) -> None:
    verdict = _nat_verdict(tmp_path, *QUANTIFIED_COPIES[copy])
    assert verdict.status != "accepted"
    assert "restates the question" in failures(verdict)["G4"]


@needs_coq
def test_an_honest_answer_under_a_quantifier_over_equals_still_passes(tmp_path: Path) -> None:
    proof = (
        "  intro n. unfold putnam_2000_a1_solution. split.\n"
        "  - intros [h1 h2]. exists 2. split; [reflexivity |]. destruct (le_lt_dec n 2) as [l | l]; nia.\n"
        "  - intros [m [-> ->]]. split; [reflexivity | lia].\n"
    )
    verdict = _nat_verdict(tmp_path, "exists m, m = 2 /\\ n = m", proof)
    assert verdict.status == "accepted", failures(verdict)


LUB_STATEMENT = (
    "Require Import Reals.\nOpen Scope R_scope.\n"
    "Definition putnam_2000_a1_solution : R := 1.\n"
    "Theorem putnam_2000_a1 : is_lub (fun x => x < 1) putnam_2000_a1_solution.\nProof. Admitted.\n"
)
COMPLETENESS = (
    "(completeness (fun x => x < 1)\n"
    "  (ex_intro (fun m => is_upper_bound (fun x => x < 1) m) 1 (fun x (h : x < 1) => Rlt_le _ _ h))\n"
    "  (ex_intro (fun x => x < 1) 0 Rlt_0_1))"
)


def _lub_verdict(tmp_path: Path, answer: str, proof: str) -> Verdict:
    bench = one_record_benchmark(tmp_path, "putnam_2000_a1", LUB_STATEMENT)
    candidate = (
        "Require Import Reals.\nFrom Coq Require ssrfun.\nRequire Import Lra.\nOpen Scope R_scope.\n"
        f"Definition putnam_2000_a1_solution : R := {answer}.\n"
        "Theorem putnam_2000_a1 : is_lub (fun x => x < 1) putnam_2000_a1_solution.\n"
        f"Proof.\n{proof}\nQed.\n"
    )
    options = VerifyOptions(profile=Profile.FULL, keep_going=True)
    problem = bench.problems["putnam_2000_a1"]
    return run_gates(get_prover("rocq"), bench, problem, candidate.encode(), Track.NO_ANSWER, options)


@needs_coq
def test_a_package_value_under_ssreflects_name_is_refused_by_g4(tmp_path: Path) -> None:
    verdict = _lub_verdict(tmp_path, f"ssrfun.tag (sigT_of_sig {COMPLETENESS})", f"exact (proj2_sig {COMPLETENESS}).")
    assert verdict.status != "accepted"
    assert "picks a value by choice (`ssrfun.tag`)" in failures(verdict)["G4"]
    assert "G5" not in failures(verdict)


@needs_coq
def test_the_least_upper_bound_stated_outright_is_accepted(tmp_path: Path) -> None:
    proof = (
        "unfold putnam_2000_a1_solution. split.\n"
        "- intros x h. left. exact h.\n"
        "- intros b hb. destruct (Rle_or_lt 1 b) as [l | l]; [exact l |].\n"
        "  exfalso. assert (hm : (b + 1) / 2 <= b) by (apply hb; lra). lra."
    )
    verdict = _lub_verdict(tmp_path, "1", proof)
    assert verdict.status == "accepted", failures(verdict)

"""Red team, round 10 (Rocq): yes/no answers Coq types by itself, and the statement's own ``let``-bound fixpoints.

1. **A yes/no answer without a type, or inside a pair.** On no-answer a yes/no answer must be a truth value
   (round 6): the question restated as its answer makes the theorem ``Q <-> Q``. G4 decided only solutions
   written ``Definition X_solution : Prop := ...``; PutnamBench also has ``Definition
   putnam_2012_b4_solution := True.`` (``1981_b5``, ``1996_b4``: Coq infers ``Prop``), ``(True, -1, True,
   0)`` (``1987_b4``) and ``: Prop * Prop`` (``1988_a4``). With the question restated
   (``ex_finite_lim_seq`` of the same sequence, written with ``nat_rect``) ``putnam_2012_b4`` was
   ``accepted`` on the full profile (with ``--allow-recursion``; without it only finding 2 hid it). G4 now
   decides every such answer, and every ``Prop`` factor of a pair, read from the answer's type by Coq.
2. **The statement's own fixpoint in the theorem (a false rejection).** A theorem binder ``(A := fix a
   (n : nat) : R := ...)`` (29 PutnamBench statements) is a ``let`` in the theorem's type and, after
   ``intros``, in every proof: G5's recursion check saw a ``fix`` in the candidate's theorem and refused
   every proof of those statements on Coq 8.16 as "recursion of its own". The check now sets aside each
   binder the pinned theorem has, text for text (``statement_fixes.py``); a fixpoint of the candidate's
   own beside it is still refused.
3. **The question's integral (series, limit) copied as the answer.** ``putnam_1984_a5`` asks for ``RInt (...) 0
   1``; the answer ``RInt (...) 0 1`` made the theorem ``eq_refl`` and was ``accepted`` on the full profile
   (answer check ``unknown``). About 45 PutnamBench Rocq theorems equate an integral, series, limit or
   derivative with the solution. As Lean's G2 refuses the extremal operators (``sInf``, ``sSup``), G4 now
   refuses an answer whose kernel term names such an operator of the installed libraries (Coquelicot's
   ``RInt``, ``Series``, ``Lim_seq``, ``Derive``..., Coq's ``derive``, ``RiemannInt``, mathcomp-analysis's
   ``sup``, ``lim_in``, ``integral``...): no official answer uses one.
4. **A statement word declared by a tactic given the name.** Round 9 made G2 read ``transparent_abstract ...
   using RInt``; ``Tactic Notation "zz_mk" ident(n) := transparent_abstract (exact ...) using n.`` and then
   ``zz_mk RInt.`` (or ``let n := fresh "RInt" in ... using n``) declares ``Candidate.RInt`` with no
   ``using RInt`` in the text, and ``putnam_2003_b6`` (``0 >= 0``) was ``accepted`` on the ``fast`` profile
   (G5 refuses it on ``full``). G2 now takes a tactic whose ``using`` name is computed for class 2 (G5
   decides), and where no G5 follows, G4 reads the compiled module's constants (``declared.py``): one
   named like a word of the statement that the statement does not declare is refused, however declared.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq.answer_env import yes_no_answer
from putnam_solver.core.provers.rocq.compile import compile_gate
from putnam_solver.core.provers.rocq.policy import POLICY
from putnam_solver.core.provers.rocq.statement import statement_gate
from putnam_solver.core.provers.rocq.statement_fixes import free_words, only_statement_fixpoints, statement_binders
from putnam_solver.core.provers.rocq.statement_shape import parse_statement
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, run_gates
from putnam_solver.verifier.options import GateFlags
from tests.helpers import (
    COQ_BENCH,
    ROCQ_SAMPLES,
    failures,
    needs_coq,
    one_record_benchmark,
    rocq_full_verdict,
    rocq_submission,
)

NOT_A_TRUTH_VALUE = "not a truth value"

B4_QUESTION = (
    "ex_finite_lim_seq (fun n => nat_rect (fun _ => R) 1 (fun _ a => a + Rpower (exp 1) ((-1) * a)) n - ln (INR n))"
)
B4_RESTATED = f"""Require Import Reals Coquelicot.Lim_seq.
Open Scope R.
Definition putnam_2012_b4_solution := {B4_QUESTION}.
Theorem putnam_2012_b4
    (A := fix a (n: nat) : R :=
        match n with
        | O => 1
        | S n' => a n' + Rpower (exp 1) ((-1) * a n')
    end)
    (B : nat -> R := fun n => A n - ln (INR n))
    : ex_finite_lim_seq B <-> putnam_2012_b4_solution.
Proof.
  assert (HA : forall n, A n = nat_rect (fun _ => R) 1 (fun _ a => a + Rpower (exp 1) ((-1) * a)) n).
  {{ induction n as [|n IH]; [reflexivity|]. simpl. rewrite <- IH. reflexivity. }}
  unfold putnam_2012_b4_solution.
  split; intros [l Hl]; exists l; revert Hl; apply is_lim_seq_ext; intros n; unfold B; rewrite ?HA; reflexivity.
Qed.
"""
"""``putnam_2012_b4`` (the official answer ``True``) answered with its question, the same sequence written
with the library recursor ``nat_rect``: the theorem is then the question's equivalence with itself."""

PAIR_STATEMENT = """Require Import Arith.
Definition t_solution := (True, 2, False).
Theorem t
    : let '(a, n, b) := t_solution in
      (a <-> forall k : nat, k + 0 = k) /\\ n = 2 /\\ (b <-> forall k : nat, k + 1 = k).
Proof. Admitted.
"""
"""Two yes/no answers and a number in one untyped solution, as ``putnam_1987_b4`` has them."""
PAIR_SOUND = PAIR_STATEMENT.replace(
    "Proof. Admitted.\n",
    """Proof.
  simpl. split; [|split; [reflexivity|]].
  - split; intros _; [intros k; apply Nat.add_0_r | exact I].
  - split; [intros []|]. intros H. specialize (H 0). discriminate H.
Qed.
""",
)
PAIR_RESTATED = PAIR_STATEMENT.replace(
    "(True, 2, False)", "(forall k : nat, k + 0 = k, 2, forall k : nat, k + 1 = k)"
).replace("Proof. Admitted.\n", "Proof.\n  simpl. split; [reflexivity | split; reflexivity].\nQed.\n")

LET_FIX_STATEMENT = """Theorem t
    (f := fix g (n : nat) : nat := match n with O => O | S k => g k end)
    : f 3 = 0 /\\ forall n, f n = 0.
Proof. Admitted.
"""
"""A theorem binder holding the statement's own fixpoint (as 29 PutnamBench statements have)."""
LET_FIX_SOUND = LET_FIX_STATEMENT.replace(
    "Proof. Admitted.\n",
    "Proof.\n  intros. split; [reflexivity|].\n  induction n as [|n IH]; [reflexivity|]. simpl. exact IH.\nQed.\n",
)


A5_INTEGRAL = (
    "RInt (fun z => RInt (fun y => RInt (fun x => x * pow y 9 * pow z 8 * pow (1 - x - y - z) 4) 0 (1 - y - z)) "
    "0 (1 - z)) 0 1"
)
A5_COPIED = f"""Require Import Reals Factorial Coquelicot.Coquelicot.
Open Scope R.
Definition putnam_1984_a5_solution := {A5_INTEGRAL}.
Theorem putnam_1984_a5
    : {A5_INTEGRAL} = putnam_1984_a5_solution.
Proof. reflexivity. Qed.
"""
INTEGRAL_STATEMENT = """Require Import Reals Coquelicot.Coquelicot.
Open Scope R.
Definition t_solution := 1.
Theorem t : RInt (fun _ => 1) 0 1 = t_solution.
Proof. Admitted.
"""
INTEGRAL_SOUND = INTEGRAL_STATEMENT.replace(
    "Proof. Admitted.",
    "Proof.\n  unfold t_solution. rewrite RInt_const. unfold scal; simpl; unfold mult; simpl. ring.\nQed.",
)


def _full(
    bench_path: Path, candidate: str, track: Track, allow_recursion: bool = False, problem: str = "putnam_2012_b4"
) -> Verdict:
    bench = load_benchmark(bench_path)
    options = GateFlags(profile=Profile.FULL, allow_recursion=allow_recursion, keep_going=True).options()
    return run_gates(get_prover("rocq"), bench, bench.problems[problem], candidate.encode(), track, options)


@pytest.mark.parametrize(
    ("solution", "yes_no"),
    [
        ("Definition t_solution : Prop := True.", True),
        ("Definition t_solution := True.", True),
        ("Definition t_solution := (True, -1, True, 0).", True),
        ("Definition t_solution : Prop * Prop := (True, False).", True),
        ("Definition t_solution := 3.", False),
        ("Definition t_solution := (fun n => n, 2).", False),
        ("Definition t_solution : R -> R -> Prop := fun _ _ => True.", False),
        ("Definition t_solution (n : nat) : Prop := True.", False),
        ("Definition t_solution : bool := true.", False),
    ],
)
def test_yes_no_answers_are_read_with_and_without_a_type(solution: str, yes_no: bool) -> None:
    statement = parse_statement(f"{solution}\nTheorem t : t_solution.\nProof. Admitted.\n", "t")
    assert yes_no_answer(statement) is yes_no


@needs_coq
@pytest.mark.parametrize("allow_recursion", [False, True])
def test_an_untyped_yes_no_question_restated_as_its_answer_is_refused_by_g4(allow_recursion: bool) -> None:
    """The pinned ``putnam_2012_b4`` was ``accepted`` with its question as the answer (``--allow-recursion``)."""
    verdict = _full(COQ_BENCH, B4_RESTATED, Track.NO_ANSWER, allow_recursion)
    failing = failures(verdict)
    assert not verdict.accepted
    assert set(failing) == {"G4"} and NOT_A_TRUTH_VALUE in failing["G4"], failing


@needs_coq
def test_a_restated_yes_no_factor_of_a_pair_is_refused_and_decided_answers_pass(tmp_path: Path) -> None:
    bench = one_record_benchmark(tmp_path, "t", PAIR_STATEMENT)
    restated = rocq_full_verdict(bench, "t", PAIR_RESTATED, Track.NO_ANSWER)
    assert not restated.accepted
    assert NOT_A_TRUTH_VALUE in failures(restated).get("G4", ""), failures(restated)
    sound = rocq_full_verdict(bench, "t", PAIR_SOUND, Track.NO_ANSWER)
    assert sound.accepted, failures(sound)


@needs_coq
def test_a_proof_of_a_statement_with_a_let_bound_fixpoint_is_accepted(tmp_path: Path) -> None:
    """Every sound proof was refused by G5 as recursion of the candidate's own (a false rejection)."""
    bench = one_record_benchmark(tmp_path, "t", LET_FIX_STATEMENT)
    verdict = rocq_full_verdict(bench, "t", LET_FIX_SOUND)
    assert verdict.accepted, failures(verdict)


OWN_FIXPOINTS = {
    "a fixpoint of its own": "pose (fix h (n : nat) : nat := n) as h.",
    "the statement's fixpoint under another name": (
        "pose (fix g (n : nat) : nat := match n with O => O | S k => g k end) as h."
    ),
    "the statement's fixpoint changed": (
        "pose (fix g (n : nat) : nat := match n with O => O | S k => S (g k) end) as h."
    ),
}


@needs_coq
@pytest.mark.parametrize("name", sorted(OWN_FIXPOINTS))
def test_a_fixpoint_of_the_candidates_own_beside_the_statements_is_refused_by_g5(tmp_path: Path, name: str) -> None:
    """G5 alone (G3 refuses the word first): the statement's binder is set aside, nothing else."""
    bench = one_record_benchmark(tmp_path, "t", LET_FIX_STATEMENT)
    candidate = LET_FIX_SOUND.replace("intros. split;", f"intros. {OWN_FIXPOINTS[name]} split;")
    sub = rocq_submission(bench, "t", candidate, Track.WITH_ANSWER, options=GateFlags(profile=Profile.FULL).options())
    try:
        result = statement_gate(sub)
    finally:
        sub.scratch_dir.cleanup()
    assert result.status is GateStatus.FAILED and "contain a fixpoint" in result.detail, result.detail


PRISTINE = (
    "*** [ t : forall a : forall _ : nat, R, let A : forall _ : nat, R := fix g (n : nat) : R := "
    "match n return R with | O => a O | S k => Rplus (g k) (a n) end in "
    "let B : forall _ : nat, R := fun n : nat => let z : R := A n in Rmult z z in @eq R (B O) (a O) ]"
)


def test_only_whole_binders_of_the_pinned_theorem_are_set_aside() -> None:
    ((binder, uses),) = statement_binders(PRISTINE)
    assert binder.text.startswith("let A : forall _ : nat , R := fix g") and binder.text.endswith("end in")
    assert uses == []
    body = f"t = fun a : forall _ : nat, R => {binder.text} @eq_refl R (a O)\n : {PRISTINE[6:-2]}"
    assert only_statement_fixpoints(body, PRISTINE)
    assert not only_statement_fixpoints(body.replace("(g k)", "(g n)", 1), PRISTINE)
    assert not only_statement_fixpoints(body.replace("let A :", "let A0 :", 1), PRISTINE)
    # a free word of the value bound by a `let` of the candidate's (here the global `Rplus`) is another term
    shadowed = body.replace("@eq_refl R (a O)", "let Rplus : R := R0 in @eq_refl R (a O)")
    assert not only_statement_fixpoints(shadowed, PRISTINE)
    assert only_statement_fixpoints(body.replace("@eq_refl R (a O)", "let k : R := R0 in @eq_refl R (a O)"), PRISTINE)
    assert free_words("fix g (n : nat) : R := match n return R with | S k => Rplus (g k) (a n) end") >= {
        "Rplus",
        "a",
        "S",
    }
    # a value that names another `let` binder of the statement: the candidate must bind it to the same value
    bound = PRISTINE.replace("forall a : forall _ : nat, R,", "let a : forall _ : nat, R := fun _ => R0 in")
    ((binder, uses),) = statement_binders(bound)
    assert [use.name for use in uses] == ["a"]
    same = f"t = {uses[0].text} {binder.text} @eq_refl R (a O)\n : {bound[6:-2]}"
    assert only_statement_fixpoints(same, bound)
    assert not only_statement_fixpoints(same.replace("fun _ => R0 in", "fun _ => R1 in", 1), bound)
    # `let fix x ... in`: a binder named as its fixpoint
    fixed = "*** [ t : let fix x (n : nat) : R := match n return R with | O => R0 | S k => x k end in @eq R (x O) R0 ]"
    ((binder, _),) = statement_binders(fixed)
    assert binder.name == "x" and only_statement_fixpoints(f"t = {binder.text} @eq_refl R R0 : {fixed[6:-2]}", fixed)
    # a value whose end cannot be read is never set aside
    assert statement_binders(PRISTINE.replace(" end in", " in")) == []


@needs_coq
def test_the_questions_integral_copied_as_the_answer_is_refused_by_g4() -> None:
    """The pinned ``putnam_1984_a5`` was ``accepted`` with its own integral as the answer, by ``reflexivity``."""
    verdict = _full(COQ_BENCH, A5_COPIED, Track.NO_ANSWER, problem="putnam_1984_a5")
    failing = failures(verdict)
    assert not verdict.accepted
    assert set(failing) == {"G4"} and "`RInt.RInt`" in failing["G4"], failing


@needs_coq
def test_an_integral_answered_with_its_value_is_accepted_and_with_itself_refused(tmp_path: Path) -> None:
    bench = one_record_benchmark(tmp_path, "t", INTEGRAL_STATEMENT)
    sound = rocq_full_verdict(bench, "t", INTEGRAL_SOUND, Track.NO_ANSWER)
    assert sound.accepted, failures(sound)
    copied = INTEGRAL_STATEMENT.replace(":= 1.", ":= RInt (fun _ => 1) 0 1.").replace(
        "Proof. Admitted.", "Proof. reflexivity. Qed."
    )
    refused = rocq_full_verdict(bench, "t", copied, Track.NO_ANSWER)
    assert not refused.accepted and "`RInt.RInt`" in failures(refused).get("G4", ""), failures(refused)


def test_the_limit_operators_are_library_constants_no_official_answer_uses() -> None:
    """Each listed operator is a full name (its library and file), and no pinned official answer names one."""
    bench = load_benchmark(COQ_BENCH)
    bare = {name.rsplit(".", 1)[1] for name in POLICY.answer_limit_operators}
    assert all(name.count(".") >= 2 for name in POLICY.answer_limit_operators)
    for problem in bench.problems.values():
        statement = parse_statement(problem.formal_statement, problem.id)
        if statement.solution is None:
            continue
        sentence = statement.sentences[statement.solution]
        assert not bare & set(sentence.words), problem.id


NAMED_BY_TACTIC = {
    "tactic notation": (
        'Tactic Notation "zz_mk" ident(zz_n) := transparent_abstract (exact (fun _ _ _ => 0%R)) using zz_n.\n'
        "Definition zz_h : (R -> R) -> R -> R -> R.\nProof. zz_mk RInt. Defined.\n\n"
    ),
    "fresh": (
        "Definition zz_h : (R -> R) -> R -> R -> R.\n"
        'Proof. let zz_n := fresh "RInt" in transparent_abstract (exact (fun _ _ _ => 0%R)) using zz_n. Defined.\n\n'
    ),
}


def _b6(helper: str) -> str:
    """``putnam_2003_b6`` with ``helper`` before its theorem, proved as ``0 >= 0`` (``RInt`` the helper's)."""
    text = load_benchmark(COQ_BENCH).problems["putnam_2003_b6"].formal_statement
    text = text.replace("Theorem putnam_2003_b6", helper + "Theorem putnam_2003_b6")
    return text.replace("Proof. Admitted.", "Proof. intros. apply Rge_refl. Qed.")


@needs_coq
@pytest.mark.parametrize("how", sorted(NAMED_BY_TACTIC))
@pytest.mark.parametrize("profile", [Profile.TEXT, Profile.FAST, Profile.FULL])
def test_a_statement_word_declared_by_a_tactic_given_the_name_is_refused(how: str, profile: Profile) -> None:
    bench = load_benchmark(COQ_BENCH)
    options = GateFlags(profile=profile, keep_going=True).options()
    candidate = _b6(NAMED_BY_TACTIC[how]).encode()
    verdict = run_gates(
        get_prover("rocq"), bench, bench.problems["putnam_2003_b6"], candidate, Track.WITH_ANSWER, options
    )
    failing = failures(verdict)
    assert not verdict.accepted, failing
    if profile is not Profile.FULL:
        assert "names it is given" in failing["G2"], failing
    if profile is Profile.FAST:
        assert "`RInt`" in failing["G4"], failing


@needs_coq
def test_g4_reads_the_declared_constants_by_meaning_where_no_g5_follows() -> None:
    """G4 alone, on what G2 refuses first: the compiled module declares ``RInt``."""
    bench = load_benchmark(COQ_BENCH)
    candidate = _b6(NAMED_BY_TACTIC["tactic notation"])
    sub = rocq_submission(bench, "putnam_2003_b6", candidate, options=GateFlags(profile=Profile.FAST).options())
    try:
        result = compile_gate(sub)
    finally:
        sub.scratch_dir.cleanup()
    assert result.status is GateStatus.FAILED and "`RInt`" in result.detail, result.detail


@needs_coq
def test_constants_declared_by_tactics_under_names_of_their_own_pass_fast() -> None:
    helper = (
        "Lemma zz_h : nat.\nProof. transparent_abstract (exact 2) using zz_two. Defined.\n"
        "Lemma zz_k : nat.\nProof. abstract (exact 3). Defined.\n\n"
    )
    statement = load_benchmark(ROCQ_SAMPLES).problems["sample_even_square"].formal_statement
    candidate = statement.replace("Theorem", helper + "Theorem").replace(
        "Proof. Admitted.", "Proof.\n  rewrite Nat.even_mul. destruct (Nat.even n); reflexivity.\nQed."
    )
    bench = load_benchmark(ROCQ_SAMPLES)
    options = GateFlags(profile=Profile.FAST, keep_going=True).options()
    verdict = run_gates(
        get_prover("rocq"), bench, bench.problems["sample_even_square"], candidate.encode(), Track.WITH_ANSWER, options
    )
    assert verdict.accepted, failures(verdict)

"""Red team, round 9 (Rocq): a space Coq does not read as one, tactic redefinitions, and timed-out answers.

1. **A no-break space is an identifier character to Coq 8.16.** The gates' lexer took every ``str.isspace``
   character for a blank; Coq's blanks are space, tab, line feed and carriage return, and U+00A0 is part
   of an identifier (``Definition a\\u00a0b := I.`` defines ``a b``). So ``Nat.even (n\\u00a0* n) = Nat.even n``
   had exactly the challenge's tokens for G2, while coqc read ``n\\u00a0``, a global the
   candidate declared (``transparent_abstract (exact 1) using n\\u00a0``, in a helper's proof), and proved
   ``Nat.even (1 * n) = Nat.even n`` by ``Nat.mul_1_l``: ``accepted`` on the text profile. The lexer now
   refuses any such character between tokens (comments and strings may hold anything).
2. **Tactic redefinitions.** ``Ltac tauto ::= ...`` (or ``Ltac2 Set``) replaces a library tactic in every
   file that ``Require``s the candidate, the harness's own check files included (round 8 met it in the
   yes/no decision). No published proof redefines a tactic, so G3 refuses it, however it is placed.
3. **Spellings of refused commands.** ``#[canonical] Definition ...`` (a permitted addition) declares a
   canonical structure as the refused ``Canonical`` command does; ``Undelimit Scope`` and ``Remove Hints``
   (a typeclass instance is a hint) passed unread inside proofs; ``Fixpoint ... where "a + b" := ...``
   declares a notation without the word ``Notation`` (``2 + 2 = 0`` by ``reflexivity``; a first line only
   where recursion is allowed); and so did ``Derive Inversion Rabs ...``,
   which declares a constant ``Rabs`` shadowing the library's. ``Succeed Lemma x : T.`` opens no proof
   and ``Fail Qed.`` (of an unfinished proof) ends none, yet G2 took them for an opening and an end: top-level
   sentences were read by the lax rules of a proof (``Goal`` passed), and a proof sentence after ``Fail Qed.``
   was refused as a top-level addition.
4. **The yes/no decision read names the answer could declare.** The decision runs in the environment file
   right after the candidate's answer, and wrote ``True``, ``False``, ``I``, ``eq`` and ``tt`` by their
   short names; elaborating the answer can declare a constant under any name (``ltac:(let _ := constr:(
   ltac:(transparent_abstract (exact Q) using True) : Prop) in exact Q)`` is ``Q`` and declares
   ``AnswerEnv.True := Q``), so the question restated as its answer was proved "equivalent to True" and
   ``putnam_1996_a3`` was ``accepted`` on the full profile, every gate passed. The harness's sentences now
   name every global by its full name.
5. **A statement word declared by a tactic.** ``transparent_abstract (exact (fun _ _ _ => 0%R)) using RInt``
   in a helper's proof declares ``Candidate.RInt``, which the verbatim statement of ``putnam_2003_b6`` then
   means: ``0 >= 0``, proved by ``Rge_refl``, ``accepted`` on the text profile (G5 refuses it on the full
   one). G2 names a helper's declarations apart from the challenge's words; it now reads the names an
   ``abstract``/``transparent_abstract ... using`` gives too.
   So does a mutual declaration's later name: ``Lemma zz_a (k : nat) : R with INR (k : nat) : R.`` (no
   recursion word) declares ``INR := fun _ => 0``, and ``putnam_2000_b2`` was ``accepted`` on the text
   profile with ``exists 0%Z``.
6. **An exhausted time read as a refusal.** The yes/no decision and its comparison ran under the tactic
   ``timeout``, which ``first`` catches like any failure: an answer whose decision outran it was refused as
   "not a truth value" (a cacheable rejection). They now run under the command ``Timeout``, which stops
   the file, after a line saying the step started: a started step with no outcome is an ``error``.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq import answer_env
from putnam_solver.core.provers.rocq.answer_env import unfinished
from putnam_solver.core.provers.rocq.syntax import LexError, sentences
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, VerifyOptions, run_gates
from tests.adversarial.test_rocq_redteam6 import YES_NO, _failing, _restated
from tests.helpers import COQ_BENCH, ROCQ_SAMPLES, needs_coq, one_record_benchmark, rocq_full_verdict

NBSP = "\u00a0"
SQUARE = "sample_even_square"
HEADER = "Require Import Arith.\n\n"
THEOREM = "Theorem sample_even_square\n    (n : nat)\n    : Nat.even (n * n) = Nat.even n.\n"
SOUND = "Proof.\n  rewrite Nat.even_mul. destruct (Nat.even n); reflexivity.\nQed.\n"
GLOBAL_N = f"Lemma zz_h : nat.\nProof. transparent_abstract (exact 1) using n{NBSP}. Defined.\n\n"
"""A helper whose proof declares the global ``n\\u00a0 := 1`` (its name holds the no-break space)."""
RENAMED = HEADER + GLOBAL_N + THEOREM.replace("(n * n)", f"(n{NBSP}* n)")
NBSP_CANDIDATE = RENAMED + "Proof. change (Nat.even (1 * n) = Nat.even n). now rewrite Nat.mul_1_l. Qed.\n"
"""The statement with a no-break space after its first ``n``: the challenge's tokens to the gates' old
lexer, ``forall n, Nat.even (1 * n) = Nat.even n`` to coqc."""


def _text_verdict(problem: str, candidate: str, track: Track = Track.WITH_ANSWER, path: Path = ROCQ_SAMPLES) -> Verdict:
    bench = load_benchmark(path)
    options = VerifyOptions(profile=Profile.TEXT, keep_going=True)
    return run_gates(get_prover("rocq"), bench, bench.problems[problem], candidate.encode(), track, options)


@needs_coq
def test_coqc_reads_a_no_break_space_as_part_of_a_name(tmp_path: Path) -> None:
    """The threat is real: coqc compiles the renamed statement, and its theorem is not the challenge's."""
    (tmp_path / "C.v").write_text(NBSP_CANDIDATE + "Print sample_even_square.\n", encoding="utf-8")
    run = subprocess.run(["coqc", "-q", "C.v"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert f"Nat.even (n{NBSP} * n) = Nat.even n" in run.stdout


def test_a_no_break_space_between_tokens_is_refused_by_the_text_gates() -> None:
    verdict = _text_verdict(SQUARE, NBSP_CANDIDATE)
    failing = {g.id: g.detail for g in verdict.gates if g.status is not GateStatus.PASSED}
    assert not verdict.accepted
    assert set(failing) == {"G2", "G3"}, failing
    assert all("U+00A0" in detail for detail in failing.values()), failing


@needs_coq
def test_the_renamed_statement_is_refused_on_the_full_profile() -> None:
    verdict = rocq_full_verdict(load_benchmark(ROCQ_SAMPLES), SQUARE, NBSP_CANDIDATE)
    assert not verdict.accepted, _failing(verdict)


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        (f"Check I.{NBSP}\n", True),
        (f"Check{NBSP}I.\n", True),
        ("Check I.\x0c\n", True),
        ("Check I.\u3000\n", True),
        (f'(* a{NBSP}comment *) Check I. (* "{NBSP}" *)\n', False),
        (f'Check "{NBSP}".\r\n', False),
    ],
)
def test_only_coqs_blanks_separate_tokens(text: str, refused: bool) -> None:
    if refused:
        with pytest.raises(LexError, match="not a blank to Coq"):
            sentences(text)
    else:
        assert [s.command for s in sentences(text)] == ["Check"]


def test_a_no_break_space_in_a_comment_still_passes() -> None:
    candidate = HEADER + f"(* n{NBSP}* n, by parity *)\n" + THEOREM + SOUND
    verdict = _text_verdict(SQUARE, candidate)
    assert verdict.accepted, _failing(verdict)


REDEFINITIONS = {
    "top level": "Ltac tauto ::= exact_no_check I.\n\n",
    "local, glued": "Local Ltac lia::=idtac.\n\n",
    "in a helper's proof": "Lemma zz_h : True.\nProof. Ltac easy ::= exact_no_check I. exact I. Qed.\n\n",
    "mutual with": "Ltac zz_t := idtac with congruence ::= idtac.\n\n",
    "in the theorem's proof": "",
    "Ltac2 Set": "Lemma zz_h : True.\nProof. Ltac2 Set zz_x := fun _ => (). exact I. Qed.\n\n",
}


@pytest.mark.parametrize("name", sorted(REDEFINITIONS))
def test_a_tactic_redefinition_is_refused_by_g3(name: str) -> None:
    proof = SOUND
    if name == "in the theorem's proof":
        proof = SOUND.replace("Proof.\n", "Proof.\n  Ltac nia ::= idtac.\n")
    verdict = _text_verdict(SQUARE, HEADER + REDEFINITIONS[name] + THEOREM + proof)
    failing = {g.id: g.detail for g in verdict.gates if g.status is not GateStatus.PASSED}
    assert not verdict.accepted
    assert "G3" in failing and ("Ltac ::=" in failing["G3"] or "Ltac2 Set" in failing["G3"]), failing


@needs_coq
def test_a_tactic_of_the_candidates_own_name_is_still_accepted() -> None:
    helper = "Ltac zz_parity := rewrite Nat.even_mul; destruct (Nat.even _); reflexivity.\n\n"
    candidate = HEADER + helper + THEOREM + "Proof.\n  zz_parity.\nQed.\n"
    verdict = rocq_full_verdict(load_benchmark(ROCQ_SAMPLES), SQUARE, candidate)
    assert verdict.accepted, _failing(verdict)


SLOW = "2 ^ 22 = 2 ^ 22 + 0"
"""A true answer whose decision (``easy`` unfolding ``2 ^ 22`` in unary) outruns a short step time,
while the candidate's own proof rewrites it at once."""


@needs_coq
def test_a_yes_no_decision_that_runs_out_of_time_is_an_error_not_a_refusal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(answer_env, "STEP_SECONDS", 2)
    bench = one_record_benchmark(tmp_path, "yn", YES_NO)
    proof = "unfold yn_solution. split; intros; [rewrite Nat.add_0_r; reflexivity | nia]"
    candidate = YES_NO.replace(":= True.", f":= {SLOW}.").replace("Proof. Admitted.", f"Proof. {proof}. Qed.")
    verdict = rocq_full_verdict(bench, "yn", candidate, Track.NO_ANSWER)
    g4 = next(g for g in verdict.gates if g.id == "G4")
    assert g4.status is GateStatus.ERROR, g4.detail
    assert "deciding" in g4.detail
    assert verdict.status == "error"


@needs_coq
def test_a_quickly_decided_answer_is_still_accepted_under_the_command_timeout(tmp_path: Path) -> None:
    bench = one_record_benchmark(tmp_path, "yn", YES_NO)
    candidate = YES_NO.replace("Proof. Admitted.", "Proof. unfold yn_solution. split; intros; [exact I | nia]. Qed.")
    verdict = rocq_full_verdict(bench, "yn", candidate, Track.NO_ANSWER)
    assert verdict.accepted, _failing(verdict)


def test_a_started_step_without_its_outcome_is_unfinished() -> None:
    assert unfinished("M-deciding\n", "M") == "deciding the yes/no answer"
    assert unfinished("M-deciding\nM-undecided\n", "M") is None
    comparing = "comparing the yes/no answer with the compiled solution"
    assert unfinished("M-deciding\nM-decided\nM\nM-comparing\n", "M") == comparing
    assert unfinished("M-deciding\nM-decided\nM\nM-comparing\nM-different\n", "M") is None
    assert unfinished(" M-deciding\n", "M") is None
    assert unfinished("M-stating\n", "M") == "stating the pinned theorem with the answer"
    assert unfinished("M-stating\nM-stated\nM-restating\n", "M") == "checking whether the answer restates the question"
    assert unfinished("M-stating\nM-stated\nM-restating\nM-not-restated\n", "M") is None


CANONICAL = (
    "From mathcomp Require Import ssreflect ssrbool eqtype ssrnat.\n"
    "Definition zz_nat := nat.\n"
    "Definition zz_op (a b : zz_nat) : bool := eqn a b.\n"
    "Lemma zz_opP : Equality.axiom zz_op.\nProof. move=> a b; exact: eqnP. Qed.\n"
    "#[canonical] Definition zz_eqType := EqType zz_nat (EqMixin zz_opP).\n"
)


@needs_coq
def test_coqc_declares_a_canonical_structure_from_the_attribute(tmp_path: Path) -> None:
    (tmp_path / "C.v").write_text(CANONICAL + "Print Canonical Projections zz_nat.\n", encoding="utf-8")
    run = subprocess.run(["coqc", "-q", "C.v"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "zz_nat <- Equality.sort ( zz_eqType )" in run.stdout


SPELLINGS = {
    "canonical attribute": HEADER + CANONICAL.split("\n", 1)[1] + "\n" + THEOREM + SOUND,
    "undelimit in a proof": HEADER
    + "Lemma zz_h : True.\nProof. Undelimit Scope nat_scope. exact I. Qed.\n\n"
    + THEOREM
    + SOUND,
    "derive inversion in a proof": HEADER
    + "Lemma zz_h : True.\nProof. Derive Inversion zz_inv with (forall m : nat, m <= 0) Sort Prop. exact I. Qed.\n\n"
    + THEOREM
    + SOUND,
    # a hint of `core` only steers tactics (vernacular.py accepts it); of instances it changes elaboration
    "remove instance hints in a proof": HEADER
    + "Lemma zz_h : True.\nProof. Remove Hints Nat.le_refl : typeclass_instances. exact I. Qed.\n\n"
    + THEOREM
    + SOUND,
}


# "top-level Goal after Succeed Lemma" (a rolled-back Lemma opens no proof, then a Goal) is accepted since red
# team 29, a Goal being a helper (``test_rocq_redteam29.py``)
@pytest.mark.parametrize("name", sorted(SPELLINGS))
def test_spellings_of_refused_commands_are_refused(name: str) -> None:
    verdict = _text_verdict(SQUARE, SPELLINGS[name])
    assert not verdict.accepted, _failing(verdict)


@needs_coq
def test_a_proof_that_goes_on_after_fail_qed_is_accepted() -> None:
    """``Fail Qed.`` of an unfinished proof leaves it open (a false rejection before: ``exact I.`` was
    taken for a top-level addition)."""
    helper = "Lemma zz_h : True.\nProof.\n  Fail Qed.\n  exact I.\nQed.\n\n"
    verdict = rocq_full_verdict(load_benchmark(ROCQ_SAMPLES), SQUARE, HEADER + helper + THEOREM + SOUND)
    assert verdict.accepted, _failing(verdict)


def _shadowing(name: str) -> str:
    """``putnam_1996_a3`` with its question restated as the answer, whose elaboration also declares a
    constant ``name := <the question>`` (and not part of the answer's term)."""
    text = _restated("putnam_1996_a3")
    found = re.search(r"Definition putnam_1996_a3_solution : Prop := (.*?\)\))\.\n", text, re.S)
    assert found is not None
    question = found.group(1)
    side = f"constr:(ltac:(transparent_abstract (exact ({question})) using {name}) : Prop)"
    return text[: found.start(1)] + f"ltac:(let _ := {side} in exact ({question}))" + text[found.end(1) :]


@needs_coq
@pytest.mark.parametrize("name", ["True", "False"])
def test_a_restated_question_behind_a_shadowed_truth_value_is_refused(name: str) -> None:
    verdict = rocq_full_verdict(load_benchmark(COQ_BENCH), "putnam_1996_a3", _shadowing(name), Track.NO_ANSWER)
    failing = _failing(verdict)
    assert not verdict.accepted, failing
    assert [g for g, _ in failing] == ["G4"], failing
    assert "truth value" in failing[0][1]


def test_the_harness_names_every_global_after_the_answer_in_full() -> None:
    from putnam_solver.core.provers.rocq.answer_env import names_source
    from putnam_solver.core.provers.rocq.statement_shape import parse_statement
    from putnam_solver.core.provers.rocq.syntax import tokenize

    source = names_source(parse_statement(YES_NO, "yn"), "M")
    words = {t.text for t in tokenize(source) if t.kind.value == "word"}
    assert not words & {"True", "False", "I", "eq", "tt", "eq_refl"}, words


RINT = (
    "Definition zz_h : (R -> R) -> R -> R -> R.\n"
    "Proof. transparent_abstract (exact (fun _ _ _ => 0%R)) using RInt. Defined.\n\n"
)


def _rint_candidate(using: str) -> str:
    text = load_benchmark(COQ_BENCH).problems["putnam_2003_b6"].formal_statement
    helper = RINT.replace("using RInt", f"using {using}")
    text = text.replace("Theorem putnam_2003_b6", helper + "Theorem putnam_2003_b6")
    return text.replace("Proof. Admitted.", "Proof. intros. apply Rge_refl. Qed.")


def test_a_statement_word_declared_by_a_tactic_is_refused_by_g2() -> None:
    bench = load_benchmark(COQ_BENCH)
    options = VerifyOptions(profile=Profile.TEXT, keep_going=True)
    candidate = _rint_candidate("RInt").encode()
    verdict = run_gates(
        get_prover("rocq"), bench, bench.problems["putnam_2003_b6"], candidate, Track.WITH_ANSWER, options
    )
    failing = {g.id: g.detail for g in verdict.gates if g.status is not GateStatus.PASSED}
    assert not verdict.accepted
    assert list(failing) == ["G2"] and "`RInt`" in failing["G2"], failing


@needs_coq
def test_a_tactic_declared_constant_named_apart_is_still_accepted() -> None:
    helper = "Lemma zz_h : nat.\nProof. transparent_abstract (exact 2) using zz_two. Defined.\n\n"
    verdict = rocq_full_verdict(load_benchmark(ROCQ_SAMPLES), SQUARE, HEADER + helper + THEOREM + SOUND)
    assert verdict.accepted, _failing(verdict)


MUTUAL = (
    "Lemma zz_a (k : nat) : R with INR (k : nat) : R.\nProof.\n- exact 0.\n- exact 0.\nDefined.\n"
    "Lemma zz_zero (k : nat) : INR k = 0.\nProof. destruct k; reflexivity. Qed.\n\n"
)
MUTUAL_PROOF = "Proof. intros n m _. exists 0%Z. rewrite !zz_zero. unfold Rdiv. rewrite !Rmult_0_l. reflexivity. Qed."


def test_a_statement_word_declared_by_a_mutual_lemma_is_refused_by_g2() -> None:
    text = load_benchmark(COQ_BENCH).problems["putnam_2000_b2"].formal_statement
    candidate = text.replace("Theorem putnam_2000_b2", MUTUAL + "Theorem putnam_2000_b2")
    verdict = _text_verdict("putnam_2000_b2", candidate.replace("Proof. Admitted.", MUTUAL_PROOF), path=COQ_BENCH)
    failing = {g.id: g.detail for g in verdict.gates if g.status is not GateStatus.PASSED}
    assert not verdict.accepted
    assert "`INR`" in failing["G2"], failing
    # since red team 16 G3 also refuses the mutual theorem itself, as candidate recursion
    assert set(failing) <= {"G2", "G3"} and "`Lemma ... with ...`" in failing.get("G3", "`Lemma ... with ...`")


def test_a_pattern_after_match_with_is_not_a_declaration() -> None:
    helper = "Lemma zz_h (m : nat) : match m with n => True end.\nProof. exact I. Qed.\n\n"
    verdict = _text_verdict(SQUARE, HEADER + helper + THEOREM + SOUND)
    assert verdict.accepted, _failing(verdict)


def test_a_notation_in_a_where_clause_is_refused_by_g3_with_recursion_allowed() -> None:
    from putnam_solver.core.provers.rocq.forbidden import check_forbidden
    from putnam_solver.core.provers.rocq.statement_shape import parse_statement

    where = 'Fixpoint zz_f (a b : nat) : nat := 0\nwhere "a * b" := (zz_f a b) : nat_scope.\n\n'
    candidate = HEADER + where + THEOREM + SOUND
    statement = parse_statement(load_benchmark(ROCQ_SAMPLES).problems[SQUARE].formal_statement, SQUARE)
    found = check_forbidden(statement, candidate, refuse_recursion=False)
    assert [v.construct for v in found] == ['`where "..." :=`'], found
    assert check_forbidden(statement, HEADER + "Fixpoint zz_f (a : nat) : nat := 0.\n\n" + THEOREM + SOUND, False) == []

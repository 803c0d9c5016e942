"""Red team, round 6 (Rocq): answers picked by choice on no-answer, and library axioms refused unused.

1. **An answer picked by choice.** On the no-answer track the candidate states its own answer. Lean's G2
   refuses choice operators in a solution value (``Classical.choose``, ``Classical.epsilon``, ``Nat.find``):
   they pick "some value with the property" from a proof that one exists instead of stating it. Rocq had no
   such rule: ``Definition sample_last_digit_solution : Z := epsilon (inhabits 0) (fun x => (2 ^ 100) mod 10
   = x).`` with ``epsilon_spec`` passed every gate and was ``accepted`` (the answer check said only
   ``unknown``: not a closed form). G4 now reads the compiled solution's kernel term, printed raw where the
   bare names of the operators are shadowed (so a library operator always prints qualified and a bound
   variable never does), and refuses any choice operator of the installed libraries, however the answer
   spelled it (a notation such as mathcomp's ``get``, a ``let``, an imported alias).
2. **Axioms of the standard library refused though unused (a false rejection).** ``Require Import
   ClassicalChoice.`` (Coq's ``choice``) loads ``Coq.Logic.RelationalChoice.relational_choice``, and
   ``SetoidChoice`` ``ExtensionalFunctionRepresentative.extensional_function_representative``; G6 refused any
   candidate that merely required them, and G5 any that used ``choice``. Both hold in the set-theoretic model
   every allowed axiom holds in (relational choice follows from the allowed indefinite description), so they
   are on the allow-list now.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq.answer_env import choice_operators, names_source, yes_no_answer
from putnam_solver.core.provers.rocq.statement_shape import parse_statement
from putnam_solver.core.provers.rocq.toolchain import allowed_full_name, allowed_printed_name
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, VerifyOptions
from putnam_solver.kits.sessions import SessionPool, check_file
from tests.helpers import COQ_BENCH, ROCQ_SAMPLES, needs_coq, one_record_benchmark, rocq_full_verdict

HEADER = "Require Import ZArith.\nOpen Scope Z_scope.\n\n"
STATEMENT = "Theorem sample_last_digit\n    : (2 ^ 100) mod 10 = sample_last_digit_solution.\n"


def _no_answer(candidate: str) -> Verdict:
    return rocq_full_verdict(load_benchmark(ROCQ_SAMPLES), "sample_last_digit", candidate, Track.NO_ANSWER)


def _failing(verdict: Verdict) -> list[tuple[str, str]]:
    return [(g.id, g.detail[:300]) for g in verdict.gates if g.status is not GateStatus.PASSED]


PROPERTY = "(fun x : Z => (2 ^ 100) mod 10 = x)"
EXISTS = "(ex_intro _ ((2 ^ 100) mod 10) eq_refl)"
CHOSEN = {
    "epsilon": (
        "Require Import Coq.Logic.Epsilon.\n",
        f"epsilon (inhabits 0) {PROPERTY}",
        f"apply (epsilon_spec (inhabits 0) {PROPERTY}). exact {EXISTS}.",
    ),
    "classical_epsilon_behind_let": (
        "Require Coq.Logic.ClassicalEpsilon.\n",
        f"let pick := ClassicalEpsilon.epsilon in pick Z (inhabits 0) {PROPERTY}",
        f"cbv zeta. apply (ClassicalEpsilon.epsilon_spec (inhabits 0) {PROPERTY}). exact {EXISTS}.",
    ),
    "indefinite_description": (
        "Require Import Coq.Logic.IndefiniteDescription.\n",
        f"proj1_sig (constructive_indefinite_description {PROPERTY} {EXISTS})",
        f"exact (proj2_sig (constructive_indefinite_description {PROPERTY} {EXISTS})).",
    ),
    "operator_beside_a_binder_of_its_name": (
        "Require Import Coq.Logic.Epsilon.\n",
        f"(fun epsilon : Z => epsilon) (@Epsilon.epsilon Z (inhabits 0) {PROPERTY})",
        f"cbv beta. apply (epsilon_spec (inhabits 0) {PROPERTY}). exact {EXISTS}.",
    ),
}
"""Answers that are "the x with the property", each with the proof that exists for it (no answer known)."""


def answered(require: str, answer: str, proof: str) -> str:
    """A no-answer candidate of ``sample_last_digit``: ``require``, then ``answer`` and the theorem's ``proof``."""
    return (
        f"{HEADER}{require}Definition sample_last_digit_solution : Z := {answer}.\n{STATEMENT}"
        f"Proof. unfold sample_last_digit_solution. {proof} Qed.\n"
    )


@needs_coq
@pytest.mark.parametrize("name", sorted(CHOSEN))
def test_an_answer_picked_by_a_choice_operator_is_refused_by_g4(name: str) -> None:
    require, answer, proof = CHOSEN[name]
    candidate = answered(require, answer, proof)
    verdict = _no_answer(candidate)
    statuses = {g.id: g.status for g in verdict.gates}
    assert statuses["G5"] is GateStatus.PASSED and statuses["G6"] is GateStatus.PASSED, _failing(verdict)
    assert statuses["G4"] is GateStatus.FAILED and not verdict.accepted, _failing(verdict)
    g4 = next(g for g in verdict.gates if g.id == "G4")
    assert "choice" in g4.detail and ("epsilon" in g4.detail or "description" in g4.detail)


STATED = {
    "binder_named_like_an_operator": "let epsilon := 3 in epsilon * 2",
    "list_iota_of_another_library": "Z.of_nat (length (List.seq 0 6))",
}


@needs_coq
@pytest.mark.parametrize("name", sorted(STATED))
def test_an_answer_stated_outright_is_accepted(name: str) -> None:
    candidate = (
        f"{HEADER}Require Import Coq.Logic.Epsilon.\nRequire Import List.\n"
        f"Definition sample_last_digit_solution : Z := {STATED[name]}.\n{STATEMENT}"
        "Proof. reflexivity. Qed.\n"
    )
    verdict = _no_answer(candidate)
    assert verdict.accepted, _failing(verdict)


def test_choice_operators_are_read_qualified_from_the_print_after_the_marker() -> None:
    pinned = parse_statement(
        "Require Import ZArith.\nDefinition t_solution : Z := 6.\nTheorem t : t_solution = 6%Z.\nProof. Admitted.\n",
        "t",
    )
    source = names_source(pinned, "M")
    assert "Definition epsilon := Coq.Init.Datatypes.tt." in source
    assert source.index("Import") < source.index('idtac "M"')
    printed = "M\nCandidate.t_solution =\n(fun epsilon : BinNums.Z => epsilon) (Epsilon.epsilon BinNums.Z i P)\n : Z\n"
    assert choice_operators(printed, "M") == ["Epsilon.epsilon"]
    assert choice_operators("M\nCandidate.t_solution = seq.iota 0 6 (fun iota => iota)\n", "M") == []
    assert choice_operators("M\nCandidate.t_solution = classical_sets.xget x0 P\n", "M") == ["classical_sets.xget"]
    assert choice_operators("Epsilon.epsilon\n", "M") is None  # no marker: never a pass


def test_relational_choice_is_allowed_by_name() -> None:
    assert allowed_full_name("Coq.Logic.RelationalChoice.relational_choice")
    assert allowed_printed_name("RelationalChoice.relational_choice", reserved=("Candidate", "Putnam"))
    assert allowed_full_name("Coq.Logic.ExtensionalFunctionRepresentative.extensional_function_representative")
    assert not allowed_printed_name("Candidate.relational_choice", reserved=("Candidate", "Putnam"))


CHOICE_PROOF = (
    "Require Import Arith.\nRequire Import Coq.Logic.ClassicalChoice.\n\n"
    "Theorem sample_even_square\n    (n : nat)\n    : Nat.even (n * n) = Nat.even n.\n"
    "Proof.\n  destruct (choice (fun (_ : nat) (m : nat) => m = n) (fun _ => ex_intro _ n eq_refl)) as [f _].\n"
    "  rewrite Nat.even_mul. destruct (Nat.even n); reflexivity.\nQed.\n"
)


@needs_coq
def test_a_proof_using_the_standard_librarys_choice_is_accepted() -> None:
    """A false rejection before: G5 (``relational_choice`` used) and G6 (in the environment) refused it."""
    verdict = rocq_full_verdict(load_benchmark(ROCQ_SAMPLES), "sample_even_square", CHOICE_PROOF)
    assert verdict.accepted, _failing(verdict)
    g5 = next(g for g in verdict.gates if g.id == "G5")
    assert any("relational_choice" in name for name in g5.evidence["allowed"])


def _restated(problem_id: str) -> str:
    """The pinned yes/no statement with its question restated as the answer, proved by ``iff_refl``."""
    text = load_benchmark(COQ_BENCH).problems[problem_id].formal_statement
    theorem = text[text.index("Theorem") :]
    question = theorem[theorem.index(":") + 1 : theorem.index("<->")].strip()
    sentence = re.search(rf"Definition {problem_id}_solution : Prop :=[^.]*\.", text)
    assert sentence is not None
    solution = f"Definition {problem_id}_solution : Prop := {question}."
    text = text[: sentence.start()] + solution + text[sentence.end() :]
    return text.replace("Proof. Admitted.", f"Proof. unfold {problem_id}_solution. exact (iff_refl _). Qed.")


@needs_coq
def test_a_yes_no_question_restated_as_its_answer_is_refused_by_g4() -> None:
    """``putnam_1996_a3`` asks whether a property holds (``<question> <-> solution``, official ``False``):
    the question itself as the answer made the theorem ``P <-> P``, and every gate passed."""
    verdict = rocq_full_verdict(
        load_benchmark(COQ_BENCH), "putnam_1996_a3", _restated("putnam_1996_a3"), Track.NO_ANSWER
    )
    statuses = {g.id: g.status for g in verdict.gates}
    assert statuses["G5"] is GateStatus.PASSED and statuses["G6"] is GateStatus.PASSED, _failing(verdict)
    assert statuses["G4"] is GateStatus.FAILED and not verdict.accepted, _failing(verdict)
    assert "truth value" in next(g.detail for g in verdict.gates if g.id == "G4")


YES_NO = (
    "Require Import Arith Lia.\n"
    "Definition yn_solution : Prop := True.\n"
    "Theorem yn : (forall n : nat, (n + 1) * (n + 1) = n * n + 2 * n + 1) <-> yn_solution.\nProof. Admitted.\n"
)
ANSWERS = {
    "true": ("True", "split; intros; [exact I | nia]", True),
    "not_false": ("~ False", "split; intros; [intro f; exact f | nia]", True),
    "an_equation": ("0 = 0", "split; intros; [reflexivity | nia]", True),
    "restated": ("forall n : nat, (n + 1) * (n + 1) = n * n + 2 * n + 1", "exact (iff_refl _)", False),
}
NO = "(exists n : nat, n * n + 1 = 0)"
"""A yes/no question whose answer is no, asked in place of :data:`YES_NO`'s."""
NO_STATEMENT = re.sub(r"\(forall .*\) <->", f"{NO} <->", YES_NO).replace(":= True.", ":= False.")
"""The question :data:`NO` with its official answer, ``False`` (the answer check disputes an answer that
differs from the official one, so the record must hold the right one)."""
NO_ANSWERS = {
    "false": ("False", "split; [intros [n h]; lia | intro f; destruct f]", True),
    "an_equation": ("1 = 0", "split; [intros [n h]; lia | intro h; discriminate h]", True),
    "restated": (NO, "exact (iff_refl _)", False),
}
"""A yes/no question whose answer is yes (not one ``easy`` or ``tauto`` decides), and answers to it."""


@needs_coq
@pytest.mark.parametrize(("name", "question"), [(n, "yes") for n in sorted(ANSWERS)] + [(n, "no") for n in NO_ANSWERS])
def test_a_yes_no_answer_must_be_a_truth_value(name: str, question: str, tmp_path: Path) -> None:
    answer, proof, accepted = (ANSWERS if question == "yes" else NO_ANSWERS)[name]
    statement = YES_NO if question == "yes" else NO_STATEMENT
    bench = one_record_benchmark(tmp_path, "yn", statement)
    official = ":= True." if question == "yes" else ":= False."
    candidate = statement.replace(official, f":= {answer}.").replace(
        "Proof. Admitted.", f"Proof. unfold yn_solution. {proof}. Qed."
    )
    verdict = rocq_full_verdict(bench, "yn", candidate, Track.NO_ANSWER)
    assert verdict.accepted is accepted, _failing(verdict)
    if not accepted:
        assert [g.id for g in verdict.gates if g.status is not GateStatus.PASSED] == ["G4"]


def test_only_a_prop_solution_without_arguments_is_a_yes_no_answer() -> None:
    def shape(solution: str) -> bool:
        return yes_no_answer(parse_statement(f"{solution}\nTheorem t : t_solution.\nProof. Admitted.\n", "t"))

    assert shape("Definition t_solution : Prop := True.")
    assert not shape("Definition t_solution : nat -> Prop := fun _ => True.")
    assert not shape("Definition t_solution (n : nat) : Prop := True.")
    assert not shape("Definition t_solution : bool := true.")


SUBCLASS = (
    f"{HEADER}Lemma zz_h : True.\nProof. SubClass zz_nat := nat. exact I. Qed.\n"
    "Definition sample_last_digit_solution : Z := 6.\n"
    f"{STATEMENT}Proof. reflexivity. Qed.\n"
)


def test_subclass_a_coercion_by_another_name_is_refused_in_proofs() -> None:
    """``SubClass c := T.`` declares ``c`` and an identity coercion from it, like ``Identity Coercion``
    (refused): inside a helper's proof it passed G2 and G3 unread (its name unchecked against the
    challenge's words). G5 decides what it could change; the text gates now refuse it as they refuse
    every coercion."""
    verdict = rocq_full_verdict(load_benchmark(ROCQ_SAMPLES), "sample_last_digit", SUBCLASS)
    details = {g.id: g.detail for g in verdict.gates if g.status is not GateStatus.PASSED}
    assert not verdict.accepted
    assert "SubClass" in details["G2"] and "SubClass" in details["G3"], details


@needs_coq
def test_the_agents_warm_check_goes_cold_where_g4_checks_a_no_answer_answer() -> None:
    """A warm session only compiles the file; G4's answer checks run in a file of their own, so a check
    of a no-answer problem with a solution takes the cold gates and gives the acceptance's verdict."""
    require, answer, proof = CHOSEN["epsilon"]
    candidate = answered(require, answer, proof)
    bench = load_benchmark(ROCQ_SAMPLES)
    problem = bench.problems["sample_last_digit"]
    options = VerifyOptions(profile=Profile.FAST, acceptance=Profile.FULL, timeout_seconds=120)
    pool = SessionPool(max_sessions=1)
    try:
        no_answer = check_file(get_prover("rocq"), bench, problem, candidate, Track.NO_ANSWER, options, pool)
        official = (ROCQ_SAMPLES.parent / "proofs" / "sample_last_digit.v").read_text(encoding="utf-8")
        with_answer = check_file(get_prover("rocq"), bench, problem, official, Track.WITH_ANSWER, options, pool)
    finally:
        pool.close()
    g4 = next(g for g in no_answer.verdict.gates if g.id == "G4")
    assert not no_answer.warm and g4.status is GateStatus.FAILED and "choice" in g4.detail
    assert with_answer.warm and with_answer.verdict.accepted  # the with-answer track keeps the warm session

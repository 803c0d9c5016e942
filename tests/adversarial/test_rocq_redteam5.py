"""No-answer: an answer that elaborates in the challenge's environment but means the candidate's own constant.

G4 compiles the answer in the challenge's environment alone (``answer_env``), so that an answer naming a
constant of the candidate's own fails there. But a candidate can make Coq declare a constant under a
*library's* name: ``transparent_abstract (exact 6) using Z0`` declares ``Candidate.Z0 := 6``, which shadows
the constructor ``Z0`` in the rest of the candidate's file. The answer ``Z0`` then elaborates in the
environment (as the constructor, ``0``) and in the candidate (as its own ``6``): every gate passed and the
verdict recorded the answer ``Z0``, confirmed equal to the official ``6``. G4 now also prints the compiled
candidate's solution (raw, from another file that only ``Require``s it) and refuses any constant of the
candidate's module the statement does not declare.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.provers.rocq.answer_env import answer_env_source, names_source, own_constants
from putnam_solver.core.provers.rocq.challenge import candidate_answer
from putnam_solver.core.provers.rocq.statement_shape import parse_statement
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import ROCQ_SAMPLES, needs_coq, one_record_benchmark, rocq_full_verdict

HEADER = "Require Import ZArith.\nOpen Scope Z_scope.\n\n"
THEOREM = "Theorem sample_last_digit\n    : (2 ^ 100) mod 10 = sample_last_digit_solution.\nProof. reflexivity. Qed.\n"
SHADOWING = {
    "constructor": (
        "Definition zz_w : Z.\nProof. transparent_abstract (exact ((2 ^ 100) mod 10)) using Z0. Defined.\n",
        "Z0",
    ),
    "library_function": (
        "Import Z.\nDefinition zz_w : Z -> Z.\nProof. transparent_abstract (exact (fun _ => 6)) using succ. Defined.\n",
        "succ 0",
    ),
}
"""Helpers that make Coq declare a constant under a name the challenge's environment already has."""


def _no_answer(candidate: str) -> Verdict:
    return rocq_full_verdict(load_benchmark(ROCQ_SAMPLES), "sample_last_digit", candidate, Track.NO_ANSWER)


def _failing(verdict: Verdict) -> list[tuple[str, str]]:
    return [(g.id, g.detail[:300]) for g in verdict.gates if g.status is not GateStatus.PASSED]


def test_own_constants_are_read_from_the_print_after_the_marker() -> None:
    pinned = parse_statement(
        "Require Import ZArith.\nDefinition f (n : Z) : Z := n.\nDefinition t_solution : Z := 6.\n"
        "Theorem t : t_solution = 6%Z.\nProof. Admitted.\n",
        "t",
    )
    source = names_source(pinned, "M")
    # the restatement check runs first, before the candidate is loaded; the print after it
    assert source.index('idtac "M-restating"') < source.index("\nRequire Putnam.Candidate.\n")
    assert source.index("\nRequire Putnam.Candidate.\n") < source.index("\nSet Printing All.\n")
    # the compiled solution's print, then this file's own elaboration of the answer (``same_answer``)
    assert source.endswith(
        'idtac "M". Abort.\nPrint Putnam.Candidate.t_solution.\n'
        'Goal Coq.Init.Logic.True. idtac "M-environment". Abort.\nPrint Putnam.AnswerEnv.t_solution.\n'
    )
    printed = "Candidate.Z0 = 1\nM\nCandidate.t_solution =\nCandidate.f (Putnam.Candidate.Z0) Z.succ\n : BinNums.Z\n"
    assert own_constants(printed, "M", pinned) == ["Z0"]
    assert own_constants("M\nCandidate.t_solution = Candidate.f Z0\n", "M", pinned) == []
    assert own_constants("Candidate.t_solution = 6\n", "M", pinned) is None  # no marker: never a pass
    assert own_constants("M\n", "M", pinned) is None  # no print of the solution
    with_environment = "M\nCandidate.t_solution = 6\nM-environment\nAnswerEnv.t_solution = 6\n"
    assert own_constants(with_environment, "M", pinned) == []  # this file's own print names none of them


@needs_coq
@pytest.mark.parametrize("name", sorted(SHADOWING))
def test_an_answer_naming_a_shadowing_constant_of_the_candidate_is_refused_by_g4(name: str) -> None:
    helper, answer = SHADOWING[name]
    solution = f"Definition sample_last_digit_solution : Z := {answer}.\n"
    verdict = _no_answer(f"{HEADER}{helper}{solution}{THEOREM}")
    statuses = {g.id: g.status for g in verdict.gates}
    assert statuses["G2"] is GateStatus.PASSED  # no word of the answer names a helper as text
    assert statuses["G4"] is GateStatus.FAILED and not verdict.accepted, _failing(verdict)
    g4 = next(g for g in verdict.gates if g.id == "G4")
    assert "names the candidate's own constant" in g4.detail


VALID = {
    "layout_scopes_and_requires": (
        "From Coq Require Import Lia.\nLocal Open Scope Z_scope.\n(* the answer *)\n"
        "Definition sample_last_digit_solution\n  : Z :=\n  (* six *) let k := 3 in k *\n   2.\n"
        f"{THEOREM}Require Import Lra.\n"
    ),
    "imported_library_module": (
        "Lemma zz_h : True. Proof. exact I. Qed.\nRequire Import Coq.ZArith.BinInt.\nImport Z.\n"
        f"Definition sample_last_digit_solution : Z := of_nat 6.\n{THEOREM}"
    ),
    "tactic_in_term": (
        "Lemma zz_h : (2 ^ 100) mod 10 = 6. Proof. reflexivity. Qed.\n"
        f"Definition sample_last_digit_solution : Z := ltac:(exact 6).\n{THEOREM}"
    ),
}


@needs_coq
@pytest.mark.parametrize("name", sorted(VALID))
def test_a_written_out_answer_is_still_accepted(name: str) -> None:
    verdict = _no_answer(HEADER + VALID[name])
    assert verdict.accepted, _failing(verdict)


@needs_coq
def test_a_second_solution_sentence_behind_fail_does_not_stand_in_for_the_answer() -> None:
    """``Fail Definition <solution> ...`` in a helper's proof is the first sentence that names the solution:
    the environment file stopped there (a failing definition, so it compiled) and the real answer, naming
    ``abstract``'s opaque ``_subproof``, was never compiled in it (nor recorded: the verdict showed the
    text behind ``Fail``). G2 refuses the added definition; G4 now ends the environment at the definition
    that stays, and refuses the answer too."""
    candidate = (
        f"{HEADER}Lemma zz_witness : {{x : Z | (2 ^ 100) mod 10 = x}}.\n"
        "Proof. Fail Definition sample_last_digit_solution : Z := 6 + true.\n"
        "abstract (exists ((2 ^ 100) mod 10); reflexivity). Defined.\n"
        "Definition sample_last_digit_solution : Z := match zz_witness_subproof with exist _ x _ => x end.\n"
        "Theorem sample_last_digit\n    : (2 ^ 100) mod 10 = sample_last_digit_solution.\n"
        "Proof. unfold sample_last_digit_solution. destruct zz_witness_subproof as [x e]. exact e. Qed.\n"
    )
    verdict = _no_answer(candidate)
    statuses = {g.id: g.status for g in verdict.gates}
    assert statuses["G2"] is GateStatus.FAILED and not verdict.accepted
    assert statuses["G4"] is GateStatus.FAILED, _failing(verdict)
    g4 = next(g for g in verdict.gates if g.id == "G4")
    assert "zz_witness_subproof" in g4.detail
    recorded = verdict.answers["sample_last_digit_solution"]["candidate"]
    assert recorded.startswith("match zz_witness_subproof")  # the answer that stays, not the one behind Fail


def test_the_answer_environment_ends_at_the_solution_that_stays() -> None:
    pinned = parse_statement(
        "Require Import ZArith.\nDefinition t_solution : Z := 6.\nTheorem t : t_solution = 6%Z.\nProof. Admitted.\n",
        "t",
    )
    candidate = (
        "Require Import ZArith.\nLemma zz : True.\nProof. Fail Definition t_solution : Z := true. exact I. Qed.\n"
        "Definition t_solution : Z := zz_subproof.\nTheorem t : t_solution = 6%Z.\nProof. Admitted.\n"
    )
    source = answer_env_source(pinned, candidate)
    assert source == "Require Import ZArith.\nDefinition t_solution : Z := zz_subproof.\n"
    assert candidate_answer(pinned, candidate) == "zz_subproof"


PARAMETER_ANSWER = (
    "Parameter zc : nat.\nAxiom zc_spec : zc = 2.\nDefinition zd (n : nat) : nat := n + 1.\n"
    "Definition zt_solution : nat := zd zc.\nTheorem zt : zt_solution = 3.\nProof. Admitted.\n"
)


@needs_coq
def test_an_answer_over_the_statements_own_parameter_and_definition_is_accepted(tmp_path: Path) -> None:
    """The statement's own constants before the solution are the challenge's environment, not the candidate's."""
    bench = one_record_benchmark(tmp_path, "zt", PARAMETER_ANSWER)
    candidate = PARAMETER_ANSWER.replace(
        "Proof. Admitted.", "Proof. unfold zt_solution, zd. rewrite zc_spec. reflexivity. Qed."
    )
    verdict = run_gates(
        RocqProver(),
        bench,
        bench.problems["zt"],
        candidate.encode(),
        Track.NO_ANSWER,
        VerifyOptions(profile=Profile.FULL, keep_going=True),
    )
    assert verdict.accepted, _failing(verdict)
    assert verdict.answers["zt_solution"]["candidate"] == "zd zc"

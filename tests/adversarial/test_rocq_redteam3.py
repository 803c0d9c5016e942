"""Red team 3: statement shapes beyond PutnamBench's with-answer files (real coqc and coqchk).

A statement's own top-level ``Parameter``/``Axiom`` (miniF2F's ``amc12a_2016_p3``: ``Parameter Rfloor``
and ``Axiom Rfloor_spec``) once made every sound proof fail G5: the reference declared them inside its
section, where an ``Axiom`` stays a global constant, so the reference theorem spoke of
``Reference.Rfloor`` and the candidate's (which must repeat the declaration) of ``Candidate.Rfloor``, two
axioms no conversion makes equal. They are now assumptions like ``Variable``s: abstracted in the reference,
plugged with the candidate's, which must be the candidate's own axioms (G5 and G6 each check it), so a
candidate that turns ``Rfloor`` into a concrete function, making ``Rfloor_spec`` an inconsistent axiom,
stays refused.

No-answer: G2 refuses an answer that names a helper, as text, but ``abstract`` in a helper's proof makes
Coq declare ``<helper>_subproof`` (opaque), which no word of the text declares. An answer naming it was
accepted with its value sealed away, out of reach of the answer record and of any answer check. G4 now
compiles the answer in the challenge's environment alone (``answer_env``), so coqc decides.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark, load_benchmark
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.provers.rocq.answer_env import answer_env_source
from putnam_solver.core.provers.rocq.challenge import reference_source, statement_of
from putnam_solver.core.provers.rocq.statement_shape import parse_statement
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import DATA_ROOT, ROCQ_SAMPLES, needs_coq, one_record_benchmark, rocq_full_verdict

BENCHMARK = DATA_ROOT / "minif2f" / "minif2f_rocq_adapted.jsonl"
"""What the ``bench`` fixture (conftest.py) loads for this module."""


FLOOR = "amc12a_2016_p3"
HEADER = """Require Import Coq.Reals.Reals.
Open Scope R_scope.


Parameter Rfloor : R -> Z.
Axiom Rfloor_spec : forall x : R,
  IZR (Rfloor x) <= x < IZR (Rfloor x) + 1.
"""
THEOREM = """


Theorem amc12a_2016_p3:
  forall (f : R -> R -> R),
    (forall (x y : R), y <> 0 -> f x y = x - y * IZR (Rfloor (x / y))) ->
    f (3 / 8) (-(2 / 5)) = -(1 / 40).

"""
SOUND = """Proof.
  intros f hf.
  rewrite hf by lra.
  assert (e : 3 / 8 / - (2 / 5) = - (15 / 16)) by field.
  rewrite e.
  destruct (Rfloor_spec (- (15 / 16))) as [h1 h2].
  assert (z : Rfloor (- (15 / 16)) = (-1)%Z).
  { assert (a : (Rfloor (- (15 / 16)) < 0)%Z) by (apply lt_IZR; lra).
    assert (b : (-2 < Rfloor (- (15 / 16)))%Z) by (apply lt_IZR; lra).
    lia. }
  rewrite z. lra.
Qed.
"""
"""A sound proof: ``Rfloor (-15/16) = -1`` follows from ``Rfloor_spec``."""


def _floor_candidate(header: str, proof: str) -> str:
    return header.replace("Open Scope R_scope.\n", "Open Scope R_scope.\nRequire Import Lra Lia.\n") + THEOREM + proof


def _full(bench: Benchmark, problem: str, candidate: str) -> Verdict:
    return rocq_full_verdict(bench, problem, candidate)


def _statuses(verdict: Verdict) -> dict[str, GateStatus]:
    return {g.id: g.status for g in verdict.gates}


def test_the_statements_parameter_and_axiom_are_its_assumptions(bench: Benchmark) -> None:
    statement = statement_of(bench.problems[FLOOR])
    assert [name for _, name in statement.assumptions] == ["Rfloor", "Rfloor_spec"]
    reference = reference_source(statement)
    assert "Variable Rfloor : R -> Z." in reference and "Variable Rfloor_spec : forall x : R," in reference
    assert "Parameter" not in reference and "Axiom" not in reference


def test_plural_and_local_axioms_become_section_variables() -> None:
    text = (
        "Parameters (a b : nat).\nLocal Axiom h : a = b.\nConjecture k : b = a.\nTheorem t : a = b.\nProof. Admitted.\n"
    )
    statement = parse_statement(text, "t")
    assert [name for _, name in statement.assumptions] == ["a", "b", "h", "k"]
    reference = reference_source(statement)
    assert "Variables (a b : nat).\nVariable h : a = b.\nVariable k : b = a." in reference


@needs_coq
def test_a_sound_proof_using_the_statements_axiom_is_accepted(bench: Benchmark) -> None:
    verdict = _full(bench, FLOOR, _floor_candidate(HEADER, SOUND))
    assert verdict.accepted, [(g.id, g.detail[:300]) for g in verdict.gates if g.status is not GateStatus.PASSED]
    g5 = next(g for g in verdict.gates if g.id == "G5")
    assert sorted(g5.evidence["plugged"]) == ["Rfloor", "Rfloor_spec"]


@needs_coq
def test_a_concrete_model_of_the_statements_parameter_is_refused_by_g5_and_g6(bench: Benchmark) -> None:
    """``Rfloor := 0`` makes ``Rfloor_spec`` false, so it proves anything: each compiled gate refuses it."""
    header = HEADER.replace("Parameter Rfloor : R -> Z.", "Definition Rfloor (x : R) : Z := 0%Z.")
    absurd = "Proof.\n  exfalso. destruct (Rfloor_spec 1) as [_ h]. unfold Rfloor in h. lra.\nQed.\n"
    verdict = _full(bench, FLOOR, _floor_candidate(header, absurd))
    statuses = _statuses(verdict)
    assert not verdict.accepted
    assert statuses["G4"] is GateStatus.PASSED  # it is a real proof, of a different statement
    assert statuses["G2"] is GateStatus.FAILED
    assert statuses["G5"] is GateStatus.FAILED and statuses["G6"] is GateStatus.FAILED
    details = {g.id: g.detail for g in verdict.gates}
    assert "`Rfloor` must be the candidate's own axiom" in details["G5"]
    assert "Rfloor` is not an axiom of the candidate" in details["G6"]


SAMPLES_BENCHMARK = ROCQ_SAMPLES
LAST_DIGIT_HEADER = "Require Import ZArith.\nOpen Scope Z_scope.\n\n"
LAST_DIGIT_THEOREM = "Theorem sample_last_digit\n    : (2 ^ 100) mod 10 = sample_last_digit_solution.\n"
HIDDEN_ANSWERS = {
    "abstract": (
        "Lemma zz_witness : {x : Z | (2 ^ 100) mod 10 = x}.\n"
        "Proof. abstract (exists ((2 ^ 100) mod 10); reflexivity). Defined.\n",
        "match zz_witness_subproof with exist _ x _ => x end",
        "Proof. unfold sample_last_digit_solution. destruct zz_witness_subproof as [x e]. exact e. Qed.\n",
    ),
    "transparent_abstract": (
        "Definition zz_witness : Z.\nProof. transparent_abstract (exact ((2 ^ 100) mod 10)). Defined.\n",
        "zz_witness_subterm",
        "Proof. reflexivity. Qed.\n",
    ),
}
"""Answers that name a constant Coq generated for a helper (``abstract``'s ``<helper>_subproof``, opaque):
no word of the text names a helper, so G2's text rule passes them."""


def _no_answer(problem: str, candidate: str) -> Verdict:
    bench = load_benchmark(SAMPLES_BENCHMARK)
    return run_gates(
        RocqProver(),
        bench,
        bench.problems[problem],
        candidate.encode(),
        Track.NO_ANSWER,
        VerifyOptions(profile=Profile.FULL, keep_going=True),
    )


def test_the_answer_environment_keeps_the_header_and_reading_commands_only() -> None:
    candidate = (
        "Require Import ZArith.\nLemma zz_h : nat.\nProof. Import ZArith. exact 1%nat. Qed.\n"
        "Local Open Scope Z_scope.\nDefinition t_solution : Z := zz_h_subproof.\n"
        "Theorem t : True.\nProof. exact I. Qed.\n"
    )
    pinned = parse_statement(
        "Require Import ZArith.\nDefinition t_solution : Z := 6.\nTheorem t : t_solution = 6%Z.\nProof. Admitted.\n",
        "t",
    )
    assert pinned.solution_name == "t_solution"
    source = answer_env_source(pinned, candidate)
    assert source == (
        "Require Import ZArith.\nImport ZArith.\nLocal Open Scope Z_scope.\n"
        "Definition t_solution : Z := zz_h_subproof.\n"
    )
    assert answer_env_source(pinned, "Require Import ZArith.\n") is None


@needs_coq
@pytest.mark.parametrize("name", sorted(HIDDEN_ANSWERS))
def test_an_answer_naming_a_generated_constant_is_refused_by_g4(name: str) -> None:
    helper, answer, proof = HIDDEN_ANSWERS[name]
    solution = f"Definition sample_last_digit_solution : Z := {answer}.\n"
    candidate = f"{LAST_DIGIT_HEADER}{helper}{solution}{LAST_DIGIT_THEOREM}{proof}"
    verdict = _no_answer("sample_last_digit", candidate)
    statuses = _statuses(verdict)
    assert statuses["G2"] is GateStatus.PASSED  # no helper's name is written in the answer
    assert statuses["G4"] is GateStatus.FAILED and not verdict.accepted
    g4 = next(g for g in verdict.gates if g.id == "G4")
    assert "does not elaborate in the challenge's environment" in g4.detail and "zz_witness_sub" in g4.detail


@needs_coq
def test_a_written_out_answer_with_helpers_and_scopes_is_still_accepted() -> None:
    candidate = (
        f"{LAST_DIGIT_HEADER}Lemma zz_pow : (2 ^ 100) mod 10 = 6.\nProof. reflexivity. Qed.\n"
        "Local Open Scope Z_scope.\n"
        f"Definition sample_last_digit_solution : Z := 3 * 2.\n{LAST_DIGIT_THEOREM}"
        "Proof. exact zz_pow. Qed.\n"
    )
    verdict = _no_answer("sample_last_digit", candidate)
    assert verdict.accepted, [(g.id, g.detail[:300]) for g in verdict.gates if g.status is not GateStatus.PASSED]


AXIOM_THEN_SOLUTION = (
    "Parameter zc : nat.\nAxiom zc_spec : zc = 2.\nDefinition zt_solution : nat := 2.\n"
    "Theorem zt : zc = zt_solution.\nProof. Admitted.\n"
)


@needs_coq
@pytest.mark.parametrize("track", [Track.WITH_ANSWER, Track.NO_ANSWER])
def test_a_statement_axiom_before_the_solution_is_plugged_on_both_tracks(tmp_path: Path, track: Track) -> None:
    """The official solution is abstracted over the statement's axioms too (``solution_arguments``)."""
    bench = one_record_benchmark(tmp_path, "zt", AXIOM_THEN_SOLUTION)
    candidate = AXIOM_THEN_SOLUTION.replace("Proof. Admitted.", "Proof. exact zc_spec. Qed.")
    if track is Track.NO_ANSWER:
        candidate = candidate.replace("nat := 2.", "nat := 1 + 1.")
    options = VerifyOptions(profile=Profile.FULL, keep_going=True)
    verdict = run_gates(RocqProver(), bench, bench.problems["zt"], candidate.encode(), track, options)
    assert verdict.accepted, [(g.id, g.detail[:300]) for g in verdict.gates if g.status is not GateStatus.PASSED]
    if track is Track.NO_ANSWER:
        assert verdict.answers["zt_solution"]["check"]["status"] == "confirmed"

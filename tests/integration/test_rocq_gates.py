"""Rocq gates with real coqc and coqchk: the sample proofs pass, adversarial candidates are rejected.

Each attack class of docs/threat-model.md that applies to Rocq is a candidate on the project's own sample
benchmark (stdlib only, quick). Many of them compile with exit code 0, so each gate the design names
for the attack is called on its own, on a fresh scratch directory, and must reject it by itself; the
whole pipeline must reject it too.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.provers.rocq.checks import preservation_gate
from putnam_solver.core.provers.rocq.compile import compile_gate
from putnam_solver.core.provers.rocq.coqchk import kernel_gate
from putnam_solver.core.provers.rocq.forbidden import forbidden_gate
from putnam_solver.core.provers.rocq.statement import statement_gate
from putnam_solver.core.verify import (
    GateCheck,
    GateStatus,
    Profile,
    Submission,
    Track,
    VerifyOptions,
    run_gates,
)
from tests.helpers import ROCQ_SAMPLES, rocq_submission

BENCHMARK = ROCQ_SAMPLES
"""What the ``bench`` fixture (conftest.py) loads for this module."""

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples" / "rocq"
pytestmark = pytest.mark.skipif(
    shutil.which("coqc") is None or shutil.which("coqchk") is None,
    reason="coqc/coqchk not installed (putnam bootstrap --prover rocq)",
)
GATES: dict[str, GateCheck] = {
    "G2": preservation_gate,
    "G3": forbidden_gate,
    "G4": compile_gate,
    "G5": statement_gate,
    "G6": kernel_gate,
}


def submission(
    bench: Benchmark,
    problem_id: str,
    candidate: str,
    scratch: Path,
    track: Track = Track.WITH_ANSWER,
    timeout: float = 120.0,
) -> Submission:
    return rocq_submission(bench, problem_id, candidate, track, scratch, VerifyOptions(timeout_seconds=timeout))


def proof(problem_id: str) -> str:
    return (SAMPLES / "proofs" / f"{problem_id}.v").read_text(encoding="utf-8")


def verify(bench: Benchmark, problem_id: str, candidate: str, track: Track = Track.WITH_ANSWER):  # type: ignore[no-untyped-def]
    return run_gates(
        RocqProver(),
        bench,
        bench.problems[problem_id],
        candidate.encode(),
        track,
        VerifyOptions(profile=Profile.FULL, keep_going=True),
    )


@pytest.mark.parametrize("track", list(Track))
def test_every_sample_proof_is_accepted_by_the_full_profile(bench: Benchmark, track: Track) -> None:
    for problem_id in bench.problems:
        verdict = verify(bench, problem_id, proof(problem_id), track)
        assert verdict.status == "accepted", (problem_id, [g.to_json() for g in verdict.gates])
        if track is Track.NO_ANSWER and "solution" in bench.problems[problem_id].formal_statement:
            (answer,) = verdict.answers.values()
            assert answer["candidate"] == answer["official"]


SUM = "sample_sum_first_n"
SUM_HEADER = proof(SUM).split("Theorem ")[0]
SUM_THEOREM = "Theorem sample_sum_first_n\n    : forall n : nat, 2 * sum_to n = n * (n + 1).\n"

ATTACKS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    # name: (problem, candidate, gates that must each reject it). G6 is coqchk on the candidate and the
    # reference: what it can see is an axiom, an unsafe flag or a statement variable that is not an axiom;
    # a statement changed in a way the kernel accepts is G5's (and G2's) to find.
    "axiom": (
        SUM,
        SUM_HEADER
        + "Axiom cheat : forall n, 2 * sum_to n = n * (n + 1).\n"
        + SUM_THEOREM
        + "Proof. exact cheat. Qed.\n",
        ("G2", "G3", "G5", "G6"),
    ),
    "admitted": (SUM, SUM_HEADER + SUM_THEOREM + "Proof. Admitted.\n", ("G3", "G5", "G6")),
    "admit in a helper": (
        SUM,
        SUM_HEADER + "Lemma helper : forall n, 2 * sum_to n = n * (n + 1).\n"
        "Proof. admit. Admitted.\n" + SUM_THEOREM + "Proof. exact helper. Qed.\n",
        ("G3", "G5", "G6"),
    ),
    "parameter": (
        SUM,
        SUM_HEADER
        + "Parameter cheat : forall n, 2 * sum_to n = n * (n + 1).\n"
        + SUM_THEOREM
        + "Proof. exact cheat. Qed.\n",
        ("G2", "G3", "G5", "G6"),
    ),
    "unset guard checking": (
        SUM,
        SUM_HEADER + "Unset Guard Checking.\nFixpoint loop (n : nat) : False := "
        "loop n.\nSet Guard Checking.\n" + SUM_THEOREM + "Proof. intros n. destruct (loop n). Qed.\n",
        ("G2", "G3", "G5", "G6"),
    ),
    "bypass_check attribute": (
        SUM,
        SUM_HEADER + "#[bypass_check(guard)] Fixpoint loop (n : nat) : False := "
        "loop n.\n" + SUM_THEOREM + "Proof. intros n. destruct (loop n). Qed.\n",
        ("G3", "G5", "G6"),
    ),
    "section variable": (
        SUM,
        SUM_HEADER
        + "Section S.\nVariable cheat : forall n, 2 * sum_to n = n * (n + 1).\n"
        + SUM_THEOREM
        + "Proof. exact cheat. Qed.\nEnd S.\n",
        # A section of the candidate's may hold the theorem: its End makes `cheat` a premise, which G5 finds in
        # the kernel's type; G2 leaves such a section to G5 and refuses it on profiles without G5
        # (tests/adversarial/test_rocq_theorem_in_section.py).
        ("G5",),
    ),
    "notation changes =": (
        SUM,
        SUM_HEADER
        + 'Local Notation "x = y" := (x = x) (at level 70, no associativity).\n'
        + SUM_THEOREM
        + "Proof. reflexivity. Qed.\n",
        ("G2", "G3", "G5", "G6"),
    ),
    "forged output": (
        SUM,
        SUM_HEADER
        + 'Goal True. idtac "Closed under the global context". exact I. Qed.\n'
        + SUM_THEOREM
        + "Proof. Admitted.\n",
        ("G3", "G5", "G6"),  # an anonymous `Goal` is a harmless helper for G2 (red team 29)
    ),
    "theorem renamed": (
        SUM,
        SUM_HEADER
        + SUM_THEOREM.replace("sample_sum_first_n", "sample_sum_first_n'")
        + "Proof. induction n; simpl; lia. Qed.\n",
        ("G2", "G5"),
    ),
    "statement weakened": (
        SUM,
        SUM_HEADER
        + SUM_THEOREM.replace("2 * sum_to n", "sum_to n + sum_to n")
        + "Proof. induction n; simpl; lia. Qed.\n",
        ("G2", "G5"),
    ),
    "helper shadows a statement word": (
        "sample_rev_length",
        "Require Import List.\n\nVariable A : Type.\nDefinition rev (l : list A) := l.\n"
        "Theorem sample_rev_length\n    (l : list A)\n    : length (rev l) = length l.\nProof. reflexivity. Qed.\n",
        ("G2", "G5"),
    ),
    "assumption replaced by a definition": (
        "sample_rev_length",
        "Require Import List.\n\nDefinition A : Type := nat.\nTheorem sample_rev_length\n    (l : list A)\n"
        "    : length (rev l) = length l.\nProof. apply rev_length. Qed.\n",
        ("G2", "G5", "G6"),
    ),
    "answer changed": (
        "sample_sum_odds",
        proof("sample_sum_odds").split("Definition")[0]
        + "Definition sample_sum_odds_solution : nat -> nat := fun n => sum_odds n.\n"
        "Theorem sample_sum_odds\n    : forall n : nat, sum_odds n = sample_sum_odds_solution n.\n"
        "Proof. intros n. reflexivity. Qed.\n",
        ("G2", "G5"),
    ),
    "extraction writes a file": (
        SUM,
        SUM_HEADER + 'Extraction "out.ml" sum_to.\n' + SUM_THEOREM + "Proof. induction n; simpl; lia. Qed.\n",
        ("G2", "G3"),
    ),
    "declare ml module": (
        SUM,
        SUM_HEADER + 'Declare ML Module "evil_plugin".\n' + SUM_THEOREM + "Proof. induction n; simpl; lia. Qed.\n",
        ("G2", "G3", "G4"),
    ),
}


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_each_named_gate_rejects_the_attack_on_its_own(bench: Benchmark, name: str, tmp_path: Path) -> None:
    problem_id, candidate, gates = ATTACKS[name]
    for gate_id in gates:
        result = GATES[gate_id](submission(bench, problem_id, candidate, tmp_path / gate_id))
        assert result.status is GateStatus.FAILED, (name, gate_id, result.detail)
    verdict = verify(bench, problem_id, candidate)
    assert verdict.status == "rejected", name
    assert not any(g.status is GateStatus.ERROR for g in verdict.gates), [g.to_json() for g in verdict.gates]


def test_forbidden_words_in_comments_and_strings_do_not_count(bench: Benchmark, tmp_path: Path) -> None:
    candidate = proof(SUM).replace("Proof.", '(* Axiom admit Admitted *) Proof. idtac "Axiom admit".', 1)
    assert verify(bench, SUM, candidate).status == "accepted"


def test_timeout_is_an_error_not_a_rejection(bench: Benchmark, tmp_path: Path) -> None:
    candidate = (
        SUM_HEADER
        + "Lemma spin : True.\nProof. repeat (idtac; assert True by exact I). exact I. Qed.\n"
        + SUM_THEOREM
        + "Proof. induction n; simpl; lia. Qed.\n"
    )
    result = compile_gate(submission(bench, SUM, candidate, tmp_path, timeout=3.0))
    assert result.status is GateStatus.ERROR
    assert "timed out after 3 s" in result.detail


def test_compile_errors_name_the_line(bench: Benchmark, tmp_path: Path) -> None:
    candidate = SUM_HEADER + SUM_THEOREM + "Proof.\n  exact I.\nQed.\n"
    result = compile_gate(submission(bench, SUM, candidate, tmp_path))
    assert result.status is GateStatus.FAILED
    assert "line 12" in result.detail and "Error" in result.detail


def test_no_answer_records_a_different_correct_answer(bench: Benchmark) -> None:
    candidate = (
        proof("sample_sum_odds")
        .replace(":= fun n => n * n.", ":= fun n => n ^ 2.")
        .replace("unfold sample_sum_odds_solution.", "unfold sample_sum_odds_solution. intros n. rewrite Nat.pow_2_r.")
    )
    verdict = verify(bench, "sample_sum_odds", candidate, Track.NO_ANSWER)
    assert verdict.answers == {
        "sample_sum_odds_solution": {
            "candidate": "fun n => n ^ 2",
            "official": "fun n => n * n",
            "check": {"status": "confirmed", "reason": "coqc proved candidate = official"},
        }
    }
    assert verdict.status == "accepted", [g.to_json() for g in verdict.gates]

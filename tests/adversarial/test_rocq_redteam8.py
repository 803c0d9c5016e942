"""Red team, round 8 (Rocq): the yes/no decision of no-answer G4 ran the candidate's Ltac.

A yes/no answer (``putnam_1996_a3``: ``<question> <-> solution``) must be proved equivalent to ``True`` or
``False`` by ``tauto``/``easy``, so that the question restated as its answer (``P <-> P``) is refused. The
harness decided it after ``Require``-ing the compiled candidate, and ``tauto`` and ``easy`` are Ltac: a
candidate's ``Ltac tauto ::= exact_no_check I.``, even inside a helper's proof (``Ltac`` is a permitted
addition), replaces the library's tactic in every file that merely ``Require``s the candidate, and
``exact_no_check`` closes any goal unchecked (the decision's goal is aborted, never sent to the kernel).
The restated question was ``accepted`` again, every gate passed (coqc 8.16.1). The decision now runs
before the candidate is loaded, on the answer as elaborated in the challenge's environment, and the
candidate's compiled solution must then be convertible with it (``exact eq_refl``: no Ltac).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers.rocq.answer_env import decided, names_source
from putnam_solver.core.provers.rocq.syntax import parse_statement
from putnam_solver.core.verify import Track
from tests.adversarial.test_rocq_redteam6 import YES_NO, _failing, _restated
from tests.helpers import COQ_BENCH, one_record_benchmark, rocq_full_verdict

needs_coq = pytest.mark.skipif(
    shutil.which("coqc") is None or shutil.which("coqchk") is None,
    reason="coqc/coqchk not installed (putnam bootstrap --prover rocq)",
)

REDEFINITIONS = {
    "tauto_in_a_helper_proof": "Lemma zz_helper : True.\nProof. Ltac tauto ::= exact_no_check I. exact I. Qed.\n\n",
    "easy_top_level": "Ltac easy ::= exact_no_check I.\n\n",
    "both_vm_cast": "Ltac tauto ::= vm_cast_no_check I.\nLtac easy ::= vm_cast_no_check I.\n\n",
}


@needs_coq
@pytest.mark.parametrize("case", sorted(REDEFINITIONS))
def test_a_restated_question_with_the_deciding_tactics_redefined_is_refused(case: str) -> None:
    text = _restated("putnam_1996_a3")
    text = text.replace("Theorem putnam_1996_a3", REDEFINITIONS[case] + "Theorem putnam_1996_a3")
    verdict = rocq_full_verdict(load_benchmark(COQ_BENCH), "putnam_1996_a3", text, Track.NO_ANSWER)
    failing = _failing(verdict)
    assert not verdict.accepted, failing
    assert [g for g, _ in failing] == ["G4"], failing
    assert "truth value" in failing[0][1]


@needs_coq
def test_a_true_answer_with_a_redefined_tactic_still_passes(tmp_path: Path) -> None:
    """The control: an honest answer is decided whatever the candidate does to its own tactics."""
    bench = one_record_benchmark(tmp_path, "yn", YES_NO)
    candidate = YES_NO.replace("Proof. Admitted.", "Proof. unfold yn_solution. split; intros; [exact I | nia]. Qed.")
    candidate = candidate.replace("Theorem yn", "Ltac tauto ::= fail.\nLtac easy ::= fail.\n\nTheorem yn")
    verdict = rocq_full_verdict(bench, "yn", candidate, Track.NO_ANSWER)
    assert verdict.accepted, _failing(verdict)


def test_the_decision_comes_before_the_candidate_is_loaded() -> None:
    statement = parse_statement(YES_NO, "yn")
    lines = names_source(statement, "M").splitlines()
    require = lines.index("Require Putnam.Candidate.")
    decide = next(i for i, line in enumerate(lines) if "M-decided" in line)
    same = next(i for i, line in enumerate(lines) if "M-same" in line)
    assert decide < require < same
    assert "Putnam.Candidate" not in lines[decide]


def test_decided_needs_both_the_decision_and_the_same_solution() -> None:
    assert decided("M-decided\nM\nM-same\n", "M") is True
    assert decided("M-decided\nM\nM-different\n", "M") is False
    assert decided("M-undecided\nM\nM-same\n", "M") is False
    assert decided("M-decided\nM\n", "M") is None
    assert decided(" M-decided\nM\n M-same\n", "M") is None

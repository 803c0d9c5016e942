"""Red team, round 8 (Rocq): no-answer G4's new answer rules.

1. **The yes/no decision ran the candidate's Ltac.** A yes/no answer (``putnam_1996_a3``:
   ``<question> <-> solution``) must be proved equivalent to ``True`` or ``False`` by ``tauto``/``easy``,
   so that the question restated as its answer (``P <-> P``) is refused. The harness decided it after
   ``Require``-ing the compiled candidate, and ``tauto`` and ``easy`` are Ltac: a candidate's ``Ltac tauto
   ::= exact_no_check I.``, even inside a helper's proof (``Ltac`` is a permitted addition), replaces the
   library's tactic in every file that merely ``Require``s the candidate, and ``exact_no_check`` closes any
   goal unchecked (the decision's goal is aborted, never sent to the kernel). The restated question was
   ``accepted`` again, every gate passed (coqc 8.16.1). The decision now runs before the candidate is
   loaded, on the answer as elaborated in the challenge's environment, and the candidate's compiled
   solution must then be convertible with it (``exact eq_refl``: no Ltac).
2. **A choice operator the list did not name.** The answer ``proj1_sig (epsilon_statement P (inhabits 0))``
   (``Coq.Logic.Epsilon``'s own axiom, of type ``{x | (exists x, P x) -> P x}``) or ``let (x, _) :=
   iota_statement P (inhabits 0) in x`` is "the x with the property" as much as ``epsilon`` is, and was
   ``accepted`` on ``sample_last_digit``: the list named the library's wrappers, not the package they
   open. Any value projected out of a ``sig``/``sigT`` (``proj1_sig``, ``projT1``, a match on ``exist``,
   the recursors) is now refused, whatever lemma or axiom made the package (no official answer uses one),
   and the statement-level lemmas are named too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers.rocq.answer_env import choice_operators, decided, names_source
from putnam_solver.core.provers.rocq.statement_shape import parse_statement
from putnam_solver.core.verify import Track
from tests.adversarial.test_rocq_redteam6 import (
    EXISTS,
    PROPERTY,
    YES_NO,
    _failing,
    _no_answer,
    _restated,
    answered,
)
from tests.helpers import COQ_BENCH, needs_coq, one_record_benchmark, rocq_full_verdict

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
    failing = dict(_failing(verdict))
    assert not verdict.accepted, failing
    # G3 refuses the redefinition itself now (round 9); G4 refuses the answer on its own as well
    assert sorted(failing) == ["G3", "G4"] and "Ltac ::=" in failing["G3"], failing
    assert "truth value" in failing["G4"]


@needs_coq
def test_a_true_answer_with_a_redefined_tactic_still_passes(tmp_path: Path) -> None:
    """The control: an honest answer is decided whatever the candidate does to its own tactics (G3 refuses
    the redefinitions themselves since round 9; G4's decision is unaffected by them)."""
    bench = one_record_benchmark(tmp_path, "yn", YES_NO)
    candidate = YES_NO.replace("Proof. Admitted.", "Proof. unfold yn_solution. split; intros; [exact I | nia]. Qed.")
    candidate = candidate.replace("Theorem yn", "Ltac tauto ::= fail.\nLtac easy ::= fail.\n\nTheorem yn")
    verdict = rocq_full_verdict(bench, "yn", candidate, Track.NO_ANSWER)
    assert [g for g, _ in _failing(verdict)] == ["G3"], _failing(verdict)


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


UNPACKED = {
    "epsilon_statement_projected": (
        f"proj1_sig (epsilon_statement {PROPERTY} (inhabits 0))",
        f"apply (proj2_sig (epsilon_statement {PROPERTY} (inhabits 0))). exact {EXISTS}.",
        "Epsilon.epsilon_statement",
    ),
    "iota_statement_matched": (
        f"let (x, _) := iota_statement {PROPERTY} (inhabits 0) in x",
        f"destruct (iota_statement {PROPERTY} (inhabits 0)) as [x h]. apply h. "
        "exists ((2 ^ 100) mod 10). split; [reflexivity | intros y H; exact H].",
        "Specif.exist",
    ),
    "recursor": (
        f"sig_rect (fun _ => Z) (fun x _ => x) (epsilon_statement {PROPERTY} (inhabits 0))",
        f"apply (proj2_sig (epsilon_statement {PROPERTY} (inhabits 0))). exact {EXISTS}.",
        "Specif.sig_rect",
    ),
}


@needs_coq
@pytest.mark.parametrize("name", sorted(UNPACKED))
def test_a_value_unpacked_from_a_choice_axiom_is_refused(name: str) -> None:
    answer, proof, operator = UNPACKED[name]
    candidate = answered("Require Import Coq.Logic.Epsilon.\n", answer, proof)
    verdict = _no_answer(candidate)
    failing = _failing(verdict)
    assert [g for g, _ in failing] == ["G4"], failing
    assert "by choice" in failing[0][1] and operator in failing[0][1]


def test_package_projections_are_read_qualified_and_binders_are_not() -> None:
    printed = "M\nsol = match @Epsilon.epsilon_statement Z P i return Z with | Specif.exist _ x _ => x end : Z\n"
    assert choice_operators(printed, "M") == ["Epsilon.epsilon_statement", "Specif.exist"]
    assert choice_operators("M\nsol = fun proj1_sig : Z => proj1_sig : Z -> Z\n", "M") == []
    assert choice_operators("M\nsol = @choice.sigW T P h\n", "M") == ["choice.sigW"]


@needs_coq
def test_the_official_yes_no_answer_under_mathcomp_passes_g4() -> None:
    """The control under mathcomp, whose ``eq_refl`` is a lemma about ``==``: the comparison of the
    compiled solution with the decided one names Coq's (the pinned text, its proof admitted, so only G4
    is asked)."""
    bench = load_benchmark(COQ_BENCH)
    text = bench.problems["putnam_1996_a3"].formal_statement
    verdict = rocq_full_verdict(bench, "putnam_1996_a3", text, Track.NO_ANSWER)
    g4 = next(g for g in verdict.gates if g.id == "G4")
    assert g4.status.value == "passed", g4.detail

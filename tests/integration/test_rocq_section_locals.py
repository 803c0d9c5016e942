"""Assumptions local to a section the candidate adds around its helpers (real coqc and coqchk).

Coq discharges a section's ``Variable``, ``Hypothesis``, ``Context`` and ``Let`` at its ``End``: each
lemma of the section is generalised over those it uses, so none of them reaches the theorem, which comes
after. Published proofs write their helpers so (the corrected ``putnam_1962_a2`` of the conformance
corpus); G2 and G3 refused every one of these words, a false rejection of the whole idiom. Outside a
section of the candidate's the same words declare axioms (or hypotheses of the challenge's theorem) and
stay refused.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import ROCQ_SAMPLES, failures, needs_coq, rocq_full_verdict

BENCHMARK = ROCQ_SAMPLES
"""What the ``bench`` fixture (conftest.py) loads for this module."""


THEOREM = "Theorem sample_even_square\n    (n : nat)\n    : Nat.even (n * n) = Nat.even n.\n"
PROOF = "Proof.\n  rewrite Nat.even_mul.\n  destruct (Nat.even n); reflexivity.\nQed.\n"
SECTION = """Section ZzHelpers.
Variable zz_k : nat.
Variables (zz_a zz_b : nat).
Hypothesis zz_h : zz_k = 0.
Hypotheses (zz_ha : zz_a = zz_b) (zz_hb : zz_b = 0).
Context (zz_c : bool).
Let zz_m := zz_k + 1.
Let zz_p : nat.
Proof. exact zz_a. Defined.
Lemma zz_l : zz_m = 1.
Proof. unfold zz_m. rewrite zz_h. reflexivity. Qed.
End ZzHelpers.

"""


def _candidate(helpers: str, proof: str = PROOF) -> str:
    return f"Require Import Arith.\n\n{helpers}{THEOREM}{proof}"


def _text(bench: Benchmark, candidate: str) -> Verdict:
    options = VerifyOptions(profile=Profile.TEXT, keep_going=True)
    return run_gates(
        RocqProver(), bench, bench.problems["sample_even_square"], candidate.encode(), Track.WITH_ANSWER, options
    )


@needs_coq
def test_assumptions_of_a_closed_section_of_helpers_are_accepted_on_every_profile(bench: Benchmark) -> None:
    candidate = _candidate(SECTION)
    assert _text(bench, candidate).status == "accepted", failures(_text(bench, candidate))
    verdict = rocq_full_verdict(bench, "sample_even_square", candidate)
    assert verdict.status == "accepted", failures(verdict)


@needs_coq
def test_a_discharged_hypothesis_is_a_premise_of_its_lemma_not_an_assumption_of_the_theorem(
    bench: Benchmark,
) -> None:
    """By meaning: after ``End`` the lemma is ``False -> ...``; a theorem that uses it without proving
    ``False`` does not compile, and nothing of the section is among the theorem's assumptions."""
    helpers = (
        "Section ZzS.\nHypothesis zz_f : False.\n"
        "Lemma zz_any : forall n : nat, Nat.even (n * n) = Nat.even n.\nProof. destruct zz_f. Qed.\nEnd ZzS.\n\n"
    )
    verdict = rocq_full_verdict(bench, "sample_even_square", _candidate(helpers, "Proof.\n  apply zz_any.\nQed.\n"))
    assert verdict.status == "rejected"
    assert "G4" in failures(verdict), failures(verdict)


REFUSED = {
    "a hypothesis at top level (an axiom)": "Hypothesis zz_f : False.\n\n",
    "a variable at top level (an axiom)": "Variable zz_v : nat.\n\n",
    "a context at top level": "Context (zz_f : False).\n\n",
    "a section left open around the theorem": "Section ZzS.\nHypothesis zz_f : False.\n\n",
}


@pytest.mark.parametrize("helpers", REFUSED.values(), ids=REFUSED.keys())
def test_assumptions_outside_a_closed_section_stay_refused(bench: Benchmark, helpers: str) -> None:
    verdict = _text(bench, _candidate(helpers, "Proof.\n  destruct zz_f.\nQed.\n"))
    assert verdict.status == "rejected"
    refused = failures(verdict)
    assert "G2" in refused, refused
    if "Section" not in helpers:
        assert "declares an assumption" in refused.get("G3", ""), refused


def test_a_section_let_is_named_apart_from_the_challenge(bench: Benchmark) -> None:
    """A ``Let`` declares a name like a helper does: one of the challenge's words is refused."""
    helpers = "Section ZzS.\nLet even := 0.\nEnd ZzS.\n\n"
    refused = failures(_text(bench, _candidate(helpers)))
    assert "G2" in refused and "even" in refused["G2"], refused


def test_an_assumption_added_to_the_challenges_own_top_level_variables_is_refused(bench: Benchmark) -> None:
    """``sample_rev_length`` declares ``Variable A : Type.`` itself: a hypothesis beside it is an axiom."""
    candidate = (
        "Require Import List.\n\nVariable A : Type.\nHypothesis zz_f : False.\nTheorem sample_rev_length\n"
        "    (l : list A)\n    : length (rev l) = length l.\nProof.\n  destruct zz_f.\nQed.\n"
    )
    options = VerifyOptions(profile=Profile.TEXT, keep_going=True)
    problem = bench.problems["sample_rev_length"]
    verdict = run_gates(RocqProver(), bench, problem, candidate.encode(), Track.WITH_ANSWER, options)
    assert verdict.status == "rejected"
    assert {"G2", "G3"} <= set(failures(verdict)), failures(verdict)
    assert all(g.status is not GateStatus.ERROR for g in verdict.gates)

"""A cluster node that forges its verdict: the head re-runs G1-G3 itself and checks every input hash.

The forgeries are injected where the head receives a node's result (``Request.checked``, which
``RayVerifier`` calls on every ``NodeResult``), so no cluster is needed: a real verdict of a real proof
(real coqc/coqchk), re-stamped with the hashes of what the head sent, is returned for candidates the
text gates refuse. The same real verdict returned honestly must still be taken, with the node recorded.
"""

from __future__ import annotations

import copy
import dataclasses

import pytest

from putnam_solver.cluster.request import NodeDisagrees, NodeResult, Request
from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.util import sha256_hex
from putnam_solver.core.verify import GateStatus, Track, Verdict, VerifyOptions, run_gates
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import ROCQ_SAMPLES

pytestmark = NEEDS_ROCQ

BENCHMARK = ROCQ_SAMPLES
"""What the ``bench`` fixture (conftest.py) loads for this module."""
PROBLEM = "sample_even_square"
GOOD = (ROCQ_SAMPLES.parent / "proofs" / f"{PROBLEM}.v").read_bytes()
ADMITTED = GOOD.replace(b"Qed.", b"Admitted.")  # G3 refuses it
WEAKER = GOOD.replace(b"Nat.even (n * n) = Nat.even n", b"Nat.even (n * n) = Nat.even (n * n)")  # G2 refuses it


@pytest.fixture(scope="module")
def honest(bench: Benchmark) -> Verdict:
    """The full-profile verdict of the real proof, as an honest node computes it."""
    verdict = run_gates(get_prover("rocq"), bench, bench.problems[PROBLEM], GOOD, Track.WITH_ANSWER, VerifyOptions())
    assert verdict.accepted, verdict.to_json()
    return verdict


def _request(bench: Benchmark, data: bytes) -> Request:
    rocq = get_prover("rocq")
    return Request("verify", rocq, bench, bench.problems[PROBLEM], data, Track.WITH_ANSWER, VerifyOptions(), "c.v")


def _from_node(verdict: Verdict) -> NodeResult:
    return NodeResult("node-a", "host-a", "tc", outcome=verdict)


def test_an_honest_node_verdict_is_taken_with_the_node_and_the_head_s_own_text_gates(
    bench: Benchmark, honest: Verdict
) -> None:
    outcome = _request(bench, GOOD).checked(_from_node(copy.deepcopy(honest)), [])
    assert isinstance(outcome, Verdict) and outcome.status == "accepted"
    assert [g.id for g in outcome.gates] == ["G1", "G2", "G3", "G4", "G5", "G6"]
    assert outcome.ran_on["node_id"] == "node-a" and outcome.ran_on["head_checked"] == ["G1", "G2", "G3"]


@pytest.mark.parametrize(("data", "refused_by"), [(ADMITTED, "G3"), (WEAKER, "G2")])
def test_a_forged_all_passed_verdict_with_echoed_hashes_is_the_head_s_rejection(
    bench: Benchmark, honest: Verdict, data: bytes, refused_by: str
) -> None:
    forged = dataclasses.replace(copy.deepcopy(honest), candidate_sha256=sha256_hex(data))
    assert forged.accepted, "the forgery claims every gate passed"
    outcome = _request(bench, data).checked(_from_node(forged), [])
    assert isinstance(outcome, NodeDisagrees), outcome
    first = outcome.verdict.first_problem()
    assert outcome.verdict.status == "rejected" and first is not None and first.id == refused_by
    assert f"{refused_by}: node passed, head failed" in outcome.why and "host-a" in outcome.why
    assert outcome.verdict.ran_on["node_id"] == "node-a" and outcome.verdict.ran_on["disagreed"] == outcome.why


def test_a_hash_in_the_evidence_that_is_not_of_what_was_sent_is_an_error(bench: Benchmark, honest: Verdict) -> None:
    forged = copy.deepcopy(honest)
    forged.gates[0].evidence["challenge_sha256"] = sha256_hex(b"another challenge")
    outcome = _request(bench, GOOD).checked(_from_node(forged), [])
    assert isinstance(outcome, NodeDisagrees) and outcome.verdict.status == "error"
    assert "gates[0].evidence.challenge_sha256" in outcome.why


def test_a_node_that_fails_a_text_gate_the_head_passes_is_an_error_not_a_rejection(
    bench: Benchmark, honest: Verdict
) -> None:
    lying = copy.deepcopy(honest)
    lying.gates[1] = dataclasses.replace(lying.gates[1], status=GateStatus.FAILED)
    outcome = _request(bench, GOOD).checked(_from_node(lying), [])
    assert isinstance(outcome, NodeDisagrees) and outcome.verdict.status == "error"
    assert "G2: node failed, head passed" in outcome.why

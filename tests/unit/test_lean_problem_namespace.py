"""The problem's own namespace on ProofNet: a helper in the namespace named after the theorem, CamelCased
(``MunkresExercise322b``, as ``Putnam1997B5`` for ``putnam_1997_b5``), is accepted on the text profile
whatever the benchmark. The theorem's own name is a name the statement uses, so a namespace spelled as it
is left to G6 with the other reachable ones, as is a namespace an author chose (ProofNet-Verified's
``Proofnet131``, ``Polynomial``): it may exist in Mathlib, which only G6 can tell. No statement of
PutnamBench, ProofNet or miniF2F opens a namespace of its own, so the theorem's name is the only
namespace a statement gives."""

from __future__ import annotations

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.helpers import PROOFNET_LEAN, failures, lean_filled, lean_text_verdict

BENCHMARK = PROOFNET_LEAN
PID = "Munkres_exercise_32_2b"
HELPER = "lemma helper_fact (m : ℕ) : m + 0 = m := rfl\n"


def outcome(bench: Benchmark, namespace: str) -> tuple[str, bool, str]:
    text = lean_filled(bench, PID, before=f"namespace {namespace}\n{HELPER}end {namespace}\n")
    verdict = lean_text_verdict(bench, PID, text)
    return verdict.status, verdict.needs_full_profile, str(failures(verdict))


@pytest.mark.parametrize("namespace", ["MunkresExercise322b", "MunkresExercise322b.Aux"])
def test_a_helper_in_the_problems_own_namespace_is_accepted(bench: Benchmark, namespace: str) -> None:
    status, _, why = outcome(bench, namespace)
    assert status == "accepted", why


@pytest.mark.parametrize("namespace", ["Proofnet131", "Polynomial", "Set", PID])
def test_a_namespace_an_author_chose_is_left_to_g6(bench: Benchmark, namespace: str) -> None:
    status, deferred, why = outcome(bench, namespace)
    assert status == "rejected" and deferred and "can change the statement only through elaboration" in why, why

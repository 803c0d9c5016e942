"""A challenge's header ``Require`` merged with other libraries, or left out (``libraries.loads_more``/``left_out``).

G5 elaborates the statement from the pinned text with the challenge's own libraries, so how the candidate
loads its libraries can change the statement only through elaboration. ``Require Import Arith Lia.`` for
``Require Import Arith.`` (the form models write) was refused even on the full profile as "missing or
changed", as was Max Fan's published proof of ``mathd_numbertheory_207`` (``tlringer/miniF2F``), which has
``Require Import Nat Lia.`` where the challenge has ``Require Import Arith.``; both now pass where G5 runs.
The near-twins still fail: the same left-out ``Require`` replaced by MathComp's ``ssrnat``, which reads
``<`` as a boolean (G5 sees the changed type), and a merged ``Require`` of a library outside the permitted
roots (G2's library rule sees the surplus name as it sees an added ``Require``).
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from tests.helpers import MINIF2F_ROCQ, failures, needs_coq, pinned, rocq_full_verdict, sampled

THEOREM = """
Theorem amc12a_2002_p6
  (n : nat)
  (h₀ : 0 < n) :
  exists m, m > n /\\ exists p, m * p <= m + p.
Proof.
"""
LIA = "exists (S n). split; [lia | exists 1; lia].\nQed.\n"

SOUND = {
    "merged with Lia": "Require Import Arith Lia.\n" + THEOREM + LIA,
    "left out, Lia instead": "Require Import Lia.\n" + THEOREM + LIA,
}
"""Sound proofs of the pinned ``amc12a_2002_p6`` (``Require Import Arith.``): refused on text, accepted on full."""

SSRNAT = "From mathcomp Require Import ssreflect ssrbool ssrnat.\n" + THEOREM.replace(
    "Proof.\n", "Proof.\nexists n.+1; split; first exact: ltnSn.\nby exists 1; rewrite muln1 leq_addr.\nQed.\n"
)
FORBIDDEN = "Require Import Arith Putnam.Reference.\n" + THEOREM + LIA


def text_verdict(candidate: str) -> tuple[str, bool, dict[str, str]]:
    bench = pinned(MINIF2F_ROCQ)
    problem, options = bench.problems["amc12a_2002_p6"], VerifyOptions(profile=Profile.TEXT)
    v = run_gates(get_prover("rocq"), bench, problem, candidate.encode(), Track.WITH_ANSWER, options)
    return v.status, v.needs_full_profile, failures(v)


@pytest.mark.parametrize("candidate", [*SOUND.values(), SSRNAT], ids=[*SOUND, "ssrnat instead"])
def test_text_profile_leaves_the_header_to_g5(candidate: str) -> None:
    status, needs_full, _ = text_verdict(candidate)
    assert status == "rejected" and needs_full


def test_a_merged_require_of_a_foreign_library_is_refused_on_text() -> None:
    status, needs_full, failed = text_verdict(FORBIDDEN)
    assert status == "rejected" and not needs_full
    assert "only installed libraries" in failed["G2"]


@needs_coq
@pytest.mark.parametrize("candidate", sampled(SOUND, {"merged with Lia"}))
def test_sound_header_forms_pass_on_full(candidate: str) -> None:
    v = rocq_full_verdict(pinned(MINIF2F_ROCQ), "amc12a_2002_p6", candidate)
    assert v.status == "accepted", failures(v)


@needs_coq
def test_ssrnat_for_arith_changes_the_statement() -> None:
    v = rocq_full_verdict(pinned(MINIF2F_ROCQ), "amc12a_2002_p6", SSRNAT)
    assert v.status == "rejected"
    assert "does not prove the challenge statement" in failures(v)["G5"]

"""Red team, round 12 (Rocq): where the gates' reading of a candidate parted from Coq's.

1. **A command glued behind a bullet (``fast``).** At a sentence's start Coq's lexer reads a run of one of
   ``-``, ``+``, ``*`` as a bullet whatever follows it (``cLexer.ml``: ``process_sequence`` while
   ``between_commands``), so ``-#[local] Open Scope nat_scope.`` inside a helper's proof is a bullet and
   then ``Open Scope``, whose scope outlives the ``Qed`` (measured with coqc 8.16). The gates' lexer took
   ``-#`` for one symbol, so the sentence read as a tactic whose command was ``-#``: G2 never judged the
   ``Open``, and a statement ``3 - 5 = 0`` over ``Z`` (false) was proved in ``nat`` and ``accepted`` on
   the ``fast`` profile (G5 refused it on ``full``). Any command with an attribute could hide so
   (``#[global] Ltac ... ::=``, ``#[export] Set ...``, ``#[global] Hint ... : typeclass_instances``).
   The splitter now cuts such a token into Coq's bullets and the rest.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq.syntax import sentences
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import failures, needs_coq, one_record_benchmark

Z_HEADER = "Require Import ZArith.\nOpen Scope Z_scope.\n"
Z_FALSE = Z_HEADER + "Theorem t : 3 - 5 = 0.\nProof. Admitted.\n"
"""False over ``Z`` (``3 - 5`` is ``-2``), true over ``nat``."""


def _verdict(tmp_path: Path, statement: str, candidate: str, profile: Profile) -> Verdict:
    bench = one_record_benchmark(tmp_path, "t", statement)
    options = VerifyOptions(profile=profile, keep_going=True)
    return run_gates(get_prover("rocq"), bench, bench.problems["t"], candidate.encode(), Track.WITH_ANSWER, options)


def _glued_scope(bullet: str) -> str:
    return (
        Z_HEADER
        + "Lemma zz_h : True /\\ True.\nProof. split.\n"
        + f"{bullet}#[local] Open Scope nat_scope. exact I.\n- exact I.\nQed.\n"
        + "Theorem t : 3 - 5 = 0.\nProof. reflexivity. Qed.\n"
    )


@pytest.mark.parametrize("bullet", ["-", "*", "+", "--", "-*+"])
def test_a_command_glued_to_a_bullet_is_its_own_sentence(bullet: str) -> None:
    text = f"Proof. split.\n{bullet}#[local] Open Scope nat_scope. exact I.\n"
    read = [s.command for s in sentences(text)]
    assert "Open" in read
    assert all(c in ("Proof", "split", "Open", "exact") or set(c) <= set("-+*") for c in read)


@needs_coq
def test_a_scope_opened_behind_a_glued_bullet_is_refused_on_fast(tmp_path: Path) -> None:
    verdict = _verdict(tmp_path, Z_FALSE, _glued_scope("-"), Profile.FAST)
    assert verdict.status != "accepted"
    assert "Open Scope nat_scope" in failures(verdict)["G2"]


@needs_coq
def test_glued_bullets_in_a_sound_proof_still_pass(tmp_path: Path) -> None:
    statement = Z_HEADER + "Theorem t : 3 - 5 = -2 /\\ True.\nProof. Admitted.\n"
    candidate = Z_HEADER + "Theorem t : 3 - 5 = -2 /\\ True.\nProof. split.\n-reflexivity.\n-*exact I.\nQed.\n"
    verdict = _verdict(tmp_path, statement, candidate, Profile.FAST)
    assert verdict.status == "accepted", failures(verdict)
    assert all(g.status is GateStatus.PASSED for g in verdict.gates)

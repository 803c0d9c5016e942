"""The no-answer answer check with real coqc: confirmed, differs, unknown; a record that never gates."""

from __future__ import annotations

import shutil

import pytest

from putnam_solver.core.answer_check import AnswerStatus
from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.provers.rocq.answers import official_not_closed
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import REPO, ROCQ_SAMPLES

BENCHMARK = ROCQ_SAMPLES
"""What the ``bench`` fixture (conftest.py) loads for this module."""

SAMPLES = REPO / "samples" / "rocq"
DIGIT = "sample_last_digit"
needs_coq = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc missing")


def _digit(answer: str, proof: str = "reflexivity.\nQed.") -> str:
    text = (SAMPLES / "proofs" / f"{DIGIT}.v").read_text().replace(":= 6.", f":= {answer}.")
    return text.replace("reflexivity.\nQed.", proof)


def _verify(bench: Benchmark, candidate: str, track: Track, profile: Profile = Profile.FULL) -> Verdict:
    options = VerifyOptions(profile=profile, keep_going=True)
    return run_gates(RocqProver(), bench, bench.problems[DIGIT], candidate.encode(), track, options)


@needs_coq
def test_an_equal_answer_is_confirmed_and_a_different_one_differs(bench: Benchmark) -> None:
    confirmed = _verify(bench, _digit("2 + 4"), Track.NO_ANSWER)
    assert confirmed.accepted
    assert confirmed.answers["sample_last_digit_solution"]["check"]["status"] == "confirmed"
    # a compiling candidate whose answer is wrong (the proof is Admitted): the record says so, G3/G5 reject
    differs = _verify(bench, _digit("7", "Admitted."), Track.NO_ANSWER)
    assert differs.status == "rejected"
    assert differs.answers["sample_last_digit_solution"]["check"]["status"] == "differs"


@needs_coq
def test_the_check_runs_only_in_a_full_acceptance_and_never_on_with_answer(bench: Benchmark) -> None:
    fast = _verify(bench, _digit("2 + 4"), Track.NO_ANSWER, Profile.FAST)
    assert fast.answers["sample_last_digit_solution"]["check"]["reason"].startswith("the answer check runs only")
    assert _verify(bench, _digit("6"), Track.WITH_ANSWER).answers == {}


def test_an_official_non_closed_form_is_unknown_and_a_candidate_word_is_not() -> None:
    """The official answer's words decide before anything compiles; the candidate's never do (red team 23:
    ``let inf := 4 in inf`` was a wrong answer made ``unknown`` by a word; G4 reads its operators by meaning)."""
    check = official_not_closed("RInt (fun x => x) 0 1")
    assert check is not None and check.status is AnswerStatus.UNKNOWN and "uses `RInt`" in check.reason
    assert official_not_closed("6") is None


WEAK = "canary_rocq_yes_no_weak"
"""The selftest's yes/no problem whose statement every answer satisfies (``answer -> exists n, n = n``)."""


def _yes_no(answer: str) -> Verdict:
    from putnam_solver.selftest.runner import load_suite

    suite = load_suite("rocq-answers")
    bench = suite.benchmark()
    text = suite.candidate(next(c for c in suite.canaries if c.problem == WEAK)).decode()
    candidate = text.replace(":= False.", f":= {answer}.", 1)
    options = VerifyOptions(profile=Profile.FULL, keep_going=True)
    return run_gates(RocqProver(), bench, bench.problems[WEAK], candidate.encode(), Track.NO_ANSWER, options)


@needs_coq
@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("False", "differs"),  # the wrong truth value, soundly proved: disputed, never accepted
        pytest.param("0 = 1", "differs", marks=pytest.mark.slow),  # decided False by `easy`, refuted by congruence
        # the official True spelled otherwise: never differs, and propositional extensionality (an axiom of
        # the harness's own file, ``answers.SAME_TRUTH``) proves it the same answer
        pytest.param("~ False", "confirmed", marks=pytest.mark.slow),
    ],
)
def test_a_wrong_yes_no_answer_differs_and_a_right_one_never_does(answer: str, status: str) -> None:
    """Two propositions apart by logic (``TRUTH_VALUES``): a wrong yes/no answer was ``unknown``, and on a
    statement it also satisfies its verdict ``accepted``; a true answer however spelled is never ``differs``."""
    verdict = _yes_no(answer)
    assert verdict.answers[f"{WEAK}_solution"]["check"]["status"] == status
    assert verdict.status == ("disputed" if status == "differs" else "accepted")

"""Red team 14 on the Rocq side: what a candidate's compiled module carries into the harness's own files.

1. **A reduction setting replayed by ``Require``.** On the no-answer track an accepted proof whose answer
   the answer check proves different from the official one is ``disputed``, never ``accepted`` (DESIGN §3:
   such a proof shows the statement is wrong). The check is a harness file that ``Require``s the compiled
   candidate, unfolds its solution and tries ``discriminate``, ``lia``, ``lra``... Coq 8.16 keeps a
   ``Strategy`` that is not ``Local`` (even one written inside the theorem's own proof, or in a section) and
   a ``Global Opaque`` in the ``.vo`` and replays it on ``Require`` (measured: ``Print Strategy`` in a file
   that only ``Require``s the candidate). ``Strategy opaque [putnam_2013_b2_solution].`` in the proof made
   the check's ``unfold`` fail, so the wrong answer ``4`` to the vacuous ``putnam_2013_b2`` (PutnamBench's
   erratum; official ``3``) was ``unknown`` and the verdict ``accepted`` on the full profile;
   ``Global Opaque`` of the reals' operations made ``lra`` fail the same way. G3 now refuses both spellings
   (``sentence_rules``), and the answer check makes the solution transparent again before it unfolds it.
   ``Local Strategy`` and a plain ``Opaque`` stay in the candidate's file and stay accepted.
"""

from __future__ import annotations

from functools import cache

import pytest

from putnam_solver.core.benchmark import Benchmark, load_benchmark
from putnam_solver.core.verify import GateStatus, Track, Verdict
from tests.helpers import COQ_BENCH, REPO, needs_coq, rocq_full_verdict

VACUOUS = REPO / "tests" / "fixtures" / "conformance" / "rocq" / "putnambench-rocq__putnam_2013_b2.v"
"""A published proof of the vacuous ``putnam_2013_b2`` (PutnamBench erratum): any answer is provable."""


@cache
def bench() -> Benchmark:
    return load_benchmark(COQ_BENCH)


def vacuous(answer: str, in_proof: str = "") -> str:
    """The published proof of ``putnam_2013_b2`` with ``answer`` and ``in_proof`` as its first sentence."""
    text = VACUOUS.read_text()
    start = text.index("Require Import Ensembles")
    text = text[start : text.index("Print Assumptions", start)]
    text = text.replace("R := 3.", f"R := {answer}.")
    return text.replace("  clear hm.", f"  {in_proof}\n  clear hm.") if in_proof else text


def verdict(candidate: str) -> Verdict:
    return rocq_full_verdict(bench(), "putnam_2013_b2", candidate, Track.NO_ANSWER)


def check_status(v: Verdict) -> str:
    return str(v.answers["putnam_2013_b2_solution"]["check"]["status"])


def g3_detail(v: Verdict) -> str:
    g3 = next(g for g in v.gates if g.id == "G3")
    assert g3.status is GateStatus.FAILED, g3.detail
    return g3.detail


OPS = "Rplus Rmult Rminus Rdiv Rinv Ropp IZR Rlt Rle Rgt Rge IPR IPR_2 Rdefinitions.R0 Rdefinitions.R1"
REPLAYED = {
    "Strategy opaque of the solution": "Strategy opaque [putnam_2013_b2_solution].",
    "Strategy level of the solution": "Strategy 1000 [putnam_2013_b2_solution].",
    "Global Opaque of the reals": f"Global Opaque {OPS}.",
    "#[global] Opaque of the reals": f"#[global] Opaque {OPS}.",
}
"""Settings that Coq replays in every file that ``Require``s the candidate; before this round each made the
wrong answer's check ``unknown`` (``Strategy`` by failing ``unfold``, ``Opaque`` of the operations by failing
``lra``), so the verdict was ``accepted`` instead of ``disputed``."""


@needs_coq
def test_a_wrong_answer_to_the_vacuous_statement_is_disputed() -> None:
    """The baseline: the answer check proves ``4 <> 3`` and the verdict is never ``accepted``."""
    v = verdict(vacuous("4"))
    assert v.status == "disputed" and check_status(v) == "differs", (v.status, v.answers)


@needs_coq
@pytest.mark.parametrize("name", sorted(REPLAYED))
def test_a_reduction_setting_replayed_by_require_is_refused(name: str) -> None:
    v = verdict(vacuous("4", REPLAYED[name]))
    assert v.status == "rejected", (v.status, v.answers)
    assert "every file that merely Requires the candidate" in g3_detail(v)


@needs_coq
def test_the_answer_check_unfolds_a_solution_the_candidate_made_opaque() -> None:
    """The harness's side, whatever G3 says: the check resets the solution's strategy before unfolding it."""
    v = verdict(vacuous("4", REPLAYED["Strategy opaque of the solution"]))
    assert check_status(v) == "differs", v.answers


LOCAL = {
    "Local Strategy": "Local Strategy opaque [putnam_2013_b2_solution].",
    "#[local] Strategy": "#[local] Strategy opaque [Rplus].",
    "plain Opaque": "Opaque putnam_2013_b2_solution Rplus.",
}
"""Settings that stay in the candidate's file (measured): accepted, and the check still decides."""


@needs_coq
@pytest.mark.parametrize("name", sorted(LOCAL))
def test_local_reduction_settings_pass_and_leave_the_check_alone(name: str) -> None:
    wrong = verdict(vacuous("4", LOCAL[name]))
    assert wrong.status == "disputed" and check_status(wrong) == "differs", (wrong.status, wrong.answers)
    right = verdict(vacuous("3", LOCAL[name]))
    assert right.status == "accepted", [(g.id, g.detail) for g in right.gates]

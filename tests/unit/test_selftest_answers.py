"""How the selftest reads its no-answer canaries' answer checks and verdicts: exactly what the canary names,
fail closed (``unknown``, a missing check, another verdict are surprises), ``n/a`` only where G4 cannot
run; and how they show: one row per canary, a wrong one named with what it must be."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import GateResult, GateStatus, Profile, Verdict, VerifyOptions, run_gates
from putnam_solver.selftest import answers
from putnam_solver.selftest import runner as selftest
from putnam_solver.selftest.runner import Cell

SUITE = selftest.load_suite("lean-answers")
WRONG = next(c for c in SUITE.canaries if c.name == "bool_wrong")
NAME = "canary_bool_solution"
READY = {"G1": True, "G2": True, "G3": True, "G4": True, "G5": True, "G6": False}


def _verdict(check: dict[str, str] | None, g4: GateStatus = GateStatus.PASSED) -> Verdict:
    """The canary's real text-gate verdict, with G4-G6 and the answer check as a full run would add them."""
    bench = SUITE.benchmark()
    text = run_gates(
        get_prover("lean"), bench, bench.problems[WRONG.problem], SUITE.candidate(WRONG), WRONG.track,
        VerifyOptions(profile=Profile.TEXT),
    )  # fmt: skip
    more = [
        GateResult("G4", "compile", g4, "g4"),
        GateResult("G5", "axioms", GateStatus.PASSED, ""),
        GateResult("G6", "kernel", GateStatus.UNAVAILABLE, "no comparator"),
    ]
    found: dict[str, Any] = {NAME: {"candidate": "false", **({"check": check} if check else {})}}
    return dataclasses.replace(
        text, gates=[*text.gates, *more], expected_gates=("G1", "G2", "G3", "G4", "G5", "G6"), answers=found
    )


def _judged(verdict: Verdict, ready: dict[str, bool] = READY) -> list[tuple[str, str, Cell]]:
    return [(c.gate, c.status, c.judgement) for c in answers.check_cells(SUITE.name, WRONG, verdict, ready)]


def test_a_proved_difference_is_disputed_over_the_gates_that_can_run_here() -> None:
    differs = _verdict({"status": "differs", "reason": "lean proved candidate ≠ official"})
    assert differs.status == "error"  # G6 could not run: the verdict as a whole decides nothing
    assert _judged(differs) == [("answer", "differs", Cell.RIGHT), ("verdict", "disputed", Cell.RIGHT)]


@pytest.mark.parametrize(
    ("check", "found"),
    [
        ({"status": "unknown", "reason": "the sandbox is unavailable"}, "unknown"),  # an error is no pass
        ({"status": "confirmed", "reason": "lean proved candidate = official with `rfl`"}, "confirmed"),
        (None, "missing"),  # no check recorded at all
    ],
)
def test_any_other_outcome_is_a_surprise(check: dict[str, str] | None, found: str) -> None:
    # the wrong answer accepted: what a toolchain that cannot run the check would make of it
    assert _judged(_verdict(check)) == [("answer", found, Cell.WRONG), ("verdict", "accepted", Cell.WRONG)]


def test_only_a_g4_that_cannot_run_here_makes_them_not_judged() -> None:
    verdict = _verdict({"status": "unknown", "reason": "the candidate did not compile"}, GateStatus.ERROR)
    assert [j for *_, j in _judged(verdict, {**READY, "G4": False})] == [Cell.CANNOT_RUN] * 2
    assert [j for *_, j in _judged(verdict)] == [Cell.WRONG] * 2  # G4 can run, yet nothing was compared


def test_the_table_has_one_row_per_canary_and_names_what_a_wrong_one_must_be() -> None:
    cells = answers.check_cells(SUITE.name, WRONG, _verdict({"status": "unknown", "reason": "timeout"}), READY)
    record = selftest.SelftestRecord("lean", "fp", "code", False, 1.0, 2.0, cells, [])
    lines = answers.check_table(SUITE.name, record.cells, [c.name for c in SUITE.canaries])
    assert lines[:3] == [
        "No-answer checks [lean-answers]",
        "canary      answer check                     verdict",
        "bool_wrong  WRONG unknown (must be differs)  WRONG accepted (must be disputed)",
    ]
    surprise = selftest.surprise_line(record.surprises[0])
    assert surprise == (
        f"the answer check of `{NAME}` found unknown on the canary lean-answers/bool_wrong ({WRONG.what}), "
        "where it must find differs: timeout"
    )
    assert selftest.table_lines(record)[-1] == f"FIX: {selftest.SELFTEST_FIX}"


@pytest.mark.parametrize(
    "entry", [{"answers": {NAME: "confimred"}}, {"answers": [NAME]}, {"verdict": "acepted"}]
)  # fmt: skip
def test_a_canary_naming_an_outcome_no_check_has_is_refused(entry: dict[str, Any]) -> None:
    with pytest.raises(InputError, match="canary c"):
        answers.expected_checks("c", entry)


def test_a_gate_the_canary_leaves_unjudged_is_shown_and_left_out_of_its_verdict() -> None:
    """G7 on the Lean no-answer canaries: what AXLE makes of a filled-in answer is no part of these checks."""
    assert WRONG.unjudged == {"G7"}
    axle = GateResult("G7", "axle", GateStatus.FAILED, "AXLE: the definitions differ")
    differs = _verdict({"status": "differs", "reason": "lean proved candidate ≠ official"})
    with_axle = dataclasses.replace(
        differs, gates=[*differs.gates, axle], expected_gates=(*differs.expected_gates, "G7")
    )
    assert selftest.judge(WRONG, axle, ready=True) is Cell.UNJUDGED
    assert _judged(with_axle, {**READY, "G7": True})[1] == ("verdict", "disputed", Cell.RIGHT)

"""The selftest's canaries, how it reads a gate result against a canary, and its stored records."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.selftest_record import last_known_good
from putnam_solver.core.verify import GateResult, GateStatus, Profile, VerifyOptions, run_gates
from putnam_solver.selftest import runner as selftest
from putnam_solver.selftest.runner import Cell, load_suite
from tests.helpers import REPO

SRC = REPO / "src"


@pytest.mark.parametrize("suite_name", ["rocq", "rocq-answers", "lean-core", "lean-mathlib", "lean-answers"])
def test_every_shipped_canary_has_its_file_and_problem_and_the_text_gates_judge_it(suite_name: str) -> None:
    """G1-G3 need no toolchain, so here they judge every canary, the Mathlib ones included."""
    suite = load_suite(suite_name)
    bench = suite.benchmark()
    assert any(c.known_good for c in suite.canaries) and any(not c.known_good for c in suite.canaries)
    for canary in suite.canaries:
        verdict = run_gates(
            get_prover(suite.prover), bench, bench.problems[canary.problem], suite.candidate(canary),
            canary.track, VerifyOptions(profile=Profile.TEXT, keep_going=True),
        )  # fmt: skip
        judged = [selftest.judge(canary, result, ready=True) for result in verdict.gates]
        assert Cell.WRONG not in judged, (canary.name, [g.to_json() for g in verdict.gates])


def _result(gate: str, status: GateStatus) -> GateResult:
    return GateResult(gate, "gate", status, "detail")


GOOD = selftest.Canary("s", "good", "p", "good.v", "a correct proof", frozenset())
BAD = selftest.Canary("s", "sorry", "p", "sorry.v", "a proof by sorry", frozenset({"G3", "G6"}))


@pytest.mark.parametrize(
    ("canary", "gate", "status", "ready", "cell"),
    [
        (GOOD, "G4", GateStatus.PASSED, True, Cell.RIGHT),
        (GOOD, "G4", GateStatus.FAILED, True, Cell.WRONG),  # a known-good canary refused
        (GOOD, "G6", GateStatus.UNAVAILABLE, True, Cell.WRONG),  # doctor says it runs, yet it cannot
        (GOOD, "G6", GateStatus.UNAVAILABLE, False, Cell.CANNOT_RUN),
        (BAD, "G6", GateStatus.FAILED, True, Cell.RIGHT),
        (BAD, "G6", GateStatus.PASSED, True, Cell.WRONG),  # a known-bad canary accepted
        (BAD, "G6", GateStatus.ERROR, True, Cell.WRONG),  # could not judge: not shown to refuse
        (BAD, "G6", GateStatus.PASSED, False, Cell.WRONG),  # accepted by a gate said not to run
        (BAD, "G5", GateStatus.ERROR, False, Cell.CANNOT_RUN),
        (BAD, "G4", GateStatus.PASSED, True, Cell.UNJUDGED),  # another gate's job
    ],
)
def test_judge(canary: selftest.Canary, gate: str, status: GateStatus, ready: bool, cell: Cell) -> None:
    assert selftest.judge(canary, _result(gate, status), ready) is cell


def _record(cells: list[selftest.CellResult]) -> selftest.SelftestRecord:
    fingerprint = get_prover("rocq").toolchain_fingerprint(VerifyOptions())
    return selftest.SelftestRecord("rocq", fingerprint, "code", False, 1.0, 2.0, cells, [], {"G7": "no AXLE"})


def test_a_record_round_trips_and_answers_for_its_toolchain_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path))
    good = selftest.CellResult("rocq", "good", "G6", "kernel check", "pass", "failed", Cell.WRONG, "coqchk: no")
    record = _record([good])
    path = selftest.write_record(record, VerifyOptions())
    loaded = selftest.last_record("rocq", VerifyOptions())
    assert loaded is not None and loaded.to_json() == record.to_json()
    assert not loaded.passed and loaded.known_good_passed("G6") is False and loaded.known_good_passed("G4") is None
    assert last_known_good("rocq", VerifyOptions(), "G6") is False  # what a gate reads, from the same file
    assert last_known_good("rocq", VerifyOptions(), "G4") is None
    assert selftest.last_record("rocq", VerifyOptions(axle=True)) is None
    assert last_known_good("rocq", VerifyOptions(axle=True), "G6") is None
    ok, text = selftest.describe_last("rocq", VerifyOptions())
    assert not ok and "G6 kernel check refused the known-good canary rocq/good" in text
    damaged = {**record.to_json(), "cells": [{**good.to_json(), "judgement": "neither"}]}
    path.write_text(json.dumps(damaged))
    assert selftest.last_record("rocq", VerifyOptions()) is None
    assert last_known_good("rocq", VerifyOptions(), "G6") is None
    path.write_text("{damaged")
    assert selftest.last_record("rocq", VerifyOptions()) is None
    assert last_known_good("rocq", VerifyOptions(), "G6") is None


def test_the_selftest_never_imports_inspect_ai() -> None:
    """It belongs to the trusted core: `putnam selftest` and `doctor` work without the agent's stack."""
    code = (
        "import sys, putnam_solver.selftest.runner; assert not [m for m in sys.modules if m.startswith('inspect_ai')]"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "PYTHONPATH": str(SRC)})

"""The gate kit's text-gate report (the one way every prover's G2 and G3 turn violations into a result)
and its reading of a tool run."""

from __future__ import annotations

import pytest

from putnam_solver.core.gatekit import Violation, judge_run, text_gate_result
from putnam_solver.core.sandbox import SandboxLimits, SandboxResult
from putnam_solver.core.verify import GateStatus


def test_a_text_gate_passes_only_without_violations() -> None:
    passed = text_gate_result("G3", "forbidden", [], "nothing forbidden")
    assert passed.passed and passed.detail == "nothing forbidden"
    assert passed.evidence == {"violations": []}


def test_a_text_gate_reports_one_violation_a_line_and_all_of_them_as_data() -> None:
    found = [Violation(3, "`Axiom`", "declares an assumption"), Violation(7, "sorry", "proof hole")]
    failed = text_gate_result("G3", "forbidden", found, "nothing forbidden")
    assert failed.status is GateStatus.FAILED
    assert failed.detail == "line 3: `Axiom`: declares an assumption\nline 7: sorry: proof hole"
    assert failed.evidence["violations"][1] == {"line": 7, "construct": "sorry", "rule": "proof hole"}


def _run(exit_code: int, stdout: str = "", stderr: str = "") -> SandboxResult:
    sizes = len(stdout), len(stderr)
    return SandboxResult(("tool",), exit_code, False, stdout, stderr, *sizes, False, 0.1, 0, True, None, 0)


FULL_DISK = {
    "coqc": 'File "./Candidate.v", line 10, characters 0-28:\nError: System error: "No space left on device"',
    "lean": "error: resource exhausted (error code: 28, no space left on device)\n  file: Candidate.olean",
}


@pytest.mark.parametrize("report", FULL_DISK.values(), ids=FULL_DISK)
def test_a_write_into_a_full_work_dir_is_an_error_not_a_rejection(report: str) -> None:
    judged = judge_run(_run(1, stderr=report), "tool", SandboxLimits(disk_mb=3), reported_error="rejected?")
    assert judged == (GateStatus.ERROR, "tool ran out of disk space (cap 3 MB); not a verdict on the candidate")


def test_a_clean_run_that_prints_the_words_stays_clean_and_a_plain_error_a_rejection() -> None:
    limits = SandboxLimits()
    assert judge_run(_run(0, stdout=FULL_DISK["coqc"]), "tool", limits, reported_error=None) is None
    rejected = judge_run(_run(1, stderr="Error: no"), "tool", limits, reported_error="Error: no")
    assert rejected == (GateStatus.FAILED, "Error: no")

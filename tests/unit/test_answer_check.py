"""The prover-independent part of the no-answer answer check: statuses, non-closed forms, reporting."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from putnam_solver.core.answer_check import AnswerStatus, non_closed_form
from putnam_solver.core.provers.lean.answers import check_value
from putnam_solver.core.verify import Profile, Track, Verdict
from putnam_solver.run.report.summary import answer_check_line, check_counts
from putnam_solver.verifier.candidates import verdict_text


def _answers(status: str) -> dict[str, Any]:
    return {"s": {"candidate": "1", "official": "1", "check": {"status": status, "reason": "why"}}}


def test_non_closed_forms_are_named_with_what_they_are() -> None:
    check = non_closed_form(["fun", "x", "RInt"], {"RInt": "an integral"})
    assert check is not None and check.status is AnswerStatus.UNKNOWN
    assert check.reason.startswith("not a closed form: uses `RInt` (an integral)")
    assert non_closed_form(["x", "+", "1"], {"RInt": "an integral"}) is None


def _reason(candidate: str | None, official: str | None) -> str:
    check = check_value(candidate, official)
    assert check is not None and check.status is AnswerStatus.UNKNOWN
    return check.reason


def test_lean_official_answers_with_limits_or_choice_are_unknown_for_that_reason() -> None:
    assert "uses `limUnder`" in _reason("1", "limUnder atTop f")
    assert "uses `Classical.choose`" in _reason("1", "Classical.choose h")
    assert "uses `∫`" in _reason("2", "∫ x in (0:ℝ)..1, x")
    assert "no solution value" in _reason(None, "1")
    assert check_value("2", "1 + 1") is None  # a closed form: lean decides (integration tests)


def test_counts_and_the_run_summary_line() -> None:
    rows = [
        SimpleNamespace(verified_pass=True, verdict={"answers": _answers("confirmed")}),
        SimpleNamespace(verified_pass=True, verdict={"answers": _answers("differs")}),
        SimpleNamespace(verified_pass=False, verdict={"answers": _answers("confirmed")}),
        SimpleNamespace(verified_pass=True, verdict={"answers": {}}),
    ]
    assert check_counts(_answers("unknown")) == {"unknown": 1}
    line = answer_check_line(rows)  # type: ignore[arg-type]
    assert line.startswith("1 confirmed, 1 differs, 0 unknown")


def test_verify_output_shows_the_check() -> None:
    verdict = Verdict(
        problem="p",
        prover="rocq",
        track=Track.NO_ANSWER,
        profile=Profile.FULL,
        gates=[],
        expected_gates=(),
        candidate_sha256="",
        statement_sha256="",
        challenge_sha256="",
        benchmark_sha256="",
        benchmark_pinned=True,
        answers=_answers("confirmed"),
    )
    assert "answer s: '1' (official: '1'); check: confirmed (why)" in verdict_text(verdict, show_official=True)
    assert "answer s: '1'\n" in verdict_text(verdict) + "\n", "without the operator's flag neither is shown"


@pytest.mark.parametrize("candidate", ["let lim := 4; lim", "(fun sSup => sSup) 4", "(∫ x in (0:ℝ)..1, (0:ℝ)) + 4"])
def test_the_candidates_own_words_leave_its_answer_to_the_tactics(candidate: str) -> None:
    """A candidate cannot keep a wrong answer ``unknown`` by naming a bound variable ``lim``: only the official
    answer's words can end the check early; the tactics (and the kernel) judge the candidate's value."""
    assert check_value(candidate, "3") is None

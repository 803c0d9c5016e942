"""The reviewer advises; the gates decide. What a user reads in SUMMARY.md for each ``--reviewer`` mode.

Whole ``solve`` runs: the react worker and the reviewer on Inspect's mock model, the real Rocq gates.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai.model import ChatMessage, ModelOutput

from putnam_solver.run.agent.types import Budgets
from tests.fakes.scripted_agent import GOOD, NEEDS_ROCQ, call, config, say, scripted, solve_fixture

pytestmark = NEEDS_ROCQ


def _summary(tmp_path: Path, veto: bool) -> str:
    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        return say("VETO: prove it by lia") if not tools else call("submit", GOOD)

    cfg = config(scripted(script), reviewer_model="mockllm/model", reviewer_veto=veto, budgets=Budgets(max_turns=1))
    solve_fixture(tmp_path / "run", cfg, ["one_plus_one"])
    return (tmp_path / "run" / "SUMMARY.md").read_text(encoding="utf-8")


def test_an_advising_reviewer_is_a_line_beside_the_count(tmp_path: Path) -> None:
    summary = _summary(tmp_path, veto=False)
    assert "| Verified passes | 1 (100.0%) |" in summary
    assert "| Reviewer (advisory: the gates decide) | 1 vetoed |" in summary
    assert "(advise)" in summary


def test_a_vetoing_reviewer_uncounts_the_proof_and_says_so_in_a_figure_of_its_own(tmp_path: Path) -> None:
    summary = _summary(tmp_path, veto=True)
    assert "| Verified passes | 0 (0.0%) |" in summary
    assert "| Accepted by the gates, vetoed by the reviewer (not counted) | 1: one_plus_one |" in summary

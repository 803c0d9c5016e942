"""The Inspect tasks' parameters as ``inspect eval -T`` delivers them (YAML: ``a,b`` a list, ``off`` False)
and the reviewer's view the scorer records."""

from __future__ import annotations

import dataclasses

import pytest

pytest.importorskip("inspect_ai")

from putnam_solver.core.util import InputError
from putnam_solver.run.agent.inspect_tasks import Options, names, reviewer_view
from putnam_solver.run.agent.types import AgentParts
from tests.fakes.scripted_agent import config


def test_comma_separated_values_come_as_one_string_or_as_inspect_s_list() -> None:
    assert names("a, b,") == ("a", "b")
    assert names(["a", "b"]) == ("a", "b")
    assert names("") == () and names([]) == ()
    assert AgentParts.without(names(["sketch", "lemmas"])).off() == ["lemmas", "sketch"]


@pytest.mark.parametrize(("given", "mode"), [(False, "off"), ("off", "off"), ("advise", "advise"), ("veto", "veto")])
def test_the_reviewer_modes_of_putnam_solve_are_accepted(given: str | bool, mode: str) -> None:
    assert Options(reviewer=given).reviewer_mode() == mode


@pytest.mark.parametrize("given", ["advisory", True, "VETO", ""])
def test_any_other_reviewer_mode_is_refused_in_the_flag_s_words(given: str | bool) -> None:
    with pytest.raises(InputError, match=r"-T reviewer=.*choose one of off, advise, veto"):
        Options(reviewer=given).reviewer_mode()


def test_the_reviewer_s_view_says_whether_it_decided_the_score() -> None:
    advising = dataclasses.replace(config(None), reviewer_model="inspect/reviewer")
    vetoing = dataclasses.replace(advising, reviewer_veto=True)
    assert reviewer_view(config(None), {"record": "veto: no", "vetoed": False}) is None, "no reviewer, no view"
    assert reviewer_view(advising, {"record": "veto: too short", "vetoed": False}) == {
        "mode": "advise",
        "opinion": "veto",
        "feedback": "too short",
        "counted": False,
    }
    assert reviewer_view(vetoing, {"record": "veto: too short", "vetoed": True})["counted"] is True  # type: ignore[index]
    unreviewed = reviewer_view(vetoing, None)
    assert unreviewed is not None and unreviewed["opinion"] is None and unreviewed["counted"] is False

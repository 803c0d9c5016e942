"""The Inspect tasks' parameters as ``inspect eval -T`` delivers them (YAML: ``a,b`` a list, ``off`` False,
``true`` a bool), their turn and token counts held to ``putnam solve``'s, and the reviewer's view the scorer
records."""

from __future__ import annotations

import dataclasses
import inspect
import re
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from putnam_solver.core.util import InputError
from putnam_solver.run.agent.inspect_tasks import Options, minif2f, names, proofnet, putnambench, reviewer_view
from putnam_solver.run.agent.types import AgentParts, Budgets
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


def solve_default(flag: str) -> object:
    """The default of ``putnam solve``'s parameter ``flag`` (a typer option, declared with ``Annotated``)."""
    from putnam_solver.cli.solve import solve

    return inspect.signature(solve).parameters[flag].default


@pytest.mark.parametrize("task", [putnambench, minif2f, proofnet])
def test_every_task_takes_the_turn_and_token_counts_of_putnam_solve_with_its_defaults(task: Any) -> None:
    """Inspect reads a task's ``-T`` parameters from its own signature."""
    taken = inspect.signature(task).parameters
    for name in ("max_turns", "lemma_turns", "lemma_token_limit"):
        assert taken[name].default == solve_default(name), name
    assert Options().budgets() == Budgets(max_turns=50, lemma_turns=12, lemma_token_limit=None)


def test_the_counts_given_reach_the_agent_s_budgets() -> None:
    budgets = Options(max_turns=3, lemma_turns=1, lemma_token_limit=500).budgets()
    assert (budgets.max_turns, budgets.lemma_turns, budgets.lemma_token_limit) == (3, 1, 500)


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ({"lemma_turns": 0}, "-T lemma_turns=0"),
        ({"lemma_turns": -2}, "-T lemma_turns=-2"),
        ({"lemma_turns": True}, "-T lemma_turns=True"),  # YAML's `true`
        ({"lemma_turns": "two"}, "-T lemma_turns=two"),
        ({"lemma_token_limit": 0}, "-T lemma_token_limit=0"),
        ({"lemma_token_limit": 2.5}, "-T lemma_token_limit=2.5"),
        ({"max_turns": 0}, "-T max_turns=0"),
    ],
)
def test_a_count_that_is_not_a_positive_whole_number_is_refused_in_the_parameter_s_words(
    given: dict[str, Any], shown: str
) -> None:
    with pytest.raises(InputError, match=f"^{re.escape(shown)}: give a positive whole number$"):
        Options(**given).budgets()


@pytest.mark.parametrize(
    ("task", "elsewhere"),
    [(putnambench, {"benchmark": "no-such-benchmark"}), (minif2f, {"split": "nope"}), (proofnet, {"split": "nope"})],
)
def test_each_task_refuses_a_bad_count_before_it_opens_a_benchmark(task: Any, elsewhere: dict[str, str]) -> None:
    """The benchmark named beside the bad count does not exist: the count is what is refused."""
    with pytest.raises(InputError, match=r"^-T lemma_turns=0: "):
        task(lemma_turns=0, **elsewhere)

"""``--samples`` as a setting of the run: validated once, stored with the config, part of the run's
identity, and 1 for runs recorded before it existed."""

from __future__ import annotations

import dataclasses

import pytest

from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Track
from putnam_solver.run.agent.types import Budgets, SolveConfig, slot_label
from putnam_solver.run.campaign._settings import differences
from putnam_solver.run.stored_settings import config_from_json, config_to_json, parse_settings
from tests.helpers import LEAN_BENCH
from tests.integration.campaign_driver import recorded_lean_settings

CONFIG = SolveConfig(
    prover="rocq",
    track=Track.WITH_ANSWER,
    model="openai/gpt-5.5",
    reviewer_model=None,
    reasoning_effort=None,
    agent="react",
    sandbox="local",
    jobs=4,
    fallback_jobs=1,
    budgets=Budgets(),
)


@pytest.mark.parametrize("samples", [0, -1, 65])
def test_samples_out_of_range_are_refused_in_the_flags_words(samples: int) -> None:
    with pytest.raises(InputError, match=f"--samples {samples}: give 1 to 64"):
        dataclasses.replace(CONFIG, samples=samples)


needs_lean = pytest.mark.skipif(not LEAN_BENCH.is_file(), reason=f"{LEAN_BENCH} is missing")
PROBLEMS = ["putnam_1962_a1", "putnam_1962_a2"]


def stored(solve: SolveConfig, **changes: object) -> dict[str, object]:
    """Settings as a run with the config ``solve`` records them, with ``changes`` made to their JSON."""
    recorded = recorded_lean_settings(PROBLEMS)
    return {**dataclasses.replace(recorded, config=solve).to_json(), **changes}


@needs_lean
@pytest.mark.parametrize("samples", [1, 2, 64])
def test_samples_in_range_round_trip_through_the_stored_config(samples: int) -> None:
    config = dataclasses.replace(CONFIG, prover="lean", samples=samples)
    data = stored(config)
    assert data["config"]["samples"] == samples  # type: ignore[index]
    assert config_from_json(config_to_json(config)) == config
    assert parse_settings(data, "run").config.samples == samples


@needs_lean
def test_a_run_recorded_before_samples_has_one_and_resumes_as_the_same_run() -> None:
    old = config_to_json(dataclasses.replace(CONFIG, prover="lean"))
    del old["samples"]
    assert config_from_json(old).samples == 1
    before = parse_settings(stored(config_from_json(old), config=old), "run")
    assert before.config.samples == 1
    resumed = parse_settings(stored(dataclasses.replace(CONFIG, prover="lean")), "run")
    assert differences(before.identity(), resumed.identity()) == []


@needs_lean
def test_samples_are_part_of_the_runs_identity() -> None:
    one = parse_settings(stored(dataclasses.replace(CONFIG, prover="lean")), "run")
    four = parse_settings(stored(dataclasses.replace(CONFIG, prover="lean", samples=4)), "run")
    assert differences(one.identity(), four.identity()) == ["config.samples: 1 -> 4"]


@needs_lean
@pytest.mark.parametrize("value", [0, 65, "3", True, None])
def test_an_edited_sample_count_is_refused_by_name(value: object) -> None:
    """An edited ledger cannot make pass@k columns out of nothing: a count that is not 1 to 64 is refused."""
    data = stored(dataclasses.replace(CONFIG, prover="lean"))
    data["config"] = {**data["config"], "samples": value}  # type: ignore[dict-item]
    with pytest.raises(InputError, match="samples"):
        parse_settings(data, "run")


@needs_lean
def test_stored_splits_are_selected_problems_and_short_names_only() -> None:
    config = dataclasses.replace(CONFIG, prover="lean")
    assert parse_settings(stored(config, splits={PROBLEMS[0]: "valid"}), "run").splits == {PROBLEMS[0]: "valid"}
    assert parse_settings(stored(config), "run").splits == {}
    for bad in ({PROBLEMS[0]: "<script>"}, {PROBLEMS[0]: 3}, {"other": "test"}, ["valid"]):
        with pytest.raises(InputError, match="splits"):
            parse_settings(stored(config, splits=bad), "run")


def test_slot_labels_keep_the_problem_id_for_the_first_sample() -> None:
    assert slot_label("putnam_1962_a1", 1) == "putnam_1962_a1"
    assert slot_label("putnam_1962_a1", 3) == "putnam_1962_a1#3"

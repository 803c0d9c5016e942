"""``--samples`` as a setting of the run: validated once, stored with the config, part of the run's
identity, and 1 for runs recorded before it existed."""

from __future__ import annotations

import dataclasses

import pytest

from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Track
from putnam_solver.run.agent.types import Budgets, SolveConfig, slot_label
from putnam_solver.run.campaign import config_from_json, config_to_json
from putnam_solver.run.campaign._settings import differences, identity, with_defaults
from putnam_solver.run.pass_at_k import stored_samples, stored_splits

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


@pytest.mark.parametrize("samples", [1, 2, 64])
def test_samples_in_range_round_trip_through_the_stored_config(samples: int) -> None:
    config = dataclasses.replace(CONFIG, samples=samples)
    stored = config_to_json(config)
    assert stored["samples"] == samples
    assert config_from_json(stored) == config
    assert stored_samples({"config": stored}) == samples


def test_a_run_recorded_before_samples_has_one_and_resumes_as_the_same_run() -> None:
    old = config_to_json(CONFIG)
    del old["samples"]
    assert config_from_json(old).samples == 1
    assert stored_samples({"config": old}) == 1
    settings = {"config": old, "benchmark_sha256": "x", "selected": ["p"], "fresh": False}
    resumed = {**settings, "config": config_to_json(CONFIG)}
    assert differences(identity(with_defaults(settings)), identity(resumed)) == []


def test_samples_are_part_of_the_runs_identity() -> None:
    settings = {"config": config_to_json(CONFIG), "benchmark_sha256": "x", "selected": ["p"], "fresh": False}
    other = {**settings, "config": config_to_json(dataclasses.replace(CONFIG, samples=4))}
    assert differences(identity(settings), identity(other)) == ["config.samples: 1 -> 4"]


@pytest.mark.parametrize("value", [0, 65, "3", True, None])
def test_a_stored_sample_count_that_is_not_one_reads_as_one(value: object) -> None:
    """An edited ledger cannot make pass@k columns out of nothing: a count out of range is 1 (no pass@k)."""
    assert stored_samples({"config": {"samples": value}}) == 1


def test_stored_splits_are_labels_of_a_short_grammar_only() -> None:
    settings = {"splits": {"a": "valid", "b": "<script>", "c": 3, "d": "test"}}
    assert stored_splits(settings) == {"a": "valid", "b": None, "c": None, "d": "test"}
    assert stored_splits({"splits": ["valid"]}) == {}
    assert stored_splits({}) == {}


def test_slot_labels_keep_the_problem_id_for_the_first_sample() -> None:
    assert slot_label("putnam_1962_a1", 1) == "putnam_1962_a1"
    assert slot_label("putnam_1962_a1", 3) == "putnam_1962_a1#3"

"""Verdicts hold still: every published proof of both conformance corpora gets, gate by gate, the outcome
the snapshot recorded (``tests/verdict_snapshot.py`` says what is kept and how to record it again).

The default run judges a fixed sample holding every kind of recorded outcome of every corpus and track
(``verdict_snapshot.sample``); the whole snapshot is marked slow (about 80 s of one core): run it, as
``pytest tests/integration/test_verdict_snapshot.py`` does, after a change to a verdict-deciding module.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.verdict_snapshot import FULL, SNAPSHOT, differences, outcomes, sample


def _recorded() -> dict[str, dict[str, Any]]:
    recorded: dict[str, dict[str, Any]] = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    return recorded


def test_a_sample_of_every_kind_of_recorded_verdict_is_the_recorded_one() -> None:
    recorded = _recorded()
    chosen = sample(recorded)
    kept = {k: v for k, v in recorded.items() if k.removesuffix(FULL) in chosen}
    assert {v["status"] for v in recorded.values() if "status" in v} == {
        v["status"] for v in kept.values() if "status" in v
    }
    assert len(chosen) < len(recorded) / 20  # a sample, not the corpus
    changed = differences(kept, outcomes(chosen))
    assert changed == [], "verdicts changed (record again only if meant):\n" + "\n".join(changed[:40])


@pytest.mark.slow
def test_every_corpus_verdict_is_the_recorded_one() -> None:
    recorded = _recorded()
    found = outcomes()
    assert len(found) > 1000 and {"accepted", "rejected"} <= {v.get("status") for v in found.values()}
    full = {gate for key, v in found.items() if key.endswith(FULL) for gate in v["gates"]}
    assert {"G2 passed", "G2 failed"} <= full  # the full profile's text gates are held too
    changed = differences(recorded, found)
    assert changed == [], "verdicts changed (record again only if meant):\n" + "\n".join(changed[:40])

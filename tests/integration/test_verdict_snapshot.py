"""Verdicts hold still: every published proof of both conformance corpora gets, gate by gate, the outcome
the snapshot recorded (``tests/verdict_snapshot.py`` says what is kept and how to record it again)."""

from __future__ import annotations

import json

from tests.verdict_snapshot import SNAPSHOT, differences, outcomes


def test_every_corpus_verdict_is_the_recorded_one() -> None:
    recorded = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    found = outcomes()
    assert len(found) > 1000 and {"accepted", "rejected"} <= {v.get("status") for v in found.values()}
    full = {gate for key, v in found.items() if key.endswith("/full") for gate in v["gates"]}
    assert {"G2 passed", "G2 failed"} <= full  # the full profile's text gates are held too
    changed = differences(recorded, found)
    assert changed == [], "verdicts changed (record again only if meant):\n" + "\n".join(changed[:40])

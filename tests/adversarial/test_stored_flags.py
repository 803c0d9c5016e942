"""Flags read back from storage that someone else can edit: one strict reader for all of them.

A run ledger refused a flag that is not 0 or 1 (a column) or ``true``/``false`` (JSON) since red team
round 12, but the verdict cache and the selftest record still read theirs by truth: a cached verdict's
``"unsafe_no_sandbox": "false"`` was a verdict judged without the sandbox, a record's ``"axle": "false"``
one made with AXLE. Every reader now goes through ``untrusted.stored_flag``: a malformed flag is a
refused ledger, a cache miss (the candidate is judged again) or no selftest record, never a verdict.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.core import selftest_record
from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.cache import VerdictCache
from putnam_solver.core.provers import get_prover
from putnam_solver.core.untrusted import MalformedFlag, stored_flag
from putnam_solver.core.verdict import LEFT_TO_SEMANTIC_CHECK
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from putnam_solver.run.ledger_rows import LedgerError, checked_flag
from putnam_solver.selftest.record import Cell, CellResult, SelftestRecord, last_record, write_record
from tests.helpers import ROCQ_SAMPLES

MALFORMED_COLUMN = ["0", "1", "false", 2, -1, 0.0, 1.0, True, False, None, b"\x01"]
MALFORMED_JSON = ["false", "true", 0, 1, 0.0, None, [], {}]


@pytest.mark.parametrize("value", MALFORMED_COLUMN, ids=repr)
def test_a_column_flag_is_0_or_1_only(value: object) -> None:
    with pytest.raises(MalformedFlag):
        stored_flag(value)
    with pytest.raises(LedgerError, match="is not 0 or 1"):
        checked_flag(value, "attempts: fresh")


@pytest.mark.parametrize("value", MALFORMED_JSON, ids=repr)
def test_a_json_flag_is_true_or_false_only(value: object) -> None:
    with pytest.raises(MalformedFlag):
        stored_flag(value, stored_as_json=True)
    with pytest.raises(LedgerError, match="is not true or false"):
        checked_flag(value, "the verdict's `cached`", stored_as_json=True)


def test_the_flags_putnam_writes_read_as_written() -> None:
    assert [stored_flag(0), stored_flag(1)] == [False, True]
    assert [stored_flag(False, stored_as_json=True), stored_flag(True, stored_as_json=True)] == [False, True]
    assert checked_flag(1, "x") is True and checked_flag(False, "x", stored_as_json=True) is False


# -- the verdict cache ---------------------------------------------------------------------------------

KEY = "ab" * 32


@pytest.fixture
def cached(tmp_path: Path) -> tuple[VerdictCache, Verdict, Path]:
    """A real text-profile acceptance of a sample proof, stored in a private cache."""
    bench = load_benchmark(ROCQ_SAMPLES)
    problem = bench.problems["sample_sum_odds"]
    candidate = (ROCQ_SAMPLES.parent / "proofs" / "sample_sum_odds.v").read_bytes()
    options = VerifyOptions(profile=Profile.TEXT)
    verdict = run_gates(get_prover("rocq"), bench, problem, candidate, Track.WITH_ANSWER, options)
    assert verdict.accepted, verdict.to_json()
    cache = VerdictCache(tmp_path / "verdicts")
    cache.put(KEY, verdict)
    (entry,) = (tmp_path / "verdicts").rglob("*.json")
    return cache, verdict, entry


def _edited(entry: Path, edit: Any) -> None:
    data = json.loads(entry.read_text())
    edit(data)
    entry.write_text(json.dumps(data))


@pytest.mark.parametrize("flag", ["unsafe_no_sandbox", "allow_recursion", "benchmark_pinned"])
@pytest.mark.parametrize("value", ["false", "true", 0, 1, None])
def test_a_cache_entry_with_a_malformed_flag_is_a_miss(
    cached: tuple[VerdictCache, Verdict, Path], flag: str, value: object
) -> None:
    cache, verdict, entry = cached
    _edited(entry, lambda data: data.update({flag: value}))
    assert cache.get(KEY, verdict) is None


def test_a_malformed_left_to_semantic_check_flag_in_a_gate_is_a_miss(
    cached: tuple[VerdictCache, Verdict, Path],
) -> None:
    """That flag decides whether the agent is told a rejection needs the full profile."""
    cache, verdict, entry = cached
    _edited(entry, lambda data: data["gates"][0]["evidence"].update({LEFT_TO_SEMANTIC_CHECK: "false"}))
    assert cache.get(KEY, verdict) is None


def test_a_cache_entry_with_its_flags_as_written_still_answers(cached: tuple[VerdictCache, Verdict, Path]) -> None:
    cache, verdict, entry = cached
    _edited(entry, lambda data: data["gates"][0]["evidence"].update({LEFT_TO_SEMANTIC_CHECK: False}))
    hit = cache.get(KEY, verdict)
    assert hit is not None and hit.cached and hit.accepted
    assert (hit.unsafe_no_sandbox, hit.allow_recursion, hit.benchmark_pinned) == (
        verdict.unsafe_no_sandbox,
        verdict.allow_recursion,
        verdict.benchmark_pinned,
    )


# -- the selftest record -------------------------------------------------------------------------------


class _Prover:
    """A prover whose toolchain fingerprint is fixed: the record is looked up under it."""

    def toolchain_fingerprint(self, options: VerifyOptions) -> str:
        return "f" * 64


def _stored_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, dict[str, object]]:
    """A passed selftest record written under ``tmp_path``, and its JSON to edit."""
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(selftest_record, "get_prover", lambda name: _Prover())
    cell = CellResult("suite", "good", "G4", "compile", "pass", "passed", Cell.RIGHT, "")
    path = write_record(SelftestRecord("rocq", "f" * 64, "c" * 64, False, 1.0, 2.0, [cell], []), VerifyOptions())
    return path, json.loads(path.read_text())


@pytest.mark.parametrize("axle", ["false", "true", 0, 1, None, False], ids=repr)
def test_a_selftest_record_with_a_malformed_axle_flag_is_none(
    axle: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, data = _stored_record(tmp_path, monkeypatch)
    data["axle"] = axle
    path.write_text(json.dumps(data))
    found = last_record("rocq", VerifyOptions())
    if axle is False:  # the flag as written: the honest twin
        assert found is not None and found.axle is False and found.passed
    else:
        assert found is None


@pytest.mark.parametrize("version", [True, 1.0, "1", 1], ids=repr)
def test_a_selftest_record_of_another_version_spelling_is_none(
    version: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``true == 1`` and ``1.0 == 1`` in Python: only the integer the record is written with is its version."""
    path, data = _stored_record(tmp_path, monkeypatch)
    assert data["version"] == selftest_record.RECORD_VERSION == 1
    data["version"] = version
    path.write_text(json.dumps(data))
    found = last_record("rocq", VerifyOptions())
    assert (found is not None) is (type(version) is int)

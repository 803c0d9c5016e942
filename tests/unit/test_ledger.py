"""The run ledger: WAL, schema, atomic attempt+verdict records, passes backed by verdicts, outputs from it."""

from __future__ import annotations

import dataclasses
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from putnam_solver.run.agent.types import AttemptResult
from putnam_solver.run.ledger import LEDGER_NAME, Ledger, LedgerError
from putnam_solver.run.report.summary import write_outputs
from tests.integration.campaign_driver import LEAN_BENCH, lean_good_candidates, recorded_lean_settings

pytestmark = pytest.mark.skipif(not LEAN_BENCH.is_file(), reason=f"{LEAN_BENCH} is missing")
PID = "putnam_1962_a1"


def _verdict(candidate: str, problem: str = PID) -> Verdict:
    """A real verdict: the text gates of the Lean prover on a PutnamBench statement."""
    bench = load_benchmark(LEAN_BENCH)
    options = VerifyOptions(profile=Profile.TEXT)
    return run_gates(get_prover("lean"), bench, bench.problems[problem], candidate.encode(), Track.WITH_ANSWER, options)


def _result(candidate: str, status: str, problem: str = PID) -> AttemptResult:
    return AttemptResult(problem, status, 3, 100, 20, 0.5, candidate, _verdict(candidate, problem))


@pytest.fixture
def good() -> str:
    return lean_good_candidates([PID])[PID]


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    opened = Ledger.open(tmp_path / LEDGER_NAME)
    opened.start_campaign(1, [PID], fresh=False, samples=1)
    yield opened
    opened.close()


def test_ledger_uses_wal_and_creates_its_schema(ledger: Ledger, tmp_path: Path) -> None:
    assert ledger.journal_mode() == "wal"
    db = sqlite3.connect(tmp_path / LEDGER_NAME)
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    db.close()
    assert {"meta", "settings", "problems", "campaigns", "attempts", "verdicts", "gates", "turns", "audits"} <= tables


def test_a_ledger_of_another_schema_version_is_refused(ledger: Ledger, tmp_path: Path) -> None:
    ledger.set_meta("schema_version", "99")
    ledger.close()
    with pytest.raises(LedgerError, match="schema version 99"):
        Ledger.open(tmp_path / LEDGER_NAME)


def test_attempt_verdict_and_gates_are_stored_together(ledger: Ledger, good: str) -> None:
    [row] = ledger.record_attempts(1, [_result(good, "passed")])
    assert row.verified_pass
    assert ledger.passed_problems() == {PID}
    stored = ledger.attempts()[0]
    assert stored.verdict is not None and stored.verdict["status"] == "accepted"
    assert [g["id"] for g in stored.verdict["gates"]] == ["G1", "G2", "G3"]
    assert ledger.usage().tokens == 120


def test_a_failing_batch_stores_nothing(ledger: Ledger, good: str) -> None:
    broken = dataclasses.replace(_result(good, "passed"), problem="putnam_1962_a2", status=None)  # type: ignore[arg-type]
    with pytest.raises(sqlite3.IntegrityError):
        ledger.record_attempts(1, [_result(good, "passed"), broken])
    assert ledger.attempts() == []
    assert ledger.passed_problems() == set()


def test_an_attempt_is_never_stored_twice(ledger: Ledger, good: str) -> None:
    assert len(ledger.record_attempts(1, [_result(good, "passed")])) == 1
    assert ledger.record_attempts(1, [_result(good, "passed")]) == []
    assert ledger.usage().attempts == 1


def test_passed_without_an_accepted_verdict_is_stored_as_an_error(ledger: Ledger, good: str) -> None:
    bench = load_benchmark(LEAN_BENCH)
    unfinished = get_prover("lean").challenge(bench.problems[PID], Track.WITH_ANSWER)
    [row] = ledger.record_attempts(1, [_result(unfinished, "passed")])
    assert row.status == "error" and "without an accepted verdict" in (row.error or "")
    assert ledger.passed_problems() == set()


def test_passed_with_a_verdict_for_other_bytes_is_stored_as_an_error(ledger: Ledger, good: str) -> None:
    swapped = dataclasses.replace(_result(good, "passed"), candidate=good + "\n-- edited after verification\n")
    [row] = ledger.record_attempts(1, [swapped])
    assert row.status == "error" and "other candidate bytes" in (row.error or "")
    assert ledger.passed_problems() == set()


def test_an_edited_candidate_no_longer_counts_as_passed(ledger: Ledger, good: str, tmp_path: Path) -> None:
    ledger.record_attempts(1, [_result(good, "passed")])
    db = sqlite3.connect(tmp_path / LEDGER_NAME)
    db.execute("UPDATE attempts SET candidate = candidate || ' '")
    db.commit()
    db.close()
    assert ledger.passed_problems() == set()
    assert [r.problem for r in ledger.unverified_passes()] == [PID]


def test_a_pass_counts_as_audited_only_while_its_newest_audit_accepts_the_stored_bytes(
    ledger: Ledger, good: str, tmp_path: Path
) -> None:
    [row] = ledger.record_attempts(1, [_result(good, "passed")])
    assert row.recorded_at and ledger.attempts()[0].recorded_at == row.recorded_at
    assert ledger.audited_problems() == set(), "no audit ran"
    accepted = _verdict(good).to_json()
    first = ledger.record_audit(row.id, accepted, "toolchain A", "b" * 64, toolchain_changed=False)
    assert ledger.audited_problems() == {PID}
    rejected = {**accepted, "status": "rejected"}
    ledger.record_audit(row.id, rejected, "toolchain B", "b" * 64, toolchain_changed=True)
    assert ledger.audited_problems() == set(), "the newest audit decides"
    assert [a.status for a in ledger.audits()] == ["accepted", "rejected"] and ledger.audits()[0] == first
    assert ledger.latest_audits()[row.id].toolchain_changed
    ledger.record_audit(row.id, accepted, "toolchain A", "b" * 64, toolchain_changed=False)
    db = sqlite3.connect(tmp_path / LEDGER_NAME)
    db.execute("UPDATE attempts SET candidate = candidate || ' '")
    db.commit()
    db.close()
    assert ledger.audited_problems() == set(), "an audit of other bytes backs nothing"


def test_outputs_are_regenerated_from_the_ledger_alone(ledger: Ledger, good: str, tmp_path: Path) -> None:
    ledger.record_settings(recorded_lean_settings([PID, "putnam_1962_a2"]).to_json())
    ledger.record_problems([(PID, "0" * 64, "challenge text")])
    ledger.record_attempts(1, [_result(good, "passed")])
    ledger.finish_campaign(1)
    first = tmp_path / "first"
    first.mkdir()
    write_outputs(first, ledger)
    ledger.close()
    second = tmp_path / "second"
    second.mkdir()
    shutil.copy(tmp_path / LEDGER_NAME, second / LEDGER_NAME)
    copy = Ledger.open(second / LEDGER_NAME)
    write_outputs(second, copy)
    copy.close()
    produced = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert {str(p) for p in produced} >= {
        "SUMMARY.md",
        "attempts.tsv",
        "initial.txt",
        "unresolved.txt",
        "run.json",
        "selections/campaign-1.txt",
        f"attempts/campaign-1/{PID}/candidate.lean",
        f"attempts/campaign-1/{PID}/challenge.lean",
        f"attempts/campaign-1/{PID}/verdict.json",
        f"attempts/campaign-1/{PID}/gates.log",
    }
    for rel in produced:
        assert _stable(first / rel) == _stable(second / rel), rel
    assert (first / "unresolved.txt").read_text() == "putnam_1962_a2\n"
    assert (first / f"attempts/campaign-1/{PID}/candidate.lean").read_text() == good


def _stable(path: Path) -> str:
    return "".join(line for line in path.read_text().splitlines(True) if not line.startswith("Generated:"))

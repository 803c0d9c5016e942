"""``kill -9`` of a running solve at several moments, then ``--resume``: the ledger and every output agree
with an uninterrupted run, and no attempt is lost or counted twice."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from putnam_solver.exit_codes import ExitCode
from putnam_solver.run.campaign import RunSettings, Selection, solve
from tests.integration.campaign_driver import LEAN_BENCH, SIX, lean_runner, lean_text_config

pytestmark = pytest.mark.skipif(not LEAN_BENCH.is_file(), reason=f"{LEAN_BENCH} is missing")
DRIVER = Path(__file__).with_name("campaign_driver.py")
REPO = DRIVER.parents[2]
TOTAL_ATTEMPTS = 12  # 6 + 4 + 2 over three campaigns (see SIX_SCRIPT)
WAIT_SECONDS = 120  # a guard against hanging, not a timing assertion


def _driver(run_dir: Path, *args: str) -> subprocess.Popen[str]:
    paths = (str(REPO / "src"), str(REPO))  # this checkout's code, not an installed copy
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    return subprocess.Popen(
        [sys.executable, str(DRIVER), str(run_dir), *args],
        env=env,
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _finish(proc: subprocess.Popen[str]) -> str:
    output, _ = proc.communicate(timeout=WAIT_SECONDS)
    assert proc.returncode == ExitCode.SUCCESS, output
    return output


def _query(run_dir: Path, sql: str) -> list[tuple[object, ...]]:
    if not (run_dir / "ledger.sqlite").is_file():
        return []
    db = sqlite3.connect(run_dir / "ledger.sqlite", timeout=30)
    try:
        return db.execute(sql).fetchall()
    except sqlite3.OperationalError:  # schema not created yet
        return []
    finally:
        db.close()


def _wait_for(proc: subprocess.Popen[str], ready: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not ready():
        assert proc.poll() is None, "the solve ended before the awaited moment"
        assert time.monotonic() < deadline, "the awaited moment never came"
        time.sleep(0.02)


def _kill_when(proc: subprocess.Popen[str], ready: Callable[[], bool]) -> None:
    _wait_for(proc, ready)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=WAIT_SECONDS)
    assert proc.returncode == -signal.SIGKILL


def _attempts(run_dir: Path) -> list[tuple[object, ...]]:
    return _query(
        run_dir,
        "SELECT a.campaign, a.problem, a.status, a.turns, a.input_tokens, a.output_tokens, a.cost_dollars, "
        "a.candidate_sha256, v.status FROM attempts a LEFT JOIN verdicts v ON v.attempt_id = a.id "
        "ORDER BY a.campaign, a.problem",
    )


def _outputs(run_dir: Path) -> dict[str, str]:
    files = {}
    for path in sorted(run_dir.rglob("*")):
        rel = str(path.relative_to(run_dir))
        if path.is_file() and not rel.startswith(("ledger.sqlite", "run.lock")):
            text = path.read_text(encoding="utf-8")
            files[rel] = "".join(line for line in text.splitlines(True) if not line.startswith("Generated:"))
    return files


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    run_dir = tmp_path_factory.mktemp("reference")
    _finish(_driver(run_dir))
    yield run_dir


def _assert_same_as(reference: Path, run_dir: Path) -> None:
    rows = _attempts(run_dir)
    assert len(rows) == TOTAL_ATTEMPTS
    assert len({(r[0], r[1]) for r in rows}) == TOTAL_ATTEMPTS
    assert rows == _attempts(reference)
    assert _outputs(run_dir) == _outputs(reference)


def _campaign_attempts(run_dir: Path, campaign: int) -> int:
    rows = _query(run_dir, f"SELECT COUNT(*) FROM attempts WHERE campaign = {campaign}")
    return int(rows[0][0]) if rows else 0  # type: ignore[call-overload]


def test_kill_after_some_attempts_were_recorded(reference: Path, tmp_path: Path) -> None:
    proc = _driver(tmp_path, "--latency", "0.3")
    _kill_when(proc, lambda: _campaign_attempts(tmp_path, 1) >= 3)
    assert _campaign_attempts(tmp_path, 1) < 6
    _finish(_driver(tmp_path, "--resume"))
    _assert_same_as(reference, tmp_path)


def test_kill_in_the_middle_of_the_second_campaign(reference: Path, tmp_path: Path) -> None:
    proc = _driver(tmp_path, "--latency", "0.3")
    _kill_when(proc, lambda: _campaign_attempts(tmp_path, 2) >= 1)
    assert _query(tmp_path, "SELECT finished_at FROM campaigns WHERE number = 2") == [(None,)]
    _finish(_driver(tmp_path, "--resume"))
    _assert_same_as(reference, tmp_path)


def test_kill_while_the_outputs_are_being_written(reference: Path, tmp_path: Path) -> None:
    marker = tmp_path.parent / f"{tmp_path.name}.paused"
    # The third write of attempts.tsv follows the end of campaign 1: unresolved.txt and the selections
    # are already new, attempts.tsv and SUMMARY.md are still the old ones.
    proc = _driver(tmp_path, "--latency", "0.05", "--pause-at", f"attempts.tsv:3:{marker}")
    _kill_when(proc, marker.is_file)
    _finish(_driver(tmp_path, "--resume"))
    _assert_same_as(reference, tmp_path)


def test_a_second_solve_on_a_run_directory_in_use_is_refused(tmp_path: Path) -> None:
    marker = tmp_path.parent / f"{tmp_path.name}.paused"
    proc = _driver(tmp_path, "--pause-at", f"attempts.tsv:1:{marker}")
    try:
        _wait_for(proc, marker.is_file)
        run = RunSettings(tmp_path, lean_text_config(), Selection(LEAN_BENCH, problems=SIX), 3, resume=True)
        outcome = solve(run, progress=None, runner=lean_runner({}))
        assert outcome.exit_code == ExitCode.USAGE
        assert f"run directory {tmp_path} in use by PID {proc.pid}" in outcome.message
    finally:
        proc.kill()
        proc.wait(timeout=WAIT_SECONDS)

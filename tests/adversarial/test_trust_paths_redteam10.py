"""Red team round 10 of the trust paths: a run directory handed over, through its settings and its ledger's
side files.

Budgets, limits and prices (first part):

A run's settings reach ``putnam solve --resume``, ``report``, ``audit`` and ``export`` from its ledger,
which anyone who hands a run directory over may have edited; the stored settings were checked field by
field for their JSON type only, and Python's ``json`` reads ``NaN`` and ``Infinity`` as numbers. Before
this round a stored price of ``-1000`` dollars per million tokens (a ``--prices`` file was checked for
this, the ledger's copy of it not) made every cost of its model negative on ``--resume``: the run's spend
shrank as it spent, so the caller's own ``--run-cost-limit`` was never reached, and the first attempt
recorded with a negative cost made the ledger unreadable to every later reader (the run broke half-way);
a ``NaN`` price did the same through a ``NaN`` cost (SQLite stores it as NULL). ``NaN`` limits, negative
turns or a token limit past any count were taken as they came, and so were the flags ``--run-cost-limit
nan``, ``--cost-limit -5`` or ``--worker-timeout inf``.

Now ``Budgets``, ``RunLimits`` and ``SolveConfig`` check their numbers as they are made
(``run/agent/budget_numbers.py``): every door refuses the same values, naming the flag (and, from a
ledger, the field and that it was edited); honest settings read as before.

The files SQLite keeps beside the ledger (``-wal``, ``-shm``, ``-journal``): a hard-linked ``-wal`` had SQLite
write journal frames into the linked file, a FIFO let ``audit`` and ``--resume`` do their work and then fail
at the first write with "disk I/O error", a link was refused naming no file (``run/ledger_side_files.py``).

The outputs of such a run directory (audit, resume, report) are in ``test_trust_paths_redteam10_outputs``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from putnam_solver.core.util import InputError
from putnam_solver.run.agent.live_run import RunLimits
from putnam_solver.run.agent.types import AttemptResult, Budgets
from putnam_solver.run.ledger import LEDGER_NAME, Ledger, LedgerError
from putnam_solver.run.stored_settings import parse_settings
from tests.helpers import REPO, ROCQ_SAMPLES, sql
from tests.integration.campaign_driver import recorded_lean_settings
from tests.processes import putnam

PID = "putnam_1962_a1"
EDITED = "the ledger was edited after the run"
MODEL = "openai/gpt-5.5"


def _nan_limit(data: dict) -> None:
    data["limits"]["max_cost_dollars"] = float("nan")


def _infinite_cost(data: dict) -> None:
    data["config"]["budgets"]["cost_limit_dollars"] = float("-inf")  # +inf: an earlier putnam's "no limit"


def _negative_price(data: dict) -> None:
    data["config"]["prices"] = {MODEL: {"input": -1000.0, "output": 10.0}}


def _nan_price(data: dict) -> None:
    data["config"]["prices"] = {MODEL: {"input": 1.0, "output": float("nan")}}


def _price_without_output(data: dict) -> None:
    data["config"]["prices"] = {MODEL: {"input": 1.0}}


def _negative_turns(data: dict) -> None:
    data["config"]["budgets"]["max_turns"] = -3


def _nan_timeout(data: dict) -> None:
    data["config"]["budgets"]["worker_timeout_seconds"] = float("nan")


def _negative_tokens(data: dict) -> None:
    data["limits"]["max_tokens"] = -5  # a limit past any count (10**30) reads as none: test_trust_paths_redteam12


EDITS = {
    "a NaN run cost limit": (_nan_limit, "--run-cost-limit nan"),
    "a negative infinite cost limit": (_infinite_cost, "--cost-limit -inf"),
    "a negative price": (_negative_price, f"price of {MODEL}: input=-1000.0"),
    "a NaN price": (_nan_price, f"price of {MODEL}: output=nan"),
    "a price without its output rate": (_price_without_output, f"price of {MODEL}: output missing"),
    "negative turns": (_negative_turns, "--max-turns -3"),
    "a NaN worker timeout": (_nan_timeout, "--worker-timeout nan"),
    "a negative token limit": (_negative_tokens, "--run-token-limit -5"),
}
"""Edits of a run's stored settings, each with the words its refusal names."""
CI_CASE = "a NaN run cost limit"


def _case(name: str) -> object:
    return name if name == CI_CASE else pytest.param(name, marks=pytest.mark.slow)


@pytest.fixture
def run_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return made_run(tmp_path, monkeypatch)


def made_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A run of one Lean problem with one recorded attempt, as `putnam solve` leaves it (run limits and prices
    set, so that the edits below change recorded values)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    folder = tmp_path / "run"
    folder.mkdir()
    settings = recorded_lean_settings([PID], limits=RunLimits(max_tokens=10**6, max_cost_dollars=25.0))
    ledger = Ledger.open(folder / LEDGER_NAME)
    ledger.record_settings(settings.to_json())
    ledger.start_campaign(1, [PID], fresh=False, samples=1)
    ledger.record_attempts(1, [AttemptResult(PID, "rejected", 2, 10, 5, 0.25, "candidate", None, sample=1)])
    ledger.close()
    return folder


def edit_settings(run_dir: Path, change: object) -> None:
    ((stored,),) = sql(run_dir, "SELECT json FROM settings")
    data = json.loads(stored)
    change(data)  # type: ignore[operator]
    sql(run_dir, "UPDATE settings SET json=?", json.dumps(data))


@pytest.mark.parametrize("edit", [_case(name) for name in sorted(EDITS)])
def test_an_edited_number_refuses_the_stored_settings_by_field(run_dir: Path, edit: str) -> None:
    """Before: each parsed, and a resume ran with it (a NaN run cost limit was never reached)."""
    change, says = EDITS[edit]
    edit_settings(run_dir, change)
    ((stored,),) = sql(run_dir, "SELECT json FROM settings")
    with pytest.raises(InputError) as refused:
        parse_settings(json.loads(stored), run_dir)
    message = str(refused.value)
    assert says in message and EDITED in message and str(run_dir) in message, message


def test_resume_report_and_export_refuse_a_nan_budget_with_exit_2(run_dir: Path, tmp_path: Path) -> None:
    """``putnam solve --resume`` stops before any model call or file; ``report`` and ``export`` name it too."""
    edit_settings(run_dir, _nan_limit)
    before = sorted(p.name for p in run_dir.iterdir())
    for command in (
        ("solve", "--resume", run_dir),
        ("report", run_dir),
        ("export", run_dir, "--proofs", tmp_path / "proofs"),
    ):
        code, stdout, stderr = putnam(*command)
        assert code == 2, (command, stdout, stderr)
        assert "--run-cost-limit nan" in stderr and EDITED in stderr, (command, stderr)
        assert "a bug in putnam" not in stderr and "Traceback" not in stderr
    assert sorted(p.name for p in run_dir.iterdir()) == before, "nothing written into the run directory"
    assert not (tmp_path / "proofs").exists()


def test_a_negative_price_made_spend_shrink_and_can_no_longer_be_a_run_s() -> None:
    """The reason it mattered: the price table turned a million input tokens into minus 1000 dollars, which
    no run cost limit is ever reached by; such a price is now refused wherever a config is made."""
    pytest.importorskip("inspect_ai")
    from inspect_ai.model import ModelUsage

    from putnam_solver.run.agent.pricing import usage_cost
    from putnam_solver.run.prices import user_prices

    stored = {MODEL: {"input": -1000.0, "output": 10.0}}
    spent, _ = usage_cost({MODEL: ModelUsage(input_tokens=10**6, output_tokens=0)}, user_prices(stored))
    assert spent == -1000.0 and RunLimits(max_cost_dollars=50.0).reached(0, spent) is None
    with pytest.raises(InputError, match=f"price of {MODEL}: input=-1000.0"):
        dataclasses.replace(recorded_lean_settings([PID]).config, prices=stored)
    with pytest.raises(InputError, match="--run-cost-limit nan"):
        RunLimits(max_cost_dollars=float("nan"))


@pytest.mark.parametrize(
    ("flag", "value", "says"),
    [
        ("--run-cost-limit", "nan", "--run-cost-limit nan"),
        pytest.param("--cost-limit", "-5", "--cost-limit -5.0", marks=pytest.mark.slow),
        pytest.param("--worker-timeout", "inf", "--worker-timeout inf", marks=pytest.mark.slow),
        pytest.param("--reviewer-timeout", "0", "--reviewer-timeout 0.0", marks=pytest.mark.slow),
        pytest.param("--token-limit", "-1", "--token-limit -1", marks=pytest.mark.slow),
        pytest.param("--run-token-limit", "-1", "--run-token-limit -1", marks=pytest.mark.slow),
    ],
)
def test_a_flag_out_of_range_is_refused_before_anything_is_created(
    tmp_path: Path, flag: str, value: str, says: str
) -> None:
    run = tmp_path / "run"
    code, stdout, stderr = putnam(
        "solve", "--model", "mockllm/model", "--prover", "rocq", "--benchmark", ROCQ_SAMPLES, "--run-dir", run,
        flag, value,
    )  # fmt: skip
    assert code == 2 and says in " ".join(stderr.split()), stdout + stderr
    assert "leave the flag out for no limit" in " ".join(stderr.split())
    assert not run.exists()


def test_a_prices_file_with_a_missing_rate_is_refused_naming_the_file(tmp_path: Path) -> None:
    """It was taken, and pricing the model's first call raised ValueError mid-run."""
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({MODEL: {"input": 1.0}}))
    code, _, stderr = putnam(
        "solve", "--model", MODEL, "--prover", "rocq", "--benchmark", ROCQ_SAMPLES, "--run-dir", tmp_path / "run",
        "--prices", prices,
    )  # fmt: skip
    assert code == 2 and f"price of {MODEL}: output missing" in stderr.replace("\n", " ") and str(prices) in stderr


# -- valid beside ------------------------------------------------------------------------------------------


def test_honest_numbers_still_read_and_report(run_dir: Path) -> None:
    """Zero limits (spend nothing more), finite prices with cache rates, and no limits at all."""

    def honest(data: dict) -> None:
        data["limits"] = {"max_tokens": 0, "max_cost_dollars": 0.0}
        data["config"]["budgets"].update(cost_limit_dollars=0, token_limit=0, worker_timeout_seconds=0.5)
        data["config"]["prices"] = {MODEL: {"input": 1.25, "output": 10, "cache_read": 0.125, "cache_write": 0}}

    edit_settings(run_dir, honest)
    ((stored,),) = sql(run_dir, "SELECT json FROM settings")
    settings = parse_settings(json.loads(stored), run_dir)
    assert settings.limits == RunLimits(0, 0.0) and settings.config.budgets.worker_timeout_seconds == 0.5
    assert settings.config.prices[MODEL]["output"] == 10
    code, stdout, stderr = putnam("report", run_dir)
    assert code == 0, stdout + stderr
    assert (run_dir / "report.html").is_file()
    assert Budgets().max_turns == 50 and RunLimits() == RunLimits(None, None)


# -- the files SQLite keeps beside a ledger ------------------------------------------------------------------

SIDE_KINDS = {
    "a FIFO journal": ("-wal", "a FIFO, socket or device"),
    "a linked shared-memory file": ("-shm", "a symbolic link"),
    "a hard-linked journal": ("-wal", "a hard link (2 names share its file)"),
    "a directory for the rollback journal": ("-journal", "a directory"),
}
"""Side files a run directory handed over may hold in place of the ones SQLite makes, and how each is named."""


def plant(run_dir: Path, kind: str, victim: Path) -> Path:
    suffix, _ = SIDE_KINDS[kind]
    side = run_dir / f"{LEDGER_NAME}{suffix}"
    if "FIFO" in kind:
        os.mkfifo(side)
    elif "linked shared" in kind:
        side.symlink_to(victim)
    elif "hard" in kind:
        os.link(victim, side)
    else:
        side.mkdir()
    return side


@pytest.mark.parametrize(
    "kind", [k if k == "a FIFO journal" else pytest.param(k, marks=pytest.mark.slow) for k in SIDE_KINDS]
)
def test_a_side_file_that_is_not_sqlite_s_own_refuses_the_ledger_by_name(
    run_dir: Path, tmp_path: Path, kind: str
) -> None:
    """Before: SQLite refused a link as "unable to open database file", took a FIFO as an empty journal (and the
    command failed at its first write, after its work), and wrote its journal into a hard link's file."""
    victim = tmp_path / "notes.txt"
    victim.write_text("the reader's own notes\n")
    side = plant(run_dir, kind, victim)
    for command in (("report", run_dir), ("export", run_dir, "--proofs", tmp_path / "proofs")):
        code, stdout, stderr = putnam(*command)
        message = " ".join(stderr.split())
        assert code == 2, (command, stdout, stderr)
        assert f"{side} is {SIDE_KINDS[kind][1]}" in message and "remove it" in message, message
        assert "a bug in putnam" not in message
    assert victim.read_text() == "the reader's own notes\n"
    assert not (run_dir / "report.html").exists()


def test_sqlite_alone_writes_into_a_hard_linked_journal_and_fails_late_on_a_fifo(tmp_path: Path) -> None:
    """What the check stands in front of, shown with SQLite itself: a hard link's file overwritten, a FIFO's
    journal opened and then a failed commit."""
    import sqlite3

    for name, make in (("hard", lambda side, victim: os.link(victim, side)), ("fifo", lambda side, _: os.mkfifo(side))):
        folder = tmp_path / name
        folder.mkdir()
        victim = tmp_path / f"{name}-victim.txt"
        victim.write_text("the reader's own notes\n")
        made = sqlite3.connect(folder / "db.sqlite")
        made.execute("CREATE TABLE t (x TEXT)")
        made.commit()
        made.close()
        make(folder / "db.sqlite-wal", victim)
        db = sqlite3.connect(folder / "db.sqlite", isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("INSERT INTO t VALUES (?)", ("x" * 5000,))
        except sqlite3.OperationalError as exc:
            assert name == "fifo" and "disk I/O error" in str(exc), exc
        else:
            assert name == "hard" and not victim.read_bytes().startswith(b"the reader's own notes")
        finally:
            db.close()


def test_a_killed_run_s_journal_is_read_as_before(run_dir: Path) -> None:
    """Valid beside: a run killed after a write leaves ``-wal`` and ``-shm`` as plain files; the ledger opens
    and holds that write."""
    script = (
        "import os, sys\nfrom pathlib import Path\nfrom putnam_solver.run.ledger import Ledger\n"
        f"ledger = Ledger.open(Path({str(run_dir / LEDGER_NAME)!r}))\n"
        "ledger.start_campaign(2, ['putnam_1962_a1'], fresh=False, samples=1)\nos._exit(0)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], env={**os.environ, "PYTHONPATH": str(REPO / "src")}, timeout=120, check=False
    )
    assert done.returncode == 0
    assert (run_dir / f"{LEDGER_NAME}-wal").is_file() and (run_dir / f"{LEDGER_NAME}-wal").stat().st_size > 0
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        assert [c.number for c in ledger.campaigns()] == [1, 2]
    finally:
        ledger.close()
    code, stdout, stderr = putnam("report", run_dir)
    assert code == 0, stdout + stderr


@pytest.mark.parametrize("kind", ["a FIFO, socket or device", "a directory"])
def test_a_ledger_that_is_not_a_file_is_named_for_what_it_is(tmp_path: Path, kind: str) -> None:
    """Before: ``report`` said "no ledger.sqlite" of a FIFO there, and opening one (``solve``, ``audit``)
    ended in SQLite's "disk I/O error" (a directory: "unable to open database file"), naming neither."""
    ledger = tmp_path / LEDGER_NAME
    if "FIFO" in kind:
        os.mkfifo(ledger)
    else:
        ledger.mkdir()
    with pytest.raises(LedgerError, match=f"{ledger} is {kind}, not a run's ledger"):
        Ledger.open(ledger)
    code, stdout, stderr = putnam("report", tmp_path)
    message = " ".join(stderr.split())
    assert code == 2 and f"{ledger} is {kind}, not a run's ledger" in message, stdout + stderr
    assert "no ledger.sqlite" not in message and "disk I/O" not in message

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

The run's claimed settings on the CLI's lines: ``putnam audit`` prints where the run's claimed kernels, tools
and toolchain release differ from its own, and ``--resume`` quotes the tools and server it refuses to use;
a line feed in one wrote a line of their own (``ACCEPTED ...``, ``audited 6 passes: 6 accepted``). Each is
now shown with its line breaks escaped (``terminal.shown_path``).

A gate's detail in the one-line rows of ``verify --bundle`` and ``audit``: both showed the first failing gate's
detail as it was, so a detail over several lines (a cluster node that named itself ``node-7<LF>ACCEPTED ...``)
wrote rows of its own; it is now one line (``terminal.one_line``), as ``putnam verify`` indents it.

What a resume obeys: a ledger saying ``acceptance_profile: text`` (which no ``putnam solve`` records) or
``allow_recursion: true`` was resumed as it said, counting passes never compiled, or accepting candidate
recursion through which Coq 8.16's guard checker bugs prove False. The first is refused like
``unsafe_no_sandbox``; the second is used only when the resume says ``--allow-recursion`` too, as the run's
tools are run only when the resume names them (``resume_checks``).
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.core.util import InputError
from putnam_solver.run.agent.types import AttemptResult, Budgets, RunLimits
from putnam_solver.run.ledger import LEDGER_NAME, Ledger
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
    data["config"]["budgets"]["cost_limit_dollars"] = float("inf")


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


def _huge_tokens(data: dict) -> None:
    data["limits"]["max_tokens"] = 10**30


EDITS = {
    "a NaN run cost limit": (_nan_limit, "--run-cost-limit nan"),
    "an infinite cost limit": (_infinite_cost, "--cost-limit inf"),
    "a negative price": (_negative_price, f"price of {MODEL}: input=-1000.0"),
    "a NaN price": (_nan_price, f"price of {MODEL}: output=nan"),
    "a price without its output rate": (_price_without_output, f"price of {MODEL}: output missing"),
    "negative turns": (_negative_turns, "--max-turns -3"),
    "a NaN worker timeout": (_nan_timeout, "--worker-timeout nan"),
    "a token limit past any count": (_huge_tokens, f"--run-token-limit {10**30}"),
}
"""Edits of a run's stored settings, each with the words its refusal names."""
CI_CASE = "a NaN run cost limit"


def _case(name: str) -> object:
    return name if name == CI_CASE else pytest.param(name, marks=pytest.mark.slow)


@pytest.fixture
def run_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
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


# -- the run's claimed settings on lines of audit's and resume's own ---------------------------------------

FORGED_PASS = "ACCEPTED  putnam_1962_a2  every gate passed"
FORGED_COUNT = "audited 6 passes: 6 accepted, 0 rejected"


def _forged_claims(data: dict) -> None:
    data["config"]["kernels"] = [f"lean\n{FORGED_PASS}"]
    data["config"]["tools"] = {"lean": f"/opt/lean\n{FORGED_COUNT}"}
    data["config"]["toolchain"] = f"v4.9.0\r\n{FORGED_PASS}"


def _no_line_of_theirs(*texts: str) -> list[str]:
    shown = [line for text in texts for line in text.splitlines()]
    assert not any(line.startswith((FORGED_PASS, FORGED_COUNT)) for line in shown), shown
    return shown


def test_the_run_s_claimed_settings_write_no_line_of_audit_s_own(run_dir: Path) -> None:
    """Before: ``putnam audit`` compared the run's claimed kernels, tools and toolchain release with its own and
    printed them as they were: a line feed in one wrote ``ACCEPTED  putnam_1962_a2 ...`` and ``audited 6
    passes: 6 accepted`` as lines of the audit's own output. Now each is shown on its note's line, escaped."""
    edit_settings(run_dir, _forged_claims)
    code, stdout, stderr = putnam("audit", run_dir)
    assert code == 0, stdout + stderr
    shown = _no_line_of_theirs(stdout, stderr)
    notes = [line for line in shown if line.startswith("note: the run")]
    assert any(f"kernels lean\\x0a{FORGED_PASS}" in line for line in notes), notes
    assert any(f"lean=/opt/lean\\x0a{FORGED_COUNT}" in line for line in notes), notes
    assert any(f"release v4.9.0\\x0a{FORGED_PASS}" in line for line in notes), notes


def test_a_resume_refusal_quotes_the_run_s_tools_on_its_own_line(run_dir: Path) -> None:
    """The same for ``putnam solve --resume``, which refuses to run the tools a ledger names and quotes them."""
    edit_settings(run_dir, _forged_claims)
    code, stdout, stderr = putnam("solve", "--resume", run_dir)
    assert code == 2, stdout + stderr
    (error,) = [line for line in _no_line_of_theirs(stdout, stderr) if line.startswith("error:")]
    assert f"--tool lean=/opt/lean\\x0a{FORGED_COUNT}" in error, stderr


def test_honest_claims_read_as_before(run_dir: Path) -> None:
    """Valid beside: a run's own tools and kernels are quoted as they are."""

    def honest(data: dict) -> None:
        data["config"]["kernels"] = ["lean", "nanoda"]
        data["config"]["tools"] = {"lean": "/opt/lean-4.9/bin/lean"}

    edit_settings(run_dir, honest)
    code, stdout, stderr = putnam("audit", run_dir)
    assert code == 0, stdout + stderr
    message = " ".join(stderr.split())
    assert "note: the run required kernels lean,nanoda; audited with lean" in message
    assert "note: the run named its own tools (lean=/opt/lean-4.9/bin/lean); audited with this machine's" in message


# -- a gate's detail in the one-line rows of verify --bundle and audit ---------------------------------------


def node_verdict(hostname: str) -> Any:
    """The verdict the head makes of a cluster node's answer that is no verdict: its ``D0`` detail names the
    node by the host name the node itself reported."""
    from putnam_solver.cluster.request import NodeResult, Request
    from putnam_solver.core.benchmark import load_benchmark
    from putnam_solver.core.provers import get_prover
    from putnam_solver.core.verify import Track, VerifyOptions

    bench = load_benchmark(ROCQ_SAMPLES)
    problem = bench.problems["sample_even_square"]
    data = (ROCQ_SAMPLES.parent / "proofs" / "sample_even_square.v").read_bytes()
    request = Request("verify", get_prover("rocq"), bench, problem, data, Track.WITH_ANSWER, VerifyOptions(), "p.v")
    return request.checked(NodeResult("n1", hostname, "toolchain", outcome="no verdict"), [])


@pytest.mark.parametrize("host", ["node-7", f"node-7\n{FORGED_PASS}"])
def test_a_detail_s_later_lines_stay_on_the_row_of_its_problem(host: str) -> None:
    """Before: ``verify --bundle``'s table and the audit's line per pass showed the first failing gate's detail as
    it was; a cluster node that named itself ``node-7<LF>ACCEPTED ...`` (or a compiler message over several
    lines) wrote a row of its own. Now the detail is on the row; an honest one reads as before."""
    from putnam_solver.bundles.bundle import BundleCheck, BundleEntry
    from putnam_solver.run.audit import AuditItem
    from putnam_solver.run.ledger_rows import AttemptRow, AuditRow

    verdict = node_verdict(host)
    assert verdict.status == "error" and host in verdict.gates[0].detail
    entry = BundleEntry("sample_even_square", b"x", "proofs/sample_even_square.v", None, {}, None, None)
    row = BundleCheck(entry, verdict, None).line(20)
    attempt = AttemptRow(1, 1, "sample_even_square", "passed", 1, 0, 0, 0.0, "x", "h", None, None, None, None)
    audit = AuditRow(1, 1, "2026-01-01T00:00:00+00:00", "error", "h", "t", "s", False, verdict.to_json())
    line = AuditItem(attempt, audit).line()
    for shown in (row, line):
        assert "\n" not in shown and "node node-7" in shown, shown
        assert ("ACCEPTED putnam_1962_a2" in shown) == ("\n" in host), shown


# -- a resume's acceptance: what the ledger alone may not weaken ---------------------------------------------


def test_a_resume_refuses_an_acceptance_below_full_that_no_flag_records(run_dir: Path) -> None:
    """Before: a ledger saying ``acceptance_profile: text`` was resumed as it said, and every pass of the resumed
    campaigns was counted ``verified`` without a compile or a kernel check. ``putnam solve`` accepts at full
    only, so such a ledger was written by something else."""
    code, stdout, stderr = putnam("solve", "--resume", run_dir)
    message = " ".join((stdout + stderr).split())
    assert code == 2 and "the run's settings accept passes at the text profile (`config.acceptance_profile`)" in message
    assert "no `putnam solve` records" in message


def test_a_resume_lifts_the_recursion_rule_only_when_its_caller_does(run_dir: Path) -> None:
    """Before: ``allow_recursion: true`` in the ledger alone made the resumed run accept candidate recursion,
    through which Coq 8.16's guard checker bugs prove False. Now the resume must say ``--allow-recursion`` too
    (and may not say it for a run that kept the rule)."""
    from putnam_solver.run.campaign import stored_run
    from putnam_solver.run.resume_checks import check_resumable

    edit_settings(run_dir, lambda s: s["config"].update(acceptance_profile="full", allow_recursion=True))
    code, stdout, stderr = putnam("solve", "--resume", run_dir)
    message = " ".join((stdout + stderr).split())
    assert code == 2 and "the run's settings lift the recursion rule (--allow-recursion), and this resume does not" in (
        message
    ), message
    stored = stored_run(run_dir)
    assert stored is not None
    check_resumable(stored, {}, None, given_recursion=True)  # valid: the caller lifts it too
    edit_settings(run_dir, lambda s: s["config"].update(allow_recursion=False))
    kept = stored_run(run_dir)
    assert kept is not None
    check_resumable(kept, {}, None)  # valid: the rule kept on both sides
    with pytest.raises(InputError, match="keep the recursion rule"):
        check_resumable(kept, {}, None, given_recursion=True)

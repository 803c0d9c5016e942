"""The seals of attempt rows and sample plans (``run/ledger_seals.py``) and where an audit re-verifies a pass
(``run/audit_placement.py``): which samples pass@k may count as verified, read from a real SQLite ledger
edited with plain ``sqlite3`` as anyone handed the run directory can."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from putnam_solver.run import audit_placement
from putnam_solver.run.agent.types import AttemptResult
from putnam_solver.run.ledger import LEDGER_NAME, AttemptRow, Ledger
from putnam_solver.run.ledger_seals import RUN_ID, UNSEALED, sample_trust, sealed_attempts
from putnam_solver.run.pass_at_k import figures_lines, pass_at_k_figures
from putnam_solver.verifier.dispatch import LOCAL
from tests.helpers import sql

PROBLEMS = ("p_one", "p_two")
SAMPLES = 2


@pytest.fixture(autouse=True)
def account(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own account configuration directory (where the sealing key is made)."""
    home = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    return home


def result(problem: str, sample: int, status: str = "rejected") -> AttemptResult:
    return AttemptResult(problem, status, 2, 10, 5, 0.25, f"candidate {sample}", None, sample=sample)


@pytest.fixture
def run_dir(tmp_path: Path) -> Iterator[Path]:
    """A run of two problems times two samples, every sample recorded, the ledger closed."""
    folder = tmp_path / "run"
    folder.mkdir()
    ledger = Ledger.open(folder / LEDGER_NAME)
    ledger.start_campaign(1, list(PROBLEMS), fresh=False, samples=SAMPLES)
    ledger.record_attempts(1, [result(p, s) for p in PROBLEMS for s in range(1, SAMPLES + 1)])
    ledger.close()
    yield folder


def trust_of(run_dir: Path, samples: int = SAMPLES) -> tuple[frozenset[str], dict[str, str]]:
    """The problems whose samples are all in sealed rows of the sealed plan, and the others with why."""
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        found = sample_trust(ledger, samples)
    finally:
        ledger.close()
    return found.plan - set(found.unverified), dict(found.unverified)


def test_an_honest_run_has_every_problem_verified(run_dir: Path) -> None:
    assert trust_of(run_dir) == (frozenset(PROBLEMS), {})


def test_a_run_resumed_after_a_kill_is_verified_once_its_samples_are_in(tmp_path: Path) -> None:
    """The first process recorded one sample and died; the next opens the ledger again and records the rest."""
    folder = tmp_path / "resumed"
    folder.mkdir()
    first = Ledger.open(folder / LEDGER_NAME)
    first.start_campaign(1, ["p_one"], fresh=False, samples=SAMPLES)
    first.record_attempts(1, [result("p_one", 1)])
    first.close()
    assert trust_of(folder)[1] == {"p_one": "1 of its 2 planned samples have no row (not run yet, the run "
                                   "stopped before them, or removed from the ledger)"}  # fmt: skip
    second = Ledger.open(folder / LEDGER_NAME)
    second.record_attempts(1, [result("p_one", 2, "passed")])  # no verdict: stored as an error, sealed all the same
    second.close()
    assert trust_of(folder) == (frozenset({"p_one"}), {})


def test_a_deleted_sample_leaves_its_problem_unverified(run_dir: Path) -> None:
    sql(run_dir, "DELETE FROM attempts WHERE problem='p_two' AND sample=2")
    verified, unverified = trust_of(run_dir)
    assert verified == {"p_one"} and "1 of its 2 planned samples have no row" in unverified["p_two"]


@pytest.mark.parametrize(
    "edit",
    [
        "UPDATE attempts SET status='passed' WHERE problem='p_two' AND sample=2",
        "UPDATE attempts SET candidate='another proof' WHERE problem='p_two' AND sample=2",
        "UPDATE attempts SET recorded_at='2020-01-01T00:00:00+00:00' WHERE problem='p_two' AND sample=2",
        "UPDATE attempts SET cost_dollars=0 WHERE problem='p_two' AND sample=2",
        "UPDATE seals SET seal=(SELECT seal FROM seals WHERE kind='attempt' AND ref=1) WHERE kind='attempt' AND ref=4",
    ],
)
def test_an_edited_row_or_seal_leaves_its_problem_unverified(run_dir: Path, edit: str) -> None:
    sql(run_dir, edit)
    verified, unverified = trust_of(run_dir)
    assert verified == {"p_one"} and UNSEALED in unverified["p_two"]


def test_a_row_added_in_place_of_a_deleted_one_is_not_this_account_s(run_dir: Path) -> None:
    (row,) = sql(run_dir, "SELECT * FROM attempts WHERE problem='p_two' AND sample=2")
    sql(run_dir, "DELETE FROM attempts WHERE id=?", row[0])
    sql(run_dir, f"INSERT INTO attempts VALUES ({', '.join('?' * len(row))})", 99, *row[1:])
    assert trust_of(run_dir)[0] == {"p_one"}


@pytest.mark.parametrize(
    "edit",
    [
        "INSERT INTO campaign_problems VALUES (1, 'p_three')",
        "DELETE FROM campaign_problems WHERE problem='p_two'",
        "UPDATE meta SET value='another run' WHERE key='run_id'",
        "DELETE FROM seals WHERE kind='plan'",
    ],
)
def test_an_edited_sample_plan_or_run_leaves_nothing_verified(run_dir: Path, edit: str) -> None:
    sql(run_dir, edit)
    verified, unverified = trust_of(run_dir)
    assert verified == frozenset() and unverified


def test_a_sample_count_other_than_the_sealed_plan_s_verifies_nothing(run_dir: Path) -> None:
    assert trust_of(run_dir, samples=1)[0] == frozenset()


def test_another_account_s_ledger_loads_with_nothing_verified(run_dir: Path, account: Path, tmp_path: Path) -> None:
    import os

    os.environ["XDG_CONFIG_HOME"] = str(tmp_path / "another-account")  # restored by the fixture's monkeypatch
    verified, unverified = trust_of(run_dir)
    assert verified == frozenset() and set(unverified) == set(PROBLEMS)


def figures_of(run_dir: Path, passed: Callable[[AttemptRow], bool]) -> list[str]:
    """pass@k's lines for the run, a sample passing when ``passed`` says so."""
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        trust = sample_trust(ledger, SAMPLES)
        return figures_lines(pass_at_k_figures(ledger.attempts(), SAMPLES, {}, trust, passed=passed))
    finally:
        ledger.close()


def first_sample(row: AttemptRow) -> bool:
    return row.sample == 1


def test_a_ledger_written_before_seals_loads_with_nothing_verified(run_dir: Path) -> None:
    sql(run_dir, "DELETE FROM seals")
    sql(run_dir, "DELETE FROM meta WHERE key=?", RUN_ID)
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        assert sealed_attempts(ledger) == frozenset()
    finally:
        ledger.close()
    lines = figures_of(run_dir, first_sample)
    assert lines[0].startswith("pass@k NOT VERIFIED: none of the 2 problems") and UNSEALED in lines[1]
    assert "| all | 2 | 0.500 | 1.000 |" in lines, "the ledger's claim is still shown, marked not verified"


def test_pass_at_k_of_an_honest_run_is_as_before(run_dir: Path) -> None:
    """Every sample sealed: the table alone, as a run before seals showed it."""
    assert figures_of(run_dir, first_sample) == [
        "| split | problems | pass@1 | pass@2 |",
        "|---|---:|---:|---:|",
        "| all | 2 | 0.500 | 1.000 |",
    ]


@pytest.mark.parametrize(
    "edit",
    [
        "DELETE FROM attempts WHERE problem='p_two' AND sample=2",  # a failed sample removed
        "UPDATE attempts SET status='copied' WHERE problem='p_two' AND sample=2",  # a pass copied in
    ],
)
def test_an_edit_never_raises_the_verified_figures(run_dir: Path, edit: str) -> None:
    """The failed sample 2 of p_two removed, or made a pass: the verified table is the honest one, the
    ledger's claim (pass@1 0.750) only apart, marked not verified."""
    sql(run_dir, edit)
    lines = figures_of(run_dir, lambda a: a.sample == 1 or a.status == "copied")
    assert lines[2] == "| all | 2 | 0.500 | 1.000 |" and lines[4].startswith("NOT VERIFIED: 1 problems"), lines
    claimed = {"DELETE": "| all | 2 | 0.750 | 1.000 (over 1) |", "UPDATE": "| all | 2 | 0.750 | 1.000 |"}
    assert lines[5].startswith("- p_two: ") and lines[-1] == claimed[edit.split()[0]], lines


# -- where an audit re-verifies: the ledger's node name never chooses a node ----------------------------------


class Cluster:
    name = "ray"


def attempt(ran_on: object) -> AttemptRow:
    verdict = {"status": "accepted", "gates": [], "ran_on": ran_on}
    return AttemptRow(1, 1, "p_one", "passed", 1, 1, 1, 0.0, "c", "h", None, None, None, verdict)


def test_a_sealed_producer_is_avoided_on_the_cluster() -> None:
    verifier, avoid, where = audit_placement.choose(Cluster(), attempt({"node_id": "node-a"}), sealed=True)  # type: ignore[arg-type]
    assert verifier.name == "ray" and avoid == "node-a" and "node-a" in where


@pytest.mark.parametrize("ran_on", [{"node_id": "node-a"}, {"node_id": "honest-node", "backend": "ray"}])
def test_a_node_named_in_an_unsealed_row_sends_the_audit_to_the_head(ran_on: object) -> None:
    verifier, avoid, where = audit_placement.choose(Cluster(), attempt(ran_on), sealed=False)  # type: ignore[arg-type]
    assert verifier is LOCAL and avoid is None and where == audit_placement.ON_HEAD_UNSEALED


@pytest.mark.parametrize("ran_on", [None, {}, {"node_id": ""}, {"node_id": ["a", "b"]}, "node-a"])
def test_no_node_named_verifies_where_asked(ran_on: object) -> None:
    verifier, avoid, where = audit_placement.choose(Cluster(), attempt(ran_on), sealed=False)  # type: ignore[arg-type]
    assert verifier.name == "ray" and avoid is None and where == audit_placement.AS_ASKED

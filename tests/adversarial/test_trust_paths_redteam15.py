"""Red team round 15 of the trust paths: a run directory whose outputs cannot be written as its ledger stands.

``putnam audit`` re-verified every pass first and wrote the run's outputs (evidence folders, SUMMARY.md,
attempts.tsv) only afterwards. A run directory handed over with a link where putnam keeps a folder of its
own (``attempts``, a campaign's folder, ``selections``), or a ledger row the outputs cannot show (a turn's
JSON nested past the limit), let every coqc and coqchk run, stored the audits, and then ended with exit 2 and
an ``[Errno 40]`` line: the audit's result never printed, the way out never named (``putnam report`` told
the user to report on a ``cp -r`` copy, which holds the same link). The outputs are now written as the
ledger stands before any pass is verified, and a planted link is named with what to do.

``putnam report`` counted in its solved figure a pass in a row no ``putnam solve`` of this account sealed (a
row added, or its time or bytes edited, with its stored verdict made to accept its bytes) as it counted the
run's own, and said nothing of it; the figure now says how many of its problems rest only on such rows
(the audited figure, which only ``putnam audit`` raises, was and is the one to trust). It also took the
benchmark's errata from the ledger's settings alone: with an erratum deleted there, an unaudited solve of a
statement known false counted as solved, not apart; this machine's errata of the registered benchmark the
run names now count it apart as well.

Real parts: a real ``putnam solve`` run (loopback model server, real coqc/coqchk), the real audit; in the
refused cases the gates are replaced by a failure, to show that nothing is verified before the refusal.
"""

from __future__ import annotations

import html
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from putnam_solver.run import audit
from putnam_solver.run.agent.types import AttemptResult
from putnam_solver.run.ledger import LEDGER_NAME, Ledger
from putnam_solver.run.report.data import headline, load_run, unsealed_note
from putnam_solver.run.report.run_page import _headline_html
from putnam_solver.run.report.summary import write_outputs
from putnam_solver.run.report.tables import cell
from putnam_solver.safe_write import RUN_OUTPUT_FIX
from tests.adversarial.test_run_directory import copy_run
from tests.adversarial.test_trust_paths_redteam10 import edit_settings
from tests.fakes.sample_prover import SampleProver, solved_run
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import LEAN_BENCH, sampled, sql
from tests.integration.campaign_driver import lean_good_candidates, recorded_lean_settings
from tests.processes import putnam

pytestmark = NEEDS_ROCQ
PROBLEM = "sample_even_square"


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return solved_run(tmp_path_factory.mktemp("solved"), SampleProver([]), (PROBLEM,))


def _linked(relative: str) -> Callable[[Path, Path], str]:
    """Replace the run's folder ``relative`` by a link to ``victim``; the refusal names the folder."""

    def plant(run_dir: Path, victim: Path) -> str:
        folder = run_dir / relative
        shutil.rmtree(folder)
        folder.symlink_to(victim, target_is_directory=True)
        return f"{relative.rsplit('/', 1)[-1]!r} is a link or not a directory; not followed; {RUN_OUTPUT_FIX}"

    return plant


def _turn(json_text: str) -> Callable[[Path, Path], str]:
    """Store ``json_text`` as the attempt's turn: a row the evidence folder's turns cannot show."""

    def edit(run_dir: Path, victim: Path) -> str:
        sql(run_dir, "UPDATE turns SET json = ?", json_text)
        return "turn of attempt 1"

    return edit


EDITS = {
    "attempts folder a link": _linked("attempts"),
    "campaign folder a link": _linked("attempts/campaign-1"),
    "selections folder a link": _linked("selections"),
    "turn nested too deep": _turn("[" * 100_000 + "]" * 100_000),
    "turn not JSON": _turn('{"role": '),
}


@pytest.mark.parametrize("edit", sampled(EDITS, {"attempts folder a link", "turn nested too deep"}))
def test_an_audit_whose_outputs_cannot_be_written_is_refused_before_verifying(
    edit: Callable[[Path, Path], str], solved: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_dir, benchmark = copy_run(solved, tmp_path)
    victim = tmp_path / "home"
    victim.mkdir()
    (victim / ".profile").write_text("keep me\n")
    says = edit(run_dir, victim)

    def no_gates(*_: object) -> object:
        raise AssertionError("a pass was verified before the refusal")

    monkeypatch.setattr(audit._Audit, "_verify", no_gates)
    with pytest.raises(InputError) as refused:
        audit.audit_run(audit.AuditRequest(run_dir, jobs=1, benchmark=benchmark))
    assert says in str(refused.value) and "Errno" not in str(refused.value), refused.value
    assert sql(run_dir, "SELECT COUNT(*) FROM audits") == [(0,)]
    assert sorted(p.name for p in victim.iterdir()) == [".profile"], "written through the link"


def test_report_names_a_planted_link_and_the_untouched_run_is_audited(
    solved: tuple[Path, Path], tmp_path: Path
) -> None:
    """The report's refusal says to remove the link (a ``cp -r`` copy would hold it too); beside it the
    untouched run is audited with real coqc/coqchk and its outputs show the audit."""
    run_dir, benchmark = copy_run(solved, tmp_path / "linked")
    victim = tmp_path / "home"
    victim.mkdir()
    says = _linked("attempts")(run_dir, victim)
    code, _, stderr = putnam("report", run_dir)
    assert code == 2 and says in stderr and "cp -r" not in stderr, stderr
    assert list(victim.iterdir()) == []

    run_dir, benchmark = copy_run(solved, tmp_path / "honest")
    code, stdout, stderr = putnam("audit", run_dir, "--benchmark", benchmark)
    assert code == 0 and "1 accepted" in stdout, stdout + stderr
    assert (run_dir / "attempts" / "campaign-1" / PROBLEM / "audit.json").is_file()
    assert "audited" in (run_dir / "SUMMARY.md").read_text()


# -- the report's solved figure and rows no putnam solve of this account sealed -----------------------------

UNSEAL = {
    "seal deleted": "DELETE FROM seals WHERE kind = 'attempt'",
    "pass moved to another time": "UPDATE attempts SET recorded_at = '2030-01-01T00:00:00+00:00'",
}


@pytest.mark.parametrize("edit", sampled(UNSEAL, {"seal deleted"}))
def test_the_report_names_solved_problems_no_sealed_row_backs(
    edit: str, solved: tuple[Path, Path], tmp_path: Path
) -> None:
    """Before: a pass written or edited with ``sqlite3`` (its verdict made to accept its bytes) counted in the
    report's solved figure as the run's own did, nothing on the page telling them apart; the figure now says
    how many of its problems rest only on such rows. The untouched run's figure says nothing of the kind."""
    run_dir, _ = copy_run(solved, tmp_path / "honest")
    honest = headline(load_run(run_dir))
    assert (honest.solved, honest.unsealed) == (1, 0)
    assert "no valid seal" not in _headline_html(honest)

    run_dir, _ = copy_run(solved, tmp_path / "edited")
    sql(run_dir, edit)
    edited = headline(load_run(run_dir))
    assert (edited.solved, edited.unsealed) == (1, 1)
    assert unsealed_note(1) in html.unescape(_headline_html(edited))


def test_summary_names_solved_problems_no_sealed_row_backs(solved: tuple[Path, Path], tmp_path: Path) -> None:
    """SUMMARY.md's verified passes say what the report's solved figure says: how many rest only on rows this
    account's ``putnam solve`` did not seal (before: nothing told them apart there); the untouched run's
    says nothing of the kind."""
    for name, edit, note in (("honest", None, False), ("edited", UNSEAL["seal deleted"], True)):
        run_dir, _ = copy_run(solved, tmp_path / name)
        if edit:
            sql(run_dir, edit)
        ledger = Ledger.open(run_dir / LEDGER_NAME)
        try:
            write_outputs(run_dir, ledger)
        finally:
            ledger.close()
        summary = (run_dir / "SUMMARY.md").read_text(encoding="utf-8")
        assert (cell(unsealed_note(1)) in summary) is note and ("no valid seal" in summary) is note, summary


# -- a known defective statement's solve, with the errata dropped from the ledger's settings ------------------

DEFECTIVE = "putnam_1974_b1"
"""A PutnamBench Lean statement the errata call false: a proof of it says nothing of the problem."""


def test_a_solve_of_a_known_defective_statement_stays_apart_when_the_ledger_drops_its_erratum(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: the report took the errata only from the ledger's settings, so deleting the erratum there
    moved an unaudited solve of a false statement into the solved figure. This machine's errata of the
    registered benchmark the run names count it apart too; beside it an honest solve still counts."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    honest = "putnam_1962_a1"
    settings = recorded_lean_settings([DEFECTIVE, honest])
    benchmark, prover = load_benchmark(LEAN_BENCH), get_prover("lean")
    results = []
    for pid, candidate in lean_good_candidates([DEFECTIVE, honest]).items():
        verdict = run_gates(prover, benchmark, benchmark.problems[pid], candidate.encode(), Track.WITH_ANSWER,
                            VerifyOptions(profile=Profile.TEXT))  # fmt: skip
        assert verdict.accepted, verdict
        results.append(AttemptResult(pid, "passed", 1, 10, 5, 0.0, candidate, verdict))
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    ledger.record_settings(settings.to_json())
    ledger.start_campaign(1, [DEFECTIVE, honest], fresh=False, samples=1)
    ledger.record_attempts(1, results)
    ledger.close()

    def drop_errata(data: dict) -> None:
        data["benchmark"]["record"]["errata"] = []

    for edit in (lambda _: None, drop_errata):
        edit_settings(run_dir, edit)
        shown = headline(load_run(run_dir))
        assert (shown.solved, shown.solved_apart) == (1, 1), shown

"""Audit and proof bundles of a Lean run, checked with the toy Lean toolchain (a real Lean elaborator and
kernel with a small prelude) in the sandbox.

The toy toolchain has no comparator, so a run here accepts on the ``fast`` profile (G1-G4): its bundle
verifies with ``--gates fast``, and ``putnam audit``, which always runs the full profile, refuses to start
rather than count a pass whose kernel check (G6) cannot run.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile
from putnam_solver.run import campaign
from putnam_solver.run.ledger import Ledger
from tests.helpers import needs_sandbox
from tests.integration.campaign_driver import ScriptedRunner, lean_text_config
from tests.toylean.build import BENCHMARK, VALID, ToyLean

pytestmark = needs_sandbox

PROBLEMS = ("toy_and_comm", "toy_or_comm")
runner = CliRunner()


@pytest.fixture
def lean_run(toy_lean_env: ToyLean, tmp_path: Path) -> Path:
    """A run of the two problems whose (scripted) workers submit the sample proofs, judged by real Lean."""
    config = dataclasses.replace(lean_text_config(jobs=2), acceptance_profile=Profile.FAST)
    good = {p: (VALID / f"{p}.lean").read_text() for p in PROBLEMS}
    settings = campaign.RunSettings(tmp_path / "run", config, campaign.Selection(BENCHMARK, problems=PROBLEMS), 1)
    scripted = ScriptedRunner(get_prover("lean"), good, dict.fromkeys(PROBLEMS, 1), jobs=2)
    outcome = campaign.solve(settings, None, runner=scripted)
    assert outcome.exit_code == 0, outcome.message
    return tmp_path / "run"


def putnam(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def test_a_lean_bundle_and_proof_folder_verify_with_real_lean(lean_run: Path, tmp_path: Path) -> None:
    bundle, proofs = tmp_path / "lean.tgz", tmp_path / "proofs"
    code, stdout, stderr = putnam("export", lean_run, "-o", bundle, "--proofs", proofs)
    assert code == 0, stdout + stderr
    assert sorted(p.name for p in proofs.iterdir()) == [f"{p}.lean" for p in PROBLEMS]
    code, stdout, stderr = putnam(
        "verify", "--bundle", bundle, "--benchmark", BENCHMARK, "--gates", "fast", "--no-cache"
    )
    assert code == 0, stdout + stderr
    rows = [line.split() for line in stdout.splitlines() if line.startswith(PROBLEMS)]
    assert rows == [[p, "accepted", "accepted"] for p in PROBLEMS]
    code, stdout, _ = putnam("verify", "--benchmark", BENCHMARK, "--gates", "fast", "--no-cache", proofs)
    assert code == 0 and "2 problems: 2 accepted" in stdout
    # The full profile re-verifies too, and fails closed where comparator is missing: nothing accepted.
    code, stdout, _ = putnam("verify", "--bundle", bundle, "--benchmark", BENCHMARK, "--no-cache")
    assert code == 2 and "2 errors (profile full" in stdout and "G6" in stdout


def test_audit_refuses_to_run_where_the_full_profile_cannot(lean_run: Path) -> None:
    code, _, stderr = putnam("audit", lean_run, "--benchmark", BENCHMARK)
    assert code == 2 and "the full profile of lean cannot run here" in stderr and "G6" in stderr
    ledger = Ledger.open(lean_run / "ledger.sqlite")
    try:
        assert ledger.audits() == [] and ledger.audited_problems() == set()
    finally:
        ledger.close()
    assert "not audited yet" in (lean_run / "SUMMARY.md").read_text()

"""`putnam verify` end to end on the Lean samples with the toy Lean: verdicts, exit codes, JSON, cache."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from tests.toylean.build import BENCHMARK, CANDIDATES, VALID, ToyLean

runner = CliRunner()


@pytest.fixture
def env(toy_lean_env: ToyLean, tmp_path: Path) -> Path:
    return tmp_path


def _verify(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["verify", "--prover", "lean", "--benchmark", str(BENCHMARK), *args])
    return result.exit_code, result.stdout, result.stderr


def test_valid_samples_pass_the_fast_profile_and_json_records_every_gate(env: Path) -> None:
    out = env / "verdicts.json"
    code, stdout, _ = _verify("--gates", "fast", "--json", str(out), str(VALID))
    assert code == 0, stdout
    assert "4 problems: 4 accepted, 0 rejected, 0 errors (profile fast" in stdout
    data = json.loads(out.read_text())
    assert data["all_okay"] is True
    assert len(data["results"]) == 4
    for result in data["results"]:
        assert result["status"] == "accepted"
        assert [g["id"] for g in result["gates"]] == ["G1", "G2", "G3", "G4"]
        assert all(g["status"] == "passed" for g in result["gates"])
        assert len(result["candidate_sha256"]) == 64 and result["benchmark_pinned"] is False


def test_a_wrong_proof_is_rejected_with_exit_1(env: Path) -> None:
    candidate = env / "toy_and_comm.lean"
    shutil.copy(CANDIDATES / "invalid" / "wrong.lean", candidate)
    code, stdout, _ = _verify("--gates", "fast", str(candidate))
    assert code == 1
    assert "REJECTED  toy_and_comm" in stdout and "G4 compile failed" in stdout


def test_full_profile_without_comparator_is_an_error_that_says_what_to_do(env: Path) -> None:
    code, stdout, _ = _verify(str(VALID / "toy_and_comm.lean"))
    assert code == 2
    assert "ERROR" in stdout and "G6 kernel unavailable" in stdout and "putnam bootstrap" in stdout


def test_second_run_reuses_the_verdict_and_no_cache_forces_a_fresh_one(env: Path) -> None:
    target = str(VALID / "toy_or_comm.lean")
    code, stdout, _ = _verify("--gates", "fast", target)
    assert code == 0 and "cached" not in stdout
    code, stdout, _ = _verify("--gates", "fast", target)
    assert code == 0 and "(cached verdict)" in stdout and "1 from cache" in stdout
    code, stdout, _ = _verify("--gates", "fast", "--no-cache", target)
    assert code == 0 and "cached" not in stdout


def test_an_edited_candidate_is_not_served_from_the_cache(env: Path) -> None:
    candidate = env / "toy_and_comm.lean"
    shutil.copy(VALID / "toy_and_comm.lean", candidate)
    assert _verify("--gates", "fast", str(candidate))[0] == 0
    shutil.copy(CANDIDATES / "invalid" / "sorry.lean", candidate)
    code, stdout, _ = _verify("--gates", "fast", str(candidate))
    assert code == 1 and "cached" not in stdout

"""A run that accepts with AXLE (G7, the real ``axiom-axle`` client against a loopback server) exports a
bundle naming the request id of every pass's G7 call, and ``verify --bundle --axle`` asks AXLE afresh."""

from __future__ import annotations

import dataclasses
import itertools
import json
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from putnam_solver.core.provers import get_prover
from putnam_solver.run import campaign
from tests.fakes.axle_server import AxleServer, Reply, serve_axle, verified
from tests.integration.campaign_driver import LEAN_BENCH, ScriptedRunner, lean_good_candidates, lean_text_config

pytest.importorskip("axle", reason="axiom-axle is not installed")

PROBLEMS = ("putnam_1962_a1", "putnam_1962_a2")
runner = CliRunner()


@pytest.fixture
def axle(monkeypatch: pytest.MonkeyPatch) -> Iterator[AxleServer]:
    """A loopback AXLE that accepts everything, each answer with a request id of its own."""
    numbers = itertools.count(1)

    def judge(body: dict[str, Any]) -> Reply:
        reply = verified(True)
        return dataclasses.replace(reply, headers={"X-Request-Id": f"req-{next(numbers)}"})

    with serve_axle(AxleServer(judge)) as server:
        monkeypatch.setenv("AXLE_API_URL", server.url)
        monkeypatch.setenv("AXLE_API_KEY", "test-key")
        yield server


def test_the_bundle_names_each_pass_axle_request_and_verify_asks_axle_again(axle: AxleServer, tmp_path: Path) -> None:
    if not LEAN_BENCH.is_file():
        pytest.skip(f"benchmark data not found at {LEAN_BENCH}")
    config = dataclasses.replace(lean_text_config(jobs=2), axle=True)
    settings = campaign.RunSettings(tmp_path / "run", config, campaign.Selection(LEAN_BENCH, problems=PROBLEMS), 1)
    scripted = ScriptedRunner(get_prover("lean"), lean_good_candidates(PROBLEMS), dict.fromkeys(PROBLEMS, 1), jobs=2)
    assert campaign.solve(settings, None, runner=scripted).exit_code == 0
    assert len(axle.requests) == 2
    bundle = tmp_path / "bundle.tar.gz"
    assert runner.invoke(app, ["export", str(tmp_path / "run"), "-o", str(bundle)]).exit_code == 0
    with tarfile.open(bundle) as tar:
        handle = tar.extractfile("bundle.json")
        assert handle is not None
        index = json.loads(handle.read())
    assert index["acceptance"]["axle"] is True
    assert sorted(r for p in index["problems"] for r in p["axle_request_ids"]) == ["req-1", "req-2"]
    assert all(len(p["axle_request_ids"]) == 1 for p in index["problems"])
    assert index["toolchain"]["pins"]["comparator"], "the Lean prover's pins travel with the bundle"
    args = ["verify", "--bundle", str(bundle), "--benchmark", str(LEAN_BENCH), "--gates", "text", "--axle"]
    result = runner.invoke(app, [*args, "--no-cache"])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "2 accepted, 0 rejected, 0 errors (profile text + axle" in result.stdout
    verified = [r for r in axle.requests if r["path"] == "/api/v1/verify_proof"]
    assert len(verified) == 4, "each proof went to AXLE again"

"""``kill -9`` of a real ``putnam solve`` (the CLI in its own process, the Inspect agent, a loopback model
server, real coqc) while the agent's submission compiles a proof that never ends: a few seconds later no
process of that compile is left, so ``putnam solve --resume`` never finds the killed run's compile still
running beside its own; the resumed run then finishes the attempt (here a quick rejection).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from putnam_solver.exit_codes import ExitCode
from tests.fakes.openai_server import FakeOpenAI, Step, serve, tool_call_reply
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import COQ_BENCH, REPO
from tests.integration.test_sandbox_lifetime import PROBLEM, looping_candidate
from tests.processes import compiling, kill_all_in, processes_in, wait_for

pytestmark = NEEDS_ROCQ

WAIT_SECONDS = 300.0  # guards against hanging, not timing assertions
GONE_SECONDS = 5.0


class Submits(FakeOpenAI):
    """Calls ``tool`` (``submit`` unless told) with ``proof`` on every request."""

    def __init__(self, proof: str, tool: str = "submit") -> None:
        super().__init__([])
        self.proof = proof
        self.tool = tool

    def next_step(self, request: dict[str, Any]) -> Step:
        super().next_step(request)
        return tool_call_reply(self.tool, {"proof": self.proof}, f"call_{self.requests}")


def _solve(url: str, marker: Path, *args: str) -> subprocess.Popen[str]:
    marker.mkdir()
    return subprocess.Popen(
        [sys.executable, "-m", "putnam_solver", "solve", *args, "--model-base-url", url, "--quiet"],
        env={**os.environ, "TMPDIR": str(marker)},
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def test_kill_9_mid_compile_then_resume(tmp_path: Path, solve_env: None) -> None:
    run_dir = tmp_path / "run"
    first, second = tmp_path / "first-tmp", tmp_path / "resume-tmp"
    with serve(Submits(looping_candidate())) as url:
        proc = _solve(
            url, first, "--prover", "rocq", "--benchmark", str(COQ_BENCH), "--problem", PROBLEM,
            "--model", "openai-api/fake/fake-model", "--reviewer-model", "none", "--reasoning-effort", "none",
            "--jobs", "1", "--fallback-jobs", "1", "--max-turns", "1", "--campaigns", "1", "--run-dir", str(run_dir),
        )  # fmt: skip
        try:
            started = lambda: compiling(first, "Candidate.v") or proc.poll() is not None  # noqa: E731
            wait_for("the submission compiles", started, WAIT_SECONDS)
            assert proc.poll() is None, proc.communicate()[0]
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=WAIT_SECONDS)
            left = f"no process of the killed run's compile is left: {processes_in(first)}"
            wait_for(left, lambda: not processes_in(first), GONE_SECONDS)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate(timeout=WAIT_SECONDS)
            kill_all_in(first)

    rejected = looping_candidate().replace("Qed.", "Admitted.")  # refused by the text gates, no compile
    model = Submits(rejected)
    with serve(model) as url:
        resumed = _solve(url, second, "--resume", str(run_dir))
        try:
            output, _ = resumed.communicate(timeout=WAIT_SECONDS)
        finally:
            if resumed.poll() is None:
                os.killpg(resumed.pid, signal.SIGKILL)
            kill_all_in(second)
    assert resumed.returncode == ExitCode.SUCCESS, output  # its one campaign completed, the problem unsolved
    assert "rejected      putnam_1981_b3 (campaign 1" in output, "the interrupted attempt was run again"
    assert model.requests >= 1
    assert not processes_in(first), "nothing of the killed run came back to life"

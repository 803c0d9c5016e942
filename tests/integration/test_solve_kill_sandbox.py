"""``kill -9`` of a real ``putnam solve`` (the CLI in its own process, the Inspect agent, a loopback model
server, real coqc) while the agent's submission compiles a proof that never ends: a few seconds later no
process of that compile is left, so ``putnam solve --resume`` never finds the killed run's compile still
running beside its own; the resumed run then finishes the attempt (here a quick rejection).
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from putnam_solver.exit_codes import ExitCode
from tests.fakes.openai_server import FakeOpenAI, Step, serve, tool_call_reply
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import COQ_BENCH
from tests.integration.test_sandbox_lifetime import PROBLEM, looping_candidate
from tests.processes import (
    WAIT_SECONDS,
    compiling,
    kill_all_in,
    processes_in,
    putnam_process,
    resume_args,
    solve_args,
    wait_for,
)

pytestmark = NEEDS_ROCQ

GONE_SECONDS = 60.0  # only ends the wait: a sandbox that outlives its killed parent never goes


class Submits(FakeOpenAI):
    """Calls ``tool`` (``submit`` unless told) with ``proof`` on every request."""

    def __init__(self, proof: str, tool: str = "submit") -> None:
        super().__init__([])
        self.proof = proof
        self.tool = tool

    def next_step(self, request: dict[str, Any]) -> Step:
        super().next_step(request)
        return tool_call_reply(self.tool, {"proof": self.proof}, f"call_{self.requests}")


def test_kill_9_mid_compile_then_resume(tmp_path: Path, solve_env: None) -> None:
    run_dir = tmp_path / "run"
    first, second = tmp_path / "first-tmp", tmp_path / "resume-tmp"
    first.mkdir()
    second.mkdir()
    args = solve_args(COQ_BENCH, run_dir, PROBLEM, max_turns=1, campaigns=1)
    try:
        with (
            serve(Submits(looping_candidate())) as url,
            putnam_process(*args, "--model-base-url", url, TMPDIR=str(first)) as proc,
        ):
            started = lambda: compiling(first, "Candidate.v") or proc.poll() is not None  # noqa: E731
            wait_for("the submission compiles", started, WAIT_SECONDS)
            assert proc.poll() is None, proc.communicate()[0]
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=WAIT_SECONDS)
            left = f"no process of the killed run's compile is left: {processes_in(first)}"
            wait_for(left, lambda: not processes_in(first), GONE_SECONDS)
    finally:
        kill_all_in(first)

    rejected = looping_candidate().replace("Qed.", "Admitted.")  # refused by the text gates, no compile
    model = Submits(rejected)
    try:
        with serve(model) as url, putnam_process(*resume_args(run_dir, url), TMPDIR=str(second)) as resumed:
            output, _ = resumed.communicate(timeout=WAIT_SECONDS)
    finally:
        kill_all_in(second)
    assert resumed.returncode == ExitCode.SUCCESS, output  # its one campaign completed, the problem unsolved
    assert "rejected      putnam_1981_b3 (campaign 1" in output, "the interrupted attempt was run again"
    assert model.requests >= 1
    assert not processes_in(first), "nothing of the killed run came back to life"

"""Ctrl-C (SIGINT to the process group, as a terminal sends it) of a real ``putnam solve`` (its own
process, the Inspect agent, a loopback model server, real coqc) while the agent's tool compiles a proof
that never ends: the agent's ``check`` in its warm ``coqtop`` session, or its ``submit`` in the gates'
coqc. The attempt stops only when its tool returns, and the tool runs in a worker thread that a
cancellation cannot stop; so the Ctrl-C kills the sandboxes first: the compile is gone within a few
seconds (not at its timeout, minutes later), the attempt is recorded as ``interrupted`` and the command exits 130.
The valid case beside it, an ordinary Ctrl-C during a model call, is ``test_solve_interrupt``.
"""

from __future__ import annotations

import csv
import os
import signal
import time
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")

from tests.fakes.openai_server import serve
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import COQ_BENCH
from tests.integration.test_sandbox_lifetime import PROBLEM, looping_candidate
from tests.integration.test_solve_kill_sandbox import Submits
from tests.processes import WAIT_SECONDS, kill_all_in, processes_in, putnam_process, solve_args, wait_for

pytestmark = NEEDS_ROCQ

GONE_SECONDS = 5.0


def running(marker: Path, program: str) -> bool:
    """Whether ``program`` (coqtop's warm session, or coqc compiling the candidate) runs under ``marker``."""
    return any(program in cmd for _, cmd in processes_in(marker))


@pytest.mark.parametrize(
    ("tool", "program"), [("check", "coqtop -emacs"), ("submit", "Candidate.v")], ids=["check-warm", "submit"]
)
def test_ctrl_c_mid_compile_stops_the_sandbox_at_once(tmp_path: Path, solve_env: None, tool: str, program: str) -> None:
    run_dir, marker = tmp_path / "run", tmp_path / "harness-tmp"
    marker.mkdir()
    model = Submits(looping_candidate(), tool)
    try:
        with serve(model) as url:
            args = solve_args(COQ_BENCH, run_dir, PROBLEM, url=url, max_turns=3, campaigns=1)
            with putnam_process(*args, TMPDIR=str(marker)) as proc:
                started = lambda: running(marker, program) or proc.poll() is not None  # noqa: E731
                wait_for(f"the {tool} tool runs {program}", started, WAIT_SECONDS)
                assert proc.poll() is None, proc.communicate()[0]
                time.sleep(2.0)  # inside the loop (coqtop has loaded the imports by now)
                sent = time.monotonic()
                os.killpg(proc.pid, signal.SIGINT)
                left = lambda: f"no process of the compile is left: {processes_in(marker)}"  # noqa: E731
                wait_for(left, lambda: not processes_in(marker), GONE_SECONDS)
                print(f"{tool}: the compile was gone {time.monotonic() - sent:.2f} s after Ctrl-C")
                output, _ = proc.communicate(timeout=WAIT_SECONDS)
    finally:
        kill_all_in(marker)
    assert proc.returncode == 130, output
    assert "interrupted (Ctrl-C)" in output
    with (run_dir / "attempts.tsv").open() as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    assert [(r["problem"], r["status"]) for r in rows] == [(PROBLEM, "interrupted")]
    assert model.requests == 1, "no model call after the interruption"

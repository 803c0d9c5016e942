"""Ctrl-C (SIGINT) to a real ``putnam solve`` (the CLI in its own process, the Inspect agent, a loopback
model server, real coqc) while a model call is open: the attempt in flight is recorded as
``interrupted`` with what it spent, the command exits 130 and says how to go on, and ``--resume`` runs
that problem again in the same campaign.
"""

from __future__ import annotations

import csv
import os
import signal
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from tests.fakes.openai_server import FakeOpenAI, Step, serve, tool_call_reply
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.helpers import REPO
from tests.processes import WAIT_SECONDS, finished, putnam_process, resume_args, solve_args

pytestmark = NEEDS_ROCQ

SAMPLES = REPO / "samples" / "rocq"
PROBLEM = "sample_rev_length"
GOOD = (SAMPLES / "proofs" / f"{PROBLEM}.v").read_text()
EDITED = GOOD.replace("length (rev l) = length l", "length l = length l")


@dataclass
class SlowModel(FakeOpenAI):
    """Answers its first request (a rejected submission), then holds the second open until released."""

    held: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)

    def next_step(self, request: dict[str, Any]) -> Step:
        step = super().next_step(request)
        if self.requests == 2:
            self.held.set()
            self.release.wait(WAIT_SECONDS)
        return step


def _attempts(run_dir: Path) -> list[tuple[str, str, str, str]]:
    with (run_dir / "attempts.tsv").open() as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [(r["campaign"], r["problem"], r["status"], r["input_tokens"]) for r in rows]


def test_ctrl_c_records_the_attempt_as_interrupted_exits_130_and_resume_runs_it_again(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    model = SlowModel([tool_call_reply("submit", {"proof": EDITED}, "call_1")])
    args = solve_args(SAMPLES / "benchmark.jsonl", run_dir, PROBLEM, max_turns=5)
    with serve(model) as url, putnam_process(*args, "--model-base-url", url) as proc:
        try:
            assert model.held.wait(WAIT_SECONDS), "the solve never made its second model call"
            os.killpg(proc.pid, signal.SIGINT)  # to its process group, as a terminal's Ctrl-C
            output, _ = proc.communicate(timeout=WAIT_SECONDS)
        finally:
            model.release.set()
    assert proc.returncode == 130, output
    assert "interrupted (Ctrl-C): campaign 1 stopped with 1 of its 1 attempts without an outcome" in output
    assert f"`putnam solve --resume {run_dir}` runs them again" in output
    assert "campaign limit reached" not in output
    # The spend of the first, answered call is kept with the interrupted attempt.
    assert _attempts(run_dir) == [("1", PROBLEM, "interrupted", "100")]
    summary = (run_dir / "SUMMARY.md").read_text()
    assert "| Run | interrupted, exit code 130: interrupted (Ctrl-C)" in summary
    assert "| 1 (unfinished) | 1 | 0 | 1 | 120 |" in summary

    resumed_model = FakeOpenAI([tool_call_reply("submit", {"proof": GOOD}, "call_2")])
    with serve(resumed_model) as url, putnam_process(*resume_args(run_dir, url)) as resumed:
        finished(resumed)
    assert resumed_model.requests == 1, "the interrupted problem ran again"
    assert _attempts(run_dir) == [("1", PROBLEM, "interrupted", "100"), ("1", PROBLEM, "passed", "100")]
    summary = (run_dir / "SUMMARY.md").read_text()
    assert "| Tokens | 240 (200 input, 40 output) |" in summary
    assert "| 1 | 1 | 1 | 2 | 240 |" in summary

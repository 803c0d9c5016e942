"""A real ``putnam solve`` (its own process, the loopback model server, real coqc) stopped while the holes
of its attempt's sketch are being proved, by Ctrl-C (the attempt is recorded as interrupted, with no
outcome) or by ``kill -9`` (nothing of the attempt is recorded): the sketch is in the ledger either way,
since it is stored when it is made, not when its attempt ends. ``--resume`` runs the attempt again, and
the next campaign is shown the sketch; SUMMARY.md counts it."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from putnam_solver.run.ledger_rows import IN_FLIGHT
from tests.fakes.openai_server import FakeOpenAI, Step, serve, tool_call_reply
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.integration.test_agent_sketch import FINAL, INFORMAL, PROBLEM, SAMPLES, SKELETON
from tests.processes import WAIT_SECONDS, finished, putnam_process, resume_args, solve_args, wait_for

pytestmark = NEEDS_ROCQ

OFFERED = "Campaign 1 sketched this problem"


class SketchingModel:
    """The worker sketches (while ``sketching``), then submits the skeleton, which is rejected for its
    holes; shown an earlier campaign's sketch, it submits the finished proof. A hole's sub-attempt is held
    open (``holding`` is set) until ``release``: the moment to stop the run."""

    def __init__(self, sketching: bool) -> None:
        self.sketching = sketching
        self.holding, self.release = threading.Event(), threading.Event()
        self.tasks: list[str] = []

    def __call__(self, request: dict[str, Any]) -> Step:
        task = json.dumps(request["messages"][:2])
        if "Lemma `" in task:
            self.holding.set()
            self.release.wait(WAIT_SECONDS)
            return {"role": "assistant", "content": "Stopped."}
        self.tasks.append(task)
        if OFFERED in task:
            return tool_call_reply("submit", {"proof": FINAL}, "call_final")
        if self.sketching:
            return tool_call_reply("sketch", {"informal_proof": INFORMAL, "skeleton": SKELETON}, "call_sketch")
        return tool_call_reply("submit", {"proof": SKELETON}, "call_skeleton")


def _rows(run_dir: Path, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    db = sqlite3.connect(run_dir / "ledger.sqlite", timeout=30)
    try:
        return db.execute(sql, parameters).fetchall()
    except sqlite3.OperationalError:  # not created yet
        return []
    finally:
        db.close()


SKETCHES = "SELECT campaign, problem, sample, informal_proof, skeleton, holes, proved FROM sketches"


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGKILL], ids=lambda s: s.name)
def test_a_sketch_made_before_an_interruption_is_kept_and_offered_to_the_next_campaign(
    tmp_path: Path, signum: signal.Signals
) -> None:
    model = SketchingModel(sketching=True)
    args = solve_args(SAMPLES, tmp_path, PROBLEM, max_turns=1, campaigns=2)
    with serve(FakeOpenAI([], route=model)) as url, putnam_process(*args, "--model-base-url", url) as proc:
        try:
            assert model.holding.wait(WAIT_SECONDS), "no hole of the sketch went to a sub-attempt"
            wait_for("the sketch is stored", lambda: bool(_rows(tmp_path, f"{SKETCHES} WHERE holes = 2")), WAIT_SECONDS)
            os.killpg(proc.pid, signum)
            output, _ = proc.communicate(timeout=WAIT_SECONDS)
        finally:
            model.release.set()
    assert proc.returncode == (130 if signum == signal.SIGINT else -signal.SIGKILL), output
    assert _rows(tmp_path, "SELECT id FROM attempts") == [], "the attempt had no outcome"
    interrupted = _rows(tmp_path, "SELECT problem FROM interruptions WHERE error != ?", (IN_FLIGHT,))
    assert interrupted == ([(PROBLEM,)] if signum == signal.SIGINT else []), "Ctrl-C records it, kill -9 cannot"
    in_flight = _rows(tmp_path, "SELECT problem FROM interruptions WHERE error = ?", (IN_FLIGHT,))
    assert in_flight == ([] if signum == signal.SIGINT else [(PROBLEM,)]), "after kill -9 its spend is kept"
    assert _rows(tmp_path, SKETCHES) == [(1, PROBLEM, 1, INFORMAL, SKELETON, 2, 0)]

    resumed = SketchingModel(sketching=False)
    with serve(FakeOpenAI([], route=resumed)) as url, putnam_process(*resume_args(tmp_path, url)) as proc:
        finished(proc)
    assert len(resumed.tasks) == 2, "campaign 1's attempt again, then campaign 2's"
    assert OFFERED not in resumed.tasks[0], "a campaign is offered its earlier campaigns' sketches only"
    assert OFFERED in resumed.tasks[1] and INFORMAL in resumed.tasks[1]
    assert "Lemma lower_bound : forall x : R" in resumed.tasks[1], "the skeleton is offered with it"
    attempts = _rows(tmp_path, "SELECT campaign, status FROM attempts ORDER BY campaign")
    assert attempts == [(1, "rejected"), (2, "passed")]
    summary = (tmp_path / "SUMMARY.md").read_text().split("## Sketches", 1)[1]
    assert f"| {PROBLEM} | 1 | 0 of 2 | no |" in summary
    evidence = (tmp_path / "attempts" / "campaign-1" / PROBLEM / "sketch.md").read_text()
    assert INFORMAL in evidence and "0 of 2 holes proved" in evidence

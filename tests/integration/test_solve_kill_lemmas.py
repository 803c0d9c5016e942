"""``kill -9`` of a real ``putnam solve`` after a lemma sub-attempt proved its lemma, then ``--resume``:
the proved lemma survives the kill (it was recorded when its sub-attempt ended), its evidence is there,
and the re-run attempt is offered it instead of proving it again."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from tests.fakes.openai_server import FakeOpenAI, Step, serve, tool_call_reply
from tests.fakes.scripted_agent import FIXTURE, NEEDS_ROCQ
from tests.integration.test_solve_kill import ScriptedModel
from tests.processes import WAIT_SECONDS, finished, putnam_process, resume_args, solve_args, wait_for

pytestmark = NEEDS_ROCQ

LEMMA = "Lemma l1 : 2 = 1 + 1.\n"
MAIN = "Theorem two_plus_two : 2 + 2 = 4.\nProof.\n  pose proof l1 as H. reflexivity.\nQed.\n"
DRAFT = LEMMA + "Proof.\nAdmitted.\n" + MAIN
PROVED = LEMMA + "Proof.\n  reflexivity.\nQed.\n"


@dataclass
class LemmaModel(ScriptedModel):
    """The worker checks its draft, proves ``l1`` with ``prove_lemma``, then submits; a worker that is
    offered ``l1`` as proved earlier submits at once. The sub-attempt submits the lemma's proof."""

    def next_step(self, request: dict[str, Any]) -> Step:
        FakeOpenAI.next_step(self, request)  # its own proofs, not the samples'
        self.hold()
        messages = request.get("messages", [])
        task, last = json.dumps(messages[:2]), json.dumps(messages[-1:])
        call = f"call_{self.requests}"
        if "Lemma `l1`" in task:
            return tool_call_reply("submit", {"proof": PROVED}, call)
        if "Lemmas proved earlier" in task or "PROVED l1" in last:
            return tool_call_reply("submit", {"proof": PROVED + MAIN}, call)
        if "DRAFT" in last:
            return tool_call_reply("prove_lemma", {"name": "l1"}, call)
        return tool_call_reply("check", {"proof": DRAFT}, call)


def _rows(run_dir: Path, sql: str) -> list[tuple[Any, ...]]:
    db = sqlite3.connect(run_dir / "ledger.sqlite", timeout=30)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def test_a_lemma_proved_before_a_kill_is_kept_and_offered_on_resume(tmp_path: Path) -> None:
    model = LemmaModel([], hold_at=4)  # check, prove_lemma, the sub-attempt's submit, then the final submit
    args = solve_args(FIXTURE, tmp_path, "two_plus_two", max_turns=4)
    with serve(model) as url, putnam_process(*args, "--model-base-url", url) as proc:
        try:
            assert model.held.wait(WAIT_SECONDS), "the solve never got to its final submit"
            wait_for(
                "the sub-attempt is recorded", lambda: bool(_rows(tmp_path, "SELECT id FROM subattempts")), WAIT_SECONDS
            )
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=WAIT_SECONDS)
        finally:
            model.release.set()
    assert _rows(tmp_path, "SELECT lemma, status FROM subattempts") == [("l1", "passed")]
    assert _rows(tmp_path, "SELECT id FROM attempts") == [], "the attempt itself was in flight"

    resumed = LemmaModel([])
    with serve(resumed) as url, putnam_process(*resume_args(tmp_path, url)) as proc:
        finished(proc)
    assert resumed.requests == 1, "the re-run attempt took the proved lemma and submitted at once"
    assert _rows(tmp_path, "SELECT problem, status FROM attempts") == [("two_plus_two", "passed")]
    [(parent,)] = _rows(tmp_path, "SELECT parent FROM subattempts")
    [(key,)] = _rows(tmp_path, "SELECT value FROM attempt_notes WHERE key = 'key'")
    assert parent != key, "the sub-attempt belongs to the interrupted run of the attempt"
    [folder] = (tmp_path / "attempts" / "campaign-1" / "two_plus_two" / "lemmas").iterdir()
    assert (folder / "lemma.v").read_text() == PROVED and (folder / "subattempt.json").is_file()
    assert "Sub-attempts: 1; lemmas proved: 1;" in (tmp_path / "SUMMARY.md").read_text()

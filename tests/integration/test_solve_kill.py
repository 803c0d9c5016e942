"""``kill -9`` of a real ``putnam solve`` (the CLI in its own process, the Inspect agent, a loopback model
server, real coqc) at several moments, then ``putnam solve --resume``: the ledger and every output agree
with an uninterrupted run of the same script, and no attempt is lost or counted twice.

The model's replies depend only on what it is asked (which problem, first campaign or a later one), so
an interrupted and resumed run must end exactly where an uninterrupted one does: in campaign 1 two
problems pass and ``sample_even_square`` is rejected; in campaign 2 its carried-forward attempt passes.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")

from tests.fakes.openai_server import serve
from tests.fakes.sample_prover import SAMPLES, SampleProver
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.processes import WAIT_SECONDS, finished, putnam_process, resume_args, solve_args

pytestmark = NEEDS_ROCQ

PROBLEMS = ("sample_consecutive_even", "sample_even_square", "sample_rev_length")
SLOW_LEARNER = "sample_even_square"


@dataclass
class ScriptedModel(SampleProver):
    """Submits the sample proof, except a wrong one for SLOW_LEARNER until it sees a carried candidate.

    ``hold_at`` holds the n-th request open (``held`` is set) until ``release``: the moment to kill.
    """

    hold_at: int | None = None
    held: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)

    def hold(self) -> None:
        """Hold this request open if it is the ``hold_at``-th."""
        if self.requests == self.hold_at:
            self.held.set()
            self.release.wait(WAIT_SECONDS)

    def proof(self, problem: str, task: str) -> str:
        self.hold()
        proof = super().proof(problem, task)
        if problem == SLOW_LEARNER and "An earlier attempt at this problem" not in task:
            return proof.replace("Qed.", "Admitted.")
        return proof


def _args(url: str, run_dir: Path) -> list[str]:
    return solve_args(SAMPLES / "benchmark.jsonl", run_dir, *PROBLEMS, url=url, max_turns=1, campaigns=2)


def _attempts(run_dir: Path) -> list[tuple[object, ...]]:
    db = sqlite3.connect(run_dir / "ledger.sqlite", timeout=30)
    try:
        return db.execute(
            "SELECT a.campaign, a.problem, a.status, a.turns, a.input_tokens, a.output_tokens, "
            "a.candidate_sha256, v.status, v.json IS NOT NULL FROM attempts a "
            "LEFT JOIN verdicts v ON v.attempt_id = a.id ORDER BY a.campaign, a.problem"
        ).fetchall()
    finally:
        db.close()


def _outputs(run_dir: Path) -> dict[str, str]:
    """The derived text outputs, without what differs between any two runs (times, the run's path)."""
    files = {}
    for name in ("SUMMARY.md", "attempts.tsv", "initial.txt", "unresolved.txt"):
        files[name] = (run_dir / name).read_text()
    for path in sorted((run_dir / "selections").iterdir()):
        files[f"selections/{path.name}"] = path.read_text()
    evidence = sorted(path for path in (run_dir / "attempts").rglob("*") if path.is_file())
    files["evidence folders"] = "\n".join(str(path.relative_to(run_dir)) for path in evidence)
    for path in evidence:
        if path.suffix == ".v":  # verdicts and logs hold timings; their statuses are compared in the ledger
            files[str(path.relative_to(run_dir))] = path.read_text()
    return {
        name: "".join(
            line.replace(str(run_dir), "RUN")
            for line in text.splitlines(True)
            if not line.startswith(("Generated:", "- Generated"))
        )
        for name, text in files.items()
    }


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    run_dir = tmp_path_factory.mktemp("reference")
    model = ScriptedModel([])
    with serve(model) as url, putnam_process(*_args(url, run_dir)) as proc:
        finished(proc)
    assert model.requests == 4
    yield run_dir


def _kill_at_request(run_dir: Path, request: int) -> None:
    """Start a solve, kill -9 its process group while the model call number ``request`` is open."""
    model = ScriptedModel([], hold_at=request)
    with serve(model) as url, putnam_process(*_args(url, run_dir)) as proc:
        try:
            assert model.held.wait(WAIT_SECONDS), "the solve never made that model call"
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=WAIT_SECONDS)
            assert proc.returncode == -signal.SIGKILL
        finally:
            model.release.set()


def _resume(run_dir: Path) -> ScriptedModel:
    model = ScriptedModel([])
    with serve(model) as url, putnam_process(*resume_args(run_dir, url)) as proc:
        finished(proc)
    return model


@pytest.mark.parametrize(
    ("request_number", "recorded_before"),
    [(1, 0), (3, 2), (4, 3)],
    ids=["first-call", "last-call-of-campaign-1", "in-campaign-2"],
)
def test_kill_during_a_model_call_then_resume(
    reference: Path, tmp_path: Path, request_number: int, recorded_before: int
) -> None:
    _kill_at_request(tmp_path, request_number)
    recorded = _attempts(tmp_path) if (tmp_path / "ledger.sqlite").is_file() else []
    assert len(recorded) == recorded_before, "what was recorded before the kill survives it"
    model = _resume(tmp_path)
    assert model.requests == 4 - recorded_before, "only the attempts not recorded are run again"
    rows = _attempts(tmp_path)
    assert len({(r[0], r[1]) for r in rows}) == len(rows) == 4, "no attempt lost or counted twice"
    assert rows == _attempts(reference)
    assert _outputs(tmp_path) == _outputs(reference)

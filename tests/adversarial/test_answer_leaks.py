"""No-answer track: the official answer and the informal solution reach no model, by any path.

A whole ``solve`` runs (two campaigns, the react worker and a reviewer on Inspect's mock model, real
coqc/coqchk on a sample with a solution hole). The reviewer is the worst case: it repeats, in its veto,
everything it was shown, so whatever reaches it also reaches the worker, the ledger and the next
campaign's carried diagnostics. Then every model input in the ``.eval`` transcripts and every
model-visible column of the ledger is searched for the answer texts.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai.event import ModelEvent
from inspect_ai.log import read_eval_log
from inspect_ai.model import ChatMessage, ModelOutput

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.verify import Track
from putnam_solver.exit_codes import ExitCode
from putnam_solver.problem_selection import select_problems
from putnam_solver.run.agent.types import Budgets
from putnam_solver.run.campaign import RunSettings, Selection, solve
from putnam_solver.run.ledger import LEDGER_NAME
from tests.fakes.scripted_agent import NEEDS_ROCQ, call, config, say, scripted
from tests.helpers import REPO

pytestmark = NEEDS_ROCQ

SAMPLES = REPO / "samples" / "rocq" / "benchmark.jsonl"
PROBLEM = "sample_sum_odds"
OFFICIAL = "fun n => n * n"
# the worker's own answer, right but written differently, so that any sighting of OFFICIAL is a leak
MINE = (SAMPLES.parent / "proofs" / f"{PROBLEM}.v").read_text().replace(OFFICIAL, "fun k => k * k")


def _secrets() -> list[str]:
    record = select_problems(load_benchmark(SAMPLES), [PROBLEM])[0]
    informal = record.informal_solution
    assert informal and OFFICIAL in record.formal_statement, "the sample holds both answer texts"
    return [OFFICIAL, "n * n", informal]


def _model_inputs(log_dir: Path) -> Iterator[str]:
    """The text of every message any model was given, in every transcript of the run."""
    for path in sorted(log_dir.glob("*.eval")):
        for sample in read_eval_log(str(path)).samples or []:
            for event in sample.events:
                if isinstance(event, ModelEvent):
                    yield from (_message_text(m) for m in event.input)
            yield from (_message_text(m) for m in sample.messages)


def _message_text(message: ChatMessage) -> str:
    calls = getattr(message, "tool_calls", None) or []
    return message.text + "".join(repr(c.arguments) for c in calls)


def _ledger_model_text(run_dir: Path) -> list[str]:
    """Everything in the ledger that is ever shown to a model (feedback, errors, gate details, turns)."""
    db = sqlite3.connect(run_dir / LEDGER_NAME)
    try:
        rows: list[Any] = db.execute("SELECT reviewer_feedback, error FROM attempts").fetchall()
        rows += db.execute("SELECT detail FROM gates").fetchall()
        rows += db.execute("SELECT json FROM turns").fetchall()
    finally:
        db.close()
    return [str(value) for row in rows for value in row if value is not None]


def test_no_model_input_holds_the_official_answer_or_the_informal_solution(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    reviewer_inputs: list[str] = []

    def script(input: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        if not tools:  # the reviewer: a veto that repeats everything it was shown
            shown = "\n".join(m.text for m in input)
            reviewer_inputs.append(shown)
            return say("VETO: here is what I was shown:\n" + shown)
        return call("submit", MINE)

    cfg = config(
        scripted(script),
        track=Track.NO_ANSWER,
        reviewer_model="mockllm/model",
        reviewer_veto=True,  # a veto keeps the problem open, so that campaign 2 sees what campaign 1 left
        budgets=Budgets(max_turns=1),
    )
    run_dir = tmp_path / "run"
    outcome = solve(RunSettings(run_dir, cfg, Selection(SAMPLES, problems=(PROBLEM,)), campaigns=2), progress=None)
    assert outcome.exit_code == ExitCode.SUCCESS, outcome.message  # vetoed twice: the campaign limit was reached
    assert len(reviewer_inputs) == 2, "the gates accepted the worker's answer both times"

    inputs = list(_model_inputs(run_dir / "logs"))
    assert any("fun k => k * k" in text for text in inputs), "the transcripts hold the worker's submission"
    assert any("here is what I was shown" in text for text in inputs), "the veto reached the worker"
    assert any("Campaign 1" in text for text in inputs), "campaign 2 was shown the carried diagnostics"
    visible = inputs + _ledger_model_text(run_dir)
    for secret in _secrets():
        leaks = [text for text in visible if secret in text]
        assert not leaks, f"{secret!r} reached a model: {leaks[0][:3000]}"


def test_a_reference_that_does_not_compile_keeps_its_answer_out_of_the_diagnostics(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The harness's reference module holds the official solution; when it fails to compile, coqc quotes
    it. On no-answer that message stays in the evidence, out of the detail the worker is shown, whichever
    gate meets it first."""
    from putnam_solver.core.provers import get_prover
    from putnam_solver.core.verify import VerifyOptions, run_gates
    from putnam_solver.run.agent.tools import format_verdict

    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    secret = "official_secret_answer_xyz"
    statement = (
        f"Definition broken_solution : nat := {secret}.\n"
        "Theorem broken : broken_solution + 0 = broken_solution.\nProof. Admitted.\n"
    )
    bench_file = tmp_path / "bench.jsonl"
    bench_file.write_text(json.dumps({"problem_id": "broken", "formal_statement": statement}) + "\n")
    bench = load_benchmark(bench_file)
    candidate = statement.replace(secret, "0").replace("Admitted.", "reflexivity. Qed.")
    problem = select_problems(bench, ["broken"])[0]
    verdict = run_gates(get_prover("rocq"), bench, problem, candidate.encode(), Track.NO_ANSWER, VerifyOptions())
    # on no-answer G4 is the first gate to need the reference (its restatement check states the
    # reference's theorem), and it reports the failure as G5 does on with-answer
    g4 = next(g for g in verdict.gates if g.id == "G4")
    assert g4.status.value == "error" and "reference module does not compile" in g4.detail, g4.detail
    assert secret in json.dumps(g4.evidence), "the harness-side record keeps coqc's message"
    assert secret not in format_verdict(verdict, candidate)

"""A scripted model for ``putnam solve`` on the Rocq samples (samples/rocq): it submits the sample proof of
whichever problem it is asked about, and a finished run made with it."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.fakes.openai_server import FakeOpenAI, Step, serve, tool_call_reply
from tests.helpers import REPO
from tests.processes import putnam, solve_args

SAMPLES = REPO / "samples" / "rocq"


@dataclass
class SampleProver(FakeOpenAI):
    """Submits the sample proof of the problem its task names (``proof`` may choose another)."""

    def proof(self, problem: str, task: str) -> str:
        """What to submit for ``problem``, given the ``task`` (the conversation's first messages, as JSON)."""
        return (SAMPLES / "proofs" / f"{problem}.v").read_text()

    def next_step(self, request: dict[str, Any]) -> Step:
        super().next_step(request)
        task = json.dumps(request.get("messages", [])[:2])
        [problem] = set(re.findall(r"Problem `(\w+)`", task))
        return tool_call_reply("submit", {"proof": self.proof(problem, task)}, f"call_{self.requests}")


def solved_run(base: Path, model: SampleProver, problems: tuple[str, ...], *flags: str) -> tuple[Path, Path]:
    """A finished ``putnam solve`` of ``problems`` (``base/run``, two jobs, one turn each, ``flags``) in which
    every problem passed, and its benchmark: a copy of the samples' (``base/benchmark.jsonl``) only this run
    uses."""
    benchmark = base / "benchmark.jsonl"
    shutil.copyfile(SAMPLES / "benchmark.jsonl", benchmark)
    with serve(model) as url:
        args = solve_args(benchmark, base / "run", *problems, url=url, jobs=2, max_turns=1)
        code, stdout, stderr = putnam(*args, *flags, FAKE_API_KEY="test-key", INSPECT_EVAL_MAX_RETRIES="1")
    assert code == 0, stdout + stderr
    return base / "run", benchmark

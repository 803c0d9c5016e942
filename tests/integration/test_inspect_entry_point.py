"""`inspect eval putnam_solver/putnambench`: Inspect's own CLI finds the task through the package's
``inspect_ai`` entry point and scores every epoch with the gates of `putnam solve` (real coqc/coqchk).

The entry point is the one pyproject.toml declares, put where ``importlib.metadata`` finds it (a
``.dist-info`` folder on the path, as an installed wheel has), so Inspect's registry loads it exactly
as it loads an installed package's. The model is the loopback OpenAI-compatible server: its first reply
submits a sound proof of the sample problem, its second an edited statement, so of two epochs one is
CORRECT and one INCORRECT: mean 0.5, pass@2 1.0.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.fakes.openai_server import FakeOpenAI, serve, tool_call_reply
from tests.helpers import REPO
from tests.integration.inspect_cli import inspect_eval

pytest.importorskip("inspect_ai")
pytestmark = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not installed")

SAMPLES = REPO / "samples" / "rocq"
PROBLEM = "sample_rev_length"
GOOD = (SAMPLES / "proofs" / f"{PROBLEM}.v").read_text()
EDITED = GOOD.replace("length (rev l) = length l", "length l = length l")


@pytest.fixture(autouse=True)
def _env(solve_env: None) -> None:
    """The loopback model's key and a private cache holding a passed Rocq selftest (``solve_env``)."""


def test_inspect_eval_runs_the_task_with_the_gates_as_scorer_and_reports_pass_at_k(tmp_path: Path) -> None:
    fake = FakeOpenAI(
        [tool_call_reply("submit", {"proof": GOOD}, "call_1"), tool_call_reply("submit", {"proof": EDITED}, "call_2")]
    )
    with serve(fake) as url:
        benchmark, selected = f"benchmark={SAMPLES / 'benchmark.jsonl'}", f"problems={PROBLEM}"
        log = inspect_eval(tmp_path, url, benchmark, selected, "max_turns=1", "samples=2", "reviewer=off")
    assert fake.requests == 2, "one model call per epoch, and no reviewer"
    assert log.eval.config.epochs == 2
    samples = log.samples or []
    answers = sorted(str(s.scores["putnam_gates"].answer) for s in samples)
    assert answers == ["accepted", "rejected"], "each epoch judged by the full gates on its own submission"
    accepted = next(s.scores["putnam_gates"] for s in samples if s.scores["putnam_gates"].answer == "accepted")
    assert accepted.metadata is not None and accepted.metadata["profile"] == "full"
    assert set(accepted.metadata["gates"]) >= {"G1", "G2", "G3", "G4", "G5", "G6"}
    assert accepted.metadata["reviewer"] is None
    assert log.results is not None
    by_reducer = {s.reducer: s.metrics["accuracy"].value for s in log.results.scores}
    assert by_reducer == {"mean": 0.5, "pass_at_2": 1.0}


def test_the_tasks_register_under_the_package_name() -> None:
    """The names `inspect eval` looks up: under ``putnam_solver/`` whether Inspect sees the package as
    installed (a wheel: it prefixes the package itself) or not (an editable install)."""
    from inspect_ai.util import registry_info

    from putnam_solver._registry import minif2f, proofnet, putnambench  # what the entry point loads

    names = [registry_info(task).name for task in (putnambench, minif2f, proofnet)]
    assert names == ["putnam_solver/putnambench", "putnam_solver/minif2f", "putnam_solver/proofnet"]

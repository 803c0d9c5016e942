"""What the acceptance needs of a problem alone is made while the model works (``toolkit.prepare``).

An attempt's first ``submit`` on the full profile used to compile the Rocq reference beside the
candidate (a problem's first verification costs about 2.3x a bare ``coqc`` where a later one costs
about 2x: ``bench/rocq_overhead.py``). Now an attempt starts that compile (``Verifier.prepare``) as it
starts the model (in the sample's background), once per problem, track and acceptance options in the
process, holding a gate slot while it runs; an attempt that ends first never waits for it.
"""

from __future__ import annotations

import csv
import shutil
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest

pytest.importorskip("inspect_ai")

from putnam_solver.core.benchmark import Benchmark, Problem, load_benchmark
from putnam_solver.core.provers import Prover, get_prover
from putnam_solver.core.provers.rocq.products import PINNED_DIR
from putnam_solver.core.verify import Profile, Track, VerifyOptions
from putnam_solver.exit_codes import ExitCode
from putnam_solver.run.agent import toolkit
from putnam_solver.run.agent.tools import ProblemContext
from putnam_solver.verifier.dispatch import LocalVerifier
from tests.fakes.openai_server import FakeOpenAI, serve, tool_call_reply
from tests.helpers import REPO
from tests.processes import putnam, solve_args

SAMPLES = REPO / "samples" / "rocq"
BENCHMARK = SAMPLES / "benchmark.jsonl"
PROBLEM = "sample_rev_length"
GOOD = (SAMPLES / "proofs" / f"{PROBLEM}.v").read_text()
needs_coqc = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not installed")


class RecordingVerifier(LocalVerifier):
    """The local verifier, whose preparations are recorded and wait for ``go`` before they run."""

    def __init__(self) -> None:
        self.prepared: list[str] = []
        self.go = threading.Event()
        self.done = threading.Event()

    def prepare(
        self, prover: Prover, benchmark: Benchmark, problem: Problem, track: Track, options: VerifyOptions
    ) -> dict[str, str | None]:
        self.prepared.append(problem.id)
        self.go.wait(60)
        try:
            return super().prepare(prover, benchmark, problem, track, options)
        finally:
            self.done.set()


class CountingLimit:
    """A gate-slot limiter that counts who holds a slot now and at most."""

    def __init__(self) -> None:
        self.held = 0
        self.entered = 0

    @asynccontextmanager
    async def __call__(self, slots: int) -> AsyncIterator[None]:
        self.held += 1
        self.entered += 1
        try:
            yield
        finally:
            self.held -= 1


@pytest.fixture(autouse=True)
def _fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """No preparation of an earlier test counts, and a private cache directory."""
    monkeypatch.setattr(toolkit, "_PREPARED", set())
    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path / "cache"))
    yield


def context(verifier: LocalVerifier, limit: CountingLimit, problem: str = PROBLEM) -> ProblemContext:
    bench = load_benchmark(BENCHMARK)
    return ProblemContext(
        prover=get_prover("rocq"),
        benchmark=bench,
        problem=bench.problems[problem],
        track=Track.WITH_ANSWER,
        check_options=VerifyOptions(profile=Profile.FAST),
        accept_options=VerifyOptions(profile=Profile.FULL),
        verifier=verifier,
        limit=limit,
    )


async def eventually(condition: Callable[[], bool], seconds: float = 30) -> None:
    """Wait until ``condition`` holds (a test failure after ``seconds``)."""
    with anyio.fail_after(seconds):
        while not condition():
            await anyio.sleep(0.05)


def reference_entries(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "cache" / PINNED_DIR).rglob("*-Reference.vo"))


@needs_coqc
def test_an_attempt_prepares_its_problem_once_holding_a_gate_slot(tmp_path: Path) -> None:
    verifier, limit = RecordingVerifier(), CountingLimit()
    ctx = context(verifier, limit)

    async def attempts() -> None:
        async with anyio.create_task_group() as group:  # the sample, whose background tasks these are
            group.start_soon(toolkit.prepare, ctx)
            await eventually(lambda: bool(verifier.prepared))
            assert (verifier.prepared, limit.held) == ([PROBLEM], 1), "started with the attempt, in a slot"
            verifier.go.set()
            await eventually(verifier.done.is_set, seconds=120)
            await eventually(lambda: limit.held == 0)  # the slot is given back when the preparation ends
            group.start_soon(toolkit.prepare, ctx)  # a second attempt (a later sample) of the same problem
            await anyio.sleep(0.3)

    anyio.run(attempts)
    assert verifier.prepared == [PROBLEM]
    assert limit.entered == 1
    assert len(reference_entries(tmp_path)) == 1


def test_an_attempt_that_ends_first_does_not_wait_for_its_preparation() -> None:
    verifier, limit = RecordingVerifier(), CountingLimit()
    ctx = context(verifier, limit)

    async def short_attempt() -> float:
        started = time.monotonic()
        async with anyio.create_task_group() as group:
            group.start_soon(toolkit.prepare, ctx)
            await eventually(lambda: bool(verifier.prepared))
            group.cancel_scope.cancel()  # the sample ends: Inspect cancels its background tasks
        return time.monotonic() - started

    try:
        took = anyio.run(short_attempt)
        assert took < 5, f"the attempt waited {took:.1f} s for a preparation"
        assert verifier.prepared == [PROBLEM] and not verifier.done.is_set()
        assert limit.held == 0, "its gate slot is free for the next verification"
    finally:
        verifier.go.set()  # let the abandoned preparation finish (it runs in a daemon thread)
        verifier.done.wait(120)


@needs_coqc
def test_solve_builds_the_reference_while_the_model_thinks(tmp_path: Path, solve_env: None) -> None:
    """The first model request is held until the problem's reference is in the cache: it can only have
    been built by the preparation, since no candidate was submitted yet."""
    fake = FakeOpenAI(["hold", tool_call_reply("submit", {"proof": GOOD}, "call_1")])
    appeared: list[bool] = []

    def release_when_prepared() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not reference_entries(tmp_path):
            time.sleep(0.1)
        appeared.append(bool(reference_entries(tmp_path)))
        fake.release.set()

    watcher = threading.Thread(target=release_when_prepared, daemon=True)
    watcher.start()
    with serve(fake) as url:
        code, stdout, stderr = putnam(*solve_args(BENCHMARK, tmp_path / "run", PROBLEM, url=url, max_turns=2))
    watcher.join(timeout=130)
    assert appeared == [True], "the reference was built before the model answered"
    assert code == ExitCode.SUCCESS, stdout + stderr
    with (tmp_path / "run" / "attempts.tsv").open() as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    assert [(r["problem"], r["status"]) for r in rows] == [(PROBLEM, "passed")]

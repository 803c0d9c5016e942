"""The statement file a CLI agent leaves behind is read as untrusted output: never through a link, never
from a FIFO or device, never past a size cap, never blocking the event loop.

``file_worker`` runs as it does after a CLI agent, in a real ``local`` sandbox, with a stand-in for the
agent that leaves the file behind; a valid file is still judged by the real Rocq gates.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.safe_files import UnsafeFile
from putnam_solver.core.verify import Profile, Track, VerifyOptions
from putnam_solver.problem_selection import select_problems
from putnam_solver.run.agent._inspect import LocalSandboxEnvironment
from putnam_solver.run.agent.cli_worker import file_worker, read_in_sandbox
from putnam_solver.run.agent.live import attempt_status
from putnam_solver.run.agent.tools import ProblemContext
from putnam_solver.run.agent.worker import AttemptState, Judge
from tests.fakes.local_sandbox import default_sandbox, local_sandbox
from tests.fakes.scripted_agent import FIXTURE, GOOD, NEEDS_ROCQ, STATEMENT

NAME = "OnePlusOne.v"


@pytest.fixture
def box() -> Iterator[LocalSandboxEnvironment]:
    with local_sandbox() as environment:
        yield environment


def _judge() -> Judge:
    bench = load_benchmark(FIXTURE)
    problem = select_problems(bench, ["one_plus_one"])[0]
    ctx = ProblemContext(
        prover=get_prover("rocq"),
        benchmark=bench,
        problem=problem,
        track=Track.WITH_ANSWER,
        check_options=VerifyOptions(profile=Profile.FAST),
        accept_options=VerifyOptions(profile=Profile.FULL),
    )
    assert ctx.file_name == NAME
    return Judge(ctx, STATEMENT + "Admitted.\n", None, None)


def _finish_within(seconds: float, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run ``work`` on its own event loop in a thread; fail if it has not ended after ``seconds``."""
    failure: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(work())
        except BaseException as exc:  # reported below
            failure.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s: a read blocked"
    if failure:
        raise failure[0]


def _run_file_worker(box: LocalSandboxEnvironment, leave: Callable[[Path], None]) -> AttemptState:
    state = AttemptState()
    workspace = Path(box.directory.name)

    async def agent(_: Any) -> None:
        (workspace / NAME).unlink(missing_ok=True)
        leave(workspace / NAME)

    async def work() -> None:
        with default_sandbox(box):
            await file_worker(_judge(), state, agent, "task")

    _finish_within(60, work)
    return state


def test_a_statement_file_linked_to_the_harness_environment_is_refused(box: LocalSandboxEnvironment) -> None:
    state = _run_file_worker(box, lambda path: path.symlink_to("/proc/self/environ"))
    assert state.submissions == [], "nothing read through the link was judged"
    assert state.refused is not None and "symbolic link" in state.refused and NAME in state.refused
    assert attempt_status(state) == "no_submission"


def test_a_fifo_left_as_the_statement_file_is_refused_without_blocking(box: LocalSandboxEnvironment) -> None:
    state = _run_file_worker(box, lambda path: os.mkfifo(path))
    assert state.submissions == []
    assert state.refused is not None and "FIFO" in state.refused
    assert attempt_status(state) == "no_submission"


def test_an_oversized_or_non_utf8_statement_file_is_refused(box: LocalSandboxEnvironment) -> None:
    state = _run_file_worker(box, lambda path: path.write_bytes(b"(*" + b" " * (5 << 20) + b"*)"))
    assert state.refused is not None and "cap" in state.refused
    state = _run_file_worker(box, lambda path: path.write_bytes(GOOD.encode() + b"(* \xff *)"))
    assert state.refused is not None and "UTF-8" in state.refused


@NEEDS_ROCQ
def test_a_regular_statement_file_is_still_judged(box: LocalSandboxEnvironment) -> None:
    state = _run_file_worker(box, lambda path: path.write_text(GOOD))
    assert state.refused is None
    assert [s.candidate for s in state.submissions] == [GOOD]
    assert attempt_status(state) == "passed"


def test_reading_inside_a_non_local_sandbox_is_checked_and_bounded(box: LocalSandboxEnvironment) -> None:
    """The path for sandboxes whose files the harness cannot open itself, run here in a local one."""
    workspace = Path(box.directory.name)
    (workspace / "link.v").symlink_to("/proc/self/environ")
    os.mkfifo(workspace / "fifo.v")
    (workspace / "big.v").write_bytes(b"x" * 11)
    (workspace / "ok.v").write_text(GOOD)

    async def work() -> None:
        for name in ("link.v", "fifo.v", "missing.v", "big.v"):
            with pytest.raises(UnsafeFile):
                await read_in_sandbox(box, name, 10)
        assert await read_in_sandbox(box, "ok.v", 1000) == GOOD.encode()

    _finish_within(60, work)

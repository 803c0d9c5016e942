"""Where the service's verifications run: one protocol, so that other backends plug in beside the local one.

Every verification the service makes goes through :class:`Verifier`. :class:`LocalVerifier` runs the
gates (``verify.run_gates``, the same pipeline as ``putnam verify``) in a bounded thread pool, off the
event loop: the heavy work happens in the sandboxed child processes the gates start, so threads suffice.
A cluster backend implements the same two methods and gets the same jobs, which carry only pinned
inputs (prover, benchmark and problem, candidate bytes, track, options).
"""

from __future__ import annotations

import asyncio
import contextvars
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol

from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.provers import Prover
from putnam_solver.core.verify import Track, Verdict, VerifyOptions, run_gates


@dataclass(frozen=True)
class VerifyJob:
    """One verification: the pinned record, the candidate's bytes and how to judge them."""

    prover: Prover
    benchmark: Benchmark
    problem: Problem
    candidate: bytes
    track: Track
    options: VerifyOptions
    label: str
    """Names the candidate in the verdict (``candidate_path``) and in errors: the request and item."""


class Verifier(Protocol):
    """Turns jobs into verdicts without blocking the event loop."""

    async def verify(self, job: VerifyJob) -> Verdict: ...

    def close(self) -> None:
        """Stop taking jobs; called once when the server stops."""


class LocalVerifier:
    """The gates run here, ``workers`` verifications at a time; the others wait their turn in the pool.

    The caller's context (the request id of its log lines) goes with each job into the worker thread.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="putnam-verify")

    async def verify(self, job: VerifyJob) -> Verdict:
        context = contextvars.copy_context()
        return await asyncio.get_running_loop().run_in_executor(self._pool, context.run, run_job, job)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def run_job(job: VerifyJob) -> Verdict:
    """The job through the gate pipeline, as ``putnam verify`` runs a candidate file."""
    return run_gates(job.prover, job.benchmark, job.problem, job.candidate, job.track, job.options, job.label)

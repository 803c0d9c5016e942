"""Where the service's verifications run: one protocol, so that other backends plug in beside the local one.

Every verification the service makes goes through :class:`Verifier`. :class:`PoolVerifier` hands each
job, from a bounded thread pool off the event loop, to a ``verifier.dispatch.Verifier``: ``dispatch.LOCAL``
runs the gates (the same pipeline as ``putnam verify``) in that thread, where the heavy work happens in
the sandboxed child processes the gates start; ``serve --ray`` passes a cluster's verifier instead, which
sends the job's pinned inputs (prover, benchmark pin and problem, candidate bytes, track, options) to a
node and checks the verdict it returns.
"""

from __future__ import annotations

import asyncio
import contextvars
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol

from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.provers import Prover
from putnam_solver.core.verify import Track, Verdict, VerifyOptions
from putnam_solver.verifier import dispatch


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


class PoolVerifier:
    """``workers`` verifications at a time go to ``backend``; the others wait their turn in the pool.

    The caller's context (the request id of its log lines) goes with each job into the worker thread.
    """

    def __init__(self, workers: int, backend: dispatch.Verifier = dispatch.LOCAL) -> None:
        self.workers = workers
        self.backend = backend
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="putnam-verify")

    async def verify(self, job: VerifyJob) -> Verdict:
        context = contextvars.copy_context()
        return await asyncio.get_running_loop().run_in_executor(self._pool, context.run, run_job, job, self.backend)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def run_job(job: VerifyJob, backend: dispatch.Verifier = dispatch.LOCAL) -> Verdict:
    """The job through the gate pipeline on ``backend``, as ``putnam verify`` runs a candidate file."""
    return backend.verify(job.prover, job.benchmark, job.problem, job.candidate, job.track, job.options, job.label)

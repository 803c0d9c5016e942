"""The text gates (G1-G3) of one verification, run where their time bound really stops them.

They read untrusted text, so however linear their lexers are, the bound must not rest on that alone: they
run in a worker process (``gate_worker``) that is killed when the bound passes, together with the answer
record (which reads the candidate too). ``verify.run_gates`` calls :func:`run_text_gates`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from putnam_solver.core import gate_worker
from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.provers import Prover
from putnam_solver.core.submission import Gate, ScratchDir, Submission, VerifyOptions, run_gate
from putnam_solver.core.verdict import GateResult, GateStatus, Track


@dataclass(frozen=True)
class TextJob:
    """What a worker process needs to run the text gates and record the answers (all picklable: the
    benchmark is cut down to the one problem, and the worker makes its own scratch directory)."""

    prover: Prover
    gates: tuple[Gate, ...]
    problem: Problem
    benchmark: Benchmark
    track: Track
    candidate_bytes: bytes
    candidate: str
    challenge: str
    options: VerifyOptions
    prior: tuple[GateResult, ...]


def text_job(job: TextJob) -> tuple[list[GateResult], dict[str, Any]]:
    """In the worker: each text gate in order (each sees the results before it), then the answer record."""
    scratch = ScratchDir(prefix=f"putnam-{job.problem.id}-")
    done: list[GateResult] = []
    try:
        for gate in job.gates:
            sub = Submission(
                problem=job.problem,
                benchmark=job.benchmark,
                track=job.track,
                candidate_bytes=job.candidate_bytes,
                candidate=job.candidate,
                challenge=job.challenge,
                scratch_dir=scratch,
                options=job.options,
                prior=(*job.prior, *done),
            )
            done.append(run_gate(gate, sub))
        return done, job.prover.answers(job.problem, job.candidate, job.track)
    finally:
        scratch.cleanup()  # the candidate's cached tokens are freed by the worker once it has replied


def run_text_gates(job: TextJob) -> tuple[list[GateResult], dict[str, Any]]:
    """The text gates and the answer record, in a worker process under one wall-clock bound for them all.

    Past the bound the worker is killed (``gate_worker``), so nothing keeps reading the candidate after
    the verdict, and every text gate is an ``error``: a bound says nothing about the candidate, and an
    ``error`` is never cached. A worker that cannot run them makes them ``error`` too (fail closed).
    """
    seconds = job.options.text_gate_seconds
    try:
        done, answers = gate_worker.call(text_job, (job,), seconds)
    except gate_worker.WorkerTimeout:
        why = f"did not finish within {seconds:g} s (the text gates' time bound); its worker was stopped"
    except gate_worker.WorkerFailed as exc:
        why = f"the text gates could not run: {exc}"
    else:
        return done, answers
    return [GateResult(g.id, g.name, GateStatus.ERROR, why) for g in job.gates], {}

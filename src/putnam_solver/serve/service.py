"""What ``putnam serve`` does per request, without HTTP: resolve the problem, consult the verdict cache,
verify through the :class:`~putnam_solver.serve.verifier.Verifier`, and say whether the gates are ready.

The verdicts are ``putnam verify``'s: the same pipeline on the same pinned benchmark, the same cache key
(``candidates.verdict_key``), the same JSON per verdict (``Verdict.to_json``). A request names a problem
of a served benchmark by id, or sends a whole benchmark record: one equal to a served record is that
pinned problem (on with-answer only: on no-answer that equality would confirm a guessed official answer,
so a record under a served id is refused there); one under an id no served benchmark has is verified as
a one-record benchmark and its verdict says ``benchmark_pinned: false`` (and G3 holds its statement to
the plugin and kernel rules a candidate obeys, since no pin vouches for it); one that changes a served
record is refused.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from putnam_solver.api_keys import ApiKey, KeyRing
from putnam_solver.core.benchmark import Benchmark, BenchmarkError, Problem, RecordShape, problem_from_record
from putnam_solver.core.cache import VerdictCache
from putnam_solver.core.gatekit import watched_tool_files
from putnam_solver.core.provers import Prover, canonical_prover_name, get_prover
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import (
    Profile,
    Track,
    Verdict,
    VerifyOptions,
    decode_candidate,
)
from putnam_solver.errata import shown_benchmark
from putnam_solver.listen import ConnectionLimits
from putnam_solver.problem_selection import did_you_mean
from putnam_solver.selftest.readiness import NotReady, Readiness
from putnam_solver.serve.logs import logger
from putnam_solver.serve.verifier import Verifier, VerifyJob
from putnam_solver.verifier import dispatch
from putnam_solver.verifier.candidates import Candidate, request_verdict, verdict_key


class RequestError(Exception):
    """A request the service refuses: an HTTP status and a message that says what to change."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Limits:
    """How much one client may ask for at once."""

    per_key: int = 4
    """Requests in flight per key (a key's own ``LIMIT`` in the keys file overrides it)."""
    batch_items: int = 64
    """Items in one batch request."""
    body_bytes: int = 8 << 20
    """Bytes in one request body, refused (413) before more is read."""
    retry_after_seconds: int = 1
    """What a refused (429, 503) client is told to wait."""
    connections: ConnectionLimits = field(default_factory=ConnectionLimits)
    """How long and how many connections are held, keyed or not (``listen.ConnectionLimits``)."""


@dataclass
class ServeConfig:
    """Everything a server needs: keys, benchmarks by prover, gate options, pool size, limits, cache."""

    keys: KeyRing
    benchmarks: Mapping[str, Benchmark]
    options: VerifyOptions = field(default_factory=VerifyOptions)
    jobs: int = 1
    limits: Limits = field(default_factory=Limits)
    cache: VerdictCache | None = None
    run_selftest: bool = True
    """Run the selftest at start when this toolchain has no passing record (else: not ready until one)."""
    track: Track = Track.WITH_ANSWER
    """The track of a request that names none; a server started on no-answer (``--track no-answer``) refuses
    every with-answer request, since a with-answer verdict is judged against the official answer and its
    G2 detail quotes the challenge line holding it (red team round 5: a client of a no-answer evaluation
    read the answer that way, as ``putnam mcp --track no-answer`` already refuses)."""

    def options_for(self, prover: str) -> VerifyOptions:
        """The gate options for one prover's benchmark: judged with the release it states, unless the
        server was started with ``--toolchain``."""
        return dataclasses.replace(self.options, toolchain=self.benchmarks[prover].release(self.options.toolchain))


@dataclass(frozen=True)
class Item:
    """One verification asked for: the problem (by id or record), the candidate text and how to judge it."""

    candidate: str
    problem: str | None = None
    record: Mapping[str, Any] | None = None
    prover: str | None = None
    profile: Profile = Profile.FULL
    track: Track | None = None
    """None: the server's track (``ServeConfig.track``)."""
    timeout_seconds: float | None = None
    """The client's own time cap per tool run; the server's cap still bounds it."""


class Batch:
    """The items of one batch request, which stop together per prover: once one item meets an outcome that
    says the server cannot judge on its prover now (a 503: not ready, or the toolchain changed while an item
    was judged), no item of that prover that has not yet started is started; each is answered ``not judged``
    with the ``reason``, and the verdicts already made are kept. Judging the rest would spend the client's
    slots on a toolchain that no selftest vouches for, or whose every acceptance ends an ``error``; the items
    of another prover, on a toolchain of their own, go on."""

    def __init__(self) -> None:
        self.reasons: dict[str, str] = {}

    def stop(self, prover: str, reason: str) -> None:
        """Start no more items of ``prover``; the first reason given is the one each of them not judged carries."""
        self.reasons.setdefault(prover, reason)

    def reason(self, prover: str) -> str | None:
        """Why the items of ``prover`` not yet started are not judged, or None."""
        return self.reasons.get(prover)


class VerifyService:
    """Resolves items to jobs and verdicts; one per server."""

    def __init__(self, config: ServeConfig, verifier: Verifier) -> None:
        self.config = config
        self.verifier = verifier
        options = {p: config.options_for(p) for p in config.benchmarks}
        self.readiness = Readiness(options, config.run_selftest, logger=logger)
        self._lanes: dict[str, asyncio.Semaphore] = {}
        self.nodes = dispatch.node_code(getattr(verifier, "backend", dispatch.LOCAL))
        """Empty unless this server verifies on a cluster (``serve --ray``): only then may a cached verdict a
        node made answer a request, through the same cluster code (``VerdictCache.get``)."""

    def prepare(self, item: Item, label: str) -> VerifyJob:
        """The job for ``item``, or a RequestError saying what is wrong with it (nothing has run yet)."""
        prover = self._prover(item.prover)
        track = self._track(item.track)
        benchmark, problem = self._problem(prover, item, track)
        data = item.candidate.encode("utf-8")
        cap = self.config.options.max_candidate_bytes
        if len(data) > cap:
            raise RequestError(413, f"{label}: the candidate is {len(data)} bytes, over the cap of {cap} bytes")
        try:
            decode_candidate(label, data)
        except InputError as exc:
            raise RequestError(422, str(exc)) from exc
        options = dataclasses.replace(self.config.options_for(prover.name), profile=item.profile)
        if item.timeout_seconds is not None:
            options = dataclasses.replace(options, timeout_seconds=min(options.timeout_seconds, item.timeout_seconds))
        return VerifyJob(prover, benchmark, problem, data, track, options, label)

    def _track(self, asked: Track | None) -> Track:
        served = self.config.track
        if asked is None:
            return served
        if served is Track.NO_ANSWER and asked is not Track.NO_ANSWER:
            raise RequestError(
                422,
                f"track {asked.value}: this server serves the no-answer track only (started with --track "
                'no-answer); send "track": "no-answer" or leave it out',
            )
        return asked

    async def verify(
        self, job: VerifyJob, client: ApiKey, use_cache: bool = True, batch: Batch | None = None
    ) -> Verdict:
        """The verdict of ``job``: from the cache when it holds one for these exact inputs (unless not
        ``use_cache``: then judged again, and the new verdict stored), else the gates'. A RequestError 503
        when no passing selftest vouches for the toolchain, or when ``batch`` (the request's other items)
        stopped before this job started (see :class:`Batch`).

        A client's verifications enter the verifier at most its limit at a time (the rest of a batch
        waits in the client's own lane), so one large batch cannot fill the pool ahead of everyone else.
        """
        # the toolchain this job is judged on: the one readiness found a selftest for (checked now, not up to
        # `recheck_seconds` later), the one in the cache key, and the one the verdict must still find at the end
        try:
            toolchain = await asyncio.to_thread(self.readiness.admit, job.prover, job.options)
        except NotReady as exc:
            raise RequestError(503, exc.reason) from exc
        cache, key, hit = self.config.cache, "", None
        if cache is not None:  # the cache's file reads run beside the pool, so that a hit never waits for a compile
            key, request = await asyncio.to_thread(self._key, job, toolchain)
            hit = await asyncio.to_thread(cache.get, key, request, self.nodes) if use_cache else None
        if hit is None:
            verdict, keep = await self._run(job, client, toolchain, batch)
            if not keep and batch is not None:
                batch.stop(job.prover.name, f"the {job.prover.name} toolchain changed while {job.label} was judged")
            elif keep and cache is not None:
                await asyncio.to_thread(cache.put, key, verdict, self.nodes)
        else:
            verdict = hit
        verdict.candidate_path = job.label
        # the benchmark's record (errata, toolchain) as it is now, as `putnam verify` shows a cached verdict
        verdict.benchmark = shown_benchmark(job.prover, job.benchmark, job.problem, job.options)
        return verdict

    async def _run(self, job: VerifyJob, client: ApiKey, toolchain: str, batch: Batch | None) -> tuple[Verdict, bool]:
        """The gates' verdict held to ``toolchain`` (``Readiness.settle``) and whether it may be stored; the
        fingerprint is read again before the lane is given back, so that the verification this one lets in
        never runs between the two."""
        lane = self._lanes.get(client.name)
        if lane is None:
            lane = self._lanes[client.name] = asyncio.Semaphore(client.limit or self.config.limits.per_key)
        async with lane:
            stopped = batch.reason(job.prover.name) if batch is not None else None
            if stopped is not None:  # its turn came after the batch stopped on its prover
                raise RequestError(503, stopped)
            with watched_tool_files() as watch:  # a tool replaced and put back meanwhile (``one_toolchain``)
                made = await self.verifier.verify(job)
                return await asyncio.to_thread(self.readiness.settle, job.prover, job.options, toolchain, made, watch)

    def _key(self, job: VerifyJob, toolchain: str) -> tuple[str, Verdict]:
        """The cache key of ``job`` on ``toolchain`` and the verdict identity a stored entry must have to answer it."""
        candidate = Candidate(Path(job.label), job.problem, job.candidate)
        key = verdict_key(job.prover, job.benchmark, candidate, job.track, job.options, toolchain)
        return key, request_verdict(job.prover, job.benchmark, candidate, job.track, job.options)

    def _prover(self, name: str | None) -> Prover:
        served = list(self.config.benchmarks)
        if name is None:
            if len(served) > 1:
                raise RequestError(422, f"name the prover: this server serves {', '.join(served)}")
            return get_prover(served[0])
        try:
            canonical = canonical_prover_name(name)
        except InputError as exc:
            raise RequestError(422, str(exc)) from exc
        if canonical not in served:
            raise RequestError(422, f"prover {name!r} is not served here; this server serves {', '.join(served)}")
        return get_prover(canonical)

    def _problem(self, prover: Prover, item: Item, track: Track) -> tuple[Benchmark, Problem]:
        benchmark = self.config.benchmarks[prover.name]
        if (item.problem is None) == (item.record is None):
            raise RequestError(422, "give either problem (an id) or record (a benchmark record), not both or neither")
        if item.problem is not None:
            found = benchmark.problems.get(item.problem)
            if found is None:
                raise RequestError(
                    404,
                    f"no problem {item.problem!r} in the served {prover.name} benchmark "
                    f"({benchmark.path.name}){did_you_mean(benchmark, item.problem)}",
                )
            _in_split(benchmark, found)
            return benchmark, found
        judged = record_problem(benchmark, dict(item.record or {}), track)
        _in_split(*judged)
        _check_shape(prover, judged[1], track)
        return judged


def _check_shape(prover: Prover, problem: Problem, track: Track) -> None:
    """A RequestError 422 when the prover cannot make the challenge of a request's record (a Rocq statement
    without ``Theorem ... Proof. Admitted.``, a Lean one without its ``sorry``): before, the gates raised it
    and the client got "500 internal error" (in a batch, "internal error judging ok: InputError") and the
    server's log a traceback, for its own input (trust paths red team 11)."""
    try:
        prover.challenge(problem, track)
    except (InputError, ValueError) as exc:
        raise RequestError(422, f"the record's formal_statement cannot be judged: {exc}") from exc


def _in_split(benchmark: Benchmark, problem: Problem) -> None:
    """A server started on one split (``--benchmark NAME:test``) judges only its problems, as ``putnam mcp``,
    ``solve`` and ``verify DIR`` do; before, it judged any problem of the file by id (red team round 5)."""
    if not benchmark.in_split(problem):
        raise RequestError(
            404,
            f"{problem.id} is in the {problem.split} split of {benchmark.path.name}; this server serves its "
            f"{benchmark.split} split only",
        )


def record_problem(
    benchmark: Benchmark, record: dict[str, Any], track: Track = Track.WITH_ANSWER
) -> tuple[Benchmark, Problem]:
    """The benchmark and problem a request's record stands for (see the module's docstring). On no-answer
    a record under a served id is refused whatever it holds: the served record holds the official answer,
    and telling an equal record from another would confirm a guessed one."""
    try:
        problem = problem_from_record("the record", record, _record_shape(benchmark))
    except BenchmarkError as exc:
        raise RequestError(422, str(exc)) from exc
    served = benchmark.problems.get(problem.id)
    if served is not None and track is Track.NO_ANSWER:
        raise RequestError(
            422,
            f"{problem.id} is a problem of the served {benchmark.path.name}: on the no-answer track send its "
            "problem id alone (its pinned record is used), or the record under an id of its own",
        )
    if served is not None:
        if served.formal_statement != problem.formal_statement:
            raise RequestError(
                422,
                f"the record's statement of {problem.id} differs from the pinned one of {benchmark.path.name} "
                f"(sha256 {problem.statement_sha256[:12]} vs {served.statement_sha256[:12]}); send the problem "
                "id alone, or the record under an id of its own",
            )
        return benchmark, served
    line = json.dumps(record, sort_keys=True, ensure_ascii=False).encode("utf-8", "surrogatepass")
    single = Benchmark(
        path=Path("request-record.jsonl"),
        sha256=hashlib.sha256(line).hexdigest(),
        pin_name=None,
        problems={problem.id: problem},
    )
    return single, problem


def _record_shape(benchmark: Benchmark) -> RecordShape:
    """A request's record is read as the served benchmark writes its statements (its holes), any id."""
    return RecordShape(benchmark.file.format) if benchmark.file is not None else RecordShape()

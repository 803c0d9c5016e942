"""The HTTP API of ``putnam serve``, on FastAPI: request and response models, endpoints, error answers.

FastAPI because its pydantic models validate every request (a bad profile, a missing field, a wrong
type are 422s that name the field) and give the OpenAPI schema (``/openapi.json``, ``/docs``) from the
same declarations; Starlette underneath is a plain ASGI toolkit, so the gatekeeper in front of it
(``gatekeeper.py``) is a small ASGI wrapper, and uvicorn serves both.

Every error is JSON ``{"status", "detail", "request_id"}`` with a 4xx status that says what to change;
an unexpected failure is a 500 with the request id only, its traceback in the server's log.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request, Security
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.exceptions import HTTPException

from putnam_solver import __version__
from putnam_solver.api_keys import ApiKey
from putnam_solver.core.verify import Profile, Track, Verdict
from putnam_solver.redact import PathRedactor
from putnam_solver.serve.docs_page import POLICY, docs_page
from putnam_solver.serve.gatekeeper import CLIENT_KEY, Gatekeeper, error_body
from putnam_solver.serve.kimina import KIMINA_PATH, KiminaCode, KiminaRequest, result
from putnam_solver.serve.logs import REQUEST_ID, logger
from putnam_solver.serve.service import Batch, Item, RequestError, ServeConfig, VerifyService
from putnam_solver.serve.verifier import Verifier, VerifyJob
from putnam_solver.serve.views import shown

VERIFY_PATH = "/verify"
BATCH_PATH = "/verify/batch"


def _utf8(text: str) -> str:
    """Text that encodes as UTF-8: a JSON ``\\ud800`` escape makes a lone surrogate, which does not."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"not UTF-8 text: a lone surrogate at character {exc.start}") from exc
    return text


class BenchmarkRecord(BaseModel):
    """A benchmark record as in PutnamBench's JSONL files (other fields are kept, not used)."""

    model_config = ConfigDict(extra="allow")
    problem_id: str = Field(max_length=200)
    formal_statement: str
    formal_statement_sha256: str | None = None
    informal_statement: str | None = None
    informal_solution: str | None = None
    tags: list[str] | None = None

    _checked = field_validator("problem_id", "formal_statement")(_utf8)


class VerifyRequest(BaseModel):
    """One candidate for one problem, named by ``problem`` (an id) or given as ``record``."""

    model_config = ConfigDict(extra="forbid")
    problem: str | None = Field(None, max_length=200, description="A problem id of the served benchmark.")
    record: BenchmarkRecord | None = Field(None, description="A whole benchmark record, instead of an id.")
    candidate: str = Field(description="The whole proof file, as text.")
    prover: str | None = Field(None, description="lean or rocq; needed when the server serves both.")
    profile: Profile = Field(Profile.FULL, description="text (G1-G3), fast (G1-G4) or full (G1-G6).")
    track: Track | None = Field(None, description="with-answer or no-answer; default: the server's track (--track).")

    _checked = field_validator("problem", "candidate")(lambda text: text if text is None else _utf8(text))

    def item(self) -> Item:
        record = self.record.model_dump(exclude_none=True) if self.record else None
        return Item(self.candidate, self.problem, record, self.prover, self.profile, self.track)


class BatchRequest(BaseModel):
    """Several verifications in one request; they run concurrently and answer together (an item the server
    could not judge, after a 503 of another item, says so: ``NotJudgedJson``)."""

    model_config = ConfigDict(extra="forbid")
    items: list[VerifyRequest] = Field(min_length=1)


class GateJson(BaseModel):
    id: str
    name: str
    status: str
    detail: str
    evidence: dict[str, Any]


class VerdictJson(BaseModel):
    """A verdict exactly as ``putnam verify --json`` writes each of its ``results``: on the no-answer
    track without the official answers, the answer check and gate evidence (``no_answer_view``)."""

    problem: str
    prover: str
    status: str = Field(description="accepted, rejected or error")
    gates: list[GateJson]
    candidate_path: str | None = Field(description="The request (and batch item) this verdict answers.")
    candidate_sha256: str
    statement_sha256: str
    challenge_sha256: str
    benchmark_sha256: str
    benchmark_pinned: bool
    track: str
    profile: str
    answers: dict[str, Any]
    unsafe_no_sandbox: bool
    allow_recursion: bool
    cached: bool


class CompactJson(BaseModel):
    """A verdict in a few hundred bytes, the default answer: ``failing_gate`` the first gate that did not
    pass (``null`` when accepted) and ``errors`` the first lines of its detail."""

    problem: str
    prover: str | None
    status: str = Field(description="accepted, rejected, error or disputed")
    failing_gate: str | None
    errors: list[str]
    profile: str | None
    track: str | None
    candidate_sha256: str
    statement_sha256: str
    benchmark_pinned: bool
    cached: bool


class NotJudgedJson(BaseModel):
    """A batch item the server did not judge: once one item meets a 503 (its prover not ready, or its toolchain
    changed while it was judged), no other item of that prover starts; the verdicts made are kept and the rest
    say why."""

    problem: str
    prover: str
    status: str = Field(description="not_judged")
    detail: str


class ItemErrorJson(BaseModel):
    """A batch item whose verification failed unexpectedly: the other items keep their verdicts, and the
    server's log has the failure under the request id the detail names."""

    problem: str
    prover: str
    status: str = Field(description="error")
    detail: str


class BatchJson(BaseModel):
    all_okay: bool = Field(description="Every item judged and accepted.")
    not_judged: int = Field(description="Items not judged (status not_judged): send them again.")
    results: list[CompactJson | NotJudgedJson | ItemErrorJson] | list[VerdictJson | NotJudgedJson | ItemErrorJson]


Full = Annotated[
    bool,
    Query(description="Answer every verdict whole (each gate's detail and evidence, about 17 KB) instead of compact."),
]


ReadyProver = Annotated[
    str | None,
    Query(
        description="Answer for this prover alone: 200 once it is ready, though another served prover is not "
        "(a load balancer's pool per prover)."
    ),
]


class ErrorJson(BaseModel):
    status: int
    detail: str
    request_id: str


class ReadyJson(BaseModel):
    """``ready``: every served prover (with ``?prover=``, that one) passed its selftest (until one has,
    ``/verify`` answers 503 to its requests, naming it; another prover's are judged). Per prover: ``ready``
    and ``detail`` (its selftest), and ``profiles``: for ``text``, ``fast`` and ``full`` whether every gate
    of that profile can run here, and if not which and why (a request on such a profile gets an ``error``
    verdict)."""

    ready: bool
    provers: dict[str, dict[str, Any]]


ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorJson} for code in (400, 401, 404, 413, 415, 422, 429, 503)
}
bearer = HTTPBearer(auto_error=False, description="An API key from the server's keys file.")


def client_key(request: Request, _: Annotated[HTTPAuthorizationCredentials | None, Security(bearer)]) -> ApiKey:
    """The key the gatekeeper matched before the body was read (``bearer`` declares it in the schema)."""
    key: ApiKey = request.scope["state"][CLIENT_KEY]
    return key


Client = Annotated[ApiKey, Depends(client_key)]


def create_app(config: ServeConfig, verifier: Verifier) -> Gatekeeper:
    """The ASGI application: the API behind its gatekeeper."""
    service = VerifyService(config, verifier)
    redact = PathRedactor.for_server(
        [b.path for b in config.benchmarks.values()], config.cache.directory if config.cache else None
    )

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        service.readiness.start()
        yield
        verifier.close()

    api = FastAPI(
        title="putnam serve",
        version=__version__,
        description="Verdicts of the putnambench-solver gates over HTTP. Keys: `Authorization: Bearer KEY`.",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )

    @api.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(docs_page(api.openapi()), headers={"Content-Security-Policy": POLICY})

    _errors(api, redact, config.limits.retry_after_seconds)

    @api.get("/health", summary="Liveness: the server answers.")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @api.get(
        "/ready",
        summary="Readiness: every served prover (or the one asked for) passed its selftest; which profiles run.",
        response_model=ReadyJson,
        responses={404: {"model": ErrorJson}, 503: {"model": ReadyJson}},
    )
    async def ready(prover: ReadyProver = None) -> JSONResponse:
        readiness = service.readiness
        if prover is not None and prover not in readiness.provers:
            served = ", ".join(readiness.provers)
            raise RequestError(
                404, f"prover {prover!r} is not served here (served: {served}); name one or drop ?prover"
            )
        states = await asyncio.to_thread(readiness.state, None if prover is None else [prover])
        profiles = {p: await asyncio.to_thread(readiness.profiles, p) for p in states}
        body = {
            "ready": all(ok for ok, _ in states.values()),
            "provers": {p: {"ready": ok, "detail": why, "profiles": profiles[p]} for p, (ok, why) in states.items()},
        }
        body = redact.value(body)
        headers = {} if body["ready"] else {"Retry-After": str(config.limits.retry_after_seconds)}
        return JSONResponse(body, status_code=200 if body["ready"] else 503, headers=headers)

    @api.post(
        VERIFY_PATH,
        summary="Verify one candidate: the compact verdict, or with `?full=1` the whole one.",
        response_model=CompactJson | VerdictJson,
        responses=ERRORS,
    )
    async def verify(request: VerifyRequest, client: Client, full: Full = False) -> JSONResponse:
        job = service.prepare(request.item(), f"request {REQUEST_ID.get()}")
        verdict = await service.verify(job, client)
        return JSONResponse(shown(verdict.to_json(), redact, full))

    @api.post(
        BATCH_PATH,
        summary="Verify several candidates: compact verdicts, or with `?full=1` whole ones.",
        response_model=BatchJson,
        responses=ERRORS,
    )
    async def verify_batch(request: BatchRequest, client: Client, full: Full = False) -> JSONResponse:
        cap = config.limits.batch_items
        if len(request.items) > cap:
            raise RequestError(413, f"{len(request.items)} items, over the batch cap of {cap}; split the batch")
        rid = REQUEST_ID.get()
        jobs = []
        for n, item in enumerate(request.items):
            try:
                jobs.append(service.prepare(item.item(), f"request {rid} item {n}"))
            except RequestError as exc:
                raise RequestError(exc.status, f"item {n}: {exc.message}") from exc
        batch = Batch()
        outcomes = await asyncio.gather(*(judged(service, job, client, batch) for job in jobs))
        if not_one_judged(outcomes):
            raise RequestError(503, str(outcomes[0]))
        results = [
            not_judged(job, outcome, redact)
            if isinstance(outcome, str)
            else item_error(job, outcome)
            if isinstance(outcome, Failed)
            else shown(outcome.to_json(), redact, full)
            for job, outcome in zip(jobs, outcomes, strict=True)
        ]
        verdicts = [o for o in outcomes if isinstance(o, Verdict)]
        okay = len(verdicts) == len(outcomes) and all(v.accepted for v in verdicts)
        unjudged = sum(isinstance(o, str) for o in outcomes)
        return JSONResponse({"all_okay": okay, "not_judged": unjudged, "results": results})

    @api.post(
        KIMINA_PATH,
        summary="Kimina Lean Server's shape: `codes` with `custom_id` (the problem id), results by `custom_id`.",
        responses=ERRORS,
    )
    async def verify_kimina(request: KiminaRequest, client: Client) -> JSONResponse:
        cap = config.limits.batch_items
        if len(request.codes) > cap:
            raise RequestError(413, f"{len(request.codes)} codes, over the batch cap of {cap}; split the request")
        if request.prover is None and "lean" in config.benchmarks:
            request = request.model_copy(update={"prover": "lean"})
        rid = REQUEST_ID.get()

        batch = Batch()

        async def one(n: int, code: KiminaCode) -> dict[str, Any] | str:
            try:
                job = service.prepare(code.item(request), f"request {rid} code {n}")
            except RequestError as exc:
                return result(code.custom_id, None, redact.text(exc.message))
            outcome = await judged(service, job, client, batch, use_cache=not request.disable_cache)
            if isinstance(outcome, str):
                return outcome
            if isinstance(outcome, Failed):
                return result(code.custom_id, None, outcome.detail)
            return result(code.custom_id, shown(outcome.to_json(), redact, False), None)

        answers = await asyncio.gather(*(one(n, code) for n, code in enumerate(request.codes)))
        if not_one_judged(answers):
            raise RequestError(503, str(answers[0]))
        results = [
            result(code.custom_id, None, redact.text(f"not judged: {a}")) if isinstance(a, str) else a
            for code, a in zip(request.codes, answers, strict=True)
        ]
        return JSONResponse({"results": results})

    def not_ready() -> str | None:  # a prover not ready refuses its own requests only (`VerifyService.verify`)
        return service.readiness.none_ready()

    return Gatekeeper(
        api,
        config.keys,
        frozenset({VERIFY_PATH, BATCH_PATH, KIMINA_PATH}),
        config.limits.per_key,
        config.limits.body_bytes,
        config.limits.retry_after_seconds,
        not_ready,
    )


@dataclass(frozen=True)
class Failed:
    """A batch item whose verification raised unexpectedly: ``detail`` names the item and the request id the
    server's log has the traceback under (never the traceback itself)."""

    detail: str


async def judged(
    service: VerifyService, job: VerifyJob, client: ApiKey, batch: Batch, use_cache: bool = True
) -> Verdict | str | Failed:
    """One item of a batch: its verdict, or why it was not judged (a 503 outcome, which stops the batch:
    ``service.Batch``), or Failed when it raised unexpectedly (that item only: the others keep running and
    keep their verdicts, where before the whole request was a 500); any other refusal is the request's."""
    try:
        return await service.verify(job, client, use_cache, batch)
    except RequestError as exc:
        if exc.status != 503:
            raise
        batch.stop(job.prover.name, exc.message)
        return exc.message
    except Exception as exc:  # answered as this item's error, logged with its traceback
        logger.error("unexpected error judging %s (%s)", job.label, job.problem.id, exc_info=exc)
        return Failed(
            f"internal error judging {job.problem.id}: {type(exc).__name__}; the server's log has it under {job.label}"
        )


def not_one_judged(outcomes: list[Any]) -> bool:
    """No item was judged (each is a reason): the batch is answered 503, as one request would be."""
    return all(isinstance(o, str) for o in outcomes)


def item_error(job: VerifyJob, failed: Failed) -> dict[str, Any]:
    """A batch item whose verification raised (``ItemErrorJson``): its problem and ``Failed.detail``."""
    return {"problem": job.problem.id, "prover": job.prover.name, "status": "error", "detail": failed.detail}


def not_judged(job: VerifyJob, reason: str, redact: PathRedactor) -> dict[str, Any]:
    """A batch item left unjudged when the batch stopped: its problem, and why (``NotJudgedJson``)."""
    return {
        "problem": job.problem.id,
        "prover": job.prover.name,
        "status": "not_judged",
        "detail": redact.text(f"not judged: {reason}; send it again"),
    }


def _errors(api: FastAPI, redact: PathRedactor, retry_after: int) -> None:
    """Every refusal as ``ErrorJson``, with a message that says what to change (and no path of this machine);
    a 503 (the gates not ready) says when to ask again, as the gatekeeper's does."""

    def answer(status: int, detail: str, headers: dict[str, str] | None = None) -> JSONResponse:
        return JSONResponse(error_body(status, redact.text(detail)), status_code=status, headers=headers)

    @api.exception_handler(RequestError)
    async def refused(_: Request, exc: RequestError) -> JSONResponse:
        return answer(exc.status, exc.message, {"Retry-After": str(retry_after)} if exc.status == 503 else None)

    @api.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        cause = exc.__cause__
        if isinstance(cause, UnicodeDecodeError):
            return answer(400, f"the body is not UTF-8 text (byte {cause.start}: {cause.reason}); send UTF-8 JSON")
        if isinstance(cause, RecursionError):  # before: "There was an error parsing the body" (red team 11)
            return answer(400, "the body's JSON nests deeper than this server reads; send the request's own fields")
        return answer(exc.status_code, str(exc.detail), dict(exc.headers or {}))

    @api.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = list(exc.errors())
        syntax = next((e for e in errors if e.get("type") == "json_invalid"), None)
        if syntax is not None:
            where = syntax["loc"][-1]
            return answer(400, f"the body is not valid JSON: {syntax.get('ctx', {}).get('error')} at byte {where}")
        parts = [f"{'.'.join(str(p) for p in e['loc'][1:]) or 'body'}: {e['msg']}" for e in errors]
        return answer(422, "invalid request: " + "; ".join(parts))

    @api.exception_handler(Exception)
    async def crashed(_: Request, exc: Exception) -> JSONResponse:
        logger.log(logging.ERROR, "unexpected error", exc_info=exc)
        return answer(500, f"internal error; the server's log has it under request id {REQUEST_ID.get()}")

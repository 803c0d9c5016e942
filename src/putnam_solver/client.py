"""A small typed client of ``putnam serve``, for RL and evaluation code: sync and async, retries, batching.

    from putnam_solver.client import PutnamClient, Request

    with PutnamClient("http://127.0.0.1:8000") as client:      # the key from PUTNAM_API_KEY
        verdicts = client.verify_many([Request("putnam_1962_a2", proof) for proof in proofs])
        rewards = [v["status"] == "accepted" for v in verdicts]

Only ``httpx`` is needed (no server extra). A refused request (429) or a server not ready yet (503) is
tried again after the ``Retry-After`` the server sends, as is a dropped connection, up to ``retries``
times; any other refusal raises :class:`ServiceError` with the server's own message. ``verify_many``
sends ``batch_size`` items per ``/verify/batch`` request and returns the verdicts in input order; items
the server did not judge (a batch stops when its gates stop being ready: status ``not_judged``) are sent
again, up to ``retries`` times, and any still not judged keep that status.

A verdict is the server's compact one (``status``, ``failing_gate``, the first ``errors`` lines, the
hashes: a few hundred bytes); ``full=True`` asks for the whole verdict (every gate's detail and evidence).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import httpx

KEY_VARIABLE = "PUTNAM_API_KEY"
RETRIED = (429, 503)
MAX_WAIT_SECONDS = 60.0


class ServiceError(Exception):
    """The server refused a request: its HTTP status and the ``detail`` it gave."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(f"{status}: {detail}")
        self.status = status
        self.detail = detail


@dataclass(frozen=True)
class Request:
    """One candidate for one problem of the served benchmark."""

    problem: str
    candidate: str
    prover: str | None = None
    profile: str = "full"
    track: str | None = None
    """None: the server's track (``putnam serve --track``, with-answer by default)."""

    def body(self) -> dict[str, Any]:
        body = {"problem": self.problem, "candidate": self.candidate, "profile": self.profile}
        return body | ({"prover": self.prover} if self.prover else {}) | ({"track": self.track} if self.track else {})


def _connection(url: str, key: str | None, timeout: float) -> dict[str, Any]:
    """What both clients pass httpx: the server, the key (``key`` or ``PUTNAM_API_KEY``), the timeout."""
    key = key or os.environ.get(KEY_VARIABLE)
    if not key:
        raise ValueError(f"no API key: pass key= or set {KEY_VARIABLE}")
    return {"base_url": url, "headers": {"Authorization": f"Bearer {key}"}, "timeout": timeout}


def _wait(response: httpx.Response | None, attempt: int) -> float:
    """Seconds before trying again: the server's ``Retry-After``, else a doubling backoff."""
    header = response.headers.get("retry-after") if response is not None else None
    try:
        seconds = float(header) if header is not None else 2.0**attempt
    except ValueError:
        seconds = 2.0**attempt
    return min(max(seconds, 0.0), MAX_WAIT_SECONDS)


def _answer(response: httpx.Response) -> Any:
    if response.status_code >= 400:
        try:
            detail = str(response.json().get("detail", response.text))
        except ValueError:
            detail = response.text
        raise ServiceError(response.status_code, detail)
    return response.json()


def _params(full: bool) -> dict[str, str]:
    return {"full": "1"} if full else {}


def _batches(requests: Sequence[Request], size: int) -> list[list[dict[str, Any]]]:
    return [[r.body() for r in requests[i : i + size]] for i in range(0, len(requests), size)]


NOT_JUDGED = "not_judged"


def _left(results: list[dict[str, Any]]) -> list[int]:
    """The positions of the batch items the server did not judge (to send again)."""
    return [n for n, result in enumerate(results) if result.get("status") == NOT_JUDGED]


def _merge(results: list[dict[str, Any]], left: list[int], again: list[dict[str, Any]]) -> None:
    for n, result in zip(left, again, strict=True):
        results[n] = result


class PutnamClient:
    """Blocking client; one connection pool, closed by ``close`` or the ``with`` block."""

    def __init__(
        self, url: str, key: str | None = None, *, timeout: float = 900.0, retries: int = 3, batch_size: int = 64
    ) -> None:
        self.http = httpx.Client(**_connection(url, key, timeout))
        self.retries, self.batch_size = retries, batch_size

    def _post(self, path: str, body: dict[str, Any], full: bool) -> Any:
        for attempt in range(self.retries + 1):
            try:
                response: httpx.Response | None = self.http.post(path, json=body, params=_params(full))
            except httpx.TransportError:
                response = None
            if attempt == self.retries or (response is not None and response.status_code not in RETRIED):
                break
            time.sleep(_wait(response, attempt))
        if response is None:
            raise ServiceError(0, f"no answer from {self.http.base_url} after {self.retries + 1} tries")
        return _answer(response)

    def verify(self, request: Request, *, full: bool = False) -> dict[str, Any]:
        """The verdict of one candidate: compact, or ``full`` (as ``putnam verify --json`` writes each result)."""
        verdict: dict[str, Any] = self._post("/verify", request.body(), full)
        return verdict

    def verify_many(self, requests: Sequence[Request], *, full: bool = False) -> list[dict[str, Any]]:
        """The verdicts of ``requests``, in their order, ``batch_size`` per request to the server."""
        return [v for batch in _batches(requests, self.batch_size) for v in self._batch(batch, full)]

    def _batch(self, items: list[dict[str, Any]], full: bool) -> list[dict[str, Any]]:
        results: list[dict[str, Any]] = self._post("/verify/batch", {"items": items}, full)["results"]
        for attempt in range(self.retries):
            if not (left := _left(results)):
                break
            time.sleep(_wait(None, attempt))
            _merge(results, left, self._post("/verify/batch", {"items": [items[n] for n in left]}, full)["results"])
        return results

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> PutnamClient:
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.close()


class AsyncPutnamClient:
    """The same for asyncio; ``verify_many`` sends its batches concurrently."""

    def __init__(
        self, url: str, key: str | None = None, *, timeout: float = 900.0, retries: int = 3, batch_size: int = 64
    ) -> None:
        self.http = httpx.AsyncClient(**_connection(url, key, timeout))
        self.retries, self.batch_size = retries, batch_size

    async def _post(self, path: str, body: dict[str, Any], full: bool) -> Any:
        for attempt in range(self.retries + 1):
            try:
                response: httpx.Response | None = await self.http.post(path, json=body, params=_params(full))
            except httpx.TransportError:
                response = None
            if attempt == self.retries or (response is not None and response.status_code not in RETRIED):
                break
            await asyncio.sleep(_wait(response, attempt))
        if response is None:
            raise ServiceError(0, f"no answer from {self.http.base_url} after {self.retries + 1} tries")
        return _answer(response)

    async def verify(self, request: Request, *, full: bool = False) -> dict[str, Any]:
        verdict: dict[str, Any] = await self._post("/verify", request.body(), full)
        return verdict

    async def verify_many(self, requests: Sequence[Request], *, full: bool = False) -> list[dict[str, Any]]:
        answers = await asyncio.gather(*(self._batch(b, full) for b in _batches(requests, self.batch_size)))
        return [v for answer in answers for v in answer]

    async def _batch(self, items: list[dict[str, Any]], full: bool) -> list[dict[str, Any]]:
        results: list[dict[str, Any]] = (await self._post("/verify/batch", {"items": items}, full))["results"]
        for attempt in range(self.retries):
            if not (left := _left(results)):
                break
            await asyncio.sleep(_wait(None, attempt))
            again = await self._post("/verify/batch", {"items": [items[n] for n in left]}, full)
            _merge(results, left, again["results"])
        return results

    async def aclose(self) -> None:
        await self.http.aclose()

    async def __aenter__(self) -> AsyncPutnamClient:
        return self

    async def __aexit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        await self.aclose()


__all__ = ["AsyncPutnamClient", "PutnamClient", "Request", "ServiceError"]

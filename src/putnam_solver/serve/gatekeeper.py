"""The ASGI layer in front of the API: request ids, API keys and per-key limits, before any body is read.

For every HTTP request it takes the client's ``X-Request-ID`` when it is sane (1-64 of ``A-Za-z0-9._:-``)
or makes one, sets it for every log line, returns it in the response's ``X-Request-ID`` and writes
one access line (method, path, status, key name, milliseconds). For the verification endpoints it then
checks, in this order and before a byte of the body is read: the API key (401), that the body is JSON
(415), that the gates are ready (503), the key's requests in flight (429 with ``Retry-After``) and
the body's declared size (413); a body without a declared size is counted as it streams in and
refused (413) at the first byte over the cap, so no body larger than the cap is ever held. A
slot is given back as the response's last byte is sent, so a client that waits for each answer never
meets its own limit.
"""

from __future__ import annotations

import re
import time
import uuid
from collections import Counter
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from putnam_solver.api_keys import KeyRing, key_refusal, send_refusal
from putnam_solver.serve.logs import REQUEST_ID, logger

SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
REQUEST_ID_HEADER = "x-request-id"
CLIENT_KEY = "putnam_client_key"
"""Where the matched key goes in the request's state, for the endpoints."""


def error_body(status: int, detail: str) -> dict[str, Any]:
    """The JSON of every error the server answers: what went wrong and the id to quote."""
    return {"status": status, "detail": detail, "request_id": REQUEST_ID.get()}


class Gatekeeper:
    """Wraps the API (see the module's docstring); ``protected`` paths need a key and count against it."""

    def __init__(
        self,
        app: ASGIApp,
        keys: KeyRing,
        protected: frozenset[str],
        per_key: int,
        body_bytes: int,
        retry_after: int,
        not_ready: Callable[[], str | None],
    ) -> None:
        self.app = app
        self.keys = keys
        self.protected = protected
        self.per_key = per_key
        self.body_bytes = body_bytes
        self.retry_after = retry_after
        self.not_ready = not_ready
        self.in_flight: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        given = headers.get(REQUEST_ID_HEADER, "")
        request_id = given if SANE_REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
        token = REQUEST_ID.set(request_id)
        started = time.perf_counter()
        seen: dict[str, Any] = {"status": 0, "key": "-"}

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                seen["status"] = message["status"]
                message["headers"] = [*message.get("headers", []), (b"x-request-id", request_id.encode())]
            await send(message)

        try:
            if scope["path"] in self.protected and scope["method"] == "POST":
                await self._guarded(scope, receive, send_with_id, headers, seen)
            else:
                await self.app(scope, receive, send_with_id)
        finally:
            millis = (time.perf_counter() - started) * 1000
            # the path as the client sent it, percent-encoded again: decoded, a `%0a` in it wrote a log line of its
            # own ("POST /verify -> 200 key=alice") for a client with no key (red team round 5)
            path = quote(scope["path"], safe="/:@!$&'()*+,;=-._~")
            logger.info("%s %s -> %s key=%s %.1f ms", scope["method"], path, seen["status"], seen["key"], millis)
            REQUEST_ID.reset(token)

    async def _guarded(
        self, scope: Scope, receive: Receive, send: Send, headers: Headers, seen: dict[str, Any]
    ) -> None:
        given = headers.get("authorization", "")
        key = self.keys.bearer(given)
        if key is None:
            await _refuse(send, 401, key_refusal(given))
            return
        seen["key"] = key.name
        if not _is_json(headers.get("content-type", "")):
            await _refuse(send, 415, "send the body as JSON, with `Content-Type: application/json`")
            return
        if (waiting := self.not_ready()) is not None:
            await _refuse(send, 503, f"not ready: {waiting}", self.retry_after)
            return
        limit = key.limit or self.per_key
        if self.in_flight[key.name] >= limit:
            await _refuse(
                send,
                429,
                f"key {key.name} has {self.in_flight[key.name]} requests in flight, its limit; retry after "
                f"{self.retry_after} s, or send several candidates in one batch",
                self.retry_after,
            )
            return
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.body_bytes:
            await _refuse(send, 413, self._too_large())
            return
        self.in_flight[key.name] += 1
        held = True
        received = 0

        async def receive_capped() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.body_bytes:
                raise HTTPException(413, self._too_large())  # answered by the API's error handler
            return message

        def release() -> None:
            nonlocal held
            if held:
                held = False
                self.in_flight[key.name] -= 1

        async def send_releasing(message: Message) -> None:
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                release()
            await send(message)

        scope.setdefault("state", {})[CLIENT_KEY] = key
        try:
            await self.app(scope, receive_capped, send_releasing)
        finally:
            release()

    def _too_large(self) -> str:
        return f"the body is over this server's cap of {self.body_bytes} bytes; send fewer or smaller candidates"


def _is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


async def _refuse(send: Send, status: int, detail: str, retry_after: int | None = None) -> None:
    extra = [] if retry_after is None else [(b"retry-after", str(retry_after).encode())]
    await send_refusal(send, status, error_body(status, detail), extra)

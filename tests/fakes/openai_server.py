"""A loopback OpenAI-compatible server whose replies a test scripts: chat completions, and the Responses
API (``POST .../responses``) that Inspect uses for OpenAI's gpt-5 and o-series models.

Each request takes the next step of the script (then ``default`` forever): a reply (an assistant
message, possibly with tool calls), or a fault: ``429`` (rate limited), ``500``, ``timeout`` (answer
only after the client gave up), ``malformed`` (a 200 whose body is not a completion) or ``drop`` (close
the connection without an answer, as a server that dies does); ``hold`` keeps the request waiting until
the test sets ``release`` (a model thinking for as long as the test watches), then answers it with the
script's next step. It counts the
requests and the faults it served, and keeps each request's body (what the client sent, e.g. the tool
results of the previous turn).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Step = str | dict[str, Any]


def tool_call_reply(name: str, arguments: dict[str, Any], call_id: str) -> dict[str, Any]:
    """A chat-completions assistant message that calls one tool."""
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": call_id,
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
        ],
    }


@dataclass
class FakeOpenAI:
    script: list[Step]
    default: Step = field(default_factory=lambda: {"role": "assistant", "content": "Nothing more to say."})
    timeout_sleep: float = 3.0
    output_tokens: int = 20
    """The completion tokens each reply reports (the prompt's are 100): what a test's budget is spent by."""
    chars_per_prompt_token: int | None = None
    """If set, the prompt tokens a reply reports are the characters of the messages sent over this (as a
    real provider's count grows with what it is sent), not 100."""
    requests: int = 0
    in_flight: int = 0
    peak_in_flight: int = 0
    faults_served: list[str] = field(default_factory=list)
    received: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    release: threading.Event = field(default_factory=threading.Event)
    hold_seconds: float = 120.0
    route: Callable[[dict[str, Any]], Step | None] | None = None
    """Answers a request by what it asks (a reply, or None for the script's next step): for requests whose
    order the client does not fix, such as the concurrent sub-attempts of one tool call."""

    def next_step(self, request: dict[str, Any]) -> Step:
        with self.lock:
            self.received.append(request)
            self.requests += 1
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
        routed = self.route(request) if self.route is not None else None  # it may wait for other requests
        if routed is not None:
            return routed
        with self.lock:
            return self.script.pop(0) if self.script else self.default

    def held(self) -> Step:
        """Wait for ``release`` (at most ``hold_seconds``), then the step that answers the held request."""
        self.release.wait(self.hold_seconds)
        with self.lock:
            return self.script.pop(0) if self.script else self.default

    def prompt_tokens(self, request: dict[str, Any]) -> int:
        if self.chars_per_prompt_token is None:
            return 100
        sent = request.get("messages", request.get("input", []))
        return len(json.dumps(sent)) // self.chars_per_prompt_token

    def done(self) -> None:
        with self.lock:
            self.in_flight -= 1


def _handler(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet test output
            return

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            request = json.loads(self.rfile.read(length) or b"{}")
            step = fake.next_step(request)
            if step == "hold":
                step = fake.held()
            try:
                if self.path.rstrip("/").endswith("/responses") and isinstance(step, dict):
                    self._send(200, _response(request, step, fake.output_tokens, fake.prompt_tokens(request)))
                    return
                self._answer(step, request)
            except (BrokenPipeError, ConnectionResetError):
                pass
            finally:
                fake.done()

        def _answer(self, step: Step, request: dict[str, Any]) -> None:
            if isinstance(step, str):
                fake.faults_served.append(step)
            if step == "429":
                self._send(
                    429,
                    {"error": {"message": "rate limited", "type": "rate_limit_error"}},
                    {"retry-after": "0"},
                )
            elif step == "500":
                self._send(500, {"error": {"message": "internal error", "type": "server_error"}})
            elif step == "timeout":
                time.sleep(fake.timeout_sleep)
                self._send(200, _completion(request, {"role": "assistant", "content": "too late"}))
            elif step == "drop":
                self.close_connection = True
            elif step == "malformed":
                body = b"{this is not json"
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            elif isinstance(step, dict):
                self._send(200, _completion(request, step, fake.output_tokens, fake.prompt_tokens(request)))
            else:
                raise ValueError(f"unknown step {step!r}")

        def _send(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

    return Handler


def _completion(
    request: dict[str, Any], message: dict[str, Any], output_tokens: int = 20, prompt_tokens: int = 100
) -> dict[str, Any]:
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", "fake-model"),
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": output_tokens,
            "total_tokens": prompt_tokens + output_tokens,
        },
    }


def _response(
    request: dict[str, Any], message: dict[str, Any], output_tokens: int, prompt_tokens: int = 100
) -> dict[str, Any]:
    """A scripted assistant message as the Responses API answers it: its text as an ``output_text`` item,
    each tool call as a ``function_call`` item (the openai SDK's ``types/responses/response.py``,
    ``response_output_message.py``, ``response_function_tool_call.py``, ``response_usage.py``)."""
    output: list[dict[str, Any]] = []
    if message.get("content"):
        text = {"type": "output_text", "text": message["content"], "annotations": []}
        output.append(
            {"type": "message", "id": "msg_fake", "role": "assistant", "status": "completed", "content": [text]}
        )
    for call in message.get("tool_calls") or []:
        function = call["function"]
        output.append(
            {
                "type": "function_call",
                "id": f"fc_{call['id']}",
                "call_id": call["id"],
                "name": function["name"],
                "arguments": function["arguments"],
                "status": "completed",
            }
        )
    usage = {
        "input_tokens": prompt_tokens,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": output_tokens,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": prompt_tokens + output_tokens,
    }
    return {
        "id": "resp_fake",
        "object": "response",
        "created_at": int(time.time()),
        "model": request.get("model", "fake-model"),
        "status": "completed",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": usage,
    }


@contextmanager
def serve(fake: FakeOpenAI) -> Iterator[str]:
    """Serve ``fake`` on 127.0.0.1 (a free port) and yield its base URL; always shut down."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)

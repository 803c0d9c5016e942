"""The server's log lines: every one carries the id of the request it belongs to (``-`` outside requests).

The id lives in a context variable set by the gatekeeper for each request; asyncio tasks inherit it,
and the verifier hands it to its worker threads, so gate code logging from a thread is tagged too.
"""

from __future__ import annotations

import logging
import sys
from contextvars import ContextVar

from putnam_solver.terminal import terminal_text

REQUEST_ID: ContextVar[str] = ContextVar("putnam_request_id", default="-")
LOG_FORMAT = "%(asctime)s %(levelname)s [%(request_id)s] %(name)s: %(message)s"
logger = logging.getLogger("putnam_solver.serve")


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` to every record the handler writes, whichever logger made it."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get()
        return True


class TextFormatter(logging.Formatter):
    """Log lines that reach the operator's terminal as text: a control character a message carries (a
    client's text, a compiler's) is shown as its escape (``terminal.terminal_text``)."""

    def format(self, record: logging.LogRecord) -> str:
        return terminal_text(super().format(record))


def configure_logging(level: int = logging.INFO) -> None:
    """One handler on stderr for the root logger (uvicorn's loggers propagate to it), ids on every line."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(TextFormatter(LOG_FORMAT))
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(level)

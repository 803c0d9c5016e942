"""``putnam mcp``'s stdio transport: the client's pipe taken over when the command starts, its
``initialize`` answered at once (``early_initialize``) while the MCP SDK is imported, then the session
handed to the SDK's own transport (``mcp.server.stdio.stdio_server``, given our streams).

The SDK's session refuses every request before an ``initialize``, so it is given the client's first line
again, ahead of what follows on the pipe (nothing read in advance is lost: the SDK reads on from the same
buffer), and its answer to an ``initialize`` already answered is not written a second time: only that
one message, once, and only when it is the answer written early; any other (which would be a defect of
``early_initialize``) goes to the client and is reported on stderr.
"""

from __future__ import annotations

import fcntl
import io
import json
import os
import sys
import threading
from collections.abc import Callable
from typing import Any, TextIO

from putnam_solver.core.util import InputError
from putnam_solver.mcp.early_initialize import ServerIdentity, encoded, initialize_response
from putnam_solver.terminal import terminal_text

MAX_FIRST_LINE = 1 << 16
"""Bytes read for the first line; a longer one is not answered early, and goes to the SDK whole."""


def stderr(message: str) -> None:
    """One line on stderr, for each judged call and what else the server reports (stdout is the
    protocol's over stdio)."""
    print(f"putnam mcp: {terminal_text(message)}", file=sys.stderr, flush=True)  # a check quotes coqc


def private_copy(fd: int) -> int:
    """A duplicate of ``fd`` above the standard descriptors, closed in programs this process runs."""
    return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)


class ClientPipe:
    """The client's pipe on private descriptors, while fd 0 reads the null device and fd 1 writes to
    stderr: what the process and the programs it runs read or print never meets the protocol. This is
    what the SDK's ``stdio_server`` does to the standard streams it takes itself (``_claim_fd`` in
    ``mcp/server/stdio.py``); given streams, it leaves the descriptors alone. The private descriptors
    are never closed: a worker thread may still be reading one after the session."""

    def __init__(self) -> None:
        if sys.stdin is None or sys.stdout is None:  # fd 0 or 1 was closed at start; a file may have it now
            raise InputError("putnam mcp over stdio needs its standard input and output: the client's pipe")
        self.fds = (private_copy(0), private_copy(1))
        self.reader = io.BufferedReader(io.FileIO(self.fds[0], "rb", closefd=False))
        self.writer = io.BufferedWriter(io.FileIO(self.fds[1], "wb", closefd=False))
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            os.dup2(null, 0)
        finally:
            os.close(null)
        os.dup2(2, 1)

    def restore(self) -> None:
        """Put the client's pipe back on fd 0 and fd 1 (the session is over)."""
        os.dup2(self.fds[0], 0)
        os.dup2(self.fds[1], 1)


class Replayed(io.RawIOBase):
    """The client's input as the SDK reads it: ``first`` (the line read early), then the rest of
    ``rest`` (from its buffer first)."""

    def __init__(self, first: bytes, rest: io.BufferedReader[io.FileIO]) -> None:
        super().__init__()
        self.first = first
        self.rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.first[: len(buffer)] if self.first else self.rest.read1(len(buffer))
        self.first = self.first[len(data) :]
        buffer[: len(data)] = data
        return len(data)


class WithoutSecondAnswer(io.TextIOWrapper):
    """The SDK's messages to the client (one message a ``write``, as ``stdio_server`` writes them), less
    its answer to the ``initialize`` answered early (``answered``)."""

    def __init__(
        self, buffer: io.BufferedWriter[io.FileIO], answered: dict[str, Any] | None, warn: Callable[[str], None]
    ) -> None:
        super().__init__(buffer, encoding="utf-8")  # as the SDK's own stream (stdio_server)
        self.answered = answered
        self.warn = warn

    def write(self, text: str) -> int:
        if self.answered is not None and self.is_second_answer(text):
            return len(text)
        return super().write(text)

    def is_second_answer(self, text: str) -> bool:
        """Whether ``text`` is the SDK's answer to the early-answered request and the same answer; the
        first answer to that request ends the filtering, whatever it is."""
        assert self.answered is not None
        try:
            message = json.loads(text)
        except ValueError:
            return False
        request_id = self.answered["id"]
        if not (isinstance(message, dict) and ("result" in message or "error" in message)):
            return False
        if type(message.get("id")) is not type(request_id) or message["id"] != request_id:
            return False
        early, self.answered = self.answered, None
        if message == early:
            return True
        self.warn(f"the MCP SDK answered initialize otherwise than putnam mcp did at start: {text.strip()[:500]}")
        return False


class EarlyStdio:
    """The client's pipe from the command's start: its first line read, and answered when it is an
    ``initialize`` (``early_initialize``), in a thread of its own while the command goes on to import
    the SDK and build the server; then the streams the SDK serves the session on (``handoff``)."""

    def __init__(self, identity: ServerIdentity, warn: Callable[[str], None] = stderr) -> None:
        self.pipe = ClientPipe()
        self.identity = identity
        self.warn = warn
        self.first = b""
        self.answered: dict[str, Any] | None = None
        self.thread = threading.Thread(target=self.answer, name="mcp-initialize", daemon=True)
        self.thread.start()

    def answer(self) -> None:
        """Read the client's first line and answer it if it is an ``initialize``. A failed read or write
        answers nothing here: the SDK then meets the pipe as it is."""
        try:
            self.first = self.pipe.reader.readline(MAX_FIRST_LINE)
            response = initialize_response(self.first, self.identity)
            if response is not None:
                self.pipe.writer.write(encoded(response))
                self.pipe.writer.flush()
                self.answered = response
        except OSError:
            return

    def handoff(self) -> tuple[TextIO, TextIO]:
        """The client's input from its first line on, and the output to it, as text streams for the
        SDK's ``stdio_server`` (UTF-8, invalid bytes replaced on input, as its own streams are); waits
        for the first line."""
        self.thread.join()
        replayed = io.BufferedReader(Replayed(self.first, self.pipe.reader))
        stdin = io.TextIOWrapper(replayed, encoding="utf-8", errors="replace")
        return stdin, WithoutSecondAnswer(self.pipe.writer, self.answered, self.warn)

    def restore(self) -> None:
        self.pipe.restore()

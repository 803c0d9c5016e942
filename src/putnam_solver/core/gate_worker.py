"""Worker processes for work the harness must be able to stop: the text gates.

A thread cannot be stopped in Python: a text gate abandoned at its time bound used to keep a core busy
until it finished on its own (minutes, for some inputs). Here such work runs in a child process that is
killed (SIGKILL) when its time is up, so nothing of it outlives the bound.

Starting Python and importing the gates costs a few hundred milliseconds, so workers are kept and reused:
a call takes an idle worker (or starts one), sends it a function and its arguments (pickled, over the
worker's stdin) and reads the result from its stdout. A worker that times out, dies or answers nonsense
is killed and never reused; an idle one is kept for the next call (at most ``MAX_IDLE``). A worker reads
its requests from a pipe whose other end only the harness holds: when the harness dies, the pipe closes
and an idle worker exits; a busy one ends with the call it is in (the text gates are linear in their
input and bounded by the size cap).

The worker is a fresh interpreter running :func:`main` (``python -c``), not a fork of the harness: a
fork of a process with threads (``serve``, the agent) can inherit a lock another thread held. Each call
carries the harness's ``sys.path``, so functions defined where the harness can import them (a
prover plugin's gates) can be called.
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from putnam_solver.core.framed_pipe import FramedPipe

MAX_IDLE: Final = 4
"""Idle workers kept for later calls; more concurrent calls start more, which end when they return."""


class WorkerTimeout(Exception):
    """The call did not return within its time; its worker was killed."""


class WorkerFailed(Exception):
    """The worker could not run the call (it died, or the call or its result could not be pickled)."""


@dataclass
class _Worker:
    process: subprocess.Popen[bytes]
    requests: FramedPipe
    replies: FramedPipe

    def kill(self) -> None:
        """Kill the process and reap it, so that no busy or zombie worker is left behind."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.requests.close()
        self.replies.close()


_PACKAGE_ROOT: Final = str(Path(__file__).resolve().parents[2])
"""Where ``putnam_solver`` is imported from here, so that the worker runs the same sources."""
_idle: list[_Worker] = []
_lock = threading.Lock()


def _start() -> _Worker:
    process = subprocess.Popen(
        [sys.executable, "-c", "from putnam_solver.core.gate_worker import main; main()"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (_PACKAGE_ROOT, os.environ.get("PYTHONPATH"))))},
        close_fds=True,
    )
    assert process.stdin is not None and process.stdout is not None
    requests = FramedPipe(os.dup(process.stdin.fileno()))
    replies = FramedPipe(os.dup(process.stdout.fileno()))
    process.stdin.close()
    process.stdout.close()
    return _Worker(process, requests, replies)


def _take() -> _Worker:
    with _lock:
        while _idle:
            worker = _idle.pop()
            if worker.process.poll() is None:
                return worker
            worker.kill()
    return _start()


def _give_back(worker: _Worker) -> None:
    with _lock:
        if len(_idle) < MAX_IDLE:
            _idle.append(worker)
            return
    worker.kill()


def call(function: Callable[..., Any], args: tuple[Any, ...], seconds: float) -> Any:
    """``function(*args)`` in a worker process, or :class:`WorkerTimeout` after ``seconds`` (the worker
    is then killed). ``function`` must be importable by name (a module-level function). An exception the
    function raises is raised here as :class:`WorkerFailed` with its text."""
    worker = _take()
    try:
        worker.requests.send((list(sys.path), pickle.dumps((function, args))))
        if not worker.replies.poll(seconds):
            worker.kill()
            raise WorkerTimeout(f"did not finish within {seconds:g} s")
        ok, value = worker.replies.recv()
    except (OSError, EOFError, pickle.PicklingError, AttributeError, TypeError) as exc:
        worker.kill()
        raise WorkerFailed(f"the worker process failed: {type(exc).__name__}: {exc}") from exc
    except BaseException:
        worker.kill()  # interrupted (Ctrl-C): the worker's state is unknown, never reused
        raise
    _give_back(worker)
    if not ok:
        raise WorkerFailed(value)
    return value


def _serve(requests: FramedPipe, replies: FramedPipe) -> None:
    """The worker's loop: one call at a time until the harness closes the pipe."""
    while True:
        try:
            path, call = requests.recv()
        except EOFError:
            return
        try:
            sys.path[:] = path
            function, args = pickle.loads(call)
        except Exception as exc:  # the call names something this interpreter cannot import
            replies.send((False, f"cannot load the call: {type(exc).__name__}: {exc}"))
            continue
        try:
            reply: tuple[bool, Any] = (True, function(*args))
        except Exception as exc:
            reply = (False, f"{type(exc).__name__}: {exc}")
        try:
            replies.send(reply)
        except (pickle.PicklingError, AttributeError, TypeError) as exc:
            replies.send((False, f"the result cannot be sent back: {type(exc).__name__}: {exc}"))


def main() -> None:
    """Entry point of a worker: requests on stdin, replies on the original stdout; anything the called
    code prints goes to stderr, so it cannot corrupt a reply. SIGINT (a Ctrl-C at the terminal reaches
    the whole process group) is ignored: the harness ends a busy worker itself, an idle one ends at EOF."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the harness's: it then kills or leaves us
    replies = FramedPipe(os.dup(1))
    os.dup2(2, 1)
    _serve(FramedPipe(os.dup(0)), replies)

"""Worker processes for work the harness must be able to stop: the text gates.

A thread cannot be stopped in Python: a text gate abandoned at its time bound used to keep a core busy
until it finished on its own (minutes, for some inputs). Here such work runs in a child process that is
killed (SIGKILL) when its time is up, so nothing of it outlives the bound.

Starting Python and importing the gates costs a few hundred milliseconds, so workers are kept and reused:
a call takes an idle worker (or starts one), sends it a function and its arguments (pickled, over the
worker's stdin) and reads the result from its stdout. A worker that times out, dies or answers nonsense
is killed and never reused; an idle one is kept for the next call (at most ``MAX_IDLE``).

A worker dies with the harness, however the harness ends (SIGKILL included): it asks the kernel for
SIGKILL when its parent dies (Linux ``prctl(PR_SET_PDEATHSIG)``), then checks that its parent is still
the harness that started it, since the harness may have died before the request was made. The kernel
sends that signal when the *thread* that started the worker ends, not the process (prctl(2)), so workers
are started from one thread kept for the harness's life (:func:`_starter`), never from a caller's thread,
which may end while others use the worker. Where ``prctl`` is unavailable, a thread of the worker waits
on a pipe whose other end only the harness holds and ends the worker when it reads end-of-file (that
thread needs the interpreter lock, so it can be late by as long as one C call of the gates runs).

The cyclic garbage collector is off in a worker: a call allocates a token per word of a file of up to
the size cap, and tokens (tuple subclasses) are never untracked, so each collection the allocations
trigger walks every token made so far, which cost up to half of a gate's time on the worst inputs. A
worker collects the young generations once after each call instead, once its reply is sent: what the
call made and left is there, while what the worker keeps (modules, caches) is never walked again (a full
collection after every call cost up to a second each with the pinned statements cached). The candidate
caches (``candidate_cache``) are emptied then too: freeing a million tokens takes a fifth of a second,
which the caller need not wait for.

The worker is a fresh interpreter running :func:`main` (``python -I -c``: ``_ENTRY``), not a fork of the
harness: a fork of a process with threads (``serve``, the agent) can inherit a lock another thread held.
Each call carries the harness's ``sys.path``, so functions defined where the harness can import them (a
prover plugin's gates) can be called.
"""

from __future__ import annotations

import ctypes
import gc
import os
import pickle
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from putnam_solver.core import candidate_cache
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
    watch: int
    """The harness's end of the pipe a worker without ``prctl`` watches (see the module docstring)."""

    def kill(self) -> None:
        """Kill the process and reap it, so that no busy or zombie worker is left behind (idempotent)."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.requests.close()
        self.replies.close()
        if self.watch >= 0:
            os.close(self.watch)
            self.watch = -1


_PACKAGE_ROOT: Final = str(Path(__file__).resolve().parents[2])
"""Where ``putnam_solver`` is imported from here, so that the worker runs the same sources."""
_ENTRY: Final = (
    "import sys; sys.path.insert(0, {root!r}); from putnam_solver.core.gate_worker import main; main({parent}, {watch})"
)
"""The worker's program. Python runs it isolated (``-I``): ``python -c`` alone puts the working directory
first on the path and takes ``PYTHONPATH`` and the other ``PYTHON*`` variables from the environment, so a
``pickle.py`` in the folder of proofs being checked (``cd proofs && putnam verify .``), or a ``PYTHONPATH``
a ``.env`` file there set (Inspect loads one during ``putnam solve``), was imported by the worker that
judges the text gates and answered for them (trust paths red team 18). Isolated, it reads only the
package's own folder, the interpreter's, and then the harness's ``sys.path`` each call carries."""
_idle: list[_Worker] = []
_lock = threading.Lock()
_starter_of: tuple[int, ThreadPoolExecutor] | None = None


def _starter() -> ThreadPoolExecutor:
    """The one thread that starts workers, kept for the life of this process (a thread of an executor
    waits for work until the executor is shut down); a fresh one in a forked child, which has none."""
    global _starter_of
    with _lock:
        if _starter_of is None or _starter_of[0] != os.getpid():
            _starter_of = (os.getpid(), ThreadPoolExecutor(1, thread_name_prefix="gate-worker-starter"))
        return _starter_of[1]


def _start() -> _Worker:
    return _starter().submit(_spawn).result()


def _spawn() -> _Worker:
    """Start a worker (on the starter thread: the worker's death signal follows that thread's life)."""
    watch_read, watch_write = os.pipe()  # the harness's end stays open, unshared, as long as it lives
    try:
        process = subprocess.Popen(
            [sys.executable, "-I", "-c", _ENTRY.format(root=_PACKAGE_ROOT, parent=os.getpid(), watch=watch_read)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            close_fds=True,
            pass_fds=(watch_read,),
        )
    except BaseException:
        os.close(watch_write)
        raise
    finally:
        os.close(watch_read)
    assert process.stdin is not None and process.stdout is not None
    requests = FramedPipe(os.dup(process.stdin.fileno()))
    replies = FramedPipe(os.dup(process.stdout.fileno()))
    process.stdin.close()
    process.stdout.close()
    return _Worker(process, requests, replies, watch_write)


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
        del reply
        candidate_cache.forget()  # a call's tokens are freed once its reply is sent, not while it waits
        gc.collect(1)  # the collector is off during calls (module docstring): collect while idle


_PR_SET_PDEATHSIG: Final = 1
"""From ``<linux/prctl.h>``."""


def _die_with(parent: int, watch: int) -> None:
    """End this worker when the harness ``parent`` ends (see the module docstring): by the kernel's
    death signal where ``prctl`` exists, else by a thread that waits for EOF on the ``watch`` pipe."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        armed = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):  # no C library to load, or no prctl in it (not Linux)
        armed = False
    if armed:
        os.close(watch)
    else:
        threading.Thread(target=_exit_at_eof, args=(watch,), daemon=True, name="harness-watch").start()
    if os.getppid() != parent:  # the harness died before the signal was asked for: nobody would send it
        os._exit(1)


def _exit_at_eof(watch: int) -> None:
    """Block until every write end of ``watch`` is closed (the harness is gone), then end the process."""
    while os.read(watch, 1):
        pass
    os._exit(1)


def main(parent: int, watch: int) -> None:
    """Entry point of a worker started by the harness ``parent``: requests on stdin, replies on the
    original stdout; anything the called code prints goes to stderr, so it cannot corrupt a reply.
    SIGINT (a Ctrl-C at the terminal reaches the whole process group) is ignored: the harness ends a
    busy worker itself, an idle one ends at EOF, and either ends with the harness (:func:`_die_with`)."""
    _die_with(parent, watch)
    gc.disable()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the harness's: it then kills or leaves us
    replies = FramedPipe(os.dup(1))
    os.dup2(2, 1)
    _serve(FramedPipe(os.dup(0)), replies)

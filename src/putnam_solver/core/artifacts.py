"""What the gates of one verification make for each other: each artifact made once, declared, overlapped.

A compiled gate rarely works alone: the statement check needs the candidate's compiled file and the
reference's, the kernel check needs the statement check's file. Each such artifact is an
:class:`Artifact`, a name and the function that makes it from the submission; a gate declares the
artifacts it needs (``Gate.needs``) and asks for them with :meth:`Artifacts.get`, never running their
producers again. The pipeline starts the declared artifacts of the gates it will run once the text gates
have passed, each in a daemon thread of its own, so that independent tool runs (the candidate's compile beside
the reference's) overlap; a producer that needs another artifact asks for it the same way and waits.

Nothing here decides anything: a producer's exception is raised again, unchanged, in every gate that
asks for its artifact, so a failure stays the failure of the gate that needed it, and a gate that is not
run (an earlier gate failed) simply never looks at what was made for it. :meth:`Artifacts.close` waits
for every started producer before the verification's scratch directory is removed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

T = TypeVar("T")


@dataclass(frozen=True)
class Artifact(Generic[T]):
    """A named thing a gate needs, and how to make it from the submission (``make(sub)``).

    ``pinned``: made from the pinned record and the toolchain alone, never from a candidate's bytes, and
    kept across verifications (``core.pinned_store``); such an artifact can be made before any candidate
    exists (``verifier.prepare.prepare_problem``, outside this package), so the first verification of a
    problem finds it made."""

    name: str
    make: Callable[[Any], T]
    pinned: bool = False


class Artifacts:
    """The artifacts of one verification, each made at most once (see the module docstring)."""

    def __init__(self) -> None:
        self._made: dict[str, Future[Any]] = {}
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._closed = False

    def start(self, artifact: Artifact[T], sub: object) -> Future[T]:
        """Start making ``artifact`` in a thread of its own unless it is started already."""
        with self._lock:
            made = self._made.get(artifact.name)
            if made is not None:
                return cast("Future[T]", made)
            future: Future[T] = Future()
            self._made[artifact.name] = future
            if self._closed:
                future.set_exception(RuntimeError(f"artifact {artifact.name} asked for after the verification"))
                return future
            thread = threading.Thread(target=_produce, args=(artifact, sub, future), name=artifact.name, daemon=True)
            self._threads.append(thread)
        thread.start()
        return future

    def get(self, artifact: Artifact[T], sub: object) -> T:
        """The artifact, made now or by the run already under way (its exception raised here)."""
        return self.start(artifact, sub).result()

    def abandon(self) -> None:
        """The process is stopping (Ctrl-C, SystemExit): start nothing more and wait for no producer. Their
        sandboxed runs die with the process (``sandbox.lifetime``); waiting would keep it, and them, alive."""
        with self._lock:
            self._closed = True
            self._threads.clear()

    def close(self) -> None:
        """Wait for every producer started (their sandboxed runs end within their own caps)."""
        with self._lock:
            self._closed = True
            threads = list(self._threads)
        for thread in threads:
            thread.join()


def _produce(artifact: Artifact[T], sub: object, future: Future[T]) -> None:
    try:
        future.set_result(artifact.make(sub))
    except BaseException as exc:  # handed to every gate that asks; never lost in the thread
        future.set_exception(exc)

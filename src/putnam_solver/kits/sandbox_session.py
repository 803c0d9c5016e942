"""A long-lived sandboxed command (a warm ``coqtop``, a ``lean --server``), spoken to over its pipes."""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from putnam_solver.core.sandbox.command import wrap
from putnam_solver.core.sandbox.host import Cgroup
from putnam_solver.core.sandbox.lifetime import kill_group, release, spawn
from putnam_solver.core.sandbox.limits import (
    CHUNK,
    DRAIN_SECONDS,
    FLOOD_FACTOR,
    REAP_SECONDS,
    SandboxLimits,
)
from putnam_solver.core.sandbox.run import checked_request
from putnam_solver.core.untrusted import clean_text


class SessionError(Exception):
    """A sandboxed session can no longer be used (it died, flooded its output, or a read timed out);
    the session is closed when this is raised. Nothing it was doing counts as a result."""


class SessionTimeout(SessionError):
    """A read did not complete by its deadline (the session was killed)."""


_STDERR_KEPT = 1 << 16


class SandboxSession:
    """A long-lived command in the sandbox of ``run_sandboxed``, spoken to over its stdin and stdout.

    A warm checker (a ``coqtop`` with the imports loaded, a ``lean --server``) is started once and given
    many inputs. It gets exactly the isolation and caps of a one-shot run (namespaces, unprivileged ids,
    file system, address space, process count, per-file size), except the wall clock: each ``read``
    carries its own deadline, and a read that misses it kills the session (``SessionTimeout``). Unread
    stdout is capped at ``limits.max_output_bytes``: a command that floods it is killed. stderr is drained
    in the background and only its tail is kept. ``close`` (idempotent, also on garbage collection by the
    caller's ``with``) kills every process of the session. The session is forked by the sandbox's
    spawner thread, not by the caller's, so it lives on when the thread that started it is retired
    (a worker thread of a pool), and dies with the harness all the same (``lifetime``).

    Like every sandboxed output, what the session prints is untrusted: callers parse it as diagnostics,
    never as a verdict.
    """

    def __init__(self, proc: subprocess.Popen[bytes], cgroup: Cgroup | None, limits: SandboxLimits, uid: int) -> None:
        self._proc = proc
        self._cgroup = cgroup
        self._limits = limits
        self.uid = uid
        self._buffer = bytearray()
        self._stderr = bytearray()
        self._eof = False
        self._closed = False
        self._flooded = False
        self._cond = threading.Condition()
        assert proc.stdout is not None
        self._threads = [threading.Thread(target=self._pump_stdout, name="putnam-session-out", daemon=True)]
        if proc.stderr is not None:
            self._threads.append(threading.Thread(target=self._pump_stderr, name="putnam-session-err", daemon=True))
        for thread in self._threads:
            thread.start()

    def __enter__(self) -> SandboxSession:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @property
    def alive(self) -> bool:
        return not self._closed and self._proc.poll() is None

    def send(self, data: bytes) -> None:
        """Write ``data`` to the command's stdin (SessionError if it is gone)."""
        if not self.alive:
            self.close()
            raise SessionError(f"the session has ended ({self._ending()})")
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(data)
            self._proc.stdin.flush()
        except OSError as exc:
            self.close()
            raise SessionError(f"the session stopped reading its input ({exc}; {self._ending()})") from exc

    def read(self, until: Callable[[bytes], int | None], deadline: float) -> bytes:
        """Wait until ``until(unread stdout)`` returns an end index, then return (and consume) the bytes up
        to it. ``deadline`` is a ``time.monotonic()`` value. Raises SessionTimeout past it, SessionError
        when the command ends or floods first; either way the session is closed."""
        timed_out = False
        with self._cond:
            while True:
                end = until(bytes(self._buffer))
                if end is not None:
                    taken = bytes(self._buffer[:end])
                    del self._buffer[:end]
                    return taken
                if self._flooded or self._eof or self._closed:
                    break
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    timed_out = True
                    break
                self._cond.wait(min(remaining, 1.0))
        if timed_out:
            self.close()
            raise SessionTimeout("the session did not answer in time (it was stopped)")
        why = (
            f"its output exceeded {self._limits.max_output_bytes} bytes"
            if self._flooded
            else f"it ended ({self._ending()})"
        )
        self.close()
        raise SessionError(f"the session stopped: {why}")

    def stderr_tail(self) -> str:
        with self._cond:
            return clean_text(bytes(self._stderr).decode("utf-8", errors="replace"))

    def close(self) -> None:
        """Kill every process of the session and release its resources (idempotent)."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._cond.notify_all()
        release(self._proc.pid)
        kill_group(self._proc.pid)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=REAP_SECONDS)
        if self._cgroup is not None:
            self._cgroup.kill_all_and_remove()
        for stream in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout=DRAIN_SECONDS)

    def _ending(self) -> str:
        try:  # its output has ended, so its exit is at most a moment away: wait for the code, bounded
            code: int | None = self._proc.wait(timeout=REAP_SECONDS)
        except subprocess.TimeoutExpired:
            code = None
        tail = self.stderr_tail().strip()[-300:]
        return f"exit code {code}" + (f"; stderr: {tail}" if tail else "")

    def _pump_stdout(self) -> None:
        stream = self._proc.stdout
        assert stream is not None
        fd = stream.fileno()
        while True:
            try:
                chunk = os.read(fd, CHUNK)
            except OSError:
                chunk = b""
            with self._cond:
                if not chunk:
                    self._eof = True
                    self._cond.notify_all()
                    return
                self._buffer += chunk
                if len(self._buffer) > self._limits.max_output_bytes:
                    self._flooded = True
                    self._buffer.clear()
                self._cond.notify_all()
            if self._flooded:
                kill_group(self._proc.pid)

    def _pump_stderr(self) -> None:
        stream = self._proc.stderr
        assert stream is not None
        fd = stream.fileno()
        total = 0
        while True:
            try:
                chunk = os.read(fd, CHUNK)
            except OSError:
                return
            if not chunk:
                return
            total += len(chunk)
            with self._cond:
                self._stderr += chunk
                del self._stderr[:-_STDERR_KEPT]
            if total > FLOOD_FACTOR * self._limits.max_output_bytes:
                with self._cond:
                    self._flooded = True
                    self._cond.notify_all()
                kill_group(self._proc.pid)
                return


def start_session(
    argv: Sequence[str],
    *,
    workdir: Path,
    readonly: Sequence[Path] = (),
    env: Mapping[str, str] | None = None,
    limits: SandboxLimits = SandboxLimits(),
    unsafe_no_sandbox: bool = False,
    merge_stderr: bool = False,
) -> SandboxSession:
    """Start ``argv`` as a ``SandboxSession`` in ``workdir`` (see ``run_sandboxed`` for the sandbox and
    the arguments; a session has no outputs: nothing it writes reaches the host). ``merge_stderr``
    sends the command's stderr into the stdout the session reads, in the order it was written (a
    toplevel that prints its prompts and errors on stderr and its answers on stdout)."""
    workdir, ro, full_env, command = checked_request(argv, workdir, readonly, env, unsafe_no_sandbox)
    with contextlib.ExitStack() as stack:
        wrapped = wrap(command, workdir, ro, limits, not unsafe_no_sandbox, (), stack)
        try:
            proc = spawn(
                wrapped.argv,
                cwd=workdir,
                env=full_env,
                pass_fds=wrapped.fds,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE,
            )
        except BaseException:
            if wrapped.cgroup is not None:
                wrapped.cgroup.kill_all_and_remove()
            raise
    return SandboxSession(proc, wrapped.cgroup, limits, wrapped.uid)

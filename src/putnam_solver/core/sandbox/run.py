"""One sandboxed run: start it, feed and read it under its caps, kill what is left, report what happened."""

from __future__ import annotations

import contextlib
import functools
import os
import selectors
import shutil
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from putnam_solver.core.sandbox.command import wrap
from putnam_solver.core.sandbox.host import Cgroup, find_tools, identity_for, pids_cgroup_parent
from putnam_solver.core.sandbox.lifetime import kill_group, release, spawn
from putnam_solver.core.sandbox.limits import (
    CHUNK,
    DEFAULT_PATH,
    DRAIN_SECONDS,
    FLOOD_FACTOR,
    INSTALL_HINT,
    SandboxLimits,
    SandboxResult,
    SandboxUnavailable,
)
from putnam_solver.core.sandbox.workspace import checked_dir, checked_path, resolve_command
from putnam_solver.core.untrusted import clean_text


@dataclass
class _Stream:
    """One output pipe: keeps the first ``cap`` bytes and counts the rest."""

    cap: int
    kept: bytearray = field(default_factory=bytearray)
    total: int = 0

    def add(self, chunk: bytes) -> None:
        room = self.cap - len(self.kept)
        if room > 0:
            self.kept += chunk[:room]
        self.total += len(chunk)

    def text(self) -> str:
        """The kept bytes as text a log, a prompt or the ledger can hold (bad UTF-8 and NULs replaced)."""
        return clean_text(bytes(self.kept).decode("utf-8", errors="replace"))


@functools.cache
def sandbox_status() -> tuple[bool, str]:
    """Whether bubblewrap can actually start a sandbox here (probed once), and why not if it cannot."""
    bwrap = shutil.which("bwrap", path=DEFAULT_PATH)
    if bwrap is None:
        return False, f"bubblewrap (bwrap) not found. Fix: {INSTALL_HINT}"
    try:
        tools = find_tools()
        with tempfile.TemporaryDirectory(prefix="putnam-sandbox-probe-") as tmp:
            env = {"PATH": DEFAULT_PATH}
            probe = [tools.sh, "-c", "exit 0"]
            result = execute(tuple(probe), probe, Path(tmp), (), env, SandboxLimits(30.0), None, True)
    except (OSError, RuntimeError, SandboxUnavailable) as exc:
        return False, f"bubblewrap cannot start: {exc}. Fix: {INSTALL_HINT}"
    if not result.ok:
        why = result.stderr.strip() or result.killed_reason or f"exit code {result.exit_code}"
        return False, f"bubblewrap cannot start a sandbox here: {why}. Fix: {INSTALL_HINT}"
    if pids_cgroup_parent() is not None:
        procs = "process limit: cgroup pids.max"
    elif os.geteuid() == 0:
        procs = "process limit: NOT enforced (root without a writable pids cgroup; RLIMIT_NPROC ignores root)"
    else:
        procs = "process limit: RLIMIT_NPROC (counts all processes of the sandbox uid)"
    identity = identity_for(True)
    who = f"runs as uid {identity.uid} (unprivileged)" if identity.drop else f"runs as uid {identity.uid}"
    return True, f"{bwrap}; {who}; {procs}"


def _pump(
    proc: subprocess.Popen[bytes],
    streams: dict[int, _Stream],
    stdin: bytes | None,
    deadline: float,
    flood: int,
) -> str | None:
    """Feed stdin and read both pipes until the process exits; return why it was stopped, if it was."""
    pidfd = os.pidfd_open(proc.pid)
    with selectors.DefaultSelector() as sel:
        try:
            sel.register(pidfd, selectors.EVENT_READ)
            for fd in streams:
                sel.register(fd, selectors.EVENT_READ)
            pending = memoryview(stdin or b"")
            if proc.stdin is not None:
                os.set_blocking(proc.stdin.fileno(), False)
                sel.register(proc.stdin.fileno(), selectors.EVENT_WRITE)
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return "timeout"
                for key, _ in sel.select(remaining):
                    fd = int(key.fd)
                    if fd == pidfd:
                        return None
                    if fd in streams:
                        if _read_into(sel, fd, streams[fd]) > flood:
                            return "output"
                    else:
                        pending = _write_some(sel, proc, pending)
        finally:
            os.close(pidfd)


def _read_into(sel: selectors.BaseSelector, fd: int, stream: _Stream) -> int:
    chunk = os.read(fd, CHUNK)
    if chunk:
        stream.add(chunk)
    else:
        sel.unregister(fd)
    return stream.total


def _write_some(sel: selectors.BaseSelector, proc: subprocess.Popen[bytes], pending: memoryview) -> memoryview:
    """Write what the stdin pipe takes now; close it when all is written or the reader went away."""
    assert proc.stdin is not None
    fd = proc.stdin.fileno()
    try:
        pending = pending[os.write(fd, pending) :] if pending else pending
    except BrokenPipeError:
        pending = pending[:0]
    if not pending:
        sel.unregister(fd)
        proc.stdin.close()
    return pending


def _drain(streams: dict[int, _Stream]) -> None:
    """Read what is left in the pipes once the tree is dead (bounded: a stray writer cannot hold us)."""
    deadline = time.monotonic() + DRAIN_SECONDS
    with selectors.DefaultSelector() as sel:
        for fd in streams:
            sel.register(fd, selectors.EVENT_READ)
        while sel.get_map() and (remaining := deadline - time.monotonic()) > 0:
            for key, _ in sel.select(remaining):
                _read_into(sel, int(key.fd), streams[int(key.fd)])


def run_sandboxed(
    argv: Sequence[str],
    *,
    workdir: Path,
    readonly: Sequence[Path] = (),
    env: Mapping[str, str] | None = None,
    limits: SandboxLimits = SandboxLimits(),
    unsafe_no_sandbox: bool = False,
    stdin: bytes | None = None,
    outputs: Sequence[str] = (),
) -> SandboxResult:
    """Run ``argv`` in ``workdir`` inside bubblewrap with ``limits``; see the package docstring.

    Inside, ``workdir`` is a fresh size-capped tmpfs holding read-only binds of what ``workdir`` holds
    on the host (regular files and directories only); ``readonly`` paths appear at their own paths.
    ``outputs`` are the relative names of the files the caller wants back in ``workdir`` (at most
    ``limits.disk_mb`` each; absent if the tool left none); nothing else the command writes survives.
    ``unsafe_no_sandbox`` runs the command directly in ``workdir`` with the same caps and
    ``sandboxed=False``. Raises SandboxUnavailable when bubblewrap cannot run, ValueError for a bad
    workdir, readonly path or output name, FileNotFoundError when a bare ``argv[0]`` is not on PATH.
    """
    workdir, ro, full_env, command = checked_request(argv, workdir, readonly, env, unsafe_no_sandbox)
    names = tuple(outputs)
    return execute(tuple(argv), command, workdir, ro, full_env, limits, stdin, not unsafe_no_sandbox, names)


def base_environment(home: Path) -> dict[str, str]:
    """What every sandboxed tool's environment starts from, and nothing of the harness's own: a tool
    probed outside the sandbox (its version, its library) must be probed with this too, or a variable
    such as ``COQLIB`` makes the probe describe a tool the gates never run."""
    return {"PATH": DEFAULT_PATH, "HOME": str(home), "LANG": "C.UTF-8"}


def checked_request(
    argv: Sequence[str], workdir: Path, readonly: Sequence[Path], env: Mapping[str, str] | None, unsafe: bool
) -> tuple[Path, list[Path], dict[str, str], list[str]]:
    """The caller's request made concrete, or refused before anything starts: the resolved ``workdir``
    and ``readonly`` paths, the full environment and the command with its tool resolved on ``PATH``
    (raises as ``run_sandboxed`` says)."""
    workdir = checked_dir(workdir)
    ro = [checked_path(p) for p in readonly]
    full_env = {**base_environment(workdir), **(env or {})}
    command = resolve_command(argv, full_env)
    if not unsafe:
        available, why = sandbox_status()
        if not available:
            raise SandboxUnavailable(why)
    return workdir, ro, full_env, command


def execute(
    shown: tuple[str, ...],
    command: list[str],
    workdir: Path,
    readonly: Sequence[Path],
    env: dict[str, str],
    limits: SandboxLimits,
    stdin: bytes | None,
    sandboxed: bool,
    outputs: tuple[str, ...] = (),
) -> SandboxResult:
    """Wrap ``command`` in bubblewrap (if ``sandboxed``) and the limit wrapper, run it in its own cgroup."""
    with contextlib.ExitStack() as stack:
        wrapped = wrap(command, workdir, readonly, limits, sandboxed, outputs, stack)
        try:
            return _run(
                shown, wrapped.argv, workdir, env, limits, stdin, sandboxed, wrapped.cgroup, wrapped.fds, wrapped.uid
            )
        finally:
            if wrapped.cgroup is not None:
                wrapped.cgroup.kill_all_and_remove()


def _run(
    shown: tuple[str, ...],
    command: list[str],
    workdir: Path,
    env: dict[str, str],
    limits: SandboxLimits,
    stdin: bytes | None,
    sandboxed: bool,
    cgroup: Cgroup | None,
    pass_fds: tuple[int, ...],
    uid: int,
) -> SandboxResult:
    """Start, pump, kill the tree, reap with rusage, and fold it all into a result."""
    start = time.monotonic()
    proc = spawn(
        command,
        cwd=workdir,
        env=env,
        pass_fds=pass_fds,
        stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    streams = {f.fileno(): _Stream(limits.max_output_bytes) for f in (proc.stdout, proc.stderr)}
    try:
        reason = _pump(proc, streams, stdin, start + limits.timeout_seconds, FLOOD_FACTOR * limits.max_output_bytes)
    finally:
        try:
            release(proc.pid)
            kill_group(proc.pid)  # before reaping, so the group id cannot have been reused
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            if cgroup is not None:
                cgroup.kill_all_and_remove()  # before draining: a stray writer would hold the pipes open
            _drain(streams)
        finally:
            for f in (proc.stdin, proc.stdout, proc.stderr):
                if f is not None and not f.closed:
                    f.close()
    wall = time.monotonic() - start
    code: int | None = proc.returncode
    if reason is None and proc.returncode < 0:
        reason = f"signal {-proc.returncode}"
    if reason is not None:
        code = None
    out, err = streams.values()
    return SandboxResult(
        argv=shown,
        exit_code=code,
        timed_out=reason == "timeout",
        stdout=out.text(),
        stderr=err.text(),
        stdout_bytes=out.total,
        stderr_bytes=err.total,
        truncated=out.total > len(out.kept) or err.total > len(err.kept),
        wall_seconds=wall,
        peak_memory_kb=int(usage.ru_maxrss),
        sandboxed=sandboxed,
        killed_reason=reason,
        uid=uid,
    )

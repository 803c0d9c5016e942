"""What a test sees of the host's processes through ``/proc``: the ones working under a directory."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path


def processes_in(marker: Path) -> list[tuple[int, str]]:
    """Every live process whose working directory or command line lies under ``marker`` (``/proc`` shows
    a sandboxed process's working directory at its own path, which bubblewrap keeps the same inside)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cwd = os.readlink(entry / "cwd")
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # gone, or a zombie (no working directory any more)
        if cwd.startswith(str(marker)) or str(marker) in cmdline:
            found.append((int(entry.name), cmdline.strip()))
    return found


def compiling(marker: Path, source: str) -> bool:
    """Whether a coqc under ``marker`` compiles ``source``."""
    return any("coqc" in cmd and source in cmd for _, cmd in processes_in(marker))


def wait_for(condition: str | Callable[[], str], check: Callable[[], bool], seconds: float) -> None:
    """Poll ``check`` every 0.1 s; fail naming ``condition`` (or what it returns then) if it is not true
    within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"not within {seconds:g} s: {condition if isinstance(condition, str) else condition()}")


def kill_all_in(marker: Path) -> None:
    """After a failed test: leave nothing of it running."""
    for pid, _ in processes_in(marker):
        os.kill(pid, signal.SIGKILL)

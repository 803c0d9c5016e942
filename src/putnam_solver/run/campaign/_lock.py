"""One ``putnam solve`` per run directory."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from putnam_solver.core.util import InputError

LOCK_NAME = "run.lock"


class RunLock:
    """An exclusive ``flock`` on the run directory; the kernel releases it when the process dies."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self._fd = -1

    def __enter__(self) -> RunLock:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.run_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise InputError(
                f"run directory {self.run_dir} in use by PID {holder} (another `putnam solve`); wait for it "
                "to finish or stop it, or choose another --run-dir"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        self._fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        os.close(self._fd)

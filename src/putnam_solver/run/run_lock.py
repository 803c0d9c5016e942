"""One ``putnam solve`` (or audit) per run directory.

The lock file is opened without following a link and without blocking, and only a regular file is used:
a run directory handed over may hold ``run.lock`` as a link to a file of the user's, which a followed
open would truncate.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
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
        fd = _open_lock(self.run_dir / LOCK_NAME)
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


def _open_lock(path: Path) -> int:
    """``path`` opened for the lock: created if missing; a symbolic or hard link, FIFO or device refused
    (InputError), since the lock file is truncated."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError(
                f"{path} is a symbolic link; not followed. Remove it (a run's lock is a plain file)"
            ) from exc
        raise InputError(f"{path}: cannot open the run's lock file: {exc.strerror}") from exc
    found = os.fstat(fd)
    if not stat.S_ISREG(found.st_mode) or found.st_nlink != 1:  # a hard link would share a user's file
        os.close(fd)
        raise InputError(f"{path} is not a plain file of its own (a link or special file); remove it")
    return fd

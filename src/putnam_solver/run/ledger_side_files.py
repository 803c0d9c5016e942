"""The files SQLite keeps beside a ledger (``-wal``, ``-shm``, ``-journal``), checked before it opens them.

A ledger runs in WAL mode: SQLite opens ``ledger.sqlite-wal`` and ``ledger.sqlite-shm`` beside it for reading
and writing, and creates them when missing. In a run directory handed over they are the author's. SQLite
refuses a symbolic link there, but as "unable to open database file", naming neither the file nor the fix;
it takes a FIFO as an empty journal, so ``putnam audit`` and ``putnam solve --resume`` ran (gates, model
calls paid for) and then ended at their first write in "disk I/O error ... a bug in putnam", their results
lost; and it writes a hard link's file: a ``ledger.sqlite-wal`` linked to a file of the reader's had that
file overwritten with journal frames (red team round 10 of the trust paths). So each one present must be a
plain file of its own, as SQLite makes it; a killed run leaves exactly that, and it is read as before.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from putnam_solver.run.ledger_rows import LedgerError

SIDE_SUFFIXES = ("-wal", "-shm", "-journal")


def check_side_files(ledger: Path) -> None:
    """LedgerError naming the first side file of ``ledger`` that is a link, a hard link or not a regular file."""
    for suffix in SIDE_SUFFIXES:
        side = ledger.with_name(ledger.name + suffix)
        if (found := _status(side, "the ledger's journal file")) is None:
            continue
        kind = _kind(found)
        if kind:
            remove = f"rm -r {side}" if stat.S_ISDIR(found.st_mode) else f"rm {side}"
            raise LedgerError(
                f"{side} is {kind}, not the plain file SQLite keeps beside the ledger: opened, SQLite would write "
                "the run's journal into it (or stop at the first write). It was not made by putnam; remove it "
                f"(`{remove}`; the ledger itself is untouched) and run the command again"
            )


def check_ledger_file(ledger: Path) -> None:
    """LedgerError when ``ledger`` is there but is not a regular file: SQLite reads a FIFO as a database and
    fails later with "disk I/O error", a directory with "unable to open database file", neither naming what
    is wrong. A hard link is a ledger all the same (``cp -al`` copies a run honestly); a symbolic link is
    ``Ledger.open``'s to refuse."""
    found = _status(ledger, "the run ledger")
    if found is not None and not (stat.S_ISREG(found.st_mode) or stat.S_ISLNK(found.st_mode)):
        raise LedgerError(
            f"{ledger} is {_kind(found)}, not a run's ledger (a file SQLite writes); not opened. Give the --run-dir "
            "of a putnam solve, or remove it to start a new run there"
        )


def _status(path: Path, what: str) -> os.stat_result | None:
    """``path``'s own status (a link's, not its target's); None when nothing is there."""
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise LedgerError(f"{path}: cannot look at {what}: {exc.strerror}") from exc


def _kind(found: os.stat_result) -> str:
    if stat.S_ISLNK(found.st_mode):
        return "a symbolic link"
    if stat.S_ISDIR(found.st_mode):
        return "a directory"
    if not stat.S_ISREG(found.st_mode):
        return "a FIFO, socket or device"
    if found.st_nlink != 1:
        return f"a hard link ({found.st_nlink} names share its file)"
    return ""

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
        try:
            found = os.lstat(side)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise LedgerError(f"{side}: cannot look at the ledger's journal file: {exc.strerror}") from exc
        kind = _kind(found)
        if kind:
            remove = f"rm -r {side}" if stat.S_ISDIR(found.st_mode) else f"rm {side}"
            raise LedgerError(
                f"{side} is {kind}, not the plain file SQLite keeps beside the ledger: opened, SQLite would write "
                "the run's journal into it (or stop at the first write). It was not made by putnam; remove it "
                f"(`{remove}`; the ledger itself is untouched) and run the command again"
            )


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

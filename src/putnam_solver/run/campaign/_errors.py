"""How a campaign fails: an error whose message says what to do."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path


class CampaignError(Exception):
    """The run cannot go on; the message says what to do."""


def disk_full(exc: BaseException, run_dir: Path) -> CampaignError | None:
    """A clear message for a full disk (the ledger rolled back; nothing recorded is lost)."""
    full = isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)
    full = full or (isinstance(exc, sqlite3.OperationalError) and "full" in str(exc))
    if not full:
        return None
    return CampaignError(
        f"the disk holding {run_dir} is full ({exc}); free some space and run again with --resume "
        "(the ledger is intact: every recorded attempt is kept, unrecorded ones are re-run)"
    )

"""No evaluation starts under a ``.env`` that would choose what the gates run or read.

Inspect AI loads the ``.env`` of the working directory, or of the nearest parent that has one, into the
environment as an evaluation starts (``init_dotenv``: ``find_dotenv(usecwd=True)``), after ``putnam solve``
chose and selftested its toolchain. Started from a folder of someone else's proofs (or below one), its
author's ``.env`` then set what the gates read from then on: the tools (``PUTNAM_COQC``, ``PUTNAM_LEAN``),
where verdicts and selftest records are cached (``PUTNAM_CACHE_DIR``, ``XDG_CACHE_HOME``, ``HOME``), the
Lean library (``LEAN_PATH``), the path tools are searched on, and what the text gates' worker imports
(trust paths red team 19; round 18 refused a resume from inside the run directory, this is any folder).
So ``putnam solve`` (and the ``inspect eval`` tasks) refuse to start when that file names such a variable,
whatever it says: set it in the shell instead, where the user chose it. Model settings (API keys, base URLs)
are Inspect's to read from a ``.env``, as its users expect.
"""

from __future__ import annotations

import os

from putnam_solver.core.util import InputError

DECIDING_NAMES = frozenset({"PATH", "HOME", "TMPDIR", "AXLE_API_URL"})
"""Variables that choose what the gates run or where they keep and read what they trust."""
DECIDING_PREFIXES = ("PUTNAM_", "PYTHON", "LEAN_", "ELAN_", "COQ", "ROCQ", "OCAML", "LD_", "XDG_")
"""Prefixes of such variables: putnam's own, Python's, the provers', the loader's, the user directories'."""


def deciding_names(names: list[str]) -> list[str]:
    """The names among ``names`` that choose what the gates run or read."""
    return sorted(n for n in names if n in DECIDING_NAMES or n.startswith(DECIDING_PREFIXES))


def check_dotenv() -> None:
    """Raise InputError when the ``.env`` Inspect would load names a variable ``deciding_names`` keeps."""
    try:
        from dotenv import dotenv_values, find_dotenv
    except ImportError:  # Inspect's own dependency: without it nothing loads a `.env`
        return
    found = find_dotenv(usecwd=True)
    if not found:
        return
    named = deciding_names(list(dotenv_values(found)))
    if named:
        raise InputError(
            f"{found}: this `.env`, which Inspect loads into the environment as the evaluation starts (from the "
            f"working directory {os.getcwd()} or a parent), sets {', '.join(named)}: what the gates run or read "
            "would be chosen by whoever wrote that file. Set these in your shell instead, or start from a "
            "working directory without such a `.env`"
        )

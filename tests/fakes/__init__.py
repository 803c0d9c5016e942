"""Fake executables for tests of code that drives tools we cannot run here (lake, comparator, git).

``install`` copies a fake to a path with this interpreter in its shebang, so it runs whatever PATH the
code under test builds.
"""

from __future__ import annotations

import sys
from pathlib import Path

FAKES = Path(__file__).resolve().parent


def install(fake: str, dest: Path, interpreter: str = sys.executable) -> Path:
    """Write the fake ``fake`` (a file name in this directory) as the executable ``dest``.

    A fake run inside bubblewrap needs an ``interpreter`` the sandbox exposes (the system's, not a
    virtualenv's); the fakes use only the standard library.
    """
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(f"#!{interpreter}\n" + (FAKES / fake).read_text())
    dest.chmod(0o755)
    return dest

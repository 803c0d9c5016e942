"""The quick start's commands on a machine with no network and nothing prepared: an empty home directory,
no ``PUTNAM_BENCHMARK``, no fetched data, no verdict cache. They must verify published proofs against the
packaged pinned statements (Rocq through the full profile with real coqc/coqchk, Lean through the text
gates) and exit 0. The network is removed with a network namespace that has no route (``unshare -n``),
and the test first shows that nothing can be reached from inside it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import REPO

NO_ROUTE = """
import socket
try:
    socket.create_connection(("1.1.1.1", 443), timeout=5)
except OSError:
    raise SystemExit(0)
raise SystemExit("the network is reachable")
"""


def _offline_namespace_works() -> bool:
    if shutil.which("unshare") is None:
        return False
    done = subprocess.run(["unshare", "-n", "true"], capture_output=True, check=False)
    return done.returncode == 0


pytestmark = [
    pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not installed"),
    pytest.mark.skipif(not _offline_namespace_works(), reason="`unshare -n` cannot make a network namespace here"),
]


def test_quickstart_passes_offline_with_an_empty_home(tmp_path: Path) -> None:
    home, bin_dir = tmp_path / "home", tmp_path / "bin"
    home.mkdir()
    bin_dir.mkdir()
    putnam = bin_dir / "putnam"  # this checkout's putnam, as `pip install` puts it on PATH
    putnam.write_text(f'#!/bin/sh\nexec {sys.executable} -m putnam_solver "$@"\n')
    putnam.chmod(0o755)
    env = {
        "HOME": str(home),
        "PATH": f"{bin_dir}:{os.environ.get('PATH', '/usr/bin:/bin')}",
        "PYTHONPATH": str(REPO / "src"),
        "LANG": "C.UTF-8",
    }
    script = f'{sys.executable} -c "$NO_ROUTE" && bash scripts/quickstart.sh --no-install'
    done = subprocess.run(
        ["unshare", "-n", "bash", "-c", script],
        cwd=REPO, env={**env, "NO_ROUTE": NO_ROUTE}, capture_output=True, text=True, timeout=1200, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    counts = [line for line in done.stdout.splitlines() if re.match(r"\d+ \w+: \d+ accepted", line)]
    summaries = [line.partition(": ")[2] for line in counts]  # after "4 problems: " (older: "4 candidates: ")
    assert summaries == [
        "4 accepted (2 of them on statements known defective, counted apart), 0 rejected, 0 errors "
        "(profile full, track with-answer)",
        "4 accepted, 0 rejected, 0 errors (profile full, track with-answer)",
        "8 accepted, 0 rejected, 0 errors (profile text, track with-answer)",
    ]
    assert done.stdout.count("; the copy packaged with putnam") == 6, "every pinned file from the package"
    assert "Next, depending on what you want:" in done.stderr and "putnam solve --model" in done.stderr
    assert not (home / ".local" / "share" / "putnambench-solver").exists(), "nothing was fetched"

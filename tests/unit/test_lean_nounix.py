"""G6's AF_UNIX denial: the seccomp wrapper refuses Unix-domain sockets to the command and its children."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from putnam_solver.core.provers.lean import nounix

PROBE = """
import socket, subprocess, sys
socket.socket(socket.AF_INET).close()
try:
    socket.socket(socket.AF_UNIX)
    print("unix allowed")
except OSError as exc:
    print("unix denied", exc.errno)
sys.stdout.flush()
subprocess.run([sys.executable, "-c", "import socket; socket.socket(socket.AF_UNIX)"], check=False)
"""


@pytest.mark.skipif(not nounix.libseccomp_status()[0], reason=nounix.libseccomp_status()[1])
def test_unix_sockets_are_denied_to_the_command_and_its_children() -> None:
    done = subprocess.run(
        [*nounix.command_prefix(), sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.stdout.splitlines()[0] == "unix denied 97"  # EAFNOSUPPORT, as systemd's property gives
    assert "Address family not supported" in done.stderr  # the grandchild was refused too


@pytest.mark.skipif(not nounix.libseccomp_status()[0], reason=nounix.libseccomp_status()[1])
def test_a_python_path_does_not_supply_the_filter_loader(tmp_path: Path) -> None:
    """Before: ``python nounix.py`` imported a ``ctypes`` from ``PYTHONPATH`` before loading the filter, whose
    code then ran unconfined and could skip it."""
    planted = tmp_path / "ctypes"
    planted.mkdir()
    (planted / "__init__.py").write_text(f"open({str(tmp_path / 'ran')!r}, 'w').close()\nraise SystemExit(0)\n")
    done = subprocess.run(
        [*nounix.command_prefix(), sys.executable, "-I", "-c", PROBE],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )
    assert not (tmp_path / "ran").exists()
    assert done.stdout.splitlines()[0] == "unix denied 97"

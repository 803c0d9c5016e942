"""Long-lived sandboxed sessions (warm checkers) against real bubblewrap: the same isolation as a one-shot
run, a deadline on every read, and nothing left running after ``close``."""

from __future__ import annotations

import os
import sys
import time
import uuid
from pathlib import Path

import pytest

from putnam_solver.core.sandbox import SANDBOX_UID, SandboxLimits, fresh_copy
from putnam_solver.kits.sandbox_session import SessionError, SessionTimeout, start_session
from tests.helpers import needs_sandbox
from tests.integration.test_sandbox import PY_PREFIXES, processes_with

pytestmark = needs_sandbox

ECHO = """
import sys, os
for line in sys.stdin:
    if line.startswith("write "):
        try:
            open(line.split()[1], "w").write("x")
            print("wrote", flush=True)
        except OSError as exc:
            print("refused", exc.errno, flush=True)
    elif line.startswith("flood"):
        sys.stdout.write("y" * 10_000_000); sys.stdout.flush()
    elif line.startswith("sleep"):
        import time; time.sleep(60)
    elif line.startswith("exit"):
        sys.exit(3)
    else:
        print("uid", os.getuid(), line.strip(), flush=True)
"""


def line(buffer: bytes) -> int | None:
    end = buffer.find(b"\n")
    return None if end < 0 else end + 1


def test_a_session_answers_many_inputs_as_the_sandbox_user(tmp_path: Path) -> None:
    with start_session(
        [sys.executable, "-I", "-c", ECHO], workdir=fresh_copy({}, tmp_path), readonly=PY_PREFIXES
    ) as session:
        for word in ("one", "two", "three"):
            session.send(f"{word}\n".encode())
            reply = session.read(line, time.monotonic() + 30).decode()
            assert reply.split()[2] == word
        if os.geteuid() == 0:
            assert reply.split()[1] == str(SANDBOX_UID), "root's sessions run as the unprivileged sandbox user"
        session.send(b"write /etc/passwd-new\n")
        assert session.read(line, time.monotonic() + 30).startswith(b"refused"), "the host is read-only"
    assert not session.alive


def test_a_read_past_its_deadline_kills_the_session(tmp_path: Path) -> None:
    marker = f"putnam-session-{uuid.uuid4().hex}"
    session = start_session(
        [sys.executable, "-I", "-c", ECHO, marker], workdir=fresh_copy({}, tmp_path), readonly=PY_PREFIXES
    )
    session.send(b"sleep\n")
    with pytest.raises(SessionTimeout):
        session.read(line, time.monotonic() + 1.0)
    assert not session.alive
    assert processes_with(marker) == [], "nothing of the session is left running"
    with pytest.raises(SessionError):
        session.send(b"more\n")


def test_a_flood_of_output_ends_the_session(tmp_path: Path) -> None:
    session = start_session(
        [sys.executable, "-I", "-c", ECHO],
        workdir=fresh_copy({}, tmp_path),
        readonly=PY_PREFIXES,
        limits=SandboxLimits(max_output_bytes=1 << 20),
    )
    session.send(b"flood\n")
    with pytest.raises(SessionError, match="exceeded"):
        session.read(lambda _: None, time.monotonic() + 30)
    assert not session.alive


def test_a_session_that_exits_is_reported_with_its_exit_code(tmp_path: Path) -> None:
    session = start_session([sys.executable, "-I", "-c", ECHO], workdir=fresh_copy({}, tmp_path), readonly=PY_PREFIXES)
    session.send(b"exit\n")
    with pytest.raises(SessionError, match="exit code 3"):
        session.read(line, time.monotonic() + 30)

"""`putnam solve` on a terminal, end to end: the loopback model server of ``test_cli_solve`` holds the
worker's second turn while the test reads the live view from a pseudo-terminal of a fixed width; real
coqc judges the proof.

The view must show the attempt in flight (its turn, the tool it ran, its tokens), wrap its lines at the
terminal's width rather than cut them, and finish with the run's counts.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import shutil
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from tests.fakes.openai_server import FakeOpenAI, serve, tool_call_reply
from tests.helpers import REPO
from tests.integration.test_cli_solve import EDITED, GOOD, PROBLEM, SAMPLES

pytest.importorskip("inspect_ai")
pytestmark = pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not installed")

WIDTH = 72
WAIT_SECONDS = 240
CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
ROW = re.compile(rf"^{PROBLEM}\s+2\s+check\s+([\d,]+)\s+\d+m\d\ds\s*$", re.MULTILINE)
"""The attempt's row while its second turn waits for the model: turn 2, last tool check, its tokens."""
LIVE_LINES = ("solved ", "attempted ", "campaign 1 ", "spent ", "running ", PROBLEM)
"""How the lines of the live part begin (the lines printed above it are the terminal's to wrap: a path
in them stays whole for copying)."""


@pytest.fixture(autouse=True)
def _env(solve_env: None) -> None:
    """The loopback model server's key, quick retries, a passed Rocq selftest (``solve_env``)."""


def _text(received: bytes) -> str:
    """The terminal's output as lines: control sequences removed, a carriage return starts a line."""
    return CONTROL.sub("", received.decode("utf-8", "replace")).replace("\r\n", "\n").replace("\r", "\n")


def _read(master: int, until: re.Pattern[str] | None, deadline: float) -> str:
    """What the terminal received (control sequences removed) until ``until`` matches it, or until the
    program closed the terminal when ``until`` is None."""
    received = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 1.0)
        if not ready:
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the program exited and closed its end
            chunk = b""
        if not chunk:
            break
        received += chunk
        text = _text(received)
        if until is not None and until.search(text):
            return text
    text = _text(received)
    assert until is None, f"the terminal never showed {until.pattern!r}:\n{text[-3000:]}"
    return text


def test_the_live_view_shows_the_attempt_in_flight_and_wraps_at_the_terminal_width(tmp_path: Path) -> None:
    fake = FakeOpenAI(
        [
            tool_call_reply("check", {"proof": EDITED}, "call_1"),
            "hold",
            tool_call_reply("submit", {"proof": GOOD}, "call_2"),
        ]
    )
    run_dir = tmp_path / ("a-run-directory-whose-name-is-wider-than-the-terminal-" + "x" * WIDTH)
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, WIDTH, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("TTY_COMPATIBLE", "NO_COLOR", "FORCE_COLOR")}
    env |= {"PYTHONPATH": str(REPO / "src"), "COLUMNS": str(WIDTH), "LINES": "50", "TERM": "xterm-256color"}
    with serve(fake) as url:
        args = [
            sys.executable, "-m", "putnam_solver", "solve", "--prover", "rocq", "--benchmark",
            str(SAMPLES / "benchmark.jsonl"), "--problem", PROBLEM, "--model", "openai-api/fake/fake-model",
            "--model-base-url", url, "--reviewer-model", "none", "--reasoning-effort", "none", "--jobs", "1",
            "--fallback-jobs", "1", "--max-turns", "3", "--run-dir", str(run_dir),
        ]  # fmt: skip
        done = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave, env=env)
        os.close(slave)
        try:
            deadline = time.monotonic() + WAIT_SECONDS
            during = _read(master, ROW, deadline)
            fake.release.set()
            after = _read(master, None, deadline)
            stdout, _ = done.communicate(timeout=60)
        finally:
            fake.release.set()
            if done.poll() is None:
                done.kill()
                done.wait()
            os.close(master)
    assert done.returncode == 0, during + after
    row = ROW.search(during)
    assert row is not None and int(row.group(1).replace(",", "")) >= 120, "the tokens of its first turn"
    assert "running" in during and "last tool" in " ".join(during.split())
    live = [line for line in (during + after).splitlines() if line.startswith(LIVE_LINES)]
    assert live and max(len(line) for line in live) <= WIDTH, [line for line in live if len(line) > WIDTH]
    squeezed = "".join((during + after).split())
    assert "".join(f"`putnam report {run_dir}` writes it any time".split()) in squeezed, "wrapped, not cut"
    assert "1 of 1 problems" in after and "1 of 1 attempts done" in after
    assert "passed" in after and PROBLEM in after
    assert stdout.decode().count("\n") <= 1, "stdout carries only the run's result"


def test_output_that_is_not_a_terminal_stays_one_line_per_event(tmp_path: Path, unpriced_fake_model: None) -> None:
    """Without --quiet but into a pipe (a CI log): the same plain lines as --quiet, no live view."""
    from typer.testing import CliRunner

    from putnam_solver.cli import app

    fake = FakeOpenAI(
        [tool_call_reply("check", {"proof": EDITED}, "c1"), tool_call_reply("submit", {"proof": GOOD}, "c2")]
    )
    run_dir = tmp_path / "run"
    with serve(fake) as url:
        args = [
            "solve", "--prover", "rocq", "--benchmark", str(SAMPLES / "benchmark.jsonl"), "--problem", PROBLEM,
            "--model", "openai-api/fake/fake-model", "--model-base-url", url, "--reviewer-model", "none",
            "--reasoning-effort", "none", "--jobs", "1", "--fallback-jobs", "1", "--max-turns", "3",
            "--run-dir", str(run_dir),
        ]  # fmt: skip
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert "\x1b[" not in result.stderr and "━" not in result.stderr, "no control sequence, no bar"
    assert "campaign 1 started: 1 problems" in lines
    [done] = [line for line in lines if line.startswith("passed ")]
    assert done.startswith(f"passed        {PROBLEM} (campaign 1, 2 turns, 240 tokens, unknown; verdict accepted)")
    assert done.endswith(
        " | campaign 1: 1/1 solved, 0 unresolved, 0 running; 1 attempts, 2 turns, 240 tokens, unknown, ETA 0m00s"
    )

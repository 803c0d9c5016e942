"""Sandboxes die with the harness: a real ``putnam verify`` (its own process, real coqc, the full
profile) is sent SIGKILL, SIGTERM or SIGINT while coqc compiles a candidate that never ends, and a few
seconds later no process of that compile is left, whether the gates ran in the main thread (one
candidate) or in worker threads (two candidates, ``--jobs 2``). Beside it, the valid cases: an ordinary
compile still succeeds, and a session started from a worker thread that has ended keeps working (the
parent-death signal follows the forking thread, so the sandbox forks from its own long-lived thread),
and a signal handler that stops the sandboxes runs even while its thread holds the spawner's lock.

A process "of the compile" is any process whose working directory or command line lies in the
harness's private temporary directory (``TMPDIR``), where every scratch workspace is made: bubblewrap's
monitor, the sandbox's PID 1, setpriv and coqc alike (``tests.processes``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers.rocq.build import FINDLIB_CONFIG
from putnam_solver.core.sandbox import SandboxLimits, fresh_copy, lifetime, run_sandboxed
from putnam_solver.core.sandbox.limits import ORPHANED
from putnam_solver.kits.sandbox_session import start_session
from tests.helpers import COQ_BENCH, REPO, needs_sandbox
from tests.processes import compiling, kill_all_in, processes_in, wait_for

pytestmark = needs_sandbox

PROBLEM = "putnam_1981_b3"
PROBLEMS = (PROBLEM, "putnam_1988_b1")
"""One per concurrent verification (a batch holds one candidate per problem)."""
# The benchmark's statement (it imports ZArith) with a proof that computes for ever in constant memory:
# 10^12 iterations of negb by the VM. Every text gate passes it, so the kill lands in coqc (G4).
LOOP = "Proof.\n  Eval vm_compute in (Pos.iter negb true 1000000000000%positive).\nQed.\n"


def looping_candidate(problem: str = PROBLEM) -> str:
    statement = load_benchmark(COQ_BENCH).problems[problem].formal_statement
    assert "ZArith" in statement and statement.rstrip().endswith("Proof. Admitted.")
    return statement.rstrip().removesuffix("Proof. Admitted.") + LOOP


WAIT_SECONDS = 180.0  # guards against hanging, not timing assertions
GONE_SECONDS = 5.0  # "a few seconds later"


def start_verify(tmp_path: Path, copies: int) -> tuple[subprocess.Popen[str], Path]:
    """``putnam verify`` of ``copies`` looping candidates, its temporary files under a fresh marker."""
    marker = tmp_path / "harness-tmp"
    marker.mkdir()
    files = []
    for problem in PROBLEMS[:copies]:
        (tmp_path / f"{problem}.v").write_text(looping_candidate(problem))
        files.append(str(tmp_path / f"{problem}.v"))
    env = {**os.environ, "TMPDIR": str(marker), "PUTNAM_CACHE_DIR": str(tmp_path / "cache")}
    argv = [sys.executable, "-m", "putnam_solver", "verify", "--prover", "rocq", "--benchmark", str(COQ_BENCH)]
    proc = subprocess.Popen(
        [*argv, "--jobs", str(copies), "--timeout", "900", *files],
        env=env,
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # our own Ctrl-C never reaches it; only the signal the test sends
    )
    return proc, marker


@pytest.mark.parametrize("copies", [1, 2], ids=["main-thread", "worker-threads"])
@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_a_signalled_verify_leaves_no_compile_behind(tmp_path: Path, signum: signal.Signals, copies: int) -> None:
    proc, marker = start_verify(tmp_path, copies)
    try:
        started = lambda: compiling(marker, "Candidate.v") or proc.poll() is not None  # noqa: E731
        wait_for("coqc compiles the candidate", started, WAIT_SECONDS)
        assert proc.poll() is None, proc.communicate()[0]
        time.sleep(1.0)  # well inside the loop
        os.kill(proc.pid, signum)  # the harness alone: the sandboxes are in sessions of their own
        proc.wait(timeout=WAIT_SECONDS)
        left = f"no process of the compile is left: {processes_in(marker)}"
        wait_for(left, lambda: not processes_in(marker), GONE_SECONDS)
        expected = {signal.SIGKILL: -signal.SIGKILL, signal.SIGTERM: -signal.SIGTERM, signal.SIGINT: 130}
        assert proc.returncode == expected[signum]
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=WAIT_SECONDS)
        kill_all_in(marker)


def test_a_run_still_compiles_and_reports_its_memory(tmp_path: Path) -> None:
    """The valid case beside them: the wrappers that tie a run to the harness change nothing a tool sees."""
    workdir = fresh_copy({"A.v": b"Goal True. Proof. exact I. Qed.\n"}, tmp_path)
    findlib = [p for p in FINDLIB_CONFIG if p.exists()]
    limits = SandboxLimits(120.0)
    result = run_sandboxed(["coqc", "A.v"], workdir=workdir, readonly=findlib, outputs=["A.vo"], limits=limits)
    assert result.ok, result.stderr
    assert (workdir / "A.vo").is_file()
    assert result.peak_memory_kb > 20_000  # coqc's own, reaped through the sandbox's PID 1


def test_a_session_outlives_the_thread_that_started_it(tmp_path: Path) -> None:
    """``PR_SET_PDEATHSIG`` fires when the forking *thread* ends: a session started in a worker thread
    that then ends (as a pool's idle thread is retired) must keep answering until it is closed."""
    started = []
    worker = threading.Thread(target=lambda: started.append(start_session(["cat"], workdir=tmp_path)))
    worker.start()
    worker.join(WAIT_SECONDS)
    [session] = started
    with session:
        time.sleep(1.0)  # the forking thread is gone; a signal tied to it would have arrived
        assert session.alive
        session.send(b"still here\n")
        assert session.read(lambda b: b.find(b"\n") + 1 or None, time.monotonic() + 30) == b"still here\n"
    assert not session.alive


def test_a_sandbox_whose_harness_is_gone_runs_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sandbox's PID 1 reads the harness's lifeline first: at end-of-file (every write end closed,
    as when the harness has died) the command never starts; with a write end open it runs."""
    read_end, write_end = os.pipe2(os.O_CLOEXEC)
    monkeypatch.setattr(lifetime, "_LIFELINE", (read_end, write_end))
    try:
        alive = run_sandboxed(["sh", "-c", "echo ran"], workdir=fresh_copy({}, tmp_path / "alive"))
        assert alive.ok and alive.stdout == "ran\n"
        os.close(write_end)
        gone = run_sandboxed(["sh", "-c", "echo ran"], workdir=fresh_copy({}, tmp_path / "gone"))
        assert gone.exit_code == ORPHANED and gone.stdout == ""
    finally:
        os.close(read_end)
        with contextlib.suppress(OSError):
            os.close(write_end)


STOPPING_HOLDER = """
import signal
from putnam_solver.core.sandbox import lifetime
signal.signal(signal.SIGUSR1, lifetime.stopping(lambda signum, frame: print("handled", flush=True)))
with lifetime._SPAWNER._lock:  # the main thread inside spawn() or release() when the signal comes
    signal.raise_signal(signal.SIGUSR1)
try:
    lifetime.spawn(["true"])
except lifetime.SandboxUnavailable:
    print("no new sandbox", flush=True)
"""


def test_a_stopping_handler_runs_while_its_thread_holds_the_spawner_lock() -> None:
    """A signal handler interrupts the main thread wherever it is, spawner lock held included: the
    wrapper of ``stopping`` must not deadlock there, must still run the handler, and must refuse any
    sandbox started afterwards."""
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    done = subprocess.run([sys.executable, "-c", STOPPING_HOLDER], env=env, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, "handled\nno new sandbox\n"), done.stderr

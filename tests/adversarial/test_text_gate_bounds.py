"""Text that makes a text gate work hard: deep nesting, long runs, a gate that never ends.

Every such candidate must end in a verdict (``rejected``, or ``error`` at the time bound), never in a
crash such as a RecursionError; a gate past its bound must leave no process of it running. How fast the
gates are on these inputs is measured by ``bench/text_gate_worst.py``, not here.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from putnam_solver.core import gate_worker
from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq import GATES as ROCQ_GATES
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.verify import Gate, GateResult, Profile, Submission, Track, VerifyOptions, run_gates
from tests.helpers import REPO
from tests.processes import wait_for

SAMPLES = REPO / "samples"
N = 100_000
TEXT = VerifyOptions(profile=Profile.TEXT)


def _verify(prover_name: str, candidate: str, options: VerifyOptions = TEXT) -> tuple[str, list[GateResult]]:
    bench = load_benchmark(SAMPLES / prover_name / "benchmark.jsonl")
    problem = bench.problems["sample_sum_odds" if prover_name == "rocq" else "toy_and_comm"]
    verdict = run_gates(get_prover(prover_name), bench, problem, candidate.encode(), Track.WITH_ANSWER, options)
    return verdict.status, verdict.gates


def _valid(prover_name: str) -> str:
    name = "sample_sum_odds.v" if prover_name == "rocq" else "toy_and_comm.lean"
    return (SAMPLES / prover_name / "proofs" / name).read_text(encoding="utf-8")


def _in_proof(prover_name: str, payload: str) -> str:
    mark = "Proof.\n" if prover_name == "rocq" else ":= "
    return _valid(prover_name).replace(mark, mark + payload + "\n", 1)


DEEP = [
    ("lean", _in_proof("lean", "by exact " + "(" * N + " sorry"), "G3", "sorry"),
    ("lean", _in_proof("lean", "by exact " + "⟨" * N + " sorry"), "G3", "sorry"),
    ("lean", _valid("lean") + "@[" * N, "G3", "@[@[]"),
    ("lean", _valid("lean") + "/-" * N, "G2", "unterminated"),
    ("lean", _valid("lean") + "open Nat in\n" * (N // 10) + "axiom bad : False\n", "G3", "axiom"),
    ("lean", _valid("lean") + "/-- x -/\n" * (N // 10) + "#eval 1\n", "G3", "#eval"),
    ("rocq", _in_proof("rocq", "exact " + "(" * N + " admit."), "G3", "admit"),
    ("rocq", _in_proof("rocq", "{ " * N + "admit."), "G3", "admit"),
    ("rocq", _in_proof("rocq", "- " * N + "admit."), "G3", "admit"),
    ("rocq", _valid("rocq") + "(*" * N, "G2", "unterminated comment"),
    ("rocq", _valid("rocq") + "Inductive d := " + "1." * N + "1.\n", "G2", "not a permitted addition"),
    ("rocq", _valid("rocq") + "#[" * N, "G2", "final period"),
]


@pytest.mark.parametrize(
    ("prover_name", "candidate", "gate", "why"), DEEP, ids=[f"{p}-{i}" for i, (p, *_) in enumerate(DEEP)]
)
def test_deeply_nested_or_long_text_gets_a_verdict_not_a_crash(
    prover_name: str, candidate: str, gate: str, why: str
) -> None:
    status, gates = _verify(prover_name, candidate)
    assert status == "rejected", [g.to_json() for g in gates]
    failed = {g.id: g for g in gates if g.status.value == "failed"}
    assert gate in failed and why in failed[gate].detail, failed
    assert not any("crashed" in g.detail or "RecursionError" in g.detail for g in gates)


@pytest.mark.parametrize("prover_name", ["lean", "rocq"])
def test_the_valid_samples_beside_them_are_accepted(prover_name: str) -> None:
    status, gates = _verify(prover_name, _valid(prover_name))
    assert status == "accepted", [g.to_json() for g in gates]


def test_a_violation_per_token_is_listed_up_to_the_cap_and_counted() -> None:
    status, gates = _verify("lean", _valid("lean") + "@[" * 1000)
    g3 = next(g for g in gates if g.id == "G3")
    assert status == "rejected"
    # each `@[` but the last names the next one and is unclosed: two violations; the last, one; and the
    # command's first unmatched bracket (`_brackets`), one
    assert len(g3.evidence["violations"]) == 200 and g3.evidence["violations_total"] == 2000
    assert g3.detail.splitlines()[-1] == "... and 1800 more violations (2000 in all)"
    assert len(g3.detail.splitlines()) == 201


def _stuck(sub: Submission) -> GateResult:
    """A G2 that never returns, after writing its process id where the candidate's first line says."""
    Path(sub.candidate.splitlines()[0].strip("(* )")).write_text(str(os.getpid()), encoding="utf-8")
    while True:
        pass


class StuckProver(RocqProver):
    """Rocq whose G2 never ends (module level: the worker process imports it by name)."""

    def gates(self) -> Sequence[Gate]:
        return tuple(Gate("G2", "stuck", _stuck) if g.id == "G2" else g for g in ROCQ_GATES)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_gate_past_its_time_bound_is_an_error_and_its_worker_is_gone(tmp_path: Path) -> None:
    bench = load_benchmark(SAMPLES / "rocq" / "benchmark.jsonl")
    problem = bench.problems["sample_sum_odds"]
    pid_file = tmp_path / "pid"
    candidate = f"(* {pid_file} *)\n{_valid('rocq')}".encode()
    options = VerifyOptions(profile=Profile.TEXT, text_gate_seconds=3.0)
    verdict = run_gates(StuckProver(), bench, problem, candidate, Track.WITH_ANSWER, options)
    assert verdict.status == "error"
    assert [(g.id, g.status.value) for g in verdict.gates] == [("G1", "error"), ("G2", "error"), ("G3", "error")]
    assert "did not finish within 3 s" in verdict.gates[1].detail
    pid = int(pid_file.read_text(encoding="utf-8"))
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid), f"the stuck gate's worker {pid} still runs after the verdict"
    assert pid != os.getpid()
    again = run_gates(get_prover("rocq"), bench, problem, _valid("rocq").encode(), Track.WITH_ANSWER, options)
    assert again.status == "accepted", [g.to_json() for g in again.gates]


HARNESS = """
import sys
from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from tests.adversarial.test_text_gate_bounds import SAMPLES, StuckProver
bench = load_benchmark(SAMPLES / "rocq" / "benchmark.jsonl")
options = VerifyOptions(profile=Profile.TEXT, text_gate_seconds=600.0)
run_gates(StuckProver(), bench, bench.problems["sample_sum_odds"], sys.stdin.buffer.read(), Track.WITH_ANSWER, options)
"""


def _harness_running_a_stuck_gate(tmp_path: Path) -> tuple[subprocess.Popen[bytes], int]:
    """A harness process whose text gate never ends, and the process id of the worker running it."""
    pid_file = tmp_path / "pid"
    harness = subprocess.Popen([sys.executable, "-c", HARNESS], cwd=REPO, stdin=subprocess.PIPE)
    assert harness.stdin is not None
    harness.stdin.write(f"(* {pid_file} *)\n{_valid('rocq')}".encode())
    harness.stdin.close()
    wait_for("the stuck gate started in a worker", pid_file.exists, 60)
    wait_for("the worker wrote its process id", lambda: pid_file.read_text(encoding="utf-8").isdigit(), 5)
    return harness, int(pid_file.read_text(encoding="utf-8"))


def test_a_busy_worker_dies_with_its_killed_harness(tmp_path: Path) -> None:
    harness, worker = _harness_running_a_stuck_gate(tmp_path)
    try:
        assert _alive(worker) and worker != harness.pid
        harness.kill()  # SIGKILL: the harness can do nothing on its way out
        harness.wait()
        wait_for(f"the worker {worker} ended after its harness was killed", lambda: not _alive(worker), 3)
    finally:
        if _alive(worker):
            os.kill(worker, signal.SIGKILL)


def test_a_worker_started_from_a_thread_that_ended_still_serves() -> None:
    """The kernel's parent-death signal follows the thread that started a worker: a worker first used by
    a thread that has since ended (a request thread of ``serve``) must be alive and answer the next call."""
    pids: list[int] = []
    thread = threading.Thread(target=lambda: pids.append(gate_worker.call(os.getpid, (), 60)))
    thread.start()
    thread.join()
    assert len(pids) == 1 and pids[0] != os.getpid()
    time.sleep(0.5)  # a death signal, had the worker been given one, would have arrived by now
    assert _alive(pids[0])
    assert gate_worker.call(os.getpid, (), 60) == pids[0]  # the same worker, reused

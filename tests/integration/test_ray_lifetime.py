"""Sandboxes die with the harness on a Ray node too: the Ray worker running a verification (real coqc,
the full profile, a candidate that never ends) is sent SIGKILL or SIGTERM mid-compile, and a few seconds
later no process of that compile is left, while the head gets an ``error`` verdict (never a rejection;
no retry here). SIGINT does not end a Ray worker: Ray blocks it in every process it starts (``preexec_fn``
in ``ray/_private/services.py``, 2.60: ``signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})``)
and a worker inherits the mask, so the worker and its compile go on, and end together at its SIGKILL.
The valid cases (verdicts from a node equal to local ones, a killed worker retried) are in
``test_ray_cluster``.

The node's raylet, and so its workers, run with a private ``TMPDIR`` (Ray's ``env_vars`` node option):
a process of the compile is one working or named under it (``tests.processes``). Ray's own session
files stay in the test's temporary directory.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Track, Verdict, VerifyOptions
from tests.helpers import COQ_BENCH, SANDBOX_AVAILABLE
from tests.integration.test_sandbox_lifetime import PROBLEM, looping_candidate
from tests.processes import compiling, kill_all_in, processes_in, wait_for

ray = pytest.importorskip("ray", reason="Ray is not installed (the cluster extra)")
pytestmark = [
    pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not installed"),
    pytest.mark.skipif(not SANDBOX_AVAILABLE, reason="bubblewrap sandbox unavailable"),
]

WAIT_SECONDS = 300.0  # guards against hanging, not timing assertions
GONE_SECONDS = 5.0


@pytest.fixture(scope="module")
def marker(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("node-tmp")


@pytest.fixture(scope="module")
def verifier(marker: Path) -> Iterator[Any]:
    """A one-node cluster whose workers' temporary files go under ``marker``, and a verifier that never
    retries (a retried task would start the compile again)."""
    from ray.cluster_utils import Cluster

    from putnam_solver.cluster.ray import RayVerifier
    from putnam_solver.cluster.settings import RaySettings

    node = {"num_cpus": 1, "object_store_memory": 100 * 1024 * 1024, "env_vars": {"TMPDIR": str(marker)}}
    cluster = Cluster(initialize_head=True, head_node_args=node)
    try:
        cluster.wait_for_nodes()
        made = RayVerifier(RaySettings(address=cluster.address, memory_mb=64, max_retries=0))
        try:
            yield made
        finally:
            made.close()
    finally:
        ray.shutdown()
        cluster.shutdown()
        kill_all_in(marker)


def _worker_of(marker: Path) -> int:
    """The Ray worker (Ray titles it ``ray::run_on_node``) that started a sandbox running under
    ``marker``: the first such ancestor of one of its processes (other Ray clusters may run here)."""
    import psutil

    for pid, _ in processes_in(marker):
        with contextlib.suppress(psutil.NoSuchProcess):
            for parent in psutil.Process(pid).parents():
                if (parent.cmdline() or [""])[0].startswith("ray::run_on_node"):
                    return int(parent.pid)
    raise AssertionError(f"no Ray worker runs the verification; under {marker}: {processes_in(marker)}")


def _start(verifier: Any, marker: Path, pool: ThreadPoolExecutor) -> Future[Verdict]:
    """Send the never-ending candidate to the cluster; return once a worker's coqc compiles it."""
    bench = load_benchmark(COQ_BENCH)
    data = looping_candidate().encode()
    problem, options = bench.problems[PROBLEM], VerifyOptions(timeout_seconds=900)
    running = pool.submit(verifier.verify, get_prover("rocq"), bench, problem, data, Track.WITH_ANSWER, options, "c.v")
    started = lambda: compiling(marker, "Candidate.v") or running.done()  # noqa: E731
    wait_for("a worker's coqc compiles the candidate", started, WAIT_SECONDS)
    assert not running.done(), running.result()
    time.sleep(1.0)  # well inside the loop
    return running


def _kill_and_wait_gone(pid: int, signum: signal.Signals, marker: Path) -> None:
    sent = time.monotonic()
    os.kill(pid, signum)
    left = lambda: f"no process of the compile is left: {processes_in(marker)}"  # noqa: E731
    wait_for(left, lambda: not processes_in(marker), GONE_SECONDS)
    print(f"{signum.name}: the compile was gone {time.monotonic() - sent:.2f} s after the signal")


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=lambda s: s.name)
def test_a_ray_worker_signalled_mid_compile_leaves_no_compile(
    verifier: Any, marker: Path, signum: signal.Signals
) -> None:
    with ThreadPoolExecutor(1) as pool:
        try:
            running = _start(verifier, marker, pool)
            _kill_and_wait_gone(_worker_of(marker), signum, marker)
            verdict = running.result(timeout=WAIT_SECONDS)
        finally:
            kill_all_in(marker)
    assert verdict.status == "error", verdict.to_json()


def _blocked(pid: int, signum: signal.Signals) -> bool:
    status = Path(f"/proc/{pid}/status").read_text()
    mask = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigBlk:")), 16)
    return bool(mask >> (signum - 1) & 1)


def test_a_ray_worker_lives_on_after_sigint_and_its_compile_ends_with_it(verifier: Any, marker: Path) -> None:
    with ThreadPoolExecutor(1) as pool:
        try:
            running = _start(verifier, marker, pool)
            worker = _worker_of(marker)
            assert _blocked(worker, signal.SIGINT), "Ray no longer blocks SIGINT in its workers: test it as SIGTERM"
            os.kill(worker, signal.SIGINT)
            time.sleep(2.0)
            assert compiling(marker, "Candidate.v") and not running.done(), "the worker and its compile go on"
            _kill_and_wait_gone(worker, signal.SIGKILL, marker)
            verdict = running.result(timeout=WAIT_SECONDS)
        finally:
            kill_all_in(marker)
    assert verdict.status == "error", verdict.to_json()

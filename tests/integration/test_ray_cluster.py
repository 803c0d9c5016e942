"""Gate work on a real local Ray cluster (``ray.cluster_utils.Cluster``: one raylet per node, all on this
machine), with real coqc/coqchk: same verdicts as the local pipeline, the node and fingerprint recorded,
a node with another toolchain refused, a worker killed with SIGKILL retried, a node removed mid-run.

One cluster serves the whole module (Ray starts in seconds, not milliseconds): a head and a second node
with the machine's toolchain, and a third node started with ``PUTNAM_COQC`` naming a copy of ``coqc``
elsewhere. That variable is how an operator points a node at another Coq, and the fingerprint holds the
resolved ``coqc`` path and hash, so this node's fingerprint differs from the head's: it stands for a
machine with another toolchain, and must be refused.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.cluster.ray import NodeResult, RayVerifier, Request
from putnam_solver.cluster.settings import RaySettings
from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import REPO, ROCQ_SAMPLES, SANDBOX_AVAILABLE

ray = pytest.importorskip("ray")
pytestmark = [
    pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not installed"),
    pytest.mark.skipif(not SANDBOX_AVAILABLE, reason="bubblewrap sandbox unavailable"),
]
GOOD = "sample_even_square"
PROOFS = ROCQ_SAMPLES.parent / "proofs"
NODE = {"num_cpus": 1, "object_store_memory": 100 * 1024 * 1024}
SLOW_SECONDS = 3


def wrong_proof() -> bytes:
    """The sample's statement with a proof step that does not prove it: coqc rejects it (G4)."""
    return (PROOFS / f"{GOOD}.v").read_bytes().replace(b"rewrite Nat.even_mul.\n", b"")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from ray.cluster_utils import Cluster

    other = tmp_path_factory.mktemp("other-coq")
    shutil.copy2(str(shutil.which("coqc")), other / "coqc")
    made = Cluster(initialize_head=True, head_node_args=NODE)
    try:
        made.add_node(**NODE)
        made.other_toolchain = made.add_node(**NODE, env_vars={"PUTNAM_COQC": str(other / "coqc")})
        made.wait_for_nodes()
        yield made
    finally:
        ray.shutdown()
        made.shutdown()


@pytest.fixture(scope="module")
def verifier(cluster: Any) -> Iterator[RayVerifier]:
    made = RayVerifier(RaySettings(address=cluster.address, memory_mb=64, max_retries=2))
    try:
        yield made
    finally:
        made.close()


def _verify(verifier: Any, data: bytes, options: VerifyOptions | None = None, label: str = "c.v") -> Verdict:
    bench = load_benchmark(ROCQ_SAMPLES)
    verdict: Verdict = verifier.verify(
        get_prover("rocq"), bench, bench.problems[GOOD], data, Track.WITH_ANSWER, options or VerifyOptions(), label
    )
    return verdict


def _gates(verdict: Verdict) -> list[tuple[str, str]]:
    return [(g.id, g.status.value) for g in verdict.gates]


def test_a_real_proof_and_a_wrong_one_get_the_local_verdicts_from_an_admitted_node(
    cluster: Any, verifier: RayVerifier
) -> None:
    bench = load_benchmark(ROCQ_SAMPLES)
    rocq = get_prover("rocq")
    head_toolchain = rocq.toolchain_fingerprint(VerifyOptions())
    for data, status in (((PROOFS / f"{GOOD}.v").read_bytes(), "accepted"), (wrong_proof(), "rejected")):
        local = run_gates(rocq, bench, bench.problems[GOOD], data, Track.WITH_ANSWER, VerifyOptions())
        remote = _verify(verifier, data)
        assert (remote.status, _gates(remote)) == (local.status, _gates(local)) == (status, _gates(local))
        assert remote.candidate_sha256 == local.candidate_sha256
        assert remote.ran_on["backend"] == "ray" and remote.ran_on["toolchain"] == head_toolchain
        assert remote.ran_on["node_id"] != cluster.other_toolchain.node_id
        assert remote.to_json()["ran_on"]["hostname"]
    refused = verifier.refused
    assert list(refused) == [cluster.other_toolchain.node_id]
    assert "toolchain differs" in refused[cluster.other_toolchain.node_id]
    assert "other-coq" in refused[cluster.other_toolchain.node_id]  # its coqc's path, in its fingerprint


def test_a_verdict_about_other_bytes_is_not_taken_from_a_node(verifier: RayVerifier) -> None:
    """The head checks the hashes itself: a node answering with a verdict on another candidate (a
    dishonest or confused worker) gives an error verdict, never that node's acceptance."""
    bench = load_benchmark(ROCQ_SAMPLES)
    rocq = get_prover("rocq")
    options = VerifyOptions(profile=Profile.TEXT)
    good = (PROOFS / f"{GOOD}.v").read_bytes()
    other = run_gates(rocq, bench, bench.problems[GOOD], good, Track.WITH_ANSWER, options)
    assert other.accepted
    claimed = NodeResult("n1", "host", "tc", outcome=other)
    request = Request("verify", rocq, bench, bench.problems[GOOD], wrong_proof(), Track.WITH_ANSWER, options, "c.v")
    outcome = request.checked(claimed, [])
    assert isinstance(outcome, Verdict) and outcome.status == "error"
    assert "candidate_sha256" in outcome.gates[0].detail


def _slow_coqc(directory: Path) -> Path:
    """A `coqc` that waits SLOW_SECONDS before each compile (not before --version or -where), then is the
    real one: slow enough to kill its worker mid-verification, and the verdict still the real coqc's."""
    directory.chmod(0o755)
    fake = directory / "coqc"
    fake.write_text(
        f'#!/bin/sh\nfor a in "$@"; do case $a in *.v) sleep {SLOW_SECONDS};; esac; done\n'
        f'exec {shutil.which("coqc")} "$@"\n'
    )
    fake.chmod(0o755)
    return fake


def _busy_worker(timeout: float = 60) -> int:
    """The pid of a Ray worker process of this module's cluster running a verification (Ray titles it
    ``ray::run_on_node``; the cluster's raylets are this process's children, so its workers descend from
    it: another cluster's workers on the machine, another test run's included, are never chosen)."""
    import psutil

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for proc in psutil.Process().children(recursive=True):
            with contextlib.suppress(psutil.NoSuchProcess):
                if (proc.cmdline() or [""])[0].startswith("ray::run_on_node"):
                    return int(proc.pid)
        time.sleep(0.1)
    raise AssertionError("no Ray worker started the verification")


def test_a_worker_killed_mid_verification_is_retried_and_the_verdict_is_right(
    verifier: RayVerifier, tmp_path_factory: pytest.TempPathFactory
) -> None:
    options = VerifyOptions(tools={"coqc": _slow_coqc(tmp_path_factory.mktemp("slow"))})
    with ThreadPoolExecutor(1) as pool:
        running = pool.submit(_verify, verifier, (PROOFS / f"{GOOD}.v").read_bytes(), options)
        os.kill(_busy_worker(), signal.SIGKILL)
        verdict = running.result(timeout=300)
    assert verdict.status == "accepted"
    lost = verdict.ran_on["lost_attempts"]
    assert len(lost) == 1 and "WorkerCrashedError" in lost[0]["error"]


def test_a_verification_whose_workers_keep_dying_is_an_error_never_a_verdict(
    cluster: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Retries are bounded: with max_retries=0 one lost worker makes an error verdict naming it."""
    once = RayVerifier(RaySettings(address=cluster.address, memory_mb=64, max_retries=0))
    options = VerifyOptions(tools={"coqc": _slow_coqc(tmp_path_factory.mktemp("slow0"))})
    with ThreadPoolExecutor(1) as pool:
        running = pool.submit(_verify, once, (PROOFS / f"{GOOD}.v").read_bytes(), options)
        os.kill(_busy_worker(), signal.SIGKILL)
        verdict = running.result(timeout=300)
    assert verdict.status == "error" and [g.id for g in verdict.gates] == ["D0"]
    assert "WorkerCrashedError" in verdict.gates[0].detail


def _wait_for_a_task_on(verifier: RayVerifier, node_id: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not any(n["node_id"] == node_id and n["in_flight"] for n in verifier.nodes()):
        assert time.monotonic() < deadline, "no task was sent to the node"
        time.sleep(0.05)
    time.sleep(1)  # the task has started its (slow) compile


@pytest.mark.slow
def test_a_node_removed_mid_run_does_not_stop_the_run(
    cluster: Any, verifier: RayVerifier, tmp_path_factory: pytest.TempPathFactory
) -> None:
    doomed = cluster.add_node(**NODE)
    cluster.wait_for_nodes()
    options = VerifyOptions(tools={"coqc": _slow_coqc(tmp_path_factory.mktemp("slow-node"))})
    good, bad = (PROOFS / f"{GOOD}.v").read_bytes(), wrong_proof()
    batch = [good, bad, good, bad]
    with ThreadPoolExecutor(len(batch)) as pool:
        running = [pool.submit(_verify, verifier, data, options, f"c{i}.v") for i, data in enumerate(batch)]
        _wait_for_a_task_on(verifier, doomed.node_id)
        cluster.remove_node(doomed, allow_graceful=False)
        verdicts = [r.result(timeout=600) for r in running]
    assert [v.status for v in verdicts] == ["accepted", "rejected", "accepted", "rejected"]
    assert all(v.ran_on["node_id"] != doomed.node_id for v in verdicts)
    assert any(lost["node"] == doomed.node_id for v in verdicts for lost in v.ran_on.get("lost_attempts", []))


def test_putnam_verify_with_ray_prints_the_verdicts_and_records_the_node(cluster: Any, tmp_path: Path) -> None:
    out = tmp_path / "verdicts.json"
    done = subprocess.run(
        [sys.executable, "-m", "putnam_solver", "verify", "--prover", "rocq", "--benchmark", str(ROCQ_SAMPLES),
         "--no-cache", "--ray", cluster.address, "--ray-memory-mb", "64", "--json", str(out),
         str(PROOFS / f"{GOOD}.v")],
        cwd=REPO, capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(REPO / "src")},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "ACCEPTED" in done.stdout and "refused" in done.stderr  # the node with the other Coq
    result = json.loads(out.read_text())["results"][0]
    assert result["status"] == "accepted" and result["ran_on"]["backend"] == "ray"


def test_goals_come_from_a_session_on_a_node_as_locally(verifier: RayVerifier) -> None:
    """The agent's ``goals`` on a node: the proof state of a session started there for the call, the
    same as this machine's; a file G3 refuses gets G3's refusal from the node too."""
    from putnam_solver.kits.interactive import ProofState
    from putnam_solver.kits.sessions import SessionPool, proof_state

    bench = load_benchmark(ROCQ_SAMPLES)
    rocq, problem = get_prover("rocq"), bench.problems[GOOD]
    text = (PROOFS / f"{GOOD}.v").read_text()
    forbidden = text.replace("reflexivity.", "admit.").replace("Qed.", "Admitted.\nAxiom cheat : False.")
    pool = SessionPool(max_sessions=1)
    try:
        for candidate, line in ((text, 7), (forbidden, 7)):
            local = proof_state(rocq, bench, problem, candidate, line, Track.WITH_ANSWER, VerifyOptions(), pool)
            remote = verifier.goals(rocq, bench, problem, candidate, line, Track.WITH_ANSWER, VerifyOptions(), pool)
            assert remote == local
    finally:
        pool.close()
    assert isinstance(local, str) and "G3" in local
    state = verifier.goals(rocq, bench, problem, text, 7, Track.WITH_ANSWER, VerifyOptions(), pool)
    assert isinstance(state, ProofState) and "Nat.even n" in (state.goals or "")


def test_putnam_serve_sends_its_verifications_to_the_cluster(
    verifier: RayVerifier, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``serve --ray``'s wiring: the service's pool hands each job to the cluster's verifier, and the
    answer is the node's checked verdict (readiness is the head's selftest, out of scope here)."""
    from starlette.testclient import TestClient

    from putnam_solver.serve import PoolVerifier, Readiness, ServeConfig, create_app, load_keys

    monkeypatch.setattr(Readiness, "not_ready", lambda self, prover=None: None)
    monkeypatch.setattr(Readiness, "start", lambda self: None)
    key = "ray-key-0123456789abcdef"
    (tmp_path / "keys").write_text(f"ray {key}\n")
    (tmp_path / "keys").chmod(0o600)  # the keys file is this account's alone
    config = ServeConfig(keys=load_keys(tmp_path / "keys"), benchmarks={"rocq": load_benchmark(ROCQ_SAMPLES)})
    pool = PoolVerifier(2, verifier)
    try:
        with TestClient(create_app(config, pool)) as client:
            answers = [
                client.post(
                    "/verify",
                    json={"problem": GOOD, "candidate": data.decode(), "profile": "full"},
                    headers={"Authorization": f"Bearer {key}"},
                    params={"full": "1"},
                ).json()
                for data in ((PROOFS / f"{GOOD}.v").read_bytes(), wrong_proof())
            ]
    finally:
        pool.close()
    assert [a["status"] for a in answers] == ["accepted", "rejected"]
    assert all(a["ran_on"]["backend"] == "ray" for a in answers)
    assert not {a["ran_on"]["node_id"] for a in answers} & set(verifier.refused)


def test_without_ray_installed_ray_names_the_extra(tmp_path: Path) -> None:
    (tmp_path / "ray").mkdir()
    (tmp_path / "ray" / "__init__.py").write_text("raise ImportError('no ray here')\n")
    done = subprocess.run(
        [sys.executable, "-m", "putnam_solver", "verify", "--prover", "rocq", "--benchmark", str(ROCQ_SAMPLES),
         "--ray", "auto", str(PROOFS / f"{GOOD}.v")],
        cwd=REPO, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{REPO / 'src'}"},
    )  # fmt: skip
    assert done.returncode == 2
    assert "putnambench-solver[ray]" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_solve_with_ray_submits_and_audits_on_the_cluster(cluster: Any, verifier: RayVerifier, tmp_path: Path) -> None:
    """``putnam solve --ray ... --audit`` end to end against a scripted model: the agent's ``submit`` and
    the audit both ran as Ray tasks, and their verdicts say on which node."""
    pytest.importorskip("inspect_ai")
    from tests.fakes.openai_server import serve
    from tests.fakes.sample_prover import SampleProver
    from tests.processes import putnam, solve_args

    with serve(SampleProver([])) as url:
        args = solve_args(ROCQ_SAMPLES, tmp_path / "run", GOOD, url=url, max_turns=1)
        ray = ("--audit", "--ray", cluster.address, "--ray-memory-mb", "64")
        code, stdout, stderr = putnam(*args, *ray, FAKE_API_KEY="test-key", INSPECT_EVAL_MAX_RETRIES="1")
    assert code == 0, stdout + stderr
    evidence = tmp_path / "run" / "attempts" / "campaign-1" / GOOD
    submitted = json.loads((evidence / "verdict.json").read_text())
    audited = json.loads((evidence / "audit.json").read_text())
    assert submitted["status"] == "accepted" and submitted["ran_on"]["backend"] == "ray"
    assert audited["status"] == "accepted" and audited["verdict"]["ran_on"]["backend"] == "ray"
    # the audit re-ran the pass on another admitted node than the one that produced it
    assert audited["verdict"]["ran_on"]["avoided_nodes"] == [submitted["ran_on"]["node_id"]]
    assert audited["verdict"]["ran_on"]["node_id"] != submitted["ran_on"]["node_id"]
    assert audited["verdict"]["ran_on"]["head_checked"] == ["G1", "G2", "G3"]

"""Verifications per second: the local thread pool vs local Ray clusters of 1 and 2 nodes; Ray's overhead.

Usage: python bench/ray_dispatch.py [N] [--profile text|full]   (default N=40 verifications, text)

Every backend verifies the same N candidates (the Rocq samples, cycled) with the same options and the
verdict cache off, through ``verify_candidates`` with as many threads as the backend has slots. The Ray
clusters are ``ray.cluster_utils.Cluster`` on this machine (one raylet per node, 1 CPU each), so the
nodes share this machine's cores: the local pool is expected to win here; Ray pays off when the nodes
are other machines. With the ``text`` profile (G1-G3, about a millisecond of work) the time per
verification is almost all dispatch: that is the Ray overhead per task. Verdicts are compared with the
local pool's (must be 0 differences).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import ray
from ray.cluster_utils import Cluster

from putnam_solver.cluster.ray import RayVerifier
from putnam_solver.cluster.settings import RaySettings
from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions
from putnam_solver.verifier.candidates import Candidate, verify_candidates
from putnam_solver.verifier.dispatch import LOCAL, Verifier

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "rocq"
NODE = {"num_cpus": 1, "object_store_memory": 100 * 1024 * 1024}


def candidates(n: int) -> list[Candidate]:
    bench = load_benchmark(SAMPLES / "benchmark.jsonl")
    files = sorted((SAMPLES / "proofs").glob("*.v"))
    return [Candidate(f, bench.problems[f.stem], f.read_bytes()) for f in (files * n)[:n]]


def run(
    verifier: Verifier, batch: list[Candidate], options: VerifyOptions, jobs: int | None = None
) -> tuple[float, list[Verdict]]:
    bench = load_benchmark(SAMPLES / "benchmark.jsonl")
    jobs = jobs or verifier.slots()
    start = time.perf_counter()
    rocq = get_prover("rocq")
    verdicts = verify_candidates(batch, rocq, bench, Track.WITH_ANSWER, options, jobs, None, None, verifier)
    return time.perf_counter() - start, verdicts


def on_cluster(
    nodes: int, work: Callable[[Verifier, int | None], tuple[float, list[Verdict]]]
) -> tuple[float, list[Verdict]]:
    cluster = Cluster(initialize_head=True, head_node_args=NODE)
    try:
        for _ in range(nodes - 1):
            cluster.add_node(**NODE)
        cluster.wait_for_nodes()
        verifier = RayVerifier(RaySettings(address=cluster.address, memory_mb=64))
        try:
            work(verifier, 2 * nodes)  # warm-up: node probes, worker processes started, modules imported
            return work(verifier, None)
        finally:
            verifier.close()
    finally:
        ray.shutdown()
        cluster.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=40)
    parser.add_argument("--profile", choices=[p.value for p in Profile], default=Profile.TEXT.value)
    args = parser.parse_args()
    options = VerifyOptions(profile=Profile(args.profile))
    batch = candidates(args.n)
    run(LOCAL, batch[:2], options)
    rows = {"local pool": run(LOCAL, batch, options), "local, 1 thread": run(LOCAL, batch, options, 1)}
    for nodes in (1, 2):
        rows[f"ray, {nodes} node{'s' if nodes > 1 else ''}"] = on_cluster(
            nodes, lambda v, k: run(v, batch[:k], options)
        )
    base_seconds, base = rows["local pool"]
    print(f"{args.n} verifications, profile {args.profile}, Rocq samples")
    print(f"{'backend':14} {'seconds':>8} {'per s':>8} {'ms each':>8} {'vs pool':>8} differences")
    for name, (seconds, verdicts) in rows.items():
        differ = sum(a.status != b.status for a, b in zip(verdicts, base, strict=True))
        print(
            f"{name:14} {seconds:8.2f} {args.n / seconds:8.1f} {1000 * seconds / args.n:8.1f} "
            f"{seconds / base_seconds:7.2f}x {differ}"
        )
    serial, one = rows["local, 1 thread"][0], rows["ray, 1 node"][0]
    print(f"Ray overhead per task (1 node, 1 slot, vs 1 local thread): {1000 * (one - serial) / args.n:.1f} ms")


if __name__ == "__main__":
    main()

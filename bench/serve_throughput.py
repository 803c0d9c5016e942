"""`putnam serve` throughput: requests per second and latency percentiles, verdict-cache hits against
fresh verifications, side by side in one run.

Starts a real server (a child process on loopback, ``--jobs`` workers, a fresh cache directory, so it
first runs its selftest) serving the PutnamBench data, then, with ``--clients`` concurrent httpx
clients for ``--seconds`` each:

- Lean, text profile: ``cached`` sends one published proof again and again (every request after the
  first is a cache hit); ``fresh`` appends a new comment to it each time (new bytes: the text gates run);
- Rocq, full profile (coqc, the trusted check, coqchk): ``cached`` sends one published proof again and
  again; ``fresh`` sends ``--rocq-fresh`` copies with new comments (each one a full verification).

Printed per row: requests, requests per second, and the p50/p90/p99 latency in milliseconds; every
answer must be 200 with the expected verdict (the bench stops otherwise).
Usage: ``python bench/serve_throughput.py [--clients N] [--seconds S] [--jobs J] [--rocq-fresh K]``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.serve_server

from tests.helpers import PUTNAMBENCH, REPO
from tests.serve_server import auth, start_server, write_keys

CORPUS = REPO / "tests" / "fixtures" / "conformance"
LEAN = ("putnam_1985_a3", (CORPUS / "lean" / "putnam-fix-jsonl__putnam_1985_a3.lean").read_text())
ROCQ = ("putnam_1974_a3", (CORPUS / "rocq" / "putnambench-rocq__putnam_1974_a3.v").read_text())

Body = Callable[[int], dict[str, object]]


def body_for(prover: str, problem: str, text: str, profile: str, fresh: bool, comment: str) -> Body:
    run = uuid.uuid4().hex  # no verdict of an earlier run is reused by the fresh rows

    def body(n: int) -> dict[str, object]:
        candidate = text + (comment.format(f"{run} {n}") if fresh else "")
        return {"problem": problem, "prover": prover, "profile": profile, "candidate": candidate}

    return body


async def measure(url: str, body: Body, clients: int, seconds: float | None, total: int | None) -> list[float]:
    """Latencies (seconds) of the requests ``clients`` concurrent clients complete, for ``seconds`` or
    until ``total`` requests were sent."""
    latencies: list[float] = []
    counter = iter(range(10**9))
    until = time.monotonic() + seconds if seconds else None

    async def client() -> None:
        async with httpx.AsyncClient(base_url=url, headers=auth("bob"), timeout=600) as http:
            while (until is None or time.monotonic() < until) and (n := next(counter)) < (total or 10**9):
                started = time.perf_counter()
                response = await http.post("/verify", json=body(n))
                latencies.append(time.perf_counter() - started)
                if response.status_code != 200 or response.json()["status"] != "accepted":
                    raise SystemExit(f"unexpected answer {response.status_code}: {response.text[:500]}")

    began = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    latencies.append(-(time.perf_counter() - began))  # the wall time, popped by the caller
    return latencies


def row(label: str, latencies: list[float]) -> str:
    wall = -latencies.pop()
    cuts = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else latencies * 99
    p50, p90, p99 = (cuts[i - 1] * 1000 for i in (50, 90, 99))
    return f"{label:<22}{len(latencies):>8}{len(latencies) / wall:>10.1f}{p50:>10.1f}{p90:>10.1f}{p99:>10.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rocq-fresh", type=int, default=6, help="fresh Rocq verifications (each takes seconds)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="serve-bench-") as tmp:
        work = Path(tmp)
        keys = write_keys(work / "keys")
        env = {"PUTNAM_CACHE_DIR": str(work / "cache"), "PUTNAM_BENCHMARK": str(PUTNAMBENCH)}
        limit = ["--per-key-limit", str(args.clients)]
        print("starting the server (it runs its selftest first) ...", flush=True)
        server = start_server(work / "server.log", ["--keys", str(keys), "--jobs", str(args.jobs), *limit], env)
        try:
            rows = [
                ("lean text cached", body_for("lean", *LEAN, "text", False, ""), args.seconds, None),
                ("lean text fresh", body_for("lean", *LEAN, "text", True, "\n-- {}\n"), args.seconds, None),
                ("rocq full cached", body_for("rocq", *ROCQ, "full", False, ""), args.seconds, None),
                ("rocq full fresh", body_for("rocq", *ROCQ, "full", True, "\n(* {} *)\n"), None, args.rocq_fresh),
            ]
            for _, body, _, _ in rows[::2]:  # the first request of a cached row fills the cache
                asyncio.run(measure(server.url, body, 1, None, 1))
            print(f"{args.clients} clients, server --jobs {args.jobs}; latency in ms")
            print(f"{'':<22}{'requests':>8}{'req/s':>10}{'p50':>10}{'p90':>10}{'p99':>10}")
            for label, body, seconds, total in rows:
                print(row(label, asyncio.run(measure(server.url, body, args.clients, seconds, total))), flush=True)
            print(f"server RSS at the end: {server.rss_kib() / 1024:.0f} MiB")
        finally:
            server.stop()


if __name__ == "__main__":
    main()

"""Verdicts that do not depend on the host (issue 22, item 7), with real coqc.

How deep coqc may recurse decides whether a proof compiles: ``Eval lazy`` of a large unary sum needs a
deep stack. The sandbox sets the stack limit itself (``SandboxLimits.stack_mb``), so a proof that needs
more than a small host default is accepted even when the harness runs under ``ulimit -s 1024``, and one
that exhausts the sandbox's own limit is an ``error`` that is never cached, not a rejection. The AXLE
time limit is part of every verdict's cache key.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.cache import VerdictCache
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.verify import Profile, Track, VerifyOptions
from putnam_solver.verifier.candidates import Candidate, verdict_key, verify_candidates
from tests.helpers import REPO, SANDBOX_AVAILABLE

SAMPLES = REPO / "samples" / "rocq"
PROBLEM = "sample_even_square"
pytestmark = pytest.mark.skipif(
    shutil.which("coqc") is None or not SANDBOX_AVAILABLE, reason="needs coqc and the sandbox"
)
HOST_STACK = 1 << 20  # a host far below the usual 8 MiB default


def with_computation(term: str) -> str:
    """The sample's valid proof, computing ``term`` first (the computation does not change the proof)."""
    proof = (SAMPLES / "proofs" / f"{PROBLEM}.v").read_text()
    return proof.replace("Proof.\n", f"Proof.\n  Eval lazy in ({term}).\n", 1)


def verify(tmp_path: Path, text: str, cache: VerdictCache) -> tuple[str, str]:
    bench = load_benchmark(SAMPLES / "benchmark.jsonl")
    path = tmp_path / f"{PROBLEM}.v"
    path.write_text(text)
    candidate = Candidate(path, bench.problems[PROBLEM], text.encode())
    options = VerifyOptions(profile=Profile.FAST)
    (verdict,) = verify_candidates([candidate], RocqProver(), bench, Track.WITH_ANSWER, options, cache=cache)
    failing = [g.detail for g in verdict.gates if not g.passed]
    return verdict.status, failing[0] if failing else ""


def cached_entries(cache: VerdictCache) -> int:
    return sum(1 for _ in cache.directory.rglob("*.json")) if cache.directory.exists() else 0


def test_a_stack_overflow_is_an_error_and_never_cached(tmp_path: Path) -> None:
    cache = VerdictCache(tmp_path / "cache")
    status, detail = verify(tmp_path, with_computation("Nat.pow 2 20 + 0"), cache)
    assert status == "error", detail
    assert "overflowed its stack" in detail and "not a verdict on the candidate" in detail
    assert cached_entries(cache) == 0
    status, detail = verify(tmp_path, with_computation("20000 + 20000"), cache)  # within the sandbox's stack
    assert status == "accepted", detail
    assert cached_entries(cache) == 1


def test_a_proof_needing_more_stack_than_the_host_gives_is_accepted_all_the_same(tmp_path: Path) -> None:
    """Under the harness's own 1 MiB stack this computation overflows coqc (checked first, outside the
    sandbox); through ``putnam verify`` under that same limit the proof is accepted."""
    text = with_computation("20000 + 20000")
    (tmp_path / "A.v").write_text(text.replace(f"Theorem {PROBLEM}", "Theorem a"))
    prlimit = ["prlimit", f"--stack={HOST_STACK}:", "--"]  # the soft limit, as ``ulimit -s`` sets it
    bare = subprocess.run([*prlimit, "coqc", "A.v"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert bare.returncode != 0 and "Stack overflow" in bare.stderr, "the host limit must matter for this test"
    candidate = tmp_path / "candidate" / f"{PROBLEM}.v"
    candidate.parent.mkdir()
    candidate.write_text(text)
    verify_cli = [sys.executable, "-m", "putnam_solver", "verify", "--gates", "fast", "--no-cache"]
    verify_cli += ["--benchmark", str(SAMPLES / "benchmark.jsonl"), str(candidate)]
    env = {**os.environ, "PUTNAM_CACHE_DIR": str(tmp_path / "cache")}
    run = subprocess.run([*prlimit, *verify_cli], cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"ACCEPTED {PROBLEM}" in " ".join(run.stdout.split())
    # A hard limit below the sandbox's stack cannot be raised (no CAP_SYS_RESOURCE in a container): the
    # compile gate cannot run as documented, so it is unavailable, saying so, and nothing is judged.
    hard = ["prlimit", f"--stack={HOST_STACK}", "--"]
    run = subprocess.run([*hard, *verify_cli], cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 2, run.stdout + run.stderr
    assert "hard stack limit" in " ".join(run.stdout.split())


def test_the_axle_time_limit_is_part_of_the_cache_key() -> None:
    """AXLE's ``okay: false`` on its server-side time limit (``timeout_seconds``) is a decided verdict."""
    bench = load_benchmark(SAMPLES / "benchmark.jsonl")
    text = (SAMPLES / "proofs" / f"{PROBLEM}.v").read_bytes()
    candidate = Candidate(SAMPLES / "proofs" / f"{PROBLEM}.v", bench.problems[PROBLEM], text)

    def key(**options: object) -> str:
        return verdict_key(RocqProver(), bench, candidate, Track.WITH_ANSWER, VerifyOptions(**options))  # type: ignore[arg-type]

    assert key(axle=True, timeout_seconds=60.0) != key(axle=True, timeout_seconds=900.0)
    assert key(axle=True, text_gate_seconds=1.0) == key(axle=True, text_gate_seconds=5.0)

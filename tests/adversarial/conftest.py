"""Fixtures of the adversarial tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakes.swapped_coqc import selftested_copy


@pytest.fixture
def coqc(tmp_path: Path, solve_env: None) -> Path:
    """A copy of the installed ``coqc`` the gates run (``--tool coqc=...``), with a passed selftest record, in a
    private cache (``swapped_coqc``)."""
    return selftested_copy(tmp_path / "tools")
